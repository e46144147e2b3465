/* The GPU module's shared parts: the Vulkan entry points it loads (no prototypes linked: the
 * loader is opened at run time, so a machine without one gets MF_ERR_UNSUPPORTED rather than a
 * program that fails to start), the device, and device buffers. */
#ifndef MF_GPU_INTERNAL_H
#define MF_GPU_INTERNAL_H
#ifndef VK_NO_PROTOTYPES
#define VK_NO_PROTOTYPES
#endif
#include "mf/mf_gpu.h"

#define MF_GPU_INSTANCE_FNS(X)                                                                             \
    X(vkDestroyInstance) X(vkEnumeratePhysicalDevices) X(vkGetPhysicalDeviceProperties)                    \
    X(vkGetPhysicalDeviceQueueFamilyProperties) X(vkGetPhysicalDeviceMemoryProperties) X(vkCreateDevice)   \
    X(vkGetDeviceProcAddr)

#define MF_GPU_DEVICE_FNS(X)                                                                               \
    X(vkDestroyDevice) X(vkGetDeviceQueue) X(vkCreateBuffer) X(vkDestroyBuffer)                            \
    X(vkGetBufferMemoryRequirements) X(vkAllocateMemory) X(vkFreeMemory) X(vkBindBufferMemory)             \
    X(vkMapMemory) X(vkUnmapMemory) X(vkCreateShaderModule) X(vkDestroyShaderModule)                       \
    X(vkCreateDescriptorSetLayout) X(vkDestroyDescriptorSetLayout) X(vkCreatePipelineLayout)               \
    X(vkDestroyPipelineLayout) X(vkCreateComputePipelines) X(vkDestroyPipeline) X(vkCreateDescriptorPool)  \
    X(vkDestroyDescriptorPool) X(vkAllocateDescriptorSets) X(vkUpdateDescriptorSets) X(vkCreateCommandPool) \
    X(vkDestroyCommandPool) X(vkAllocateCommandBuffers) X(vkFreeCommandBuffers) X(vkBeginCommandBuffer) X(vkEndCommandBuffer)      \
    X(vkResetCommandBuffer) X(vkCmdCopyBuffer) X(vkCmdPipelineBarrier) X(vkCmdBindPipeline)                \
    X(vkCmdBindDescriptorSets) X(vkCmdPushConstants) X(vkCmdDispatch) X(vkCmdWriteTimestamp)               \
    X(vkCmdResetQueryPool) X(vkCreateQueryPool) X(vkDestroyQueryPool) X(vkGetQueryPoolResults)             \
    X(vkCreateFence) X(vkDestroyFence) X(vkWaitForFences) X(vkResetFences) X(vkQueueSubmit)                \
    X(vkDeviceWaitIdle)

#define MF_GPU_FN_FIELD(name) PFN_##name name;

struct mf_gpu_device {
    mf_allocator alloc;
    void *loader; /* dlopen handle */
    PFN_vkGetInstanceProcAddr vkGetInstanceProcAddr;
    MF_GPU_INSTANCE_FNS(MF_GPU_FN_FIELD)
    MF_GPU_DEVICE_FNS(MF_GPU_FN_FIELD)
    VkInstance instance;
    VkPhysicalDevice physical;
    VkDevice device;
    VkQueue queue;
    uint32_t queue_family;
    bool owned;      /* headless: the library made instance and device */
    bool is_cpu;
    bool graphics; /* the queue family draws: vertex input stages in the barriers */
    bool layer_found;
    VkDebugUtilsMessengerEXT messenger;
    PFN_vkDestroyDebugUtilsMessengerEXT destroy_messenger;
    int32_t messages;
    VkPhysicalDeviceProperties props;
    VkPhysicalDeviceMemoryProperties mem;
    uint32_t timestamp_bits; /* of the queue family; 0: no timestamps */
    /* the skinning and world pipelines (one layout), shared by rigs and batches */
    VkDescriptorSetLayout rig_layout, frame_layout;
    VkPipelineLayout pipe_layout;
    VkPipeline pipeline, world_pipeline;
    VkCommandPool pool; /* one-time uploads (rigs) and batches' own command buffers */
};

typedef struct mf_gpu_buffer {
    VkBuffer buf;
    VkDeviceMemory mem;
    void *map; /* host-visible ones: mapped for their lifetime */
    VkDeviceSize size;
} mf_gpu_buffer;

