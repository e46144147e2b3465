/* The bump arena (mf_instance_arena.h): chunks from the backing allocator, blocks carved in order. */
#include "mf/mf_instance_arena.h"

#include <stdint.h>

#include "alloc_lines.h"

#define ARENA_CHUNK_DEFAULT ((size_t)4 << 20)

typedef struct arena_chunk {
    struct arena_chunk *next;
    size_t size, used; /* bytes after the header */
} arena_chunk;

struct mf_instance_arena {
    mf_allocator backing;
    size_t chunk_bytes, used, reserved;
    arena_chunk *head; /* the chunk being carved, the older ones after it */
};

/* The first aligned byte after a chunk's header (the header's own allocation is not aligned). */
static unsigned char *chunk_base(arena_chunk *c)
{
    uintptr_t at = (uintptr_t)(c + 1);
    return (unsigned char *)((at + MF_LINE - 1) & ~(uintptr_t)(MF_LINE - 1));
}

static arena_chunk *new_chunk(mf_instance_arena *a, size_t size)
{
    if (size > SIZE_MAX - sizeof(arena_chunk) - MF_LINE) return NULL;
    arena_chunk *c = mf_alloc(&a->backing, sizeof(arena_chunk) + MF_LINE + size);
    if (!c) return NULL;
    c->size = size, c->used = 0;
    a->reserved += size;
    return c;
}

static void *arena_alloc(void *user, size_t size)
{
    mf_instance_arena *a = user;
    if (size > SIZE_MAX - MF_LINE) return NULL;
    size_t need = mf_lines_round(size);
    arena_chunk *c = a->head;
    if (!c || c->size - c->used < need) {
        if (need > a->chunk_bytes) { /* its own chunk, behind the current one: carving goes on */
            arena_chunk *big = new_chunk(a, need);
            if (!big) return NULL;
            big->used = need;
            if (c) big->next = c->next, c->next = big;
            else big->next = NULL, a->head = big;
            a->used += need;
            return chunk_base(big);
        }
        arena_chunk *fresh = new_chunk(a, a->chunk_bytes);
        if (!fresh) return NULL;
        fresh->next = c;
        a->head = c = fresh;
    }
    void *p = chunk_base(c) + c->used;
    c->used += need;
    a->used += need;
    return p;
}

static void arena_free(void *user, void *ptr) { (void)user, (void)ptr; }

static void *cold_alloc(void *user, size_t size) { return mf_alloc(&((mf_instance_arena *)user)->backing, size); }
static void cold_free(void *user, void *ptr) { mf_free(&((mf_instance_arena *)user)->backing, ptr); }

mf_result mf_instance_arena_create(const mf_instance_arena_desc *desc, mf_instance_arena **out)
{
    if (!out) return MF_ERR_ARGUMENT;
    *out = NULL;
    if (desc && desc->chunk_bytes > SIZE_MAX / 2) return MF_ERR_ARGUMENT;
    mf_allocator backing = desc ? desc->backing : (mf_allocator){0};
    backing.alloc_cold = NULL, backing.free_cold = NULL;
    mf_instance_arena *a = mf_alloc(&backing, sizeof *a);
    if (!a) return MF_ERR_NOMEM;
    size_t chunk = desc && desc->chunk_bytes ? desc->chunk_bytes : ARENA_CHUNK_DEFAULT;
    *a = (mf_instance_arena){.backing = backing,
                    .chunk_bytes = mf_lines_round(chunk)};
    *out = a;
    return MF_OK;
}

void mf_instance_arena_destroy(mf_instance_arena *arena)
{
    if (!arena) return;
    mf_allocator backing = arena->backing;
    for (arena_chunk *c = arena->head, *next; c; c = next) {
        next = c->next;
        mf_free(&backing, c);
    }
    mf_free(&backing, arena);
}

mf_allocator mf_instance_arena_allocator(mf_instance_arena *arena)
{
    if (!arena) return (mf_allocator){0};
    return (mf_allocator){arena_alloc, arena_free, arena, cold_alloc, cold_free};
}

void mf_instance_arena_usage(const mf_instance_arena *arena, size_t *used, size_t *reserved)
{
    if (used) *used = arena ? arena->used : 0;
    if (reserved) *reserved = arena ? arena->reserved : 0;
}
