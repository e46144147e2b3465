/* Compiled key segments (mf_pose_seg, pose_internal.h) for the full-weight Replace sample, one
 * track at alpha 1 without a mask (what most instances run): a new segment of a bone, IK,
 * attachment, colour or constraint values timeline is compiled once (the pose channels it
 * writes, setup values, key values and changes, beziers; held segments: the final values), then
 * each frame writes the channels from the segment alone, with the arithmetic the blending path
 * (pose_sample.c) uses at weight 1 less its lerp (the values segments keep the lerp, which at
 * weight 1 need not give the value itself). Not public. */
#ifndef MF_POSE_SEG_H
#define MF_POSE_SEG_H

#include <string.h>

#include "../curve_eval.h"
#include "pose_internal.h"

/* (a power of two too: a pose's offset into a shared table is masked to a whole entry) */
_Static_assert(sizeof(mf_pose_seg) == 64, "a pose touches one segment per timeline a frame: keep it small");

/* Whether the sampler compiles a timeline of this kind (the others always take the general
 * path with their timeline). */
static inline bool mf_pose_seg_compiles(int32_t kind)
{
    return kind != MF_SD_TL_INHERIT && kind < MF_SD_TL_PHYSICS_INERTIA && kind != MF_SD_TL_SEQUENCE;
}

/* Segment k's key range of a timeline's n key times (k = -1: before the first key). */
static inline void mf_pose_seg_range(mf_pose_seg *sg, const float *times, int32_t n, int32_t k)
{
    sg->before = k < 0;
    sg->t0 = k >= 0 ? times[k] : -INFINITY;
    sg->t1 = k < n - 1 ? times[k + 1] : INFINITY;
}

/* Compiles segment k (find_key's; t0 and t1 already set) of timeline tl of the pose's data:
 * sg->how stays MF_SEG_NONE for the kinds it does not compile. */
void mf_pose_seg_compile(mf_pose *pose, const mf_sd_timeline *tl, mf_pose_seg *sg, int32_t k);
/* mf_pose_seg_write for the IK, attachment and values segments (prep: a shared table's entry,
 * its curves prepared). */
void mf_pose_seg_write_rare(mf_pose *pose, const mf_pose_seg *sg, double t, bool discrete, bool prep);

/* A bone channel's value at full weight: keys are relative to setup, added, except scale which
 * multiplies (bone_apply's target). */
static inline float mf_pose_bone_target(float set, float v, bool scale) { return scale ? set * v : set + v; }

/* The n components of inner segment k (v: key k's values, key k + 1's after them): start,
 * change and curve. True when every component is stepped (held). */
static inline bool mf_pose_seg_keys(const mf_skel_data *d, const mf_sd_timeline *tl, mf_pose_seg *sg, int32_t k,
                                    const float *v, int32_t n)
{
    const int32_t *codes = d->curves + tl->curve_first + (size_t)k * (size_t)tl->curve_comps;
    bool held = true;
    for (int32_t c = 0; c < n; c++) {
        int32_t code = codes[tl->curve_comps == 1 ? 0 : c];
        sg->v0[c] = v[c];
        sg->dv[c] = v[n + c] - v[c];
        sg->bz[c] = code >= 0 ? &d->beziers[code] : NULL;
        /* stepped: v0 + (dv * 0) whatever u, which linear with dv * 0 gives bit for bit */
        if (code == MF_SD_CURVE_STEPPED) sg->dv[c] *= 0.0f;
        else held = false;
    }
    return held;
}

/* Segment k of a resolved bone timeline (sg->ready): held values (before the first key: setup;
 * from the last key: the key; stepped: key k) are computed once, the others keep what the curve
 * needs. The same arithmetic as pose_sample.c's interp1/2 and bone_apply's target. Inline: the
 * sampler's loop compiles the next segment of a timeline keyed every frame or two. */
