/* The dirty mark, the copy to applied values and the trigonometry cache eight bones at a time
 * with AVX2: every lane does exactly what mf_sincos_ps (pose_trig.h) does for one angle (same
 * operations, same order, no fused multiply-adds), so the cache holds the bits of the SSE2
 * fill. Compiled for AVX2 through a target attribute and chosen at run time
 * (mf_pose_trig_avx2_usable). */
#include <string.h>

#include "pose_trig.h"

#if MF_TRIG_AVX2
#include <immintrin.h>

#define AVX2 __attribute__((target("avx2")))

bool mf_pose_trig_avx2_usable(void)
{
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2");
}

/* mf_sincos_ps on eight lanes. */
AVX2 static inline void sincos8(__m256 x, __m256 *c, __m256 *s)
{
    __m256i ki = _mm256_cvtps_epi32(_mm256_mul_ps(x, _mm256_set1_ps(0.636619772f)));
    __m256 k = _mm256_cvtepi32_ps(ki);
    __m256 y = _mm256_sub_ps(x, _mm256_mul_ps(k, _mm256_set1_ps(1.5703125f)));
    y = _mm256_sub_ps(y, _mm256_mul_ps(k, _mm256_set1_ps(4.837512969970703125e-4f)));
    y = _mm256_sub_ps(y, _mm256_mul_ps(k, _mm256_set1_ps(7.54978995489188216e-8f)));
    __m256 z = _mm256_mul_ps(y, y);
    __m256 ps = _mm256_add_ps(_mm256_mul_ps(z, _mm256_set1_ps(-1.9515295891e-4f)), _mm256_set1_ps(8.3321608736e-3f));
    ps = _mm256_add_ps(_mm256_mul_ps(z, ps), _mm256_set1_ps(-1.6666654611e-1f));
    __m256 sp = _mm256_add_ps(y, _mm256_mul_ps(_mm256_mul_ps(y, z), ps));
    __m256 pc = _mm256_add_ps(_mm256_mul_ps(z, _mm256_set1_ps(2.443315711809948e-5f)), _mm256_set1_ps(-1.388731625493765e-3f));
    pc = _mm256_add_ps(_mm256_mul_ps(z, pc), _mm256_set1_ps(4.166664568298827e-2f));
    __m256 cp = _mm256_add_ps(_mm256_sub_ps(_mm256_set1_ps(1.0f), _mm256_mul_ps(z, _mm256_set1_ps(0.5f))),
                              _mm256_mul_ps(_mm256_mul_ps(z, z), pc));
    /* the quadrant's bits as signs, lanes picked by blends on them (the bits of mf_sincos_ps's
     * and/andnot/or selects); bit 1 of ki + 1 is bit 1 of ki xor bit 0 */
    __m256 odd_s = _mm256_castsi256_ps(_mm256_slli_epi32(ki, 31));
    __m256 neg_s = _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_srli_epi32(ki, 1), 31));
    __m256 neg_c = _mm256_xor_ps(neg_s, odd_s);
    __m256 sv = _mm256_xor_ps(_mm256_blendv_ps(sp, cp, odd_s), neg_s);
    __m256 cv = _mm256_xor_ps(_mm256_blendv_ps(cp, sp, odd_s), neg_c);
    *s = _mm256_blendv_ps(sv, x, _mm256_cmp_ps(x, _mm256_setzero_ps(), _CMP_EQ_OQ));
    *c = cv;
}

/* Bones i..i+7 one by one (an angle past the vector range, or NaN), out of the hot path: those
 * of bit j set in local. */
AVX2 __attribute__((noinline)) static void trig8_scalar(mf_pose_scratch *s, int32_t i, __m256 rot, __m256 shx,
                                                         __m256 shy, unsigned local)
{
    float r[8], x[8], y[8];
    _mm256_storeu_ps(r, rot), _mm256_storeu_ps(x, shx), _mm256_storeu_ps(y, shy);
    for (int32_t j = 0; j < 8; j++)
        if (local >> j & 1) mf_pose_trig_refresh(s, i + j, r[j], x[j], y[j]);
}

