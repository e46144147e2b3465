/* mf_draw_batch_add with random, partly lying draw lists and small
 * capacities (run it under ASan): every add either goes in whole, leaving a stream whose calls
 * tile the indices and whose indices lie in their call's vertex range, or is refused and leaves
 * the frame exactly as it was (overflow counted only for NOMEM). */
#include "testutil.h"

#include <math.h>
#include <string.h>

#include "mf/mf_draw_batch.h"

enum { IMAGES = 4, PAGES = 2, LV = 64, LI = 96, LITEMS = 8 };

static uint32_t g_r;
static uint32_t rnd(uint32_t n)
{
    g_r = g_r * 1664525u + 1013904223u;
    return (g_r >> 8) % n;
}

typedef struct list {
    mf_draw_list dl;
    mf_draw_item items[LITEMS];
    float v[2 * LV], uv[2 * LV];
    uint16_t idx[LI];
    bool lies;
} list;

/* A list of up to LITEMS items of data d packed one after another; with `lie`, one field goes
 * wrong. */
static void make_list(list *l, bool lie, const mf_skel_data *d)
{
    memset(l, 0, sizeof *l);
    l->dl = (mf_draw_list){.items = l->items, .item_cap = LITEMS, .vertices = l->v, .uvs = l->uv,
                           .vertex_cap = LV, .indices = l->idx, .index_cap = LI, .data = d};
    int32_t n = (int32_t)rnd(LITEMS + 1), v = 0, i = 0;
    for (int32_t k = 0; k < n; k++) {
        int32_t nv = (int32_t)rnd(8), ni = nv ? 3 * (int32_t)rnd(4) : 0;
        if (v + nv > LV || i + ni > LI) break;
        mf_draw_item *it = &l->items[k];
        *it = (mf_draw_item){.image = (int32_t)rnd(IMAGES + 1) - 1, .blend = (uint8_t)rnd(2),
                             .light = {1, 0.5f, 0.25f, 1}, .vertex_first = v, .vertex_count = nv,
                             .index_first = i, .index_count = ni};
        for (int32_t j = 0; j < nv; j++)
            l->v[2 * (v + j)] = (float)rnd(100), l->v[2 * (v + j) + 1] = (float)rnd(100), l->uv[2 * (v + j)] = 0.5f;
        for (int32_t j = 0; j < ni; j++) l->idx[i + j] = (uint16_t)rnd((uint32_t)nv);
        v += nv, i += ni;
        l->dl.item_count = k + 1;
    }
    l->dl.vertex_count = v, l->dl.index_count = i;
    l->lies = false;
    if (!lie || l->dl.item_count == 0) return;
    mf_draw_item *it = &l->items[rnd((uint32_t)l->dl.item_count)];
    switch (rnd(7)) {
    case 0: it->image = IMAGES + (int32_t)rnd(3); break;
    case 1: it->image = -2 - (int32_t)rnd(1000); break;
    case 2: it->vertex_first = l->dl.vertex_count + 1 + (int32_t)rnd(1000); break;
    case 3: it->vertex_count = l->dl.vertex_count - it->vertex_first + 1 + (int32_t)rnd(1000); break;
    case 4: it->index_first = -1 - (int32_t)rnd(1000); break;
    case 5: it->index_count = INT32_MAX - (int32_t)rnd(4); break;
    default:
        if (it->index_count == 0) return;
        l->idx[it->index_first + (int32_t)rnd((uint32_t)it->index_count)] = (uint16_t)(it->vertex_count + rnd(60000));
        break;
    }
    l->lies = true;
}

static void check_stream(const mf_draw_batch *b)
{
    int32_t next = 0;
    for (int32_t c = 0; c < b->call_count; c++) {
        const mf_draw_call *k = &b->calls[c];
        assert_int_equal(k->index_first, next);
        assert_true(k->index_count > 0);
        next += k->index_count;
        assert_true(k->vertex_first >= 0 && k->vertex_first + k->vertex_count <= b->vertex_count);
        for (int32_t i = k->index_first; i < k->index_first + k->index_count; i++) {
            uint32_t v = b->indices16 ? b->indices16[i] : b->indices[i];
            assert_true(v >= (uint32_t)k->vertex_first && v < (uint32_t)(k->vertex_first + k->vertex_count));
        }
        if (c > 0) {
            const mf_draw_call *p = k - 1;
            assert_true(p->page != k->page || p->image != k->image || p->blend != k->blend);
        }
    }
    assert_int_equal(next, b->index_count);
}

