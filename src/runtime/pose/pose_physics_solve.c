/* The physics constraint solver: a damped spring per channel, stepped at a fixed rate.
 *
 * Each constraint remembers its bone's animated origin and the tip (origin plus the x axis
 * times the length) as it was shown last frame. When the bone moves, it lags by `inertia`:
 *   - translation: the offset keeps the fraction inertia of the origin's movement, at most
 *     the speed limit over one step (a root jumping back on a loop wrap barely whips);
 *   - rotation and shearX: the angle keeps the fraction inertia of the turn towards last
 *     frame's shown tip, seen from the origin as now shown (so a translation channel's lag
 *     turns the bone too);
 *   - scaleX: the bone stretches by the fraction inertia of the shown origin's movement
 *     against its shown direction, over its length.
 * Fixed steps then pull each offset back with a spring (strength / mass) and damp its velocity
 * (damping is the fraction kept per 1/60 s). Gravity (+y) and wind (+x) push the translation
 * (×100 px/s²), turn the bone by their torque about its origin (the force across the bone times
 * its length / 100) and stretch it by their pull along it. The offsets are applied to the
 * bone's world transform, scaled by each channel's amount and the mixes, and its local values
 * recomputed so that children follow. The constants were fitted to the Spine runtime's output
 * on the probe-physics rig (docs/physics.md). */
#include <stddef.h>
#include <string.h>

#include "pose_applied.h"
#include "pose_atan.h"
#include "pose_internal.h"
#include "pose_trig.h"

#if defined(__SSE2__) && !defined(MF_NO_SIMD)
#define MF_PHYS_SSE2 1
#include <emmintrin.h>
#else
#define MF_PHYS_SSE2 0
#endif

#if MF_PHYS_SSE2
/* mf_atan2_ff (pose_atan.h) of (y0, x0) and (y1, x1), f = {x0, x1, y0, y1}, in the lanes of one
 * vector through mf_atan2_pd: each lane keeps the scalar's bits. The pairs libm answers (a NaN
 * ratio) go to the scalar. */
static inline __m128d atan2_packed(__m128 f)
{
    __m128d x = _mm_cvtps_pd(f), y = _mm_cvtps_pd(_mm_movehl_ps(f, f));
    bool nan;
    __m128d r = mf_atan2_pd(y, x, &nan);
    if (__builtin_expect(nan, 0)) {
        float v[4];
        _mm_storeu_ps(v, f);
        return _mm_setr_pd(mf_atan2_ff(v[2], v[0]), mf_atan2_ff(v[3], v[1]));
    }
    return r;
}
#endif

/* Two floats, an x and a y, worked on together: with SSE2 in the low lanes of a vector (one
 * instruction for both, each lane's operation that of the scalar), else as a struct. */
#if MF_PHYS_SSE2
typedef __m128 pair;
static inline pair pair_of(float x, float y) { return _mm_setr_ps(x, y, x, y); } /* no zeroing: 2 instructions */
static inline pair pload(const float *q)
{
    double t;
    memcpy(&t, q, sizeof t);
    return _mm_castpd_ps(_mm_set_sd(t));
}
static inline void pstore(float *q, pair v)
{
    double t = _mm_cvtsd_f64(_mm_castps_pd(v));
    memcpy(q, &t, sizeof t);
}
static inline float px(pair v) { return _mm_cvtss_f32(v); }
static inline float py(pair v) { return _mm_cvtss_f32(_mm_shuffle_ps(v, v, 1)); }
static inline pair padd(pair a, pair b) { return _mm_add_ps(a, b); }
static inline pair psub(pair a, pair b) { return _mm_sub_ps(a, b); }
static inline pair pmul(pair a, pair b) { return _mm_mul_ps(a, b); }
static inline pair pscale(pair a, float s) { return _mm_mul_ps(a, _mm_set1_ps(s)); }
/* each clamped to [-m, m] for m >= 0, NaN kept (as x > m ? m : x < -m ? -m : x): max then
 * min, which return their second operand on a NaN */
