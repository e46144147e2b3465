/* Compiling a timeline's key segment for the full-weight Replace sample (pose_seg.h). */
#include <stddef.h>
#include <string.h>

#include "pose_seg.h"

/* The local channels a bone kind (not inherit) writes: comps of them (0: none), as indices into
 * x, y, rot, sx, sy, shx, shy; their setup values; whether they scale. */
static int32_t bone_channels(const mf_skel_data *d, const mf_sd_timeline *tl, int32_t ch[2], float set[2], bool *scale)
{
    const mf_sd_bone *b = &d->bones[tl->target];
    *scale = false;
    switch (tl->kind) {
    case MF_SD_TL_ROTATE: ch[0] = 2, set[0] = b->rot; return 1;
    case MF_SD_TL_TRANSLATE: ch[1] = 1, set[1] = b->y; /* fall through */
    case MF_SD_TL_TRANSLATE_X: ch[0] = 0, set[0] = b->x; return tl->kind == MF_SD_TL_TRANSLATE ? 2 : 1;
    case MF_SD_TL_TRANSLATE_Y: ch[0] = 1, set[0] = b->y; return 1;
    case MF_SD_TL_SCALE: ch[1] = 4, set[1] = b->sy; /* fall through */
    case MF_SD_TL_SCALE_X: *scale = true, ch[0] = 3, set[0] = b->sx; return tl->kind == MF_SD_TL_SCALE ? 2 : 1;
    case MF_SD_TL_SCALE_Y: *scale = true, ch[0] = 4, set[0] = b->sy; return 1;
    case MF_SD_TL_SHEAR: ch[1] = 6, set[1] = b->shy; /* fall through */
    case MF_SD_TL_SHEAR_X: ch[0] = 5, set[0] = b->shx; return tl->kind == MF_SD_TL_SHEAR ? 2 : 1;
    case MF_SD_TL_SHEAR_Y: ch[0] = 6, set[0] = b->shy; return 1;
    default: return 0;
    }
}

/* Local channel c's array start, floats from pose x: the pose's, or (NULL) any pose's of d. */
static ptrdiff_t channel_at(const mf_skel_data *d, const mf_pose *p, int32_t c)
{
    if (!p) return (ptrdiff_t)c * mf_pose_local_stride(d->bone_count);
    const float *arr[7] = {p->x, p->y, p->rot, p->sx, p->sy, p->shx, p->shy};
    return arr[c] - p->x;
}

/* An IK segment (mf_pose_seg): mix and softness as constraint_timeline gives them at weight 1
 * without the blend, and the discrete values. */
static void seg_ik(const mf_skel_data *d, const mf_sd_timeline *tl, mf_pose_seg *sg, int32_t k)
{
    int32_t i = tl->target;
    const mf_sd_ik *c = &d->ik[i];
    sg->how = MF_SEG_NONE;
    if (tl->value_comps != 2) return;
    sg->slot = i;
    int32_t bend = c->bend, compress = c->compress, stretch = c->stretch;
    if (k >= 0) {
        const int32_t *iv = d->ints + tl->int_first + (size_t)k * 3;
        bend = (int8_t)iv[0], compress = iv[1] != 0, stretch = iv[2] != 0;
    }
    sg->name = (int32_t)(uint8_t)(int8_t)bend | (compress & 255) << 8 | (stretch & 255) << 16;
    if (k < 0) {
        sg->v0[0] = c->mix, sg->v0[1] = c->softness;
        sg->how = MF_SEG_IK_HOLD;
        return;
    }
    const float *v = d->values + tl->value_first + (size_t)k * 2;
    if (k >= tl->key_count - 1) {
        sg->v0[0] = v[0], sg->v0[1] = v[1];
        sg->how = MF_SEG_IK_HOLD;
        return;
    }
    if (mf_pose_seg_keys(d, tl, sg, k, v, 2)) {
        sg->v0[0] += sg->dv[0], sg->v0[1] += sg->dv[1];
        sg->how = MF_SEG_IK_HOLD;
        return;
    }
    sg->span = (double)sg->t1 - sg->t0;
    sg->how = MF_SEG_IK;
}

