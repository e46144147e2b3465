/* Shared by the clip reader, writer and check (not public). */
#ifndef MF_FORMAT_CLIP_INTERNAL_H
#define MF_FORMAT_CLIP_INTERNAL_H
#include "mf/mf_clip.h"

/* The groups of a .manim file, in file order. */
typedef enum mf_clip_group {
    MF_GROUP_BONES = 0,
    MF_GROUP_SLOTS,
    MF_GROUP_IK,
    MF_GROUP_TRANSFORM,
    MF_GROUP_PATH,
    MF_GROUP_PHYSICS,
    MF_GROUP_DEFORM,
    MF_GROUP_DRAW_ORDER,
    MF_GROUP_EVENTS,
    MF_GROUP_COUNT
} mf_clip_group;

mf_clip_group mf_clip_kind_group(mf_timeline_kind k);
const char *mf_clip_group_name(mf_clip_group g);
/* True for kinds whose keys interpolate (and so carry curves). */
bool mf_clip_kind_has_curve(mf_timeline_kind k);
/* Canonical order: group, then target (deform: skin, slot, attachment), then kind. */
int mf_clip_timeline_cmp(const mf_timeline *a, const mf_timeline *b);
/* The timeline indices in canonical order (stable); malloc'd, NULL when out of memory. */
int32_t *mf_clip_sorted_order(const mf_clip *clip);
#endif
