/* mfe skel key CLIP.manim (--bone B | --slot S | --ik C | --transform C | --path C | --physics C)
 *     --timeline T --t TIME [--v VALUE] [--curve linear|stepped|ease|ease-in|ease-out|x1,y1,x2,y2]
 *     [--rig RIG.mskel]
 * Adds a key, or changes the key at that time, and writes the clip back in canonical form, so a
 * canonical file's diff is that key's lines. Names are checked against the rig (found through
 * the clip's skeleton path, or the .mskel beside the clips folder); any error leaves the file
 * as it was. */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "mf/mf_clip.h"
#include "util/buf.h"
#include "util/files.h"
#include "util/suggest.h"

#define TIME_EPS 1e-4f

typedef struct key_args {
    const char *clip_path, *rig_path, *group, *target, *timeline, *value, *curve;
    float t;
    bool has_t;
} key_args;

static int usage(const char *fmt, const char *a)
{
    return mfe_usage_error("skel", "key", fmt, a);
}

/* ---- the rig ---- */

static bool try_rig(const char *path, const mf_clip *clip, mf_skeleton **out, bool need_uid)
{
    mf_skeleton *sk = NULL;
    mf_diag d;
    if (mf_skeleton_load(path, &sk, &d) != MF_OK) return false;
    if (need_uid && (!clip->skeleton_uid || !sk->uid || strcmp(clip->skeleton_uid, sk->uid) != 0)) {
        mf_skeleton_free(sk);
        return false;
    }
    *out = sk;
    return true;
}

/* The clip's skeleton path (beside the clip, then as given), else the .mskel with the clip's
 * uid in the folder above the clips folder. */
/* Copies a path, cut to size (long paths only matter for the message). */
static void copy_path(char *dst, size_t n, const char *src)
{
    size_t l = strlen(src);
    if (l >= n) l = n - 1;
    memcpy(dst, src, l);
    dst[l] = '\0';
}

static mf_skeleton *find_rig(const key_args *a, const mf_clip *clip, char *found, size_t n)
{
    mf_skeleton *sk = NULL;
    char dir[1024], path[2200];
    mf_path_dir(a->clip_path, dir, sizeof dir);
    if (a->rig_path) {
        mf_diag d;
        if (mf_skeleton_load(a->rig_path, &sk, &d) != MF_OK) {
            mfe_report(&d);
            return NULL;
        }
        copy_path(found, n, a->rig_path);
        return sk;
    }
    if (clip->skeleton_path) {
        snprintf(path, sizeof path, "%s%s", dir, clip->skeleton_path);
        if (try_rig(path, clip, &sk, true)) return copy_path(found, n, path), sk;
        if (try_rig(clip->skeleton_path, clip, &sk, true)) return copy_path(found, n, clip->skeleton_path), sk;
    }
    snprintf(path, sizeof path, "%s../", dir[0] ? dir : "./");
    DIR *dh = opendir(path);
    if (dh) {
        struct dirent *e;
        while (!sk && (e = readdir(dh)) != NULL) {
            size_t l = strlen(e->d_name);
            if (l < 7 || strcmp(e->d_name + l - 6, ".mskel") != 0) continue;
            char rig[2600];
            snprintf(rig, sizeof rig, "%s%s", path, e->d_name);
            if (try_rig(rig, clip, &sk, true)) copy_path(found, n, rig);
        }
        closedir(dh);
    }
    if (!sk)
        fprintf(stderr, "mfe: %s: cannot find the rig with uid \"%s\" (tried the clip's skeleton path and the .mskel "
                        "files in %s); name it with --rig RIG.mskel\n",
                a->clip_path, clip->skeleton_uid ? clip->skeleton_uid : "", path);
    return sk;
}

/* ---- which timeline ---- */

typedef struct tl_sel {
    mf_timeline_kind kind;
    int32_t column; /* ik / transform: the column keyed; -1 otherwise */
} tl_sel;

