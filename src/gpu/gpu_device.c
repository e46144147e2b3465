/* The device: the loader opened at run time, a host's device or a headless one, its compute
 * queue, and device buffers. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "gpu_internal.h"

static const char *VALIDATION = "VK_LAYER_KHRONOS_validation";

static bool load_instance_fns(mf_gpu_device *g)
{
    bool ok = true;
#define LOAD(name) ok = ok && (g->name = (PFN_##name)g->vkGetInstanceProcAddr(g->instance, #name)) != NULL;
    MF_GPU_INSTANCE_FNS(LOAD)
#undef LOAD
    return ok;
}

static bool load_device_fns(mf_gpu_device *g)
{
    bool ok = true;
#define LOAD(name) ok = ok && (g->name = (PFN_##name)g->vkGetDeviceProcAddr(g->device, #name)) != NULL;
    MF_GPU_DEVICE_FNS(LOAD)
#undef LOAD
    return ok;
}

static VKAPI_ATTR VkBool32 VKAPI_CALL on_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                 VkDebugUtilsMessageTypeFlagsEXT types,
                                                 const VkDebugUtilsMessengerCallbackDataEXT *data, void *user)
{
    (void)types;
    mf_gpu_device *g = user;
    if (severity >= VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT) {
        g->messages++;
        fprintf(stderr, "mf_gpu: validation: %s\n", data && data->pMessage ? data->pMessage : "?");
    }
    return VK_FALSE;
}

static bool has_layer(mf_gpu_device *g, const char *name)
{
    PFN_vkEnumerateInstanceLayerProperties enum_layers =
        (PFN_vkEnumerateInstanceLayerProperties)g->vkGetInstanceProcAddr(NULL, "vkEnumerateInstanceLayerProperties");
    uint32_t n = 0;
    if (!enum_layers || enum_layers(&n, NULL) != VK_SUCCESS || n == 0) return false;
    VkLayerProperties *props = mf_alloc(&g->alloc, n * sizeof *props);
    bool found = false;
    if (props && enum_layers(&n, props) == VK_SUCCESS)
        for (uint32_t i = 0; i < n; i++) found = found || strcmp(props[i].layerName, name) == 0;
    mf_free(&g->alloc, props);
    return found;
}

/* Whether the layer offers the instance extension ext. */
static bool layer_has_ext(mf_gpu_device *g, const char *layer, const char *ext)
{
    PFN_vkEnumerateInstanceExtensionProperties en =
        (PFN_vkEnumerateInstanceExtensionProperties)g->vkGetInstanceProcAddr(NULL, "vkEnumerateInstanceExtensionProperties");
    uint32_t n = 0;
    if (!en || en(layer, &n, NULL) != VK_SUCCESS || n == 0) return false;
    VkExtensionProperties *props = mf_alloc(&g->alloc, n * sizeof *props);
    bool found = false;
    if (props && en(layer, &n, props) == VK_SUCCESS)
        for (uint32_t i = 0; i < n; i++) found = found || strcmp(props[i].extensionName, ext) == 0;
    mf_free(&g->alloc, props);
    return found;
}

