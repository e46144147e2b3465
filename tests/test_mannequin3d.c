/* The generated 3D mannequins, every naming × rest: skeleton shape and names, proportions and
 * orientation (Y up, facing +Z, left = +X), exact inverse bind matrices, rigid skinning, the
 * A-pose arm angle, Blender-style bone axes, the unnamed variant's shuffling, reproducibility. */
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mf/mf_mannequin3d.h"

#define DEG (180.0 / 3.14159265358979)

static const char *const k_required[] = {"Hips", "Spine", "Chest", "Neck", "Head", "LeftUpperLeg", "LeftLowerLeg",
                                         "LeftFoot", "LeftUpperArm", "LeftLowerArm", "LeftHand", "RightUpperLeg",
                                         "RightLowerLeg", "RightFoot", "RightUpperArm", "RightLowerArm", "RightHand", NULL};
/* canonical child → canonical parent */
static const char *const k_links[][2] = {
    {"Spine", "Hips"}, {"Chest", "Spine"}, {"UpperChest", "Chest"}, {"Neck", "UpperChest"}, {"Head", "Neck"},
    {"LeftShoulder", "UpperChest"}, {"LeftUpperArm", "LeftShoulder"}, {"LeftLowerArm", "LeftUpperArm"},
    {"LeftHand", "LeftLowerArm"}, {"LeftIndexProximal", "LeftHand"}, {"LeftIndexIntermediate", "LeftIndexProximal"},
    {"LeftThumbMetacarpal", "LeftHand"}, {"LeftThumbProximal", "LeftThumbMetacarpal"}, {"LeftUpperLeg", "Hips"},
    {"LeftLowerLeg", "LeftUpperLeg"}, {"LeftFoot", "LeftLowerLeg"}, {"LeftToes", "LeftFoot"},
    {"RightShoulder", "UpperChest"}, {"RightUpperArm", "RightShoulder"}, {"RightLowerArm", "RightUpperArm"},
    {"RightHand", "RightLowerArm"}, {"RightIndexProximal", "RightHand"}, {"RightThumbMetacarpal", "RightHand"},
    {"RightUpperLeg", "Hips"}, {"RightLowerLeg", "RightUpperLeg"}, {"RightFoot", "RightLowerLeg"},
    {"RightToes", "RightFoot"}};

static mf_gltf *make(mf_m3d_naming n, mf_m3d_rest r)
{
    mf_gltf *g = NULL;
    mf_diag d;
    assert_int_equal(mf_mannequin3d_create(n, r, &g, &d), MF_OK);
    assert_non_null(g);
    assert_int_equal(mf_gltf_validate(g, &d), MF_OK);
    return g;
}

static mf_vec3 world_pos(const mf_gltf *g, mf_m3d_naming n, const char *canon)
{
    int32_t i = mf_mannequin3d_node(n, canon);
    assert_true(i >= 0 && i < g->node_count);
    mf_mat4 w = mf_gltf_node_world(g, i);
    return mf_v3(w.m[12], w.m[13], w.m[14]);
}

static void test_skeleton_shape(void **state)
{
    (void)state;
    for (int n = 0; n < MF_M3D_NAMING_COUNT; n++)
        for (int r = 0; r < MF_M3D_REST_COUNT; r++) {
            mf_gltf *g = make((mf_m3d_naming)n, (mf_m3d_rest)r);
            for (int i = 0; k_required[i]; i++) assert_true(mf_mannequin3d_node((mf_m3d_naming)n, k_required[i]) >= 0);
            for (size_t i = 0; i < sizeof k_links / sizeof k_links[0]; i++) {
                int32_t c = mf_mannequin3d_node((mf_m3d_naming)n, k_links[i][0]);
                int32_t p = mf_mannequin3d_node((mf_m3d_naming)n, k_links[i][1]);
                assert_true(c >= 0 && p >= 0);
                if (g->nodes[c].parent != p)
                    fail_msg("%s: %s's parent is node %d, expected %s (%d)", mf_m3d_naming_name((mf_m3d_naming)n),
                             k_links[i][0], (int)g->nodes[c].parent, k_links[i][1], (int)p);
            }
            assert_int_equal(mf_mannequin3d_node((mf_m3d_naming)n, "Tail"), -1);
            assert_int_equal(g->skin_count, 1);
            assert_int_equal(g->mesh_count, 1);
            assert_int_equal(g->material_count, 1);
            assert_true(g->skins[0].joint_count >= 30);
            mf_gltf_free(g);
        }
    assert_int_equal(mf_mannequin3d_node(MF_M3D_MIXAMO, NULL), -1);
}

