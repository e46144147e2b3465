/* Reading one .manim timeline object: times, the kind's values and the curves. The caller has
 * set kind, target, skin and attachment, and the reader's path points at the object. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "manim_read.h"
#include "util/buf.h"
#include "util/suggest.h"

static const char *const INHERIT_NAMES[] = {"Normal", "OnlyTranslation", "NoRotationOrReflection",
                                            "NoScale", "NoScaleOrReflection", NULL};
static const char *const SEQ_NAMES[] = {"hold", "once", "loop", "pingpong", "onceReverse",
                                        "loopReverse", "pingpongReverse", NULL};
static const char *const CURVE_NAMES[] = {"linear", "stepped", NULL};

static const char *num(char *buf, float v)
{
    mf_format_number(buf, 40, v);
    return buf;
}

/* `unknown WHAT "x" (did you mean "y"?)`, or the list of choices when nothing is close. */
bool mf_manim_fail_enum(mf_jr *r, const char *what, const char *got, const char *const *names)
{
    const char *s = mf_suggest_list(got, names);
    if (s) return mf_jr_fail(r, "unknown %s \"%s\" (did you mean \"%s\"?)", what, got, s);
    char list[256] = "";
    size_t n = 0;
    for (int i = 0; names[i] && n < sizeof list; i++) {
        int w = snprintf(list + n, sizeof list - n, "%s\"%s\"", i == 0 ? "" : names[i + 1] ? ", " : " or ",
                         names[i]);
        if (w > 0) n += (size_t)w;
    }
    return mf_jr_fail(r, "unknown %s \"%s\" (expected %s)", what, got, list);
}

static int find_name(const char *s, const char *const *names)
{
    for (int i = 0; names[i]; i++)
        if (strcmp(s, names[i]) == 0) return i;
    return -1;
}

static bool oom(mf_jr *r) { return mf_jr_fail(r, "out of memory"); }

static bool read_times(mf_jr *r, mf_clip *c, const cJSON *obj, mf_timeline *tl)
{
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(obj, "t");
    if (!t) return mf_jr_fail(r, "missing \"t\" (the key times)");
    size_t m = mf_jr_key(r, "t");
    if (!mf_jr_expect_array(r, t)) return false;
    int n = cJSON_GetArraySize(t);
    if (n == 0) return mf_jr_fail(r, "a timeline needs at least one key");
    tl->key_count = n;
    if (!(tl->t = mf_clip_alloc(c, (size_t)n * sizeof(float)))) return oom(r);
    int i = 0;
    char a[40], b[40];
    for (const cJSON *e = t->child; e; e = e->next, i++) {
        size_t mi = mf_jr_index(r, i);
        float v;
        if (!mf_jr_value_float(r, e, &v)) return false;
        if (v < 0) return mf_jr_fail(r, "times must not be negative (%s)", num(a, v));
        if (i > 0 && v < tl->t[i - 1])
            return mf_jr_fail(r, "times must not decrease (%s after %s)", num(a, v), num(b, tl->t[i - 1]));
        tl->t[i] = v;
        mf_jr_pop(r, mi);
    }
    mf_jr_pop(r, m);
    return true;
}

/* The array `key` with one entry per key time. Missing: *out = NULL, fails when required. */
static bool key_array(mf_jr *r, const cJSON *obj, const char *key, const mf_timeline *tl, bool required,
                      const cJSON **out)
{
    *out = NULL;
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!a) return required ? mf_jr_fail(r, "missing \"%s\" (the key values)", key) : true;
    size_t m = mf_jr_key(r, key);
    if (!mf_jr_expect_array(r, a)) return false;
    int n = cJSON_GetArraySize(a);
    if (n != tl->key_count)
        return mf_jr_fail(r, "%d value%s for %d time%s", n, n == 1 ? "" : "s", tl->key_count,
                          tl->key_count == 1 ? "" : "s");
    mf_jr_pop(r, m);
    *out = a;
    return true;
}

/* A colour string of exactly "#rrggbbaa" (alpha) or "#rrggbb" into comps 0..1 floats. */
static bool read_color(mf_jr *r, const cJSON *e, bool alpha, float *out)
{
    const char *want = alpha ? "#rrggbbaa" : "#rrggbb";
    if (!cJSON_IsString(e)) return mf_jr_fail(r, "expected a colour \"%s\", got %s", want, mf_jr_type_name(e));
    if (strlen(e->valuestring) != (alpha ? 9u : 7u) || e->valuestring[0] != '#')
        return mf_jr_fail(r, "bad colour \"%s\": expected \"%s\"", e->valuestring, want);
    uint32_t c;
    if (!mf_jr_color_value(r, e, &c)) return false;
    for (int k = 0; k < (alpha ? 4 : 3); k++) out[k] = (float)((c >> (24 - 8 * k)) & 0xffu) / 255.0f;
    return true;
}