/* The arrays the dirty mark reads and writes, taken once per call (mark_all): through p and
 * the scratch the loop would load them again after each store (a vector store may alias
 * anything, the pointers too). */
typedef struct mark_arrays {
    const float *x, *y, *rot, *sx, *sy, *shx, *shy;
    float *ax, *ay, *arot, *asx, *asy, *ashx, *ashy;
    const uint8_t *inherit, *active, *constrained;
    uint8_t *prev_inherit, *world_valid, *changed;
    uint32_t *trig_kx, *trig_ky;
    float *trig_cx, *trig_sx, *trig_cy, *trig_sy;
} mark_arrays;

/* The trigonometry of bones i..i+7 from their rotations and shears, where a key differs, for
 * the bones whose local matrix takes their own angles, Normal or OnlyTranslation (bit j of
 * local, bytes of 0xff in local8): the others' entries are left to the world update, which
 * forms other angles for them (world_of), so that neither misses every frame on the other's
 * key. Returns the bones whose keys differed as bits (bit j: bone i + j). */
AVX2 static inline __attribute__((always_inline)) unsigned trig8(mf_pose_scratch *s, const mark_arrays *r, int32_t i,
                                                              __m256 rot, __m256 shx, __m256 shy, unsigned local,
                                                              __m128i local8)
{
    const __m256 deg = _mm256_set1_ps((float)MF_DEG), lim = _mm256_set1_ps(8192.0f);
    const __m256 abs_mask = _mm256_castsi256_ps(_mm256_set1_epi32(0x7fffffff));
    __m256 nrot = _mm256_sub_ps(_mm256_setzero_ps(), rot);
    __m256 rx = _mm256_sub_ps(nrot, shx);
    __m256 ry = _mm256_add_ps(_mm256_add_ps(nrot, _mm256_set1_ps(90.0f)), _mm256_sub_ps(_mm256_setzero_ps(), shy));
    __m256i kx = _mm256_castps_si256(rx), ky = _mm256_castps_si256(ry);
    __m256i same = _mm256_and_si256(_mm256_cmpeq_epi32(kx, _mm256_loadu_si256((const __m256i *)(const void *)(r->trig_kx + i))),
                                    _mm256_cmpeq_epi32(ky, _mm256_loadu_si256((const __m256i *)(const void *)(r->trig_ky + i))));
    unsigned miss = ~(unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(same)) & local;
    if (!miss) return 0;
    __m256 ax = _mm256_mul_ps(rx, deg), ay = _mm256_mul_ps(ry, deg);
    __m256 in = _mm256_and_ps(_mm256_cmp_ps(_mm256_and_ps(ax, abs_mask), lim, _CMP_LT_OS),
                              _mm256_cmp_ps(_mm256_and_ps(ay, abs_mask), lim, _CMP_LT_OS));
    if (_mm256_movemask_ps(in) != 0xff) {
        trig8_scalar(s, i, rot, shx, shy, local); /* computes exactly the bones that miss */
        return miss;
    }
    __m256 cx, sx, cy, sy;
    sincos8(ax, &cx, &sx);
    sincos8(ay, &cy, &sy);
    if (local == 0xff) {
        _mm256_storeu_si256((__m256i *)(void *)(r->trig_kx + i), kx);
        _mm256_storeu_si256((__m256i *)(void *)(r->trig_ky + i), ky);
        _mm256_storeu_ps(r->trig_cx + i, cx), _mm256_storeu_ps(r->trig_sx + i, sx);
        _mm256_storeu_ps(r->trig_cy + i, cy), _mm256_storeu_ps(r->trig_sy + i, sy);
    } else {
        __m256i m = _mm256_cvtepi8_epi32(local8);
        _mm256_maskstore_epi32((int *)(void *)(r->trig_kx + i), m, kx);
        _mm256_maskstore_epi32((int *)(void *)(r->trig_ky + i), m, ky);
        _mm256_maskstore_ps(r->trig_cx + i, m, cx), _mm256_maskstore_ps(r->trig_sx + i, m, sx);
        _mm256_maskstore_ps(r->trig_cy + i, m, cy), _mm256_maskstore_ps(r->trig_sy + i, m, sy);
    }
    return miss; /* the others computed their same values */
}

