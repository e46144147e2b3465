/* atan2 for the pose updates (not public): the constraints and physics call it several times a
 * bone, and libm's costs about 130 instructions. Reduction of |y|/|x| (or its inverse) to
 * |u| <= tan(pi/16) around tan(k*pi/8), k = 0..2, then the series to u^15: relative error
 * below 4e-13 (the next term, u^17/17), far under float precision. mf_atan2 hands both zero,
 * infinities and NaN to libm, which gives their signed results; mf_atan2_ff (floats) only the
 * pairs libm's results cannot come from the series for. */
#ifndef MF_POSE_ATAN_H
#define MF_POSE_ATAN_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/* The series on t = min(|x|, |y|) / max(|x|, |y|) in [0, 1] (swap: |y| > |x|); ny, nx: the
 * sign bits of y and x. */
static inline double mf_atan2_reduced(double t, int swap, bool ny, bool nx)
{
    double base = 0, u = t;
    if (t > 0.66817863791929891) { /* tan(3pi/16): around tan(pi/4) = 1 */
        base = 0.78539816339744831, u = (t - 1.0) / (t + 1.0);
    } else if (t > 0.19891236737965800) { /* tan(pi/16): around tan(pi/8) */
        base = 0.39269908169872415, u = (t - 0.41421356237309503) / (1.0 + t * 0.41421356237309503);
    }
    double z = u * u;
    double s = u + u * z * (-1.0 / 3 + z * (1.0 / 5 + z * (-1.0 / 7 + z * (1.0 / 9 + z * (-1.0 / 11 +
               z * (1.0 / 13 + z * (-1.0 / 15)))))));
    double r = base + s;
    if (swap) r = 1.5707963267948966 - r;
    if (nx) r = 3.1415926535897931 - r;
    return ny ? -r : r;
}

static inline double mf_atan2(double y, double x)
{
    double ax = fabs(x), ay = fabs(y);
    if (!(ax < INFINITY && ay < INFINITY) || (ax == 0 && ay == 0)) return atan2(y, x);
    int swap = ay > ax;
    double r = mf_atan2_reduced(swap ? ax / ay : ay / ax, swap, false, signbit(x));
    return signbit(y) ? -r : r;
}

/* mf_atan2 of two floats, the same bits, with one test: the ratio is NaN where both are zero,
 * both infinite or one is NaN (libm's cases). One infinite or one zero gives t = 0, and the
 * series then gives exactly the 0, pi/2 or pi (signed) that libm gives for them. */
static inline double mf_atan2_ff(float y, float x)
{
    uint32_t bx, by;
    memcpy(&bx, &x, sizeof bx), memcpy(&by, &y, sizeof by);
    double ax = fabs((double)x), ay = fabs((double)y);
    int swap = ay > ax;
    double t = swap ? ax / ay : ay / ax;
    if (t != t) return atan2(y, x);
    return mf_atan2_reduced(t, swap, by >> 31, bx >> 31); /* the signs off the floats' bits */
}

static inline float mf_atan2f(float y, float x) { return (float)mf_atan2_ff(y, x); }

/* atan2 in degrees, as a float. */
static inline float mf_atan2d(float y, float x) { return (float)(mf_atan2_ff(y, x) * (180.0 / 3.14159265358979323846)); }

#if defined(__SSE2__) && !defined(MF_NO_SIMD)
#include <emmintrin.h>

/* mf_atan2_reduced's constants, each twice (one per lane). */
static const double mf_atan_k2[16][2] __attribute__((aligned(16))) = {
    {-0.0, -0.0}, {1.0, 1.0}, {0.66817863791929891, 0.66817863791929891},
    {0.19891236737965800, 0.19891236737965800}, {0.41421356237309503, 0.41421356237309503},
    {0.78539816339744831, 0.78539816339744831}, {0.39269908169872415, 0.39269908169872415},
    {1.5707963267948966, 1.5707963267948966}, {3.1415926535897931, 3.1415926535897931},
    {-1.0 / 15, -1.0 / 15}, {1.0 / 13, 1.0 / 13}, {-1.0 / 11, -1.0 / 11}, {1.0 / 9, 1.0 / 9},
    {-1.0 / 7, -1.0 / 7}, {1.0 / 5, 1.0 / 5}, {-1.0 / 3, -1.0 / 3}};

/* The series part of mf_atan2 for two (y, x) pairs in the lanes of y and x, each lane the
 * scalar's operations on its values in its order, so each keeps its bits: the region's
 * branches as masks (with c = 1, tan(pi/8) or 0 the scalar's u is (t - c) / (1 + t c): t 1 = t,
 * t - 0 = t and t / 1 = t exactly); every value from the series up is >= +0, so pi/2 - v is
 * pi/2 + -v and, where not turned, 0 + v is v; x = -0 (not turned by pi) only meets t = 0,
 * turned to pi/2, which pi - pi/2 leaves. *nan: the ratio is NaN in a lane (both zero, both
 * infinite, a NaN), where mf_atan2 asks libm; the result is then not to be used. */
