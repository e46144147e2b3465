/* The content checks of a loaded build: every index and range a runtime follows, so that code
 * trusting an mf_skel_data never reads out of bounds. Sections are already in bounds here. */
#include <stdint.h>

#include "skel_data_internal.h"
#include "skel_data_ranges.h"
#include "skin_streams.h"

#define BAD(rec, i, field, ...) return mf_sd_bad(diag, rec, (int64_t)(i), field, __VA_ARGS__)

/* [first, first + count) inside a pool of n */
static bool range_ok(int32_t first, int64_t count, int32_t n)
{
    return first >= 0 && count >= 0 && (int64_t)first + count <= (int64_t)n;
}

#define NAME_OK(rec, i, off)                                                                     \
    if (!mf_sd_str_ok(d, off))                                                                   \
    BAD(rec, i, "name", "string offset %d outside the string table (%d bytes)", off, d->string_bytes)

static mf_result check_strings(const mf_skel_data *d, mf_diag *diag)
{
    if (d->string_bytes < 1 || d->strings[0] != '\0')
        BAD("section strings", -1, NULL, "must start with the empty string (a NUL byte)");
    if (d->strings[d->string_bytes - 1] != '\0')
        BAD("section strings", -1, NULL, "the last string is not NUL-terminated");
    if (!mf_sd_str_ok(d, d->info->uid)) BAD("info", 0, "uid", "string offset %d outside the string table", d->info->uid);
    for (int32_t i = 0; i < d->image_count; i++)
        if (!mf_sd_str_ok(d, d->images[i].name))
            BAD("images", i, "name", "string offset %d outside the string table (%d bytes)",
                d->images[i].name, d->string_bytes);
    return MF_OK;
}

static bool unit(float v) { return v >= 0.0f && v <= 1.0f; }

/* Pages and where each image lies on them. */
static mf_result check_pages(const mf_skel_data *d, mf_diag *diag)
{
    for (int32_t i = 0; i < d->page_count; i++) {
        const mf_sd_page *p = &d->pages[i];
        NAME_OK("pages", i, p->name);
        if (!mf_sd_str_opt(d, p->normal_name))
            BAD("pages", i, "normalName", "string offset %d outside the string table", p->normal_name);
        if (p->width < 1 || p->width > 65536 || p->height < 1 || p->height > 65536)
            BAD("pages", i, "size", "%d x %d outside 1..65536", p->width, p->height);
    }
    for (int32_t i = 0; i < d->image_count; i++) {
        const mf_sd_image *m = &d->images[i];
        if (m->page == -1) {
            if (m->x || m->y || m->w || m->h || m->trim_x || m->trim_y || m->orig_w || m->orig_h ||
                m->u0 != 0.0f || m->v0 != 0.0f || m->u1 != 0.0f || m->v1 != 0.0f)
                BAD("images", i, "page", "an image that is not packed has no rectangle");
            continue;
        }
        if (m->page < 0 || m->page >= d->page_count)
            BAD("images", i, "page", "page %d outside -1..%d", m->page, d->page_count - 1);
        const mf_sd_page *p = &d->pages[m->page];
        if (m->w < 1 || m->h < 1 || m->x < 0 || m->y < 0 || (int64_t)m->x + m->w > p->width ||
            (int64_t)m->y + m->h > p->height)
            BAD("images", i, "rect", "%d,%d %dx%d outside page %d (%dx%d)", m->x, m->y, m->w, m->h, m->page,
                p->width, p->height);
        if (m->trim_x < 0 || m->trim_y < 0 || (int64_t)m->trim_x + m->w > m->orig_w ||
            (int64_t)m->trim_y + m->h > m->orig_h)
            BAD("images", i, "trim", "trim %d,%d %dx%d outside the original %dx%d", m->trim_x, m->trim_y, m->w, m->h,
                m->orig_w, m->orig_h);
        if (!unit(m->u0) || !unit(m->v0) || !unit(m->u1) || !unit(m->v1) || m->u0 > m->u1 || m->v0 > m->v1)
            BAD("images", i, "uvs", "uv rect %g,%g..%g,%g outside 0..1", (double)m->u0, (double)m->v0,
                (double)m->u1, (double)m->v1);
    }
    return MF_OK;
}

