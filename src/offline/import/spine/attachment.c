/* Spine JSON → rig: one skin attachment of any type. The skin key is the attachment's name,
 * Spine's "name" (when another) its displayName; the image is "path", else "name", else the key
 * (sequence frames add their numbers). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spine_internal.h"
#include "util/suggest.h"

static const char *const TYPES[] = {"region", "mesh", "linkedmesh", "boundingbox", "clipping", "point", "path", NULL};
static const mf_attachment_type OUR_TYPE[] = {MF_ATTACH_REGION,   MF_ATTACH_MESH,  MF_ATTACH_LINKED_MESH,
                                              MF_ATTACH_BOUNDING_BOX, MF_ATTACH_CLIPPING, MF_ATTACH_POINT,
                                              MF_ATTACH_PATH};

static const char *const REGION_KEYS[] = {"type", "name", "path", "x", "y", "rotation", "scaleX", "scaleY", "width",
                                          "height", "color", "sequence", NULL};
static const char *const MESH_KEYS[] = {"type", "name", "path", "uvs", "triangles", "vertices", "hull", "edges",
                                        "width", "height", "color", "sequence", NULL};
static const char *const LINKED_KEYS[] = {"type", "name", "path", "parent", "skin", "timelines", "deform", "width",
                                          "height", "color", "sequence", NULL};
static const char *const POLY_KEYS[] = {"type", "name", "vertexCount", "vertices", "color", "end", NULL};
static const char *const POINT_KEYS[] = {"type", "name", "x", "y", "rotation", "color", NULL};
static const char *const PATH_KEYS[] = {"type", "name", "closed", "constantSpeed", "lengths", "vertexCount",
                                        "vertices", "color", NULL};
static const char *const SEQ_KEYS[] = {"count", "start", "digits", "setup", NULL};

static void note(sp_ctx *c, const char *category, const char *key, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
static void note(sp_ctx *c, const char *category, const char *key, const char *fmt, ...)
{
    char where[600], msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    sp_note_add(&c->rep, category, NULL, sp_where(c, key, where, sizeof where), "%s", msg);
}

/* The image (or each sequence frame) the attachment draws. */
static bool use_images(sp_ctx *c, const char *image, const mf_sequence *seq)
{
    if (seq->count <= 0) return sp_use_image(c, image);
    for (int32_t i = 0; i < seq->count; i++) {
        char name[700];
        snprintf(name, sizeof name, "%s%0*d", image, (int)seq->digits, (int)(seq->start + i));
        if (!sp_use_image(c, name)) return false;
    }
    return true;
}

static bool read_sequence(sp_ctx *c, const cJSON *obj, mf_sequence *seq)
{
    const cJSON *s = sp_object(c, obj, "sequence");
    if (!s) return !c->jr.failed;
    size_t m = mf_jr_key(&c->jr, "sequence");
    sp_unknown_keys(c, s, SEQ_KEYS, "sequence");
    bool ok = sp_int(c, s, "count", 0, &seq->count) && sp_int(c, s, "start", 1, &seq->start) &&
              sp_int(c, s, "digits", 0, &seq->digits) && sp_int(c, s, "setup", 0, &seq->setup);
    if (ok && (seq->count < 1 || seq->count > 100000)) ok = mf_jr_fail_at(&c->jr, "count", "must be 1 to 100000");
    if (ok && (seq->start < 0 || seq->start > 1000000000)) ok = mf_jr_fail_at(&c->jr, "start", "must be 0 or more");
    if (ok && (seq->digits < 0 || seq->digits > 9)) ok = mf_jr_fail_at(&c->jr, "digits", "must be 0 to 9");
    if (ok && (seq->setup < 0 || seq->setup >= seq->count)) {
        note(c, "value", "setup", "setup frame %d is out of range: frame 0 is used", (int)seq->setup);
        seq->setup = 0;
    }
    mf_jr_pop(&c->jr, m);
    return ok;
}

/* image = path, else name, else the key. */
static bool image_of(sp_ctx *c, const cJSON *obj, const char *key, mf_attachment *a)
{
    const char *name, *path;
    if (!sp_string(c, obj, "name", &name) || !sp_string(c, obj, "path", &path)) return false;
    const char *img = path && path[0] ? path : name && name[0] ? name : key;
    return (a->image = sp_strdup(c, img)) != NULL;
}

