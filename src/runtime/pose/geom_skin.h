/* Skinning entry points beside mf_pose_world_vertices, for the SIMD-vs-scalar test. */
#ifndef MF_GEOM_SKIN_H
#define MF_GEOM_SKIN_H
#include "mf/mf_pose.h"

/* The AVX skinning path exists on x86 with GCC or Clang unless MF_NO_SIMD; it runs where the
 * CPU has AVX (checked at run time). */
#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__) && defined(__SSE2__) && !defined(MF_NO_SIMD)
#define MF_SKIN_AVX 1
bool mf_skin_avx_usable(void);
/* Weighted vertices of one attachment from packed matrices (mf_skin_pack_bones). */
void mf_skin_weighted_avx(const mf_skel_data *d, const float *mats, const mf_sd_attachment *at,
                          const float *deform, int32_t n, float *out);
#else
#define MF_SKIN_AVX 0
#endif

/* mf_pose_world_vertices with the path chosen: simd false forces the scalar path. */
int32_t mf_skin_world_vertices(const mf_pose *p, int32_t slot, int32_t att, float *out, int32_t cap, bool simd);
/* Bone matrices packed for skinning: {a, c, b, d, wx, wy, 0, 0} a bone, 16-byte aligned. */
void mf_skin_pack_bones(const mf_pose *p, float *mats);
/* mf_pose_world_vertices from packed matrices (mf_skin_pack_bones of the same world). */
int32_t mf_skin_world_vertices_packed(const mf_pose *p, const float *mats, int32_t slot, int32_t att,
                                      float *out, int32_t cap);
/* True when this build has a SIMD skinning path. */
bool mf_skin_has_simd(void);
#endif
