/* Fuzzes the runtime build loader. When the input holds a header and bit 0 of byte 32 (the
 * checksum's first byte, which resealing overwrites anyway) is set, the total size and the
 * checksum are recomputed over the fuzzed bytes first, so mutations reach the section and
 * content checks instead of stopping at the checksum. On success every range the view exposes
 * is walked, element by element, and a pose skins every weighted attachment from the build's
 * streams, so ASan catches anything the validator let through. The shared tracks object then
 * compiles every clip's key segments (mf_seg_table), and a pose samples each clip at a few times
 * through the table and through its own segments and updates its world, and a draw list is
 * built from it (walked, kept under slot tracking, items only, walked again). Seeds:
 * scripts/skel-data-seeds.sh. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mf/mf_geometry.h"
#include "mf/mf_pose.h"
#include "mf/mf_skel_data.h"
#include "mf/mf_tracks.h"

static volatile uint64_t g_sink;
static volatile float g_fsink; /* curve values may be any finite float */

static void touch(const void *p, size_t n)
{
    const unsigned char *b = p;
    uint64_t s = 0;
    for (size_t i = 0; i < n; i++) s += b[i];
    g_sink += s;
}

static void touch_str(const mf_skel_data *d, int32_t off)
{
    const char *s = mf_skel_data_string(d, off);
    if (off != -1 && !s) abort(); /* the loader let a bad offset through */
    if (s) g_sink += strlen(s);
}

static void walk_rig(const mf_skel_data *d)
{
    touch(d->info, sizeof *d->info);
    touch_str(d, d->info->uid);
    for (int32_t i = 0; i < d->image_count; i++) touch_str(d, d->images[i].name);
    for (int32_t i = 0; i < d->bone_count; i++) {
        touch_str(d, d->bones[i].name);
        if (d->bones[i].parent >= 0) touch(&d->bones[d->bones[i].parent], sizeof *d->bones);
    }
    for (int32_t i = 0; i < d->slot_count; i++) {
        touch_str(d, d->slots[i].name);
        touch_str(d, d->slots[i].attachment);
        touch(&d->bones[d->slots[i].bone], sizeof *d->bones);
    }
    for (int32_t i = 0; i < d->event_count; i++) {
        touch_str(d, d->events[i].name);
        touch_str(d, d->events[i].string);
        touch_str(d, d->events[i].audio);
    }
    for (int32_t i = 0; i < d->bone_list_count; i++) touch(&d->bones[d->bone_lists[i]], sizeof *d->bones);
    for (int32_t i = 0; i < d->ik_count; i++) {
        for (int32_t k = 0; k < d->ik[i].bone_count; k++) touch(&d->bones[d->bone_lists[d->ik[i].bone_first + k]], 4);
        touch(&d->bones[d->ik[i].target], sizeof *d->bones);
        touch_str(d, d->ik[i].name);
    }
    for (int32_t i = 0; i < d->transform_count; i++) {
        for (int32_t k = 0; k < d->transform[i].bone_count; k++)
            touch(&d->bones[d->bone_lists[d->transform[i].bone_first + k]], 4);
        touch(&d->bones[d->transform[i].target], sizeof *d->bones);
    }
    for (int32_t i = 0; i < d->path_count; i++) {
        for (int32_t k = 0; k < d->path[i].bone_count; k++) touch(&d->bones[d->bone_lists[d->path[i].bone_first + k]], 4);
        touch(&d->slots[d->path[i].target], sizeof *d->slots);
    }
    for (int32_t i = 0; i < d->physics_count; i++) touch(&d->bones[d->physics[i].bone], sizeof *d->bones);
    const int32_t counts[] = {d->bone_count, d->ik_count, d->transform_count, d->path_count, d->physics_count};
    for (int32_t i = 0; i < d->update_count; i++) {
        const mf_sd_ref *r = &d->update[i];
        if (r->index >= counts[r->kind]) abort();
    }
    for (int32_t i = 0; i < d->skin_ref_count; i++)
        if (d->skin_refs[i].kind == MF_SD_REF_BONE || d->skin_refs[i].index >= counts[d->skin_refs[i].kind]) abort();
}

