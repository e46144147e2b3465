/* Double cos and sin for the constraints (not public): libm's sincos costs about 120
 * instructions a call, this about half. Cody-Waite reduction by pi/2 in three parts (exact
 * products for |k| < 2^20) and the Taylor series to x^17 on |y| <= pi/4: truncation below
 * 1e-18, so the results agree with libm's to the last bit or two of a double, far below the
 * float precision the constraints store. No libm transcendental is called, so the pose's bits
 * are the same whatever C library the runtime is linked with (glibc's and musl's sinf, cosf
 * and powf differ in last bits; tests/portable_bits.sh): angles of 1e5 radians and more
 * are first reduced by fmod (exact) with 2 pi as a double, which agrees with libm's exact
 * reduction to about |x| * 2.4e-16 only; non-finite angles give NaN. mf_powf_pos replaces
 * powf the same way. */
#ifndef MF_POSE_CMATH_H
#define MF_POSE_CMATH_H

#include <math.h>

#if defined(__SSE2__) && !defined(MF_NO_SIMD)
#include <emmintrin.h>
#endif

/* sqrt of a sum of squares (>= 0 or NaN): the instruction alone, libm's bits, without the
 * branch to libm for errno on a negative argument that cannot come. */
static inline double mf_sqrt_sq(double v)
{
#if defined(__SSE2__) && !defined(MF_NO_SIMD)
    __m128d x = _mm_set_sd(v);
    return _mm_cvtsd_f64(_mm_sqrt_sd(x, x));
#else
    return sqrt(v);
#endif
}

static inline void mf_sincos_d(double x, double *cs, double *sn)
{
    if (x == 0) { /* keeps the sign of a zero sine */
        *cs = 1.0, *sn = x;
        return;
    }
    if (!(fabs(x) < 1.0e5)) {
        if (!(fabs(x) <= 1.7976931348623157e308)) { /* NaN or infinite: NaN, as libm's */
            *cs = *sn = x - x;
            return;
        }
        x = fmod(x, 6.283185307179586); /* |x| < 2 pi, then as any other */
        if (x == 0) {
            *cs = 1.0, *sn = x;
            return;
        }
    }
    double k = (x * 0.6366197723675814 + 0x1.8p52) - 0x1.8p52; /* round to nearest */
    double y = ((x - k * 0x1.921fb54p+0) - k * 0x1.10b46118p-30) - k * 0x1.313198a2e0370p-61;
    double z = y * y;
#if defined(__SSE2__) && !defined(MF_NO_SIMD)
    /* both series in the lanes {s, c} of one vector, each lane the scalar's operations below in
     * their order (so its bits) */
    static const double kp[8][2] __attribute__((aligned(16))) = { /* innermost first */
        {1.0 / 355687428096000.0, 1.0 / 20922789888000.0}, {-1.0 / 1307674368000.0, -1.0 / 87178291200.0},
        {1.0 / 6227020800.0, 1.0 / 479001600}, {-1.0 / 39916800, -1.0 / 3628800}, {1.0 / 362880, 1.0 / 40320},
        {-1.0 / 5040, -1.0 / 720}, {1.0 / 120, 1.0 / 24}, {-1.0 / 6, -1.0 / 2}};
    __m128d zz = _mm_set1_pd(z), q = _mm_mul_pd(zz, _mm_load_pd(kp[0]));
    for (int i = 1; i < 7; i++) q = _mm_mul_pd(zz, _mm_add_pd(_mm_load_pd(kp[i]), q));
    q = _mm_add_pd(_mm_load_pd(kp[7]), q); /* the two bracketed sums */
    __m128d r = _mm_add_pd(_mm_setr_pd(y, 1.0), _mm_mul_pd(_mm_setr_pd(y * z, z), q));
    double s = _mm_cvtsd_f64(r), c = _mm_cvtsd_f64(_mm_unpackhi_pd(r, r));
#else
    double s = y + y * z * (-1.0 / 6 + z * (1.0 / 120 + z * (-1.0 / 5040 + z * (1.0 / 362880 +
               z * (-1.0 / 39916800 + z * (1.0 / 6227020800.0 + z * (-1.0 / 1307674368000.0 +
               z * (1.0 / 355687428096000.0))))))));
    double c = 1.0 + z * (-1.0 / 2 + z * (1.0 / 24 + z * (-1.0 / 720 + z * (1.0 / 40320 +
               z * (-1.0 / 3628800 + z * (1.0 / 479001600 + z * (-1.0 / 87178291200.0 +
               z * (1.0 / 20922789888000.0))))))));
#endif
    switch ((int)((long long)k & 3)) {
    case 0: *cs = c, *sn = s; break;
    case 1: *cs = -s, *sn = c; break;
    case 2: *cs = -c, *sn = -s; break;
    default: *cs = s, *sn = -c; break;
    }
}


/* cos and sin of a float angle in radians: mf_sincos_d rounded to float. They equal
 * (float)cos((double)r) and (float)sin((double)r) except where a double lies within a few ulps
 * of a float rounding boundary (checked bit for bit against libm for every float with
 * |r| < 1e5: none differ). */
static inline void mf_sincos_r(float r, float *cs, float *sn)
{
    double c, s;
    mf_sincos_d(r, &c, &s);
    *cs = (float)c, *sn = (float)s;
}

/* x^y for x > 0 and finite y, in double through the logarithm and the exponential, then rounded
 * to float: relative error about 1e-15 before the rounding (so the correctly rounded float but
 * where x^y lies that close to a rounding boundary), no libm call but the exact frexp and
 * ldexp. Other arguments: NaN. */
static inline float mf_powf_pos(float xf, float yf)
{
    double x = xf, y = yf;
    if (!(x > 0 && x <= 3.4028234663852886e38) || !(fabs(y) <= 3.4028234663852886e38)) return NAN;
    int e;
    double m = frexp(x, &e); /* x = m 2^e, m in [0.5, 1) */
    if (m < 0.70710678118654752) m *= 2, e--; /* m in [sqrt(1/2), sqrt(2)) */
    double t = (m - 1) / (m + 1), t2 = t * t; /* ln m = 2 atanh(t), |t| < 0.1716 */
    double series = 1.0 / 23;
    for (int k = 21; k >= 1; k -= 2) series = 1.0 / k + t2 * series;
    double ln_hi = e * 0.6931471803691238, ln_lo = e * 1.9082149292705877e-10; /* ln 2 in two parts */
    double l = y * (ln_hi + (2 * t * series + ln_lo));
    if (l > 89.0) return (float)INFINITY; /* beyond float's range (x^y > 2^128) */
    if (l < -104.0) return 0.0f;          /* below float's smallest subnormal */
    double j = (l * 1.4426950408889634 + 0x1.8p52) - 0x1.8p52; /* round to nearest */
    double r = (l - j * 0.6931471803691238) - j * 1.9082149292705877e-10; /* |r| <= ln2 / 2 */
    double p = 1.0 / 355687428096000.0; /* 1/17! */
    static const double inv_fact[17] = {1.0 / 20922789888000.0, 1.0 / 1307674368000.0, 1.0 / 87178291200.0,
                                        1.0 / 6227020800.0, 1.0 / 479001600, 1.0 / 39916800, 1.0 / 3628800,
                                        1.0 / 362880, 1.0 / 40320, 1.0 / 5040, 1.0 / 720, 1.0 / 120, 1.0 / 24,
                                        1.0 / 6, 0.5, 1, 1};
    for (int k = 0; k < 17; k++) p = inv_fact[k] + r * p;
    return (float)ldexp(p, (int)j);
}

#endif
