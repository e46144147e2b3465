/* mf_gpu_batch_add, mf_gpu_batch_add_local and mf_gpu_batch_add_physics under random small
 * capacities, six rigs (one with a clipping range, one with every inherit mode, one with IK and
 * transform constraints, one with path constraints too: their local poses carry their words,
 * path deforms included, and PHYS_RIG, whose springs run on the GPU in states of the batch),
 * lists, pose walks and world on the GPU mixed, and lists and adds that lie: every add either
 * goes in whole or is refused and leaves the frame exactly as it was (overflow counted only for
 * MF_ERR_NOMEM) and, for physics, the pose's inputs where they were; and what went in draws,
 * after the GPU ran, what mf_draw_batch_add gives for the same skeletons in the same order (the
 * physics instances' CPU twins posed by mf_pose_update_world). Each batch runs one to three
 * frames; its states are released and acquired again at random, and at its end all its room can
 * be acquired again (refused adds leak none). lavapipe; skipped without a device unless
 * MF_REQUIRE_GPU is set. */
#define _GNU_SOURCE
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_rig.h"
#include "mf/mf_gpu.h"
#include "mf/mf_physics.h"
#include "mf/mf_tracks.h"
#include "../src/runtime/pose/pose_internal.h" /* the time a refused add leaves in the pose */

enum { INSTANCES = 10, ROUNDS = 60, PHYS = 3 };

static uint32_t g_r = 77;
static uint32_t rnd(uint32_t n)
{
    g_r = g_r * 1664525u + 1013904223u;
    return (g_r >> 8) % n;
}

/* The physics instances' choices: a stream of their own, so the others' draws stay as they were */
static uint32_t g_r2 = 991;
static uint32_t rnd2(uint32_t n)
{
    g_r2 = g_r2 * 1664525u + 1013904223u;
    return (g_r2 >> 8) % n;
}

typedef struct inst {
    const mf_skel_data *d;
    mf_gpu_rig *rig;
    mf_pose *pose;
    mf_tracks *tracks;
    mf_draw_list *gl, *cl; /* items for the GPU; the CPU's full list */
    float xf[6];
} inst;

typedef struct snap {
    int32_t v, i, c, sk, it, gi, up, of;
    mf_draw_call last;
} snap;

static snap take(const mf_gpu_batch *b)
{
    return (snap){b->vertex_count, b->index_count, b->call_count, b->skeletons, b->items, b->gpu_items,
                  b->upload_bytes, b->overflow, b->call_count > 0 ? b->calls[b->call_count - 1] : (mf_draw_call){0}};
}

static void same(const snap *a, const mf_gpu_batch *b, int32_t overflow_more)
{
    assert_int_equal(b->vertex_count, a->v);
    assert_int_equal(b->index_count, a->i);
    assert_int_equal(b->call_count, a->c);
    assert_int_equal(b->skeletons, a->sk);
    assert_int_equal(b->items, a->it);
    assert_int_equal(b->gpu_items, a->gi);
    assert_int_equal(b->upload_bytes, a->up);
    assert_int_equal(b->overflow, a->of + overflow_more);
    if (a->c > 0) assert_true(gpu_call_same(&b->calls[a->c - 1], &a->last));
}

/* ---------------------------------------------------------------- physics instances */

/* A PHYS_RIG instance: its springs on the GPU in the batch's state (-1: no room for it in this
 * batch), and its CPU twin (cpu, tc) posed by mf_pose_update_world from the same inputs. */
typedef struct pinst {
    mf_pose *gpu, *cpu;
    mf_tracks *tg, *tc;
    mf_draw_list *cl;
    int32_t state;
    bool added; /* posed this frame */
    float xf[6];
} pinst;

typedef struct pctx {
    const mf_skel_data *d;
    mf_gpu_rig *rig, *other; /* PHYS_RIG's; another data's */
    long accepted, nomem, lies, twice, empty, no_room, reacquired;
} pctx;

