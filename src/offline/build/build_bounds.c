/* Clip bounds for the BOUNDS section: each clip posed alone by the runtime (mf_pose) at its key
 * times and the midpoints between them, with no skin and with every skin, boxed by
 * mf_pose_bounds() and grown by a margin. The runtime culls off-screen skeletons with them. */
#include <float.h>
#include <math.h>
#include <stdlib.h>

#include "build_internal.h"
#include "mf/mf_geometry.h"
#include "mf/mf_physics.h"

typedef struct box {
    float v[4];
    bool any;
} box;

static void box_add(box *b, const float r[4])
{
    if (!b->any) {
        for (int k = 0; k < 4; k++) b->v[k] = r[k];
        b->any = true;
        return;
    }
    b->v[0] = fminf(b->v[0], r[0]), b->v[1] = fminf(b->v[1], r[1]);
    b->v[2] = fmaxf(b->v[2], r[2]), b->v[3] = fmaxf(b->v[3], r[3]);
}

/* What one posed pose adds: its drawn geometry, and its bone origins (used only by a rig that
 * draws nothing, so that its box still follows the skeleton). */
static void add_pose(mf_pose *p, box *drawn, box *bones)
{
    mf_pose_update_world(p);
    float r[4];
    if (mf_pose_bounds(p, r)) box_add(drawn, r);
    for (int32_t i = 0; i < p->bone_count; i++) {
        if (!p->active[i]) continue;
        const float o[4] = {p->wx[i], p->wy[i], p->wx[i], p->wy[i]};
        box_add(bones, o);
    }
}

static int cmp_float(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return x < y ? -1 : x > y;
}

/* The clip's sample times: 0, its length, every key time inside, the midpoints between
 * consecutive distinct times, and more points evenly between those wherever they lie further
 * apart than 1 / MF_BOUNDS_RATE s (chains of turning bones reach their furthest between keys;
 * clips longer than 4096 / MF_BOUNDS_RATE s get a lower rate).
 * *n gets the count; NULL when out of memory. */
#define MF_BOUNDS_RATE 60.0f
static float *sample_times(const mf_skel_data *d, int32_t clip, int32_t *n)
{
    const mf_sd_clip *c = &d->clips[clip];
    int64_t keys = 2;
    for (int32_t j = 0; j < c->timeline_count; j++) keys += d->timelines[c->timeline_first + j].key_count;
    /* the rate, lowered for very long clips so that the extra points stay at most 4096 */
    float rate = c->length * MF_BOUNDS_RATE > 4096.0f ? 4096.0f / c->length : MF_BOUNDS_RATE;
    int64_t cap = 3 * keys + (int64_t)ceilf(c->length * rate) + 8;
    float *t = malloc((size_t)cap * sizeof *t);
    if (!t) return NULL;
    int32_t m = 0;
    t[m++] = 0.0f, t[m++] = c->length;
    for (int32_t j = 0; j < c->timeline_count; j++) {
        const mf_sd_timeline *tl = &d->timelines[c->timeline_first + j];
        for (int32_t k = 0; k < tl->key_count; k++) t[m++] = fminf(fmaxf(d->times[tl->key_first + k], 0.0f), c->length);
    }
    qsort(t, (size_t)m, sizeof *t, cmp_float);
    int32_t u = 0;
    for (int32_t i = 0; i < m; i++)
        if (u == 0 || t[i] != t[u - 1]) t[u++] = t[i];
    for (int32_t i = 0, base = u; i + 1 < base; i++) {
        /* the midpoint, and as many more as keep the gaps under 1 / rate (these are at most
         * length * rate + 1 in all) */
        float a = t[i], gap = t[i + 1] - a;
        int32_t parts = (int32_t)ceilf(gap * rate);
        if (parts < 2) {
            t[u++] = a + 0.5f * gap;
            continue;
        }
        if (parts % 2) parts++; /* even: the midpoint is one of them */
        for (int32_t k = 1; k < parts && u < cap; k++) t[u++] = a + gap * (float)k / (float)parts;
    }
    *n = u;
    return t;
}

