/* The .mskel reader: one attachment of a skin, with its geometry (unweighted vertices or
 * weights), mesh topology and image sequence. */
#include <float.h>
#include <stdint.h>
#include <string.h>

#include "mskel_internal.h"
#include "util/suggest.h"

/* Keys per type, in canonical order (mf_attachment_type order). */
static const char *const region_keys[] = {"slot", "name", "displayName", "type", "image", "x", "y", "rot",
                                          "sx", "sy", "width", "height", "color", "sequence", NULL};
static const char *const mesh_keys[] = {"slot", "name", "displayName", "type", "image", "vertices", "weights",
                                        "uvs", "triangles", "hull", "edges", "width", "height", "color",
                                        "sequence", NULL};
static const char *const linked_keys[] = {"slot", "name", "displayName", "type", "parent", "skin", "image",
                                          "deform", "color", "width", "height", "sequence", NULL};
static const char *const bbox_keys[] = {"slot", "name", "displayName", "type", "vertices", "weights", "color",
                                        NULL};
static const char *const clip_keys[] = {"slot", "name", "displayName", "type", "vertices", "weights", "end",
                                        "color", NULL};
static const char *const point_keys[] = {"slot", "name", "displayName", "type", "x", "y", "rot", "color", NULL};
static const char *const path_keys[] = {"slot", "name", "displayName", "type", "vertices", "weights", "closed",
                                        "constantSpeed", "lengths", "color", NULL};
static const char *const *const type_keys[MF_ATTACH_TYPE_COUNT] = {
    region_keys, mesh_keys, linked_keys, bbox_keys, clip_keys, point_keys, path_keys};
static const char *const weight_keys[] = {"bones", "v", NULL};
static const char *const sequence_keys[] = {"count", "start", "digits", "setup", NULL};

static bool in_list(const char *const *list, const char *k)
{
    for (int i = 0; list[i]; i++)
        if (strcmp(list[i], k) == 0) return true;
    return false;
}

/* A key of another attachment type gets a clearer message than "unknown key". */
static bool check_keys(mskel_rd *rd, const cJSON *obj, mf_attachment_type type)
{
    for (const cJSON *c = obj->child; c; c = c->next) {
        if (!c->string || in_list(type_keys[type], c->string)) continue;
        for (int t = 0; t < MF_ATTACH_TYPE_COUNT; t++)
            if (in_list(type_keys[t], c->string))
                return mf_jr_fail_at(&rd->jr, c->string, "\"%s\" does not apply to a %s attachment",
                                     c->string, mf_attachment_type_name(type));
    }
    return mf_jr_keys(&rd->jr, obj, type_keys[type]);
}

static bool require(mskel_rd *rd, const cJSON *obj, const char *key)
{
    if (rd->jr.failed) return false;
    if (cJSON_GetObjectItemCaseSensitive(obj, key)) return true;
    return mf_jr_fail(&rd->jr, "missing \"%s\"", key);
}

/* One vertex's influences at path v[k]: pass 1 checks the shape, pass 2 the values. */
static bool weight_shape(mskel_rd *rd, const cJSON *e, int32_t *groups)
{
    if (!mf_jr_expect_array(&rd->jr, e)) return false;
    int n = cJSON_GetArraySize(e);
    if (n == 0 || n % 4 != 0)
        return mf_jr_fail(&rd->jr, "expected [bone, weight, x, y] groups, got %d numbers", n);
    if (n / 4 > MF_MAX_INFLUENCES)
        return mf_jr_fail(&rd->jr, "%d influences (at most %d)", n / 4, MF_MAX_INFLUENCES);
    *groups = n / 4;
    return true;
}

static bool weight_values(mskel_rd *rd, const cJSON *e, int32_t bone_count, mf_influence *infl)
{
    int i = 0;
    for (const cJSON *c = e->child; c; c = c->next, i++) {
        mf_influence *f = &infl[i / 4];
        size_t m = mf_jr_index(&rd->jr, i);
        bool ok;
        switch (i % 4) {
        case 0:
            ok = mf_jr_value_int(&rd->jr, c, &f->bone);
            if (ok && (f->bone < 0 || f->bone >= bone_count))
                ok = mf_jr_fail(&rd->jr, "bone index %d out of range (weights.bones has %d)",
                                (int)f->bone, (int)bone_count);
            break;
        case 1:
            ok = mf_jr_value_float(&rd->jr, c, &f->weight);
            if (ok && f->weight < 0) ok = mf_jr_fail(&rd->jr, "negative weight %g", (double)f->weight);
            break;
        case 2: ok = mf_jr_value_float(&rd->jr, c, &f->x); break;
        default: ok = mf_jr_value_float(&rd->jr, c, &f->y); break;
        }
        mf_jr_pop(&rd->jr, m);
        if (!ok) return false;
    }
    return true;
}

