/* The draw list: what a renderer draws, in draw order, with world vertices, colours, blend and
 * clipped geometry inside clipping ranges. Buffers sized at create for the worst case. */
#include <string.h>

#if defined(__SSE2__) && !defined(MF_NO_SIMD)
#include <emmintrin.h>
#endif

#include "../alloc_lines.h"
#include "../skel_data_same.h"
#include "geom_item.h"
#include "geom_skin.h"
#include "mf/mf_geometry.h"
#include "pose_internal.h"

#define CLIP_MAX 64 /* clip polygon points handled (mf_convex_decompose's limit) */

/* The list's arrays, each on lines of its own (an item is one line): the struct, its copy of the
 * view, items and vertices, which every frame touches, in the hot block; uvs, indices and the
 * clipping scratch, which only a changed item or clipping touches, in the cold one
 * (mf_alloc_cold), in the order a build touches them. Returns the view's place; *zeroed gets
 * the hot bytes before the vertices. */
static mf_skel_data *plan(mf_draw_list *dl, int32_t slots, int64_t verts, int64_t idx, int32_t clip_m,
                          int32_t clip_cap, int32_t max_verts, mf_lines_layout *hot, mf_lines_layout *cold,
                          size_t *zeroed)
{
    (void)mf_lines_carve_line(hot, 1, sizeof(mf_draw_list));
    mf_skel_data *view = mf_lines_carve_line(hot, 1, sizeof(mf_skel_data));
    dl->items = mf_lines_carve_line(hot, (size_t)slots, sizeof(mf_draw_item));
    *zeroed = hot->used; /* what create clears: a build writes the rest before reading it */
    dl->jobs = mf_lines_carve_line(hot, (size_t)slots * 3, sizeof(int32_t)); /* listed before read */
    dl->vertices = mf_lines_carve_line(hot, (size_t)verts * 2, sizeof(float));
    dl->uvs = mf_lines_carve_line(cold, (size_t)verts * 2, sizeof(float));
    dl->indices = mf_lines_carve_line(cold, (size_t)idx, sizeof(uint16_t));
    dl->clip_poly = mf_lines_carve_line(cold, (size_t)(6 * clip_m + 8), sizeof(float));
    dl->clip_tmp_a = mf_lines_carve_line(cold, (size_t)(2 * clip_cap), sizeof(float));
    dl->clip_tmp_b = mf_lines_carve_line(cold, (size_t)(2 * clip_cap), sizeof(float));
    dl->skin = mf_lines_carve_line(cold, (size_t)(2 * max_verts), sizeof(float));
    dl->clip_piece_first = mf_lines_carve_line(cold, CLIP_MAX, sizeof(int32_t));
    dl->clip_piece_count = mf_lines_carve_line(cold, CLIP_MAX, sizeof(int32_t));
    return view;
}

