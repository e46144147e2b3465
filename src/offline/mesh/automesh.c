/* automesh.c — mf_automesh_image: mask, margin, trace, simplify (lowering the tolerance until
 * the outline is simple and covers every opaque pixel), subdivide, interior grid, constrained
 * Delaunay triangulation, quality figures. */
#include "mf/mf_automesh.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "automesh_internal.h"
#include "mf/mf_triangulate.h"

#define AM_MAX_SIDE 16384
#define AM_MAX_PIXELS (1 << 26)
#define AM_MAX_INTERIOR 250000.0

/* Square dilation by r pixels (separable, running counts: O(w * h)). */
static mf_result dilate(const uint8_t *in, int32_t w, int32_t h, int32_t r, uint8_t *out)
{
    uint8_t *tmp = malloc((size_t)w * (size_t)h);
    if (!tmp) return MF_ERR_NOMEM;
    for (int32_t y = 0; y < h; y++) {
        const uint8_t *row = in + (size_t)y * (size_t)w;
        int32_t count = 0;
        for (int32_t x = 0; x < r && x < w; x++) count += row[x];
        for (int32_t x = 0; x < w; x++) {
            if (x + r < w) count += row[x + r];
            if (x - r - 1 >= 0) count -= row[x - r - 1];
            tmp[(size_t)y * (size_t)w + (size_t)x] = count > 0;
        }
    }
    for (int32_t x = 0; x < w; x++) {
        int32_t count = 0;
        for (int32_t y = 0; y < r && y < h; y++) count += tmp[(size_t)y * (size_t)w + (size_t)x];
        for (int32_t y = 0; y < h; y++) {
            if (y + r < h) count += tmp[(size_t)(y + r) * (size_t)w + (size_t)x];
            if (y - r - 1 >= 0) count -= tmp[(size_t)(y - r - 1) * (size_t)w + (size_t)x];
            out[(size_t)y * (size_t)w + (size_t)x] = count > 0;
        }
    }
    free(tmp);
    return MF_OK;
}

static int cmp_area(const void *a, const void *b)
{
    double x = fabs(((const am_loop *)a)->area), y = fabs(((const am_loop *)b)->area);
    return x > y ? -1 : x < y;
}

/* Simplifies every loop at tol; false (with *out empty) when the result is not acceptable. */
static mf_result simplify_all(const am_loops *raw, float tol, const uint8_t *mask, int32_t w, int32_t h,
                              am_loops *out, bool *ok)
{
    *out = (am_loops){0};
    *ok = false;
    out->l = calloc((size_t)(raw->n ? raw->n : 1), sizeof *out->l);
    if (!out->l) return MF_ERR_NOMEM;
    out->cap = raw->n;
    for (int32_t i = 0; i < raw->n; i++) {
        mf_result r = am_simplify(&raw->l[i], tol, &out->l[out->n]);
        out->n++;
        if (r != MF_OK) return r;
    }
    *ok = !am_loops_intersect(out) && am_loops_cover(out, mask, w, h);
    return MF_OK;
}

static mf_result check_args(const uint8_t *rgba, int32_t w, int32_t h, int32_t stride,
                            const mf_automesh_options *o, mf_automesh *out, mf_diag *diag)
{
    if (!out || !rgba || w < 1 || h < 1 || w > AM_MAX_SIDE || h > AM_MAX_SIDE ||
        (int64_t)w * h > AM_MAX_PIXELS || stride < 4 * w) {
        mf_diag_set(diag, "", "", "automesh: bad image (%dx%d, stride %d; at most %d a side and %d pixels)", (int)w,
                    (int)h, (int)stride, AM_MAX_SIDE, AM_MAX_PIXELS);
        return MF_ERR_ARGUMENT;
    }
    if (o && (o->alpha_threshold < 0 || o->alpha_threshold > 255)) {
        mf_diag_set(diag, "", "alphaThreshold", "%d is outside 1..255", (int)o->alpha_threshold);
        return MF_ERR_ARGUMENT;
    }
    if (o && (!isfinite(o->density) || o->density < 0 || o->density > 1000)) {
        mf_diag_set(diag, "", "density", "%g is outside (0, 1000]", (double)o->density);
        return MF_ERR_ARGUMENT;
    }
    if (o && (!isfinite(o->spacing) || o->spacing < 0 || !isfinite(o->tolerance) || o->tolerance > 1000)) {
        mf_diag_set(diag, "", "", "automesh: spacing %g / tolerance %g are not usable", (double)o->spacing,
                    (double)o->tolerance);
        return MF_ERR_ARGUMENT;
    }
    return MF_OK;
}

