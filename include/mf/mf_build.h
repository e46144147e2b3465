/* mf_build.h — building the runtime build (mf_skel_data.h) from a rig and its clips.
 *
 * Offline module (libmf_offline).
 *
 *     void *blob; size_t size;
 *     if (mf_build_skeleton(sk, clips, clip_count, &blob, &size, &diag) == MF_OK) {
 *         ... write it, or mf_skel_data_load(blob, size, &data, &diag) ...
 *         free(blob);
 *     }
 *
 *     mf_build_report rep;
 *     mf_build_file("hero.mskel", "hero.mskb", &rep, &diag);   // rig + its clips folder
 *     mf_build_report_free(&rep);
 *
 * What the build does (details with each record in mf_skel_data.h):
 *   - resolves every name to an index and interns every string once (equal names share an
 *     offset, so attachment names compare by offset);
 *   - applies import.scale to every length (setup translations, bone lengths, attachment
 *     geometry, ik softness, transform offsets, fixed path positions and spacings, physics
 *     limits, translate and deform keys);
 *   - bakes region attachments into quads (4 corners in bone space, uvs, 2 triangles) and
 *     shares linked meshes' geometry with their parent mesh;
 *   - lists images by name (each sequence frame its own entry); mf_build_file packs them into
 *     atlas pages (mf_build_atlas_make) and maps every uv onto its page;
 *   - computes the update order, interleaving bones and constraints by the rule documented in
 *     mf_skel_data.h;
 *   - sorts each skin's (slot, name) → attachment table for binary search;
 *   - per clip: resolves targets, fills ik / transform columns the file leaves out from the
 *     constraint's setup values, expands draw-order keys to full slot permutations, event keys
 *     to (event, payload) with the definition's defaults, sparse deform keys to dense arrays
 *     of the attachment's deform floats, and pre-samples every bezier into 10 linear pieces
 *     (equal curves shared; identity curves become linear).
 * The output is deterministic: the same input gives the same bytes.
 */
#ifndef MF_BUILD_H
#define MF_BUILD_H

#include "mf/mf_clip.h"
#include "mf/mf_skeleton.h"
#include "mf/mf_skel_data.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Builds the blob (malloc'd, free() it). The rig and clips must be consistent (as the readers
 * and mf_clip_check() leave them); anything that is not is reported as a located error, never
 * a crash. Clip errors name "<clip name>.manim" as the file. */
mf_result mf_build_skeleton(const mf_skeleton *sk, const mf_clip *const *clips, int32_t clip_count,
                            void **blob, size_t *size, mf_diag *diag);

/* ---- atlas: the rig's images packed into pages ---- */

typedef struct mf_build_atlas_image {
    char *name;                       /* image name (sequence frames: with their number) */
    int32_t page, x, y, w, h;         /* packed rectangle (trimmed image) */
    int32_t trim_x, trim_y, orig_w, orig_h;
} mf_build_atlas_image;

typedef struct mf_build_atlas_page {
    char *name, *normal_name; /* page_stem + "_0.png" …; normal_name NULL when none */
    int32_t width, height;
    void *png, *normal_png;   /* encoded PNG bytes (malloc'd) */
    size_t png_size, normal_png_size;
} mf_build_atlas_page;

typedef struct mf_build_atlas {
    int32_t page_count, image_count;
    mf_build_atlas_page *pages;
    mf_build_atlas_image *images; /* sorted by name */
    double occupancy;       /* packed area (with padding) / page area */
    bool has_normals;
} mf_build_atlas;

/* Progress of a long build: stage ("images", "pages", …) and done of total steps. */
typedef void (*mf_build_progress_fn)(void *user, const char *stage, int32_t done, int32_t total);

/* Loads every image the rig's region, mesh and linked-mesh attachments use from its images
 * folder (import.images, relative to skel_path), rescales them by import.scale, bleeds alpha,
 * trims them to their alpha bounds (meshes keep their uvs' bounds; sequence frames are not
 * trimmed), packs them (padding and edge extrusion by import.padding, pages of at most
 * import.pageSize) and encodes the pages as PNG, named page_stem + "_0.png" … and normal
 * pages page_stem + "_n0.png" … (from "<image><normalSuffix>.png", same rectangles).
 * A rig whose images folder does not exist gets an empty atlas (page_count 0).
 * Errors name the attachment (`skins[0].attachments[3].image`) of a missing or broken image. */
mf_result mf_build_atlas_make(const mf_skeleton *sk, const char *skel_path, const char *page_stem, mf_build_atlas *atlas,
                        mf_build_progress_fn progress, void *user, mf_diag *diag);
void mf_build_atlas_free(mf_build_atlas *atlas);

/* mf_build_skeleton with an atlas (NULL or empty: images by name only, image uvs). */
mf_result mf_build_skeleton_atlas(const mf_skeleton *sk, const char *skel_file, const mf_clip *const *clips,
                                  const char *const *clip_files, int32_t clip_count, const mf_build_atlas *atlas,
                                  void **blob, size_t *size, mf_diag *diag);

/* ---- whole files ---- */

typedef struct mf_build_report {
    int32_t bones, slots, skins, attachments, constraints, events, images;
    int32_t clips, timelines, keys;
    size_t bytes;
    char **clip_names; /* clips entries, malloc'd; mf_build_report_free() */
    int32_t pages;     /* atlas pages written (normal pages not counted) */
    bool normal_pages;
    double occupancy;
    const char *cache;       /* "hit" (nothing rebuilt), "miss" or "off" (static string) */
    const char *atlas_cache; /* the atlas entry alone: "hit" (images not re-packed), "miss", "off" */
} mf_build_report;

typedef struct mf_build_options {
    bool no_cache;                /* skip the bake cache even when the environment enables it */
    mf_build_progress_fn progress; /* NULL: none */
    void *progress_user;
} mf_build_options;

/* Loads the .mskel, every clip in its clips folder (mf_clip_folder / mf_clip_list), loads and
 * checks each against the rig, packs the images (mf_build_atlas_make), builds, and writes the pages
 * beside out_path (its stem + "_0.png" …) and out_path, each atomically: when anything fails,
 * out_path is untouched. Goes through the bake cache (mf_bake_cache.h) in two entries: the
 * atlas (keyed by the .mskel, the import settings and the images the rig uses) and the build
 * (keyed by the atlas key and the clip files), so a clip edit re-packs nothing. report may be
 * NULL. */
mf_result mf_build_file(const char *mskel_path, const char *out_path, mf_build_report *report,
                        mf_diag *diag);
mf_result mf_build_file_opt(const char *mskel_path, const char *out_path, const mf_build_options *opt,
                            mf_build_report *report, mf_diag *diag);
void mf_build_report_free(mf_build_report *report);

#ifdef __cplusplus
}
#endif
#endif
