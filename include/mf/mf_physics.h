/* mf_physics.h — physics constraints of a posed instance (the seed's "Physics constraints").
 *
 * Runtime module (libmf_runtime): C11 + libm. Each physics constraint is a damped spring on its
 * bone's translation, rotation, scale and shear (enabled by the amounts x, y, rotate, scale_x,
 * shear_x), with inertia, strength, damping, mass, gravity and wind. Its state lives in arrays
 * sized by mf_pose_create(); nothing here allocates.
 *
 *     per frame:
 *         mf_pose_reset(pose);
 *         mf_pose_sample(pose, ...);           // physics timelines and reset keys apply here
 *         mf_pose_physics_move(pose, dx, dy);  // optional: how the instance moved in the world
 *         mf_pose_physics_step(pose, dt);      // the frame's time for the springs
 *         mf_pose_update_world(pose);          // constraints run at their place in the order
 *
 * The springs integrate at the constraint's fixed step (its `step`, default 1/60 s) consuming
 * the time given to mf_pose_physics_step() (see docs/physics.md for the model); at most MF_PHYSICS_MAX_STEPS steps run per
 * mf_pose_update_world(), and time beyond that is dropped. A second mf_pose_update_world() in
 * the same frame steps nothing (it re-poses from the current state).
 *
 * Coordinates are the project's (Y-down): positive gravity pulls towards +y (down on screen),
 * positive wind blows towards +x.
 */
#ifndef MF_PHYSICS_H
#define MF_PHYSICS_H

#include "mf/mf_pose.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MF_PHYSICS_MAX_STEPS 4
/* px: a bone jumping further resets its state; 0 (never) by default, as the Spine runtime lets a
 * loop wrap's jump through, the speed limit keeping it from whipping */
#define MF_PHYSICS_TELEPORT_DEFAULT 0.0f

typedef enum mf_physics_mode {
    MF_PHYSICS_UPDATE = 0, /* step the springs and apply them (default) */
    MF_PHYSICS_POSE,       /* apply the current state without stepping (scrubbing) */
    MF_PHYSICS_NONE        /* leave the constrained bones as posed */
} mf_physics_mode;

/* Adds dt seconds (>= 0, NaN ignored) for the next mf_pose_update_world() to step. The time is
 * kept in double: a game's clock summing frame times in double rounds the same way. */
void mf_pose_physics_step(mf_pose *pose, double dt);
/* Restores every constraint's setup state (rest at the bone's next pose, no velocity). That
 * update steps nothing: the time left over from earlier frames is dropped and the frame's own
 * time steps on the following update, as in the Spine runtime. */
void mf_pose_physics_reset(mf_pose *pose);
/* Resets one constraint (index into data->physics); out of range: ignored. */
void mf_pose_physics_reset_one(mf_pose *pose, int32_t constraint);
/* Tells the pose that the whole instance moved by (dx, dy) in skeleton-space pixels since the
 * last frame: the springs lag behind it by their inertia. Accumulates until the next update. */
void mf_pose_physics_move(mf_pose *pose, float dx, float dy);
void mf_pose_physics_set_mode(mf_pose *pose, mf_physics_mode mode);
mf_physics_mode mf_pose_physics_mode(const mf_pose *pose);
/* Skeleton-wide gravity and wind, added to every constraint's own (default 0). */
void mf_pose_physics_set_globals(mf_pose *pose, float gravity, float wind);
/* Skeleton-wide mix multiplying every constraint's mix (default 1, clamped to 0..1). */
void mf_pose_physics_set_mix(mf_pose *pose, float mix);
/* Distance (px) above which a bone's jump between frames resets its constraint (<= 0: never,
 * the default). */
void mf_pose_physics_set_teleport(mf_pose *pose, float distance);

/* A constraint's animated settings this frame (setup values after mf_pose_reset(), then the
 * physics timelines): MF_PHYS_V_* floats per constraint. NULL for a bad index. */
enum {
    MF_PHYS_V_INERTIA = 0, MF_PHYS_V_STRENGTH, MF_PHYS_V_DAMPING, MF_PHYS_V_MASS, MF_PHYS_V_WIND,
    MF_PHYS_V_GRAVITY, MF_PHYS_V_MIX, MF_PHYS_V_COUNT
};
const float *mf_pose_physics_values(const mf_pose *pose, int32_t constraint);

#ifdef __cplusplus
}
#endif
#endif
