/* Shared by the PSD importer's files: layer-name tags, the import plan (what the PSD asks for,
 * independent of any rig on disk), the layer → image map, and the staged output folder. */
#ifndef MF_PSD_IMPORT_INTERNAL_H
#define MF_PSD_IMPORT_INTERNAL_H
#include "mf/mf_psd.h"
#include "mf/mf_skeleton.h"
#include "util/arena.h"
#include "util/buf.h"

/* ---- tags: `head [mesh]`, `[skin] red`, `arm [bone:upper_arm]` */
typedef struct pi_tags {
    char name[256]; /* the name without tags, spaces trimmed, GIMP's " #N" suffix dropped */
    bool ignore, bone, slot, skin, merge, mesh, normal;
    char bone_name[128], slot_name[128], skin_name[128], path[128]; /* [tag:value], "" when none */
    char unknown[160]; /* tags this importer does not know, for the report */
} pi_tags;
void pi_parse_tags(const char *layer_name, pi_tags *t);

/* ---- the plan */
typedef struct pi_bone {
    char *name;
    int32_t parent; /* plan bone, -1 for the root */
    float wx, wy;   /* position in rig space (origin applied) */
    int32_t first_item, end_item; /* items placed while walking the group, for its position */
} pi_bone;

typedef struct pi_slot {
    char *name;
    int32_t bone;
    int32_t blend; /* mf_blend */
    char *setup;   /* setup attachment, NULL for none */
} pi_slot;

typedef struct pi_item {
    char *key;        /* layer path: "torso/arm_l/arm"; stable across re-imports */
    char *image;      /* image name (images/IMAGE.png) */
    char *skin;       /* NULL: default skin */
    char *attachment;
    char *pair;       /* normal maps: the clean name of the layer they belong to */
    int32_t slot;     /* plan slot; -1 for normal maps */
    int32_t layer;    /* index in mf_psd.layers (-1 for a [merge] group's composite) */
    bool mesh, normal;
    uint8_t opacity;
    int32_t x, y, w, h; /* trimmed bounds in the canvas */
    uint8_t *rgba;      /* w * h * 4, malloc'd */
    uint64_t hash;
} pi_item;

typedef struct pi_plan {
    mf_arena *arena;
    int32_t canvas_w, canvas_h;
    float ox, oy; /* rig origin in canvas pixels: bottom centre */
    pi_bone *bones;
    int32_t bone_count, bone_cap;
    pi_slot *slots;
    int32_t slot_count, slot_cap;
    pi_item *items;
    int32_t item_count, item_cap;
    char **skins; /* named skins, first seen first */
    int32_t skin_count, skin_cap;
    mf_buf report;
    int32_t report_lines;
} pi_plan;

void pi_report(pi_plan *p, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Walks the PSD into a plan. origin: the rig origin in canvas pixels, NULL for the bottom
 * centre of the canvas. MF_ERR_NOMEM only; everything else lands in the report. */
mf_result pi_plan_build(const mf_psd *psd, pi_plan *p, const float *origin, mf_diag *diag);
void pi_plan_free(pi_plan *p);
uint64_t pi_hash(const uint8_t *rgba, int32_t w, int32_t h);

/* ---- the layer → image map (NAME.psdmap.json) */
typedef struct pi_map_entry {
    char *key, *image, *skin, *slot, *attachment; /* skin NULL: default */
    bool normal;
    int32_t x, y, w, h;
    uint64_t hash;
    bool seen; /* re-import: the layer is still in the PSD */
} pi_map_entry;

typedef struct pi_map {
    mf_arena *arena;
    char *psd;
    float ox, oy;
    int32_t count, cap;
    pi_map_entry *entries;
} pi_map;

mf_result pi_map_read(const char *path, pi_map *m, mf_diag *diag);
char *pi_map_write(const pi_map *m, size_t *len);
pi_map_entry *pi_map_find(pi_map *m, const char *key);
pi_map_entry *pi_map_add(pi_map *m);
void pi_map_free(pi_map *m);

/* ---- rig: a new one from the plan, or the plan merged onto an existing one */
mf_result pi_rig_create(pi_plan *p, const char *name, mf_skeleton **out, pi_map *map, mf_diag *diag);
typedef struct pi_counts {
    int32_t added, updated, moved, unchanged, removed;
} pi_counts;
/* changed[i] is set for items whose PNG must be written. */
mf_result pi_rig_merge(pi_plan *p, mf_skeleton *sk, pi_map *map, bool *changed, pi_counts *counts, mf_diag *diag);

/* ---- staged output: files kept in memory, then written as temporaries and renamed */
typedef struct pi_stage {
    char *dir;
    int32_t count, cap;
    char **rel;
    void **data;
    size_t *len;
} pi_stage;
mf_result pi_stage_add(pi_stage *s, const char *rel, void *data, size_t len, mf_diag *diag); /* takes data */
mf_result pi_stage_commit(pi_stage *s, mf_diag *diag);
void pi_stage_free(pi_stage *s);
#endif
