/* Humanoid map detection: every mannequin variant (4 namings × T/A) by names and, with the names
 * removed, by structure alone; the CMU motion-capture skeleton; synthetic skeletons in other
 * conventions and orientations; overrides from the sidecar; missing bones. */
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "humanoid/humanoid_internal.h"
#include "mf/mf_gltf.h"
#include "mf/mf_humanoid.h"
#include "mf/mf_mannequin3d.h"

static mf_gltf *mannequin(mf_m3d_naming naming, mf_m3d_rest rest)
{
    mf_gltf *g = NULL;
    mf_diag d;
    assert_int_equal(mf_mannequin3d_create(naming, rest, &g, &d), MF_OK);
    return g;
}

/* Every node renamed to "b<index>": only the structure is left. */
static void strip_names(mf_gltf *g)
{
    for (int32_t i = 0; i < g->node_count; i++) {
        char b[16];
        snprintf(b, sizeof b, "b%d", i);
        g->nodes[i].name = mf_gltf_strdup(g, b);
    }
}

static int node_of(const mf_humanoid_skeleton *s, const mf_humanoid_map *m, int b)
{
    return m->bone[b] >= 0 ? s->nodes[m->bone[b]] : -1;
}

/* Required bones exactly as the ground truth; optional ones never wrong; with names every
 * ground-truth bone found. */
static void check_mannequin(mf_gltf *g, mf_m3d_naming naming, bool named, const char *label)
{
    mf_humanoid_skeleton *s = NULL;
    mf_humanoid_map m;
    mf_diag d;
    assert_int_equal(mf_humanoid_skeleton_from_gltf(g, -1, label, &s, &d), MF_OK);
    mf_result rc = mf_humanoid_detect(s, NULL, &m, &d);
    if (rc != MF_OK) fail_msg("%s: %s", label, d.message);
    int wrong = 0;
    for (int b = 0; b < MF_HB_COUNT; b++) {
        const char *name = mf_humanoid_bone_name((mf_humanoid_bone)b);
        int want = mf_mannequin3d_node(naming, name), got = node_of(s, &m, b);
        bool must = mf_humanoid_bone_required((mf_humanoid_bone)b) || (named && want >= 0);
        if ((must && got != want) || (got >= 0 && got != want)) {
            print_error("%s: %s mapped to node %d, want %d\n", label, name, got, want);
            wrong++;
        }
        if (got >= 0) {
            assert_true(m.confidence[b] > 0 && m.confidence[b] <= 1);
            if (named && mf_humanoid_bone_side((mf_humanoid_bone)b) != MF_HSIDE_CENTER && b <= MF_HB_RIGHT_HAND)
                assert_int_equal(m.source[b], MF_HSRC_NAME);
            if (!named) assert_int_equal(m.source[b], MF_HSRC_STRUCTURE);
        }
    }
    assert_int_equal(wrong, 0);
    assert_true(m.up.y == 1 && m.forward.z == 1);
    mf_humanoid_skeleton_free(s);
}

static void test_mannequins_by_names(void **state)
{
    (void)state;
    static const char *const EXPECT_NAMING[] = {"mixamo", "unreal", "blender"};
    for (int n = MF_M3D_MIXAMO; n <= MF_M3D_BLENDER; n++)
        for (int r = 0; r < MF_M3D_REST_COUNT; r++) {
            char label[64];
            snprintf(label, sizeof label, "%s-%s", mf_m3d_naming_name(n), mf_m3d_rest_name(r));
            mf_gltf *g = mannequin(n, r);
            check_mannequin(g, n, true, label);
            mf_humanoid_skeleton *s;
            mf_humanoid_map m;
            mf_diag d;
            assert_int_equal(mf_humanoid_skeleton_from_gltf(g, -1, label, &s, &d), MF_OK);
            assert_int_equal(mf_humanoid_detect(s, NULL, &m, &d), MF_OK);
            assert_string_equal(m.naming, EXPECT_NAMING[n]);
            mf_humanoid_skeleton_free(s);
            mf_gltf_free(g);
        }
}

static void test_mannequins_by_structure(void **state)
{
    (void)state;
    for (int n = 0; n < MF_M3D_NAMING_COUNT; n++)
        for (int r = 0; r < MF_M3D_REST_COUNT; r++) {
            char label[64];
            snprintf(label, sizeof label, "%s-%s-stripped", mf_m3d_naming_name(n), mf_m3d_rest_name(r));
            mf_gltf *g = mannequin(n, r);
            strip_names(g);
            check_mannequin(g, n, false, label);
            mf_gltf_free(g);
            if (n == MF_M3D_UNNAMED) { /* as generated: "Bone.012", empty names, shuffled */
                g = mannequin(n, r);
                check_mannequin(g, n, false, label);
                mf_gltf_free(g);
            }
        }
}

/* ---- the CMU skeleton from the shared corpus ---- */

