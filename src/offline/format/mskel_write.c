/* The canonical .mskel writer: fixed key order, defaults left out, one array element a line
 * (docs/formats.md). Reading its output and writing again gives the same bytes.
 *
 * A model built in code may hold bad indices; the writer never follows one blindly: it fails
 * with MF_ERR_ARGUMENT naming the model field (for example `bones[3].parent`). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mskel_internal.h"
#include "util/buf.h"
#include "util/files.h"

typedef struct wr {
    mf_buf b;
    const mf_skeleton *sk;
    mf_diag *diag;
    bool bad;        /* the first model error is in diag */
    int fields;      /* members written in the current inline object */
    char where[128]; /* the element being written, for errors: "skins[1].attachments[4]" */
} wr;

static void bad(wr *w, const char *key, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static void bad(wr *w, const char *key, const char *fmt, ...)
{
    if (w->bad) return;
    w->bad = true;
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    char where[200];
    snprintf(where, sizeof where, "%s%s%s", w->where, w->where[0] && key[0] ? "." : "", key);
    mf_diag_set(w->diag, "", where, "%s", msg);
}

/* --- inline members: `"key": value` separated by ", " --- */

static void key(wr *w, const char *k)
{
    if (w->fields++) mf_buf_puts(&w->b, ", ");
    mf_buf_string(&w->b, k);
    mf_buf_puts(&w->b, ": ");
}

static void open_obj(wr *w) { mf_buf_puts(&w->b, "{ "), w->fields = 0; }
static void close_obj(wr *w) { mf_buf_puts(&w->b, " }"); }

static void num(wr *w, const char *k, float v, float def)
{
    if (v == def) return;
    key(w, k);
    mf_buf_number(&w->b, v);
}

static void integer(wr *w, const char *k, int32_t v, int32_t def)
{
    if (v == def) return;
    key(w, k);
    mf_buf_printf(&w->b, "%d", (int)v);
}

static void boolean(wr *w, const char *k, bool v, bool def)
{
    if (v == def) return;
    key(w, k);
    mf_buf_puts(&w->b, v ? "true" : "false");
}

static void str(wr *w, const char *k, const char *s)
{
    if (!s) return;
    key(w, k);
    mf_buf_string(&w->b, s);
}

static void color(wr *w, const char *k, uint32_t c, uint32_t def)
{
    if (c == def) return;
    key(w, k);
    mf_buf_color(&w->b, c, true);
}

/* A required name; fails on NULL or empty. */
static void name(wr *w, const char *k, const char *s)
{
    if (!s || !s[0]) {
        bad(w, k, "missing name");
        return;
    }
    str(w, k, s);
}

/* An index into a table of count names; "" when out of range (after failing). */
static const char *ref(wr *w, const char *k, int32_t i, int32_t count, const char *what,
                       const char *(*at)(const mf_skeleton *, int32_t))
{
    const char *s = i >= 0 && i < count ? at(w->sk, i) : NULL;
    if (s) return s;
    bad(w, k, "%s index %d out of range (%d %ss)", what, (int)i, (int)count, what);
    return "";
}

static const char *bone_at(const mf_skeleton *sk, int32_t i) { return sk->bones[i].name; }
static const char *slot_at(const mf_skeleton *sk, int32_t i) { return sk->slots[i].name; }
static const char *skin_at(const mf_skeleton *sk, int32_t i) { return sk->skins[i].name; }

static void bone_ref(wr *w, const char *k, int32_t i)
{
    str(w, k, ref(w, k, i, w->sk->bone_count, "bone", bone_at));
}

static void slot_ref(wr *w, const char *k, int32_t i)
{
    str(w, k, ref(w, k, i, w->sk->slot_count, "slot", slot_at));
}

/* `"k": ["a", "b"]` from bone indices; nothing when empty and optional. */
static void bone_list(wr *w, const char *k, const int32_t *v, int32_t n, bool optional)
{
    if (n <= 0 && optional) return;
    if (n > 0 && !v) {
        bad(w, k, "missing array");
        return;
    }
    key(w, k);
    mf_buf_putc(&w->b, '[');
    for (int32_t i = 0; i < n; i++) {
        if (i) mf_buf_puts(&w->b, ", ");
        mf_buf_string(&w->b, ref(w, k, v[i], w->sk->bone_count, "bone", bone_at));
    }
    mf_buf_putc(&w->b, ']');
}

static void float_list(wr *w, const char *k, const float *v, int32_t n)
{
    if (n > 0 && !v) {
        bad(w, k, "missing array");
        return;
    }
    key(w, k);
    mf_buf_putc(&w->b, '[');
    for (int32_t i = 0; i < n; i++) {
        if (i) mf_buf_puts(&w->b, ", ");
        mf_buf_number(&w->b, v[i]);
    }
    mf_buf_putc(&w->b, ']');
}

static void int_list(wr *w, const char *k, const int32_t *v, int32_t n)
{
    if (n > 0 && !v) {
        bad(w, k, "missing array");
        return;
    }
    key(w, k);
    mf_buf_putc(&w->b, '[');
    for (int32_t i = 0; i < n; i++) mf_buf_printf(&w->b, i ? ", %d" : "%d", (int)v[i]);
    mf_buf_putc(&w->b, ']');
}

/* --- attachments --- */

static void weights(wr *w, const mf_vertices *v)
{
    if (v->count > 0 && (!v->first || !v->infl)) {
        bad(w, "weights", "missing arrays");
        return;
    }
    key(w, "weights");
    mf_buf_puts(&w->b, "{ ");
    w->fields = 0;
    bone_list(w, "bones", v->bones, v->bone_count, false);
    key(w, "v");
    mf_buf_putc(&w->b, '[');
    for (int32_t k = 0; k < v->count; k++) {
        if (k) mf_buf_puts(&w->b, ", ");
        mf_buf_putc(&w->b, '[');
        if (v->first[k] < 0 || v->first[k + 1] < v->first[k])
            bad(w, "weights", "vertex %d has bad influence offsets", (int)k);
        for (int32_t j = v->first[k]; !w->bad && j < v->first[k + 1]; j++) {
            const mf_influence *f = &v->infl[j];
            if (f->bone < 0 || f->bone >= v->bone_count)
                bad(w, "weights", "vertex %d: bone index %d out of range", (int)k, (int)f->bone);
            mf_buf_printf(&w->b, j > v->first[k] ? ", %d, " : "%d, ", (int)f->bone);
            mf_buf_number(&w->b, f->weight);
            mf_buf_puts(&w->b, ", ");
            mf_buf_number(&w->b, f->x);
            mf_buf_puts(&w->b, ", ");
            mf_buf_number(&w->b, f->y);
        }
        mf_buf_putc(&w->b, ']');
    }
    mf_buf_puts(&w->b, "] }");
    w->fields = 1; /* back in the attachment object, which has members already */
}

static void geometry(wr *w, const mf_vertices *v)
{
    if (v->xy || v->count == 0) float_list(w, "vertices", v->xy, v->count * 2);
    else weights(w, v);
}

static void sequence(wr *w, const mf_sequence *s)
{
    if (s->count <= 0) return;
    key(w, "sequence");
    int saved = w->fields;
    open_obj(w);
    key(w, "count");
    mf_buf_printf(&w->b, "%d", (int)s->count);
    integer(w, "start", s->start, 1);
    integer(w, "digits", s->digits, 0);
    integer(w, "setup", s->setup, 0);
    close_obj(w);
    w->fields = saved;
}

static void image(wr *w, const mf_attachment *a)
{
    if (a->image && a->name && strcmp(a->image, a->name) != 0) str(w, "image", a->image);
}

/* The attachment's own name: left out when it is the key, so files without one round-trip. */
static void display_name(wr *w, const mf_attachment *a)
{
    if (!a->display_name || (a->name && strcmp(a->display_name, a->name) == 0)) return;
    name(w, "displayName", a->display_name);
}

static void attachment(wr *w, int32_t skin, const mf_attachment *a)
{
    const char *const *types = mskel_attachment_names;
    open_obj(w);
    slot_ref(w, "slot", a->slot);
    name(w, "name", a->name);
    display_name(w, a);
    if ((int)a->type < 0 || a->type >= MF_ATTACH_TYPE_COUNT) {
        bad(w, "type", "bad attachment type");
        return;
    }
    str(w, "type", types[a->type]);
    switch (a->type) {
    case MF_ATTACH_REGION:
        image(w, a);
        num(w, "x", a->x, 0), num(w, "y", a->y, 0), num(w, "rot", a->rot, 0);
        num(w, "sx", a->sx, 1), num(w, "sy", a->sy, 1);
        num(w, "width", a->width, -1), num(w, "height", a->height, -1);
        color(w, "color", a->color, 0xffffffffu);
        sequence(w, &a->sequence);
        break;
    case MF_ATTACH_MESH:
        image(w, a);
        geometry(w, &a->vertices);
        float_list(w, "uvs", a->uvs, a->uv_count * 2);
        int_list(w, "triangles", a->triangles, a->triangle_count * 3);
        integer(w, "hull", a->hull, 0);
        if (a->edge_count > 0) int_list(w, "edges", a->edges, a->edge_count * 2);
        num(w, "width", a->width, 0), num(w, "height", a->height, 0);
        color(w, "color", a->color, 0xffffffffu);
        sequence(w, &a->sequence);
        break;
    case MF_ATTACH_LINKED_MESH:
        name(w, "parent", a->parent);
        if (a->parent_skin >= 0 && a->parent_skin != skin)
            str(w, "skin", ref(w, "skin", a->parent_skin, w->sk->skin_count, "skin", skin_at));
        image(w, a);
        boolean(w, "deform", a->deform, true);
        color(w, "color", a->color, 0xffffffffu);
        num(w, "width", a->width, 0), num(w, "height", a->height, 0);
        sequence(w, &a->sequence);
        break;
    case MF_ATTACH_BOUNDING_BOX:
    case MF_ATTACH_CLIPPING:
        geometry(w, &a->vertices);
        if (a->type == MF_ATTACH_CLIPPING && a->end_slot >= 0) slot_ref(w, "end", a->end_slot);
        color(w, "color", a->color, 0xffffffffu);
        break;
    case MF_ATTACH_POINT:
        num(w, "x", a->x, 0), num(w, "y", a->y, 0), num(w, "rot", a->rot, 0);
        color(w, "color", a->color, 0xffffffffu);
        break;
    case MF_ATTACH_PATH:
        geometry(w, &a->vertices);
        boolean(w, "closed", a->closed, false);
        boolean(w, "constantSpeed", a->constant_speed, true);
        float_list(w, "lengths", a->lengths, a->length_count);
        color(w, "color", a->color, 0xffffffffu);
        break;
    default: break;
    }
    close_obj(w);
}

/* --- top-level elements --- */

static void bone(wr *w, int32_t i)
{
    const mf_bone *b = &w->sk->bones[i];
    open_obj(w);
    name(w, "name", b->name);
    if (b->parent >= i) bad(w, "parent", "parent %d does not come before bone %d", (int)b->parent, (int)i);
    if (b->parent >= 0) bone_ref(w, "parent", b->parent);
    num(w, "x", b->x, 0), num(w, "y", b->y, 0), num(w, "rot", b->rot, 0);
    num(w, "sx", b->sx, 1), num(w, "sy", b->sy, 1), num(w, "shx", b->shx, 0), num(w, "shy", b->shy, 0);
    num(w, "length", b->length, 0);
    if (b->inherit != MF_INHERIT_NORMAL) str(w, "inherit", mf_inherit_name(b->inherit));
    color(w, "color", b->color, 0x989898ffu);
    boolean(w, "skinRequired", b->skin_required, false);
    close_obj(w);
}

static void slot(wr *w, int32_t i)
{
    const mf_slot *s = &w->sk->slots[i];
    open_obj(w);
    name(w, "name", s->name);
    bone_ref(w, "bone", s->bone);
    str(w, "attachment", s->attachment);
    color(w, "color", s->color, 0xffffffffu);
    if (s->has_dark) {
        key(w, "dark");
        mf_buf_color(&w->b, s->dark, false);
    }
    if (s->blend != MF_BLEND_NORMAL) str(w, "blend", mf_blend_name(s->blend));
    close_obj(w);
}

static void common(wr *w, const char *n, int32_t order, bool skin_required)
{
    open_obj(w);
    name(w, "name", n);
    key(w, "order");
    mf_buf_printf(&w->b, "%d", (int)order);
    boolean(w, "skinRequired", skin_required, false);
}

static void ik(wr *w, int32_t i)
{
    const mf_ik_constraint *c = &w->sk->ik[i];
    common(w, c->name, c->order, c->skin_required);
    if (c->bone_count < 1 || c->bone_count > 2) bad(w, "bones", "%d bones (1 or 2)", (int)c->bone_count);
    bone_list(w, "bones", c->bones, c->bone_count < 0 ? 0 : c->bone_count > 2 ? 2 : c->bone_count, false);
    bone_ref(w, "target", c->target);
    num(w, "mix", c->mix, 1), num(w, "softness", c->softness, 0);
    integer(w, "bend", c->bend, 1);
    boolean(w, "compress", c->compress, false);
    boolean(w, "stretch", c->stretch, false);
    boolean(w, "uniform", c->uniform, false);
    close_obj(w);
}

static void transform(wr *w, int32_t i)
{
    const mf_transform_constraint *c = &w->sk->transform[i];
    common(w, c->name, c->order, c->skin_required);
    bone_list(w, "bones", c->bones, c->bone_count, false);
    bone_ref(w, "target", c->target);
    boolean(w, "local", c->local, false), boolean(w, "relative", c->relative, false);
    num(w, "rot", c->offset_rot, 0), num(w, "x", c->offset_x, 0), num(w, "y", c->offset_y, 0);
    num(w, "sx", c->offset_sx, 0), num(w, "sy", c->offset_sy, 0), num(w, "shy", c->offset_shy, 0);
    num(w, "mixRotate", c->mix_rotate, 1), num(w, "mixX", c->mix_x, 1), num(w, "mixY", c->mix_y, 1);
    num(w, "mixScaleX", c->mix_scale_x, 1), num(w, "mixScaleY", c->mix_scale_y, 1);
    num(w, "mixShearY", c->mix_shear_y, 1);
    close_obj(w);
}

static void path(wr *w, int32_t i)
{
    const mf_path_constraint *c = &w->sk->path[i];
    common(w, c->name, c->order, c->skin_required);
    bone_list(w, "bones", c->bones, c->bone_count, false);
    slot_ref(w, "target", c->target);
    if (c->position_mode != MF_POSITION_PERCENT)
        str(w, "positionMode", mf_position_mode_name(c->position_mode));
    if (c->spacing_mode != MF_SPACING_LENGTH) str(w, "spacingMode", mf_spacing_mode_name(c->spacing_mode));
    if (c->rotate_mode != MF_ROTATE_TANGENT) str(w, "rotateMode", mf_rotate_mode_name(c->rotate_mode));
    num(w, "rot", c->offset_rot, 0), num(w, "position", c->position, 0), num(w, "spacing", c->spacing, 0);
    num(w, "mixRotate", c->mix_rotate, 1), num(w, "mixX", c->mix_x, 1), num(w, "mixY", c->mix_y, 1);
    close_obj(w);
}

static void physics(wr *w, int32_t i)
{
    const mf_physics_constraint *c = &w->sk->physics[i];
    common(w, c->name, c->order, c->skin_required);
    bone_ref(w, "bone", c->bone);
    num(w, "x", c->x, 0), num(w, "y", c->y, 0), num(w, "rotate", c->rotate, 0);
    num(w, "scaleX", c->scale_x, 0), num(w, "shearX", c->shear_x, 0);
    num(w, "limit", c->limit, 5000), num(w, "step", c->step, 1.0f / 60.0f);
    num(w, "inertia", c->inertia, 1), num(w, "strength", c->strength, 100);
    num(w, "damping", c->damping, 1), num(w, "mass", c->mass, 1);
    num(w, "wind", c->wind, 0), num(w, "gravity", c->gravity, 0), num(w, "mix", c->mix, 1);
    boolean(w, "inertiaGlobal", c->inertia_global, false);
    boolean(w, "strengthGlobal", c->strength_global, false);
    boolean(w, "dampingGlobal", c->damping_global, false);
    boolean(w, "massGlobal", c->mass_global, false);
    boolean(w, "windGlobal", c->wind_global, false);
    boolean(w, "gravityGlobal", c->gravity_global, false);
    boolean(w, "mixGlobal", c->mix_global, false);
    close_obj(w);
}

static void event(wr *w, int32_t i)
{
    const mf_event_def *e = &w->sk->events[i];
    open_obj(w);
    name(w, "name", e->name);
    integer(w, "int", e->int_value, 0);
    num(w, "float", e->float_value, 0);
    str(w, "string", e->string_value);
    str(w, "audio", e->audio);
    num(w, "volume", e->volume, 1), num(w, "balance", e->balance, 0);
    close_obj(w);
}

static const char *constraint_name(const mf_skeleton *sk, mf_constraint_ref r)
{
    switch (r.kind) {
    case MF_CONSTRAINT_IK: return r.index >= 0 && r.index < sk->ik_count ? sk->ik[r.index].name : NULL;
    case MF_CONSTRAINT_TRANSFORM:
        return r.index >= 0 && r.index < sk->transform_count ? sk->transform[r.index].name : NULL;
    case MF_CONSTRAINT_PATH: return r.index >= 0 && r.index < sk->path_count ? sk->path[r.index].name : NULL;
    case MF_CONSTRAINT_PHYSICS:
        return r.index >= 0 && r.index < sk->physics_count ? sk->physics[r.index].name : NULL;
    default: return NULL;
    }
}

static void skin(wr *w, int32_t i)
{
    const mf_skin *s = &w->sk->skins[i];
    open_obj(w);
    name(w, "name", s->name);
    bone_list(w, "bones", s->bones, s->bone_count, true);
    if (s->constraint_count > 0) {
        key(w, "constraints");
        mf_buf_putc(&w->b, '[');
        for (int32_t j = 0; s->constraints && j < s->constraint_count; j++) {
            const char *n = constraint_name(w->sk, s->constraints[j]);
            if (!n) bad(w, "constraints", "constraint %d is out of range", (int)j);
            if (j) mf_buf_puts(&w->b, ", ");
            mf_buf_string(&w->b, n ? n : "");
        }
        mf_buf_putc(&w->b, ']');
    }
    mf_buf_puts(&w->b, ",\n      \"attachments\": [");
    if (s->attachment_count > 0 && !s->attachments) bad(w, "attachments", "missing array");
    for (int32_t j = 0; s->attachments && j < s->attachment_count; j++) {
        snprintf(w->where, sizeof w->where, "skins[%d].attachments[%d]", (int)i, (int)j);
        mf_buf_puts(&w->b, j ? ",\n        " : "\n        ");
        attachment(w, i, &s->attachments[j]);
    }
    mf_buf_puts(&w->b, s->attachment_count > 0 ? "\n      ] }" : "] }");
}

/* `  "key": [` elements one a line `  ],` (or `"key": [],`). */
static void section(wr *w, const char *k, int32_t n, const void *items, void (*fn)(wr *, int32_t),
                    bool last)
{
    mf_buf_printf(&w->b, "  \"%s\": [", k);
    if (n > 0 && !items) {
        snprintf(w->where, sizeof w->where, "%s", k);
        bad(w, "", "missing array");
        n = 0;
    }
    for (int32_t i = 0; i < n; i++) {
        snprintf(w->where, sizeof w->where, "%s[%d]", k, (int)i);
        mf_buf_puts(&w->b, i ? ",\n    " : "\n    ");
        fn(w, i);
    }
    mf_buf_puts(&w->b, n > 0 ? "\n  ]" : "]");
    mf_buf_puts(&w->b, last ? "\n" : ",\n");
}

static void header(wr *w)
{
    const mf_skeleton *sk = w->sk;
    const mf_import_settings *im = &sk->import;
    if (!sk->uid || !sk->uid[0]) bad(w, "uid", "the skeleton has no uid");
    mf_buf_printf(&w->b, "{\n  \"format\": %d,\n  \"uid\": ", (int)sk->format);
    mf_buf_string(&w->b, sk->uid ? sk->uid : "");
    mf_buf_puts(&w->b, ",\n  \"type\": \"Skeleton\",\n  \"fps\": ");
    mf_buf_number(&w->b, sk->fps);
    mf_buf_puts(&w->b, ",\n");
    if (sk->clips) {
        mf_buf_puts(&w->b, "  \"clips\": ");
        mf_buf_string(&w->b, sk->clips);
        mf_buf_puts(&w->b, ",\n");
    }
    mf_buf_puts(&w->b, "  \"import\": ");
    open_obj(w);
    str(w, "images", im->images ? im->images : "images/");
    key(w, "pageSize");
    mf_buf_printf(&w->b, "%d", (int)im->page_size);
    key(w, "padding");
    mf_buf_printf(&w->b, "%d", (int)im->padding);
    key(w, "scale");
    mf_buf_number(&w->b, im->scale);
    str(w, "filter", im->filter ? im->filter : "Linear");
    key(w, "mipmaps");
    mf_buf_puts(&w->b, im->mipmaps ? "true" : "false");
    str(w, "normalSuffix", im->normal_suffix ? im->normal_suffix : "_n");
    close_obj(w);
    mf_buf_puts(&w->b, ",\n");
}

mf_result mf_skeleton_write(const mf_skeleton *sk, char **out, size_t *len, mf_diag *diag)
{
    if (!out || !sk) {
        mf_diag_set(diag, "", "", "mf_skeleton_write: bad arguments");
        return MF_ERR_ARGUMENT;
    }
    *out = NULL;
    if (len) *len = 0;
    mf_diag_clear(diag);
    wr w;
    memset(&w, 0, sizeof w);
    w.sk = sk;
    w.diag = diag;
    header(&w);
    section(&w, "bones", sk->bone_count, sk->bones, bone, false);
    section(&w, "slots", sk->slot_count, sk->slots, slot, false);
    section(&w, "ik", sk->ik_count, sk->ik, ik, false);
    section(&w, "transform", sk->transform_count, sk->transform, transform, false);
    section(&w, "path", sk->path_count, sk->path, path, false);
    section(&w, "physics", sk->physics_count, sk->physics, physics, false);
    section(&w, "events", sk->event_count, sk->events, event, false);
    section(&w, "skins", sk->skin_count, sk->skins, skin, true);
    mf_buf_puts(&w.b, "}\n");
    if (w.bad) {
        mf_buf_free(&w.b);
        return MF_ERR_ARGUMENT;
    }
    char *text = mf_buf_take(&w.b, len);
    if (!text) {
        mf_diag_set(diag, "", "", "out of memory");
        return MF_ERR_NOMEM;
    }
    *out = text;
    return MF_OK;
}

mf_result mf_skeleton_save(const mf_skeleton *sk, const char *path, mf_diag *diag)
{
    if (!path) {
        mf_diag_set(diag, "", "", "mf_skeleton_save: no path");
        return MF_ERR_ARGUMENT;
    }
    char *text = NULL;
    size_t len = 0;
    mf_result r = mf_skeleton_write(sk, &text, &len, diag);
    if (r != MF_OK) {
        if (diag) snprintf(diag->file, sizeof diag->file, "%s", path);
        return r;
    }
    r = mf_write_file_atomic(path, text, len, diag);
    free(text);
    return r;
}
