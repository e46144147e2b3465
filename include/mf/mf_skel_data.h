/* mf_skel_data.h — the runtime build of a skeleton (the seeds' SkeletonBuild): immutable data
 * that every instance of a rig shares, loaded zero-copy from one binary blob.
 *
 * Runtime module (libmf_runtime): C11 + libm, no file I/O, no allocation (one exception for
 * hostile blobs: mf_skel_data_load). The blob is written by mf_build_skeleton() (mf_build.h);
 * the caller reads it into memory (4-byte aligned, 16 recommended; malloc'd memory is fine),
 * keeps it alive and calls
 *
 *     mf_skel_data data;
 *     if (mf_skel_data_load(bytes, size, &data, &diag) != MF_OK) { ... located error ... }
 *     int32_t thigh = mf_skel_data_find_bone(&data, "thigh_l");
 *     const mf_sd_bone *b = &data.bones[thigh];       // typed pointers into `bytes`
 *
 * The loader validates everything: header, section table, checksum, and every index and range
 * inside, so that code which trusts a loaded mf_skel_data never reads out of bounds. What it
 * guarantees is listed with each record below ("checked: …").
 *
 * Blob layout (all little-endian; hosts must be little-endian, others get MF_ERR_UNSUPPORTED):
 *
 *     offset 0   header (64 bytes, mf_sd_header)
 *     offset 64  section table: section_count × mf_sd_section, ids strictly ascending
 *     …          sections, each 16-byte aligned, in table order, not overlapping; padding is 0
 *
 * A section is a typed array of one fixed-layout record (its element size is checked). A
 * section that is absent is empty. All references are indices into sections or byte offsets
 * into the string table, never pointers. The checksum (mf_skel_data_checksum) covers every byte
 * after the header. The format version changes whenever a record or the meaning of a field does.
 *
 * Conventions: `-1` means "none" for indices and string offsets; a range (first, count) lies
 * inside its pool; string offsets point at NUL-terminated UTF-8 in the string table, offset 0
 * is the empty string, and equal strings have equal offsets (the build interns them, so
 * attachment names compare by offset). Colours are 0xRRGGBBAA, angles degrees (clockwise,
 * Y-down), lengths pixels, times seconds.
 *
 * Update order (section UPDATE, built by mf_build_skeleton): (kind, index) pairs interleaving
 * bone world-transform updates and constraints. The runtime walks it once per frame:
 *   1. constraints are sorted by their "order" (ties: ik, transform, path, physics, then index);
 *   2. before a constraint, every bone it reads whose world transform is not current is
 *      emitted, each after its own ancestors: the constrained bones and their ancestors, the
 *      target bone and its ancestors (ik, transform), the target slot's bone and the bones of
 *      every weighted path attachment on that slot (path);
 *   3. the constraint is emitted; it leaves its constrained bones' world transforms current,
 *      and every other descendant of them stale, so such a bone is emitted again the next time
 *      something needs it;
 *   4. finally every bone that is not current (never emitted, or stale) is emitted, in bone
 *      order.
 * Every bone therefore appears at least once, always after its parent's latest entry. Entries
 * for skin-required bones and constraints are present; the runtime skips inactive ones.
 */
#ifndef MF_SKEL_DATA_H
#define MF_SKEL_DATA_H

#include "mf/mf_base.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MF_SKEL_DATA_MAGIC "MFSKDATA" /* 8 bytes, no NUL */
#define MF_SKEL_DATA_VERSION 7u /* 2: atlas pages, packed images, page uvs; 3: attachment display names;
                                 * 4: clip bounds; 5: weighted skinning streams; 6: skin groups
                                 * chained, with their attachment's vertex count; 7: same-bone
                                 * runs in a chain of their own */
#define MF_SKEL_DATA_HEADER_SIZE 64u
#define MF_SKEL_DATA_BYTE_ORDER 0x0A0B0C0Du /* stored little-endian: 0D 0C 0B 0A */
#define MF_SKEL_DATA_ALIGN 16u
#define MF_SD_CURVE_SAMPLES 9 /* interior points of a pre-sampled bezier: 10 linear pieces */
#define MF_SD_MAX_INFLUENCES 16 /* influences per weighted vertex */

