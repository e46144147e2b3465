/* The in-memory rig the GPU tests share (test_gpu_batch, test_gpu_host): regions, weighted
 * and unweighted meshes with deform keys, a clipping range, two blends and a dark colour. */
#ifndef MF_TEST_GPU_RIG_H
#define MF_TEST_GPU_RIG_H
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "mf/mf_draw_batch.h"
#include "mf/mf_gpu.h"
#include "pose_rig.h"

/* The tests' device (headless, a CPU implementation first, validation on; alloc zeroed: malloc):
 * 0 with *out set; without one 0 with *out NULL (the tests skip), or -1 when MF_REQUIRE_GPU is
 * set. why (size bytes) gets the reason. */
static inline int gpu_test_open(const char *test, mf_allocator alloc, mf_gpu_device **out, char *why, size_t size)
{
    mf_diag diag;
    mf_diag_clear(&diag);
    mf_gpu_device_desc desc = {.prefer_cpu = true, .validate = true, .alloc = alloc};
    mf_result r = mf_gpu_device_create(&desc, out, &diag);
    if (r != MF_OK) {
        char msg[1100];
        mf_diag_format(&diag, msg, sizeof msg);
        snprintf(why, size, "%s: %s", mf_result_name(r), msg);
        if (getenv("MF_REQUIRE_GPU")) {
            fprintf(stderr, "no Vulkan device and MF_REQUIRE_GPU is set: %s\n", why);
            return -1;
        }
        fprintf(stderr, "%s: SKIPPED: no Vulkan device (%s)\n", test, why);
        return 0;
    }
    bool layer = false;
    mf_gpu_device_messages(*out, &layer);
    fprintf(stderr, "%s: device %s%s\n", test, mf_gpu_device_name(*out),
            layer ? ", validation layer on" : ", no validation layer installed");
    return 0;
}

/* In a test: skip it when the group's device could not be opened. */
#define GPU_NEED_DEVICE(dev)                                                                                         \
    do {                                                                                                              \
        if (!(dev)) {                                                                                                 \
            fprintf(stderr, "SKIPPED: no Vulkan device\n");                                                           \
            skip();                                                                                                   \
        }                                                                                                             \
    } while (0)

/* Positions from the GPU within float rounding of the CPU's (it may fuse multiply-adds). */
static inline bool gpu_close(float a, float b) { return fabsf(a - b) <= 2e-3f + 2e-5f * fabsf(b); }

/* Two draw calls field by field (the struct has padding). */
static inline bool gpu_call_same(const mf_draw_call *a, const mf_draw_call *e)
{
    return a->page == e->page && a->image == e->image && a->blend == e->blend && a->vertex_first == e->vertex_first &&
           a->vertex_count == e->vertex_count && a->index_first == e->index_first && a->index_count == e->index_count;
}

/* Positions of instances whose physics springs ran on the GPU for many frames, against CPU twins:
 * 0.01 px + 1e-5 relative (test_gpu_physics says why: each frame's float rounding enters the
 * springs' state; some 30 times the largest difference seen on PHYS_RIG). */
static inline bool gpu_close_phys(float a, float b) { return fabsf(a - b) <= 1e-2f + 1e-5f * fabsf(b); }

/* Positions of a world the GPU solved IK for: in floats where the CPU solves in doubles. Near a
 * chain's full reach the law of cosines is ill-conditioned (acos near 1): a target moved by
 * float rounding turns the chain by up to about 5e-4 rad, a few hundredths of a pixel at the
 * end of a limb (a straight limb in the setup pose is such a case). */
static inline bool gpu_close_ik(float a, float b) { return fabsf(a - b) <= 0.1f + 2e-4f * fabsf(b); }

/* gpu_expect_streams with the positions compared by close (gpu_close, gpu_close_ik); *worst
 * (NULL: none) gets the largest position difference seen. */
static inline void gpu_expect_streams_by(const mf_draw_batch *cb, const mf_draw_call *calls, int32_t call_count,
                                         const mf_batch_vertex *gv, int32_t vertex_count, const uint32_t *gi,
                                         int32_t index_count, bool (*close)(float, float), double *worst)
{
    assert_int_equal(vertex_count, cb->vertex_count);
    assert_int_equal(index_count, cb->index_count);
    assert_int_equal(call_count, cb->call_count);
    for (int32_t c = 0; c < call_count; c++) assert_true(gpu_call_same(&calls[c], &cb->calls[c]));
    if (index_count) assert_memory_equal(gi, cb->indices, (size_t)index_count * sizeof(uint32_t));
    for (int32_t v = 0; v < vertex_count; v++) {
        const mf_batch_vertex *a = &gv[v], *e = &cb->vertices[v];
        if (!close(a->x, e->x) || !close(a->y, e->y))
            fail_msg("vertex %d: gpu (%.6f, %.6f), cpu (%.6f, %.6f)", v, a->x, a->y, e->x, e->y);
        double d = fabs((double)a->x - e->x) > fabs((double)a->y - e->y) ? fabs((double)a->x - e->x)
                                                                          : fabs((double)a->y - e->y);
        if (worst && d > *worst) *worst = d;
        assert_true(a->u == e->u && a->v == e->v);
        assert_int_equal(a->light, e->light);
        assert_int_equal(a->dark, e->dark);
    }
}

/* The GPU's streams (calls, vertices, indices) against the CPU batch of the same skeletons:
 * the same calls, indices, uvs and colours, positions within float rounding. */
static inline void gpu_expect_streams(const mf_draw_batch *cb, const mf_draw_call *calls, int32_t call_count,
                                      const mf_batch_vertex *gv, int32_t vertex_count, const uint32_t *gi,
                                      int32_t index_count)
{
    gpu_expect_streams_by(cb, calls, call_count, gv, vertex_count, gi, index_count, gpu_close, NULL);
}

/* A 2×2 entry of a bone's world from the GPU (a scale times a cosine or sine: no pixels to
 * scale the bound, so a floor and a relative part): float rounding's, or with IK solved in floats
 * (as gpu_close_ik: near full reach an angle off by some 5e-4 rad; 6.6e-4 seen in IK_RIG) a floor
 * of 2e-3 and 1e-3 relative. */
static inline bool gpu_close_m(float a, float b) { return fabsf(a - b) <= 1e-4f + 1e-4f * fabsf(b); }
static inline bool gpu_close_m_ik(float a, float b) { return fabsf(a - b) <= 2e-3f + 1e-3f * fabsf(b); }

/* A pose's world read back from the GPU (mf_gpu_batch_read_world) against the CPU's, every
 * active bone (the CPU leaves an inactive one's as it was); *pos and *m (NULL: none) get the
 * largest differences. */
static inline void gpu_expect_world(const mf_pose *g, const mf_pose *c, bool ik, double *pos, double *m)
{
    assert_int_equal(g->bone_count, c->bone_count);
    bool (*close)(float, float) = ik ? gpu_close_ik : gpu_close, (*close_m)(float, float) = ik ? gpu_close_m_ik : gpu_close_m;
    for (int32_t i = 0; i < c->bone_count; i++) {
        if (!c->active[i]) continue;
        const float gv[6] = {g->a[i], g->b[i], g->c[i], g->d[i], g->wx[i], g->wy[i]};
        const float cv[6] = {c->a[i], c->b[i], c->c[i], c->d[i], c->wx[i], c->wy[i]};
        for (int k = 0; k < 6; k++) {
            bool ok = k < 4 ? close_m(gv[k], cv[k]) : close(gv[k], cv[k]);
            if (!ok) fail_msg("bone %d: world %s %.6f, the CPU's %.6f", i, (const char *[]){"a", "b", "c", "d", "wx", "wy"}[k], gv[k], cv[k]);
            double e = fabs((double)gv[k] - (double)cv[k]);
            double *worst = k < 4 ? m : pos;
            if (worst && e > *worst) *worst = e;
        }
    }
}

/* A world no one may read (the GPU computes it: mf_gpu_batch_add_local): NaN, and the pose told
 * its world changed (the next update computes every bone again). */
static inline void poison_world(mf_pose *p)
{
    float *w[6] = {p->a, p->b, p->c, p->d, p->wx, p->wy};
    for (int k = 0; k < 6; k++)
        for (int32_t i = 0; i < p->bone_count; i++) w[k][i] = NAN;
    mf_pose_world_changed(p);
}

/* LeakSanitizer (the sanitized build) in a GPU test: the validation layer's synchronization
 * validation leaves C++ objects in cycles at exit (VK_LAYER_KHRONOS_validation 1.3.239); our
 * code is C and allocates nothing through libstdc++, so only C++ libraries' blocks are let go.
 * One definition an executable: each GPU test is one file. */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void) { return "leak:libstdc++.so\n"; }

/* Mesa's driver and the validation layer are unloaded with the instance, and what their
 * globals still hold then shows as a leak from an unknown module; kept mapped (call first in
 * main), it stays reachable, and LeakSanitizer checks our own blocks alone. */
static inline void gpu_test_keep_driver_mapped(void)
{
    dlopen("libvulkan_lvp.so", RTLD_NOW | RTLD_NODELETE);
    dlopen("libVkLayer_khronos_validation.so", RTLD_NOW | RTLD_NODELETE);
}

/* Regions (one Additive with a dark colour), an unweighted mesh with a deform clip, a clipping
 * range over a region and a mesh, a weighted mesh. */
