/* triangulate.c — mf_triangulate: checks the input, inserts the points in a spatially
 * coherent order (short walks), recovers the segments, then keeps the wanted triangles. */
#include "mf/mf_triangulate.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cdt.h"

/* Hilbert-curve index of (x, y) on a 2^16 grid. */
static uint64_t hilbert(uint32_t x, uint32_t y)
{
    uint64_t d = 0;
    for (uint32_t s = 1u << 15; s > 0; s >>= 1) {
        uint32_t rx = (x & s) > 0, ry = (y & s) > 0;
        d += (uint64_t)s * s * ((3 * rx) ^ ry);
        if (ry == 0) {
            if (rx == 1) x = s - 1 - (x & (s - 1)) + (x & ~(s - 1)), y = s - 1 - (y & (s - 1)) + (y & ~(s - 1));
            uint32_t tmp = x;
            x = y, y = tmp;
        }
    }
    return d;
}

typedef struct order_key {
    uint64_t key;
    int32_t index;
} order_key;

static int cmp_key(const void *a, const void *b)
{
    const order_key *x = a, *y = b;
    if (x->key != y->key) return x->key < y->key ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

float mf_triangle_min_angle(const float *xy, int32_t a, int32_t b, int32_t c)
{
    double p[3][2] = {{xy[2 * a], xy[2 * a + 1]}, {xy[2 * b], xy[2 * b + 1]}, {xy[2 * c], xy[2 * c + 1]}};
    double best = 180;
    for (int k = 0; k < 3; k++) {
        const double *o = p[k], *u = p[(k + 1) % 3], *v = p[(k + 2) % 3];
        double ux = u[0] - o[0], uy = u[1] - o[1], vx = v[0] - o[0], vy = v[1] - o[1];
        double lu = sqrt(ux * ux + uy * uy), lv = sqrt(vx * vx + vy * vy);
        if (lu == 0 || lv == 0) return 0;
        double ang = atan2(fabs(ux * vy - uy * vx), ux * vx + uy * vy) * (180.0 / 3.14159265358979323846);
        if (ang < best) best = ang;
    }
    return (float)best;
}

/* Finds an input segment before `before` lying along edge (u, w), for the crossing message. */
static int32_t segment_along(const mf_tri_input *in, const cdt *c, const int32_t *map,
                             int32_t before, int32_t u, int32_t w)
{
    for (int32_t s = 0; s < before; s++) {
        int32_t a = map[in->segments[2 * s]], b = map[in->segments[2 * s + 1]];
        if (a == b) continue;
        if (cdt_orient(c, a, b, u) == 0 && cdt_orient(c, a, b, w) == 0) return s;
    }
    return -1;
}

static mf_result check_input(const mf_tri_input *in, mf_diag *diag)
{
    if (!in || in->point_count < 0 || in->segment_count < 0 || (in->point_count > 0 && !in->xy) ||
        (in->segment_count > 0 && !in->segments)) {
        mf_diag_set(diag, "", "", "triangulate: bad arguments");
        return MF_ERR_ARGUMENT;
    }
    if (in->point_count > MF_TRI_MAX_POINTS) {
        mf_diag_set(diag, "", "points", "%d points is more than the %d supported", (int)in->point_count,
                    MF_TRI_MAX_POINTS);
        return MF_ERR_ARGUMENT;
    }
    for (int32_t i = 0; i < 2 * in->point_count; i++) {
        float v = in->xy[i];
        if (!isfinite(v) || fabsf(v) > MF_TRI_MAX_COORD) {
            mf_diag_set(diag, "", "", "points[%d].%c: %g is not a finite coordinate within +-%g", (int)(i / 2),
                        i % 2 ? 'y' : 'x', (double)v, (double)MF_TRI_MAX_COORD);
            return MF_ERR_ARGUMENT;
        }
    }
    for (int32_t s = 0; s < 2 * in->segment_count; s++) {
        int32_t v = in->segments[s];
        if (v < 0 || v >= in->point_count) {
            mf_diag_set(diag, "", "", "segments[%d]: point %d is out of range (%d points)", (int)(s / 2), (int)v,
                        (int)in->point_count);
            return MF_ERR_ARGUMENT;
        }
    }
    return MF_OK;
}

/* Breadth-first over the triangles from the super triangle's corner; crossing a constraint
 * flips inside/outside. mark = 1 + parity. */
static mf_result classify(cdt *c)
{
    int32_t *queue = malloc((size_t)c->nt * sizeof *queue);
    if (!queue) return MF_ERR_NOMEM;
    for (int32_t t = 0; t < c->nt; t++) c->t[t].mark = 0;
    int32_t head = 0, tail = 0, s = c->vt[c->np];
    c->t[s].mark = 1;
    queue[tail++] = s;
    while (head < tail) {
        int32_t t = queue[head++];
        for (int32_t k = 0; k < 3; k++) {
            int32_t u = c->t[t].n[k];
            if (u < 0 || c->t[u].mark) continue;
            int parity = (c->t[t].mark - 1) ^ ((c->t[t].con >> k) & 1);
            c->t[u].mark = (uint8_t)(1 + parity);
            queue[tail++] = u;
        }
    }
    free(queue);
    return MF_OK;
}

mf_result mf_triangulate(const mf_tri_input *in, mf_triangulation *out, mf_diag *diag)
{
    if (out) memset(out, 0, sizeof *out);
    if (!out) return MF_ERR_ARGUMENT;
    mf_result r = check_input(in, diag);
    if (r != MF_OK) return r;
    int32_t n = in->point_count;
    cdt c = {0};
    int32_t *map = malloc((size_t)(n + 1) * sizeof *map);
    order_key *ord = malloc((size_t)(n + 1) * sizeof *ord);
    c.p = malloc((size_t)(n + 3) * 2 * sizeof *c.p);
    if (!map || !ord || !c.p) {
        r = MF_ERR_NOMEM;
        goto done;
    }
    float minx = 0, miny = 0, maxx = 0, maxy = 0;
    for (int32_t i = 0; i < n; i++) {
        float x = in->xy[2 * i], y = in->xy[2 * i + 1];
        c.p[2 * i] = x, c.p[2 * i + 1] = y;
        if (i == 0 || x < minx) minx = x;
        if (i == 0 || x > maxx) maxx = x;
        if (i == 0 || y < miny) miny = y;
        if (i == 0 || y > maxy) maxy = y;
    }
    double ex = maxx - minx > 0 ? (double)maxx - minx : 1, ey = maxy - miny > 0 ? (double)maxy - miny : 1;
    for (int32_t i = 0; i < n; i++) {
        double fx = (c.p[2 * i] - minx) / ex * 65535.0, fy = (c.p[2 * i + 1] - miny) / ey * 65535.0;
        ord[i].key = hilbert((uint32_t)fx, (uint32_t)fy);
        ord[i].index = i;
    }
    qsort(ord, (size_t)n, sizeof *ord, cmp_key);
    r = cdt_init(&c, n);
    if (r != MF_OK) goto done;
    for (int32_t k = 0; k < n; k++) {
        int32_t i = ord[k].index, dup;
        r = cdt_insert(&c, i, &dup);
        if (r != MF_OK) {
            mf_diag_set(diag, "", "", "points[%d]: could not be inserted (numerical failure)", (int)i);
            goto done;
        }
        map[i] = dup >= 0 ? dup : i;
    }
    for (int32_t s = 0; s < in->segment_count; s++) {
        int32_t a = map[in->segments[2 * s]], b = map[in->segments[2 * s + 1]], cu = -1, cw = -1;
        if (a == b) continue;
        r = cdt_segment(&c, a, b, &cu, &cw);
        if (r == MF_ERR_NOMEM) goto done;
        if (r != MF_OK) {
            int32_t other = cu >= 0 ? segment_along(in, &c, map, s, cu, cw) : -1;
            if (other >= 0)
                mf_diag_set(diag, "", "", "segments[%d] (points %d-%d) crosses segments[%d] (points %d-%d)", (int)s,
                            (int)in->segments[2 * s], (int)in->segments[2 * s + 1], (int)other,
                            (int)in->segments[2 * other], (int)in->segments[2 * other + 1]);
            else
                mf_diag_set(diag, "", "", "segments[%d] (points %d-%d) could not be recovered (it crosses another "
                            "segment or the points are nearly collinear)",
                            (int)s, (int)in->segments[2 * s], (int)in->segments[2 * s + 1]);
            r = MF_ERR_INVALID;
            goto done;
        }
    }
    r = classify(&c);
    if (r != MF_OK) goto done;
    int32_t keep = 0;
    for (int32_t t = 0; t < c.nt; t++) {
        const cdt_tri *T = &c.t[t];
        bool super = T->v[0] >= n || T->v[1] >= n || T->v[2] >= n;
        bool inside = in->flags == MF_TRI_CLIP_EVEN_ODD ? T->mark == 2 : true;
        c.t[t].mark = (uint8_t)(!super && inside);
        keep += c.t[t].mark;
    }
    out->triangles = malloc((size_t)(keep > 0 ? keep : 1) * 3 * sizeof *out->triangles);
    if (!out->triangles) {
        r = MF_ERR_NOMEM;
        goto done;
    }
    for (int32_t t = 0; t < c.nt; t++)
        if (c.t[t].mark) {
            memcpy(out->triangles + 3 * out->triangle_count, c.t[t].v, 3 * sizeof(int32_t));
            out->triangle_count++;
        }
done:
    if (r != MF_OK && r != MF_ERR_INVALID && r != MF_ERR_ARGUMENT)
        mf_diag_set(diag, "", "", "triangulate: %s", mf_result_name(r));
    if (r != MF_OK) mf_triangulation_free(out);
    cdt_destroy(&c);
    free(c.p);
    free(map);
    free(ord);
    return r;
}

void mf_triangulation_free(mf_triangulation *t)
{
    if (!t) return;
    free(t->triangles);
    t->triangles = NULL;
    t->triangle_count = 0;
}
