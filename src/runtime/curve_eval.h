/* Evaluating the pre-sampled curves, shared by mf_skel_data_curve and the clip sampler (which
 * inlines it: it runs once per timeline and frame). */
#ifndef MF_CURVE_EVAL_H
#define MF_CURVE_EVAL_H
#include "mf/mf_skel_data.h"

/* inlined whatever the compiler's size estimate: the sampler's loop calls these per timeline */
#if defined(__GNUC__)
#define MF_CURVE_INLINE static inline __attribute__((always_inline))
#else
#define MF_CURVE_INLINE static inline
#endif

#if defined(__SSE2__) && defined(__GNUC__) && !defined(MF_NO_SIMD)
#define MF_CURVE_SSE2 1
#include <emmintrin.h>
#if defined(__AVX2__)
#include <immintrin.h>
#endif
#else
#define MF_CURVE_SSE2 0
#endif

/* The number of samples of b below u (0..9). x ascends (checked at load), so those below u are
 * the first ones: with x[4] below u they are x[0..4] and a prefix of x[5..8], else a prefix of
 * x[0..3]; SSE counts that prefix in one 4-lane compare (whatever the data, the count stays
 * within 0..9). Built for AVX2 (pose_table_avx2.c), x[0..7] in one 8-lane compare, counted,
 * and x[8]: the same count (NaN u: 0 either way). */
MF_CURVE_INLINE unsigned mf_bezier_below_ux(const float *x, float u)
{
    _Static_assert(MF_SD_CURVE_SAMPLES == 9, "the search below is written for 9 samples");
#if MF_CURVE_SSE2 && defined(__AVX2__)
    __m256 lt = _mm256_cmp_ps(_mm256_set1_ps(u), _mm256_loadu_ps(x), _CMP_GT_OQ); /* x < u: x from memory */
    return (unsigned)__builtin_popcount((unsigned)_mm256_movemask_ps(lt)) + (unsigned)(x[8] < u);
#elif MF_CURVE_SSE2
    unsigned h = x[4] < u ? 5u : 0u;
    unsigned m = (unsigned)_mm_movemask_ps(_mm_cmplt_ps(_mm_loadu_ps(x + h), _mm_set1_ps(u)));
    return h + (unsigned)__builtin_ctz(~m);
#else /* branchless binary search */
    unsigned i = x[4] < u ? 4u : 0u; /* the answer lies in i..i + 5 */
    i += x[i + 2] < u ? 2u : 0u;
    i += x[i + 1] < u;
    i += x[i + 1] < u;
    return i + (x[i] < u);
#endif
}

/* (unsigned: an index without a sign extension) */
MF_CURVE_INLINE int mf_bezier_below_x(const float *x, float u) { return (int)mf_bezier_below_ux(x, u); }

MF_CURVE_INLINE int mf_bezier_below(const mf_sd_bezier *b, float u) { return mf_bezier_below_x(b->x, u); }

/* A bezier's linear pieces at 0 < u < 1: the piece holding u is the first sample x >= u and the
 * one before ((0,0) before the first, (1,1) after the last). */
MF_CURVE_INLINE float mf_bezier_at(const mf_sd_bezier *b, float u)
{
    const float *x = b->x, *y = b->y;
    int i = mf_bezier_below(b, u);
    float x0, y0, x1, y1;
    if ((unsigned)(i - 1) < (unsigned)(MF_SD_CURVE_SAMPLES - 1)) /* an inner piece */
        x0 = x[i - 1], y0 = y[i - 1], x1 = x[i], y1 = y[i];
    else if (i == 0)
        x0 = 0.0f, y0 = 0.0f, x1 = x[0], y1 = y[0];
    else
        x0 = x[MF_SD_CURVE_SAMPLES - 1], y0 = y[MF_SD_CURVE_SAMPLES - 1], x1 = 1.0f, y1 = 1.0f;
    float w = x1 - x0;
    return w > 0.0f ? y0 + (y1 - y0) * (u - x0) / w : y1;
}

/* mf_skel_data_curve's body for a data d: curve code's eased fraction at u (0 at or before 0,
 * 1 from 1, 0 stepped, u linear), inline for the samplers that call it every frame. */
MF_CURVE_INLINE float mf_sd_curve_at(const mf_skel_data *d, int32_t code, float u)
{
    if (!(u > 0.0f)) return 0.0f;
    if (u >= 1.0f) return 1.0f;
    if (code == MF_SD_CURVE_STEPPED) return 0.0f;
    if (code < 0 || code >= d->bezier_count) return u; /* linear */
    return mf_bezier_at(&d->beziers[code], u);
}

