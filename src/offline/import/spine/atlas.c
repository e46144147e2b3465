/* The Spine atlas reader: a line-based text of pages (an image name, then "key: values" lines)
 * each followed by its regions (a name, then "key: values" lines). A blank line ends a page.
 * Reads Spine 4 keys (bounds, offsets, rotate: degrees) and the older libgdx ones (xy, size,
 * orig, offset, rotate: true). Keys that do not affect the pixels (split, pad, format, filter,
 * repeat …) are accepted and ignored. */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mf/mf_png.h"
#include "mf/mf_spine.h"
#include "util/arena.h"
#include "util/files.h"

typedef struct rd {
    mf_atlas *at;
    const char *file;
    mf_diag *diag;
    int line;
    int32_t page_cap, region_cap;
    /* per region: which size keys were given */
    bool has_bounds, has_xy, has_size, has_orig, has_offset;
} rd;

static mf_result fail(rd *r, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static mf_result fail(rd *r, const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    char where[32];
    snprintf(where, sizeof where, "line %d", r->line);
    mf_diag_set(r->diag, r->file, where, "%s", msg);
    return MF_ERR_INVALID;
}

static mf_result oom(rd *r)
{
    mf_diag_set(r->diag, r->file, "", "out of memory");
    return MF_ERR_NOMEM;
}

/* Grows an arena array: arenas never free, so doubling keeps the waste bounded. */
static void *grow(mf_arena *a, void *old, int32_t count, int32_t *cap, size_t size)
{
    if (count < *cap) return old;
    int32_t ncap = *cap ? *cap * 2 : 16;
    void *n = mf_arena_alloc(a, (size_t)ncap * size);
    if (!n) return NULL;
    if (old && count) memcpy(n, old, (size_t)count * size);
    *cap = ncap;
    return n;
}

/* Up to max comma-separated integers; returns how many were read, -1 on a bad number. */
static int ints(const char *s, int32_t *out, int max)
{
    int n = 0;
    while (*s) {
        while (isspace((unsigned char)*s)) s++;
        if (!*s) break;
        if (n == max) return -1;
        errno = 0;
        char *end;
        long v = strtol(s, &end, 10);
        if (end == s || errno || v < INT32_MIN || v > INT32_MAX) return -1;
        out[n++] = (int32_t)v;
        s = end;
        while (isspace((unsigned char)*s)) s++;
        if (*s == ',') s++;
        else if (*s) return -1;
    }
    return n;
}

static mf_result want_ints(rd *r, const char *key, const char *val, int32_t *out, int count)
{
    if (ints(val, out, count) != count)
        return fail(r, "bad %s \"%s\": expected %d integer%s", key, val, count, count == 1 ? "" : "s");
    return MF_OK;
}

static mf_result boolean(rd *r, const char *key, const char *val, bool *out)
{
    if (strcmp(val, "true") == 0) *out = true;
    else if (strcmp(val, "false") == 0) *out = false;
    else return fail(r, "bad %s \"%s\": expected true or false", key, val);
    return MF_OK;
}

static mf_result page_key(rd *r, mf_atlas_page *p, const char *key, const char *val)
{
    if (strcmp(key, "size") == 0) {
        int32_t v[2];
        mf_result res = want_ints(r, key, val, v, 2);
        if (res != MF_OK) return res;
        if (v[0] < 0 || v[1] < 0) return fail(r, "bad size \"%s\": negative", val);
        p->width = v[0];
        p->height = v[1];
        return MF_OK;
    }
    if (strcmp(key, "pma") == 0) return boolean(r, key, val, &p->pma);
    if (strcmp(key, "scale") == 0) {
        char *end;
        double s = strtod(val, &end);
        if (end == val || *end || !(s > 0) || s > 1e6) return fail(r, "bad scale \"%s\": expected a positive number", val);
        p->scale = (float)s;
    }
    return MF_OK; /* format, filter, repeat …: not needed to unpack pixels */
}

static mf_result region_key(rd *r, mf_atlas_region *g, const char *key, const char *val)
{
    int32_t v[4];
    mf_result res = MF_OK;
    if (strcmp(key, "bounds") == 0) {
        if ((res = want_ints(r, key, val, v, 4)) != MF_OK) return res;
        g->x = v[0], g->y = v[1], g->width = v[2], g->height = v[3];
        r->has_bounds = true;
    } else if (strcmp(key, "offsets") == 0) {
        if ((res = want_ints(r, key, val, v, 4)) != MF_OK) return res;
        g->offset_x = v[0], g->offset_y = v[1], g->orig_width = v[2], g->orig_height = v[3];
        r->has_offset = r->has_orig = true;
    } else if (strcmp(key, "xy") == 0) {
        if ((res = want_ints(r, key, val, v, 2)) != MF_OK) return res;
        g->x = v[0], g->y = v[1];
        r->has_xy = true;
    } else if (strcmp(key, "size") == 0) {
        if ((res = want_ints(r, key, val, v, 2)) != MF_OK) return res;
        g->width = v[0], g->height = v[1];
        r->has_size = true;
    } else if (strcmp(key, "orig") == 0) {
        if ((res = want_ints(r, key, val, v, 2)) != MF_OK) return res;
        g->orig_width = v[0], g->orig_height = v[1];
        r->has_orig = true;
    } else if (strcmp(key, "offset") == 0) {
        if ((res = want_ints(r, key, val, v, 2)) != MF_OK) return res;
        g->offset_x = v[0], g->offset_y = v[1];
        r->has_offset = true;
    } else if (strcmp(key, "rotate") == 0) {
        if (strcmp(val, "true") == 0) g->degrees = 90;
        else if (strcmp(val, "false") == 0) g->degrees = 0;
        else if (ints(val, v, 1) == 1 && (v[0] == 0 || v[0] == 90 || v[0] == 180 || v[0] == 270)) g->degrees = v[0];
        else return fail(r, "bad rotate \"%s\": expected true, false, 0, 90, 180 or 270", val);
    } else if (strcmp(key, "index") == 0) {
        if ((res = want_ints(r, key, val, v, 1)) != MF_OK) return res;
        g->index = v[0] < 0 ? -1 : v[0];
    }
    return MF_OK; /* split, pad and custom values do not change the pixels */
}

/* Checks the region just finished; errors name the region's first line. */
static mf_result finish_region(rd *r, mf_atlas_region *g)
{
    const mf_atlas_page *p = &r->at->pages[g->page];
    int line = r->line;
    r->line = g->line;
    if (!r->has_bounds && !(r->has_xy && r->has_size))
        return fail(r, "region \"%s\" has no bounds", g->name);
    if (!r->has_orig) g->orig_width = g->width, g->orig_height = g->height;
    if (g->x < 0 || g->y < 0 || g->width < 0 || g->height < 0)
        return fail(r, "region \"%s\": negative bounds", g->name);
    if (g->orig_width <= 0 || g->orig_height <= 0 || g->orig_width > MF_PNG_MAX_SIDE ||
        g->orig_height > MF_PNG_MAX_SIDE)
        return fail(r, "region \"%s\": bad original size %dx%d", g->name, (int)g->orig_width, (int)g->orig_height);
    if (g->offset_x < 0 || g->offset_y < 0 || (int64_t)g->offset_x + g->width > g->orig_width ||
        (int64_t)g->offset_y + g->height > g->orig_height)
        return fail(r, "region \"%s\": the packed %dx%d pixels at offset %d, %d do not fit the original %dx%d",
                    g->name, (int)g->width, (int)g->height,
                    (int)g->offset_x, (int)g->offset_y, (int)g->orig_width, (int)g->orig_height);
    bool turned = g->degrees == 90 || g->degrees == 270;
    int64_t w = turned ? g->height : g->width, h = turned ? g->width : g->height;
    if (p->width > 0 && p->height > 0 && (g->x + w > p->width || g->y + h > p->height))
        return fail(r, "region \"%s\" lies outside its page \"%s\" (%dx%d)", g->name, p->name, (int)p->width,
                    (int)p->height);
    r->line = line;
    return MF_OK;
}

static char *trim(char *s)
{
    while (isspace((unsigned char)*s)) s++;
    size_t n = strlen(s);
    while (n > 0 && isspace((unsigned char)s[n - 1])) s[--n] = '\0';
    return s;
}

static mf_result parse_lines(rd *r, char *text)
{
    mf_atlas *at = r->at;
    bool want_page = true;
    mf_atlas_region *g = NULL; /* the region being read */
    mf_result res = MF_OK;
    char *next = text;
    for (r->line = 1; next; r->line++) {
        char *line = next;
        char *nl = strchr(line, '\n');
        next = nl ? nl + 1 : NULL;
        if (nl) *nl = '\0';
        line = trim(line);
        if (!*line) {
            if (g && (res = finish_region(r, g)) != MF_OK) return res;
            g = NULL;
            want_page = true;
            continue;
        }
        char *colon = strchr(line, ':');
        if (colon && !want_page) {
            *colon = '\0';
            const char *key = trim(line), *val = trim(colon + 1);
            if (g) res = region_key(r, g, key, val);
            else res = page_key(r, &at->pages[at->page_count - 1], key, val);
            if (res != MF_OK) return res;
            continue;
        }
        if (g && (res = finish_region(r, g)) != MF_OK) return res;
        g = NULL;
        if (want_page) {
            if (!(at->pages = grow(at->arena, at->pages, at->page_count, &r->page_cap, sizeof *at->pages)))
                return oom(r);
            mf_atlas_page *p = &at->pages[at->page_count++];
            memset(p, 0, sizeof *p);
            if (!(p->name = mf_arena_strdup(at->arena, line))) return oom(r);
            p->line = r->line;
            p->scale = 1;
            want_page = false;
            continue;
        }
        if (!(at->regions = grow(at->arena, at->regions, at->region_count, &r->region_cap, sizeof *at->regions)))
            return oom(r);
        g = &at->regions[at->region_count++];
        memset(g, 0, sizeof *g);
        if (!(g->name = mf_arena_strdup(at->arena, line))) return oom(r);
        g->line = r->line;
        g->page = at->page_count - 1;
        g->index = -1;
        r->has_bounds = r->has_xy = r->has_size = r->has_orig = r->has_offset = false;
    }
    r->line--;
    if (g && (res = finish_region(r, g)) != MF_OK) return res;
    if (at->page_count == 0) {
        mf_diag_set(r->diag, r->file, "", "no pages: not a Spine atlas");
        return MF_ERR_INVALID;
    }
    return MF_OK;
}

mf_result mf_atlas_parse(const char *text, size_t len, const char *file, mf_atlas **out, mf_diag *diag)
{
    *out = NULL;
    mf_diag_clear(diag);
    rd r = {0};
    r.file = file ? file : "";
    r.diag = diag;
    if (memchr(text, '\0', len)) {
        mf_diag_set(diag, r.file, "", "binary data: not a Spine atlas");
        return MF_ERR_INVALID;
    }
    mf_atlas *at = calloc(1, sizeof *at);
    char *copy = malloc(len + 1);
    if (!at || !copy || !(at->arena = mf_arena_create())) {
        free(copy);
        if (at) free(at);
        mf_diag_set(diag, r.file, "", "out of memory");
        return MF_ERR_NOMEM;
    }
    memcpy(copy, text, len);
    copy[len] = '\0';
    for (size_t i = 0; i < len; i++)
        if (copy[i] == '\r') copy[i] = (i + 1 < len && copy[i + 1] == '\n') ? ' ' : '\n';
    r.at = at;
    mf_result res = parse_lines(&r, copy);
    free(copy);
    if (res != MF_OK) {
        mf_atlas_free(at);
        return res;
    }
    *out = at;
    return MF_OK;
}

mf_result mf_atlas_load(const char *path, mf_atlas **out, mf_diag *diag)
{
    char *text = NULL;
    size_t len = 0;
    *out = NULL;
    mf_result r = mf_read_file(path, &text, &len, diag);
    if (r != MF_OK) return r;
    r = mf_atlas_parse(text, len, path, out, diag);
    free(text);
    return r;
}

void mf_atlas_free(mf_atlas *atlas)
{
    if (!atlas) return;
    mf_arena_destroy(atlas->arena);
    free(atlas);
}

/* "walk03" → base "walk", number 3; false when name has no trailing digits. */
static bool split_number(const char *name, size_t *base_len, long *number)
{
    size_t n = strlen(name), d = n;
    while (d > 0 && isdigit((unsigned char)name[d - 1])) d--;
    if (d == n || n - d > 9) return false;
    *base_len = d;
    *number = strtol(name + d, NULL, 10);
    return true;
}

const mf_atlas_region *mf_atlas_find(const mf_atlas *atlas, const char *name)
{
    if (!atlas || !name) return NULL;
    for (int32_t i = 0; i < atlas->region_count; i++)
        if (strcmp(atlas->regions[i].name, name) == 0) return &atlas->regions[i];
    size_t base;
    long number;
    if (!split_number(name, &base, &number)) return NULL;
    for (int32_t i = 0; i < atlas->region_count; i++) {
        const mf_atlas_region *g = &atlas->regions[i];
        if (g->index == number && strlen(g->name) == base && strncmp(g->name, name, base) == 0) return g;
    }
    return NULL;
}
