/* Spine constraint timelines → clip timelines: ik, transform, path (position, spacing, mix) and
 * physics (each property and reset; "" means every physics constraint). A Spine key leaves
 * out values that equal Spine's defaults; an .manim ik / transform column left out means the
 * constraint's setup value, so a column is written when any key differs from the setup. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spine_internal.h"

static const char *const KIND_KEYS[] = {"ik", "transform", "path", "physics"};

static const char *name_at(const void *ctx, int i) { return ((const char *const *)ctx)[i]; }

/* Our name of the Spine constraint `name` of kind; fails at the current path when unknown. */
static const char *find(sp_ctx *c, mf_constraint_kind kind, const char *name, int32_t *index)
{
    const mf_skeleton *sk = c->sk;
    const int32_t counts[] = {sk->ik_count, sk->transform_count, sk->path_count, sk->physics_count};
    for (int32_t i = 0; i < counts[kind]; i++)
        if (strcmp(c->spine_names[kind][i], name) == 0) {
            *index = i;
            return sp_constraint(c, kind, name);
        }
    char what[40];
    snprintf(what, sizeof what, "%s constraint", KIND_KEYS[kind]);
    sp_fail_unknown(c, what, name, (int)counts[kind], name_at, c->spine_names[kind]);
    return NULL;
}

static bool ik_timeline(sp_anim *a, const cJSON *arr, const char *spine_name)
{
    sp_ctx *c = a->c;
    int32_t index;
    const char *name = find(c, MF_CONSTRAINT_IK, spine_name, &index);
    if (!name) return false;
    const mf_ik_constraint *k = &c->sk->ik[index];
    static const sp_value V[] = {{"mix", 1, -1, 1}, {"softness", 0, -1, 1}};
    /* the switches of each Spine key first: a key added to keep a curve holds its predecessor's */
    int32_t keys = cJSON_GetArraySize(arr), i = 0;
    int32_t *sw = malloc(((size_t)keys * 3 + 1) * sizeof *sw);
    if (!sw) return sp_oom(c);
    for (const cJSON *key = arr->child; key && i < keys; key = key->next, i++) {
        bool bend = true, compress = false, stretch = false;
        size_t m = mf_jr_index(&c->jr, (int)i);
        bool ok = mf_jr_expect_object(&c->jr, key) && sp_bool(c, key, "bendPositive", true, &bend) &&
                  sp_bool(c, key, "compress", false, &compress) && sp_bool(c, key, "stretch", false, &stretch);
        mf_jr_pop(&c->jr, m);
        if (!ok) {
            free(sw);
            return false;
        }
        sw[i * 3] = bend ? -1 : 1; /* mirrored handedness, as in the setup pose */
        sw[i * 3 + 1] = compress, sw[i * 3 + 2] = stretch;
    }
    mf_timeline *tl = sp_numeric(a, arr, MF_TL_IK, name, V, 2);
    if (!tl || a->origin_count != tl->key_count) {
        free(sw);
        return false;
    }
    uint32_t cols = 0;
    for (i = 0; i < tl->key_count; i++) {
        int32_t *iv = tl->iv + i * 3;
        memcpy(iv, sw + a->origin[i] * 3, 3 * sizeof *iv);
        if (tl->v[i * 2] != k->mix) cols |= MF_IK_COL_MIX;
        if (tl->v[i * 2 + 1] != k->softness) cols |= MF_IK_COL_SOFTNESS;
        if (iv[0] != k->bend) cols |= MF_IK_COL_BEND;
        if ((bool)iv[1] != k->compress) cols |= MF_IK_COL_COMPRESS;
        if ((bool)iv[2] != k->stretch) cols |= MF_IK_COL_STRETCH;
    }
    free(sw);
    tl->columns = cols ? cols : MF_IK_COL_MIX;
    return true;
}

static bool transform_timeline(sp_anim *a, const cJSON *arr, const char *spine_name)
{
    sp_ctx *c = a->c;
    int32_t index;
    const char *name = find(c, MF_CONSTRAINT_TRANSFORM, spine_name, &index);
    if (!name) return false;
    const mf_transform_constraint *k = &c->sk->transform[index];
    static const sp_value V[] = {{"mixRotate", 1, -1, 1}, {"mixX", 1, -1, 1},      {"mixY", 1, 1, 1},
                                 {"mixScaleX", 1, -1, 1}, {"mixScaleY", 1, 3, 1}, {"mixShearY", 1, -1, 1}};
    mf_timeline *tl = sp_numeric(a, arr, MF_TL_TRANSFORM, name, V, 6);
    if (!tl) return false;
    const float setup[6] = {k->mix_rotate, k->mix_x, k->mix_y, k->mix_scale_x, k->mix_scale_y, k->mix_shear_y};
    uint32_t cols = 0;
    for (int32_t i = 0; i < tl->key_count; i++)
        for (int j = 0; j < 6; j++)
            if (tl->v[i * 6 + j] != setup[j]) cols |= 1u << j;
    tl->columns = cols ? cols : MF_TF_COL_ROTATE;
    return true;
}

