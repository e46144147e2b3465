/* IK constraints: one bone turns towards the target; two bones solve the triangle by the law of
 * cosines (an ellipse when the parent's scale is not uniform), with bend direction, softness,
 * compress, stretch, uniform and mix, as Spine's user guide describes them. */
#include <string.h>

#include "pose_atan.h"
#include "pose_internal.h"
#include "pose_trig.h"
#include "pose_world.h"

static double atan2_(double y, double x) { return mf_atan2(y, x); }

/* sqrt without libm's errno branch, whose call would make a solve keep its doubles on the
 * stack: every root here is of a sum of squares, of (1 - c)(1 + c) with |c| <= 1 or of a value
 * tested non-negative (NaN at worst), where the instruction gives libm's bits. */
static inline double sqrt_(double v)
{
#if MF_TRIG_SSE2
    __m128d x = _mm_set_sd(v);
    return _mm_cvtsd_f64(_mm_sqrt_sd(x, x));
#else
    return sqrt(v);
#endif
}

/* mf_atan2 in a solve's fast pass (fast true): the series alone, whose bits are mf_atan2's
 * wherever the ratio is a number (one side infinite gives the ratio 0 and the 0, pi/2 or pi
 * libm gives); where mf_atan2 would ask libm (both zero, both infinite, a NaN) it sets *off
 * and the pass gives up. The general pass (fast false) calls mf_atan2. */
static inline __attribute__((always_inline)) double atan2_pass(double y, double x, bool fast, bool *off)
{
    if (!fast) return mf_atan2(y, x);
    double ax = fabs(x), ay = fabs(y);
    int swap = ay > ax;
    double t = swap ? ax / ay : ay / ax;
    if (__builtin_expect(t != t, 0)) {
        *off = true;
        return 0;
    }
    return mf_atan2_reduced(t, swap, signbit(y), signbit(x));
}

/* A one-bone solve's compress or stretch: the bone's scale x (y too when uniform) times the
 * target's distance (tx, ty) over the bone's length, mixed. */
static inline __attribute__((always_inline)) void one_scale(double tx, double ty, float length, bool compress,
                                                            bool stretch, bool uniform, float mix, double *sx,
                                                            double *sy)
{
    double b = length * *sx;
    if (b > 0.0001) {
        double dd = tx * tx + ty * ty;
        if ((compress && dd < b * b) || (stretch && dd > b * b)) {
            double s = (sqrt_(dd) / b - 1) * mix + 1;
            *sx *= s;
            if (uniform) *sy *= s;
        }
    }
}

/* The general one-bone pass; flatten: the cache refresh inlined (the solved bone always misses
 * it; the call cost more). */
static __attribute__((flatten, noinline)) void ik_one(mf_pose *p, int32_t bone, float tx_w, float ty_w,
                                                      bool compress, bool stretch, bool uniform, float mix)
{
    int32_t par = p->data->bones[bone].parent;
    double pa = 1, pb = 0, pc = 0, pd = 1, pwx = 0, pwy = 0;
    if (par >= 0) pa = p->a[par], pb = p->b[par], pc = p->c[par], pd = p->d[par], pwx = p->wx[par], pwy = p->wy[par];
    double rot_ik = -p->ashx[bone] - p->arot[bone];
    double tx, ty;
    uint8_t inh = p->inherit[bone];
    if (inh == MF_SD_INHERIT_ONLY_TRANSLATION) {
        tx = tx_w - p->wx[bone];
        ty = ty_w - p->wy[bone];
    } else {
        if (inh == MF_SD_INHERIT_NO_ROTATION_OR_REFLECTION) {
            /* the parent without its rotation; the rotation is added back */
            double s2 = pa * pa + pc * pc;
            double k = fabs(pa * pd - pb * pc) / (s2 > 0.0001 ? s2 : 0.0001);
            pb = -pc * k;
            pd = pa * k;
            rot_ik += atan2_(pc, pa) * MF_RAD;
        }
        double x = tx_w - pwx, y = ty_w - pwy, det = pa * pd - pb * pc;
        if (fabs(det) <= 0.0001) tx = 0, ty = 0;
        else {
            tx = (x * pd - y * pb) / det - p->ax[bone];
            ty = (y * pa - x * pc) / det - p->ay[bone];
        }
    }
    rot_ik += atan2_(ty, tx) * MF_RAD;
    if (p->asx[bone] < 0) rot_ik += 180;
    if (rot_ik > 180) rot_ik -= 360;
    else if (rot_ik < -180) rot_ik += 360;
    double sx = p->asx[bone], sy = p->asy[bone];
    if (compress || stretch) {
        if (inh == MF_SD_INHERIT_NO_SCALE || inh == MF_SD_INHERIT_NO_SCALE_OR_REFLECTION) {
            tx = tx_w - p->wx[bone];
            ty = ty_w - p->wy[bone];
        }
        one_scale(tx, ty, p->data->bones[bone].length, compress, stretch, uniform, mix, &sx, &sy);
    }
    float rot = (float)(p->arot[bone] + rot_ik * mix), fsx = (float)sx, fsy = (float)sy;
    if (par >= 0 && inh != MF_SD_INHERIT_NORMAL) {
        mf_pose_update_bone_with(p, bone, p->ax[bone], p->ay[bone], rot, fsx, fsy, p->ashx[bone], p->ashy[bone]);
        return;
    }
    /* Normal or a root (most): the update here, storing the values that change */
    p->arot[bone] = rot, p->asx[bone] = fsx, p->asy[bone] = fsy;
    p->trig_computed += mf_pose_trig_refresh(p->scratch, bone, rot, p->ashx[bone], p->ashy[bone]);
    mf_pose_world_normal(p, bone, par, p->ax[bone], p->ay[bone], fsx, fsy);
}

