/* The PSD reader: header, the sections it skips, the layer and mask section (records, then
 * channel data) and, for files without layers, the merged image. Layer groups arrive as
 * section dividers: an end marker below a group's children and the group's own record above
 * them, so the nesting is rebuilt with a stack while reading bottom to top. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "psd_internal.h"
#include "psd_text.h"
#include "util/files.h"

bool psd_fail(psd_rd *r, mf_result *res, mf_result code, const char *fmt, ...)
{
    if (r->failed) return false;
    r->failed = true;
    *res = code;
    char where[256], msg[512];
    if (r->layer[0]) snprintf(where, sizeof where, "offset %zu (%s, %s)", r->pos, r->section, r->layer);
    else snprintf(where, sizeof where, "offset %zu (%s)", r->pos, r->section);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    mf_diag_set(r->diag, r->file, where, "%s", msg);
    return false;
}

bool psd_need(psd_rd *r, mf_result *res, size_t n, const char *what)
{
    if (r->len - r->pos >= n) return true;
    return psd_fail(r, res, MF_ERR_INVALID, "truncated: %s needs %zu bytes, %zu left", what, n, r->len - r->pos);
}

uint8_t psd_u8(psd_rd *r) { return r->p[r->pos++]; }
uint16_t psd_u16(psd_rd *r)
{
    uint16_t v = (uint16_t)((r->p[r->pos] << 8) | r->p[r->pos + 1]);
    r->pos += 2;
    return v;
}
uint32_t psd_u32(psd_rd *r)
{
    uint32_t v = ((uint32_t)r->p[r->pos] << 24) | ((uint32_t)r->p[r->pos + 1] << 16) |
                 ((uint32_t)r->p[r->pos + 2] << 8) | r->p[r->pos + 3];
    r->pos += 4;
    return v;
}

/* One layer record as read, before the channel data. */
typedef struct rec {
    int32_t top, left, bottom, right;
    int32_t nch;
    int16_t ch_id[56];
    uint32_t ch_len[56];
    char blend[5];
    uint8_t opacity, clipping, flags;
    char *name;
    int32_t section; /* lsct type: 0 none/other, 1 open folder, 2 closed folder, 3 end marker */
    const char *skip;
    bool effects, mask;
} rec;

static void set_layer(psd_rd *r, int32_t index, const char *name)
{
    if (name) snprintf(r->layer, sizeof r->layer, "layer %d \"%.120s\"", (int)index, name);
    else snprintf(r->layer, sizeof r->layer, "layer %d", (int)index);
}

static bool add_warning(mf_psd *psd, const char *layer, const char *msg)
{
    char **nw = mf_arena_alloc(psd->arena, sizeof(char *) * (size_t)(psd->warning_count + 1));
    size_t n = strlen(layer) + strlen(msg) + 3;
    char *w = mf_arena_alloc(psd->arena, n);
    if (!nw || !w) return false;
    if (psd->warning_count) memcpy(nw, psd->warnings, sizeof(char *) * (size_t)psd->warning_count);
    snprintf(w, n, "%s: %s", layer, msg);
    nw[psd->warning_count++] = w;
    psd->warnings = nw;
    return true;
}

static bool is_sig(const uint8_t *p) { return memcmp(p, "8BIM", 4) == 0 || memcmp(p, "8B64", 4) == 0; }

static const char *skip_reason(const uint8_t *key)
{
    static const char *const adjust[] = {"levl", "curv", "brit", "blnc", "hue ", "hue2", "selc", "mixr", "grdm",
                                         "phfl", "expA", "vibA", "clrL", "nvrt", "post", "thrs", "blwh", "SoCo",
                                         "GdFl", "PtFl", NULL};
    for (int i = 0; adjust[i]; i++)
        if (memcmp(key, adjust[i], 4) == 0) return "adjustment layer";
    if (memcmp(key, "SoLd", 4) == 0 || memcmp(key, "PlLd", 4) == 0 || memcmp(key, "SoLE", 4) == 0 ||
        memcmp(key, "plLd", 4) == 0)
        return "smart object";
    return NULL;
}

