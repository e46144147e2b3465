/* A GPU batch (mf_gpu.h): what mf_draw_batch_add merges on the CPU, written as item records,
 * instance records, palettes (or local poses), deform offsets and clipped geometry into the
 * slot's upload buffer, copied to the GPU, posed there by world.comp (local poses) and skinned
 * by skin.comp. */
#include <string.h>

#include "../runtime/draw/draw_item.h"
#include "../runtime/pose/geom_item.h"
#include "../runtime/skel_data_same.h"
#include "gpu_internal.h"

enum { MAX_SLOTS = 4, ITEM_WORDS = 8, INST_WORDS = 8, DIRECT_WORDS = 4, GROUPS_X = 65535 };
static const uint32_t NONE = 0xffffffffu, DIRECT = 0x80000000u;

typedef struct gpu_slot {
    mf_gpu_buffer upload; /* host-visible: the frame's words */
    mf_gpu_buffer frame;  /* device-local copy the shader reads */
    mf_gpu_buffer vout, iout, rv, ri; /* streams; their readback copies (desc.readback) */
    mf_gpu_buffer rw; /* the words' readback copy (desc.readback_world): the GPU's palettes */
    VkDescriptorSet set;
    VkCommandBuffer cmd;
    VkFence fence;
    bool submitted;
    int32_t vertex_count, index_count; /* of its last submit */
    /* desc.readback_world: each instance of its last record (mf_gpu_batch_read_world) */
    struct gpu_inst_world *world;
    int32_t world_count;
} gpu_slot;

/* An instance as mf_gpu_batch_read_world finds it: its data and its palette's word in the
 * frame (NONE: not posed on the GPU). */
typedef struct gpu_inst_world {
    const mf_skel_data *data;
    uint32_t pal;
} gpu_inst_world;

/* Consecutive items of one rig: one dispatch with that rig's tables; the instances they belong
 * to, and how many of those the GPU poses (one world dispatch when any). */
typedef struct gpu_run {
    const mf_gpu_rig *rig;
    uint32_t item_first, item_count;
    uint32_t inst_first, inst_count, locals;
} gpu_run;

/* A physics state (mf_gpu_batch_physics_acquire): at its first unit, the rig it was acquired
 * for and its units (its rig's physics constraints; 0: not a state's first unit), and the last
 * frame that added it. A free unit's frame: the frame in which a state added in it was
 * released (its world pass may still write the unit: a state acquired there waits a frame). */
typedef struct phys_state {
    const mf_gpu_rig *rig;
    int32_t count;
    uint64_t frame;
} phys_state;

/* What the host keeps of a constraint's state (a unit): its time not yet stepped (double, as
 * the CPU's) and the movement it has not lagged behind yet; beside them (gpu_batch: unit_init,
 * unit_reset) whether it was put at rest once and a reset asked and not yet done (an inactive
 * constraint keeps it, as on the CPU). The springs themselves live on the GPU. */
typedef struct phys_unit {
    double remaining;
    float move_x, move_y;
    /* the frame whose world pass was to put it at rest (0: none), | REST_FIRST when that was its
     * first: a frame dropped before it was recorded undoes it (mf_gpu_batch_begin) */
    uint64_t rested;
} phys_unit;

#define REST_FIRST (1ull << 63)

typedef struct gpu_batch {
    mf_gpu_batch pub; /* first: the host's view */
    mf_gpu_device *g;
    mf_gpu_batch_desc desc;
    uint32_t inst_off, direct_off, words_off, total_words; /* the frame's layout in words */
    uint32_t items, instances, directs, words;             /* used this frame */
    /* words the GPU writes (palettes of local poses), from the top of the words down: never
     * uploaded */
    uint32_t gpu_words, locals;
    int32_t run_count, run_cap;
    gpu_run *runs;
    gpu_inst_world *world; /* desc.readback_world: the frame's instances, copied to its slot by record */
    gpu_slot slots[MAX_SLOTS];
    int32_t cur, last; /* the slot being filled; the last submitted (-1 none) */
    VkDescriptorPool dpool;
    VkQueryPool queries; /* 2 a slot, when the queue has timestamps */
    /* physics: the springs' state (device-local, MF_GPU_PHYS_STATE floats a unit, written by
     * world.comp only), the states and units (desc.max_physics), the frame count (begin) */
    mf_gpu_buffer phys;
    phys_state *states;
    phys_unit *units;
    uint8_t *unit_init, *unit_reset;
    uint64_t frame;           /* the frame count (begin) */
    uint64_t recorded;        /* the last frame recorded (mf_gpu_batch_record) */
    uint32_t phys_locals; /* instances this frame with physics words */
} gpu_batch;

static gpu_batch *impl(mf_gpu_batch *b) { return (gpu_batch *)b; }

/* Capacities from the zeroed-means-default desc; false when one is negative or too large. */
static bool capacities(mf_gpu_batch_desc *c)
{
    if (c->max_vertices < 0 || c->max_indices < 0 || c->max_calls < 0 || c->max_instances < 0 || c->max_items < 0 ||
        c->max_words < 0 || c->frames_in_flight < 0 || c->frames_in_flight > MAX_SLOTS || c->max_physics < 0)
        return false;
    if (!c->max_vertices) c->max_vertices = 1 << 20;
    if (!c->max_indices) c->max_indices = c->max_vertices > 0x7fffffff / 3 ? 0x7fffffff : 3 * c->max_vertices;
    if (!c->max_calls) c->max_calls = 4096;
    if (!c->max_instances) c->max_instances = 1024;
    if (!c->max_items) c->max_items = c->max_instances > 0x7fffffff / 64 ? 0x7fffffff : 64 * c->max_instances;
    if (!c->max_words) c->max_words = c->max_instances > 0x7fffffff / 2048 ? 0x7fffffff : 2048 * c->max_instances;
    if (!c->frames_in_flight) c->frames_in_flight = 2;
    if (!c->max_physics) c->max_physics = c->max_instances > 0x7fffffff / 8 ? 0x7fffffff : 8 * c->max_instances;
    if ((uint64_t)c->max_physics * MF_GPU_PHYS_STATE >= (1u << 30)) return false;
    /* the frame's words and the streams in 32-bit offsets (the shader's) */
    uint64_t words = (uint64_t)ITEM_WORDS * (uint64_t)c->max_items + (uint64_t)INST_WORDS * (uint64_t)c->max_instances +
                     (uint64_t)DIRECT_WORDS * (uint64_t)c->max_items + (uint64_t)c->max_words;
    return words < (1u << 30) && (uint64_t)c->max_vertices * 6 < (1u << 31);
}

