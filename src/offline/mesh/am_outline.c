/* am_outline.c — outline simplification (Douglas–Peucker on closed loops), subdivision, and
 * the checks that make a simplified outline acceptable: no crossings, every opaque pixel
 * centre inside. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "automesh_internal.h"

static double seg_dist2(double px, double py, double ax, double ay, double bx, double by)
{
    double dx = bx - ax, dy = by - ay, l2 = dx * dx + dy * dy, t = 0;
    if (l2 > 0) {
        t = ((px - ax) * dx + (py - ay) * dy) / l2;
        t = t < 0 ? 0 : t > 1 ? 1 : t;
    }
    double x = ax + t * dx - px, y = ay + t * dy - py;
    return x * x + y * y;
}

/* Marks the points of in[a..b] (indices modulo n) to keep. Explicit stack: no deep
 * recursion on long outlines. */
static mf_result dp(const am_loop *in, int32_t a, int32_t b, double tol2, uint8_t *keep)
{
    int32_t n = in->n, cap = 64, top = 0;
    int32_t *st = malloc((size_t)cap * 2 * sizeof *st);
    if (!st) return MF_ERR_NOMEM;
    st[top++] = a, st[top++] = b;
    while (top > 0) {
        int32_t j = st[--top], i = st[--top];
        int32_t span = (j - i + n) % n;
        if (span < 2) continue;
        const float *pa = in->xy + 2 * i, *pb = in->xy + 2 * j;
        double best = -1;
        int32_t at = -1;
        for (int32_t s = 1; s < span; s++) {
            int32_t k = (i + s) % n;
            double d = seg_dist2(in->xy[2 * k], in->xy[2 * k + 1], pa[0], pa[1], pb[0], pb[1]);
            if (d > best) best = d, at = k;
        }
        if (best <= tol2) continue;
        keep[at] = 1;
        if (top + 4 > 2 * cap) {
            cap *= 2;
            int32_t *ns = realloc(st, (size_t)cap * 2 * sizeof *ns);
            if (!ns) {
                free(st);
                return MF_ERR_NOMEM;
            }
            st = ns;
        }
        st[top++] = i, st[top++] = at;
        st[top++] = at, st[top++] = j;
    }
    free(st);
    return MF_OK;
}

mf_result am_simplify(const am_loop *in, float tol, am_loop *out)
{
    *out = (am_loop){0};
    int32_t n = in->n;
    if (n < 3 || tol < 0) {
        for (int32_t i = 0; i < n; i++)
            if (am_loop_push(out, in->xy[2 * i], in->xy[2 * i + 1]) != MF_OK) return MF_ERR_NOMEM;
        out->area = am_loop_area(out);
        return MF_OK;
    }
    uint8_t *keep = calloc((size_t)n, 1);
    if (!keep) return MF_ERR_NOMEM;
    /* Anchors: point 0 and the point farthest from it; then the point farthest from that
     * chord, so at least a triangle remains. */
    int32_t far = 0, third = -1;
    double best = -1;
    for (int32_t i = 1; i < n; i++) {
        double dx = in->xy[2 * i] - in->xy[0], dy = in->xy[2 * i + 1] - in->xy[1], d = dx * dx + dy * dy;
        if (d > best) best = d, far = i;
    }
    best = -1;
    for (int32_t i = 0; i < n; i++) {
        if (i == 0 || i == far) continue;
        double d = seg_dist2(in->xy[2 * i], in->xy[2 * i + 1], in->xy[0], in->xy[1], in->xy[2 * far],
                             in->xy[2 * far + 1]);
        if (d > best) best = d, third = i;
    }
    keep[0] = keep[far] = 1;
    if (third >= 0) keep[third] = 1;
    double t2 = (double)tol * tol;
    mf_result r = MF_OK;
    int32_t prev = 0;
    for (int32_t s = 1; s <= n && r == MF_OK; s++) {
        int32_t i = s % n;
        if (!keep[i] && i != 0) continue;
        /* only the anchors chosen above bound the chains */
        if (i == 0 || i == far || i == third) {
            r = dp(in, prev, i, t2, keep);
            prev = i;
        }
    }
    for (int32_t i = 0; i < n && r == MF_OK; i++)
        if (keep[i]) r = am_loop_push(out, in->xy[2 * i], in->xy[2 * i + 1]);
    free(keep);
    out->area = am_loop_area(out);
    return r;
}

