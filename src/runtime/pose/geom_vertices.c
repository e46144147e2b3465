/* CPU skinning: world vertices of attachments, point attachments and pose bounds. */
#include <float.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "geom_item.h"
#include "geom_skin.h"
#include "geom_skin_neon.h"
#include "pose_atan.h"
#include "pose_cmath.h"
#include "mf/mf_geometry.h"
#include "pose_internal.h"
#if MF_SKIN_AVX
#include <immintrin.h> /* the AVX packing (a target attribute; run where the CPU has AVX) */
#endif

/* SSE2 skinning on x86-64 (always there) or any x86 compiled with SSE2, NEON on aarch64
 * (geom_skin_neon.h); scalar elsewhere or with -DMF_NO_SIMD. Chosen at build time. */
#if defined(__SSE2__) && !defined(MF_NO_SIMD)
#define MF_SKIN_SSE2 1
#include <emmintrin.h>
#else
#define MF_SKIN_SSE2 0
#endif

/* One weighted vertex in the scalar path: the operations and order of the SIMD paths
 * (geom_skin.h), from the influence records of the data (deform: its offsets or NULL). */
static void weighted_vertex(const mf_pose *p, const mf_sd_influence *in, int32_t count, const float *def,
                            float *ox, float *oy)
{
    float s0 = 0, s1 = 0, s2 = 0, s4 = 0, s5 = 0, s6 = 0;
    for (int32_t j = 0; j < count; j++) { /* count >= 1 (checked at load) */
        float w = in[j].weight, x = w * in[j].x, y = w * in[j].y;
        if (def) x = x + def[2 * j] * w, y = y + def[2 * j + 1] * w, w = w + 0.0f * w;
        int32_t b = in[j].bone;
        float t0 = p->a[b] * x, t1 = p->b[b] * y, t2 = p->wx[b] * w;
        float t4 = p->c[b] * x, t5 = p->d[b] * y, t6 = p->wy[b] * w;
        if (j == 0)
            s0 = t0, s1 = t1, s2 = t2, s4 = t4, s5 = t5, s6 = t6;
        else
            s0 += t0, s1 += t1, s2 += t2, s4 += t4, s5 += t5, s6 += t6;
    }
    *ox = (s0 + s1) + (s2 + 0.0f);
    *oy = (s4 + s5) + (s6 + 0.0f);
}

/* One world vertex of an attachment (deform: the slot's offsets or NULL). */
static void world_vertex(const mf_pose *p, int32_t bone, const mf_sd_attachment *at,
                         const float *deform, int32_t i, float *ox, float *oy)
{
    const mf_skel_data *d = p->data;
    if (!(at->flags & MF_SD_ATT_WEIGHTED)) {
        const float *v = d->floats + at->vertex_first;
        float x = v[2 * i], y = v[2 * i + 1];
        if (deform) x += deform[2 * i], y += deform[2 * i + 1];
        *ox = p->a[bone] * x + p->b[bone] * y + p->wx[bone];
        *oy = p->c[bone] * x + p->d[bone] * y + p->wy[bone];
        return;
    }
    const mf_sd_span *sp = &d->spans[at->vertex_first + i];
    weighted_vertex(p, d->influences + sp->first, sp->count, deform ? deform + 2 * (sp->first - at->infl_first) : NULL,
                    ox, oy);
}

/* Scalar skinning of a whole attachment, hoisting the per-attachment branches. */
static void skin_scalar(const mf_pose *p, int32_t bone, const mf_sd_attachment *at, const float *deform, int32_t n,
                        float *out)
{
    if (!(at->flags & MF_SD_ATT_WEIGHTED)) {
        const float *v = p->data->floats + at->vertex_first;
        float a = p->a[bone], b = p->b[bone], c = p->c[bone], d = p->d[bone], wx = p->wx[bone], wy = p->wy[bone];
        for (int32_t i = 0; i < n; i++) {
            float x = v[2 * i], y = v[2 * i + 1];
            if (deform) x += deform[2 * i], y += deform[2 * i + 1];
            out[2 * i] = a * x + b * y + wx;
            out[2 * i + 1] = c * x + d * y + wy;
        }
        return;
    }
    for (int32_t i = 0; i < n; i++) world_vertex(p, bone, at, deform, i, &out[2 * i], &out[2 * i + 1]);
}