static mf_result make_instance(mf_gpu_device *g, bool validate, mf_diag *diag)
{
    PFN_vkCreateInstance create = (PFN_vkCreateInstance)g->vkGetInstanceProcAddr(NULL, "vkCreateInstance");
    if (!create) {
        mf_diag_set(diag, "", "vulkan", "the Vulkan loader has no vkCreateInstance");
        return MF_ERR_UNSUPPORTED;
    }
    g->layer_found = validate && has_layer(g, VALIDATION);
    /* synchronization validation too, where the layer has it: the barriers are what it checks */
    const char *ext[2] = {VK_EXT_DEBUG_UTILS_EXTENSION_NAME, VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME};
    bool sync = g->layer_found && layer_has_ext(g, VALIDATION, ext[1]);
    const VkValidationFeatureEnableEXT enables[1] = {VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT};
    VkValidationFeaturesEXT features = {.sType = VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT,
                                        .enabledValidationFeatureCount = 1, .pEnabledValidationFeatures = enables};
    VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO, .pApplicationName = "mfanim",
                             .pEngineName = "mfanim", .apiVersion = VK_API_VERSION_1_1};
    VkInstanceCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, .pNext = sync ? &features : NULL,
                               .pApplicationInfo = &app, .enabledLayerCount = g->layer_found ? 1u : 0u,
                               .ppEnabledLayerNames = &VALIDATION,
                               .enabledExtensionCount = sync ? 2u : g->layer_found ? 1u : 0u, .ppEnabledExtensionNames = ext};
    VkResult r = create(&ci, NULL, &g->instance);
    if (r != VK_SUCCESS) {
        mf_diag_set(diag, "", "vulkan", "vkCreateInstance failed (VkResult %d)", (int)r);
        return MF_ERR_UNSUPPORTED;
    }
    if (!load_instance_fns(g)) {
        mf_diag_set(diag, "", "vulkan", "the Vulkan instance lacks a core 1.0 entry point");
        return MF_ERR_UNSUPPORTED;
    }
    if (g->layer_found) {
        PFN_vkCreateDebugUtilsMessengerEXT cm =
            (PFN_vkCreateDebugUtilsMessengerEXT)g->vkGetInstanceProcAddr(g->instance, "vkCreateDebugUtilsMessengerEXT");
        g->destroy_messenger =
            (PFN_vkDestroyDebugUtilsMessengerEXT)g->vkGetInstanceProcAddr(g->instance, "vkDestroyDebugUtilsMessengerEXT");
        VkDebugUtilsMessengerCreateInfoEXT mi = {
            .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT,
            .messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
            .messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                           VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT,
            .pfnUserCallback = on_message, .pUserData = g};
        if (cm && g->destroy_messenger) cm(g->instance, &mi, NULL, &g->messenger);
    }
    return MF_OK;
}

/* Queue family *family of pd (UINT32_MAX: the first with compute, written back): MF_OK when it
 * exists and computes, with its timestamp bits and whether it draws (either pointer may be
 * NULL); MF_ERR_ARGUMENT when not; *count: the families pd has. Every family is listed. */
static mf_result compute_family(mf_gpu_device *g, VkPhysicalDevice pd, uint32_t *family, uint32_t *count,
                                uint32_t *timestamp_bits, bool *graphics)
{
    uint32_t n = 0;
    g->vkGetPhysicalDeviceQueueFamilyProperties(pd, &n, NULL);
    VkQueueFamilyProperties *fam = n ? mf_alloc(&g->alloc, n * sizeof *fam) : NULL;
    if (n && !fam) return MF_ERR_NOMEM;
    g->vkGetPhysicalDeviceQueueFamilyProperties(pd, &n, fam);
    *count = n;
    uint32_t f = *family;
    for (uint32_t i = 0; f == UINT32_MAX && i < n; i++)
        if (fam[i].queueFlags & VK_QUEUE_COMPUTE_BIT) f = i;
    mf_result res = f < n && (fam[f].queueFlags & VK_QUEUE_COMPUTE_BIT) ? MF_OK : MF_ERR_ARGUMENT;
    if (res == MF_OK) {
        *family = f;
        if (timestamp_bits) *timestamp_bits = fam[f].timestampValidBits;
        if (graphics) *graphics = (fam[f].queueFlags & VK_QUEUE_GRAPHICS_BIT) != 0;
    }
    mf_free(&g->alloc, fam);
    return res;
}

static int rank(VkPhysicalDeviceType t, bool prefer_cpu)
{
    switch (t) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return prefer_cpu ? 1 : 4;
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return prefer_cpu ? 1 : 3;
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return 2;
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return prefer_cpu ? 5 : 1;
    default: return 0;
    }
}