/* Point on the child's reach ellipse (non-uniform parent scale) at distance sqrt(dd) from the
 * parent, by the quadratic in x; false when no such point exists. */
static bool ellipse_solve(double l1, double ea, double eb, double dd, double bend, double *x_out,
                          double *y_out)
{
    double aa = ea * ea, bb = eb * eb;
    double c0 = bb * l1 * l1 + aa * dd - aa * bb, c1 = -2 * bb * l1, c2 = bb - aa;
    double disc = c1 * c1 - 4 * c2 * c0;
    if (disc < 0) return false;
    double q = sqrt_(disc);
    if (c1 < 0) q = -q;
    q = -(c1 + q) * 0.5;
    double r0 = q / c2, r1 = c0 / q;
    double r = fabs(r0) < fabs(r1) ? r0 : r1;
    double y2 = dd - r * r;
    if (!(y2 >= 0)) return false;
    *x_out = r;
    *y_out = sqrt_(y2) * bend;
    return true;
}

/* atan2(cy, cx) of IK k's child, from the constraint's cache while the child's x and y (its
 * applied ones, mostly its setup position) keep their bits. */
static inline __attribute__((always_inline)) double offset_angle(mf_pose_scratch *s, int32_t k, float cx, float cy,
                                                                 bool fast, bool *off)
{
    uint32_t kx, ky;
    memcpy(&kx, &cx, sizeof kx), memcpy(&ky, &cy, sizeof ky);
    uint32_t *key = s->ik_os_key + 2 * (size_t)k;
    if (key[0] != kx || key[1] != ky) {
        double os = atan2_pass(cy, cx, fast, off);
        if (*off) return 0; /* the cache as it was */
        key[0] = kx, key[1] = ky, s->ik_os[k] = os;
    }
    return s->ik_os[k];
}

/* The two-bone solve from the target (tx, ty, its squared distance dd) in the parent's parent's
 * space, the bone lengths l1 (parent to child) and l2: the parent's angle a1 and the child's
 * a2 (radians); *stretched and *str, the factor of the parent's scale, when the chain
 * stretches. u: the parent's scale is uniform (the fast pass has it). */
static inline __attribute__((always_inline)) void two_angles(double tx, double ty, double dd, double l1, double l2,
                                                             double psx, double psy, double csx, bool u, int bend,
                                                             bool stretch, float softness, float mix, bool *stretched,
                                                             double *str, double *a1_out, double *a2_out, bool fast,
                                                             bool *off)
{
    if (softness != 0) {
        /* ease the last `softness` pixels of reach so the chain never snaps straight */
        double soft = softness * psx * (csx + 1) * 0.5;
        double td = sqrt_(dd), sd = td - l1 - l2 * psx + soft;
        if (sd > 0) {
            double q = sd / (soft * 2);
            q = (q < 1 ? q : 1) - 1; /* fmin(1, q), NaN giving 1, without the call */
            q = (sd - soft * (1 - q * q)) / td;
            tx -= q * tx;
            ty -= q * ty;
            dd = tx * tx + ty * ty;
        }
    }
    double a1, a2;
    if (u) {
        l2 *= psx;
        double cs = (dd - l1 * l1 - l2 * l2) / (2 * l1 * l2), sn = 0;
        if (cs < -1) {
            cs = -1;
            a2 = MF_PI * bend;
        } else if (cs > 1) {
            cs = 1;
            a2 = 0;
            if (stretch) *stretched = true, *str = (sqrt_(dd) / (l1 + l2) - 1) * mix + 1;
        } else {
            /* acos(cs) as atan2 of its sine (cheaper than acos); sin(acos(cs) * bend) is that
             * sine times bend (-1, 0 or 1), 0 at the clamped ends */
            double sq = sqrt_((1 - cs) * (1 + cs));
            sn = sq * bend;
#if MF_TRIG_SSE2
            if (fast) { /* both angles' series in one pair of lanes (a1 as below) */
                double ea = l1 + l2 * cs, eb = l2 * sn;
                bool nan;
                __m128d r = mf_atan2_pd(_mm_setr_pd(sq, ty * ea - tx * eb), _mm_setr_pd(cs, tx * ea + ty * eb), &nan);
                if (nan) *off = true;
                *a2_out = _mm_cvtsd_f64(r) * bend, *a1_out = _mm_cvtsd_f64(_mm_unpackhi_pd(r, r));
                return;
            }
#endif
            a2 = atan2_pass(sq, cs, fast, off) * bend;
        }
        double ea = l1 + l2 * cs, eb = l2 * sn;
        a1 = atan2_pass(ty * ea - tx * eb, tx * ea + ty * eb, fast, off);
    } else {
        double ea = psx * l2, eb = psy * l2, ta = mf_atan2(ty, tx);
        double ex, ey;
        if (ellipse_solve(l1, ea, eb, dd, bend, &ex, &ey)) {
            a1 = ta - mf_atan2(ey, ex);
            a2 = mf_atan2(ey / psy, (ex - l1) / psx);
        } else {
            /* out of reach: the nearest or farthest point of the ellipse */
            double min_ang = MF_PI, min_x = l1 - ea, min_d = min_x * min_x, min_y = 0;
            double max_ang = 0, max_x = l1 + ea, max_d = max_x * max_x, max_y = 0;
            double k = -ea * l1 / (ea * ea - eb * eb);
            if (k >= -1 && k <= 1) {
                double ks = sqrt_((1 - k) * (1 + k)); /* sin(acos(k)) */
                double kx = ea * k + l1, ky = eb * ks, kd = kx * kx + ky * ky;
                k = mf_atan2(ks, k); /* acos(k) */
                if (kd < min_d) min_ang = k, min_d = kd, min_x = kx, min_y = ky;
                if (kd > max_d) max_ang = k, max_d = kd, max_x = kx, max_y = ky;
            }
            if (dd <= (min_d + max_d) * 0.5) {
                a1 = ta - mf_atan2(min_y * bend, min_x);
                a2 = min_ang * bend;
            } else {
                a1 = ta - mf_atan2(max_y * bend, max_x);
                a2 = max_ang * bend;
            }
        }
    }
    *a1_out = a1, *a2_out = a2;
}