static const char *const IK_COLS[] = {"mix", "softness", "bend", "compress", "stretch", NULL};
static const char *const TF_COLS[] = {"mixRotate", "mixX", "mixY", "mixScaleX", "mixScaleY", "mixShearY", NULL};

static int list_index(const char *const *list, const char *s)
{
    for (int i = 0; list[i]; i++)
        if (strcmp(list[i], s) == 0) return i;
    return -1;
}

static bool select_timeline(const key_args *a, tl_sel *sel)
{
    static const char *names[24];
    int first, last;
    sel->column = -1;
    const char *g = a->group, *t = a->timeline;
    if (strcmp(g, "ik") == 0 || strcmp(g, "transform") == 0) {
        const char *const *cols = g[0] == 'i' ? IK_COLS : TF_COLS;
        sel->kind = g[0] == 'i' ? MF_TL_IK : MF_TL_TRANSFORM;
        sel->column = t ? list_index(cols, t) : 0;
        if (sel->column >= 0) return true;
        char sfx[160];
        mf_suggest_suffix(sfx, sizeof sfx, mf_suggest_list(t, (const char *const *)cols));
        fprintf(stderr, "mfe: %s: a %s key has no timeline \"%s\"%s; %s keys: ", a->clip_path, g, t, sfx, g);
        for (int i = 0; cols[i]; i++) fprintf(stderr, "%s%s", i ? ", " : "", cols[i]);
        fputc('\n', stderr);
        return false;
    }
    if (strcmp(g, "bones") == 0) first = MF_TL_ROTATE, last = MF_TL_INHERIT;
    else if (strcmp(g, "slots") == 0) first = MF_TL_ATTACHMENT, last = MF_TL_SEQUENCE;
    else if (strcmp(g, "path") == 0) first = MF_TL_PATH_POSITION, last = MF_TL_PATH_MIX;
    else first = MF_TL_PHYSICS_INERTIA, last = MF_TL_PHYSICS_RESET;
    int n = 0;
    for (int k = first; k <= last; k++) names[n++] = mf_timeline_kind_name((mf_timeline_kind)k);
    names[n] = NULL;
    if (!t) {
        fprintf(stderr, "mfe: %s: --timeline is needed for %s keys (one of", a->clip_path, g);
        for (int i = 0; i < n; i++) fprintf(stderr, " %s", names[i]);
        fprintf(stderr, ")\n");
        return false;
    }
    int i = list_index(names, t);
    if (i >= 0) {
        sel->kind = (mf_timeline_kind)(first + i);
        return true;
    }
    char sfx[160];
    mf_suggest_suffix(sfx, sizeof sfx, mf_suggest_list(t, names));
    fprintf(stderr, "mfe: %s: %s have no timeline \"%s\"%s; timelines:", a->clip_path, g, t, sfx);
    for (int k = 0; k < n; k++) fprintf(stderr, " %s", names[k]);
    fputc('\n', stderr);
    return false;
}

/* ---- values ---- */

/* Splits "1, 2" / "[1,2]" / "1 2" into at most cap tokens (modifies s); -1 when more. */
static int split(char *s, char **tok, int cap)
{
    int n = 0;
    size_t len = strlen(s);
    for (size_t i = 0; i < len; i++)
        if (s[i] == '[' || s[i] == ']' || s[i] == ',' || s[i] == ' ' || s[i] == '"') s[i] = 0;
    for (size_t i = 0; i < len; i++) {
        if (!s[i] || (i > 0 && s[i - 1])) continue;
        if (n == cap) return -1;
        tok[n++] = &s[i];
    }
    return n;
}

static bool parse_number(const char *s, float *out)
{
    char *end;
    double v = strtod(s, &end);
    if (end == s || *end || !isfinite(v) || fabs(v) > 1e30) return false;
    *out = (float)v;
    return true;
}