#if MF_SKIN_AVX
/* Bones b .. b + 3 from the rows' four floats each, a beside c, b beside d, wx beside wy (one
 * 128-bit half each): per half the pairs, then each bone's {a, b, wx, 0 | c, d, wy, 0} is one
 * in-lane shuffle of them, no cross-lane step (16 shuffles for eight bones, not 24). Bone b + i
 * is stored for i < keep (keep 4: all of them). */
__attribute__((target("avx"))) static inline __attribute__((always_inline)) void
pack_four(__m128 a, __m128 c, __m128 bb, __m128 d, __m128 wx, __m128 wy, float *q, int32_t keep)
{
    const __m256 z = _mm256_setzero_ps();
    __m256 ac = _mm256_insertf128_ps(_mm256_castps128_ps256(a), c, 1);
    __m256 bd = _mm256_insertf128_ps(_mm256_castps128_ps256(bb), d, 1);
    __m256 xy = _mm256_insertf128_ps(_mm256_castps128_ps256(wx), wy, 1);
    __m256 t0 = _mm256_unpacklo_ps(ac, bd), t1 = _mm256_unpackhi_ps(ac, bd); /* a0 b0 a1 b1 | c0 d0 c1 d1; 2, 3 */
    __m256 t2 = _mm256_unpacklo_ps(xy, z), t3 = _mm256_unpackhi_ps(xy, z);   /* x0 0 x1 0 | y0 0 y1 0; 2, 3 */
    _mm256_storeu_ps(q, _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(1, 0, 1, 0)));
    if (keep > 1) _mm256_storeu_ps(q + 8, _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(3, 2, 3, 2)));
    if (keep > 2) _mm256_storeu_ps(q + 16, _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(1, 0, 1, 0)));
    if (keep > 3) _mm256_storeu_ps(q + 24, _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(3, 2, 3, 2)));
}

/* mf_skin_pack_bones where the CPU has AVX, bones from b: four bones a step, eight a loop turn;
 * the last 1 to 3 bones the same way through masked loads. Moves only: the same bits. */
__attribute__((target("avx"))) static inline __attribute__((always_inline)) void pack_from(const mf_pose *p,
                                                                                        float *mats, int32_t b)
{
    const float *pa = p->a, *pb = p->b, *pc = p->c, *pd = p->d, *px = p->wx, *py = p->wy;
    int32_t n = p->bone_count;
#define LOAD4(k) _mm_loadu_ps(pa + (k)), _mm_loadu_ps(pc + (k)), _mm_loadu_ps(pb + (k)), _mm_loadu_ps(pd + (k)), \
                 _mm_loadu_ps(px + (k)), _mm_loadu_ps(py + (k))
    for (; b + 8 <= n; b += 8) {
        pack_four(LOAD4(b), mats + 8 * (size_t)b, 4);
        pack_four(LOAD4(b + 4), mats + 8 * (size_t)b + 32, 4);
    }
    if (b + 4 <= n) pack_four(LOAD4(b), mats + 8 * (size_t)b, 4), b += 4;
#undef LOAD4
    if (b < n) { /* lanes below the count on, from ON's end */
        static const int32_t ON[8] = {-1, -1, -1, -1, 0, 0, 0, 0};
        __m128i m = _mm_loadu_si128((const __m128i *)(const void *)(ON + 4 - (n - b)));
        pack_four(_mm_maskload_ps(pa + b, m), _mm_maskload_ps(pc + b, m), _mm_maskload_ps(pb + b, m),
                  _mm_maskload_ps(pd + b, m), _mm_maskload_ps(px + b, m), _mm_maskload_ps(py + b, m),
                  mats + 8 * (size_t)b, n - b);
    }
    /* GCC 12 left the upper halves dirty on return to SSE code: every legacy SSE instruction
     * after it then paid a merge (alien's world vertices 0.59 -> 0.9 us) */
    _mm256_zeroupper();
}

/* Every bone (b a constant: the loop as it was), and the last 0-7 after the AVX-512 loop. */
__attribute__((target("avx"))) static void pack_bones_avx(const mf_pose *p, float *mats) { pack_from(p, mats, 0); }
__attribute__((target("avx"))) static void pack_tail_avx(const mf_pose *p, float *mats, int32_t b)
{
    pack_from(p, mats, b);
}

