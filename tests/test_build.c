#define _POSIX_C_SOURCE 200809L
/* The runtime build: names resolved to indices, the update order, curve pre-sampling against
 * the exact bezier, dense deform keys, filled ik columns, draw orders, events, import scale,
 * determinism, the load round trip, located errors, mf_build_file and a size/time measurement.
 * The loader's corruption checks are in test_skel_data.c. */
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "mf/mf_build.h"
#include "mf/mf_clip.h"
#include "mf/mf_skel_data.h"
#include "mf/mf_skeleton.h"

/* A rig with every constraint kind that matters for the update order, a weighted mesh, a
 * linked mesh sharing deform keys, regions and events. */
static const char *RIG =
    "{ \"format\": 1, \"uid\": \"skl_7d1c40e2a9b3\", \"type\": \"Skeleton\", \"fps\": 30,\n"
    "  \"bones\": [\n"
    "    { \"name\": \"root\" },\n"
    "    { \"name\": \"hips\", \"parent\": \"root\", \"y\": -96, \"length\": 24 },\n"
    "    { \"name\": \"torso\", \"parent\": \"hips\", \"rot\": -90, \"length\": 64 },\n"
    "    { \"name\": \"thigh_l\", \"parent\": \"hips\", \"rot\": 95, \"length\": 42 },\n"
    "    { \"name\": \"shin_l\", \"parent\": \"thigh_l\", \"x\": 42, \"length\": 40 },\n"
    "    { \"name\": \"foot_l\", \"parent\": \"shin_l\", \"x\": 40 },\n"
    "    { \"name\": \"foot_l_target\", \"parent\": \"root\", \"x\": 8, \"y\": -2 },\n"
    "    { \"name\": \"head\", \"parent\": \"torso\", \"x\": 64 }\n"
    "  ],\n"
    "  \"slots\": [\n"
    "    { \"name\": \"leg_l\", \"bone\": \"thigh_l\", \"attachment\": \"leg_l\" },\n"
    "    { \"name\": \"body\", \"bone\": \"torso\", \"attachment\": \"body\" },\n"
    "    { \"name\": \"glow\", \"bone\": \"torso\", \"attachment\": \"glow\", \"blend\": \"Additive\", \"color\": \"#ffffffaa\" },\n"
    "    { \"name\": \"foot\", \"bone\": \"foot_l\", \"attachment\": \"foot\" }\n"
    "  ],\n"
    "  \"ik\": [ { \"name\": \"leg_l_ik\", \"order\": 1, \"bones\": [\"thigh_l\", \"shin_l\"], \"target\": \"foot_l_target\",\n"
    "            \"bend\": -1, \"mix\": 0.75, \"softness\": 3, \"stretch\": true } ],\n"
    "  \"transform\": [ { \"name\": \"aim\", \"order\": 0, \"bones\": [\"head\"], \"target\": \"foot_l\", \"mixRotate\": 0.5 } ],\n"
    "  \"path\": [],\n"
    "  \"physics\": [ { \"name\": \"bob\", \"order\": 2, \"bone\": \"foot_l\", \"rotate\": 1 } ],\n"
    "  \"events\": [ { \"name\": \"footstep\", \"int\": 1, \"float\": 0.5, \"string\": \"step\", \"volume\": 0.8 } ],\n"
    "  \"skins\": [\n"
    "    { \"name\": \"default\", \"attachments\": [\n"
    "        { \"slot\": \"body\", \"name\": \"body\", \"type\": \"Mesh\", \"image\": \"body\",\n"
    "          \"uvs\": [0, 0, 1, 0, 1, 1, 0, 1, 0.5, 0.5],\n"
    "          \"triangles\": [0, 1, 4, 1, 2, 4, 2, 3, 4, 3, 0, 4], \"hull\": 4,\n"
    "          \"weights\": { \"bones\": [\"hips\", \"torso\"],\n"
    "                       \"v\": [[0, 1.0, -40, 32], [0, 1.0, 40, 32], [1, 1.0, 40, -60], [1, 1.0, -40, -60],\n"
    "                             [0, 0.5, 0, -10, 1, 0.5, 0, 50]] } },\n"
    "        { \"slot\": \"leg_l\", \"name\": \"leg_l\", \"type\": \"Region\", \"x\": 20, \"rot\": 90, \"width\": 10, \"height\": 40 },\n"
    "        { \"slot\": \"glow\", \"name\": \"glow\", \"type\": \"Region\", \"width\": 8, \"height\": 8 },\n"
    "        { \"slot\": \"foot\", \"name\": \"foot\", \"type\": \"Region\", \"width\": 16, \"height\": 6 }\n"
    "      ] },\n"
    "    { \"name\": \"armor\", \"attachments\": [ { \"slot\": \"body\", \"name\": \"body\",\n"
    "        \"displayName\": \"knight/body-armor\", \"type\": \"LinkedMesh\",\n"
    "        \"parent\": \"body\", \"skin\": \"default\", \"image\": \"body_armor\", \"deform\": true } ] }\n"
    "  ]\n"
    "}\n";

static const char *CLIP =
    "{ \"format\": 1, \"uid\": \"anm_1f07c3a9e5d2\", \"type\": \"SkeletonClip\",\n"
    "  \"skeleton\": { \"uid\": \"skl_7d1c40e2a9b3\" }, \"length\": 0.8, \"fps\": 30, \"loop\": \"Linear\",\n"
    "  \"bones\": {\n"
    "    \"thigh_l\": { \"rotate\": { \"t\": [0, 0.4, 0.8], \"v\": [0, 35, 0], \"curve\": [[0.25, 0, 0.75, 1], [0.25, 0, 0.75, 1]] } },\n"
    "    \"shin_l\": { \"translate\": { \"t\": [0, 0.4], \"v\": [[0, 0], [0, -6]], \"curve\": [[\"stepped\", [0.1, 0.1, 0.9, 0.9]]] } }\n"
    "  },\n"
    "  \"slots\": { \"glow\": { \"rgba\": { \"t\": [0, 0.4], \"v\": [\"#ffffffff\", \"#ffffff00\"] } },\n"
    "             \"body\": { \"attachment\": { \"t\": [0, 0.6], \"v\": [\"body\", null] } } },\n"
    "  \"ik\": { \"leg_l_ik\": { \"t\": [0, 0.3], \"mix\": [1, 0], \"bend\": [1, -1] } },\n"
    "  \"deform\": { \"default\": { \"body\": { \"body\": { \"t\": [0, 0.4], \"offset\": [0, 4], \"v\": [[0, 0, 1, -2], [3, 1]] } } } },\n"
    "  \"drawOrder\": { \"t\": [0.5], \"v\": [[ [\"glow\", -1] ]] },\n"
    "  \"events\": { \"t\": [0.2, 0.6], \"v\": [ { \"name\": \"footstep\" }, { \"name\": \"footstep\", \"float\": 0.25, \"string\": \"scuff\" } ] }\n"
    "}\n";

