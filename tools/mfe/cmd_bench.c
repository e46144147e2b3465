/* mfe skel bench RIG.mskel --clip NAME [--skin S…] [--instances N] [--frames F] [--threads T]
 * [--offscreen P%] [--prefetch-min K|off] [--simd LEVEL] [--draw full|items|none] [--track-slots] [--merge] [--heap]
 * [--gpu | --gpu-cpu [--gpu-world] [--gpu-check]] [--json]: times N staggered
 * instances of a looping clip per stage (batch/bench.h); --offscreen runs them through the batch with views, P % off
 * screen; --gpu skins them on a GPU (mf_gpu.h; --gpu-cpu: on a CPU implementation, lavapipe); --gpu-world
 * computes their world transforms there too (physics constraints too: a state an instance;
 * --gpu-check then poses a CPU twin of each beside it);
 * --merge (not with --gpu) merges the drawn instances' lists into one mf_draw_batch a frame (atlas pages built);
 * --heap places every instance block by malloc instead of the hot parts in one
 * mf_instance_arena; --prefetch-min sets the batch path's prefetch threshold (mf_batch_options);
 * --simd caps every pose's SIMD paths (mf_pose_set_simd: same bits, other speed); --draw items
 * builds each frame's draw lists without their vertices (what the CPU does for a GPU skinner),
 * --draw none builds none (posing only), --draw full whole lists; any --draw runs through the
 * batch, so that the three compare; --track-slots turns every pose's slot tracking on
 * (mf_pose_set_slot_tracking: builds keep their items while no slot changes). */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mf/mf_batch.h"
#include "batch/bench.h"
#include "cli.h"

#define MAX_SKINS 32
static const char *STAGE_NAMES[MF_BENCH_STAGES] = {"tracks_sampling", "update_world", "world_vertices",
                                                   "draw_runs"};

static const char *DRAW_NAMES[] = {"full", "items", "none"}; /* MF_BENCH_DRAW_* */

static int usage(const char *fmt, const char *arg) { return mfe_usage_error("skel", "bench", fmt, arg); }

/* Whether the run timed its stages apart (one thread, stage by stage, not through the batch). */
static bool staged(const mf_bench_config *c, const mf_bench_result *r)
{
    return r->threads == 1 && !c->cull && !c->gpu && !c->batch;
}

/* The batch path, and not the GPU's: its prefetch threshold applies. */
static bool batched(const mf_bench_config *c, const mf_bench_result *r)
{
    return (r->threads > 1 || c->cull || c->batch) && !c->gpu;
}

/* A percentage "0".."100", "%" optional; -1 when it is not one. */
static int32_t percent_arg(const char *s)
{
    char *end = NULL;
    long v = strtol(s, &end, 10);
    if (end == s || !end || (*end != '\0' && strcmp(end, "%") != 0) || v < 0 || v > 100) return -1;
    return (int32_t)v;
}

/* A positive integer option value, or -1. */
static int32_t int_arg(const char *s, int32_t max)
{
    char *end = NULL;
    long v = strtol(s, &end, 10);
    return (end && *end == '\0' && v >= 1 && v <= max) ? (int32_t)v : -1;
}

static double r3(double v) { return (double)(long long)(v * 1000.0 + 0.5) / 1000.0; }

