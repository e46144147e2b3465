/* The benchmark's GPU skinning (bench.h, mf_gpu.h): the instances' item lists into one GPU
 * batch a frame, submitted, the GPU's time read back from its timestamps. Built without the
 * Vulkan headers, asking for it is an error that says so. */
#include "batch/bench_gpu.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef MF_HAVE_GPU
#include "mf/mf_gpu.h"
#include "mf/mf_physics.h"

enum { MAX_PARTS = 256 };

/* The instances in `parts` contiguous parts, one a thread: each instance of a part is updated
 * and added to the part's own GPU batch on its thread, while it is in that core's cache (one
 * batch for all would add them on one thread after the update). The batches draw in order. */
struct mf_bench_gpu {
    mf_gpu_device *dev;
    mf_gpu_rig *rig;
    mf_gpu_batch *batch[MAX_PARTS];
    int32_t parts, n;
    float *xf; /* 6 an instance: a grid */
    double wait_end_us; /* when the last frame's wait for free slots ended */
    bool capped;        /* the batches hold less than clipping's worst case (the device's range) */
    bool world;         /* the world on the GPU (mf_gpu_batch_add_local) */
    /* a rig with physics constraints posed on the GPU: each instance's springs' state in its
     * part's batch (mf_gpu_batch_add_physics); with --gpu-check a twin pose per instance the CPU
     * poses from the same tracks, whose springs evolve beside the GPU's */
    bool physics;
    int32_t *states;
    mf_pose **twins;
    mf_skin_cache *twin_skins; /* the twins wear the instances' skins (--skin) */
    mf_draw_list *const *lists; /* the instances' own, built only on frames that show a clip */
    /* the frame in flight through the pool */
    const mf_batch_item *items;
    double dt;
    mf_result part_res[MAX_PARTS];
};

double mf_bench_gpu_wait_end(const mf_bench_gpu *g) { return g->wait_end_us; }
bool mf_bench_gpu_capped(const mf_bench_gpu *g) { return g->capped; }

static int32_t part_first(const mf_bench_gpu *g, int32_t p) { return (int32_t)((int64_t)g->n * p / g->parts); }

