#include "mf/mf_base.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *mf_result_name(mf_result r)
{
    switch (r) {
    case MF_OK: return "ok";
    case MF_ERR_INVALID: return "invalid input";
    case MF_ERR_IO: return "i/o error";
    case MF_ERR_NOMEM: return "out of memory";
    case MF_ERR_VERSION: return "unsupported format version";
    case MF_ERR_CORRUPT: return "corrupt data";
    case MF_ERR_UNSUPPORTED: return "unsupported";
    case MF_ERR_ARGUMENT: return "bad argument";
    }
    return "unknown result";
}

static void copy_str(char *dst, size_t n, const char *src)
{
    if (!src) src = "";
    size_t len = strlen(src);
    if (len >= n) len = n - 1;
    memcpy(dst, src, len);
    dst[len] = '\0';
}

void mf_diag_set(mf_diag *d, const char *file, const char *where, const char *fmt, ...)
{
    if (!d) return;
    copy_str(d->file, sizeof d->file, file);
    copy_str(d->where, sizeof d->where, where);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(d->message, sizeof d->message, fmt, ap);
    va_end(ap);
}

void mf_diag_clear(mf_diag *d)
{
    if (!d) return;
    d->file[0] = d->where[0] = d->message[0] = '\0';
}

size_t mf_diag_format(const mf_diag *d, char *buf, size_t size)
{
    int n = snprintf(buf, size, "%s%s%s%s%s", d->file, d->file[0] ? ": " : "", d->where,
                     d->where[0] ? ": " : "", d->message);
    return n < 0 ? 0 : (size_t)n;
}

void *mf_alloc(const mf_allocator *a, size_t size)
{
    if (a && a->alloc) return a->alloc(a->user, size);
    return malloc(size);
}

void mf_free(const mf_allocator *a, void *ptr)
{
    if (!ptr) return;
    if (a && a->free) {
        a->free(a->user, ptr);
        return;
    }
    free(ptr);
}

static bool has_cold(const mf_allocator *a) { return a && a->alloc_cold && a->free_cold; }

void *mf_alloc_cold(const mf_allocator *a, size_t size)
{
    return has_cold(a) ? a->alloc_cold(a->user, size) : mf_alloc(a, size);
}

void mf_free_cold(const mf_allocator *a, void *ptr)
{
    if (!ptr) return;
    if (has_cold(a)) a->free_cold(a->user, ptr);
    else mf_free(a, ptr);
}
