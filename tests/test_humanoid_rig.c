/* The canonical joint space: angles ↔ local rotations round trips on T- and A-pose rests,
 * mirroring, hinges, the rest→T-pose correction (an A-pose rig's tpose is the T-pose rig's),
 * what positive angles do anatomically, hips offsets, rest pose, proportions. */
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mf/mf_gltf.h"
#include "mf/mf_humanoid.h"
#include "mf/mf_mannequin3d.h"

typedef struct fixture {
    mf_gltf *g;
    mf_humanoid_skeleton *s;
    mf_humanoid_map m;
    mf_humanoid_rig *r;
    char label[64];
} fixture;

static void open_rig(fixture *f, mf_gltf *g, const char *label)
{
    mf_diag d;
    f->g = g;
    snprintf(f->label, sizeof f->label, "%s", label);
    assert_int_equal(mf_humanoid_skeleton_from_gltf(g, -1, label, &f->s, &d), MF_OK);
    if (mf_humanoid_detect(f->s, NULL, &f->m, &d) != MF_OK) fail_msg("%s: %s", label, d.message);
    if (mf_humanoid_rig_create(f->s, &f->m, &f->r, &d) != MF_OK) fail_msg("%s: %s", label, d.message);
}

static void open_mannequin(fixture *f, mf_m3d_naming naming, mf_m3d_rest rest)
{
    mf_gltf *g;
    mf_diag d;
    assert_int_equal(mf_mannequin3d_create(naming, rest, &g, &d), MF_OK);
    char label[64];
    snprintf(label, sizeof label, "%s-%s", mf_m3d_naming_name(naming), mf_m3d_rest_name(rest));
    open_rig(f, g, label);
}

static void close_rig(fixture *f)
{
    mf_humanoid_rig_free(f->r);
    mf_humanoid_skeleton_free(f->s);
    mf_gltf_free(f->g);
}

/* World matrices of every rig bone for a canonical pose. */
static mf_mat4 *pose_world(const fixture *f, const mf_humanoid_pose *p)
{
    int32_t n = f->s->bone_count;
    mf_vec3 *t = malloc(sizeof(mf_vec3) * (size_t)n);
    mf_quat *q = malloc(sizeof(mf_quat) * (size_t)n);
    mf_mat4 *w = malloc(sizeof(mf_mat4) * (size_t)n);
    mf_diag d;
    if (mf_humanoid_pose_to_locals(f->r, p, t, q, &d) != MF_OK) fail_msg("%s: %s", f->label, d.message);
    mf_humanoid_skeleton_pose_world(f->s, t, q, NULL, w);
    free(t);
    free(q);
    return w;
}

static mf_vec3 pos_of(const mf_mat4 *w) { return mf_v3(w->m[12], w->m[13], w->m[14]); }

/* World position of a canonical bone's pivot. */
static mf_vec3 bone_pos(const fixture *f, const mf_mat4 *w, mf_humanoid_bone b)
{
    int32_t i = mf_humanoid_rig_bone(f->r, b);
    assert_true(i >= 0);
    return pos_of(&w[i]);
}

static mf_vec3 dir(const fixture *f, const mf_mat4 *w, mf_humanoid_bone from, mf_humanoid_bone to)
{
    return mf_v3_normalize(mf_v3_sub(bone_pos(f, w, to), bone_pos(f, w, from)));
}

static void near3(mf_vec3 a, mf_vec3 b, float eps, const char *what)
{
    if (fabsf(a.x - b.x) > eps || fabsf(a.y - b.y) > eps || fabsf(a.z - b.z) > eps)
        fail_msg("%s: (%g %g %g) vs (%g %g %g)", what, (double)a.x, (double)a.y, (double)a.z, (double)b.x,
                 (double)b.y, (double)b.z);
}

static float angle_diff(float a, float b)
{
    float d = fmodf(a - b, 360.0f);
    if (d > 180) d -= 360;
    if (d < -180) d += 360;
    return fabsf(d);
}