/* Header; read with memcpy (the blob's first 64 bytes). */
typedef struct mf_sd_header {
    char magic[8];          /* MF_SKEL_DATA_MAGIC */
    uint32_t version;       /* MF_SKEL_DATA_VERSION */
    uint32_t byte_order;    /* MF_SKEL_DATA_BYTE_ORDER */
    uint32_t header_size;   /* MF_SKEL_DATA_HEADER_SIZE */
    uint32_t section_count; /* entries in the section table right after the header */
    uint64_t total_size;    /* bytes in the blob */
    uint64_t checksum;      /* mf_skel_data_checksum of bytes [header_size, total_size) */
    uint8_t reserved[24];   /* zero */
} mf_sd_header;

typedef struct mf_sd_section {
    uint32_t id;        /* mf_sd_section_id */
    uint32_t elem_size; /* bytes per record; must match this version's record */
    uint32_t count;     /* records */
    uint32_t offset;    /* from the start of the blob, multiple of 16 */
} mf_sd_section;

typedef enum mf_sd_section_id {
    MF_SD_SEC_INFO = 1,     /* mf_sd_info, exactly one */
    MF_SD_SEC_STRINGS,      /* char: the string table (starts and ends with NUL) */
    MF_SD_SEC_IMAGES,       /* mf_sd_image */
    MF_SD_SEC_BONES,        /* mf_sd_bone, parents first */
    MF_SD_SEC_SLOTS,        /* mf_sd_slot, in setup draw order */
    MF_SD_SEC_EVENTS,       /* mf_sd_event */
    MF_SD_SEC_IK,           /* mf_sd_ik */
    MF_SD_SEC_TRANSFORM,    /* mf_sd_transform */
    MF_SD_SEC_PATH,         /* mf_sd_path */
    MF_SD_SEC_PHYSICS,      /* mf_sd_physics */
    MF_SD_SEC_UPDATE,       /* mf_sd_ref: the update order */
    MF_SD_SEC_BONE_LISTS,   /* int32 bone indices: constraint bones, skin bones */
    MF_SD_SEC_SKINS,        /* mf_sd_skin */
    MF_SD_SEC_SKIN_ENTRIES, /* mf_sd_skin_entry */
    MF_SD_SEC_SKIN_REFS,    /* mf_sd_ref: constraints a skin activates */
    MF_SD_SEC_ATTACHMENTS,  /* mf_sd_attachment */
    MF_SD_SEC_FLOATS,       /* float: unweighted vertices, uvs, path lengths */
    MF_SD_SEC_SPANS,        /* mf_sd_span: per weighted vertex, its influences */
    MF_SD_SEC_INFLUENCES,   /* mf_sd_influence */
    MF_SD_SEC_TRIANGLES,    /* uint16 vertex indices, 3 a triangle */
    MF_SD_SEC_CLIPS,        /* mf_sd_clip */
    MF_SD_SEC_TIMELINES,    /* mf_sd_timeline */
    MF_SD_SEC_TIMES,        /* float key times */
    MF_SD_SEC_VALUES,       /* float key values */
    MF_SD_SEC_INTS,         /* int32 discrete key values */
    MF_SD_SEC_CURVES,       /* int32 curve codes (see mf_sd_timeline) */
    MF_SD_SEC_BEZIERS,      /* mf_sd_bezier */
    MF_SD_SEC_PAGES,        /* mf_sd_page: atlas pages (absent: images are not packed) */
    MF_SD_SEC_BOUNDS,       /* mf_sd_bounds: the setup pose's, then one per clip */
    MF_SD_SEC_SKIN_GROUP_FIRST, /* int32: per attachment its first SKIN_GROUPS record, then their count */
    MF_SD_SEC_SKIN_GROUPS,      /* mf_sd_skin_group */
    MF_SD_SEC_SKIN_RECORDS,     /* mf_sd_skin_record */
    MF_SD_SEC_SKIN_VERTICES,    /* mf_sd_skin_vertex */
    MF_SD_SEC_END
} mf_sd_section_id;

