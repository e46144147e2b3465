/* Spine curves → .manim curves. Spine writes a bezier's control points in the timeline's own
 * time and value units, 4 numbers per value ([cx1, cy1, cx2, cy2, …]); .manim normalises them
 * per segment: cx' = (cx - t0) / (t1 - t0), cy' = (cy - v0) / (v1 - v0).
 *
 * A segment whose value does not change (v1 = v0) cannot carry a normalised shape. When its
 * bezier still bulges (an overshoot and back), the segment is split where the bulge peaks: de
 * Casteljau splits every value's cubic exactly at that time, so the two halves, each with a
 * real value change, keep the shape. The added key is reported. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spine_internal.h"

/* One value's curve of one segment, in absolute (time, value) units. */
typedef struct raw_curve {
    mf_curve_type type;
    double p[4]; /* cx1, cy1, cx2, cy2 */
} raw_curve;

/* Rounded to 5 decimals: the shape is kept and the files stay readable. */
static float tidy(double v) { return (float)(round(v * 100000.0) / 100000.0); }

static bool flat(double a, double b) { return fabs(a - b) <= 1e-5 * fmax(1.0, fabs(a)); }

/* Spine rounds exported control values (to 2-4 decimals): a control this close to the value is
 * no bump. */
static bool near(double cy, double v) { return fabs(cy - v) <= 1e-3 * fmax(1.0, fabs(v)); }

/* The raw curve of `comp` (of comps values) from key's "curve" member, failing at key.curve. */
static bool read_raw(sp_ctx *c, const cJSON *key, int comp, int comps, raw_curve *out)
{
    memset(out, 0, sizeof *out);
    out->type = MF_CURVE_LINEAR;
    const cJSON *cv = cJSON_GetObjectItemCaseSensitive(key, "curve");
    if (!cv || cJSON_IsNull(cv)) return true;
    if (cJSON_IsString(cv)) {
        if (strcmp(cv->valuestring, "stepped") == 0) out->type = MF_CURVE_STEPPED;
        else if (strcmp(cv->valuestring, "linear") != 0)
            return mf_jr_fail_at(&c->jr, "curve", "unknown curve \"%s\" (expected \"stepped\" or bezier numbers)",
                                 cv->valuestring);
        return true;
    }
    if (!cJSON_IsArray(cv))
        return mf_jr_fail_at(&c->jr, "curve", "expected \"stepped\" or bezier numbers, got %s", mf_jr_type_name(cv));
    int n = cJSON_GetArraySize(cv);
    if (n != 4 * comps && n != 4)
        return mf_jr_fail_at(&c->jr, "curve", "%d numbers: expected %d (4 per value)", n, 4 * comps);
    int base = n == 4 ? 0 : 4 * comp;
    for (int k = 0; k < 4; k++) {
        const cJSON *e = cJSON_GetArrayItem(cv, base + k);
        if (!cJSON_IsNumber(e) || !isfinite(e->valuedouble) || fabs(e->valuedouble) > 1e30) {
            size_t m = mf_jr_key(&c->jr, "curve");
            mf_jr_index(&c->jr, base + k);
            mf_jr_fail(&c->jr, "expected a number, got %s", cJSON_IsNumber(e) ? "one out of range" : mf_jr_type_name(e));
            mf_jr_pop(&c->jr, m);
            return false;
        }
        out->p[k] = e->valuedouble;
    }
    out->type = MF_CURVE_BEZIER;
    return true;
}

