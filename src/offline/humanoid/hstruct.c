/* Detection step 2: the map from the skeleton's shape alone. From the lowest two leaf chains
 * (the feet) and the highest leaf (the head top) the hips are the bone joining them; the legs
 * are their two longest downward segments; the arms are the two widest side branches of the
 * spine; the hands are where the arm chain splits into fingers. Left is +X after turning the
 * skeleton so that its toes point to +Z. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "humanoid_internal.h"

typedef struct ctx {
    const mf_humanoid_skeleton *s;
    const mf_htree *t;
    mf_vec3 up;
    float eps;
    float stature; /* head top above the lowest foot */
    int32_t *buf;  /* scratch, bone_count */
    int32_t *buf2;
} ctx;

static float height(const ctx *c, int32_t i) { return mf_v3_dot(c->t->pos[i], c->up); }
static bool same_pos(const ctx *c, int32_t a, int32_t b)
{
    return mf_v3_length(mf_v3_sub(c->t->pos[a], c->t->pos[b])) <= c->eps;
}

/* Groups of consecutive bones at the same pivot along a chain: first bone of each group. */
typedef struct groups {
    int32_t n;
    int32_t first[64];
    int32_t last[64];
} groups;

static void group_chain(const ctx *c, const int32_t *chain, int32_t len, int32_t start, groups *g)
{
    g->n = 0;
    for (int32_t k = 0; k < len; k++) {
        int32_t b = chain[k];
        bool joins = g->n > 0 ? same_pos(c, g->last[g->n - 1], b) : (start >= 0 && same_pos(c, start, b));
        if (g->n > 0 && joins) {
            g->last[g->n - 1] = b;
        } else if (g->n < 64) {
            g->first[g->n] = b;
            g->last[g->n] = b;
            g->n++;
        }
    }
}

static mf_vec3 seg(const ctx *c, const groups *g, int32_t j)
{
    return j + 1 < g->n ? mf_v3_sub(c->t->pos[g->first[j + 1]], c->t->pos[g->first[j]]) : mf_v3(0, 0, 0);
}

/* Distinct pivots on the path from a (exclusive) to b. */
static int32_t distinct_steps(const ctx *c, int32_t a, int32_t b)
{
    int32_t len = mf_htree_path(c->s, a, b, c->buf2, c->s->bone_count);
    if (len < 0) return -1;
    groups g;
    group_chain(c, c->buf2, len, a, &g);
    return g.n;
}

static bool is_leaf(const ctx *c, int32_t i) { return c->t->child_count[i] == 0; }

/* A child that leads somewhere: some bone below it sits at another point than it does. */
static bool leads_on(const ctx *c, int32_t child, int depth)
{
    if (depth > 64) return false;
    for (int32_t k = 0; k < c->t->child_count[child]; k++) {
        int32_t g = c->t->children[child][k];
        if (!same_pos(c, g, child) || leads_on(c, g, depth + 1)) return true;
    }
    return false;
}

typedef struct leg {
    int32_t upper, lower, foot, toes, leaf;
} leg;

/* UpperLeg and LowerLeg: the two consecutive segments pointing down with the largest length. */
static bool find_leg(const ctx *c, int32_t hips, int32_t leaf, leg *out)
{
    int32_t len = mf_htree_path(c->s, hips, leaf, c->buf, c->s->bone_count);
    groups g;
    group_chain(c, c->buf, len, -1, &g);
    int32_t best = -1;
    float best_len = 0;
    for (int32_t j = 0; j + 2 < g.n; j++) {
        mf_vec3 a = seg(c, &g, j), b = seg(c, &g, j + 1);
        float la = mf_v3_length(a), lb = mf_v3_length(b);
        bool down = -mf_v3_dot(a, c->up) >= 0.5f * la && -mf_v3_dot(b, c->up) >= 0.5f * lb;
        if (down && la + lb > best_len) best = j, best_len = la + lb;
    }
    if (best < 0) return false;
    out->upper = g.first[best];
    out->lower = g.first[best + 1];
    out->foot = g.first[best + 2];
    /* a toe bone with a tip beyond it; a last bone near the ankle is the ball (a toe bone with
     * no tip), one far from it the tip of the foot */
    out->toes = -1;
    if (best + 4 < g.n) out->toes = g.first[best + 3];
    else if (best + 3 < g.n &&
             mf_v3_length(mf_v3_sub(c->t->pos[g.first[best + 3]], c->t->pos[out->foot])) < 0.1f * c->stature)
        out->toes = g.first[best + 3];
    out->leaf = leaf;
    return true;
}