/* Enum values the runtime build stores (the same numbers as the offline models' enums). */
enum {
    MF_SD_INHERIT_NORMAL = 0, MF_SD_INHERIT_ONLY_TRANSLATION, MF_SD_INHERIT_NO_ROTATION_OR_REFLECTION,
    MF_SD_INHERIT_NO_SCALE, MF_SD_INHERIT_NO_SCALE_OR_REFLECTION, MF_SD_INHERIT_COUNT
};
enum { MF_SD_BLEND_NORMAL = 0, MF_SD_BLEND_ADDITIVE, MF_SD_BLEND_MULTIPLY, MF_SD_BLEND_SCREEN, MF_SD_BLEND_COUNT };
enum {
    MF_SD_ATT_REGION = 0, MF_SD_ATT_MESH, MF_SD_ATT_LINKED_MESH, MF_SD_ATT_BOUNDING_BOX,
    MF_SD_ATT_CLIPPING, MF_SD_ATT_POINT, MF_SD_ATT_PATH, MF_SD_ATT_TYPE_COUNT
};
/* mf_sd_ref.kind: a bone update or a constraint of one kind. */
enum { MF_SD_REF_BONE = 0, MF_SD_REF_IK, MF_SD_REF_TRANSFORM, MF_SD_REF_PATH, MF_SD_REF_PHYSICS, MF_SD_REF_KIND_COUNT };
enum { MF_SD_SEQ_MODE_COUNT = 7 };           /* hold, once, loop, pingpong and the reverses */
enum { MF_SD_LOOP_NONE = 0, MF_SD_LOOP_LINEAR, MF_SD_LOOP_PINGPONG, MF_SD_LOOP_COUNT };
enum { MF_SD_POSITION_MODE_COUNT = 2, MF_SD_SPACING_MODE_COUNT = 4, MF_SD_ROTATE_MODE_COUNT = 3 };

/* Timeline kinds (the numbers of mf_timeline_kind). Values a key holds: `value_comps` floats
 * and `int_comps` ints, fixed per kind except where noted. */
typedef enum mf_sd_timeline_kind {
    MF_SD_TL_ROTATE = 0,  /* bone; v: angle */
    MF_SD_TL_TRANSLATE,   /* bone; v: x, y */
    MF_SD_TL_TRANSLATE_X, /* bone; v: x */
    MF_SD_TL_TRANSLATE_Y,
    MF_SD_TL_SCALE,       /* bone; v: sx, sy */
    MF_SD_TL_SCALE_X,
    MF_SD_TL_SCALE_Y,
    MF_SD_TL_SHEAR,       /* bone; v: shx, shy */
    MF_SD_TL_SHEAR_X,
    MF_SD_TL_SHEAR_Y,
    MF_SD_TL_INHERIT,     /* bone; i: inherit */
    MF_SD_TL_ATTACHMENT,  /* slot; i: attachment name (string offset) or -1 */
    MF_SD_TL_RGBA,        /* slot; v: r, g, b, a (0..1) */
    MF_SD_TL_RGB,
    MF_SD_TL_ALPHA,
    MF_SD_TL_RGBA2,       /* slot; v: r, g, b, a, dark r, g, b */
    MF_SD_TL_SEQUENCE,    /* slot; v: delay; i: mode, index */
    MF_SD_TL_IK,          /* ik; v: mix, softness; i: bend, compress, stretch */
    MF_SD_TL_TRANSFORM,   /* transform; v: mixRotate, mixX, mixY, mixScaleX, mixScaleY, mixShearY */
    MF_SD_TL_PATH_POSITION, /* path; v: position */
    MF_SD_TL_PATH_SPACING,  /* path; v: spacing */
    MF_SD_TL_PATH_MIX,      /* path; v: mixRotate, mixX, mixY */
    MF_SD_TL_PHYSICS_INERTIA, /* physics (target -1: every physics constraint); v: value */
    MF_SD_TL_PHYSICS_STRENGTH,
    MF_SD_TL_PHYSICS_DAMPING,
    MF_SD_TL_PHYSICS_MASS,
    MF_SD_TL_PHYSICS_WIND,
    MF_SD_TL_PHYSICS_GRAVITY,
    MF_SD_TL_PHYSICS_MIX,
    MF_SD_TL_PHYSICS_RESET,   /* physics or -1; times only */
    MF_SD_TL_DEFORM,      /* slot + attachment; v: the attachment's deform_count floats, dense */
    MF_SD_TL_DRAW_ORDER,  /* target -1; i: slot_count slot indices, back to front */
    MF_SD_TL_EVENT,       /* target -1; i: event, int, string (-1: none); v: float, volume, balance */
    MF_SD_TL_KIND_COUNT
} mf_sd_timeline_kind;

/* Curve codes (CURVES pool): per segment and component. */
#define MF_SD_CURVE_LINEAR (-1)
#define MF_SD_CURVE_STEPPED (-2)
/* code >= 0: index into the BEZIERS section */

/* ---- records (plain structs; sizes are part of the format) ---- */

typedef struct mf_sd_info {
    int32_t uid;   /* string: the rig's "skl_…" uid */
    float fps;     /* editor frame rate */
    float scale;   /* import scale applied to every length at build time */
    int32_t reserved;
} mf_sd_info;

