/* The software renderer's core: canvas, bilinear sampling, tint, premultiplied blending and a
 * top-left-rule triangle rasteriser. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mf/mf_render.h"

mf_result mf_canvas_create(mf_canvas *c, int32_t width, int32_t height)
{
    memset(c, 0, sizeof *c);
    if (width < 1 || height < 1 || width > MF_PNG_MAX_SIDE || height > MF_PNG_MAX_SIDE ||
        (int64_t)width * height > MF_PNG_MAX_PIXELS)
        return MF_ERR_ARGUMENT;
    c->px = calloc((size_t)width * (size_t)height * 4, sizeof *c->px);
    if (!c->px) return MF_ERR_NOMEM;
    c->width = width, c->height = height;
    c->clip[2] = width, c->clip[3] = height;
    return MF_OK;
}

void mf_canvas_free(mf_canvas *c)
{
    if (!c) return;
    free(c->px);
    memset(c, 0, sizeof *c);
}

void mf_canvas_clear(mf_canvas *c, const float rgba[4])
{
    float p[4] = {rgba[0] * rgba[3], rgba[1] * rgba[3], rgba[2] * rgba[3], rgba[3]};
    size_t n = (size_t)c->width * (size_t)c->height;
    for (size_t i = 0; i < n; i++) memcpy(c->px + 4 * i, p, sizeof p);
}

static int32_t clampi(int32_t v, int32_t lo, int32_t hi) { return v < lo ? lo : v > hi ? hi : v; }

void mf_canvas_set_clip(mf_canvas *c, int32_t x0, int32_t y0, int32_t x1, int32_t y1)
{
    c->clip[0] = clampi(x0, 0, c->width), c->clip[1] = clampi(y0, 0, c->height);
    c->clip[2] = clampi(x1, c->clip[0], c->width), c->clip[3] = clampi(y1, c->clip[1], c->height);
}

static uint8_t to_byte(float v)
{
    v = v < 0 ? 0 : v > 1 ? 1 : v;
    return (uint8_t)lrintf(v * 255.0f);
}

mf_result mf_canvas_to_image(const mf_canvas *c, mf_image *out)
{
    mf_result r = mf_image_alloc(out, c->width, c->height);
    if (r != MF_OK) return r;
    size_t n = (size_t)c->width * (size_t)c->height;
    for (size_t i = 0; i < n; i++) {
        const float *p = c->px + 4 * i;
        float a = p[3] > 1 ? 1 : p[3];
        uint8_t *o = out->rgba + 4 * i;
        for (int k = 0; k < 3; k++) o[k] = a > 0 ? to_byte(p[k] / a) : 0;
        o[3] = to_byte(a);
    }
    return MF_OK;
}

void mf_render_sample(const mf_image *tex, float u, float v, float out[4])
{
    if (!tex || !tex->rgba || tex->width < 1 || tex->height < 1) {
        out[0] = out[1] = out[2] = out[3] = 1;
        return;
    }
    if (!isfinite(u)) u = 0;
    if (!isfinite(v)) v = 0;
    /* texel centres at (i + 0.5) / size, clamped to the edge */
    float x = u * (float)tex->width - 0.5f, y = v * (float)tex->height - 0.5f;
    float fx = floorf(x), fy = floorf(y);
    float tx = x - fx, ty = y - fy;
    int32_t x0 = (int32_t)fmaxf(fminf(fx, (float)tex->width - 1), 0);
    int32_t y0 = (int32_t)fmaxf(fminf(fy, (float)tex->height - 1), 0);
    int32_t x1 = clampi((int32_t)fmaxf(fminf(fx + 1, (float)tex->width - 1), 0), 0, tex->width - 1);
    int32_t y1 = clampi((int32_t)fmaxf(fminf(fy + 1, (float)tex->height - 1), 0), 0, tex->height - 1);
    const uint8_t *p00 = tex->rgba + 4 * ((size_t)y0 * tex->width + x0);
    const uint8_t *p10 = tex->rgba + 4 * ((size_t)y0 * tex->width + x1);
    const uint8_t *p01 = tex->rgba + 4 * ((size_t)y1 * tex->width + x0);
    const uint8_t *p11 = tex->rgba + 4 * ((size_t)y1 * tex->width + x1);
    for (int k = 0; k < 4; k++) {
        float top = p00[k] + (p10[k] - p00[k]) * tx;
        float bottom = p01[k] + (p11[k] - p01[k]) * tx;
        out[k] = (top + (bottom - top) * ty) / 255.0f;
    }
}

void mf_render_shade(const float tex[4], const mf_paint *p, float out[4])
{
    float a = tex[3] * p->light[3];
    for (int k = 0; k < 3; k++) {
        float dark = p->has_dark ? p->dark[k] : 0;
        float rgb = (1 - tex[k]) * dark + tex[k] * p->light[k];
        out[k] = rgb * a; /* premultiplied after the tint */
    }
    out[3] = a;
}

