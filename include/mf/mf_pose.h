/* mf_pose.h — a posed instance of a runtime build (mf_skel_data.h): the seeds' SkeletonPose.
 *
 * Runtime module (libmf_runtime): C11 + libm, no I/O. Everything is allocated by
 * mf_pose_create() (and by mf_skin_cache_compose() for a new skin list); every per-frame call
 * below works on the arrays sized there and allocates nothing. The sampler's per-clip state
 * (64 bytes a timeline) is cleared on each clip's first sample, so a pose reserves it for every
 * clip of the data but commits only the pages of the clips it plays.
 *
 *     mf_skin_cache *skins;  mf_skin_cache_create(&data, NULL, &skins);    // beside the data
 *     mf_pose *pose;         mf_pose_create(&data, NULL, &pose, &diag);    // one per instance
 *     int32_t list[] = { mf_skel_data_find_skin(&data, "goblin") };
 *     mf_pose_set_skins(pose, skins, list, 1, &diag);
 *     per frame:
 *         mf_pose_reset(pose);                                   // setup pose
 *         mf_pose_sample(pose, &(mf_clip_sample){ .clip = walk, .time = t, .prev_time = t0,
 *                                                 .weight = 1, .loop = true });
 *         mf_pose_events(pose, walk, t0, t, true, events, 16, &n);  // fired in (t0, t]
 *         mf_pose_override(pose, head, &ov);                     // optional, from game code
 *         mf_pose_update_world(pose);                            // bones and constraints
 *         ... mf_pose_world_vertices(), mf_draw_list_build() (mf_geometry.h) ...
 *
 * Coordinates are the project's: Y-down pixels, degrees clockwise. A bone's world transform
 * maps its local point (x, y) to (a·x + b·y + wx, c·x + d·y + wy) in skeleton space.
 * Physics constraints run inside mf_pose_update_world(), stepped by mf_pose_physics_step()
 * (mf_physics.h).
 */
#ifndef MF_POSE_H
#define MF_POSE_H

#include "mf/mf_base.h"
#include "mf/mf_skel_data.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------- skins */

/* Composed skin tables, created beside an mf_skel_data and shared by its instances (one
 * thread at a time). A table is built once per distinct skin list, at mf_pose_set_skins(). */
typedef struct mf_skin_cache mf_skin_cache;

/* One composed skin: the skins in order (later wins per (slot, name)) and what they activate. */
typedef struct mf_composed_skin {
    int32_t skin_count;
    const int32_t *skins;        /* the list as given */
    int32_t entry_count;
    const mf_sd_skin_entry *entries; /* sorted by (slot, name); the winner of each pair */
    int32_t fallback;            /* the "default" skin when the list lacks it, else -1 */
    const uint8_t *bone_active;  /* per bone: 1 when active with this skin list */
    const uint8_t *ik_active, *transform_active, *path_active, *physics_active;
} mf_composed_skin;

mf_result mf_skin_cache_create(const mf_skel_data *data, const mf_allocator *alloc,
                               mf_skin_cache **out);
void mf_skin_cache_destroy(mf_skin_cache *cache);
/* The table of a skin list (count 0: no skin), built and cached on first use. Errors:
 * MF_ERR_ARGUMENT (a skin index out of range: diag names it), MF_ERR_NOMEM. */
mf_result mf_skin_cache_compose(mf_skin_cache *cache, const int32_t *skins, int32_t count,
                                const mf_composed_skin **out, mf_diag *diag);
/* The attachment a composed skin gives (slot, name offset): the list's skins first, then the
 * skin named "default" as Spine does; -1 when none has it. */
int32_t mf_composed_skin_find(const mf_skel_data *data, const mf_composed_skin *skin, int32_t slot,
                              int32_t name);

/* ---------------------------------------------------------------- the pose */

/* The pose, structure of arrays. Read freely; write the local pose between mf_pose_reset()
 * and mf_pose_update_world() if you must (bone overrides are the checked way). */
