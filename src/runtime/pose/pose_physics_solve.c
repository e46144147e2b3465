#define PHYS_PERSTEP 1
/* The physics constraint solver: a damped spring per channel, stepped at a fixed rate.
 *
 * The constrained bone's animated world position A and tip T (A plus its x axis times its
 * length) are remembered between frames. When they move, a fraction `inertia` of the movement
 * is left behind as an offset: the translation offset lags A, and the lagging tip turns
 * (rotation, shear) and stretches (scale) the bone. Each fixed step then pulls the offsets back
 * with a spring (strength / mass), adds gravity (+y) and wind (+x) (×100 / mass), moves, and
 * then damps the velocity (damping is the fraction of velocity kept per 1/60 s). The offsets are applied to the bone's
 * world transform scaled by each channel's amount and the mixes, and its local values are
 * recomputed from that so that children follow. */
#include "pose_internal.h"

#ifndef PHYS_TORQUE
#define PHYS_TORQUE 0.01f
#endif
#ifndef PHYS_PULL
#define PHYS_PULL 1.0f
#endif

static bool constraint_active(const mf_pose *p, int32_t k)
{
    if (p->skin) return p->skin->physics_active[k] != 0;
    return !(p->data->physics[k].flags & MF_SD_PHYS_SKIN_REQUIRED);
}

/* Rest at the bone's current pose: no offsets, velocity or pending movement. The pending
 * time (phys_remaining) is kept: the frame that resets still steps from rest. */
static void rest(float *st, float ax, float ay, float tx, float ty)
{
    for (int32_t j = 0; j < MF_PHYS_STATE; j++) st[j] = 0;
    st[MF_PS_INIT] = 1;
    st[MF_PS_UX] = ax, st[MF_PS_UY] = ay, st[MF_PS_TX] = tx, st[MF_PS_TY] = ty;
}

/* Angle wrapped to [-pi, pi]. */
static float wrap_angle(float r)
{
    const float pi = 3.14159265f;
    return r - 2 * pi * floorf((r + pi) / (2 * pi));
}

/* One fixed step of h seconds for every enabled channel. (fx, fy) is the gravity and wind
 * setting, (ux, uy) the bone's shown direction. */
static float PHYS_CA, PHYS_MR;
static void integrate(float *st, const mf_sd_physics *c, const float *v, float fx, float fy,
                      float ux, float uy, float len, float h, bool turn)
{
    float mass = v[MF_PHYS_V_MASS] > 0.0001f ? v[MF_PHYS_V_MASS] : 0.0001f;
    float k = v[MF_PHYS_V_STRENGTH] / mass;
    float damp = v[MF_PHYS_V_DAMPING];
    damp = damp <= 0 ? 0 : damp >= 1 ? 1 : powf(damp, 60.0f * h);
    if (!turn && (c->x > 0 || c->y > 0)) {
        /* gravity and wind are forces in px/s² per 1/100 (a setting of 80 rests 80 px away
         * under strength 100), divided by the mass like the spring */
        st[MF_PS_XV] += (fx * 100.0f / mass - k * st[MF_PS_XO]) * h;
        st[MF_PS_YV] += (fy * 100.0f / mass - k * st[MF_PS_YO]) * h;
        st[MF_PS_XO] += st[MF_PS_XV] * h;
        st[MF_PS_YO] += st[MF_PS_YV] * h;
        st[MF_PS_XV] *= damp, st[MF_PS_YV] *= damp;
    }
    if (turn && len > 0 && (c->rotate > 0 || c->shear_x > 0)) {
        /* gravity and wind turn the bone by their torque about its origin: the force across
         * the bone times its length (in 1/100 px) */
#ifdef PHYS_PERSTEP
        { float sa = PHYS_CA + st[MF_PS_RO] * PHYS_MR; ux = cosf(sa), uy = sinf(sa); }
#endif
        float torque = (ux * fy - uy * fx) * len * PHYS_TORQUE;
        st[MF_PS_RV] += (torque / mass - k * st[MF_PS_RO]) * h;
        st[MF_PS_RO] += st[MF_PS_RV] * h;
        st[MF_PS_RV] *= damp;
    }
    if (turn && len > 0 && c->scale_x > 0) {
        float pull = (ux * fx + uy * fy) * PHYS_PULL; /* along the bone: stretches it */
        st[MF_PS_SV] += (pull / mass - k * st[MF_PS_SO]) * h;
        st[MF_PS_SO] += st[MF_PS_SV] * h;
        st[MF_PS_SV] *= damp;
    }
}

static void rotate_axis(float *x, float *y, float cs, float sn)
{
    float nx = *x * cs - *y * sn, ny = *x * sn + *y * cs;
    *x = nx, *y = ny;
}