static void test_cmu(void **state)
{
    (void)state;
    const char *shared = tu_shared();
    char path[4096];
    snprintf(path, sizeof path, "%s/humanoid-corpus/cmu-01_01.glb", shared ? shared : "");
    FILE *f = shared ? fopen(path, "rb") : NULL;
    if (!f) {
        print_message("skipped: %s not found (the shared humanoid corpus is absent)\n",
                      shared ? path : "../shared/humanoid-corpus/cmu-01_01.glb");
        skip();
    }
    fclose(f);
    static const char *const EXPECT[][2] = {
        {"Hips", "Hips"}, {"Spine", "LowerBack"}, {"Chest", "Spine"}, {"UpperChest", "Spine1"},
        {"Neck", "Neck"}, {"Head", "Head"},
        {"LeftUpperLeg", "LeftUpLeg"}, {"LeftLowerLeg", "LeftLeg"}, {"LeftFoot", "LeftFoot"}, {"LeftToes", "LeftToeBase"},
        {"RightUpperLeg", "RightUpLeg"}, {"RightLowerLeg", "RightLeg"}, {"RightFoot", "RightFoot"},
        {"RightToes", "RightToeBase"},
        {"LeftShoulder", "LeftShoulder"}, {"LeftUpperArm", "LeftArm"}, {"LeftLowerArm", "LeftForeArm"},
        {"LeftHand", "LeftHand"}, {"RightShoulder", "RightShoulder"}, {"RightUpperArm", "RightArm"},
        {"RightLowerArm", "RightForeArm"}, {"RightHand", "RightHand"},
    };
    mf_diag d;
    for (int pass = 0; pass < 2; pass++) {
        mf_gltf *g;
        assert_int_equal(mf_gltf_load(path, &g, &d), MF_OK);
        int32_t want_node[sizeof EXPECT / sizeof EXPECT[0]];
        for (size_t k = 0; k < sizeof EXPECT / sizeof EXPECT[0]; k++) {
            want_node[k] = mf_gltf_find_node(g, EXPECT[k][1]);
            assert_true(want_node[k] >= 0);
        }
        if (pass == 1) strip_names(g);
        mf_humanoid_skeleton *s;
        mf_humanoid_map m;
        assert_int_equal(mf_humanoid_skeleton_from_gltf(g, -1, path, &s, &d), MF_OK);
        /* the skin leaves out Hips, Spine1 and the hands: the nodes joining the joints come back */
        assert_int_equal(s->bone_count, 38);
        mf_result rc = mf_humanoid_detect(s, NULL, &m, &d);
        if (rc != MF_OK) fail_msg("%s", d.message);
        for (size_t k = 0; k < sizeof EXPECT / sizeof EXPECT[0]; k++) {
            int b = mf_humanoid_bone_from_name(EXPECT[k][0]);
            if (node_of(s, &m, b) != want_node[k])
                fail_msg("pass %d: %s mapped to %s, want %s", pass, EXPECT[k][0],
                         m.bone[b] >= 0 ? s->names[m.bone[b]] : "-", EXPECT[k][1]);
            assert_int_equal(m.source[b], pass ? MF_HSRC_STRUCTURE : MF_HSRC_NAME);
        }
        if (pass == 0) assert_string_equal(m.naming, "mocap");
        /* LHipJoint and the end sites stay unmapped */
        assert_int_equal(mf_humanoid_map_canonical(&m, mf_humanoid_skeleton_find(s, pass ? "b1" : "LHipJoint")), -1);
        mf_humanoid_skeleton_free(s);
        mf_gltf_free(g);
    }
}

/* ---- synthetic skeletons in other conventions ---- */

enum { R_HIPS, R_SPINE, R_CHEST, R_NECK, R_HEAD, R_HEAD_END, R_L0 = 6, R_SIDE = 10, R_COUNT = R_L0 + 2 * R_SIDE };
/* per side: shoulder, upper arm, lower arm, hand, hand end, upper leg, lower leg, foot, toes, toe end */
static const int ROLE_BONE[R_SIDE] = {MF_HB_LEFT_SHOULDER, MF_HB_LEFT_UPPER_ARM, MF_HB_LEFT_LOWER_ARM, MF_HB_LEFT_HAND, -1,
                                      MF_HB_LEFT_UPPER_LEG, MF_HB_LEFT_LOWER_LEG, MF_HB_LEFT_FOOT, MF_HB_LEFT_TOES, -1};

typedef struct human {
    int32_t parent[R_COUNT];
    mf_vec3 pos[R_COUNT];
} human;

static human make_human(void)
{
    human h;
    static const struct { int parent; float x, y, z; } C[R_L0] = {
        {-1, 0, 1.0f, 0}, {R_HIPS, 0, 1.1f, -0.01f}, {R_SPINE, 0, 1.25f, -0.02f},
        {R_CHEST, 0, 1.5f, 0}, {R_NECK, 0, 1.6f, 0.01f}, {R_HEAD, 0, 1.8f, 0.01f}};
    static const struct { int parent; float x, y, z; } S[R_SIDE] = {
        {-R_CHEST - 1, 0.04f, 1.45f, 0}, {0, 0.18f, 1.45f, 0}, {1, 0.46f, 1.45f, 0}, {2, 0.72f, 1.45f, 0},
        {3, 0.9f, 1.45f, 0}, {-R_HIPS - 1, 0.09f, 0.95f, 0}, {5, 0.09f, 0.52f, 0}, {6, 0.09f, 0.09f, 0},
        {7, 0.09f, 0.03f, 0.13f}, {8, 0.09f, 0.03f, 0.21f}};
    for (int i = 0; i < R_L0; i++) h.parent[i] = C[i].parent, h.pos[i] = mf_v3(C[i].x, C[i].y, C[i].z);
    for (int side = 0; side < 2; side++)
        for (int k = 0; k < R_SIDE; k++) {
            int i = R_L0 + side * R_SIDE + k;
            h.parent[i] = S[k].parent < 0 ? -S[k].parent - 1 : R_L0 + side * R_SIDE + S[k].parent;
            h.pos[i] = mf_v3(side ? -S[k].x : S[k].x, S[k].y, S[k].z);
        }
    return h;
}

