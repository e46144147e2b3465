/* mf_bake_cache.h — the on-disk cache of skeleton builds (offline module).
 *
 * Where: $MF_SKELETON_BAKE_CACHE_DIR when set ("off" disables the cache), else
 * $XDG_CACHE_HOME/mfanim/skeleton-bakes/, else ~/.cache/mfanim/skeleton-bakes/.
 * Entries are named by their key (SHA-256, 64 hex digits) and hold one zstd-compressed payload:
 *
 *     offset 0   magic "MFBAKE\0\1", uint32 MF_BAKE_CACHE_VERSION, uint32 0
 *     offset 16  the key (32 bytes)
 *     offset 48  uint64 payload size, then the payload's SHA-256 (32 bytes)
 *     offset 88  one zstd frame
 *
 * A missing, short or corrupt entry (any check above, or a payload of another size or hash) is
 * a miss; failed writes only log a warning (stderr). Writes are atomic (temporary + rename).
 * A payload is usually a bundle: named byte strings (mf_bake_bundle_*).
 */
#ifndef MF_BAKE_CACHE_H
#define MF_BAKE_CACHE_H

#include "mf/mf_base.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MF_BAKE_CACHE_VERSION 1u
#define MF_BAKE_ENTRY_HEADER 88u
#define MF_BAKE_MAX_PAYLOAD ((uint64_t)1 << 31) /* a corrupt size must not allocate more */

typedef struct mf_bake_key {
    uint8_t bytes[32];
} mf_bake_key;

/* Incremental SHA-256 (nettle). */
typedef struct mf_bake_hasher mf_bake_hasher;
mf_bake_hasher *mf_bake_hasher_new(void); /* NULL: out of memory */
void mf_bake_hash(mf_bake_hasher *h, const void *data, size_t len);
/* Length-prefixed, so ("ab", "c") and ("a", "bc") differ. */
void mf_bake_hash_field(mf_bake_hasher *h, const void *data, size_t len);
void mf_bake_hash_str(mf_bake_hasher *h, const char *s);
void mf_bake_hash_u64(mf_bake_hasher *h, uint64_t v);
/* Writes the digest and frees h. */
void mf_bake_hasher_finish(mf_bake_hasher *h, mf_bake_key *out);
void mf_bake_key_hex(const mf_bake_key *k, char out[65]);

typedef struct mf_bake_cache {
    bool enabled;
    char dir[4096]; /* with a trailing '/' */
} mf_bake_cache;

/* From the environment (see above). Disabled when no folder can be named (no HOME). */
void mf_bake_cache_init(mf_bake_cache *c);
/* Reads and decodes the entry of key: true and a malloc'd payload on a hit, false on a miss. */
bool mf_bake_cache_get(const mf_bake_cache *c, const mf_bake_key *key, void **payload, size_t *len);
/* Stores a payload (creating the folders); failures print one warning and return false. */
bool mf_bake_cache_put(const mf_bake_cache *c, const mf_bake_key *key, const void *payload, size_t len);

/* The entry format. decode checks everything; key NULL accepts any key. MF_ERR_CORRUPT with
 * the place ("offset 16" …) for anything wrong, MF_ERR_NOMEM. */
mf_result mf_bake_entry_encode(const mf_bake_key *key, const void *payload, size_t len, void **entry,
                               size_t *entry_len);
mf_result mf_bake_entry_decode(const void *entry, size_t len, const mf_bake_key *key, void **payload,
                               size_t *payload_len, mf_diag *diag);

/* Bundles: uint32 count, then per item uint32 name length, name, uint64 size, bytes. */
typedef struct mf_bake_item {
    const char *name; /* decode: NUL-terminated copy inside the items allocation */
    const void *data; /* decode: points into the payload */
    size_t size;
} mf_bake_item;
mf_result mf_bake_bundle_encode(const mf_bake_item *items, int32_t count, void **out, size_t *len);
/* *items is one malloc'd block (free() it); data pointers point into `data`, keep it alive. */
mf_result mf_bake_bundle_decode(const void *data, size_t len, mf_bake_item **items, int32_t *count, mf_diag *diag);

#ifdef __cplusplus
}
#endif
#endif
