/* Draw lists merged across skeletons (mf_draw_batch.h): a generated rig on two atlas pages with
 * blends and a clipping range, and the mannequin. Batches break exactly where page or blend
 * change in draw order; the merged streams draw the same triangles (coordinates, uvs, colours,
 * page, blend) as the lists one by one, through each skeleton's transform; a list that does not
 * fit leaves the frame as it was; nothing allocates per frame. */
#define _POSIX_C_SOURCE 200809L
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "mf/mf_build.h"
#include "mf/mf_draw_batch.h"
#include "mf/mf_png.h"
#include "mf/mf_tracks.h"

/* Two 20x20 opaque images: padded to 24, two never share a 32 page. Draw order:
 *   a0 (a, Normal), clip (to "gone"), a1 (a, Normal, mesh, partly clipped),
 *   gone (b, Normal, clipped away: no triangles), a3 (a, Normal), b0 (b, Normal),
 *   b1 (b, Additive, dark), a2 (a, Normal)
 * runs: [a0 a1 gone a3] [b0] [b1] [a2], and a2 meets the next skeleton's a0. */
static const char *RIG =
    "{\"format\":1,\"uid\":\"skl_0000000d4a11\",\"type\":\"Skeleton\","
    "\"import\":{\"images\":\"images/\",\"pageSize\":32,\"padding\":2},"
    "\"bones\":[{\"name\":\"root\"},{\"name\":\"arm\",\"parent\":\"root\",\"x\":10,\"length\":30}],"
    "\"slots\":[{\"name\":\"a0\",\"bone\":\"root\",\"attachment\":\"a0\",\"color\":\"#ff8040c0\"},"
    "{\"name\":\"clip\",\"bone\":\"root\",\"attachment\":\"clip\"},"
    "{\"name\":\"a1\",\"bone\":\"arm\",\"attachment\":\"a1\"},"
    "{\"name\":\"gone\",\"bone\":\"root\",\"attachment\":\"gone\"},"
    "{\"name\":\"a3\",\"bone\":\"arm\",\"attachment\":\"a3\"},"
    "{\"name\":\"b0\",\"bone\":\"arm\",\"attachment\":\"b0\"},"
    "{\"name\":\"b1\",\"bone\":\"root\",\"attachment\":\"b1\",\"blend\":\"Additive\",\"dark\":\"#203040\"},"
    "{\"name\":\"a2\",\"bone\":\"arm\",\"attachment\":\"a2\"}],"
    "\"skins\":[{\"name\":\"default\",\"attachments\":["
    "{\"slot\":\"a0\",\"name\":\"a0\",\"type\":\"Region\",\"image\":\"a\",\"width\":20,\"height\":20},"
    "{\"slot\":\"clip\",\"name\":\"clip\",\"type\":\"Clipping\",\"end\":\"gone\","
    "\"vertices\":[-10,-10,25,-10,25,25,-10,25]},"
    "{\"slot\":\"a1\",\"name\":\"a1\",\"type\":\"Mesh\",\"image\":\"a\",\"uvs\":[0,0,1,0,1,1,0,1],"
    "\"vertices\":[0,0,30,0,30,30,0,30],\"triangles\":[0,1,2,0,2,3],\"hull\":4},"
    "{\"slot\":\"gone\",\"name\":\"gone\",\"type\":\"Region\",\"image\":\"b\",\"x\":500,\"width\":20,\"height\":20},"
    "{\"slot\":\"a3\",\"name\":\"a3\",\"type\":\"Region\",\"image\":\"a\",\"x\":40,\"width\":20,\"height\":20},"
    "{\"slot\":\"b0\",\"name\":\"b0\",\"type\":\"Region\",\"image\":\"b\",\"x\":60,\"width\":20,\"height\":20},"
    "{\"slot\":\"b1\",\"name\":\"b1\",\"type\":\"Region\",\"image\":\"b\",\"y\":30,\"width\":20,\"height\":20},"
    "{\"slot\":\"a2\",\"name\":\"a2\",\"type\":\"Region\",\"image\":\"a\",\"x\":80,\"rot\":30,\"width\":20,\"height\":20}"
    "]}]}";

enum { SKELS = 3, RUNS = 4 };

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

