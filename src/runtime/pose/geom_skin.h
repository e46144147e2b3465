/* Skinning entry points beside mf_pose_world_vertices, for the SIMD-vs-scalar test. */
#ifndef MF_GEOM_SKIN_H
#define MF_GEOM_SKIN_H
#include "mf/mf_pose.h"

#if defined(__SSE2__) && !defined(MF_NO_SIMD)
#include <emmintrin.h>
/* One weighted vertex from packed matrices in a 128-bit register, two influences a step
 * (records {bone, weight, x, y}; def: its influences' deform offsets or NULL). Shared by the
 * SSE2 and AVX paths, which must give the same bits. */
static inline void mf_skin_one_packed(const float *mats, const mf_sd_influence *in, int32_t count, const float *def,
                                      float *out)
{
    __m128 acc = _mm_setzero_ps();
    int32_t j = 0;
    for (; j + 2 <= count; j += 2) {
        __m128 r0 = _mm_loadu_ps((const float *)&in[j]), r1 = _mm_loadu_ps((const float *)&in[j + 1]);
        __m128 xs = _mm_shuffle_ps(r0, r1, _MM_SHUFFLE(2, 2, 2, 2));
        __m128 ys = _mm_shuffle_ps(r0, r1, _MM_SHUFFLE(3, 3, 3, 3));
        __m128 ws = _mm_shuffle_ps(r0, r1, _MM_SHUFFLE(1, 1, 1, 1));
        if (def) {
            __m128 dv = _mm_loadu_ps(def + 2 * j);
            xs = _mm_add_ps(xs, _mm_shuffle_ps(dv, dv, _MM_SHUFFLE(2, 2, 0, 0)));
            ys = _mm_add_ps(ys, _mm_shuffle_ps(dv, dv, _MM_SHUFFLE(3, 3, 1, 1)));
        }
        const float *q0 = mats + 8 * (size_t)in[j].bone, *q1 = mats + 8 * (size_t)in[j + 1].bone;
        __m128 k0 = _mm_loadu_ps(q0), k1 = _mm_loadu_ps(q1); /* a c b d */
        __m128 m1 = _mm_shuffle_ps(k0, k1, _MM_SHUFFLE(1, 0, 1, 0));
        __m128 m2 = _mm_shuffle_ps(k0, k1, _MM_SHUFFLE(3, 2, 3, 2));
        __m128 t = _mm_shuffle_ps(_mm_loadu_ps(q0 + 4), _mm_loadu_ps(q1 + 4), _MM_SHUFFLE(1, 0, 1, 0));
        __m128 r = _mm_add_ps(_mm_add_ps(_mm_mul_ps(xs, m1), _mm_mul_ps(ys, m2)), t);
        acc = _mm_add_ps(acc, _mm_mul_ps(r, ws));
    }
    if (j < count) {
        float x = in[j].x, y = in[j].y, w = in[j].weight;
        if (def) x += def[2 * j], y += def[2 * j + 1];
        const float *q = mats + 8 * (size_t)in[j].bone;
        __m128 r = _mm_setr_ps((q[0] * x + q[2] * y + q[4]) * w, (q[1] * x + q[3] * y + q[5]) * w, 0, 0);
        acc = _mm_add_ps(acc, r);
    }
    acc = _mm_add_ps(acc, _mm_movehl_ps(acc, acc));
    _mm_storel_pi((__m64 *)(void *)out, acc);
}
#endif

/* The AVX skinning path exists on x86 with GCC or Clang unless MF_NO_SIMD; it runs where the
 * CPU has AVX (checked at run time). */
#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__) && defined(__SSE2__) && !defined(MF_NO_SIMD)
#define MF_SKIN_AVX 1
bool mf_skin_avx_usable(void);
/* Weighted vertices of one attachment from packed matrices (mf_skin_pack_bones). */
void mf_skin_weighted_avx(const mf_skel_data *d, const float *mats, const mf_sd_attachment *at,
                          const float *deform, int32_t n, float *out, bool pairs);
#else
#define MF_SKIN_AVX 0
#endif

/* mf_pose_world_vertices with the path chosen: simd false forces the scalar path. */
int32_t mf_skin_world_vertices(const mf_pose *p, int32_t slot, int32_t att, float *out, int32_t cap, bool simd);
/* Bone matrices packed for skinning: {a, c, b, d, wx, wy, 0, 0} a bone, 16-byte aligned. */
void mf_skin_pack_bones(const mf_pose *p, float *mats);
/* True when this build has a SIMD skinning path. */
bool mf_skin_has_simd(void);
#endif
