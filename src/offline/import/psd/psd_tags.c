/* Layer-name tags in the style of Spine's PSD conventions: `[tag]` or `[tag:value]` anywhere in
 * the name; what is left, trimmed, is the name. GIMP makes layer names unique by appending
 * " #1", " #2" …, which would split a skin's placeholders, so that suffix is dropped. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "psd_import_internal.h"

static void set_value(char *dst, size_t size, const char *v, size_t n)
{
    while (n > 0 && isspace((unsigned char)*v)) v++, n--;
    while (n > 0 && isspace((unsigned char)v[n - 1])) n--;
    if (n >= size) n = size - 1;
    memcpy(dst, v, n);
    dst[n] = '\0';
}

static void note_unknown(pi_tags *t, const char *tag, size_t n)
{
    size_t used = strlen(t->unknown);
    if (used + n + 4 >= sizeof t->unknown) return;
    snprintf(t->unknown + used, sizeof t->unknown - used, "%s[%.*s]", used ? " " : "", (int)n, tag);
}

void pi_parse_tags(const char *layer_name, pi_tags *t)
{
    memset(t, 0, sizeof *t);
    char name[256];
    size_t o = 0;
    const char *s = layer_name ? layer_name : "";
    while (*s) {
        const char *close = *s == '[' ? strchr(s, ']') : NULL;
        if (!close) {
            if (o + 1 < sizeof name) name[o++] = *s;
            s++;
            continue;
        }
        const char *tag = s + 1;
        size_t n = (size_t)(close - tag);
        const char *colon = memchr(tag, ':', n);
        size_t word = colon ? (size_t)(colon - tag) : n;
        const char *val = colon ? colon + 1 : "";
        size_t vn = colon ? (size_t)(close - val) : 0;
#define IS(w) (word == strlen(w) && strncmp(tag, w, word) == 0)
        if (IS("ignore")) t->ignore = true;
        else if (IS("merge")) t->merge = true;
        else if (IS("mesh")) t->mesh = true; /* [mesh:name] (linked mesh) is read as [mesh] */
        else if (IS("normal")) t->normal = true;
        else if (IS("bone")) t->bone = true, set_value(t->bone_name, sizeof t->bone_name, val, vn);
        else if (IS("slot")) t->slot = true, set_value(t->slot_name, sizeof t->slot_name, val, vn);
        else if (IS("skin")) t->skin = true, set_value(t->skin_name, sizeof t->skin_name, val, vn);
        else if (IS("path")) set_value(t->path, sizeof t->path, val, vn);
        else note_unknown(t, tag, n);
#undef IS
        s = close + 1;
    }
    name[o] = '\0';
    /* collapse runs of spaces, trim */
    char *r = name, *w = t->name;
    while (*r && isspace((unsigned char)*r)) r++;
    while (*r && (size_t)(w - t->name) + 1 < sizeof t->name) {
        if (isspace((unsigned char)*r)) {
            while (isspace((unsigned char)r[1])) r++;
            if (!r[1]) break;
            *w++ = ' ';
        } else {
            *w++ = *r;
        }
        r++;
    }
    *w = '\0';
    /* GIMP's " #N" */
    char *hash = strrchr(t->name, '#');
    if (hash && hash > t->name && hash[-1] == ' ' && hash[1]) {
        bool digits = true;
        for (const char *d = hash + 1; *d; d++) digits = digits && isdigit((unsigned char)*d);
        if (digits) hash[-1] = '\0';
    }
}
