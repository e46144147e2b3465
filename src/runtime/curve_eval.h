/* Evaluating the pre-sampled curves, shared by mf_skel_data_curve and the clip sampler (which
 * inlines it: it runs once per timeline and frame). */
#ifndef MF_CURVE_EVAL_H
#define MF_CURVE_EVAL_H
#include "mf/mf_skel_data.h"

/* A bezier's linear pieces at 0 < u < 1: the piece is found by a branchless binary search (x
 * ascends, checked at load), the same piece the first x >= u gives, so the same value. */
static inline float mf_bezier_at(const mf_sd_bezier *b, float u)
{
    const float *x = b->x;
    _Static_assert(MF_SD_CURVE_SAMPLES == 9, "the search below is unrolled for 9 samples");
    int i = x[4] < u ? 4 : 0; /* the answer lies in i..i + 5 */
    i += x[i + 2] < u ? 2 : 0;
    i += x[i + 1] < u;
    i += x[i + 1] < u;
    i += x[i] < u; /* samples below u: (0,0) before the first, (1,1) after the last */
    float x0 = i > 0 ? x[i - 1] : 0.0f, y0 = i > 0 ? b->y[i - 1] : 0.0f;
    float x1 = i < MF_SD_CURVE_SAMPLES ? x[i] : 1.0f, y1 = i < MF_SD_CURVE_SAMPLES ? b->y[i] : 1.0f;
    float w = x1 - x0;
    return w > 0.0f ? y0 + (y1 - y0) * (u - x0) / w : y1;
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