/* An atlas page: a straight-alpha sRGB RGBA8 PNG beside the build, and its normal-map page
 * (same size, same rectangles) when the rig has normal maps.
 * checked: name a string; normal_name -1 or a string; width, height 1..65536 */
typedef struct mf_sd_page {
    int32_t name;        /* string: file name suffix: the page is <build stem><name> beside the
                          * build ("_0.png": hero.mskb's page hero_0.png), so the bytes do not
                          * depend on the output's name */
    int32_t normal_name; /* string or -1 ("_n0.png") */
    int32_t width, height;
} mf_sd_page;

/* An image: by name, and where the atlas put it. The packed rectangle holds the image trimmed
 * to its alpha bounds (at import.scale); (trim_x, trim_y) is where that rectangle's top-left
 * lies in the original (scaled) image of orig_w × orig_h, so a pixel (px, py) of the original
 * image is at (x + px - trim_x, y + py - trim_y) on the page.
 * checked: name; page -1 (not packed: every other field 0) or a page, with the rectangle
 * (w, h >= 1) inside the page, the trim inside the original size, u0 <= u1 and v0 <= v1 in
 * 0..1 */
typedef struct mf_sd_image {
    int32_t name;           /* string: image name under the rig's images folder, without ".png" */
    int32_t page;           /* PAGES index, -1: not packed */
    int32_t x, y, w, h;     /* the packed rectangle on the page, pixels */
    int32_t trim_x, trim_y; /* the rectangle's origin in the original image */
    int32_t orig_w, orig_h; /* the original image's size at import.scale */
    float u0, v0, u1, v1;   /* the rectangle in page uvs (x / page width …) */
} mf_sd_image;

/* checked: name; parent in [-1, own index); inherit < MF_SD_INHERIT_COUNT */
typedef struct mf_sd_bone {
    int32_t name, parent;
    float x, y, rot, sx, sy, shx, shy; /* setup pose */
    float length;
    uint32_t color;                    /* editor colour */
    uint8_t inherit, skin_required, pad[2];
} mf_sd_bone;

/* checked: name; bone; attachment -1 or a string; blend < MF_SD_BLEND_COUNT */
typedef struct mf_sd_slot {
    int32_t name, bone;
    int32_t attachment; /* setup attachment name (string offset) or -1 */
    uint32_t color, dark;
    uint8_t has_dark, blend, pad[2];
} mf_sd_slot;

/* checked: name; string and audio -1 or strings */
typedef struct mf_sd_event {
    int32_t name, int_value;
    float float_value;
    int32_t string, audio; /* strings or -1 */
    float volume, balance;
    int32_t pad;
} mf_sd_event;

/* Constraint bone lists are ranges in BONE_LISTS (checked: inside, every entry a bone). */
/* checked: name; bone_count 1 or 2; target a bone */
typedef struct mf_sd_ik {
    int32_t name, order, bone_first, bone_count, target;
    float mix, softness;
    int8_t bend;
    uint8_t compress, stretch, uniform, skin_required, pad[3];
} mf_sd_ik;

/* checked: name; target a bone */
typedef struct mf_sd_transform {
    int32_t name, order, bone_first, bone_count, target;
    uint8_t local, relative, skin_required, pad;
    float offset_rot, offset_x, offset_y, offset_sx, offset_sy, offset_shy;
    float mix_rotate, mix_x, mix_y, mix_scale_x, mix_scale_y, mix_shear_y;
} mf_sd_transform;

/* checked: name; target a slot; modes in range */
typedef struct mf_sd_path {
    int32_t name, order, bone_first, bone_count, target;
    uint8_t position_mode, spacing_mode, rotate_mode, skin_required;
    float offset_rot, position, spacing, mix_rotate, mix_x, mix_y;
} mf_sd_path;

enum {
    MF_SD_PHYS_SKIN_REQUIRED = 1u << 0,
    /* the value follows the skeleton-wide setting instead of this constraint's */
    MF_SD_PHYS_INERTIA_GLOBAL = 1u << 1, MF_SD_PHYS_STRENGTH_GLOBAL = 1u << 2,
    MF_SD_PHYS_DAMPING_GLOBAL = 1u << 3, MF_SD_PHYS_MASS_GLOBAL = 1u << 4,
    MF_SD_PHYS_WIND_GLOBAL = 1u << 5, MF_SD_PHYS_GRAVITY_GLOBAL = 1u << 6,
    MF_SD_PHYS_MIX_GLOBAL = 1u << 7
};

