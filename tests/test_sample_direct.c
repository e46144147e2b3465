/* The full-weight Replace sample (what most instances run) writes compiled key segments
 * straight into the pose (pose_sample.c): it must give what the general blending path gives at
 * weight 1 (up to the rounding of that path's lerp), for every bone kind, IK values and
 * attachment keys, wherever the times go, and attachments must follow the pose's skins. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "testutil.h"
#include "pose_rig.h"
#include "mf/mf_pose.h"

static const char *RIG = RIG_HEAD
    "\"bones\":[{\"name\":\"root\"},"
    "{\"name\":\"a\",\"parent\":\"root\",\"x\":3,\"rot\":10,\"sx\":1.5},"
    "{\"name\":\"b\",\"parent\":\"a\",\"y\":-2,\"shx\":5},"
    "{\"name\":\"t\",\"parent\":\"root\",\"x\":20}],"
    "\"slots\":[{\"name\":\"s\",\"bone\":\"b\",\"attachment\":\"x\"}],"
    "\"ik\":[{\"name\":\"k\",\"bones\":[\"b\"],\"target\":\"t\",\"mix\":0.75,\"softness\":3,\"bend\":-1}],"
    "\"skins\":["
    "{\"name\":\"default\",\"attachments\":[{\"slot\":\"s\",\"name\":\"x\",\"type\":\"Region\",\"width\":10,\"height\":10},"
    "{\"slot\":\"s\",\"name\":\"y\",\"type\":\"Region\",\"width\":11,\"height\":10}]},"
    "{\"name\":\"B\",\"attachments\":[{\"slot\":\"s\",\"name\":\"x\",\"type\":\"Region\",\"width\":30,\"height\":10}]}]}";

/* every bone kind with beziers, linear, stepped (one component and all), per-component curves,
 * two keys at one time, a single-key timeline; attachment keys; IK values with curves and
 * discrete keys */
static const char *CLIP = CLIP_HEAD "\"length\":1.2,\"bones\":{"
    "\"a\":{\"rotate\":{\"t\":[0.1,0.35,0.35,0.6,1.0],\"v\":[0,40,-20,15,0],"
    "\"curve\":[[0.25,0,0.75,1],\"linear\",[0.1,0.9,0.3,1.4],\"stepped\"]},"
    "\"translate\":{\"t\":[0,0.5,0.8,1.1],\"v\":[[0,0],[10,-6],[4,4],[2,3]],"
    "\"curve\":[[[0.3,0,0.6,1],\"linear\"],[\"stepped\",[0.2,0.1,0.3,0.9]],\"stepped\"]},"
    "\"scale\":{\"t\":[0.2,0.7],\"v\":[[1,1],[1.4,0.8]],\"curve\":[[0.42,0,0.58,1]]},"
    "\"shearY\":{\"t\":[0.4],\"v\":[12]}},"
    "\"b\":{\"translateX\":{\"t\":[0,0.3,0.9],\"v\":[0,5,-5],\"curve\":[[0.9,0,0.1,1],[0,0.5,1,0.5]]},"
    "\"scaleY\":{\"t\":[0.05,0.95],\"v\":[1,2]},"
    "\"shear\":{\"t\":[0,1.2],\"v\":[[0,0],[20,-10]],\"curve\":[[0.25,0.1,0.25,1]]}}},"
    "\"slots\":{\"s\":{\"attachment\":{\"t\":[0.2,0.7],\"v\":[\"y\",\"x\"]}}},"
    "\"ik\":{\"k\":{\"t\":[0.1,0.5,0.9],\"mix\":[1,0.2,0.6],\"softness\":[0,5,2],\"bend\":[1,-1,1],"
    "\"stretch\":[true,false,true],\"curve\":[[0.25,0,0.75,1],[[0.1,0.5,0.9,0.5],\"stepped\"]]}}}";

static bool near(float a, float b) { return fabsf(a - b) <= 1e-4f + 1e-5f * fabsf(b); }

static void sample(mf_pose *p, double t, const uint8_t *mask, float threshold)
{
    mf_pose_reset(p);
    mf_clip_sample s = {.clip = 0, .time = t, .prev_time = t, .weight = 1, .bone_mask = mask,
                        .discrete_threshold = threshold};
    assert_int_equal(mf_pose_sample(p, &s), MF_OK);
}

