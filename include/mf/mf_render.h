/* mf_render.h — the software renderer: textured triangles into a float canvas, the way the
 * seed's canvas shader draws skeletons (offline module).
 *
 *   - pages are straight-alpha RGBA8 (mf_image); texels are sampled bilinearly (clamped to the
 *     edge), tinted, and only then premultiplied — the "premultiply in the shader" rule;
 *   - two-colour tint: rgb = ((1 − tex.rgb) × dark + tex.rgb × light.rgb), alpha = tex.a × light.a
 *     (then premultiplied); without a dark colour, dark is black: rgb = tex.rgb × light.rgb;
 *   - blend modes on premultiplied colour, as the seed's table says:
 *       Normal   ONE, 1 − SRC_ALPHA        Additive ONE, ONE
 *       Multiply DST_COLOR, 1 − SRC_ALPHA  Screen   ONE, 1 − SRC_COLOR
 *     alpha always ONE, 1 − SRC_ALPHA (coverage), so sheets stay readable on transparency;
 *   - output clipped to the canvas and its scissor rectangle; pixel centres at (x + 0.5, y + 0.5)
 *     with the top-left fill rule, so meshes' shared edges are drawn once (no seams, no
 *     double blending).
 * The canvas works in gamma space (like the seed's canvas layer and 2D tools).
 *
 *     mf_canvas cv;  mf_canvas_create(&cv, 256, 256);
 *     mf_canvas_clear(&cv, (float[4]){1, 1, 1, 1});
 *     mf_render_triangles(&cv, &page, xy, uv, 4, idx, 6, &(mf_paint){MF_BLEND_NORMAL, {1, 1, 1, 1}});
 *     mf_image out;  mf_canvas_to_image(&cv, &out);  mf_png_save(&out, "a.png", &diag);
 */
#ifndef MF_RENDER_H
#define MF_RENDER_H

#include "mf/mf_png.h"
#include "mf/mf_skeleton.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct mf_canvas {
    int32_t width, height;
    float *px;          /* premultiplied RGBA, 4 floats a pixel, rows top to bottom */
    int32_t clip[4];    /* scissor: x0, y0, x1, y1 (exclusive); the whole canvas by default */
} mf_canvas;

mf_result mf_canvas_create(mf_canvas *c, int32_t width, int32_t height);
void mf_canvas_free(mf_canvas *c);
/* Fills every pixel (inside or outside the scissor) with a straight colour. */
void mf_canvas_clear(mf_canvas *c, const float rgba[4]);
void mf_canvas_set_clip(mf_canvas *c, int32_t x0, int32_t y0, int32_t x1, int32_t y1);
/* Straight RGBA8 (rounded), for PNG. MF_ERR_NOMEM. */
mf_result mf_canvas_to_image(const mf_canvas *c, mf_image *out);

/* How a run of triangles is drawn: blend mode, light colour (straight, 0..1), optional dark. */
typedef struct mf_paint {
    mf_blend blend;
    float light[4];
    float dark[3];
    bool has_dark;
} mf_paint;

/* Bilinear sample of a straight RGBA8 image at (u, v) in 0..1 (clamped to the edge); out is
 * straight 0..1. A NULL or empty image samples opaque white. */
void mf_render_sample(const mf_image *tex, float u, float v, float out[4]);
/* The shaded, premultiplied colour of one texel (straight 0..1) under a paint. */
void mf_render_shade(const float tex[4], const mf_paint *paint, float out[4]);
/* Blends a premultiplied source colour into a premultiplied destination pixel. */
void mf_render_blend(float dst[4], const float src[4], mf_blend mode);

/* Draws triangles: xy in canvas pixels (2 floats a vertex), uv 0..1 in tex, indices into the
 * vertices (3 a triangle; out-of-range indices are skipped). tex NULL: untextured (white). */
void mf_render_triangles(mf_canvas *c, const mf_image *tex, const float *xy, const float *uv, int32_t vertex_count,
                         const uint16_t *indices, int32_t index_count, const mf_paint *paint);

/* Draws a runtime draw list (mf_geometry.h) in draw order: pages[image] is the straight image of
 * each IMAGES entry (NULL: white), view maps skeleton space to canvas pixels
 * (x' = view[0]·x + view[1]·y + view[4], y' = view[2]·x + view[3]·y + view[5]); tint multiplies
 * every item's light colour (onion skins: a faded, coloured copy). */
struct mf_draw_list;
void mf_render_draw_list(mf_canvas *c, const struct mf_draw_list *dl, const mf_image *const *pages,
                         int32_t page_count, const float view[6], const float tint[4]);

/* The contact sheet of `mfe skel render`: N frames of a clip across the clip (its key times when
 * fewer), each with an onion overlay of its neighbours, the bones and the pose bounds, labelled
 * with time; a timeline strip with key ticks per timeline and the events; a header with the rig,
 * clip, length, loop and the check summary. frame_time >= 0 renders that one time, large. */
typedef struct mf_sheet_options {
    const char *clip;       /* clip name (required) */
    int32_t frames;         /* default 8 */
    float frame_time;       /* < 0: a sheet */
    int32_t width, height;  /* a cell (sheet) or the picture (one frame); 0: defaults */
    const char *const *skins; /* skin names to compose; NULL: "default" plus the first other skin */
    int32_t skin_count;
} mf_sheet_options;
mf_result mf_render_sheet(const char *rig_path, const mf_sheet_options *opt, const char *out_png, mf_diag *diag);

#ifdef __cplusplus
}
#endif
#endif
