/* The AVX2 and AVX-512 trigonometry fills against the SSE2 one, bit for bit (each lane does
 * what SSE2 does): random rotations and shears on rigs of 1 to 41 bones (groups of sixteen and eight, a group of
 * four and single bones in the tail), with zeros of both signs, multiples of 90 degrees,
 * angles past the vector range and NaN, some bones keeping their angles between updates. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "testutil.h"
#include "pose_rig.h"
#include "../src/runtime/pose/pose_internal.h"
#include "../src/runtime/pose/pose_trig.h"
#include "mf/mf_pose.h"

#if MF_TRIG_AVX2 /* the helpers only the AVX2 comparison uses (-DMF_NO_SIMD has none) */
static uint32_t rng_next(uint32_t *s)
{
    uint32_t x = *s;
    x ^= x << 13, x ^= x >> 17, x ^= x << 5;
    return *s = x;
}
static int32_t rng_i(uint32_t *s, int32_t n) { return (int32_t)(rng_next(s) % (uint32_t)n); }

static float random_angle(uint32_t *rng)
{
    switch (rng_i(rng, 10)) {
    case 0: return rng_i(rng, 2) ? 0.0f : -0.0f;
    case 1: return 90.0f * (float)(rng_i(rng, 17) - 8);
    case 2: return rng_i(rng, 2) ? 1e6f : -4.7e5f; /* past the vector range */
    case 3: return rng_i(rng, 40) == 0 ? NAN : 12.5f;
    default: return (float)(rng_next(rng) % 2000001u) / 1000.0f - 1000.0f;
    }
}

static void bits_equal(const float *x, const float *y, int32_t n, const char *what, int32_t step)
{
    if (memcmp(x, y, (size_t)n * sizeof(float)) != 0) fail_msg("%s differ at step %d", what, step);
}
#endif

static void test_avx2_against_sse2(void **state)
{
    (void)state;
#if MF_TRIG_AVX2
    if (!mf_pose_trig_avx2_usable()) {
        printf("no AVX2 on this CPU: skipped\n");
        return;
    }
    for (int32_t wide = 0; wide < 2; wide++) { /* the AVX2 steps, then AVX-512's where the CPU has it */
    if (wide && !mf_pose_trig_avx512_usable()) {
        printf("no AVX-512 on this CPU: its steps skipped\n");
        break;
    }
    uint32_t rng = 0x2468aceu;
    for (int32_t nb = 1; nb <= 41; nb += 2) {
        char rig[4096];
        int len = snprintf(rig, sizeof rig, RIG_HEAD "\"bones\":[{\"name\":\"b0\"}");
        for (int32_t i = 1; i < nb; i++)
            len += snprintf(rig + len, sizeof rig - (size_t)len, ",{\"name\":\"b%d\",\"parent\":\"b%d\",\"x\":3}", i, (i - 1) / 2);
        snprintf(rig + len, sizeof rig - (size_t)len, "]}");
        test_rig r;
        test_rig_build(&r, rig, NULL, NULL, 0);
        mf_pose *v = NULL, *w = NULL;
        assert_int_equal(mf_pose_create(&r.data, NULL, &v, NULL), MF_OK);
        assert_int_equal(mf_pose_create(&r.data, NULL, &w, NULL), MF_OK);
        assert_int_equal(v->scratch->trig_avx2, 1);
        v->scratch->trig_avx512 = (uint8_t)wide;
        w->scratch->trig_avx2 = 0, w->scratch->trig_avx512 = 0; /* the SSE2 fill */
        for (int32_t step = 0; step < 60; step++) {
            for (int32_t i = 0; i < nb; i++) {
                if (rng_i(&rng, 3) == 0) continue; /* keeps its angles: its key matches */
                float rot = random_angle(&rng), shx = rng_i(&rng, 3) ? 0.0f : random_angle(&rng);
                float shy = rng_i(&rng, 3) ? 0.0f : random_angle(&rng);
                v->rot[i] = w->rot[i] = rot, v->shx[i] = w->shx[i] = shx, v->shy[i] = w->shy[i] = shy;
            }
            mf_pose_update_world(v);
            mf_pose_update_world(w);
            mf_pose_scratch *a = v->scratch, *b = w->scratch;
            bits_equal((const float *)a->trig_kx, (const float *)b->trig_kx, nb, "x keys", step);
            bits_equal((const float *)a->trig_ky, (const float *)b->trig_ky, nb, "y keys", step);
            bits_equal(a->trig_cx, b->trig_cx, nb, "cos x", step);
            bits_equal(a->trig_sx, b->trig_sx, nb, "sin x", step);
            bits_equal(a->trig_cy, b->trig_cy, nb, "cos y", step);
            bits_equal(a->trig_sy, b->trig_sy, nb, "sin y", step);
            bits_equal(v->a, w->a, nb, "a", step), bits_equal(v->d, w->d, nb, "d", step);
            bits_equal(v->wx, w->wx, nb, "wx", step), bits_equal(v->wy, w->wy, nb, "wy", step);
            if (memcmp(a->changed, b->changed, (size_t)nb) != 0) fail_msg("codes differ at step %d", step);
        }
        mf_pose_destroy(v);
        mf_pose_destroy(w);
        test_rig_free(&r);
    }
    }
#else
    printf("no AVX2 fill in this build: skipped\n");
#endif
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_avx2_against_sse2),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