static const char *SCENE_RIG __attribute__((unused)) = RIG_HEAD
    "\"bones\":[{\"name\":\"root\"},{\"name\":\"arm\",\"parent\":\"root\",\"x\":10,\"rot\":20},"
    "{\"name\":\"hand\",\"parent\":\"arm\",\"x\":25}],"
    "\"slots\":[{\"name\":\"r0\",\"bone\":\"root\",\"attachment\":\"r0\",\"color\":\"#ff8040c0\"},"
    "{\"name\":\"m0\",\"bone\":\"arm\",\"attachment\":\"m0\"},"
    "{\"name\":\"clip\",\"bone\":\"root\",\"attachment\":\"clip\"},"
    "{\"name\":\"r1\",\"bone\":\"arm\",\"attachment\":\"r1\"},"
    "{\"name\":\"m1\",\"bone\":\"root\",\"attachment\":\"m1\"},"
    "{\"name\":\"w\",\"bone\":\"root\",\"attachment\":\"w\",\"blend\":\"Additive\",\"dark\":\"#203040\"}],"
    "\"skins\":[{\"name\":\"default\",\"attachments\":["
    "{\"slot\":\"r0\",\"name\":\"r0\",\"type\":\"Region\",\"x\":-30,\"rot\":15,\"width\":20,\"height\":12},"
    "{\"slot\":\"m0\",\"name\":\"m0\",\"type\":\"Mesh\",\"hull\":4,\"uvs\":[0,0,1,0,1,1,0,1],"
    "\"vertices\":[0,0,30,0,30,30,0,30],\"triangles\":[0,1,2,0,2,3]},"
    "{\"slot\":\"clip\",\"name\":\"clip\",\"type\":\"Clipping\",\"end\":\"m1\","
    "\"vertices\":[-12,-12,28,-8,24,30,-10,26]},"
    "{\"slot\":\"r1\",\"name\":\"r1\",\"type\":\"Region\",\"x\":5,\"width\":24,\"height\":24},"
    "{\"slot\":\"m1\",\"name\":\"m1\",\"type\":\"Mesh\",\"hull\":4,\"uvs\":[0,0,1,0,1,1,0,1],"
    "\"vertices\":[-5,-5,35,-5,35,35,-5,35],\"triangles\":[0,1,2,0,2,3]},"
    "{\"slot\":\"w\",\"name\":\"w\",\"type\":\"Mesh\",\"hull\":3,\"uvs\":[0,0,1,0,1,1],\"triangles\":[0,1,2],"
    "\"weights\":{\"bones\":[\"arm\",\"hand\"],\"v\":[[0,0.5,1,1,1,0.5,2,2],[0,0.25,9,1,1,0.75,6,2],[1,1,0,0]]}}"
    "]}]}";

/* No constraints and no clipping (the GPU may compute its world: mf_gpu_batch_add_local): every
 * inherit mode, shears, non-uniform and negative scales (a reflected parent), regions on each
 * bone, an unweighted mesh and a weighted one with deform keys, an inherit key; in the second
 * clip, a NoRotationOrReflection bone under a parent scaled to 0 in x (its other case). */
static const char *WORLD_RIG __attribute__((unused)) = RIG_HEAD
    "\"bones\":[{\"name\":\"root\",\"x\":4,\"y\":-2,\"rot\":5,\"sx\":1.1},"
    "{\"name\":\"arm\",\"parent\":\"root\",\"x\":10,\"rot\":20,\"sx\":1.5,\"sy\":0.7,\"shx\":6,\"shy\":-9},"
    "{\"name\":\"flip\",\"parent\":\"root\",\"x\":-8,\"y\":3,\"sy\":-1.2},"
    "{\"name\":\"nrr\",\"parent\":\"arm\",\"x\":25,\"rot\":-15,\"inherit\":\"NoRotationOrReflection\"},"
    "{\"name\":\"ns\",\"parent\":\"flip\",\"x\":12,\"rot\":30,\"sx\":0.8,\"inherit\":\"NoScale\"},"
    "{\"name\":\"nsr\",\"parent\":\"flip\",\"x\":6,\"y\":4,\"rot\":-40,\"inherit\":\"NoScaleOrReflection\"},"
    "{\"name\":\"ot\",\"parent\":\"arm\",\"x\":5,\"y\":5,\"rot\":10,\"inherit\":\"OnlyTranslation\"},"
    "{\"name\":\"tip\",\"parent\":\"nrr\",\"x\":8,\"shy\":12}],"
    "\"slots\":[{\"name\":\"a\",\"bone\":\"arm\",\"attachment\":\"r\"},"
    "{\"name\":\"b\",\"bone\":\"nrr\",\"attachment\":\"r\",\"blend\":\"Additive\"},"
    "{\"name\":\"c\",\"bone\":\"ns\",\"attachment\":\"r\",\"dark\":\"#102030\"},"
    "{\"name\":\"d\",\"bone\":\"nsr\",\"attachment\":\"r\"},"
    "{\"name\":\"e\",\"bone\":\"ot\",\"attachment\":\"r\",\"color\":\"#80ff40c0\"},"
    "{\"name\":\"f\",\"bone\":\"tip\",\"attachment\":\"r\"},"
    "{\"name\":\"m\",\"bone\":\"flip\",\"attachment\":\"m\"},"
    "{\"name\":\"w\",\"bone\":\"root\",\"attachment\":\"w\"}],"
    "\"skins\":[{\"name\":\"default\",\"attachments\":["
    "{\"slot\":\"a\",\"name\":\"r\",\"type\":\"Region\",\"x\":3,\"y\":-2,\"rot\":15,\"width\":20,\"height\":12},"
    "{\"slot\":\"b\",\"name\":\"r\",\"type\":\"Region\",\"x\":2,\"width\":10,\"height\":14},"
    "{\"slot\":\"c\",\"name\":\"r\",\"type\":\"Region\",\"x\":-4,\"y\":6,\"width\":16,\"height\":8},"
    "{\"slot\":\"d\",\"name\":\"r\",\"type\":\"Region\",\"rot\":-30,\"width\":12,\"height\":12},"
    "{\"slot\":\"e\",\"name\":\"r\",\"type\":\"Region\",\"x\":1,\"y\":1,\"width\":6,\"height\":18},"
    "{\"slot\":\"f\",\"name\":\"r\",\"type\":\"Region\",\"x\":4,\"width\":8,\"height\":8},"
    "{\"slot\":\"m\",\"name\":\"m\",\"type\":\"Mesh\",\"hull\":4,\"uvs\":[0,0,1,0,1,1,0,1],"
    "\"vertices\":[0,0,30,0,30,30,0,30],\"triangles\":[0,1,2,0,2,3]},"
    "{\"slot\":\"w\",\"name\":\"w\",\"type\":\"Mesh\",\"hull\":3,\"uvs\":[0,0,1,0,1,1],\"triangles\":[0,1,2],"
    "\"weights\":{\"bones\":[\"arm\",\"ns\",\"tip\"],\"v\":[[0,0.5,1,1,1,0.5,2,2],[1,0.25,9,1,2,0.75,6,2],[2,1,0,0]]}}"
    "]}]}";

static const char *const WORLD_NAMES[] __attribute__((unused)) = {"wave", "spin"};
static const char *const WORLD_CLIPS[] __attribute__((unused)) = {
    CLIP_HEAD "\"length\":1,\"bones\":{\"root\":{\"rotate\":{\"t\":[0,1],\"v\":[-20,30]}},"
    "\"arm\":{\"rotate\":{\"t\":[0,0.5,1],\"v\":[-60,40,120]},\"shear\":{\"t\":[0,1],\"v\":[[0,0],[20,-15]]}},"
    "\"flip\":{\"scale\":{\"t\":[0,1],\"v\":[[1,1],[1.3,-0.5]]}},"
    "\"ns\":{\"translate\":{\"t\":[0,1],\"v\":[[0,0],[5,-7]]}},"
    "\"tip\":{\"inherit\":{\"t\":[0,0.5],\"v\":[\"Normal\",\"NoScale\"]}}},"
    "\"deform\":{\"default\":{\"m\":{\"m\":{\"t\":[0.1,0.8],\"v\":[[1,2,3,4,5,6,7,8],[-5,6,7,-8,9,-10,0,1]]}},"
    "\"w\":{\"w\":{\"t\":[0,0.6],\"v\":[[1,2,3,4,5,6,7,8,9,10],[-3,1,0,2,-1,4,2,2,0,-5]]}}}}}",
    /* turns far past a full circle: the GPU's cos and sin reduce their angle first; arm scaled
     * to 0 in x for the first 0.4 s */
    CLIP_HEAD "\"length\":1,\"bones\":{\"nrr\":{\"rotate\":{\"t\":[0,1],\"v\":[400,1900]}},"
    "\"nsr\":{\"rotate\":{\"t\":[0,1],\"v\":[-720,-3000]}},\"arm\":{\"scale\":{\"t\":[0,0.4,0.41],\"v\":[[0,1],[0,1],[1,1]]}},\"ot\":{\"scale\":{\"t\":[0,1],\"v\":[[1,1],[-2,0.5]]}}}}"};

/* Physics constraints (the GPU steps their springs: mf_gpu_batch_add_physics): hair with x, y
 * and rotate under gravity and wind, a child under it (hair2: rotate and shearX, a speed limit),
 * a tail with scaleX, shearX and rotate at 30 fps (damping's powf), a bob with only x and y
 * (its applied origin alone recomputed) and a constraint mix, a NoScale bone that turns, and a
 * local transform constraint after them reading hair's applied values; the clip swings and
 * moves the root (the springs lag and swing), keys the bob's mix and the tail's wind and has a
 * reset key for hair at 0.5 s. Regions on the physics bones and a mesh weighted across hair and
 * hair2. */
