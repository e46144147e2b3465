/* A draw list is sized from the data it was created for: building it with a pose of another
 * rig (here one with a far larger clipped mesh, which the list's clipping scratch could not
 * hold) writes nothing and says so, and a draw batch refuses a list of other data. A copy of
 * the data's view (the same loaded blob) is the same data. Run it under ASan too. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "pose_rig.h"
#include "mf/mf_batch.h"
#include "mf/mf_draw_batch.h"
#include "mf/mf_geometry.h"
#include "mf/mf_pose.h"

enum { SMALL_SLOTS = 10, BIG_VERTS = 300 };

static void cat(char *buf, size_t cap, const char *fmt, ...)
{
    size_t len = strlen(buf);
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf + len, cap - len, fmt, ap);
    va_end(ap);
    assert_true(n >= 0 && (size_t)n < cap - len);
}

/* An octagonal clip over SMALL_SLOTS regions (4 vertices each): room for many clipped
 * vertices, attachments of at most 8 vertices. */
static char *small_rig(void)
{
    size_t cap = 8192;
    char *b = calloc(1, cap);
    assert_non_null(b);
    cat(b, cap, "%s\"bones\":[{\"name\":\"root\"}],\"slots\":[{\"name\":\"clip\",\"bone\":\"root\",\"attachment\":\"c\"}",
        RIG_HEAD);
    for (int i = 0; i < SMALL_SLOTS; i++) cat(b, cap, ",{\"name\":\"s%d\",\"bone\":\"root\",\"attachment\":\"r\"}", i);
    cat(b, cap, "],\"skins\":[{\"name\":\"default\",\"attachments\":[{\"slot\":\"clip\",\"name\":\"c\",\"type\":\"Clipping\","
                "\"vertices\":[0,-10,7,-7,10,0,7,7,0,10,-7,7,-10,0,-7,-7]}");
    for (int i = 0; i < SMALL_SLOTS; i++)
        cat(b, cap, ",{\"slot\":\"s%d\",\"name\":\"r\",\"type\":\"Region\",\"x\":%d,\"width\":12,\"height\":12}", i, i);
    cat(b, cap, "]}]}");
    return b;
}

/* A square clip over one mesh of BIG_VERTS vertices on a circle (a triangle fan). */
static char *big_rig(void)
{
    size_t cap = 65536;
    char *b = calloc(1, cap);
    assert_non_null(b);
    cat(b, cap, "%s\"bones\":[{\"name\":\"root\"}],\"slots\":[{\"name\":\"clip\",\"bone\":\"root\",\"attachment\":\"c\"},"
                "{\"name\":\"m\",\"bone\":\"root\",\"attachment\":\"m\"}],\"skins\":[{\"name\":\"default\",\"attachments\":["
                "{\"slot\":\"clip\",\"name\":\"c\",\"type\":\"Clipping\",\"vertices\":[-5,-5,5,-5,5,5,-5,5]},"
                "{\"slot\":\"m\",\"name\":\"m\",\"type\":\"Mesh\",\"hull\":%d,\"vertices\":[",
        RIG_HEAD, BIG_VERTS);
    /* integer points on a 16-gon-ish ring, repeated around: exact and convex enough */
    static const int ring[16][2] = {{20, 0},  {18, 8},   {14, 14},  {8, 18},   {0, 20},  {-8, 18},
                                    {-14, 14}, {-18, 8}, {-20, 0}, {-18, -8}, {-14, -14}, {-8, -18},
                                    {0, -20}, {8, -18},  {14, -14}, {18, -8}};
    for (int i = 0; i < BIG_VERTS; i++) cat(b, cap, "%s%d,%d", i ? "," : "", ring[i % 16][0], ring[i % 16][1]);
    cat(b, cap, "],\"uvs\":[");
    for (int i = 0; i < BIG_VERTS; i++) cat(b, cap, "%s%.3f,0.5", i ? "," : "", i / (double)BIG_VERTS);
    cat(b, cap, "],\"triangles\":[");
    for (int i = 1; i + 1 < BIG_VERTS; i++) cat(b, cap, "%s0,%d,%d", i > 1 ? "," : "", i, i + 1);
    cat(b, cap, "]}]}]}");
    return b;
}

