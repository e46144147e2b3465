/* Shared by the .mskel model, reader and writer (not public). */
#ifndef MF_FORMAT_MSKEL_INTERNAL_H
#define MF_FORMAT_MSKEL_INTERNAL_H
#include <cjson/cJSON.h>

#include "mf/mf_skeleton.h"
#include "util/jread.h"

/* The file spellings of the enums, NULL-terminated, indexed by value (skeleton_model.c). */
extern const char *const mskel_inherit_names[];
extern const char *const mskel_blend_names[];
extern const char *const mskel_attachment_names[];
extern const char *const mskel_constraint_names[];
extern const char *const mskel_position_names[];
extern const char *const mskel_spacing_names[];
extern const char *const mskel_rotate_names[];

/* Reader state: the JSON path tracker and the skeleton being filled. */
typedef struct mskel_rd {
    mf_jr jr;
    mf_skeleton *sk;
    bool nomem;
    /* per constraint kind: which entries had an explicit "order" (arena arrays) */
    bool *order_given[MF_CONSTRAINT_KIND_COUNT];
} mskel_rd;

/* --- mskel_read_util.c: value helpers, all failing at the current JSON path --- */

/* An arena array of n zeroed elements; fails "out of memory" (n may be 0). */
void *mskel_array_alloc(mskel_rd *rd, size_t n, size_t size);
/* Member key as an array: NULL (no failure) when absent; fails on another type. */
const cJSON *mskel_get_array(mskel_rd *rd, const cJSON *obj, const char *key);
/* Member key as an object: NULL when absent; fails on another type. */
const cJSON *mskel_get_object(mskel_rd *rd, const cJSON *obj, const char *key);
/* Every element of arr must be an object (path key[i] on failure). */
bool mskel_all_objects(mskel_rd *rd, const cJSON *arr, const char *key);
/* Enum member: absent → def; unknown → "unknown <what> "x"" with a suggestion or the choices. */
bool mskel_enum(mskel_rd *rd, const cJSON *obj, const char *key, const char *what,
                const char *const *names, int def, int *out);
/* Optional non-empty string member (NULL when absent). */
bool mskel_opt_name(mskel_rd *rd, const cJSON *obj, const char *key, char **out);
/* Float member that must lie in [lo, hi]. */
bool mskel_float_range(mskel_rd *rd, const cJSON *obj, const char *key, float def, float lo,
                       float hi, float *out);
/* Floats of an array value (already checked to be an array). */
bool mskel_floats(mskel_rd *rd, const cJSON *arr, float **out, int32_t *count);
/* Integers of an array value, each in [0, limit) ("vertex index 9 out of range (5 vertices)"). */
bool mskel_indices(mskel_rd *rd, const cJSON *arr, int32_t limit, const char *what,
                   const char *range, int32_t **out, int32_t *count);

/* Name references: the member must be a known name; unknown names fail with a suggestion. */
bool mskel_bone_ref(mskel_rd *rd, const cJSON *obj, const char *key, int32_t *out);
bool mskel_slot_ref(mskel_rd *rd, const cJSON *obj, const char *key, int32_t *out);
/* Fails at the current path with `unknown <what> "name" (did you mean …?)`. */
bool mskel_unknown_bone(mskel_rd *rd, const char *name);
bool mskel_unknown_slot(mskel_rd *rd, const char *name);
/* A required array of bone names of length min..max, no duplicates. */
bool mskel_bone_list(mskel_rd *rd, const cJSON *obj, const char *key, int32_t min, int32_t max,
                     int32_t **out, int32_t *count);
/* Scans the names read so far; failing "duplicate <what> "x" (also <prefix>[i])". */
bool mskel_check_unique(mskel_rd *rd, const char *what, const char *prefix, const char *name,
                        int32_t count, const char *(*name_at)(const mf_skeleton *, int32_t));

/* --- mskel_read_constraints.c --- */
bool mskel_read_constraints(mskel_rd *rd, const cJSON *root);

/* --- mskel_read_skins.c --- */
bool mskel_read_skins(mskel_rd *rd, const cJSON *root);

/* --- mskel_read_attachment.c --- */
/* One attachment object at the current path, for skin index skin. LinkedMesh parents are
 * checked by mskel_read_skins() once every skin is read. */
bool mskel_read_attachment(mskel_rd *rd, const cJSON *obj, int32_t skin, mf_attachment *a);
#endif