static inline void mf_pose_seg_values(const mf_skel_data *d, const mf_sd_timeline *tl, mf_pose_seg *sg, int32_t k)
{
    int32_t n = sg->comps;
    bool last = k >= tl->key_count - 1, held = true, scale = sg->scale;
    const float *v = k >= 0 ? d->values + tl->value_first + (size_t)k * (size_t)n : NULL;
    if (n == 1 && !scale && k >= 0 && !last) { /* the most common segment, straight */
        int32_t code = d->curves[tl->curve_first + (size_t)k * (size_t)tl->curve_comps];
        if (code != MF_SD_CURVE_STEPPED) {
            sg->v0[0] = v[0], sg->dv[0] = v[1] - v[0];
            sg->bz[0] = code >= 0 ? &d->beziers[code] : NULL;
            sg->span = (double)sg->t1 - sg->t0;
            sg->how = MF_SEG_CURVE1;
            return;
        }
    }
    if (k >= 0 && !last) held = mf_pose_seg_keys(d, tl, sg, k, v, n);
    if (held) {
        float hold[2] = {0.0f, 0.0f};
        for (int32_t c = 0; c < n; c++) {
            float val = k < 0 ? 0.0f : last ? v[c] : sg->v0[c] + sg->dv[c];
            hold[c] = k < 0 ? sg->set[c] : mf_pose_bone_target(sg->set[c], val, scale);
        }
        sg->v0[0] = hold[0], sg->v0[1] = hold[n - 1];
        sg->how = MF_SEG_HOLD;
        return;
    }
    sg->span = (double)sg->t1 - sg->t0;
    sg->how = (uint8_t)(scale ? (n == 1 ? MF_SEG_SCALE1 : MF_SEG_SCALE2) : (n == 1 ? MF_SEG_CURVE1 : MF_SEG_CURVE2));
}

/* A compiled curve at u (mf_curve_at without the code's decoding). */
MF_CURVE_INLINE float mf_pose_seg_curve(const mf_sd_bezier *bz, float u)
{
    if (!(u > 0.0f)) return 0.0f;
    if (u >= 1.0f) return 1.0f;
    return bz ? mf_bezier_at(bz, u) : u;
}

/* mf_pose_seg_curve through a prepared bezier (NULL: linear) at any u, 0 < u < 1 told by one
 * compare of u's bits (positive floats order as their bits; -0, negatives and NaN fall
 * outside). The table's entries take mf_pose_seg_tcurve; tests check both. */
MF_CURVE_INLINE float mf_pose_seg_pcurve(const mf_bz_prep *q, float u)
{
    uint32_t bits;
    memcpy(&bits, &u, sizeof bits);
    if (__builtin_expect(bits - 1u >= 0x3f7fffffu, 0)) return u > 0.0f ? 1.0f : 0.0f;
    return q ? mf_bz_prep_at(q, u) : u;
}

/* mf_pose_seg_pcurve for 0 <= u <= 1, what a table entry's u is (t0 <= t < t1 and the span
 * t1 - t0 in double: t - t0 from +0 up to at most the span, rounding keeping the order): linear
 * is u itself (+0 and 1 are what the clamps give), a bezier's first piece gives +0 at u = 0;
 * only u = 1 needs its clamp, which the AVX2 search's tenth sample gives (MF_BZ_PREP_ONE). */
MF_CURVE_INLINE float mf_pose_seg_tcurve(const mf_bz_prep *q, float u)
{
    if (!q) return u;
    if (!MF_BZ_PREP_ONE && __builtin_expect(u >= 1.0f, 0)) return 1.0f;
    return mf_bz_prep_at(q, u);
}

/* Channel c's curve of a segment at u, a pose's own or (prep) a shared table's, whose t lies
 * in the entry's range. */
MF_CURVE_INLINE float mf_pose_seg_at(const mf_pose_seg *sg, int c, float u, bool prep)
{
    return prep ? mf_pose_seg_tcurve(sg->pz[c], u) : mf_pose_seg_curve(sg->bz[c], u);
}

/* Whether a two-channel segment's second curve is its first's. */
MF_CURVE_INLINE bool mf_pose_seg_same(const mf_pose_seg *sg, bool prep)
{
    return prep ? sg->pz[1] == sg->pz[0] : sg->bz[1] == sg->bz[0];
}

/* The position in a compiled curve segment (t0 <= t < t1), as seg_u has it. */
MF_CURVE_INLINE float mf_pose_seg_u(const mf_pose_seg *sg, double t)
{
#if MF_CURVE_SSE2 && defined(__AVX__)
    /* t0 widened with t's register as the upper lane's source (GCC zeroes a register for it
     * first: one instruction more); exact either way */
    double t0;
    __asm__("vcvtss2sd %2, %1, %0" : "=x"(t0) : "x"(t), "m"(sg->t0));
    return (float)((t - t0) / sg->span);
#else
    return (float)((t - sg->t0) / sg->span);
#endif
}

/* t rounded down to a float: against float key times tf >= t0 and tf < t1 exactly when t >= t0
 * and t < t1 (rounding down keeps both orders with floats), without widening the times. */
static inline float mf_pose_seg_floor(double t)
{
    float tf = (float)t;
    if (!((double)tf > t)) return tf;
    /* nextafterf(tf, -inf) (t is not NaN, tf not -inf): a positive float's bits less one, a
     * negative's plus one, the smallest negative below a zero */
    uint32_t b;
    memcpy(&b, &tf, sizeof b);
    b = tf > 0.0f ? b - 1u : tf < 0.0f ? b + 1u : 0x80000001u;
    memcpy(&tf, &b, sizeof tf);
    return tf;
}