/* The packing where the CPU has AVX-512 too (the dirty mark's flag, trig_avx512): eight
 * bones a step, two bones a 512-bit store, each pair two permutes: from A = {a | b} and
 * C = {c | d} (eight bones each half) {a, b, -, -, c, d, -, -} of both bones, then from that
 * and X = {wx | wy} the bones' {a, b, wx, 0, c, d, wy, 0} (lanes 3, 7, 11, 15 zeroed by the
 * mask). Moves only: the same bits. 30 instructions a loop turn of 8 bones, the AVX one's 47. */
#define PACK512 __attribute__((target("avx512f,avx512vl,avx2,avx")))
#define PAIR_A(k) {k, 8 + k, 0, 0, 16 + k, 24 + k, 0, 0, k + 1, 9 + k, 0, 0, 17 + k, 25 + k, 0, 0}
#define PAIR_X(k) {0, 1, 16 + k, 0, 4, 5, 24 + k, 0, 8, 9, 17 + k, 0, 12, 13, 25 + k, 0}
static const int32_t PAIR_IDX[8][16] = {PAIR_A(0), PAIR_X(0), PAIR_A(2), PAIR_X(2),
                                        PAIR_A(4), PAIR_X(4), PAIR_A(6), PAIR_X(6)};
#undef PAIR_A
#undef PAIR_X

PACK512 static inline __attribute__((always_inline)) __m512 two_halves(__m256 lo, __m256 hi)
{
    return _mm512_castpd_ps(_mm512_insertf64x4(_mm512_castps_pd(_mm512_castps256_ps512(lo)), _mm256_castps_pd(hi), 1));
}

/* Bones b .. b + 7 from the rows' halves. */
PACK512 static inline __attribute__((always_inline)) void
pack_eight(__m512 A, __m512 C, __m512 X, const __m512i idx[8], float *q)
{
    for (int32_t j = 0; j < 4; j++) {
        __m512 t = _mm512_permutex2var_ps(A, idx[2 * j], C);
        _mm512_storeu_ps(q + 16 * j, _mm512_maskz_permutex2var_ps(0x7777, t, idx[2 * j + 1], X));
    }
}

PACK512 static void pack_bones_avx512(const mf_pose *p, float *mats)
{
    const float *pa = p->a, *pb = p->b, *pc = p->c, *pd = p->d, *px = p->wx, *py = p->wy;
    int32_t b = 0, n = p->bone_count;
    __m512i idx[8];
    for (int32_t i = 0; i < 8; i++) idx[i] = _mm512_loadu_si512((const void *)PAIR_IDX[i]);
    for (; b + 8 <= n; b += 8)
        pack_eight(two_halves(_mm256_loadu_ps(pa + b), _mm256_loadu_ps(pb + b)),
                   two_halves(_mm256_loadu_ps(pc + b), _mm256_loadu_ps(pd + b)),
                   two_halves(_mm256_loadu_ps(px + b), _mm256_loadu_ps(py + b)), idx, mats + 8 * (size_t)b);
    pack_tail_avx(p, mats, b); /* the last 0-7 (measured: cheaper than masked eights) and the vzeroupper */
}
#undef PACK512
#endif

#if MF_SKIN_SSE2 || MF_SKIN_NEON
/* The pose's packed world: written by the first skinning after each world update (a world
 * change since, mf_pose_update_bone or mf_pose_world_changed, packs it again), once. The pose is the
 * caller's thread's (mf_pose.h), so its scratch may be written through a const pose. */
static const float *pose_mats(const mf_pose *p)
{
    mf_pose_scratch *s = p->scratch;
    if (!s->skin_mats_valid) {
#if MF_SKIN_AVX
        if (s->skin_avx && s->trig_avx512)
            pack_bones_avx512(p, s->skin_mats);
        else if (s->skin_avx)
            pack_bones_avx(p, s->skin_mats);
        else
#endif
            mf_skin_pack_bones(p, s->skin_mats);
        s->skin_mats_valid = 1;
    }
    return s->skin_mats;
}
#endif

#if MF_SKIN_SSE2

