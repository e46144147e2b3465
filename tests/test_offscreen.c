/* Culling and the off-screen modes (mf_batch.h) with the tracks' box (mf_tracks_bounds) and the
 * split apply (mf_tracks_apply_time / _pose): TimeOnly keeps time, mixes and events going while
 * culled and returns with the pose an item never culled has; Pause freezes time; Full keeps
 * posing; an item is drawn on every frame its pose meets the view; items-only builds list what
 * whole builds list and leave the vertices; nothing allocates per frame. */
#include "testutil.h"

#include <math.h>
#include <stdio.h>

#include "mf/mf_batch.h"
#include "mf/mf_geometry.h"
#include "pose_rig.h"

static const char *RIG = RIG_HEAD "\"bones\":[{\"name\":\"root\"},{\"name\":\"hip\",\"parent\":\"root\",\"y\":-40},"
    "{\"name\":\"arm\",\"parent\":\"hip\",\"length\":30}],"
    "\"slots\":[{\"name\":\"body\",\"bone\":\"hip\",\"attachment\":\"body\"},"
    "{\"name\":\"arm\",\"bone\":\"arm\",\"attachment\":\"arm\"}],"
    "\"events\":[{\"name\":\"step\"}],"
    "\"skins\":[{\"name\":\"default\",\"attachments\":["
    "{\"slot\":\"body\",\"name\":\"body\",\"type\":\"Region\",\"width\":20,\"height\":80},"
    "{\"slot\":\"arm\",\"name\":\"arm\",\"type\":\"Region\",\"width\":30,\"height\":6,\"x\":15}]}]}";

enum { WALK, WAVE, STILL, CLIP_N };
static const char *const NAMES[] = {"walk", "wave", "still"};
static const char *const CLIPS[] = {
    /* the root walks 200 px a second, the arm swings; steps at 0.25 and 0.75 */
    CLIP_HEAD "\"length\":1,\"bones\":{\"root\":{\"translate\":{\"t\":[0,1],\"v\":[[0,0],[200,0]]}},"
              "\"arm\":{\"rotate\":{\"t\":[0,0.5,1],\"v\":[0,60,0],\"curve\":[[0.25,0,0.75,1],\"linear\"]}}},"
              "\"events\":{\"t\":[0.25,0.75],\"v\":[{\"name\":\"step\"},{\"name\":\"step\"}]}}",
    /* the hip (keyed by no other clip) dips, the arm waves; a step at 0.1 */
    CLIP_HEAD "\"length\":0.5,\"bones\":{\"hip\":{\"translate\":{\"t\":[0,0.5],\"v\":[[0,0],[0,-20]]}},"
              "\"arm\":{\"rotate\":{\"t\":[0,0.5],\"v\":[0,-90]}}},"
              "\"events\":{\"t\":[0.1],\"v\":[{\"name\":\"step\"}]}}",
    CLIP_HEAD "\"length\":1,\"bones\":{\"arm\":{\"rotate\":{\"t\":[0],\"v\":[10]}}}}",
};

static long g_allocs;
static void *count_alloc(void *user, size_t n)
{
    (void)user;
    g_allocs++;
    return malloc(n);
}
static void count_free(void *user, void *p)
{
    (void)user;
    free(p);
}

typedef struct inst {
    mf_tracks *t;
    mf_pose *pose;
    mf_draw_list *draw;
    mf_batch_state state;
    float view[4];
    int events, completes;
} inst;

static void listen(mf_tracks *t, mf_track_event_type type, mf_entry_handle h, const mf_track_entry *e,
                   const mf_fired_event *ev, void *user)
{
    (void)t, (void)h, (void)e, (void)ev;
    inst *in = user;
    in->events += type == MF_TRACK_EVENT;
    in->completes += type == MF_TRACK_COMPLETED;
}

typedef struct fixture {
    test_rig rig;
    inst in[4];
    long allocs_after_setup;
} fixture;

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    test_rig_build(&f->rig, RIG, NAMES, CLIPS, CLIP_N);
    mf_allocator al = {.alloc = count_alloc, .free = count_free};
    mf_diag diag;
    for (int i = 0; i < 4; i++) {
        inst *in = &f->in[i];
        assert_int_equal(mf_pose_create(&f->rig.data, &al, &in->pose, &diag), MF_OK);
        assert_int_equal(mf_tracks_create(&f->rig.data, &(mf_tracks_config){.default_mix = 0.25}, &al, &in->t), MF_OK);
        assert_int_equal(mf_draw_list_create(&f->rig.data, &al, &in->draw), MF_OK);
        mf_tracks_set_listener(in->t, listen, in);
    }
    f->allocs_after_setup = g_allocs;
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    for (int i = 0; i < 4; i++) {
        mf_draw_list_destroy(f->in[i].draw);
        mf_tracks_destroy(f->in[i].t);
        mf_pose_destroy(f->in[i].pose);
    }
    test_rig_free(&f->rig);
    free(f);
    return 0;
}

