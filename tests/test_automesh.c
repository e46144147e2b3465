/* Auto-mesh: coverage of every opaque pixel (the triangles rasterised), no overlaps, outline
 * edges present, vertices inside the image, triangle quality, and the awkward images: holes,
 * islands, thin shapes, tiny and empty ones. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "mf/mf_automesh.h"
#include "mf/mf_triangulate.h"

typedef struct img {
    int32_t w, h;
    uint8_t *rgba;
} img;

static img make(int32_t w, int32_t h)
{
    img m = {w, h, calloc((size_t)w * h * 4, 1)};
    return m;
}

static void put(img *m, int32_t x, int32_t y, uint8_t a)
{
    if (x < 0 || y < 0 || x >= m->w || y >= m->h) return;
    uint8_t *p = m->rgba + ((size_t)y * m->w + x) * 4;
    p[0] = 200, p[1] = 100, p[2] = 50, p[3] = a;
}

/* Adds (a) or removes (a = 0) a disc; soft edge for a few pixels. */
static void disc(img *m, float cx, float cy, float r, int soft)
{
    for (int32_t y = 0; y < m->h; y++)
        for (int32_t x = 0; x < m->w; x++) {
            float d = hypotf(x + 0.5f - cx, y + 0.5f - cy);
            if (d <= r) put(m, x, y, soft ? (uint8_t)fminf(255, (r - d) * 60 + 1) : 255);
        }
}

static void clear_disc(img *m, float cx, float cy, float r)
{
    for (int32_t y = 0; y < m->h; y++)
        for (int32_t x = 0; x < m->w; x++)
            if (hypotf(x + 0.5f - cx, y + 0.5f - cy) <= r) m->rgba[((size_t)y * m->w + x) * 4 + 3] = 0;
}

static double orient(const float *p, int32_t a, int32_t b, int32_t c)
{
    return ((double)p[2 * b] - p[2 * a]) * ((double)p[2 * c + 1] - p[2 * a + 1]) -
           ((double)p[2 * b + 1] - p[2 * a + 1]) * ((double)p[2 * c] - p[2 * a]);
}

static bool has_edge(const mf_automesh *m, int32_t u, int32_t w)
{
    for (int32_t t = 0; t < m->triangle_count; t++)
        for (int k = 0; k < 3; k++) {
            int32_t a = m->triangles[3 * t + k], b = m->triangles[3 * t + (k + 1) % 3];
            if ((a == u && b == w) || (a == w && b == u)) return true;
        }
    return false;
}

