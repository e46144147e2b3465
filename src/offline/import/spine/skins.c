/* Spine JSON → rig: skins (Spine 4's array form) with their skin bones and constraints and
 * their attachments, then the linked meshes' parents once every skin is known. A linked mesh
 * whose parent is itself linked points at the mesh at the end of the chain (mfanim links
 * straight to a Mesh). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spine_internal.h"
#include "util/suggest.h"

static const char *const SKIN_KEYS[] = {"name", "bones", "ik", "transform", "path", "physics", "attachments",
                                        "color", NULL};
static const char *const KIND_KEYS[] = {"ik", "transform", "path", "physics"};

typedef struct pending_link {
    int32_t skin, index;
    const char *parent_skin; /* Spine's "skin", NULL: the default skin */
    char *where;             /* JSON path of the linked mesh */
} pending_link;

typedef struct links {
    pending_link *v;
    int32_t count, cap;
} links;

static const char *skin_at(const void *sk, int i) { return ((const mf_skeleton *)sk)->skins[i].name; }

static bool skin_bones(sp_ctx *c, const cJSON *obj, mf_skin *skin)
{
    const cJSON *arr = sp_array(c, obj, "bones");
    if (!arr) return !c->jr.failed;
    int n = cJSON_GetArraySize(arr);
    if (!(skin->bones = sp_alloc(c, (size_t)n + 1, sizeof *skin->bones))) return false;
    size_t m = mf_jr_key(&c->jr, "bones");
    int i = 0;
    bool ok = true;
    for (const cJSON *e = arr->child; e && ok; e = e->next, i++) {
        size_t mi = mf_jr_index(&c->jr, i);
        int32_t b = -1;
        if (!cJSON_IsString(e)) ok = mf_jr_fail(&c->jr, "expected a bone name, got %s", mf_jr_type_name(e));
        else if ((b = mf_skeleton_find_bone(c->sk, e->valuestring)) < 0)
            ok = sp_fail_unknown(c, "bone", e->valuestring, c->sk->bone_count, sp_bone_at, c->sk);
        bool dup = false;
        for (int32_t j = 0; ok && j < skin->bone_count; j++) dup |= skin->bones[j] == b;
        if (ok && !dup && !c->sk->bones[b].skin_required) {
            char where[600];
            sp_note_add(&c->rep, "skin", NULL, sp_where(c, "", where, sizeof where),
                        "bone \"%s\" is not a skin bone (\"skin\": true), so the skin cannot add it: not kept",
                        e->valuestring);
        } else if (ok && !dup) {
            skin->bones[skin->bone_count++] = b;
        }
        mf_jr_pop(&c->jr, mi);
    }
    mf_jr_pop(&c->jr, m);
    return ok;
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

static const char *const *names_of(const sp_ctx *c, int kind, int32_t *count)
{
    const mf_skeleton *sk = c->sk;
    const int32_t counts[] = {sk->ik_count, sk->transform_count, sk->path_count, sk->physics_count};
    *count = counts[kind];
    return (const char *const *)c->spine_names[kind];
}

static const char *name_at(const void *ctx, int i) { return ((const char *const *)ctx)[i]; }

/* The skin's "ik", "transform", "path" and "physics" lists. */
static bool skin_constraints(sp_ctx *c, const cJSON *obj, mf_skin *skin)
{
    int total = 0;
    for (int k = 0; k < MF_CONSTRAINT_KIND_COUNT; k++) {
        const cJSON *arr = sp_array(c, obj, KIND_KEYS[k]);
        if (c->jr.failed) return false;
        total += arr ? cJSON_GetArraySize(arr) : 0;
    }
    if (total == 0) return true;
    if (!(skin->constraints = sp_alloc(c, (size_t)total, sizeof *skin->constraints))) return false;
    for (int k = 0; k < MF_CONSTRAINT_KIND_COUNT; k++) {
        const cJSON *arr = cJSON_GetObjectItemCaseSensitive(obj, KIND_KEYS[k]);
        size_t m = mf_jr_key(&c->jr, KIND_KEYS[k]);
        int i = 0;
        bool ok = true;
        for (const cJSON *e = arr ? arr->child : NULL; e && ok; e = e->next, i++) {
            size_t mi = mf_jr_index(&c->jr, i);
            int32_t n;
            const char *const *names = names_of(c, k, &n);
            mf_constraint_ref r = {(mf_constraint_kind)k, -1};
            if (!cJSON_IsString(e)) {
                ok = mf_jr_fail(&c->jr, "expected a constraint name, got %s", mf_jr_type_name(e));
            } else {
                for (int32_t j = 0; j < n && r.index < 0; j++)
                    if (strcmp(names[j], e->valuestring) == 0) r.index = j;
                if (r.index < 0) {
                    char what[40];
                    snprintf(what, sizeof what, "%s constraint", KIND_KEYS[k]);
                    ok = sp_fail_unknown(c, what, e->valuestring, (int)n, name_at, names);
                }
            }
            bool dup = false;
            for (int32_t j = 0; ok && j < skin->constraint_count; j++)
                dup |= skin->constraints[j].kind == r.kind && skin->constraints[j].index == r.index;
            if (ok && !dup && !constraint_skin_required(c->sk, r)) {
                char where[600];
                sp_note_add(&c->rep, "skin", NULL, sp_where(c, "", where, sizeof where),
                            "constraint \"%s\" is not a skin constraint (\"skin\": true): not kept in the skin",
                            e->valuestring);
            } else if (ok && !dup) {
                skin->constraints[skin->constraint_count++] = r;
            }
            mf_jr_pop(&c->jr, mi);
        }
        mf_jr_pop(&c->jr, m);
        if (!ok) return false;
    }
    return true;
}

static bool add_link(sp_ctx *c, links *l, int32_t skin, int32_t index, const char *parent_skin)
{
    if (l->count == l->cap) {
        int32_t cap = l->cap ? l->cap * 2 : 16;
        pending_link *n = realloc(l->v, (size_t)cap * sizeof *n);
        if (!n) return sp_oom(c);
        l->v = n;
        l->cap = cap;
    }
    char *where = sp_strdup(c, c->jr.path);
    if (!where) return false;
    l->v[l->count++] = (pending_link){skin, index, parent_skin, where};
    return true;
}

static bool skin_attachments(sp_ctx *c, const cJSON *obj, int32_t s, links *l)
{
    mf_skin *skin = &c->sk->skins[s];
    const cJSON *slots = sp_object(c, obj, "attachments");
    if (!slots) return !c->jr.failed;
    int total = 0;
    for (const cJSON *e = slots->child; e; e = e->next) total += cJSON_IsObject(e) ? cJSON_GetArraySize(e) : 0;
    if (!(skin->attachments = sp_alloc(c, (size_t)total + 1, sizeof *skin->attachments))) return false;
    size_t m = mf_jr_key(&c->jr, "attachments");
    bool ok = true;
    for (const cJSON *e = slots->child; e && ok; e = e->next) {
        const char *slot_name = e->string ? e->string : "";
        size_t ms = mf_jr_key(&c->jr, slot_name);
        int32_t slot = mf_skeleton_find_slot(c->sk, slot_name);
        if (slot < 0) ok = sp_fail_unknown(c, "slot", slot_name, c->sk->slot_count, sp_slot_at, c->sk);
        else ok = mf_jr_expect_object(&c->jr, e);
        for (const cJSON *a = ok ? e->child : NULL; a && ok; a = a->next) {
            const char *key = a->string ? a->string : "";
            size_t ma = mf_jr_key(&c->jr, key);
            mf_attachment *att = &skin->attachments[skin->attachment_count];
            const char *parent_skin = NULL;
            bool skip = false;
            if (!key[0]) ok = mf_jr_fail(&c->jr, "an attachment name must not be empty");
            else if (slot >= 0 && mf_skin_find_attachment(skin, slot, key))
                ok = mf_jr_fail(&c->jr, "duplicate attachment \"%s\" in slot \"%s\"", key, slot_name);
            ok = ok && sp_read_attachment(c, a, key, att, &parent_skin, &skip);
            if (ok && !skip && c->last_capped) ok = sp_mark_capped(c, s, slot, key);
            c->last_capped = false;
            if (ok && skip) {
                ok = sp_skip_attachment(c, slot, key);
                memset(att, 0, sizeof *att);
            } else if (ok) {
                att->slot = slot;
                if (att->type == MF_ATTACH_LINKED_MESH)
                    ok = add_link(c, l, s, skin->attachment_count, parent_skin);
                skin->attachment_count++;
            }
            mf_jr_pop(&c->jr, ma);
        }
        mf_jr_pop(&c->jr, ms);
    }
    mf_jr_pop(&c->jr, m);
    return ok;
}

static bool read_skin(sp_ctx *c, const cJSON *obj, int32_t s, links *l)
{
    mf_skin *skin = &c->sk->skins[s];
    const char *name;
    if (!mf_jr_expect_object(&c->jr, obj) || !sp_name(c, obj, "name", &name)) return false;
    if (mf_skeleton_find_skin(c->sk, name) >= 0) return mf_jr_fail_at(&c->jr, "name", "duplicate skin \"%s\"", name);
    sp_unknown_keys(c, obj, SKIN_KEYS, "skin");
    if (cJSON_GetObjectItemCaseSensitive(obj, "color")) {
        char where[600];
        sp_note_add(&c->rep, "editor", "skin.color", sp_where(c, "color", where, sizeof where),
                    "editor-only skin colour is not kept");
    }
    if (!(skin->name = sp_strdup(c, name))) return false;
    c->sk->skin_count = s + 1;
    return skin_bones(c, obj, skin) && skin_constraints(c, obj, skin) && skin_attachments(c, obj, s, l);
}

/* Follows a linked mesh to the Mesh that holds its geometry: (skin, index) of that mesh. */
static bool resolve(sp_ctx *c, const links *l, int32_t i, int32_t *mesh_skin, const mf_attachment **mesh)
{
    const mf_skeleton *sk = c->sk;
    const pending_link *p = &l->v[i];
    const mf_attachment *a = &sk->skins[p->skin].attachments[p->index];
    int32_t skin = p->skin;
    const char *parent_skin = p->parent_skin;
    for (int hops = 0; hops < 16; hops++) {
        /* Spine: no "skin" means the parent is in the default skin; fall back to the own skin */
        int32_t ps = parent_skin ? mf_skeleton_find_skin(sk, parent_skin) : mf_skeleton_find_skin(sk, "default");
        const mf_attachment *found = ps >= 0 ? mf_skin_find_attachment(&sk->skins[ps], a->slot, a->parent) : NULL;
        if (!found && !parent_skin) {
            ps = skin;
            found = mf_skin_find_attachment(&sk->skins[ps], a->slot, a->parent);
        }
        if (parent_skin && ps < 0) {
            snprintf(c->jr.path, sizeof c->jr.path, "%s.skin", p->where);
            c->jr.len = strlen(c->jr.path);
            return sp_fail_unknown(c, "skin", parent_skin, sk->skin_count, skin_at, sk);
        }
        if (!found) {
            if (!parent_skin && mf_skeleton_find_skin(sk, "default") >= 0) ps = mf_skeleton_find_skin(sk, "default");
            snprintf(c->jr.path, sizeof c->jr.path, "%s.parent", p->where);
            c->jr.len = strlen(c->jr.path);
            return mf_jr_fail(&c->jr, "unknown mesh \"%s\" in slot \"%s\" of skin \"%s\"", a->parent,
                              sk->slots[a->slot].name, sk->skins[ps].name);
        }
        if (found->type == MF_ATTACH_MESH) {
            *mesh_skin = ps;
            *mesh = found;
            return true;
        }
        if (found->type != MF_ATTACH_LINKED_MESH) {
            snprintf(c->jr.path, sizeof c->jr.path, "%s.parent", p->where);
            c->jr.len = strlen(c->jr.path);
            return mf_jr_fail(&c->jr, "parent \"%s\" is a %s, expected a mesh", a->parent,
                              mf_attachment_type_name(found->type));
        }
        /* a linked mesh: continue from its own parent */
        int32_t next = -1;
        for (int32_t j = 0; j < l->count && next < 0; j++)
            if (&sk->skins[l->v[j].skin].attachments[l->v[j].index] == found) next = j;
        if (next < 0) break;
        a = found;
        skin = ps;
        parent_skin = l->v[next].parent_skin;
    }
    snprintf(c->jr.path, sizeof c->jr.path, "%s.parent", l->v[i].where);
    c->jr.len = strlen(c->jr.path);
    return mf_jr_fail(&c->jr, "linked meshes form a loop or a chain too long to follow");
}

static bool link_all(sp_ctx *c, const links *l)
{
    for (int32_t i = 0; i < l->count; i++) {
        const mf_attachment *mesh = NULL;
        int32_t mesh_skin = -1;
        if (!resolve(c, l, i, &mesh_skin, &mesh)) return false;
        mf_attachment *a = &c->sk->skins[l->v[i].skin].attachments[l->v[i].index];
        if (strcmp(a->parent, mesh->name) != 0 && !(a->parent = sp_strdup(c, mesh->name))) return false;
        a->parent_skin = mesh_skin == l->v[i].skin ? -1 : mesh_skin;
    }
    return true;
}

/* A slot's setup attachment that no skin has shows nothing in Spine: it is dropped (reported). */
static bool check_setup_attachments(sp_ctx *c)
{
    mf_skeleton *sk = c->sk;
    for (int32_t i = 0; i < sk->slot_count; i++) {
        mf_slot *slot = &sk->slots[i];
        bool found = false;
        for (int32_t s = 0; s < sk->skin_count && slot->attachment && !found; s++)
            found = mf_skin_find_attachment(&sk->skins[s], i, slot->attachment) != NULL;
        if (!slot->attachment || found) continue;
        char where[64];
        snprintf(where, sizeof where, "slots[%d].attachment", (int)i);
        sp_note_add(&c->rep, "skipped", NULL, where, "no skin has attachment \"%s\" for slot \"%s\"%s: the slot starts empty",
                    slot->attachment, slot->name, sp_was_skipped(c, i, slot->attachment) ? " (it was not imported)" : "");
        slot->attachment = NULL;
    }
    return true;
}

bool sp_read_skins(sp_ctx *c, const cJSON *root)
{
    const cJSON *arr = cJSON_GetObjectItemCaseSensitive(root, "skins");
    if (!arr) return check_setup_attachments(c);
    if (cJSON_IsObject(arr))
        return mf_jr_fail_at(&c->jr, "skins", "skins as an object are Spine 3.x data: export JSON from Spine 4.0 or later");
    if (!(arr = sp_array(c, root, "skins"))) return false;
    int n = cJSON_GetArraySize(arr);
    if (n == 0) return check_setup_attachments(c);
    if (!(c->sk->skins = sp_alloc(c, (size_t)n, sizeof(mf_skin)))) return false;
    links l = {0};
    size_t m = mf_jr_key(&c->jr, "skins");
    int32_t i = 0;
    bool ok = true;
    for (const cJSON *e = arr->child; e && ok; e = e->next, i++) {
        size_t mi = mf_jr_index(&c->jr, (int)i);
        ok = read_skin(c, e, i, &l);
        mf_jr_pop(&c->jr, mi);
    }
    mf_jr_pop(&c->jr, m);
    ok = ok && link_all(c, &l) && check_setup_attachments(c);
    free(l.v);
    return ok;
}