/* The tagged blocks at the end of a layer record, up to end. */
static bool read_blocks(psd_rd *r, mf_result *res, mf_psd *psd, rec *L, size_t end)
{
    while (end - r->pos >= 12) {
        if (!is_sig(r->p + r->pos)) {
            /* some writers pad a block to 4 bytes without counting it: step over up to 3 bytes */
            size_t k = 1;
            while (k < 4 && end - r->pos - k >= 12 && !is_sig(r->p + r->pos + k)) k++;
            if (k == 4 || end - r->pos - k < 12) break;
            r->pos += k;
        }
        const uint8_t *key = r->p + r->pos + 4;
        r->pos += 8;
        uint32_t len = psd_u32(r);
        if (len > end - r->pos) {
            r->pos -= 4;
            return psd_fail(r, res, MF_ERR_INVALID, "block \"%.4s\" of %u bytes runs past the layer record (%zu left)",
                            (const char *)key, len, end - r->pos - 4);
        }
        size_t at = r->pos;
        if (memcmp(key, "luni", 4) == 0 && len >= 4) {
            uint32_t units = psd_u32(r);
            if (units > (len - 4) / 2)
                return psd_fail(r, res, MF_ERR_INVALID, "Unicode name of %u characters does not fit its %u-byte block",
                                units, len);
            char *n = psd_utf16be_to_utf8(psd->arena, r->p + r->pos, units);
            if (!n) return psd_fail(r, res, MF_ERR_NOMEM, "out of memory");
            L->name = n;
        } else if ((memcmp(key, "lsct", 4) == 0 || memcmp(key, "lsdk", 4) == 0) && len >= 4) {
            uint32_t t = psd_u32(r);
            if (t > 3) {
                r->pos -= 4;
                return psd_fail(r, res, MF_ERR_INVALID, "section divider type %u (expected 0 to 3)", t);
            }
            L->section = (int32_t)t;
        } else if (memcmp(key, "lrFX", 4) == 0 || memcmp(key, "lfx2", 4) == 0 || memcmp(key, "lmfx", 4) == 0) {
            L->effects = true;
        } else if (!L->skip) {
            L->skip = skip_reason(key);
        }
        r->pos = at + len;
    }
    return true;
}

static bool read_record(psd_rd *r, mf_result *res, mf_psd *psd, rec *L, int32_t index)
{
    set_layer(r, index, NULL);
    if (!psd_need(r, res, 18, "a layer record")) return false;
    L->top = (int32_t)psd_u32(r), L->left = (int32_t)psd_u32(r);
    L->bottom = (int32_t)psd_u32(r), L->right = (int32_t)psd_u32(r);
    L->nch = psd_u16(r);
    if (L->nch > 56) {
        r->pos -= 2;
        return psd_fail(r, res, MF_ERR_INVALID, "%d channels (at most 56)", (int)L->nch);
    }
    if (!psd_need(r, res, (size_t)L->nch * 6 + 16, "the channel list and blend mode")) return false;
    for (int32_t c = 0; c < L->nch; c++) {
        L->ch_id[c] = (int16_t)psd_u16(r);
        L->ch_len[c] = psd_u32(r);
    }
    if (memcmp(r->p + r->pos, "8BIM", 4) != 0)
        return psd_fail(r, res, MF_ERR_INVALID, "blend mode signature is not \"8BIM\"");
    r->pos += 4;
    memcpy(L->blend, r->p + r->pos, 4);
    for (int i = 0; i < 4; i++)
        if ((unsigned char)L->blend[i] < 0x20 || (unsigned char)L->blend[i] > 0x7e) L->blend[i] = '?';
    r->pos += 4;
    L->opacity = psd_u8(r), L->clipping = psd_u8(r), L->flags = psd_u8(r);
    r->pos++; /* filler */
    uint32_t extra = psd_u32(r);
    if (extra > r->len - r->pos) {
        r->pos -= 4;
        return psd_fail(r, res, MF_ERR_INVALID, "extra data of %u bytes runs past the end of the file (%zu left)", extra,
                        r->len - r->pos - 4);
    }
    size_t end = r->pos + extra;
    /* layer mask, then blending ranges: both skipped */
    for (int part = 0; part < 2; part++) {
        if (end - r->pos < 4)
            return psd_fail(r, res, MF_ERR_INVALID, "truncated: the %s length needs 4 bytes, %zu left",
                            part ? "blending ranges" : "layer mask", end - r->pos);
        uint32_t n = psd_u32(r);
        if (n > end - r->pos) {
            r->pos -= 4;
            return psd_fail(r, res, MF_ERR_INVALID, "%s data of %u bytes runs past the layer record (%zu left)",
                            part ? "blending ranges" : "layer mask", n, end - r->pos - 4);
        }
        if (part == 0 && n > 0) L->mask = true;
        r->pos += n;
    }
    if (end - r->pos < 1)
        return psd_fail(r, res, MF_ERR_INVALID, "truncated: the layer name is missing");
    size_t nlen = r->p[r->pos];
    size_t padded = (nlen + 1 + 3) & ~(size_t)3;
    if (nlen + 1 > end - r->pos)
        return psd_fail(r, res, MF_ERR_INVALID, "layer name of %zu bytes runs past the layer record", nlen);
    L->name = psd_pascal_to_utf8(psd->arena, r->p + r->pos + 1, nlen);
    if (!L->name) return psd_fail(r, res, MF_ERR_NOMEM, "out of memory");
    r->pos += padded <= end - r->pos ? padded : end - r->pos;
    if (!read_blocks(r, res, psd, L, end)) return false;
    r->pos = end;
    return true;
}

