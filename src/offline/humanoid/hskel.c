/* The skeleton view: bone names, parents and the rest pose, from arrays or from a glTF skin. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "humanoid_internal.h"
#include "mf/mf_gltf.h"
#include "util/arena.h"

static mf_result alloc_arrays(mf_humanoid_skeleton *s, int32_t n)
{
    mf_arena *a = s->mem;
    s->bone_count = n;
    s->names = mf_arena_alloc(a, sizeof(char *) * (size_t)n);
    s->parents = mf_arena_alloc(a, sizeof(int32_t) * (size_t)n);
    s->nodes = mf_arena_alloc(a, sizeof(int32_t) * (size_t)n);
    s->rest_translation = mf_arena_alloc(a, sizeof(mf_vec3) * (size_t)n);
    s->rest_rotation = mf_arena_alloc(a, sizeof(mf_quat) * (size_t)n);
    s->rest_scale = mf_arena_alloc(a, sizeof(mf_vec3) * (size_t)n);
    s->rest_world = mf_arena_alloc(a, sizeof(mf_mat4) * (size_t)n);
    s->parent_world = mf_arena_alloc(a, sizeof(mf_mat4) * (size_t)n);
    bool ok = s->names && s->parents && s->nodes && s->rest_translation && s->rest_rotation &&
              s->rest_scale && s->rest_world && s->parent_world;
    return ok ? MF_OK : MF_ERR_NOMEM;
}

static mf_humanoid_skeleton *create(void)
{
    mf_humanoid_skeleton *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->mem = mf_arena_create();
    if (!s->mem) {
        free(s);
        return NULL;
    }
    return s;
}

void mf_humanoid_skeleton_free(mf_humanoid_skeleton *s)
{
    if (!s) return;
    mf_arena_destroy(s->mem);
    free(s);
}

static bool finite3(mf_vec3 v) { return isfinite(v.x) && isfinite(v.y) && isfinite(v.z); }

typedef struct named {
    const char *name;
    int32_t index;
} named;

static int by_name(const void *a, const void *b)
{
    const named *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    return c ? c : (x->index > y->index) - (x->index < y->index);
}

/* Display names: the given name, "#id" when empty, "name#id" when another bone has it too
 * (sorted, so that big skeletons stay fast). */
static mf_result set_names(mf_humanoid_skeleton *s, const char *const *raw, const int32_t *ids)
{
    int32_t n = s->bone_count;
    named *v = malloc(sizeof(named) * (size_t)n);
    bool *dup = calloc((size_t)n, sizeof(bool));
    if (!v || !dup) {
        free(v);
        free(dup);
        return MF_ERR_NOMEM;
    }
    int32_t m = 0;
    for (int32_t i = 0; i < n; i++)
        if (raw[i] && *raw[i]) v[m++] = (named){raw[i], i};
    qsort(v, (size_t)m, sizeof *v, by_name);
    for (int32_t k = 1; k < m; k++)
        if (strcmp(v[k].name, v[k - 1].name) == 0) dup[v[k].index] = dup[v[k - 1].index] = true;
    free(v);
    mf_result rc = MF_OK;
    for (int32_t i = 0; i < n && rc == MF_OK; i++) {
        const char *nm = raw[i];
        char buf[64];
        if (!nm || !*nm) {
            snprintf(buf, sizeof buf, "#%d", ids[i]);
            s->names[i] = mf_arena_strdup(s->mem, buf);
        } else if (dup[i]) {
            size_t len = strlen(nm) + 16;
            s->names[i] = mf_arena_alloc(s->mem, len);
            if (s->names[i]) snprintf(s->names[i], len, "%s#%d", nm, ids[i]);
        } else {
            s->names[i] = mf_arena_strdup(s->mem, nm);
        }
        if (!s->names[i]) rc = MF_ERR_NOMEM;
    }
    free(dup);
    return rc;
}

void mf_humanoid_skeleton_pose_world(const mf_humanoid_skeleton *s, const mf_vec3 *t, const mf_quat *r,
                                     const mf_vec3 *sc, mf_mat4 *world)
{
    for (int32_t i = 0; i < s->bone_count; i++) {
        mf_mat4 local = mf_mat4_from_trs(t ? t[i] : s->rest_translation[i], r ? r[i] : s->rest_rotation[i],
                                         sc ? sc[i] : s->rest_scale[i]);
        const mf_mat4 *p = s->parents[i] >= 0 ? &world[s->parents[i]] : &s->parent_world[i];
        world[i] = mf_mat4_mul(p, &local);
    }
}