static void fail_diag(const char *what, const mf_diag *d)
{
    char msg[1200];
    mf_diag_format(d, msg, sizeof msg);
    print_error("%s: %s\n", what, msg);
}

static mf_skeleton *parse_rig(const char *text)
{
    mf_diag d;
    mf_skeleton *sk = NULL;
    mf_result r = mf_skeleton_parse(text, strlen(text), "hero.mskel", &sk, &d);
    if (r != MF_OK) fail_diag("rig", &d);
    assert_int_equal(r, MF_OK);
    return sk;
}

static mf_clip *parse_clip(const char *text, const char *name, const mf_skeleton *sk)
{
    mf_diag d;
    mf_clip *c = NULL;
    mf_result r = mf_clip_parse(text, strlen(text), "walk.manim", name, &c, &d);
    if (r == MF_OK && sk) r = mf_clip_check(c, sk, "walk.manim", &d);
    if (r != MF_OK) fail_diag("clip", &d);
    assert_int_equal(r, MF_OK);
    return c;
}

typedef struct built {
    mf_skeleton *sk;
    mf_clip *clip;
    void *blob;
    size_t size;
    mf_skel_data d;
} built;

static void build_hero(built *b)
{
    memset(b, 0, sizeof *b);
    b->sk = parse_rig(RIG);
    b->clip = parse_clip(CLIP, "walk", b->sk);
    mf_diag d;
    const mf_clip *clips[] = {b->clip};
    mf_result r = mf_build_skeleton(b->sk, clips, 1, &b->blob, &b->size, &d);
    if (r != MF_OK) fail_diag("build", &d);
    assert_int_equal(r, MF_OK);
    r = mf_skel_data_load(b->blob, b->size, &b->d, &d);
    if (r != MF_OK) fail_diag("load", &d);
    assert_int_equal(r, MF_OK);
}

static void free_built(built *b)
{
    free(b->blob);
    mf_clip_free(b->clip);
    mf_skeleton_free(b->sk);
}

static const char *str(const mf_skel_data *d, int32_t off) { return mf_skel_data_string(d, off); }

static const mf_sd_timeline *find_tl(const mf_skel_data *d, int kind, int32_t target)
{
    for (int32_t i = 0; i < d->timeline_count; i++)
        if (d->timelines[i].kind == kind && d->timelines[i].target == target) return &d->timelines[i];
    return NULL;
}

/* ---- resolved indices ---- */

static void names_resolve_to_indices(void **state)
{
    (void)state;
    built b;
    build_hero(&b);
    const mf_skel_data *d = &b.d;
    assert_int_equal(d->bone_count, 8);
    assert_int_equal(d->slot_count, 4);
    assert_int_equal(d->skin_count, 2);
    assert_int_equal(d->attachment_count, 5);
    assert_int_equal(d->clip_count, 1);
    assert_string_equal(str(d, d->info->uid), "skl_7d1c40e2a9b3");
    int32_t shin = mf_skel_data_find_bone(d, "shin_l"), thigh = mf_skel_data_find_bone(d, "thigh_l");
    assert_int_equal(shin, 4);
    assert_int_equal(d->bones[shin].parent, thigh);
    assert_true(fabsf(d->bones[1].y - -96.0f) < 1e-6f);
    assert_int_equal(mf_skel_data_find_bone(d, "nope"), -1);
    /* slots: bone index, setup attachment interned, blend, colour */
    int32_t glow = mf_skel_data_find_slot(d, "glow");
    assert_int_equal(d->slots[glow].bone, mf_skel_data_find_bone(d, "torso"));
    assert_string_equal(str(d, d->slots[glow].attachment), "glow");
    assert_int_equal(d->slots[glow].blend, MF_SD_BLEND_ADDITIVE);
    assert_int_equal(d->slots[glow].color, 0xffffffaau);
    /* ik: bones in the bone lists, target, setup values */
    assert_int_equal(d->ik_count, 1);
    const mf_sd_ik *ik = &d->ik[0];
    assert_int_equal(ik->bone_count, 2);
    assert_int_equal(d->bone_lists[ik->bone_first], thigh);
    assert_int_equal(d->bone_lists[ik->bone_first + 1], shin);
    assert_int_equal(ik->target, mf_skel_data_find_bone(d, "foot_l_target"));
    assert_int_equal(ik->bend, -1);
    assert_true(ik->stretch && !ik->compress);
    mf_sd_ref ref;
    assert_true(mf_skel_data_find_constraint(d, "bob", &ref));
    assert_int_equal(ref.kind, MF_SD_REF_PHYSICS);
    assert_int_equal(d->physics[ref.index].bone, mf_skel_data_find_bone(d, "foot_l"));
    /* strings are interned: the slot's setup name and the attachment's name share an offset */
    int32_t body_slot = mf_skel_data_find_slot(d, "body");
    int32_t att = mf_skel_data_skin_attachment(d, 0, body_slot, d->slots[body_slot].attachment);
    assert_true(att >= 0);
    assert_int_equal(d->attachments[att].name, d->slots[body_slot].attachment);
    assert_int_equal(mf_skel_data_find_string(d, "body"), d->slots[body_slot].attachment);
    assert_int_equal(mf_skel_data_skin_attachment(d, 0, body_slot, mf_skel_data_find_string(d, "glow")), -1);
    free_built(&b);
}

