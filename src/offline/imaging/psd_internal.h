/* Shared by the PSD reader's files: a bounds-checked big-endian cursor with located errors. */
#ifndef MF_PSD_INTERNAL_H
#define MF_PSD_INTERNAL_H
#include "mf/mf_psd.h"

typedef struct psd_rd {
    const uint8_t *p;
    size_t len, pos;
    const char *file;
    mf_diag *diag;
    const char *section; /* "header", "layer records" … for messages */
    char layer[160];     /* `layer 3 "arm"` while reading a layer, else "" */
    bool failed;
} psd_rd;

/* Records the first error as "offset N (section[, layer]): message"; returns false. */
bool psd_fail(psd_rd *r, mf_result *res, mf_result code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
/* True when n bytes are left; else fails with "truncated: WHAT needs N bytes, M left". */
bool psd_need(psd_rd *r, mf_result *res, size_t n, const char *what);
uint8_t psd_u8(psd_rd *r);
uint16_t psd_u16(psd_rd *r);
uint32_t psd_u32(psd_rd *r);

/* Decodes one channel of a layer (or of the merged image): data points at the compression
 * word, len bytes in all. Writes width*height samples reduced to 8 bits into out at stride
 * 4 (out points at the R, G, B or A byte of the first pixel). Fails with a located error. */
bool psd_decode_channel(psd_rd *r, mf_result *res, size_t start, size_t len, int32_t width,
                        int32_t height, int32_t depth, uint8_t *out, const char *channel);
/* Whether a layer channel's compression word (at start, len bytes of data) is there and one
 * this reader decodes (0 raw, 1 RLE: *comp); else psd_decode_channel's located error for it. */
bool psd_channel_compression(psd_rd *r, mf_result *res, size_t start, size_t len, const char *channel, int *comp);
/* Whether the merged image's compression word is there and one this reader decodes (0 raw, 1
 * RLE: *comp), read without moving; else a located error. */
bool psd_merged_compression(psd_rd *r, mf_result *res, int *comp);
/* Decodes the merged image section (one compression word for all channels). */
bool psd_decode_merged(psd_rd *r, mf_result *res, int32_t width, int32_t height, int32_t depth,
                       int32_t channels, int32_t mode, uint8_t *rgba);
#endif