typedef struct rig {
    test_rig r;
    mf_pose *pose;
    mf_draw_list *dl;
} rig;

static void rig_make(rig *g, char *text)
{
    test_rig_build(&g->r, text, NULL, NULL, 0);
    free(text);
    assert_int_equal(mf_pose_create(&g->r.data, NULL, &g->pose, NULL), MF_OK);
    assert_int_equal(mf_draw_list_create(&g->r.data, NULL, &g->dl), MF_OK);
    mf_pose_update_world(g->pose);
}

static void rig_free(rig *g)
{
    mf_draw_list_destroy(g->dl);
    mf_pose_destroy(g->pose);
    test_rig_free(&g->r);
}

static void test_build_other_data(void **state)
{
    (void)state;
    rig small, big;
    rig_make(&small, small_rig());
    rig_make(&big, big_rig());
    /* the list's capacity filled with one byte value (create leaves it unwritten): the refused
     * build below is checked to write nothing anywhere in it, comparing defined bytes */
    mf_allocator filled = tu_filling_allocator();
    mf_draw_list_destroy(small.dl);
    assert_int_equal(mf_draw_list_create(&small.r.data, &filled, &small.dl), MF_OK);
    mf_draw_list *dl = small.dl;
    assert_true(dl->data && dl->data->bytes == small.r.data.bytes && dl->data->size == small.r.data.size);
    /* the big mesh alone has more vertices than the small list's clipping scratch holds */
    assert_true(BIG_VERTS > 8 && BIG_VERTS < dl->vertex_cap);
    assert_int_equal(mf_draw_list_build(dl, small.pose), MF_OK);
    assert_int_equal(dl->item_count, SMALL_SLOTS);
    assert_true(dl->items[0].clipped);
    /* the big rig's own list clips its mesh */
    assert_int_equal(mf_draw_list_build(big.dl, big.pose), MF_OK);
    assert_int_equal(big.dl->item_count, 1);
    assert_true(big.dl->items[0].clipped && big.dl->items[0].index_count > 0);

    /* a pose of the big rig: refused, the list emptied, its buffers as they were */
    size_t vbytes = (size_t)dl->vertex_cap * 2 * sizeof(float), ibytes = (size_t)dl->index_cap * sizeof(uint16_t);
    float *v = malloc(vbytes), *uv = malloc(vbytes);
    uint16_t *ix = malloc(ibytes);
    assert_true(v && uv && ix);
    memcpy(v, dl->vertices, vbytes), memcpy(uv, dl->uvs, vbytes), memcpy(ix, dl->indices, ibytes);
    assert_int_equal(mf_draw_list_build(dl, big.pose), MF_ERR_ARGUMENT);
    assert_int_equal(dl->item_count, 0);
    assert_int_equal(dl->vertex_count, 0);
    assert_int_equal(dl->index_count, 0);
    assert_int_equal(dl->items_kept, 0);
    assert_int_equal(dl->overflow, 0);
    assert_memory_equal(dl->vertices, v, vbytes);
    assert_memory_equal(dl->uvs, uv, vbytes);
    assert_memory_equal(dl->indices, ix, ibytes);
    /* and the other way round: the big list with the small rig's pose */
    assert_int_equal(mf_draw_list_build(big.dl, small.pose), MF_ERR_ARGUMENT);
    assert_int_equal(big.dl->item_count, 0);
    /* no pose, no list */
    assert_int_equal(mf_draw_list_build(dl, NULL), MF_ERR_ARGUMENT);
    assert_int_equal(dl->item_count, 0);
    assert_int_equal(mf_draw_list_build(NULL, small.pose), MF_ERR_ARGUMENT);

    /* its own rig again: the full list, as the first build */
    assert_int_equal(mf_draw_list_build(dl, small.pose), MF_OK);
    assert_int_equal(dl->item_count, SMALL_SLOTS);
    assert_memory_equal(dl->vertices, v, (size_t)dl->vertex_count * 2 * sizeof(float));
    /* a pose of a copy of the view (the same blob) is of the same data */
    mf_skel_data copy = small.r.data;
    mf_pose *p2 = NULL;
    assert_int_equal(mf_pose_create(&copy, NULL, &p2, NULL), MF_OK);
    mf_pose_update_world(p2);
    assert_int_equal(mf_draw_list_build(dl, p2), MF_OK);
    assert_int_equal(dl->item_count, SMALL_SLOTS);
    assert_memory_equal(dl->vertices, v, (size_t)dl->vertex_count * 2 * sizeof(float));
    mf_pose_destroy(p2);
    free(v), free(uv), free(ix);
    rig_free(&small);
    rig_free(&big);
}

