/* Culling by the tracks' box (mf_tracks_bounds, mf_batch_update): an item
 * whose pose meets its view must be drawn, so the pose an item never culled shows must lie in
 * the tracks' box on every frame; and callbacks must fire exactly as for an item never culled. */
#include "testutil.h"

#include <math.h>
#include <stdio.h>

#include "mf/mf_batch.h"
#include "mf/mf_geometry.h"
#include "pose_rig.h"

/* a 200 px arm on a root; a step event */
static const char *RIG = RIG_HEAD "\"bones\":[{\"name\":\"root\"},{\"name\":\"arm\",\"parent\":\"root\",\"length\":200}],"
    "\"slots\":[{\"name\":\"arm\",\"bone\":\"arm\",\"attachment\":\"arm\"}],"
    "\"events\":[{\"name\":\"step\"}],"
    "\"skins\":[{\"name\":\"default\",\"attachments\":["
    "{\"slot\":\"arm\",\"name\":\"arm\",\"type\":\"Region\",\"width\":200,\"height\":10,\"x\":100}]}]}";

enum { SHIFT, ARM0, ARM170, STEPS, CLIP_N };
static const char *const NAMES[] = {"shift", "arm0", "arm170", "steps"};
static const char *const CLIPS[] = {
    /* the root stands 1000 px to the right */
    CLIP_HEAD "\"length\":1,\"bones\":{\"root\":{\"translate\":{\"t\":[0],\"v\":[[1000,0]]}}}}",
    CLIP_HEAD "\"length\":1,\"bones\":{\"arm\":{\"rotate\":{\"t\":[0],\"v\":[0]}}}}",
    CLIP_HEAD "\"length\":1,\"bones\":{\"arm\":{\"rotate\":{\"t\":[0],\"v\":[170]}}}}",
    /* walks 300 px and back, with steps */
    CLIP_HEAD "\"length\":0.7,\"bones\":{\"root\":{\"translate\":{\"t\":[0,0.35,0.7],\"v\":[[0,0],[300,0],[0,0]]}}},"
              "\"events\":{\"t\":[0,0.2,0.5],\"v\":[{\"name\":\"step\"},{\"name\":\"step\"},{\"name\":\"step\"}]}}",
};

typedef struct inst {
    mf_tracks *t;
    mf_pose *pose;
    mf_draw_list *draw;
    mf_batch_state state;
    float view[4];
    int log_n;
    int log[4096]; /* callback type, clip, event time in ms */
} inst;

static void listen(mf_tracks *t, mf_track_event_type type, mf_entry_handle h, const mf_track_entry *e,
                   const mf_fired_event *ev, void *user)
{
    (void)t, (void)h;
    inst *in = user;
    if (in->log_n + 3 > (int)(sizeof in->log / sizeof in->log[0])) return;
    in->log[in->log_n++] = (int)type;
    in->log[in->log_n++] = e->clip;
    in->log[in->log_n++] = ev ? (int)lroundf(ev->time * 1000) : -1;
}

typedef struct fixture {
    test_rig rig;
    inst in[2];
} fixture;

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    test_rig_build(&f->rig, RIG, NAMES, CLIPS, CLIP_N);
    mf_diag diag;
    for (int i = 0; i < 2; i++) {
        inst *in = &f->in[i];
        assert_int_equal(mf_pose_create(&f->rig.data, NULL, &in->pose, &diag), MF_OK);
        assert_int_equal(mf_tracks_create(&f->rig.data, &(mf_tracks_config){.default_mix = 1.0}, NULL, &in->t), MF_OK);
        assert_int_equal(mf_draw_list_create(&f->rig.data, NULL, &in->draw), MF_OK);
        mf_tracks_set_listener(in->t, listen, in);
    }
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    for (int i = 0; i < 2; i++) {
        mf_draw_list_destroy(f->in[i].draw);
        mf_tracks_destroy(f->in[i].t);
        mf_pose_destroy(f->in[i].pose);
    }
    test_rig_free(&f->rig);
    free(f);
    return 0;
}

/* The drawn pose of a (never culled) instance lies inside its tracks' box, when they give one. */
static void assert_pose_in_box(const inst *in, int frame)
{
    float p[4], b[4];
    assert_true(mf_pose_bounds(in->pose, p));
    if (!mf_tracks_bounds(in->t, b)) return; /* no box: the item is never culled */
    if (!(p[0] >= b[0] && p[1] >= b[1] && p[2] <= b[2] && p[3] <= b[3]))
        fail_msg("frame %d: pose box {%g %g %g %g} outside the tracks' box {%g %g %g %g}", frame, (double)p[0],
                 (double)p[1], (double)p[2], (double)p[3], (double)b[0], (double)b[1], (double)b[2], (double)b[3]);
}