static mf_result check_rig(const mf_skel_data *d, mf_diag *diag)
{
    for (int32_t i = 0; i < d->bone_count; i++) {
        const mf_sd_bone *b = &d->bones[i];
        NAME_OK("bones", i, b->name);
        if (b->parent < -1 || b->parent >= i)
            BAD("bones", i, "parent", "parent %d is not an earlier bone (bones come parents first)", b->parent);
        if (b->inherit >= MF_SD_INHERIT_COUNT) BAD("bones", i, "inherit", "unknown inherit mode %u", b->inherit);
    }
    for (int32_t i = 0; i < d->slot_count; i++) {
        const mf_sd_slot *s = &d->slots[i];
        NAME_OK("slots", i, s->name);
        if (s->bone < 0 || s->bone >= d->bone_count)
            BAD("slots", i, "bone", "bone %d outside 0..%d", s->bone, d->bone_count - 1);
        if (!mf_sd_str_opt(d, s->attachment))
            BAD("slots", i, "attachment", "string offset %d outside the string table", s->attachment);
        if (s->blend >= MF_SD_BLEND_COUNT) BAD("slots", i, "blend", "unknown blend mode %u", s->blend);
    }
    for (int32_t i = 0; i < d->event_count; i++) {
        const mf_sd_event *e = &d->events[i];
        NAME_OK("events", i, e->name);
        if (!mf_sd_str_opt(d, e->string)) BAD("events", i, "string", "string offset %d outside the string table", e->string);
        if (!mf_sd_str_opt(d, e->audio)) BAD("events", i, "audio", "string offset %d outside the string table", e->audio);
    }
    for (int32_t i = 0; i < d->bone_list_count; i++)
        if (d->bone_lists[i] < 0 || d->bone_lists[i] >= d->bone_count)
            BAD("boneLists", i, NULL, "bone %d outside 0..%d", d->bone_lists[i], d->bone_count - 1);
    return MF_OK;
}

#define BONES_OK(rec, i, c)                                                                      \
    if (!range_ok((c)->bone_first, (c)->bone_count, d->bone_list_count))                         \
    BAD(rec, i, "bones", "bone list %d+%d outside the bone lists (%d)", (c)->bone_first,          \
        (c)->bone_count, d->bone_list_count)

static mf_result check_constraints(const mf_skel_data *d, mf_diag *diag)
{
    for (int32_t i = 0; i < d->ik_count; i++) {
        const mf_sd_ik *c = &d->ik[i];
        NAME_OK("ik", i, c->name);
        BONES_OK("ik", i, c);
        if (c->bone_count < 1 || c->bone_count > 2) BAD("ik", i, "bones", "%d bones; ik takes 1 or 2", c->bone_count);
        if (c->target < 0 || c->target >= d->bone_count) BAD("ik", i, "target", "bone %d outside 0..%d", c->target, d->bone_count - 1);
    }
    for (int32_t i = 0; i < d->transform_count; i++) {
        const mf_sd_transform *c = &d->transform[i];
        NAME_OK("transform", i, c->name);
        BONES_OK("transform", i, c);
        if (c->target < 0 || c->target >= d->bone_count)
            BAD("transform", i, "target", "bone %d outside 0..%d", c->target, d->bone_count - 1);
    }
    for (int32_t i = 0; i < d->path_count; i++) {
        const mf_sd_path *c = &d->path[i];
        NAME_OK("path", i, c->name);
        BONES_OK("path", i, c);
        if (c->target < 0 || c->target >= d->slot_count)
            BAD("path", i, "target", "slot %d outside 0..%d", c->target, d->slot_count - 1);
        if (c->position_mode >= MF_SD_POSITION_MODE_COUNT || c->spacing_mode >= MF_SD_SPACING_MODE_COUNT ||
            c->rotate_mode >= MF_SD_ROTATE_MODE_COUNT)
            BAD("path", i, "mode", "unknown position, spacing or rotate mode (%u, %u, %u)", c->position_mode,
                c->spacing_mode, c->rotate_mode);
    }
    for (int32_t i = 0; i < d->physics_count; i++) {
        const mf_sd_physics *c = &d->physics[i];
        NAME_OK("physics", i, c->name);
        if (c->bone < 0 || c->bone >= d->bone_count)
            BAD("physics", i, "bone", "bone %d outside 0..%d", c->bone, d->bone_count - 1);
    }
    return MF_OK;
}

static int32_t ref_limit(const mf_skel_data *d, unsigned kind)
{
    switch (kind) {
    case MF_SD_REF_BONE: return d->bone_count;
    case MF_SD_REF_IK: return d->ik_count;
    case MF_SD_REF_TRANSFORM: return d->transform_count;
    case MF_SD_REF_PATH: return d->path_count;
    case MF_SD_REF_PHYSICS: return d->physics_count;
    }
    return 0;
}