/* the rig's name for a canonical bone (in a static buffer) */
static const char *node_name(mf_m3d_naming n, const char *canon)
{
    static char name[64];
    mf_gltf *g = make(n, MF_M3D_TPOSE);
    const char *s = g->nodes[mf_mannequin3d_node(n, canon)].name;
    snprintf(name, sizeof name, "%s", s ? s : "(none)");
    mf_gltf_free(g);
    return name;
}

static void test_names(void **state)
{
    (void)state;
    assert_string_equal(node_name(MF_M3D_MIXAMO, "Hips"), "mixamorig:Hips");
    assert_string_equal(node_name(MF_M3D_MIXAMO, "LeftUpperLeg"), "mixamorig:LeftUpLeg");
    assert_string_equal(node_name(MF_M3D_MIXAMO, "RightLowerArm"), "mixamorig:RightForeArm");
    assert_string_equal(node_name(MF_M3D_MIXAMO, "UpperChest"), "mixamorig:Spine2");
    assert_string_equal(node_name(MF_M3D_MIXAMO, "LeftToes"), "mixamorig:LeftToeBase");
    assert_string_equal(node_name(MF_M3D_UNREAL, "Hips"), "pelvis");
    assert_string_equal(node_name(MF_M3D_UNREAL, "Spine"), "spine_01");
    assert_string_equal(node_name(MF_M3D_UNREAL, "RightUpperLeg"), "thigh_r");
    assert_string_equal(node_name(MF_M3D_UNREAL, "LeftLowerLeg"), "calf_l");
    assert_string_equal(node_name(MF_M3D_UNREAL, "LeftToes"), "ball_l");
    assert_string_equal(node_name(MF_M3D_BLENDER, "Hips"), "DEF-spine");
    assert_string_equal(node_name(MF_M3D_BLENDER, "Head"), "DEF-spine.005");
    assert_string_equal(node_name(MF_M3D_BLENDER, "RightUpperArm"), "DEF-upper_arm.R");
    assert_string_equal(node_name(MF_M3D_BLENDER, "LeftLowerLeg"), "DEF-shin.L");
    assert_string_equal(node_name(MF_M3D_BLENDER, "LeftIndexProximal"), "DEF-f_index.01.L");
    /* Unreal has a root bone above the pelvis; Blender an Armature object above the bones */
    mf_gltf *g = make(MF_M3D_UNREAL, MF_M3D_TPOSE);
    int32_t root = g->nodes[mf_mannequin3d_node(MF_M3D_UNREAL, "Hips")].parent;
    assert_true(root >= 0);
    assert_string_equal(g->nodes[root].name, "root");
    mf_gltf_free(g);
    g = make(MF_M3D_BLENDER, MF_M3D_TPOSE);
    assert_string_equal(g->nodes[g->nodes[mf_mannequin3d_node(MF_M3D_BLENDER, "Hips")].parent].name, "Armature");
    mf_gltf_free(g);
}

/* nothing in the unnamed variant's names tells a bone's role, and child order is not the table's */
static void test_unnamed(void **state)
{
    (void)state;
    static const char *const hints[] = {"Hip", "Spine", "Left", "Right", "Leg", "Arm", "Head", "Neck", "Foot", "Hand",
                                        "thigh", "pelvis", "spine", "DEF", NULL};
    mf_gltf *g = make(MF_M3D_UNNAMED, MF_M3D_TPOSE), *named = make(MF_M3D_MIXAMO, MF_M3D_TPOSE);
    int unnamed = 0, empty = 0, order_differs = 0, shuffled = 0;
    for (int32_t i = 0; i < g->node_count; i++) {
        const mf_gltf_node *nd = &g->nodes[i];
        if (!nd->name) unnamed++;
        else if (!nd->name[0]) empty++;
        for (int h = 0; nd->name && hints[h]; h++)
            if (strstr(nd->name, hints[h])) fail_msg("node %d is called \"%s\"", (int)i, nd->name);
        for (int32_t c = 1; c < nd->child_count; c++) shuffled += nd->children[c] < nd->children[c - 1];
    }
    assert_true(unnamed > 0);
    assert_true(empty > 0);
    assert_true(shuffled > 0);
    assert_int_equal(g->node_count, named->node_count); /* the same structure as the Mixamo rig … */
    for (int i = 0; k_required[i]; i++)
        order_differs += mf_mannequin3d_node(MF_M3D_UNNAMED, k_required[i]) != mf_mannequin3d_node(MF_M3D_MIXAMO, k_required[i]);
    assert_true(order_differs > 10); /* … in another node order */
    mf_gltf_free(g);
    mf_gltf_free(named);
}