/* A value that is `comps` numbers: a bare number for 1, else an array. */
static bool read_floats(mf_jr *r, const cJSON *e, int32_t comps, const char *shape, float *out)
{
    if (comps == 1) return mf_jr_value_float(r, e, out);
    if (!cJSON_IsArray(e)) return mf_jr_fail(r, "expected %s, got %s", shape, mf_jr_type_name(e));
    int n = cJSON_GetArraySize(e);
    if (n != comps) return mf_jr_fail(r, "expected %s, got %d number%s", shape, n, n == 1 ? "" : "s");
    int k = 0;
    for (const cJSON *x = e->child; x; x = x->next, k++) {
        size_t m = mf_jr_index(r, k);
        if (!mf_jr_value_float(r, x, &out[k])) return false;
        mf_jr_pop(r, m);
    }
    return true;
}

static bool read_sequence(mf_jr *r, const cJSON *e, int32_t *iv, float *delay)
{
    static const char *const keys[] = {"mode", "index", "delay", NULL};
    if (!mf_jr_expect_object(r, e) || !mf_jr_keys(r, e, keys)) return false;
    const cJSON *mode = cJSON_GetObjectItemCaseSensitive(e, "mode");
    if (!mode) return mf_jr_fail(r, "missing \"mode\"");
    size_t m = mf_jr_key(r, "mode");
    if (!cJSON_IsString(mode)) return mf_jr_fail(r, "expected a string, got %s", mf_jr_type_name(mode));
    int md = find_name(mode->valuestring, SEQ_NAMES);
    if (md < 0) return mf_manim_fail_enum(r, "sequence mode", mode->valuestring, SEQ_NAMES);
    mf_jr_pop(r, m);
    iv[0] = md;
    if (!mf_jr_int(r, e, "index", 0, &iv[1]) || !mf_jr_float(r, e, "delay", 0, delay)) return false;
    if (iv[1] < 0) return mf_jr_fail_at(r, "index", "a frame index must not be negative (%d)", (int)iv[1]);
    char a[40];
    if (*delay < 0) return mf_jr_fail_at(r, "delay", "a delay must not be negative (%s)", num(a, *delay));
    return true;
}

static bool read_event(mf_jr *r, mf_clip *c, const cJSON *e, mf_event_key *ev)
{
    static const char *const keys[] = {"name", "int", "float", "string", "volume", "balance", NULL};
    if (!mf_jr_expect_object(r, e) || !mf_jr_keys(r, e, keys)) return false;
    if (!mf_jr_name(r, c->arena, e, "name", &ev->name)) return false;
    ev->has_int = cJSON_GetObjectItemCaseSensitive(e, "int") != NULL;
    ev->has_float = cJSON_GetObjectItemCaseSensitive(e, "float") != NULL;
    ev->has_string = cJSON_GetObjectItemCaseSensitive(e, "string") != NULL;
    ev->has_volume = cJSON_GetObjectItemCaseSensitive(e, "volume") != NULL;
    ev->has_balance = cJSON_GetObjectItemCaseSensitive(e, "balance") != NULL;
    if (!mf_jr_int(r, e, "int", 0, &ev->int_value) || !mf_jr_float(r, e, "float", 0, &ev->float_value) ||
        !mf_jr_string(r, c->arena, e, "string", NULL, &ev->string_value) ||
        !mf_jr_float(r, e, "volume", 1, &ev->volume) || !mf_jr_float(r, e, "balance", 0, &ev->balance))
        return false;
    char a[40];
    if (ev->volume < 0) return mf_jr_fail_at(r, "volume", "volume must not be negative (%s)", num(a, ev->volume));
    if (ev->balance < -1 || ev->balance > 1)
        return mf_jr_fail_at(r, "balance", "balance must be within -1..1 (%s)", num(a, ev->balance));
    return true;
}

static int cmp_move(const void *a, const void *b)
{
    const mf_draw_order_move *const *x = a, *const *y = b;
    int c = strcmp((*x)->slot, (*y)->slot);
    return c ? c : (*x < *y ? -1 : *x > *y);
}

