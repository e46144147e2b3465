/* Slots on small rigs built in the test: sequence modes (hold, once, loop, ping-pong, their
 * reverses, per-key delay), skin rules (composition order, skin-required bones and
 * constraints, attachment re-resolution), clipping in the draw list, and deform of unweighted,
 * weighted and linked meshes. Expected values are worked out by hand in the comments. */
#include <math.h>
#include <stdio.h>

#include "testutil.h"
#include "pose_rig.h"
#include "mf/mf_geometry.h"
#include "mf/mf_pose.h"

#define NEAR(a, b) assert_true(fabs((double)(a) - (double)(b)) < 1e-3)

static const char *att_name(const mf_skel_data *d, int32_t att)
{
    return att < 0 ? "(none)" : mf_skel_data_string(d, d->attachments[att].name);
}

/* ---------------------------------------------------------------- sequences */

static const char *SEQ_RIG = RIG_HEAD "\"bones\":[{\"name\":\"root\"}],"
    "\"slots\":[{\"name\":\"s\",\"bone\":\"root\",\"attachment\":\"a\"}],"
    "\"skins\":[{\"name\":\"default\",\"attachments\":[{\"slot\":\"s\",\"name\":\"a\",\"type\":\"Region\","
    "\"width\":10,\"height\":10,\"sequence\":{\"count\":4,\"start\":1,\"digits\":1}}]}]}";

#define SEQ_CLIP(mode, at, delay) CLIP_HEAD "\"length\":2,\"slots\":{\"s\":{\"sequence\":{\"t\":[" at "]," \
    "\"v\":[{\"mode\":\"" mode "\",\"index\":0,\"delay\":" delay "}]}}}}"

static int32_t frame_at(mf_pose *p, int32_t clip, double t)
{
    mf_pose_reset(p);
    mf_pose_sample(p, &(mf_clip_sample){.clip = clip, .time = t, .prev_time = -1, .weight = 1});
    return p->seq_index[0];
}

static void test_sequence_modes(void **state)
{
    (void)state;
    const char *names[] = {"hold", "once", "loop", "pingpong", "onceReverse", "loopReverse",
                           "pingpongReverse", "late"};
    const char *clips[] = {SEQ_CLIP("hold", "0", "0.1"), SEQ_CLIP("once", "0", "0.1"),
                           SEQ_CLIP("loop", "0", "0.1"), SEQ_CLIP("pingpong", "0", "0.1"),
                           SEQ_CLIP("onceReverse", "0", "0.1"), SEQ_CLIP("loopReverse", "0", "0.1"),
                           SEQ_CLIP("pingpongReverse", "0", "0.1"), SEQ_CLIP("loop", "0.5", "0.2")};
    test_rig r;
    test_rig_build(&r, SEQ_RIG, names, clips, 8);
    mf_pose *p = NULL;
    assert_int_equal(mf_pose_create(&r.data, NULL, &p, NULL), MF_OK);
    int32_t c[8];
    for (int i = 0; i < 8; i++) assert_true((c[i] = mf_skel_data_find_clip(&r.data, names[i])) >= 0);
    /* 4 frames, one per 0.1 s: step = floor(t / 0.1) */
    assert_int_equal(frame_at(p, c[0], 0.25), 0);  /* hold: the key's index */
    assert_int_equal(frame_at(p, c[1], 0.25), 2);  /* once: 0 1 2 3 3 3 */
    assert_int_equal(frame_at(p, c[1], 0.55), 3);
    assert_int_equal(frame_at(p, c[2], 0.55), 1);  /* loop: step 5 mod 4 */
    assert_int_equal(frame_at(p, c[3], 0.25), 2);  /* ping-pong: 0 1 2 3 2 1 0 1 … */
    assert_int_equal(frame_at(p, c[3], 0.45), 2);
    assert_int_equal(frame_at(p, c[3], 0.55), 1);
    assert_int_equal(frame_at(p, c[3], 0.65), 0);
    assert_int_equal(frame_at(p, c[4], 0.15), 2);  /* once reversed: 3 2 1 0 0 */
    assert_int_equal(frame_at(p, c[4], 0.55), 0);
    assert_int_equal(frame_at(p, c[5], 0.05), 3);  /* loop reversed: 3 2 1 0 3 2 … */
    assert_int_equal(frame_at(p, c[5], 0.55), 2);
    assert_int_equal(frame_at(p, c[6], 0.05), 3);  /* ping-pong reversed: 3 2 1 0 1 2 3 2 … */
    assert_int_equal(frame_at(p, c[6], 0.45), 1);
    assert_int_equal(frame_at(p, c[6], 0.65), 3);
    /* the delay counts from the key's own time: key at 0.5, 0.2 s a frame */
    assert_int_equal(frame_at(p, c[7], 0.75), 1);
    assert_int_equal(frame_at(p, c[7], 1.15), 3);
    assert_int_equal(frame_at(p, c[7], 0.25), -1); /* before the key: the setup frame */
    /* the draw list draws image + frame */
    mf_draw_list *dl = NULL;
    assert_int_equal(mf_draw_list_create(&r.data, NULL, &dl), MF_OK);
    frame_at(p, c[2], 0.25);
    mf_pose_update_world(p);
    mf_draw_list_build(dl, p);
    assert_int_equal(dl->item_count, 1);
    assert_int_equal(dl->items[0].image, r.data.attachments[p->attachment[0]].image + 2);
    mf_draw_list_destroy(dl);
    mf_pose_destroy(p);
    test_rig_free(&r);
}

