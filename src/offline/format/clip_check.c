/* mf_clip_check: does every name in a clip exist in its rig, and does every key fit it? The first
 * problem is reported at the clip's JSON path with a "did you mean" suggestion. */
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "clip_internal.h"
#include "util/suggest.h"

typedef struct ck {
    const mf_clip *clip;
    const mf_skeleton *sk;
    const char *file;
    mf_diag *diag;
    char where[256];
} ck;

static mf_result fail(ck *c, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static mf_result fail(ck *c, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    mf_diag_set(c->diag, c->file, c->where, "%s", msg);
    return MF_ERR_INVALID;
}

static bool eq(const char *a, const char *b) { return a && b && strcmp(a, b) == 0; }

/* Name lists for suggestions: (array base, element size, offset of the char * name). */
typedef struct names {
    const void *base;
    size_t stride, off;
    int32_t count;
} names;

static const char *name_at(const void *ctx, int i)
{
    const names *n = ctx;
    return *(char *const *)((const char *)n->base + (size_t)i * n->stride + n->off);
}

static int32_t find(const names *n, const char *s)
{
    for (int32_t i = 0; i < n->count; i++)
        if (eq(name_at(n, i), s)) return i;
    return -1;
}

#define NAMES(arr, cnt, type) ((names){(arr), sizeof(type), offsetof(type, name), (cnt)})

static void suffix(char *out, size_t size, const char *s, const names *n)
{
    mf_suggest_suffix(out, size, mf_suggest(s, n->count, name_at, n));
}

/* where = "group.target" (+ more) */
static void at(ck *c, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static void at(ck *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->where, sizeof c->where, fmt, ap);
    va_end(ap);
}

static const char *str(const char *s) { return s ? s : ""; }

/* The attachment (skin, slot, name), NULL when missing. */
static const mf_attachment *find_att(const mf_skin *skin, int32_t slot, const char *name)
{
    for (int32_t i = 0; i < skin->attachment_count; i++)
        if (skin->attachments[i].slot == slot && eq(skin->attachments[i].name, name)) return &skin->attachments[i];
    return NULL;
}

/* Closest attachment name among those of `slot` (in one skin, or in all when skin is NULL). */
static const char *suggest_att(const mf_skeleton *sk, const mf_skin *skin, int32_t slot, const char *name)
{
    size_t n = 0;
    for (int32_t s = 0; s < sk->skin_count; s++) n += (size_t)sk->skins[s].attachment_count;
    const char **list = malloc((n + 1) * sizeof *list);
    if (!list) return NULL;
    n = 0;
    for (int32_t s = 0; s < sk->skin_count; s++) {
        const mf_skin *k = &sk->skins[s];
        for (int32_t i = 0; (!skin || k == skin) && i < k->attachment_count; i++)
            if (k->attachments[i].slot == slot && k->attachments[i].name) list[n++] = k->attachments[i].name;
    }
    list[n] = NULL;
    const char *best = mf_suggest_list(name, list);
    free(list);
    return best;
}

static const char *type_name(mf_attachment_type t)
{
    static const char *const n[] = {"Region", "Mesh", "LinkedMesh", "BoundingBox", "Clipping", "Point", "Path"};
    return (int)t >= 0 && t < MF_ATTACH_TYPE_COUNT ? n[t] : "?";
}

static mf_result check_slot_target(ck *c, const mf_timeline *tl, int32_t *slot)
{
    names n = NAMES(c->sk->slots, c->sk->slot_count, mf_slot);
    at(c, "slots.%s", str(tl->target));
    if ((*slot = find(&n, tl->target)) >= 0) return MF_OK;
    char sfx[160];
    suffix(sfx, sizeof sfx, tl->target, &n);
    return fail(c, "unknown slot \"%s\"%s", str(tl->target), sfx);
}

static mf_result check_attachment_keys(ck *c, const mf_timeline *tl, int32_t slot)
{
    const mf_skeleton *sk = c->sk;
    for (int32_t i = 0; i < tl->key_count; i++) {
        const char *nm = tl->names ? tl->names[i] : NULL;
        if (!nm) continue;
        bool found = false;
        for (int32_t s = 0; s < sk->skin_count && !found; s++) found = find_att(&sk->skins[s], slot, nm) != NULL;
        if (found) continue;
        at(c, "slots.%s.attachment.v[%d]", str(tl->target), (int)i);
        char sfx[160];
        mf_suggest_suffix(sfx, sizeof sfx, suggest_att(sk, NULL, slot, nm));
        return fail(c, "no skin has attachment \"%s\" for slot \"%s\"%s", nm, str(tl->target), sfx);
    }
    return MF_OK;
}

static mf_result check_sequence(ck *c, const mf_timeline *tl, int32_t slot)
{
    const mf_skeleton *sk = c->sk;
    for (int32_t s = 0; s < sk->skin_count; s++)
        for (int32_t i = 0; i < sk->skins[s].attachment_count; i++)
            if (sk->skins[s].attachments[i].slot == slot && sk->skins[s].attachments[i].sequence.count > 0)
                return MF_OK;
    at(c, "slots.%s.sequence", str(tl->target));
    return fail(c, "no attachment of slot \"%s\" has a sequence", str(tl->target));
}

static mf_result check_constraint(ck *c, const mf_timeline *tl, mf_constraint_kind want)
{
    static const char *const groups[] = {"ik", "transform", "path", "physics"};
    const mf_skeleton *sk = c->sk;
    names lists[4] = {
        NAMES(sk->ik, sk->ik_count, mf_ik_constraint),
        NAMES(sk->transform, sk->transform_count, mf_transform_constraint),
        NAMES(sk->path, sk->path_count, mf_path_constraint),
        NAMES(sk->physics, sk->physics_count, mf_physics_constraint),
    };
    at(c, "%s.%s", groups[want], str(tl->target));
    if (want == MF_CONSTRAINT_PHYSICS && eq(tl->target, "")) return MF_OK; /* every physics constraint */
    if (find(&lists[want], tl->target) >= 0) return MF_OK;
    for (int k = 0; k < 4; k++)
        if (find(&lists[k], tl->target) >= 0)
            return fail(c, "\"%s\" is %s %s constraint, not %s %s constraint", str(tl->target),
                        k == MF_CONSTRAINT_IK ? "an" : "a", groups[k], want == MF_CONSTRAINT_IK ? "an" : "a",
                        groups[want]);
    char sfx[160];
    suffix(sfx, sizeof sfx, tl->target, &lists[want]);
    return fail(c, "unknown %s constraint \"%s\"%s", groups[want], str(tl->target), sfx);
}

/* Floats in the attachment's vertex array (weighted: x, y per influence). */
static int64_t vertex_floats(const mf_attachment *a)
{
    const mf_vertices *v = &a->vertices;
    if (!v->xy && v->first && v->count >= 0) return 2 * (int64_t)v->first[v->count];
    return 2 * (int64_t)v->count;
}

/* A LinkedMesh's geometry is its parent's: follow the chain (bounded, in case of a cycle). */
static const mf_attachment *geometry_of(const mf_skeleton *sk, const mf_skin *skin, const mf_attachment *a)
{
    for (int hops = 0; a && a->type == MF_ATTACH_LINKED_MESH && hops < 8; hops++) {
        const mf_skin *ps = a->parent_skin >= 0 && a->parent_skin < sk->skin_count ? &sk->skins[a->parent_skin] : skin;
        a = a->parent ? find_att(ps, a->slot, a->parent) : NULL;
        skin = ps;
    }
    return a && a->type != MF_ATTACH_LINKED_MESH ? a : NULL;
}

static mf_result check_deform(ck *c, const mf_timeline *tl)
{
    const mf_skeleton *sk = c->sk;
    char sfx[160];
    names skins = NAMES(sk->skins, sk->skin_count, mf_skin);
    at(c, "deform.%s", str(tl->skin));
    int32_t si = find(&skins, tl->skin);
    if (si < 0) {
        suffix(sfx, sizeof sfx, tl->skin, &skins);
        return fail(c, "unknown skin \"%s\"%s", str(tl->skin), sfx);
    }
    names slots = NAMES(sk->slots, sk->slot_count, mf_slot);
    at(c, "deform.%s.%s", str(tl->skin), str(tl->target));
    int32_t slot = find(&slots, tl->target);
    if (slot < 0) {
        suffix(sfx, sizeof sfx, tl->target, &slots);
        return fail(c, "unknown slot \"%s\"%s", str(tl->target), sfx);
    }
    const mf_skin *skin = &sk->skins[si];
    const mf_attachment *a = find_att(skin, slot, tl->attachment);
    at(c, "deform.%s.%s.%s", str(tl->skin), str(tl->target), str(tl->attachment));
    if (!a) {
        mf_suggest_suffix(sfx, sizeof sfx, suggest_att(sk, skin, slot, tl->attachment));
        return fail(c, "skin \"%s\" has no attachment \"%s\" for slot \"%s\"%s", str(tl->skin),
                    str(tl->attachment), str(tl->target), sfx);
    }
    if (a->type == MF_ATTACH_REGION || a->type == MF_ATTACH_POINT)
        return fail(c, "attachment \"%s\" is a %s: only attachments with vertices (Mesh, LinkedMesh, BoundingBox, "
                    "Clipping, Path) deform", str(tl->attachment), type_name(a->type));
    const mf_attachment *geo = geometry_of(sk, skin, a);
    if (!geo || !tl->deform) return MF_OK; /* an unresolved linked mesh is the rig check's finding */
    int64_t floats = vertex_floats(geo);
    for (int32_t i = 0; i < tl->key_count; i++) {
        const mf_deform_key *k = &tl->deform[i];
        if ((int64_t)k->offset + k->count <= floats) continue;
        at(c, "deform.%s.%s.%s.v[%d]", str(tl->skin), str(tl->target), str(tl->attachment), (int)i);
        return fail(c, "offset %d + %d floats = %lld runs past the attachment's %lld floats (%d vertices%s)",
                    (int)k->offset, (int)k->count, (long long)k->offset + k->count, (long long)floats,
                    (int)geo->vertices.count, geo->vertices.xy ? "" : ", weighted: x, y per influence");
    }
    return MF_OK;
}

static mf_result check_draw_order(ck *c, const mf_timeline *tl)
{
    names slots = NAMES(c->sk->slots, c->sk->slot_count, mf_slot);
    for (int32_t i = 0; tl->draw_order && i < tl->key_count; i++) {
        const mf_draw_order_key *k = &tl->draw_order[i];
        for (int32_t j = 0; j < k->move_count; j++) {
            const mf_draw_order_move *mv = &k->moves[j];
            at(c, "drawOrder.v[%d][%d]", (int)i, (int)j);
            int32_t s = find(&slots, mv->slot);
            if (s < 0) {
                char sfx[160];
                suffix(sfx, sizeof sfx, mv->slot, &slots);
                return fail(c, "unknown slot \"%s\"%s", str(mv->slot), sfx);
            }
            int64_t to = (int64_t)s + mv->delta;
            if (to < 0 || to >= c->sk->slot_count)
                return fail(c, "moving slot \"%s\" (position %d) by %d leaves the draw order (positions 0..%d)",
                            str(mv->slot), (int)s, (int)mv->delta, (int)c->sk->slot_count - 1);
        }
    }
    return MF_OK;
}

static mf_result check_events(ck *c, const mf_timeline *tl)
{
    names ev = NAMES(c->sk->events, c->sk->event_count, mf_event_def);
    for (int32_t i = 0; tl->events && i < tl->key_count; i++) {
        const char *nm = tl->events[i].name;
        if (find(&ev, nm) >= 0) continue;
        at(c, "events.v[%d].name", (int)i);
        char sfx[160];
        suffix(sfx, sizeof sfx, nm, &ev);
        return fail(c, "unknown event \"%s\"%s", str(nm), sfx);
    }
    return MF_OK;
}

static mf_result check_timeline(ck *c, const mf_timeline *tl)
{
    const mf_skeleton *sk = c->sk;
    int32_t slot;
    mf_result res;
    switch (mf_clip_kind_group(tl->kind)) {
    case MF_GROUP_BONES: {
        names n = NAMES(sk->bones, sk->bone_count, mf_bone);
        at(c, "bones.%s", str(tl->target));
        if (find(&n, tl->target) >= 0) return MF_OK;
        char sfx[160];
        suffix(sfx, sizeof sfx, tl->target, &n);
        return fail(c, "unknown bone \"%s\"%s", str(tl->target), sfx);
    }
    case MF_GROUP_SLOTS:
        if ((res = check_slot_target(c, tl, &slot)) != MF_OK) return res;
        if (tl->kind == MF_TL_ATTACHMENT) return check_attachment_keys(c, tl, slot);
        if (tl->kind == MF_TL_SEQUENCE) return check_sequence(c, tl, slot);
        return MF_OK;
    case MF_GROUP_IK: return check_constraint(c, tl, MF_CONSTRAINT_IK);
    case MF_GROUP_TRANSFORM: return check_constraint(c, tl, MF_CONSTRAINT_TRANSFORM);
    case MF_GROUP_PATH: return check_constraint(c, tl, MF_CONSTRAINT_PATH);
    case MF_GROUP_PHYSICS: return check_constraint(c, tl, MF_CONSTRAINT_PHYSICS);
    case MF_GROUP_DEFORM: return check_deform(c, tl);
    case MF_GROUP_DRAW_ORDER: return check_draw_order(c, tl);
    case MF_GROUP_EVENTS: return check_events(c, tl);
    case MF_GROUP_COUNT: break;
    }
    return MF_OK;
}

mf_result mf_clip_check(const mf_clip *clip, const mf_skeleton *sk, const char *file, mf_diag *diag)
{
    ck c = {clip, sk, file ? file : "", diag, ""};
    mf_diag_clear(diag);
    if (!clip || !sk) {
        mf_diag_set(diag, c.file, "", "bad argument");
        return MF_ERR_ARGUMENT;
    }
    if (!eq(clip->skeleton_uid, sk->uid)) {
        at(&c, "skeleton.uid");
        return fail(&c, "the clip is for skeleton \"%s\" but the rig's uid is \"%s\"", str(clip->skeleton_uid),
                    str(sk->uid));
    }
    for (int32_t i = 0; clip->timelines && i < clip->timeline_count; i++) {
        mf_result res = check_timeline(&c, &clip->timelines[i]);
        if (res != MF_OK) return res;
    }
    return MF_OK;
}