/* The first move (in file order) naming a slot an earlier move of the key names; -1 when none,
 * -2 when out of memory. Sorting keeps a key of many moves fast. */
static int first_repeat(const mf_draw_order_key *key)
{
    if (key->move_count < 2) return -1;
    const mf_draw_order_move **p = malloc((size_t)key->move_count * sizeof *p);
    if (!p) return -2;
    for (int32_t i = 0; i < key->move_count; i++) p[i] = &key->moves[i];
    qsort(p, (size_t)key->move_count, sizeof *p, cmp_move);
    int best = -1;
    for (int32_t i = 1; i < key->move_count; i++) {
        int at = (int)(p[i] - key->moves);
        if (strcmp(p[i - 1]->slot, p[i]->slot) == 0 && (best < 0 || at < best)) best = at;
    }
    free(p);
    return best;
}

static bool read_draw_order(mf_jr *r, mf_clip *c, const cJSON *e, mf_draw_order_key *key)
{
    if (!mf_jr_expect_array(r, e)) return false;
    int n = cJSON_GetArraySize(e);
    key->move_count = n;
    if (!(key->moves = mf_clip_alloc(c, (size_t)n * sizeof *key->moves))) return oom(r);
    int i = 0;
    for (const cJSON *mv = e->child; mv; mv = mv->next, i++) {
        size_t m = mf_jr_index(r, i);
        if (!cJSON_IsArray(mv) || cJSON_GetArraySize(mv) != 2 || !cJSON_IsString(mv->child))
            return mf_jr_fail(r, "expected a move [\"slot\", delta], got %s", mf_jr_type_name(mv));
        const char *slot = mv->child->valuestring;
        if (!slot[0]) return mf_jr_fail(r, "a slot name must not be empty");
        size_t md = mf_jr_index(r, 1);
        if (!mf_jr_value_int(r, mv->child->next, &key->moves[i].delta)) return false;
        mf_jr_pop(r, md);
        if (!(key->moves[i].slot = mf_clip_strdup(c, slot))) return oom(r);
        mf_jr_pop(r, m);
    }
    int dup = first_repeat(key);
    if (dup == -2) return oom(r);
    if (dup >= 0) {
        mf_jr_index(r, dup);
        return mf_jr_fail(r, "slot \"%s\" moves twice in one key", key->moves[dup].slot);
    }
    return true;
}

static bool read_deform(mf_jr *r, mf_clip *c, const cJSON *obj, mf_timeline *tl)
{
    const cJSON *off, *v;
    if (!key_array(r, obj, "offset", tl, false, &off) || !key_array(r, obj, "v", tl, true, &v)) return false;
    if (!(tl->deform = mf_clip_alloc(c, (size_t)tl->key_count * sizeof *tl->deform))) return oom(r);
    size_t m = mf_jr_key(r, "offset");
    int i = 0;
    for (const cJSON *e = off ? off->child : NULL; e; e = e->next, i++) {
        size_t mi = mf_jr_index(r, i);
        if (!mf_jr_value_int(r, e, &tl->deform[i].offset)) return false;
        if (tl->deform[i].offset < 0)
            return mf_jr_fail(r, "an offset must not be negative (%d)", (int)tl->deform[i].offset);
        mf_jr_pop(r, mi);
    }
    mf_jr_pop(r, m);
    m = mf_jr_key(r, "v");
    i = 0;
    for (const cJSON *e = v->child; e; e = e->next, i++) {
        size_t mi = mf_jr_index(r, i);
        mf_deform_key *k = &tl->deform[i];
        if (!cJSON_IsArray(e)) return mf_jr_fail(r, "expected an array of numbers, got %s", mf_jr_type_name(e));
        k->count = cJSON_GetArraySize(e);
        if ((int64_t)k->offset + k->count > INT32_MAX) return mf_jr_fail(r, "offset + count is too large");
        if (!(k->v = mf_clip_alloc(c, (size_t)k->count * sizeof(float)))) return oom(r);
        int j = 0;
        for (const cJSON *x = e->child; x; x = x->next, j++) {
            size_t mj = mf_jr_index(r, j);
            if (!mf_jr_value_float(r, x, &k->v[j])) return false;
            mf_jr_pop(r, mj);
        }
        mf_jr_pop(r, mi);
    }
    mf_jr_pop(r, m);
    return true;
}

