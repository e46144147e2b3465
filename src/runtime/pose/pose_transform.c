/* Transform constraints: move the constrained bones towards the target bone's rotation,
 * translation, scale and shear, in world or local space, absolute or relative, with
 * per-channel mixes and offsets. */
#include "pose_applied.h"
#include "pose_atan.h"
#include "pose_cmath.h"
#include "pose_internal.h"
#include "pose_trig.h"
#include "pose_world.h"

static double wrapr(double r) { return mf_wrap_rad(r); }

/* mf_pose_applied_update of bone i, its Normal case (the usual) inline. */
static inline void applied(mf_pose *p, int32_t i)
{
    int32_t par = p->data->bones[i].parent;
    if (par >= 0 && p->inherit[i] == MF_SD_INHERIT_NORMAL) mf_pose_applied_normal(p, i, par);
    else mf_pose_applied_update(p, i);
}

/* Rotates a world 2×2 by r radians. */
static void rotate_world(mf_pose *p, int32_t i, double r)
{
    double cs, sn, a = p->a[i], b = p->b[i], c = p->c[i], d = p->d[i];
    mf_sincos_d(r, &cs, &sn);
    p->a[i] = (float)(cs * a - sn * c);
    p->b[i] = (float)(cs * b - sn * d);
    p->c[i] = (float)(sn * a + cs * c);
    p->d[i] = (float)(sn * b + cs * d);
}

/* Moves bone i's world origin towards the offset point (ox, oy) by the translation mixes. */
static inline __attribute__((always_inline)) void move_world(mf_pose *p, int32_t i, double ox, double oy,
                                                             const float *mix, bool relative)
{
    if (relative) {
        p->wx[i] += (float)(ox * mix[1]);
        p->wy[i] += (float)(oy * mix[2]);
    } else {
        p->wx[i] += (float)((ox - p->wx[i]) * mix[1]);
        p->wy[i] += (float)((oy - p->wy[i]) * mix[2]);
    }
}

static void world_mode(mf_pose *p, const mf_sd_transform *t, const float *mix, bool relative)
{
    int32_t tg = t->target;
    double ta = p->a[tg], tb = p->b[tg], tc = p->c[tg], td = p->d[tg];
    double reflect = ta * td - tb * tc > 0 ? MF_DEG : -MF_DEG;
    double off_rot = t->offset_rot * reflect, off_shy = t->offset_shy * reflect;
    /* the offset point in the target's space, in world coordinates */
    double ox = ta * t->offset_x + tb * t->offset_y + p->wx[tg];
    double oy = tc * t->offset_x + td * t->offset_y + p->wy[tg];
    /* the target's axis angles, once for all the bones */
    double tx_ang = 0, ty_ang = 0;
    if (mix[5] > 0) mf_atan2_two(tc, ta, td, tb, &tx_ang, &ty_ang);
    else if (mix[0] != 0) tx_ang = mf_atan2(tc, ta);
    const int32_t *bones = p->data->bone_lists + t->bone_first;
    for (int32_t k = 0; k < t->bone_count; k++) {
        int32_t i = bones[k];
        if (mix[0] != 0) {
            double r = relative ? tx_ang + off_rot : tx_ang - mf_atan2(p->c[i], p->a[i]) + off_rot;
            rotate_world(p, i, wrapr(r) * mix[0]);
        }
        move_world(p, i, ox, oy, mix, relative);
        if (mix[3] != 0) {
            double s = mf_sqrt_sq((double)p->a[i] * p->a[i] + (double)p->c[i] * p->c[i]);
            double ts = mf_sqrt_sq(ta * ta + tc * tc);
            double f = relative ? (ts - 1 + t->offset_sx) * mix[3] + 1
                                : (s != 0 ? (s + (ts - s + t->offset_sx) * mix[3]) / s : 1);
            p->a[i] = (float)(p->a[i] * f);
            p->c[i] = (float)(p->c[i] * f);
        }
        if (mix[4] != 0) {
            double s = mf_sqrt_sq((double)p->b[i] * p->b[i] + (double)p->d[i] * p->d[i]);
            double ts = mf_sqrt_sq(tb * tb + td * td);
            double f = relative ? (ts - 1 + t->offset_sy) * mix[4] + 1
                                : (s != 0 ? (s + (ts - s + t->offset_sy) * mix[4]) / s : 1);
            p->b[i] = (float)(p->b[i] * f);
            p->d[i] = (float)(p->d[i] * f);
        }
        if (mix[5] > 0) {
            double b = p->b[i], d = p->d[i], by, r;
            if (relative) {
                by = mf_atan2(d, b);
                r = wrapr(ty_ang - tx_ang);
                r = by + (r - MF_PI / 2 + off_shy) * mix[5];
            } else {
                double bx;
                mf_atan2_two(d, b, p->c[i], p->a[i], &by, &bx);
                r = wrapr(ty_ang - tx_ang - (by - bx));
                r = by + (r + off_shy) * mix[5];
            }
            double s = mf_sqrt_sq(b * b + d * d), cs, sn;
            mf_sincos_d(r, &cs, &sn);
            p->b[i] = (float)(cs * s);
            p->d[i] = (float)(sn * s);
        }
        applied(p, i); /* i is the constraint's: in range */
    }
}