/* Bones i..i+7: compares and copies local to applied values, marks the bones, fills the trigonometry
 * cache. Only the lanes set in fresh (0xff bytes) get their changed flag: the overlapped last step
 * leaves the lanes an earlier step did alone (their values and keys are already this call's, so
 * copying, the inherit store and the cache are idempotent for them and their keys never miss). */
AVX2 static inline __attribute__((always_inline)) unsigned mark8(const mark_arrays *r, mf_pose_scratch *s, int32_t i,
                                                              __m128i fresh, bool other)
{
    __m256i same = _mm256_set1_epi32(-1), rot = same, shx = same, shy = same;
#define MF_CHANNEL(local, applied, keep)                                                                   \
    do {                                                                                                   \
        __m256i c_ = _mm256_loadu_si256((const __m256i *)(const void *)(r->local + i));                  \
        __asm__("" : "+x"(c_)); /* loaded once, for the compare and the store */                        \
        __m256i *a_ = (__m256i *)(void *)(r->applied + i);                                                \
        same = _mm256_and_si256(same, _mm256_cmpeq_epi32(c_, _mm256_loadu_si256(a_)));                   \
        _mm256_storeu_si256(a_, c_);                                                                      \
        keep = c_;                                                                                        \
    } while (0)
    __m256i unused;
    MF_CHANNEL(x, ax, unused);
    MF_CHANNEL(y, ay, unused);
    MF_CHANNEL(rot, arot, rot);
    MF_CHANNEL(sx, asx, unused);
    MF_CHANNEL(sy, asy, unused);
    MF_CHANNEL(shx, ashx, shx);
    MF_CHANNEL(shy, ashy, shy);
#undef MF_CHANNEL
    (void)unused;
    /* the eight bones' flags as bytes (low halves of 128-bit registers): 0xff where a bone keeps */
    __m128i same8 = _mm_packs_epi32(_mm256_castsi256_si128(same), _mm256_extracti128_si256(same, 1));
    same8 = _mm_packs_epi16(same8, same8);
    __m128i vi = _mm_loadl_epi64((const __m128i *)(const void *)(r->inherit + i));
    __m128i vp = _mm_loadl_epi64((const __m128i *)(const void *)(r->prev_inherit + i));
    __m128i va = _mm_loadl_epi64((const __m128i *)(const void *)(r->active + i));
    __m128i vc = _mm_loadl_epi64((const __m128i *)(const void *)(r->constrained + i));
    __m128i vv = _mm_loadl_epi64((const __m128i *)(const void *)(r->world_valid + i));
    _mm_storel_epi64((__m128i *)(void *)(r->prev_inherit + i), vi);
    const __m128i zero = _mm_setzero_si128(), ones = _mm_set1_epi8(1);
    __m128i inactive = _mm_cmpeq_epi8(va, zero);
    __m128i keep = _mm_andnot_si128(inactive, _mm_and_si128(same8, _mm_cmpeq_epi8(vi, vp)));
    __m128i dirty = _mm_or_si128(_mm_or_si128(_mm_andnot_si128(keep, ones), vc), _mm_xor_si128(vv, ones));
    /* the codes of the update (MF_CHANGED_*): inactive, inherit other than Normal */
    dirty = _mm_or_si128(dirty, _mm_and_si128(inactive, _mm_set1_epi8(MF_CHANGED_INACTIVE)));
    dirty = _mm_or_si128(dirty, _mm_andnot_si128(_mm_cmpeq_epi8(vi, zero), _mm_set1_epi8(MF_CHANGED_INHERIT)));
    _mm_storel_epi64((__m128i *)(void *)(r->world_valid + i), _mm_andnot_si128(inactive, ones));
    __m128i *ch = (__m128i *)(void *)(r->changed + i);
    dirty = _mm_or_si128(_mm_and_si128(fresh, dirty), _mm_andnot_si128(fresh, _mm_loadl_epi64(ch)));
    _mm_storel_epi64(ch, dirty);
    __m128i local = _mm_set1_epi8(-1); /* the bones whose matrix takes their own angles */
    if (other) local = _mm_cmpeq_epi8(_mm_min_epu8(vi, ones), vi); /* Normal or OnlyTranslation */
    return trig8(s, r, i, _mm256_castsi256_ps(rot), _mm256_castsi256_ps(shx), _mm256_castsi256_ps(shy),
                 other ? (unsigned)_mm_movemask_epi8(local) & 0xffu : 0xffu, local);
}