/* What the writes of a sample share, loaded once: the pose and its x and y channels (the bases
 * of mf_pose_seg.dst). */
typedef struct mf_pose_seg_out {
    mf_pose *p;
    float *x, *y;
    bool discrete; /* the sample sets discrete values (attachments, IK bend and flags) */
} mf_pose_seg_out;

_Static_assert(MF_SEG_ATTACH + 1 == MF_SEG_IK_HOLD && MF_SEG_IK_HOLD + 1 == MF_SEG_IK && MF_SEG_IK + 1 == MF_SEG_VALUES,
               "mf_pose_seg_write_as tells the rare kinds by order");

/* A compiled segment at full weight, Replace, unmasked (what most samples are): the channels'
 * values straight from the segment, as bone1/bone2 give them at weight 1 without the blend;
 * an attachment key as the general path sets it. False: not compiled, nothing written. prep
 * (a constant): a shared table's entry. */
MF_CURVE_INLINE bool mf_pose_seg_write_as(const mf_pose_seg_out *o, const mf_pose_seg *sg, double t, bool prep)
{
    uint8_t how = sg->how;
    int32_t dst = sg->dst;
    if (__builtin_expect(how == MF_SEG_CURVE1, 1)) { /* (expected: it falls into the loop's end) */
        float u = prep ? (float)((t - sg->t0d) / sg->span) : mf_pose_seg_u(sg, t); /* the same u */
        float f = mf_pose_seg_at(sg, 0, u, prep);
#if defined(__GNUC__)
        /* (GCC would load the values before the curve's branch, into registers of their own:
         * opaque here, they stay memory operands after it) */
        if (prep) __asm__("" : "+r"(sg));
#endif
        o->x[dst] = sg->set[0] + (sg->v0[0] + sg->dv[0] * f);
    } else if (how == MF_SEG_CURVE2) { /* before hold: more often between keys than held */
        float u = mf_pose_seg_u(sg, t);
        float f = mf_pose_seg_at(sg, 0, u, prep);
        o->x[dst] = sg->set[0] + (sg->v0[0] + sg->dv[0] * f);
        if (!mf_pose_seg_same(sg, prep)) f = mf_pose_seg_at(sg, 1, u, prep);
        o->y[dst] = sg->set[1] + (sg->v0[1] + sg->dv[1] * f);
    } else if (how == MF_SEG_HOLD) {
        o->x[dst] = sg->v0[0];
        (sg->comps == 2 ? o->y : o->x)[dst] = sg->v0[1]; /* one channel: v0[1] is v0[0] */
    } else if (how == MF_SEG_SCALE1 || how == MF_SEG_SCALE2) { /* the setup value scaled */
        float u = mf_pose_seg_u(sg, t);
        float f = mf_pose_seg_at(sg, 0, u, prep);
        o->x[dst] = sg->set[0] * (sg->v0[0] + sg->dv[0] * f);
        if (how == MF_SEG_SCALE2) {
            if (!mf_pose_seg_same(sg, prep)) f = mf_pose_seg_at(sg, 1, u, prep);
            o->y[dst] = sg->set[1] * (sg->v0[1] + sg->dv[1] * f);
        }
    } else if (how == MF_SEG_NONE) {
        return false;
    } else if (how > MF_SEG_IK_HOLD) { /* IK on curves, colour and constraint values */
        mf_pose_seg_write_rare(o->p, sg, t, o->discrete, prep);
    } else if (how == MF_SEG_ATTACH) { /* most frames change nothing: the rare write's first test */
        if (o->discrete && (o->p->skin || sg->att == MF_SEG_UNKNOWN || o->p->attachment[sg->slot] != sg->att))
            mf_pose_seg_write_rare(o->p, sg, t, o->discrete, prep);
    } else { /* IK held: the rare write's, inline */
        mf_pose *p = o->p;
        int32_t i = sg->slot;
        p->ik_mix[i] = sg->v0[0], p->ik_softness[i] = sg->v0[1];
        if (o->discrete) {
            p->ik_bend[i] = (int8_t)(uint8_t)(sg->name & 255);
            p->ik_compress[i] = (uint8_t)(sg->name >> 8), p->ik_stretch[i] = (uint8_t)(sg->name >> 16);
        }
    }
    return true;
}

MF_CURVE_INLINE bool mf_pose_seg_write(const mf_pose_seg_out *o, const mf_pose_seg *sg, double t)
{
    return mf_pose_seg_write_as(o, sg, t, false);
}

#endif
