/* The track system (mf_tracks.h): queueing and delays, the mix chain cap, the rotation rule,
 * thresholds, masks, hold previous, reverse, empty clips and layers, callbacks, stale handles,
 * and allocations after creation. */
#include <stdio.h>

#include "testutil.h"

#include <math.h>
#include <stdio.h>

#include "mf/mf_pose.h"
#include "mf/mf_pose_mix.h"
#include "mf/mf_tracks.h"
#include "pose_rig.h"

static const char *RIG = RIG_HEAD
    "\"bones\":[{\"name\":\"root\"},{\"name\":\"arm\",\"parent\":\"root\",\"length\":50},"
    "{\"name\":\"hand\",\"parent\":\"arm\",\"x\":50}],"
    "\"slots\":[{\"name\":\"s\",\"bone\":\"arm\",\"attachment\":\"a\"}],"
    "\"events\":[{\"name\":\"step\"}],"
    "\"skins\":[{\"name\":\"default\",\"attachments\":["
    "{\"slot\":\"s\",\"name\":\"a\",\"type\":\"Region\",\"width\":10,\"height\":10},"
    "{\"slot\":\"s\",\"name\":\"b\",\"type\":\"Region\",\"width\":10,\"height\":10}]}]}";

enum { CLIP_A, CLIP_B, CLIP_C, CLIP_D, CLIP_N };
static const char *const NAMES[] = {"a", "b", "c", "d"};
static const char *const CLIPS[] = {
    /* a: arm at 179, hand moved; an event at 0.5 */
    CLIP_HEAD "\"length\":1,\"bones\":{\"arm\":{\"rotate\":{\"t\":[0],\"v\":[179]}},"
              "\"hand\":{\"translate\":{\"t\":[0],\"v\":[[10,0]]}}},"
              "\"events\":{\"t\":[0.5],\"v\":[{\"name\":\"step\"}]}}",
    /* b: arm at -179 */
    CLIP_HEAD "\"length\":1,\"bones\":{\"arm\":{\"rotate\":{\"t\":[0],\"v\":[-179]}}}}",
    /* c: arm 0 -> 90 over 0.5 s, attachment b from 0.25 */
    CLIP_HEAD "\"length\":0.5,\"bones\":{\"arm\":{\"rotate\":{\"t\":[0,0.5],\"v\":[0,90]}}},"
              "\"slots\":{\"s\":{\"attachment\":{\"t\":[0.25],\"v\":[\"b\"]}}}}",
    /* d: hand turned 45 */
    CLIP_HEAD "\"length\":1,\"bones\":{\"hand\":{\"rotate\":{\"t\":[0],\"v\":[45]}}}}",
};

typedef struct fixture {
    test_rig rig;
    mf_pose *pose;
    mf_tracks *t;
    int log[256];
    int log_n;
    int events;
} fixture;

static void listen(mf_tracks *t, mf_track_event_type type, mf_entry_handle h, const mf_track_entry *e,
                   const mf_fired_event *ev, void *user)
{
    (void)t, (void)h, (void)e, (void)ev;
    fixture *f = user;
    if (f->log_n < 256) f->log[f->log_n++] = (int)type * 100 + e->clip + 1;
    if (type == MF_TRACK_EVENT) f->events++;
}

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    test_rig_build(&f->rig, RIG, NAMES, CLIPS, CLIP_N);
    mf_diag diag;
    assert_int_equal(mf_pose_create(&f->rig.data, NULL, &f->pose, &diag), MF_OK);
    assert_int_equal(mf_tracks_create(&f->rig.data, NULL, NULL, &f->t), MF_OK);
    mf_tracks_set_listener(f->t, listen, f);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    mf_tracks_destroy(f->t);
    mf_pose_destroy(f->pose);
    test_rig_free(&f->rig);
    free(f);
    return 0;
}

/* One frame: advance, pose from setup, apply. */
static void step(fixture *f, double dt)
{
    mf_tracks_update(f->t, dt);
    mf_pose_reset(f->pose);
    assert_int_equal(mf_tracks_apply(f->t, f->pose), MF_OK);
}

