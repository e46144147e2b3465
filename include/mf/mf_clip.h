/* mf_clip.h — the clip source model (`.manim`), its JSON reader, canonical writer and the check
 * of a clip against its rig.
 *
 * Offline module (libmf_offline). A clip is one file; its name is the file name without
 * `.manim`. A skeleton finds its clips in `<name>.clips/` beside the `.mskel` (or the folder its
 * "clips" field names).
 *
 *     mf_clip *clip = NULL;
 *     if (mf_clip_load("hero.clips/walk.manim", &clip, &diag) == MF_OK &&
 *         mf_clip_check(clip, skeleton, "hero.clips/walk.manim", &diag) == MF_OK) { ... }
 *     mf_clip_free(clip);
 *
 * Every timeline is one mf_timeline with parallel per-key arrays. Numeric values are floats,
 * `comps` of them a key (colours as 0..1 components); discrete values (inherit, bend, attachment
 * names, sequence modes, draw order moves, events, deform runs) have arrays of their own.
 * Curves are stored per segment and per component: curves[seg * comps + c]. The writer folds
 * equal components into one shared curve and leaves out an all-linear "curve".
 * Names in a clip are not resolved: mf_clip_check() says whether the rig has them.
 */
#ifndef MF_CLIP_H
#define MF_CLIP_H

#include "mf/mf_skeleton.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MF_CLIP_FORMAT 1

typedef enum mf_timeline_kind {
    /* bones: target = bone name */
    MF_TL_ROTATE = 0,   /* v: angle */
    MF_TL_TRANSLATE,    /* v: x, y */
    MF_TL_TRANSLATE_X,
    MF_TL_TRANSLATE_Y,
    MF_TL_SCALE,        /* v: sx, sy */
    MF_TL_SCALE_X,
    MF_TL_SCALE_Y,
    MF_TL_SHEAR,        /* v: shx, shy */
    MF_TL_SHEAR_X,
    MF_TL_SHEAR_Y,
    MF_TL_INHERIT,      /* iv: mf_inherit (discrete) */
    /* slots: target = slot name */
    MF_TL_ATTACHMENT,   /* names[] (NULL = none; discrete) */
    MF_TL_RGBA,         /* v: r, g, b, a */
    MF_TL_RGB,          /* v: r, g, b */
    MF_TL_ALPHA,        /* v: a */
    MF_TL_RGBA2,        /* v: r, g, b, a, dark r, g, b */
    MF_TL_SEQUENCE,     /* iv: mode, index; v: delay (not interpolated) */
    /* constraints: target = constraint name */
    MF_TL_IK,           /* v: mix, softness; iv: bend, compress, stretch */
    MF_TL_TRANSFORM,    /* v: mixRotate, mixX, mixY, mixScaleX, mixScaleY, mixShearY */
    MF_TL_PATH_POSITION,/* v: position */
    MF_TL_PATH_SPACING, /* v: spacing */
    MF_TL_PATH_MIX,     /* v: mixRotate, mixX, mixY */
    MF_TL_PHYSICS_INERTIA, /* physics: target "" means every physics constraint */
    MF_TL_PHYSICS_STRENGTH,
    MF_TL_PHYSICS_DAMPING,
    MF_TL_PHYSICS_MASS,
    MF_TL_PHYSICS_WIND,
    MF_TL_PHYSICS_GRAVITY,
    MF_TL_PHYSICS_MIX,
    MF_TL_PHYSICS_RESET, /* times only */
    /* other */
    MF_TL_DEFORM,       /* target = slot; skin, attachment; deform[] + scalar curve */
    MF_TL_DRAW_ORDER,   /* draw_order[] (discrete) */
    MF_TL_EVENT,        /* events[] */
    MF_TL_KIND_COUNT
} mf_timeline_kind;

/* The key name of a timeline inside its group ("rotate", "rgba2", "position", "reset" …; "ik",
 * "transform", "deform", "drawOrder", "events" for the kinds that are a group of their own). */
const char *mf_timeline_kind_name(mf_timeline_kind k);
/* Float components a key holds for this kind (ik: 2, transform: 6, rgba2: 7, sequence: 1 …). */
int32_t mf_timeline_kind_comps(mf_timeline_kind k);
/* Integer components a key holds (inherit: 1, sequence: 2, ik: 3, others 0). */
int32_t mf_timeline_kind_icomps(mf_timeline_kind k);

typedef enum mf_curve_type { MF_CURVE_LINEAR = 0, MF_CURVE_STEPPED, MF_CURVE_BEZIER } mf_curve_type;

/* A segment's curve; bezier control points normalised to the segment: x is the fraction of the
 * segment's time, y the fraction of its value change (y may leave 0..1 for overshoot). */
typedef struct mf_curve {
    mf_curve_type type;
    float cx1, cy1, cx2, cy2;
} mf_curve;

typedef enum mf_sequence_mode {
    MF_SEQ_HOLD = 0,
    MF_SEQ_ONCE,
    MF_SEQ_LOOP,
    MF_SEQ_PINGPONG,
    MF_SEQ_ONCE_REVERSE,
    MF_SEQ_LOOP_REVERSE,
    MF_SEQ_PINGPONG_REVERSE,
    MF_SEQ_MODE_COUNT
} mf_sequence_mode;
const char *mf_sequence_mode_name(mf_sequence_mode m); /* "hold", "once", "loop", "pingpong", "onceReverse", … */
int mf_sequence_mode_parse(const char *s);

typedef enum mf_loop_mode { MF_LOOP_NONE = 0, MF_LOOP_LINEAR, MF_LOOP_PINGPONG } mf_loop_mode;
const char *mf_loop_mode_name(mf_loop_mode m); /* "None", "Linear", "PingPong" */
int mf_loop_mode_parse(const char *s);

