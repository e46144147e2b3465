/* Spine attachment timelines → clip timelines. Spine 4.1+ writes
 * "attachments": { skin: { slot: { attachment: { "deform": [...], "sequence": [...] } } } };
 * 4.0 writes "deform": { skin: { slot: { attachment: [...] } } }. Deform keys keep Spine's
 * offset and floats with every y (odd float index) negated; their curves are already
 * normalised in value. Sequence keys are per attachment in Spine and per slot in mfanim: the
 * first sequence timeline of a slot is kept and the others are reported. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spine_internal.h"
#include "util/suggest.h"

static const char *skin_at(const void *sk, int i) { return ((const mf_skeleton *)sk)->skins[i].name; }

/* The attachment whose vertices a (linked) attachment uses, NULL when unresolved. */
static const mf_attachment *geometry(const mf_skeleton *sk, int32_t skin, const mf_attachment *a)
{
    for (int hops = 0; a && a->type == MF_ATTACH_LINKED_MESH && hops < 16; hops++) {
        int32_t ps = a->parent_skin >= 0 ? a->parent_skin : skin;
        a = mf_skin_find_attachment(&sk->skins[ps], a->slot, a->parent);
        skin = ps;
    }
    return a && a->type != MF_ATTACH_LINKED_MESH ? a : NULL;
}

static int64_t float_count(const mf_vertices *v)
{
    return v->xy ? 2 * (int64_t)v->count : 2 * (int64_t)(v->first ? v->first[v->count] : 0);
}

static bool deform_timeline(sp_anim *a, const cJSON *arr, int32_t skin, int32_t slot, const char *name)
{
    sp_ctx *c = a->c;
    const mf_skeleton *sk = c->sk;
    char where[600];
    const mf_attachment *att = mf_skin_find_attachment(&sk->skins[skin], slot, name);
    if (!att) {
        if (sp_was_skipped(c, slot, name)) {
            sp_note_add(&c->rep, "skipped", NULL, sp_where(c, "", where, sizeof where),
                        "deform keys of attachment \"%s\", which was not imported: dropped", name);
            return true;
        }
        return mf_jr_fail(&c->jr, "skin \"%s\" has no attachment \"%s\" for slot \"%s\"", sk->skins[skin].name, name,
                          sk->slots[slot].name);
    }
    if (att->type == MF_ATTACH_REGION || att->type == MF_ATTACH_POINT) {
        sp_note_add(&c->rep, "unsupported", NULL, sp_where(c, "", where, sizeof where),
                    "deform keys of a %s attachment, which has no vertices: dropped",
                    mf_attachment_type_name(att->type));
        return true;
    }
    if (sp_was_capped(c, skin, slot, name) || (att->type == MF_ATTACH_LINKED_MESH && att->deform &&
                                                 sp_was_capped(c, att->parent_skin >= 0 ? att->parent_skin : skin,
                                                               slot, att->parent))) {
        sp_note_add(&c->rep, "weights", NULL, sp_where(c, "", where, sizeof where),
                    "deform keys of attachment \"%s\", whose vertices lost influences past %d: dropped", name,
                    MF_MAX_INFLUENCES);
        return true;
    }
    const mf_attachment *geo = geometry(sk, skin, att);
    int64_t floats = geo ? float_count(&geo->vertices) : INT64_MAX;
    int32_t keys = cJSON_GetArraySize(arr);
    if (sp_duplicate(a, MF_TL_DEFORM, sk->slots[slot].name, sk->skins[skin].name, name)) return false;
    mf_timeline *tl = sp_timeline(a, MF_TL_DEFORM, sk->slots[slot].name, keys);
    if (!tl || !sp_key_times(a, arr, tl)) return false;
    tl->skin = mf_clip_strdup(a->clip, sk->skins[skin].name);
    tl->attachment = mf_clip_strdup(a->clip, name);
    tl->deform = mf_clip_alloc(a->clip, (size_t)keys * sizeof *tl->deform);
    if (!tl->skin || !tl->attachment || !tl->deform) return sp_oom(c);
    int32_t i = 0;
    for (const cJSON *k = arr->child; k; k = k->next, i++) {
        mf_deform_key *d = &tl->deform[i];
        size_t m = mf_jr_index(&c->jr, (int)i);
        const cJSON *v = sp_array(c, k, "vertices");
        bool ok = !c->jr.failed && sp_int(c, k, "offset", 0, &d->offset);
        if (ok && d->offset < 0) ok = mf_jr_fail_at(&c->jr, "offset", "an offset must not be negative (%d)", (int)d->offset);
        d->count = v ? cJSON_GetArraySize(v) : 0;
        if (ok && d->offset + (int64_t)d->count > floats)
            ok = mf_jr_fail_at(&c->jr, "vertices", "offset %d + %d floats runs past the %lld floats of the attachment",
                               (int)d->offset, (int)d->count, (long long)floats);
        if (ok && !(d->v = mf_clip_alloc(a->clip, ((size_t)d->count + 1) * sizeof *d->v))) ok = sp_oom(c);
        int32_t j = 0;
        size_t mv = mf_jr_key(&c->jr, "vertices");
        for (const cJSON *e = ok && v ? v->child : NULL; e && ok; e = e->next, j++) {
            size_t me = mf_jr_index(&c->jr, (int)j);
            ok = mf_jr_value_float(&c->jr, e, &d->v[j]);
            if ((d->offset + j) & 1) d->v[j] = -d->v[j]; /* a y */
            mf_jr_pop(&c->jr, me);
        }
        mf_jr_pop(&c->jr, mv);
        if (ok && i + 1 < keys) ok = sp_curve(a, k, 0, 1, tl->t[i], tl->t[i + 1], 0, 1, &tl->curves[i]);
        mf_jr_pop(&c->jr, m);
        if (!ok) return false;
    }
    return true;
}

