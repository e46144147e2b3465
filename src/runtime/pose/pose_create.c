/* Creating a pose: every array sized from the data in one line-aligned allocation, then the
 * setup pose. */
#include <string.h>

#include "../alloc_lines.h"
#include "pose_internal.h"
#include "pose_trig.h"

static int32_t max_i(int32_t a, int32_t b) { return a > b ? a : b; }

/* Hot arrays first, in the order a frame visits them (sampling, the world update, skinning and
 * the draw list), so that a frame's working set is one run of lines and pages; the arrays only
 * some rigs use (constraints, physics, paths), then the key segments of every clip (a frame
 * reads those of the clips it samples), and the deform (written only by deform timelines or the
 * host) in the cold block. Every array starts on 16 bytes: the SIMD paths read and write whole
 * groups of 4 past a bone count that is not a multiple of 4. */
static void plan(const mf_skel_data *d, mf_pose *p, mf_pose_scratch *s, int32_t deform_total,
                 mf_lines_layout *l, mf_lines_layout *cold, size_t *zeroed, size_t *cold_zeroed)
{
    size_t nb = (size_t)d->bone_count, ns = (size_t)d->slot_count;
    s->seg_at = mf_lines_carve(l, (size_t)d->timeline_count, sizeof(int32_t)); /* cleared: entry k = -1 */
    p->cursor = mf_lines_carve(l, (size_t)d->timeline_count, sizeof(int32_t));
    s->seg_ready = mf_lines_carve(l, (size_t)d->clip_count, 1);
    float **local[] = {&p->x, &p->y, &p->rot, &p->sx, &p->sy, &p->shx, &p->shy};
    for (size_t i = 0; i < 7; i++) *local[i] = mf_lines_carve(l, nb, sizeof(float));
    p->inherit = mf_lines_carve(l, nb, 1);
    p->active = mf_lines_carve(l, nb, 1);
    s->prev_inherit = mf_lines_carve(l, nb, 1);
    s->changed = mf_lines_carve(l, nb + 1, 1); /* the last: a root's parent */
    s->constrained = mf_lines_carve(l, nb, 1);
    s->world_valid = mf_lines_carve(l, nb, 1);
    s->ops = mf_lines_carve(l, (size_t)d->update_count + 1, sizeof(mf_pose_op)); /* an op at most an entry, and the end */
    uint32_t **trig_keys[] = {&s->trig_kx, &s->trig_ky};
    float **trig_values[] = {&s->trig_cx, &s->trig_sx, &s->trig_cy, &s->trig_sy};
    for (size_t i = 0; i < 2; i++) *trig_keys[i] = mf_lines_carve(l, nb, sizeof(uint32_t));
    for (size_t i = 0; i < 4; i++) *trig_values[i] = mf_lines_carve(l, nb, sizeof(float));
    float **applied_world[] = {&p->ax, &p->ay, &p->arot, &p->asx, &p->asy, &p->ashx, &p->ashy,
                               &p->a,  &p->b,  &p->c,    &p->d,   &p->wx,  &p->wy};
    for (size_t i = 0; i < 13; i++) *applied_world[i] = mf_lines_carve(l, nb, sizeof(float));
    /* the last: all zero, for padding; on a line of its own: the AVX-512 packing's stores (two
     * bones) are whole lines, none split */
    s->skin_mats = mf_lines_carve_line(l, (nb + 1) * 8, sizeof(float));
    p->draw_order = mf_lines_carve(l, ns, sizeof(int32_t));
    p->attachment = mf_lines_carve(l, ns, sizeof(int32_t));
    p->seq_index = mf_lines_carve(l, ns, sizeof(int32_t));
    p->deform_attachment = mf_lines_carve(l, ns, sizeof(int32_t));
    p->color = mf_lines_carve(l, ns * 4, sizeof(float));
    p->dark = mf_lines_carve(l, ns * 3, sizeof(float));
    p->deform_first = mf_lines_carve(l, ns, sizeof(int32_t));
    size_t nik = (size_t)d->ik_count, ntf = (size_t)d->transform_count, np = (size_t)d->path_count;
    p->ik_mix = mf_lines_carve(l, nik, sizeof(float));
    p->ik_softness = mf_lines_carve(l, nik, sizeof(float));
    p->ik_bend = mf_lines_carve(l, nik, 1);
    p->ik_compress = mf_lines_carve(l, nik, 1);
    p->ik_stretch = mf_lines_carve(l, nik, 1);
    p->ik_active = mf_lines_carve(l, nik, 1);
    s->ik_os = mf_lines_carve(l, nik, sizeof(double));
    s->ik_os_key = mf_lines_carve(l, nik * 2, sizeof(uint32_t));
    s->ik_fixed = mf_lines_carve(l, nik, sizeof(mf_ik_fixed));
    p->tf_mix = mf_lines_carve(l, ntf * 6, sizeof(float));
    p->tf_active = mf_lines_carve(l, ntf, 1);
    p->path_position = mf_lines_carve(l, np, sizeof(float));
    p->path_spacing = mf_lines_carve(l, np, sizeof(float));
    p->path_mix = mf_lines_carve(l, np * 3, sizeof(float));
    p->path_active = mf_lines_carve(l, np, 1);
    s->phys_values = mf_lines_carve(l, (size_t)d->physics_count * MF_PHYS_V_COUNT, sizeof(float));
    s->phys_state = mf_lines_carve(l, (size_t)d->physics_count * MF_PHYS_STATE, sizeof(float));
    s->phys_remaining = mf_lines_carve(l, (size_t)d->physics_count, sizeof(double));
    s->phys_fixed = mf_lines_carve(l, (size_t)d->physics_count, sizeof(mf_phys_fixed));
    /* the key segments last: create clears the hot block before them (*zeroed), the sampler
     * clears each clip's on its first sample */
    *zeroed = mf_lines_round(l->used);
    s->seg = mf_lines_carve_line(l, (size_t)d->timeline_count, sizeof(mf_pose_seg)); /* a line each */
    /* the cold block (mf_alloc_cold): what only some rigs' frames touch, and the largest */
    if (np > 0) { /* path scratch: only rigs with path constraints */
        size_t pb = (size_t)s->path_bones_cap + 1;
        s->spaces = mf_lines_carve(cold, pb, sizeof(float));
        s->lengths = mf_lines_carve(cold, pb, sizeof(float));
        s->positions = mf_lines_carve(cold, pb * 3 + 2, sizeof(float));
        s->world = mf_lines_carve(cold, (size_t)s->path_world_cap, sizeof(float));
        s->curves = mf_lines_carve(cold, (size_t)s->path_curves_cap, sizeof(float));
    }
    *cold_zeroed = cold->used; /* the deform: a slot's is written before it is read
                                * (deform_attachment says whose it holds) */
    p->deform = mf_lines_carve(cold, (size_t)deform_total, sizeof(float));
}