static void random_adds(void **state)
{
    (void)state;
    mf_sd_image images[IMAGES] = {{.page = 0}, {.page = 1}, {.page = -1}, {.page = 7}};
    mf_skel_data d = {.images = images, .image_count = IMAGES, .page_count = PAGES};
    const float xf[6] = {0.5f, 0.25f, -0.25f, 0.5f, 10, 20};
    g_r = 12345;
    int oks = 0, nomems = 0, args = 0;
    for (int round = 0; round < 300; round++) {
        mf_draw_batch_desc desc = {.max_vertices = 1 + (int32_t)rnd(120), .max_indices = (int32_t)rnd(200),
                                   .max_calls = (int32_t)rnd(12), .index16 = rnd(2)};
        mf_draw_batch *b = NULL;
        assert_int_equal(mf_draw_batch_create(&desc, &b), MF_OK);
        for (int frame = 0; frame < 3; frame++) {
            mf_draw_batch_begin(b);
            int32_t overflow = 0, skeletons = 0;
            for (int s = 0; s < 6; s++) {
                list l;
                make_list(&l, rnd(4) == 0, &d);
                int32_t v0 = b->vertex_count, i0 = b->index_count, c0 = b->call_count, items0 = b->items;
                mf_draw_call calls[64];
                memcpy(calls, b->calls, sizeof(mf_draw_call) * (size_t)c0);
                mf_result r = mf_draw_batch_add(b, &l.dl, &d, rnd(2) ? xf : NULL);
                if (r == MF_OK) {
                    assert_false(l.lies); /* every lie is caught, even in an item without triangles */
                    skeletons++, oks++;
                    check_stream(b);
                    assert_true(b->vertex_count >= v0 && b->index_count >= i0 && b->items >= items0);
                    continue;
                }
                if (r == MF_ERR_NOMEM) overflow++, nomems++;
                else assert_int_equal(r, MF_ERR_ARGUMENT), args++;
                assert_int_equal(b->vertex_count, v0);
                assert_int_equal(b->index_count, i0);
                assert_int_equal(b->call_count, c0);
                assert_int_equal(b->items, items0);
                assert_memory_equal(b->calls, calls, sizeof(mf_draw_call) * (size_t)c0);
                check_stream(b);
            }
            assert_int_equal(b->overflow, overflow);
            assert_int_equal(b->skeletons, skeletons);
        }
        mf_draw_batch_destroy(b);
    }
    assert_true(oks > 100 && nomems > 100 && args > 50);
}

/* mf_draw_pack_color (SSE2 where built with it) against the rule it documents, one channel at
 * a time: 0..1 to a byte rounded, NaN and below 0 give 0, 1 and above 255. Edge values, every
 * byte's boundaries and random floats. */
static uint32_t ref_byte(float v)
{
    if (!(v > 0)) return 0;
    if (v >= 1) return 255;
    return (uint32_t)(v * 255.0f + 0.5f);
}

static void pack_color_rounds(void **state)
{
    (void)state;
    float edge[] = {0.0f, -0.0f, -1.0f, 1.0f, 2.0f, 1e30f, -1e30f, NAN, -NAN, INFINITY, -INFINITY, 1e-40f,
                    0.5f, 0.99999994f, 1.0000001f, 0.5f / 255.0f, 254.5f / 255.0f};
    int n = (int)(sizeof edge / sizeof edge[0]);
    for (int i = 0; i < n; i++)
        for (int c = 0; c < 4; c++) {
            float v[4] = {0.25f, 0.5f, 0.75f, 1.0f};
            v[c] = edge[i];
            uint32_t got = mf_draw_pack_color(v[0], v[1], v[2], v[3]);
            assert_int_equal((got >> (8 * c)) & 255u, ref_byte(edge[i]));
        }
    for (int k = 0; k < 256; k++) /* either side of each rounding boundary */
        for (int d = -2; d <= 2; d++) {
            float v = nextafterf(((float)k + 0.5f) / 255.0f, d < 0 ? -1.0f : 2.0f);
            for (int j = 0; j < (d < 0 ? -d : d); j++) v = nextafterf(v, d < 0 ? -1.0f : 2.0f);
            uint32_t got = mf_draw_pack_color(v, 1.0f - v, v * 0.5f, v);
            assert_int_equal(got, ref_byte(v) | ref_byte(1.0f - v) << 8 | ref_byte(v * 0.5f) << 16 | ref_byte(v) << 24);
        }
    g_r = 12345;
    for (int k = 0; k < 100000; k++) {
        float v[4];
        for (int c = 0; c < 4; c++) v[c] = (float)rnd(1u << 20) / (float)(1u << 19) - 0.5f; /* -0.5 .. 1.5 */
        uint32_t got = mf_draw_pack_color(v[0], v[1], v[2], v[3]);
        assert_int_equal(got, ref_byte(v[0]) | ref_byte(v[1]) << 8 | ref_byte(v[2]) << 16 | ref_byte(v[3]) << 24);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(random_adds), cmocka_unit_test(pack_color_rounds)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
