/* Spine JSON → rig: IK, transform, path and physics constraints. Rotation and shear offsets and
 * y offsets flip; an IK bend direction flips with the handedness. Orders are renumbered 0..n-1
 * in Spine's order (ties keep file order ik, transform, path, physics), and a name that two
 * kinds share (Spine allows it, mfanim does not) gets a suffix, which the report lists. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spine_internal.h"
#include "util/suggest.h"

static const char *const KIND_KEYS[] = {"ik", "transform", "path", "physics"};

static const char *const IK_KEYS[] = {"type", "name", "order", "skin", "bones", "target", "mix", "softness",
                                      "bendPositive", "compress", "stretch", "uniform", NULL};
static const char *const TF_KEYS[] = {"type", "name", "order", "skin", "bones", "target", "rotation", "x", "y",
                                      "scaleX", "scaleY", "shearY", "mixRotate", "mixX", "mixY", "mixScaleX",
                                      "mixScaleY", "mixShearY", "local", "relative", NULL};
static const char *const PATH_KEYS[] = {"type", "name", "order", "skin", "bones", "target", "positionMode",
                                        "spacingMode", "rotateMode", "rotation", "position", "spacing",
                                        "mixRotate", "mixX", "mixY", NULL};
static const char *const PHYS_KEYS[] = {"type", "name", "order", "skin", "bone", "x", "y", "rotate", "scaleX", "shearX",
                                        "limit", "fps", "inertia", "strength", "damping", "mass", "wind",
                                        "gravity", "mix", "inertiaGlobal", "strengthGlobal", "dampingGlobal",
                                        "massGlobal", "windGlobal", "gravityGlobal", "mixGlobal", NULL};

typedef struct order_item {
    int32_t order, kind, index, seq;
    int32_t *target;
} order_item;

/* name, order, skin: shared by every kind. The name is made unique across kinds. */
static bool common(sp_ctx *c, const cJSON *obj, mf_constraint_kind kind, int32_t i, char **name,
                   int32_t *order, bool *skin_required)
{
    const char *spine;
    if (!mf_jr_expect_object(&c->jr, obj) || !sp_name(c, obj, "name", &spine) ||
        !sp_int(c, obj, "order", 0, order) || !sp_bool(c, obj, "skin", false, skin_required))
        return false;
    for (int32_t j = 0; j < i; j++)
        if (strcmp(c->spine_names[kind][j], spine) == 0)
            return mf_jr_fail_at(&c->jr, "name", "duplicate %s constraint \"%s\"", KIND_KEYS[kind], spine);
    if (!(c->spine_names[kind][i] = sp_strdup(c, spine))) return false;
    char buf[600];
    snprintf(buf, sizeof buf, "%s", spine);
    for (int n = 1; mf_skeleton_find_constraint(c->sk, buf, NULL); n++) {
        if (n == 1) snprintf(buf, sizeof buf, "%s-%s", spine, KIND_KEYS[kind]);
        else snprintf(buf, sizeof buf, "%s-%s-%d", spine, KIND_KEYS[kind], n);
    }
    if (strcmp(buf, spine) != 0) {
        char where[600];
        sp_note_add(&c->rep, "name", NULL, sp_where(c, "name", where, sizeof where),
                    "another kind of constraint is also named \"%s\": this %s constraint is renamed \"%s\"", spine,
                    KIND_KEYS[kind], buf);
    }
    return (*name = sp_strdup(c, buf)) != NULL;
}

/* "bones": names → indices (count between min and max, no repeats). */
static bool bone_list(sp_ctx *c, const cJSON *obj, int32_t min, int32_t max, int32_t **out, int32_t *count)
{
    const cJSON *arr = sp_array(c, obj, "bones");
    if (c->jr.failed) return false;
    if (!arr) return mf_jr_fail(&c->jr, "missing \"bones\"");
    int n = cJSON_GetArraySize(arr);
    size_t m = mf_jr_key(&c->jr, "bones");
    bool ok = true;
    if (n < min || n > max) ok = mf_jr_fail(&c->jr, "%d bones (expected %d to %d)", n, (int)min, (int)max);
    int32_t *v = ok ? sp_alloc(c, (size_t)n, sizeof *v) : NULL;
    int i = 0;
    for (const cJSON *e = v ? arr->child : NULL; e && ok; e = e->next, i++) {
        size_t mi = mf_jr_index(&c->jr, i);
        if (!cJSON_IsString(e)) ok = mf_jr_fail(&c->jr, "expected a bone name, got %s", mf_jr_type_name(e));
        else if ((v[i] = mf_skeleton_find_bone(c->sk, e->valuestring)) < 0)
            ok = sp_fail_unknown(c, "bone", e->valuestring, c->sk->bone_count, sp_bone_at, c->sk);
        for (int j = 0; ok && j < i; j++)
            if (v[j] == v[i]) ok = mf_jr_fail(&c->jr, "bone \"%s\" is listed twice", e->valuestring);
        mf_jr_pop(&c->jr, mi);
    }
    mf_jr_pop(&c->jr, m);
    if (!ok || !v) return false;
    *out = v;
    *count = n;
    return true;
}

