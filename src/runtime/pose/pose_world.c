/* World transforms: a bone's 2×3 from its applied values and its parent's world transform,
 * honouring the five inherit modes, and the inverse (world back to applied values). */
#include <string.h>
#if defined(__SSE2__) && !defined(MF_NO_SIMD)
#include <emmintrin.h>
#endif

#include "geom_skin.h"
#include "pose_internal.h"

/* cos and sin of a float angle in radians, evaluated in double: Cody-Waite reduction by pi/2
 * in three parts (k * each part exact for |k| < 2^23) and Taylor series on |y| <= pi/4,
 * truncation ~1e-19 relative. Rounded to float they equal (float)cos((double)r) and
 * (float)sin((double)r) except where a double lies within a few ulps of a float rounding
 * boundary: checked bit for bit against libm for every float with |r| < 1e5 (none differ),
 * at about 0.7× the cost of libm's. Large or non-finite angles go to libm. */
static inline void sincos_r(float r, float *cs, float *sn)
{
    double x = r;
    if (x == 0) { /* keeps the sign of a zero sine */
        *cs = 1.0f, *sn = r;
        return;
    }
    if (!(fabs(x) < 1.0e5)) {
        *cs = (float)cos(x), *sn = (float)sin(x);
        return;
    }
    double k = (x * 0.6366197723675814 + 0x1.8p52) - 0x1.8p52; /* round to nearest */
    double y = k == 0 ? x : ((x - k * 0x1.921fb54p+0) - k * 0x1.10b46118p-30) - k * 0x1.313198a2e0370p-61;
    double z = y * y;
    double s = y + y * z * (-1.0 / 6 + z * (1.0 / 120 + z * (-1.0 / 5040 + z * (1.0 / 362880 +
               z * (-1.0 / 39916800 + z * (1.0 / 6227020800.0 + z * (-1.0 / 1307674368000.0 +
               z * (1.0 / 355687428096000.0))))))));
    double c = 1.0 + z * (-1.0 / 2 + z * (1.0 / 24 + z * (-1.0 / 720 + z * (1.0 / 40320 +
               z * (-1.0 / 3628800 + z * (1.0 / 479001600 + z * (-1.0 / 87178291200.0 +
               z * (1.0 / 20922789888000.0))))))));
    switch ((int)((long long)k & 3)) {
    case 0: *cs = (float)c, *sn = (float)s; break;
    case 1: *cs = (float)-s, *sn = (float)c; break;
    case 2: *cs = (float)-c, *sn = (float)-s; break;
    default: *cs = (float)s, *sn = (float)-c; break;
    }
}

/* cos and sin of two float angles in radians at once, in float SSE lanes {r0, r0, r1, r1}:
 * reduction by pi/2 in three parts (k * the first part exact for |k| < 2^16), minimax
 * polynomials on |y| <= pi/4, and per lane the quadrant (cos = sin a quarter turn on). Within
 * about 1 ulp of (float)cos((double)r) and (float)sin((double)r); the sign of every value
 * follows the float angle's side of each multiple of 90 degrees as the exact functions do, so
 * a bone scaled to 0 keeps the signed zero axis constraints read. Zero gives cos 1, sin ±0
 * exactly; large or non-finite angles go to sincos_r. cs_sn gets {cos r0, sin r0, cos r1, sin r1}. */
