/* mf_gpu_batch_add and mf_gpu_batch_add_local under random small capacities, five rigs (one
 * with a clipping range, one with every inherit mode, one with IK and transform constraints and
 * one with path constraints too: their local poses carry their words, path deforms included),
 * lists, pose walks and world on the GPU
 * mixed, and lists that lie: every add either goes in whole or is refused and
 * leaves the frame exactly as it was (overflow counted only for MF_ERR_NOMEM), and what went in
 * draws, after the GPU ran, what mf_draw_batch_add gives for the same skeletons in the same
 * order. lavapipe; skipped without a device unless MF_REQUIRE_GPU is set. */
#define _GNU_SOURCE
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_rig.h"
#include "mf/mf_gpu.h"
#include "mf/mf_tracks.h"

enum { INSTANCES = 10, ROUNDS = 60 };

static uint32_t g_r = 77;
static uint32_t rnd(uint32_t n)
{
    g_r = g_r * 1664525u + 1013904223u;
    return (g_r >> 8) % n;
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
        mf_gpu_batch *b = NULL;
        assert_int_equal(mf_gpu_batch_create(g, &desc, &b, NULL), MF_OK);
        assert_int_equal(mf_gpu_batch_begin(b), MF_OK);
        mf_draw_batch_begin(cb);
        for (int n = 0; n < 8; n++) {
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
        gpu_expect_streams(cb, b->calls, b->call_count, gv, b->vertex_count, gi, b->index_count);
        mf_gpu_batch_destroy(b);
    }
    fprintf(stderr, "test_gpu_batch_random: %ld accepted (%ld by pose walk, %ld of them with the world on the GPU, %ld with transform constraints, %ld with path ones), %ld refused for room, %ld lies refused\n",
            accepted, walks, locals, tf_locals, path_locals, nomem, lies);
    /* every way was taken */
    assert_true(accepted > 20 && nomem > 20 && lies > 5 && walks > 5 && locals > 5 && tf_locals > 0 && path_locals > 0);
    assert_int_equal(mf_gpu_device_messages(g, NULL), 0);
    free(gv), free(gi);
    mf_draw_batch_destroy(cb);
    for (int k = 0; k < INSTANCES; k++) {
        mf_draw_list_destroy(in[k].gl), mf_draw_list_destroy(in[k].cl);
        mf_tracks_destroy(in[k].tracks), mf_pose_destroy(in[k].pose);
    }
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