mf_result mf_draw_list_create(const mf_skel_data *d, const mf_allocator *alloc, mf_draw_list **out)
{
    if (!out) return MF_ERR_ARGUMENT;
    *out = NULL;
    if (!d) return MF_ERR_ARGUMENT;
    mf_allocator al = alloc ? *alloc : (mf_allocator){0};
    int64_t verts = 0, idx = 0, tris = 0;
    int32_t clip_m = 0, max_verts = 4;
    int32_t mv[MF_GEOM_SLOT_BLOCK], mi[MF_GEOM_SLOT_BLOCK];
    for (int32_t s = 0; s < d->slot_count; s += MF_GEOM_SLOT_BLOCK) {
        int32_t n = d->slot_count - s < MF_GEOM_SLOT_BLOCK ? d->slot_count - s : MF_GEOM_SLOT_BLOCK;
        mf_geom_slot_most(d, s, n, mv, mi, &clip_m, &max_verts);
        for (int32_t k = 0; k < n; k++) verts += mv[k], idx += mi[k], tris += mi[k] / 3;
    }
    int64_t verts_unclipped = verts, idx_unclipped = idx;
    if (clip_m > CLIP_MAX) clip_m = CLIP_MAX;
    if (clip_m >= 3) {
        /* a triangle clipped by a convex piece of m points gives at most 3 + m points (a fan of
         * 1 + m triangles). The n points' decomposition (ear clipping into at most n - 2
         * triangles, then merges that each drop 2 points) has P <= n - 2 pieces of at most
         * n - 2 + 2P points in all: per triangle at most 5P + n - 2 <= 6n - 12 points and
         * 3 (3P + n - 2) <= 12n - 24 indices */
        verts += tris * (6 * (int64_t)clip_m - 12);
        idx += tris * (12 * (int64_t)clip_m - 24);
    }
    if (verts > 0x7fffffff / 8 || idx > 0x7fffffff / 4) return MF_ERR_UNSUPPORTED;
    int32_t clip_cap = clip_m + 8;
    mf_lines_layout hot = {NULL, 0}, cold = {NULL, 0};
    mf_draw_list probe = {0};
    size_t zeroed = 0;
    (void)plan(&probe, d->slot_count, verts, idx, clip_m, clip_cap, max_verts, &hot, &cold, &zeroed); /* sizes */
    void *cold_block;
    /* only the struct, the view and the items cleared: the vertex, uv and index capacity
     * (clipping's worst case, most of it never written) stays as the allocator gives it */
    unsigned char *block = mf_alloc_lines_two(&al, hot.used, cold.used, zeroed, 0, &cold_block);
    if (!block) return MF_ERR_NOMEM;
    mf_draw_list *dl = (mf_draw_list *)block;
    hot = (mf_lines_layout){block, 0}, cold = (mf_lines_layout){cold_block, 0};
    mf_skel_data *view = plan(dl, d->slot_count, verts, idx, clip_m, clip_cap, max_verts, &hot, &cold, &zeroed);
    dl->item_cap = d->slot_count, dl->vertex_cap = (int32_t)verts, dl->index_cap = (int32_t)idx;
    dl->vertex_unclipped = (int32_t)verts_unclipped, dl->index_unclipped = (int32_t)idx_unclipped;
    dl->clip_cap = clip_cap;
    dl->cold = cold_block;
    /* the list's own copy of a loaded view: the caller's may be a temporary (only the blob
     * must stay loaded, as for a pose); a view not from the loader (no bytes) is kept by address */
    *view = *d;
    dl->data = d->bytes ? view : d;
    dl->alloc = al;
    *out = dl;
    return MF_OK;
}

void mf_draw_list_destroy(mf_draw_list *dl)
{
    if (!dl) return;
    mf_allocator al = dl->alloc;
    mf_free_lines_two(&al, dl, dl->cold);
}

/* byte / 255 by a table of the very quotients (pose_internal.h), built at compile time: no
 * divisions a colour, no run-time initialisation to race on */
#define UB1(i) (float)(i) / 255.0f
#define UB4(i) UB1(i), UB1((i) + 1), UB1((i) + 2), UB1((i) + 3)
#define UB16(i) UB4(i), UB4((i) + 4), UB4((i) + 8), UB4((i) + 12)
#define UB64(i) UB16(i), UB16((i) + 16), UB16((i) + 32), UB16((i) + 48)
const float mf_unit_byte[256] = {UB64(0), UB64(64), UB64(128), UB64(192)};

/* The clip polygon's convex pieces, their points in clip_poly. */
static bool start_clip(mf_draw_list *dl, const mf_pose *p, int32_t slot, int32_t att)
{
    int32_t n = mf_pose_world_vertices(p, slot, att, dl->skin, CLIP_MAX);
    if (n < 3 || 3 * n > 3 * (dl->clip_cap - 8) + 4) return false;
    dl->piece_count = mf_convex_decompose(dl->skin, n, dl->clip_poly, 3 * n, dl->clip_piece_first,
                                          dl->clip_piece_count, CLIP_MAX, NULL);
    return dl->piece_count > 0;
}