/* Unweighted, two vertices a step from the bone's packed matrix: x' = (a·x + b·y) + wx in the
 * scalar path's order, so the results are bit-identical to it. */
static inline void skin_rigid_sse2(const float *mat, const float *v, const float *deform, int32_t n, float *out)
{
    __m128 lo = _mm_loadu_ps(mat), hi = _mm_loadu_ps(mat + 4); /* a b wx 0, c d wy 0 */
    __m128 acbd = _mm_unpacklo_ps(lo, hi), t = _mm_unpackhi_ps(lo, hi);
    __m128 m1 = _mm_movelh_ps(acbd, acbd), m2 = _mm_movehl_ps(acbd, acbd); /* a c a c, b d b d */
    t = _mm_movelh_ps(t, t);                                               /* wx wy wx wy */
    int32_t i = 0;
    for (; i + 2 <= n; i += 2) {
        __m128 xy = _mm_loadu_ps(v + 2 * i);
        if (deform) xy = _mm_add_ps(xy, _mm_loadu_ps(deform + 2 * i));
        __m128 xs = _mm_shuffle_ps(xy, xy, _MM_SHUFFLE(2, 2, 0, 0));
        __m128 ys = _mm_shuffle_ps(xy, xy, _MM_SHUFFLE(3, 3, 1, 1));
        _mm_storeu_ps(out + 2 * i, _mm_add_ps(_mm_add_ps(_mm_mul_ps(xs, m1), _mm_mul_ps(ys, m2)), t));
    }
    if (i < n) {
        __m128 xy = _mm_loadl_pi(_mm_setzero_ps(), (const __m64 *)(const void *)(v + 2 * i));
        if (deform) xy = _mm_add_ps(xy, _mm_loadl_pi(_mm_setzero_ps(), (const __m64 *)(const void *)(deform + 2 * i)));
        __m128 xs = _mm_shuffle_ps(xy, xy, _MM_SHUFFLE(2, 2, 0, 0));
        __m128 ys = _mm_shuffle_ps(xy, xy, _MM_SHUFFLE(3, 3, 1, 1));
        _mm_storel_pi((__m64 *)(void *)(out + 2 * i), _mm_add_ps(_mm_add_ps(_mm_mul_ps(xs, m1), _mm_mul_ps(ys, m2)), t));
    }
}

/* Weighted vertices in SSE2, one vertex a step (CPUs without AVX). */
static __attribute__((noinline)) void skin_weighted_sse2(const float *mats, const mf_skel_data *d, int32_t att,
                                                         const float *deform, float *out)
{
    const mf_sd_skin_group *g = d->skin_groups + d->skin_group_first[att];
    int32_t ng = d->skin_group_first[att + 1] - d->skin_group_first[att] - g->runs; /* the chain of every vertex */
    g += g->runs;
    for (int32_t k = 0; k < ng; k++, g++) {
        const float *r = &d->skin_records[g->record_first].wx; /* 4 floats a record, read as one run */
        const int32_t *vo = &d->skin_vertices[g->vertex_first].out;
        for (int32_t i = 0; i < g->vertices; i++, r += 4 * g->count, vo += 4)
            mf_skin_vertex_sse(mats, r, g->count, deform ? deform + vo[1] : NULL, vo[2], out + vo[0]);
    }
}
#endif

/* The slot's deform of any attachment (a region's: NULL) or NULL. */
static inline const float *slot_deform(const mf_pose *p, int32_t slot, int32_t att, const mf_sd_attachment *at)
{
    return at->type == MF_SD_ATT_REGION ? NULL : mf_skin_mesh_deform(p, slot, att, at);
}

#if MF_SKIN_NEON
/* The NEON kernels under the names skin() uses for either SIMD path. */
#define skin_rigid_simd mf_skin_rigid_neon
#define skin_weighted_simd mf_skin_weighted_neon
#elif MF_SKIN_SSE2
#define skin_rigid_simd skin_rigid_sse2
#define skin_weighted_simd skin_weighted_sse2
#endif

/* An attachment on a slot, both valid, through SSE2 or NEON (or scalar without either);
 * returns its vertex count. Out of line: on x86 the path of CPUs without AVX. */
