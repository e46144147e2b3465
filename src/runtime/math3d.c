#include "mf/mf_math3d.h"

#include <math.h>

mf_vec3 mf_v3(float x, float y, float z) { return (mf_vec3){x, y, z}; }
mf_vec3 mf_v3_add(mf_vec3 a, mf_vec3 b) { return (mf_vec3){a.x + b.x, a.y + b.y, a.z + b.z}; }
mf_vec3 mf_v3_sub(mf_vec3 a, mf_vec3 b) { return (mf_vec3){a.x - b.x, a.y - b.y, a.z - b.z}; }
mf_vec3 mf_v3_scale(mf_vec3 a, float s) { return (mf_vec3){a.x * s, a.y * s, a.z * s}; }
float mf_v3_dot(mf_vec3 a, mf_vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
mf_vec3 mf_v3_cross(mf_vec3 a, mf_vec3 b)
{
    return (mf_vec3){a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
float mf_v3_length(mf_vec3 a) { return sqrtf(mf_v3_dot(a, a)); }
mf_vec3 mf_v3_normalize(mf_vec3 a)
{
    float l = mf_v3_length(a);
    return l > 0 ? mf_v3_scale(a, 1.0f / l) : a;
}

mf_quat mf_quat_identity(void) { return (mf_quat){0, 0, 0, 1}; }

mf_quat mf_quat_axis_angle(mf_vec3 axis, float radians)
{
    float s = sinf(radians * 0.5f);
    return (mf_quat){axis.x * s, axis.y * s, axis.z * s, cosf(radians * 0.5f)};
}

mf_quat mf_quat_mul(mf_quat a, mf_quat b)
{
    return (mf_quat){a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
                     a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
                     a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w,
                     a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z};
}

mf_quat mf_quat_conjugate(mf_quat q) { return (mf_quat){-q.x, -q.y, -q.z, q.w}; }

mf_quat mf_quat_normalize(mf_quat q)
{
    float l = sqrtf(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
    if (l <= 0) return mf_quat_identity();
    return (mf_quat){q.x / l, q.y / l, q.z / l, q.w / l};
}

mf_vec3 mf_quat_rotate(mf_quat q, mf_vec3 v)
{
    /* v + 2w(u×v) + 2u×(u×v) */
    mf_vec3 u = {q.x, q.y, q.z};
    mf_vec3 t = mf_v3_scale(mf_v3_cross(u, v), 2.0f);
    return mf_v3_add(mf_v3_add(v, mf_v3_scale(t, q.w)), mf_v3_cross(u, t));
}

mf_quat mf_quat_from_to(mf_vec3 from, mf_vec3 to)
{
    float d = mf_v3_dot(from, to);
    if (d < -0.999999f) { /* opposite: any perpendicular axis */
        mf_vec3 axis = mf_v3_cross(mf_v3(1, 0, 0), from);
        if (mf_v3_length(axis) < 1e-6f) axis = mf_v3_cross(mf_v3(0, 1, 0), from);
        return mf_quat_axis_angle(mf_v3_normalize(axis), 3.14159265358979f);
    }
    mf_vec3 c = mf_v3_cross(from, to);
    return mf_quat_normalize((mf_quat){c.x, c.y, c.z, 1.0f + d});
}

mf_quat mf_quat_from_basis(mf_vec3 x, mf_vec3 y, mf_vec3 z)
{
    /* rotation matrix with columns x, y, z → quaternion (Shepperd) */
    float m00 = x.x, m10 = x.y, m20 = x.z, m01 = y.x, m11 = y.y, m21 = y.z, m02 = z.x, m12 = z.y, m22 = z.z;
    float tr = m00 + m11 + m22;
    mf_quat q;
    if (tr > 0) {
        float s = sqrtf(tr + 1.0f) * 2.0f;
        q = (mf_quat){(m21 - m12) / s, (m02 - m20) / s, (m10 - m01) / s, 0.25f * s};
    } else if (m00 > m11 && m00 > m22) {
        float s = sqrtf(1.0f + m00 - m11 - m22) * 2.0f;
        q = (mf_quat){0.25f * s, (m01 + m10) / s, (m02 + m20) / s, (m21 - m12) / s};
    } else if (m11 > m22) {
        float s = sqrtf(1.0f + m11 - m00 - m22) * 2.0f;
        q = (mf_quat){(m01 + m10) / s, 0.25f * s, (m12 + m21) / s, (m02 - m20) / s};
    } else {
        float s = sqrtf(1.0f + m22 - m00 - m11) * 2.0f;
        q = (mf_quat){(m02 + m20) / s, (m12 + m21) / s, 0.25f * s, (m10 - m01) / s};
    }
    return mf_quat_normalize(q);
}

float mf_quat_angle_between(mf_quat a, mf_quat b)
{
    float d = fabsf(a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w);
    if (d > 1.0f) d = 1.0f;
    return 2.0f * acosf(d);
}

mf_quat mf_quat_slerp(mf_quat a, mf_quat b, float t)
{
    float d = a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
    if (d < 0) {
        b = (mf_quat){-b.x, -b.y, -b.z, -b.w};
        d = -d;
    }
    if (d > 0.9995f) {
        return mf_quat_normalize((mf_quat){a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t,
                                           a.z + (b.z - a.z) * t, a.w + (b.w - a.w) * t});
    }
    float th = acosf(d), s = sinf(th);
    float wa = sinf((1 - t) * th) / s, wb = sinf(t * th) / s;
    return (mf_quat){a.x * wa + b.x * wb, a.y * wa + b.y * wb, a.z * wa + b.z * wb, a.w * wa + b.w * wb};
}

mf_mat4 mf_mat4_identity(void)
{
    mf_mat4 r = {{0}};
    r.m[0] = r.m[5] = r.m[10] = r.m[15] = 1;
    return r;
}

mf_mat4 mf_mat4_mul(const mf_mat4 *a, const mf_mat4 *b)
{
    mf_mat4 r;
    for (int c = 0; c < 4; c++)
        for (int row = 0; row < 4; row++) {
            float s = 0;
            for (int k = 0; k < 4; k++) s += a->m[k * 4 + row] * b->m[c * 4 + k];
            r.m[c * 4 + row] = s;
        }
    return r;
}

mf_mat4 mf_mat4_from_trs(mf_vec3 t, mf_quat q, mf_vec3 s)
{
    mf_vec3 x = mf_v3_scale(mf_quat_rotate(q, mf_v3(1, 0, 0)), s.x);
    mf_vec3 y = mf_v3_scale(mf_quat_rotate(q, mf_v3(0, 1, 0)), s.y);
    mf_vec3 z = mf_v3_scale(mf_quat_rotate(q, mf_v3(0, 0, 1)), s.z);
    mf_mat4 r = {{x.x, x.y, x.z, 0, y.x, y.y, y.z, 0, z.x, z.y, z.z, 0, t.x, t.y, t.z, 1}};
    return r;
}

void mf_mat4_to_trs(const mf_mat4 *m, mf_vec3 *t, mf_quat *r, mf_vec3 *s)
{
    mf_vec3 x = {m->m[0], m->m[1], m->m[2]}, y = {m->m[4], m->m[5], m->m[6]}, z = {m->m[8], m->m[9], m->m[10]};
    float sx = mf_v3_length(x), sy = mf_v3_length(y), sz = mf_v3_length(z);
    if (mf_v3_dot(mf_v3_cross(x, y), z) < 0) sx = -sx;
    if (t) *t = mf_v3(m->m[12], m->m[13], m->m[14]);
    if (s) *s = mf_v3(sx, sy, sz);
    if (r) {
        if (sx == 0 || sy == 0 || sz == 0) *r = mf_quat_identity();
        else *r = mf_quat_from_basis(mf_v3_scale(x, 1 / sx), mf_v3_scale(y, 1 / sy), mf_v3_scale(z, 1 / sz));
    }
}

int mf_mat4_invert_affine(const mf_mat4 *m, mf_mat4 *out)
{
    const float *a = m->m;
    float det = a[0] * (a[5] * a[10] - a[9] * a[6]) - a[4] * (a[1] * a[10] - a[9] * a[2]) +
                a[8] * (a[1] * a[6] - a[5] * a[2]);
    if (fabsf(det) < 1e-20f) {
        *out = mf_mat4_identity();
        return 0;
    }
    float id = 1.0f / det;
    mf_mat4 r = mf_mat4_identity();
    r.m[0] = (a[5] * a[10] - a[9] * a[6]) * id;
    r.m[4] = -(a[4] * a[10] - a[8] * a[6]) * id;
    r.m[8] = (a[4] * a[9] - a[8] * a[5]) * id;
    r.m[1] = -(a[1] * a[10] - a[9] * a[2]) * id;
    r.m[5] = (a[0] * a[10] - a[8] * a[2]) * id;
    r.m[9] = -(a[0] * a[9] - a[8] * a[1]) * id;
    r.m[2] = (a[1] * a[6] - a[5] * a[2]) * id;
    r.m[6] = -(a[0] * a[6] - a[4] * a[2]) * id;
    r.m[10] = (a[0] * a[5] - a[4] * a[1]) * id;
    mf_vec3 t = {a[12], a[13], a[14]};
    r.m[12] = -(r.m[0] * t.x + r.m[4] * t.y + r.m[8] * t.z);
    r.m[13] = -(r.m[1] * t.x + r.m[5] * t.y + r.m[9] * t.z);
    r.m[14] = -(r.m[2] * t.x + r.m[6] * t.y + r.m[10] * t.z);
    *out = r;
    return 1;
}

mf_vec3 mf_mat4_point(const mf_mat4 *m, mf_vec3 p)
{
    const float *a = m->m;
    return mf_v3(a[0] * p.x + a[4] * p.y + a[8] * p.z + a[12], a[1] * p.x + a[5] * p.y + a[9] * p.z + a[13],
                 a[2] * p.x + a[6] * p.y + a[10] * p.z + a[14]);
}

mf_vec3 mf_mat4_direction(const mf_mat4 *m, mf_vec3 d)
{
    const float *a = m->m;
    return mf_v3(a[0] * d.x + a[4] * d.y + a[8] * d.z, a[1] * d.x + a[5] * d.y + a[9] * d.z,
                 a[2] * d.x + a[6] * d.y + a[10] * d.z);
}
