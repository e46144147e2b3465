/* What merging a draw list takes from it: whether the list and an item lie inside its buffers,
 * the item's colours packed to RGBA8, the texture it samples and the draw call it joins, and
 * the skeleton's placement. Inline, for the CPU's merge (draw_batch.c) and the GPU batch
 * (src/gpu/gpu_batch.c) alike; mf_draw_pack_color and mf_draw_texture_of are these. Not public. */
#ifndef MF_DRAW_ITEM_H
#define MF_DRAW_ITEM_H
#include "mf/mf_draw_batch.h"

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

/* The list's counts lie inside its capacities. */
static inline bool mf_draw_list_sane(const mf_draw_list *dl)
{
    return dl->item_count >= 0 && dl->item_count <= dl->item_cap && dl->vertex_count <= dl->vertex_cap &&
           dl->index_count <= dl->index_cap;
}

/* The item's geometry lies inside the list, its image inside the data, its blend is known. */
static inline bool mf_draw_item_sane(const mf_draw_list *dl, const mf_skel_data *d, const mf_draw_item *it)
{
    return it->vertex_first >= 0 && it->vertex_count >= 0 && it->vertex_first <= dl->vertex_count &&
           it->vertex_count <= dl->vertex_count - it->vertex_first && it->index_first >= 0 &&
           it->index_count >= 0 && it->index_first <= dl->index_count &&
           it->index_count <= dl->index_count - it->index_first && it->image >= -1 && it->image < d->image_count &&
           it->blend < MF_SD_BLEND_COUNT;
}

/* The call an item joins: last (the stream's last call, NULL none) while texture and blend
 * stay, else a new one at the stream's counts; NULL when the count reached cap. */
static inline mf_draw_call *mf_draw_join_call(mf_draw_call *calls, int32_t *count, int32_t cap, mf_draw_call *last,
                                              int32_t page, int32_t image, uint8_t blend, int32_t vertex_first,
                                              int32_t index_first)
{
    if (last && last->page == page && last->image == image && last->blend == blend) return last;
    if (*count >= cap) return NULL;
    mf_draw_call *c = &calls[(*count)++];
    *c = (mf_draw_call){.page = page, .image = image, .blend = blend, .vertex_first = vertex_first,
                        .index_first = index_first};
    return c;
}

/* A skeleton's placement {a, b, c, d, e, f}; NULL: identity. */
static inline void mf_draw_placement(const float *xf, float m[6])
{
    static const float identity[6] = {1, 0, 0, 1, 0, 0};
    for (int32_t j = 0; j < 6; j++) m[j] = xf ? xf[j] : identity[j];
}
#endif
