/* What a merged vertex and a draw call take from an item: its colours packed to RGBA8 and the
 * texture it samples. Inline, for the CPU's merge (draw_batch.c) and the GPU batch
 * (src/gpu/gpu_batch.c) alike; mf_draw_pack_color and mf_draw_texture_of are these. Not public. */
#ifndef MF_DRAW_ITEM_H
#define MF_DRAW_ITEM_H
#include "mf/mf_skel_data.h"

#if defined(__SSE2__) && !defined(MF_NO_SIMD)
#include <emmintrin.h>
#endif

/* 0..1 to a byte, rounded; NaN and below 0 give 0 */
static inline uint32_t mf_draw_unit_byte(float v)
{
    if (!(v > 0)) return 0;
    if (v >= 1) return 255;
    return (uint32_t)(v * 255.0f + 0.5f);
}

/* r in the lowest byte. SSE2: the four at once with the scalar's bits (max with v first gives
 * 0 for NaN, min(v, 1) * 255 + 0.5 truncated is the same rounding). */
static inline uint32_t mf_draw_pack(float r, float g, float b, float a)
{
#if defined(__SSE2__) && !defined(MF_NO_SIMD)
    __m128 v = _mm_min_ps(_mm_max_ps(_mm_setr_ps(r, g, b, a), _mm_setzero_ps()), _mm_set1_ps(1.0f));
    __m128i i = _mm_cvttps_epi32(_mm_add_ps(_mm_mul_ps(v, _mm_set1_ps(255.0f)), _mm_set1_ps(0.5f)));
    i = _mm_packs_epi32(i, i);
    return (uint32_t)_mm_cvtsi128_si32(_mm_packus_epi16(i, i));
#else
    return mf_draw_unit_byte(r) | mf_draw_unit_byte(g) << 8 | mf_draw_unit_byte(b) << 16 | mf_draw_unit_byte(a) << 24;
#endif
}

/* What breaks a batch besides the blend: the page the image is packed on, else the image. */
static inline void mf_draw_texture(const mf_skel_data *d, int32_t image, int32_t *page, int32_t *img)
{
    int32_t p = image >= 0 ? d->images[image].page : -1;
    *page = p >= 0 && p < d->page_count ? p : -1;
    *img = *page >= 0 ? -1 : image;
}
#endif
