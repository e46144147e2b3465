/* Weighted skinning with AVX, two vertices a step (one in each 128-bit lane), from bone
 * matrices packed {a, c, b, d, wx, wy, 0, 0}. Each lane does exactly what the SSE2 path does
 * for one vertex (same operations, same order), so the results are bit-identical to it.
 * Compiled for AVX through a target attribute and chosen at run time (mf_skin_avx_usable). */
#include "geom_skin.h"

#if MF_SKIN_AVX
#include <immintrin.h>

#define AVX __attribute__((target("avx")))

bool mf_skin_avx_usable(void)
{
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx");
}

/* Two 128-bit loads into the lanes of one register. */
AVX static inline __m256 load2(const float *lo, const float *hi)
{
    return _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(lo)), _mm_loadu_ps(hi), 1);
}

/* One influence pair of each lane: rec* point at {bone, weight, x, y} records, def* at the
 * pair's deform offsets (NULL: none). Returns the weighted world positions. */
AVX static inline __m256 pair_step(const float *mats, const mf_sd_influence *l0, const mf_sd_influence *h0,
                                   const float *dl, const float *dh)
{
    __m256 r0 = load2((const float *)l0, (const float *)h0);
    __m256 r1 = load2((const float *)(l0 + 1), (const float *)(h0 + 1));
    __m256 xs = _mm256_shuffle_ps(r0, r1, _MM_SHUFFLE(2, 2, 2, 2));
    __m256 ys = _mm256_shuffle_ps(r0, r1, _MM_SHUFFLE(3, 3, 3, 3));
    __m256 ws = _mm256_shuffle_ps(r0, r1, _MM_SHUFFLE(1, 1, 1, 1));
    if (dl) {
        __m256 dv = load2(dl, dh);
        xs = _mm256_add_ps(xs, _mm256_shuffle_ps(dv, dv, _MM_SHUFFLE(2, 2, 0, 0)));
        ys = _mm256_add_ps(ys, _mm256_shuffle_ps(dv, dv, _MM_SHUFFLE(3, 3, 1, 1)));
    }
    const float *q0 = mats + 8 * (size_t)l0[0].bone, *q1 = mats + 8 * (size_t)l0[1].bone;
    const float *q2 = mats + 8 * (size_t)h0[0].bone, *q3 = mats + 8 * (size_t)h0[1].bone;
    __m256 k0 = load2(q0, q2), k1 = load2(q1, q3);     /* a c b d */
    __m256 j0 = load2(q0 + 4, q2 + 4), j1 = load2(q1 + 4, q3 + 4); /* wx wy 0 0 */
    __m256 m1 = _mm256_shuffle_ps(k0, k1, _MM_SHUFFLE(1, 0, 1, 0));
    __m256 m2 = _mm256_shuffle_ps(k0, k1, _MM_SHUFFLE(3, 2, 3, 2));
    __m256 t = _mm256_shuffle_ps(j0, j1, _MM_SHUFFLE(1, 0, 1, 0));
    __m256 r = _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(xs, m1), _mm256_mul_ps(ys, m2)), t);
    return _mm256_mul_ps(r, ws);
}

/* The last influence of each lane when both vertices have an odd count: paired with a record
 * of weight 0 at the origin under an all-zero matrix, which adds the zero the SSE2 path adds
 * (not bone 0's matrix: a non-finite bone 0 would turn 0 × inf into NaN). */
AVX static inline __m256 last_step(const float *mats, const mf_sd_influence *l, const mf_sd_influence *h,
                                   const float *dl, const float *dh)
{
    static const mf_sd_influence none = {0, 0.0f, 0.0f, 0.0f};
    static const float zero_mat[8] = {0};
    __m256 r0 = load2((const float *)l, (const float *)h);
    __m256 r1 = load2((const float *)&none, (const float *)&none);
    __m256 xs = _mm256_shuffle_ps(r0, r1, _MM_SHUFFLE(2, 2, 2, 2));
    __m256 ys = _mm256_shuffle_ps(r0, r1, _MM_SHUFFLE(3, 3, 3, 3));
    __m256 ws = _mm256_shuffle_ps(r0, r1, _MM_SHUFFLE(1, 1, 1, 1));
    if (dl) { /* only this influence's two offsets: the deform may end right after them */
        __m128 z = _mm_setzero_ps();
        __m256 dv = _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadl_pi(z, (const __m64 *)(const void *)dl)),
                                         _mm_loadl_pi(z, (const __m64 *)(const void *)dh), 1);
        xs = _mm256_add_ps(xs, _mm256_shuffle_ps(dv, dv, _MM_SHUFFLE(2, 2, 0, 0)));
        ys = _mm256_add_ps(ys, _mm256_shuffle_ps(dv, dv, _MM_SHUFFLE(3, 3, 1, 1)));
    }
    const float *q0 = mats + 8 * (size_t)l->bone, *q2 = mats + 8 * (size_t)h->bone;
    __m256 k0 = load2(q0, q2), k1 = load2(zero_mat, zero_mat);
    __m256 j0 = load2(q0 + 4, q2 + 4), j1 = load2(zero_mat + 4, zero_mat + 4);
    __m256 m1 = _mm256_shuffle_ps(k0, k1, _MM_SHUFFLE(1, 0, 1, 0));
    __m256 m2 = _mm256_shuffle_ps(k0, k1, _MM_SHUFFLE(3, 2, 3, 2));
    __m256 t = _mm256_shuffle_ps(j0, j1, _MM_SHUFFLE(1, 0, 1, 0));
    __m256 r = _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(xs, m1), _mm256_mul_ps(ys, m2)), t);
    return _mm256_mul_ps(r, ws);
}