static VkResult make_slot(gpu_batch *b, gpu_slot *s)
{
    mf_gpu_device *g = b->g;
    const mf_gpu_batch_desc *c = &b->desc;
    VkDeviceSize words = (VkDeviceSize)b->total_words * 4, vbytes = (VkDeviceSize)c->max_vertices * sizeof(mf_batch_vertex),
                 ibytes = (VkDeviceSize)c->max_indices * 4;
    VkBufferUsageFlags out_use = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT;
    VkResult r = mf_gpu_buffer_make(g, words, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, true, &s->upload);
    if (r == VK_SUCCESS)
        r = mf_gpu_buffer_make(g, words,
                               VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT |
                                   (c->readback_world ? VK_BUFFER_USAGE_TRANSFER_SRC_BIT : 0), /* palettes read back */
                               false, &s->frame);
    if (r == VK_SUCCESS)
        r = mf_gpu_buffer_make(g, vbytes, out_use | VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, false, &s->vout);
    if (r == VK_SUCCESS) r = mf_gpu_buffer_make(g, ibytes, out_use | VK_BUFFER_USAGE_INDEX_BUFFER_BIT, false, &s->iout);
    if (r == VK_SUCCESS && c->readback)
        r = mf_gpu_buffer_make(g, vbytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT, true, &s->rv);
    if (r == VK_SUCCESS && c->readback)
        r = mf_gpu_buffer_make(g, ibytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT, true, &s->ri);
    if (r == VK_SUCCESS && c->readback_world)
        r = mf_gpu_buffer_make(g, (VkDeviceSize)c->max_words * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT, true, &s->rw);
    if (r == VK_SUCCESS) {
        VkDescriptorSetAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                          .descriptorPool = b->dpool, .descriptorSetCount = 1,
                                          .pSetLayouts = &g->frame_layout};
        r = g->vkAllocateDescriptorSets(g->device, &ai, &s->set);
    }
    if (r == VK_SUCCESS) {
        VkDescriptorBufferInfo bi[4] = {{s->frame.buf, 0, VK_WHOLE_SIZE}, {s->vout.buf, 0, VK_WHOLE_SIZE},
                                        {s->iout.buf, 0, VK_WHOLE_SIZE}, {b->phys.buf, 0, VK_WHOLE_SIZE}};
        VkWriteDescriptorSet w[4];
        for (uint32_t i = 0; i < 4; i++)
            w[i] = (VkWriteDescriptorSet){.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = s->set,
                                          .dstBinding = i, .descriptorCount = 1,
                                          .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .pBufferInfo = &bi[i]};
        g->vkUpdateDescriptorSets(g->device, 4, w, 0, NULL);
        VkCommandBufferAllocateInfo ci = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                          .commandPool = g->pool, .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                          .commandBufferCount = 1};
        r = g->vkAllocateCommandBuffers(g->device, &ci, &s->cmd);
    }
    if (r == VK_SUCCESS) {
        VkFenceCreateInfo fi = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
        r = g->vkCreateFence(g->device, &fi, NULL, &s->fence);
    }
    return r;
}

mf_result mf_gpu_batch_create(mf_gpu_device *g, const mf_gpu_batch_desc *desc, mf_gpu_batch **out, mf_diag *diag)
{
    if (!out) return MF_ERR_ARGUMENT;
    *out = NULL;
    mf_gpu_batch_desc c = desc ? *desc : (mf_gpu_batch_desc){0};
    if (!g || !capacities(&c)) {
        mf_diag_set(diag, "", "mf_gpu_batch_desc", "a capacity is negative or too large (frames_in_flight at most %d)",
                    MAX_SLOTS);
        return MF_ERR_ARGUMENT;
    }
    /* the shader binds each buffer whole: none may pass the device's storage buffer range */
    uint64_t range = g->props.limits.maxStorageBufferRange;
    uint64_t words = 4u * ((uint64_t)(ITEM_WORDS + DIRECT_WORDS) * (uint64_t)c.max_items +
                           (uint64_t)INST_WORDS * (uint64_t)c.max_instances + (uint64_t)c.max_words);
    uint64_t phys_bytes = 4u * MF_GPU_PHYS_STATE * (uint64_t)c.max_physics;
    if (words > range || (uint64_t)c.max_vertices * sizeof(mf_batch_vertex) > range ||
        (uint64_t)c.max_indices * 4u > range || phys_bytes > range) {
        mf_diag_set(diag, "", "mf_gpu_batch_desc",
                    "records (%llu bytes), vertices (%llu), indices (%llu) or physics state (%llu) past the "
                    "device's maxStorageBufferRange (%llu bytes)",
                    (unsigned long long)words, (unsigned long long)c.max_vertices * sizeof(mf_batch_vertex),
                    (unsigned long long)c.max_indices * 4u, (unsigned long long)phys_bytes, (unsigned long long)range);
        return MF_ERR_ARGUMENT;
    }
    /* readback_world: the frame's instances and each slot's copy of them */
    size_t worlds = c.readback_world ? (size_t)c.max_instances * (size_t)(1 + c.frames_in_flight) : 0;
    size_t np = (size_t)c.max_physics;
    size_t bytes = sizeof(gpu_batch) + (size_t)c.max_calls * sizeof(mf_draw_call) +
                   (size_t)c.max_instances * sizeof(gpu_run) + worlds * sizeof(gpu_inst_world) +
                   np * (sizeof(phys_state) + sizeof(phys_unit) + 2);
    gpu_batch *b = mf_alloc(&g->alloc, bytes);
    if (!b) return MF_ERR_NOMEM;
    memset(b, 0, sizeof *b);
    b->g = g, b->desc = c, b->cur = -1, b->last = -1;
    /* the runs (pointer-aligned) first: the calls' 28 bytes would misalign what follows them */
    b->runs = (gpu_run *)(b + 1);
    b->run_cap = c.max_instances;
    /* the instances' worlds (pointers) before the calls too */
    gpu_inst_world *wl = (gpu_inst_world *)(b->runs + c.max_instances);
    if (c.readback_world) {
        b->world = wl;
        for (int32_t i = 0; i < c.frames_in_flight; i++) b->slots[i].world = wl + (size_t)c.max_instances * (size_t)(1 + i);
    }
    /* the physics states and units (8-byte aligned) before the calls too */
    b->states = (phys_state *)(void *)(wl + worlds);
    b->units = (phys_unit *)(void *)(b->states + np);
    b->pub.calls = (mf_draw_call *)(void *)(b->units + np);
    b->unit_init = (uint8_t *)(b->pub.calls + c.max_calls);
    b->unit_reset = b->unit_init + np;
    memset(b->states, 0, np * sizeof *b->states);
    memset(b->units, 0, np * sizeof *b->units); /* begin() reads every unit's rested */
    b->pub.call_cap = c.max_calls;
    b->pub.gpu_ms = -1;
    b->inst_off = ITEM_WORDS * (uint32_t)c.max_items;
    b->direct_off = b->inst_off + INST_WORDS * (uint32_t)c.max_instances;
    b->words_off = b->direct_off + DIRECT_WORDS * (uint32_t)c.max_items;
    b->total_words = b->words_off + (uint32_t)c.max_words;
    uint32_t n = (uint32_t)c.frames_in_flight;
    VkDescriptorPoolSize ps = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 4 * n};
    VkDescriptorPoolCreateInfo pi = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, .maxSets = n,
                                     .poolSizeCount = 1, .pPoolSizes = &ps};
    VkResult r = g->vkCreateDescriptorPool(g->device, &pi, NULL, &b->dpool);
    /* never read before world.comp rests a constraint, which writes all of its floats */
    if (r == VK_SUCCESS)
        r = mf_gpu_buffer_make(g, phys_bytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, false, &b->phys);
    if (r == VK_SUCCESS && g->timestamp_bits) {
        VkQueryPoolCreateInfo qi = {.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
                                    .queryType = VK_QUERY_TYPE_TIMESTAMP, .queryCount = 2 * n};
        r = g->vkCreateQueryPool(g->device, &qi, NULL, &b->queries);
    }
    for (uint32_t i = 0; i < n && r == VK_SUCCESS; i++) r = make_slot(b, &b->slots[i]);
    if (r != VK_SUCCESS) {
        mf_diag_set(diag, "", "vulkan", "the batch's buffers could not be made (VkResult %d)", (int)r);
        mf_gpu_batch_destroy(&b->pub);
        return mf_gpu_result(r);
    }
    *out = &b->pub;
    return MF_OK;
}

