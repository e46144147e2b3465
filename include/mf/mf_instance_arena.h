/* mf_instance_arena.h — a bump arena that lays instances' hot parts back to back.
 *
 * Runtime part (libmf_runtime, C11 + libm). A pose, a tracks and a draw list each put what a
 * steady frame touches in one block (through the allocator's alloc) and the rest in a cold one
 * (alloc_cold, mf_base.h). Created through an arena's allocator, one instance after another,
 * the hot blocks of consecutive instances are adjacent in memory: a batch update that walks the
 * instances in order then reads one run of memory instead of three scattered blocks an instance,
 * which at thousands of instances (more than the caches hold) is most of the frame's time.
 *
 *     mf_instance_arena *arena;
 *     mf_instance_arena_create(&(mf_instance_arena_desc){0}, &arena);      // chunks of 4 MiB from malloc
 *     mf_allocator al = mf_instance_arena_allocator(arena);
 *     for (i = 0; i < n; i++) {                           // in the order the batch updates them
 *         mf_pose_create(data, &al, &pose[i], NULL);
 *         mf_tracks_create(data, &cfg, &al, &tracks[i]);
 *         mf_draw_list_create(data, &al, &draw[i]);
 *     }
 *     ...
 *     destroy the instances (their cold blocks go back to the backing allocator), then
 *     mf_instance_arena_destroy(arena);                            // the chunks
 *
 * A freed block is kept for the next block of the same size: an instance destroyed and another
 * of the same data created (a game spawning and despawning the same characters) takes the
 * freed blocks back, so the arena grows only to the most instances alive at once. Blocks of
 * other sizes never share freed memory (no splitting or merging); chunks go back to the
 * backing allocator when the arena is destroyed. One thread at a time may create or destroy
 * instances of an arena; instances made from it may be updated on any threads.
 */
#ifndef MF_INSTANCE_ARENA_H
#define MF_INSTANCE_ARENA_H

#include "mf/mf_base.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct mf_instance_arena mf_instance_arena;

typedef struct mf_instance_arena_desc {
    size_t chunk_bytes;   /* 0: 4 MiB. A larger block gets a chunk of its own */
    mf_allocator backing; /* chunks and cold blocks (its own cold hooks are not used); zeroed: malloc */
} mf_instance_arena_desc;

/* MF_ERR_ARGUMENT: NULL out, or chunk_bytes over SIZE_MAX / 2; MF_ERR_NOMEM. Chunks are
 * allocated as blocks are asked for. */
mf_result mf_instance_arena_create(const mf_instance_arena_desc *desc, mf_instance_arena **out);
/* Frees every chunk. Blocks from it must no longer be used (destroy their instances first). */
void mf_instance_arena_destroy(mf_instance_arena *arena);
/* alloc: 64-byte aligned blocks, a freed block of the same size (rounded to 64 bytes) if there
 * is one, else carved in order from the arena's chunks; free: keeps the block for reuse (a
 * pointer the arena did not give, or freed already, is ignored); cold hooks: the backing
 * allocator. The arena's bookkeeping (16 bytes a block, at most half full tables) comes from
 * the backing allocator when a block is carved. */
mf_allocator mf_instance_arena_allocator(mf_instance_arena *arena);
/* Bytes handed out and not freed (alignment included) and bytes of chunks held. */
void mf_instance_arena_usage(const mf_instance_arena *arena, size_t *used, size_t *reserved);

#ifdef __cplusplus
}
#endif
#endif