typedef struct mf_pose {
    const mf_skel_data *data;
    const mf_composed_skin *skin; /* NULL until mf_pose_set_skins(): no skin (default only) */
    int32_t bone_count, slot_count;
    /* bones: local pose (animated), applied pose (what constraints read), world 2×3 */
    float *x, *y, *rot, *sx, *sy, *shx, *shy;
    float *ax, *ay, *arot, *asx, *asy, *ashx, *ashy;
    float *a, *b, *c, *d, *wx, *wy;
    uint8_t *inherit, *active;
    /* slots */
    float *color;      /* 4 per slot, 0..1 straight */
    float *dark;       /* 3 per slot */
    int32_t *attachment; /* attachment index, -1 none */
    int32_t *seq_index;  /* sequence frame, -1: the attachment's setup frame */
    int32_t *draw_order; /* slot indices, back to front */
    int32_t *deform_first; /* per slot: its range in deform (max deform_count of its attachments) */
    int32_t *deform_attachment; /* per slot: the attachment the deform holds, -1: none this frame */
    float *deform;     /* offsets added to the attachment's vertices (bone space for weighted);
                        * a slot's range holds values only while deform_attachment names one
                        * (a host that sets it writes all of that attachment's offsets) */
    /* constraints */
    float *ik_mix, *ik_softness;
    int8_t *ik_bend;
    uint8_t *ik_compress, *ik_stretch, *ik_active;
    float *tf_mix;      /* 6 per transform constraint: rotate, x, y, scale x, scale y, shear y */
    uint8_t *tf_active;
    float *path_position, *path_spacing, *path_mix; /* path_mix: 3 per path: rotate, x, y */
    uint8_t *path_active;
    /* sampling */
    int32_t *cursor;    /* per timeline of the data: the key found last */
    /* the last mf_pose_update_world(): bone updates computed; bone updates skipped because
     * the bone's local values and inherit mode are unchanged, no constraint writes it and its
     * parent was skipped too (its world stands from the previous update: the dirty sub-tree
     * skip); bones whose cos and sin were computed (the others kept their rotation and shears;
     * constraints that turn bones add theirs) */
    int32_t bones_computed, bones_kept, trig_computed;
    /* private scratch (path constraints, sizes) */
    struct mf_pose_scratch *scratch;
    mf_allocator alloc;
} mf_pose;

/* Allocates a pose for data (which must outlive it) and resets it to the setup pose with no
 * skin. MF_ERR_ARGUMENT on NULL arguments, MF_ERR_NOMEM. */
mf_result mf_pose_create(const mf_skel_data *data, const mf_allocator *alloc, mf_pose **out,
                         mf_diag *diag);
void mf_pose_destroy(mf_pose *pose);

/* Sets the skins (indices into data->skins, in order; count 0: none) through the shared
 * cache: activates skin-required bones and constraints and re-resolves slot attachments by
 * name (setup attachment where the new skin lacks it, else none). Allocates only when the
 * cache has no table for this list yet. */
mf_result mf_pose_set_skins(mf_pose *pose, mf_skin_cache *cache, const int32_t *skins,
                            int32_t count, mf_diag *diag);

/* Resets the local pose to the setup pose: bones, inherit, slot colours, attachments,
 * sequence frames, draw order, deform and constraint mixes. */
void mf_pose_reset(mf_pose *pose);

/* Slot tracking (off by default). On, a draw list built whole from this pose keeps its items as
 * they are at its next build when no slot changed since (mf_geometry.h): only the world
 * vertices are written again, the item walk (each item's image and colours from the slots) is
 * skipped. A crowd whose clips key bones, or key attachments and draw order that hold between
 * keys, pays for its items only on the frames they change. Changes are counted where the
 * runtime writes slot state and a value's bits move: samples (colour, attachment, sequence and
 * draw order timelines), mf_pose_reset, mf_pose_set_skins, mf_pose_timeline_setup and
 * mf_pose_slot_setup_attachment. With tracking on, a host that writes the slot arrays itself
 * (color, dark, attachment, seq_index, draw_order, or active) must call mf_pose_slots_changed()
 * before the next build; with it off (the default) every build walks the items. Turning it on
 * or off counts as a change. Items are kept for one list a pose: a pose built into two lists in
 * turn walks every build. A kept item is the list's as it was (mf_draw_list's arrays are read,
 * never written, by a host). */
