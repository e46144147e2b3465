/* Timeline modes: deciding, when a track's entries change, which entry owns each property and
 * which outgoing timelines are held under the incoming entry. */
#include <string.h>

#include "tracks_internal.h"

static bool clip_has(const mf_tracks *t, int32_t clip, const int32_t *ids, int32_t n)
{
    if (clip < 0) return false;
    const int32_t *p = t->clip_props + t->clip_prop_first[clip];
    int32_t count = t->clip_prop_first[clip + 1] - t->clip_prop_first[clip];
    for (int32_t k = 0; k < n; k++) {
        int32_t lo = 0, hi = count - 1;
        while (lo <= hi) {
            int32_t mid = (lo + hi) >> 1;
            if (p[mid] == ids[k]) return true;
            if (p[mid] < ids[k]) lo = mid + 1;
            else hi = mid - 1;
        }
    }
    return false;
}

/* Marks the ids seen; true when any was new. */
static bool add_all(mf_tracks *t, const int32_t *ids, int32_t n)
{
    bool added = false;
    for (int32_t k = 0; k < n; k++)
        if (!t->prop_seen[ids[k]]) t->prop_seen[ids[k]] = 1, added = true;
    return added;
}

/* Entry ei's modes and hold entries; returns how many it wrote (its clip's timelines). */
static int32_t compute_hold(mf_tracks *t, int32_t ei)
{
    const mf_skel_data *d = t->d;
    const mf_track_entry *e = &t->entries[ei];
    if (e->clip < 0) return 0;
    const mf_sd_clip *clip = &d->clips[e->clip];
    uint8_t *modes = t->modes + (size_t)ei * (size_t)t->max_tl;
    int32_t *hold = t->hold_mix + (size_t)ei * (size_t)t->max_tl;
    int32_t to = e->mixing_to;
    bool hold_previous = to >= 0 && t->entries[to].hold_previous;
    for (int32_t j = 0; j < clip->timeline_count; j++) {
        const mf_sd_timeline *tl = &d->timelines[clip->timeline_first + j];
        int32_t ids[PROP_MAX];
        int32_t n = mf_tracks_props(d, tl, ids);
        bool added = add_all(t, ids, n);
        hold[j] = -1;
        if (hold_previous) modes[j] = added ? MODE_HOLD_FIRST : MODE_HOLD_SUBSEQUENT;
        else if (!added) modes[j] = MODE_SUBSEQUENT;
        else if (to < 0 || tl->kind == MF_SD_TL_ATTACHMENT || tl->kind == MF_SD_TL_DRAW_ORDER ||
                 tl->kind == MF_SD_TL_EVENT || !clip_has(t, t->entries[to].clip, ids, n))
            modes[j] = MODE_FIRST;
        else {
            /* held by this entry while the incoming one mixes over it; if a later entry lacks
             * the property, fade as that one mixes in */
            modes[j] = MODE_HOLD_FIRST;
            for (int32_t next = t->entries[to].mixing_to; next >= 0; next = t->entries[next].mixing_to) {
                if (clip_has(t, t->entries[next].clip, ids, n)) continue;
                if (t->entries[next].mix_duration > 0) modes[j] = MODE_HOLD_MIX, hold[j] = next;
                break;
            }
        }
    }
    return clip->timeline_count;
}

void mf_tracks_compute_modes(mf_tracks *t)
{
    t->modes_dirty = false;
    memset(t->prop_seen, 0, (size_t)t->prop_count);
    for (int32_t i = 0; i < t->track_count; i++) {
        int32_t e = t->current[i];
        if (e < 0) continue;
        while (t->entries[e].mixing_from >= 0) e = t->entries[e].mixing_from;
        do { /* oldest first: the first to key a property owns it */
            int32_t done = 0;
            /* an Additive entry mixing out keys nothing for the entries after it, except on
             * track 0, which ignores Additive (applies it as Replace) */
            if (t->entries[e].mixing_to < 0 || t->entries[e].blend != MF_CLIP_ADDITIVE || i == 0)
                done = compute_hold(t, e);
            /* the rest of the row Subsequent (as a zeroed one): an apply reads the modes of an
             * entry skipped here when it applies it as Replace (a blend changed since), and past
             * its clip's timelines when its clip changed since (settings may change at any
             * time); the rows are not cleared at create */
            memset(t->modes + (size_t)e * (size_t)t->max_tl + done, MODE_SUBSEQUENT, (size_t)(t->max_tl - done));
            e = t->entries[e].mixing_to;
        } while (e >= 0);
    }
}