/* A packed sequence has one uv set a frame: the draw list must read the shown frame's set.
 * Frame f (image "a<f+1>", 16x16, untrimmed) sits at x = 16 f on a 64x16 page, so its quad's
 * u runs from f / 4 to (f + 1) / 4 and v from 0 to 1. */
static void test_sequence_packed_uvs(void **state)
{
    (void)state;
    mf_diag diag;
    mf_skeleton *sk = NULL;
    assert_int_equal(mf_skeleton_parse(SEQ_RIG, strlen(SEQ_RIG), "test.mskel", &sk, &diag), MF_OK);
    const char *clip_text = SEQ_CLIP("hold", "0", "0.1");
    mf_clip *cl = NULL;
    assert_int_equal(mf_clip_parse(clip_text, strlen(clip_text), "hold", "hold", &cl, &diag), MF_OK);
    char page_name[] = "_0.png", names[4][3] = {"a1", "a2", "a3", "a4"};
    mf_build_atlas_page page = {.name = page_name, .width = 64, .height = 16};
    mf_build_atlas_image images[4];
    for (int f = 0; f < 4; f++)
        images[f] = (mf_build_atlas_image){names[f], 0, 16 * f, 0, 16, 16, 0, 0, 16, 16};
    mf_build_atlas atlas = {.page_count = 1, .image_count = 4, .pages = &page, .images = images};
    test_rig r;
    assert_int_equal(mf_build_skeleton_atlas(sk, "test.mskel", (const mf_clip *const *)&cl, NULL, 1, &atlas,
                                             &r.blob, &r.size, &diag),
                     MF_OK);
    assert_int_equal(mf_skel_data_load(r.blob, r.size, &r.data, &diag), MF_OK);
    assert_int_equal(r.data.attachments[0].uv_sets, 4);
    mf_pose *p = NULL;
    mf_draw_list *dl = NULL;
    assert_int_equal(mf_pose_create(&r.data, NULL, &p, NULL), MF_OK);
    assert_int_equal(mf_draw_list_create(&r.data, NULL, &dl), MF_OK);
    for (int32_t f = -1; f < 4; f++) {
        mf_pose_reset(p);
        p->seq_index[0] = f; /* -1: the setup frame (0) */
        mf_pose_update_world(p);
        mf_draw_list_build(dl, p);
        assert_int_equal(dl->item_count, 1);
        int32_t shown = f < 0 ? 0 : f;
        float u0 = 9, u1 = -9, v0 = 9, v1 = -9;
        for (int32_t k = 0; k < dl->items[0].vertex_count; k++) {
            const float *uv = dl->uvs + 2 * (dl->items[0].vertex_first + k);
            u0 = fminf(u0, uv[0]), u1 = fmaxf(u1, uv[0]), v0 = fminf(v0, uv[1]), v1 = fmaxf(v1, uv[1]);
        }
        NEAR(u0, shown * 0.25f), NEAR(u1, (shown + 1) * 0.25f), NEAR(v0, 0), NEAR(v1, 1);
        assert_int_equal(dl->items[0].image, r.data.attachments[0].image + shown);
    }
    mf_draw_list_destroy(dl);
    mf_pose_destroy(p);
    test_rig_free(&r);
    mf_clip_free(cl);
    mf_skeleton_free(sk);
}

