/* The bump arena (mf_instance_arena.h): chunks from the backing allocator, blocks carved in order,
 * freed blocks reused by later blocks of the same size. */
#include "mf/mf_instance_arena.h"

#include <stdint.h>
#include <string.h>

#include "alloc_lines.h"

#define ARENA_CHUNK_DEFAULT ((size_t)4 << 20)

typedef struct arena_chunk {
    struct arena_chunk *next;
    size_t size, used; /* bytes after the header */
} arena_chunk;

/* Open-addressed tables (capacity a power of two, at most half full, never shrunk): every block
 * carved, by address, with its size (bit 0: freed); every size carved, with the freed blocks of
 * that size (a stack linked through the blocks' first bytes). Both grow when a block is carved,
 * where failing can be reported, so that freeing never allocates. */
typedef struct arena_slot {
    uintptr_t key; /* 0: empty */
    uintptr_t value;
} arena_slot;

typedef struct arena_table {
    arena_slot *slots;
    size_t cap, count;
} arena_table;

struct mf_instance_arena {
    mf_allocator backing;
    size_t chunk_bytes, used, reserved;
    arena_chunk *head;   /* the chunk being carved, the older ones after it */
    arena_table blocks;  /* address -> size | FREED */
    arena_table sizes;   /* size -> the last freed block of that size, or 0 */
};

#define FREED ((uintptr_t)1)

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

static size_t slot_of(const arena_table *t, uintptr_t key)
{
    uint64_t h = (uint64_t)key * 0x9E3779B97F4A7C15ull; /* Fibonacci hashing: the line bits spread */
    size_t i = (size_t)(h >> 32) & (t->cap - 1);
    while (t->slots[i].key != 0 && t->slots[i].key != key) i = (i + 1) & (t->cap - 1);
    return i;
}

static arena_slot *table_find(const arena_table *t, uintptr_t key)
{
    if (t->cap == 0) return NULL;
    arena_slot *s = &t->slots[slot_of(t, key)];
    return s->key == key ? s : NULL;
}

/* Room for one more key (a table at most half full); false when out of memory. */
static bool table_reserve(mf_instance_arena *a, arena_table *t)
{
    if (2 * (t->count + 1) <= t->cap) return true;
    size_t cap = t->cap ? 2 * t->cap : 64;
    if (cap > SIZE_MAX / sizeof(arena_slot)) return false;
    arena_slot *slots = mf_alloc(&a->backing, cap * sizeof *slots);
    if (!slots) return false;
    memset(slots, 0, cap * sizeof *slots);
    arena_table grown = {slots, cap, t->count};
    for (size_t i = 0; i < t->cap; i++)
        if (t->slots[i].key) grown.slots[slot_of(&grown, t->slots[i].key)] = t->slots[i];
    mf_free(&a->backing, t->slots);
    *t = grown;
    return true;
}

/* Sets key's value; the key must have room (table_reserve) or be there already. */
static void table_put(arena_table *t, uintptr_t key, uintptr_t value)
{
    arena_slot *s = &t->slots[slot_of(t, key)];
    if (s->key == 0) s->key = key, t->count++;
    s->value = value;
}

/* A freed block of need bytes taken back, or NULL. */
static void *reuse(mf_instance_arena *a, size_t need)
{
    arena_slot *sz = table_find(&a->sizes, need);
    if (!sz || !sz->value) return NULL;
    unsigned char *p = (unsigned char *)sz->value;
    memcpy(&sz->value, p, sizeof sz->value); /* the next freed block of this size */
    table_find(&a->blocks, (uintptr_t)p)->value = need;
    a->used += need;
    return p;
}

/* need bytes carved from the current chunk, a new one, or a chunk of its own. */
static void *carve(mf_instance_arena *a, size_t need)
{
    arena_chunk *c = a->head;
    if (!c || c->size - c->used < need) {
        if (need > a->chunk_bytes) { /* its own chunk, behind the current one: carving goes on */
            arena_chunk *big = new_chunk(a, need);
            if (!big) return NULL;
            big->used = need;
            if (c) big->next = c->next, c->next = big;
            else big->next = NULL, a->head = big;
            return chunk_base(big);
        }
        arena_chunk *fresh = new_chunk(a, a->chunk_bytes);
        if (!fresh) return NULL;
        fresh->next = c;
        a->head = c = fresh;
    }
    void *p = chunk_base(c) + c->used;
    c->used += need;
    return p;
}

static void *arena_alloc(void *user, size_t size)
{
    mf_instance_arena *a = user;
    if (size > SIZE_MAX / 2) return NULL;
    size_t need = mf_lines_round(size ? size : 1); /* a line at least: no two blocks share an address */
    void *p = reuse(a, need);
    if (p) return p;
    /* room in both tables first: once carved, a block is recorded without failing */
    if (!table_reserve(a, &a->blocks) || (!table_find(&a->sizes, need) && !table_reserve(a, &a->sizes))) return NULL;
    p = carve(a, need);
    if (!p) return NULL;
    table_put(&a->blocks, (uintptr_t)p, need);
    if (!table_find(&a->sizes, need)) table_put(&a->sizes, need, 0);
    a->used += need;
    return p;
}

/* The block goes on its size's stack for the next block of that size; a pointer the arena did
 * not hand out, or one freed already, is left alone. */
static void arena_free(void *user, void *ptr)
{
    mf_instance_arena *a = user;
    arena_slot *b = ptr ? table_find(&a->blocks, (uintptr_t)ptr) : NULL;
    if (!b || (b->value & FREED)) return;
    size_t need = b->value;
    arena_slot *sz = table_find(&a->sizes, need);
    memcpy(ptr, &sz->value, sizeof sz->value);
    sz->value = (uintptr_t)ptr;
    b->value = need | FREED;
    a->used -= need;
}

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
    mf_free(&backing, arena->blocks.slots);
    mf_free(&backing, arena->sizes.slots);
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
