/* A bump allocator: models (skeletons, clips) put every string and array in one, freed at once. */
#ifndef MF_UTIL_ARENA_H
#define MF_UTIL_ARENA_H
#include <stddef.h>

typedef struct mf_arena mf_arena;

mf_arena *mf_arena_create(void);
void mf_arena_destroy(mf_arena *a);
/* Zeroed, 16-byte aligned; NULL when out of memory. size 0 gives a valid unique pointer. */
void *mf_arena_alloc(mf_arena *a, size_t size);
char *mf_arena_strdup(mf_arena *a, const char *s);
char *mf_arena_strndup(mf_arena *a, const char *s, size_t n);
#endif
