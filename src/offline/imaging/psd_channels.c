/* PSD channel data: raw and RLE (PackBits) planes, 8 or 16 bits a sample, reduced to 8 bits.
 * Every length is checked against the bytes that are there before anything is allocated or
 * written, so a corrupt file fails with the offset of the bad row instead of reading past. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "psd_internal.h"

static uint8_t to8(const uint8_t *s, int32_t depth)
{
    if (depth == 8) return s[0];
    uint32_t v = ((uint32_t)s[0] << 8) | s[1];
    return (uint8_t)((v * 255u + 32767u) / 65535u);
}

static void put_row(const uint8_t *row, int32_t width, int32_t depth, uint8_t *dst)
{
    size_t bps = (size_t)depth / 8;
    for (int32_t x = 0; x < width; x++) dst[(size_t)x * 4] = to8(row + (size_t)x * bps, depth);
}

/* PackBits into exactly n bytes; returns false when the data is short or overruns. */
static bool unpack_row(const uint8_t *src, size_t srclen, uint8_t *dst, size_t n, size_t *bad_at)
{
    size_t i = 0, o = 0;
    while (o < n) {
        if (i >= srclen) {
            *bad_at = i;
            return false;
        }
        int8_t c = (int8_t)src[i++];
        if (c >= 0) {
            size_t k = (size_t)c + 1;
            if (i + k > srclen || o + k > n) {
                *bad_at = i - 1;
                return false;
            }
            memcpy(dst + o, src + i, k);
            i += k, o += k;
        } else if (c != -128) {
            size_t k = (size_t)(1 - c);
            if (i >= srclen || o + k > n) {
                *bad_at = i - 1;
                return false;
            }
            memset(dst + o, src[i++], k);
            o += k;
        }
    }
    return true;
}

/* planes planes of width x height after the compression word at data (comp 0 raw, 1 RLE);
 * outs[p] is the destination of plane p at stride 4, or NULL to skip it. */
static bool decode_planes(psd_rd *r, mf_result *res, size_t data, size_t end, int comp, int32_t width,
                          int32_t height, int32_t depth, int32_t planes, uint8_t *const *outs,
                          const char *what)
{
    size_t bps = (size_t)depth / 8, rowlen = (size_t)width * bps;
    size_t rows = (size_t)height * (size_t)planes;
    if (width == 0 || height == 0) return true;
    if (comp == 0) {
        if ((end - data) / rowlen < rows) {
            r->pos = data;
            return psd_fail(r, res, MF_ERR_INVALID, "%s: raw data of %zu bytes is shorter than %zu x %zu x %d-bit (%zu bytes)",
                            what, end - data, (size_t)width, rows, depth, rowlen * rows);
        }
        for (size_t y = 0; y < rows; y++) {
            uint8_t *o = outs[y / (size_t)height];
            if (o) put_row(r->p + data + y * rowlen, width, depth, o + (y % (size_t)height) * (size_t)width * 4);
        }
        return true;
    }
    /* RLE: one 16-bit byte count per row, then the rows */
    if ((end - data) / 2 < rows) {
        r->pos = data;
        return psd_fail(r, res, MF_ERR_INVALID, "%s: RLE row table needs %zu bytes, %zu left", what, rows * 2,
                        end - data);
    }
    size_t at = data + rows * 2;
    uint8_t *row = malloc(rowlen);
    if (!row) return psd_fail(r, res, MF_ERR_NOMEM, "out of memory");
    bool ok = true;
    for (size_t y = 0; y < rows && ok; y++) {
        size_t n = ((size_t)r->p[data + 2 * y] << 8) | r->p[data + 2 * y + 1];
        if (n > end - at) {
            r->pos = data + 2 * y;
            ok = psd_fail(r, res, MF_ERR_INVALID, "%s: RLE row %zu claims %zu bytes, %zu left", what,
                          y % (size_t)height, n, end - at);
            break;
        }
        size_t bad = 0;
        if (!unpack_row(r->p + at, n, row, rowlen, &bad)) {
            r->pos = at + bad;
            ok = psd_fail(r, res, MF_ERR_INVALID, "%s: RLE row %zu does not unpack to %zu bytes", what,
                          y % (size_t)height, rowlen);
            break;
        }
        uint8_t *o = outs[y / (size_t)height];
        if (o) put_row(row, width, depth, o + (y % (size_t)height) * (size_t)width * 4);
        at += n;
    }
    free(row);
    return ok;
}

bool psd_channel_compression(psd_rd *r, mf_result *res, size_t start, size_t len, const char *channel, int *comp_out)
{
    if (len < 2) {
        r->pos = start;
        return psd_fail(r, res, MF_ERR_INVALID, "%s: %zu bytes of data, the compression word needs 2", channel, len);
    }
    int comp = (r->p[start] << 8) | r->p[start + 1];
    if (comp == 2 || comp == 3) {
        r->pos = start;
        return psd_fail(r, res, MF_ERR_UNSUPPORTED,
                        "%s: ZIP-compressed channel data (%s) is not supported; save the PSD with RLE or no compression",
                        channel, comp == 2 ? "zip" : "zip with prediction");
    }
    if (comp != 0 && comp != 1) {
        r->pos = start;
        return psd_fail(r, res, MF_ERR_INVALID, "%s: unknown compression %d (expected 0 raw or 1 RLE)", channel, comp);
    }
    *comp_out = comp;
    return true;
}

bool psd_decode_channel(psd_rd *r, mf_result *res, size_t start, size_t len, int32_t width, int32_t height,
                        int32_t depth, uint8_t *out, const char *channel)
{
    int comp;
    if (!psd_channel_compression(r, res, start, len, channel, &comp)) return false;
    uint8_t *outs[1] = {out};
    return decode_planes(r, res, start + 2, start + len, comp, width, height, depth, 1, outs, channel);
}

bool psd_merged_compression(psd_rd *r, mf_result *res, int *comp_out)
{
    if (!psd_need(r, res, 2, "the merged image's compression word")) return false;
    int comp = *comp_out = (r->p[r->pos] << 8) | r->p[r->pos + 1];
    if (comp == 2 || comp == 3)
        return psd_fail(r, res, MF_ERR_UNSUPPORTED, "ZIP-compressed merged image is not supported");
    if (comp != 0 && comp != 1)
        return psd_fail(r, res, MF_ERR_INVALID, "unknown compression %d (expected 0 raw or 1 RLE)", comp);
    return true;
}

bool psd_decode_merged(psd_rd *r, mf_result *res, int32_t width, int32_t height, int32_t depth, int32_t channels,
                       int32_t mode, uint8_t *rgba)
{
    int comp;
    if (!psd_merged_compression(r, res, &comp)) return false;
    r->pos += 2;
    uint8_t *outs[56] = {0};
    int32_t colour = mode == 3 ? 3 : 1;
    for (int32_t c = 0; c < channels && c < 56; c++) {
        if (c < colour) outs[c] = rgba + c;
        else if (c == colour) outs[c] = rgba + 3;
    }
    bool ok = decode_planes(r, res, r->pos, r->len, comp, width, height, depth, channels, outs, "merged image");
    if (ok && mode != 3) {
        size_t n = (size_t)width * (size_t)height;
        for (size_t i = 0; i < n; i++) rgba[i * 4 + 1] = rgba[i * 4 + 2] = rgba[i * 4];
    }
    return ok;
}