/* A skeleton of the human with these names, turned as a whole by root_rotation. */
static mf_humanoid_skeleton *human_skeleton(const char *const *names, mf_quat root_rotation)
{
    human h = make_human();
    mf_vec3 t[R_COUNT];
    mf_quat q[R_COUNT];
    for (int i = 0; i < R_COUNT; i++) {
        t[i] = h.parent[i] < 0 ? h.pos[i] : mf_v3_sub(h.pos[i], h.pos[h.parent[i]]);
        q[i] = i == 0 ? root_rotation : mf_quat_identity();
    }
    t[0] = mf_quat_rotate(root_rotation, t[0]);
    mf_humanoid_skeleton *s = NULL;
    mf_diag d;
    assert_int_equal(mf_humanoid_skeleton_from_arrays(R_COUNT, names, h.parent, t, q, NULL, &s, &d), MF_OK);
    return s;
}

static void check_roles(const mf_humanoid_skeleton *s, const mf_humanoid_map *m, const char *label)
{
    static const int CENTER[R_L0] = {MF_HB_HIPS, MF_HB_SPINE, MF_HB_CHEST, MF_HB_NECK, MF_HB_HEAD, -1};
    for (int i = 0; i < R_COUNT; i++) {
        int want = i < R_L0 ? CENTER[i] : ROLE_BONE[(i - R_L0) % R_SIDE];
        if (want >= 0 && i >= R_L0 + R_SIDE) want = mf_humanoid_bone_mirror((mf_humanoid_bone)want);
        int got = mf_humanoid_map_canonical(m, i);
        if (got != want)
            fail_msg("%s: bone %s is %s, want %s", label, s->names[i], got >= 0 ? mf_humanoid_bone_name(got) : "-",
                     want >= 0 ? mf_humanoid_bone_name(want) : "-");
    }
}

#define SIDE_NAMES(P, S) P "shoulder" S, P "upper_arm" S, P "forearm" S, P "hand" S, P "hand_end" S, P "thigh" S, \
    P "shin" S, P "foot" S, P "toe" S, P "toe_end" S

static void test_conventions(void **state)
{
    (void)state;
    static const char *const VRM[R_COUNT] = {
        "Hips", "Spine", "Chest", "Neck", "Head", "HeadTop",
        "LeftShoulder", "LeftUpperArm", "LeftLowerArm", "LeftHand", "LeftHandTip", "LeftUpperLeg", "LeftLowerLeg",
        "LeftFoot", "LeftToes", "LeftToesEnd",
        "RightShoulder", "RightUpperArm", "RightLowerArm", "RightHand", "RightHandTip", "RightUpperLeg",
        "RightLowerLeg", "RightFoot", "RightToes", "RightToesEnd"};
    /* BVH files with a collar: their "shoulder" is the upper arm */
    static const char *const BVH[R_COUNT] = {
        "Hips", "Chest", "Chest2", "Neck", "Head", "Head_End",
        "LeftCollar", "LeftShoulder", "LeftElbow", "LeftWrist", "LeftWrist_End", "LeftHip", "LeftKnee",
        "LeftAnkle", "LeftToe", "LeftToe_End",
        "RightCollar", "RightShoulder", "RightElbow", "RightWrist", "RightWrist_End", "RightHip", "RightKnee",
        "RightAnkle", "RightToe", "RightToe_End"};
    static const char *const BIPED[R_COUNT] = {
        "Bip01 Pelvis", "Bip01 Spine", "Bip01 Spine1", "Bip01 Neck", "Bip01 Head", "Bip01 HeadNub",
        "Bip01 L Clavicle", "Bip01 L UpperArm", "Bip01 L Forearm", "Bip01 L Hand", "Bip01 L HandNub",
        "Bip01 L Thigh", "Bip01 L Calf", "Bip01 L Foot", "Bip01 L Toe0", "Bip01 L Toe0Nub",
        "Bip01 R Clavicle", "Bip01 R UpperArm", "Bip01 R Forearm", "Bip01 R Hand", "Bip01 R HandNub",
        "Bip01 R Thigh", "Bip01 R Calf", "Bip01 R Foot", "Bip01 R Toe0", "Bip01 R Toe0Nub"};
    static const char *const BLENDER[R_COUNT] = {"hips", "spine", "chest", "neck", "head", "head_end",
                                                 SIDE_NAMES("", ".L"), SIDE_NAMES("", ".R")};
    static const char *const PREFIXED[R_COUNT] = {"Armature|hips", "Armature|spine", "Armature|chest",
                                                  "Armature|neck", "Armature|head", "Armature|head_end",
                                                  SIDE_NAMES("l_", ""), SIDE_NAMES("r_", "")};
    static const char *const GLUED[R_COUNT] = {
        "hips", "spine", "spine1", "neck", "head", "headend",
        "leftshoulder", "leftarm", "leftforearm", "lefthand", "lefthandend", "leftupleg", "leftleg", "leftfoot",
        "lefttoebase", "lefttoeend",
        "rightshoulder", "rightarm", "rightforearm", "righthand", "righthandend", "rightupleg", "rightleg",
        "rightfoot", "righttoebase", "righttoeend"};
    static const struct { const char *label; const char *const *names; const char *naming; } CASES[] = {
        {"vrm", VRM, "vrm"}, {"bvh", BVH, "mocap"}, {"biped", BIPED, NULL}, {"blender", BLENDER, "blender"},
        {"prefixed", PREFIXED, NULL}, {"glued", GLUED, NULL}};
    for (size_t c = 0; c < sizeof CASES / sizeof CASES[0]; c++) {
        mf_humanoid_skeleton *s = human_skeleton(CASES[c].names, mf_quat_identity());
        mf_humanoid_map m;
        mf_diag d;
        mf_result rc = mf_humanoid_detect(s, NULL, &m, &d);
        if (rc != MF_OK) fail_msg("%s: %s", CASES[c].label, d.message);
        check_roles(s, &m, CASES[c].label);
        for (int b = 0; b <= MF_HB_RIGHT_HAND; b++)
            if (m.bone[b] >= 0 && b != MF_HB_HIPS) assert_int_equal(m.source[b], MF_HSRC_NAME);
        if (CASES[c].naming) assert_string_equal(m.naming, CASES[c].naming);
        mf_humanoid_skeleton_free(s);
    }
}

