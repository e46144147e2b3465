/* The .manim reader: the header fields and the groups of targets; timelines themselves are read
 * by manim_read_tl.c. The result is sorted into the canonical order. */
#include <stdlib.h>
#include <string.h>

#include "manim_read.h"
#include "util/files.h"
#include "util/suggest.h"

typedef struct rd {
    mf_jr r;
    mf_clip *clip;
    mf_timeline *tls; /* malloc'd while reading, moved into the arena at the end */
    int32_t count, cap;
} rd;

static bool push(rd *d, const mf_timeline *tl)
{
    if (d->count == d->cap) {
        int32_t cap = d->cap ? d->cap * 2 : 16;
        mf_timeline *n = realloc(d->tls, (size_t)cap * sizeof *n);
        if (!n) return mf_jr_fail(&d->r, "out of memory");
        d->tls = n;
        d->cap = cap;
    }
    d->tls[d->count++] = *tl;
    return true;
}

static int cmp_member(const void *a, const void *b)
{
    return strcmp((*(const cJSON *const *)a)->string, (*(const cJSON *const *)b)->string);
}

/* obj must be an object whose member names are unique (cJSON keeps duplicates). */
static bool unique_members(mf_jr *r, const cJSON *obj, const char *what)
{
    if (!mf_jr_expect_object(r, obj)) return false;
    int n = cJSON_GetArraySize(obj);
    if (n < 2) return true;
    const cJSON **m = malloc((size_t)n * sizeof *m);
    if (!m) return mf_jr_fail(r, "out of memory");
    int i = 0;
    for (const cJSON *c = obj->child; c; c = c->next) m[i++] = c;
    qsort(m, (size_t)n, sizeof *m, cmp_member);
    bool ok = true;
    for (i = 1; i < n && ok; i++)
        if (strcmp(m[i - 1]->string, m[i]->string) == 0)
            ok = mf_jr_fail_at(r, m[i]->string, "duplicate %s \"%s\"", what, m[i]->string);
    free(m);
    return ok;
}

static bool nonempty_name(mf_jr *r, const char *name, const char *what)
{
    return name[0] ? true : mf_jr_fail(r, "%s name must not be empty", what);
}

static bool read_one(rd *d, const cJSON *obj, mf_timeline *tl)
{
    return mf_manim_read_timeline(&d->r, d->clip, obj, tl) && push(d, tl);
}

/* A target's object of timelines whose kinds lie in first..last. */
static bool read_target(rd *d, const cJSON *tobj, const char *target, mf_timeline_kind first,
                        mf_timeline_kind last)
{
    mf_jr *r = &d->r;
    if (!mf_jr_expect_object(r, tobj)) return false;
    const char *names[MF_TL_KIND_COUNT + 1];
    int nn = 0;
    for (int k = first; k <= (int)last; k++) names[nn++] = mf_timeline_kind_name((mf_timeline_kind)k);
    names[nn] = NULL;
    uint64_t seen = 0;
    char *tname = mf_clip_strdup(d->clip, target);
    if (!tname) return mf_jr_fail(r, "out of memory");
    for (const cJSON *c = tobj->child; c; c = c->next) {
        size_t m = mf_jr_key(r, c->string);
        int k = 0;
        while (k < nn && strcmp(names[k], c->string) != 0) k++;
        if (k == nn) {
            char sfx[128];
            mf_suggest_suffix(sfx, sizeof sfx, mf_suggest_list(c->string, names));
            return mf_jr_fail(r, "unknown timeline \"%s\"%s", c->string, sfx);
        }
        if (seen & (1ull << k)) return mf_jr_fail(r, "duplicate timeline \"%s\"", c->string);
        seen |= 1ull << k;
        mf_timeline tl = {.kind = (mf_timeline_kind)(first + k), .target = tname};
        if (!read_one(d, c, &tl)) return false;
        mf_jr_pop(r, m);
    }
    return true;
}

/* bones, slots, path, physics: { target: { kind: timeline } }. */
static bool read_targets(rd *d, const cJSON *g, const char *what, bool allow_empty, mf_timeline_kind first,
                         mf_timeline_kind last)
{
    if (!unique_members(&d->r, g, what)) return false;
    for (const cJSON *c = g->child; c; c = c->next) {
        if (!allow_empty && !nonempty_name(&d->r, c->string, what)) return false;
        size_t m = mf_jr_key(&d->r, c->string);
        if (!read_target(d, c, c->string, first, last)) return false;
        mf_jr_pop(&d->r, m);
    }
    return true;
}

