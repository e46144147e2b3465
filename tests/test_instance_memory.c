/* What creating an instance leaves unwritten: a pose's key segments (each clip's cleared on its
 * first sample) and deform offsets, a tracks' mixing arrays and callback queues (written before
 * they are read), so that pages a rig's unplayed clips, an idle mixer or queue reserve are never
 * committed. Created from an allocator that fills its blocks with one byte value, a pose and a
 * tracks compute exactly what zeroed ones do, frame after frame, and the segments of a clip
 * never sampled keep that value. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "pose_rig.h"
#include "../src/runtime/pose/pose_internal.h"
#include "mf/mf_geometry.h"
#include "mf/mf_pose.h"
#include "mf/mf_tracks.h"

static const char *RIG = RIG_HEAD "\"bones\":[{\"name\":\"root\"},{\"name\":\"a\",\"parent\":\"root\",\"x\":3},"
    "{\"name\":\"b\",\"parent\":\"a\",\"x\":3},{\"name\":\"c\",\"parent\":\"b\",\"x\":3}],"
    "\"slots\":[{\"name\":\"s\",\"bone\":\"c\"}],\"events\":[{\"name\":\"step\"}]}";

static const char *const NAMES[] = {"walk", "wave", "unused"};
static const char *const CLIPS[] = {
    CLIP_HEAD "\"length\":1,\"bones\":{\"a\":{\"rotate\":{\"t\":[0,0.5,1],\"v\":[-60,40,120]}},"
    "\"b\":{\"translate\":{\"t\":[0,1],\"v\":[[0,0],[20,-5]]},\"scale\":{\"t\":[0,0.4,1],\"v\":[[1,1],[1.5,0.5],[1,1]]}}},"
    "\"slots\":{\"s\":{\"rgba\":{\"t\":[0,0.6],\"v\":[\"#ffffffff\",\"#ff000080\"]}}},"
    "\"events\":{\"t\":[0.2,0.7],\"v\":[{\"name\":\"step\"},{\"name\":\"step\",\"float\":0.5}]}}",
    CLIP_HEAD "\"length\":0.5,\"bones\":{\"c\":{\"rotate\":{\"t\":[0,0.25,0.5],\"v\":[0,45,0]}},"
    "\"a\":{\"rotate\":{\"t\":[0,0.5],\"v\":[10,-10]}}}}",
    CLIP_HEAD "\"length\":1,\"bones\":{\"a\":{\"rotate\":{\"t\":[0,1],\"v\":[0,90]}},"
    "\"c\":{\"translate\":{\"t\":[0,1],\"v\":[[0,0],[5,5]]}}}}",
};

static void same_pose(const mf_pose *p, const mf_pose *q)
{
    size_t nb = (size_t)p->bone_count * sizeof(float);
    const float *pw[] = {p->a, p->b, p->c, p->d, p->wx, p->wy, p->x, p->rot, p->sx};
    const float *qw[] = {q->a, q->b, q->c, q->d, q->wx, q->wy, q->x, q->rot, q->sx};
    for (size_t k = 0; k < sizeof pw / sizeof pw[0]; k++) assert_memory_equal(pw[k], qw[k], nb);
    assert_memory_equal(p->color, q->color, (size_t)p->slot_count * 4 * sizeof(float));
}

static size_t clip_seg_bytes(const mf_skel_data *d, int32_t c)
{
    return (size_t)d->clips[c].timeline_count * sizeof(mf_pose_seg);
}

static void test_pose_segments(void **state)
{
    (void)state;
    test_rig r;
    test_rig_build(&r, RIG, NAMES, CLIPS, 3);
    int32_t walk = mf_skel_data_find_clip(&r.data, "walk"), wave = mf_skel_data_find_clip(&r.data, "wave");
    int32_t unused = mf_skel_data_find_clip(&r.data, "unused");
    assert_true(walk >= 0 && wave >= 0 && unused >= 0);
    mf_allocator filled = tu_filling_allocator();
    mf_pose *pz = NULL, *pf = NULL;
    assert_int_equal(mf_pose_create(&r.data, NULL, &pz, NULL), MF_OK);
    assert_int_equal(mf_pose_create(&r.data, &filled, &pf, NULL), MF_OK);
    const mf_pose_seg *segs = pf->scratch->seg;
    for (int32_t c = 0; c < r.data.clip_count; c++) /* create wrote no clip's segments */
        assert_true(tu_all_fill(segs + r.data.clips[c].timeline_first, clip_seg_bytes(&r.data, c)));
    for (int f = 0; f <= 90; f++) {
        double t = f / 30.0, t0 = f ? (f - 1) / 30.0 : -1;
        mf_pose *ps[] = {pz, pf};
        for (int q = 0; q < 2; q++) {
            mf_pose_reset(ps[q]);
            /* full weight (the compiled segments' path), then half weight (the general one) */
            mf_clip_sample w = {.clip = walk, .time = t, .prev_time = t0, .weight = 1, .loop = true};
            assert_int_equal(mf_pose_sample(ps[q], &w), MF_OK);
            if (f >= 20) {
                mf_clip_sample v = {.clip = wave, .time = t, .prev_time = t0, .weight = 0.5f, .loop = true};
                assert_int_equal(mf_pose_sample(ps[q], &v), MF_OK);
            }
            mf_pose_update_world(ps[q]);
        }
        same_pose(pz, pf);
        /* wave's segments stay as the allocator gave them until wave is first sampled */
        assert_int_equal(tu_all_fill(segs + r.data.clips[wave].timeline_first, clip_seg_bytes(&r.data, wave)),
                         f < 20);
    }
    assert_false(tu_all_fill(segs + r.data.clips[walk].timeline_first, clip_seg_bytes(&r.data, walk)));
    assert_true(tu_all_fill(segs + r.data.clips[unused].timeline_first, clip_seg_bytes(&r.data, unused)));
    /* the world moved: the comparison compared something */
    assert_true(pz->rot[1] != r.data.bones[1].rot || pz->x[2] != r.data.bones[2].x);
    mf_pose_destroy(pz);
    mf_pose_destroy(pf);
    test_rig_free(&r);
}