static void weighted_mesh_uses_skeleton_bones(void **state)
{
    (void)state;
    built b;
    build_hero(&b);
    const mf_skel_data *d = &b.d;
    int32_t body = mf_skel_data_find_slot(d, "body"), name = mf_skel_data_find_string(d, "body");
    const mf_sd_attachment *a = &d->attachments[mf_skel_data_skin_attachment(d, 0, body, name)];
    assert_int_equal(a->type, MF_SD_ATT_MESH);
    assert_true(a->flags & MF_SD_ATT_WEIGHTED);
    assert_int_equal(a->vertex_count, 5);
    assert_int_equal(a->infl_count, 6);
    assert_int_equal(a->deform_count, 12);
    assert_int_equal(a->tri_count, 12);
    assert_int_equal(a->hull, 4);
    /* local bone 1 of ["hips", "torso"] is skeleton bone torso (2) */
    const mf_sd_span *v2 = &d->spans[a->vertex_first + 2];
    assert_int_equal(v2->count, 1);
    assert_int_equal(d->influences[v2->first].bone, 2);
    assert_true(d->influences[v2->first].x == 40.0f && d->influences[v2->first].y == -60.0f);
    const mf_sd_span *v4 = &d->spans[a->vertex_first + 4];
    assert_int_equal(v4->count, 2);
    assert_int_equal(d->influences[v4->first].bone, 1);
    assert_int_equal(d->influences[v4->first + 1].bone, 2);
    assert_true(d->influences[v4->first + 1].weight == 0.5f);
    assert_true(d->floats[a->uv_first + 8] == 0.5f);
    assert_int_equal(d->triangles[a->tri_first + 2], 4);
    assert_string_equal(str(d, d->images[a->image].name), "body");
    /* the linked mesh shares the geometry and, with deform: true, the deform keys */
    const mf_sd_attachment *l = &d->attachments[mf_skel_data_skin_attachment(d, 1, body, name)];
    assert_int_equal(l->type, MF_SD_ATT_LINKED_MESH);
    assert_int_equal(&d->attachments[l->parent], a);
    assert_int_equal(&d->attachments[l->deform_source], a);
    assert_true(l->flags & MF_SD_ATT_DEFORM);
    assert_int_equal(l->vertex_first, a->vertex_first);
    assert_int_equal(l->deform_count, a->deform_count);
    assert_string_equal(str(d, d->images[l->image].name), "body_armor");
    free_built(&b);
}

static void region_is_a_quad_in_bone_space(void **state)
{
    (void)state;
    built b;
    build_hero(&b);
    const mf_skel_data *d = &b.d;
    int32_t slot = mf_skel_data_find_slot(d, "leg_l");
    const mf_sd_attachment *a = &d->attachments[mf_skel_data_skin_attachment(d, 0, slot, d->slots[slot].attachment)];
    assert_int_equal(a->type, MF_SD_ATT_REGION);
    assert_int_equal(a->vertex_count, 4);
    assert_int_equal(a->deform_count, 0);
    /* width 10, height 40, rotated 90° clockwise (Y-down) around (20, 0): uv (0,0) corner
     * (-5, -20) → (20 + 20, -5) */
    const float want[8] = {40, -5, 40, 5, 0, 5, 0, -5};
    for (int k = 0; k < 8; k++) assert_true(fabsf(d->floats[a->vertex_first + k] - want[k]) < 1e-4f);
    const float uv[8] = {0, 0, 1, 0, 1, 1, 0, 1};
    for (int k = 0; k < 8; k++) assert_true(d->floats[a->uv_first + k] == uv[k]);
    const uint16_t tri[6] = {0, 1, 2, 2, 3, 0};
    for (int k = 0; k < 6; k++) assert_int_equal(d->triangles[a->tri_first + k], tri[k]);
    free_built(&b);
}

/* ---- update order ---- */

static void update_order_interleaves_constraints(void **state)
{
    (void)state;
    built b;
    build_hero(&b);
    const mf_skel_data *d = &b.d;
    /* aim (order 0) reads foot_l (its target) and head; leg_l_ik (order 1) reads the target
     * and its chain and leaves foot_l stale; bob (order 2) needs foot_l again. */
    const struct {
        int kind;
        const char *name;
    } want[] = {
        {MF_SD_REF_BONE, "root"}, {MF_SD_REF_BONE, "hips"}, {MF_SD_REF_BONE, "thigh_l"},
        {MF_SD_REF_BONE, "shin_l"}, {MF_SD_REF_BONE, "foot_l"}, {MF_SD_REF_BONE, "torso"},
        {MF_SD_REF_BONE, "head"}, {MF_SD_REF_TRANSFORM, "aim"}, {MF_SD_REF_BONE, "foot_l_target"},
        {MF_SD_REF_IK, "leg_l_ik"}, {MF_SD_REF_BONE, "foot_l"}, {MF_SD_REF_PHYSICS, "bob"},
    };
    size_t n = sizeof want / sizeof want[0];
    for (int32_t i = 0; i < d->update_count; i++) {
        const mf_sd_ref *r = &d->update[i];
        int32_t name = r->kind == MF_SD_REF_BONE ? d->bones[r->index].name
                       : r->kind == MF_SD_REF_IK ? d->ik[r->index].name
                       : r->kind == MF_SD_REF_TRANSFORM ? d->transform[r->index].name
                                                        : d->physics[r->index].name;
        print_message("update[%d] = %d %s\n", i, r->kind, str(d, name));
    }
    assert_int_equal(d->update_count, (int32_t)n);
    for (size_t i = 0; i < n; i++) {
        const mf_sd_ref *r = &d->update[i];
        assert_int_equal(r->kind, want[i].kind);
        if (r->kind == MF_SD_REF_BONE) assert_int_equal(r->index, mf_skel_data_find_bone(d, want[i].name));
        else {
            mf_sd_ref c;
            assert_true(mf_skel_data_find_constraint(d, want[i].name, &c));
            assert_int_equal(r->kind, c.kind);
            assert_int_equal(r->index, c.index);
        }
    }
    free_built(&b);
}

/* The rule's invariants on a larger random-ish rig: every bone appears, always after its
 * parent's latest entry; each constraint's bones and target are current when it runs. */
static void update_order_invariants_hold(void **state)
{
    (void)state;
    mf_skeleton *sk = mf_skeleton_create();
    enum { NB = 30 };
    sk->bone_count = NB;
    sk->bones = mf_skeleton_alloc(sk, NB * sizeof *sk->bones);
    for (int i = 0; i < NB; i++) {
        char name[16];
        snprintf(name, sizeof name, "b%d", i);
        sk->bones[i] = (mf_bone){.name = mf_skeleton_strdup(sk, name), .parent = i == 0 ? -1 : (i * 7) % i,
                                 .sx = 1, .sy = 1};
    }
    sk->ik_count = 3;
    sk->ik = mf_skeleton_alloc(sk, 3 * sizeof *sk->ik);
    const int chains[3][3] = {{5, 12, 29}, {1, 7, 3}, {20, 27, 0}}; /* parent, child, target */
    for (int i = 0; i < 3; i++) {
        int child = chains[i][1];
        sk->ik[i] = (mf_ik_constraint){.name = mf_skeleton_strdup(sk, i == 0 ? "a" : i == 1 ? "b" : "c"),
                                       .order = 2 - i, .bone_count = 1, .bones = {child},
                                       .target = chains[i][2], .mix = 1, .bend = 1};
    }
    void *blob;
    size_t size;
    mf_diag diag;
    assert_int_equal(mf_build_skeleton(sk, NULL, 0, &blob, &size, &diag), MF_OK);
    mf_skel_data d;
    assert_int_equal(mf_skel_data_load(blob, size, &d, &diag), MF_OK);
    int32_t last[NB];
    for (int i = 0; i < NB; i++) last[i] = -1;
    int prev_order = -1000;
    for (int32_t i = 0; i < d.update_count; i++) {
        const mf_sd_ref *r = &d.update[i];
        if (r->kind == MF_SD_REF_BONE) {
            int32_t p = d.bones[r->index].parent;
            if (p >= 0) assert_true(last[p] >= 0);
            last[r->index] = i;
        } else {
            const mf_sd_ik *k = &d.ik[r->index];
            assert_true(k->order >= prev_order);
            prev_order = k->order;
            assert_true(last[k->target] >= 0);
            assert_true(last[d.bone_lists[k->bone_first]] >= 0);
        }
    }
    for (int i = 0; i < NB; i++) assert_true(last[i] >= 0);
    free(blob);
    mf_skeleton_free(sk);
}

