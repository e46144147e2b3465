/* Fuzzes the Spine atlas reader: any input either fails with a located message or reads into
 * regions that lie inside their page and their original size, and that lookups find. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mf/mf_spine.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    mf_diag diag;
    mf_atlas *at = NULL;
    if (mf_atlas_parse((const char *)data, size, "fuzz.atlas", &at, &diag) != MF_OK) {
        if (at || !diag.message[0]) abort();
        return 0;
    }
    if (at->page_count < 1) abort();
    for (int32_t i = 0; i < at->region_count; i++) {
        const mf_atlas_region *g = &at->regions[i];
        if (g->page < 0 || g->page >= at->page_count || !g->name) abort();
        if (g->degrees != 0 && g->degrees != 90 && g->degrees != 180 && g->degrees != 270) abort();
        if (g->width < 0 || g->height < 0 || g->orig_width <= 0 || g->orig_height <= 0) abort();
        if ((int64_t)g->offset_x + g->width > g->orig_width || (int64_t)g->offset_y + g->height > g->orig_height)
            abort();
        if (!mf_atlas_find(at, g->name)) abort();
    }
    mf_atlas_free(at);
    return 0;
}
