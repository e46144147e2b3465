/* Angles ↔ the rig's local rotations, hips offsets, and whole poses. */
#include <math.h>
#include <string.h>

#include "humanoid_internal.h"

#define DEG (3.14159265358979323846 / 180.0)

static mf_result check_bone(const mf_humanoid_rig *r, mf_humanoid_bone b, mf_diag *diag)
{
    if ((int)b < 0 || b >= MF_HB_COUNT) {
        mf_diag_set(diag, r->s->file, "", "no humanoid bone %d", (int)b);
        return MF_ERR_ARGUMENT;
    }
    if (!r->joint[b].mapped) {
        mf_diag_set(diag, r->s->file, mf_humanoid_bone_name(b), "%s is not mapped on this rig",
                    mf_humanoid_bone_name(b));
        return MF_ERR_INVALID;
    }
    return MF_OK;
}

mf_result mf_humanoid_to_local(const mf_humanoid_rig *r, mf_humanoid_bone b, mf_humanoid_angles a, mf_quat *local,
                               mf_diag *diag)
{
    mf_result rc = check_bone(r, b, diag);
    if (rc != MF_OK) return rc;
    if (!isfinite(a.flex) || !isfinite(a.abduct) || !isfinite(a.twist)) {
        mf_diag_set(diag, r->s->file, mf_humanoid_bone_name(b), "angles must be finite numbers");
        return MF_ERR_INVALID;
    }
    if (mf_humanoid_bone_is_hinge(b) && (a.abduct != 0 || a.twist != 0)) {
        mf_diag_set(diag, r->s->file, mf_humanoid_bone_name(b),
                    "%s is a hinge: it takes flex only (got abduct %g, twist %g)", mf_humanoid_bone_name(b),
                    (double)a.abduct, (double)a.twist);
        return MF_ERR_INVALID;
    }
    const mf_hjoint *j = &r->joint[b];
    mf_dquat q = mf_dq_axis_angle(1, 0, 0, a.twist * DEG);
    q = mf_dq_mul(q, mf_dq_axis_angle(0, 1, 0, a.abduct * DEG));
    q = mf_dq_mul(q, mf_dq_axis_angle(0, 0, 1, j->sigma * a.flex * DEG));
    q = mf_dq_mul(mf_dq_mul(j->pre, q), j->post);
    double len = sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
    q = (mf_dquat){q.x / len, q.y / len, q.z / len, q.w / len};
    if (q.w < 0) q = (mf_dquat){-q.x, -q.y, -q.z, -q.w}; /* one hemisphere */
    *local = mf_dq_f(q);
    return MF_OK;
}

mf_result mf_humanoid_from_local(const mf_humanoid_rig *r, mf_humanoid_bone b, mf_quat local, mf_humanoid_angles *a,
                                 mf_diag *diag)
{
    mf_result rc = check_bone(r, b, diag);
    if (rc != MF_OK) return rc;
    const mf_hjoint *j = &r->joint[b];
    mf_dquat q = mf_dq_mul(mf_dq_mul(mf_dq_conj(j->pre), mf_dq(local)), mf_dq_conj(j->post));
    double len = sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
    if (!(len > 0)) {
        mf_diag_set(diag, r->s->file, mf_humanoid_bone_name(b), "the rotation is not a unit quaternion");
        return MF_ERR_INVALID;
    }
    double x = q.x / len, y = q.y / len, z = q.z / len, w = q.w / len;
    /* R = Rx(twist) · Ry(abduct) · Rz(sigma·flex): the matrix entries the angles come from */
    double m00 = 1 - 2 * (y * y + z * z), m01 = 2 * (x * y - z * w), m02 = 2 * (x * z + y * w);
    double m11 = 1 - 2 * (x * x + z * z), m12 = 2 * (y * z - x * w), m21 = 2 * (y * z + x * w);
    double m22 = 1 - 2 * (x * x + y * y);
    if (m02 > 1) m02 = 1;
    if (m02 < -1) m02 = -1;
    double beta = asin(m02), alpha, gamma;
    if (sqrt(m00 * m00 + m01 * m01) > 1e-9) {
        alpha = atan2(-m12, m22);
        gamma = atan2(-m01, m00);
    } else { /* abduct ±90°: twist and flex turn about one axis; give it all to twist */
        alpha = atan2(m21, m11);
        gamma = 0;
    }
    a->twist = (float)(alpha / DEG);
    a->abduct = (float)(beta / DEG);
    a->flex = (float)(j->sigma * gamma / DEG);
    if (a->flex == 0) a->flex = 0; /* no -0 */
    return MF_OK;
}

mf_vec3 mf_humanoid_hips_offset_to_local(const mf_humanoid_rig *r, mf_vec3 offset)
{
    int32_t h = r->map.bone[MF_HB_HIPS];
    mf_vec3 world = mf_v3_add(mf_v3_add(mf_v3_scale(r->left, offset.x), mf_v3_scale(r->up, offset.y)),
                              mf_v3_scale(r->forward, offset.z));
    return mf_v3_add(r->s->rest_translation[h], mf_mat4_direction(&r->hips_parent_inv, world));
}

mf_vec3 mf_humanoid_hips_offset_from_local(const mf_humanoid_rig *r, mf_vec3 local_translation)
{
    int32_t h = r->map.bone[MF_HB_HIPS];
    mf_vec3 d = mf_mat4_direction(&r->s->parent_world[h], mf_v3_sub(local_translation, r->s->rest_translation[h]));
    return mf_v3(mf_v3_dot(d, r->left), mf_v3_dot(d, r->up), mf_v3_dot(d, r->forward));
}

mf_result mf_humanoid_rig_rest_pose(const mf_humanoid_rig *r, mf_humanoid_pose *out, mf_diag *diag)
{
    memset(out, 0, sizeof *out);
    for (int b = 0; b < MF_HB_COUNT; b++) {
        if (!r->joint[b].mapped) continue;
        mf_result rc = mf_humanoid_from_local(r, (mf_humanoid_bone)b, r->s->rest_rotation[r->map.bone[b]],
                                              &out->joint[b], diag);
        if (rc != MF_OK) return rc;
        if (mf_humanoid_bone_is_hinge((mf_humanoid_bone)b)) out->joint[b].abduct = out->joint[b].twist = 0;
    }
    return MF_OK;
}

mf_result mf_humanoid_pose_to_locals(const mf_humanoid_rig *r, const mf_humanoid_pose *p, mf_vec3 *t, mf_quat *q,
                                     mf_diag *diag)
{
    const mf_humanoid_skeleton *s = r->s;
    for (int32_t i = 0; i < s->bone_count; i++) {
        t[i] = s->rest_translation[i];
        q[i] = s->rest_rotation[i];
    }
    for (int b = 0; b < MF_HB_COUNT; b++) {
        if (!r->joint[b].mapped) continue;
        mf_result rc = mf_humanoid_to_local(r, (mf_humanoid_bone)b, p->joint[b], &q[r->map.bone[b]], diag);
        if (rc != MF_OK) return rc;
    }
    t[r->map.bone[MF_HB_HIPS]] = mf_humanoid_hips_offset_to_local(r, p->hips_offset);
    return MF_OK;
}
