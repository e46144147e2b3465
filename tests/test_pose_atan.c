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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(zeros_and_infinities_give_libms_bits),
        cmocka_unit_test(float_version_matches_double_one),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