/* Sixteen bones' flag bytes from their keep lanes same8 (0xff: the seven values the same): the
 * changed codes (only the lanes set in fresh unless all), world_valid and prev_inherit, as
 * mark8 forms them eight at a time. Returns the inherit bytes. Shared by mark16 and the AVX-512
 * mark16w. */
AVX2 static inline __attribute__((always_inline)) __m128i flags16(const mark_arrays *r, int32_t i, __m128i same8,
                                                                 __m128i fresh, bool all)
{
    __m128i vi = _mm_loadu_si128((const __m128i *)(const void *)(r->inherit + i));
    __m128i vp = _mm_loadu_si128((const __m128i *)(const void *)(r->prev_inherit + i));
    __m128i va = _mm_loadu_si128((const __m128i *)(const void *)(r->active + i));
    __m128i vc = _mm_loadu_si128((const __m128i *)(const void *)(r->constrained + i));
    __m128i vv = _mm_loadu_si128((const __m128i *)(const void *)(r->world_valid + i));
    _mm_storeu_si128((__m128i *)(void *)(r->prev_inherit + i), vi);
    const __m128i zero = _mm_setzero_si128(), ones = _mm_set1_epi8(1);
    __m128i inactive = _mm_cmpeq_epi8(va, zero);
    __m128i keep = _mm_andnot_si128(inactive, _mm_and_si128(same8, _mm_cmpeq_epi8(vi, vp)));
    __m128i dirty = _mm_or_si128(_mm_or_si128(_mm_andnot_si128(keep, ones), vc), _mm_xor_si128(vv, ones));
    dirty = _mm_or_si128(dirty, _mm_and_si128(inactive, _mm_set1_epi8(MF_CHANGED_INACTIVE)));
    dirty = _mm_or_si128(dirty, _mm_andnot_si128(_mm_cmpeq_epi8(vi, zero), _mm_set1_epi8(MF_CHANGED_INHERIT)));
    _mm_storeu_si128((__m128i *)(void *)(r->world_valid + i), _mm_andnot_si128(inactive, ones));
    __m128i *ch = (__m128i *)(void *)(r->changed + i);
    if (!all) dirty = _mm_or_si128(_mm_and_si128(fresh, dirty), _mm_andnot_si128(fresh, _mm_loadu_si128(ch)));
    _mm_storeu_si128(ch, dirty);
    return vi;
}

/* mark8 on bones i..i+15 at once: the same per bone, the flag bytes sixteen to a register and
 * the arrays' addresses taken once for both halves (all: every lane fresh). Returns the bones
 * whose keys differed as bits, as mark8 does. */