typedef struct fixture {
    char *blob;
    mf_skel_data d;
    mf_pose *pose[SKELS];
    mf_draw_list *dl[SKELS];
    float xf[SKELS][6];
} fixture;

static void load_build(fixture *f, const char *rig, const char *out)
{
    mf_build_options opt = {.no_cache = true};
    mf_diag diag;
    mf_result r = mf_build_file_opt(rig, out, &opt, NULL, &diag);
    if (r != MF_OK) fail_msg("%s: %s: %s", diag.file, diag.where, diag.message);
    size_t size = 0;
    f->blob = tu_read(out, &size);
    assert_non_null(f->blob);
    assert_int_equal(mf_skel_data_load(f->blob, size, &f->d, &diag), MF_OK);
    mf_allocator al = {.alloc = count_alloc, .free = count_free};
    for (int i = 0; i < SKELS; i++) {
        assert_int_equal(mf_pose_create(&f->d, &al, &f->pose[i], &diag), MF_OK);
        assert_int_equal(mf_draw_list_create(&f->d, &al, &f->dl[i]), MF_OK);
        /* rotate, scale, shear a little and place each skeleton apart */
        float a = 0.3f * (float)i, s = 1.0f + 0.25f * (float)i;
        float m[6] = {s * cosf(a), s * sinf(a), -s * sinf(a) + 0.1f, s * cosf(a), 100.0f * (float)i, -7.5f * (float)i};
        memcpy(f->xf[i], m, sizeof m);
    }
}

static void pose_all(fixture *f, int frame)
{
    for (int i = 0; i < SKELS; i++) {
        mf_pose *p = f->pose[i];
        mf_pose_reset(p);
        if (p->bone_count > 1) p->rot[1] += 11.0f * (float)(i + 1) + 3.0f * (float)frame;
        mf_pose_update_world(p);
        mf_draw_list_build(f->dl[i], p);
    }
}

static int setup_gen(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    char dir[700];
    mkdir(tu_tmp("gen"), 0755);
    snprintf(dir, sizeof dir, "%s", tu_tmp("gen/images"));
    mkdir(dir, 0755);
    const char *names[2] = {"a", "b"};
    for (int k = 0; k < 2; k++) {
        mf_image img;
        assert_int_equal(mf_image_alloc(&img, 20, 20), MF_OK);
        for (size_t i = 0; i < 20 * 20; i++) {
            img.rgba[4 * i] = (uint8_t)(k ? 200 : 30), img.rgba[4 * i + 1] = (uint8_t)i;
            img.rgba[4 * i + 2] = 90, img.rgba[4 * i + 3] = 255;
        }
        char path[800];
        snprintf(path, sizeof path, "%s/%s.png", dir, names[k]);
        mf_diag d;
        assert_int_equal(mf_png_save(&img, path, &d), MF_OK);
        mf_image_free(&img);
    }
    char rig[700], out[700];
    snprintf(rig, sizeof rig, "%s", tu_tmp("gen/rig.mskel"));
    snprintf(out, sizeof out, "%s", tu_tmp("gen/rig.mskb"));
    assert_int_equal(tu_write(rig, RIG), 0);
    load_build(f, rig, out);
    assert_int_equal(f->d.page_count, 2);
    pose_all(f, 0);
    *state = f;
    return 0;
}

static int setup_mannequin(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    mkdir(tu_tmp("man"), 0755);
    char out[700];
    snprintf(out, sizeof out, "%s", tu_tmp("man/mannequin.mskb"));
    load_build(f, tu_src("examples/mannequin/mannequin.mskel"), out);
    assert_true(f->d.page_count >= 1);
    /* three instances of the walk at different times */
    int32_t clip = mf_skel_data_find_clip(&f->d, "walk");
    assert_true(clip >= 0);
    for (int i = 0; i < SKELS; i++) {
        mf_tracks *t = NULL;
        assert_int_equal(mf_tracks_create(&f->d, NULL, NULL, &t), MF_OK);
        mf_entry_handle h = mf_tracks_set(t, 0, clip, true);
        mf_tracks_entry(t, h)->track_time = 0.17 * (i + 1);
        mf_tracks_update(t, 0);
        mf_tracks_apply(t, f->pose[i]);
        mf_pose_update_world(f->pose[i]);
        mf_draw_list_build(f->dl[i], f->pose[i]);
        mf_tracks_destroy(t);
    }
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    for (int i = 0; i < SKELS; i++) {
        mf_draw_list_destroy(f->dl[i]);
        mf_pose_destroy(f->pose[i]);
    }
    free(f->blob);
    free(f);
    return 0;
}

