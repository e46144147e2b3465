/* The canonical bone set: names both ways, required bones, hierarchy, sides, hinges and the
 * HumanoidLimits table. */
#include "testutil.h"

#include <stdio.h>
#include <string.h>

#include "mf/mf_humanoid.h"

static void test_names(void **state)
{
    (void)state;
    for (int b = 0; b < MF_HB_COUNT; b++) {
        const char *n = mf_humanoid_bone_name((mf_humanoid_bone)b);
        assert_non_null(n);
        assert_int_equal(mf_humanoid_bone_from_name(n), b);
    }
    assert_int_equal(MF_HB_COUNT, 55); /* VRM 1.0's humanoid set */
    assert_string_equal(mf_humanoid_bone_name(MF_HB_LEFT_UPPER_LEG), "LeftUpperLeg");
    assert_string_equal(mf_humanoid_bone_name(MF_HB_LEFT_INDEX_PROXIMAL), "LeftIndexProximal");
    assert_string_equal(mf_humanoid_bone_name(MF_HB_RIGHT_THUMB_METACARPAL), "RightThumbMetacarpal");
    assert_string_equal(mf_humanoid_bone_name(MF_HB_UPPER_CHEST), "UpperChest");
    assert_null(mf_humanoid_bone_name(MF_HB_COUNT));
    assert_int_equal(mf_humanoid_bone_from_name("leftupperleg"), -1); /* exact names */
    assert_int_equal(mf_humanoid_bone_from_name("LeftKnee"), -1);
    assert_int_equal(mf_humanoid_bone_from_name(NULL), -1);
    assert_string_equal(mf_humanoid_bone_suggest("LeftUpperLag"), "LeftUpperLeg");
    assert_string_equal(mf_humanoid_bone_suggest("RightHnd"), "RightHand");
    assert_null(mf_humanoid_bone_suggest("Tail"));
}

static void test_required(void **state)
{
    (void)state;
    static const char *const REQUIRED[] = {
        "Hips", "Spine", "Chest", "Neck", "Head", "LeftUpperLeg", "LeftLowerLeg", "LeftFoot", "RightUpperLeg",
        "RightLowerLeg", "RightFoot", "LeftUpperArm", "LeftLowerArm", "LeftHand", "RightUpperArm", "RightLowerArm",
        "RightHand"};
    int n = 0;
    for (int b = 0; b < MF_HB_COUNT; b++) n += mf_humanoid_bone_required((mf_humanoid_bone)b);
    assert_int_equal(n, 17);
    for (size_t i = 0; i < sizeof REQUIRED / sizeof REQUIRED[0]; i++)
        assert_true(mf_humanoid_bone_required((mf_humanoid_bone)mf_humanoid_bone_from_name(REQUIRED[i])));
    assert_false(mf_humanoid_bone_required(MF_HB_UPPER_CHEST));
    assert_false(mf_humanoid_bone_required(MF_HB_LEFT_SHOULDER));
    assert_false(mf_humanoid_bone_required(MF_HB_LEFT_TOES));
}

