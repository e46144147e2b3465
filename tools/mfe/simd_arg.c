/* The SIMD level names of `--simd` (mfe skel bench, mfe skel digest): mf_simd's values. */
#include <string.h>

#include "cli.h"

static const char *const SIMD_NAMES[] = {"auto", "base", "avx", "avx2", "avx512"};

int mfe_simd_parse(const char *name)
{
    for (int i = 0; name && i <= MF_SIMD_AVX512; i++)
        if (!strcmp(name, SIMD_NAMES[i])) return i;
    return -1;
}

const char *mfe_simd_name(mf_simd level)
{
    return (unsigned)level <= (unsigned)MF_SIMD_AVX512 ? SIMD_NAMES[level] : NULL;
}