static bool parse_bool(const char *s, int32_t *out)
{
    if (!strcmp(s, "true") || !strcmp(s, "1")) return *out = 1, true;
    if (!strcmp(s, "false") || !strcmp(s, "0")) return *out = 0, true;
    return false;
}

/* "#rrggbb" or "#rrggbbaa" into n components 0..1. */
static bool parse_colour(const char *s, int digits, float *out)
{
    if (s[0] != '#' || (int)strlen(s + 1) != digits) return false;
    for (int i = 0; i < digits / 2; i++) {
        unsigned v;
        char two[3] = {s[1 + 2 * i], s[2 + 2 * i], 0};
        char *end;
        v = (unsigned)strtoul(two, &end, 16);
        if (*end) return false;
        out[i] = (float)v / 255.0f;
    }
    return true;
}

/* One key's values: floats into v (comps), ints into iv (icomps), name for attachments.
 * For ik / transform only the selected column is read. Prints why when the shape is wrong. */
static bool parse_value(const key_args *a, const tl_sel *sel, float *v, int32_t *iv, bool *set_f, bool *set_i,
                        char **name)
{
    const char *what = NULL;
    char buf[512];
    snprintf(buf, sizeof buf, "%s", a->value ? a->value : "");
    char *tok[8];
    int n = split(buf, tok, 8);
    mf_timeline_kind k = sel->kind;
    bool ok = false;
    if (k == MF_TL_PHYSICS_RESET) {
        ok = !a->value;
        what = "no --v (a reset key has no value)";
    } else if (!a->value) {
        what = "a value (--v)";
    } else if (k == MF_TL_IK) {
        if (sel->column <= 1) ok = n == 1 && parse_number(tok[0], &v[sel->column]), set_f[sel->column] = true;
        else if (sel->column == 2) {
            float b = 0;
            ok = n == 1 && parse_number(tok[0], &b) && (b == 1 || b == -1);
            iv[0] = ok ? (int32_t)b : 0, set_i[0] = true; /* no cast of an out-of-range float */
        } else ok = n == 1 && parse_bool(tok[0], &iv[sel->column - 2]), set_i[sel->column - 2] = true;
        what = sel->column <= 1 ? "one number" : sel->column == 2 ? "1 or -1" : "true or false";
    } else if (k == MF_TL_TRANSFORM) {
        ok = n == 1 && parse_number(tok[0], &v[sel->column]);
        set_f[sel->column] = true;
        what = "one number";
    } else if (k == MF_TL_ATTACHMENT) {
        ok = n == 1;
        if (ok && strcmp(tok[0], "null") != 0 && strcmp(tok[0], "none") != 0) {
            *name = malloc(strlen(tok[0]) + 1);
            if (*name) strcpy(*name, tok[0]);
        }
        what = "an attachment name (or none)";
    } else if (k == MF_TL_INHERIT) {
        int m = n == 1 ? mf_inherit_parse(tok[0]) : -1;
        ok = m >= 0, iv[0] = m, set_i[0] = true;
        what = "an inherit mode (Normal, OnlyTranslation, NoRotationOrReflection, NoScale, NoScaleOrReflection)";
    } else if (k == MF_TL_SEQUENCE) {
        int m = n == 3 ? mf_sequence_mode_parse(tok[0]) : -1;
        float idx = 0;
        ok = m >= 0 && parse_number(tok[1], &idx) && idx >= 0 && idx == floorf(idx) && parse_number(tok[2], &v[0]);
        iv[0] = m, iv[1] = (int32_t)idx, set_i[0] = set_i[1] = set_f[0] = true;
        what = "mode,index,delay (e.g. loop,0,0.04)";
    } else if (k == MF_TL_RGBA || k == MF_TL_RGB) {
        ok = n == 1 && parse_colour(tok[0], k == MF_TL_RGBA ? 8 : 6, v);
        what = k == MF_TL_RGBA ? "a colour #rrggbbaa" : "a colour #rrggbb";
        for (int c = 0; c < 4; c++) set_f[c] = true;
    } else if (k == MF_TL_RGBA2) {
        ok = n == 2 && parse_colour(tok[0], 8, v) && parse_colour(tok[1], 6, v + 4);
        what = "light and dark colours #rrggbbaa,#rrggbb";
        for (int c = 0; c < 7; c++) set_f[c] = true;
    } else {
        int32_t comps = mf_timeline_kind_comps(k);
        ok = n == comps;
        for (int c = 0; ok && c < comps; c++) ok = parse_number(tok[c], &v[c]), set_f[c] = true;
        what = comps == 1 ? "one number" : comps == 2 ? "two numbers x,y" : "three numbers (rotate,x,y mixes)";
        if (ok && k == MF_TL_ALPHA && (v[0] < 0 || v[0] > 1)) ok = false, what = "an alpha 0..1";
    }
    if (!ok)
        fprintf(stderr, "mfe: %s: --v \"%s\": %s %s takes %s\n", a->clip_path, a->value ? a->value : "",
                a->group, a->timeline ? a->timeline : mf_timeline_kind_name(k), what);
    return ok;
}

