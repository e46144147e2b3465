/* GPU skinning with the host's Vulkan (mf_gpu.h), the path a game uses: the test opens the
 * loader itself, makes its own instance (with the validation layer and a messenger that counts
 * its errors and warnings, when the layer is installed), device and queue, and hands them to
 * mf_gpu_device_create. Each frame it records the batch into its own command buffer, copies
 * the streams to its own host-visible buffers, submits and waits with its own fences, three
 * frames in flight, and compares them with mf_draw_batch_add's on the CPU. Destroying the
 * mf_gpu_device leaves the host's device and instance working.
 *
 * Without a Vulkan device the tests say they skipped, unless MF_REQUIRE_GPU is set. */
#define _GNU_SOURCE
#include "testutil.h"

#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define VK_NO_PROTOTYPES
#include "mf/mf_gpu.h"
#include "mf/mf_physics.h"
#include "mf/mf_tracks.h"
#include "gpu_rig.h"

/* ---------------------------------------------------------------- the host's Vulkan */

#define HOST_INSTANCE_FNS(X)                                                                                  \
    X(vkDestroyInstance) X(vkEnumeratePhysicalDevices) X(vkGetPhysicalDeviceProperties)                       \
    X(vkGetPhysicalDeviceQueueFamilyProperties) X(vkGetPhysicalDeviceMemoryProperties) X(vkCreateDevice)      \
    X(vkGetDeviceProcAddr)
#define HOST_DEVICE_FNS(X)                                                                                    \
    X(vkDestroyDevice) X(vkGetDeviceQueue) X(vkCreateCommandPool) X(vkDestroyCommandPool)                     \
    X(vkAllocateCommandBuffers) X(vkBeginCommandBuffer) X(vkEndCommandBuffer) X(vkResetCommandBuffer)         \
    X(vkCmdCopyBuffer) X(vkCmdPipelineBarrier) X(vkCmdFillBuffer) X(vkCreateBuffer) X(vkDestroyBuffer)        \
    X(vkGetBufferMemoryRequirements) X(vkAllocateMemory) X(vkFreeMemory) X(vkBindBufferMemory) X(vkMapMemory) \
    X(vkCreateFence) X(vkDestroyFence) X(vkWaitForFences) X(vkResetFences) X(vkQueueSubmit) X(vkDeviceWaitIdle)
#define FIELD(name) PFN_##name name;

typedef struct host {
    void *loader;
    PFN_vkGetInstanceProcAddr gipa;
    HOST_INSTANCE_FNS(FIELD)
    HOST_DEVICE_FNS(FIELD)
    VkInstance instance;
    VkDebugUtilsMessengerEXT messenger;
    PFN_vkDestroyDebugUtilsMessengerEXT destroy_messenger;
    bool layer;
    int messages; /* the validation layer's errors and warnings */
    VkPhysicalDevice physical;
    VkPhysicalDeviceMemoryProperties mem;
    uint32_t family, family_count;
    VkQueueFamilyProperties families[16];
    VkDevice device;
    VkQueue queue, queues[16]; /* the first compute family's; each compute family's */
    VkCommandPool pool, pools[16];
} host;

typedef struct host_buffer {
    VkBuffer buf;
    VkDeviceMemory mem;
    void *map;
} host_buffer;

static host g_host;
static bool g_have; /* the host made its device */
static int g_final_messages; /* the layer's messages through the host's own destruction */
static char g_why[600];

static VKAPI_ATTR VkBool32 VKAPI_CALL on_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                 VkDebugUtilsMessageTypeFlagsEXT types,
                                                 const VkDebugUtilsMessengerCallbackDataEXT *data, void *user)
{
    (void)types;
    host *h = user;
    if (severity >= VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT) {
        h->messages++;
        fprintf(stderr, "test_gpu_host: validation: %s\n", data && data->pMessage ? data->pMessage : "?");
    }
    return VK_FALSE;
}

static bool has_layer(host *h, const char *name)
{
    PFN_vkEnumerateInstanceLayerProperties en =
        (PFN_vkEnumerateInstanceLayerProperties)h->gipa(NULL, "vkEnumerateInstanceLayerProperties");
    uint32_t n = 0;
    if (!en || en(&n, NULL) != VK_SUCCESS || n == 0) return false;
    VkLayerProperties *p = calloc(n, sizeof *p);
    bool found = false;
    if (p && en(&n, p) == VK_SUCCESS)
        for (uint32_t i = 0; i < n; i++) found = found || strcmp(p[i].layerName, name) == 0;
    free(p);
    return found;
}

/* The host's instance, device (a CPU implementation first: lavapipe) and compute queue; false
 * with g_why when there is none. */
static bool host_make(host *h)
{
    memset(h, 0, sizeof *h);
    h->loader = dlopen("libvulkan.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!h->loader) return snprintf(g_why, sizeof g_why, "no libvulkan.so.1"), false;
    void *sym = dlsym(h->loader, "vkGetInstanceProcAddr");
    memcpy(&h->gipa, &sym, sizeof sym);
    if (!h->gipa) return snprintf(g_why, sizeof g_why, "no vkGetInstanceProcAddr"), false;
    PFN_vkCreateInstance create = (PFN_vkCreateInstance)h->gipa(NULL, "vkCreateInstance");
    static const char *layer = "VK_LAYER_KHRONOS_validation";
    static const char *ext[2] = {VK_EXT_DEBUG_UTILS_EXTENSION_NAME, VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME};
    h->layer = has_layer(h, layer);
    /* with synchronization validation: the batch's barriers and the host's meet here */
    const VkValidationFeatureEnableEXT enables[1] = {VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT};
    VkValidationFeaturesEXT features = {.sType = VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT,
                                        .enabledValidationFeatureCount = 1, .pEnabledValidationFeatures = enables};
    VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO, .pApplicationName = "test_gpu_host",
                             .apiVersion = VK_API_VERSION_1_1};
    VkInstanceCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, .pNext = h->layer ? &features : NULL,
                               .pApplicationInfo = &app, .enabledLayerCount = h->layer, .ppEnabledLayerNames = &layer,
                               .enabledExtensionCount = h->layer ? 2u : 0u, .ppEnabledExtensionNames = ext};
    if (!create || create(&ci, NULL, &h->instance) != VK_SUCCESS)
        return snprintf(g_why, sizeof g_why, "vkCreateInstance failed"), false;
