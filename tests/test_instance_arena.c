/* Instances in two parts: what a frame touches through alloc, the rest through the cold hooks
 * (mf_base.h), and the bump arena (mf_instance_arena.h) that lays the hot parts back to back. */
#include "testutil.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "mf/mf_geometry.h"
#include "mf/mf_instance_arena.h"
#include "mf/mf_tracks.h"
#include "pose_rig.h"

/* A heap that counts, and fails the nth allocation from now (0: never). */
typedef struct counter {
    int allocs, frees, fail_at;
    long long live;
} counter;

static void *count_alloc(void *user, size_t n)
{
    counter *c = user;
    if (c->fail_at > 0 && --c->fail_at == 0) return NULL;
    size_t *b = malloc(n + 16);
    if (!b) return NULL;
    b[0] = n;
    c->allocs++, c->live += (long long)n;
    return (unsigned char *)b + 16;
}
static void count_free(void *user, void *p)
{
    counter *c = user;
    if (!p) return;
    size_t *b = (size_t *)((unsigned char *)p - 16);
    c->frees++, c->live -= (long long)b[0];
    free(b);
}

/* Hot and cold counted apart (user: two counters). */
static void *hot_alloc(void *user, size_t n) { return count_alloc(&((counter *)user)[0], n); }
static void hot_free(void *user, void *p) { count_free(&((counter *)user)[0], p); }
static void *cold_alloc(void *user, size_t n) { return count_alloc(&((counter *)user)[1], n); }
static void cold_free(void *user, void *p) { count_free(&((counter *)user)[1], p); }

static const char *RIG = RIG_WEIGHTED_MESH;

static bool inside(const void *p, const void *lo, size_t n)
{
    return (uintptr_t)p >= (uintptr_t)lo && (uintptr_t)p < (uintptr_t)lo + n;
}

static void test_arena_carves_in_order(void **state)
{
    (void)state;
    counter heap = {0};
    mf_instance_arena *ar = NULL;
    mf_instance_arena_desc desc = {.chunk_bytes = 1000, .backing = {.alloc = count_alloc, .free = count_free, .user = &heap}};
    assert_int_equal(mf_instance_arena_create(&desc, &ar), MF_OK);
    assert_int_equal(heap.allocs, 1); /* the arena itself; chunks come when blocks are asked for */
    mf_allocator al = mf_instance_arena_allocator(ar);
    unsigned char *a = al.alloc(al.user, 100), *b = al.alloc(al.user, 1);
    assert_non_null(a);
    assert_int_equal((uintptr_t)a % 64, 0);
    assert_ptr_equal(b, a + 128); /* rounded to lines, next in the chunk */
    unsigned char *big = al.alloc(al.user, 5000); /* its own chunk; carving goes on after b */
    assert_non_null(big);
    assert_int_equal((uintptr_t)big % 64, 0);
    unsigned char *c = al.alloc(al.user, 64);
    assert_ptr_equal(c, b + 64);
    memset(big, 7, 5000), memset(a, 1, 100), memset(c, 2, 64);
    size_t used = 0, reserved = 0;
    mf_instance_arena_usage(ar, &used, &reserved);
    assert_int_equal(used, 128 + 64 + 5056 + 64);
    assert_int_equal(reserved, 1024 + 5056);
    int before = heap.allocs;
    unsigned char *d = al.alloc(al.user, 900); /* does not fit what is left: a new chunk */
    assert_non_null(d);
    assert_false(inside(d, a, 1024));
    assert_int_equal(heap.allocs, before + 1);
    /* the cold hooks are the backing allocator's */
    void *cold = al.alloc_cold(al.user, 10);
    assert_int_equal(heap.allocs, before + 2);
    al.free_cold(al.user, cold);
    assert_int_equal(heap.frees, 1);
    mf_instance_arena_destroy(ar);
    assert_int_equal(heap.allocs, heap.frees);
    assert_int_equal(heap.live, 0);
}

/* Freed blocks come back for blocks of the same rounded size, never for others; a double or
 * foreign free is ignored; used counts what is out. */