static bool parse_curve(const key_args *a, mf_curve *c)
{
    const char *s = a->curve;
    if (!strcmp(s, "linear")) return *c = (mf_curve){MF_CURVE_LINEAR, 0, 0, 1, 1}, true;
    if (!strcmp(s, "stepped")) return *c = (mf_curve){MF_CURVE_STEPPED, 0, 0, 1, 1}, true;
    if (!strcmp(s, "ease")) return *c = (mf_curve){MF_CURVE_BEZIER, 0.42f, 0, 0.58f, 1}, true;
    if (!strcmp(s, "ease-in")) return *c = (mf_curve){MF_CURVE_BEZIER, 0.42f, 0, 1, 1}, true;
    if (!strcmp(s, "ease-out")) return *c = (mf_curve){MF_CURVE_BEZIER, 0, 0, 0.58f, 1}, true;
    char buf[256];
    snprintf(buf, sizeof buf, "%s", s);
    char *tok[8];
    float p[4];
    bool ok = split(buf, tok, 8) == 4;
    for (int i = 0; ok && i < 4; i++) ok = parse_number(tok[i], &p[i]);
    if (ok && p[0] >= 0 && p[0] <= 1 && p[2] >= 0 && p[2] <= 1)
        return *c = (mf_curve){MF_CURVE_BEZIER, p[0], p[1], p[2], p[3]}, true;
    fprintf(stderr, "mfe: %s: --curve \"%s\": expected linear, stepped, ease, ease-in, ease-out or x1,y1,x2,y2 "
                    "with x1 and x2 in 0..1\n", a->clip_path, s);
    return false;
}

/* ---- the edit ---- */

static mf_timeline *find_or_add(mf_clip *clip, const tl_sel *sel, const char *target)
{
    for (int32_t i = 0; i < clip->timeline_count; i++) {
        mf_timeline *tl = &clip->timelines[i];
        if (tl->kind == sel->kind && tl->target && strcmp(tl->target, target) == 0) return tl;
    }
    mf_timeline *arr = mf_clip_alloc(clip, (size_t)(clip->timeline_count + 1) * sizeof *arr);
    if (!arr) return NULL;
    if (clip->timeline_count) memcpy(arr, clip->timelines, (size_t)clip->timeline_count * sizeof *arr);
    mf_timeline *tl = &arr[clip->timeline_count];
    memset(tl, 0, sizeof *tl);
    tl->kind = sel->kind;
    tl->target = mf_clip_strdup(clip, target);
    tl->comps = mf_timeline_kind_comps(sel->kind);
    tl->icomps = mf_timeline_kind_icomps(sel->kind);
    clip->timelines = arr;
    clip->timeline_count++;
    return tl;
}

