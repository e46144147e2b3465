/* mf_batch.h — updating many instances at once, spread over threads the host provides.
 *
 * Runtime part (libmf_runtime, C11 + libm): mf_batch_update() runs, for each item, tracks
 * update + apply, world update and (when the item has one) the draw list. It never creates
 * threads: it hands the host a job over [0, count) through a dispatch callback, which may run
 * the job's chunks on any threads and must return when every chunk has run. Items must not
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

typedef struct mf_batch_item {
    mf_tracks *tracks;  /* NULL: the pose is not animated (world update only) */
    mf_pose *pose;      /* required; items with NULL are skipped */
    mf_draw_list *draw; /* NULL: no draw list */
} mf_batch_item;

/* Advances and poses every item by dt seconds. */
void mf_batch_update(const mf_batch_item *items, int32_t count, double dt, mf_batch_dispatch dispatch,
                     void *host);

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