void mf_pose_set_slot_tracking(mf_pose *pose, bool on);
/* Tells slot tracking that the host wrote slot state itself. Does nothing when pose is NULL. */
void mf_pose_slots_changed(mf_pose *pose);

/* ---------------------------------------------------------------- sampling */

typedef enum mf_clip_blend { MF_CLIP_REPLACE = 0, MF_CLIP_ADDITIVE } mf_clip_blend;

/* Key segments compiled once per data for all its poses (built by mf_tracks_shared_create,
 * mf_tracks.h; read-only, any thread). */
typedef struct mf_seg_table mf_seg_table;

/* One clip sample. Replace lerps the pose towards the clip by weight; Additive adds the clip's
 * change from the setup pose times weight. Discrete timelines (attachment, draw order,
 * sequence, inherit, IK bend / compress / stretch) apply when weight >= discrete_threshold
 * (0 means 0.5). bone_mask: NULL, or one byte per bone (0: leave the bone and its slots). */
typedef struct mf_clip_sample {
    int32_t clip;
    double time, prev_time; /* seconds, track time (looping wraps it when loop is set); double
                             * so that long sessions and exact loop ends wrap as they should */
    float weight;
    mf_clip_blend blend;
    bool loop;
    float discrete_threshold;
    const uint8_t *bone_mask;
    /* NULL, or one weight per timeline of the clip (in clip order) for the continuous
     * timelines, overriding weight (<= 0 skips the timeline); weight still decides the
     * discrete rule. The track mixer (mf_tracks.h) gives held and fading timelines
     * different weights this way. */
    const float *timeline_weights;
    /* NULL, or the segment table of the pose's data (mf_tracks_shared_segs): the full-weight
     * Replace sample (weight 1, unmasked, no timeline_weights) reads it instead of the pose's
     * own key segments, the same values. The tracks fill it when created with a shared object.
     * A table of other data: MF_ERR_ARGUMENT. */
    const mf_seg_table *segs;
} mf_clip_sample;

/* Applies one sample. MF_ERR_ARGUMENT for a bad clip index or a NaN time (pose unchanged). */
mf_result mf_pose_sample(mf_pose *pose, const mf_clip_sample *s);

/* The clip-local time of a track time: wrapped when looping, clamped to the length else. */
float mf_clip_local_time(const mf_skel_data *data, int32_t clip, double time, bool loop);

/* A fired event: its definition and the key's payload. */
typedef struct mf_fired_event {
    int32_t event;   /* index into data->events */
    int32_t int_value;
    float float_value;
    int32_t string;  /* string offset, -1 none */
    float volume, balance;
    float time;      /* the key's time in the clip */
} mf_fired_event;

/* Collects the events of a clip keyed in (prev_time, time] of track time (loop wraps
 * included; prev_time < 0 means "from the start", so a key at 0 fires) into out[cap], in
 * firing order. *count gets how many were stored, *dropped (may be NULL) how many did not fit. */
mf_result mf_pose_events(const mf_pose *pose, int32_t clip, double prev_time, double time, bool loop,
                         mf_fired_event *out, int32_t cap, int32_t *count, int32_t *dropped);

/* ---------------------------------------------------------------- overrides and world */

enum {
    MF_OVERRIDE_TRANSLATE = 1u << 0, MF_OVERRIDE_ROTATE = 1u << 1, MF_OVERRIDE_SCALE = 1u << 2,
    MF_OVERRIDE_SHEAR = 1u << 3, MF_OVERRIDE_ALL = 15u
};
/* A bone override from game code, applied after clips and before constraints. world: x, y and
 * rot are in skeleton space (converted through the parent's current world transform, so
 * call mf_pose_update_world() first when the parent moved); else local. mix 0..1 lerps. */
