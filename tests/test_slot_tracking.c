/* Slot tracking (mf_pose_set_slot_tracking, mf_pose_slots_changed): a pose that tracks its slots
 * lets a draw list keep its items when no slot changed, and its builds give the same bits as a
 * pose that does not, frame after frame: every clip of the project's fixtures and, beside the
 * corpus, of Spine rigs with clipping, sequences, skins and draw order keys, with mixes between
 * clips, skin changes, resets, items-only builds and the host's own writes to the slot arrays
 * (told through mf_pose_slots_changed). A kept build is seen directly: an item value the walk
 * would write again survives it. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "corpus_build.h"
#include "pose_rig.h"
#include "mf/mf_batch.h"
#include "mf/mf_build.h"
#include "mf/mf_geometry.h"
#include "mf/mf_physics.h"
#include "mf/mf_pose.h"
#include "mf/mf_pose_mix.h"
#include "mf/mf_rig.h"
#include "mf/mf_tracks.h"

/* One side of the lockstep: a pose, its tracks and a draw list. */
typedef struct side {
    mf_pose *pose;
    mf_tracks *tracks;
    mf_draw_list *list;
} side;

static void side_make(side *s, const mf_skel_data *d, bool tracking)
{
    mf_diag diag;
    assert_int_equal(mf_pose_create(d, NULL, &s->pose, &diag), MF_OK);
    assert_int_equal(mf_tracks_create(d, NULL, NULL, &s->tracks), MF_OK);
    assert_int_equal(mf_draw_list_create(d, NULL, &s->list), MF_OK);
    mf_tracks_set_default_mix(s->tracks, 0.2);
    mf_pose_set_slot_tracking(s->pose, tracking);
}

static void side_free(side *s)
{
    mf_draw_list_destroy(s->list);
    mf_tracks_destroy(s->tracks);
    mf_pose_destroy(s->pose);
}

/* The two lists hold the same build: counts, every item field, and the geometry (the vertices
 * only after a whole build). */
static void same_lists(const mf_draw_list *a, const mf_draw_list *b, bool vertices, const char *what, int frame)
{
    if (a->item_count != b->item_count || a->vertex_count != b->vertex_count || a->index_count != b->index_count ||
        a->overflow != b->overflow)
        fail_msg("%s frame %d: counts differ (items %d/%d, vertices %d/%d)", what, frame, a->item_count,
                 b->item_count, a->vertex_count, b->vertex_count);
    for (int32_t k = 0; k < a->item_count; k++) {
        const mf_draw_item *x = &a->items[k], *y = &b->items[k];
        bool same = x->slot == y->slot && x->attachment == y->attachment && x->image == y->image &&
                    x->blend == y->blend && x->has_dark == y->has_dark && x->clipped == y->clipped &&
                    !memcmp(x->light, y->light, sizeof x->light) && !memcmp(x->dark, y->dark, sizeof x->dark) &&
                    x->vertex_first == y->vertex_first && x->vertex_count == y->vertex_count &&
                    x->index_first == y->index_first && x->index_count == y->index_count && x->uv_set == y->uv_set;
        if (!same) fail_msg("%s frame %d: item %d (slot %d) differs", what, frame, k, x->slot);
    }
    assert_memory_equal(a->uvs, b->uvs, (size_t)a->vertex_count * 2 * sizeof(float));
    assert_memory_equal(a->indices, b->indices, (size_t)a->index_count * sizeof(uint16_t));
    if (vertices && memcmp(a->vertices, b->vertices, (size_t)a->vertex_count * 2 * sizeof(float)))
        fail_msg("%s frame %d: vertices differ", what, frame);
}

/* The host's own write of slot state, the same on both poses; b (tracking) is told. */
static void host_write(mf_pose *a, mf_pose *b, int frame)
{
    int32_t n = a->slot_count;
    if (n == 0) return;
    int32_t s = frame % n;
    mf_pose *both[2] = {a, b};
    for (int k = 0; k < 2; k++) {
        mf_pose *p = both[k];
        switch (frame % 6) {
        case 0: p->color[4 * s + 3] *= 0.5f; break;                   /* a fade */
        case 1: p->attachment[s] = -1; break;                          /* hidden */
        case 2: p->seq_index[s] = p->seq_index[s] >= 0 ? -1 : 1; break; /* a sequence frame */
        case 3: p->dark[3 * s] = 0.5f; break;                          /* a dark tint */
        case 4: p->active[p->data->slots[s].bone] ^= 1; break;         /* a bone off or on */
        default:                                                       /* the first and last drawn swap */
            if (n > 1) {
                int32_t t = p->draw_order[0];
                p->draw_order[0] = p->draw_order[n - 1], p->draw_order[n - 1] = t;
            }
        }
    }
    mf_pose_slots_changed(b);
}

