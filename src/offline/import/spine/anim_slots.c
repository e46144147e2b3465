/* Spine slot timelines → clip timelines: attachment, rgba, rgb, alpha, rgba2, and rgb2, which
 * becomes rgba2 holding the slot's setup alpha (mfanim's two-colour keys carry alpha). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spine_internal.h"
#include "util/suggest.h"

static bool has_attachment(const mf_skeleton *sk, int32_t slot, const char *name)
{
    for (int32_t s = 0; s < sk->skin_count; s++)
        if (mf_skin_find_attachment(&sk->skins[s], slot, name)) return true;
    return false;
}

static bool attachment_timeline(sp_anim *a, const cJSON *arr, int32_t slot)
{
    sp_ctx *c = a->c;
    const mf_skeleton *sk = c->sk;
    mf_timeline *tl = sp_timeline(a, MF_TL_ATTACHMENT, sk->slots[slot].name, cJSON_GetArraySize(arr));
    if (!tl || !sp_key_times(a, arr, tl)) return false;
    if (!(tl->names = mf_clip_alloc(a->clip, (size_t)tl->key_count * sizeof *tl->names))) return sp_oom(c);
    int32_t i = 0;
    for (const cJSON *k = arr->child; k; k = k->next, i++) {
        const char *name;
        size_t m = mf_jr_index(&c->jr, (int)i);
        bool ok = sp_string(c, k, "name", &name);
        if (ok && name && !has_attachment(sk, slot, name)) {
            char where[600];
            if (sp_was_skipped(c, slot, name)) {
                sp_note_add(&c->rep, "skipped", NULL, sp_where(c, "name", where, sizeof where),
                            "attachment \"%s\" was not imported: this key hides the slot instead", name);
                name = NULL;
            } else {
                size_t mn = mf_jr_key(&c->jr, "name");
                ok = mf_jr_fail(&c->jr, "no skin has attachment \"%s\" for slot \"%s\"", name, sk->slots[slot].name);
                mf_jr_pop(&c->jr, mn);
            }
        }
        if (ok && name && !(tl->names[i] = mf_clip_strdup(a->clip, name))) ok = sp_oom(c);
        mf_jr_pop(&c->jr, m);
        if (!ok) return false;
    }
    return true;
}

/* Hex colour member → floats 0..1 (digits: 6 or 8; a 6-digit colour gets alpha 1). */
static bool color_member(sp_ctx *c, const cJSON *k, const char *key, uint32_t def, float *out, int comps)
{
    uint32_t v;
    if (!sp_color(c, k, key, def, &v, NULL)) return false;
    for (int i = 0; i < comps; i++) out[i] = (float)((v >> (24 - 8 * i)) & 0xffu) / 255.0f;
    return true;
}

typedef enum color_kind { RGBA, RGB, RGBA2, RGB2 } color_kind;

static bool color_timeline(sp_anim *a, const cJSON *arr, int32_t slot, color_kind ck)
{
    sp_ctx *c = a->c;
    static const int N[] = {4, 3, 7, 6};
    static const mf_timeline_kind KIND[] = {MF_TL_RGBA, MF_TL_RGB, MF_TL_RGBA2, MF_TL_RGBA2};
    int n = N[ck];
    int32_t keys = cJSON_GetArraySize(arr);
    float *v = malloc(((size_t)keys * (size_t)n + 1) * sizeof *v);
    if (!v) return sp_oom(c);
    int32_t i = 0;
    bool ok = true;
    for (const cJSON *k = arr->child; k && ok; k = k->next, i++) {
        size_t m = mf_jr_index(&c->jr, (int)i);
        float *kv = v + i * n;
        ok = mf_jr_expect_object(&c->jr, k);
        if (ok && ck == RGBA) ok = color_member(c, k, "color", 0xffffffffu, kv, 4);
        if (ok && ck == RGB) ok = color_member(c, k, "color", 0xffffffffu, kv, 3);
        if (ok && ck == RGBA2) ok = color_member(c, k, "light", 0xffffffffu, kv, 4) &&
                                   color_member(c, k, "dark", 0x000000ffu, kv + 4, 3);
        if (ok && ck == RGB2) ok = color_member(c, k, "light", 0xffffffffu, kv, 3) &&
                                  color_member(c, k, "dark", 0x000000ffu, kv + 3, 3);
        mf_jr_pop(&c->jr, m);
    }
    static const int IDENT[] = {0, 1, 2, 3, 4, 5, 6}, RGB2_MAP[] = {0, 1, 2, -1, 3, 4, 5};
    static const float ONES[] = {1, 1, 1, 1, 1, 1, 1};
    float fill[7] = {0};
    fill[3] = (float)(c->sk->slots[slot].color & 0xffu) / 255.0f;
    ok = ok && sp_interpolated(a, arr, KIND[ck], c->sk->slots[slot].name, v, n, ck == RGB2 ? RGB2_MAP : IDENT, ONES,
                               fill) != NULL;
    free(v);
    return ok;
}