mf_result am_subdivide(const am_loop *in, float step, am_loop *out)
{
    *out = (am_loop){0};
    for (int32_t i = 0; i < in->n; i++) {
        int32_t j = i + 1 == in->n ? 0 : i + 1;
        float ax = in->xy[2 * i], ay = in->xy[2 * i + 1], bx = in->xy[2 * j], by = in->xy[2 * j + 1];
        double len = sqrt(((double)bx - ax) * ((double)bx - ax) + ((double)by - ay) * ((double)by - ay));
        int32_t parts = step > 0 ? (int32_t)ceil(len / step - 1e-6) : 1;
        if (parts < 1) parts = 1;
        if (parts > 4096) parts = 4096;
        for (int32_t k = 0; k < parts; k++) {
            double t = (double)k / parts;
            if (am_loop_push(out, (float)(ax + t * (bx - ax)), (float)(ay + t * (by - ay))) != MF_OK)
                return MF_ERR_NOMEM;
        }
    }
    out->area = am_loop_area(out);
    return MF_OK;
}

typedef struct sref {
    float minx, maxx;
    int32_t loop, i;
} sref;

static int cmp_sref(const void *a, const void *b)
{
    const sref *x = a, *y = b;
    return x->minx < y->minx ? -1 : x->minx > y->minx;
}

static double orient(const float *a, const float *b, const float *c)
{
    return ((double)b[0] - a[0]) * ((double)c[1] - a[1]) - ((double)b[1] - a[1]) * ((double)c[0] - a[0]);
}

static bool on_seg(const float *a, const float *b, const float *p)
{
    return fminf(a[0], b[0]) <= p[0] && p[0] <= fmaxf(a[0], b[0]) && fminf(a[1], b[1]) <= p[1] &&
           p[1] <= fmaxf(a[1], b[1]);
}

/* Closed segments touch (shared endpoints of neighbours are excluded by the caller). */
static bool touch(const float *a, const float *b, const float *c, const float *d)
{
    double o1 = orient(a, b, c), o2 = orient(a, b, d), o3 = orient(c, d, a), o4 = orient(c, d, b);
    if (((o1 > 0 && o2 < 0) || (o1 < 0 && o2 > 0)) && ((o3 > 0 && o4 < 0) || (o3 < 0 && o4 > 0))) return true;
    return (o1 == 0 && on_seg(a, b, c)) || (o2 == 0 && on_seg(a, b, d)) || (o3 == 0 && on_seg(c, d, a)) ||
           (o4 == 0 && on_seg(c, d, b));
}

bool am_loops_intersect(const am_loops *ls)
{
    size_t total = 0;
    for (int32_t l = 0; l < ls->n; l++) total += (size_t)ls->l[l].n;
    sref *s = malloc((total ? total : 1) * sizeof *s);
    if (!s) return true;
    size_t k = 0;
    for (int32_t l = 0; l < ls->n; l++) {
        const am_loop *lp = &ls->l[l];
        if (lp->n < 3) {
            free(s);
            return true; /* a loop that collapsed is as bad as a crossing */
        }
        for (int32_t i = 0; i < lp->n; i++) {
            int32_t j = i + 1 == lp->n ? 0 : i + 1;
            s[k].minx = fminf(lp->xy[2 * i], lp->xy[2 * j]);
            s[k].maxx = fmaxf(lp->xy[2 * i], lp->xy[2 * j]);
            s[k].loop = l, s[k].i = i;
            k++;
        }
    }
    qsort(s, total, sizeof *s, cmp_sref);
    bool hit = false;
    for (size_t a = 0; a < total && !hit; a++)
        for (size_t b = a + 1; b < total && s[b].minx <= s[a].maxx && !hit; b++) {
            const am_loop *la = &ls->l[s[a].loop], *lb = &ls->l[s[b].loop];
            int32_t ia = s[a].i, ja = (ia + 1) % la->n, ib = s[b].i, jb = (ib + 1) % lb->n;
            const float *p = la->xy + 2 * ia, *q = la->xy + 2 * ja, *u = lb->xy + 2 * ib, *v = lb->xy + 2 * jb;
            if (s[a].loop == s[b].loop) {
                if (ja == ib || jb == ia) {
                    /* neighbours share one point; they must not fold back onto each other */
                    const float *pivot = ja == ib ? q : p, *x = ja == ib ? p : q, *y = ja == ib ? v : u;
                    if (orient(pivot, x, y) == 0 &&
                        ((double)x[0] - pivot[0]) * ((double)y[0] - pivot[0]) +
                                ((double)x[1] - pivot[1]) * ((double)y[1] - pivot[1]) > 0)
                        hit = true;
                    continue;
                }
            }
            if (touch(p, q, u, v)) hit = true;
        }
    free(s);
    return hit;
}

