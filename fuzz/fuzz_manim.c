/* libFuzzer: the .manim reader never crashes, and whatever it accepts the writer turns into a
 * canonical text that reads back and writes again to the same bytes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mf/mf_clip.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    mf_diag diag;
    mf_clip *clip = NULL;
    if (mf_clip_parse((const char *)data, size, "fuzz.manim", "fuzz", &clip, &diag) != MF_OK) return 0;
    char *first = NULL, *second = NULL;
    size_t n1 = 0, n2 = 0;
    if (mf_clip_write(clip, &first, &n1, &diag) != MF_OK) {
        fprintf(stderr, "write failed: %s: %s\n", diag.where, diag.message);
        abort();
    }
    mf_clip *again = NULL;
    if (mf_clip_parse(first, n1, "fuzz.manim", "fuzz", &again, &diag) != MF_OK) {
        fprintf(stderr, "re-parse failed: %s: %s\n%s", diag.where, diag.message, first);
        abort();
    }
    if (mf_clip_write(again, &second, &n2, &diag) != MF_OK) abort();
    if (n1 != n2 || memcmp(first, second, n1) != 0) {
        fprintf(stderr, "not a fixed point:\n%s\n----\n%s", first, second);
        abort();
    }
    free(first);
    free(second);
    mf_clip_free(again);
    mf_clip_free(clip);
    return 0;
}
