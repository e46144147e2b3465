/* The shared-table sample loop (pose_table.h) compiled for AVX2: this file alone is built with
 * -mavx2 (src/runtime/CMakeLists.txt); the same operations in the same order (no fused
 * multiply-adds: -ffp-contract=off, and -mavx2 enables no FMA), so the same bits. */
#include "pose_table.h"

#if MF_TABLE_AVX2
#ifndef __AVX2__
#error "pose_table_avx2.c is built with -mavx2 where MF_TABLE_AVX2 is defined"
#endif
mf_result mf_pose_sample_avx2(mf_pose *p, const mf_clip_sample *cs)
{
    /* what mf_pose_sample_base samples through the table: full weight, Replace, unmasked */
    if (cs->weight != 1.0f || cs->blend == MF_CLIP_ADDITIVE || cs->bone_mask || cs->timeline_weights ||
        mf_pose_sample_bad(p, cs))
        return mf_pose_sample_base(p, cs);
    float thr = cs->discrete_threshold > 0 ? cs->discrete_threshold : 0.5f;
    mf_pose_table_loop(p, cs, mf_pose_clip_time(p->data, cs->clip, cs->time, cs->loop), 1.0f >= thr);
    return MF_OK;
}
#else
typedef int mf_pose_table_avx2_unused; /* not an empty unit */
#endif