/* A deform clip over a weighted mesh: the pose's deform (its cold block's largest part on
 * meshy rigs) is not cleared at create; a slot's offsets are written when a deform timeline
 * first holds them, so world vertices come out as a zeroed pose's, at full and half weight. */
static void test_pose_deform(void **state)
{
    (void)state;
    static const char *const names[] = {"bend"};
    static const char *const clips[] = {
        CLIP_HEAD "\"length\":1,\"deform\":{\"default\":{\"s\":{\"m\":{\"t\":[0.25,0.75],\"offset\":[0,2],"
        "\"v\":[[1,2,3,4],[5,-6,7,8,9,-10]]}}}}}"};
    test_rig r;
    test_rig_build(&r, RIG_WEIGHTED_MESH, names, clips, 1);
    mf_allocator filled = tu_filling_allocator();
    mf_pose *pz = NULL, *pf = NULL;
    assert_int_equal(mf_pose_create(&r.data, NULL, &pz, NULL), MF_OK);
    assert_int_equal(mf_pose_create(&r.data, &filled, &pf, NULL), MF_OK);
    int32_t m = pf->attachment[0], n = r.data.attachments[m].deform_count;
    assert_true(m >= 0 && n == 10);
    assert_true(tu_all_fill(pf->deform + pf->deform_first[0], (size_t)n * sizeof(float)));
    int moved = 0;
    for (int f = 0; f <= 40; f++) {
        float vz[8], vf[8];
        mf_pose *ps[] = {pz, pf};
        float *out[] = {vz, vf};
        for (int q = 0; q < 2; q++) {
            mf_pose_reset(ps[q]);
            mf_clip_sample c = {.clip = 0, .time = f / 40.0, .weight = f % 2 ? 1.0f : 0.5f, .loop = true};
            assert_int_equal(mf_pose_sample(ps[q], &c), MF_OK);
            mf_pose_update_world(ps[q]);
            assert_int_equal(mf_pose_world_vertices(ps[q], 0, m, out[q], 4), 3);
        }
        assert_memory_equal(vz, vf, 6 * sizeof(float));
        assert_int_equal(pz->deform_attachment[0], pf->deform_attachment[0]);
        moved += pz->deform_attachment[0] == m;
    }
    assert_true(moved > 10); /* the deform was held on most frames */
    /* without resets the offsets carry over: samples mixing into held offsets (Replace below
     * full weight, Additive) and fading them before the first key read what earlier ones wrote */
    for (int f = 0; f <= 60; f++) {
        float vz[8], vf[8];
        mf_pose *ps[] = {pz, pf};
        float *out[] = {vz, vf};
        for (int q = 0; q < 2; q++) {
            mf_clip_sample c = {.clip = 0, .time = (f % 20) / 20.0, .weight = f % 3 ? 0.4f : 1.0f, .loop = true,
                                .blend = f % 4 == 1 ? MF_CLIP_ADDITIVE : MF_CLIP_REPLACE};
            assert_int_equal(mf_pose_sample(ps[q], &c), MF_OK);
            mf_pose_update_world(ps[q]);
            assert_int_equal(mf_pose_world_vertices(ps[q], 0, m, out[q], 4), 3);
        }
        assert_memory_equal(vz, vf, 6 * sizeof(float));
        assert_int_equal(pz->deform_attachment[0], pf->deform_attachment[0]);
    }
    mf_pose_destroy(pz);
    mf_pose_destroy(pf);
    test_rig_free(&r);
}