/* ik, transform: { constraint: timeline }. */
static bool read_constraints(rd *d, const cJSON *g, const char *what, mf_timeline_kind kind)
{
    if (!unique_members(&d->r, g, what)) return false;
    for (const cJSON *c = g->child; c; c = c->next) {
        if (!nonempty_name(&d->r, c->string, what)) return false;
        size_t m = mf_jr_key(&d->r, c->string);
        mf_timeline tl = {.kind = kind, .target = mf_clip_strdup(d->clip, c->string)};
        if (!tl.target) return mf_jr_fail(&d->r, "out of memory");
        if (!read_one(d, c, &tl)) return false;
        mf_jr_pop(&d->r, m);
    }
    return true;
}

/* deform: { skin: { slot: { attachment: timeline } } }. */
static bool read_deform(rd *d, const cJSON *g)
{
    mf_jr *r = &d->r;
    if (!unique_members(r, g, "skin")) return false;
    for (const cJSON *sk = g->child; sk; sk = sk->next) {
        if (!nonempty_name(r, sk->string, "skin")) return false;
        size_t m1 = mf_jr_key(r, sk->string);
        if (!unique_members(r, sk, "slot")) return false;
        char *skin = mf_clip_strdup(d->clip, sk->string);
        for (const cJSON *sl = sk->child; sl; sl = sl->next) {
            if (!nonempty_name(r, sl->string, "slot")) return false;
            size_t m2 = mf_jr_key(r, sl->string);
            if (!unique_members(r, sl, "attachment")) return false;
            char *slot = mf_clip_strdup(d->clip, sl->string);
            for (const cJSON *at = sl->child; at; at = at->next) {
                if (!nonempty_name(r, at->string, "attachment")) return false;
                size_t m3 = mf_jr_key(r, at->string);
                mf_timeline tl = {.kind = MF_TL_DEFORM, .skin = skin, .target = slot,
                                  .attachment = mf_clip_strdup(d->clip, at->string)};
                if (!skin || !slot || !tl.attachment) return mf_jr_fail(r, "out of memory");
                if (!read_one(d, at, &tl)) return false;
                mf_jr_pop(r, m3);
            }
            mf_jr_pop(r, m2);
        }
        mf_jr_pop(r, m1);
    }
    return true;
}

static bool read_group(rd *d, const cJSON *root, mf_clip_group g)
{
    const char *key = mf_clip_group_name(g);
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(root, key);
    if (!v) return true;
    size_t m = mf_jr_key(&d->r, key);
    bool ok = false;
    mf_timeline tl = {0};
    switch (g) {
    case MF_GROUP_BONES: ok = read_targets(d, v, "bone", false, MF_TL_ROTATE, MF_TL_INHERIT); break;
    case MF_GROUP_SLOTS: ok = read_targets(d, v, "slot", false, MF_TL_ATTACHMENT, MF_TL_SEQUENCE); break;
    case MF_GROUP_IK: ok = read_constraints(d, v, "ik constraint", MF_TL_IK); break;
    case MF_GROUP_TRANSFORM: ok = read_constraints(d, v, "transform constraint", MF_TL_TRANSFORM); break;
    case MF_GROUP_PATH:
        ok = read_targets(d, v, "path constraint", false, MF_TL_PATH_POSITION, MF_TL_PATH_MIX);
        break;
    case MF_GROUP_PHYSICS: /* "" keys every physics constraint */
        ok = read_targets(d, v, "physics constraint", true, MF_TL_PHYSICS_INERTIA, MF_TL_PHYSICS_RESET);
        break;
    case MF_GROUP_DEFORM: ok = read_deform(d, v); break;
    case MF_GROUP_DRAW_ORDER:
    case MF_GROUP_EVENTS:
        tl.kind = g == MF_GROUP_EVENTS ? MF_TL_EVENT : MF_TL_DRAW_ORDER;
        ok = read_one(d, v, &tl);
        break;
    case MF_GROUP_COUNT: break;
    }
    mf_jr_pop(&d->r, m);
    return ok;
}

/* prefix + 12 lowercase hex digits */
static bool uid_ok(const char *s, const char *prefix)
{
    size_t p = strlen(prefix);
    if (strncmp(s, prefix, p) != 0 || strlen(s) != p + 12) return false;
    for (const char *c = s + p; *c; c++)
        if (!((*c >= '0' && *c <= '9') || (*c >= 'a' && *c <= 'f'))) return false;
    return true;
}

static bool read_uid(mf_jr *r, mf_arena *a, const cJSON *obj, const char *prefix, char **out)
{
    if (!mf_jr_name(r, a, obj, "uid", out)) return false;
    if (!uid_ok(*out, prefix))
        return mf_jr_fail_at(r, "uid", "expected \"%s\" and 12 lowercase hex digits, got \"%s\"", prefix, *out);
    return true;
}