static void sample(mf_pose *p, int32_t clip, float time)
{
    mf_pose_reset(p);
    mf_pose_physics_reset(p);
    /* prev_time = time: no physics reset key fires; weight 1 applies the discrete keys */
    mf_clip_sample s = {.clip = clip, .time = time, .prev_time = time, .weight = 1, .blend = MF_CLIP_REPLACE};
    mf_pose_sample(p, &s);
}

/* x within the finite floats; NaN (a pose that lost its numbers) gives nan_to: the box's far edge */
static float clamp_float(float x, float nan_to) { return x != x ? nan_to : fminf(fmaxf(x, -FLT_MAX), FLT_MAX); }

static void store(mf_sd_bounds *out, const box *drawn, const box *bones)
{
    const box *b = drawn->any ? drawn : bones;
    float v[4] = {0, 0, 0, 0};
    if (b->any)
        for (int k = 0; k < 4; k++) v[k] = b->v[k];
    float grow = MF_SD_BOUNDS_MARGIN * fmaxf(v[2] - v[0], v[3] - v[1]);
    /* a pose reaching near the float range overflows with the margin: the box then covers
     * the whole plane (still conservative, and finite as the build's check requires) */
    *out = (mf_sd_bounds){clamp_float(v[0] - grow, -FLT_MAX), clamp_float(v[1] - grow, -FLT_MAX),
                          clamp_float(v[2] + grow, FLT_MAX), clamp_float(v[3] + grow, FLT_MAX)};
}

/* Whether posing with no skin can be left out: it shows the "default" skin's attachments, as
 * the list of that skin alone does, and the same bones and constraints when that skin requires
 * none of its own. */
static bool no_skin_redundant(const mf_skel_data *d)
{
    int32_t def = mf_skel_data_find_skin(d, "default");
    return def >= 0 && d->skins[def].bone_count == 0 && d->skins[def].constraint_count == 0;
}

/* Poses every clip (and the setup pose) under each skin configuration: no skin, then each
 * skin alone (a composed list shows, per slot, what one of its skins gives, so the union over
 * single skins holds any list). */
static bool pose_all(const mf_skel_data *d, mf_pose *p, mf_skin_cache *cache, box *drawn, box *bones)
{
    for (int32_t cfg = no_skin_redundant(d) ? 0 : -1; cfg < d->skin_count; cfg++) {
        if (mf_pose_set_skins(p, cache, cfg < 0 ? NULL : &cfg, cfg < 0 ? 0 : 1, NULL) != MF_OK) return false;
        mf_pose_reset(p);
        mf_pose_physics_reset(p);
        add_pose(p, &drawn[0], &bones[0]);
        for (int32_t c = 0; c < d->clip_count; c++) {
            int32_t n = 0;
            float *times = sample_times(d, c, &n);
            if (!times) return false;
            for (int32_t i = 0; i < n; i++) {
                sample(p, c, times[i]);
                add_pose(p, &drawn[c + 1], &bones[c + 1]);
            }
            free(times);
        }
    }
    return true;
}

bool mf_build_bounds(mf_bctx *c, const mf_skel_data *view)
{
    mf_bvec *sec = &c->sec[MF_SD_SEC_BOUNDS];
    if (sec->len != view->clip_count + 1)
        return mf_bfail(c, c->skel_file, "", "internal error: %d bounds records for %d clips", (int)sec->len,
                        (int)view->clip_count);
    size_t n = (size_t)view->clip_count + 1;
    box *drawn = calloc(n, sizeof *drawn), *bones = calloc(n, sizeof *bones);
    mf_skin_cache *cache = NULL;
    mf_pose *pose = NULL;
    bool ok = drawn && bones && mf_skin_cache_create(view, NULL, &cache) == MF_OK &&
              mf_pose_create(view, NULL, &pose, NULL) == MF_OK;
    if (ok) {
        mf_pose_physics_set_mode(pose, MF_PHYSICS_POSE); /* springs at rest: nothing to step */
        ok = pose_all(view, pose, cache, drawn, bones);
    }
    if (ok)
        for (size_t i = 0; i < n; i++) store(MF_BVEC_AT(sec, mf_sd_bounds, i), &drawn[i], &bones[i]);
    mf_pose_destroy(pose);
    mf_skin_cache_destroy(cache);
    free(drawn);
    free(bones);
    return ok || mf_boom(c);
}
