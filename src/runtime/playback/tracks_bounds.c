/* The tracks' conservative box: the union of the build's boxes (mf_sd_bounds) of every clip
 * that can shape the pose now. Off-screen culling tests it (mf_batch.h). */
#include <math.h>

#include "tracks_internal.h"

static void add(const mf_skel_data *d, int32_t clip, float out[4], bool *any)
{
    float b[4];
    if (!mf_skel_data_clip_bounds(d, clip, b)) return;
    if (!*any) {
        out[0] = b[0], out[1] = b[1], out[2] = b[2], out[3] = b[3];
        *any = true;
        return;
    }
    out[0] = fminf(out[0], b[0]), out[1] = fminf(out[1], b[1]);
    out[2] = fmaxf(out[2], b[2]), out[3] = fmaxf(out[3], b[3]);
}

bool mf_tracks_bounds(const mf_tracks *t, float out[4])
{
    if (!t || !out) return false;
    bool any = false;
    for (int32_t i = 0; i < t->track_count; i++) {
        int32_t ci = t->current[i];
        /* the base track empty or not started yet: the pose stands at (or mixes from) setup */
        if (i == 0 && (ci < 0 || t->entries[ci].delay > 0)) add(t->d, MF_CLIP_EMPTY, out, &any);
        for (int32_t e = ci; e >= 0; e = t->entries[e].mixing_from) add(t->d, t->entries[e].clip, out, &any);
    }
    return any;
}