static long g_frames, g_kept_frames;

/* The probe: a value no build writes, put into the first item where a walk would write it
 * again. The probe holds the item's value to put back. */
#define PROBE 123.0f
typedef struct probe {
    bool set;
    float saved;
} probe;

static probe probe_set(mf_draw_list *dl)
{
    probe pr = {dl->item_count > 0, 0};
    if (pr.set) pr.saved = dl->items[0].light[0], dl->items[0].light[0] = PROBE;
    return pr;
}

/* Whether the build after probe_set kept the items (the probe survived); the value put back. */
static bool probe_kept(mf_draw_list *dl, const probe *pr)
{
    if (!pr->set || dl->item_count == 0 || dl->items[0].light[0] != PROBE) return false;
    dl->items[0].light[0] = pr->saved;
    return true;
}

/* Clip c of d played on both sides with the same operations; every frame's lists compared. */
static void lockstep(const mf_skel_data *d, mf_skin_cache *skins, int32_t c, int frames, const char *what)
{
    side a, b;
    side_make(&a, d, false);
    side_make(&b, d, true);
    side *both[2] = {&a, &b};
    for (int k = 0; k < 2; k++) mf_tracks_set(both[k]->tracks, 0, c, true);
    for (int f = 0; f < frames; f++) {
        for (int k = 0; k < 2; k++) {
            side *s = both[k];
            if (f == frames / 3 && d->clip_count > 1) /* a mix into the next clip */
                mf_tracks_set(s->tracks, 0, (c + 1) % d->clip_count, true);
            if (f == frames / 4 && skins && d->skin_count > 0) { /* before the mix: a bone clip's frames kept */
                int32_t list[1] = {d->skin_count - 1 - c % d->skin_count};
                assert_int_equal(mf_pose_set_skins(s->pose, skins, list, 1, NULL), MF_OK);
            }
            if (f == 2 * frames / 3) mf_pose_reset(s->pose); /* back to setup, then sampled again */
            mf_tracks_update(s->tracks, 1.0 / 30);
            mf_tracks_apply(s->tracks, s->pose);
        }
        if (f % 11 == 5) host_write(a.pose, b.pose, f / 11);
        for (int k = 0; k < 2; k++) {
            mf_pose_physics_step(both[k]->pose, 1.0 / 30);
            mf_pose_update_world(both[k]->pose);
        }
        bool items_only = f % 7 == 3;
        probe pr = probe_set(b.list);
        if (items_only) {
            assert_int_equal(mf_draw_list_build_items(a.list, a.pose), MF_OK);
            assert_int_equal(mf_draw_list_build_items(b.list, b.pose), MF_OK);
        } else {
            assert_int_equal(mf_draw_list_build(a.list, a.pose), MF_OK);
            assert_int_equal(mf_draw_list_build(b.list, b.pose), MF_OK);
        }
        g_kept_frames += probe_kept(b.list, &pr);
        same_lists(a.list, b.list, !items_only, what, f);
        g_frames++;
    }
    side_free(&a), side_free(&b);
}

static void play(const mf_skel_data *d, const char *what, int max_clips, int frames)
{
    mf_skin_cache *skins = NULL;
    assert_int_equal(mf_skin_cache_create(d, NULL, &skins), MF_OK);
    int clips = d->clip_count < max_clips ? d->clip_count : max_clips;
    for (int32_t c = 0; c < clips; c++) lockstep(d, skins, c, frames, what);
    mf_skin_cache_destroy(skins);
    printf("%s: %d clips, frames so far %ld\n", what, clips, g_frames);
}

/* Four regions on three bones (a second attachment for one, a dark colour for another; the
 * last on a bone that only the skin "geared" activates, its attachment in the default skin, so
 * that setting that skin changes no attachment) and four clips: bone keys only, colour keys,
 * attachment keys and draw order keys. */
