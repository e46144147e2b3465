/* Constrained Delaunay triangulation: structure, Delaunay property, constraints, clipping,
 * degenerate inputs and errors. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "mf/mf_triangulate.h"

static uint32_t rng_state;
static float frand(void)
{
    rng_state = rng_state * 1664525u + 1013904223u;
    return (float)((rng_state >> 8) & 0xffff) / 65536.0f;
}

static double orient(const float *p, int32_t a, int32_t b, int32_t c)
{
    return ((double)p[2 * b] - p[2 * a]) * ((double)p[2 * c + 1] - p[2 * a + 1]) -
           ((double)p[2 * b + 1] - p[2 * a + 1]) * ((double)p[2 * c] - p[2 * a]);
}

static double incircle(const float *p, int32_t a, int32_t b, int32_t c, int32_t d)
{
    double ax = p[2 * a] - p[2 * d], ay = p[2 * a + 1] - p[2 * d + 1];
    double bx = p[2 * b] - p[2 * d], by = p[2 * b + 1] - p[2 * d + 1];
    double cx = p[2 * c] - p[2 * d], cy = p[2 * c + 1] - p[2 * d + 1];
    return (ax * ax + ay * ay) * (bx * cy - by * cx) - (bx * bx + by * by) * (ax * cy - ay * cx) +
           (cx * cx + cy * cy) * (ax * by - ay * bx);
}

static double area_sum(const float *p, const mf_triangulation *t)
{
    double s = 0;
    for (int32_t i = 0; i < t->triangle_count; i++) {
        double o = orient(p, t->triangles[3 * i], t->triangles[3 * i + 1], t->triangles[3 * i + 2]);
        assert_true(o > 0); /* counter-clockwise, not degenerate */
        s += o / 2;
    }
    return s;
}

/* Index of the triangle having directed edge (u, w), or -1. */
static int32_t find_directed(const mf_triangulation *t, int32_t u, int32_t w)
{
    for (int32_t i = 0; i < t->triangle_count; i++)
        for (int k = 0; k < 3; k++)
            if (t->triangles[3 * i + k] == u && t->triangles[3 * i + (k + 1) % 3] == w) return i;
    return -1;
}

static bool is_segment(const int32_t *seg, int32_t nseg, int32_t u, int32_t w)
{
    for (int32_t s = 0; s < nseg; s++)
        if ((seg[2 * s] == u && seg[2 * s + 1] == w) || (seg[2 * s] == w && seg[2 * s + 1] == u)) return true;
    return false;
}

/* Every directed edge used once (no overlaps, manifold) and every unconstrained interior edge
 * locally Delaunay (relative tolerance for rounding). */
static void check_structure(const float *p, const mf_triangulation *t, const int32_t *seg, int32_t nseg)
{
    for (int32_t i = 0; i < t->triangle_count; i++)
        for (int k = 0; k < 3; k++) {
            int32_t u = t->triangles[3 * i + k], w = t->triangles[3 * i + (k + 1) % 3];
            int32_t o = t->triangles[3 * i + (k + 2) % 3];
            assert_int_equal(find_directed(t, u, w), i);
            int32_t j = find_directed(t, w, u);
            if (j < 0 || is_segment(seg, nseg, u, w)) continue;
            int32_t d = -1;
            for (int m = 0; m < 3; m++)
                if (t->triangles[3 * j + m] != u && t->triangles[3 * j + m] != w) d = t->triangles[3 * j + m];
            double scale = 0;
            for (int m = 0; m < 3; m++) {
                double x = p[2 * t->triangles[3 * i + m]] - p[2 * d], y = p[2 * t->triangles[3 * i + m] + 1] - p[2 * d + 1];
                scale += x * x + y * y;
            }
            double ic = incircle(p, u, w, o, d);
            if (ic > 1e-9 * scale * scale) {
                print_error("edge %d-%d not Delaunay: %g (scale %g)\n", u, w, ic, scale);
                fail();
            }
            (void)o;
        }
}

static void check_segments_present(const mf_triangulation *t, const int32_t *seg, int32_t nseg)
{
    for (int32_t s = 0; s < nseg; s++) {
        int32_t u = seg[2 * s], w = seg[2 * s + 1];
        assert_true(find_directed(t, u, w) >= 0 || find_directed(t, w, u) >= 0);
    }
}

static void test_square(void **state)
{
    (void)state;
    float xy[] = {0, 0, 10, 0, 10, 10, 0, 10, 5, 5};
    mf_tri_input in = {5, xy, 0, NULL, MF_TRI_KEEP_ALL};
    mf_triangulation t;
    mf_diag d;
    assert_int_equal(mf_triangulate(&in, &t, &d), MF_OK);
    assert_int_equal(t.triangle_count, 4);
    assert_true(fabs(area_sum(xy, &t) - 100) < 1e-9);
    check_structure(xy, &t, NULL, 0);
    mf_triangulation_free(&t);
}

