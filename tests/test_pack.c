/* The MaxRects packer: inside pages, no overlaps (padding included), determinism, errors; and
 * the image preparation (trim bounds, alpha bleed, edge extrusion). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "mf/mf_pack.h"
#include "pack/atlas_image.h"
#include "testutil.h"

static uint32_t rng = 12345;
static int32_t rnd(int32_t n)
{
    rng = rng * 1103515245u + 12345u;
    return (int32_t)((rng >> 8) % (uint32_t)n);
}

static void check_layout(const mf_pack_rect *r, int32_t n, const mf_pack_result *res, int32_t pad)
{
    for (int32_t i = 0; i < n; i++) {
        assert_true(r[i].page >= 0 && r[i].page < res->page_count);
        const mf_pack_page *p = &res->pages[r[i].page];
        /* the rectangle and its padding lie inside the page */
        assert_true(r[i].x - pad >= 0 && r[i].y - pad >= 0);
        assert_true(r[i].x + r[i].w + pad <= p->width && r[i].y + r[i].h + pad <= p->height);
        for (int32_t k = 0; k < i; k++) {
            if (r[k].page != r[i].page) continue;
            bool apart = r[i].x - pad >= r[k].x + r[k].w + pad || r[k].x - pad >= r[i].x + r[i].w + pad ||
                         r[i].y - pad >= r[k].y + r[k].h + pad || r[k].y - pad >= r[i].y + r[i].h + pad;
            if (!apart) fail_msg("rects %d and %d overlap (with padding %d)", (int)i, (int)k, (int)pad);
        }
    }
}

static void packs_without_overlap(void **state)
{
    (void)state;
    enum { N = 300 };
    mf_pack_rect r[N], again[N];
    for (int i = 0; i < N; i++) r[i] = (mf_pack_rect){.w = 1 + rnd(120), .h = 1 + rnd(90)};
    memcpy(again, r, sizeof r);
    mf_pack_options o = {.max_width = 512, .max_height = 512, .padding = 2};
    mf_pack_result res, res2;
    mf_diag d;
    assert_int_equal(mf_pack(r, N, &o, &res, &d), MF_OK);
    assert_true(res.page_count >= 2);
    check_layout(r, N, &res, 2);
    int64_t area = 0, used = 0;
    for (int i = 0; i < N; i++) area += (int64_t)(r[i].w + 4) * (r[i].h + 4);
    for (int p = 0; p < res.page_count; p++) used += res.pages[p].used;
    assert_true(area == used);
    assert_true(res.occupancy > 0.8 && res.occupancy <= 1.0);
    /* deterministic */
    assert_int_equal(mf_pack(again, N, &o, &res2, &d), MF_OK);
    assert_memory_equal(r, again, sizeof r);
    assert_int_equal(res.page_count, res2.page_count);
    mf_pack_result_free(&res);
    mf_pack_result_free(&res2);
}

static void one_page_shrinks_and_fixed_keeps_size(void **state)
{
    (void)state;
    mf_pack_rect r[4] = {{.w = 10, .h = 10}, {.w = 10, .h = 10}, {.w = 10, .h = 10}, {.w = 10, .h = 10}};
    mf_pack_options o = {.max_width = 1024, .max_height = 1024, .padding = 0};
    mf_pack_result res;
    assert_int_equal(mf_pack(r, 4, &o, &res, NULL), MF_OK);
    assert_int_equal(res.page_count, 1);
    assert_int_equal((int64_t)res.pages[0].width * res.pages[0].height, 400); /* 20x20 or 40x10 */
    assert_true(res.occupancy == 1.0);
    check_layout(r, 4, &res, 0);
    mf_pack_result_free(&res);
    o.fixed_size = true;
    assert_int_equal(mf_pack(r, 4, &o, &res, NULL), MF_OK);
    assert_int_equal(res.pages[0].width, 1024);
    mf_pack_result_free(&res);
}

static void too_large_is_located(void **state)
{
    (void)state;
    mf_pack_rect r[2] = {{.w = 10, .h = 10}, {.w = 60, .h = 10}};
    mf_pack_options o = {.max_width = 64, .max_height = 64, .padding = 3};
    mf_pack_result res;
    mf_diag d;
    assert_int_equal(mf_pack(r, 2, &o, &res, &d), MF_ERR_INVALID);
    assert_string_equal(d.where, "rects[1]");
    assert_contains(d.message, "does not fit");
    o.padding = -1;
    assert_int_equal(mf_pack(r, 2, &o, &res, &d), MF_ERR_ARGUMENT);
}

static void trim_bleed_extrude(void **state)
{
    (void)state;
    mf_image img;
    assert_int_equal(mf_image_alloc(&img, 5, 4), MF_OK);
    /* one red opaque pixel at (2,1), one half-transparent green at (3,2) */
    uint8_t red[4] = {255, 0, 0, 255}, green[4] = {0, 255, 0, 128};
    static const uint8_t BLED_RED[4] = {255, 0, 0, 0}, BLED_GREEN[4] = {0, 255, 0, 0}, CLEAR[4] = {0, 0, 0, 0};
    memcpy(img.rgba + (1 * 5 + 2) * 4, red, 4);
    memcpy(img.rgba + (2 * 5 + 3) * 4, green, 4);
    int32_t x, y, w, h;
    assert_true(mf_image_alpha_bounds(&img, &x, &y, &w, &h));
    assert_int_equal(x, 2);
    assert_int_equal(y, 1);
    assert_int_equal(w, 2);
    assert_int_equal(h, 2);
    assert_int_equal(mf_image_bleed(&img), MF_OK);
    /* (0,0) is nearest to the red pixel, (4,3) to the green one; alpha stays 0 */
    assert_memory_equal(img.rgba, BLED_RED, 4);
    assert_memory_equal(img.rgba + (3 * 5 + 4) * 4, BLED_GREEN, 4);
    assert_memory_equal(img.rgba + (1 * 5 + 2) * 4, red, 4);
    mf_image page;
    assert_int_equal(mf_image_alloc(&page, 8, 8), MF_OK);
    mf_image_blit_extrude(&page, 3, 3, &img, 2, 1, 2, 2, 2);
    /* inside: the source pixels; padding: the nearest edge pixel repeated */
    assert_memory_equal(page.rgba + (3 * 8 + 3) * 4, red, 4);
    assert_memory_equal(page.rgba + (1 * 8 + 1) * 4, red, 4);           /* corner of the padding */
    assert_memory_equal(page.rgba + (4 * 8 + 4) * 4, green, 4);
    assert_memory_equal(page.rgba + (6 * 8 + 6) * 4, green, 4);
    assert_memory_equal(page.rgba + (0 * 8 + 0) * 4, CLEAR, 4); /* outside */
    mf_image_free(&page);
    mf_image empty;
    assert_int_equal(mf_image_alloc(&empty, 3, 3), MF_OK);
    assert_false(mf_image_alpha_bounds(&empty, &x, &y, &w, &h));
    assert_int_equal(mf_image_bleed(&empty), MF_OK);
    mf_image_free(&empty);
    mf_image half;
    assert_int_equal(mf_image_resize(&img, 10, 8, &half), MF_OK);
    assert_int_equal(half.width, 10);
    mf_image_free(&half);
    mf_image_free(&img);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(packs_without_overlap),
        cmocka_unit_test(one_page_shrinks_and_fixed_keeps_size),
        cmocka_unit_test(too_large_is_located),
        cmocka_unit_test(trim_bleed_extrude),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
