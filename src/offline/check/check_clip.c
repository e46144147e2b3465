/* Checks of one clip against its rig: every unknown name (each with a suggestion), keys past
 * the end, bezier time handles, mixes out of range, joint flips, loop seams and shear keyed on
 * IK chains. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mf/mf_check.h"
#include "util/buf.h"

#define TIME_EPS 1e-4f

/* The JSON path of a timeline: "bones.thigh_l.rotate", "ik.leg_ik", "deform.default.body.body" … */
static void tl_path(const mf_timeline *tl, char *out, size_t n)
{
    const char *tg = tl->target ? tl->target : "";
    const char *kn = mf_timeline_kind_name(tl->kind);
    if (tl->kind <= MF_TL_INHERIT) snprintf(out, n, "bones.%s.%s", tg, kn);
    else if (tl->kind <= MF_TL_SEQUENCE) snprintf(out, n, "slots.%s.%s", tg, kn);
    else if (tl->kind == MF_TL_IK) snprintf(out, n, "ik.%s", tg);
    else if (tl->kind == MF_TL_TRANSFORM) snprintf(out, n, "transform.%s", tg);
    else if (tl->kind <= MF_TL_PATH_MIX) snprintf(out, n, "path.%s.%s", tg, kn);
    else if (tl->kind <= MF_TL_PHYSICS_RESET) snprintf(out, n, "physics.%s.%s", tg, kn);
    else if (tl->kind == MF_TL_DEFORM)
        snprintf(out, n, "deform.%s.%s.%s", tl->skin ? tl->skin : "", tg, tl->attachment ? tl->attachment : "");
    else snprintf(out, n, "%s", kn);
}

static const char *subject_kind(const mf_timeline *tl)
{
    if (tl->kind <= MF_TL_INHERIT) return "bone";
    if (tl->kind <= MF_TL_SEQUENCE || tl->kind == MF_TL_DEFORM) return "slot";
    if (tl->kind <= MF_TL_PHYSICS_RESET) return "constraint";
    if (tl->kind == MF_TL_EVENT) return "event";
    return "clip";
}

static mf_finding *tl_add(mf_check_report *rep, mf_check_kind k, const mf_clip *clip, const mf_timeline *tl,
                          const char *file, const char *suffix, int idx, float time)
{
    char base[200], where[256];
    tl_path(tl, base, sizeof base);
    if (idx >= 0) snprintf(where, sizeof where, "%s.%s[%d]", base, suffix, idx);
    else snprintf(where, sizeof where, "%s", base);
    const char *subject = tl->target && tl->target[0] ? tl->target : clip->name;
    mf_finding *f = mf_check_add(rep, k, tl->target && tl->target[0] ? subject_kind(tl) : "clip", subject, file, where);
    if (f) f->has_time = true, f->time = time;
    return f;
}

static mf_check_kind classify(const char *message)
{
    if (strstr(message, "unknown ") || strstr(message, "has no attachment") || strstr(message, "no skin has") ||
        strstr(message, "is not a") || strstr(message, "constraint, not"))
        return MF_CHECK_UNKNOWN_NAME;
    return MF_CHECK_INVALID;
}

/* Names, through mf_clip_check one timeline at a time so that every problem is reported. */
static bool check_names(const mf_skeleton *sk, const mf_clip *clip, const char *file, mf_check_report *rep,
                        bool *bad)
{
    mf_diag d;
    mf_clip one = *clip;
    one.timeline_count = 0;
    bool ok = true;
    if (mf_clip_check(&one, sk, file, &d) != MF_OK) {
        mf_finding *f = mf_check_add(rep, MF_CHECK_WRONG_RIG, "clip", clip->name, file, d.where);
        if (f) {
            snprintf(f->message, sizeof f->message, "%s", d.message);
            snprintf(f->fix, sizeof f->fix, "set \"skeleton\": { \"uid\": \"%s\" } if the clip is meant for this rig",
                     sk->uid ? sk->uid : "");
        }
        ok = false;
    }
    one.skeleton_uid = sk->uid;
    one.timeline_count = 1;
    for (int32_t i = 0; i < clip->timeline_count; i++) {
        one.timelines = &clip->timelines[i];
        if (mf_clip_check(&one, sk, file, &d) == MF_OK) continue;
        bad[i] = true;
        ok = false;
        mf_check_kind k = classify(d.message);
        const mf_timeline *tl = &clip->timelines[i];
        mf_finding *f = mf_check_add(rep, k, subject_kind(tl), tl->target ? tl->target : clip->name, file, d.where);
        if (!f) continue;
        snprintf(f->message, sizeof f->message, "%s", d.message);
        const char *dym = strstr(d.message, "(did you mean \"");
        if (dym) {
            const char *b = dym + 15, *e = strchr(b, '"');
            snprintf(f->fix, sizeof f->fix, "use \"%.*s\"", e ? (int)(e - b) : 0, b);
        } else if (k == MF_CHECK_UNKNOWN_NAME)
            snprintf(f->fix, sizeof f->fix, "use a name the rig has (mfe skel describe lists them) or add it to the rig");
        else snprintf(f->fix, sizeof f->fix, "make the keys fit the rig as the message says");
    }
    return ok;
}