/* "weights": { "bones": [...], "v": [[bone, weight, x, y, ...] per vertex] } at the current path. */
static bool read_weights(mskel_rd *rd, const cJSON *w, mf_vertices *v)
{
    if (!mf_jr_expect_object(&rd->jr, w) || !mf_jr_keys(&rd->jr, w, weight_keys) ||
        !mskel_bone_list(rd, w, "bones", 1, INT32_MAX, &v->bones, &v->bone_count) || !require(rd, w, "v"))
        return false;
    const cJSON *arr = cJSON_GetObjectItemCaseSensitive(w, "v");
    size_t m = mf_jr_key(&rd->jr, "v");
    bool ok = mf_jr_expect_array(&rd->jr, arr);
    int n = ok ? cJSON_GetArraySize(arr) : 0;
    int32_t *first = ok ? mskel_array_alloc(rd, (size_t)n + 1, sizeof *first) : NULL;
    int k = 0;
    for (const cJSON *e = first ? arr->child : NULL; e && ok; e = e->next, k++) {
        size_t mk = mf_jr_index(&rd->jr, k);
        int32_t groups = 0;
        ok = weight_shape(rd, e, &groups);
        first[k + 1] = first[k] + groups;
        mf_jr_pop(&rd->jr, mk);
    }
    mf_influence *infl = ok && first ? mskel_array_alloc(rd, (size_t)first[n], sizeof *infl) : NULL;
    k = 0;
    for (const cJSON *e = infl ? arr->child : NULL; e && ok; e = e->next, k++) {
        size_t mk = mf_jr_index(&rd->jr, k);
        ok = weight_values(rd, e, v->bone_count, infl + first[k]);
        mf_jr_pop(&rd->jr, mk);
    }
    mf_jr_pop(&rd->jr, m);
    if (!ok || !infl) return false;
    v->count = n;
    v->first = first;
    v->infl = infl;
    return true;
}

/* "vertices" or "weights" (exactly one). */
static bool read_geometry(mskel_rd *rd, const cJSON *obj, mf_vertices *v)
{
    if (rd->jr.failed) return false;
    const cJSON *xy = cJSON_GetObjectItemCaseSensitive(obj, "vertices");
    const cJSON *w = cJSON_GetObjectItemCaseSensitive(obj, "weights");
    if (xy && w) return mf_jr_fail(&rd->jr, "has both \"vertices\" and \"weights\" (give one)");
    if (!xy && !w) return mf_jr_fail(&rd->jr, "missing \"vertices\" or \"weights\"");
    size_t m = mf_jr_key(&rd->jr, xy ? "vertices" : "weights");
    bool ok;
    if (xy) {
        int32_t n = 0;
        ok = mf_jr_expect_array(&rd->jr, xy) && mskel_floats(rd, xy, &v->xy, &n);
        if (ok && n % 2 != 0) ok = mf_jr_fail(&rd->jr, "%d numbers: expected x, y pairs", (int)n);
        v->count = n / 2;
    } else {
        ok = read_weights(rd, w, v);
    }
    mf_jr_pop(&rd->jr, m);
    return ok;
}

static const char *geometry_key(const mf_vertices *v) { return v->xy ? "vertices" : "weights.v"; }

static bool read_sequence(mskel_rd *rd, const cJSON *obj, mf_sequence *seq)
{
    const cJSON *s = mskel_get_object(rd, obj, "sequence");
    if (!s) return !rd->jr.failed;
    size_t m = mf_jr_key(&rd->jr, "sequence");
    bool ok = mf_jr_keys(&rd->jr, s, sequence_keys) && require(rd, s, "count") &&
              mf_jr_int(&rd->jr, s, "count", 0, &seq->count) &&
              mf_jr_int(&rd->jr, s, "start", 1, &seq->start) &&
              mf_jr_int(&rd->jr, s, "digits", 0, &seq->digits) &&
              mf_jr_int(&rd->jr, s, "setup", 0, &seq->setup);
    if (ok && seq->count < 1) ok = mf_jr_fail_at(&rd->jr, "count", "must be at least 1");
    if (ok && seq->start < 0) ok = mf_jr_fail_at(&rd->jr, "start", "must not be negative");
    if (ok && (seq->digits < 0 || seq->digits > 9))
        ok = mf_jr_fail_at(&rd->jr, "digits", "%d out of range 0..9", (int)seq->digits);
    if (ok && (seq->setup < 0 || seq->setup >= seq->count))
        ok = mf_jr_fail_at(&rd->jr, "setup", "frame %d out of range (%d frames)", (int)seq->setup,
                           (int)seq->count);
    mf_jr_pop(&rd->jr, m);
    return ok;
}

