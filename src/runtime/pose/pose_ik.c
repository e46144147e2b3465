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

/* flatten: the cache refresh inlined (the solved bone always misses it; the call cost more) */
static __attribute__((flatten)) void ik_one(mf_pose *p, int32_t bone, float tx_w, float ty_w, bool compress,
                                            bool stretch, bool uniform, float mix)
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
            a2 = atan2_pass(sq, cs, fast, off) * bend;
            sn = sq * bend;
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

/* The two-bone solve: every case (inherit modes, non-uniform parent scale, a child on the
 * parent's origin, bones that are no chain). */
static void ik_two(mf_pose *p, int32_t con, int32_t parent, int32_t child, float tx_w, float ty_w, int bend,
                   bool stretch, bool uniform, float softness, float mix)
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


/* mf_pose_apply_ik's body. */
static inline __attribute__((always_inline)) void apply_ik(mf_pose *p, int32_t k)
{
    const mf_sd_ik *ik = &p->data->ik[k];
    float mix = p->ik_mix[k];
    if (mix == 0) return;
    int32_t t = ik->target;
    const int32_t *bones = p->data->bone_lists + ik->bone_first;
    if (ik->bone_count == 1) {
        bool compress = p->ik_compress[k], stretch = p->ik_stretch[k];
        ik_one(p, bones[0], p->wx[t], p->wy[t], compress, stretch, ik->uniform, mix);
        return;
    }
    int32_t parent = bones[0], child = bones[1];
    float softness = p->ik_softness[k];
    int bend = p->ik_bend[k];
    bool stretch = p->ik_stretch[k];
    ik_two(p, k, parent, child, p->wx[t], p->wy[t], bend, stretch, ik->uniform, softness, mix);
}

void mf_pose_apply_ik(mf_pose *p, int32_t k) { apply_ik(p, k); }
