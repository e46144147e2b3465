/* Answers for loader checks that many records may ask over shared ranges of one pool: within
 * a budget (the pool's size: what an honest build's disjoint ranges cost) the caller walks
 * each range; past it one temporary table, built once, answers a range at once. A table that
 * fails to allocate leaves the caller walking: slower, never a different answer. */
#ifndef MF_SKEL_DATA_RANGES_H
#define MF_SKEL_DATA_RANGES_H
#include <stdbool.h>
#include <stdint.h>

/* The largest of the u16 values in a range: every value of the range below a limit. */
typedef struct mf_sd_max16 {
    const uint16_t *v;
    int32_t n;
    int64_t budget; /* values still walked before the table */
    bool built;     /* the table was tried */
    int32_t blocks, levels;
    uint16_t *table; /* levels × blocks: level l, block b = the maximum of blocks b..b + 2^l - 1 */
} mf_sd_max16;

/* Ranges of float values that ascend (each >= the one before) and are all finite. */
typedef struct mf_sd_ascend {
    const float *v;
    int32_t n;
    int64_t budget;
    bool built;
    int32_t *start; /* per value: the first of the ascending finite run it ends, -1 not finite */
} mf_sd_ascend;

void mf_sd_max16_init(mf_sd_max16 *m, const uint16_t *v, int32_t n);
/* True when every v[first .. first + count) is below limit; false: the caller walks the range
 * (charged to the budget) and finds the first one that is not. The range is in bounds. */
bool mf_sd_max16_table_below(mf_sd_max16 *m, int32_t first, int32_t count, int32_t limit);
static inline bool mf_sd_max16_below(mf_sd_max16 *m, int32_t first, int32_t count, int32_t limit)
{
    if (!m->built && count <= m->budget) { /* within the budget (every honest build): walk */
        m->budget -= count;
        return count <= 0;
    }
    return mf_sd_max16_table_below(m, first, count, limit);
}
void mf_sd_max16_free(mf_sd_max16 *m);

void mf_sd_ascend_init(mf_sd_ascend *a, const float *v, int32_t n);
/* True when v[first .. first + count) ascends and is finite; false: the caller walks. */
bool mf_sd_ascend_table_ok(mf_sd_ascend *a, int32_t first, int32_t count);
static inline bool mf_sd_ascend_ok(mf_sd_ascend *a, int32_t first, int32_t count)
{
    if (!a->built && count <= a->budget) {
        a->budget -= count;
        return count <= 0;
    }
    return mf_sd_ascend_table_ok(a, first, count);
}
void mf_sd_ascend_free(mf_sd_ascend *a);
#endif