static const char *PHYS_RIG __attribute__((unused)) = RIG_HEAD
    "\"bones\":[{\"name\":\"root\"},{\"name\":\"body\",\"parent\":\"root\",\"y\":-20,\"length\":20,\"sx\":1.2,\"sy\":0.85},"
    "{\"name\":\"hair\",\"parent\":\"body\",\"x\":5,\"rot\":90,\"length\":40},"
    "{\"name\":\"hair2\",\"parent\":\"hair\",\"x\":40,\"rot\":10,\"length\":30},"
    "{\"name\":\"tail\",\"parent\":\"body\",\"x\":-10,\"rot\":170,\"length\":50,\"sy\":0.8},"
    "{\"name\":\"bob\",\"parent\":\"root\",\"x\":30,\"y\":10,\"length\":0},"
    "{\"name\":\"ns\",\"parent\":\"body\",\"x\":12,\"y\":-6,\"rot\":-60,\"length\":25,\"sx\":1.3,\"inherit\":\"NoScale\"},"
    "{\"name\":\"follow\",\"parent\":\"root\",\"x\":-30,\"length\":15}],"
    "\"slots\":[{\"name\":\"h\",\"bone\":\"hair\",\"attachment\":\"r\"},{\"name\":\"h2\",\"bone\":\"hair2\",\"attachment\":\"r\"},"
    "{\"name\":\"t\",\"bone\":\"tail\",\"attachment\":\"r\"},{\"name\":\"b\",\"bone\":\"bob\",\"attachment\":\"r\"},"
    "{\"name\":\"n\",\"bone\":\"ns\",\"attachment\":\"r\"},{\"name\":\"f\",\"bone\":\"follow\",\"attachment\":\"r\"},"
    "{\"name\":\"w\",\"bone\":\"root\",\"attachment\":\"w\"}],"
    "\"physics\":[{\"name\":\"p_hair\",\"order\":0,\"bone\":\"hair\",\"x\":1,\"y\":0.7,\"rotate\":1,\"inertia\":0.8,\"strength\":80,"
    "\"damping\":0.9,\"gravity\":20,\"wind\":5},"
    "{\"name\":\"p_hair2\",\"order\":1,\"bone\":\"hair2\",\"rotate\":1,\"shearX\":0.5,\"inertia\":0.6,\"strength\":120,"
    "\"damping\":0.85,\"limit\":600},"
    "{\"name\":\"p_tail\",\"order\":2,\"bone\":\"tail\",\"scaleX\":1,\"shearX\":1,\"rotate\":0.5,\"gravity\":40,\"wind\":-10,"
    "\"damping\":0.8,\"mass\":2,\"step\":0.033333335},"
    "{\"name\":\"p_bob\",\"order\":3,\"bone\":\"bob\",\"x\":1,\"y\":1,\"strength\":50,\"damping\":0.95,\"gravity\":10,\"mix\":0.5},"
    "{\"name\":\"p_ns\",\"order\":4,\"bone\":\"ns\",\"rotate\":1,\"inertia\":0.9,\"strength\":60,\"damping\":0.9}],"
    "\"transform\":[{\"name\":\"tf\",\"order\":9,\"bones\":[\"follow\",\"hair2\"],\"target\":\"hair\",\"local\":true,"
    "\"mixRotate\":0.5,\"mixX\":0.3,\"mixY\":0.3,\"mixScaleX\":0,\"mixScaleY\":0.5,\"mixShearY\":0}],"
    "\"skins\":[{\"name\":\"default\",\"attachments\":["
    "{\"slot\":\"h\",\"name\":\"r\",\"type\":\"Region\",\"x\":20,\"width\":40,\"height\":10},"
    "{\"slot\":\"h2\",\"name\":\"r\",\"type\":\"Region\",\"x\":15,\"width\":30,\"height\":8},"
    "{\"slot\":\"t\",\"name\":\"r\",\"type\":\"Region\",\"x\":25,\"rot\":5,\"width\":50,\"height\":12},"
    "{\"slot\":\"b\",\"name\":\"r\",\"type\":\"Region\",\"width\":10,\"height\":10},"
    "{\"slot\":\"n\",\"name\":\"r\",\"type\":\"Region\",\"x\":12,\"width\":25,\"height\":6},"
    "{\"slot\":\"f\",\"name\":\"r\",\"type\":\"Region\",\"x\":7,\"width\":15,\"height\":6},"
    "{\"slot\":\"w\",\"name\":\"w\",\"type\":\"Mesh\",\"hull\":3,\"uvs\":[0,0,1,0,1,1],\"triangles\":[0,1,2],"
    "\"weights\":{\"bones\":[\"hair\",\"hair2\"],\"v\":[[0,1,10,4],[0,0.5,38,-3,1,0.5,-2,-3],[1,1,28,5]]}}"
    "]}]}";

static const char *const PHYS_NAMES[] __attribute__((unused)) = {"swing"};
static const char *const PHYS_CLIPS[] __attribute__((unused)) = {
    CLIP_HEAD "\"length\":1,\"bones\":{\"root\":{\"translate\":{\"t\":[0,0.25,0.5,0.75,1],"
    "\"v\":[[0,0],[120,-30],[-60,20],[40,60],[0,0]]},\"rotate\":{\"t\":[0,0.5,1],\"v\":[0,25,0]}},"
    "\"body\":{\"rotate\":{\"t\":[0,0.3,0.7,1],\"v\":[0,-40,30,0]}}},"
    "\"physics\":{\"p_hair\":{\"reset\":{\"t\":[0.5]}},\"p_bob\":{\"mix\":{\"t\":[0,1],\"v\":[0.2,1]}},"
    "\"p_tail\":{\"wind\":{\"t\":[0,1],\"v\":[0,30]}}}}"};

/* IK its only constraints (the GPU may compute its world with them): two-bone chains with the
 * target in and out of reach, softness, stretch, bend keyed both ways, a non-uniformly scaled
 * parent (the ellipse), a child off its parent's axis, a reflected chain; one-bone IK on
 * bones with NoRotationOrReflection, OnlyTranslation and NoScale, with compress, stretch,
 * uniform and a mix. */
static const char *IK_RIG __attribute__((unused)) = RIG_HEAD
    "\"bones\":[{\"name\":\"root\"},{\"name\":\"hip\",\"parent\":\"root\",\"y\":-10},"
    "{\"name\":\"thigh\",\"parent\":\"hip\",\"rot\":-80,\"length\":40},"
    "{\"name\":\"shin\",\"parent\":\"thigh\",\"x\":40,\"length\":35},{\"name\":\"foot_t\",\"parent\":\"root\",\"x\":10,\"y\":70},"
    "{\"name\":\"arm\",\"parent\":\"hip\",\"x\":5,\"y\":-5,\"length\":30,\"sx\":1.2,\"sy\":0.8},"
    "{\"name\":\"fore\",\"parent\":\"arm\",\"x\":30,\"y\":3,\"length\":25},"
    "{\"name\":\"hand_t\",\"parent\":\"root\",\"x\":50,\"y\":-20},"
    "{\"name\":\"neck\",\"parent\":\"hip\",\"y\":-20,\"length\":15,\"inherit\":\"NoRotationOrReflection\"},"
    "{\"name\":\"look_t\",\"parent\":\"root\",\"x\":30,\"y\":-60},"
    "{\"name\":\"tail\",\"parent\":\"hip\",\"x\":-10,\"length\":20,\"sx\":-1},"
    "{\"name\":\"tail_t\",\"parent\":\"root\",\"x\":-40,\"y\":10},"
    "{\"name\":\"ot\",\"parent\":\"hip\",\"x\":8,\"length\":10,\"inherit\":\"OnlyTranslation\"},"
    "{\"name\":\"ns\",\"parent\":\"hip\",\"x\":-4,\"y\":4,\"length\":12,\"sx\":1.5,\"inherit\":\"NoScale\"},"
    "{\"name\":\"thigh2\",\"parent\":\"hip\",\"rot\":-100,\"sx\":-1,\"length\":40},"
    "{\"name\":\"shin2\",\"parent\":\"thigh2\",\"x\":40,\"length\":35},"
    "{\"name\":\"foot2_t\",\"parent\":\"root\",\"x\":-20,\"y\":60}],\"ik\":[{\"name\":\"leg\",\"order\":0,\"bones\":[\"thigh\",\"shin\"],\"target\":\"foot_t\",\"softness\":5,\"stretch\":true},"
    "{\"name\":\"reach\",\"order\":1,\"bones\":[\"arm\",\"fore\"],\"target\":\"hand_t\",\"bend\":-1},"
    "{\"name\":\"look\",\"order\":2,\"bones\":[\"neck\"],\"target\":\"look_t\",\"compress\":true,\"stretch\":true,\"uniform\":true},"
    "{\"name\":\"wag\",\"order\":3,\"bones\":[\"tail\"],\"target\":\"tail_t\",\"compress\":true,\"stretch\":true,\"uniform\":true},"
    "{\"name\":\"follow\",\"order\":4,\"bones\":[\"ot\"],\"target\":\"look_t\",\"mix\":0.5},"
    "{\"name\":\"grow\",\"order\":5,\"bones\":[\"ns\"],\"target\":\"hand_t\",\"stretch\":true},"
    "{\"name\":\"leg2\",\"order\":6,\"bones\":[\"thigh2\",\"shin2\"],\"target\":\"foot2_t\",\"bend\":-1}],\"slots\":[{\"name\":\"thigh\",\"bone\":\"thigh\",\"attachment\":\"r\"},"
    "{\"name\":\"shin\",\"bone\":\"shin\",\"attachment\":\"r\"},{\"name\":\"arm\",\"bone\":\"arm\",\"attachment\":\"r\"},"
    "{\"name\":\"fore\",\"bone\":\"fore\",\"attachment\":\"r\"},{\"name\":\"neck\",\"bone\":\"neck\",\"attachment\":\"r\"},"
    "{\"name\":\"tail\",\"bone\":\"tail\",\"attachment\":\"r\"},{\"name\":\"ot\",\"bone\":\"ot\",\"attachment\":\"r\"},"
    "{\"name\":\"ns\",\"bone\":\"ns\",\"attachment\":\"r\"},{\"name\":\"thigh2\",\"bone\":\"thigh2\",\"attachment\":\"r\"},"
    "{\"name\":\"shin2\",\"bone\":\"shin2\",\"attachment\":\"r\"},"
    "{\"name\":\"w\",\"bone\":\"root\",\"attachment\":\"w\"}],\"skins\":[{\"name\":\"default\",\"attachments\":[{\"slot\":\"thigh\",\"name\":\"r\",\"type\":\"Region\",\"x\":8,\"y\":1,\"width\":16,\"height\":6},"
    "{\"slot\":\"shin\",\"name\":\"r\",\"type\":\"Region\",\"x\":8,\"y\":1,\"width\":16,\"height\":6},"
    "{\"slot\":\"arm\",\"name\":\"r\",\"type\":\"Region\",\"x\":8,\"y\":1,\"width\":16,\"height\":6},"
    "{\"slot\":\"fore\",\"name\":\"r\",\"type\":\"Region\",\"x\":8,\"y\":1,\"width\":16,\"height\":6},"
    "{\"slot\":\"neck\",\"name\":\"r\",\"type\":\"Region\",\"x\":8,\"y\":1,\"width\":16,\"height\":6},"
    "{\"slot\":\"tail\",\"name\":\"r\",\"type\":\"Region\",\"x\":8,\"y\":1,\"width\":16,\"height\":6},"
    "{\"slot\":\"ot\",\"name\":\"r\",\"type\":\"Region\",\"x\":8,\"y\":1,\"width\":16,\"height\":6},"
    "{\"slot\":\"ns\",\"name\":\"r\",\"type\":\"Region\",\"x\":8,\"y\":1,\"width\":16,\"height\":6},"
    "{\"slot\":\"thigh2\",\"name\":\"r\",\"type\":\"Region\",\"x\":8,\"y\":1,\"width\":16,\"height\":6},"
    "{\"slot\":\"shin2\",\"name\":\"r\",\"type\":\"Region\",\"x\":8,\"y\":1,\"width\":16,\"height\":6},"
    "{\"slot\":\"w\",\"name\":\"w\",\"type\":\"Mesh\",\"hull\":3,\"uvs\":[0,0,1,0,1,1],\"triangles\":[0,1,2],\"weights\":{\"bones\":[\"thigh\",\"shin\",\"fore\"],\"v\":[[0,0.5,10,1,1,0.5,-30,2],[1,1,20,0],[2,1,5,5]]}}]}]}";
