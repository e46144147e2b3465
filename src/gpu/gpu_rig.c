/* A rig's static tables on the GPU (skin.comp's and world.comp's set 0): the data's FLOATS,
 * INFLUENCES and SPANS as they are, one 8-word record an attachment, each drawable
 * attachment's triangles as 32-bit item-relative indices (a region's split along Spine's
 * diagonal, as the draw list's), and the pose program world.comp runs (bones' parents and
 * lengths, the update order, the IK, transform, path and physics constraints). Uploaded once. */
#include <string.h>

#include "../runtime/draw/draw_item.h"
#include "../runtime/pose/geom_item.h"
#include "../runtime/skel_data_same.h"
#include "gpu_internal.h"

static const uint16_t REGION_TRI[6] = {3, 0, 1, 1, 2, 3};

/* The pose program (world.comp): update count, IK count, bone count; each bone's parent, then
 * its length; the update order (MF_GPU_PROG_IK | k for IK k, MF_GPU_PROG_TF | k for transform
 * constraint k, MF_GPU_PROG_PATH or MF_GPU_PROG_PHYS | its record's word for a path or a physics
 * constraint, else the bone); 4 words an IK: first bone, second bone (-1: one), target, uniform;
 * 10 words a transform constraint: target, the word its bones start at, their count, local |
 * relative << 1, the offsets rot, x, y, sx, sy, shy; then the transform constraints' bones; then
 * the path constraints' records (MF_GPU_PATH_WORDS, gpu_internal.h) and their bones; then the
 * physics constraints' records (MF_GPU_PHYS_WORDS). scratch is the rig's room S (path_scratch).
 * NULL counts the words. */
static size_t fill_program(const mf_skel_data *d, uint32_t *w, uint32_t scratch)
{
    size_t n = (size_t)d->bone_count, u = (size_t)d->update_count, k = (size_t)d->ik_count;
    size_t nt = (size_t)d->transform_count, tf_at = 3 + 2 * n + u + 4 * k, list_at = tf_at + MF_GPU_TF_WORDS * nt;
    for (size_t c = 0; c < nt; c++) {
        const mf_sd_transform *t = &d->transform[c];
        if (w) {
            uint32_t *r = w + tf_at + MF_GPU_TF_WORDS * c;
            r[0] = (uint32_t)t->target, r[1] = (uint32_t)list_at, r[2] = (uint32_t)t->bone_count;
            r[3] = (t->local != 0) | (uint32_t)(t->relative != 0) << 1;
            const float off[6] = {t->offset_rot, t->offset_x, t->offset_y, t->offset_sx, t->offset_sy, t->offset_shy};
            memcpy(r + 4, off, sizeof off);
            for (int32_t j = 0; j < t->bone_count; j++) w[list_at + (size_t)j] = (uint32_t)d->bone_lists[t->bone_first + j];
        }
        list_at += (size_t)t->bone_count;
    }
    /* path records, then their bones; their instance words follow the transform constraints' */
    size_t np = (size_t)d->path_count, path_at = list_at;
    list_at += MF_GPU_PATH_WORDS * np;
    uint32_t local_at = mf_gpu_local_path_at(d);
    for (size_t c = 0; c < np; c++) {
        const mf_sd_path *pc = &d->path[c];
        if (w) {
            uint32_t *r = w + path_at + MF_GPU_PATH_WORDS * c;
            r[0] = (uint32_t)d->slots[pc->target].bone, r[1] = (uint32_t)list_at, r[2] = (uint32_t)pc->bone_count;
            r[3] = pc->position_mode | (uint32_t)pc->spacing_mode << 8 | (uint32_t)pc->rotate_mode << 16;
            memcpy(&r[4], &pc->offset_rot, sizeof(float));
            r[5] = local_at + MF_GPU_PATH_LOCAL_WORDS * (uint32_t)c, r[6] = scratch;
            for (int32_t j = 0; j < pc->bone_count; j++) w[list_at + (size_t)j] = (uint32_t)d->bone_lists[pc->bone_first + j];
        }
        list_at += (size_t)pc->bone_count;
    }
    /* physics records (gpu_internal.h); their instance words follow the path constraints' */
    size_t nph = (size_t)d->physics_count, phys_at = list_at;
    list_at += MF_GPU_PHYS_WORDS * nph;
    for (size_t c = 0; w && c < nph; c++) {
        const mf_sd_physics *ph = &d->physics[c];
        uint32_t *r = w + phys_at + MF_GPU_PHYS_WORDS * c;
        mf_phys_fixed f; /* the channels as the CPU's solver takes them */
        mf_pose_physics_fixed(d, (int32_t)c, &f);
        uint32_t chan = (f.xy ? MF_GPU_PHYS_XY : 0u) | (f.chan & MF_PF_ROTATE ? MF_GPU_PHYS_ROTATE : 0u) |
                        (f.chan & MF_PF_SHEAR ? MF_GPU_PHYS_SHEAR : 0u) | (f.chan & MF_PF_SCALE ? MF_GPU_PHYS_SCALE : 0u) |
                        (f.spin ? MF_GPU_PHYS_SPIN : 0u);
        r[0] = (uint32_t)ph->bone, r[1] = chan;
        const float amounts[6] = {ph->x, ph->y, ph->rotate, ph->shear_x, ph->scale_x, f.turn};
        memcpy(r + 2, amounts, sizeof amounts);
        r[8] = mf_gpu_local_phys_at(d), r[9] = (uint32_t)c;
    }
    if (w) {
        w[0] = (uint32_t)u, w[1] = (uint32_t)k, w[2] = (uint32_t)n;
        for (size_t i = 0; i < n; i++) {
            w[3 + i] = (uint32_t)d->bones[i].parent;
            memcpy(&w[3 + n + i], &d->bones[i].length, sizeof(float));
        }
        for (size_t e = 0; e < u; e++) {
            const mf_sd_ref *ref = &d->update[e];
            uint32_t op = ref->kind == MF_SD_REF_IK          ? MF_GPU_PROG_IK | (uint32_t)ref->index
                          : ref->kind == MF_SD_REF_TRANSFORM ? MF_GPU_PROG_TF | (uint32_t)ref->index
                          : ref->kind == MF_SD_REF_PATH ? MF_GPU_PROG_PATH | (uint32_t)(path_at + MF_GPU_PATH_WORDS * (size_t)ref->index)
                          : ref->kind == MF_SD_REF_PHYSICS ? MF_GPU_PROG_PHYS | (uint32_t)(phys_at + MF_GPU_PHYS_WORDS * (size_t)ref->index)
                          : ref->kind == MF_SD_REF_BONE ? (uint32_t)ref->index
                                                        : MF_GPU_PROG_KIND; /* none such: never run */
            w[3 + 2 * n + e] = op;
        }
        for (size_t c = 0; c < k; c++) {
            const mf_sd_ik *ik = &d->ik[c];
            uint32_t *r = w + 3 + 2 * n + u + 4 * c;
            const int32_t *bones = d->bone_lists + ik->bone_first;
            r[0] = (uint32_t)bones[0], r[1] = ik->bone_count > 1 ? (uint32_t)bones[1] : 0xffffffffu;
            r[2] = (uint32_t)ik->target, r[3] = ik->uniform;
        }
    }
    return list_at;
}