/* Sums the lanes' pairs: {x, y} of the low lane's vertex, then the high lane's. */
AVX static inline void store_two(__m256 acc, float *out)
{
    __m128 lo = _mm256_castps256_ps128(acc), hi = _mm256_extractf128_ps(acc, 1);
    _mm_storeu_ps(out, _mm_add_ps(_mm_shuffle_ps(lo, hi, _MM_SHUFFLE(1, 0, 1, 0)),
                                  _mm_shuffle_ps(lo, hi, _MM_SHUFFLE(3, 2, 3, 2))));
}

/* The common case: a run of vertices with two influences each, two vertices a step with
 * nothing to decide inside (deform: offsets per influence from infl_first, or NULL). Returns
 * where the run ends. Inlined twice, with and without deform. */
AVX static inline __attribute__((always_inline)) int32_t run_of_pairs(const float *mats, const mf_sd_span *spans,
                                                                      const mf_sd_influence *infl, const float *deform,
                                                                      int32_t infl_first, int32_t i, int32_t n, float *out)
{
    for (; i + 1 < n && spans[i].count == 2 && spans[i + 1].count == 2; i += 2) {
        int32_t f0 = spans[i].first, f1 = spans[i + 1].first;
        __m256 r = pair_step(mats, infl + f0, infl + f1, deform ? deform + 2 * (f0 - infl_first) : NULL,
                             deform ? deform + 2 * (f1 - infl_first) : NULL);
        store_two(_mm256_add_ps(_mm256_setzero_ps(), r), out + 2 * i);
    }
    return i;
}

AVX static int32_t run_plain(const float *mats, const mf_sd_span *spans, const mf_sd_influence *infl, int32_t i,
                             int32_t n, float *out)
{
    return run_of_pairs(mats, spans, infl, NULL, 0, i, n, out);
}

AVX static int32_t run_deformed(const float *mats, const mf_sd_span *spans, const mf_sd_influence *infl,
                                const float *deform, int32_t infl_first, int32_t i, int32_t n, float *out)
{
    return run_of_pairs(mats, spans, infl, deform, infl_first, i, n, out);
}

/* Every vertex with two influences stored in order: two vertices a step straight from the
 * influence records, no spans read. */
AVX static inline __attribute__((always_inline)) int32_t stream_pairs(const float *mats, const mf_sd_influence *in,
                                                                      const float *deform, int32_t n, float *out)
{
    int32_t i = 0;
    for (; i + 1 < n; i += 2) {
        const mf_sd_influence *a = in + 2 * i;
        __m256 r = pair_step(mats, a, a + 2, deform ? deform + 4 * i : NULL, deform ? deform + 4 * i + 4 : NULL);
        store_two(_mm256_add_ps(_mm256_setzero_ps(), r), out + 2 * i);
    }
    return i;
}

AVX static int32_t stream_plain(const float *mats, const mf_sd_influence *in, int32_t n, float *out)
{
    return stream_pairs(mats, in, NULL, n, out);
}

AVX static int32_t stream_deformed(const float *mats, const mf_sd_influence *in, const float *deform, int32_t n,
                                   float *out)
{
    return stream_pairs(mats, in, deform, n, out);
}

AVX void mf_skin_weighted_avx(const mf_skel_data *d, const float *mats, const mf_sd_attachment *at,
                              const float *deform, int32_t n, float *out, bool pairs)
{
    const mf_sd_span *spans = d->spans + at->vertex_first;
    const mf_sd_influence *infl = d->influences;
    int32_t i = 0;
    if (pairs) { /* the last vertex of an odd count goes through the loop below */
        const mf_sd_influence *in = infl + at->infl_first;
        i = deform ? stream_deformed(mats, in, deform, n, out) : stream_plain(mats, in, n, out);
    }
    while (i < n) {
        i = deform ? run_deformed(mats, spans, infl, deform, at->infl_first, i, n, out)
                   : run_plain(mats, spans, infl, i, n, out);
        if (i >= n) break;
        int32_t f0 = spans[i].first, c0 = spans[i].count;
        const float *d0 = deform ? deform + 2 * (f0 - at->infl_first) : NULL;
        /* two vertices with the same number of influences share every step */
        if (i + 1 < n && spans[i + 1].count == c0 && c0 > 0) {
            int32_t f1 = spans[i + 1].first;
            const float *d1 = deform ? deform + 2 * (f1 - at->infl_first) : NULL;
            __m256 acc = _mm256_setzero_ps();
            int32_t j = 0;
            for (; j + 2 <= c0; j += 2)
                acc = _mm256_add_ps(acc, pair_step(mats, infl + f0 + j, infl + f1 + j, d0 ? d0 + 2 * j : NULL,
                                                   d1 ? d1 + 2 * j : NULL));
            if (j < c0)
                acc = _mm256_add_ps(acc, last_step(mats, infl + f0 + j, infl + f1 + j, d0 ? d0 + 2 * j : NULL,
                                                   d1 ? d1 + 2 * j : NULL));
            store_two(acc, out + 2 * i);
            i += 2;
            continue;
        }
        mf_skin_one_packed(mats, infl + f0, c0, d0, out + 2 * i);
        i++;
    }
}
#endif
