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
#include <string.h>

#include "pose_applied.h"
#include "pose_atan.h"
#include "pose_internal.h"

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

/* x clamped to [-m, m]. */
static float clampf(float x, float m) { return x > m ? m : x < -m ? -m : x; }

/* An angle wrapped to [-pi, pi); most are already inside (the division only for the rest). */
static float wrap_angle(float r)
{
    const float pi = 3.14159265f;
    if (r >= -pi && r < pi) return r;
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
    sp.damp = damp <= 0 ? 0 : damp >= 1 ? 1 : e == 1.0f ? damp : powf(damp, e);
    return sp;
}

mf_phys_spring mf_pose_physics_spring(const float *v, float fx, float fy, float h, float e)
{
    return spring_of(v, fx, fy, h, e);
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
        if (!calm || !isfinite(sa)) { /* a NaN or infinite direction spreads as it would */
            float ux = k == 0 && have0 ? cs0 : cosf(sa), uy = k == 0 && have0 ? sn0 : sinf(sa);
            torque = (ux * sp->fy - uy * sp->fx) * len * 0.01f; /* the force across, × length */
            pull = ux * sp->fx + uy * sp->fy;                   /* the force along the bone */
        }
        if (turn) spring_step(sp, &st[MF_PS_RO], &st[MF_PS_RV], torque / sp->mass);
        if (stretch) spring_step(sp, &st[MF_PS_SO], &st[MF_PS_SV], pull / sp->mass);
    }
}

/* cos of degrees; 1 below 2^-12.5 radians, where cosf rounds to 1 anyway (x^2/2 < 2^-26):
 * the shear update_applied leaves on a merely turned bone is rounding noise. */