/* The bones' new rotations from the solve's angles: the child's offset angle taken out of the
 * parent's and put in the child's, the flips (o1, o2, s2) and the mix. */
static inline __attribute__((always_inline)) void two_rotations(mf_pose *p, int32_t con, int32_t parent,
                                                                int32_t child, double cx, double cy, double o1,
                                                                double o2, double s2, double a1, double a2,
                                                                float mix, float *prot, float *crot, bool fast,
                                                                bool *off)
{
    /* the child's offset angle; cy is 0 whenever the child sits on the parent's axis (the
     * stretch and non-uniform cases force it), where atan2 is 0 for cx >= +0 */
    double os = 0;
    if (!(cy == 0 && !signbit(cx))) {
        os = offset_angle(p->scratch, con, (float)cx, (float)cy, fast, off);
        if (fast && *off) return;
        os *= s2;
    }
    double rot = p->arot[parent];
    a1 = (a1 - os) * MF_RAD + o1 - rot;
    if (a1 > 180) a1 -= 360;
    else if (a1 < -180) a1 += 360;
    *prot = (float)(rot + a1 * mix);
    rot = p->arot[child];
    a2 = ((a2 + os) * MF_RAD - p->ashx[child]) * s2 + o2 - rot;
    if (a2 > 180) a2 -= 360;
    else if (a2 < -180) a2 += 360;
    *crot = (float)(rot + a2 * mix);
}

/* The general two-bone pass: every case (inherit modes, non-uniform parent scale, a child on
 * the parent's origin, bones that are no chain), libm where the series cannot answer. */
