/* mfe skel digest RIG.mskel… [--simd LEVEL] [--all-simd] [--json]: the digests of everything the
 * runtime computes for each rig (check/digest.h): poses with shared and own key tables, draw
 * lists. --all-simd computes them at every SIMD level this CPU offers and fails (exit 1) where
 * one differs: the runtime promises the same bits on every path. */
#include <cjson/cJSON.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/digest.h"
#include "cli.h"

#define LEVELS 4 /* MF_SIMD_BASE .. MF_SIMD_AVX512 */

typedef struct digest_args {
    const char **rigs;
    int rig_count;
    mf_simd cap;
    bool all, json;
} digest_args;

static void hex(char out[17], uint64_t v) { snprintf(out, 17, "%016" PRIx64, v); }

static cJSON *level_json(const mf_digest *g)
{
    cJSON *o = cJSON_CreateObject(), *parts = cJSON_CreateObject();
    char h[17];
    cJSON_AddStringToObject(o, "simd", mfe_simd_name(g->simd));
    hex(h, g->pose_shared), cJSON_AddStringToObject(o, "pose_shared", h);
    hex(h, g->pose_own), cJSON_AddStringToObject(o, "pose_own", h);
    hex(h, g->draw), cJSON_AddStringToObject(o, "draw", h);
    hex(h, g->parts.noskin), cJSON_AddStringToObject(parts, "noskin", h);
    hex(h, g->parts.allskins), cJSON_AddStringToObject(parts, "allskins", h);
    hex(h, g->parts.skins), cJSON_AddStringToObject(parts, "skins", h);
    hex(h, g->parts.perturb), cJSON_AddStringToObject(parts, "perturb", h);
    cJSON_AddItemToObject(o, "draw_parts", parts);
    return o;
}

static void print_level(const char *rig, const mf_digest *g)
{
    printf("%s  %-6s  pose-shared %016" PRIx64 "  pose-own %016" PRIx64 "  draw %016" PRIx64 "\n", rig,
           mfe_simd_name(g->simd), g->pose_shared, g->pose_own, g->draw);
}

/* Names each digest of g that differs from ref's on stderr; returns whether any did. */
static bool differs(const char *rig, const mf_digest *ref, const mf_digest *g)
{
    const char *names[3] = {"pose-shared", "pose-own", "draw"};
    uint64_t a[3] = {ref->pose_shared, ref->pose_own, ref->draw}, b[3] = {g->pose_shared, g->pose_own, g->draw};
    bool any = false;
    for (int k = 0; k < 3; k++) {
        if (a[k] == b[k]) continue;
        fprintf(stderr, "mfe: %s: simd %s gives %s %016" PRIx64 ", simd %s gives %016" PRIx64 "\n", rig,
                mfe_simd_name(g->simd), names[k], b[k], mfe_simd_name(ref->simd), a[k]);
        any = true;
    }
    return any;
}

/* One rig at its levels; *agree false where a level differs from the first. Returns MFE_OK or
 * MFE_USAGE after a located error. */