/* Normalises a raw curve to its segment; *lost when a flat segment's bulge has to go. */
static mf_curve normalise(const raw_curve *r, double t0, double t1, double v0, double v1, bool *lost)
{
    mf_curve out = {r->type == MF_CURVE_STEPPED ? MF_CURVE_STEPPED : MF_CURVE_LINEAR, 0, 0, 0, 0};
    *lost = false;
    double dt = t1 - t0, dv = v1 - v0;
    if (r->type != MF_CURVE_BEZIER || !(dt > 0)) return out; /* no time passes: the shape never shows */
    if (flat(v0, v1)) {
        *lost = !(near(r->p[1], v0) && near(r->p[3], v0));
        return out;
    }
    double x1 = (r->p[0] - t0) / dt, x2 = (r->p[2] - t0) / dt, y1 = (r->p[1] - v0) / dv, y2 = (r->p[3] - v0) / dv;
    if (!isfinite(y1) || !isfinite(y2) || fabs(y1) > 1e6 || fabs(y2) > 1e6) return out;
    out.type = MF_CURVE_BEZIER;
    out.cx1 = tidy(x1 < 0 ? 0 : x1 > 1 ? 1 : x1);
    out.cx2 = tidy(x2 < 0 ? 0 : x2 > 1 ? 1 : x2);
    out.cy1 = tidy(y1);
    out.cy2 = tidy(y2);
    return out;
}

bool sp_curve(sp_anim *a, const cJSON *key, int comp, int comps, float t0, float t1, float v0, float v1,
              mf_curve *out)
{
    raw_curve r;
    bool lost;
    if (!read_raw(a->c, key, comp, comps, &r)) return false;
    *out = normalise(&r, t0, t1, v0, v1, &lost);
    return true; /* deform values run 0 to 1: never flat */
}

/* ---- splitting a flat segment where its bulge peaks ---- */

static double cubic(const double q[4], double s)
{
    double u = 1 - s;
    return u * u * u * q[0] + 3 * u * u * s * q[1] + 3 * u * s * s * q[2] + s * s * s * q[3];
}

/* de Casteljau: the cubic q split at s into l and r. */
static void split_cubic(const double q[4], double s, double l[4], double r[4])
{
    double a = q[0] + (q[1] - q[0]) * s, b = q[1] + (q[2] - q[1]) * s, c = q[2] + (q[3] - q[2]) * s;
    double d = a + (b - a) * s, e = b + (c - b) * s, f = d + (e - d) * s;
    l[0] = q[0], l[1] = a, l[2] = d, l[3] = f;
    r[0] = f, r[1] = e, r[2] = c, r[3] = q[3];
}

/* The parameter where the bezier's time reaches t (its time runs from x[0] < t to x[3] > t). */
static double param_at(const double x[4], double t)
{
    double lo = 0, hi = 1;
    for (int i = 0; i < 60; i++) {
        double mid = (lo + hi) / 2;
        if (cubic(x, mid) < t) lo = mid;
        else hi = mid;
    }
    return (lo + hi) / 2;
}

/* Working keys of one timeline: n values each, and the raw curve of every segment. */
typedef struct work {
    int n;
    int32_t count, cap;
    double *t, *v;
    raw_curve *cu; /* [key * n + value]: the segment from this key to the next */
    int32_t *origin;
} work;

/* Room for one more key (or for `want` keys). */
static bool reserve(work *w, int32_t want)
{
    if (want <= w->cap) return true;
    int32_t cap = want > w->cap * 2 + 8 ? want : w->cap * 2 + 8;
    double *t = realloc(w->t, (size_t)cap * sizeof *t);
    if (t) w->t = t;
    double *v = realloc(w->v, (size_t)cap * (size_t)w->n * sizeof *v);
    if (v) w->v = v;
    raw_curve *cu = realloc(w->cu, (size_t)cap * (size_t)w->n * sizeof *cu);
    if (cu) w->cu = cu;
    int32_t *o = realloc(w->origin, (size_t)cap * sizeof *o);
    if (o) w->origin = o;
    if (!t || !v || !cu || !o) return false;
    w->cap = cap;
    return true;
}

static bool grow(work *w) { return reserve(w, w->count + 1); }

/* A value of segment i whose value stays but whose bezier bulges: where to split it (a time
 * strictly inside the segment), or false. */
