/* glTF reader, scene parts: images, textures, materials, meshes, nodes, skins and scenes. */
#include <math.h>
#include <string.h>

#include "gltf_read.h"
#include "util/suggest.h"

static const cJSON *arr_of(gltf_reader *r, const cJSON *root, const char *key, int32_t *n)
{
    const cJSON *arr;
    *n = 0;
    if (!rd_array(r, root, key, &arr) || !arr) return NULL;
    *n = cJSON_GetArraySize(arr);
    return arr;
}

static void *alloc_n(gltf_reader *r, size_t n, size_t size)
{
    void *p = mf_arena_alloc(r->a, n * size);
    if (!p) rd_fail_kind(r, MF_ERR_NOMEM, "out of memory");
    return p;
}

/* per-node scratch marks (-1: unmarked) for duplicate checks in linear time */
static void reset_marks(gltf_reader *r)
{
    for (int32_t i = 0; i < r->g->node_count; i++) r->mark[i] = -1;
}

/* ---- images, textures, materials ---------------------------------------------------------- */

static bool rd_image(gltf_reader *r, mf_gltf_image *im, const cJSON *o)
{
    if (!mf_jr_expect_object(&r->jr, o)) return false;
    char *uri, *mime;
    int32_t view;
    if (!rd_name(r, o, &im->name) || !mf_jr_string(&r->jr, r->a, o, "uri", NULL, &uri) ||
        !mf_jr_string(&r->jr, r->a, o, "mimeType", NULL, &mime) ||
        !rd_index(r, o, "bufferView", r->view_count, "bufferView", &view))
        return false;
    if (uri && view >= 0) return mf_jr_fail(&r->jr, "both \"uri\" and \"bufferView\" (give one)");
    if (!uri && view < 0) return mf_jr_fail(&r->jr, "neither \"uri\" nor \"bufferView\"");
    const uint8_t *data;
    size_t size;
    char *uri_mime = NULL;
    if (uri) {
        size_t m = mf_jr_key(&r->jr, "uri");
        if (!rd_uri(r, uri, &data, &size, &uri_mime)) return false;
        mf_jr_pop(&r->jr, m);
    } else {
        if (!mime) return mf_jr_fail(&r->jr, "missing \"mimeType\" (required with \"bufferView\")");
        const rd_view *v = &r->views[view];
        data = r->buffers[v->buffer].data + v->offset;
        size = v->length;
    }
    if (!size) return mf_jr_fail(&r->jr, "the image has no bytes");
    /* keep a copy: external files are freed after parsing */
    im->data = alloc_n(r, size, 1);
    if (!im->data) return false;
    memcpy(im->data, data, size);
    im->size = size;
    const char *sniffed = mf_gltf__sniff_image(im->data, size);
    im->mime_type = mime ? mime : uri_mime && strncmp(uri_mime, "image/", 6) == 0 ? uri_mime
                                                                                 : sniffed ? mf_arena_strdup(r->a, sniffed) : NULL;
    if (!im->mime_type) return mf_jr_fail(&r->jr, "unknown image type (no \"mimeType\" and the bytes are not PNG or JPEG)");
    return true;
}

bool rd_images(gltf_reader *r, const cJSON *root)
{
    mf_gltf *g = r->g;
    int32_t n;
    const cJSON *arr = arr_of(r, root, "images", &n);
    if (r->jr.failed || !(g->images = alloc_n(r, (size_t)n, sizeof *g->images))) return false;
    g->image_count = n;
    size_t m = mf_jr_key(&r->jr, "images");
    int i = 0;
    for (const cJSON *o = arr ? arr->child : NULL; o; o = o->next, i++) {
        size_t mi = mf_jr_index(&r->jr, i);
        if (!rd_image(r, &g->images[i], o)) return false;
        mf_jr_pop(&r->jr, mi);
    }
    mf_jr_pop(&r->jr, m);

    arr = arr_of(r, root, "textures", &n);
    if (r->jr.failed || !(g->textures = alloc_n(r, (size_t)n, sizeof *g->textures))) return false;
    g->texture_count = n;
    m = mf_jr_key(&r->jr, "textures");
    i = 0;
    for (const cJSON *o = arr ? arr->child : NULL; o; o = o->next, i++) {
        size_t mi = mf_jr_index(&r->jr, i);
        if (!mf_jr_expect_object(&r->jr, o) ||
            !rd_index(r, o, "source", g->image_count, "image", &g->textures[i].image))
            return false;
        mf_jr_pop(&r->jr, mi);
    }
    mf_jr_pop(&r->jr, m);
    return true;
}

