/* The MaxRects bin shared by the packer's files. */
#ifndef MF_PACK_INTERNAL_H
#define MF_PACK_INTERNAL_H
#include <stdbool.h>
#include <stdint.h>

#include "mf/mf_pack.h"

typedef struct mf_mr_box {
    int32_t x, y, w, h;
} mf_mr_box;

typedef struct mf_mr_bin {
    int32_t w, h;
    mf_mr_box *free; /* maximal free rectangles */
    int32_t count, cap;
    int64_t used;
} mf_mr_bin;

/* Best short-side fit score of one placement; lower is better, ties by position. */
typedef struct mf_mr_score {
    int32_t short_side, long_side, x, y;
} mf_mr_score;

void mf_mr_init(mf_mr_bin *b, int32_t w, int32_t h);
void mf_mr_free(mf_mr_bin *b);
bool mf_mr_reserve(mf_mr_bin *b, int32_t extra);
/* The best place for a w × h box; false when it fits nowhere. */
bool mf_mr_find(const mf_mr_bin *b, int32_t w, int32_t h, mf_mr_score *best);
bool mf_mr_better(const mf_mr_score *a, const mf_mr_score *b);
/* Takes r out of the free list (false: out of memory). */
bool mf_mr_place(mf_mr_bin *b, mf_mr_box r);
#endif