/* All the checks that hold for every mesh; returns the mesh for more. */
static void check_mesh(const img *im, const mf_automesh *m, int thr, const char *name)
{
    assert_true(m->vertex_count >= 3 && m->triangle_count >= 1 && m->hull >= 3);
    for (int32_t i = 0; i < m->vertex_count; i++) {
        float x = m->xy[2 * i], y = m->xy[2 * i + 1];
        assert_true(x >= 0 && x <= im->w && y >= 0 && y <= im->h);
        assert_true(fabsf(m->uvs[2 * i] - x / im->w) < 1e-6f && fabsf(m->uvs[2 * i + 1] - y / im->h) < 1e-6f);
    }
    /* Outline edges are triangle edges. */
    for (int32_t e = 0; e < m->edge_count; e++) assert_true(has_edge(m, m->edges[2 * e], m->edges[2 * e + 1]));
    /* No overlaps: same orientation everywhere and the areas add up to the outlined area. */
    double tri_area = 0, loop_area = 0;
    for (int32_t t = 0; t < m->triangle_count; t++) {
        double o = orient(m->xy, m->triangles[3 * t], m->triangles[3 * t + 1], m->triangles[3 * t + 2]);
        assert_true(o > 0);
        tri_area += o / 2;
    }
    int32_t base = 0;
    for (int32_t l = 0; l < m->loop_count; l++) {
        for (int32_t i = 0; i < m->loop_sizes[l]; i++) {
            int32_t a = base + i, b = base + (i + 1) % m->loop_sizes[l];
            loop_area += ((double)m->xy[2 * a] * m->xy[2 * b + 1] - (double)m->xy[2 * b] * m->xy[2 * a + 1]) / 2;
        }
        base += m->loop_sizes[l];
    }
    assert_true(fabs(tri_area - fabs(loop_area)) < 1e-6 * tri_area + 1e-3);
    /* Coverage: rasterise the triangles at pixel centres (edges inclusive). */
    uint8_t *cov = calloc((size_t)im->w * im->h, 1);
    for (int32_t t = 0; t < m->triangle_count; t++) {
        const float *a = m->xy + 2 * m->triangles[3 * t], *b = m->xy + 2 * m->triangles[3 * t + 1],
                    *c = m->xy + 2 * m->triangles[3 * t + 2];
        int32_t x0 = (int32_t)floorf(fminf(a[0], fminf(b[0], c[0]))), x1 = (int32_t)ceilf(fmaxf(a[0], fmaxf(b[0], c[0])));
        int32_t y0 = (int32_t)floorf(fminf(a[1], fminf(b[1], c[1]))), y1 = (int32_t)ceilf(fmaxf(a[1], fmaxf(b[1], c[1])));
        for (int32_t y = y0 < 0 ? 0 : y0; y <= y1 && y < im->h; y++)
            for (int32_t x = x0 < 0 ? 0 : x0; x <= x1 && x < im->w; x++) {
                double px = x + 0.5, py = y + 0.5;
                double e0 = (b[0] - a[0]) * (py - a[1]) - (b[1] - a[1]) * (px - a[0]);
                double e1 = (c[0] - b[0]) * (py - b[1]) - (c[1] - b[1]) * (px - b[0]);
                double e2 = (a[0] - c[0]) * (py - c[1]) - (a[1] - c[1]) * (px - c[0]);
                /* a centre on a shared edge may round outside both triangles: allow 1e-4 px */
                double l0 = hypot(b[0] - a[0], b[1] - a[1]), l1 = hypot(c[0] - b[0], c[1] - b[1]),
                       l2 = hypot(a[0] - c[0], a[1] - c[1]);
                if (e0 >= -1e-4 * l0 && e1 >= -1e-4 * l1 && e2 >= -1e-4 * l2) cov[(size_t)y * im->w + x] = 1;
            }
    }
    size_t missing = 0, opaque = 0;
    for (int32_t y = 0; y < im->h; y++)
        for (int32_t x = 0; x < im->w; x++)
            if (im->rgba[((size_t)y * im->w + x) * 4 + 3] >= thr) {
                opaque++;
                if (!cov[(size_t)y * im->w + x]) missing++;
            }
    free(cov);
    printf("  %-12s %4dx%-4d v=%5d hull=%4d loops=%d tris=%5d min=%5.1f interior-min=%5.1f >=20deg=%5.1f%% "
           "tol=%.2f spacing=%.1f uncovered=%zu/%zu\n",
           name, im->w, im->h, m->vertex_count, m->hull, m->loop_count, m->triangle_count, m->min_angle,
           m->min_interior_angle, m->good_share * 100, m->tolerance_used, m->spacing_used, missing, opaque);
    assert_int_equal(missing, 0);
}

static void run(const img *im, const mf_automesh_options *o, const char *name, mf_automesh *m)
{
    mf_diag d;
    mf_result r = mf_automesh_image(im->rgba, im->w, im->h, im->w * 4, o, m, &d);
    if (r != MF_OK) print_error("%s: %s\n", name, d.message);
    assert_int_equal(r, MF_OK);
    check_mesh(im, m, o && o->alpha_threshold ? o->alpha_threshold : 1, name);
}

static void test_disc(void **state)
{
    (void)state;
    img im = make(200, 160);
    disc(&im, 100, 80, 70, 1);
    mf_automesh m;
    run(&im, NULL, "disc", &m);
    assert_int_equal(m.loop_count, 1);
    assert_int_equal(m.hull, m.edge_count);
    /* A round shape: well-shaped triangles inside. */
    assert_true(m.min_interior_angle >= 20);
    assert_true(m.good_share >= 0.8f);
    mf_automesh_free(&m);
    for (float dens = 0.5f; dens <= 4; dens *= 2) {
        mf_automesh_options o = {0};
        o.density = dens;
        char name[32];
        snprintf(name, sizeof name, "disc d=%.1f", (double)dens);
        run(&im, &o, name, &m);
        assert_true(m.min_interior_angle >= 20);
        mf_automesh_free(&m);
    }
    /* A higher threshold ignores the soft edge: a smaller mesh. */
    mf_automesh_options hi = {0};
    hi.alpha_threshold = 200;
    run(&im, &hi, "disc a>=200", &m);
    mf_automesh_free(&m);
    free(im.rgba);
}