/* ---------------------------------------------------------------- skins */

static const char *SKIN_RIG = RIG_HEAD "\"bones\":[{\"name\":\"root\"},"
    "{\"name\":\"extra\",\"parent\":\"root\",\"x\":5,\"skinRequired\":true},"
    "{\"name\":\"t\",\"parent\":\"root\",\"y\":10}],"
    "\"slots\":[{\"name\":\"s1\",\"bone\":\"root\",\"attachment\":\"x\"},"
    "{\"name\":\"s2\",\"bone\":\"root\",\"attachment\":\"y\"},"
    "{\"name\":\"s3\",\"bone\":\"extra\",\"attachment\":\"z\"}],"
    "\"ik\":[{\"name\":\"k\",\"bones\":[\"extra\"],\"target\":\"t\",\"skinRequired\":true}],"
    "\"skins\":["
    "{\"name\":\"default\",\"attachments\":[{\"slot\":\"s1\",\"name\":\"x\",\"type\":\"Region\",\"width\":10,\"height\":10}]},"
    "{\"name\":\"A\",\"bones\":[\"extra\"],\"constraints\":[\"k\"],\"attachments\":["
    "{\"slot\":\"s1\",\"name\":\"x\",\"type\":\"Region\",\"width\":20,\"height\":10},"
    "{\"slot\":\"s2\",\"name\":\"y\",\"type\":\"Region\",\"width\":20,\"height\":10},"
    "{\"slot\":\"s3\",\"name\":\"z\",\"type\":\"Region\",\"width\":20,\"height\":10}]},"
    "{\"name\":\"B\",\"attachments\":[{\"slot\":\"s1\",\"name\":\"x\",\"type\":\"Region\",\"width\":30,\"height\":10}]}]}";

static float width_of(const mf_pose *p, int32_t slot)
{
    return p->attachment[slot] < 0 ? -1 : p->data->attachments[p->attachment[slot]].width;
}