static void test_proportions(void **state)
{
    (void)state;
    for (int n = 0; n < MF_M3D_NAMING_COUNT; n++)
        for (int r = 0; r < MF_M3D_REST_COUNT; r++) {
            mf_m3d_naming nm = (mf_m3d_naming)n;
            mf_gltf *g = make(nm, (mf_m3d_rest)r);
            mf_vec3 hips = world_pos(g, nm, "Hips");
            assert_float_equal(hips.y, 1.0, 0.1);
            assert_float_equal(hips.x, 0, 1e-5);
            for (int side = 0; side < 2; side++) {
                const char *foot = side ? "RightFoot" : "LeftFoot", *toes = side ? "RightToes" : "LeftToes";
                mf_vec3 f = world_pos(g, nm, foot), t = world_pos(g, nm, toes);
                assert_true(f.y > 0 && f.y < 0.15f);
                assert_true(t.z > f.z + 0.05f); /* toes point forward: the figure faces +Z */
            }
            /* left = +X, and the sides mirror each other */
            static const char *const pairs[][2] = {{"LeftUpperLeg", "RightUpperLeg"}, {"LeftFoot", "RightFoot"},
                                                   {"LeftUpperArm", "RightUpperArm"}, {"LeftHand", "RightHand"},
                                                   {"LeftIndexIntermediate", "RightIndexIntermediate"}};
            for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
                mf_vec3 l = world_pos(g, nm, pairs[i][0]), rr = world_pos(g, nm, pairs[i][1]);
                assert_true(l.x > 0.05f);
                assert_float_equal(l.x, -rr.x, 1e-5);
                assert_float_equal(l.y, rr.y, 1e-5);
                assert_float_equal(l.z, rr.z, 1e-5);
            }
            /* the mesh: about 1.8 m tall, standing on y = 0 */
            const mf_gltf_primitive *p = &g->meshes[0].primitives[0];
            float lo = 1e9f, hi = -1e9f;
            for (int32_t v = 0; v < p->vertex_count; v++) {
                lo = fminf(lo, p->positions[v * 3 + 1]);
                hi = fmaxf(hi, p->positions[v * 3 + 1]);
            }
            assert_float_equal(hi, 1.8, 0.08);
            assert_float_equal(lo, 0, 0.03);
            mf_gltf_free(g);
        }
}

/* inverse bind × joint world = identity, and skinning the rest pose leaves every vertex put */
static void test_bind_matrices(void **state)
{
    (void)state;
    for (int n = 0; n < MF_M3D_NAMING_COUNT; n++)
        for (int r = 0; r < MF_M3D_REST_COUNT; r++) {
            mf_gltf *g = make((mf_m3d_naming)n, (mf_m3d_rest)r);
            const mf_gltf_skin *sk = &g->skins[0];
            mf_mat4 *skin = malloc((size_t)sk->joint_count * sizeof *skin);
            for (int32_t j = 0; j < sk->joint_count; j++) {
                mf_mat4 w = mf_gltf_node_world(g, sk->joints[j]), ibm;
                memcpy(ibm.m, sk->inverse_bind_matrices + j * 16, sizeof ibm.m);
                skin[j] = mf_mat4_mul(&w, &ibm);
                for (int k = 0; k < 16; k++) assert_float_equal(skin[j].m[k], (k % 5 == 0) ? 1 : 0, 1e-5);
            }
            const mf_gltf_primitive *p = &g->meshes[0].primitives[0];
            assert_non_null(p->joints);
            for (int32_t v = 0; v < p->vertex_count; v++) {
                float sum = 0;
                mf_vec3 pos = mf_v3(p->positions[v * 3], p->positions[v * 3 + 1], p->positions[v * 3 + 2]), out = {0, 0, 0};
                for (int k = 0; k < 4; k++) {
                    float w = p->weights[v * 4 + k];
                    uint16_t j = p->joints[v * 4 + k];
                    assert_true(j < sk->joint_count);
                    sum += w;
                    out = mf_v3_add(out, mf_v3_scale(mf_mat4_point(&skin[j], pos), w));
                }
                assert_float_equal(sum, 1, 1e-6);
                assert_float_equal(out.x, pos.x, 1e-5);
                assert_float_equal(out.y, pos.y, 1e-5);
            }
            /* each box (24 vertices, 6 faces of 4) is weighted to the bone it surrounds: one of its
             * faces is centred on that bone's joint */
            assert_int_equal(p->vertex_count % 24, 0);
            for (int32_t box = 0; box < p->vertex_count / 24; box++) {
                uint16_t j = p->joints[box * 24 * 4];
                mf_mat4 w = mf_gltf_node_world(g, sk->joints[j]);
                mf_vec3 joint = mf_v3(w.m[12], w.m[13], w.m[14]);
                float best = 1e9f;
                for (int f = 0; f < 6; f++) {
                    mf_vec3 c = {0, 0, 0};
                    for (int k = 0; k < 4; k++) {
                        int32_t v = box * 24 + f * 4 + k;
                        assert_int_equal(p->joints[v * 4], j);
                        c = mf_v3_add(c, mf_v3_scale(mf_v3(p->positions[v * 3], p->positions[v * 3 + 1], p->positions[v * 3 + 2]), 0.25f));
                    }
                    best = fminf(best, mf_v3_length(mf_v3_sub(c, joint)));
                }
                assert_float_equal(best, 0, 1e-5);
            }
            free(skin);
            mf_gltf_free(g);
        }
}