mf_result mf_bench_gpu_setup(const char *rig_path, int32_t which, bool check, bool world, const mf_skel_data *d,
                             const int32_t *skins, int32_t skin_count, mf_draw_list *const *lists, int32_t n,
                             int32_t threads, mf_bench_gpu **out, mf_diag *diag)
{
    *out = NULL;
    mf_bench_gpu *g = calloc(1, sizeof *g);
    if (!g) return MF_ERR_NOMEM;
    const mf_draw_list *dl = lists[0];
    g->lists = lists;
    g->world = world;
    g->n = n;
    g->parts = threads < 1 ? 1 : threads > MAX_PARTS ? MAX_PARTS : threads > n ? n : threads;
    int32_t per = (n + g->parts - 1) / g->parts;
    mf_gpu_device_desc dd = {.prefer_cpu = which == MF_BENCH_GPU_CPU};
    mf_result res = mf_gpu_device_create(&dd, &g->dev, diag);
    if (res == MF_OK) res = mf_gpu_rig_create(g->dev, d, &g->rig, diag);
    g->physics = world && d->physics_count > 0;
    /* room for every instance's worst case, clipping's included: never an overflow. Where that
     * passes the device's storage range (lavapipe: 128 MiB), the clipping part is halved until
     * it fits: what the instances draw unclipped always has room. */
    int64_t deform = 0;
    for (int32_t a = 0; a < d->attachment_count; a++) deform += d->attachments[a].deform_count;
    /* a palette (6 words a bone), or a local pose, its constraints' state and what the GPU
     * writes for it (mf_gpu_rig_local_words) */
    int64_t pose_w = world ? (int64_t)mf_gpu_rig_local_words(g->rig) : 6 * (int64_t)d->bone_count;
    int64_t floor_w = (int64_t)per * (pose_w + deform);
    int64_t floor_v = (int64_t)per * dl->vertex_unclipped, floor_i = (int64_t)per * dl->index_unclipped;
    int64_t words = floor_w + (int64_t)per * (4 * (int64_t)dl->vertex_cap + dl->index_cap);
    int64_t verts = (int64_t)per * dl->vertex_cap, idx = (int64_t)per * dl->index_cap, items = (int64_t)per * d->slot_count;
    if (res == MF_OK && (floor_w >= (1 << 29) || floor_v >= (1 << 28) || floor_i >= (1 << 29) || items >= (1 << 24))) {
        mf_diag_set(diag, rig_path, "--instances", "%d instances pass the GPU batch's limits", n);
        res = MF_ERR_ARGUMENT;
    }
    for (int tries = 0; res == MF_OK && tries < 40; tries++) {
        verts = verts < (1 << 28) ? verts : (1 << 28) - 1, idx = idx < (1 << 29) ? idx : (1 << 29) - 1;
        words = words < (1 << 29) ? words : (1 << 29) - 1;
        mf_gpu_batch_desc bd = {.max_vertices = (int32_t)(verts > 0 ? verts : 1), .max_indices = (int32_t)(idx > 0 ? idx : 1),
                                .max_calls = (int32_t)(items + 1), .max_instances = per, .max_items = (int32_t)(items + 1),
                                .max_words = (int32_t)words, .readback = check,
                                .max_physics = g->physics ? per * d->physics_count : 0,
                                .readback_world = check && world}; /* the bones checked too */
        for (int32_t p = 0; p < g->parts && res == MF_OK; p++) res = mf_gpu_batch_create(g->dev, &bd, &g->batch[p], diag);
        bool range = res == MF_ERR_ARGUMENT && diag && strcmp(diag->where, "mf_gpu_batch_desc") == 0;
        if (!range || (verts <= floor_v && idx <= floor_i && words <= floor_w)) break;
        for (int32_t p = 0; p < g->parts; p++) mf_gpu_batch_destroy(g->batch[p]), g->batch[p] = NULL;
        verts = floor_v + (verts - floor_v) / 2, idx = floor_i + (idx - floor_i) / 2, words = floor_w + (words - floor_w) / 2;
        g->capped = true, res = MF_OK;
    }
    if (res == MF_ERR_ARGUMENT && diag && strcmp(diag->where, "mf_gpu_batch_desc") == 0) { /* the batch's limits: say what to change */
        char why[512];
        snprintf(why, sizeof why, "%s", diag->message);
        mf_diag_set(diag, rig_path, "--instances", "%d instances on %d thread%s (a GPU batch each, for %d "
                    "instances): %s; fewer instances or more --threads", n, g->parts,
                    g->parts == 1 ? "" : "s", per, why);
    }
    if (res == MF_OK && !(g->xf = malloc((size_t)n * 6 * sizeof(float)))) res = MF_ERR_NOMEM;
    if (res == MF_OK && g->physics) {
        g->states = malloc((size_t)n * sizeof *g->states);
        g->twins = check ? calloc((size_t)n, sizeof *g->twins) : NULL;
        if (!g->states || (check && !g->twins)) res = MF_ERR_NOMEM;
        for (int32_t p = 0; p < g->parts && res == MF_OK; p++)
            for (int32_t i = part_first(g, p); i < part_first(g, p + 1) && res == MF_OK; i++)
                res = mf_gpu_batch_physics_acquire(g->batch[p], g->rig, &g->states[i]);
        /* the skins the instances wear: their skin-required bones and constraints, physics ones
         * included, run on the twins too */
        int32_t count = check ? skin_count : 0;
        if (res == MF_OK && count > 0 && mf_skin_cache_create(d, NULL, &g->twin_skins) != MF_OK) res = MF_ERR_NOMEM;
        for (int32_t i = 0; check && i < n && res == MF_OK; i++) {
            res = mf_pose_create(d, NULL, &g->twins[i], diag);
            if (res == MF_OK && count > 0) res = mf_pose_set_skins(g->twins[i], g->twin_skins, skins, count, diag);
        }
    }
    if (res != MF_OK) {
        mf_bench_gpu_free(g);
        return res;
    }
    for (int32_t i = 0; i < n; i++) {
        float m[6] = {1, 0, 0, 1, 400.0f * (float)(i % 20), 600.0f * (float)(i / 20)};
        memcpy(g->xf + 6 * i, m, sizeof m);
    }
    *out = g;
    return MF_OK;
}

