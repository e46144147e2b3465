/* mf_skeleton.h — the rig source model (`.mskel`), its JSON reader, canonical writer and checks.
 *
 * Offline module (libmf_offline). A `.mskel` is self-describing JSON: bones, slots, skins with
 * attachments, IK / transform / path / physics constraints, event definitions and import
 * settings. docs/formats.md describes the file; this header describes the C model.
 *
 *     mf_diag diag;
 *     mf_skeleton *sk = NULL;
 *     if (mf_skeleton_load("hero.mskel", &sk, &diag) != MF_OK) {
 *         char msg[1024]; mf_diag_format(&diag, msg, sizeof msg); puts(msg);  // located error
 *     }
 *     ... sk->bones[i].name, sk->bone_count ...
 *     mf_skeleton_save(sk, "hero.mskel", &diag);   // canonical form, atomic write
 *     mf_skeleton_free(sk);
 *
 * References inside the rig are resolved to indices by the reader (a bone's parent, a slot's
 * bone, a constraint's bones …); the writer turns them back into names. Everything a skeleton
 * owns (strings, arrays) lives in its arena: code that edits a model allocates new arrays with
 * mf_skeleton_alloc() / mf_skeleton_strdup() and never frees single parts.
 * Colours are packed 0xRRGGBBAA (straight alpha), angles in degrees clockwise (Y-down).
 */
#ifndef MF_SKELETON_H
#define MF_SKELETON_H

#include "mf/mf_base.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MF_SKELETON_FORMAT 1
#define MF_MAX_INFLUENCES 16 /* influences per weighted vertex */

typedef enum mf_inherit {
    MF_INHERIT_NORMAL = 0,
    MF_INHERIT_ONLY_TRANSLATION,
    MF_INHERIT_NO_ROTATION_OR_REFLECTION,
    MF_INHERIT_NO_SCALE,
    MF_INHERIT_NO_SCALE_OR_REFLECTION,
    MF_INHERIT_COUNT
} mf_inherit;

typedef enum mf_blend {
    MF_BLEND_NORMAL = 0,
    MF_BLEND_ADDITIVE,
    MF_BLEND_MULTIPLY,
    MF_BLEND_SCREEN,
    MF_BLEND_COUNT
} mf_blend;

typedef enum mf_attachment_type {
    MF_ATTACH_REGION = 0,
    MF_ATTACH_MESH,
    MF_ATTACH_LINKED_MESH,
    MF_ATTACH_BOUNDING_BOX,
    MF_ATTACH_CLIPPING,
    MF_ATTACH_POINT,
    MF_ATTACH_PATH,
    MF_ATTACH_TYPE_COUNT
} mf_attachment_type;

typedef enum mf_constraint_kind {
    MF_CONSTRAINT_IK = 0,
    MF_CONSTRAINT_TRANSFORM,
    MF_CONSTRAINT_PATH,
    MF_CONSTRAINT_PHYSICS,
    MF_CONSTRAINT_KIND_COUNT
} mf_constraint_kind;

typedef enum mf_position_mode { MF_POSITION_FIXED = 0, MF_POSITION_PERCENT } mf_position_mode;
typedef enum mf_spacing_mode {
    MF_SPACING_LENGTH = 0,
    MF_SPACING_FIXED,
    MF_SPACING_PERCENT,
    MF_SPACING_PROPORTIONAL
} mf_spacing_mode;
typedef enum mf_rotate_mode { MF_ROTATE_TANGENT = 0, MF_ROTATE_CHAIN, MF_ROTATE_CHAIN_SCALE } mf_rotate_mode;

/* Enum <-> the exact spelling in the files ("NoScaleOrReflection", "Additive", "Mesh" …).
 * The parse functions return -1 for an unknown name. */
const char *mf_inherit_name(mf_inherit v);
int mf_inherit_parse(const char *s);
const char *mf_blend_name(mf_blend v);
int mf_blend_parse(const char *s);
const char *mf_attachment_type_name(mf_attachment_type v);
int mf_attachment_type_parse(const char *s);
const char *mf_constraint_kind_name(mf_constraint_kind v); /* "ik", "transform", "path", "physics" */
const char *mf_position_mode_name(mf_position_mode v);     /* "fixed", "percent" */
int mf_position_mode_parse(const char *s);
const char *mf_spacing_mode_name(mf_spacing_mode v);       /* "length", "fixed", "percent", "proportional" */
int mf_spacing_mode_parse(const char *s);
const char *mf_rotate_mode_name(mf_rotate_mode v);         /* "tangent", "chain", "chainScale" */
int mf_rotate_mode_parse(const char *s);

