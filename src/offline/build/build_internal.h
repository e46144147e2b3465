/* Shared by the build files: growable pools, the string interner and the build context. */
#ifndef MF_BUILD_INTERNAL_H
#define MF_BUILD_INTERNAL_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mf/mf_build.h"
#include "mf/mf_clip.h"
#include "mf/mf_skel_data.h"

/* A growable array of fixed-size zeroed elements (one per section). */
typedef struct mf_bvec {
    unsigned char *data;
    int32_t len, cap;
    uint32_t elem;
} mf_bvec;

/* n new zeroed elements at the end; NULL when n is 0, out of memory or past INT32_MAX elements.
 * Pointers into the vector are invalidated by the next push. */
void *mf_bvec_push(mf_bvec *v, int32_t n);
void mf_bvec_free(mf_bvec *v);
#define MF_BVEC_AT(v, type, i) ((type *)(void *)((v)->data + (size_t)(i) * sizeof(type)))

/* Strings interned into the STRINGS section: equal strings get one offset. */
typedef struct mf_interner {
    mf_bvec *bytes;
    int32_t *slots; /* open addressing: string offset + 1, 0 = empty */
    int32_t cap, used;
} mf_interner;

typedef struct mf_bctx {
    const mf_skeleton *sk;
    const char *skel_file;       /* for diagnostics ("" when unknown) */
    mf_diag *diag;
    float scale;                 /* import scale applied to lengths */
    bool oom;                    /* an allocation failed (the result is MF_ERR_NOMEM) */
    mf_bvec sec[MF_SD_SEC_END];  /* one pool per section id */
    mf_interner strings;
    /* bezier dedupe: open addressing over the BEZIERS pool, index + 1 */
    int32_t *bez_slots;
    int32_t bez_cap;
    mf_bvec bez_keys; /* float[4] control values per bezier, parallel to BEZIERS */
    /* attachments: the first global index of each skin's attachments */
    int32_t *att_base;
    const mf_build_atlas *atlas;       /* NULL or empty: images are not packed */
} mf_bctx;

/* An attachment's image name; frame >= 0: that sequence frame's (name + padded number). */
void mf_build_image_name(const mf_attachment *at, int32_t frame, char *out, size_t size);
/* The atlas pages into the PAGES section (before any image). */
bool mf_build_pages(mf_bctx *c);
/* Fills a new image record from the atlas; false with the diagnostic when the atlas lacks it. */
bool mf_build_place_image(mf_bctx *c, mf_sd_image *im, const char *name);
/* Maps n image uvs (0..1 in the original image) of IMAGES[image] to page uvs; unpacked
 * images keep them. */
void mf_build_map_uvs(const mf_bctx *c, int32_t image, const float *in, int32_t n, float *out);
/* Whether IMAGES[image] is packed. */
bool mf_build_packed(const mf_bctx *c, int32_t image);

/* Interns s (NULL → -1). Returns -1 and sets the out-of-memory error on failure via *ok. */
int32_t mf_intern(mf_bctx *c, const char *s, bool *ok);

/* Sets the diagnostic (file, where, message) and returns false. */
bool mf_bfail(mf_bctx *c, const char *file, const char *where, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
/* The same with where = "<rec>[<i>]" + ".<field>" when field is not empty. */
bool mf_bfail_at(mf_bctx *c, const char *file, const char *rec, int32_t i, const char *field,
                 const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 6, 7)))
#endif
    ;
bool mf_boom(mf_bctx *c); /* out of memory */

/* The parts, in build order. Each returns false with the diagnostic set. */
bool mf_build_rig(mf_bctx *c);         /* info, bones, slots, events, constraints */
bool mf_build_skins(mf_bctx *c);       /* images, attachments, skins */
bool mf_build_update_order(mf_bctx *c);
bool mf_build_clip(mf_bctx *c, const mf_clip *clip, const char *file);
/* The weighted skinning streams (SKIN_GROUP_FIRST … SKIN_VERTICES) from the attachments built,
 * by the runtime's own generator (build_skin_streams.c). */
bool mf_build_skin_streams(mf_bctx *c);
/* Fills the BOUNDS section (clip_count + 1 records already pushed) by posing view, a load of the
 * build so far (build_bounds.c). */
bool mf_build_bounds(mf_bctx *c, const mf_skel_data *view);

/* A bezier segment's curve code: linear when it is the identity, else a (shared) sample. */
bool mf_build_bezier(mf_bctx *c, float cx1, float cy1, float cx2, float cy2, int32_t *code);
/* Samples the bezier (0,0) (cx1,cy1) (cx2,cy2) (1,1) at the 9 interior parameter steps. */
void mf_bezier_sample(float cx1, float cy1, float cx2, float cy2, mf_sd_bezier *out);

/* ---- the bake cache's view of an atlas (build_atlas.c, build_atlas_cache.c) ---- */
struct mf_bake_hasher;
/* Hashes what mf_build_atlas_make reads: the names and bytes of the images the rig uses and
 * their normal maps (not every file in the folder). false: out of memory or a bad path. */
bool mf_build_atlas_hash_inputs(const mf_skeleton *sk, const char *skel_path, struct mf_bake_hasher *h);
/* The atlas (pages and placements) as a bundle payload, and back; decode: false on anything
 * malformed (a cache miss), the atlas left empty. */
mf_result mf_build_atlas_encode(const mf_build_atlas *at, void **out, size_t *len);
bool mf_build_atlas_decode(const void *payload, size_t len, mf_build_atlas *at);

/* Build with file names for diagnostics (NULL: "" for the rig, "<clip name>.manim" for clips). */
#define mf_build_skeleton_files(sk, skel_file, clips, clip_files, clip_count, blob, size, diag) \
    mf_build_skeleton_atlas(sk, skel_file, clips, clip_files, clip_count, NULL, blob, size, diag)
#endif
