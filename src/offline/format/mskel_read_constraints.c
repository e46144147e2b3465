/* The .mskel reader: IK, transform, path and physics constraints, and their update order. */
#include <float.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "mskel_internal.h"

static const char *const ik_keys[] = {"name",   "order", "skinRequired", "bones",
                                      "target", "mix",   "softness",     "bend",
                                      "compress", "stretch", "uniform",  NULL};
static const char *const transform_keys[] = {
    "name", "order", "skinRequired", "bones", "target", "local", "relative", "rot", "x", "y", "sx", "sy",
    "shy", "mixRotate", "mixX", "mixY", "mixScaleX", "mixScaleY", "mixShearY", NULL};
static const char *const path_keys[] = {
    "name", "order", "skinRequired", "bones", "target", "positionMode", "spacingMode", "rotateMode",
    "rot", "position", "spacing", "mixRotate", "mixX", "mixY", NULL};
static const char *const physics_keys[] = {
    "name", "order", "skinRequired", "bone", "x", "y", "rotate", "scaleX", "shearX", "limit", "step",
    "inertia", "strength", "damping", "mass", "wind", "gravity", "mix", "inertiaGlobal",
    "strengthGlobal", "dampingGlobal", "massGlobal", "windGlobal", "gravityGlobal", "mixGlobal", NULL};

/* name, order and skinRequired, shared by all kinds. Names are unique across the kinds. */
static bool read_common(mskel_rd *rd, const cJSON *obj, mf_constraint_kind kind, int32_t i,
                        const char *const *keys, char **name, int32_t *order, bool *skin_required)
{
    if (!mf_jr_keys(&rd->jr, obj, keys) || !mf_jr_name(&rd->jr, rd->sk->arena, obj, "name", name))
        return false;
    mf_constraint_ref other;
    if (mf_skeleton_find_constraint(rd->sk, *name, &other))
        return mf_jr_fail_at(&rd->jr, "name", "duplicate constraint \"%s\" (also %s[%d])", *name,
                             mf_constraint_kind_name(other.kind), (int)other.index);
    if (cJSON_GetObjectItemCaseSensitive(obj, "order")) {
        if (!mf_jr_int(&rd->jr, obj, "order", 0, order)) return false;
        if (*order < 0) return mf_jr_fail_at(&rd->jr, "order", "must not be negative");
        rd->order_given[kind][i] = true;
    }
    return mf_jr_bool(&rd->jr, obj, "skinRequired", false, skin_required);
}

/* The target must not be one of the bones it constrains. */
static bool check_target(mskel_rd *rd, int32_t target, const int32_t *bones, int32_t n)
{
    for (int32_t j = 0; j < n; j++)
        if (bones[j] == target)
            return mf_jr_fail_at(&rd->jr, "target", "bone \"%s\" cannot be its own target",
                                 rd->sk->bones[target].name);
    return true;
}

static bool read_ik(mskel_rd *rd, const cJSON *obj, int32_t i)
{
    mf_ik_constraint *c = &rd->sk->ik[i];
    int32_t *bones = NULL;
    if (!read_common(rd, obj, MF_CONSTRAINT_IK, i, ik_keys, &c->name, &c->order, &c->skin_required))
        return false;
    rd->sk->ik_count = i + 1;
    if (!mskel_bone_list(rd, obj, "bones", 1, 2, &bones, &c->bone_count)) return false;
    memcpy(c->bones, bones, (size_t)c->bone_count * sizeof *bones);
    const mf_bone *bs = rd->sk->bones;
    if (c->bone_count == 2 && bs[c->bones[1]].parent != c->bones[0]) {
        size_t m = mf_jr_key(&rd->jr, "bones");
        mf_jr_index(&rd->jr, 1);
        mf_jr_fail(&rd->jr, "bone \"%s\" is not a child of \"%s\"", bs[c->bones[1]].name,
                   bs[c->bones[0]].name);
        mf_jr_pop(&rd->jr, m);
        return false;
    }
    if (!mskel_bone_ref(rd, obj, "target", &c->target) ||
        !check_target(rd, c->target, c->bones, c->bone_count) ||
        !mf_jr_float(&rd->jr, obj, "mix", 1, &c->mix) ||
        !mskel_float_range(rd, obj, "softness", 0, 0, FLT_MAX, &c->softness) ||
        !mf_jr_int(&rd->jr, obj, "bend", 1, &c->bend))
        return false;
    if (c->bend != 1 && c->bend != -1)
        return mf_jr_fail_at(&rd->jr, "bend", "expected 1 or -1, got %d", (int)c->bend);
    return mf_jr_bool(&rd->jr, obj, "compress", false, &c->compress) &&
           mf_jr_bool(&rd->jr, obj, "stretch", false, &c->stretch) &&
           mf_jr_bool(&rd->jr, obj, "uniform", false, &c->uniform);
}