/* Turned rigs: Z up (an export without the axis fix) and facing -Z. Names and structure both
 * find the anatomical left side. */
static void test_orientations(void **state)
{
    (void)state;
    static const char *const MIXAMO[R_COUNT] = {
        "mixamorig:Hips", "mixamorig:Spine", "mixamorig:Spine1", "mixamorig:Neck", "mixamorig:Head",
        "mixamorig:HeadTop_End", "mixamorig:LeftShoulder", "mixamorig:LeftArm", "mixamorig:LeftForeArm",
        "mixamorig:LeftHand", "mixamorig:LeftHand_End", "mixamorig:LeftUpLeg", "mixamorig:LeftLeg",
        "mixamorig:LeftFoot", "mixamorig:LeftToeBase", "mixamorig:LeftToe_End", "mixamorig:RightShoulder",
        "mixamorig:RightArm", "mixamorig:RightForeArm", "mixamorig:RightHand", "mixamorig:RightHand_End",
        "mixamorig:RightUpLeg", "mixamorig:RightLeg", "mixamorig:RightFoot", "mixamorig:RightToeBase",
        "mixamorig:RightToe_End"};
    static const struct { const char *label; mf_vec3 axis; float deg; mf_vec3 up, forward; } TURNS[] = {
        {"z-up", {1, 0, 0}, 90, {0, 0, 1}, {0, -1, 0}},
        {"facing -z", {0, 1, 0}, 180, {0, 1, 0}, {0, 0, -1}},
        {"facing +x", {0, 1, 0}, 90, {0, 1, 0}, {1, 0, 0}},
    };
    for (size_t k = 0; k < sizeof TURNS / sizeof TURNS[0]; k++)
        for (int named = 0; named < 2; named++) {
            mf_quat q = mf_quat_axis_angle(TURNS[k].axis, TURNS[k].deg * 3.14159265f / 180);
            mf_humanoid_skeleton *s = human_skeleton(named ? MIXAMO : NULL, q);
            mf_humanoid_map m;
            mf_diag d;
            char label[64];
            snprintf(label, sizeof label, "%s %s", TURNS[k].label, named ? "named" : "unnamed");
            mf_result rc = mf_humanoid_detect(s, NULL, &m, &d);
            if (rc != MF_OK) fail_msg("%s: %s", label, d.message);
            check_roles(s, &m, label);
            assert_float_equal(m.up.x, TURNS[k].up.x, 1e-6);
            assert_float_equal(m.up.y, TURNS[k].up.y, 1e-6);
            assert_float_equal(m.up.z, TURNS[k].up.z, 1e-6);
            assert_float_equal(m.forward.x, TURNS[k].forward.x, 1e-6);
            assert_float_equal(m.forward.y, TURNS[k].forward.y, 1e-6);
            assert_float_equal(m.forward.z, TURNS[k].forward.z, 1e-6);
            mf_humanoid_skeleton_free(s);
        }
}

/* ---- overrides ---- */

