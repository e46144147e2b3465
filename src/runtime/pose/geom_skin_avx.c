/* Weighted skinning with AVX: an influence is one 128-bit record broadcast to both halves and
 * one multiply by the bone's packed matrix {a, b, wx, 0 | c, d, wy, 0}, added into the vertex's
 * register (x's partial sums low, y's high); two vertices share the reduction. Same operations
 * and order as the SSE2 and scalar paths (geom_skin.h), so the bits are the same. Compiled for
 * AVX through a target attribute and chosen at run time (mf_skin_avx_usable). */
#include "geom_skin.h"

#if MF_SKIN_AVX
#include <immintrin.h>


#define AVX __attribute__((target("avx")))
#define INLINE __attribute__((always_inline)) inline

bool mf_skin_avx_usable(void)
{
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx");
}

/* One influence's share (def: its deform offsets, NULL none). */
AVX static INLINE __m256 share(const float *mats, const float *r, const float *def)
{
    const float *m = mats + (int64_t)r[3]; /* 64-bit convert: no sign extension after it */
    if (!def) return _mm256_mul_ps(_mm256_broadcast_ps((const __m128 *)(const void *)r), _mm256_loadu_ps(m));
    __m128 rec = mf_skin_rec_sse(r, def);
    return _mm256_mul_ps(_mm256_insertf128_ps(_mm256_castps128_ps256(rec), rec, 1), _mm256_loadu_ps(m));
}

/* A vertex's c records summed in order (def: its deform offsets for its first real records,
 * or NULL); the first lo (a constant, at most c) without a loop. */
AVX static INLINE __m256 vertex(const float *mats, const float *r, int32_t c, int32_t lo, const float *def,
                                int32_t real)
{
    __m256 acc = share(mats, r, def);
    int32_t j = 1;
    for (; j < lo; j++) acc = _mm256_add_ps(acc, share(mats, r + 4 * j, def ? mf_skin_def_at(def, j, real) : NULL));
    for (; j < c; j++) acc = _mm256_add_ps(acc, share(mats, r + 4 * j, def ? mf_skin_def_at(def, j, real) : NULL));
    return acc;
}

/* The reduction of two vertices, x = (s0 + s1) + (s2 + s3) and y likewise: {ax, ay, bx, by}. */
AVX static INLINE __m128 reduce_two(__m256 a, __m256 b)
{
    __m256 h = _mm256_hadd_ps(a, b);
    h = _mm256_hadd_ps(h, h); /* {ax, bx, ax, bx | ay, by, ay, by} */
    return _mm_unpacklo_ps(_mm256_castps256_ps128(h), _mm256_extractf128_ps(h, 1));
}

/* Four vertices in one reduction (the same sums) from the pairs' first sums hadd(a, b) and
 * hadd(c, d): {ax, ay, bx, by, cx, cy, dx, dy}. The x pairs of a and b beside their y pairs,
 * then one more hadd: four instructions, not five. */
AVX static INLINE __m256 reduce_four_h(__m256 ab, __m256 cd)
{
    __m256 p = _mm256_permute2f128_ps(ab, cd, 0x20); /* {a01 a23 b01 b23 | c01 c23 d01 d23} */
    __m256 q = _mm256_permute2f128_ps(ab, cd, 0x31); /* {a45 a67 b45 b67 | c45 c67 d45 d67} */
    __m256 h = _mm256_hadd_ps(p, q);                 /* {ax bx ay by | cx dx cy dy} */
    return _mm256_permute_ps(h, _MM_SHUFFLE(3, 1, 2, 0));
}

static inline void store2(float *o, __m128 v) { _mm_storel_pi((__m64 *)(void *)o, v); }
static inline void store2h(float *o, __m128 v) { _mm_storeh_pi((__m64 *)(void *)o, v); }

/* One group of n vertices from its records *rp and vertices *vop, both left at their ends
 * (the next group's starts): one vertex (reduced with itself), two and four first for the
 * count's low bits, then eight a step (half the loop's share of four; the deformed kernels,
 * rare, four a step). The scattered loops run to an end pointer (no step count beside the
 * pointers: one register fewer, which spares most chained kernels saved registers, and with
 * them their frame). contig: the group's vertices are the attachment's in order from vo[0]
 * (stores straight, no offsets read). unrolled: vertex()'s lo. */