/* The records and triangles; tris NULL counts the triangles. */
static int64_t fill(const mf_skel_data *d, uint32_t *atts, uint32_t *tris)
{
    int64_t nt = 0;
    for (int32_t i = 0; i < d->attachment_count; i++) {
        const mf_sd_attachment *at = &d->attachments[i];
        uint32_t *rec = atts ? atts + (size_t)MF_GPU_ATT_WORDS * (size_t)i : NULL;
        if (rec) memset(rec, 0, MF_GPU_ATT_WORDS * sizeof *rec);
        if (rec && at->type == MF_SD_ATT_PATH) { /* world.comp's path constraints read it */
            rec[0] = ((at->flags & MF_SD_ATT_WEIGHTED) ? MF_GPU_WEIGHTED : 0u) |
                     ((at->flags & MF_SD_ATT_CLOSED) ? MF_GPU_PATH_CLOSED : 0u) |
                     ((at->flags & MF_SD_ATT_CONSTANT_SPEED) ? MF_GPU_PATH_CONSTANT : 0u);
            rec[1] = (uint32_t)at->vertex_count, rec[3] = (uint32_t)at->vertex_first, rec[4] = (uint32_t)at->infl_first;
            rec[5] = (uint32_t)at->lengths_first, rec[6] = (uint32_t)at->lengths_count;
            rec[7] = (uint32_t)d->slots[at->slot].bone;
        }
        if (!mf_geom_drawable(at->type)) continue;
        const uint16_t *src =
            at->type == MF_SD_ATT_REGION && at->tri_count == 6 ? REGION_TRI : d->triangles + at->tri_first;
        if (rec) {
            rec[0] = ((at->flags & MF_SD_ATT_WEIGHTED) ? MF_GPU_WEIGHTED : 0u) | (at->uv_sets > 0 ? 0u : MF_GPU_NO_UVS);
            rec[1] = (uint32_t)at->vertex_count, rec[2] = (uint32_t)at->tri_count;
            rec[3] = (uint32_t)at->vertex_first, rec[4] = (uint32_t)at->infl_first;
            rec[5] = (uint32_t)nt, rec[6] = at->uv_sets > 0 ? (uint32_t)at->uv_first : 0u;
            rec[7] = (uint32_t)d->slots[at->slot].bone;
        }
        if (tris)
            for (int32_t j = 0; j < at->tri_count; j++) tris[nt + j] = src[j];
        nt += at->tri_count;
    }
    return nt;
}