static void test_skin_rules(void **state)
{
    (void)state;
    test_rig r;
    test_rig_build(&r, SKIN_RIG, NULL, NULL, 0);
    const mf_skel_data *d = &r.data;
    mf_skin_cache *cache = NULL;
    mf_pose *p = NULL;
    assert_int_equal(mf_skin_cache_create(d, NULL, &cache), MF_OK);
    assert_int_equal(mf_pose_create(d, NULL, &p, NULL), MF_OK);
    int32_t A = mf_skel_data_find_skin(d, "A"), B = mf_skel_data_find_skin(d, "B");
    /* no skin: the default skin's x; y and z exist in no active skin; the skin-required bone
     * and constraint are off */
    NEAR(width_of(p, 0), 10);
    assert_int_equal(p->attachment[1], -1);
    assert_int_equal(p->active[1], 0);
    assert_int_equal(p->ik_active[0], 0);
    /* [A, B]: later wins per (slot, name): B's x; A gives y and z and activates bone and IK */
    int32_t ab[] = {A, B}, ba[] = {B, A};
    assert_int_equal(mf_pose_set_skins(p, cache, ab, 2, NULL), MF_OK);
    NEAR(width_of(p, 0), 30);
    NEAR(width_of(p, 1), 20);
    NEAR(width_of(p, 2), 20);
    assert_int_equal(p->active[1], 1);
    assert_int_equal(p->ik_active[0], 1);
    mf_pose_update_world(p);
    NEAR(atan2(p->c[1], p->a[1]) * 180 / 3.14159265358979, 116.565); /* (5, 0) → (0, 10) */
    /* [B, A]: A wins */
    assert_int_equal(mf_pose_set_skins(p, cache, ba, 2, NULL), MF_OK);
    NEAR(width_of(p, 0), 20);
    /* the composed table is cached per list and shared */
    const mf_composed_skin *t1 = NULL, *t2 = NULL;
    assert_int_equal(mf_skin_cache_compose(cache, ab, 2, &t1, NULL), MF_OK);
    assert_int_equal(mf_skin_cache_compose(cache, ab, 2, &t2, NULL), MF_OK);
    assert_ptr_equal(t1, t2);
    assert_int_equal(mf_composed_skin_find(d, t1, 0, d->slots[0].attachment),
                     mf_skel_data_skin_attachment(d, B, 0, d->slots[0].attachment));
    /* [B] only: x by name from B, y and z gone, bone and IK off again */
    assert_int_equal(mf_pose_set_skins(p, cache, &B, 1, NULL), MF_OK);
    NEAR(width_of(p, 0), 30);
    assert_int_equal(p->attachment[1], -1);
    assert_int_equal(p->attachment[2], -1);
    assert_int_equal(p->active[1], 0);
    assert_int_equal(p->ik_active[0], 0);
    /* an attachment keyed away from the setup one is re-resolved by its own name */
    assert_int_equal(mf_pose_set_skins(p, cache, &A, 1, NULL), MF_OK);
    p->attachment[0] = -1;
    assert_int_equal(mf_pose_set_skins(p, cache, &B, 1, NULL), MF_OK);
    NEAR(width_of(p, 0), 30); /* none → the setup name x, which B has */
    /* a bad skin index is refused with a located message */
    int32_t bad = 99;
    mf_diag diag;
    mf_diag_clear(&diag);
    assert_int_equal(mf_pose_set_skins(p, cache, &bad, 1, &diag), MF_ERR_ARGUMENT);
    assert_true(diag.message[0] != 0);
    /* the draw list leaves out slots of inactive bones */
    mf_draw_list *dl = NULL;
    assert_int_equal(mf_draw_list_create(d, NULL, &dl), MF_OK);
    assert_int_equal(mf_pose_set_skins(p, cache, ab, 2, NULL), MF_OK);
    mf_pose_update_world(p);
    mf_draw_list_build(dl, p);
    assert_int_equal(dl->item_count, 3);
    p->active[1] = 0;
    mf_draw_list_build(dl, p);
    assert_int_equal(dl->item_count, 2);
    assert_string_equal(att_name(d, p->attachment[0]), "x");
    assert_string_equal(att_name(d, p->attachment[1]), "y");
    mf_draw_list_destroy(dl);
    mf_pose_destroy(p);
    mf_skin_cache_destroy(cache);
    test_rig_free(&r);
}

/* ---------------------------------------------------------------- clipping */

static const char *CLIP_RIG = RIG_HEAD "\"bones\":[{\"name\":\"root\"}],"
    "\"slots\":[{\"name\":\"clip\",\"bone\":\"root\",\"attachment\":\"c\"},"
    "{\"name\":\"in1\",\"bone\":\"root\",\"attachment\":\"r\"},"
    "{\"name\":\"away\",\"bone\":\"root\",\"attachment\":\"far\"},"
    "{\"name\":\"in2\",\"bone\":\"root\",\"attachment\":\"r\"},"
    "{\"name\":\"after\",\"bone\":\"root\",\"attachment\":\"r\"}],"
    "\"skins\":[{\"name\":\"default\",\"attachments\":["
    "{\"slot\":\"clip\",\"name\":\"c\",\"type\":\"Clipping\",\"end\":\"in2\",\"vertices\":[0,0,10,0,10,10,0,10]},"
    "{\"slot\":\"in1\",\"name\":\"r\",\"type\":\"Region\",\"width\":20,\"height\":20},"
    "{\"slot\":\"away\",\"name\":\"far\",\"type\":\"Region\",\"x\":100,\"width\":20,\"height\":20},"
    "{\"slot\":\"in2\",\"name\":\"r\",\"type\":\"Region\",\"width\":20,\"height\":20},"
    "{\"slot\":\"after\",\"name\":\"r\",\"type\":\"Region\",\"width\":20,\"height\":20}]}]}";