static bool not_own_target(sp_ctx *c, int32_t target, const int32_t *bones, int32_t n)
{
    for (int32_t j = 0; j < n; j++)
        if (bones[j] == target)
            return mf_jr_fail_at(&c->jr, "target", "bone \"%s\" cannot be its own target", c->sk->bones[target].name);
    return true;
}

static bool read_ik(sp_ctx *c, const cJSON *obj, int32_t i)
{
    mf_ik_constraint *k = &c->sk->ik[i];
    int32_t *bones = NULL;
    bool bend_positive = true;
    if (!common(c, obj, MF_CONSTRAINT_IK, i, &k->name, &k->order, &k->skin_required)) return false;
    sp_unknown_keys(c, obj, IK_KEYS, "ik constraint");
    if (!bone_list(c, obj, 1, 2, &bones, &k->bone_count)) return false;
    memcpy(k->bones, bones, (size_t)k->bone_count * sizeof *bones);
    const mf_bone *bs = c->sk->bones;
    if (k->bone_count == 2 && bs[k->bones[1]].parent != k->bones[0]) {
        size_t m = mf_jr_key(&c->jr, "bones");
        mf_jr_index(&c->jr, 1);
        mf_jr_fail(&c->jr, "bone \"%s\" is not a child of \"%s\"", bs[k->bones[1]].name, bs[k->bones[0]].name);
        mf_jr_pop(&c->jr, m);
        return false;
    }
    bool ok = sp_bone_ref(c, obj, "target", &k->target) && not_own_target(c, k->target, k->bones, k->bone_count) &&
              sp_float(c, obj, "mix", 1, &k->mix) && sp_float(c, obj, "softness", 0, &k->softness) &&
              sp_bool(c, obj, "bendPositive", true, &bend_positive) && sp_bool(c, obj, "compress", false, &k->compress) &&
              sp_bool(c, obj, "stretch", false, &k->stretch) && sp_bool(c, obj, "uniform", false, &k->uniform);
    k->bend = bend_positive ? -1 : 1; /* mirrored handedness: the same bend on screen */
    if (ok && k->softness < 0) {
        char where[600];
        sp_note_add(&c->rep, "value", NULL, sp_where(c, "softness", where, sizeof where),
                    "negative softness %g is written as 0", (double)k->softness);
        k->softness = 0;
    }
    if (ok) c->sk->ik_count = i + 1;
    return ok;
}

static bool read_transform(sp_ctx *c, const cJSON *obj, int32_t i)
{
    mf_transform_constraint *k = &c->sk->transform[i];
    if (!common(c, obj, MF_CONSTRAINT_TRANSFORM, i, &k->name, &k->order, &k->skin_required)) return false;
    sp_unknown_keys(c, obj, TF_KEYS, "transform constraint");
    float rot = 0, y = 0, shy = 0;
    bool ok = bone_list(c, obj, 1, INT32_MAX, &k->bones, &k->bone_count) && sp_bone_ref(c, obj, "target", &k->target) &&
              not_own_target(c, k->target, k->bones, k->bone_count) && sp_float(c, obj, "rotation", 0, &rot) &&
              sp_float(c, obj, "x", 0, &k->offset_x) && sp_float(c, obj, "y", 0, &y) &&
              sp_float(c, obj, "scaleX", 0, &k->offset_sx) && sp_float(c, obj, "scaleY", 0, &k->offset_sy) &&
              sp_float(c, obj, "shearY", 0, &shy) && sp_float(c, obj, "mixRotate", 1, &k->mix_rotate) &&
              sp_float(c, obj, "mixX", 1, &k->mix_x) && sp_float(c, obj, "mixY", k->mix_x, &k->mix_y) &&
              sp_float(c, obj, "mixScaleX", 1, &k->mix_scale_x) &&
              sp_float(c, obj, "mixScaleY", k->mix_scale_x, &k->mix_scale_y) &&
              sp_float(c, obj, "mixShearY", 1, &k->mix_shear_y) && sp_bool(c, obj, "local", false, &k->local) &&
              sp_bool(c, obj, "relative", false, &k->relative);
    k->offset_rot = -rot, k->offset_y = -y, k->offset_shy = -shy;
    if (ok) c->sk->transform_count = i + 1;
    return ok;
}

