/* World transforms: a bone's 2×3 from its applied values and its parent's world transform,
 * honouring the five inherit modes, and the inverse (world back to applied values). */
#include <string.h>

#include "pose_internal.h"

/* Degrees to radians in float, as Spine does: the rounding decides the sign of cos(±90°), and
 * so the sign of a zero world axis (a bone scaled to 0), which constraints read with atan2. */
static float cosd(float deg)
{
    float r = deg * (float)MF_DEG;
    return (float)cos(r);
}
static float sind(float deg)
{
    float r = deg * (float)MF_DEG;
    return (float)sin(r);
}

/* The local 2×2 of rotation, scales and shears, computed as the mirror image of Spine's Y-up
 * computation (angles negated, y terms negated after rounding) so that rounding and the signs
 * of zeros match: a bone scaled to 0 keeps a signed zero axis that constraints read with atan2.
 * 0 - rot turns a rotation of -0 into the +0 Spine would have. */
static void local_matrix(float rot, float sx, float sy, float shx, float shy, float l[4])
{
    float rx = (0.0f - rot) - shx, ry = ((0.0f - rot) + 90.0f) + (0.0f - shy);
    l[0] = cosd(rx) * sx, l[1] = -(cosd(ry) * sy);
    l[2] = -(sind(rx) * sx), l[3] = sind(ry) * sy;
}

static float atan2d(float y, float x) { return (float)(atan2(y, x) * MF_RAD); }

/* The parent's matrix with its rotation taken out (NoRotationOrReflection): its scale in its
 * own orientation, q = R(prot)·diag(n, n·k). *prot gets the parent's rotation in degrees. */
static void strip_rotation(float pa, float pb, float pc, float pd, float q[4], float *prot)
{
    float s2 = pa * pa + pc * pc;
    if (s2 > 0.0001f) {
        float k = fabsf(pa * pd - pb * pc) / s2;
        q[0] = pa, q[1] = -pc * k, q[2] = pc, q[3] = pa * k;
        *prot = atan2d(pc, pa);
    } else {
        q[0] = 0, q[1] = pb, q[2] = 0, q[3] = pd;
        *prot = 90.0f - atan2d(pd, pb);
    }
}

/* The unit frame of a NoScale bone: the parent's image of the bone's direction (rot),
 * normalised, with a perpendicular y axis (reflected when the parent is, for NoScale). */
static void unit_frame(float pa, float pb, float pc, float pd, float rot, bool keep_reflection,
                       float z[4])
{
    float cr = cosd(rot), sr = sind(rot);
    float za = pa * cr + pb * sr, zc = pc * cr + pd * sr;
    float len = sqrtf(za * za + zc * zc);
    if (len > 0.00001f) za /= len, zc /= len;
    float s = sqrtf(za * za + zc * zc);
    if (keep_reflection && pa * pd - pb * pc < 0) s = -s;
    float r = 90.0f + atan2d(zc, za);
    z[0] = za, z[1] = cosd(r) * s, z[2] = zc, z[3] = sind(r) * s;
}

void mf_pose_update_bone_with(mf_pose *p, int32_t i, float x, float y, float rot, float sx,
                              float sy, float shx, float shy)
{
    p->ax[i] = x, p->ay[i] = y, p->arot[i] = rot, p->asx[i] = sx, p->asy[i] = sy;
    p->ashx[i] = shx, p->ashy[i] = shy;
    int32_t par = p->data->bones[i].parent;
    float la, lb, lc, ld;
    if (par < 0) {
        float l[4];
        local_matrix(rot, sx, sy, shx, shy, l);
        p->a[i] = l[0], p->b[i] = l[1], p->c[i] = l[2], p->d[i] = l[3];
        p->wx[i] = x, p->wy[i] = y;
        return;
    }
    float pa = p->a[par], pb = p->b[par], pc = p->c[par], pd = p->d[par];
    p->wx[i] = pa * x + pb * y + p->wx[par];
    p->wy[i] = pc * x + pd * y + p->wy[par];
    float m[4]; /* the matrix the local transform is multiplied by */
    switch (p->inherit[i]) {
    case MF_SD_INHERIT_ONLY_TRANSLATION:
        m[0] = 1, m[1] = 0, m[2] = 0, m[3] = 1;
        break;
    case MF_SD_INHERIT_NO_ROTATION_OR_REFLECTION: {
        float prot;
        strip_rotation(pa, pb, pc, pd, m, &prot);
        rot -= prot; /* the local rotation is kept in world space */
        break;
    }
    case MF_SD_INHERIT_NO_SCALE:
    case MF_SD_INHERIT_NO_SCALE_OR_REFLECTION:
        unit_frame(pa, pb, pc, pd, rot, p->inherit[i] == MF_SD_INHERIT_NO_SCALE, m);
        rot = 0; /* the frame already holds the rotation */
        break;
    default:
        m[0] = pa, m[1] = pb, m[2] = pc, m[3] = pd;
        break;
    }
    float l[4];
    local_matrix(rot, sx, sy, shx, shy, l);
    la = l[0], lb = l[1], lc = l[2], ld = l[3];
    p->a[i] = m[0] * la + m[1] * lc;
    p->b[i] = m[0] * lb + m[1] * ld;
    p->c[i] = m[2] * la + m[3] * lc;
    p->d[i] = m[2] * lb + m[3] * ld;
}