static void test_arena_reuses_freed_blocks(void **state)
{
    (void)state;
    counter heap = {0};
    mf_instance_arena *ar = NULL;
    mf_instance_arena_desc desc = {.chunk_bytes = 4096, .backing = {.alloc = count_alloc, .free = count_free, .user = &heap}};
    assert_int_equal(mf_instance_arena_create(&desc, &ar), MF_OK);
    mf_allocator al = mf_instance_arena_allocator(ar);
    unsigned char *x = al.alloc(al.user, 100), *y = al.alloc(al.user, 100), *z = al.alloc(al.user, 200);
    unsigned char *big = al.alloc(al.user, 10000); /* a chunk of its own */
    size_t used = 0, reserved = 0, reserved0 = 0;
    mf_instance_arena_usage(ar, &used, &reserved0);
    assert_int_equal(used, 128 + 128 + 256 + 10048);
    al.free(al.user, y);
    mf_instance_arena_usage(ar, &used, NULL);
    assert_int_equal(used, 128 + 256 + 10048);
    assert_ptr_equal(al.alloc(al.user, 65), y); /* 65 and 100 both round to 128 */
    unsigned char *w = al.alloc(al.user, 100);  /* none freed left: carved after big's chunk's turn */
    assert_true(w != x && w != y && w != z);
    al.free(al.user, z);
    assert_true(al.alloc(al.user, 128) != z); /* 128 is not 256: no splitting */
    assert_ptr_equal(al.alloc(al.user, 256), z);
    al.free(al.user, big);
    assert_ptr_equal(al.alloc(al.user, 10000), big);
    /* a double free is ignored: the block comes back once */
    al.free(al.user, x), al.free(al.user, x);
    assert_ptr_equal(al.alloc(al.user, 100), x);
    unsigned char *v = al.alloc(al.user, 100);
    assert_true(v != x);
    /* frees of what the arena did not give, and NULL, change nothing */
    int local[16] = {0};
    al.free(al.user, local), al.free(al.user, NULL), al.free(al.user, x + 64);
    assert_int_equal(local[0] + local[1], 0);
    assert_true(al.alloc(al.user, 100) != x + 64);
    /* the last-in block first, its memory as it was past the link */
    memset(v, 5, 100);
    al.free(al.user, w), al.free(al.user, v);
    unsigned char *again = al.alloc(al.user, 100);
    assert_ptr_equal(again, v);
    assert_int_equal(again[99], 5);
    assert_ptr_equal(al.alloc(al.user, 100), w);
    mf_instance_arena_usage(ar, NULL, &reserved);
    assert_int_equal(reserved, reserved0);
    mf_instance_arena_destroy(ar);
    assert_int_equal(heap.live, 0);
}

/* Thousands of blocks of a few sizes freed and taken again: no chunk more, every address
 * handed out once; the bookkeeping failing leaves an alloc NULL and the arena working. */
static void test_arena_reuse_at_scale(void **state)
{
    (void)state;
    enum { N = 3000 };
    counter heap = {0};
    mf_instance_arena *ar = NULL;
    mf_instance_arena_desc desc = {.backing = {.alloc = count_alloc, .free = count_free, .user = &heap}};
    assert_int_equal(mf_instance_arena_create(&desc, &ar), MF_OK);
    mf_allocator al = mf_instance_arena_allocator(ar);
    static void *blk[N], *again[N];
    for (int i = 0; i < N; i++) {
        blk[i] = al.alloc(al.user, (size_t)(64 * (1 + i % 5)));
        assert_non_null(blk[i]);
    }
    size_t used0 = 0, reserved0 = 0, used = 0, reserved = 0;
    mf_instance_arena_usage(ar, &used0, &reserved0);
    for (int i = 0; i < N; i += 2) al.free(al.user, blk[i]); /* every other one */
    for (int i = 0; i < N; i += 2) {
        again[i] = al.alloc(al.user, (size_t)(64 * (1 + i % 5)));
        bool found = false; /* one of the freed blocks of its size */
        for (int j = i % 10; j < N && !found; j += 10) found = again[i] == blk[j];
        assert_true(found);
        for (int j = 0; j < i; j += 2) assert_true(again[j] != again[i]);
    }
    mf_instance_arena_usage(ar, &used, &reserved);
    assert_int_equal(used, used0);
    assert_int_equal(reserved, reserved0);
    /* the block table's growth fails: that alloc fails, nothing is carved, the next works */
    mf_instance_arena *small = NULL;
    assert_int_equal(mf_instance_arena_create(&desc, &small), MF_OK);
    mf_allocator sa = mf_instance_arena_allocator(small);
    int n = 0;
    for (; n < 32; n++) assert_non_null(sa.alloc(sa.user, 64)); /* the tables hold 32 a side */
    size_t su = 0;
    mf_instance_arena_usage(small, &su, NULL);
    heap.fail_at = 1;
    assert_null(sa.alloc(sa.user, 64));
    size_t su2 = 0;
    mf_instance_arena_usage(small, &su2, NULL);
    assert_int_equal(su2, su);
    assert_non_null(sa.alloc(sa.user, 64));
    mf_instance_arena_destroy(small);
    mf_instance_arena_destroy(ar);
    assert_int_equal(heap.live, 0);
}