/* A colour or constraint values segment: compiled between two keys only (before the first and
 * from the last key the general path holds the setup or the key). The value and curve counts
 * are the kind's (checked at load), read as pose_sample.c's interp reads them. */
static __attribute__((noinline)) void seg_values(const mf_skel_data *d, const mf_sd_timeline *tl, mf_pose_seg *sg,
                                                 int32_t k)
{
    int32_t n = tl->value_comps;
    sg->how = MF_SEG_NONE;
    if (tl->kind == MF_SD_TL_SEQUENCE || tl->kind > MF_SD_TL_PATH_MIX || k < 0 || k >= tl->key_count - 1)
        return; /* not a colour or constraint values kind (IK and attachments compile apart) */
    sg->kv = d->values + tl->value_first + (size_t)k * (size_t)n;
    sg->codes = d->curves + tl->curve_first + (size_t)k * (size_t)tl->curve_comps;
    sg->slot = tl->target;
    int32_t fresh = 1; /* the channels whose curve is evaluated: the first, then a code unlike the last */
    for (int32_t c = 1; tl->curve_comps != 1 && c < n; c++) fresh |= (sg->codes[c] != sg->codes[c - 1]) << c;
    sg->name = tl->kind | n << 8 | (tl->curve_comps != 1) << 16 | fresh << 17;
    sg->span = (double)sg->t1 - sg->t0;
    sg->how = MF_SEG_VALUES;
}

/* A new segment k (mf_pose_seg_values): a bone timeline's channels are resolved on its first
 * segment; attachment keys keep the slot, the name and, without skins, the attachment. p: the
 * pose compiled for (its skins and layout); NULL: a shared table's entry, as for any pose of d
 * without skins (def: d's default skin). */
static void compile(const mf_skel_data *d, const mf_pose *p, int32_t def, const mf_sd_timeline *tl, mf_pose_seg *sg,
                    int32_t k)
{
    if (tl->kind == MF_SD_TL_ATTACHMENT) {
        sg->slot = tl->target;
        sg->name = k < 0 ? d->slots[tl->target].attachment : d->ints[tl->int_first + k];
        if (p) sg->att = p->skin ? MF_SEG_UNKNOWN : mf_pose_find_attachment(p, sg->slot, sg->name);
        else sg->att = sg->name >= 0 && def >= 0 ? mf_skel_data_skin_attachment(d, def, sg->slot, sg->name) : -1;
        sg->how = MF_SEG_ATTACH;
        return;
    }
    if (tl->kind == MF_SD_TL_IK) {
        seg_ik(d, tl, sg, k);
        return;
    }
    if (tl->kind > MF_SD_TL_INHERIT) {
        seg_values(d, tl, sg, k);
        return;
    }
    if (!sg->comps) {
        bool scale = false;
        int32_t ch[2] = {0, 0};
        int32_t n = bone_channels(d, tl, ch, sg->set, &scale);
        if (n == 0 || tl->value_comps != n) return;
        ptrdiff_t dst = channel_at(d, p, ch[0]) + tl->target;
        /* the layout the write takes (pose_create.c): a second channel as far from y */
        if (n == 2 && channel_at(d, p, ch[1]) + tl->target != channel_at(d, p, 1) + dst) return;
        sg->dst = (int32_t)dst;
        sg->comps = (uint8_t)n, sg->scale = scale;
    }
    mf_pose_seg_values(d, tl, sg, k);
}

void mf_pose_seg_compile(mf_pose *p, const mf_sd_timeline *tl, mf_pose_seg *sg, int32_t k)
{
    compile(p->data, p, -1, tl, sg, k);
}

/* Whether a table compiles timeline tl (its padded entries' byte offsets held in 31 bits). */
static bool table_compiles(const mf_sd_timeline *tl)
{
    return mf_pose_seg_compiles(tl->kind) && tl->key_count < (1 << 24);
}

/* A compiled timeline's entries with their padding: key_count + 1 up to a power of two. */
static size_t table_slots(const mf_sd_timeline *tl)
{
    size_t n = 1;
    while (n < (size_t)tl->key_count + 1) n *= 2;
    return n;
}