typedef struct mf_bone {
    char *name;
    int32_t parent; /* index of an earlier bone, -1 for a root */
    float x, y, rot, sx, sy, shx, shy;
    float length;
    mf_inherit inherit;
    uint32_t color; /* editor colour, default 0x989898ff */
    bool skin_required;
} mf_bone;

typedef struct mf_slot {
    char *name;
    int32_t bone;
    char *attachment; /* setup attachment name, NULL for none */
    uint32_t color;   /* default 0xffffffff */
    uint32_t dark;    /* two-colour tint, RGB in the top three bytes; used when has_dark */
    bool has_dark;
    mf_blend blend;
} mf_slot;

typedef struct mf_sequence {
    int32_t count;  /* frames; 0 means the attachment has no sequence */
    int32_t start;  /* number of the first frame */
    int32_t digits; /* zero padding of the frame number */
    int32_t setup;  /* frame index shown in the setup pose */
} mf_sequence;

/* One influence of a weighted vertex: bone is an index into mf_vertices.bones. */
typedef struct mf_influence {
    int32_t bone;
    float weight, x, y;
} mf_influence;

/* Geometry of Mesh, BoundingBox, Clipping and Path attachments: either unweighted positions in
 * the slot bone's space (xy, 2 floats a vertex) or weights in the bones' spaces. */
typedef struct mf_vertices {
    int32_t count;
    float *xy;              /* unweighted, 2 * count floats; NULL when weighted */
    int32_t bone_count;     /* weighted: the attachment's bone list ("weights.bones") … */
    int32_t *bones;         /* … as skeleton bone indices */
    int32_t *first;         /* weighted: count + 1 offsets into infl */
    mf_influence *infl;     /* weighted: first[count] influences */
} mf_vertices;

typedef struct mf_attachment {
    int32_t slot;        /* slot index */
    char *name;          /* key within (skin, slot): what slots and timelines refer to */
    char *display_name;  /* its own name (Spine's "name"), NULL: the key; tools show it */
    mf_attachment_type type;
    char *image;         /* Region/Mesh/LinkedMesh: image name (default: the attachment name) */
    uint32_t color;      /* default 0xffffffff */
    /* Region and Point: placement in the slot bone's space */
    float x, y, rot, sx, sy;
    float width, height; /* Region: size in pixels; Mesh/LinkedMesh: editor size, optional */
    mf_sequence sequence;
    /* Mesh, BoundingBox, Clipping, Path */
    mf_vertices vertices;
    /* Mesh */
    int32_t uv_count;    /* = vertices.count */
    float *uvs;          /* 2 * uv_count, 0..1 in the image */
    int32_t triangle_count;
    int32_t *triangles;  /* 3 * triangle_count vertex indices */
    int32_t hull;        /* vertices on the hull */
    int32_t edge_count;
    int32_t *edges;      /* 2 * edge_count, editor only */
    /* LinkedMesh */
    char *parent;        /* parent mesh name (same slot) */
    int32_t parent_skin; /* skin index of the parent, -1: the same skin */
    bool deform;         /* shares the parent's deform keys */
    /* Clipping */
    int32_t end_slot;    /* -1: to the end of the draw order */
    /* Path */
    bool closed, constant_speed;
    int32_t length_count;
    float *lengths;      /* one per bezier segment */
} mf_attachment;

typedef struct mf_constraint_ref {
    mf_constraint_kind kind;
    int32_t index;
} mf_constraint_ref;

typedef struct mf_skin {
    char *name;
    int32_t bone_count;
    int32_t *bones;               /* skinRequired bones this skin activates */
    int32_t constraint_count;
    mf_constraint_ref *constraints;
    int32_t attachment_count;
    mf_attachment *attachments;   /* in file order */
} mf_skin;

typedef struct mf_ik_constraint {
    char *name;
    int32_t order;
    bool skin_required;
    int32_t bone_count; /* 1 or 2 */
    int32_t bones[2];
    int32_t target;
    float mix, softness;
    int32_t bend; /* +1 or -1 */
    bool compress, stretch, uniform;
} mf_ik_constraint;

typedef struct mf_transform_constraint {
    char *name;
    int32_t order;
    bool skin_required;
    int32_t bone_count;
    int32_t *bones;
    int32_t target;
    bool local, relative;
    float offset_rot, offset_x, offset_y, offset_sx, offset_sy, offset_shy;
    float mix_rotate, mix_x, mix_y, mix_scale_x, mix_scale_y, mix_shear_y;
} mf_transform_constraint;

