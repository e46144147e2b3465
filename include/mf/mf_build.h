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
 *   - lists images by name (each sequence frame its own entry), until atlas packing exists;
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

typedef struct mf_build_report {
    int32_t bones, slots, skins, attachments, constraints, events, images;
    int32_t clips, timelines, keys;
    size_t bytes;
    char **clip_names; /* clips entries, malloc'd; mf_build_report_free() */
} mf_build_report;

/* Loads the .mskel, every clip in its clips folder (mf_clip_folder / mf_clip_list), loads and
 * checks each against the rig, builds, and writes out_path atomically: when anything fails,
 * out_path is untouched. report may be NULL. */
mf_result mf_build_file(const char *mskel_path, const char *out_path, mf_build_report *report,
                        mf_diag *diag);
void mf_build_report_free(mf_build_report *report);

#ifdef __cplusplus
}
#endif
#endif