/* the targets' keys are offsets from their setup positions */
static const char *const IK_NAMES[] __attribute__((unused)) = {"reach", "squash"};
static const char *const IK_CLIPS[] __attribute__((unused)) = {
    CLIP_HEAD "\"length\":1,\"bones\":{\"foot_t\":{\"translate\":{\"t\":[0,0.3,0.6,1],\"v\":[[0,0],[-10,-50],[50,50],[-5,4]]}},\"hand_t\":{\"translate\":{\"t\":[0,0.5,1],\"v\":[[0,0],[-20,10],[90,-20]]}},\"tail_t\":{\"translate\":{\"t\":[0,0.5,1],\"v\":[[0,0],[25,-5],[-50,20]]}},\"look_t\":{\"translate\":{\"t\":[0,0.5,1],\"v\":[[0,0],[-27,28],[-80,40]]}},\"foot2_t\":{\"translate\":{\"t\":[0,0.5,1],\"v\":[[0,0],[-40,-40],[10,70]]}},\"hip\":{\"rotate\":{\"t\":[0,1],\"v\":[-15,25]}}},\"ik\":{\"leg\":{\"t\":[0,0.2,0.5],\"mix\":[1,1,0.6],\"softness\":[5,5,0],\"bend\":[1,-1,-1]},\"reach\":{\"t\":[0,0.7],\"mix\":[1,0.8]}}}",
    CLIP_HEAD "\"length\":1,\"bones\":{\"hip\":{\"scale\":{\"t\":[0,1],\"v\":[[1,1],[1.4,0.7]]}},\"arm\":{\"scale\":{\"t\":[0,1],\"v\":[[1.2,0.8],[1,1]]}},\"foot_t\":{\"translate\":{\"t\":[0,1],\"v\":[[0,0],[190,-30]]}},\"hand_t\":{\"translate\":{\"t\":[0,1],\"v\":[[0,0],[-45,20]]}}}}"};

/* IK's edge cases: a chain whose child sits on its parent's origin (ik_two's l1 < 0.0001: the
 * parent alone turns, the child's rotation is 0), with stretch and a mix; a chain "self" whose
 * two bones the test makes one (parent == child, which the build refuses but a hand-made file
 * may hold) on a sheared bone; a sheared, non-uniformly scaled parent with a reflected child
 * and a mix, its target out of reach both ways (the ellipse's extremes); one bone turned past
 * ±180 with a mix (the wrap); one bone under a parent scaled near 0 (no inverse); a chain with
 * a NoScale child (not solved). */
static const char *IK_EDGE_RIG __attribute__((unused)) = RIG_HEAD
    "\"bones\":[{\"name\":\"root\"},{\"name\":\"up\",\"parent\":\"root\",\"x\":10,\"rot\":30,\"length\":20},"
    "{\"name\":\"lo\",\"parent\":\"up\",\"rot\":40,\"shx\":25,\"length\":30},"
    "{\"name\":\"t1\",\"parent\":\"root\",\"x\":30,\"y\":20},"
    "{\"name\":\"sh\",\"parent\":\"root\",\"x\":-20,\"rot\":10,\"shx\":20,\"shy\":-10,\"length\":25},"
    "{\"name\":\"sc\",\"parent\":\"sh\",\"x\":25,\"length\":20},"
    "{\"name\":\"t2\",\"parent\":\"root\",\"x\":-40,\"y\":30},"
    "{\"name\":\"p3\",\"parent\":\"root\",\"y\":40,\"sx\":0.8,\"sy\":1.2,\"shx\":15,\"length\":30},"
    "{\"name\":\"c3\",\"parent\":\"p3\",\"x\":30,\"rot\":20,\"sx\":-1,\"length\":25},"
    "{\"name\":\"t3\",\"parent\":\"root\",\"x\":60,\"y\":60},"
    "{\"name\":\"w1\",\"parent\":\"root\",\"x\":5,\"y\":-30,\"rot\":170,\"length\":20},"
    "{\"name\":\"t4\",\"parent\":\"root\",\"x\":-40,\"y\":-37},"
    "{\"name\":\"tiny\",\"parent\":\"root\",\"x\":20,\"y\":-40,\"sx\":0.005,\"sy\":0.005},"
    "{\"name\":\"tb\",\"parent\":\"tiny\",\"rot\":30,\"sx\":100,\"sy\":100,\"length\":10},"
    "{\"name\":\"q\",\"parent\":\"root\",\"x\":-30,\"y\":-30,\"length\":20},"
    "{\"name\":\"qc\",\"parent\":\"q\",\"x\":20,\"length\":15,\"inherit\":\"NoScale\"}],"
    "\"ik\":[{\"name\":\"fold\",\"order\":0,\"bones\":[\"up\",\"lo\"],\"target\":\"t1\",\"stretch\":true,\"mix\":0.7},"
    "{\"name\":\"self\",\"order\":1,\"bones\":[\"sh\",\"sc\"],\"target\":\"t2\"},"
    "{\"name\":\"ell\",\"order\":2,\"bones\":[\"p3\",\"c3\"],\"target\":\"t3\",\"mix\":0.6},"
    "{\"name\":\"spin\",\"order\":3,\"bones\":[\"w1\"],\"target\":\"t4\",\"mix\":0.5},"
    "{\"name\":\"flat\",\"order\":4,\"bones\":[\"tb\"],\"target\":\"t4\"},"
    "{\"name\":\"skip\",\"order\":5,\"bones\":[\"q\",\"qc\"],\"target\":\"t1\"}],"
    "\"slots\":[{\"name\":\"up\",\"bone\":\"up\",\"attachment\":\"r\"},{\"name\":\"lo\",\"bone\":\"lo\",\"attachment\":\"r\"},"
    "{\"name\":\"sh\",\"bone\":\"sh\",\"attachment\":\"r\"},{\"name\":\"sc\",\"bone\":\"sc\",\"attachment\":\"r\"},"
    "{\"name\":\"p3\",\"bone\":\"p3\",\"attachment\":\"r\"},{\"name\":\"c3\",\"bone\":\"c3\",\"attachment\":\"r\"},"
    "{\"name\":\"w1\",\"bone\":\"w1\",\"attachment\":\"r\"},{\"name\":\"tb\",\"bone\":\"tb\",\"attachment\":\"r\"},"
    "{\"name\":\"q\",\"bone\":\"q\",\"attachment\":\"r\"},{\"name\":\"qc\",\"bone\":\"qc\",\"attachment\":\"r\"}],"
    "\"skins\":[{\"name\":\"default\",\"attachments\":[{\"slot\":\"up\",\"name\":\"r\",\"type\":\"Region\",\"x\":8,\"y\":1,\"width\":16,\"height\":6},"
    "{\"slot\":\"lo\",\"name\":\"r\",\"type\":\"Region\",\"x\":8,\"y\":1,\"width\":16,\"height\":6},"
    "{\"slot\":\"sh\",\"name\":\"r\",\"type\":\"Region\",\"x\":8,\"y\":1,\"width\":16,\"height\":6},"
    "{\"slot\":\"sc\",\"name\":\"r\",\"type\":\"Region\",\"x\":8,\"y\":1,\"width\":16,\"height\":6},"
    "{\"slot\":\"p3\",\"name\":\"r\",\"type\":\"Region\",\"x\":8,\"y\":1,\"width\":16,\"height\":6},{\"slot\":\"c3\",\"name\":\"r\",\"type\":\"Region\",\"x\":8,\"y\":1,\"width\":16,\"height\":6},"
    "{\"slot\":\"w1\",\"name\":\"r\",\"type\":\"Region\",\"x\":8,\"y\":1,\"width\":16,\"height\":6},{\"slot\":\"tb\",\"name\":\"r\",\"type\":\"Region\",\"x\":8,\"y\":1,\"width\":16,\"height\":6},"
    "{\"slot\":\"q\",\"name\":\"r\",\"type\":\"Region\",\"x\":8,\"y\":1,\"width\":16,\"height\":6},{\"slot\":\"qc\",\"name\":\"r\",\"type\":\"Region\",\"x\":8,\"y\":1,\"width\":16,\"height\":6}]}]}";