static __attribute__((noinline)) void ik_two(mf_pose *p, int32_t con, int32_t parent, int32_t child, float tx_w,
                                             float ty_w, int bend, bool stretch, bool uniform, float softness,
                                             float mix)
{
    if (p->inherit[parent] != MF_SD_INHERIT_NORMAL || p->inherit[child] != MF_SD_INHERIT_NORMAL) return;
    bool off = false;
    double px = p->ax[parent], py = p->ay[parent];
    double psx = p->asx[parent], psy = p->asy[parent], sx = psx, sy = psy;
    double csx = p->asx[child];
    double o1, o2, s2;
    if (psx < 0) psx = -psx, o1 = 180, s2 = -1;
    else o1 = 0, s2 = 1;
    if (psy < 0) psy = -psy, s2 = -s2;
    if (csx < 0) csx = -csx, o2 = 180;
    else o2 = 0;
    double cx = p->ax[child], cy, cwx, cwy;
    double a = p->a[parent], b = p->b[parent], c = p->c[parent], d = p->d[parent];
    bool u = fabs(psx - psy) <= 0.0001;
    if (!u || stretch) {
        cy = 0;
        cwx = a * cx + p->wx[parent];
        cwy = c * cx + p->wy[parent];
    } else {
        cy = p->ay[child];
        cwx = a * cx + b * cy + p->wx[parent];
        cwy = c * cx + d * cy + p->wy[parent];
    }
    int32_t pp = p->data->bones[parent].parent;
    double qa = 1, qb = 0, qc = 0, qd = 1, qx = 0, qy = 0;
    if (pp >= 0) qa = p->a[pp], qb = p->b[pp], qc = p->c[pp], qd = p->d[pp], qx = p->wx[pp], qy = p->wy[pp];
    double id = qa * qd - qb * qc;
    id = fabs(id) <= 0.0001 ? 0 : 1 / id;
    double x = cwx - qx, y = cwy - qy;
    double dx = (x * qd - y * qb) * id - px, dy = (y * qa - x * qc) * id - py;
    double l1 = sqrt_(dx * dx + dy * dy), l2 = p->data->bones[child].length * csx;
    if (l1 < 0.0001) {
        ik_one(p, parent, tx_w, ty_w, false, stretch, false, mix);
        mf_pose_update_bone_with(p, child, (float)cx, (float)cy, 0, p->asx[child], p->asy[child],
                                 p->ashx[child], p->ashy[child]);
        return;
    }
    x = tx_w - qx, y = ty_w - qy;
    double tx = (x * qd - y * qb) * id - px, ty = (y * qa - x * qc) * id - py;
    double a1, a2, str = 1;
    bool stretched = false;
    two_angles(tx, ty, tx * tx + ty * ty, l1, l2, psx, psy, csx, u, bend, stretch, softness, mix, &stretched, &str,
               &a1, &a2, false, &off);
    if (stretched) {
        sx *= str;
        if (uniform) sy *= str;
    }
    float prot, crot, fsx = (float)sx, fsy = (float)sy, fcy = (float)cy;
    two_rotations(p, con, parent, child, cx, cy, o1, o2, s2, a1, a2, mix, &prot, &crot, false, &off);
    float cshx = p->ashx[child], cshy = p->ashy[child];
    if (parent == child) { /* not a chain the checks let through; as two updates all the same */
        mf_pose_update_bone_with(p, parent, (float)px, (float)py, prot, fsx, fsy, 0, 0);
        mf_pose_update_bone_with(p, child, (float)cx, fcy, crot, p->asx[child], p->asy[child], cshx, cshy);
        return;
    }
    /* both bones' updates here (both Normal: checked at the top): the applied values that
     * change (x, y and the child's scales and shears stay), the cos and sin of both bones in
     * one call, the worlds */
    p->arot[parent] = prot, p->asx[parent] = fsx, p->asy[parent] = fsy;
    p->ashx[parent] = 0, p->ashy[parent] = 0;
    p->ay[child] = fcy, p->arot[child] = crot;
    p->trig_computed += mf_pose_trig_refresh2(p->scratch, parent, prot, 0, 0, child, crot, cshx, cshy);
    int32_t cp = p->data->bones[child].parent;
    if (cp == parent) { /* a chain (what rigs have): the child from the parent's new matrix */
        mf_pose_world_normal2(p, parent, pp, p->ax[parent], p->ay[parent], fsx, fsy, child, p->ax[child], fcy,
                              p->asx[child], p->asy[child]);
        return;
    }
    mf_pose_world_normal(p, parent, pp, p->ax[parent], p->ay[parent], fsx, fsy);
    mf_pose_world_normal(p, child, cp, p->ax[child], fcy, p->asx[child], p->asy[child]);
}

#if MF_TRIG_SSE2
/* The fast passes (the common cases, a second path beside the general one): the general
 * pass's operations on the same values in the same order, x and y as the two lanes of a vector
 * where they go the same way, hence its bits (adding -0 keeps a value, x - (-90) is x + 90; a
 * NaN's sign aside, which no build fixes: compilers swap the operands of + and *); no calls, so
 * that the doubles stay in registers. They return false, having written nothing, where the
 * general pass must answer. */

/* {lo, hi} from two floats in memory; the lanes swapped; the high lane. */
static inline __m128d pd_ld(const float *lo, const float *hi)
{
    return _mm_cvtps_pd(_mm_unpacklo_ps(_mm_load_ss(lo), _mm_load_ss(hi)));
}
static inline __m128d pd_swap(__m128d v) { return _mm_shuffle_pd(v, v, 1); }
static inline double pd_hi(__m128d v) { return _mm_cvtsd_f64(_mm_unpackhi_pd(v, v)); }

/* v's four lanes to four floats. */
static inline void store4(float *x0, float *x1, float *x2, float *x3, __m128 v)
{
    _mm_store_ss(x0, v);
    _mm_store_ss(x1, _mm_shuffle_ps(v, v, 1));
    _mm_store_ss(x2, _mm_movehl_ps(v, v));
    _mm_store_ss(x3, _mm_shuffle_ps(v, v, 3));
}

typedef struct sincos_consts {
    float f[12][4];
    int32_t i[2][4];
} sincos_consts;
static const sincos_consts sincos_k __attribute__((aligned(16))) = {
#define K4(v) {v, v, v, v}
    {K4(0.636619772f), K4(1.5703125f), K4(4.837512969970703125e-4f), K4(7.54978995489188216e-8f),
     K4(-1.9515295891e-4f), K4(8.3321608736e-3f), K4(-1.6666654611e-1f), K4(2.443315711809948e-5f),
     K4(-1.388731625493765e-3f), K4(4.166664568298827e-2f), K4(1.0f), K4(0.5f)},
    {K4(1), K4(2)},
#undef K4
};

/* mf_sincos_ps (pose_trig.h) operation for operation, so the same bits, its constants read from
 * memory: GCC 12 builds each in two or more instructions where the operation can take it as its
 * memory operand. */
