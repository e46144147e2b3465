/* Clipping geometry: convex decomposition of a clip polygon (ear clipping, then merging
 * triangles across diagonals while the union stays convex: Hertel–Mehlhorn) and
 * Sutherland–Hodgman clipping against one convex piece. */
#include <string.h>

#include "mf/mf_geometry.h"

#define MAX_POINTS 64

static float cross3(const float *a, const float *b, const float *c)
{
    return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
}

/* Convex when every turn goes the positive way (collinear points allowed). */
static bool convex(const float *pts, const int32_t *idx, int32_t n)
{
    for (int32_t i = 0; i < n; i++) {
        const float *a = pts + 2 * idx[i], *b = pts + 2 * idx[(i + 1) % n], *c = pts + 2 * idx[(i + 2) % n];
        if (cross3(a, b, c) < 0) return false;
    }
    return true;
}

static bool inside_tri(const float *p, const float *a, const float *b, const float *c)
{
    return cross3(a, b, p) >= 0 && cross3(b, c, p) >= 0 && cross3(c, a, p) >= 0;
}

int32_t mf_convex_decompose(const float *poly, int32_t n, float *out_points, int32_t cap,
                            int32_t *piece_first, int32_t *piece_count, int32_t piece_cap,
                            int32_t *scratch)
{
    (void)scratch;
    if (!poly || n < 3 || n > MAX_POINTS || !out_points || piece_cap < 1) return 0;
    /* orient positively (signed area > 0 in the coordinates as given) */
    float pts[2 * MAX_POINTS];
    double area = 0;
    for (int32_t i = 0; i < n; i++) {
        int32_t j = (i + 1) % n;
        area += (double)poly[2 * i] * poly[2 * j + 1] - (double)poly[2 * j] * poly[2 * i + 1];
    }
    if (area == 0) return 0;
    for (int32_t i = 0; i < n; i++) {
        int32_t s = area > 0 ? i : n - 1 - i;
        pts[2 * i] = poly[2 * s], pts[2 * i + 1] = poly[2 * s + 1];
    }
    static const int32_t none = -1;
    (void)none;
    int32_t pieces[MAX_POINTS][MAX_POINTS];
    int32_t counts[MAX_POINTS];
    int32_t np = 0;
    int32_t all[MAX_POINTS];
    for (int32_t i = 0; i < n; i++) all[i] = i;
    if (convex(pts, all, n)) {
        memcpy(pieces[0], all, (size_t)n * sizeof(int32_t));
        counts[0] = n;
        np = 1;
    } else {
        /* ear clipping */
        int32_t ring[MAX_POINTS], m = n;
        memcpy(ring, all, sizeof ring);
        int32_t guard = 0;
        while (m > 3 && guard < 4 * MAX_POINTS * MAX_POINTS) {
            bool clipped = false;
            for (int32_t i = 0; i < m; i++, guard++) {
                int32_t ia = ring[(i + m - 1) % m], ib = ring[i], ic = ring[(i + 1) % m];
                const float *a = pts + 2 * ia, *b = pts + 2 * ib, *c = pts + 2 * ic;
                if (cross3(a, b, c) <= 0) continue; /* reflex or flat: not an ear */
                bool empty = true;
                for (int32_t k = 0; k < m && empty; k++) {
                    int32_t iv = ring[k];
                    if (iv == ia || iv == ib || iv == ic) continue;
                    if (inside_tri(pts + 2 * iv, a, b, c)) empty = false;
                }
                if (!empty) continue;
                pieces[np][0] = ia, pieces[np][1] = ib, pieces[np][2] = ic;
                counts[np++] = 3;
                memmove(ring + i, ring + i + 1, (size_t)(m - i - 1) * sizeof(int32_t));
                m--;
                clipped = true;
                break;
            }
            if (!clipped) break; /* not simple: give up on the rest */
        }
        if (m == 3) {
            pieces[np][0] = ring[0], pieces[np][1] = ring[1], pieces[np][2] = ring[2];
            counts[np++] = 3;
        }
        /* merge pieces across shared diagonals while the union stays convex */
        bool merged = true;
        while (merged) {
            merged = false;
            for (int32_t a = 0; a < np && !merged; a++)
                for (int32_t b = a + 1; b < np && !merged; b++) {
                    int32_t ca = counts[a], cb = counts[b];
                    for (int32_t i = 0; i < ca && !merged; i++) {
                        int32_t u = pieces[a][i], v = pieces[a][(i + 1) % ca];
                        for (int32_t j = 0; j < cb; j++) {
                            if (pieces[b][j] != v || pieces[b][(j + 1) % cb] != u) continue;
                            if (ca + cb - 2 > MAX_POINTS) break;
                            int32_t tmp[MAX_POINTS], t = 0;
                            for (int32_t k = 0; k < ca; k++) tmp[t++] = pieces[a][(i + 1 + k) % ca];
                            for (int32_t k = 2; k < cb; k++) tmp[t++] = pieces[b][(j + k) % cb];
                            if (!convex(pts, tmp, t)) break;
                            memcpy(pieces[a], tmp, (size_t)t * sizeof(int32_t));
                            counts[a] = t;
                            memmove(pieces[b], pieces[b + 1], (size_t)(np - b - 1) * sizeof pieces[0]);
                            memmove(counts + b, counts + b + 1, (size_t)(np - b - 1) * sizeof counts[0]);
                            np--;
                            merged = true;
                            break;
                        }
                    }
                }
        }
    }
    if (np > piece_cap) return 0;
    int32_t at = 0;
    for (int32_t k = 0; k < np; k++) {
        if (at + counts[k] > cap) return 0;
        piece_first[k] = at;
        piece_count[k] = counts[k];
        for (int32_t i = 0; i < counts[k]; i++, at++) {
            out_points[2 * at] = pts[2 * pieces[k][i]];
            out_points[2 * at + 1] = pts[2 * pieces[k][i] + 1];
        }
    }
    return np;
}

