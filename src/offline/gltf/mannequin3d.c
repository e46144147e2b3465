/* The generated 3D mannequin: the skeleton table posed in T or A, turned into glTF nodes (with
 * Blender-style bone axes for that naming), boxes skinned rigidly to their bones, one skin with
 * exact inverse bind matrices and one base-colour material. */
#include <math.h>
#include <string.h>

#include "gltf_internal.h"
#include "mannequin3d_rig.h"

#define APOSE_DEGREES 45.0f

static uint32_t lcg(uint32_t *s)
{
    *s = *s * 1664525u + 1013904223u;
    return *s >> 8;
}

/* An orthonormal frame whose Y is dir; Z points forward (or up for bones along Z). */
static mf_quat frame_along(mf_vec3 dir, mf_vec3 *x, mf_vec3 *y, mf_vec3 *z)
{
    *y = mf_v3_normalize(dir);
    mf_vec3 ref = fabsf(y->z) > 0.7f ? mf_v3(0, 1, 0) : mf_v3(0, 0, 1);
    *z = mf_v3_normalize(mf_v3_sub(ref, mf_v3_scale(*y, mf_v3_dot(ref, *y))));
    *x = mf_v3_cross(*y, *z);
    return mf_quat_from_basis(*x, *y, *z);
}

static bool under(const m3d_layout *L, int b, int anc)
{
    for (int q = b; q >= 0; q = L->bones[q].parent)
        if (q == anc) return true;
    return false;
}

/* rest world heads, tails and rotations of every bone */
static void pose(const m3d_layout *L, mf_m3d_naming naming, mf_m3d_rest rest, mf_vec3 *head, mf_vec3 *tail, mf_quat *rot)
{
    const float a = APOSE_DEGREES * 3.14159265358979f / 180.0f;
    for (int b = 0; b < M3D_BONE_COUNT; b++) {
        head[b] = L->bones[b].head;
        tail[b] = L->bones[b].tail;
        rot[b] = mf_quat_identity();
        for (int side = 0; side < 2 && rest == MF_M3D_APOSE; side++) {
            int arm = (side ? M3D_RIGHT0 : M3D_LEFT0) + M3D_S_UPPER_ARM;
            if (!under(L, b, arm)) continue;
            /* arms down: left (+X) turns about +Z by -a, right by +a */
            mf_quat q = mf_quat_axis_angle(mf_v3(0, 0, 1), side ? a : -a);
            mf_vec3 pivot = L->bones[arm].head;
            head[b] = mf_v3_add(pivot, mf_quat_rotate(q, mf_v3_sub(head[b], pivot)));
            tail[b] = mf_v3_add(pivot, mf_quat_rotate(q, mf_v3_sub(tail[b], pivot)));
            rot[b] = q;
        }
        if (naming == MF_M3D_BLENDER) {
            mf_vec3 x, y, z;
            rot[b] = frame_along(mf_v3_sub(tail[b], head[b]), &x, &y, &z);
        }
    }
}

/* 24 vertices and 36 indices of a box around head → tail, weighted to one joint */
static void add_box(mf_gltf_primitive *p, mf_vec3 head, mf_vec3 tail, float hw, float hd, uint16_t joint)
{
    mf_vec3 x, y, z;
    frame_along(mf_v3_sub(tail, head), &x, &y, &z);
    float half_len = 0.5f * mf_v3_length(mf_v3_sub(tail, head));
    mf_vec3 c = mf_v3_scale(mf_v3_add(head, tail), 0.5f);
    mf_vec3 ax[3] = {mf_v3_scale(x, hw), mf_v3_scale(y, half_len), mf_v3_scale(z, hd)};
    static const float uv[4][2] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
    static const float su[4] = {-1, 1, 1, -1}, sv[4] = {-1, -1, 1, 1};
    for (int i = 0; i < 3; i++)
        for (int s = -1; s <= 1; s += 2) {
            mf_vec3 u = ax[(i + 1) % 3], v = ax[(i + 2) % 3];
            if (s < 0) { /* keep u × v along the outward normal */
                mf_vec3 t = u;
                u = v;
                v = t;
            }
            mf_vec3 n = mf_v3_scale(mf_v3_normalize(ax[i]), (float)s);
            mf_vec3 fc = mf_v3_add(c, mf_v3_scale(ax[i], (float)s));
            uint32_t base = (uint32_t)p->vertex_count;
            for (int k = 0; k < 4; k++) {
                mf_vec3 q = mf_v3_add(fc, mf_v3_add(mf_v3_scale(u, su[k]), mf_v3_scale(v, sv[k])));
                size_t o = (size_t)p->vertex_count++;
                p->positions[o * 3] = q.x, p->positions[o * 3 + 1] = q.y, p->positions[o * 3 + 2] = q.z;
                p->normals[o * 3] = n.x, p->normals[o * 3 + 1] = n.y, p->normals[o * 3 + 2] = n.z;
                p->texcoords[o * 2] = uv[k][0], p->texcoords[o * 2 + 1] = uv[k][1];
                p->joints[o * 4] = joint;
                p->weights[o * 4] = 1;
            }
            static const uint32_t tri[6] = {0, 1, 2, 0, 2, 3};
            for (int k = 0; k < 6; k++) p->indices[p->index_count++] = base + tri[k];
        }
}

