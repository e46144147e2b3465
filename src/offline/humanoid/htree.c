/* Children lists, depths and rest pivots of a skeleton view, and walks along its tree. */
#include <math.h>
#include <stdlib.h>

#include "humanoid_internal.h"

bool mf_htree_init(mf_htree *t, const mf_humanoid_skeleton *s)
{
    int32_t n = s->bone_count;
    *t = (mf_htree){.n = n};
    t->child_count = calloc((size_t)n, sizeof(int32_t));
    t->children = calloc((size_t)n, sizeof(int32_t *));
    t->depth = calloc((size_t)n, sizeof(int32_t));
    t->pre = calloc((size_t)n, sizeof(int32_t));
    t->tin = calloc((size_t)n, sizeof(int32_t));
    t->tout = calloc((size_t)n, sizeof(int32_t));
    t->pos = calloc((size_t)n, sizeof(mf_vec3));
    int32_t *pool = calloc((size_t)n + 1, sizeof(int32_t));
    int32_t *stack = calloc((size_t)n + 1, sizeof(int32_t));
    if (!t->child_count || !t->children || !t->depth || !t->pre || !t->tin || !t->tout || !t->pos || !pool ||
        !stack) {
        free(pool);
        free(stack);
        mf_htree_free(t);
        return false;
    }
    for (int32_t i = 0; i < n; i++)
        if (s->parents[i] >= 0) t->child_count[s->parents[i]]++;
    /* one pool; bone i's children start where the counts before it end */
    int32_t at = 0;
    for (int32_t i = 0; i < n; i++) {
        t->children[i] = pool + at;
        at += t->child_count[i];
        t->child_count[i] = 0;
    }
    for (int32_t i = 0; i < n; i++) {
        int32_t p = s->parents[i];
        if (p >= 0) t->children[p][t->child_count[p]++] = i;
        t->depth[i] = p >= 0 ? t->depth[p] + 1 : 0;
        const float *m = s->rest_world[i].m;
        t->pos[i] = mf_v3(m[12], m[13], m[14]);
    }
    /* depth-first order without recursion; a subtree is one range of it */
    int32_t k = 0;
    for (int32_t r = 0; r < n; r++) {
        if (s->parents[r] >= 0) continue;
        int32_t top = 0;
        stack[top++] = r;
        while (top > 0) {
            int32_t b = stack[--top];
            t->tin[b] = k;
            t->pre[k++] = b;
            for (int32_t c = t->child_count[b] - 1; c >= 0; c--) stack[top++] = t->children[b][c];
        }
    }
    for (int32_t q = n - 1; q >= 0; q--) { /* a subtree ends where its last descendant does */
        int32_t b = t->pre[q];
        if (t->tout[b] < t->tin[b] + 1) t->tout[b] = t->tin[b] + 1;
        int32_t p = s->parents[b];
        if (p >= 0 && t->tout[p] < t->tout[b]) t->tout[p] = t->tout[b];
    }
    free(stack);
    mf_vec3 lo = n ? t->pos[0] : mf_v3(0, 0, 0), hi = lo;
    for (int32_t i = 1; i < n; i++) {
        mf_vec3 p = t->pos[i];
        lo = mf_v3(fminf(lo.x, p.x), fminf(lo.y, p.y), fminf(lo.z, p.z));
        hi = mf_v3(fmaxf(hi.x, p.x), fmaxf(hi.y, p.y), fmaxf(hi.z, p.z));
    }
    t->size = mf_v3_length(mf_v3_sub(hi, lo));
    if (!(t->size > 0)) t->size = 1;
    return true;
}

void mf_htree_free(mf_htree *t)
{
    if (t->children && t->n > 0) free(t->children[0]); /* the pool */
    free(t->children);
    free(t->child_count);
    free(t->depth);
    free(t->pre);
    free(t->tin);
    free(t->tout);
    free(t->pos);
    *t = (mf_htree){0};
}

bool mf_htree_is_ancestor(const mf_htree *t, int32_t a, int32_t b)
{
    if (a < 0 || b < 0 || a >= t->n || b >= t->n) return false;
    return t->tin[a] <= t->tin[b] && t->tout[b] <= t->tout[a];
}

int32_t mf_htree_lca(const mf_humanoid_skeleton *s, const mf_htree *t, int32_t a, int32_t b)
{
    if (a < 0) return b;
    if (b < 0) return a;
    while (a != b && a >= 0 && b >= 0) {
        if (t->depth[a] >= t->depth[b]) a = s->parents[a];
        else b = s->parents[b];
    }
    return a == b ? a : -1;
}

int32_t mf_htree_path(const mf_humanoid_skeleton *s, int32_t from, int32_t to, int32_t *out, int32_t cap)
{
    int32_t n = 0, p = to;
    for (; p >= 0 && p != from; p = s->parents[p]) n++;
    if (p != from || from < 0 || n > cap) return -1;
    int32_t k = n;
    for (p = to; p != from; p = s->parents[p]) out[--k] = p;
    return n;
}

float mf_htree_eps(const mf_htree *t) { return t->size * 1e-4f; }

mf_vec3 mf_hsnap_axis(mf_vec3 v)
{
    float ax = fabsf(v.x), ay = fabsf(v.y), az = fabsf(v.z);
    if (ax >= ay && ax >= az) return mf_v3(v.x >= 0 ? 1.0f : -1.0f, 0, 0);
    if (ay >= az) return mf_v3(0, v.y >= 0 ? 1.0f : -1.0f, 0);
    return mf_v3(0, 0, v.z >= 0 ? 1.0f : -1.0f);
}
