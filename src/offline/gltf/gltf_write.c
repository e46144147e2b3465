/* glTF writer: the typed model → one JSON document and one binary buffer (a GLB BIN chunk, or
 * a base64 data: URI in a .gltf). Every accessor gets its own 4-byte aligned buffer view;
 * identical data is stored once. Output depends only on the model, so it is reproducible. */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gltf_internal.h"
#include "util/buf.h"
#include "util/files.h"

typedef struct acc_key {
    uint64_t hash;
    size_t offset, size;    /* the bytes in bin */
    int32_t count, comp, target;
    const char *type;
    bool bounded;           /* written with min/max */
    int32_t index;
} acc_key;

typedef struct writer {
    mf_buf accessors, views;
    int32_t accessor_count;
    uint8_t *bin;
    size_t bin_len, bin_cap;
    acc_key *keys;
    bool oom;
} writer;

/* ---- binary data -------------------------------------------------------------------------- */

static bool bin_reserve(writer *w, size_t extra)
{
    if (w->oom) return false;
    if (w->bin_len + extra <= w->bin_cap) return true;
    size_t cap = w->bin_cap ? w->bin_cap : 4096;
    while (cap < w->bin_len + extra) {
        if (cap > SIZE_MAX / 2) {
            w->oom = true;
            return false;
        }
        cap *= 2;
    }
    uint8_t *p = realloc(w->bin, cap);
    if (!p) {
        w->oom = true;
        return false;
    }
    w->bin = p;
    w->bin_cap = cap;
    return true;
}

static void put_u8(writer *w, uint8_t v) { w->bin[w->bin_len++] = v; }
static void put_u16(writer *w, uint16_t v)
{
    put_u8(w, (uint8_t)v);
    put_u8(w, (uint8_t)(v >> 8));
}
static void put_u32(writer *w, uint32_t v)
{
    put_u16(w, (uint16_t)v);
    put_u16(w, (uint16_t)(v >> 16));
}
static void put_f32(writer *w, float f)
{
    uint32_t bits;
    memcpy(&bits, &f, sizeof bits);
    put_u32(w, bits);
}

static uint64_t fnv1a(const uint8_t *p, size_t n)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 1099511628211ull;
    return h;
}

/* Writes the accessor for the bytes just appended at [start, bin_len), or reuses an equal one
 * (the new bytes are then dropped). min/max (ncomp floats each) may be NULL. */
