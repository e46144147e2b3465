/* Shared by the runtime pose modules (not public). */
#ifndef MF_POSE_INTERNAL_H
#define MF_POSE_INTERNAL_H

#include <math.h>
#include <string.h>

#include "mf/mf_physics.h"
#include "mf/mf_pose.h"

#define MF_PI 3.14159265358979323846
#define MF_DEG (MF_PI / 180.0)
#define MF_RAD (180.0 / MF_PI)

/* Out of line, and with GCC also kept out of interprocedural changes (its parameters not split
 * or copied); clang has no noipa. */
#if defined(__clang__)
#define MF_NOIPA __attribute__((noinline))
#else
#define MF_NOIPA __attribute__((noinline, noipa))
#endif

#define MF_PATH_SEGMENTS 10 /* samples per bezier for constant-speed arc lengths */

/* A timeline's key segment found last by the sampler (pose_sample.c): key k holds for t0 <= t
 * < t1 (-inf / +inf before the first / from the last key); zeroed (before its clip's first
 * sample): never matches.
 * For the bone kinds (inherit aside) the segment is also compiled for the full-weight Replace
 * sample (how != MF_SEG_NONE): the pose channels it writes and what they get, so that most
 * frames read neither the timeline nor its keys. 64 bytes: a frame touches one per timeline of
 * its clips, for every instance (the key times as floats, tested against t rounded down to a
 * float; the channels an index; k the timeline's cursor; the attachment and IK fields in the
 * place of curve fields they never use). */
typedef struct mf_pose_seg {
    double span; /* curves: t1 - t0 in double (u as seg_u has it without widening the times) */
    float t0, t1;
    union {
        const mf_sd_bezier *bz[2]; /* curves (bone, IK): the channels' beziers, NULL: linear */
        const struct mf_bz_prep *pz[2]; /* a shared table's curves: the same prepared
                                         * (mf_bz_prep, curve_eval.h), NULL: linear */
        struct {
            const struct mf_bz_prep *pz1_; /* pz[0] of a table's one-channel curve ... */
            double t0d;                    /* ... whose t0 is kept widened here too */
        };
        int32_t att;   /* attachment: the name's attachment without skins (MF_SEG_UNKNOWN:
                        * compiled under skins, looked up each time) */
        struct {       /* colour and constraint values (MF_SEG_VALUES): key k's values (key
                        * k + 1's after them) and curve codes */
            const float *kv;
            const int32_t *codes;
        };
    };
    union {
        float set[2];  /* bone: the channels' setup values */
        struct {
            int32_t slot, name; /* attachment: the slot and the attachment name it sets; IK: the
                                 * constraint and its bend, compress and stretch (a byte each);
                                 * values: the slot or constraint and the timeline's kind, its
                                 * value count and whether each has its own curve (a byte each) */
        };
    };
    float v0[2], dv[2]; /* curves: key k's values and the change to k + 1 (0 * it where
                         * stepped: the value holds); hold: the channels' values */
    int32_t dst; /* bone: the first channel written, floats from pose x; a second is as far from
                  * pose y (x y, sx sy, shx shy: arrays of one size carved in turn) */
    uint8_t how;        /* MF_SEG_* */
    uint8_t comps;      /* bone: channels written, 0 until resolved (then dst and set do not change) */
    uint8_t scale;      /* bone: the channels scale */
    uint8_t before;     /* k is -1 (before the first key); else k is the timeline's cursor */
} mf_pose_seg;

/* The update order as the world update runs it (pose_dirty.c builds it at create): bone
 * updates, most of them fast ones, and constraints, then MF_OP_END. A fast bone update (kind
 * >= 0) is of bone kind, a its parent: no constraint before it in the order writes the bone,
 * so its trigonometry is fresh; the other kinds are negative (one load tells a fast update and
 * its bone). */
