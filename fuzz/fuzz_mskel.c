/* Fuzzes the .mskel reader and the canonical writer: any input either fails cleanly or reads
 * into a model whose canonical text reads back and writes to the very same text. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mf/mf_skeleton.h"

/* Reads text and writes it canonically; NULL when it does not read. */
static char *canonical(const char *text, size_t len, size_t *out_len)
{
    mf_diag diag;
    mf_skeleton *sk = NULL;
    if (mf_skeleton_parse(text, len, "fuzz.mskel", &sk, &diag) != MF_OK) {
        if (sk || !diag.message[0]) abort(); /* a failure must say what failed */
        return NULL;
    }
    char *out = NULL;
    if (mf_skeleton_write(sk, &out, out_len, &diag) != MF_OK) abort(); /* a read model writes */
    mf_skeleton_free(sk);
    return out;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t len1 = 0, len2 = 0;
    char *first = canonical((const char *)data, size, &len1);
    if (!first) return 0;
    char *second = canonical(first, len1, &len2);
    if (!second) abort(); /* the canonical text must read back */
    if (len1 != len2 || memcmp(first, second, len1) != 0) abort(); /* and be a fixed point */
    free(first);
    free(second);
    return 0;
}