AVX2 static inline __attribute__((always_inline)) unsigned mark16(const mark_arrays *r, mf_pose_scratch *s, int32_t i,
                                                               __m128i fresh, bool all, bool other)
{
    __m256i same0 = _mm256_set1_epi32(-1), same1 = same0, rot0 = same0, rot1 = same0;
    __m256i shx0 = same0, shx1 = same0, shy0 = same0, shy1 = same0;
#define MF_CHANNEL2(local, applied, keep0, keep1)                                                          \
    do {                                                                                                   \
        __m256i c0_ = _mm256_loadu_si256((const __m256i *)(const void *)(r->local + i));                 \
        __m256i c1_ = _mm256_loadu_si256((const __m256i *)(const void *)(r->local + i + 8));             \
        __asm__("" : "+x"(c0_), "+x"(c1_)); /* loaded once, for the compare and the store */          \
        __m256i *a_ = (__m256i *)(void *)(r->applied + i);                                                \
        same0 = _mm256_and_si256(same0, _mm256_cmpeq_epi32(c0_, _mm256_loadu_si256(a_)));                \
        same1 = _mm256_and_si256(same1, _mm256_cmpeq_epi32(c1_, _mm256_loadu_si256(a_ + 1)));            \
        _mm256_storeu_si256(a_, c0_);                                                                     \
        _mm256_storeu_si256(a_ + 1, c1_);                                                                 \
        keep0 = c0_, keep1 = c1_;                                                                         \
    } while (0)
    __m256i unused0, unused1;
    MF_CHANNEL2(x, ax, unused0, unused1);
    MF_CHANNEL2(y, ay, unused0, unused1);
    MF_CHANNEL2(rot, arot, rot0, rot1);
    MF_CHANNEL2(sx, asx, unused0, unused1);
    MF_CHANNEL2(sy, asy, unused0, unused1);
    MF_CHANNEL2(shx, ashx, shx0, shx1);
    MF_CHANNEL2(shy, ashy, shy0, shy1);
#undef MF_CHANNEL2
    (void)unused0, (void)unused1;
    /* the sixteen bones' flags as bytes: 0xff where a bone keeps */
    __m128i same8 = _mm_packs_epi16(
        _mm_packs_epi32(_mm256_castsi256_si128(same0), _mm256_extracti128_si256(same0, 1)),
        _mm_packs_epi32(_mm256_castsi256_si128(same1), _mm256_extracti128_si256(same1, 1)));
    __m128i vi = flags16(r, i, same8, fresh, all);
    const __m128i ones = _mm_set1_epi8(1);
    __m128i local = _mm_set1_epi8(-1); /* the bones whose matrix takes their own angles */
    if (other) local = _mm_cmpeq_epi8(_mm_min_epu8(vi, ones), vi); /* Normal or OnlyTranslation */
    unsigned lbits = other ? (unsigned)_mm_movemask_epi8(local) : 0xffffu;
    unsigned m0 = trig8(s, r, i, _mm256_castsi256_ps(rot0), _mm256_castsi256_ps(shx0), _mm256_castsi256_ps(shy0),
                        lbits & 0xffu, local);
    unsigned m1 = trig8(s, r, i + 8, _mm256_castsi256_ps(rot1), _mm256_castsi256_ps(shx1), _mm256_castsi256_ps(shy1),
                        lbits >> 8, _mm_srli_si128(local, 8));
    return m0 | m1 << 8;
}

/* mf_pose_dirty_mark (pose_dirty.c) sixteen bones a step (MARK16: mark16, or mark16w with
 * AVX-512), then the eight-bone steps: the same codes, copies and cache (all but the code past the
 * bones). A bone count past a multiple of sixteen ends on one step over the last sixteen bones
 * where more than eight are left, else on eight-bone steps and one over the last eight. Needs
 * eight bones. Written once for both instruction sets (NAME, TARGET). */