static void part_job(void *user, int32_t first, int32_t count)
{
    mf_bench_gpu *g = user;
    for (int32_t p = first; p < first + count; p++) {
        int32_t a = part_first(g, p), b = part_first(g, p + 1);
        mf_result res = MF_OK;
        /* each instance added right after its update, while its pose and list are in cache */
        for (int32_t i = a; i < b && res == MF_OK; i++) {
            const mf_batch_item *it = &g->items[i];
            mf_batch_update(it, 1, g->dt, NULL, NULL);
            if (it->state && it->state->culled) continue;
            bool needs = mf_gpu_pose_needs_list(g->rig, it->pose);
            if (g->twins && it->tracks) { /* the CPU's springs beside the GPU's: the same sample */
                mf_pose *t = g->twins[i];
                mf_pose_reset(t);
                mf_tracks_apply_pose(it->tracks, t);
                mf_pose_physics_step(t, g->dt);
                mf_pose_update_world(t);
            }
            if (g->physics && !needs) {
                res = mf_gpu_batch_add_physics(g->batch[p], g->rig, it->pose, g->states[i], g->xf + 6 * i);
                continue;
            }
            if (g->world && !needs) {
                res = mf_gpu_batch_add_local(g->batch[p], g->rig, it->pose, g->xf + 6 * i);
                continue;
            }
            if (g->world) mf_pose_update_world(it->pose); /* a clip shown: the CPU's world, for its list */
            mf_draw_list *dl = needs ? g->lists[i] : NULL;
            if (dl) mf_draw_list_build_items(dl, it->pose);
            res = mf_gpu_batch_add(g->batch[p], g->rig, it->pose, dl, g->xf + 6 * i);
        }
        g->part_res[p] = res;
    }
}

mf_result mf_bench_gpu_frame(mf_bench_gpu *g, const mf_batch_item *items, double dt, mf_thread_pool *pool,
                             double *gpu_ms)
{
    /* begin waits for each batch's slot: the GPU time of its last frame is known then */
    mf_result res = MF_OK;
    *gpu_ms = 0;
    for (int32_t p = 0; p < g->parts && res == MF_OK; p++) {
        res = mf_gpu_batch_begin(g->batch[p]);
        *gpu_ms = g->batch[p]->gpu_ms < 0 || *gpu_ms < 0 ? -1 : *gpu_ms + g->batch[p]->gpu_ms;
    }
    g->wait_end_us = mf_bench_now_us();
    if (res != MF_OK) return res;
    g->items = items, g->dt = dt;
    mf_thread_pool_dispatch(pool, part_job, g, g->parts);
    for (int32_t p = 0; p < g->parts && res == MF_OK; p++)
        if ((res = g->part_res[p]) == MF_OK) res = mf_gpu_batch_submit(g->batch[p]);
    return res;
}

/* The GPU's world of the k-th instance added (read back into its pose) against the CPU's (twin
 * NULL: the pose's own world update; else the twin's, posed by the CPU beside it with its own
 * springs); the pose is left with the CPU's. An instance added with its CPU world (a clip shown)
 * has none to read. */