static bool read_transform(mskel_rd *rd, const cJSON *obj, int32_t i)
{
    mf_transform_constraint *c = &rd->sk->transform[i];
    mf_jr *r = &rd->jr;
    if (!read_common(rd, obj, MF_CONSTRAINT_TRANSFORM, i, transform_keys, &c->name, &c->order,
                     &c->skin_required))
        return false;
    rd->sk->transform_count = i + 1;
    return mskel_bone_list(rd, obj, "bones", 1, INT32_MAX, &c->bones, &c->bone_count) &&
           mskel_bone_ref(rd, obj, "target", &c->target) &&
           check_target(rd, c->target, c->bones, c->bone_count) &&
           mf_jr_bool(r, obj, "local", false, &c->local) &&
           mf_jr_bool(r, obj, "relative", false, &c->relative) &&
           mf_jr_float(r, obj, "rot", 0, &c->offset_rot) && mf_jr_float(r, obj, "x", 0, &c->offset_x) &&
           mf_jr_float(r, obj, "y", 0, &c->offset_y) && mf_jr_float(r, obj, "sx", 0, &c->offset_sx) &&
           mf_jr_float(r, obj, "sy", 0, &c->offset_sy) && mf_jr_float(r, obj, "shy", 0, &c->offset_shy) &&
           mf_jr_float(r, obj, "mixRotate", 1, &c->mix_rotate) &&
           mf_jr_float(r, obj, "mixX", 1, &c->mix_x) && mf_jr_float(r, obj, "mixY", 1, &c->mix_y) &&
           mf_jr_float(r, obj, "mixScaleX", 1, &c->mix_scale_x) &&
           mf_jr_float(r, obj, "mixScaleY", 1, &c->mix_scale_y) &&
           mf_jr_float(r, obj, "mixShearY", 1, &c->mix_shear_y);
}

static bool read_path(mskel_rd *rd, const cJSON *obj, int32_t i)
{
    mf_path_constraint *c = &rd->sk->path[i];
    mf_jr *r = &rd->jr;
    int pos = MF_POSITION_PERCENT, spacing = 0, rotate = 0;
    if (!read_common(rd, obj, MF_CONSTRAINT_PATH, i, path_keys, &c->name, &c->order, &c->skin_required))
        return false;
    rd->sk->path_count = i + 1;
    bool ok = mskel_bone_list(rd, obj, "bones", 1, INT32_MAX, &c->bones, &c->bone_count) &&
              mskel_slot_ref(rd, obj, "target", &c->target) &&
              mskel_enum(rd, obj, "positionMode", "position mode", mskel_position_names,
                         MF_POSITION_PERCENT, &pos) &&
              mskel_enum(rd, obj, "spacingMode", "spacing mode", mskel_spacing_names, 0, &spacing) &&
              mskel_enum(rd, obj, "rotateMode", "rotate mode", mskel_rotate_names, 0, &rotate) &&
              mf_jr_float(r, obj, "rot", 0, &c->offset_rot) &&
              mf_jr_float(r, obj, "position", 0, &c->position) &&
              mf_jr_float(r, obj, "spacing", 0, &c->spacing) &&
              mf_jr_float(r, obj, "mixRotate", 1, &c->mix_rotate) &&
              mf_jr_float(r, obj, "mixX", 1, &c->mix_x) && mf_jr_float(r, obj, "mixY", 1, &c->mix_y);
    c->position_mode = (mf_position_mode)pos;
    c->spacing_mode = (mf_spacing_mode)spacing;
    c->rotate_mode = (mf_rotate_mode)rotate;
    return ok;
}