static mf_batch_item item(inst *in, mf_offscreen_mode mode, bool cull)
{
    return (mf_batch_item){.tracks = in->t, .pose = in->pose, .draw = in->draw, .offscreen = mode,
                           .view = cull ? in->view : NULL, .state = cull ? &in->state : NULL};
}

static void set_view(inst *in, float x0, float y0, float x1, float y1)
{
    in->view[0] = x0, in->view[1] = y0, in->view[2] = x1, in->view[3] = y1;
}

static bool meets(const float b[4], const float v[4])
{
    return b[0] <= v[2] && b[2] >= v[0] && b[1] <= v[3] && b[3] >= v[1];
}

/* The world transforms and the draw lists of two instances agree within tol. */
static void assert_same_pose(const inst *a, const inst *b, float tol)
{
    const mf_pose *p = a->pose, *q = b->pose;
    const float *pa[] = {p->a, p->b, p->c, p->d, p->wx, p->wy}, *qa[] = {q->a, q->b, q->c, q->d, q->wx, q->wy};
    for (int k = 0; k < 6; k++)
        for (int32_t i = 0; i < p->bone_count; i++)
            if (!(fabsf(pa[k][i] - qa[k][i]) <= tol))
                fail_msg("bone %d component %d: %.7g vs %.7g", i, k, (double)pa[k][i], (double)qa[k][i]);
    assert_memory_equal(p->attachment, q->attachment, sizeof(int32_t) * (size_t)p->slot_count);
    assert_int_equal(a->draw->vertex_count, b->draw->vertex_count);
    assert_true(a->draw->vertex_count > 0);
    for (int32_t i = 0; i < 2 * a->draw->vertex_count; i++)
        if (!(fabsf(a->draw->vertices[i] - b->draw->vertices[i]) <= tol))
            fail_msg("draw vertex %d: %.7g vs %.7g", i / 2, (double)a->draw->vertices[i], (double)b->draw->vertices[i]);
}

static void box_of(const mf_skel_data *d, int32_t clip, float b[4]) { assert_true(mf_skel_data_clip_bounds(d, clip, b)); }

/* ---------------------------------------------------------------- the tracks' box */

static void test_tracks_bounds(void **state)
{
    fixture *f = *state;
    const mf_skel_data *d = &f->rig.data;
    mf_tracks *t = f->in[0].t;
    float got[4], setup_b[4], walk[4], wave[4];
    box_of(d, -1, setup_b), box_of(d, WALK, walk), box_of(d, WAVE, wave);
    /* nothing plays: the setup pose's */
    assert_true(mf_tracks_bounds(t, got));
    assert_memory_equal(got, setup_b, sizeof got);
    /* the walk's box holds its path */
    assert_true(walk[2] >= 200.0f + 10.0f && walk[0] <= -10.0f);
    mf_tracks_set(t, 0, WALK, true);
    assert_true(mf_tracks_bounds(t, got));
    assert_memory_equal(got, walk, sizeof got);
    /* crossfading: no box (bones turn through angles neither clip has); once the mix is over,
     * the new clip's */
    mf_tracks_update(t, 0.1), mf_tracks_apply(t, f->in[0].pose);
    mf_tracks_set(t, 0, WAVE, false);
    assert_false(mf_tracks_bounds(t, got));
    for (int i = 0; i < 30; i++) mf_tracks_update(t, 1.0 / 60), mf_tracks_apply(t, f->in[0].pose);
    assert_true(mf_tracks_bounds(t, got));
    assert_memory_equal(got, wave, sizeof got);
    /* alpha below 1 blends with what is under it: no box */
    mf_entry_handle h = mf_tracks_current(t, 0);
    mf_tracks_entry(t, h)->alpha = 0.5f;
    assert_false(mf_tracks_bounds(t, got));
    mf_tracks_entry(t, h)->alpha = 1.0f;
    /* a layer combines poses: no box */
    mf_tracks_set(t, 1, WALK, true);
    assert_false(mf_tracks_bounds(t, got));
    /* a cleared track leaves its pose: no box from then on */
    mf_tracks_update(t, 1.0 / 60), mf_tracks_apply(t, f->in[0].pose);
    mf_tracks_clear(t, 1);
    assert_false(mf_tracks_bounds(t, got));
    assert_false(mf_tracks_bounds(NULL, got));
}

