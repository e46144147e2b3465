/* The world step of a Normal bone (or a root) from its cached cos and sin, shared by the world
 * update (pose_world.c) and the IK (pose_ik.c), which inlines it after its solve instead of
 * passing the solved values through an array and a call. Not public. */
#ifndef MF_POSE_WORLD_H
#define MF_POSE_WORLD_H

#include "pose_internal.h"

#if defined(__SSE2__) && !defined(MF_NO_SIMD)
#include <emmintrin.h>
#endif

/* The local 2×2 from bone i's trigonometry cache (pose_world.c says why the signs). */
static inline __attribute__((always_inline)) void mf_pose_local_fresh(const mf_pose *p, int32_t i, float sx, float sy,
                                                                      float l[4])
{
    const mf_pose_scratch *s = p->scratch;
    l[0] = s->trig_cx[i] * sx, l[1] = -(s->trig_cy[i] * sy);
    l[2] = -(s->trig_sx[i] * sx), l[3] = s->trig_sy[i] * sy;
}

/* Bone i's world from applied x, y, sx, sy and its cache: the parent's matrix times the local
 * one (Normal), or the local one for a root (par < 0). */
static inline __attribute__((always_inline)) void mf_pose_world_normal(mf_pose *p, int32_t i, int32_t par, float x,
                                                                       float y, float sx, float sy)
{
    const mf_pose_scratch *s = p->scratch;
    /* l1 = -n1, l2 = -n2 enter the product as subtractions (p + -q is p - q exactly) */
    float l0 = s->trig_cx[i] * sx, n1 = s->trig_cy[i] * sy, n2 = s->trig_sx[i] * sx, l3 = s->trig_sy[i] * sy;
    if (par < 0) {
        p->a[i] = l0, p->b[i] = -n1, p->c[i] = -n2, p->d[i] = l3;
        p->wx[i] = x, p->wy[i] = y;
        return;
    }
    float pa = p->a[par], pb = p->b[par], pc = p->c[par], pd = p->d[par];
    p->wx[i] = pa * x + pb * y + p->wx[par];
    p->wy[i] = pc * x + pd * y + p->wy[par];
    p->a[i] = pa * l0 - pb * n2;
    p->b[i] = pb * l3 - pa * n1;
    p->c[i] = pc * l0 - pd * n2;
    p->d[i] = pd * l3 - pc * n1;
}

/* mf_pose_world_normal for bone i (parent pi) and then its child j, the arrays loaded once. */
static inline __attribute__((always_inline)) void mf_pose_world_normal2(mf_pose *p, int32_t i, int32_t pi, float xi,
                                                                        float yi, float sxi, float syi, int32_t j,
                                                                        float xj, float yj, float sxj, float syj)
{
    const mf_pose_scratch *s = p->scratch;
    const float *tcx = s->trig_cx, *tcy = s->trig_cy, *tsx = s->trig_sx, *tsy = s->trig_sy;
    float *A = p->a, *B = p->b, *C = p->c, *D = p->d, *WX = p->wx, *WY = p->wy;
    float l0 = tcx[i] * sxi, n1 = tcy[i] * syi, n2 = tsx[i] * sxi, l3 = tsy[i] * syi; /* l1 = -n1, l2 = -n2 */
    float pa, pb, pc, pd;
    if (pi < 0) {
        A[i] = pa = l0, B[i] = pb = -n1, C[i] = pc = -n2, D[i] = pd = l3;
        WX[i] = xi, WY[i] = yi;
    } else {
        float qa = A[pi], qb = B[pi], qc = C[pi], qd = D[pi];
        WX[i] = qa * xi + qb * yi + WX[pi];
        WY[i] = qc * xi + qd * yi + WY[pi];
        A[i] = pa = qa * l0 - qb * n2;
        B[i] = pb = qb * l3 - qa * n1;
        C[i] = pc = qc * l0 - qd * n2;
        D[i] = pd = qd * l3 - qc * n1;
    }
    l0 = tcx[j] * sxj, n1 = tcy[j] * syj, n2 = tsx[j] * sxj, l3 = tsy[j] * syj;
    WX[j] = pa * xj + pb * yj + WX[i];
    WY[j] = pc * xj + pd * yj + WY[i];
    A[j] = pa * l0 - pb * n2;
    B[j] = pb * l3 - pa * n1;
    C[j] = pc * l0 - pd * n2;
    D[j] = pd * l3 - pc * n1;
}

/* Whether transform constraint mixes mix[0..5] are all 0 (either sign; a NaN is not): with
 * SSE2 two compares. Inline in the world update's loop, which then calls the solve only for a
 * constraint that moves something. */
static inline bool mf_pose_tf_mixes_off(const float *mix)
{
#if defined(__SSE2__) && !defined(MF_NO_SIMD)
    __m128 z = _mm_setzero_ps();
    __m128 hi = _mm_castpd_ps(_mm_load_sd((const double *)(const void *)(mix + 4)));
    __m128 ne = _mm_or_ps(_mm_cmpneq_ps(_mm_loadu_ps(mix), z), _mm_cmpneq_ps(hi, z));
    return _mm_movemask_ps(ne) == 0;
#else
    return mix[0] == 0 && mix[1] == 0 && mix[2] == 0 && mix[3] == 0 && mix[4] == 0 && mix[5] == 0;
#endif
}

/* mf_pose_apply_transform's baseline and AVX2 builds without the mixes' test and the CPU test
 * (the AVX2 one defined where pose_trig.h's MF_TRIG_AVX2 is set; pose_transform.c). */
void mf_pose_apply_transform_base(mf_pose *p, int32_t k);
void mf_pose_apply_transform_avx2(mf_pose *p, int32_t k);

#endif
