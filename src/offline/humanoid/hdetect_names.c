/* Detection step 1: the map from bone names alone (tables in hnames.c). Spine segments are
 * named differently by every convention (Mixamo Spine1 is the chest, Unreal spine_01 the lower
 * spine, CMU Spine the middle one), so they are assigned by their place between hips and neck. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "humanoid_internal.h"

#define NAME_CONFIDENCE 0.9f

int32_t mf_hspine_assign(const int32_t *chain, int32_t n, int32_t out[3])
{
    out[0] = out[1] = out[2] = -1;
    if (n <= 0) return 0;
    out[0] = chain[0];
    if (n == 1) return 1;
    if (n == 2) {
        out[1] = chain[1];
        return 2;
    }
    out[1] = chain[n / 2];
    out[2] = chain[n - 1];
    return 3;
}

static void set(mf_humanoid_map *m, int b, int32_t bone, mf_humanoid_source src, float conf)
{
    m->bone[b] = bone;
    m->source[b] = bone >= 0 ? src : MF_HSRC_NONE;
    m->confidence[b] = bone >= 0 ? conf : 0;
}

/* Better candidate for the same canonical bone: higher priority, then nearer the root. */
static bool better(const mf_htree *t, const mf_hname *names, int32_t a, int32_t b)
{
    if (b < 0) return true;
    if (names[a].priority != names[b].priority) return names[a].priority > names[b].priority;
    return t->depth[a] < t->depth[b];
}

/* Drops bones whose rig bone does not lie below their canonical parent's rig bone. Neck and
 * shoulders are only held to lie below the hips: rigs hang them from any spine segment. */
void mf_hmap_enforce_hierarchy(const mf_htree *t, mf_humanoid_map *m)
{
    for (int b = 1; b < MF_HB_COUNT; b++) {
        if (m->bone[b] < 0) continue;
        int p = mf_humanoid_bone_parent((mf_humanoid_bone)b);
        if (p == MF_HB_UPPER_CHEST) p = MF_HB_HIPS;
        while (p >= 0 && m->bone[p] < 0) p = mf_humanoid_bone_parent((mf_humanoid_bone)p);
        if (p >= 0 && (m->bone[p] == m->bone[b] || !mf_htree_is_ancestor(t, m->bone[p], m->bone[b])))
            set(m, b, -1, MF_HSRC_NONE, 0);
    }
}

static int best_naming(const int *score)
{
    int best = -1;
    for (int i = 0; mf_hname_naming(i); i++)
        if (score[i] > 0 && (best < 0 || score[i] > score[best])) best = i;
    return best;
}