typedef struct arm {
    int32_t shoulder, upper, lower, hand, leaf;
} arm;

static bool find_arm(const ctx *c, int32_t attach, int32_t leaf, arm *out)
{
    int32_t len = mf_htree_path(c->s, attach, leaf, c->buf, c->s->bone_count);
    groups g;
    group_chain(c, c->buf, len, -1, &g);
    int32_t hand = -1;
    /* the hand: the first point after two segments where the chain splits into fingers */
    for (int32_t j = 2; j < g.n && hand < 0; j++) {
        int32_t group[64], count = 0;
        for (int32_t k = 0; k < len && count < 64; k++)
            if (same_pos(c, c->buf[k], g.first[j]) && mf_htree_is_ancestor(c->t, g.first[j], c->buf[k]))
                group[count++] = c->buf[k];
        /* a leaf child such as a twist bone does not lead on, so a forearm is no hand */
        int32_t split = 0;
        for (int32_t h = 0; h < count; h++)
            for (int32_t k = 0; k < c->t->child_count[group[h]]; k++) {
                int32_t ch = c->t->children[group[h]][k];
                bool inside = false;
                for (int32_t q = 0; q < count && !inside; q++) inside = group[q] == ch;
                if (!inside && leads_on(c, ch, 0)) split++;
            }
        if (split >= 2) hand = j;
    }
    if (hand < 0) { /* no split: the two longest consecutive segments are upper arm and forearm */
        float best_len = 0;
        for (int32_t j = 0; j + 2 < g.n; j++) {
            float l = mf_v3_length(seg(c, &g, j)) + mf_v3_length(seg(c, &g, j + 1));
            if (l > best_len) hand = j + 2, best_len = l;
        }
    }
    if (hand < 2) return false;
    out->hand = g.first[hand];
    out->lower = g.first[hand - 1];
    out->upper = g.first[hand - 2];
    out->shoulder = hand >= 3 ? g.first[hand - 3] : -1;
    out->leaf = leaf;
    return true;
}

static void put(mf_humanoid_map *m, int b, int32_t bone, float conf)
{
    if (bone < 0) return;
    m->bone[b] = bone;
    m->source[b] = MF_HSRC_STRUCTURE;
    m->confidence[b] = conf;
}

/* Finger chains on a hand: the thumb points most forward (palms down), then index … little
 * front to back. Two to five chains; the thumb must stand out, else nothing is mapped. */
static void find_fingers(const ctx *c, int32_t hand, mf_vec3 forward, bool right, mf_humanoid_map *m)
{
    int32_t roots[8], nroots = 0;
    for (int32_t k = 0; k < c->t->child_count[hand] && nroots < 8; k++)
        if (leads_on(c, c->t->children[hand][k], 0)) roots[nroots++] = c->t->children[hand][k];
    if (nroots < 2 || nroots > 5) return;
    float key[5];
    for (int32_t f = 0; f < nroots; f++) {
        int32_t b = roots[f];
        while (same_pos(c, b, hand) && c->t->child_count[b] > 0) b = c->t->children[b][0];
        key[f] = mf_v3_dot(mf_v3_normalize(mf_v3_sub(c->t->pos[b], c->t->pos[hand])), forward);
    }
    for (int32_t i = 1; i < nroots; i++) /* sort front to back */
        for (int32_t j = i; j > 0 && key[j] > key[j - 1]; j--) {
            float tk = key[j];
            key[j] = key[j - 1], key[j - 1] = tk;
            int32_t tr = roots[j];
            roots[j] = roots[j - 1], roots[j - 1] = tr;
        }
    if (key[0] - key[1] < 0.2f) return;
    static const int BASE[5] = {MF_HB_LEFT_THUMB_METACARPAL, MF_HB_LEFT_INDEX_PROXIMAL, MF_HB_LEFT_MIDDLE_PROXIMAL,
                                MF_HB_LEFT_RING_PROXIMAL, MF_HB_LEFT_LITTLE_PROXIMAL};
    for (int32_t f = 0; f < nroots; f++) {
        int32_t b = roots[f];
        for (int seg_i = 0; seg_i < 3 && b >= 0; seg_i++) {
            int bone = right ? (int)mf_humanoid_bone_mirror((mf_humanoid_bone)(BASE[f] + seg_i)) : BASE[f] + seg_i;
            if (!is_leaf(c, b)) put(m, bone, b, 0.5f);
            /* next segment: the first child that leads on or sits elsewhere */
            int32_t next = -1;
            for (int32_t k = 0; k < c->t->child_count[b] && next < 0; k++)
                if (leads_on(c, c->t->children[b][k], 0) || !same_pos(c, c->t->children[b][k], b))
                    next = c->t->children[b][k];
            b = next;
        }
    }
}

