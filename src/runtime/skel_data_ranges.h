/* Answers for loader checks that many records may ask over shared ranges of one pool: within
 * a budget (what an honest build's records cost: the pool's size where their ranges are
 * disjoint) the caller walks each range; past it one temporary table, built once, answers a
 * range at once. A table that fails to allocate leaves the caller walking: slower, never a
 * different answer. */
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

/* Ranges of values that form one run: each valid, and each after the first following on from
 * the one before (key times: finite and not before the previous; vertex spans: 1..16
 * influences, starting where the previous ends). */
typedef struct mf_sd_runs {
    const void *v;
    int32_t n;
    bool (*valid)(const void *v, int32_t j);
    bool (*follows)(const void *v, int32_t j); /* v[j] on from v[j - 1] (j >= 1, both valid) */
    int64_t budget;
    bool built;
    int32_t *start; /* per value: the first of the run it ends, -1 not valid */
} mf_sd_runs;

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

/* budget: the values walked before the table (the pool's size, or what a build's records
 * check at most). */
void mf_sd_runs_init(mf_sd_runs *r, const void *v, int32_t n, int64_t budget, bool (*valid)(const void *, int32_t),
                     bool (*follows)(const void *, int32_t));
/* True when v[first .. first + count) is one run; false: the caller walks. */
bool mf_sd_runs_table_ok(mf_sd_runs *r, int32_t first, int32_t count);
static inline bool mf_sd_runs_ok(mf_sd_runs *r, int32_t first, int32_t count)
{
    if (!r->built && count <= r->budget) {
        r->budget -= count;
        return count <= 0;
    }
    return mf_sd_runs_table_ok(r, first, count);
}
void mf_sd_runs_free(mf_sd_runs *r);
#endif