mf_result mf_humanoid_skeleton_from_arrays(int32_t count, const char *const *names, const int32_t *parents,
                                           const mf_vec3 *translations, const mf_quat *rotations,
                                           const mf_vec3 *scales, mf_humanoid_skeleton **out, mf_diag *diag)
{
    *out = NULL;
    if (count <= 0 || !parents || !translations || !rotations) {
        mf_diag_set(diag, "", "", "a skeleton needs at least one bone with parents, translations and rotations");
        return MF_ERR_ARGUMENT;
    }
    for (int32_t i = 0; i < count; i++) {
        char where[32];
        snprintf(where, sizeof where, "bones[%d]", i);
        if (parents[i] < -1 || parents[i] >= i) {
            mf_diag_set(diag, "", where, "parent %d must be -1 or a bone before this one", parents[i]);
            return MF_ERR_INVALID;
        }
        mf_quat q = rotations[i];
        if (!finite3(translations[i]) || !finite3(mf_v3(q.x, q.y, q.z)) || !isfinite(q.w) ||
            (scales && !finite3(scales[i]))) {
            mf_diag_set(diag, "", where, "rest transform is not finite");
            return MF_ERR_INVALID;
        }
    }
    mf_humanoid_skeleton *s = create();
    if (!s || alloc_arrays(s, count) != MF_OK) {
        mf_humanoid_skeleton_free(s);
        mf_diag_set(diag, "", "", "out of memory");
        return MF_ERR_NOMEM;
    }
    const char **raw = mf_arena_alloc(s->mem, sizeof(char *) * (size_t)count);
    int32_t *ids = mf_arena_alloc(s->mem, sizeof(int32_t) * (size_t)count);
    if (!raw || !ids) {
        mf_humanoid_skeleton_free(s);
        return MF_ERR_NOMEM;
    }
    for (int32_t i = 0; i < count; i++) {
        raw[i] = names ? names[i] : NULL;
        ids[i] = i;
        s->parents[i] = parents[i];
        s->nodes[i] = -1;
        s->rest_translation[i] = translations[i];
        s->rest_rotation[i] = mf_quat_normalize(rotations[i]);
        s->rest_scale[i] = scales ? scales[i] : mf_v3(1, 1, 1);
        s->parent_world[i] = mf_mat4_identity();
    }
    if (set_names(s, raw, ids) != MF_OK) {
        mf_humanoid_skeleton_free(s);
        return MF_ERR_NOMEM;
    }
    mf_humanoid_skeleton_pose_world(s, NULL, NULL, NULL, s->rest_world);
    for (int32_t i = 0; i < count; i++)
        if (parents[i] >= 0) s->parent_world[i] = s->rest_world[parents[i]];
    *out = s;
    return MF_OK;
}

/* Node order parents first (depth-first from the roots, children in file order), without
 * recursion: a model may be a chain of thousands of nodes. */
static int32_t preorder(const mf_gltf *g, int32_t *order, int32_t *stack)
{
    int32_t n = 0;
    for (int32_t r = 0; r < g->node_count; r++) {
        if (g->nodes[r].parent >= 0) continue;
        int32_t top = 0;
        stack[top++] = r;
        while (top > 0 && n < g->node_count) {
            int32_t node = stack[--top];
            order[n++] = node;
            const mf_gltf_node *nd = &g->nodes[node];
            for (int32_t c = nd->child_count - 1; c >= 0; c--) {
                int32_t ch = nd->children[c];
                if (ch >= 0 && ch < g->node_count && g->nodes[ch].parent == node && top < g->node_count)
                    stack[top++] = ch;
            }
        }
    }
    return n;
}

typedef struct walk {
    int32_t n;          /* nodes in order */
    int32_t *order;     /* parents first */
    bool *in;           /* part of the skeleton */
    mf_mat4 *world;     /* rest world matrix of every node */
} walk;

/* Which nodes make up the skeleton of a skin: its joints, and the nodes that connect them (on
 * a path from a joint up to the joints' lowest common ancestor). Linear in the node count. */
static bool skeleton_nodes(const mf_gltf *g, const mf_gltf_skin *skin, walk *w)
{
    int32_t n = g->node_count;
    int32_t *stack = malloc(sizeof(int32_t) * (size_t)n), *count = calloc((size_t)n, sizeof(int32_t));
    int32_t *depth = calloc((size_t)n, sizeof(int32_t));
    bool *joint = calloc((size_t)n, sizeof(bool)), *above = calloc((size_t)n, sizeof(bool));
    bool *below = calloc((size_t)n, sizeof(bool));
    w->order = malloc(sizeof(int32_t) * (size_t)n);
    w->in = calloc((size_t)n, sizeof(bool));
    w->world = malloc(sizeof(mf_mat4) * (size_t)n);
    bool ok = stack && count && depth && joint && above && below && w->order && w->in && w->world;
    if (ok) {
        w->n = preorder(g, w->order, stack);
        int32_t joints = 0;
        for (int32_t j = 0; j < skin->joint_count; j++) {
            int32_t node = skin->joints[j];
            if (node >= 0 && node < n && !joint[node]) joint[node] = true, joints++;
        }
        for (int32_t k = 0; k < w->n; k++) { /* top-down: depth, world, a joint above */
            int32_t node = w->order[k], p = g->nodes[node].parent;
            mf_mat4 local = mf_gltf_node_local(g, node);
            w->world[node] = p >= 0 ? mf_mat4_mul(&w->world[p], &local) : local;
            depth[node] = p >= 0 ? depth[p] + 1 : 0;
            above[node] = p >= 0 && (joint[p] || above[p]);
        }
        for (int32_t k = w->n - 1; k >= 0; k--) { /* bottom-up: joints in each subtree */
            int32_t node = w->order[k], p = g->nodes[node].parent;
            count[node] += joint[node];
            if (p >= 0) count[p] += count[node];
        }
        int32_t lca = -1;
        for (int32_t i = 0; i < n; i++)
            if (count[i] == joints && (lca < 0 || depth[i] > depth[lca])) lca = i;
        for (int32_t k = 0; k < w->n; k++) {
            int32_t node = w->order[k], p = g->nodes[node].parent;
            below[node] = p >= 0 && (p == lca || below[p]);
            w->in[node] = joint[node] || (count[node] > 0 && (node == lca || below[node] || (lca < 0 && above[node])));
        }
    }
    free(stack);
    free(count);
    free(depth);
    free(joint);
    free(above);
    free(below);
    return ok;
}

