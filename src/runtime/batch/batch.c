/* mf_batch_update: the per-item work, run in chunks through the host's dispatch; culling by the
 * tracks' box and the off-screen modes (mf_batch.h). */
#include <math.h>

#include "mf/mf_batch.h"
#include "mf/mf_physics.h"
#include "../pose/pose_prefetch.h"

typedef struct batch_job {
    const mf_batch_item *items;
    double dt;
    bool prefetch; /* MF_BATCH_PREFETCH_MIN items or more, or the host's count (the crossover measured
                    * between 2,500 and 5,000 synthetic instances on the development VM:
                    * docs/performance.md) */
} batch_job;

/* The box that can be drawn now: the tracks' union, or the setup pose's for a still pose. */
static void item_bounds(const mf_batch_item *it, float b[4])
{
    if (it->tracks ? mf_tracks_bounds(it->tracks, b) : mf_skel_data_clip_bounds(it->pose->data, -1, b)) return;
    b[0] = b[1] = -INFINITY, b[2] = b[3] = INFINITY; /* nothing known: never culled */
}

/* Boxes touching (edges included) meet; the view's corners may come in any order. */
static bool meets(const float b[4], const float *v)
{
    float x0 = fminf(v[0], v[2]), x1 = fmaxf(v[0], v[2]), y0 = fminf(v[1], v[3]), y1 = fmaxf(v[1], v[3]);
    return b[0] <= x1 && b[2] >= x0 && b[1] <= y1 && b[3] >= y0;
}

/* The frame's time goes to the physics springs (nothing for rigs without physics). */
static void pose_and_draw(const mf_batch_item *it, double dt, bool draw, bool prefetch)
{
    mf_pose_physics_step(it->pose, dt); /* on the GPU too: mf_gpu_batch_add_physics takes it */
    if (it->world_on_gpu) return;       /* the GPU poses it (mf_gpu_batch_add_local, _add_physics) */
    if (prefetch) mf_pose_prefetch_world(it->pose);
    mf_pose_update_world(it->pose);
    if (!draw || !it->draw) return;
    if (prefetch) mf_draw_list_prefetch(it->draw, it->pose);
    if (it->draw_items_only) mf_draw_list_build_items(it->draw, it->pose);
    else mf_draw_list_build(it->draw, it->pose);
}

/* An item that may be culled: advance, cull, then pose as its mode says. */
static void run_culled(const mf_batch_item *it, double dt, bool prefetch)
{
    mf_batch_state *st = it->state;
    bool was = st->culled;
    if (was && it->offscreen == MF_OFFSCREEN_PAUSE) {
        item_bounds(it, st->bounds); /* time stands: the box is the one that culled it */
        if (!meets(st->bounds, it->view)) return;
        st->culled = false;
        /* a full apply: no time passed, but entries set while paused fire their first events */
        if (it->tracks) mf_pose_reset(it->pose), mf_tracks_apply(it->tracks, it->pose);
        pose_and_draw(it, 0, true, prefetch); /* no time passes on the frame a paused item returns */
        return;
    }
    if (it->tracks) mf_tracks_update(it->tracks, dt);
    item_bounds(it, st->bounds);
    bool visible = meets(st->bounds, it->view);
    st->culled = !visible;
    if (!visible && it->offscreen != MF_OFFSCREEN_FULL) {
        if (it->tracks) mf_tracks_apply_time(it->tracks);
        return;
    }
    if (it->tracks) {
        /* back from TimeOnly or Pause: the pose went unsampled, build it from setup */
        if (was && it->offscreen != MF_OFFSCREEN_FULL) mf_pose_reset(it->pose);
        mf_tracks_apply(it->tracks, it->pose);
    }
    pose_and_draw(it, dt, visible, prefetch);
}

static void run_chunk(void *user, int32_t first, int32_t count)
{
    const batch_job *job = user;
    for (int32_t i = first; i < first + count; i++) {
        const mf_batch_item *it = &job->items[i];
        if (!it->pose) continue;
        if (it->view && it->state) {
            run_culled(it, job->dt, job->prefetch);
            continue;
        }
        if (it->tracks) {
            mf_tracks_update(it->tracks, job->dt);
            mf_tracks_apply(it->tracks, it->pose);
        }
        pose_and_draw(it, job->dt, true, job->prefetch);
    }
}

void mf_batch_update(const mf_batch_item *items, int32_t count, double dt, mf_batch_dispatch dispatch,
                     void *host)
{
    mf_batch_update_with(items, count, dt, dispatch, host, NULL);
}

void mf_batch_update_with(const mf_batch_item *items, int32_t count, double dt, mf_batch_dispatch dispatch,
                          void *host, const mf_batch_options *options)
{
    if (!items || count <= 0) return;
    int32_t min = options && options->prefetch_min != 0 ? options->prefetch_min : MF_BATCH_PREFETCH_MIN;
    batch_job job = {items, dt, min > 0 && count >= min};
    if (dispatch)
        dispatch(host, run_chunk, &job, count);
    else
        run_chunk(&job, 0, count);
}