static bool sequence_timeline(sp_anim *a, const cJSON *arr, int32_t skin, int32_t slot, const char *name)
{
    static const char *const MODES[] = {"hold", "once", "loop", "pingpong", "onceReverse", "loopReverse",
                                        "pingpongReverse", NULL};
    sp_ctx *c = a->c;
    const char *slot_name = c->sk->slots[slot].name;
    const mf_attachment *att = mf_skin_find_attachment(&c->sk->skins[skin], slot, name);
    if (!att || att->sequence.count <= 0) {
        char where[600];
        if (!att && !sp_was_skipped(c, slot, name))
            return mf_jr_fail(&c->jr, "skin \"%s\" has no attachment \"%s\" for slot \"%s\"", c->sk->skins[skin].name,
                              name, slot_name);
        sp_note_add(&c->rep, "skipped", NULL, sp_where(c, "", where, sizeof where),
                    "sequence keys of attachment \"%s\", which %s: dropped", name,
                    att ? "has no sequence" : "was not imported");
        return true;
    }
    for (int32_t i = 0; i < a->clip->timeline_count; i++) {
        const mf_timeline *o = &a->clip->timelines[i];
        if (o->kind == MF_TL_SEQUENCE && strcmp(o->target, slot_name) == 0) {
            char where[600];
            sp_note_add(&c->rep, "timeline", NULL, sp_where(c, "", where, sizeof where),
                        "slot \"%s\" already has sequence keys from another attachment (mfanim keys sequences per "
                        "slot): dropped",
                        slot_name);
            return true;
        }
    }
    mf_timeline *tl = sp_timeline(a, MF_TL_SEQUENCE, slot_name, cJSON_GetArraySize(arr));
    if (!tl || !sp_key_times(a, arr, tl)) return false;
    int32_t i = 0;
    for (const cJSON *k = arr->child; k; k = k->next, i++) {
        const char *mode;
        size_t m = mf_jr_index(&c->jr, (int)i);
        bool ok = sp_string(c, k, "mode", &mode) && sp_int(c, k, "index", 0, &tl->iv[i * 2 + 1]) &&
                  sp_float(c, k, "delay", 0, &tl->v[i]);
        tl->iv[i * 2] = MF_SEQ_HOLD;
        if (ok && mode) {
            int md = mf_sequence_mode_parse(mode);
            if (md < 0) {
                char sfx[200];
                mf_suggest_suffix(sfx, sizeof sfx, mf_suggest_list(mode, MODES));
                ok = mf_jr_fail_at(&c->jr, "mode", "unknown sequence mode \"%s\"%s", mode, sfx);
            }
            tl->iv[i * 2] = md;
        }
        if (ok && tl->iv[i * 2 + 1] < 0) ok = mf_jr_fail_at(&c->jr, "index", "a frame index must not be negative");
        if (ok && tl->v[i] < 0) ok = mf_jr_fail_at(&c->jr, "delay", "a delay must not be negative");
        mf_jr_pop(&c->jr, m);
        if (!ok) return false;
    }
    return true;
}

