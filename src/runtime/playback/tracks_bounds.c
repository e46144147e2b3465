/* The tracks' conservative box: the build's box (mf_sd_bounds) of the one clip that shapes the
 * pose now, or the setup pose's. Off-screen culling tests it (mf_batch.h). A box is promised
 * only where it holds: a clip's box is of that clip alone over the setup pose, so anything
 * that combines poses (a crossfade turning bones through angles neither clip has, layers,
 * alpha below 1, Additive, a bone mask) or leaves one behind (a cleared track keeps the pose it
 * had) has no box, and the item is never culled meanwhile. */
#include "tracks_internal.h"

bool mf_tracks_bounds(const mf_tracks *t, float out[4])
{
    if (!t || !out || t->pose_kept) return false;
    int32_t only = -1, entries = 0;
    for (int32_t i = 0; i < t->track_count; i++) {
        for (int32_t e = t->current[i]; e >= 0; e = t->entries[e].mixing_from) {
            const mf_track_entry *en = &t->entries[e];
            if (i == 0 && e == t->current[0] && en->mixing_from < 0 && en->delay > 0) continue; /* not started */
            if (i > 0 && en->clip == MF_CLIP_EMPTY && en->mixing_from < 0) continue; /* a layer mixed out */
            entries++, only = e;
        }
    }
    /* no entry: the setup pose, unless an entry posed before */
    if (entries == 0) return !t->ever_applied && mf_skel_data_clip_bounds(t->d, MF_CLIP_EMPTY, out);
    if (entries > 1) return false;
    const mf_track_entry *en = &t->entries[only];
    if (en->alpha < 1.0f || en->blend == MF_CLIP_ADDITIVE || en->bone_mask) return false;
    return mf_skel_data_clip_bounds(t->d, en->clip, out); /* the empty clip: the setup pose's */
}