/* checked: name; bone */
typedef struct mf_sd_physics {
    int32_t name, order, bone;
    uint32_t flags; /* MF_SD_PHYS_* */
    float x, y, rotate, scale_x, shear_x, limit, step;
    float inertia, strength, damping, mass, wind, gravity, mix;
} mf_sd_physics;

/* An update-order entry or a skin's constraint. checked: kind in range (skin refs: not a bone),
 * index < the count of that kind. */
typedef struct mf_sd_ref {
    uint16_t kind; /* MF_SD_REF_* */
    uint16_t pad;
    int32_t index;
} mf_sd_ref;

/* checked: name; ranges inside their sections */
typedef struct mf_sd_skin {
    int32_t name;
    int32_t entry_first, entry_count;           /* SKIN_ENTRIES, sorted by (slot, name) */
    int32_t bone_first, bone_count;             /* BONE_LISTS: skin-required bones it activates */
    int32_t constraint_first, constraint_count; /* SKIN_REFS: constraints it activates */
    int32_t pad;
} mf_sd_skin;

/* checked: slot; name; attachment valid and on that slot; strictly ascending (slot, name)
 * within a skin, so a binary search finds (slot, name offset). */
typedef struct mf_sd_skin_entry {
    int32_t slot, name, attachment;
} mf_sd_skin_entry;

enum {
    MF_SD_ATT_WEIGHTED = 1u << 0,       /* geometry is in SPANS/INFLUENCES, not FLOATS */
    MF_SD_ATT_CLOSED = 1u << 1,         /* path */
    MF_SD_ATT_CONSTANT_SPEED = 1u << 2, /* path */
    MF_SD_ATT_DEFORM = 1u << 3          /* linked mesh: its parent's deform keys apply */
};

/* Every attachment type in one record; fields a type does not use are 0 / -1.
 * Geometry (every type but Point): vertex_count vertices. Unweighted: FLOATS[vertex_first …
 * + 2 * vertex_count) as x, y in the slot bone's space. Weighted: SPANS[vertex_first …
 * + vertex_count), each span a range of INFLUENCES inside [infl_first, infl_first + infl_count).
 * Each span holds 1..MF_SD_MAX_INFLUENCES influences and the spans tile the range in order.
 * A Region's geometry is its quad: 4 corners in bone space (image uv 0,0 / 1,0 / 1,1 / 0,1), uvs
 * and triangles 0 1 2, 2 3 0; when its image is packed and trimmed (not a sequence), the quad is
 * the trimmed part of that rectangle, so nothing visible moves.
 * UVs: when the image is packed (images[image].page >= 0) they are page uvs, 0..1 over the
 * page, mapped through the image's rectangle; otherwise 0..1 in the image. uv_sets sets of
 * 2 * vertex_count floats lie at uv_first: one, or for a sequence with packed frames one a
 * frame (frame f's at uv_first + 2 * vertex_count * f; frames are not trimmed, so the geometry
 * is the same for all). Deform keys hold deform_count floats: 2 a vertex (unweighted) or
 * 2 an influence (weighted); 0 for regions and points.
 * checked: name, display_name, slot, skin, type; image range (image + sequence frames) inside
 * IMAGES; every range inside its pool; triangle indices < vertex_count; hull <= vertex_count;
 * regions and meshes have uvs and triangles; parent and deform_source are attachments, and
 * deform_source has the same deform_count; end_slot -1 or a slot; uv_sets 0 exactly when uv_first is -1, else
 * 1 or seq_count, and uv_sets × 2 * vertex_count floats inside FLOATS. */
typedef struct mf_sd_attachment {
    int32_t name;        /* string: the key within (skin, slot) that slots and timelines use */
    int32_t display_name; /* string: its own name (the rig's displayName), else the same as name */
    int32_t slot, skin;  /* where it is defined */
    uint8_t type;        /* MF_SD_ATT_* type */
    uint8_t flags;       /* MF_SD_ATT_WEIGHTED … */
    uint16_t pad;
    int32_t image;       /* IMAGES index, -1 none; a sequence's frame i is image + i */
    uint32_t color;
    float x, y, rot, sx, sy, width, height; /* Region and Point placement in bone space */
    int32_t seq_count, seq_start, seq_digits, seq_setup; /* sequence; seq_count 0: none */
    int32_t vertex_count, vertex_first;
    int32_t infl_first, infl_count;
    int32_t deform_count;
    int32_t uv_first;    /* FLOATS: uv_sets × 2 * vertex_count (page or image uvs, above), -1 none */
    int32_t tri_first, tri_count; /* TRIANGLES indices (3 a triangle) */
    int32_t hull;
    int32_t parent;        /* linked mesh: the mesh whose geometry it shares (already copied) */
    int32_t deform_source; /* attachment whose deform timelines drive this one (itself or parent) */
    int32_t end_slot;      /* clipping: last slot clipped, -1: to the end */
    int32_t lengths_first, lengths_count; /* path: FLOATS, one length per curve */
    int32_t uv_sets;       /* 0 without uvs; 1; a packed sequence: seq_count */
} mf_sd_attachment;

