/* Helpers shared by the cmocka tests. Include after <cmocka.h>'s prerequisites. */
#ifndef MF_TESTUTIL_H
#define MF_TESTUTIL_H
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "mf/mf_base.h"

/* Whole file, NUL-terminated, malloc'd; NULL when it cannot be read. */
char *tu_read(const char *path, size_t *len);
/* Appends printf output to *buf (length *len, capacity *cap, grown by doubling). */
void tu_cat(char **buf, size_t *len, size_t *cap, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* Writes a file (not atomically; for test inputs). Returns 0 on success. */
int tu_write(const char *path, const char *text);
/* MF_SOURCE_DIR "/" rel, in a static rotating buffer (8 slots). */
const char *tu_src(const char *rel);
/* A fresh empty folder for this test process (under the build tree), created once. */
const char *tu_tmpdir(void);
/* tu_tmpdir() "/" name, in a static rotating buffer. */
const char *tu_tmp(const char *name);
/* Runs a shell command; returns its exit status (-1 if it did not exit normally). When output
 * is not NULL, *output gets stdout and stderr together (malloc'd). */
int tu_run(const char *cmd, char **output);
/* Runs build/mfe with printf-style arguments (appended after the mfe path). */
int tu_mfe(char **output, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* The shared test data folder ($MF_SHARED, else ../shared beside the source tree), or NULL
 * when absent; tests that need it print "skipped: …" and call skip(). */
const char *tu_shared(void);
/* An allocator (mf_base.h) whose blocks come filled with TU_FILL, as reused memory may: what a
 * create leaves unwritten still reads TU_FILL (tu_all_fill), and what it reads before writing
 * would not read zeros. Both hooks and the cold ones unset (malloc / free underneath). */
#define TU_FILL 0xa5
mf_allocator tu_filling_allocator(void);
/* Whether all n bytes at p are TU_FILL. */
int tu_all_fill(const void *p, size_t n);
/* Asserts that haystack contains needle, printing both when not. */
#define assert_contains(haystack, needle) tu_assert_contains((haystack), (needle), __FILE__, __LINE__)
void tu_assert_contains(const char *haystack, const char *needle, const char *file, int line);
#endif
