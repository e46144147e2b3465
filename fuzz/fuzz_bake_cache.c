/* Fuzz the bake cache entry reader and the bundle reader behind it: any bytes give a located
 * error or a payload, never a crash. */
#include <stdint.h>
#include <stdlib.h>

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
        free(payload);
    }
    mf_bake_item *items = NULL;
    int32_t n = 0;
    if (mf_bake_bundle_decode(data, size, &items, &n, &d) == MF_OK) free(items);
    return 0;
}
