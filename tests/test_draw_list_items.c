/* mf_draw_list_build_items lists what mf_draw_list_build lists (every item field, counts, uvs,
 * indices, clipped items with their clipped geometry, items_kept) and leaves the vertices of
 * unclipped items as they were; builds of both kinds alternate on one list and give what fresh
 * builds give (an item kept from a build_items gets its vertices from the next build).
 * mf_pose_palette gives each bone's world 2x3, the matrices world vertices are skinned with.
 * Rigs: an in-memory one with a clipping range switched on and off, a weighted and an
 * unweighted mesh with deform keys, a sequence and a draw order key; the mannequin's clips; and
 * the Spine corpus rigs with clipping (spineboy, coin), deform (spineboy, alien) and sequences
 * (dragon) when ../shared is present (skipped with a message when not). Run it under ASan too. */
#define _POSIX_C_SOURCE 200809L
#include "testutil.h"
#include "corpus_build.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "pose_rig.h"
#include "mf/mf_build.h"
#include "mf/mf_draw_batch.h"
#include "mf/mf_geometry.h"
#include "mf/mf_pose.h"
#include "mf/mf_tracks.h"

/* back, clip (to m2), m1 (weighted, deformed), seq (a sequence of 4), m2 (deformed), front
 * (clipped), f2 (after the range; drawn second from 0.6 s); the clip is off from 0.4 to 0.7 s */
static const char *SYN_RIG = RIG_HEAD
    "\"bones\":[{\"name\":\"root\"},{\"name\":\"arm\",\"parent\":\"root\",\"x\":10,\"length\":30},"
    "{\"name\":\"tip\",\"parent\":\"arm\",\"x\":30}],"
    "\"slots\":[{\"name\":\"back\",\"bone\":\"root\",\"attachment\":\"back\"},"
    "{\"name\":\"clip\",\"bone\":\"root\",\"attachment\":\"c\"},"
    "{\"name\":\"m1\",\"bone\":\"arm\",\"attachment\":\"m1\",\"color\":\"#ff804080\"},"
    "{\"name\":\"seq\",\"bone\":\"arm\",\"attachment\":\"s\"},"
    "{\"name\":\"m2\",\"bone\":\"tip\",\"attachment\":\"m2\",\"blend\":\"Additive\",\"dark\":\"#102030\"},"
    "{\"name\":\"front\",\"bone\":\"tip\",\"attachment\":\"front\"},"
    "{\"name\":\"f2\",\"bone\":\"root\",\"attachment\":\"f2\"}],"
    "\"skins\":[{\"name\":\"default\",\"attachments\":["
    "{\"slot\":\"back\",\"name\":\"back\",\"type\":\"Region\",\"width\":20,\"height\":20},"
    "{\"slot\":\"clip\",\"name\":\"c\",\"type\":\"Clipping\",\"end\":\"m2\","
    "\"vertices\":[40,0,30,20,10,28,-8,18,-14,0,-8,-18,10,-28,30,-20]},"
    "{\"slot\":\"m1\",\"name\":\"m1\",\"type\":\"Mesh\",\"hull\":4,\"uvs\":[0,0,1,0,1,1,0,1],"
    "\"triangles\":[0,1,2,0,2,3],\"weights\":{\"bones\":[\"arm\",\"tip\"],\"v\":["
    "[0,1,0,-6],[0,0.5,30,-6,1,0.5,0,-6],[0,0.5,30,6,1,0.5,0,6],[0,1,0,6]]}},"
    "{\"slot\":\"seq\",\"name\":\"s\",\"type\":\"Region\",\"x\":15,\"width\":10,\"height\":10,"
    "\"sequence\":{\"count\":4,\"start\":1,\"digits\":1}},"
    "{\"slot\":\"m2\",\"name\":\"m2\",\"type\":\"Mesh\",\"hull\":4,\"uvs\":[0,0,1,0,1,1,0,1],"
    "\"triangles\":[0,1,2,0,2,3],\"vertices\":[0,-5,20,-5,20,5,0,5]},"
    "{\"slot\":\"front\",\"name\":\"front\",\"type\":\"Region\",\"x\":10,\"rot\":20,\"width\":8,\"height\":8},"
    "{\"slot\":\"f2\",\"name\":\"f2\",\"type\":\"Region\",\"y\":30,\"width\":12,\"height\":12}"
    "]}]}";

