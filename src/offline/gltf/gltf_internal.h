/* Shared by the glTF reader, writer and model helpers (not public). */
#ifndef MF_GLTF_INTERNAL_H
#define MF_GLTF_INTERNAL_H
#include <stdio.h>

#include "mf/mf_gltf.h"
#include "util/arena.h"

/* glTF component types and buffer view targets. */
enum {
    GL_BYTE = 5120, GL_UNSIGNED_BYTE = 5121, GL_SHORT = 5122, GL_UNSIGNED_SHORT = 5123,
    GL_UNSIGNED_INT = 5125, GL_FLOAT = 5126,
    GL_ARRAY_BUFFER = 34962, GL_ELEMENT_ARRAY_BUFFER = 34963
};

#define MF_GLB_MAGIC 0x46546C67u /* "glTF" */
#define MF_GLB_JSON 0x4E4F534Au  /* "JSON" */
#define MF_GLB_BIN 0x004E4942u   /* "BIN\0" */

static inline mf_arena *mf_gltf__arena(const mf_gltf *g) { return (mf_arena *)g->arena; }

/* A located problem found in a typed model: where ("nodes[3].children[1]") and what. */
typedef struct mf_gltf_problem {
    char where[256];
    char message[256];
} mf_gltf_problem;

/* Fills parent from the children lists and checks the tree: children in range, no node with
 * two parents or listed twice, no node its own ancestor. false with p filled on the first
 * problem. */
bool mf_gltf__link_tree(mf_gltf_node *nodes, int32_t count, mf_gltf_problem *p);

/* Checks one animation against the model (nodes in range, at least one channel, times finite,
 * non-negative and increasing, values finite, no target twice); index names it in p. */
bool mf_gltf__check_animation(const mf_gltf *g, const mf_gltf_animation *a, int32_t index, mf_gltf_problem *p);

/* Base64 (RFC 4648, padded). decode: NULL when the text is not base64; *n gets the size. */
uint8_t *mf_base64_decode(mf_arena *a, const char *text, size_t len, size_t *n, bool *bad);
/* Appends the encoding of data to out (which must hold 4 * ceil(n / 3) bytes). */
void mf_base64_encode(const uint8_t *data, size_t n, char *out);

/* The MIME type of image bytes by their signature, or NULL. */
const char *mf_gltf__sniff_image(const uint8_t *data, size_t n);

/* Little-endian reads of possibly unaligned data. */
static inline uint32_t mf_le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
#endif