static float wrap(float r) { return r - 360.0f * floorf((r + 180.0f) / 360.0f); }

static int count_log(const fixture *f, int code)
{
    int n = 0;
    for (int i = 0; i < f->log_n; i++) n += f->log[i] == code;
    return n;
}

static void test_queue_delay(void **state)
{
    fixture *f = *state;
    mf_tracks_set_default_mix(f->t, 0.2);
    mf_entry_handle a = mf_tracks_set(f->t, 0, CLIP_A, true);
    mf_entry_handle b = mf_tracks_add(f->t, 0, CLIP_B, false, 0);
    /* delay <= 0: from a's loop end less b's mix */
    assert_true(fabs(mf_tracks_entry(f->t, b)->delay - 0.8) < 1e-9);
    step(f, 0);
    int frame = 0;
    while (mf_tracks_current(f->t, 0).index == a.index && frame < 200) step(f, 1.0 / 60), frame++;
    /* takes over on the first update whose previous track time reached 0.8 s */
    assert_in_range(frame, 48, 50);
    assert_int_equal(mf_tracks_current(f->t, 0).index, b.index);
    assert_int_equal(mf_tracks_entry(f->t, b)->mixing_from, a.index);
    /* delay > 0 counts from the start of the entry before */
    mf_tracks_clear(f->t, 0);
    mf_entry_handle c = mf_tracks_set(f->t, 0, CLIP_C, false);
    mf_entry_handle d = mf_tracks_add(f->t, 0, CLIP_D, true, 0.1);
    step(f, 0);
    for (int i = 0; i < 5; i++) step(f, 1.0 / 60);
    assert_int_equal(mf_tracks_current(f->t, 0).index, c.index);
    int n = 5; /* takes over once c's previous track time reached 0.1 s: 6/60 + rounding */
    while (mf_tracks_current(f->t, 0).index == c.index && n < 100) step(f, 1.0 / 60), n++;
    assert_in_range(n, 7, 8);
    assert_int_equal(mf_tracks_current(f->t, 0).index, d.index);
    /* a non-looping entry followed by nothing ends the track after track_end */
    mf_tracks_clear(f->t, 0);
    mf_entry_handle e = mf_tracks_set(f->t, 1, CLIP_C, false);
    mf_tracks_entry(f->t, e)->track_end = 0.5;
    step(f, 0);
    for (int i = 0; i < 40; i++) step(f, 1.0 / 60);
    assert_int_equal(mf_tracks_current(f->t, 1).index, -1);
    assert_null(mf_tracks_entry(f->t, e));
}

static void test_chain_cap(void **state)
{
    fixture *f = *state;
    mf_tracks_set_default_mix(f->t, 10);
    step(f, 0);
    for (int i = 0; i < 9; i++) {
        mf_tracks_set(f->t, 0, i % 2 ? CLIP_B : CLIP_A, true);
        step(f, 1.0 / 60);
        mf_entry_handle h = mf_tracks_current(f->t, 0);
        const mf_track_entry *cur = mf_tracks_entry(f->t, h);
        assert_non_null(cur);
        int depth = 1;
        mf_track_entry *base = (mf_track_entry *)cur - h.index; /* entries are one array */
        for (int32_t e = cur->mixing_from; e >= 0; e = base[e].mixing_from) depth++;
        assert_true(depth <= MF_TRACKS_CHAIN_MAX);
        assert_int_equal(depth, i + 1 < MF_TRACKS_CHAIN_MAX ? i + 1 : MF_TRACKS_CHAIN_MAX);
    }
    /* the dropped ones ended and were disposed: 9 set, 4 still mixing */
    assert_int_equal(count_log(f, MF_TRACK_ENDED * 100 + CLIP_A + 1) + count_log(f, MF_TRACK_ENDED * 100 + CLIP_B + 1), 5);
    assert_int_equal(count_log(f, MF_TRACK_DISPOSED * 100 + CLIP_A + 1) + count_log(f, MF_TRACK_DISPOSED * 100 + CLIP_B + 1), 5);
}