/* image defaults to the attachment's name. */
static bool read_image(mskel_rd *rd, const cJSON *obj, mf_attachment *a)
{
    if (!mskel_opt_name(rd, obj, "image", &a->image)) return false;
    if (a->image) return true;
    if (!(a->image = mskel_array_alloc(rd, strlen(a->name) + 1, 1))) return false;
    memcpy(a->image, a->name, strlen(a->name) + 1);
    return true;
}

static bool positive(mskel_rd *rd, const cJSON *obj, const char *key, float *out)
{
    if (!require(rd, obj, key) || !mf_jr_float(&rd->jr, obj, key, 0, out)) return false;
    return *out > 0 || mf_jr_fail_at(&rd->jr, key, "must be positive");
}

static bool read_region(mskel_rd *rd, const cJSON *obj, mf_attachment *a)
{
    mf_jr *r = &rd->jr;
    return read_image(rd, obj, a) && mf_jr_float(r, obj, "x", 0, &a->x) &&
           mf_jr_float(r, obj, "y", 0, &a->y) && mf_jr_float(r, obj, "rot", 0, &a->rot) &&
           mf_jr_float(r, obj, "sx", 1, &a->sx) && mf_jr_float(r, obj, "sy", 1, &a->sy) &&
           positive(rd, obj, "width", &a->width) && positive(rd, obj, "height", &a->height) &&
           read_sequence(rd, obj, &a->sequence);
}

/* Editor size of meshes: optional, not negative. */
static bool size(mskel_rd *rd, const cJSON *obj, mf_attachment *a)
{
    return mskel_float_range(rd, obj, "width", 0, 0, FLT_MAX, &a->width) &&
           mskel_float_range(rd, obj, "height", 0, 0, FLT_MAX, &a->height);
}

/* A required member that must be an array; NULL after failing. */
static const cJSON *member_array(mskel_rd *rd, const cJSON *obj, const char *key)
{
    if (!require(rd, obj, key)) return NULL;
    return mskel_get_array(rd, obj, key);
}

static bool read_mesh(mskel_rd *rd, const cJSON *obj, mf_attachment *a)
{
    mf_jr *r = &rd->jr;
    int32_t n = 0;
    if (!read_image(rd, obj, a)) return false;
    const cJSON *uvs = member_array(rd, obj, "uvs");
    if (!uvs) return false;
    size_t m = mf_jr_key(r, "uvs");
    bool ok = mskel_floats(rd, uvs, &a->uvs, &n);
    if (ok && n % 2 != 0) ok = mf_jr_fail(r, "%d numbers: expected u, v pairs", (int)n);
    if (ok && n < 6) ok = mf_jr_fail(r, "a mesh needs at least 3 vertices, got %d", (int)n / 2);
    mf_jr_pop(r, m);
    a->uv_count = n / 2;
    if (!ok || !read_geometry(rd, obj, &a->vertices)) return false;
    int32_t count = a->vertices.count;
    if (count != a->uv_count)
        return mf_jr_fail_at(r, geometry_key(&a->vertices), "%d vertices, but \"uvs\" has %d",
                             (int)count, (int)a->uv_count);
    const cJSON *tris = member_array(rd, obj, "triangles");
    if (!tris) return false;
    m = mf_jr_key(r, "triangles");
    n = cJSON_GetArraySize(tris);
    if (n % 3 != 0) ok = mf_jr_fail(r, "%d indices: expected 3 per triangle", (int)n);
    else if (n == 0) ok = mf_jr_fail(r, "a mesh needs at least one triangle");
    else ok = mskel_indices(rd, tris, count, "vertex index", "vertices", &a->triangles, &n);
    a->triangle_count = n / 3;
    mf_jr_pop(r, m);
    if (!ok || !mf_jr_int(r, obj, "hull", 0, &a->hull)) return false;
    if (a->hull < 0 || a->hull > count)
        return mf_jr_fail_at(r, "hull", "%d out of range 0..%d (the vertex count)", (int)a->hull, (int)count);
    const cJSON *edges = mskel_get_array(rd, obj, "edges");
    if (edges) {
        m = mf_jr_key(r, "edges");
        n = cJSON_GetArraySize(edges);
        if (n % 2 != 0) ok = mf_jr_fail(r, "%d indices: expected pairs", (int)n);
        else ok = mskel_indices(rd, edges, count, "vertex index", "vertices", &a->edges, &n);
        a->edge_count = n / 2;
        mf_jr_pop(r, m);
    }
    return ok && !r->failed && size(rd, obj, a) && read_sequence(rd, obj, &a->sequence);
}

static const char *skin_at(const void *ctx, int i) { return ((const mf_skeleton *)ctx)->skins[i].name; }

