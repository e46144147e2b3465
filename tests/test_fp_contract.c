/* The build never fuses a*b + c into one rounding (-ffp-contract=off, CMakeLists.txt): the
 * skinning, trigonometry and world update paths promise the same bits in SIMD and scalar code,
 * and a contracting compiler breaks that wherever FMA is enabled (clang by default; found with
 * clang -march=native: test_skin_avx_random's scalar and SIMD vertices differed). This file is
 * built with the project's flags; the function below enables FMA for itself, as -march=native
 * would, and must still round the product and the sum apart. */
#include <stdint.h>
#include <string.h>

#include "testutil.h"

#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
#define HAVE_FMA_TARGET 1
__attribute__((target("fma"), noinline)) static float mul_add(float a, float b, float c) { return a * b + c; }
#else
#define HAVE_FMA_TARGET 0
static float mul_add(float a, float b, float c) { return a * b + c; }
#endif

static void test_no_contraction(void **state)
{
    (void)state;
#if HAVE_FMA_TARGET
    __builtin_cpu_init();
    if (!__builtin_cpu_supports("fma")) skip();
#endif
    /* (1 + 2^-12)^2 - 1 - 2^-11 = 2^-24 exactly: fused keeps it, unfused rounds the product to
     * 1 + 2^-11 first and gives 0 */
    volatile float a = 1.0f + 0x1p-12f, c = -(1.0f + 0x1p-11f);
    float r = mul_add(a, a, c);
    uint32_t bits;
    memcpy(&bits, &r, sizeof bits);
    if (r != 0.0f) fail_msg("a*b + c fused: %a (bits 0x%08x), the build contracts floating-point expressions",
                            (double)r, bits);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_no_contraction),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