static bool try_up(ctx *c, mf_humanoid_map *m)
{
    const mf_humanoid_skeleton *s = c->s;
    const mf_htree *t = c->t;
    int32_t n = s->bone_count, l1 = -1, hd = -1;
    for (int32_t i = 0; i < n; i++) {
        if (!is_leaf(c, i)) continue;
        if (l1 < 0 || height(c, i) < height(c, l1)) l1 = i;
        if (hd < 0 || height(c, i) > height(c, hd)) hd = i;
    }
    if (l1 < 0 || hd < 0) return false;
    float stature = height(c, hd) - height(c, l1);
    if (!(stature > c->eps * 10)) return false;
    c->stature = stature;
    /* the other foot: low, and on a chain of its own (not a second toe of the same foot) */
    int32_t l2 = -1;
    for (int32_t i = 0; i < n; i++) {
        if (!is_leaf(c, i) || i == l1 || height(c, i) > height(c, l1) + 0.15f * stature) continue;
        int32_t a = mf_htree_lca(s, t, l1, i);
        if (a < 0 || distinct_steps(c, a, l1) < 3 || distinct_steps(c, a, i) < 3) continue;
        if (l2 < 0 || height(c, i) < height(c, l2) - c->eps) l2 = i;
    }
    if (l2 < 0) return false;
    int32_t hips = mf_htree_lca(s, t, mf_htree_lca(s, t, l1, l2), hd);
    if (hips < 0 || hips == hd) return false;
    leg legs[2];
    if (!find_leg(c, hips, l1, &legs[0]) || !find_leg(c, hips, l2, &legs[1])) return false;

    /* facing: the feet point forward; snapped to a world axis across the up axis */
    mf_vec3 fw = mf_v3(0, 0, 0);
    for (int k = 0; k < 2; k++) {
        mf_vec3 v = mf_v3_sub(t->pos[legs[k].leaf], t->pos[legs[k].foot]);
        fw = mf_v3_add(fw, mf_v3_sub(v, mf_v3_scale(c->up, mf_v3_dot(v, c->up))));
    }
    if (mf_v3_length(fw) <= c->eps) return false;
    mf_vec3 forward = mf_hsnap_axis(fw);
    if (fabsf(mf_v3_dot(forward, c->up)) > 0.5f) return false;
    mf_vec3 left = mf_v3_cross(c->up, forward);

    /* the spine: hips up to the head top; the arms: the widest side branch each way */
    int32_t *chain = c->buf2;
    int32_t clen = mf_htree_path(s, hips, hd, chain, n);
    if (clen < 3) return false;
    int32_t attach[2] = {-1, -1}, arm_leaf[2] = {-1, -1};
    float extent[2] = {0.15f * stature, 0.15f * stature};
    for (int32_t k = 0; k < clen - 1; k++) {
        int32_t cb = chain[k];
        for (int32_t ci = 0; ci < t->child_count[cb]; ci++) {
            int32_t x = t->children[cb][ci];
            if (x == chain[k + 1]) continue;
            for (int32_t q = t->tin[x]; q < t->tout[x]; q++) { /* x's subtree */
                int32_t y = t->pre[q];
                float side = mf_v3_dot(mf_v3_sub(t->pos[y], t->pos[cb]), left);
                int which = side < 0;
                if (fabsf(side) > extent[which]) {
                    extent[which] = fabsf(side);
                    attach[which] = cb;
                    arm_leaf[which] = y;
                }
            }
        }
    }
    if (attach[0] < 0 || attach[1] < 0) return false;
    int32_t ai = -1;
    for (int32_t k = 0; k < clen; k++)
        if (chain[k] == attach[0] || chain[k] == attach[1]) ai = k; /* the higher attachment */
    int32_t spine[3];
    mf_hspine_assign(chain, ai + 1, spine);
    int32_t rest = clen - ai - 1, neck = -1, head = -1;
    if (rest == 1) head = chain[ai + 1];
    else if (rest == 2) neck = chain[ai + 1], head = chain[ai + 2];
    else if (rest >= 3) neck = chain[ai + 1], head = chain[clen - 2];

    arm arms[2];
    for (int k = 0; k < 2; k++)
        if (!find_arm(c, attach[k], arm_leaf[k], &arms[k])) return false;

    /* sides from the rest positions */
    float lside[2];
    for (int k = 0; k < 2; k++)
        lside[k] = mf_v3_dot(mf_v3_sub(t->pos[legs[k].foot], t->pos[hips]), left) +
                   mf_v3_dot(mf_v3_sub(t->pos[legs[k].upper], t->pos[hips]), left);
    if (fabsf(lside[0] - lside[1]) <= c->eps) return false;
    const leg *ll = lside[0] > lside[1] ? &legs[0] : &legs[1], *rl = lside[0] > lside[1] ? &legs[1] : &legs[0];

    put(m, MF_HB_HIPS, hips, 0.8f);
    put(m, MF_HB_SPINE, spine[0], 0.7f);
    put(m, MF_HB_CHEST, spine[1], 0.7f);
    put(m, MF_HB_UPPER_CHEST, spine[2], 0.7f);
    put(m, MF_HB_NECK, neck, 0.7f);
    put(m, MF_HB_HEAD, head, 0.7f);
    const leg *lg[2] = {ll, rl};
    for (int k = 0; k < 2; k++) {
        int o = k ? 4 : 0;
        put(m, MF_HB_LEFT_UPPER_LEG + o, lg[k]->upper, 0.8f);
        put(m, MF_HB_LEFT_LOWER_LEG + o, lg[k]->lower, 0.8f);
        put(m, MF_HB_LEFT_FOOT + o, lg[k]->foot, 0.75f);
        put(m, MF_HB_LEFT_TOES + o, lg[k]->toes, 0.6f);
        const arm *a = &arms[k]; /* arms[0] is on the +left side */
        put(m, MF_HB_LEFT_SHOULDER + o, a->shoulder, 0.7f);
        put(m, MF_HB_LEFT_UPPER_ARM + o, a->upper, 0.8f);
        put(m, MF_HB_LEFT_LOWER_ARM + o, a->lower, 0.8f);
        put(m, MF_HB_LEFT_HAND + o, a->hand, 0.75f);
        find_fingers(c, a->hand, forward, k == 1, m);
    }
    m->up = c->up;
    m->forward = forward;
    return true;
}

bool mf_hdetect_structure(const mf_humanoid_skeleton *s, const mf_htree *t, mf_humanoid_map *m)
{
    static const float UPS[6][3] = {{0, 1, 0}, {0, 0, 1}, {0, 0, -1}, {1, 0, 0}, {-1, 0, 0}, {0, -1, 0}};
    ctx c = {.s = s, .t = t, .eps = mf_htree_eps(t)};
    c.buf = malloc(sizeof(int32_t) * (size_t)s->bone_count);
    c.buf2 = malloc(sizeof(int32_t) * (size_t)s->bone_count);
    bool ok = false;
    for (int u = 0; u < 6 && !ok && c.buf && c.buf2; u++) {
        for (int b = 0; b < MF_HB_COUNT; b++) m->bone[b] = -1, m->source[b] = MF_HSRC_NONE, m->confidence[b] = 0;
        c.up = mf_v3(UPS[u][0], UPS[u][1], UPS[u][2]);
        ok = try_up(&c, m);
    }
    if (!ok)
        for (int b = 0; b < MF_HB_COUNT; b++) m->bone[b] = -1, m->source[b] = MF_HSRC_NONE, m->confidence[b] = 0;
    free(c.buf);
    free(c.buf2);
    return ok;
}