static bool mode(sp_ctx *c, const cJSON *obj, const char *key, const char *const *names, int def, int *out)
{
    const char *s;
    *out = def;
    if (!sp_string(c, obj, key, &s)) return false;
    if (!s) return true;
    for (int i = 0; names[i]; i++)
        if (strcmp(names[i], s) == 0) {
            *out = i;
            return true;
        }
    char sfx[200];
    mf_suggest_suffix(sfx, sizeof sfx, mf_suggest_list(s, names));
    return mf_jr_fail_at(&c->jr, key, "unknown %s \"%s\"%s", key, s, sfx);
}

static bool read_path(sp_ctx *c, const cJSON *obj, int32_t i)
{
    static const char *const POS[] = {"fixed", "percent", NULL};
    static const char *const SPACING[] = {"length", "fixed", "percent", "proportional", NULL};
    static const char *const ROT[] = {"tangent", "chain", "chainScale", NULL};
    mf_path_constraint *k = &c->sk->path[i];
    if (!common(c, obj, MF_CONSTRAINT_PATH, i, &k->name, &k->order, &k->skin_required)) return false;
    sp_unknown_keys(c, obj, PATH_KEYS, "path constraint");
    int pos = 0, spacing = 0, rot_mode = 0;
    float rot = 0;
    bool ok = bone_list(c, obj, 1, INT32_MAX, &k->bones, &k->bone_count) && sp_slot_ref(c, obj, "target", &k->target) &&
              mode(c, obj, "positionMode", POS, MF_POSITION_PERCENT, &pos) &&
              mode(c, obj, "spacingMode", SPACING, MF_SPACING_LENGTH, &spacing) &&
              mode(c, obj, "rotateMode", ROT, MF_ROTATE_TANGENT, &rot_mode) && sp_float(c, obj, "rotation", 0, &rot) &&
              sp_float(c, obj, "position", 0, &k->position) && sp_float(c, obj, "spacing", 0, &k->spacing) &&
              sp_float(c, obj, "mixRotate", 1, &k->mix_rotate) && sp_float(c, obj, "mixX", 1, &k->mix_x) &&
              sp_float(c, obj, "mixY", k->mix_x, &k->mix_y);
    k->position_mode = (mf_position_mode)pos;
    k->spacing_mode = (mf_spacing_mode)spacing;
    k->rotate_mode = (mf_rotate_mode)rot_mode;
    k->offset_rot = -rot;
    if (ok) c->sk->path_count = i + 1;
    return ok;
}

/* A 0..1 physics channel; outside values are clamped and reported. */
static void unit(sp_ctx *c, const char *key, float *v)
{
    if (*v >= 0 && *v <= 1) return;
    char where[600];
    sp_note_add(&c->rep, "value", NULL, sp_where(c, key, where, sizeof where), "%s %g is clamped to 0..1", key,
                (double)*v);
    *v = *v < 0 ? 0 : 1;
}

