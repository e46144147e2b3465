/* Spine draw order and event keys → clip timelines. A Spine draw-order offset moves a slot that
 * many places from its setup position, which is exactly an .manim move ["slot", delta]. */
#include <stdio.h>
#include <string.h>

#include "spine_internal.h"

static const char *event_at(const void *sk, int i) { return ((const mf_skeleton *)sk)->events[i].name; }

static bool draw_order_key(sp_anim *a, const cJSON *k, mf_draw_order_key *key)
{
    sp_ctx *c = a->c;
    const mf_skeleton *sk = c->sk;
    const cJSON *offs = sp_array(c, k, "offsets");
    if (c->jr.failed) return false;
    int n = offs ? cJSON_GetArraySize(offs) : 0;
    key->move_count = 0;
    if (n == 0) return true;
    if (!(key->moves = mf_clip_alloc(a->clip, (size_t)n * sizeof *key->moves))) return sp_oom(c);
    size_t m = mf_jr_key(&c->jr, "offsets");
    int i = 0;
    bool ok = true;
    for (const cJSON *o = offs->child; o && ok; o = o->next, i++) {
        size_t mi = mf_jr_index(&c->jr, i);
        int32_t slot = -1, delta = 0;
        ok = mf_jr_expect_object(&c->jr, o) && sp_slot_ref(c, o, "slot", &slot) && sp_int(c, o, "offset", 0, &delta);
        if (ok && ((int64_t)slot + delta < 0 || (int64_t)slot + delta >= sk->slot_count))
            ok = mf_jr_fail_at(&c->jr, "offset", "moving slot \"%s\" (position %d) by %d leaves the draw order (0..%d)",
                               sk->slots[slot].name, (int)slot, (int)delta, (int)sk->slot_count - 1);
        for (int j = 0; ok && j < i; j++)
            if (strcmp(key->moves[j].slot, sk->slots[slot].name) == 0)
                ok = mf_jr_fail_at(&c->jr, "slot", "slot \"%s\" moves twice in one key", sk->slots[slot].name);
        if (ok && !(key->moves[i].slot = mf_clip_strdup(a->clip, sk->slots[slot].name))) ok = sp_oom(c);
        key->moves[i].delta = delta;
        if (ok) key->move_count = i + 1;
        mf_jr_pop(&c->jr, mi);
    }
    mf_jr_pop(&c->jr, m);
    return ok;
}

bool sp_anim_draw_order(sp_anim *a, const cJSON *arr)
{
    sp_ctx *c = a->c;
    int32_t keys = cJSON_GetArraySize(arr);
    if (keys == 0) return true;
    mf_timeline *tl = sp_timeline(a, MF_TL_DRAW_ORDER, NULL, keys);
    if (!tl || !sp_key_times(a, arr, tl)) return false;
    if (!(tl->draw_order = mf_clip_alloc(a->clip, (size_t)keys * sizeof *tl->draw_order))) return sp_oom(c);
    int32_t i = 0;
    for (const cJSON *k = arr->child; k; k = k->next, i++) {
        size_t m = mf_jr_index(&c->jr, (int)i);
        bool ok = draw_order_key(a, k, &tl->draw_order[i]);
        mf_jr_pop(&c->jr, m);
        if (!ok) return false;
    }
    return true;
}

bool sp_anim_events(sp_anim *a, const cJSON *arr)
{
    sp_ctx *c = a->c;
    const mf_skeleton *sk = c->sk;
    int32_t keys = cJSON_GetArraySize(arr);
    if (keys == 0) return true;
    mf_timeline *tl = sp_timeline(a, MF_TL_EVENT, NULL, keys);
    if (!tl || !sp_key_times(a, arr, tl)) return false;
    if (!(tl->events = mf_clip_alloc(a->clip, (size_t)keys * sizeof *tl->events))) return sp_oom(c);
    int32_t i = 0;
    for (const cJSON *k = arr->child; k; k = k->next, i++) {
        mf_event_key *e = &tl->events[i];
        const char *name, *str = NULL;
        size_t m = mf_jr_index(&c->jr, (int)i);
        bool ok = sp_name(c, k, "name", &name);
        if (ok && mf_skeleton_find_event(sk, name) < 0) {
            size_t mn = mf_jr_key(&c->jr, "name");
            ok = sp_fail_unknown(c, "event", name, sk->event_count, event_at, sk);
            mf_jr_pop(&c->jr, mn);
        }
        e->has_int = cJSON_GetObjectItemCaseSensitive(k, "int") != NULL;
        e->has_float = cJSON_GetObjectItemCaseSensitive(k, "float") != NULL;
        e->has_string = cJSON_GetObjectItemCaseSensitive(k, "string") != NULL;
        e->has_volume = cJSON_GetObjectItemCaseSensitive(k, "volume") != NULL;
        e->has_balance = cJSON_GetObjectItemCaseSensitive(k, "balance") != NULL;
        ok = ok && sp_int(c, k, "int", 0, &e->int_value) && sp_float(c, k, "float", 0, &e->float_value) &&
             sp_string(c, k, "string", &str) && sp_float(c, k, "volume", 1, &e->volume) &&
             sp_float(c, k, "balance", 0, &e->balance);
        if (ok && (e->volume < 0 || e->balance < -1 || e->balance > 1)) {
            char where[600];
            sp_note_add(&c->rep, "value", NULL, sp_where(c, "", where, sizeof where),
                        "volume %g / balance %g out of range: clamped", (double)e->volume, (double)e->balance);
            e->volume = e->volume < 0 ? 0 : e->volume;
            e->balance = e->balance < -1 ? -1 : e->balance > 1 ? 1 : e->balance;
        }
        if (ok && !(e->name = mf_clip_strdup(a->clip, name))) ok = sp_oom(c);
        if (ok && str && !(e->string_value = mf_clip_strdup(a->clip, str))) ok = sp_oom(c);
        if (ok && e->has_string && !str) e->has_string = false;
        mf_jr_pop(&c->jr, m);
        if (!ok) return false;
    }
    return true;
}