static double arm_angle_down(const mf_gltf *g, mf_m3d_naming n, bool left)
{
    mf_vec3 a = world_pos(g, n, left ? "LeftUpperArm" : "RightUpperArm");
    mf_vec3 b = world_pos(g, n, left ? "LeftLowerArm" : "RightLowerArm");
    mf_vec3 d = mf_v3_sub(b, a);
    return atan2(-d.y, fabs(d.x)) * DEG;
}

static void test_rest_poses(void **state)
{
    (void)state;
    for (int n = 0; n < MF_M3D_NAMING_COUNT; n++) {
        mf_m3d_naming nm = (mf_m3d_naming)n;
        mf_gltf *t = make(nm, MF_M3D_TPOSE), *a = make(nm, MF_M3D_APOSE);
        for (int side = 0; side < 2; side++) {
            assert_float_equal(arm_angle_down(t, nm, side == 0), 0, 0.5);
            assert_float_equal(arm_angle_down(a, nm, side == 0), 45, 1.0);
            /* the whole arm follows: hand below the elbow below the shoulder */
            mf_vec3 elbow = world_pos(a, nm, side ? "RightLowerArm" : "LeftLowerArm");
            mf_vec3 hand = world_pos(a, nm, side ? "RightHand" : "LeftHand");
            assert_true(hand.y < elbow.y - 0.1f);
            assert_true(fabsf(hand.x) > fabsf(elbow.x));
        }
        /* legs and spine do not move between the rests */
        static const char *const same[] = {"Hips", "Head", "LeftFoot", "RightToes", "LeftUpperArm", NULL};
        for (int i = 0; same[i]; i++) {
            mf_vec3 p = world_pos(t, nm, same[i]), q = world_pos(a, nm, same[i]);
            assert_float_equal(mf_v3_length(mf_v3_sub(p, q)), 0, 1e-5);
        }
        mf_gltf_free(t);
        mf_gltf_free(a);
    }
}

/* Blender bones point along their local +Y; the other namings keep world-aligned T-pose frames */
static void test_bone_axes(void **state)
{
    (void)state;
    static const char *const bones[][2] = {{"LeftUpperLeg", "LeftLowerLeg"}, {"LeftUpperArm", "LeftLowerArm"},
                                           {"RightLowerArm", "RightHand"},   {"Spine", "Chest"},
                                           {"LeftFoot", "LeftToes"},         {"RightShoulder", "RightUpperArm"}};
    for (int r = 0; r < MF_M3D_REST_COUNT; r++) {
        mf_gltf *g = make(MF_M3D_BLENDER, (mf_m3d_rest)r);
        int non_identity = 0;
        for (size_t i = 0; i < sizeof bones / sizeof bones[0]; i++) {
            int32_t node = mf_mannequin3d_node(MF_M3D_BLENDER, bones[i][0]);
            mf_mat4 w = mf_gltf_node_world(g, node);
            mf_vec3 y = mf_v3_normalize(mf_mat4_direction(&w, mf_v3(0, 1, 0)));
            mf_vec3 dir = mf_v3_normalize(mf_v3_sub(world_pos(g, MF_M3D_BLENDER, bones[i][1]),
                                                    world_pos(g, MF_M3D_BLENDER, bones[i][0])));
            assert_float_equal(mf_v3_dot(y, dir), 1, 1e-4);
        }
        for (int32_t i = 0; i < g->node_count; i++) { /* world frames that are not the world axes */
            mf_mat4 w = mf_gltf_node_world(g, i);
            non_identity += fabsf(w.m[0] - 1) + fabsf(w.m[5] - 1) + fabsf(w.m[10] - 1) > 0.01f;
        }
        assert_true(non_identity > 20);
        mf_gltf_free(g);
    }
    mf_gltf *g = make(MF_M3D_MIXAMO, MF_M3D_TPOSE);
    for (int32_t i = 0; i < g->node_count; i++) assert_float_equal(g->nodes[i].rotation.w, 1, 1e-6);
    mf_gltf_free(g);
}