static int32_t finish_accessor(writer *w, size_t start, int32_t count, int32_t comp, const char *type, int ncomp,
                               int32_t target, const float *min, const float *max)
{
    if (w->oom) return -1;
    size_t size = w->bin_len - start;
    uint64_t h = fnv1a(w->bin + start, size);
    for (int32_t i = 0; i < w->accessor_count; i++) {
        const acc_key *k = &w->keys[i];
        if (k->hash == h && k->size == size && k->count == count && k->comp == comp && k->target == target &&
            k->bounded == (min != NULL) && strcmp(k->type, type) == 0 && memcmp(w->bin + k->offset, w->bin + start, size) == 0) {
            w->bin_len = start;
            return k->index;
        }
    }
    acc_key *keys = realloc(w->keys, ((size_t)w->accessor_count + 1) * sizeof *keys);
    if (!keys) {
        w->oom = true;
        return -1;
    }
    w->keys = keys;
    int32_t index = w->accessor_count++;
    keys[index] = (acc_key){h, start, size, count, comp, target, type, min != NULL, index};
    /* one view per accessor, padded to 4 bytes so the next one stays aligned */
    mf_buf *v = &w->views;
    mf_buf_printf(v, "%s\n{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":%zu", index ? "," : "", start, size);
    if (target) mf_buf_printf(v, ",\"target\":%d", (int)target);
    mf_buf_putc(v, '}');
    mf_buf *a = &w->accessors;
    mf_buf_printf(a, "%s\n{\"bufferView\":%d,\"componentType\":%d,\"count\":%d,\"type\":\"%s\"", index ? "," : "",
                  (int)index, (int)comp, (int)count, type);
    for (int m = 0; min && m < 2; m++) {
        const float *v2 = m ? max : min;
        mf_buf_puts(a, m ? ",\"max\":[" : ",\"min\":[");
        for (int c = 0; c < ncomp; c++) {
            if (c) mf_buf_putc(a, ',');
            mf_buf_number(a, v2[c]);
        }
        mf_buf_putc(a, ']');
    }
    mf_buf_putc(a, '}');
    while (w->bin_len % 4) {
        if (!bin_reserve(w, 1)) return -1;
        put_u8(w, 0);
    }
    return index;
}

static int32_t add_floats(writer *w, const float *data, int32_t count, int ncomp, const char *type, int32_t target,
                          bool with_bounds)
{
    size_t n = (size_t)count * (size_t)ncomp, start = w->bin_len;
    if (!bin_reserve(w, n * 4)) return -1;
    float min[16], max[16];
    for (int c = 0; c < ncomp; c++) min[c] = INFINITY, max[c] = -INFINITY;
    for (size_t i = 0; i < n; i++) {
        float f = data[i] == 0 ? 0.0f : data[i]; /* -0 as 0, so bounds and bytes agree */
        put_f32(w, f);
        int c = (int)(i % (size_t)ncomp);
        min[c] = fminf(min[c], f);
        max[c] = fmaxf(max[c], f);
    }
    return finish_accessor(w, start, count, GL_FLOAT, type, ncomp, target, with_bounds ? min : NULL,
                           with_bounds ? max : NULL);
}

static int32_t add_u16(writer *w, const uint16_t *data, size_t n, int32_t count, const char *type, int32_t target)
{
    size_t start = w->bin_len;
    if (!bin_reserve(w, n * 2)) return -1;
    for (size_t i = 0; i < n; i++) put_u16(w, data[i]);
    return finish_accessor(w, start, count, GL_UNSIGNED_SHORT, type, 0, target, NULL, NULL);
}

static int32_t add_indices(writer *w, const uint32_t *idx, int32_t count, int32_t vertex_count)
{
    size_t start = w->bin_len;
    bool small = vertex_count <= 65535; /* the largest index then stays below the restart value */
    if (!bin_reserve(w, (size_t)count * 4)) return -1;
    for (int32_t i = 0; i < count; i++) {
        if (small) put_u16(w, (uint16_t)idx[i]);
        else put_u32(w, idx[i]);
    }
    return finish_accessor(w, start, count, small ? GL_UNSIGNED_SHORT : GL_UNSIGNED_INT, "SCALAR", 0,
                           GL_ELEMENT_ARRAY_BUFFER, NULL, NULL);
}

/* an image as a plain buffer view */
static int32_t add_image_view(writer *w, const mf_gltf_image *im, int32_t view_index)
{
    size_t start = w->bin_len;
    if (!bin_reserve(w, im->size + 3)) return -1;
    memcpy(w->bin + w->bin_len, im->data, im->size);
    w->bin_len += im->size;
    mf_buf_printf(&w->views, "%s\n{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":%zu}", view_index ? "," : "", start,
                  im->size);
    while (w->bin_len % 4) put_u8(w, 0);
    return view_index;
}

/* ---- JSON --------------------------------------------------------------------------------- */

static void put_floats(mf_buf *b, const char *key, const float *v, int n)
{
    mf_buf_printf(b, ",\"%s\":[", key);
    for (int i = 0; i < n; i++) {
        if (i) mf_buf_putc(b, ',');
        mf_buf_number(b, v[i]);
    }
    mf_buf_putc(b, ']');
}

/* "{" plus "name" when there is one; callers add ",key:…" and end with close_object, which
 * drops the comma right after the brace of an unnamed object */
static void open_named(mf_buf *b, const char *name)
{
    mf_buf_putc(b, '{');
    if (name) {
        mf_buf_puts(b, "\"name\":");
        mf_buf_string(b, name);
    }
}

static void close_object(mf_buf *b, size_t start)
{
    if (!b->oom && b->len > start + 1 && b->data[start + 1] == ',') {
        memmove(b->data + start + 1, b->data + start + 2, b->len - start - 2);
        b->len--;
        b->data[b->len] = '\0';
    }
    mf_buf_putc(b, '}');
}

