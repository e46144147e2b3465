/* Trigonometry of the world update (not public): cos and sin of float radians, scalar in
 * double and four lanes at a time in float SSE, and the bones' trigonometry cache. */
#ifndef MF_POSE_TRIG_H
#define MF_POSE_TRIG_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include <string.h>

#include "mf/mf_pose.h"
#include "pose_cmath.h"
#include "pose_internal.h"

#if defined(__SSE2__) && !defined(MF_NO_SIMD)
#define MF_TRIG_SSE2 1
#include <emmintrin.h>
#else
#define MF_TRIG_SSE2 0
#endif

/* mf_sincos_r: pose_cmath.h */

#if MF_TRIG_SSE2
/* cos and sin of four float angles in radians, |x| < 8192: reduction by pi/2 in three parts
 * (k * the first part exact for |k| < 2^16), minimax polynomials on |y| <= pi/4, and per lane
 * the quadrant (cos is the sine a quarter turn on). Within about 1 ulp of (float)cos((double)x)
 * and (float)sin((double)x) (checked over every float angle to ±720 degrees); the sign of every
 * value follows the float angle's side of each multiple of 90 degrees as the exact functions
 * do, so a bone scaled to 0 keeps the signed zero axis constraints read. Zero gives cos 1 and
 * sin ±0 exactly. */
static inline void mf_sincos_ps(__m128 x, __m128 *c, __m128 *s)
{
    __m128i ki = _mm_cvtps_epi32(_mm_mul_ps(x, _mm_set1_ps(0.636619772f)));
    __m128 k = _mm_cvtepi32_ps(ki);
    __m128 y = _mm_sub_ps(x, _mm_mul_ps(k, _mm_set1_ps(1.5703125f)));
    y = _mm_sub_ps(y, _mm_mul_ps(k, _mm_set1_ps(4.837512969970703125e-4f)));
    y = _mm_sub_ps(y, _mm_mul_ps(k, _mm_set1_ps(7.54978995489188216e-8f)));
    __m128 z = _mm_mul_ps(y, y);
    __m128 ps = _mm_add_ps(_mm_mul_ps(z, _mm_set1_ps(-1.9515295891e-4f)), _mm_set1_ps(8.3321608736e-3f));
    ps = _mm_add_ps(_mm_mul_ps(z, ps), _mm_set1_ps(-1.6666654611e-1f));
    __m128 sp = _mm_add_ps(y, _mm_mul_ps(_mm_mul_ps(y, z), ps));
    __m128 pc = _mm_add_ps(_mm_mul_ps(z, _mm_set1_ps(2.443315711809948e-5f)), _mm_set1_ps(-1.388731625493765e-3f));
    pc = _mm_add_ps(_mm_mul_ps(z, pc), _mm_set1_ps(4.166664568298827e-2f));
    __m128 cp = _mm_add_ps(_mm_sub_ps(_mm_set1_ps(1.0f), _mm_mul_ps(z, _mm_set1_ps(0.5f))),
                           _mm_mul_ps(_mm_mul_ps(z, z), pc));
    __m128i one = _mm_set1_epi32(1), two = _mm_set1_epi32(2);
    __m128i qc = _mm_add_epi32(ki, one);
    __m128 odd_s = _mm_castsi128_ps(_mm_cmpeq_epi32(_mm_and_si128(ki, one), one));
    __m128 neg_s = _mm_castsi128_ps(_mm_slli_epi32(_mm_and_si128(ki, two), 30)); /* bit 1 to the sign */
    __m128 neg_c = _mm_castsi128_ps(_mm_slli_epi32(_mm_and_si128(qc, two), 30));
    __m128 sv = _mm_xor_ps(_mm_or_ps(_mm_and_ps(odd_s, cp), _mm_andnot_ps(odd_s, sp)), neg_s);
    __m128 cv = _mm_xor_ps(_mm_or_ps(_mm_and_ps(odd_s, sp), _mm_andnot_ps(odd_s, cp)), neg_c);
    __m128 zero = _mm_cmpeq_ps(x, _mm_setzero_ps());
    *s = _mm_or_ps(_mm_and_ps(zero, x), _mm_andnot_ps(zero, sv));
    *c = cv;
}
#endif