/* Draw runs are kept: an unchanged item keeps its uvs and indices in place and only its
 * vertices are written; any change of draw order or attachment rewrites what moved, and the
 * list always equals a fresh list's. */
static void same_lists(const mf_draw_list *x, const mf_draw_list *y)
{
    assert_int_equal(x->item_count, y->item_count);
    assert_int_equal(x->vertex_count, y->vertex_count);
    assert_int_equal(x->index_count, y->index_count);
    assert_memory_equal(x->vertices, y->vertices, (size_t)x->vertex_count * 2 * sizeof(float));
    assert_memory_equal(x->uvs, y->uvs, (size_t)x->vertex_count * 2 * sizeof(float));
    assert_memory_equal(x->indices, y->indices, (size_t)x->index_count * sizeof(uint16_t));
    for (int32_t i = 0; i < x->item_count; i++) {
        assert_int_equal(x->items[i].slot, y->items[i].slot);
        assert_int_equal(x->items[i].attachment, y->items[i].attachment);
    }
}

static void test_draw_runs_kept(void **state)
{
    (void)state;
    test_rig r;
    test_rig_build(&r, SKIN_RIG, NULL, NULL, 0);
    const mf_skel_data *d = &r.data;
    mf_skin_cache *cache = NULL;
    mf_pose *p = NULL;
    mf_draw_list *dl = NULL;
    assert_int_equal(mf_skin_cache_create(d, NULL, &cache), MF_OK);
    assert_int_equal(mf_pose_create(d, NULL, &p, NULL), MF_OK);
    assert_int_equal(mf_draw_list_create(d, NULL, &dl), MF_OK);
    int32_t A = mf_skel_data_find_skin(d, "A"), B = mf_skel_data_find_skin(d, "B");
    assert_int_equal(mf_pose_set_skins(p, cache, &A, 1, NULL), MF_OK);
    mf_pose_update_world(p);
    mf_draw_list_build(dl, p);
    assert_int_equal(dl->item_count, 3);
    assert_int_equal(dl->items_kept, 0);
    /* moved, same draw runs: every item kept, vertices follow */
    p->x[0] = 40;
    mf_pose_update_world(p);
    mf_draw_list_build(dl, p);
    assert_int_equal(dl->items_kept, 3);
    for (int step = 0; step < 3; step++) {
        if (step == 0) { /* draw order reversed */
            int32_t t = p->draw_order[0];
            p->draw_order[0] = p->draw_order[2], p->draw_order[2] = t;
        } else if (step == 1) { /* another skin: slot 0 shows B's wider x */
            int32_t ab[] = {A, B};
            assert_int_equal(mf_pose_set_skins(p, cache, ab, 2, NULL), MF_OK);
        } else { /* a slot emptied */
            p->attachment[1] = -1;
        }
        mf_pose_update_world(p);
        mf_draw_list_build(dl, p);
        assert_true(dl->items_kept < dl->item_count);
        mf_draw_list *fresh = NULL;
        assert_int_equal(mf_draw_list_create(d, NULL, &fresh), MF_OK);
        mf_draw_list_build(fresh, p);
        same_lists(dl, fresh);
        mf_draw_list_destroy(fresh);
    }
    mf_draw_list_destroy(dl);
    mf_pose_destroy(p);
    mf_skin_cache_destroy(cache);
    test_rig_free(&r);
}