static void test_hierarchy_and_sides(void **state)
{
    (void)state;
    int hinges = 0;
    for (int b = 0; b < MF_HB_COUNT; b++) {
        mf_humanoid_bone m = mf_humanoid_bone_mirror((mf_humanoid_bone)b);
        mf_humanoid_side side = mf_humanoid_bone_side((mf_humanoid_bone)b);
        const char *name = mf_humanoid_bone_name((mf_humanoid_bone)b);
        assert_int_equal(mf_humanoid_bone_mirror(m), b);
        if (side == MF_HSIDE_CENTER) {
            assert_int_equal(m, b);
        } else {
            char want[40];
            snprintf(want, sizeof want, "%s%s", side == MF_HSIDE_LEFT ? "Right" : "Left",
                     name + (side == MF_HSIDE_LEFT ? 4 : 5));
            assert_string_equal(mf_humanoid_bone_name(m), want);
        }
        /* every bone reaches the hips; parents are on the same side or the centre; the mirror
         * of the parent is the parent of the mirror */
        int p = mf_humanoid_bone_parent((mf_humanoid_bone)b), steps = 0;
        if (b == MF_HB_HIPS) assert_int_equal(p, -1);
        else {
            mf_humanoid_side ps = mf_humanoid_bone_side((mf_humanoid_bone)p);
            assert_true(ps == side || ps == MF_HSIDE_CENTER);
            assert_int_equal(mf_humanoid_bone_mirror((mf_humanoid_bone)p), mf_humanoid_bone_parent(m));
        }
        for (int q = b; q != MF_HB_HIPS && steps < 20; q = mf_humanoid_bone_parent((mf_humanoid_bone)q)) steps++;
        assert_true(steps <= 10); /* distal phalanx → … → hips */
        hinges += mf_humanoid_bone_is_hinge((mf_humanoid_bone)b);
    }
    assert_int_equal(hinges, 4);
    assert_true(mf_humanoid_bone_is_hinge(MF_HB_RIGHT_LOWER_LEG) && mf_humanoid_bone_is_hinge(MF_HB_LEFT_LOWER_ARM));
    assert_int_equal(mf_humanoid_bone_parent(MF_HB_LEFT_LITTLE_INTERMEDIATE), MF_HB_LEFT_LITTLE_PROXIMAL);
    assert_int_equal(mf_humanoid_bone_parent(MF_HB_RIGHT_THUMB_METACARPAL), MF_HB_RIGHT_HAND);
    assert_int_equal(mf_humanoid_bone_parent(MF_HB_RIGHT_UPPER_LEG), MF_HB_HIPS);
    assert_int_equal(mf_humanoid_bone_parent(MF_HB_LEFT_SHOULDER), MF_HB_UPPER_CHEST);
    assert_int_equal(mf_humanoid_bone_parent(MF_HB_JAW), MF_HB_HEAD);
    /* centre bones lean and turn to a side: mirrored angles negate abduct and twist */
    mf_humanoid_angles a = {10, 20, 30};
    mf_humanoid_angles c = mf_humanoid_angles_mirror(MF_HB_SPINE, a), l = mf_humanoid_angles_mirror(MF_HB_LEFT_HAND, a);
    assert_true(c.flex == 10 && c.abduct == -20 && c.twist == -30);
    assert_true(l.flex == 10 && l.abduct == 20 && l.twist == 30);
}

static void test_limits(void **state)
{
    (void)state;
    for (int b = 0; b < MF_HB_COUNT; b++) {
        const mf_humanoid_limit *l = mf_humanoid_limits((mf_humanoid_bone)b);
        const mf_humanoid_limit *m = mf_humanoid_limits(mf_humanoid_bone_mirror((mf_humanoid_bone)b));
        assert_non_null(l);
        for (int c = 0; c < MF_HC_COUNT; c++) {
            assert_true(l->min[c] <= 0 && 0 <= l->max[c]); /* the T-pose is inside */
            assert_true(l->min[c] == m->min[c] && l->max[c] == m->max[c]);
            if (mf_humanoid_bone_is_hinge((mf_humanoid_bone)b) && c != MF_HC_FLEX)
                assert_true(l->min[c] == 0 && l->max[c] == 0);
        }
    }
    assert_null(mf_humanoid_limits(MF_HB_COUNT));
    /* the seed's typical values */
    static const struct { mf_humanoid_bone b; mf_humanoid_component c; float lo, hi; } SEED[] = {
        {MF_HB_LEFT_UPPER_LEG, MF_HC_FLEX, -30, 130}, {MF_HB_RIGHT_LOWER_LEG, MF_HC_FLEX, 0, 150},
        {MF_HB_LEFT_FOOT, MF_HC_FLEX, -50, 30},       {MF_HB_SPINE, MF_HC_FLEX, -30, 60},
        {MF_HB_CHEST, MF_HC_FLEX, -30, 60},           {MF_HB_RIGHT_UPPER_ARM, MF_HC_ABDUCT, -90, 90},
        {MF_HB_LEFT_LOWER_ARM, MF_HC_FLEX, 0, 150}};
    for (size_t i = 0; i < sizeof SEED / sizeof SEED[0]; i++) {
        const mf_humanoid_limit *l = mf_humanoid_limits(SEED[i].b);
        assert_float_equal(l->min[SEED[i].c], SEED[i].lo, 0);
        assert_float_equal(l->max[SEED[i].c], SEED[i].hi, 0);
    }
    assert_string_equal(mf_humanoid_component_name(MF_HC_ABDUCT), "abduct");
    assert_float_equal(mf_humanoid_angle((mf_humanoid_angles){1, 2, 3}, MF_HC_TWIST), 3, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_required),
        cmocka_unit_test(test_hierarchy_and_sides),
        cmocka_unit_test(test_limits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
