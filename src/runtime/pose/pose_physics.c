/* Physics constraints: the public controls (time, movement, reset, mode, skeleton-wide
 * settings), the setup settings and the physics timelines. The solver is pose_physics_solve.c. */
#include <stddef.h>
#include <string.h>

#include "../curve_eval.h"
#include "pose_internal.h"

static bool valid(const mf_pose *p) { return p && p->scratch; }

/* The time handed to the springs is the change of a double clock summing the frame times, as
 * a game loop's clock (and Spine's skeleton time) has: its rounding sometimes moves a step to
 * the next frame (a frame takes none, the next two), and matching that keeps the springs in
 * phase with the reference runtime. The clock is kept below 128 s (subtracting 64 s is exact
 * there) so that its rounding stays tiny however long the instance runs. */
void mf_pose_physics_step(mf_pose *p, double dt)
{
    if (!valid(p) || !(dt > 0)) return; /* negative, zero and NaN add nothing */
    mf_pose_scratch *s = p->scratch;
    if (!(dt < 64.0)) dt = 64.0; /* far beyond the step cap anyway */
    double now = s->phys_clock + dt;
    s->phys_dt += now - s->phys_clock;
    s->phys_clock = now >= 128.0 ? now - 64.0 : now;
}

void mf_pose_physics_reset_one(mf_pose *p, int32_t k)
{
    if (!valid(p) || k < 0 || k >= p->data->physics_count) return;
    p->scratch->phys_state[(size_t)k * MF_PHYS_STATE + MF_PS_RESET] = 1;
}

void mf_pose_physics_reset(mf_pose *p)
{
    if (!valid(p)) return;
    for (int32_t k = 0; k < p->data->physics_count; k++) mf_pose_physics_reset_one(p, k);
}

void mf_pose_physics_move(mf_pose *p, float dx, float dy)
{
    if (!valid(p) || dx != dx || dy != dy) return;
    p->scratch->phys_move_x += dx;
    p->scratch->phys_move_y += dy;
}

void mf_pose_physics_set_mode(mf_pose *p, mf_physics_mode mode)
{
    if (!valid(p) || (int)mode < MF_PHYSICS_UPDATE || (int)mode > MF_PHYSICS_NONE) return;
    p->scratch->phys_mode = (int32_t)mode;
}

mf_physics_mode mf_pose_physics_mode(const mf_pose *p)
{
    return valid(p) ? (mf_physics_mode)p->scratch->phys_mode : MF_PHYSICS_UPDATE;
}

void mf_pose_physics_set_globals(mf_pose *p, float gravity, float wind)
{
    if (!valid(p) || gravity != gravity || wind != wind) return;
    p->scratch->phys_gravity = gravity;
    p->scratch->phys_wind = wind;
}

void mf_pose_physics_set_mix(mf_pose *p, float mix)
{
    if (!valid(p) || mix != mix) return;
    p->scratch->phys_mix = mix < 0 ? 0 : mix > 1 ? 1 : mix;
}

void mf_pose_physics_set_teleport(mf_pose *p, float distance)
{
    if (!valid(p) || distance != distance) return;
    p->scratch->phys_teleport = distance;
}

const float *mf_pose_physics_values(const mf_pose *p, int32_t k)
{
    if (!valid(p) || k < 0 || k >= p->data->physics_count) return NULL;
    return p->scratch->phys_values + (size_t)k * MF_PHYS_V_COUNT;
}

void mf_pose_physics_setup(mf_pose *p)
{
    for (int32_t k = 0; k < p->data->physics_count; k++) {
        const mf_sd_physics *c = &p->data->physics[k];
        float *v = p->scratch->phys_values + (size_t)k * MF_PHYS_V_COUNT;
        v[MF_PHYS_V_INERTIA] = c->inertia, v[MF_PHYS_V_STRENGTH] = c->strength;
        v[MF_PHYS_V_DAMPING] = c->damping, v[MF_PHYS_V_MASS] = c->mass;
        v[MF_PHYS_V_WIND] = c->wind, v[MF_PHYS_V_GRAVITY] = c->gravity, v[MF_PHYS_V_MIX] = c->mix;
    }
}

/* Hands the frame's pending time and movement to every constraint (an inactive one keeps
 * them until it runs again; its remaining time is capped when it steps). */
void mf_pose_physics_begin(mf_pose *p)
{
    mf_pose_scratch *s = p->scratch;
    int32_t n = p->data->physics_count;
    double dt = s->phys_dt;
    for (int32_t k = 0; k < n; k++) s->phys_remaining[k] += dt;
    if (s->phys_move_x != 0 || s->phys_move_y != 0) /* most frames the instance stays put */
        for (int32_t k = 0; k < n; k++) {
            float *st = s->phys_state + (size_t)k * MF_PHYS_STATE;
            st[MF_PS_MOVE_X] += s->phys_move_x;
            st[MF_PS_MOVE_Y] += s->phys_move_y;
        }
    s->phys_frame_dt = s->phys_dt;
    s->phys_dt = s->phys_move_x = s->phys_move_y = 0;
}

/* For a world update run elsewhere (the GPU module, mf_gpu.h): takes the frame's pending time
 * and movement and each constraint's reset request (or-ed into resets[k], physics_count bytes),
 * clearing them as mf_pose_update_world's start and its constraints would, so they apply once. */