static const char *const IK_EDGE_NAMES[] __attribute__((unused)) = {"move"};
static const char *const IK_EDGE_CLIPS[] __attribute__((unused)) = {
    CLIP_HEAD "\"length\":1,\"bones\":{\"t1\":{\"translate\":{\"t\":[0,0.5,1],\"v\":[[0,0],[-30,15],[40,-30]]}},"
    "\"t2\":{\"translate\":{\"t\":[0,0.5,1],\"v\":[[0,0],[25,-40],[-20,10]]}},"
    "\"t3\":{\"translate\":{\"t\":[0,0.5,1],\"v\":[[0,0],[150,80],[-200,-50]]}}}}"};

/* Transform constraints with IK (the GPU may compute its world with them): world absolute
 * (wabs), world relative under a reflected target (wrel), world absolute under the reflected
 * target with every channel (wref, on a NoScale bone), world relative on three bones of the
 * other inherit modes (multi: NoRotationOrReflection, OnlyTranslation, NoScaleOrReflection
 * under a reflected parent), local absolute (labs) and relative (lrel), every offset, partial
 * mixes; all-zero mixes (zero), one no skin activates (skin); an IK chain under a constrained
 * bone, and a constraint after it whose target the IK turns (after); a local one last (again)
 * on bones the world ones wrote, which reads the applied values those made again from the
 * world (each inherit mode). Children of constrained bones update after them. */
static const char *TF_RIG __attribute__((unused)) = RIG_HEAD
    "\"bones\":[{\"name\":\"root\"},{\"name\":\"hip\",\"parent\":\"root\",\"y\":-5},"
    "{\"name\":\"tw\",\"parent\":\"hip\",\"x\":30,\"y\":-20,\"rot\":25,\"sx\":1.3,\"sy\":0.8,\"shy\":10},"
    "{\"name\":\"tr\",\"parent\":\"root\",\"x\":-30,\"y\":10,\"rot\":-41.3,\"sx\":-1.17,\"sy\":0.9,\"shy\":-12.4},"
    "{\"name\":\"wa\",\"parent\":\"hip\",\"x\":10,\"rot\":10,\"shx\":5,\"length\":20},"
    "{\"name\":\"wac\",\"parent\":\"wa\",\"x\":20,\"rot\":15},"
    "{\"name\":\"wr\",\"parent\":\"root\",\"x\":5,\"y\":30,\"rot\":-20,\"sx\":1.1},"
    "{\"name\":\"wrc\",\"parent\":\"wr\",\"x\":15,\"rot\":-10,\"sy\":1.2},"
    "{\"name\":\"ns\",\"parent\":\"hip\",\"x\":-10,\"y\":5,\"rot\":30,\"sx\":1.4,\"inherit\":\"NoScale\"},"
    "{\"name\":\"nrr\",\"parent\":\"hip\",\"x\":-5,\"y\":-12,\"rot\":-35,\"inherit\":\"NoRotationOrReflection\"},"
    "{\"name\":\"ot\",\"parent\":\"hip\",\"x\":12,\"y\":8,\"rot\":20,\"inherit\":\"OnlyTranslation\"},"
    "{\"name\":\"nsr\",\"parent\":\"tr\",\"x\":6,\"y\":4,\"rot\":-50,\"inherit\":\"NoScaleOrReflection\"},"
    "{\"name\":\"la\",\"parent\":\"hip\",\"y\":20,\"rot\":5,\"sx\":0.9},"
    "{\"name\":\"lac\",\"parent\":\"la\",\"x\":10},"
    "{\"name\":\"lr\",\"parent\":\"root\",\"x\":-15,\"y\":-25,\"rot\":70,\"sy\":1.3},"
    "{\"name\":\"lrc\",\"parent\":\"lr\",\"x\":8,\"rot\":12},{\"name\":\"zb\",\"parent\":\"hip\",\"x\":3,\"y\":-3},"
    "{\"name\":\"skb\",\"parent\":\"hip\",\"x\":-3,\"y\":3},"
    "{\"name\":\"thigh\",\"parent\":\"wa\",\"rot\":60,\"length\":30},"
    "{\"name\":\"shin\",\"parent\":\"thigh\",\"x\":30,\"length\":25},"
    "{\"name\":\"foot_t\",\"parent\":\"root\",\"x\":20,\"y\":50},"
    "{\"name\":\"aft\",\"parent\":\"root\",\"x\":40,\"y\":40},"
    "{\"name\":\"aftc\",\"parent\":\"aft\",\"x\":5,\"rot\":-20}],"
    "\"ik\":[{\"name\":\"leg\",\"order\":3,\"bones\":[\"thigh\",\"shin\"],\"target\":\"foot_t\"}],"
    "\"transform\":[{\"name\":\"wabs\",\"order\":0,\"bones\":[\"wa\"],"
    "\"target\":\"tw\",\"rot\":15,\"x\":4,\"y\":-3,\"sx\":0.2,\"sy\":-0.1,\"shy\":8,\"mixRotate\":0.8,\"mixX\":0.6,\"mixY\":1,\"mixScaleX\":0.5,\"mixScaleY\":0.7,\"mixShearY\":0.4},"
    "{\"name\":\"wrel\",\"order\":1,\"bones\":[\"wr\"],"
    "\"target\":\"tr\",\"relative\":true,\"rot\":-19.3,\"x\":3,\"y\":5,\"sx\":0.1,\"sy\":0.2,\"shy\":-6.2,\"mixRotate\":0.5,\"mixX\":0.3,\"mixY\":0.4,\"mixScaleX\":0.6,\"mixScaleY\":0.8,\"mixShearY\":0.5},"
    "{\"name\":\"wref\",\"order\":2,\"bones\":[\"ns\"],"
    "\"target\":\"tr\",\"rot\":31.7,\"shy\":12.3,\"mixRotate\":1,\"mixX\":0.5,\"mixY\":0.5,\"mixScaleX\":0.7,\"mixScaleY\":0.6,\"mixShearY\":0.9},"
    "{\"name\":\"multi\",\"order\":4,\"bones\":[\"nrr\",\"ot\",\"nsr\"],"
    "\"target\":\"tw\",\"relative\":true,\"rot\":9.4,\"mixRotate\":0.7,\"mixX\":0.2,\"mixY\":0.3,\"mixScaleX\":0.4,\"mixScaleY\":0.5,\"mixShearY\":0.6},"
    "{\"name\":\"labs\",\"order\":5,\"bones\":[\"la\"],"
    "\"target\":\"tw\",\"local\":true,\"rot\":10.6,\"x\":2,\"y\":-2,\"sx\":0.1,\"sy\":0.2,\"shy\":5,\"mixRotate\":0.6,\"mixX\":0.5,\"mixY\":0.4,\"mixScaleX\":0.3,\"mixScaleY\":0.7,\"mixShearY\":0.8},"
    "{\"name\":\"lrel\",\"order\":6,\"bones\":[\"lr\"],"
    "\"target\":\"tr\",\"local\":true,\"relative\":true,\"rot\":-10,\"x\":1,\"y\":2,\"sx\":0.05,\"sy\":-0.1,\"shy\":3,\"mixRotate\":0.5,\"mixX\":0.6,\"mixY\":0.7,\"mixScaleX\":0.4,\"mixScaleY\":0.3,\"mixShearY\":0.2},"
    "{\"name\":\"zero\",\"order\":7,\"bones\":[\"zb\"],"
    "\"target\":\"tw\",\"rot\":5,\"x\":5,\"y\":5,\"shy\":5,\"mixRotate\":0,\"mixX\":0,\"mixY\":0,\"mixScaleX\":0,\"mixScaleY\":0,\"mixShearY\":0},"
    "{\"name\":\"skin\",\"order\":8,\"bones\":[\"skb\"],"
    "\"target\":\"tw\",\"mixRotate\":1,\"mixX\":1,\"mixY\":1,\"mixScaleX\":1,\"mixScaleY\":1,\"mixShearY\":1,\"skinRequired\":true},"
    "{\"name\":\"after\",\"order\":9,\"bones\":[\"aft\"],"
    "\"target\":\"shin\",\"mixRotate\":0.5,\"mixX\":0.5,\"mixY\":0.5,\"mixScaleX\":0,\"mixScaleY\":0,\"mixShearY\":0},"
    "{\"name\":\"again\",\"order\":10,\"bones\":[\"ns\",\"nrr\",\"ot\",\"nsr\",\"wr\"],\"target\":\"tw\",\"local\":true,"
    "\"mixRotate\":0.2,\"mixX\":0.1,\"mixY\":0.15,\"mixScaleX\":0.1,\"mixScaleY\":0.2,\"mixShearY\":0.1}],"
    "\"slots\":[{\"name\":\"wa\",\"bone\":\"wa\",\"attachment\":\"r\"},"
    "{\"name\":\"wac\",\"bone\":\"wac\",\"attachment\":\"r\"},{\"name\":\"wr\",\"bone\":\"wr\",\"attachment\":\"r\"},"
    "{\"name\":\"wrc\",\"bone\":\"wrc\",\"attachment\":\"r\"},{\"name\":\"ns\",\"bone\":\"ns\",\"attachment\":\"r\"},"
    "{\"name\":\"nrr\",\"bone\":\"nrr\",\"attachment\":\"r\"},{\"name\":\"ot\",\"bone\":\"ot\",\"attachment\":\"r\"},"
    "{\"name\":\"nsr\",\"bone\":\"nsr\",\"attachment\":\"r\"},{\"name\":\"la\",\"bone\":\"la\",\"attachment\":\"r\"},"
    "{\"name\":\"lac\",\"bone\":\"lac\",\"attachment\":\"r\"},{\"name\":\"lr\",\"bone\":\"lr\",\"attachment\":\"r\"},"
    "{\"name\":\"lrc\",\"bone\":\"lrc\",\"attachment\":\"r\"},{\"name\":\"zb\",\"bone\":\"zb\",\"attachment\":\"r\"},"
    "{\"name\":\"skb\",\"bone\":\"skb\",\"attachment\":\"r\"},"
    "{\"name\":\"thigh\",\"bone\":\"thigh\",\"attachment\":\"r\"},"
    "{\"name\":\"shin\",\"bone\":\"shin\",\"attachment\":\"r\"},"
    "{\"name\":\"aft\",\"bone\":\"aft\",\"attachment\":\"r\"},"
    "{\"name\":\"aftc\",\"bone\":\"aftc\",\"attachment\":\"r\"},"
    "{\"name\":\"w\",\"bone\":\"root\",\"attachment\":\"w\"}],"
    "\"skins\":[{\"name\":\"default\",\"attachments\":[{\"slot\":\"wa\",\"name\":\"r\",\"type\":\"Region\",\"x\":6,\"y\":1,\"width\":14,\"height\":6},"
    "{\"slot\":\"wac\",\"name\":\"r\",\"type\":\"Region\",\"x\":6,\"y\":1,\"width\":14,\"height\":6},"
    "{\"slot\":\"wr\",\"name\":\"r\",\"type\":\"Region\",\"x\":6,\"y\":1,\"width\":14,\"height\":6},"
    "{\"slot\":\"wrc\",\"name\":\"r\",\"type\":\"Region\",\"x\":6,\"y\":1,\"width\":14,\"height\":6},"
    "{\"slot\":\"ns\",\"name\":\"r\",\"type\":\"Region\",\"x\":6,\"y\":1,\"width\":14,\"height\":6},"
    "{\"slot\":\"nrr\",\"name\":\"r\",\"type\":\"Region\",\"x\":6,\"y\":1,\"width\":14,\"height\":6},"
    "{\"slot\":\"ot\",\"name\":\"r\",\"type\":\"Region\",\"x\":6,\"y\":1,\"width\":14,\"height\":6},"
    "{\"slot\":\"nsr\",\"name\":\"r\",\"type\":\"Region\",\"x\":6,\"y\":1,\"width\":14,\"height\":6},"
    "{\"slot\":\"la\",\"name\":\"r\",\"type\":\"Region\",\"x\":6,\"y\":1,\"width\":14,\"height\":6},"
    "{\"slot\":\"lac\",\"name\":\"r\",\"type\":\"Region\",\"x\":6,\"y\":1,\"width\":14,\"height\":6},"
    "{\"slot\":\"lr\",\"name\":\"r\",\"type\":\"Region\",\"x\":6,\"y\":1,\"width\":14,\"height\":6},"
    "{\"slot\":\"lrc\",\"name\":\"r\",\"type\":\"Region\",\"x\":6,\"y\":1,\"width\":14,\"height\":6},"
    "{\"slot\":\"zb\",\"name\":\"r\",\"type\":\"Region\",\"x\":6,\"y\":1,\"width\":14,\"height\":6},"
    "{\"slot\":\"skb\",\"name\":\"r\",\"type\":\"Region\",\"x\":6,\"y\":1,\"width\":14,\"height\":6},"
    "{\"slot\":\"thigh\",\"name\":\"r\",\"type\":\"Region\",\"x\":6,\"y\":1,\"width\":14,\"height\":6},"
    "{\"slot\":\"shin\",\"name\":\"r\",\"type\":\"Region\",\"x\":6,\"y\":1,\"width\":14,\"height\":6},"
    "{\"slot\":\"aft\",\"name\":\"r\",\"type\":\"Region\",\"x\":6,\"y\":1,\"width\":14,\"height\":6},"
    "{\"slot\":\"aftc\",\"name\":\"r\",\"type\":\"Region\",\"x\":6,\"y\":1,\"width\":14,\"height\":6},"
    "{\"slot\":\"w\",\"name\":\"w\",\"type\":\"Mesh\",\"hull\":3,\"uvs\":[0,0,1,0,1,1],\"triangles\":[0,1,2],"
    "\"weights\":{\"bones\":[\"wac\",\"wrc\",\"lrc\",\"nsr\"],"
    "\"v\":[[0,0.5,4,1,1,0.5,-6,2],[1,1,3,3],[2,0.25,5,-2,3,0.75,2,6]]}}]}]}";
