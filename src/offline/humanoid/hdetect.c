/* Detect(skeleton, overrides): names first, structure for what names did not map, overrides
 * last; confidence says how far names and structure agree. */
#include <stdio.h>
#include <string.h>

#include "humanoid_internal.h"
#include "util/suggest.h"

static void clear_map(mf_humanoid_map *m)
{
    memset(m, 0, sizeof *m);
    for (int b = 0; b < MF_HB_COUNT; b++) m->bone[b] = -1;
    m->up = mf_v3(0, 1, 0);
    m->forward = mf_v3(0, 0, 1);
}

int mf_humanoid_map_canonical(const mf_humanoid_map *map, int32_t rig_bone)
{
    if (rig_bone < 0) return -1;
    for (int b = 0; b < MF_HB_COUNT; b++)
        if (map->bone[b] == rig_bone) return b;
    return -1;
}

bool mf_hdetect_axes(const mf_humanoid_skeleton *s, const mf_htree *t, const mf_humanoid_map *m, mf_vec3 *up,
                     mf_vec3 *forward)
{
    (void)s;
    const int32_t *b = m->bone;
    int32_t top = b[MF_HB_HEAD] >= 0 ? b[MF_HB_HEAD] : b[MF_HB_NECK];
    if (top < 0 || b[MF_HB_LEFT_FOOT] < 0 || b[MF_HB_RIGHT_FOOT] < 0) return false;
    mf_vec3 feet = mf_v3_scale(mf_v3_add(t->pos[b[MF_HB_LEFT_FOOT]], t->pos[b[MF_HB_RIGHT_FOOT]]), 0.5f);
    mf_vec3 v = mf_v3_sub(t->pos[top], feet);
    if (mf_v3_length(v) <= mf_htree_eps(t)) return false;
    mf_vec3 u = mf_hsnap_axis(v);
    mf_vec3 left = mf_v3(0, 0, 0);
    static const int PAIRS[3][2] = {{MF_HB_LEFT_UPPER_LEG, MF_HB_RIGHT_UPPER_LEG},
                                    {MF_HB_LEFT_UPPER_ARM, MF_HB_RIGHT_UPPER_ARM},
                                    {MF_HB_LEFT_HAND, MF_HB_RIGHT_HAND}};
    for (int k = 0; k < 3; k++)
        if (b[PAIRS[k][0]] >= 0 && b[PAIRS[k][1]] >= 0)
            left = mf_v3_add(left, mf_v3_sub(t->pos[b[PAIRS[k][0]]], t->pos[b[PAIRS[k][1]]]));
    left = mf_v3_sub(left, mf_v3_scale(u, mf_v3_dot(left, u)));
    if (mf_v3_length(left) <= mf_htree_eps(t)) return false;
    left = mf_hsnap_axis(left);
    if (mf_v3_dot(left, u) != 0) return false;
    *up = u;
    *forward = mf_v3_cross(left, u);
    return true;
}

/* "LeftFoot, RightFoot" into out; the count. */
static int missing_required(const mf_humanoid_map *m, char *out, size_t size)
{
    int n = 0;
    size_t len = 0;
    out[0] = '\0';
    for (int b = 0; b < MF_HB_COUNT; b++) {
        if (!mf_humanoid_bone_required((mf_humanoid_bone)b) || m->bone[b] >= 0) continue;
        int w = snprintf(out + len, size - len, "%s%s", n ? ", " : "", mf_humanoid_bone_name((mf_humanoid_bone)b));
        if (w > 0 && (size_t)w < size - len) len += (size_t)w;
        n++;
    }
    return n;
}

static const char *skel_name_at(const void *ctx, int i) { return ((const mf_humanoid_skeleton *)ctx)->names[i]; }