static mf_result check_refs(const mf_skel_data *d, const mf_sd_ref *refs, int32_t n, const char *rec,
                            bool bones_allowed, mf_diag *diag)
{
    for (int32_t i = 0; i < n; i++) {
        const mf_sd_ref *r = &refs[i];
        if (r->kind >= MF_SD_REF_KIND_COUNT || (!bones_allowed && r->kind == MF_SD_REF_BONE))
            BAD(rec, i, "kind", "unknown %s kind %u", bones_allowed ? "update" : "constraint", r->kind);
        int32_t lim = ref_limit(d, r->kind);
        if (r->index < 0 || r->index >= lim)
            BAD(rec, i, "index", "index %d outside 0..%d", r->index, lim - 1);
    }
    return MF_OK;
}

static mf_result check_skins(const mf_skel_data *d, mf_diag *diag)
{
    mf_result r = check_refs(d, d->update, d->update_count, "update", true, diag);
    if (r == MF_OK) r = check_refs(d, d->skin_refs, d->skin_ref_count, "skinRefs", false, diag);
    if (r != MF_OK) return r;
    for (int32_t i = 0; i < d->skin_entry_count; i++) {
        const mf_sd_skin_entry *e = &d->skin_entries[i];
        if (e->slot < 0 || e->slot >= d->slot_count) BAD("skinEntries", i, "slot", "slot %d outside 0..%d", e->slot, d->slot_count - 1);
        NAME_OK("skinEntries", i, e->name);
        if (e->attachment < 0 || e->attachment >= d->attachment_count)
            BAD("skinEntries", i, "attachment", "attachment %d outside 0..%d", e->attachment, d->attachment_count - 1);
        if (d->attachments[e->attachment].slot != e->slot)
            BAD("skinEntries", i, "attachment", "attachment %d belongs to slot %d, not slot %d", e->attachment,
                d->attachments[e->attachment].slot, e->slot);
    }
    for (int32_t i = 0; i < d->skin_count; i++) {
        const mf_sd_skin *s = &d->skins[i];
        NAME_OK("skins", i, s->name);
        if (!range_ok(s->entry_first, s->entry_count, d->skin_entry_count))
            BAD("skins", i, "entries", "entries %d+%d outside the skin entries (%d)", s->entry_first, s->entry_count,
                d->skin_entry_count);
        if (!range_ok(s->bone_first, s->bone_count, d->bone_list_count))
            BAD("skins", i, "bones", "bone list %d+%d outside the bone lists (%d)", s->bone_first, s->bone_count,
                d->bone_list_count);
        if (!range_ok(s->constraint_first, s->constraint_count, d->skin_ref_count))
            BAD("skins", i, "constraints", "constraints %d+%d outside the skin refs (%d)", s->constraint_first,
                s->constraint_count, d->skin_ref_count);
        const mf_sd_skin_entry *e = d->skin_entries + s->entry_first;
        for (int32_t k = 1; k < s->entry_count; k++)
            if (e[k].slot < e[k - 1].slot || (e[k].slot == e[k - 1].slot && e[k].name <= e[k - 1].name))
                BAD("skinEntries", s->entry_first + k, NULL,
                    "entries of skin %d are not strictly sorted by (slot, name)", i);
    }
    return MF_OK;
}

/* Weighted attachments may share spans, so checking each one's spans in turn could cost
 * attachments × spans. A build's attachments check at most as many vertices as its streams hold
 * (one skinVertices record per weighted vertex of every attachment): within that budget the
 * spans are walked as they are; past it (a blob that will be refused) one table of the spans'
 * runs (skel_data_ranges.h), built once, answers each attachment at once. */
static bool span_valid(const mf_sd_span *s) { return s->count >= 1 && s->count <= MF_SD_MAX_INFLUENCES; }
static bool span_valid_at(const void *v, int32_t j) { return span_valid((const mf_sd_span *)v + j); }
static bool span_follows(const void *v, int32_t j)
{
    const mf_sd_span *s = (const mf_sd_span *)v + j;
    return (int64_t)s[-1].first + s[-1].count == s->first;
}