static inline __attribute__((always_inline)) void sincos4(__m128 x, __m128 *c, __m128 *s)
{
    const sincos_consts *kt = &sincos_k;
    __asm__("" : "+r"(kt)); /* the values unknown to the compiler: loaded, not built */
#define K(i) _mm_load_ps(kt->f[i])
    __m128i ki = _mm_cvtps_epi32(_mm_mul_ps(x, K(0)));
    __m128 k = _mm_cvtepi32_ps(ki);
    __m128 y = _mm_sub_ps(x, _mm_mul_ps(k, K(1)));
    y = _mm_sub_ps(y, _mm_mul_ps(k, K(2)));
    y = _mm_sub_ps(y, _mm_mul_ps(k, K(3)));
    __m128 z = _mm_mul_ps(y, y);
    __m128 ps = _mm_add_ps(_mm_mul_ps(z, K(4)), K(5));
    ps = _mm_add_ps(_mm_mul_ps(z, ps), K(6));
    __m128 sp = _mm_add_ps(y, _mm_mul_ps(_mm_mul_ps(y, z), ps));
    __m128 pc = _mm_add_ps(_mm_mul_ps(z, K(7)), K(8));
    pc = _mm_add_ps(_mm_mul_ps(z, pc), K(9));
    __m128 cp = _mm_add_ps(_mm_sub_ps(K(10), _mm_mul_ps(z, K(11))), _mm_mul_ps(_mm_mul_ps(z, z), pc));
#undef K
    __m128i one = _mm_load_si128((const __m128i *)(const void *)kt->i[0]);
    __m128i two = _mm_load_si128((const __m128i *)(const void *)kt->i[1]);
    __m128i qc = _mm_add_epi32(ki, one);
    __m128 odd_s = _mm_castsi128_ps(_mm_cmpeq_epi32(_mm_and_si128(ki, one), one));
    __m128 neg_s = _mm_castsi128_ps(_mm_slli_epi32(_mm_and_si128(ki, two), 30));
    __m128 neg_c = _mm_castsi128_ps(_mm_slli_epi32(_mm_and_si128(qc, two), 30));
    __m128 sv = _mm_xor_ps(_mm_or_ps(_mm_and_ps(odd_s, cp), _mm_andnot_ps(odd_s, sp)), neg_s);
    __m128 cv = _mm_xor_ps(_mm_or_ps(_mm_and_ps(odd_s, sp), _mm_andnot_ps(odd_s, cp)), neg_c);
    __m128 zero = _mm_cmpeq_ps(x, _mm_setzero_ps());
    *s = _mm_or_ps(_mm_and_ps(zero, x), _mm_andnot_ps(zero, sv));
    *c = cv;
}

/* mf_pose_world_normal's 2x2 for bones whose cos and sin are lanes {0, 1} of cs and sn (their
 * scales in the same lanes of sc) under a parent's 2x2 {a, a, c, c}, {b, b, d, d}: {a, b, c, d}
 * of the bone in lanes {0, 1} (hi false) or {2, 3} (hi true) of cs and sn. */
static inline __m128 world2x2(__m128 pac, __m128 pbd, __m128 cs, __m128 sn, __m128 sc, bool hi)
{
    __m128 l01 = _mm_xor_ps(_mm_mul_ps(cs, sc), _mm_setr_ps(0.0f, -0.0f, 0.0f, -0.0f));
    __m128 l23 = _mm_xor_ps(_mm_mul_ps(sn, sc), _mm_setr_ps(-0.0f, 0.0f, -0.0f, 0.0f));
    l01 = hi ? _mm_movehl_ps(l01, l01) : _mm_movelh_ps(l01, l01);
    l23 = hi ? _mm_movehl_ps(l23, l23) : _mm_movelh_ps(l23, l23);
    return _mm_add_ps(_mm_mul_ps(pac, l01), _mm_mul_ps(pbd, l23));
}

/* A bone's world position from its x, y and its parent's 2x2 and position (lanes 0 and 2). */
static inline __m128 world_xy(__m128 pac, __m128 pbd, float x, float y, __m128 pxy)
{
    return _mm_add_ps(_mm_add_ps(_mm_mul_ps(pac, _mm_set1_ps(x)), _mm_mul_ps(pbd, _mm_set1_ps(y))), pxy);
}

/* The end of a one-bone solve as the general pass has it (the fast pass's rare case). */
static __attribute__((noinline)) void one_commit(mf_pose *p, int32_t bone, int32_t par, float rot, float fsx,
                                                 float fsy)
{
    p->arot[bone] = rot, p->asx[bone] = fsx, p->asy[bone] = fsy;
    p->trig_computed += mf_pose_trig_refresh(p->scratch, bone, rot, p->ashx[bone], p->ashy[bone]);
    mf_pose_world_normal(p, bone, par, p->ax[bone], p->ay[bone], fsx, fsy);
}

