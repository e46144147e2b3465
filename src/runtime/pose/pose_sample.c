/* Sampling a clip into the pose: key search with a per-timeline cursor, pre-sampled curves,
 * Replace / Additive blending by weight, the discrete-timeline rule and bone masks. */
#include <string.h>

#include "../curve_eval.h"
#include "pose_internal.h"
#include "pose_seg.h"
#include "pose_table.h"

/* The last key whose time is <= t (-1 before the first key). Forward playback moves the
 * cursor a few keys at most; anything else is a binary search. */
static inline int32_t find_key(const float *times, int32_t n, int32_t *cursor, double t)
{
    int32_t k = *cursor;
    if ((uint32_t)k >= (uint32_t)n) k = 0;
    if (times[k] <= t) {
        for (int32_t step = 0; step < 4; step++) {
            if (k + 1 >= n || times[k + 1] > t) {
                *cursor = k;
                return k;
            }
            k++;
        }
    }
    if (t < times[0]) {
        *cursor = 0;
        return -1;
    }
    int32_t lo = 0, hi = n - 1; /* times[lo] <= t */
    while (lo < hi) {
        int32_t mid = (lo + hi + 1) >> 1;
        if (times[mid] <= t) lo = mid;
        else hi = mid - 1;
    }
    *cursor = lo;
    return lo;
}

/* The segment position of clip-local t between key k and k + 1 (times of the timeline). */
static inline float seg_u(const float *times, int32_t k, double t)
{
    double t0 = times[k], t1 = times[k + 1];
    return t1 > t0 ? (float)((t - t0) / (t1 - t0)) : 1.0f;
}

/* The segment holding t: k (find_key) and its time range. */
static inline int32_t seg_find(const mf_skel_data *d, const mf_sd_timeline *tl, int32_t *cursor, mf_pose_seg *sg,
                               double t)
{
    int32_t n = tl->key_count;
    const float *times = d->times + tl->key_first;
    int32_t k = find_key(times, n, cursor, t);
    mf_pose_seg_range(sg, times, n, k); /* k >= 0: find_key left it in the cursor */
    return k;
}

/* The next segment of a resolved bone timeline, for the full-weight Replace sample. */
static void seg_next(const mf_skel_data *d, const mf_sd_timeline *tl, int32_t *cursor, mf_pose_seg *sg, double t)
{
    mf_pose_seg_values(d, tl, sg, seg_find(d, tl, cursor, sg, t));
}

/* find_key through the timeline's cached segment (see mf_pose_seg), with the segment position
 * u when 0 <= k < last: the same k and u as find_key and seg_u, without their searches and
 * conversions while the segment holds (most frames). A new segment of a bone, IK, attachment,
 * colour or constraint values timeline is compiled (pose_seg.h). */
static inline int32_t locate(mf_pose *p, const mf_sd_timeline *tl, int32_t *cursor, mf_pose_seg *sg, double t,
                             float *u)
{
    int32_t k, n = tl->key_count;
    if (t >= sg->t0 && t < sg->t1) {
        k = sg->before ? -1 : *cursor;
        if (k >= 0 && k < n - 1) *u = (float)((t - sg->t0) / ((double)sg->t1 - sg->t0)); /* t1 > t0 here; span: curves only */
        return k;
    }
    k = seg_find(p->data, tl, cursor, sg, t);
    if (k >= 0 && k < n - 1) *u = seg_u(p->data->times + tl->key_first, k, t);
    if (mf_pose_seg_compiles(tl->kind)) mf_pose_seg_compile(p, tl, sg, k);
    return k;
}

/* Interpolates the comps values of timeline tl at key k (k < last: towards k + 1). */
static void interp(const mf_skel_data *d, const mf_sd_timeline *tl, int32_t k, double t, float *out,
                   int32_t comps)
{
    const float *v0 = d->values + tl->value_first + (size_t)k * (size_t)tl->value_comps;
    if (k >= tl->key_count - 1) {
        memcpy(out, v0, (size_t)comps * sizeof(float));
        return;
    }
    const float *v1 = v0 + tl->value_comps;
    float u = seg_u(d->times + tl->key_first, k, t);
    const int32_t *codes = d->curves + tl->curve_first + (size_t)k * (size_t)tl->curve_comps;
    /* one curve for all components is evaluated once; per-component curves only when the
     * code changes from the previous component's */
    int32_t last = 0;
    float f = 0.0f;
    for (int32_t c = 0; c < comps; c++) {
        int32_t code = codes[tl->curve_comps == 1 ? 0 : c];
        if (c == 0 || code != last) {
            /* stepped holds the key: u may round up to 1 just before the next key */
            f = mf_curve_at(d, code, u);
            last = code;
        }
        out[c] = v0[c] + (v1[c] - v0[c]) * f;
    }
}

