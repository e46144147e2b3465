/* am_trace.c — marching squares. Samples are pixel centres plus an empty ring, so an outline
 * crossing between the last pixel and the ring lies exactly on the image border. Each cell
 * emits directed segments between edge midpoints with "in" on the left (on screen); the
 * saddle cases join the in corners (8-connected). Memory follows the outline length: the
 * segments are sorted by start and followed by binary search. */
#include <stdlib.h>

#include "automesh_internal.h"

typedef struct seg {
    int64_t from, to;
} seg;

static int cmp_seg(const void *a, const void *b)
{
    const seg *x = a, *y = b;
    return x->from < y->from ? -1 : x->from > y->from;
}

mf_result am_loop_push(am_loop *l, float x, float y)
{
    if (l->n + 1 > l->cap) {
        int32_t cap = l->cap ? l->cap * 2 : 16;
        float *p = realloc(l->xy, (size_t)cap * 2 * sizeof *p);
        if (!p) return MF_ERR_NOMEM;
        l->xy = p, l->cap = cap;
    }
    l->xy[2 * l->n] = x, l->xy[2 * l->n + 1] = y;
    l->n++;
    return MF_OK;
}

void am_loops_free(am_loops *ls)
{
    for (int32_t i = 0; i < ls->n; i++) free(ls->l[i].xy);
    free(ls->l);
    ls->l = NULL, ls->n = ls->cap = 0;
}

double am_loop_area(const am_loop *l)
{
    double a = 0;
    for (int32_t i = 0; i < l->n; i++) {
        int32_t j = i + 1 == l->n ? 0 : i + 1;
        a += (double)l->xy[2 * i] * l->xy[2 * j + 1] - (double)l->xy[2 * j] * l->xy[2 * i + 1];
    }
    return a / 2;
}

/* Samples sx in 0..w+1, sy in 0..h+1; sample (sx, sy) is pixel (sx-1, sy-1). */
static int sample(const uint8_t *mask, int32_t w, int32_t h, int32_t sx, int32_t sy)
{
    if (sx < 1 || sy < 1 || sx > w || sy > h) return 0;
    return mask[(size_t)(sy - 1) * (size_t)w + (size_t)(sx - 1)] != 0;
}

/* Midpoint ids: horizontal sample edge (sx,sy)-(sx+1,sy) and vertical (sx,sy)-(sx,sy+1). */
static int64_t hid(int64_t W2, int64_t H2, int32_t sx, int32_t sy)
{
    (void)H2;
    return (int64_t)sy * W2 + sx;
}
static int64_t vid(int64_t W2, int64_t H2, int32_t sx, int32_t sy) { return W2 * H2 + (int64_t)sy * W2 + sx; }

static void id_point(int64_t id, int64_t W2, int64_t H2, float *x, float *y)
{
    if (id < W2 * H2) {
        *x = (float)(id % W2), *y = (float)(id / W2) - 0.5f;
    } else {
        id -= W2 * H2;
        *x = (float)(id % W2) - 0.5f, *y = (float)(id / W2);
    }
}

typedef struct seg_list {
    seg *s;
    size_t n, cap;
} seg_list;

static mf_result add(seg_list *l, int64_t from, int64_t to)
{
    if (l->n + 1 > l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 256;
        seg *s = realloc(l->s, cap * sizeof *s);
        if (!s) return MF_ERR_NOMEM;
        l->s = s, l->cap = cap;
    }
    l->s[l->n].from = from, l->s[l->n].to = to;
    l->n++;
    return MF_OK;
}

mf_result am_trace(const uint8_t *mask, int32_t w, int32_t h, am_loops *out)
{
    int64_t W2 = (int64_t)w + 2, H2 = (int64_t)h + 2;
    seg_list L = {0};
    mf_result r = MF_OK;
    for (int32_t sy = 0; sy + 1 < H2 && r == MF_OK; sy++)
        for (int32_t sx = 0; sx + 1 < W2 && r == MF_OK; sx++) {
            /* corners clockwise on screen: TL, TR, BR, BL; edge k joins corner k and k+1 */
            int c[4] = {sample(mask, w, h, sx, sy), sample(mask, w, h, sx + 1, sy),
                        sample(mask, w, h, sx + 1, sy + 1), sample(mask, w, h, sx, sy + 1)};
            int code = c[0] | c[1] << 1 | c[2] << 2 | c[3] << 3;
            if (code == 0 || code == 15) continue;
            int64_t e[4] = {hid(W2, H2, sx, sy), vid(W2, H2, sx + 1, sy), hid(W2, H2, sx, sy + 1),
                            vid(W2, H2, sx, sy)};
            if (code == 5) { /* TL and BR in: cut off TR and BL */
                r = add(&L, e[1], e[0]);
                if (r == MF_OK) r = add(&L, e[3], e[2]);
                continue;
            }
            if (code == 10) { /* TR and BL in: cut off TL and BR */
                r = add(&L, e[0], e[3]);
                if (r == MF_OK) r = add(&L, e[2], e[1]);
                continue;
            }
            /* One out->in edge and one in->out edge (clockwise): join them. */
            int32_t from = -1, to = -1;
            for (int k = 0; k < 4; k++) {
                int a = c[k], b = c[(k + 1) & 3];
                if (!a && b) from = k;
                if (a && !b) to = k;
            }
            r = add(&L, e[from], e[to]);
        }
    if (r != MF_OK) goto done;
    qsort(L.s, L.n, sizeof *L.s, cmp_seg);
    uint8_t *used = calloc(L.n ? L.n : 1, 1);
    if (!used) {
        r = MF_ERR_NOMEM;
        goto done;
    }
    for (size_t i = 0; i < L.n && r == MF_OK; i++) {
        if (used[i]) continue;
        if (out->n + 1 > out->cap) {
            int32_t cap = out->cap ? out->cap * 2 : 8;
            am_loop *nl = realloc(out->l, (size_t)cap * sizeof *nl);
            if (!nl) {
                r = MF_ERR_NOMEM;
                break;
            }
            out->l = nl, out->cap = cap;
        }
        am_loop *lp = &out->l[out->n++];
        *lp = (am_loop){0};
        size_t k = i;
        while (!used[k] && r == MF_OK) {
            used[k] = 1;
            float x, y;
            id_point(L.s[k].from, W2, H2, &x, &y);
            r = am_loop_push(lp, x, y);
            /* find the segment starting where this one ends */
            size_t lo = 0, hi = L.n;
            int64_t want = L.s[k].to;
            while (lo < hi) {
                size_t mid = (lo + hi) / 2;
                if (L.s[mid].from < want) lo = mid + 1;
                else hi = mid;
            }
            if (lo >= L.n || L.s[lo].from != want) break; /* cannot happen: outlines close */
            k = lo;
        }
        lp->area = am_loop_area(lp);
    }
    free(used);
done:
    free(L.s);
    return r;
}