/* apply_time then apply_pose in one frame is one apply: the same pose, the same callbacks. */
static void test_split_apply(void **state)
{
    fixture *f = *state;
    inst *a = &f->in[0], *b = &f->in[1];
    mf_tracks_set(a->t, 0, WALK, true), mf_tracks_set(b->t, 0, WALK, true);
    for (int frame = 0; frame < 150; frame++) {
        if (frame == 40) mf_tracks_set(a->t, 0, WAVE, false), mf_tracks_set(b->t, 0, WAVE, false);
        if (frame == 80) mf_tracks_set(a->t, 0, WALK, true), mf_tracks_set(b->t, 0, WALK, true);
        mf_tracks_update(a->t, 1.0 / 60), mf_tracks_update(b->t, 1.0 / 60);
        assert_int_equal(mf_tracks_apply(a->t, a->pose), MF_OK);
        assert_int_equal(mf_tracks_apply_time(b->t), MF_OK);
        assert_int_equal(mf_tracks_apply_pose(b->t, b->pose), MF_OK);
        assert_memory_equal(a->pose->x, b->pose->x, sizeof(float) * (size_t)a->pose->bone_count);
        assert_memory_equal(a->pose->rot, b->pose->rot, sizeof(float) * (size_t)a->pose->bone_count);
    }
    if (!(a->events >= 4 && a->completes >= 2)) fail_msg("events %d completes %d", a->events, a->completes);
    assert_int_equal(a->events, b->events);
    assert_int_equal(a->completes, b->completes);
    assert_int_equal(mf_tracks_apply_time(NULL), MF_ERR_ARGUMENT);
    assert_int_equal(mf_tracks_apply_pose(a->t, NULL), MF_ERR_ARGUMENT);
}

/* ---------------------------------------------------------------- batch modes */

enum { FAR = 100000 };

/* TimeOnly: culled for most of a scenario with two crossfades (one while out of view), then
 * back: time, mixes and events went on; while a crossfade runs the tracks give no box, so the
 * item is posed (and matches the never-culled one); the pose and draw list on the frame it
 * returns are those of an instance never culled. */
static void test_time_only(void **state)
{
    fixture *f = *state;
    inst *a = &f->in[0], *b = &f->in[1];
    mf_tracks_set(a->t, 0, WALK, true), mf_tracks_set(b->t, 0, WALK, true);
    set_view(b, -1000, -1000, 1000, 1000);
    mf_batch_item items[2] = {item(a, MF_OFFSCREEN_TIME_ONLY, false), item(b, MF_OFFSCREEN_TIME_ONLY, true)};
    float wx_then[3], verts_then[64];
    int32_t nv = 0, culled_frames = 0, posed_out_of_view = 0;
    for (int frame = 0; frame < 130; frame++) {
        /* the wave dips the hip while visible; out of view from frame 30; the walk takes over
         * again at 50 and the hip mixes back to setup */
        if (frame == 10) mf_tracks_set(a->t, 0, WAVE, false), mf_tracks_set(b->t, 0, WAVE, false);
        if (frame == 50) mf_tracks_set(a->t, 0, WALK, true), mf_tracks_set(b->t, 0, WALK, true);
        if (frame == 30) set_view(b, FAR, FAR, FAR + 100, FAR + 100);
        mf_batch_update(items, 2, 1.0 / 60, NULL, NULL);
        float box[4];
        bool boxed = mf_tracks_bounds(b->t, box);
        assert_int_equal(b->state.culled, frame >= 30 && boxed);
        if (!b->state.culled) {
            /* posed: as the never-culled instance; remember what it showed */
            assert_same_pose(a, b, 0);
            posed_out_of_view += frame >= 30;
            memcpy(wx_then, b->pose->wx, sizeof wx_then);
            nv = b->draw->vertex_count;
            memcpy(verts_then, b->draw->vertices, sizeof(float) * 2 * (size_t)nv);
            continue;
        }
        culled_frames++;
        /* not posed: the world and the draw list stand as they were */
        assert_memory_equal(b->pose->wx, wx_then, sizeof wx_then);
        assert_int_equal(b->draw->vertex_count, nv);
        assert_memory_equal(b->draw->vertices, verts_then, sizeof(float) * 2 * (size_t)nv);
        /* but time, the mixes and the callbacks go on */
        assert_int_equal(a->events, b->events);
        assert_int_equal(a->completes, b->completes);
        assert_true(mf_tracks_entry(b->t, mf_tracks_current(b->t, 0))->track_time ==
                    mf_tracks_entry(a->t, mf_tracks_current(a->t, 0))->track_time);
    }
    assert_true(culled_frames > 60 && posed_out_of_view > 0); /* the crossfade at 50 was posed */
    assert_true(a->events >= 3);
    assert_true(a->pose->wy[1] == -40.0f); /* the hip is back at setup in the reference */
    /* back on screen: posed fully on that very frame */
    set_view(b, -1000, -1000, 1000, 1000);
    mf_batch_update(items, 2, 1.0 / 60, NULL, NULL);
    assert_false(b->state.culled);
    assert_same_pose(a, b, 1e-4f);
    for (int frame = 0; frame < 30; frame++) {
        mf_batch_update(items, 2, 1.0 / 60, NULL, NULL);
        assert_same_pose(a, b, 1e-4f);
    }
    assert_int_equal(g_allocs, f->allocs_after_setup);
}

