/* mf_bench [--out FILE.md] [--max N] [--threads T[,T…]] [--frames F] [--gpu | --gpu-cpu [--gpu-world]]: the
 * seed's synthetic workload (40 bones, 30 slots, 800 weighted vertices, 200 instances) on one
 * thread, then the instance-count sweep 1 → max (10,000) on T threads (2), as a markdown table on
 * stdout and in FILE.md when given, with the output floor beside each sweep row (writing the
 * instances' world vertices alone, no other work). Several thread counts (--threads 1,2,4,8): a
 * sweep each, every frame through mf_batch_update (also on one thread, so that the counts compare
 * on one path), then how the largest instance count scales with them. After each CPU sweep, its
 * largest count through the batch four times, with no draw lists, their items only and whole,
 * splits that frame into posing, the item walk and the world vertices, and gives it whole with
 * the poses' slot tracking on (items kept while no slot changes: the synthetic clip keys bones
 * only). --gpu: the sweep skins on
 * a GPU (mf_gpu.h; --gpu-cpu: on lavapipe), with the CPU's part and the GPU's time per frame;
 * --gpu-world: the world transforms on the GPU too (the synthetic rig has no constraints). Not a
 * test: numbers depend on the machine. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "batch/bench.h"

static void emit(FILE *a, FILE *b, const char *fmt, double x, double y, double z, double w)
{
    fprintf(a, fmt, x, y, z, w);
    if (b) fprintf(b, fmt, x, y, z, w);
}

static int fail(const mf_diag *d)
{
    char msg[1100];
    mf_diag_format(d, msg, sizeof msg);
    fprintf(stderr, "mf_bench: %s\n", msg);
    return 2;
}

#define MAX_THREAD_COUNTS 16

/* "1,2,4": up to MAX_THREAD_COUNTS counts, each 1..256, digits only; returns how many (0: bad). */
static int32_t parse_threads(const char *s, int32_t *out)
{
    int32_t n = 0;
    while (n < MAX_THREAD_COUNTS) {
        if (*s < '0' || *s > '9') return 0;
        char *end;
        errno = 0;
        long v = strtol(s, &end, 10);
        if (errno || v < 1 || v > 256) return 0;
        out[n++] = (int32_t)v;
        if (*end == '\0') return n;
        if (*end != ',') return 0;
        s = end + 1;
    }
    return 0;
}

typedef struct sweep_args {
    const char *rig;
    int32_t max, frames, gpu, floats;
    bool gpu_world, batch;
    size_t block_bytes;
} sweep_args;

/* One sweep on threads threads; *last_us: the frame time of its largest instance count, whose
 * count goes to *last_n. */