static void walk_attachment(const mf_skel_data *d, const mf_sd_attachment *a)
{
    touch_str(d, a->name);
    touch_str(d, a->display_name);
    if (!mf_skel_data_attachment_name(d, (int32_t)(a - d->attachments))) abort();
    touch(&d->slots[a->slot], sizeof *d->slots);
    touch(&d->skins[a->skin], sizeof *d->skins);
    if (a->image >= 0)
        for (int32_t k = 0; k < (a->seq_count > 0 ? a->seq_count : 1); k++) touch_str(d, d->images[a->image + k].name);
    if (a->flags & MF_SD_ATT_WEIGHTED) {
        for (int32_t v = 0; v < a->vertex_count; v++) {
            const mf_sd_span *s = &d->spans[a->vertex_first + v];
            for (int32_t k = 0; k < s->count; k++) {
                const mf_sd_influence *in = &d->influences[s->first + k];
                touch(&d->bones[in->bone], 4);
                /* a runtime indexes the deform floats by influence within the attachment */
                int32_t f = 2 * (s->first + k - a->infl_first);
                if (f < 0 || f + 1 >= a->deform_count) abort();
            }
        }
    } else {
        touch(d->floats + a->vertex_first, 2 * (size_t)a->vertex_count * sizeof(float));
    }
    if (a->uv_first >= 0) touch(d->floats + a->uv_first, 2 * (size_t)a->vertex_count * sizeof(float));
    for (int32_t k = 0; k < a->tri_count; k++)
        if (d->triangles[a->tri_first + k] >= a->vertex_count) abort();
    touch(d->floats + a->lengths_first, (size_t)a->lengths_count * sizeof(float));
    if (a->parent >= 0) touch(&d->attachments[a->parent], sizeof *a);
    if (d->attachments[a->deform_source].deform_count != a->deform_count) abort();
    if (a->end_slot >= 0) touch(&d->slots[a->end_slot], sizeof *d->slots);
}

static void walk_skins(const mf_skel_data *d)
{
    for (int32_t i = 0; i < d->attachment_count; i++) walk_attachment(d, &d->attachments[i]);
    for (int32_t s = 0; s < d->skin_count; s++) {
        const mf_sd_skin *k = &d->skins[s];
        touch_str(d, k->name);
        for (int32_t e = 0; e < k->entry_count; e++) {
            const mf_sd_skin_entry *en = &d->skin_entries[k->entry_first + e];
            if (mf_skel_data_skin_attachment(d, s, en->slot, en->name) != en->attachment) abort();
        }
        for (int32_t b = 0; b < k->bone_count; b++) touch(&d->bones[d->bone_lists[k->bone_first + b]], 4);
        touch(d->skin_refs + k->constraint_first, (size_t)k->constraint_count * sizeof *d->skin_refs);
    }
}

static void walk_clips(const mf_skel_data *d)
{
    for (int32_t c = 0; c < d->clip_count; c++) {
        const mf_sd_clip *clip = &d->clips[c];
        touch_str(d, clip->name);
        for (int32_t t = 0; t < clip->timeline_count; t++) {
            const mf_sd_timeline *tl = &d->timelines[clip->timeline_first + t];
            touch(d->times + tl->key_first, (size_t)tl->key_count * sizeof(float));
            touch(d->values + tl->value_first, (size_t)tl->key_count * (size_t)tl->value_comps * sizeof(float));
            const int32_t *iv = d->ints + tl->int_first;
            touch(iv, (size_t)tl->key_count * (size_t)tl->int_comps * sizeof(int32_t));
            for (int32_t k = 0; k < tl->key_count; k++) {
                if (tl->kind == MF_SD_TL_DRAW_ORDER)
                    for (int32_t s = 0; s < tl->int_comps; s++) touch(&d->slots[iv[k * tl->int_comps + s]], 4);
                if (tl->kind == MF_SD_TL_EVENT) {
                    touch(&d->events[iv[k * 3]], sizeof *d->events);
                    touch_str(d, iv[k * 3 + 2]);
                }
                if (tl->kind == MF_SD_TL_ATTACHMENT) touch_str(d, iv[k]);
            }
            if (tl->kind == MF_SD_TL_DEFORM) touch(&d->attachments[tl->attachment], sizeof(mf_sd_attachment));
            if (tl->curve_first >= 0)
                for (int32_t s = 0; s < (tl->key_count - 1) * tl->curve_comps; s++)
                    g_fsink += mf_skel_data_curve(d, d->curves[tl->curve_first + s], 0.37f);
        }
    }
}