/* ---- clips ---- */

static double bez(double a, double b, double t)
{
    double mt = 1 - t;
    return 3 * mt * mt * t * a + 3 * mt * t * t * b + t * t * t;
}

/* y at x of the bezier (0,0) (x1,y1) (x2,y2) (1,1), by bisection on the monotonic x(t) */
static double exact_bezier(double x1, double y1, double x2, double y2, double x)
{
    double lo = 0, hi = 1;
    for (int i = 0; i < 80; i++) {
        double mid = (lo + hi) / 2;
        if (bez(x1, x2, mid) < x) lo = mid;
        else hi = mid;
    }
    return bez(y1, y2, (lo + hi) / 2);
}

static void curves_are_presampled_accurately(void **state)
{
    (void)state;
    built b;
    build_hero(&b);
    const mf_skel_data *d = &b.d;
    const mf_sd_timeline *rot = find_tl(d, MF_SD_TL_ROTATE, mf_skel_data_find_bone(d, "thigh_l"));
    assert_non_null(rot);
    assert_int_equal(rot->key_count, 3);
    assert_int_equal(rot->curve_comps, 1);
    /* both segments use the same curve: one shared sample */
    int32_t c0 = d->curves[rot->curve_first], c1 = d->curves[rot->curve_first + 1];
    assert_true(c0 >= 0);
    assert_int_equal(c0, c1);
    /* translate: component 0 stepped, component 1 a diagonal bezier, which is linear */
    const mf_sd_timeline *tr = find_tl(d, MF_SD_TL_TRANSLATE, mf_skel_data_find_bone(d, "shin_l"));
    assert_non_null(tr);
    assert_int_equal(tr->curve_comps, 2);
    assert_int_equal(d->curves[tr->curve_first], MF_SD_CURVE_STEPPED);
    assert_int_equal(d->curves[tr->curve_first + 1], MF_SD_CURVE_LINEAR);
    assert_true(mf_skel_data_curve(d, MF_SD_CURVE_STEPPED, 0.99f) == 0.0f);
    assert_true(mf_skel_data_curve(d, MF_SD_CURVE_LINEAR, 0.3f) == 0.3f);
    /* the ease-in-out sample against the exact curve */
    double worst = 0;
    for (int i = 0; i <= 1000; i++) {
        double u = i / 1000.0;
        double err = fabs(mf_skel_data_curve(d, c0, (float)u) - exact_bezier(0.25, 0, 0.75, 1, u));
        if (err > worst) worst = err;
    }
    print_message("ease-in-out (0.25, 0, 0.75, 1): max error %.5f\n", worst);
    assert_true(worst < 0.01);
    free_built(&b);
}

/* Sampling accuracy over a spread of curves, including overshoot and sharp ones. */
static void bezier_samples_track_the_exact_curve(void **state)
{
    (void)state;
    const float curves[][4] = {{0.42f, 0, 0.58f, 1}, {0.42f, 0, 1, 1}, {0, 0, 0.58f, 1}, {0.68f, -0.55f, 0.27f, 1.55f},
                               {0.1f, 0.9f, 0.2f, 1}, {0.9f, 0, 1, 0.1f}, {0, 1, 1, 0}, {1, 0, 0, 1}};
    for (size_t k = 0; k < sizeof curves / sizeof curves[0]; k++) {
        const float *c = curves[k];
        mf_skeleton *sk = mf_skeleton_create();
        mf_clip *clip = mf_clip_create();
        sk->bone_count = 1;
        sk->bones = mf_skeleton_alloc(sk, sizeof *sk->bones);
        sk->bones[0] = (mf_bone){.name = mf_skeleton_strdup(sk, "root"), .parent = -1, .sx = 1, .sy = 1};
        clip->name = mf_clip_strdup(clip, "c");
        clip->length = 1;
        clip->timeline_count = 1;
        clip->timelines = mf_clip_alloc(clip, sizeof *clip->timelines);
        mf_timeline *tl = &clip->timelines[0];
        tl->kind = MF_TL_ROTATE;
        tl->target = mf_clip_strdup(clip, "root");
        tl->key_count = 2;
        tl->comps = 1;
        tl->t = mf_clip_alloc(clip, 2 * sizeof(float));
        tl->v = mf_clip_alloc(clip, 2 * sizeof(float));
        tl->t[1] = 1;
        tl->v[1] = 1;
        tl->curves = mf_clip_alloc(clip, sizeof *tl->curves);
        tl->curves[0] = (mf_curve){MF_CURVE_BEZIER, c[0], c[1], c[2], c[3]};
        const mf_clip *clips[] = {clip};
        void *blob;
        size_t size;
        mf_diag diag;
        assert_int_equal(mf_build_skeleton(sk, clips, 1, &blob, &size, &diag), MF_OK);
        mf_skel_data d;
        assert_int_equal(mf_skel_data_load(blob, size, &d, &diag), MF_OK);
        int32_t code = d.curves[d.timelines[0].curve_first];
        double worst = 0;
        for (int i = 0; i <= 2000; i++) {
            double u = i / 2000.0;
            double err = fabs(mf_skel_data_curve(&d, code, (float)u) - exact_bezier(c[0], c[1], c[2], c[3], u));
            if (err > worst) worst = err;
        }
        print_message("bezier (%g, %g, %g, %g): max error %.5f\n", c[0], c[1], c[2], c[3], worst);
        /* 10 linear pieces: a few hundredths at worst, even for curves that turn sharply */
        assert_true(worst < (k < 5 ? 0.02 : 0.1));
        free(blob);
        mf_clip_free(clip);
        mf_skeleton_free(sk);
    }
}