#define SLOTS_RIG RIG_HEAD \
    "\"bones\":[{\"name\":\"root\"},{\"name\":\"arm\",\"parent\":\"root\",\"x\":10}," \
    "{\"name\":\"gear\",\"parent\":\"arm\",\"skinRequired\":true}]," \
    "\"slots\":[{\"name\":\"a\",\"bone\":\"root\",\"attachment\":\"r\"}," \
    "{\"name\":\"b\",\"bone\":\"arm\",\"attachment\":\"r\",\"dark\":\"#102030\"}," \
    "{\"name\":\"c\",\"bone\":\"arm\",\"attachment\":\"r\"},{\"name\":\"d\",\"bone\":\"gear\",\"attachment\":\"r\"}," \
    "{\"name\":\"e\",\"bone\":\"root\",\"attachment\":\"f\"}]," \
    "\"skins\":[{\"name\":\"default\",\"attachments\":[" \
    "{\"slot\":\"a\",\"name\":\"r\",\"type\":\"Region\",\"width\":8,\"height\":8}," \
    "{\"slot\":\"a\",\"name\":\"r2\",\"type\":\"Region\",\"width\":4,\"height\":12}," \
    "{\"slot\":\"b\",\"name\":\"r\",\"type\":\"Region\",\"x\":5,\"width\":8,\"height\":8}," \
    "{\"slot\":\"c\",\"name\":\"r\",\"type\":\"Region\",\"y\":5,\"width\":6,\"height\":6}," \
    "{\"slot\":\"d\",\"name\":\"r\",\"type\":\"Region\",\"width\":3,\"height\":3}," \
    "{\"slot\":\"e\",\"name\":\"f\",\"type\":\"Region\",\"width\":5,\"height\":5," \
    "\"sequence\":{\"count\":4,\"start\":1,\"digits\":1}}]}," \
    "{\"name\":\"geared\",\"bones\":[\"gear\"],\"attachments\":[]}]}"

static const char *const SLOTS_CLIP_NAMES[] = {"swing", "fade", "swap", "order", "flip", "tint"};
static const char *const SLOTS_CLIPS[] = {
    CLIP_HEAD "\"length\":1,\"bones\":{\"arm\":{\"rotate\":{\"t\":[0,0.5,1],\"v\":[0,40,0]}}}}",
    CLIP_HEAD "\"length\":1,\"slots\":{\"b\":{\"rgba2\":{\"t\":[0,1],\"v\":[[\"#ffffffff\",\"#000000\"],"
              "[\"#ff800040\",\"#204060\"]]}},\"c\":{\"alpha\":{\"t\":[0,1],\"v\":[1,0.25]}}}}",
    CLIP_HEAD "\"length\":1,\"bones\":{\"arm\":{\"rotate\":{\"t\":[0,1],\"v\":[0,-30]}}},"
              "\"slots\":{\"a\":{\"attachment\":{\"t\":[0,0.3,0.6],\"v\":[\"r2\",null,\"r\"]}}}}",
    CLIP_HEAD "\"length\":1,\"drawOrder\":{\"t\":[0.25,0.5],\"v\":[[[\"a\",2]],[[\"c\",-1]]]}}",
    CLIP_HEAD "\"length\":1,\"slots\":{\"e\":{\"sequence\":{\"t\":[0],\"v\":[{\"mode\":\"loop\",\"delay\":0.1}]}}}}",
    CLIP_HEAD "\"length\":1,\"slots\":{\"a\":{\"rgb\":{\"t\":[0,1],\"v\":[\"#ffffff\",\"#4080c0\"]}},"
              "\"c\":{\"rgba\":{\"t\":[0,1],\"v\":[\"#ffffffff\",\"#80808080\"]}}}}",
};

static void test_slot_clips(void **state)
{
    (void)state;
    test_rig r;
    test_rig_build(&r, SLOTS_RIG, SLOTS_CLIP_NAMES, SLOTS_CLIPS, 6);
    play(&r.data, "slot clips", 6, 60);
    test_rig_free(&r);
}

/* The same through mf_batch_update (prefetch hints on), with every off-screen mode: the view
 * moves away for a few frames now and then, and back (a Pause or TimeOnly item then rebuilds
 * its pose from setup). */