void mf_pose_update_bone(mf_pose *p, int32_t i)
{
    if (!p || i < 0 || i >= p->bone_count) return;
    mf_pose_update_bone_with(p, i, p->ax[i], p->ay[i], p->arot[i], p->asx[i], p->asy[i],
                             p->ashx[i], p->ashy[i]);
}

void mf_pose_update_applied(mf_pose *p, int32_t i)
{
    if (!p || i < 0 || i >= p->bone_count) return;
    int32_t par = p->data->bones[i].parent;
    float a = p->a[i], b = p->b[i], c = p->c[i], d = p->d[i];
    float extra_rot = 0; /* rotation the inherit mode holds outside the relative matrix */
    float r[4];
    if (par < 0) {
        p->ax[i] = p->wx[i], p->ay[i] = p->wy[i];
        r[0] = a, r[1] = b, r[2] = c, r[3] = d;
    } else {
        float pa = p->a[par], pb = p->b[par], pc = p->c[par], pd = p->d[par];
        float det = pa * pd - pb * pc;
        float inv = fabsf(det) > 1e-12f ? 1.0f / det : 0.0f;
        float dx = p->wx[i] - p->wx[par], dy = p->wy[i] - p->wy[par];
        p->ax[i] = (dx * pd - dy * pb) * inv;
        p->ay[i] = (dy * pa - dx * pc) * inv;
        float m[4];
        switch (p->inherit[i]) {
        case MF_SD_INHERIT_ONLY_TRANSLATION:
            m[0] = 1, m[1] = 0, m[2] = 0, m[3] = 1;
            break;
        case MF_SD_INHERIT_NO_ROTATION_OR_REFLECTION:
            strip_rotation(pa, pb, pc, pd, m, &extra_rot);
            break;
        case MF_SD_INHERIT_NO_SCALE:
        case MF_SD_INHERIT_NO_SCALE_OR_REFLECTION:
            unit_frame(pa, pb, pc, pd, p->arot[i], p->inherit[i] == MF_SD_INHERIT_NO_SCALE, m);
            extra_rot = p->arot[i];
            break;
        default:
            m[0] = pa, m[1] = pb, m[2] = pc, m[3] = pd;
            break;
        }
        float md = m[0] * m[3] - m[1] * m[2];
        float mi = fabsf(md) > 1e-12f ? 1.0f / md : 0.0f;
        r[0] = (m[3] * a - m[1] * c) * mi;
        r[1] = (m[3] * b - m[1] * d) * mi;
        r[2] = (m[0] * c - m[2] * a) * mi;
        r[3] = (m[0] * d - m[2] * b) * mi;
    }
    /* decompose r = R(rot)·shear(shy)·scale(sx, sy) with no x shear */
    p->ashx[i] = 0;
    float sx = sqrtf(r[0] * r[0] + r[2] * r[2]);
    if (sx > 0.0001f) {
        float det = r[0] * r[3] - r[1] * r[2];
        float sy = sqrtf(r[1] * r[1] + r[3] * r[3]);
        if (det < 0) sy = -sy;
        float rot = atan2d(r[2], r[0]);
        p->asx[i] = sx, p->asy[i] = sy;
        p->arot[i] = rot + extra_rot;
        p->ashy[i] = sy != 0 ? mf_wrap_deg(atan2d(r[3] / sy, r[1] / sy) - rot - 90.0f) : 0.0f;
    } else {
        p->asx[i] = 0;
        p->asy[i] = sqrtf(r[1] * r[1] + r[3] * r[3]);
        p->ashy[i] = 0;
        p->arot[i] = 90.0f - atan2d(r[3], r[1]) + extra_rot;
    }
}