typedef struct mf_sd_span {
    int32_t first, count; /* INFLUENCES */
} mf_sd_span;

/* checked: bone < bone_count */
typedef struct mf_sd_influence {
    int32_t bone; /* skeleton bone index */
    float weight, x, y;
} mf_sd_influence;

/* checked: name; loop < MF_SD_LOOP_COUNT; timeline range */
typedef struct mf_sd_clip {
    int32_t name;
    float length, fps;
    uint8_t loop, pad[3];
    int32_t timeline_first, timeline_count;
} mf_sd_clip;

/* One timeline: key k has time TIMES[key_first + k], floats VALUES[value_first + k * value_comps
 * + c], ints INTS[int_first + k * int_comps + c]. Interpolated kinds (every kind with floats
 * except sequence and event) have curve codes CURVES[curve_first + s * curve_comps + c] for
 * segment s (between keys s and s + 1); curve_comps is value_comps, or 1 for deform.
 * Discrete kinds have curve_first -1 and curve_comps 0.
 * checked: kind; target of the right kind (-1 only where allowed); value_comps / int_comps
 * / curve_comps as the kind requires; every range inside its pool; key_count >= 1; times
 * ascending; curve codes; discrete ints in range (inherit, sequence mode, attachment strings,
 * draw-order slots, event indices and strings); deform: attachment on the target slot. */
typedef struct mf_sd_timeline {
    uint16_t kind;       /* mf_sd_timeline_kind */
    uint16_t pad;
    int32_t target;      /* bone, slot or constraint index; -1: none / all */
    int32_t attachment;  /* deform: attachment index; else -1 */
    int32_t key_first, key_count;
    int32_t value_first, value_comps;
    int32_t int_first, int_comps;
    int32_t curve_first, curve_comps;
    int32_t pad2;
} mf_sd_timeline;

/* A cubic bezier from (0,0) to (1,1) sampled at 9 interior parameter steps: with (0,0) and
 * (1,1) it gives 10 linear pieces. x ascends within 0..1 (checked). */
typedef struct mf_sd_bezier {
    float x[MF_SD_CURVE_SAMPLES], y[MF_SD_CURVE_SAMPLES];
} mf_sd_bezier;

/* A conservative box in skeleton space (Y-down pixels): BOUNDS[0] is the setup pose's, BOUNDS[1 + c]
 * clip c's. The build poses the clip alone over the setup pose at 0, its length, every key time
 * of every timeline, the midpoint between consecutive times and more points wherever those lie
 * more than 1/60 s apart, with no skin and with each skin in turn (so the box holds whichever
 * skin is shown), physics at rest, constraints run; the box is the union of mf_pose_bounds()
 * (regions and meshes, deform and weights included) over those poses, grown by
 * MF_SD_BOUNDS_MARGIN of its larger side on every edge for what lies between the samples. A rig
 * that draws nothing gets the box of its bone origins. See docs/binary-build.md.
 * checked: exactly clip_count + 1 records; every value finite; min_x <= max_x, min_y <= max_y */
typedef struct mf_sd_bounds {
    float min_x, min_y, max_x, max_y;
} mf_sd_bounds;
#define MF_SD_BOUNDS_MARGIN 0.05f

/* Weighted skinning streams: what every instance skins weighted attachments from, precomputed
 * once so that instances share them (sections SKIN_GROUP_FIRST … SKIN_VERTICES). Attachment a's
 * weighted vertices (a weighted attachment with vertices, not a point) lie in the groups
 * SKIN_GROUPS[skin_group_first[a] … skin_group_first[a + 1]); other attachments have none. A
 * group holds the vertices of one attachment whose influence count, padded, is the group's
 * count, in vertex order; groups ascend by count. Each vertex has count influence records, its
 * real ones in order, then padding {0, 0, 0, 8 · bone_count} (the all-zero matrix after the
 * bones). Which counts are padded to which is chosen per attachment by an instruction cost
 * model (fewer groups against more padding). Where the cost model finds it cheaper, a run
 * chain comes before those groups in the attachment's range (the first group's runs field says
 * how many groups it has): a run group per set of at least 8 vertices with the same bones (at
 * most 4; the set: a run of consecutive ones, or in attachments of at most 256 vertices every
 * one, whichever the cost model prefers; kernel 30 + count - 1 when they follow each other, with one vertex entry,
 * the first's, else 38 + count - 1, an entry a vertex; +4 when chained; records: the bones'
 * 8 · bone, then per eight vertices and per influence w·x, w·y and w of each, zeros past the
 * set), then count groups of the other vertices. The chain after it holds every vertex
 * (deformed skinning and the SSE2, NEON paths), the run chain the same vertices again (the AVX
 * path's undeformed skinning, from the attachment's first group).
 * checked: every stream section equals, bit for bit, what mf_skel_data_skin_streams_fill
 * produces from the attachments, spans, influences and bone count; so every offset below is
 * in range and every record's bone is a bone or bone_count. */