#define MF_MARK_ALL(NAME, TARGET, MARK16)                                                                         \
    TARGET static inline __attribute__((always_inline)) int32_t NAME(mf_pose *p, bool other)                      \
    {                                                                                                           \
        mf_pose_scratch *s = p->scratch;                                                                        \
        int32_t n = p->bone_count, computed = 0, i = 0;                                                         \
        const mark_arrays ra = {p->x, p->y, p->rot, p->sx, p->sy, p->shx, p->shy,                               \
                                p->ax, p->ay, p->arot, p->asx, p->asy, p->ashx, p->ashy,                        \
                                p->inherit, p->active, s->constrained,                                          \
                                s->prev_inherit, s->world_valid, s->changed,                                    \
                                s->trig_kx, s->trig_ky, s->trig_cx, s->trig_sx, s->trig_cy, s->trig_sy};        \
        const mark_arrays *r = &ra;                                                                             \
        const __m128i all = _mm_set1_epi8(-1);                                                                  \
        for (; i + 16 <= n; i += 16) computed += __builtin_popcount(MARK16(r, s, i, all, true, other));         \
        if (i < n) { /* lanes of bones below i done: their flags stay, their keys never miss */                 \
            __m128i lane = _mm_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);                \
            unsigned miss;                                                                                      \
            if (n - i > 8 && n >= 16) {                                                                         \
                int32_t done = i - (n - 16);                                                                    \
                miss = MARK16(r, s, n - 16, _mm_cmpgt_epi8(lane, _mm_set1_epi8((char)(done - 1))), false, other) \
                       >> done;                                                                                 \
            } else {                                                                                            \
                for (; i + 8 <= n; i += 8) computed += __builtin_popcount(mark8(r, s, i, all, other));          \
                int32_t done = i - (n - 8);                                                                     \
                miss = i < n ? mark8(r, s, n - 8, _mm_cmpgt_epi8(lane, _mm_set1_epi8((char)(done - 1))), other) \
                                   >> done                                                                      \
                             : 0;                                                                               \
            }                                                                                                   \
            /* counted as the SSE2 pass counts these bones (its groups of four count 4 when one misses) */      \
            for (; n - i >= 4; i += 4) computed += (miss & 15u) ? 4 : 0, miss >>= 4;                            \
            computed += __builtin_popcount(miss);                                                               \
        }                                                                                                       \
        return computed;                                                                                        \
    }
MF_MARK_ALL(mark_all, AVX2, mark16)

/* The same sixteen bones a step with AVX-512 (where the CPU and the OS have it; chosen at
 * create as AVX2 is): one register a channel, the key compares as masks, the cache filled
 * sixteen lanes at a time. Each lane still does mf_sincos_ps's operations in its order (the
 * selects by masks pick the same values), so the cache holds the same bits. */
#define AVX512 __attribute__((target("avx512f,avx512bw,avx512vl,avx2")))

bool mf_pose_trig_avx512_usable(void)
{
    __builtin_cpu_init(); /* GCC's test includes the OS's saving of the AVX-512 state */
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("avx512f") &&
           __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl");
}

static inline AVX512 __m512 xor512(__m512 a, __m512 b)
{
    return _mm512_castsi512_ps(_mm512_xor_si512(_mm512_castps_si512(a), _mm512_castps_si512(b)));
}

