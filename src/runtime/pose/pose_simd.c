/* The pose's SIMD levels (mf_pose_set_simd, mf_pose.h): each path's flag in the scratch is what
 * the CPU offers (asked as create always asked) and the cap at least its level. Every path gives
 * the same bits and leaves the same state (trigonometry cache, dirty flags, key segments), so a
 * switch between frames only marks the packed skinning matrices stale: the next skinning packs
 * them with the packing of the new level. */
#include "geom_skin.h"
#include "pose_internal.h"
#include "pose_trig.h"

mf_result mf_pose_set_simd(mf_pose *p, mf_simd cap)
{
    if (!p || (unsigned)cap > (unsigned)MF_SIMD_AVX512) return MF_ERR_ARGUMENT;
    unsigned level = cap == MF_SIMD_AUTO ? (unsigned)MF_SIMD_AVX512 : (unsigned)cap;
    mf_pose_scratch *s = p->scratch;
#if MF_SKIN_AVX
    s->skin_avx = level >= MF_SIMD_AVX && mf_skin_avx_usable();
#endif
#if MF_TRIG_AVX2
    s->trig_avx2 = level >= MF_SIMD_AVX2 && mf_pose_trig_avx2_usable();
    /* the dirty mark's sixteen-bone steps and the AVX-512 packing run inside the AVX2 and AVX
     * paths, so this flag needs both below it */
    s->trig_avx512 = level >= MF_SIMD_AVX512 && s->trig_avx2 && s->skin_avx && mf_pose_trig_avx512_usable();
#endif
    s->skin_mats_valid = 0;
    (void)level;
    return MF_OK;
}

mf_simd mf_pose_simd(const mf_pose *p)
{
    if (!p) return MF_SIMD_BASE;
    const mf_pose_scratch *s = p->scratch;
    (void)s;
#if MF_TRIG_AVX2
    if (s->trig_avx512) return MF_SIMD_AVX512;
    if (s->trig_avx2) return MF_SIMD_AVX2;
#endif
#if MF_SKIN_AVX
    if (s->skin_avx) return MF_SIMD_AVX;
#endif
    return MF_SIMD_BASE;
}
