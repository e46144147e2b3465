/* Fuzzes the triangulator and the auto-mesher. The first byte picks which:
 *  even: points on a small integer grid (exact predicates: many collinear, cocircular and
 *        duplicate points) with segments; on success every triangle must be counter-clockwise
 *        and index real points, every failure must say why.
 *  odd:  a small image from the bytes; on success every opaque pixel centre must be covered,
 *        the vertices inside the image, the indices valid. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mf/mf_automesh.h"
#include "mf/mf_triangulate.h"

static double orient(const float *p, int32_t a, int32_t b, int32_t c)
{
    return ((double)p[2 * b] - p[2 * a]) * ((double)p[2 * c + 1] - p[2 * a + 1]) -
           ((double)p[2 * b + 1] - p[2 * a + 1]) * ((double)p[2 * c] - p[2 * a]);
}

static void fuzz_triangulate(const uint8_t *d, size_t n)
{
    if (n < 2) return;
    int32_t np = d[0] % 96, ns = d[1] % 64, flags = d[1] & 64 ? MF_TRI_CLIP_EVEN_ODD : MF_TRI_KEEP_ALL;
    d += 2, n -= 2;
    float xy[2 * 96];
    int32_t seg[2 * 64];
    for (int32_t i = 0; i < 2 * np; i++) xy[i] = (float)(i < (int32_t)n ? d[i] % 24 : (i * 7) % 24);
    for (int32_t i = 0; i < 2 * ns; i++) {
        size_t k = (size_t)(2 * np + i);
        seg[i] = np ? (int32_t)((k < n ? d[k] : (uint8_t)i) % np) : 0;
    }
    if (np == 0) ns = 0;
    mf_tri_input in = {np, xy, ns, seg, flags};
    mf_triangulation t;
    mf_diag diag;
    diag.message[0] = 0;
    mf_result r = mf_triangulate(&in, &t, &diag);
    if (r != MF_OK) {
        if (t.triangles || !diag.message[0]) abort();
        return;
    }
    for (int32_t i = 0; i < t.triangle_count; i++) {
        const int32_t *v = t.triangles + 3 * i;
        if (v[0] < 0 || v[1] < 0 || v[2] < 0 || v[0] >= np || v[1] >= np || v[2] >= np) abort();
        if (orient(xy, v[0], v[1], v[2]) <= 0) abort();
    }
    mf_triangulation_free(&t);
}

static double len(const float *a, const float *b) { return hypot((double)b[0] - a[0], (double)b[1] - a[1]); }

static void fuzz_image(const uint8_t *d, size_t n)
{
    if (n < 3) return;
    int32_t w = 1 + d[0] % 40, h = 1 + d[1] % 40;
    mf_automesh_options o = {0};
    o.density = (float)(d[2] % 16) / 4;
    o.alpha_threshold = d[2] & 128 ? 128 : 0;
    d += 3, n -= 3;
    uint8_t *rgba = calloc((size_t)w * h * 4, 1);
    if (!rgba) return;
    /* each input bit is a pixel; alpha 255 or 0 */
    for (int32_t i = 0; i < w * h; i++)
        if ((size_t)(i / 8) < n && (d[i / 8] >> (i % 8)) & 1) rgba[4 * i + 3] = 255;
    mf_automesh m;
    mf_diag diag;
    diag.message[0] = 0;
    if (mf_automesh_image(rgba, w, h, w * 4, &o, &m, &diag) != MF_OK) {
        if (m.xy || !diag.message[0]) abort();
        free(rgba);
        return;
    }
    for (int32_t i = 0; i < m.vertex_count; i++)
        if (m.xy[2 * i] < 0 || m.xy[2 * i] > w || m.xy[2 * i + 1] < 0 || m.xy[2 * i + 1] > h) abort();
    uint8_t *cov = calloc((size_t)w * h, 1);
    for (int32_t t = 0; cov && t < m.triangle_count; t++) {
        const int32_t *v = m.triangles + 3 * t;
        for (int k = 0; k < 3; k++)
            if (v[k] < 0 || v[k] >= m.vertex_count) abort();
        const float *a = m.xy + 2 * v[0], *b = m.xy + 2 * v[1], *c = m.xy + 2 * v[2];
        for (int32_t y = 0; y < h; y++)
            for (int32_t x = 0; x < w; x++) {
                double px = x + 0.5, py = y + 0.5;
                /* a centre on a shared edge may round outside both triangles: allow 1e-4 px */
                if ((b[0] - a[0]) * (py - a[1]) - (b[1] - a[1]) * (px - a[0]) >= -1e-4 * len(a, b) &&
                    (c[0] - b[0]) * (py - b[1]) - (c[1] - b[1]) * (px - b[0]) >= -1e-4 * len(b, c) &&
                    (a[0] - c[0]) * (py - c[1]) - (a[1] - c[1]) * (px - c[0]) >= -1e-4 * len(c, a))
                    cov[y * w + x] = 1;
            }
    }
    for (int32_t i = 0; cov && i < w * h; i++)
        if (rgba[4 * i + 3] && !cov[i]) abort();
    free(cov);
    mf_automesh_free(&m);
    free(rgba);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) return 0;
    if (data[0] & 1) fuzz_image(data + 1, size - 1);
    else fuzz_triangulate(data + 1, size - 1);
    return 0;
}