static void batch_lockstep(const mf_skel_data *d, int32_t c, mf_offscreen_mode mode, int frames, const char *what)
{
    side a, b;
    side_make(&a, d, false);
    side_make(&b, d, true);
    mf_tracks_set(a.tracks, 0, c, true);
    mf_tracks_set(b.tracks, 0, c, true);
    mf_batch_state sa = {0}, sb = {0};
    float view[4];
    mf_batch_item ia = {.tracks = a.tracks, .pose = a.pose, .draw = a.list, .offscreen = mode, .view = view, .state = &sa};
    mf_batch_item ib = ia;
    ib.tracks = b.tracks, ib.pose = b.pose, ib.draw = b.list, ib.state = &sb;
    mf_batch_options opt = {.prefetch_min = 1};
    for (int f = 0; f < frames; f++) {
        bool away = f % 10 >= 6 && f % 10 < 9;
        float far = away ? 1e7f : 0;
        view[0] = -1000 + far, view[1] = -1000, view[2] = 1000 + far, view[3] = 1000;
        ia.draw_items_only = ib.draw_items_only = f % 7 == 3;
        probe pr = probe_set(b.list);
        mf_batch_update_with(&ia, 1, 1.0 / 30, NULL, NULL, &opt);
        mf_batch_update_with(&ib, 1, 1.0 / 30, NULL, NULL, &opt);
        (void)probe_kept(b.list, &pr); /* kept or culled: the value back */
        assert_int_equal(sa.culled, sb.culled);
        same_lists(a.list, b.list, !ia.draw_items_only, what, f);
    }
    side_free(&a), side_free(&b);
}

static void test_batch(void **state)
{
    (void)state;
    test_rig r;
    test_rig_build(&r, SLOTS_RIG, SLOTS_CLIP_NAMES, SLOTS_CLIPS, 6);
    static const mf_offscreen_mode modes[] = {MF_OFFSCREEN_FULL, MF_OFFSCREEN_TIME_ONLY, MF_OFFSCREEN_PAUSE};
    for (int32_t c = 0; c < r.data.clip_count; c++)
        for (size_t m = 0; m < 3; m++) batch_lockstep(&r.data, c, modes[m], 40, "batch, slot clips");
    test_rig_free(&r);
    mf_skel_data d;
    void *blob = tu_fixture_build("examples/mannequin/mannequin.mskel", &d);
    for (size_t m = 0; m < 3; m++) batch_lockstep(&d, 0, modes[m], 40, "batch, mannequin");
    free(blob);
}

/* The host's write just made (away from setup) told and built; then a reset walks the items:
 * the first item's light is its setup value light again. */
static void reset_walks(side *s, float light)
{
    mf_pose_slots_changed(s->pose);
    assert_int_equal(mf_draw_list_build(s->list, s->pose), MF_OK);
    s->list->items[0].light[0] = PROBE;
    mf_pose_reset(s->pose), mf_pose_update_world(s->pose);
    assert_int_equal(mf_draw_list_build(s->list, s->pose), MF_OK);
    assert_true(s->list->items[0].light[0] == light);
}

/* mf_pose_reset at setup already is no slot change (a host that resets every frame keeps its
 * items); away from setup it is one. */
static void test_reset_every_frame(void **state)
{
    (void)state;
    test_rig r;
    test_rig_build(&r, SLOTS_RIG, SLOTS_CLIP_NAMES, SLOTS_CLIPS, 6);
    side s;
    side_make(&s, &r.data, true);
    mf_clip_sample cs = {.clip = 0, .time = 0.25, .prev_time = 0, .weight = 1, .loop = true}; /* bone keys only */
    mf_pose_reset(s.pose), mf_pose_sample(s.pose, &cs), mf_pose_update_world(s.pose);
    assert_int_equal(mf_draw_list_build(s.list, s.pose), MF_OK);
    float light = s.list->items[0].light[0];
    s.list->items[0].light[0] = PROBE;
    mf_pose_reset(s.pose), mf_pose_sample(s.pose, &cs), mf_pose_update_world(s.pose);
    assert_int_equal(mf_draw_list_build(s.list, s.pose), MF_OK);
    assert_true(s.list->items[0].light[0] == PROBE); /* kept */
    s.list->items[0].light[0] = light;
    s.pose->color[0] = 0.5f; /* a colour away from setup, then reset: a change */
    reset_walks(&s, light);
    int32_t e = mf_skel_data_find_slot(&r.data, "e"); /* only a sequence frame (slot e's) */
    assert_true(e >= 0);
    s.pose->seq_index[e] = 1;
    reset_walks(&s, light);
    side_free(&s);
    test_rig_free(&r);
}