/* world_mode with only the translation mixes (most transform constraints of the corpus): the
 * offset point and the moves as there, nothing of the rest. */
static void world_move(mf_pose *p, const mf_sd_transform *t, const float *mix, bool relative)
{
    int32_t tg = t->target;
    double ta = p->a[tg], tb = p->b[tg], tc = p->c[tg], td = p->d[tg];
    double ox = ta * t->offset_x + tb * t->offset_y + p->wx[tg];
    double oy = tc * t->offset_x + td * t->offset_y + p->wy[tg];
    const int32_t *bones = p->data->bone_lists + t->bone_first;
    for (int32_t k = 0; k < t->bone_count; k++) {
        int32_t i = bones[k];
        move_world(p, i, ox, oy, mix, relative);
        applied(p, i); /* i is the constraint's: in range */
    }
}

static void local_mode(mf_pose *p, const mf_sd_transform *t, const float *mix, bool relative)
{
    int32_t tg = t->target;
    const int32_t *bones = p->data->bone_lists + t->bone_first;
    for (int32_t k = 0; k < t->bone_count; k++) {
        int32_t i = bones[k];
        float rot = p->arot[i], x = p->ax[i], y = p->ay[i];
        float sx = p->asx[i], sy = p->asy[i], shy = p->ashy[i];
        if (relative) {
            rot += (p->arot[tg] + t->offset_rot) * mix[0];
            x += (p->ax[tg] + t->offset_x) * mix[1];
            y += (p->ay[tg] + t->offset_y) * mix[2];
            sx *= ((p->asx[tg] - 1 + t->offset_sx) * mix[3]) + 1;
            sy *= ((p->asy[tg] - 1 + t->offset_sy) * mix[4]) + 1;
            shy += (p->ashy[tg] + t->offset_shy) * mix[5];
        } else {
            if (mix[0] != 0) rot += mf_wrap_deg(p->arot[tg] - rot + t->offset_rot) * mix[0];
            x += (p->ax[tg] - x + t->offset_x) * mix[1];
            y += (p->ay[tg] - y + t->offset_y) * mix[2];
            if (mix[3] != 0) sx += (p->asx[tg] - sx + t->offset_sx) * mix[3];
            if (mix[4] != 0) sy += (p->asy[tg] - sy + t->offset_sy) * mix[4];
            if (mix[5] != 0) shy += mf_wrap_deg(p->ashy[tg] - shy + t->offset_shy) * mix[5];
        }
        mf_pose_update_bone_with(p, i, x, y, rot, sx, sy, p->ashx[i], shy);
    }
}

/* mf_pose_apply_transform's body for a constraint with a mix not 0. */
static inline __attribute__((always_inline)) void apply_transform(mf_pose *p, int32_t k)
{
    const mf_sd_transform *t = &p->data->transform[k];
    const float *mix = p->tf_mix + 6 * k;
    if (t->local) local_mode(p, t, mix, t->relative);
    else if (mix[0] == 0 && mix[3] == 0 && mix[4] == 0 && !(mix[5] > 0)) world_move(p, t, mix, t->relative);
    else world_mode(p, t, mix, t->relative);
}

/* Compiled for the baseline and again for AVX2 (chosen at run time as the IK's is): the same
 * operations in the VEX forms, no fused multiply-adds. */
/* (pose_world.h: the world update's baseline loop calls it directly, the mixes tested there) */
__attribute__((noinline)) void mf_pose_apply_transform_base(mf_pose *p, int32_t k) { apply_transform(p, k); }

#if MF_TRIG_AVX2
/* (pose_world.h: the world update's AVX2 loop calls it directly, the mixes tested there) */
__attribute__((noinline, flatten, target("avx2"))) void mf_pose_apply_transform_avx2(mf_pose *p, int32_t k)
{
    apply_transform(p, k);
}
#endif

void mf_pose_apply_transform(mf_pose *p, int32_t k)
{
    if (mf_pose_tf_mixes_off(p->tf_mix + 6 * k)) return;
#if MF_TRIG_AVX2
    if (p->scratch->trig_avx2) {
        mf_pose_apply_transform_avx2(p, k);
        return;
    }
#endif
    mf_pose_apply_transform_base(p, k);
}
