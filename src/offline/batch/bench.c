/* The benchmark engine: build in memory, N staggered instances, per-stage medians, allocations
 * counted through the runtime's allocator hooks (every runtime allocation goes through them). */
#define _POSIX_C_SOURCE 200809L
#include "batch/bench.h"
#include "batch/bench_gpu.h"
#include "mf/mf_instance_arena.h"
#include "mf/mf_physics.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "mf/mf_build.h"
#include "mf/mf_draw_batch.h"
#include "mf/mf_rig.h"
#include "util/files.h"
#include "util/suggest.h"

static atomic_llong g_allocs, g_bytes, g_live;

/* The process's resident bytes (/proc/self/statm's second field), -1 where unknown. */
static int64_t resident_now(void)
{
    FILE *f = fopen("/proc/self/statm", "r");
    long long size = 0, pages = -1;
    if (f) {
        if (fscanf(f, "%lld %lld", &size, &pages) != 2) pages = -1;
        fclose(f);
    }
    long page = sysconf(_SC_PAGESIZE);
    return pages >= 0 && page > 0 ? (int64_t)pages * page : -1;
}

/* Each block carries its size in a 16-byte head (alignment kept) so that frees count too. */
static void *count_alloc(void *user, size_t n)
{
    (void)user;
    atomic_fetch_add(&g_allocs, 1);
    atomic_fetch_add(&g_bytes, (long long)n);
    atomic_fetch_add(&g_live, (long long)n);
    unsigned char *p = n <= SIZE_MAX - 16 ? malloc(n + 16) : NULL;
    if (!p) return NULL;
    memcpy(p, &n, sizeof n);
    return p + 16;
}
static void count_free(void *user, void *p)
{
    (void)user;
    if (!p) return;
    size_t n;
    memcpy(&n, (unsigned char *)p - 16, sizeof n);
    atomic_fetch_sub(&g_live, (long long)n);
    free((unsigned char *)p - 16);
}