static void test_overrides_win(void **state)
{
    (void)state;
    mf_gltf *g = mannequin(MF_M3D_MIXAMO, MF_M3D_TPOSE);
    mf_humanoid_skeleton *s;
    mf_diag d;
    assert_int_equal(mf_humanoid_skeleton_from_gltf(g, -1, "hero.glb", &s, &d), MF_OK);
    const char *meta = tu_tmp("hero.glb.meta.json");
    /* swap the legs, unmap the toes */
    assert_int_equal(tu_write(meta, "{ \"importer\": \"model\", \"settings\": { \"scale\": 1, \"humanoid\": {\n"
                                    "  \"LeftUpperLeg\": \"mixamorig:RightUpLeg\", \"RightUpperLeg\": \"mixamorig:LeftUpLeg\",\n"
                                    "  \"LeftToes\": null } } }\n"),
                     0);
    mf_humanoid_overrides ov;
    bool found;
    assert_int_equal(mf_humanoid_overrides_load(meta, &ov, &found, &d), MF_OK);
    assert_true(found);
    mf_humanoid_map m;
    assert_int_equal(mf_humanoid_detect(s, &ov, &m, &d), MF_OK);
    assert_string_equal(s->names[m.bone[MF_HB_LEFT_UPPER_LEG]], "mixamorig:RightUpLeg");
    assert_string_equal(s->names[m.bone[MF_HB_RIGHT_UPPER_LEG]], "mixamorig:LeftUpLeg");
    assert_int_equal(m.source[MF_HB_LEFT_UPPER_LEG], MF_HSRC_OVERRIDE);
    assert_float_equal(m.confidence[MF_HB_LEFT_UPPER_LEG], 1, 0);
    assert_int_equal(m.bone[MF_HB_LEFT_TOES], -1);
    assert_int_equal(m.source[MF_HB_LEFT_TOES], MF_HSRC_OVERRIDE);
    assert_string_equal(s->names[m.bone[MF_HB_RIGHT_TOES]], "mixamorig:RightToeBase");
    mf_humanoid_overrides_free(&ov);

    /* an override can take a bone detection gave to another canonical bone */
    assert_int_equal(tu_write(meta, "{ \"settings\": { \"humanoid\": { \"Chest\": \"mixamorig:Spine2\" } } }"), 0);
    assert_int_equal(mf_humanoid_overrides_load(meta, &ov, &found, &d), MF_OK);
    assert_int_equal(mf_humanoid_detect(s, &ov, &m, &d), MF_OK);
    assert_string_equal(s->names[m.bone[MF_HB_CHEST]], "mixamorig:Spine2");
    assert_int_equal(m.bone[MF_HB_UPPER_CHEST], -1);
    mf_humanoid_overrides_free(&ov);

    /* a missing sidecar is no error */
    assert_int_equal(mf_humanoid_overrides_load(tu_tmp("none.meta.json"), &ov, &found, &d), MF_OK);
    assert_false(found);
    mf_humanoid_overrides_free(&ov);
    mf_humanoid_skeleton_free(s);
    mf_gltf_free(g);
}

static void expect_meta_error(const mf_humanoid_skeleton *s, const char *json, const char *want)
{
    const char *meta = tu_tmp("bad.meta.json");
    assert_int_equal(tu_write(meta, json), 0);
    mf_humanoid_overrides ov;
    mf_diag d;
    char msg[1200];
    mf_result rc = mf_humanoid_overrides_load(meta, &ov, NULL, &d);
    if (rc == MF_OK) {
        mf_humanoid_map m;
        rc = mf_humanoid_detect(s, &ov, &m, &d);
    }
    mf_humanoid_overrides_free(&ov);
    assert_int_equal(rc, MF_ERR_INVALID);
    mf_diag_format(&d, msg, sizeof msg);
    assert_contains(msg, want);
    assert_contains(msg, "bad.meta.json");
}

static void test_override_errors(void **state)
{
    (void)state;
    mf_gltf *g = mannequin(MF_M3D_BLENDER, MF_M3D_TPOSE);
    mf_humanoid_skeleton *s;
    mf_diag d;
    assert_int_equal(mf_humanoid_skeleton_from_gltf(g, -1, "hero.glb", &s, &d), MF_OK);
    expect_meta_error(s, "{ \"settings\": { \"humanoid\": { \"LeftUpperLeg\": \"DEF-thigh.X\" } } }",
                      "settings.humanoid.LeftUpperLeg: unknown bone \"DEF-thigh.X\": the model has no such bone "
                      "(did you mean \"DEF-thigh.L\"?)");
    expect_meta_error(s, "{ \"settings\": { \"humanoid\": { \"LeftUpperLag\": \"DEF-thigh.L\" } } }",
                      "settings.humanoid.LeftUpperLag: unknown humanoid bone \"LeftUpperLag\" (did you mean "
                      "\"LeftUpperLeg\"?)");
    expect_meta_error(s, "{ \"settings\": { \"humanoid\": { \"Hips\": 3 } } }",
                      "settings.humanoid.Hips: expected the rig bone's name (a non-empty string) or null, got a number");
    expect_meta_error(s, "{ \"settings\": { \"humanoid\": [] } }", "settings.humanoid: expected an object");
    expect_meta_error(s, "{ \"settings\": { \"humanoid\": { \"Hips\": \"DEF-spine\",\n \"Hips\": \"DEF-spine\" } } }",
                      "settings.humanoid.Hips: \"Hips\" is given twice");
    expect_meta_error(s, "{ \"settings\": { \"humanoid\": { \"LeftFoot\": \"DEF-foot.L\", \"RightFoot\": \"DEF-foot.L\" } } }",
                      "settings.humanoid.RightFoot: bone \"DEF-foot.L\" is already given to LeftFoot: one rig bone maps "
                      "one humanoid bone");
    expect_meta_error(s, "{ \"settings\": { \"humanoid\": { \"Hips\": ", "line 1");
    mf_humanoid_skeleton_free(s);
    mf_gltf_free(g);
}

/* ---- failures ---- */