static const char *SYN_CLIP = CLIP_HEAD "\"length\":1,\"fps\":30,\"loop\":\"Linear\","
    "\"bones\":{\"arm\":{\"rotate\":{\"t\":[0,0.5,1],\"v\":[0,60,0]}},\"tip\":{\"rotate\":{\"t\":[0,1],\"v\":[0,-90]}}},"
    "\"slots\":{\"clip\":{\"attachment\":{\"t\":[0,0.4,0.7],\"v\":[\"c\",null,\"c\"]}},"
    "\"seq\":{\"sequence\":{\"t\":[0],\"v\":[{\"mode\":\"loop\",\"delay\":0.1}]}}},"
    "\"deform\":{\"default\":{\"m1\":{\"m1\":{\"t\":[0,0.5],\"offset\":[0,0],"
    "\"v\":[[0,0,0,0,0,0,0,0,0,0,0,0],[1,2,3,-4,0,0,3,4,0,0,-1,2]]}},"
    "\"m2\":{\"m2\":{\"t\":[0,1],\"offset\":[0,2],\"v\":[[0,0],[5,-3,6,7]]}}}},"
    "\"drawOrder\":{\"t\":[0,0.6],\"v\":[[],[[\"f2\",-5]]]}}";

/* ---------------------------------------------------------------- lists compared */

typedef struct lists {
    const mf_skel_data *d;
    mf_draw_list *steady; /* mf_draw_list_build every frame */
    mf_draw_list *items;  /* mf_draw_list_build_items every frame (capacity filled at create) */
    mf_draw_list *alt;    /* both kinds by a pattern (capacity filled at create) */
    float *snap;          /* a list's vertices before a build_items */
    /* what the rig exercised: frames, build_items, clipped items, items kept by a build after a
     * build_items, items of a sequence frame other than the first, items of deformed meshes */
    int frames, item_builds, clipped_items, kept_after_items, seq_frames, deformed;
    float *palette;
} lists;

static void lists_make(lists *L, const mf_skel_data *d)
{
    memset(L, 0, sizeof *L);
    L->d = d;
    mf_allocator filled = tu_filling_allocator();
    assert_int_equal(mf_draw_list_create(d, NULL, &L->steady), MF_OK);
    assert_int_equal(mf_draw_list_create(d, &filled, &L->items), MF_OK);
    assert_int_equal(mf_draw_list_create(d, &filled, &L->alt), MF_OK);
    L->snap = malloc((size_t)L->items->vertex_cap * 2 * sizeof(float) + 1);
    L->palette = malloc(((size_t)d->bone_count * 6 + 16) * sizeof(float));
    assert_true(L->snap && L->palette);
}

static void lists_free(lists *L)
{
    mf_draw_list_destroy(L->steady);
    mf_draw_list_destroy(L->items);
    mf_draw_list_destroy(L->alt);
    free(L->snap);
    free(L->palette);
}

static void item_equal(const mf_draw_item *a, const mf_draw_item *b, int32_t k)
{
    if (a->slot != b->slot || a->attachment != b->attachment || a->image != b->image || a->blend != b->blend ||
        a->has_dark != b->has_dark || a->clipped != b->clipped || memcmp(a->light, b->light, sizeof a->light) ||
        memcmp(a->dark, b->dark, sizeof a->dark) || a->vertex_first != b->vertex_first ||
        a->vertex_count != b->vertex_count || a->index_first != b->index_first || a->index_count != b->index_count ||
        a->uv_set != b->uv_set)
        fail_msg("item %d differs: slot %d/%d attachment %d/%d image %d/%d clipped %d/%d vertices %d+%d/%d+%d", (int)k,
                 (int)a->slot, (int)b->slot, (int)a->attachment, (int)b->attachment, (int)a->image, (int)b->image,
                 a->clipped, b->clipped, (int)a->vertex_first, (int)a->vertex_count, (int)b->vertex_first,
                 (int)b->vertex_count);
}

