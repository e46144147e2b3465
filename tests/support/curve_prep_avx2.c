/* The AVX2 half of tests/test_curve_prep_avx2.c: this file alone is compiled with -mavx2 (as
 * pose_table_avx2.c is, tests/CMakeLists.txt), so the prepared bezier takes the table loop's
 * AVX2 form (MF_BZ_PREP_ONE); the test calls it only where the CPU has AVX2. Elsewhere (other
 * processors, -DMF_NO_SIMD) it returns false: nothing to check. */
#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "testutil.h"

bool mf_test_curve_prep_avx2(void);

#if defined(__AVX2__) && !defined(MF_NO_SIMD)
#include "../../src/runtime/pose/pose_internal.h"
#include "../../src/runtime/pose/pose_seg.h"
_Static_assert(MF_BZ_PREP_ONE, "compiled as the AVX2 table loop is");

static uint64_t rng_next(uint64_t *s)
{
    uint64_t x = *s;
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    return *s = x;
}

static float unit(uint64_t *rng) { return (float)((double)(rng_next(rng) >> 40) / 16777216.0); }

static void same_bits(float a, float b, float u)
{
    uint32_t x, y;
    memcpy(&x, &a, 4), memcpy(&y, &b, 4);
    if (x != y) fail_msg("at u %.9g: %.9g (%08x) against %.9g (%08x)", (double)u, (double)a, x, (double)b, y);
}

static void random_bezier(uint64_t *rng, mf_sd_bezier *b)
{
    float x = 0.0f;
    int shape = (int)(rng_next(rng) % 5);
    for (int k = 0; k < MF_SD_CURVE_SAMPLES; k++) {
        if (shape == 0 || rng_next(rng) % 3) x += (1.0f - x) * unit(rng) * 0.5f;
        if (shape == 1 && k == MF_SD_CURVE_SAMPLES - 1) x = 1.0f;
        if (shape == 4 && k >= MF_SD_CURVE_SAMPLES - 3) x = k == MF_SD_CURVE_SAMPLES - 1 ? 1.0f : nextafterf(1.0f, 0.0f);
        b->x[k] = x;
        b->y[k] = (unit(rng) - 0.25f) * 1.5f;
        if (shape == 2 && rng_next(rng) % 2) b->y[k] = rng_next(rng) % 2 ? 0.0f : -0.0f;
    }
}

static void check_at(const mf_sd_bezier *b, const mf_bz_prep *q, float u)
{
    if (u >= 0.0f && u <= 1.0f && !signbit(u)) same_bits(mf_pose_seg_tcurve(q, u), mf_pose_seg_curve(b, u), u);
}

bool mf_test_curve_prep_avx2(void)
{
    uint64_t rng = 0x2545f4914f6cdd1du;
    float edges[] = {0.0f, 1.0f, FLT_MIN, FLT_TRUE_MIN, nextafterf(1.0f, 0.0f), 0.5f};
    for (int i = 0; i < 50000; i++) {
        mf_sd_bezier b;
        random_bezier(&rng, &b);
        mf_bz_prep q;
        mf_bz_prepare(&q, &b);
        for (size_t e = 0; e < sizeof edges / sizeof edges[0]; e++) check_at(&b, &q, edges[e]);
        for (int k = 0; k < MF_SD_CURVE_SAMPLES; k++) {
            check_at(&b, &q, b.x[k]);
            check_at(&b, &q, nextafterf(b.x[k], 0.0f));
            check_at(&b, &q, nextafterf(b.x[k], 1.0f));
        }
        for (int j = 0; j < 32; j++) check_at(&b, &q, unit(&rng));
    }
    return true;
}
#else
bool mf_test_curve_prep_avx2(void) { return false; }
#endif