static void test_arena_errors(void **state)
{
    (void)state;
    mf_instance_arena *ar = (mf_instance_arena *)1;
    assert_int_equal(mf_instance_arena_create(NULL, NULL), MF_ERR_ARGUMENT);
    assert_int_equal(mf_instance_arena_create(&(mf_instance_arena_desc){.chunk_bytes = SIZE_MAX}, &ar), MF_ERR_ARGUMENT);
    assert_null(ar);
    counter heap = {.fail_at = 1};
    mf_instance_arena_desc desc = {.backing = {.alloc = count_alloc, .free = count_free, .user = &heap}};
    assert_int_equal(mf_instance_arena_create(&desc, &ar), MF_ERR_NOMEM);
    assert_null(ar);
    heap.fail_at = 2; /* the arena, then its first chunk fails */
    assert_int_equal(mf_instance_arena_create(&desc, &ar), MF_OK);
    mf_allocator al = mf_instance_arena_allocator(ar);
    assert_null(al.alloc(al.user, 10));
    assert_null(al.alloc(al.user, SIZE_MAX - 8));
    assert_non_null(al.alloc(al.user, 10)); /* the heap works again */
    mf_instance_arena_destroy(ar);
    mf_instance_arena_destroy(NULL);
    assert_int_equal(heap.live, 0);
    mf_allocator none = mf_instance_arena_allocator(NULL);
    assert_null(none.alloc);
    size_t used = 1, reserved = 1;
    mf_instance_arena_usage(NULL, &used, &reserved);
    assert_int_equal(used + reserved, 0);
}

typedef struct instance {
    mf_pose *pose;
    mf_tracks *tracks;
    mf_draw_list *draw;
} instance;

static void make(const test_rig *r, const mf_allocator *al, instance *in)
{
    assert_int_equal(mf_pose_create(&r->data, al, &in->pose, NULL), MF_OK);
    assert_int_equal(mf_tracks_create(&r->data, NULL, al, &in->tracks), MF_OK);
    assert_int_equal(mf_draw_list_create(&r->data, al, &in->draw), MF_OK);
}

static void drop(instance *in)
{
    mf_draw_list_destroy(in->draw);
    mf_tracks_destroy(in->tracks);
    mf_pose_destroy(in->pose);
}

static void pose_and_draw(instance *in)
{
    in->pose->rot[1] = 30, in->pose->rot[3] = -45, in->pose->x[2] = 2;
    mf_pose_update_world(in->pose);
    assert_int_equal(mf_draw_list_build(in->draw, in->pose), MF_OK);
}

/* The same frames from instances made every way: on the heap in one block each, with cold
 * parts apart, and from an arena. */