static inline pair pclamp(pair x, float m)
{
    return _mm_min_ps(_mm_set1_ps(m), _mm_max_ps(_mm_set1_ps(-m), x));
}
/* mf_atan2f of (b.y, b.x) and (r.y, r.x) */
static inline pair atan2f_two(pair b, pair r) { return _mm_cvtpd_ps(atan2_packed(_mm_unpacklo_ps(b, r))); }
/* mf_atan2d of (y0, x0) and (y1, x1) */
static inline pair atan2d_two(float y0, float x0, float y1, float x1)
{
    __m128d deg = _mm_set1_pd(180.0 / 3.14159265358979323846);
    return _mm_cvtpd_ps(_mm_mul_pd(atan2_packed(_mm_setr_ps(x0, x1, y0, y1)), deg));
}
#else
typedef struct pair {
    float x, y;
} pair;
static inline pair pair_of(float x, float y) { return (pair){x, y}; }
static inline pair pload(const float *q) { return (pair){q[0], q[1]}; }
static inline void pstore(float *q, pair v) { q[0] = v.x, q[1] = v.y; }
static inline float px(pair v) { return v.x; }
static inline float py(pair v) { return v.y; }
static inline pair padd(pair a, pair b) { return (pair){a.x + b.x, a.y + b.y}; }
static inline pair psub(pair a, pair b) { return (pair){a.x - b.x, a.y - b.y}; }
static inline pair pmul(pair a, pair b) { return (pair){a.x * b.x, a.y * b.y}; }
static inline pair pscale(pair a, float s) { return (pair){a.x * s, a.y * s}; }
/* x clamped to [-m, m] for m >= 0, NaN kept (as x > m ? m : x < -m ? -m : x): each pick as
 * SSE's max or min, which return their second operand on a NaN */
static inline float clampf(float x, float m)
{
    float lo = -m;
    x = lo > x ? lo : x;
    return m < x ? m : x;
}
static inline pair pclamp(pair x, float m) { return (pair){clampf(x.x, m), clampf(x.y, m)}; }
static inline pair atan2f_two(pair b, pair r) { return (pair){mf_atan2f(b.y, b.x), mf_atan2f(r.y, r.x)}; }
static inline pair atan2d_two(float y0, float x0, float y1, float x1)
{
    return (pair){mf_atan2d(y0, x0), mf_atan2d(y1, x1)};
}
#endif

/* sqrtf of a sum of squares (>= 0 or NaN): with SSE2 the instruction alone, without the
 * branch to libm for errno on a negative argument that cannot come. */
static inline float sqrt_sq(float x)
{
#if MF_PHYS_SSE2
    return _mm_cvtss_f32(_mm_sqrt_ps(_mm_set1_ps(x)));
#else
    return sqrtf(x);
#endif
}

/* Remembers bone i's origin and tip (origin plus the x axis times the length) as shown. */
static void keep_tip(const mf_pose *p, int32_t i, float len, float *st)
{
    st[MF_PS_UX] = p->wx[i], st[MF_PS_UY] = p->wy[i];
    st[MF_PS_TX] = p->wx[i] + p->a[i] * len, st[MF_PS_TY] = p->wy[i] + p->c[i] * len;
}

/* Rest at bone i's current pose: no offsets, velocity, pending movement or pending time. */
static void rest(const mf_pose *p, int32_t i, float len, float *st, double *remaining)
{
    for (int32_t j = 0; j < MF_PHYS_STATE; j++) st[j] = 0;
    *remaining = 0;
    st[MF_PS_INIT] = 1;
    keep_tip(p, i, len, st);
}

/* An angle wrapped to [-pi, pi); most are already inside (the division only for the rest). */
static float wrap_angle(float r)
{
    const float pi = 3.14159265f;
    if (__builtin_expect(r >= -pi && r < pi, 1)) return r;
    return r - 2 * pi * floorf((r + pi) / (2 * pi));
}

typedef mf_phys_spring spring;

/* mf_pose_physics_spring's body, inline in the solver's update. */
static inline spring spring_of(const float *v, float fx, float fy, float h, float e)
{
    spring sp = {.fx = fx, .fy = fy, .h = h};
    sp.mass = v[MF_PHYS_V_MASS] > 0.0001f ? v[MF_PHYS_V_MASS] : 0.0001f;
    sp.k = v[MF_PHYS_V_STRENGTH] / sp.mass;
    sp.tx = fx * 100.0f / sp.mass, sp.ty = fy * 100.0f / sp.mass;
    float damp = v[MF_PHYS_V_DAMPING];
    uint32_t db, eb;
    memcpy(&db, &damp, sizeof db), memcpy(&eb, &e, sizeof eb);
    if (db - 1u < 0x3f7fffffu && eb == 0x3f800000u) sp.damp = damp; /* in (0, 1) and e = 1: as it is */
    else sp.damp = damp <= 0 ? 0 : damp >= 1 ? 1 : e == 1.0f ? damp : mf_powf_pos(damp, e);
    return sp;
}