/* Every clip has a box the loader vouched for: finite, not inverted (culling trusts it). */
static void walk_bounds(const mf_skel_data *d)
{
    if (d->bounds_count != d->clip_count + 1) abort();
    for (int32_t c = -1; c < d->clip_count; c++) {
        float b[4];
        if (!mf_skel_data_clip_bounds(d, c, b)) abort();
        for (int k = 0; k < 4; k++)
            if (b[k] - b[k] != 0.0f) abort();
        if (!(b[0] <= b[2] && b[1] <= b[3])) abort();
        g_fsink += b[0] + b[3];
    }
    float b[4];
    if (mf_skel_data_clip_bounds(d, d->clip_count, b) || mf_skel_data_clip_bounds(d, -2, b)) abort();
}

/* The weighted skinning streams: every range the kernels follow lies inside its section, every
 * record's bone is a bone or the all-zero matrix after them; then a pose skins every weighted
 * attachment from them (ASan sees any read the check let through). */
static void walk_skin_streams(const mf_skel_data *d)
{
    if (d->skin_group_first_count != d->attachment_count + 1) abort();
    int32_t most = 0;
    for (int32_t a = 0; a < d->attachment_count; a++) {
        const mf_sd_attachment *at = &d->attachments[a];
        int32_t g0 = d->skin_group_first[a], g1 = d->skin_group_first[a + 1];
        if (g0 < 0 || g1 < g0 || g1 > d->skin_group_count) abort();
        /* two chains where the first group's runs field says so: the run groups and the count
         * groups of the others, then the count groups of every vertex */
        int32_t every = g0 < g1 ? g0 + d->skin_groups[g0].runs : g1;
        if (every < g0 || every > g1 || (g0 < g1 && every == g1)) abort();
        for (int32_t g = g0; g < g1; g++) {
            const mf_sd_skin_group *gr = &d->skin_groups[g];
            int32_t end = g < every ? every : g1; /* the group's chain's end */
            if (g > g0 && gr->runs != 0) abort();
            if (gr->plain >= 30) { /* a run group: its vertex entries (contiguous: one), its records */
                int32_t c = gr->count, steps = (gr->vertices + 7) / 8;
                bool more = g + 1 < end, contig = gr->plain < 38;
                int32_t entries = contig ? 1 : gr->vertices;
                if (g >= every || gr->plain != (contig ? 30 : 38) + c - 1 + (more ? 4 : 0) || gr->deformed != gr->plain ||
                    c > 4 || gr->vertices < 8 || gr->total != at->vertex_count)
                    abort();
                if (more && (gr[1].record_first != gr->record_first + 1 + 6 * c * steps ||
                             gr[1].vertex_first != gr->vertex_first + entries))
                    abort();
                for (int32_t v = 0; v < entries; v++) {
                    const mf_sd_skin_vertex *vx = &d->skin_vertices[gr->vertex_first + v];
                    if (vx->out < 0 || vx->out + 2 * (contig ? gr->vertices : 1) > 2 * at->vertex_count) abort();
                }
                const mf_sd_skin_record *bones = &d->skin_records[gr->record_first];
                const float b8[4] = {bones->wx, bones->wy, bones->w, bones->bone8};
                for (int32_t j = 0; j < c; j++)
                    if (!(b8[j] >= 0 && b8[j] < 8.0f * (float)d->bone_count)) abort();
                continue;
            }
            /* kernels: chained (+15) exactly when the chain's next group follows, whose
             * records and vertices start where this group's end */
            int32_t chain = g + 1 < end ? 15 : 0;
            if (gr->plain - chain < 0 || gr->plain - chain >= 10 || gr->deformed - chain < 10 ||
                gr->deformed - chain >= 15 || gr->total != at->vertex_count)
                abort();
            if (chain && (gr[1].record_first != gr->record_first + gr->vertices * gr->count ||
                          gr[1].vertex_first != gr->vertex_first + gr->vertices))
                abort();
            for (int32_t v = 0; v < gr->vertices; v++) {
                const mf_sd_skin_vertex *vx = &d->skin_vertices[gr->vertex_first + v];
                if (vx->out < 0 || vx->out + 1 >= 2 * at->vertex_count) abort();
                if (vx->records < 1 || vx->records > gr->count || vx->deform < 0 ||
                    vx->deform + 2 * vx->records > at->deform_count)
                    abort();
                for (int32_t j = 0; j < gr->count; j++) {
                    float b8 = d->skin_records[gr->record_first + (int64_t)v * gr->count + j].bone8;
                    if (!(b8 >= 0 && b8 <= 8.0f * (float)d->bone_count)) abort();
                }
            }
        }
        if ((at->flags & MF_SD_ATT_WEIGHTED) && at->vertex_count > most) most = at->vertex_count;
    }
    mf_pose *p = NULL;
    if (most == 0 || mf_pose_create(d, NULL, &p, NULL) != MF_OK) return;
    float *out = malloc(2 * (size_t)most * sizeof(float));
    for (int32_t a = 0; out && a < d->attachment_count; a++) {
        const mf_sd_attachment *at = &d->attachments[a];
        if (!(at->flags & MF_SD_ATT_WEIGHTED)) continue;
        int32_t n = mf_pose_world_vertices(p, at->slot, a, out, most);
        for (int32_t i = 0; i < 2 * n; i++) g_fsink += out[i];
    }
    free(out);
    mf_pose_destroy(p);
}

