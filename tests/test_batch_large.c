/* A batch of MF_BATCH_PREFETCH_MIN items or more (whose items ask for their lines before each
 * stage) poses and draws every item as the same items updated one at a time do, bit for bit:
 * plain items, culled ones in every off-screen mode, items without a draw list, through the
 * default pool on two threads; nothing allocates per frame. */
#include "testutil.h"

#include <stdio.h>
#include <string.h>

#include "mf/mf_batch.h"
#include "mf/mf_geometry.h"
#include "pose_rig.h"

static const char *RIG = RIG_HEAD "\"bones\":[{\"name\":\"root\"},{\"name\":\"hip\",\"parent\":\"root\",\"y\":-40},"
    "{\"name\":\"arm\",\"parent\":\"hip\",\"length\":30},{\"name\":\"hand\",\"parent\":\"arm\",\"x\":30,\"length\":8}],"
    "\"slots\":[{\"name\":\"body\",\"bone\":\"hip\",\"attachment\":\"body\"},"
    "{\"name\":\"arm\",\"bone\":\"arm\",\"attachment\":\"arm\"},{\"name\":\"hand\",\"bone\":\"hand\",\"attachment\":\"hand\"}],"
    "\"ik\":[{\"name\":\"reach\",\"bones\":[\"arm\",\"hand\"],\"target\":\"root\",\"mix\":0.5}],"
    "\"skins\":[{\"name\":\"default\",\"attachments\":["
    "{\"slot\":\"body\",\"name\":\"body\",\"type\":\"Region\",\"width\":20,\"height\":80},"
    "{\"slot\":\"arm\",\"name\":\"arm\",\"type\":\"Region\",\"width\":30,\"height\":6,\"x\":15},"
    "{\"slot\":\"hand\",\"name\":\"hand\",\"type\":\"Region\",\"width\":8,\"height\":8,\"x\":4}]}]}";

static const char *const NAMES[] = {"walk"};
static const char *const CLIPS[] = {
    CLIP_HEAD "\"length\":1,\"bones\":{\"root\":{\"translate\":{\"t\":[0,1],\"v\":[[0,0],[200,0]]}},"
              "\"arm\":{\"rotate\":{\"t\":[0,0.5,1],\"v\":[0,60,0],\"curve\":[[0.25,0,0.75,1],\"linear\"]}},"
              "\"hand\":{\"scale\":{\"t\":[0,0.5,1],\"v\":[[1,1],[1.5,0.8],[1,1]]}}},"
              "\"slots\":{\"hand\":{\"rgba\":{\"t\":[0,0.5],\"v\":[\"#ffffffff\",\"#ff8040c0\"]}}}}",
};

enum { N = MF_BATCH_PREFETCH_MIN + 904 }; /* one batch past the threshold */

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

typedef struct side {
    mf_tracks *t[N];
    mf_pose *pose[N];
    mf_draw_list *draw[N];
    mf_batch_state state[N];
    mf_batch_item items[N];
} side;

/* two views: one that meets every instance's box and one far from it; culled items switch
 * between them (items leave the screen and come back in every mode) */
static float g_views[2][4] = {{-100, -200, 300, 100}, {5000, 5000, 5100, 5100}};

static void side_make(side *s, const test_rig *r, const mf_tracks_shared *shared, const mf_allocator *al)
{
    mf_diag diag;
    memset(s->state, 0, sizeof s->state);
    for (int i = 0; i < N; i++) {
        assert_int_equal(mf_pose_create(&r->data, al, &s->pose[i], &diag), MF_OK);
        assert_int_equal(mf_tracks_create(&r->data, &(mf_tracks_config){.shared = shared}, al, &s->t[i]), MF_OK);
        assert_int_equal(mf_draw_list_create(&r->data, al, &s->draw[i]), MF_OK);
        mf_entry_handle h = mf_tracks_set(s->t[i], 0, 0, true);
        mf_tracks_entry(s->t[i], h)->track_time = (double)i / N; /* staggered: some walk out of the view */
        /* a third always drawn, the rest culled against the view by mode; every 50th without a list */
        bool cull = i % 3 != 0;
        s->items[i] = (mf_batch_item){.tracks = s->t[i], .pose = s->pose[i], .draw = i % 50 == 7 ? NULL : s->draw[i],
                                      .offscreen = (mf_offscreen_mode)(i % 3), .view = cull ? g_views[i % 2] : NULL,
                                      .state = cull ? &s->state[i] : NULL};
    }
}

static void side_free(side *s)
{
    for (int i = 0; i < N; i++) {
        mf_draw_list_destroy(s->draw[i]);
        mf_tracks_destroy(s->t[i]);
        mf_pose_destroy(s->pose[i]);
    }
}