static bool read_header(mf_jr *r, mf_clip *c, const cJSON *root)
{
    static const char *const top[] = {"format", "uid", "type", "skeleton", "length", "fps", "loop", "bones",
                                      "slots", "ik", "transform", "path", "physics", "deform", "drawOrder",
                                      "events", NULL};
    static const char *const sk_keys[] = {"uid", "path", NULL};
    static const char *const loops[] = {"None", "Linear", "PingPong", NULL};
    if (!mf_jr_expect_object(r, root) || !mf_jr_keys(r, root, top)) return false;
    if (!cJSON_GetObjectItemCaseSensitive(root, "format")) return mf_jr_fail(r, "missing \"format\"");
    if (!mf_jr_int(r, root, "format", 0, &c->format)) return false;
    if (c->format != MF_CLIP_FORMAT)
        return mf_jr_fail_at(r, "format", "unsupported format %d (this version reads format %d)", (int)c->format,
                             MF_CLIP_FORMAT);
    if (!read_uid(r, c->arena, root, "anm_", &c->uid)) return false;
    char *type;
    if (!mf_jr_name(r, c->arena, root, "type", &type)) return false;
    if (strcmp(type, "SkeletonClip") != 0)
        return mf_jr_fail_at(r, "type", "expected \"SkeletonClip\", got \"%s\"", type);
    const cJSON *sk = cJSON_GetObjectItemCaseSensitive(root, "skeleton");
    if (!sk) return mf_jr_fail(r, "missing \"skeleton\" (the rig's uid)");
    size_t m = mf_jr_key(r, "skeleton");
    if (!mf_jr_expect_object(r, sk) || !mf_jr_keys(r, sk, sk_keys) ||
        !read_uid(r, c->arena, sk, "skl_", &c->skeleton_uid) ||
        !mf_jr_string(r, c->arena, sk, "path", NULL, &c->skeleton_path))
        return false;
    mf_jr_pop(r, m);
    if (!cJSON_GetObjectItemCaseSensitive(root, "length")) return mf_jr_fail(r, "missing \"length\"");
    if (!mf_jr_float(r, root, "length", 0, &c->length) || !mf_jr_float(r, root, "fps", 30, &c->fps)) return false;
    if (c->length < 0) return mf_jr_fail_at(r, "length", "length must not be negative");
    if (c->fps <= 0) return mf_jr_fail_at(r, "fps", "fps must be greater than 0");
    char *loop;
    if (!mf_jr_string(r, c->arena, root, "loop", "None", &loop)) return false;
    int lm = mf_loop_mode_parse(loop);
    if (lm < 0) {
        m = mf_jr_key(r, "loop");
        return mf_manim_fail_enum(r, "loop mode", loop, loops);
    }
    c->loop = (mf_loop_mode)lm;
    return true;
}

mf_result mf_clip_parse(const char *json, size_t len, const char *file, const char *name, mf_clip **out,
                        mf_diag *diag)
{
    if (out) *out = NULL;
    rd d = {0};
    mf_jr_init(&d.r, file, diag);
    if (!json || !out) {
        mf_diag_set(diag, file, "", "bad argument");
        return MF_ERR_ARGUMENT;
    }
    cJSON *root = mf_jr_parse(&d.r, json, len);
    if (!root) return MF_ERR_INVALID;
    d.clip = mf_clip_create();
    bool ok = d.clip != NULL;
    if (!ok) mf_diag_set(diag, file, "", "out of memory");
    if (ok && name && !(d.clip->name = mf_clip_strdup(d.clip, name))) ok = mf_jr_fail(&d.r, "out of memory");
    ok = ok && read_header(&d.r, d.clip, root);
    for (int g = 0; ok && g < MF_GROUP_COUNT; g++) ok = read_group(&d, root, (mf_clip_group)g);
    cJSON_Delete(root);
    if (ok) {
        d.clip->timeline_count = d.count;
        d.clip->timelines = mf_clip_alloc(d.clip, (size_t)d.count * sizeof *d.tls);
        if (!d.clip->timelines) {
            ok = mf_jr_fail(&d.r, "out of memory");
        } else {
            if (d.count) memcpy(d.clip->timelines, d.tls, (size_t)d.count * sizeof *d.tls);
            mf_clip_sort(d.clip);
        }
    }
    free(d.tls);
    if (!ok) {
        mf_clip_free(d.clip);
        return d.clip ? MF_ERR_INVALID : MF_ERR_NOMEM;
    }
    *out = d.clip;
    return MF_OK;
}

mf_result mf_clip_load(const char *path, mf_clip **out, mf_diag *diag)
{
    if (out) *out = NULL;
    if (!path || !out) {
        mf_diag_set(diag, path, "", "bad argument");
        return MF_ERR_ARGUMENT;
    }
    char *text;
    size_t len;
    mf_result res = mf_read_file(path, &text, &len, diag);
    if (res != MF_OK) return res;
    char name[256];
    mf_path_stem(path, name, sizeof name);
    res = mf_clip_parse(text, len, path, name, out, diag);
    free(text);
    return res;
}