/* Everything but the vertices (and items_kept: a fresh list keeps nothing). */
static void same_items(const mf_draw_list *l, const mf_draw_list *ref)
{
    assert_int_equal(l->item_count, ref->item_count);
    assert_int_equal(l->vertex_count, ref->vertex_count);
    assert_int_equal(l->index_count, ref->index_count);
    assert_int_equal(l->overflow, ref->overflow);
    for (int32_t k = 0; k < ref->item_count; k++) item_equal(&l->items[k], &ref->items[k], k);
    assert_memory_equal(l->uvs, ref->uvs, (size_t)ref->vertex_count * 2 * sizeof(float));
    if (ref->index_count > 0)
        assert_memory_equal(l->indices, ref->indices, (size_t)ref->index_count * sizeof(uint16_t));
}

static void same_list(const mf_draw_list *l, const mf_draw_list *ref)
{
    same_items(l, ref);
    assert_memory_equal(l->vertices, ref->vertices, (size_t)ref->vertex_count * 2 * sizeof(float));
}

/* A build_items on l: the items as ref's; clipped items' vertices as ref's; every other vertex
 * of the capacity as before (snap). */
static void items_build_checked(lists *L, mf_draw_list *l, const mf_pose *p, const mf_draw_list *ref)
{
    size_t cap = (size_t)l->vertex_cap * 2;
    memcpy(L->snap, l->vertices, cap * sizeof(float));
    assert_int_equal(mf_draw_list_build_items(l, p), MF_OK);
    same_items(l, ref);
    assert_int_equal(l->items_kept, L->steady->items_kept);
    int32_t covered = 0;
    for (int32_t k = 0; k < l->item_count; k++) {
        const mf_draw_item *it = &l->items[k];
        size_t first = 2 * (size_t)it->vertex_first, n = 2 * (size_t)it->vertex_count;
        assert_int_equal(it->vertex_first, covered);
        covered += it->vertex_count;
        if (it->clipped) {
            assert_memory_equal(l->vertices + first, ref->vertices + first, n * sizeof(float));
            L->clipped_items++;
        } else if (n > 0) {
            assert_memory_equal(l->vertices + first, L->snap + first, n * sizeof(float));
        }
    }
    size_t used = 2 * (size_t)l->vertex_count;
    assert_memory_equal(l->vertices + used, L->snap + used, (cap - used) * sizeof(float));
    L->item_builds++;
}

/* The palette against the pose's world arrays, nothing written past it, and an unweighted
 * region or mesh of each slot skinned with its bone's 6 floats as mf_pose_world_vertices. */
static void palette_checked(lists *L, const mf_pose *p)
{
    size_t n = (size_t)p->bone_count * 6;
    memset(L->palette, 0x5a, (n + 16) * sizeof(float));
    mf_pose_palette(p, L->palette);
    for (int32_t b = 0; b < p->bone_count; b++) {
        const float want[6] = {p->a[b], p->b[b], p->wx[b], p->c[b], p->d[b], p->wy[b]};
        assert_memory_equal(L->palette + 6 * (size_t)b, want, sizeof want);
    }
    unsigned char guard[16 * sizeof(float)];
    memset(guard, 0x5a, sizeof guard);
    assert_memory_equal(L->palette + n, guard, sizeof guard);
    const mf_skel_data *d = p->data;
    float out[2 * 64];
    for (int32_t s = 0; s < p->slot_count; s++) {
        int32_t att = p->attachment[s];
        if (att < 0) continue;
        const mf_sd_attachment *at = &d->attachments[att];
        bool deformed = p->deform_attachment[s] == att && at->type != MF_SD_ATT_REGION;
        if ((at->type != MF_SD_ATT_REGION && at->type != MF_SD_ATT_MESH) || (at->flags & MF_SD_ATT_WEIGHTED) ||
            deformed || at->vertex_count > 64)
            continue;
        int32_t nv = mf_pose_world_vertices(p, s, att, out, 64);
        assert_int_equal(nv, at->vertex_count);
        const float *m = L->palette + 6 * (size_t)d->slots[s].bone, *v = d->floats + at->vertex_first;
        for (int32_t i = 0; i < nv; i++) {
            float x = v[2 * i], y = v[2 * i + 1];
            float wx = (m[0] * x + m[1] * y) + m[2], wy = (m[3] * x + m[4] * y) + m[5];
            if (fabsf(wx - out[2 * i]) > 1e-4f * (1 + fabsf(wx)) || fabsf(wy - out[2 * i + 1]) > 1e-4f * (1 + fabsf(wy)))
                fail_msg("slot %d vertex %d: palette (%g, %g), world vertices (%g, %g)", (int)s, (int)i, (double)wx,
                         (double)wy, (double)out[2 * i], (double)out[2 * i + 1]);
        }
    }
}

