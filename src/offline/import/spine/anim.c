/* Spine animations → clips: one mf_clip per animation, its timelines and key times, and numeric
 * keys read into values for curves.c. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spine_internal.h"

static const char *const ANIM_KEYS[] = {"bones", "slots", "ik", "transform", "path", "physics", "attachments",
                                        "deform", "drawOrder", "draworder", "events", NULL};

static bool has_curve(mf_timeline_kind k)
{
    return !(k == MF_TL_INHERIT || k == MF_TL_ATTACHMENT || k == MF_TL_SEQUENCE || k == MF_TL_PHYSICS_RESET ||
             k == MF_TL_DRAW_ORDER || k == MF_TL_EVENT);
}

static bool same(const char *x, const char *y) { return (!x && !y) || (x && y && strcmp(x, y) == 0); }

bool sp_duplicate(sp_anim *a, mf_timeline_kind kind, const char *target, const char *skin, const char *attachment)
{
    const mf_clip *clip = a->clip;
    for (int32_t i = 0; i < clip->timeline_count; i++) {
        const mf_timeline *o = &clip->timelines[i];
        if (o->kind == kind && same(o->target, target) && same(o->skin, skin) && same(o->attachment, attachment))
            return !mf_jr_fail(&a->c->jr, "a second %s timeline for the same target", mf_timeline_kind_name(kind));
    }
    return false;
}

mf_timeline *sp_timeline(sp_anim *a, mf_timeline_kind kind, const char *target, int32_t keys)
{
    sp_ctx *c = a->c;
    mf_clip *clip = a->clip;
    if (c->jr.failed) return NULL;
    if (kind != MF_TL_DEFORM && sp_duplicate(a, kind, target, NULL, NULL)) return NULL;
    if (clip->timeline_count == a->cap) {
        int32_t cap = a->cap ? a->cap * 2 : 16;
        mf_timeline *n = mf_clip_alloc(clip, (size_t)cap * sizeof *n);
        if (!n) return sp_oom(c), NULL;
        if (clip->timelines) memcpy(n, clip->timelines, (size_t)clip->timeline_count * sizeof *n);
        clip->timelines = n;
        a->cap = cap;
    }
    mf_timeline *tl = &clip->timelines[clip->timeline_count];
    memset(tl, 0, sizeof *tl);
    tl->kind = kind;
    tl->key_count = keys;
    tl->comps = mf_timeline_kind_comps(kind);
    tl->icomps = mf_timeline_kind_icomps(kind);
    size_t segs = keys > 1 ? (size_t)keys - 1 : 0, per = tl->comps > 0 ? (size_t)tl->comps : 1;
    tl->t = mf_clip_alloc(clip, (size_t)keys * sizeof *tl->t);
    tl->v = tl->comps ? mf_clip_alloc(clip, (size_t)keys * (size_t)tl->comps * sizeof *tl->v) : NULL;
    tl->iv = tl->icomps ? mf_clip_alloc(clip, (size_t)keys * (size_t)tl->icomps * sizeof *tl->iv) : NULL;
    tl->curves = has_curve(kind) ? mf_clip_alloc(clip, (segs + 1) * per * sizeof *tl->curves) : NULL;
    tl->target = target ? mf_clip_strdup(clip, target) : NULL;
    if (!tl->t || (tl->comps && !tl->v) || (tl->icomps && !tl->iv) || (has_curve(kind) && !tl->curves) ||
        (target && !tl->target))
        return sp_oom(c), NULL;
    clip->timeline_count++;
    return tl;
}

bool sp_key_times(sp_anim *a, const cJSON *arr, mf_timeline *tl)
{
    sp_ctx *c = a->c;
    int32_t i = 0;
    for (const cJSON *k = arr->child; k && i < tl->key_count; k = k->next, i++) {
        size_t m = mf_jr_index(&c->jr, (int)i);
        bool ok = mf_jr_expect_object(&c->jr, k) && sp_float(c, k, "time", 0, &tl->t[i]);
        if (ok && tl->t[i] < 0) ok = mf_jr_fail_at(&c->jr, "time", "a key time must not be negative (%g)", (double)tl->t[i]);
        if (ok && i > 0 && tl->t[i] < tl->t[i - 1])
            ok = mf_jr_fail_at(&c->jr, "time", "key times must not decrease (%g after %g)", (double)tl->t[i],
                               (double)tl->t[i - 1]);
        mf_jr_pop(&c->jr, m);
        if (!ok) return false;
        if (tl->t[i] > a->length) a->length = tl->t[i];
    }
    return true;
}

mf_timeline *sp_numeric(sp_anim *a, const cJSON *arr, mf_timeline_kind kind, const char *target,
                        const sp_value *values, int n)
{
    sp_ctx *c = a->c;
    int32_t keys = cJSON_GetArraySize(arr);
    float *v = malloc(((size_t)keys * (size_t)n + 1) * sizeof *v);
    if (!v) return sp_oom(c), NULL;
    int32_t i = 0;
    bool ok = true;
    for (const cJSON *k = arr->child; k && ok; k = k->next, i++) {
        size_t m = mf_jr_index(&c->jr, (int)i);
        ok = mf_jr_expect_object(&c->jr, k);
        for (int j = 0; j < n && ok; j++) {
            float def = values[j].from >= 0 ? v[i * n + values[j].from] : values[j].def;
            ok = sp_float(c, k, values[j].key, def, &v[i * n + j]);
        }
        mf_jr_pop(&c->jr, m);
    }
    int map[8];
    float sign[8], fill[8] = {0};
    for (int j = 0; j < n && j < 8; j++) map[j] = j, sign[j] = values[j].sign;
    mf_timeline *tl = ok ? sp_interpolated(a, arr, kind, target, v, n, map, sign, fill) : NULL;
    free(v);
    return tl;
}

/* A clip's file stem: the animation name with characters that files cannot hold replaced. */
static void file_stem(const char *name, char *out, size_t size)
{
    size_t n = 0;
    for (const char *p = name; *p && n + 1 < size; p++) {
        unsigned char ch = (unsigned char)*p;
        bool bad = ch < 0x20 || strchr("/\\:*?\"<>|", ch) != NULL || (n == 0 && ch == '.');
        out[n++] = bad ? '_' : (char)ch;
    }
    out[n] = '\0';
    if (n == 0) snprintf(out, size, "_");
}

