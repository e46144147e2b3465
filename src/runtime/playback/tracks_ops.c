/* The track operations: set, queue, empty clips, clear; handles. */
#include <float.h>
#include <math.h>
#include <string.h>

#include "tracks_internal.h"

static const mf_entry_handle NO_ENTRY = {-1, 0};

static mf_entry_handle handle_of(const mf_tracks *t, int32_t i)
{
    return i < 0 ? NO_ENTRY : (mf_entry_handle){i, t->entries[i].generation};
}

mf_track_entry *mf_tracks_entry(mf_tracks *t, mf_entry_handle h)
{
    if (!t || h.index < 0 || h.index >= t->pool_cap) return NULL;
    mf_track_entry *e = &t->entries[h.index];
    return e->alive && e->generation == h.generation ? e : NULL;
}

mf_entry_handle mf_tracks_current(const mf_tracks *t, int32_t track)
{
    if (!t || track < 0 || track >= t->track_count) return NO_ENTRY;
    return handle_of(t, t->current[track]);
}

/* A new entry with the defaults; last: the entry it follows or replaces (for the mix). */
static int32_t new_entry(mf_tracks *t, int32_t track, int32_t clip, bool loop, int32_t last)
{
    int32_t i = mf_tracks_new_entry(t);
    if (i < 0) return -1;
    mf_track_entry *e = &t->entries[i];
    e->clip = clip, e->track = track, e->loop = loop;
    e->blend = MF_CLIP_REPLACE;
    e->alpha = 1, e->time_scale = 1, e->interrupt_alpha = 1;
    e->track_end = DBL_MAX;
    e->clip_start = 0, e->clip_end = mf_tracks_clip_length(t, clip);
    e->track_last = e->next_track_last = -1;
    e->anim_last = e->next_anim_last = -1;
    e->next = e->previous = e->mixing_from = e->mixing_to = -1;
    e->mix_duration = last < 0 ? 0 : mf_tracks_mix(t, t->entries[last].clip, clip);
    e->rotation_fresh = true;
    return i;
}

void mf_tracks_clear_next(mf_tracks *t, int32_t entry)
{
    for (int32_t n = t->entries[entry].next; n >= 0; n = t->entries[n].next)
        mf_tracks_queue(t, MF_TRACK_DISPOSED, n, NULL);
    t->entries[entry].next = -1;
}

/* Drops the oldest entries of a mix chain beyond MF_TRACKS_CHAIN_MAX. */
static void cap_chain(mf_tracks *t, int32_t entry)
{
    int32_t depth = 1;
    for (int32_t e = entry; t->entries[e].mixing_from >= 0; e = t->entries[e].mixing_from) {
        if (++depth > MF_TRACKS_CHAIN_MAX) {
            int32_t old = t->entries[e].mixing_from;
            while (old >= 0) { /* the rest of the chain ends; the kept entry takes its place */
                int32_t older = t->entries[old].mixing_from;
                t->entries[e].interrupt_alpha = t->entries[old].interrupt_alpha;
                t->entries[old].mixing_from = t->entries[old].mixing_to = -1;
                mf_tracks_queue(t, MF_TRACK_ENDED, old, NULL);
                old = older;
            }
            t->entries[e].mixing_from = -1;
            return;
        }
    }
}

void mf_tracks_set_current(mf_tracks *t, int32_t track, int32_t entry, bool interrupt)
{
    int32_t from = t->current[track];
    t->current[track] = entry;
    if (track >= t->track_top) t->track_top = track + 1;
    mf_track_entry *e = &t->entries[entry];
    e->previous = -1;
    if (from >= 0) {
        mf_track_entry *f = &t->entries[from];
        if (interrupt) mf_tracks_queue(t, MF_TRACK_INTERRUPTED, from, NULL);
        e->mixing_from = from;
        f->mixing_to = entry;
        e->mix_time = 0;
        /* an interrupted mix keeps the share it had reached */
        if (f->mixing_from >= 0 && f->mix_duration > 0)
            e->interrupt_alpha *= (float)fmin(1.0, f->mix_time / f->mix_duration);
        f->rotation_fresh = true; /* mixing out latches its own directions */
        cap_chain(t, entry);
    }
    mf_tracks_queue(t, MF_TRACK_STARTED, entry, NULL);
}

static bool valid(const mf_tracks *t, int32_t track, int32_t clip)
{
    return t && track >= 0 && track < t->track_count && clip >= MF_CLIP_EMPTY && clip < t->d->clip_count;
}