/* Appends a triangle-clipped copy of the item's geometry; returns false when full. Out of line
 * now that two builds call it (some 0.5% more a clipping frame): forced inline into both, it
 * cost the steady loop 40-140 instructions a skeleton-frame (gcc 12, the bench rigs). */
static bool clip_item(mf_draw_list *dl, mf_draw_item *it, const float *v, const float *uv,
                      const uint16_t *tri, int32_t tri_count)
{
    const float *pts = dl->clip_poly;
    for (int32_t t = 0; t < tri_count; t++) {
        const float *a = v + 2 * tri[3 * t], *b = v + 2 * tri[3 * t + 1], *c = v + 2 * tri[3 * t + 2];
        const float *ua = uv + 2 * tri[3 * t], *ub = uv + 2 * tri[3 * t + 1], *uc = uv + 2 * tri[3 * t + 2];
        float in[6] = {a[0], a[1], b[0], b[1], c[0], c[1]};
        float det = (b[0] - a[0]) * (c[1] - a[1]) - (c[0] - a[0]) * (b[1] - a[1]);
        for (int32_t k = 0; k < dl->piece_count; k++) {
            const float *piece = pts + 2 * dl->clip_piece_first[k];
            int32_t m = dl->clip_piece_count[k];
            float *outp = dl->clip_tmp_a;
            int32_t n = mf_clip_convex(in, 3, piece, m, outp, dl->clip_tmp_b, dl->clip_cap);
            if (n < 3) continue;
            if (dl->vertex_count + n > dl->vertex_cap || dl->index_count + 3 * (n - 2) > dl->index_cap)
                return false;
            int32_t base = dl->vertex_count;
            for (int32_t i = 0; i < n; i++) {
                float x = outp[2 * i], y = outp[2 * i + 1];
                /* barycentric uvs */
                float l1 = 0, l2 = 0;
                if (det != 0) {
                    l1 = ((x - a[0]) * (c[1] - a[1]) - (c[0] - a[0]) * (y - a[1])) / det;
                    l2 = ((b[0] - a[0]) * (y - a[1]) - (x - a[0]) * (b[1] - a[1])) / det;
                }
                float l0 = 1 - l1 - l2;
                dl->vertices[2 * (base + i)] = x;
                dl->vertices[2 * (base + i) + 1] = y;
                dl->uvs[2 * (base + i)] = ua[0] * l0 + ub[0] * l1 + uc[0] * l2;
                dl->uvs[2 * (base + i) + 1] = ua[1] * l0 + ub[1] * l1 + uc[1] * l2;
            }
            for (int32_t i = 1; i + 1 < n; i++) {
                int32_t rel = base - it->vertex_first;
                dl->indices[dl->index_count++] = (uint16_t)rel;
                dl->indices[dl->index_count++] = (uint16_t)(rel + i);
                dl->indices[dl->index_count++] = (uint16_t)(rel + i + 1);
            }
            dl->vertex_count += n;
        }
    }
    return true;
}

/* Appends an item whose uvs and indices must be written (or clipped): a clipped item's
 * vertices (an unclipped one's are skin_items'), uvs, indices and counts. Out of line: the
 * steady loop (items kept) never calls it. */
static __attribute__((noinline)) void add_item(mf_draw_list *dl, const mf_pose *p, mf_draw_item *it,
                                               const mf_sd_attachment *at, int32_t uv_set, bool clipping)
{
    const mf_skel_data *d = p->data;
    int32_t s = it->slot, att = it->attachment, n = at->vertex_count, ni = at->tri_count;
    /* a region splits along the diagonal Spine uses (bottom-left to top-right): it decides the
     * clipped geometry */
    static const uint16_t region_tri[6] = {3, 0, 1, 1, 2, 3};
    const uint16_t *tri = at->type == MF_SD_ATT_REGION && ni == 6 ? region_tri : d->triangles + at->tri_first;
    const float *uv = d->floats + at->uv_first + (size_t)2 * (size_t)n * (size_t)uv_set;
    if (clipping) {
        mf_skin_attachment(p, s, att, at, dl->skin);
        it->clipped = true;
        if (!clip_item(dl, it, dl->skin, uv, tri, ni / 3)) {
            dl->vertex_count = it->vertex_first, dl->index_count = it->index_first;
            dl->overflow++;
        } else {
            it->vertex_count = dl->vertex_count - it->vertex_first;
            it->index_count = dl->index_count - it->index_first;
            dl->item_count++; /* listed even when clipped away entirely, as Spine */
        }
        return;
    }
    memcpy(dl->uvs + 2 * dl->vertex_count, uv, (size_t)n * 2 * sizeof(float));
    memcpy(dl->indices + dl->index_count, tri, (size_t)ni * sizeof(uint16_t));
    it->vertex_count = n, it->index_count = ni;
    dl->vertex_count += n, dl->index_count += ni;
    dl->item_count++;
}