#define LOAD_I(name) h->name = (PFN_##name)h->gipa(h->instance, #name);
    HOST_INSTANCE_FNS(LOAD_I)
    if (h->layer) {
        PFN_vkCreateDebugUtilsMessengerEXT cm =
            (PFN_vkCreateDebugUtilsMessengerEXT)h->gipa(h->instance, "vkCreateDebugUtilsMessengerEXT");
        h->destroy_messenger =
            (PFN_vkDestroyDebugUtilsMessengerEXT)h->gipa(h->instance, "vkDestroyDebugUtilsMessengerEXT");
        VkDebugUtilsMessengerCreateInfoEXT mi = {
            .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT,
            .messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
            .messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                           VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT,
            .pfnUserCallback = on_message, .pUserData = h};
        assert_non_null(cm);
        assert_int_equal(cm(h->instance, &mi, NULL, &h->messenger), VK_SUCCESS);
    }
    VkPhysicalDevice pds[16];
    uint32_t n = 16;
    VkResult r = h->vkEnumeratePhysicalDevices(h->instance, &n, pds);
    int best = -1;
    for (uint32_t i = 0; i < n && (r == VK_SUCCESS || r == VK_INCOMPLETE); i++) {
        VkPhysicalDeviceProperties pr;
        h->vkGetPhysicalDeviceProperties(pds[i], &pr);
        uint32_t nf = 16;
        VkQueueFamilyProperties fam[16];
        h->vkGetPhysicalDeviceQueueFamilyProperties(pds[i], &nf, fam);
        for (uint32_t f = 0; f < nf; f++)
            if ((fam[f].queueFlags & VK_QUEUE_COMPUTE_BIT) && (best < 0 || pr.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU)) {
                best = (int)i, h->family = f;
                break;
            }
    }
    if (best < 0) return snprintf(g_why, sizeof g_why, "no physical device with a compute queue"), false;
    h->physical = pds[best];
    h->family_count = 16;
    h->vkGetPhysicalDeviceQueueFamilyProperties(h->physical, &h->family_count, h->families);
    h->vkGetPhysicalDeviceMemoryProperties(h->physical, &h->mem);
    /* a queue of every compute family: a GPU's async compute family (no graphics) is run too */
    float prio = 1.0f;
    VkDeviceQueueCreateInfo qi[16];
    uint32_t nq = 0;
    for (uint32_t f = 0; f < h->family_count; f++)
        if (h->families[f].queueFlags & VK_QUEUE_COMPUTE_BIT)
            qi[nq++] = (VkDeviceQueueCreateInfo){.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
                                                 .queueFamilyIndex = f, .queueCount = 1, .pQueuePriorities = &prio};
    VkDeviceCreateInfo di = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, .queueCreateInfoCount = nq,
                             .pQueueCreateInfos = qi};
    if (h->vkCreateDevice(h->physical, &di, NULL, &h->device) != VK_SUCCESS)
        return snprintf(g_why, sizeof g_why, "vkCreateDevice failed"), false;
#define LOAD_D(name) h->name = (PFN_##name)h->vkGetDeviceProcAddr(h->device, #name);
    HOST_DEVICE_FNS(LOAD_D)
    for (uint32_t k = 0; k < nq; k++) {
        uint32_t f = qi[k].queueFamilyIndex;
        h->vkGetDeviceQueue(h->device, f, 0, &h->queues[f]);
        VkCommandPoolCreateInfo pi = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                      .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT, .queueFamilyIndex = f};
        assert_int_equal(h->vkCreateCommandPool(h->device, &pi, NULL, &h->pools[f]), VK_SUCCESS);
    }
    h->queue = h->queues[h->family], h->pool = h->pools[h->family];
    return true;
}

static void host_free(host *h)
{
    if (h->device) {
        h->vkDeviceWaitIdle(h->device);
        for (int f = 0; f < 16; f++)
            if (h->pools[f]) h->vkDestroyCommandPool(h->device, h->pools[f], NULL);
        h->vkDestroyDevice(h->device, NULL); /* the layer reports objects left on it */
    }
    if (h->messenger) h->destroy_messenger(h->instance, h->messenger, NULL);
    g_final_messages = h->messages;
    if (h->instance) h->vkDestroyInstance(h->instance, NULL);
    if (h->loader) dlclose(h->loader);
    memset(h, 0, sizeof *h);
}

static mf_gpu_device_desc host_desc(const host *h)
{
    return (mf_gpu_device_desc){.instance = h->instance, .physical = h->physical, .device = h->device,
                                .queue = h->queue, .queue_family = h->family};
}

static mf_gpu_device_desc host_desc_family(const host *h, uint32_t f)
{
    mf_gpu_device_desc d = host_desc(h);
    d.queue = h->queues[f], d.queue_family = f;
    return d;
}

/* A host-visible, coherent buffer the host copies the streams into. */
static void buffer_make(host *h, VkDeviceSize size, VkBufferUsageFlags usage, host_buffer *out)
{
    VkBufferCreateInfo bi = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, .size = size, .usage = usage,
                             .sharingMode = VK_SHARING_MODE_EXCLUSIVE};
    assert_int_equal(h->vkCreateBuffer(h->device, &bi, NULL, &out->buf), VK_SUCCESS);
    VkMemoryRequirements req;
    h->vkGetBufferMemoryRequirements(h->device, out->buf, &req);
    VkMemoryPropertyFlags want = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    uint32_t type = UINT32_MAX;
    for (uint32_t i = 0; i < h->mem.memoryTypeCount && type == UINT32_MAX; i++)
        if ((req.memoryTypeBits & (1u << i)) && (h->mem.memoryTypes[i].propertyFlags & want) == want) type = i;
    assert_int_not_equal(type, UINT32_MAX);
    VkMemoryAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, .allocationSize = req.size,
                               .memoryTypeIndex = type};
    assert_int_equal(h->vkAllocateMemory(h->device, &ai, NULL, &out->mem), VK_SUCCESS);
    assert_int_equal(h->vkBindBufferMemory(h->device, out->buf, out->mem, 0), VK_SUCCESS);
    assert_int_equal(h->vkMapMemory(h->device, out->mem, 0, VK_WHOLE_SIZE, 0, &out->map), VK_SUCCESS);
}

static void buffer_free(host *h, host_buffer *b)
{
    h->vkDestroyBuffer(h->device, b->buf, NULL);
    h->vkFreeMemory(h->device, b->mem, NULL);
}

static int setup(void **state)
{
    (void)state;
    g_have = host_make(&g_host);
    if (!g_have) {
        host_free(&g_host);
        if (getenv("MF_REQUIRE_GPU")) {
            fprintf(stderr, "no Vulkan device and MF_REQUIRE_GPU is set: %s\n", g_why);
            return -1;
        }
        fprintf(stderr, "test_gpu_host: SKIPPED: no Vulkan device (%s)\n", g_why);
        return 0;
    }
    VkPhysicalDeviceProperties pr;
    g_host.vkGetPhysicalDeviceProperties(g_host.physical, &pr);
    fprintf(stderr, "test_gpu_host: host device %s, family %u%s\n", pr.deviceName, g_host.family,
            g_host.layer ? ", validation layer on" : ", no validation layer installed");
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    host_free(&g_host);
    return 0;
}

#define NEED_DEVICE()                                                                                                 \
    do {                                                                                                              \
        if (!g_have) {                                                                                                \
            fprintf(stderr, "SKIPPED: no Vulkan device\n");                                                           \
            skip();                                                                                                   \
        }                                                                                                             \
    } while (0)

/* ---------------------------------------------------------------- frames */

enum { SKELS = 3, SLOTS = 3, FRAMES = 10, CAP_V = 1 << 14 };