static mf_result pick_device(mf_gpu_device *g, const mf_gpu_device_desc *desc, mf_diag *diag)
{
    VkPhysicalDevice pds[16];
    uint32_t n = 16;
    VkResult r = g->vkEnumeratePhysicalDevices(g->instance, &n, pds);
    if ((r != VK_SUCCESS && r != VK_INCOMPLETE) || n == 0) {
        mf_diag_set(diag, "", "vulkan", "no Vulkan physical device (install a driver, or Mesa's lavapipe)");
        return MF_ERR_UNSUPPORTED;
    }
    int best = -1, best_rank = -1;
    for (uint32_t i = 0; i < n; i++) {
        VkPhysicalDeviceProperties pr;
        g->vkGetPhysicalDeviceProperties(pds[i], &pr);
        uint32_t f = UINT32_MAX, families;
        mf_result fr = compute_family(g, pds[i], &f, &families, NULL, NULL);
        if (fr == MF_ERR_NOMEM) return fr;
        if (fr != MF_OK) continue;
        int rk = rank(pr.deviceType, desc->prefer_cpu);
        if (desc->physical_index > 0) rk = (int)i == desc->physical_index - 1 ? 100 : -1;
        if (rk > best_rank) best = (int)i, best_rank = rk;
    }
    if (best < 0 || best_rank < 0) {
        if (desc->physical_index > 0)
            mf_diag_set(diag, "", "vulkan", "physical device %d of %u does not exist or has no compute queue",
                        desc->physical_index - 1, n);
        else
            mf_diag_set(diag, "", "vulkan", "no Vulkan device with a compute queue");
        return MF_ERR_UNSUPPORTED;
    }
    g->physical = pds[best];
    uint32_t families;
    g->queue_family = UINT32_MAX;
    mf_result fr = compute_family(g, g->physical, &g->queue_family, &families, &g->timestamp_bits, &g->graphics);
    if (fr != MF_OK) return fr; /* found above: only memory can fail here */
    float prio = 1.0f;
    VkDeviceQueueCreateInfo qi = {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
                                  .queueFamilyIndex = g->queue_family, .queueCount = 1, .pQueuePriorities = &prio};
    VkDeviceCreateInfo di = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, .queueCreateInfoCount = 1,
                             .pQueueCreateInfos = &qi};
    r = g->vkCreateDevice(g->physical, &di, NULL, &g->device);
    if (r != VK_SUCCESS) {
        mf_diag_set(diag, "", "vulkan", "vkCreateDevice failed (VkResult %d)", (int)r);
        return MF_ERR_UNSUPPORTED;
    }
    return MF_OK;
}