mf_phys_spring mf_pose_physics_spring(const float *v, float fx, float fy, float h, float e)
{
    return spring_of(v, fx, fy, h, e);
}

_Static_assert(MF_PHYS_V_DAMPING == MF_PHYS_V_STRENGTH + 1 && MF_PHYS_V_MASS == MF_PHYS_V_STRENGTH + 2 &&
                   MF_PHYS_V_COUNT >= MF_PHYS_V_STRENGTH + 4,
               "strength, damping and mass side by side, a value after them (one 16-byte load)");

/* Fills cache c from values v: spring_of's constants (k, damp, mass) and their inputs' bits. */
static void spring_fill(mf_phys_spring_cache *c, const float *v, float e)
{
    spring sp = spring_of(v, 0, 0, 0, e);
    memcpy(c->key, v + MF_PHYS_V_STRENGTH, 3 * sizeof(float));
    c->key[3] = 0;
    c->k = sp.k, c->damp = sp.damp, c->mass = sp.mass, c->pad = 0;
}

/* Constraint k's spring: the constants as last computed unless a bit of strength, damping or
 * mass changed since (most frames none did), the forces (wind and gravity, which timelines
 * move more often) each time, as spring_of does. */
static inline spring spring_cached(const mf_pose_scratch *s, const float *v, mf_phys_fixed *f)
{
    const mf_phys_spring_cache *c = &f->spring;
#if MF_PHYS_SSE2
    __m128i key = _mm_loadu_si128((const __m128i *)(const void *)(v + MF_PHYS_V_STRENGTH));
    __m128i eq = _mm_cmpeq_epi32(key, _mm_loadu_si128((const __m128i *)(const void *)c->key));
    bool hit = (_mm_movemask_epi8(eq) & 0xfff) == 0xfff;
#else
    bool hit = memcmp(v + MF_PHYS_V_STRENGTH, c->key, 3 * sizeof(float)) == 0;
#endif
    if (__builtin_expect(!hit, 0)) spring_fill(&f->spring, v, f->e);
    spring sp;
    sp.k = c->k, sp.damp = c->damp, sp.mass = c->mass;
    sp.fx = v[MF_PHYS_V_WIND] + s->phys_wind, sp.fy = v[MF_PHYS_V_GRAVITY] + s->phys_gravity;
    sp.tx = sp.fx * 100.0f / sp.mass, sp.ty = sp.fy * 100.0f / sp.mass;
    sp.h = (float)f->step;
    return sp;
}

/* One step of an offset o and its velocity ov under an acceleration a. */
static void spring_step(const spring *sp, float *o, float *ov, float a)
{
    *ov += (a - sp->k * *o) * sp->h;
    *o += *ov * sp->h;
    *ov *= sp->damp;
}

/* The steps of the rotation/shear and scale channels. The bone's shown direction is its
 * animated angle ca plus the rotation offset times mr, taken at each step; its cos and sin feed
 * the torque and pull of wind and gravity. Without either (calm: both 0, the usual case) those
 * are zeros whatever the direction, so it is not computed: a +0 in the place of the -0 the
 * products give at times only changes the sign of a zero velocity, never an offset (an offset
 * only ever has values added, from +0 at rest, so it is never -0 itself, and adding a zero of
 * either sign leaves it as it is). cs0, sn0: the first step's cos and sin when known (have0). */
static void steps_turn(float *restrict st, uint8_t chan, const spring *sp, float ca, float mr,
                       float len, int32_t steps, bool have0, float cs0, float sn0)
{
    bool turn = chan & (MF_PF_ROTATE | MF_PF_SHEAR), stretch = chan & MF_PF_SCALE;
    bool calm = sp->fx == 0 && sp->fy == 0 && len < INFINITY;
    for (int32_t k = 0; k < steps; k++) {
        float sa = ca + st[MF_PS_RO] * mr, torque = 0, pull = 0;
        if (__builtin_expect(!calm || !isfinite(sa), 0)) { /* a NaN or infinite direction spreads as it would */
            float ux = cs0, uy = sn0;
            if (k != 0 || !have0) mf_sincos_r(sa, &ux, &uy);
            torque = (ux * sp->fy - uy * sp->fx) * len * 0.01f; /* the force across, × length */
            pull = ux * sp->fx + uy * sp->fy;                   /* the force along the bone */
        }
        if (turn) spring_step(sp, &st[MF_PS_RO], &st[MF_PS_RV], torque / sp->mass);
        if (stretch) spring_step(sp, &st[MF_PS_SO], &st[MF_PS_SV], pull / sp->mass);
    }
}