/* The RGBA byte channel c of L fills (0..2 colour, 3 alpha), or -1 for one the reader skips,
 * and its name for errors ("channel 0 (alpha)") in what. */
static int channel_slot(const mf_psd *psd, const rec *L, int32_t c, char what[48])
{
    int id = L->ch_id[c], slot = -1;
    if (psd->mode == 3 && id >= 0 && id <= 2) slot = id;
    else if (psd->mode == 1 && id == 0) slot = 0;
    else if (id == -1) slot = 3;
    snprintf(what, 48, "channel %d (%s)", (int)c,
             slot == 3 ? "alpha" : psd->mode == 1 ? "grey" : slot == 0 ? "red" : slot == 1 ? "green" : "blue");
    return slot;
}

/* Validates bounds, decodes a pixel layer's channels starting at *at. */
static bool read_pixels(psd_rd *r, mf_result *res, mf_psd *psd, const rec *L, mf_psd_layer *out, size_t *at,
                        size_t end, int64_t *budget)
{
    int64_t w = (int64_t)L->right - L->left, h = (int64_t)L->bottom - L->top;
    bool pixels = L->section == 0 && !L->skip;
    if (pixels && (w < 0 || h < 0 || w > MF_PSD_MAX_SIDE || h > MF_PSD_MAX_SIDE)) {
        r->pos = *at;
        return psd_fail(r, res, MF_ERR_INVALID, "bounds (top %d, left %d, bottom %d, right %d) give a %lld x %lld layer (at most %d a side)",
                        (int)L->top, (int)L->left, (int)L->bottom, (int)L->right, (long long)w, (long long)h,
                        MF_PSD_MAX_SIDE);
    }
    if (pixels && w * h > *budget) {
        r->pos = *at;
        return psd_fail(r, res, MF_ERR_INVALID, "%lld x %lld pixels exceed what one file may decode", (long long)w,
                        (long long)h);
    }
    /* every channel must be able to hold its pixels before anything is allocated: RLE packs at
     * most 128 bytes into 2, so a short channel cannot claim a huge layer; and a channel the
     * reader would decode must be in a compression it decodes (a ZIP channel holds any size) */
    size_t scan = *at;
    for (int32_t c = 0; c < L->nch && pixels && w > 0 && h > 0; c++) {
        if (L->ch_len[c] > end - scan) break; /* reported below, in order */
        int id = L->ch_id[c];
        char what[48];
        int comp;
        if (channel_slot(psd, L, c, what) >= 0 && !psd_channel_compression(r, res, scan, L->ch_len[c], what, &comp))
            return false;
        if (id < -1 || id > 2 || L->ch_len[c] < 2) {
            scan += L->ch_len[c];
            continue;
        }
        comp = (r->p[scan] << 8) | r->p[scan + 1];
        uint64_t row = (uint64_t)w * (uint64_t)(psd->depth / 8);
        uint64_t need = comp == 0 ? 2 + row * (uint64_t)h : comp == 1 ? 2 + (uint64_t)h * (2 + 2 * ((row + 127) / 128)) : 0;
        if (need > L->ch_len[c]) {
            r->pos = scan;
            return psd_fail(r, res, MF_ERR_INVALID, "channel %d (id %d): %u bytes cannot hold %lld x %lld %s pixels (at least %llu needed)",
                            (int)c, id, L->ch_len[c], (long long)w, (long long)h, comp == 0 ? "raw" : "RLE",
                            (unsigned long long)need);
        }
        scan += L->ch_len[c];
    }
    if (pixels && w > 0 && h > 0) {
        *budget -= w * h;
        out->rgba = malloc((size_t)(w * h * 4));
        if (!out->rgba) return psd_fail(r, res, MF_ERR_NOMEM, "out of memory for a %lld x %lld layer", (long long)w, (long long)h);
        for (int64_t i = 0; i < w * h; i++) {
            out->rgba[i * 4] = out->rgba[i * 4 + 1] = out->rgba[i * 4 + 2] = 0;
            out->rgba[i * 4 + 3] = 255;
        }
        out->width = (int32_t)w, out->height = (int32_t)h;
    }
    for (int32_t c = 0; c < L->nch; c++) {
        if (L->ch_len[c] > end - *at) {
            r->pos = *at;
            return psd_fail(r, res, MF_ERR_INVALID, "channel %d (id %d) of %u bytes runs past the end of the layer data (%zu left)",
                            (int)c, (int)L->ch_id[c], L->ch_len[c], end - *at);
        }
        char what[48];
        int slot = channel_slot(psd, L, c, what);
        if (out->rgba && slot >= 0) {
            if (!psd_decode_channel(r, res, *at, L->ch_len[c], out->width, out->height, psd->depth, out->rgba + slot,
                                    what))
                return false;
        }
        *at += L->ch_len[c];
    }
    if (out->rgba && psd->mode == 1) {
        size_t n = (size_t)out->width * (size_t)out->height;
        for (size_t i = 0; i < n; i++) out->rgba[i * 4 + 1] = out->rgba[i * 4 + 2] = out->rgba[i * 4];
    }
    return true;
}