size_t mf_seg_table_entries(const mf_skel_data *d)
{
    size_t n = 1; /* the zeroed entry of the kinds not compiled */
    for (int32_t i = 0; i < d->timeline_count; i++)
        if (table_compiles(&d->timelines[i])) n += table_slots(&d->timelines[i]);
    return n;
}

/* A table entry's curves pointed at the prepared ones (linear stays NULL: u itself is cheaper
 * than a search). */
static void seg_prepared(const mf_skel_data *d, mf_pose_seg *sg, const mf_bz_prep *prep)
{
    uint8_t h = sg->how;
    if (h != MF_SEG_CURVE1 && h != MF_SEG_CURVE2 && h != MF_SEG_SCALE1 && h != MF_SEG_SCALE2 && h != MF_SEG_IK)
        return;
    const mf_sd_bezier *bz[2] = {sg->bz[0], sg->bz[1]};
    for (int c = 0; c < 2; c++) sg->pz[c] = bz[c] ? prep + (bz[c] - d->beziers) : NULL;
    if (h == MF_SEG_CURVE1) sg->t0d = sg->t0; /* its second curve unused: t0 in double there */
}

void mf_seg_table_fill(const mf_skel_data *d, mf_seg_span *span, mf_pose_seg *seg, mf_bz_prep *prep)
{
    int32_t def = mf_skel_data_find_skin(d, "default");
    size_t at = 1;
    memset(seg, 0, sizeof *seg); /* t0 = t1 = 0: no time matches it */
    for (int32_t i = 0; i < d->bezier_count; i++) mf_bz_prepare(&prep[i], &d->beziers[i]);
    for (int32_t i = 0; i < d->timeline_count; i++) {
        const mf_sd_timeline *tl = &d->timelines[i];
        span[i] = (mf_seg_span){seg, 0, 0};
        if (!table_compiles(tl)) continue;
        int32_t n = tl->key_count;
        size_t slots = table_slots(tl);
        const float *times = d->times + tl->key_first;
        span[i] = (mf_seg_span){seg + at, (uint32_t)((slots - 1) * sizeof(mf_pose_seg)),
                                (uint32_t)((size_t)(n + 1) * sizeof(mf_pose_seg))};
        memset(seg + at, 0, slots * sizeof *seg);
        for (int32_t k = -1; k < n; k++) { /* seg_find's range, then the compile */
            mf_pose_seg *sg = &seg[at++];
            mf_pose_seg_range(sg, times, n, k);
            compile(d, NULL, def, tl, sg, k);
            seg_prepared(d, sg, prep);
        }
        at += slots - (size_t)(n + 1);
    }
}

/* Where a values segment's first channel goes (pose_sample.c's slot_colour and
 * constraint_timeline write there); the others follow it, but for RGBA2's dark colour. */
static float *value_dst(mf_pose *p, int32_t kind, int32_t i)
{
    switch (kind) {
    case MF_SD_TL_TRANSFORM: return &p->tf_mix[6 * i];
    case MF_SD_TL_PATH_POSITION: return &p->path_position[i];
    case MF_SD_TL_PATH_SPACING: return &p->path_spacing[i];
    case MF_SD_TL_PATH_MIX: return &p->path_mix[3 * i];
    case MF_SD_TL_ALPHA: return &p->color[4 * i + 3];
    default: return &p->color[4 * i]; /* RGBA, RGB, RGBA2 */
    }
}

/* A values segment at full weight: pose_sample.c's interp (a curve evaluated again only where
 * a channel's code differs from the one before: the fresh channels, found at compile) and its
 * lerp at weight 1. */
