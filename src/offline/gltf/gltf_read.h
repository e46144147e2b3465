/* The glTF reader's state, shared by its parts (container, accessors, scene, animations). */
#ifndef MF_GLTF_READ_H
#define MF_GLTF_READ_H
#include <cjson/cJSON.h>

#include "gltf_internal.h"
#include "util/jread.h"

typedef struct rd_buffer {
    const uint8_t *data;
    size_t size;            /* byteLength */
} rd_buffer;

typedef struct rd_view {
    int32_t buffer;
    size_t offset, length, stride; /* stride 0: tightly packed */
} rd_view;

typedef struct rd_accessor {
    int32_t view;           /* -1: zeros (or sparse values only) */
    size_t offset;
    int32_t comp_type;
    bool normalized;
    int32_t count;
    int ncomp, rows;        /* rows: matrix rows (0 for scalars and vectors) */
    size_t elem_size, stride;
    const char *type;       /* "SCALAR", "VEC3" … */
    int32_t sparse_count;   /* 0: not sparse */
    const uint8_t *sparse_idx, *sparse_val;
    int32_t sparse_idx_type;
    float *f32;             /* decoded on first use, shared by every user */
    uint32_t *u32;
    uint16_t *u16;
} rd_accessor;

typedef struct gltf_reader {
    mf_jr jr;
    mf_result err;          /* the kind of failure to return once jr failed */
    mf_gltf *g;
    mf_arena *a;
    const char *path;       /* NULL: no file, only embedded data */
    const uint8_t *bin;     /* GLB BIN chunk */
    size_t bin_size;
    bool glb, has_bin, quantized;
    int32_t buffer_count, view_count, accessor_count;
    rd_buffer *buffers;
    rd_view *views;
    rd_accessor *acc;
    void **owned;           /* external files read with malloc, freed after parsing */
    int32_t owned_count;
    int32_t *mark;          /* 3 × node_count scratch marks */
    size_t budget;          /* floats still allowed from accessors without a buffer view */
} gltf_reader;

/* Failing with a result kind other than MF_ERR_INVALID. */
bool rd_fail_kind(gltf_reader *r, mf_result kind, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* Fails at an absolute path (not below the current one). */
bool rd_fail_path(gltf_reader *r, const char *where, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* An optional index key: absent → -1; present → must be in 0..count-1 (what names the array). */
bool rd_index(gltf_reader *r, const cJSON *obj, const char *key, int32_t count, const char *what,
              int32_t *out);
/* A required integer ≥ min. */
bool rd_req_int(gltf_reader *r, const cJSON *obj, const char *key, int32_t min, int32_t *out);
/* The array under key: absent → NULL and true; present but not an array → fail. */
bool rd_array(gltf_reader *r, const cJSON *obj, const char *key, const cJSON **out);
/* Reads a fixed-size float array (e.g. translation) when present. */
bool rd_floats(gltf_reader *r, const cJSON *obj, const char *key, float *out, int n, bool *has);
/* An optional name: NULL when absent. */
bool rd_name(gltf_reader *r, const cJSON *obj, char **out);

/* Accessors: descriptors and bounds (gltf_accessor.c). */
bool rd_accessors(gltf_reader *r, const cJSON *arr);
/* Checks an accessor is one of the given types/component types for a use (names the use in
 * messages at the current path). types/comps are 0-terminated lists; norm: -1 any, 0 must
 * not be normalised, 1 must be normalised (floats never count as normalised). */
bool rd_accessor_is(gltf_reader *r, int32_t index, const char *const *types, const int32_t *comps,
                    int norm_for_ints);
/* Decoded data: floats (normalised ints mapped to 0..1 / -1..1), or unsigned integers. */
const float *rd_accessor_f32(gltf_reader *r, int32_t index);
const uint32_t *rd_accessor_u32(gltf_reader *r, int32_t index);
const uint16_t *rd_accessor_u16(gltf_reader *r, int32_t index);

/* Scene parts (gltf_read_scene.c) and animations (gltf_read_anim.c). */
bool rd_images(gltf_reader *r, const cJSON *root);
bool rd_materials(gltf_reader *r, const cJSON *root);
bool rd_meshes(gltf_reader *r, const cJSON *root);
bool rd_nodes(gltf_reader *r, const cJSON *root);
bool rd_skins(gltf_reader *r, const cJSON *root);
bool rd_scenes(gltf_reader *r, const cJSON *root);
bool rd_animations(gltf_reader *r, const cJSON *root);

/* Reads a URI (data: or a path relative to the file) into bytes; mime gets the data: media
 * type when there is one. */
bool rd_uri(gltf_reader *r, const char *uri, const uint8_t **data, size_t *size, char **mime);

static inline const char *rd_type_name(int ncomp, int rows)
{
    if (rows) return rows == 2 ? "MAT2" : rows == 3 ? "MAT3" : "MAT4";
    return ncomp == 1 ? "SCALAR" : ncomp == 2 ? "VEC2" : ncomp == 3 ? "VEC3" : "VEC4";
}
#endif
