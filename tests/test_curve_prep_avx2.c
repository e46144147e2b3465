/* The prepared bezier as the AVX2 table loop compiles it (curve_eval.h MF_BZ_PREP_ONE: all ten
 * samples counted, u = 1 through the last piece, no clamp) gives mf_pose_seg_curve's values bit
 * for bit: random and degenerate beziers (x repeated, at 0 and at 1, signed zero y) at every
 * table u in [0, 1], the samples and their neighbours (support/curve_prep_avx2.c, compiled with
 * -mavx2). Skipped where the CPU lacks AVX2 or the build has no AVX2 form. */
#include <stdbool.h>

#include "testutil.h"

bool mf_test_curve_prep_avx2(void);

static void test_prepared_bezier_avx2(void **state)
{
    (void)state;
#if defined(__x86_64__) && defined(__GNUC__)
    __builtin_cpu_init();
    if (!__builtin_cpu_supports("avx2")) skip();
    if (!mf_test_curve_prep_avx2()) skip(); /* built without the AVX2 form */
#else
    skip();
#endif
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_prepared_bezier_avx2),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