void mf_gpu_batch_destroy(mf_gpu_batch *pub)
{
    if (!pub) return;
    gpu_batch *b = impl(pub);
    mf_gpu_device *g = b->g;
    for (int32_t i = 0; i < b->desc.frames_in_flight; i++) {
        gpu_slot *s = &b->slots[i];
        if (s->submitted) g->vkWaitForFences(g->device, 1, &s->fence, VK_TRUE, UINT64_MAX);
        if (s->fence) g->vkDestroyFence(g->device, s->fence, NULL);
        if (s->cmd) g->vkFreeCommandBuffers(g->device, g->pool, 1, &s->cmd);
        mf_gpu_buffer *bufs[7] = {&s->upload, &s->frame, &s->vout, &s->iout, &s->rv, &s->ri, &s->rw};
        for (int k = 0; k < 7; k++) mf_gpu_buffer_drop(g, bufs[k]);
    }
    if (b->queries) g->vkDestroyQueryPool(g->device, b->queries, NULL);
    mf_gpu_buffer_drop(g, &b->phys);
    if (b->dpool) g->vkDestroyDescriptorPool(g->device, b->dpool, NULL); /* frees the sets */
    mf_free(&g->alloc, b);
}

static VkResult wait_slot(gpu_batch *b, gpu_slot *s)
{
    if (!s->submitted) return VK_SUCCESS;
    mf_gpu_device *g = b->g;
    VkResult r = g->vkWaitForFences(g->device, 1, &s->fence, VK_TRUE, UINT64_MAX);
    if (r == VK_SUCCESS) r = g->vkResetFences(g->device, 1, &s->fence);
    if (r != VK_SUCCESS) return r;
    s->submitted = false;
    if (b->queries) {
        uint64_t t[2];
        uint32_t q = 2u * (uint32_t)(s - b->slots);
        if (g->vkGetQueryPoolResults(g->device, b->queries, q, 2, sizeof t, t, sizeof t[0], VK_QUERY_RESULT_64_BIT) ==
            VK_SUCCESS) {
            uint64_t mask = g->timestamp_bits >= 64 ? ~0ull : (1ull << g->timestamp_bits) - 1;
            b->pub.gpu_ms = (double)((t[1] - t[0]) & mask) * (double)g->props.limits.timestampPeriod * 1e-6;
        }
    }
    return VK_SUCCESS;
}

mf_result mf_gpu_batch_begin(mf_gpu_batch *pub)
{
    if (!pub) return MF_ERR_ARGUMENT;
    gpu_batch *b = impl(pub);
    if (b->phys_locals > 0 && b->recorded != b->frame) {
        /* the last frame was dropped (begun, never recorded): the rests it carried never reached
         * the GPU, whose states then hold nothing (a first rest) or the springs before a reset;
         * they rest at their next add instead. Rare: the walk costs no frame that is recorded */
        for (int32_t k = 0; k < b->desc.max_physics; k++) {
            phys_unit *u = &b->units[k];
            if ((u->rested & ~REST_FIRST) != b->frame || !b->frame) continue;
            if (u->rested & REST_FIRST) b->unit_init[k] = 0;
            else b->unit_reset[k] = 1;
            u->rested = 0;
        }
    }
    b->cur = (b->cur + 1) % b->desc.frames_in_flight;
    gpu_slot *s = &b->slots[b->cur];
    mf_result res = mf_gpu_result(wait_slot(b, s));
    pub->vertex_count = pub->index_count = pub->call_count = 0;
    pub->skeletons = pub->items = pub->overflow = pub->gpu_items = pub->upload_bytes = 0;
    pub->vertex_buffer = s->vout.buf, pub->index_buffer = s->iout.buf;
    b->items = b->instances = b->directs = b->words = b->gpu_words = b->locals = b->phys_locals = 0;
    b->run_count = 0;
    b->frame++;
    return res;
}

/* An item the merge accepts (draw_item.h) whose slot and attachment the data has: the GPU reads
 * them. */
static bool item_ok(const mf_draw_list *dl, const mf_skel_data *d, const mf_draw_item *it)
{
    return mf_draw_item_sane(dl, d, it) && it->slot >= 0 && it->slot < d->slot_count && it->attachment >= 0 &&
           it->attachment < d->attachment_count;
}

/* An unclipped item's attachment: drawable, of its slot, with its counts and a uv set it has. */
static bool skinnable(const mf_skel_data *d, const mf_draw_item *it)
{
    const mf_sd_attachment *at = &d->attachments[it->attachment];
    return mf_geom_drawable(at->type) && at->slot == it->slot && at->vertex_count == it->vertex_count && at->tri_count == it->index_count &&
           it->uv_set >= 0 && (at->uv_sets == 0 ? it->uv_set == 0 : it->uv_set < at->uv_sets);
}

/* The frame's words are the slot's mapped upload buffer: written in place, no second copy. */
static uint32_t *frame_words(gpu_batch *b) { return b->slots[b->cur].upload.map; }

/* Words left between the uploaded ones and the GPU's. */
static uint32_t free_words(const gpu_batch *b) { return (uint32_t)b->desc.max_words - b->words - b->gpu_words; }

/* The call the next item joins (draw_item.h: the CPU merge's rule); NULL when the calls are full. */
static inline mf_draw_call *join_call(mf_gpu_batch *pub, mf_draw_call *last, int32_t page, int32_t image,
                                      uint8_t blend, int32_t vertex_count, int32_t index_count)
{
    return mf_draw_join_call(pub->calls, &pub->call_count, pub->call_cap, last, page, image, blend, vertex_count,
                             index_count);
}

static inline mf_draw_call *last_call(mf_gpu_batch *pub)
{
    return pub->call_count > 0 ? &pub->calls[pub->call_count - 1] : NULL;
}

/* The slot's deform offsets when it holds the attachment's (deform_count of a mesh's, 0 for
 * what has none: mf_gpu_att): copied, *def their word offset; else *def NONE. MF_ERR_NOMEM when
 * the words are full. */
static inline mf_result put_deform(gpu_batch *b, const mf_pose *p, int32_t slot, int32_t att, int32_t deform_count,
                                   uint32_t *def)
{
    *def = NONE;
    if (deform_count <= 0 || p->deform_attachment[slot] != att) return MF_OK;
    uint32_t n = (uint32_t)deform_count;
    if (n > free_words(b)) return MF_ERR_NOMEM;
    *def = b->words_off + b->words;
    memcpy(frame_words(b) + *def, p->deform + p->deform_first[slot], n * sizeof(float));
    b->words += n;
    return MF_OK;
}