static void test_missing_required(void **state)
{
    (void)state;
    /* a torso with arms and no legs */
    static const char *const NAMES[] = {"Hips", "Spine", "Chest", "Neck", "Head", "LeftArm", "LeftForeArm",
                                        "LeftHand", "RightArm", "RightForeArm", "RightHand"};
    int32_t parents[] = {-1, 0, 1, 2, 3, 2, 5, 6, 2, 8, 9};
    mf_vec3 t[] = {{0, 1, 0}, {0, 0.1f, 0}, {0, 0.15f, 0}, {0, 0.25f, 0}, {0, 0.1f, 0}, {0.15f, 0.2f, 0},
                   {0.28f, 0, 0}, {0.26f, 0, 0}, {-0.15f, 0.2f, 0}, {-0.28f, 0, 0}, {-0.26f, 0, 0}};
    mf_quat q[11];
    for (int i = 0; i < 11; i++) q[i] = mf_quat_identity();
    mf_humanoid_skeleton *s;
    mf_diag d;
    assert_int_equal(mf_humanoid_skeleton_from_arrays(11, NAMES, parents, t, q, NULL, &s, &d), MF_OK);
    snprintf(s->file, sizeof s->file, "torso.glb");
    mf_humanoid_map m;
    assert_int_equal(mf_humanoid_detect(s, NULL, &m, &d), MF_ERR_INVALID);
    char msg[1200];
    mf_diag_format(&d, msg, sizeof msg);
    assert_contains(msg, "torso.glb: 6 required humanoid bones not found: LeftUpperLeg, LeftLowerLeg, LeftFoot, "
                         "RightUpperLeg, RightLowerLeg, RightFoot");
    assert_contains(msg, "settings.humanoid");
    /* what was found is still reported */
    assert_string_equal(s->names[m.bone[MF_HB_LEFT_HAND]], "LeftHand");
    mf_humanoid_rig *r;
    assert_int_equal(mf_humanoid_rig_create(s, &m, &r, &d), MF_ERR_INVALID);
    assert_contains(d.message, "lacks the required bone LeftUpperLeg");
    mf_humanoid_skeleton_free(s);
}

static void test_skeleton_errors(void **state)
{
    (void)state;
    mf_humanoid_skeleton *s = NULL;
    mf_diag d;
    int32_t bad_parents[] = {-1, 2, 0};
    mf_vec3 t[3] = {{0, 0, 0}, {0, 1, 0}, {0, 1, 0}};
    mf_quat q[3] = {{0, 0, 0, 1}, {0, 0, 0, 1}, {0, 0, 0, 1}};
    assert_int_equal(mf_humanoid_skeleton_from_arrays(3, NULL, bad_parents, t, q, NULL, &s, &d), MF_ERR_INVALID);
    assert_null(s);
    assert_string_equal(d.where, "bones[1]");
    t[2].y = NAN;
    int32_t parents[] = {-1, 0, 1};
    assert_int_equal(mf_humanoid_skeleton_from_arrays(3, NULL, parents, t, q, NULL, &s, &d), MF_ERR_INVALID);
    assert_contains(d.message, "not finite");
    /* unnamed and duplicate names get unique display names; find knows both spellings */
    t[2].y = 1;
    const char *names[] = {"", "Bone", "Bone"};
    assert_int_equal(mf_humanoid_skeleton_from_arrays(3, names, parents, t, q, NULL, &s, &d), MF_OK);
    assert_string_equal(s->names[0], "#0");
    assert_string_equal(s->names[1], "Bone#1");
    assert_string_equal(s->names[2], "Bone#2");
    assert_int_equal(mf_humanoid_skeleton_find(s, "Bone#2"), 2);
    assert_int_equal(mf_humanoid_skeleton_find(s, "Bone"), 1);
    mf_humanoid_skeleton_free(s);

    /* a model without a skin is not rigged */
    mf_gltf *g = mf_gltf_create();
    g->node_count = 1;
    g->nodes = mf_gltf_alloc(g, sizeof(mf_gltf_node));
    g->nodes[0] = (mf_gltf_node){.parent = -1, .rotation = {0, 0, 0, 1}, .scale = {1, 1, 1}, .mesh = -1, .skin = -1};
    assert_int_equal(mf_humanoid_skeleton_from_gltf(g, -1, "static.glb", &s, &d), MF_ERR_INVALID);
    char msg[1200];
    mf_diag_format(&d, msg, sizeof msg);
    assert_string_equal(msg, "static.glb: skins: the model has no skin: it is not rigged, so it has no skeleton to map");
    mf_gltf_free(g);
}

/* ---- names ---- */