/* The vertices of the unclipped items among the first n (the build's), each into its range.
 * A second pass over the items: the first then calls nothing for a kept item and keeps its
 * state in registers, and this one holds little across the kernels' calls. */
static __attribute__((noinline)) void skin_items(const mf_draw_list *dl, const mf_pose *p, int32_t n)
{
    const mf_skel_data *d = p->data;
    float *vertices = dl->vertices;
    const mf_draw_item *it = dl->items, *end = it + n;
#if MF_SKIN_AVX
    const float *mats = mf_skin_avx_mats(p); /* packed once a build; NULL: no AVX */
    if (mats) {
        for (; it < end; it++) {
            if (it->clipped) continue;
            int32_t s = it->slot, att = it->attachment;
            mf_skin_avx(mats, p, d, s, att, &d->attachments[att], vertices + 2 * (size_t)it->vertex_first);
        }
        return;
    }
#endif
    for (; it < end; it++) {
        if (it->clipped) continue;
        int32_t att = it->attachment;
        mf_skin_attachment(p, it->slot, att, &d->attachments[att], vertices + 2 * (size_t)it->vertex_first);
    }
}

/* skin_items for a kept build, from the jobs of the build that walked the items last (listed
 * from its items by the first kept build after it: nothing clipped, every item skins). */
static __attribute__((noinline)) void skin_jobs(mf_draw_list *dl, const mf_pose *p)
{
    if (dl->job_count < 0) {
        int32_t *j = dl->jobs;
        for (int32_t k = 0; k < dl->item_count; k++, j += 3)
            j[0] = dl->items[k].slot, j[1] = dl->items[k].attachment, j[2] = dl->items[k].vertex_first;
        dl->job_count = dl->item_count;
    }
    const mf_skel_data *d = p->data;
    float *vertices = dl->vertices;
    const int32_t *j = dl->jobs, *end = j + 3 * (size_t)dl->job_count;
#if MF_SKIN_AVX
    const float *mats = mf_skin_avx_mats(p);
    if (mats) {
        for (; j < end; j += 3)
            mf_skin_avx(mats, p, d, j[0], j[1], &d->attachments[j[1]], vertices + 2 * (size_t)j[2]);
        return;
    }
#endif
    for (; j < end; j += 3) mf_skin_attachment(p, j[0], j[1], &d->attachments[j[1]], vertices + 2 * (size_t)j[2]);
}

/* Where a build stands: the next position in draw order and the counts so far. */
typedef struct build_state {
    int32_t k, items, verts, idx, kept;
} build_state;

/* The steady part of a build: from draw order position st->k, the slots that draw nothing
 * and the items kept from the previous build (items [0, keep_end) of it): the same attachment
 * at the same place left its uvs and indices there and the rest of the item as it is, so only
 * image and colours are written (draw runs change only with draw order, attachments,
 * sequences and clipping). Stops at the end or at a slot that needs more (an item not kept,
 * a clipping attachment): nothing of that slot written. Calls nothing, so that its state stays
 * in registers; no room checks: a kept item fits where it fitted in the previous build.
 *
 * Only the run's first item is tested for its place, by the caller (in_place): the previous
 * build's items lie end to end (vertex_first, index_first: the sums of the counts before them)
 * and a kept item's counts are its attachment's (it was not clipped), so the items after a kept
 * one stand where this build puts them; the counts after the run are those of its last item's
 * end. */