static bool bulge(const work *w, int32_t i, double *ts)
{
    int n = w->n;
    double t0 = w->t[i], t1 = w->t[i + 1];
    for (int j = 0; j < n; j++) {
        const raw_curve *r = &w->cu[i * n + j];
        double v0 = w->v[i * n + j], v1 = w->v[(i + 1) * n + j];
        if (r->type != MF_CURVE_BEZIER || !(t1 - t0 > 1e-6) || !flat(v0, v1) ||
            (near(r->p[1], v0) && near(r->p[3], v0)))
            continue;
        const double y[4] = {v0, r->p[1], r->p[3], v1}, x[4] = {t0, r->p[0], r->p[2], t1};
        double best = 0, at = 0.5;
        for (int k = 1; k < 256; k++) {
            double s = k / 256.0, d = fabs(cubic(y, s) - v0);
            if (d > best) best = d, at = s;
        }
        double t = cubic(x, at), rounded = round(t * 10000.0) / 10000.0; /* Spine's time precision */
        if (rounded > t0 && rounded < t1) t = rounded;
        if (t > t0 + 1e-6 && t < t1 - 1e-6) {
            *ts = t;
            return true;
        }
    }
    return false;
}

/* Inserts a key at time ts inside segment i, splitting every value's curve there. */
static void split_segment(work *w, int32_t i, double ts)
{
    int n = w->n;
    double t0 = w->t[i], t1 = w->t[i + 1];
    memmove(w->t + i + 2, w->t + i + 1, (size_t)(w->count - i - 1) * sizeof *w->t);
    memmove(w->v + (i + 2) * n, w->v + (i + 1) * n, (size_t)(w->count - i - 1) * (size_t)n * sizeof *w->v);
    memmove(w->cu + (i + 2) * n, w->cu + (i + 1) * n, (size_t)(w->count - i - 1) * (size_t)n * sizeof *w->cu);
    memmove(w->origin + i + 2, w->origin + i + 1, (size_t)(w->count - i - 1) * sizeof *w->origin);
    w->count++;
    w->t[i + 1] = ts;
    w->origin[i + 1] = w->origin[i];
    for (int j = 0; j < n; j++) {
        raw_curve *left = &w->cu[i * n + j], *right = &w->cu[(i + 1) * n + j];
        double v0 = w->v[i * n + j], v1 = w->v[(i + 2) * n + j];
        *right = *left;
        if (left->type == MF_CURVE_STEPPED) {
            w->v[(i + 1) * n + j] = v0;
        } else if (left->type == MF_CURVE_LINEAR) {
            w->v[(i + 1) * n + j] = v0 + (v1 - v0) * (ts - t0) / (t1 - t0);
        } else {
            const double x[4] = {t0, left->p[0], left->p[2], t1}, y[4] = {v0, left->p[1], left->p[3], v1};
            double s = param_at(x, ts), xl[4], xr[4], yl[4], yr[4];
            split_cubic(x, s, xl, xr);
            split_cubic(y, s, yl, yr);
            w->v[(i + 1) * n + j] = round(yl[3] * 10000.0) / 10000.0; /* readable; the shape moves < 1e-4 */
            left->p[0] = xl[1], left->p[1] = yl[1], left->p[2] = xl[2], left->p[3] = yl[2];
            right->p[0] = xr[1], right->p[1] = yr[1], right->p[2] = xr[2], right->p[3] = yr[2];
        }
    }
}

static void free_work(work *w)
{
    free(w->t), free(w->v), free(w->cu), free(w->origin);
}