static int print_json(const mf_bench_config *c, const mf_bench_result *r)
{
    cJSON *o = cJSON_CreateObject(), *st = cJSON_CreateObject(), *ld = cJSON_CreateObject();
    cJSON *sk = cJSON_CreateArray();
    if (!o || !st || !ld || !sk) {
        cJSON_Delete(o), cJSON_Delete(st), cJSON_Delete(ld), cJSON_Delete(sk);
        fprintf(stderr, "mfe skel bench: out of memory\n");
        return MFE_USAGE;
    }
    cJSON_AddStringToObject(o, "rig", c->rig);
    cJSON_AddStringToObject(o, "clip", c->clip);
    for (int32_t i = 0; i < c->skin_count; i++) cJSON_AddItemToArray(sk, cJSON_CreateString(c->skins[i]));
    cJSON_AddItemToObject(o, "skins", sk);
    cJSON_AddNumberToObject(o, "bones", r->bones);
    cJSON_AddNumberToObject(o, "slots", r->slots);
    cJSON_AddNumberToObject(o, "instances", r->instances);
    cJSON_AddNumberToObject(o, "frames", r->frames);
    cJSON_AddNumberToObject(o, "threads", r->threads);
    cJSON_AddStringToObject(o, "instance_memory", c->heap ? "heap" : "arena");
    cJSON_AddStringToObject(o, "simd", mfe_simd_name(r->simd));
    cJSON_AddBoolToObject(o, "slot_tracking", c->track_slots);
    if (c->cull) {
        cJSON_AddNumberToObject(o, "offscreen_percent", c->offscreen_percent);
        cJSON_AddNumberToObject(o, "culled", r->culled);
    }
    if (!c->gpu) { /* the GPU path builds its lists its own way (bench_gpu.c) */
        cJSON_AddStringToObject(o, "draw", DRAW_NAMES[c->draw]);
        cJSON_AddNumberToObject(o, "draw_items_last_frame", (double)r->draw_items);
    }
    if (batched(c, r)) /* the batch path: from how many items it gave hints (-1 never) */
        cJSON_AddNumberToObject(o, "prefetch_min", c->prefetch_min == 0 ? MF_BATCH_PREFETCH_MIN : c->prefetch_min);
    cJSON_AddNumberToObject(o, "us_per_skeleton_frame", r3(r->us_per_skeleton_frame));
    cJSON_AddNumberToObject(o, "us_per_frame", r3(r->frame_us));
    cJSON_AddNumberToObject(o, "us_per_frame_mean", r3(r->frame_mean_us));
    if (staged(c, r)) {
        cJSON_AddNumberToObject(o, "us_spine_equivalent", r3(r->spine_equivalent_us));
        for (int32_t s = 0; s < MF_BENCH_STAGES; s++)
            cJSON_AddNumberToObject(st, STAGE_NAMES[s], r3(r->stage_us[s] / r->instances));
        cJSON_AddNumberToObject(o, "world_vertices_per_frame", r->vertices_per_frame);
    }
    cJSON_AddItemToObject(o, "stages_us_per_skeleton_frame", st);
    if (c->merge) {
        cJSON *m = cJSON_AddObjectToObject(o, "merge");
        if (m) {
            cJSON_AddNumberToObject(m, "pages", r->pages);
            cJSON_AddNumberToObject(m, "batches_per_frame", r->merge_batches);
            cJSON_AddNumberToObject(m, "vertices_per_frame", r->merge_vertices);
            cJSON_AddNumberToObject(m, "us_per_frame", r3(r->merge_us));
        }
    }
    if (c->gpu) {
        cJSON *g = cJSON_AddObjectToObject(o, "gpu");
        if (g) {
            cJSON_AddStringToObject(g, "device", r->gpu_device);
            cJSON_AddBoolToObject(g, "world_on_gpu", c->gpu_world);
            cJSON_AddNumberToObject(g, "cpu_us_per_frame", r3(r->gpu_add_us));
            if (r->gpu_ms >= 0) cJSON_AddNumberToObject(g, "gpu_ms_per_frame", r3(r->gpu_ms));
            cJSON_AddNumberToObject(g, "upload_bytes_per_frame", r->gpu_upload_bytes);
            cJSON_AddNumberToObject(g, "items_skinned_per_frame", r->gpu_items);
            cJSON_AddNumberToObject(g, "items_clipped_per_frame", r->gpu_clipped);
            cJSON_AddNumberToObject(g, "vertices_per_frame", r->gpu_vertices);
            if (c->gpu_check) {
                cJSON_AddNumberToObject(g, "checked_vertices", (double)r->gpu_checked_vertices);
                cJSON_AddNumberToObject(g, "max_position_error", r->gpu_max_error);
                cJSON_AddNumberToObject(g, "mismatches", (double)r->gpu_mismatches);
                if (c->gpu_world) { /* bones read back from the GPU (mf_gpu_batch_read_world) */
                    cJSON_AddNumberToObject(g, "checked_bones", (double)r->gpu_checked_bones);
                    cJSON_AddNumberToObject(g, "max_bone_position_error", r->gpu_max_bone_error);
                    cJSON_AddNumberToObject(g, "max_bone_matrix_error", r->gpu_max_bone_m_error);
                }
            }
        }
    }
    cJSON_AddNumberToObject(o, "allocations_per_frame", r->allocations_per_frame);
    cJSON_AddNumberToObject(o, "bytes_allocated_per_frame", r->bytes_per_frame);
    cJSON_AddNumberToObject(o, "setup_allocations", (double)r->setup_allocations);
    cJSON_AddNumberToObject(o, "setup_bytes", (double)r->setup_bytes);
    cJSON_AddNumberToObject(o, "setup_bytes_per_instance", r->instances > 0 ? (double)(r->setup_bytes / r->instances) : 0);
    cJSON *ib = cJSON_AddObjectToObject(o, "instance_bytes"); /* the first instance's parts, as created */
    if (ib) {
        cJSON_AddNumberToObject(ib, "pose", (double)r->instance_bytes[0]);
        cJSON_AddNumberToObject(ib, "tracks", (double)r->instance_bytes[1]);
        cJSON_AddNumberToObject(ib, "draw_list", (double)r->instance_bytes[2]);
    }
    if (r->resident_bytes >= 0)
        cJSON_AddNumberToObject(o, "resident_bytes_per_instance", r->instances > 0 ? (double)(r->resident_bytes / r->instances) : 0);
    cJSON_AddNumberToObject(o, "bones_computed", (double)r->bones_computed);
    cJSON_AddNumberToObject(o, "bones_kept", (double)r->bones_kept);
    cJSON_AddNumberToObject(o, "trig_computed", (double)r->trig_computed);
    cJSON_AddNumberToObject(ld, "build_bytes", (double)r->build_bytes);
    cJSON_AddNumberToObject(ld, "json_parse_us", r3(r->json_parse_us));
    cJSON_AddNumberToObject(ld, "build_load_us", r3(r->build_load_us));
    cJSON_AddNumberToObject(ld, "build_file_load_us", r3(r->build_file_load_us));
    cJSON_AddNumberToObject(ld, "speedup", r->build_file_load_us > 0 ? r3(r->json_parse_us / r->build_file_load_us) : 0);
    cJSON_AddItemToObject(o, "load", ld);
    char *text = cJSON_Print(o);
    cJSON_Delete(o);
    if (!text) return MFE_USAGE;
    printf("%s\n", text);
    free(text);
    return MFE_OK;
}