static void test_rotation_rule(void **state)
{
    fixture *f = *state;
    /* the latched turn: 0 -> 179 picks +179; the target moving to -179 keeps turning forward */
    mf_rotation_latch l = {0};
    assert_true(fabsf(mf_rotation_latched_turn(0, 179, &l) - 179) < 1e-4f);
    assert_true(fabsf(mf_rotation_latched_turn(0, -179, &l) - 181) < 1e-4f);
    mf_rotation_latch l2 = {0};
    assert_true(fabsf(mf_rotation_latched_turn(0, -179, &l2) + 179) < 1e-4f);
    /* a (179) to b (-179): the short way through 180, never through 0, all mix long */
    mf_tracks_set_mix(f->t, CLIP_A, CLIP_B, 0.5);
    assert_true(fabs(mf_tracks_mix(f->t, CLIP_A, CLIP_B) - 0.5) < 1e-9);
    mf_tracks_set(f->t, 0, CLIP_A, true);
    step(f, 0);
    mf_tracks_set(f->t, 0, CLIP_B, true);
    for (int i = 0; i < 40; i++) {
        step(f, 1.0 / 60);
        float r = wrap(f->pose->rot[1] - 180.0f);
        assert_true(fabsf(r) <= 1.001f);
    }
    assert_true(fabsf(wrap(f->pose->rot[1] + 179)) < 1e-3f);
}

static void test_thresholds(void **state)
{
    fixture *f = *state;
    int32_t slot = 0, att_a = f->pose->attachment[0];
    mf_tracks_set_default_mix(f->t, 1);
    /* c keys attachment b at 0.25; mixing out to d, its keys stop at once (threshold 0) */
    mf_entry_handle c = mf_tracks_set(f->t, 0, CLIP_C, true);
    step(f, 0);
    for (int i = 0; i < 20; i++) step(f, 1.0 / 60);
    int32_t att_b = f->pose->attachment[slot];
    assert_int_not_equal(att_b, att_a);
    mf_tracks_set(f->t, 0, CLIP_D, true);
    step(f, 1.0 / 60);
    assert_int_equal(f->pose->attachment[slot], att_a);
    /* with a threshold of 0.5 they hold while the mix is below it */
    mf_tracks_clear(f->t, 0);
    c = mf_tracks_set(f->t, 0, CLIP_C, true);
    mf_tracks_entry(f->t, c)->mix_attachment_threshold = 0.5f;
    mf_tracks_entry(f->t, c)->event_threshold = 1; /* and its events keep firing */
    step(f, 0);
    for (int i = 0; i < 20; i++) step(f, 1.0 / 60);
    mf_tracks_set(f->t, 0, CLIP_D, true);
    step(f, 1.0 / 60);
    assert_int_equal(f->pose->attachment[slot], att_b);
    for (int i = 0; i < 40; i++) step(f, 1.0 / 60);
    assert_int_equal(f->pose->attachment[slot], att_a);
    /* a layer below its alpha attachment threshold leaves attachments alone */
    mf_tracks_clear(f->t, 0);
    mf_entry_handle l = mf_tracks_set(f->t, 1, CLIP_C, true);
    mf_tracks_entry(f->t, l)->alpha = 0.3f;
    mf_tracks_entry(f->t, l)->alpha_attachment_threshold = 0.5f;
    step(f, 0);
    for (int i = 0; i < 20; i++) step(f, 1.0 / 60);
    assert_int_equal(f->pose->attachment[slot], att_a);
    mf_tracks_entry(f->t, l)->alpha_attachment_threshold = 0;
    step(f, 1.0 / 60);
    assert_int_equal(f->pose->attachment[slot], att_b);
    mf_tracks_clear(f->t, 1);
    /* events: a fires "step" at 0.5 each loop; mixing out with threshold 0 it stops */
    mf_tracks_clear(f->t, 0);
    f->events = 0;
    mf_entry_handle a = mf_tracks_set(f->t, 0, CLIP_A, true);
    step(f, 0);
    for (int i = 0; i < 60; i++) step(f, 1.0 / 60);
    assert_int_equal(f->events, 1);
    mf_tracks_set(f->t, 0, CLIP_D, true);
    for (int i = 0; i < 50; i++) step(f, 1.0 / 60);
    assert_int_equal(f->events, 1);
    mf_tracks_clear(f->t, 0);
    f->events = 0;
    a = mf_tracks_set(f->t, 0, CLIP_A, true);
    mf_tracks_entry(f->t, a)->event_threshold = 1;
    step(f, 0);
    mf_tracks_set(f->t, 0, CLIP_D, true);
    for (int i = 0; i < 50; i++) step(f, 1.0 / 60);
    assert_int_equal(f->events, 1);
}