static bool read_linked(mskel_rd *rd, const cJSON *obj, int32_t skin, mf_attachment *a)
{
    char *skin_name = NULL;
    if (!mf_jr_name(&rd->jr, rd->sk->arena, obj, "parent", &a->parent) ||
        !mskel_opt_name(rd, obj, "skin", &skin_name))
        return false;
    if (skin_name) {
        a->parent_skin = mf_skeleton_find_skin(rd->sk, skin_name);
        if (a->parent_skin < 0) {
            char sfx[160];
            mf_suggest_suffix(sfx, sizeof sfx, mf_suggest(skin_name, rd->sk->skin_count, skin_at, rd->sk));
            return mf_jr_fail_at(&rd->jr, "skin", "unknown skin \"%s\"%s", skin_name, sfx);
        }
        if (a->parent_skin == skin) a->parent_skin = -1; /* the same skin: canonical is absent */
    }
    return read_image(rd, obj, a) && mf_jr_bool(&rd->jr, obj, "deform", true, &a->deform) &&
           size(rd, obj, a) && read_sequence(rd, obj, &a->sequence);
}

/* BoundingBox and Clipping outlines. */
static bool read_polygon(mskel_rd *rd, const cJSON *obj, mf_attachment *a)
{
    if (!read_geometry(rd, obj, &a->vertices)) return false;
    if (a->vertices.count < 3)
        return mf_jr_fail_at(&rd->jr, geometry_key(&a->vertices),
                             "a polygon needs at least 3 vertices, got %d", (int)a->vertices.count);
    if (a->type == MF_ATTACH_CLIPPING && cJSON_GetObjectItemCaseSensitive(obj, "end"))
        return mskel_slot_ref(rd, obj, "end", &a->end_slot);
    return true;
}

static bool read_path(mskel_rd *rd, const cJSON *obj, mf_attachment *a)
{
    mf_jr *r = &rd->jr;
    if (!read_geometry(rd, obj, &a->vertices)) return false;
    int32_t count = a->vertices.count;
    if (count == 0 || count % 3 != 0)
        return mf_jr_fail_at(r, geometry_key(&a->vertices), "%d vertices: expected 3 per bezier segment",
                             (int)count);
    if (!mf_jr_bool(r, obj, "closed", false, &a->closed) ||
        !mf_jr_bool(r, obj, "constantSpeed", true, &a->constant_speed))
        return false;
    const cJSON *lengths = member_array(rd, obj, "lengths");
    if (!lengths) return false;
    size_t m = mf_jr_key(r, "lengths");
    bool ok = mskel_floats(rd, lengths, &a->lengths, &a->length_count);
    if (ok && a->length_count != count / 3)
        ok = mf_jr_fail(r, "%d lengths for %d segments", (int)a->length_count, (int)count / 3);
    mf_jr_pop(r, m);
    return ok;
}

bool mskel_read_attachment(mskel_rd *rd, const cJSON *obj, int32_t skin, mf_attachment *a)
{
    mf_jr *r = &rd->jr;
    int type = 0;
    a->sx = a->sy = 1;
    a->color = 0xffffffffu;
    a->parent_skin = -1;
    a->end_slot = -1;
    a->deform = true;
    a->constant_speed = true;
    if (!require(rd, obj, "type") ||
        !mskel_enum(rd, obj, "type", "attachment type", mskel_attachment_names, 0, &type))
        return false;
    a->type = (mf_attachment_type)type;
    if (!check_keys(rd, obj, a->type) || !mskel_slot_ref(rd, obj, "slot", &a->slot) ||
        !mf_jr_name(r, rd->sk->arena, obj, "name", &a->name) ||
        !mskel_opt_name(rd, obj, "displayName", &a->display_name))
        return false;
    bool ok = false;
    switch (a->type) {
    case MF_ATTACH_REGION: ok = read_region(rd, obj, a); break;
    case MF_ATTACH_MESH: ok = read_mesh(rd, obj, a); break;
    case MF_ATTACH_LINKED_MESH: ok = read_linked(rd, obj, skin, a); break;
    case MF_ATTACH_BOUNDING_BOX:
    case MF_ATTACH_CLIPPING: ok = read_polygon(rd, obj, a); break;
    case MF_ATTACH_POINT:
        ok = mf_jr_float(r, obj, "x", 0, &a->x) && mf_jr_float(r, obj, "y", 0, &a->y) &&
             mf_jr_float(r, obj, "rot", 0, &a->rot);
        break;
    case MF_ATTACH_PATH: ok = read_path(rd, obj, a); break;
    default: break;
    }
    return ok && mf_jr_color(r, obj, "color", 0xffffffffu, &a->color, NULL);
}
