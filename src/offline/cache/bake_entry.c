/* Bake cache entries (header, key, payload hash, zstd frame) and bundles of named blobs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "mf/mf_bake_cache.h"

static const char MAGIC[8] = {'M', 'F', 'B', 'A', 'K', 'E', 0, 1};

static void put_u32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}
static void put_u64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i));
}
static uint32_t get_u32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static uint64_t get_u64(const uint8_t *p) { return (uint64_t)get_u32(p) | (uint64_t)get_u32(p + 4) << 32; }

static void digest(const void *data, size_t len, mf_bake_key *out)
{
    mf_bake_hasher *h = mf_bake_hasher_new();
    mf_bake_hash(h, data, len);
    mf_bake_hasher_finish(h, out);
}

mf_result mf_bake_entry_encode(const mf_bake_key *key, const void *payload, size_t len, void **entry, size_t *entry_len)
{
    *entry = NULL;
    *entry_len = 0;
    size_t bound = ZSTD_compressBound(len);
    uint8_t *out = malloc(MF_BAKE_ENTRY_HEADER + bound);
    if (!out) return MF_ERR_NOMEM;
    memcpy(out, MAGIC, 8);
    put_u32(out + 8, MF_BAKE_CACHE_VERSION);
    put_u32(out + 12, 0);
    memcpy(out + 16, key->bytes, 32);
    put_u64(out + 48, len);
    mf_bake_key h;
    digest(payload, len, &h);
    memcpy(out + 56, h.bytes, 32);
    size_t z = ZSTD_compress(out + MF_BAKE_ENTRY_HEADER, bound, payload, len, 3);
    if (ZSTD_isError(z)) {
        free(out);
        return MF_ERR_NOMEM;
    }
    *entry = out;
    *entry_len = MF_BAKE_ENTRY_HEADER + z;
    return MF_OK;
}

static mf_result corrupt(mf_diag *diag, size_t at, const char *msg)
{
    char where[40];
    snprintf(where, sizeof where, "offset %zu", at);
    mf_diag_set(diag, "", where, "%s", msg);
    return MF_ERR_CORRUPT;
}

mf_result mf_bake_entry_decode(const void *entry, size_t len, const mf_bake_key *key, void **payload,
                               size_t *payload_len, mf_diag *diag)
{
    *payload = NULL;
    *payload_len = 0;
    const uint8_t *p = entry;
    if (!p || len < MF_BAKE_ENTRY_HEADER) return corrupt(diag, len, "short entry (no full header)");
    if (memcmp(p, MAGIC, 8) != 0) return corrupt(diag, 0, "not a bake cache entry (magic)");
    if (get_u32(p + 8) != MF_BAKE_CACHE_VERSION) return corrupt(diag, 8, "another cache version");
    if (get_u32(p + 12) != 0) return corrupt(diag, 12, "reserved field not zero");
    if (key && memcmp(p + 16, key->bytes, 32) != 0) return corrupt(diag, 16, "the entry holds another key");
    uint64_t size = get_u64(p + 48);
    if (size > MF_BAKE_MAX_PAYLOAD) return corrupt(diag, 48, "payload size too large");
    const uint8_t *z = p + MF_BAKE_ENTRY_HEADER;
    size_t zlen = len - MF_BAKE_ENTRY_HEADER;
    unsigned long long fsize = ZSTD_getFrameContentSize(z, zlen);
    if (fsize != size) return corrupt(diag, MF_BAKE_ENTRY_HEADER, "the zstd frame's size differs from the header");
    uint8_t *out = malloc(size ? (size_t)size : 1);
    if (!out) {
        mf_diag_set(diag, "", "", "out of memory");
        return MF_ERR_NOMEM;
    }
    size_t got = ZSTD_decompress(out, (size_t)size, z, zlen);
    if (ZSTD_isError(got) || got != size) {
        free(out);
        return corrupt(diag, MF_BAKE_ENTRY_HEADER, "the zstd frame does not decompress");
    }
    mf_bake_key h;
    digest(out, (size_t)size, &h);
    if (memcmp(h.bytes, p + 56, 32) != 0) {
        free(out);
        return corrupt(diag, 56, "payload hash mismatch");
    }
    *payload = out;
    *payload_len = (size_t)size;
    return MF_OK;
}

mf_result mf_bake_bundle_encode(const mf_bake_item *items, int32_t count, void **out, size_t *len)
{
    *out = NULL;
    *len = 0;
    size_t total = 4;
    for (int32_t i = 0; i < count; i++) total += 4 + strlen(items[i].name) + 8 + items[i].size;
    uint8_t *b = malloc(total), *q = b;
    if (!b) return MF_ERR_NOMEM;
    put_u32(q, (uint32_t)count);
    q += 4;
    for (int32_t i = 0; i < count; i++) {
        size_t nl = strlen(items[i].name);
        put_u32(q, (uint32_t)nl);
        memcpy(q + 4, items[i].name, nl);
        q += 4 + nl;
        put_u64(q, items[i].size);
        if (items[i].size) memcpy(q + 8, items[i].data, items[i].size);
        q += 8 + items[i].size;
    }
    *out = b;
    *len = total;
    return MF_OK;
}

mf_result mf_bake_bundle_decode(const void *data, size_t len, mf_bake_item **items, int32_t *count, mf_diag *diag)
{
    *items = NULL;
    *count = 0;
    const uint8_t *p = data;
    if (!p || len < 4) return corrupt(diag, 0, "short bundle");
    uint32_t n = get_u32(p);
    if (n > len / 12) return corrupt(diag, 0, "bundle item count larger than the bundle");
    /* first pass: bounds and the room the names need */
    size_t at = 4, names = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (len - at < 4) return corrupt(diag, at, "bundle item truncated");
        uint32_t nl = get_u32(p + at);
        if (nl > len - at - 4 || len - at - 4 - nl < 8) return corrupt(diag, at, "bundle item name truncated");
        at += 4 + nl;
        uint64_t sz = get_u64(p + at);
        if (sz > len - at - 8) return corrupt(diag, at, "bundle item data truncated");
        at += 8 + (size_t)sz;
        names += nl + 1;
    }
    if (at != len) return corrupt(diag, at, "trailing bytes after the bundle");
    mf_bake_item *it = malloc((size_t)n * sizeof *it + names + 1);
    if (!it) {
        mf_diag_set(diag, "", "", "out of memory");
        return MF_ERR_NOMEM;
    }
    char *nb = (char *)(it + n);
    at = 4;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t nl = get_u32(p + at);
        memcpy(nb, p + at + 4, nl);
        nb[nl] = '\0';
        it[i].name = nb;
        nb += nl + 1;
        at += 4 + nl;
        it[i].size = (size_t)get_u64(p + at);
        it[i].data = p + at + 8;
        at += 8 + it[i].size;
    }
    *items = it;
    *count = (int32_t)n;
    return MF_OK;
}