static float cos_deg(float deg)
{
    float r = deg * (float)MF_DEG;
    return fabsf(r) < 1.7e-4f ? 1.0f : cosf(r);
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

static void rotate_axis(float *x, float *y, float cs, float sn)
{
    float nx = *x * cs - *y * sn, ny = *x * sn + *y * cs;
    *x = nx, *y = ny;
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
}

void mf_pose_physics_prepare(mf_pose *p)
{
    for (int32_t k = 0; k < p->data->physics_count; k++) mf_pose_physics_fixed(p->data, k, &p->scratch->phys_fixed[k]);
}

/* Update mode: lag behind the frame's movement, then step the springs. */
static void update(mf_pose *p, int32_t k, const mf_phys_fixed *f, float mix, float *restrict st)
{
    mf_pose_scratch *s = p->scratch;
    const mf_sd_physics *c = &p->data->physics[k];
    const float *v = s->phys_values + (size_t)k * MF_PHYS_V_COUNT;
    int32_t i = f->bone;
    float len = f->len;
    float ax = p->wx[i], ay = p->wy[i];
    float mr = f->turn * mix; /* how far the shown tip turns per radian */
    float dx = ax - st[MF_PS_UX] + st[MF_PS_MOVE_X], dy = ay - st[MF_PS_UY] + st[MF_PS_MOVE_Y];
    double remaining = s->phys_remaining[k];
    if (s->phys_teleport > 0 && dx * dx + dy * dy > s->phys_teleport * s->phys_teleport) {
        rest(p, i, len, st, &s->phys_remaining[k]); /* a teleport: start over here */
        dx = dy = 0;
    }
    /* the speed limit (px/s) over one fixed step caps, per axis, the translation channel's lag
     * (the movement times inertia) and, below, the shown origin's movement that turns and
     * stretches the bone (before inertia). Fitted on sack's fall and loop wrap (a root jumping
     * ~2900 px lags only limit/60 px) and celestial-circus' swing; other caps fit worse */
    float inertia = v[MF_PHYS_V_INERTIA], xo = st[MF_PS_XO], yo = st[MF_PS_YO];
    double step = f->step;
    float limit = f->cap;
    bool capped = remaining > 0; /* no time passed: no speed to cap */
    float ux = dx * inertia, uy = dy * inertia;
    if (capped) ux = clampf(ux, limit), uy = clampf(uy, limit);
    st[MF_PS_XO] -= ux;
    st[MF_PS_YO] -= uy;
    int32_t steps = mf_pose_physics_steps(&remaining, step);
    s->phys_remaining[k] = remaining;
    st[MF_PS_MOVE_X] = st[MF_PS_MOVE_Y] = 0;
    spring sp = {0}; /* only when a step runs (its damping may need powf) */
    if (steps > 0)
        sp = spring_of(v, v[MF_PHYS_V_WIND] + s->phys_wind, v[MF_PHYS_V_GRAVITY] + s->phys_gravity,
                       (float)step, f->e);
    /* translation first: the bone then turns about its origin as shown this frame; forces in
     * px/s² per 1/100, so that gravity 80 under strength 100 rests 80 px away */
    if (f->xy)
        for (int32_t j = 0; j < steps; j++) {
            spring_step(&sp, &st[MF_PS_XO], &st[MF_PS_XV], sp.tx);
            spring_step(&sp, &st[MF_PS_YO], &st[MF_PS_YV], sp.ty);
        }
    if (!f->spin) return;
    float ca = mf_atan2f(p->c[i], p->a[i]); /* the bone's animated direction */
    /* the origin's movement as shown (the animated one plus the translation channel's change,
     * capped as a whole: hair-back-down in celestial-circus' swing), and last frame's shown tip
     * seen from the new origin */
    float mx = dx + (st[MF_PS_XO] - xo) * c->x * mix, my = dy + (st[MF_PS_YO] - yo) * c->y * mix;
    if (capped) mx = clampf(mx, limit), my = clampf(my, limit);
    float rx = st[MF_PS_TX] - st[MF_PS_UX] - mx - xo * c->x * mix;
    float ry = st[MF_PS_TY] - st[MF_PS_UY] - my - yo * c->y * mix;
    st[MF_PS_RO] += wrap_angle(mf_atan2f(ry, rx) - ca - st[MF_PS_RO] * mr) * inertia;
    float sa = ca + st[MF_PS_RO] * mr, cs = 0, sn = 0;
    bool have = false; /* cs, sn: the first step's too (the same angle) */
    if (f->chan & MF_PF_SCALE) {
        float xl = sqrtf(p->a[i] * p->a[i] + p->c[i] * p->c[i]);
        if (len * xl > 1e-6f) {
            cs = cosf(sa), sn = sinf(sa), have = true;
            st[MF_PS_SO] -= (mx * cs + my * sn) / (len * xl) * inertia;
        }
    }
    steps_turn(st, f->chan, &sp, ca, mr, len, steps, have, cs, sn);
}

void mf_pose_apply_physics(mf_pose *p, int32_t k)
{
    mf_pose_scratch *s = p->scratch;
    const mf_phys_fixed *f = &s->phys_fixed[k];
    int32_t i = f->bone;
    if (!mf_pose_physics_runs(p, k)) return;
    const mf_sd_physics *c = &p->data->physics[k];
    float *restrict st = s->phys_state + (size_t)k * MF_PHYS_STATE;
    float len = f->len;
    float ax = p->wx[i], ay = p->wy[i];
    float mix = s->phys_values[(size_t)k * MF_PHYS_V_COUNT + MF_PHYS_V_MIX] * s->phys_mix;
    int32_t mode = s->phys_mode;
    if (mode == MF_PHYSICS_NONE) {
        keep_tip(p, i, len, st); /* so that switching back does not see a jump */
        s->phys_remaining[k] = 0, st[MF_PS_MOVE_X] = st[MF_PS_MOVE_Y] = 0;
        return;
    }
    bool resting = false; /* a reset this update: rest here and step nothing */
    if (st[MF_PS_INIT] == 0 || st[MF_PS_RESET] != 0) {
        /* a reset drops the time left over from earlier frames but keeps this frame's for the
         * next update, as the reference runtime does (its steps then fall on other frames) */
        resting = st[MF_PS_INIT] != 0;
        rest(p, i, len, st, &s->phys_remaining[k]);
        if (resting) s->phys_remaining[k] = s->phys_frame_dt;
    }
    if (mode == MF_PHYSICS_UPDATE && !resting)
        update(p, k, f, mix, st);
    else if (mode != MF_PHYSICS_UPDATE) s->phys_remaining[k] = 0, st[MF_PS_MOVE_X] = st[MF_PS_MOVE_Y] = 0;
    if (mix != 0) {
        float *a = p->a, *b = p->b, *cc = p->c, *d = p->d;
        p->wx[i] += st[MF_PS_XO] * c->x * mix;
        p->wy[i] += st[MF_PS_YO] * c->y * mix;
        float r = st[MF_PS_RO] * mix;
        if (f->chan & MF_PF_ROTATE) {
            float t = r * c->rotate, cs = cosf(t), sn = sinf(t);
            rotate_axis(&a[i], &cc[i], cs, sn);
            rotate_axis(&b[i], &d[i], cs, sn);
        }
        if (f->chan & MF_PF_SHEAR) { /* shear turns the x axis only */
            float t = r * c->shear_x;
            rotate_axis(&a[i], &cc[i], cosf(t), sinf(t));
        }
        if (f->chan & MF_PF_SCALE) {
            float g = 1 + st[MF_PS_SO] * c->scale_x * mix;
            a[i] *= g, cc[i] *= g;
        }
        if (f->chan || !origin_only(p, i, f->parent)) {
            if (f->parent >= 0 && p->inherit[i] == MF_SD_INHERIT_NORMAL) mf_pose_applied_normal(p, i, f->parent);
            else mf_pose_applied_update(p, i);
            /* the reference keeps as the y scale the y axis' part across the x axis (det /
             * scaleX), not its length, so a bone re-posed from these values (when a later
             * constraint moves its parent) has its y axis shortened by cos(shearY): sack's
             * cape under its squashed parent. Done here only, where the parity data shows it. */
            p->asy[i] *= cos_deg(p->ashy[i]);
        }
    }
    if (mode == MF_PHYSICS_UPDATE) { /* the tip as shown: next frame's lag */
        st[MF_PS_UX] = ax, st[MF_PS_UY] = ay;
        st[MF_PS_TX] = p->wx[i] + p->a[i] * len, st[MF_PS_TY] = p->wy[i] + p->c[i] * len;
    }
}