static void frame_of(inst *in)
{
    mf_tracks_update(in->t, 1.0 / 60);
    assert_int_equal(mf_tracks_apply(in->t, in->pose), MF_OK);
    mf_pose_update_world(in->pose);
}

/* Track 0 at alpha 0.5: the pose lies half way between the setup pose and the clip, which the
 * clip's box alone does not hold (the setup pose's box is not added). */
static void test_base_alpha_box(void **state)
{
    fixture *f = *state;
    inst *a = &f->in[0];
    mf_entry_handle h = mf_tracks_set(a->t, 0, SHIFT, true);
    mf_tracks_entry(a->t, h)->alpha = 0.5f;
    for (int frame = 0; frame < 10; frame++) {
        frame_of(a);
        assert_pose_in_box(a, frame);
    }
}

/* A crossfade that turns a 200 px arm from 0 to 170 degrees passes through 85 degrees, where
 * the arm reaches 200 px down: neither clip's box (nor their union) holds it. */
static void test_crossfade_rotation_box(void **state)
{
    fixture *f = *state;
    inst *a = &f->in[0];
    mf_tracks_set(a->t, 0, ARM0, true);
    frame_of(a);
    mf_tracks_set(a->t, 0, ARM170, true); /* 1 s mix */
    for (int frame = 0; frame < 60; frame++) {
        frame_of(a);
        assert_pose_in_box(a, frame);
    }
}

/* The same crossfade through mf_batch_update: a view below the skeleton, where the arm is half
 * way through the mix, must see it drawn (the twin, never culled, draws there). */
static void test_crossfade_rotation_culled(void **state)
{
    fixture *f = *state;
    inst *a = &f->in[0], *b = &f->in[1];
    float view[4] = {-50, 150, 50, 250};
    mf_batch_item items[2] = {{.tracks = a->t, .pose = a->pose, .draw = a->draw},
                              {.tracks = b->t, .pose = b->pose, .draw = b->draw, .view = view, .state = &b->state}};
    for (int i = 0; i < 2; i++) mf_tracks_set(f->in[i].t, 0, ARM0, true);
    mf_batch_update(items, 2, 1.0 / 60, NULL, NULL);
    for (int i = 0; i < 2; i++) mf_tracks_set(f->in[i].t, 0, ARM170, true);
    int twin_meets = 0, missed = 0;
    for (int frame = 0; frame < 60; frame++) {
        mf_batch_update(items, 2, 1.0 / 60, NULL, NULL);
        float p[4];
        assert_true(mf_pose_bounds(a->pose, p));
        if (p[0] <= view[2] && p[2] >= view[0] && p[1] <= view[3] && p[3] >= view[1]) {
            twin_meets++;
            missed += b->state.culled;
        }
    }
    assert_true(twin_meets > 0);
    if (missed) fail_msg("culled on %d of the %d frames its pose met the view", missed, twin_meets);
}

/* Clearing a layer leaves the pose as it was (the tracks do not reset it, as in Spine), so an
 * item never culled still shows the root 1000 px right; the tracks' box is the setup pose's. */
static void test_cleared_layer_box(void **state)
{
    fixture *f = *state;
    inst *a = &f->in[0];
    mf_tracks_set(a->t, 1, SHIFT, true);
    for (int frame = 0; frame < 5; frame++) frame_of(a);
    mf_tracks_clear(a->t, 1);
    for (int frame = 0; frame < 5; frame++) {
        frame_of(a);
        assert_pose_in_box(a, frame);
    }
}

/* Callbacks of a TimeOnly / Full item culled on and off at random, with sets, queued entries with
 * delays, empties and a layer: the same callbacks in the same order as a twin never culled. */
