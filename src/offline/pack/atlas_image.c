/* Image preparation for atlas pages (see atlas_image.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "atlas_image.h"

bool mf_image_alpha_bounds(const mf_image *img, int32_t *x, int32_t *y, int32_t *w, int32_t *h)
{
    int32_t x0 = img->width, y0 = img->height, x1 = -1, y1 = -1;
    for (int32_t py = 0; py < img->height; py++) {
        const uint8_t *row = img->rgba + (size_t)py * img->width * 4;
        for (int32_t px = 0; px < img->width; px++) {
            if (row[px * 4 + 3] == 0) continue;
            if (px < x0) x0 = px;
            if (px > x1) x1 = px;
            if (py < y0) y0 = py;
            y1 = py;
        }
    }
    if (x1 < 0) {
        *x = *y = *w = *h = 0;
        return false;
    }
    *x = x0;
    *y = y0;
    *w = x1 - x0 + 1;
    *h = y1 - y0 + 1;
    return true;
}

mf_result mf_image_bleed(mf_image *img)
{
    size_t n = (size_t)img->width * (size_t)img->height;
    if (n == 0) return MF_OK;
    /* breadth-first from every opaque pixel: each ring takes colours from the previous one */
    int32_t *queue = malloc(n * sizeof *queue);
    uint8_t *done = calloc(n, 1);
    if (!queue || !done) {
        free(queue);
        free(done);
        return MF_ERR_NOMEM;
    }
    size_t head = 0, tail = 0;
    for (size_t i = 0; i < n; i++)
        if (img->rgba[i * 4 + 3] != 0) {
            done[i] = 1;
            queue[tail++] = (int32_t)i;
        }
    static const int DX[8] = {-1, 1, 0, 0, -1, 1, -1, 1}, DY[8] = {0, 0, -1, 1, -1, -1, 1, 1};
    while (head < tail) {
        size_t ring_end = tail;
        for (; head < ring_end; head++) {
            int32_t i = queue[head], px = i % img->width, py = i / img->width;
            for (int k = 0; k < 8; k++) {
                int32_t nx = px + DX[k], ny = py + DY[k];
                if (nx < 0 || ny < 0 || nx >= img->width || ny >= img->height) continue;
                size_t j = (size_t)ny * img->width + nx;
                if (done[j]) continue;
                done[j] = 1;
                memcpy(img->rgba + j * 4, img->rgba + (size_t)i * 4, 3);
                queue[tail++] = (int32_t)j;
            }
        }
    }
    free(queue);
    free(done);
    return MF_OK;
}

/* premultiplied sample accumulation, so transparent pixels carry no colour weight */
static void put_pixel(uint8_t *d, const double acc[4], double weight)
{
    double a = weight > 0 ? acc[3] / weight : 0;
    for (int c = 0; c < 3; c++) {
        double v = acc[3] > 0 ? acc[c] / acc[3] : 0;
        d[c] = (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : lround(v));
    }
    d[3] = (uint8_t)(a < 0 ? 0 : a > 255 ? 255 : lround(a));
}

static void add_sample(double acc[4], const uint8_t *s, double wgt)
{
    double a = s[3] * wgt;
    acc[0] += s[0] * a;
    acc[1] += s[1] * a;
    acc[2] += s[2] * a;
    acc[3] += a;
}

mf_result mf_image_resize(const mf_image *src, int32_t w, int32_t h, mf_image *out)
{
    mf_result r = mf_image_alloc(out, w, h);
    if (r != MF_OK) return r;
    double fx = (double)src->width / w, fy = (double)src->height / h;
    for (int32_t y = 0; y < h; y++) {
        for (int32_t x = 0; x < w; x++) {
            double acc[4] = {0, 0, 0, 0}, weight = 0;
            if (fx >= 1.0 && fy >= 1.0) { /* box filter over the source area */
                double sx0 = x * fx, sx1 = sx0 + fx, sy0 = y * fy, sy1 = sy0 + fy;
                for (int32_t sy = (int32_t)sy0; sy < src->height && sy < sy1; sy++) {
                    double wy = fmin(sy + 1, sy1) - fmax(sy, sy0);
                    for (int32_t sx = (int32_t)sx0; sx < src->width && sx < sx1; sx++) {
                        double wgt = wy * (fmin(sx + 1, sx1) - fmax(sx, sx0));
                        if (wgt <= 0) continue;
                        add_sample(acc, src->rgba + ((size_t)sy * src->width + sx) * 4, wgt);
                        weight += wgt;
                    }
                }
            } else { /* bilinear */
                double sx = (x + 0.5) * fx - 0.5, sy = (y + 0.5) * fy - 0.5;
                int32_t x0 = (int32_t)floor(sx), y0 = (int32_t)floor(sy);
                double tx = sx - x0, ty = sy - y0;
                for (int k = 0; k < 4; k++) {
                    int32_t px = x0 + (k & 1), py = y0 + (k >> 1);
                    px = px < 0 ? 0 : px >= src->width ? src->width - 1 : px;
                    py = py < 0 ? 0 : py >= src->height ? src->height - 1 : py;
                    double wgt = ((k & 1) ? tx : 1 - tx) * ((k >> 1) ? ty : 1 - ty);
                    add_sample(acc, src->rgba + ((size_t)py * src->width + px) * 4, wgt);
                    weight += wgt;
                }
            }
            put_pixel(out->rgba + ((size_t)y * w + x) * 4, acc, weight);
        }
    }
    return MF_OK;
}

void mf_image_blit_extrude(mf_image *dst, int32_t dx, int32_t dy, const mf_image *src, int32_t sx, int32_t sy,
                           int32_t w, int32_t h, int32_t pad)
{
    for (int32_t y = -pad; y < h + pad; y++) {
        int32_t ty = dy + y;
        if (ty < 0 || ty >= dst->height) continue;
        int32_t cy = y < 0 ? 0 : y >= h ? h - 1 : y;
        for (int32_t x = -pad; x < w + pad; x++) {
            int32_t tx = dx + x;
            if (tx < 0 || tx >= dst->width) continue;
            int32_t cx = x < 0 ? 0 : x >= w ? w - 1 : x;
            memcpy(dst->rgba + ((size_t)ty * dst->width + tx) * 4,
                   src->rgba + ((size_t)(sy + cy) * src->width + (sx + cx)) * 4, 4);
        }
    }
}
