/* Draw lists of many skeletons merged into one vertex stream, one index stream and batches
 * (mf_draw_batch.h). Buffers sized at create; a list goes in whole or is rolled back. */
#include <string.h>

#include "../skel_data_same.h"
#include "draw_item.h"
#include "mf/mf_draw_batch.h"

enum { DEFAULT_VERTICES = 65536, DEFAULT_CALLS = 1024 };

mf_result mf_draw_batch_create(const mf_draw_batch_desc *desc, mf_draw_batch **out)
{
    if (!out) return MF_ERR_ARGUMENT;
    *out = NULL;
    mf_draw_batch_desc c = desc ? *desc : (mf_draw_batch_desc){0};
    if (c.max_vertices < 0 || c.max_indices < 0 || c.max_calls < 0) return MF_ERR_ARGUMENT;
    if (c.max_vertices == 0) c.max_vertices = DEFAULT_VERTICES;
    if (c.max_calls == 0) c.max_calls = DEFAULT_CALLS;
    if (c.max_indices == 0) c.max_indices = c.max_vertices > 0x7fffffff / 3 ? 0x7fffffff : 3 * c.max_vertices;
    if (c.index16 && c.max_vertices > 65536) return MF_ERR_ARGUMENT;
    /* sizes in 64 bits, checked before they become size_t (32-bit hosts would wrap) */
    uint64_t isize = c.index16 ? sizeof(uint16_t) : sizeof(uint32_t);
    uint64_t head64 = (sizeof(mf_draw_batch) + 15) & ~(uint64_t)15;
    uint64_t v64 = ((uint64_t)c.max_vertices * sizeof(mf_batch_vertex) + 15) & ~(uint64_t)15;
    uint64_t i64 = ((uint64_t)c.max_indices * isize + 15) & ~(uint64_t)15;
    uint64_t c64 = (uint64_t)c.max_calls * sizeof(mf_draw_call);
    if (head64 + v64 + i64 + c64 > (uint64_t)SIZE_MAX / 2) return MF_ERR_NOMEM;
    size_t head = (size_t)head64, vbytes = (size_t)v64, ibytes = (size_t)i64, cbytes = (size_t)c64;
    unsigned char *block = mf_alloc(&c.alloc, head + vbytes + ibytes + cbytes);
    if (!block) return MF_ERR_NOMEM;
    mf_draw_batch *b = (mf_draw_batch *)block;
    memset(b, 0, sizeof *b);
    b->vertices = (mf_batch_vertex *)(block + head);
    b->vertex_cap = c.max_vertices;
    if (c.index16) b->indices16 = (uint16_t *)(block + head + vbytes);
    else b->indices = (uint32_t *)(block + head + vbytes);
    b->index_cap = c.max_indices;
    b->calls = (mf_draw_call *)(block + head + vbytes + ibytes);
    b->call_cap = c.max_calls;
    b->alloc = c.alloc;
    *out = b;
    return MF_OK;
}

void mf_draw_batch_destroy(mf_draw_batch *b)
{
    if (!b) return;
    mf_allocator al = b->alloc;
    mf_free(&al, b);
}

void mf_draw_batch_begin(mf_draw_batch *b)
{
    if (!b) return;
    b->vertex_count = b->index_count = b->call_count = 0;
    b->skeletons = b->items = b->overflow = 0;
}

/* The loop below uses draw_item.h's inline forms: in position-independent code a call to the
 * exported mf_draw_pack_color stays a call (it could be interposed). */
uint32_t mf_draw_pack_color(float r, float g, float b, float a) { return mf_draw_pack(r, g, b, a); }

void mf_draw_texture_of(const mf_skel_data *d, int32_t image, int32_t *page, int32_t *img)
{
    mf_draw_texture(d, image, page, img);
}

mf_result mf_draw_batch_add(mf_draw_batch *b, const mf_draw_list *dl, const mf_skel_data *d, const float *xf)
{
    if (!b || !dl || !d) return MF_ERR_ARGUMENT;
    /* items index d's images and pages: a list of another rig's would draw the wrong textures */
    if (!mf_sd_same(dl->data, d)) return MF_ERR_ARGUMENT;
    if (!mf_draw_list_sane(dl)) return MF_ERR_ARGUMENT;
    /* what to restore when the list does not fit or lies */
    int32_t v0 = b->vertex_count, i0 = b->index_count, c0 = b->call_count;
    mf_draw_call last = c0 > 0 ? b->calls[c0 - 1] : (mf_draw_call){0};
    mf_result res = MF_OK;
    int32_t items = 0;
    float m[6];
    mf_draw_placement(xf, m);
    for (int32_t k = 0; k < dl->item_count && res == MF_OK; k++) {
        const mf_draw_item *it = &dl->items[k];
        if (!mf_draw_item_sane(dl, d, it)) {
            res = MF_ERR_ARGUMENT;
            break;
        }
        if (it->index_count == 0) continue; /* nothing drawn: no reason to break a batch */
        int32_t page, image;
        mf_draw_texture(d, it->image, &page, &image);
        int32_t nv = it->vertex_count, ni = it->index_count;
        if (nv > b->vertex_cap - b->vertex_count || ni > b->index_cap - b->index_count) {
            res = MF_ERR_NOMEM;
            break;
        }
        mf_draw_call *c = mf_draw_join_call(b->calls, &b->call_count, b->call_cap,
                                            b->call_count > 0 ? &b->calls[b->call_count - 1] : NULL, page, image,
                                            it->blend, b->vertex_count, b->index_count);
        if (!c) {
            res = MF_ERR_NOMEM;
            break;
        }
        /* indices first: a value outside the item rejects the list before its vertices cost */
        const uint16_t *src = dl->indices + it->index_first;
        uint32_t base = (uint32_t)b->vertex_count, top = 0;
        if (b->indices16) {
            uint16_t *dst = b->indices16 + b->index_count;
            for (int32_t j = 0; j < ni; j++) top |= src[j] >= nv, dst[j] = (uint16_t)(base + src[j]);
        } else {
            uint32_t *dst = b->indices + b->index_count;
            for (int32_t j = 0; j < ni; j++) top |= src[j] >= nv, dst[j] = base + src[j];
        }
        if (top) {
            res = MF_ERR_ARGUMENT;
            break;
        }
        uint32_t light = mf_draw_pack(it->light[0], it->light[1], it->light[2], it->light[3]);
        uint32_t dark = it->has_dark ? mf_draw_pack(it->dark[0], it->dark[1], it->dark[2], 1.0f) : 0u;
        const float *pv = dl->vertices + 2 * it->vertex_first, *uv = dl->uvs + 2 * it->vertex_first;
        mf_batch_vertex *out = b->vertices + b->vertex_count;
        for (int32_t j = 0; j < nv; j++) {
            float x = pv[2 * j], y = pv[2 * j + 1];
            out[j].x = m[0] * x + m[2] * y + m[4];
            out[j].y = m[1] * x + m[3] * y + m[5];
            out[j].u = uv[2 * j], out[j].v = uv[2 * j + 1];
            out[j].light = light, out[j].dark = dark;
        }
        b->vertex_count += nv, b->index_count += ni;
        c->vertex_count = b->vertex_count - c->vertex_first;
        c->index_count = b->index_count - c->index_first;
        items++;
    }
    if (res != MF_OK) {
        b->vertex_count = v0, b->index_count = i0, b->call_count = c0;
        if (c0 > 0) b->calls[c0 - 1] = last;
        if (res == MF_ERR_NOMEM) b->overflow++;
        return res;
    }
    b->skeletons++;
    b->items += items;
    return MF_OK;
}