/* Weighted geometry: the vertex spans tile the attachment's influence range in order. */
static mf_result check_weighted(const mf_skel_data *d, int32_t i, const mf_sd_attachment *a, mf_sd_runs *runs,
                                mf_diag *diag)
{
    if (!range_ok(a->vertex_first, a->vertex_count, d->span_count))
        BAD("attachments", i, "vertices", "spans %d+%d outside the spans (%d)", a->vertex_first, a->vertex_count,
            d->span_count);
    if (!range_ok(a->infl_first, a->infl_count, d->influence_count))
        BAD("attachments", i, "influences", "influences %d+%d outside the influences (%d)", a->infl_first,
            a->infl_count, d->influence_count);
    /* what the walk accepts: one run of spans from infl_first to its end */
    if (a->vertex_count > 0 && mf_sd_runs_ok(runs, a->vertex_first, a->vertex_count)) {
        const mf_sd_span *e = &d->spans[a->vertex_first + a->vertex_count - 1];
        if (d->spans[a->vertex_first].first == a->infl_first &&
            (int64_t)e->first + e->count == (int64_t)a->infl_first + a->infl_count)
            return MF_OK;
    }
    long long next = a->infl_first;
    for (int32_t v = 0; v < a->vertex_count; v++) {
        const mf_sd_span *s = &d->spans[a->vertex_first + v];
        if (s->first != next || !span_valid(s))
            BAD("spans", a->vertex_first + v, NULL,
                "vertex %d of attachment %d: span %d+%d, expected %lld+(1..%d)", v, i, s->first, s->count,
                (long long)next, MF_SD_MAX_INFLUENCES);
        next += s->count;
    }
    if (next != (long long)a->infl_first + a->infl_count)
        BAD("attachments", i, "influences", "the vertex spans cover %lld influences, not %d",
            (long long)(next - a->infl_first), a->infl_count);
    return MF_OK;
}

/* Geometry shared unchanged with the parent was checked with the parent. */
static bool same_geometry(const mf_sd_attachment *a, const mf_sd_attachment *p)
{
    return a->flags == p->flags && a->vertex_count == p->vertex_count && a->vertex_first == p->vertex_first &&
           a->infl_first == p->infl_first && a->infl_count == p->infl_count && a->tri_first == p->tri_first &&
           a->tri_count == p->tri_count;
}