static __attribute__((noinline)) int32_t skin_simd(const mf_pose *p, int32_t slot, int32_t att,
                                                  const mf_sd_attachment *at, float *out)
{
#if MF_SKIN_SSE2 || MF_SKIN_NEON
    const mf_skel_data *d = p->data;
    const float *mats = pose_mats(p), *mat = mats + 8 * (size_t)d->slots[slot].bone, *v = d->floats + at->vertex_first;
    if (at->type == MF_SD_ATT_REGION) { /* 4 corners, unweighted, never deformed (checked at load) */
        skin_rigid_simd(mat, v, NULL, 4, out);
        return 4;
    }
    const float *deform = mf_skin_mesh_deform(p, slot, att, at);
    if (at->flags & MF_SD_ATT_WEIGHTED)
        skin_weighted_simd(mats, d, att, deform, out);
    else
        skin_rigid_simd(mat, v, deform, at->vertex_count, out);
#else
    skin_scalar(p, p->data->slots[slot].bone, at, slot_deform(p, slot, att, at), at->vertex_count, out);
#endif
    return at->vertex_count;
}

#if MF_SKIN_AVX
static int32_t skin_avx_slow(const mf_pose *p, int32_t slot, int32_t att, float *out, const mf_sd_attachment *at);

/* Meshes through the AVX kernels, the matrices packed. Weighted ones inline: GCC 12 fits
 * them in the caller-saved registers, so mf_pose_world_vertices jumps straight to the first
 * group's kernel without a frame (one jump fewer; 15-280 Ir a skeleton-frame on the bench
 * rigs). Unweighted ones out of line: inline, their registers cost every call a saved
 * register. noipa keeps skin()'s arguments as they are (no copies through the stack); out
 * before at, as mf_pose_world_vertices has them (its fourth argument), so that it moves only
 * at. */
static inline __attribute__((always_inline)) int32_t skin_weighted(const mf_pose *p, int32_t slot, int32_t att,
                                                                   float *out, const mf_sd_attachment *at)
{
    return mf_skin_weighted_avx(p->scratch->skin_mats, p, p->data, slot, att, at, out);
}
static MF_NOIPA int32_t skin_unweighted(const mf_pose *p, int32_t slot, int32_t att, float *out,
                                        const mf_sd_attachment *at)
{
    return mf_skin_unweighted_avx(p->scratch->skin_mats, p, p->data, slot, att, at, out);
}

/* The two flags skin() tests, side by side: read as one 16-bit word. */
_Static_assert(offsetof(mf_pose_scratch, skin_avx) == offsetof(mf_pose_scratch, skin_mats_valid) + 1,
               "skin_mats_valid and skin_avx must be adjacent bytes");

/* An attachment on a slot, both valid, with the build's fastest path: AVX where the CPU has
 * it, else skin_simd (the same bits). Returns its vertex count: the AVX kernels return it (a
 * weighted attachment of one group: that group's), and every call here is a tail call, so
 * that the common path needs no frame (the packing and the SSE2 path are out of line). */
static inline int32_t skin(const mf_pose *p, int32_t slot, int32_t att, const mf_sd_attachment *at, float *out)
{
    const mf_pose_scratch *s = p->scratch;
    uint16_t ready; /* AVX and the matrices packed: both flags 1 (either byte order) */
    memcpy(&ready, &s->skin_mats_valid, sizeof ready);
    if (ready != 0x0101) return skin_avx_slow(p, slot, att, out, at);
    const mf_skel_data *d = p->data;
    if (at->type == MF_SD_ATT_REGION) /* 4 corners, unweighted, never deformed (checked at load) */
        return mf_skin_region_avx(s->skin_mats + 8 * (size_t)d->slots[slot].bone, d->floats + at->vertex_first, out);
    if (at->flags & MF_SD_ATT_WEIGHTED) return skin_weighted(p, slot, att, out, at);
    return skin_unweighted(p, slot, att, out, at);
}

const float *mf_skin_avx_mats(const mf_pose *p) { return p->scratch->skin_avx ? pose_mats(p) : NULL; }

/* skin() without AVX (skin_simd) or after a world change (the packing once, then the
 * skinning). */