enum {
    MF_OP_BONE = -7, /* a: bone, b: parent (bone_count for a root); a root, or a bone a
                      * constraint before it wrote */
    MF_OP_IK_LAST,   /* a: IK constraint, b: its last bone, whose update comes just before it:
                      * the update is skipped when the IK surely overwrites the bone's world;
                      * the op after it is data: kind the IK's first bone when it has two or
                      * more (-1: one), a the last bone's parent (bone_count for a root) */
    MF_OP_IK, MF_OP_TRANSFORM, MF_OP_PATH, MF_OP_PHYSICS, /* a: the constraint */
    MF_OP_END        /* -1: the program's end (no bound to test an op) */
};
typedef struct mf_pose_op {
    int32_t kind, a, b;
} mf_pose_op;

/* The dirty mark's code per bone (mf_pose_scratch.changed, pose_dirty.c): must compute, is
 * inactive, inherits other than Normal. 0 or MF_CHANGED: the world update's common case. The
 * update adds MF_KEPT to the code of a bone it kept (its children read it there: no array of
 * kept flags to clear and address). */
enum { MF_CHANGED = 1, MF_CHANGED_INACTIVE = 2, MF_CHANGED_INHERIT = 4, MF_KEPT = 8 };

#define MF_SEG_UNKNOWN INT32_MIN

/* The key segments of one data compiled once for all its poses (mf_seg_table, mf_pose.h): per
 * timeline of the data its entries, k = -1 (before the first key) then every key k (the last:
 * held), each what mf_pose_seg_compile gives a pose without skins; the full-weight Replace
 * sample reads them instead of the pose's own, which keeps only the index of its current entry
 * (mf_pose_scratch.seg_at). Read-only once built: shared by threads. */
typedef struct mf_seg_span {
    const mf_pose_seg *seg; /* the timeline's entries from k = -1, zeroed ones (which no time
                             * matches) after them up to a power of two; a kind not compiled:
                             * one zeroed entry */
    uint32_t mask;          /* that power of two's entries less one, times sizeof(mf_pose_seg):
                             * any offset masked with it is a whole entry's of the timeline */
    uint32_t end;           /* (key_count + 1) * sizeof(mf_pose_seg); 0: a kind not compiled (the
                             * pose's own segments) */
} mf_seg_span;
struct mf_seg_table {
    const mf_sd_timeline *timelines; /* the data's (which data the table is of) */
    int32_t timeline_count, bone_count;
    const mf_seg_span *span; /* per timeline of the data */
};

/* Floats from one local channel array of a pose to the next (x, y, rot, sx, sy, shx, shy are
 * carved in turn, each on 16 bytes: pose_create.c). */
static inline int32_t mf_pose_local_stride(int32_t bone_count)
{
    return (int32_t)(((size_t)bone_count * sizeof(float) + 15u) / 16u * 4u);
}

/* The entries a table of d holds (the kinds it compiles: key_count + 1 a timeline up to a
 * power of two, and one zeroed for the others), and its
 * filling from the data alone (span and seg sized by the caller: timeline_count spans,
 * entries segments; prep: bezier_count prepared beziers, which the table's curve entries
 * point at instead of the data's). */
size_t mf_seg_table_entries(const mf_skel_data *d);
void mf_seg_table_fill(const mf_skel_data *d, mf_seg_span *span, mf_pose_seg *seg, struct mf_bz_prep *prep);

/* mf_pose_seg.how: not compiled; held values; one or two added channels on curves; scale;
 * an attachment key (discrete samples set it); IK mix and softness, held or on curves (with
 * the discrete values); colour or transform / path constraint values between two keys */
enum {
    MF_SEG_NONE = 0, MF_SEG_HOLD, MF_SEG_CURVE1, MF_SEG_CURVE2, MF_SEG_SCALE1, MF_SEG_SCALE2, MF_SEG_ATTACH,
    MF_SEG_IK_HOLD, MF_SEG_IK, MF_SEG_VALUES
};

