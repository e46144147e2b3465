/* Events of a clip fired in (previous time, time], loop wraps included. */
#include "pose_events.h"
#include "pose_internal.h"

typedef struct sink {
    mf_fired_event *out;
    int32_t cap, count, dropped;
} sink;

/* Fires the keys of tl with lo < time <= hi (clip-local times). */
static void fire(const mf_skel_data *d, const mf_sd_timeline *tl, double lo, double hi, sink *s)
{
    for (int32_t k = 0; k < tl->key_count; k++) {
        float kt = d->times[tl->key_first + k];
        if (kt <= lo) continue;
        if (kt > hi) break;
        if (s->count >= s->cap) {
            s->dropped++;
            continue;
        }
        const int32_t *iv = d->ints + tl->int_first + (size_t)k * 3;
        const float *v = d->values + tl->value_first + (size_t)k * 3;
        s->out[s->count++] = (mf_fired_event){iv[0], iv[1], v[0], iv[2], v[1], v[2], kt};
    }
}

/* Fires one event timeline's keys in (prev_time, time] of the clip (loop wraps included). */
static void fire_window(const mf_skel_data *d, const mf_sd_clip *c, const mf_sd_timeline *tl, double prev_time,
                        double time, bool loop, sink *s)
{
    if (!loop || !(c->length > 0)) {
        fire(d, tl, prev_time < 0 ? -1.0 : prev_time, time, s);
        return;
    }
    double len = c->length;
    if (prev_time < 0) {
        /* from the start: a key at 0 fires */
        double laps = floor(time / len);
        for (double l = 0; l < laps && l < 64; l++) fire(d, tl, -1.0, len, s);
        fire(d, tl, -1.0, fmod(time, len), s);
        return;
    }
    double pl = floor(prev_time / len), tl_ = floor(time / len);
    double lo = fmod(prev_time, len), hi = fmod(time, len);
    if (tl_ <= pl) {
        fire(d, tl, lo, hi, s);
        return;
    }
    /* wrapped: the rest of this lap, whole laps, then the start of the last one */
    fire(d, tl, lo, len + 1.0, s);
    for (double l = pl + 1; l < tl_ && l < pl + 64; l++) fire(d, tl, -1.0, len + 1.0, s);
    fire(d, tl, -1.0, hi, s);
}

mf_result mf_pose_events_of(const mf_skel_data *d, int32_t clip, const int32_t *timelines, int32_t n,
                            double prev_time, double time, bool loop, mf_fired_event *out, int32_t cap,
                            int32_t *count, int32_t *dropped)
{
    if (count) *count = 0;
    if (dropped) *dropped = 0;
    if (!d || clip < 0 || clip >= d->clip_count || (cap > 0 && !out) || cap < 0)
        return MF_ERR_ARGUMENT;
    const mf_sd_clip *c = &d->clips[clip];
    sink s = {out, cap, 0, 0};
    if (timelines) {
        for (int32_t j = 0; j < n; j++) fire_window(d, c, &d->timelines[timelines[j]], prev_time, time, loop, &s);
    } else {
        for (int32_t j = 0; j < c->timeline_count; j++) {
            const mf_sd_timeline *tl = &d->timelines[c->timeline_first + j];
            if (tl->kind == MF_SD_TL_EVENT) fire_window(d, c, tl, prev_time, time, loop, &s);
        }
    }
    if (count) *count = s.count;
    if (dropped) *dropped = s.dropped;
    return MF_OK;
}

mf_result mf_pose_events(const mf_pose *pose, int32_t clip, double prev_time, double time, bool loop,
                         mf_fired_event *out, int32_t cap, int32_t *count, int32_t *dropped)
{
    if (count) *count = 0;
    if (dropped) *dropped = 0;
    if (!pose) return MF_ERR_ARGUMENT;
    return mf_pose_events_of(pose->data, clip, NULL, 0, prev_time, time, loop, out, cap, count, dropped);
}
