/* Image preparation for atlas pages: scale, alpha bounds, alpha bleed, and blitting a
 * rectangle with its edges extruded into the padding around it. */
#ifndef MF_ATLAS_IMAGE_H
#define MF_ATLAS_IMAGE_H
#include <stdbool.h>

#include "mf/mf_png.h"

/* The bounds of pixels with alpha > 0; false (and 0,0 0x0) when the image is fully transparent. */
bool mf_image_alpha_bounds(const mf_image *img, int32_t *x, int32_t *y, int32_t *w, int32_t *h);
/* Every fully transparent pixel takes the colour of its nearest pixel with alpha > 0 (by
 * 8-connected steps; ties: the first neighbour in a fixed order), alpha stays 0. So filtering
 * at the silhouette does not pull in black. No-op on a fully transparent image. */
mf_result mf_image_bleed(mf_image *img);
/* A resampled copy of w × h (area average when shrinking, bilinear when growing; colour
 * weighted by alpha so transparent pixels don't darken edges). */
mf_result mf_image_resize(const mf_image *src, int32_t w, int32_t h, mf_image *out);
/* Copies src's (sx, sy, w, h) to dst at (dx, dy) and repeats its edge pixels `pad` pixels
 * outwards (corners too); parts outside dst are clipped. */
void mf_image_blit_extrude(mf_image *dst, int32_t dx, int32_t dy, const mf_image *src, int32_t sx, int32_t sy,
                           int32_t w, int32_t h, int32_t pad);
#endif
