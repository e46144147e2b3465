/* Sampling a clip into the pose: key search with a per-timeline cursor, pre-sampled curves,
 * Replace / Additive blending by weight, the discrete-timeline rule and bone masks. */
#include <string.h>

#include "pose_internal.h"

/* The last key whose time is <= t (-1 before the first key). Forward playback moves the
 * cursor a few keys at most; anything else is a binary search. */
static int32_t find_key(const float *times, int32_t n, int32_t *cursor, double t)
{
    int32_t k = *cursor;
    if (k < 0 || k >= n) k = 0;
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
    double t0 = d->times[tl->key_first + k], t1 = d->times[tl->key_first + k + 1];
    float u = t1 > t0 ? (float)((t - t0) / (t1 - t0)) : 1.0f;
    const int32_t *codes = d->curves + tl->curve_first + (size_t)k * (size_t)tl->curve_comps;
    /* one curve for all components is evaluated once; per-component curves only when the
     * code changes from the previous component's */
    int32_t last = 0;
    float f = 0.0f;
    for (int32_t c = 0; c < comps; c++) {
        int32_t code = codes[tl->curve_comps == 1 ? 0 : c];
        if (c == 0 || code != last) {
            /* stepped holds the key: u may round up to 1 just before the next key */
            f = code == MF_SD_CURVE_STEPPED ? 0.0f : mf_skel_data_curve(d, code, u);
            last = code;
        }
        out[c] = v0[c] + (v1[c] - v0[c]) * f;
    }
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

static double local_time(const mf_skel_data *d, int32_t clip, double time, bool loop)
{
    double len = d->clips[clip].length;
    if (loop && len > 0) {
        double r = fmod(time, len);
        return r < 0 ? r + len : r;
    }
    return time;
}

float mf_clip_local_time(const mf_skel_data *d, int32_t clip, double time, bool loop)
{
    if (!d || clip < 0 || clip >= d->clip_count) return (float)time;
    return (float)local_time(d, clip, time, loop);
}

typedef struct sampler {
    mf_pose *p;
    const mf_skel_data *d;
    float w;
    bool add, discrete;
    const uint8_t *mask;
} sampler;

static bool bone_in(const sampler *s, int32_t bone) { return !s->mask || s->mask[bone]; }

static void bone_timeline(sampler *s, const mf_sd_timeline *tl, int32_t k, double t)
{
    mf_pose *p = s->p;
    int32_t i = tl->target;
    const mf_sd_bone *b = &s->d->bones[i];
    if (!bone_in(s, i)) return;
    if (tl->kind == MF_SD_TL_INHERIT) {
        if (s->discrete && k >= 0) p->inherit[i] = (uint8_t)s->d->ints[tl->int_first + k];
        else if (s->discrete && !s->add) p->inherit[i] = b->inherit;
        return;
    }
    float v[2] = {0, 0};
    float *f0, *f1 = NULL, set0, set1 = 0;
    bool scale = false;
    int32_t comps = 1;
    switch (tl->kind) {
    case MF_SD_TL_ROTATE: f0 = &p->rot[i], set0 = b->rot; break;
    case MF_SD_TL_TRANSLATE: f0 = &p->x[i], f1 = &p->y[i], set0 = b->x, set1 = b->y, comps = 2; break;
    case MF_SD_TL_TRANSLATE_X: f0 = &p->x[i], set0 = b->x; break;
    case MF_SD_TL_TRANSLATE_Y: f0 = &p->y[i], set0 = b->y; break;
    case MF_SD_TL_SCALE: f0 = &p->sx[i], f1 = &p->sy[i], set0 = b->sx, set1 = b->sy, comps = 2, scale = true; break;
    case MF_SD_TL_SCALE_X: f0 = &p->sx[i], set0 = b->sx, scale = true; break;
    case MF_SD_TL_SCALE_Y: f0 = &p->sy[i], set0 = b->sy, scale = true; break;
    case MF_SD_TL_SHEAR: f0 = &p->shx[i], f1 = &p->shy[i], set0 = b->shx, set1 = b->shy, comps = 2; break;
    case MF_SD_TL_SHEAR_X: f0 = &p->shx[i], set0 = b->shx; break;
    default: f0 = &p->shy[i], set0 = b->shy; break;
    }
    if (k < 0) { /* before the first key: Replace eases back to the setup pose */
        if (!s->add) {
            *f0 = lerp(*f0, set0, s->w);
            if (f1) *f1 = lerp(*f1, set1, s->w);
        }
        return;
    }
    interp(s->d, tl, k, t, v, comps);
    float *f[2] = {f0, f1};
    float set[2] = {set0, set1};
    for (int32_t c = 0; c < comps; c++) {
        /* keys are relative to setup: added, except scale which multiplies */
        float target = scale ? set[c] * v[c] : set[c] + v[c];
        if (s->add) *f[c] += (target - set[c]) * s->w;
        else *f[c] = lerp(*f[c], target, s->w);
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
    for (int32_t j = 0; j < comps; j++) {
        int32_t ch = first + j;
        float *dst = ch < 4 ? &p->color[4 * i + ch] : &p->dark[3 * i + ch - 4];
        *dst = lerp(*dst, v[j], s->w);
    }
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
        double t0 = s->d->times[tl->key_first + k], t1 = s->d->times[tl->key_first + k + 1];
        float u = t1 > t0 ? (float)((t - t0) / (t1 - t0)) : 1.0f;
        int32_t code = s->d->curves[tl->curve_first + k * tl->curve_comps];
        f = code == MF_SD_CURVE_STEPPED ? 0.0f : mf_skel_data_curve(s->d, code, u);
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
    if (k < 0) {
        if (!s->add) p->seq_index[slot] = -1;
        return;
    }
    const int32_t *iv = s->d->ints + tl->int_first + (size_t)k * 2;
    float delay = s->d->values[tl->value_first + k];
    double elapsed = t - s->d->times[tl->key_first + k];
    p->seq_index[slot] = sequence_frame(iv[0], iv[1], delay, elapsed, at->seq_count);
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
        prev = local_time(d, cs->clip, cs->prev_time, cs->loop);
        if (cs->loop && len > 0) wrapped = floor(cs->prev_time / len) != floor(cs->time / len);
    } else if (cs->prev_time > cs->time) {
        prev = t; /* backwards: no reset key fires */
    }
    mf_pose_physics_timeline(p, tl, k, cs->time, prev, t, wrapped, w);
}

mf_result mf_pose_sample(mf_pose *p, const mf_clip_sample *cs)
{
    if (!p || !cs || cs->clip < 0 || cs->clip >= p->data->clip_count || cs->time != cs->time)
        return MF_ERR_ARGUMENT;
    const mf_skel_data *d = p->data;
    const mf_sd_clip *clip = &d->clips[cs->clip];
    float thr = cs->discrete_threshold > 0 ? cs->discrete_threshold : 0.5f;
    sampler s = {p, d, cs->weight, cs->blend == MF_CLIP_ADDITIVE, cs->weight >= thr, cs->bone_mask};
    if (!(s.w > 0)) return MF_OK;
    double t = local_time(d, cs->clip, cs->time, cs->loop);
    for (int32_t j = 0; j < clip->timeline_count; j++) {
        int32_t ti = clip->timeline_first + j;
        const mf_sd_timeline *tl = &d->timelines[ti];
        if (tl->kind == MF_SD_TL_EVENT) continue;
        if (cs->timeline_weights) {
            s.w = cs->timeline_weights[j];
            if (!(s.w > 0)) continue;
        }
        int32_t k = find_key(d->times + tl->key_first, tl->key_count, &p->cursor[ti], t);
        if (tl->kind >= MF_SD_TL_PHYSICS_INERTIA && tl->kind <= MF_SD_TL_PHYSICS_RESET) {
            physics_timeline(p, cs, tl, k, t, s.w);
            continue;
        }
        switch (tl->kind) {
        case MF_SD_TL_ATTACHMENT: {
            int32_t slot = tl->target;
            if (!s.discrete || !bone_in(&s, d->slots[slot].bone)) break;
            if (k < 0 && s.add) break;
            int32_t name = k < 0 ? d->slots[slot].attachment : d->ints[tl->int_first + k];
            mf_pose_set_attachment(p, slot, mf_pose_find_attachment(p, slot, name));
            break;
        }
        case MF_SD_TL_RGBA: case MF_SD_TL_RGB: case MF_SD_TL_ALPHA: case MF_SD_TL_RGBA2:
            slot_colour(&s, tl, k, t);
            break;
        case MF_SD_TL_SEQUENCE:
            slot_sequence(&s, tl, k, t);
            break;
        case MF_SD_TL_IK: case MF_SD_TL_TRANSFORM: case MF_SD_TL_PATH_POSITION:
        case MF_SD_TL_PATH_SPACING: case MF_SD_TL_PATH_MIX:
            constraint_timeline(&s, tl, k, t);
            break;
        case MF_SD_TL_DEFORM:
            slot_deform(&s, tl, k, t);
            break;
        case MF_SD_TL_DRAW_ORDER:
            if (!s.discrete || (k < 0 && s.add)) break;
            if (k < 0)
                for (int32_t i = 0; i < d->slot_count; i++) p->draw_order[i] = i;
            else
                memcpy(p->draw_order, d->ints + tl->int_first + (size_t)k * (size_t)d->slot_count,
                       (size_t)d->slot_count * sizeof(int32_t));
            break;
        default:
            if (tl->kind <= MF_SD_TL_INHERIT) bone_timeline(&s, tl, k, t);
            break;
        }
    }
    return MF_OK;
}