static void deform_keys_are_dense(void **state)
{
    (void)state;
    built b;
    build_hero(&b);
    const mf_skel_data *d = &b.d;
    const mf_sd_timeline *t = find_tl(d, MF_SD_TL_DEFORM, mf_skel_data_find_slot(d, "body"));
    assert_non_null(t);
    assert_int_equal(d->attachments[t->attachment].skin, 0);
    assert_int_equal(t->value_comps, 12);
    assert_int_equal(t->key_count, 2);
    const float k0[12] = {0, 0, 1, -2, 0, 0, 0, 0, 0, 0, 0, 0}, k1[12] = {0, 0, 0, 0, 3, 1, 0, 0, 0, 0, 0, 0};
    for (int i = 0; i < 12; i++) {
        assert_true(d->values[t->value_first + i] == k0[i]);
        assert_true(d->values[t->value_first + 12 + i] == k1[i]);
    }
    assert_int_equal(t->curve_comps, 1);
    assert_int_equal(d->curves[t->curve_first], MF_SD_CURVE_LINEAR);
    free_built(&b);
}

static void discrete_keys_are_resolved(void **state)
{
    (void)state;
    built b;
    build_hero(&b);
    const mf_skel_data *d = &b.d;
    assert_string_equal(str(d, d->clips[0].name), "walk");
    assert_int_equal(d->clips[0].loop, MF_SD_LOOP_LINEAR);
    assert_true(d->clips[0].length == 0.8f);
    assert_int_equal(mf_skel_data_find_clip(d, "walk"), 0);
    /* ik: mix and bend keyed; softness, compress and stretch from the constraint */
    const mf_sd_timeline *ik = find_tl(d, MF_SD_TL_IK, 0);
    assert_non_null(ik);
    assert_int_equal(ik->value_comps, 2);
    assert_int_equal(ik->int_comps, 3);
    assert_true(d->values[ik->value_first] == 1.0f && d->values[ik->value_first + 2] == 0.0f);
    assert_true(d->values[ik->value_first + 1] == 3.0f && d->values[ik->value_first + 3] == 3.0f);
    const int32_t *iv = d->ints + ik->int_first;
    assert_int_equal(iv[0], 1);
    assert_int_equal(iv[3], -1);
    assert_int_equal(iv[1], 0); /* compress */
    assert_int_equal(iv[2], 1); /* stretch */
    /* attachment keys: names as string offsets, null as -1 */
    const mf_sd_timeline *at = find_tl(d, MF_SD_TL_ATTACHMENT, mf_skel_data_find_slot(d, "body"));
    assert_non_null(at);
    assert_int_equal(d->ints[at->int_first], mf_skel_data_find_string(d, "body"));
    assert_int_equal(d->ints[at->int_first + 1], -1);
    assert_int_equal(at->curve_first, -1);
    /* draw order: glow one place back, the others in setup order */
    const mf_sd_timeline *dro = find_tl(d, MF_SD_TL_DRAW_ORDER, -1);
    assert_non_null(dro);
    assert_int_equal(dro->int_comps, 4);
    const int32_t order[4] = {0, 2, 1, 3};
    for (int i = 0; i < 4; i++) assert_int_equal(d->ints[dro->int_first + i], order[i]);
    /* events: index and payload, defaults from the definition */
    const mf_sd_timeline *ev = find_tl(d, MF_SD_TL_EVENT, -1);
    assert_non_null(ev);
    const int32_t *e = d->ints + ev->int_first;
    const float *f = d->values + ev->value_first;
    assert_int_equal(e[0], 0);
    assert_int_equal(e[1], 1);
    assert_string_equal(str(d, e[2]), "step");
    assert_true(f[0] == 0.5f && f[1] == 0.8f && f[2] == 0.0f);
    assert_string_equal(str(d, e[5]), "scuff");
    assert_true(f[3] == 0.25f);
    /* colours are 0..1 components */
    const mf_sd_timeline *rgba = find_tl(d, MF_SD_TL_RGBA, mf_skel_data_find_slot(d, "glow"));
    assert_non_null(rgba);
    assert_true(d->values[rgba->value_first + 7] == 0.0f && d->values[rgba->value_first + 3] == 1.0f);
    assert_true(d->times[rgba->key_first + 1] == 0.4f);
    free_built(&b);
}

static void import_scale_applies_to_lengths(void **state)
{
    (void)state;
    built b;
    build_hero(&b);
    b.sk->import.scale = 0.5f;
    void *blob;
    size_t size;
    mf_diag diag;
    const mf_clip *clips[] = {b.clip};
    assert_int_equal(mf_build_skeleton(b.sk, clips, 1, &blob, &size, &diag), MF_OK);
    mf_skel_data h;
    assert_int_equal(mf_skel_data_load(blob, size, &h, &diag), MF_OK);
    assert_true(h.info->scale == 0.5f);
    assert_true(h.bones[1].y == -48.0f && h.bones[1].length == 12.0f);
    assert_true(h.bones[2].rot == -90.0f); /* angles do not scale */
    assert_true(h.ik[0].softness == 1.5f);
    const mf_sd_timeline *tr = find_tl(&h, MF_SD_TL_TRANSLATE, 4);
    assert_true(h.values[tr->value_first + 3] == -3.0f);
    const mf_sd_timeline *df = find_tl(&h, MF_SD_TL_DEFORM, 1);
    assert_true(h.values[df->value_first + 3] == -1.0f);
    for (int32_t i = 0; i < h.influence_count; i++) assert_true(h.influences[i].x == b.d.influences[i].x * 0.5f);
    free(blob);
    free_built(&b);
}

/* ---- determinism and round trip ---- */

static void builds_are_deterministic(void **state)
{
    (void)state;
    built a, b;
    build_hero(&a);
    build_hero(&b);
    assert_int_equal(a.size, b.size);
    assert_memory_equal(a.blob, b.blob, a.size);
    assert_int_equal(a.size % 16, 0);
    free_built(&a);
    free_built(&b);
}

