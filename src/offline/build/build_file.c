/* mf_build_file: a .mskel and its clips folder → the binary build, written atomically. */
#include <stdlib.h>
#include <string.h>

#include "build_internal.h"
#include "mf/mf_rig.h"
#include "util/files.h"

static void fill_report(mf_build_report *rep, const mf_skel_data *d, size_t bytes)
{
    rep->bones = d->bone_count;
    rep->slots = d->slot_count;
    rep->skins = d->skin_count;
    rep->attachments = d->attachment_count;
    rep->constraints = d->ik_count + d->transform_count + d->path_count + d->physics_count;
    rep->events = d->event_count;
    rep->images = d->image_count;
    rep->clips = d->clip_count;
    rep->timelines = d->timeline_count;
    rep->keys = d->time_count;
    rep->bytes = bytes;
    rep->clip_names = calloc((size_t)d->clip_count + 1, sizeof(char *));
    for (int32_t i = 0; rep->clip_names && i < d->clip_count; i++) {
        const char *n = mf_skel_data_string(d, d->clips[i].name);
        size_t len = strlen(n) + 1;
        if ((rep->clip_names[i] = malloc(len))) memcpy(rep->clip_names[i], n, len);
    }
}

void mf_build_report_free(mf_build_report *rep)
{
    if (!rep) return;
    for (int32_t i = 0; rep->clip_names && i < rep->clips; i++) free(rep->clip_names[i]);
    free(rep->clip_names);
    memset(rep, 0, sizeof *rep);
}

mf_result mf_build_file(const char *mskel_path, const char *out_path, mf_build_report *report, mf_diag *diag)
{
    if (report) memset(report, 0, sizeof *report);
    if (!mskel_path || !out_path) {
        mf_diag_set(diag, "", "", "mf_build_file: missing path");
        return MF_ERR_ARGUMENT;
    }
    mf_rig rig;
    mf_result r = mf_rig_load(mskel_path, &rig, diag);
    if (r != MF_OK) return r;
    void *blob = NULL;
    size_t size = 0;
    r = mf_build_skeleton_files(rig.sk, mskel_path, (const mf_clip *const *)rig.clips,
                                (const char *const *)rig.clip_paths, rig.clip_count, &blob, &size, diag);
    if (r == MF_OK) r = mf_write_file_atomic(out_path, blob, size, diag);
    if (r == MF_OK && report) {
        mf_skel_data d;
        if (mf_skel_data_load(blob, size, &d, NULL) == MF_OK) fill_report(report, &d, size);
    }
    free(blob);
    mf_rig_free(&rig);
    return r;
}