/* interp for the one- and two-component bone kinds, specialised (the hot path) */
static inline float interp1(const mf_skel_data *d, const mf_sd_timeline *tl, int32_t k, float u)
{
    const float *v = d->values + tl->value_first + k;
    if (k >= tl->key_count - 1) return v[0];
    float f = mf_curve_at(d, d->curves[tl->curve_first + k], u);
    return v[0] + (v[1] - v[0]) * f;
}

static inline void interp2(const mf_skel_data *d, const mf_sd_timeline *tl, int32_t k, float u, float out[2])
{
    const float *v = d->values + tl->value_first + 2 * (size_t)k;
    if (k >= tl->key_count - 1) {
        out[0] = v[0], out[1] = v[1];
        return;
    }
    const int32_t *codes = d->curves + tl->curve_first + 2 * (size_t)k;
    float f0 = mf_curve_at(d, codes[0], u);
    float f1 = codes[1] == codes[0] ? f0 : mf_curve_at(d, codes[1], u);
    out[0] = v[0] + (v[2] - v[0]) * f0;
    out[1] = v[1] + (v[3] - v[1]) * f1;
}

static float lerp(float from, float to, float w) { return from + (to - from) * w; }

/* The sequence frame a key's mode, start index and delay give at `elapsed` seconds. */
static int32_t sequence_frame(int32_t mode, int32_t index, float delay, double elapsed, int32_t n)
{
    if (n <= 0) return -1;
    if (mode != 0 && delay > 0) index += (int32_t)floor(elapsed / delay + 0.0001);
    int32_t m = 2 * n - 2; /* a ping-pong period */
    switch (mode) {
    case 1: /* once */
        return index < n - 1 ? index : n - 1;
    case 2: /* loop */
        return index % n;
    case 3: /* ping-pong */
        if (m == 0) return 0;
        index %= m;
        return index >= n ? m - index : index;
    case 4: /* once, reversed */
        return n - 1 - index > 0 ? n - 1 - index : 0;
    case 5: /* loop, reversed */
        return n - 1 - index % n;
    case 6: /* ping-pong, reversed */
        if (m == 0) return 0;
        index = (index + n - 1) % m;
        return index >= n ? m - index : index;
    default: /* hold */
        return index < n ? index : n - 1;
    }
}

float mf_clip_local_time(const mf_skel_data *d, int32_t clip, double time, bool loop)
{
    if (!d || clip < 0 || clip >= d->clip_count) return (float)time;
    return (float)mf_pose_clip_time(d, clip, time, loop);
}

typedef struct sampler {
    mf_pose *p;
    const mf_skel_data *d;
    float w;
    bool add, discrete;
    const uint8_t *mask;
} sampler;

static inline bool bone_in(const sampler *s, int32_t bone) { return !s->mask || s->mask[bone]; }

/* One keyed bone channel: keys are relative to setup, added, except scale which multiplies. */
static inline void bone_apply(const sampler *s, float *f, float set, float v, bool scale)
{
    float target = scale ? set * v : set + v;
    if (s->add) *f += (target - set) * s->w;
    else *f = lerp(*f, target, s->w);
}

/* Before the first key Replace eases back to the setup pose, Additive adds nothing. */
static inline void bone1(const sampler *s, const mf_sd_timeline *tl, int32_t k, float u, float *f, float set,
                         bool scale)
{
    if (k < 0) {
        if (!s->add) *f = lerp(*f, set, s->w);
        return;
    }
    bone_apply(s, f, set, interp1(s->d, tl, k, u), scale);
}

static inline void bone2(const sampler *s, const mf_sd_timeline *tl, int32_t k, float u, float *f0, float *f1,
                         float set0, float set1, bool scale)
{
    if (k < 0) {
        if (!s->add) *f0 = lerp(*f0, set0, s->w), *f1 = lerp(*f1, set1, s->w);
        return;
    }
    float v[2];
    interp2(s->d, tl, k, u, v);
    bone_apply(s, f0, set0, v[0], scale);
    bone_apply(s, f1, set1, v[1], scale);
}