/* ik and transform: optional value columns, at least one present. */
static const char *const IK_COLS[] = {"mix", "softness", "bend", "compress", "stretch", NULL};
static const char *const TF_COLS[] = {"mixRotate", "mixX", "mixY", "mixScaleX", "mixScaleY", "mixShearY", NULL};

static bool read_columns(mf_jr *r, const cJSON *obj, mf_timeline *tl)
{
    bool ik = tl->kind == MF_TL_IK;
    const char *const *cols = ik ? IK_COLS : TF_COLS;
    for (int k = 0; k < tl->key_count; k++) { /* absent columns: the setup defaults */
        if (ik) {
            tl->v[k * 2] = 1;
            tl->iv[k * 3] = 1;
        } else {
            for (int j = 0; j < 6; j++) tl->v[k * 6 + j] = 1;
        }
    }
    for (int col = 0; cols[col]; col++) {
        const cJSON *a;
        if (!key_array(r, obj, cols[col], tl, false, &a)) return false;
        if (!a) continue;
        tl->columns |= 1u << col;
        size_t m = mf_jr_key(r, cols[col]);
        int i = 0;
        for (const cJSON *e = a->child; e; e = e->next, i++) {
            size_t mi = mf_jr_index(r, i);
            if (!ik || col < 2) {
                if (!mf_jr_value_float(r, e, &tl->v[i * tl->comps + col])) return false;
            } else if (col == 2) {
                int32_t bend;
                if (!mf_jr_value_int(r, e, &bend)) return false;
                if (bend != 1 && bend != -1) return mf_jr_fail(r, "bend must be 1 or -1, got %d", (int)bend);
                tl->iv[i * 3] = bend;
            } else {
                if (!cJSON_IsBool(e)) return mf_jr_fail(r, "expected true or false, got %s", mf_jr_type_name(e));
                tl->iv[i * 3 + col - 2] = cJSON_IsTrue(e);
            }
            mf_jr_pop(r, mi);
        }
        mf_jr_pop(r, m);
    }
    if (!tl->columns) {
        return ik ? mf_jr_fail(r, "no values: expected at least one of \"mix\", \"softness\", \"bend\", "
                                  "\"compress\", \"stretch\"")
                  : mf_jr_fail(r, "no values: expected at least one of \"mixRotate\", \"mixX\", \"mixY\", "
                                  "\"mixScaleX\", \"mixScaleY\", \"mixShearY\"");
    }
    return true;
}

static const char *shape_of(mf_timeline_kind k)
{
    switch (k) {
    case MF_TL_TRANSLATE: return "[x, y]";
    case MF_TL_SCALE: return "[scaleX, scaleY]";
    case MF_TL_SHEAR: return "[shearX, shearY]";
    case MF_TL_PATH_MIX: return "[mixRotate, mixX, mixY]";
    default: return "a number";
    }
}