/* Layer info: count, records, channel data; rebuilds the group nesting. */
static bool read_layer_info(psd_rd *r, mf_result *res, mf_psd *psd, size_t end)
{
    r->section = "layer records";
    if (end - r->pos < 2) return psd_fail(r, res, MF_ERR_INVALID, "truncated: the layer count needs 2 bytes");
    int32_t count = (int16_t)psd_u16(r);
    if (count < 0) count = -count; /* negative: the first alpha channel is the merged transparency */
    if (count > MF_PSD_MAX_LAYERS) {
        r->pos -= 2;
        return psd_fail(r, res, MF_ERR_INVALID, "%d layers (at most %d)", (int)count, MF_PSD_MAX_LAYERS);
    }
    if (count == 0) return true;
    rec *recs = calloc((size_t)count, sizeof *recs);
    psd->layers = mf_arena_alloc(psd->arena, sizeof(mf_psd_layer) * (size_t)count);
    int32_t *stack = calloc((size_t)count * 2, sizeof *stack), *stack_rec = stack ? stack + count : NULL;
    if (!recs || !psd->layers || !stack) {
        free(recs), free(stack);
        return psd_fail(r, res, MF_ERR_NOMEM, "out of memory");
    }
    bool ok = true;
    size_t saved_end = r->len;
    r->len = end; /* records must stay inside the layer info */
    for (int32_t i = 0; i < count && ok; i++) ok = read_record(r, res, psd, &recs[i], i);
    /* channel data, record by record */
    r->section = "channel image data";
    size_t at = r->pos;
    int64_t budget = (int64_t)1 << 27;
    int32_t depth = 0, n = 0;
    for (int32_t i = 0; i < count && ok; i++) {
        rec *L = &recs[i];
        set_layer(r, i, L->name);
        if (L->section == 3) { /* end marker: a group opens (reading upwards) */
            ok = read_pixels(r, res, psd, L, &(mf_psd_layer){0}, &at, end, &budget);
            stack_rec[depth] = i;
            stack[depth++] = n;
            continue;
        }
        mf_psd_layer *o = &psd->layers[n];
        memset(o, 0, sizeof *o);
        o->name = L->name;
        o->record = i;
        o->parent = -2; /* resolved when the enclosing group closes */
        o->left = L->left, o->top = L->top;
        o->visible = (L->flags & 0x02) == 0;
        o->clipping = L->clipping != 0;
        o->has_effects = L->effects;
        o->has_mask = L->mask;
        o->opacity = L->opacity;
        memcpy(o->blend, L->blend, 5);
        if (L->section == 1 || L->section == 2) {
            if (depth == 0) {
                r->pos = at;
                ok = psd_fail(r, res, MF_ERR_INVALID, "a group record with no group end marker below it");
                break;
            }
            o->kind = MF_PSD_GROUP;
            int32_t first = stack[--depth];
            for (int32_t j = first; j < n; j++)
                if (psd->layers[j].parent == -2) psd->layers[j].parent = n;
            ok = read_pixels(r, res, psd, L, &(mf_psd_layer){0}, &at, end, &budget);
        } else if (L->skip) {
            o->kind = MF_PSD_SKIPPED;
            o->skip_reason = L->skip;
            char msg[96];
            snprintf(msg, sizeof msg, "%s skipped", L->skip);
            ok = add_warning(psd, r->layer, msg) && read_pixels(r, res, psd, L, &(mf_psd_layer){0}, &at, end, &budget);
        } else {
            o->kind = MF_PSD_PIXEL;
            ok = read_pixels(r, res, psd, L, o, &at, end, &budget);
            if (ok && L->effects) ok = add_warning(psd, r->layer, "layer effects are not applied");
            if (ok && L->mask) ok = add_warning(psd, r->layer, "the layer mask is not applied");
            if (ok && L->clipping) ok = add_warning(psd, r->layer, "the clipping mask is not applied");
        }
        if (ok && !o->rgba) o->width = o->height = 0;
        n++;
        psd->layer_count = n;
    }
    if (ok && depth > 0) {
        set_layer(r, stack_rec[0], recs[stack_rec[0]].name);
        r->pos = at;
        ok = psd_fail(r, res, MF_ERR_INVALID, "a group end marker with no group record above it");
    }
    for (int32_t j = 0; j < n; j++)
        if (psd->layers[j].parent == -2) psd->layers[j].parent = -1;
    r->len = saved_end;
    r->layer[0] = '\0';
    free(recs), free(stack);
    return ok;
}

