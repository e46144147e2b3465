/* SIMD skinning equals the scalar path bit for bit (rigid and weighted, 1 to 4 influences),
 * deform included; the batch API gives the same poses on a thread pool
 * as on the caller's thread and allocates nothing per frame. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../src/runtime/pose/geom_skin.h"
#include "mf/mf_batch.h"
#include "mf/mf_build.h"
#include "mf/mf_rig.h"
#include "testutil.h"

/* 1 to 4 influences a vertex (odd and even counts), an unweighted mesh with an odd vertex
 * count (the SIMD tail) and a region. */
static const char *RIG =
    "{ \"format\": 1, \"uid\": \"skl_00000000a11c\", \"type\": \"Skeleton\", \"fps\": 30,\n"
    "  \"bones\": [ { \"name\": \"root\" }, { \"name\": \"a\", \"parent\": \"root\", \"rot\": 30, \"length\": 40 },\n"
    "    { \"name\": \"b\", \"parent\": \"a\", \"x\": 40, \"rot\": -20, \"sx\": 1.5 },\n"
    "    { \"name\": \"c\", \"parent\": \"b\", \"x\": 30, \"shx\": 10 } ],\n"
    "  \"slots\": [ { \"name\": \"w\", \"bone\": \"a\", \"attachment\": \"w\" },\n"
    "    { \"name\": \"r\", \"bone\": \"b\", \"attachment\": \"r\" },\n"
    "    { \"name\": \"q\", \"bone\": \"c\", \"attachment\": \"q\" } ],\n"
    "  \"skins\": [ { \"name\": \"default\", \"attachments\": [\n"
    "    { \"slot\": \"w\", \"name\": \"w\", \"type\": \"Mesh\", \"uvs\": [0,0, 1,0, 1,1, 0,1, 0.5,0.5],\n"
    "      \"triangles\": [0,1,4, 1,2,4, 2,3,4], \"hull\": 4,\n"
    "      \"weights\": { \"bones\": [\"root\", \"a\", \"b\", \"c\"], \"v\": [ [0, 1, 3.5, -2],\n"
    "        [0, 0.5, 1, 2, 1, 0.5, -7.25, 3],\n"
    "        [0, 0.2, 10, 11, 1, 0.3, -5, 6, 2, 0.5, 123.5, -77],\n"
    "        [0, 0.1, 1, 1, 1, 0.2, 2, -3, 2, 0.3, 40, 50, 3, 0.4, -60.5, 0.25],\n"
    "        [3, 0.7, 9, 9, 2, 0.3, -1, 4] ] } },\n"
    "    { \"slot\": \"r\", \"name\": \"r\", \"type\": \"Mesh\", \"uvs\": [0,0, 1,0, 1,1, 0,1, 0.5,0.5],\n"
    "      \"triangles\": [0,1,4, 1,2,4, 2,3,4], \"hull\": 4, \"vertices\": [0,0, 30,1, 31,29, -2,30, 15.5,14] },\n"
    "    { \"slot\": \"q\", \"name\": \"q\", \"type\": \"Region\", \"x\": 5, \"rot\": 12, \"width\": 24, \"height\": 48 }\n"
    "  ] } ] }\n";

typedef struct fixture {
    void *blob;
    mf_skel_data data;
} fixture;

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    assert_non_null(f);
    const char *path = tu_tmp("skin.mskel");
    assert_int_equal(tu_write(path, RIG), 0);
    mf_rig rig;
    mf_diag diag;
    mf_diag_clear(&diag);
    assert_int_equal(mf_rig_load(path, &rig, &diag), MF_OK);
    size_t size = 0;
    assert_int_equal(mf_build_skeleton(rig.sk, (const mf_clip *const *)rig.clips, rig.clip_count, &f->blob, &size, &diag),
                     MF_OK);
    mf_rig_free(&rig);
    assert_int_equal(mf_skel_data_load(f->blob, size, &f->data, &diag), MF_OK);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    free(f->blob);
    free(f);
    return 0;
}

