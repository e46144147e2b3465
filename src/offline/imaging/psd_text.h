/* PSD layer names to UTF-8 (strings in the given arena). */
#ifndef MF_PSD_TEXT_H
#define MF_PSD_TEXT_H
#include <stddef.h>
#include <stdint.h>

#include "util/arena.h"

/* A Pascal name's bytes: UTF-8 when valid, Latin-1 otherwise; trailing NULs dropped. */
char *psd_pascal_to_utf8(mf_arena *a, const uint8_t *s, size_t n);
/* units UTF-16BE code units; stops at a NUL; bad surrogates become U+FFFD. */
char *psd_utf16be_to_utf8(mf_arena *a, const uint8_t *s, size_t units);
#endif
