/* mf_batch.h — updating many instances at once, spread over threads the host provides.
 *
 * Runtime part (libmf_runtime, C11 + libm): mf_batch_update() runs, for each item, tracks
 * update + apply, the frame's time for the physics springs (mf_pose_physics_step), world update
 * and (when the item has one) the draw list; items with a view are culled and, while off
 * screen, follow their mf_offscreen_mode (springs do not step while an item is not posed).
 * It never creates threads: it hands the host a job over [0, count) through a dispatch
 * callback, which may run the job's chunks on any threads and must return when every chunk has
 * run. Items must not
 * share a pose, tracks or draw list; they may share an mf_skel_data (read only). Track
 * listeners are called on the thread that runs the item.
 *
 * Offline part (libmf_offline): a small default pthread pool whose dispatch function fits.
 *
 *     mf_thread_pool *pool;  mf_thread_pool_create(2, &pool);
 *     per frame:  mf_batch_update(items, n, dt, mf_thread_pool_dispatch, pool);
 *     mf_thread_pool_destroy(pool);
 *
 * Nothing here allocates per frame.
 */
#ifndef MF_BATCH_H
#define MF_BATCH_H

#include "mf/mf_geometry.h"
#include "mf/mf_tracks.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One chunk of a job: items [first, first + count). */
typedef void (*mf_batch_job)(void *job_user, int32_t first, int32_t count);
/* The host's dispatch: runs job over [0, count) in chunks (each index exactly once), on as many
 * threads as it likes, and returns when all are done. NULL dispatch: the caller's thread. */
typedef void (*mf_batch_dispatch)(void *host, mf_batch_job job, void *job_user, int32_t count);

/* What an item does on a frame after one it was culled on (the seed's Offscreen). The zero
 * value is the default. */
typedef enum mf_offscreen_mode {
    MF_OFFSCREEN_TIME_ONLY = 0, /* tracks advance, events and completions fire (callbacks run);
                                 * no sampling, world update, constraints or draw list */
    MF_OFFSCREEN_PAUSE,         /* nothing: time stops until it is visible again */
    MF_OFFSCREEN_FULL           /* everything but the draw list (gameplay reads bones off screen) */
} mf_offscreen_mode;

/* What the batch keeps about an item between frames; the host owns it (zeroed at first: not
 * culled). Read culled after an update: true when the item was not visible and its draw list
 * was not built, so the host skips drawing it. */
typedef struct mf_batch_state {
    bool culled;
    float bounds[4]; /* the box the last cull tested (skeleton space) */
} mf_batch_state;

/* Plain data: the host may keep an array of items and rebuild or reuse it freely. */
typedef struct mf_batch_item {
    mf_tracks *tracks;  /* NULL: the pose is not animated (world update only) */
    mf_pose *pose;      /* required; items with NULL are skipped */
    mf_draw_list *draw; /* NULL: no draw list; one created for other data than the pose's is left
                         * empty (mf_draw_list_build's MF_ERR_ARGUMENT) */
    mf_offscreen_mode offscreen;
    /* true: the draw list gets its items only (mf_draw_list_build_items): a GPU skins the rest
     * (mf_gpu.h) */
    bool draw_items_only;
    /* true: no world update (nor draw list): the host adds the pose with mf_gpu_batch_add_local,
     * which computes the world on the GPU, or for a rig with physics constraints
     * mf_gpu_batch_add_physics, which takes the frame's time given to the pose here
     * (mf_pose_physics_step) for the springs the GPU steps. A frame that shows a clipping attachment
     * needs the CPU's world: the host calls mf_pose_update_world and builds the list itself
     * (mf_gpu.h). */
    bool world_on_gpu;
    /* {x0, y0, x1, y1}: the rectangle the host draws, in the pose's skeleton space (the space of
     * the build's boxes: a host that places the skeleton with its own transform passes its view
     * through the inverse of that transform, boxed; one that moves the skeleton by writing the
     * root bone's local position itself shifts the view by minus that offset). NULL: always
     * visible, never culled. */
    const float *view;
    mf_batch_state *state; /* required for culling: without it the item is never culled */
} mf_batch_item;

/* Advances and poses every item by dt seconds. An item with a view and a state is culled by
 * the tracks' box (mf_tracks_bounds, none while poses combine: then never culled; the setup
 * pose's without tracks) against its view after
 * its time advanced and before it is posed, so it is drawn on the first frame its box meets the
 * view. Per item and frame:
 *   visible, or mode Full:  update, apply (pose, events), world update; the draw list only when
 *                           visible;
 *   culled, TimeOnly (and the first culled frame of Pause): update, mf_tracks_apply_time;
 *   culled again, Pause:    nothing (its state keeps culled).
 * An item that comes back is posed from the setup pose (mf_pose_reset, then the tracks at their
 * current times), so the frame it returns shows what an item never culled shows, except for
 * physics springs: they rested while culled and take up the movement from there (limited by
 * each constraint's speed limit). Values a host wrote into the local pose outside the tracks
 * are reset then. A Pause item returns with no time advanced that frame, springs included.
 * From MF_BATCH_PREFETCH_MIN items on (the count of one call), each item's world update and
 * draw list build first ask the CPU for the lines they touch (prefetch hints: with that many instances they come from
 * memory, and asked together their misses overlap; fewer instances sit in the caches, where the
 * hints cost more than they save). Results are the same either way. */
#define MF_BATCH_PREFETCH_MIN 4096
void mf_batch_update(const mf_batch_item *items, int32_t count, double dt, mf_batch_dispatch dispatch,
                     void *host);

/* Tuning for mf_batch_update_with; zeroed fields mean the defaults. */
typedef struct mf_batch_options {
    /* the item count from which the prefetch hints are given: 0 means MF_BATCH_PREFETCH_MIN,
     * a negative value never. The crossover depends on the machine's caches and the rig's size:
     * `mfe skel bench --threads N --prefetch-min K` measures it (docs/performance.md). */
    int32_t prefetch_min;
} mf_batch_options;

/* mf_batch_update with options (NULL: the defaults). */
void mf_batch_update_with(const mf_batch_item *items, int32_t count, double dt, mf_batch_dispatch dispatch,
                          void *host, const mf_batch_options *options);

/* ---- offline (libmf_offline): the default pool ---- */

typedef struct mf_thread_pool mf_thread_pool;
/* threads: workers including the caller's thread (1: everything runs on the caller). */
mf_result mf_thread_pool_create(int32_t threads, mf_thread_pool **out);
void mf_thread_pool_destroy(mf_thread_pool *pool);
int32_t mf_thread_pool_threads(const mf_thread_pool *pool);
/* An mf_batch_dispatch: host is the pool. Not reentrant: one job at a time per pool. */
void mf_thread_pool_dispatch(void *host, mf_batch_job job, void *job_user, int32_t count);

#ifdef __cplusplus
}
#endif
#endif