/* The keys of arr into w: times (checked), values, raw curves. */
static bool load(sp_anim *a, const cJSON *arr, const float *v, int n, work *w)
{
    sp_ctx *c = a->c;
    int32_t keys = cJSON_GetArraySize(arr);
    w->n = n;
    if (!reserve(w, keys + 1)) return sp_oom(c);
    int32_t i = 0;
    for (const cJSON *k = arr->child; k && i < keys; k = k->next, i++) {
        size_t m = mf_jr_index(&c->jr, (int)i);
        float t = 0;
        bool ok = mf_jr_expect_object(&c->jr, k) && sp_float(c, k, "time", 0, &t);
        if (ok && t < 0) ok = mf_jr_fail_at(&c->jr, "time", "a key time must not be negative (%g)", (double)t);
        if (ok && i > 0 && t < w->t[i - 1])
            ok = mf_jr_fail_at(&c->jr, "time", "key times must not decrease (%g after %g)", (double)t, w->t[i - 1]);
        for (int j = 0; j < n && ok; j++) {
            w->v[i * n + j] = v[i * n + j];
            if (i + 1 < keys) ok = read_raw(c, k, j, n, &w->cu[i * n + j]);
            else w->cu[i * n + j] = (raw_curve){MF_CURVE_LINEAR, {0, 0, 0, 0}};
        }
        mf_jr_pop(&c->jr, m);
        if (!ok) return false;
        w->t[i] = t;
        w->origin[i] = i;
        if (t > a->length) a->length = t;
    }
    w->count = keys;
    return true;
}

mf_timeline *sp_interpolated(sp_anim *a, const cJSON *arr, mf_timeline_kind kind, const char *target,
                             const float *v, int n, const int *map, const float *sign, const float *fill)
{
    sp_ctx *c = a->c;
    work w = {0};
    if (!load(a, arr, v, n, &w)) {
        free_work(&w);
        return NULL;
    }
    char where[600];
    int32_t budget = 4 * w.count; /* splits: a bulge needs one, an S-curve two */
    for (int32_t i = 0; i + 1 < w.count;) {
        double ts;
        if (budget > 0 && bulge(&w, i, &ts)) {
            if (!grow(&w)) {
                free_work(&w);
                return sp_oom(c), NULL;
            }
            size_t m = mf_jr_index(&c->jr, (int)w.origin[i]);
            sp_note_add(&c->rep, "curve", NULL, sp_where(c, "curve", where, sizeof where),
                        "a value stays the same over this segment but its curve bulges: a key is added at %g s, "
                        "where the bulge peaks, so that the normalised curves keep the shape",
                        ts);
            mf_jr_pop(&c->jr, m);
            split_segment(&w, i, ts);
            budget--;
            continue;
        }
        i++;
    }
    mf_timeline *tl = sp_timeline(a, kind, target, w.count);
    if (!tl) {
        free_work(&w);
        return NULL;
    }
    int comps = tl->comps;
    for (int32_t i = 0; i < w.count; i++) {
        tl->t[i] = (float)w.t[i];
        for (int j = 0; j < comps; j++)
            tl->v[i * comps + j] = map[j] >= 0 ? (float)w.v[i * n + map[j]] * sign[j] : fill[j];
    }
    for (int32_t i = 0; i + 1 < w.count; i++)
        for (int j = 0; j < comps; j++) {
            mf_curve *cu = &tl->curves[i * comps + j];
            bool lost = false;
            if (map[j] < 0) {
                cu->type = MF_CURVE_LINEAR;
                continue;
            }
            const raw_curve *r = &w.cu[i * n + map[j]];
            *cu = normalise(r, w.t[i], w.t[i + 1], w.v[i * n + map[j]], w.v[(i + 1) * n + map[j]], &lost);
            if (lost) {
                size_t m = mf_jr_index(&c->jr, (int)w.origin[i]);
                sp_note_add(&c->rep, "curve", NULL, sp_where(c, "curve", where, sizeof where),
                            "a value stays %g over this segment and its curve's bulge could not be kept: written as "
                            "linear",
                            w.v[i * n + map[j]]);
                mf_jr_pop(&c->jr, m);
            }
        }
    free(a->origin);
    a->origin = w.origin;
    a->origin_count = w.count;
    w.origin = NULL;
    free_work(&w);
    return tl;
}
