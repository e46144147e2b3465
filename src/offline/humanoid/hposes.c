/* Named poses: data/humanoid/poses.json (built into the library) read with located errors. */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "humanoid_internal.h"
#include "util/arena.h"
#include "util/jread.h"
#include "util/suggest.h"

extern const char mf_humanoid_poses_data[];

const char *mf_humanoid_poses_json(void) { return mf_humanoid_poses_data; }

void mf_humanoid_poses_free(mf_humanoid_pose_set *set)
{
    if (!set) return;
    mf_arena_destroy(set->mem);
    free(set);
}

static const char *canonical_at(const void *ctx, int i)
{
    (void)ctx;
    return i == MF_HB_HIPS ? NULL : mf_humanoid_bone_name((mf_humanoid_bone)i);
}

static bool check_limit(mf_jr *r, mf_humanoid_bone b, mf_humanoid_component c, float v)
{
    const mf_humanoid_limit *l = mf_humanoid_limits(b);
    if (v >= l->min[c] && v <= l->max[c]) return true;
    return mf_jr_fail(r, "%g is outside %s's %s limits %g…%g", (double)v, mf_humanoid_bone_name(b),
                      mf_humanoid_component_name(c), (double)l->min[c], (double)l->max[c]);
}

static bool read_joint(mf_jr *r, const cJSON *v, mf_humanoid_bone b, mf_humanoid_named_pose *np)
{
    static const char *const KEYS[] = {"flex", "abduct", "twist", NULL};
    if (!mf_jr_expect_object(r, v) || !mf_jr_keys(r, v, KEYS)) return false;
    float *dst[3] = {&np->pose.joint[b].flex, &np->pose.joint[b].abduct, &np->pose.joint[b].twist};
    for (int c = 0; c < 3; c++) {
        const cJSON *x = cJSON_GetObjectItemCaseSensitive(v, KEYS[c]);
        if (!x) continue;
        if (!mf_jr_float(r, v, KEYS[c], 0, dst[c])) return false;
        size_t mark = mf_jr_key(r, KEYS[c]);
        if (c != MF_HC_FLEX && mf_humanoid_bone_is_hinge(b))
            return mf_jr_fail(r, "%s is a hinge: it takes flex only", mf_humanoid_bone_name(b));
        if (!check_limit(r, b, (mf_humanoid_component)c, *dst[c])) return false;
        mf_jr_pop(r, mark);
        np->given[b] |= (uint8_t)(1u << c);
    }
    return true;
}

static bool read_hips(mf_jr *r, const cJSON *v, mf_humanoid_named_pose *np)
{
    static const char *const KEYS[] = {"x", "y", "z", "yaw", "pitch", "roll", NULL};
    if (!mf_jr_expect_object(r, v) || !mf_jr_keys(r, v, KEYS)) return false;
    mf_humanoid_angles *h = &np->pose.joint[MF_HB_HIPS];
    mf_vec3 *o = &np->pose.hips_offset;
    if (!mf_jr_float(r, v, "x", 0, &o->x) || !mf_jr_float(r, v, "y", 0, &o->y) || !mf_jr_float(r, v, "z", 0, &o->z) ||
        !mf_jr_float(r, v, "yaw", 0, &h->twist) || !mf_jr_float(r, v, "pitch", 0, &h->flex) ||
        !mf_jr_float(r, v, "roll", 0, &h->abduct))
        return false;
    static const struct { const char *key; mf_humanoid_component c; } ANG[] = {
        {"pitch", MF_HC_FLEX}, {"roll", MF_HC_ABDUCT}, {"yaw", MF_HC_TWIST}};
    for (int k = 0; k < 3; k++) {
        if (!cJSON_GetObjectItemCaseSensitive(v, ANG[k].key)) continue;
        size_t mark = mf_jr_key(r, ANG[k].key);
        if (!check_limit(r, MF_HB_HIPS, ANG[k].c, mf_humanoid_angle(*h, ANG[k].c))) return false;
        mf_jr_pop(r, mark);
        np->given[MF_HB_HIPS] |= (uint8_t)(1u << ANG[k].c);
    }
    np->hips_offset_given = cJSON_GetObjectItemCaseSensitive(v, "x") || cJSON_GetObjectItemCaseSensitive(v, "y") ||
                            cJSON_GetObjectItemCaseSensitive(v, "z");
    return true;
}

