/* The rotation rule of mixing: shortest arc, direction latched on the mix's first frame. */
#include "mf/mf_pose_mix.h"

#include "pose_internal.h"

bool mf_pose_rotation_at(const mf_skel_data *d, int32_t timeline, double t, float *angle)
{
    if (!d || timeline < 0 || timeline >= d->timeline_count) return false;
    const mf_sd_timeline *tl = &d->timelines[timeline];
    if (tl->kind != MF_SD_TL_ROTATE || tl->key_count < 1) return false;
    const float *times = d->times + tl->key_first;
    if (t < times[0]) return false;
    int32_t lo = 0, hi = tl->key_count - 1; /* the last key with time <= t */
    while (lo < hi) {
        int32_t mid = (lo + hi + 1) >> 1;
        if (times[mid] <= t) lo = mid;
        else hi = mid - 1;
    }
    const float *v = d->values + tl->value_first + lo;
    float r = v[0];
    if (lo < tl->key_count - 1) {
        double t0 = times[lo], t1 = times[lo + 1];
        float u = t1 > t0 ? (float)((t - t0) / (t1 - t0)) : 1.0f;
        int32_t code = d->curves[tl->curve_first + lo * tl->curve_comps];
        float f = code == MF_SD_CURVE_STEPPED ? 0.0f : mf_skel_data_curve(d, code, u);
        r = v[0] + (v[1] - v[0]) * f;
    }
    *angle = d->bones[tl->target].rot + r;
    return true;
}

float mf_rotation_latched_turn(float from, float to, mf_rotation_latch *latch)
{
    float diff = mf_wrap_deg(to - from);
    if (latch->latched) /* keep the side chosen before: the turn nearest the last one */
        diff += 360.0f * roundf((latch->total - diff) / 360.0f);
    latch->total = diff;
    latch->latched = true;
    return diff;
}

void mf_pose_mix_rotation(mf_pose *p, int32_t timeline, double t, float alpha,
                          mf_rotation_before before, const uint8_t *mask, mf_rotation_latch *latch)
{
    const mf_skel_data *d = p->data;
    if (timeline < 0 || timeline >= d->timeline_count || !(alpha > 0)) return;
    const mf_sd_timeline *tl = &d->timelines[timeline];
    int32_t bone = tl->target;
    if (tl->kind != MF_SD_TL_ROTATE || !p->active[bone] || (mask && !mask[bone])) return;
    float to;
    if (!mf_pose_rotation_at(d, timeline, t, &to)) {
        if (before == MF_ROTATION_BEFORE_KEEP) return;
        if (before == MF_ROTATION_BEFORE_SETUP) {
            p->rot[bone] = d->bones[bone].rot;
            return;
        }
        to = d->bones[bone].rot;
    }
    if (alpha >= 1) {
        p->rot[bone] = to;
        return;
    }
    p->rot[bone] += mf_rotation_latched_turn(p->rot[bone], to, latch) * alpha;
}
