/* The clip model: enum spellings, per-kind shapes, creation and the canonical timeline order. */
#include <stdlib.h>
#include <string.h>

#include "clip_internal.h"
#include "mf/mf_clip.h"
#include "util/arena.h"

/* One row per mf_timeline_kind, in enum order. */
static const struct {
    const char *name;
    int32_t comps, icomps;
    bool curve; /* interpolated: keys carry a curve per segment */
} KINDS[MF_TL_KIND_COUNT] = {
    [MF_TL_ROTATE] = {"rotate", 1, 0, true},
    [MF_TL_TRANSLATE] = {"translate", 2, 0, true},
    [MF_TL_TRANSLATE_X] = {"translateX", 1, 0, true},
    [MF_TL_TRANSLATE_Y] = {"translateY", 1, 0, true},
    [MF_TL_SCALE] = {"scale", 2, 0, true},
    [MF_TL_SCALE_X] = {"scaleX", 1, 0, true},
    [MF_TL_SCALE_Y] = {"scaleY", 1, 0, true},
    [MF_TL_SHEAR] = {"shear", 2, 0, true},
    [MF_TL_SHEAR_X] = {"shearX", 1, 0, true},
    [MF_TL_SHEAR_Y] = {"shearY", 1, 0, true},
    [MF_TL_INHERIT] = {"inherit", 0, 1, false},
    [MF_TL_ATTACHMENT] = {"attachment", 0, 0, false},
    [MF_TL_RGBA] = {"rgba", 4, 0, true},
    [MF_TL_RGB] = {"rgb", 3, 0, true},
    [MF_TL_ALPHA] = {"alpha", 1, 0, true},
    [MF_TL_RGBA2] = {"rgba2", 7, 0, true},
    [MF_TL_SEQUENCE] = {"sequence", 1, 2, false},
    [MF_TL_IK] = {"ik", 2, 3, true},
    [MF_TL_TRANSFORM] = {"transform", 6, 0, true},
    [MF_TL_PATH_POSITION] = {"position", 1, 0, true},
    [MF_TL_PATH_SPACING] = {"spacing", 1, 0, true},
    [MF_TL_PATH_MIX] = {"mix", 3, 0, true},
    [MF_TL_PHYSICS_INERTIA] = {"inertia", 1, 0, true},
    [MF_TL_PHYSICS_STRENGTH] = {"strength", 1, 0, true},
    [MF_TL_PHYSICS_DAMPING] = {"damping", 1, 0, true},
    [MF_TL_PHYSICS_MASS] = {"mass", 1, 0, true},
    [MF_TL_PHYSICS_WIND] = {"wind", 1, 0, true},
    [MF_TL_PHYSICS_GRAVITY] = {"gravity", 1, 0, true},
    [MF_TL_PHYSICS_MIX] = {"mix", 1, 0, true},
    [MF_TL_PHYSICS_RESET] = {"reset", 0, 0, false},
    [MF_TL_DEFORM] = {"deform", 0, 0, true},
    [MF_TL_DRAW_ORDER] = {"drawOrder", 0, 0, false},
    [MF_TL_EVENT] = {"events", 0, 0, false},
};

static bool kind_ok(mf_timeline_kind k) { return (int)k >= 0 && k < MF_TL_KIND_COUNT; }

const char *mf_timeline_kind_name(mf_timeline_kind k) { return kind_ok(k) ? KINDS[k].name : "?"; }
int32_t mf_timeline_kind_comps(mf_timeline_kind k) { return kind_ok(k) ? KINDS[k].comps : 0; }
int32_t mf_timeline_kind_icomps(mf_timeline_kind k) { return kind_ok(k) ? KINDS[k].icomps : 0; }
bool mf_clip_kind_has_curve(mf_timeline_kind k) { return kind_ok(k) && KINDS[k].curve; }

mf_clip_group mf_clip_kind_group(mf_timeline_kind k)
{
    if (k <= MF_TL_INHERIT) return MF_GROUP_BONES;
    if (k <= MF_TL_SEQUENCE) return MF_GROUP_SLOTS;
    if (k == MF_TL_IK) return MF_GROUP_IK;
    if (k == MF_TL_TRANSFORM) return MF_GROUP_TRANSFORM;
    if (k <= MF_TL_PATH_MIX) return MF_GROUP_PATH;
    if (k <= MF_TL_PHYSICS_RESET) return MF_GROUP_PHYSICS;
    if (k == MF_TL_DEFORM) return MF_GROUP_DEFORM;
    if (k == MF_TL_DRAW_ORDER) return MF_GROUP_DRAW_ORDER;
    return MF_GROUP_EVENTS;
}

const char *mf_clip_group_name(mf_clip_group g)
{
    static const char *const names[MF_GROUP_COUNT] = {"bones", "slots", "ik", "transform", "path",
                                                      "physics", "deform", "drawOrder", "events"};
    return (int)g >= 0 && g < MF_GROUP_COUNT ? names[g] : "?";
}

