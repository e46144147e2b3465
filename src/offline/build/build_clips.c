/* Building one clip: targets resolved, values into the pools (ik / transform columns filled,
 * draw orders as permutations, events with defaults, deform keys dense), curves as codes. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "build_internal.h"
#include "util/suggest.h"

typedef struct tl_job {
    mf_bctx *c;
    const char *file;
    const mf_timeline *tl;
    char where[300]; /* the timeline's path in the .manim, e.g. bones.thigh_l.rotate */
    mf_sd_timeline out;
} tl_job;

static bool tfail(tl_job *j, const char *sub, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static bool tfail(tl_job *j, const char *sub, const char *fmt, ...)
{
    char where[400], msg[400];
    snprintf(where, sizeof where, "%s%s", j->where, sub ? sub : "");
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return mf_bfail(j->c, j->file, where, "%s", msg);
}

/* ---- name lookups with suggestions ---- */

typedef struct named {
    const void *base;
    size_t stride; /* the name is the first member (char *) */
    int32_t count;
} named;

static const char *name_at(const void *ctx, int i)
{
    const named *n = ctx;
    const char *s;
    memcpy(&s, (const unsigned char *)n->base + (size_t)i * n->stride, sizeof s);
    return s ? s : "";
}

static int32_t lookup(const named *n, const char *name)
{
    for (int32_t i = 0; name && i < n->count; i++)
        if (strcmp(name_at(n, i), name) == 0) return i;
    return -1;
}

static bool resolve(tl_job *j, const named *n, const char *what, const char *name, int32_t *out)
{
    *out = lookup(n, name);
    if (*out >= 0) return true;
    char sug[160];
    mf_suggest_suffix(sug, sizeof sug, name ? mf_suggest(name, n->count, name_at, n) : NULL);
    return tfail(j, NULL, "unknown %s \"%s\"%s", what, name ? name : "", sug);
}

#define NAMED(arr, cnt) ((named){(arr), sizeof *(arr), (cnt)})

/* ---- where and targets ---- */

static const char *group_of(mf_timeline_kind k)
{
    if (k <= MF_TL_INHERIT) return "bones";
    if (k <= MF_TL_SEQUENCE) return "slots";
    if (k == MF_TL_IK) return "ik";
    if (k == MF_TL_TRANSFORM) return "transform";
    if (k <= MF_TL_PATH_MIX) return "path";
    if (k <= MF_TL_PHYSICS_RESET) return "physics";
    if (k == MF_TL_DEFORM) return "deform";
    if (k == MF_TL_DRAW_ORDER) return "drawOrder";
    return "events";
}

static void set_where(tl_job *j)
{
    const mf_timeline *tl = j->tl;
    const char *g = group_of(tl->kind), *t = tl->target ? tl->target : "";
    if (tl->kind == MF_TL_DEFORM)
        snprintf(j->where, sizeof j->where, "deform.%s.%s.%s", tl->skin ? tl->skin : "", t,
                 tl->attachment ? tl->attachment : "");
    else if (tl->kind == MF_TL_DRAW_ORDER || tl->kind == MF_TL_EVENT)
        snprintf(j->where, sizeof j->where, "%s", g);
    else if (tl->kind == MF_TL_IK || tl->kind == MF_TL_TRANSFORM)
        snprintf(j->where, sizeof j->where, "%s.%s", g, t);
    else
        snprintf(j->where, sizeof j->where, "%s.%s.%s", g, t, mf_timeline_kind_name(tl->kind));
}

static bool resolve_target(tl_job *j)
{
    const mf_skeleton *sk = j->c->sk;
    const mf_timeline *tl = j->tl;
    j->out.target = -1;
    j->out.attachment = -1;
    mf_timeline_kind k = tl->kind;
    if (k <= MF_TL_INHERIT) return resolve(j, &NAMED(sk->bones, sk->bone_count), "bone", tl->target, &j->out.target);
    if (k <= MF_TL_SEQUENCE) return resolve(j, &NAMED(sk->slots, sk->slot_count), "slot", tl->target, &j->out.target);
    if (k == MF_TL_IK) return resolve(j, &NAMED(sk->ik, sk->ik_count), "ik constraint", tl->target, &j->out.target);
    if (k == MF_TL_TRANSFORM)
        return resolve(j, &NAMED(sk->transform, sk->transform_count), "transform constraint", tl->target, &j->out.target);
    if (k <= MF_TL_PATH_MIX) return resolve(j, &NAMED(sk->path, sk->path_count), "path constraint", tl->target, &j->out.target);
    if (k <= MF_TL_PHYSICS_RESET) {
        if (!tl->target || !tl->target[0]) return true; /* every physics constraint */
        return resolve(j, &NAMED(sk->physics, sk->physics_count), "physics constraint", tl->target, &j->out.target);
    }
    if (k != MF_TL_DEFORM) return true;
    int32_t skin, slot;
    if (!resolve(j, &NAMED(sk->skins, sk->skin_count), "skin", tl->skin, &skin) ||
        !resolve(j, &NAMED(sk->slots, sk->slot_count), "slot", tl->target, &slot))
        return false;
    const mf_skin *s = &sk->skins[skin];
    for (int32_t a = 0; a < s->attachment_count; a++)
        if (s->attachments[a].slot == slot && s->attachments[a].name && tl->attachment &&
            strcmp(s->attachments[a].name, tl->attachment) == 0) {
            j->out.target = slot;
            j->out.attachment = j->c->att_base[skin] + a;
            return true;
        }
    return tfail(j, NULL, "skin \"%s\" has no attachment \"%s\" on slot \"%s\"", tl->skin, tl->attachment ? tl->attachment : "",
                 tl->target);
}

/* ---- values ---- */

static float *push_values(tl_job *j, int64_t n)
{
    mf_bvec *v = &j->c->sec[MF_SD_SEC_VALUES];
    j->out.value_first = v->len;
    if (n > INT32_MAX) return NULL;
    return mf_bvec_push(v, (int32_t)n);
}

static int32_t *push_ints(tl_job *j, int64_t n)
{
    mf_bvec *v = &j->c->sec[MF_SD_SEC_INTS];
    j->out.int_first = v->len;
    if (n > INT32_MAX) return NULL;
    return mf_bvec_push(v, (int32_t)n);
}

/* Float kinds copied as they are, lengths scaled. */
static bool plain_values(tl_job *j, int32_t comps)
{
    const mf_timeline *tl = j->tl;
    int32_t n = tl->key_count;
    if (tl->comps != comps || !tl->v) return tfail(j, NULL, "inconsistent clip model: %d values a key, expected %d", (int)tl->comps, (int)comps);
    float scale = 1.0f;
    const mf_skeleton *sk = j->c->sk;
    if (tl->kind == MF_TL_TRANSLATE || tl->kind == MF_TL_TRANSLATE_X || tl->kind == MF_TL_TRANSLATE_Y) scale = j->c->scale;
    if (tl->kind == MF_TL_PATH_POSITION && sk->path[j->out.target].position_mode == MF_POSITION_FIXED) scale = j->c->scale;
    if (tl->kind == MF_TL_PATH_SPACING && (sk->path[j->out.target].spacing_mode == MF_SPACING_LENGTH ||
                                           sk->path[j->out.target].spacing_mode == MF_SPACING_FIXED))
        scale = j->c->scale;
    float *o = push_values(j, (int64_t)n * comps);
    if (!o) return mf_boom(j->c);
    for (int64_t i = 0; i < (int64_t)n * comps; i++) o[i] = tl->v[i] * scale;
    j->out.value_comps = comps;
    return true;
}

static bool ik_values(tl_job *j)
{
    const mf_timeline *tl = j->tl;
    const mf_ik_constraint *k = &j->c->sk->ik[j->out.target];
    uint32_t col = tl->columns;
    if (((col & (MF_IK_COL_MIX | MF_IK_COL_SOFTNESS)) && (tl->comps != 2 || !tl->v)) ||
        ((col & (MF_IK_COL_BEND | MF_IK_COL_COMPRESS | MF_IK_COL_STRETCH)) && (tl->icomps != 3 || !tl->iv)))
        return tfail(j, NULL, "inconsistent clip model: ik values");
    float *v = push_values(j, 2 * (int64_t)tl->key_count);
    int32_t *iv = push_ints(j, 3 * (int64_t)tl->key_count);
    if (!v || !iv) return mf_boom(j->c);
    for (int32_t i = 0; i < tl->key_count; i++) {
        v[2 * i] = col & MF_IK_COL_MIX ? tl->v[2 * i] : k->mix;
        v[2 * i + 1] = (col & MF_IK_COL_SOFTNESS ? tl->v[2 * i + 1] : k->softness) * j->c->scale;
        int32_t bend = col & MF_IK_COL_BEND ? tl->iv[3 * i] : k->bend;
        iv[3 * i] = bend < 0 ? -1 : 1;
        iv[3 * i + 1] = (col & MF_IK_COL_COMPRESS ? tl->iv[3 * i + 1] : k->compress) != 0;
        iv[3 * i + 2] = (col & MF_IK_COL_STRETCH ? tl->iv[3 * i + 2] : k->stretch) != 0;
    }
    j->out.value_comps = 2;
    j->out.int_comps = 3;
    return true;
}

static bool transform_values(tl_job *j)
{
    const mf_timeline *tl = j->tl;
    const mf_transform_constraint *t = &j->c->sk->transform[j->out.target];
    if (tl->columns && (tl->comps != 6 || !tl->v)) return tfail(j, NULL, "inconsistent clip model: transform values");
    const float setup[6] = {t->mix_rotate, t->mix_x, t->mix_y, t->mix_scale_x, t->mix_scale_y, t->mix_shear_y};
    float *v = push_values(j, 6 * (int64_t)tl->key_count);
    if (!v) return mf_boom(j->c);
    for (int32_t i = 0; i < tl->key_count; i++)
        for (int c = 0; c < 6; c++) v[6 * i + c] = tl->columns & (1u << c) ? tl->v[6 * i + c] : setup[c];
    j->out.value_comps = 6;
    return true;
}

static bool int_values(tl_job *j, int32_t icomps)
{
    const mf_timeline *tl = j->tl;
    if (tl->icomps != icomps || !tl->iv) return tfail(j, NULL, "inconsistent clip model: %d ints a key, expected %d", (int)tl->icomps, (int)icomps);
    int32_t *o = push_ints(j, (int64_t)tl->key_count * icomps);
    if (!o) return mf_boom(j->c);
    for (int32_t i = 0; i < tl->key_count; i++) {
        const int32_t *s = tl->iv + (size_t)i * (size_t)icomps;
        char sub[40];
        snprintf(sub, sizeof sub, ".v[%d]", (int)i);
        if (tl->kind == MF_TL_INHERIT && (s[0] < 0 || s[0] >= MF_SD_INHERIT_COUNT))
            return tfail(j, sub, "unknown inherit mode %d", (int)s[0]);
        if (tl->kind == MF_TL_SEQUENCE && (s[0] < 0 || s[0] >= MF_SD_SEQ_MODE_COUNT))
            return tfail(j, sub, "unknown sequence mode %d", (int)s[0]);
        memcpy(o + (size_t)i * (size_t)icomps, s, (size_t)icomps * sizeof *s);
    }
    j->out.int_comps = icomps;
    return true;
}

static bool attachment_values(tl_job *j)
{
    const mf_timeline *tl = j->tl;
    if (!tl->names) return tfail(j, NULL, "inconsistent clip model: attachment names missing");
    int32_t *o = push_ints(j, tl->key_count);
    if (!o) return mf_boom(j->c);
    bool ok = true;
    for (int32_t i = 0; i < tl->key_count; i++) {
        int32_t off = mf_intern(j->c, tl->names[i], &ok); /* NULL: -1, no attachment */
        if (!ok) return false;
        MF_BVEC_AT(&j->c->sec[MF_SD_SEC_INTS], int32_t, j->out.int_first)[i] = off;
    }
    j->out.int_comps = 1;
    return true;
}

static bool draw_order_keys(tl_job *j, int32_t first, uint8_t *moved);

/* Moves relative to the setup order → the full order, back to front: moved slots take their
 * new places, the others fill the gaps in setup order. */
static bool draw_order_values(tl_job *j)
{
    const mf_timeline *tl = j->tl;
    const mf_skeleton *sk = j->c->sk;
    int32_t n = sk->slot_count;
    if (!tl->draw_order) return tfail(j, NULL, "inconsistent clip model: draw-order keys missing");
    int32_t *o = push_ints(j, (int64_t)tl->key_count * n);
    if (!o && n && tl->key_count) return mf_boom(j->c);
    int32_t first = j->out.int_first;
    uint8_t *moved = malloc((size_t)n + 1);
    if (!moved) return mf_boom(j->c);
    bool ok = draw_order_keys(j, first, moved);
    free(moved);
    if (ok) j->out.int_comps = n;
    return ok;
}

static bool draw_order_keys(tl_job *j, int32_t first, uint8_t *moved)
{
    const mf_timeline *tl = j->tl;
    const mf_skeleton *sk = j->c->sk;
    int32_t n = sk->slot_count;
    for (int32_t i = 0; i < tl->key_count; i++) {
        int32_t *order = MF_BVEC_AT(&j->c->sec[MF_SD_SEC_INTS], int32_t, first + (int64_t)i * n);
        for (int32_t s = 0; s < n; s++) order[s] = -1;
        const mf_draw_order_key *key = &tl->draw_order[i];
        if (key->move_count < 0 || (key->move_count > 0 && !key->moves))
            return tfail(j, NULL, "inconsistent clip model: draw-order moves");
        for (int32_t m = 0; m < key->move_count; m++) {
            char sub[60];
            snprintf(sub, sizeof sub, ".v[%d][%d]", (int)i, (int)m);
            const mf_draw_order_move *mv = &key->moves[m];
            int32_t slot = lookup(&NAMED(sk->slots, n), mv->slot);
            if (slot < 0) {
                char sug[160];
                mf_suggest_suffix(sug, sizeof sug, mv->slot ? mf_suggest(mv->slot, n, name_at, &NAMED(sk->slots, n)) : NULL);
                return tfail(j, sub, "unknown slot \"%s\"%s", mv->slot ? mv->slot : "", sug);
            }
            int64_t pos = (int64_t)slot + mv->delta;
            if (pos < 0 || pos >= n)
                return tfail(j, sub, "moving \"%s\" by %d leaves the draw order (positions 0..%d)", mv->slot,
                             (int)mv->delta, (int)n - 1);
            for (int32_t k = 0; k < m; k++)
                if (key->moves[k].slot && strcmp(key->moves[k].slot, mv->slot) == 0)
                    return tfail(j, sub, "slot \"%s\" is moved twice in one key", mv->slot);
            if (order[pos] >= 0)
                return tfail(j, sub, "\"%s\" and \"%s\" both move to position %d", sk->slots[order[pos]].name,
                             mv->slot, (int)pos);
            order[pos] = slot;
        }
        /* a slot moved in this key is exactly one that some position holds already */
        for (int32_t s = 0; s < n; s++) moved[s] = 0;
        for (int32_t pos = 0; pos < n; pos++)
            if (order[pos] >= 0) moved[order[pos]] = 1;
        int32_t next = 0;
        for (int32_t pos = 0; pos < n; pos++) {
            if (order[pos] >= 0) continue;
            while (moved[next]) next++;
            order[pos] = next++;
        }
    }
    return true;
}

static bool event_values(tl_job *j)
{
    const mf_timeline *tl = j->tl;
    const mf_skeleton *sk = j->c->sk;
    if (!tl->events) return tfail(j, NULL, "inconsistent clip model: event keys missing");
    float *v = push_values(j, 3 * (int64_t)tl->key_count);
    int32_t *iv = push_ints(j, 3 * (int64_t)tl->key_count);
    if ((!v || !iv) && tl->key_count) return mf_boom(j->c);
    int32_t first = j->out.int_first;
    for (int32_t i = 0; i < tl->key_count; i++) {
        const mf_event_key *e = &tl->events[i];
        int32_t ev = lookup(&NAMED(sk->events, sk->event_count), e->name);
        if (ev < 0) {
            char sub[40], sug[160];
            snprintf(sub, sizeof sub, ".v[%d].name", (int)i);
            mf_suggest_suffix(sug, sizeof sug,
                              e->name ? mf_suggest(e->name, sk->event_count, name_at, &NAMED(sk->events, sk->event_count)) : NULL);
            return tfail(j, sub, "unknown event \"%s\"%s", e->name ? e->name : "", sug);
        }
        const mf_event_def *d = &sk->events[ev];
        bool ok = true;
        int32_t str = mf_intern(j->c, e->has_string ? e->string_value : d->string_value, &ok);
        if (!ok) return false;
        int32_t *o = MF_BVEC_AT(&j->c->sec[MF_SD_SEC_INTS], int32_t, first + 3 * (int64_t)i);
        o[0] = ev;
        o[1] = e->has_int ? e->int_value : d->int_value;
        o[2] = str;
        v[3 * i] = e->has_float ? e->float_value : d->float_value;
        v[3 * i + 1] = e->has_volume ? e->volume : d->volume;
        v[3 * i + 2] = e->has_balance ? e->balance : d->balance;
    }
    j->out.value_comps = 3;
    j->out.int_comps = 3;
    return true;
}

/* Sparse keys (offset, count, floats) → dense arrays of the attachment's deform floats. */
static bool deform_values(tl_job *j)
{
    const mf_timeline *tl = j->tl;
    const mf_sd_attachment *a = MF_BVEC_AT(&j->c->sec[MF_SD_SEC_ATTACHMENTS], mf_sd_attachment, j->out.attachment);
    int32_t n = a->deform_count;
    if (n < 1) return tfail(j, NULL, "attachment \"%s\" has no vertices to deform", tl->attachment);
    if (!tl->deform) return tfail(j, NULL, "inconsistent clip model: deform keys missing");
    float *v = push_values(j, (int64_t)n * tl->key_count);
    if (!v) return mf_boom(j->c);
    for (int32_t i = 0; i < tl->key_count; i++) {
        const mf_deform_key *k = &tl->deform[i];
        if (k->offset < 0 || k->count < 0 || (int64_t)k->offset + k->count > n || (k->count > 0 && !k->v)) {
            char sub[40];
            snprintf(sub, sizeof sub, ".v[%d]", (int)i);
            return tfail(j, sub, "%d floats at offset %d do not fit the attachment's %d vertex floats", (int)k->count,
                         (int)k->offset, (int)n);
        }
        for (int32_t f = 0; f < k->count; f++) v[(size_t)i * (size_t)n + (size_t)k->offset + (size_t)f] = k->v[f] * j->c->scale;
    }
    j->out.value_comps = n;
    return true;
}

static bool build_values(tl_job *j)
{
    switch (j->tl->kind) {
    case MF_TL_INHERIT: return int_values(j, 1);
    case MF_TL_ATTACHMENT: return attachment_values(j);
    case MF_TL_SEQUENCE: return plain_values(j, 1) && int_values(j, 2);
    case MF_TL_IK: return ik_values(j);
    case MF_TL_TRANSFORM: return transform_values(j);
    case MF_TL_PHYSICS_RESET: j->out.value_first = j->c->sec[MF_SD_SEC_VALUES].len; return true;
    case MF_TL_DEFORM: return deform_values(j);
    case MF_TL_DRAW_ORDER: return draw_order_values(j);
    case MF_TL_EVENT: return event_values(j);
    default: return plain_values(j, mf_timeline_kind_comps(j->tl->kind));
    }
}

/* ---- curves ---- */

static bool build_curves(tl_job *j)
{
    const mf_timeline *tl = j->tl;
    mf_timeline_kind k = tl->kind;
    bool curved = k != MF_TL_INHERIT && k != MF_TL_ATTACHMENT && k != MF_TL_SEQUENCE && k != MF_TL_PHYSICS_RESET &&
                  k != MF_TL_DRAW_ORDER && k != MF_TL_EVENT;
    if (!curved) {
        j->out.curve_first = -1;
        return true;
    }
    int32_t cc = k == MF_TL_DEFORM ? 1 : j->out.value_comps, stride = tl->comps > 0 ? tl->comps : 1, segs = tl->key_count - 1;
    if (cc > stride) return tfail(j, NULL, "inconsistent clip model: %d curves a segment, expected %d", (int)stride, (int)cc);
    mf_bvec *cv = &j->c->sec[MF_SD_SEC_CURVES];
    j->out.curve_first = cv->len;
    j->out.curve_comps = cc;
    if (!mf_bvec_push(cv, segs * cc) && segs * cc != 0) return mf_boom(j->c);
    for (int32_t s = 0; s < segs; s++)
        for (int32_t c = 0; c < cc; c++) {
            int32_t code = MF_SD_CURVE_LINEAR;
            const mf_curve *cu = tl->curves ? &tl->curves[(size_t)s * (size_t)stride + (size_t)c] : NULL;
            if (cu && cu->type == MF_CURVE_STEPPED) code = MF_SD_CURVE_STEPPED;
            if (cu && cu->type == MF_CURVE_BEZIER) {
                char sub[40];
                snprintf(sub, sizeof sub, ".curve[%d]", (int)s);
                float p[4] = {cu->cx1, cu->cy1, cu->cx2, cu->cy2};
                for (int q = 0; q < 4; q++)
                    if (!(p[q] - p[q] == 0.0f)) return tfail(j, sub, "a bezier control is not a finite number");
                if (!mf_build_bezier(j->c, p[0], p[1], p[2], p[3], &code)) return false;
            }
            *MF_BVEC_AT(cv, int32_t, j->out.curve_first + s * cc + c) = code;
        }
    return true;
}

static bool build_timeline(mf_bctx *c, const char *file, const mf_timeline *tl)
{
    tl_job j = {.c = c, .file = file, .tl = tl};
    if ((int)tl->kind < 0 || tl->kind >= MF_TL_KIND_COUNT)
        return mf_bfail(c, file, "", "unknown timeline kind %d", (int)tl->kind);
    set_where(&j);
    if (tl->key_count <= 0) return true; /* nothing to play */
    if (!tl->t) return tfail(&j, NULL, "inconsistent clip model: key times missing");
    if (!resolve_target(&j)) return false;
    mf_bvec *tv = &c->sec[MF_SD_SEC_TIMES];
    j.out.kind = (uint16_t)tl->kind;
    j.out.key_first = tv->len;
    j.out.key_count = tl->key_count;
    float *t = mf_bvec_push(tv, tl->key_count);
    if (!t) return mf_boom(c);
    for (int32_t i = 0; i < tl->key_count; i++) {
        char sub[40];
        snprintf(sub, sizeof sub, ".t[%d]", (int)i);
        if (!(tl->t[i] - tl->t[i] == 0.0f)) return tfail(&j, sub, "a key time is not a finite number");
        if (i > 0 && tl->t[i] < tl->t[i - 1])
            return tfail(&j, sub, "key times must ascend: %g after %g", (double)tl->t[i], (double)tl->t[i - 1]);
        t[i] = tl->t[i];
    }
    j.out.value_first = c->sec[MF_SD_SEC_VALUES].len;
    j.out.int_first = c->sec[MF_SD_SEC_INTS].len;
    if (!build_values(&j) || !build_curves(&j)) return false;
    mf_sd_timeline *o = mf_bvec_push(&c->sec[MF_SD_SEC_TIMELINES], 1);
    if (!o) return mf_boom(c);
    *o = j.out;
    return true;
}

bool mf_build_clip(mf_bctx *c, const mf_clip *clip, const char *file)
{
    if (clip->timeline_count < 0 || (clip->timeline_count > 0 && !clip->timelines))
        return mf_bfail(c, file, "", "inconsistent clip model (timelines)");
    if (!(clip->length >= 0.0f) || !(clip->length - clip->length == 0.0f))
        return mf_bfail(c, file, "length", "length must be a finite number >= 0");
    if ((int)clip->loop < 0 || (int)clip->loop >= MF_SD_LOOP_COUNT) return mf_bfail(c, file, "loop", "unknown loop mode %d", (int)clip->loop);
    bool ok = true;
    int32_t name = mf_intern(c, clip->name ? clip->name : "", &ok);
    if (!ok) return false;
    int32_t first = c->sec[MF_SD_SEC_TIMELINES].len;
    for (int32_t i = 0; i < clip->timeline_count; i++)
        if (!build_timeline(c, file, &clip->timelines[i])) return false;
    mf_sd_clip *o = mf_bvec_push(&c->sec[MF_SD_SEC_CLIPS], 1);
    if (!o) return mf_boom(c);
    o->name = name;
    o->length = clip->length;
    o->fps = clip->fps;
    o->loop = (uint8_t)clip->loop;
    o->timeline_first = first;
    o->timeline_count = c->sec[MF_SD_SEC_TIMELINES].len - first;
    return true;
}