/* Moves the bones to pose k (a deterministic spread of angles, scales and positions). */
static void pose_k(mf_pose *p, int32_t k)
{
    mf_pose_reset(p);
    for (int32_t b = 0; b < p->bone_count; b++) {
        p->rot[b] += 17.3f * (float)(k + b);
        p->x[b] += 3.1f * (float)k;
        p->sx[b] *= 1.0f + 0.05f * (float)(k % 5);
        p->shy[b] += (float)(k % 3);
    }
}

/* Skinning reads the world packed at the end of mf_pose_update_world: a bone updated on its own
 * afterwards, or a world the host writes and announces, must show in the vertices at once. */
static void check_all_slots_match(const mf_pose *p)
{
    float simd[64], scalar[64];
    for (int32_t s = 0; s < p->slot_count; s++) {
        int32_t att = p->attachment[s];
        int32_t n = mf_pose_world_vertices(p, s, att, simd, 32);
        assert_int_equal(mf_skin_world_vertices(p, s, att, scalar, 32, false), n);
        for (int32_t i = 0; i < 2 * n; i++)
            if (fabsf(simd[i] - scalar[i]) > 1e-4f)
                fail_msg("slot %d vertex %d: packed %.6f scalar %.6f", s, i / 2, (double)simd[i], (double)scalar[i]);
    }
}

static void test_world_changes_after_update(void **state)
{
    fixture *f = *state;
    mf_pose *p;
    mf_diag diag;
    assert_int_equal(mf_pose_create(&f->data, NULL, &p, &diag), MF_OK);
    pose_k(p, 3);
    mf_pose_update_world(p);
    check_all_slots_match(p);
    /* one bone moved through the runtime after the world update */
    int32_t b = p->bone_count - 1;
    p->ax[b] += 40.0f, p->arot[b] += 30.0f;
    mf_pose_update_bone(p, b);
    check_all_slots_match(p);
    /* the host writes world transforms itself and says so */
    for (int32_t i = 0; i < p->bone_count; i++) p->wx[i] += 17.0f, p->a[i] *= 1.5f;
    mf_pose_world_changed(p);
    check_all_slots_match(p);
    float v[64];
    assert_true(mf_pose_world_vertices(p, 0, p->attachment[0], v, 32) > 0);
    mf_pose_update_world(p); /* and the next update packs again */
    check_all_slots_match(p);
    mf_pose_destroy(p);
}

static void test_simd_matches_scalar(void **state)
{
    fixture *f = *state;
    const mf_skel_data *d = &f->data;
#if defined(__SSE2__) && !defined(MF_NO_SIMD)
    assert_true(mf_skin_has_simd());
#endif
    mf_pose *p;
    mf_diag diag;
    assert_int_equal(mf_pose_create(d, NULL, &p, &diag), MF_OK);
    float simd[64], scalar[64];
    int32_t checked = 0;
    for (int32_t k = 0; k < 40; k++) {
        pose_k(p, k);
        bool deformed = k % 2 == 1;
        for (int32_t s = 0; s < p->slot_count; s++) {
            int32_t att = p->attachment[s];
            assert_true(att >= 0);
            const mf_sd_attachment *at = &d->attachments[att];
            if (deformed && at->deform_count > 0) {
                /* the slot's deform holds this attachment's offsets */
                p->deform_attachment[s] = att;
                for (int32_t i = 0; i < at->deform_count; i++)
                    p->deform[p->deform_first[s] + i] = 0.37f * (float)((i * 7 + k) % 11) - 1.5f;
            }
        }
        mf_pose_update_world(p);
        for (int32_t s = 0; s < p->slot_count; s++) {
            int32_t att = p->attachment[s];
            memset(simd, 0, sizeof simd), memset(scalar, 0, sizeof scalar);
            int32_t n = mf_skin_world_vertices(p, s, att, simd, 32, true);
            int32_t m = mf_skin_world_vertices(p, s, att, scalar, 32, false);
            assert_int_equal(n, m);
            assert_true(n >= 4);
            assert_int_equal(mf_pose_world_vertices(p, s, att, simd, 32), n);
            for (int32_t i = 0; i < 2 * n; i++) {
                assert_true(isfinite(scalar[i]));
                if (fabsf(simd[i] - scalar[i]) > 1e-4f)
                    fail_msg("slot %d vertex %d: simd %.6f scalar %.6f", s, i / 2, (double)simd[i], (double)scalar[i]);
                /* every path does the same operations in the same order */
                if (memcmp(&simd[i], &scalar[i], sizeof(float)) != 0)
                    fail_msg("slot %d vertex %d: simd %.9g scalar %.9g differ in bits", s, i / 2, (double)simd[i],
                             (double)scalar[i]);
                checked++;
            }
        }
    }
    assert_true(checked > 40 * 20);
    /* too small a buffer, points and bad indices: 0 either way */
    assert_int_equal(mf_skin_world_vertices(p, 0, p->attachment[0], simd, 2, true), 0);
    assert_int_equal(mf_skin_world_vertices(p, -1, 0, simd, 32, true), 0);
    assert_int_equal(mf_skin_world_vertices(NULL, 0, 0, simd, 32, false), 0);
    mf_pose_destroy(p);
}