static mf_result check_attachment(const mf_skel_data *d, int32_t i, mf_sd_runs *runs, mf_sd_max16 *tris,
                                  mf_diag *diag)
{
    const mf_sd_attachment *a = &d->attachments[i];
    NAME_OK("attachments", i, a->name);
    if (!mf_sd_str_ok(d, a->display_name))
        BAD("attachments", i, "displayName", "string offset %d outside the string table (%d bytes)", a->display_name,
            d->string_bytes);
    if (a->slot < 0 || a->slot >= d->slot_count) BAD("attachments", i, "slot", "slot %d outside 0..%d", a->slot, d->slot_count - 1);
    if (a->skin < 0 || a->skin >= d->skin_count) BAD("attachments", i, "skin", "skin %d outside 0..%d", a->skin, d->skin_count - 1);
    if (a->type >= MF_SD_ATT_TYPE_COUNT) BAD("attachments", i, "type", "unknown attachment type %u", a->type);
    if (a->seq_count < 0) BAD("attachments", i, "sequence", "negative frame count %d", a->seq_count);
    if (a->seq_count > 0 && (a->seq_setup < 0 || a->seq_setup >= a->seq_count))
        BAD("attachments", i, "sequence", "setup frame %d outside 0..%d", a->seq_setup, a->seq_count - 1);
    if (a->image != -1 && !range_ok(a->image, a->seq_count > 0 ? a->seq_count : 1, d->image_count))
        BAD("attachments", i, "image", "image %d (%d frames) outside the images (%d)", a->image,
            a->seq_count > 0 ? a->seq_count : 1, d->image_count);
    if (a->vertex_count < 0) BAD("attachments", i, "vertices", "negative vertex count %d", a->vertex_count);
    bool weighted = (a->flags & MF_SD_ATT_WEIGHTED) != 0;
    /* a parent without a parent of its own gets the full check in its own turn */
    bool shared = a->parent >= 0 && a->parent < d->attachment_count && a->parent != i &&
                  d->attachments[a->parent].parent == -1 && same_geometry(a, &d->attachments[a->parent]);
    long long deform = weighted ? 2 * (long long)a->infl_count : 2 * (long long)a->vertex_count;
    switch (a->type) {
    case MF_SD_ATT_REGION:
        if (weighted || a->vertex_count != 4 || a->tri_count != 6 || a->uv_first < 0)
            BAD("attachments", i, "vertices", "a region has 4 unweighted corners, uvs and 2 triangles");
        deform = 0;
        break;
    case MF_SD_ATT_MESH:
    case MF_SD_ATT_LINKED_MESH:
        if (a->uv_first < 0) BAD("attachments", i, "uvs", "a mesh needs uvs");
        break;
    case MF_SD_ATT_POINT:
        if (a->vertex_count != 0) BAD("attachments", i, "vertices", "a point has no vertices");
        deform = 0;
        break;
    default: break;
    }
    if (a->deform_count != deform)
        BAD("attachments", i, "deformCount", "%d deform floats, expected %lld", a->deform_count, (long long)deform);
    if (weighted) {
        if (!shared) {
            mf_result r = check_weighted(d, i, a, runs, diag);
            if (r != MF_OK) return r;
        }
    } else if (!range_ok(a->vertex_first, 2 * (long long)a->vertex_count, d->float_count)) {
        BAD("attachments", i, "vertices", "floats %d+%lld outside the floats (%d)", a->vertex_first,
            2 * (long long)a->vertex_count, d->float_count);
    }
    if ((a->uv_first == -1) != (a->uv_sets == 0) ||
        (a->uv_sets != 0 && a->uv_sets != 1 && (a->seq_count <= 0 || a->uv_sets != a->seq_count)))
        BAD("attachments", i, "uvSets", "%d uv sets (uvs at %d, %d sequence frames)", a->uv_sets, a->uv_first,
            a->seq_count);
    if (a->uv_first != -1 &&
        !range_ok(a->uv_first, 2 * (long long)a->vertex_count * a->uv_sets, d->float_count))
        BAD("attachments", i, "uvs", "floats %d+%lld outside the floats (%d)", a->uv_first,
            2 * (long long)a->vertex_count * a->uv_sets, d->float_count);
    if (a->tri_count % 3 != 0 || !range_ok(a->tri_first, a->tri_count, d->triangle_index_count))
        BAD("attachments", i, "triangles", "indices %d+%d outside the triangles (%d) or not a multiple of 3",
            a->tri_first, a->tri_count, d->triangle_index_count);
    /* meshes may share triangles: past the budget the range's largest index answers */
    if (!shared && !mf_sd_max16_below(tris, a->tri_first, a->tri_count, a->vertex_count))
        for (int32_t k = 0; k < a->tri_count; k++)
            if (d->triangles[a->tri_first + k] >= a->vertex_count)
                BAD("attachments", i, "triangles", "index %d: vertex %u of %d", k, d->triangles[a->tri_first + k],
                    a->vertex_count);
    if (a->hull < 0 || a->hull > a->vertex_count)
        BAD("attachments", i, "hull", "hull %d outside 0..%d", a->hull, a->vertex_count);
    if (a->parent < -1 || a->parent >= d->attachment_count)
        BAD("attachments", i, "parent", "attachment %d outside -1..%d", a->parent, d->attachment_count - 1);
    if (a->deform_source < 0 || a->deform_source >= d->attachment_count)
        BAD("attachments", i, "deformSource", "attachment %d outside 0..%d", a->deform_source, d->attachment_count - 1);
    if (d->attachments[a->deform_source].deform_count != a->deform_count)
        BAD("attachments", i, "deformSource", "attachment %d has %d deform floats, this one %d", a->deform_source,
            d->attachments[a->deform_source].deform_count, a->deform_count);
    if (a->end_slot < -1 || a->end_slot >= d->slot_count)
        BAD("attachments", i, "endSlot", "slot %d outside -1..%d", a->end_slot, d->slot_count - 1);
    if (!range_ok(a->lengths_first, a->lengths_count, d->float_count))
        BAD("attachments", i, "lengths", "floats %d+%d outside the floats (%d)", a->lengths_first, a->lengths_count,
            d->float_count);
    return MF_OK;
}

