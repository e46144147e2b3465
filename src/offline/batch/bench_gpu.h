/* The benchmark's GPU skinning path (bench_gpu.c), private to bench.c. */
#ifndef MF_OFFLINE_BENCH_GPU_H
#define MF_OFFLINE_BENCH_GPU_H
#include "batch/bench.h"

typedef struct mf_bench_gpu mf_bench_gpu;

/* A device (which: MF_BENCH_GPU_BEST or _CPU), the rig's tables and a batch a thread, each with
 * room for its part of n instances' worst case; world: the GPU computes the world transforms
 * (mf_gpu_batch_add_local or _add_physics; the items must have world_on_gpu set); skins: the
 * instances' (--skin: skin_count indices of d's skins), worn by the check's CPU twins of a
 * physics rig; lists: the instances' draw lists (kept: built on frames an instance shows a
 * clipping attachment, and for the check); check: the batches keep a readback copy. Errors are
 * located at rig_path. */
mf_result mf_bench_gpu_setup(const char *rig_path, int32_t which, bool check, bool world, const mf_skel_data *d,
                             const int32_t *skins, int32_t skin_count, mf_draw_list *const *lists, int32_t n,
                             int32_t threads, mf_bench_gpu **out, mf_diag *diag);
/* One frame: every batch begun (waiting for its slot's previous frame; *gpu_ms their GPU time,
 * < 0 unknown), then on the pool's threads each part's items updated (mf_batch_update) and
 * added, then the batches submitted in order. */
mf_result mf_bench_gpu_frame(mf_bench_gpu *g, const mf_batch_item *items, double dt, mf_thread_pool *pool,
                             double *gpu_ms);
/* When the last frame's begin finished waiting for its slot (mf_bench_now_us). */
double mf_bench_gpu_wait_end(const mf_bench_gpu *g);
double mf_bench_now_us(void);
/* Whether the batches hold less than clipping's worst case (they would pass the device's
 * storage range): a frame that clips more than they hold fails with MF_ERR_NOMEM. */
bool mf_bench_gpu_capped(const mf_bench_gpu *g);
/* Waits for the last frame; device name and the last frame's counts into r. With check (as at
 * setup), the last frame's streams are read back and compared with the CPU's (mf_draw_list_build,
 * mf_draw_batch_add) for the same poses: r's gpu_checked_vertices, gpu_max_error, gpu_mismatches. */
void mf_bench_gpu_finish(mf_bench_gpu *g, mf_bench_result *r, const mf_skel_data *d, bool check,
                         const mf_batch_item *items);
void mf_bench_gpu_free(mf_bench_gpu *g);
#endif