/* the mixes keyed (a negative shear mix in world space: ignored, as on the CPU; a negative x
 * mix), targets turned past a full circle, the reflected target's reflection undone and the
 * other's made (the second clip) */
static const char *const TF_NAMES[] __attribute__((unused)) = {"mix", "spin"};
static const char *const TF_CLIPS[] __attribute__((unused)) = {
    CLIP_HEAD "\"length\":1,\"bones\":{\"hip\":{\"rotate\":{\"t\":[0,1],\"v\":[-20,35]}},"
    "\"tw\":{\"rotate\":{\"t\":[0,0.5,1],\"v\":[0,120,-90]},\"scale\":{\"t\":[0,1],\"v\":[[1,1],[0.7,1.4]]},"
    "\"shear\":{\"t\":[0,1],\"v\":[[0,0],[15,-20]]},\"translate\":{\"t\":[0,1],\"v\":[[0,0],[12,-8]]}},"
    "\"tr\":{\"rotate\":{\"t\":[0,1],\"v\":[30,-60]},\"translate\":{\"t\":[0,1],\"v\":[[0,0],[-9,14]]}},"
    "\"la\":{\"rotate\":{\"t\":[0,1],\"v\":[0,170]}},\"lr\":{\"shear\":{\"t\":[0,1],\"v\":[[0,0],[0,25]]}},"
    "\"foot_t\":{\"translate\":{\"t\":[0,0.5,1],\"v\":[[0,0],[-20,-10],[15,5]]}}},"
    "\"transform\":{\"wabs\":{\"t\":[0,0.5,1],\"mixRotate\":[0.8,0,1],\"mixX\":[0.6,1,0.2],\"mixScaleY\":[0.7,0.1,1]},"
    "\"wrel\":{\"t\":[0,1],\"mixX\":[0.3,-1],\"mixShearY\":[0.5,1]},"
    "\"wref\":{\"t\":[0,0.5,1],\"mixShearY\":[0.9,-0.5,0.3],\"mixScaleX\":[0.7,1,0]},"
    "\"labs\":{\"t\":[0,1],\"mixRotate\":[0.6,1],\"mixShearY\":[0.8,0]},"
    "\"lrel\":{\"t\":[0,1],\"mixY\":[0.7,0],\"mixScaleX\":[0.4,1]}}}",
    CLIP_HEAD "\"length\":1,\"bones\":{\"tw\":{\"rotate\":{\"t\":[0,1],\"v\":[403.1,-1497.6]},"
    "\"scale\":{\"t\":[0,1],\"v\":[[1,1],[-1,0.8]]}},\"tr\":{\"rotate\":{\"t\":[0,1],\"v\":[-703.7,911.3]},"
    "\"scale\":{\"t\":[0,1],\"v\":[[1,1],[-1,1.2]]}},\"wa\":{\"rotate\":{\"t\":[0,1],\"v\":[0,-400]}},"
    "\"ns\":{\"rotate\":{\"t\":[0,1],\"v\":[0,300]}}}}"};

/* Path constraints with IK and transform ones (world.comp): every spacing mode (length, fixed,
 * percent, proportional, with a bone of length 0), both position modes and every rotate mode
 * (a chain with and without a rotation offset, a tangent one turned from a reflected slot
 * bone); paths open and closed, constant speed on and off, weighted (loop, wave) and not (open,
 * ring, alt); wave and open deformed by keys; keyed mixes, positions (before the start and past
 * the end) and spacings (in the second clip p_pct's keyed to 0 and p_chainoff's to minus its
 * bones' length: spaces of 0, the bones turned to the curve's tangent); sc switches from ring to alt, to none, to a region and back; a
 * transform constraint before a path (on a bone its weighted path follows), IK and a transform
 * constraint after ones whose bones they target, and a local one last (tl) on bones paths
 * placed, which reads the applied values made again from their world; c1t and ikc updated
 * after; p_skin inactive by skin (no skin), p_zero with zero mixes. */