static inline void bone_timeline(const sampler *s, const mf_sd_timeline *tl, int32_t k, float u)
{
    mf_pose *p = s->p;
    int32_t i = tl->target;
    if (!bone_in(s, i)) return;
    const mf_sd_bone *b = &s->d->bones[i];
    switch (tl->kind) {
    case MF_SD_TL_ROTATE: bone1(s, tl, k, u, &p->rot[i], b->rot, false); break;
    case MF_SD_TL_TRANSLATE: bone2(s, tl, k, u, &p->x[i], &p->y[i], b->x, b->y, false); break;
    case MF_SD_TL_TRANSLATE_X: bone1(s, tl, k, u, &p->x[i], b->x, false); break;
    case MF_SD_TL_TRANSLATE_Y: bone1(s, tl, k, u, &p->y[i], b->y, false); break;
    case MF_SD_TL_SCALE: bone2(s, tl, k, u, &p->sx[i], &p->sy[i], b->sx, b->sy, true); break;
    case MF_SD_TL_SCALE_X: bone1(s, tl, k, u, &p->sx[i], b->sx, true); break;
    case MF_SD_TL_SCALE_Y: bone1(s, tl, k, u, &p->sy[i], b->sy, true); break;
    case MF_SD_TL_SHEAR: bone2(s, tl, k, u, &p->shx[i], &p->shy[i], b->shx, b->shy, false); break;
    case MF_SD_TL_SHEAR_X: bone1(s, tl, k, u, &p->shx[i], b->shx, false); break;
    case MF_SD_TL_SHEAR_Y: bone1(s, tl, k, u, &p->shy[i], b->shy, false); break;
    default: /* inherit */
        if (s->discrete && k >= 0) p->inherit[i] = (uint8_t)s->d->ints[tl->int_first + k];
        else if (s->discrete && !s->add) p->inherit[i] = b->inherit;
        break;
    }
}

static void slot_colour(sampler *s, const mf_sd_timeline *tl, int32_t k, double t)
{
    mf_pose *p = s->p;
    int32_t i = tl->target;
    if (!bone_in(s, s->d->slots[i].bone)) return;
    float v[7], setup[7];
    uint32_t c = s->d->slots[i].color, dk = s->d->slots[i].dark;
    for (int32_t j = 0; j < 4; j++) setup[j] = mf_unit_byte[(c >> (24 - 8 * j)) & 255u];
    for (int32_t j = 0; j < 3; j++) setup[4 + j] = mf_unit_byte[(dk >> (24 - 8 * j)) & 255u];
    int32_t first = tl->kind == MF_SD_TL_ALPHA ? 3 : 0;
    int32_t comps = tl->value_comps;
    if (k < 0) memcpy(v, setup + first, (size_t)comps * sizeof(float));
    else interp(s->d, tl, k, t, v, comps);
    float was[7];
    mf_pose_colours_keep(p, i, was);
    for (int32_t j = 0; j < comps; j++) {
        int32_t ch = first + j;
        float *dst = ch < 4 ? &p->color[4 * i + ch] : &p->dark[3 * i + ch - 4];
        *dst = lerp(*dst, v[j], s->w);
    }
    mf_pose_colours_moved(p, i, was);
}

static void slot_deform(sampler *s, const mf_sd_timeline *tl, int32_t k, double t)
{
    mf_pose *p = s->p;
    int32_t slot = tl->target, cur = p->attachment[slot];
    if (!bone_in(s, s->d->slots[slot].bone) || cur < 0) return;
    if (s->d->attachments[cur].deform_source != tl->attachment) return;
    int32_t n = tl->value_comps;
    float *dst = p->deform + p->deform_first[slot];
    bool had = p->deform_attachment[slot] == cur;
    if (k < 0) {
        if (s->add || !had) return;
        if (s->w >= 1) p->deform_attachment[slot] = -1;
        else
            for (int32_t j = 0; j < n; j++) dst[j] -= dst[j] * s->w;
        return;
    }
    if (!had) memset(dst, 0, (size_t)n * sizeof(float));
    p->deform_attachment[slot] = cur;
    const float *v0 = s->d->values + tl->value_first + (size_t)k * (size_t)n;
    float f = 0;
    const float *v1 = v0;
    if (k < tl->key_count - 1) {
        float u = seg_u(s->d->times + tl->key_first, k, t);
        f = mf_curve_at(s->d, s->d->curves[tl->curve_first + k * tl->curve_comps], u);
        v1 = v0 + n;
    }
    for (int32_t j = 0; j < n; j++) {
        float v = v0[j] + (v1[j] - v0[j]) * f;
        if (s->add) dst[j] += v * s->w;
        else dst[j] = lerp(dst[j], v, s->w);
    }
}