static void test_names(void **state)
{
    (void)state;
    static const struct { const char *name; const char *stem; char side; int kind; int bone; } CASES[] = {
        {"mixamorig:LeftUpLeg", "upleg", 'L', MF_HN_BONE, MF_HB_LEFT_UPPER_LEG},
        {"mixamorig1:RightForeArm", "forearm", 'R', MF_HN_BONE, MF_HB_RIGHT_LOWER_ARM},
        {"mixamorig:LeftHandIndex1", "handindex1", 'L', MF_HN_BONE, MF_HB_LEFT_INDEX_PROXIMAL},
        {"mixamorig:LeftHandThumb1", "handthumb1", 'L', MF_HN_BONE, MF_HB_LEFT_THUMB_METACARPAL},
        {"mixamorig:LeftHandPinky3", "handpinky3", 'L', MF_HN_BONE, MF_HB_LEFT_LITTLE_DISTAL},
        {"mixamorig:LeftHandIndex4", "handindex4", 'L', MF_HN_NONE, -1},
        {"mixamorig:HeadTop_End", "headtopend", 0, MF_HN_SKIP, -1},
        {"thigh_l", "thigh", 'L', MF_HN_BONE, MF_HB_LEFT_UPPER_LEG},
        {"upperarm_twist_01_r", "upperarmtwist1", 'R', MF_HN_SKIP, -1},
        {"ball_r", "ball", 'R', MF_HN_BONE, MF_HB_RIGHT_TOES},
        {"index_03_r", "index3", 'R', MF_HN_BONE, MF_HB_RIGHT_INDEX_DISTAL},
        {"spine_03", "spine3", 0, MF_HN_SPINE, -1},
        {"DEF-upper_arm.L", "upperarm", 'L', MF_HN_BONE, MF_HB_LEFT_UPPER_ARM},
        {"DEF-upper_arm.L.001", "upperarm1", 'L', MF_HN_NONE, -1},
        {"DEF-f_middle.02.R", "fmiddle2", 'R', MF_HN_BONE, MF_HB_RIGHT_MIDDLE_INTERMEDIATE},
        {"DEF-spine.003", "spine3", 0, MF_HN_RIGIFY_SPINE, -1},
        {"DEF-spine", "spine", 0, MF_HN_RIGIFY_SPINE, -1},
        {"ORG-thigh.L", "thigh", 'L', MF_HN_BONE, MF_HB_LEFT_UPPER_LEG},
        {"MCH-thigh_ik.L", "mchthighik", 'L', MF_HN_SKIP, -1},
        {"LHipJoint", "hipjoint", 'L', MF_HN_NONE, -1},
        {"LowerBack", "lowerback", 0, MF_HN_SPINE, -1},
        {"Neck1", "neck1", 0, MF_HN_NECK, -1},
        {"EndSite_LeftToeBase", "endsitetoebase", 'L', MF_HN_SKIP, -1},
        {"l_forearm", "forearm", 'L', MF_HN_BONE, MF_HB_LEFT_LOWER_ARM},
        {"Bip01 R Calf", "calf", 'R', MF_HN_BONE, MF_HB_RIGHT_LOWER_LEG},
        {"LeftLittleIntermediate", "littleintermediate", 'L', MF_HN_BONE, MF_HB_LEFT_LITTLE_INTERMEDIATE},
        {"RightThumbMetacarpal", "thumbmetacarpal", 'R', MF_HN_BONE, MF_HB_RIGHT_THUMB_METACARPAL},
        {"Bone.012", "bone12", 0, MF_HN_NONE, -1},
        {"", "", 0, MF_HN_NONE, -1},
    };
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        char stem[96], side;
        mf_hname_normalise(CASES[i].name, stem, sizeof stem, &side);
        mf_hname h = mf_hname_classify(CASES[i].name);
        if (strcmp(stem, CASES[i].stem) != 0 || side != CASES[i].side || (int)h.kind != CASES[i].kind ||
            (CASES[i].bone >= 0 && h.bone != CASES[i].bone))
            fail_msg("%s: stem %s side %c kind %d bone %d", CASES[i].name, stem, side ? side : '-', h.kind, h.bone);
    }
    assert_int_equal(mf_hname_classify("ORG-thigh.L").priority, 1);
    assert_int_equal(mf_hname_classify("DEF-thigh.L").priority, 2);
}

/* Random skeletons, some with humanoid names, some with every bone at one point: detection and
 * the joint space never crash, and whatever they accept converts both ways. */
static uint32_t rnd(uint32_t *st)
{
    *st = *st * 1664525u + 1013904223u;
    return *st >> 8;
}