/* Crossings of the horizontal line at y with every loop segment, sorted. */
static int cmp_float(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return x < y ? -1 : x > y;
}

static int32_t crossings(const am_loops *ls, float y, float *xs, int32_t cap)
{
    int32_t n = 0;
    for (int32_t l = 0; l < ls->n; l++) {
        const am_loop *lp = &ls->l[l];
        for (int32_t i = 0; i < lp->n; i++) {
            int32_t j = i + 1 == lp->n ? 0 : i + 1;
            float ay = lp->xy[2 * i + 1], by = lp->xy[2 * j + 1];
            /* half-open rule: a vertex on the line counts once */
            if ((ay <= y) == (by <= y)) continue;
            float ax = lp->xy[2 * i], bx = lp->xy[2 * j];
            if (n < cap) xs[n++] = (float)(ax + ((double)y - ay) / ((double)by - ay) * ((double)bx - ax));
        }
    }
    qsort(xs, (size_t)n, sizeof *xs, cmp_float);
    return n;
}

static int32_t segment_total(const am_loops *ls)
{
    int32_t t = 0;
    for (int32_t l = 0; l < ls->n; l++) t += ls->l[l].n;
    return t;
}

bool am_loops_cover(const am_loops *ls, const uint8_t *mask, int32_t w, int32_t h)
{
    int32_t cap = segment_total(ls) + 1;
    float *xs = malloc((size_t)cap * sizeof *xs);
    if (!xs) return false;
    bool ok = true;
    for (int32_t y = 0; y < h && ok; y++) {
        int32_t n = crossings(ls, (float)y + 0.5f, xs, cap), k = 0;
        for (int32_t x = 0; x < w && ok; x++) {
            if (!mask[(size_t)y * (size_t)w + (size_t)x]) continue;
            float cx = (float)x + 0.5f;
            while (k < n && xs[k] <= cx) k++;
            /* inside when an odd number of crossings lie left of the centre, and the centre
             * is not exactly on the outline */
            if (k % 2 == 0 || (k > 0 && xs[k - 1] == cx)) ok = false;
        }
    }
    free(xs);
    return ok;
}

bool am_inside(const am_loops *ls, float x, float y)
{
    bool in = false;
    for (int32_t l = 0; l < ls->n; l++) {
        const am_loop *lp = &ls->l[l];
        for (int32_t i = 0; i < lp->n; i++) {
            int32_t j = i + 1 == lp->n ? 0 : i + 1;
            float ay = lp->xy[2 * i + 1], by = lp->xy[2 * j + 1];
            if ((ay <= y) == (by <= y)) continue;
            double cx = lp->xy[2 * i] + ((double)y - ay) / ((double)by - ay) * ((double)lp->xy[2 * j] - lp->xy[2 * i]);
            if (cx > x) in = !in;
        }
    }
    return in;
}

float am_distance(const am_loops *ls, float x, float y)
{
    double best = INFINITY;
    for (int32_t l = 0; l < ls->n; l++) {
        const am_loop *lp = &ls->l[l];
        for (int32_t i = 0; i < lp->n; i++) {
            int32_t j = i + 1 == lp->n ? 0 : i + 1;
            double d = seg_dist2(x, y, lp->xy[2 * i], lp->xy[2 * i + 1], lp->xy[2 * j], lp->xy[2 * j + 1]);
            if (d < best) best = d;
        }
    }
    return (float)sqrt(best);
}