static void test_batch_other_data(void **state)
{
    (void)state;
    rig small, big;
    rig_make(&small, small_rig());
    rig_make(&big, big_rig());
    assert_int_equal(mf_draw_list_build(small.dl, small.pose), MF_OK);
    assert_int_equal(mf_draw_list_build(big.dl, big.pose), MF_OK);
    mf_draw_batch *b = NULL;
    assert_int_equal(mf_draw_batch_create(NULL, &b), MF_OK);
    mf_draw_batch_begin(b);
    assert_int_equal(mf_draw_batch_add(b, small.dl, &small.r.data, NULL), MF_OK);
    int32_t v0 = b->vertex_count, i0 = b->index_count, c0 = b->call_count;
    assert_true(v0 > 0 && i0 > 0);
    /* each list with the other rig's data: refused, nothing added, not an overflow */
    assert_int_equal(mf_draw_batch_add(b, small.dl, &big.r.data, NULL), MF_ERR_ARGUMENT);
    assert_int_equal(mf_draw_batch_add(b, big.dl, &small.r.data, NULL), MF_ERR_ARGUMENT);
    assert_int_equal(b->vertex_count, v0);
    assert_int_equal(b->index_count, i0);
    assert_int_equal(b->call_count, c0);
    assert_int_equal(b->skeletons, 1);
    assert_int_equal(b->overflow, 0);
    /* each with its own data, or a copy of its view */
    mf_skel_data copy = big.r.data;
    assert_int_equal(mf_draw_batch_add(b, big.dl, &copy, NULL), MF_OK);
    assert_int_equal(mf_draw_batch_add(b, small.dl, &small.r.data, NULL), MF_OK);
    assert_int_equal(b->skeletons, 3);
    mf_draw_batch_destroy(b);
    rig_free(&small);
    rig_free(&big);
}

/* The view passed to mf_draw_list_create need not outlive the list (only the blob must, as for
 * a pose): a host that creates its list from a temporary view and reuses that variable for the
 * next rig still builds and batches the list with a pose of (a copy of) the first view. */
static void test_view_not_kept(void **state)
{
    (void)state;
    rig small, big;
    rig_make(&small, small_rig());
    rig_make(&big, big_rig());
    mf_skel_data *tmp = malloc(sizeof *tmp);
    assert_non_null(tmp);
    *tmp = small.r.data;
    mf_draw_list *dl = NULL;
    assert_int_equal(mf_draw_list_create(tmp, NULL, &dl), MF_OK);
    *tmp = big.r.data; /* the variable reused for another rig's view */
    assert_int_equal(mf_draw_list_build(dl, small.pose), MF_OK);
    assert_int_equal(dl->item_count, SMALL_SLOTS);
    assert_int_equal(mf_draw_list_build(dl, big.pose), MF_ERR_ARGUMENT);
    assert_int_equal(mf_draw_list_build(dl, small.pose), MF_OK);
    memset(tmp, 0xff, sizeof *tmp); /* and then gone (ASan: freed) */
    free(tmp);
    assert_int_equal(mf_draw_list_build(dl, small.pose), MF_OK);
    assert_int_equal(dl->item_count, SMALL_SLOTS);
    mf_draw_batch *b = NULL;
    assert_int_equal(mf_draw_batch_create(NULL, &b), MF_OK);
    mf_draw_batch_begin(b);
    assert_int_equal(mf_draw_batch_add(b, dl, &small.r.data, NULL), MF_OK);
    assert_int_equal(mf_draw_batch_add(b, dl, &big.r.data, NULL), MF_ERR_ARGUMENT);
    assert_int_equal(b->skeletons, 1);
    mf_draw_batch_destroy(b);
    mf_draw_list_destroy(dl);
    /* a view not from the loader (no bytes) is the data by its address, as before */
    mf_skel_data hand = small.r.data;
    hand.bytes = NULL, hand.size = 0;
    mf_pose *hp = NULL;
    assert_int_equal(mf_pose_create(&hand, NULL, &hp, NULL), MF_OK);
    assert_int_equal(mf_draw_list_create(&hand, NULL, &dl), MF_OK);
    mf_pose_update_world(hp);
    assert_int_equal(mf_draw_list_build(dl, hp), MF_OK);
    assert_int_equal(dl->item_count, SMALL_SLOTS);
    assert_int_equal(mf_draw_list_build(dl, small.pose), MF_ERR_ARGUMENT);
    mf_draw_list_destroy(dl);
    mf_pose_destroy(hp);
    rig_free(&small);
    rig_free(&big);
}