static void test_instances_in_parts_draw_the_same(void **state)
{
    (void)state;
    test_rig r;
    test_rig_build(&r, RIG, NULL, NULL, 0);
    instance plain, split, arena[3];
    make(&r, NULL, &plain);
    pose_and_draw(&plain);

    counter two[2] = {{0}, {0}};
    mf_allocator al = {hot_alloc, hot_free, two, cold_alloc, cold_free};
    make(&r, &al, &split);
    assert_int_equal(two[0].allocs, 3);
    assert_true(two[1].allocs >= 3); /* a cold block each (and the pose's setup temporary) */
    assert_int_equal(two[1].allocs - two[1].frees, 3);
    pose_and_draw(&split);
    assert_memory_equal(split.draw->vertices, plain.draw->vertices, 2 * sizeof(float) * (size_t)plain.draw->vertex_count);
    assert_memory_equal(split.draw->uvs, plain.draw->uvs, 2 * sizeof(float) * (size_t)plain.draw->vertex_count);
    assert_memory_equal(split.draw->indices, plain.draw->indices, sizeof(uint16_t) * (size_t)plain.draw->index_count);
    assert_memory_equal(split.pose->a, plain.pose->a, sizeof(float) * 5);
    drop(&split);
    assert_int_equal(two[0].live + two[1].live, 0);
    assert_int_equal(two[0].allocs, two[0].frees);

    counter heap = {0};
    mf_instance_arena *ar = NULL;
    mf_instance_arena_desc desc = {.backing = {.alloc = count_alloc, .free = count_free, .user = &heap}};
    assert_int_equal(mf_instance_arena_create(&desc, &ar), MF_OK);
    mf_allocator aa = mf_instance_arena_allocator(ar);
    for (int i = 0; i < 3; i++) make(&r, &aa, &arena[i]);
    /* hot parts back to back: each object's block starts before the next one's, all in the chunk */
    size_t used = 0, reserved = 0;
    mf_instance_arena_usage(ar, &used, &reserved);
    assert_true(used < 64 * 1024);
    for (int i = 0; i < 3; i++) {
        assert_true((uintptr_t)arena[i].pose < (uintptr_t)arena[i].tracks);
        assert_true((uintptr_t)arena[i].tracks < (uintptr_t)arena[i].draw);
        if (i) assert_true((uintptr_t)arena[i - 1].draw < (uintptr_t)arena[i].pose);
        assert_true((uintptr_t)arena[i].draw->vertices < (uintptr_t)(i < 2 ? (void *)arena[i + 1].pose : (void *)((unsigned char *)arena[0].pose + used)));
        assert_false(inside(arena[i].draw->uvs, arena[0].pose, used)); /* cold: from the heap */
    }
    for (int i = 0; i < 3; i++) {
        pose_and_draw(&arena[i]);
        assert_memory_equal(arena[i].draw->vertices, plain.draw->vertices, 2 * sizeof(float) * (size_t)plain.draw->vertex_count);
    }
    /* the middle instance despawned and another spawned: it takes the freed blocks, draws the same */
    instance old = arena[1];
    drop(&arena[1]);
    make(&r, &aa, &arena[1]);
    size_t reserved_after = 0;
    mf_instance_arena_usage(ar, NULL, &reserved_after);
    assert_int_equal(reserved_after, reserved);
    assert_ptr_equal(arena[1].pose, old.pose);
    assert_ptr_equal(arena[1].tracks, old.tracks);
    assert_ptr_equal(arena[1].draw, old.draw);
    pose_and_draw(&arena[1]);
    assert_memory_equal(arena[1].draw->vertices, plain.draw->vertices, 2 * sizeof(float) * (size_t)plain.draw->vertex_count);
    long long chunk_live = heap.live;
    for (int i = 0; i < 3; i++) drop(&arena[i]);
    assert_true(heap.live < chunk_live); /* the cold blocks went back */
    mf_instance_arena_destroy(ar);
    assert_int_equal(heap.live, 0);
    drop(&plain);
    test_rig_free(&r);
}