static bool read_physics(sp_ctx *c, const cJSON *obj, int32_t i)
{
    mf_physics_constraint *k = &c->sk->physics[i];
    if (!common(c, obj, MF_CONSTRAINT_PHYSICS, i, &k->name, &k->order, &k->skin_required)) return false;
    sp_unknown_keys(c, obj, PHYS_KEYS, "physics constraint");
    float fps = 60;
    bool ok = sp_bone_ref(c, obj, "bone", &k->bone) && sp_float(c, obj, "x", 0, &k->x) &&
              sp_float(c, obj, "y", 0, &k->y) && sp_float(c, obj, "rotate", 0, &k->rotate) &&
              sp_float(c, obj, "scaleX", 0, &k->scale_x) && sp_float(c, obj, "shearX", 0, &k->shear_x) &&
              sp_float(c, obj, "limit", 5000, &k->limit) && sp_float(c, obj, "fps", 60, &fps) &&
              sp_float(c, obj, "inertia", 1, &k->inertia) && sp_float(c, obj, "strength", 100, &k->strength) &&
              sp_float(c, obj, "damping", 1, &k->damping) && sp_float(c, obj, "mass", 1, &k->mass) &&
              sp_float(c, obj, "wind", 0, &k->wind) && sp_float(c, obj, "gravity", 0, &k->gravity) &&
              sp_float(c, obj, "mix", 1, &k->mix) && sp_bool(c, obj, "inertiaGlobal", false, &k->inertia_global) &&
              sp_bool(c, obj, "strengthGlobal", false, &k->strength_global) &&
              sp_bool(c, obj, "dampingGlobal", false, &k->damping_global) &&
              sp_bool(c, obj, "massGlobal", false, &k->mass_global) &&
              sp_bool(c, obj, "windGlobal", false, &k->wind_global) &&
              sp_bool(c, obj, "gravityGlobal", false, &k->gravity_global) &&
              sp_bool(c, obj, "mixGlobal", false, &k->mix_global);
    if (!ok) return false;
    unit(c, "x", &k->x), unit(c, "y", &k->y), unit(c, "rotate", &k->rotate);
    unit(c, "scaleX", &k->scale_x), unit(c, "shearX", &k->shear_x);
    char where[600];
    if (!(fps >= 0.001f && fps <= 1e6f)) {
        sp_note_add(&c->rep, "value", NULL, sp_where(c, "fps", where, sizeof where), "fps %g: 60 is used", (double)fps);
        fps = 60;
    }
    k->step = 1.0f / fps;
    if (!(k->mass > 0)) {
        sp_note_add(&c->rep, "value", NULL, sp_where(c, "mass", where, sizeof where), "mass %g: 1 is used",
                    (double)k->mass);
        k->mass = 1;
    }
    if (k->limit < 0) {
        sp_note_add(&c->rep, "value", NULL, sp_where(c, "limit", where, sizeof where), "limit %g: 0 is used",
                    (double)k->limit);
        k->limit = 0;
    }
    c->sk->physics_count = i + 1;
    return true;
}