static mf_result open_loader(mf_gpu_device *g, mf_diag *diag)
{
    g->loader = dlopen("libvulkan.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!g->loader) g->loader = dlopen("libvulkan.so", RTLD_NOW | RTLD_LOCAL);
    if (g->loader) {
        /* a data pointer to a function pointer: how dlsym is specified to be used */
        void *sym = dlsym(g->loader, "vkGetInstanceProcAddr");
        memcpy(&g->vkGetInstanceProcAddr, &sym, sizeof sym);
    }
    if (!g->vkGetInstanceProcAddr) {
        mf_diag_set(diag, "", "vulkan", "no Vulkan loader (libvulkan.so.1) could be opened");
        return MF_ERR_UNSUPPORTED;
    }
    return MF_OK;
}

mf_result mf_gpu_device_create(const mf_gpu_device_desc *desc_in, mf_gpu_device **out, mf_diag *diag)
{
    if (!out) return MF_ERR_ARGUMENT;
    *out = NULL;
    mf_gpu_device_desc desc = desc_in ? *desc_in : (mf_gpu_device_desc){0};
    int handles = !!desc.instance + !!desc.physical + !!desc.device + !!desc.queue;
    if (handles != 0 && handles != 4) {
        mf_diag_set(diag, "", "mf_gpu_device_desc", "instance, physical, device and queue: all or none");
        return MF_ERR_ARGUMENT;
    }
    mf_gpu_device *g = mf_alloc(&desc.alloc, sizeof *g);
    if (!g) return MF_ERR_NOMEM;
    memset(g, 0, sizeof *g);
    g->alloc = desc.alloc;
    g->vkGetInstanceProcAddr = desc.get_instance_proc_addr;
    mf_result res = g->vkGetInstanceProcAddr ? MF_OK : open_loader(g, diag);
    if (res == MF_OK && handles == 4) {
        g->instance = desc.instance, g->physical = desc.physical, g->device = desc.device;
        g->queue = desc.queue, g->queue_family = desc.queue_family;
        if (!load_instance_fns(g)) {
            mf_diag_set(diag, "", "vulkan", "the host's instance lacks a core 1.0 entry point");
            res = MF_ERR_UNSUPPORTED;
        } else {
            uint32_t n = 0, f = g->queue_family;
            res = f == UINT32_MAX ? MF_ERR_ARGUMENT
                                  : compute_family(g, g->physical, &f, &n, &g->timestamp_bits, &g->graphics);
            if (res == MF_ERR_ARGUMENT)
                mf_diag_set(diag, "", "mf_gpu_device_desc.queue_family", "family %u (of %u) has no compute queue",
                            g->queue_family, n);
        }
    } else if (res == MF_OK) {
        g->owned = true;
        res = make_instance(g, desc.validate, diag);
        if (res == MF_OK) res = pick_device(g, &desc, diag);
    }
    if (res == MF_OK && !load_device_fns(g)) {
        mf_diag_set(diag, "", "vulkan", "the device lacks a core 1.0 entry point");
        res = MF_ERR_UNSUPPORTED;
    }
    if (res == MF_OK) {
        if (g->owned) g->vkGetDeviceQueue(g->device, g->queue_family, 0, &g->queue);
        g->vkGetPhysicalDeviceProperties(g->physical, &g->props);
        g->vkGetPhysicalDeviceMemoryProperties(g->physical, &g->mem);
        g->is_cpu = g->props.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU;
        VkCommandPoolCreateInfo pi = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                      .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
                                      .queueFamilyIndex = g->queue_family};
        VkResult r = g->vkCreateCommandPool(g->device, &pi, NULL, &g->pool);
        if (r == VK_SUCCESS) r = mf_gpu_pipeline_make(g);
        if (r != VK_SUCCESS) {
            mf_diag_set(diag, "", "vulkan", "the skinning pipeline could not be made (VkResult %d)", (int)r);
            res = mf_gpu_result(r);
        }
    }
    if (res != MF_OK) {
        mf_gpu_device_destroy(g);
        return res;
    }
    *out = g;
    return MF_OK;
}

void mf_gpu_device_destroy(mf_gpu_device *g)
{
    if (!g) return;
    if (g->device) {
        if (g->vkDeviceWaitIdle) g->vkDeviceWaitIdle(g->device);
        if (g->vkDestroyPipeline) mf_gpu_pipeline_drop(g);
        if (g->pool) g->vkDestroyCommandPool(g->device, g->pool, NULL);
        if (g->owned && g->vkDestroyDevice) g->vkDestroyDevice(g->device, NULL);
    }
    if (g->owned && g->instance) {
        if (g->messenger) g->destroy_messenger(g->instance, g->messenger, NULL);
        if (g->vkDestroyInstance) g->vkDestroyInstance(g->instance, NULL);
    }
    if (g->loader) dlclose(g->loader);
    mf_allocator al = g->alloc;
    mf_free(&al, g);
}

const char *mf_gpu_device_name(const mf_gpu_device *g) { return g ? g->props.deviceName : ""; }
bool mf_gpu_device_is_cpu(const mf_gpu_device *g) { return g && g->is_cpu; }

int32_t mf_gpu_device_messages(const mf_gpu_device *g, bool *layer_found)
{
    if (layer_found) *layer_found = g && g->layer_found;
    return g ? g->messages : 0;
}

static uint32_t memory_type(const mf_gpu_device *g, uint32_t bits, VkMemoryPropertyFlags want)
{
    for (uint32_t i = 0; i < g->mem.memoryTypeCount; i++)
        if ((bits & (1u << i)) && (g->mem.memoryTypes[i].propertyFlags & want) == want) return i;
    return UINT32_MAX;
}