/* Frame time 1/32 s: exact, so a twin made anew (its clock at 0) takes the same time as the GPU
 * pose (its clock running since the test began). */
static const double PHYS_DT = 1.0 / 32.0;

/* The CPU twin made anew at the GPU tracks' time: at rest on its first update, as a state
 * newly acquired is on its first add. */
static void twin_renew(pctx *c, pinst *x)
{
    double t = mf_tracks_entry(x->tg, mf_tracks_current(x->tg, 0))->track_time;
    if (x->cpu) mf_pose_destroy(x->cpu), mf_tracks_destroy(x->tc);
    assert_int_equal(mf_pose_create(c->d, NULL, &x->cpu, NULL), MF_OK);
    assert_int_equal(mf_tracks_create(c->d, NULL, NULL, &x->tc), MF_OK);
    mf_tracks_entry(x->tc, mf_tracks_set(x->tc, 0, 0, true))->track_time = t;
}

/* The instance's state released and acquired again (after its add this frame or before it):
 * first fit gives it its own room back, at rest, and its twin is made anew. */
static void phys_renew(mf_gpu_batch *b, pctx *c, pinst *x)
{
    int32_t old = x->state;
    assert_int_equal(mf_gpu_batch_physics_release(b, old), MF_OK);
    assert_int_equal(mf_gpu_batch_physics_acquire(b, c->rig, &x->state), MF_OK);
    assert_int_equal(x->state, old);
    c->reacquired++;
    twin_renew(c, x); /* x->added stays: units a state added this frame left wait for the next */
}

/* One physics instance's frame: both poses sampled, some slots hidden (items that can fit), a
 * reset now and then, the time given; sometimes an add that lies first (refused: the frame and
 * the pose's inputs as they were); then the add. Refused (no room, added already this frame) or
 * posing nothing, the inputs wait in the pose, and the twin waits with them; posed, the twin's
 * world is updated and its skeleton added to the CPU batch. phys_v marks its vertices. */
static void phys_add(mf_gpu_batch *b, int32_t max_physics, pctx *c, pinst *x, mf_draw_batch *cb, uint8_t *phys_v)
{
    bool hide_all = rnd2(12) == 0, reset = rnd2(15) == 0;
    uint32_t hidden = rnd2(128);
    mf_pose *both[2] = {x->gpu, x->cpu};
    mf_tracks *tr[2] = {x->tg, x->tc};
    for (int k = 0; k < 2; k++) {
        mf_pose_reset(both[k]);
        mf_tracks_update(tr[k], (float)PHYS_DT);
        mf_tracks_apply(tr[k], both[k]);
        for (int32_t sl = 0; sl < both[k]->slot_count; sl++)
            if (hide_all || (hidden >> sl & 1)) both[k]->attachment[sl] = -1;
        if (reset) mf_pose_physics_reset(both[k]);
        mf_pose_physics_step(both[k], PHYS_DT);
    }
    const mf_pose_scratch *ps = x->gpu->scratch;
    const double pending = ps->phys_dt;
    assert_true(pending > 0);
    if (rnd2(5) == 0) {
        snap before = take(b);
        int32_t bad[3] = {-1, max_physics, x->state >= 0 ? x->state + 1 : -1}; /* +1: inside a state */
        mf_result res;
        switch (rnd2(4)) {
        case 0: res = mf_gpu_batch_add_local(b, c->rig, x->gpu, x->xf); break; /* physics needs its state */
        case 1: res = mf_gpu_batch_add_physics(b, c->other, x->gpu, x->state, x->xf); break;
        default: res = mf_gpu_batch_add_physics(b, c->rig, x->gpu, bad[rnd2(3)], x->xf); break;
        }
        assert_int_equal(res, MF_ERR_ARGUMENT);
        same(&before, b, 0);
        assert_true(ps->phys_dt == pending);
        c->lies++;
    }
    if (x->state < 0) { /* no room in this batch: never added, its time waits */
        assert_int_equal(mf_gpu_batch_add_physics(b, c->rig, x->gpu, x->state, x->xf), MF_ERR_ARGUMENT);
        return;
    }
    snap before = take(b);
    poison_world(x->gpu); /* the GPU computes it */
    mf_result res = mf_gpu_batch_add_physics(b, c->rig, x->gpu, x->state, x->xf);
    if (x->added) { /* twice a frame (or on units its own add left this frame) */
        assert_int_equal(res, MF_ERR_ARGUMENT);
        same(&before, b, 0);
        assert_true(ps->phys_dt == pending);
        c->twice++;
        return;
    }
    if (res == MF_ERR_NOMEM) {
        same(&before, b, 1);
        assert_true(ps->phys_dt == pending);
        c->nomem++;
        return;
    }
    assert_int_equal(res, MF_OK);
    if (b->items == before.it) { /* nothing drawn: not posed, it took nothing */
        assert_true(ps->phys_dt == pending);
        c->empty++;
        return;
    }
    assert_true(ps->phys_dt == 0); /* taken, as mf_pose_update_world takes it */
    x->added = true;
    memset(phys_v + before.v, 1, (size_t)(b->vertex_count - before.v));
    mf_pose_update_world(x->cpu);
    assert_int_equal(mf_draw_list_build(x->cl, x->cpu), MF_OK);
    assert_int_equal(mf_draw_batch_add(cb, x->cl, c->d, x->xf), MF_OK);
    c->accepted++;
}