/* A Vulkan result as the library's: out of host or device memory MF_ERR_NOMEM, other failures
 * MF_ERR_UNSUPPORTED. */
static inline mf_result mf_gpu_result(VkResult r)
{
    if (r == VK_SUCCESS) return MF_OK;
    return r == VK_ERROR_OUT_OF_HOST_MEMORY || r == VK_ERROR_OUT_OF_DEVICE_MEMORY ? MF_ERR_NOMEM : MF_ERR_UNSUPPORTED;
}

/* A buffer of size bytes (at least 16): host-visible and coherent (mapped), or device-local
 * where the device has such memory. */
VkResult mf_gpu_buffer_make(mf_gpu_device *g, VkDeviceSize size, VkBufferUsageFlags usage, bool host,
                            mf_gpu_buffer *out);
void mf_gpu_buffer_drop(mf_gpu_device *g, mf_gpu_buffer *b);
/* Copies bytes into a device-local buffer through a staging buffer and one waited submit. */
VkResult mf_gpu_upload(mf_gpu_device *g, mf_gpu_buffer *dst, const void *bytes, VkDeviceSize size);
/* The skinning and world pipelines and their layouts (gpu_pipeline.c). */
VkResult mf_gpu_pipeline_make(mf_gpu_device *g);
void mf_gpu_pipeline_drop(mf_gpu_device *g);

/* Push constants of the skinning shader (skin.comp); the world shader (world.comp) reads them
 * as instance first, instance count, bone count, inst_off. */
typedef struct mf_gpu_push {
    uint32_t item_first, item_count, groups_x, inst_off, direct_off;
} mf_gpu_push;

/* What the pose walk needs of an attachment, worked out once from the data (gpu_rig.c). */
typedef struct mf_gpu_att {
    int32_t vertex_count, index_count;
    int32_t page, image;   /* its texture (mf_draw_texture of its image); a sequence's per frame */
    float color[4];        /* its colour, each byte / 255 as the draw list's (mf_unit_byte) */
    bool drawn;            /* region or mesh with triangles: listed when shown */
    bool sequence;         /* the image and uv set follow the slot's sequence frame */
    int32_t deform_count;  /* a mesh's deform floats; 0: a region, or none */
} mf_gpu_att;

/* A rig's tables (gpu_rig.c). */
enum { MF_GPU_RIG_BUFFERS = 6 };
struct mf_gpu_rig {
    mf_gpu_device *g;
    const mf_skel_data *data;
    mf_skel_data view; /* its own copy of a loaded view, as a draw list keeps */
    /* floats, influences, spans, attachments, triangles, the pose program (world.comp) */
    mf_gpu_buffer bufs[MF_GPU_RIG_BUFFERS];
    VkDescriptorPool dpool;
    VkDescriptorSet set;
    uint64_t bytes;
    bool needs_list; /* the data has clipping attachments: items come from a draw list */
    bool world_ok;   /* the GPU can compute the world (every rig now: physics through mf_gpu_batch_add_physics) */
    uint32_t path_scratch; /* words an instance's path constraints work in (world.comp), after its palette */
    uint32_t local_words_max; /* mf_gpu_rig_local_words */
    /* the most vertices and indices an attachment draws: a pose whose slots all showed such
     * fits when that room is left (the pose walk then checks no item) */
    int32_t max_att_vertices, max_att_indices;
    int32_t clip_slot_count; /* the slots that own a clipping attachment */
    int32_t *clip_slots;
    mf_gpu_att *att;         /* one an attachment of the data */
};

/* Words of a rig attachment record and its flags (skin.comp). */
enum { MF_GPU_ATT_WORDS = 8, MF_GPU_WEIGHTED = 1, MF_GPU_NO_UVS = 2 };
/* A path attachment's record (world.comp): flags (WEIGHTED, CLOSED, CONSTANT_SPEED), vertex
 * count, 0, vertex first, influence first, its curve lengths' first float and count, bone. */
enum { MF_GPU_PATH_CLOSED = 4, MF_GPU_PATH_CONSTANT = 8 };
/* An update-order entry of the pose program that is an IK or a transform constraint, not a bone
 * (world.comp); the words of a transform constraint in the program and in an instance's local
 * pose (its 6 mixes and its activity). */
