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

#endif