static void random_adds(void **state)
{
    (void)state;
    mf_gpu_device *g = NULL;
    mf_diag diag;
    mf_gpu_device_desc dd = {.prefer_cpu = true, .validate = true};
    if (mf_gpu_device_create(&dd, &g, &diag) != MF_OK) {
        if (getenv("MF_REQUIRE_GPU")) fail_msg("no Vulkan device and MF_REQUIRE_GPU is set: %s", diag.message);
        fprintf(stderr, "test_gpu_batch_random: SKIPPED: no Vulkan device (%s)\n", diag.message);
        skip();
    }
    test_rig scene, plain, world, tf, path;
    test_rig_build(&scene, SCENE_RIG, SCENE_NAMES, SCENE_CLIPS, 2);
    test_rig_build(&plain, RIG_WEIGHTED_MESH, NULL, NULL, 0);
    test_rig_build(&world, WORLD_RIG, WORLD_NAMES, WORLD_CLIPS, 2);
    test_rig_build(&tf, TF_RIG, TF_NAMES, TF_CLIPS, 2);
    test_rig_build(&path, PATH_RIG, PATH_NAMES, PATH_CLIPS, 2);
    const mf_skel_data *datas[5] = {&scene.data, &plain.data, &world.data, &tf.data, &path.data};
    mf_gpu_rig *rigs[5];
    for (int r = 0; r < 5; r++) assert_int_equal(mf_gpu_rig_create(g, datas[r], &rigs[r], NULL), MF_OK);
    inst in[INSTANCES];
    for (int k = 0; k < INSTANCES; k++) {
        inst *s = &in[k];
        int r = k < 5 ? k : k < 7 ? 4 : (int)rnd(5); /* each rig at least once, the largest thrice */
        s->d = datas[r], s->rig = rigs[r];
        assert_int_equal(mf_pose_create(s->d, NULL, &s->pose, NULL), MF_OK);
        assert_int_equal(mf_tracks_create(s->d, NULL, NULL, &s->tracks), MF_OK);
        assert_int_equal(mf_draw_list_create(s->d, NULL, &s->gl), MF_OK);
        assert_int_equal(mf_draw_list_create(s->d, NULL, &s->cl), MF_OK);
        if (s->d->clip_count > 0) {
            mf_entry_handle h = mf_tracks_set(s->tracks, 0, (int32_t)rnd((uint32_t)s->d->clip_count), true);
            mf_tracks_entry(s->tracks, h)->track_time = 0.07 * k;
        }
        float m[6] = {1.0f + 0.1f * (float)k, 0.05f * (float)k, -0.05f * (float)k, 1.0f, 30.0f * (float)k, -3.0f * (float)k};
        memcpy(s->xf, m, sizeof m);
    }
    test_rig phys;
    test_rig_build(&phys, PHYS_RIG, PHYS_NAMES, PHYS_CLIPS, 1);
    pctx pc = {.d = &phys.data, .other = rigs[2]};
    assert_int_equal(mf_gpu_rig_create(g, pc.d, &pc.rig, NULL), MF_OK);
    pinst ph[PHYS];
    memset(ph, 0, sizeof ph);
    for (int k = 0; k < PHYS; k++) {
        pinst *x = &ph[k];
        assert_int_equal(mf_pose_create(pc.d, NULL, &x->gpu, NULL), MF_OK);
        assert_int_equal(mf_tracks_create(pc.d, NULL, NULL, &x->tg), MF_OK);
        mf_tracks_entry(x->tg, mf_tracks_set(x->tg, 0, 0, true))->track_time = 0.29 * k;
        assert_int_equal(mf_draw_list_create(pc.d, NULL, &x->cl), MF_OK);
        twin_renew(&pc, x);
        float m[6] = {0.9f, -0.1f * (float)k, 0.1f * (float)k, 1.1f, 40.0f * (float)k - 20.0f, 10.0f * (float)k};
        memcpy(x->xf, m, sizeof m);
    }
    uint8_t *phys_v = malloc(65536);
    double phys_worst = 0;
    mf_draw_batch *cb = NULL;
    assert_int_equal(mf_draw_batch_create(NULL, &cb), MF_OK);
    mf_batch_vertex *gv = malloc(sizeof *gv * 65536);
    uint32_t *gi = malloc(sizeof *gi * 3 * 65536);
    long accepted = 0, nomem = 0, lies = 0, walks = 0, locals = 0, tf_locals = 0, path_locals = 0;
    for (int round = 0; round < ROUNDS; round++) {
        mf_gpu_batch_desc desc = {.max_vertices = 8 + (int32_t)rnd(120), .max_indices = 6 + (int32_t)rnd(200),
                                  .max_items = 1 + (int32_t)rnd(16), .max_calls = 1 + (int32_t)rnd(8),
                                  .max_instances = 1 + (int32_t)rnd(6), .max_words = 16 + (int32_t)rnd(1400),
                                  .frames_in_flight = 1 + (int32_t)rnd(3), .readback = true};
        /* room for zero to four PHYS_RIG states (5 constraints each), or the default */
        desc.max_physics = rnd2(4) == 0 ? 0 : 4 + (int32_t)rnd2(17);
        mf_gpu_batch *b = NULL;
        assert_int_equal(mf_gpu_batch_create(g, &desc, &b, NULL), MF_OK);
        int32_t max_physics = desc.max_physics ? desc.max_physics : 8 * desc.max_instances;
        for (int k = 0; k < PHYS; k++) { /* a new batch: new states, at rest on their first add */
            mf_result res = mf_gpu_batch_physics_acquire(b, pc.rig, &ph[k].state);
            if (res == MF_ERR_NOMEM) pc.no_room++;
            else assert_int_equal(res, MF_OK), twin_renew(&pc, &ph[k]);
        }
        int frames = 1 + (int)rnd2(3);
        for (int frame = 0; frame < frames; frame++) {
            assert_int_equal(mf_gpu_batch_begin(b), MF_OK);
            mf_draw_batch_begin(cb);
            memset(phys_v, 0, 65536);
            for (int k = 0; k < PHYS; k++) ph[k].added = false;
            for (int n = 0; n < 8; n++) {
                if (rnd2(3) == 0) phys_add(b, max_physics, &pc, &ph[rnd2(PHYS)], cb, phys_v);
                if (rnd2(16) == 0 && ph[n % PHYS].state >= 0) phys_renew(b, &pc, &ph[n % PHYS]);
                inst *s = &in[rnd(INSTANCES)];
                mf_pose_reset(s->pose);
                mf_tracks_update(s->tracks, 0.03f);
                mf_tracks_apply(s->tracks, s->pose);
                mf_pose_update_world(s->pose);
                if (rnd(12) == 0) /* nothing shown: an instance with no items */
                    for (int32_t k = 0; k < s->pose->slot_count; k++) s->pose->attachment[k] = -1;
                if (s->rig == rigs[3] || s->rig == rigs[4]) /* about a quarter of its slots: items that can fit */
                    for (int32_t k = 0; k < s->pose->slot_count; k++)
                        if (rnd(4) != 0 && (s->rig == rigs[3] || k >= 4)) s->pose->attachment[k] = -1; /* paths kept */
                bool needs = mf_gpu_pose_needs_list(s->rig, s->pose), walk = !needs && rnd(2);
                bool local = walk && rnd(2); /* the world on the GPU: the pose's unreadable meanwhile */
                assert_int_equal(mf_draw_list_build_items(s->gl, s->pose), MF_OK);
                snap before = take(b);
                bool lie = !walk && rnd(6) == 0 && s->gl->item_count > 0;
                if (lie) { /* an item that claims what its attachment is not */
                    mf_draw_item *it = &s->gl->items[rnd((uint32_t)s->gl->item_count)];
                    switch (rnd(3)) {
                    case 0: /* an unclipped item drawn with another vertex count (a list of another frame) */
                        if (it->clipped || it->index_count == 0) it->attachment = -1;
                        else it->vertex_count += 1 + (int32_t)rnd(3);
                        break;
                    case 1: it->attachment = s->d->attachment_count + (int32_t)rnd(5); break;
                    default: it->index_first = s->gl->index_count + 1; break;
                    }
                }
                mf_result res;
                if (local) {
                    poison_world(s->pose);
                    res = mf_gpu_batch_add_local(b, s->rig, s->pose, s->xf);
                    mf_pose_update_world(s->pose);
                    locals += res == MF_OK, tf_locals += res == MF_OK && s->rig == rigs[3];
                    path_locals += res == MF_OK && s->rig == rigs[4];
                } else {
                    res = mf_gpu_batch_add(b, s->rig, s->pose, walk ? NULL : s->gl, s->xf);
                }
                walks += walk;
                if (lie) { /* refused: for the lie, or for room when an earlier item did not fit */
                    lies++;
                    assert_true(res == MF_ERR_ARGUMENT || res == MF_ERR_NOMEM);
                    same(&before, b, res == MF_ERR_NOMEM);
                    /* a host never writes a list (a build keeps items it finds in place): a new one */
                    mf_draw_list_destroy(s->gl);
                    assert_int_equal(mf_draw_list_create(s->d, NULL, &s->gl), MF_OK);
                    continue;
                }
                if (needs) assert_int_equal(mf_gpu_batch_add(b, s->rig, s->pose, NULL, s->xf), MF_ERR_ARGUMENT);
                if (needs) assert_int_equal(mf_gpu_batch_add_local(b, s->rig, s->pose, s->xf), MF_ERR_ARGUMENT);
                if (res == MF_ERR_NOMEM) {
                    nomem++;
                    same(&before, b, 1);
                    continue;
                }
                if (res != MF_OK)
                    fail_msg("round %d: %s (walk %d, local %d, needs %d, rig %s, items %d)", round, mf_result_name(res), walk,
                             local, needs, s->rig == rigs[0] ? "scene" : s->rig == rigs[1] ? "plain" : s->rig == rigs[2] ? "world" : s->rig == rigs[3] ? "tf" : "path",
                             s->gl->item_count);
                accepted++;
                assert_int_equal(mf_draw_list_build(s->cl, s->pose), MF_OK);
                assert_int_equal(mf_draw_batch_add(cb, s->cl, s->d, s->xf), MF_OK);
            }
            assert_int_equal(mf_gpu_batch_submit(b), MF_OK);
            assert_int_equal(mf_gpu_batch_wait(b), MF_OK);
            assert_int_equal(mf_gpu_batch_read(b, gv, gi), MF_OK);
            /* the springs' vertices within their bound (gpu_close_phys), the rest within float rounding */
            gpu_expect_streams_by(cb, b->calls, b->call_count, gv, b->vertex_count, gi, b->index_count, gpu_close_phys,
                                  &phys_worst);
            for (int32_t v = 0; v < b->vertex_count; v++)
                if (!phys_v[v] && (!gpu_close(gv[v].x, cb->vertices[v].x) || !gpu_close(gv[v].y, cb->vertices[v].y)))
                    fail_msg("round %d, frame %d, vertex %d: gpu (%.6f, %.6f), cpu (%.6f, %.6f)", round, frame, v,
                             gv[v].x, gv[v].y, cb->vertices[v].x, cb->vertices[v].y);
        }
        /* no room leaked: with every state released, all of it can be acquired again */
        for (int k = 0; k < PHYS; k++)
            if (ph[k].state >= 0) assert_int_equal(mf_gpu_batch_physics_release(b, ph[k].state), MF_OK);
        int32_t st, got = 0;
        while (mf_gpu_batch_physics_acquire(b, pc.rig, &st) == MF_OK) got++;
        assert_int_equal(got, max_physics / phys.data.physics_count);
        mf_gpu_batch_destroy(b);
    }
    fprintf(stderr, "test_gpu_batch_random: %ld accepted (%ld by pose walk, %ld of them with the world on the GPU, %ld with transform constraints, %ld with path ones), %ld refused for room, %ld lies refused\n",
            accepted, walks, locals, tf_locals, path_locals, nomem, lies);
    fprintf(stderr, "test_gpu_batch_random: physics: %ld accepted, %ld refused for room, %ld lies refused, %ld "
            "refused as added already, %ld posing nothing, %ld states refused for room, %ld released and acquired "
            "again; largest GPU-CPU difference %.5f px\n",
            pc.accepted, pc.nomem, pc.lies, pc.twice, pc.empty, pc.no_room, pc.reacquired, phys_worst);
    /* every way was taken */
    assert_true(accepted > 20 && nomem > 20 && lies > 5 && walks > 5 && locals > 5 && tf_locals > 0 && path_locals > 0);
    assert_true(pc.accepted > 20 && pc.nomem > 5 && pc.lies > 5 && pc.twice > 0 && pc.empty > 0 && pc.no_room > 0 &&
                pc.reacquired > 5);
    assert_int_equal(mf_gpu_device_messages(g, NULL), 0);
    free(gv), free(gi);
    mf_draw_batch_destroy(cb);
    for (int k = 0; k < INSTANCES; k++) {
        mf_draw_list_destroy(in[k].gl), mf_draw_list_destroy(in[k].cl);
        mf_tracks_destroy(in[k].tracks), mf_pose_destroy(in[k].pose);
    }
    for (int k = 0; k < PHYS; k++) {
        mf_pose_destroy(ph[k].gpu), mf_pose_destroy(ph[k].cpu);
        mf_tracks_destroy(ph[k].tg), mf_tracks_destroy(ph[k].tc);
        mf_draw_list_destroy(ph[k].cl);
    }
    free(phys_v);
    mf_gpu_rig_destroy(pc.rig);
    test_rig_free(&phys);
    for (int r = 0; r < 5; r++) mf_gpu_rig_destroy(rigs[r]);
    test_rig_free(&scene), test_rig_free(&plain), test_rig_free(&world), test_rig_free(&tf), test_rig_free(&path);
    mf_gpu_device_destroy(g);
}

int main(void)
{
    gpu_test_keep_driver_mapped();
    const struct CMUnitTest tests[] = {cmocka_unit_test(random_adds)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
