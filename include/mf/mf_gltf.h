/* mf_gltf.h — glTF 2.0 characters: reading (.gltf with external or data: buffers, and .glb),
 * a typed in-memory model, and writing (.glb, or .gltf with an embedded base64 buffer).
 *
 * The model is resolved: accessors (including sparse ones, normalised integers, strided views)
 * are expanded into plain arrays, animation samplers are folded into their channels, so a
 * caller never sees buffers, views or accessors. Everything a model holds lives in one arena
 * owned by it; mf_gltf_free releases all of it. Arrays read from one accessor are shared by
 * its users (channels with one sampler input, primitives with one POSITION accessor): edit
 * them only knowing that.
 *
 * Errors are located: "hero.gltf: nodes[3].children[1]: node 2 already has parent 0", for GLB
 * "hero.glb: GLB chunk 1 at offset 1204: …". Not supported (MF_ERR_UNSUPPORTED): required
 * extensions other than KHR_mesh_quantization, primitives without POSITION, URIs with a scheme.
 * Not kept: cameras, samplers, morph targets and "weights" channels (an animation made only of
 * those is dropped), attributes other than the five below, extras and extensions.
 *
 * Conventions follow glTF: metres, Y up, characters face +Z; quaternions (x, y, z, w);
 * matrices column-major (mf_math3d.h).
 */
#ifndef MF_GLTF_H
#define MF_GLTF_H

#include "mf/mf_base.h"
#include "mf/mf_math3d.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct mf_gltf_node {
    char *name;            /* NULL when the node has no name */
    int32_t parent;        /* -1 for roots */
    int32_t child_count;
    int32_t *children;
    mf_vec3 translation;   /* local TRS; a "matrix" node is decomposed into these */
    mf_quat rotation;
    mf_vec3 scale;
    int32_t mesh, skin;    /* -1 none */
} mf_gltf_node;

typedef struct mf_gltf_skin {
    char *name;                     /* NULL when unnamed */
    int32_t joint_count;
    int32_t *joints;                /* node indices */
    float *inverse_bind_matrices;   /* 16 per joint, column-major; NULL = identity */
    int32_t skeleton;               /* node or -1 */
} mf_gltf_skin;

/* Primitive topology (glTF "mode"). */
enum { MF_GLTF_POINTS = 0, MF_GLTF_LINES = 1, MF_GLTF_LINE_LOOP = 2, MF_GLTF_LINE_STRIP = 3,
       MF_GLTF_TRIANGLES = 4, MF_GLTF_TRIANGLE_STRIP = 5, MF_GLTF_TRIANGLE_FAN = 6 };

/* One draw of a mesh. Attribute arrays other than positions are NULL when absent. Other
 * attributes (TANGENT, COLOR_n, TEXCOORD_1 …) are checked but not kept. */
typedef struct mf_gltf_primitive {
    int32_t vertex_count;
    float *positions;      /* 3 per vertex (always present) */
    float *normals;        /* 3 per vertex */
    float *texcoords;      /* TEXCOORD_0: 2 per vertex */
    uint16_t *joints;      /* JOINTS_0: 4 per vertex, indices into the node's skin.joints */
    float *weights;        /* WEIGHTS_0: 4 per vertex (normalised integers become 0..1) */
    int32_t index_count;
    uint32_t *indices;     /* NULL: not indexed */
    int32_t material;      /* -1 none */
    int32_t mode;          /* MF_GLTF_TRIANGLES … */
} mf_gltf_primitive;

typedef struct mf_gltf_mesh {
    char *name;
    int32_t primitive_count;
    mf_gltf_primitive *primitives;
} mf_gltf_mesh;

/* Metallic-roughness material; only what a preview needs. */
typedef struct mf_gltf_material {
    char *name;
    float base_color[4];          /* baseColorFactor, linear RGBA */
    int32_t base_color_texture;   /* texture index or -1 */
    float metallic, roughness;
    bool double_sided;
} mf_gltf_material;

typedef struct mf_gltf_texture {
    int32_t image;                /* image index or -1 */
} mf_gltf_texture;

/* An image's encoded bytes (PNG, JPEG …), kept so a written model carries them. */
typedef struct mf_gltf_image {
    char *name;
    char *mime_type;              /* "image/png" …; NULL when the source did not say */
    size_t size;
    uint8_t *data;
} mf_gltf_image;

typedef enum mf_gltf_path {
    MF_GLTF_TRANSLATION = 0, /* 3 components */
    MF_GLTF_ROTATION = 1,    /* 4 components (x, y, z, w) */
    MF_GLTF_SCALE = 2        /* 3 components */
} mf_gltf_path;

