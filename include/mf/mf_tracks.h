/* mf_tracks.h — playback: tracks of clip entries, crossfades, layers and callbacks (the seed's
 * AnimationTracks). Shared by 2D now and 3D later; it drives an mf_pose (mf_pose.h).
 *
 * Runtime module (libmf_runtime): C11 + libm. mf_tracks_create() allocates everything: the
 * entry pool (8 entries unless asked for more), per-entry mixing state, the from/to mix table
 * and the callback queue. Setting, queueing, updating and applying allocate nothing unless
 * more entries are alive at once than the pool holds (it then doubles).
 *
 *     mf_tracks *t;  mf_tracks_create(&data, &(mf_tracks_config){ .default_mix = 0.2f }, NULL, &t);
 *     mf_tracks_set_mix(t, walk, run, 0.4f);             // before the first update (table built once)
 *     mf_entry_handle h = mf_tracks_set(t, 0, walk, true);
 *     mf_tracks_add(t, 0, jump, false, 0);               // after walk's current loop ends
 *     per frame:  mf_tracks_update(t, dt);  mf_tracks_apply(t, pose);  mf_pose_update_world(pose);
 *
 * The tracks do not reset the pose: what no track keys keeps its value between frames, as in
 * Spine (call mf_pose_reset() first for a pose built from setup every frame).
 *
 * Mixing: when an entry replaces another, the outgoing one fades as the new one rises over the
 * new entry's mix duration. A property both clips key is held by the outgoing clip and crossed
 * over by the incoming one; a property only the outgoing clip keys fades to the setup pose;
 * hold_previous keeps the outgoing clip at full weight under the incoming one. Chains of
 * interrupted mixes are capped at MF_TRACKS_CHAIN_MAX entries (the oldest is dropped, its part
 * folded into the next). Rotations mix along the latched shortest arc (mf_pose_mix.h).
 * Track 0 is the base; higher tracks layer over it with their alpha, blend and bone mask, and an
 * empty clip with a mix duration fades a layer out.
 *
 * Callbacks (started, interrupted, ended, completed, disposed, event) are queued in a fixed
 * buffer during a call and delivered when the call returns, never in the middle of an update.
 */
#ifndef MF_TRACKS_H
#define MF_TRACKS_H

#include "mf/mf_base.h"
#include "mf/mf_pose.h"
#include "mf/mf_pose_mix.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MF_TRACKS_CHAIN_MAX 4   /* entries in one mix chain (the current one included) */
#define MF_TRACKS_POOL_INITIAL 8
#define MF_TRACKS_QUEUE_CAP 256 /* callbacks queued per call; more are counted as dropped */
#define MF_CLIP_EMPTY (-1)      /* the empty clip: mixes out to the setup pose */

/* A handle: stays valid until the entry's disposed callback; later it is detected as stale. */
typedef struct mf_entry_handle {
    int32_t index;       /* -1: none */
    uint32_t generation;
} mf_entry_handle;

/* One playing or queued clip. Settings may be changed through mf_tracks_entry() at any time;
 * fields marked state are the mixer's. */
typedef struct mf_track_entry {
    int32_t clip;          /* MF_CLIP_EMPTY for the empty clip */
    int32_t track;
    bool loop;
    bool hold_previous;    /* keep the outgoing entry at full weight while this one mixes in */
    bool reverse;          /* play the clip backwards (no events) */
    mf_clip_blend blend;   /* Replace or Additive (Additive on tracks above 0) */
    float alpha;           /* 0..1 */
    float time_scale;      /* multiplies the tracks' time scale */
    double delay;          /* seconds before a queued entry starts */
    double track_time;     /* seconds played (state, may be set) */
    double track_end;      /* the track clears after this much track time; default: never */
    float clip_start, clip_end; /* the played range of the clip, seconds */
    double mix_time, mix_duration; /* seconds mixed in so far, and how long the mix in takes */
    float event_threshold;        /* outgoing: events fire while the mix is below this */
    float mix_attachment_threshold; /* outgoing: attachment keys apply while the mix is below */
    float alpha_attachment_threshold; /* incoming: attachment keys apply at alpha*mix >= this */
    float mix_draw_order_threshold;   /* outgoing: draw order keys apply while the mix is below */
    const uint8_t *bone_mask;      /* NULL, or one byte per bone (0: leave the bone and its slots) */
    /* state */
    double track_last, next_track_last; /* -1 before the first apply */
    double anim_last, next_anim_last;
    float interrupt_alpha, total_alpha;
    int32_t next, previous, mixing_from, mixing_to; /* entry indices, -1 none */
    uint32_t generation;
    bool alive, rotation_fresh;
} mf_track_entry;

