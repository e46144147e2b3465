/* Build pools: growable zeroed arrays, the string interner and the build diagnostics. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "build_internal.h"

void *mf_bvec_push(mf_bvec *v, int32_t n)
{
    if (n <= 0 || v->len > INT32_MAX - n) return NULL; /* n == 0: nothing to hand out */
    if (v->len + n > v->cap) {
        int64_t cap = v->cap ? v->cap : 16;
        while (cap < (int64_t)v->len + n) cap *= 2;
        if (cap > INT32_MAX) cap = INT32_MAX;
        unsigned char *d = realloc(v->data, (size_t)cap * v->elem);
        if (!d) return NULL;
        v->data = d;
        v->cap = (int32_t)cap;
    }
    void *p = v->data + (size_t)v->len * v->elem;
    memset(p, 0, (size_t)n * v->elem);
    v->len += n;
    return p;
}

void mf_bvec_free(mf_bvec *v)
{
    free(v->data);
    v->data = NULL;
    v->len = v->cap = 0;
}

static uint32_t hash_str(const char *s)
{
    uint32_t h = 2166136261u; /* FNV-1a */
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

static bool grow(mf_interner *in)
{
    int32_t cap = in->cap ? in->cap * 2 : 256;
    int32_t *slots = calloc((size_t)cap, sizeof *slots);
    if (!slots) return false;
    for (int32_t i = 0; i < in->cap; i++) {
        int32_t off = in->slots[i] - 1;
        if (off < 0) continue;
        uint32_t h = hash_str((const char *)in->bytes->data + off) & (uint32_t)(cap - 1);
        while (slots[h]) h = (h + 1) & (uint32_t)(cap - 1);
        slots[h] = off + 1;
    }
    free(in->slots);
    in->slots = slots;
    in->cap = cap;
    return true;
}

int32_t mf_intern(mf_bctx *c, const char *s, bool *ok)
{
    if (!s) return -1;
    mf_interner *in = &c->strings;
    if ((in->used + 1) * 2 > in->cap && !grow(in)) {
        *ok = mf_boom(c);
        return -1;
    }
    uint32_t mask = (uint32_t)(in->cap - 1), h = hash_str(s) & mask;
    for (; in->slots[h]; h = (h + 1) & mask) {
        int32_t off = in->slots[h] - 1;
        if (strcmp((const char *)in->bytes->data + off, s) == 0) return off;
    }
    size_t n = strlen(s) + 1;
    int32_t off = in->bytes->len;
    if (n > (size_t)INT32_MAX) {
        *ok = mf_bfail(c, c->skel_file, "", "a string of %zu bytes is too long for a build", n);
        return -1;
    }
    char *dst = mf_bvec_push(in->bytes, (int32_t)n);
    if (!dst) {
        *ok = mf_boom(c);
        return -1;
    }
    memcpy(dst, s, n);
    in->slots[h] = off + 1;
    in->used++;
    return off;
}

bool mf_bfail(mf_bctx *c, const char *file, const char *where, const char *fmt, ...)
{
    if (!c->diag) return false;
    char msg[sizeof c->diag->message];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    mf_diag_set(c->diag, file ? file : "", where ? where : "", "%s", msg);
    return false;
}

bool mf_bfail_at(mf_bctx *c, const char *file, const char *rec, int32_t i, const char *field,
                 const char *fmt, ...)
{
    if (!c->diag) return false;
    char where[sizeof c->diag->where], msg[sizeof c->diag->message];
    snprintf(where, sizeof where, "%s[%d]%s%s", rec, (int)i, field && *field ? "." : "",
             field ? field : "");
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    mf_diag_set(c->diag, file ? file : "", where, "%s", msg);
    return false;
}

bool mf_boom(mf_bctx *c)
{
    c->oom = true;
    return mf_bfail(c, c->skel_file, "", "out of memory while building");
}
