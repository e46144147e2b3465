/* The bones' trigonometry cache: cos and sin of the two angles of each bone's local matrix,
 * keyed on the angles' bits. Filled four bones at a time before the update order runs, so a
 * bone update is a few multiplications; a constraint that turns a bone misses its key and
 * computes them on the spot (pose_world.c). */
#include <string.h>

#include "pose_internal.h"
#include "pose_trig.h"

int32_t mf_pose_trig_fill(mf_pose *p)
{
    mf_pose_scratch *s = p->scratch;
    int32_t n = p->bone_count, computed = 0, i = 0;
#if MF_TRIG_SSE2
    const __m128 deg = _mm_set1_ps((float)MF_DEG), lim = _mm_set1_ps(8192.0f);
    const __m128 abs_mask = _mm_castsi128_ps(_mm_set1_epi32(0x7fffffff));
    for (; i + 4 <= n; i += 4) {
        __m128 rot = _mm_loadu_ps(p->arot + i), shx = _mm_loadu_ps(p->ashx + i), shy = _mm_loadu_ps(p->ashy + i);
        __m128 nrot = _mm_sub_ps(_mm_setzero_ps(), rot);
        __m128 rx = _mm_sub_ps(nrot, shx);
        __m128 ry = _mm_add_ps(_mm_add_ps(nrot, _mm_set1_ps(90.0f)), _mm_sub_ps(_mm_setzero_ps(), shy));
        __m128i kx = _mm_castps_si128(rx), ky = _mm_castps_si128(ry);
        __m128i same = _mm_and_si128(_mm_cmpeq_epi32(kx, _mm_loadu_si128((const __m128i *)(const void *)(s->trig_kx + i))),
                                     _mm_cmpeq_epi32(ky, _mm_loadu_si128((const __m128i *)(const void *)(s->trig_ky + i))));
        if (_mm_movemask_epi8(same) == 0xffff) continue;
        __m128 ax = _mm_mul_ps(rx, deg), ay = _mm_mul_ps(ry, deg);
        __m128 in = _mm_and_ps(_mm_cmplt_ps(_mm_and_ps(ax, abs_mask), lim), _mm_cmplt_ps(_mm_and_ps(ay, abs_mask), lim));
        if (_mm_movemask_ps(in) != 15) { /* an angle past the vector range (or NaN): bone by bone */
            for (int32_t j = i; j < i + 4; j++) mf_pose_trig_refresh(s, j, p->arot[j], p->ashx[j], p->ashy[j]);
            computed += 4;
            continue;
        }
        __m128 cx, sx, cy, sy;
        mf_sincos_ps(ax, &cx, &sx);
        mf_sincos_ps(ay, &cy, &sy);
        _mm_storeu_si128((__m128i *)(void *)(s->trig_kx + i), kx);
        _mm_storeu_si128((__m128i *)(void *)(s->trig_ky + i), ky);
        _mm_storeu_ps(s->trig_cx + i, cx), _mm_storeu_ps(s->trig_sx + i, sx);
        _mm_storeu_ps(s->trig_cy + i, cy), _mm_storeu_ps(s->trig_sy + i, sy);
        computed += 4;
    }
#endif
    for (; i < n; i++) computed += mf_pose_trig_refresh(s, i, p->arot[i], p->ashx[i], p->ashy[i]);
    return computed;
}

void mf_pose_trig_clear(mf_pose *p)
{
    mf_pose_scratch *s = p->scratch;
    for (int32_t i = 0; i < p->bone_count; i++) {
        s->trig_kx[i] = s->trig_ky[i] = 0xffffffffu; /* a NaN no angle arithmetic yields here */
        s->trig_cx[i] = s->trig_sx[i] = s->trig_cy[i] = s->trig_sy[i] = NAN;
    }
}