static void check_bones(const mf_gpu_batch *b, int32_t k, mf_pose *pose, const mf_pose *twin, mf_bench_result *r)
{
    mf_result res = mf_gpu_batch_read_world(b, k, pose);
    if (res == MF_ERR_UNSUPPORTED) return; /* its world was the CPU's already */
    size_t n = (size_t)pose->bone_count;
    float *gw = res == MF_OK ? malloc(6 * n * sizeof(float) + 1) : NULL;
    if (!gw) {
        r->gpu_mismatches++;
        mf_pose_update_world(pose);
        return;
    }
    float *w[6] = {pose->a, pose->b, pose->c, pose->d, pose->wx, pose->wy};
    for (int j = 0; j < 6; j++) memcpy(gw + (size_t)j * n, w[j], n * sizeof(float));
    if (twin) { /* its springs would step again on the pose: the twin's world is the CPU's */
        const float *tw[6] = {twin->a, twin->b, twin->c, twin->d, twin->wx, twin->wy};
        for (int j = 0; j < 6; j++) memcpy(w[j], tw[j], n * sizeof(float));
        mf_pose_world_changed(pose);
    } else {
        mf_pose_update_world(pose);
    }
    for (size_t i = 0; i < n; i++) {
        if (!pose->active[i]) continue; /* the CPU left its world as it was */
        for (int j = 0; j < 6; j++) {
            double e = fabs((double)gw[(size_t)j * n + i] - (double)w[j][i]);
            double *worst = j < 4 ? &r->gpu_max_bone_m_error : &r->gpu_max_bone_error;
            if (!(e <= *worst)) *worst = e; /* NaN too */
        }
        r->gpu_checked_bones++;
    }
    free(gw);
}

/* Part p's last frame against the CPU's streams for the same poses. */
static void check_part(mf_bench_gpu *g, int32_t p, const mf_skel_data *d, const mf_batch_item *items,
                       mf_bench_result *r)
{
    mf_draw_list *const *lists = g->lists;
    const mf_gpu_batch *b = g->batch[p];
    mf_draw_batch *cb = NULL;
    mf_draw_batch_desc cd = {.max_vertices = b->vertex_count + 1, .max_indices = b->index_count + 1,
                             .max_calls = b->call_count + 1};
    mf_batch_vertex *gv = malloc(sizeof *gv * (size_t)(b->vertex_count + 1));
    uint32_t *gi = malloc(sizeof *gi * (size_t)(b->index_count + 1));
    if (!gv || !gi || mf_draw_batch_create(&cd, &cb) != MF_OK || mf_gpu_batch_read(b, gv, gi) != MF_OK) {
        r->gpu_mismatches++;
        goto done;
    }
    mf_draw_batch_begin(cb);
    int32_t k = 0; /* the instance's index in the frame's adds: the culled ones were not added */
    for (int32_t i = part_first(g, p); i < part_first(g, p + 1); i++) {
        if (items[i].state && items[i].state->culled) continue;
        const mf_pose *cpu = g->twins ? g->twins[i] : items[i].pose; /* the CPU's world for the check */
        if (g->world) check_bones(b, k, items[i].pose, g->twins ? g->twins[i] : NULL, r);
        k++;
        if (mf_draw_list_build(lists[i], cpu) != MF_OK || mf_draw_batch_add(cb, lists[i], d, g->xf + 6 * i) != MF_OK)
            r->gpu_mismatches++;
    }
    if (cb->vertex_count != b->vertex_count || cb->index_count != b->index_count || cb->call_count != b->call_count) {
        r->gpu_mismatches++;
        goto done;
    }
    for (int32_t c = 0; c < b->call_count; c++) {
        const mf_draw_call *x = &b->calls[c], *y = &cb->calls[c];
        r->gpu_mismatches += x->page != y->page || x->image != y->image || x->blend != y->blend ||
                             x->vertex_first != y->vertex_first || x->index_first != y->index_first ||
                             x->vertex_count != y->vertex_count || x->index_count != y->index_count;
    }
    for (int32_t i = 0; i < b->index_count; i++) r->gpu_mismatches += gi[i] != cb->indices[i];
    for (int32_t v = 0; v < b->vertex_count; v++) {
        const mf_batch_vertex *x = &gv[v], *y = &cb->vertices[v];
        double e = fabs((double)x->x - y->x) > fabs((double)x->y - y->y) ? fabs((double)x->x - y->x) : fabs((double)x->y - y->y);
        if (!(e <= r->gpu_max_error)) r->gpu_max_error = e; /* NaN too */
        r->gpu_mismatches += x->u != y->u || x->v != y->v || x->light != y->light || x->dark != y->dark;
    }
    r->gpu_checked_vertices += b->vertex_count;
done:
    mf_draw_batch_destroy(cb);
    free(gv), free(gi);
}