static bool unit_range(gltf_reader *r, const char *key, const float *v, int n)
{
    for (int i = 0; i < n; i++)
        if (v[i] < 0 || v[i] > 1) {
            size_t m = mf_jr_key(&r->jr, key);
            if (n > 1) mf_jr_index(&r->jr, i);
            (void)m;
            return mf_jr_fail(&r->jr, "must be from 0 to 1, got %g", (double)v[i]);
        }
    return true;
}

static bool rd_material(gltf_reader *r, mf_gltf_material *mt, const cJSON *o)
{
    if (!mf_jr_expect_object(&r->jr, o) || !rd_name(r, o, &mt->name) ||
        !mf_jr_bool(&r->jr, o, "doubleSided", false, &mt->double_sided))
        return false;
    for (int k = 0; k < 4; k++) mt->base_color[k] = 1;
    mt->metallic = mt->roughness = 1;
    mt->base_color_texture = -1;
    const cJSON *pbr = cJSON_GetObjectItemCaseSensitive(o, "pbrMetallicRoughness");
    if (!pbr) return true;
    size_t m = mf_jr_key(&r->jr, "pbrMetallicRoughness");
    if (!mf_jr_expect_object(&r->jr, pbr) || !rd_floats(r, pbr, "baseColorFactor", mt->base_color, 4, NULL) ||
        !unit_range(r, "baseColorFactor", mt->base_color, 4) ||
        !mf_jr_float(&r->jr, pbr, "metallicFactor", 1, &mt->metallic) ||
        !unit_range(r, "metallicFactor", &mt->metallic, 1) ||
        !mf_jr_float(&r->jr, pbr, "roughnessFactor", 1, &mt->roughness) ||
        !unit_range(r, "roughnessFactor", &mt->roughness, 1))
        return false;
    const cJSON *tex = cJSON_GetObjectItemCaseSensitive(pbr, "baseColorTexture");
    if (tex) {
        size_t mt2 = mf_jr_key(&r->jr, "baseColorTexture");
        if (!mf_jr_expect_object(&r->jr, tex)) return false;
        if (!cJSON_GetObjectItemCaseSensitive(tex, "index")) return mf_jr_fail(&r->jr, "missing \"index\"");
        if (!rd_index(r, tex, "index", r->g->texture_count, "texture", &mt->base_color_texture)) return false;
        mf_jr_pop(&r->jr, mt2);
    }
    mf_jr_pop(&r->jr, m);
    return true;
}

bool rd_materials(gltf_reader *r, const cJSON *root)
{
    mf_gltf *g = r->g;
    int32_t n;
    const cJSON *arr = arr_of(r, root, "materials", &n);
    if (r->jr.failed || !(g->materials = alloc_n(r, (size_t)n, sizeof *g->materials))) return false;
    g->material_count = n;
    size_t m = mf_jr_key(&r->jr, "materials");
    int i = 0;
    for (const cJSON *o = arr ? arr->child : NULL; o; o = o->next, i++) {
        size_t mi = mf_jr_index(&r->jr, i);
        if (!rd_material(r, &g->materials[i], o)) return false;
        mf_jr_pop(&r->jr, mi);
    }
    mf_jr_pop(&r->jr, m);
    return true;
}

/* ---- meshes ------------------------------------------------------------------------------- */

static const char *const k_vec2[] = {"VEC2", NULL}, *const k_vec3[] = {"VEC3", NULL},
                         *const k_vec4[] = {"VEC4", NULL}, *const k_scalar[] = {"SCALAR", NULL};
static const int32_t k_float[] = {GL_FLOAT, 0};
static const int32_t k_float_u8_u16[] = {GL_FLOAT, GL_UNSIGNED_BYTE, GL_UNSIGNED_SHORT, 0};
static const int32_t k_u8_u16[] = {GL_UNSIGNED_BYTE, GL_UNSIGNED_SHORT, 0};
static const int32_t k_index[] = {GL_UNSIGNED_BYTE, GL_UNSIGNED_SHORT, GL_UNSIGNED_INT, 0};
static const int32_t k_quant_all[] = {GL_FLOAT, GL_BYTE, GL_UNSIGNED_BYTE, GL_SHORT, GL_UNSIGNED_SHORT, 0};
static const int32_t k_quant_normal[] = {GL_FLOAT, GL_BYTE, GL_SHORT, 0};