static void test_clipping(void **state)
{
    (void)state;
    test_rig r;
    test_rig_build(&r, CLIP_RIG, NULL, NULL, 0);
    mf_pose *p = NULL;
    mf_draw_list *dl = NULL;
    assert_int_equal(mf_pose_create(&r.data, NULL, &p, NULL), MF_OK);
    assert_int_equal(mf_draw_list_create(&r.data, NULL, &dl), MF_OK);
    mf_pose_update_world(p);
    mf_draw_list_build(dl, p);
    assert_int_equal(dl->item_count, 4); /* the clip itself is not drawn */
    /* in1 and in2: the 20×20 square around 0 cut to the clip square [0, 10]²: every vertex
     * inside it and the triangles' area 100 */
    for (int i = 0; i < 4; i++) {
        const mf_draw_item *it = &dl->items[i];
        const char *slot = mf_skel_data_string(&r.data, r.data.slots[it->slot].name);
        if (!strcmp(slot, "after")) {
            assert_false(it->clipped);
            assert_int_equal(it->vertex_count, 4);
            continue;
        }
        assert_true(it->clipped);
        if (!strcmp(slot, "away")) { /* clipped away entirely: listed, nothing to draw */
            assert_int_equal(it->vertex_count, 0);
            continue;
        }
        const float *v = dl->vertices + 2 * it->vertex_first;
        for (int k = 0; k < it->vertex_count; k++) {
            assert_true(v[2 * k] > -1e-4 && v[2 * k] < 10 + 1e-4);
            assert_true(v[2 * k + 1] > -1e-4 && v[2 * k + 1] < 10 + 1e-4);
        }
        double area = 0;
        for (int k = 0; k + 2 < it->index_count; k += 3) {
            const uint16_t *t = dl->indices + it->index_first + k;
            const float *a = v + 2 * t[0], *b = v + 2 * t[1], *c = v + 2 * t[2];
            area += fabs((b[0] - a[0]) * (c[1] - a[1]) - (c[0] - a[0]) * (b[1] - a[1])) / 2;
        }
        NEAR(area, 100);
        /* uvs follow: the clip square is the image's lower right quarter */
        const float *uv = dl->uvs + 2 * it->vertex_first;
        for (int k = 0; k < it->vertex_count; k++) {
            NEAR(uv[2 * k], 0.5 + v[2 * k] / 20);
            NEAR(uv[2 * k + 1], 0.5 + v[2 * k + 1] / 20);
        }
    }
    /* convex decomposition of an L shape: pieces cover its area (3 × 100) */
    float L[] = {0, 0, 20, 0, 20, 10, 10, 10, 10, 20, 0, 20}, out[64];
    int32_t first[16], count[16];
    int32_t n = mf_convex_decompose(L, 6, out, 32, first, count, 16, NULL);
    assert_true(n >= 2);
    double total = 0;
    for (int k = 0; k < n; k++) {
        double a2 = 0;
        for (int j = 0; j < count[k]; j++) {
            const float *a = out + 2 * (first[k] + j), *b = out + 2 * (first[k] + (j + 1) % count[k]);
            a2 += (double)a[0] * b[1] - (double)b[0] * a[1];
        }
        total += fabs(a2) / 2;
    }
    NEAR(total, 300);
    mf_draw_list_destroy(dl);
    mf_pose_destroy(p);
    test_rig_free(&r);
}

/* ---------------------------------------------------------------- deform */

static const char *DEFORM_RIG = RIG_HEAD "\"bones\":[{\"name\":\"root\"},"
    "{\"name\":\"turned\",\"parent\":\"root\",\"rot\":90},"
    "{\"name\":\"b2\",\"parent\":\"root\",\"x\":10}],"
    "\"slots\":[{\"name\":\"m\",\"bone\":\"turned\",\"attachment\":\"mesh\"},"
    "{\"name\":\"w\",\"bone\":\"root\",\"attachment\":\"wm\"}],"
    "\"skins\":[{\"name\":\"default\",\"attachments\":["
    "{\"slot\":\"m\",\"name\":\"mesh\",\"type\":\"Mesh\",\"vertices\":[0,0,10,0,0,10],\"uvs\":[0,0,1,0,0,1],"
    "\"triangles\":[0,1,2],\"hull\":3,\"width\":10,\"height\":10},"
    "{\"slot\":\"m\",\"name\":\"lm\",\"type\":\"LinkedMesh\",\"parent\":\"mesh\",\"deform\":true,\"width\":10,\"height\":10},"
    "{\"slot\":\"m\",\"name\":\"lm2\",\"type\":\"LinkedMesh\",\"parent\":\"mesh\",\"deform\":false,\"width\":10,\"height\":10},"
    "{\"slot\":\"w\",\"name\":\"wm\",\"type\":\"Mesh\",\"weights\":{\"bones\":[\"root\",\"b2\"],"
    "\"v\":[[0,0.5,0,0,1,0.5,0,0],[1,1,0,5],[0,1,0,5]]},\"uvs\":[0,0,1,0,0,1],\"triangles\":[0,1,2],\"hull\":3,"
    "\"width\":10,\"height\":10}]}]}";