void mf_bench_gpu_finish(mf_bench_gpu *g, mf_bench_result *r, const mf_skel_data *d, bool check,
                         const mf_batch_item *items)
{
    snprintf(r->gpu_device, sizeof r->gpu_device, "%s", mf_gpu_device_name(g->dev));
    r->gpu_upload_bytes = r->gpu_items = r->gpu_vertices = r->gpu_clipped = 0;
    for (int32_t p = 0; p < g->parts; p++) {
        const mf_gpu_batch *b = g->batch[p];
        mf_gpu_batch_wait(g->batch[p]);
        r->gpu_upload_bytes += b->upload_bytes, r->gpu_items += b->gpu_items, r->gpu_vertices += b->vertex_count;
        r->gpu_clipped += b->items - b->gpu_items;
        if (check) check_part(g, p, d, items, r);
    }
}

void mf_bench_gpu_free(mf_bench_gpu *g)
{
    if (!g) return;
    for (int32_t p = 0; p < g->parts; p++) mf_gpu_batch_destroy(g->batch[p]);
    for (int32_t i = 0; g->twins && i < g->n; i++) mf_pose_destroy(g->twins[i]);
    free(g->twins), free(g->states);
    mf_skin_cache_destroy(g->twin_skins);
    mf_gpu_rig_destroy(g->rig);
    mf_gpu_device_destroy(g->dev);
    free(g->xf);
    free(g);
}

#else

struct mf_bench_gpu {
    int unused;
};

mf_result mf_bench_gpu_setup(const char *rig_path, int32_t which, bool check, bool world, const mf_skel_data *d,
                             const int32_t *skins, int32_t skin_count, mf_draw_list *const *lists, int32_t n,
                             int32_t threads, mf_bench_gpu **out, mf_diag *diag)
{
    (void)which, (void)check, (void)world, (void)d, (void)skins, (void)skin_count, (void)lists, (void)n, (void)threads;
    *out = NULL;
    mf_diag_set(diag, rig_path, "--gpu", "this build has no GPU skinning (it needs the Vulkan headers and glslc)");
    return MF_ERR_UNSUPPORTED;
}

mf_result mf_bench_gpu_frame(mf_bench_gpu *g, const mf_batch_item *items, double dt, mf_thread_pool *pool,
                             double *gpu_ms)
{
    (void)g, (void)items, (void)dt, (void)pool, (void)gpu_ms;
    return MF_ERR_UNSUPPORTED;
}

void mf_bench_gpu_finish(mf_bench_gpu *g, mf_bench_result *r, const mf_skel_data *d, bool check,
                         const mf_batch_item *items)
{
    (void)g, (void)r, (void)d, (void)check, (void)items;
}
double mf_bench_gpu_wait_end(const mf_bench_gpu *g) { (void)g; return 0; }
bool mf_bench_gpu_capped(const mf_bench_gpu *g) { (void)g; return false; }

void mf_bench_gpu_free(mf_bench_gpu *g) { (void)g; }
#endif
