/* Skinning internals: the SIMD kernels over the build's weighted streams and the
 * entry points beside mf_pose_world_vertices (the draw list's, and the SIMD-vs-scalar test's).
 *
 * One weighted vertex, every path (AVX, SSE2, NEON in geom_skin_neon.h, scalar) in the same
 * operations and order, so that all of them give the same bits: per influence j with record {X, Y, w, 8·bone} (X = w·x,
 * Y = w·y; a deform adds dx·w, dy·w) and the bone's packed matrix {a, b, wx, 0, c, d, wy, 0},
 * the products {a·X, b·Y, wx·w, 0} and {c·X, d·Y, wy·w, 0} are summed over j in order (the
 * first product is the start), then x = (Σa·X + Σb·Y) + (Σwx·w + 0), y likewise. A padding
 * record {0, 0, 0, 8·bone_count} (the all-zero matrix) adds +0 to each sum: that can only turn
 * a sum of -0 into +0, and the final sums are the same bits either way (Σwx·w + 0 is never
 * -0), so the scalar path skips padding and still agrees. */
#ifndef MF_GEOM_SKIN_H
#define MF_GEOM_SKIN_H
#include "mf/mf_pose.h"

/* The kernels a group (mf_sd_skin_group: a run of one attachment's weighted vertices with the
 * same padded influence count, in the build's shared streams) picks without and with deform:
 * 15 kinds, each as the attachment's last group and as one with another after it; then the
 * same-bone runs' (AVX, undeformed): 4 counts, last or not, stored in order or scattered. */
#define MF_SKIN_KERNELS 46

#if defined(__SSE2__) && !defined(MF_NO_SIMD)
#include <emmintrin.h>
/* Two zero floats: the deform offsets a padding record reads. */
static const float mf_skin_no_deform[2] = {0.0f, 0.0f};

/* One influence record, with its deform offsets added when def is not NULL. */
static inline __m128 mf_skin_rec_sse(const float *r, const float *def)
{
    __m128 rec = _mm_loadu_ps(r);
    if (def) {
        __m128 dv = _mm_loadl_pi(_mm_setzero_ps(), (const __m64 *)(const void *)def); /* dx dy 0 0 */
        rec = _mm_add_ps(rec, _mm_mul_ps(dv, _mm_shuffle_ps(rec, rec, _MM_SHUFFLE(2, 2, 2, 2))));
    }
    return rec;
}

/* Record j's deform offsets: its own for the vertex's real records (real: their number),
 * zeros for padding. */
static inline const float *mf_skin_def_at(const float *def, int32_t j, int32_t real)
{
    return j < real ? def + 2 * j : mf_skin_no_deform;
}

/* One weighted vertex in SSE2 (count >= 1 records from r; def: its deform offsets, real of
 * them, or NULL). */
static inline void mf_skin_vertex_sse(const float *mats, const float *r, int32_t count, const float *def,
                                      int32_t real, float *out)
{
    __m128 rec = mf_skin_rec_sse(r, def);
    const float *m = mats + (int64_t)r[3];
    __m128 ax = _mm_mul_ps(rec, _mm_loadu_ps(m)), ay = _mm_mul_ps(rec, _mm_loadu_ps(m + 4));
    for (int32_t j = 1; j < count; j++) {
        rec = mf_skin_rec_sse(r + 4 * j, def ? mf_skin_def_at(def, j, real) : NULL);
        m = mats + (int64_t)r[4 * j + 3];
        ax = _mm_add_ps(ax, _mm_mul_ps(rec, _mm_loadu_ps(m)));
        ay = _mm_add_ps(ay, _mm_mul_ps(rec, _mm_loadu_ps(m + 4)));
    }
    /* {x0 + x1, x2 + x3, y0 + y1, y2 + y3}, then the two pairs */
    __m128 u = _mm_add_ps(_mm_shuffle_ps(ax, ay, _MM_SHUFFLE(2, 0, 2, 0)), _mm_shuffle_ps(ax, ay, _MM_SHUFFLE(3, 1, 3, 1)));
    __m128 v = _mm_shuffle_ps(u, u, _MM_SHUFFLE(3, 1, 2, 0));
    _mm_storel_pi((__m64 *)(void *)out, _mm_add_ps(v, _mm_movehl_ps(v, v)));
}
#endif

/* A mesh's deform offsets on slot s: the slot's while it holds this attachment's, else NULL. */
static inline const float *mf_skin_mesh_deform(const mf_pose *p, int32_t s, int32_t att, const mf_sd_attachment *at)
{
    const float *deform = NULL;
    if (at->deform_count > 0 && p->deform_attachment[s] == att) deform = p->deform + p->deform_first[s];
    return deform;
}