static void print_text(const mf_bench_config *c, const mf_bench_result *r)
{
    printf("%s --clip %s: %d bones, %d slots; %d instances x %d frames, %d thread%s; %s; simd %s%s\n", c->rig, c->clip,
           r->bones, r->slots, r->instances, r->frames, r->threads, r->threads == 1 ? "" : "s",
           c->heap ? "instances on the heap" : "instances' hot parts in one arena", mfe_simd_name(r->simd),
           c->track_slots ? "; slot tracking" : "");
    printf("  %.3f us per skeleton-frame (%.1f us per frame, median; mean %.1f)\n", r->us_per_skeleton_frame,
           r->frame_us, r->frame_mean_us);
    if (c->cull)
        printf("  culling: %d%% of the instances off screen (TimeOnly), %d culled on the last frame\n",
               c->offscreen_percent, r->culled);
    if (c->batch)
        printf("  draw lists: %s; every frame through mf_batch_update\n",
               c->draw == MF_BENCH_DRAW_ITEMS  ? "items only, no world vertices (mf_draw_list_build_items)"
               : c->draw == MF_BENCH_DRAW_NONE ? "none (posing only: tracks and world)"
                                               : "whole (items and world vertices)");
    if (staged(c, r)) {
        for (int32_t s = 0; s < MF_BENCH_STAGES; s++)
            printf("    %-16s %8.3f us\n", STAGE_NAMES[s], r->stage_us[s] / r->instances);
        printf("  Spine-equivalent work (tracks + world + world vertices): %.3f us per skeleton-frame\n",
               r->spine_equivalent_us);
    }
    if (c->merge)
        printf("  merge: %d batches per frame over %d page%s, %d vertices, %.1f us per frame (median, not in the above)\n",
               r->merge_batches, r->pages, r->pages == 1 ? "" : "s", r->merge_vertices, r->merge_us);
    if (c->gpu) {
        printf("  GPU skinning%s on %s: the CPU's work %.1f us per frame (update, adds, submit: the above less the wait),\n",
               c->gpu_world ? " and world transforms" : "", r->gpu_device, r->gpu_add_us);
        if (r->gpu_ms >= 0) printf("  the GPU's %.3f ms per frame", r->gpu_ms);
        else printf("  the GPU's time unknown (no timestamps, or no frame finished before the last)");
        printf("; %d bytes uploaded, %d items skinned, %d clipped on the CPU, %d vertices\n", r->gpu_upload_bytes,
               r->gpu_items, r->gpu_clipped, r->gpu_vertices);
        if (c->gpu_check)
            printf("  check against the CPU (last frame): %lld vertices, largest position difference %g px, %lld "
                   "other differences\n", (long long)r->gpu_checked_vertices, r->gpu_max_error,
                   (long long)r->gpu_mismatches);
        if (c->gpu_check && c->gpu_world)
            printf("  bones read back from the GPU: %lld, largest position difference %g px, %g in the 2x2\n",
                   (long long)r->gpu_checked_bones, r->gpu_max_bone_error, r->gpu_max_bone_m_error);
    }
    printf("  allocations per frame (steady state): %g (%g bytes); at setup: %lld (%lld bytes, %lld an instance)\n",
           r->allocations_per_frame, r->bytes_per_frame, (long long)r->setup_allocations, (long long)r->setup_bytes,
           (long long)(r->instances > 0 ? r->setup_bytes / r->instances : 0));
    printf("  one instance as created: pose %lld bytes, tracks %lld, draw list %lld\n", (long long)r->instance_bytes[0],
           (long long)r->instance_bytes[1], (long long)r->instance_bytes[2]);
    if (r->resident_bytes >= 0)
        printf("  resident memory grown by setup and the frames: %lld bytes, %lld an instance (pages a build never\n"
               "  writes, such as clipping's worst-case capacity, are not committed)\n",
               (long long)r->resident_bytes, (long long)(r->instances > 0 ? r->resident_bytes / r->instances : 0));
    printf("  load: JSON parse %.1f us, binary build %.2f us in memory, %.2f us from file (%zu bytes): %.0fx\n",
           r->json_parse_us, r->build_load_us, r->build_file_load_us, r->build_bytes,
           r->build_file_load_us > 0 ? r->json_parse_us / r->build_file_load_us : 0);
}