/* Pause: the first culled frame still advances (it was visible the frame before), then time
 * stands; it comes back at the time it stopped, posed, and runs on from there. */
static void test_pause(void **state)
{
    fixture *f = *state;
    inst *b = &f->in[1], *c = &f->in[2];
    mf_tracks_set(b->t, 0, WALK, true), mf_tracks_set(c->t, 0, WALK, true);
    set_view(b, -1000, -1000, 1000, 1000);
    mf_batch_item items[1] = {item(b, MF_OFFSCREEN_PAUSE, true)};
    mf_batch_item ref[1] = {item(c, MF_OFFSCREEN_TIME_ONLY, false)};
    for (int i = 0; i < 10; i++) mf_batch_update(items, 1, 1.0 / 60, NULL, NULL), mf_batch_update(ref, 1, 1.0 / 60, NULL, NULL);
    set_view(b, FAR, FAR, FAR + 1, FAR + 1);
    mf_batch_update(items, 1, 1.0 / 60, NULL, NULL); /* the first culled frame */
    mf_batch_update(ref, 1, 1.0 / 60, NULL, NULL);
    assert_true(b->state.culled);
    double stopped = mf_tracks_entry(b->t, mf_tracks_current(b->t, 0))->track_time;
    int events = b->events;
    for (int i = 0; i < 120; i++) mf_batch_update(items, 1, 1.0 / 60, NULL, NULL);
    assert_true(b->state.culled);
    assert_true(mf_tracks_entry(b->t, mf_tracks_current(b->t, 0))->track_time == stopped);
    assert_int_equal(b->events, events);
    /* back: posed at the time it stopped, as the reference was then */
    set_view(b, -1000, -1000, 1000, 1000);
    mf_batch_update(items, 1, 1.0 / 60, NULL, NULL);
    assert_false(b->state.culled);
    assert_true(mf_tracks_entry(b->t, mf_tracks_current(b->t, 0))->track_time == stopped);
    assert_same_pose(b, c, 1e-4f);
    assert_int_equal(b->events, events); /* nothing fires twice */
    mf_batch_update(items, 1, 1.0 / 60, NULL, NULL), mf_batch_update(ref, 1, 1.0 / 60, NULL, NULL);
    assert_true(fabs(mf_tracks_entry(b->t, mf_tracks_current(b->t, 0))->track_time - (stopped + 1.0 / 60)) < 1e-12);
    assert_same_pose(b, c, 1e-4f);
    assert_int_equal(g_allocs, f->allocs_after_setup);
}