/* One attachment's timelines: 4.1+ object {deform, sequence}, or a 4.0 deform key array. */
static bool attachment_timelines(sp_anim *a, const cJSON *e, int32_t skin, int32_t slot, const char *name)
{
    sp_ctx *c = a->c;
    if (cJSON_IsArray(e)) return cJSON_GetArraySize(e) == 0 || deform_timeline(a, e, skin, slot, name);
    if (!mf_jr_expect_object(&c->jr, e)) return false;
    for (const cJSON *t = e->child; t; t = t->next) {
        const char *kind = t->string ? t->string : "";
        size_t m = mf_jr_key(&c->jr, kind);
        bool ok = mf_jr_expect_array(&c->jr, t);
        if (!ok || cJSON_GetArraySize(t) == 0) {
        } else if (strcmp(kind, "deform") == 0) {
            ok = deform_timeline(a, t, skin, slot, name);
        } else if (strcmp(kind, "sequence") == 0) {
            ok = sequence_timeline(a, t, skin, slot, name);
        } else {
            char where[600];
            sp_note_add(&c->rep, "unknown", kind, sp_where(c, "", where, sizeof where),
                        "attachment timeline \"%s\" is not one this importer knows: not imported", kind);
        }
        mf_jr_pop(&c->jr, m);
        if (!ok) return false;
    }
    return true;
}

static bool group(sp_anim *a, const cJSON *anim, const char *key)
{
    sp_ctx *c = a->c;
    const mf_skeleton *sk = c->sk;
    const cJSON *skins = sp_object(c, anim, key);
    if (!skins) return !c->jr.failed;
    size_t m = mf_jr_key(&c->jr, key);
    bool ok = true;
    for (const cJSON *s = skins->child; s && ok; s = s->next) {
        const char *skin_name = s->string ? s->string : "";
        size_t ms = mf_jr_key(&c->jr, skin_name);
        int32_t skin = mf_skeleton_find_skin(sk, skin_name);
        if (skin < 0) ok = sp_fail_unknown(c, "skin", skin_name, sk->skin_count, skin_at, sk);
        else ok = mf_jr_expect_object(&c->jr, s);
        for (const cJSON *sl = ok ? s->child : NULL; sl && ok; sl = sl->next) {
            const char *slot_name = sl->string ? sl->string : "";
            size_t mt = mf_jr_key(&c->jr, slot_name);
            int32_t slot = mf_skeleton_find_slot(sk, slot_name);
            if (slot < 0) ok = sp_fail_unknown(c, "slot", slot_name, sk->slot_count, sp_slot_at, sk);
            else ok = mf_jr_expect_object(&c->jr, sl);
            for (const cJSON *at = ok ? sl->child : NULL; at && ok; at = at->next) {
                const char *name = at->string ? at->string : "";
                size_t ma = mf_jr_key(&c->jr, name);
                ok = attachment_timelines(a, at, skin, slot, name);
                mf_jr_pop(&c->jr, ma);
            }
            mf_jr_pop(&c->jr, mt);
        }
        mf_jr_pop(&c->jr, ms);
    }
    mf_jr_pop(&c->jr, m);
    return ok;
}

bool sp_anim_attachments(sp_anim *a, const cJSON *anim)
{
    return group(a, anim, "attachments") && group(a, anim, "deform");
}
