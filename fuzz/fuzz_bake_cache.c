/* Fuzz the bake cache entry reader, the bundle reader behind it and the atlas entry reader
 * (pages and placements): any bytes give a located error, a miss or a payload, never a crash. */
#include <stdint.h>
#include <stdlib.h>

#include "build/build_internal.h"
#include "mf/mf_bake_cache.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    void *payload = NULL;
    size_t len = 0;
    mf_diag d;
    if (mf_bake_entry_decode(data, size, NULL, &payload, &len, &d) == MF_OK) {
        mf_bake_item *items = NULL;
        int32_t n = 0;
        if (mf_bake_bundle_decode(payload, len, &items, &n, &d) == MF_OK) free(items);
        mf_build_atlas at;
        if (mf_build_atlas_decode(payload, len, &at)) mf_build_atlas_free(&at);
        free(payload);
    }
    mf_bake_item *items = NULL;
    int32_t n = 0;
    if (mf_bake_bundle_decode(data, size, &items, &n, &d) == MF_OK) free(items);
    mf_build_atlas at;
    if (mf_build_atlas_decode(data, size, &at)) mf_build_atlas_free(&at);
    return 0;
}
