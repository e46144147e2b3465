/* Shared by the Spine importer's files (not public). The converter walks the Spine JSON with an
 * mf_jr path tracker, so every error names the place in the Spine file; what cannot be mapped
 * goes to the report instead of failing. */
#ifndef MF_SPINE_INTERNAL_H
#define MF_SPINE_INTERNAL_H
#include <cjson/cJSON.h>

#include "mf/mf_png.h"
#include "mf/mf_spine.h"
#include "util/jread.h"

/* ---- report.c: lines for import-report.txt ---- */

typedef struct sp_note {
    char *category; /* "curve", "editor", "unknown" … */
    char *group;    /* notes with the same category and group fold into one line; NULL: never */
    char *where;    /* JSON path of the first occurrence */
    char *message;
    int32_t count;
} sp_note;

typedef struct sp_report {
    sp_note *notes;
    int32_t count, cap;
    bool oom;
} sp_report;

/* Adds a line "[category] where: message". Notes with the same non-NULL group (within a
 * category) are folded into the first one and counted. */
void sp_note_add(sp_report *r, const char *category, const char *group, const char *where, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;
void sp_report_free(sp_report *r);
/* The report lines as malloc'd strings (an array of count). NULL on out of memory. */
char **sp_report_lines(const sp_report *r, int32_t *count);

/* ---- the conversion context ---- */

typedef struct sp_image_ref {
    char *name;
    char *where;
} sp_image_ref;

typedef struct sp_ctx {
    mf_jr jr;           /* path in the Spine JSON; errors are located there */
    const char *file;
    const char *name;   /* the rig's name */
    mf_skeleton *sk;
    sp_report rep;
    int major, minor;   /* Spine version that exported the file */
    /* Spine constraint names per kind (ours may differ when two kinds share a name) */
    char **spine_names[MF_CONSTRAINT_KIND_COUNT];
    /* images the rig draws */
    sp_image_ref *images;
    int32_t image_count, image_cap;
    /* attachments that could not be imported (slot, name): references to them are reported */
    struct sp_skipped {
        int32_t slot;
        char *name;
    } *skipped;
    int32_t skipped_count, skipped_cap;
    /* weighted attachments whose influences were capped (skin, slot, name in skipped form):
     * Spine's deform keys for them index influences that are gone */
    struct sp_skipped *capped;
    int32_t capped_count, capped_cap;
    int32_t capped_skin;  /* the skin being read */
    bool last_capped;     /* set by sp_read_vertices */
    /* clips */
    mf_clip **clips;
    int32_t clip_count;
} sp_ctx;

/* ---- util.c ---- */

bool sp_oom(sp_ctx *c);
/* Zeroed memory in the skeleton's arena; fails "out of memory". */
void *sp_alloc(sp_ctx *c, size_t n, size_t size);
char *sp_strdup(sp_ctx *c, const char *s);
/* The current JSON path with a suffix, for report lines ("" suffix allowed). */
const char *sp_where(sp_ctx *c, const char *suffix, char *buf, size_t size);
/* Reports every key of obj not in known (NULL-terminated) as not imported. */
void sp_unknown_keys(sp_ctx *c, const cJSON *obj, const char *const *known, const char *what);
/* Members: missing → def. Wrong type fails at path.key. */
bool sp_float(sp_ctx *c, const cJSON *obj, const char *key, float def, float *out);
bool sp_int(sp_ctx *c, const cJSON *obj, const char *key, int32_t def, int32_t *out);
bool sp_bool(sp_ctx *c, const cJSON *obj, const char *key, bool def, bool *out);
/* Optional string (NULL when absent); not copied. */
bool sp_string(sp_ctx *c, const cJSON *obj, const char *key, const char **out);
/* Required non-empty string; not copied. */
bool sp_name(sp_ctx *c, const cJSON *obj, const char *key, const char **out);
/* Spine colour "RRGGBBAA" or "RRGGBB" (alpha ff) → 0xRRGGBBAA; missing → def. */
bool sp_color(sp_ctx *c, const cJSON *obj, const char *key, uint32_t def, uint32_t *out, bool *has);
/* Member that must be an array / object when present (NULL when absent). */
const cJSON *sp_array(sp_ctx *c, const cJSON *obj, const char *key);
const cJSON *sp_object(sp_ctx *c, const cJSON *obj, const char *key);
/* Lookups that fail at path.key with `unknown bone "x" (did you mean "y"?)`. */
bool sp_bone_ref(sp_ctx *c, const cJSON *obj, const char *key, int32_t *out);
bool sp_slot_ref(sp_ctx *c, const cJSON *obj, const char *key, int32_t *out);
bool sp_fail_unknown(sp_ctx *c, const char *what, const char *name, int count,
                     const char *(*at)(const void *, int), const void *ctx);
const char *sp_bone_at(const void *sk, int i);
const char *sp_slot_at(const void *sk, int i);
/* Records an image the rig draws (at the current path). */
bool sp_use_image(sp_ctx *c, const char *name);
/* Records / finds an attachment the importer skipped. */
bool sp_skip_attachment(sp_ctx *c, int32_t slot, const char *name);
bool sp_was_skipped(const sp_ctx *c, int32_t slot, const char *name);
/* Records / finds a weighted attachment whose influences were capped. */
bool sp_mark_capped(sp_ctx *c, int32_t skin, int32_t slot, const char *name);
bool sp_was_capped(const sp_ctx *c, int32_t skin, int32_t slot, const char *name);
/* Our name of Spine's constraint (kind, spine name), NULL when none. */
const char *sp_constraint(const sp_ctx *c, mf_constraint_kind kind, const char *spine_name);

/* ---- skeleton.c / constraints.c / skins.c / vertices.c ---- */

bool sp_read_header(sp_ctx *c, const cJSON *root);
bool sp_read_bones(sp_ctx *c, const cJSON *root);
bool sp_read_slots(sp_ctx *c, const cJSON *root);
bool sp_read_events(sp_ctx *c, const cJSON *root);
bool sp_read_constraints(sp_ctx *c, const cJSON *root);
bool sp_read_skins(sp_ctx *c, const cJSON *root);
/* One skin attachment under skin key `key` at the current path. *parent_skin gets a linked
 * mesh's "skin"; *skip is set (and reported) when the attachment cannot be imported. */
bool sp_read_attachment(sp_ctx *c, const cJSON *obj, const char *key, mf_attachment *a, const char **parent_skin,
                        bool *skip);
/* Spine "vertices" of count vertices at the current path (key "vertices" of obj): unweighted
 * when there are 2 * count numbers, else [n, (bone, x, y, weight) * n] per vertex. y is flipped. */
bool sp_read_vertices(sp_ctx *c, const cJSON *obj, int32_t count, mf_vertices *out);

/* ---- animations ---- */

typedef struct sp_anim {
    sp_ctx *c;
    mf_clip *clip;
    int32_t cap;  /* timelines allocated */
    float length; /* the last key time */
    /* after sp_interpolated: the Spine key each written key comes from (a key added to keep a
     * curve's shape holds its predecessor's discrete values) */
    int32_t *origin;
    int32_t origin_count;
} sp_anim;

bool sp_read_animations(sp_ctx *c, const cJSON *root);
/* True (after failing at the current path) when the clip has that timeline already: a JSON
 * object with a repeated key. */
bool sp_duplicate(sp_anim *a, mf_timeline_kind kind, const char *target, const char *skin, const char *attachment);
/* A new timeline in the clip (zeroed, kind, comps and target set). NULL after failing. */
mf_timeline *sp_timeline(sp_anim *a, mf_timeline_kind kind, const char *target, int32_t keys);
/* Key times of arr's objects ("time", default 0) into tl->t; must not decrease. */
bool sp_key_times(sp_anim *a, const cJSON *arr, mf_timeline *tl);

/* A numeric value of a key: Spine member `key` (default def, or the value of an earlier
 * member when from >= 0, as mixY defaults to mixX), stored times sign. */
typedef struct sp_value {
    const char *key;
    float def;
    int from;
    float sign;
} sp_value;

/* Reads an interpolated timeline: keys [{time, values…, curve}] at the current path.
 * n Spine values a key; curves have 4 numbers per value in time and value units and are
 * normalised per segment. NULL after failing. */
mf_timeline *sp_numeric(sp_anim *a, const cJSON *arr, mf_timeline_kind kind, const char *target,
                        const sp_value *values, int n);
/* Same with values already read into v (key_count * n, Spine's units and signs); our value k
 * of a key is v[map[k]] * sign[k], or fill[k] with a linear curve when map[k] < 0. A segment
 * whose value stays the same but whose bezier bulges gets a key at the bulge (curves.c), so
 * the normalised curves keep the shape; a->origin says where each key came from. */
mf_timeline *sp_interpolated(sp_anim *a, const cJSON *arr, mf_timeline_kind kind, const char *target,
                             const float *v, int n, const int *map, const float *sign, const float *fill);
/* The normalised curve of key's segment for one value whose values are v0 and v1 (Spine's
 * "curve" member: 4 numbers per value in time and value units; used by deform keys, whose
 * values run 0 to 1). */
bool sp_curve(sp_anim *a, const cJSON *key, int comp, int comps, float t0, float t1, float v0, float v1,
              mf_curve *out);

bool sp_anim_bones(sp_anim *a, const cJSON *bones);
bool sp_anim_slots(sp_anim *a, const cJSON *slots);
bool sp_anim_constraints(sp_anim *a, const cJSON *anim);
bool sp_anim_attachments(sp_anim *a, const cJSON *anim);
bool sp_anim_draw_order(sp_anim *a, const cJSON *arr);
bool sp_anim_events(sp_anim *a, const cJSON *arr);

/* ---- regions.c: atlas pixels ---- */

/* The region's original image (unrotated, whitespace restored, straight alpha) cut from its
 * decoded page. */
mf_result sp_unpack_region(const mf_atlas_region *g, const mf_atlas_page *page, const mf_image *pixels,
                           mf_image *out, const char *atlas_file, mf_diag *diag);

/* ---- outdir.c: write into a temporary folder, then move into place ---- */

typedef struct sp_out {
    char *final, *tmp;
    char **files; /* relative paths written */
    int32_t file_count, file_cap;
    char **dirs;  /* relative folders created, parents first */
    int32_t dir_count, dir_cap;
} sp_out;

mf_result sp_out_begin(sp_out *o, const char *out_dir, mf_diag *diag);
/* Writes rel (a relative path with '/' separators) inside the temporary folder. */
mf_result sp_out_write(sp_out *o, const char *rel, const void *data, size_t len, mf_diag *diag);
/* Moves everything into place and frees o; on failure o is cleaned up too. */
mf_result sp_out_commit(sp_out *o, mf_diag *diag);
/* Removes what was written and frees o. */
void sp_out_abort(sp_out *o);
#endif