/* Setup values of an ik / transform constraint's columns (what a column left out means). */
static void constraint_setup(const mf_skeleton *sk, const mf_timeline *tl, float *v, int32_t *iv)
{
    mf_constraint_ref ref;
    if (!mf_skeleton_find_constraint(sk, tl->target, &ref)) return;
    if (tl->kind == MF_TL_IK && ref.kind == MF_CONSTRAINT_IK) {
        const mf_ik_constraint *c = &sk->ik[ref.index];
        v[0] = c->mix, v[1] = c->softness, iv[0] = c->bend, iv[1] = c->compress, iv[2] = c->stretch;
    } else if (tl->kind == MF_TL_TRANSFORM && ref.kind == MF_CONSTRAINT_TRANSFORM) {
        const mf_transform_constraint *c = &sk->transform[ref.index];
        float s[6] = {c->mix_rotate, c->mix_x, c->mix_y, c->mix_scale_x, c->mix_scale_y, c->mix_shear_y};
        memcpy(v, s, sizeof s);
    }
}

/* Sets key (t, values) in tl: replaces the key at t or inserts one, the new key's other
 * components taken from the timeline at t (so only the keyed column changes the motion). */
static bool set_key(mf_clip *clip, const mf_skeleton *sk, mf_timeline *tl, const tl_sel *sel, float t,
                    const float *v, const int32_t *iv, const bool *set_f, const bool *set_i, char *name,
                    const mf_curve *curve, bool *added)
{
    int32_t n = tl->key_count, comps = tl->comps, icomps = tl->icomps;
    int32_t cc = comps > 0 ? comps : 1;
    bool has_curve = comps > 0 && tl->kind != MF_TL_SEQUENCE;
    int32_t at = 0;
    while (at < n && tl->t[at] < t - TIME_EPS) at++;
    *added = !(at < n && fabsf(tl->t[at] - t) <= TIME_EPS);
    if (sel->column >= 0) {
        uint32_t bit = 1u << sel->column;
        if (!(tl->columns & bit) && n > 0) { /* a new column: earlier keys keep the setup value */
            float sv[6] = {0};
            int32_t si[3] = {0};
            constraint_setup(sk, tl, sv, si);
            for (int32_t k = 0; k < n; k++) {
                if (tl->kind == MF_TL_IK && sel->column >= 2) tl->iv[k * icomps + sel->column - 2] = si[sel->column - 2];
                else tl->v[k * comps + sel->column] = sv[sel->column];
            }
        }
        tl->columns |= bit;
    }
    if (*added) {
        float *nt = mf_clip_alloc(clip, (size_t)(n + 1) * sizeof *nt);
        float *nv = comps ? mf_clip_alloc(clip, (size_t)(n + 1) * comps * sizeof *nv) : NULL;
        int32_t *niv = icomps ? mf_clip_alloc(clip, (size_t)(n + 1) * icomps * sizeof *niv) : NULL;
        char **nn = tl->kind == MF_TL_ATTACHMENT ? mf_clip_alloc(clip, (size_t)(n + 1) * sizeof *nn) : NULL;
        mf_curve *ncv = has_curve && n >= 1 ? mf_clip_alloc(clip, (size_t)n * cc * sizeof *ncv) : NULL;
        if (!nt || (comps && !nv) || (icomps && !niv) || (tl->kind == MF_TL_ATTACHMENT && !nn) ||
            (has_curve && n >= 1 && !ncv))
            return false;
        for (int32_t k = 0, o = 0; k <= n; k++) {
            if (k == at) continue;
            nt[k] = tl->t[o];
            if (comps) memcpy(nv + k * comps, tl->v + o * comps, (size_t)comps * sizeof *nv);
            if (icomps) memcpy(niv + k * icomps, tl->iv + o * icomps, (size_t)icomps * sizeof *niv);
            if (nn) nn[k] = tl->names[o];
            o++;
        }
        nt[at] = t;
        /* the new key's values where not given: the timeline's value at t (linear between the
         * neighbours; the previous key for discrete parts), else the setup */
        if (comps) {
            float sv[6] = {0};
            int32_t si[3] = {0};
            if (tl->kind == MF_TL_IK || tl->kind == MF_TL_TRANSFORM) constraint_setup(sk, tl, sv, si);
            for (int32_t c = 0; c < comps; c++) {
                float val = (tl->kind == MF_TL_IK || tl->kind == MF_TL_TRANSFORM) ? sv[c] : 0;
                if (n && at == 0) val = tl->v[c];
                else if (n && at == n) val = tl->v[(n - 1) * comps + c];
                else if (n) {
                    float t0 = tl->t[at - 1], t1 = tl->t[at], f = t1 > t0 ? (t - t0) / (t1 - t0) : 0;
                    val = tl->v[(at - 1) * comps + c] + f * (tl->v[at * comps + c] - tl->v[(at - 1) * comps + c]);
                }
                nv[at * comps + c] = val;
            }
        }
        if (icomps) {
            int32_t si[3] = {0};
            float sv[6];
            if (tl->kind == MF_TL_IK) constraint_setup(sk, tl, sv, si);
            for (int32_t c = 0; c < icomps; c++)
                niv[at * icomps + c] = n ? tl->iv[(at > 0 ? at - 1 : 0) * icomps + c] : si[c];
        }
        /* segments: the one that held the new key is split, both halves keep its curve */
        if (ncv) {
            for (int32_t sg = 0; sg < n; sg++) {
                int32_t from = sg < at ? sg : sg - 1; /* clamped at both ends: the nearest old segment */
                if (from > n - 2) from = n - 2;
                if (from < 0) from = 0;
                for (int32_t c = 0; c < cc; c++)
                    ncv[sg * cc + c] = n >= 2 ? tl->curves[from * cc + c] : (mf_curve){MF_CURVE_LINEAR, 0, 0, 1, 1};
            }
        }
        tl->t = nt, tl->v = nv, tl->iv = niv, tl->curves = ncv, tl->key_count = n + 1;
        if (nn) tl->names = nn;
        n++;
    }
    for (int32_t c = 0; c < comps; c++)
        if (set_f[c]) tl->v[at * comps + c] = v[c];
    for (int32_t c = 0; c < icomps; c++)
        if (set_i[c]) tl->iv[at * icomps + c] = iv[c];
    if (tl->kind == MF_TL_ATTACHMENT) tl->names[at] = name ? mf_clip_strdup(clip, name) : NULL;
    if (curve && has_curve && n >= 2) {
        int32_t seg = at < n - 1 ? at : at - 1; /* the curve leaving the key; the last key's: the one into it */
        for (int32_t c = 0; c < cc; c++) tl->curves[seg * cc + c] = *curve;
    }
    return true;
}

