/* The import report: one line per thing that did not map, similar things folded into one line
 * with a count, in the order they were met (so importing twice gives the same report). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spine_internal.h"

static char *dup(const char *s)
{
    if (!s) return NULL;
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d) memcpy(d, s, n);
    return d;
}

static bool same(const char *a, const char *b) { return a && b && strcmp(a, b) == 0; }

void sp_note_add(sp_report *r, const char *category, const char *group, const char *where, const char *fmt, ...)
{
    if (r->oom) return;
    if (group) {
        /* the newest notes are the likeliest to match */
        for (int32_t i = r->count - 1; i >= 0; i--) {
            sp_note *n = &r->notes[i];
            if (same(n->group, group) && same(n->category, category)) {
                n->count++;
                return;
            }
        }
    }
    if (r->count == r->cap) {
        int32_t cap = r->cap ? r->cap * 2 : 32;
        sp_note *nn = realloc(r->notes, (size_t)cap * sizeof *nn);
        if (!nn) {
            r->oom = true;
            return;
        }
        r->notes = nn;
        r->cap = cap;
    }
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    sp_note *n = &r->notes[r->count];
    n->category = dup(category);
    n->group = dup(group);
    n->where = dup(where ? where : "");
    n->message = dup(msg);
    n->count = 1;
    if (!n->category || !n->where || !n->message || (group && !n->group)) {
        free(n->category), free(n->group), free(n->where), free(n->message);
        r->oom = true;
        return;
    }
    r->count++;
}

void sp_report_free(sp_report *r)
{
    for (int32_t i = 0; i < r->count; i++) {
        free(r->notes[i].category);
        free(r->notes[i].group);
        free(r->notes[i].where);
        free(r->notes[i].message);
    }
    free(r->notes);
    memset(r, 0, sizeof *r);
}

char **sp_report_lines(const sp_report *r, int32_t *count)
{
    *count = 0;
    char **lines = calloc((size_t)r->count + 1, sizeof *lines);
    if (!lines) return NULL;
    for (int32_t i = 0; i < r->count; i++) {
        const sp_note *n = &r->notes[i];
        char more[64] = "";
        if (n->count > 1) snprintf(more, sizeof more, " (%d times; the first is shown)", (int)n->count);
        size_t len = strlen(n->category) + strlen(n->where) + strlen(n->message) + strlen(more) + 8;
        if (!(lines[i] = malloc(len))) {
            for (int32_t j = 0; j < i; j++) free(lines[j]);
            free(lines);
            return NULL;
        }
        snprintf(lines[i], len, "[%s] %s%s%s%s", n->category, n->where, n->where[0] ? ": " : "", n->message, more);
    }
    *count = r->count;
    return lines;
}