/* sincos8 on sixteen lanes. */
AVX512 static inline void sincos16(__m512 x, __m512 *c, __m512 *s)
{
    __m512i ki = _mm512_cvtps_epi32(_mm512_mul_ps(x, _mm512_set1_ps(0.636619772f)));
    __m512 k = _mm512_cvtepi32_ps(ki);
    __m512 y = _mm512_sub_ps(x, _mm512_mul_ps(k, _mm512_set1_ps(1.5703125f)));
    y = _mm512_sub_ps(y, _mm512_mul_ps(k, _mm512_set1_ps(4.837512969970703125e-4f)));
    y = _mm512_sub_ps(y, _mm512_mul_ps(k, _mm512_set1_ps(7.54978995489188216e-8f)));
    __m512 z = _mm512_mul_ps(y, y);
    __m512 ps = _mm512_add_ps(_mm512_mul_ps(z, _mm512_set1_ps(-1.9515295891e-4f)), _mm512_set1_ps(8.3321608736e-3f));
    ps = _mm512_add_ps(_mm512_mul_ps(z, ps), _mm512_set1_ps(-1.6666654611e-1f));
    __m512 sp = _mm512_add_ps(y, _mm512_mul_ps(_mm512_mul_ps(y, z), ps));
    __m512 pc = _mm512_add_ps(_mm512_mul_ps(z, _mm512_set1_ps(2.443315711809948e-5f)),
                              _mm512_set1_ps(-1.388731625493765e-3f));
    pc = _mm512_add_ps(_mm512_mul_ps(z, pc), _mm512_set1_ps(4.166664568298827e-2f));
    __m512 cp = _mm512_add_ps(_mm512_sub_ps(_mm512_set1_ps(1.0f), _mm512_mul_ps(z, _mm512_set1_ps(0.5f))),
                              _mm512_mul_ps(_mm512_mul_ps(z, z), pc));
    /* the quadrant: odd k picks the other polynomial, bit 1 of k (of k + 1 for cos) the sign */
    __mmask16 odd = _mm512_test_epi32_mask(ki, _mm512_set1_epi32(1));
    __m512 odd_s = _mm512_castsi512_ps(_mm512_slli_epi32(ki, 31));
    __m512 neg_s = _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_srli_epi32(ki, 1), 31));
    __m512 neg_c = xor512(neg_s, odd_s);
    __m512 sv = xor512(_mm512_mask_blend_ps(odd, sp, cp), neg_s);
    __m512 cv = xor512(_mm512_mask_blend_ps(odd, cp, sp), neg_c);
    *s = _mm512_mask_blend_ps(_mm512_cmp_ps_mask(x, _mm512_setzero_ps(), _CMP_EQ_OQ), sv, x);
    *c = cv;
}

/* trig8 on sixteen lanes (local: bit j for bone i + j). */
AVX512 static inline __attribute__((always_inline)) unsigned trig16(mf_pose_scratch *s, const mark_arrays *r,
                                                                   int32_t i, __m512 rot, __m512 shx, __m512 shy,
                                                                   unsigned local)
{
    const __m512 deg = _mm512_set1_ps((float)MF_DEG), lim = _mm512_set1_ps(8192.0f);
    const __m512i abs_mask = _mm512_set1_epi32(0x7fffffff);
    __m512 nrot = _mm512_sub_ps(_mm512_setzero_ps(), rot);
    __m512 rx = _mm512_sub_ps(nrot, shx);
    __m512 ry = _mm512_add_ps(_mm512_add_ps(nrot, _mm512_set1_ps(90.0f)), _mm512_sub_ps(_mm512_setzero_ps(), shy));
    __m512i kx = _mm512_castps_si512(rx), ky = _mm512_castps_si512(ry);
    __mmask16 same = _mm512_cmpeq_epi32_mask(kx, _mm512_loadu_si512((const void *)(r->trig_kx + i)));
    same = _mm512_mask_cmpeq_epi32_mask(same, ky, _mm512_loadu_si512((const void *)(r->trig_ky + i)));
    unsigned miss = ~(unsigned)same & local;
    if (!miss) return 0;
    __m512 ax = _mm512_mul_ps(rx, deg), ay = _mm512_mul_ps(ry, deg);
    __mmask16 in = _mm512_cmp_ps_mask(_mm512_castsi512_ps(_mm512_and_si512(_mm512_castps_si512(ax), abs_mask)), lim,
                                      _CMP_LT_OS);
    in = _mm512_mask_cmp_ps_mask(in, _mm512_castsi512_ps(_mm512_and_si512(_mm512_castps_si512(ay), abs_mask)), lim,
                                 _CMP_LT_OS);
    if (in != 0xffff) { /* bone by bone, as trig8 does (the refresh computes exactly the misses) */
        trig8_scalar(s, i, _mm512_castps512_ps256(rot), _mm512_castps512_ps256(shx), _mm512_castps512_ps256(shy),
                     local & 0xffu);
        trig8_scalar(s, i + 8, _mm256_castsi256_ps(_mm512_extracti64x4_epi64(_mm512_castps_si512(rot), 1)),
                     _mm256_castsi256_ps(_mm512_extracti64x4_epi64(_mm512_castps_si512(shx), 1)),
                     _mm256_castsi256_ps(_mm512_extracti64x4_epi64(_mm512_castps_si512(shy), 1)), local >> 8);
        return miss;
    }
    __m512 cx, sx, cy, sy;
    sincos16(ax, &cx, &sx);
    sincos16(ay, &cy, &sy);
    __mmask16 m = (__mmask16)local;
    _mm512_mask_storeu_epi32(r->trig_kx + i, m, kx), _mm512_mask_storeu_epi32(r->trig_ky + i, m, ky);
    _mm512_mask_storeu_ps(r->trig_cx + i, m, cx), _mm512_mask_storeu_ps(r->trig_sx + i, m, sx);
    _mm512_mask_storeu_ps(r->trig_cy + i, m, cy), _mm512_mask_storeu_ps(r->trig_sy + i, m, sy);
    return miss; /* the others computed their same values */
}

