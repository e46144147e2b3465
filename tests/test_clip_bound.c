/* The draw list's clipping capacity (geom_draw.c) rests on a bound: a triangle clipped by the
 * convex pieces of an n-point clip polygon gives at most 6n - 12 points and 12n - 24 fan
 * indices. Random simple polygons (star-shaped, mostly concave, 3 to 64 points) and random
 * triangles, small and covering, check it through the public clipping functions. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>

#include <cmocka.h>

#include "mf/mf_geometry.h"

static uint32_t next(uint32_t *s)
{
    *s ^= *s << 13, *s ^= *s >> 17, *s ^= *s << 5;
    return *s;
}
static float rnd(uint32_t *s, float lo, float hi) { return lo + (hi - lo) * (float)(next(s) % 100000) / 100000.0f; }

static void clipped_output_within_bound(void **state)
{
    (void)state;
    uint32_t seed = 0x9e3779b9u;
    int32_t worst_ratio_hits = 0;
    for (int32_t round = 0; round < 3000; round++) {
        int32_t n = 3 + (int32_t)(next(&seed) % 62);
        float poly[2 * 64];
        for (int32_t i = 0; i < n; i++) { /* star-shaped: increasing angles, random radii */
            float a = (float)(2 * 3.14159265 * (i + rnd(&seed, 0.05f, 0.95f)) / n), r = rnd(&seed, 5, 100);
            poly[2 * i] = r * cosf(a), poly[2 * i + 1] = r * sinf(a);
        }
        float pts[3 * 64 * 2];
        int32_t first[64], count[64];
        int32_t pieces = mf_convex_decompose(poly, n, pts, 3 * n, first, count, 64, NULL);
        if (pieces == 0) continue;
        int32_t sum_m = 0;
        for (int32_t k = 0; k < pieces; k++) sum_m += count[k];
        assert_true(pieces <= n - 2 || (pieces == 1 && count[0] == n));
        assert_true(sum_m <= n - 2 + 2 * pieces || (pieces == 1 && count[0] == n));
        for (int32_t t = 0; t < 20; t++) {
            float span = t % 4 == 0 ? 400.0f : 60.0f; /* some triangles cover the whole polygon */
            float tri[6];
            for (int32_t j = 0; j < 6; j++) tri[j] = rnd(&seed, -span, span);
            int32_t verts = 0, idx = 0;
            for (int32_t k = 0; k < pieces; k++) {
                float out[2 * 80], tmp[2 * 80];
                int32_t m = mf_clip_convex(tri, 3, pts + 2 * first[k], count[k], out, tmp, 80);
                assert_true(m <= 3 + count[k]);
                if (m < 3) continue;
                verts += m, idx += 3 * (m - 2);
            }
            assert_true(verts <= 6 * n - 12);
            assert_true(idx <= 12 * n - 24);
            worst_ratio_hits += verts > 0;
        }
    }
    assert_true(worst_ratio_hits > 1000); /* the triangles did meet the polygons */
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(clipped_output_within_bound)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