void mf_render_blend(float d[4], const float s[4], mf_blend mode)
{
    float inv_a = 1 - s[3];
    switch (mode) {
    case MF_BLEND_ADDITIVE:
        for (int k = 0; k < 3; k++) d[k] = s[k] + d[k];
        break;
    case MF_BLEND_MULTIPLY:
        for (int k = 0; k < 3; k++) d[k] = s[k] * d[k] + d[k] * inv_a;
        break;
    case MF_BLEND_SCREEN:
        for (int k = 0; k < 3; k++) d[k] = s[k] + d[k] * (1 - s[k]);
        break;
    default:
        for (int k = 0; k < 3; k++) d[k] = s[k] + d[k] * inv_a;
        break;
    }
    d[3] = s[3] + d[3] * inv_a;
    for (int k = 0; k < 4; k++) d[k] = d[k] > 1 ? 1 : d[k]; /* an 8-bit target saturates */
}

/* Top-left rule: a pixel centre exactly on an edge belongs to the triangle only when the edge
 * is a top edge or a left edge (for the orientation the triangle is normalised to). */
static bool top_left(float ax, float ay, float bx, float by)
{
    return (ay == by && bx < ax) || by < ay;
}

static void raster(mf_canvas *c, const mf_image *tex, const float *p0, const float *p1, const float *p2,
                   const float *t0, const float *t1, const float *t2, const mf_paint *paint)
{
    float area = (p1[0] - p0[0]) * (p2[1] - p0[1]) - (p1[1] - p0[1]) * (p2[0] - p0[0]);
    if (!(fabsf(area) > 1e-12f) || !isfinite(area)) return;
    if (area < 0) { /* one orientation for the fill rule */
        const float *tp = p1, *tt = t1;
        p1 = p2, t1 = t2, p2 = tp, t2 = tt;
        area = -area;
    }
    float minx = fminf(p0[0], fminf(p1[0], p2[0])), maxx = fmaxf(p0[0], fmaxf(p1[0], p2[0]));
    float miny = fminf(p0[1], fminf(p1[1], p2[1])), maxy = fmaxf(p0[1], fmaxf(p1[1], p2[1]));
    if (maxx < (float)c->clip[0] || maxy < (float)c->clip[1] || minx > (float)c->clip[2] || miny > (float)c->clip[3])
        return;
    int32_t x0 = clampi((int32_t)floorf(fmaxf(minx, -1)), c->clip[0], c->clip[2]);
    int32_t x1 = clampi((int32_t)ceilf(fminf(maxx, (float)c->width + 1)), c->clip[0], c->clip[2]);
    int32_t y0 = clampi((int32_t)floorf(fmaxf(miny, -1)), c->clip[1], c->clip[3]);
    int32_t y1 = clampi((int32_t)ceilf(fminf(maxy, (float)c->height + 1)), c->clip[1], c->clip[3]);
    bool tl0 = top_left(p1[0], p1[1], p2[0], p2[1]), tl1 = top_left(p2[0], p2[1], p0[0], p0[1]),
         tl2 = top_left(p0[0], p0[1], p1[0], p1[1]);
    for (int32_t y = y0; y < y1; y++) {
        float py = (float)y + 0.5f;
        for (int32_t x = x0; x < x1; x++) {
            float px = (float)x + 0.5f;
            /* edge functions: w0 is the weight of p0 (the edge p1 → p2) … */
            float w0 = (p2[0] - p1[0]) * (py - p1[1]) - (p2[1] - p1[1]) * (px - p1[0]);
            float w1 = (p0[0] - p2[0]) * (py - p2[1]) - (p0[1] - p2[1]) * (px - p2[0]);
            float w2 = (p1[0] - p0[0]) * (py - p0[1]) - (p1[1] - p0[1]) * (px - p0[0]);
            if (w0 < 0 || w1 < 0 || w2 < 0) continue;
            if ((w0 == 0 && !tl0) || (w1 == 0 && !tl1) || (w2 == 0 && !tl2)) continue;
            float b0 = w0 / area, b1 = w1 / area, b2 = 1 - b0 - b1;
            float texel[4], src[4];
            if (tex && t0) {
                float u = b0 * t0[0] + b1 * t1[0] + b2 * t2[0];
                float v = b0 * t0[1] + b1 * t1[1] + b2 * t2[1];
                mf_render_sample(tex, u, v, texel);
            } else texel[0] = texel[1] = texel[2] = texel[3] = 1;
            mf_render_shade(texel, paint, src);
            if (src[3] <= 0 && paint->blend != MF_BLEND_ADDITIVE && paint->blend != MF_BLEND_SCREEN) continue;
            mf_render_blend(c->px + 4 * ((size_t)y * c->width + x), src, paint->blend);
        }
    }
}

void mf_render_triangles(mf_canvas *c, const mf_image *tex, const float *xy, const float *uv, int32_t vertex_count,
                         const uint16_t *indices, int32_t index_count, const mf_paint *paint)
{
    if (!c || !c->px || !xy || !indices || !paint) return;
    for (int32_t i = 0; i + 2 < index_count; i += 3) {
        int32_t a = indices[i], b = indices[i + 1], d = indices[i + 2];
        if (a >= vertex_count || b >= vertex_count || d >= vertex_count) continue;
        raster(c, tex, xy + 2 * a, xy + 2 * b, xy + 2 * d, uv ? uv + 2 * a : NULL, uv ? uv + 2 * b : NULL,
               uv ? uv + 2 * d : NULL, paint);
    }
}
