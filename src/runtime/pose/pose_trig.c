/* The bones' trigonometry cache: cos and sin of the two angles of each bone's local matrix,
 * keyed on the angles' bits. Filled four bones at a time by the pass that marks dirty bones
 * (pose_dirty.c), so a bone update is a few multiplications; a constraint that turns a bone
 * misses its key and computes them on the spot (pose_world.c). */
#include "pose_internal.h"
#include "pose_trig.h"

void mf_pose_trig_clear(mf_pose *p)
{
    mf_pose_scratch *s = p->scratch;
    for (int32_t i = 0; i < p->bone_count; i++) {
        s->trig_kx[i] = s->trig_ky[i] = 0xffffffffu; /* a NaN no angle arithmetic yields here */
        s->trig_cx[i] = s->trig_sx[i] = s->trig_cy[i] = s->trig_sy[i] = NAN;
    }
}