static void test_fixtures(void **state)
{
    (void)state;
    mf_skel_data d; /* the project's fixture with clips (the others have none) */
    void *blob = tu_fixture_build("examples/mannequin/mannequin.mskel", &d);
    assert_true(d.clip_count > 0);
    play(&d, "mannequin", 6, 40);
    free(blob);
}

static void test_corpus(void **state)
{
    (void)state;
    static const char *const rigs[][2] = {
        {"spineboy", "spineboy-pro"},           /* clipping, attachment and colour keys */
        {"dragon", "dragon-ess"},               /* sequences */
        {"mix-and-match", "mix-and-match-pro"}, /* skins, skin-required bones */
        {"alien", "alien-pro"},                 /* deform, draw order */
        {"raptor", "raptor-pro"},               /* bone keys mostly */
    };
    for (size_t k = 0; k < sizeof rigs / sizeof rigs[0]; k++) {
        mf_skel_data d;
        void *blob = tu_corpus_build(rigs[k][0], rigs[k][1], &d);
        if (!blob) continue; /* tu_corpus_build said it skipped */
        play(&d, rigs[k][1], 4, 40);
        free(blob);
    }
}

/* A kept build is a kept build: an item value that the walk would write again survives a
 * build with no slot change, and is written again after the host says it changed a slot, or
 * with tracking off. */