static bool read_physics(mskel_rd *rd, const cJSON *obj, int32_t i)
{
    mf_physics_constraint *c = &rd->sk->physics[i];
    mf_jr *r = &rd->jr;
    if (!read_common(rd, obj, MF_CONSTRAINT_PHYSICS, i, physics_keys, &c->name, &c->order,
                     &c->skin_required))
        return false;
    rd->sk->physics_count = i + 1;
    if (!mskel_bone_ref(rd, obj, "bone", &c->bone) ||
        !mskel_float_range(rd, obj, "x", 0, 0, 1, &c->x) ||
        !mskel_float_range(rd, obj, "y", 0, 0, 1, &c->y) ||
        !mskel_float_range(rd, obj, "rotate", 0, 0, 1, &c->rotate) ||
        !mskel_float_range(rd, obj, "scaleX", 0, 0, 1, &c->scale_x) ||
        !mskel_float_range(rd, obj, "shearX", 0, 0, 1, &c->shear_x) ||
        !mskel_float_range(rd, obj, "limit", 5000, 0, FLT_MAX, &c->limit) ||
        !mf_jr_float(r, obj, "step", 1.0f / 60.0f, &c->step))
        return false;
    if (!(c->step > 0)) return mf_jr_fail_at(r, "step", "must be positive (seconds)");
    if (!mf_jr_float(r, obj, "inertia", 1, &c->inertia) ||
        !mf_jr_float(r, obj, "strength", 100, &c->strength) ||
        !mf_jr_float(r, obj, "damping", 1, &c->damping) || !mf_jr_float(r, obj, "mass", 1, &c->mass))
        return false;
    if (!(c->mass > 0)) return mf_jr_fail_at(r, "mass", "must be positive");
    return mf_jr_float(r, obj, "wind", 0, &c->wind) && mf_jr_float(r, obj, "gravity", 0, &c->gravity) &&
           mf_jr_float(r, obj, "mix", 1, &c->mix) &&
           mf_jr_bool(r, obj, "inertiaGlobal", false, &c->inertia_global) &&
           mf_jr_bool(r, obj, "strengthGlobal", false, &c->strength_global) &&
           mf_jr_bool(r, obj, "dampingGlobal", false, &c->damping_global) &&
           mf_jr_bool(r, obj, "massGlobal", false, &c->mass_global) &&
           mf_jr_bool(r, obj, "windGlobal", false, &c->wind_global) &&
           mf_jr_bool(r, obj, "gravityGlobal", false, &c->gravity_global) &&
           mf_jr_bool(r, obj, "mixGlobal", false, &c->mix_global);
}

static bool read_kind(mskel_rd *rd, const cJSON *root, mf_constraint_kind kind, size_t size,
                      void **items, bool (*fn)(mskel_rd *, const cJSON *, int32_t))
{
    const char *key = mskel_constraint_names[kind];
    const cJSON *arr = mskel_get_array(rd, root, key);
    if (!arr || !mskel_all_objects(rd, arr, key)) return !rd->jr.failed;
    int n = cJSON_GetArraySize(arr);
    if (!(*items = mskel_array_alloc(rd, (size_t)n, size))) return false;
    if (!(rd->order_given[kind] = mskel_array_alloc(rd, (size_t)n, sizeof(bool)))) return false;
    size_t m = mf_jr_key(&rd->jr, key);
    int32_t i = 0;
    bool ok = true;
    for (const cJSON *e = arr->child; e && ok; e = e->next, i++) {
        size_t mi = mf_jr_index(&rd->jr, (int)i);
        ok = fn(rd, e, i);
        mf_jr_pop(&rd->jr, mi);
    }
    mf_jr_pop(&rd->jr, m);
    return ok;
}