static int sweep(const sweep_args *a, int32_t threads, FILE *md, double *last_us, int32_t *last_n)
{
    mf_diag diag;
    mf_diag_clear(&diag);
    mf_bench_result r;
    const char *path = a->batch ? ", every frame through mf_batch_update" : "";
    if (a->gpu) {
        const char *plural = threads == 1 ? "" : "s";
        fprintf(stdout, "## Instance sweep, %d thread%s, GPU skinning%s (median frame)\n\n", threads, plural,
                a->gpu_world ? " and world transforms" : "");
        if (md)
            fprintf(md, "## Instance sweep, %d thread%s, GPU skinning%s (median frame)\n\n", threads, plural,
                    a->gpu_world ? " and world transforms" : "");
        emit(stdout, md, "| instances | CPU µs per frame | µs per skeleton-frame | of it update, adds, submit µs | GPU ms "
             "per frame | allocations per frame |\n|---:|---:|---:|---:|---:|---:|\n", 0, 0, 0, 0);
    } else {
        const char *plural = threads == 1 ? "" : "s";
        fprintf(stdout, "## Instance sweep, %d thread%s%s (median frame)\n\n", threads, plural, path);
        if (md) fprintf(md, "## Instance sweep, %d thread%s%s (median frame)\n\n", threads, plural, path);
        emit(stdout, md, "| instances | µs per frame | µs per skeleton-frame | allocations per frame | output floor µs |\n|---:|---:|---:|---:|---:|\n",
             0, 0, 0, 0);
    }
    static const int32_t counts[] = {1, 10, 100, 200, 1000, 2500, 5000, 10000};
    for (size_t k = 0; k < sizeof counts / sizeof counts[0] && counts[k] <= a->max; k++) {
        int32_t n = counts[k];
        mf_bench_config s = {.rig = a->rig, .clip = "run", .instances = n, .frames = a->frames, .warmup = 10,
                             .threads = threads, .load_times = false, .gpu = a->gpu, .gpu_world = a->gpu_world,
                             .batch = a->batch};
        if (mf_bench_run(&s, &r, &diag) != MF_OK) return fail(&diag);
        *last_us = r.frame_us, *last_n = n;
        if (a->gpu) {
            emit(stdout, md, "| %g | %.1f | %.3f | %.1f |", n, r.frame_us, r.us_per_skeleton_frame, r.gpu_add_us);
            emit(stdout, md, " %.3f | %g |\n", r.gpu_ms, r.allocations_per_frame, 0, 0);
            continue;
        }
        double fl = mf_bench_output_floor(n, threads, a->frames, a->block_bytes, a->floats);
        if (fl < 0) return fprintf(stderr, "mf_bench: out of memory for the output floor at %d instances\n", n), 2;
        emit(stdout, md, "| %g | %.1f | %.3f | %g |", n, r.frame_us, r.us_per_skeleton_frame, r.allocations_per_frame);
        emit(stdout, md, " %.1f |\n", fl, 0, 0, 0);
    }
    if (!a->gpu) { /* the largest count again, lists built less and less: what each part of its frame costs */
        double us[4]; /* MF_BENCH_DRAW_*, then whole lists with slot tracking */
        for (int32_t m = 0; m < 4; m++) {
            mf_bench_config s = {.rig = a->rig, .clip = "run", .instances = *last_n, .frames = a->frames, .warmup = 10,
                                 .threads = threads, .batch = true, .draw = m < 3 ? m : MF_BENCH_DRAW_FULL,
                                 .track_slots = m == 3};
            if (mf_bench_run(&s, &r, &diag) != MF_OK) return fail(&diag);
            us[m] = r.frame_us;
        }
        emit(stdout, md, "\nWhere the %g-instance frame goes (mf_batch_update, median frames of four runs: ", *last_n, 0, 0, 0);
        emit(stdout, md, "no draw list, its items only, the whole list, and the whole list with the poses' slot ", 0, 0, 0, 0);
        emit(stdout, md, "tracking on: items kept while no slot changes), µs:\n\n", 0, 0, 0, 0);
        emit(stdout, md, "| tracks + world | + draw items | + world vertices | whole frame | whole, slot tracking |\n"
             "|---:|---:|---:|---:|---:|\n", 0, 0, 0, 0);
        emit(stdout, md, "| %.1f | %.1f | %.1f | %.1f |", us[MF_BENCH_DRAW_NONE],
             us[MF_BENCH_DRAW_ITEMS] - us[MF_BENCH_DRAW_NONE], us[MF_BENCH_DRAW_FULL] - us[MF_BENCH_DRAW_ITEMS],
             us[MF_BENCH_DRAW_FULL]);
        emit(stdout, md, " %.1f |\n", us[3], 0, 0, 0);
    }
    if (a->gpu) { /* after the table: a line inside it would break it */
        fprintf(stdout, "\nGPU: %s\n", r.gpu_device);
        if (md) fprintf(md, "\nGPU: %s\n", r.gpu_device);
    }
    emit(stdout, md, "\n", 0, 0, 0, 0);
    return 0;
}