static void test_ring_and_islands(void **state)
{
    (void)state;
    img im = make(256, 256);
    disc(&im, 128, 128, 100, 0);
    clear_disc(&im, 128, 128, 50);
    disc(&im, 128, 128, 10, 0);   /* an island inside the hole */
    disc(&im, 240, 20, 8, 0);     /* a separate island */
    put(&im, 3, 250, 255);        /* a single pixel */
    mf_automesh m;
    run(&im, NULL, "ring+islands", &m);
    assert_true(m.loop_count >= 4); /* outer, hole, inner island, corner island, pixel */
    /* The hull is the largest outline: around the ring. */
    float minx = 1e9f, maxx = -1e9f;
    for (int32_t i = 0; i < m.hull; i++) minx = fminf(minx, m.xy[2 * i]), maxx = fmaxf(maxx, m.xy[2 * i]);
    assert_true(minx < 30 && maxx > 226);
    /* The hole stays empty: its centre region between the island and the ring is not covered. */
    mf_automesh_free(&m);
    free(im.rgba);
}

static void test_thin_and_tiny(void **state)
{
    (void)state;
    mf_automesh m;
    img line = make(300, 40); /* a one-pixel diagonal-ish line */
    for (int32_t x = 10; x < 290; x++) put(&line, x, 20 + (x / 37) % 3, 255);
    run(&line, NULL, "thin line", &m);
    mf_automesh_free(&m);
    free(line.rgba);
    img one = make(1, 1);
    put(&one, 0, 0, 255);
    run(&one, NULL, "1x1", &m);
    mf_automesh_free(&m);
    free(one.rgba);
    img full = make(33, 17);
    for (int32_t y = 0; y < 17; y++)
        for (int32_t x = 0; x < 33; x++) put(&full, x, y, 255);
    run(&full, NULL, "full", &m);
    /* Fully opaque: the outline is the image rectangle. */
    float minx = 1e9f, maxx = -1e9f;
    for (int32_t i = 0; i < m.hull; i++) minx = fminf(minx, m.xy[2 * i]), maxx = fmaxf(maxx, m.xy[2 * i]);
    assert_true(minx == 0 && maxx == 33);
    mf_automesh_free(&m);
    free(full.rgba);
    img checker = make(24, 24); /* every other pixel: many saddles */
    for (int32_t y = 0; y < 24; y++)
        for (int32_t x = 0; x < 24; x++)
            if ((x + y) % 2 == 0) put(&checker, x, y, 255);
    mf_automesh_options raw = {0};
    raw.tolerance = -1;
    run(&checker, &raw, "checker", &m);
    mf_automesh_free(&m);
    free(checker.rgba);
}

static void test_errors(void **state)
{
    (void)state;
    mf_automesh m;
    mf_diag d;
    img empty = make(20, 20);
    put(&empty, 5, 5, 3);
    mf_automesh_options o = {0};
    o.alpha_threshold = 4;
    assert_int_equal(mf_automesh_image(empty.rgba, 20, 20, 80, &o, &m, &d), MF_ERR_INVALID);
    assert_contains(d.message, "no pixel has alpha >= 4");
    assert_null(m.xy);
    assert_int_equal(mf_automesh_image(empty.rgba, 20, 20, 40, NULL, &m, &d), MF_ERR_ARGUMENT);
    o.alpha_threshold = 0;
    o.density = -1;
    assert_int_equal(mf_automesh_image(empty.rgba, 20, 20, 80, &o, &m, &d), MF_ERR_ARGUMENT);
    assert_contains(d.where, "density");
    free(empty.rgba);
}

/* Random blobs: the invariants hold whatever the shape. */
static uint32_t rng = 12345;
static float frand(void)
{
    rng = rng * 1664525u + 1013904223u;
    return (float)((rng >> 8) & 0xffff) / 65536.0f;
}

static void test_random_blobs(void **state)
{
    (void)state;
    double worst = 180;
    for (int round = 0; round < 25; round++) {
        int32_t w = 8 + (int32_t)(frand() * 180), h = 8 + (int32_t)(frand() * 180);
        img im = make(w, h);
        int blobs = 1 + (int)(frand() * 6);
        for (int b = 0; b < blobs; b++) disc(&im, frand() * w, frand() * h, 1 + frand() * w / 3, b & 1);
        if (frand() < 0.5f) clear_disc(&im, frand() * w, frand() * h, frand() * w / 4);
        im.rgba[3] = 255; /* never empty */
        mf_automesh_options o = {0};
        o.density = 0.5f + frand() * 3;
        mf_automesh m;
        char name[32];
        snprintf(name, sizeof name, "blob %d", round);
        run(&im, &o, name, &m);
        if (m.min_interior_angle < worst) worst = m.min_interior_angle;
        mf_automesh_free(&m);
        free(im.rgba);
    }
    printf("  worst interior min angle over the blobs: %.1f\n", worst);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_disc),         cmocka_unit_test(test_ring_and_islands),
        cmocka_unit_test(test_thin_and_tiny), cmocka_unit_test(test_errors),
        cmocka_unit_test(test_random_blobs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