/* Full: posed every frame exactly as an item that is never culled, only not drawn. */
static void test_full(void **state)
{
    fixture *f = *state;
    inst *a = &f->in[0], *b = &f->in[1];
    mf_tracks_set(a->t, 0, WALK, true), mf_tracks_set(b->t, 0, WALK, true);
    set_view(b, FAR, FAR, FAR + 1, FAR + 1);
    mf_batch_item items[2] = {item(a, MF_OFFSCREEN_TIME_ONLY, false), item(b, MF_OFFSCREEN_FULL, true)};
    for (int frame = 0; frame < 90; frame++) {
        if (frame == 30) mf_tracks_set(a->t, 0, WAVE, false), mf_tracks_set(b->t, 0, WAVE, false);
        mf_batch_update(items, 2, 1.0 / 60, NULL, NULL);
        float box[4];
        bool boxed = mf_tracks_bounds(b->t, box); /* none while the crossfade runs: drawn then */
        assert_int_equal(b->state.culled, boxed);
        assert_memory_equal(a->pose->wx, b->pose->wx, sizeof(float) * (size_t)a->pose->bone_count);
        assert_memory_equal(a->pose->a, b->pose->a, sizeof(float) * (size_t)a->pose->bone_count);
        if (frame < 30) assert_int_equal(b->draw->item_count, 0); /* not drawn before */
    }
    assert_int_equal(a->events, b->events);
    set_view(b, -1000, -1000, 1000, 1000);
    mf_batch_update(items, 2, 1.0 / 60, NULL, NULL);
    assert_false(b->state.culled);
    assert_same_pose(a, b, 0);
}

/* world_on_gpu: the item is sampled (its local pose and events as any item's) but its world,
 * springs and draw list are left to the host (mf_gpu_batch_add_local): the world arrays keep
 * what they held, the list stays empty; a host's world update then gives what a normal item
 * has. */
static void test_world_on_gpu(void **state)
{
    fixture *f = *state;
    inst *a = &f->in[0], *b = &f->in[1];
    mf_tracks_set(a->t, 0, WALK, true), mf_tracks_set(b->t, 0, WALK, true);
    mf_batch_item items[2] = {item(a, MF_OFFSCREEN_FULL, false), item(b, MF_OFFSCREEN_FULL, false)};
    items[1].world_on_gpu = true;
    for (int frame = 0; frame < 40; frame++) {
        for (int32_t i = 0; i < b->pose->bone_count; i++) b->pose->wx[i] = b->pose->a[i] = NAN;
        mf_batch_update(items, 2, 1.0 / 60, NULL, NULL);
        for (int32_t i = 0; i < b->pose->bone_count; i++) assert_true(isnan(b->pose->wx[i]) && isnan(b->pose->a[i]));
        assert_int_equal(b->draw->item_count, 0);
        assert_memory_equal(a->pose->x, b->pose->x, sizeof(float) * (size_t)a->pose->bone_count);
        assert_memory_equal(a->pose->rot, b->pose->rot, sizeof(float) * (size_t)a->pose->bone_count);
        mf_pose_world_changed(b->pose);
        mf_pose_update_world(b->pose);
        assert_memory_equal(a->pose->wx, b->pose->wx, sizeof(float) * (size_t)a->pose->bone_count);
        assert_memory_equal(a->pose->a, b->pose->a, sizeof(float) * (size_t)a->pose->bone_count);
    }
    assert_true(a->events > 0);
    assert_int_equal(a->events, b->events);
    assert_int_equal(g_allocs, f->allocs_after_setup);
}

/* draw_items_only: the same items as a whole build (every field), the vertices of unclipped
 * items left as they were; a whole build after it writes the whole build's vertices. An item
 * without a draw list is posed as the others and its list never built. */
static void test_items_only(void **state)
{
    fixture *f = *state;
    inst *a = &f->in[0], *b = &f->in[1], *c = &f->in[2];
    mf_tracks_set(a->t, 0, WALK, true), mf_tracks_set(b->t, 0, WALK, true), mf_tracks_set(c->t, 0, WALK, true);
    mf_batch_item items[3] = {item(a, MF_OFFSCREEN_FULL, false), item(b, MF_OFFSCREEN_FULL, false),
                              item(c, MF_OFFSCREEN_FULL, false)};
    items[1].draw_items_only = true;
    items[2].draw = NULL;
    const float mark = -12345.5f;
    for (int frame = 0; frame < 40; frame++) {
        for (int32_t i = 0; i < 2 * b->draw->vertex_cap; i++) b->draw->vertices[i] = mark;
        bool whole = frame % 10 == 9; /* now and then a whole build on b too */
        items[1].draw_items_only = !whole;
        mf_batch_update(items, 3, 1.0 / 60, NULL, NULL);
        assert_int_equal(a->draw->item_count, 2);
        assert_int_equal(b->draw->item_count, a->draw->item_count);
        assert_int_equal(b->draw->vertex_count, a->draw->vertex_count);
        assert_int_equal(b->draw->index_count, a->draw->index_count);
        assert_memory_equal(b->draw->items, a->draw->items, sizeof(mf_draw_item) * (size_t)a->draw->item_count);
        assert_memory_equal(b->draw->uvs, a->draw->uvs, sizeof(float) * 2 * (size_t)a->draw->vertex_count);
        for (int32_t i = 0; i < 2 * a->draw->vertex_count; i++) {
            if (whole) assert_memory_equal(&b->draw->vertices[i], &a->draw->vertices[i], sizeof(float));
            else assert_true(b->draw->vertices[i] == mark);
        }
        assert_int_equal(c->draw->item_count, 0);
        assert_memory_equal(c->pose->wx, a->pose->wx, sizeof(float) * (size_t)a->pose->bone_count);
        assert_memory_equal(c->pose->a, a->pose->a, sizeof(float) * (size_t)a->pose->bone_count);
    }
    assert_int_equal(g_allocs, f->allocs_after_setup);
}

