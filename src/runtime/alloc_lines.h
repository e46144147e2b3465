/* Instance blocks on whole cache lines (not public): 64-byte aligned and a multiple of 64 bytes
 * long, so that two instances updated on two threads never share a line, and a block's first
 * line holds its hottest fields. The allocator's own pointer sits just before the block. */
#ifndef MF_ALLOC_LINES_H
#define MF_ALLOC_LINES_H

#include <stdint.h>
#include <string.h>

#include "mf/mf_base.h"

#define MF_LINE 64u

static inline size_t mf_lines_round(size_t n) { return (n + MF_LINE - 1) & ~(size_t)(MF_LINE - 1); }

/* A block of size bytes (rounded up to lines) whose first zero bytes are cleared (the rest as
 * the allocator gives it: pages an allocator maps fresh and nothing writes are never
 * committed, so capacity sized for a worst case costs address space only); NULL when out of
 * memory or too large. cold: through the allocator's cold hooks (mf_alloc_cold). */
static inline void *mf_alloc_lines_part(const mf_allocator *al, size_t size, bool cold, size_t zero)
{
    if (size > SIZE_MAX / 2) return NULL;
    size_t n = mf_lines_round(size);
    size_t raw_size = n + MF_LINE + sizeof(void *);
    unsigned char *raw = cold ? mf_alloc_cold(al, raw_size) : mf_alloc(al, raw_size);
    if (!raw) return NULL;
    uintptr_t at = ((uintptr_t)raw + sizeof(void *) + MF_LINE - 1) & ~(uintptr_t)(MF_LINE - 1);
    unsigned char *block = raw + (at - (uintptr_t)raw);
    memcpy(block - sizeof(void *), &raw, sizeof raw);
    memset(block, 0, zero < n ? zero : n);
    return block;
}

/* Arrays laid out in one block, each on 16 bytes (SIMD loads): a first pass with base NULL only
 * sums the sizes, a second carves the block it sized. */
typedef struct mf_lines_layout {
    unsigned char *base;
    size_t used;
} mf_lines_layout;

static inline void *mf_lines_carve(mf_lines_layout *l, size_t count, size_t elem)
{
    size_t at = (l->used + 15u) & ~(size_t)15u;
    l->used = at + count * elem;
    return l->base ? l->base + at : NULL;
}

/* A zeroed block through alloc. */
static inline void *mf_alloc_lines(const mf_allocator *al, size_t size) { return mf_alloc_lines_part(al, size, false, SIZE_MAX); }

/* As mf_lines_carve, the array starting on a line of its own (the block is line aligned): a
 * frame that reads records of a line each, or the whole array, touches no line more. */
static inline void *mf_lines_carve_line(mf_lines_layout *l, size_t count, size_t elem)
{
    size_t at = mf_lines_round(l->used);
    l->used = at + count * elem;
    return l->base ? l->base + at : NULL;
}

static inline void mf_free_lines_of(const mf_allocator *al, void *block, bool cold)
{
    if (!block) return;
    void *raw;
    memcpy(&raw, (unsigned char *)block - sizeof(void *), sizeof raw);
    if (cold) mf_free_cold(al, raw);
    else mf_free(al, raw);
}

static inline void mf_free_lines(const mf_allocator *al, void *block) { mf_free_lines_of(al, block, false); }

/* An instance's two blocks (a pose's, a tracks', a draw list's): hot, what every frame touches,
 * through alloc; cold, the rest, through mf_alloc_cold; the first hot_zero and cold_zero bytes
 * cleared. Returns the hot one and sets *cold_out; NULL when either fails, neither kept. */
static inline void *mf_alloc_lines_two(const mf_allocator *al, size_t hot, size_t cold, size_t hot_zero,
                                       size_t cold_zero, void **cold_out)
{
    void *h = mf_alloc_lines_part(al, hot, false, hot_zero);
    void *c = h ? mf_alloc_lines_part(al, cold, true, cold_zero) : NULL;
    if (!c) mf_free_lines(al, h), h = NULL;
    *cold_out = c;
    return h;
}

static inline void mf_free_lines_two(const mf_allocator *al, void *hot, void *cold)
{
    mf_free_lines_of(al, cold, true);
    mf_free_lines(al, hot);
}
#endif