/* glTF's semantics beyond the five kept here, and application ones ("_FOO") */
static bool known_semantic(const char *s)
{
    static const char *const prefixes[] = {"TEXCOORD_", "COLOR_", "JOINTS_", "WEIGHTS_", NULL};
    if (s[0] == '_' || strcmp(s, "TANGENT") == 0) return true;
    for (int i = 0; prefixes[i]; i++) {
        size_t n = strlen(prefixes[i]);
        if (strncmp(s, prefixes[i], n) != 0 || !s[n]) continue;
        const char *d = s + n;
        while (*d >= '0' && *d <= '9') d++;
        return *d == '\0' && (s[n] != '0' || !s[n + 1]); /* a set index without leading zeros */
    }
    return false;
}

/* one attribute: checks its accessor for the semantic, decodes it */
static bool rd_attribute(gltf_reader *r, mf_gltf_primitive *pr, const char *sem, int32_t acc)
{
    const char *const *types;
    const int32_t *comps;
    int norm;
    if (strcmp(sem, "POSITION") == 0) {
        types = k_vec3, comps = r->quantized ? k_quant_all : k_float, norm = -1;
    } else if (strcmp(sem, "NORMAL") == 0) {
        types = k_vec3, comps = r->quantized ? k_quant_normal : k_float, norm = 1;
    } else if (strcmp(sem, "TEXCOORD_0") == 0) {
        types = k_vec2, comps = r->quantized ? k_quant_all : k_float_u8_u16, norm = r->quantized ? -1 : 1;
    } else if (strcmp(sem, "JOINTS_0") == 0) {
        types = k_vec4, comps = k_u8_u16, norm = 0;
    } else if (strcmp(sem, "WEIGHTS_0") == 0) {
        types = k_vec4, comps = k_float_u8_u16, norm = 1;
    } else if (known_semantic(sem)) {
        return true; /* other semantics are checked for range only and not kept */
    } else {
        static const char *const names[] = {"POSITION", "NORMAL", "TANGENT", "TEXCOORD_0", "TEXCOORD_1", "COLOR_0",
                                            "JOINTS_0", "WEIGHTS_0", NULL};
        char sfx[128];
        mf_suggest_suffix(sfx, sizeof sfx, mf_suggest_list(sem, names));
        return mf_jr_fail(&r->jr, "unknown attribute \"%.40s\"%s (custom ones start with '_')", sem, sfx);
    }
    if (!rd_accessor_is(r, acc, types, comps, norm)) return false;
    const rd_accessor *ac = &r->acc[acc];
    if (ac->view >= 0 && (ac->offset % 4 || ac->stride % 4))
        return mf_jr_fail(&r->jr, "accessor %d: vertex attributes must be 4-byte aligned (byteOffset %zu, stride %zu)",
                          (int)acc, ac->offset, ac->stride);
    if (strcmp(sem, "JOINTS_0") == 0) return (pr->joints = (uint16_t *)rd_accessor_u16(r, acc)) != NULL;
    float *f = (float *)rd_accessor_f32(r, acc);
    if (!f) return false;
    switch (sem[0]) {
    case 'P': pr->positions = f; break;
    case 'N': pr->normals = f; break;
    case 'T': pr->texcoords = f; break;
    default: pr->weights = f; break;
    }
    return true;
}

