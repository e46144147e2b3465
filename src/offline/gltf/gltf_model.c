/* The typed glTF model: creation, lookups, rest matrices and the node tree links. */
#include <stdlib.h>
#include <string.h>

#include "gltf_internal.h"

mf_gltf *mf_gltf_create(void)
{
    mf_gltf *g = calloc(1, sizeof *g);
    if (!g) return NULL;
    g->arena = mf_arena_create();
    if (!g->arena) {
        free(g);
        return NULL;
    }
    return g;
}

void mf_gltf_free(mf_gltf *g)
{
    if (!g) return;
    mf_arena_destroy(mf_gltf__arena(g));
    free(g);
}

void *mf_gltf_alloc(mf_gltf *g, size_t size) { return g ? mf_arena_alloc(mf_gltf__arena(g), size) : NULL; }

char *mf_gltf_strdup(mf_gltf *g, const char *s)
{
    return (g && s) ? mf_arena_strdup(mf_gltf__arena(g), s) : NULL;
}

mf_mat4 mf_gltf_node_local(const mf_gltf *g, int32_t node)
{
    if (!g || node < 0 || node >= g->node_count) return mf_mat4_identity();
    const mf_gltf_node *n = &g->nodes[node];
    return mf_mat4_from_trs(n->translation, n->rotation, n->scale);
}

mf_mat4 mf_gltf_node_world(const mf_gltf *g, int32_t node)
{
    if (!g || node < 0 || node >= g->node_count) return mf_mat4_identity();
    mf_mat4 m = mf_gltf_node_local(g, node);
    /* the tree is acyclic in every valid model; the step limit guards an invalid one */
    int32_t p = g->nodes[node].parent;
    for (int32_t steps = 0; p >= 0 && p < g->node_count && steps < g->node_count; steps++) {
        mf_mat4 pm = mf_gltf_node_local(g, p);
        m = mf_mat4_mul(&pm, &m);
        p = g->nodes[p].parent;
    }
    return m;
}

int32_t mf_gltf_find_node(const mf_gltf *g, const char *name)
{
    if (!g || !name) return -1;
    for (int32_t i = 0; i < g->node_count; i++)
        if (g->nodes[i].name && strcmp(g->nodes[i].name, name) == 0) return i;
    return -1;
}

int32_t mf_gltf_find_animation(const mf_gltf *g, const char *name)
{
    if (!g || !name) return -1;
    for (int32_t i = 0; i < g->animation_count; i++)
        if (g->animations[i].name && strcmp(g->animations[i].name, name) == 0) return i;
    return -1;
}

bool mf_gltf__link_tree(mf_gltf_node *nodes, int32_t count, mf_gltf_problem *p)
{
    for (int32_t i = 0; i < count; i++) nodes[i].parent = -1;
    for (int32_t i = 0; i < count; i++) {
        for (int32_t c = 0; c < nodes[i].child_count; c++) {
            int32_t k = nodes[i].children[c];
            snprintf(p->where, sizeof p->where, "nodes[%d].children[%d]", (int)i, (int)c);
            if (k < 0 || k >= count) {
                snprintf(p->message, sizeof p->message, "node %d out of range (%d nodes)", (int)k,
                         (int)count);
                return false;
            }
            if (k == i) {
                snprintf(p->message, sizeof p->message, "node %d lists itself as a child", (int)i);
                return false;
            }
            if (nodes[k].parent >= 0) {
                if (nodes[k].parent == i)
                    snprintf(p->message, sizeof p->message, "node %d is listed twice", (int)k);
                else
                    snprintf(p->message, sizeof p->message,
                             "node %d already has parent %d (a node has at most one parent)", (int)k,
                             (int)nodes[k].parent);
                return false;
            }
            nodes[k].parent = i;
        }
    }
    /* with single parents, a cycle is a parent chain that comes back to a node; walking each
     * chain once, stamped with its start, finds it in linear time */
    int32_t *stamp = malloc(((size_t)count + 1) * sizeof *stamp);
    if (!stamp) {
        snprintf(p->where, sizeof p->where, "nodes");
        snprintf(p->message, sizeof p->message, "out of memory");
        return false;
    }
    for (int32_t i = 0; i < count; i++) stamp[i] = -1; /* -1 unseen, count: known acyclic */
    for (int32_t i = 0; i < count; i++) {
        int32_t q = i;
        while (q >= 0 && stamp[q] == -1) {
            stamp[q] = i;
            q = nodes[q].parent;
        }
        if (q >= 0 && stamp[q] == i) { /* came back to this walk: q is on a cycle */
            int32_t par = nodes[q].parent, slot = 0;
            for (int32_t c = 0; c < nodes[par].child_count; c++)
                if (nodes[par].children[c] == q) slot = c;
            snprintf(p->where, sizeof p->where, "nodes[%d].children[%d]", (int)par, (int)slot);
            snprintf(p->message, sizeof p->message,
                     "node %d is its own ancestor (the node tree has a cycle)", (int)q);
            free(stamp);
            return false;
        }
        for (q = i; q >= 0 && stamp[q] == i; q = nodes[q].parent) stamp[q] = count;
    }
    free(stamp);
    p->where[0] = p->message[0] = '\0';
    return true;
}
