/* Structural equality of two models, for round-trip tests: read(write(m)) must equal m. */
#include <math.h>
#include <stdarg.h>
#include <string.h>

#include "gltf_internal.h"

typedef struct eq {
    float eps;
    char *why;
    size_t size;
} eq;

static bool differ(eq *e, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static bool differ(eq *e, const char *fmt, ...)
{
    if (e->why && e->size) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(e->why, e->size, fmt, ap);
        va_end(ap);
    }
    return false;
}

static bool same_str(const char *a, const char *b) { return (!a && !b) || (a && b && strcmp(a, b) == 0); }

static bool same_f(const eq *e, const float *a, const float *b, size_t n)
{
    if (n == 0) return true;
    if (!a || !b) return !a && !b;
    for (size_t i = 0; i < n; i++)
        if (!(fabsf(a[i] - b[i]) <= e->eps)) return false;
    return true;
}

static bool same_bytes(const void *a, const void *b, size_t n)
{
    if (n == 0) return true;
    if (!a || !b) return !a && !b;
    return memcmp(a, b, n) == 0;
}

static bool nodes_equal(eq *e, const mf_gltf *a, const mf_gltf *b)
{
    if (a->node_count != b->node_count) return differ(e, "node_count %d vs %d", (int)a->node_count, (int)b->node_count);
    for (int32_t i = 0; i < a->node_count; i++) {
        const mf_gltf_node *x = &a->nodes[i], *y = &b->nodes[i];
        float tx[10] = {x->translation.x, x->translation.y, x->translation.z, x->rotation.x, x->rotation.y,
                        x->rotation.z,    x->rotation.w,    x->scale.x,       x->scale.y,    x->scale.z};
        float ty[10] = {y->translation.x, y->translation.y, y->translation.z, y->rotation.x, y->rotation.y,
                        y->rotation.z,    y->rotation.w,    y->scale.x,       y->scale.y,    y->scale.z};
        if (!same_str(x->name, y->name)) return differ(e, "nodes[%d].name", (int)i);
        if (x->parent != y->parent || x->mesh != y->mesh || x->skin != y->skin)
            return differ(e, "nodes[%d] parent, mesh or skin", (int)i);
        if (x->child_count != y->child_count ||
            !same_bytes(x->children, y->children, (size_t)x->child_count * sizeof *x->children))
            return differ(e, "nodes[%d].children", (int)i);
        if (!same_f(e, tx, ty, 10)) return differ(e, "nodes[%d] translation, rotation or scale", (int)i);
    }
    if (a->scene_node_count != b->scene_node_count ||
        !same_bytes(a->scene_nodes, b->scene_nodes, (size_t)a->scene_node_count * sizeof *a->scene_nodes))
        return differ(e, "scene nodes");
    return true;
}

static bool skins_equal(eq *e, const mf_gltf *a, const mf_gltf *b)
{
    if (a->skin_count != b->skin_count) return differ(e, "skin_count %d vs %d", (int)a->skin_count, (int)b->skin_count);
    for (int32_t i = 0; i < a->skin_count; i++) {
        const mf_gltf_skin *x = &a->skins[i], *y = &b->skins[i];
        if (!same_str(x->name, y->name) || x->skeleton != y->skeleton || x->joint_count != y->joint_count ||
            !same_bytes(x->joints, y->joints, (size_t)x->joint_count * sizeof *x->joints))
            return differ(e, "skins[%d] name, skeleton or joints", (int)i);
        if (!same_f(e, x->inverse_bind_matrices, y->inverse_bind_matrices, (size_t)x->joint_count * 16))
            return differ(e, "skins[%d].inverseBindMatrices", (int)i);
    }
    return true;
}