static inline __attribute__((always_inline)) __m128d mf_atan2_pd(__m128d y, __m128d x, bool *nan)
{
    const double(*k)[2] = mf_atan_k2;
    __asm__("" : "+r"(k)); /* the constants as memory operands, not rebuilt from scalars */
#define MF_AK(n) _mm_load_pd(k[n])
    const __m128d sign = MF_AK(0);
    __m128d ax = _mm_andnot_pd(sign, x), ay = _mm_andnot_pd(sign, y);
    __m128d t = _mm_div_pd(_mm_min_pd(ax, ay), _mm_max_pd(ay, ax));
    *nan = _mm_movemask_pd(_mm_cmpunord_pd(t, t)) != 0;
    if (__builtin_expect(*nan, 0)) return t; /* the caller asks the scalar */
    __m128d hi = _mm_cmpgt_pd(t, MF_AK(2)), mid = _mm_cmpgt_pd(t, MF_AK(3));
    __m128d c = _mm_max_pd(_mm_and_pd(mid, MF_AK(4)), _mm_and_pd(hi, MF_AK(1)));
    __m128d base = _mm_max_pd(_mm_and_pd(mid, MF_AK(6)), _mm_and_pd(hi, MF_AK(5)));
    __m128d u = _mm_div_pd(_mm_sub_pd(t, c), _mm_add_pd(MF_AK(1), _mm_mul_pd(t, c)));
    __m128d z = _mm_mul_pd(u, u);
    __m128d q = _mm_add_pd(MF_AK(10), _mm_mul_pd(z, MF_AK(9)));
    q = _mm_add_pd(MF_AK(11), _mm_mul_pd(z, q));
    q = _mm_add_pd(MF_AK(12), _mm_mul_pd(z, q));
    q = _mm_add_pd(MF_AK(13), _mm_mul_pd(z, q));
    q = _mm_add_pd(MF_AK(14), _mm_mul_pd(z, q));
    q = _mm_add_pd(MF_AK(15), _mm_mul_pd(z, q));
    __m128d v = _mm_add_pd(base, _mm_add_pd(u, _mm_mul_pd(_mm_mul_pd(u, z), q)));
    __m128d swap = _mm_cmpgt_pd(ay, ax);
    v = _mm_add_pd(_mm_and_pd(swap, MF_AK(7)), _mm_xor_pd(v, _mm_and_pd(swap, sign)));
    __m128d nx = _mm_cmplt_pd(x, _mm_setzero_pd());
    v = _mm_add_pd(_mm_and_pd(nx, MF_AK(8)), _mm_xor_pd(v, _mm_and_pd(nx, sign)));
#undef MF_AK
    return _mm_xor_pd(v, _mm_and_pd(y, sign)); /* -v where y's sign bit is set */
}
#endif

/* mf_atan2 of (y0, x0) and (y1, x1): with SSE2 both in the lanes of mf_atan2_pd (each lane
 * mf_atan2's bits; the pairs libm answers go to the scalar), else two calls. */
static inline __attribute__((always_inline)) void mf_atan2_two(double y0, double x0, double y1, double x1,
                                                               double *r0, double *r1)
{
#if defined(__SSE2__) && !defined(MF_NO_SIMD)
    bool nan;
    __m128d r = mf_atan2_pd(_mm_setr_pd(y0, y1), _mm_setr_pd(x0, x1), &nan);
    if (__builtin_expect(!nan, 1)) {
        *r0 = _mm_cvtsd_f64(r), *r1 = _mm_cvtsd_f64(_mm_unpackhi_pd(r, r));
        return;
    }
#endif
    *r0 = mf_atan2(y0, x0), *r1 = mf_atan2(y1, x1);
}

/* mf_atan2d of (y0, x0) and (y1, x1), the same way (the floats' doubles in the lanes). */
static inline __attribute__((always_inline)) void mf_atan2d_two(float y0, float x0, float y1, float x1, float *d0,
                                                                float *d1)
{
#if defined(__SSE2__) && !defined(MF_NO_SIMD)
    bool nan;
    __m128d r = mf_atan2_pd(_mm_cvtps_pd(_mm_setr_ps(y0, y1, 0.0f, 0.0f)),
                            _mm_cvtps_pd(_mm_setr_ps(x0, x1, 0.0f, 0.0f)), &nan);
    if (__builtin_expect(!nan, 1)) {
        __m128 f = _mm_cvtpd_ps(_mm_mul_pd(r, _mm_set1_pd(180.0 / 3.14159265358979323846)));
        *d0 = _mm_cvtss_f32(f), *d1 = _mm_cvtss_f32(_mm_shuffle_ps(f, f, 1));
        return;
    }
#endif
    *d0 = mf_atan2d(y0, x0), *d1 = mf_atan2d(y1, x1);
}

#endif