mf_entry_handle mf_tracks_set(mf_tracks *t, int32_t track, int32_t clip, bool loop)
{
    if (!valid(t, track, clip)) return NO_ENTRY;
    bool interrupt = true;
    int32_t cur = t->current[track];
    if (cur >= 0) {
        if (t->entries[cur].next_track_last == -1) {
            /* never applied: replace it rather than mix from it */
            t->current[track] = t->entries[cur].mixing_from;
            mf_tracks_queue(t, MF_TRACK_INTERRUPTED, cur, NULL);
            mf_tracks_queue(t, MF_TRACK_ENDED, cur, NULL);
            mf_tracks_clear_next(t, cur);
            int32_t from = t->entries[cur].mixing_from;
            if (from >= 0) t->entries[from].mixing_to = -1;
            t->entries[cur].mixing_from = -1;
            cur = from;
            interrupt = false;
        } else {
            mf_tracks_clear_next(t, cur);
        }
    }
    int32_t i = new_entry(t, track, clip, loop, cur);
    if (i < 0) {
        mf_tracks_drain(t);
        return NO_ENTRY;
    }
    mf_tracks_set_current(t, track, i, interrupt);
    mf_entry_handle h = handle_of(t, i);
    mf_tracks_drain(t);
    return h;
}

double mf_tracks_track_complete(const mf_track_entry *e)
{
    double dur = (double)e->clip_end - e->clip_start;
    if (dur != 0) {
        if (e->loop) return dur * (1 + floor(e->track_time / dur));
        if (e->track_time < dur) return dur;
    }
    return e->track_time;
}

mf_entry_handle mf_tracks_add(mf_tracks *t, int32_t track, int32_t clip, bool loop, double delay)
{
    if (!valid(t, track, clip)) return NO_ENTRY;
    int32_t last = t->current[track];
    if (last >= 0)
        while (t->entries[last].next >= 0) last = t->entries[last].next;
    int32_t i = new_entry(t, track, clip, loop, last);
    if (i < 0) return NO_ENTRY;
    mf_track_entry *e = &t->entries[i];
    if (last < 0) {
        mf_tracks_set_current(t, track, i, true);
        if (delay < 0) delay = 0;
    } else {
        t->entries[last].next = i;
        e->previous = last;
        if (delay <= 0) delay = fmax(0.0, delay + mf_tracks_track_complete(&t->entries[last]) - e->mix_duration);
    }
    e->delay = delay;
    mf_entry_handle h = handle_of(t, i);
    mf_tracks_drain(t);
    return h;
}

void mf_tracks_set_entry_mix(mf_tracks *t, mf_entry_handle h, double mix)
{
    mf_track_entry *e = mf_tracks_entry(t, h);
    if (!e || !(mix >= 0)) return;
    if (e->previous >= 0 && e->delay >= 0 && e->next_track_last == -1) {
        /* queued to start before its predecessor's end: keep that relation */
        e->delay = fmax(0.0, e->delay + e->mix_duration - mix);
    }
    e->mix_duration = mix;
}

mf_entry_handle mf_tracks_set_empty(mf_tracks *t, int32_t track, double mix)
{
    mf_entry_handle h = mf_tracks_set(t, track, MF_CLIP_EMPTY, false);
    mf_track_entry *e = mf_tracks_entry(t, h);
    if (e) e->mix_duration = mix, e->track_end = mix;
    return h;
}

mf_entry_handle mf_tracks_add_empty(mf_tracks *t, int32_t track, double mix, double delay)
{
    mf_entry_handle h = mf_tracks_add(t, track, MF_CLIP_EMPTY, false, delay);
    mf_track_entry *e = mf_tracks_entry(t, h);
    if (!e) return h;
    if (delay <= 0 && e->previous >= 0) e->delay = fmax(0.0, e->delay + e->mix_duration - mix);
    e->mix_duration = mix, e->track_end = mix;
    return h;
}

void mf_tracks_clear(mf_tracks *t, int32_t track)
{
    if (!t || track < 0 || track >= t->track_count) return;
    int32_t cur = t->current[track];
    if (cur < 0) return;
    if (t->ever_applied) t->pose_kept = true; /* what it posed stays: no box from now on */
    mf_tracks_queue(t, MF_TRACK_ENDED, cur, NULL);
    mf_tracks_clear_next(t, cur);
    for (int32_t e = cur;;) {
        int32_t from = t->entries[e].mixing_from;
        if (from < 0) break;
        mf_tracks_queue(t, MF_TRACK_ENDED, from, NULL);
        t->entries[e].mixing_from = t->entries[e].mixing_to = -1;
        e = from;
    }
    t->current[track] = -1;
    mf_tracks_drain(t);
}

void mf_tracks_clear_all(mf_tracks *t)
{
    if (!t) return;
    for (int32_t i = 0; i < t->track_count; i++) mf_tracks_clear(t, i);
}