static mf_result check_attachments(const mf_skel_data *d, mf_diag *diag)
{
    for (int32_t i = 0; i < d->influence_count; i++)
        if (d->influences[i].bone < 0 || d->influences[i].bone >= d->bone_count)
            BAD("influences", i, "bone", "bone %d outside 0..%d", d->influences[i].bone, d->bone_count - 1);
    mf_sd_runs runs;
    mf_sd_runs_init(&runs, d->spans, d->span_count, d->skin_vertex_count, span_valid_at, span_follows);
    mf_sd_max16 tris;
    mf_sd_max16_init(&tris, d->triangles, d->triangle_index_count);
    mf_result r = MF_OK;
    for (int32_t i = 0; i < d->attachment_count && r == MF_OK; i++) r = check_attachment(d, i, &runs, &tris, diag);
    mf_sd_runs_free(&runs);
    mf_sd_max16_free(&tris);
    return r;
}

/* ---- clips ---- */

enum { T_NONE, T_BONE, T_SLOT, T_IK, T_TRANSFORM, T_PATH, T_PHYSICS };
#define DYN (-1)    /* deform: the attachment's deform_count */
#define SLOTS (-2)  /* draw order: slot_count */

static const struct {
    uint8_t target;
    int8_t comps, icomps;
    bool curved;
} KINDS[MF_SD_TL_KIND_COUNT] = {
    [MF_SD_TL_ROTATE] = {T_BONE, 1, 0, true},          [MF_SD_TL_TRANSLATE] = {T_BONE, 2, 0, true},
    [MF_SD_TL_TRANSLATE_X] = {T_BONE, 1, 0, true},     [MF_SD_TL_TRANSLATE_Y] = {T_BONE, 1, 0, true},
    [MF_SD_TL_SCALE] = {T_BONE, 2, 0, true},           [MF_SD_TL_SCALE_X] = {T_BONE, 1, 0, true},
    [MF_SD_TL_SCALE_Y] = {T_BONE, 1, 0, true},         [MF_SD_TL_SHEAR] = {T_BONE, 2, 0, true},
    [MF_SD_TL_SHEAR_X] = {T_BONE, 1, 0, true},         [MF_SD_TL_SHEAR_Y] = {T_BONE, 1, 0, true},
    [MF_SD_TL_INHERIT] = {T_BONE, 0, 1, false},        [MF_SD_TL_ATTACHMENT] = {T_SLOT, 0, 1, false},
    [MF_SD_TL_RGBA] = {T_SLOT, 4, 0, true},            [MF_SD_TL_RGB] = {T_SLOT, 3, 0, true},
    [MF_SD_TL_ALPHA] = {T_SLOT, 1, 0, true},           [MF_SD_TL_RGBA2] = {T_SLOT, 7, 0, true},
    [MF_SD_TL_SEQUENCE] = {T_SLOT, 1, 2, false},       [MF_SD_TL_IK] = {T_IK, 2, 3, true},
    [MF_SD_TL_TRANSFORM] = {T_TRANSFORM, 6, 0, true},  [MF_SD_TL_PATH_POSITION] = {T_PATH, 1, 0, true},
    [MF_SD_TL_PATH_SPACING] = {T_PATH, 1, 0, true},    [MF_SD_TL_PATH_MIX] = {T_PATH, 3, 0, true},
    [MF_SD_TL_PHYSICS_INERTIA] = {T_PHYSICS, 1, 0, true}, [MF_SD_TL_PHYSICS_STRENGTH] = {T_PHYSICS, 1, 0, true},
    [MF_SD_TL_PHYSICS_DAMPING] = {T_PHYSICS, 1, 0, true}, [MF_SD_TL_PHYSICS_MASS] = {T_PHYSICS, 1, 0, true},
    [MF_SD_TL_PHYSICS_WIND] = {T_PHYSICS, 1, 0, true},    [MF_SD_TL_PHYSICS_GRAVITY] = {T_PHYSICS, 1, 0, true},
    [MF_SD_TL_PHYSICS_MIX] = {T_PHYSICS, 1, 0, true},     [MF_SD_TL_PHYSICS_RESET] = {T_PHYSICS, 0, 0, false},
    [MF_SD_TL_DEFORM] = {T_SLOT, DYN, 0, true},        [MF_SD_TL_DRAW_ORDER] = {T_NONE, 0, SLOTS, false},
    [MF_SD_TL_EVENT] = {T_NONE, 3, 3, false},
};

