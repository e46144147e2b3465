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

static bool constraint_active(const mf_pose *p, int32_t k)
{
    if (p->skin) return p->skin->physics_active[k] != 0;
    return !(p->data->physics[k].flags & MF_SD_PHYS_SKIN_REQUIRED);
}

/* Rest at the bone's current pose: no offsets, velocity or pending movement. The pending
 * time is kept: the frame that resets still steps from rest. */
static void rest(float *st, float ax, float ay, float tx, float ty)
{
    float remaining = st[MF_PS_REMAINING];
    for (int32_t j = 0; j < MF_PHYS_STATE; j++) st[j] = 0;
    st[MF_PS_REMAINING] = remaining;
    st[MF_PS_INIT] = 1;
    st[MF_PS_UX] = ax, st[MF_PS_UY] = ay, st[MF_PS_TX] = tx, st[MF_PS_TY] = ty;
}

/* One fixed step of h seconds for every enabled channel. */
static void integrate(float *st, const mf_sd_physics *c, const float *v, float fx, float fy,
                      float ux, float uy, float len, float h)
{
    float mass = v[MF_PHYS_V_MASS] > 0.0001f ? v[MF_PHYS_V_MASS] : 0.0001f;
    float k = v[MF_PHYS_V_STRENGTH] / mass;
    /* gravity and wind are forces in px/s² per 1/100 (a setting of 80 rests 80 px away
     * under strength 100), divided by the mass like the spring */
    fx *= 100.0f / mass, fy *= 100.0f / mass;
    float damp = v[MF_PHYS_V_DAMPING];
    damp = damp <= 0 ? 0 : damp >= 1 ? 1 : powf(damp, 60.0f * h);
    if (c->x > 0 || c->y > 0) {
        st[MF_PS_XV] += (fx - k * st[MF_PS_XO]) * h;
        st[MF_PS_YV] += (fy - k * st[MF_PS_YO]) * h;
        st[MF_PS_XO] += st[MF_PS_XV] * h;
        st[MF_PS_YO] += st[MF_PS_YV] * h;
        st[MF_PS_XV] *= damp, st[MF_PS_YV] *= damp;
    }
    if (len > 0 && (c->rotate > 0 || c->shear_x > 0 || c->scale_x > 0)) {
        /* forces on the tip: across the bone they turn it, along it they stretch it */
        float across = (ux * fy - uy * fx) / len, along = (ux * fx + uy * fy) / len;
        st[MF_PS_RV] += (across - k * st[MF_PS_RO]) * h;
        st[MF_PS_RO] += st[MF_PS_RV] * h;
        st[MF_PS_RV] *= damp;
        st[MF_PS_SV] += (along - k * st[MF_PS_SO]) * h;
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
    float ux = xl > 1e-6f ? p->a[i] / xl : 1.0f, uy = xl > 1e-6f ? p->c[i] / xl : 0.0f;
    float tx = ax + p->a[i] * len, ty = ay + p->c[i] * len;
    if (s->phys_mode == MF_PHYSICS_NONE) {
        /* remember where the bone is so that switching back does not see a jump */
        st[MF_PS_UX] = ax, st[MF_PS_UY] = ay, st[MF_PS_TX] = tx, st[MF_PS_TY] = ty;
        st[MF_PS_REMAINING] = st[MF_PS_MOVE_X] = st[MF_PS_MOVE_Y] = 0;
        return;
    }
    if (st[MF_PS_INIT] == 0 || st[MF_PS_RESET] != 0) rest(st, ax, ay, tx, ty);
    float step = c->step > 0 ? c->step : 1.0f / 60.0f;
    if (s->phys_mode == MF_PHYSICS_UPDATE) {
        float dx = ax - st[MF_PS_UX] + st[MF_PS_MOVE_X], dy = ay - st[MF_PS_UY] + st[MF_PS_MOVE_Y];
        float tdx = tx - st[MF_PS_TX] + st[MF_PS_MOVE_X], tdy = ty - st[MF_PS_TY] + st[MF_PS_MOVE_Y];
        float remaining = st[MF_PS_REMAINING];
        if (s->phys_teleport > 0 && dx * dx + dy * dy > s->phys_teleport * s->phys_teleport) {
            rest(st, ax, ay, tx, ty); /* a teleport: start over where the bone now is */
            dx = dy = tdx = tdy = 0;
        }
        float inertia = v[MF_PHYS_V_INERTIA];
        /* the movement felt in one frame is capped by the constraint's speed limit (px/s)
         * over the time this update steps */
        float limit = (c->limit > 0 ? c->limit : 5000.0f) * remaining;
        float dist = sqrtf(dx * dx + dy * dy);
        if (remaining > 0 && dist > limit) { /* no time passed: no speed to cap */
            float f = limit / dist;
            dx *= f, dy *= f, tdx *= f, tdy *= f;
        }
        st[MF_PS_XO] -= dx * inertia;
        st[MF_PS_YO] -= dy * inertia;
        if (len > 0) {
            /* the tip left behind by inertia, seen from the bone's new axis */
            float lx = -tdx * inertia, ly = -tdy * inertia;
            float along = ux * lx + uy * ly, across = ux * ly - uy * lx;
            st[MF_PS_RO] += atan2f(across, len + along);
            st[MF_PS_SO] += along / len;
        }
        float fx = v[MF_PHYS_V_WIND] + s->phys_wind, fy = v[MF_PHYS_V_GRAVITY] + s->phys_gravity;
        for (int32_t n = 0; remaining >= step && n < MF_PHYSICS_MAX_STEPS; n++) {
            remaining -= step;
            integrate(st, c, v, fx, fy, ux, uy, len, step);
        }
        if (remaining >= step) remaining = fmodf(remaining, step); /* beyond the cap: dropped */
        st[MF_PS_REMAINING] = remaining;
        st[MF_PS_UX] = ax, st[MF_PS_UY] = ay, st[MF_PS_TX] = tx, st[MF_PS_TY] = ty;
        st[MF_PS_MOVE_X] = st[MF_PS_MOVE_Y] = 0;
    } else {
        st[MF_PS_REMAINING] = st[MF_PS_MOVE_X] = st[MF_PS_MOVE_Y] = 0;
    }
    float mix = v[MF_PHYS_V_MIX] * s->phys_mix;
    if (mix == 0) return;
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
        float f = 1 + st[MF_PS_SO] * c->scale_x * mix;
        p->a[i] *= f, p->c[i] *= f;
    }
    mf_pose_update_applied(p, i);
}