static const char *const SEQ_MODES[MF_SEQ_MODE_COUNT] = {
    "hold", "once", "loop", "pingpong", "onceReverse", "loopReverse", "pingpongReverse"};
static const char *const LOOP_MODES[] = {"None", "Linear", "PingPong"};

const char *mf_sequence_mode_name(mf_sequence_mode m)
{
    return (int)m >= 0 && m < MF_SEQ_MODE_COUNT ? SEQ_MODES[m] : "?";
}

int mf_sequence_mode_parse(const char *s)
{
    for (int i = 0; s && i < MF_SEQ_MODE_COUNT; i++)
        if (strcmp(s, SEQ_MODES[i]) == 0) return i;
    return -1;
}

const char *mf_loop_mode_name(mf_loop_mode m)
{
    return (int)m >= 0 && m <= MF_LOOP_PINGPONG ? LOOP_MODES[m] : "?";
}

int mf_loop_mode_parse(const char *s)
{
    for (int i = 0; s && i <= MF_LOOP_PINGPONG; i++)
        if (strcmp(s, LOOP_MODES[i]) == 0) return i;
    return -1;
}

mf_clip *mf_clip_create(void)
{
    mf_clip *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    c->arena = mf_arena_create();
    if (!c->arena) {
        free(c);
        return NULL;
    }
    c->format = MF_CLIP_FORMAT;
    c->fps = 30.0f;
    c->loop = MF_LOOP_NONE;
    return c;
}

void mf_clip_free(mf_clip *clip)
{
    if (!clip) return;
    mf_arena_destroy(clip->arena);
    free(clip);
}

void *mf_clip_alloc(mf_clip *clip, size_t size) { return clip ? mf_arena_alloc(clip->arena, size) : NULL; }

char *mf_clip_strdup(mf_clip *clip, const char *s) { return clip ? mf_arena_strdup(clip->arena, s) : NULL; }

static int cmp_str(const char *a, const char *b) { return strcmp(a ? a : "", b ? b : ""); }

int mf_clip_timeline_cmp(const mf_timeline *a, const mf_timeline *b)
{
    mf_clip_group ga = mf_clip_kind_group(a->kind), gb = mf_clip_kind_group(b->kind);
    if (ga != gb) return ga < gb ? -1 : 1;
    int c;
    if (ga == MF_GROUP_DEFORM) {
        if ((c = cmp_str(a->skin, b->skin)) != 0) return c;
        if ((c = cmp_str(a->target, b->target)) != 0) return c;
        if ((c = cmp_str(a->attachment, b->attachment)) != 0) return c;
    } else if ((c = cmp_str(a->target, b->target)) != 0) {
        return c;
    }
    return a->kind < b->kind ? -1 : a->kind > b->kind ? 1 : 0;
}

/* A stable merge sort of timeline indices (qsort is not stable; equal timelines keep their
 * order so that the writer can report the duplicate it meets second). */
static void merge_sort(const mf_timeline *tl, int32_t *idx, int32_t *tmp, int32_t n)
{
    if (n < 2) return;
    int32_t h = n / 2;
    merge_sort(tl, idx, tmp, h);
    merge_sort(tl, idx + h, tmp, n - h);
    int32_t i = 0, j = h, k = 0;
    while (i < h && j < n)
        tmp[k++] = mf_clip_timeline_cmp(&tl[idx[j]], &tl[idx[i]]) < 0 ? idx[j++] : idx[i++];
    while (i < h) tmp[k++] = idx[i++];
    while (j < n) tmp[k++] = idx[j++];
    memcpy(idx, tmp, (size_t)n * sizeof *idx);
}

int32_t *mf_clip_sorted_order(const mf_clip *clip)
{
    int32_t n = clip->timeline_count > 0 ? clip->timeline_count : 0;
    int32_t *idx = malloc(((size_t)n + 1) * sizeof *idx);
    int32_t *tmp = malloc(((size_t)n + 1) * sizeof *tmp);
    if (!idx || !tmp) {
        free(idx);
        free(tmp);
        return NULL;
    }
    for (int32_t i = 0; i < n; i++) idx[i] = i;
    merge_sort(clip->timelines, idx, tmp, n);
    free(tmp);
    return idx;
}

void mf_clip_sort(mf_clip *clip)
{
    if (!clip || clip->timeline_count < 2 || !clip->timelines) return;
    int32_t n = clip->timeline_count;
    int32_t *idx = mf_clip_sorted_order(clip);
    mf_timeline *out = malloc((size_t)n * sizeof *out);
    if (!idx || !out) { /* out of memory: leave the order as it is */
        free(idx);
        free(out);
        return;
    }
    for (int32_t i = 0; i < n; i++) out[i] = clip->timelines[idx[i]];
    memcpy(clip->timelines, out, (size_t)n * sizeof *out);
    free(out);
    free(idx);
}