/* The GPU's streams (in the host's buffers) against the CPU batch of the same frame. */
static void compare(const mf_draw_batch *cb, int32_t gv_count, int32_t gi_count, const mf_draw_call *calls,
                    int32_t call_count, const host_buffer *hv, const host_buffer *hi)
{
    gpu_expect_streams(cb, calls, call_count, hv->map, gv_count, hi->map, gi_count);
}

/* What a frame slot of the host holds: its command buffer, fence, copies of the streams and
 * the CPU's batch of the frame it last submitted, to compare once the fence says it is done. */
typedef struct host_slot {
    VkCommandBuffer cmd;
    VkFence fence;
    bool pending;
    bool (*close)(float, float); /* positions compared by (NULL: gpu_close) */
    double worst;                /* the largest position difference seen */
    int frame;                   /* the host's frame it holds (for a failure's message) */
    host_buffer v, i;
    mf_draw_batch *cpu;
    int32_t vertex_count, index_count, call_count;
    mf_draw_call calls[64];
    VkBuffer vertex_buffer;
} host_slot;

static void slot_finish(host *h, host_slot *s, long *compared)
{
    if (!s->pending) return;
    assert_int_equal(h->vkWaitForFences(h->device, 1, &s->fence, VK_TRUE, UINT64_MAX), VK_SUCCESS);
    assert_int_equal(h->vkResetFences(h->device, 1, &s->fence), VK_SUCCESS);
    s->pending = false;
    bool (*close)(float, float) = s->close ? s->close : gpu_close;
    for (int32_t k = 0; k < s->vertex_count && k < s->cpu->vertex_count; k++) {
        const mf_batch_vertex *a = (const mf_batch_vertex *)s->v.map + k, *e = &s->cpu->vertices[k];
        if (!close(a->x, e->x) || !close(a->y, e->y)) {
            fprintf(stderr, "test_gpu_host: frame %d differs from the CPU's\n", s->frame);
            break;
        }
    }
    gpu_expect_streams_by(s->cpu, s->calls, s->call_count, s->v.map, s->vertex_count, s->i.map, s->index_count,
                          close, &s->worst);
    *compared += s->vertex_count;
}

static void frames_on_family(uint32_t fam)
{
    host *h = &g_host;
    mf_gpu_device_desc desc = host_desc_family(h, fam);
    VkCommandPool pool = h->pools[fam];
    VkQueue queue = h->queues[fam];
    mf_gpu_device *g = NULL;
    mf_diag diag;
    mf_diag_clear(&diag);
    assert_int_equal(mf_gpu_device_create(&desc, &g, &diag), MF_OK);
    test_rig r;
    test_rig_build(&r, SCENE_RIG, SCENE_NAMES, SCENE_CLIPS, 2);
    mf_gpu_rig *rig = NULL;
    assert_int_equal(mf_gpu_rig_create(g, &r.data, &rig, &diag), MF_OK);
    mf_pose *pose[SKELS];
    mf_tracks *tracks[SKELS];
    mf_draw_list *cl[SKELS], *gl[SKELS];
    float xf[SKELS][6];
    for (int i = 0; i < SKELS; i++) {
        assert_int_equal(mf_pose_create(&r.data, NULL, &pose[i], &diag), MF_OK);
        assert_int_equal(mf_tracks_create(&r.data, NULL, NULL, &tracks[i]), MF_OK);
        assert_int_equal(mf_draw_list_create(&r.data, NULL, &cl[i]), MF_OK);
        assert_int_equal(mf_draw_list_create(&r.data, NULL, &gl[i]), MF_OK);
        mf_entry_handle e = mf_tracks_set(tracks[i], 0, i % 2 ? 0 : 1, true); /* bend has the deform keys */
        mf_tracks_entry(tracks[i], e)->track_time = 0.17 * (i + 1);
        float a = 0.5f * (float)i, k = 1.0f + 0.25f * (float)i;
        float m[6] = {k * cosf(a), k * sinf(a), -k * sinf(a), k * cosf(a), 90.0f * (float)i, 15.0f * (float)i};
        memcpy(xf[i], m, sizeof m);
    }
    mf_gpu_batch_desc bd = {.max_vertices = CAP_V, .max_instances = 8, .max_items = 64, .max_words = 1 << 14,
                            .max_calls = 64, .frames_in_flight = SLOTS};
    mf_gpu_batch *b = NULL;
    assert_int_equal(mf_gpu_batch_create(g, &bd, &b, &diag), MF_OK);
    host_slot slots[SLOTS];
    memset(slots, 0, sizeof slots);
    for (int k = 0; k < SLOTS; k++) {
        host_slot *s = &slots[k];
        VkCommandBufferAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                          .commandPool = pool, .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                          .commandBufferCount = 1};
        assert_int_equal(h->vkAllocateCommandBuffers(h->device, &ai, &s->cmd), VK_SUCCESS);
        VkFenceCreateInfo fi = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
        assert_int_equal(h->vkCreateFence(h->device, &fi, NULL, &s->fence), VK_SUCCESS);
        buffer_make(h, (VkDeviceSize)CAP_V * sizeof(mf_batch_vertex), VK_BUFFER_USAGE_TRANSFER_DST_BIT, &s->v);
        buffer_make(h, (VkDeviceSize)CAP_V * 3 * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT, &s->i);
        mf_draw_batch_desc cd = {.max_vertices = CAP_V};
        assert_int_equal(mf_draw_batch_create(&cd, &s->cpu), MF_OK);
    }
    long compared = 0, clipped = 0, locals = 0;
    for (int f = 0; f < FRAMES; f++) {
        host_slot *s = &slots[f % SLOTS];
        slot_finish(h, s, &compared); /* the host's fence: the slot's last frame is done */
        assert_int_equal(mf_gpu_batch_begin(b), MF_OK);
        /* the batch cycles through its slots with the host's frames */
        if (f >= SLOTS) assert_true(b->vertex_buffer == s->vertex_buffer);
        if (f > 0) assert_true(b->vertex_buffer != slots[(f + SLOTS - 1) % SLOTS].vertex_buffer);
        s->vertex_buffer = b->vertex_buffer;
        mf_draw_batch_begin(s->cpu);
        int skels = f == 4 ? 0 : SKELS; /* frame 4 is empty: nothing recorded, nothing to copy */
        for (int i = 0; i < skels; i++) {
            mf_pose_reset(pose[i]);
            mf_tracks_update(tracks[i], 1.0f / 30.0f + 0.01f * (float)f);
            mf_tracks_apply(tracks[i], pose[i]);
            if (i == 0 && f % 2) /* its clip hidden: the GPU computes its world */
                for (int32_t k = 0; k < pose[i]->slot_count; k++)
                    if (pose[i]->attachment[k] >= 0 && r.data.attachments[pose[i]->attachment[k]].type == MF_SD_ATT_CLIPPING)
                        pose[i]->attachment[k] = -1;
            mf_pose_update_world(pose[i]);
            assert_int_equal(mf_draw_list_build(cl[i], pose[i]), MF_OK);
            assert_int_equal(mf_draw_batch_add(s->cpu, cl[i], &r.data, xf[i]), MF_OK);
            if (!mf_gpu_pose_needs_list(rig, pose[i])) {
                assert_int_equal(mf_gpu_batch_add_local(b, rig, pose[i], xf[i]), MF_OK);
                locals++;
                continue;
            }
            assert_int_equal(mf_draw_list_build_items(gl[i], pose[i]), MF_OK);
            assert_int_equal(mf_gpu_batch_add(b, rig, pose[i], gl[i], xf[i]), MF_OK);
            for (int32_t k = 0; k < gl[i]->item_count; k++) clipped += gl[i]->items[k].clipped;
        }
        assert_int_equal(b->overflow, 0);
        assert_true(b->call_count <= 64);
        s->vertex_count = b->vertex_count, s->index_count = b->index_count, s->call_count = b->call_count;
        memcpy(s->calls, b->calls, (size_t)b->call_count * sizeof *b->calls);
        assert_int_equal(h->vkResetCommandBuffer(s->cmd, 0), VK_SUCCESS);
        VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                       .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
        assert_int_equal(h->vkBeginCommandBuffer(s->cmd, &bi), VK_SUCCESS);
        assert_int_equal(mf_gpu_batch_record(b, s->cmd), MF_OK);
        /* the host's own use of the streams: a copy (the batch's barrier covers transfer reads) */
        VkBufferCopy cv = {0, 0, (VkDeviceSize)b->vertex_count * sizeof(mf_batch_vertex)};
        VkBufferCopy ci = {0, 0, (VkDeviceSize)b->index_count * 4};
        if (cv.size) h->vkCmdCopyBuffer(s->cmd, b->vertex_buffer, s->v.buf, 1, &cv);
        if (ci.size) h->vkCmdCopyBuffer(s->cmd, b->index_buffer, s->i.buf, 1, &ci);
        VkMemoryBarrier hb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER, .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
                              .dstAccessMask = VK_ACCESS_HOST_READ_BIT};
        h->vkCmdPipelineBarrier(s->cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &hb, 0, NULL,
                                0, NULL);
        assert_int_equal(h->vkEndCommandBuffer(s->cmd), VK_SUCCESS);
        VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &s->cmd};
        assert_int_equal(h->vkQueueSubmit(queue, 1, &si, s->fence), VK_SUCCESS);
        s->pending = true;
    }
    for (int f = FRAMES; f < FRAMES + SLOTS; f++) slot_finish(h, &slots[f % SLOTS], &compared);
    fprintf(stderr, "host frames, family %u (%s): %d frames, %d in flight, %ld vertices (%ld clipped items; %ld "
            "skeletons with the world on the GPU) agree\n",
            fam, h->families[fam].queueFlags & VK_QUEUE_GRAPHICS_BIT ? "graphics" : "compute only", FRAMES, SLOTS,
            compared, clipped, locals);
    assert_true(compared > 0 && clipped > 0 && locals > 0);
    for (int k = 0; k < SLOTS; k++) {
        buffer_free(h, &slots[k].v), buffer_free(h, &slots[k].i);
        h->vkDestroyFence(h->device, slots[k].fence, NULL);
        mf_draw_batch_destroy(slots[k].cpu);
    }
    mf_gpu_batch_destroy(b);
    mf_gpu_rig_destroy(rig);
    for (int i = 0; i < SKELS; i++) {
        mf_draw_list_destroy(cl[i]), mf_draw_list_destroy(gl[i]);
        mf_tracks_destroy(tracks[i]), mf_pose_destroy(pose[i]);
    }
    mf_gpu_device_destroy(g);
    test_rig_free(&r);
    assert_int_equal(h->messages, 0);
}