/* ---- round trips ---- */

static const float FRACTIONS[] = {0.02f, 0.2f, 0.37f, 0.5f, 0.66f, 0.85f, 0.98f};
#define NF ((int)(sizeof FRACTIONS / sizeof FRACTIONS[0]))

static float lerp_limit(const mf_humanoid_limit *l, int c, float t) { return l->min[c] + (l->max[c] - l->min[c]) * t; }

/* angles → local → angles for every mapped bone and a grid of triples inside the limits. */
static int round_trips(const fixture *f, float *worst)
{
    int count = 0;
    mf_diag d;
    for (int b = 0; b < MF_HB_COUNT; b++) {
        if (mf_humanoid_rig_bone(f->r, (mf_humanoid_bone)b) < 0) continue;
        const mf_humanoid_limit *l = mf_humanoid_limits((mf_humanoid_bone)b);
        bool hinge = mf_humanoid_bone_is_hinge((mf_humanoid_bone)b);
        for (int i = 0; i < NF; i++)
            for (int j = 0; j < (hinge ? 1 : NF); j++)
                for (int k = 0; k < (hinge ? 1 : NF); k++) {
                    mf_humanoid_angles a = {lerp_limit(l, 0, FRACTIONS[i]), hinge ? 0 : lerp_limit(l, 1, FRACTIONS[j]),
                                            hinge ? 0 : lerp_limit(l, 2, FRACTIONS[k])};
                    mf_quat q;
                    mf_humanoid_angles back;
                    if (mf_humanoid_to_local(f->r, (mf_humanoid_bone)b, a, &q, &d) != MF_OK) fail_msg("%s", d.message);
                    float len = sqrtf(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
                    assert_float_equal(len, 1, 1e-5);
                    assert_int_equal(mf_humanoid_from_local(f->r, (mf_humanoid_bone)b, q, &back, &d), MF_OK);
                    float e = fmaxf(angle_diff(a.flex, back.flex),
                                    fmaxf(angle_diff(a.abduct, back.abduct), angle_diff(a.twist, back.twist)));
                    if (e > *worst) *worst = e;
                    if (e > 0.01f)
                        fail_msg("%s %s: (%g %g %g) came back as (%g %g %g)", f->label,
                                 mf_humanoid_bone_name((mf_humanoid_bone)b), (double)a.flex, (double)a.abduct,
                                 (double)a.twist, (double)back.flex, (double)back.abduct, (double)back.twist);
                    count++;
                }
    }
    return count;
}

static void test_round_trips(void **state)
{
    (void)state;
    float worst = 0;
    int count = 0;
    for (int n = 0; n < MF_M3D_NAMING_COUNT; n++)
        for (int r = 0; r < MF_M3D_REST_COUNT; r++) {
            fixture f;
            open_mannequin(&f, n, r);
            count += round_trips(&f, &worst);
            close_rig(&f);
        }
    print_message("%d round trips, worst %.6f degrees\n", count, (double)worst);
    assert_true(count > 10000);
}

static const char *cmu_path(void)
{
    static char path[4096];
    const char *shared = tu_shared();
    snprintf(path, sizeof path, "%s/humanoid-corpus/cmu-01_01.glb", shared ? shared : "");
    FILE *f = shared ? fopen(path, "rb") : NULL;
    if (!f) return NULL;
    fclose(f);
    return path;
}

static void test_cmu_round_trips(void **state)
{
    (void)state;
    const char *path = cmu_path();
    if (!path) {
        print_message("skipped: the shared humanoid corpus (cmu-01_01.glb) is absent\n");
        skip();
    }
    mf_gltf *g;
    mf_diag d;
    assert_int_equal(mf_gltf_load(path, &g, &d), MF_OK);
    fixture f;
    open_rig(&f, g, "cmu");
    float worst = 0;
    assert_true(round_trips(&f, &worst) > 1000);
    /* a T-pose skeleton; legs splayed outward at rest read as hip abduction */
    float arm;
    assert_int_equal(mf_humanoid_rig_rest_kind(f.r, &arm), MF_REST_T);
    mf_humanoid_pose rest;
    assert_int_equal(mf_humanoid_rig_rest_pose(f.r, &rest, &d), MF_OK);
    assert_true(rest.joint[MF_HB_LEFT_UPPER_LEG].abduct > 10);
    assert_true(rest.joint[MF_HB_RIGHT_UPPER_LEG].abduct > 10);
    close_rig(&f);
}

/* ---- mirroring ---- */

/* The world rotation a bone's local rotation makes relative to its T-pose. */
static mf_quat world_delta(const fixture *f, mf_humanoid_bone b, mf_quat local)
{
    int32_t i = mf_humanoid_rig_bone(f->r, b), p = f->s->parents[i];
    mf_quat tp;
    if (p >= 0) tp = mf_humanoid_rig_tpose_world(f->r, p);
    else mf_mat4_to_trs(&f->s->parent_world[i], NULL, &tp, NULL);
    return mf_quat_mul(mf_quat_mul(tp, local), mf_quat_conjugate(mf_humanoid_rig_tpose_world(f->r, i)));
}

static mf_quat reflect_x(mf_quat q) { return (mf_quat){q.x, -q.y, -q.z, q.w}; }

/* Largest component difference of two rotations (q and -q are the same rotation). */
static float quat_distance(mf_quat a, mf_quat b)
{
    if (a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w < 0) b = (mf_quat){-b.x, -b.y, -b.z, -b.w};
    return fmaxf(fmaxf(fabsf(a.x - b.x), fabsf(a.y - b.y)), fmaxf(fabsf(a.z - b.z), fabsf(a.w - b.w)));
}

static void test_mirror(void **state)
{
    (void)state;
    static const mf_humanoid_angles A[] = {{30, 0, 0}, {0, 25, 0}, {0, 0, 20}, {40, -20, 15}, {-15, 10, -25}};
    for (int n = MF_M3D_MIXAMO; n <= MF_M3D_BLENDER; n += 2) /* Mixamo and Blender's odd local axes */
        for (int r = 0; r < MF_M3D_REST_COUNT; r++) {
            fixture f;
            open_mannequin(&f, n, r);
            mf_diag d;
            for (int b = 0; b < MF_HB_COUNT; b++) {
                mf_humanoid_bone m = mf_humanoid_bone_mirror((mf_humanoid_bone)b);
                if (mf_humanoid_bone_side((mf_humanoid_bone)b) == MF_HSIDE_RIGHT ||
                    mf_humanoid_rig_bone(f.r, (mf_humanoid_bone)b) < 0 || mf_humanoid_rig_bone(f.r, m) < 0)
                    continue;
                for (size_t k = 0; k < sizeof A / sizeof A[0]; k++) {
                    mf_humanoid_angles a = A[k];
                    if (mf_humanoid_bone_is_hinge((mf_humanoid_bone)b)) a.abduct = a.twist = 0;
                    mf_quat ql, qr;
                    assert_int_equal(mf_humanoid_to_local(f.r, (mf_humanoid_bone)b, a, &ql, &d), MF_OK);
                    assert_int_equal(mf_humanoid_to_local(f.r, m, mf_humanoid_angles_mirror((mf_humanoid_bone)b, a), &qr, &d),
                                     MF_OK);
                    float e = quat_distance(reflect_x(world_delta(&f, (mf_humanoid_bone)b, ql)), world_delta(&f, m, qr));
                    if (e > 2e-6f)
                        fail_msg("%s %s: mirrored rotation off by %g", f.label,
                                 mf_humanoid_bone_name((mf_humanoid_bone)b), (double)e);
                }
            }
            /* a whole pose and its mirror image: every joint lands at the mirrored place */
            mf_humanoid_pose p = {0}, pm = {0};
            p.joint[MF_HB_LEFT_UPPER_ARM] = (mf_humanoid_angles){35, -60, 20};
            p.joint[MF_HB_LEFT_LOWER_ARM] = (mf_humanoid_angles){70, 0, 0};
            p.joint[MF_HB_LEFT_HAND] = (mf_humanoid_angles){20, 10, -30};
            p.joint[MF_HB_LEFT_UPPER_LEG] = (mf_humanoid_angles){60, 15, -10};
            p.joint[MF_HB_LEFT_LOWER_LEG] = (mf_humanoid_angles){80, 0, 0};
            p.joint[MF_HB_LEFT_FOOT] = (mf_humanoid_angles){-20, 5, 5};
            p.joint[MF_HB_SPINE] = (mf_humanoid_angles){10, 12, 8};
            p.joint[MF_HB_HIPS] = (mf_humanoid_angles){5, 7, 30};
            p.hips_offset = mf_v3(0.05f, -0.1f, 0.02f);
            for (int b = 0; b < MF_HB_COUNT; b++)
                pm.joint[mf_humanoid_bone_mirror((mf_humanoid_bone)b)] =
                    mf_humanoid_angles_mirror((mf_humanoid_bone)b, p.joint[b]);
            pm.hips_offset = mf_v3(-p.hips_offset.x, p.hips_offset.y, p.hips_offset.z);
            mf_mat4 *w = pose_world(&f, &p), *wm = pose_world(&f, &pm);
            for (int b = 0; b < MF_HB_COUNT; b++) {
                if (mf_humanoid_rig_bone(f.r, (mf_humanoid_bone)b) < 0) continue;
                mf_vec3 a = bone_pos(&f, w, (mf_humanoid_bone)b);
                mf_vec3 c = bone_pos(&f, wm, mf_humanoid_bone_mirror((mf_humanoid_bone)b));
                near3(mf_v3(-a.x, a.y, a.z), c, 2e-5f, mf_humanoid_bone_name((mf_humanoid_bone)b));
            }
            free(w);
            free(wm);
            close_rig(&f);
        }
}

/* ---- hinges and errors ---- */

static void test_hinge(void **state)
{
    (void)state;
    fixture f;
    open_mannequin(&f, MF_M3D_UNREAL, MF_M3D_APOSE);
    mf_quat q;
    mf_diag d;
    char msg[1200];
    assert_int_equal(mf_humanoid_to_local(f.r, MF_HB_LEFT_LOWER_LEG, (mf_humanoid_angles){30, 5, 0}, &q, &d),
                     MF_ERR_INVALID);
    mf_diag_format(&d, msg, sizeof msg);
    assert_string_equal(msg, "unreal-apose: LeftLowerLeg: LeftLowerLeg is a hinge: it takes flex only (got abduct 5, "
                             "twist 0)");
    assert_int_equal(mf_humanoid_to_local(f.r, MF_HB_RIGHT_LOWER_ARM, (mf_humanoid_angles){30, 0, -2}, &q, &d),
                     MF_ERR_INVALID);
    assert_contains(d.message, "RightLowerArm is a hinge");
    assert_int_equal(mf_humanoid_to_local(f.r, MF_HB_RIGHT_LOWER_ARM, (mf_humanoid_angles){30, 0, 0}, &q, &d), MF_OK);
    /* off-hinge motion read back from a rotation shows up in abduct/twist: turn a flexed elbow
     * about its abduct axis in world space */
    int32_t elbow = mf_humanoid_rig_bone(f.r, MF_HB_RIGHT_LOWER_ARM);
    mf_vec3 twist_axis, abduct_axis, flex_axis;
    assert_true(mf_humanoid_rig_frame(f.r, MF_HB_RIGHT_LOWER_ARM, &twist_axis, &abduct_axis, &flex_axis));
    mf_quat parent = mf_humanoid_rig_tpose_world(f.r, f.s->parents[elbow]);
    mf_quat off = mf_quat_mul(mf_quat_mul(mf_quat_conjugate(parent), mf_quat_axis_angle(abduct_axis, 0.3f)), parent);
    mf_humanoid_angles a;
    assert_int_equal(mf_humanoid_from_local(f.r, MF_HB_RIGHT_LOWER_ARM, mf_quat_mul(off, q), &a, &d), MF_OK);
    assert_float_equal(a.flex, 30, 1e-3);
    assert_float_equal(a.abduct, 0.3 * 57.29578, 1e-3);
    assert_float_equal(a.twist, 0, 1e-3);
    /* an unmapped bone */
    assert_int_equal(mf_humanoid_to_local(f.r, MF_HB_LEFT_RING_PROXIMAL, (mf_humanoid_angles){10, 0, 0}, &q, &d),
                     MF_ERR_INVALID);
    assert_contains(d.message, "LeftRingProximal is not mapped on this rig");
    assert_int_equal(mf_humanoid_to_local(f.r, MF_HB_NECK, (mf_humanoid_angles){NAN, 0, 0}, &q, &d), MF_ERR_INVALID);
    close_rig(&f);
}

/* ---- rest → T-pose correction ---- */

static void test_apose_takes_tpose_angles(void **state)
{
    (void)state;
    mf_humanoid_pose_set *poses;
    mf_diag d;
    assert_int_equal(mf_humanoid_poses_builtin(&poses, &d), MF_OK);
    for (int n = 0; n < MF_M3D_NAMING_COUNT; n++)
        for (int pi = 0; pi < poses->count; pi++) {
            const mf_humanoid_named_pose *np = &poses->poses[pi];
            if (np->from_rest) continue;
            fixture t, a;
            open_mannequin(&t, n, MF_M3D_TPOSE);
            open_mannequin(&a, n, MF_M3D_APOSE);
            mf_humanoid_pose p;
            assert_int_equal(mf_humanoid_pose_resolve(np, t.r, &p, &d), MF_OK);
            mf_mat4 *wt = pose_world(&t, &p), *wa = pose_world(&a, &p);
            /* every node (mapped or not, finger tips included) in the same place and every bone
             * pointing the same way */
            assert_int_equal(t.s->bone_count, a.s->bone_count);
            for (int32_t i = 0; i < t.s->bone_count; i++) {
                char what[96];
                snprintf(what, sizeof what, "%s %s: %s", t.label, np->name, t.s->names[i]);
                near3(pos_of(&wt[i]), pos_of(&wa[i]), 1e-4f, what);
            }
            for (int b = 0; b < MF_HB_COUNT; b++) {
                int32_t i = mf_humanoid_rig_bone(t.r, (mf_humanoid_bone)b);
                if (i < 0) continue;
                mf_quat qt, qa;
                mf_mat4_to_trs(&wt[i], NULL, &qt, NULL);
                mf_mat4_to_trs(&wa[i], NULL, &qa, NULL);
                if (quat_distance(qt, qa) > 1e-5f)
                    fail_msg("%s %s: %s turned differently", t.label, np->name, mf_humanoid_bone_name((mf_humanoid_bone)b));
            }
            if (strcmp(np->name, "tpose") == 0) { /* the canonical T-pose itself */
                near3(dir(&a, wa, MF_HB_LEFT_UPPER_ARM, MF_HB_LEFT_LOWER_ARM), mf_v3(1, 0, 0), 1e-5f, "left arm");
                near3(dir(&a, wa, MF_HB_RIGHT_LOWER_ARM, MF_HB_RIGHT_HAND), mf_v3(-1, 0, 0), 1e-5f, "right forearm");
                near3(dir(&a, wa, MF_HB_LEFT_UPPER_LEG, MF_HB_LEFT_LOWER_LEG), mf_v3(0, -1, 0), 1e-5f, "left thigh");
                near3(dir(&a, wa, MF_HB_SPINE, MF_HB_CHEST), mf_v3(0, 1, 0), 1e-5f, "spine");
            }
            free(wt);
            free(wa);
            close_rig(&t);
            close_rig(&a);
        }
    mf_humanoid_poses_free(poses);
}

/* ---- what positive angles mean ---- */

static mf_mat4 *pose_one(const fixture *f, mf_humanoid_bone b, mf_humanoid_angles a)
{
    mf_humanoid_pose p = {0};
    p.joint[b] = a;
    return pose_world(f, &p);
}

static void test_anatomy(void **state)
{
    (void)state;
    static const struct { mf_humanoid_bone bone, from, to; mf_humanoid_angles a; mf_vec3 want; } CASES[] = {
        /* hip flexion swings the thigh forward; knee flexion takes the shin back */
        {MF_HB_LEFT_UPPER_LEG, MF_HB_LEFT_UPPER_LEG, MF_HB_LEFT_LOWER_LEG, {90, 0, 0}, {0, 0, 1}},
        {MF_HB_RIGHT_UPPER_LEG, MF_HB_RIGHT_UPPER_LEG, MF_HB_RIGHT_LOWER_LEG, {90, 0, 0}, {0, 0, 1}},
        {MF_HB_LEFT_LOWER_LEG, MF_HB_LEFT_LOWER_LEG, MF_HB_LEFT_FOOT, {90, 0, 0}, {0, 0, -1}},
        {MF_HB_RIGHT_LOWER_LEG, MF_HB_RIGHT_LOWER_LEG, MF_HB_RIGHT_FOOT, {90, 0, 0}, {0, 0, -1}},
        /* hip abduction lifts the leg sideways, away from the midline */
        {MF_HB_LEFT_UPPER_LEG, MF_HB_LEFT_UPPER_LEG, MF_HB_LEFT_LOWER_LEG, {0, 90, 0}, {1, 0, 0}},
        {MF_HB_RIGHT_UPPER_LEG, MF_HB_RIGHT_UPPER_LEG, MF_HB_RIGHT_LOWER_LEG, {0, 90, 0}, {-1, 0, 0}},
        /* shoulder: flexion forward, abduction up, negative abduction down to the side */
        {MF_HB_LEFT_UPPER_ARM, MF_HB_LEFT_UPPER_ARM, MF_HB_LEFT_LOWER_ARM, {90, 0, 0}, {0, 0, 1}},
        {MF_HB_RIGHT_UPPER_ARM, MF_HB_RIGHT_UPPER_ARM, MF_HB_RIGHT_LOWER_ARM, {90, 0, 0}, {0, 0, 1}},
        {MF_HB_LEFT_UPPER_ARM, MF_HB_LEFT_UPPER_ARM, MF_HB_LEFT_LOWER_ARM, {0, 90, 0}, {0, 1, 0}},
        {MF_HB_RIGHT_UPPER_ARM, MF_HB_RIGHT_UPPER_ARM, MF_HB_RIGHT_LOWER_ARM, {0, -90, 0}, {0, -1, 0}},
        /* elbow flexion brings the hand forward (palms down) */
        {MF_HB_LEFT_LOWER_ARM, MF_HB_LEFT_LOWER_ARM, MF_HB_LEFT_HAND, {90, 0, 0}, {0, 0, 1}},
        {MF_HB_RIGHT_LOWER_ARM, MF_HB_RIGHT_LOWER_ARM, MF_HB_RIGHT_HAND, {90, 0, 0}, {0, 0, 1}},
        /* spine and neck flexion bend forward; abduct leans left */
        {MF_HB_SPINE, MF_HB_SPINE, MF_HB_CHEST, {90, 0, 0}, {0, 0, 1}},
        {MF_HB_NECK, MF_HB_NECK, MF_HB_HEAD, {90, 0, 0}, {0, 0, 1}},
        {MF_HB_SPINE, MF_HB_SPINE, MF_HB_CHEST, {0, 90, 0}, {1, 0, 0}},
        /* hips pitch leans forward */
        {MF_HB_HIPS, MF_HB_SPINE, MF_HB_CHEST, {90, 0, 0}, {0, 0, 1}},
        /* a foot's angles leave the shin where it was */
        {MF_HB_LEFT_FOOT, MF_HB_LEFT_LOWER_LEG, MF_HB_LEFT_FOOT, {25, 10, 5}, {0, -1, 0}},
    };
    for (int n = MF_M3D_MIXAMO; n <= MF_M3D_BLENDER; n++)
        for (int r = 0; r < MF_M3D_REST_COUNT; r++) {
            fixture f;
            open_mannequin(&f, n, r);
            for (size_t k = 0; k < sizeof CASES / sizeof CASES[0]; k++) {
                mf_mat4 *w = pose_one(&f, CASES[k].bone, CASES[k].a);
                char what[96];
                snprintf(what, sizeof what, "%s %s case %d", f.label, mf_humanoid_bone_name(CASES[k].bone), (int)k);
                near3(dir(&f, w, CASES[k].from, CASES[k].to), CASES[k].want, 1e-4f, what);
                free(w);
            }
            /* toes up: the ball rises relative to the ankle */
            mf_mat4 *w0 = pose_one(&f, MF_HB_LEFT_FOOT, (mf_humanoid_angles){0, 0, 0});
            mf_mat4 *w1 = pose_one(&f, MF_HB_LEFT_FOOT, (mf_humanoid_angles){20, 0, 0});
            assert_true(bone_pos(&f, w1, MF_HB_LEFT_TOES).y > bone_pos(&f, w0, MF_HB_LEFT_TOES).y + 0.02f);
            free(w1);
            /* hips yaw turns the character to its left: the toes swing towards +X */
            w1 = pose_one(&f, MF_HB_HIPS, (mf_humanoid_angles){0, 0, 30});
            assert_true(bone_pos(&f, w1, MF_HB_LEFT_TOES).x - bone_pos(&f, w1, MF_HB_LEFT_FOOT).x > 0.03f);
            free(w1);
            /* internal rotation of the shoulder takes a bent forearm down */
            mf_humanoid_pose p = {0};
            p.joint[MF_HB_LEFT_LOWER_ARM].flex = 90;
            p.joint[MF_HB_LEFT_UPPER_ARM].twist = 90;
            p.joint[MF_HB_RIGHT_LOWER_ARM].flex = 90;
            p.joint[MF_HB_RIGHT_UPPER_ARM].twist = 90;
            w1 = pose_world(&f, &p);
            near3(dir(&f, w1, MF_HB_LEFT_LOWER_ARM, MF_HB_LEFT_HAND), mf_v3(0, -1, 0), 1e-4f, "left internal rotation");
            near3(dir(&f, w1, MF_HB_RIGHT_LOWER_ARM, MF_HB_RIGHT_HAND), mf_v3(0, -1, 0), 1e-4f, "right internal rotation");
            free(w1);
            free(w0);
            close_rig(&f);
        }
}

/* ---- hips, rest pose, proportions ---- */

static void test_hips_and_rest(void **state)
{
    (void)state;
    for (int n = 0; n < MF_M3D_NAMING_COUNT; n++)
        for (int r = 0; r < MF_M3D_REST_COUNT; r++) {
            fixture f;
            open_mannequin(&f, n, r);
            mf_diag d;
            /* hips offset: metres in character axes, both ways */
            mf_vec3 off = mf_v3(0.1f, -0.25f, 0.3f);
            mf_vec3 lt = mf_humanoid_hips_offset_to_local(f.r, off);
            near3(mf_humanoid_hips_offset_from_local(f.r, lt), off, 1e-5f, "hips offset");
            mf_humanoid_pose p = {0};
            mf_mat4 *w0 = pose_world(&f, &p);
            p.hips_offset = off;
            mf_mat4 *w1 = pose_world(&f, &p);
            near3(mf_v3_sub(bone_pos(&f, w1, MF_HB_HIPS), bone_pos(&f, w0, MF_HB_HIPS)), off, 1e-5f, "hips moved");
            free(w0);
            free(w1);
            /* the rest pose converted and applied gives the rest rotations back */
            mf_humanoid_pose rest;
            assert_int_equal(mf_humanoid_rig_rest_pose(f.r, &rest, &d), MF_OK);
            mf_vec3 *t = malloc(sizeof(mf_vec3) * (size_t)f.s->bone_count);
            mf_quat *q = malloc(sizeof(mf_quat) * (size_t)f.s->bone_count);
            assert_int_equal(mf_humanoid_pose_to_locals(f.r, &rest, t, q, &d), MF_OK);
            for (int32_t i = 0; i < f.s->bone_count; i++) {
                assert_true(quat_distance(q[i], f.s->rest_rotation[i]) < 2e-6f);
                near3(t[i], f.s->rest_translation[i], 1e-6f, "rest translation");
            }
            free(t);
            free(q);
            float arm;
            mf_humanoid_rest_kind kind = mf_humanoid_rig_rest_kind(f.r, &arm);
            if (r == MF_M3D_TPOSE) {
                assert_int_equal(kind, MF_REST_T);
                assert_float_equal(arm, 0, 0.5);
                assert_float_equal(rest.joint[MF_HB_LEFT_UPPER_ARM].abduct, 0, 0.05);
            } else {
                assert_int_equal(kind, MF_REST_A);
                assert_float_equal(arm, 45, 0.5);
                assert_float_equal(rest.joint[MF_HB_LEFT_UPPER_ARM].abduct, -45, 0.05);
                assert_float_equal(rest.joint[MF_HB_RIGHT_UPPER_ARM].abduct, -45, 0.05);
            }
            /* proportions against the model's own node positions */
            mf_humanoid_proportions pr = mf_humanoid_rig_proportions(f.r);
            mf_vec3 pos[MF_HB_COUNT];
            for (int b = 0; b < MF_HB_COUNT; b++) {
                int32_t node = mf_mannequin3d_node(n, mf_humanoid_bone_name((mf_humanoid_bone)b));
                mf_mat4 m = mf_gltf_node_world(f.g, node);
                pos[b] = pos_of(&m);
            }
            float sw = mf_v3_length(mf_v3_sub(pos[MF_HB_LEFT_UPPER_ARM], pos[MF_HB_RIGHT_UPPER_ARM]));
            float leg = mf_v3_length(mf_v3_sub(pos[MF_HB_LEFT_LOWER_LEG], pos[MF_HB_LEFT_UPPER_LEG])) +
                        mf_v3_length(mf_v3_sub(pos[MF_HB_LEFT_FOOT], pos[MF_HB_LEFT_LOWER_LEG]));
            float armlen = mf_v3_length(mf_v3_sub(pos[MF_HB_LEFT_LOWER_ARM], pos[MF_HB_LEFT_UPPER_ARM])) +
                           mf_v3_length(mf_v3_sub(pos[MF_HB_LEFT_HAND], pos[MF_HB_LEFT_LOWER_ARM]));
            assert_float_equal(pr.shoulder_width, sw, 1e-4);
            assert_float_equal(pr.leg_length, leg, 1e-4);
            assert_float_equal(pr.arm_length, armlen, 1e-4);
            assert_true(pr.height > 1.6f && pr.height < 1.9f);
            assert_true(pr.hip_height > 0.8f && pr.hip_height < 1.0f);
            close_rig(&f);
        }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trips),
        cmocka_unit_test(test_cmu_round_trips),
        cmocka_unit_test(test_mirror),
        cmocka_unit_test(test_hinge),
        cmocka_unit_test(test_apose_takes_tpose_angles),
        cmocka_unit_test(test_anatomy),
        cmocka_unit_test(test_hips_and_rest),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
