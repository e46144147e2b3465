/* mf_rig.h — a rig file with all its clips, each checked against it (offline module).
 *
 *     mf_rig rig;
 *     if (mf_rig_load("hero.mskel", &rig, &diag) == MF_OK) { rig.sk, rig.clips[i] …; mf_rig_free(&rig); }
 */
#ifndef MF_RIG_H
#define MF_RIG_H
#include "mf/mf_clip.h"
#include "mf/mf_skeleton.h"

typedef struct mf_rig {
    mf_skeleton *sk;
    int32_t clip_count;
    mf_clip **clips;
    char **clip_paths;
} mf_rig;

/* Loads path and every clip in its clips folder; each clip is checked against the rig.
 * On failure diag names the file and place and the rig is freed. */
mf_result mf_rig_load(const char *path, mf_rig *rig, mf_diag *diag);
void mf_rig_free(mf_rig *rig);
/* Index of the clip with that name, or -1. */
int32_t mf_rig_find_clip(const mf_rig *rig, const char *name);
#endif
