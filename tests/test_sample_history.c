/* Sampling does not depend on the pose's history: the per-timeline cursors and cached key
 * segments (pose_sample.c) give bit-identical results to a fresh pose at any time, whatever
 * order the times come in; the pre-sampled curves give the linear piece holding u. */
#include <math.h>
#include <stdio.h>

#include "testutil.h"
#include "pose_rig.h"
#include "mf/mf_pose.h"

static const char *RIG = RIG_HEAD
    "\"bones\":[{\"name\":\"root\"},"
    "{\"name\":\"a\",\"parent\":\"root\",\"x\":3,\"rot\":10,\"sx\":1.5},"
    "{\"name\":\"b\",\"parent\":\"a\",\"y\":-2,\"shx\":5}]}";

/* every bone kind with beziers, linear, stepped, per-component curves, two keys at one time and
 * a single-key timeline */
static const char *CLIP = CLIP_HEAD "\"length\":1.2,\"bones\":{"
    "\"a\":{\"rotate\":{\"t\":[0.1,0.35,0.35,0.6,1.0],\"v\":[0,40,-20,15,0],"
    "\"curve\":[[0.25,0,0.75,1],\"linear\",[0.1,0.9,0.3,1.4],\"stepped\"]},"
    "\"translate\":{\"t\":[0,0.5,1.1],\"v\":[[0,0],[10,-6],[2,3]],"
    "\"curve\":[[[0.3,0,0.6,1],\"linear\"],[[0.5,-0.2,0.7,1.2],[0.2,0.1,0.3,0.9]]]},"
    "\"scale\":{\"t\":[0.2,0.7],\"v\":[[1,1],[1.4,0.8]],\"curve\":[[0.42,0,0.58,1]]},"
    "\"shearY\":{\"t\":[0.4],\"v\":[12]}},"
    "\"b\":{\"translateX\":{\"t\":[0,0.3,0.9],\"v\":[0,5,-5],\"curve\":[[0.9,0,0.1,1],[0,0.5,1,0.5]]},"
    "\"scaleY\":{\"t\":[0.05,0.95],\"v\":[1,2]},"
    "\"shear\":{\"t\":[0,1.2],\"v\":[[0,0],[20,-10]],\"curve\":[[0.25,0.1,0.25,1]]}}}}";

static bool same_local(const mf_pose *p, const mf_pose *q)
{
    size_t n = (size_t)p->bone_count * sizeof(float);
    return memcmp(p->x, q->x, n) == 0 && memcmp(p->y, q->y, n) == 0 && memcmp(p->rot, q->rot, n) == 0 &&
           memcmp(p->sx, q->sx, n) == 0 && memcmp(p->sy, q->sy, n) == 0 && memcmp(p->shx, q->shx, n) == 0 &&
           memcmp(p->shy, q->shy, n) == 0;
}

static void sample(mf_pose *p, double t, float w, mf_clip_blend blend, bool loop)
{
    mf_pose_reset(p);
    mf_clip_sample s = {.clip = 0, .time = t, .prev_time = t, .weight = w, .blend = blend, .loop = loop};
    assert_int_equal(mf_pose_sample(p, &s), MF_OK);
}