/* direct: no mask (the compiled path); general: a mask of every bone (the blending path) */
static void compare(const mf_pose *direct, const mf_pose *general, double t)
{
    for (int32_t i = 0; i < direct->bone_count; i++) {
        const float *dv[] = {direct->x, direct->y, direct->rot, direct->sx, direct->sy, direct->shx, direct->shy};
        const float *gv[] = {general->x, general->y, general->rot, general->sx, general->sy, general->shx, general->shy};
        for (int c = 0; c < 7; c++) {
            if (!near(dv[c][i], gv[c][i])) fprintf(stderr, "t %.9g bone %d channel %d: %.9g vs %.9g\n", t, i, c, dv[c][i], gv[c][i]);
            assert_true(near(dv[c][i], gv[c][i]));
        }
    }
    assert_true(near(direct->ik_mix[0], general->ik_mix[0]));
    assert_true(near(direct->ik_softness[0], general->ik_softness[0]));
    assert_int_equal(direct->ik_bend[0], general->ik_bend[0]);
    assert_int_equal(direct->ik_compress[0], general->ik_compress[0]);
    assert_int_equal(direct->ik_stretch[0], general->ik_stretch[0]);
    assert_int_equal(direct->attachment[0], general->attachment[0]);
}

static void test_direct_matches_general(void **state)
{
    (void)state;
    test_rig r;
    const char *names[] = {"c"}, *clips[] = {CLIP};
    test_rig_build(&r, RIG, names, clips, 1);
    mf_pose *direct = NULL, *general = NULL;
    assert_int_equal(mf_pose_create(&r.data, NULL, &direct, NULL), MF_OK);
    assert_int_equal(mf_pose_create(&r.data, NULL, &general, NULL), MF_OK);
    uint8_t all[4] = {1, 1, 1, 1};
    double times[200];
    int n = 0;
    for (int f = 0; f < 80; f++) times[n++] = f / 60.0; /* forward through every segment */
    const double odd[] = {0.35, 0.1, 0.6, 1.0, 1.1, 0.5, 0.0, -0.25, 3.7, 0.2, 0.3499999, 0.35, 0.9, 0.05,
                          1.2, 1.19, 0.7, 0.0999, 0.1, 2.5, -1, 0.45, 0.4, 0.95, 0.8, 0.79999};
    for (size_t i = 0; i < sizeof odd / sizeof odd[0]; i++) times[n++] = odd[i];
    for (int f = 0; f < 40; f++) times[n++] = 1.2 - f / 35.0; /* backwards */
    for (int i = 0; i < n; i++) {
        for (int discrete = 0; discrete < 2; discrete++) {
            float thr = discrete ? 0.5f : 2.0f; /* 2: weight 1 keys no discrete value */
            sample(direct, times[i], NULL, thr);
            sample(general, times[i], all, thr);
            compare(direct, general, times[i]);
        }
    }
    /* the values are the clip's: the stepped rotation holds its key, the IK keys switch */
    sample(direct, 0.85, NULL, 0);
    assert_true(fabsf(direct->rot[1] - (10.0f + 15.0f)) < 1e-4f);
    assert_true(fabsf(direct->x[1] - (3.0f + 4.0f)) < 1e-4f); /* translate's stepped segment */
    assert_int_equal(direct->ik_bend[0], -1);
    assert_int_equal(direct->ik_stretch[0], 0);
    sample(direct, 0.05, NULL, 0); /* before the first IK key: the setup values */
    assert_true(fabsf(direct->ik_mix[0] - 0.75f) < 1e-6f && fabsf(direct->ik_softness[0] - 3.0f) < 1e-6f);
    assert_int_equal(direct->ik_bend[0], -1);
    mf_pose_destroy(direct);
    mf_pose_destroy(general);
    test_rig_free(&r);
}

static float width_of(const mf_pose *p)
{
    return p->attachment[0] < 0 ? -1 : p->data->attachments[p->attachment[0]].width;
}

/* an attachment key resolved without skins is looked up again once the pose has skins: as the
 * general path finds it */
