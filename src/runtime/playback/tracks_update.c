/* Advancing the tracks: delays, queued entries taking over, mixes finishing, tracks ending. */
#include <math.h>

#include "tracks_internal.h"

/* Advances the entries e mixes from; true when all of them have finished mixing out. */
static bool update_mixing_from(mf_tracks *t, int32_t to, double delta)
{
    mf_track_entry *te = &t->entries[to];
    int32_t from = te->mixing_from;
    if (from < 0) return true;
    bool finished = update_mixing_from(t, from, delta);
    te = &t->entries[to];
    mf_track_entry *f = &t->entries[from];
    f->anim_last = f->next_anim_last;
    f->track_last = f->next_track_last;
    if (te->next_track_last != -1 && te->mix_time >= te->mix_duration) {
        /* the mix is complete: drop the from entry once nothing older still mixes into it */
        if (f->total_alpha == 0 || te->mix_duration == 0) {
            te->mixing_from = f->mixing_from;
            if (f->mixing_from >= 0) t->entries[f->mixing_from].mixing_to = to;
            te->interrupt_alpha = f->interrupt_alpha;
            f->mixing_from = f->mixing_to = -1;
            mf_tracks_queue(t, MF_TRACK_ENDED, from, NULL);
        }
        return finished;
    }
    f->track_time += (double)delta * f->time_scale;
    te->mix_time += delta;
    return false;
}

void mf_tracks_update(mf_tracks *t, double dt)
{
    if (!t || !(dt == dt)) return;
    double delta = dt * t->time_scale;
    int32_t *current = t->current, tracks = t->track_count; /* fixed at create (the entries may move) */
    for (int32_t i = 0; i < tracks; i++) {
        int32_t ci = current[i];
        if (ci < 0) continue;
        mf_track_entry *cur = &t->entries[ci];
        cur->anim_last = cur->next_anim_last;
        cur->track_last = cur->next_track_last;
        double cd = delta * cur->time_scale;
        if (cur->delay > 0) {
            cur->delay -= cd;
            if (cur->delay > 0) continue;
            cd = -cur->delay;
            cur->delay = 0;
        }
        int32_t ni = cur->next;
        if (ni >= 0) {
            /* the next entry's delay has passed: it takes over, keeping the time left over */
            mf_track_entry *next = &t->entries[ni];
            double next_time = cur->track_last - next->delay;
            if (next_time >= 0) {
                next->delay = 0;
                next->track_time += cur->time_scale == 0 ? 0
                                    : (next_time / cur->time_scale + delta) * next->time_scale;
                cur->track_time += cd;
                cur->next = -1;
                mf_tracks_set_current(t, i, ni, true);
                for (int32_t n = ni; t->entries[n].mixing_from >= 0; n = t->entries[n].mixing_from)
                    t->entries[n].mix_time += delta;
                continue;
            }
        } else if (cur->track_last >= cur->track_end && cur->mixing_from < 0) {
            /* past its end with nothing queued and nothing mixing: the track clears */
            current[i] = -1;
            mf_tracks_queue(t, MF_TRACK_ENDED, ci, NULL);
            mf_tracks_clear_next(t, ci);
            continue;
        }
        if (cur->mixing_from >= 0 && update_mixing_from(t, ci, delta)) {
            /* every entry it mixed from has finished: end them all */
            cur = &t->entries[ci];
            int32_t from = cur->mixing_from;
            cur->mixing_from = -1;
            if (from >= 0) t->entries[from].mixing_to = -1;
            while (from >= 0) {
                int32_t older = t->entries[from].mixing_from;
                mf_tracks_queue(t, MF_TRACK_ENDED, from, NULL);
                from = older;
            }
        }
        t->entries[ci].track_time += cd;
    }
    if (t->queued_count) mf_tracks_drain(t); /* with nothing queued it does nothing */
}
