/* PNG encoding (libspng) and an atomic file write, so a failed run never leaves a half PNG. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spng.h>

#include "gen_art.h"

static int encode(const mf_art_image *img, void **png, size_t *len, char *err, size_t err_size,
                  const char *path)
{
    spng_ctx *ctx = spng_ctx_new(SPNG_CTX_ENCODER);
    if (!ctx) {
        snprintf(err, err_size, "%s: out of memory", path);
        return -1;
    }
    struct spng_ihdr ihdr = {0};
    ihdr.width = (uint32_t)img->width;
    ihdr.height = (uint32_t)img->height;
    ihdr.bit_depth = 8;
    ihdr.color_type = SPNG_COLOR_TYPE_TRUECOLOR_ALPHA;
    int rc = spng_set_option(ctx, SPNG_ENCODE_TO_BUFFER, 1);
    if (!rc) rc = spng_set_ihdr(ctx, &ihdr);
    if (!rc)
        rc = spng_encode_image(ctx, img->rgba, (size_t)img->width * (size_t)img->height * 4,
                               SPNG_FMT_PNG, SPNG_ENCODE_FINALIZE);
    if (!rc) *png = spng_get_png_buffer(ctx, len, &rc);
    spng_ctx_free(ctx);
    if (rc) {
        snprintf(err, err_size, "%s: PNG encoding failed: %s", path, spng_strerror(rc));
        return -1;
    }
    return 0;
}

int mf_art_write_png(const char *path, const mf_art_image *img, char *err, size_t err_size)
{
    void *png = NULL;
    size_t len = 0;
    if (encode(img, &png, &len, err, err_size, path) != 0) return -1;
    size_t tlen = strlen(path) + 8;
    char *tmp = malloc(tlen);
    if (!tmp) {
        free(png);
        snprintf(err, err_size, "%s: out of memory", path);
        return -1;
    }
    snprintf(tmp, tlen, "%s.tmp", path);
    FILE *f = fopen(tmp, "wb");
    int ok = f && fwrite(png, 1, len, f) == len;
    if (f && fclose(f) != 0) ok = 0;
    if (ok && rename(tmp, path) != 0) ok = 0;
    if (!ok) {
        snprintf(err, err_size, "%s: cannot write: %s", path, strerror(errno));
        remove(tmp);
    }
    free(tmp);
    free(png);
    return ok ? 0 : -1;
}