/* One frame of a posed instance (world current): a fresh list built is the reference. */
static void frame_checked(lists *L, const mf_pose *p)
{
    mf_draw_list *ref = NULL;
    assert_int_equal(mf_draw_list_create(L->d, NULL, &ref), MF_OK);
    assert_int_equal(mf_draw_list_build(ref, p), MF_OK);
    assert_int_equal(ref->items_kept, 0);
    assert_int_equal(mf_draw_list_build(L->steady, p), MF_OK);
    same_list(L->steady, ref);
    for (int32_t k = 0; k < ref->item_count; k++) {
        const mf_draw_item *it = &ref->items[k];
        L->seq_frames += L->d->attachments[it->attachment].seq_count > 0 && it->image != L->d->attachments[it->attachment].image;
        L->deformed += p->deform_attachment[it->slot] == it->attachment;
    }
    if (L->frames == 0) {
        /* the first build_items of a list: unclipped items' vertices still the allocator's fill */
        assert_int_equal(mf_draw_list_build_items(L->items, p), MF_OK);
        same_items(L->items, ref);
        for (int32_t k = 0; k < L->items->item_count; k++) {
            const mf_draw_item *it = &L->items->items[k];
            if (!it->clipped)
                assert_true(tu_all_fill(L->items->vertices + 2 * it->vertex_first,
                                        (size_t)it->vertex_count * 2 * sizeof(float)));
        }
    } else {
        items_build_checked(L, L->items, p, ref);
    }
    /* the alternating list: runs of either kind, of one and of two */
    static const bool full[] = {false, true, false, false, true, true, false, true};
    bool prev_full = L->frames > 0 && full[(L->frames - 1) % 8];
    if (full[L->frames % 8]) {
        assert_int_equal(mf_draw_list_build(L->alt, p), MF_OK);
        same_list(L->alt, ref);
        assert_int_equal(L->alt->items_kept, L->steady->items_kept);
        if (!prev_full) L->kept_after_items += L->alt->items_kept;
    } else {
        items_build_checked(L, L->alt, p, ref);
    }
    palette_checked(L, p);
    mf_draw_list_destroy(ref);
    L->frames++;
}

/* Every clip of d (at most max_clips), frames frames each at 30 fps on one pose and tracks. */
static void play_clips(const char *name, const mf_skel_data *d, int max_clips, int frames, lists *L)
{
    mf_pose *p = NULL;
    mf_diag diag;
    assert_int_equal(mf_pose_create(d, NULL, &p, &diag), MF_OK);
    mf_pose_update_world(p);
    frame_checked(L, p); /* the setup pose */
    int clips = d->clip_count < max_clips ? d->clip_count : max_clips;
    for (int c = 0; c < clips; c++) {
        mf_tracks *t = NULL;
        assert_int_equal(mf_tracks_create(d, NULL, NULL, &t), MF_OK);
        assert_true(mf_tracks_set(t, 0, c, true).index >= 0);
        for (int f = 0; f < frames; f++) {
            mf_tracks_update(t, f ? 1.0 / 30 : 0);
            assert_int_equal(mf_tracks_apply(t, p), MF_OK);
            mf_pose_update_world(p);
            frame_checked(L, p);
        }
        mf_tracks_destroy(t);
    }
    printf("%-10s %2d clips, %3d frames: %3d build_items, clipped items %4d, kept into a build after a build_items "
           "%4d, of sequence frames %4d, deformed %4d\n",
           name, clips, L->frames, L->item_builds, L->clipped_items, L->kept_after_items, L->seq_frames, L->deformed);
    /* every rig here has items that stay: the kept path after a build_items ran */
    assert_true(L->kept_after_items > 0);
    mf_pose_destroy(p);
}