static __attribute__((noinline)) int32_t skin_avx_slow(const mf_pose *p, int32_t slot, int32_t att, float *out,
                                                      const mf_sd_attachment *at)
{
    if (!p->scratch->skin_avx) return skin_simd(p, slot, att, at, out);
    const mf_skel_data *d = p->data;
    return mf_skin_avx(pose_mats(p), p, d, slot, att, at, out);
}
#else
#define skin skin_simd
#endif

void mf_pose_world_vertex(const mf_pose *p, int32_t slot, int32_t att, int32_t i, float *x, float *y)
{
    const mf_sd_attachment *at = &p->data->attachments[att];
    world_vertex(p, p->data->slots[slot].bone, at, slot_deform(p, slot, att, at), i, x, y);
}

bool mf_skin_has_simd(void) { return MF_SKIN_SSE2 || MF_SKIN_NEON; }

/* The attachment when the arguments hold one with vertices that fit in cap, else NULL. */
static inline const mf_sd_attachment *checked(const mf_pose *p, int32_t slot, int32_t att, const float *out,
                                              int32_t cap)
{
    if (!p || !out || (uint32_t)slot >= (uint32_t)p->slot_count || (uint32_t)att >= (uint32_t)p->data->attachment_count)
        return NULL;
    const mf_sd_attachment *at = &p->data->attachments[att];
    int32_t n = at->vertex_count;
    return n <= 0 || n > cap ? NULL : at; /* a point has no vertices (checked at load) */
}

int32_t mf_skin_world_vertices(const mf_pose *p, int32_t slot, int32_t att, float *out, int32_t cap, bool simd)
{
    const mf_sd_attachment *at = checked(p, slot, att, out, cap);
    if (!at) return 0;
    if (simd) return skin(p, slot, att, at, out);
    skin_scalar(p, p->data->slots[slot].bone, at, slot_deform(p, slot, att, at), at->vertex_count, out);
    return at->vertex_count;
}

/* Out of line: the draw list's and the bounds' entry without AVX. */
__attribute__((noinline)) int32_t mf_skin_attachment(const mf_pose *p, int32_t slot, int32_t att,
                                                     const mf_sd_attachment *at, float *out)
{
    return skin(p, slot, att, at, out);
}

void mf_skin_pack_bones(const mf_pose *p, float *mats)
{
    int32_t b = 0;
#if MF_SKIN_SSE2
    /* four bones a step: {a, b, wx, 0} and {c, d, wy, 0} are 4×4 transposes */
    for (; b + 4 <= p->bone_count; b += 4) {
        __m128 a = _mm_loadu_ps(p->a + b), bb = _mm_loadu_ps(p->b + b), wx = _mm_loadu_ps(p->wx + b);
        __m128 c = _mm_loadu_ps(p->c + b), d = _mm_loadu_ps(p->d + b), wy = _mm_loadu_ps(p->wy + b);
        __m128 z0 = _mm_setzero_ps(), z1 = _mm_setzero_ps();
        _MM_TRANSPOSE4_PS(a, bb, wx, z0); /* a: bone b's {a, b, wx, 0}, bb: bone b+1's, ... */
        _MM_TRANSPOSE4_PS(c, d, wy, z1);
        float *q = mats + 8 * (size_t)b;
        _mm_storeu_ps(q, a), _mm_storeu_ps(q + 4, c);
        _mm_storeu_ps(q + 8, bb), _mm_storeu_ps(q + 12, d);
        _mm_storeu_ps(q + 16, wx), _mm_storeu_ps(q + 20, wy);
        _mm_storeu_ps(q + 24, z0), _mm_storeu_ps(q + 28, z1);
    }
#endif
    for (; b < p->bone_count; b++) {
        float *q = mats + 8 * (size_t)b;
        q[0] = p->a[b], q[1] = p->b[b], q[2] = p->wx[b], q[3] = 0;
        q[4] = p->c[b], q[5] = p->d[b], q[6] = p->wy[b], q[7] = 0;
    }
}

