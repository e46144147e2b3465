/* What a draw item of a slot is, from the pose: the sequence frame drawn (image and uv set) and
 * the colours. One definition for the draw list (geom_draw.c) and for the GPU batch's walk of a
 * pose without a list (src/gpu/gpu_batch.c), so both list the same items. Not public. */
#ifndef MF_GEOM_ITEM_H
#define MF_GEOM_ITEM_H
#include <string.h>

#if defined(__SSE2__) && !defined(MF_NO_SIMD)
#include <emmintrin.h>
#endif

#include "pose_internal.h"

static inline bool mf_geom_drawable(uint8_t type)
{
    return type == MF_SD_ATT_REGION || type == MF_SD_ATT_MESH || type == MF_SD_ATT_LINKED_MESH;
}

/* The image and uv set slot s draws of attachment at: a packed sequence has one uv set a frame. */
static inline void mf_geom_item_frame(const mf_pose *p, int32_t s, const mf_sd_attachment *at, int32_t *image,
                                      int32_t *uv_set)
{
    *image = at->image, *uv_set = 0;
    if (at->seq_count > 0 && at->image >= 0) {
        int32_t f = p->seq_index[s] >= 0 ? p->seq_index[s] : at->seq_setup;
        if (f >= 0 && f < at->seq_count) *image = at->image + f;
        if (f >= 0 && f < at->uv_sets) *uv_set = f;
    }
}

/* light: slot colour × attachment colour (straight). */
static inline void mf_geom_item_light(const mf_pose *p, int32_t s, uint32_t color, float light[4])
{
#if defined(__SSE2__) && !defined(MF_NO_SIMD)
    __m128 ac = _mm_setr_ps(mf_unit_byte[color >> 24], mf_unit_byte[(color >> 16) & 255u],
                            mf_unit_byte[(color >> 8) & 255u], mf_unit_byte[color & 255u]);
    _mm_storeu_ps(light, _mm_mul_ps(_mm_loadu_ps(p->color + 4 * s), ac));
#else
    for (int32_t j = 0; j < 4; j++) light[j] = p->color[4 * s + j] * mf_unit_byte[(color >> (24 - 8 * j)) & 255u];
#endif
}

/* light, and dark: the slot's dark colour. */
static inline void mf_geom_item_colours(const mf_pose *p, int32_t s, uint32_t color, float light[4], float dark[3])
{
    mf_geom_item_light(p, s, color, light);
    memcpy(dark, p->dark + 3 * s, 3 * sizeof(float));
}
#endif
