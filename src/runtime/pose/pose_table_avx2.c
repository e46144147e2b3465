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
    double t = cs->time, len = p->data->clips[cs->clip].length;
    if (cs->loop && len > 0 && !(t >= 0.0 && t < len)) { /* else mf_pose_clip_time gives t */
        /* its fmod is legacy SSE code: the upper halves cleared first (they are clean here,
         * but the layout puts this after the loop's AVX code: tests/avx_upper.sh scans it) */
        _mm256_zeroupper();
        t = mf_pose_clip_time(p->data, cs->clip, t, true);
    }
    mf_pose_table_loop(p, cs, t, 1.0f >= thr);
    return MF_OK;
}
#else
typedef int mf_pose_table_avx2_unused; /* not an empty unit */
#endif