typedef enum mf_track_event_type {
    MF_TRACK_STARTED = 0, MF_TRACK_INTERRUPTED, MF_TRACK_ENDED, MF_TRACK_COMPLETED,
    MF_TRACK_DISPOSED, MF_TRACK_EVENT
} mf_track_event_type;

typedef struct mf_tracks mf_tracks;
/* A callback: entry is valid during the call (even for MF_TRACK_DISPOSED); event is set for
 * MF_TRACK_EVENT only. */
typedef void (*mf_track_listener)(mf_tracks *tracks, mf_track_event_type type, mf_entry_handle entry,
                                  const mf_track_entry *e, const mf_fired_event *event, void *user);

/* The tables every tracks of one data can share (the properties each clip keys, its attachment
 * and event timelines, and the key segment table, mf_seg_table): built once per mf_skel_data,
 * they keep that much out of each instance. Immutable once built: any thread may read it; it
 * must outlive the tracks that use it. It keeps its own copy of a loaded view (which need not
 * outlive it; the blob must stay loaded).
 * The segment table holds, for every bone (but inherit), attachment, colour, IK, transform and
 * path timeline of every clip, one 64-byte segment per key and one before the first key:
 * 64 * (keys + 1) bytes a timeline, and 16 bytes for every timeline of the data, and every
 * bezier of the data prepared for the sampler (208 bytes a bezier). The tracks' full-weight
 * samples read it instead of each pose's own segments (a pose then touches 4 bytes a timeline,
 * not 64). */
typedef struct mf_tracks_shared mf_tracks_shared;
mf_result mf_tracks_shared_create(const mf_skel_data *data, const mf_allocator *alloc,
                                  mf_tracks_shared **out);
void mf_tracks_shared_destroy(mf_tracks_shared *shared);
/* The segment table, for direct mf_pose_sample callers (mf_clip_sample.segs); NULL for NULL. */
const mf_seg_table *mf_tracks_shared_segs(const mf_tracks_shared *shared);

typedef struct mf_tracks_config {
    int32_t track_count;  /* 0 means 4 */
    int32_t pool_initial; /* 0 means MF_TRACKS_POOL_INITIAL */
    double default_mix;   /* seconds, for pairs the table lacks */
    float time_scale;     /* 0 means 1 (set it later with mf_tracks_set_time_scale for 0) */
    const mf_tracks_shared *shared; /* NULL: the tracks build their own tables */
} mf_tracks_config;

/* MF_ERR_ARGUMENT also when config->shared was built for other data (a copy of the view it was
 * built from is the same data: the same loaded blob). */
mf_result mf_tracks_create(const mf_skel_data *data, const mf_tracks_config *config,
                           const mf_allocator *alloc, mf_tracks **out);
void mf_tracks_destroy(mf_tracks *t);

/* The mix table: seconds from clip `from` to clip `to` (MF_CLIP_EMPTY allowed on either side).
 * The table is allocated at create (clip_count + 1 squared) and filled by these calls. */
mf_result mf_tracks_set_mix(mf_tracks *t, int32_t from, int32_t to, double seconds);
double mf_tracks_mix(const mf_tracks *t, int32_t from, int32_t to);
void mf_tracks_set_default_mix(mf_tracks *t, double seconds);
void mf_tracks_set_time_scale(mf_tracks *t, float scale);
void mf_tracks_set_listener(mf_tracks *t, mf_track_listener fn, void *user);