static void test_kept_build_seen(void **state)
{
    (void)state;
    mf_skel_data d;
    test_rig r;
    test_rig_build(&r, SLOTS_RIG, SLOTS_CLIP_NAMES, SLOTS_CLIPS, 6);
    d = r.data;
    side s;
    side_make(&s, &d, true);
    mf_pose_update_world(s.pose);
    assert_int_equal(mf_draw_list_build(s.list, s.pose), MF_OK);
    assert_true(s.list->item_count > 0);
    float light = s.list->items[0].light[0];
    s.list->items[0].light[0] = PROBE; /* a value no build writes */
    mf_pose_update_world(s.pose);
    assert_int_equal(mf_draw_list_build(s.list, s.pose), MF_OK);
    assert_true(s.list->items[0].light[0] == PROBE); /* kept: not walked */
    assert_int_equal(s.list->items_kept, s.list->item_count);
    mf_pose_slots_changed(s.pose);
    assert_int_equal(mf_draw_list_build(s.list, s.pose), MF_OK);
    assert_true(s.list->items[0].light[0] == light); /* walked again */
    s.list->items[0].light[0] = PROBE;
    mf_pose_set_slot_tracking(s.pose, false);
    assert_int_equal(mf_draw_list_build(s.list, s.pose), MF_OK);
    assert_true(s.list->items[0].light[0] == light);
    s.list->items[0].light[0] = PROBE;
    assert_int_equal(mf_draw_list_build(s.list, s.pose), MF_OK); /* off: every build walks */
    assert_true(s.list->items[0].light[0] == light);
    /* on, built, off, the host's write untold (nothing needs telling while off), on again: walked */
    mf_pose_set_slot_tracking(s.pose, true);
    assert_int_equal(mf_draw_list_build(s.list, s.pose), MF_OK);
    mf_pose_set_slot_tracking(s.pose, false);
    float was = s.pose->color[4 * s.list->items[0].slot];
    s.pose->color[4 * s.list->items[0].slot] = 0.5f;
    mf_pose_set_slot_tracking(s.pose, true);
    assert_int_equal(mf_draw_list_build(s.list, s.pose), MF_OK);
    assert_true(s.list->items[0].light[0] == 0.5f * light);
    s.pose->color[4 * s.list->items[0].slot] = was;
    mf_pose_set_slot_tracking(s.pose, false);
    assert_int_equal(mf_draw_list_build(s.list, s.pose), MF_OK);
    assert_true(s.list->items[0].light[0] == light);
    /* another pose of the same data into the same list: walked, then its own builds kept */
    mf_pose *other;
    assert_int_equal(mf_pose_create(&d, NULL, &other, NULL), MF_OK);
    mf_pose_set_slot_tracking(other, true);
    mf_pose_set_slot_tracking(s.pose, true);
    mf_pose_update_world(other);
    assert_int_equal(mf_draw_list_build(s.list, s.pose), MF_OK);
    s.list->items[0].light[0] = PROBE;
    assert_int_equal(mf_draw_list_build(s.list, other), MF_OK);
    assert_true(s.list->items[0].light[0] == light);
    s.list->items[0].light[0] = PROBE;
    assert_int_equal(mf_draw_list_build(s.list, other), MF_OK);
    assert_true(s.list->items[0].light[0] == PROBE);
    s.list->items[0].light[0] = light;
    /* a sample of a clip whose colour keys move a colour is a change; one of bone keys is not */
    int32_t colour_clip = -1, bone_clip = -1;
    for (int32_t c = 0; c < d.clip_count; c++) {
        const mf_sd_clip *clip = &d.clips[c];
        bool slots = false;
        for (int32_t k = 0; k < clip->timeline_count; k++) {
            uint16_t kind = d.timelines[clip->timeline_first + k].kind;
            slots |= (kind >= MF_SD_TL_ATTACHMENT && kind <= MF_SD_TL_SEQUENCE) || kind == MF_SD_TL_DRAW_ORDER;
        }
        if (slots && colour_clip < 0) colour_clip = c;
        if (!slots && bone_clip < 0) bone_clip = c;
    }
    int32_t clips[2] = {bone_clip, colour_clip};
    for (int k = 0; k < 2; k++) {
        if (clips[k] < 0) continue;
        mf_clip_sample cs = {.clip = clips[k], .time = 0.1, .prev_time = 0, .weight = 1, .loop = true};
        assert_int_equal(mf_draw_list_build(s.list, s.pose), MF_OK);
        s.list->items[0].light[0] = PROBE;
        assert_int_equal(mf_pose_sample(s.pose, &cs), MF_OK);
        mf_pose_update_world(s.pose);
        assert_int_equal(mf_draw_list_build(s.list, s.pose), MF_OK);
        if (k == 0) assert_true(s.list->items[0].light[0] == PROBE);
        else assert_true(s.list->items[0].light[0] != PROBE);
        s.list->items[0].light[0] = light;
        mf_pose_slots_changed(s.pose);
    }
    assert_true(bone_clip >= 0 && colour_clip >= 0);
    /* the mixer's setup values for a colour or draw order timeline: a change where the pose was
     * away from them (put there by the host, told), none where it was at them already */
    int32_t setups = 0;
    for (int32_t k = 0; k < d.timeline_count; k++) {
        uint16_t kind = d.timelines[k].kind;
        if (kind != MF_SD_TL_RGBA2 && kind != MF_SD_TL_ALPHA && kind != MF_SD_TL_DRAW_ORDER) continue;
        int32_t slot = d.timelines[k].target;
        mf_pose_reset(s.pose);
        if (kind == MF_SD_TL_DRAW_ORDER) s.pose->draw_order[0] = 1, s.pose->draw_order[1] = 0;
        else if (kind == MF_SD_TL_ALPHA) s.pose->color[4 * slot + 3] = 0.25f;
        else s.pose->dark[3 * slot] = 0.75f;
        mf_pose_slots_changed(s.pose);
        for (int pass = 0; pass < 2; pass++) { /* away, then at setup already */
            assert_int_equal(mf_draw_list_build(s.list, s.pose), MF_OK);
            s.list->items[0].light[0] = PROBE;
            mf_pose_timeline_setup(s.pose, k, NULL);
            assert_int_equal(mf_draw_list_build(s.list, s.pose), MF_OK);
            if (pass == 0) assert_true(s.list->items[0].light[0] != PROBE);
            else assert_true(s.list->items[0].light[0] == PROBE), s.list->items[0].light[0] = light;
        }
        setups++;
    }
    assert_int_equal(setups, 3);
    mf_pose_destroy(other);
    side_free(&s);
    test_rig_free(&r);
}

static void test_arguments(void **state)
{
    (void)state;
    mf_pose_set_slot_tracking(NULL, true); /* nothing, no crash */
    mf_pose_slots_changed(NULL);
}

static void test_some_builds_kept(void **state)
{
    (void)state;
    /* the lockstep runs above compared kept builds, not only walked ones */
    printf("lockstep: %ld frames, %ld of them kept by the tracking pose only\n", g_frames, g_kept_frames);
    assert_true(g_kept_frames > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_arguments),
        cmocka_unit_test(test_kept_build_seen),
        cmocka_unit_test(test_slot_clips),
        cmocka_unit_test(test_batch),
        cmocka_unit_test(test_reset_every_frame),
        cmocka_unit_test(test_fixtures),
        cmocka_unit_test(test_corpus),
        cmocka_unit_test(test_some_builds_kept),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
