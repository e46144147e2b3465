/* mf_gpu.h — GPU skinning through Vulkan compute: the draw lists of many skeletons become one
 * vertex stream (mf_batch_vertex) and one index stream on the GPU, with the draw calls of
 * mf_draw_batch.h, while the CPU only poses bones and lists items.
 *
 * GPU module (libmf_gpu): the runtime and the Vulkan headers; the loader is opened at run time
 * (or the host's entry point used: mf_gpu_device_desc.get_instance_proc_addr). It owns no window and no
 * render pass: a host hands it its device (or lets it make a headless one), records its work
 * into the host's command buffer (or submits it itself), and draws the streams it leaves in
 * device-local buffers. A frame allocates nothing on the CPU or the GPU.
 *
 *     mf_gpu_device *g;  mf_gpu_device_create(NULL, &g, &diag);   // NULL: headless, best GPU
 *     mf_gpu_rig *rig;   mf_gpu_rig_create(g, &data, &rig, &diag); // static tables, uploaded once
 *     mf_gpu_batch *b;   mf_gpu_batch_create(g, NULL, &b, &diag);  // zeroed desc / NULL: defaults
 *     per frame:
 *         mf_gpu_batch_begin(b);                  // the next frame slot (waits for its last submit)
 *         for each instance, back to front, after mf_pose_update_world():
 *             bool clip = mf_gpu_pose_needs_list(rig, inst->pose);   // a clipping attachment shown
 *             if (clip) mf_draw_list_build_items(inst->draw, inst->pose); // items, no CPU skinning
 *             mf_gpu_batch_add(b, rig, inst->pose, clip ? inst->draw : NULL, inst->xf);
 *         mf_gpu_batch_record(b, cmd);            // or mf_gpu_batch_submit(b) without a host
 *         bind b->vertex_buffer, b->index_buffer (uint32); for each of b->calls: draw_indexed
 *
 * What the GPU computes is what mf_draw_batch_add computes from a list that mf_draw_list_build
 * filled: the same items in the same order, the same draw calls, the same indices, vertices
 * within float rounding (the GPU may fuse multiply-adds). Clipped items are clipped on the CPU
 * by the draw list (as the seed asks) and their geometry copied; everything else is skinned on
 * the GPU from the rig's data, the pose's bone palette and its deform offsets, which add()
 * copies, so the pose may change as soon as add() returns.
 *
 * World transforms on the GPU: a host may skip mf_pose_update_world() and add the sampled pose
 * with mf_gpu_batch_add_local() (with mf_gpu_batch_add_physics() and the instance's physics
 * state for a rig with physics constraints, below): the GPU runs the update order from the local
 * pose (all five inherit modes, one- and two-bone IK with every option, transform constraints in
 * world and local space, absolute and relative, path constraints with every mode along the path
 * attachment each slot shows, deformed or not, physics constraints stepping their springs) and
 * makes each instance's bone palette before it skins. It solves IK and world-space transform and path constraints in floats where the CPU
 * uses doubles: near a chain's full reach the IK solve is ill-conditioned and positions may differ from the CPU's by up to
 * about a tenth of a pixel (a few hundredths in the tests); elsewhere by float rounding. The CPU's frame is then sampling and the item walk; the pose's world arrays are left as
 * they were (stale) unless read back: with desc.readback_world, mf_gpu_batch_read_world copies
 * an instance's GPU world into a pose after mf_gpu_batch_wait (a bone for a weapon or a hit box,
 * a frame late or after waiting). A host that needs a bone's world before the GPU has run,
 * overrides a bone in world space (mf_bone_override.world: it reads the parent's world) or
 * shows a clipping attachment updates that instance's world itself and adds it with
 * mf_gpu_batch_add():
 *
 *         mf_tracks_update(t, dt); mf_tracks_apply(t, pose);     // no world update
 *         if (mf_gpu_pose_needs_list(rig, pose)) { mf_pose_update_world(pose); ... add() as above }
 *         else mf_gpu_batch_add_local(b, rig, pose, xf);
 *         ...; mf_gpu_batch_submit(b); mf_gpu_batch_wait(b);
 *         mf_gpu_batch_read_world(b, k, pose);   // readback_world: the k-th add's world, on the host
 *
 * Frames in flight: a batch keeps desc.frames_in_flight slots (upload and output buffers).
 * begin() moves to the next slot; with mf_gpu_batch_submit it waits for that slot's last submit
 * itself; with mf_gpu_batch_record the host must know the command buffer that last used the
 * slot has finished (its usual per-frame fence) before begin().
 */