/* Whatever the clips do, an item whose pose meets the view is drawn that frame: a still clip
 * beside the view, then the walk towards it (the tracks' box grows on the frame it starts),
 * then a crossfade back; for every mode. Items without tracks use the setup pose's box. */
static void test_drawn_when_visible(void **state)
{
    fixture *f = *state;
    inst *a = &f->in[0];
    mf_offscreen_mode modes[] = {MF_OFFSCREEN_TIME_ONLY, MF_OFFSCREEN_PAUSE, MF_OFFSCREEN_FULL};
    for (int m = 0; m < 3; m++) {
        inst *b = &f->in[1 + m];
        mf_tracks_set(b->t, 0, STILL, true);
        set_view(b, 120, -500, 400, 500);
    }
    mf_tracks_set(a->t, 0, STILL, true);
    mf_batch_item items[4] = {item(a, MF_OFFSCREEN_TIME_ONLY, false), item(&f->in[1], modes[0], true), item(&f->in[2], modes[1], true),
                              item(&f->in[3], modes[2], true)};
    int drawn = 0, culled = 0;
    for (int frame = 0; frame < 200; frame++) {
        for (int i = 0; i < 4; i++) {
            if (frame == 30) mf_tracks_set(f->in[i].t, 0, WALK, false);
            if (frame == 120) mf_tracks_set(f->in[i].t, 0, STILL, true);
        }
        mf_batch_update(items, 4, 1.0 / 60, NULL, NULL);
        for (int m = 0; m < 3; m++) {
            inst *b = &f->in[1 + m];
            float r[4];
            bool visible = !b->state.culled;
            if (visible) {
                assert_true(mf_pose_bounds(b->pose, r));
                assert_true(b->draw->vertex_count > 0);
            }
            if (m == 0 && mf_pose_bounds(a->pose, r) && meets(r, b->view)) assert_true(visible);
            drawn += visible, culled += !visible;
        }
    }
    assert_true(drawn > 100 && culled > 50); /* both happened */
    /* a still pose without tracks: culled by the setup pose's box */
    mf_batch_state st = {0};
    float view[4] = {FAR, FAR, FAR + 1, FAR + 1};
    mf_batch_item still = {.pose = f->in[0].pose, .draw = f->in[0].draw, .view = view, .state = &st};
    mf_batch_update(&still, 1, 1.0 / 60, NULL, NULL);
    assert_true(st.culled);
    float setup_b[4];
    box_of(&f->rig.data, -1, setup_b);
    assert_memory_equal(st.bounds, setup_b, sizeof setup_b);
    view[0] = setup_b[2], view[2] = setup_b[2] + 5, view[1] = 0, view[3] = 1; /* touching an edge: visible */
    mf_batch_update(&still, 1, 1.0 / 60, NULL, NULL);
    assert_false(st.culled);
    assert_int_equal(g_allocs, f->allocs_after_setup);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_tracks_bounds, setup, teardown),
        cmocka_unit_test_setup_teardown(test_split_apply, setup, teardown),
        cmocka_unit_test_setup_teardown(test_time_only, setup, teardown),
        cmocka_unit_test_setup_teardown(test_pause, setup, teardown),
        cmocka_unit_test_setup_teardown(test_full, setup, teardown),
        cmocka_unit_test_setup_teardown(test_world_on_gpu, setup, teardown),
        cmocka_unit_test_setup_teardown(test_items_only, setup, teardown),
        cmocka_unit_test_setup_teardown(test_drawn_when_visible, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