VkResult mf_gpu_buffer_make(mf_gpu_device *g, VkDeviceSize size, VkBufferUsageFlags usage, bool host,
                            mf_gpu_buffer *out)
{
    memset(out, 0, sizeof *out);
    if (size < 16) size = 16;
    out->size = size;
    VkBufferCreateInfo bi = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, .size = size, .usage = usage,
                             .sharingMode = VK_SHARING_MODE_EXCLUSIVE};
    VkResult r = g->vkCreateBuffer(g->device, &bi, NULL, &out->buf);
    if (r != VK_SUCCESS) return r;
    VkMemoryRequirements req;
    g->vkGetBufferMemoryRequirements(g->device, out->buf, &req);
    /* host memory cached where the device has such: the CPU writes a frame's records in pieces
     * (write-combined memory wants whole lines) and reads readbacks back */
    const VkMemoryPropertyFlags coherent = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    uint32_t type = host ? memory_type(g, req.memoryTypeBits, coherent | VK_MEMORY_PROPERTY_HOST_CACHED_BIT)
                         : memory_type(g, req.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    if (type == UINT32_MAX && host) type = memory_type(g, req.memoryTypeBits, coherent);
    if (type == UINT32_MAX && !host) type = memory_type(g, req.memoryTypeBits, 0);
    if (type == UINT32_MAX) return VK_ERROR_FEATURE_NOT_PRESENT;
    VkMemoryAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, .allocationSize = req.size,
                               .memoryTypeIndex = type};
    r = g->vkAllocateMemory(g->device, &ai, NULL, &out->mem);
    if (r == VK_SUCCESS) r = g->vkBindBufferMemory(g->device, out->buf, out->mem, 0);
    if (r == VK_SUCCESS && host) r = g->vkMapMemory(g->device, out->mem, 0, VK_WHOLE_SIZE, 0, &out->map);
    return r;
}

void mf_gpu_buffer_drop(mf_gpu_device *g, mf_gpu_buffer *b)
{
    if (b->buf) g->vkDestroyBuffer(g->device, b->buf, NULL);
    if (b->mem) g->vkFreeMemory(g->device, b->mem, NULL); /* unmaps */
    memset(b, 0, sizeof *b);
}

VkResult mf_gpu_upload(mf_gpu_device *g, mf_gpu_buffer *dst, const void *bytes, VkDeviceSize size)
{
    if (size == 0) return VK_SUCCESS;
    mf_gpu_buffer staging;
    VkResult r = mf_gpu_buffer_make(g, size, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, true, &staging);
    VkCommandBuffer cmd = VK_NULL_HANDLE;
    VkFence fence = VK_NULL_HANDLE;
    if (r == VK_SUCCESS) {
        memcpy(staging.map, bytes, (size_t)size);
        VkCommandBufferAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                          .commandPool = g->pool, .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                          .commandBufferCount = 1};
        r = g->vkAllocateCommandBuffers(g->device, &ai, &cmd);
    }
    if (r == VK_SUCCESS) {
        VkFenceCreateInfo fi = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
        r = g->vkCreateFence(g->device, &fi, NULL, &fence);
    }
    if (r == VK_SUCCESS) {
        VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                       .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
        r = g->vkBeginCommandBuffer(cmd, &bi);
    }
    if (r == VK_SUCCESS) {
        VkBufferCopy region = {0, 0, size};
        g->vkCmdCopyBuffer(cmd, staging.buf, dst->buf, 1, &region);
        /* made visible to the shader here: the frames that read it are recorded later, maybe
         * into command buffers of another queue of the family, with no barrier of their own
         * that covers this submit */
        VkMemoryBarrier mb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER, .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
                              .dstAccessMask = VK_ACCESS_SHADER_READ_BIT};
        g->vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &mb, 0,
                                NULL, 0, NULL);
        r = g->vkEndCommandBuffer(cmd);
    }
    if (r == VK_SUCCESS) {
        VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &cmd};
        r = g->vkQueueSubmit(g->queue, 1, &si, fence);
    }
    if (r == VK_SUCCESS) r = g->vkWaitForFences(g->device, 1, &fence, VK_TRUE, UINT64_MAX);
    if (fence) g->vkDestroyFence(g->device, fence, NULL);
    if (cmd) g->vkFreeCommandBuffers(g->device, g->pool, 1, &cmd);
    mf_gpu_buffer_drop(g, &staging);
    return r;
}