/* Triangular lattice points strictly inside, at least `clear` from every outline. */
static mf_result interior_points(const am_loops *ls, int32_t w, int32_t h, float s, float clear, am_loop *out)
{
    double row = s * 0.8660254037844386;
    int32_t rows = (int32_t)floor(h / row);
    /* centre the lattice in the image so the result does not lean to one side */
    double y0 = (h - rows * row) / 2;
    for (int32_t r = 0; r <= rows; r++) {
        double y = y0 + r * row, off = (r & 1) ? s / 2 : 0;
        int32_t cols = (int32_t)floor((w - off) / s);
        double x0 = off + (w - off - cols * s) / 2;
        for (int32_t k = 0; k <= cols; k++) {
            float x = (float)(x0 + k * s), fy = (float)y;
            if (x <= 0 || x >= w || fy <= 0 || fy >= h) continue;
            if (!am_inside(ls, x, fy) || am_distance(ls, x, fy) < clear) continue;
            if (am_loop_push(out, x, fy) != MF_OK) return MF_ERR_NOMEM;
        }
    }
    return MF_OK;
}

static void quality(mf_automesh *m, const int32_t *loop_of, const int32_t *pos_in_loop)
{
    m->min_angle = m->min_interior_angle = 180;
    int32_t good = 0;
    for (int32_t t = 0; t < m->triangle_count; t++) {
        const int32_t *v = m->triangles + 3 * t;
        float a = mf_triangle_min_angle(m->xy, v[0], v[1], v[2]);
        if (a < m->min_angle) m->min_angle = a;
        if (a >= 20) good++;
        bool on_loop = false;
        for (int k = 0; k < 3; k++) {
            int32_t p = v[k], q = v[(k + 1) % 3];
            if (loop_of[p] < 0 || loop_of[p] != loop_of[q]) continue;
            int32_t n = m->loop_sizes[loop_of[p]], d = (pos_in_loop[p] - pos_in_loop[q] + n) % n;
            if (d == 1 || d == n - 1) on_loop = true;
        }
        if (!on_loop && a < m->min_interior_angle) m->min_interior_angle = a;
    }
    m->good_share = m->triangle_count ? (float)good / (float)m->triangle_count : 0;
}

