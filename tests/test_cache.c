#define _POSIX_C_SOURCE 200809L
/* The bake cache: entries round-trip; hit, miss, corrupt and short entries, disabled and
 * unwritable caches; the atlas entry's payload round-trips and refuses anything malformed.
 * (A rebuild from a corrupted cache giving the same bytes: tests/cli_build_cache.sh.) */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "build/build_internal.h"
#include "mf/mf_bake_cache.h"
#include "testutil.h"

static mf_bake_key key_of(const char *s)
{
    mf_bake_key k;
    mf_bake_hasher *h = mf_bake_hasher_new();
    mf_bake_hash_str(h, s);
    mf_bake_hasher_finish(h, &k);
    return k;
}

static void entry_round_trip_and_corruption(void **state)
{
    (void)state;
    const char payload[] = "pages and a build, pages and a build, pages and a build";
    mf_bake_key k = key_of("a"), other = key_of("b");
    void *e = NULL, *out = NULL;
    size_t elen = 0, olen = 0;
    mf_diag d;
    assert_int_equal(mf_bake_entry_encode(&k, payload, sizeof payload, &e, &elen), MF_OK);
    assert_int_equal(mf_bake_entry_decode(e, elen, &k, &out, &olen, &d), MF_OK);
    assert_int_equal(olen, sizeof payload);
    assert_memory_equal(out, payload, olen);
    free(out);
    assert_int_equal(mf_bake_entry_decode(e, elen, &other, &out, &olen, &d), MF_ERR_CORRUPT);
    assert_string_equal(d.where, "offset 16");
    assert_int_equal(mf_bake_entry_decode(e, 40, &k, &out, &olen, &d), MF_ERR_CORRUPT);
    assert_contains(d.message, "short");
    /* every single flipped byte is caught */
    for (size_t i = 0; i < elen; i++) {
        ((uint8_t *)e)[i] ^= 0x21;
        mf_result r = mf_bake_entry_decode(e, elen, &k, &out, &olen, NULL);
        if (r == MF_OK) fail_msg("a flipped byte at %zu was accepted", i);
        ((uint8_t *)e)[i] ^= 0x21;
    }
    free(e);
    mf_bake_item items[2] = {{"_0.png", "png", 3}, {"build", "blob!", 5}}, *got = NULL;
    int32_t n = 0;
    assert_int_equal(mf_bake_bundle_encode(items, 2, &e, &elen), MF_OK);
    assert_int_equal(mf_bake_bundle_decode(e, elen, &got, &n, &d), MF_OK);
    assert_int_equal(n, 2);
    assert_string_equal(got[1].name, "build");
    assert_memory_equal(got[1].data, "blob!", 5);
    free(got);
    assert_int_equal(mf_bake_bundle_decode(e, elen - 1, &got, &n, &d), MF_ERR_CORRUPT);
    free(e);
}

static void cache_folder(void **state)
{
    (void)state;
    mf_bake_key k = key_of("folder");
    setenv("MF_SKELETON_BAKE_CACHE_DIR", "off", 1);
    mf_bake_cache c;
    mf_bake_cache_init(&c);
    assert_false(c.enabled);
    setenv("MF_SKELETON_BAKE_CACHE_DIR", tu_tmp("cache/deep/er"), 1);
    mf_bake_cache_init(&c);
    assert_true(c.enabled);
    void *p = NULL;
    size_t n = 0;
    assert_false(mf_bake_cache_get(&c, &k, &p, &n)); /* missing */
    assert_true(mf_bake_cache_put(&c, &k, "hello", 5));
    assert_true(mf_bake_cache_get(&c, &k, &p, &n));
    assert_int_equal(n, 5);
    free(p);
    /* a corrupt entry is a miss */
    char hex[65], path[4300];
    mf_bake_key_hex(&k, hex);
    snprintf(path, sizeof path, "%s%s.bake", c.dir, hex);
    assert_int_equal(tu_write(path, "MFBAKE garbage"), 0);
    assert_false(mf_bake_cache_get(&c, &k, &p, &n));
    /* unwritable: a file where the folder should be; put only logs */
    assert_int_equal(tu_write(tu_tmp("blocker"), "x"), 0);
    setenv("MF_SKELETON_BAKE_CACHE_DIR", tu_tmp("blocker/sub"), 1);
    mf_bake_cache_init(&c);
    assert_false(mf_bake_cache_put(&c, &k, "hello", 5));
    assert_false(mf_bake_cache_get(&c, &k, &p, &n));
    unsetenv("MF_SKELETON_BAKE_CACHE_DIR");
    setenv("XDG_CACHE_HOME", "/xdg", 1);
    mf_bake_cache_init(&c);
    assert_string_equal(c.dir, "/xdg/mfanim/skeleton-bakes/");
}