int mfe_skel_bench(int argc, char **argv)
{
    const char *skins[MAX_SKINS];
    mf_bench_config c = {.skins = skins, .instances = 200, .frames = 300, .warmup = 30, .threads = 1,
                         .load_times = true};
    bool json = false;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        bool has_value = i + 1 < argc;
        if (mfe_is_flag(a, "--json")) {
            json = true;
        } else if (mfe_is_flag(a, "--merge")) {
            c.merge = true;
        } else if (mfe_is_flag(a, "--heap")) {
            c.heap = true;
        } else if (mfe_is_flag(a, "--track-slots")) {
            c.track_slots = true;
        } else if (mfe_is_flag(a, "--gpu")) {
            c.gpu = MF_BENCH_GPU_BEST;
        } else if (mfe_is_flag(a, "--gpu-cpu")) {
            c.gpu = MF_BENCH_GPU_CPU;
        } else if (mfe_is_flag(a, "--gpu-world")) {
            c.gpu_world = true;
        } else if (mfe_is_flag(a, "--gpu-check")) {
            c.gpu_check = true;
        } else if (mfe_is_flag(a, "--clip") || mfe_is_flag(a, "--skin") || mfe_is_flag(a, "--instances") ||
                   mfe_is_flag(a, "--frames") || mfe_is_flag(a, "--threads") || mfe_is_flag(a, "--offscreen") ||
                   mfe_is_flag(a, "--prefetch-min") || mfe_is_flag(a, "--simd") || mfe_is_flag(a, "--draw")) {
            if (!has_value) return usage("%s needs a value", a);
            const char *v = argv[++i];
            if (mfe_is_flag(a, "--clip")) {
                c.clip = v;
            } else if (mfe_is_flag(a, "--skin")) {
                if (c.skin_count >= MAX_SKINS) return usage("at most 32 skins (%s)", v);
                skins[c.skin_count++] = v;
            } else if (mfe_is_flag(a, "--instances")) {
                if ((c.instances = int_arg(v, 1000000)) < 0) return usage("--instances wants 1..1000000, not \"%s\"", v);
            } else if (mfe_is_flag(a, "--frames")) {
                if ((c.frames = int_arg(v, 1000000)) < 0) return usage("--frames wants 1..1000000, not \"%s\"", v);
            } else if (mfe_is_flag(a, "--draw")) {
                int32_t m = 0;
                while (m < 3 && strcmp(v, DRAW_NAMES[m]) != 0) m++;
                if (m == 3) return usage("--draw wants full, items or none, not \"%s\"", v);
                c.draw = m;
                c.batch = true; /* full too: the three modes then time one path and compare */
            } else if (mfe_is_flag(a, "--simd")) {
                int l = mfe_simd_parse(v);
                if (l < 0) return usage("--simd wants auto, base, avx, avx2 or avx512, not \"%s\"", v);
                c.simd = (mf_simd)l;
            } else if (mfe_is_flag(a, "--prefetch-min")) {
                if (strcmp(v, "off") == 0) c.prefetch_min = -1;
                else if ((c.prefetch_min = int_arg(v, 1000000)) < 0)
                    return usage("--prefetch-min wants 1..1000000 or off, not \"%s\"", v);
            } else if (mfe_is_flag(a, "--offscreen")) {
                c.cull = true;
                if ((c.offscreen_percent = percent_arg(v)) < 0) return usage("--offscreen wants 0%%..100%%, not \"%s\"", v);
            } else if ((c.threads = int_arg(v, 256)) < 0) {
                return usage("--threads wants 1..256, not \"%s\"", v);
            }
        } else if (a[0] == '-' && a[1] != '\0') {
            return usage("unknown option \"%s\"", a);
        } else if (!c.rig) {
            c.rig = a;
        } else {
            return usage("one rig at a time (got \"%s\" too)", a);
        }
    }
    if (!c.rig) return usage("missing %s", "RIG.mskel");
    if (!c.clip) return usage("missing %s", "--clip NAME");
    if (c.gpu_check && !c.gpu) return usage("%s needs --gpu or --gpu-cpu", "--gpu-check");
    if (c.gpu_world && !c.gpu) return usage("%s needs --gpu or --gpu-cpu", "--gpu-world");
    /* the GPU path builds the instances' lists only on frames that show a clip: nothing to merge */
    if (c.merge && c.gpu) return usage("%s and --gpu / --gpu-cpu exclude each other", "--merge");
    if (c.draw != MF_BENCH_DRAW_FULL && (c.merge || c.gpu))
        return usage("%s items or none: not with --merge, --gpu or --gpu-cpu (they need whole lists or build their own)",
                     "--draw");
    if (c.warmup > c.frames) c.warmup = c.frames;
    mf_bench_result r;
    mf_diag diag;
    mf_diag_clear(&diag);
    if (mf_bench_run(&c, &r, &diag) != MF_OK) return mfe_report(&diag);
    if (json) return print_json(&c, &r);
    print_text(&c, &r);
    return MFE_OK;
}