AVX static INLINE void group(const float *mats, const float **rp, const int32_t **vop, int32_t n, int32_t c,
                             int32_t unrolled, const float *deform, bool contig, float *out)
{
    const float *r = *rp;
    const int32_t *vo = *vop;
    float *o = out + vo[0];
#define V(k) vertex(mats, r + 4 * (k) * c, c, unrolled, deform ? deform + vo[4 * (k) + 1] : NULL, vo[4 * (k) + 2])
    if (n & 1) {
        __m256 a = V(0);
        store2(contig ? o : out + vo[0], reduce_two(a, a));
        r += 4 * c, vo += 4, o += 2;
    }
    if (n & 2) { /* contiguous: stores through o, no offsets kept */
        __m128 xy = reduce_two(V(0), V(1));
        if (contig)
            _mm_storeu_ps(o, xy);
        else
            store2(out + vo[0], xy), store2h(out + vo[4], xy);
        r += 8 * c, vo += 8, o += 4;
    }
    if (contig) {
        if (n & 4) {
            _mm256_storeu_ps(o, reduce_four_h(_mm256_hadd_ps(V(0), V(1)), _mm256_hadd_ps(V(2), V(3))));
            r += 16 * c, vo += 16, o += 8;
        }
        for (uint32_t k = (uint32_t)n >> 3; k != 0; k--, r += 32 * c, vo += 32, o += 16) {
            _mm256_storeu_ps(o, reduce_four_h(_mm256_hadd_ps(V(0), V(1)), _mm256_hadd_ps(V(2), V(3))));
            _mm256_storeu_ps(o + 8, reduce_four_h(_mm256_hadd_ps(V(4), V(5)), _mm256_hadd_ps(V(6), V(7))));
        }
        *rp = r, *vop = vo;
        return;
    }
    /* scattered: {ax bx cx dx | ay by cy dy} interleaved by halves */
#define SCATTER4(k)                                                                                    \
    do {                                                                                               \
        __m256 h = _mm256_hadd_ps(_mm256_hadd_ps(V(k), V(k + 1)), _mm256_hadd_ps(V(k + 2), V(k + 3))); \
        __m128 y = _mm256_extractf128_ps(h, 1), x = _mm256_castps256_ps128(h);                         \
        __m128 hi = _mm_unpackhi_ps(x, y), lo = _mm_unpacklo_ps(x, y);                                 \
        store2(out + vo[4 * (k)], lo), store2h(out + vo[4 * (k) + 4], lo);                             \
        store2(out + vo[4 * (k) + 8], hi), store2h(out + vo[4 * (k) + 12], hi);                        \
    } while (0)
    if (deform) /* rare: four a step, a third of the code */
        for (const int32_t *ve = vo + 16 * (size_t)((uint32_t)n >> 2); vo != ve; r += 16 * c, vo += 16) SCATTER4(0);
    else {
        if (n & 4) {
            SCATTER4(0);
            r += 16 * c, vo += 16;
        }
        for (const int32_t *ve = vo + 32 * (size_t)((uint32_t)n >> 3); vo != ve; r += 32 * c, vo += 32) {
            SCATTER4(0);
            SCATTER4(4);
        }
    }
#undef SCATTER4
#undef V
    *rp = r, *vop = vo;
}

/* The bone's packed matrix {a, b, wx, 0, c, d, wy, 0} as the rigid step's factors, repeated
 * for four vertices: {a, c, a, c, ...}, {b, d, b, d, ...}, {wx, wy, wx, wy, ...}. */
AVX static INLINE void rigid_factors(const float *mat, __m256 *m1, __m256 *m2, __m256 *t)
{
    __m256 ab = _mm256_broadcast_ps((const __m128 *)(const void *)mat);       /* a b wx 0, twice */
    __m256 cd = _mm256_broadcast_ps((const __m128 *)(const void *)(mat + 4)); /* c d wy 0, twice */
    __m256 acbd = _mm256_unpacklo_ps(ab, cd), w = _mm256_unpackhi_ps(ab, cd); /* a c b d, wx wy 0 0 */
    *m1 = _mm256_shuffle_ps(acbd, acbd, _MM_SHUFFLE(1, 0, 1, 0));
    *m2 = _mm256_shuffle_ps(acbd, acbd, _MM_SHUFFLE(3, 2, 3, 2));
    *t = _mm256_shuffle_ps(w, w, _MM_SHUFFLE(1, 0, 1, 0));
}