static void test_attachment_keys_follow_skins(void **state)
{
    (void)state;
    test_rig r;
    const char *names[] = {"c"}, *clips[] = {CLIP};
    test_rig_build(&r, RIG, names, clips, 1);
    mf_skin_cache *cache = NULL;
    mf_pose *p = NULL, *g = NULL;
    uint8_t all[4] = {1, 1, 1, 1};
    assert_int_equal(mf_skin_cache_create(&r.data, NULL, &cache), MF_OK);
    assert_int_equal(mf_pose_create(&r.data, NULL, &p, NULL), MF_OK);
    assert_int_equal(mf_pose_create(&r.data, NULL, &g, NULL), MF_OK);
    mf_clip_sample s = {.clip = 0, .weight = 1};
    s.time = s.prev_time = 0.8; /* key "x" holds */
    assert_int_equal(mf_pose_sample(p, &s), MF_OK);
    assert_true(width_of(p) == 10);
    int32_t B = mf_skel_data_find_skin(&r.data, "B");
    assert_int_equal(mf_pose_set_skins(p, cache, &B, 1, NULL), MF_OK);
    assert_int_equal(mf_pose_set_skins(g, cache, &B, 1, NULL), MF_OK);
    s.time = s.prev_time = 0.85; /* same segment */
    assert_int_equal(mf_pose_sample(p, &s), MF_OK);
    assert_true(width_of(p) == 30);
    const double times[] = {0.3, 0.1, 0.9, 0.75, 0.25};
    for (size_t i = 0; i < sizeof times / sizeof times[0]; i++) {
        s.time = s.prev_time = times[i], s.bone_mask = NULL;
        assert_int_equal(mf_pose_sample(p, &s), MF_OK);
        s.bone_mask = all;
        assert_int_equal(mf_pose_sample(g, &s), MF_OK);
        assert_int_equal(p->attachment[0], g->attachment[0]);
    }
    mf_pose_destroy(p);
    mf_pose_destroy(g);
    mf_skin_cache_destroy(cache);
    test_rig_free(&r);
}

/* colour, transform and path constraint timelines (compiled between two keys): bit for bit
 * what the general path gives at weight 1, whose lerp the compiled write repeats */
static const char *VRIG = RIG_HEAD
    "\"bones\":[{\"name\":\"root\"},{\"name\":\"a\",\"parent\":\"root\",\"x\":3},"
    "{\"name\":\"t\",\"parent\":\"root\",\"x\":20}],"
    "\"slots\":[{\"name\":\"s\",\"bone\":\"a\",\"attachment\":\"x\",\"color\":\"#ff8800ff\"},"
    "{\"name\":\"d\",\"bone\":\"a\",\"attachment\":\"x\",\"color\":\"#80808080\",\"dark\":\"#102030\"},"
    "{\"name\":\"r\",\"bone\":\"root\",\"attachment\":\"rail\"}],"
    "\"transform\":[{\"name\":\"tf\",\"bones\":[\"a\"],\"target\":\"t\",\"mixRotate\":0.5,\"mixX\":0.25}],"
    "\"path\":[{\"name\":\"ride\",\"bones\":[\"a\"],\"target\":\"r\",\"position\":0.25,\"spacing\":3}],"
    "\"skins\":[{\"name\":\"default\",\"attachments\":["
    "{\"slot\":\"s\",\"name\":\"x\",\"type\":\"Region\",\"width\":10,\"height\":10},"
    "{\"slot\":\"d\",\"name\":\"x\",\"type\":\"Region\",\"width\":10,\"height\":10},"
    "{\"slot\":\"r\",\"name\":\"rail\",\"type\":\"Path\",\"vertices\":[0,0,10,10,20,0,30,-10,40,0,50,10],"
    "\"lengths\":[25,30]}]}]}";