/* ---------------------------------------------------------------- rigs */

static void test_synthetic(void **state)
{
    (void)state;
    test_rig r;
    const char *names[1] = {"play"}, *clips[1] = {SYN_CLIP};
    test_rig_build(&r, SYN_RIG, names, clips, 1);
    lists L;
    lists_make(&L, &r.data);
    play_clips("synthetic", &r.data, 1, 75, &L);
    assert_true(L.clipped_items > 0 && L.seq_frames > 0 && L.deformed > 0);
    lists_free(&L);
    test_rig_free(&r);
}

static void test_mannequin(void **state)
{
    (void)state;
    mkdir(tu_tmp("man"), 0755);
    mf_build_options opt = {.no_cache = true};
    mf_diag diag;
    const char *out = tu_tmp("man/mannequin.mskb");
    mf_result res = mf_build_file_opt(tu_src("examples/mannequin/mannequin.mskel"), out, &opt, NULL, &diag);
    if (res != MF_OK) fail_msg("%s: %s: %s", diag.file, diag.where, diag.message);
    size_t size = 0;
    char *blob = tu_read(out, &size);
    assert_non_null(blob);
    mf_skel_data d;
    assert_int_equal(mf_skel_data_load(blob, size, &d, &diag), MF_OK);
    assert_true(d.clip_count >= 1);
    lists L;
    lists_make(&L, &d);
    play_clips("mannequin", &d, 4, 40, &L);
    lists_free(&L);
    free(blob);
}

/* A corpus rig converted and built in memory (no images: image uvs). */
enum { CLIPPING = 1, DEFORM = 2, SEQUENCE = 4 }; /* what a corpus rig must exercise */

static void corpus_rig(const char *rig, const char *file, int max_clips, int frames, int has)
{
    mf_skel_data d;
    void *blob = tu_corpus_build(rig, file, &d);
    if (!blob) return;
    lists L;
    lists_make(&L, &d);
    play_clips(rig, &d, max_clips, frames, &L);
    if (has & CLIPPING) assert_true(L.clipped_items > 0);
    if (has & DEFORM) assert_true(L.deformed > 0);
    if (has & SEQUENCE) assert_true(L.seq_frames > 0);
    lists_free(&L);
    free(blob);
}

static void test_corpus(void **state)
{
    (void)state;
    corpus_rig("spineboy", "spineboy-pro", 16, 30, CLIPPING | DEFORM);
    corpus_rig("coin", "coin-pro", 4, 40, CLIPPING);
    corpus_rig("dragon", "dragon-ess", 4, 40, SEQUENCE);
    corpus_rig("alien", "alien-pro", 8, 30, DEFORM);
}

/* ---------------------------------------------------------------- the rest */

