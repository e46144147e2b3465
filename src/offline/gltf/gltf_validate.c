/* Checks a typed model before it is written (or after a caller built or edited it), with the
 * same rules the reader applies to files. Locations are JSON-like paths of the written file. */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "gltf_internal.h"

static bool bad(mf_gltf_problem *p, const char *where, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static bool bad(mf_gltf_problem *p, const char *where, const char *fmt, ...)
{
    snprintf(p->where, sizeof p->where, "%s", where);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p->message, sizeof p->message, fmt, ap);
    va_end(ap);
    return false;
}

static bool finite_all(const float *v, size_t n, size_t *at)
{
    for (size_t i = 0; i < n; i++)
        if (!isfinite(v[i]) || fabsf(v[i]) > 3.0e38f) {
            *at = i;
            return false;
        }
    return true;
}

bool mf_gltf__check_animation(const mf_gltf *g, const mf_gltf_animation *a, int32_t index, mf_gltf_problem *p)
{
    char w[128];
    snprintf(w, sizeof w, "animations[%d].channels", (int)index);
    if (a->channel_count < 1 || !a->channels) return bad(p, w, "an animation needs at least one channel");
    for (int32_t i = 0; i < a->channel_count; i++) {
        const mf_gltf_channel *c = &a->channels[i];
        snprintf(w, sizeof w, "animations[%d].channels[%d]", (int)index, (int)i);
        if (c->node < 0 || c->node >= g->node_count)
            return bad(p, w, "node %d out of range (%d nodes)", (int)c->node, (int)g->node_count);
        if ((unsigned)c->path > MF_GLTF_SCALE) return bad(p, w, "unknown path %d", (int)c->path);
        if ((unsigned)c->interpolation > MF_GLTF_CUBICSPLINE)
            return bad(p, w, "unknown interpolation %d", (int)c->interpolation);
        int32_t min_keys = c->interpolation == MF_GLTF_CUBICSPLINE ? 2 : 1;
        if (c->key_count < min_keys || !c->times || !c->values)
            return bad(p, w, "needs at least %d key%s with times and values", (int)min_keys, min_keys > 1 ? "s" : "");
        size_t at;
        if (!finite_all(c->times, (size_t)c->key_count, &at) || c->times[0] < 0)
            return bad(p, w, "key %zu has a time that is negative or not finite", c->times[0] < 0 ? (size_t)0 : at);
        for (int32_t k = 1; k < c->key_count; k++)
            if (!(c->times[k] > c->times[k - 1]))
                return bad(p, w, "key %d at %g s is not after key %d (times must increase)", (int)k, (double)c->times[k],
                           (int)k - 1);
        size_t per = (size_t)mf_gltf_path_components(c->path) * (c->interpolation == MF_GLTF_CUBICSPLINE ? 3 : 1);
        if (!finite_all(c->values, (size_t)c->key_count * per, &at))
            return bad(p, w, "value %zu is not a finite number", at);
        for (int32_t j = 0; j < i; j++)
            if (a->channels[j].node == c->node && a->channels[j].path == c->path)
                return bad(p, w, "channel %d already animates this node and path", (int)j);
    }
    return true;
}

