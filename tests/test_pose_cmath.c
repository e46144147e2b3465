/* The runtime's own cos, sin and pow (src/runtime/pose/pose_cmath.h) against libm: the pose calls
 * no libm transcendental, so its bits do not depend on the C library (tests/portable_bits.sh). */
#include "testutil.h"

#include <math.h>
#include <stdint.h>

#include "../src/runtime/pose/pose_cmath.h"

/* Within a few double ulps of libm (absolute: both are near 1 or near 0 there). */
static void close_to_libm(double x)
{
    double cs, sn;
    mf_sincos_d(x, &cs, &sn);
    double tol = 4e-16 * (1 + fabs(x) * 1e-3); /* the reduction's error grows with |x| */
    if (!(fabs(cs - cos(x)) <= tol && fabs(sn - sin(x)) <= tol))
        fail_msg("x %.17g: cos %.17g vs %.17g, sin %.17g vs %.17g", x, cs, cos(x), sn, sin(x));
}

static void matches_libm_over_the_angles_constraints_use(void **s)
{
    (void)s;
    uint64_t r = 12345;
    for (int i = 0; i < 200000; i++) {
        r = r * 6364136223846793005ull + 1442695040888963407ull;
        double u = (double)(r >> 11) / 9007199254740992.0; /* [0, 1) */
        close_to_libm((u - 0.5) * 4 * 3.14159265358979); /* within two turns */
        close_to_libm((u - 0.5) * 2e5);                  /* up to the libm hand-over */
    }
    /* around the quadrant edges, where the reduction switches */
    for (int k = -64; k <= 64; k++)
        for (int j = -3; j <= 3; j++) close_to_libm(k * 1.5707963267948966 + j * 1e-9);
}

static void keeps_signs_and_reduces_large_angles(void **s)
{
    (void)s;
    double cs, sn;
    mf_sincos_d(-0.0, &cs, &sn);
    assert_true(cs == 1.0 && sn == 0.0 && signbit(sn));
    mf_sincos_d(0.0, &cs, &sn);
    assert_true(cs == 1.0 && sn == 0.0 && !signbit(sn));
    mf_sincos_d(NAN, &cs, &sn);
    assert_true(isnan(cs) && isnan(sn));
    mf_sincos_d(INFINITY, &cs, &sn);
    assert_true(isnan(cs) && isnan(sn));
    /* past the three-part reduction: fmod by 2 pi as a double first, which agrees with libm's
     * exact reduction to about |x| * 4e-17 */
    static const double big[] = {1e5, -1e5, 3e7, -123456789.25, 1e15, 1e300};
    for (size_t i = 0; i < sizeof big / sizeof big[0]; i++) {
        double x = big[i], tol = 1e-15 + fabs(x) * 5e-17;
        mf_sincos_d(x, &cs, &sn);
        if (x < 1e9 && !(fabs(cs - cos(x)) <= tol && fabs(sn - sin(x)) <= tol))
            fail_msg("x %.17g: cos %.17g vs %.17g, sin %.17g vs %.17g", x, cs, cos(x), sn, sin(x));
        assert_true(fabs(cs) <= 1 && fabs(sn) <= 1 && fabs(cs * cs + sn * sn - 1) < 1e-15);
    }
    mf_sincos_d(-INFINITY, &cs, &sn);
    assert_true(isnan(cs) && isnan(sn));
}

/* float cos and sin: libm's correctly rounded values ((float) of the double functions) for
 * angles the physics and overrides use */
static void float_sincos_rounds_as_the_double_functions(void **s)
{
    (void)s;
    uint64_t r = 777;
    for (int i = 0; i < 200000; i++) {
        r = r * 6364136223846793005ull + 1442695040888963407ull;
        float x = (float)(((double)(r >> 11) / 9007199254740992.0 - 0.5) * 40.0);
        float c, sn;
        mf_sincos_r(x, &c, &sn);
        if (c != (float)cos((double)x) || sn != (float)sin((double)x))
            fail_msg("x %.9g: %.9g %.9g against %.9g %.9g", (double)x, (double)c, (double)sn, (double)(float)cos((double)x),
                     (double)(float)sin((double)x));
    }
}

/* pow for the springs' damping (x in (0, 1), y = 60 x the fixed step): libm's correctly rounded
 * value, (float) of the double pow, but where that lies within 1e-15 of a float boundary */
static void pow_rounds_as_the_double_function(void **s)
{
    (void)s;
    uint64_t r = 4242;
    int same = 0, n = 200000;
    for (int i = 0; i < n; i++) {
        r = r * 6364136223846793005ull + 1442695040888963407ull;
        float x = (float)((double)(r >> 11) / 9007199254740992.0);
        float y = (float)(0.05 + (double)(r >> 40) / 16777216.0 * 8);
        if (!(x > 0)) continue;
        float got = mf_powf_pos(x, y), want = (float)pow((double)x, (double)y);
        float ulp = nextafterf(want, INFINITY) - want;
        if (!(fabsf(got - want) <= ulp)) fail_msg("pow(%.9g, %.9g): %.9g against %.9g", (double)x, (double)y, (double)got, (double)want);
        same += got == want;
    }
    assert_true(same >= n - n / 10000); /* the rounding boundary cases only */
    assert_true(mf_powf_pos(1.0f, 2.5f) == 1.0f && mf_powf_pos(0.5f, 0.0f) == 1.0f && mf_powf_pos(0.5f, 2.0f) == 0.25f);
    assert_true(mf_powf_pos(2.0f, 200.0f) == INFINITY && mf_powf_pos(0.5f, 200.0f) == 0.0f);
    assert_true(isnan(mf_powf_pos(0.0f, 2.0f)) && isnan(mf_powf_pos(-0.5f, 2.0f)) && isnan(mf_powf_pos(NAN, 1.0f)) &&
                isnan(mf_powf_pos(0.5f, INFINITY)));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(matches_libm_over_the_angles_constraints_use),
        cmocka_unit_test(keeps_signs_and_reduces_large_angles),
        cmocka_unit_test(float_sincos_rounds_as_the_double_functions),
        cmocka_unit_test(pow_rounds_as_the_double_function),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
