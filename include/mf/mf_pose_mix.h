/* mf_pose_mix.h — pose-side support for the track mixer (mf_tracks.h): the rotation rule.
 *
 * Runtime module (libmf_runtime): C11 + libm, allocates nothing.
 * While two clips mix, a bone's rotation moves along the shortest arc between the angle already
 * in the pose and the angle the clip samples, and the direction chosen on the mix's first frame
 * is kept: each later frame takes the turn (diff + k·360) nearest to the previous frame's, so a
 * pair that crosses ±180° mid-mix (179° vs −179°) never flips the long way round.
 */
#ifndef MF_POSE_MIX_H
#define MF_POSE_MIX_H

#include "mf/mf_pose.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Latch state of one rotation timeline of one playing entry; zero it when a mix starts. */
typedef struct mf_rotation_latch {
    float total;   /* the turn applied last frame, degrees */
    bool latched;  /* false: the next call picks the shortest arc and latches it */
} mf_rotation_latch;

/* What a rotation timeline does before its first key. */
typedef enum mf_rotation_before {
    MF_ROTATION_BEFORE_KEEP = 0, /* leave the pose */
    MF_ROTATION_BEFORE_SETUP,    /* set the setup angle */
    MF_ROTATION_BEFORE_MIX       /* mix towards the setup angle */
} mf_rotation_before;

/* The angle (degrees, setup included) a rotation timeline samples at clip-local time t;
 * false when t is before its first key or the timeline is not a rotation. */
bool mf_pose_rotation_at(const mf_skel_data *data, int32_t timeline, double t, float *angle);

/* Applies rotation timeline `timeline` (an index into data->timelines) at clip-local time t
 * with weight alpha along the latched shortest arc. alpha >= 1 sets the angle outright.
 * mask: NULL or a byte per bone (0: leave it); inactive bones are left. */
void mf_pose_mix_rotation(mf_pose *pose, int32_t timeline, double t, float alpha,
                          mf_rotation_before before, const uint8_t *mask, mf_rotation_latch *latch);

/* Turns by the latched rule: the turn from `from` to `to` degrees nearest the latch's last
 * one (the shortest arc on the first call). Exposed for tests. */
float mf_rotation_latched_turn(float from, float to, mf_rotation_latch *latch);

/* Setup blending: sets the properties timeline `timeline` drives back to the setup pose (bone
 * channels, colours, deform, constraint values, draw order; not attachments), so that a replace
 * sample after it mixes from the setup pose. mask as above. */
void mf_pose_timeline_setup(mf_pose *pose, int32_t timeline, const uint8_t *mask);
/* Sets a slot's setup attachment (under the pose's skins). */
void mf_pose_slot_setup_attachment(mf_pose *pose, int32_t slot);

#ifdef __cplusplus
}
#endif
#endif