static const char *PATH_RIG __attribute__((unused)) = RIG_HEAD
    "\"bones\":[{\"name\":\"root\"},{\"name\":\"pa\",\"parent\":\"root\",\"x\":-60,\"y\":40,\"rot\":12},{"
    "\"name\":\"pw1\",\"parent\":\"root\",\"x\":30,\"y\":-40,\"rot\":-8},{\"name\":\"pw2\",\"parent\":\"r"
    "oot\",\"x\":70,\"y\":-30,\"rot\":15,\"sx\":1.2},{\"name\":\"pc\",\"parent\":\"root\",\"x\":-20,\"y\""
    ":-60,\"rot\":-25},{\"name\":\"pr\",\"parent\":\"root\",\"x\":10,\"y\":80,\"rot\":30,\"sx\":-1,\"sy\""
    ":1.1},{\"name\":\"tb\",\"parent\":\"root\",\"x\":25,\"y\":-35,\"rot\":20},{\"name\":\"c1a\",\"parent"
    "\":\"root\",\"length\":12},{\"name\":\"c1b\",\"parent\":\"root\",\"length\":12,\"x\":3},{\"name\":\""
    "c1c\",\"parent\":\"root\",\"length\":12,\"x\":6},{\"name\":\"c1t\",\"parent\":\"c1c\",\"x\":12,\"rot"
    "\":20},{\"name\":\"c2a\",\"parent\":\"root\",\"length\":10},{\"name\":\"c2b\",\"parent\":\"root\",\""
    "length\":10,\"x\":3},{\"name\":\"c2c\",\"parent\":\"root\",\"length\":10,\"x\":6},{\"name\":\"c3a\","
    "\"parent\":\"root\",\"length\":9},{\"name\":\"c3b\",\"parent\":\"root\",\"length\":9,\"x\":3},{\"nam"
    "e\":\"c3c\",\"parent\":\"root\",\"length\":9,\"x\":6},{\"name\":\"c4a\",\"parent\":\"root\",\"length"
    "\":11},{\"name\":\"c4b\",\"parent\":\"root\",\"length\":0,\"x\":3},{\"name\":\"c4c\",\"parent\":\"ro"
    "ot\",\"length\":14,\"x\":6},{\"name\":\"c5a\",\"parent\":\"root\",\"length\":8},{\"name\":\"c6a\",\""
    "parent\":\"root\",\"length\":13},{\"name\":\"c6b\",\"parent\":\"root\",\"length\":13,\"x\":3},{\"nam"
    "e\":\"ik1\",\"parent\":\"root\",\"x\":-90,\"y\":-10,\"length\":30,\"rot\":40},{\"name\":\"ik2\",\"pa"
    "rent\":\"ik1\",\"x\":30,\"length\":28},{\"name\":\"ikc\",\"parent\":\"ik2\",\"x\":28,\"rot\":-15},{\""
    "name\":\"tfo\",\"parent\":\"root\",\"x\":100,\"y\":0}],\"ik\":[{\"name\":\"reach\",\"order\":2,\"bon"
    "es\":[\"ik1\",\"ik2\"],\"target\":\"c2c\"}],\"transform\":[{\"name\":\"t0\",\"order\":0,\"bones\":[\""
    "pw1\"],\"target\":\"tb\",\"rot\":10,\"mixRotate\":0.7,\"mixX\":0.5,\"mixY\":0.5,\"mixScaleX\":0,\"mi"
    "xScaleY\":0,\"mixShearY\":0},{\"name\":\"tl\",\"order\":10,\"bones\":[\"c3b\"],\"target\":\"c1b\",\""
    "local\":true,\"mixRotate\":0.5,\"mixX\":0.3,\"mixY\":0.3,\"mixScaleX\":0.4,\"mixScaleY\":0.2,\"mixSh"
    "earY\":0.3},{\"name\":\"t1\",\"order\":4,\"bones\":[\"tfo\"],\"target\":\"c1b\",\"x\":5,\"mixRotate\""
    ":1,\"mixX\":1,\"mixY\":1,\"mixScaleX\":0,\"mixScaleY\":0,\"mixShearY\":0}],\"path\":[{\"name\":\"p_f"
    "ix\",\"order\":1,\"bones\":[\"c2a\",\"c2b\",\"c2c\"],\"target\":\"sw\",\"positionMode\":\"percent\","
    "\"spacingMode\":\"fixed\",\"rotateMode\":\"chain\",\"position\":0.1,\"spacing\":14},{\"name\":\"p_le"
    "n\",\"order\":3,\"bones\":[\"c1a\",\"c1b\",\"c1c\"],\"target\":\"sa\",\"positionMode\":\"fixed\",\"s"
    "pacingMode\":\"length\",\"rotateMode\":\"tangent\",\"rot\":15,\"position\":10,\"spacing\":4,\"mixRot"
    "ate\":0.9,\"mixX\":0.8,\"mixY\":1},{\"name\":\"p_pct\",\"order\":5,\"bones\":[\"c3a\",\"c3b\",\"c3c\""
    "],\"target\":\"sc\",\"positionMode\":\"fixed\",\"spacingMode\":\"percent\",\"rotateMode\":\"chainSca"
    "le\",\"position\":20,\"spacing\":0.15,\"rot\":10},{\"name\":\"p_prop\",\"order\":6,\"bones\":[\"c4a\""
    ",\"c4b\",\"c4c\"],\"target\":\"sd\",\"positionMode\":\"percent\",\"spacingMode\":\"proportional\",\""
    "rotateMode\":\"tangent\",\"rot\":-30,\"position\":0.2,\"spacing\":0.8,\"mixRotate\":0.6,\"mixX\":1,\""
    "mixY\":0.7},{\"name\":\"p_skin\",\"order\":7,\"bones\":[\"c5a\"],\"target\":\"sa\",\"skinRequired\":"
    "true,\"position\":0.5},{\"name\":\"p_chainoff\",\"order\":8,\"bones\":[\"c6a\",\"c6b\"],\"target\":\""
    "sd\",\"positionMode\":\"fixed\",\"spacingMode\":\"length\",\"rotateMode\":\"chain\",\"rot\":25,\"pos"
    "ition\":5,\"spacing\":2},{\"name\":\"p_zero\",\"order\":9,\"bones\":[\"c1t\"],\"target\":\"sa\",\"po"
    "sition\":0.3,\"mixRotate\":0,\"mixX\":0,\"mixY\":0}],\"slots\":[{\"name\":\"sa\",\"bone\":\"pa\",\"a"
    "ttachment\":\"open\"},{\"name\":\"sw\",\"bone\":\"root\",\"attachment\":\"loop\"},{\"name\":\"sc\",\""
    "bone\":\"pc\",\"attachment\":\"ring\"},{\"name\":\"sd\",\"bone\":\"pr\",\"attachment\":\"wave\"},{\""
    "name\":\"c1a\",\"bone\":\"c1a\",\"attachment\":\"r\"},{\"name\":\"c1b\",\"bone\":\"c1b\",\"attachmen"
    "t\":\"r\"},{\"name\":\"c1c\",\"bone\":\"c1c\",\"attachment\":\"r\"},{\"name\":\"c1t\",\"bone\":\"c1t"
    "\",\"attachment\":\"r\"},{\"name\":\"c2a\",\"bone\":\"c2a\",\"attachment\":\"r\"},{\"name\":\"c2b\","
    "\"bone\":\"c2b\",\"attachment\":\"r\"},{\"name\":\"c2c\",\"bone\":\"c2c\",\"attachment\":\"r\"},{\"n"
    "ame\":\"c3a\",\"bone\":\"c3a\",\"attachment\":\"r\"},{\"name\":\"c3b\",\"bone\":\"c3b\",\"attachment"
    "\":\"r\"},{\"name\":\"c3c\",\"bone\":\"c3c\",\"attachment\":\"r\"},{\"name\":\"c4a\",\"bone\":\"c4a\""
    ",\"attachment\":\"r\"},{\"name\":\"c4b\",\"bone\":\"c4b\",\"attachment\":\"r\"},{\"name\":\"c4c\",\""
    "bone\":\"c4c\",\"attachment\":\"r\"},{\"name\":\"c5a\",\"bone\":\"c5a\",\"attachment\":\"r\"},{\"nam"
    "e\":\"c6a\",\"bone\":\"c6a\",\"attachment\":\"r\"},{\"name\":\"c6b\",\"bone\":\"c6b\",\"attachment\""
    ":\"r\"},{\"name\":\"ik1\",\"bone\":\"ik1\",\"attachment\":\"r\"},{\"name\":\"ik2\",\"bone\":\"ik2\","
    "\"attachment\":\"r\"},{\"name\":\"ikc\",\"bone\":\"ikc\",\"attachment\":\"r\"},{\"name\":\"tfo\",\"b"
    "one\":\"tfo\",\"attachment\":\"r\"}],\"skins\":[{\"name\":\"default\",\"attachments\":[{\"slot\":\"c"
    "1a\",\"name\":\"r\",\"type\":\"Region\",\"x\":6,\"y\":1,\"width\":12,\"height\":5},{\"slot\":\"c1b\""
    ",\"name\":\"r\",\"type\":\"Region\",\"x\":6,\"y\":1,\"width\":12,\"height\":5},{\"slot\":\"c1c\",\"n"
    "ame\":\"r\",\"type\":\"Region\",\"x\":6,\"y\":1,\"width\":12,\"height\":5},{\"slot\":\"c1t\",\"name\""
    ":\"r\",\"type\":\"Region\",\"x\":6,\"y\":1,\"width\":12,\"height\":5},{\"slot\":\"c2a\",\"name\":\"r"
    "\",\"type\":\"Region\",\"x\":6,\"y\":1,\"width\":12,\"height\":5},{\"slot\":\"c2b\",\"name\":\"r\",\""
    "type\":\"Region\",\"x\":6,\"y\":1,\"width\":12,\"height\":5},{\"slot\":\"c2c\",\"name\":\"r\",\"type"
    "\":\"Region\",\"x\":6,\"y\":1,\"width\":12,\"height\":5},{\"slot\":\"c3a\",\"name\":\"r\",\"type\":\""
    "Region\",\"x\":6,\"y\":1,\"width\":12,\"height\":5},{\"slot\":\"c3b\",\"name\":\"r\",\"type\":\"Regi"
    "on\",\"x\":6,\"y\":1,\"width\":12,\"height\":5},{\"slot\":\"c3c\",\"name\":\"r\",\"type\":\"Region\""
    ",\"x\":6,\"y\":1,\"width\":12,\"height\":5},{\"slot\":\"c4a\",\"name\":\"r\",\"type\":\"Region\",\"x"
    "\":6,\"y\":1,\"width\":12,\"height\":5},{\"slot\":\"c4b\",\"name\":\"r\",\"type\":\"Region\",\"x\":6"
    ",\"y\":1,\"width\":12,\"height\":5},{\"slot\":\"c4c\",\"name\":\"r\",\"type\":\"Region\",\"x\":6,\"y"
    "\":1,\"width\":12,\"height\":5},{\"slot\":\"c5a\",\"name\":\"r\",\"type\":\"Region\",\"x\":6,\"y\":1"
    ",\"width\":12,\"height\":5},{\"slot\":\"c6a\",\"name\":\"r\",\"type\":\"Region\",\"x\":6,\"y\":1,\"w"
    "idth\":12,\"height\":5},{\"slot\":\"c6b\",\"name\":\"r\",\"type\":\"Region\",\"x\":6,\"y\":1,\"width"
    "\":12,\"height\":5},{\"slot\":\"ik1\",\"name\":\"r\",\"type\":\"Region\",\"x\":6,\"y\":1,\"width\":1"
    "2,\"height\":5},{\"slot\":\"ik2\",\"name\":\"r\",\"type\":\"Region\",\"x\":6,\"y\":1,\"width\":12,\""
    "height\":5},{\"slot\":\"ikc\",\"name\":\"r\",\"type\":\"Region\",\"x\":6,\"y\":1,\"width\":12,\"heig"
    "ht\":5},{\"slot\":\"tfo\",\"name\":\"r\",\"type\":\"Region\",\"x\":6,\"y\":1,\"width\":12,\"height\""
    ":5},{\"slot\":\"sa\",\"name\":\"open\",\"type\":\"Path\",\"constantSpeed\":false,\"vertices\":[-12,0"
    ",0,0,12,5,28,25,40,20,52,15,68,-5,80,-10,92,-15,108,10,120,15,132,20],\"lengths\":[45,90,134,150]},{"
    "\"slot\":\"sw\",\"name\":\"loop\",\"type\":\"Path\",\"closed\":true,\"weights\":{\"bones\":[\"pw1\","
    "\"pw2\"],\"v\":[[0,1,-10,-5],[0,0.6,0,0,1,0.4,-40,10],[1,1,-30,15],[0,1,30,20],[0,0.6,40,30,1,0.4,0,"
    "40],[1,1,10,50],[0,1,45,-20],[0,0.6,30,-25,1,0.4,-10,-15],[1,1,-25,-20]]},\"lengths\":[50,100,150]},"
    "{\"slot\":\"sc\",\"name\":\"ring\",\"type\":\"Path\",\"closed\":true,\"constantSpeed\":false,\"verti"
    "ces\":[-5,-20,0,-20,5,-20,20,-5,20,0,20,5,5,20,0,20,-5,20,-20,5,-20,0,-20,-5],\"lengths\":[30,60,90,"
    "120]},{\"slot\":\"sc\",\"name\":\"alt\",\"type\":\"Path\",\"vertices\":[-10,10,0,0,10,-10,30,0,40,10"
    ",50,20,60,40,70,30,80,20],\"lengths\":[50,100,150]},{\"slot\":\"sc\",\"name\":\"rg\",\"type\":\"Regi"
    "on\",\"width\":8,\"height\":8},{\"slot\":\"sd\",\"name\":\"wave\",\"type\":\"Path\",\"weights\":{\"b"
    "ones\":[\"pw2\",\"root\"],\"v\":[[1,1,-8,0],[0,0.7,0,0,1,0.3,5,-3],[1,1,8,6],[0,0.7,22,14,1,0.3,27,1"
    "1],[1,1,30,10],[0,0.7,38,6,1,0.3,43,3],[1,1,52,-4],[0,0.7,60,0,1,0.3,65,-3],[1,1,68,4]]},\"lengths\""
    ":[40,80,120]}]}]}";