/* offsets: mesh vertex 0 by (2, 4) at t 1; weighted: vertex 0's influences by (2, 0), (4, 0) */
static const char *DEFORM_CLIP = CLIP_HEAD "\"length\":1,\"deform\":{\"default\":{"
    "\"m\":{\"mesh\":{\"t\":[0,1],\"offset\":[0,0],\"v\":[[0,0],[2,4]]}},"
    "\"w\":{\"wm\":{\"t\":[0,1],\"offset\":[0,0],\"v\":[[0,0,0,0],[2,0,4,0]]}}}}}";

static void test_deform(void **state)
{
    (void)state;
    const char *names[] = {"d"}, *clips[] = {DEFORM_CLIP};
    test_rig r;
    test_rig_build(&r, DEFORM_RIG, names, clips, 1);
    const mf_skel_data *d = &r.data;
    mf_pose *p = NULL;
    assert_int_equal(mf_pose_create(d, NULL, &p, NULL), MF_OK);
    mf_clip_sample s = {.clip = 0, .time = 0.5, .prev_time = -1, .weight = 1};
    float v[8];
    /* unweighted, half way: offset (1, 2) in the bone's space; the bone is turned 90° (Y down:
     * x → down, y → left), so vertex 0 lands at (-2, 1) */
    mf_pose_reset(p);
    mf_pose_sample(p, &s);
    mf_pose_update_world(p);
    assert_int_equal(mf_pose_world_vertices(p, 0, p->attachment[0], v, 4), 3);
    NEAR(v[0], -2), NEAR(v[1], 1);
    NEAR(v[2], 0), NEAR(v[3], 10); /* vertex 1 untouched: (10, 0) turned */
    /* weighted, half way: 0.5·((0,0) + (1,0)) + 0.5·((10,0) + (2,0)) = (6.5, 0) */
    assert_int_equal(mf_pose_world_vertices(p, 1, p->attachment[1], v, 4), 3);
    NEAR(v[0], 6.5), NEAR(v[1], 0);
    NEAR(v[2], 10), NEAR(v[3], 5);
    /* without the clip the setup geometry: weighted vertex 0 is the midpoint (5, 0) */
    mf_pose_reset(p);
    mf_pose_update_world(p);
    mf_pose_world_vertices(p, 1, p->attachment[1], v, 4);
    NEAR(v[0], 5), NEAR(v[1], 0);
    /* linked meshes: with deform true the parent's keys apply, with false they do not */
    int32_t lm = mf_skel_data_skin_attachment(d, 0, 0, mf_skel_data_find_string(d, "lm"));
    int32_t lm2 = mf_skel_data_skin_attachment(d, 0, 0, mf_skel_data_find_string(d, "lm2"));
    assert_true(lm >= 0 && lm2 >= 0);
    s.time = 1;
    mf_pose_reset(p);
    p->attachment[0] = lm;
    mf_pose_sample(p, &s);
    mf_pose_update_world(p);
    mf_pose_world_vertices(p, 0, lm, v, 4);
    NEAR(v[0], -4), NEAR(v[1], 2);
    mf_pose_reset(p);
    p->attachment[0] = lm2;
    mf_pose_sample(p, &s);
    mf_pose_update_world(p);
    mf_pose_world_vertices(p, 0, lm2, v, 4);
    NEAR(v[0], 0), NEAR(v[1], 0);
    mf_pose_destroy(p);
    test_rig_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sequence_modes),
        cmocka_unit_test(test_sequence_packed_uvs),
        cmocka_unit_test(test_skin_rules),
        cmocka_unit_test(test_draw_runs_kept),
        cmocka_unit_test(test_clipping),
        cmocka_unit_test(test_deform),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