static mf_result build(mf_gltf *g, mf_m3d_naming naming, mf_m3d_rest rest)
{
    m3d_layout L;
    mf_m3d__layout(naming, &L);
    mf_vec3 head[M3D_BONE_COUNT], tail[M3D_BONE_COUNT];
    mf_quat rot[M3D_BONE_COUNT];
    pose(&L, naming, rest, head, tail, rot);

    g->generator = mf_gltf_strdup(g, "mfanim mannequin3d");
    g->node_count = L.node_count;
    g->nodes = mf_gltf_alloc(g, (size_t)L.node_count * sizeof *g->nodes);
    if (!g->nodes || !g->generator) return MF_ERR_NOMEM;
    int joint_count = 0, box_count = 0;
    for (int i = 0; i < L.node_count; i++) {
        mf_gltf_node *n = &g->nodes[i];
        n->parent = -1;
        n->mesh = n->skin = -1;
        n->rotation = mf_quat_identity();
        n->scale = mf_v3(1, 1, 1);
        int b = L.bone_of_node[i];
        if (i == L.container) n->name = mf_gltf_strdup(g, "Armature");
        if (i == L.mesh_node) {
            n->name = mf_gltf_strdup(g, naming == MF_M3D_UNNAMED ? "Mesh" : "Body");
            n->mesh = n->skin = 0;
        }
        if (b < 0) continue;
        const m3d_bone *bone = &L.bones[b];
        if (bone->named && !(n->name = mf_gltf_strdup(g, bone->name))) return MF_ERR_NOMEM;
        int pb = bone->parent;
        n->parent = pb >= 0 ? L.node_of[pb] : L.container;
        mf_quat pr = pb >= 0 ? rot[pb] : mf_quat_identity();
        mf_vec3 ph = pb >= 0 ? head[pb] : mf_v3(0, 0, 0);
        mf_quat inv = mf_quat_conjugate(pr);
        n->translation = mf_quat_rotate(inv, mf_v3_sub(head[b], ph));
        n->rotation = mf_quat_normalize(mf_quat_mul(inv, rot[b]));
        joint_count++;
        if (bone->half_w > 0) box_count++;
    }
    /* children lists from the parents; the unnamed variant shuffles each list */
    uint32_t seed = 0x2545f491u;
    for (int i = 0; i < L.node_count; i++) {
        mf_gltf_node *n = &g->nodes[i];
        for (int k = 0; k < L.node_count; k++) n->child_count += g->nodes[k].parent == i;
        if (!n->child_count) continue;
        if (!(n->children = mf_gltf_alloc(g, (size_t)n->child_count * sizeof *n->children))) return MF_ERR_NOMEM;
        int c = 0;
        for (int k = 0; k < L.node_count; k++)
            if (g->nodes[k].parent == i) n->children[c++] = k;
        for (int k = c - 1; naming == MF_M3D_UNNAMED && k > 0; k--) {
            int j = (int)(lcg(&seed) % (uint32_t)(k + 1));
            int32_t t = n->children[k];
            n->children[k] = n->children[j];
            n->children[j] = t;
        }
    }
    int32_t root_bone = L.node_of[naming == MF_M3D_UNREAL ? M3D_ROOT : M3D_HIPS];
    g->scene_node_count = 2;
    g->scene_nodes = mf_gltf_alloc(g, 2 * sizeof *g->scene_nodes);
    if (!g->scene_nodes) return MF_ERR_NOMEM;
    g->scene_nodes[0] = L.container >= 0 ? L.container : root_bone;
    g->scene_nodes[1] = L.mesh_node;

    /* the skin: every bone in node order, inverse bind = inverse rest world matrix */
    g->skin_count = 1;
    mf_gltf_skin *sk = g->skins = mf_gltf_alloc(g, sizeof *g->skins);
    if (!sk) return MF_ERR_NOMEM;
    sk->name = mf_gltf_strdup(g, "Armature");
    sk->skeleton = root_bone;
    sk->joint_count = joint_count;
    sk->joints = mf_gltf_alloc(g, (size_t)joint_count * sizeof *sk->joints);
    sk->inverse_bind_matrices = mf_gltf_alloc(g, (size_t)joint_count * 16 * sizeof(float));
    if (!sk->joints || !sk->inverse_bind_matrices) return MF_ERR_NOMEM;
    int joint_of_bone[M3D_BONE_COUNT], j = 0;
    for (int i = 0; i < L.node_count; i++) {
        int b = L.bone_of_node[i];
        if (b < 0) continue;
        joint_of_bone[b] = j;
        sk->joints[j] = i;
        mf_mat4 w = mf_gltf_node_world(g, i), inv;
        mf_mat4_invert_affine(&w, &inv);
        memcpy(sk->inverse_bind_matrices + (size_t)j * 16, inv.m, sizeof inv.m);
        j++;
    }

    /* one mesh, one primitive: a box per bone that has a size */
    g->mesh_count = 1;
    mf_gltf_mesh *mesh = g->meshes = mf_gltf_alloc(g, sizeof *g->meshes);
    if (!mesh) return MF_ERR_NOMEM;
    mesh->name = mf_gltf_strdup(g, "Mannequin");
    mesh->primitive_count = 1;
    mf_gltf_primitive *p = mesh->primitives = mf_gltf_alloc(g, sizeof *mesh->primitives);
    if (!p) return MF_ERR_NOMEM;
    size_t nv = (size_t)box_count * 24;
    p->positions = mf_gltf_alloc(g, nv * 3 * sizeof(float));
    p->normals = mf_gltf_alloc(g, nv * 3 * sizeof(float));
    p->texcoords = mf_gltf_alloc(g, nv * 2 * sizeof(float));
    p->joints = mf_gltf_alloc(g, nv * 4 * sizeof(uint16_t));
    p->weights = mf_gltf_alloc(g, nv * 4 * sizeof(float));
    p->indices = mf_gltf_alloc(g, (size_t)box_count * 36 * sizeof(uint32_t));
    if (!p->positions || !p->normals || !p->texcoords || !p->joints || !p->weights || !p->indices) return MF_ERR_NOMEM;
    p->material = 0;
    p->mode = MF_GLTF_TRIANGLES;
    for (int i = 0; i < L.node_count; i++) {
        int b = L.bone_of_node[i];
        if (b >= 0 && L.bones[b].half_w > 0)
            add_box(p, head[b], tail[b], L.bones[b].half_w, L.bones[b].half_d, (uint16_t)joint_of_bone[b]);
    }

    g->material_count = 1;
    mf_gltf_material *mt = g->materials = mf_gltf_alloc(g, sizeof *g->materials);
    if (!mt) return MF_ERR_NOMEM;
    mt->name = mf_gltf_strdup(g, "Mannequin");
    mt->base_color[0] = 0.80f, mt->base_color[1] = 0.55f, mt->base_color[2] = 0.35f, mt->base_color[3] = 1;
    mt->metallic = 0;
    mt->roughness = 0.8f;
    mt->base_color_texture = -1;
    return MF_OK;
}

mf_result mf_mannequin3d_create(mf_m3d_naming naming, mf_m3d_rest rest, mf_gltf **out, mf_diag *diag)
{
    mf_diag_clear(diag);
    if (out) *out = NULL;
    if (!out || (unsigned)naming > MF_M3D_UNNAMED || (unsigned)rest > MF_M3D_APOSE) {
        mf_diag_set(diag, "", "", "mf_mannequin3d_create: bad argument");
        return MF_ERR_ARGUMENT;
    }
    mf_gltf *g = mf_gltf_create();
    mf_result res = g ? build(g, naming, rest) : MF_ERR_NOMEM;
    if (res == MF_OK) res = mf_gltf_validate(g, diag);
    else mf_diag_set(diag, "", "", "out of memory");
    if (res != MF_OK) {
        mf_gltf_free(g);
        return res;
    }
    *out = g;
    return MF_OK;
}