static void test_host_frames_agree(void **state)
{
    (void)state;
    NEED_DEVICE();
    for (uint32_t f = 0; f < g_host.family_count; f++)
        if (g_host.queues[f]) frames_on_family(f);
}

/* ---------------------------------------------------------------- physics, host-recorded */

enum { PHYS_N = 3, PHYS_FRAMES = 130 };

/* An instance of PHYS_RIG twice: its springs on the GPU (gpu, state) and on the CPU (cpu, which
 * mf_pose_update_world steps), each sampled by its own tracks from the same clip time. */
typedef struct phys_inst {
    mf_pose *gpu, *cpu;
    mf_tracks *tg, *tc;
    mf_draw_list *cl;
    int32_t state;
    float xf[6];
} phys_inst;

/* The CPU twin made anew at the GPU tracks' time: a new pose, at rest on its first update as a
 * state newly acquired is on its first add. */
static void phys_twin_renew(const mf_skel_data *d, phys_inst *q)
{
    double t = mf_tracks_entry(q->tg, mf_tracks_current(q->tg, 0))->track_time;
    if (q->cpu) mf_pose_destroy(q->cpu), mf_tracks_destroy(q->tc);
    assert_int_equal(mf_pose_create(d, NULL, &q->cpu, NULL), MF_OK);
    assert_int_equal(mf_tracks_create(d, NULL, NULL, &q->tc), MF_OK);
    mf_tracks_entry(q->tc, mf_tracks_set(q->tc, 0, 0, true))->track_time = t;
}

/* How far a pose's bones are from where they would be without physics: the springs swung. */
static double phys_swing(const mf_pose *p)
{
    mf_pose *q = NULL;
    assert_int_equal(mf_pose_create(p->data, NULL, &q, NULL), MF_OK);
    mf_pose_physics_set_mode(q, MF_PHYSICS_NONE);
    size_t n = sizeof(float) * (size_t)p->bone_count;
    memcpy(q->x, p->x, n), memcpy(q->y, p->y, n), memcpy(q->rot, p->rot, n), memcpy(q->sx, p->sx, n);
    memcpy(q->sy, p->sy, n), memcpy(q->shx, p->shx, n), memcpy(q->shy, p->shy, n);
    mf_pose_update_world(q);
    double most = 0;
    for (int32_t i = 0; i < p->bone_count; i++)
        most = fmax(most, fabs((double)q->wx[i] - p->wx[i]) + fabs((double)q->wy[i] - p->wy[i]));
    mf_pose_destroy(q);
    return most;
}

/* Frame times: 1/64 s (exact in doubles: a twin made anew keeps its clock as the old one's);
 * the dropped frames take none, so the steps they lose are none (mf_gpu.h: a dropped frame's
 * steps are lost, its rests done at the next add). */
static bool phys_dropped(int f) { return f == 0 || f == 50; }

/* The same on both poses of instance i before frame f's world: instance 0 is reset at 50 (a
 * dropped frame: done at the next add) and at 95, in POSE mode for 100..104; instance 1 has
 * a pose-wide mix, gravity and wind; instance 2 moves every frame but the dropped ones. */
static void phys_host_hook(mf_pose *p, int i, int f)
{
    if (i == 0) {
        if (f == 50 || f == 95) mf_pose_physics_reset(p);
        mf_pose_physics_set_mode(p, f >= 100 && f < 105 ? MF_PHYSICS_POSE : MF_PHYSICS_UPDATE);
    } else if (i == 1) {
        mf_pose_physics_set_mix(p, 0.7f);
        mf_pose_physics_set_globals(p, 12.0f, -6.0f);
    } else if (!phys_dropped(f)) {
        mf_pose_physics_move(p, 2.5f, -1.0f);
    }
}