/* Scratch the constraints need, sized at create. */
typedef struct mf_pose_scratch {
    int32_t path_bones_cap;  /* max bones of a path constraint */
    int32_t path_world_cap;  /* floats of a path's world points (closed paths included) */
    int32_t path_curves_cap; /* curves of a path */
    float *spaces, *lengths; /* path_bones_cap + 1 */
    float *positions;        /* 3 * (path_bones_cap + 1) + 2 */
    float *world;            /* path_world_cap */
    float *curves;           /* path_curves_cap */
    float segments[MF_PATH_SEGMENTS];
    int32_t default_skin; /* the skin named "default", -1 none */
    mf_pose_seg *seg;     /* per timeline of the data (the sampler's key segments); a clip's
                           * are cleared when it is first sampled (create leaves them as the
                           * allocator gave them: a rig's unplayed clips commit no pages) */
    uint8_t *seg_ready;   /* per clip: 1 once its segments are cleared */
    int32_t *seg_at;      /* per timeline of the data: its current entry of a shared table
                           * (mf_seg_table), as the byte offset (k + 1) * sizeof(mf_pose_seg),
                           * any table of the data; checked before use (0 at create) */
    /* per bone the cos and sin of its local matrix's two angles (pose_trig.c), keyed on the
     * angles' bits */
    uint32_t *trig_kx, *trig_ky;
    float *trig_cx, *trig_sx, *trig_cy, *trig_sy;
    /* the dirty sub-tree skip (pose_dirty.c): inherit mode at the last world update, per
     * bone whether its update must compute (values changed, a constraint writes it, inactive,
     * or its world is not one an update computed; MF_CHANGED_*) and whether this update kept
     * it (MF_KEPT; bone_count + 1 codes: the last, MF_KEPT, stands for a root's parent, always
     * kept), whether a constraint writes it, whether its world is one an update computed */
    uint8_t *prev_inherit, *changed, *constrained, *world_valid;
    mf_pose_op *ops; /* the update program: update_count ops at most, and the end */
    int32_t op_count;
    int32_t fast_count; /* its fast bone updates (kind >= 0) */
    /* the world packed for skinning, {a, b, wx, 0, c, d, wy, 0} a bone and an all-zero one
     * after them, written by the first CPU skinning after a world update (geom_vertices.c);
     * valid: 0 after a world update or any other world change */
    float *skin_mats;
    uint8_t skin_mats_valid;
    uint8_t skin_avx; /* the CPU has AVX and the cap allows it (pose_simd.c: at create, mf_pose_set_simd) */
    uint8_t trig_avx2; /* AVX2 (as skin_avx): the trigonometry cache filled eight bones a step */
    uint8_t inherit_other; /* the data gives a bone an inherit mode other than Normal or
                            * OnlyTranslation (setup or timeline): the dirty mark leaves their
                            * trigonometry to the update (pose_dirty.c) */
    /* per IK constraint the child's offset angle of its last two-bone solve (pose_ik.c),
     * keyed on the bits of the child's x and y it came from (2 a constraint) */
    double *ik_os;
    uint32_t *ik_os_key;
    /* physics constraints (pose_physics*.c): animated settings and spring state per
     * constraint, and the frame's inputs (time, instance movement) and skeleton-wide settings */
    float *phys_values;   /* MF_PHYS_V_COUNT floats a constraint */
    struct mf_phys_fixed *phys_fixed; /* per constraint what depends on the data only */
    float *phys_state;    /* MF_PHYS_STATE floats a constraint */
    double *phys_remaining; /* per constraint: time not yet stepped (double: see pose_physics.c) */
    float phys_move_x, phys_move_y, phys_gravity, phys_wind, phys_mix, phys_teleport;
    double phys_dt, phys_clock; /* the frame's time and the summed frame times */
    double phys_frame_dt;       /* the time handed at the last begin (a reset keeps only it) */
    int32_t phys_mode;    /* mf_physics_mode */
    void *cold;           /* the pose's second block (mf_alloc_cold): path scratch and deform */
    struct mf_ik_fixed *ik_fixed; /* per IK constraint what its solve needs from the data */
    /* s12-world: */
    uint8_t trig_avx512; /* AVX-512 too (as skin_avx): the dirty mark sixteen bones a register */
    /* slot tracking (mf_pose_set_slot_tracking): on; a count of the slot changes (any write of
     * slot state by the runtime, or the host's mf_pose_slots_changed); the draw list built whole
     * from this pose last (geom_draw.c), NULL none */
    uint8_t slot_tracking;
    uint32_t slot_stamp;
    const void *slot_list;
} mf_pose_scratch;