static void walk_free(walk *w)
{
    free(w->order);
    free(w->in);
    free(w->world);
}

mf_result mf_humanoid_skeleton_from_gltf(const mf_gltf *g, int32_t skin, const char *file,
                                         mf_humanoid_skeleton **out, mf_diag *diag)
{
    *out = NULL;
    if (!g) return MF_ERR_ARGUMENT;
    if (g->skin_count <= 0) {
        mf_diag_set(diag, file, "skins", "the model has no skin: it is not rigged, so it has no skeleton to map");
        return MF_ERR_INVALID;
    }
    if (skin < 0) {
        skin = 0;
        for (int32_t i = 1; i < g->skin_count; i++)
            if (g->skins[i].joint_count > g->skins[skin].joint_count) skin = i;
    }
    if (skin >= g->skin_count) {
        mf_diag_set(diag, file, "skins", "no skin %d (the model has %d)", skin, g->skin_count);
        return MF_ERR_ARGUMENT;
    }
    const mf_gltf_skin *sk = &g->skins[skin];
    char where[48];
    snprintf(where, sizeof where, "skins[%d].joints", skin);
    if (sk->joint_count <= 0) {
        mf_diag_set(diag, file, where, "the skin has no joints");
        return MF_ERR_INVALID;
    }
    walk w = {0};
    int32_t *index = NULL;
    mf_humanoid_skeleton *s = NULL;
    mf_result rc = MF_ERR_NOMEM;
    int32_t n = 0;
    if (skeleton_nodes(g, sk, &w) && (index = malloc(sizeof(int32_t) * (size_t)g->node_count)) && (s = create())) {
        for (int32_t k = 0; k < w.n; k++) n += w.in[w.order[k]];
        rc = n > 0 ? alloc_arrays(s, n) : MF_ERR_INVALID;
    }
    const char **raw = rc == MF_OK ? mf_arena_alloc(s->mem, sizeof(char *) * (size_t)n) : NULL;
    if (rc == MF_OK && !raw) rc = MF_ERR_NOMEM;
    if (rc == MF_OK) {
        for (int32_t i = 0; i < g->node_count; i++) index[i] = -1;
        int32_t i = 0;
        for (int32_t k = 0; k < w.n; k++) {
            int32_t node = w.order[k];
            if (!w.in[node]) continue;
            const mf_gltf_node *nd = &g->nodes[node];
            int32_t p = nd->parent;
            while (p >= 0 && index[p] < 0) p = g->nodes[p].parent; /* nearest ancestor in the skeleton */
            index[node] = i;
            s->parents[i] = p >= 0 ? index[p] : -1;
            s->nodes[i] = node;
            raw[i] = nd->name;
            s->rest_translation[i] = nd->translation;
            s->rest_rotation[i] = mf_quat_normalize(nd->rotation);
            s->rest_scale[i] = nd->scale;
            s->rest_world[i] = w.world[node];
            s->parent_world[i] = nd->parent >= 0 ? w.world[nd->parent] : mf_mat4_identity();
            i++;
        }
        rc = set_names(s, raw, s->nodes);
    }
    walk_free(&w);
    free(index);
    if (rc != MF_OK) {
        mf_humanoid_skeleton_free(s);
        if (rc == MF_ERR_INVALID) mf_diag_set(diag, file, where, "the skin's joints are not nodes of the model");
        else mf_diag_set(diag, file, "", "out of memory");
        return rc;
    }
    snprintf(s->file, sizeof s->file, "%s", file ? file : "");
    *out = s;
    return MF_OK;
}

int32_t mf_humanoid_skeleton_find(const mf_humanoid_skeleton *s, const char *name)
{
    if (!s || !name) return -1;
    for (int32_t i = 0; i < s->bone_count; i++)
        if (strcmp(s->names[i], name) == 0) return i;
    /* "name#12" display names still answer to the plain node name */
    size_t len = strlen(name);
    for (int32_t i = 0; i < s->bone_count; i++)
        if (strncmp(s->names[i], name, len) == 0 && s->names[i][len] == '#') return i;
    return -1;
}