static void put_node(mf_buf *b, const mf_gltf_node *n)
{
    size_t start = b->len;
    open_named(b, n->name);
    if (n->child_count) {
        mf_buf_puts(b, ",\"children\":[");
        for (int32_t i = 0; i < n->child_count; i++) mf_buf_printf(b, "%s%d", i ? "," : "", (int)n->children[i]);
        mf_buf_putc(b, ']');
    }
    if (n->mesh >= 0) mf_buf_printf(b, ",\"mesh\":%d", (int)n->mesh);
    if (n->skin >= 0) mf_buf_printf(b, ",\"skin\":%d", (int)n->skin);
    const float t[3] = {n->translation.x, n->translation.y, n->translation.z};
    const float r[4] = {n->rotation.x, n->rotation.y, n->rotation.z, n->rotation.w};
    const float s[3] = {n->scale.x, n->scale.y, n->scale.z};
    if (t[0] != 0 || t[1] != 0 || t[2] != 0) put_floats(b, "translation", t, 3);
    if (r[0] != 0 || r[1] != 0 || r[2] != 0 || r[3] != 1) put_floats(b, "rotation", r, 4);
    if (s[0] != 1 || s[1] != 1 || s[2] != 1) put_floats(b, "scale", s, 3);
    close_object(b, start);
}

static const char *k_path_names[] = {"translation", "rotation", "scale"};
static const char *k_interp_names[] = {"LINEAR", "STEP", "CUBICSPLINE"};