static void assert_same(const side *a, const side *b, int frame)
{
    for (int i = 0; i < N; i++) {
        const mf_pose *p = a->pose[i], *q = b->pose[i];
        size_t nb = (size_t)p->bone_count * sizeof(float);
        const float *pa[] = {p->a, p->b, p->c, p->d, p->wx, p->wy, p->x, p->rot, p->sx};
        const float *qa[] = {q->a, q->b, q->c, q->d, q->wx, q->wy, q->x, q->rot, q->sx};
        for (int k = 0; k < 9; k++)
            if (memcmp(pa[k], qa[k], nb) != 0) fail_msg("frame %d, instance %d: pose array %d differs", frame, i, k);
        assert_int_equal(a->state[i].culled, b->state[i].culled);
        const mf_draw_list *x = a->draw[i], *y = b->draw[i];
        assert_int_equal(x->item_count, y->item_count);
        assert_int_equal(x->vertex_count, y->vertex_count);
        if (memcmp(x->vertices, y->vertices, (size_t)x->vertex_count * 2 * sizeof(float)) != 0 ||
            (x->item_count && memcmp(x->items, y->items, (size_t)x->item_count * sizeof(mf_draw_item)) != 0))
            fail_msg("frame %d, instance %d: draw list differs", frame, i);
    }
}

/* The batch's update of big with the given options (NULL: mf_batch_update), count items. */
static void update_big(side *big, int count, double dt, mf_thread_pool *pool, const mf_batch_options *opt)
{
    if (opt) mf_batch_update_with(big->items, count, dt, mf_thread_pool_dispatch, pool, opt);
    else mf_batch_update(big->items, count, dt, mf_thread_pool_dispatch, pool);
}

/* big's first count items through the batch (opt: its options) against the same items one at a
 * time, 40 frames, culled items swapping views twice; returns the culled and drawn item-frames. */
static void run_agree(int count, const mf_batch_options *opt, int *culled_out, int *drawn_out)
{
    test_rig r;
    test_rig_build(&r, RIG, NAMES, CLIPS, 1);
    mf_tracks_shared *shared = NULL;
    assert_int_equal(mf_tracks_shared_create(&r.data, NULL, &shared), MF_OK);
    mf_allocator al = {.alloc = count_alloc, .free = count_free};
    side *big = calloc(1, sizeof *big), *one = calloc(1, sizeof *one);
    assert_non_null(big), assert_non_null(one);
    side_make(big, &r, shared, &al);
    side_make(one, &r, shared, &al);
    mf_thread_pool *pool = NULL;
    assert_int_equal(mf_thread_pool_create(2, &pool), MF_OK);
    int culled = 0, drawn = 0;
    long allocs = 0;
    for (int f = 0; f < 40; f++) {
        if (f == 2) allocs = g_allocs; /* the first frames may grow nothing, but count from here */
        double dt = f % 5 == 3 ? 0.05 : 1.0 / 60;
        if (f == 12 || f == 26) /* the culled items swap views: off screen ones come back, others leave */
            for (int i = 0; i < N; i++)
                if (big->items[i].view) {
                    const float *v = big->items[i].view == g_views[0] ? g_views[1] : g_views[0];
                    big->items[i].view = one->items[i].view = v;
                }
        update_big(big, count, dt, pool, opt);
        for (int i = 0; i < count; i++) mf_batch_update(&one->items[i], 1, dt, NULL, NULL); /* one at a time */
        assert_same(big, one, f);
        for (int i = 0; i < count; i++) culled += big->state[i].culled, drawn += big->draw[i]->item_count > 0;
    }
    assert_int_equal(g_allocs, allocs);
    assert_true(culled > 0), assert_true(drawn > 0); /* both paths were taken */
    mf_thread_pool_destroy(pool);
    side_free(big), side_free(one);
    free(big), free(one);
    mf_tracks_shared_destroy(shared);
    test_rig_free(&r);
    *culled_out = culled, *drawn_out = drawn;
}

/* The host's threshold: hints forced on a batch far below the default, and off on a large one;
 * both give what the items give one at a time (the hints only ask for lines) */
static void test_prefetch_options(void **state)
{
    (void)state;
    int culled, drawn;
    run_agree(300, &(mf_batch_options){.prefetch_min = 1}, &culled, &drawn);
    run_agree(N, &(mf_batch_options){.prefetch_min = -1}, &culled, &drawn);
    run_agree(N, &(mf_batch_options){0}, &culled, &drawn); /* zeroed: the default */
    printf("prefetch options: forced on 300 items, off and default on %d, the same as one at a time\n", N);
}

static void test_large_batch_agrees(void **state)
{
    (void)state;
    int culled, drawn;
    run_agree(N, NULL, &culled, &drawn);
    printf("large batch: %d items, 40 frames, %d culled and %d drawn item-frames, the same as one at a time\n", N,
           culled, drawn);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_large_batch_agrees), cmocka_unit_test(test_prefetch_options)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