typedef struct heard {
    int events, completions;
    float floats;
} heard;

static void listen(mf_tracks *t, mf_track_event_type type, mf_entry_handle h, const mf_track_entry *e,
                   const mf_fired_event *ev, void *user)
{
    (void)t, (void)h, (void)e;
    heard *x = user;
    if (type == MF_TRACK_EVENT) x->events++, x->floats += ev->float_value;
    if (type == MF_TRACK_COMPLETED) x->completions++;
}

/* A pose and a tracks from a zeroing allocator (q = 0) and from a filling one (q = 1). */
static void pair_make(const test_rig *r, const mf_tracks_config *cfg, mf_pose *p[2], mf_tracks *t[2])
{
    mf_allocator filled = tu_filling_allocator(); /* copied by each create */
    const mf_allocator *al[2] = {NULL, &filled};
    for (int q = 0; q < 2; q++) {
        assert_int_equal(mf_pose_create(&r->data, al[q], &p[q], NULL), MF_OK);
        assert_int_equal(mf_tracks_create(&r->data, cfg, al[q], &t[q]), MF_OK);
    }
}

static void pair_free(mf_pose *p[2], mf_tracks *t[2])
{
    for (int q = 0; q < 2; q++) mf_tracks_destroy(t[q]), mf_pose_destroy(p[q]);
}

static void test_tracks_mixing_and_callbacks(void **state)
{
    (void)state;
    test_rig r;
    test_rig_build(&r, RIG, NAMES, CLIPS, 3);
    int32_t walk = mf_skel_data_find_clip(&r.data, "walk"), wave = mf_skel_data_find_clip(&r.data, "wave");
    mf_pose *p[2] = {NULL, NULL};
    mf_tracks *t[2] = {NULL, NULL};
    heard h[2] = {{0, 0, 0}, {0, 0, 0}};
    pair_make(&r, &(mf_tracks_config){.default_mix = 0.2}, p, t);
    for (int q = 0; q < 2; q++) {
        mf_tracks_set_listener(t[q], listen, &h[q]);
        assert_true(mf_tracks_set(t[q], 0, walk, true).index >= 0);
    }
    for (int f = 0; f < 150; f++) {
        for (int q = 0; q < 2; q++) {
            if (f == 70) assert_true(mf_tracks_set(t[q], 0, wave, true).index >= 0); /* a mix from walk */
            if (f == 100) assert_true(mf_tracks_set(t[q], 1, walk, false).index >= 0);
            mf_tracks_update(t[q], 1.0 / 30);
            assert_int_equal(mf_tracks_apply(t[q], p[q]), MF_OK);
            mf_pose_update_world(p[q]);
        }
        same_pose(p[0], p[1]);
        assert_int_equal(h[0].events, h[1].events);
        assert_int_equal(h[0].completions, h[1].completions);
    }
    assert_true(h[0].events >= 4 && h[0].completions >= 2);
    assert_true(h[0].floats == h[1].floats);
    pair_free(p, t);
    test_rig_free(&r);
}

