/* Applying the tracks to a pose: crossfades, layers, setup blending, the rotation rule, events
 * and completions. */
#include <float.h>
#include <math.h>
#include <string.h>

#include "../pose/pose_events.h"
#include "tracks_internal.h"

/* What an apply does: pose the instance, advance the entries' time bookkeeping and queue their
 * events and completions. mf_tracks_apply does both; off-screen skeletons do one (mf_batch.h). */
enum { DO_POSE = 1, DO_TIME = 2 };

/* ---------------------------------------------------------------- times */

/* The clip time an entry is at (inline here: an apply asks it per entry every frame). */
static inline double anim_time(const mf_track_entry *e)
{
    if (e->loop) {
        double dur = (double)e->clip_end - e->clip_start;
        if (dur == 0) return e->clip_start;
        return mf_fmod_lap(e->track_time, dur) + e->clip_start;
    }
    return fmin(e->track_time + e->clip_start, (double)e->clip_end);
}

double mf_tracks_anim_time(const mf_track_entry *e) { return anim_time(e); }

static double apply_time(const mf_tracks *t, const mf_track_entry *e, double anim)
{
    return e->reverse ? mf_tracks_clip_length(t, e->clip) - anim : anim;
}

/* ---------------------------------------------------------------- sampling one entry */

/* The window (prev_time, time] of a sample, for the physics reset keys of e (the other timelines
 * ignore it): from the clip time applied last frame to this one's. A loop that wrapped is passed
 * as an unwrapped time with .loop set; reversed or other ranges fire nothing. */
static mf_clip_sample window(const mf_tracks *t, const mf_track_entry *e, double anim, double at, bool fire)
{
    mf_clip_sample s = {.clip = e->clip, .time = at, .prev_time = at, .segs = t->segs};
    double last = e->anim_last;
    if (!fire || e->reverse) return s;
    if (last < 0 || anim >= last) {
        s.prev_time = last < 0 ? -1 : last;
        return s;
    }
    double len = mf_tracks_clip_length(t, e->clip); /* a wrap only (not every frame) */
    if (e->clip_start == 0 && (float)e->clip_end == (float)len && len > 0)
        s.loop = true, s.prev_time = last, s.time = anim + len;
    return s;
}

static void rotations(mf_tracks *t, mf_pose *pose, int32_t ei, double time, const float *w,
                      const uint8_t *before)
{
    const mf_track_entry *e = &t->entries[ei];
    const mf_sd_clip *clip = &t->d->clips[e->clip];
    mf_rotation_latch *latch = t->latch + (size_t)ei * (size_t)t->max_tl;
    for (int32_t j = 0; j < clip->timeline_count; j++) {
        int32_t ti = clip->timeline_first + j;
        if (t->d->timelines[ti].kind != MF_SD_TL_ROTATE) continue;
        mf_pose_mix_rotation(pose, ti, time, w[j], (mf_rotation_before)before[j], e->bone_mask, &latch[j]);
    }
}

/* Records who set the attachments of e's attachment timelines (see SLOT_*). */
static void mark_slots(mf_tracks *t, const mf_pose *pose, const mf_track_entry *e, bool current)
{
    const mf_skel_data *d = t->d;
    const int32_t *tls = t->clip_attach + t->clip_attach_first[e->clip];
    int32_t n = t->clip_attach_first[e->clip + 1] - t->clip_attach_first[e->clip];
    for (int32_t j = 0; j < n; j++) {
        const mf_sd_timeline *tl = &d->timelines[tls[j]];
        int32_t bone = d->slots[tl->target].bone;
        if (!pose->active[bone] || (e->bone_mask && !e->bone_mask[bone])) continue;
        uint8_t *st = &t->slot_state[tl->target];
        t->slots_marked = true;
        if (current) *st = SLOT_CURRENT;
        else if (*st == SLOT_UNKEYED) *st = SLOT_SETUP, t->slots_to_setup = true;
    }
}

/* Whether a current mark (SLOT_CURRENT) of track i's current entry may matter: it overrides a
 * setup mark before it in this apply and keeps one after it off (the marks live for one apply),
 * so without setup marks so far it matters only when a later track has an entry (last: the
 * last track with one). */
static bool marks_matter(const mf_tracks *t, int32_t i, int32_t last)
{
    return t->slots_to_setup || i < last;
}

/* Replace on a layer leaves a property alone before the timeline's first key. */
static bool before_first(const mf_skel_data *d, int32_t timeline, double time)
{
    const mf_sd_timeline *tl = &d->timelines[timeline];
    return time < d->times[tl->key_first];
}

static void fresh_latches(mf_tracks *t, int32_t ei)
{
    mf_track_entry *e = &t->entries[ei];
    if (!e->rotation_fresh) return;
    e->rotation_fresh = false;
    memset(t->latch + (size_t)ei * (size_t)t->max_tl, 0, (size_t)t->max_tl * sizeof(mf_rotation_latch));
}