/* ---------------------------------------------------------------- references */

static int32_t page_of(const mf_skel_data *d, int32_t image) { return image >= 0 ? d->images[image].page : -1; }

/* Batches the lists 0..n-1 need: one per change of (texture, blend) between consecutive items
 * with triangles, counted straight from the draw lists. */
static int32_t expected_calls(const fixture *f, int n)
{
    int32_t calls = 0, pp = -2, pi = -2, pb = -1;
    for (int s = 0; s < n; s++)
        for (int32_t k = 0; k < f->dl[s]->item_count; k++) {
            const mf_draw_item *it = &f->dl[s]->items[k];
            if (it->index_count == 0) continue;
            int32_t pg = page_of(&f->d, it->image), im = pg >= 0 ? -1 : it->image;
            if (pg != pp || im != pi || it->blend != pb) calls++;
            pp = pg, pi = im, pb = it->blend;
        }
    return calls;
}

static float unbyte(uint32_t c, int j) { return (float)((c >> (8 * j)) & 255u) / 255.0f; }

static uint32_t index_at(const mf_draw_batch *b, int32_t i) { return b->indices16 ? b->indices16[i] : b->indices[i]; }

/* Every index inside its call's vertex range, calls tile the index stream in order, and the
 * triangles drawn call after call are the lists' triangles one by one (skeletons s0..s0+n-1,
 * each through its transform when xf is set). */
static void assert_draws_lists(const fixture *f, const mf_draw_batch *b, int s0, int n, bool xf)
{
    int32_t next_index = 0, next_vertex = 0;
    for (int32_t c = 0; c < b->call_count; c++) {
        const mf_draw_call *call = &b->calls[c];
        assert_int_equal(call->index_first, next_index);
        assert_int_equal(call->vertex_first, next_vertex);
        assert_true(call->index_count > 0 && call->index_count % 3 == 0);
        next_index += call->index_count, next_vertex += call->vertex_count;
        for (int32_t i = call->index_first; i < call->index_first + call->index_count; i++) {
            uint32_t v = index_at(b, i);
            if (!(v >= (uint32_t)call->vertex_first && v < (uint32_t)(call->vertex_first + call->vertex_count)))
                fail_msg("call %d: index %d = %u outside [%d, %d)", c, i, v, call->vertex_first,
                         call->vertex_first + call->vertex_count);
        }
    }
    assert_int_equal(next_index, b->index_count);
    assert_int_equal(next_vertex, b->vertex_count);
    /* walk the lists' triangles and the merged ones side by side */
    int32_t c = 0, i = 0, tris = 0;
    for (int s = s0; s < s0 + n; s++) {
        const mf_draw_list *dl = f->dl[s];
        const float *m = f->xf[s];
        for (int32_t k = 0; k < dl->item_count; k++) {
            const mf_draw_item *it = &dl->items[k];
            int32_t pg = page_of(&f->d, it->image);
            for (int32_t j = 0; j < it->index_count; j++, i++) {
                while (c < b->call_count && i >= b->calls[c].index_first + b->calls[c].index_count) c++;
                assert_true(c < b->call_count);
                const mf_draw_call *call = &b->calls[c];
                assert_int_equal(call->page, pg);
                assert_int_equal(call->image, pg >= 0 ? -1 : it->image);
                assert_int_equal(call->blend, it->blend);
                int32_t src = it->vertex_first + dl->indices[it->index_first + j];
                double x = dl->vertices[2 * src], y = dl->vertices[2 * src + 1];
                if (xf) {
                    double tx = m[0] * x + m[2] * y + m[4], ty = m[1] * x + m[3] * y + m[5];
                    x = tx, y = ty;
                }
                const mf_batch_vertex *v = &b->vertices[index_at(b, i)];
                if (!(fabs(v->x - x) <= 1e-3 && fabs(v->y - y) <= 1e-3))
                    fail_msg("skeleton %d item %d corner %d: (%g, %g) drawn, (%g, %g) listed", s, k, j, (double)v->x,
                             (double)v->y, x, y);
                assert_true(v->u == dl->uvs[2 * src] && v->v == dl->uvs[2 * src + 1]);
                for (int q = 0; q < 4; q++) assert_true(fabsf(unbyte(v->light, q) - it->light[q]) <= 0.5f / 255 + 1e-6f);
                for (int q = 0; q < 3; q++)
                    assert_true(fabsf(unbyte(v->dark, q) - (it->has_dark ? it->dark[q] : 0)) <= 0.5f / 255 + 1e-6f);
                assert_int_equal(v->dark >> 24, it->has_dark ? 255u : 0u);
            }
            tris += it->index_count / 3;
        }
    }
    assert_int_equal(i, b->index_count);
    assert_true(tris > 0);
}

