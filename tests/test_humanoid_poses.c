/* Named poses: the built-in data/humanoid/poses.json (tpose, rest, stand) and located errors
 * for malformed pose files. The inputs use ' for ". */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mf/mf_gltf.h"
#include "mf/mf_humanoid.h"
#include "mf/mf_mannequin3d.h"

static char *q(const char *s)
{
    char *d = malloc(strlen(s) + 1);
    for (size_t i = 0;; i++) {
        d[i] = s[i] == '\'' ? '"' : s[i];
        if (!s[i]) break;
    }
    return d;
}

static void test_builtin(void **state)
{
    (void)state;
    /* the library carries the repository's file byte for byte */
    char *file = tu_read(tu_src("data/humanoid/poses.json"), NULL);
    assert_non_null(file);
    assert_string_equal(mf_humanoid_poses_json(), file);
    free(file);

    mf_humanoid_pose_set *set;
    mf_diag d;
    assert_int_equal(mf_humanoid_poses_builtin(&set, &d), MF_OK);
    assert_int_equal(set->count, 3);
    const mf_humanoid_named_pose *t = mf_humanoid_poses_find(set, "tpose", &d);
    const mf_humanoid_named_pose *r = mf_humanoid_poses_find(set, "rest", &d);
    const mf_humanoid_named_pose *s = mf_humanoid_poses_find(set, "stand", &d);
    assert_non_null(t);
    assert_non_null(r);
    assert_non_null(s);
    for (int b = 0; b < MF_HB_COUNT; b++) {
        assert_true(t->pose.joint[b].flex == 0 && t->pose.joint[b].abduct == 0 && t->pose.joint[b].twist == 0);
        assert_int_equal(t->given[b], 0);
    }
    assert_false(t->from_rest);
    assert_true(r->from_rest);
    assert_float_equal(s->pose.joint[MF_HB_LEFT_UPPER_ARM].abduct, -80, 0);
    assert_float_equal(s->pose.joint[MF_HB_RIGHT_UPPER_ARM].abduct, -80, 0);
    assert_float_equal(s->pose.joint[MF_HB_LEFT_LOWER_ARM].flex, 10, 0);
    assert_float_equal(s->pose.joint[MF_HB_RIGHT_LOWER_ARM].flex, 10, 0);
    assert_int_equal(s->given[MF_HB_LEFT_UPPER_ARM], 1 << MF_HC_ABDUCT);
    assert_true(strlen(s->description) > 10);
    assert_null(mf_humanoid_poses_find(set, "stnd", &d));
    assert_string_equal(d.message, "unknown pose \"stnd\" (did you mean \"stand\"?)");

    /* "rest" resolves to the rig's own rest: an A-pose rig's arms at about -45 */
    mf_gltf *g;
    assert_int_equal(mf_mannequin3d_create(MF_M3D_MIXAMO, MF_M3D_APOSE, &g, &d), MF_OK);
    mf_humanoid_skeleton *sk;
    mf_humanoid_map m;
    mf_humanoid_rig *rig;
    assert_int_equal(mf_humanoid_skeleton_from_gltf(g, -1, "a.glb", &sk, &d), MF_OK);
    assert_int_equal(mf_humanoid_detect(sk, NULL, &m, &d), MF_OK);
    assert_int_equal(mf_humanoid_rig_create(sk, &m, &rig, &d), MF_OK);
    mf_humanoid_pose p;
    assert_int_equal(mf_humanoid_pose_resolve(r, rig, &p, &d), MF_OK);
    assert_float_equal(p.joint[MF_HB_LEFT_UPPER_ARM].abduct, -45, 0.05);
    assert_int_equal(mf_humanoid_pose_resolve(s, rig, &p, &d), MF_OK);
    assert_float_equal(p.joint[MF_HB_LEFT_UPPER_ARM].abduct, -80, 0);
    mf_humanoid_rig_free(rig);
    mf_humanoid_skeleton_free(sk);
    mf_gltf_free(g);
    mf_humanoid_poses_free(set);
}