#ifndef MF_GPU_H
#define MF_GPU_H

#include <vulkan/vulkan.h>

#include "mf/mf_draw_batch.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A host's device (instance, physical, device and queue all set), or a headless one the
 * library creates (all NULL). Zeroed fields mean defaults. */
typedef struct mf_gpu_device_desc {
    VkInstance instance;
    VkPhysicalDevice physical;
    VkDevice device;
    VkQueue queue;          /* a queue of queue_family, which must support compute */
    uint32_t queue_family;
    /* the loader's entry point the library resolves every Vulkan function through (a host with
     * its own loader: volk, a statically linked one, a wrapper); NULL: the library opens
     * libvulkan.so.1 itself. With host handles, use the one that made them. */
    PFN_vkGetInstanceProcAddr get_instance_proc_addr;
    /* headless only: which physical device. -1 or 0 with prefer_cpu false: the first discrete
     * GPU, else integrated, else virtual, else a CPU implementation (lavapipe); > 0: index + 1
     * of vkEnumeratePhysicalDevices' list (so 0 keeps the default) */
    int32_t physical_index;
    bool prefer_cpu;        /* headless: a CPU implementation before any GPU (tests) */
    /* headless only: enable VK_LAYER_KHRONOS_validation when installed, with its
     * synchronization validation (barriers); its errors and warnings are counted
     * (mf_gpu_device_messages) and printed to stderr */
    bool validate;
    mf_allocator alloc;     /* the library's own CPU memory; zeroed: malloc / free */
} mf_gpu_device_desc;

typedef struct mf_gpu_device mf_gpu_device;

/* MF_OK; MF_ERR_UNSUPPORTED: no Vulkan loader, no device or no compute queue (diag says which);
 * MF_ERR_ARGUMENT: some but not all host handles set; MF_ERR_NOMEM. */
mf_result mf_gpu_device_create(const mf_gpu_device_desc *desc, mf_gpu_device **out, mf_diag *diag);
/* Waits for the whole VkDevice to be idle (vkDeviceWaitIdle: with a host's device, call it
 * where no other thread uses any of its queues), destroys what the library made and, with a
 * host's device, leaves the host's instance, device and queue as they were.
 * Threads: mf_gpu_batch_add may run on any thread for its own batch; everything that records,
 * submits or waits (rig create, begin, record, submit, wait, destroy) shares the device's queue
 * and command pool: one thread at a time. */
void mf_gpu_device_destroy(mf_gpu_device *g);
/* The physical device's name ("llvmpipe (LLVM 15.0.6, 256 bits)", "NVIDIA H200", ...). */
const char *mf_gpu_device_name(const mf_gpu_device *g);
bool mf_gpu_device_is_cpu(const mf_gpu_device *g);
/* Validation layer errors and warnings seen since create (0 without desc.validate), and
 * whether the layer was found. */
int32_t mf_gpu_device_messages(const mf_gpu_device *g, bool *layer_found);

/* A skeleton data's static tables on the GPU: its vertices, influences, spans, uvs and each
 * drawable attachment's triangles. The data must stay loaded while the rig is used; the rig
 * outlives every batch frame that used it (destroy after the GPU finished with it). Create
 * uploads through a staging buffer with one submit to the device's queue and waits for it: with
 * a host's device, call it where the host may submit to that queue. */
typedef struct mf_gpu_rig mf_gpu_rig;
mf_result mf_gpu_rig_create(mf_gpu_device *g, const mf_skel_data *d, mf_gpu_rig **out, mf_diag *diag);
void mf_gpu_rig_destroy(mf_gpu_rig *r);
/* Bytes of GPU memory the rig's tables take. */
uint64_t mf_gpu_rig_bytes(const mf_gpu_rig *r);
/* Whether mf_gpu_batch_add may need a draw list for this rig: true when the data has clipping
 * attachments (clipped items are clipped on the CPU, by the list). */
bool mf_gpu_rig_needs_list(const mf_gpu_rig *r);
/* Whether the GPU can compute the rig's world transforms: true for every rig (IK, transform,
 * path and physics constraints run on the GPU; a rig with physics constraints is added with
 * mf_gpu_batch_add_physics, which names the instance's state, not with add_local). false for
 * NULL. */
