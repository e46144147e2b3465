/* mf_batch_update: the per-item work, run in chunks through the host's dispatch. */
#include "mf/mf_batch.h"

typedef struct batch_job {
    const mf_batch_item *items;
    double dt;
} batch_job;

static void run_chunk(void *user, int32_t first, int32_t count)
{
    const batch_job *job = user;
    for (int32_t i = first; i < first + count; i++) {
        const mf_batch_item *it = &job->items[i];
        if (!it->pose) continue;
        if (it->tracks) {
            mf_tracks_update(it->tracks, job->dt);
            mf_tracks_apply(it->tracks, it->pose);
        }
        mf_pose_update_world(it->pose);
        if (it->draw) mf_draw_list_build(it->draw, it->pose);
    }
}

void mf_batch_update(const mf_batch_item *items, int32_t count, double dt, mf_batch_dispatch dispatch,
                     void *host)
{
    if (!items || count <= 0) return;
    batch_job job = {items, dt};
    if (dispatch)
        dispatch(host, run_chunk, &job, count);
    else
        run_chunk(&job, 0, count);
}