static bool size_of(sp_ctx *c, const cJSON *obj, mf_attachment *a, bool required)
{
    if (!sp_float(c, obj, "width", required ? 32 : 0, &a->width) ||
        !sp_float(c, obj, "height", required ? 32 : 0, &a->height))
        return false;
    if (required && !(a->width > 0 && a->height > 0)) {
        note(c, "value", "width", "a region of size %g x %g: a region needs a positive size, 1 is used",
             (double)a->width, (double)a->height);
        if (!(a->width > 0)) a->width = 1;
        if (!(a->height > 0)) a->height = 1;
    }
    if (!required && (a->width < 0 || a->height < 0)) a->width = a->height = 0;
    return true;
}

static bool read_region(sp_ctx *c, const cJSON *obj, const char *key, mf_attachment *a)
{
    float y = 0, rot = 0;
    sp_unknown_keys(c, obj, REGION_KEYS, "region attachment");
    bool ok = image_of(c, obj, key, a) && sp_float(c, obj, "x", 0, &a->x) && sp_float(c, obj, "y", 0, &y) &&
              sp_float(c, obj, "rotation", 0, &rot) && sp_float(c, obj, "scaleX", 1, &a->sx) &&
              sp_float(c, obj, "scaleY", 1, &a->sy) && size_of(c, obj, a, true) &&
              sp_color(c, obj, "color", 0xffffffffu, &a->color, NULL) && read_sequence(c, obj, &a->sequence);
    a->y = -y, a->rot = -rot;
    return ok && use_images(c, a->image, &a->sequence);
}

/* Integers of obj[key], each in [0, limit) (limit 0: no check). */
static bool indices(sp_ctx *c, const cJSON *obj, const char *key, int32_t limit, int32_t **out, int32_t *n)
{
    const cJSON *arr = sp_array(c, obj, key);
    if (c->jr.failed) return false;
    if (!arr) return mf_jr_fail(&c->jr, "missing \"%s\"", key);
    *n = cJSON_GetArraySize(arr);
    if (!(*out = sp_alloc(c, (size_t)*n + 1, sizeof **out))) return false;
    size_t m = mf_jr_key(&c->jr, key);
    int i = 0;
    bool ok = true;
    for (const cJSON *e = arr->child; e && ok; e = e->next, i++) {
        size_t mi = mf_jr_index(&c->jr, i);
        ok = mf_jr_value_int(&c->jr, e, &(*out)[i]);
        if (ok && limit > 0 && ((*out)[i] < 0 || (*out)[i] >= limit))
            ok = mf_jr_fail(&c->jr, "index %d out of range (%d)", (int)(*out)[i], (int)limit);
        mf_jr_pop(&c->jr, mi);
    }
    mf_jr_pop(&c->jr, m);
    return ok;
}

static bool read_uvs(sp_ctx *c, const cJSON *obj, mf_attachment *a)
{
    const cJSON *arr = sp_array(c, obj, "uvs");
    if (c->jr.failed) return false;
    if (!arr) return mf_jr_fail(&c->jr, "missing \"uvs\"");
    int n = cJSON_GetArraySize(arr);
    size_t m = mf_jr_key(&c->jr, "uvs");
    bool ok = true;
    if (n % 2 != 0) ok = mf_jr_fail(&c->jr, "%d numbers: expected u, v pairs", n);
    else if (n < 6) ok = mf_jr_fail(&c->jr, "a mesh needs at least 3 vertices, got %d", n / 2);
    if (ok && !(a->uvs = sp_alloc(c, (size_t)n, sizeof(float)))) ok = false;
    int i = 0;
    for (const cJSON *e = ok ? arr->child : NULL; e && ok; e = e->next, i++) {
        size_t mi = mf_jr_index(&c->jr, i);
        ok = mf_jr_value_float(&c->jr, e, &a->uvs[i]);
        mf_jr_pop(&c->jr, mi);
    }
    mf_jr_pop(&c->jr, m);
    a->uv_count = n / 2;
    return ok;
}

