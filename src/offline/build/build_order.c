/* The update order: bones and constraints interleaved by the rule in mf_skel_data.h. */
#include <stdlib.h>

#include "build_internal.h"

typedef struct cref {
    int32_t order, kind, index; /* kind: MF_SD_REF_IK … */
} cref;

static int cmp_cref(const void *pa, const void *pb)
{
    const cref *a = pa, *b = pb;
    if (a->order != b->order) return a->order < b->order ? -1 : 1;
    if (a->kind != b->kind) return a->kind < b->kind ? -1 : 1;
    return (a->index > b->index) - (a->index < b->index);
}

typedef struct order_state {
    mf_bctx *c;
    uint8_t *current;    /* bone world transform is up to date */
    uint8_t *constrained;
    uint8_t *under;      /* descendant of a constrained bone */
    int32_t *chain;
} order_state;

static bool push_ref(mf_bctx *c, int kind, int32_t index)
{
    mf_sd_ref *r = mf_bvec_push(&c->sec[MF_SD_SEC_UPDATE], 1);
    if (!r) return mf_boom(c);
    r->kind = (uint16_t)kind;
    r->index = index;
    return true;
}

/* Emits b after every ancestor that is not current. */
static bool need(order_state *s, int32_t b)
{
    const mf_bone *bones = s->c->sk->bones;
    int32_t n = 0;
    for (int32_t x = b; x >= 0 && !s->current[x]; x = bones[x].parent) s->chain[n++] = x;
    while (n > 0) {
        int32_t x = s->chain[--n];
        if (!push_ref(s->c, MF_SD_REF_BONE, x)) return false;
        s->current[x] = 1;
    }
    return true;
}

static bool need_list(order_state *s, const int32_t *bones, int32_t n)
{
    for (int32_t i = 0; i < n; i++)
        if (!need(s, bones[i])) return false;
    return true;
}

/* A path constraint also reads the bones of every weighted path attachment its slot can show. */
static bool need_path_bones(order_state *s, int32_t slot)
{
    const mf_skeleton *sk = s->c->sk;
    for (int32_t k = 0; k < sk->skin_count; k++) {
        const mf_skin *skin = &sk->skins[k];
        for (int32_t a = 0; a < skin->attachment_count; a++) {
            const mf_attachment *at = &skin->attachments[a];
            if (at->slot != slot || at->type != MF_ATTACH_PATH || at->vertices.xy) continue;
            for (int32_t i = 0; i < at->vertices.bone_count && at->vertices.bones; i++) {
                int32_t b = at->vertices.bones[i];
                if (b < 0 || b >= sk->bone_count)
                    return mf_bfail_at(s->c, s->c->skel_file, "skins", k, "attachments",
                                       "path attachment \"%s\": bone %d outside 0..%d", at->name ? at->name : "?",
                                       (int)b, (int)sk->bone_count - 1);
                if (!need(s, b)) return false;
            }
        }
    }
    return true;
}

/* After a constraint: its bones stay current, every other descendant of them is stale. */
static void mark_stale(order_state *s, const int32_t *bones, int32_t n)
{
    const mf_skeleton *sk = s->c->sk;
    for (int32_t i = 0; i < n; i++) s->constrained[bones[i]] = 1;
    for (int32_t b = 0; b < sk->bone_count; b++) {
        int32_t p = sk->bones[b].parent;
        s->under[b] = p >= 0 && (s->constrained[p] || s->under[p]);
        if (s->under[b] && !s->constrained[b]) s->current[b] = 0;
    }
    for (int32_t i = 0; i < n; i++) s->constrained[bones[i]] = 0;
}

static bool run_constraint(order_state *s, const cref *r)
{
    const mf_skeleton *sk = s->c->sk;
    const int32_t *bones = NULL;
    int32_t n = 0;
    bool ok = true;
    switch (r->kind) {
    case MF_SD_REF_IK: {
        const mf_ik_constraint *k = &sk->ik[r->index];
        bones = k->bones;
        n = k->bone_count;
        ok = need(s, k->target);
        break;
    }
    case MF_SD_REF_TRANSFORM: {
        const mf_transform_constraint *t = &sk->transform[r->index];
        bones = t->bones;
        n = t->bone_count;
        ok = need(s, t->target);
        break;
    }
    case MF_SD_REF_PATH: {
        const mf_path_constraint *p = &sk->path[r->index];
        bones = p->bones;
        n = p->bone_count;
        ok = need(s, sk->slots[p->target].bone) && need_path_bones(s, p->target);
        break;
    }
    default: {
        const mf_physics_constraint *p = &sk->physics[r->index];
        bones = &p->bone;
        n = 1;
        break;
    }
    }
    if (!ok || !need_list(s, bones, n) || !push_ref(s->c, r->kind, r->index)) return false;
    mark_stale(s, bones, n);
    return true;
}

/* Bones, constraint bones and targets were checked by mf_build_rig. */
bool mf_build_update_order(mf_bctx *c)
{
    const mf_skeleton *sk = c->sk;
    int32_t nb = sk->bone_count;
    int32_t nc = sk->ik_count + sk->transform_count + sk->path_count + sk->physics_count;
    order_state s = {c, calloc((size_t)nb + 1, 1), calloc((size_t)nb + 1, 1), calloc((size_t)nb + 1, 1),
                     calloc((size_t)nb + 1, sizeof(int32_t))};
    cref *refs = calloc((size_t)nc + 1, sizeof *refs);
    bool ok = s.current && s.constrained && s.under && s.chain && refs;
    if (!ok) mf_boom(c);
    int32_t k = 0;
    for (int32_t i = 0; ok && i < sk->ik_count; i++) refs[k++] = (cref){sk->ik[i].order, MF_SD_REF_IK, i};
    for (int32_t i = 0; ok && i < sk->transform_count; i++) refs[k++] = (cref){sk->transform[i].order, MF_SD_REF_TRANSFORM, i};
    for (int32_t i = 0; ok && i < sk->path_count; i++) refs[k++] = (cref){sk->path[i].order, MF_SD_REF_PATH, i};
    for (int32_t i = 0; ok && i < sk->physics_count; i++) refs[k++] = (cref){sk->physics[i].order, MF_SD_REF_PHYSICS, i};
    if (ok) qsort(refs, (size_t)k, sizeof *refs, cmp_cref);
    for (int32_t i = 0; ok && i < k; i++) ok = run_constraint(&s, &refs[i]);
    for (int32_t b = 0; ok && b < nb; b++) ok = need(&s, b);
    free(s.current);
    free(s.constrained);
    free(s.under);
    free(s.chain);
    free(refs);
    return ok;
}