static bool rd_primitive(gltf_reader *r, mf_gltf_primitive *pr, const cJSON *o)
{
    if (!mf_jr_expect_object(&r->jr, o)) return false;
    const cJSON *attrs = cJSON_GetObjectItemCaseSensitive(o, "attributes");
    if (!attrs) return mf_jr_fail(&r->jr, "missing \"attributes\"");
    if (!mf_jr_int(&r->jr, o, "mode", MF_GLTF_TRIANGLES, &pr->mode) ||
        !rd_index(r, o, "material", r->g->material_count, "material", &pr->material))
        return false;
    if (pr->mode < 0 || pr->mode > 6) return mf_jr_fail_at(&r->jr, "mode", "must be 0 to 6, got %d", (int)pr->mode);
    size_t m = mf_jr_key(&r->jr, "attributes");
    if (!mf_jr_expect_object(&r->jr, attrs)) return false;
    if (!attrs->child) return mf_jr_fail(&r->jr, "no attributes (a primitive needs at least one)");
    const char *first = NULL;
    for (const cJSON *a = attrs->child; a; a = a->next) {
        int32_t acc;
        if (!rd_index(r, attrs, a->string, r->accessor_count, "accessor", &acc)) return false;
        size_t ma = mf_jr_key(&r->jr, a->string);
        int32_t count = r->acc[acc].count;
        if (!first) {
            first = a->string;
            pr->vertex_count = count;
        } else if (count != pr->vertex_count) {
            return mf_jr_fail(&r->jr, "accessor %d has %d elements but %s has %d (attributes must have the same count)",
                              (int)acc, (int)count, first, (int)pr->vertex_count);
        }
        if (!rd_attribute(r, pr, a->string, acc)) return false;
        mf_jr_pop(&r->jr, ma);
    }
    if (!pr->joints != !pr->weights)
        return mf_jr_fail(&r->jr, "JOINTS_0 and WEIGHTS_0 must be given together");
    if (!pr->positions)
        return rd_fail_kind(r, MF_ERR_UNSUPPORTED, "no POSITION (primitives without positions are not supported)");
    mf_jr_pop(&r->jr, m);
    int32_t idx;
    if (!rd_index(r, o, "indices", r->accessor_count, "accessor", &idx)) return false;
    int32_t elements = pr->vertex_count;
    if (idx >= 0) {
        size_t mi = mf_jr_key(&r->jr, "indices");
        if (!rd_accessor_is(r, idx, k_scalar, k_index, 0)) return false;
        pr->index_count = r->acc[idx].count;
        pr->indices = (uint32_t *)rd_accessor_u32(r, idx);
        if (!pr->indices) return false;
        for (int32_t i = 0; i < pr->index_count; i++)
            if (pr->indices[i] >= (uint32_t)pr->vertex_count)
                return mf_jr_fail(&r->jr, "index %d is %u, past the %d vertices", (int)i, pr->indices[i],
                                  (int)pr->vertex_count);
        mf_jr_pop(&r->jr, mi);
        elements = pr->index_count;
    }
    if ((pr->mode == MF_GLTF_TRIANGLES && elements % 3) || (pr->mode == MF_GLTF_LINES && elements % 2))
        return mf_jr_fail(&r->jr, "%d %s do not make whole %s", (int)elements, idx >= 0 ? "indices" : "vertices",
                          pr->mode == MF_GLTF_TRIANGLES ? "triangles" : "lines");
    return true;
}

bool rd_meshes(gltf_reader *r, const cJSON *root)
{
    mf_gltf *g = r->g;
    int32_t n;
    const cJSON *arr = arr_of(r, root, "meshes", &n);
    if (r->jr.failed || !(g->meshes = alloc_n(r, (size_t)n, sizeof *g->meshes))) return false;
    g->mesh_count = n;
    size_t m = mf_jr_key(&r->jr, "meshes");
    int i = 0;
    for (const cJSON *o = arr ? arr->child : NULL; o; o = o->next, i++) {
        size_t mi = mf_jr_index(&r->jr, i);
        mf_gltf_mesh *mesh = &g->meshes[i];
        if (!mf_jr_expect_object(&r->jr, o) || !rd_name(r, o, &mesh->name)) return false;
        const cJSON *prims = cJSON_GetObjectItemCaseSensitive(o, "primitives");
        if (!prims) return mf_jr_fail(&r->jr, "missing \"primitives\"");
        size_t mp = mf_jr_key(&r->jr, "primitives");
        if (!mf_jr_expect_array(&r->jr, prims)) return false;
        int32_t pc = cJSON_GetArraySize(prims);
        if (pc < 1) return mf_jr_fail(&r->jr, "empty (a mesh needs at least one primitive)");
        if (!(mesh->primitives = alloc_n(r, (size_t)pc, sizeof *mesh->primitives))) return false;
        mesh->primitive_count = pc;
        int j = 0;
        for (const cJSON *p = prims->child; p; p = p->next, j++) {
            size_t mj = mf_jr_index(&r->jr, j);
            if (!rd_primitive(r, &mesh->primitives[j], p)) return false;
            mf_jr_pop(&r->jr, mj);
        }
        mf_jr_pop(&r->jr, mp);
        mf_jr_pop(&r->jr, mi);
    }
    mf_jr_pop(&r->jr, m);
    return true;
}