mf_result mf_pose_create(const mf_skel_data *data, const mf_allocator *alloc, mf_pose **out,
                         mf_diag *diag)
{
    if (out) *out = NULL;
    if (!data || !out || !data->bones) {
        mf_diag_set(diag, "", "", "mf_pose_create: NULL data or out");
        return MF_ERR_ARGUMENT;
    }
    mf_allocator al = alloc ? *alloc : (mf_allocator){0};
    /* deform ranges: per slot the largest deform of an attachment on it */
    int32_t deform_total = 0;
    mf_pose_scratch sc = {0};
    for (int32_t pi = 0; pi < data->path_count; pi++)
        sc.path_bones_cap = max_i(sc.path_bones_cap, data->path[pi].bone_count);
    for (int32_t i = 0; i < data->attachment_count; i++) {
        const mf_sd_attachment *at = &data->attachments[i];
        if (at->type == MF_SD_ATT_PATH) {
            sc.path_world_cap = max_i(sc.path_world_cap, at->vertex_count * 2 + 8);
            sc.path_curves_cap = max_i(sc.path_curves_cap, at->vertex_count / 3 + 2);
        }
    }
    sc.path_world_cap = max_i(sc.path_world_cap, 16);
    sc.path_curves_cap = max_i(sc.path_curves_cap, 2);
    sc.default_skin = mf_skel_data_find_skin(data, "default");
    if (data->bone_count >= (1 << 21)) { /* skinning records hold 8·bone as an exact float */
        mf_diag_set(diag, "", "", "mf_pose_create: %d bones, 2^21 or more", data->bone_count);
        return MF_ERR_UNSUPPORTED;
    }
    if (data->skin_group_first_count != data->attachment_count + 1) { /* the loader checked its streams */
        mf_diag_set(diag, "", "", "mf_pose_create: data without skinning streams (not from mf_skel_data_load)");
        return MF_ERR_ARGUMENT;
    }

    int32_t *slot_deform = NULL;
    mf_pose probe = {0};
    mf_pose_scratch sprobe = sc;
    mf_lines_layout l = {NULL, sizeof(mf_pose) + sizeof(mf_pose_scratch)}, lc = {NULL, 0};
    /* per-slot max deform, in a temporary buffer (cold: not between an arena's instances) */
    size_t tmp_bytes = (size_t)data->slot_count * sizeof(int32_t) + 16;
    slot_deform = mf_alloc_cold(&al, tmp_bytes);
    if (!slot_deform) return MF_ERR_NOMEM;
    memset(slot_deform, 0, tmp_bytes);
    for (int32_t i = 0; i < data->attachment_count; i++) {
        const mf_sd_attachment *at = &data->attachments[i];
        if (at->slot >= 0 && at->slot < data->slot_count)
            slot_deform[at->slot] = max_i(slot_deform[at->slot], at->deform_count);
    }
    /* attachments may share vertex and influence ranges, so data the loader accepts can
     * declare more deform floats than a pose can hold: summed wide, refused past int32 */
    int64_t deform_sum = 0;
    for (int32_t i = 0; i < data->slot_count; i++) deform_sum += slot_deform[i];
    if (deform_sum > INT32_MAX) {
        mf_free_cold(&al, slot_deform);
        mf_diag_set(diag, "", "", "mf_pose_create: %lld deform floats over the slots, more than 2^31 - 1",
                    (long long)deform_sum);
        return MF_ERR_UNSUPPORTED;
    }
    deform_total = (int32_t)deform_sum;
    size_t zeroed = 0, cold_zeroed = 0;
    plan(data, &probe, &sprobe, deform_total, &l, &lc, &zeroed, &cold_zeroed);

    void *cold;
    unsigned char *block = mf_alloc_lines_two(&al, l.used + 16, lc.used + 16, zeroed, cold_zeroed, &cold);
    if (!block) {
        mf_free_cold(&al, slot_deform);
        mf_diag_set(diag, "", "", "out of memory for a pose of %zu bytes", l.used + lc.used);
        return MF_ERR_NOMEM;
    }
    mf_pose *p = (mf_pose *)block;
    mf_pose_scratch *s = (mf_pose_scratch *)(block + sizeof(mf_pose));
    *s = sc;
    mf_lines_layout real = {block, sizeof(mf_pose) + sizeof(mf_pose_scratch)}, real_cold = {cold, 0};
    plan(data, p, s, deform_total, &real, &real_cold, &zeroed, &cold_zeroed);
    s->cold = cold;
    p->data = data;
    p->bone_count = data->bone_count;
    p->slot_count = data->slot_count;
    p->scratch = s;
    p->alloc = al;
    int32_t at = 0;
    for (int32_t i = 0; i < data->slot_count; i++) {
        p->deform_first[i] = at;
        at += slot_deform[i];
    }
    mf_free_cold(&al, slot_deform);
    for (int32_t i = 0; i < data->timeline_count; i++) p->cursor[i] = 0;
    for (int32_t i = 0; i < data->bone_count; i++) p->active[i] = !data->bones[i].skin_required;
    for (int32_t i = 0; i < data->ik_count; i++) p->ik_active[i] = !data->ik[i].skin_required;
    for (int32_t i = 0; i < 2 * data->ik_count; i++) s->ik_os_key[i] = 0; /* x = y = +0: atan2 gives +0 */
    for (int32_t i = 0; i < data->ik_count; i++) s->ik_os[i] = 0;
    for (int32_t i = 0; i < data->ik_count; i++) {
        const mf_sd_ik *ik = &data->ik[i];
        const int32_t *b = data->bone_lists + ik->bone_first;
        mf_ik_fixed *f = &s->ik_fixed[i];
        f->bone = b[0], f->child = ik->bone_count == 1 ? -1 : b[1];
        f->pp = data->bones[b[0]].parent, f->target = ik->target;
        f->len = data->bones[f->child >= 0 ? f->child : f->bone].length;
        f->kind = ik->bone_count == 1                                       ? MF_IKF_ONE
                  : f->pp >= 0 && data->bones[f->child].parent == f->bone ? MF_IKF_CHAIN
                                                                            : MF_IKF_TWO;
        f->uniform = ik->uniform != 0, f->pad[0] = f->pad[1] = 0;
    }
    for (int32_t i = 0; i < data->transform_count; i++)
        p->tf_active[i] = !data->transform[i].skin_required;
    for (int32_t i = 0; i < data->path_count; i++) p->path_active[i] = !data->path[i].skin_required;
    s->phys_mix = 1.0f; /* state zeroed: every constraint starts at rest on its first update */
    s->phys_teleport = MF_PHYSICS_TELEPORT_DEFAULT;
    mf_pose_trig_clear(p);
    mf_pose_set_simd(p, MF_SIMD_AUTO); /* the widest paths the CPU offers (pose_simd.c) */
    mf_pose_dirty_setup(p);
    mf_pose_physics_prepare(p);
    mf_pose_reset(p);
    *out = p;
    return MF_OK;
}

void mf_pose_destroy(mf_pose *pose)
{
    if (!pose) return;
    mf_allocator al = pose->alloc;
    mf_free_lines_two(&al, pose, pose->scratch->cold);
}