bool mf_gpu_rig_world_ok(const mf_gpu_rig *r);
/* The most max_words one instance added with mf_gpu_batch_add_local (or _add_physics) takes:
 * its local pose and constraints' words, the deforms of the paths its slots may show, and the
 * palette and scratch the GPU writes; not its meshes' deforms or clipped geometry. 0 for NULL.
 * For sizing mf_gpu_batch_desc.max_words. */
uint32_t mf_gpu_rig_local_words(const mf_gpu_rig *r);
/* Whether this frame's items need a draw list: a slot of the posed instance (of the rig's data)
 * shows a clipping attachment (its bone active). Check it after sampling (it reads the slots'
 * attachments and the active bones, not the world: mf_gpu_batch_add_local checks it before
 * any world update), then build the list only when it does (most frames of most rigs: no
 * clipping shown, no list). It looks at the slots that own a clipping attachment only; false
 * for a rig without any. */
bool mf_gpu_pose_needs_list(const mf_gpu_rig *rig, const mf_pose *pose);

/* Zeroed fields mean defaults. Every capacity is per frame. */
typedef struct mf_gpu_batch_desc {
    int32_t max_vertices;   /* 0: 1 << 20 */
    int32_t max_indices;    /* 0: 3 × max_vertices */
    int32_t max_calls;      /* 0: 4096 */
    int32_t max_instances;  /* 0: 1024 */
    int32_t max_items;      /* 0: 64 × max_instances */
    /* 32-bit words for bone palettes (6 a bone), deform offsets, clipped geometry (4 a
     * vertex, 1 an index) and local poses (mf_gpu_batch_add_local: 7 a bone, 1 for every 4
     * bones, 3 an IK constraint, 7 a transform constraint, 8 a path constraint and the deform
     * offsets of the path attachment its slot shows, a copy each even where two constraints
     * share a slot, 14 a physics constraint and 2 for an instance with any (add_physics),
     * besides what the GPU writes: the palette
     * and, for a rig with path constraints, their scratch, 5 × (the most bones of one + 1) +
     * the most vertices of a path attachment / 3; mf_gpu_rig_local_words gives a rig's most).
     * 0: 2048 × max_instances */
    int32_t max_words;
    int32_t frames_in_flight; /* 0: 2 */
    /* physics constraints whose springs the batch keeps on the GPU across frames
     * (mf_gpu_batch_physics_acquire: a state takes its rig's physics constraint count): 48
     * bytes of device-local memory and 50 of the library's CPU memory each. 0: 8 ×
     * max_instances */
    int32_t max_physics;
    /* keep a host-visible copy of each frame's streams for mf_gpu_batch_read (tests, tools) */
    bool readback;
    /* keep a host-visible copy of each frame's GPU-computed bone palettes (add_local's) for
     * mf_gpu_batch_read_world: 4 × max_words bytes of host-visible memory a slot, and a
     * transfer of the palettes at the end of each frame */
    bool readback_world;
} mf_gpu_batch_desc;

/* The host reads the fields and never writes them. */
typedef struct mf_gpu_batch {
    int32_t vertex_count, index_count; /* this frame so far */
    int32_t call_count, call_cap;
    mf_draw_call *calls;   /* as mf_draw_batch's: indices index the whole vertex stream */
    int32_t skeletons, items, overflow; /* as mf_draw_batch's */
    int32_t gpu_items;     /* items skinned on the GPU (the rest: clipped geometry copied) */
    int32_t upload_bytes;  /* bytes this frame copies to the GPU so far */
    /* the current slot's output buffers: vertices (mf_batch_vertex), indices (uint32) */
    VkBuffer vertex_buffer, index_buffer;
    /* GPU time of the last finished mf_gpu_batch_submit's work (upload copy and dispatches),
     * milliseconds; negative when the queue has no timestamps */
    double gpu_ms;
} mf_gpu_batch;

/* MF_ERR_ARGUMENT: a capacity negative, or a buffer it sizes (records, vertices, indices) past
 * the device's maxStorageBufferRange (lavapipe: 128 MiB; diag says which); MF_ERR_NOMEM. */
mf_result mf_gpu_batch_create(mf_gpu_device *g, const mf_gpu_batch_desc *desc, mf_gpu_batch **out, mf_diag *diag);
/* Waits for the batch's own submits; a host's recorded ones must have finished. */
void mf_gpu_batch_destroy(mf_gpu_batch *b);