static const char *const PATH_NAMES[] __attribute__((unused)) = {"move", "turn"};
static const char *const PATH_CLIPS[] __attribute__((unused)) = {
    CLIP_HEAD
    "\"length\":1,\"bones\":{\"pa\":{\"rotate\":{\"t\":[0,1],\"v\":[0,50]},\"translate\":{\"t\":[0,1],\"v"
    "\":[[0,0],[10,-15]]}},\"pw2\":{\"rotate\":{\"t\":[0,0.5,1],\"v\":[0,40,-30]}},\"tb\":{\"rotate\":{\""
    "t\":[0,1],\"v\":[0,90]}},\"pc\":{\"rotate\":{\"t\":[0,1],\"v\":[0,-70]},\"scale\":{\"t\":[0,1],\"v\""
    ":[[1,1],[1.3,0.8]]}},\"pr\":{\"rotate\":{\"t\":[0,1],\"v\":[0,60]}},\"c4a\":{\"scale\":{\"t\":[0,1],"
    "\"v\":[[1,1],[1.5,1]]}}},\"slots\":{\"sc\":{\"attachment\":{\"t\":[0.3,0.55,0.75,0.9],\"v\":[\"alt\""
    ",null,\"rg\",\"ring\"]}}},\"path\":{\"p_len\":{\"position\":{\"t\":[0,0.5,1],\"v\":[-20,40,170]},\"s"
    "pacing\":{\"t\":[0,1],\"v\":[4,-3]},\"mix\":{\"t\":[0,0.5,1],\"v\":[[0.9,0.8,1],[0.3,1,0.2],[1,0,0.5"
    "]]}},\"p_prop\":{\"position\":{\"t\":[0,1],\"v\":[-0.3,1.2]},\"spacing\":{\"t\":[0,1],\"v\":[0.8,1.1"
    "]}},\"p_pct\":{\"spacing\":{\"t\":[0,1],\"v\":[0.15,-0.1]},\"position\":{\"t\":[0,1],\"v\":[20,-150]"
    "}},\"p_fix\":{\"position\":{\"t\":[0,1],\"v\":[0.1,2.3]},\"mix\":{\"t\":[0,1],\"v\":[[1,1,1],[0.5,0."
    "4,0.8]]}}},\"deform\":{\"default\":{\"sd\":{\"wave\":{\"t\":[0,1],\"v\":[[0,0],[3,-2,1.5,2,1.5,2,1.5"
    ",2,1.5,2,1.5,2,1.5,2,1.5,2,1.5,2,1.5,2,1.5,2,1.5,2,1.5,2]]}},\"sa\":{\"open\":{\"t\":[0.2,0.8],\"off"
    "set\":[2,6],\"v\":[[4,-3,2,5],[-6,8,0,3,1,-2,5,5]]}}}}}",
    CLIP_HEAD
    "\"length\":1,\"bones\":{\"pa\":{\"rotate\":{\"t\":[0,1],\"v\":[0,-80]}},\"pw1\":{\"translate\":{\"t\""
    ":[0,1],\"v\":[[0,0],[20,10]]}},\"pr\":{\"scale\":{\"t\":[0,1],\"v\":[[1,1],[-1,1]]}}},\"path\":{\"p_"
    "pct\":{\"spacing\":{\"t\":[0],\"v\":[0]}},\"p_chainoff\":{\"position\":{\"t\":[0,1],\"v\":[5,-40]},\""
    "spacing\":{\"t\":[0],\"v\":[-13]},\"mix\":{\"t\":[0,0.5,1],\"v\":[[1,1,1],[0,0,0],[0.5,0.6,0.7]]}},\""
    "p_len\":{\"position\":{\"t\":[0,1],\"v\":[10,90]}}}}"};

static const char *const SCENE_NAMES[] __attribute__((unused)) = {"swing", "bend"};
static const char *const SCENE_CLIPS[] __attribute__((unused)) = {
    CLIP_HEAD "\"length\":1,\"bones\":{\"arm\":{\"rotate\":{\"t\":[0,0.5,1],\"v\":[-60,40,120]}},"
    "\"hand\":{\"rotate\":{\"t\":[0,1],\"v\":[0,90]}}}}",
    CLIP_HEAD "\"length\":1,\"bones\":{\"hand\":{\"rotate\":{\"t\":[0,1],\"v\":[10,-80]}}},"
    "\"deform\":{\"default\":{\"m0\":{\"m0\":{\"t\":[0.1,0.8],\"offset\":[0,2],\"v\":[[1,2,3,4],[5,-6,7,8,9,-10]]}},"
    "\"w\":{\"w\":{\"t\":[0,0.6],\"v\":[[1,2,3,4,5,6,7,8,9,10],[-3,1,0,2,-1,4,2,2,0,-5]]}}}}}"};

#endif