#if !MF_TRIG_SSE2
/* One lane of mf_sincos_ps in plain C, |x| < 8192: the same float operations in the same order
 * (the conversion's round-to-nearest-even by adding and taking away 1.5 * 2^23, exact for
 * |x * 2/pi| < 2^22), the same quadrant bits, so a build without SSE2 (aarch64, -DMF_NO_SIMD)
 * fills the trigonometry cache with the bits of one with it. */
static inline void mf_sincos_fs(float x, float *c, float *s)
{
    float kf = (x * 0.636619772f + 12582912.0f) - 12582912.0f;
    int32_t ki = (int32_t)kf;
    float k = (float)ki;
    float y = x - k * 1.5703125f;
    y = y - k * 4.837512969970703125e-4f;
    y = y - k * 7.54978995489188216e-8f;
    float z = y * y;
    float ps = z * -1.9515295891e-4f + 8.3321608736e-3f;
    ps = z * ps + -1.6666654611e-1f;
    float sp = y + y * z * ps;
    float pc = z * 2.443315711809948e-5f + -1.388731625493765e-3f;
    pc = z * pc + 4.166664568298827e-2f;
    float cp = (1.0f - z * 0.5f) + z * z * pc;
    uint32_t neg_s = ((uint32_t)ki & 2u) << 30, neg_c = ((uint32_t)(ki + 1) & 2u) << 30;
    float sv = ki & 1 ? cp : sp, cv = ki & 1 ? sp : cp;
    uint32_t b;
    memcpy(&b, &sv, sizeof b), b ^= neg_s, memcpy(&sv, &b, sizeof b);
    memcpy(&b, &cv, sizeof b), b ^= neg_c, memcpy(&cv, &b, sizeof b);
    *s = x == 0 ? x : sv;
    *c = cv;
}
#endif

/* cos and sin of two float angles in radians: {cos r0, sin r0, cos r1, sin r1}; the float
 * polynomials (the SIMD lanes' or their plain C twin) while both are under 8192 radians, else
 * the double functions. */
static inline void mf_sincos2_r(float r0, float r1, float cs_sn[4])
{
    if (fabsf(r0) < 8192.0f && fabsf(r1) < 8192.0f) {
#if MF_TRIG_SSE2
        __m128 c, s;
        mf_sincos_ps(_mm_setr_ps(r0, r1, 0, 0), &c, &s);
        _mm_storeu_ps(cs_sn, _mm_unpacklo_ps(c, s));
#else
        mf_sincos_fs(r0, &cs_sn[0], &cs_sn[1]);
        mf_sincos_fs(r1, &cs_sn[2], &cs_sn[3]);
#endif
        return;
    }
    mf_sincos_r(r0, &cs_sn[0], &cs_sn[1]);
    mf_sincos_r(r1, &cs_sn[2], &cs_sn[3]);
}

/* Makes bone i's trigonometry cache hold the cos and sin of its local matrix's two angles,
 * (0 - rot) - shx and ((0 - rot) + 90) - shy in degrees (the mirror image of Spine's Y-up
 * angles, pose_world.c), keyed on their bits: the one place that forms them one bone at a
 * time (mf_pose_trig_group forms the same bits four at a time). true when it computed. Always
 * inlined: a call would cost more than its usual hit. */
static inline __attribute__((always_inline)) bool mf_pose_trig_refresh(mf_pose_scratch *s, int32_t i, float rot, float shx, float shy)
{
    float rx = (0.0f - rot) - shx, ry = ((0.0f - rot) + 90.0f) + (0.0f - shy);
    uint32_t kx, ky;
    memcpy(&kx, &rx, sizeof kx), memcpy(&ky, &ry, sizeof ky);
    if (s->trig_kx[i] == kx && s->trig_ky[i] == ky) return false;
    float t[4];
    mf_sincos2_r(rx * (float)MF_DEG, ry * (float)MF_DEG, t);
    s->trig_kx[i] = kx, s->trig_ky[i] = ky;
    s->trig_cx[i] = t[0], s->trig_sx[i] = t[1], s->trig_cy[i] = t[2], s->trig_sy[i] = t[3];
    return true;
}