/* cos of degrees (mf_sincos_r's); 1 below 2^-12.5 radians, where cos rounds to 1 anyway (x^2/2 < 2^-26):
 * the shear update_applied leaves on a merely turned bone is rounding noise. */
static float cos_deg(float deg)
{
    float r = deg * (float)MF_DEG;
    if (fabsf(r) < 1.7e-4f) return 1.0f;
    float c, s;
    mf_sincos_r(r, &c, &s);
    return c;
}

/* A bone the constraint only moved: when its applied values are plain (normal inheritance, no
 * shears, positive x scale, rotation inside atan2's range), decomposing its unchanged 2x2
 * gives them back up to rounding, so only the origin is recomputed (as update_applied does)
 * and the decomposition skipped. Returns false when the full update is needed. */
static bool origin_only(mf_pose *p, int32_t i, int32_t par)
{
    if (p->inherit[i] != MF_SD_INHERIT_NORMAL || p->ashx[i] != 0 || p->ashy[i] != 0 ||
        !(p->asx[i] > 0.0001f) || !(p->arot[i] > -180.0f && p->arot[i] < 180.0f))
        return false;
    mf_pose_applied_origin(p, i, par);
    return true;
}

/* mf_pose_applied_normal (pose_applied.h) for the constraint's bone, of world 2x2 (a, b, c, d)
 * at (wx, wy), then the y scale times cos(shearY) (see mf_pose_apply_physics): the same
 * operations on the same values, the two atan2 (rotation and y shear) in one atan2d_two. A copy
 * kept here so the solver's call inlines: a change to mf_pose_applied_decompose's Normal case
 * must be made here too (the parity suites catch a drift). */
static void applied_normal(mf_pose *p, int32_t i, int32_t par, float a, float b, float c, float d,
                           float wx, float wy)
{
    p->scratch->world_valid[i] = 0; /* applied values not from the local ones: compute it next */
    float pa = p->a[par], pb = p->b[par], pc = p->c[par], pd = p->d[par];
    float pdet = pa * pd - pb * pc;
    float inv = fabsf(pdet) > 1e-12f ? 1.0f / pdet : 0.0f;
    float dx = wx - p->wx[par], dy = wy - p->wy[par];
    p->ax[i] = (dx * pd - dy * pb) * inv;
    p->ay[i] = (dy * pa - dx * pc) * inv;
    float r0 = (pd * a - pb * c) * inv, r1 = (pd * b - pb * d) * inv, r2 = (pa * c - pc * a) * inv,
          r3 = (pa * d - pc * b) * inv;
    p->ashx[i] = 0;
    float sx = sqrt_sq(r0 * r0 + r2 * r2);
    if (sx > 0.0001f) {
        float det = r0 * r3 - r1 * r2;
        float sy = sqrt_sq(r1 * r1 + r3 * r3);
        if (det < 0) sy = -sy;
        float dot = r0 * r1 + r2 * r3;
        pair an = atan2d_two(r2, r0, fabsf(det), det < 0 ? -dot : dot);
        float shy = sy != 0 ? py(an) - 90.0f : 0.0f;
        p->asx[i] = sx, p->asy[i] = sy * cos_deg(shy);
        p->arot[i] = px(an) + 0.0f; /* + 0: -0 as +0, as the shared code's extra_rot */
        p->ashy[i] = shy;
    } else {
        p->asx[i] = 0;
        p->asy[i] = sqrt_sq(r1 * r1 + r3 * r3) * cos_deg(0.0f);
        p->ashy[i] = 0;
        p->arot[i] = 90.0f - mf_atan2d(r3, r1) + 0.0f;
    }
}

/* The constraint's fixed step in double: 1 / fps recovered from the stored float, so that the
 * time summed in double is consumed at the reference's ticks. */