static inline void sincos2_r(float r0, float r1, float cs_sn[4])
{
#if defined(__SSE2__) && !defined(MF_NO_SIMD)
    if (!(fabsf(r0) < 8192.0f) || !(fabsf(r1) < 8192.0f)) {
        sincos_r(r0, &cs_sn[0], &cs_sn[1]);
        sincos_r(r1, &cs_sn[2], &cs_sn[3]);
        return;
    }
    __m128 x = _mm_setr_ps(r0, r0, r1, r1);
    __m128i ki = _mm_cvtps_epi32(_mm_mul_ps(x, _mm_set1_ps(0.636619772f)));
    __m128 k = _mm_cvtepi32_ps(ki);
    __m128 y = _mm_sub_ps(x, _mm_mul_ps(k, _mm_set1_ps(1.5703125f)));
    y = _mm_sub_ps(y, _mm_mul_ps(k, _mm_set1_ps(4.837512969970703125e-4f)));
    y = _mm_sub_ps(y, _mm_mul_ps(k, _mm_set1_ps(7.54978995489188216e-8f)));
    __m128 z = _mm_mul_ps(y, y);
    __m128 ps = _mm_add_ps(_mm_mul_ps(z, _mm_set1_ps(-1.9515295891e-4f)), _mm_set1_ps(8.3321608736e-3f));
    ps = _mm_add_ps(_mm_mul_ps(z, ps), _mm_set1_ps(-1.6666654611e-1f));
    __m128 sn = _mm_add_ps(y, _mm_mul_ps(_mm_mul_ps(y, z), ps));
    __m128 pc = _mm_add_ps(_mm_mul_ps(z, _mm_set1_ps(2.443315711809948e-5f)), _mm_set1_ps(-1.388731625493765e-3f));
    pc = _mm_add_ps(_mm_mul_ps(z, pc), _mm_set1_ps(4.166664568298827e-2f));
    __m128 cs = _mm_add_ps(_mm_sub_ps(_mm_set1_ps(1.0f), _mm_mul_ps(z, _mm_set1_ps(0.5f))),
                           _mm_mul_ps(_mm_mul_ps(z, z), pc));
    /* lanes 0 and 2 want cos: the sine a quadrant further */
    __m128i q = _mm_add_epi32(ki, _mm_setr_epi32(1, 0, 1, 0));
    __m128i one = _mm_set1_epi32(1), two = _mm_set1_epi32(2);
    __m128 odd = _mm_castsi128_ps(_mm_cmpeq_epi32(_mm_and_si128(q, one), one));
    __m128 neg = _mm_castsi128_ps(_mm_slli_epi32(_mm_and_si128(q, two), 30)); /* bit 1 to the sign */
    __m128 v = _mm_xor_ps(_mm_or_ps(_mm_and_ps(odd, cs), _mm_andnot_ps(odd, sn)), neg);
    __m128 zero_sin = _mm_and_ps(_mm_cmpeq_ps(x, _mm_setzero_ps()),
                                 _mm_castsi128_ps(_mm_setr_epi32(0, -1, 0, -1)));
    v = _mm_or_ps(_mm_and_ps(zero_sin, x), _mm_andnot_ps(zero_sin, v));
    _mm_storeu_ps(cs_sn, v);
#else
    sincos_r(r0, &cs_sn[0], &cs_sn[1]);
    sincos_r(r1, &cs_sn[2], &cs_sn[3]);
#endif
}

/* Cosine and sine of degrees, as Spine converts them: the rounding of the float radians decides
 * the sign of cos(±90°), and so the sign of a zero world axis (a bone scaled to 0), which
 * constraints read with atan2. */
static inline void sincosd(float deg, float *cs, float *sn) { sincos_r(deg * (float)MF_DEG, cs, sn); }

/* The local 2×2 of rotation, scales and shears, computed as the mirror image of Spine's Y-up
 * computation (angles negated, y terms negated after rounding) so that rounding and the signs
 * of zeros match: a bone scaled to 0 keeps a signed zero axis that constraints read with atan2.
 * 0 - rot turns a rotation of -0 into the +0 Spine would have.
 * The bone's trigonometry is cached: most bones keep their rotation and shears across frames
 * while their parents move, and sin/cos (in double, for parity) dominate a bone's update.
 * Keyed on the exact bits of both angles, so a hit gives the very values computed. */
