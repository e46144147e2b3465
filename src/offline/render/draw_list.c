/* A runtime draw list through the software renderer. */
#include <stdlib.h>

#include "mf/mf_geometry.h"
#include "mf/mf_render.h"

void mf_render_draw_list(mf_canvas *c, const mf_draw_list *dl, const mf_image *const *pages, int32_t page_count,
                         const float view[6], const float tint[4])
{
    if (!c || !dl || dl->vertex_count <= 0) return;
    float *xy = malloc((size_t)dl->vertex_count * 2 * sizeof *xy);
    if (!xy) return;
    for (int32_t i = 0; i < dl->vertex_count; i++) {
        float x = dl->vertices[2 * i], y = dl->vertices[2 * i + 1];
        xy[2 * i] = view[0] * x + view[1] * y + view[4];
        xy[2 * i + 1] = view[2] * x + view[3] * y + view[5];
    }
    for (int32_t i = 0; i < dl->item_count; i++) {
        const mf_draw_item *it = &dl->items[i];
        mf_paint p = {(mf_blend)it->blend, {it->light[0], it->light[1], it->light[2], it->light[3]},
                      {it->dark[0], it->dark[1], it->dark[2]}, it->has_dark};
        if (p.blend >= MF_BLEND_COUNT) p.blend = MF_BLEND_NORMAL;
        if (tint)
            for (int k = 0; k < 4; k++) p.light[k] *= tint[k];
        const mf_image *page = it->image >= 0 && it->image < page_count ? pages[it->image] : NULL;
        mf_render_triangles(c, page, xy + 2 * it->vertex_first, dl->uvs + 2 * it->vertex_first, it->vertex_count,
                            dl->indices + it->index_first, it->index_count, &p);
    }
    free(xy);
}
