/* mf_spine.h — the Spine 4.x JSON importer and the Spine atlas reader.
 *
 * Offline module (libmf_offline). Written from Spine's public JSON and atlas format references
 * under the clean-room rule (DESIGN.md): no Spine runtime code was read.
 *
 *     mf_spine_summary sum;
 *     mf_diag diag;
 *     if (mf_spine_import("hero.json", "out/hero", NULL, &sum, &diag) != MF_OK) { ...located error... }
 *     // writes out/hero/: hero.mskel, hero.clips/CLIP.manim, images/NAME.png, import-report.txt
 *
 * What is read: Spine 4.0, 4.1 and 4.2 JSON (bones with "transform" or "inherit", skins as an
 * array, "attachments" or "deform" animation groups, physics constraints and timelines); of 4.3,
 * the typed "constraints" list (ik, transform, path and physics entries; sliders and 4.3-only
 * settings such as transform "properties" are reported). Every key this importer does not know
 * is listed in the import report rather than dropped silently. Binary `.skel` exports and 3.x
 * JSON are refused.
 *
 * Images: every atlas region becomes images/NAME.png (the image name the rig uses for it, else
 * the region's name plus its index), straight alpha at the atlas's resolution (a page "scale"
 * is reported: attachments keep their sizes in rig units). Premultiplied pages are divided back;
 * Spine stores floor(c * a / 255), so colours under alpha 128 carry less than 8 bits.
 *
 * Conversion rules (Spine is Y-up with counter-clockwise angles; mfanim is Y-down, clockwise):
 * - every y (bone, attachment, vertex, weighted vertex, deform, translate key, constraint offset)
 *   and every rotation and shear (setup, keys, offsets) is negated; bezier y controls follow;
 * - IK bend directions flip with the handedness: bendPositive true becomes bend -1 (the bone
 *   still bends the same way on screen);
 * - mesh UVs are kept as they are: Spine's UVs already run top to bottom in the image, like
 *   ours (checked against the reference dumps of the Spine runtime);
 * - physics wind and gravity keep their values: positive wind blows right and positive gravity
 *   pulls down on screen in both systems (so mfanim's physics applies gravity along +y);
 * - bezier control points are normalised per segment: cx' = (cx - t0) / (t1 - t0), and
 *   cy' = (cy - v0) / (v1 - v0); a segment whose start and end values are equal but whose
 *   curve bulges is split at the bulge's peak with one added key (reported), so the motion is
 *   kept exactly;
 * - `rgb2` keys become `rgba2` keys with the slot's setup alpha (the report says so when the
 *   same slot also keys its alpha);
 * - Spine's per-attachment sequence timelines become per-slot ones (conflicts are reported);
 * - constraint orders are renumbered 0..n-1 in Spine's order.
 */
#ifndef MF_SPINE_H
#define MF_SPINE_H

#include "mf/mf_clip.h"
#include "mf/mf_skeleton.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------- atlas */

typedef struct mf_atlas_page {
    char *name;            /* image file, relative to the atlas's folder */
    int32_t line;          /* 1-based line of the name, for diagnostics */
    int32_t width, height; /* "size", 0 when absent */
    bool pma;              /* premultiplied alpha */
    float scale;           /* "scale" (default 1): the page's pixels per rig unit */
} mf_atlas_page;

typedef struct mf_atlas_region {
    char *name;
    int32_t line;    /* 1-based line of the name */
    int32_t page;    /* index into pages */
    int32_t index;   /* "index", -1 when absent */
    int32_t x, y;    /* top-left of the packed pixels in the page */
    int32_t width, height;           /* packed size before rotation */
    int32_t offset_x, offset_y;      /* whitespace stripped from the left and the bottom */
    int32_t orig_width, orig_height; /* size before stripping (= width, height when untrimmed) */
    int32_t degrees; /* 0, 90, 180 or 270: stored rotated this much counter-clockwise */
} mf_atlas_region;

typedef struct mf_atlas {
    int32_t page_count, region_count;
    mf_atlas_page *pages;
    mf_atlas_region *regions;
    mf_arena *arena;
} mf_atlas;

/* Parses Spine 4 atlas text (and the older libgdx keys xy/size/orig/offset). file is for
 * diagnostics ("hero.atlas: line 12: …"). */
mf_result mf_atlas_parse(const char *text, size_t len, const char *file, mf_atlas **out, mf_diag *diag);
mf_result mf_atlas_load(const char *path, mf_atlas **out, mf_diag *diag);
void mf_atlas_free(mf_atlas *atlas);
/* The region of that name: an exact name first, then a region whose name plus its index
 * spells it ("walk" index 3 for "walk3" or "walk03"). NULL when missing. */
const mf_atlas_region *mf_atlas_find(const mf_atlas *atlas, const char *name);

/* ---------------------------------------------------------------- conversion in memory */

/* A converted rig: the model, its clips and what the import report says. */
typedef struct mf_spine_rig {
    mf_skeleton *skeleton;
    int32_t clip_count;
    mf_clip **clips;     /* one per Spine animation, in file order; clips[i]->name is the file stem */
    int32_t image_count;
    char **images;       /* every image the rig draws (sequence frames expanded), sorted, unique */
    char **image_where;  /* the JSON path of each image's first use */
    int32_t report_count;
    char **report;       /* "[category] where: what (why)" lines, in a stable order */
} mf_spine_rig;

/* Converts Spine JSON text. name is the rig's name (the JSON's file stem: it seeds the uids);
 * file is for diagnostics. Fails with a located error on malformed JSON, unknown references,
 * shapes that do not fit, and on 3.x exports. */
mf_result mf_spine_convert(const char *json, size_t len, const char *file, const char *name,
                           mf_spine_rig **out, mf_diag *diag);
void mf_spine_rig_free(mf_spine_rig *rig);

/* ---------------------------------------------------------------- import to files */

typedef struct mf_spine_options {
    const char *atlas; /* NULL: the .atlas beside the JSON with the same stem */
} mf_spine_options;

typedef struct mf_spine_summary {
    char name[128];
    int32_t bones, slots, skins, attachments, constraints, events, clips, images;
    int32_t report_lines;
    char report_counts[256]; /* "curve 2, editor 5" : lines per category */
    double seconds;
} mf_spine_summary;

/* Reads json_path, its atlas and page images, and writes out_dir/NAME.mskel,
 * out_dir/NAME.clips/CLIP.manim, out_dir/images/REGION.png and out_dir/import-report.txt.
 * Everything is written to a temporary folder beside out_dir first; files in out_dir are only
 * replaced once the whole import succeeded, and other files there are left alone.
 * summary may be NULL. */
mf_result mf_spine_import(const char *json_path, const char *out_dir, const mf_spine_options *opt,
                          mf_spine_summary *summary, mf_diag *diag);

#ifdef __cplusplus
}
#endif
#endif