/* Four rigid vertices {x0, y0, ..., x3, y3}: (a·x + b·y) + wx as the SSE2 and scalar paths. */
AVX static INLINE __m256 rigid_step(__m256 xy, __m256 m1, __m256 m2, __m256 t)
{
    __m256 xs = _mm256_moveldup_ps(xy), ys = _mm256_movehdup_ps(xy);
    return _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(xs, m1), _mm256_mul_ps(ys, m2)), t);
}

AVX int32_t mf_skin_region_avx(const float *mat, const float *v, float *out)
{
    __m256 m1, m2, t;
    rigid_factors(mat, &m1, &m2, &t);
    _mm256_storeu_ps(out, rigid_step(_mm256_loadu_ps(v), m1, m2, t));
    return 4;
}

AVX int32_t mf_skin_rigid_avx(const float *mat, const float *v, const float *deform, int32_t n, float *out)
{
    /* the last 1 to 3 vertices through masked loads and stores: 2·left lanes on, from ON's end */
    static const int32_t ON[16] = {-1, -1, -1, -1, -1, -1, -1, -1, 0, 0, 0, 0, 0, 0, 0, 0};
    __m256 m1, m2, t;
    rigid_factors(mat, &m1, &m2, &t);
    int32_t i = 0;
    if (deform)
        for (; i + 4 <= n; i += 4) {
            __m256 xy = _mm256_add_ps(_mm256_loadu_ps(v + 2 * i), _mm256_loadu_ps(deform + 2 * i));
            _mm256_storeu_ps(out + 2 * i, rigid_step(xy, m1, m2, t));
        }
    else { /* eight a step (half the loop's share), then four */
        for (; i + 8 <= n; i += 8) {
            _mm256_storeu_ps(out + 2 * i, rigid_step(_mm256_loadu_ps(v + 2 * i), m1, m2, t));
            _mm256_storeu_ps(out + 2 * i + 8, rigid_step(_mm256_loadu_ps(v + 2 * i + 8), m1, m2, t));
        }
        if (i + 4 <= n) _mm256_storeu_ps(out + 2 * i, rigid_step(_mm256_loadu_ps(v + 2 * i), m1, m2, t)), i += 4;
    }
    if (i < n) {
        __m256i mask = _mm256_loadu_si256((const __m256i *)(const void *)(ON + 8 - 2 * (n - i)));
        __m256 xy = _mm256_maskload_ps(v + 2 * i, mask);
        if (deform) xy = _mm256_add_ps(xy, _mm256_maskload_ps(deform + 2 * i, mask));
        _mm256_maskstore_ps(out + 2 * i, mask, rigid_step(xy, m1, m2, t));
    }
    return n;
}

/* A run of n vertices with the same c bones (records r: the bones' offsets, then per eight
 * vertices and per influence eight w·x, eight w·y, eight w), stored in order from out + vo[0]
 * (contig) or each at out + vo[4·l] (vo: one entry a vertex): the
 * bones' matrix entries broadcast once, eight vertices a step across the lanes, each sum in
 * the order of the other paths (influences in order; x = (Σa·X + Σb·Y) + (Σwx·w + 0)).
 * Returns the next group's records. */