int main(int argc, char **argv)
{
    const char *out_path = NULL;
    int32_t max = 10000, threads[MAX_THREAD_COUNTS] = {2}, thread_counts = 1, frames = 120, gpu = MF_BENCH_GPU_OFF;
    bool gpu_world = false;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--out") == 0 && i + 1 < argc) out_path = argv[++i];
        else if (strcmp(argv[i], "--max") == 0 && i + 1 < argc) max = atoi(argv[++i]);
        else if (strcmp(argv[i], "--threads") == 0 && i + 1 < argc) {
            if (!(thread_counts = parse_threads(argv[++i], threads))) {
                fprintf(stderr, "mf_bench: --threads wants counts from 1 to 256, at most %d, separated by commas: %s\n",
                        MAX_THREAD_COUNTS, argv[i]);
                return 2;
            }
        }
        else if (strcmp(argv[i], "--frames") == 0 && i + 1 < argc) frames = atoi(argv[++i]);
        else if (strcmp(argv[i], "--gpu") == 0) gpu = MF_BENCH_GPU_BEST;
        else if (strcmp(argv[i], "--gpu-cpu") == 0) gpu = MF_BENCH_GPU_CPU;
        else if (strcmp(argv[i], "--gpu-world") == 0) gpu_world = true;
        else {
            fprintf(stderr, "usage: mf_bench [--out FILE.md] [--max N] [--threads T[,T…]] [--frames F] [--gpu | --gpu-cpu [--gpu-world]]\n");
            return 2;
        }
    }
    if (max < 1 || frames < 1) {
        fprintf(stderr, "mf_bench: --max and --frames want positive values\n");
        return 2;
    }
    char dir[] = "/tmp/mf-bench-XXXXXX", rig[1200];
    mf_diag diag;
    mf_diag_clear(&diag);
    if (!mkdtemp(dir)) return fprintf(stderr, "mf_bench: no temporary folder\n"), 2;
    if (mf_bench_write_synthetic(dir, 40, 30, 800, rig, sizeof rig, &diag) != MF_OK) return fail(&diag);
    FILE *md = out_path ? fopen(out_path, "w") : NULL;
    if (out_path && !md) return fprintf(stderr, "mf_bench: cannot write %s\n", out_path), 2;

    mf_bench_config c = {.rig = rig, .clip = "run", .instances = 200, .frames = frames * 2, .warmup = 30,
                         .threads = 1, .load_times = true};
    mf_bench_result r;
    if (mf_bench_run(&c, &r, &diag) != MF_OK) return fail(&diag);
    emit(stdout, md, "## Synthetic workload: %g bones, %g slots, %g world vertices a skeleton, %g instances, 1 thread\n\n",
         r.bones, r.slots, r.vertices_per_frame / r.instances, r.instances);
    emit(stdout, md, "| stage | µs per skeleton-frame |\n|---|---:|\n", 0, 0, 0, 0);
    static const char *names[MF_BENCH_STAGES] = {"tracks + sampling", "update world + constraints",
                                                 "world vertices", "draw runs (skins again)"};
    for (int32_t s = 0; s < MF_BENCH_STAGES; s++) {
        fprintf(stdout, "| %s | %.3f |\n", names[s], r.stage_us[s] / r.instances);
        if (md) fprintf(md, "| %s | %.3f |\n", names[s], r.stage_us[s] / r.instances);
    }
    emit(stdout, md,
         "\nPer frame (tracks + world + draw list): **%.1f µs** (%.3f µs a skeleton); allocations per frame: %g; "
         "JSON parse %.0f µs\n\n",
         r.frame_us, r.us_per_skeleton_frame, r.allocations_per_frame, r.json_parse_us);
    emit(stdout, md, "Memory a skeleton (bytes held through the allocator): pose %g, tracks %g, draw list %g",
         (double)r.instance_bytes[0], (double)r.instance_bytes[1], (double)r.instance_bytes[2], 0);
    emit(stdout, md, " (%g allocations)",
         (double)(r.instance_allocs[0] + r.instance_allocs[1] + r.instance_allocs[2]), 0, 0, 0);
    if (r.resident_bytes >= 0) /* what the instances committed (Linux) */
        emit(stdout, md, "; resident, an instance: %g bytes", (double)(r.resident_bytes / r.instances), 0, 0, 0);
    emit(stdout, md, "\n\n", 0, 0, 0, 0);

    /* the output floor writes what the 200-instance run's draw lists hold, in blocks their size */
    int32_t floats = (int32_t)(2 * r.vertices_per_frame / r.instances);
    size_t block_bytes = (size_t)r.instance_bytes[2];
    sweep_args sa = {.rig = rig, .max = max, .frames = frames, .gpu = gpu, .floats = floats, .gpu_world = gpu_world,
                     .batch = thread_counts > 1, .block_bytes = block_bytes};
    double last_us[MAX_THREAD_COUNTS];
    int32_t last_n = 0;
    for (int32_t t = 0; t < thread_counts; t++) {
        int rc = sweep(&sa, threads[t], md, &last_us[t], &last_n);
        if (rc) return rc;
    }
    if (thread_counts > 1) {
        emit(stdout, md, "## Thread scaling, %g instances (mf_batch_update, median frame)\n\n", last_n, 0, 0, 0);
        emit(stdout, md, "| threads | µs per frame | speed-up | per thread |\n|---:|---:|---:|---:|\n", 0, 0, 0, 0);
        for (int32_t t = 0; t < thread_counts; t++) {
            /* against the first count: speed-up, and the share of it each added thread kept */
            double up = last_us[0] / last_us[t], eff = up * threads[0] / threads[t];
            emit(stdout, md, "| %g | %.1f | %.2f× | %.2f |\n", threads[t], last_us[t], up, eff);
        }
    }
    if (md) fclose(md);
    char path[1300];
    snprintf(path, sizeof path, "%s/synth.clips/run.manim", dir);
    unlink(path);
    snprintf(path, sizeof path, "%s/synth.clips", dir);
    rmdir(path);
    unlink(rig);
    rmdir(dir);
    return 0;
}
