#include "arena.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct chunk {
    struct chunk *next;
    size_t used, cap;
    _Alignas(16) unsigned char data[];
} chunk;

struct mf_arena {
    chunk *head;
};

mf_arena *mf_arena_create(void) { return calloc(1, sizeof(mf_arena)); }

void mf_arena_destroy(mf_arena *a)
{
    if (!a) return;
    for (chunk *c = a->head, *n; c; c = n) {
        n = c->next;
        free(c);
    }
    free(a);
}

void *mf_arena_alloc(mf_arena *a, size_t size)
{
    if (!a) return NULL;
    size_t need = (size + 15u) & ~(size_t)15u;
    if (need < size) return NULL; /* overflow */
    if (need == 0) need = 16;
    chunk *c = a->head;
    if (!c || c->cap - c->used < need) {
        size_t cap = need > 64u * 1024u ? need : 64u * 1024u;
        if (cap > SIZE_MAX - sizeof(chunk)) return NULL;
        chunk *n = malloc(sizeof(chunk) + cap);
        if (!n) return NULL;
        n->used = 0;
        n->cap = cap;
        if (c && need > 64u * 1024u) {
            /* keep the partly used head for small allocations */
            n->next = c->next;
            c->next = n;
        } else {
            n->next = c;
            a->head = n;
        }
        c = n;
    }
    void *p = c->data + c->used;
    c->used += need;
    memset(p, 0, need);
    return p;
}

char *mf_arena_strndup(mf_arena *a, const char *s, size_t n)
{
    char *d = mf_arena_alloc(a, n + 1);
    if (!d) return NULL;
    memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

char *mf_arena_strdup(mf_arena *a, const char *s)
{
    if (!s) return NULL;
    return mf_arena_strndup(a, s, strlen(s));
}
