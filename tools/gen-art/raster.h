/* A tiny analytic rasteriser for the generated example art: signed-distance shapes, 1-pixel
 * anti-aliasing, "over" compositing in premultiplied doubles.
 *
 * Only +, -, *, / and sqrt are used (all correctly rounded in IEEE 754) and the sources build
 * with -ffp-contract=off, so every machine and compiler produces the same pixels. */
#ifndef MF_ART_RASTER_H
#define MF_ART_RASTER_H
#include <stdint.h>

/* Premultiplied RGBA, 4 doubles a pixel, row-major, (0, 0) the top-left pixel's corner. */
typedef struct mf_art_canvas {
    int w, h;
    double *px;
} mf_art_canvas;

typedef enum mf_art_shape_kind {
    MF_ART_CAPSULE, /* segment a→b, radius r0 at a narrowing linearly to r1 at b */
    MF_ART_ELLIPSE, /* centre a, radii (r0, r1) */
    MF_ART_RBOX     /* centre a, half size b, corner radius r0 */
} mf_art_shape_kind;

typedef struct mf_art_shape {
    mf_art_shape_kind kind;
    double ax, ay, bx, by, r0, r1;
} mf_art_shape;

/* How a body part is painted: an outline, then a fill darkened towards its edge ("pillow"
 * shading, the same in every orientation, so rotated limbs still read as round). */
typedef struct mf_art_style {
    uint32_t fill, outline; /* 0xRRGGBB */
    double outline_width;   /* pixels */
    double bevel;           /* pixels from the edge over which the fill brightens */
    double edge_shade;      /* brightness at the edge, 0..1 (1 at the bevel's depth) */
} mf_art_style;

/* A cleared canvas; false when out of memory. */
int mf_art_canvas_init(mf_art_canvas *c, int w, int h);
void mf_art_canvas_free(mf_art_canvas *c);

/* Signed distance to the union of n shapes (negative inside); smooth > 0 rounds the joins
 * over about that many pixels. */
double mf_art_sdf(const mf_art_shape *s, int n, double smooth, double x, double y);

/* Paints the union of shapes with a style. */
void mf_art_body(mf_art_canvas *c, const mf_art_shape *s, int n, double smooth,
                 const mf_art_style *style);
/* Paints the union of shapes in one flat colour (0xRRGGBB) at opacity alpha. */
void mf_art_flat(mf_art_canvas *c, const mf_art_shape *s, int n, uint32_t rgb, double alpha);
/* A soft-edged blob: opacity rises from 0 at the shape's edge to alpha at depth soft pixels. */
void mf_art_soft(mf_art_canvas *c, const mf_art_shape *s, uint32_t rgb, double alpha, double soft);

/* Straight-alpha RGBA8 (rgb 0 where alpha is 0) into out (4 * w * h bytes). */
void mf_art_canvas_rgba8(const mf_art_canvas *c, uint8_t *out);
#endif