int32_t mf_clip_convex(const float *in, int32_t n, const float *clip, int32_t m, float *out,
                       float *tmp, int32_t cap)
{
    if (!in || !clip || !out || !tmp || n < 3 || m < 3 || n > cap) return 0;
    /* alternate between out and tmp, ending in out */
    float *src = (m % 2) ? out : tmp, *dst = (m % 2) ? tmp : out;
    memcpy(src, in, (size_t)n * 2 * sizeof(float));
    int32_t count = n;
    for (int32_t e = 0; e < m; e++) {
        const float *c0 = clip + 2 * e, *c1 = clip + 2 * ((e + 1) % m);
        float ex = c1[0] - c0[0], ey = c1[1] - c0[1];
        int32_t k = 0;
        for (int32_t i = 0; i < count; i++) {
            const float *p0 = src + 2 * i, *p1 = src + 2 * ((i + 1) % count);
            float s0 = ex * (p0[1] - c0[1]) - ey * (p0[0] - c0[0]);
            float s1 = ex * (p1[1] - c0[1]) - ey * (p1[0] - c0[0]);
            if (s0 >= 0) {
                if (k >= cap) return 0;
                dst[2 * k] = p0[0], dst[2 * k + 1] = p0[1], k++;
            }
            if ((s0 >= 0) != (s1 >= 0)) {
                float t = s0 / (s0 - s1);
                if (k >= cap) return 0;
                dst[2 * k] = p0[0] + (p1[0] - p0[0]) * t;
                dst[2 * k + 1] = p0[1] + (p1[1] - p0[1]) * t;
                k++;
            }
        }
        count = k;
        float *sw = src;
        src = dst, dst = sw;
        if (count < 3) return 0;
    }
    /* after m passes the result is in src, which is out by the choice above */
    if (src != out) memcpy(out, src, (size_t)count * 2 * sizeof(float));
    return count;
}