static __attribute__((noinline)) void keep_items(mf_draw_list *dl, const mf_pose *p, int32_t keep_end, build_state *st)
{
    const mf_skel_data *d = p->data;
    const int32_t *slot_att = p->attachment, *seq_index = p->seq_index;
    const uint8_t *active = p->active;
    const float *color = p->color, *dark = p->dark;
    const mf_sd_slot *slots = d->slots;
    const mf_sd_attachment *atts = d->attachments;
    /* pointers, not counts: fewer registers, so that none spills */
    mf_draw_item *const items_at = dl->items, *const first = items_at + st->items;
    const int32_t *o = p->draw_order + st->k, *const o_end = p->draw_order + p->slot_count;
    const mf_draw_item *const it_end = items_at + keep_end;
    mf_draw_item *it = first;
    for (; o < o_end; o++) {
        int32_t s = *o;
        int32_t att = slot_att[s];
        if (att < 0 || !active[slots[s].bone]) continue;
        const mf_sd_attachment *at = &atts[att];
        if (!mf_geom_drawable(at->type)) {
            if (at->type == MF_SD_ATT_CLIPPING) break;
            continue;
        }
        if (it >= it_end) break;
        int32_t image, uv_set;
        mf_geom_item_seq(seq_index, s, at, &image, &uv_set);
        if (it->slot != s || it->attachment != att || it->uv_set != uv_set || it->clipped) break;
        it->image = image;
        mf_geom_item_light(color + 4 * s, at->color, it->light);
        memcpy(it->dark, dark + 3 * s, 3 * sizeof(float));
        it++;
    }
    int32_t items = (int32_t)(it - items_at);
    st->k = (int32_t)(o - p->draw_order), st->kept += (int32_t)(it - first), st->items = items;
    if (it > first) {
        const mf_draw_item *last = it - 1;
        st->verts = last->vertex_first + last->vertex_count, st->idx = last->index_first + last->index_count;
    }
}

/* Whether item st->items of the previous build (of prev_items) stands where this build puts
 * the next item: else none can be kept until one is added (keep_items not called). */
static inline bool in_place(const mf_draw_list *dl, int32_t prev_items, const build_state *st)
{
    if (st->items >= prev_items) return false;
    const mf_draw_item *it = &dl->items[st->items];
    return it->vertex_first == st->verts && it->index_first == st->idx;
}

/* After a build: whether its items may stand at the next one (whole: no clipping attachment
 * met, nothing left out). The pose's scratch is written through a const pose, as the skinning
 * cache is: the pose is the caller's thread's (mf_pose.h). */
static inline void note_build(mf_draw_list *dl, const mf_pose *p, bool whole)
{
    mf_pose_scratch *s = p->scratch;
    if (!s->slot_tracking || !whole || dl->overflow) {
        dl->kept_pose = NULL;
        return;
    }
    dl->kept_pose = p, dl->kept_stamp = s->slot_stamp;
    s->slot_list = dl;
    dl->job_count = -1; /* the first kept build lists them (a walk every frame never needs them) */
}

/* The build proper (dl and p checked: p of dl's data); skin false: unclipped items' vertices
 * left unwritten (mf_draw_list_build_items). Always inlined into the two callers below, each
 * with a constant skin. Runs of kept items by keep_items; here the slots that need more: items
 * added, clipping ranges (no item kept inside one), overflow. */