typedef struct mf_sd_skin_group {
    int32_t record_first;   /* SKIN_RECORDS: count records a vertex, vertex after vertex */
    int32_t vertex_first;   /* SKIN_VERTICES: one a vertex */
    int32_t count;          /* records a vertex, 1..MF_SD_MAX_INFLUENCES */
    int32_t vertices;       /* >= 1 */
    int32_t plain, deformed; /* the runtime's kernel without and with deform: 0..4 scattered
                              * stores, 5..9 contiguous (the group's vertices follow each other),
                              * 10..14 deformed; by count 1, 2, 3, 4, more; plus 15 when another
                              * group of the attachment follows (the kernel hands over to it);
                              * a run group: 30..45, both */
    int32_t total;          /* the attachment's vertex count (what the last kernel returns) */
    int32_t runs;           /* the attachment's first group: the run chain's groups before the
                             * chain of every vertex, 0 when there is none; other groups: 0 */
} mf_sd_skin_group;

/* One influence of one vertex: {w·x, w·y, w, 8·bone} (the bone's offset in the runtime's
 * packed matrices, an exact float). */
typedef struct mf_sd_skin_record {
    float wx, wy, w, bone8;
} mf_sd_skin_record;

/* One weighted vertex: where its x, y go in the attachment's output (2 · vertex), where its
 * influences' deform offsets start in the slot's deform (2 · influence within the attachment),
 * and how many of its records are real influences (the rest are padding). */
typedef struct mf_sd_skin_vertex {
    int32_t out, deform, records, pad;
} mf_sd_skin_vertex;

/* The loaded view: typed pointers into the caller's bytes. */
typedef struct mf_skel_data {
    const void *bytes;
    size_t size;
    const mf_sd_info *info;
    const char *strings;                     int32_t string_bytes;
    const mf_sd_image *images;               int32_t image_count;
    const mf_sd_bone *bones;                 int32_t bone_count;
    const mf_sd_slot *slots;                 int32_t slot_count;
    const mf_sd_event *events;               int32_t event_count;
    const mf_sd_ik *ik;                      int32_t ik_count;
    const mf_sd_transform *transform;        int32_t transform_count;
    const mf_sd_path *path;                  int32_t path_count;
    const mf_sd_physics *physics;            int32_t physics_count;
    const mf_sd_ref *update;                 int32_t update_count;
    const int32_t *bone_lists;               int32_t bone_list_count;
    const mf_sd_skin *skins;                 int32_t skin_count;
    const mf_sd_skin_entry *skin_entries;    int32_t skin_entry_count;
    const mf_sd_ref *skin_refs;              int32_t skin_ref_count;
    const mf_sd_attachment *attachments;     int32_t attachment_count;
    const float *floats;                     int32_t float_count;
    const mf_sd_span *spans;                 int32_t span_count;
    const mf_sd_influence *influences;       int32_t influence_count;
    const uint16_t *triangles;               int32_t triangle_index_count;
    const mf_sd_clip *clips;                 int32_t clip_count;
    const mf_sd_timeline *timelines;         int32_t timeline_count;
    const float *times;                      int32_t time_count;
    const float *values;                     int32_t value_count;
    const int32_t *ints;                     int32_t int_count;
    const int32_t *curves;                   int32_t curve_count;
    const mf_sd_bezier *beziers;             int32_t bezier_count;
    const mf_sd_page *pages;                 int32_t page_count;
    const mf_sd_bounds *bounds;              int32_t bounds_count; /* clip_count + 1 */
    const int32_t *skin_group_first;         int32_t skin_group_first_count; /* attachment_count + 1 */
    const mf_sd_skin_group *skin_groups;     int32_t skin_group_count;
    const mf_sd_skin_record *skin_records;   int32_t skin_record_count;
    const mf_sd_skin_vertex *skin_vertices;  int32_t skin_vertex_count;
} mf_skel_data;