static bool write_json(const mf_gltf *g, writer *w, mf_buf *j)
{
    /* binary data first (accessors are numbered as they are added) */
    int32_t *prim_acc = NULL; /* per primitive: position, normal, texcoord, joints, weights, indices */
    int32_t prim_total = 0;
    for (int32_t m = 0; m < g->mesh_count; m++) prim_total += g->meshes[m].primitive_count;
    prim_acc = malloc(((size_t)prim_total * 6 + 1) * sizeof *prim_acc);
    int32_t *skin_acc = malloc(((size_t)g->skin_count + 1) * sizeof *skin_acc);
    int32_t chan_total = 0;
    for (int32_t a = 0; a < g->animation_count; a++) chan_total += g->animations[a].channel_count;
    int32_t *chan_acc = malloc(((size_t)chan_total * 2 + 1) * sizeof *chan_acc);
    if (!prim_acc || !skin_acc || !chan_acc) {
        free(prim_acc), free(skin_acc), free(chan_acc);
        return false;
    }
    int32_t k = 0;
    for (int32_t m = 0; m < g->mesh_count; m++)
        for (int32_t i = 0; i < g->meshes[m].primitive_count; i++, k++) {
            const mf_gltf_primitive *p = &g->meshes[m].primitives[i];
            int32_t *o = prim_acc + (size_t)k * 6, vc = p->vertex_count;
            o[0] = p->positions ? add_floats(w, p->positions, vc, 3, "VEC3", GL_ARRAY_BUFFER, true) : -1;
            o[1] = p->normals ? add_floats(w, p->normals, vc, 3, "VEC3", GL_ARRAY_BUFFER, false) : -1;
            o[2] = p->texcoords ? add_floats(w, p->texcoords, vc, 2, "VEC2", GL_ARRAY_BUFFER, false) : -1;
            o[3] = p->joints ? add_u16(w, p->joints, (size_t)vc * 4, vc, "VEC4", GL_ARRAY_BUFFER) : -1;
            o[4] = p->weights ? add_floats(w, p->weights, vc, 4, "VEC4", GL_ARRAY_BUFFER, false) : -1;
            o[5] = p->indices ? add_indices(w, p->indices, p->index_count, vc) : -1;
        }
    for (int32_t s = 0; s < g->skin_count; s++) {
        const mf_gltf_skin *sk = &g->skins[s];
        skin_acc[s] = sk->inverse_bind_matrices
                          ? add_floats(w, sk->inverse_bind_matrices, sk->joint_count, 16, "MAT4", 0, false)
                          : -1;
    }
    k = 0;
    for (int32_t a = 0; a < g->animation_count; a++)
        for (int32_t c = 0; c < g->animations[a].channel_count; c++, k++) {
            const mf_gltf_channel *ch = &g->animations[a].channels[c];
            int n = mf_gltf_path_components(ch->path);
            int32_t count = ch->key_count * (ch->interpolation == MF_GLTF_CUBICSPLINE ? 3 : 1);
            chan_acc[k * 2] = add_floats(w, ch->times, ch->key_count, 1, "SCALAR", 0, true);
            chan_acc[k * 2 + 1] = add_floats(w, ch->values, count, n, n == 4 ? "VEC4" : "VEC3", 0, false);
        }
    int32_t image_view0 = w->accessor_count; /* image views follow the accessor views */
    for (int32_t i = 0; i < g->image_count; i++) add_image_view(w, &g->images[i], image_view0 + i);

    mf_buf_puts(j, "{\"asset\":{\"generator\":");
    mf_buf_string(j, g->generator ? g->generator : "mfanim");
    mf_buf_puts(j, ",\"version\":\"2.0\"}");
    if (g->scene_node_count) {
        mf_buf_puts(j, ",\n\"scene\":0,\n\"scenes\":[{\"nodes\":[");
        for (int32_t i = 0; i < g->scene_node_count; i++) mf_buf_printf(j, "%s%d", i ? "," : "", (int)g->scene_nodes[i]);
        mf_buf_puts(j, "]}]");
    }
    if (g->node_count) {
        mf_buf_puts(j, ",\n\"nodes\":[");
        for (int32_t i = 0; i < g->node_count; i++) {
            mf_buf_puts(j, i ? ",\n" : "\n");
            put_node(j, &g->nodes[i]);
        }
        mf_buf_putc(j, ']');
    }
    if (g->mesh_count) {
        mf_buf_puts(j, ",\n\"meshes\":[");
        k = 0;
        for (int32_t m = 0; m < g->mesh_count; m++) {
            const mf_gltf_mesh *mesh = &g->meshes[m];
            mf_buf_puts(j, m ? ",\n" : "\n");
            size_t start = j->len;
            open_named(j, mesh->name);
            mf_buf_puts(j, ",\"primitives\":[");
            for (int32_t i = 0; i < mesh->primitive_count; i++, k++) {
                const mf_gltf_primitive *p = &mesh->primitives[i];
                const int32_t *o = prim_acc + (size_t)k * 6;
                static const char *const sem[5] = {"POSITION", "NORMAL", "TEXCOORD_0", "JOINTS_0", "WEIGHTS_0"};
                mf_buf_puts(j, i ? ",{\"attributes\":{" : "{\"attributes\":{");
                bool first = true;
                for (int a = 0; a < 5; a++)
                    if (o[a] >= 0) {
                        mf_buf_printf(j, "%s\"%s\":%d", first ? "" : ",", sem[a], (int)o[a]);
                        first = false;
                    }
                mf_buf_putc(j, '}');
                if (o[5] >= 0) mf_buf_printf(j, ",\"indices\":%d", (int)o[5]);
                if (p->material >= 0) mf_buf_printf(j, ",\"material\":%d", (int)p->material);
                if (p->mode != MF_GLTF_TRIANGLES) mf_buf_printf(j, ",\"mode\":%d", (int)p->mode);
                mf_buf_putc(j, '}');
            }
            mf_buf_putc(j, ']');
            close_object(j, start);
        }
        mf_buf_putc(j, ']');
    }
    if (g->skin_count) {
        mf_buf_puts(j, ",\n\"skins\":[");
        for (int32_t s = 0; s < g->skin_count; s++) {
            const mf_gltf_skin *sk = &g->skins[s];
            mf_buf_puts(j, s ? ",\n" : "\n");
            size_t start = j->len;
            open_named(j, sk->name);
            if (skin_acc[s] >= 0) mf_buf_printf(j, ",\"inverseBindMatrices\":%d", (int)skin_acc[s]);
            if (sk->skeleton >= 0) mf_buf_printf(j, ",\"skeleton\":%d", (int)sk->skeleton);
            mf_buf_puts(j, ",\"joints\":[");
            for (int32_t i = 0; i < sk->joint_count; i++) mf_buf_printf(j, "%s%d", i ? "," : "", (int)sk->joints[i]);
            mf_buf_putc(j, ']');
            close_object(j, start);
        }
        mf_buf_putc(j, ']');
    }
    if (g->material_count) {
        mf_buf_puts(j, ",\n\"materials\":[");
        for (int32_t i = 0; i < g->material_count; i++) {
            const mf_gltf_material *m = &g->materials[i];
            mf_buf_puts(j, i ? ",\n" : "\n");
            size_t start = j->len;
            open_named(j, m->name);
            mf_buf_puts(j, ",\"pbrMetallicRoughness\":{\"baseColorFactor\":[");
            for (int c = 0; c < 4; c++) {
                if (c) mf_buf_putc(j, ',');
                mf_buf_number(j, m->base_color[c]);
            }
            mf_buf_putc(j, ']');
            if (m->base_color_texture >= 0) mf_buf_printf(j, ",\"baseColorTexture\":{\"index\":%d}", (int)m->base_color_texture);
            mf_buf_puts(j, ",\"metallicFactor\":");
            mf_buf_number(j, m->metallic);
            mf_buf_puts(j, ",\"roughnessFactor\":");
            mf_buf_number(j, m->roughness);
            mf_buf_putc(j, '}');
            if (m->double_sided) mf_buf_puts(j, ",\"doubleSided\":true");
            close_object(j, start);
        }
        mf_buf_putc(j, ']');
    }
    if (g->texture_count) {
        mf_buf_puts(j, ",\n\"textures\":[");
        for (int32_t i = 0; i < g->texture_count; i++) {
            if (g->textures[i].image >= 0) mf_buf_printf(j, "%s{\"source\":%d}", i ? "," : "", (int)g->textures[i].image);
            else mf_buf_printf(j, "%s{}", i ? "," : "");
        }
        mf_buf_putc(j, ']');
    }
    if (g->image_count) {
        mf_buf_puts(j, ",\n\"images\":[");
        for (int32_t i = 0; i < g->image_count; i++) {
            const mf_gltf_image *im = &g->images[i];
            mf_buf_puts(j, i ? ",\n" : "\n");
            size_t start = j->len;
            open_named(j, im->name);
            mf_buf_printf(j, ",\"bufferView\":%d,\"mimeType\":", (int)(image_view0 + i));
            mf_buf_string(j, im->mime_type ? im->mime_type : mf_gltf__sniff_image(im->data, im->size));
            close_object(j, start);
        }
        mf_buf_putc(j, ']');
    }
    if (g->animation_count) {
        mf_buf_puts(j, ",\n\"animations\":[");
        k = 0;
        for (int32_t a = 0; a < g->animation_count; a++) {
            const mf_gltf_animation *an = &g->animations[a];
            mf_buf_puts(j, a ? ",\n" : "\n");
            size_t start = j->len;
            open_named(j, an->name);
            mf_buf_puts(j, ",\"channels\":[");
            for (int32_t c = 0; c < an->channel_count; c++)
                mf_buf_printf(j, "%s{\"sampler\":%d,\"target\":{\"node\":%d,\"path\":\"%s\"}}", c ? "," : "", (int)c,
                              (int)an->channels[c].node, k_path_names[an->channels[c].path]);
            mf_buf_puts(j, "],\"samplers\":[");
            for (int32_t c = 0; c < an->channel_count; c++, k++)
                mf_buf_printf(j, "%s{\"input\":%d,\"interpolation\":\"%s\",\"output\":%d}", c ? "," : "",
                              (int)chan_acc[k * 2], k_interp_names[an->channels[c].interpolation], (int)chan_acc[k * 2 + 1]);
            mf_buf_putc(j, ']');
            close_object(j, start);
        }
        mf_buf_putc(j, ']');
    }
    free(prim_acc), free(skin_acc), free(chan_acc);
    if (w->accessor_count) {
        mf_buf_puts(j, ",\n\"accessors\":[");
        mf_buf_putn(j, w->accessors.data, w->accessors.len);
        mf_buf_putc(j, ']');
    }
    if (w->views.len) {
        mf_buf_puts(j, ",\n\"bufferViews\":[");
        mf_buf_putn(j, w->views.data, w->views.len);
        mf_buf_putc(j, ']');
    }
    return !w->oom && !w->accessors.oom && !w->views.oom;
}