static void load_round_trip_matches_the_model(void **state)
{
    (void)state;
    built b;
    build_hero(&b);
    const mf_skel_data *d = &b.d;
    assert_ptr_equal(d->bytes, b.blob);
    for (int32_t i = 0; i < b.sk->bone_count; i++) {
        assert_string_equal(str(d, d->bones[i].name), b.sk->bones[i].name);
        assert_int_equal(d->bones[i].parent, b.sk->bones[i].parent);
        assert_true(d->bones[i].rot == b.sk->bones[i].rot);
        assert_int_equal(mf_skel_data_find_bone(d, b.sk->bones[i].name), i);
    }
    for (int32_t i = 0; i < b.sk->slot_count; i++) {
        assert_string_equal(str(d, d->slots[i].name), b.sk->slots[i].name);
        assert_int_equal(mf_skel_data_find_slot(d, b.sk->slots[i].name), i);
    }
    for (int32_t s = 0; s < b.sk->skin_count; s++) {
        assert_int_equal(mf_skel_data_find_skin(d, b.sk->skins[s].name), s);
        for (int32_t a = 0; a < b.sk->skins[s].attachment_count; a++) {
            const mf_attachment *m = &b.sk->skins[s].attachments[a];
            int32_t g = mf_skel_data_skin_attachment(d, s, m->slot, mf_skel_data_find_string(d, m->name));
            assert_true(g >= 0);
            assert_int_equal(d->attachments[g].type, m->type);
            assert_int_equal(d->attachments[g].slot, m->slot);
            assert_string_equal(str(d, d->attachments[g].name), m->name);
            assert_string_equal(mf_skel_data_attachment_name(d, g), mf_attachment_display_name(m));
        }
    }
    /* the armor's own name differs from its key; the others' own names are their keys */
    int32_t armor = mf_skel_data_skin_attachment(d, mf_skel_data_find_skin(d, "armor"), mf_skel_data_find_slot(d, "body"),
                                                 mf_skel_data_find_string(d, "body"));
    assert_string_equal(mf_skel_data_attachment_name(d, armor), "knight/body-armor");
    assert_int_equal(d->attachments[armor].display_name, mf_skel_data_find_string(d, "knight/body-armor"));
    assert_int_equal(d->attachments[0].display_name, d->attachments[0].name);
    assert_null(mf_skel_data_attachment_name(d, -1));
    assert_null(mf_skel_data_attachment_name(d, d->attachment_count));
    assert_null(mf_skel_data_attachment_name(NULL, 0));
    assert_int_equal(mf_skel_data_find_event(d, "footstep"), 0);
    /* the clip keeps every timeline of the source */
    assert_int_equal(d->clips[0].timeline_count, b.clip->timeline_count);
    free_built(&b);
}

/* ---- located errors ---- */

static void assert_build_error(const mf_skeleton *sk, const mf_clip *clip, const char *want_where, const char *want_msg)
{
    void *blob = (void *)1;
    size_t size = 1;
    mf_diag diag;
    const mf_clip *clips[] = {clip};
    mf_result r = mf_build_skeleton(sk, clip ? clips : NULL, clip ? 1 : 0, &blob, &size, &diag);
    char msg[1200];
    mf_diag_format(&diag, msg, sizeof msg);
    print_message("error: %s\n", msg);
    assert_int_not_equal(r, MF_OK);
    assert_null(blob);
    assert_int_equal(size, 0);
    assert_string_equal(diag.where, want_where);
    assert_contains(diag.message, want_msg);
}

static void model_errors_are_located(void **state)
{
    (void)state;
    mf_skeleton *sk = parse_rig(RIG);
    sk->bones[4].parent = 6; /* a later bone */
    assert_build_error(sk, NULL, "bones[4].parent", "not an earlier bone");
    sk->bones[4].parent = 3;
    sk->slots[2].bone = 99;
    assert_build_error(sk, NULL, "slots[2].bone", "bone 99 of slot \"glow\" outside 0..7");
    sk->slots[2].bone = 2;
    mf_attachment *mesh = &sk->skins[0].attachments[0];
    mesh->triangles[7] = 5;
    assert_build_error(sk, NULL, "skins[0].attachments[0].triangles[7]", "vertex 5 outside 0..4");
    mesh->triangles[7] = 2;
    mesh->vertices.infl[2].bone = 2; /* the attachment has 2 bones */
    assert_build_error(sk, NULL, "skins[0].attachments[0].weights", "bone 2 outside the attachment's 2 bones");
    mesh->vertices.infl[2].bone = 1;
    char *parent = sk->skins[1].attachments[0].parent;
    sk->skins[1].attachments[0].parent = mf_skeleton_strdup(sk, "bodyy");
    assert_build_error(sk, NULL, "skins[1].attachments[0].parent", "no attachment \"bodyy\" on slot \"body\"");
    sk->skins[1].attachments[0].parent = parent;
    sk->ik[0].target = -1;
    assert_build_error(sk, NULL, "ik[0].target", "outside");
    mf_skeleton_free(sk);
}

static void clip_errors_are_located(void **state)
{
    (void)state;
    mf_skeleton *sk = parse_rig(RIG);
    mf_clip *clip = parse_clip(CLIP, "walk", NULL);
    mf_timeline *rot = NULL, *dro = NULL, *def = NULL;
    for (int32_t i = 0; i < clip->timeline_count; i++) {
        mf_timeline *t = &clip->timelines[i];
        if (t->kind == MF_TL_ROTATE) rot = t;
        if (t->kind == MF_TL_DRAW_ORDER) dro = t;
        if (t->kind == MF_TL_DEFORM) def = t;
    }
    assert_true(rot && dro && def);
    char *saved = rot->target;
    rot->target = mf_clip_strdup(clip, "thigh_x");
    assert_build_error(sk, clip, "bones.thigh_x.rotate", "unknown bone \"thigh_x\" (did you mean \"thigh_l\"?)");
    rot->target = saved;
    rot->t[2] = 0.1f;
    assert_build_error(sk, clip, "bones.thigh_l.rotate.t[2]", "key times must ascend");
    rot->t[2] = 0.8f;
    dro->draw_order[0].moves[0].delta = -3;
    assert_build_error(sk, clip, "drawOrder.v[0][0]", "leaves the draw order");
    dro->draw_order[0].moves[0].delta = -1;
    def->deform[1].offset = 11;
    assert_build_error(sk, clip, "deform.default.body.body.v[1]", "do not fit the attachment's 12 vertex floats");
    def->deform[1].offset = 4;
    saved = def->attachment;
    def->attachment = mf_clip_strdup(clip, "glow");
    assert_build_error(sk, clip, "deform.default.body.glow", "skin \"default\" has no attachment \"glow\" on slot \"body\"");
    def->attachment = saved;
    /* the file named in the diagnostic is the clip's */
    rot->target = mf_clip_strdup(clip, "nope");
    mf_diag diag;
    void *blob;
    size_t size;
    const mf_clip *clips[] = {clip};
    assert_int_equal(mf_build_skeleton(sk, clips, 1, &blob, &size, &diag), MF_ERR_INVALID);
    assert_string_equal(diag.file, "walk.manim");
    /* two clips with one name */
    rot->target = saved = mf_clip_strdup(clip, "thigh_l");
    const mf_clip *twice[] = {clip, clip};
    assert_int_equal(mf_build_skeleton(sk, twice, 2, &blob, &size, &diag), MF_ERR_INVALID);
    assert_contains(diag.message, "two clips are named \"walk\"");
    mf_clip_free(clip);
    mf_skeleton_free(sk);
}

/* ---- mf_build_file ---- */

static void write_text_file(const char *path, const char *text) { assert_int_equal(tu_write(path, text), 0); }