static mf_result apply_overrides(const mf_humanoid_skeleton *s, const mf_humanoid_overrides *ov, mf_humanoid_map *m,
                                 mf_diag *diag)
{
    for (int b = 0; b < MF_HB_COUNT; b++) {
        if (ov->unmap[b]) {
            m->bone[b] = -1;
            m->source[b] = MF_HSRC_OVERRIDE;
            m->confidence[b] = 1;
            continue;
        }
        if (!ov->bone[b]) continue;
        int32_t rb = mf_humanoid_skeleton_find(s, ov->bone[b]);
        if (rb < 0) {
            char where[64], sug[160];
            snprintf(where, sizeof where, "settings.humanoid.%s", mf_humanoid_bone_name((mf_humanoid_bone)b));
            mf_suggest_suffix(sug, sizeof sug, mf_suggest(ov->bone[b], s->bone_count, skel_name_at, s));
            mf_diag_set(diag, ov->file, where, "unknown bone \"%s\": the model has no such bone%s", ov->bone[b], sug);
            return MF_ERR_INVALID;
        }
        int other = mf_humanoid_map_canonical(m, rb);
        if (other >= 0 && other != b && m->source[other] == MF_HSRC_OVERRIDE) {
            char where[64];
            snprintf(where, sizeof where, "settings.humanoid.%s", mf_humanoid_bone_name((mf_humanoid_bone)b));
            mf_diag_set(diag, ov->file, where, "bone \"%s\" is already given to %s: one rig bone maps one humanoid bone",
                        ov->bone[b], mf_humanoid_bone_name((mf_humanoid_bone)other));
            return MF_ERR_INVALID;
        }
        if (other >= 0 && other != b) { /* the override takes the bone from what detection thought */
            m->bone[other] = -1;
            m->source[other] = MF_HSRC_NONE;
            m->confidence[other] = 0;
        }
        m->bone[b] = rb;
        m->source[b] = MF_HSRC_OVERRIDE;
        m->confidence[b] = 1;
    }
    return MF_OK;
}

mf_result mf_humanoid_detect(const mf_humanoid_skeleton *s, const mf_humanoid_overrides *ov,
                             mf_humanoid_map *map, mf_diag *diag)
{
    clear_map(map);
    if (!s) return MF_ERR_ARGUMENT;
    mf_htree t;
    if (!mf_htree_init(&t, s)) {
        mf_diag_set(diag, s->file, "", "out of memory");
        return MF_ERR_NOMEM;
    }
    mf_humanoid_map names, shape;
    clear_map(&names);
    clear_map(&shape);
    mf_hdetect_names(s, &t, &names);
    bool shaped = mf_hdetect_structure(s, &t, &shape);
    snprintf(map->naming, sizeof map->naming, "%s", names.naming);

    /* names first; confidence from how the structure agrees */
    for (int b = 0; b < MF_HB_COUNT; b++) {
        if (names.bone[b] < 0) continue;
        map->bone[b] = names.bone[b];
        map->source[b] = names.source[b];
        float c = names.confidence[b];
        if (shape.bone[b] == names.bone[b]) c = 1.0f;
        else if (shape.bone[b] >= 0) c = c < 0.6f ? c : 0.6f;
        map->confidence[b] = c;
    }
    /* structure for the rest, where the rig bone is still free */
    for (int b = 0; b < MF_HB_COUNT; b++) {
        if (map->bone[b] >= 0 || shape.bone[b] < 0 || mf_humanoid_map_canonical(map, shape.bone[b]) >= 0) continue;
        map->bone[b] = shape.bone[b];
        map->source[b] = MF_HSRC_STRUCTURE;
        map->confidence[b] = shape.confidence[b];
    }
    mf_hmap_enforce_hierarchy(&t, map);
    mf_result rc = ov ? apply_overrides(s, ov, map, diag) : MF_OK;

    if (!mf_hdetect_axes(s, &t, map, &map->up, &map->forward) && shaped) {
        map->up = shape.up;
        map->forward = shape.forward;
    }
    mf_htree_free(&t);
    if (rc != MF_OK) return rc;
    char missing[600];
    int n = missing_required(map, missing, sizeof missing);
    if (n) {
        char first[32];
        snprintf(first, sizeof first, "%.*s", (int)strcspn(missing, ","), missing);
        mf_diag_set(diag, s->file, "", "%d required humanoid bone%s not found: %s (name %s in the model's "
                    "sidecar MODEL.meta.json under settings.humanoid, e.g. { \"%s\": \"<rig bone>\" })",
                    n, n == 1 ? "" : "s", missing, n == 1 ? "it" : "them", first);
        return MF_ERR_INVALID;
    }
    return MF_OK;
}
