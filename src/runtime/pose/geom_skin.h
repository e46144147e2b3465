/* Skinning entry points beside mf_pose_world_vertices, for the SIMD-vs-scalar test. */
#ifndef MF_GEOM_SKIN_H
#define MF_GEOM_SKIN_H
#include "mf/mf_pose.h"

/* mf_pose_world_vertices with the path chosen: simd false forces the scalar path. */
int32_t mf_skin_world_vertices(const mf_pose *p, int32_t slot, int32_t att, float *out, int32_t cap, bool simd);
/* True when this build has a SIMD skinning path. */
bool mf_skin_has_simd(void);
#endif