typedef struct mf_path_constraint {
    char *name;
    int32_t order;
    bool skin_required;
    int32_t bone_count;
    int32_t *bones;
    int32_t target; /* slot holding the Path attachment */
    mf_position_mode position_mode;
    mf_spacing_mode spacing_mode;
    mf_rotate_mode rotate_mode;
    float offset_rot, position, spacing;
    float mix_rotate, mix_x, mix_y;
} mf_path_constraint;

typedef struct mf_physics_constraint {
    char *name;
    int32_t order;
    bool skin_required;
    int32_t bone;
    /* how much each channel follows the simulation, 0..1 */
    float x, y, rotate, scale_x, shear_x;
    float limit; /* max velocity, pixels per second */
    float step;  /* fixed step in seconds, default 1/60 */
    float inertia, strength, damping, mass, wind, gravity, mix;
    /* true: the value follows the skeleton-wide setting instead of this constraint's */
    bool inertia_global, strength_global, damping_global, mass_global, wind_global,
        gravity_global, mix_global;
} mf_physics_constraint;

typedef struct mf_event_def {
    char *name;
    int32_t int_value;
    float float_value;
    char *string_value; /* NULL for none */
    char *audio;        /* NULL for none */
    float volume;       /* default 1 */
    float balance;      /* -1..1, default 0 */
} mf_event_def;

typedef struct mf_import_settings {
    char *images;        /* default "images/" */
    int32_t page_size;   /* default 2048 */
    int32_t padding;     /* default 2 */
    float scale;         /* default 1 */
    char *filter;        /* "Linear" (default) or "Nearest" */
    bool mipmaps;
    char *normal_suffix; /* default "_n" */
} mf_import_settings;

typedef struct mf_arena mf_arena;

typedef struct mf_skeleton {
    int32_t format; /* MF_SKELETON_FORMAT */
    char *uid;      /* "skl_" + 12 hex digits */
    float fps;      /* default 30 */
    char *clips;    /* clips folder relative to the .mskel, NULL: "<name>.clips/" */
    mf_import_settings import;
    int32_t bone_count, slot_count, ik_count, transform_count, path_count, physics_count,
        event_count, skin_count;
    mf_bone *bones;
    mf_slot *slots;
    mf_ik_constraint *ik;
    mf_transform_constraint *transform;
    mf_path_constraint *path;
    mf_physics_constraint *physics;
    mf_event_def *events;
    mf_skin *skins;
    mf_arena *arena;
} mf_skeleton;

/* An empty skeleton with defaults set, ready to fill. */
mf_skeleton *mf_skeleton_create(void);
void mf_skeleton_free(mf_skeleton *sk);
/* Zeroed memory owned by the skeleton (freed with it). NULL when out of memory. */
void *mf_skeleton_alloc(mf_skeleton *sk, size_t size);
char *mf_skeleton_strdup(mf_skeleton *sk, const char *s);

/* Parse from memory; file is only used in diagnostics. Validates everything that can be
 * validated without the images: names, references, indices, enums, ranges. */
mf_result mf_skeleton_parse(const char *json, size_t len, const char *file, mf_skeleton **out,
                            mf_diag *diag);
mf_result mf_skeleton_load(const char *path, mf_skeleton **out, mf_diag *diag);

/* Canonical JSON text (fixed key order, defaults left out, one element a line).
 * *out is malloc'd and NUL-terminated; free() it. */
mf_result mf_skeleton_write(const mf_skeleton *sk, char **out, size_t *len, mf_diag *diag);
/* Writes the canonical form atomically (temporary file in the same folder, then rename). */
mf_result mf_skeleton_save(const mf_skeleton *sk, const char *path, mf_diag *diag);

/* Lookups; -1 when missing. */
int32_t mf_skeleton_find_bone(const mf_skeleton *sk, const char *name);
int32_t mf_skeleton_find_slot(const mf_skeleton *sk, const char *name);
int32_t mf_skeleton_find_skin(const mf_skeleton *sk, const char *name);
int32_t mf_skeleton_find_event(const mf_skeleton *sk, const char *name);
/* Finds a constraint of any kind by name; returns false when none has it. */
bool mf_skeleton_find_constraint(const mf_skeleton *sk, const char *name, mf_constraint_ref *out);
/* The attachment (slot, name) in a skin; NULL when missing. */
const mf_attachment *mf_skin_find_attachment(const mf_skin *skin, int32_t slot, const char *name);
/* The attachment's own name: display_name when set, else its key (name). */
const char *mf_attachment_display_name(const mf_attachment *a);

#ifdef __cplusplus
}
#endif
#endif
