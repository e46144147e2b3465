/* mf_pack.h — a general rectangle packer: MaxRects, best short-side fit, no rotation.
 *
 * Offline module (libmf_offline). Packs rectangles into as few pages of at most
 * max_width × max_height as it can, keeping `padding` free pixels around every rectangle
 * (inside the page too), so a caller can extrude edges into them. Deterministic: the same
 * input gives the same placement.
 *
 *     mf_pack_rect r[2] = {{.w = 30, .h = 20}, {.w = 64, .h = 64}};
 *     mf_pack_options o = {.max_width = 2048, .max_height = 2048, .padding = 2};
 *     mf_pack_result res;
 *     if (mf_pack(r, 2, &o, &res, &diag) == MF_OK) { r[i].page, r[i].x, r[i].y; res.pages[p].width … }
 *     mf_pack_result_free(&res);
 */
#ifndef MF_PACK_H
#define MF_PACK_H

#include "mf/mf_base.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct mf_pack_rect {
    int32_t w, h;       /* in: size without padding (>= 0; 0-sized rects get page 0, x = y = padding) */
    int32_t page, x, y; /* out: page and top-left corner of the unpadded rectangle */
} mf_pack_rect;

typedef struct mf_pack_options {
    int32_t max_width, max_height; /* page limit (1..65536) */
    int32_t padding;               /* free pixels on every side of every rectangle (0..256) */
    bool fixed_size;               /* pages keep max size; otherwise each shrinks to what it uses */
} mf_pack_options;

typedef struct mf_pack_page {
    int32_t width, height; /* page size */
    int64_t used;          /* area of the rectangles (with padding) on it */
} mf_pack_page;

typedef struct mf_pack_result {
    int32_t page_count;
    mf_pack_page *pages; /* malloc'd */
    double occupancy;    /* used area / page area over every page, 0..1 */
} mf_pack_result;

/* Packs rects in place. MF_ERR_INVALID (with "rects[i]" as the place) when a rectangle plus its
 * padding cannot fit a page; MF_ERR_ARGUMENT for bad options; MF_ERR_NOMEM. */
mf_result mf_pack(mf_pack_rect *rects, int32_t count, const mf_pack_options *opt, mf_pack_result *out,
                  mf_diag *diag);
void mf_pack_result_free(mf_pack_result *res);

#ifdef __cplusplus
}
#endif
#endif
