/* Double cos and sin for the constraints (not public): libm's sincos costs about 120
 * instructions a call, this about half. Cody-Waite reduction by pi/2 in three parts (exact
 * products for |k| < 2^20) and the Taylor series to x^17 on |y| <= pi/4: truncation below
 * 1e-18, so the results agree with libm's to the last bit or two of a double, far below the
 * float precision the constraints store. Large or non-finite angles go to libm. */
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
        *cs = cos(x), *sn = sin(x);
        return;
    }
    double k = (x * 0.6366197723675814 + 0x1.8p52) - 0x1.8p52; /* round to nearest */
    double y = ((x - k * 0x1.921fb54p+0) - k * 0x1.10b46118p-30) - k * 0x1.313198a2e0370p-61;
    double z = y * y;
    double s = y + y * z * (-1.0 / 6 + z * (1.0 / 120 + z * (-1.0 / 5040 + z * (1.0 / 362880 +
               z * (-1.0 / 39916800 + z * (1.0 / 6227020800.0 + z * (-1.0 / 1307674368000.0 +
               z * (1.0 / 355687428096000.0))))))));
    double c = 1.0 + z * (-1.0 / 2 + z * (1.0 / 24 + z * (-1.0 / 720 + z * (1.0 / 40320 +
               z * (-1.0 / 3628800 + z * (1.0 / 479001600 + z * (-1.0 / 87178291200.0 +
               z * (1.0 / 20922789888000.0))))))));
    switch ((int)((long long)k & 3)) {
    case 0: *cs = c, *sn = s; break;
    case 1: *cs = -s, *sn = c; break;
    case 2: *cs = -c, *sn = -s; break;
    default: *cs = s, *sn = -c; break;
    }
}

#endif
