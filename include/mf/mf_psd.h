/* mf_psd.h — an in-house reader for layered Photoshop files (.psd) and the PSD → rig importer.
 *
 * Offline module (libmf_offline). The reader takes what 2D artists' tools write (Photoshop,
 * GIMP, Krita, ImageMagick …):
 * - RGB (and greyscale) at 8 or 16 bits per channel; 16-bit samples are reduced to 8 bits by
 *   rounding (v * 255 / 65535);
 * - layer records with their Unicode names ("luni"; else the Pascal name, read as UTF-8 when it
 *   is valid UTF-8 and as Latin-1 otherwise), groups ("lsct"/"lsdk" section dividers),
 *   visibility, opacity, blend mode key and bounds in the canvas;
 * - raw and RLE (PackBits) channel data; 16-bit layer data in the "Lr16" block as well;
 * - a PSD without layers reads as one layer "Background" made from the merged image.
 * ZIP-compressed channels are refused (MF_ERR_UNSUPPORTED, naming the layer). Adjustment layers
 * and smart objects are kept as MF_PSD_SKIPPED entries with a warning; layer effects and
 * layer masks are not applied (a warning says so). Malformed files give located errors:
 *
 *     art.psd: offset 1234 (layer records, layer 3 "arm"): channel 2 length 90000 runs past the end of the section
 *
 *     mf_psd *psd = NULL;
 *     if (mf_psd_load("art.psd", &psd, &diag) != MF_OK) { ... }
 *     for (int32_t i = 0; i < psd->layer_count; i++) { const mf_psd_layer *l = &psd->layers[i]; ... }
 *     mf_psd_free(psd);
 */
#ifndef MF_PSD_H
#define MF_PSD_H

#include "mf/mf_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Canvases and layers larger than this on either side are refused (Photoshop's own limit). */
#define MF_PSD_MAX_SIDE 30000
#define MF_PSD_MAX_LAYERS 8192

typedef enum mf_psd_layer_kind {
    MF_PSD_PIXEL = 0, /* a layer with pixels (text and shape layers included: they are stored rasterised) */
    MF_PSD_GROUP,     /* a layer group (folder) */
    MF_PSD_SKIPPED    /* an adjustment layer or smart object: no pixels, see skip_reason */
} mf_psd_layer_kind;

typedef struct mf_psd_layer {
    char *name;             /* UTF-8 */
    mf_psd_layer_kind kind;
    int32_t parent;         /* index of the enclosing group in mf_psd.layers, -1 at the top */
    int32_t record;         /* index of the layer record in the file (0 = bottom-most), for messages */
    int32_t left, top;      /* bounds in the canvas (may reach past it) */
    int32_t width, height;
    bool visible;
    bool clipping;          /* clipped to the layer below (not applied) */
    bool has_effects;       /* layer effects present (not applied) */
    bool has_mask;          /* a layer mask present (not applied) */
    uint8_t opacity;        /* 0..255 */
    char blend[5];          /* blend mode key: "norm", "mul ", "scrn", "lddg", "pass" … */
    uint8_t *rgba;          /* PIXEL: width * height * 4, straight alpha, rows top to bottom */
    const char *skip_reason; /* SKIPPED: "adjustment layer", "smart object" */
} mf_psd_layer;

typedef struct mf_psd {
    int32_t width, height; /* canvas */
    int32_t depth;         /* bits per channel in the file: 8 or 16 */
    int32_t mode;          /* 3 RGB, 1 greyscale */
    /* File order: bottom-most first, which is draw order; a group comes after its children. */
    int32_t layer_count;
    mf_psd_layer *layers;
    /* Things read but not applied ("layer 4 \"glow\": layer effects are not applied"). */
    int32_t warning_count;
    char **warnings;
    struct mf_arena *arena;
} mf_psd;

/* Parses PSD bytes; file is only used in diagnostics. */
mf_result mf_psd_parse(const void *data, size_t len, const char *file, mf_psd **out, mf_diag *diag);
mf_result mf_psd_load(const char *path, mf_psd **out, mf_diag *diag);
void mf_psd_free(mf_psd *psd);

/* Photoshop's blend key → the slot blend it maps to: "norm" Normal, "mul " Multiply, "scrn"
 * Screen, "lddg" (linear dodge) Additive, "pass" (group pass-through) Normal; -1 for others. */
int mf_psd_blend_to_slot(const char *key);

/* ------------------------------------------------------------------ import */

typedef struct mf_psd_import_options {
    const char *name; /* rig name (DIR/NAME.mskel); NULL: the PSD's file name without extension */
} mf_psd_import_options;

typedef struct mf_psd_import_summary {
    char name[128];
    bool reimport;    /* DIR held a rig from an earlier import */
    int32_t bones, slots, skins, attachments, images; /* in the written rig / images written */
    int32_t added, updated, moved, unchanged, removed; /* re-import: layers by what happened */
    int32_t report_lines;
    char *report;     /* the import report text (also in DIR/import-report.txt); malloc'd */
} mf_psd_import_summary;

/* Imports FILE.psd into DIR: DIR/NAME.mskel, DIR/images/NAME.png for each layer, DIR/NAME.psdmap.json (layer →
 * image map for re-import) and DIR/import-report.txt. When DIR/NAME.mskel exists (an earlier
 * import), re-imports onto it: the rig, meshes and weights are kept; changed layers rewrite
 * their PNGs, moved layers shift their attachments, new layers become new slots, removed ones
 * are listed in the report. docs/psd-import.md gives the conventions. Nothing in DIR changes
 * unless the import succeeds. Free summary->report with free(). */
mf_result mf_psd_import(const char *psd_path, const char *out_dir, const mf_psd_import_options *opt,
                        mf_psd_import_summary *summary, mf_diag *diag);

#ifdef __cplusplus
}
#endif
#endif