static bool check_nodes(const mf_gltf *g, mf_gltf_problem *p)
{
    char w[128];
    if (g->node_count < 0 || (g->node_count && !g->nodes)) return bad(p, "nodes", "bad node array");
    for (int32_t i = 0; i < g->node_count; i++) {
        const mf_gltf_node *n = &g->nodes[i];
        snprintf(w, sizeof w, "nodes[%d]", (int)i);
        float trs[10] = {n->translation.x, n->translation.y, n->translation.z, n->rotation.x, n->rotation.y,
                         n->rotation.z,    n->rotation.w,    n->scale.x,       n->scale.y,    n->scale.z};
        size_t at;
        if (!finite_all(trs, 10, &at)) return bad(p, w, "translation, rotation or scale is not finite");
        float len = sqrtf(trs[3] * trs[3] + trs[4] * trs[4] + trs[5] * trs[5] + trs[6] * trs[6]);
        if (fabsf(len - 1) > 1e-3f) return bad(p, w, "rotation is not a unit quaternion (length %g)", (double)len);
        if (n->mesh < -1 || n->mesh >= g->mesh_count) return bad(p, w, "mesh %d out of range", (int)n->mesh);
        if (n->skin < -1 || n->skin >= g->skin_count) return bad(p, w, "skin %d out of range", (int)n->skin);
        if (n->skin >= 0 && n->mesh < 0) return bad(p, w, "a node with a skin needs a mesh");
        if (n->child_count < 0 || (n->child_count && !n->children)) return bad(p, w, "bad children array");
    }
    /* parents must agree with the children lists, which must form a forest */
    mf_gltf_node *copy = malloc(((size_t)g->node_count + 1) * sizeof *copy);
    if (!copy) return bad(p, "nodes", "out of memory");
    if (g->node_count) memcpy(copy, g->nodes, (size_t)g->node_count * sizeof *copy);
    bool ok = mf_gltf__link_tree(copy, g->node_count, p);
    for (int32_t i = 0; ok && i < g->node_count; i++)
        if (copy[i].parent != g->nodes[i].parent) {
            snprintf(w, sizeof w, "nodes[%d].parent", (int)i);
            ok = bad(p, w, "is %d but the children lists say %d", (int)g->nodes[i].parent, (int)copy[i].parent);
        }
    free(copy);
    if (!ok) return false;
    for (int32_t i = 0; i < g->scene_node_count; i++) {
        int32_t k = g->scene_nodes[i];
        snprintf(w, sizeof w, "scenes[0].nodes[%d]", (int)i);
        if (k < 0 || k >= g->node_count) return bad(p, w, "node %d out of range", (int)k);
        if (g->nodes[k].parent >= 0) return bad(p, w, "node %d is not a root", (int)k);
        for (int32_t j = 0; j < i; j++)
            if (g->scene_nodes[j] == k) return bad(p, w, "node %d is listed twice", (int)k);
    }
    return true;
}

static bool check_skins(const mf_gltf *g, mf_gltf_problem *p)
{
    char w[128];
    for (int32_t s = 0; s < g->skin_count; s++) {
        const mf_gltf_skin *sk = &g->skins[s];
        snprintf(w, sizeof w, "skins[%d]", (int)s);
        if (sk->joint_count < 1 || !sk->joints) return bad(p, w, "a skin needs at least one joint");
        if (sk->skeleton < -1 || sk->skeleton >= g->node_count) return bad(p, w, "skeleton %d out of range", (int)sk->skeleton);
        for (int32_t j = 0; j < sk->joint_count; j++) {
            int32_t k = sk->joints[j];
            snprintf(w, sizeof w, "skins[%d].joints[%d]", (int)s, (int)j);
            if (k < 0 || k >= g->node_count) return bad(p, w, "node %d out of range", (int)k);
            for (int32_t i = 0; i < j; i++)
                if (sk->joints[i] == k) return bad(p, w, "node %d is already joint %d", (int)k, (int)i);
            bool under = sk->skeleton < 0;
            for (int32_t q = k, steps = 0; !under && q >= 0 && steps <= g->node_count; q = g->nodes[q].parent, steps++)
                under = q == sk->skeleton;
            if (!under) return bad(p, w, "node %d is not under the skeleton node %d", (int)k, (int)sk->skeleton);
        }
        size_t at;
        snprintf(w, sizeof w, "skins[%d].inverseBindMatrices", (int)s);
        if (sk->inverse_bind_matrices && !finite_all(sk->inverse_bind_matrices, (size_t)sk->joint_count * 16, &at))
            return bad(p, w, "value %zu is not finite", at);
    }
    return true;
}

static bool check_primitive(const mf_gltf *g, const mf_gltf_primitive *pr, const char *w, mf_gltf_problem *p)
{
    size_t n = (size_t)(pr->vertex_count > 0 ? pr->vertex_count : 0), at;
    if (!pr->positions) return bad(p, w, "a primitive needs positions");
    if (pr->vertex_count < 1) return bad(p, w, "vertex_count must be at least 1");
    if (!pr->joints != !pr->weights) return bad(p, w, "joints and weights must be given together");
    if ((pr->positions && !finite_all(pr->positions, n * 3, &at)) || (pr->normals && !finite_all(pr->normals, n * 3, &at)) ||
        (pr->texcoords && !finite_all(pr->texcoords, n * 2, &at)) || (pr->weights && !finite_all(pr->weights, n * 4, &at)))
        return bad(p, w, "an attribute holds a value that is not finite");
    if (pr->mode < 0 || pr->mode > 6) return bad(p, w, "mode %d is not 0 to 6", (int)pr->mode);
    if (pr->material < -1 || pr->material >= g->material_count) return bad(p, w, "material %d out of range", (int)pr->material);
    if (pr->index_count < 0 || (pr->index_count && !pr->indices) || (!pr->index_count && pr->indices))
        return bad(p, w, "index_count and indices disagree");
    for (int32_t i = 0; i < pr->index_count; i++)
        if (pr->indices[i] >= (uint32_t)pr->vertex_count)
            return bad(p, w, "index %d is %u, past the %d vertices", (int)i, pr->indices[i], (int)pr->vertex_count);
    int32_t elements = pr->indices ? pr->index_count : pr->vertex_count;
    if ((pr->mode == MF_GLTF_TRIANGLES && elements % 3) || (pr->mode == MF_GLTF_LINES && elements % 2))
        return bad(p, w, "%d elements do not make whole %s", (int)elements, pr->mode == MF_GLTF_LINES ? "lines" : "triangles");
    return true;
}