static void slot_sequence(sampler *s, const mf_sd_timeline *tl, int32_t k, double t)
{
    mf_pose *p = s->p;
    int32_t slot = tl->target, cur = p->attachment[slot];
    if (!s->discrete || !bone_in(s, s->d->slots[slot].bone) || cur < 0) return;
    const mf_sd_attachment *at = &s->d->attachments[cur];
    if (at->seq_count <= 0) return;
    int32_t frame = -1;
    if (k < 0) {
        if (s->add) return;
    } else {
        const int32_t *iv = s->d->ints + tl->int_first + (size_t)k * 2;
        float delay = s->d->values[tl->value_first + k];
        double elapsed = t - s->d->times[tl->key_first + k];
        frame = sequence_frame(iv[0], iv[1], delay, elapsed, at->seq_count);
    }
    if (p->seq_index[slot] != frame) mf_pose_slots_touched(p), p->seq_index[slot] = frame;
}

static void constraint_timeline(sampler *s, const mf_sd_timeline *tl, int32_t k, double t)
{
    mf_pose *p = s->p;
    const mf_skel_data *d = s->d;
    int32_t i = tl->target;
    float v[6], setup[6];
    float *dst[6];
    int32_t n = tl->value_comps;
    switch (tl->kind) {
    case MF_SD_TL_IK:
        dst[0] = &p->ik_mix[i], dst[1] = &p->ik_softness[i];
        setup[0] = d->ik[i].mix, setup[1] = d->ik[i].softness;
        if (s->discrete) {
            if (k >= 0) {
                const int32_t *iv = d->ints + tl->int_first + (size_t)k * 3;
                p->ik_bend[i] = (int8_t)iv[0], p->ik_compress[i] = iv[1] != 0, p->ik_stretch[i] = iv[2] != 0;
            } else if (!s->add) {
                p->ik_bend[i] = d->ik[i].bend, p->ik_compress[i] = d->ik[i].compress;
                p->ik_stretch[i] = d->ik[i].stretch;
            }
        }
        break;
    case MF_SD_TL_TRANSFORM: {
        const mf_sd_transform *c = &d->transform[i];
        for (int32_t j = 0; j < 6; j++) dst[j] = &p->tf_mix[6 * i + j];
        setup[0] = c->mix_rotate, setup[1] = c->mix_x, setup[2] = c->mix_y;
        setup[3] = c->mix_scale_x, setup[4] = c->mix_scale_y, setup[5] = c->mix_shear_y;
        break;
    }
    case MF_SD_TL_PATH_POSITION:
        dst[0] = &p->path_position[i], setup[0] = d->path[i].position;
        break;
    case MF_SD_TL_PATH_SPACING:
        dst[0] = &p->path_spacing[i], setup[0] = d->path[i].spacing;
        break;
    default: /* path mix */
        for (int32_t j = 0; j < 3; j++) dst[j] = &p->path_mix[3 * i + j];
        setup[0] = d->path[i].mix_rotate, setup[1] = d->path[i].mix_x, setup[2] = d->path[i].mix_y;
        break;
    }
    if (k < 0) memcpy(v, setup, (size_t)n * sizeof(float));
    else interp(d, tl, k, t, v, n);
    for (int32_t j = 0; j < n; j++) *dst[j] = lerp(*dst[j], v[j], s->w);
}

/* Physics settings and reset keys (pose_physics.c), with the sample's local time window. */
static void physics_timeline(mf_pose *p, const mf_clip_sample *cs, const mf_sd_timeline *tl,
                             int32_t k, double t, float w)
{
    const mf_skel_data *d = p->data;
    double prev = -1, len = d->clips[cs->clip].length;
    bool wrapped = false;
    if (cs->prev_time >= 0 && cs->prev_time <= cs->time) {
        prev = mf_pose_clip_time(d, cs->clip, cs->prev_time, cs->loop);
        if (cs->loop && len > 0) wrapped = floor(cs->prev_time / len) != floor(cs->time / len);
    } else if (cs->prev_time > cs->time) {
        prev = t; /* backwards: no reset key fires */
    }
    mf_pose_physics_timeline(p, tl, k, cs->time, prev, t, wrapped, w);
}