/* The atlas payload: pages (with normal pages) and placements round-trip; every truncation
 * and a placement off its page or out of name order are refused. */
static void atlas_payload(void **state)
{
    (void)state;
    char n0[] = "_0.png", nn0[] = "_n0.png", n1[] = "_1.png", nn1[] = "_n1.png";
    char png0[] = "PNG0", npng0[] = "NRM0", png1[] = "PNG-1", npng1[] = "NRM-1";
    mf_build_atlas_page pages[2] = {{n0, nn0, 64, 32, png0, npng0, 4, 4}, {n1, nn1, 16, 16, png1, npng1, 5, 5}};
    char a[] = "arm", b[] = "body", c[] = "cape";
    mf_build_atlas_image images[3] = {{a, 0, 2, 2, 20, 10, 1, 3, 30, 20},
                                      {b, 1, 2, 2, 12, 12, 0, 0, 12, 12},
                                      {c, 0, 26, 2, 30, 28, 4, 0, 40, 28}};
    mf_build_atlas at = {2, 3, pages, images, 0.75, true};
    void *payload = NULL;
    size_t len = 0;
    assert_int_equal(mf_build_atlas_encode(&at, &payload, &len), MF_OK);
    mf_build_atlas got;
    assert_true(mf_build_atlas_decode(payload, len, &got));
    assert_int_equal(got.page_count, 2);
    assert_int_equal(got.image_count, 3);
    assert_true(got.has_normals);
    assert_true(got.occupancy == 0.75);
    for (int p = 0; p < 2; p++) {
        assert_string_equal(got.pages[p].name, pages[p].name);
        assert_string_equal(got.pages[p].normal_name, pages[p].normal_name);
        assert_int_equal(got.pages[p].width, pages[p].width);
        assert_int_equal(got.pages[p].png_size, pages[p].png_size);
        assert_memory_equal(got.pages[p].png, pages[p].png, pages[p].png_size);
        assert_memory_equal(got.pages[p].normal_png, pages[p].normal_png, pages[p].normal_png_size);
    }
    for (int i = 0; i < 3; i++) {
        assert_string_equal(got.images[i].name, images[i].name);
        assert_memory_equal(&got.images[i].page, &images[i].page, 9 * sizeof(int32_t));
    }
    mf_build_atlas_free(&got);
    for (size_t cut = 0; cut < len; cut++) /* a shorter bundle never decodes */
        if (mf_build_atlas_decode(payload, cut, &got)) fail_msg("a payload cut to %zu bytes decoded", cut);
    free(payload);
    images[2].x = 40; /* 40 + 30 > 64: off its page */
    assert_int_equal(mf_build_atlas_encode(&at, &payload, &len), MF_OK);
    assert_false(mf_build_atlas_decode(payload, len, &got));
    assert_null(got.pages);
    free(payload);
    images[2].x = 26;
    images[1].name = c, images[2].name = b; /* out of name order: the build binary-searches */
    assert_int_equal(mf_build_atlas_encode(&at, &payload, &len), MF_OK);
    assert_false(mf_build_atlas_decode(payload, len, &got));
    free(payload);
    mf_build_atlas empty = {0};
    assert_int_equal(mf_build_atlas_encode(&empty, &payload, &len), MF_OK);
    assert_true(mf_build_atlas_decode(payload, len, &got));
    assert_int_equal(got.page_count, 0);
    mf_build_atlas_free(&got);
    free(payload);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(entry_round_trip_and_corruption),
        cmocka_unit_test(cache_folder),
        cmocka_unit_test(atlas_payload),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