#define MF_GPU_PROG_IK 0x80000000u
#define MF_GPU_PROG_TF 0x40000000u
enum { MF_GPU_TF_WORDS = 10, MF_GPU_TF_LOCAL_WORDS = 7 };
/* A path constraint's update-order entry: MF_GPU_PROG_PATH | the word of its record (7 words:
 * the target slot's bone, the word its bones start at, their count, position mode | spacing
 * mode << 8 | rotate mode << 16, the rotation offset, the word of its instance words in the
 * local pose, the rig's scratch room S). Its instance words: mixes rotate, x, y, position,
 * spacing, active, the path attachment its slot shows (or NONE), its deform's word in the local
 * pose (or NONE). Scratch after the palette: spaces (S), lengths (S), positions (3 S), curve
 * lengths (the most curves a path attachment has). */
#define MF_GPU_PROG_PATH 0x20000000u
/* A physics constraint's update-order entry: MF_GPU_PROG_PHYS | the word of its record
 * (MF_GPU_PHYS_WORDS: bone, channels (MF_GPU_PHYS_XY, _ROTATE, _SHEAR, _SCALE, _SPIN), the
 * amounts x, y, rotate, shear_x, scale_x, rotate + shear_x, the word of the instance's physics
 * words in the local pose, the constraint's index). Its instance words (gpu_batch.c: put_physics): flags (MF_GPU_PF_*, the
 * steps << 8, the mode << 16), mix, inertia, the spring's strength / mass, damping kept per
 * step, mass, wind, gravity, their translation accelerations x and y, the movement to lag
 * behind x and y, the step h and the speed cap. Before them the instance's own 2 words: its
 * state's first float in the batch's state buffer and the teleport distance. The state
 * (MF_GPU_PHYS_STATE floats a constraint, written by the GPU only): shown origin x, y, shown tip
 * x, y, offsets and velocities x, y, rotation, scale. */
#define MF_GPU_PROG_PHYS 0x10000000u
#define MF_GPU_PROG_KIND (MF_GPU_PROG_IK | MF_GPU_PROG_TF | MF_GPU_PROG_PATH | MF_GPU_PROG_PHYS)
enum { MF_GPU_PATH_WORDS = 7, MF_GPU_PATH_LOCAL_WORDS = 8 };
enum { MF_GPU_PHYS_WORDS = 10, MF_GPU_PHYS_LOCAL_WORDS = 14, MF_GPU_PHYS_HEAD_WORDS = 2, MF_GPU_PHYS_STATE = 12 };
enum { MF_GPU_PHYS_XY = 1, MF_GPU_PHYS_ROTATE = 2, MF_GPU_PHYS_SHEAR = 4, MF_GPU_PHYS_SCALE = 8, MF_GPU_PHYS_SPIN = 16 };
/* instance flags of a physics constraint: it runs (active), rests first, steps and lags
 * (update), caps the speed */
enum { MF_GPU_PF_RUN = 1, MF_GPU_PF_REST = 2, MF_GPU_PF_UPDATE = 4, MF_GPU_PF_CAPPED = 8 };

/* Words of a local pose before its path constraints' words: 7 a bone, the inherit modes 4 a
 * word, 3 an IK constraint, MF_GPU_TF_LOCAL_WORDS a transform constraint (gpu_batch.c:
 * put_locals). */
static inline uint32_t mf_gpu_local_path_at(const mf_skel_data *d)
{
    uint32_t n = (uint32_t)d->bone_count;
    return 7u * n + (n + 3u) / 4u + 3u * (uint32_t)d->ik_count + MF_GPU_TF_LOCAL_WORDS * (uint32_t)d->transform_count;
}
/* Words of a local pose before its physics words (none without physics constraints). */
static inline uint32_t mf_gpu_local_phys_at(const mf_skel_data *d)
{
    return mf_gpu_local_path_at(d) + MF_GPU_PATH_LOCAL_WORDS * (uint32_t)d->path_count;
}
static inline uint32_t mf_gpu_local_phys_words(const mf_skel_data *d)
{
    return d->physics_count > 0 ? MF_GPU_PHYS_HEAD_WORDS + MF_GPU_PHYS_LOCAL_WORDS * (uint32_t)d->physics_count : 0u;
}
/* Words of a local pose before the deforms of the paths its slots show. */
static inline uint32_t mf_gpu_local_fixed_words(const mf_skel_data *d)
{
    return mf_gpu_local_phys_at(d) + mf_gpu_local_phys_words(d);
}
#endif