/* One timeline of a sample by the general rules (any weight, blend and mask). In the
 * full-weight Replace sample (direct) a timeline whose segment compiles is left to the
 * caller's mf_pose_seg_write: true then. */
static bool sample_timeline(sampler *s, const mf_clip_sample *cs, const mf_sd_timeline *tl, int32_t *cursor,
                            mf_pose_seg *sg, double t, bool direct)
{
    mf_pose *p = s->p;
    const mf_skel_data *d = s->d;
    if (tl->kind == MF_SD_TL_EVENT) return false;
    float u = 0.0f;
    int32_t k = locate(p, tl, cursor, sg, t, &u);
    if (direct && sg->how != MF_SEG_NONE) return true;
    if (tl->kind <= MF_SD_TL_INHERIT) {
        bone_timeline(s, tl, k, u);
        return false;
    }
    if (tl->kind >= MF_SD_TL_PHYSICS_INERTIA && tl->kind <= MF_SD_TL_PHYSICS_RESET) {
        physics_timeline(p, cs, tl, k, t, s->w);
        return false;
    }
    switch (tl->kind) {
    case MF_SD_TL_ATTACHMENT: {
        int32_t slot = tl->target;
        if (!s->discrete || !bone_in(s, d->slots[slot].bone)) break;
        if (k < 0 && s->add) break;
        int32_t name = k < 0 ? d->slots[slot].attachment : d->ints[tl->int_first + k];
        mf_pose_set_attachment(p, slot, mf_pose_find_attachment(p, slot, name));
        break;
    }
    case MF_SD_TL_RGBA: case MF_SD_TL_RGB: case MF_SD_TL_ALPHA: case MF_SD_TL_RGBA2:
        slot_colour(s, tl, k, t);
        break;
    case MF_SD_TL_SEQUENCE:
        slot_sequence(s, tl, k, t);
        break;
    case MF_SD_TL_IK: case MF_SD_TL_TRANSFORM: case MF_SD_TL_PATH_POSITION:
    case MF_SD_TL_PATH_SPACING: case MF_SD_TL_PATH_MIX:
        constraint_timeline(s, tl, k, t);
        break;
    case MF_SD_TL_DEFORM:
        slot_deform(s, tl, k, t);
        break;
    case MF_SD_TL_DRAW_ORDER:
        if (!s->discrete || (k < 0 && s->add)) break;
        if (k < 0) {
            mf_pose_draw_order_setup(p);
        } else {
            const int32_t *order = d->ints + tl->int_first + (size_t)k * (size_t)d->slot_count;
            size_t bytes = (size_t)d->slot_count * sizeof(int32_t);
            if (memcmp(p->draw_order, order, bytes)) mf_pose_slots_touched(p), memcpy(p->draw_order, order, bytes);
        }
        break;
    default:
        break;
    }
    return false;
}

/* A clip's first sample by this pose: its key segments zeroed (none matches, mf_pose_seg). */
static __attribute__((noinline, cold)) void segs_clear(mf_pose *p, int32_t c)
{
    const mf_sd_clip *clip = &p->data->clips[c];
    memset(p->scratch->seg + clip->timeline_first, 0, (size_t)clip->timeline_count * sizeof(mf_pose_seg));
    p->scratch->seg_ready[c] = 1;
}

/* The entry of a shared table's timeline i (span sp) holding t (tf: t rounded down to a float),
 * as its byte offset ((k + 1) * the entry size), from the entry the pose was at (off: any
 * value), when neither that one nor the next holds t (the loop tried them: pose_table.h): after
 * a loop's wrap most often key 0's (find_key's answer when t lies in its range; an empty range,
 * of keys at one time, never matches), else find_key through a cursor of its own (the pose's
 * stays the general path's, whose segment it keys: locate; out of range starts from key 0). */
/* MF_NOIPA: with GCC its parameters not split either (the loop would keep the span's fields it
 * loads live) */
MF_NOIPA uint32_t mf_pose_table_find(const mf_skel_data *d, int32_t i, const mf_seg_span *sp, uint32_t off, float tf,
                                     double t)
{
    if (sp->end > sizeof(mf_pose_seg)) { /* a loop's wrap: most often key 0's entry (the second) */
        const mf_pose_seg *e = sp->seg + 1;
        if (tf >= e->t0 && tf < e->t1) return (uint32_t)sizeof(mf_pose_seg);
    }
    const mf_sd_timeline *tl = &d->timelines[i];
    int32_t cursor = (int32_t)(off / sizeof(mf_pose_seg)) - 1;
    int32_t k = find_key(d->times + tl->key_first, tl->key_count, &cursor, t);
    return (uint32_t)((size_t)(k + 1) * sizeof(mf_pose_seg));
}