/* ---------------------------------------------------------------- tests */

static void merges_where_page_and_blend_agree(void **state)
{
    fixture *f = *state;
    /* the fixture's promises: a partly clipped item, one clipped away, a dark one */
    const mf_draw_list *dl = f->dl[0];
    assert_int_equal(dl->item_count, 7);
    assert_true(dl->items[1].clipped && dl->items[1].index_count > 0);
    assert_true(dl->items[2].clipped && dl->items[2].index_count == 0);
    assert_true(dl->items[5].has_dark && dl->items[5].blend == MF_SD_BLEND_ADDITIVE);
    assert_int_not_equal(page_of(&f->d, dl->items[0].image), page_of(&f->d, dl->items[4].image));
    mf_draw_batch *b = NULL;
    assert_int_equal(mf_draw_batch_create(NULL, &b), MF_OK);
    for (int n = 1; n <= SKELS; n++) {
        mf_draw_batch_begin(b);
        for (int s = 0; s < n; s++) assert_int_equal(mf_draw_batch_add(b, f->dl[s], &f->d, NULL), MF_OK);
        assert_int_equal(b->skeletons, n);
        assert_int_equal(b->items, 6 * n);
        assert_int_equal(b->call_count, expected_calls(f, n));
        assert_int_equal(b->call_count, RUNS * n - (n - 1)); /* a2 meets the next a0 */
        assert_draws_lists(f, b, 0, n, false);
    }
    mf_draw_batch_destroy(b);
}

static void transform_places_each_skeleton(void **state)
{
    fixture *f = *state;
    mf_draw_batch *b = NULL;
    assert_int_equal(mf_draw_batch_create(&(mf_draw_batch_desc){.max_vertices = 4096}, &b), MF_OK);
    mf_draw_batch_begin(b);
    for (int s = 0; s < SKELS; s++) assert_int_equal(mf_draw_batch_add(b, f->dl[s], &f->d, f->xf[s]), MF_OK);
    assert_draws_lists(f, b, 0, SKELS, true);
    /* a pure translation moves the first vertex by exactly the offset */
    mf_draw_batch_begin(b);
    const float shift[6] = {1, 0, 0, 1, 250, -40};
    assert_int_equal(mf_draw_batch_add(b, f->dl[1], &f->d, shift), MF_OK);
    int32_t first = f->dl[1]->items[0].vertex_first;
    assert_float_equal(b->vertices[0].x, f->dl[1]->vertices[2 * first] + 250, 1e-4);
    assert_float_equal(b->vertices[0].y, f->dl[1]->vertices[2 * first + 1] - 40, 1e-4);
    mf_draw_batch_destroy(b);
}

static void index16_matches_index32(void **state)
{
    fixture *f = *state;
    mf_draw_batch *w = NULL, *n = NULL;
    assert_int_equal(mf_draw_batch_create(&(mf_draw_batch_desc){.index16 = true, .max_vertices = 70000}, &n),
                     MF_ERR_ARGUMENT);
    assert_null(n);
    assert_int_equal(mf_draw_batch_create(&(mf_draw_batch_desc){.index16 = true}, &n), MF_OK);
    assert_int_equal(mf_draw_batch_create(NULL, &w), MF_OK);
    assert_null(n->indices);
    assert_null(w->indices16);
    mf_draw_batch_begin(n), mf_draw_batch_begin(w);
    for (int s = 0; s < SKELS; s++) {
        assert_int_equal(mf_draw_batch_add(n, f->dl[s], &f->d, f->xf[s]), MF_OK);
        assert_int_equal(mf_draw_batch_add(w, f->dl[s], &f->d, f->xf[s]), MF_OK);
    }
    assert_int_equal(n->index_count, w->index_count);
    for (int32_t i = 0; i < n->index_count; i++) assert_int_equal(n->indices16[i], w->indices[i]);
    assert_int_equal(n->call_count, w->call_count);
    assert_memory_equal(n->calls, w->calls, sizeof(mf_draw_call) * (size_t)n->call_count);
    assert_draws_lists(f, n, 0, SKELS, true);
    mf_draw_batch_destroy(n);
    mf_draw_batch_destroy(w);
}

