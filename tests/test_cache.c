#define _POSIX_C_SOURCE 200809L
/* The bake cache: entries round-trip; hit, miss, corrupt and short entries, disabled and
 * unwritable caches; a rebuild from a corrupted cache gives the same bytes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(entry_round_trip_and_corruption),
        cmocka_unit_test(cache_folder),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