/* PHYS_RIG instances with their physics states through the host's path: the host records the
 * batch (mf_gpu_batch_add_physics) into its own command buffers, three frames in flight with its
 * own fences, copies the streams out itself and, once a slot's fence says its frame is done,
 * compares the vertices with CPU twins posed with mf_pose_update_world from the same inputs.
 * Each frame's world pass reads the springs the previous frame's wrote, in another of the
 * host's command buffers (the barrier the batch records at a frame's start). Frames 0 and 50
 * are begun, added to and dropped (never recorded): the first rests and a reset they carried are
 * done at the next add. Instance 1's state is released and acquired again before its add at 50
 * (frames in flight still use its units) and instance 2's after its add at 80: each starts at
 * rest, as a new CPU pose. */
static void physics_on_family(uint32_t fam)
{
    host *h = &g_host;
    mf_gpu_device_desc desc = host_desc_family(h, fam);
    mf_gpu_device *g = NULL;
    assert_int_equal(mf_gpu_device_create(&desc, &g, NULL), MF_OK);
    test_rig r;
    test_rig_build(&r, PHYS_RIG, PHYS_NAMES, PHYS_CLIPS, 1);
    mf_gpu_rig *rig = NULL;
    assert_int_equal(mf_gpu_rig_create(g, &r.data, &rig, NULL), MF_OK);
    mf_gpu_batch_desc bd = {.max_vertices = CAP_V, .max_instances = 8, .max_items = 64, .max_words = 1 << 14,
                            .max_calls = 64, .max_physics = 20, .frames_in_flight = SLOTS};
    mf_gpu_batch *b = NULL;
    assert_int_equal(mf_gpu_batch_create(g, &bd, &b, NULL), MF_OK);
    phys_inst in[PHYS_N];
    memset(in, 0, sizeof in);
    for (int i = 0; i < PHYS_N; i++) {
        phys_inst *q = &in[i];
        assert_int_equal(mf_pose_create(&r.data, NULL, &q->gpu, NULL), MF_OK);
        assert_int_equal(mf_tracks_create(&r.data, NULL, NULL, &q->tg), MF_OK);
        mf_tracks_entry(q->tg, mf_tracks_set(q->tg, 0, 0, true))->track_time = 0.17 * i;
        phys_twin_renew(&r.data, q);
        assert_int_equal(mf_draw_list_create(&r.data, NULL, &q->cl), MF_OK);
        assert_int_equal(mf_gpu_batch_physics_acquire(b, rig, &q->state), MF_OK);
        float a = 0.4f * (float)i;
        float m[6] = {cosf(a), sinf(a), -sinf(a), cosf(a), 150.0f * (float)i, 20.0f * (float)i};
        memcpy(q->xf, m, sizeof m);
    }
    host_slot slots[SLOTS];
    memset(slots, 0, sizeof slots);
    for (int k = 0; k < SLOTS; k++) {
        host_slot *s = &slots[k];
        VkCommandBufferAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                          .commandPool = h->pools[fam], .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                          .commandBufferCount = 1};
        assert_int_equal(h->vkAllocateCommandBuffers(h->device, &ai, &s->cmd), VK_SUCCESS);
        VkFenceCreateInfo fi = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
        assert_int_equal(h->vkCreateFence(h->device, &fi, NULL, &s->fence), VK_SUCCESS);
        buffer_make(h, (VkDeviceSize)CAP_V * sizeof(mf_batch_vertex), VK_BUFFER_USAGE_TRANSFER_DST_BIT, &s->v);
        buffer_make(h, (VkDeviceSize)CAP_V * 3 * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT, &s->i);
        assert_int_equal(mf_draw_batch_create(&(mf_draw_batch_desc){.max_vertices = CAP_V}, &s->cpu), MF_OK);
        s->close = gpu_close_phys;
    }
    const double dt = 1.0 / 64.0;
    long compared = 0, begins = 0;
    int recorded = 0;
    double swung = 0;
    for (int f = 0; f < PHYS_FRAMES; f++) {
        bool drop = phys_dropped(f);
        /* the batch's next slot is the host's slot of the same index: its fence first */
        host_slot *s = &slots[begins++ % SLOTS];
        slot_finish(h, s, &compared);
        if (f == 50) { /* released while frames in flight use its units, and acquired again */
            int32_t old = in[1].state;
            assert_int_equal(mf_gpu_batch_physics_release(b, old), MF_OK);
            assert_int_equal(mf_gpu_batch_physics_acquire(b, rig, &in[1].state), MF_OK);
            assert_int_equal(in[1].state, old); /* first fit: its own units */
            phys_twin_renew(&r.data, &in[1]);
        }
        if (f == 81) phys_twin_renew(&r.data, &in[2]); /* its new state's first add */
        assert_int_equal(mf_gpu_batch_begin(b), MF_OK);
        mf_draw_batch_begin(s->cpu);
        for (int i = 0; i < PHYS_N; i++) {
            phys_inst *q = &in[i];
            mf_pose *both[2] = {q->gpu, q->cpu};
            mf_tracks *tr[2] = {q->tg, q->tc};
            for (int k = 0; k < 2; k++) {
                mf_pose_reset(both[k]);
                mf_tracks_update(tr[k], drop ? 0.0f : (float)dt);
                mf_tracks_apply(tr[k], both[k]);
                phys_host_hook(both[k], i, f);
                mf_pose_physics_step(both[k], drop ? 0.0 : dt);
            }
            poison_world(q->gpu); /* the GPU computes it */
            assert_int_equal(mf_gpu_batch_add_physics(b, rig, q->gpu, q->state, q->xf), MF_OK);
            if (drop) continue; /* the twin's world waits for the next frame, as the GPU's rests do */
            mf_pose_update_world(q->cpu);
            assert_int_equal(mf_draw_list_build(q->cl, q->cpu), MF_OK);
            assert_int_equal(mf_draw_batch_add(s->cpu, q->cl, &r.data, q->xf), MF_OK);
        }
        if (f == 80) { /* released after its add (the frame finishes with it), acquired again */
            int32_t old = in[2].state;
            assert_int_equal(mf_gpu_batch_physics_release(b, old), MF_OK);
            assert_int_equal(mf_gpu_batch_physics_acquire(b, rig, &in[2].state), MF_OK);
            assert_int_equal(in[2].state, old);
            /* not added again before the next begin() (the time it was given waits in the pose:
             * its first add, at rest, drops it as the new twin's first update does) */
            mf_pose_physics_step(in[2].gpu, dt);
            assert_int_equal(mf_gpu_batch_add_physics(b, rig, in[2].gpu, in[2].state, NULL), MF_ERR_ARGUMENT);
        }
        swung = fmax(swung, phys_swing(in[0].cpu));
        if (drop) continue; /* the next begin() drops it */
        assert_int_equal(b->overflow, 0);
        s->vertex_count = b->vertex_count, s->index_count = b->index_count, s->call_count = b->call_count;
        memcpy(s->calls, b->calls, (size_t)b->call_count * sizeof *b->calls);
        assert_int_equal(h->vkResetCommandBuffer(s->cmd, 0), VK_SUCCESS);
        VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                       .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
        assert_int_equal(h->vkBeginCommandBuffer(s->cmd, &bi), VK_SUCCESS);
        assert_int_equal(mf_gpu_batch_record(b, s->cmd), MF_OK);
        VkBufferCopy cv = {0, 0, (VkDeviceSize)b->vertex_count * sizeof(mf_batch_vertex)};
        VkBufferCopy ci = {0, 0, (VkDeviceSize)b->index_count * 4};
        h->vkCmdCopyBuffer(s->cmd, b->vertex_buffer, s->v.buf, 1, &cv);
        h->vkCmdCopyBuffer(s->cmd, b->index_buffer, s->i.buf, 1, &ci);
        VkMemoryBarrier hb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER, .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
                              .dstAccessMask = VK_ACCESS_HOST_READ_BIT};
        h->vkCmdPipelineBarrier(s->cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &hb, 0, NULL,
                                0, NULL);
        assert_int_equal(h->vkEndCommandBuffer(s->cmd), VK_SUCCESS);
        VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &s->cmd};
        assert_int_equal(h->vkQueueSubmit(h->queues[fam], 1, &si, s->fence), VK_SUCCESS);
        s->pending = true, s->frame = f;
        recorded++;
    }
    double worst = 0;
    for (int k = 0; k < SLOTS; k++) slot_finish(h, &slots[k], &compared), worst = fmax(worst, slots[k].worst);
    fprintf(stderr, "host physics, family %u: %d frames recorded (2 dropped), %d in flight, %ld vertices agree; "
            "largest GPU-CPU difference %.5f px, springs swung %.1f px\n",
            fam, recorded, SLOTS, compared, worst, swung);
    assert_int_equal(recorded, PHYS_FRAMES - 2);
    assert_true(compared > 0 && swung > 5.0);
    for (int k = 0; k < SLOTS; k++) {
        buffer_free(h, &slots[k].v), buffer_free(h, &slots[k].i);
        h->vkDestroyFence(h->device, slots[k].fence, NULL);
        mf_draw_batch_destroy(slots[k].cpu);
    }
    for (int i = 0; i < PHYS_N; i++) {
        assert_int_equal(mf_gpu_batch_physics_release(b, in[i].state), MF_OK);
        mf_pose_destroy(in[i].gpu), mf_pose_destroy(in[i].cpu);
        mf_tracks_destroy(in[i].tg), mf_tracks_destroy(in[i].tc);
        mf_draw_list_destroy(in[i].cl);
    }
    mf_gpu_batch_destroy(b);
    mf_gpu_rig_destroy(rig);
    mf_gpu_device_destroy(g);
    test_rig_free(&r);
    assert_int_equal(h->messages, 0);
}

