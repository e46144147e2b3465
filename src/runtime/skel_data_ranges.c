/* Range tables for the loader's checks over shared ranges (see skel_data_ranges.h). */
#include "skel_data_ranges.h"

#include <stddef.h>

#include "mf/mf_base.h"

enum { BLOCK_SHIFT = 6, BLOCK = 1 << BLOCK_SHIFT };

static uint16_t max16(uint16_t a, uint16_t b) { return a > b ? a : b; }

static uint16_t walk_max(const uint16_t *v, int32_t lo, int32_t hi)
{
    uint16_t m = 0;
    for (int32_t i = lo; i < hi; i++) m = max16(m, v[i]);
    return m;
}

void mf_sd_max16_init(mf_sd_max16 *m, const uint16_t *v, int32_t n)
{
    *m = (mf_sd_max16){.v = v, .n = n, .budget = n};
}

/* Block maxima, then a sparse table over them: O(n) work, n / 64 × log entries. */
static void max16_build(mf_sd_max16 *m)
{
    m->built = true;
    int32_t blocks = (int32_t)(((int64_t)m->n + BLOCK - 1) >> BLOCK_SHIFT), levels = 1;
    while (levels < 31 && ((int64_t)1 << levels) <= blocks) levels++;
    m->table = mf_alloc(NULL, (size_t)blocks * (size_t)levels * sizeof(uint16_t));
    if (!m->table) return;
    m->blocks = blocks, m->levels = levels;
    for (int32_t b = 0; b < blocks; b++) {
        int32_t hi = (b + 1) * BLOCK < m->n ? (b + 1) * BLOCK : m->n;
        m->table[b] = walk_max(m->v, b * BLOCK, hi);
    }
    for (int32_t l = 1; l < levels; l++) {
        const uint16_t *prev = m->table + (size_t)(l - 1) * (size_t)blocks;
        uint16_t *cur = m->table + (size_t)l * (size_t)blocks;
        int32_t half = 1 << (l - 1);
        for (int32_t b = 0; b + 2 * half <= blocks; b++) cur[b] = max16(prev[b], prev[b + half]);
    }
}

/* The maximum of v[lo, hi), hi > lo, from the table: the partial blocks at the ends walked. */
static uint16_t max16_query(const mf_sd_max16 *m, int32_t lo, int32_t hi)
{
    int32_t bl = (int32_t)(((int64_t)lo + BLOCK - 1) >> BLOCK_SHIFT), bh = hi >> BLOCK_SHIFT;
    if (bl >= bh) return walk_max(m->v, lo, hi);
    uint16_t r = max16(walk_max(m->v, lo, bl * BLOCK), walk_max(m->v, bh * BLOCK, hi));
    int32_t l = 0;
    while (((int64_t)2 << l) <= bh - bl) l++;
    const uint16_t *row = m->table + (size_t)l * (size_t)m->blocks;
    return max16(r, max16(row[bl], row[bh - (1 << l)]));
}

bool mf_sd_max16_table_below(mf_sd_max16 *m, int32_t first, int32_t count, int32_t limit)
{
    if (count <= 0) return true;
    if (count > m->budget && !m->built) max16_build(m);
    if (m->table && max16_query(m, first, first + count) < limit) return true;
    m->budget -= count;
    return false;
}

void mf_sd_max16_free(mf_sd_max16 *m)
{
    mf_free(NULL, m->table);
    m->table = NULL;
}

void mf_sd_runs_init(mf_sd_runs *r, const void *v, int32_t n, int64_t budget, bool (*valid)(const void *, int32_t),
                     bool (*follows)(const void *, int32_t))
{
    *r = (mf_sd_runs){.v = v, .n = n, .valid = valid, .follows = follows, .budget = budget};
}

static void runs_build(mf_sd_runs *r)
{
    r->built = true;
    if ((uint64_t)r->n > SIZE_MAX / sizeof(int32_t)) return;
    r->start = mf_alloc(NULL, (size_t)r->n * sizeof(int32_t));
    if (!r->start) return;
    for (int32_t j = 0; j < r->n; j++) {
        bool valid = r->valid(r->v, j), chained = valid && j > 0 && r->start[j - 1] >= 0 && r->follows(r->v, j);
        r->start[j] = !valid ? -1 : chained ? r->start[j - 1] : j;
    }
}

bool mf_sd_runs_table_ok(mf_sd_runs *r, int32_t first, int32_t count)
{
    if (count <= 0) return true;
    if (count > r->budget && !r->built) runs_build(r);
    if (r->start) {
        int32_t s = r->start[first + count - 1];
        if (s >= 0 && s <= first) return true;
    }
    r->budget -= count;
    return false;
}

void mf_sd_runs_free(mf_sd_runs *r)
{
    mf_free(NULL, r->start);
    r->start = NULL;
}