/* mf_batch_update builds each item's draw list: one of other data than its pose's is left empty
 * (nothing written past it), the others built as usual. */
static void test_batch_update_other_data(void **state)
{
    (void)state;
    rig small, big;
    rig_make(&small, small_rig());
    rig_make(&big, big_rig());
    mf_batch_item items[2] = {{.pose = small.pose, .draw = big.dl}, {.pose = small.pose, .draw = small.dl}};
    mf_batch_update(items, 2, 1.0 / 60, NULL, NULL);
    assert_int_equal(big.dl->item_count, 0);
    assert_int_equal(big.dl->vertex_count, 0);
    assert_int_equal(small.dl->item_count, SMALL_SLOTS);
    rig_free(&small);
    rig_free(&big);
}

/* Blocks filled with one byte value before the list gets them (an allocator handing out
 * reused memory): a list of clipping's worst-case capacity clears only its struct, view and
 * items at create, so that pages nothing writes are never committed. */
static void test_capacity_left_unwritten(void **state)
{
    (void)state;
    rig big;
    rig_make(&big, big_rig());
    mf_allocator al = tu_filling_allocator();
    mf_draw_list *dl = NULL;
    assert_int_equal(mf_draw_list_create(&big.r.data, &al, &dl), MF_OK);
    assert_int_equal(dl->item_count, 0);
    assert_int_equal(dl->overflow, 0);
    /* create wrote none of the vertex, uv or index capacity (clipping's worst case: the
     * mesh's triangles each cut into as many points as the square allows) */
    size_t vbytes = (size_t)dl->vertex_cap * 2 * sizeof(float);
    assert_true(dl->vertex_cap > 2 * BIG_VERTS);
    assert_true(tu_all_fill(dl->vertices, vbytes));
    assert_true(tu_all_fill(dl->uvs, vbytes));
    assert_true(tu_all_fill(dl->indices, (size_t)dl->index_cap * sizeof(uint16_t)));
    /* and builds what the zeroed list builds, twice (the second keeps nothing: clipped) */
    for (int round = 0; round < 2; round++) {
        assert_int_equal(mf_draw_list_build(dl, big.pose), MF_OK);
        assert_int_equal(mf_draw_list_build(big.dl, big.pose), MF_OK);
        assert_int_equal(dl->item_count, 1);
        assert_int_equal(dl->vertex_count, big.dl->vertex_count);
        assert_int_equal(dl->index_count, big.dl->index_count);
        assert_int_equal(dl->items_kept, big.dl->items_kept);
        assert_true(dl->vertex_count > 0 && dl->vertex_count < dl->vertex_cap);
        size_t used = (size_t)dl->vertex_count * 2 * sizeof(float);
        assert_memory_equal(dl->vertices, big.dl->vertices, used);
        assert_memory_equal(dl->uvs, big.dl->uvs, used);
        assert_memory_equal(dl->indices, big.dl->indices, (size_t)dl->index_count * sizeof(uint16_t));
        assert_memory_equal(&dl->items[0], &big.dl->items[0], sizeof dl->items[0]);
        /* past what the build wrote the capacity is still untouched */
        assert_true(tu_all_fill(dl->vertices + 2 * dl->vertex_count, vbytes - used));
    }
    mf_draw_list_destroy(dl);
    rig_free(&big);
}

/* The batch of a built list (identity transform), for comparing lists. */
static void batch_of(mf_draw_batch *b, const mf_draw_list *dl, const mf_skel_data *d)
{
    mf_draw_batch_begin(b);
    assert_int_equal(mf_draw_batch_add(b, dl, d, NULL), MF_OK);
}