mf_result mf_gpu_rig_create(mf_gpu_device *g, const mf_skel_data *d, mf_gpu_rig **out, mf_diag *diag)
{
    if (!out) return MF_ERR_ARGUMENT;
    *out = NULL;
    if (!g || !d) return MF_ERR_ARGUMENT;
    int64_t nt = fill(d, NULL, NULL);
    size_t att_bytes = (size_t)d->attachment_count * MF_GPU_ATT_WORDS * sizeof(uint32_t);
    uint32_t *atts = mf_alloc(&g->alloc, att_bytes + 16);
    uint32_t *tris = mf_alloc(&g->alloc, (size_t)nt * sizeof(uint32_t) + 16);
    /* path scratch: spaces, lengths, 3 floats a position (S = the most bones + 1), curve lengths */
    uint32_t bones_cap = 0, curves_cap = 0;
    for (int32_t i = 0; i < d->path_count; i++)
        if ((uint32_t)d->path[i].bone_count > bones_cap) bones_cap = (uint32_t)d->path[i].bone_count;
    for (int32_t i = 0; i < d->attachment_count; i++)
        if (d->attachments[i].type == MF_SD_ATT_PATH && (uint32_t)d->attachments[i].vertex_count / 3u > curves_cap)
            curves_cap = (uint32_t)d->attachments[i].vertex_count / 3u;
    uint32_t scratch_s = bones_cap + 1;
    size_t prog_words = fill_program(d, NULL, scratch_s);
    uint32_t *prog = mf_alloc(&g->alloc, prog_words * sizeof(uint32_t) + 16);
    int32_t clips = 0; /* clipping attachments: their slots (at most that many) follow the rig */
    for (int32_t i = 0; i < d->attachment_count; i++) clips += d->attachments[i].type == MF_SD_ATT_CLIPPING;
    size_t att_at = (sizeof(mf_gpu_rig) + (size_t)clips * sizeof(int32_t) + 15) & ~(size_t)15;
    mf_gpu_rig *r = mf_alloc(&g->alloc, att_at + (size_t)d->attachment_count * sizeof(mf_gpu_att));
    if (!atts || !tris || !prog || !r) {
        mf_free(&g->alloc, atts), mf_free(&g->alloc, tris), mf_free(&g->alloc, prog), mf_free(&g->alloc, r);
        return MF_ERR_NOMEM;
    }
    fill_program(d, prog, scratch_s);
    memset(r, 0, sizeof *r);
    r->g = g;
    r->view = *d;
    r->data = d->bytes ? &r->view : d;
    fill(d, atts, tris);
    r->clip_slots = (int32_t *)(r + 1);
    for (int32_t i = 0; i < d->attachment_count; i++) {
        if (d->attachments[i].type != MF_SD_ATT_CLIPPING) continue;
        int32_t s = d->attachments[i].slot, k = 0;
        while (k < r->clip_slot_count && r->clip_slots[k] != s) k++;
        if (k == r->clip_slot_count) r->clip_slots[r->clip_slot_count++] = s;
    }
    r->needs_list = r->clip_slot_count > 0;
    r->world_ok = true; /* every constraint runs there (physics with a state: mf_gpu_batch_add_physics) */
    r->path_scratch = d->path_count > 0 ? 5u * scratch_s + curves_cap : 0u;
    /* an instance's most words: its local pose with the largest deform each path constraint's
     * slot can show (each constraint takes its own copy), the palette and the scratch */
    uint32_t most = mf_gpu_local_fixed_words(d) + 6u * (uint32_t)d->bone_count + r->path_scratch;
    for (int32_t k = 0; k < d->path_count; k++) {
        uint32_t deform = 0;
        for (int32_t a = 0; a < d->attachment_count; a++) {
            const mf_sd_attachment *at = &d->attachments[a];
            if (at->type == MF_SD_ATT_PATH && at->slot == d->path[k].target && (uint32_t)at->deform_count > deform)
                deform = (uint32_t)at->deform_count;
        }
        most += deform;
    }
    r->local_words_max = most;
    r->att = (mf_gpu_att *)(void *)((unsigned char *)r + att_at);
    for (int32_t i = 0; i < d->attachment_count; i++) {
        const mf_sd_attachment *at = &d->attachments[i];
        mf_gpu_att *ga = &r->att[i];
        ga->vertex_count = at->vertex_count, ga->index_count = at->tri_count;
        mf_draw_texture(d, at->image, &ga->page, &ga->image);
        for (int32_t j = 0; j < 4; j++) ga->color[j] = mf_unit_byte[(at->color >> (24 - 8 * j)) & 255u];
        ga->drawn = mf_geom_drawable(at->type) && at->tri_count > 0;
        ga->sequence = at->seq_count > 0 && at->image >= 0;
        ga->deform_count = at->type == MF_SD_ATT_REGION ? 0 : at->deform_count;
        if (ga->drawn && ga->vertex_count > r->max_att_vertices) r->max_att_vertices = ga->vertex_count;
        if (ga->drawn && ga->index_count > r->max_att_indices) r->max_att_indices = ga->index_count;
    }
    const void *src[MF_GPU_RIG_BUFFERS] = {d->floats, d->influences, d->spans, atts, tris, prog};
    VkDeviceSize size[MF_GPU_RIG_BUFFERS] = {
        (VkDeviceSize)d->float_count * sizeof(float), (VkDeviceSize)d->influence_count * sizeof(mf_sd_influence),
        (VkDeviceSize)d->span_count * sizeof(mf_sd_span), att_bytes, (VkDeviceSize)nt * sizeof(uint32_t),
        (VkDeviceSize)prog_words * sizeof(uint32_t)};
    VkResult vr = VK_SUCCESS;
    for (int i = 0; i < MF_GPU_RIG_BUFFERS; i++)
        if (size[i] > g->props.limits.maxStorageBufferRange) {
            mf_diag_set(diag, "", "vulkan", "a table of the rig (%llu bytes) is past the device's maxStorageBufferRange",
                        (unsigned long long)size[i]);
            mf_free(&g->alloc, atts), mf_free(&g->alloc, tris), mf_free(&g->alloc, prog), mf_free(&g->alloc, r);
            return MF_ERR_UNSUPPORTED;
        }
    for (int i = 0; i < MF_GPU_RIG_BUFFERS && vr == VK_SUCCESS; i++) {
        vr = mf_gpu_buffer_make(g, size[i], VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                false, &r->bufs[i]);
        if (vr == VK_SUCCESS) vr = mf_gpu_upload(g, &r->bufs[i], src[i], size[i]);
        r->bytes += r->bufs[i].size;
    }
    mf_free(&g->alloc, atts), mf_free(&g->alloc, tris), mf_free(&g->alloc, prog);
    if (vr == VK_SUCCESS) {
        VkDescriptorPoolSize ps = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, MF_GPU_RIG_BUFFERS};
        VkDescriptorPoolCreateInfo pi = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, .maxSets = 1,
                                         .poolSizeCount = 1, .pPoolSizes = &ps};
        vr = g->vkCreateDescriptorPool(g->device, &pi, NULL, &r->dpool);
    }
    if (vr == VK_SUCCESS) {
        VkDescriptorSetAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                          .descriptorPool = r->dpool, .descriptorSetCount = 1,
                                          .pSetLayouts = &g->rig_layout};
        vr = g->vkAllocateDescriptorSets(g->device, &ai, &r->set);
    }
    if (vr == VK_SUCCESS) {
        VkDescriptorBufferInfo bi[MF_GPU_RIG_BUFFERS];
        VkWriteDescriptorSet w[MF_GPU_RIG_BUFFERS];
        for (uint32_t i = 0; i < MF_GPU_RIG_BUFFERS; i++) {
            bi[i] = (VkDescriptorBufferInfo){r->bufs[i].buf, 0, VK_WHOLE_SIZE};
            w[i] = (VkWriteDescriptorSet){.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = r->set,
                                          .dstBinding = i, .descriptorCount = 1,
                                          .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .pBufferInfo = &bi[i]};
        }
        g->vkUpdateDescriptorSets(g->device, MF_GPU_RIG_BUFFERS, w, 0, NULL);
    }
    if (vr != VK_SUCCESS) {
        mf_diag_set(diag, "", "vulkan", "the rig's tables could not be uploaded (VkResult %d)", (int)vr);
        mf_gpu_rig_destroy(r);
        return mf_gpu_result(vr);
    }
    *out = r;
    return MF_OK;
}

void mf_gpu_rig_destroy(mf_gpu_rig *r)
{
    if (!r) return;
    mf_gpu_device *g = r->g;
    if (r->dpool) g->vkDestroyDescriptorPool(g->device, r->dpool, NULL);
    for (int i = 0; i < MF_GPU_RIG_BUFFERS; i++) mf_gpu_buffer_drop(g, &r->bufs[i]);
    mf_free(&g->alloc, r);
}

uint64_t mf_gpu_rig_bytes(const mf_gpu_rig *r) { return r ? r->bytes : 0; }
bool mf_gpu_rig_needs_list(const mf_gpu_rig *r) { return !r || r->needs_list; }
bool mf_gpu_rig_world_ok(const mf_gpu_rig *r) { return r && r->world_ok; }
uint32_t mf_gpu_rig_local_words(const mf_gpu_rig *r) { return r && r->world_ok ? r->local_words_max : 0u; }
