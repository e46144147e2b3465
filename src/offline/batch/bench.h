/* The benchmark engine behind `mfe skel bench` and the bench/ target (private to the tools).
 * Runs instances of one looping clip with staggered start times and times each stage. */
#ifndef MF_OFFLINE_BENCH_H
#define MF_OFFLINE_BENCH_H
#include "mf/mf_batch.h"

typedef struct mf_bench_config {
    const char *rig;        /* .mskel path */
    const char *clip;       /* clip name */
    const char *const *skins; int32_t skin_count;
    int32_t instances, frames, warmup, threads;
    bool load_times;        /* also time JSON parsing vs loading the binary build */
    /* cull: every frame goes through mf_batch_update with a view per instance (no stage
     * timings), offscreen_percent (0..100) of them, spread evenly, off screen, mode TimeOnly */
    bool cull;
    int32_t offscreen_percent;
    /* merge: the rig is built with its atlas, and every frame after the draw lists the drawn
     * instances (placed on a grid) go into one mf_draw_batch (mf_draw_batch.h), timed apart; not
     * with gpu (MF_ERR_ARGUMENT: that path builds no lists to merge) */
    bool merge;
    /* heap: every instance block from the heap, as one allocation each; else (the default, what
     * a game with many instances does) the instances' hot blocks from one mf_instance_arena (mf_instance_arena.h),
     * back to back in the order the batch updates them, their cold blocks from the heap */
    bool heap;
    /* gpu: world vertices skinned on a GPU (mf_gpu.h): the instances in one part a thread, each
     * instance updated and added to the part's own GPU batch on its thread (a draw list's items
     * built only on frames it shows a clipping attachment), the batches submitted in order each frame (in frame_us); MF_BENCH_GPU_CPU: on a
     * CPU implementation (lavapipe) */
    int32_t gpu;
    /* with gpu: the last frame's GPU streams compared with what the CPU builds for the same poses */
    bool gpu_check;
    /* with gpu: the world transforms on the GPU too (mf_gpu_batch_add_local; a rig with physics
     * constraints mf_gpu_batch_add_physics, a state an instance, and with gpu_check a CPU twin
     * an instance wearing the same skins); an instance that shows a clipping attachment gets its
     * world from the CPU that frame */
    bool gpu_world;
    /* the batch path's prefetch threshold (mf_batch_options.prefetch_min: 0 the default, < 0
     * never); the one-thread stage timing does not go through the batch */
    int32_t prefetch_min;
    /* the SIMD paths every pose may use (mf_pose_set_simd; MF_SIMD_AUTO, 0: the widest) */
    mf_simd simd;
    /* batch: every frame through mf_batch_update even on one thread (a game's order: each
     * instance through all its stages in turn), so that thread counts compare on one path; no
     * stage timings */
    bool batch;
    /* draw: what each frame builds of the draw lists. MF_BENCH_DRAW_FULL (0): whole lists (items
     * and world vertices); _ITEMS: the items only (mf_draw_list_build_items: the CPU's part for a
     * host that skins on a GPU or on its own); _NONE: no list (posing only). Other than full:
     * every frame through mf_batch_update, as batch (set batch too for a full run that compares
     * with them); not with merge or gpu (MF_ERR_ARGUMENT) */
    int32_t draw;
    /* track_slots: every pose tracks its slots (mf_pose_set_slot_tracking): a draw list build
     * with no slot changed since the last keeps its items and writes only the vertices (the bench
     * writes no slot array itself) */
    bool track_slots;
} mf_bench_config;

enum { MF_BENCH_GPU_OFF = 0, MF_BENCH_GPU_BEST, MF_BENCH_GPU_CPU };
enum { MF_BENCH_DRAW_FULL = 0, MF_BENCH_DRAW_ITEMS, MF_BENCH_DRAW_NONE };

/* Stage times are medians over frames, microseconds per frame. */
enum { MF_BENCH_TRACKS, MF_BENCH_WORLD, MF_BENCH_VERTICES, MF_BENCH_DRAW, MF_BENCH_STAGES };