/* Cold hooks are used only as a pair; a failing cold block fails the create with nothing held. */
static void test_cold_hooks_pair_and_failures(void **state)
{
    (void)state;
    test_rig r;
    test_rig_build(&r, RIG, NULL, NULL, 0);
    counter two[2] = {{0}, {0}};
    mf_allocator half = {hot_alloc, hot_free, two, cold_alloc, NULL};
    instance in;
    make(&r, &half, &in);
    assert_int_equal(two[1].allocs, 0); /* alloc_cold without free_cold: ignored */
    drop(&in);
    assert_int_equal(two[0].live, 0);

    mf_allocator al = {hot_alloc, hot_free, two, cold_alloc, cold_free};
    for (int fail = 1; fail <= 3; fail++) { /* each object's first cold allocation fails in turn */
        memset(two, 0, sizeof two);
        two[1].fail_at = 1;
        mf_pose *p = (mf_pose *)1;
        mf_tracks *t = (mf_tracks *)1;
        mf_draw_list *dl = (mf_draw_list *)1;
        mf_result res = fail == 1 ? mf_pose_create(&r.data, &al, &p, NULL)
                        : fail == 2 ? mf_tracks_create(&r.data, NULL, &al, &t)
                                    : mf_draw_list_create(&r.data, &al, &dl);
        assert_int_equal(res, MF_ERR_NOMEM);
        assert_true(fail == 1 ? p == NULL : fail == 2 ? t == NULL : dl == NULL);
        assert_int_equal(two[0].live + two[1].live, 0);
    }
    /* the pose's cold block itself (after its setup temporary) */
    memset(two, 0, sizeof two);
    two[1].fail_at = 2;
    mf_pose *p = NULL;
    assert_int_equal(mf_pose_create(&r.data, &al, &p, NULL), MF_ERR_NOMEM);
    assert_int_equal(two[0].live + two[1].live, 0);
    test_rig_free(&r);
}

/* A pool that grows while the tracks play takes its arrays through the cold hooks: an arena
 * hands out blocks to one thread at a time, and tracks made from it may be updated on any. */
static void test_grown_pool_is_cold(void **state)
{
    (void)state;
    test_rig r;
    test_rig_build(&r, RIG, NULL, NULL, 0);
    mf_tracks_config cfg = {.pool_initial = 1};
    counter two[2] = {{0}, {0}};
    mf_allocator al = {hot_alloc, hot_free, two, cold_alloc, cold_free};
    mf_tracks *t = NULL;
    assert_int_equal(mf_tracks_create(&r.data, &cfg, &al, &t), MF_OK);
    int hot_allocs = two[0].allocs, cold_allocs = two[1].allocs;
    for (int i = 0; i < 6; i++) assert_true(mf_tracks_add_empty(t, 0, 0.2, 0.1 * i).index >= 0);
    assert_true(mf_tracks_pool_size(t) >= 6);
    assert_int_equal(two[0].allocs, hot_allocs); /* nothing from alloc after create */
    assert_true(two[1].allocs > cold_allocs);
    mf_tracks_update(t, 0.05);
    mf_tracks_destroy(t);
    assert_int_equal(two[0].live + two[1].live, 0);
    assert_int_equal(two[1].allocs, two[1].frees);

    counter heap = {0};
    mf_instance_arena *ar = NULL;
    mf_instance_arena_desc desc = {.backing = {.alloc = count_alloc, .free = count_free, .user = &heap}};
    assert_int_equal(mf_instance_arena_create(&desc, &ar), MF_OK);
    mf_allocator aa = mf_instance_arena_allocator(ar);
    assert_int_equal(mf_tracks_create(&r.data, &cfg, &aa, &t), MF_OK);
    size_t used = 0, used_after = 0;
    mf_instance_arena_usage(ar, &used, NULL);
    long long live = heap.live;
    for (int i = 0; i < 6; i++) assert_true(mf_tracks_add_empty(t, 0, 0.2, 0.1 * i).index >= 0);
    mf_instance_arena_usage(ar, &used_after, NULL);
    assert_int_equal(used_after, used);
    assert_true(heap.live > live);
    mf_tracks_destroy(t);
    mf_instance_arena_destroy(ar);
    assert_int_equal(heap.live, 0);
    test_rig_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_arena_carves_in_order),
        cmocka_unit_test(test_arena_reuses_freed_blocks),
        cmocka_unit_test(test_arena_reuse_at_scale),
        cmocka_unit_test(test_arena_errors),
        cmocka_unit_test(test_instances_in_parts_draw_the_same),
        cmocka_unit_test(test_cold_hooks_pair_and_failures),
        cmocka_unit_test(test_grown_pool_is_cold),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