static const char *VCLIP = CLIP_HEAD "\"length\":1.2,"
    "\"slots\":{\"s\":{\"rgba\":{\"t\":[0.1,0.5,1.0],\"v\":[\"#ffffffff\",\"#ff000080\",\"#20406080\"],"
    "\"curve\":[[\"stepped\",\"linear\",[0.2,0,0.8,1],[0.2,0,0.8,1]],[0.3,0.1,0.6,1.2]]},"
    "\"alpha\":{\"t\":[0,0.7],\"v\":[1,0.25],\"curve\":[[0.5,0,0.5,1]]}},"
    "\"d\":{\"rgba2\":{\"t\":[0.2,0.9],\"v\":[[\"#ffffffff\",\"#000000\"],[\"#ff8800cc\",\"#a0b0c0\"]],"
    "\"curve\":[[0.25,0,0.75,1]]},"
    "\"rgb\":{\"t\":[0.4,1.1],\"v\":[\"#102030\",\"#f0e0d0\"]}}},"
    "\"transform\":{\"tf\":{\"t\":[0,0.5,1],\"mixRotate\":[1,0,0.5],\"mixX\":[0.5,0.5,1],\"mixY\":[0,1,0],"
    "\"mixScaleX\":[1,1,0],\"mixScaleY\":[0,0,1],\"mixShearY\":[0.25,0.75,0],"
    "\"curve\":[[\"stepped\",\"linear\",[0.1,0.5,0.9,0.5],\"linear\",\"linear\",\"linear\"],[0.25,0,0.75,1]]}},"
    "\"path\":{\"ride\":{\"position\":{\"t\":[0,1],\"v\":[0,0.8],\"curve\":[[0.25,0,0.75,1]]},"
    "\"spacing\":{\"t\":[0.3,0.6],\"v\":[5,-2]},"
    "\"mix\":{\"t\":[0,1],\"v\":[[1,1,1],[0,0.5,1]],\"curve\":[[[0.25,0,0.75,1],\"linear\",\"stepped\"]]}}}}";

static void same_floats(const float *a, const float *b, int32_t n, const char *what, double t)
{
    for (int32_t i = 0; i < n; i++) {
        if (memcmp(&a[i], &b[i], sizeof(float)) != 0)
            fprintf(stderr, "t %.9g %s[%d]: %.9g vs %.9g\n", t, what, i, a[i], b[i]);
        assert_memory_equal(&a[i], &b[i], sizeof(float));
    }
}

static void test_values_match_general(void **state)
{
    (void)state;
    test_rig r;
    const char *names[] = {"c"}, *clips[] = {VCLIP};
    test_rig_build(&r, VRIG, names, clips, 1);
    assert_int_equal(r.data.transform_count, 1);
    assert_int_equal(r.data.path_count, 1);
    mf_pose *direct = NULL, *general = NULL;
    assert_int_equal(mf_pose_create(&r.data, NULL, &direct, NULL), MF_OK);
    assert_int_equal(mf_pose_create(&r.data, NULL, &general, NULL), MF_OK);
    uint8_t all[3] = {1, 1, 1};
    double times[200];
    int n = 0;
    for (int f = 0; f < 80; f++) times[n++] = f / 60.0;
    const double odd[] = {0.5, 0.1, 0.7, 1.0, 1.1, 0.0, -0.25, 3.7, 0.2, 0.4999999, 0.9, 1.2, 1.19, 0.3, 0.6};
    for (size_t i = 0; i < sizeof odd / sizeof odd[0]; i++) times[n++] = odd[i];
    for (int f = 0; f < 40; f++) times[n++] = 1.2 - f / 35.0;
    bool moved = false;
    for (int i = 0; i < n; i++) {
        sample(direct, times[i], NULL, 0.5f);
        sample(general, times[i], all, 0.5f);
        same_floats(direct->color, general->color, 4 * direct->slot_count, "color", times[i]);
        same_floats(direct->dark, general->dark, 3 * direct->slot_count, "dark", times[i]);
        same_floats(direct->tf_mix, general->tf_mix, 6, "tf_mix", times[i]);
        same_floats(direct->path_position, general->path_position, 1, "path_position", times[i]);
        same_floats(direct->path_spacing, general->path_spacing, 1, "path_spacing", times[i]);
        same_floats(direct->path_mix, general->path_mix, 3, "path_mix", times[i]);
        moved = moved || direct->color[1] != 1.0f;
    }
    assert_true(moved);
    /* the values are the clip's: halfway between the transform's first keys, the linear mixX
     * holds 0.5, the stepped mixRotate its first key */
    sample(direct, 0.25, NULL, 0.5f);
    assert_true(fabsf(direct->tf_mix[0] - 1.0f) < 1e-6f);
    assert_true(fabsf(direct->tf_mix[2] - 0.5f) < 1e-6f);
    assert_true(fabsf(direct->tf_mix[3] - 1.0f) < 1e-6f); /* mixScaleX holds 1 */
    mf_pose_destroy(direct);
    mf_pose_destroy(general);
    test_rig_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_direct_matches_general),
        cmocka_unit_test(test_values_match_general),
        cmocka_unit_test(test_attachment_keys_follow_skins),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
