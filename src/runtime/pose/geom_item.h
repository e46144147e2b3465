/* What a draw item of a slot is, from the pose: the sequence frame drawn (image and uv set) and
 * the colours. One definition for the draw list (geom_draw.c) and for the GPU batch's walk of a
 * pose without a list (src/gpu/gpu_batch.c), so both list the same items. Not public. */
#ifndef MF_GEOM_ITEM_H
#define MF_GEOM_ITEM_H
#include <string.h>

#if defined(__SSE2__) && !defined(MF_NO_SIMD)
#include <emmintrin.h>
#endif

#include "mf/mf_geometry.h"
#include "pose_internal.h"

static inline bool mf_geom_drawable(uint8_t type)
{
    return type == MF_SD_ATT_REGION || type == MF_SD_ATT_MESH || type == MF_SD_ATT_LINKED_MESH;
}

/* Slot tracking (mf_pose_set_slot_tracking): whether dl's last build's items stand for a build
 * from p (the pose tracks its slots, that build was of this pose into this list, kept nothing
 * clipped or left out, and no slot changed since). The two pointers both ways: a pose or list
 * created again at a freed one's address starts with neither pointing at the other. */
static inline bool mf_draw_items_stand(const mf_draw_list *dl, const mf_pose *p)
{
    const mf_pose_scratch *s = p->scratch;
    return s->slot_tracking && dl->kept_pose == p && s->slot_list == dl && dl->kept_stamp == s->slot_stamp;
}

/* How many slots mf_geom_slot_most takes at a time (its callers' arrays on the stack). */
#define MF_GEOM_SLOT_BLOCK 256

/* What the attachments of slots [first, first + n) (n <= MF_GEOM_SLOT_BLOCK) need at most, in one
 * pass over the data's attachments: per slot the vertices and triangle indices of its largest
 * drawable attachment (verts, idx: n each); the most points of a clipping attachment and the
 * most vertices of any attachment among them raise *clip and *any. Blocks of slots keep the
 * sizing at create linear for the rigs there are, with no allocation (slot by slot it was
 * slots × attachments). geom_vertices.c. */
void mf_geom_slot_most(const mf_skel_data *d, int32_t first, int32_t n, int32_t *verts, int32_t *idx, int32_t *clip,
                       int32_t *any);

/* The image and uv set slot s draws of attachment at, from the pose's sequence frames
 * (seq_index: mf_pose.seq_index): a packed sequence has one uv set a frame. */
static inline void mf_geom_item_seq(const int32_t *seq_index, int32_t s, const mf_sd_attachment *at, int32_t *image,
                                    int32_t *uv_set)
{
    int32_t img = at->image, uv = 0;
    if (at->seq_count > 0 && img >= 0) {
        int32_t f = seq_index[s] >= 0 ? seq_index[s] : at->seq_setup;
        if (f >= 0 && f < at->seq_count) img += f;
        if (f >= 0 && f < at->uv_sets) uv = f;
    }
    *image = img, *uv_set = uv;
}

/* The same from the pose. */
static inline void mf_geom_item_frame(const mf_pose *p, int32_t s, const mf_sd_attachment *at, int32_t *image,
                                      int32_t *uv_set)
{
    mf_geom_item_seq(p->seq_index, s, at, image, uv_set);
}

/* light: slot colour (slot: its 4 floats) × attachment colour (straight). */
static inline void mf_geom_item_light(const float *slot, uint32_t color, float light[4])
{
#if defined(__SSE2__) && !defined(MF_NO_SIMD)
    /* the bytes widened in lanes (rgba: the word's high byte first) and divided by 255: a
     * correctly rounded quotient, as the table's, in a third of its instructions */
    __m128 ac = _mm_set1_ps(1.0f); /* white, the most common: 255 / 255 */
    if (color != 0xffffffffu) {
        __m128i z = _mm_setzero_si128(), c = _mm_cvtsi32_si128((int)color);
        c = _mm_unpacklo_epi16(_mm_unpacklo_epi8(c, z), z);
        ac = _mm_div_ps(_mm_cvtepi32_ps(_mm_shuffle_epi32(c, _MM_SHUFFLE(0, 1, 2, 3))), _mm_set1_ps(255.0f));
    }
    _mm_storeu_ps(light, _mm_mul_ps(_mm_loadu_ps(slot), ac));
#else
    for (int32_t j = 0; j < 4; j++) light[j] = slot[j] * mf_unit_byte[(color >> (24 - 8 * j)) & 255u];
#endif
}

/* light, and dark: the slot's dark colour. */
static inline void mf_geom_item_colours(const mf_pose *p, int32_t s, uint32_t color, float light[4], float dark[3])
{
    mf_geom_item_light(p->color + 4 * s, color, light);
    memcpy(dark, p->dark + 3 * s, 3 * sizeof(float));
}
#endif