static bool check_meshes(const mf_gltf *g, mf_gltf_problem *p)
{
    char w[128];
    for (int32_t m = 0; m < g->mesh_count; m++) {
        const mf_gltf_mesh *mesh = &g->meshes[m];
        snprintf(w, sizeof w, "meshes[%d]", (int)m);
        if (mesh->primitive_count < 1 || !mesh->primitives) return bad(p, w, "a mesh needs at least one primitive");
        for (int32_t i = 0; i < mesh->primitive_count; i++) {
            snprintf(w, sizeof w, "meshes[%d].primitives[%d]", (int)m, (int)i);
            if (!check_primitive(g, &mesh->primitives[i], w, p)) return false;
        }
    }
    for (int32_t k = 0; k < g->node_count; k++) { /* skinned meshes use joints of their skin */
        const mf_gltf_node *nd = &g->nodes[k];
        if (nd->skin < 0 || nd->mesh < 0) continue;
        const mf_gltf_mesh *mesh = &g->meshes[nd->mesh];
        for (int32_t i = 0; i < mesh->primitive_count; i++) {
            const mf_gltf_primitive *pr = &mesh->primitives[i];
            for (int64_t v = 0; pr->joints && v < (int64_t)pr->vertex_count * 4; v++)
                if (pr->joints[v] >= g->skins[nd->skin].joint_count) {
                    snprintf(w, sizeof w, "nodes[%d].skin", (int)k);
                    return bad(p, w, "mesh %d primitive %d uses joint %u but skin %d has %d joints", (int)nd->mesh, (int)i,
                               pr->joints[v], (int)nd->skin, (int)g->skins[nd->skin].joint_count);
                }
        }
    }
    return true;
}

static bool check_materials(const mf_gltf *g, mf_gltf_problem *p)
{
    char w[128];
    for (int32_t i = 0; i < g->material_count; i++) {
        const mf_gltf_material *m = &g->materials[i];
        snprintf(w, sizeof w, "materials[%d]", (int)i);
        float v[6] = {m->base_color[0], m->base_color[1], m->base_color[2], m->base_color[3], m->metallic, m->roughness};
        for (int k = 0; k < 6; k++)
            if (!(v[k] >= 0 && v[k] <= 1)) return bad(p, w, "colour, metallic and roughness factors must be 0 to 1");
        if (m->base_color_texture < -1 || m->base_color_texture >= g->texture_count)
            return bad(p, w, "texture %d out of range", (int)m->base_color_texture);
    }
    for (int32_t i = 0; i < g->texture_count; i++) {
        snprintf(w, sizeof w, "textures[%d]", (int)i);
        if (g->textures[i].image < -1 || g->textures[i].image >= g->image_count)
            return bad(p, w, "image %d out of range", (int)g->textures[i].image);
    }
    for (int32_t i = 0; i < g->image_count; i++) {
        const mf_gltf_image *im = &g->images[i];
        snprintf(w, sizeof w, "images[%d]", (int)i);
        if (!im->size || !im->data) return bad(p, w, "an image needs its bytes");
        if (!im->mime_type && !mf_gltf__sniff_image(im->data, im->size))
            return bad(p, w, "unknown image type: set mime_type");
    }
    return true;
}

mf_result mf_gltf_validate(const mf_gltf *g, mf_diag *diag)
{
    mf_diag_clear(diag);
    if (!g) {
        mf_diag_set(diag, "", "", "mf_gltf_validate: NULL model");
        return MF_ERR_ARGUMENT;
    }
    mf_gltf_problem p = {{0}, {0}};
    bool ok = check_nodes(g, &p) && check_skins(g, &p) && check_meshes(g, &p) && check_materials(g, &p);
    for (int32_t i = 0; ok && i < g->animation_count; i++) ok = mf_gltf__check_animation(g, &g->animations[i], i, &p);
    if (ok) return MF_OK;
    mf_diag_set(diag, "", p.where, "%s", p.message);
    return MF_ERR_INVALID;
}