static bool skip_block(psd_rd *r, mf_result *res, const char *section)
{
    r->section = section;
    if (!psd_need(r, res, 4, "the section length")) return false;
    uint32_t n = psd_u32(r);
    if (n > r->len - r->pos) {
        r->pos -= 4;
        return psd_fail(r, res, MF_ERR_INVALID, "section of %u bytes runs past the end of the file (%zu left)", n,
                        r->len - r->pos - 4);
    }
    r->pos += n;
    return true;
}

static bool read_header(psd_rd *r, mf_result *res, mf_psd *psd, int32_t *channels)
{
    r->section = "header";
    if (!psd_need(r, res, 26, "the header")) return false;
    if (memcmp(r->p, "8BPS", 4) != 0) return psd_fail(r, res, MF_ERR_INVALID, "not a PSD file (no \"8BPS\" signature)");
    r->pos = 4;
    uint16_t version = psd_u16(r);
    if (version == 2) {
        r->pos -= 2;
        return psd_fail(r, res, MF_ERR_UNSUPPORTED, "large document format (PSB) is not supported; save as PSD");
    }
    if (version != 1) {
        r->pos -= 2;
        return psd_fail(r, res, MF_ERR_INVALID, "version %u (expected 1)", version);
    }
    r->pos += 6;
    *channels = psd_u16(r);
    psd->height = (int32_t)psd_u32(r);
    psd->width = (int32_t)psd_u32(r);
    psd->depth = psd_u16(r);
    psd->mode = psd_u16(r);
    if (*channels < 1 || *channels > 56) {
        r->pos = 12;
        return psd_fail(r, res, MF_ERR_INVALID, "%d channels (expected 1 to 56)", (int)*channels);
    }
    if (psd->width < 1 || psd->height < 1 || psd->width > MF_PSD_MAX_SIDE || psd->height > MF_PSD_MAX_SIDE) {
        r->pos = 14;
        return psd_fail(r, res, MF_ERR_INVALID, "canvas %u x %u (expected 1 to %d a side)", (unsigned)psd->width,
                        (unsigned)psd->height, MF_PSD_MAX_SIDE);
    }
    if (psd->depth != 8 && psd->depth != 16) {
        r->pos = 22;
        return psd_fail(r, res, psd->depth == 1 || psd->depth == 32 ? MF_ERR_UNSUPPORTED : MF_ERR_INVALID,
                        "%d bits per channel is not supported (8 or 16)", (int)psd->depth);
    }
    if (psd->mode != 3 && psd->mode != 1) {
        static const char *const modes[] = {"bitmap", "greyscale", "indexed", "RGB", "CMYK", "?", "?", "multichannel",
                                            "duotone", "Lab"};
        r->pos = 24;
        return psd_fail(r, res, psd->mode <= 9 ? MF_ERR_UNSUPPORTED : MF_ERR_INVALID,
                        "colour mode %d (%s) is not supported; convert the document to RGB", (int)psd->mode,
                        psd->mode <= 9 ? modes[psd->mode] : "unknown");
    }
    return true;
}

