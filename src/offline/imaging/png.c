/* PNG read / write through libspng: every input becomes straight RGBA8; output is RGBA8. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spng.h>

#include "mf/mf_png.h"
#include "util/files.h"

mf_result mf_image_alloc(mf_image *img, int32_t width, int32_t height)
{
    img->width = img->height = 0;
    img->rgba = NULL;
    if (width <= 0 || height <= 0 || width > MF_PNG_MAX_SIDE || height > MF_PNG_MAX_SIDE ||
        (int64_t)width * height > MF_PNG_MAX_PIXELS)
        return MF_ERR_ARGUMENT;
    img->rgba = calloc((size_t)width * (size_t)height, 4);
    if (!img->rgba) return MF_ERR_NOMEM;
    img->width = width;
    img->height = height;
    return MF_OK;
}

void mf_image_free(mf_image *img)
{
    if (!img) return;
    free(img->rgba);
    img->rgba = NULL;
    img->width = img->height = 0;
}

static const uint8_t SIGNATURE[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};

mf_result mf_png_decode(const void *data, size_t len, const char *file, mf_image *out, mf_diag *diag)
{
    memset(out, 0, sizeof *out);
    file = file ? file : "";
    if (!data || len < sizeof SIGNATURE || memcmp(data, SIGNATURE, sizeof SIGNATURE) != 0) {
        mf_diag_set(diag, file, "", "not a PNG file (no PNG signature)");
        return MF_ERR_INVALID;
    }
    spng_ctx *ctx = spng_ctx_new(0);
    if (!ctx) {
        mf_diag_set(diag, file, "", "out of memory");
        return MF_ERR_NOMEM;
    }
    /* a hostile header must not make us allocate without bound */
    spng_set_image_limits(ctx, MF_PNG_MAX_SIDE, MF_PNG_MAX_SIDE);
    spng_set_chunk_limits(ctx, 64u << 20, 64u << 20);
    struct spng_ihdr ihdr;
    size_t size = 0;
    int rc = spng_set_png_buffer(ctx, data, len);
    if (!rc) rc = spng_get_ihdr(ctx, &ihdr);
    if (!rc) rc = spng_decoded_image_size(ctx, SPNG_FMT_RGBA8, &size);
    if (rc) {
        mf_diag_set(diag, file, "header", "corrupt PNG: %s", spng_strerror(rc));
        spng_ctx_free(ctx);
        return MF_ERR_INVALID;
    }
    if (ihdr.width == 0 || ihdr.height == 0 || size != (size_t)ihdr.width * ihdr.height * 4 ||
        (uint64_t)ihdr.width * ihdr.height > MF_PNG_MAX_PIXELS) {
        mf_diag_set(diag, file, "header", "unsupported PNG size %ux%u", (unsigned)ihdr.width,
                    (unsigned)ihdr.height);
        spng_ctx_free(ctx);
        return MF_ERR_INVALID;
    }
    uint8_t *px = malloc(size);
    if (!px) {
        mf_diag_set(diag, file, "", "out of memory for a %ux%u image", (unsigned)ihdr.width,
                    (unsigned)ihdr.height);
        spng_ctx_free(ctx);
        return MF_ERR_NOMEM;
    }
    rc = spng_decode_image(ctx, px, size, SPNG_FMT_RGBA8, SPNG_DECODE_TRNS);
    spng_ctx_free(ctx);
    if (rc) {
        free(px);
        mf_diag_set(diag, file, "image data", "corrupt PNG: %s", spng_strerror(rc));
        return MF_ERR_INVALID;
    }
    out->width = (int32_t)ihdr.width;
    out->height = (int32_t)ihdr.height;
    out->rgba = px;
    return MF_OK;
}

mf_result mf_png_load(const char *path, mf_image *out, mf_diag *diag)
{
    char *data = NULL;
    size_t len = 0;
    memset(out, 0, sizeof *out);
    mf_result r = mf_read_file(path, &data, &len, diag);
    if (r != MF_OK) return r;
    r = mf_png_decode(data, len, path, out, diag);
    free(data);
    return r;
}

mf_result mf_png_encode(const mf_image *img, void **out, size_t *len, mf_diag *diag)
{
    *out = NULL;
    *len = 0;
    if (!img || !img->rgba || img->width <= 0 || img->height <= 0) {
        mf_diag_set(diag, "", "", "mf_png_encode: empty image");
        return MF_ERR_ARGUMENT;
    }
    spng_ctx *ctx = spng_ctx_new(SPNG_CTX_ENCODER);
    if (!ctx) {
        mf_diag_set(diag, "", "", "out of memory");
        return MF_ERR_NOMEM;
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
    void *buf = NULL;
    if (!rc) buf = spng_get_png_buffer(ctx, len, &rc);
    spng_ctx_free(ctx);
    if (rc || !buf) {
        free(buf);
        *len = 0;
        mf_diag_set(diag, "", "", "PNG encoding failed: %s", spng_strerror(rc));
        return MF_ERR_NOMEM;
    }
    *out = buf;
    return MF_OK;
}

mf_result mf_png_save(const mf_image *img, const char *path, mf_diag *diag)
{
    void *png = NULL;
    size_t len = 0;
    mf_result r = mf_png_encode(img, &png, &len, diag);
    if (r != MF_OK) {
        if (diag) snprintf(diag->file, sizeof diag->file, "%s", path ? path : "");
        return r;
    }
    r = mf_write_file_atomic(path, png, len, diag);
    free(png);
    return r;
}