/* A list created from a filling allocator builds and batches what a zeroed one does through
 * every path that reads what an earlier build wrote or the clipping scratch: clipped items,
 * unclipped ones (their uvs and indices written, then kept by the next build), a clip polygon
 * of no area (no convex pieces: not clipping) and the clip back again. */
static void test_filled_list_builds_as_zeroed(void **state)
{
    (void)state;
    rig small;
    rig_make(&small, small_rig());
    mf_allocator filled = tu_filling_allocator();
    mf_draw_list *lf = NULL, *lz = small.dl;
    assert_int_equal(mf_draw_list_create(&small.r.data, &filled, &lf), MF_OK);
    mf_draw_batch *bf = NULL, *bz = NULL;
    assert_int_equal(mf_draw_batch_create(NULL, &bf), MF_OK);
    assert_int_equal(mf_draw_batch_create(NULL, &bz), MF_OK);
    mf_pose *p = small.pose;
    int32_t clip_att = p->attachment[0];
    assert_true(clip_att >= 0);
    /* clipped, clip hidden (written), hidden (kept), clip of no area, clipped, hidden (written) */
    enum { CLIPPED, HIDDEN, FLAT };
    static const int steps[] = {CLIPPED, HIDDEN, HIDDEN, FLAT, FLAT, CLIPPED, HIDDEN};
    int kept_builds = 0;
    for (size_t k = 0; k < sizeof steps / sizeof steps[0]; k++) {
        mf_pose_reset(p);
        if (steps[k] == HIDDEN) p->attachment[0] = -1;
        if (steps[k] == FLAT) p->sy[0] = 0; /* the clip polygon (and every region) on a line */
        mf_pose_update_world(p);
        assert_int_equal(mf_draw_list_build(lf, p), MF_OK);
        assert_int_equal(mf_draw_list_build(lz, p), MF_OK);
        assert_int_equal(lf->item_count, SMALL_SLOTS);
        assert_int_equal(lf->vertex_count, lz->vertex_count);
        assert_int_equal(lf->index_count, lz->index_count);
        assert_int_equal(lf->items_kept, lz->items_kept);
        assert_int_equal(lf->overflow, lz->overflow);
        assert_memory_equal(lf->items, lz->items, (size_t)lf->item_count * sizeof lf->items[0]);
        size_t used = (size_t)lf->vertex_count * 2 * sizeof(float);
        assert_memory_equal(lf->vertices, lz->vertices, used);
        assert_memory_equal(lf->uvs, lz->uvs, used);
        assert_memory_equal(lf->indices, lz->indices, (size_t)lf->index_count * sizeof(uint16_t));
        assert_int_equal(lf->items[0].clipped, steps[k] == CLIPPED);
        kept_builds += lf->items_kept == SMALL_SLOTS;
        batch_of(bf, lf, &small.r.data);
        batch_of(bz, lz, &small.r.data);
        assert_int_equal(bf->vertex_count, bz->vertex_count);
        assert_int_equal(bf->index_count, bz->index_count);
        assert_true(bf->vertex_count > 0);
        assert_memory_equal(bf->vertices, bz->vertices, (size_t)bf->vertex_count * sizeof bf->vertices[0]);
        if (bf->indices16) assert_memory_equal(bf->indices16, bz->indices16, (size_t)bf->index_count * 2);
        else assert_memory_equal(bf->indices, bz->indices, (size_t)bf->index_count * 4);
    }
    assert_true(kept_builds >= 2); /* the second hidden and flat builds kept every item */
    mf_draw_batch_destroy(bf);
    mf_draw_batch_destroy(bz);
    mf_draw_list_destroy(lf);
    rig_free(&small);
}

/* What a build writes without clipping, beside the caps with clipping's worst case: the small
 * rig's regions (4 vertices, 6 indices each) and the big rig's mesh. A build that clips nothing
 * (the clip hidden) writes exactly that. */