/* mark16 with AVX-512: the same per bone, one register a channel. */
AVX512 static inline __attribute__((always_inline)) unsigned mark16w(const mark_arrays *r, mf_pose_scratch *s,
                                                                    int32_t i, __m128i fresh, bool all, bool other)
{
    __mmask16 same = 0xffff;
    __m512i rot, shx, shy, unused;
#define MF_CHANNEL(local, applied, keep)                                                                   \
    do {                                                                                                   \
        __m512i c_ = _mm512_loadu_si512((const void *)(r->local + i));                                   \
        __asm__("" : "+v"(c_)); /* loaded once, for the compare and the store */                        \
        same = _mm512_mask_cmpeq_epi32_mask(same, c_, _mm512_loadu_si512((const void *)(r->applied + i))); \
        _mm512_storeu_si512((void *)(r->applied + i), c_);                                                \
        keep = c_;                                                                                        \
    } while (0)
    MF_CHANNEL(x, ax, unused);
    MF_CHANNEL(y, ay, unused);
    MF_CHANNEL(rot, arot, rot);
    MF_CHANNEL(sx, asx, unused);
    MF_CHANNEL(sy, asy, unused);
    MF_CHANNEL(shx, ashx, shx);
    MF_CHANNEL(shy, ashy, shy);
#undef MF_CHANNEL
    (void)unused;
    __m128i same8 = _mm_movm_epi8(same); /* 0xff where a bone keeps */
    __m128i vi = flags16(r, i, same8, fresh, all);
    const __m128i ones = _mm_set1_epi8(1);
    unsigned lbits = 0xffffu; /* the bones whose matrix takes their own angles */
    if (other) lbits = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_min_epu8(vi, ones), vi));
    return trig16(s, r, i, _mm512_castsi512_ps(rot), _mm512_castsi512_ps(shx), _mm512_castsi512_ps(shy), lbits);
}

MF_MARK_ALL(mark_all_w, AVX512, mark16w)
#undef MF_MARK_ALL

AVX512 __attribute__((noinline)) static int32_t dirty_mark_avx512(mf_pose *p)
{
    return p->scratch->inherit_other ? mark_all_w(p, true) : mark_all_w(p, false);
}

/* other (mf_pose_scratch.inherit_other): the data has bones whose trigonometry the update
 * keeps (trig8); a pass for each, so that rigs without them test nothing more. */
AVX2 int32_t mf_pose_dirty_mark_avx2(mf_pose *p)
{
    if (p->scratch->trig_avx512 && p->bone_count >= 16) return dirty_mark_avx512(p);
    return p->scratch->inherit_other ? mark_all(p, true) : mark_all(p, false);
}
#endif
