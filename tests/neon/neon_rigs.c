/* Host side of the NEON skinning check (run_neon.sh): writes random rig builds, each with
 * weighted meshes of 1 to MF_MAX_INFLUENCES influences a vertex in random runs, unweighted meshes and regions
 * on several slots and bones, for the aarch64 checker to skin by both paths.
 * Usage: neon_rigs OUT_DIR COUNT SEED. Plain C, exit status 0 when every build was written. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mf/mf_build.h"
#include "mf/mf_skeleton.h"

#define NBONES 9
#define NSLOTS 5

static uint32_t rng_next(uint32_t *s)
{
    uint32_t x = *s;
    x ^= x << 13, x ^= x >> 17, x ^= x << 5;
    return *s = x;
}
static double rng_f(uint32_t *s, double lo, double hi) { return lo + (hi - lo) * (double)(rng_next(s) % 100000u) / 100000.0; }
static int rng_i(uint32_t *s, int n) { return (int)(rng_next(s) % (uint32_t)n); }

typedef struct text {
    char *b;
    size_t len, cap;
} text;

static void cat(text *t, const char *fmt, ...)
{
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(t->b + t->len, t->cap - t->len, fmt, ap);
        va_end(ap);
        if (n < 0) exit(2);
        if ((size_t)n < t->cap - t->len) {
            t->len += (size_t)n;
            return;
        }
        t->cap *= 2;
        t->b = realloc(t->b, t->cap);
        if (!t->b) exit(2);
    }
}

/* Slot s's attachments: a weighted mesh (3..40 vertices), an unweighted mesh and a region. */
static void slot_attachments(text *t, uint32_t *rng, int s)
{
    int v = 3 + rng_i(rng, 38);
    cat(t, "%s{\"slot\":\"s%d\",\"name\":\"w%d\",\"type\":\"Mesh\",\"hull\":%d,\"uvs\":[", s ? "," : "", s, s, v);
    for (int i = 0; i < v; i++) cat(t, "%s%.3f,%.3f", i ? "," : "", rng_f(rng, 0, 1), rng_f(rng, 0, 1));
    cat(t, "],\"triangles\":[");
    for (int i = 1; i + 1 < v; i++) cat(t, "%s0,%d,%d", i > 1 ? "," : "", i, i + 1);
    cat(t, "],\"weights\":{\"bones\":[");
    for (int i = 0; i < NBONES; i++) cat(t, "%s\"b%d\"", i ? "," : "", i);
    cat(t, "],\"v\":[");
    int count = 1, run = 0;
    for (int i = 0; i < v; i++) {
        if (run-- <= 0) count = 1 + rng_i(rng, MF_MAX_INFLUENCES), run = rng_i(rng, 4);
        if (s % 3 == 0) count = 2; /* two influences everywhere: one contiguous group */
        cat(t, "%s[", i ? "," : "");
        double left = 1;
        for (int j = 0; j < count; j++) {
            double w = j + 1 == count ? left : rng_f(rng, 0, left);
            left -= w;
            cat(t, "%s%d,%.4f,%.3f,%.3f", j ? "," : "", rng_i(rng, NBONES), w, rng_f(rng, -60, 60), rng_f(rng, -60, 60));
        }
        cat(t, "]");
    }
    cat(t, "]}}");
    v = 3 + rng_i(rng, 20); /* odd and even counts: the rigid path's two-vertex steps and its tail */
    cat(t, ",{\"slot\":\"s%d\",\"name\":\"u%d\",\"type\":\"Mesh\",\"hull\":%d,\"uvs\":[", s, s, v);
    for (int i = 0; i < v; i++) cat(t, "%s%.3f,%.3f", i ? "," : "", rng_f(rng, 0, 1), rng_f(rng, 0, 1));
    cat(t, "],\"triangles\":[");
    for (int i = 1; i + 1 < v; i++) cat(t, "%s0,%d,%d", i > 1 ? "," : "", i, i + 1);
    cat(t, "],\"vertices\":[");
    for (int i = 0; i < v; i++) cat(t, "%s%.3f,%.3f", i ? "," : "", rng_f(rng, -80, 80), rng_f(rng, -80, 80));
    cat(t, "]}");
    cat(t, ",{\"slot\":\"s%d\",\"name\":\"r%d\",\"type\":\"Region\",\"x\":%.3f,\"y\":%.3f,\"rot\":%.3f,\"width\":%.3f,"
           "\"height\":%.3f}",
        s, s, rng_f(rng, -20, 20), rng_f(rng, -20, 20), rng_f(rng, -180, 180), rng_f(rng, 1, 50), rng_f(rng, 1, 50));
}

static char *random_rig(uint32_t *rng)
{
    text t = {malloc(4096), 0, 4096};
    if (!t.b) exit(2);
    cat(&t, "{\"format\":1,\"uid\":\"skl_000000000001\",\"type\":\"Skeleton\",\"bones\":[{\"name\":\"b0\"}");
    for (int i = 1; i < NBONES; i++)
        cat(&t, ",{\"name\":\"b%d\",\"parent\":\"b%d\",\"x\":%.3f,\"rot\":%.3f,\"sx\":%.3f,\"shy\":%.3f}", i, rng_i(rng, i),
            rng_f(rng, -30, 30), rng_f(rng, -180, 180), rng_f(rng, 0.5, 1.5), rng_f(rng, -10, 10));
    cat(&t, "],\"slots\":[");
    for (int s = 0; s < NSLOTS; s++)
        cat(&t, "%s{\"name\":\"s%d\",\"bone\":\"b%d\",\"attachment\":\"w%d\"}", s ? "," : "", s, rng_i(rng, NBONES), s);
    cat(&t, "],\"skins\":[{\"name\":\"default\",\"attachments\":[");
    for (int s = 0; s < NSLOTS; s++) slot_attachments(&t, rng, s);
    cat(&t, "]}]}");
    return t.b;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: neon_rigs OUT_DIR COUNT SEED\n");
        return 2;
    }
    int n = atoi(argv[2]);
    uint32_t rng = (uint32_t)strtoul(argv[3], NULL, 10) | 1u;
    for (int k = 0; k < n; k++) {
        char *json = random_rig(&rng), path[4096];
        mf_diag diag;
        mf_diag_clear(&diag);
        mf_skeleton *sk = NULL;
        void *blob = NULL;
        size_t size = 0;
        if (mf_skeleton_parse(json, strlen(json), "neon.mskel", &sk, &diag) != MF_OK ||
            mf_build_skeleton(sk, NULL, 0, &blob, &size, &diag) != MF_OK) {
            fprintf(stderr, "neon_rigs: rig %d: %s: %s\n", k, diag.where, diag.message);
            return 1;
        }
        snprintf(path, sizeof path, "%s/rig%02d.mskb", argv[1], k);
        FILE *f = fopen(path, "wb");
        if (!f || fwrite(blob, 1, size, f) != size || fclose(f) != 0) {
            fprintf(stderr, "neon_rigs: cannot write %s\n", path);
            return 1;
        }
        free(blob);
        mf_skeleton_free(sk);
        free(json);
    }
    return 0;
}
