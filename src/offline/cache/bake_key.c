/* SHA-256 keys for the bake cache (nettle). */
#include <nettle/sha2.h>
#include <stdlib.h>
#include <string.h>

#include "mf/mf_bake_cache.h"

struct mf_bake_hasher {
    struct sha256_ctx ctx;
};

mf_bake_hasher *mf_bake_hasher_new(void)
{
    mf_bake_hasher *h = malloc(sizeof *h);
    if (h) sha256_init(&h->ctx);
    return h;
}

void mf_bake_hash(mf_bake_hasher *h, const void *data, size_t len)
{
    if (h && len) sha256_update(&h->ctx, len, data);
}

void mf_bake_hash_u64(mf_bake_hasher *h, uint64_t v)
{
    uint8_t b[8];
    for (int i = 0; i < 8; i++) b[i] = (uint8_t)(v >> (8 * i));
    mf_bake_hash(h, b, 8);
}

void mf_bake_hash_field(mf_bake_hasher *h, const void *data, size_t len)
{
    mf_bake_hash_u64(h, len);
    mf_bake_hash(h, data, len);
}

void mf_bake_hash_str(mf_bake_hasher *h, const char *s)
{
    if (!s) mf_bake_hash_u64(h, UINT64_MAX); /* NULL differs from "" */
    else mf_bake_hash_field(h, s, strlen(s));
}

void mf_bake_hasher_finish(mf_bake_hasher *h, mf_bake_key *out)
{
    if (!h) {
        memset(out, 0, sizeof *out);
        return;
    }
    sha256_digest(&h->ctx, SHA256_DIGEST_SIZE, out->bytes);
    free(h);
}

void mf_bake_key_hex(const mf_bake_key *k, char out[65])
{
    static const char hex[] = "0123456789abcdef";
    for (int i = 0; i < 32; i++) {
        out[2 * i] = hex[k->bytes[i] >> 4];
        out[2 * i + 1] = hex[k->bytes[i] & 15];
    }
    out[64] = '\0';
}