static void build_file_writes_and_reports(void **state)
{
    (void)state;
    mkdir(tu_tmp("bf"), 0777);
    mkdir(tu_tmp("bf/hero.clips"), 0777);
    write_text_file(tu_tmp("bf/hero.mskel"), RIG);
    write_text_file(tu_tmp("bf/hero.clips/walk.manim"), CLIP);
    write_text_file(tu_tmp("bf/hero.clips/idle.manim"),
                    "{ \"format\": 1, \"uid\": \"anm_000000000001\", \"type\": \"SkeletonClip\", \"skeleton\": { \"uid\": "
                    "\"skl_7d1c40e2a9b3\" }, \"length\": 1 }\n");
    mf_build_report rep;
    mf_diag diag;
    mf_result r = mf_build_file(tu_tmp("bf/hero.mskel"), tu_tmp("bf/hero.mskb"), &rep, &diag);
    if (r != MF_OK) fail_diag("build file", &diag);
    assert_int_equal(r, MF_OK);
    assert_int_equal(rep.bones, 8);
    assert_int_equal(rep.constraints, 3);
    assert_int_equal(rep.clips, 2);
    assert_string_equal(rep.clip_names[0], "idle");
    assert_string_equal(rep.clip_names[1], "walk");
    size_t len;
    char *bytes = tu_read(tu_tmp("bf/hero.mskb"), &len);
    assert_non_null(bytes);
    assert_int_equal(len, rep.bytes);
    mf_skel_data d;
    assert_int_equal(mf_skel_data_load(bytes, len, &d, &diag), MF_OK);
    assert_int_equal(mf_skel_data_find_clip(&d, "walk"), 1);
    mf_build_report_free(&rep);
    /* a broken clip: the error names the clip file and the output stays as it was */
    write_text_file(tu_tmp("bf/hero.clips/bad.manim"),
                    "{ \"format\": 1, \"uid\": \"anm_000000000002\", \"type\": \"SkeletonClip\", \"skeleton\": { \"uid\": "
                    "\"skl_7d1c40e2a9b3\" }, \"length\": 1, \"bones\": { \"thigh_x\": { \"rotate\": { \"t\": [0], \"v\": [1] } } } }\n");
    r = mf_build_file(tu_tmp("bf/hero.mskel"), tu_tmp("bf/hero.mskb"), &rep, &diag);
    assert_int_not_equal(r, MF_OK);
    assert_contains(diag.file, "bad.manim");
    assert_contains(diag.message, "thigh_x");
    size_t len2;
    char *after = tu_read(tu_tmp("bf/hero.mskb"), &len2);
    assert_int_equal(len2, len);
    assert_memory_equal(after, bytes, len);
    free(after);
    free(bytes);
    mf_build_report_free(&rep);
}

/* ---- measurement: a rig of the seeds' "mid-complexity" size ---- */

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* 40 bones, 30 slots, 2 skins; per skin 800 weighted vertices (two influences each) over 20
 * meshes and 10 regions; 2 ik; 12 clips keying 20 bones with eased curves, plus deform keys. */
static char *big_rig(void)
{
    size_t len = 0, cap = 1 << 16;
    char *s = malloc(cap);
    tu_cat(&s, &len, &cap, "{ \"format\": 1, \"uid\": \"skl_000000000bbb\", \"type\": \"Skeleton\", \"bones\": [ { \"name\": \"b0\" }");
    for (int i = 1; i < 40; i++)
        tu_cat(&s, &len, &cap, ", { \"name\": \"b%d\", \"parent\": \"b%d\", \"x\": %d, \"rot\": %d, \"length\": 20 }", i,
               (i - 1) / 2, i % 7, (i * 13) % 90);
    tu_cat(&s, &len, &cap, " ], \"slots\": [");
    for (int i = 0; i < 30; i++)
        tu_cat(&s, &len, &cap, "%s{ \"name\": \"s%d\", \"bone\": \"b%d\", \"attachment\": \"a%d\" }", i ? ", " : "", i, i + 5, i);
    tu_cat(&s, &len, &cap, " ], \"ik\": [ { \"name\": \"ik0\", \"bones\": [\"b9\", \"b19\"], \"target\": \"b30\" },"
                           " { \"name\": \"ik1\", \"order\": 1, \"bones\": [\"b10\", \"b21\"], \"target\": \"b31\" } ],"
                           " \"skins\": [");
    for (int k = 0; k < 2; k++) {
        tu_cat(&s, &len, &cap, "%s{ \"name\": \"%s\", \"attachments\": [", k ? ", " : "", k ? "alt" : "default");
        for (int i = 0; i < 30; i++) {
            tu_cat(&s, &len, &cap, "%s{ \"slot\": \"s%d\", \"name\": \"a%d\", ", i ? ", " : "", i, i);
            if (i % 3 == 2) {
                tu_cat(&s, &len, &cap, "\"type\": \"Region\", \"width\": 20, \"height\": 30 }");
                continue;
            }
            /* a 8×5 grid mesh: 40 vertices, 2 influences each */
            tu_cat(&s, &len, &cap, "\"type\": \"Mesh\", \"uvs\": [");
            for (int v = 0; v < 40; v++) tu_cat(&s, &len, &cap, "%s%g, %g", v ? ", " : "", (v % 8) / 7.0, (v / 8) / 4.0);
            tu_cat(&s, &len, &cap, "], \"triangles\": [");
            for (int y = 0, t = 0; y < 4; y++)
                for (int x = 0; x < 7; x++, t++) {
                    int a = y * 8 + x;
                    tu_cat(&s, &len, &cap, "%s%d, %d, %d, %d, %d, %d", t ? ", " : "", a, a + 1, a + 8, a + 1, a + 9, a + 8);
                }
            tu_cat(&s, &len, &cap, "], \"hull\": 22, \"weights\": { \"bones\": [\"b%d\", \"b%d\"], \"v\": [", i + 5, (i + 5) / 2);
            for (int v = 0; v < 40; v++)
                tu_cat(&s, &len, &cap, "%s[0, 0.75, %d, %d, 1, 0.25, %d, %d]", v ? ", " : "", v % 8 * 5, v / 8 * 5, v % 8 * 5 - 3,
                       v / 8 * 5 + 2);
            tu_cat(&s, &len, &cap, "] } }");
        }
        tu_cat(&s, &len, &cap, "] }");
    }
    tu_cat(&s, &len, &cap, " ] }\n");
    return s;
}

