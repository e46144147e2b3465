/* Shared by the playback modules (not public). */
#ifndef MF_TRACKS_INTERNAL_H
#define MF_TRACKS_INTERNAL_H

#include "mf/mf_tracks.h"
#include "../alloc_lines.h"
#include "../pose/pose_internal.h"

/* How an entry's timeline is applied while it mixes (decided when the entries change). */
enum {
    MODE_SUBSEQUENT = 0, /* a lower entry keys the property: mix from the pose */
    MODE_FIRST,          /* the first to key it: from the setup pose, fading */
    MODE_HOLD_SUBSEQUENT,/* held at full weight under the incoming entry */
    MODE_HOLD_FIRST,
    MODE_HOLD_MIX        /* held, fading as a later entry (hold_mix) mixes in */
};

/* A slot's attachment this apply: untouched, keyed only by entries mixing out (back to setup at
 * the end), or set by a playing entry. */
enum { SLOT_UNKEYED = 0, SLOT_SETUP, SLOT_CURRENT };

#define PROP_MAX 3 /* property ids one timeline sets */

/* A clip's event cursor (mf_pose_events_next): its event timelines have no key in (lo, next) and
 * one at next; lo NaN: none yet. Lets a frame without events skip the key search. */
typedef struct mf_event_cursor {
    double lo, next;
} mf_event_cursor;

typedef struct queued {
    uint8_t type;
    int32_t entry;
    mf_fired_event ev;
} queued;

struct mf_tracks {
    const mf_skel_data *d;
    const mf_seg_table *segs; /* the shared object's, for the samples (NULL: the pose's own) */
    mf_allocator alloc;
    int32_t track_count;
    int32_t *current;   /* per track: entry index, -1 none */
    int32_t track_top;  /* the tracks from here up have no entry (an apply lowers it to the last with one + 1) */
    bool ever_applied;  /* an entry has posed */
    bool pose_kept;     /* a track that posed was cleared: its pose stays (mf_tracks_bounds) */
    /* the entry pool and per-entry mixing state (max_tl per entry) */
    mf_track_entry *entries;
    int32_t pool_cap, free_head, max_tl, grows;
    uint8_t *modes;
    int32_t *hold_mix;
    mf_rotation_latch *latch;
    float *weights, *rot_weights; /* max_tl scratch: per timeline, for the sampler and rotations */
    uint8_t *before;    /* max_tl scratch: mf_rotation_before per rotation timeline */
    uint8_t *slot_state; /* per slot during an apply: SLOT_* (who set its attachment) */
    /* the mix table: (clip_count + 1)^2 seconds, < 0 unset; index clip + 1 (0: empty) */
    double *mix_table;
    double default_mix;
    float time_scale;
    /* properties: ids seen while deciding modes; each clip's ids, sorted (this and the clip
     * lists below point into the block or into an mf_tracks_shared) */
    int32_t prop_count;
    uint8_t *prop_seen;
    int32_t *clip_prop_first; /* clip_count + 1 */
    int32_t *clip_props;
    /* per clip, in clip order: its attachment timelines and its event timelines (data indices),
     * so that an apply visits only those (clip_count + 1 firsts each) */
    int32_t *clip_attach_first, *clip_attach;
    int32_t *clip_event_first, *clip_events;
    mf_event_cursor *ev_cursor; /* per clip with events, at clip_event_first[clip] (this tracks') */
    bool slots_marked, slots_to_setup; /* slot_state holds marks / some SLOT_SETUP */
    bool modes_dirty;
    /* callbacks */
    mf_track_listener listener;
    void *user;
    queued *queue;          /* MF_TRACKS_QUEUE_CAP */
    int32_t queued_count, dropped;
    bool draining;
    bool pool_apart;        /* the pool grew: its arrays are allocations of their own */
    void *cold;             /* the second block (mf_alloc_cold): prop_seen, mix table, queue, fired */
    mf_fired_event *fired;  /* MF_TRACKS_FIRED_CAP */
};

#define MF_TRACKS_FIRED_CAP 64 /* events one entry fires in one apply */

/* Per clip, in clip order (clip_count + 1 firsts each): its property ids, sorted; its
 * attachment timelines and its event timelines (data indices), so that an apply visits only
 * those. In a shared block (mf_tracks_shared) or in the tracks' own. */
typedef struct mf_clip_tables {
    int32_t *prop_first, *props;
    int32_t *attach_first, *attach;
    int32_t *event_first, *events;
} mf_clip_tables;

struct mf_tracks_shared {
    const mf_skel_data *d; /* the view built for: its own copy of a loaded one (tracks of a copy
                            * of that view use the tables too), else the caller's */
    mf_skel_data view;
    mf_allocator alloc;
    mf_clip_tables tables;
    mf_seg_table segs; /* the data's key segments (pose_internal.h), its arrays in the block */
};

/* tracks_shared.c: the tables' arrays carved from a layout (a first pass with base NULL sizes
 * them), and their filling */
void mf_clip_tables_carve(mf_lines_layout *l, const mf_skel_data *d, mf_clip_tables *tb);
void mf_clip_tables_fill(const mf_skel_data *d, const mf_clip_tables *tb);

/* tracks_create.c */
int32_t mf_tracks_props(const mf_skel_data *d, const mf_sd_timeline *tl, int32_t ids[PROP_MAX]);
int32_t mf_tracks_new_entry(mf_tracks *t); /* -1: out of memory */
void mf_tracks_queue(mf_tracks *t, mf_track_event_type type, int32_t entry, const mf_fired_event *ev);
void mf_tracks_drain(mf_tracks *t);
float mf_tracks_clip_length(const mf_tracks *t, int32_t clip);

/* tracks_ops.c */
void mf_tracks_set_current(mf_tracks *t, int32_t track, int32_t entry, bool interrupt);
void mf_tracks_clear_next(mf_tracks *t, int32_t entry);
double mf_tracks_track_complete(const mf_track_entry *e);

/* tracks_modes.c */
void mf_tracks_compute_modes(mf_tracks *t);

/* tracks_apply.c */
double mf_tracks_anim_time(const mf_track_entry *e);
#endif