static void test_reproducible_and_round_trip(void **state)
{
    (void)state;
    for (int n = 0; n < MF_M3D_NAMING_COUNT; n++)
        for (int r = 0; r < MF_M3D_REST_COUNT; r++) {
            mf_gltf *a = make((mf_m3d_naming)n, (mf_m3d_rest)r), *b = make((mf_m3d_naming)n, (mf_m3d_rest)r);
            void *x, *y;
            size_t nx, ny;
            mf_diag d;
            assert_int_equal(mf_gltf_write(a, true, &x, &nx, &d), MF_OK);
            assert_int_equal(mf_gltf_write(b, true, &y, &ny, &d), MF_OK);
            assert_int_equal(nx, ny);
            assert_memory_equal(x, y, nx);
            mf_gltf *back;
            assert_int_equal(mf_gltf_parse(x, nx, "m.glb", &back, &d), MF_OK);
            char why[256];
            if (!mf_gltf_equal(a, back, 0, why, sizeof why)) fail_msg("%s", why);
            mf_gltf_free(back);
            free(x), free(y);
            mf_gltf_free(a);
            mf_gltf_free(b);
        }
    mf_gltf *g = NULL;
    mf_diag d;
    assert_int_equal(mf_mannequin3d_create((mf_m3d_naming)9, MF_M3D_TPOSE, &g, &d), MF_ERR_ARGUMENT);
    assert_null(g);
    assert_string_equal(mf_m3d_naming_name(MF_M3D_BLENDER), "blender");
    assert_string_equal(mf_m3d_rest_name(MF_M3D_APOSE), "apose");
}

/* the gen-humanoid tool writes every variant, and an independent loader reads them */
static void test_gen_tool(void **state)
{
    (void)state;
    char cmd[4200], *out = NULL;
    snprintf(cmd, sizeof cmd, "%s/mf_gen_humanoid %s", MF_BINARY_DIR, tu_tmpdir());
    int rc = tu_run(cmd, &out);
    if (rc != 0) fail_msg("%s: %d\n%s", cmd, rc, out);
    free(out);
    bool assimp = tu_run("command -v assimp >/dev/null", NULL) == 0;
    /* scripts/setup.sh installs it: its absence is a failure, not a skip */
    if (!assimp) fail_msg("assimp not on PATH: run scripts/setup.sh (Debian package assimp-utils)");
    for (int n = 0; n < MF_M3D_NAMING_COUNT; n++)
        for (int r = 0; r < MF_M3D_REST_COUNT; r++) {
            char name[64];
            snprintf(name, sizeof name, "mannequin-%s-%s.glb", mf_m3d_naming_name((mf_m3d_naming)n),
                     mf_m3d_rest_name((mf_m3d_rest)r));
            mf_gltf *g = NULL;
            mf_diag d;
            assert_int_equal(mf_gltf_load(tu_tmp(name), &g, &d), MF_OK);
            mf_gltf_free(g);
            if (!assimp) continue;
            snprintf(cmd, sizeof cmd, "assimp info '%s'", tu_tmp(name));
            rc = tu_run(cmd, &out);
            if (rc != 0) fail_msg("%s: %d\n%s", cmd, rc, out);
            assert_contains(out, "Meshes:             1");
            free(out);
        }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_skeleton_shape),   cmocka_unit_test(test_names),
        cmocka_unit_test(test_unnamed),          cmocka_unit_test(test_proportions),
        cmocka_unit_test(test_bind_matrices),    cmocka_unit_test(test_rest_poses),
        cmocka_unit_test(test_bone_axes),        cmocka_unit_test(test_reproducible_and_round_trip),
        cmocka_unit_test(test_gen_tool),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
