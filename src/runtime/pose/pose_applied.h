/* A bone's applied values from its world transform (not public): its origin in the parent's
 * frame and the decomposition of its 2x2 relative to the parent's, shared by
 * mf_pose_applied_update (pose_world.c) and the physics constraints. The physics solver keeps
 * its own copy of the Normal case (applied_normal, pose_physics_solve.c) for speed: it must follow
 * mf_pose_applied_decompose. */
#ifndef MF_POSE_APPLIED_H
#define MF_POSE_APPLIED_H

#include "pose_atan.h"
#include "pose_internal.h"

/* Bone i's applied x, y from its world origin in the world of its parent par; returns the
 * inverse of the parent's determinant (0 when singular), which the Normal case reuses. */
static inline float mf_pose_origin_in_parent(mf_pose *p, int32_t i, int32_t par)
{
    float pa = p->a[par], pb = p->b[par], pc = p->c[par], pd = p->d[par];
    float det = pa * pd - pb * pc;
    float inv = fabsf(det) > 1e-12f ? 1.0f / det : 0.0f;
    float dx = p->wx[i] - p->wx[par], dy = p->wy[i] - p->wy[par];
    p->ax[i] = (dx * pd - dy * pb) * inv;
    p->ay[i] = (dy * pa - dx * pc) * inv;
    return inv;
}

/* Bone i's applied x, y from its world origin: in the world of its parent par, or the world's
 * own for a root (par < 0). */
static inline void mf_pose_applied_origin(mf_pose *p, int32_t i, int32_t par)
{
    if (par < 0) p->ax[i] = p->wx[i], p->ay[i] = p->wy[i];
    else (void)mf_pose_origin_in_parent(p, i, par);
}

/* Bone i's applied rotation (plus extra_rot, what its inherit mode holds outside r), scales
 * and shears from its relative 2x2 r. */
static inline __attribute__((always_inline)) void mf_pose_applied_decompose(mf_pose *p, int32_t i, const float r[4], float extra_rot)
{
    /* decompose r = R(rot)·shear(shy)·scale(sx, sy) with no x shear */
    p->ashx[i] = 0;
    float sx = sqrtf(r[0] * r[0] + r[2] * r[2]);
    if (sx > 0.0001f) {
        float det = r[0] * r[3] - r[1] * r[2];
        float sy = sqrtf(r[1] * r[1] + r[3] * r[3]);
        if (det < 0) sy = -sy;
        /* the y axis' angle from the x axis, in one atan2: cross and dot of the axes, the y
         * axis flipped when sy is (a reflection). Its atan2 of a y >= 0 lies in [0, 180], so
         * the shear lies in [-90, 90] and is never -0 (x - 90 rounds to +0): wrapping it to
         * [-180, 180] would give back its own bits, and is left out. Both atan2 in one pair */
        float dot = r[0] * r[1] + r[2] * r[3], rot, ya;
        mf_atan2d_two(r[2], r[0], fabsf(det), det < 0 ? -dot : dot, &rot, &ya);
        p->asx[i] = sx, p->asy[i] = sy;
        p->arot[i] = rot + extra_rot;
        p->ashy[i] = sy != 0 ? ya - 90.0f : 0.0f;
    } else {
        p->asx[i] = 0;
        p->asy[i] = sqrtf(r[1] * r[1] + r[3] * r[3]);
        p->ashy[i] = 0;
        p->arot[i] = 90.0f - mf_atan2d(r[3], r[1]) + extra_rot;
    }
}

/* mf_pose_applied_update of bone i of Normal inheritance under parent par >= 0: the relative
 * 2x2 is the parent's inverse times the bone's. */
static inline void mf_pose_applied_normal(mf_pose *p, int32_t i, int32_t par)
{
    p->scratch->world_valid[i] = 0; /* applied values not from the local ones: compute it next */
    float a = p->a[i], b = p->b[i], c = p->c[i], d = p->d[i];
    float pa = p->a[par], pb = p->b[par], pc = p->c[par], pd = p->d[par];
    float inv = mf_pose_origin_in_parent(p, i, par);
    const float r[4] = {(pd * a - pb * c) * inv, (pd * b - pb * d) * inv, (pa * c - pc * a) * inv,
                        (pa * d - pc * b) * inv};
    mf_pose_applied_decompose(p, i, r, 0.0f);
}

#endif