static int one_rig(const digest_args *a, const char *path, cJSON *rigs, bool *agree)
{
    mf_digest_rig rig;
    mf_diag diag;
    mf_diag_clear(&diag);
    if (mf_digest_open(path, &rig, &diag) != MF_OK) {
        if (!diag.file[0]) snprintf(diag.file, sizeof diag.file, "%s", path);
        return mfe_report(&diag);
    }
    mf_simd levels[LEVELS];
    int n = 0;
    if (a->all)
        for (int l = MF_SIMD_BASE; l <= (int)mf_digest_widest(&rig.data); l++) levels[n++] = (mf_simd)l;
    else
        levels[n++] = a->cap;
    mf_digest g[LEVELS];
    cJSON *o = rigs ? cJSON_CreateObject() : NULL, *arr = rigs ? cJSON_CreateArray() : NULL;
    bool same = true;
    for (int i = 0; i < n; i++) {
        if (mf_digest_run(&rig.data, levels[i], &g[i], &diag) != MF_OK) {
            if (!diag.file[0]) snprintf(diag.file, sizeof diag.file, "%s", path);
            cJSON_Delete(o), cJSON_Delete(arr);
            mf_digest_close(&rig);
            return mfe_report(&diag);
        }
        if (!rigs) print_level(path, &g[i]);
        if (arr) cJSON_AddItemToArray(arr, level_json(&g[i]));
        if (i > 0 && differs(path, &g[0], &g[i])) same = false;
    }
    mf_digest_close(&rig);
    if (a->all && !rigs)
        printf("%s  %s over %d level%s (%s..%s)\n", path, same ? "agree" : "DIFFER", n, n == 1 ? "" : "s",
               mfe_simd_name(g[0].simd), mfe_simd_name(g[n - 1].simd));
    if (o) {
        cJSON_AddStringToObject(o, "rig", path);
        cJSON_AddItemToObject(o, "levels", arr);
        if (a->all) cJSON_AddBoolToObject(o, "agree", same);
        cJSON_AddItemToArray(rigs, o);
    }
    if (!same) *agree = false;
    return MFE_OK;
}

static int parse(int argc, char **argv, digest_args *a)
{
    bool capped = false;
    for (int i = 0; i < argc; i++) {
        if (mfe_is_flag(argv[i], "--json")) {
            a->json = true;
        } else if (mfe_is_flag(argv[i], "--all-simd")) {
            a->all = true;
        } else if (mfe_is_flag(argv[i], "--simd")) {
            int l = i + 1 < argc ? mfe_simd_parse(argv[i + 1]) : -1;
            if (l < 0)
                return mfe_usage_error("skel", "digest", "--simd takes auto, base, avx, avx2 or avx512%s%s%s",
                                       i + 1 < argc ? " (got \"" : "", i + 1 < argc ? argv[i + 1] : "",
                                       i + 1 < argc ? "\")" : "");
            a->cap = (mf_simd)l, capped = true, i++;
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            return mfe_usage_error("skel", "digest", "unknown option \"%s\"", argv[i]);
        } else {
            a->rigs[a->rig_count++] = argv[i];
        }
    }
    if (a->rig_count == 0) return mfe_usage_error("skel", "digest", "missing RIG.mskel");
    if (a->all && capped) return mfe_usage_error("skel", "digest", "--simd and --all-simd exclude each other");
    return MFE_OK;
}

int mfe_skel_digest(int argc, char **argv)
{
    digest_args a = {.rigs = malloc(sizeof(char *) * (size_t)(argc > 0 ? argc : 1)), .cap = MF_SIMD_AUTO};
    if (!a.rigs) return MFE_USAGE;
    int rc = parse(argc, argv, &a);
    cJSON *doc = NULL, *rigs = NULL;
    if (rc == MFE_OK && a.json) {
        doc = cJSON_CreateObject(), rigs = cJSON_CreateArray();
#ifdef MF_NO_SIMD
        cJSON_AddStringToObject(doc, "build", "no-simd"); /* plain C paths: the same digests (portable_bits) */
#else
        cJSON_AddStringToObject(doc, "build", "simd");
#endif
        cJSON_AddItemToObject(doc, "rigs", rigs);
    }
    bool agree = true;
    for (int i = 0; i < a.rig_count && rc == MFE_OK; i++) rc = one_rig(&a, a.rigs[i], rigs, &agree);
    if (rc == MFE_OK && doc) {
        if (a.all) cJSON_AddBoolToObject(doc, "agree", agree);
        char *text = cJSON_Print(doc);
        if (text) printf("%s\n", text);
        else rc = MFE_USAGE;
        free(text);
    }
    cJSON_Delete(doc);
    free(a.rigs);
    if (rc == MFE_OK && !agree) rc = MFE_FAILED;
    return rc;
}
