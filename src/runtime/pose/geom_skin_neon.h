/* NEON skinning on aarch64: the SSE2 kernels of geom_skin.h and geom_vertices.c in the same
 * operations and order, so that the bits are the scalar path's. Only vmulq / vaddq / vpadd
 * (IEEE single, each rounded): never vfmaq / vmlaq, and the build's -ffp-contract=off keeps the
 * compiler from fusing the multiplies and adds itself. Included by geom_vertices.c only. */
#ifndef MF_GEOM_SKIN_NEON_H
#define MF_GEOM_SKIN_NEON_H
#include "mf/mf_skel_data.h"

#if defined(__aarch64__) && defined(__ARM_NEON) && !defined(MF_NO_SIMD)
#define MF_SKIN_NEON 1
#include <arm_neon.h>

/* One influence record, with its deform offsets added when def is not NULL:
 * {X + dx·w, Y + dy·w, w + 0·w, 8·bone + 0·w} (the scalar path's order). */
static inline float32x4_t mf_skin_rec_neon(const float *r, const float *def)
{
    float32x4_t rec = vld1q_f32(r);
    if (def) {
        float32x4_t dv = vcombine_f32(vld1_f32(def), vdup_n_f32(0.0f)); /* dx dy 0 0 */
        rec = vaddq_f32(rec, vmulq_f32(dv, vdupq_laneq_f32(rec, 2)));
    }
    return rec;
}

/* One weighted vertex (count >= 1 records from r; def: its deform offsets, real of them, or
 * NULL): per record the products with {a, b, wx, 0} and {c, d, wy, 0} summed in order, then
 * x = (Σa·X + Σb·Y) + (Σwx·w + Σ0), y likewise (vpadd adds neighbouring lanes, low first). */
static inline void mf_skin_vertex_neon(const float *mats, const float *r, int32_t count, const float *def,
                                       int32_t real, float *out)
{
    static const float no_deform[2] = {0.0f, 0.0f}; /* a padding record's offsets */
    float32x4_t rec = mf_skin_rec_neon(r, def);
    const float *m = mats + (int64_t)r[3];
    float32x4_t ax = vmulq_f32(rec, vld1q_f32(m)), ay = vmulq_f32(rec, vld1q_f32(m + 4));
    for (int32_t j = 1; j < count; j++) {
        rec = mf_skin_rec_neon(r + 4 * j, def ? (j < real ? def + 2 * j : no_deform) : NULL);
        m = mats + (int64_t)r[4 * j + 3];
        ax = vaddq_f32(ax, vmulq_f32(rec, vld1q_f32(m)));
        ay = vaddq_f32(ay, vmulq_f32(rec, vld1q_f32(m + 4)));
    }
    float32x4_t u = vpaddq_f32(ax, ay); /* x0 + x1, x2 + x3, y0 + y1, y2 + y3 */
    vst1_f32(out, vpadd_f32(vget_low_f32(u), vget_high_f32(u)));
}

/* Weighted attachment att's vertices from the packed matrices and the build's shared streams
 * (its groups in d), the slot's deform or NULL: one vertex a step. */
static inline void mf_skin_weighted_neon(const float *mats, const mf_skel_data *d, int32_t att, const float *deform,
                                         float *out)
{
    const mf_sd_skin_group *g = d->skin_groups + d->skin_group_first[att];
    int32_t ng = d->skin_group_first[att + 1] - d->skin_group_first[att] - g->runs; /* the chain of every vertex */
    g += g->runs;
    for (int32_t k = 0; k < ng; k++, g++) {
        const float *r = &d->skin_records[g->record_first].wx; /* 4 floats a record, read as one run */
        const int32_t *vo = &d->skin_vertices[g->vertex_first].out;
        for (int32_t i = 0; i < g->vertices; i++, r += 4 * g->count, vo += 4)
            mf_skin_vertex_neon(mats, r, g->count, deform ? deform + vo[1] : NULL, vo[2], out + vo[0]);
    }
}

/* Unweighted, two vertices a step from the bone's packed matrix: x' = (a·x + b·y) + wx in the
 * scalar path's order. */
static inline void mf_skin_rigid_neon(const float *mat, const float *v, const float *deform, int32_t n, float *out)
{
    float32x4x2_t z = vzipq_f32(vld1q_f32(mat), vld1q_f32(mat + 4)); /* a c b d, wx wy 0 0 */
    float32x2_t ac = vget_low_f32(z.val[0]), bd = vget_high_f32(z.val[0]), t = vget_low_f32(z.val[1]);
    float32x4_t m1 = vcombine_f32(ac, ac), m2 = vcombine_f32(bd, bd), t2 = vcombine_f32(t, t);
    int32_t i = 0;
    for (; i + 2 <= n; i += 2) {
        float32x4_t xy = vld1q_f32(v + 2 * i);
        if (deform) xy = vaddq_f32(xy, vld1q_f32(deform + 2 * i));
        float32x4_t xs = vtrn1q_f32(xy, xy), ys = vtrn2q_f32(xy, xy); /* x0 x0 x1 x1, y0 y0 y1 y1 */
        vst1q_f32(out + 2 * i, vaddq_f32(vaddq_f32(vmulq_f32(xs, m1), vmulq_f32(ys, m2)), t2));
    }
    if (i < n) {
        float32x2_t xy = vld1_f32(v + 2 * i);
        if (deform) xy = vadd_f32(xy, vld1_f32(deform + 2 * i));
        float32x2_t xs = vdup_lane_f32(xy, 0), ys = vdup_lane_f32(xy, 1);
        vst1_f32(out + 2 * i, vadd_f32(vadd_f32(vmul_f32(xs, ac), vmul_f32(ys, bd)), t));
    }
}
#else
#define MF_SKIN_NEON 0
#endif
#endif
