/* Atlas region → its original image: the packed pixels are copied out of the page (turned back
 * when the packer rotated them), placed where the stripped whitespace was, and un-premultiplied
 * when the page has premultiplied alpha. */
#include <stdio.h>
#include <string.h>

#include "spine_internal.h"

/* Page pixel of packed-image pixel (ix, iy) for a region stored `degrees` counter-clockwise. */
static void page_xy(const mf_atlas_region *g, int32_t ix, int32_t iy, int32_t *px, int32_t *py)
{
    int32_t w = g->width, h = g->height;
    switch (g->degrees) {
    case 90: *px = g->x + iy, *py = g->y + w - 1 - ix; break;
    case 180: *px = g->x + w - 1 - ix, *py = g->y + h - 1 - iy; break;
    case 270: *px = g->x + h - 1 - iy, *py = g->y + ix; break;
    default: *px = g->x + ix, *py = g->y + iy; break;
    }
}

/* Spine's premultiplied pages hold floor(c * a / 255) (every channel of the corpus' -pma pages
 * does), so c is one of the integers whose product lands in [p, p + 1): the middle one is the
 * best guess. Exact at alpha 255, within 1 from alpha 128 up; below that the page itself keeps
 * fewer than 8 bits of colour. */
static uint8_t unpremultiply(uint8_t p, uint8_t a)
{
    if (a == 0) return 0;
    unsigned lo = ((unsigned)p * 255u + a - 1u) / a, hi = (((unsigned)p + 1u) * 255u + a - 1u) / a - 1u;
    if (hi > 255u) hi = 255u;
    if (lo > hi) lo = hi;
    return (uint8_t)((lo + hi) / 2u);
}

mf_result sp_unpack_region(const mf_atlas_region *g, const mf_atlas_page *page, const mf_image *pixels,
                           mf_image *out, const char *atlas_file, mf_diag *diag)
{
    bool turned = g->degrees == 90 || g->degrees == 270;
    int64_t pw = turned ? g->height : g->width, ph = turned ? g->width : g->height;
    if (g->x + pw > pixels->width || g->y + ph > pixels->height) {
        char where[32];
        snprintf(where, sizeof where, "line %d", (int)g->line);
        mf_diag_set(diag, atlas_file, where, "region \"%s\" (%lldx%lld at %d, %d) lies outside page \"%s\" (%dx%d pixels)",
                    g->name, (long long)pw, (long long)ph, (int)g->x, (int)g->y, page->name, (int)pixels->width,
                    (int)pixels->height);
        return MF_ERR_INVALID;
    }
    mf_result r = mf_image_alloc(out, g->orig_width, g->orig_height);
    if (r != MF_OK) {
        mf_diag_set(diag, atlas_file, "", "out of memory for region \"%s\"", g->name);
        return r;
    }
    /* offsets count from the left and the bottom of the original image */
    int32_t dx0 = g->offset_x, dy0 = g->orig_height - g->offset_y - g->height;
    for (int32_t iy = 0; iy < g->height; iy++) {
        uint8_t *dst = out->rgba + ((size_t)(dy0 + iy) * (size_t)out->width + (size_t)dx0) * 4;
        for (int32_t ix = 0; ix < g->width; ix++, dst += 4) {
            int32_t px, py;
            page_xy(g, ix, iy, &px, &py);
            const uint8_t *src = pixels->rgba + ((size_t)py * (size_t)pixels->width + (size_t)px) * 4;
            if (page->pma) {
                dst[0] = unpremultiply(src[0], src[3]);
                dst[1] = unpremultiply(src[1], src[3]);
                dst[2] = unpremultiply(src[2], src[3]);
                dst[3] = src[3];
            } else {
                memcpy(dst, src, 4);
            }
        }
    }
    return MF_OK;
}