void mf_pose_palette(const mf_pose *p, float *out)
{
    if (!p || !out) return;
    /* the arrays in locals: out could alias the pose's pointers, which would be read again
     * after every store */
    const float *pa = p->a, *pb = p->b, *pc = p->c, *pd = p->d, *px = p->wx, *py = p->wy;
    int32_t b = 0, n = p->bone_count;
#if MF_SKIN_SSE2
    /* four bones a step (24 floats): {a, b, wx, c} of each is a 4×4 transpose, {d, wy} pairs
     * interleave; some 60% of the scalar copy's instructions */
    for (; b + 4 <= n; b += 4) {
        __m128 a = _mm_loadu_ps(pa + b), bb = _mm_loadu_ps(pb + b), wx = _mm_loadu_ps(px + b);
        __m128 c = _mm_loadu_ps(pc + b), d = _mm_loadu_ps(pd + b), wy = _mm_loadu_ps(py + b);
        _MM_TRANSPOSE4_PS(a, bb, wx, c); /* a: bone b's {a, b, wx, c}, bb: bone b+1's, ... */
        __m128 dlo = _mm_unpacklo_ps(d, wy), dhi = _mm_unpackhi_ps(d, wy); /* d0 wy0 d1 wy1, d2 wy2 d3 wy3 */
        float *q = out + 6 * (size_t)b;
        _mm_storeu_ps(q, a);
        _mm_storeu_ps(q + 4, _mm_movelh_ps(dlo, bb));                          /* d0 wy0 a1 b1 */
        _mm_storeu_ps(q + 8, _mm_shuffle_ps(bb, dlo, _MM_SHUFFLE(3, 2, 3, 2))); /* wx1 c1 d1 wy1 */
        _mm_storeu_ps(q + 12, wx);
        _mm_storeu_ps(q + 16, _mm_movelh_ps(dhi, c));
        _mm_storeu_ps(q + 20, _mm_shuffle_ps(c, dhi, _MM_SHUFFLE(3, 2, 3, 2)));
    }
#endif
    for (; b < n; b++) {
        float *q = out + 6 * (size_t)b;
        q[0] = pa[b], q[1] = pb[b], q[2] = px[b];
        q[3] = pc[b], q[4] = pd[b], q[5] = py[b];
    }
}

/* skin() inline after the checks: every path out is a tail call (the out-of-line kernels take
 * out before at, so out stays in its register). */
int32_t mf_pose_world_vertices(const mf_pose *p, int32_t slot, int32_t att, float *out, int32_t cap)
{
    const mf_sd_attachment *at = checked(p, slot, att, out, cap);
    return at ? skin(p, slot, att, at, out) : 0;
}

int32_t mf_pose_world_vertices_all(const mf_pose *p, float *out, int32_t cap, int32_t *first)
{
    if (!p || cap < 0 || (!out && cap > 0)) return -1;
    const mf_skel_data *d = p->data;
    const int32_t *order = p->draw_order, *slot_att = p->attachment;
    const uint8_t *active = p->active;
    const mf_sd_slot *slots = d->slots;
    int32_t n = 0, ns = p->slot_count;
    if (first)
        for (int32_t s = 0; s < ns; s++) first[s] = -1;
#if MF_SKIN_AVX
    const float *mats = mf_skin_avx_mats(p); /* packed once a call; NULL: no AVX */
#endif
    for (int32_t k = 0; k < ns; k++) {
        int32_t s = order[k], att = slot_att[s];
        /* an attachment index the host wrote out of range shows nothing, as for
         * mf_pose_world_vertices */
        if ((uint32_t)att >= (uint32_t)d->attachment_count || !active[slots[s].bone]) continue;
        const mf_sd_attachment *at = &d->attachments[att];
        int32_t nv = at->vertex_count;
        if (!mf_geom_drawable(at->type) || nv <= 0) continue;
        if (nv > cap - n) return -1;
        float *dst = out + 2 * (size_t)n;
#if MF_SKIN_AVX
        if (mats) mf_skin_avx(mats, p, d, s, att, at, dst);
        else
#endif
            skin(p, s, att, at, dst);
        if (first) first[s] = n;
        n += nv;
    }
    return n;
}