static double fixed_step(const mf_sd_physics *c)
{
    if (!(c->step > 0) || c->step == (float)(1.0 / 60.0)) return 1.0 / 60.0; /* the default */
    double step = c->step > 0 ? c->step : 1.0 / 60.0, fps = floor(1.0 / step + 0.5);
    if (fps >= 1 && fabs(1.0 / step - fps) < 1e-3 * fps) step = 1.0 / fps;
    return step;
}

void mf_pose_physics_fixed(const mf_skel_data *d, int32_t k, mf_phys_fixed *f)
{
    const mf_sd_physics *c = &d->physics[k];
    f->step = fixed_step(c);
    f->cap = (c->limit > 0 ? c->limit : 5000.0f) * (float)f->step;
    f->e = 60.0f * (float)f->step;
    f->bone = c->bone;
    f->parent = d->bones[c->bone].parent;
    f->len = d->bones[c->bone].length;
    f->turn = c->rotate + c->shear_x;
    f->xy = c->x > 0 || c->y > 0;
    f->chan = (uint8_t)((c->rotate > 0 ? MF_PF_ROTATE : 0) | (c->shear_x > 0 ? MF_PF_SHEAR : 0) |
                        (c->scale_x > 0 ? MF_PF_SCALE : 0));
    f->spin = f->len > 0 && f->chan != 0;
    f->skin_required = (c->flags & MF_SD_PHYS_SKIN_REQUIRED) != 0;
    f->x = c->x, f->y = c->y, f->rotate = c->rotate, f->shear_x = c->shear_x, f->scale_x = c->scale_x;
    f->state = NULL, f->values = NULL, f->remaining = NULL; /* a pose's: mf_pose_physics_prepare */
    memset(&f->spring, 0, sizeof f->spring);
}

void mf_pose_physics_prepare(mf_pose *p)
{
    mf_pose_scratch *s = p->scratch;
    for (int32_t k = 0; k < p->data->physics_count; k++) {
        mf_phys_fixed *f = &s->phys_fixed[k];
        mf_pose_physics_fixed(p->data, k, f);
        f->state = s->phys_state + (size_t)k * MF_PHYS_STATE;
        f->values = s->phys_values + (size_t)k * MF_PHYS_V_COUNT;
        f->remaining = &s->phys_remaining[k];
        /* the spring cache starts true to its key, whatever the values hold yet */
        spring_fill(&f->spring, f->values, f->e);
    }
}

/* Update mode: lag behind the frame's movement, then step the springs. The state is kept in
 * locals and written back once; a: the bone's animated origin. The x and y channels go in
 * pairs. */