static void run_random_callbacks(fixture *f, mf_offscreen_mode mode, unsigned seed)
{
    inst *a = &f->in[0], *b = &f->in[1];
    mf_batch_item items[2] = {{.tracks = a->t, .pose = a->pose, .draw = a->draw},
                              {.tracks = b->t, .pose = b->pose, .draw = b->draw, .offscreen = mode, .view = b->view,
                               .state = &b->state}};
    uint32_t r = seed;
#define RND() (r = r * 1664525u + 1013904223u, (r >> 8) & 0xffff)
    int culled = 0;
    for (int frame = 0; frame < 600; frame++) {
        unsigned op = RND() % 40;
        /* layers are rare, and never cleared (a clear ends culling for good): culling must happen */
        int track = RND() % 8 == 0 ? 1 : 0, clip = (int)(RND() % CLIP_N);
        bool loop = RND() & 1;
        double delay = (double)(RND() % 100) / 100.0 - 0.3;
        for (int i = 0; i < 2; i++) {
            mf_tracks *t = f->in[i].t;
            if (op == 0) mf_tracks_set(t, track, clip, loop);
            else if (op == 1) mf_tracks_add(t, track, clip, loop, delay);
            else if (op == 2) mf_tracks_set_empty(t, track, 0.3);
            else if (op == 3) mf_tracks_add_empty(t, track, 0.2, delay);
            else if (op == 4 && track == 1) mf_tracks_set_empty(t, track, 0.2);
        }
        if (RND() % 20 == 0) {
            bool far = RND() & 1;
            float x = far ? 1e5f : -1e4f;
            b->view[0] = x, b->view[1] = x, b->view[2] = x + 2e4f, b->view[3] = x + 2e4f;
        }
        mf_batch_update(items, 2, 1.0 / 60, NULL, NULL);
        culled += b->state.culled;
        if (a->log_n != b->log_n || memcmp(a->log, b->log, sizeof(int) * (size_t)a->log_n))
            fail_msg("mode %d seed %u frame %d: callbacks differ (%d vs %d logged)", (int)mode, seed, frame, a->log_n / 3,
                     b->log_n / 3);
        a->log_n = b->log_n = 0;
    }
#undef RND
    assert_true(culled > 10); /* mixes (1 s each here) leave no box: culled between them */
}

static void test_random_callbacks_time_only(void **state)
{
    for (unsigned seed = 1; seed <= 4; seed++) {
        teardown(state), setup(state);
        run_random_callbacks(*state, MF_OFFSCREEN_TIME_ONLY, seed);
    }
}

static void test_random_callbacks_full(void **state)
{
    for (unsigned seed = 1; seed <= 4; seed++) {
        teardown(state), setup(state);
        run_random_callbacks(*state, MF_OFFSCREEN_FULL, seed);
    }
}

/* Pause: a clip set while the item is paused starts when it returns. The return frame poses
 * with no time passed (mf_tracks_apply_pose) and must not swallow the clip's first events: a
 * twin never culled, given the same clip and a frame of dt 0 there, fires the step keyed at 0. */
static void test_pause_set_while_culled(void **state)
{
    fixture *f = *state;
    inst *a = &f->in[0], *b = &f->in[1];
    float far[4] = {1e5f, 1e5f, 1e5f + 1, 1e5f + 1};
    mf_batch_item ia = {.tracks = a->t, .pose = a->pose, .draw = a->draw};
    mf_batch_item ib = {.tracks = b->t, .pose = b->pose, .draw = b->draw, .offscreen = MF_OFFSCREEN_PAUSE,
                        .view = b->view, .state = &b->state};
    memcpy(b->view, far, sizeof far);
    mf_batch_update(&ia, 1, 1.0 / 60, NULL, NULL), mf_batch_update(&ib, 1, 1.0 / 60, NULL, NULL);
    assert_true(b->state.culled);
    for (int i = 0; i < 10; i++) mf_batch_update(&ib, 1, 1.0 / 60, NULL, NULL); /* paused */
    mf_tracks_set(a->t, 0, STEPS, true), mf_tracks_set(b->t, 0, STEPS, true);
    b->view[0] = b->view[1] = -1e4f, b->view[2] = b->view[3] = 1e4f;
    mf_batch_update(&ia, 1, 0, NULL, NULL), mf_batch_update(&ib, 1, 1.0 / 60, NULL, NULL); /* b: returns, no time */
    assert_false(b->state.culled);
    for (int i = 0; i < 60; i++) mf_batch_update(&ia, 1, 1.0 / 60, NULL, NULL), mf_batch_update(&ib, 1, 1.0 / 60, NULL, NULL);
    int ea = 0, eb = 0;
    for (int i = 0; i < a->log_n; i += 3) ea += a->log[i] == MF_TRACK_EVENT;
    for (int i = 0; i < b->log_n; i += 3) eb += b->log[i] == MF_TRACK_EVENT;
    if (ea != eb) fail_msg("never culled: %d step events, paused and returned: %d", ea, eb);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_base_alpha_box, setup, teardown),
        cmocka_unit_test_setup_teardown(test_crossfade_rotation_box, setup, teardown),
        cmocka_unit_test_setup_teardown(test_crossfade_rotation_culled, setup, teardown),
        cmocka_unit_test_setup_teardown(test_cleared_layer_box, setup, teardown),
        cmocka_unit_test_setup_teardown(test_random_callbacks_time_only, setup, teardown),
        cmocka_unit_test_setup_teardown(test_random_callbacks_full, setup, teardown),
        cmocka_unit_test_setup_teardown(test_pause_set_while_culled, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