/* The fast one-bone pass: a Normal bone under a parent, its cos and sin new. */
static inline __attribute__((always_inline)) bool ik_one_fast(mf_pose *p, const mf_ik_fixed *f, bool compress,
                                                              bool stretch, float mix)
{
    int32_t bone = f->bone, par = f->pp, target = f->target;
    bool uniform = f->uniform;
    if (par < 0 || p->inherit[bone] != MF_SD_INHERIT_NORMAL) return false;
    bool off = false;
    float arot = p->arot[bone], ashx = p->ashx[bone], fsx = p->asx[bone], fsy = p->asy[bone];
    double rot_ik = -ashx - arot;
    double pa = p->a[par], pb = p->b[par], pc = p->c[par], pd = p->d[par];
    double det = pa * pd - pb * pc;
    if (fabs(det) <= 0.0001) return false;
    /* the target in the parent's space less the bone's position: (x pd - y pb) / det - ax, ... */
    __m128d v = _mm_sub_pd(pd_ld(p->wx + target, p->wy + target), pd_ld(p->wx + par, p->wy + par));
    v = _mm_sub_pd(_mm_mul_pd(v, _mm_setr_pd(pd, pa)), _mm_mul_pd(pd_swap(v), _mm_setr_pd(pb, pc)));
    v = _mm_sub_pd(_mm_div_pd(v, _mm_set1_pd(det)), pd_ld(p->ax + bone, p->ay + bone));
    double tx = _mm_cvtsd_f64(v), ty = pd_hi(v);
    rot_ik += atan2_pass(ty, tx, true, &off) * MF_RAD;
    if (off) return false;
    if (fsx < 0) rot_ik += 180;
    if (rot_ik > 180) rot_ik -= 360;
    else if (rot_ik < -180) rot_ik += 360;
    double sx = fsx, sy = fsy;
    if (compress || stretch) one_scale(tx, ty, f->len, compress, stretch, uniform, mix, &sx, &sy);
    float rot = (float)(arot + rot_ik * mix);
    fsx = (float)sx, fsy = (float)sy;
    __asm__("" : "+r"(p)); /* ik_two_fast says why */
    /* mf_pose_trig_refresh's angles (lanes 2 and 3 unused); their cos and sin computed, not
     * cached (ik_two_fast says why) */
    float ashy = p->ashy[bone];
    __m128 n = _mm_sub_ps(_mm_setzero_ps(), _mm_set1_ps(rot));
    __m128 kf = _mm_add_ps(_mm_sub_ps(n, _mm_setr_ps(ashx, -90.0f, 0.0f, 0.0f)),
                           _mm_setr_ps(-0.0f, 0.0f - ashy, 0.0f, 0.0f));
    __m128 ang = _mm_mul_ps(kf, _mm_setr_ps((float)MF_DEG, (float)MF_DEG, 0.0f, 0.0f));
    int in = _mm_movemask_ps(_mm_cmplt_ps(_mm_and_ps(ang, _mm_castsi128_ps(_mm_set1_epi32(0x7fffffff))),
                                          _mm_set1_ps(8192.0f)));
    if (__builtin_expect((in & 3) != 3, 0)) {
        one_commit(p, bone, par, rot, fsx, fsy); /* an angle past the range */
        return true;
    }
    p->arot[bone] = rot, p->asx[bone] = fsx, p->asy[bone] = fsy;
    __m128 cs, sn;
    sincos4(ang, &cs, &sn);
    p->trig_computed += 1;
    float qa = p->a[par], qb = p->b[par], qc = p->c[par], qd = p->d[par];
    __m128 qac = _mm_setr_ps(qa, qa, qc, qc), qbd = _mm_setr_ps(qb, qb, qd, qd);
    __m128 wm = world2x2(qac, qbd, cs, sn, _mm_setr_ps(fsx, fsy, 0.0f, 0.0f), false);
    __m128 wt = world_xy(qac, qbd, p->ax[bone], p->ay[bone], _mm_setr_ps(p->wx[par], 0.0f, p->wy[par], 0.0f));
    store4(p->a + bone, p->b + bone, p->c + bone, p->d + bone, wm);
    _mm_store_ss(p->wx + bone, wt), _mm_store_ss(p->wy + bone, _mm_movehl_ps(wt, wt));
    return true;
}

/* The end of a two-bone chain's solve as the general pass has it (the fast pass's rare case). */
static __attribute__((noinline)) void two_commit(mf_pose *p, int32_t parent, int32_t child, int32_t pp, float prot,
                                                 float fsx, float fsy, float crot, float fcy)
{
    float cshx = p->ashx[child], cshy = p->ashy[child];
    p->arot[parent] = prot, p->asx[parent] = fsx, p->asy[parent] = fsy;
    p->ashx[parent] = 0, p->ashy[parent] = 0;
    p->ay[child] = fcy, p->arot[child] = crot;
    p->trig_computed += mf_pose_trig_refresh2(p->scratch, parent, prot, 0, 0, child, crot, cshx, cshy);
    mf_pose_world_normal2(p, parent, pp, p->ax[parent], p->ay[parent], fsx, fsy, child, p->ax[child], fcy,
                          p->asx[child], p->asy[child]);
}

/* The fast two-bone pass: a chain of Normal bones under a parent bone, the parent's scale
 * uniform, the child off the parent's origin (what rigs have), both bones' cos and sin new
 * (they mostly turn). */