/* An item's record (ITEM_WORDS; skin.comp reads it): attachment (or DIRECT | clipped record),
 * instance, first vertex and index in the streams, colours, uv set, deform words (NONE). */
static inline void item_record(uint32_t *rec, uint32_t att, uint32_t inst, int32_t vertex_first, int32_t index_first,
                               uint32_t light, uint32_t dark, uint32_t uv_set, uint32_t def)
{
    rec[0] = att, rec[1] = inst, rec[2] = (uint32_t)vertex_first, rec[3] = (uint32_t)index_first;
    rec[4] = light, rec[5] = dark, rec[6] = uv_set, rec[7] = def;
}

/* The item's record, and the counts and call that grow by it (capacities checked). */
static inline void put_item(gpu_batch *b, mf_draw_call *call, uint32_t att, uint32_t inst, uint32_t light,
                            uint32_t dark, uint32_t uv_set, uint32_t def, int32_t nv, int32_t ni)
{
    mf_gpu_batch *pub = &b->pub;
    item_record(frame_words(b) + ITEM_WORDS * b->items, att, inst, pub->vertex_count, pub->index_count, light, dark,
                uv_set, def);
    b->items++;
    pub->vertex_count += nv, pub->index_count += ni;
    call->vertex_count = pub->vertex_count - call->vertex_first;
    call->index_count = pub->index_count - call->index_first;
}

static inline bool room(const gpu_batch *b, int32_t nv, int32_t ni)
{
    const mf_gpu_batch_desc *c = &b->desc;
    return nv <= c->max_vertices - b->pub.vertex_count && ni <= c->max_indices - b->pub.index_count &&
           b->items < (uint32_t)c->max_items;
}

/* Appends a list's item; MF_ERR_NOMEM / MF_ERR_ARGUMENT leave the caller to roll back. */
static mf_result add_item(gpu_batch *b, const mf_gpu_rig *rig, const mf_pose *p, const mf_draw_list *dl,
                          const mf_draw_item *it, uint32_t inst)
{
    const mf_skel_data *d = p->data;
    int32_t nv = it->vertex_count, ni = it->index_count;
    if (!room(b, nv, ni)) return MF_ERR_NOMEM;
    int32_t page, image;
    mf_draw_texture(d, it->image, &page, &image);
    mf_draw_call *call = join_call(&b->pub, last_call(&b->pub), page, image, it->blend, b->pub.vertex_count,
                                   b->pub.index_count);
    if (!call) return MF_ERR_NOMEM;
    uint32_t att = (uint32_t)it->attachment, def = NONE;
    if (it->clipped) { /* the list's clipped geometry: x, y, u, v a vertex, then the indices */
        uint32_t need = 4u * (uint32_t)nv + (uint32_t)ni;
        if (need > free_words(b)) return MF_ERR_NOMEM;
        uint32_t *w = frame_words(b);
        uint32_t vo = b->words_off + b->words, io = vo + 4u * (uint32_t)nv;
        float *dv = (float *)(w + vo);
        const float *sv = dl->vertices + 2 * it->vertex_first, *su = dl->uvs + 2 * it->vertex_first;
        for (int32_t j = 0; j < nv; j++)
            dv[4 * j] = sv[2 * j], dv[4 * j + 1] = sv[2 * j + 1], dv[4 * j + 2] = su[2 * j], dv[4 * j + 3] = su[2 * j + 1];
        const uint16_t *si = dl->indices + it->index_first;
        uint32_t top = 0;
        for (int32_t j = 0; j < ni; j++) top |= si[j] >= nv, w[io + j] = si[j];
        if (top) return MF_ERR_ARGUMENT;
        uint32_t *dr = w + b->direct_off + DIRECT_WORDS * b->directs;
        dr[0] = (uint32_t)nv, dr[1] = (uint32_t)ni, dr[2] = vo, dr[3] = io;
        att = DIRECT | b->directs++;
        b->words += need;
    } else {
        if (!skinnable(d, it)) return MF_ERR_ARGUMENT;
        if (put_deform(b, p, it->slot, it->attachment, rig->att[it->attachment].deform_count, &def) != MF_OK)
            return MF_ERR_NOMEM;
        b->pub.gpu_items++;
    }
    uint32_t light = mf_draw_pack(it->light[0], it->light[1], it->light[2], it->light[3]);
    uint32_t dark = it->has_dark ? mf_draw_pack(it->dark[0], it->dark[1], it->dark[2], 1.0f) : 0u;
    put_item(b, call, att, inst, light, dark, (uint32_t)it->uv_set, def, nv, ni);
    return MF_OK;
}

/* The items a draw list would list for the pose (geom_item.h: the same frames and colours), for
 * a rig without clipping: no list written and read back. */
static mf_result add_pose_items(gpu_batch *b, const mf_gpu_rig *rig, const mf_pose *p, uint32_t inst,
                                int32_t *items)
{
    const mf_skel_data *d = p->data;
    mf_gpu_batch *pub = &b->pub;
    const mf_gpu_batch_desc *c = &b->desc;
    uint32_t *rec = frame_words(b) + ITEM_WORDS * b->items;
    /* the counts in locals: the records' stores would make the compiler reload them */
    int32_t vc = pub->vertex_count, ic = pub->index_count, n = 0, free_items = c->max_items - (int32_t)b->items;
    const int32_t max_v = c->max_vertices, max_i = c->max_indices;
    /* room for every slot showing the largest attachment: no item needs its own check */
    const bool roomy = p->slot_count <= free_items &&
                       (int64_t)p->slot_count * rig->max_att_vertices <= (int64_t)max_v - vc &&
                       (int64_t)p->slot_count * rig->max_att_indices <= (int64_t)max_i - ic;
    mf_draw_call *call = last_call(pub);
    mf_result res = MF_OK;
    for (int32_t k = 0; k < p->slot_count; k++) {
        int32_t s = p->draw_order[k], att = p->attachment[s];
        if (att < 0) continue;
        const mf_gpu_att *ga = &rig->att[att]; /* what the data says of it, once (gpu_rig.c) */
        const mf_sd_slot *sd = &d->slots[s];
        if (!ga->drawn || !p->active[sd->bone]) continue;
        int32_t nv = ga->vertex_count, ni = ga->index_count, uv_set = 0, page = ga->page, img = ga->image;
        uint32_t def = NONE;
        if (!roomy && (nv > max_v - vc || ni > max_i - ic || n >= free_items)) {
            res = MF_ERR_NOMEM;
            break;
        }
        if (ga->sequence) { /* the frame drawn, as the draw list picks it */
            int32_t image;
            mf_geom_item_frame(p, s, &d->attachments[att], &image, &uv_set);
            mf_draw_texture(d, image, &page, &img);
        }
        if (!(call = join_call(pub, call, page, img, sd->blend, vc, ic)) ||
            put_deform(b, p, s, att, ga->deform_count, &def) != MF_OK) {
            res = MF_ERR_NOMEM;
            break;
        }
        /* slot colour × the attachment's colour as mf_geom_item_light multiplies them */
        float light[4];
        for (int32_t j = 0; j < 4; j++) light[j] = p->color[4 * s + j] * ga->color[j];
        const float *dark = p->dark + 3 * s;
        item_record(rec, (uint32_t)att, inst, vc, ic, mf_draw_pack(light[0], light[1], light[2], light[3]),
                    sd->has_dark ? mf_draw_pack(dark[0], dark[1], dark[2], 1.0f) : 0u, (uint32_t)uv_set, def);
        rec += ITEM_WORDS;
        vc += nv, ic += ni, n++;
        call->vertex_count = vc - call->vertex_first, call->index_count = ic - call->index_first;
    }
    /* on an error too: the caller restores what it saved */
    pub->vertex_count = vc, pub->index_count = ic, pub->gpu_items += n;
    b->items += (uint32_t)n;
    *items += n;
    return res;
}