void mf_hdetect_names(const mf_humanoid_skeleton *s, const mf_htree *t, mf_humanoid_map *m)
{
    int32_t n = s->bone_count;
    mf_hname *names = calloc((size_t)n, sizeof *names);
    int32_t *chain = calloc((size_t)n, sizeof *chain);
    if (!names || !chain) {
        free(names);
        free(chain);
        return;
    }
    int score[8] = {0};
    int32_t cand[MF_HB_COUNT];
    int32_t shoulder_word[2] = {-1, -1}; /* per side, a bone called "shoulder" */
    int32_t rigify_root = -1;
    bool rigify = false;
    for (int b = 0; b < MF_HB_COUNT; b++) cand[b] = -1;
    for (int32_t i = 0; i < n; i++) {
        names[i] = mf_hname_classify(s->names[i]);
        const mf_hname *h = &names[i];
        for (int k = 0; k < 8; k++)
            if (h->namings & (1 << k)) score[k]++;
        if (h->kind == MF_HN_BONE) {
            if (better(t, names, i, cand[h->bone])) cand[h->bone] = i;
            if (h->flags & MF_HNF_SHOULDER_WORD) shoulder_word[mf_humanoid_bone_side((mf_humanoid_bone)h->bone) == MF_HSIDE_RIGHT] = i;
        } else if (h->kind == MF_HN_RIGIFY_SPINE) {
            if (h->number > 0) rigify = true;
            else if (rigify_root < 0 || t->depth[i] < t->depth[rigify_root]) rigify_root = i;
        }
    }
    int nb = best_naming(score);
    snprintf(m->naming, sizeof m->naming, "%s", nb >= 0 ? mf_hname_naming(nb) : "");
    /* BVH files that have a collar call the upper arm "shoulder" */
    for (int side = 0; side < 2; side++) {
        int sh = side ? MF_HB_RIGHT_SHOULDER : MF_HB_LEFT_SHOULDER, ua = side ? MF_HB_RIGHT_UPPER_ARM : MF_HB_LEFT_UPPER_ARM;
        int32_t w = shoulder_word[side];
        if (w >= 0 && cand[ua] < 0 && cand[sh] >= 0 && cand[sh] != w && mf_htree_is_ancestor(t, cand[sh], w))
            cand[ua] = w;
    }
    for (int b = 0; b < MF_HB_COUNT; b++) set(m, b, cand[b], MF_HSRC_NAME, NAME_CONFIDENCE);

    /* hips: a name, Rigify's root "spine", or the bone joining the named legs and an arm */
    int32_t lul = m->bone[MF_HB_LEFT_UPPER_LEG], rul = m->bone[MF_HB_RIGHT_UPPER_LEG];
    int32_t arm = m->bone[MF_HB_LEFT_SHOULDER] >= 0 ? m->bone[MF_HB_LEFT_SHOULDER] : m->bone[MF_HB_LEFT_UPPER_ARM];
    int32_t joint = lul >= 0 && rul >= 0 ? mf_htree_lca(s, t, lul, rul) : -1;
    if (joint >= 0 && arm >= 0) joint = mf_htree_lca(s, t, joint, arm);
    int32_t hips = m->bone[MF_HB_HIPS];
    if (hips >= 0 && joint >= 0 && !mf_htree_is_ancestor(t, hips, joint)) hips = -1;
    if (hips < 0 && rigify && rigify_root >= 0 && (joint < 0 || mf_htree_is_ancestor(t, rigify_root, joint)))
        set(m, MF_HB_HIPS, rigify_root, MF_HSRC_NAME, NAME_CONFIDENCE);
    else if (hips < 0)
        set(m, MF_HB_HIPS, joint, MF_HSRC_STRUCTURE, 0.8f);
    hips = m->bone[MF_HB_HIPS];

    /* neck: the lowest neck segment below the hips */
    int32_t neck = -1;
    for (int32_t i = 0; i < n && hips >= 0; i++)
        if (names[i].kind == MF_HN_NECK && mf_htree_is_ancestor(t, hips, i) && i != hips &&
            (neck < 0 || t->depth[i] < t->depth[neck]))
            neck = i;
    set(m, MF_HB_NECK, neck, MF_HSRC_NAME, NAME_CONFIDENCE);

    /* spine segments: the chain from the hips up to the neck, or up to where the arms hang */
    int32_t count = -1;
    if (hips >= 0 && neck >= 0) {
        count = mf_htree_path(s, hips, neck, chain, n);
        if (count > 0) count--; /* without the neck */
    } else if (hips >= 0 && arm >= 0 && s->parents[arm] >= 0) {
        count = mf_htree_path(s, hips, s->parents[arm], chain, n);
    }
    for (int b = MF_HB_SPINE; b <= MF_HB_UPPER_CHEST; b++) set(m, b, -1, MF_HSRC_NONE, 0);
    int32_t sp[3];
    if (count > 0) mf_hspine_assign(chain, count, sp);
    for (int k = 0; count > 0 && k < 3; k++) {
        if (sp[k] < 0) continue;
        bool named = names[sp[k]].kind == MF_HN_SPINE || names[sp[k]].kind == MF_HN_RIGIFY_SPINE;
        set(m, MF_HB_SPINE + k, sp[k], named ? MF_HSRC_NAME : MF_HSRC_STRUCTURE, named ? NAME_CONFIDENCE : 0.7f);
    }
    mf_hmap_enforce_hierarchy(t, m);
    free(names);
    free(chain);
}