static void local_matrix_cached(mf_pose *p, int32_t i, float rot, float sx, float sy, float shx,
                                float shy, float l[4])
{
    float rx = (0.0f - rot) - shx, ry = ((0.0f - rot) + 90.0f) + (0.0f - shy);
    uint32_t kx, ky;
    memcpy(&kx, &rx, sizeof kx), memcpy(&ky, &ry, sizeof ky);
    float *t = p->scratch->cache + (size_t)i * MF_BONE_CACHE + MF_BONE_CACHE_TRIG;
    uint32_t key[2];
    memcpy(key, t, sizeof key);
    if (!(p->scratch->cache_valid[i] & MF_BONE_TRIG_VALID) || key[0] != kx || key[1] != ky) {
        key[0] = kx, key[1] = ky;
        memcpy(t, key, sizeof key);
        sincos2_r(rx * (float)MF_DEG, ry * (float)MF_DEG, &t[2]);
        p->scratch->cache_valid[i] |= MF_BONE_TRIG_VALID;
    }
    l[0] = t[2] * sx, l[1] = -(t[4] * sy);
    l[2] = -(t[3] * sx), l[3] = t[5] * sy;
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
    float cr, sr;
    sincosd(rot, &cr, &sr);
    float za = pa * cr + pb * sr, zc = pc * cr + pd * sr;
    float len = sqrtf(za * za + zc * zc);
    if (len > 0.00001f) za /= len, zc /= len;
    float s = sqrtf(za * za + zc * zc);
    if (keep_reflection && pa * pd - pb * pc < 0) s = -s;
    float r = 90.0f + atan2d(zc, za);
    float cz, sz;
    sincosd(r, &cz, &sz);
    z[0] = za, z[1] = cz * s, z[2] = zc, z[3] = sz * s;
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
        local_matrix_cached(p, i, rot, sx, sy, shx, shy, l);
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
    local_matrix_cached(p, i, rot, sx, sy, shx, shy, l);
    la = l[0], lb = l[1], lc = l[2], ld = l[3];
    p->a[i] = m[0] * la + m[1] * lc;
    p->b[i] = m[0] * lb + m[1] * ld;
    p->c[i] = m[2] * la + m[3] * lc;
    p->d[i] = m[2] * lb + m[3] * ld;
}

void mf_pose_update_bone(mf_pose *p, int32_t i)
{
    if (!p || i < 0 || i >= p->bone_count) return;
    p->scratch->skin_mats_valid = 0;
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

/* Bit equality of two floats (so -0 and NaN inputs count as changed or unchanged exactly). */
static inline bool same_bits(float a, float b)
{
    uint32_t x, y;
    memcpy(&x, &a, sizeof x), memcpy(&y, &b, sizeof y);
    return x == y;
}

/* A bone update of the update order: copied from the cache when its inputs are unchanged.
 * The rotation is compared first: an animated bone usually fails there at once. */
static void update_cached(mf_pose *p, int32_t i)
{
    mf_pose_scratch *s = p->scratch;
    float *c = s->cache + (size_t)i * MF_BONE_CACHE;
    int32_t par = p->data->bones[i].parent;
    float x = p->ax[i], y = p->ay[i], rot = p->arot[i], sx = p->asx[i], sy = p->asy[i];
    float shx = p->ashx[i], shy = p->ashy[i], inh = (float)p->inherit[i];
    float pa = 0, pb = 0, pc = 0, pd = 0, pwx = 0, pwy = 0;
    if (par >= 0) pa = p->a[par], pb = p->b[par], pc = p->c[par], pd = p->d[par], pwx = p->wx[par], pwy = p->wy[par];
    if ((s->cache_valid[i] & MF_BONE_WORLD_VALID) && same_bits(c[2], rot) && same_bits(c[0], x) &&
        same_bits(c[1], y) && same_bits(c[3], sx) && same_bits(c[4], sy) && same_bits(c[5], shx) &&
        same_bits(c[6], shy) && same_bits(c[7], inh) && same_bits(c[8], pa) && same_bits(c[9], pb) &&
        same_bits(c[10], pc) && same_bits(c[11], pd) && same_bits(c[12], pwx) && same_bits(c[13], pwy)) {
        const float *w = c + MF_BONE_CACHE_IN;
        p->a[i] = w[0], p->b[i] = w[1], p->c[i] = w[2], p->d[i] = w[3], p->wx[i] = w[4], p->wy[i] = w[5];
        p->bones_copied++;
        return;
    }
    mf_pose_update_bone_with(p, i, x, y, rot, sx, sy, shx, shy);
    c[0] = x, c[1] = y, c[2] = rot, c[3] = sx, c[4] = sy, c[5] = shx, c[6] = shy, c[7] = inh;
    c[8] = pa, c[9] = pb, c[10] = pc, c[11] = pd, c[12] = pwx, c[13] = pwy;
    float *w = c + MF_BONE_CACHE_IN;
    w[0] = p->a[i], w[1] = p->b[i], w[2] = p->c[i], w[3] = p->d[i], w[4] = p->wx[i], w[5] = p->wy[i];
    s->cache_valid[i] |= MF_BONE_WORLD_VALID;
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
    mf_pose_world_changed(p);
}

void mf_pose_world_changed(mf_pose *p)
{
    if (!p) return;
    mf_skin_pack_bones(p, p->scratch->skin_mats);
    p->scratch->skin_mats_valid = 1;
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
