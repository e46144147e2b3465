/* Spine bone timelines → clip timelines. Rotations, shears and y translations change sign;
 * scale keeps its values. */
#include <stdio.h>
#include <string.h>

#include "spine_internal.h"
#include "util/suggest.h"

typedef struct bone_kind {
    const char *name;
    mf_timeline_kind kind;
    int n;
    sp_value values[2];
} bone_kind;

static const bone_kind KINDS[] = {
    {"rotate", MF_TL_ROTATE, 1, {{"value", 0, -1, -1}}},
    {"translate", MF_TL_TRANSLATE, 2, {{"x", 0, -1, 1}, {"y", 0, -1, -1}}},
    {"translatex", MF_TL_TRANSLATE_X, 1, {{"value", 0, -1, 1}}},
    {"translatey", MF_TL_TRANSLATE_Y, 1, {{"value", 0, -1, -1}}},
    {"scale", MF_TL_SCALE, 2, {{"x", 1, -1, 1}, {"y", 1, -1, 1}}},
    {"scalex", MF_TL_SCALE_X, 1, {{"value", 1, -1, 1}}},
    {"scaley", MF_TL_SCALE_Y, 1, {{"value", 1, -1, 1}}},
    {"shear", MF_TL_SHEAR, 2, {{"x", 0, -1, -1}, {"y", 0, -1, -1}}},
    {"shearx", MF_TL_SHEAR_X, 1, {{"value", 0, -1, -1}}},
    {"sheary", MF_TL_SHEAR_Y, 1, {{"value", 0, -1, -1}}},
};
static const char *const INHERIT_SPINE[] = {"normal", "onlyTranslation", "noRotationOrReflection", "noScale",
                                            "noScaleOrReflection", NULL};

static bool inherit_timeline(sp_anim *a, const cJSON *arr, const char *bone)
{
    sp_ctx *c = a->c;
    mf_timeline *tl = sp_timeline(a, MF_TL_INHERIT, bone, cJSON_GetArraySize(arr));
    if (!tl || !sp_key_times(a, arr, tl)) return false;
    int32_t i = 0;
    for (const cJSON *k = arr->child; k; k = k->next, i++) {
        const char *s;
        size_t m = mf_jr_index(&c->jr, (int)i);
        bool ok = sp_string(c, k, "inherit", &s);
        tl->iv[i] = MF_INHERIT_NORMAL;
        if (ok && s) {
            int found = -1;
            for (int j = 0; INHERIT_SPINE[j]; j++)
                if (strcmp(INHERIT_SPINE[j], s) == 0) found = j;
            if (found < 0) {
                char sfx[200];
                mf_suggest_suffix(sfx, sizeof sfx, mf_suggest_list(s, INHERIT_SPINE));
                ok = mf_jr_fail_at(&c->jr, "inherit", "unknown inherit mode \"%s\"%s", s, sfx);
            }
            tl->iv[i] = found;
        }
        mf_jr_pop(&c->jr, m);
        if (!ok) return false;
    }
    return true;
}

static bool bone_timelines(sp_anim *a, const cJSON *obj, const char *bone)
{
    sp_ctx *c = a->c;
    if (!mf_jr_expect_object(&c->jr, obj)) return false;
    for (const cJSON *t = obj->child; t; t = t->next) {
        const char *kind = t->string ? t->string : "";
        size_t m = mf_jr_key(&c->jr, kind);
        bool ok = mf_jr_expect_array(&c->jr, t), known = false;
        if (ok && cJSON_GetArraySize(t) == 0) known = true; /* no keys: nothing to do */
        else if (ok && strcmp(kind, "inherit") == 0) known = true, ok = inherit_timeline(a, t, bone);
        for (size_t k = 0; ok && !known && k < sizeof KINDS / sizeof KINDS[0]; k++) {
            if (strcmp(KINDS[k].name, kind) != 0) continue;
            known = true;
            ok = sp_numeric(a, t, KINDS[k].kind, bone, KINDS[k].values, KINDS[k].n) != NULL;
        }
        if (ok && !known) {
            char where[600];
            sp_note_add(&c->rep, "unknown", kind, sp_where(c, "", where, sizeof where),
                        "bone timeline \"%s\" is not one this importer knows: not imported", kind);
        }
        mf_jr_pop(&c->jr, m);
        if (!ok) return false;
    }
    return true;
}

bool sp_anim_bones(sp_anim *a, const cJSON *bones)
{
    sp_ctx *c = a->c;
    if (!bones) return !c->jr.failed;
    size_t m = mf_jr_key(&c->jr, "bones");
    bool ok = true;
    for (const cJSON *b = bones->child; b && ok; b = b->next) {
        const char *name = b->string ? b->string : "";
        size_t mb = mf_jr_key(&c->jr, name);
        if (mf_skeleton_find_bone(c->sk, name) < 0)
            ok = sp_fail_unknown(c, "bone", name, c->sk->bone_count, sp_bone_at, c->sk);
        else
            ok = bone_timelines(a, b, name);
        mf_jr_pop(&c->jr, mb);
    }
    mf_jr_pop(&c->jr, m);
    return ok;
}
