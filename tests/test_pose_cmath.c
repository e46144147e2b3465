/* The constraints' double cos and sin (src/runtime/pose/pose_cmath.h) against libm. */
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

static void keeps_signs_and_hands_odd_values_to_libm(void **s)
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
    mf_sincos_d(3e7, &cs, &sn); /* past the reduction's range: libm's values */
    assert_true(cs == cos(3e7) && sn == sin(3e7));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(matches_libm_over_the_angles_constraints_use),
        cmocka_unit_test(keeps_signs_and_hands_odd_values_to_libm),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
