/* Events of a clip through a list of its event timelines (for the tracks, which list them per
 * clip at create instead of scanning every timeline of the clip each frame). Runtime-internal. */
#ifndef MF_POSE_EVENTS_H
#define MF_POSE_EVENTS_H
#include <math.h>

#include "mf/mf_pose.h"
#include "mf/mf_skel_data.h"

/* mf_pose_events of data d over the event timelines timelines[0..n) (data indices, in clip
 * order, all of clip); timelines NULL: every event timeline of the clip. Events read nothing of
 * a pose but its data (the off-screen tracks have no posed instance). */
mf_result mf_pose_events_of(const mf_skel_data *d, int32_t clip, const int32_t *timelines, int32_t n,
                            double prev_time, double time, bool loop, mf_fired_event *out, int32_t cap,
                            int32_t *count, int32_t *dropped);
/* The earliest key of timelines[0..n) after lo (INFINITY: none; lo NaN: their first keys'):
 * mf_pose_events_of without loop fires a key in (lo, time] when next <= time, and so for any lo'
 * in [lo, next) (no key lies in (lo, next)); the tracks keep it per clip as a cursor and search
 * again (a binary search per timeline: key times ascend, checked at load) only when the window
 * leaves that range, so that a frame without events does not walk the keys. Inline: the tracks
 * ask it for an entry whose clip has events. */
static inline double mf_pose_events_next(const mf_skel_data *d, const int32_t *timelines, int32_t n, double lo)
{
    double next = INFINITY;
    for (int32_t j = 0; j < n; j++) {
        const mf_sd_timeline *tl = &d->timelines[timelines[j]];
        const float *times = d->times + tl->key_first;
        int32_t a = 0, b = tl->key_count;
        while (a < b) {
            int32_t m = (a + b) >> 1;
            if (times[m] <= lo) a = m + 1;
            else b = m;
        }
        if (a < tl->key_count && times[a] < next) next = times[a];
    }
    return next;
}

/* Whether mf_pose_events_of without loop would fire a key of timelines[0..n) in (prev_time,
 * time] (prev_time < 0: from before 0). */
static inline bool mf_pose_events_any(const mf_skel_data *d, const int32_t *timelines, int32_t n,
                                      double prev_time, double time)
{
    return mf_pose_events_next(d, timelines, n, prev_time < 0 ? -1.0 : prev_time) <= time;
}

#endif