static void check_past_end(const mf_clip *clip, const mf_timeline *tl, const char *file, mf_check_report *rep)
{
    int32_t n = 0, first = -1;
    for (int32_t k = 0; k < tl->key_count; k++)
        if (tl->t[k] > clip->length + TIME_EPS) {
            if (first < 0) first = k;
            n++;
        }
    if (first < 0) return;
    char len[40], t[40];
    mf_format_number(len, sizeof len, clip->length);
    mf_format_number(t, sizeof t, tl->t[tl->key_count - 1]);
    mf_finding *f = tl_add(rep, MF_CHECK_KEY_PAST_END, clip, tl, file, "t", first, tl->t[first]);
    if (!f) return;
    snprintf(f->message, sizeof f->message, "%d key%s after the clip's length %s never play%s", (int)n,
             n > 1 ? "s" : "", len, n > 1 ? "" : "s");
    snprintf(f->fix, sizeof f->fix, "move the key%s to at most %s, or set the clip's \"length\" to %s",
             n > 1 ? "s" : "", len, t);
}

static void check_curves(const mf_clip *clip, const mf_timeline *tl, const char *file, mf_check_report *rep)
{
    if (!tl->curves) return;
    int32_t comps = tl->comps > 0 ? tl->comps : 1;
    for (int32_t s = 0; s + 1 < tl->key_count; s++) {
        for (int32_t c = 0; c < comps; c++) {
            const mf_curve *cv = &tl->curves[s * comps + c];
            if (cv->type != MF_CURVE_BEZIER) continue;
            bool bad_x = !(cv->cx1 >= 0 && cv->cx1 <= 1 && cv->cx2 >= 0 && cv->cx2 <= 1);
            bool bad_y = !isfinite(cv->cy1) || !isfinite(cv->cy2);
            if (!bad_x && !bad_y) continue;
            mf_finding *f = tl_add(rep, MF_CHECK_CURVE_RANGE, clip, tl, file, "curve", s, tl->t[s]);
            if (!f) return;
            snprintf(f->message, sizeof f->message,
                     "bezier [%g, %g, %g, %g] of segment %d: the time handles (1st and 3rd numbers) must lie in 0..1",
                     (double)cv->cx1, (double)cv->cy1, (double)cv->cx2, (double)cv->cy2, (int)s);
            snprintf(f->fix, sizeof f->fix, "clamp them: [%g, %g, %g, %g]", (double)fminf(fmaxf(cv->cx1, 0), 1),
                     (double)cv->cy1, (double)fminf(fmaxf(cv->cx2, 0), 1), (double)cv->cy2);
            return; /* one a timeline */
        }
    }
}

/* Mixes (ik mix, transform, path and physics mixes) are fractions. */
static void check_values(const mf_clip *clip, const mf_timeline *tl, const char *file, mf_check_report *rep)
{
    static const char *const tf[] = {"mixRotate", "mixX", "mixY", "mixScaleX", "mixScaleY", "mixShearY"};
    int32_t first_c = 0, last_c = -1;
    if (tl->kind == MF_TL_IK) first_c = 0, last_c = 0;
    else if (tl->kind == MF_TL_TRANSFORM) last_c = 5;
    else if (tl->kind == MF_TL_PATH_MIX) last_c = 2;
    else if (tl->kind == MF_TL_PHYSICS_MIX) last_c = 0;
    for (int32_t k = 0; k < tl->key_count; k++) {
        for (int32_t c = first_c; c <= last_c; c++) {
            float v = tl->v[k * tl->comps + c];
            if (v >= 0 && v <= 1) continue;
            const char *col = tl->kind == MF_TL_IK ? "mix" : tl->kind == MF_TL_TRANSFORM ? tf[c] : "v";
            mf_finding *f = tl_add(rep, MF_CHECK_VALUE_RANGE, clip, tl, file, col, k, tl->t[k]);
            if (!f) return;
            snprintf(f->message, sizeof f->message, "mix %g is outside 0..1", (double)v);
            snprintf(f->fix, sizeof f->fix, "use %g", (double)fminf(fmaxf(v, 0), 1));
            return;
        }
    }
}