void mf_pose_physics_take(mf_pose *p, double *dt, float *move_x, float *move_y, uint8_t *resets)
{
    mf_pose_scratch *s = p->scratch;
    *dt = s->phys_dt, *move_x = s->phys_move_x, *move_y = s->phys_move_y;
    s->phys_dt = s->phys_move_x = s->phys_move_y = 0;
    for (int32_t k = 0; k < p->data->physics_count; k++) {
        float *r = &s->phys_state[(size_t)k * MF_PHYS_STATE + MF_PS_RESET];
        resets[k] |= *r != 0;
        *r = 0;
    }
}

/* Global timelines (target -1) reach the constraints whose matching "global" flag is set. */
static uint32_t global_flag(int32_t kind)
{
    switch (kind) {
    case MF_SD_TL_PHYSICS_INERTIA: return MF_SD_PHYS_INERTIA_GLOBAL;
    case MF_SD_TL_PHYSICS_STRENGTH: return MF_SD_PHYS_STRENGTH_GLOBAL;
    case MF_SD_TL_PHYSICS_DAMPING: return MF_SD_PHYS_DAMPING_GLOBAL;
    case MF_SD_TL_PHYSICS_MASS: return MF_SD_PHYS_MASS_GLOBAL;
    case MF_SD_TL_PHYSICS_WIND: return MF_SD_PHYS_WIND_GLOBAL;
    case MF_SD_TL_PHYSICS_GRAVITY: return MF_SD_PHYS_GRAVITY_GLOBAL;
    default: return MF_SD_PHYS_MIX_GLOBAL;
    }
}

/* Whether a reset key lies in the local window (prev, time], or in (prev, end] ∪ [0, time]
 * when the loop wrapped. A first sample (prev < 0) includes a key at 0. The key time is the
 * stored float, compared with the double track time as it is (the reference runtime's frame:
 * 1/60 s summed 36 times is just above 0.6 but below 0.6f, so a key at 0.6 fires a frame later
 * than the decimal would). */
static bool reset_fired(const mf_skel_data *d, const mf_sd_timeline *tl, double prev, double time,
                        bool wrapped)
{
    for (int32_t i = 0; i < tl->key_count; i++) {
        double kt = d->times[tl->key_first + i];
        bool in = wrapped ? (kt > prev || kt <= time) : (kt > prev && kt <= time);
        if (in) return true;
    }
    return false;
}

_Static_assert(offsetof(mf_sd_physics, strength) == offsetof(mf_sd_physics, inertia) + sizeof(float) &&
                   offsetof(mf_sd_physics, mix) == offsetof(mf_sd_physics, inertia) + 6 * sizeof(float),
               "the data's settings in the MF_PHYS_V_* order");

/* Constraint c's setup value of setting slot (MF_PHYS_V_*). */
static float setup_value(const mf_sd_physics *c, int32_t slot)
{
    float value;
    memcpy(&value, (const char *)c + offsetof(mf_sd_physics, inertia) + (size_t)slot * sizeof(float), sizeof value);
    return value;
}

/* The value of a settings timeline at key (>= 0) and local time: keys hold absolute values,
 * interpolated like the other constraint timelines. */
static float keyed_value(const mf_skel_data *d, const mf_sd_timeline *tl, int32_t key, double local_time)
{
    const float *v0 = d->values + tl->value_first + (size_t)key * (size_t)tl->value_comps;
    float value = v0[0];
    if (key < tl->key_count - 1) {
        double t0 = d->times[tl->key_first + key], t1 = d->times[tl->key_first + key + 1];
        float u = t1 > t0 ? (float)((local_time - t0) / (t1 - t0)) : 1.0f;
        int32_t code = d->curves[tl->curve_first + (size_t)key * (size_t)tl->curve_comps];
        float f = code == MF_SD_CURVE_STEPPED ? 0.0f : mf_sd_curve_at(d, code, u);
        value += (v0[tl->value_comps] - v0[0]) * f;
    }
    return value;
}

void mf_pose_physics_timeline(mf_pose *p, const mf_sd_timeline *tl, int32_t key, double time,
                              double prev, double local_time, bool wrapped, float w)
{
    const mf_skel_data *d = p->data;
    int32_t target = tl->target;
    if (target >= d->physics_count) return;
    if (tl->kind == MF_SD_TL_PHYSICS_RESET) {
        int32_t first = target >= 0 ? target : 0, last = target >= 0 ? target + 1 : d->physics_count;
        if (!reset_fired(d, tl, prev, local_time, wrapped)) return;
        for (int32_t k = first; k < last; k++)
            p->scratch->phys_state[(size_t)k * MF_PHYS_STATE + MF_PS_RESET] = 1;
        return;
    }
    (void)time;
    int32_t slot = tl->kind - MF_SD_TL_PHYSICS_INERTIA; /* the MF_PHYS_V_* order */
    float *values = p->scratch->phys_values + slot;
    /* a keyed value is the same for every constraint the timeline reaches: computed once */
    float keyed = key >= 0 ? keyed_value(d, tl, key, local_time) : 0.0f;
    if (target >= 0) { /* one constraint (the usual) */
        float *v = values + (size_t)target * MF_PHYS_V_COUNT;
        float value = key >= 0 ? keyed : setup_value(&d->physics[target], slot);
        *v += (value - *v) * w;
        return;
    }
    uint32_t flag = global_flag(tl->kind);
    for (int32_t k = 0; k < d->physics_count; k++) {
        if (!(d->physics[k].flags & flag)) continue;
        float *v = values + (size_t)k * MF_PHYS_V_COUNT;
        float value = key >= 0 ? keyed : setup_value(&d->physics[k], slot);
        *v += (value - *v) * w;
    }
}