mf_result mf_gltf_write(const mf_gltf *g, bool glb, void **bytes, size_t *size, mf_diag *diag)
{
    if (bytes) *bytes = NULL;
    if (size) *size = 0;
    if (!g || !bytes || !size) {
        mf_diag_set(diag, "", "", "mf_gltf_write: NULL argument");
        return MF_ERR_ARGUMENT;
    }
    mf_result res = mf_gltf_validate(g, diag);
    if (res != MF_OK) return res;
    writer w;
    memset(&w, 0, sizeof w);
    mf_buf j = {0};
    bool ok = write_json(g, &w, &j);
    size_t bin_len = w.bin_len;
    if (ok && bin_len) {
        if (glb) {
            mf_buf_printf(&j, ",\n\"buffers\":[{\"byteLength\":%zu}]}", bin_len);
        } else {
            char *b64 = malloc((bin_len + 2) / 3 * 4 + 1);
            if (b64) {
                mf_base64_encode(w.bin, bin_len, b64);
                b64[(bin_len + 2) / 3 * 4] = '\0';
                mf_buf_printf(&j, ",\n\"buffers\":[{\"byteLength\":%zu,\"uri\":\"data:application/octet-stream;base64,", bin_len);
                mf_buf_puts(&j, b64);
                mf_buf_puts(&j, "\"}]}");
                free(b64);
            } else {
                ok = false;
            }
        }
    } else {
        mf_buf_putc(&j, '}');
    }
    mf_buf_putc(&j, '\n');
    ok = ok && !j.oom;
    uint8_t *out = NULL;
    size_t out_len = 0;
    if (ok && glb) {
        while (j.len % 4) mf_buf_putc(&j, ' ');
        size_t bin_padded = (bin_len + 3) & ~(size_t)3;
        out_len = 12 + 8 + j.len + (bin_len ? 8 + bin_padded : 0);
        if (!j.oom && out_len <= UINT32_MAX && (out = calloc(1, out_len))) {
            writer o = {.bin = out, .bin_cap = out_len};
            put_u32(&o, MF_GLB_MAGIC), put_u32(&o, 2), put_u32(&o, (uint32_t)out_len);
            put_u32(&o, (uint32_t)j.len), put_u32(&o, MF_GLB_JSON);
            memcpy(out + o.bin_len, j.data, j.len);
            o.bin_len += j.len;
            if (bin_len) {
                put_u32(&o, (uint32_t)bin_padded), put_u32(&o, MF_GLB_BIN);
                memcpy(out + o.bin_len, w.bin, bin_len); /* padding stays zero */
            }
        }
    } else if (ok) {
        out = (uint8_t *)mf_buf_take(&j, &out_len);
    }
    mf_buf_free(&j);
    mf_buf_free(&w.accessors);
    mf_buf_free(&w.views);
    free(w.bin);
    free(w.keys);
    if (!out) {
        mf_diag_set(diag, "", "", "out of memory (or over 4 GiB) writing the model");
        return MF_ERR_NOMEM;
    }
    *bytes = out;
    *size = out_len;
    return MF_OK;
}

mf_result mf_gltf_save(const mf_gltf *g, const char *path, mf_diag *diag)
{
    if (!path) {
        mf_diag_set(diag, "", "", "mf_gltf_save: NULL path");
        return MF_ERR_ARGUMENT;
    }
    size_t n = strlen(path);
    bool glb = n >= 4 && path[n - 4] == '.' && tolower((unsigned char)path[n - 3]) == 'g' &&
               tolower((unsigned char)path[n - 2]) == 'l' && tolower((unsigned char)path[n - 1]) == 'b';
    void *bytes;
    size_t size;
    mf_result res = mf_gltf_write(g, glb, &bytes, &size, diag);
    if (res != MF_OK) {
        if (diag) snprintf(diag->file, sizeof diag->file, "%s", path);
        return res;
    }
    res = mf_write_file_atomic(path, bytes, size, diag);
    free(bytes);
    return res;
}