/* A bezier prepared for mf_bz_prep_at (a shared table holds one per bezier of its data): the
 * samples' x for the search, then per piece what mf_bezier_at picks and forms
 * from them (x0, y0, y1 - y0, x1 - x0), one index away instead of three cases. */
typedef struct mf_bz_prep {
    /* piece i (mf_bezier_below's count): x0, y0, y1 - y0, x1 - x0, each an array of its own
     * (first: one scaled index addresses all four, no multiply or add); piece 10: u = 1 */
    float x0[11], y0[11], dy[11], w[11];
    float x[12]; /* the 9 samples' x at most the float below 1 (for u < 1 the same count), that
                  * float, 1, 1: only u = 1 lies above all ten */
} mf_bz_prep;

/* Whether mf_bz_prep_at takes u = 1 too (AVX2: all ten samples counted, piece 10 gives 1) */
#if MF_CURVE_SSE2 && defined(__AVX2__)
#define MF_BZ_PREP_ONE 1
#else
#define MF_BZ_PREP_ONE 0
#endif

/* mf_bezier_at(b, u) for 0 < u < 1 from b's prepared pieces: the same operations on the same
 * values (a piece of width 0, never picked for checked data, gives y1 as mf_bezier_at does:
 * y1 + 0 of y1's zero sign, over width 1). At u = 0 it gives +0 (the first piece: 0 + +-0);
 * where MF_BZ_PREP_ONE, at u = 1 it gives 1 (1 + 0 * 0 / 1). */
MF_CURVE_INLINE float mf_bz_prep_at(const mf_bz_prep *q, float u)
{
#if MF_BZ_PREP_ONE /* x[0..7] in 8 lanes, x[8..11] in 4: two counts, no branch for u = 1 */
    __m256 uv = _mm256_set1_ps(u);
    __m256 lt8 = _mm256_cmp_ps(uv, _mm256_loadu_ps(q->x), _CMP_GT_OQ);
    __m128 lt4 = _mm_cmp_ps(_mm256_castps256_ps128(uv), _mm_loadu_ps(q->x + 8), _CMP_GT_OQ);
    size_t i = (unsigned)__builtin_popcount((unsigned)_mm256_movemask_ps(lt8)) +
               (unsigned)__builtin_popcount((unsigned)_mm_movemask_ps(lt4));
#else
    size_t i = mf_bezier_below_ux(q->x, u);
#endif
    return q->y0[i] + q->dy[i] * (u - q->x0[i]) / q->w[i];
}

/* Prepares bezier b. */
static inline void mf_bz_prepare(mf_bz_prep *q, const mf_sd_bezier *b)
{
    const float below1 = 0x1.fffffep-1f;
    for (int i = 0; i < 12; i++)
        q->x[i] = i < MF_SD_CURVE_SAMPLES ? (b->x[i] < below1 ? b->x[i] : below1) : i == 9 ? below1 : 1.0f;
    for (int i = 0; i <= MF_SD_CURVE_SAMPLES; i++) {
        float x0 = 0.0f, y0 = 0.0f, x1 = 1.0f, y1 = 1.0f; /* mf_bezier_at's selection */
        if (i > 0) x0 = b->x[i - 1], y0 = b->y[i - 1];
        if (i < MF_SD_CURVE_SAMPLES) x1 = b->x[i], y1 = b->y[i];
        float w = x1 - x0, c[4];
        if (w > 0.0f) c[0] = x0, c[1] = y0, c[2] = y1 - y0, c[3] = w;
        else if (i == 0) c[0] = 0.0f, c[1] = 0.0f, c[2] = 0.0f, c[3] = 1.0f; /* only u = 0 finds it: 0 */
        else c[0] = 0.0f, c[1] = y1, c[2] = y1 == 0.0f ? y1 : 0.0f, c[3] = 1.0f;
        q->x0[i] = c[0], q->y0[i] = c[1], q->dy[i] = c[2], q->w[i] = c[3];
    }
    q->x0[10] = 1.0f, q->y0[10] = 1.0f, q->dy[10] = 0.0f, q->w[10] = 1.0f; /* u = 1: 1 + 0 */
}

/* A checked code (stepped, linear or a bezier of d) at u: 0 at or below 0 (and NaN), 1 from 1. */
static inline float mf_curve_at(const mf_skel_data *d, int32_t code, float u)
{
    if (code == MF_SD_CURVE_STEPPED || !(u > 0.0f)) return 0.0f;
    if (u >= 1.0f) return 1.0f;
    if (code < 0) return u;
    return mf_bezier_at(&d->beziers[code], u);
}
#endif
