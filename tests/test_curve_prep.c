/* The shared table's fast forms give the general ones' values bit for bit: a prepared bezier
 * (mf_bz_prep, curve_eval.h) through mf_pose_seg_pcurve (and mf_pose_seg_tcurve for a table
 * entry's 0 <= u <= 1) against mf_pose_seg_curve on random
 * and degenerate beziers (repeated x, x at 0 and 1, signed zeros) at random positions, the
 * edges and their neighbours; mf_fmod_lap against fmod (float and other lengths, a few laps to
 * billions, lap boundaries and their neighbours). */
#include <float.h>
#include <math.h>
#include <string.h>

#include "testutil.h"
#include "../src/runtime/pose/pose_internal.h"
#include "../src/runtime/pose/pose_seg.h"

static uint64_t rng_next(uint64_t *s)
{
    uint64_t x = *s;
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    return *s = x;
}

static float unit(uint64_t *rng) { return (float)((double)(rng_next(rng) >> 40) / 16777216.0); }

static void same_bits(float a, float b, const char *what, float u)
{
    uint32_t x, y;
    memcpy(&x, &a, 4), memcpy(&y, &b, 4);
    if (x != y) fail_msg("%s at u %.9g: %.9g (%08x) against %.9g (%08x)", what, (double)u, (double)a, x, (double)b, y);
}

/* A checked bezier (x ascending in 0..1, y finite), some with repeated, 0 and 1 x and zero y. */
static void random_bezier(uint64_t *rng, mf_sd_bezier *b)
{
    float x = 0.0f;
    int shape = (int)(rng_next(rng) % 4);
    for (int k = 0; k < MF_SD_CURVE_SAMPLES; k++) {
        if (shape == 0 || rng_next(rng) % 3) x += (1.0f - x) * unit(rng) * 0.5f;
        if (shape == 1 && k == MF_SD_CURVE_SAMPLES - 1) x = 1.0f;
        b->x[k] = x;
        b->y[k] = (unit(rng) - 0.25f) * 1.5f;
        if (shape == 2 && rng_next(rng) % 2) b->y[k] = rng_next(rng) % 2 ? 0.0f : -0.0f;
    }
}

static void check_at(const mf_sd_bezier *b, const mf_bz_prep *q, float u)
{
    same_bits(mf_pose_seg_pcurve(q, u), mf_pose_seg_curve(b, u), "bezier", u);
    same_bits(mf_pose_seg_pcurve(NULL, u), mf_pose_seg_curve(NULL, u), "linear", u);
    if (u >= 0.0f && u <= 1.0f && !signbit(u)) { /* a table entry's u */
        same_bits(mf_pose_seg_tcurve(q, u), mf_pose_seg_curve(b, u), "bezier in a table", u);
        same_bits(mf_pose_seg_tcurve(NULL, u), mf_pose_seg_curve(NULL, u), "linear in a table", u);
    }
}

static void test_prepared_bezier(void **state)
{
    (void)state;
    uint64_t rng = 0x2545f4914f6cdd1du;
    float edges[] = {0.0f, -0.0f, 1.0f, -1.0f, FLT_MIN, FLT_TRUE_MIN, nextafterf(1.0f, 0.0f), nextafterf(1.0f, 2.0f),
                     INFINITY, -INFINITY, NAN, 0.5f};
    for (int i = 0; i < 20000; i++) {
        mf_sd_bezier b;
        random_bezier(&rng, &b);
        mf_bz_prep q;
        mf_bz_prepare(&q, &b);
        for (size_t e = 0; e < sizeof edges / sizeof edges[0]; e++) check_at(&b, &q, edges[e]);
        for (int k = 0; k < MF_SD_CURVE_SAMPLES; k++) { /* at the samples and beside them */
            check_at(&b, &q, b.x[k]);
            check_at(&b, &q, nextafterf(b.x[k], 0.0f));
            check_at(&b, &q, nextafterf(b.x[k], 1.0f));
        }
        for (int j = 0; j < 32; j++) check_at(&b, &q, unit(&rng));
    }
}

static void same_double(double a, double b, double x, double y)
{
    if (memcmp(&a, &b, sizeof a)) fail_msg("fmod(%.17g, %.17g): %.17g against %.17g", x, y, a, b);
}

static void test_fmod_lap(void **state)
{
    (void)state;
    double ys[] = {1.2666666507720947, (double)(1.0f / 3.0f), 1.0 / 3.0, 0.5, 1.0, (double)0.1f, 0.1, 1e-300,
                   (double)FLT_TRUE_MIN, 1e300, (double)FLT_MAX, DBL_MAX, INFINITY, 0.0, -1.0, NAN};
    uint64_t rng = 0x9e3779b97f4a7c15u;
    for (size_t i = 0; i < sizeof ys / sizeof ys[0]; i++) {
        double y = ys[i];
        double xs[] = {0.0, -0.0, y, -y, 2 * y, nextafter(y, 0.0), nextafter(y, INFINITY), nextafter(2 * y, 0.0),
                       3.5 * y, -0.5 * y, INFINITY, -INFINITY, NAN, DBL_MAX};
        for (size_t j = 0; j < sizeof xs / sizeof xs[0]; j++) same_double(mf_fmod_lap(xs[j], y), fmod(xs[j], y), xs[j], y);
        for (int j = 0; j < 200000; j++) { /* up to 3 laps, then up to 2^(0..31) laps */
            double laps = j < 20000 ? 3.0 : ldexp(1.0, (int)(rng_next(&rng) % 32));
            double x = (double)(rng_next(&rng) >> 11) / 9007199254740992.0 * laps * (isfinite(y) ? y : 1.0);
            same_double(mf_fmod_lap(x, y), fmod(x, y), x, y);
            double n = floor(x / y) * y; /* near the lap boundaries */
            same_double(mf_fmod_lap(n, y), fmod(n, y), n, y);
            same_double(mf_fmod_lap(nextafter(n, 0.0), y), fmod(nextafter(n, 0.0), y), nextafter(n, 0.0), y);
            same_double(mf_fmod_lap(nextafter(n, INFINITY), y), fmod(nextafter(n, INFINITY), y), nextafter(n, INFINITY), y);
        }
    }
    for (int j = 0; j < 100000; j++) { /* frame sums as tracks keep them, float lengths */
        double y = (double)(0.1f + unit(&rng) * 3.0f), x = 0.0;
        for (int f = (int)(rng_next(&rng) % 400); f > 0; f--) x += 1.0 / 60.0;
        same_double(mf_fmod_lap(x, y), fmod(x, y), x, y);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_prepared_bezier),
        cmocka_unit_test(test_fmod_lap),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
