#include "buf.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void mf_buf_free(mf_buf *b)
{
    free(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
}

static bool reserve(mf_buf *b, size_t extra)
{
    if (b->oom) return false;
    if (b->len + extra + 1 <= b->cap) return true;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + extra + 1) cap *= 2;
    char *d = realloc(b->data, cap);
    if (!d) {
        b->oom = true;
        return false;
    }
    b->data = d;
    b->cap = cap;
    return true;
}

void mf_buf_putn(mf_buf *b, const char *s, size_t n)
{
    if (!reserve(b, n)) return;
    memcpy(b->data + b->len, s, n);
    b->len += n;
    b->data[b->len] = '\0';
}

void mf_buf_puts(mf_buf *b, const char *s) { mf_buf_putn(b, s, strlen(s)); }

void mf_buf_putc(mf_buf *b, char c) { mf_buf_putn(b, &c, 1); }

void mf_buf_printf(mf_buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0 || !reserve(b, (size_t)n)) return;
    va_start(ap, fmt);
    vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

void mf_format_number(char *out, size_t size, float v)
{
    if (!isfinite(v)) { /* never written by valid models; keep JSON valid */
        snprintf(out, size, "0");
        return;
    }
    if (v == 0.0f) v = 0.0f; /* -0 → 0 */
    if (v == truncf(v) && fabsf(v) < 1e15f) {
        snprintf(out, size, "%.0f", (double)v);
        return;
    }
    for (int p = 1; p <= 9; p++) {
        snprintf(out, size, "%.*g", p, (double)v);
        if (strtof(out, NULL) == v) return;
    }
}

void mf_buf_number(mf_buf *b, float v)
{
    char tmp[40];
    mf_format_number(tmp, sizeof tmp, v);
    mf_buf_puts(b, tmp);
}

void mf_buf_string(mf_buf *b, const char *s)
{
    mf_buf_putc(b, '"');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        switch (*p) {
        case '"': mf_buf_puts(b, "\\\""); break;
        case '\\': mf_buf_puts(b, "\\\\"); break;
        case '\n': mf_buf_puts(b, "\\n"); break;
        case '\r': mf_buf_puts(b, "\\r"); break;
        case '\t': mf_buf_puts(b, "\\t"); break;
        case '\b': mf_buf_puts(b, "\\b"); break;
        case '\f': mf_buf_puts(b, "\\f"); break;
        default:
            if (*p < 0x20) mf_buf_printf(b, "\\u%04x", *p);
            else mf_buf_putc(b, (char)*p);
        }
    }
    mf_buf_putc(b, '"');
}

void mf_buf_color(mf_buf *b, uint32_t rgba, bool with_alpha)
{
    if (with_alpha) mf_buf_printf(b, "\"#%08x\"", (unsigned)rgba);
    else mf_buf_printf(b, "\"#%06x\"", (unsigned)(rgba >> 8));
}

char *mf_buf_take(mf_buf *b, size_t *len)
{
    if (b->oom) {
        mf_buf_free(b);
        b->oom = false;
        return NULL;
    }
    if (!b->data) {
        if (!reserve(b, 0)) return NULL;
        b->data[0] = '\0';
    }
    char *d = b->data;
    if (len) *len = b->len;
    b->data = NULL;
    b->len = b->cap = 0;
    return d;
}