static mf_result check_target(const mf_skel_data *d, int32_t i, const mf_sd_timeline *t, mf_diag *diag)
{
    int32_t lim = 0;
    const char *what = "";
    switch (KINDS[t->kind].target) {
    case T_NONE:
        if (t->target != -1) BAD("timelines", i, "target", "this kind has no target, got %d", t->target);
        return MF_OK;
    case T_BONE: lim = d->bone_count; what = "bone"; break;
    case T_SLOT: lim = d->slot_count; what = "slot"; break;
    case T_IK: lim = d->ik_count; what = "ik constraint"; break;
    case T_TRANSFORM: lim = d->transform_count; what = "transform constraint"; break;
    case T_PATH: lim = d->path_count; what = "path constraint"; break;
    case T_PHYSICS:
        lim = d->physics_count;
        what = "physics constraint";
        if (t->target == -1) return MF_OK; /* every physics constraint */
        break;
    }
    if (t->target < 0 || t->target >= lim) BAD("timelines", i, "target", "%s %d outside 0..%d", what, t->target, lim - 1);
    return MF_OK;
}

/* Key times run finite and never backwards. */
static bool time_valid(const void *v, int32_t j) { return mf_sd_finite(((const float *)v)[j]); }
static bool time_follows(const void *v, int32_t j) { return ((const float *)v)[j] >= ((const float *)v)[j - 1]; }

static mf_result check_timeline(const mf_skel_data *d, int32_t i, mf_sd_runs *times, mf_sd_int_tables *ints,
                                 mf_diag *diag)
{
    const mf_sd_timeline *t = &d->timelines[i];
    if (t->kind >= MF_SD_TL_KIND_COUNT) BAD("timelines", i, "kind", "unknown timeline kind %u", t->kind);
    mf_result r = check_target(d, i, t, diag);
    if (r != MF_OK) return r;
    int32_t comps = KINDS[t->kind].comps, icomps = KINDS[t->kind].icomps;
    if (t->kind == MF_SD_TL_DEFORM) {
        if (t->attachment < 0 || t->attachment >= d->attachment_count)
            BAD("timelines", i, "attachment", "attachment %d outside 0..%d", t->attachment, d->attachment_count - 1);
        const mf_sd_attachment *a = &d->attachments[t->attachment];
        if (a->slot != t->target)
            BAD("timelines", i, "attachment", "attachment %d is on slot %d, not slot %d", t->attachment, a->slot, t->target);
        if (a->deform_count < 1) BAD("timelines", i, "attachment", "attachment %d has no vertices to deform", t->attachment);
        comps = a->deform_count;
    } else if (t->attachment != -1) {
        BAD("timelines", i, "attachment", "only deform timelines name an attachment, got %d", t->attachment);
    }
    if (icomps == SLOTS) icomps = d->slot_count;
    if (t->value_comps != comps) BAD("timelines", i, "valueComps", "%d floats a key, this kind has %d", t->value_comps, comps);
    if (t->int_comps != icomps) BAD("timelines", i, "intComps", "%d ints a key, this kind has %d", t->int_comps, icomps);
    if (t->key_count < 1 || !range_ok(t->key_first, t->key_count, d->time_count))
        BAD("timelines", i, "keys", "keys %d+%d outside the times (%d) or empty", t->key_first, t->key_count, d->time_count);
    if (!range_ok(t->value_first, (long long)t->key_count * comps, d->value_count))
        BAD("timelines", i, "values", "values %d+%lld outside the values (%d)", t->value_first,
            (long long)t->key_count * comps, d->value_count);
    if (!range_ok(t->int_first, (long long)t->key_count * icomps, d->int_count))
        BAD("timelines", i, "ints", "ints %d+%lld outside the ints (%d)", t->int_first, (long long)t->key_count * icomps,
            d->int_count);
    if (KINDS[t->kind].curved) {
        int32_t cc = t->kind == MF_SD_TL_DEFORM ? 1 : comps;
        if (t->curve_comps != cc) BAD("timelines", i, "curveComps", "%d curves a segment, this kind has %d", t->curve_comps, cc);
        if (!range_ok(t->curve_first, (long long)(t->key_count - 1) * cc, d->curve_count))
            BAD("timelines", i, "curves", "curves %d+%lld outside the curves (%d)", t->curve_first,
                (long long)(t->key_count - 1) * cc, d->curve_count);
    } else if (t->curve_first != -1 || t->curve_comps != 0) {
        BAD("timelines", i, "curves", "discrete keys have no curves");
    }
    const float *tm = d->times + t->key_first;
    /* key times may be shared: past the budget the table answers, the walk gives the error */
    if (!mf_sd_runs_ok(times, t->key_first, t->key_count)) {
        if (!mf_sd_finite(tm[0])) BAD("timelines", i, "keys", "key 0: time is not a finite number");
        for (int32_t k = 1; k < t->key_count; k++)
            if (!(tm[k] >= tm[k - 1]) || !mf_sd_finite(tm[k]))
                BAD("timelines", i, "keys", "key %d: time %g is before key %d's %g", k, (double)tm[k], k - 1,
                    (double)tm[k - 1]);
    }
    return mf_sd_check_ints(d, i, t, ints, diag);
}