static bool path_timelines(sp_anim *a, const cJSON *obj, const char *spine_name)
{
    sp_ctx *c = a->c;
    int32_t index;
    const char *name = find(c, MF_CONSTRAINT_PATH, spine_name, &index);
    if (!name || !mf_jr_expect_object(&c->jr, obj)) return false;
    static const sp_value POS[] = {{"value", 0, -1, 1}};
    static const sp_value MIX[] = {{"mixRotate", 1, -1, 1}, {"mixX", 1, -1, 1}, {"mixY", 1, 1, 1}};
    for (const cJSON *t = obj->child; t; t = t->next) {
        const char *kind = t->string ? t->string : "";
        size_t m = mf_jr_key(&c->jr, kind);
        bool ok = mf_jr_expect_array(&c->jr, t);
        if (!ok || cJSON_GetArraySize(t) == 0) {
        } else if (strcmp(kind, "position") == 0) {
            ok = sp_numeric(a, t, MF_TL_PATH_POSITION, name, POS, 1) != NULL;
        } else if (strcmp(kind, "spacing") == 0) {
            ok = sp_numeric(a, t, MF_TL_PATH_SPACING, name, POS, 1) != NULL;
        } else if (strcmp(kind, "mix") == 0) {
            ok = sp_numeric(a, t, MF_TL_PATH_MIX, name, MIX, 3) != NULL;
        } else {
            char where[600];
            sp_note_add(&c->rep, "unknown", kind, sp_where(c, "", where, sizeof where),
                        "path timeline \"%s\" is not one this importer knows: not imported", kind);
        }
        mf_jr_pop(&c->jr, m);
        if (!ok) return false;
    }
    return true;
}

static bool physics_timelines(sp_anim *a, const cJSON *obj, const char *spine_name)
{
    static const struct {
        const char *name;
        mf_timeline_kind kind;
    } KINDS[] = {{"inertia", MF_TL_PHYSICS_INERTIA}, {"strength", MF_TL_PHYSICS_STRENGTH},
                 {"damping", MF_TL_PHYSICS_DAMPING}, {"mass", MF_TL_PHYSICS_MASS},
                 {"wind", MF_TL_PHYSICS_WIND},       {"gravity", MF_TL_PHYSICS_GRAVITY},
                 {"mix", MF_TL_PHYSICS_MIX}};
    static const sp_value VALUE[] = {{"value", 0, -1, 1}};
    sp_ctx *c = a->c;
    int32_t index;
    const char *name = spine_name[0] ? find(c, MF_CONSTRAINT_PHYSICS, spine_name, &index) : "";
    if (!name || !mf_jr_expect_object(&c->jr, obj)) return false;
    for (const cJSON *t = obj->child; t; t = t->next) {
        const char *kind = t->string ? t->string : "";
        size_t m = mf_jr_key(&c->jr, kind);
        bool ok = mf_jr_expect_array(&c->jr, t), known = false;
        if (ok && cJSON_GetArraySize(t) == 0) known = true;
        for (size_t k = 0; ok && !known && k < sizeof KINDS / sizeof KINDS[0]; k++) {
            if (strcmp(KINDS[k].name, kind) != 0) continue;
            known = true;
            ok = sp_numeric(a, t, KINDS[k].kind, name, VALUE, 1) != NULL;
        }
        if (ok && !known && strcmp(kind, "reset") == 0) {
            known = true;
            mf_timeline *tl = sp_timeline(a, MF_TL_PHYSICS_RESET, name, cJSON_GetArraySize(t));
            ok = tl && sp_key_times(a, t, tl);
        }
        if (ok && !known) {
            char where[600];
            sp_note_add(&c->rep, "unknown", kind, sp_where(c, "", where, sizeof where),
                        "physics timeline \"%s\" is not one this importer knows: not imported", kind);
        }
        mf_jr_pop(&c->jr, m);
        if (!ok) return false;
    }
    return true;
}

/* Each member of anim[key] is one constraint's timeline(s). */
static bool group(sp_anim *a, const cJSON *anim, mf_constraint_kind kind)
{
    sp_ctx *c = a->c;
    const char *key = KIND_KEYS[kind];
    const cJSON *obj = sp_object(c, anim, key);
    if (!obj) return !c->jr.failed;
    size_t m = mf_jr_key(&c->jr, key);
    bool ok = true;
    for (const cJSON *e = obj->child; e && ok; e = e->next) {
        const char *name = e->string ? e->string : "";
        size_t mn = mf_jr_key(&c->jr, name);
        switch (kind) {
        case MF_CONSTRAINT_IK:
            ok = mf_jr_expect_array(&c->jr, e) && (cJSON_GetArraySize(e) == 0 || ik_timeline(a, e, name));
            break;
        case MF_CONSTRAINT_TRANSFORM:
            ok = mf_jr_expect_array(&c->jr, e) && (cJSON_GetArraySize(e) == 0 || transform_timeline(a, e, name));
            break;
        case MF_CONSTRAINT_PATH: ok = path_timelines(a, e, name); break;
        default: ok = physics_timelines(a, e, name); break;
        }
        mf_jr_pop(&c->jr, mn);
    }
    mf_jr_pop(&c->jr, m);
    return ok;
}

bool sp_anim_constraints(sp_anim *a, const cJSON *anim)
{
    return group(a, anim, MF_CONSTRAINT_IK) && group(a, anim, MF_CONSTRAINT_TRANSFORM) &&
           group(a, anim, MF_CONSTRAINT_PATH) && group(a, anim, MF_CONSTRAINT_PHYSICS);
}