static void test_random_skeletons(void **state)
{
    (void)state;
    static const char *const POOL[] = {"Hips", "Spine", "Spine1", "Spine2", "Neck", "Head", "LeftUpLeg", "LeftLeg",
                                       "LeftFoot", "LeftToeBase", "RightUpLeg", "RightLeg", "RightFoot", "LeftArm",
                                       "LeftForeArm", "LeftHand", "RightArm", "RightForeArm", "RightHand",
                                       "LeftShoulder", "DEF-spine", "DEF-spine.001", "thigh_l", "calf_r", "", "x"};
    uint32_t st = 12345;
    int complete = 0;
    for (int iter = 0; iter < 3000; iter++) {
        int32_t n = 1 + (int32_t)(rnd(&st) % 60);
        const char *names[60];
        int32_t parents[60];
        mf_vec3 t[60];
        mf_quat q[60];
        bool flat = rnd(&st) % 8 == 0;
        for (int32_t i = 0; i < n; i++) {
            names[i] = POOL[rnd(&st) % (sizeof POOL / sizeof POOL[0])];
            parents[i] = i == 0 ? -1 : (int32_t)(rnd(&st) % (uint32_t)(i + 1)) - 1;
            float s = flat ? 0 : 1;
            t[i] = mf_v3(s * ((float)(rnd(&st) % 200) / 100 - 1), s * ((float)(rnd(&st) % 200) / 100 - 1),
                         s * ((float)(rnd(&st) % 200) / 100 - 1));
            q[i] = mf_quat_normalize((mf_quat){(float)(rnd(&st) % 100), (float)(rnd(&st) % 100),
                                               (float)(rnd(&st) % 100), (float)(rnd(&st) % 100) + 1});
        }
        mf_humanoid_skeleton *s;
        mf_diag d;
        assert_int_equal(mf_humanoid_skeleton_from_arrays(n, names, parents, t, q, NULL, &s, &d), MF_OK);
        mf_humanoid_map m;
        if (mf_humanoid_detect(s, NULL, &m, &d) == MF_OK) {
            mf_humanoid_rig *r;
            assert_int_equal(mf_humanoid_rig_create(s, &m, &r, &d), MF_OK);
            complete++;
            mf_humanoid_pose rest;
            (void)mf_humanoid_rig_rest_pose(r, &rest, &d);
            mf_quat lq;
            mf_humanoid_angles a;
            for (int b = 0; b < MF_HB_COUNT; b++)
                if (mf_humanoid_to_local(r, (mf_humanoid_bone)b, (mf_humanoid_angles){20, 0, 0}, &lq, &d) == MF_OK)
                    assert_int_equal(mf_humanoid_from_local(r, (mf_humanoid_bone)b, lq, &a, &d), MF_OK);
            mf_humanoid_rig_free(r);
        }
        mf_humanoid_skeleton_free(s);
    }
    print_message("%d of 3000 random skeletons gave a complete map\n", complete);

    /* humanoids bent out of shape: bones moved, collapsed onto their parents, turned, extra
     * bones hung anywhere */
    static const char *const MIXAMO[R_COUNT] = {
        "Hips", "Spine", "Spine1", "Neck", "Head", "HeadTop_End", "LeftShoulder", "LeftArm", "LeftForeArm",
        "LeftHand", "LeftHand_End", "LeftUpLeg", "LeftLeg", "LeftFoot", "LeftToeBase", "LeftToe_End",
        "RightShoulder", "RightArm", "RightForeArm", "RightHand", "RightHand_End", "RightUpLeg", "RightLeg",
        "RightFoot", "RightToeBase", "RightToe_End"};
    complete = 0;
    for (int iter = 0; iter < 2000; iter++) {
        human h = make_human();
        int32_t n = R_COUNT + (int32_t)(rnd(&st) % 6);
        const char *names[R_COUNT + 6];
        int32_t parents[R_COUNT + 6];
        mf_vec3 t[R_COUNT + 6];
        mf_quat q[R_COUNT + 6];
        for (int32_t i = 0; i < n; i++) {
            bool extra = i >= R_COUNT;
            names[i] = extra ? "" : MIXAMO[i];
            parents[i] = extra ? (int32_t)(rnd(&st) % (uint32_t)i) : h.parent[i];
            t[i] = extra || parents[i] < 0 ? mf_v3(0.1f, 0, 0) : mf_v3_sub(h.pos[i], h.pos[h.parent[i]]);
            uint32_t what = rnd(&st) % 10;
            if (what == 0) t[i] = mf_v3(0, 0, 0);
            else if (what == 1) t[i] = mf_v3_scale(t[i], -1);
            q[i] = mf_quat_identity();
            if (rnd(&st) % 4 == 0)
                q[i] = mf_quat_axis_angle(mf_v3_normalize(mf_v3((float)(rnd(&st) % 7) - 3, 1, (float)(rnd(&st) % 5) - 2)),
                                          (float)(rnd(&st) % 628) / 100);
        }
        mf_humanoid_skeleton *s;
        mf_diag d;
        assert_int_equal(mf_humanoid_skeleton_from_arrays(n, names, parents, t, q, NULL, &s, &d), MF_OK);
        mf_humanoid_map m;
        if (mf_humanoid_detect(s, NULL, &m, &d) == MF_OK) {
            mf_humanoid_rig *r;
            assert_int_equal(mf_humanoid_rig_create(s, &m, &r, &d), MF_OK);
            complete++;
            mf_humanoid_pose rest;
            assert_int_equal(mf_humanoid_rig_rest_pose(r, &rest, &d), MF_OK);
            for (int b = 0; b < MF_HB_COUNT; b++) {
                mf_quat lq;
                mf_humanoid_angles a = {15, mf_humanoid_bone_is_hinge((mf_humanoid_bone)b) ? 0 : -10, 0}, back;
                if (mf_humanoid_to_local(r, (mf_humanoid_bone)b, a, &lq, &d) != MF_OK) continue;
                assert_int_equal(mf_humanoid_from_local(r, (mf_humanoid_bone)b, lq, &back, &d), MF_OK);
                assert_float_equal(back.flex, a.flex, 0.01);
                assert_float_equal(back.abduct, a.abduct, 0.01);
            }
            mf_humanoid_rig_free(r);
        }
        mf_humanoid_skeleton_free(s);
    }
    print_message("%d of 2000 bent humanoids gave a complete map\n", complete);
    assert_true(complete > 500);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mannequins_by_names), cmocka_unit_test(test_mannequins_by_structure),
        cmocka_unit_test(test_cmu),                  cmocka_unit_test(test_conventions),
        cmocka_unit_test(test_orientations),         cmocka_unit_test(test_overrides_win),
        cmocka_unit_test(test_override_errors),      cmocka_unit_test(test_missing_required),
        cmocka_unit_test(test_skeleton_errors),      cmocka_unit_test(test_names),
        cmocka_unit_test(test_random_skeletons),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