mf_result mf_automesh_image(const uint8_t *rgba, int32_t w, int32_t h, int32_t stride,
                            const mf_automesh_options *o, mf_automesh *out, mf_diag *diag)
{
    if (out) memset(out, 0, sizeof *out);
    mf_result r = check_args(rgba, w, h, stride, o, out, diag);
    if (r != MF_OK) return r;
    mf_automesh_options opt = o ? *o : (mf_automesh_options){0};
    int32_t thr = opt.alpha_threshold ? opt.alpha_threshold : 1;
    float density = opt.density > 0 ? opt.density : 1;
    float s = opt.spacing > 0 ? opt.spacing : (float)(w > h ? w : h) / (8 * density);
    float s_min = (float)sqrt((double)w * h / AM_MAX_INTERIOR);
    if (s < s_min) s = s_min;
    if (s < 1) s = 1;
    float tol = opt.tolerance != 0 ? opt.tolerance : fminf(8, fmaxf(0.5f, s / 10));

    size_t npx = (size_t)w * (size_t)h;
    uint8_t *mask = malloc(npx), *grown = malloc(npx);
    am_loops raw = {0}, loops = {0};
    am_loop inner = {0};
    int32_t *seg = NULL, *loop_of = NULL, *pos = NULL;
    float *pts = NULL;
    mf_triangulation tri = {0};
    if (!mask || !grown) {
        r = MF_ERR_NOMEM;
        goto done;
    }
    size_t opaque = 0;
    for (int32_t y = 0; y < h; y++)
        for (int32_t x = 0; x < w; x++) {
            uint8_t a = rgba[(size_t)y * (size_t)stride + (size_t)x * 4 + 3];
            mask[(size_t)y * (size_t)w + (size_t)x] = a >= thr;
            opaque += a >= thr;
        }
    if (opaque == 0) {
        mf_diag_set(diag, "", "", "no pixel has alpha >= %d: nothing to mesh (the image is empty)", (int)thr);
        r = MF_ERR_INVALID;
        goto done;
    }
    /* The margin lets simplification cut corners without cutting opaque pixels off. */
    int32_t margin = tol > 0 ? (int32_t)ceilf(tol) + 1 : 1;
    r = dilate(mask, w, h, margin, grown);
    if (r == MF_OK) r = am_trace(grown, w, h, &raw);
    if (r != MF_OK) goto done;
    for (;;) {
        bool ok;
        r = simplify_all(&raw, tol, mask, w, h, &loops, &ok);
        if (r != MF_OK) goto done;
        if (ok) break;
        am_loops_free(&loops);
        if (tol <= 0) { /* the traced outline itself always passes; only a bug gets here */
            mf_diag_set(diag, "", "", "automesh: the traced outline is not simple");
            r = MF_ERR_INVALID;
            goto done;
        }
        tol = tol > 0.25f ? tol / 2 : 0;
    }
    qsort(loops.l, (size_t)loops.n, sizeof *loops.l, cmp_area);
    for (int32_t i = 0; i < loops.n; i++) {
        am_loop sub;
        r = am_subdivide(&loops.l[i], s, &sub);
        if (r != MF_OK) {
            free(sub.xy);
            goto done;
        }
        free(loops.l[i].xy);
        loops.l[i] = sub;
    }
    r = interior_points(&loops, w, h, s, 0.5f * s, &inner);
    if (r != MF_OK) goto done;

    int32_t nb = 0;
    for (int32_t i = 0; i < loops.n; i++) nb += loops.l[i].n;
    int32_t nv = nb + inner.n;
    out->xy = malloc((size_t)nv * 2 * sizeof *out->xy);
    out->uvs = malloc((size_t)nv * 2 * sizeof *out->uvs);
    out->loop_sizes = malloc((size_t)loops.n * sizeof *out->loop_sizes);
    out->edges = malloc((size_t)nb * 2 * sizeof *out->edges);
    loop_of = malloc((size_t)nv * sizeof *loop_of);
    pos = malloc((size_t)nv * sizeof *pos);
    if (!out->xy || !out->uvs || !out->loop_sizes || !out->edges || !loop_of || !pos) {
        r = MF_ERR_NOMEM;
        goto done;
    }
    int32_t v = 0;
    for (int32_t i = 0; i < loops.n; i++) {
        const am_loop *lp = &loops.l[i];
        out->loop_sizes[i] = lp->n;
        for (int32_t k = 0; k < lp->n; k++, v++) {
            out->xy[2 * v] = lp->xy[2 * k], out->xy[2 * v + 1] = lp->xy[2 * k + 1];
            out->edges[2 * v] = v, out->edges[2 * v + 1] = k + 1 == lp->n ? v - k : v + 1;
            loop_of[v] = i, pos[v] = k;
        }
    }
    for (int32_t k = 0; k < inner.n; k++, v++) {
        out->xy[2 * v] = inner.xy[2 * k], out->xy[2 * v + 1] = inner.xy[2 * k + 1];
        loop_of[v] = -1, pos[v] = -1;
    }
    out->vertex_count = nv;
    out->hull = loops.l[0].n;
    out->loop_count = loops.n;
    out->edge_count = nb;
    for (int32_t i = 0; i < nv; i++) {
        out->uvs[2 * i] = out->xy[2 * i] / (float)w;
        out->uvs[2 * i + 1] = out->xy[2 * i + 1] / (float)h;
    }
    mf_tri_input in = {nv, out->xy, nb, out->edges, MF_TRI_CLIP_EVEN_ODD};
    r = mf_triangulate(&in, &tri, diag);
    if (r != MF_OK) {
        char msg[512];
        memcpy(msg, diag ? diag->message : "", diag ? sizeof msg : 1);
        mf_diag_set(diag, "", "", "automesh: triangulation failed: %s", diag ? msg : "");
        r = MF_ERR_INVALID;
        goto done;
    }
    out->triangle_count = tri.triangle_count;
    out->triangles = tri.triangles;
    tri.triangles = NULL;
    out->spacing_used = s;
    out->tolerance_used = tol;
    quality(out, loop_of, pos);
done:
    if (r != MF_OK) {
        if (r == MF_ERR_NOMEM) mf_diag_set(diag, "", "", "automesh: out of memory");
        mf_automesh_free(out);
    }
    free(mask);
    free(grown);
    am_loops_free(&raw);
    am_loops_free(&loops);
    free(inner.xy);
    free(seg);
    free(loop_of);
    free(pos);
    free(pts);
    mf_triangulation_free(&tri);
    return r;
}

void mf_automesh_free(mf_automesh *m)
{
    if (!m) return;
    free(m->xy);
    free(m->uvs);
    free(m->loop_sizes);
    free(m->triangles);
    free(m->edges);
    memset(m, 0, sizeof *m);
}
