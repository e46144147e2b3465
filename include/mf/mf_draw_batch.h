/* mf_draw_batch.h — the draw lists of many skeletons (mf_geometry.h) merged into one vertex
 * stream, one index stream and a few batches: consecutive items, within a skeleton and across
 * skeletons, that sample the same texture with the same blend share one draw call.
 *
 * Runtime module (libmf_runtime): C11 + libm. Buffers are sized at create; a frame allocates
 * nothing.
 *
 *     mf_draw_batch *b;  mf_draw_batch_create(NULL, &b);     // zeroed desc / NULL: defaults
 *     per frame, after each instance's mf_draw_list_build(), back to front:
 *         mf_draw_batch_begin(b);
 *         for each instance:  mf_draw_batch_add(b, inst->draw, data, inst->xf);  // xf NULL: identity
 *         upload(b->vertices, b->vertex_count, b->indices, b->index_count);     // or indices16
 *         for (int32_t i = 0; i < b->call_count; i++) {
 *             const mf_draw_call *c = &b->calls[i];
 *             bind(c->page >= 0 ? page_texture[c->page] : image_texture[c->image]);
 *             set_blend(c->blend);
 *             draw_indexed(c->index_first, c->index_count);  // indices index the whole stream
 *         }
 *
 * A batch breaks where the texture (atlas page; the image itself when it is not packed) or the
 * blend changes. Clipped items (mf_draw_item.clipped) carry their clipped geometry and merge like
 * any other; items without triangles (clipped away) add nothing and break nothing.
 */
#ifndef MF_DRAW_BATCH_H
#define MF_DRAW_BATCH_H

#include "mf/mf_geometry.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One merged vertex: 24 bytes. uvs are the draw list's (page uvs when the image is packed).
 * Colours are packed RGBA8, r in the lowest byte (bytes r, g, b, a in memory on little-endian
 * machines: an UNORM8x4 attribute), straight alpha: the shader premultiplies after tinting.
 * light: slot colour × attachment colour. dark: the slot's dark colour for two-colour tint,
 * alpha 255 when the slot has one, all zero when it has none (black dark = plain tint). */
typedef struct mf_batch_vertex {
    float x, y, u, v;
    uint32_t light, dark;
} mf_batch_vertex;

/* One batch: one draw call. */
typedef struct mf_draw_call {
    int32_t page;   /* PAGES index; -1: the image is not packed (or there is none) */
    int32_t image;  /* with page -1: the IMAGES index drawn (-1 none); with a page: -1 */
    uint8_t blend;  /* MF_SD_BLEND_* */
    int32_t vertex_first, vertex_count; /* every index of the call lies in this range */
    int32_t index_first, index_count;   /* into indices / indices16; values index vertices */
} mf_draw_call;

/* Zeroed fields mean defaults. */
typedef struct mf_draw_batch_desc {
    int32_t max_vertices; /* 0: 65536 */
    int32_t max_indices;  /* 0: 3 × max_vertices */
    int32_t max_calls;    /* 0: 1024 */
    /* true: uint16 indices (indices16), so max_vertices may be at most 65536; false: uint32
     * (indices) */
    bool index16;
    mf_allocator alloc;   /* zeroed: malloc / free */
} mf_draw_batch_desc;

/* The host reads the fields and never writes them. */
typedef struct mf_draw_batch {
    int32_t vertex_count, vertex_cap;
    mf_batch_vertex *vertices;
    int32_t index_count, index_cap;
    uint32_t *indices;    /* NULL with desc.index16 */
    uint16_t *indices16;  /* NULL without */
    int32_t call_count, call_cap;
    mf_draw_call *calls;
    int32_t skeletons;    /* draw lists added since begin */
    int32_t items;        /* items merged since begin (those with triangles) */
    int32_t overflow;     /* draw lists left out since begin because a buffer was full */
    mf_allocator alloc;
} mf_draw_batch;

/* One allocation. MF_ERR_ARGUMENT: out NULL, a negative capacity, or index16 with more than
 * 65536 vertices; MF_ERR_NOMEM: the allocation failed. */
mf_result mf_draw_batch_create(const mf_draw_batch_desc *desc, mf_draw_batch **out);
void mf_draw_batch_destroy(mf_draw_batch *b);

/* Starts a frame: empties the streams and the calls. */
void mf_draw_batch_begin(mf_draw_batch *b);

/* Appends a skeleton's draw list (built with data d) after what is there, in its draw order;
 * skeletons go back to front. xf places the skeleton: {a, b, c, d, e, f} maps (x, y) to
 * (a x + c y + e, b x + d y + f); NULL: identity. A skeleton goes in whole or not at all:
 *   MF_OK;
 *   MF_ERR_NOMEM     the vertices, indices or calls would pass a capacity: nothing of this list
 *                    was added, overflow counts it, the frame so far stays consistent (draw it,
 *                    begin again and add the rest, or create a larger batch);
 *   MF_ERR_ARGUMENT  b, dl or d NULL, dl not created for d (mf_draw_list.data: that view or a
 *                    copy of it), or an item's image is not one of d's: nothing added. */
mf_result mf_draw_batch_add(mf_draw_batch *b, const mf_draw_list *dl, const mf_skel_data *d, const float *xf);

/* A colour as a merged vertex packs it (mf_batch_vertex): each 0..1 channel to a byte, rounded
 * (NaN and below 0: 0, 1 and above: 255), r in the lowest byte. For a host that makes its own
 * vertices from a draw list's items (a GPU skinner). */
uint32_t mf_draw_pack_color(float r, float g, float b, float a);

/* What breaks a batch besides the blend: the texture an item's image (mf_draw_item.image, -1:
 * none) samples in d. *page: its atlas page, or -1 when the image is not packed (or there is
 * none or no such page); *img: -1 with a page, else the image itself (mf_draw_call's page and
 * image). d must hold the image (an item of a list built for d does). */
void mf_draw_texture_of(const mf_skel_data *d, int32_t image, int32_t *page, int32_t *img);

#ifdef __cplusplus
}
#endif
#endif
