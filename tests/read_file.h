/* A whole file into one malloc'd block, for the test programs built outside CTest (static, for
 * other targets: tests/portable, tests/neon) that link the runtime alone. NULL when it cannot be
 * read or is empty; *size its bytes. */
#ifndef MF_TEST_READ_FILE_H
#define MF_TEST_READ_FILE_H
#include <stdio.h>
#include <stdlib.h>

static void *read_all(const char *path, size_t *size)
{
    *size = 0;
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    void *b = n > 0 ? malloc((size_t)n) : NULL; /* malloc's alignment suits the loader */
    if (b && fread(b, 1, (size_t)n, f) != (size_t)n) free(b), b = NULL;
    fclose(f);
    if (b) *size = (size_t)n;
    return b;
}
#endif