/* ---- nodes -------------------------------------------------------------------------------- */

static bool rd_matrix(gltf_reader *r, mf_gltf_node *nd, const float *m16)
{
    mf_mat4 m;
    memcpy(m.m, m16, sizeof m.m);
    if (m.m[3] != 0 || m.m[7] != 0 || m.m[11] != 0 || m.m[15] != 1)
        return mf_jr_fail_at(&r->jr, "matrix", "the last row must be 0, 0, 0, 1 (an affine transform)");
    mf_mat4_to_trs(&m, &nd->translation, &nd->rotation, &nd->scale);
    if (!isfinite(nd->scale.x) || !isfinite(nd->scale.y) || !isfinite(nd->scale.z))
        return mf_jr_fail_at(&r->jr, "matrix", "values too large to decompose");
    mf_mat4 back = mf_mat4_from_trs(nd->translation, nd->rotation, nd->scale);
    float big = 1;
    for (int i = 0; i < 16; i++) big = fmaxf(big, fabsf(m.m[i]));
    for (int i = 0; i < 16; i++)
        if (fabsf(back.m[i] - m.m[i]) > 1e-3f * big)
            return mf_jr_fail_at(&r->jr, "matrix", "not decomposable into translation, rotation and scale (it has shear)");
    return true;
}