/* The layer and mask section; 16-bit layers may sit in an "Lr16" block at its end. */
static bool read_layers(psd_rd *r, mf_result *res, mf_psd *psd)
{
    r->section = "layer and mask info";
    if (!psd_need(r, res, 4, "the section length")) return false;
    uint32_t total = psd_u32(r);
    if (total > r->len - r->pos) {
        r->pos -= 4;
        return psd_fail(r, res, MF_ERR_INVALID, "section of %u bytes runs past the end of the file (%zu left)", total,
                        r->len - r->pos - 4);
    }
    size_t end = r->pos + total;
    if (total == 0) return true;
    if (end - r->pos < 4) return psd_fail(r, res, MF_ERR_INVALID, "truncated: the layer info length needs 4 bytes");
    uint32_t info = psd_u32(r);
    if (info > end - r->pos) {
        r->pos -= 4;
        return psd_fail(r, res, MF_ERR_INVALID, "layer info of %u bytes runs past its section (%zu left)", info,
                        end - r->pos - 4);
    }
    size_t info_end = r->pos + info;
    if (info > 0 && !read_layer_info(r, res, psd, info_end)) return false;
    r->pos = info_end;
    r->section = "layer and mask info";
    /* global layer mask, then document-level tagged blocks */
    if (end - r->pos >= 4) {
        uint32_t n = psd_u32(r);
        if (n > end - r->pos) {
            r->pos -= 4;
            return psd_fail(r, res, MF_ERR_INVALID, "global layer mask of %u bytes runs past its section", n);
        }
        r->pos += n;
    }
    while (psd->layer_count == 0 && end - r->pos >= 12 && is_sig(r->p + r->pos)) {
        const uint8_t *key = r->p + r->pos + 4;
        r->pos += 8;
        uint32_t n = psd_u32(r);
        if (n > end - r->pos) {
            r->pos -= 4;
            return psd_fail(r, res, MF_ERR_INVALID, "block \"%.4s\" of %u bytes runs past its section", (const char *)key, n);
        }
        size_t at = r->pos;
        if (memcmp(key, "Lr16", 4) == 0 && psd->depth == 16) {
            if (!read_layer_info(r, res, psd, at + n)) return false;
        } else if (memcmp(key, "Lr32", 4) == 0) {
            return psd_fail(r, res, MF_ERR_UNSUPPORTED, "32-bit layers are not supported");
        }
        r->pos = at + n;
        for (int k = 1; k < 4 && end - r->pos >= 12 + (size_t)k && !is_sig(r->p + r->pos); k++)
            if (is_sig(r->p + r->pos + k)) r->pos += (size_t)k; /* unpadded length of a padded block */
        r->section = "layer and mask info";
    }
    r->pos = end;
    return true;
}