/* An IK constraint's bones as its solve takes them, from the data alone (pose_create.c), so a
 * frame tests no rig-constant facts: bone the first (the parent of a two-bone chain), child
 * the second (-1: one bone), pp bone's parent (-1: a root), len the length the solve reads
 * (child's for two bones, bone's for one). */
typedef struct mf_ik_fixed {
    int32_t bone, child, pp, target;
    float len;
    uint8_t kind; /* MF_IKF_* */
    uint8_t uniform;
    uint8_t pad[2];
} mf_ik_fixed;
/* one bone; two bones forming a chain under a parent bone (child's parent is bone, pp >= 0:
 * the fast two-bone pass's shape); two bones otherwise (the general pass only) */
enum { MF_IKF_ONE = 1, MF_IKF_CHAIN, MF_IKF_TWO };

/* A constraint's spring constants (k, damp, mass of mf_phys_spring) as last computed, with the
 * bits of the strength, damping and mass they came from (key[3] unused). */
typedef struct mf_phys_spring_cache {
    uint32_t key[4];
    float k, damp, mass, pad;
} mf_phys_spring_cache;

/* What a physics constraint's solve needs from the data alone, worked out once at create
 * (mf_pose_physics_prepare) instead of every frame. */
typedef struct mf_phys_fixed {
    double step;   /* the fixed step, seconds (1 / fps recovered from the stored float) */
    float cap;     /* the speed limit times the step: the most an axis moves in one step */
    float e;       /* 60 times the step as a float: damping's exponent (exactly 1 by default) */
    float len;     /* the bone's length */
    float turn;    /* rotate + shear_x: how far the shown tip turns per radian, before mix */
    int32_t bone, parent;
    uint8_t xy;    /* a translation channel (x or y > 0) */
    uint8_t spin;  /* a turning or stretching channel (rotate, shear_x or scale_x > 0) on a bone
                    * of positive length */
    uint8_t chan;  /* MF_PF_*: which of rotate, shear_x, scale_x are > 0 */
    uint8_t skin_required; /* MF_SD_PHYS_SKIN_REQUIRED: without a skin it does not run */
    /* phys (session 12): the data's channel amounts, here so that a solve reads one record */
    float x, y, rotate, shear_x, scale_x;
    /* the pose's own (mf_pose_physics_prepare sets them; mf_pose_physics_fixed leaves NULL):
     * the constraint's phys_state, phys_values and phys_remaining, and its spring cache */
    float *state;
    const float *values;
    double *remaining;
    mf_phys_spring_cache spring;
} mf_phys_fixed;
enum { MF_PF_ROTATE = 1, MF_PF_SHEAR = 2, MF_PF_SCALE = 4 };
/* Constraint k's fixed data (mf_pose_physics_prepare fills a pose's; the GPU's rig program
 * takes its channels from it too). */
void mf_pose_physics_fixed(const mf_skel_data *d, int32_t k, mf_phys_fixed *f);

/* phys_state layout per constraint */
enum {
    MF_PS_INIT = 0, MF_PS_RESET, MF_PS_UX, MF_PS_UY, MF_PS_TX, MF_PS_TY, MF_PS_XO, MF_PS_YO,
    MF_PS_XV, MF_PS_YV, MF_PS_RO, MF_PS_RV, MF_PS_SO, MF_PS_SV, MF_PS_REMAINING, MF_PS_MOVE_X,
    MF_PS_MOVE_Y, MF_PHYS_STATE
};