/* A bone update of the update order: copied from the cache when its inputs are unchanged. */
static void update_cached(mf_pose *p, int32_t i)
{
    mf_pose_scratch *s = p->scratch;
    float in[MF_BONE_CACHE_IN];
    in[0] = p->ax[i], in[1] = p->ay[i], in[2] = p->arot[i], in[3] = p->asx[i];
    in[4] = p->asy[i], in[5] = p->ashx[i], in[6] = p->ashy[i], in[7] = (float)p->inherit[i];
    int32_t par = p->data->bones[i].parent;
    if (par >= 0) {
        in[8] = p->a[par], in[9] = p->b[par], in[10] = p->c[par], in[11] = p->d[par];
        in[12] = p->wx[par], in[13] = p->wy[par];
    } else {
        for (int32_t k = 8; k < MF_BONE_CACHE_IN; k++) in[k] = 0;
    }
    float *c = s->cache + (size_t)i * MF_BONE_CACHE;
    if (s->cache_valid[i] && memcmp(c, in, sizeof in) == 0) {
        float *w = c + MF_BONE_CACHE_IN;
        p->a[i] = w[0], p->b[i] = w[1], p->c[i] = w[2], p->d[i] = w[3], p->wx[i] = w[4], p->wy[i] = w[5];
        p->bones_copied++;
        return;
    }
    mf_pose_update_bone(p, i);
    memcpy(c, in, sizeof in);
    float *w = c + MF_BONE_CACHE_IN;
    w[0] = p->a[i], w[1] = p->b[i], w[2] = p->c[i], w[3] = p->d[i], w[4] = p->wx[i], w[5] = p->wy[i];
    s->cache_valid[i] = 1;
    p->bones_computed++;
}

void mf_pose_update_world(mf_pose *p)
{
    if (!p) return;
    const mf_skel_data *d = p->data;
    p->bones_computed = p->bones_copied = 0;
    mf_pose_physics_begin(p);
    for (int32_t i = 0; i < p->bone_count; i++) {
        p->ax[i] = p->x[i], p->ay[i] = p->y[i], p->arot[i] = p->rot[i];
        p->asx[i] = p->sx[i], p->asy[i] = p->sy[i], p->ashx[i] = p->shx[i], p->ashy[i] = p->shy[i];
    }
    for (int32_t u = 0; u < d->update_count; u++) {
        mf_sd_ref r = d->update[u];
        switch (r.kind) {
        case MF_SD_REF_BONE:
            if (p->active[r.index]) update_cached(p, r.index);
            break;
        case MF_SD_REF_IK:
            if (p->ik_active[r.index]) mf_pose_apply_ik(p, r.index);
            break;
        case MF_SD_REF_TRANSFORM:
            if (p->tf_active[r.index]) mf_pose_apply_transform(p, r.index);
            break;
        case MF_SD_REF_PATH:
            if (p->path_active[r.index]) mf_pose_apply_path(p, r.index);
            break;
        case MF_SD_REF_PHYSICS:
            mf_pose_apply_physics(p, r.index); /* checks its own activity */
            break;
        default:
            break;
        }
    }
}

mf_result mf_pose_bone_world(const mf_pose *p, int32_t i, float m[6])
{
    if (!p || !m || i < 0 || i >= p->bone_count) return MF_ERR_ARGUMENT;
    m[0] = p->a[i], m[1] = p->b[i], m[2] = p->c[i], m[3] = p->d[i], m[4] = p->wx[i], m[5] = p->wy[i];
    return MF_OK;
}

float mf_pose_bone_world_rotation(const mf_pose *p, int32_t i)
{
    if (!p || i < 0 || i >= p->bone_count) return 0;
    return atan2d(p->c[i], p->a[i]);
}