typedef struct mf_bone_override {
    uint32_t channels; /* MF_OVERRIDE_* */
    bool world;
    float mix;
    float x, y, rot, sx, sy, shx, shy;
} mf_bone_override;
mf_result mf_pose_override(mf_pose *pose, int32_t bone, const mf_bone_override *ov);

/* Computes world transforms in the build's update order, running IK, transform, path and
 * physics constraints between bone updates (inactive bones and constraints skipped). Unchanged
 * sub-trees keep their world (bones_kept); the cos and sin of every bone's local matrix are
 * computed first, eight or four bones at a time, and only where rotation or shears changed
 * (trig_computed); a bone update is then a few multiplications. Results are identical to
 * computing everything. The applied values start as the local ones (a bone whose applied
 * values the host changes, through mf_pose_update_bone or mf_pose_update_applied, is computed
 * again at the next update). */
void mf_pose_update_world(mf_pose *pose);

/* Updates one bone's world transform from its applied values and its parent's world. */
void mf_pose_update_bone(mf_pose *pose, int32_t bone);
/* A host that writes a, b, c, d, wx or wy itself calls this afterwards: skinning reads a
 * packed copy of the world made by the first skinning call after mf_pose_update_world (the
 * next skinning call packs it again), and the next update must not keep any bone's world
 * from before the change. Because of that copy, computing vertices may write the pose's
 * scratch: a pose is read by one thread at a time like it is written. */
void mf_pose_world_changed(mf_pose *pose);
/* Recomputes a bone's applied (local) values from its world transform. */
void mf_pose_update_applied(mf_pose *pose, int32_t bone);

/* World transform query: m = {a, b, c, d, wx, wy}. MF_ERR_ARGUMENT for a bad index. */
mf_result mf_pose_bone_world(const mf_pose *pose, int32_t bone, float m[6]);
/* A bone's world rotation (degrees, of its x axis) and scales. */
float mf_pose_bone_world_rotation(const mf_pose *pose, int32_t bone);

/* ---------------------------------------------------------------- SIMD paths */

/* The instruction sets a pose may use on x86, each level adding to the one before. A pose is
 * created at the widest its CPU and OS offer; every level gives the same bits (each path does
 * the others' operations in the same order, with no fused multiply-adds), so a cap changes
 * speed only. Hosts that run games in lockstep, or check a change against all paths, cap it.
 *   MF_SIMD_BASE    SSE2 (the build's baseline; NEON on aarch64): the world update, sampler,
 *                   dirty mark and skinning four lanes at a time
 *   MF_SIMD_AVX     + AVX skinning (world vertices, draw lists) and its bone packing
 *   MF_SIMD_AVX2    + AVX2 dirty mark and trigonometry, world update passes, shared-table
 *                   sampler, IK, transform and physics builds
 *   MF_SIMD_AVX512  + AVX-512 (F, BW, VL) dirty mark and bone packing
 * MF_SIMD_AUTO: the widest available. */
typedef enum mf_simd { MF_SIMD_AUTO = 0, MF_SIMD_BASE, MF_SIMD_AVX, MF_SIMD_AVX2, MF_SIMD_AVX512 } mf_simd;

/* Caps the pose's paths at cap: each level is used where the CPU offers it and cap is at least
 * that level (AUTO: no cap, as at create). Any frame may switch (the packed skinning matrices
 * are packed again). A -DMF_NO_SIMD build, or a CPU other than x86, takes any valid cap and
 * stays on its one path. MF_ERR_ARGUMENT for NULL or a value out of range (pose unchanged). */
mf_result mf_pose_set_simd(mf_pose *pose, mf_simd cap);
/* The widest level the pose uses now (MF_SIMD_BASE .. MF_SIMD_AVX512; never AUTO):
 * MF_SIMD_BASE for NULL, in -DMF_NO_SIMD builds and off x86. */
mf_simd mf_pose_simd(const mf_pose *pose);

#ifdef __cplusplus
}
#endif
#endif