static inline void update(mf_pose *p, mf_phys_fixed *f,
                          const float *v, float mix, pair a, float *restrict st)
{
    mf_pose_scratch *s = p->scratch;
    int32_t i = f->bone;
    float len = f->len;
    float mr = f->turn * mix; /* how far the shown tip turns per radian */
    pair d = padd(psub(a, pload(st + MF_PS_UX)), pload(st + MF_PS_MOVE_X)); /* the movement */
    double remaining = *f->remaining;
    float teleport = s->phys_teleport;
    if (teleport > 0) {
        pair d2 = pmul(d, d);
        if (__builtin_expect(px(d2) + py(d2) > teleport * teleport, 0)) {
            rest(p, i, len, st, f->remaining); /* a teleport: start over here */
            d = pair_of(0, 0);
        }
    }
    /* the speed limit (px/s) over one fixed step caps, per axis, the translation channel's lag
     * (the movement times inertia) and, below, the shown origin's movement that turns and
     * stretches the bone (before inertia). Fitted on sack's fall and loop wrap (a root jumping
     * ~2900 px lags only limit/60 px) and celestial-circus' swing; other caps fit worse */
    float inertia = v[MF_PHYS_V_INERTIA];
    pair o = pload(st + MF_PS_XO); /* the translation offsets before */
    double step = f->step;
    float limit = f->cap;
    bool capped = remaining > 0; /* no time passed: no speed to cap */
    pair u = pscale(d, inertia);
    if (capped) u = pclamp(u, limit);
    pair n = psub(o, u); /* and after */
    int32_t steps = mf_pose_physics_steps(&remaining, step);
    *f->remaining = remaining;
    st[MF_PS_MOVE_X] = st[MF_PS_MOVE_Y] = 0;
    spring sp = {0}; /* only when a step runs (its damping may need mf_powf_pos) */
    if (steps > 0) sp = spring_cached(s, v, f);
    /* translation first: the bone then turns about its origin as shown this frame; forces in
     * px/s² per 1/100, so that gravity 80 under strength 100 rests 80 px away. Each step of the
     * offsets n and velocities nv as spring_step's */
    if (f->xy && steps > 0) {
        pair nv = pload(st + MF_PS_XV), acc = pair_of(sp.tx, sp.ty);
        for (int32_t j = 0; j < steps; j++) {
            nv = padd(nv, pscale(psub(acc, pscale(n, sp.k)), sp.h));
            n = padd(n, pscale(nv, sp.h));
            nv = pscale(nv, sp.damp);
        }
        pstore(st + MF_PS_XV, nv);
    }
    pstore(st + MF_PS_XO, n);
    if (!f->spin) return;
    float ba = p->a[i], bc = p->c[i];
    /* the origin's movement as shown (the animated one plus the translation channel's change,
     * capped as a whole: hair-back-down in celestial-circus' swing), and last frame's shown tip
     * seen from the new origin */
    pair cxy = pload(&f->x);
    pair m = padd(d, pscale(pmul(psub(n, o), cxy), mix));
    if (capped) m = pclamp(m, limit);
    pair r = psub(psub(psub(pload(st + MF_PS_TX), pload(st + MF_PS_UX)), m), pscale(pmul(o, cxy), mix));
    pair an = atan2f_two(pair_of(ba, bc), r); /* the bone's animated direction and the old tip's */
    float ca = px(an), ro = st[MF_PS_RO];
    ro += wrap_angle(py(an) - ca - ro * mr) * inertia;
    float sa = ca + ro * mr, cs = 0, sn = 0;
    bool have = false; /* cs, sn: the first step's too (the same angle) */
    float so = st[MF_PS_SO];
    if (f->chan & MF_PF_SCALE) {
        float xl = sqrt_sq(ba * ba + bc * bc);
        if (len * xl > 1e-6f) {
            mf_sincos_r(sa, &cs, &sn), have = true;
            so -= (px(m) * cs + py(m) * sn) / (len * xl) * inertia;
        }
    }
    st[MF_PS_RO] = ro, st[MF_PS_SO] = so;
    if (steps > 0) steps_turn(st, f->chan, &sp, ca, mr, len, steps, have, cs, sn);
}

static void rotate_axis(float *x, float *y, float cs, float sn)
{
    float nx = *x * cs - *y * sn, ny = *x * sn + *y * cs;
    *x = nx, *y = ny;
}

_Static_assert(MF_PS_RESET == MF_PS_INIT + 1, "INIT and RESET side by side (one 8-byte test)");
/* pload/pstore read and write an x and its y as one 8-byte pair */
_Static_assert(MF_PS_UY == MF_PS_UX + 1 && MF_PS_TY == MF_PS_TX + 1 && MF_PS_YO == MF_PS_XO + 1 &&
                   MF_PS_YV == MF_PS_XV + 1 && MF_PS_MOVE_Y == MF_PS_MOVE_X + 1,
               "the state's x and y channels side by side");
_Static_assert(offsetof(mf_phys_fixed, y) == offsetof(mf_phys_fixed, x) + sizeof(float),
               "the constraint's x and y mixes side by side");

