/* The compiled key segment's small form (mf_pose_seg, pose_seg.h): float key times tested
 * against the sample time rounded down to a float give the double comparisons' answers for any
 * time and key time (ties, neighbours a float step apart, both zeros, infinities, values past
 * the float range), and the channel arrays lie as the write takes them (a second channel as far
 * from pose y as the first from pose x). */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "testutil.h"
#include "pose_rig.h"
#include "../src/runtime/pose/pose_internal.h"
#include "../src/runtime/pose/pose_seg.h"
#include "mf/mf_pose.h"

static uint64_t rng_next(uint64_t *s)
{
    uint64_t x = *s;
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    return *s = x;
}

static double random_time(uint64_t *rng)
{
    switch (rng_next(rng) % 6) {
    case 0: return (double)(int64_t)(rng_next(rng) % 2001) / 30.0 - 30.0; /* frame times */
    case 1: {                                                            /* any double */
        uint64_t b = rng_next(rng);
        double d;
        memcpy(&d, &b, sizeof d);
        return d != d ? 0.5 : d;
    }
    default: return ((double)(rng_next(rng) >> 11) / 9007199254740992.0 - 0.5) * 8.0;
    }
}

/* The key times near t: its float roundings and their neighbours, and some fixed ones. */
static void check_against(double t)
{
    float tf = mf_pose_seg_floor(t);
    float near = (float)t;
    float keys[] = {near, nextafterf(near, INFINITY), nextafterf(near, -INFINITY), 0.0f, -0.0f,
                    INFINITY, -INFINITY, FLT_MAX, -FLT_MAX, FLT_MIN, 1.0f / 3.0f};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        float k = keys[i];
        if ((tf >= k) != (t >= (double)k) || (tf < k) != (t < (double)k))
            fail_msg("t %.17g (as %.9g) against key %.9g: the float test differs", t, (double)tf, (double)k);
    }
}

static void test_floor_keeps_orders(void **state)
{
    (void)state;
    double fixed[] = {0.0, -0.0, 1.0 / 3.0, -1.0 / 3.0, 1e-300, -1e-300, 1e39, -1e39, INFINITY, -INFINITY,
                      (double)FLT_MAX, (double)FLT_MAX * (1 + 1e-12), 0.1, 2.5, 16777217.0};
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++) check_against(fixed[i]);
    uint64_t rng = 0x9e3779b97f4a7c15u;
    for (int i = 0; i < 200000; i++) check_against(random_time(&rng));
}

static void test_channel_layout(void **state)
{
    (void)state;
    for (int32_t nb = 1; nb <= 9; nb++) {
        char rig[2048];
        int len = snprintf(rig, sizeof rig, RIG_HEAD "\"bones\":[{\"name\":\"b0\"}");
        for (int32_t i = 1; i < nb; i++)
            len += snprintf(rig + len, sizeof rig - (size_t)len, ",{\"name\":\"b%d\",\"parent\":\"b0\"}", i);
        snprintf(rig + len, sizeof rig - (size_t)len, "]}");
        test_rig r;
        test_rig_build(&r, rig, NULL, NULL, 0);
        mf_pose *p = NULL;
        assert_int_equal(mf_pose_create(&r.data, NULL, &p, NULL), MF_OK);
        assert_true(p->sy - p->sx == p->y - p->x);
        assert_true(p->shy - p->shx == p->y - p->x);
        mf_pose_destroy(p);
        test_rig_free(&r);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_floor_keeps_orders),
        cmocka_unit_test(test_channel_layout),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