/* i / 255.0f for every byte i (geom_draw.c): unpacking colours without divisions. */
extern const float mf_unit_byte[256];

/* fmod(x, y) without the call for a looping clip's time: x in [0, y) is x itself; with y a
 * float's value (24 significant bits) and x < 2^28 y, q = trunc(x / y) is the quotient or one
 * off, q y and (q -+ 1) y are exact (53 bits), and x - Q y for the right Q is fmod's exact
 * result, which the subtraction then gives exactly (a wrong q shows as a result below 0 or
 * from y: rounding keeps those orders). Anything else (negative, NaN, huge) is fmod's. */
static inline double mf_fmod_lap(double x, double y)
{
    if (x >= 0.0 && x < y) return x;
    if (x >= y && x < y * 0x1p28 && y == (double)(float)y) {
        double q = (double)(int64_t)(x / y), r = x - q * y;
        if (r < 0.0) r = x - (q - 1.0) * y;
        else if (r >= y) r = x - (q + 1.0) * y;
        return r;
    }
    return fmod(x, y);
}

/* Wraps degrees into [-180, 180]. */
static inline float mf_wrap_deg(float r)
{
    return r - ceilf(r / 360.0f - 0.5f) * 360.0f;
}
static inline double mf_wrap_rad(double r)
{
    if (r > MF_PI) return r - 2 * MF_PI;
    if (r < -MF_PI) return r + 2 * MF_PI;
    return r;
}

/* The attachment for (slot, name offset) under the pose's skins; -1 none. */
int32_t mf_pose_find_attachment(const mf_pose *pose, int32_t slot, int32_t name);
/* Sets a slot's attachment the way a key or a reset does (sequence frame back to setup). */
void mf_pose_set_attachment(mf_pose *pose, int32_t slot, int32_t attachment);
/* A change of slot state (colours, attachments, sequence frames, draw order, active bones): draw
 * lists walk their items again at their next build (slot tracking). The runtime's writers call
 * it where a value's bits moved: the sampler (pose_sample.c, pose_seg.c), reset, skins, setup
 * mixes and mf_pose_set_attachment. */
static inline void mf_pose_slots_touched(mf_pose *pose) { pose->scratch->slot_stamp++; }
/* A slot's colours (light 4, dark 3) kept before a write; after it, a change counted where a
 * bit moved. */
static inline void mf_pose_colours_keep(const mf_pose *pose, int32_t slot, float was[7])
{
    memcpy(was, pose->color + 4 * slot, 4 * sizeof(float));
    memcpy(was + 4, pose->dark + 3 * slot, 3 * sizeof(float));
}
static inline void mf_pose_colours_moved(mf_pose *pose, int32_t slot, const float was[7])
{
    if (memcmp(was, pose->color + 4 * slot, 4 * sizeof(float)) || memcmp(was + 4, pose->dark + 3 * slot, 3 * sizeof(float)))
        mf_pose_slots_touched(pose);
}
/* The draw order back to setup (slot order), a change where it was not. */
static inline void mf_pose_draw_order_setup(mf_pose *pose)
{
    bool moved = false;
    for (int32_t s = 0; s < pose->slot_count; s++) moved |= pose->draw_order[s] != s, pose->draw_order[s] = s;
    if (moved) mf_pose_slots_touched(pose);
}

/* mf_pose_update_applied for a bone known to be in range (a constraint's). */
void mf_pose_applied_update(mf_pose *pose, int32_t bone);

/* Bone world update from explicit applied values (they become the bone's applied values). */
void mf_pose_update_bone_with(mf_pose *pose, int32_t bone, float x, float y, float rot, float sx,
                              float sy, float shx, float shy);

/* The dirty sub-tree skip (pose_dirty.c): setup at create, clear after outside world writes,
 * mark before each update order (also copies local to applied values and fills the
 * trigonometry cache; returns the bones whose trigonometry it computed). */