static int32_t kind_count(const mf_skeleton *sk, int k)
{
    const int32_t counts[] = {sk->ik_count, sk->transform_count, sk->path_count, sk->physics_count};
    return counts[k];
}

static int32_t *order_of(mf_skeleton *sk, int k, int32_t i)
{
    switch (k) {
    case MF_CONSTRAINT_IK: return &sk->ik[i].order;
    case MF_CONSTRAINT_TRANSFORM: return &sk->transform[i].order;
    case MF_CONSTRAINT_PATH: return &sk->path[i].order;
    default: return &sk->physics[i].order;
    }
}

static const char *name_of(const mf_skeleton *sk, int k, int32_t i)
{
    switch (k) {
    case MF_CONSTRAINT_IK: return sk->ik[i].name;
    case MF_CONSTRAINT_TRANSFORM: return sk->transform[i].name;
    case MF_CONSTRAINT_PATH: return sk->path[i].name;
    default: return sk->physics[i].name;
    }
}

static bool fail_order(mskel_rd *rd, int k, int32_t i, const char *fmt, int32_t v, const char *other)
{
    size_t m = mf_jr_key(&rd->jr, mskel_constraint_names[k]);
    mf_jr_index(&rd->jr, (int)i);
    mf_jr_key(&rd->jr, "order");
    mf_jr_fail(&rd->jr, fmt, (int)v, other);
    mf_jr_pop(&rd->jr, m);
    return false;
}

/* Explicit orders must be unique; the others follow them in file order (ik, transform, path,
 * physics). */
static bool assign_orders(mskel_rd *rd)
{
    mf_skeleton *sk = rd->sk;
    int64_t next = 0;
    for (int k = 0; k < MF_CONSTRAINT_KIND_COUNT; k++) {
        for (int32_t i = 0; i < kind_count(sk, k); i++) {
            if (!rd->order_given[k][i]) continue;
            int32_t o = *order_of(sk, k, i);
            for (int k2 = 0; k2 <= k; k2++) {
                for (int32_t j = 0; j < (k2 == k ? i : kind_count(sk, k2)); j++) {
                    if (!rd->order_given[k2][j] || *order_of(sk, k2, j) != o) continue;
                    char other[300];
                    snprintf(other, sizeof other, "%s constraint \"%s\"", mskel_constraint_names[k2],
                             name_of(sk, k2, j));
                    return fail_order(rd, k, i, "duplicate order %d (also %s)", o, other);
                }
            }
            if (o >= next) next = (int64_t)o + 1;
        }
    }
    for (int k = 0; k < MF_CONSTRAINT_KIND_COUNT; k++) {
        for (int32_t i = 0; i < kind_count(sk, k); i++) {
            if (rd->order_given[k][i]) continue;
            if (next > INT32_MAX)
                return fail_order(rd, k, i, "no order left after %d%s", INT32_MAX, "");
            *order_of(sk, k, i) = (int32_t)next++;
        }
    }
    return true;
}

bool mskel_read_constraints(mskel_rd *rd, const cJSON *root)
{
    mf_skeleton *sk = rd->sk;
    return read_kind(rd, root, MF_CONSTRAINT_IK, sizeof(mf_ik_constraint), (void **)&sk->ik, read_ik) &&
           read_kind(rd, root, MF_CONSTRAINT_TRANSFORM, sizeof(mf_transform_constraint),
                     (void **)&sk->transform, read_transform) &&
           read_kind(rd, root, MF_CONSTRAINT_PATH, sizeof(mf_path_constraint), (void **)&sk->path,
                     read_path) &&
           read_kind(rd, root, MF_CONSTRAINT_PHYSICS, sizeof(mf_physics_constraint),
                     (void **)&sk->physics, read_physics) &&
           assign_orders(rd);
}