/* The AVX skinning path exists on x86 with GCC or Clang unless MF_NO_SIMD; it runs where the
 * CPU has AVX (checked at run time). */
#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__) && defined(__SSE2__) && !defined(MF_NO_SIMD)
#define MF_SKIN_AVX 1
bool mf_skin_avx_usable(void);
/* The AVX kernel of one group from packed matrices (mf_skin_pack_bones), its first record and
 * vertex in the build's shared streams (4 words each), the slot's deform or NULL; it hands over
 * to the attachment's next group's kernel, the last returns the attachment's vertex count.
 * Six register arguments. */
typedef int32_t (*mf_skin_kernel)(const float *mats, const mf_sd_skin_group *g, const float *rec, const int32_t *vo,
                                  const float *deform, float *out);
/* Indexed by mf_sd_skin_group.plain / .deformed. */
extern const mf_skin_kernel mf_skin_kernels_avx[MF_SKIN_KERNELS];
/* Unweighted: n vertices from v (deform: their offsets or NULL) through the bone's packed
 * matrix mat, four a step; a region's 4 corners (never deformed) in one step. Each returns
 * its vertex count. */
int32_t mf_skin_rigid_avx(const float *mat, const float *v, const float *deform, int32_t n, float *out);
int32_t mf_skin_region_avx(const float *mat, const float *v, float *out);
/* The pose's packed matrices for the AVX kernels (packed now when a world change made them
 * stale), or NULL where the CPU lacks AVX (mf_skin_attachment then). */
const float *mf_skin_avx_mats(const mf_pose *p);
/* A weighted mesh att (at) on slot s, all valid, through the AVX kernels from mats
 * (mf_skin_avx_mats); returns its vertex count: its first group's kernel, a tail call. */
static inline __attribute__((always_inline)) int32_t mf_skin_weighted_avx(const float *mats, const mf_pose *p,
                                                                          const mf_skel_data *d, int32_t s,
                                                                          int32_t att, const mf_sd_attachment *at,
                                                                          float *out)
{
    const mf_sd_skin_group *g = d->skin_groups + d->skin_group_first[att];
    const float *deform = mf_skin_mesh_deform(p, s, att, at);
    if (deform) g += g->runs; /* the chain of every vertex (after the run chain, if any) */
    return mf_skin_kernels_avx[deform ? g->deformed : g->plain](mats, g, &d->skin_records[g->record_first].wx, &d->skin_vertices[g->vertex_first].out,
                                  deform, out);
}
/* An unweighted mesh, the same way. */
static inline __attribute__((always_inline)) int32_t mf_skin_unweighted_avx(const float *mats, const mf_pose *p,
                                                                            const mf_skel_data *d, int32_t s,
                                                                            int32_t att, const mf_sd_attachment *at,
                                                                            float *out)
{
    return mf_skin_rigid_avx(mats + 8 * (size_t)d->slots[s].bone, d->floats + at->vertex_first,
                             mf_skin_mesh_deform(p, s, att, at), at->vertex_count, out);
}
/* A drawable attachment att (at) on slot s, all valid, through the AVX kernels from mats
 * (mf_skin_avx_mats); returns its vertex count. */
static inline __attribute__((always_inline)) int32_t mf_skin_avx(const float *mats, const mf_pose *p,
                                                                 const mf_skel_data *d, int32_t s, int32_t att,
                                                                 const mf_sd_attachment *at, float *out)
{
    if (at->type == MF_SD_ATT_REGION) /* 4 corners, unweighted, never deformed (checked at load) */
        return mf_skin_region_avx(mats + 8 * (size_t)d->slots[s].bone, d->floats + at->vertex_first, out);
    if (at->flags & MF_SD_ATT_WEIGHTED) return mf_skin_weighted_avx(mats, p, d, s, att, at, out);
    return mf_skin_unweighted_avx(mats, p, d, s, att, at, out);
}
#else
#define MF_SKIN_AVX 0
#endif

/* mf_pose_world_vertices with the path chosen: simd false forces the scalar path. */
int32_t mf_skin_world_vertices(const mf_pose *p, int32_t slot, int32_t att, float *out, int32_t cap, bool simd);
/* The draw list's entry: a drawable attachment (at: attachment att of p's data) on its slot,
 * both known valid, out large enough for its vertex_count vertices (nothing checked again);
 * returns that count. */
int32_t mf_skin_attachment(const mf_pose *p, int32_t slot, int32_t att, const mf_sd_attachment *at, float *out);
/* Bone matrices packed for skinning: {a, b, wx, 0, c, d, wy, 0} a bone. */
void mf_skin_pack_bones(const mf_pose *p, float *mats);
/* True when this build has a SIMD skinning path. */
bool mf_skin_has_simd(void);
#endif