typedef struct mf_bench_result {
    int32_t bones, slots, instances, frames, threads;
    mf_simd simd; /* the widest level the poses used (mf_pose_simd) */
    double stage_us[MF_BENCH_STAGES]; /* per frame; only when threads == 1 */
    double frame_us, frame_mean_us;   /* all stages, per frame: median and mean */
    double us_per_skeleton_frame;     /* frame_us / instances */
    double spine_equivalent_us;       /* tracks + world + vertices, per skeleton-frame */
    double vertices_per_frame;        /* world vertices of the geometry stage */
    double allocations_per_frame, bytes_per_frame; /* steady state, through mf_allocator */
    int64_t setup_allocations, setup_bytes; /* through mf_allocator: poses, tracks, draw lists, skin cache */
    /* what the process's resident memory grew by from before setup to after the last frame
     * (Linux /proc/self/statm; -1 elsewhere): the pages instances committed, which is less than
     * setup_bytes where capacity sized for a worst case is never written */
    int64_t resident_bytes;
    /* one instance as created (through mf_allocator): bytes it holds and allocations made (a
     * freed temporary included), for its pose, tracks and draw list */
    int64_t instance_bytes[3], instance_allocs[3];
    double json_parse_us, build_load_us, build_file_load_us; /* medians; 0 when not asked */
    size_t build_bytes;
    int64_t bones_computed, bones_kept, trig_computed; /* last frame, all instances */
    int32_t culled;                   /* instances culled on the last frame (with offscreen) */
    int64_t draw_items;               /* items in the draw lists of the instances drawn on the last frame */
    /* with merge: the merge's median per frame (not in frame_us), its batches and vertices on
     * the last frame, the atlas pages */
    double merge_us;
    int32_t merge_batches, merge_vertices, pages;
    /* with gpu: the device; the median per frame of the CPU's work (update, adds, submit:
     * frame_us less the wait for free slots) and of the GPU's time (timestamps; < 0: unknown, the
     * queue has none or no timed frame finished: a frame's time is read two frames later); the last frame's upload, items skinned on the GPU, clipped items copied, and
     * vertices */
    char gpu_device[256];
    double gpu_add_us, gpu_ms;
    int32_t gpu_upload_bytes, gpu_items, gpu_clipped, gpu_vertices;
    /* with gpu_check: vertices compared, the largest position difference (px), and differences
     * in calls, indices, uvs or colours (0 when the GPU agrees) */
    int64_t gpu_checked_vertices, gpu_mismatches;
    double gpu_max_error;
    /* with gpu_check and the world on the GPU: bone worlds read back (mf_gpu_batch_read_world)
     * and compared with the CPU's, their largest position (px) and 2×2 differences */
    int64_t gpu_checked_bones;
    double gpu_max_bone_error, gpu_max_bone_m_error;
} mf_bench_result;

/* Errors are located (diag names the rig or clip; an unknown clip or skin gets a suggestion). */
mf_result mf_bench_run(const mf_bench_config *cfg, mf_bench_result *out, mf_diag *diag);

/* Writes the seed's synthetic rig (bones bones in chains, slots slots, about vertices weighted
 * mesh vertices, a looping "run" clip keying every bone) as dir/synth.mskel and its clip. */
mf_result mf_bench_write_synthetic(const char *dir, int32_t bones, int32_t slots, int32_t vertices,
                                   char *path_out, size_t path_size, mf_diag *diag);
/* The output floor: the median µs a frame of writing floats world-vertex floats into each of n
 * blocks of block_bytes (one an instance, the size of its draw list) on threads threads, with
 * no other work. Any runtime must write them; at thousands of instances this part of the frame
 * is set by the machine's memory. < 0: out of memory or threads. */
double mf_bench_output_floor(int32_t n, int32_t threads, int32_t frames, size_t block_bytes, int32_t floats);
#endif