static void test_unclipped_need(void **state)
{
    (void)state;
    rig small, big;
    rig_make(&small, small_rig());
    rig_make(&big, big_rig());
    assert_int_equal(small.dl->vertex_unclipped, 4 * SMALL_SLOTS);
    assert_int_equal(small.dl->index_unclipped, 6 * SMALL_SLOTS);
    assert_int_equal(big.dl->vertex_unclipped, BIG_VERTS);
    assert_int_equal(big.dl->index_unclipped, 3 * (BIG_VERTS - 2));
    assert_true(small.dl->vertex_cap > small.dl->vertex_unclipped && big.dl->index_cap > big.dl->index_unclipped);
    small.pose->attachment[0] = -1; /* the clip off: every region drawn as it is */
    assert_int_equal(mf_draw_list_build(small.dl, small.pose), MF_OK);
    assert_int_equal(small.dl->vertex_count, small.dl->vertex_unclipped);
    assert_int_equal(small.dl->index_count, small.dl->index_unclipped);
    rig_free(&small), rig_free(&big);
}

/* A rig of MANY_SLOTS slots (three blocks of the sizing pass) whose attachments are listed from
 * the last slot to the first: a region in each, a five-point mesh in every seventh, a six-point
 * clip in slot CLIP_SLOT (past the first block). The caps count every slot's largest. */
enum { MANY_SLOTS = 600, CLIP_SLOT = 300 };

static char *many_slots_rig(void)
{
    size_t cap = 262144;
    char *b = calloc(1, cap);
    assert_non_null(b);
    cat(b, cap, "%s\"bones\":[{\"name\":\"root\"}],\"slots\":[", RIG_HEAD);
    for (int i = 0; i < MANY_SLOTS; i++) cat(b, cap, "%s{\"name\":\"s%d\",\"bone\":\"root\",\"attachment\":\"r\"}", i ? "," : "", i);
    cat(b, cap, "],\"skins\":[{\"name\":\"default\",\"attachments\":[");
    for (int i = MANY_SLOTS - 1; i >= 0; i--) {
        cat(b, cap, "{\"slot\":\"s%d\",\"name\":\"r\",\"type\":\"Region\",\"width\":4,\"height\":4},", i);
        if (i % 7 == 0)
            cat(b, cap, "{\"slot\":\"s%d\",\"name\":\"m\",\"type\":\"Mesh\",\"hull\":5,\"vertices\":[0,0,4,0,5,3,2,5,-1,3],"
                        "\"uvs\":[0,0,1,0,1,0.6,0.4,1,0,0.6],\"triangles\":[0,1,2,0,2,3,0,3,4]},", i);
        if (i == CLIP_SLOT)
            cat(b, cap, "{\"slot\":\"s%d\",\"name\":\"c\",\"type\":\"Clipping\",\"end\":\"s%d\","
                        "\"vertices\":[0,-10,9,-5,9,5,0,10,-9,5,-9,-5]},", i, i + 1);
    }
    b[strlen(b) - 1] = 0; /* the last comma */
    cat(b, cap, "]}]}");
    return b;
}

static void test_many_slots_sized(void **state)
{
    (void)state;
    rig g;
    rig_make(&g, many_slots_rig());
    int32_t meshes = (MANY_SLOTS + 6) / 7, regions = MANY_SLOTS - meshes;
    int32_t verts = 4 * regions + 5 * meshes, idx = 6 * regions + 9 * meshes, tris = 2 * regions + 3 * meshes;
    assert_int_equal(mf_skel_data_world_vertex_cap(&g.r.data), verts);
    assert_int_equal(g.dl->vertex_unclipped, verts);
    assert_int_equal(g.dl->index_unclipped, idx);
    /* the clip's six points (mf_draw_list_create's bound: 6m - 12 points a triangle) */
    assert_int_equal(g.dl->vertex_cap, verts + tris * (6 * 6 - 12));
    assert_int_equal(g.dl->index_cap, idx + tris * (12 * 6 - 24));
    assert_int_equal(mf_draw_list_build(g.dl, g.pose), MF_OK);
    assert_int_equal(g.dl->item_count, MANY_SLOTS);
    rig_free(&g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_build_other_data),
        cmocka_unit_test(test_batch_other_data),
        cmocka_unit_test(test_view_not_kept),
        cmocka_unit_test(test_capacity_left_unwritten),
        cmocka_unit_test(test_filled_list_builds_as_zeroed),
        cmocka_unit_test(test_batch_update_other_data),
        cmocka_unit_test(test_unclipped_need),
        cmocka_unit_test(test_many_slots_sized),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