static bool read_mesh(sp_ctx *c, const cJSON *obj, const char *key, mf_attachment *a)
{
    sp_unknown_keys(c, obj, MESH_KEYS, "mesh attachment");
    int32_t n = 0;
    if (!image_of(c, obj, key, a) || !read_uvs(c, obj, a) || !sp_read_vertices(c, obj, a->uv_count, &a->vertices) ||
        !indices(c, obj, "triangles", a->uv_count, &a->triangles, &n))
        return false;
    if (n == 0 || n % 3 != 0) return mf_jr_fail_at(&c->jr, "triangles", "%d indices: expected 3 per triangle", (int)n);
    a->triangle_count = n / 3;
    if (!sp_int(c, obj, "hull", 0, &a->hull)) return false;
    if (a->hull < 0 || a->hull > a->uv_count) {
        note(c, "value", "hull", "hull %d is out of range: 0 is used", (int)a->hull);
        a->hull = 0;
    }
    if (cJSON_GetObjectItemCaseSensitive(obj, "edges")) {
        int32_t *e = NULL;
        if (!indices(c, obj, "edges", 0, &e, &n)) return false;
        bool good = n % 2 == 0;
        for (int32_t i = 0; i < n && good; i++) good = e[i] >= 0 && e[i] % 2 == 0 && e[i] / 2 < a->uv_count;
        if (good) {
            for (int32_t i = 0; i < n; i++) e[i] /= 2; /* Spine's edges index the x, y floats */
            a->edges = e;
            a->edge_count = n / 2;
        } else {
            note(c, "editor", "edges", "edges do not index the mesh's vertices: not kept");
        }
    }
    return size_of(c, obj, a, false) && sp_color(c, obj, "color", 0xffffffffu, &a->color, NULL) &&
           read_sequence(c, obj, &a->sequence) && use_images(c, a->image, &a->sequence);
}

static bool read_linked(sp_ctx *c, const cJSON *obj, const char *key, mf_attachment *a, const char **parent_skin)
{
    sp_unknown_keys(c, obj, LINKED_KEYS, "linked mesh attachment");
    const char *parent;
    bool deform = true;
    const char *flag = cJSON_GetObjectItemCaseSensitive(obj, "timelines") ? "timelines" : "deform";
    if (!image_of(c, obj, key, a) || !sp_name(c, obj, "parent", &parent) || !sp_string(c, obj, "skin", parent_skin) ||
        !sp_bool(c, obj, flag, true, &deform) || !(a->parent = sp_strdup(c, parent)))
        return false;
    a->deform = deform;
    return size_of(c, obj, a, false) && sp_color(c, obj, "color", 0xffffffffu, &a->color, NULL) &&
           read_sequence(c, obj, &a->sequence) && use_images(c, a->image, &a->sequence);
}

/* BoundingBox, Clipping and Path outlines: "vertexCount" vertices (default: the unweighted
 * count). false with *skip when the shape cannot be kept. */
static bool read_outline(sp_ctx *c, const cJSON *obj, mf_attachment *a, int32_t min, bool *skip)
{
    const cJSON *v = sp_array(c, obj, "vertices");
    int32_t count;
    if (c->jr.failed || !sp_int(c, obj, "vertexCount", v ? cJSON_GetArraySize(v) / 2 : 0, &count)) return false;
    if (count < 0 || count > 1000000) return mf_jr_fail_at(&c->jr, "vertexCount", "out of range");
    if (!sp_read_vertices(c, obj, count, &a->vertices)) return false;
    if (count < min) {
        note(c, "skipped", "vertices", "%d vertices are too few for this attachment type: not imported", (int)count);
        *skip = true;
    }
    return true;
}

static bool read_path(sp_ctx *c, const cJSON *obj, mf_attachment *a, bool *skip)
{
    sp_unknown_keys(c, obj, PATH_KEYS, "path attachment");
    if (!read_outline(c, obj, a, 3, skip) || !sp_bool(c, obj, "closed", false, &a->closed) ||
        !sp_bool(c, obj, "constantSpeed", true, &a->constant_speed) ||
        !sp_color(c, obj, "color", 0xffffffffu, &a->color, NULL))
        return false;
    if (*skip) return true;
    if (a->vertices.count % 3 != 0) {
        note(c, "skipped", "vertexCount", "%d vertices are not 3 per curve point: not imported",
             (int)a->vertices.count);
        *skip = true;
        return true;
    }
    int32_t want = a->vertices.count / 3, n = 0;
    float *given = NULL;
    const cJSON *arr = sp_array(c, obj, "lengths");
    if (c->jr.failed) return false;
    n = arr ? cJSON_GetArraySize(arr) : 0;
    if (!(given = sp_alloc(c, (size_t)(n > want ? n : want) + 1, sizeof *given))) return false;
    size_t m = mf_jr_key(&c->jr, "lengths");
    int i = 0;
    bool ok = true;
    for (const cJSON *e = arr ? arr->child : NULL; e && ok; e = e->next, i++) {
        size_t mi = mf_jr_index(&c->jr, i);
        ok = mf_jr_value_float(&c->jr, e, &given[i]);
        mf_jr_pop(&c->jr, mi);
    }
    mf_jr_pop(&c->jr, m);
    if (!ok) return false;
    if (n != want) {
        /* Spine keeps one cumulative length per curve point; the last ones only matter when closed */
        note(c, "value", "lengths", "%d lengths for %d curve points: padded with the last length or cut to fit",
             (int)n, (int)want);
        for (int32_t k = n; k < want; k++) given[k] = n > 0 ? given[n - 1] : 0;
    }
    a->lengths = given;
    a->length_count = want;
    return true;
}

