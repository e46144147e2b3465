/* mfe skel build RIG.mskel -o OUT [--json]: the rig, its images and its clips → atlas pages
 * beside OUT and the binary runtime build, through the bake cache.
 * On any error the output file is left as it was (the write is atomic) and the exit is 2. */
#define _POSIX_C_SOURCE 200809L
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "mf/mf_build.h"

static int print_json(const char *rig, const char *out, const mf_build_report *r)
{
    cJSON *o = cJSON_CreateObject();
    cJSON *names = cJSON_CreateArray();
    if (!o || !names) {
        cJSON_Delete(o);
        cJSON_Delete(names);
        fprintf(stderr, "mfe skel build: out of memory\n");
        return MFE_USAGE;
    }
    cJSON_AddStringToObject(o, "rig", rig);
    cJSON_AddStringToObject(o, "out", out);
    cJSON_AddNumberToObject(o, "bytes", (double)r->bytes);
    cJSON_AddNumberToObject(o, "bones", r->bones);
    cJSON_AddNumberToObject(o, "slots", r->slots);
    cJSON_AddNumberToObject(o, "skins", r->skins);
    cJSON_AddNumberToObject(o, "attachments", r->attachments);
    cJSON_AddNumberToObject(o, "constraints", r->constraints);
    cJSON_AddNumberToObject(o, "events", r->events);
    cJSON_AddNumberToObject(o, "images", r->images);
    cJSON_AddNumberToObject(o, "timelines", r->timelines);
    cJSON_AddNumberToObject(o, "keys", r->keys);
    cJSON_AddNumberToObject(o, "pages", r->pages);
    cJSON_AddBoolToObject(o, "normalPages", r->normal_pages);
    cJSON_AddNumberToObject(o, "occupancy", (double)(int)(r->occupancy * 10000.0 + 0.5) / 10000.0);
    cJSON_AddStringToObject(o, "cache", r->cache ? r->cache : "off");
    cJSON_AddStringToObject(o, "atlasCache", r->atlas_cache ? r->atlas_cache : "off");
    for (int32_t i = 0; i < r->clips && r->clip_names; i++)
        cJSON_AddItemToArray(names, cJSON_CreateString(r->clip_names[i] ? r->clip_names[i] : ""));
    cJSON_AddItemToObject(o, "clips", names);
    char *text = cJSON_Print(o);
    cJSON_Delete(o);
    if (!text) {
        fprintf(stderr, "mfe skel build: out of memory\n");
        return MFE_USAGE;
    }
    printf("%s\n", text);
    free(text);
    return MFE_OK;
}

static void print_text(const char *rig, const char *out, const mf_build_report *r)
{
    printf("built %s -> %s (%zu bytes)\n", rig, out, r->bytes);
    printf("  bones %d, slots %d, skins %d, attachments %d, constraints %d, events %d, images %d\n",
           r->bones, r->slots, r->skins, r->attachments, r->constraints, r->events, r->images);
    printf("  clips %d", r->clips);
    for (int32_t i = 0; i < r->clips && r->clip_names; i++)
        printf("%s%s", i ? ", " : ": ", r->clip_names[i] ? r->clip_names[i] : "");
    printf(" (%d timelines, %d keys)\n", r->timelines, r->keys);
    if (r->pages > 0)
        printf("  atlas: %d page%s%s, occupancy %.1f%%\n", r->pages, r->pages == 1 ? "" : "s",
               r->normal_pages ? " (+ normal pages)" : "", r->occupancy * 100.0);
    printf("  cache: %s (atlas %s)\n", r->cache ? r->cache : "off", r->atlas_cache ? r->atlas_cache : "off");
}

/* A progress bar on a terminal, once a build has run for half a second. */
typedef struct progress {
    struct timespec start;
    bool shown;
} progress;

static void on_progress(void *user, const char *stage, int32_t done, int32_t total)
{
    progress *p = user;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    double t = (double)(now.tv_sec - p->start.tv_sec) + (double)(now.tv_nsec - p->start.tv_nsec) * 1e-9;
    if (t < 0.5 || total <= 0) return;
    int fill = (int)(30LL * done / total);
    fprintf(stderr, "\r%-7s [%.*s%*s] %d/%d", stage, fill, "##############################", 30 - fill, "", (int)done,
            (int)total);
    fflush(stderr);
    p->shown = true;
}

int mfe_skel_build(int argc, char **argv)
{
    const char *rig = NULL, *out = NULL;
    bool json = false;
    for (int i = 0; i < argc; i++) {
        if (mfe_is_flag(argv[i], "--json")) {
            json = true;
        } else if (mfe_is_flag(argv[i], "-o") || mfe_is_flag(argv[i], "--out")) {
            if (i + 1 >= argc) return mfe_usage_error("skel", "build", "%s needs a file name", argv[i]);
            out = argv[++i];
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            return mfe_usage_error("skel", "build", "unknown option \"%s\"", argv[i]);
        } else if (!rig) {
            rig = argv[i];
        } else {
            return mfe_usage_error("skel", "build", "one rig at a time (got \"%s\" and \"%s\")", rig, argv[i]);
        }
    }
    if (!rig) return mfe_usage_error("skel", "build", "missing RIG.mskel");
    if (!out) return mfe_usage_error("skel", "build", "missing -o OUT");
    mf_build_report rep;
    mf_diag diag;
    mf_diag_clear(&diag);
    progress prog = {.shown = false};
    clock_gettime(CLOCK_MONOTONIC, &prog.start);
    mf_build_options opt = {.no_cache = false, .progress = isatty(2) ? on_progress : NULL, .progress_user = &prog};
    mf_result res = mf_build_file_opt(rig, out, &opt, &rep, &diag);
    if (prog.shown) fprintf(stderr, "\r%50s\r", "");
    if (res != MF_OK) return mfe_report(&diag);
    int rc = MFE_OK;
    if (json) rc = print_json(rig, out, &rep);
    else print_text(rig, out, &rep);
    mf_build_report_free(&rep);
    return rc;
}