static bool read_pose(mf_jr *r, mf_arena *a, const cJSON *v, mf_humanoid_named_pose *np)
{
    static const char *const KEYS[] = {"name", "description", "from", "hips", "joints", NULL};
    if (!mf_jr_expect_object(r, v) || !mf_jr_keys(r, v, KEYS)) return false;
    char *from = NULL;
    if (!mf_jr_name(r, a, v, "name", &np->name) || !mf_jr_string(r, a, v, "description", "", &np->description) ||
        !mf_jr_string(r, a, v, "from", NULL, &from))
        return false;
    if (from) {
        if (strcmp(from, "rest") != 0) return mf_jr_fail_at(r, "from", "unknown source \"%s\" (the one source is \"rest\")", from);
        np->from_rest = true;
        if (cJSON_GetObjectItemCaseSensitive(v, "joints") || cJSON_GetObjectItemCaseSensitive(v, "hips"))
            return mf_jr_fail(r, "a pose taken from the rest pose has no joints or hips of its own");
    }
    const cJSON *hips = cJSON_GetObjectItemCaseSensitive(v, "hips");
    if (hips) {
        size_t mark = mf_jr_key(r, "hips");
        if (!read_hips(r, hips, np)) return false;
        mf_jr_pop(r, mark);
    }
    const cJSON *joints = cJSON_GetObjectItemCaseSensitive(v, "joints");
    if (!joints) return true;
    size_t mark = mf_jr_key(r, "joints");
    if (!mf_jr_expect_object(r, joints)) return false;
    for (const cJSON *j = joints->child; j; j = j->next) {
        size_t m2 = mf_jr_key(r, j->string);
        int b = mf_humanoid_bone_from_name(j->string);
        if (b == MF_HB_HIPS) return mf_jr_fail(r, "the hips take \"hips\": { x, y, z, yaw, pitch, roll } beside \"joints\"");
        if (b < 0) {
            char sug[96];
            mf_suggest_suffix(sug, sizeof sug, mf_suggest(j->string, MF_HB_COUNT, canonical_at, NULL));
            return mf_jr_fail(r, "unknown bone \"%s\"%s", j->string, sug);
        }
        if (np->given[b]) return mf_jr_fail(r, "\"%s\" is given twice", j->string);
        if (!read_joint(r, j, (mf_humanoid_bone)b, np)) return false;
        np->given[b] |= 0x80; /* named, even with no component */
        mf_jr_pop(r, m2);
    }
    mf_jr_pop(r, mark);
    for (int b = 0; b < MF_HB_COUNT; b++) np->given[b] &= 0x7f;
    return true;
}

mf_result mf_humanoid_poses_parse(const char *text, size_t len, const char *file, mf_humanoid_pose_set **out,
                                  mf_diag *diag)
{
    *out = NULL;
    mf_humanoid_pose_set *set = calloc(1, sizeof *set);
    if (set) set->mem = mf_arena_create();
    if (!set || !set->mem) {
        mf_humanoid_poses_free(set);
        mf_diag_set(diag, file, "", "out of memory");
        return MF_ERR_NOMEM;
    }
    mf_jr r;
    mf_jr_init(&r, file, diag);
    cJSON *root = mf_jr_parse(&r, text, len);
    static const char *const KEYS[] = {"format", "poses", NULL};
    int32_t format = 0;
    bool ok = root && mf_jr_expect_object(&r, root) && mf_jr_keys(&r, root, KEYS) &&
              mf_jr_int(&r, root, "format", 0, &format);
    if (ok && format != 1) ok = mf_jr_fail_at(&r, "format", "unsupported format %d (this version reads 1)", format);
    const cJSON *poses = ok ? cJSON_GetObjectItemCaseSensitive(root, "poses") : NULL;
    if (ok) {
        size_t mark = mf_jr_key(&r, "poses");
        ok = poses ? mf_jr_expect_array(&r, poses) : mf_jr_fail(&r, "missing: the list of named poses");
        int32_t n = ok ? cJSON_GetArraySize(poses) : 0;
        set->poses = ok ? mf_arena_alloc(set->mem, sizeof(mf_humanoid_named_pose) * (size_t)(n ? n : 1)) : NULL;
        if (ok && !set->poses) ok = mf_jr_fail(&r, "out of memory");
        int32_t i = 0;
        for (const cJSON *p = ok ? poses->child : NULL; p && ok; p = p->next, i++) {
            size_t m2 = mf_jr_index(&r, i);
            mf_humanoid_named_pose *np = &set->poses[i];
            ok = read_pose(&r, set->mem, p, np);
            for (int32_t k = 0; ok && k < i; k++)
                if (strcmp(set->poses[k].name, np->name) == 0)
                    ok = mf_jr_fail_at(&r, "name", "pose \"%s\" is defined twice (first at poses[%d])", np->name, k);
            mf_jr_pop(&r, m2);
            set->count = i + 1;
        }
        mf_jr_pop(&r, mark);
    }
    cJSON_Delete(root);
    if (!ok) {
        mf_humanoid_poses_free(set);
        return MF_ERR_INVALID;
    }
    *out = set;
    return MF_OK;
}

mf_result mf_humanoid_poses_builtin(mf_humanoid_pose_set **out, mf_diag *diag)
{
    const char *text = mf_humanoid_poses_json();
    return mf_humanoid_poses_parse(text, strlen(text), "data/humanoid/poses.json", out, diag);
}

static const char *pose_name_at(const void *ctx, int i)
{
    return ((const mf_humanoid_pose_set *)ctx)->poses[i].name;
}

const mf_humanoid_named_pose *mf_humanoid_poses_find(const mf_humanoid_pose_set *set, const char *name, mf_diag *diag)
{
    for (int32_t i = 0; i < set->count; i++)
        if (strcmp(set->poses[i].name, name) == 0) return &set->poses[i];
    char sug[96];
    mf_suggest_suffix(sug, sizeof sug, mf_suggest(name, set->count, pose_name_at, set));
    mf_diag_set(diag, "", "", "unknown pose \"%s\"%s", name, sug);
    return NULL;
}

mf_result mf_humanoid_pose_resolve(const mf_humanoid_named_pose *np, const mf_humanoid_rig *r, mf_humanoid_pose *out,
                                   mf_diag *diag)
{
    if (np->from_rest) return mf_humanoid_rig_rest_pose(r, out, diag);
    *out = np->pose;
    return MF_OK;
}