/* Spine's "name": the attachment's own name under its skin key (a placeholder); kept only
 * where it differs from the key, as the .mskel's displayName. */
static bool own_name(sp_ctx *c, const cJSON *obj, const char *key, mf_attachment *a)
{
    const char *name;
    if (!sp_string(c, obj, "name", &name)) return false;
    if (!name || !name[0] || strcmp(name, key) == 0) return true;
    return (a->display_name = sp_strdup(c, name)) != NULL;
}

/* A type name of the file (default "region") → index into TYPES; -1 after reporting. */
static int type_of(sp_ctx *c, const cJSON *obj)
{
    const char *t;
    if (!sp_string(c, obj, "type", &t)) return -2;
    if (!t) return 0;
    for (int i = 0; TYPES[i]; i++)
        if (strcmp(TYPES[i], t) == 0) return i;
    char where[600];
    sp_note_add(&c->rep, "skipped", NULL, sp_where(c, "type", where, sizeof where),
                "attachment type \"%s\" is not one mfanim has: not imported", t);
    return -1;
}

bool sp_read_attachment(sp_ctx *c, const cJSON *obj, const char *key, mf_attachment *a, const char **parent_skin,
                        bool *skip)
{
    *skip = false;
    *parent_skin = NULL;
    a->sx = a->sy = 1;
    a->color = 0xffffffffu;
    a->parent_skin = -1;
    a->end_slot = -1;
    a->deform = true;
    a->constant_speed = true;
    a->width = a->height = 0;
    if (!mf_jr_expect_object(&c->jr, obj)) return false;
    int t = type_of(c, obj);
    if (t == -2) return false;
    if (t < 0) {
        *skip = true;
        return true;
    }
    a->type = OUR_TYPE[t];
    if (!(a->name = sp_strdup(c, key)) || !own_name(c, obj, key, a)) return false;
    float y = 0, rot = 0;
    switch (a->type) {
    case MF_ATTACH_REGION: return read_region(c, obj, key, a);
    case MF_ATTACH_MESH: return read_mesh(c, obj, key, a);
    case MF_ATTACH_LINKED_MESH: return read_linked(c, obj, key, a, parent_skin);
    case MF_ATTACH_BOUNDING_BOX:
    case MF_ATTACH_CLIPPING:
        sp_unknown_keys(c, obj, POLY_KEYS, a->type == MF_ATTACH_CLIPPING ? "clipping attachment" : "bounding box attachment");
        if (!read_outline(c, obj, a, 3, skip) || !sp_color(c, obj, "color", 0xffffffffu, &a->color, NULL)) return false;
        if (a->type == MF_ATTACH_CLIPPING && cJSON_GetObjectItemCaseSensitive(obj, "end"))
            return sp_slot_ref(c, obj, "end", &a->end_slot);
        return true;
    case MF_ATTACH_POINT:
        sp_unknown_keys(c, obj, POINT_KEYS, "point attachment");
        if (!sp_float(c, obj, "x", 0, &a->x) || !sp_float(c, obj, "y", 0, &y) || !sp_float(c, obj, "rotation", 0, &rot) ||
            !sp_color(c, obj, "color", 0xffffffffu, &a->color, NULL))
            return false;
        a->y = -y, a->rot = -rot;
        return true;
    case MF_ATTACH_PATH: return read_path(c, obj, a, skip);
    default: return true;
    }
}