AVX static INLINE const float *run(const float *mats, const float *r, const int32_t *vo, int32_t n, int32_t c,
                                   bool contig, float *out)
{
    static const int32_t ON[16] = {-1, -1, -1, -1, -1, -1, -1, -1, 0, 0, 0, 0, 0, 0, 0, 0};
    __m256 ma[4], mb[4], mw[4], mc[4], md[4], mv[4];
    for (int32_t j = 0; j < c; j++) {
        const float *m = mats + (int64_t)r[j];
        ma[j] = _mm256_broadcast_ss(m), mb[j] = _mm256_broadcast_ss(m + 1), mw[j] = _mm256_broadcast_ss(m + 2);
        mc[j] = _mm256_broadcast_ss(m + 4), md[j] = _mm256_broadcast_ss(m + 5), mv[j] = _mm256_broadcast_ss(m + 6);
    }
    const __m256 zero = _mm256_setzero_ps();
    float *o = out + vo[0];
    r += 4;
    for (int32_t left = n;; left -= 8, r += 24 * c, o += 16, vo += 32) {
        __m256 X = _mm256_loadu_ps(r), Y = _mm256_loadu_ps(r + 8), W = _mm256_loadu_ps(r + 16);
        __m256 sa = _mm256_mul_ps(X, ma[0]), sb = _mm256_mul_ps(Y, mb[0]), sw = _mm256_mul_ps(W, mw[0]);
        __m256 ta = _mm256_mul_ps(X, mc[0]), tb = _mm256_mul_ps(Y, md[0]), tw = _mm256_mul_ps(W, mv[0]);
        for (int32_t j = 1; j < c; j++) {
            X = _mm256_loadu_ps(r + 24 * j), Y = _mm256_loadu_ps(r + 24 * j + 8), W = _mm256_loadu_ps(r + 24 * j + 16);
            sa = _mm256_add_ps(sa, _mm256_mul_ps(X, ma[j])), sb = _mm256_add_ps(sb, _mm256_mul_ps(Y, mb[j]));
            sw = _mm256_add_ps(sw, _mm256_mul_ps(W, mw[j])), ta = _mm256_add_ps(ta, _mm256_mul_ps(X, mc[j]));
            tb = _mm256_add_ps(tb, _mm256_mul_ps(Y, md[j])), tw = _mm256_add_ps(tw, _mm256_mul_ps(W, mv[j]));
        }
        __m256 x = _mm256_add_ps(_mm256_add_ps(sa, sb), _mm256_add_ps(sw, zero));
        __m256 y = _mm256_add_ps(_mm256_add_ps(ta, tb), _mm256_add_ps(tw, zero));
        __m256 lo = _mm256_unpacklo_ps(x, y), hi = _mm256_unpackhi_ps(x, y); /* {v0 v1 | v4 v5}, {v2 v3 | v6 v7} */
        __m256 v0 = _mm256_permute2f128_ps(lo, hi, 0x20), v1 = _mm256_permute2f128_ps(lo, hi, 0x31);
        if (!contig) { /* each member at its own place: vo[4·l] */
            __m128 q[4] = {_mm256_castps256_ps128(v0), _mm256_extractf128_ps(v0, 1), _mm256_castps256_ps128(v1),
                           _mm256_extractf128_ps(v1, 1)};
            if (left >= 8) {
                for (int32_t l = 0; l < 4; l++)
                    store2(out + vo[8 * l], q[l]), store2h(out + vo[8 * l + 4], q[l]);
                if (left == 8) return r + 24 * c;
                continue;
            }
            for (int32_t l = 0; l < left; l++) { /* the last 1 to 7 */
                if (l & 1)
                    store2h(out + vo[4 * l], q[l >> 1]);
                else
                    store2(out + vo[4 * l], q[l >> 1]);
            }
            return r + 24 * c;
        }
        if (left > 8) {
            _mm256_storeu_ps(o, v0), _mm256_storeu_ps(o + 8, v1);
            continue;
        }
        /* the last 1 to 8 vertices: 2·left lanes on, from ON's end */
        int32_t k0 = left < 4 ? 2 * left : 8, k1 = left > 4 ? 2 * left - 8 : 0;
        _mm256_maskstore_ps(o, _mm256_loadu_si256((const __m256i *)(const void *)(ON + 8 - k0)), v0);
        _mm256_maskstore_ps(o + 8, _mm256_loadu_si256((const __m256i *)(const void *)(ON + 8 - k1)), v1);
        return r + 24 * c;
    }
}

/* A run group's kernel (count C, chained or last): its run, then the next group's kernel from
 * where its records and its one vertex entry end, or the attachment's vertex count. */
#define RUN_KERNEL(name, C, CONTIG, CHAIN)                                                             \
    AVX static int32_t name(const float *m, const mf_sd_skin_group *g, const float *r, const int32_t *vo, \
                            const float *def, float *out)                                              \
    {                                                                                                  \
        r = run(m, r, vo, g->vertices, C, CONTIG, out);                                                \
        if (CHAIN) return mf_skin_kernels_avx[g[1].plain](m, g + 1, r, vo + (CONTIG ? 4 : 4 * g->vertices), def, out); \
        return g->total;                                                                               \
    }