/* Events of e fired in (anim_last, anim] (clip times, loop wrap included), then its completion,
 * queued in firing order. Inline: every apply asks it per entry, most often for nothing. */
static inline __attribute__((always_inline)) void queue_events(mf_tracks *t, int32_t ei, double anim, bool fire)
{
    mf_track_entry *e = &t->entries[ei];
    int32_t n = 0;
    int32_t ev_n = e->clip >= 0 ? t->clip_event_first[e->clip + 1] - t->clip_event_first[e->clip] : 0;
    if (fire && ev_n > 0) { /* only clips with event timelines, only those timelines */
        const int32_t *evs = t->clip_events + t->clip_event_first[e->clip];
        int32_t c1 = 0, c2 = 0, d1 = 0, d2 = 0;
        double last = e->anim_last;
        if (anim >= last || last < 0) { /* most frames fire nothing: asked first, cheaply */
            /* the clip's cursor: a search only when the window leaves it */
            mf_event_cursor *cur = &t->ev_cursor[t->clip_event_first[e->clip]];
            double lo = last < 0 ? -1.0 : last; /* mf_pose_events_of's window without loop */
            if (!(lo >= cur->lo && cur->next > lo)) cur->lo = lo, cur->next = mf_pose_events_next(t->d, evs, ev_n, lo);
            if (cur->next <= anim)
                mf_pose_events_of(t->d, e->clip, evs, ev_n, last, anim, false, t->fired, 64, &c1, &d1);
        } else { /* wrapped: the rest of the lap, then the start of the next */
            mf_pose_events_of(t->d, e->clip, evs, ev_n, last, e->clip_end, false, t->fired, 64, &c1, &d1);
            double from = e->clip_start > 0 ? e->clip_start - 1e-6 : -1;
            mf_pose_events_of(t->d, e->clip, evs, ev_n, from, anim, false, t->fired + c1, 64 - c1, &c2, &d2);
        }
        n = c1 + c2;
        t->dropped += d1 + d2; /* more than 64 keys in one frame of one entry */
    }
    double dur = (double)e->clip_end - e->clip_start;
    double last_wrapped = n == 0 ? 0 : dur > 0 ? mf_fmod_lap(e->track_last, dur) : e->track_last; /* with events only */
    int32_t k = 0;
    for (; k < n; k++) { /* this lap's events come before the completion */
        if (t->fired[k].time < last_wrapped) break;
        if (t->fired[k].time > e->clip_end) continue;
        mf_tracks_queue(t, MF_TRACK_EVENT, ei, &t->fired[k]);
    }
    bool complete;
    if (e->loop) {
        if (dur == 0) complete = true;
        else { /* floor(a) > 0 && floor(a) > floor(b): a >= 1 and b below the integer floor(a)
                * (trunc for a below 2^52; from there a is an integer); NaN gives false alike */
            double a = e->track_time / dur, b = e->track_last / dur;
            complete = a >= 1 && b < (a < 0x1p52 ? (double)(int64_t)a : a);
        }
    } else {
        complete = anim >= e->clip_end && e->anim_last < e->clip_end;
    }
    if (complete) mf_tracks_queue(t, MF_TRACK_COMPLETED, ei, NULL);
    for (; k < n; k++)
        if (t->fired[k].time >= e->clip_start) mf_tracks_queue(t, MF_TRACK_EVENT, ei, &t->fired[k]);
}

/* The weight of an outgoing entry's timeline by its mode (hold: the hold_mix entry). */
static float timeline_alpha(const mf_tracks *t, uint8_t mode, int32_t hold, float alpha_hold, float alpha_mix)
{
    switch (mode) {
    case MODE_SUBSEQUENT:
    case MODE_FIRST: return alpha_mix;
    case MODE_HOLD_SUBSEQUENT:
    case MODE_HOLD_FIRST: return alpha_hold;
    default: {
        const mf_track_entry *hm = &t->entries[hold];
        return alpha_hold * (float)fmax(0.0, hm->mix_duration > 0 ? 1 - hm->mix_time / hm->mix_duration : 0);
    }
    }
}

/* The sum of an outgoing entry's timeline weights, as a posing apply leaves it (the update drops
 * an entry that has faded to nothing). */
static float entry_alpha(const mf_tracks *t, int32_t fi, float alpha_hold, float alpha_mix)
{
    const uint8_t *modes = t->modes + (size_t)fi * (size_t)t->max_tl;
    const int32_t *hold = t->hold_mix + (size_t)fi * (size_t)t->max_tl;
    int32_t n = t->d->clips[t->entries[fi].clip].timeline_count;
    float sum = 0;
    for (int32_t j = 0; j < n; j++) sum += timeline_alpha(t, modes[j], hold[j], alpha_hold, alpha_mix);
    return sum;
}