static char *big_clip(int n)
{
    size_t len = 0, cap = 1 << 14;
    char *s = malloc(cap);
    tu_cat(&s, &len, &cap, "{ \"format\": 1, \"uid\": \"anm_0000000000%02d\", \"type\": \"SkeletonClip\", \"skeleton\": { \"uid\": "
                           "\"skl_000000000bbb\" }, \"length\": 1, \"bones\": {", n);
    for (int b = 0; b < 20; b++) {
        tu_cat(&s, &len, &cap, "%s\"b%d\": { \"rotate\": { \"t\": [0, 0.25, 0.5, 0.75, 1], \"v\": [0, %d, 0, -%d, 0], "
                               "\"curve\": [[0.25, 0, 0.75, 1], [0.42, 0, 0.58, 1], [0.25, 0, 0.75, 1], [0.%d, 0, 0.75, 1]] }, "
                               "\"translate\": { \"t\": [0, 0.5, 1], \"v\": [[0, 0], [%d, 2], [0, 0]] } }",
               b ? ", " : "", b + 1, 10 + b, n + n % 3, 20 + b, n % 5 + 1);
    }
    tu_cat(&s, &len, &cap, "}, \"deform\": { \"default\": { \"s0\": { \"a0\": { \"t\": [0, 0.5, 1], \"offset\": [0, 10, 0], "
                           "\"v\": [[1, 2, 3, 4], [5, 6], [0]] } } } } }\n");
    return s;
}

static void measure_realistic_rig(void **state)
{
    (void)state;
    enum { CLIPS = 12, REPS = 20 };
    char *rig = big_rig();
    char *clip_text[CLIPS];
    for (int i = 0; i < CLIPS; i++) clip_text[i] = big_clip(i);
    mf_diag diag;
    /* JSON parse of the rig and its clips */
    double t0 = now_s();
    mf_skeleton *sk = NULL;
    mf_clip *clips[CLIPS];
    for (int rep = 0; rep < REPS; rep++) {
        if (sk) {
            mf_skeleton_free(sk);
            for (int i = 0; i < CLIPS; i++) mf_clip_free(clips[i]);
        }
        mf_result r = mf_skeleton_parse(rig, strlen(rig), "big.mskel", &sk, &diag);
        if (r != MF_OK) fail_diag("big rig", &diag);
        assert_int_equal(r, MF_OK);
        for (int i = 0; i < CLIPS; i++) {
            char name[16];
            snprintf(name, sizeof name, "clip%02d", i);
            r = mf_clip_parse(clip_text[i], strlen(clip_text[i]), "big.manim", name, &clips[i], &diag);
            if (r == MF_OK) r = mf_clip_check(clips[i], sk, "big.manim", &diag);
            if (r != MF_OK) fail_diag("big clip", &diag);
            assert_int_equal(r, MF_OK);
        }
    }
    double parse = (now_s() - t0) / REPS;
    /* build */
    void *blob = NULL;
    size_t size = 0;
    t0 = now_s();
    for (int rep = 0; rep < REPS; rep++) {
        free(blob);
        assert_int_equal(mf_build_skeleton(sk, (const mf_clip *const *)clips, CLIPS, &blob, &size, &diag), MF_OK);
    }
    double build = (now_s() - t0) / REPS;
    /* load (validate everything) */
    mf_skel_data d;
    t0 = now_s();
    for (int rep = 0; rep < REPS * 10; rep++) assert_int_equal(mf_skel_data_load(blob, size, &d, &diag), MF_OK);
    double load = (now_s() - t0) / (REPS * 10);
    size_t json = strlen(rig);
    for (int i = 0; i < CLIPS; i++) json += strlen(clip_text[i]);
    int32_t verts = 0;
    for (int32_t i = 0; i < d.attachment_count; i++) verts += d.attachments[i].skin == 0 && d.attachments[i].type == MF_SD_ATT_MESH ? d.attachments[i].vertex_count : 0;
    print_message("realistic rig: %d bones, %d slots, %d attachments (%d mesh vertices in the default skin), %d clips, "
                  "%d timelines, %d keys\n",
                  d.bone_count, d.slot_count, d.attachment_count, verts, d.clip_count, d.timeline_count, d.time_count);
    print_message("  JSON %zu bytes, parse + check %.3f ms; build %.3f ms -> %zu bytes; load (validate) %.4f ms "
                  "(%.0fx faster than parsing)\n",
                  json, parse * 1e3, build * 1e3, size, load * 1e3, parse / load);
    assert_int_equal(d.bone_count, 40);
    assert_int_equal(d.slot_count, 30);
    static const char *const sec[] = {"", "info", "strings", "images", "bones", "slots", "events", "ik",
                                      "transform", "path", "physics", "update", "boneLists", "skins",
                                      "skinEntries", "skinRefs", "attachments", "floats", "spans", "influences",
                                      "triangles", "clips", "timelines", "times", "values", "ints", "curves", "beziers",
                                      "pages", "bounds", "skinGroupFirst", "skinGroups", "skinRecords",
                                      "skinVertices"};
    _Static_assert(sizeof sec / sizeof sec[0] == MF_SD_SEC_END, "a name per section id");
    mf_sd_header h;
    memcpy(&h, blob, sizeof h);
    print_message("  sections:");
    for (uint32_t i = 0; i < h.section_count; i++) {
        mf_sd_section s;
        memcpy(&s, (const char *)blob + sizeof h + i * sizeof s, sizeof s);
        print_message(" %s %u", sec[s.id], s.count * s.elem_size);
    }
    print_message("\n");
    assert_int_equal(verts, 800);
    assert_true(load < parse);
    if (getenv("MF_WRITE_CORPUS")) {
        char path[4096];
        snprintf(path, sizeof path, "%s/big.mskb", getenv("MF_WRITE_CORPUS"));
        FILE *f = fopen(path, "wb");
        if (f) {
            fwrite(blob, 1, size, f);
            fclose(f);
        }
    }
    free(blob);
    for (int i = 0; i < CLIPS; i++) {
        mf_clip_free(clips[i]);
        free(clip_text[i]);
    }
    mf_skeleton_free(sk);
    free(rig);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(names_resolve_to_indices),
        cmocka_unit_test(weighted_mesh_uses_skeleton_bones),
        cmocka_unit_test(region_is_a_quad_in_bone_space),
        cmocka_unit_test(update_order_interleaves_constraints),
        cmocka_unit_test(update_order_invariants_hold),
        cmocka_unit_test(curves_are_presampled_accurately),
        cmocka_unit_test(bezier_samples_track_the_exact_curve),
        cmocka_unit_test(deform_keys_are_dense),
        cmocka_unit_test(discrete_keys_are_resolved),
        cmocka_unit_test(import_scale_applies_to_lengths),
        cmocka_unit_test(builds_are_deterministic),
        cmocka_unit_test(load_round_trip_matches_the_model),
        cmocka_unit_test(model_errors_are_located),
        cmocka_unit_test(clip_errors_are_located),
        cmocka_unit_test(build_file_writes_and_reports),
        cmocka_unit_test(measure_realistic_rig),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