/* Validates bytes[0, size) and fills *out with pointers into it (no copy, no allocation).
 * The exceptions to "no allocation" are blobs a build never writes, whose records share ranges
 * so that walking each record's range would cost more than the pool holds: weighted
 * attachments sharing spans past what the skinning streams hold (refused: a table of 4 bytes a
 * span), attachments sharing triangle indices past the indices (a table of under 1 byte an
 * index), timelines sharing key times or ints past those pools (4 bytes a time; 4 bytes
 * an int per kind of int check asked). Each table is malloc'd once and freed before returning;
 * if that fails, the check walks each range: the same result, slower. So the checks cost time
 * linear in the blob's size, and such a blob is accepted or refused exactly as by the walk.
 * Errors (diag->where is "offset N", "section bones" or a record path like "bones[3].parent"):
 * MF_ERR_CORRUPT (bad magic, truncated or trailing bytes, checksum, section table, any bad
 * index or range), MF_ERR_VERSION (another format version), MF_ERR_UNSUPPORTED (big-endian
 * host), MF_ERR_ARGUMENT (NULL or misaligned bytes). On error *out is zeroed. */
mf_result mf_skel_data_load(const void *bytes, size_t size, mf_skel_data *out, mf_diag *diag);

/* The blob checksum: a 64-bit word-at-a-time hash of size bytes. */
uint64_t mf_skel_data_checksum(const void *bytes, size_t size);

/* The string at a string offset; NULL for -1 or an offset outside the table. */
const char *mf_skel_data_string(const mf_skel_data *d, int32_t offset);
/* The offset of an interned string, -1 when the build has no such string (linear scan). */
int32_t mf_skel_data_find_string(const mf_skel_data *d, const char *s);

/* Lookups by name (linear; call at load, not per frame); -1 when missing. */
int32_t mf_skel_data_find_bone(const mf_skel_data *d, const char *name);
int32_t mf_skel_data_find_slot(const mf_skel_data *d, const char *name);
int32_t mf_skel_data_find_skin(const mf_skel_data *d, const char *name);
int32_t mf_skel_data_find_event(const mf_skel_data *d, const char *name);
int32_t mf_skel_data_find_clip(const mf_skel_data *d, const char *name);
int32_t mf_skel_data_find_image(const mf_skel_data *d, const char *name);
/* A constraint of any kind by name: *out gets (MF_SD_REF_IK…, index). false when missing. */
bool mf_skel_data_find_constraint(const mf_skel_data *d, const char *name, mf_sd_ref *out);

/* The attachment (slot, name offset) of a skin, by binary search; -1 when it has none. */
int32_t mf_skel_data_skin_attachment(const mf_skel_data *d, int32_t skin, int32_t slot,
                                     int32_t name);
/* An attachment's own name (what Spine calls its name; the key when the rig gives none);
 * NULL for an index out of range. Its key is mf_skel_data_string(d, attachments[i].name). */
const char *mf_skel_data_attachment_name(const mf_skel_data *d, int32_t attachment);

/* The conservative box of a clip (clip -1: the setup pose), {min x, min y, max x, max y} in
 * skeleton space (see mf_sd_bounds). false, out untouched, for a clip out of range. */
bool mf_skel_data_clip_bounds(const mf_skel_data *d, int32_t clip, float out[4]);

/* The weighted skinning streams of d's attachments, spans, influences and bone count (see
 * mf_sd_skin_group), as the build writes them and the loader checks them. _size gives the
 * record counts (the group starts are attachment_count + 1), _fill writes arrays of those
 * sizes. d's attachments, spans and influences must be valid, as a loaded build's are (the
 * build calls these on its own arrays before writing them). */
void mf_skel_data_skin_streams_size(const mf_skel_data *d, int64_t *groups, int64_t *records, int64_t *vertices);
void mf_skel_data_skin_streams_fill(const mf_skel_data *d, int32_t *group_first, mf_sd_skin_group *groups,
                                    mf_sd_skin_record *records, mf_sd_skin_vertex *vertices);

/* A curve code applied to u, the time fraction of a segment (0..1): the fraction of the value
 * change. Linear: u; stepped: 0 below 1; bezier: its pre-sampled linear pieces. */
float mf_skel_data_curve(const mf_skel_data *d, int32_t code, float u);

#ifdef __cplusplus
}
#endif
#endif