/* Applies the entries `to` mixes from (oldest first); returns the mix share of `to`. */
static float apply_mixing_from(mf_tracks *t, mf_pose *pose, int32_t to, bool first_track, unsigned what)
{
    int32_t fi = t->entries[to].mixing_from;
    if (t->entries[fi].mixing_from >= 0) apply_mixing_from(t, pose, fi, first_track, what);
    mf_track_entry *te = &t->entries[to], *f = &t->entries[fi];
    float mix;
    bool setup_blend = false; /* track 0 with an instant mix: from the setup pose */
    if (te->mix_duration == 0) mix = 1, setup_blend = first_track;
    else mix = (float)fmin(1.0, te->mix_time / te->mix_duration);
    bool additive = !first_track && f->blend == MF_CLIP_ADDITIVE;
    bool attachments = mix < f->mix_attachment_threshold, draw_order = mix < f->mix_draw_order_threshold;
    float alpha_hold = f->alpha * te->interrupt_alpha, alpha_mix = alpha_hold * (1 - mix);
    double anim = anim_time(f), at = apply_time(t, f, anim);
    bool fire = !f->reverse && mix < f->event_threshold;
    if (f->clip >= 0) {
        const mf_skel_data *d = t->d;
        const mf_sd_clip *clip = &d->clips[f->clip];
        if (what & DO_POSE) fresh_latches(t, fi);
        if (!(what & DO_POSE)) {
            if (!additive) f->total_alpha = entry_alpha(t, fi, alpha_hold, alpha_mix);
        } else if (additive) {
            mf_clip_sample s = window(t, f, anim, at, fire);
            s.weight = alpha_mix, s.blend = MF_CLIP_ADDITIVE, s.discrete_threshold = 2, s.bone_mask = f->bone_mask;
            mf_pose_sample(pose, &s);
        } else {
            const uint8_t *modes = t->modes + (size_t)fi * (size_t)t->max_tl;
            const int32_t *hold = t->hold_mix + (size_t)fi * (size_t)t->max_tl;
            float *w = t->weights;
            uint8_t *before = t->before;
            float *rot_w = t->rot_weights;
            f->total_alpha = 0;
            for (int32_t j = 0; j < clip->timeline_count; j++) {
                const mf_sd_timeline *tl = &d->timelines[clip->timeline_first + j];
                bool subsequent = modes[j] == MODE_SUBSEQUENT || modes[j] == MODE_HOLD_SUBSEQUENT;
                float a = timeline_alpha(t, modes[j], hold[j], alpha_hold, alpha_mix);
                f->total_alpha += a;
                w[j] = a;
                /* the first to key a property mixes from the setup pose */
                if ((!subsequent || setup_blend) && tl->kind != MF_SD_TL_ATTACHMENT)
                    mf_pose_timeline_setup(pose, clip->timeline_first + j, f->bone_mask);
                if (subsequent && !first_track && before_first(d, clip->timeline_first + j, at)) w[j] = 0;
                if (tl->kind == MF_SD_TL_ATTACHMENT) w[j] = attachments ? 1.0f : 0.0f;
                else if (tl->kind == MF_SD_TL_DRAW_ORDER) w[j] = draw_order ? 1.0f : 0.0f;
                if (tl->kind == MF_SD_TL_ROTATE) {
                    rot_w[j] = a;
                    w[j] = 0;
                    before[j] = (uint8_t)(subsequent && !setup_blend
                                              ? (first_track ? MF_ROTATION_BEFORE_MIX : MF_ROTATION_BEFORE_KEEP)
                                              : MF_ROTATION_BEFORE_SETUP);
                } else {
                    rot_w[j] = 0;
                }
            }
            mf_clip_sample s = window(t, f, anim, at, fire);
            s.weight = 1, s.discrete_threshold = attachments || draw_order ? FLT_MIN : 2;
            s.bone_mask = f->bone_mask, s.timeline_weights = w;
            mf_pose_sample(pose, &s);
            rotations(t, pose, fi, at, rot_w, before);
            mark_slots(t, pose, f, attachments);
        }
    }
    if (te->mix_duration > 0 && (what & DO_TIME)) queue_events(t, fi, anim, fire);
    f->next_anim_last = anim;
    f->next_track_last = f->track_time;
    return mix;
}