/* The "v" array of the kinds with one value per key. */
static bool read_values(mf_jr *r, mf_clip *c, const cJSON *obj, mf_timeline *tl)
{
    const cJSON *v;
    if (!key_array(r, obj, "v", tl, true, &v)) return false;
    if (tl->kind == MF_TL_ATTACHMENT && !(tl->names = mf_clip_alloc(c, (size_t)tl->key_count * sizeof(char *))))
        return oom(r);
    if (tl->kind == MF_TL_DRAW_ORDER &&
        !(tl->draw_order = mf_clip_alloc(c, (size_t)tl->key_count * sizeof *tl->draw_order)))
        return oom(r);
    if (tl->kind == MF_TL_EVENT && !(tl->events = mf_clip_alloc(c, (size_t)tl->key_count * sizeof *tl->events)))
        return oom(r);
    size_t m = mf_jr_key(r, "v");
    int i = 0;
    for (const cJSON *e = v->child; e; e = e->next, i++) {
        size_t mi = mf_jr_index(r, i);
        float *fv = tl->v + (size_t)i * (size_t)tl->comps;
        int32_t *iv = tl->iv + (size_t)i * (size_t)tl->icomps;
        bool ok = true;
        switch (tl->kind) {
        case MF_TL_INHERIT:
            if (!cJSON_IsString(e)) {
                ok = mf_jr_fail(r, "expected an inherit mode, got %s", mf_jr_type_name(e));
            } else if ((iv[0] = find_name(e->valuestring, INHERIT_NAMES)) < 0) {
                ok = mf_manim_fail_enum(r, "inherit mode", e->valuestring, INHERIT_NAMES);
            }
            break;
        case MF_TL_ATTACHMENT:
            if (cJSON_IsNull(e)) break;
            if (!cJSON_IsString(e) || !e->valuestring[0])
                ok = mf_jr_fail(r, "expected an attachment name or null, got %s",
                                cJSON_IsString(e) ? "an empty string" : mf_jr_type_name(e));
            else if (!(tl->names[i] = mf_clip_strdup(c, e->valuestring)))
                ok = oom(r);
            break;
        case MF_TL_RGBA: ok = read_color(r, e, true, fv); break;
        case MF_TL_RGB: ok = read_color(r, e, false, fv); break;
        case MF_TL_RGBA2:
            if (!cJSON_IsArray(e) || cJSON_GetArraySize(e) != 2) {
                ok = mf_jr_fail(r, "expected [\"#rrggbbaa\", \"#rrggbb\"] (light, dark), got %s",
                                cJSON_IsArray(e) ? "another array" : mf_jr_type_name(e));
                break;
            }
            {
                size_t mc = mf_jr_index(r, 0);
                ok = read_color(r, e->child, true, fv);
                mf_jr_pop(r, mc);
                mc = mf_jr_index(r, 1);
                ok = ok && read_color(r, e->child->next, false, fv + 4);
                mf_jr_pop(r, mc);
            }
            break;
        case MF_TL_SEQUENCE: ok = read_sequence(r, e, iv, fv); break;
        case MF_TL_DRAW_ORDER: ok = read_draw_order(r, c, e, &tl->draw_order[i]); break;
        case MF_TL_EVENT: ok = read_event(r, c, e, &tl->events[i]); break;
        default: ok = read_floats(r, e, tl->comps, shape_of(tl->kind), fv); break;
        }
        if (!ok) return false;
        mf_jr_pop(r, mi);
    }
    mf_jr_pop(r, m);
    return true;
}

/* "linear", "stepped" or [cx1, cy1, cx2, cy2] (x within 0..1). */
static bool read_curve(mf_jr *r, const cJSON *e, mf_curve *out)
{
    if (cJSON_IsString(e)) {
        int k = find_name(e->valuestring, CURVE_NAMES);
        if (k < 0) return mf_manim_fail_enum(r, "curve", e->valuestring, CURVE_NAMES);
        out->type = k == 0 ? MF_CURVE_LINEAR : MF_CURVE_STEPPED;
        return true;
    }
    if (!cJSON_IsArray(e) || cJSON_GetArraySize(e) != 4)
        return mf_jr_fail(r, "expected \"linear\", \"stepped\" or a bezier [cx1, cy1, cx2, cy2], got %s",
                          cJSON_IsArray(e) ? "an array of another length" : mf_jr_type_name(e));
    float p[4];
    int k = 0;
    for (const cJSON *x = e->child; x; x = x->next, k++) {
        size_t m = mf_jr_index(r, k);
        if (!mf_jr_value_float(r, x, &p[k])) return false;
        char a[40];
        if ((k == 0 || k == 2) && (p[k] < 0 || p[k] > 1))
            return mf_jr_fail(r, "a bezier x (time) control must be within 0..1, got %s", num(a, p[k]));
        mf_jr_pop(r, m);
    }
    *out = (mf_curve){MF_CURVE_BEZIER, p[0], p[1], p[2], p[3]};
    return true;
}

static bool is_four_numbers(const cJSON *e)
{
    if (!cJSON_IsArray(e) || cJSON_GetArraySize(e) != 4) return false;
    for (const cJSON *x = e->child; x; x = x->next)
        if (!cJSON_IsNumber(x)) return false;
    return true;
}