static void test_history_independent(void **state)
{
    (void)state;
    test_rig r;
    const char *names[] = {"c"}, *clips[] = {CLIP};
    test_rig_build(&r, RIG, names, clips, 1);
    mf_pose *walker = NULL;
    assert_int_equal(mf_pose_create(&r.data, NULL, &walker, NULL), MF_OK);
    /* forward at 60 fps across loops, exact key times, backwards, before the first key, past the
     * end, long jumps both ways */
    double times[200];
    int n = 0;
    for (int f = 0; f < 100; f++) times[n++] = f / 60.0;
    const double odd[] = {0.35, 0.1, 0.6, 1.0, 1.1, 0.5, 0.0, -0.25, 3.7, 0.2, 0.3499999, 0.35, 0.9, 0.05,
                          1.2, 1.19, 0.7, 0.0999, 0.1, 2.5, -1, 0.45, 0.4, 0.95};
    for (size_t i = 0; i < sizeof odd / sizeof odd[0]; i++) times[n++] = odd[i];
    for (int f = 0; f < 40; f++) times[n++] = 1.0 - f / 45.0; /* playing backwards */
    for (int i = 0; i < n; i++) {
        for (int mode = 0; mode < 3; mode++) {
            float w = mode == 0 ? 1.0f : 0.6f;
            mf_clip_blend blend = mode == 2 ? MF_CLIP_ADDITIVE : MF_CLIP_REPLACE;
            bool loop = i % 2 == 0;
            mf_pose *fresh = NULL;
            assert_int_equal(mf_pose_create(&r.data, NULL, &fresh, NULL), MF_OK);
            sample(walker, times[i], w, blend, loop);
            sample(fresh, times[i], w, blend, loop);
            if (!same_local(walker, fresh)) fprintf(stderr, "time %.9g mode %d differs\n", times[i], mode);
            assert_true(same_local(walker, fresh));
            mf_pose_destroy(fresh);
        }
    }
    /* the values are the clip's: a's rotation at the stepped segment holds the key */
    sample(walker, 0.8, 1, MF_CLIP_REPLACE, false);
    assert_true(fabsf(walker->rot[1] - (10.0f + 15.0f)) < 1e-4f);
    /* between the two keys at 0.35 the later one holds: -20 at 0.35, towards 15 after */
    sample(walker, 0.35, 1, MF_CLIP_REPLACE, false);
    assert_true(fabsf(walker->rot[1] - (10.0f - 20.0f)) < 1e-4f);
    mf_pose_destroy(walker);
    test_rig_free(&r);
}

/* the piece holding u, by the plain definition: first sample with x >= u */
static float piece_value(const mf_sd_bezier *b, float u)
{
    float x0 = 0, y0 = 0, x1 = 1, y1 = 1;
    for (int i = 0; i < MF_SD_CURVE_SAMPLES; i++) {
        if (b->x[i] >= u) {
            x1 = b->x[i], y1 = b->y[i];
            break;
        }
        x0 = b->x[i], y0 = b->y[i];
    }
    float w = x1 - x0;
    return w > 0 ? y0 + (y1 - y0) * (u - x0) / w : y1;
}

static void test_curve_pieces(void **state)
{
    (void)state;
    test_rig r;
    const char *names[] = {"c"}, *clips[] = {CLIP};
    test_rig_build(&r, RIG, names, clips, 1);
    assert_true(r.data.bezier_count >= 5);
    for (int32_t c = 0; c < r.data.bezier_count; c++) {
        const mf_sd_bezier *b = &r.data.beziers[c];
        for (int i = 1; i < 1000; i++) {
            float u = i / 1000.0f, got = mf_skel_data_curve(&r.data, c, u), want = piece_value(b, u);
            assert_memory_equal(&got, &want, sizeof got);
        }
        for (int i = 0; i < MF_SD_CURVE_SAMPLES; i++) { /* on a sample: its y */
            float u = b->x[i];
            if (!(u > 0) || u >= 1) continue;
            float got = mf_skel_data_curve(&r.data, c, u), want = piece_value(b, u);
            assert_memory_equal(&got, &want, sizeof got);
        }
    }
    /* linear, stepped and the ends */
    assert_true(mf_skel_data_curve(&r.data, MF_SD_CURVE_LINEAR, 0.25f) == 0.25f);
    assert_true(mf_skel_data_curve(&r.data, MF_SD_CURVE_STEPPED, 0.99f) == 0.0f);
    assert_true(mf_skel_data_curve(&r.data, 0, 0.0f) == 0.0f);
    assert_true(mf_skel_data_curve(&r.data, 0, 1.0f) == 1.0f);
    assert_true(mf_skel_data_curve(&r.data, 0, NAN) == 0.0f);
    test_rig_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_history_independent),
        cmocka_unit_test(test_curve_pieces),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
