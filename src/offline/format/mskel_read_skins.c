/* The .mskel reader: skins, their skin-required bones and constraints, their attachments, and
 * the LinkedMesh parents (resolved once every skin is read). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mskel_internal.h"
#include "util/suggest.h"

static const char *const skin_keys[] = {"name", "bones", "constraints", "attachments", NULL};

static const char *skin_name(const mf_skeleton *sk, int32_t i) { return sk->skins[i].name; }

static bool fail_at_index(mskel_rd *rd, const char *key, int i, const char *msg, const char *name)
{
    size_t m = mf_jr_key(&rd->jr, key);
    mf_jr_index(&rd->jr, i);
    mf_jr_fail(&rd->jr, msg, name);
    mf_jr_pop(&rd->jr, m);
    return false;
}

static bool read_skin_bones(mskel_rd *rd, const cJSON *obj, mf_skin *skin)
{
    if (!cJSON_GetObjectItemCaseSensitive(obj, "bones")) return true;
    if (!mskel_bone_list(rd, obj, "bones", 0, INT32_MAX, &skin->bones, &skin->bone_count)) return false;
    for (int32_t j = 0; j < skin->bone_count; j++) {
        const mf_bone *b = &rd->sk->bones[skin->bones[j]];
        if (!b->skin_required)
            return fail_at_index(rd, "bones", (int)j,
                                 "bone \"%s\" is not skinRequired, so a skin cannot add it", b->name);
    }
    return true;
}

static const char *constraint_at(const void *ctx, int i)
{
    const mf_skeleton *sk = ctx;
    if (i < sk->ik_count) return sk->ik[i].name;
    i -= sk->ik_count;
    if (i < sk->transform_count) return sk->transform[i].name;
    i -= sk->transform_count;
    if (i < sk->path_count) return sk->path[i].name;
    return sk->physics[i - sk->path_count].name;
}

static bool constraint_skin_required(const mf_skeleton *sk, mf_constraint_ref r)
{
    switch (r.kind) {
    case MF_CONSTRAINT_IK: return sk->ik[r.index].skin_required;
    case MF_CONSTRAINT_TRANSFORM: return sk->transform[r.index].skin_required;
    case MF_CONSTRAINT_PATH: return sk->path[r.index].skin_required;
    default: return sk->physics[r.index].skin_required;
    }
}

static bool read_skin_constraints(mskel_rd *rd, const cJSON *obj, mf_skin *skin)
{
    const cJSON *arr = mskel_get_array(rd, obj, "constraints");
    if (!arr) return !rd->jr.failed;
    int n = cJSON_GetArraySize(arr);
    if (!(skin->constraints = mskel_array_alloc(rd, (size_t)n, sizeof *skin->constraints))) return false;
    const mf_skeleton *sk = rd->sk;
    int total = sk->ik_count + sk->transform_count + sk->path_count + sk->physics_count;
    size_t m = mf_jr_key(&rd->jr, "constraints");
    int i = 0;
    bool ok = true;
    for (const cJSON *e = arr->child; e && ok; e = e->next, i++) {
        size_t mi = mf_jr_index(&rd->jr, i);
        mf_constraint_ref *r = &skin->constraints[i];
        if (!cJSON_IsString(e) || !e->valuestring[0]) {
            ok = mf_jr_fail(&rd->jr, "expected a constraint name, got %s",
                            cJSON_IsString(e) ? "an empty string" : mf_jr_type_name(e));
        } else if (!mf_skeleton_find_constraint(sk, e->valuestring, r)) {
            char sfx[160];
            mf_suggest_suffix(sfx, sizeof sfx, mf_suggest(e->valuestring, total, constraint_at, sk));
            ok = mf_jr_fail(&rd->jr, "unknown constraint \"%s\"%s", e->valuestring, sfx);
        } else if (!constraint_skin_required(sk, *r)) {
            ok = mf_jr_fail(&rd->jr, "constraint \"%s\" is not skinRequired, so a skin cannot add it",
                            e->valuestring);
        }
        for (int j = 0; ok && j < i; j++)
            if (skin->constraints[j].kind == r->kind && skin->constraints[j].index == r->index)
                ok = mf_jr_fail(&rd->jr, "constraint \"%s\" is listed twice", e->valuestring);
        mf_jr_pop(&rd->jr, mi);
    }
    mf_jr_pop(&rd->jr, m);
    skin->constraint_count = ok ? n : 0;
    return ok;
}

static bool read_attachments(mskel_rd *rd, const cJSON *obj, int32_t s)
{
    mf_skin *skin = &rd->sk->skins[s];
    const cJSON *arr = mskel_get_array(rd, obj, "attachments");
    if (!arr || !mskel_all_objects(rd, arr, "attachments")) return !rd->jr.failed;
    int n = cJSON_GetArraySize(arr);
    if (!(skin->attachments = mskel_array_alloc(rd, (size_t)n, sizeof *skin->attachments))) return false;
    size_t m = mf_jr_key(&rd->jr, "attachments");
    int32_t i = 0;
    bool ok = true;
    for (const cJSON *e = arr->child; e && ok; e = e->next, i++) {
        size_t mi = mf_jr_index(&rd->jr, (int)i);
        mf_attachment *a = &skin->attachments[i];
        ok = mskel_read_attachment(rd, e, s, a);
        for (int32_t j = 0; ok && j < i; j++) {
            const mf_attachment *o = &skin->attachments[j];
            if (o->slot == a->slot && strcmp(o->name, a->name) == 0)
                ok = mf_jr_fail_at(&rd->jr, "name",
                                   "duplicate attachment \"%s\" in slot \"%s\" (also attachments[%d])",
                                   a->name, rd->sk->slots[a->slot].name, (int)j);
        }
        skin->attachment_count = i + 1;
        mf_jr_pop(&rd->jr, mi);
    }
    mf_jr_pop(&rd->jr, m);
    return ok;
}

/* A LinkedMesh's parent: a Mesh of the same slot in the parent skin. */
static bool link_mesh(mskel_rd *rd, int32_t s, int32_t i)
{
    const mf_skeleton *sk = rd->sk;
    const mf_attachment *a = &sk->skins[s].attachments[i];
    const mf_skin *ps = &sk->skins[a->parent_skin < 0 ? s : a->parent_skin];
    const mf_attachment *p = mf_skin_find_attachment(ps, a->slot, a->parent);
    if (p && p->type == MF_ATTACH_MESH) return true;
    char msg[400];
    if (p) {
        snprintf(msg, sizeof msg, "parent \"%s\" is a %s, expected a Mesh", a->parent,
                 mf_attachment_type_name(p->type));
    } else {
        const char **names = calloc((size_t)ps->attachment_count + 1, sizeof *names);
        int n = 0;
        for (int32_t j = 0; names && j < ps->attachment_count; j++)
            if (ps->attachments[j].slot == a->slot && ps->attachments[j].type == MF_ATTACH_MESH)
                names[n++] = ps->attachments[j].name;
        char sfx[160];
        mf_suggest_suffix(sfx, sizeof sfx, names ? mf_suggest_list(a->parent, names) : NULL);
        free(names);
        snprintf(msg, sizeof msg, "unknown mesh \"%s\" in slot \"%s\" of skin \"%s\"%s", a->parent,
                 sk->slots[a->slot].name, ps->name, sfx);
    }
    size_t m = mf_jr_key(&rd->jr, "skins");
    mf_jr_index(&rd->jr, (int)s);
    mf_jr_key(&rd->jr, "attachments");
    mf_jr_index(&rd->jr, (int)i);
    mf_jr_key(&rd->jr, "parent");
    mf_jr_fail(&rd->jr, "%s", msg);
    mf_jr_pop(&rd->jr, m);
    return false;
}