static void test_host_physics_agree(void **state)
{
    (void)state;
    NEED_DEVICE();
    for (uint32_t f = 0; f < g_host.family_count; f++)
        if (g_host.queues[f]) physics_on_family(f);
}

/* ---------------------------------------------------------------- the device's contract */

static void test_host_handles_checked(void **state)
{
    (void)state;
    NEED_DEVICE();
    host *h = &g_host;
    mf_gpu_device *g = NULL;
    mf_diag diag;
    /* some but not all of the host's handles */
    mf_gpu_device_desc d = host_desc(h);
    d.queue = VK_NULL_HANDLE;
    mf_diag_clear(&diag);
    assert_int_equal(mf_gpu_device_create(&d, &g, &diag), MF_ERR_ARGUMENT);
    assert_null(g);
    d = host_desc(h);
    d.instance = VK_NULL_HANDLE;
    assert_int_equal(mf_gpu_device_create(&d, &g, &diag), MF_ERR_ARGUMENT);
    d = host_desc(h);
    d.device = VK_NULL_HANDLE, d.physical = VK_NULL_HANDLE;
    assert_int_equal(mf_gpu_device_create(&d, &g, &diag), MF_ERR_ARGUMENT);
    assert_null(g);
    /* a family the physical device does not have */
    d = host_desc(h);
    d.queue_family = h->family_count;
    mf_diag_clear(&diag);
    assert_int_not_equal(mf_gpu_device_create(&d, &g, &diag), MF_OK);
    assert_null(g);
    assert_non_null(strstr(diag.where, "queue_family"));
    d.queue_family = UINT32_MAX;
    assert_int_not_equal(mf_gpu_device_create(&d, &g, &diag), MF_OK);
    /* a family without compute, where the device has one */
    for (uint32_t f = 0; f < h->family_count; f++)
        if (!(h->families[f].queueFlags & VK_QUEUE_COMPUTE_BIT)) {
            d.queue_family = f;
            assert_int_not_equal(mf_gpu_device_create(&d, &g, &diag), MF_OK);
            assert_null(g);
        }
    assert_int_equal(h->messages, 0);
}

/* The library's device is only a view of the host's: destroying it (after a frame) leaves
 * the host's device and queue working. */
/* The host's own loader entry (mf_gpu_device_desc.get_instance_proc_addr): every instance-level
 * function the library uses comes through it, with the host's handles and headless alike. */
static PFN_vkGetInstanceProcAddr g_real_gipa;
static int g_gipa_calls;
static VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL counting_gipa(VkInstance instance, const char *name)
{
    g_gipa_calls++;
    return g_real_gipa(instance, name);
}

static void test_host_loader_entry(void **state)
{
    (void)state;
    NEED_DEVICE();
    host *h = &g_host;
    g_real_gipa = h->gipa, g_gipa_calls = 0;
    mf_gpu_device_desc desc = host_desc(h);
    desc.get_instance_proc_addr = counting_gipa;
    mf_gpu_device *g = NULL;
    assert_int_equal(mf_gpu_device_create(&desc, &g, NULL), MF_OK);
    assert_true(g_gipa_calls >= 7); /* the instance functions of gpu_internal.h, at least */
    test_rig r;
    test_rig_build(&r, SCENE_RIG, SCENE_NAMES, SCENE_CLIPS, 2);
    mf_gpu_rig *rig = NULL;
    assert_int_equal(mf_gpu_rig_create(g, &r.data, &rig, NULL), MF_OK);
    mf_gpu_batch *b = NULL;
    assert_int_equal(mf_gpu_batch_create(g, &(mf_gpu_batch_desc){.max_vertices = 4096}, &b, NULL), MF_OK);
    mf_pose *p = NULL;
    assert_int_equal(mf_pose_create(&r.data, NULL, &p, NULL), MF_OK);
    mf_pose_update_world(p);
    mf_draw_list *dl = NULL;
    assert_int_equal(mf_draw_list_create(&r.data, NULL, &dl), MF_OK);
    assert_int_equal(mf_draw_list_build_items(dl, p), MF_OK);
    assert_int_equal(mf_gpu_batch_begin(b), MF_OK);
    assert_int_equal(mf_gpu_batch_add(b, rig, p, dl, NULL), MF_OK);
    assert_int_equal(mf_gpu_batch_submit(b), MF_OK);
    assert_int_equal(mf_gpu_batch_wait(b), MF_OK);
    assert_true(b->vertex_count > 0);
    mf_gpu_batch_destroy(b);
    mf_gpu_rig_destroy(rig);
    mf_gpu_device_destroy(g);
    /* headless through the same entry: no library-opened loader */
    g_gipa_calls = 0;
    mf_gpu_device_desc headless = {.prefer_cpu = true, .get_instance_proc_addr = counting_gipa};
    assert_int_equal(mf_gpu_device_create(&headless, &g, NULL), MF_OK);
    assert_true(g_gipa_calls >= 8); /* vkCreateInstance and the instance functions */
    mf_gpu_device_destroy(g);
    mf_draw_list_destroy(dl), mf_pose_destroy(p);
    test_rig_free(&r);
    assert_int_equal(h->messages, 0);
}