/* Snapshot of a frame to compare after a refused add. */
typedef struct snap {
    int32_t v, i, c, skeletons, items;
    mf_draw_call calls[64];
} snap;
static snap take(const mf_draw_batch *b)
{
    snap s = {b->vertex_count, b->index_count, b->call_count, b->skeletons, b->items, {{0}}};
    memcpy(s.calls, b->calls, sizeof(mf_draw_call) * (size_t)b->call_count);
    return s;
}
static void assert_same(const mf_draw_batch *b, const snap *s)
{
    assert_int_equal(b->vertex_count, s->v);
    assert_int_equal(b->index_count, s->i);
    assert_int_equal(b->call_count, s->c);
    assert_int_equal(b->skeletons, s->skeletons);
    assert_int_equal(b->items, s->items);
    assert_memory_equal(b->calls, s->calls, sizeof(mf_draw_call) * (size_t)s->c);
}

static void overflow_leaves_the_frame_consistent(void **state)
{
    fixture *f = *state;
    mf_draw_batch *b = NULL;
    assert_int_equal(mf_draw_batch_create(NULL, &b), MF_OK);
    mf_draw_batch_begin(b);
    assert_int_equal(mf_draw_batch_add(b, f->dl[0], &f->d, NULL), MF_OK);
    int32_t nv = b->vertex_count, ni = b->index_count;
    mf_draw_batch_destroy(b);
    /* vertices, then indices, then calls run out on the third skeleton */
    mf_draw_batch_desc descs[3] = {{.max_vertices = 3 * nv - 1},
                                   {.max_indices = 3 * ni - 1},
                                   {.max_calls = RUNS * 3 - 3}};
    for (int k = 0; k < 3; k++) {
        assert_int_equal(mf_draw_batch_create(&descs[k], &b), MF_OK);
        for (int frame = 0; frame < 2; frame++) { /* the next frame starts clean */
            mf_draw_batch_begin(b);
            assert_int_equal(mf_draw_batch_add(b, f->dl[0], &f->d, f->xf[0]), MF_OK);
            assert_int_equal(mf_draw_batch_add(b, f->dl[1], &f->d, f->xf[1]), MF_OK);
            snap s = take(b);
            /* the third list's first item would extend the last call before anything runs out */
            assert_int_equal(mf_draw_batch_add(b, f->dl[2], &f->d, f->xf[2]), MF_ERR_NOMEM);
            assert_same(b, &s);
            assert_int_equal(b->overflow, 1);
            assert_draws_lists(f, b, 0, 2, true);
        }
        mf_draw_batch_destroy(b);
    }
}