static inline __attribute__((always_inline)) void build(mf_draw_list *dl, const mf_pose *p, bool skin)
{
    const mf_skel_data *d = p->data;
    if (mf_draw_items_stand(dl, p)) { /* every item as it is, every one kept */
        dl->items_kept = dl->item_count;
        if (skin) skin_jobs(dl, p);
        return;
    }
    int32_t prev_items = dl->item_count; /* items [0, prev_items) hold the previous build */
    dl->item_count = dl->vertex_count = dl->index_count = dl->overflow = dl->items_kept = 0;
    bool whole = true; /* no clipping attachment met */
    int32_t clip_end = -2; /* -2: not clipping; -1: clipping to the end; else the end slot */
    build_state st = {0, 0, 0, 0, 0};
    while (1) {
        if (clip_end == -2 && in_place(dl, prev_items, &st)) keep_items(dl, p, prev_items, &st);
        if (st.k >= p->slot_count) break;
        int32_t s = p->draw_order[st.k++];
        int32_t att = p->attachment[s];
        const mf_sd_slot *sd = &d->slots[s];
        if (att < 0 || !p->active[sd->bone]) goto next;
        const mf_sd_attachment *at = &d->attachments[att];
        if (at->type == MF_SD_ATT_CLIPPING) {
            whole = false;
            if (clip_end == -2) {
                dl->item_count = st.items, dl->vertex_count = st.verts, dl->index_count = st.idx;
                if (start_clip(dl, p, s, att)) clip_end = at->end_slot;
            }
            continue; /* the clip's own slot never ends its range */
        }
        if (!mf_geom_drawable(at->type)) goto next;
        int32_t n = at->vertex_count, ni = at->tri_count;
        if (st.items >= dl->item_cap || st.verts + n > dl->vertex_cap || st.idx + ni > dl->index_cap) {
            dl->overflow++;
            goto next;
        }
        /* not kept (keep_items stopped here, or clipping) */
        mf_draw_item *it = &dl->items[st.items];
        int32_t image, uv_set;
        mf_geom_item_frame(p, s, at, &image, &uv_set);
        it->image = image;
        mf_geom_item_colours(p, s, at->color, it->light, it->dark);
        it->slot = s, it->attachment = att, it->uv_set = uv_set; /* every field written */
        it->blend = sd->blend, it->has_dark = sd->has_dark, it->clipped = false;
        it->vertex_first = st.verts, it->index_first = st.idx;
        dl->item_count = st.items, dl->vertex_count = st.verts, dl->index_count = st.idx;
        add_item(dl, p, it, at, uv_set, clip_end != -2);
        st.items = dl->item_count, st.verts = dl->vertex_count, st.idx = dl->index_count;
    next:
        if (clip_end == s) clip_end = -2; /* s >= 0: never while -2 or -1 */
    }
    dl->item_count = st.items, dl->vertex_count = st.verts, dl->index_count = st.idx, dl->items_kept = st.kept;
    note_build(dl, p, whole);
    if (skin) skin_items(dl, p, st.items);
}

/* noinline: inlined under the checks, the loop compiled to some 50-70 more instructions a
 * skeleton-frame (gcc 12, the bench rigs). */
static __attribute__((noinline)) void build_skinned(mf_draw_list *dl, const mf_pose *p) { build(dl, p, true); }
static __attribute__((noinline)) void build_unskinned(mf_draw_list *dl, const mf_pose *p) { build(dl, p, false); }

/* dl and p checked: false (the list emptied) when they cannot be built. */
static inline bool build_ok(mf_draw_list *dl, const mf_pose *p)
{
    if (!dl) return false;
    /* the buffers (clipping scratch included) are sized from the list's data: another rig's
     * pose could write past them */
    if (!p || !mf_sd_same(p->data, dl->data)) {
        dl->item_count = dl->vertex_count = dl->index_count = dl->overflow = dl->items_kept = 0;
        dl->kept_pose = NULL;
        return false;
    }
    return true;
}

mf_result mf_draw_list_build(mf_draw_list *dl, const mf_pose *p)
{
    if (!build_ok(dl, p)) return MF_ERR_ARGUMENT;
    build_skinned(dl, p);
    return MF_OK;
}

mf_result mf_draw_list_build_items(mf_draw_list *dl, const mf_pose *p)
{
    if (!build_ok(dl, p)) return MF_ERR_ARGUMENT;
    build_unskinned(dl, p);
    return MF_OK;
}