/* Sets the track's clip now, mixing from the current entry; queued entries are disposed.
 * A handle with index -1 on error (bad track or clip, or out of memory growing the pool). */
mf_entry_handle mf_tracks_set(mf_tracks *t, int32_t track, int32_t clip, bool loop);
/* Queues a clip after the last entry of the track. delay > 0: seconds after that entry
 * starts; delay <= 0: counted back from that entry's end (its current loop for a looping one),
 * less this entry's mix duration. Plays at once on an empty track. */
mf_entry_handle mf_tracks_add(mf_tracks *t, int32_t track, int32_t clip, bool loop, double delay);
/* The empty clip: mix the track out to the setup pose over mix seconds. */
mf_entry_handle mf_tracks_set_empty(mf_tracks *t, int32_t track, double mix);
mf_entry_handle mf_tracks_add_empty(mf_tracks *t, int32_t track, double mix, double delay);
/* Ends every entry of a track at once (no mix). */
void mf_tracks_clear(mf_tracks *t, int32_t track);
void mf_tracks_clear_all(mf_tracks *t);

/* The entry of a handle, or NULL when the handle is stale (its entry was disposed). */
mf_track_entry *mf_tracks_entry(mf_tracks *t, mf_entry_handle h);
/* The current entry of a track (index -1 when none). */
mf_entry_handle mf_tracks_current(const mf_tracks *t, int32_t track);
/* Changes an entry's mix duration; a queued entry with delay <= 0 keeps its end-relative start. */
void mf_tracks_set_entry_mix(mf_tracks *t, mf_entry_handle h, double mix);

/* Advances every track by dt seconds (times the global and entry time scales). */
void mf_tracks_update(mf_tracks *t, double dt);
/* Applies the tracks to pose; queues events and completions and delivers the callbacks.
 * MF_ERR_ARGUMENT when pose is of other data. */
mf_result mf_tracks_apply(mf_tracks *t, mf_pose *pose);
/* The two halves of mf_tracks_apply, for skeletons that are not drawn (mf_batch.h's off-screen
 * modes). apply_time does everything but posing: events and completions fire and the callbacks
 * run, and the entries' bookkeeping moves on (what the next update reads: last times, a mixing
 * entry's faded weight), so time, queued entries and mixes advance exactly as with full
 * applies. apply_pose only poses (no event, no completion, no callback); called after
 * apply_time in the same frame, at the same times, the two together make one mf_tracks_apply.
 * Off screen across a crossfade, a returning pose differs from an always-applied one only in
 * which way a rotation mixing through exactly 180 degrees turns (the latch sees no frames). */
mf_result mf_tracks_apply_time(mf_tracks *t);
mf_result mf_tracks_apply_pose(mf_tracks *t, mf_pose *pose);

/* The conservative box of what the tracks pose now, {min x, min y, max x, max y} in skeleton
 * space: the build's box (mf_skel_data_clip_bounds) of the one entry that shapes the pose, or
 * the setup pose's while no entry has started and none posed before. A clip's box is of that
 * clip alone over the setup pose, so where poses combine there is no box: false while more
 * than one entry counts (a crossfade turns bones through angles neither clip has; layers), for
 * alpha below 1, Additive or a bone mask, from the first clear of a track that posed on (a
 * clear leaves what it posed, as in Spine: end a layer with an empty clip, mf_tracks_set_empty,
 * to keep culling), and for NULL arguments. Culling (mf_batch.h) never culls an item without a
 * box. */
bool mf_tracks_bounds(const mf_tracks *t, float out[4]);

/* Entries the pool holds now (it doubles when more are alive at once), and callbacks dropped
 * because the queue was full (disposals are never dropped). */
int32_t mf_tracks_pool_size(const mf_tracks *t);
int32_t mf_tracks_dropped(const mf_tracks *t);

#ifdef __cplusplus
}
#endif
#endif