double mf_bench_now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec * 1e-3;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}
static double median(double *v, int32_t n)
{
    if (n <= 0) return 0;
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

typedef struct names_ctx {
    const mf_skel_data *d;
    bool skins;
} names_ctx;
static const char *name_at(const void *ctx, int i)
{
    const names_ctx *c = ctx;
    return mf_skel_data_string(c->d, c->skins ? c->d->skins[i].name : c->d->clips[i].name);
}

/* JSON parse vs binary load, each a median of several runs. */
static mf_result time_loads(const mf_bench_config *cfg, const void *blob, size_t size, mf_bench_result *r,
                            mf_diag *diag)
{
    enum { PARSES = 5, LOADS = 200 };
    double t[LOADS];
    for (int32_t k = 0; k < PARSES; k++) {
        mf_rig rig;
        double t0 = mf_bench_now_us();
        if (mf_rig_load(cfg->rig, &rig, diag) != MF_OK) return MF_ERR_INVALID;
        t[k] = mf_bench_now_us() - t0;
        mf_rig_free(&rig);
    }
    r->json_parse_us = median(t, PARSES);
    mf_skel_data data;
    for (int32_t k = 0; k < LOADS; k++) {
        double t0 = mf_bench_now_us();
        mf_result res = mf_skel_data_load(blob, size, &data, diag);
        t[k] = mf_bench_now_us() - t0;
        if (res != MF_OK) return res;
    }
    r->build_load_us = median(t, LOADS);
    /* from a file: read + load, as a game would */
    char path[] = "/tmp/mfe-bench-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0) return MF_OK; /* no temp dir: leave the file figure at 0 */
    close(fd);
    if (mf_write_file_atomic(path, blob, size, diag) == MF_OK) {
        for (int32_t k = 0; k < LOADS; k++) {
            char *bytes = NULL;
            size_t len = 0;
            double t0 = mf_bench_now_us();
            mf_result res = mf_read_file(path, &bytes, &len, diag);
            if (res == MF_OK) res = mf_skel_data_load(bytes, len, &data, diag);
            t[k] = mf_bench_now_us() - t0;
            free(bytes);
            if (res != MF_OK) break;
        }
        r->build_file_load_us = median(t, LOADS);
    }
    unlink(path);
    return MF_OK;
}

/* Everything an instance owns. */
typedef struct instance {
    mf_pose *pose;
    mf_tracks *tracks;
    mf_draw_list *draw;
} instance;

/* An arena's alloc (user: the arena) counted as count_alloc counts a heap block: one allocation,
 * the bytes the arena hands out for it. The arena's chunks come from the counted heap too: held()
 * and the setup bytes take them out again (what the arena reserved). */
static void *arena_count_alloc(void *user, size_t n)
{
    size_t before = 0, after = 0;
    mf_instance_arena_usage(user, &before, NULL);
    void *p = mf_instance_arena_allocator(user).alloc(user, n);
    mf_instance_arena_usage(user, &after, NULL);
    atomic_fetch_add(&g_allocs, 1);
    atomic_fetch_add(&g_bytes, (long long)(after - before));
    atomic_fetch_add(&g_live, (long long)(after - before));
    return p;
}

/* Bytes held by instances: the live bytes, less the arena's chunks (its blocks are counted). */
static long long held(const mf_instance_arena *arena)
{
    size_t reserved = 0;
    mf_instance_arena_usage(arena, NULL, &reserved);
    return atomic_load(&g_live) - (long long)reserved;
}

/* Bytes held and allocations made since *mark into part k of the result. */
static void count_part(mf_bench_result *r, const mf_instance_arena *arena, int32_t k, long long mark[2])
{
    long long b = held(arena), n = atomic_load(&g_allocs);
    r->instance_bytes[k] = b - mark[0], r->instance_allocs[k] = n - mark[1];
    mark[0] = b, mark[1] = n;
}

static mf_result setup(const mf_bench_config *cfg, const mf_skel_data *d, int32_t clip, const mf_allocator *heap,
                       mf_instance_arena *arena, mf_skin_cache *cache, const mf_tracks_shared *shared, const int32_t *skins,
                       instance *inst, mf_bench_result *r, mf_diag *diag)
{
    mf_tracks_config tc = {.shared = shared}; /* the clip tables once for all instances, as a game would */
    float length = d->clips[clip].length;
    mf_allocator counted = mf_instance_arena_allocator(arena);
    counted.alloc = arena_count_alloc;
    const mf_allocator *al = arena ? &counted : heap;
    long long mark[2] = {held(arena), atomic_load(&g_allocs)};
    for (int32_t i = 0; i < cfg->instances; i++) {
        instance *it = &inst[i];
        if (mf_pose_create(d, al, &it->pose, diag) != MF_OK) return MF_ERR_NOMEM;
        if (i == 0) count_part(r, arena, 0, mark);
        (void)mf_pose_set_simd(it->pose, cfg->simd); /* cfg->simd is a valid level (the caller's parse) */
        mf_pose_set_slot_tracking(it->pose, cfg->track_slots);
        r->simd = mf_pose_simd(it->pose);
        if (mf_tracks_create(d, &tc, al, &it->tracks) != MF_OK) return MF_ERR_NOMEM;
        if (i == 0) count_part(r, arena, 1, mark);
        if (mf_draw_list_create(d, al, &it->draw) != MF_OK) return MF_ERR_NOMEM;
        if (i == 0) count_part(r, arena, 2, mark);
        if (cfg->skin_count > 0 && mf_pose_set_skins(it->pose, cache, skins, cfg->skin_count, diag) != MF_OK)
            return MF_ERR_INVALID;
        mf_entry_handle h = mf_tracks_set(it->tracks, 0, clip, true);
        mf_track_entry *e = mf_tracks_entry(it->tracks, h);
        if (e) e->track_time = (double)length * i / cfg->instances; /* staggered */
    }
    return MF_OK;
}

/* noinline: profilers collect per-frame work by this name */
__attribute__((noinline)) static void frame_single(const mf_bench_config *cfg, instance *inst, float *buf,
                         int32_t buf_cap, double dt, double st[MF_BENCH_STAGES], int64_t *verts)
{
    double t0 = mf_bench_now_us();
    for (int32_t i = 0; i < cfg->instances; i++) {
        mf_tracks_update(inst[i].tracks, dt);
        mf_tracks_apply(inst[i].tracks, inst[i].pose);
    }
    double t1 = mf_bench_now_us();
    for (int32_t i = 0; i < cfg->instances; i++) {
        mf_pose_physics_step(inst[i].pose, dt); /* physics constraints step as a game's would */
        mf_pose_update_world(inst[i].pose);
    }
    double t2 = mf_bench_now_us();
    int64_t nv = 0;
    for (int32_t i = 0; i < cfg->instances; i++) {
        int32_t n = mf_pose_world_vertices_all(inst[i].pose, buf, buf_cap, NULL); /* -1: never, buf has the cap */
        nv += n > 0 ? n : 0;
    }
    double t3 = mf_bench_now_us();
    for (int32_t i = 0; i < cfg->instances; i++) mf_draw_list_build(inst[i].draw, inst[i].pose);
    double t4 = mf_bench_now_us();
    st[MF_BENCH_TRACKS] = t1 - t0, st[MF_BENCH_WORLD] = t2 - t1;
    st[MF_BENCH_VERTICES] = t3 - t2, st[MF_BENCH_DRAW] = t4 - t3;
    *verts = nv;
}

/* Per instance: its view and the batch's state. */
typedef struct bench_cull {
    float view[4];
    mf_batch_state state;
} bench_cull;

/* Views for the culling run: on screen, the clip's box (what a camera framing the skeleton
 * sees); off screen, the same box moved beside it by twice its width. Off-screen instances are
 * spread evenly over the staggered ones. */
static void set_views(const mf_bench_config *cfg, mf_batch_item *items, bench_cull *cull)
{
    float b[4] = {-1, -1, 1, 1};
    mf_tracks_bounds(items[0].tracks, b);
    float shift = 2 * (b[2] - b[0]) + 1;
    int64_t p = cfg->offscreen_percent;
    for (int32_t i = 0; i < cfg->instances; i++) {
        bool off = (int64_t)(i + 1) * p / 100 > (int64_t)i * p / 100; /* p of every 100, evenly */
        cull[i].view[0] = b[0] + (off ? shift : 0), cull[i].view[1] = b[1];
        cull[i].view[2] = b[2] + (off ? shift : 0), cull[i].view[3] = b[3];
        items[i].view = cull[i].view;
        items[i].state = &cull[i].state;
        items[i].offscreen = MF_OFFSCREEN_TIME_ONLY;
    }
}

/* The merge of one frame: the drawn instances' lists into one batch, each on its grid cell. */
static double merge_frame(mf_draw_batch *b, const mf_skel_data *d, const instance *inst, int32_t n,
                          const bench_cull *cull, const float *xf)
{
    double t0 = mf_bench_now_us();
    mf_draw_batch_begin(b);
    for (int32_t i = 0; i < n; i++)
        if (!cull || !cull[i].state.culled) mf_draw_batch_add(b, inst[i].draw, d, xf + 6 * i);
    return mf_bench_now_us() - t0;
}

/* A batch large enough for every instance's worst case (never overflows), and the grid. */
static mf_draw_batch *merge_setup(const mf_bench_config *cfg, const mf_skel_data *d, const instance *inst, float **xf)
{
    const mf_draw_list *dl = inst[0].draw;
    int64_t n = cfg->instances, v = n * dl->vertex_cap, ix = n * dl->index_cap, c = n * d->slot_count + 1;
    *xf = malloc((size_t)n * 6 * sizeof(float));
    mf_draw_batch *b = NULL;
    mf_draw_batch_desc desc = {.max_vertices = (int32_t)(v > 0 ? v : 1), .max_indices = (int32_t)(ix > 0 ? ix : 1),
                               .max_calls = (int32_t)c, .alloc = {.alloc = count_alloc, .free = count_free}};
    if (!*xf || v > 0x7fffffff / 2 || ix > 0x7fffffff / 2 || c > 0x7fffffff || mf_draw_batch_create(&desc, &b) != MF_OK)
        return NULL;
    for (int32_t i = 0; i < cfg->instances; i++) {
        float m[6] = {1, 0, 0, 1, 400.0f * (float)(i % 20), 600.0f * (float)(i / 20)};
        memcpy(*xf + 6 * i, m, sizeof m);
    }
    return b;
}

/* resident0: resident_now() before setup (-1: unknown). */
static mf_result run_frames(const mf_bench_config *cfg, const mf_skel_data *d, const int32_t *skins, instance *inst,
                            mf_bench_result *r, int64_t resident0, mf_diag *diag)
{
    int32_t cap = mf_skel_data_world_vertex_cap(d);
    if (cap < 1) cap = 1; /* never 0 (malloc) */
    if (cap > (1 << 26)) return mf_diag_set(diag, cfg->rig, "", "%d world vertices a pose is beyond the bench", (int)cap), MF_ERR_INVALID;
    float *buf = malloc((size_t)cap * 2 * sizeof(float));
    double *per[MF_BENCH_STAGES + 1];
    mf_batch_item *items = malloc((size_t)cfg->instances * sizeof *items);
    bench_cull *cull = cfg->cull ? calloc((size_t)cfg->instances, sizeof *cull) : NULL;
    float *xf = NULL;
    mf_draw_batch *merge = cfg->merge ? merge_setup(cfg, d, inst, &xf) : NULL;
    double *merge_t = cfg->merge ? calloc((size_t)cfg->frames, sizeof(double)) : NULL;
    mf_bench_gpu *gpu = NULL;
    bool gpu_failed = false;
    double *gpu_t = cfg->gpu ? calloc(2 * (size_t)cfg->frames, sizeof(double)) : NULL;
    mf_draw_list **lists = cfg->gpu ? malloc((size_t)cfg->instances * sizeof *lists) : NULL;
    for (int32_t i = 0; lists && i < cfg->instances; i++) lists[i] = inst[i].draw;
    mf_result gpu_res = !cfg->gpu ? MF_OK
                        : lists ? mf_bench_gpu_setup(cfg->rig, cfg->gpu, cfg->gpu_check, cfg->gpu_world, d, skins, cfg->skin_count, lists, cfg->instances,
                                                     cfg->threads, &gpu, diag)
                                : MF_ERR_NOMEM;
    bool ok = gpu_res == MF_OK && buf && items && (!cfg->cull || cull) && (!cfg->merge || (merge && merge_t)) &&
              (!cfg->gpu || gpu_t);
    for (int32_t s = 0; s <= MF_BENCH_STAGES; s++) ok = (per[s] = calloc((size_t)cfg->frames, sizeof(double))) && ok;
    mf_thread_pool *pool = NULL;
    if (ok && cfg->threads > 1 && mf_thread_pool_create(cfg->threads, &pool) != MF_OK) ok = false;
    if (!ok) {
        if (gpu_res == MF_OK) /* else the GPU setup said what failed */
            mf_diag_set(diag, cfg->rig, "", "out of memory (or threads) for %d instances", cfg->instances);
    } else {
        for (int32_t i = 0; i < cfg->instances; i++)
            /* GPU skinning builds a list only on the frames an instance shows a clip (bench_gpu.c) */
            items[i] = (mf_batch_item){.tracks = inst[i].tracks, .pose = inst[i].pose,
                                       .draw = gpu || cfg->draw == MF_BENCH_DRAW_NONE ? NULL : inst[i].draw,
                                       .draw_items_only = cfg->draw == MF_BENCH_DRAW_ITEMS,
                                       .world_on_gpu = gpu && cfg->gpu_world};
        if (cull) set_views(cfg, items, cull);
        bool batch = pool || cull || gpu || cfg->batch || cfg->draw != MF_BENCH_DRAW_FULL;
        const double dt = 1.0 / 60.0;
        double total_mean = 0, st[MF_BENCH_STAGES] = {0};
        int64_t verts = 0, verts_sum = 0;
        for (int32_t f = -cfg->warmup; f < cfg->frames; f++) {
            if (f == 0) atomic_store(&g_allocs, 0), atomic_store(&g_bytes, 0); /* from the heap or the arena */
            double total;
            if (gpu) {
                total = 0; /* the update runs in the GPU frame below, part by part */
            } else if (batch) {
                double t0 = mf_bench_now_us();
                mf_batch_update_with(items, cfg->instances, dt, pool ? mf_thread_pool_dispatch : NULL, pool,
                                     &(mf_batch_options){.prefetch_min = cfg->prefetch_min});
                total = mf_bench_now_us() - t0;
            } else {
                frame_single(cfg, inst, buf, cap, dt, st, &verts);
                total = st[MF_BENCH_TRACKS] + st[MF_BENCH_WORLD] + st[MF_BENCH_DRAW];
            }
            double mt = merge ? merge_frame(merge, d, inst, cfg->instances, cull, xf) : 0;
            double gt = 0, gms = -1;
            if (gpu) {
                double t0 = mf_bench_now_us();
                mf_result gr = mf_bench_gpu_frame(gpu, items, dt, pool, &gms);
                double t1 = mf_bench_now_us();
                gt = t1 - mf_bench_gpu_wait_end(gpu); /* update, adds, submit: not the wait for a slot */
                total += t1 - t0;
                if (gr != MF_OK) {
                    mf_diag_set(diag, cfg->rig, "--gpu", "the GPU batch failed (%s)%s", mf_result_name(gr),
                                gr == MF_ERR_NOMEM && mf_bench_gpu_capped(gpu)
                                    ? ": a frame clipped more than batches the device's storage range allows hold; "
                                      "fewer instances or more --threads"
                                    : "");
                    ok = false, gpu_failed = true;
                    break;
                }
            }
            if (f < 0) continue;
            if (gpu) gpu_t[f] = gt, gpu_t[cfg->frames + f] = gms;
            if (merge) merge_t[f] = mt;
            for (int32_t s = 0; s < MF_BENCH_STAGES; s++) per[s][f] = st[s];
            per[MF_BENCH_STAGES][f] = total;
            total_mean += total, verts_sum += verts;
        }
        if (gpu) {
            mf_bench_gpu_finish(gpu, r, d, cfg->gpu_check, items);
            r->gpu_add_us = median(gpu_t, cfg->frames);
            /* a frame's GPU time is known one frame-in-flight later: the first ones have none */
            int32_t known = 0;
            for (int32_t f = 0; f < cfg->frames; f++)
                if (gpu_t[cfg->frames + f] >= 0) gpu_t[cfg->frames + known++] = gpu_t[cfg->frames + f];
            r->gpu_ms = known ? median(gpu_t + cfg->frames, known) : -1;
        }
        int64_t resident1 = resident_now();
        r->resident_bytes = resident0 >= 0 && resident1 >= 0 ? resident1 - resident0 : -1;
        r->allocations_per_frame = (double)atomic_load(&g_allocs) / cfg->frames;
        r->bytes_per_frame = (double)atomic_load(&g_bytes) / cfg->frames;
        r->frame_mean_us = total_mean / cfg->frames;
        r->vertices_per_frame = (double)verts_sum / cfg->frames;
        for (int32_t s = 0; s < MF_BENCH_STAGES; s++) r->stage_us[s] = batch ? 0 : median(per[s], cfg->frames);
        r->frame_us = median(per[MF_BENCH_STAGES], cfg->frames);
        r->us_per_skeleton_frame = r->frame_us / cfg->instances;
        r->spine_equivalent_us =
            batch ? 0 : (r->stage_us[0] + r->stage_us[1] + r->stage_us[2]) / cfg->instances;
        for (int32_t i = 0; i < cfg->instances; i++) {
            bool culled = cull && cull[i].state.culled; /* it keeps the list of its last drawn frame */
            r->culled += culled;
            if (inst[i].draw && !culled) r->draw_items += inst[i].draw->item_count;
        }
        if (merge) {
            r->merge_us = median(merge_t, cfg->frames);
            r->merge_batches = merge->call_count, r->merge_vertices = merge->vertex_count;
        }
        for (int32_t i = 0; i < cfg->instances; i++)
            r->bones_computed += inst[i].pose->bones_computed, r->bones_kept += inst[i].pose->bones_kept, r->trig_computed += inst[i].pose->trig_computed;
    }
    mf_thread_pool_destroy(pool);
    mf_draw_batch_destroy(merge);
    mf_bench_gpu_free(gpu);
    free(gpu_t);
    free(lists);
    free(merge_t);
    free(xf);
    for (int32_t s = 0; s <= MF_BENCH_STAGES; s++) free(per[s]);
    free(items);
    free(cull);
    free(buf);
    return ok ? MF_OK : gpu_res != MF_OK ? gpu_res : gpu_failed ? MF_ERR_UNSUPPORTED : MF_ERR_NOMEM;
}

mf_result mf_bench_run(const mf_bench_config *cfg, mf_bench_result *r, mf_diag *diag)
{
    memset(r, 0, sizeof *r);
    if (!cfg || !cfg->rig || !cfg->clip || cfg->instances < 1 || cfg->frames < 1 || cfg->threads < 1)
        return MF_ERR_ARGUMENT;
    if (cfg->gpu_world && !cfg->gpu) {
        mf_diag_set(diag, cfg->rig, "--gpu-world", "the world on the GPU needs GPU skinning (--gpu or --gpu-cpu)");
        return MF_ERR_ARGUMENT;
    }
    if (cfg->merge && cfg->gpu) { /* the GPU path leaves the lists unbuilt: a merge would read stale ones */
        mf_diag_set(diag, cfg->rig, "--merge", "merges the CPU's draw lists: not with --gpu");
        return MF_ERR_ARGUMENT;
    }
    if (cfg->draw < MF_BENCH_DRAW_FULL || cfg->draw > MF_BENCH_DRAW_NONE) {
        mf_diag_set(diag, cfg->rig, "--draw", "unknown draw mode %d", cfg->draw);
        return MF_ERR_ARGUMENT;
    }
    if (cfg->draw != MF_BENCH_DRAW_FULL && (cfg->merge || cfg->gpu)) { /* both need whole lists, or build their own */
        mf_diag_set(diag, cfg->rig, "--draw", "items or none: not with %s", cfg->merge ? "--merge" : "--gpu");
        return MF_ERR_ARGUMENT;
    }
    mf_rig rig;
    if (mf_rig_load(cfg->rig, &rig, diag) != MF_OK) return MF_ERR_INVALID;
    void *blob = NULL;
    size_t size = 0;
    mf_result res;
    if (cfg->merge) { /* pages as a game draws them: the rig's atlas, packed in memory */
        mf_build_atlas atlas;
        memset(&atlas, 0, sizeof atlas);
        res = mf_build_atlas_make(rig.sk, cfg->rig, "bench", &atlas, NULL, NULL, diag);
        if (res == MF_OK)
            res = mf_build_skeleton_atlas(rig.sk, cfg->rig, (const mf_clip *const *)rig.clips,
                                          (const char *const *)rig.clip_paths, rig.clip_count, &atlas, &blob, &size, diag);
        mf_build_atlas_free(&atlas);
    } else {
        res = mf_build_skeleton(rig.sk, (const mf_clip *const *)rig.clips, rig.clip_count, &blob, &size, diag);
    }
    mf_rig_free(&rig);
    if (res != MF_OK) return res;
    r->build_bytes = size;
    mf_skel_data d;
    instance *inst = calloc((size_t)cfg->instances, sizeof *inst);
    int32_t *skins = calloc((size_t)cfg->skin_count + 1, sizeof *skins);
    mf_skin_cache *cache = NULL;
    mf_tracks_shared *shared = NULL;
    mf_instance_arena *arena = NULL;
    mf_allocator al = {.alloc = count_alloc, .free = count_free};
    if (!inst || !skins) {
        mf_diag_set(diag, cfg->rig, "", "out of memory for %d instances", cfg->instances);
        res = MF_ERR_NOMEM;
        goto done;
    }
    if ((res = mf_skel_data_load(blob, size, &d, diag)) != MF_OK) goto done;
    r->bones = d.bone_count, r->slots = d.slot_count, r->instances = cfg->instances, r->pages = d.page_count;
    r->frames = cfg->frames, r->threads = cfg->threads;
    int32_t clip = mf_skel_data_find_clip(&d, cfg->clip);
    if (clip < 0) {
        char sfx[160];
        names_ctx nc = {&d, false};
        mf_suggest_suffix(sfx, sizeof sfx, mf_suggest(cfg->clip, d.clip_count, name_at, &nc));
        mf_diag_set(diag, cfg->rig, "--clip", "no clip \"%s\"%s", cfg->clip, sfx);
        res = MF_ERR_ARGUMENT;
        goto done;
    }
    for (int32_t k = 0; k < cfg->skin_count; k++) {
        skins[k] = mf_skel_data_find_skin(&d, cfg->skins[k]);
        if (skins[k] < 0) {
            char sfx[160];
            names_ctx nc = {&d, true};
            mf_suggest_suffix(sfx, sizeof sfx, mf_suggest(cfg->skins[k], d.skin_count, name_at, &nc));
            mf_diag_set(diag, cfg->rig, "--skin", "no skin \"%s\"%s", cfg->skins[k], sfx);
            res = MF_ERR_ARGUMENT;
            goto done;
        }
    }
    atomic_store(&g_allocs, 0), atomic_store(&g_bytes, 0);
    int64_t resident0 = resident_now();
    if ((!cfg->heap && (res = mf_instance_arena_create(&(mf_instance_arena_desc){.backing = al}, &arena)) != MF_OK) ||
        (res = mf_skin_cache_create(&d, &al, &cache)) != MF_OK ||
        (res = mf_tracks_shared_create(&d, &al, &shared)) != MF_OK ||
        (res = setup(cfg, &d, clip, &al, arena, cache, shared, skins, inst, r, diag)) != MF_OK) {
        if (res == MF_ERR_NOMEM) mf_diag_set(diag, cfg->rig, "", "out of memory for %d instances", cfg->instances);
        goto done;
    }
    r->setup_allocations = atomic_load(&g_allocs); /* chunks and arena blocks both */
    size_t arena_reserved = 0;
    mf_instance_arena_usage(arena, NULL, &arena_reserved);
    r->setup_bytes = atomic_load(&g_bytes) - (long long)arena_reserved;
    if ((res = run_frames(cfg, &d, skins, inst, r, resident0, diag)) != MF_OK) goto done;
    if (cfg->load_times) res = time_loads(cfg, blob, size, r, diag);
done:
    for (int32_t i = 0; inst && i < cfg->instances; i++) {
        mf_draw_list_destroy(inst[i].draw);
        mf_tracks_destroy(inst[i].tracks);
        mf_pose_destroy(inst[i].pose);
    }
    mf_skin_cache_destroy(cache);
    mf_tracks_shared_destroy(shared);
    mf_instance_arena_destroy(arena);
    free(inst);
    free(skins);
    free(blob);
    return res;
}

/* The output floor (bench.h): n blocks written by the pool, nothing else. */
typedef struct floor_job {
    float **blocks;
    int32_t floats;
    float scale;
} floor_job;

static void floor_chunk(void *user, int32_t first, int32_t count)
{
    const floor_job *j = user;
    for (int32_t i = first; i < first + count; i++) {
        float *v = j->blocks[i];
        for (int32_t k = 0; k < j->floats; k++) v[k] = (float)k * j->scale;
    }
}

double mf_bench_output_floor(int32_t n, int32_t threads, int32_t frames, size_t block_bytes, int32_t floats)
{
    float **blocks = calloc((size_t)n, sizeof *blocks);
    double *t = calloc((size_t)frames, sizeof *t);
    mf_thread_pool *pool = NULL;
    bool ok = blocks && t && (threads < 2 || mf_thread_pool_create(threads, &pool) == MF_OK);
    for (int32_t i = 0; ok && i < n; i++) ok = (blocks[i] = calloc(1, block_bytes)) != NULL;
    double med = -1;
    if (ok) {
        floor_job job = {blocks, floats, 0.5f};
        for (int32_t f = -10; f < frames; f++) {
            double t0 = mf_bench_now_us();
            mf_thread_pool_dispatch(pool, floor_chunk, &job, n);
            if (f >= 0) t[f] = mf_bench_now_us() - t0;
            job.scale += 0.25f;
        }
        med = median(t, frames);
    }
    mf_thread_pool_destroy(pool);
    for (int32_t i = 0; blocks && i < n; i++) free(blocks[i]);
    free(blocks);
    free(t);
    return med;
}