typedef struct mf_draw_order_move {
    char *slot;
    int32_t delta; /* positions moved relative to the setup order; negative = towards the back */
} mf_draw_order_move;

typedef struct mf_draw_order_key {
    int32_t move_count; /* 0: the setup order */
    mf_draw_order_move *moves;
} mf_draw_order_key;

/* An event key. Payload fields left out of the file take the event definition's defaults. */
typedef struct mf_event_key {
    char *name;
    bool has_int, has_float, has_string, has_volume, has_balance;
    int32_t int_value;
    float float_value;
    char *string_value;
    float volume, balance;
} mf_event_key;

/* A deform key: `count` floats starting at float index `offset` of the attachment's vertex
 * array (x, y pairs, or per-influence x, y for weighted meshes), added to the setup values. */
typedef struct mf_deform_key {
    int32_t offset;
    int32_t count;
    float *v;
} mf_deform_key;

/* Bits of mf_timeline.columns for ik and transform timelines: which value arrays the file
 * keys. A column left out takes the constraint's setup value. */
enum {
    MF_IK_COL_MIX = 1u << 0, MF_IK_COL_SOFTNESS = 1u << 1, MF_IK_COL_BEND = 1u << 2,
    MF_IK_COL_COMPRESS = 1u << 3, MF_IK_COL_STRETCH = 1u << 4,
    MF_TF_COL_ROTATE = 1u << 0, MF_TF_COL_X = 1u << 1, MF_TF_COL_Y = 1u << 2,
    MF_TF_COL_SCALE_X = 1u << 3, MF_TF_COL_SCALE_Y = 1u << 4, MF_TF_COL_SHEAR_Y = 1u << 5
};

typedef struct mf_timeline {
    mf_timeline_kind kind;
    char *target;        /* bone, slot or constraint name; NULL for drawOrder and events */
    char *skin;          /* deform: skin name */
    char *attachment;    /* deform: attachment name */
    int32_t key_count;
    float *t;            /* key times, ascending, seconds */
    int32_t comps;       /* = mf_timeline_kind_comps(kind) */
    float *v;            /* key_count * comps */
    int32_t icomps;      /* = mf_timeline_kind_icomps(kind) */
    int32_t *iv;         /* key_count * icomps */
    mf_curve *curves;    /* (key_count - 1) * max(comps, 1) for interpolated kinds, else NULL */
    uint32_t columns;    /* ik / transform: MF_*_COL_* bits present in the file */
    char **names;        /* attachment: key_count names (NULL entries = no attachment) */
    mf_draw_order_key *draw_order; /* drawOrder: key_count */
    mf_event_key *events;          /* events: key_count */
    mf_deform_key *deform;         /* deform: key_count */
} mf_timeline;

typedef struct mf_clip {
    int32_t format;       /* MF_CLIP_FORMAT */
    char *name;           /* from the file name; not stored in the file */
    char *uid;            /* "anm_" + 12 hex digits */
    char *skeleton_uid;   /* the rig's "skl_" uid */
    char *skeleton_path;  /* optional path hint, NULL when absent */
    float length;         /* seconds */
    float fps;            /* default 30 */
    mf_loop_mode loop;
    int32_t timeline_count;
    mf_timeline *timelines; /* in canonical order after mf_clip_sort() or reading */
    mf_arena *arena;
} mf_clip;

mf_clip *mf_clip_create(void);
void mf_clip_free(mf_clip *clip);
void *mf_clip_alloc(mf_clip *clip, size_t size);
char *mf_clip_strdup(mf_clip *clip, const char *s);

/* Parse from memory. name may be NULL (the clip then has no name); file is for diagnostics.
 * Checks shapes, enums, ascending times and curve arrays; not names against a rig. */
mf_result mf_clip_parse(const char *json, size_t len, const char *file, const char *name,
                        mf_clip **out, mf_diag *diag);
/* Reads a file; the clip's name is the file name without directories and extension. */
mf_result mf_clip_load(const char *path, mf_clip **out, mf_diag *diag);

/* Canonical order: groups as in the file (bones, slots, ik, transform, path, physics, deform,
 * drawOrder, events), targets by name (byte order), kinds in enum order. */
void mf_clip_sort(mf_clip *clip);
mf_result mf_clip_write(const mf_clip *clip, char **out, size_t *len, mf_diag *diag);
mf_result mf_clip_save(const mf_clip *clip, const char *path, mf_diag *diag);

/* Checks the clip against its rig: uid match, every bone, slot, constraint, skin, attachment,
 * event and draw-order slot exists (with "did you mean" suggestions), deform runs fit the
 * attachment's vertex array, draw-order moves stay inside the slot list. file is for
 * diagnostics. (Keys past the clip's length are a finding of `mfe skel check`, not an error.) */
mf_result mf_clip_check(const mf_clip *clip, const mf_skeleton *sk, const char *file, mf_diag *diag);

/* The clips folder of a rig: its "clips" field relative to the .mskel's folder, or
 * "<folder>/<stem>.clips/" (with a trailing '/'). */
void mf_clip_folder(const char *skeleton_path, const mf_skeleton *sk, char *out, size_t size);
/* The .manim files in folder, sorted by name (byte order). A missing folder is no clips, not
 * an error. *paths is a malloc'd array of malloc'd strings; free with mf_clip_list_free(). */
mf_result mf_clip_list(const char *folder, char ***paths, int32_t *count, mf_diag *diag);
void mf_clip_list_free(char **paths, int32_t count);

#ifdef __cplusplus
}
#endif
#endif