bool mf_gpu_pose_needs_list(const mf_gpu_rig *rig, const mf_pose *p)
{
    if (!rig || !p || !mf_sd_same(rig->data, p->data)) return false;
    const mf_skel_data *d = p->data;
    for (int32_t k = 0; k < rig->clip_slot_count; k++) { /* only slots with a clipping attachment */
        int32_t s = rig->clip_slots[k], att = p->attachment[s];
        if (att >= 0 && d->attachments[att].type == MF_SD_ATT_CLIPPING && p->active[d->slots[s].bone]) return true;
    }
    return false;
}

/* The path attachment path constraint k's slot shows (-1: none, or not a path) and the deform
 * floats that slot holds for it (0: none). */
static int32_t path_shown(const mf_pose *p, int32_t k, int32_t *deform_count)
{
    const mf_skel_data *d = p->data;
    int32_t slot = d->path[k].target, att = p->attachment[slot];
    *deform_count = 0;
    if (att < 0 || d->attachments[att].type != MF_SD_ATT_PATH) return -1;
    if (d->attachments[att].deform_count > 0 && p->deform_attachment[slot] == att)
        *deform_count = d->attachments[att].deform_count;
    return att;
}

/* The local pose the GPU makes the palette from (world.comp): x, y, rot, sx, sy, shx, shy as
 * arrays of n floats, then the inherit modes, 4 a word, then 3 words an IK constraint: mix,
 * softness, and bend (a signed byte) | compress << 8 | stretch << 9 | active << 10; then 7
 * words a transform constraint: its mixes rotate, x, y, scaleX, scaleY, shearY and active; then
 * 8 a path constraint: mixes rotate, x, y, position, spacing, active, the path attachment shown
 * (NONE: none) and the word of its deform (NONE: none) from the local pose's start; then those
 * deforms. */
static void put_locals(const mf_pose *p, uint32_t *w)
{
    size_t n = (size_t)p->bone_count;
    const float *arr[7] = {p->x, p->y, p->rot, p->sx, p->sy, p->shx, p->shy};
    for (int k = 0; k < 7; k++) memcpy(w + (size_t)k * n, arr[k], n * sizeof(float));
    unsigned char *inh = (unsigned char *)(w + 7 * n);
    memcpy(inh, p->inherit, n);
    memset(inh + n, 0, 4 * ((n + 3) / 4) - n);
    uint32_t *ik = w + 7 * n + (n + 3) / 4;
    for (int32_t k = 0; k < p->data->ik_count; k++, ik += 3) {
        memcpy(&ik[0], &p->ik_mix[k], sizeof(float));
        memcpy(&ik[1], &p->ik_softness[k], sizeof(float));
        ik[2] = (uint32_t)(uint8_t)p->ik_bend[k] | (uint32_t)(p->ik_compress[k] != 0) << 8 |
                (uint32_t)(p->ik_stretch[k] != 0) << 9 | (uint32_t)(p->ik_active[k] != 0) << 10;
    }
    uint32_t *tf = ik;
    for (int32_t k = 0; k < p->data->transform_count; k++, tf += MF_GPU_TF_LOCAL_WORDS) {
        memcpy(tf, p->tf_mix + 6 * k, 6 * sizeof(float));
        tf[6] = p->tf_active[k] != 0;
    }
    uint32_t *pw = tf, def_at = mf_gpu_local_fixed_words(p->data);
    for (int32_t k = 0; k < p->data->path_count; k++, pw += MF_GPU_PATH_LOCAL_WORDS) {
        memcpy(pw, p->path_mix + 3 * k, 3 * sizeof(float));
        memcpy(pw + 3, p->path_position + k, sizeof(float));
        memcpy(pw + 4, p->path_spacing + k, sizeof(float));
        pw[5] = p->path_active[k] != 0;
        int32_t dc, att = path_shown(p, k, &dc);
        pw[6] = att < 0 ? NONE : (uint32_t)att, pw[7] = NONE;
        if (dc > 0) {
            memcpy(w + def_at, p->deform + p->deform_first[p->data->path[k].target], (size_t)dc * sizeof(float));
            pw[7] = def_at, def_at += (uint32_t)dc;
        }
    }
}

static uint32_t local_words(const mf_pose *p)
{
    uint32_t words = mf_gpu_local_fixed_words(p->data);
    for (int32_t k = 0; k < p->data->path_count; k++) {
        int32_t dc;
        path_shown(p, k, &dc);
        words += (uint32_t)dc;
    }
    return words;
}

/* An instance's physics words (gpu_internal.h), once its add has succeeded: the frame's time,
 * movement and resets taken from the pose (mf_pose_physics_take, as mf_pose_update_world would),
 * and the time accounted here in doubles exactly as the CPU's solver does it
 * (pose_physics_solve.c: mf_pose_physics_begin, mf_pose_apply_physics, update): the steps each
 * constraint runs, whether it rests first, whether its speed is capped, the movement it lags
 * behind. The GPU then needs no doubles, and steps on the frames the CPU would. The springs'
 * settings are the CPU's (mf_pose_physics_spring, damping's powf here too). */