static mf_result apply(mf_tracks *t, mf_pose *pose, unsigned what)
{
    if (t->modes_dirty) mf_tracks_compute_modes(t);
    const mf_skel_data *d = t->d;
    if ((what & DO_POSE) && t->slots_marked) { /* only after an apply that marked slots */
        memset(t->slot_state, SLOT_UNKEYED, (size_t)d->slot_count);
        t->slots_marked = t->slots_to_setup = false;
    }
    int32_t n = t->track_top; /* the tracks up to the last with an entry (an apply sets none) */
    while (n > 0 && t->current[n - 1] < 0) n--;
    t->track_top = n;
    for (int32_t i = 0; i < n; i++) {
        int32_t ci = t->current[i];
        if (ci < 0 || t->entries[ci].delay > 0) continue;
        if (what & DO_POSE) t->ever_applied = true;
        bool additive = i > 0 && t->entries[ci].blend == MF_CLIP_ADDITIVE;
        float mix = t->entries[ci].alpha;
        if (t->entries[ci].mixing_from >= 0) mix *= apply_mixing_from(t, pose, ci, i == 0, what);
        else if (t->entries[ci].track_time >= t->entries[ci].track_end && t->entries[ci].next < 0) mix = 0;
        mf_track_entry *e = &t->entries[ci];
        bool attachments = mix >= e->alpha_attachment_threshold;
        double anim = anim_time(e), at = apply_time(t, e, anim);
        if (e->clip >= 0 && mix > 0 && (what & DO_POSE)) {
            const mf_sd_clip *clip = &d->clips[e->clip];
            fresh_latches(t, ci);
            if ((i == 0 && mix == 1) || additive) {
                mf_clip_sample s = window(t, e, anim, at, true);
                s.weight = mix, s.blend = additive ? MF_CLIP_ADDITIVE : MF_CLIP_REPLACE;
                s.discrete_threshold = i == 0 || attachments ? FLT_MIN : 2, s.bone_mask = e->bone_mask;
                mf_pose_sample(pose, &s);
                if (!(i == 0 || attachments) || marks_matter(t, i, n - 1)) mark_slots(t, pose, e, i == 0 || attachments);
            } else {
                const uint8_t *modes = t->modes + (size_t)ci * (size_t)t->max_tl;
                float *w = t->weights;
                uint8_t *before = t->before;
                float *rot_w = t->rot_weights;
                for (int32_t j = 0; j < clip->timeline_count; j++) {
                    const mf_sd_timeline *tl = &d->timelines[clip->timeline_first + j];
                    w[j] = mix;
                    rot_w[j] = 0;
                    if (modes[j] != MODE_SUBSEQUENT && tl->kind != MF_SD_TL_ATTACHMENT)
                        mf_pose_timeline_setup(pose, clip->timeline_first + j, e->bone_mask);
                    else if (i > 0 && before_first(d, clip->timeline_first + j, at))
                        w[j] = 0;
                    if (tl->kind == MF_SD_TL_ROTATE) {
                        rot_w[j] = mix, w[j] = 0;
                        before[j] = (uint8_t)(modes[j] == MODE_SUBSEQUENT
                                                  ? (i == 0 ? MF_ROTATION_BEFORE_MIX : MF_ROTATION_BEFORE_KEEP)
                                                  : MF_ROTATION_BEFORE_SETUP);
                    }
                }
                mf_clip_sample s = window(t, e, anim, at, true);
                s.weight = mix, s.discrete_threshold = attachments ? FLT_MIN : 2;
                s.bone_mask = e->bone_mask, s.timeline_weights = w;
                mf_pose_sample(pose, &s);
                rotations(t, pose, ci, at, rot_w, before);
                if (!attachments || marks_matter(t, i, n - 1)) mark_slots(t, pose, e, attachments);
            }
        }
        if (what & DO_TIME) queue_events(t, ci, anim, !e->reverse);
        e = &t->entries[ci];
        e->next_anim_last = anim;
        e->next_track_last = e->track_time;
    }
    /* attachments only entries mixing out keyed go back to the setup pose's */
    if ((what & DO_POSE) && t->slots_to_setup)
        for (int32_t s = 0; s < d->slot_count; s++)
            if (t->slot_state[s] == SLOT_SETUP) mf_pose_slot_setup_attachment(pose, s);
    if (t->queued_count) mf_tracks_drain(t); /* with nothing queued it does nothing */
    return MF_OK;
}

mf_result mf_tracks_apply(mf_tracks *t, mf_pose *pose)
{
    if (!t || !pose || pose->data != t->d) return MF_ERR_ARGUMENT;
    return apply(t, pose, DO_POSE | DO_TIME);
}

mf_result mf_tracks_apply_time(mf_tracks *t)
{
    if (!t) return MF_ERR_ARGUMENT;
    return apply(t, NULL, DO_TIME);
}

mf_result mf_tracks_apply_pose(mf_tracks *t, mf_pose *pose)
{
    if (!t || !pose || pose->data != t->d) return MF_ERR_ARGUMENT;
    return apply(t, pose, DO_POSE);
}