void mf_pose_apply_physics(mf_pose *p, int32_t k)
{
    mf_pose_scratch *s = p->scratch;
    const mf_sd_physics *c = &p->data->physics[k];
    float *st = s->phys_state + (size_t)k * MF_PHYS_STATE;
    const float *v = s->phys_values + (size_t)k * MF_PHYS_V_COUNT;
    int32_t i = c->bone;
    if (!constraint_active(p, k) || !p->active[i]) return;
    float len = p->data->bones[i].length;
    float ax = p->wx[i], ay = p->wy[i];
    float xl = sqrtf(p->a[i] * p->a[i] + p->c[i] * p->c[i]);
    float tx = ax + p->a[i] * len, ty = ay + p->c[i] * len;
    float mix = v[MF_PHYS_V_MIX] * s->phys_mix;
    float mr = (c->rotate + c->shear_x) * mix, ms = c->scale_x * mix; /* how the tip is shown */
    bool turns = len > 0 && (c->rotate > 0 || c->shear_x > 0 || c->scale_x > 0);
    if (s->phys_mode == MF_PHYSICS_NONE) {
        /* remember where the bone is so that switching back does not see a jump */
        st[MF_PS_UX] = ax, st[MF_PS_UY] = ay, st[MF_PS_TX] = tx, st[MF_PS_TY] = ty;
        s->phys_remaining[k] = 0, st[MF_PS_MOVE_X] = st[MF_PS_MOVE_Y] = 0;
        return;
    }
    if (st[MF_PS_INIT] == 0 || st[MF_PS_RESET] != 0) rest(st, ax, ay, tx, ty);
    /* the step is 1 / fps: recovered in double from the stored float so that the time, summed
     * in double, is consumed at the reference's ticks */
    double step = c->step > 0 ? c->step : 1.0 / 60.0, fps = floor(1.0 / step + 0.5);
    if (fps >= 1 && fabs(1.0 / step - fps) < 1e-3 * fps) step = 1.0 / fps;
    float ca = atan2f(p->c[i], p->a[i]);
    if (s->phys_mode == MF_PHYSICS_UPDATE) {
        float dx = ax - st[MF_PS_UX] + st[MF_PS_MOVE_X], dy = ay - st[MF_PS_UY] + st[MF_PS_MOVE_Y];
        double remaining = s->phys_remaining[k];
        if (s->phys_teleport > 0 && dx * dx + dy * dy > s->phys_teleport * s->phys_teleport) {
            rest(st, ax, ay, tx, ty); /* a teleport: start over where the bone now is */
            dx = dy = 0;
        }
        float inertia = v[MF_PHYS_V_INERTIA];
        /* the movement felt in one frame is capped by the constraint's speed limit (px/s)
         * over the time this update steps */
        float limit = (c->limit > 0 ? c->limit : 5000.0f) * (float)remaining;
        float dist = sqrtf(dx * dx + dy * dy);
        if (remaining > 0 && dist > limit) { /* no time passed: no speed to cap */
            float f = limit / dist;
            dx *= f, dy *= f;
        }
        float xo = st[MF_PS_XO], yo = st[MF_PS_YO];
        st[MF_PS_XO] -= dx * inertia;
        st[MF_PS_YO] -= dy * inertia;
        float fx = v[MF_PHYS_V_WIND] + s->phys_wind, fy = v[MF_PHYS_V_GRAVITY] + s->phys_gravity;
        int32_t steps = 0;
        for (; remaining >= step && steps < MF_PHYSICS_MAX_STEPS; steps++) remaining -= step;
        if (remaining >= step) remaining = fmod(remaining, step); /* beyond the cap: dropped */
        /* translation first: the bone turns about its origin as shown this frame */
        for (int32_t n = 0; n < steps; n++) integrate(st, c, v, fx, fy, 0, 0, 0, (float)step, false);
        if (turns) {
            /* the tip as shown last frame, seen from the bone's new origin: the bone turns
             * (and stretches) towards it by the fraction inertia of the angle (length) */
            float rx = st[MF_PS_TX] - st[MF_PS_UX] - dx - st[MF_PS_XO] * c->x * mix;
            float ry = st[MF_PS_TY] - st[MF_PS_UY] - dy - st[MF_PS_YO] * c->y * mix;
            st[MF_PS_RO] += wrap_angle(atan2f(ry, rx) - ca - st[MF_PS_RO] * mr) * inertia;
            /* the origin's movement as shown, along the bone as shown: it stretches */
            float mx = dx + (st[MF_PS_XO] - xo) * c->x * mix, my = dy + (st[MF_PS_YO] - yo) * c->y * mix;
            float sa = ca + st[MF_PS_RO] * mr;
            if (c->scale_x > 0 && len * xl > 1e-6f)
                st[MF_PS_SO] -= (mx * cosf(sa) + my * sinf(sa)) / (len * xl) * inertia;
        }
        float sa = ca + st[MF_PS_RO] * mr, ux = cosf(sa), uy = sinf(sa);
        PHYS_CA = ca, PHYS_MR = mr;
        for (int32_t n = 0; n < steps; n++) integrate(st, c, v, fx, fy, ux, uy, len, (float)step, true);
        s->phys_remaining[k] = remaining;
        st[MF_PS_MOVE_X] = st[MF_PS_MOVE_Y] = 0;
    } else {
        s->phys_remaining[k] = 0, st[MF_PS_MOVE_X] = st[MF_PS_MOVE_Y] = 0;
    }
    if (mix != 0) {
        p->wx[i] += st[MF_PS_XO] * c->x * mix;
        p->wy[i] += st[MF_PS_YO] * c->y * mix;
        float r = st[MF_PS_RO] * mix;
        if (c->rotate > 0) {
            float a = r * c->rotate, cs = cosf(a), sn = sinf(a);
            rotate_axis(&p->a[i], &p->c[i], cs, sn);
            rotate_axis(&p->b[i], &p->d[i], cs, sn);
        }
        if (c->shear_x > 0) { /* shear turns the x axis only */
            float a = r * c->shear_x;
            rotate_axis(&p->a[i], &p->c[i], cosf(a), sinf(a));
        }
        if (c->scale_x > 0) {
            float f = 1 + st[MF_PS_SO] * ms;
            p->a[i] *= f, p->c[i] *= f;
        }
        mf_pose_update_applied(p, i);
    }
    if (s->phys_mode == MF_PHYSICS_UPDATE) { /* where the bone is shown: next frame's lag */
        st[MF_PS_UX] = ax, st[MF_PS_UY] = ay;
        st[MF_PS_TX] = p->wx[i] + p->a[i] * len, st[MF_PS_TY] = p->wy[i] + p->c[i] * len;
    }
}