/* mf_pose_trig_refresh for two bones, both missing computed in one four-lane call (the
 * lanes give the bits of the two-lane one). Returns the bones computed. */
static inline int32_t mf_pose_trig_refresh2(mf_pose_scratch *s, int32_t i, float rot, float shx, float shy,
                                            int32_t j, float rot2, float shx2, float shy2)
{
#if MF_TRIG_SSE2
    float rx = (0.0f - rot) - shx, ry = ((0.0f - rot) + 90.0f) + (0.0f - shy);
    float rx2 = (0.0f - rot2) - shx2, ry2 = ((0.0f - rot2) + 90.0f) + (0.0f - shy2);
    uint32_t kx, ky, kx2, ky2;
    memcpy(&kx, &rx, sizeof kx), memcpy(&ky, &ry, sizeof ky);
    memcpy(&kx2, &rx2, sizeof kx2), memcpy(&ky2, &ry2, sizeof ky2);
    float a0 = rx * (float)MF_DEG, a1 = ry * (float)MF_DEG, a2 = rx2 * (float)MF_DEG, a3 = ry2 * (float)MF_DEG;
    if ((s->trig_kx[i] != kx || s->trig_ky[i] != ky) && (s->trig_kx[j] != kx2 || s->trig_ky[j] != ky2) &&
        fabsf(a0) < 8192.0f && fabsf(a1) < 8192.0f && fabsf(a2) < 8192.0f && fabsf(a3) < 8192.0f) {
        __m128 c, sn;
        mf_sincos_ps(_mm_setr_ps(a0, a1, a2, a3), &c, &sn);
        float cv[4], sv[4];
        _mm_storeu_ps(cv, c), _mm_storeu_ps(sv, sn);
        s->trig_kx[i] = kx, s->trig_ky[i] = ky, s->trig_kx[j] = kx2, s->trig_ky[j] = ky2;
        s->trig_cx[i] = cv[0], s->trig_sx[i] = sv[0], s->trig_cy[i] = cv[1], s->trig_sy[i] = sv[1];
        s->trig_cx[j] = cv[2], s->trig_sx[j] = sv[2], s->trig_cy[j] = cv[3], s->trig_sy[j] = sv[3];
        return 2;
    }
#endif
    return (int32_t)mf_pose_trig_refresh(s, i, rot, shx, shy) + (int32_t)mf_pose_trig_refresh(s, j, rot2, shx2, shy2);
}

#if MF_TRIG_SSE2
/* Stores v at p in the lanes of m (all ones), keeping the others. */
static inline void mf_trig_store_masked(void *p, __m128i m, __m128i v)
{
    __m128i old = _mm_loadu_si128((const __m128i *)p);
    _mm_storeu_si128((__m128i *)p, _mm_or_si128(_mm_and_si128(m, v), _mm_andnot_si128(m, old)));
}

/* Makes bones i..i+3's trigonometry cache hold the cos and sin of the angles of rotations rot
 * and shears shx, shy (the same bits mf_pose_trig_refresh forms), computing only when a key
 * differs, for the bones whose local matrix takes their own angles, Normal or
 * OnlyTranslation (lanes of all ones in normal): the others' entries are left to the world
 * update, which forms other angles for them (pose_world.c). Returns the bones computed (0 or
 * the group's ones of those). */