static void test_mask_and_layers(void **state)
{
    fixture *f = *state;
    mf_tracks_set(f->t, 0, CLIP_A, true);
    /* a layer turning the hand, masked off the hand: nothing changes */
    static const uint8_t mask[3] = {1, 1, 0};
    mf_entry_handle d = mf_tracks_set(f->t, 1, CLIP_D, true);
    mf_tracks_entry(f->t, d)->bone_mask = mask;
    step(f, 0);
    assert_true(fabsf(f->pose->rot[2]) < 1e-4f);
    assert_true(fabsf(f->pose->x[2] - 60) < 1e-4f); /* track 0 still moves it */
    /* unmasked at alpha 0.5: half way */
    mf_tracks_entry(f->t, d)->bone_mask = NULL;
    mf_tracks_entry(f->t, d)->alpha = 0.5f;
    step(f, 1.0 / 60);
    assert_true(fabsf(f->pose->rot[2] - 22.5f) < 1e-3f);
    /* additive at 0.5 adds half of the clip's change */
    mf_tracks_entry(f->t, d)->blend = MF_CLIP_ADDITIVE;
    step(f, 1.0 / 60);
    assert_true(fabsf(f->pose->rot[2] - 22.5f) < 1e-3f);
    mf_tracks_entry(f->t, d)->alpha = 1;
    mf_tracks_entry(f->t, d)->blend = MF_CLIP_REPLACE;
    /* an empty clip with a mix fades the layer out, then the track clears */
    mf_tracks_set_empty(f->t, 1, 0.5);
    step(f, 0.25);
    assert_true(fabsf(f->pose->rot[2] - 22.5f) < 0.5f);
    for (int i = 0; i < 5; i++) step(f, 0.25);
    assert_true(fabsf(f->pose->rot[2]) < 1e-4f);
    assert_int_equal(mf_tracks_current(f->t, 1).index, -1);
}

static void test_hold_previous(void **state)
{
    fixture *f = *state;
    mf_tracks_set_default_mix(f->t, 1);
    for (int hold = 0; hold < 2; hold++) {
        mf_tracks_clear_all(f->t);
        mf_tracks_set(f->t, 0, CLIP_A, true);
        step(f, 0);
        mf_entry_handle d = mf_tracks_set(f->t, 0, CLIP_D, true);
        mf_tracks_entry(f->t, d)->hold_previous = hold != 0;
        step(f, 0.5);
        /* the arm only a keys: held at 179 under d, else half way back to setup */
        if (hold) assert_true(fabsf(f->pose->rot[1] - 179) < 1e-3f);
        else assert_true(fabsf(f->pose->rot[1] - 89.5f) < 0.5f);
        assert_true(fabsf(f->pose->rot[2] - 22.5f) < 0.5f);
    }
}

/* Track 0 ignores Additive (its entries pose from the setup pose, as Spine's track 0 does),
 * mixing out included: an Additive entry fading out under the next one on track 0 takes the
 * same frames as a Replace one, without resetting the pose between frames (a property only it
 * keys goes back to setup smoothly, not left where the last frame put it). */