static void put_physics(gpu_batch *b, mf_pose *p, int32_t state, uint32_t *w)
{
    const mf_skel_data *d = p->data;
    const mf_pose_scratch *s = p->scratch;
    phys_unit *u = b->units + state;
    uint8_t *init = b->unit_init + state, *reset = b->unit_reset + state;
    double dt;
    float mx, my;
    mf_pose_physics_take(p, &dt, &mx, &my, reset);
    w[0] = (uint32_t)state * MF_GPU_PHYS_STATE;
    memcpy(&w[1], &s->phys_teleport, sizeof(float));
    int32_t mode = s->phys_mode;
    for (int32_t k = 0; k < d->physics_count; k++) {
        uint32_t *c = w + MF_GPU_PHYS_HEAD_WORDS + MF_GPU_PHYS_LOCAL_WORDS * (uint32_t)k;
        phys_unit *e = &u[k];
        const mf_phys_fixed *f = &s->phys_fixed[k];
        const float *v = s->phys_values + (size_t)k * MF_PHYS_V_COUNT;
        e->remaining += dt; /* mf_pose_physics_begin: every constraint, running or not */
        if (mx != 0 || my != 0) e->move_x += mx, e->move_y += my;
        uint32_t flags = 0;
        int32_t steps = 0;
        float lag[2] = {0, 0};
        if (mf_pose_physics_runs(p, k)) {
            flags = MF_GPU_PF_RUN;
            if (mode == MF_PHYSICS_NONE) {
                e->remaining = 0;
            } else {
                bool resting = false; /* a reset this update: rest and step nothing */
                if (!init[k] || reset[k]) {
                    resting = init[k] != 0;
                    e->rested = b->frame | (resting ? 0 : REST_FIRST);
                    init[k] = 1, reset[k] = 0, flags |= MF_GPU_PF_REST;
                    e->remaining = resting ? dt : 0; /* a reset keeps this frame's time */
                    e->move_x = e->move_y = 0;
                }
                if (mode == MF_PHYSICS_UPDATE && !resting) {
                    flags |= MF_GPU_PF_UPDATE | (e->remaining > 0 ? MF_GPU_PF_CAPPED : 0u);
                    steps = mf_pose_physics_steps(&e->remaining, f->step);
                    lag[0] = e->move_x, lag[1] = e->move_y;
                } else if (mode != MF_PHYSICS_UPDATE) {
                    e->remaining = 0;
                }
            }
            e->move_x = e->move_y = 0;
        }
        mf_phys_spring sp = {0}; /* only when a step runs (its damping may need powf), as the CPU's */
        if (steps > 0)
            sp = mf_pose_physics_spring(v, v[MF_PHYS_V_WIND] + s->phys_wind, v[MF_PHYS_V_GRAVITY] + s->phys_gravity,
                                        (float)f->step, f->e);
        const float words[13] = {v[MF_PHYS_V_MIX] * s->phys_mix, v[MF_PHYS_V_INERTIA], sp.k, sp.damp, sp.mass, sp.fx,
                                 sp.fy, sp.tx, sp.ty, lag[0], lag[1], (float)f->step, f->cap};
        c[0] = flags | (uint32_t)steps << 8 | (uint32_t)mode << 16;
        memcpy(c + 1, words, sizeof words);
    }
}

/* add() and add_local(): local, the GPU makes the palette from the local pose; state: the
 * physics state of add_physics (-1: none), whose words are written once the add succeeded. */
static mf_result add_skeleton(mf_gpu_batch *pub, const mf_gpu_rig *rig, const mf_pose *p, const mf_draw_list *dl,
                              const float *xf, bool local, int32_t state)
{
    gpu_batch *b = impl(pub);
    const mf_gpu_batch_desc *c = &b->desc;
    /* a local pose's GPU words: its palette, then its path constraints' scratch */
    uint32_t palette_words = 6u * (uint32_t)p->bone_count + (local ? rig->path_scratch : 0u);
    uint32_t up_words = local ? local_words(p) : palette_words;
    if (b->instances >= (uint32_t)c->max_instances || up_words > free_words(b) ||
        (local && palette_words > free_words(b) - up_words)) {
        pub->overflow++;
        return MF_ERR_NOMEM;
    }
    /* what to restore when the skeleton does not fit or its list lies */
    int32_t v0 = pub->vertex_count, i0 = pub->index_count, c0 = pub->call_count, g0 = pub->gpu_items;
    uint32_t items0 = b->items, directs0 = b->directs, words0 = b->words, gpu_words0 = b->gpu_words;
    mf_draw_call last = c0 > 0 ? pub->calls[c0 - 1] : (mf_draw_call){0};
    uint32_t *w = frame_words(b), inst = b->instances;
    uint32_t up = b->words_off + b->words, pal = up;
    if (local) {
        put_locals(p, w + up);
        b->gpu_words += palette_words;
        pal = b->words_off + (uint32_t)c->max_words - b->gpu_words;
    } else {
        mf_pose_palette(p, (float *)(w + up));
    }
    b->words += up_words;
    mf_result res = MF_OK;
    int32_t items = 0;
    if (dl) {
        for (int32_t k = 0; k < dl->item_count && res == MF_OK; k++) {
            const mf_draw_item *it = &dl->items[k];
            if (!item_ok(dl, p->data, it)) res = MF_ERR_ARGUMENT;
            else if (it->index_count == 0) continue; /* nothing drawn: no reason to break a batch */
            else if ((res = add_item(b, rig, p, dl, it, inst)) == MF_OK) items++;
        }
    } else {
        res = add_pose_items(b, rig, p, inst, &items);
    }
    if (res == MF_OK && items > 0) {
        gpu_run *run = b->run_count > 0 ? &b->runs[b->run_count - 1] : NULL;
        if (run && run->rig == rig) run->item_count = b->items - run->item_first;
        else if (b->run_count < b->run_cap)
            run = &b->runs[b->run_count++], *run = (gpu_run){rig, items0, b->items - items0, inst, 0, 0};
        else res = MF_ERR_NOMEM;
        /* the run's world dispatch covers its instances (one with no items between them has none
         * to pose: its local pose is dropped below) */
        if (res == MF_OK) run->inst_count = inst + 1 - run->inst_first, run->locals += local;
    }
    if (res != MF_OK) {
        pub->vertex_count = v0, pub->index_count = i0, pub->call_count = c0, pub->gpu_items = g0;
        if (c0 > 0) pub->calls[c0 - 1] = last;
        b->items = items0, b->directs = directs0, b->words = words0, b->gpu_words = gpu_words0;
        if (res == MF_ERR_NOMEM) pub->overflow++;
        return res;
    }
    uint32_t loc = NONE;
    if (local && items > 0) loc = up, b->locals++;
    else if (local) b->words = words0, b->gpu_words = gpu_words0; /* nothing drawn: nothing to pose */
    if (state >= 0 && loc != NONE) { /* posed: the frame's physics inputs taken (else they wait) */
        put_physics(b, (mf_pose *)p, state, w + up + mf_gpu_local_phys_at(p->data));
        b->states[state].frame = b->frame;
        b->phys_locals++;
    }
    uint32_t *ir = w + b->inst_off + INST_WORDS * inst;
    float m[6];
    mf_draw_placement(xf, m);
    ir[0] = pal;
    memcpy(ir + 1, m, sizeof m);
    ir[7] = loc;
    if (b->world) b->world[inst] = (gpu_inst_world){p->data, loc == NONE ? NONE : pal};
    b->instances++;
    pub->skeletons++;
    pub->items += items;
    /* up to 4 GiB of words: saturated, not wrapped to a negative count */
    uint64_t bytes = 4ull * (ITEM_WORDS * b->items + INST_WORDS * b->instances + DIRECT_WORDS * b->directs + b->words);
    pub->upload_bytes = bytes > INT32_MAX ? INT32_MAX : (int32_t)bytes;
    return MF_OK;
}

/* The checks add() and add_local() share: NULLs, a frame begun, one device, one data. */
static bool add_ok(mf_gpu_batch *pub, const mf_gpu_rig *rig, const mf_pose *p)
{
    return pub && rig && p && impl(pub)->cur >= 0 && rig->g == impl(pub)->g && mf_sd_same(rig->data, p->data);
}

