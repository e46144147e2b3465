/* The pose updates' atan2 (src/runtime/pose/pose_atan.h): the float version gives the bits of
 * the double one on every float pair (its single NaN test instead of the range tests), zeros
 * and infinities give libm's exact results, and both stay within the series' 4e-13 of libm. */
#include "testutil.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "../src/runtime/pose/pose_atan.h"

static bool same_bits(double a, double b)
{
    if (a != a && b != b) return true; /* NaN: libm's either way */
    return memcmp(&a, &b, sizeof a) == 0;
}

static void check_pair(float y, float x)
{
    double f = mf_atan2_ff(y, x), d = mf_atan2(y, x), l = atan2(y, x);
    if (!same_bits(f, d)) fail_msg("atan2(%a, %a): float version %a, double %a", y, x, f, d);
    if (!(fabs(f - l) <= 4e-13 * fabs(l) || (f != f && l != l)))
        fail_msg("atan2(%a, %a): %.17g, libm %.17g", y, x, f, l);
}

static void zeros_and_infinities_give_libms_bits(void **s)
{
    (void)s;
    const float v[] = {0.0f, -0.0f, INFINITY, -INFINITY, NAN, 1e-45f, -1e-45f, 1.17549435e-38f, 1.0f, -1.0f,
                       2.5f, -7.0f, 3.40282347e38f, -3.40282347e38f};
    const int n = (int)(sizeof v / sizeof *v);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double f = mf_atan2_ff(v[i], v[j]), l = atan2(v[i], v[j]);
            bool special = v[i] == 0 || v[j] == 0 || isinf(v[i]) || isinf(v[j]) || v[i] != v[i] || v[j] != v[j];
            if (special && !same_bits(f, l)) fail_msg("atan2(%a, %a): %a, libm %a", v[i], v[j], f, l);
            check_pair(v[i], v[j]);
        }
}

static void float_version_matches_double_one(void **s)
{
    (void)s;
    uint64_t r = 987654321;
    for (int i = 0; i < 400000; i++) {
        r = r * 6364136223846793005ull + 1442695040888963407ull;
        uint32_t a = (uint32_t)(r >> 32), b = (uint32_t)r;
        float y, x;
        if (i & 1) { /* any bits: every exponent, denormals, infinities and NaNs */
            memcpy(&y, &a, sizeof y), memcpy(&x, &b, sizeof x);
        } else { /* angles of a bone's axes */
            y = (float)(int32_t)a / 65536.0f, x = (float)(int32_t)b / 65536.0f;
        }
        check_pair(y, x);
    }
}

#if defined(__SSE2__) && !defined(MF_NO_SIMD)
/* The two-lane series (the IK's two-bone pass) gives each lane the scalar series' bits. */
static double scalar_lane(double y, double x)
{
    double ax = fabs(x), ay = fabs(y);
    int swap = ay > ax;
    return mf_atan2_reduced(swap ? ax / ay : ay / ax, swap, signbit(y), signbit(x));
}

static void two_lane_series_matches_scalar(void **s)
{
    (void)s;
    uint64_t r = 123456789;
    int nan_seen = 0;
    for (int i = 0; i < 400000; i++) {
        double v[4];
        for (int k = 0; k < 4; k++) {
            r = r * 6364136223846793005ull + 1442695040888963407ull;
            if (i % 3 == 0) memcpy(&v[k], &r, sizeof r); /* any bits */
            else v[k] = (double)(int64_t)r / 9.2e15; /* bone-sized values, both signs */
        }
        if (i % 97 == 0) v[1] = 0.0, v[2] = -0.0; /* zeros with a non-zero partner */
        bool nan = false;
        __m128d out = mf_atan2_pd(_mm_setr_pd(v[0], v[2]), _mm_setr_pd(v[1], v[3]), &nan);
        double lane[2];
        _mm_storeu_pd(lane, out);
        bool want_nan = scalar_lane(v[0], v[1]) != scalar_lane(v[0], v[1]) ||
                        scalar_lane(v[2], v[3]) != scalar_lane(v[2], v[3]);
        if (nan != want_nan) fail_msg("pair %d: nan flag %d, scalar ratios %d", i, nan, want_nan);
        if (nan) {
            nan_seen++;
            continue;
        }
        for (int k = 0; k < 2; k++) {
            double want = scalar_lane(v[2 * k], v[2 * k + 1]);
            if (!same_bits(lane[k], want))
                fail_msg("atan2(%a, %a) lane %d: %a, scalar %a", v[2 * k], v[2 * k + 1], k, lane[k], want);
        }
    }
    assert_true(nan_seen > 0); /* the flag was exercised */
}
#endif

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(zeros_and_infinities_give_libms_bits),
        cmocka_unit_test(float_version_matches_double_one),
#if defined(__SSE2__) && !defined(MF_NO_SIMD)
        cmocka_unit_test(two_lane_series_matches_scalar),
#endif
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