static void test_hips(void **state)
{
    (void)state;
    char *text = q("{ 'format': 1, 'poses': [ { 'name': 'crouch', 'hips': { 'y': -0.3, 'pitch': 20, 'yaw': -10 },"
                   " 'joints': { 'LeftUpperLeg': { 'flex': 60 }, 'LeftLowerLeg': { 'flex': 100 } } } ] }");
    mf_humanoid_pose_set *set;
    mf_diag d;
    assert_int_equal(mf_humanoid_poses_parse(text, strlen(text), "p.json", &set, &d), MF_OK);
    const mf_humanoid_named_pose *p = &set->poses[0];
    assert_float_equal(p->pose.hips_offset.y, -0.3, 1e-6);
    assert_float_equal(p->pose.joint[MF_HB_HIPS].flex, 20, 0);
    assert_float_equal(p->pose.joint[MF_HB_HIPS].twist, -10, 0);
    assert_true(p->hips_offset_given);
    assert_int_equal(p->given[MF_HB_HIPS], (1 << MF_HC_FLEX) | (1 << MF_HC_TWIST));
    assert_float_equal(p->pose.joint[MF_HB_LEFT_LOWER_LEG].flex, 100, 0);
    mf_humanoid_poses_free(set);
    free(text);
}

static void test_errors(void **state)
{
    (void)state;
    static const struct { const char *json, *want; } CASES[] = {
        {"{ 'format': 1, 'poses': [ { 'name': 'a', 'joints': { 'LeftKnee': { 'flex': 10 } } } ] }",
         "p.json: poses[0].joints.LeftKnee: unknown bone \"LeftKnee\""},
        {"{ 'format': 1, 'poses': [ { 'name': 'a', 'joints': { 'LeftUpperLag': { 'flex': 10 } } } ] }",
         "p.json: poses[0].joints.LeftUpperLag: unknown bone \"LeftUpperLag\" (did you mean \"LeftUpperLeg\"?)"},
        {"{ 'format': 1, 'poses': [ { 'name': 'a', 'joints': { 'LeftLowerLeg': { 'flex': 10, 'twist': 5 } } } ] }",
         "p.json: poses[0].joints.LeftLowerLeg.twist: LeftLowerLeg is a hinge: it takes flex only"},
        {"{ 'format': 1, 'poses': [ { 'name': 'a', 'joints': { 'RightLowerArm': { 'flex': 170 } } } ] }",
         "p.json: poses[0].joints.RightLowerArm.flex: 170 is outside RightLowerArm's flex limits 0…150"},
        {"{ 'format': 1, 'poses': [ { 'name': 'a', 'joints': { 'Spine': { 'bend': 10 } } } ] }",
         "p.json: poses[0].joints.Spine.bend: unknown key"},
        {"{ 'format': 1, 'poses': [ { 'name': 'a', 'joints': { 'Hips': { 'flex': 10 } } } ] }",
         "p.json: poses[0].joints.Hips: the hips take \"hips\""},
        {"{ 'format': 1, 'poses': [ { 'name': 'a', 'hips': { 'pitch': 120 } } ] }",
         "p.json: poses[0].hips.pitch: 120 is outside Hips's flex limits -90…90"},
        {"{ 'format': 1, 'poses': [ { 'name': 'a' }, { 'name': 'a' } ] }",
         "p.json: poses[1].name: pose \"a\" is defined twice (first at poses[0])"},
        {"{ 'format': 1, 'poses': [ { 'name': 'a', 'from': 'bind' } ] }",
         "p.json: poses[0].from: unknown source \"bind\""},
        {"{ 'format': 1, 'poses': [ { 'name': 'a', 'from': 'rest', 'joints': {} } ] }",
         "p.json: poses[0]: a pose taken from the rest pose has no joints or hips of its own"},
        {"{ 'format': 2, 'poses': [] }", "p.json: format: unsupported format 2"},
        {"{ 'format': 1 }", "p.json: poses: missing"},
        {"{ 'format': 1, 'poses': [ { 'description': 'x' } ] }", "p.json: poses[0]: missing \"name\""},
        {"{ 'format': 1, 'poses': [ ", "p.json: line 1"},
    };
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        char *text = q(CASES[i].json);
        mf_humanoid_pose_set *set = NULL;
        mf_diag d;
        char msg[1200];
        mf_result rc = mf_humanoid_poses_parse(text, strlen(text), "p.json", &set, &d);
        free(text);
        if (rc == MF_OK) fail_msg("case %d parsed", (int)i);
        assert_null(set);
        mf_diag_format(&d, msg, sizeof msg);
        if (!strstr(msg, CASES[i].want)) fail_msg("case %d: %s\n  want: %s", (int)i, msg, CASES[i].want);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_builtin),
        cmocka_unit_test(test_hips),
        cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