static inline __attribute__((always_inline)) bool ik_two_fast(mf_pose *p, int32_t con, const mf_ik_fixed *f,
                                                              int bend, bool stretch, float softness, float mix)
{
    /* a chain under a parent bone (MF_IKF_CHAIN, apply_ik tested it: the child's parent is the
     * parent, which also says parent != child) */
    int32_t parent = f->bone, child = f->child, pp = f->pp, target = f->target;
    bool uniform = f->uniform;
    if (p->inherit[parent] != MF_SD_INHERIT_NORMAL || p->inherit[child] != MF_SD_INHERIT_NORMAL) return true;
    bool off = false;
    double psx = p->asx[parent], psy = p->asy[parent], csx = p->asx[child];
    if (psx < 0) psx = -psx; /* the flips (o1, o2, s2) come back below */
    if (psy < 0) psy = -psy;
    if (csx < 0) csx = -csx;
    if (!(fabs(psx - psy) <= 0.0001)) return false;
    /* the parent's 2x2 {a, c, b, d}, its parent's {a, b, c, d}, both positions */
    const float *A = p->a, *B = p->b, *C = p->c, *D = p->d, *WX = p->wx, *WY = p->wy;
    __m128 pm = _mm_setr_ps(A[parent], C[parent], B[parent], D[parent]);
    __m128 qm = _mm_setr_ps(A[pp], B[pp], C[pp], D[pp]);
    __m128 tw = _mm_setr_ps(WX[parent], WY[parent], WX[pp], WY[pp]);
    /* the child's world position from the parent's world (y dropped when stretching) */
    double cx = p->ax[child], cy = stretch ? 0.0f : p->ay[child];
    __m128d cw = _mm_mul_pd(_mm_cvtps_pd(pm), _mm_set1_pd(cx));
    if (!stretch) cw = _mm_add_pd(cw, _mm_mul_pd(_mm_cvtps_pd(_mm_movehl_ps(pm, pm)), _mm_set1_pd(cy)));
    cw = _mm_add_pd(cw, _mm_cvtps_pd(tw));
    /* into the parent's parent's space: (x qd - y qb) id - px, (y qa - x qc) id - py */
    __m128d q0 = _mm_cvtps_pd(_mm_movehl_ps(tw, tw));
    __m128d qdqa = _mm_cvtps_pd(_mm_shuffle_ps(qm, qm, _MM_SHUFFLE(0, 0, 0, 3)));
    __m128d qbqc = _mm_cvtps_pd(_mm_shuffle_ps(qm, qm, _MM_SHUFFLE(0, 0, 2, 1)));
    __m128d pxy = pd_ld(p->ax + parent, p->ay + parent);
    double id = _mm_cvtsd_f64(_mm_sub_sd(_mm_mul_sd(pd_swap(qdqa), qdqa), _mm_mul_sd(qbqc, pd_swap(qbqc))));
    __m128d vid = _mm_set1_pd(fabs(id) <= 0.0001 ? 0 : 1 / id);
    __m128d v = _mm_sub_pd(cw, q0);
    v = _mm_sub_pd(_mm_mul_pd(_mm_sub_pd(_mm_mul_pd(v, qdqa), _mm_mul_pd(pd_swap(v), qbqc)), vid), pxy);
    __m128d v2 = _mm_mul_pd(v, v);
    double l1 = sqrt_(_mm_cvtsd_f64(v2) + pd_hi(v2)), l2 = f->len * csx;
    if (l1 < 0.0001) return false;
    v = _mm_sub_pd(pd_ld(p->wx + target, p->wy + target), q0);
    v = _mm_sub_pd(_mm_mul_pd(_mm_sub_pd(_mm_mul_pd(v, qdqa), _mm_mul_pd(pd_swap(v), qbqc)), vid), pxy);
    double tx = _mm_cvtsd_f64(v), ty = pd_hi(v);
    /* p's fields reloaded after this: GCC would keep the arrays' addresses on the stack (an empty
     * asm statement: no instruction, only the compiler's view of p changes) */
    __asm__("" : "+r"(p));
    double a1, a2, str = 1;
    bool stretched = false;
    two_angles(tx, ty, tx * tx + ty * ty, l1, l2, psx, psy, csx, true, bend, stretch, softness, mix, &stretched, &str,
               &a1, &a2, true, &off);
    if (off) return false;
    float fsx = p->asx[parent], fsy = p->asy[parent], prot, crot;
    if (__builtin_expect(fsx < 0 || fsy < 0 || p->asx[child] < 0, 0)) {
        double o1 = 0, o2 = 0, s2 = 1;
        if (fsx < 0) o1 = 180, s2 = -1;
        if (fsy < 0) s2 = -s2;
        if (p->asx[child] < 0) o2 = 180;
        two_rotations(p, con, parent, child, cx, cy, o1, o2, s2, a1, a2, mix, &prot, &crot, true, &off);
    } else { /* no flips: the constants folded in */
        two_rotations(p, con, parent, child, cx, cy, 0, 0, 1, a1, a2, mix, &prot, &crot, true, &off);
    }
    if (off) return false;
    double sx = fsx, sy = fsy;
    if (stretched) {
        sx *= str;
        if (uniform) sy *= str;
    }
    fsx = (float)sx, fsy = (float)sy;
    float cyf = (float)cy;
    __asm__("" : "+r"(p)); /* as above; an empty statement: it changes code generation only */
    /* mf_pose_trig_refresh2's angles; their cos and sin computed, not cached: a solved bone's
     * angles rarely repeat, and its cache entries left to the dirty mark's local angles (every
     * other reader checks the keys) then mostly hit in the next frame's fill */
    float cshx = p->ashx[child], cshy = p->ashy[child];
    __m128 n = _mm_sub_ps(_mm_setzero_ps(), _mm_setr_ps(prot, prot, crot, crot));
    __m128 kf = _mm_add_ps(_mm_sub_ps(n, _mm_setr_ps(0.0f, -90.0f, cshx, -90.0f)),
                           _mm_setr_ps(-0.0f, 0.0f - 0.0f, -0.0f, 0.0f - cshy));
    __m128 ang = _mm_mul_ps(kf, _mm_set1_ps((float)MF_DEG));
    int in = _mm_movemask_ps(_mm_cmplt_ps(_mm_and_ps(ang, _mm_castsi128_ps(_mm_set1_epi32(0x7fffffff))),
                                          _mm_set1_ps(8192.0f)));
    if (__builtin_expect(in != 15, 0)) {
        two_commit(p, parent, child, pp, prot, fsx, fsy, crot, cyf); /* an angle past the range */
        return true;
    }
    p->arot[parent] = prot, p->asx[parent] = fsx, p->asy[parent] = fsy;
    p->ashx[parent] = 0, p->ashy[parent] = 0;
    p->ay[child] = cyf, p->arot[child] = crot;
    __m128 cs, sn;
    sincos4(ang, &cs, &sn);
    p->trig_computed += 2;
    /* the worlds (mf_pose_world_normal2): the parent's from its parent's, the child's from it */
    float qa = p->a[pp], qb = p->b[pp], qc = p->c[pp], qd = p->d[pp];
    __m128 qac = _mm_setr_ps(qa, qa, qc, qc), qbd = _mm_setr_ps(qb, qb, qd, qd);
    __m128 sc = _mm_setr_ps(fsx, fsy, p->asx[child], p->asy[child]);
    __m128 wm = world2x2(qac, qbd, cs, sn, sc, false);
    __m128 wt = world_xy(qac, qbd, p->ax[parent], p->ay[parent], _mm_setr_ps(p->wx[pp], 0.0f, p->wy[pp], 0.0f));
    __m128 mac = _mm_shuffle_ps(wm, wm, _MM_SHUFFLE(2, 2, 0, 0)), mbd = _mm_shuffle_ps(wm, wm, _MM_SHUFFLE(3, 3, 1, 1));
    __m128 cm = world2x2(mac, mbd, cs, sn, sc, true);
    __m128 ct = world_xy(mac, mbd, p->ax[child], cyf, wt);
    store4(p->a + parent, p->b + parent, p->c + parent, p->d + parent, wm);
    store4(p->a + child, p->b + child, p->c + child, p->d + child, cm);
    _mm_store_ss(p->wx + parent, wt), _mm_store_ss(p->wy + parent, _mm_movehl_ps(wt, wt));
    _mm_store_ss(p->wx + child, ct), _mm_store_ss(p->wy + child, _mm_movehl_ps(ct, ct));
    return true;
}
#endif