static bool meshes_equal(eq *e, const mf_gltf *a, const mf_gltf *b)
{
    if (a->mesh_count != b->mesh_count) return differ(e, "mesh_count %d vs %d", (int)a->mesh_count, (int)b->mesh_count);
    for (int32_t m = 0; m < a->mesh_count; m++) {
        const mf_gltf_mesh *x = &a->meshes[m], *y = &b->meshes[m];
        if (!same_str(x->name, y->name) || x->primitive_count != y->primitive_count)
            return differ(e, "meshes[%d] name or primitive count", (int)m);
        for (int32_t i = 0; i < x->primitive_count; i++) {
            const mf_gltf_primitive *p = &x->primitives[i], *q = &y->primitives[i];
            size_t n = (size_t)p->vertex_count;
            if (p->vertex_count != q->vertex_count || p->index_count != q->index_count || p->material != q->material ||
                p->mode != q->mode)
                return differ(e, "meshes[%d].primitives[%d] counts, material or mode", (int)m, (int)i);
            if (!same_f(e, p->positions, q->positions, n * 3)) return differ(e, "meshes[%d].primitives[%d] POSITION", (int)m, (int)i);
            if (!same_f(e, p->normals, q->normals, n * 3)) return differ(e, "meshes[%d].primitives[%d] NORMAL", (int)m, (int)i);
            if (!same_f(e, p->texcoords, q->texcoords, n * 2))
                return differ(e, "meshes[%d].primitives[%d] TEXCOORD_0", (int)m, (int)i);
            if (!same_f(e, p->weights, q->weights, n * 4)) return differ(e, "meshes[%d].primitives[%d] WEIGHTS_0", (int)m, (int)i);
            if (!same_bytes(p->joints, q->joints, n * 4 * sizeof *p->joints))
                return differ(e, "meshes[%d].primitives[%d] JOINTS_0", (int)m, (int)i);
            if (!same_bytes(p->indices, q->indices, (size_t)p->index_count * sizeof *p->indices))
                return differ(e, "meshes[%d].primitives[%d] indices", (int)m, (int)i);
        }
    }
    return true;
}

static bool materials_equal(eq *e, const mf_gltf *a, const mf_gltf *b)
{
    if (a->material_count != b->material_count) return differ(e, "material_count");
    for (int32_t i = 0; i < a->material_count; i++) {
        const mf_gltf_material *x = &a->materials[i], *y = &b->materials[i];
        float fx[6] = {x->base_color[0], x->base_color[1], x->base_color[2], x->base_color[3], x->metallic, x->roughness};
        float fy[6] = {y->base_color[0], y->base_color[1], y->base_color[2], y->base_color[3], y->metallic, y->roughness};
        if (!same_str(x->name, y->name) || x->base_color_texture != y->base_color_texture ||
            x->double_sided != y->double_sided || !same_f(e, fx, fy, 6))
            return differ(e, "materials[%d]", (int)i);
    }
    if (a->texture_count != b->texture_count) return differ(e, "texture_count");
    for (int32_t i = 0; i < a->texture_count; i++)
        if (a->textures[i].image != b->textures[i].image) return differ(e, "textures[%d].source", (int)i);
    if (a->image_count != b->image_count) return differ(e, "image_count");
    for (int32_t i = 0; i < a->image_count; i++) {
        const mf_gltf_image *x = &a->images[i], *y = &b->images[i];
        const char *mx = x->mime_type ? x->mime_type : mf_gltf__sniff_image(x->data, x->size);
        const char *my = y->mime_type ? y->mime_type : mf_gltf__sniff_image(y->data, y->size);
        if (!same_str(x->name, y->name) || !same_str(mx, my) || x->size != y->size || !same_bytes(x->data, y->data, x->size))
            return differ(e, "images[%d]", (int)i);
    }
    return true;
}

static bool animations_equal(eq *e, const mf_gltf *a, const mf_gltf *b)
{
    if (a->animation_count != b->animation_count) return differ(e, "animation_count %d vs %d", (int)a->animation_count, (int)b->animation_count);
    for (int32_t i = 0; i < a->animation_count; i++) {
        const mf_gltf_animation *x = &a->animations[i], *y = &b->animations[i];
        if (!same_str(x->name, y->name) || x->channel_count != y->channel_count)
            return differ(e, "animations[%d] name or channel count", (int)i);
        for (int32_t c = 0; c < x->channel_count; c++) {
            const mf_gltf_channel *p = &x->channels[c], *q = &y->channels[c];
            if (p->node != q->node || p->path != q->path || p->interpolation != q->interpolation || p->key_count != q->key_count)
                return differ(e, "animations[%d].channels[%d] target, interpolation or key count", (int)i, (int)c);
            size_t per = (size_t)mf_gltf_path_components(p->path) * (p->interpolation == MF_GLTF_CUBICSPLINE ? 3 : 1);
            if (!same_f(e, p->times, q->times, (size_t)p->key_count)) return differ(e, "animations[%d].channels[%d] times", (int)i, (int)c);
            if (!same_f(e, p->values, q->values, (size_t)p->key_count * per))
                return differ(e, "animations[%d].channels[%d] values", (int)i, (int)c);
        }
    }
    return true;
}

bool mf_gltf_equal(const mf_gltf *a, const mf_gltf *b, float eps, char *why, size_t why_size)
{
    eq e = {eps, why, why_size};
    if (why && why_size) why[0] = '\0';
    if (!a || !b) return (a == b) || differ(&e, "one model is NULL");
    return nodes_equal(&e, a, b) && skins_equal(&e, a, b) && meshes_equal(&e, a, b) && materials_equal(&e, a, b) &&
           animations_equal(&e, a, b);
}