static int cmp_order(const void *a, const void *b)
{
    const order_item *x = a, *y = b;
    if (x->order != y->order) return x->order < y->order ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Dense orders 0..n-1 in Spine's order. */
static bool renumber(sp_ctx *c)
{
    mf_skeleton *sk = c->sk;
    int32_t n = sk->ik_count + sk->transform_count + sk->path_count + sk->physics_count, k = 0;
    if (n == 0) return true;
    order_item *items = malloc((size_t)n * sizeof *items);
    if (!items) return sp_oom(c);
    for (int32_t i = 0; i < sk->ik_count; i++, k++) items[k] = (order_item){sk->ik[i].order, 0, i, k, &sk->ik[i].order};
    for (int32_t i = 0; i < sk->transform_count; i++, k++)
        items[k] = (order_item){sk->transform[i].order, 1, i, k, &sk->transform[i].order};
    for (int32_t i = 0; i < sk->path_count; i++, k++) items[k] = (order_item){sk->path[i].order, 2, i, k, &sk->path[i].order};
    for (int32_t i = 0; i < sk->physics_count; i++, k++)
        items[k] = (order_item){sk->physics[i].order, 3, i, k, &sk->physics[i].order};
    qsort(items, (size_t)n, sizeof *items, cmp_order);
    for (int32_t i = 0; i < n; i++) *items[i].target = i;
    free(items);
    return true;
}

static bool read_kind(sp_ctx *c, const cJSON *root, mf_constraint_kind kind, size_t size, void **items,
                      bool (*fn)(sp_ctx *, const cJSON *, int32_t))
{
    const char *key = KIND_KEYS[kind];
    const cJSON *arr = sp_array(c, root, key);
    if (c->jr.failed) return false;
    int n = arr ? cJSON_GetArraySize(arr) : 0;
    if (n == 0) return true;
    if (!(*items = sp_alloc(c, (size_t)n, size)) || !(c->spine_names[kind] = sp_alloc(c, (size_t)n, sizeof(char *))))
        return false;
    size_t m = mf_jr_key(&c->jr, key);
    int32_t i = 0;
    bool ok = true;
    for (const cJSON *e = arr->child; e && ok; e = e->next, i++) {
        size_t mi = mf_jr_index(&c->jr, (int)i);
        ok = fn(c, e, i);
        mf_jr_pop(&c->jr, mi);
    }
    mf_jr_pop(&c->jr, m);
    return ok;
}

typedef bool (*read_fn)(sp_ctx *, const cJSON *, int32_t);

/* Spine 4.3 keeps every constraint in one "constraints" list, each with a "type", in update
 * order. The kinds mfanim has are read like 4.2's (keys only 4.3 has are reported); others
 * (sliders) are reported and left out. */
static bool read_list(sp_ctx *c, const cJSON *root)
{
    static const size_t SIZES[] = {sizeof(mf_ik_constraint), sizeof(mf_transform_constraint),
                                   sizeof(mf_path_constraint), sizeof(mf_physics_constraint)};
    static const read_fn FNS[] = {read_ik, read_transform, read_path, read_physics};
    mf_skeleton *sk = c->sk;
    void **items[] = {(void **)&sk->ik, (void **)&sk->transform, (void **)&sk->path, (void **)&sk->physics};
    const cJSON *arr = sp_array(c, root, "constraints");
    if (!arr) return !c->jr.failed;
    int counts[MF_CONSTRAINT_KIND_COUNT] = {0}, n = cJSON_GetArraySize(arr);
    for (const cJSON *e = arr->child; e; e = e->next) {
        const cJSON *t = cJSON_GetObjectItemCaseSensitive(e, "type");
        for (int k = 0; k < MF_CONSTRAINT_KIND_COUNT; k++)
            if (cJSON_IsString(t) && strcmp(t->valuestring, KIND_KEYS[k]) == 0) counts[k]++;
    }
    for (int k = 0; k < MF_CONSTRAINT_KIND_COUNT; k++) {
        if (counts[k] == 0) continue;
        if ((*items[k] && counts[k]) || c->spine_names[k])
            return mf_jr_fail_at(&c->jr, "constraints", "%s constraints are given both in \"%s\" and in \"constraints\"",
                                 KIND_KEYS[k], KIND_KEYS[k]);
        if (!(*items[k] = sp_alloc(c, (size_t)counts[k], SIZES[k])) ||
            !(c->spine_names[k] = sp_alloc(c, (size_t)counts[k], sizeof(char *))))
            return false;
    }
    int32_t next[MF_CONSTRAINT_KIND_COUNT] = {0};
    size_t m = mf_jr_key(&c->jr, "constraints");
    int i = 0;
    bool ok = true;
    for (const cJSON *e = arr->child; e && ok && i < n; e = e->next, i++) {
        size_t mi = mf_jr_index(&c->jr, i);
        const char *type = NULL;
        ok = mf_jr_expect_object(&c->jr, e) && sp_name(c, e, "type", &type);
        int kind = -1;
        for (int k = 0; ok && k < MF_CONSTRAINT_KIND_COUNT; k++)
            if (strcmp(type, KIND_KEYS[k]) == 0) kind = k;
        if (ok && kind < 0) {
            char where[600];
            sp_note_add(&c->rep, "unsupported", type, sp_where(c, "", where, sizeof where),
                        "%s constraints are not something mfanim has: not imported", type);
        } else if (ok) {
            int32_t *order = NULL;
            ok = FNS[kind](c, e, next[kind]);
            if (ok && !cJSON_GetObjectItemCaseSensitive(e, "order")) {
                switch (kind) {
                case MF_CONSTRAINT_IK: order = &sk->ik[next[kind]].order; break;
                case MF_CONSTRAINT_TRANSFORM: order = &sk->transform[next[kind]].order; break;
                case MF_CONSTRAINT_PATH: order = &sk->path[next[kind]].order; break;
                default: order = &sk->physics[next[kind]].order; break;
                }
                *order = i; /* the list is the update order */
            }
            next[kind]++;
        }
        mf_jr_pop(&c->jr, mi);
    }
    mf_jr_pop(&c->jr, m);
    return ok;
}

bool sp_read_constraints(sp_ctx *c, const cJSON *root)
{
    mf_skeleton *sk = c->sk;
    return read_kind(c, root, MF_CONSTRAINT_IK, sizeof(mf_ik_constraint), (void **)&sk->ik, read_ik) &&
           read_kind(c, root, MF_CONSTRAINT_TRANSFORM, sizeof(mf_transform_constraint), (void **)&sk->transform,
                     read_transform) &&
           read_kind(c, root, MF_CONSTRAINT_PATH, sizeof(mf_path_constraint), (void **)&sk->path, read_path) &&
           read_kind(c, root, MF_CONSTRAINT_PHYSICS, sizeof(mf_physics_constraint), (void **)&sk->physics,
                     read_physics) &&
           read_list(c, root) && renumber(c);
}