/* mf_pose_apply_ik's body; the fast passes where they answer, else the general ones. */
static inline __attribute__((always_inline)) void apply_ik(mf_pose *p, int32_t k)
{
    float mix = p->ik_mix[k];
    if (mix == 0) return;
    const mf_ik_fixed *f = &p->scratch->ik_fixed[k];
    int32_t t = f->target;
    if (f->kind == MF_IKF_ONE) {
        bool compress = p->ik_compress[k], stretch = p->ik_stretch[k];
#if MF_TRIG_SSE2
        if (ik_one_fast(p, f, compress, stretch, mix)) return;
#endif
        ik_one(p, f->bone, p->wx[t], p->wy[t], compress, stretch, f->uniform, mix);
        return;
    }
    float softness = p->ik_softness[k];
    int bend = p->ik_bend[k];
    bool stretch = p->ik_stretch[k];
#if MF_TRIG_SSE2
    if (f->kind == MF_IKF_CHAIN && ik_two_fast(p, k, f, bend, stretch, softness, mix)) return;
#endif
    ik_two(p, k, f->bone, f->child, p->wx[t], p->wy[t], bend, stretch, f->uniform, softness, mix);
}

/* flatten: the fast passes' helpers inlined (the baseline build: SSE2 where the fast passes
 * are compiled, plain scalar code elsewhere) */
static __attribute__((flatten)) void apply_ik_base(mf_pose *p, int32_t k) { apply_ik(p, k); }

#if MF_TRIG_AVX2
/* The same compiled for AVX2 (chosen at run time, pose_trig_avx2.c): the same operations, the
 * VEX forms (three operands: fewer copies); no fused multiply-adds. */
__attribute__((flatten, target("avx2"))) void mf_pose_apply_ik_avx2(mf_pose *p, int32_t k) { apply_ik(p, k); }
#endif

void mf_pose_apply_ik(mf_pose *p, int32_t k)
{
#if MF_TRIG_AVX2
    if (p->scratch->trig_avx2) {
        mf_pose_apply_ik_avx2(p, k);
        return;
    }
#endif
    apply_ik_base(p, k);
}