mf_result mf_gpu_batch_add(mf_gpu_batch *pub, const mf_gpu_rig *rig, const mf_pose *p, const mf_draw_list *dl,
                           const float *xf)
{
    if (!add_ok(pub, rig, p) || (!dl && mf_gpu_pose_needs_list(rig, p))) return MF_ERR_ARGUMENT;
    /* the list's items index the data the rig's tables hold, and the pose is posed from it */
    if (dl && (!mf_sd_same(dl->data, p->data) || !mf_draw_list_sane(dl))) return MF_ERR_ARGUMENT;
    return add_skeleton(pub, rig, p, dl, xf, false, -1);
}

mf_result mf_gpu_batch_add_local(mf_gpu_batch *pub, const mf_gpu_rig *rig, const mf_pose *p, const float *xf)
{
    if (!add_ok(pub, rig, p) || !rig->world_ok || p->data->physics_count > 0 || mf_gpu_pose_needs_list(rig, p))
        return MF_ERR_ARGUMENT; /* physics needs its state: add_physics */
    return add_skeleton(pub, rig, p, NULL, xf, true, -1);
}

/* A state acquired for this rig, not yet added this frame. */
static bool state_ok(const gpu_batch *b, const mf_gpu_rig *rig, int32_t state)
{
    return state >= 0 && state < b->desc.max_physics && b->states[state].count > 0 && b->states[state].rig == rig &&
           b->states[state].frame != b->frame;
}

mf_result mf_gpu_batch_add_physics(mf_gpu_batch *pub, const mf_gpu_rig *rig, mf_pose *p, int32_t state, const float *xf)
{
    if (!add_ok(pub, rig, p) || !rig->world_ok || p->data->physics_count == 0 || !state_ok(impl(pub), rig, state) ||
        mf_gpu_pose_needs_list(rig, p))
        return MF_ERR_ARGUMENT;
    return add_skeleton(pub, rig, p, NULL, xf, true, state);
}

mf_result mf_gpu_batch_physics_acquire(mf_gpu_batch *pub, const mf_gpu_rig *rig, int32_t *state)
{
    if (state) *state = -1;
    if (!pub || !rig || !state || rig->g != impl(pub)->g || rig->data->physics_count == 0) return MF_ERR_ARGUMENT;
    gpu_batch *b = impl(pub);
    int32_t need = rig->data->physics_count, cap = b->desc.max_physics;
    /* first fit: a state's first unit says how many follow it; free units say 0 */
    for (int32_t i = 0; i + need <= cap;) {
        if (b->states[i].count > 0) {
            i += b->states[i].count;
            continue;
        }
        int32_t j = i;
        while (j < i + need && b->states[j].count == 0) j++;
        if (j < i + need) {
            i = j;
            continue;
        }
        /* on units a state added this frame was released from: not added before the next
         * frame (two instances would step the same springs at once) */
        bool busy = false;
        for (int32_t k = i; k < i + need; k++) {
            busy |= b->states[k].frame == b->frame;
            b->states[k] = (phys_state){0};
            b->units[k] = (phys_unit){0}, b->unit_init[k] = b->unit_reset[k] = 0;
        }
        b->states[i] = (phys_state){rig, need, busy ? b->frame : 0};
        *state = i; /* at rest on its first add (its units not put at rest yet) */
        return MF_OK;
    }
    return MF_ERR_NOMEM;
}

mf_result mf_gpu_batch_physics_release(mf_gpu_batch *pub, int32_t state)
{
    if (!pub) return MF_ERR_ARGUMENT;
    gpu_batch *b = impl(pub);
    if (state < 0 || state >= b->desc.max_physics || b->states[state].count == 0) return MF_ERR_ARGUMENT;
    int32_t count = b->states[state].count;
    uint64_t busy = b->states[state].frame == b->frame ? b->frame : 0; /* added this frame */
    for (int32_t k = state; k < state + count; k++) b->states[k] = (phys_state){.frame = busy};
    return MF_OK;
}

mf_result mf_gpu_batch_record(mf_gpu_batch *pub, VkCommandBuffer cmd)
{
    if (!pub || !cmd) return MF_ERR_ARGUMENT;
    gpu_batch *b = impl(pub);
    if (b->cur < 0) return MF_ERR_ARGUMENT;
    b->recorded = b->frame; /* its physics rests go to the GPU (begin: else undone) */
    mf_gpu_device *g = b->g;
    gpu_slot *s = &b->slots[b->cur];
    s->vertex_count = pub->vertex_count, s->index_count = pub->index_count;
    if (b->world) { /* the instances this record's palettes belong to (read_world) */
        memcpy(s->world, b->world, (size_t)b->instances * sizeof *s->world);
        s->world_count = (int32_t)b->instances;
    }
    if (b->items == 0) return MF_OK;
    VkBufferCopy regions[4] = {{0, 0, 4u * ITEM_WORDS * b->items},
                               {4u * b->inst_off, 4u * b->inst_off, 4u * INST_WORDS * b->instances},
                               {4u * b->direct_off, 4u * b->direct_off, 4u * DIRECT_WORDS * b->directs},
                               {4u * b->words_off, 4u * b->words_off, 4u * b->words}};
    uint32_t nr = 0;
    for (uint32_t i = 0; i < 4; i++)
        if (regions[i].size) regions[nr++] = regions[i];
    g->vkCmdCopyBuffer(cmd, s->upload.buf, s->frame.buf, nr, regions);
    /* the copy before the shaders read it, and before world.comp writes palettes beside it */
    VkMemoryBarrier up = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER, .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
                          .dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT};
    /* the streams: the previous use of this slot (vertex input, readback) before the writes;
     * a queue family without graphics has no vertex input stage to name (a barrier naming one
     * is invalid there: an async compute queue) */
    const VkPipelineStageFlags use =
        VK_PIPELINE_STAGE_TRANSFER_BIT |
        (g->graphics ? VK_PIPELINE_STAGE_VERTEX_INPUT_BIT | VK_PIPELINE_STAGE_VERTEX_SHADER_BIT : 0);
    VkPipelineStageFlags before = use;
    if (b->phys_locals > 0) { /* the physics state: an earlier frame's world pass wrote it */
        before |= VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT;
        up.srcAccessMask |= VK_ACCESS_SHADER_WRITE_BIT;
    }
    g->vkCmdPipelineBarrier(cmd, before, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &up, 0, NULL, 0, NULL);
    g->vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, g->pipe_layout, 1, 1, &s->set, 0, NULL);
    if (b->locals > 0) { /* the palettes of local poses, before the skinning reads them */
        g->vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, g->world_pipeline);
        for (int32_t i = 0; i < b->run_count; i++) {
            const gpu_run *run = &b->runs[i];
            if (!run->locals) continue;
            g->vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, g->pipe_layout, 0, 1, &run->rig->set, 0,
                                       NULL);
            uint32_t groups = (run->inst_count + 63) / 64, gx = groups < GROUPS_X ? groups : GROUPS_X;
            mf_gpu_push push = {run->inst_first, run->inst_count, (uint32_t)run->rig->data->bone_count, b->inst_off, gx};
            g->vkCmdPushConstants(cmd, g->pipe_layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof push, &push);
            g->vkCmdDispatch(cmd, gx, (groups + gx - 1) / gx, 1);
        }
        VkMemoryBarrier posed = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER, .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT,
                                 .dstAccessMask = VK_ACCESS_SHADER_READ_BIT};
        g->vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1,
                                &posed, 0, NULL, 0, NULL);
    }
    g->vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, g->pipeline);
    for (int32_t i = 0; i < b->run_count; i++) {
        const gpu_run *run = &b->runs[i];
        g->vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, g->pipe_layout, 0, 1, &run->rig->set, 0, NULL);
        uint32_t gx = run->item_count < GROUPS_X ? run->item_count : GROUPS_X;
        mf_gpu_push push = {run->item_first, run->item_count, gx, b->inst_off, b->direct_off};
        g->vkCmdPushConstants(cmd, g->pipe_layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof push, &push);
        g->vkCmdDispatch(cmd, gx, (run->item_count + gx - 1) / gx, 1);
    }
    VkMemoryBarrier done = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER, .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT,
                            .dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT |
                                             (g->graphics ? VK_ACCESS_VERTEX_ATTRIBUTE_READ_BIT | VK_ACCESS_INDEX_READ_BIT |
                                                                VK_ACCESS_SHADER_READ_BIT /* vertex pulling */
                                                          : 0)};
    g->vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, use, 0, 1, &done, 0, NULL, 0, NULL);
    if (b->desc.readback_world && b->gpu_words) {
        /* the GPU's words (palettes, path scratch) from the top of the words down, at their
         * place from words_off; the barrier above made world.comp's writes visible to transfer */
        uint32_t top = (uint32_t)b->desc.max_words;
        VkBufferCopy cw = {4u * (b->words_off + top - b->gpu_words), 4u * (top - b->gpu_words), 4u * b->gpu_words};
        g->vkCmdCopyBuffer(cmd, s->frame.buf, s->rw.buf, 1, &cw);
    }
    if (b->desc.readback) {
        VkBufferCopy cv = {0, 0, (VkDeviceSize)pub->vertex_count * sizeof(mf_batch_vertex)};
        VkBufferCopy ci = {0, 0, (VkDeviceSize)pub->index_count * 4};
        if (cv.size) g->vkCmdCopyBuffer(cmd, s->vout.buf, s->rv.buf, 1, &cv);
        if (ci.size) g->vkCmdCopyBuffer(cmd, s->iout.buf, s->ri.buf, 1, &ci);
    }
    if (b->desc.readback || (b->desc.readback_world && b->gpu_words)) { /* the copies before the host reads */
        VkMemoryBarrier host = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER, .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
                                .dstAccessMask = VK_ACCESS_HOST_READ_BIT};
        g->vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &host, 0, NULL,
                                0, NULL);
    }
    return MF_OK;
}

