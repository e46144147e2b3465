/* Bone overrides from game code: applied to the local pose after clips, before constraints. */
#include "pose_atan.h"
#include "pose_cmath.h"
#include "pose_internal.h"

mf_result mf_pose_override(mf_pose *p, int32_t i, const mf_bone_override *ov)
{
    if (!p || !ov || i < 0 || i >= p->bone_count || !(ov->mix >= 0 && ov->mix <= 1))
        return MF_ERR_ARGUMENT;
    float w = ov->mix;
    float x = ov->x, y = ov->y, rot = ov->rot;
    if (ov->world) {
        /* world position and rotation to the parent's space */
        int32_t par = p->data->bones[i].parent;
        if (par >= 0) {
            float pa = p->a[par], pb = p->b[par], pc = p->c[par], pd = p->d[par];
            float det = pa * pd - pb * pc;
            if (fabsf(det) < 1e-12f) return MF_ERR_ARGUMENT;
            float dx = ov->x - p->wx[par], dy = ov->y - p->wy[par];
            x = (dx * pd - dy * pb) / det;
            y = (dy * pa - dx * pc) / det;
            /* the direction rot in the parent's space */
            float cx, cy;
            mf_sincos_r(ov->rot * (float)MF_DEG, &cx, &cy);
            float lx = (cx * pd - cy * pb) / det, ly = (cy * pa - cx * pc) / det;
            rot = mf_atan2f(ly, lx) * (float)MF_RAD;
        }
    }
    if (ov->channels & MF_OVERRIDE_TRANSLATE) {
        p->x[i] += (x - p->x[i]) * w;
        p->y[i] += (y - p->y[i]) * w;
    }
    if (ov->channels & MF_OVERRIDE_ROTATE) p->rot[i] += mf_wrap_deg(rot - p->rot[i]) * w;
    if (ov->channels & MF_OVERRIDE_SCALE) {
        p->sx[i] += (ov->sx - p->sx[i]) * w;
        p->sy[i] += (ov->sy - p->sy[i]) * w;
    }
    if (ov->channels & MF_OVERRIDE_SHEAR) {
        p->shx[i] += (ov->shx - p->shx[i]) * w;
        p->shy[i] += (ov->shy - p->shy[i]) * w;
    }
    return MF_OK;
}