void mf_geom_slot_most(const mf_skel_data *d, int32_t first, int32_t n, int32_t *verts, int32_t *idx, int32_t *clip,
                       int32_t *any)
{
    for (int32_t k = 0; k < n; k++) verts[k] = idx[k] = 0;
    for (int32_t i = 0; i < d->attachment_count; i++) {
        const mf_sd_attachment *at = &d->attachments[i];
        uint32_t k = (uint32_t)at->slot - (uint32_t)first; /* a slot outside the block wraps past n */
        if (k >= (uint32_t)n) continue;
        if (mf_geom_drawable(at->type)) {
            if (at->vertex_count > verts[k]) verts[k] = at->vertex_count;
            if (at->tri_count > idx[k]) idx[k] = at->tri_count;
        }
        if (at->type == MF_SD_ATT_CLIPPING && at->vertex_count > *clip) *clip = at->vertex_count;
        if (at->vertex_count > *any) *any = at->vertex_count;
    }
}

int32_t mf_skel_data_world_vertex_cap(const mf_skel_data *d)
{
    if (!d) return 0;
    int64_t sum = 0;
    int32_t verts[MF_GEOM_SLOT_BLOCK], idx[MF_GEOM_SLOT_BLOCK], clip = 0, any = 0;
    for (int32_t s = 0; s < d->slot_count; s += MF_GEOM_SLOT_BLOCK) {
        int32_t n = d->slot_count - s < MF_GEOM_SLOT_BLOCK ? d->slot_count - s : MF_GEOM_SLOT_BLOCK;
        mf_geom_slot_most(d, s, n, verts, idx, &clip, &any);
        for (int32_t k = 0; k < n; k++) sum += verts[k];
    }
    return sum > INT32_MAX ? INT32_MAX : (int32_t)sum;
}

mf_result mf_pose_point_world(const mf_pose *p, int32_t slot, int32_t att, float *x, float *y,
                              float *rot)
{
    if (!p || slot < 0 || slot >= p->slot_count || att < 0 || att >= p->data->attachment_count ||
        p->data->attachments[att].type != MF_SD_ATT_POINT)
        return MF_ERR_ARGUMENT;
    const mf_sd_attachment *at = &p->data->attachments[att];
    int32_t b = p->data->slots[slot].bone;
    if (x) *x = p->a[b] * at->x + p->b[b] * at->y + p->wx[b];
    if (y) *y = p->c[b] * at->x + p->d[b] * at->y + p->wy[b];
    if (rot) {
        /* the point's direction through the bone's matrix */
        float cr, sr;
        mf_sincos_r(at->rot * (float)MF_DEG, &cr, &sr);
        float dx = p->a[b] * cr + p->b[b] * sr, dy = p->c[b] * cr + p->d[b] * sr;
        *rot = mf_atan2f(dy, dx) * (float)MF_RAD;
    }
    return MF_OK;
}

#define BOUNDS_VERTICES 256 /* 2 KiB of stack */

bool mf_pose_bounds(const mf_pose *p, float out[4])
{
    if (!p || !out) return false;
    const mf_skel_data *d = p->data;
    float mnx = FLT_MAX, mny = FLT_MAX, mxx = -FLT_MAX, mxy = -FLT_MAX;
    bool any = false;
    for (int32_t s = 0; s < p->slot_count; s++) {
        int32_t att = p->attachment[s], bone = d->slots[s].bone;
        if (att < 0 || !p->active[bone]) continue;
        const mf_sd_attachment *at = &d->attachments[att];
        if (at->type != MF_SD_ATT_REGION && at->type != MF_SD_ATT_MESH &&
            at->type != MF_SD_ATT_LINKED_MESH)
            continue;
        /* attachments that fit a stack buffer through the fast path (the same bits as vertex
         * by vertex), larger ones vertex by vertex */
        float buf[2 * BOUNDS_VERTICES];
        bool fast = at->vertex_count <= BOUNDS_VERTICES;
        if (fast) skin(p, s, att, at, buf);
        const float *deform = fast ? NULL : slot_deform(p, s, att, at);
        for (int32_t i = 0; i < at->vertex_count; i++) {
            float x, y;
            if (fast)
                x = buf[2 * i], y = buf[2 * i + 1];
            else
                world_vertex(p, bone, at, deform, i, &x, &y);
            /* plain compares, not fminf/fmaxf calls: builds bound every clip this way */
            if (x < mnx) mnx = x;
            if (x > mxx) mxx = x;
            if (y < mny) mny = y;
            if (y > mxy) mxy = y;
            any = true;
        }
    }
    out[0] = mnx, out[1] = mny, out[2] = mxx, out[3] = mxy;
    return any;
}