/* A document without layers: the merged image becomes one layer "Background". */
static bool read_merged(psd_rd *r, mf_result *res, mf_psd *psd, int32_t channels)
{
    r->section = "merged image data";
    if ((int64_t)psd->width * psd->height > ((int64_t)1 << 27))
        return psd_fail(r, res, MF_ERR_INVALID, "a %d x %d canvas exceeds what one file may decode", (int)psd->width,
                        (int)psd->height);
    /* the compression word and the data's size are checked before the canvas is allocated and
     * cleared: a header alone must not cost a canvas of up to 2^27 pixels */
    int comp;
    if (!psd_merged_compression(r, res, &comp)) return false;
    uint64_t row = (uint64_t)psd->width * (uint64_t)(psd->depth / 8), rows = (uint64_t)psd->height * (uint64_t)channels;
    uint64_t need = comp == 0 ? 2 + row * rows : 2 + rows * (2 + 2 * ((row + 127) / 128));
    if (need > r->len - r->pos)
        return psd_fail(r, res, MF_ERR_INVALID, "%zu bytes cannot hold a %d x %d image of %d channels (at least %llu needed)",
                        r->len - r->pos, (int)psd->width, (int)psd->height, (int)channels, (unsigned long long)need);
    psd->layers = mf_arena_alloc(psd->arena, sizeof(mf_psd_layer));
    if (!psd->layers) return psd_fail(r, res, MF_ERR_NOMEM, "out of memory");
    mf_psd_layer *o = &psd->layers[0];
    size_t n = (size_t)psd->width * (size_t)psd->height;
    o->rgba = malloc(n * 4);
    if (!o->rgba) return psd_fail(r, res, MF_ERR_NOMEM, "out of memory");
    psd->layer_count = 1;
    o->name = mf_arena_strdup(psd->arena, "Background");
    o->kind = MF_PSD_PIXEL;
    o->parent = -1;
    o->width = psd->width, o->height = psd->height;
    o->visible = true;
    o->opacity = 255;
    memcpy(o->blend, "norm", 5);
    for (size_t i = 0; i < n; i++) o->rgba[i * 4] = o->rgba[i * 4 + 1] = o->rgba[i * 4 + 2] = 0, o->rgba[i * 4 + 3] = 255;
    return o->name && psd_decode_merged(r, res, psd->width, psd->height, psd->depth, channels, psd->mode, o->rgba);
}

mf_result mf_psd_parse(const void *data, size_t len, const char *file, mf_psd **out, mf_diag *diag)
{
    *out = NULL;
    mf_diag_clear(diag);
    mf_psd *psd = calloc(1, sizeof *psd);
    if (psd) psd->arena = mf_arena_create();
    if (!psd || !psd->arena) {
        free(psd);
        mf_diag_set(diag, file, "", "out of memory");
        return MF_ERR_NOMEM;
    }
    psd_rd r = {.p = data, .len = data ? len : 0, .file = file ? file : "", .diag = diag, .section = "header"};
    mf_result res = MF_OK;
    int32_t channels = 0;
    bool ok = read_header(&r, &res, psd, &channels) && skip_block(&r, &res, "colour mode data") &&
              skip_block(&r, &res, "image resources") && read_layers(&r, &res, psd);
    if (ok && psd->layer_count == 0) ok = read_merged(&r, &res, psd, channels);
    if (!ok) {
        mf_psd_free(psd);
        return res == MF_OK ? MF_ERR_INVALID : res;
    }
    *out = psd;
    return MF_OK;
}

mf_result mf_psd_load(const char *path, mf_psd **out, mf_diag *diag)
{
    char *data = NULL;
    size_t len = 0;
    *out = NULL;
    mf_result r = mf_read_file(path, &data, &len, diag);
    if (r != MF_OK) return r;
    r = mf_psd_parse(data, len, path, out, diag);
    free(data);
    return r;
}

void mf_psd_free(mf_psd *psd)
{
    if (!psd) return;
    for (int32_t i = 0; i < psd->layer_count; i++) free(psd->layers[i].rgba);
    mf_arena_destroy(psd->arena);
    free(psd);
}

int mf_psd_blend_to_slot(const char *key)
{
    if (!key) return -1;
    if (strcmp(key, "norm") == 0 || strcmp(key, "pass") == 0) return 0;  /* MF_BLEND_NORMAL */
    if (strcmp(key, "lddg") == 0) return 1;                              /* MF_BLEND_ADDITIVE */
    if (strcmp(key, "mul ") == 0) return 2;                              /* MF_BLEND_MULTIPLY */
    if (strcmp(key, "scrn") == 0) return 3;                              /* MF_BLEND_SCREEN */
    return -1;
}