mf_result mf_gpu_batch_submit(mf_gpu_batch *pub)
{
    if (!pub) return MF_ERR_ARGUMENT;
    gpu_batch *b = impl(pub);
    if (b->cur < 0) return MF_ERR_ARGUMENT;
    mf_gpu_device *g = b->g;
    gpu_slot *s = &b->slots[b->cur];
    if (s->submitted) return MF_ERR_ARGUMENT; /* once a begin() */
    VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                   .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
    VkResult r = g->vkResetCommandBuffer(s->cmd, 0);
    if (r == VK_SUCCESS) r = g->vkBeginCommandBuffer(s->cmd, &bi);
    if (r != VK_SUCCESS) return mf_gpu_result(r);
    uint32_t q = 2u * (uint32_t)b->cur;
    if (b->queries) {
        g->vkCmdResetQueryPool(s->cmd, b->queries, q, 2);
        g->vkCmdWriteTimestamp(s->cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, b->queries, q);
    }
    mf_gpu_batch_record(pub, s->cmd);
    if (b->queries) g->vkCmdWriteTimestamp(s->cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, b->queries, q + 1);
    r = g->vkEndCommandBuffer(s->cmd);
    VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &s->cmd};
    if (r == VK_SUCCESS) r = g->vkQueueSubmit(g->queue, 1, &si, s->fence);
    if (r != VK_SUCCESS) return mf_gpu_result(r);
    s->submitted = true;
    b->last = b->cur;
    return MF_OK;
}

mf_result mf_gpu_batch_wait(mf_gpu_batch *pub)
{
    if (!pub) return MF_ERR_ARGUMENT;
    gpu_batch *b = impl(pub);
    if (b->last < 0) return MF_OK;
    return mf_gpu_result(wait_slot(b, &b->slots[b->last]));
}

mf_result mf_gpu_batch_read(const mf_gpu_batch *pub, mf_batch_vertex *vertices, uint32_t *indices)
{
    if (!pub) return MF_ERR_ARGUMENT;
    const gpu_batch *b = (const gpu_batch *)pub;
    if (!b->desc.readback || b->last < 0) return MF_ERR_ARGUMENT;
    const gpu_slot *s = &b->slots[b->last];
    if (s->submitted) return MF_ERR_ARGUMENT; /* not waited for */
    if (vertices && s->vertex_count) memcpy(vertices, s->rv.map, (size_t)s->vertex_count * sizeof *vertices);
    if (indices && s->index_count) memcpy(indices, s->ri.map, (size_t)s->index_count * sizeof *indices);
    return MF_OK;
}

mf_result mf_gpu_batch_read_world(const mf_gpu_batch *pub, int32_t skeleton, mf_pose *pose)
{
    if (!pub || !pose) return MF_ERR_ARGUMENT;
    const gpu_batch *b = (const gpu_batch *)pub;
    if (!b->desc.readback_world || b->last < 0) return MF_ERR_ARGUMENT;
    const gpu_slot *s = &b->slots[b->last];
    if (s->submitted || skeleton < 0 || skeleton >= s->world_count) return MF_ERR_ARGUMENT; /* not waited for */
    const gpu_inst_world *iw = &s->world[skeleton];
    if (!mf_sd_same(iw->data, pose->data) || pose->bone_count != iw->data->bone_count) return MF_ERR_ARGUMENT;
    if (iw->pal == NONE) return MF_ERR_UNSUPPORTED; /* its palette came from the CPU's world, or nothing drawn */
    /* the palette is skeleton space (skin.comp places it by the instance's xf): the world
     * mf_pose_update_world writes */
    const float *w = (const float *)s->rw.map + (iw->pal - b->words_off);
    for (int32_t i = 0; i < pose->bone_count; i++, w += 6) {
        pose->a[i] = w[0], pose->b[i] = w[1], pose->wx[i] = w[2];
        pose->c[i] = w[3], pose->d[i] = w[4], pose->wy[i] = w[5];
    }
    /* a world the host wrote (mf_pose.h): the next update computes every bone (the dirty
     * sub-tree skip would keep the GPU's world for bones whose local values it saw last time),
     * and CPU skinning packs it again */
    mf_pose_world_changed(pose);
    return MF_OK;
}