/* What a game does next with a build it loaded: the shared segment table, samples of every clip
 * (the first 16) through it and without it, forwards and back, and a world update. */
static void walk_sampling(const mf_skel_data *d)
{
    mf_tracks_shared *sh = NULL;
    if (mf_tracks_shared_create(d, NULL, &sh) != MF_OK) return;
    mf_pose *p = NULL;
    if (mf_pose_create(d, NULL, &p, NULL) == MF_OK) {
        static const double at[] = {0.0, 0.37, 0.99, 0.5, 1.7};
        for (int32_t c = 0; c < d->clip_count && c < 16; c++)
            for (int k = 0; k < 5; k++) {
                double len = d->clips[c].length;
                mf_clip_sample s = {.clip = c, .time = len * at[k], .prev_time = k ? len * at[k - 1] : -1.0,
                                    .weight = 1.0f, .loop = true, .segs = k & 1 ? NULL : mf_tracks_shared_segs(sh)};
                mf_pose_sample(p, &s);
            }
        mf_pose_update_world(p);
        for (int32_t i = 0; i < p->bone_count; i++) g_fsink += p->wx[i] + p->wy[i];
        /* the draw list sized from the data and built: walked, then kept (slot tracking), then
         * items only, then walked again after a slot change */
        mf_draw_list *dl = NULL;
        if (mf_draw_list_create(d, NULL, &dl) == MF_OK) {
            mf_pose_set_slot_tracking(p, true);
            for (int k = 0; k < 4; k++) {
                if (k == 3) mf_pose_slots_changed(p);
                if (k == 2) mf_draw_list_build_items(dl, p);
                else mf_draw_list_build(dl, p);
                touch(dl->items, (size_t)dl->item_count * sizeof *dl->items);
                touch(dl->indices, (size_t)dl->index_count * sizeof *dl->indices);
                for (int32_t v = 0; v < 2 * dl->vertex_count && k != 2; v++) g_fsink += dl->vertices[v];
            }
            mf_draw_list_destroy(dl);
        }
        mf_pose_destroy(p);
    }
    mf_tracks_shared_destroy(sh);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    unsigned char *b = malloc(size ? size : 1); /* malloc'd: aligned like a real load */
    if (!b) return 0;
    memcpy(b, data, size);
    if (size >= MF_SKEL_DATA_HEADER_SIZE && (b[32] & 1)) {
        uint64_t total = size, sum = mf_skel_data_checksum(b + MF_SKEL_DATA_HEADER_SIZE, size - MF_SKEL_DATA_HEADER_SIZE);
        memcpy(b + 24, &total, 8);
        memcpy(b + 32, &sum, 8);
    }
    mf_skel_data d;
    mf_diag diag;
    if (mf_skel_data_load(b, size, &d, &diag) == MF_OK) {
        walk_rig(&d);
        walk_skins(&d);
        walk_clips(&d);
        walk_bounds(&d);
        walk_skin_streams(&d);
        walk_sampling(&d);
        g_sink += (uint64_t)mf_skel_data_find_bone(&d, "root") + (uint64_t)mf_skel_data_find_clip(&d, "walk");
    } else if (!diag.message[0]) {
        abort(); /* every failure says why */
    }
    free(b);
    return 0;
}
