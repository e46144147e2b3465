#include "mf/mf_rig.h"

#include <stdlib.h>
#include <string.h>

mf_result mf_rig_load(const char *path, mf_rig *rig, mf_diag *diag)
{
    memset(rig, 0, sizeof *rig);
    mf_result r = mf_skeleton_load(path, &rig->sk, diag);
    if (r != MF_OK) return r;
    char folder[4096];
    mf_clip_folder(path, rig->sk, folder, sizeof folder);
    r = mf_clip_list(folder, &rig->clip_paths, &rig->clip_count, diag);
    if (r != MF_OK) {
        mf_rig_free(rig);
        return r;
    }
    rig->clips = calloc(rig->clip_count > 0 ? (size_t)rig->clip_count : 1, sizeof *rig->clips);
    if (!rig->clips) {
        mf_diag_set(diag, path, "", "out of memory");
        mf_rig_free(rig);
        return MF_ERR_NOMEM;
    }
    for (int32_t i = 0; i < rig->clip_count; i++) {
        r = mf_clip_load(rig->clip_paths[i], &rig->clips[i], diag);
        if (r == MF_OK) r = mf_clip_check(rig->clips[i], rig->sk, rig->clip_paths[i], diag);
        if (r != MF_OK) {
            mf_rig_free(rig);
            return r;
        }
    }
    return MF_OK;
}

void mf_rig_free(mf_rig *rig)
{
    if (rig->clips)
        for (int32_t i = 0; i < rig->clip_count; i++) mf_clip_free(rig->clips[i]);
    free(rig->clips);
    if (rig->clip_paths) mf_clip_list_free(rig->clip_paths, rig->clip_count);
    mf_skeleton_free(rig->sk);
    memset(rig, 0, sizeof *rig);
}

int32_t mf_rig_find_clip(const mf_rig *rig, const char *name)
{
    for (int32_t i = 0; i < rig->clip_count; i++)
        if (rig->clips[i]->name && strcmp(rig->clips[i]->name, name) == 0) return i;
    return -1;
}
