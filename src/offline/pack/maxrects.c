/* MaxRects bin: the free list of maximal free rectangles, best short-side fit. */
#include <stdlib.h>
#include <string.h>

#include "pack_internal.h"

void mf_mr_init(mf_mr_bin *b, int32_t w, int32_t h)
{
    b->w = w;
    b->h = h;
    b->count = 0;
    b->used = 0;
    if (w > 0 && h > 0 && mf_mr_reserve(b, 1)) b->free[b->count++] = (mf_mr_box){0, 0, w, h};
}

void mf_mr_free(mf_mr_bin *b)
{
    free(b->free);
    memset(b, 0, sizeof *b);
}

bool mf_mr_reserve(mf_mr_bin *b, int32_t extra)
{
    if (b->count + extra <= b->cap) return true;
    int32_t cap = b->cap ? b->cap : 16;
    while (cap < b->count + extra) cap *= 2;
    mf_mr_box *p = realloc(b->free, (size_t)cap * sizeof *p);
    if (!p) return false;
    b->free = p;
    b->cap = cap;
    return true;
}

bool mf_mr_find(const mf_mr_bin *b, int32_t w, int32_t h, mf_mr_score *best)
{
    bool found = false;
    for (int32_t i = 0; i < b->count; i++) {
        const mf_mr_box *f = &b->free[i];
        if (f->w < w || f->h < h) continue;
        int32_t dw = f->w - w, dh = f->h - h;
        mf_mr_score s = {dw < dh ? dw : dh, dw < dh ? dh : dw, f->x, f->y};
        if (!found || mf_mr_better(&s, best)) {
            *best = s;
            found = true;
        }
    }
    return found;
}

bool mf_mr_better(const mf_mr_score *a, const mf_mr_score *b)
{
    if (a->short_side != b->short_side) return a->short_side < b->short_side;
    if (a->long_side != b->long_side) return a->long_side < b->long_side;
    if (a->y != b->y) return a->y < b->y;
    return a->x < b->x;
}

static bool contains(const mf_mr_box *a, const mf_mr_box *b)
{
    return b->x >= a->x && b->y >= a->y && b->x + b->w <= a->x + a->w && b->y + b->h <= a->y + a->h;
}

bool mf_mr_place(mf_mr_bin *b, mf_mr_box r)
{
    int32_t n = b->count;
    for (int32_t i = 0; i < n; i++) {
        mf_mr_box f = b->free[i];
        if (r.x >= f.x + f.w || r.x + r.w <= f.x || r.y >= f.y + f.h || r.y + r.h <= f.y) continue;
        if (!mf_mr_reserve(b, 4)) return false;
        mf_mr_box parts[4];
        int np = 0;
        if (r.x > f.x) parts[np++] = (mf_mr_box){f.x, f.y, r.x - f.x, f.h};
        if (r.x + r.w < f.x + f.w) parts[np++] = (mf_mr_box){r.x + r.w, f.y, f.x + f.w - r.x - r.w, f.h};
        if (r.y > f.y) parts[np++] = (mf_mr_box){f.x, f.y, f.w, r.y - f.y};
        if (r.y + r.h < f.y + f.h) parts[np++] = (mf_mr_box){f.x, r.y + r.h, f.w, f.y + f.h - r.y - r.h};
        /* the split rect is replaced by the last one of the list */
        b->free[i] = b->free[--b->count];
        if (b->count < n) { /* the moved one has not been visited yet: visit this index again */
            n--;
            i--;
        }
        for (int k = 0; k < np; k++) b->free[b->count++] = parts[k];
    }
    /* prune free rectangles contained in another (keep the first of equal ones) */
    for (int32_t i = 0; i < b->count; i++) {
        for (int32_t j = i + 1; j < b->count; j++) {
            if (contains(&b->free[j], &b->free[i])) {
                b->free[i] = b->free[--b->count];
                i--;
                break;
            }
            if (contains(&b->free[i], &b->free[j])) {
                b->free[j] = b->free[--b->count];
                j--;
            }
        }
    }
    b->used += (int64_t)r.w * r.h;
    return true;
}