bool mskel_read_skins(mskel_rd *rd, const cJSON *root)
{
    const cJSON *arr = mskel_get_array(rd, root, "skins");
    if (!arr || !mskel_all_objects(rd, arr, "skins")) return !rd->jr.failed;
    mf_skeleton *sk = rd->sk;
    int n = cJSON_GetArraySize(arr);
    if (!(sk->skins = mskel_array_alloc(rd, (size_t)n, sizeof *sk->skins))) return false;
    size_t m = mf_jr_key(&rd->jr, "skins");
    /* pass 1: names, so that a LinkedMesh can name a later skin */
    int32_t i = 0;
    bool ok = true;
    for (const cJSON *e = arr->child; e && ok; e = e->next, i++) {
        size_t mi = mf_jr_index(&rd->jr, (int)i);
        ok = mf_jr_keys(&rd->jr, e, skin_keys) &&
             mf_jr_name(&rd->jr, sk->arena, e, "name", &sk->skins[i].name) &&
             mskel_check_unique(rd, "skin", "skins", sk->skins[i].name, i, skin_name);
        sk->skin_count = i + 1;
        mf_jr_pop(&rd->jr, mi);
    }
    i = 0;
    for (const cJSON *e = arr->child; e && ok; e = e->next, i++) {
        size_t mi = mf_jr_index(&rd->jr, (int)i);
        ok = read_skin_bones(rd, e, &sk->skins[i]) && read_skin_constraints(rd, e, &sk->skins[i]) &&
             read_attachments(rd, e, i);
        mf_jr_pop(&rd->jr, mi);
    }
    mf_jr_pop(&rd->jr, m);
    for (int32_t s = 0; ok && s < sk->skin_count; s++)
        for (int32_t j = 0; ok && j < sk->skins[s].attachment_count; j++)
            if (sk->skins[s].attachments[j].type == MF_ATTACH_LINKED_MESH) ok = link_mesh(rd, s, j);
    return ok;
}