typedef enum mf_gltf_interp {
    MF_GLTF_LINEAR = 0,
    MF_GLTF_STEP = 1,
    MF_GLTF_CUBICSPLINE = 2
} mf_gltf_interp;

/* A channel with its sampler. Morph-target "weights" channels are not kept. */
typedef struct mf_gltf_channel {
    int32_t node;
    mf_gltf_path path;
    mf_gltf_interp interpolation;
    int32_t key_count;
    float *times;        /* key_count seconds, strictly increasing */
    /* key_count × components; CUBICSPLINE: key_count × 3 × components laid out per key as
     * (in-tangent, value, out-tangent) like glTF. Normalised integer rotations become floats. */
    float *values;
} mf_gltf_channel;

typedef struct mf_gltf_animation {
    char *name;          /* NULL when unnamed */
    int32_t channel_count;
    mf_gltf_channel *channels;
} mf_gltf_animation;

struct mf_gltf {
    int32_t node_count;
    mf_gltf_node *nodes;
    int32_t scene_node_count;   /* root nodes of the default scene (written as scene 0) */
    int32_t *scene_nodes;
    int32_t skin_count;
    mf_gltf_skin *skins;
    int32_t mesh_count;
    mf_gltf_mesh *meshes;
    int32_t material_count;
    mf_gltf_material *materials;
    int32_t texture_count;
    mf_gltf_texture *textures;
    int32_t image_count;
    mf_gltf_image *images;
    int32_t animation_count;
    mf_gltf_animation *animations;
    char *generator;            /* asset.generator, may be NULL */
    void *arena;                /* owns every array and string above */
};
typedef struct mf_gltf mf_gltf;

/* Reads a .gltf (JSON; buffers and images by relative path or data: URI) or a .glb (told
 * apart by the content, not the extension). */
mf_result mf_gltf_load(const char *path, mf_gltf **out, mf_diag *diag);
/* Parses bytes; path names the file in messages and is the base for relative URIs (may be
 * NULL: then only data: URIs and the GLB chunk can hold data). */
mf_result mf_gltf_parse(const void *bytes, size_t size, const char *path, mf_gltf **out,
                        mf_diag *diag);
/* Writes .glb when path ends in ".glb" (any case), else .gltf with one embedded base64
 * buffer. Atomic; validates the model first. The same model always gives the same bytes. */
mf_result mf_gltf_save(const mf_gltf *g, const char *path, mf_diag *diag);
/* The same into memory (malloc'd, free() it). */
mf_result mf_gltf_write(const mf_gltf *g, bool glb, void **bytes, size_t *size, mf_diag *diag);
void mf_gltf_free(mf_gltf *g);

/* Checks a typed model the way the reader checks a file (indices in range, single-parent
 * acyclic tree, array sizes, finite numbers); locations are JSON-like paths. */
mf_result mf_gltf_validate(const mf_gltf *g, mf_diag *diag);

/* Rest (node TRS) world matrix of a node; identity for an index out of range. */
mf_mat4 mf_gltf_node_world(const mf_gltf *g, int32_t node);
mf_mat4 mf_gltf_node_local(const mf_gltf *g, int32_t node);
/* First node with that name, or -1. */
int32_t mf_gltf_find_node(const mf_gltf *g, const char *name);
/* First animation with that name, or -1. */
int32_t mf_gltf_find_animation(const mf_gltf *g, const char *name);

/* Building and editing models. */
mf_gltf *mf_gltf_create(void);                       /* empty; NULL when out of memory */
void *mf_gltf_alloc(mf_gltf *g, size_t size);        /* zeroed, owned by g; NULL on oom */
char *mf_gltf_strdup(mf_gltf *g, const char *s);     /* NULL stays NULL */
/* Deep-copies anim into g: replaces the first animation of the same name (named ones only),
 * else appends. Validates it against g (nodes in range, times increasing, sizes). */
mf_result mf_gltf_set_animation(mf_gltf *g, const mf_gltf_animation *anim, mf_diag *diag);
/* Removes the first animation with that name; false when there is none. */
bool mf_gltf_remove_animation(mf_gltf *g, const char *name);

/* Components per key of a channel path (3 or 4). */
int mf_gltf_path_components(mf_gltf_path path);
/* Samples a channel at time t (clamped to its keys) into out (3 or 4 floats); rotations are
 * normalised and interpolated along the shorter arc for LINEAR. */
void mf_gltf_channel_sample(const mf_gltf_channel *c, float t, float *out);

/* Structural equality of two models (within eps for numbers). On difference, writes what
 * differs first ("nodes[3].translation") into why when it is not NULL. */
bool mf_gltf_equal(const mf_gltf *a, const mf_gltf *b, float eps, char *why, size_t why_size);

#ifdef __cplusplus
}
#endif
#endif
