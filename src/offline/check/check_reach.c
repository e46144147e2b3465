/* IK targets out of reach: the rig is built in memory and posed at the setup pose and at every
 * key time of each clip; a two-bone chain without stretch whose target lies further from the
 * chain's root than the two bones reach is reported once per (constraint, clip). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mf/mf_build.h"
#include "mf/mf_check.h"
#include "mf/mf_pose.h"
#include "util/buf.h"

#define MAX_TIMES 256

/* How far the target lies beyond the chain's reach (<= 0: reachable), in pixels. */
static float overshoot(const mf_pose *p, const mf_ik_constraint *c)
{
    int32_t b0 = c->bones[0], b1 = c->bones[1], t = c->target;
    if (!p->active[b0] || !p->active[b1] || !p->active[t]) return 0;
    float len1 = hypotf(p->wx[b1] - p->wx[b0], p->wy[b1] - p->wy[b0]);
    float len2 = p->data->bones[b1].length * hypotf(p->a[b1], p->c[b1]);
    float dist = hypotf(p->wx[t] - p->wx[b0], p->wy[t] - p->wy[b0]);
    float reach = len1 + len2;
    return dist - reach - (1.0f + 0.01f * reach); /* float noise and exactly-straight legs */
}

static int cmp_float(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return x < y ? -1 : x > y;
}

static int32_t key_times(const mf_clip *clip, float *out)
{
    int32_t n = 0;
    out[n++] = 0;
    for (int32_t i = 0; i < clip->timeline_count; i++)
        for (int32_t k = 0; k < clip->timelines[i].key_count && n < MAX_TIMES; k++) out[n++] = clip->timelines[i].t[k];
    qsort(out, (size_t)n, sizeof *out, cmp_float);
    int32_t m = 0;
    for (int32_t i = 0; i < n; i++)
        if (!m || out[i] - out[m - 1] > 1e-5f) out[m++] = out[i];
    return m;
}

static void report(mf_check_report *rep, const mf_skeleton *sk, int32_t ik, const mf_clip *clip, const char *file,
                   float time, float over, int32_t count, int32_t samples)
{
    const mf_ik_constraint *c = &sk->ik[ik];
    char where[256] = "";
    if (!clip) snprintf(where, sizeof where, "ik[%d].target", (int)ik);
    else {
        for (int32_t i = 0; i < clip->timeline_count; i++)
            if (clip->timelines[i].kind <= MF_TL_SHEAR_Y && clip->timelines[i].target &&
                strcmp(clip->timelines[i].target, sk->bones[c->target].name) == 0) {
                snprintf(where, sizeof where, "bones.%s.%s", clip->timelines[i].target,
                         mf_timeline_kind_name(clip->timelines[i].kind));
                break;
            }
    }
    mf_finding *f = mf_check_add(rep, MF_CHECK_IK_UNREACHABLE, "constraint", c->name, file, where);
    if (!f) return;
    f->has_time = clip != NULL;
    f->time = time;
    char o[40];
    mf_format_number(o, sizeof o, roundf(over * 10) / 10);
    if (clip)
        snprintf(f->message, sizeof f->message,
                 "target \"%s\" is %s px beyond the reach of \"%s\" + \"%s\" (at %d of %d key times): the chain "
                 "straightens and points at it",
                 sk->bones[c->target].name, o, sk->bones[c->bones[0]].name, sk->bones[c->bones[1]].name,
                 (int)count, (int)samples);
    else
        snprintf(f->message, sizeof f->message,
                 "in the setup pose, target \"%s\" is %s px beyond the reach of \"%s\" + \"%s\"",
                 sk->bones[c->target].name, o, sk->bones[c->bones[0]].name, sk->bones[c->bones[1]].name);
    snprintf(f->fix, sizeof f->fix,
             "move \"%s\" closer to \"%s\" at that time, lengthen the bones, or turn on \"stretch\" if the "
             "limb may stretch", sk->bones[c->target].name, sk->bones[c->bones[0]].name);
}

void mf_check_reach(const mf_skeleton *sk, const mf_clip *const *clips, const char *const *files,
                    int32_t clip_count, const char *rig_file, mf_check_report *rep)
{
    bool any = false;
    for (int32_t i = 0; i < sk->ik_count; i++) any |= sk->ik[i].bone_count == 2 && !sk->ik[i].stretch;
    if (!any) return;
    void *blob = NULL;
    size_t size = 0;
    mf_diag d;
    mf_skel_data data;
    mf_pose *pose = NULL;
    if (mf_build_skeleton(sk, clips, clip_count, &blob, &size, &d) != MF_OK ||
        mf_skel_data_load(blob, size, &data, &d) != MF_OK || mf_pose_create(&data, NULL, &pose, &d) != MF_OK) {
        mf_finding *f = mf_check_add(rep, MF_CHECK_INVALID, "rig", "", d.file[0] ? d.file : rig_file, d.where);
        if (f) {
            snprintf(f->message, sizeof f->message, "the rig does not build: %.480s", d.message);
            snprintf(f->fix, sizeof f->fix, "fix what the message names (mfe skel build reports the same)");
        }
        free(blob);
        return;
    }
    float times[MAX_TIMES];
    for (int32_t c = -1; c < clip_count; c++) {
        int32_t n = 1, ci = -1;
        if (c >= 0) {
            ci = mf_skel_data_find_clip(&data, clips[c]->name);
            if (ci < 0) continue;
            n = key_times(clips[c], times);
        }
        for (int32_t i = 0; i < sk->ik_count; i++) {
            const mf_ik_constraint *ik = &sk->ik[i];
            if (ik->bone_count != 2 || ik->stretch) continue;
            int32_t count = 0;
            float first_t = 0, first_over = 0;
            for (int32_t k = 0; k < n; k++) {
                mf_pose_reset(pose);
                if (ci >= 0)
                    mf_pose_sample(pose, &(mf_clip_sample){.clip = ci, .time = times[k], .prev_time = times[k],
                                                           .weight = 1});
                mf_pose_update_world(pose);
                if (pose->ik_mix[i] <= 0) continue;
                float over = overshoot(pose, ik);
                if (over <= 0) continue;
                if (!count) first_t = ci >= 0 ? times[k] : 0, first_over = over;
                count++;
            }
            if (count) report(rep, sk, i, c >= 0 ? clips[c] : NULL, c >= 0 ? files[c] : rig_file, first_t,
                              first_over, count, n);
        }
    }
    mf_pose_destroy(pose);
    free(blob);
}