/* Entries the modes pass skips (Additive ones mixing out) still have their modes read when the
 * apply treats them as Replace: Additive on track 0 (applied as Replace there), or a blend the
 * host changes while the entry mixes out (settings may change at any time), and so does a clip
 * the host changes to one with more timelines. A filled tracks must pose as a zeroed one,
 * through the posing apply and the time-only one (mf_tracks_apply_time's weight sums). */
static void test_tracks_modes_of_skipped_entries(void **state)
{
    (void)state;
    test_rig r;
    test_rig_build(&r, RIG, NAMES, CLIPS, 3);
    int32_t walk = mf_skel_data_find_clip(&r.data, "walk"), wave = mf_skel_data_find_clip(&r.data, "wave");
    mf_pose *p[2] = {NULL, NULL};
    mf_tracks *t[2] = {NULL, NULL};
    mf_entry_handle base_wave[2], layer_wave[2];
    pair_make(&r, &(mf_tracks_config){.default_mix = 0.5}, p, t);
    float moved = 0;
    for (int f = 0; f < 120; f++) {
        for (int q = 0; q < 2; q++) {
            if (f == 0) /* Additive on track 0 (applied as Replace there) */
                mf_tracks_entry(t[q], mf_tracks_set(t[q], 0, walk, true))->blend = MF_CLIP_ADDITIVE;
            if (f == 10) base_wave[q] = mf_tracks_set(t[q], 0, wave, true); /* walk mixes out on track 0 */
            if (f == 40) {
                layer_wave[q] = mf_tracks_set(t[q], 1, wave, true);
                mf_tracks_entry(t[q], layer_wave[q])->blend = MF_CLIP_ADDITIVE;
            }
            if (f == 50) mf_tracks_set(t[q], 1, walk, true); /* wave mixes out additively above track 0 */
            if (f == 55) { /* and turns Replace mid-mix */
                mf_track_entry *o = mf_tracks_entry(t[q], layer_wave[q]);
                assert_non_null(o);
                assert_true(o->mixing_to >= 0);
                o->blend = MF_CLIP_REPLACE;
            }
            if (f == 80) mf_tracks_set(t[q], 0, walk, true); /* wave mixes out on track 0 */
            if (f == 85) { /* and plays a clip of more timelines than its modes were computed for */
                mf_track_entry *o = mf_tracks_entry(t[q], base_wave[q]);
                assert_non_null(o);
                assert_true(o->mixing_to >= 0);
                assert_true(r.data.clips[walk].timeline_count > r.data.clips[wave].timeline_count);
                o->clip = walk;
            }
            mf_tracks_update(t[q], 1.0 / 30);
            if (f % 3 == 2) assert_int_equal(mf_tracks_apply_time(t[q]), MF_OK);
            else assert_int_equal(mf_tracks_apply(t[q], p[q]), MF_OK);
            mf_pose_update_world(p[q]);
        }
        same_pose(p[0], p[1]);
        moved += fabsf(p[0]->rot[1] - r.data.bones[1].rot);
    }
    assert_true(moved > 1); /* something was posed */
    pair_free(p, t);
    test_rig_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pose_segments),
        cmocka_unit_test(test_pose_deform),
        cmocka_unit_test(test_tracks_mixing_and_callbacks),
        cmocka_unit_test(test_tracks_modes_of_skipped_entries),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