static bool slot_timelines(sp_anim *a, const cJSON *obj, int32_t slot)
{
    sp_ctx *c = a->c;
    if (!mf_jr_expect_object(&c->jr, obj)) return false;
    bool alpha = cJSON_GetObjectItemCaseSensitive(obj, "alpha") != NULL;
    for (const cJSON *t = obj->child; t; t = t->next) {
        const char *kind = t->string ? t->string : "";
        size_t m = mf_jr_key(&c->jr, kind);
        bool ok = mf_jr_expect_array(&c->jr, t);
        if (!ok || cJSON_GetArraySize(t) == 0) {
            /* no keys: nothing to do */
        } else if (strcmp(kind, "attachment") == 0) {
            ok = attachment_timeline(a, t, slot);
        } else if (strcmp(kind, "rgba") == 0) {
            ok = color_timeline(a, t, slot, RGBA);
        } else if (strcmp(kind, "rgb") == 0) {
            ok = color_timeline(a, t, slot, RGB);
        } else if (strcmp(kind, "rgba2") == 0) {
            ok = color_timeline(a, t, slot, RGBA2);
        } else if (strcmp(kind, "rgb2") == 0) {
            ok = color_timeline(a, t, slot, RGB2);
            char where[600];
            if (ok && alpha)
                sp_note_add(&c->rep, "timeline", NULL, sp_where(c, "", where, sizeof where),
                            "rgb2 keys become rgba2 keys with the setup alpha, which also set the alpha that this "
                            "slot's alpha keys animate");
        } else if (strcmp(kind, "alpha") == 0) {
            static const sp_value ALPHA[] = {{"value", 0, -1, 1}};
            ok = sp_numeric(a, t, MF_TL_ALPHA, c->sk->slots[slot].name, ALPHA, 1) != NULL;
        } else {
            char where[600];
            sp_note_add(&c->rep, "unknown", kind, sp_where(c, "", where, sizeof where),
                        "slot timeline \"%s\" is not one this importer knows: not imported", kind);
        }
        mf_jr_pop(&c->jr, m);
        if (!ok) return false;
    }
    return true;
}

bool sp_anim_slots(sp_anim *a, const cJSON *slots)
{
    sp_ctx *c = a->c;
    if (!slots) return !c->jr.failed;
    size_t m = mf_jr_key(&c->jr, "slots");
    bool ok = true;
    for (const cJSON *s = slots->child; s && ok; s = s->next) {
        const char *name = s->string ? s->string : "";
        size_t ms = mf_jr_key(&c->jr, name);
        int32_t slot = mf_skeleton_find_slot(c->sk, name);
        if (slot < 0) ok = sp_fail_unknown(c, "slot", name, c->sk->slot_count, sp_slot_at, c->sk);
        else ok = slot_timelines(a, s, slot);
        mf_jr_pop(&c->jr, ms);
    }
    mf_jr_pop(&c->jr, m);
    return ok;
}