/* Convex hull area by monotone chain, for the unconstrained checks. */
static int cmp_pt(const void *a, const void *b)
{
    const float *p = a, *q = b;
    if (p[0] != q[0]) return p[0] < q[0] ? -1 : 1;
    return p[1] < q[1] ? -1 : p[1] > q[1];
}

static double hull_area(const float *xy, int32_t n)
{
    float *p = malloc((size_t)n * 2 * sizeof *p), *h = malloc((size_t)(2 * n + 2) * 2 * sizeof *h);
    memcpy(p, xy, (size_t)n * 2 * sizeof *p);
    qsort(p, (size_t)n, 2 * sizeof *p, cmp_pt);
    int32_t k = 0;
    for (int pass = 0; pass < 2; pass++) {
        int32_t start = k;
        for (int32_t j = 0; j < n; j++) {
            int32_t i = pass ? n - 1 - j : j;
            while (k >= start + 2) {
                double o = ((double)h[2 * (k - 1)] - h[2 * (k - 2)]) * ((double)p[2 * i + 1] - h[2 * (k - 2) + 1]) -
                           ((double)h[2 * (k - 1) + 1] - h[2 * (k - 2) + 1]) * ((double)p[2 * i] - h[2 * (k - 2)]);
                if (o > 0) break;
                k--;
            }
            h[2 * k] = p[2 * i], h[2 * k + 1] = p[2 * i + 1], k++;
        }
        k--;
    }
    double a = 0;
    for (int32_t i = 0; i < k; i++) {
        int32_t j = (i + 1) % k;
        a += (double)h[2 * i] * h[2 * j + 1] - (double)h[2 * j] * h[2 * i + 1];
    }
    free(p);
    free(h);
    return a / 2;
}

static void test_random_points(void **state)
{
    (void)state;
    rng_state = 7;
    int32_t n = 1500;
    float *xy = malloc((size_t)n * 2 * sizeof *xy);
    for (int32_t i = 0; i < 2 * n; i++) xy[i] = frand() * 1000;
    mf_tri_input in = {n, xy, 0, NULL, MF_TRI_KEEP_ALL};
    mf_triangulation t;
    mf_diag d;
    assert_int_equal(mf_triangulate(&in, &t, &d), MF_OK);
    double want = hull_area(xy, n), got = area_sum(xy, &t);
    assert_true(fabs(want - got) < 1e-6 * want);
    check_structure(xy, &t, NULL, 0);
    mf_triangulation_free(&t);
    free(xy);
}

/* A grid: everything collinear and cocircular, plus duplicates of every point. */
static void test_grid_and_duplicates(void **state)
{
    (void)state;
    int32_t side = 12, n = side * side;
    float *xy = malloc((size_t)n * 4 * sizeof *xy);
    for (int32_t i = 0; i < n; i++) {
        xy[2 * i] = xy[2 * (n + i)] = (float)(i % side);
        xy[2 * i + 1] = xy[2 * (n + i) + 1] = (float)(i / side);
    }
    mf_tri_input in = {2 * n, xy, 0, NULL, MF_TRI_KEEP_ALL};
    mf_triangulation t;
    mf_diag d;
    assert_int_equal(mf_triangulate(&in, &t, &d), MF_OK);
    assert_int_equal(t.triangle_count, 2 * (side - 1) * (side - 1));
    assert_true(fabs(area_sum(xy, &t) - (side - 1) * (side - 1)) < 1e-9);
    for (int32_t i = 0; i < 3 * t.triangle_count; i++) assert_true(t.triangles[i] < n); /* first copies */
    check_structure(xy, &t, NULL, 0);
    mf_triangulation_free(&t);
    free(xy);
}

static void test_degenerate_inputs(void **state)
{
    (void)state;
    mf_triangulation t;
    mf_diag d;
    mf_tri_input none = {0, NULL, 0, NULL, MF_TRI_KEEP_ALL};
    assert_int_equal(mf_triangulate(&none, &t, &d), MF_OK);
    assert_int_equal(t.triangle_count, 0);
    mf_triangulation_free(&t);
    float line[] = {0, 0, 1, 1, 2, 2, 3, 3, 1, 1};
    mf_tri_input col = {5, line, 0, NULL, MF_TRI_KEEP_ALL};
    assert_int_equal(mf_triangulate(&col, &t, &d), MF_OK);
    assert_int_equal(t.triangle_count, 0);
    mf_triangulation_free(&t);
    float nan_xy[] = {0, 0, NAN, 1, 2, 2};
    mf_tri_input bad = {3, nan_xy, 0, NULL, MF_TRI_KEEP_ALL};
    assert_int_equal(mf_triangulate(&bad, &t, &d), MF_ERR_ARGUMENT);
    assert_contains(d.message, "points[1].x");
    float tri[] = {0, 0, 1, 0, 0, 1};
    int32_t seg[] = {0, 1, 1, 3};
    mf_tri_input oob = {3, tri, 2, seg, MF_TRI_KEEP_ALL};
    assert_int_equal(mf_triangulate(&oob, &t, &d), MF_ERR_ARGUMENT);
    assert_contains(d.message, "segments[1]");
    assert_null(t.triangles);
}

