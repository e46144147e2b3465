/* Building skins and attachments: geometry into the shared pools, region quads, sequences'
 * images, linked meshes sharing their parent's geometry, and the sorted (slot, name) tables. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "build_internal.h"

#define PI_F 3.14159265358979323846

/* where = skins[s].attachments[a].field */
static bool afail(mf_bctx *c, int32_t s, int32_t a, const char *field, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;
static bool afail(mf_bctx *c, int32_t s, int32_t a, const char *field, const char *fmt, ...)
{
    char where[200], msg[400];
    snprintf(where, sizeof where, "skins[%d].attachments[%d]%s%s", (int)s, (int)a, *field ? "." : "", field);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return mf_bfail(c, c->skel_file, where, "%s", msg);
}

/* The IMAGES index of a name (added when new). */
static bool image_index(mf_bctx *c, const char *name, bool fresh, int32_t *out)
{
    bool ok = true;
    int32_t off = mf_intern(c, name, &ok);
    if (!ok) return false;
    mf_bvec *v = &c->sec[MF_SD_SEC_IMAGES];
    if (!fresh)
        for (int32_t i = 0; i < v->len; i++)
            if (MF_BVEC_AT(v, mf_sd_image, i)->name == off) {
                *out = i;
                return true;
            }
    mf_sd_image rec = {0};
    rec.name = off;
    if (!mf_build_place_image(c, &rec, name)) return false;
    mf_sd_image *im = mf_bvec_push(v, 1);
    if (!im) return mf_boom(c);
    *im = rec;
    *out = v->len - 1;
    return true;
}

/* The image (or, for a sequence, one image a frame: name + zero-padded frame number). */
static bool build_image(mf_bctx *c, int32_t s, int32_t a, const mf_attachment *at, mf_sd_attachment *o)
{
    const char *name = at->image ? at->image : at->name;
    const mf_sequence *q = &at->sequence;
    if (q->count == 0) return image_index(c, name, false, &o->image);
    if (q->count < 0 || q->count > 100000 || q->digits < 0 || q->digits > 9 || q->setup < 0 || q->setup >= q->count)
        return afail(c, s, a, "sequence", "bad sequence (count %d, digits %d, setup %d)", (int)q->count,
                     (int)q->digits, (int)q->setup);
    for (int32_t i = 0; i < q->count; i++) {
        char frame[600];
        mf_build_image_name(at, i, frame, sizeof frame);
        int32_t idx = -1;
        if (!image_index(c, frame, true, &idx)) return false;
        if (i == 0) o->image = idx;
    }
    o->seq_count = q->count;
    o->seq_start = q->start;
    o->seq_digits = q->digits;
    o->seq_setup = q->setup;
    return true;
}

static float *push_floats(mf_bctx *c, int64_t n, int32_t *first)
{
    mf_bvec *v = &c->sec[MF_SD_SEC_FLOATS];
    *first = v->len;
    if (n > INT32_MAX) return NULL;
    return mf_bvec_push(v, (int32_t)n);
}

/* Image uvs per uv set (one, or one a packed sequence frame) mapped onto the pages. */
static bool push_uvs(mf_bctx *c, const float *uv, int32_t n, mf_sd_attachment *o)
{
    int32_t sets = o->seq_count > 0 && mf_build_packed(c, o->image) ? o->seq_count : 1;
    float *u = push_floats(c, 2 * (int64_t)n * sets, &o->uv_first);
    if (!u && n) return mf_boom(c);
    for (int32_t f = 0; f < sets && n; f++) mf_build_map_uvs(c, o->image + f, uv, n, u + (size_t)2 * n * f);
    o->uv_sets = sets;
    return true;
}

static bool build_region(mf_bctx *c, const mf_attachment *at, mf_sd_attachment *o)
{
    float w = at->width * c->scale, h = at->height * c->scale;
    /* a packed, trimmed image: the quad covers its rectangle only (image uvs u0..u1, v0..v1) */
    float u0 = 0, v0 = 0, u1 = 1, v1 = 1;
    if (o->seq_count == 0 && mf_build_packed(c, o->image)) {
        const mf_sd_image *im = MF_BVEC_AT(&c->sec[MF_SD_SEC_IMAGES], mf_sd_image, o->image);
        u0 = (float)im->trim_x / (float)im->orig_w;
        v0 = (float)im->trim_y / (float)im->orig_h;
        u1 = (float)(im->trim_x + im->w) / (float)im->orig_w;
        v1 = (float)(im->trim_y + im->h) / (float)im->orig_h;
    }
    double r = at->rot * PI_F / 180.0, cs = cos(r), sn = sin(r);
    /* corners at uv (0,0) (1,0) (1,1) (0,1), Y-down, rotation clockwise */
    const float cu[4] = {u0 - 0.5f, u1 - 0.5f, u1 - 0.5f, u0 - 0.5f}, cv[4] = {v0 - 0.5f, v0 - 0.5f, v1 - 0.5f, v1 - 0.5f};
    const float uv[8] = {u0, v0, u1, v0, u1, v1, u0, v1};
    static const uint16_t tri[6] = {0, 1, 2, 2, 3, 0};
    float *p = push_floats(c, 8, &o->vertex_first);
    if (!p) return mf_boom(c);
    for (int k = 0; k < 4; k++) {
        double lx = cu[k] * w * at->sx, ly = cv[k] * h * at->sy;
        p[2 * k] = (float)(lx * cs - ly * sn + at->x * c->scale);
        p[2 * k + 1] = (float)(lx * sn + ly * cs + at->y * c->scale);
    }
    if (!push_uvs(c, uv, 4, o)) return false;
    mf_bvec *tv = &c->sec[MF_SD_SEC_TRIANGLES];
    o->tri_first = tv->len;
    uint16_t *t = mf_bvec_push(tv, 6);
    if (!t) return mf_boom(c);
    memcpy(t, tri, sizeof tri);
    o->tri_count = 6;
    o->vertex_count = 4;
    o->hull = 4;
    return true;
}

static bool build_weighted(mf_bctx *c, int32_t s, int32_t a, const mf_vertices *v, mf_sd_attachment *o)
{
    if (!v->first || (v->count > 0 && !v->infl) || v->bone_count < 0 || (v->bone_count > 0 && !v->bones))
        return afail(c, s, a, "weights", "inconsistent weights (missing arrays)");
    if (v->first[0] != 0) return afail(c, s, a, "weights", "the first vertex's influences must start at 0");
    for (int32_t i = 0; i < v->count; i++) {
        int32_t n = v->first[i + 1] - v->first[i];
        if (n < 1 || n > MF_SD_MAX_INFLUENCES)
            return afail(c, s, a, "weights", "vertex %d has %d influences (1..%d)", (int)i, (int)n,
                         MF_SD_MAX_INFLUENCES);
    }
    int32_t total = v->first[v->count];
    mf_bvec *iv = &c->sec[MF_SD_SEC_INFLUENCES], *sv = &c->sec[MF_SD_SEC_SPANS];
    o->infl_first = iv->len;
    o->infl_count = total;
    o->vertex_first = sv->len;
    mf_sd_influence *in = mf_bvec_push(iv, total);
    mf_sd_span *sp = mf_bvec_push(sv, v->count);
    if ((!in && total) || (!sp && v->count)) return mf_boom(c);
    for (int32_t i = 0; i < v->count; i++) {
        sp[i].first = o->infl_first + v->first[i];
        sp[i].count = v->first[i + 1] - v->first[i];
    }
    for (int32_t k = 0; k < total; k++) {
        const mf_influence *f = &v->infl[k];
        if (f->bone < 0 || f->bone >= v->bone_count)
            return afail(c, s, a, "weights", "influence %d: bone %d outside the attachment's %d bones", (int)k,
                         (int)f->bone, (int)v->bone_count);
        int32_t b = v->bones[f->bone];
        if (b < 0 || b >= c->sk->bone_count)
            return afail(c, s, a, "weights.bones", "bone %d outside 0..%d", (int)b, (int)c->sk->bone_count - 1);
        in[k].bone = b;
        in[k].weight = f->weight;
        in[k].x = f->x * c->scale;
        in[k].y = f->y * c->scale;
    }
    o->flags |= MF_SD_ATT_WEIGHTED;
    o->deform_count = 2 * total;
    return true;
}

static bool build_vertices(mf_bctx *c, int32_t s, int32_t a, const mf_vertices *v, mf_sd_attachment *o)
{
    if (v->count < 0 || v->count > 65535)
        return afail(c, s, a, "vertices", "%d vertices; a build holds 0..65535 an attachment", (int)v->count);
    o->vertex_count = v->count;
    if (!v->xy && v->count > 0) return build_weighted(c, s, a, v, o);
    float *p = push_floats(c, 2 * (int64_t)v->count, &o->vertex_first);
    if (!p && v->count) return mf_boom(c);
    for (int32_t k = 0; k < 2 * v->count; k++) p[k] = v->xy[k] * c->scale;
    o->deform_count = 2 * v->count;
    return true;
}

static bool build_mesh(mf_bctx *c, int32_t s, int32_t a, const mf_attachment *at, mf_sd_attachment *o)
{
    int32_t n = at->vertices.count;
    if (!build_vertices(c, s, a, &at->vertices, o)) return false;
    if (at->uv_count != n || (n > 0 && !at->uvs))
        return afail(c, s, a, "uvs", "%d uv pairs for %d vertices", (int)at->uv_count, (int)n);
    if (!push_uvs(c, at->uvs, n, o)) return false;
    if (at->triangle_count < 0 || (at->triangle_count > 0 && !at->triangles) || at->triangle_count > INT32_MAX / 3)
        return afail(c, s, a, "triangles", "bad triangle list (%d triangles)", (int)at->triangle_count);
    mf_bvec *tv = &c->sec[MF_SD_SEC_TRIANGLES];
    o->tri_first = tv->len;
    o->tri_count = 3 * at->triangle_count;
    uint16_t *t = mf_bvec_push(tv, o->tri_count);
    if (!t && o->tri_count) return mf_boom(c);
    for (int32_t k = 0; k < o->tri_count; k++) {
        int32_t x = at->triangles[k];
        if (x < 0 || x >= n) {
            char field[40];
            snprintf(field, sizeof field, "triangles[%d]", (int)k);
            return afail(c, s, a, field, "vertex %d outside 0..%d", (int)x, (int)n - 1);
        }
        t[k] = (uint16_t)x;
    }
    if (at->hull < 0 || at->hull > n) return afail(c, s, a, "hull", "hull %d outside 0..%d", (int)at->hull, (int)n);
    o->hull = at->hull;
    return true;
}

static bool build_attachment(mf_bctx *c, int32_t s, int32_t a, const mf_attachment *at)
{
    const mf_skeleton *sk = c->sk;
    if (!at->name) return afail(c, s, a, "name", "missing name");
    if (at->slot < 0 || at->slot >= sk->slot_count)
        return afail(c, s, a, "slot", "slot %d outside 0..%d", (int)at->slot, (int)sk->slot_count - 1);
    if ((int)at->type < 0 || at->type >= MF_ATTACH_TYPE_COUNT)
        return afail(c, s, a, "type", "unknown attachment type %d", (int)at->type);
    mf_bvec *av = &c->sec[MF_SD_SEC_ATTACHMENTS];
    int32_t g = av->len;
    mf_sd_attachment *o = mf_bvec_push(av, 1); /* no other push to ATTACHMENTS until done */
    if (!o) return mf_boom(c);
    bool ok = true;
    o->name = mf_intern(c, at->name, &ok);
    if (ok) o->display_name = mf_intern(c, mf_attachment_display_name(at), &ok);
    if (!ok) return false;
    o->slot = at->slot;
    o->skin = s;
    o->type = (uint8_t)at->type;
    o->image = -1;
    o->color = at->color;
    o->uv_first = -1;
    o->parent = -1;
    o->deform_source = g;
    o->end_slot = -1;
    o->x = at->x * c->scale;
    o->y = at->y * c->scale;
    o->rot = at->rot;
    o->sx = at->sx;
    o->sy = at->sy;
    o->width = at->width * c->scale;
    o->height = at->height * c->scale;
    o->vertex_first = c->sec[MF_SD_SEC_FLOATS].len;
    o->lengths_first = c->sec[MF_SD_SEC_FLOATS].len;
    switch (at->type) {
    case MF_ATTACH_REGION:
        return build_image(c, s, a, at, o) && build_region(c, at, o);
    case MF_ATTACH_MESH:
        return build_image(c, s, a, at, o) && build_mesh(c, s, a, at, o);
    case MF_ATTACH_LINKED_MESH: /* geometry comes from the parent, once every mesh is built */
        if (at->deform) o->flags |= MF_SD_ATT_DEFORM;
        return build_image(c, s, a, at, o);
    case MF_ATTACH_CLIPPING:
        if (at->end_slot < -1 || at->end_slot >= sk->slot_count)
            return afail(c, s, a, "end", "slot %d outside -1..%d", (int)at->end_slot, (int)sk->slot_count - 1);
        o->end_slot = at->end_slot;
        return build_vertices(c, s, a, &at->vertices, o);
    case MF_ATTACH_PATH: {
        if (!build_vertices(c, s, a, &at->vertices, o)) return false;
        if (at->closed) o->flags |= MF_SD_ATT_CLOSED;
        if (at->constant_speed) o->flags |= MF_SD_ATT_CONSTANT_SPEED;
        if (at->length_count < 0 || (at->length_count > 0 && !at->lengths))
            return afail(c, s, a, "lengths", "bad length list (%d)", (int)at->length_count);
        float *p = push_floats(c, at->length_count, &o->lengths_first);
        if (!p && at->length_count) return mf_boom(c);
        for (int32_t k = 0; k < at->length_count; k++) p[k] = at->lengths[k] * c->scale;
        o->lengths_count = at->length_count;
        return true;
    }
    case MF_ATTACH_POINT: return true;
    default: return build_vertices(c, s, a, &at->vertices, o); /* bounding box */
    }
}

/* Linked meshes: parent index (the mesh owning the geometry) and deform source, resolved along
 * chains of linked meshes; state: -2 unresolved, -3 being resolved (a cycle). */
typedef struct link_state {
    int32_t *root, *src;
} link_state;

static const mf_attachment *model_att(const mf_bctx *c, int32_t g, int32_t *s, int32_t *a)
{
    int32_t k = 0;
    while (k + 1 < c->sk->skin_count && c->att_base[k + 1] <= g) k++;
    *s = k;
    *a = g - c->att_base[k];
    return &c->sk->skins[k].attachments[*a];
}

static bool resolve_link(mf_bctx *c, link_state *ls, int32_t g)
{
    if (ls->root[g] >= -1) return true;
    int32_t s, a;
    const mf_attachment *at = model_att(c, g, &s, &a);
    if (at->type != MF_ATTACH_LINKED_MESH) {
        ls->root[g] = -1;
        ls->src[g] = g;
        return true;
    }
    if (ls->root[g] == -3) return afail(c, s, a, "parent", "linked meshes form a cycle");
    ls->root[g] = -3;
    int32_t ps = at->parent_skin < 0 ? s : at->parent_skin;
    if (ps >= c->sk->skin_count) return afail(c, s, a, "skin", "skin %d outside 0..%d", (int)ps, (int)c->sk->skin_count - 1);
    if (!at->parent) return afail(c, s, a, "parent", "a linked mesh needs a parent mesh");
    const mf_skin *pk = &c->sk->skins[ps];
    int32_t p = -1;
    for (int32_t k = 0; k < pk->attachment_count && p < 0; k++)
        if (pk->attachments[k].slot == at->slot && pk->attachments[k].name && strcmp(pk->attachments[k].name, at->parent) == 0)
            p = c->att_base[ps] + k;
    if (p < 0)
        return afail(c, s, a, "parent", "no attachment \"%s\" on slot \"%s\" in skin \"%s\"", at->parent,
                     c->sk->slots[at->slot].name, pk->name ? pk->name : "?");
    const mf_attachment *pa = &pk->attachments[p - c->att_base[ps]];
    if (pa->type != MF_ATTACH_MESH && pa->type != MF_ATTACH_LINKED_MESH)
        return afail(c, s, a, "parent", "parent \"%s\" is a %s, not a mesh", at->parent,
                     mf_attachment_type_name(pa->type));
    if (!resolve_link(c, ls, p)) return false;
    ls->root[g] = ls->root[p] >= 0 ? ls->root[p] : p;
    ls->src[g] = at->deform ? ls->src[p] : g;
    return true;
}

static bool link_meshes(mf_bctx *c, int32_t total)
{
    link_state ls = {malloc(((size_t)total + 1) * sizeof(int32_t)), malloc(((size_t)total + 1) * sizeof(int32_t))};
    bool ok = ls.root && ls.src;
    if (!ok) mf_boom(c);
    for (int32_t g = 0; ok && g < total; g++) ls.root[g] = ls.src[g] = -2;
    for (int32_t g = 0; ok && g < total; g++) ok = resolve_link(c, &ls, g);
    mf_bvec *av = &c->sec[MF_SD_SEC_ATTACHMENTS];
    for (int32_t g = 0; ok && g < total; g++) {
        if (ls.root[g] < 0) continue;
        mf_sd_attachment *o = MF_BVEC_AT(av, mf_sd_attachment, g);
        const mf_sd_attachment *r = MF_BVEC_AT(av, mf_sd_attachment, ls.root[g]);
        o->flags = (uint8_t)((o->flags & ~MF_SD_ATT_WEIGHTED) | (r->flags & MF_SD_ATT_WEIGHTED));
        o->vertex_count = r->vertex_count;
        o->vertex_first = r->vertex_first;
        o->infl_first = r->infl_first;
        o->infl_count = r->infl_count;
        o->deform_count = r->deform_count;
        o->uv_first = r->uv_first;
        o->uv_sets = r->uv_sets;
        if (c->atlas && (o->image != r->image || o->seq_count != r->seq_count)) {
            /* its own image: the root mesh's image uvs mapped through it */
            int32_t rs, ra;
            const mf_attachment *rm = model_att(c, ls.root[g], &rs, &ra);
            int32_t n = r->vertex_count;
            if (rm->uv_count != n || (n > 0 && !rm->uvs)) {
                ok = afail(c, rs, ra, "uvs", "%d uv pairs for %d vertices", (int)rm->uv_count, (int)n);
                break;
            }
            mf_sd_attachment tmp = *o;
            if (!push_uvs(c, rm->uvs, n, &tmp)) {
                ok = false;
                break;
            }
            o = MF_BVEC_AT(av, mf_sd_attachment, g); /* FLOATS grew, ATTACHMENTS did not */
            o->uv_first = tmp.uv_first;
            o->uv_sets = tmp.uv_sets;
        }
        o->tri_first = r->tri_first;
        o->tri_count = r->tri_count;
        o->hull = r->hull;
        o->parent = ls.root[g];
        o->deform_source = ls.src[g];
    }
    free(ls.root);
    free(ls.src);
    return ok;
}

static int cmp_entry(const void *pa, const void *pb)
{
    const mf_sd_skin_entry *a = pa, *b = pb;
    if (a->slot != b->slot) return a->slot < b->slot ? -1 : 1;
    return (a->name > b->name) - (a->name < b->name);
}

static bool build_skin(mf_bctx *c, int32_t s)
{
    const mf_skin *k = &c->sk->skins[s];
    bool ok = true;
    mf_bvec *ev = &c->sec[MF_SD_SEC_SKIN_ENTRIES], *bv = &c->sec[MF_SD_SEC_BONE_LISTS],
            *rv = &c->sec[MF_SD_SEC_SKIN_REFS];
    mf_sd_skin rec = {0};
    rec.name = mf_intern(c, k->name ? k->name : "", &ok);
    if (!ok) return false;
    rec.entry_first = ev->len;
    rec.entry_count = k->attachment_count;
    mf_sd_skin_entry *e = mf_bvec_push(ev, k->attachment_count);
    if (!e && k->attachment_count) return mf_boom(c);
    const mf_bvec *av = &c->sec[MF_SD_SEC_ATTACHMENTS];
    for (int32_t a = 0; a < k->attachment_count; a++) {
        const mf_sd_attachment *o = MF_BVEC_AT(av, mf_sd_attachment, c->att_base[s] + a);
        e[a] = (mf_sd_skin_entry){o->slot, o->name, c->att_base[s] + a};
    }
    if (k->attachment_count > 1) qsort(e, (size_t)k->attachment_count, sizeof *e, cmp_entry);
    for (int32_t a = 1; a < k->attachment_count; a++)
        if (e[a].slot == e[a - 1].slot && e[a].name == e[a - 1].name)
            return afail(c, s, e[a].attachment - c->att_base[s], "name", "duplicate attachment \"%s\" on slot \"%s\"",
                         c->sk->skins[s].attachments[e[a].attachment - c->att_base[s]].name,
                         c->sk->slots[e[a].slot].name);
    if (k->bone_count < 0 || (k->bone_count > 0 && !k->bones))
        return mf_bfail_at(c, c->skel_file, "skins", s, "bones", "bad bone list");
    rec.bone_first = bv->len;
    rec.bone_count = k->bone_count;
    int32_t *b = mf_bvec_push(bv, k->bone_count);
    if (!b && k->bone_count) return mf_boom(c);
    for (int32_t i = 0; i < k->bone_count; i++) {
        if (k->bones[i] < 0 || k->bones[i] >= c->sk->bone_count)
            return mf_bfail_at(c, c->skel_file, "skins", s, "bones", "bone %d outside 0..%d", (int)k->bones[i],
                               (int)c->sk->bone_count - 1);
        b[i] = k->bones[i];
    }
    if (k->constraint_count < 0 || (k->constraint_count > 0 && !k->constraints))
        return mf_bfail_at(c, c->skel_file, "skins", s, "constraints", "bad constraint list");
    rec.constraint_first = rv->len;
    rec.constraint_count = k->constraint_count;
    mf_sd_ref *r = mf_bvec_push(rv, k->constraint_count);
    if (!r && k->constraint_count) return mf_boom(c);
    const int32_t lim[4] = {c->sk->ik_count, c->sk->transform_count, c->sk->path_count, c->sk->physics_count};
    for (int32_t i = 0; i < k->constraint_count; i++) {
        const mf_constraint_ref *cr = &k->constraints[i];
        if ((int)cr->kind < 0 || cr->kind >= MF_CONSTRAINT_KIND_COUNT || cr->index < 0 || cr->index >= lim[cr->kind])
            return mf_bfail_at(c, c->skel_file, "skins", s, "constraints", "constraint %d of kind %d does not exist",
                               (int)cr->index, (int)cr->kind);
        r[i].kind = (uint16_t)(MF_SD_REF_IK + cr->kind);
        r[i].index = cr->index;
    }
    mf_sd_skin *o = mf_bvec_push(&c->sec[MF_SD_SEC_SKINS], 1);
    if (!o) return mf_boom(c);
    *o = rec;
    return true;
}

bool mf_build_skins(mf_bctx *c)
{
    const mf_skeleton *sk = c->sk;
    c->att_base = malloc(((size_t)sk->skin_count + 1) * sizeof(int32_t));
    if (!c->att_base) return mf_boom(c);
    int64_t total = 0;
    for (int32_t s = 0; s < sk->skin_count; s++) {
        const mf_skin *k = &sk->skins[s];
        if (k->attachment_count < 0 || (k->attachment_count > 0 && !k->attachments))
            return mf_bfail_at(c, c->skel_file, "skins", s, "attachments", "bad attachment list");
        c->att_base[s] = (int32_t)total;
        total += k->attachment_count;
        if (total > INT32_MAX / 2) return mf_bfail(c, c->skel_file, "skins", "too many attachments");
    }
    c->att_base[sk->skin_count] = (int32_t)total;
    for (int32_t s = 0; s < sk->skin_count; s++)
        for (int32_t a = 0; a < sk->skins[s].attachment_count; a++)
            if (!build_attachment(c, s, a, &sk->skins[s].attachments[a])) return false;
    if (!link_meshes(c, (int32_t)total)) return false;
    for (int32_t s = 0; s < sk->skin_count; s++)
        if (!build_skin(c, s)) return false;
    return true;
}