int mfe_skel_key(int argc, char **argv)
{
    key_args a = {0};
    static const char *const groups[][2] = {{"--bone", "bones"},     {"--slot", "slots"},
                                            {"--ik", "ik"},          {"--transform", "transform"},
                                            {"--path", "path"},      {"--physics", "physics"}};
    for (int i = 0; i < argc; i++) {
        const char *o = argv[i];
        const char **dst = NULL;
        for (int g = 0; g < 6; g++)
            if (!strcmp(o, groups[g][0])) {
                if (a.group) return usage("give one of --bone, --slot, --ik, --transform, --path, --physics (%s)", o);
                a.group = groups[g][1];
                dst = &a.target;
            }
        if (!dst) {
            if (!strcmp(o, "--timeline")) dst = &a.timeline;
            else if (!strcmp(o, "--v")) dst = &a.value;
            else if (!strcmp(o, "--curve")) dst = &a.curve;
            else if (!strcmp(o, "--rig")) dst = &a.rig_path;
            else if (!strcmp(o, "--t")) {
                if (++i >= argc || !parse_number(argv[i], &a.t) || a.t < 0)
                    return usage("--t needs a time in seconds, 0 or more%s", "");
                a.has_t = true;
                continue;
            } else if (o[0] == '-' && o[1] == '-') return usage("unknown option \"%s\"", o);
            else if (a.clip_path) return usage("one clip at a time (and \"%s\" is not an option)", o);
            else {
                a.clip_path = o;
                continue;
            }
        }
        if (++i >= argc) return usage("%s needs a value", o);
        *dst = argv[i];
    }
    if (!a.clip_path) return usage("no clip given%s", "");
    if (!a.group) return usage("say what to key: --bone, --slot, --ik, --transform, --path or --physics%s", "");
    if (!a.has_t) return usage("--t TIME is needed%s", "");

    mf_diag d;
    mf_clip *clip = NULL;
    char *before = NULL;
    size_t before_len = 0;
    if (mf_read_file(a.clip_path, &before, &before_len, &d) != MF_OK) return mfe_report(&d);
    char stem[256];
    mf_path_stem(a.clip_path, stem, sizeof stem);
    if (mf_clip_parse(before, before_len, a.clip_path, stem, &clip, &d) != MF_OK) {
        free(before);
        return mfe_report(&d);
    }
    int code = MFE_USAGE;
    mf_skeleton *sk = NULL;
    char rig_path[1200] = "";
    tl_sel sel;
    float v[8] = {0};
    int32_t iv[4] = {0};
    bool set_f[8] = {false}, set_i[4] = {false}, added = false;
    char *name = NULL;
    mf_curve curve;
    char *canon = NULL;
    size_t canon_len = 0;
    if (mf_clip_write(clip, &canon, &canon_len, &d) != MF_OK) goto done;
    bool was_canonical = canon_len == before_len && memcmp(canon, before, before_len) == 0;
    if (!(sk = find_rig(&a, clip, rig_path, sizeof rig_path))) goto done;
    if (!select_timeline(&a, &sel)) goto done;
    if (!parse_value(&a, &sel, v, iv, set_f, set_i, &name)) goto done;
    if (a.curve && !parse_curve(&a, &curve)) goto done;
    if (a.t > clip->length + TIME_EPS) {
        char t[40], len[40];
        mf_format_number(t, sizeof t, a.t), mf_format_number(len, sizeof len, clip->length);
        fprintf(stderr, "mfe: %s: length: t %s is past the clip's length %s (a key there never plays; raise "
                        "\"length\" first)\n", a.clip_path, t, len);
        goto done;
    }
    if (mf_clip_check(clip, sk, a.clip_path, &d) != MF_OK) {
        fprintf(stderr, "mfe: the clip does not match its rig %s; fix it first (mfe skel check):\n", rig_path);
        mfe_report(&d);
        goto done;
    }
    mf_timeline *tl = find_or_add(clip, &sel, a.target);
    if (!tl || !set_key(clip, sk, tl, &sel, a.t, v, iv, set_f, set_i, name, a.curve ? &curve : NULL, &added)) {
        fprintf(stderr, "mfe: out of memory\n");
        goto done;
    }
    mf_clip_sort(clip);
    if (mf_clip_check(clip, sk, a.clip_path, &d) != MF_OK) { /* names the rig lacks, keys that don't fit */
        mfe_report(&d);
        goto done;
    }
    if (mf_clip_save(clip, a.clip_path, &d) != MF_OK) {
        mfe_report(&d);
        goto done;
    }
    char t[40];
    mf_format_number(t, sizeof t, a.t);
    printf("%s: %s.%s.%s: %s the key at t=%s%s\n", a.clip_path, a.group, a.target,
           sel.column >= 0 ? (sel.kind == MF_TL_IK ? IK_COLS : TF_COLS)[sel.column] : mf_timeline_kind_name(sel.kind),
           added ? "added" : "changed", t,
           was_canonical ? "" : " (the file was not in canonical form: it is now, so the diff shows more)");
    code = MFE_OK;
done:
    free(name);
    free(canon);
    free(before);
    mf_skeleton_free(sk);
    mf_clip_free(clip);
    return code;
}