static long g_allocs;
static void *counting_alloc(void *user, size_t n)
{
    (void)user;
    g_allocs++;
    return malloc(n);
}
static void counting_free(void *user, void *ptr)
{
    (void)user;
    free(ptr);
}

static void test_batch_threads_match(void **state)
{
    fixture *f = *state;
    enum { N = 37 };
    mf_allocator al = {.alloc = counting_alloc, .free = counting_free};
    mf_pose *one[N], *many[N];
    mf_draw_list *dl1[N], *dl2[N];
    mf_batch_item a[N], b[N];
    mf_diag diag;
    for (int32_t i = 0; i < N; i++) {
        assert_int_equal(mf_pose_create(&f->data, &al, &one[i], &diag), MF_OK);
        assert_int_equal(mf_pose_create(&f->data, &al, &many[i], &diag), MF_OK);
        assert_int_equal(mf_draw_list_create(&f->data, &al, &dl1[i]), MF_OK);
        assert_int_equal(mf_draw_list_create(&f->data, &al, &dl2[i]), MF_OK);
        a[i] = (mf_batch_item){.pose = one[i], .draw = dl1[i]};
        b[i] = (mf_batch_item){.pose = many[i], .draw = dl2[i]};
    }
    mf_thread_pool *pool;
    assert_int_equal(mf_thread_pool_create(3, &pool), MF_OK);
    assert_int_equal(mf_thread_pool_threads(pool), 3);
    long before = g_allocs;
    for (int32_t frame = 0; frame < 5; frame++) {
        for (int32_t i = 0; i < N; i++) pose_k(one[i], i + frame), pose_k(many[i], i + frame);
        mf_batch_update(a, N, 1.0 / 60, NULL, NULL);
        mf_batch_update(b, N, 1.0 / 60, mf_thread_pool_dispatch, pool);
        for (int32_t i = 0; i < N; i++) {
            assert_memory_equal(one[i]->a, many[i]->a, sizeof(float) * (size_t)one[i]->bone_count);
            assert_memory_equal(one[i]->wy, many[i]->wy, sizeof(float) * (size_t)one[i]->bone_count);
            assert_int_equal(dl1[i]->vertex_count, dl2[i]->vertex_count);
            assert_true(dl1[i]->vertex_count > 0);
            assert_memory_equal(dl1[i]->vertices, dl2[i]->vertices, sizeof(float) * 2 * (size_t)dl1[i]->vertex_count);
        }
    }
    assert_int_equal(g_allocs, before); /* nothing per frame */
    mf_thread_pool_destroy(pool);
    assert_int_equal(mf_thread_pool_create(0, &pool), MF_ERR_ARGUMENT);
    assert_null(pool);
    for (int32_t i = 0; i < N; i++) {
        mf_pose_destroy(one[i]), mf_pose_destroy(many[i]);
        mf_draw_list_destroy(dl1[i]), mf_draw_list_destroy(dl2[i]);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_simd_matches_scalar, setup, teardown),
        cmocka_unit_test_setup_teardown(test_world_changes_after_update, setup, teardown),
        cmocka_unit_test_setup_teardown(test_batch_threads_match, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