static inline int32_t mf_pose_trig_group(mf_pose_scratch *s, int32_t i, __m128 rot, __m128 shx, __m128 shy,
                                         __m128i normal)
{
    __m128 nrot = _mm_sub_ps(_mm_setzero_ps(), rot);
    __m128 rx = _mm_sub_ps(nrot, shx);
    __m128 ry = _mm_add_ps(_mm_add_ps(nrot, _mm_set1_ps(90.0f)), _mm_sub_ps(_mm_setzero_ps(), shy));
    __m128i kx = _mm_castps_si128(rx), ky = _mm_castps_si128(ry);
    __m128i same = _mm_and_si128(_mm_cmpeq_epi32(kx, _mm_loadu_si128((const __m128i *)(const void *)(s->trig_kx + i))),
                                 _mm_cmpeq_epi32(ky, _mm_loadu_si128((const __m128i *)(const void *)(s->trig_ky + i))));
    int lanes = _mm_movemask_ps(_mm_castsi128_ps(normal));
    if ((_mm_movemask_ps(_mm_castsi128_ps(same)) & lanes) == lanes) return 0;
    const __m128 deg = _mm_set1_ps((float)MF_DEG), lim = _mm_set1_ps(8192.0f);
    const __m128 abs_mask = _mm_castsi128_ps(_mm_set1_epi32(0x7fffffff));
    __m128 ax = _mm_mul_ps(rx, deg), ay = _mm_mul_ps(ry, deg);
    __m128 in = _mm_and_ps(_mm_cmplt_ps(_mm_and_ps(ax, abs_mask), lim), _mm_cmplt_ps(_mm_and_ps(ay, abs_mask), lim));
    if (_mm_movemask_ps(in) != 15) { /* an angle past the vector range (or NaN): bone by bone */
        float r[4], x[4], y[4];
        _mm_storeu_ps(r, rot), _mm_storeu_ps(x, shx), _mm_storeu_ps(y, shy);
        for (int32_t j = 0; j < 4; j++)
            if (lanes >> j & 1) mf_pose_trig_refresh(s, i + j, r[j], x[j], y[j]);
        return __builtin_popcount((unsigned)lanes);
    }
    __m128 cx, sx, cy, sy;
    mf_sincos_ps(ax, &cx, &sx);
    mf_sincos_ps(ay, &cy, &sy);
    if (lanes == 15) {
        _mm_storeu_si128((__m128i *)(void *)(s->trig_kx + i), kx);
        _mm_storeu_si128((__m128i *)(void *)(s->trig_ky + i), ky);
        _mm_storeu_ps(s->trig_cx + i, cx), _mm_storeu_ps(s->trig_sx + i, sx);
        _mm_storeu_ps(s->trig_cy + i, cy), _mm_storeu_ps(s->trig_sy + i, sy);
        return 4;
    }
    mf_trig_store_masked(s->trig_kx + i, normal, kx), mf_trig_store_masked(s->trig_ky + i, normal, ky);
    mf_trig_store_masked(s->trig_cx + i, normal, _mm_castps_si128(cx));
    mf_trig_store_masked(s->trig_sx + i, normal, _mm_castps_si128(sx));
    mf_trig_store_masked(s->trig_cy + i, normal, _mm_castps_si128(cy));
    mf_trig_store_masked(s->trig_sy + i, normal, _mm_castps_si128(sy));
    return __builtin_popcount((unsigned)lanes);
}
#endif

/* The AVX2 pass (pose_trig_avx2.c) exists on x86 with GCC or Clang unless MF_NO_SIMD; it runs
 * where the CPU has AVX2 (checked once, at create) and the pose has eight bones or more:
 * mf_pose_dirty_mark's work on every bone, eight at a time. Returns the bones whose angles
 * changed. */
#if MF_TRIG_SSE2 && (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
#define MF_TRIG_AVX2 1
bool mf_pose_trig_avx2_usable(void);
/* Whether the CPU and the OS have AVX-512 (F, BW, VL) besides AVX2: the dirty mark then takes
 * sixteen bones a step in one register a channel (mf_pose_scratch.trig_avx512). */
bool mf_pose_trig_avx512_usable(void);
int32_t mf_pose_dirty_mark_avx2(mf_pose *pose);
#else
#define MF_TRIG_AVX2 0
#endif

/* Empties the cache (at create). */
void mf_pose_trig_clear(mf_pose *pose);

#endif