static void test_palette_null_safe(void **state)
{
    (void)state;
    test_rig r;
    test_rig_build(&r, SYN_RIG, NULL, NULL, 0);
    mf_pose *p = NULL;
    assert_int_equal(mf_pose_create(&r.data, NULL, &p, NULL), MF_OK);
    mf_pose_update_world(p);
    float buf[6 * 3 + 4];
    memset(buf, 0x5a, sizeof buf);
    unsigned char untouched[sizeof buf];
    memcpy(untouched, buf, sizeof buf);
    mf_pose_palette(NULL, buf);
    assert_memory_equal(buf, untouched, sizeof buf);
    mf_pose_palette(p, NULL);
    assert_int_equal(p->bone_count, 3); /* 3 bones: the scalar tail alone; the rigs above the SIMD steps */
    mf_pose_palette(p, buf);
    assert_memory_equal(buf + 18, untouched + 18 * sizeof(float), 4 * sizeof(float));
    assert_true(buf[2] == p->wx[0] && buf[6 + 5] == p->wy[1] && buf[12] == p->a[2]);
    /* build_items refuses what build refuses, emptying the list */
    mf_draw_list *dl = NULL;
    assert_int_equal(mf_draw_list_create(&r.data, NULL, &dl), MF_OK);
    assert_int_equal(mf_draw_list_build_items(dl, p), MF_OK);
    assert_true(dl->item_count > 0);
    assert_int_equal(mf_draw_list_build_items(dl, NULL), MF_ERR_ARGUMENT);
    assert_int_equal(dl->item_count, 0);
    assert_int_equal(dl->vertex_count, 0);
    assert_int_equal(mf_draw_list_build_items(NULL, p), MF_ERR_ARGUMENT);
    mf_draw_list_destroy(dl);
    mf_pose_destroy(p);
    test_rig_free(&r);
}

/* The public colour packing and texture key are what a merged batch uses. */
static void test_pack_and_texture(void **state)
{
    (void)state;
    assert_int_equal(mf_draw_pack_color(1, 0.5f, 0, 1), 0xff0080ffu);
    assert_int_equal(mf_draw_pack_color(NAN, -1, 2, 0.2f), 0x33ff0000u);
    test_rig r;
    const char *names[1] = {"play"}, *clips[1] = {SYN_CLIP};
    test_rig_build(&r, SYN_RIG, names, clips, 1);
    mf_pose *p = NULL;
    mf_draw_list *dl = NULL;
    mf_draw_batch *b = NULL;
    assert_int_equal(mf_pose_create(&r.data, NULL, &p, NULL), MF_OK);
    assert_int_equal(mf_draw_list_create(&r.data, NULL, &dl), MF_OK);
    assert_int_equal(mf_draw_batch_create(NULL, &b), MF_OK);
    mf_pose_update_world(p);
    assert_int_equal(mf_draw_list_build(dl, p), MF_OK);
    mf_draw_batch_begin(b);
    assert_int_equal(mf_draw_batch_add(b, dl, &r.data, NULL), MF_OK);
    int32_t v = 0, call = -1;
    for (int32_t k = 0; k < dl->item_count; k++) {
        const mf_draw_item *it = &dl->items[k];
        if (it->index_count == 0) continue;
        int32_t page, img;
        mf_draw_texture_of(&r.data, it->image, &page, &img);
        assert_true(page == -1 && img == it->image); /* no atlas: images by themselves */
        while (call + 1 < b->call_count && b->calls[call + 1].vertex_first <= v) call++;
        assert_true(call >= 0);
        assert_int_equal(b->calls[call].page, page);
        assert_int_equal(b->calls[call].image, img);
        uint32_t light = mf_draw_pack_color(it->light[0], it->light[1], it->light[2], it->light[3]);
        uint32_t dark = it->has_dark ? mf_draw_pack_color(it->dark[0], it->dark[1], it->dark[2], 1) : 0;
        assert_int_equal(b->vertices[v].light, light);
        assert_int_equal(b->vertices[v].dark, dark);
        v += it->vertex_count;
    }
    assert_int_equal(v, b->vertex_count);
    int32_t page, img;
    mf_draw_texture_of(&r.data, -1, &page, &img);
    assert_true(page == -1 && img == -1);
    mf_draw_batch_destroy(b);
    mf_draw_list_destroy(dl);
    mf_pose_destroy(p);
    test_rig_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_synthetic),
        cmocka_unit_test(test_mannequin),
        cmocka_unit_test(test_corpus),
        cmocka_unit_test(test_palette_null_safe),
        cmocka_unit_test(test_pack_and_texture),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
