/* Base64 for data: URIs (glTF embeds buffers and images this way). */
#include <string.h>

#include "gltf_internal.h"

static const char k_alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static int b64val(unsigned char c)
{
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+') return 62;
    if (c == '/') return 63;
    return -1;
}

uint8_t *mf_base64_decode(mf_arena *a, const char *text, size_t len, size_t *n, bool *bad)
{
    *bad = false;
    *n = 0;
    /* padding only at the end, at most two '=' */
    size_t pad = 0;
    while (len > 0 && pad < 2 && text[len - 1] == '=') {
        len--;
        pad++;
    }
    if (len % 4 == 1 || (pad && (len + pad) % 4 != 0)) {
        *bad = true;
        return NULL;
    }
    size_t out_len = len / 4 * 3 + (len % 4 ? len % 4 - 1 : 0);
    uint8_t *out = mf_arena_alloc(a, out_len);
    if (!out) return NULL;
    uint32_t acc = 0;
    int bits = 0;
    size_t o = 0;
    for (size_t i = 0; i < len; i++) {
        int v = b64val((unsigned char)text[i]);
        if (v < 0) {
            *bad = true;
            return NULL;
        }
        acc = (acc << 6) | (uint32_t)v;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out[o++] = (uint8_t)(acc >> bits);
            acc &= (1u << bits) - 1;
        }
    }
    *n = o;
    return out;
}

void mf_base64_encode(const uint8_t *data, size_t n, char *out)
{
    size_t o = 0, i = 0;
    for (; i + 3 <= n; i += 3) {
        uint32_t v = (uint32_t)data[i] << 16 | (uint32_t)data[i + 1] << 8 | data[i + 2];
        out[o++] = k_alphabet[v >> 18];
        out[o++] = k_alphabet[(v >> 12) & 63];
        out[o++] = k_alphabet[(v >> 6) & 63];
        out[o++] = k_alphabet[v & 63];
    }
    if (n - i == 1) {
        uint32_t v = (uint32_t)data[i] << 16;
        out[o++] = k_alphabet[v >> 18];
        out[o++] = k_alphabet[(v >> 12) & 63];
        out[o++] = '=';
        out[o++] = '=';
    } else if (n - i == 2) {
        uint32_t v = (uint32_t)data[i] << 16 | (uint32_t)data[i + 1] << 8;
        out[o++] = k_alphabet[v >> 18];
        out[o++] = k_alphabet[(v >> 12) & 63];
        out[o++] = k_alphabet[(v >> 6) & 63];
        out[o++] = '=';
    }
}

const char *mf_gltf__sniff_image(const uint8_t *data, size_t n)
{
    static const uint8_t png[8] = {0x89, 'P', 'N', 'G', 0x0d, 0x0a, 0x1a, 0x0a};
    if (n >= 8 && memcmp(data, png, 8) == 0) return "image/png";
    if (n >= 3 && data[0] == 0xff && data[1] == 0xd8 && data[2] == 0xff) return "image/jpeg";
    return NULL;
}