static void test_additive_on_track0_mixes_out_as_replace(void **state)
{
    fixture *f = *state;
    mf_tracks_set_default_mix(f->t, 1);
    float rot[2][40], hand[2][40];
    for (int additive = 0; additive < 2; additive++) {
        mf_tracks_clear_all(f->t);
        mf_pose_reset(f->pose);
        mf_entry_handle a = mf_tracks_set(f->t, 0, CLIP_A, true);
        mf_tracks_entry(f->t, a)->blend = additive ? MF_CLIP_ADDITIVE : MF_CLIP_REPLACE;
        for (int i = 0; i < 3; i++) {
            mf_tracks_update(f->t, 1.0 / 60);
            assert_int_equal(mf_tracks_apply(f->t, f->pose), MF_OK);
        }
        assert_true(fabsf(f->pose->rot[1] - 179) < 1e-3f);
        mf_tracks_set(f->t, 0, CLIP_D, true);
        for (int i = 0; i < 40; i++) { /* no reset between frames */
            mf_tracks_update(f->t, 1.0 / 60);
            assert_int_equal(mf_tracks_apply(f->t, f->pose), MF_OK);
            rot[additive][i] = f->pose->rot[1], hand[additive][i] = f->pose->rot[2];
        }
        /* 2/3 of the mix: a third of the way from setup (0) to 179 */
        assert_true(fabsf(rot[additive][39] - 179.0f / 3) < 1.0f);
    }
    for (int i = 0; i < 40; i++) {
        assert_float_equal(rot[1][i], rot[0][i], 1e-4);
        assert_float_equal(hand[1][i], hand[0][i], 1e-4);
    }
}

static void test_reverse_and_time_scale(void **state)
{
    fixture *f = *state;
    mf_entry_handle c = mf_tracks_set(f->t, 0, CLIP_C, false);
    mf_tracks_entry(f->t, c)->reverse = true;
    mf_tracks_entry(f->t, c)->time_scale = 2;
    step(f, 0);
    assert_true(fabsf(f->pose->rot[1] - 90) < 1e-3f);
    step(f, 0.05); /* 0.1 s of clip time: 90 * 0.4 / 0.5 */
    assert_true(fabsf(f->pose->rot[1] - 72) < 1e-2f);
    mf_tracks_set_time_scale(f->t, 0.5f);
    step(f, 0.1); /* 0.1 s more */
    assert_true(fabsf(f->pose->rot[1] - 54) < 1e-2f);
}

static void test_callbacks_and_handles(void **state)
{
    fixture *f = *state;
    mf_tracks_set_default_mix(f->t, 0.1);
    mf_entry_handle a = mf_tracks_set(f->t, 0, CLIP_A, true);
    assert_int_equal(f->log_n, 1);
    assert_int_equal(f->log[0], MF_TRACK_STARTED * 100 + CLIP_A + 1);
    step(f, 0);
    for (int i = 0; i < 61; i++) step(f, 1.0 / 60); /* event at 0.5, completed at 1 */
    assert_int_equal(count_log(f, MF_TRACK_EVENT * 100 + CLIP_A + 1), 1);
    assert_int_equal(count_log(f, MF_TRACK_COMPLETED * 100 + CLIP_A + 1), 1);
    int n0 = f->log_n;
    mf_entry_handle b = mf_tracks_set(f->t, 0, CLIP_B, true);
    assert_int_equal(f->log[n0], MF_TRACK_INTERRUPTED * 100 + CLIP_A + 1);
    assert_int_equal(f->log[n0 + 1], MF_TRACK_STARTED * 100 + CLIP_B + 1);
    assert_non_null(mf_tracks_entry(f->t, a)); /* still mixing out */
    for (int i = 0; i < 10; i++) step(f, 1.0 / 60);
    assert_int_equal(count_log(f, MF_TRACK_ENDED * 100 + CLIP_A + 1), 1);
    assert_int_equal(count_log(f, MF_TRACK_DISPOSED * 100 + CLIP_A + 1), 1);
    /* disposed: the handle is stale, even once the pool reuses its entry */
    assert_null(mf_tracks_entry(f->t, a));
    mf_entry_handle c = mf_tracks_add(f->t, 0, CLIP_C, false, 5);
    assert_non_null(mf_tracks_entry(f->t, c));
    assert_null(mf_tracks_entry(f->t, a));
    assert_null(mf_tracks_entry(f->t, (mf_entry_handle){-1, 0}));
    assert_null(mf_tracks_entry(f->t, (mf_entry_handle){1000, 0}));
    /* setting again disposes what was queued, without starting it */
    mf_tracks_set(f->t, 0, CLIP_D, true);
    assert_null(mf_tracks_entry(f->t, c));
    assert_int_equal(count_log(f, MF_TRACK_STARTED * 100 + CLIP_C + 1), 0);
    assert_int_equal(count_log(f, MF_TRACK_DISPOSED * 100 + CLIP_C + 1), 1);
    assert_non_null(mf_tracks_entry(f->t, b));
    /* bad arguments give no entry */
    assert_int_equal(mf_tracks_set(f->t, 99, CLIP_A, true).index, -1);
    assert_int_equal(mf_tracks_set(f->t, 0, 99, true).index, -1);
    assert_int_equal(mf_tracks_set_mix(f->t, 0, 99, 1), MF_ERR_ARGUMENT);
}