static bool stem_taken(const sp_ctx *c, const char *stem)
{
    for (int32_t i = 0; i < c->clip_count; i++)
        if (strcmp(c->clips[i]->name, stem) == 0) return true;
    return false;
}

/* The uid of a clip: "anm_" + 12 hex digits of a hash of the rig's uid and the clip's name. */
static void clip_uid(const char *skeleton_uid, const char *name, char out[17])
{
    uint64_t h = 1469598103934665603ull;
    for (const char *p = skeleton_uid; *p; p++) h = (h ^ (unsigned char)*p) * 1099511628211ull;
    h = (h ^ '/') * 1099511628211ull;
    for (const char *p = name; *p; p++) h = (h ^ (unsigned char)*p) * 1099511628211ull;
    snprintf(out, 17, "anm_%012llx", (unsigned long long)(h & 0xffffffffffffull));
}

static bool read_animation(sp_ctx *c, const cJSON *obj, const char *name)
{
    char stem[256];
    file_stem(name, stem, sizeof stem);
    if (stem_taken(c, stem)) {
        size_t len = strlen(stem);
        for (int n = 2; stem_taken(c, stem); n++) snprintf(stem + len, sizeof stem - len, "-%d", n);
    }
    if (strcmp(stem, name) != 0) {
        char where[600];
        sp_note_add(&c->rep, "name", NULL, sp_where(c, "", where, sizeof where),
                    "animation \"%s\" is written as clip \"%s\" (a clip's name is its file name)", name, stem);
    }
    mf_clip *clip = mf_clip_create();
    if (!clip) return sp_oom(c);
    c->clips[c->clip_count++] = clip;
    char uid[17];
    clip_uid(c->sk->uid, name, uid);
    if (!(clip->name = mf_clip_strdup(clip, stem)) || !(clip->uid = mf_clip_strdup(clip, uid)) ||
        !(clip->skeleton_uid = mf_clip_strdup(clip, c->sk->uid)))
        return sp_oom(c);
    clip->fps = c->sk->fps;
    clip->loop = MF_LOOP_NONE;
    if (!mf_jr_expect_object(&c->jr, obj)) return false;
    sp_unknown_keys(c, obj, ANIM_KEYS, "animation");
    sp_anim a = {c, clip, 0, 0, NULL, 0};
    const cJSON *draw = cJSON_GetObjectItemCaseSensitive(obj, "drawOrder");
    const char *draw_key = draw ? "drawOrder" : "draworder";
    bool ok = sp_anim_bones(&a, sp_object(c, obj, "bones")) && sp_anim_slots(&a, sp_object(c, obj, "slots")) &&
              sp_anim_constraints(&a, obj) && sp_anim_attachments(&a, obj);
    if (ok) {
        const cJSON *arr = sp_array(c, obj, draw_key);
        size_t m = mf_jr_key(&c->jr, draw_key);
        ok = !c->jr.failed && (!arr || sp_anim_draw_order(&a, arr));
        mf_jr_pop(&c->jr, m);
    }
    if (ok) {
        const cJSON *arr = sp_array(c, obj, "events");
        size_t m = mf_jr_key(&c->jr, "events");
        ok = !c->jr.failed && (!arr || sp_anim_events(&a, arr));
        mf_jr_pop(&c->jr, m);
    }
    free(a.origin);
    clip->length = a.length;
    mf_clip_sort(clip);
    return ok;
}

bool sp_read_animations(sp_ctx *c, const cJSON *root)
{
    const cJSON *anims = sp_object(c, root, "animations");
    if (!anims) return !c->jr.failed;
    int n = cJSON_GetArraySize(anims);
    if (n == 0) return true;
    if (!(c->clips = calloc((size_t)n, sizeof *c->clips))) return sp_oom(c);
    size_t m = mf_jr_key(&c->jr, "animations");
    bool ok = true;
    for (const cJSON *e = anims->child; e && ok; e = e->next) {
        const char *name = e->string ? e->string : "";
        size_t ma = mf_jr_key(&c->jr, name);
        if (!name[0]) ok = mf_jr_fail(&c->jr, "an animation name must not be empty");
        ok = ok && read_animation(c, e, name);
        mf_jr_pop(&c->jr, ma);
    }
    mf_jr_pop(&c->jr, m);
    return ok;
}