/* mf_pose_apply_physics's body. */
static inline __attribute__((always_inline)) void apply_physics(mf_pose *p, int32_t k)
{
    mf_pose_scratch *s = p->scratch;
    mf_phys_fixed *f = &s->phys_fixed[k]; /* its spring cache may be refreshed */
    if (!mf_pose_physics_runs_fixed(p, k, f)) return;
    int32_t i = f->bone;
    float *restrict st = f->state;
    const float *v = f->values;
    float len = f->len;
    float ax = p->wx[i], ay = p->wy[i];
    pair a0 = pair_of(ax, ay);
    float mix = v[MF_PHYS_V_MIX] * s->phys_mix;
    int32_t mode = s->phys_mode;
    if (__builtin_expect(mode == MF_PHYSICS_NONE, 0)) {
        keep_tip(p, i, len, st); /* so that switching back does not see a jump */
        *f->remaining = 0, st[MF_PS_MOVE_X] = st[MF_PS_MOVE_Y] = 0;
        return;
    }
    bool resting = false; /* a reset this update: rest here and step nothing */
    /* INIT and RESET are most frames ±1 and ±0: one test of their bits (sign bits off) says so,
     * else their compares decide */
    const float settled[2] = {1.0f, 0.0f};
    uint64_t flags, usual;
    memcpy(&flags, st + MF_PS_INIT, sizeof flags), memcpy(&usual, settled, sizeof usual);
    if (__builtin_expect((flags & 0x7fffffff7fffffffull) != usual, 0) &&
        (st[MF_PS_INIT] == 0 || st[MF_PS_RESET] != 0)) {
        /* a reset drops the time left over from earlier frames but keeps this frame's for the
         * next update, as the reference runtime does (its steps then fall on other frames) */
        resting = st[MF_PS_INIT] != 0;
        rest(p, i, len, st, f->remaining);
        if (resting) *f->remaining = s->phys_frame_dt;
    }
    if (mode == MF_PHYSICS_UPDATE) {
        if (!resting) update(p, f, v, mix, a0, st);
        pstore(st + MF_PS_UX, a0); /* the origin as animated: next frame's lag */
    } else {
        *f->remaining = 0, st[MF_PS_MOVE_X] = st[MF_PS_MOVE_Y] = 0;
    }
    if (mix != 0) {
        uint8_t chan = f->chan;
        float r = st[MF_PS_RO] * mix;
        /* the turns' cos and sin first (the runtime's own, inline: no libm call), then the 2x2
         * turned in registers */
        float rc = 1, rs = 0, hc = 1, hs = 0;
        if (chan & MF_PF_ROTATE) mf_sincos_r(r * f->rotate, &rc, &rs);
        if (chan & MF_PF_SHEAR) mf_sincos_r(r * f->shear_x, &hc, &hs);
        pair w = padd(a0, pscale(pmul(pload(st + MF_PS_XO), pload(&f->x)), mix));
        float wx = px(w), wy = py(w);
        float a = p->a[i], cc = p->c[i];
        float b = p->b[i], d = p->d[i];
        if (chan & MF_PF_ROTATE) {
            rotate_axis(&a, &cc, rc, rs);
            rotate_axis(&b, &d, rc, rs);
            p->b[i] = b, p->d[i] = d;
        }
        if (chan & MF_PF_SHEAR) rotate_axis(&a, &cc, hc, hs); /* shear turns the x axis only */
        if (chan & MF_PF_SCALE) {
            float g = 1 + st[MF_PS_SO] * f->scale_x * mix;
            a *= g, cc *= g;
        }
        p->wx[i] = wx, p->wy[i] = wy;
        p->a[i] = a, p->c[i] = cc;
        /* the tip first: nothing of it is then kept across the applied update's calls */
        if (mode == MF_PHYSICS_UPDATE) /* the tip as shown: next frame's lag */
            pstore(st + MF_PS_TX, padd(pair_of(wx, wy), pscale(pair_of(a, cc), len)));
        if (chan || !origin_only(p, i, f->parent)) {
            if (f->parent >= 0 && p->inherit[i] == MF_SD_INHERIT_NORMAL)
                applied_normal(p, i, f->parent, a, b, cc, d, wx, wy);
            else {
                mf_pose_applied_update(p, i);
                /* the reference keeps as the y scale the y axis' part across the x axis (det /
                 * scaleX), not its length, so a bone re-posed from these values (when a later
                 * constraint moves its parent) has its y axis shortened by cos(shearY): sack's
                 * cape under its squashed parent. Done here only, where the parity data shows
                 * it (applied_normal does the same). */
                p->asy[i] *= cos_deg(p->ashy[i]);
            }
        }
    } else if (mode == MF_PHYSICS_UPDATE) {
        pstore(st + MF_PS_TX, padd(pair_of(ax, ay), pscale(pair_of(p->a[i], p->c[i]), len)));
    }
}

/* The solve compiled as it is for the baseline, and again for AVX2 (chosen at run time as the
 * IK's and the dirty mark's are): the same operations in the VEX forms (three operands: fewer
 * copies), no fused multiply-adds. */
static __attribute__((noinline)) void apply_physics_base(mf_pose *p, int32_t k) { apply_physics(p, k); }

#if MF_TRIG_AVX2
static __attribute__((noinline, flatten, target("avx2"))) void apply_physics_avx2(mf_pose *p, int32_t k) { apply_physics(p, k); }
#endif

void mf_pose_apply_physics(mf_pose *p, int32_t k)
{
#if MF_TRIG_AVX2
    if (p->scratch->trig_avx2) {
        apply_physics_avx2(p, k);
        return;
    }
#endif
    apply_physics_base(p, k);
}