static __attribute__((noinline)) void write_values(mf_pose *p, const mf_pose_seg *sg, double t)
{
    int32_t kind = sg->name & 255, n = (sg->name >> 8) & 255;
    int32_t dark = kind == MF_SD_TL_RGBA2 ? 4 : n; /* the first channel of the dark colour */
    uint32_t fresh = (uint32_t)sg->name >> 17; /* beyond the first: only with a curve a channel */
    const float *v0 = sg->kv, *v1 = v0 + n;
    float u = mf_pose_seg_u(sg, t), fv[8];
    fv[0] = mf_curve_at(p->data, sg->codes[0], u);
    if (kind == MF_SD_TL_RGBA) { /* the most common (n 4): the same, unrolled */
        const int32_t *codes = sg->codes;
        float f1 = fresh & 2 ? mf_curve_at(p->data, codes[1], u) : fv[0];
        float f2 = fresh & 4 ? mf_curve_at(p->data, codes[2], u) : f1;
        float f3 = fresh & 8 ? mf_curve_at(p->data, codes[3], u) : f2;
        float *c = &p->color[4 * sg->slot], was[7];
        mf_pose_colours_keep(p, sg->slot, was);
        c[0] = c[0] + ((v0[0] + (v1[0] - v0[0]) * fv[0]) - c[0]);
        c[1] = c[1] + ((v0[1] + (v1[1] - v0[1]) * f1) - c[1]);
        c[2] = c[2] + ((v0[2] + (v1[2] - v0[2]) * f2) - c[2]);
        c[3] = c[3] + ((v0[3] + (v1[3] - v0[3]) * f3) - c[3]);
        mf_pose_colours_moved(p, sg->slot, was);
        return;
    }
    /* slot tracking: a colour kind's slot colours before (sg->slot is a constraint's otherwise) */
    bool colour = kind >= MF_SD_TL_RGBA && kind <= MF_SD_TL_RGBA2;
    float was[7];
    if (colour) mf_pose_colours_keep(p, sg->slot, was);
    if (fresh == 1) /* one curve (most keys) */
        for (int32_t c = 1; c < n; c++) fv[c] = fv[0];
    else
        for (int32_t c = 1; c < n; c++) fv[c] = (fresh >> c) & 1 ? mf_curve_at(p->data, sg->codes[c], u) : fv[c - 1];
    float *dst = value_dst(p, kind, sg->slot);
    if (dark == 4) /* RGBA and RGBA2's light colour (most of them): a fixed count */
        for (int32_t c = 0; c < 4; c++) dst[c] = dst[c] + ((v0[c] + (v1[c] - v0[c]) * fv[c]) - dst[c]);
    else
        for (int32_t c = 0; c < dark; c++) dst[c] = dst[c] + ((v0[c] + (v1[c] - v0[c]) * fv[c]) - dst[c]);
    float *dk = &p->dark[3 * sg->slot]; /* RGBA2's dark colour */
    for (int32_t c = dark; c < n; c++) {
        float v = v0[c] + (v1[c] - v0[c]) * fv[c];
        dk[c - dark] = dk[c - dark] + (v - dk[c - dark]);
    }
    if (colour) mf_pose_colours_moved(p, sg->slot, was);
}

/* The IK, attachment and values segments of mf_pose_seg_write (rare: out of the loop). */
void mf_pose_seg_write_rare(mf_pose *p, const mf_pose_seg *sg, double t, bool discrete, bool prep)
{
    if (sg->how == MF_SEG_ATTACH) {
        if (!discrete) return;
        /* without skins the name's attachment is the data's: found at compile */
        int32_t a = !p->skin && sg->att != MF_SEG_UNKNOWN ? sg->att : mf_pose_find_attachment(p, sg->slot, sg->name);
        if (p->attachment[sg->slot] != a) mf_pose_set_attachment(p, sg->slot, a); /* most frames: no change */
        return;
    }
    if (sg->how == MF_SEG_IK || sg->how == MF_SEG_IK_HOLD) {
        float a = sg->v0[0], b = sg->v0[1];
        if (sg->how == MF_SEG_IK) {
            float u = mf_pose_seg_u(sg, t);
            float f = mf_pose_seg_at(sg, 0, u, prep);
            a = sg->v0[0] + sg->dv[0] * f;
            if (!mf_pose_seg_same(sg, prep)) f = mf_pose_seg_at(sg, 1, u, prep);
            b = sg->v0[1] + sg->dv[1] * f;
        }
        int32_t i = sg->slot;
        p->ik_mix[i] = a, p->ik_softness[i] = b;
        if (discrete) {
            p->ik_bend[i] = (int8_t)(uint8_t)(sg->name & 255);
            p->ik_compress[i] = (uint8_t)(sg->name >> 8), p->ik_stretch[i] = (uint8_t)(sg->name >> 16);
        }
        return;
    }
    if (sg->how == MF_SEG_VALUES) {
        write_values(p, sg, t);
        return;
    }
}