/* Starts a frame in the next slot: empties the streams and the calls. */
mf_result mf_gpu_batch_begin(mf_gpu_batch *b);

/* Appends a skeleton: its draw list's items (built for pose, by mf_draw_list_build_items or
 * mf_draw_list_build) skinned with the pose's palette and deform, placed by xf ({a, b, c, d,
 * e, f}: (x, y) -> (a x + c y + e, b x + d y + f); NULL: identity). dl may be NULL when the
 * pose shows no clipping attachment (mf_gpu_pose_needs_list false; always for a rig without
 * any, mf_gpu_rig_needs_list): the items are then the pose's, the ones a list would hold, with
 * no list built or read.
 * Whole or not at all:
 *   MF_OK;
 *   MF_ERR_NOMEM     a capacity would be passed: nothing of it added, overflow counts it;
 *   MF_ERR_ARGUMENT  NULLs (dl NULL while the pose shows a clipping attachment), no begin() yet, a rig
 *                    of another device, the rig, the list and the pose not of one data, or the
 *                    list lies (an item outside its buffers, a clipped index past its item, an
 *                    unclipped item whose counts or slot are not its attachment's): nothing added. */
mf_result mf_gpu_batch_add(mf_gpu_batch *b, const mf_gpu_rig *rig, const mf_pose *pose,
                           const mf_draw_list *dl, const float *xf);
/* As mf_gpu_batch_add with no list, for a pose whose world the GPU computes (a rig without
 * physics constraints: those need mf_gpu_batch_add_physics): its local pose (x,
 * y, rot, sx, sy, shx, shy and inherit, sampled or written by the host; mf_pose_update_world
 * need not have run), its IK constraints' mix, softness, bend, compress, stretch and
 * activity, its transform constraints' six mixes and activity, and its path constraints'
 * mixes, position, spacing, activity, the path attachment each one's slot shows and that
 * attachment's deform offsets are copied, and the GPU
 * makes the palette from them as the world update would (within float rounding; IK near full
 * reach: see the top). The items are the pose's (slots, attachments, colours, sequence
 * frames, deform, draw order, active bones), as add() lists them.
 *   MF_ERR_ARGUMENT  as add(), and a rig with physics constraints, or a pose that shows a
 *                    clipping attachment (mf_gpu_pose_needs_list: clipping needs the CPU's
 *                    world): nothing added;
 *   MF_ERR_NOMEM     as add(). */
mf_result mf_gpu_batch_add_local(mf_gpu_batch *b, const mf_gpu_rig *rig, const mf_pose *pose, const float *xf);

/* Physics constraints on the GPU: the springs of an instance of a rig with physics constraints
 * live in a state the batch keeps from frame to frame (device-local, written by the GPU alone),
 * which the host acquires once for the instance and names at each add:
 *
 *     int32_t st;  mf_gpu_batch_physics_acquire(b, rig, &st);      // once, for the instance
 *     per frame (as on the CPU: sample, then the springs' inputs; no world update):
 *         mf_tracks_apply(t, pose);                    // physics timelines and reset keys
 *         mf_pose_physics_move(pose, dx, dy); mf_pose_physics_step(pose, dt);
 *         mf_gpu_batch_add_physics(b, rig, pose, st, xf);
 *     mf_gpu_batch_physics_release(b, st);              // the instance is gone
 *
 * The add takes what mf_pose_update_world would take (the pending time, movement and reset
 * requests: cleared in the pose) and copies the constraints' animated settings
 * (mf_pose_physics_values) and the pose-wide mode, mix, gravity, wind and teleport distance;
 * the GPU steps and applies the springs at each constraint's place in the update order as the
 * CPU would (pose_physics_solve.c). The time is accounted on the host in doubles exactly as the
 * CPU does, so the springs step on the same frames, and the GPU needs no 64-bit floats; the
 * springs themselves run in floats, within float rounding of the CPU's (which a swinging
 * spring may carry for some frames). A state starts at rest on its first add, as a new pose
 * does on its first update. A frame begun and then dropped (the next begin() with no record or
 * submit between) took its inputs but never reached the GPU: the rests it carried (a state's
 * first, a reset) are done at the state's next add instead, and its steps are lost (a command
 * buffer recorded and never submitted is not seen: submit what is recorded). The pose's own
 * physics state is not touched (stale: a pose moved back to mf_pose_update_world continues
 * from its own last CPU state, or reset it). An add
 * that poses nothing (no item drawn) takes nothing: its inputs wait in the pose for the next.
 * A frame that shows a clipping attachment needs the CPU's world (add_physics refuses it, as
 * add_local does): mf_pose_update_world then steps the pose's own springs, not the state's, so
 * a rig whose clipping shows on some frames only is better posed on the CPU throughout.
 *   acquire: MF_OK; MF_ERR_ARGUMENT NULLs, a rig of another device or without physics
 *            constraints; MF_ERR_NOMEM no room for its constraints in desc.max_physics
 *            (released states' room is reused);
 *   release: MF_ERR_ARGUMENT not an acquired state. Frames already recorded finish with it;
 *            released after its add this frame, a state acquired on any of its units is not
 *            added before the next begin() (one acquired elsewhere is);
 *   add_physics: as add_local() (which refuses rigs with physics constraints), and
 *            MF_ERR_ARGUMENT for a state not acquired for this rig (another rig's, released,
 *            out of range) or already added this frame: nothing added, nothing taken. */
