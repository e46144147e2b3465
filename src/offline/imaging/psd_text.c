/* PSD layer names to UTF-8: Unicode names (UTF-16BE, "luni") and Pascal names (UTF-8 when
 * valid, as ImageMagick and GIMP write them; Latin-1 otherwise). */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "psd_text.h"

static size_t put_utf8(char *o, uint32_t c)
{
    if (c < 0x80) {
        o[0] = (char)c;
        return 1;
    }
    if (c < 0x800) {
        o[0] = (char)(0xc0 | (c >> 6));
        o[1] = (char)(0x80 | (c & 0x3f));
        return 2;
    }
    if (c < 0x10000) {
        o[0] = (char)(0xe0 | (c >> 12));
        o[1] = (char)(0x80 | ((c >> 6) & 0x3f));
        o[2] = (char)(0x80 | (c & 0x3f));
        return 3;
    }
    o[0] = (char)(0xf0 | (c >> 18));
    o[1] = (char)(0x80 | ((c >> 12) & 0x3f));
    o[2] = (char)(0x80 | ((c >> 6) & 0x3f));
    o[3] = (char)(0x80 | (c & 0x3f));
    return 4;
}

static bool valid_utf8(const uint8_t *s, size_t n)
{
    size_t i = 0;
    while (i < n) {
        uint8_t c = s[i];
        if (c < 0x80) {
            i++;
            continue;
        }
        size_t k = ((c & 0xe0) == 0xc0 && c >= 0xc2) ? 1 : (c & 0xf0) == 0xe0 ? 2 : ((c & 0xf8) == 0xf0 && c <= 0xf4) ? 3 : 0;
        if (k == 0 || i + k > n - 1) return false; /* the sequence must end inside the name */
        for (size_t j = 1; j <= k; j++)
            if ((s[i + j] & 0xc0) != 0x80) return false;
        i += k + 1;
    }
    return true;
}

char *psd_pascal_to_utf8(mf_arena *a, const uint8_t *s, size_t n)
{
    while (n > 0 && s[n - 1] == 0) n--;
    if (valid_utf8(s, n)) return mf_arena_strndup(a, (const char *)s, n);
    char *o = mf_arena_alloc(a, n * 2 + 1);
    if (!o) return NULL;
    size_t k = 0;
    for (size_t i = 0; i < n; i++) k += put_utf8(o + k, s[i] ? s[i] : '?');
    o[k] = '\0';
    return o;
}

char *psd_utf16be_to_utf8(mf_arena *a, const uint8_t *s, size_t units)
{
    char *o = mf_arena_alloc(a, units * 3 + 1);
    if (!o) return NULL;
    size_t k = 0;
    for (size_t i = 0; i < units; i++) {
        uint32_t c = ((uint32_t)s[2 * i] << 8) | s[2 * i + 1];
        if (c == 0) break;
        if (c >= 0xd800 && c < 0xdc00 && i + 1 < units) {
            uint32_t d = ((uint32_t)s[2 * i + 2] << 8) | s[2 * i + 3];
            if (d >= 0xdc00 && d < 0xe000) {
                c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
                i++;
            } else {
                c = 0xfffd;
            }
        } else if (c >= 0xd800 && c < 0xe000) {
            c = 0xfffd;
        }
        k += put_utf8(o + k, c);
    }
    o[k] = '\0';
    return o;
}