static bool rd_node(gltf_reader *r, mf_gltf_node *nd, const cJSON *o, int32_t node_count, int32_t skin_count)
{
    if (!mf_jr_expect_object(&r->jr, o) || !rd_name(r, o, &nd->name) ||
        !rd_index(r, o, "mesh", r->g->mesh_count, "mesh", &nd->mesh) ||
        !rd_index(r, o, "skin", skin_count, "skin", &nd->skin))
        return false;
    nd->scale = mf_v3(1, 1, 1);
    nd->rotation = mf_quat_identity();
    float t[3], q[4], s[3], mat[16];
    bool ht, hq, hs, hm;
    if (!rd_floats(r, o, "translation", t, 3, &ht) || !rd_floats(r, o, "rotation", q, 4, &hq) ||
        !rd_floats(r, o, "scale", s, 3, &hs) || !rd_floats(r, o, "matrix", mat, 16, &hm))
        return false;
    if (hm && (ht || hq || hs))
        return mf_jr_fail_at(&r->jr, "matrix", "given together with %s (use one or the other)",
                             ht ? "translation" : hq ? "rotation" : "scale");
    if (hm && !rd_matrix(r, nd, mat)) return false;
    if (ht) nd->translation = mf_v3(t[0], t[1], t[2]);
    if (hs) nd->scale = mf_v3(s[0], s[1], s[2]);
    if (hq) {
        float len = sqrtf(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
        if (fabsf(len - 1) > 0.01f)
            return mf_jr_fail_at(&r->jr, "rotation", "not a unit quaternion (length %g)", (double)len);
        nd->rotation = mf_quat_normalize((mf_quat){q[0], q[1], q[2], q[3]});
    }
    if (nd->skin >= 0 && nd->mesh < 0) return mf_jr_fail_at(&r->jr, "skin", "a node with a skin needs a mesh");
    const cJSON *ch;
    if (!rd_array(r, o, "children", &ch)) return false;
    if (ch) {
        int32_t n = cJSON_GetArraySize(ch);
        if (n < 1) return mf_jr_fail_at(&r->jr, "children", "empty (leave it out instead)");
        if (!(nd->children = alloc_n(r, (size_t)n, sizeof *nd->children))) return false;
        nd->child_count = n;
        size_t m = mf_jr_key(&r->jr, "children");
        int i = 0;
        for (const cJSON *c = ch->child; c; c = c->next, i++) {
            size_t mi = mf_jr_index(&r->jr, i);
            if (!mf_jr_value_int(&r->jr, c, &nd->children[i])) return false;
            if (nd->children[i] < 0 || nd->children[i] >= node_count)
                return mf_jr_fail(&r->jr, "node %d out of range (%d nodes)", (int)nd->children[i], (int)node_count);
            mf_jr_pop(&r->jr, mi);
        }
        mf_jr_pop(&r->jr, m);
    }
    return true;
}

bool rd_nodes(gltf_reader *r, const cJSON *root)
{
    mf_gltf *g = r->g;
    int32_t n, skin_count;
    arr_of(r, root, "skins", &skin_count);
    const cJSON *arr = arr_of(r, root, "nodes", &n);
    if (r->jr.failed || !(g->nodes = alloc_n(r, (size_t)n, sizeof *g->nodes))) return false;
    g->node_count = n;
    size_t m = mf_jr_key(&r->jr, "nodes");
    int i = 0;
    for (const cJSON *o = arr ? arr->child : NULL; o; o = o->next, i++) {
        size_t mi = mf_jr_index(&r->jr, i);
        if (!rd_node(r, &g->nodes[i], o, n, skin_count)) return false;
        mf_jr_pop(&r->jr, mi);
    }
    mf_jr_pop(&r->jr, m);
    if (!(r->mark = alloc_n(r, (size_t)n * 3, sizeof *r->mark))) return false; /* 3: animations */
    mf_gltf_problem p;
    if (!mf_gltf__link_tree(g->nodes, n, &p)) return rd_fail_path(r, p.where, "%s", p.message);
    return true;
}

/* ---- skins -------------------------------------------------------------------------------- */

static bool is_ancestor_or_self(const mf_gltf *g, int32_t anc, int32_t node)
{
    for (int32_t q = node; q >= 0; q = g->nodes[q].parent)
        if (q == anc) return true;
    return false;
}

static bool rd_skin(gltf_reader *r, mf_gltf_skin *sk, const cJSON *o)
{
    mf_gltf *g = r->g;
    int32_t ibm;
    if (!mf_jr_expect_object(&r->jr, o) || !rd_name(r, o, &sk->name) ||
        !rd_index(r, o, "skeleton", g->node_count, "node", &sk->skeleton) ||
        !rd_index(r, o, "inverseBindMatrices", r->accessor_count, "accessor", &ibm))
        return false;
    const cJSON *joints = cJSON_GetObjectItemCaseSensitive(o, "joints");
    if (!joints) return mf_jr_fail(&r->jr, "missing \"joints\"");
    size_t m = mf_jr_key(&r->jr, "joints");
    if (!mf_jr_expect_array(&r->jr, joints)) return false;
    int32_t n = cJSON_GetArraySize(joints);
    if (n < 1) return mf_jr_fail(&r->jr, "empty (a skin needs at least one joint)");
    reset_marks(r);
    if (!(sk->joints = alloc_n(r, (size_t)n, sizeof *sk->joints))) return false;
    sk->joint_count = n;
    int i = 0;
    for (const cJSON *j = joints->child; j; j = j->next, i++) {
        size_t mi = mf_jr_index(&r->jr, i);
        int32_t v;
        if (!mf_jr_value_int(&r->jr, j, &v)) return false;
        if (v < 0 || v >= g->node_count)
            return mf_jr_fail(&r->jr, "node %d out of range (%d nodes)", (int)v, (int)g->node_count);
        if (r->mark[v] >= 0) return mf_jr_fail(&r->jr, "node %d is already joint %d", (int)v, (int)r->mark[v]);
        r->mark[v] = i;
        if (sk->skeleton >= 0 && !is_ancestor_or_self(g, sk->skeleton, v))
            return mf_jr_fail(&r->jr, "node %d is not under the skin's skeleton node %d", (int)v, (int)sk->skeleton);
        sk->joints[i] = v;
        mf_jr_pop(&r->jr, mi);
    }
    mf_jr_pop(&r->jr, m);
    if (ibm >= 0) {
        static const char *const k_mat4[] = {"MAT4", NULL};
        size_t mb = mf_jr_key(&r->jr, "inverseBindMatrices");
        if (!rd_accessor_is(r, ibm, k_mat4, k_float, -1)) return false;
        if (r->acc[ibm].count < n)
            return mf_jr_fail(&r->jr, "accessor %d has %d matrices for %d joints", (int)ibm, (int)r->acc[ibm].count,
                              (int)n);
        if (!(sk->inverse_bind_matrices = (float *)rd_accessor_f32(r, ibm))) return false;
        mf_jr_pop(&r->jr, mb);
    }
    return true;
}

bool rd_skins(gltf_reader *r, const cJSON *root)
{
    mf_gltf *g = r->g;
    int32_t n;
    const cJSON *arr = arr_of(r, root, "skins", &n);
    if (r->jr.failed || !(g->skins = alloc_n(r, (size_t)n, sizeof *g->skins))) return false;
    g->skin_count = n;
    size_t m = mf_jr_key(&r->jr, "skins");
    int i = 0;
    for (const cJSON *o = arr ? arr->child : NULL; o; o = o->next, i++) {
        size_t mi = mf_jr_index(&r->jr, i);
        if (!rd_skin(r, &g->skins[i], o)) return false;
        mf_jr_pop(&r->jr, mi);
    }
    mf_jr_pop(&r->jr, m);
    /* a skinned mesh's joint indices must name joints of the skin it is drawn with */
    for (int32_t k = 0; k < g->node_count; k++) {
        const mf_gltf_node *nd = &g->nodes[k];
        if (nd->skin < 0 || nd->mesh < 0) continue;
        const mf_gltf_mesh *mesh = &g->meshes[nd->mesh];
        int32_t jc = g->skins[nd->skin].joint_count;
        for (int32_t p = 0; p < mesh->primitive_count; p++) {
            const mf_gltf_primitive *pr = &mesh->primitives[p];
            for (int64_t v = 0; pr->joints && v < (int64_t)pr->vertex_count * 4; v++)
                if (pr->joints[v] >= jc) {
                    char where[64];
                    snprintf(where, sizeof where, "nodes[%d].skin", (int)k);
                    return rd_fail_path(r, where,
                                        "mesh %d primitive %d vertex %d uses joint %u but skin %d has %d joints",
                                        (int)nd->mesh, (int)p, (int)(v / 4), pr->joints[v], (int)nd->skin, (int)jc);
                }
        }
    }
    return true;
}

/* ---- scenes ------------------------------------------------------------------------------- */

bool rd_scenes(gltf_reader *r, const cJSON *root)
{
    mf_gltf *g = r->g;
    int32_t n, def;
    const cJSON *arr = arr_of(r, root, "scenes", &n);
    if (!rd_index(r, root, "scene", n, "scene", &def)) return false;
    if (def < 0 && n > 0) def = 0;
    size_t m = mf_jr_key(&r->jr, "scenes");
    int i = 0;
    for (const cJSON *o = arr ? arr->child : NULL; o; o = o->next, i++) {
        size_t mi = mf_jr_index(&r->jr, i);
        const cJSON *nodes;
        if (!mf_jr_expect_object(&r->jr, o) || !rd_array(r, o, "nodes", &nodes)) return false;
        int32_t c = nodes ? cJSON_GetArraySize(nodes) : 0;
        int32_t *list = alloc_n(r, (size_t)c, sizeof *list);
        if (!list) return false;
        reset_marks(r);
        size_t mn = mf_jr_key(&r->jr, "nodes");
        int j = 0;
        for (const cJSON *e = nodes ? nodes->child : NULL; e; e = e->next, j++) {
            size_t mj = mf_jr_index(&r->jr, j);
            if (!mf_jr_value_int(&r->jr, e, &list[j])) return false;
            if (list[j] < 0 || list[j] >= g->node_count)
                return mf_jr_fail(&r->jr, "node %d out of range (%d nodes)", (int)list[j], (int)g->node_count);
            if (g->nodes[list[j]].parent >= 0)
                return mf_jr_fail(&r->jr, "node %d is not a root (its parent is node %d)", (int)list[j],
                                  (int)g->nodes[list[j]].parent);
            if (r->mark[list[j]] >= 0) return mf_jr_fail(&r->jr, "node %d is listed twice", (int)list[j]);
            r->mark[list[j]] = j;
            mf_jr_pop(&r->jr, mj);
        }
        mf_jr_pop(&r->jr, mn);
        if (i == def) {
            g->scene_nodes = list;
            g->scene_node_count = c;
        }
        mf_jr_pop(&r->jr, mi);
    }
    mf_jr_pop(&r->jr, m);
    return true;
}