mf_result mf_gpu_batch_physics_acquire(mf_gpu_batch *b, const mf_gpu_rig *rig, int32_t *state);
mf_result mf_gpu_batch_physics_release(mf_gpu_batch *b, int32_t state);
mf_result mf_gpu_batch_add_physics(mf_gpu_batch *b, const mf_gpu_rig *rig, mf_pose *pose, int32_t state,
                                   const float *xf);

/* Records the frame's work into the host's command buffer (recording, outside a render pass,
 * of the device's queue family): the upload copy, the dispatches, and a barrier that makes the
 * streams ready for vertex and index input, vertex shader reads and transfer reads. A family without graphics
 * (async compute) gets a barrier to transfer only: drawing them on another family is the host's
 * to synchronise (semaphore, queue family ownership transfer of the buffers). Nothing is
 * recorded when the frame has no items. */
mf_result mf_gpu_batch_record(mf_gpu_batch *b, VkCommandBuffer cmd);
/* Records into the batch's own command buffer and submits it to the device's queue; the next
 * begin() of this slot, mf_gpu_batch_wait or destroy waits for it. */
mf_result mf_gpu_batch_submit(mf_gpu_batch *b);
/* Waits for the last submit; sets gpu_ms. */
mf_result mf_gpu_batch_wait(mf_gpu_batch *b);
/* After mf_gpu_batch_wait, with desc.readback: copies the last submitted frame's streams
 * (vertex_count vertices, index_count indices) to the host's arrays. MF_ERR_ARGUMENT without
 * readback or before any submit. */
mf_result mf_gpu_batch_read(const mf_gpu_batch *b, mf_batch_vertex *vertices, uint32_t *indices);
/* After mf_gpu_batch_wait, with desc.readback_world: writes the world transforms the GPU
 * computed for the last submitted frame's skeleton-th instance (0-based, in the order of that
 * frame's successful mf_gpu_batch_add, _add_local and _add_physics calls together: the value
 * b->skeletons had before the add; refused adds count nothing) into the pose's world arrays
 * (a, b, c, d, wx, wy of every bone; an inactive bone's as the GPU computed it; physics applied
 * for an add_physics), in skeleton
 * space as mf_pose_update_world writes them (the placement xf is not in them), within float
 * rounding of the CPU's (IK near full reach: see the top). The host then reads bones from the
 * pose as usual. The pose may be the one added or any pose of the same data; its local and
 * applied values are left as they are, and it is told its world changed (mf_pose_world_changed:
 * the next mf_pose_update_world computes every bone, keeping none of the GPU's world).
 *   MF_OK;
 *   MF_ERR_UNSUPPORTED  the instance's palette did not come from the GPU: it was added with
 *                       add() (the pose's world is the CPU's already), or with add_local()
 *                       showing nothing to draw (not posed: update the world on the CPU);
 *                       the pose is left as it was;
 *   MF_ERR_ARGUMENT     NULLs, readback_world off, nothing submitted (mf_gpu_batch_submit) or
 *                       not waited for, skeleton out of range, or a pose of another data. */
mf_result mf_gpu_batch_read_world(const mf_gpu_batch *b, int32_t skeleton, mf_pose *pose);

#ifdef __cplusplus
}
#endif
#endif