static mf_result check_clips(const mf_skel_data *d, mf_diag *diag)
{
    for (int32_t i = 0; i < d->bezier_count; i++) {
        const mf_sd_bezier *b = &d->beziers[i];
        float prev = 0.0f;
        for (int k = 0; k < MF_SD_CURVE_SAMPLES; k++) {
            if (!(b->x[k] >= prev) || !(b->x[k] <= 1.0f) || !mf_sd_finite(b->y[k]))
                BAD("beziers", i, NULL, "sample %d: x must ascend within 0..1 and y be finite", k);
            prev = b->x[k];
        }
    }
    for (int32_t i = 0; i < d->curve_count; i++)
        if (d->curves[i] < MF_SD_CURVE_STEPPED || d->curves[i] >= d->bezier_count)
            BAD("curves", i, NULL, "curve code %d: neither linear (-1), stepped (-2) nor a bezier 0..%d", d->curves[i],
                d->bezier_count - 1);
    mf_sd_runs times;
    mf_sd_runs_init(&times, d->times, d->time_count, d->time_count, time_valid, time_follows);
    mf_sd_int_tables ints = {.budget = d->int_count};
    mf_result r = MF_OK;
    for (int32_t i = 0; i < d->timeline_count && r == MF_OK; i++) r = check_timeline(d, i, &times, &ints, diag);
    mf_sd_runs_free(&times);
    mf_sd_int_tables_free(&ints);
    if (r != MF_OK) return r;
    for (int32_t i = 0; i < d->clip_count; i++) {
        const mf_sd_clip *c = &d->clips[i];
        NAME_OK("clips", i, c->name);
        if (c->loop >= MF_SD_LOOP_COUNT) BAD("clips", i, "loop", "unknown loop mode %u", c->loop);
        if (!(c->length >= 0.0f) || !mf_sd_finite(c->length)) BAD("clips", i, "length", "length must be a finite number >= 0");
        if (!range_ok(c->timeline_first, c->timeline_count, d->timeline_count))
            BAD("clips", i, "timelines", "timelines %d+%d outside the timelines (%d)", c->timeline_first,
                c->timeline_count, d->timeline_count);
    }
    return MF_OK;
}

/* One box per clip and the setup pose's, finite and not inverted (culling trusts them). */
static mf_result check_bounds(const mf_skel_data *d, mf_diag *diag)
{
    if (d->bounds_count != d->clip_count + 1)
        return mf_sd_bad(diag, "section bounds", -1, NULL, "%d boxes, expected %d (the setup pose's and one per clip)",
                         d->bounds_count, d->clip_count + 1);
    for (int32_t i = 0; i < d->bounds_count; i++) {
        const mf_sd_bounds *b = &d->bounds[i];
        const float v[4] = {b->min_x, b->min_y, b->max_x, b->max_y};
        static const char *const names[4] = {"minX", "minY", "maxX", "maxY"};
        for (int k = 0; k < 4; k++)
            if (!mf_sd_finite(v[k])) BAD("bounds", i, names[k], "not a finite number");
        if (!(b->min_x <= b->max_x)) BAD("bounds", i, "minX", "min x %g is above max x %g", (double)b->min_x, (double)b->max_x);
        if (!(b->min_y <= b->max_y)) BAD("bounds", i, "minY", "min y %g is above max y %g", (double)b->min_y, (double)b->max_y);
    }
    return MF_OK;
}

mf_result mf_sd_check_content(const mf_skel_data *d, mf_diag *diag)
{
    mf_result r = check_strings(d, diag);
    if (r == MF_OK) r = check_pages(d, diag);
    if (r == MF_OK) r = check_rig(d, diag);
    if (r == MF_OK) r = check_constraints(d, diag);
    if (r == MF_OK) r = check_attachments(d, diag);
    if (r == MF_OK) r = check_skins(d, diag);
    if (r == MF_OK) r = check_clips(d, diag);
    if (r == MF_OK) r = check_bounds(d, diag);
    if (r == MF_OK) r = mf_sd_check_skin_streams(d, diag); /* after the attachments: it follows their spans */
    return r;
}