static void check_flips(const mf_clip *clip, const mf_timeline *tl, const char *file, mf_check_report *rep)
{
    if (tl->kind != MF_TL_ROTATE) return;
    for (int32_t k = 0; k + 1 < tl->key_count; k++) {
        float a = tl->v[k], b = tl->v[k + 1], d = b - a;
        if (fabsf(d) <= 180) continue;
        /* the stepped segment jumps anyway: a flip there is what was asked for */
        if (tl->curves && tl->curves[k].type == MF_CURVE_STEPPED) continue;
        float alt = b - 360.0f * roundf(d / 360.0f);
        mf_finding *f = tl_add(rep, MF_CHECK_JOINT_FLIP, clip, tl, file, "v", k + 1, tl->t[k + 1]);
        if (!f) return;
        snprintf(f->message, sizeof f->message,
                 "rotation jumps %g° from key %d (%g) to key %d (%g): the joint spins the long way round",
                 (double)fabsf(d), (int)k, (double)a, (int)k + 1, (double)b);
        snprintf(f->fix, sizeof f->fix, "if the short way is meant, key %g instead (the same angle)", (double)alt);
    }
}

static bool interpolated(mf_timeline_kind k)
{
    return k != MF_TL_INHERIT && k != MF_TL_ATTACHMENT && k != MF_TL_SEQUENCE && k != MF_TL_PHYSICS_RESET &&
           k < MF_TL_DEFORM;
}

static void check_seam(const mf_clip *clip, const mf_timeline *tl, const char *file, mf_check_report *rep)
{
    if (clip->loop == MF_LOOP_NONE || !interpolated(tl->kind) || tl->key_count < 2 || tl->comps < 1) return;
    int32_t last = tl->key_count - 1;
    if (fabsf(tl->t[0]) > TIME_EPS || fabsf(tl->t[last] - clip->length) > TIME_EPS) return;
    if (clip->loop == MF_LOOP_PINGPONG) return; /* ping-pong turns round: any end is seamless */
    for (int32_t c = 0; c < tl->comps; c++) {
        float a = tl->v[c], b = tl->v[last * tl->comps + c], d = fabsf(b - a);
        if (tl->kind == MF_TL_ROTATE) d = fabsf(remainderf(b - a, 360.0f));
        if (d <= 1e-3f) continue;
        mf_finding *f = tl_add(rep, MF_CHECK_LOOP_SEAM, clip, tl, file, "v", last, tl->t[last]);
        if (!f) return;
        snprintf(f->message, sizeof f->message,
                 "the clip loops but this timeline ends at %g and starts at %g (component %d): it pops at the loop",
                 (double)b, (double)a, (int)c);
        snprintf(f->fix, sizeof f->fix, "make the last key (t=%g) equal the first", (double)tl->t[last]);
        return;
    }
}

static bool in_ik_chain(const mf_skeleton *sk, int32_t bone, const char **ik)
{
    for (int32_t i = 0; i < sk->ik_count; i++)
        for (int32_t k = 0; k < sk->ik[i].bone_count; k++)
            if (sk->ik[i].bones[k] == bone) {
                *ik = sk->ik[i].name;
                return true;
            }
    return false;
}

static void check_shear_keys(const mf_skeleton *sk, const mf_clip *clip, const mf_timeline *tl, const char *file,
                             mf_check_report *rep)
{
    if (tl->kind != MF_TL_SHEAR && tl->kind != MF_TL_SHEAR_X && tl->kind != MF_TL_SHEAR_Y) return;
    const char *ik = NULL;
    if (!in_ik_chain(sk, mf_skeleton_find_bone(sk, tl->target), &ik)) return;
    for (int32_t k = 0; k < tl->key_count * tl->comps; k++) {
        if (tl->v[k] == 0) continue;
        int32_t key = k / tl->comps;
        mf_finding *f = tl_add(rep, MF_CHECK_IK_SHEAR, clip, tl, file, "v", key, tl->t[key]);
        if (!f) return;
        f->subject_kind = "constraint";
        snprintf(f->subject, sizeof f->subject, "%s", ik);
        snprintf(f->message, sizeof f->message,
                 "bone \"%s\" of IK chain \"%s\" is keyed with shear %g: the solved chain will not reach the target exactly",
                 tl->target, ik, (double)tl->v[k]);
        snprintf(f->fix, sizeof f->fix, "key the shear on a child bone outside the chain");
        return;
    }
}

bool mf_check_clip(const mf_skeleton *sk, const mf_clip *clip, const char *file, mf_check_report *rep)
{
    bool bad_small[64] = {false};
    bool *bad = bad_small;
    bool heap = clip->timeline_count > 64;
    if (heap) bad = calloc((size_t)clip->timeline_count, sizeof *bad);
    if (!bad) {
        rep->oom = true;
        return false;
    }
    bool ok = check_names(sk, clip, file, rep, bad);
    for (int32_t i = 0; i < clip->timeline_count; i++) {
        const mf_timeline *tl = &clip->timelines[i];
        check_past_end(clip, tl, file, rep);
        check_curves(clip, tl, file, rep);
        if (tl->comps > 0 && tl->v) check_values(clip, tl, file, rep);
        check_flips(clip, tl, file, rep);
        check_seam(clip, tl, file, rep);
        if (!bad[i]) check_shear_keys(sk, clip, tl, file, rep);
    }
    if (heap) free(bad);
    return ok;
}
