/* mf_png.h — PNG read and write (libspng) as straight-alpha RGBA8, with located errors.
 *
 * Offline module (libmf_offline). Any PNG colour type and bit depth reads as RGBA8 (palette,
 * grey and 16-bit images are converted; tRNS transparency applied; no gamma change). Writes
 * are RGBA8, deterministic (the same pixels give the same bytes) and atomic.
 *
 *     mf_image img;
 *     if (mf_png_load("page.png", &img, &diag) == MF_OK) { ... img.rgba[(y * img.width + x) * 4] ... }
 *     mf_image_free(&img);
 */
#ifndef MF_PNG_H
#define MF_PNG_H

#include "mf/mf_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Images larger than this on either side are refused (a corrupt header must not allocate
 * gigabytes). */
#define MF_PNG_MAX_SIDE 16384
#define MF_PNG_MAX_PIXELS (1 << 26) /* 8192 x 8192 */

typedef struct mf_image {
    int32_t width, height;
    uint8_t *rgba; /* width * height * 4 bytes, rows top to bottom, malloc'd */
} mf_image;

/* A zeroed image of the given size (transparent black). MF_ERR_NOMEM / MF_ERR_ARGUMENT. */
mf_result mf_image_alloc(mf_image *img, int32_t width, int32_t height);
void mf_image_free(mf_image *img);

/* Decodes PNG bytes; file is only used in diagnostics. */
mf_result mf_png_decode(const void *data, size_t len, const char *file, mf_image *out, mf_diag *diag);
mf_result mf_png_load(const char *path, mf_image *out, mf_diag *diag);

/* Encodes RGBA8; *out is malloc'd (free() it). */
mf_result mf_png_encode(const mf_image *img, void **out, size_t *len, mf_diag *diag);
/* Encodes and writes atomically (temporary file in the same folder, then rename). */
mf_result mf_png_save(const mf_image *img, const char *path, mf_diag *diag);

#ifdef __cplusplus
}
#endif
#endif