static void bad_lists_are_refused(void **state)
{
    fixture *f = *state;
    mf_draw_batch *b = NULL;
    assert_int_equal(mf_draw_batch_create(&(mf_draw_batch_desc){.max_vertices = -1}, &b), MF_ERR_ARGUMENT);
    assert_int_equal(mf_draw_batch_create(NULL, NULL), MF_ERR_ARGUMENT);
    assert_int_equal(mf_draw_batch_create(NULL, &b), MF_OK);
    mf_draw_batch_begin(b);
    assert_int_equal(mf_draw_batch_add(b, f->dl[0], &f->d, NULL), MF_OK);
    snap s = take(b);
    assert_int_equal(mf_draw_batch_add(b, NULL, &f->d, NULL), MF_ERR_ARGUMENT);
    assert_int_equal(mf_draw_batch_add(b, f->dl[1], NULL, NULL), MF_ERR_ARGUMENT);
    assert_int_equal(mf_draw_batch_add(NULL, f->dl[1], &f->d, NULL), MF_ERR_ARGUMENT);
    mf_draw_list *dl = f->dl[1];
    /* an image the data does not have, on the last item (the others already went in) */
    mf_draw_item *last = &dl->items[dl->item_count - 1];
    int32_t image = last->image;
    last->image = f->d.image_count;
    assert_int_equal(mf_draw_batch_add(b, dl, &f->d, NULL), MF_ERR_ARGUMENT);
    assert_same(b, &s);
    last->image = image;
    /* a blend mode that does not exist */
    uint8_t blend = last->blend;
    last->blend = MF_SD_BLEND_COUNT;
    assert_int_equal(mf_draw_batch_add(b, dl, &f->d, NULL), MF_ERR_ARGUMENT);
    assert_same(b, &s);
    last->blend = blend;
    /* an index past its item's vertices */
    uint16_t idx = dl->indices[last->index_first + 1];
    dl->indices[last->index_first + 1] = (uint16_t)last->vertex_count;
    assert_int_equal(mf_draw_batch_add(b, dl, &f->d, NULL), MF_ERR_ARGUMENT);
    assert_same(b, &s);
    dl->indices[last->index_first + 1] = idx;
    /* geometry past the list's */
    int32_t vc = last->vertex_count;
    last->vertex_count = dl->vertex_count;
    assert_int_equal(mf_draw_batch_add(b, dl, &f->d, NULL), MF_ERR_ARGUMENT);
    assert_same(b, &s);
    last->vertex_count = vc;
    assert_int_equal(b->overflow, 0);
    assert_int_equal(mf_draw_batch_add(b, dl, &f->d, NULL), MF_OK);
    mf_draw_batch_destroy(b);
}

static void no_allocation_per_frame(void **state)
{
    fixture *f = *state;
    mf_allocator al = {.alloc = count_alloc, .free = count_free};
    long before = g_allocs;
    mf_draw_batch *b = NULL;
    assert_int_equal(mf_draw_batch_create(&(mf_draw_batch_desc){.alloc = al}, &b), MF_OK);
    assert_int_equal(g_allocs, before + 1);
    before = g_allocs;
    for (int frame = 1; frame <= 20; frame++) {
        pose_all(f, frame);
        mf_draw_batch_begin(b);
        for (int s = 0; s < SKELS; s++) assert_int_equal(mf_draw_batch_add(b, f->dl[s], &f->d, f->xf[s]), MF_OK);
        assert_int_equal(b->call_count, expected_calls(f, SKELS));
    }
    assert_int_equal(g_allocs, before);
    assert_draws_lists(f, b, 0, SKELS, true);
    mf_draw_batch_destroy(b);
    pose_all(f, 0);
}

/* The mannequin: three walking instances, page and blend runs as its lists say. */
static void mannequin_merges(void **state)
{
    fixture *f = *state;
    mf_draw_batch *b = NULL;
    assert_int_equal(mf_draw_batch_create(&(mf_draw_batch_desc){.index16 = true}, &b), MF_OK);
    mf_draw_batch_begin(b);
    for (int s = 0; s < SKELS; s++) assert_int_equal(mf_draw_batch_add(b, f->dl[s], &f->d, f->xf[s]), MF_OK);
    int32_t items = 0;
    for (int s = 0; s < SKELS; s++) items += f->dl[s]->item_count;
    assert_true(items > 3 * SKELS);
    assert_int_equal(b->call_count, expected_calls(f, SKELS));
    assert_true(b->call_count < items); /* it merged */
    assert_draws_lists(f, b, 0, SKELS, true);
    mf_draw_batch_destroy(b);
}

int main(void)
{
    const struct CMUnitTest gen[] = {
        cmocka_unit_test(merges_where_page_and_blend_agree),
        cmocka_unit_test(transform_places_each_skeleton),
        cmocka_unit_test(index16_matches_index32),
        cmocka_unit_test(overflow_leaves_the_frame_consistent),
        cmocka_unit_test(bad_lists_are_refused),
        cmocka_unit_test(no_allocation_per_frame),
    };
    const struct CMUnitTest man[] = {
        cmocka_unit_test(mannequin_merges),
    };
    int failed = cmocka_run_group_tests_name("generated rig", gen, setup_gen, teardown);
    failed += cmocka_run_group_tests_name("mannequin", man, setup_mannequin, teardown);
    return failed;
}