static bool read_curves(mf_jr *r, mf_clip *c, const cJSON *obj, mf_timeline *tl)
{
    int32_t segs = tl->key_count - 1, comps = tl->comps > 0 ? tl->comps : 1;
    if (!(tl->curves = mf_clip_alloc(c, (size_t)segs * (size_t)comps * sizeof *tl->curves))) return oom(r);
    const cJSON *cv = cJSON_GetObjectItemCaseSensitive(obj, "curve");
    if (!cv) return true; /* all linear (zeroed) */
    size_t m = mf_jr_key(r, "curve");
    if (!mf_jr_expect_array(r, cv)) return false;
    int n = cJSON_GetArraySize(cv);
    if (n != segs)
        return mf_jr_fail(r, "%d curve%s for %d segment%s (one per pair of neighbouring keys)", n,
                          n == 1 ? "" : "s", segs, segs == 1 ? "" : "s");
    int s = 0;
    for (const cJSON *e = cv->child; e; e = e->next, s++) {
        size_t ms = mf_jr_index(r, s);
        mf_curve *seg = tl->curves + (size_t)s * (size_t)comps;
        if (cJSON_IsString(e) || is_four_numbers(e) || comps == 1 || !cJSON_IsArray(e)) {
            if (!read_curve(r, e, &seg[0])) return false;
            for (int k = 1; k < comps; k++) seg[k] = seg[0];
        } else {
            int got = cJSON_GetArraySize(e);
            if (got != comps)
                return mf_jr_fail(r, "expected one shared curve or one curve per component (%d), got %d entries",
                                  (int)comps, got);
            int k = 0;
            for (const cJSON *x = e->child; x; x = x->next, k++) {
                size_t mk = mf_jr_index(r, k);
                if (!read_curve(r, x, &seg[k])) return false;
                mf_jr_pop(r, mk);
            }
        }
        mf_jr_pop(r, ms);
    }
    mf_jr_pop(r, m);
    return true;
}

bool mf_manim_read_timeline(mf_jr *r, mf_clip *c, const cJSON *obj, mf_timeline *tl)
{
    static const char *const k_values[] = {"t", "v", "curve", NULL};
    static const char *const k_discrete[] = {"t", "v", NULL};
    static const char *const k_times[] = {"t", NULL};
    static const char *const k_ik[] = {"t", "mix", "softness", "bend", "compress", "stretch", "curve", NULL};
    static const char *const k_tf[] = {"t", "mixRotate", "mixX", "mixY", "mixScaleX", "mixScaleY", "mixShearY",
                                       "curve", NULL};
    static const char *const k_deform[] = {"t", "offset", "v", "curve", NULL};
    if (!mf_jr_expect_object(r, obj)) return false;
    bool curved = mf_clip_kind_has_curve(tl->kind);
    if (!curved && cJSON_GetObjectItemCaseSensitive(obj, "curve"))
        return mf_jr_fail_at(r, "curve", "%s keys are discrete: they take no \"curve\"", mf_timeline_kind_name(tl->kind));
    if (tl->kind == MF_TL_PHYSICS_RESET && cJSON_GetObjectItemCaseSensitive(obj, "v"))
        return mf_jr_fail_at(r, "v", "reset keys are times only: they take no \"v\"");
    if ((tl->kind == MF_TL_IK || tl->kind == MF_TL_TRANSFORM) && cJSON_GetObjectItemCaseSensitive(obj, "v"))
        return mf_jr_fail_at(r, "v", "%s keys give each value its own array (%s), not \"v\"",
                             mf_timeline_kind_name(tl->kind),
                             tl->kind == MF_TL_IK ? "\"mix\", \"softness\", \"bend\" …" : "\"mixRotate\", \"mixX\" …");
    const char *const *keys = tl->kind == MF_TL_IK          ? k_ik
                              : tl->kind == MF_TL_TRANSFORM ? k_tf
                              : tl->kind == MF_TL_DEFORM    ? k_deform
                              : tl->kind == MF_TL_PHYSICS_RESET ? k_times
                              : curved                      ? k_values
                                                            : k_discrete;
    if (!mf_jr_keys(r, obj, keys) || !read_times(r, c, obj, tl)) return false;
    tl->comps = mf_timeline_kind_comps(tl->kind);
    tl->icomps = mf_timeline_kind_icomps(tl->kind);
    size_t n = (size_t)tl->key_count;
    if (!(tl->v = mf_clip_alloc(c, n * (size_t)tl->comps * sizeof(float))) ||
        !(tl->iv = mf_clip_alloc(c, n * (size_t)tl->icomps * sizeof(int32_t))))
        return oom(r);
    bool ok;
    switch (tl->kind) {
    case MF_TL_PHYSICS_RESET: ok = true; break;
    case MF_TL_IK:
    case MF_TL_TRANSFORM: ok = read_columns(r, obj, tl); break;
    case MF_TL_DEFORM: ok = read_deform(r, c, obj, tl); break;
    default: ok = read_values(r, c, obj, tl); break;
    }
    return ok && (!curved || read_curves(r, c, obj, tl));
}