#define RUN_KERNELS(tag, CONTIG, CHAIN)                                                                \
    RUN_KERNEL(tag##1, 1, CONTIG, CHAIN)                                                               \
    RUN_KERNEL(tag##2, 2, CONTIG, CHAIN)                                                               \
    RUN_KERNEL(tag##3, 3, CONTIG, CHAIN)                                                               \
    RUN_KERNEL(tag##4, 4, CONTIG, CHAIN)
/* Without GCC 12's global common subexpression pass these kernels hold fewer values through
 * the loop (run_then1: no saved registers); 6-66 Ir a skeleton-frame fewer on the bench rigs. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC push_options
#pragma GCC optimize("no-gcse")
#endif
RUN_KERNELS(run, true, false)
RUN_KERNELS(run_then, true, true)
RUN_KERNELS(set, false, false)
RUN_KERNELS(set_then, false, true)
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC pop_options
#endif

/* One kernel per (influence count, store kind, last or not): a leaf each, so that no loop's
 * registers spill into another's. Counts above 4 share one kernel with the count read at run
 * time: the first 5 records unrolled (the build gives it counts of 5 or more), the rest a loop. A group with another after it (CHAIN) hands over to that one's kernel where its own
 * records and vertices end: a tail call, no loop over the groups; the last returns the
 * attachment's vertex count. */
#define KERNEL(name, C, LO, DEF, CONTIG, CHAIN)                                                          \
    AVX static int32_t name(const float *m, const mf_sd_skin_group *g, const float *r, const int32_t *vo, \
                            const float *def, float *out)                                              \
    {                                                                                                  \
        (void)def;                                                                                     \
        group(m, &r, &vo, g->vertices, C, LO, DEF, CONTIG, out);                                       \
        if (CHAIN) return mf_skin_kernels_avx[DEF ? g[1].deformed : g[1].plain](m, g + 1, r, vo, DEF, out);  \
        return g->total;                                                                               \
    }
#define KERNELS(tag, DEF, CONTIG, CHAIN)                                                               \
    KERNEL(tag##1, 1, 1, DEF, CONTIG, CHAIN)                                                           \
    KERNEL(tag##2, 2, 2, DEF, CONTIG, CHAIN)                                                           \
    KERNEL(tag##3, 3, 3, DEF, CONTIG, CHAIN)                                                           \
    KERNEL(tag##4, 4, 4, DEF, CONTIG, CHAIN)                                                           \
    KERNEL(tag##n, g->count, 5, DEF, CONTIG, CHAIN)

/* Without temporary expression replacement GCC 12 converts each influence's bone offset next
 * to its multiply instead of all of them first: most of these kernels then fit the
 * caller-saved registers (no saved registers, no frame; the file's pushes 130 -> 79). Not for
 * the run kernels, which it makes longer. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC push_options
#pragma GCC optimize("no-tree-ter")
#endif
KERNELS(scattered, NULL, false, false)
KERNELS(contig, NULL, true, false)
KERNELS(deformed, def, false, false)
KERNELS(scattered_then, NULL, false, true)
KERNELS(contig_then, NULL, true, true)
KERNELS(deformed_then, def, false, true)
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC pop_options
#endif

/* Indexed by mf_sd_skin_group.plain / .deformed (geom_skin_build.c). */
const mf_skin_kernel mf_skin_kernels_avx[MF_SKIN_KERNELS] = {
    scattered1,      scattered2,      scattered3,      scattered4,      scatteredn,
    contig1,         contig2,         contig3,         contig4,         contign,
    deformed1,       deformed2,       deformed3,       deformed4,       deformedn,
    scattered_then1, scattered_then2, scattered_then3, scattered_then4, scattered_thenn,
    contig_then1,    contig_then2,    contig_then3,    contig_then4,    contig_thenn,
    deformed_then1,  deformed_then2,  deformed_then3,  deformed_then4,  deformed_thenn,
    run1,            run2,            run3,            run4,
    run_then1,       run_then2,       run_then3,       run_then4,
    set1,            set2,            set3,            set4,
    set_then1,       set_then2,       set_then3,       set_then4,
};
#endif