/* ---------------------------------------------------------------- allocations */

static int allocs;
static void *count_alloc(void *user, size_t size)
{
    (void)user;
    allocs++;
    return malloc(size);
}
static void count_free(void *user, void *p)
{
    (void)user;
    free(p);
}

static void test_no_allocation(void **state)
{
    fixture *f = *state;
    mf_allocator al = {.alloc = count_alloc, .free = count_free};
    mf_tracks *t = NULL;
    assert_int_equal(mf_tracks_create(&f->rig.data, &(mf_tracks_config){.default_mix = 0.2f}, &al, &t), MF_OK);
    int after_create = allocs;
    for (int frame = 0; frame < 600; frame++) {
        if (frame % 20 == 0) mf_tracks_set(t, 0, frame % 40 ? CLIP_A : CLIP_B, true);
        if (frame % 30 == 0) mf_tracks_add(t, 0, CLIP_C, false, 0);
        if (frame % 50 == 0) mf_tracks_set(t, 1, CLIP_D, true);
        if (frame % 50 == 25) mf_tracks_set_empty(t, 1, 0.2);
        mf_tracks_update(t, 1.0 / 60);
        mf_pose_reset(f->pose);
        mf_tracks_apply(t, f->pose);
    }
    assert_int_equal(allocs, after_create);
    assert_int_equal(mf_tracks_pool_size(t), MF_TRACKS_POOL_INITIAL);
    /* more live entries than the pool holds: it grows (and only then allocates) */
    for (int i = 0; i < 20; i++) mf_tracks_add(t, 2, CLIP_A, true, 1);
    assert_true(allocs > after_create);
    assert_true(mf_tracks_pool_size(t) >= 21);
    mf_tracks_destroy(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_queue_delay, setup, teardown),
        cmocka_unit_test_setup_teardown(test_chain_cap, setup, teardown),
        cmocka_unit_test_setup_teardown(test_rotation_rule, setup, teardown),
        cmocka_unit_test_setup_teardown(test_thresholds, setup, teardown),
        cmocka_unit_test_setup_teardown(test_mask_and_layers, setup, teardown),
        cmocka_unit_test_setup_teardown(test_hold_previous, setup, teardown),
        cmocka_unit_test_setup_teardown(test_additive_on_track0_mixes_out_as_replace, setup, teardown),
        cmocka_unit_test_setup_teardown(test_reverse_and_time_scale, setup, teardown),
        cmocka_unit_test_setup_teardown(test_callbacks_and_handles, setup, teardown),
        cmocka_unit_test_setup_teardown(test_no_allocation, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