static void test_host_device_survives(void **state)
{
    (void)state;
    NEED_DEVICE();
    host *h = &g_host;
    mf_gpu_device_desc desc = host_desc(h);
    mf_gpu_device *g = NULL;
    assert_int_equal(mf_gpu_device_create(&desc, &g, NULL), MF_OK);
    assert_false(mf_gpu_device_messages(g, NULL)); /* the host's messenger, not the library's */
    test_rig r;
    test_rig_build(&r, SCENE_RIG, SCENE_NAMES, SCENE_CLIPS, 2);
    mf_gpu_rig *rig = NULL;
    assert_int_equal(mf_gpu_rig_create(g, &r.data, &rig, NULL), MF_OK);
    mf_gpu_batch *b = NULL;
    assert_int_equal(mf_gpu_batch_create(g, &(mf_gpu_batch_desc){.max_vertices = 4096}, &b, NULL), MF_OK);
    mf_pose *p = NULL;
    mf_draw_list *dl = NULL;
    assert_int_equal(mf_pose_create(&r.data, NULL, &p, NULL), MF_OK);
    assert_int_equal(mf_draw_list_create(&r.data, NULL, &dl), MF_OK);
    mf_pose_update_world(p);
    assert_int_equal(mf_draw_list_build_items(dl, p), MF_OK);
    assert_int_equal(mf_gpu_batch_begin(b), MF_OK);
    assert_int_equal(mf_gpu_batch_add(b, rig, p, dl, NULL), MF_OK);
    assert_int_equal(mf_gpu_batch_submit(b), MF_OK); /* the batch's own submit to the host's queue */
    assert_int_equal(mf_gpu_batch_wait(b), MF_OK);
    mf_gpu_batch_destroy(b);
    mf_gpu_rig_destroy(rig);
    mf_gpu_device_destroy(g);
    mf_draw_list_destroy(dl), mf_pose_destroy(p);
    test_rig_free(&r);
    /* the host's device still works: a fill and a copy on its queue */
    host_buffer hb;
    buffer_make(h, 256, VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT, &hb);
    memset(hb.map, 0, 256);
    VkCommandBuffer cmd;
    VkCommandBufferAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, .commandPool = h->pool,
                                      .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY, .commandBufferCount = 1};
    assert_int_equal(h->vkAllocateCommandBuffers(h->device, &ai, &cmd), VK_SUCCESS);
    VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    assert_int_equal(h->vkBeginCommandBuffer(cmd, &bi), VK_SUCCESS);
    h->vkCmdFillBuffer(cmd, hb.buf, 0, 128, 0x5a5a5a5au);
    VkMemoryBarrier mb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER, .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
                          .dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_HOST_READ_BIT};
    h->vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_HOST_BIT,
                            0, 1, &mb, 0, NULL, 0, NULL);
    VkBufferCopy c = {0, 128, 128};
    h->vkCmdCopyBuffer(cmd, hb.buf, hb.buf, 1, &c);
    mb.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
    h->vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &mb, 0, NULL, 0, NULL);
    assert_int_equal(h->vkEndCommandBuffer(cmd), VK_SUCCESS);
    VkFence fence;
    VkFenceCreateInfo fi = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    assert_int_equal(h->vkCreateFence(h->device, &fi, NULL, &fence), VK_SUCCESS);
    VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &cmd};
    assert_int_equal(h->vkQueueSubmit(h->queue, 1, &si, fence), VK_SUCCESS);
    assert_int_equal(h->vkWaitForFences(h->device, 1, &fence, VK_TRUE, UINT64_MAX), VK_SUCCESS);
    const uint8_t *bytes = hb.map;
    for (int k = 0; k < 256; k++) assert_int_equal(bytes[k], 0x5a);
    h->vkDestroyFence(h->device, fence, NULL);
    buffer_free(h, &hb);
    assert_int_equal(h->messages, 0);
    /* the host destroys its device and instance itself (teardown), without a message */
}

/* ---------------------------------------------------------------- big meshes, many items */

enum { BIG_N = 130, MANY = 66000 }; /* a mesh past a workgroup's 64 lanes; items past 65535 groups */

/* One bone rotated, one slot with an unweighted BIG_N-vertex strip mesh. */
static char *big_rig_text(void)
{
    size_t cap = 64 * BIG_N + 4096, n = 0;
    char *t = malloc(cap);
    assert_non_null(t);
    n += (size_t)snprintf(t + n, cap - n, "%s\"bones\":[{\"name\":\"root\",\"rot\":30,\"x\":7}],"
                          "\"slots\":[{\"name\":\"s\",\"bone\":\"root\",\"attachment\":\"m\"}],"
                          "\"skins\":[{\"name\":\"default\",\"attachments\":[{\"slot\":\"s\",\"name\":\"m\","
                          "\"type\":\"Mesh\",\"hull\":4,\"vertices\":[", RIG_HEAD);
    for (int i = 0; i < BIG_N; i++) n += (size_t)snprintf(t + n, cap - n, "%s%d,%d", i ? "," : "", 3 * (i / 2), 10 * (i % 2));
    n += (size_t)snprintf(t + n, cap - n, "],\"uvs\":[");
    for (int i = 0; i < BIG_N; i++)
        n += (size_t)snprintf(t + n, cap - n, "%s%g,%g", i ? "," : "", (double)(i / 2) / (BIG_N / 2), (double)(i % 2));
    n += (size_t)snprintf(t + n, cap - n, "],\"triangles\":[");
    for (int i = 0; i + 2 < BIG_N; i++) n += (size_t)snprintf(t + n, cap - n, "%s%d,%d,%d", i ? "," : "", i, i + 1, i + 2);
    n += (size_t)snprintf(t + n, cap - n, "]}]}]}");
    assert_true(n < cap);
    return t;
}

static const char *REGION_RIG = RIG_HEAD "\"bones\":[{\"name\":\"root\",\"rot\":10}],"
    "\"slots\":[{\"name\":\"r\",\"bone\":\"root\",\"attachment\":\"r\"}],"
    "\"skins\":[{\"name\":\"default\",\"attachments\":[{\"slot\":\"r\",\"name\":\"r\",\"type\":\"Region\","
    "\"width\":4,\"height\":2}]}]}";