void mf_pose_dirty_setup(mf_pose *pose);
void mf_pose_dirty_clear(mf_pose *pose);
int32_t mf_pose_dirty_mark(mf_pose *pose);

/* Constraints (pose_ik.c, pose_transform.c, pose_path.c). */
void mf_pose_apply_ik(mf_pose *pose, int32_t ik);
void mf_pose_apply_transform(mf_pose *pose, int32_t tf);
void mf_pose_apply_path(mf_pose *pose, int32_t path);
/* The IK solve's AVX2 build (defined where pose_trig.h's MF_TRIG_AVX2 is set): the world
 * update's AVX2 loop calls it directly, not through mf_pose_apply_ik's CPU test. */
void mf_pose_apply_ik_avx2(mf_pose *pose, int32_t ik);
/* Physics (pose_physics*.c): the frame's start (takes the pending time and movement), one
 * constraint at its place in the order, setup settings (from mf_pose_reset), and a physics
 * timeline of a sample (prev_time/time are track times; loop as sampled). */
void mf_pose_physics_begin(mf_pose *pose);
void mf_pose_apply_physics(mf_pose *pose, int32_t physics);
void mf_pose_physics_setup(mf_pose *pose);
void mf_pose_physics_take(mf_pose *pose, double *dt, float *move_x, float *move_y, uint8_t *resets);
/* Fills the scratch's per-constraint fixed data (at create). */
void mf_pose_physics_prepare(mf_pose *pose);
/* What the solver (pose_physics_solve.c) and the GPU's host side (gpu_batch.c) share, so that
 * both step the same springs on the same frames: whether constraint k runs for the pose (its
 * skin has it and its bone is active); the fixed steps a constraint's remaining time holds (at
 * most MF_PHYSICS_MAX_STEPS, the rest beyond the cap dropped), taken off it; a step's spring
 * settings from the constraint's values v, the wind fx and gravity fy, the step h and
 * e = 60 h (exactly 1 at the default step: damping then as it is, no powf). */
static inline bool mf_pose_physics_runs(const mf_pose *p, int32_t k)
{
    bool on = p->skin ? p->skin->physics_active[k] != 0 : !(p->data->physics[k].flags & MF_SD_PHYS_SKIN_REQUIRED);
    return on && p->active[p->data->physics[k].bone];
}
/* mf_pose_physics_runs from the constraint's fixed data (the solver's: its line is read next
 * anyway, and no data lookups through the constraint's stride). */
static inline bool mf_pose_physics_runs_fixed(const mf_pose *p, int32_t k, const mf_phys_fixed *f)
{
    bool on = p->skin ? p->skin->physics_active[k] != 0 : !f->skin_required;
    return on && p->active[f->bone];
}
static inline int32_t mf_pose_physics_steps(double *remaining, double step)
{
    int32_t steps = 0;
    for (; *remaining >= step && steps < MF_PHYSICS_MAX_STEPS; steps++) *remaining -= step;
    if (*remaining >= step) *remaining = fmod(*remaining, step); /* beyond the cap: dropped */
    return steps;
}
typedef struct mf_phys_spring {
    float k, damp, mass; /* strength / mass; velocity kept per step; mass */
    float fx, fy;        /* wind and gravity settings */
    float tx, ty;        /* the translation channel's acceleration from them */
    float h;             /* the step, seconds */
} mf_phys_spring;
mf_phys_spring mf_pose_physics_spring(const float *v, float fx, float fy, float h, float e);
void mf_pose_physics_timeline(mf_pose *pose, const mf_sd_timeline *tl, int32_t key, double time,
                              double local_prev, double local_time, bool wrapped, float weight);

/* World position of vertex i of an attachment on a slot (with the slot's deform). */
void mf_pose_world_vertex(const mf_pose *pose, int32_t slot, int32_t att, int32_t i, float *x,
                          float *y);
#endif
