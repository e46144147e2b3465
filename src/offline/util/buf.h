/* A growable text buffer and the canonical JSON value spellings the writers share. */
#ifndef MF_UTIL_BUF_H
#define MF_UTIL_BUF_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct mf_buf {
    char *data; /* NUL-terminated while not oom */
    size_t len, cap;
    bool oom;   /* an append failed; the content is incomplete */
} mf_buf;

void mf_buf_free(mf_buf *b);
void mf_buf_putn(mf_buf *b, const char *s, size_t n);
void mf_buf_puts(mf_buf *b, const char *s);
void mf_buf_putc(mf_buf *b, char c);
void mf_buf_printf(mf_buf *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Shortest text that reads back as the same float; integers without a fraction; -0 as 0. */
void mf_buf_number(mf_buf *b, float v);
/* Formats like mf_buf_number into out (at least 32 bytes). */
void mf_format_number(char *out, size_t size, float v);
/* A JSON string literal with escapes. */
void mf_buf_string(mf_buf *b, const char *s);
/* "#rrggbbaa", or "#rrggbb" when with_alpha is false (rgba packed 0xRRGGBBAA). */
void mf_buf_color(mf_buf *b, uint32_t rgba, bool with_alpha);
/* Takes the data out (caller frees); the buffer is left empty. NULL when oom. */
char *mf_buf_take(mf_buf *b, size_t *len);
#endif