/* A few instances of the big mesh, MANY regions (one dispatch of MANY items: a grid of
 * 65535 × 2 groups), the big mesh again: three runs of two rigs. */
static void test_host_big_and_many(void **state)
{
    (void)state;
    NEED_DEVICE();
    host *h = &g_host;
    mf_gpu_device_desc desc = host_desc(h);
    mf_gpu_device *g = NULL;
    assert_int_equal(mf_gpu_device_create(&desc, &g, NULL), MF_OK);
    char *text = big_rig_text();
    test_rig big, reg;
    test_rig_build(&big, text, NULL, NULL, 0);
    test_rig_build(&reg, REGION_RIG, NULL, NULL, 0);
    free(text);
    assert_int_equal(big.data.attachments[0].vertex_count, BIG_N);
    const test_rig *rigs[2] = {&big, &reg};
    mf_gpu_rig *gr[2];
    mf_pose *p[2];
    mf_draw_list *cl[2], *gl[2];
    for (int k = 0; k < 2; k++) {
        assert_int_equal(mf_gpu_rig_create(g, &rigs[k]->data, &gr[k], NULL), MF_OK);
        assert_int_equal(mf_pose_create(&rigs[k]->data, NULL, &p[k], NULL), MF_OK);
        assert_int_equal(mf_draw_list_create(&rigs[k]->data, NULL, &cl[k]), MF_OK);
        assert_int_equal(mf_draw_list_create(&rigs[k]->data, NULL, &gl[k]), MF_OK);
        mf_pose_update_world(p[k]);
        assert_int_equal(mf_draw_list_build(cl[k], p[k]), MF_OK);
        assert_int_equal(mf_draw_list_build_items(gl[k], p[k]), MF_OK);
    }
    int32_t cap_v = 4 * MANY + 8 * BIG_N;
    mf_gpu_batch_desc bd = {.max_vertices = cap_v, .max_instances = MANY + 8, .max_items = MANY + 8,
                            .max_words = 8 * (MANY + 8), .readback = true};
    mf_gpu_batch *b = NULL;
    assert_int_equal(mf_gpu_batch_create(g, &bd, &b, NULL), MF_OK);
    mf_draw_batch *cb = NULL;
    assert_int_equal(mf_draw_batch_create(&(mf_draw_batch_desc){.max_vertices = cap_v}, &cb), MF_OK);
    assert_int_equal(mf_gpu_batch_begin(b), MF_OK);
    mf_draw_batch_begin(cb);
    for (int i = 0; i < MANY + 4; i++) {
        int k = i >= 2 && i < MANY + 2;
        float xf[6] = {1, 0, 0, 1, (float)(i % 300) * 5.0f, (float)(i / 300) * 3.0f};
        assert_int_equal(mf_draw_batch_add(cb, cl[k], &rigs[k]->data, xf), MF_OK);
        assert_int_equal(mf_gpu_batch_add(b, gr[k], p[k], gl[k], xf), MF_OK);
    }
    assert_int_equal(b->items, MANY + 4);
    assert_int_equal(mf_gpu_batch_submit(b), MF_OK);
    assert_int_equal(mf_gpu_batch_wait(b), MF_OK);
    host_buffer hv = {.map = malloc((size_t)cap_v * sizeof(mf_batch_vertex))};
    host_buffer hi = {.map = malloc((size_t)cap_v * 3 * 4)};
    assert_true(hv.map && hi.map);
    assert_int_equal(mf_gpu_batch_read(b, hv.map, hi.map), MF_OK);
    compare(cb, b->vertex_count, b->index_count, b->calls, b->call_count, &hv, &hi);
    free(hv.map), free(hi.map);
    mf_draw_batch_destroy(cb);
    mf_gpu_batch_destroy(b);
    for (int k = 0; k < 2; k++) {
        mf_gpu_rig_destroy(gr[k]);
        mf_pose_destroy(p[k]);
        mf_draw_list_destroy(cl[k]), mf_draw_list_destroy(gl[k]);
    }
    mf_gpu_device_destroy(g);
    test_rig_free(&big), test_rig_free(&reg);
    assert_int_equal(h->messages, 0);
}

/* Streams or records past the device's maxStorageBufferRange cannot be bound to the shader:
 * refused at create (not a validation error and a shader reading past the binding). */
static void test_host_storage_range(void **state)
{
    (void)state;
    NEED_DEVICE();
    host *h = &g_host;
    VkPhysicalDeviceProperties pr;
    h->vkGetPhysicalDeviceProperties(h->physical, &pr);
    uint64_t range = pr.limits.maxStorageBufferRange;
    mf_gpu_device_desc desc = host_desc(h);
    mf_gpu_device *g = NULL;
    assert_int_equal(mf_gpu_device_create(&desc, &g, NULL), MF_OK);
    mf_gpu_batch *b = NULL;
    mf_diag diag;
    mf_diag_clear(&diag);
    uint64_t v = range / sizeof(mf_batch_vertex) + 1;
    if (v < 0x7fffffff / 6) {
        mf_gpu_batch_desc bd = {.max_vertices = (int32_t)v, .max_indices = 3, .max_instances = 1};
        assert_int_equal(mf_gpu_batch_create(g, &bd, &b, &diag), MF_ERR_ARGUMENT);
        assert_null(b);
        assert_non_null(strstr(diag.message, "maxStorageBufferRange"));
    }
    uint64_t w = range / 4 + 1;
    if (w < (1u << 30) - 4096) {
        mf_gpu_batch_desc bd = {.max_vertices = 4, .max_instances = 1, .max_items = 1, .max_words = (int32_t)w};
        assert_int_equal(mf_gpu_batch_create(g, &bd, &b, &diag), MF_ERR_ARGUMENT);
        assert_null(b);
    }
    /* just inside: made */
    mf_gpu_batch_desc ok = {.max_vertices = 64, .max_instances = 1, .max_items = 1};
    assert_int_equal(mf_gpu_batch_create(g, &ok, &b, &diag), MF_OK);
    mf_gpu_batch_destroy(b);
    mf_gpu_device_destroy(g);
    assert_int_equal(h->messages, 0);
}

int main(void)
{
    gpu_test_keep_driver_mapped();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_host_handles_checked),
        cmocka_unit_test(test_host_frames_agree),
        cmocka_unit_test(test_host_physics_agree),
        cmocka_unit_test(test_host_big_and_many),
        cmocka_unit_test(test_host_storage_range),
        cmocka_unit_test(test_host_loader_entry),
        cmocka_unit_test(test_host_device_survives),
    };
    int failed = cmocka_run_group_tests(tests, setup, teardown);
    /* teardown destroyed the host's device and instance: the layer's last word counted too */
    if (g_final_messages) fprintf(stderr, "test_gpu_host: %d validation messages in all\n", g_final_messages);
    return failed || g_final_messages ? 1 : 0;
}