/* A timeline of a table sample that the table does not compile (or not at this key): the
 * general path with the pose's own segment (i: the timeline's index in the data), the clip's
 * segments cleared first if this pose has not yet (a table sample needs them only here), by
 * the full-weight Replace sampler (weight 1, no mask). Apart: the table loop keeps only its
 * own indices live. */
__attribute__((noinline)) void mf_pose_table_general(mf_pose *p, const mf_clip_sample *cs, bool discrete, int32_t i,
                                                     double t)
{
    sampler s = {p, p->data, 1.0f, false, discrete, NULL};
    mf_pose_seg_out o = {p, p->x, p->y, discrete};
    if (__builtin_expect(!p->scratch->seg_ready[cs->clip], 0)) segs_clear(p, cs->clip);
    mf_pose_seg *sg = &p->scratch->seg[i];
    if (sample_timeline(&s, cs, &s.d->timelines[i], &p->cursor[i], sg, t, true)) mf_pose_seg_write(&o, sg, t);
}

/* mf_pose_sample without the AVX2 path (which asks it for the samples it does not take) */
mf_result mf_pose_sample_base(mf_pose *p, const mf_clip_sample *cs)
{
    if (mf_pose_sample_bad(p, cs)) return MF_ERR_ARGUMENT;
    const mf_skel_data *d = p->data;
    const mf_sd_clip *clip = &d->clips[cs->clip];
    float thr = cs->discrete_threshold > 0 ? cs->discrete_threshold : 0.5f;
    sampler s = {p, d, cs->weight, cs->blend == MF_CLIP_ADDITIVE, cs->weight >= thr, cs->bone_mask};
    if (!(s.w > 0)) return MF_OK;
    double t = mf_pose_clip_time(d, cs->clip, cs->time, cs->loop);
    const mf_sd_timeline *tls = d->timelines + clip->timeline_first;
    int32_t *cursors = p->cursor + clip->timeline_first;
    mf_pose_seg *segs = p->scratch->seg + clip->timeline_first;
    const float *tw = cs->timeline_weights;
    int32_t n = clip->timeline_count;
    if (s.w == 1.0f && !s.add && !s.mask && !tw) {
        if (cs->segs) {
            mf_pose_table_loop(p, cs, t, s.discrete); /* clears the pose's segments when it needs them */
            return MF_OK;
        }
        if (__builtin_expect(!p->scratch->seg_ready[cs->clip], 0)) segs_clear(p, cs->clip);
        /* full weight, Replace, unmasked (most samples): a segment compiled before and still
         * holding writes the pose without the timeline */
        mf_pose_seg_out o = {p, p->x, p->y, s.discrete};
        float tf = mf_pose_seg_floor(t);
        for (mf_pose_seg *sg = segs, *end = segs + n; sg < end; sg++) {
            if (!(tf >= sg->t0 && tf < sg->t1)) { /* a new segment */
                size_t j = (size_t)(sg - segs);
                if (sg->comps) seg_next(d, &tls[j], &cursors[j], sg, t);
                else if (!sample_timeline(&s, cs, &tls[j], &cursors[j], sg, t, true)) continue;
            }
            if (!mf_pose_seg_write(&o, sg, t)) { /* not compiled: the general path */
                size_t j = (size_t)(sg - segs);
                sample_timeline(&s, cs, &tls[j], &cursors[j], sg, t, true);
            }
        }
        return MF_OK;
    }
    if (__builtin_expect(!p->scratch->seg_ready[cs->clip], 0)) segs_clear(p, cs->clip);
    for (int32_t j = 0; j < n; j++) {
        if (tw) {
            s.w = tw[j];
            if (!(s.w > 0)) continue;
        }
        sample_timeline(&s, cs, &tls[j], &cursors[j], &segs[j], t, false);
    }
    return MF_OK;
}

mf_result mf_pose_sample(mf_pose *p, const mf_clip_sample *cs)
{
#if MF_TABLE_AVX2
    if (p && cs && cs->segs && p->scratch->trig_avx2) return mf_pose_sample_avx2(p, cs);
#endif
    return mf_pose_sample_base(p, cs);
}