/* A square with a square hole, clipped even-odd, with interior points and a point lying on an
 * outline segment (it splits the segment). */
static void test_hole_clip(void **state)
{
    (void)state;
    float xy[] = {0, 0, 10, 0, 10, 10, 0, 10, 3, 3, 7, 3, 7, 7, 3, 7, 5, 0, 1, 1, 9, 9, 1, 8};
    int32_t seg[] = {0, 1, 1, 2, 2, 3, 3, 0, 4, 5, 5, 6, 6, 7, 7, 4};
    mf_tri_input in = {12, xy, 8, seg, MF_TRI_CLIP_EVEN_ODD};
    mf_triangulation t;
    mf_diag d;
    assert_int_equal(mf_triangulate(&in, &t, &d), MF_OK);
    assert_true(fabs(area_sum(xy, &t) - (100 - 16)) < 1e-9);
    int32_t split[] = {0, 8, 8, 1, 1, 2, 2, 3, 3, 0, 4, 5, 5, 6, 6, 7, 7, 4};
    check_segments_present(&t, split, 9);
    check_structure(xy, &t, split, 9);
    mf_triangulation_free(&t);
}

static void test_crossing_segments(void **state)
{
    (void)state;
    float xy[] = {0, 0, 10, 10, 0, 10, 10, 0, 5, -5};
    int32_t seg[] = {0, 1, 2, 3};
    mf_tri_input in = {5, xy, 2, seg, MF_TRI_KEEP_ALL};
    mf_triangulation t;
    mf_diag d;
    assert_int_equal(mf_triangulate(&in, &t, &d), MF_ERR_INVALID);
    assert_contains(d.message, "segments[1]");
    assert_contains(d.message, "crosses segments[0]");
}

/* Random star-shaped polygons (sharp spikes, many vertices) with random inside points: the
 * clipped area is the polygon's, the outline is present, unconstrained edges are Delaunay. */
static void test_random_polygons(void **state)
{
    (void)state;
    rng_state = 99;
    for (int round = 0; round < 30; round++) {
        int32_t m = 3 + (int32_t)(frand() * 120), extra = (int32_t)(frand() * 300);
        float *xy = malloc((size_t)(m + extra) * 2 * sizeof *xy);
        int32_t *seg = malloc((size_t)m * 2 * sizeof *seg);
        double area = 0;
        for (int32_t i = 0; i < m; i++) {
            double ang = 2 * 3.14159265358979 * i / m, r = 20 + frand() * 80;
            xy[2 * i] = (float)(100 + r * cos(ang)), xy[2 * i + 1] = (float)(100 + r * sin(ang));
            seg[2 * i] = i, seg[2 * i + 1] = (i + 1) % m;
        }
        for (int32_t i = 0; i < m; i++) {
            int32_t j = (i + 1) % m;
            area += ((double)xy[2 * i] * xy[2 * j + 1] - (double)xy[2 * j] * xy[2 * i + 1]) / 2;
        }
        /* Inside points: on the way from the centre to a vertex, so surely inside. */
        for (int32_t k = 0; k < extra; k++) {
            int32_t v = (int32_t)(frand() * m);
            float f = 0.05f + frand() * 0.9f;
            xy[2 * (m + k)] = 100 + (xy[2 * v] - 100) * f;
            xy[2 * (m + k) + 1] = 100 + (xy[2 * v + 1] - 100) * f;
        }
        mf_tri_input in = {m + extra, xy, m, seg, MF_TRI_CLIP_EVEN_ODD};
        mf_triangulation t;
        mf_diag d;
        assert_int_equal(mf_triangulate(&in, &t, &d), MF_OK);
        assert_true(fabs(area_sum(xy, &t) - area) < 1e-6 * area);
        check_segments_present(&t, seg, m);
        check_structure(xy, &t, seg, m);
        mf_triangulation_free(&t);
        free(xy);
        free(seg);
    }
}

static void test_min_angle(void **state)
{
    (void)state;
    float xy[] = {0, 0, 1, 0, 0.5f, 0.8660254f, 0, 0, 1, 0, 2, 0};
    assert_true(fabsf(mf_triangle_min_angle(xy, 0, 1, 2) - 60) < 1e-3f);
    assert_true(mf_triangle_min_angle(xy, 3, 4, 5) == 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_square),          cmocka_unit_test(test_random_points),
        cmocka_unit_test(test_grid_and_duplicates), cmocka_unit_test(test_degenerate_inputs),
        cmocka_unit_test(test_hole_clip),       cmocka_unit_test(test_crossing_segments),
        cmocka_unit_test(test_random_polygons), cmocka_unit_test(test_min_angle),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
