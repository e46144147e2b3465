/* Physics constraints on the GPU (mf_gpu.h: mf_gpu_batch_add_physics): instances of a rig with
 * physics constraints posed on the GPU, their springs' state kept there from frame to frame,
 * against twins posed by the CPU (mf_pose_update_world) with the same inputs, frame by frame for
 * hundreds of frames: bones read back (mf_gpu_batch_read_world) and the vertex streams. The
 * project's PHYS_RIG (gpu_rig.h) with every channel, a child under a physics bone, gravity,
 * wind, a moving root and a reset key; host resets, teleports, mode switches, mixes, instance
 * movement, regular and irregular frame times; states kept apart, released and acquired again;
 * bad use; no allocation per frame. The corpus' celestial-circus and sack when ../shared is
 * there.
 *
 * Without a Vulkan device the tests say they skipped, unless MF_REQUIRE_GPU is set. */
#define _GNU_SOURCE
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "mf/mf_build.h"
#include "mf/mf_gpu.h"
#include "mf/mf_physics.h"
#include "mf/mf_spine.h"
#include "mf/mf_tracks.h"
#include "gpu_rig.h"
#include "pose_rig.h"
#include "../src/runtime/pose/pose_internal.h" /* the pending time a refused add leaves */

static mf_gpu_device *g_dev;
static long g_allocs;

static void *count_alloc(void *user, size_t n)
{
    (void)user;
    g_allocs++;
    return malloc(n);
}
static void count_free(void *user, void *ptr)
{
    (void)user;
    free(ptr);
}
static const mf_allocator COUNTED = {.alloc = count_alloc, .free = count_free};

static char g_why[1400];

static int setup_device(void **state)
{
    (void)state;
    return gpu_test_open("test_gpu_physics", COUNTED, &g_dev, g_why, sizeof g_why);
}

static int teardown_device(void **state)
{
    (void)state;
    mf_gpu_device_destroy(g_dev);
    return 0;
}

#define NEED_DEVICE() GPU_NEED_DEVICE(g_dev)

/* GPU against CPU after the springs ran for many frames: each frame's float rounding (the
 * GPU's own cos, sin, atan2 and fused multiply-adds, about 1e-7 relative) enters the springs'
 * state, which the damping shrinks but a swing carries for a while: on the fixture (bones of
 * some 40 px, offsets of tens of px) a bound of 0.01 px, some 30 times the largest difference
 * seen (3.5e-4 px in the bones, 2.4e-3 px in the vertices), and 1e-4 in the 2x2. The corpus'
 * rigs are ten times larger (coordinates of hundreds of px, float rounding's 3e-5 px) with
 * chains of physics bones each lagging behind the one above: 0.05 px there (celestial-circus'
 * swing: 0.013 px seen, not growing over the frames). The largest differences are printed. */
static float g_tol = 1e-2f;
static bool phys_close(float a, float b) { return fabsf(a - b) <= g_tol + 1e-5f * fabsf(b); }
static bool phys_close_m(float a, float b) { return fabsf(a - b) <= 1e-4f + 1e-4f * fabsf(b); }

typedef struct worst {
    double pos, m, vert;
    long bones, vertices, frames;
} worst;

/* The GPU's world (read back into g) against the CPU's (c), every active bone. */
static void expect_world(const mf_pose *g, const mf_pose *c, worst *w, int frame, int inst)
{
    for (int32_t i = 0; i < c->bone_count; i++) {
        if (!c->active[i]) continue;
        const float gv[6] = {g->a[i], g->b[i], g->c[i], g->d[i], g->wx[i], g->wy[i]};
        const float cv[6] = {c->a[i], c->b[i], c->c[i], c->d[i], c->wx[i], c->wy[i]};
        for (int k = 0; k < 6; k++) {
            bool ok = k < 4 ? phys_close_m(gv[k], cv[k]) : phys_close(gv[k], cv[k]);
            if (!ok)
                fail_msg("frame %d, instance %d, bone %d: world %s %.6f, the CPU's %.6f", frame, inst, i,
                         (const char *[]){"a", "b", "c", "d", "wx", "wy"}[k], gv[k], cv[k]);
            double e = fabs((double)gv[k] - (double)cv[k]);
            double *m = k < 4 ? &w->m : &w->pos;
            if (e > *m) *m = e;
        }
        w->bones++;
    }
}

/* ---------------------------------------------------------------- instances, both ways */

enum { MAXI = 4 };

/* Frames submitted without waiting for them (the batch's slots in turn: begin waits for a
 * slot's last use only), nothing compared: the state flows from frame to frame on the queue. */
static bool g_no_wait;

/* An instance twice: posed on the GPU (gpu, its state) and on the CPU (cpu), each with its own
 * tracks playing the same clip from the same time; twin gets the GPU's world read back. */
typedef struct pair {
    mf_pose *gpu, *cpu, *twin;
    mf_tracks *tg, *tc;
    mf_draw_list *dl;
    int32_t state;
    float xf[6];
} pair;

typedef struct bench {
    const mf_skel_data *d;
    mf_gpu_rig *rig;
    mf_gpu_batch *b;
    mf_draw_batch *cb;
    pair p[MAXI];
    int n;
    mf_batch_vertex *gv;
    uint32_t *gi;
} bench;

static void pair_tracks(pair *q, int32_t clip, double start)
{
    if (clip < 0) return;
    mf_entry_handle h = mf_tracks_set(q->tg, 0, clip, true);
    mf_tracks_entry(q->tg, h)->track_time = start;
    h = mf_tracks_set(q->tc, 0, clip, true);
    mf_tracks_entry(q->tc, h)->track_time = start;
}

static void bench_open(bench *s, const mf_skel_data *d, int n, int32_t clip)
{
    memset(s, 0, sizeof *s);
    s->d = d, s->n = n;
    assert_int_equal(mf_gpu_rig_create(g_dev, d, &s->rig, NULL), MF_OK);
    assert_true(mf_gpu_rig_world_ok(s->rig));
    mf_gpu_batch_desc gd = {.max_vertices = 1 << 16, .max_instances = MAXI, .max_words = 1 << 20, .max_physics = 256,
                            .readback = true, .readback_world = true, .frames_in_flight = g_no_wait ? 3 : 2};
    assert_int_equal(mf_gpu_batch_create(g_dev, &gd, &s->b, NULL), MF_OK);
    mf_draw_batch_desc cd = {.max_vertices = 1 << 16};
    assert_int_equal(mf_draw_batch_create(&cd, &s->cb), MF_OK);
    s->gv = malloc(sizeof *s->gv << 16), s->gi = malloc(sizeof *s->gi * 3 << 16);
    assert_true(s->gv && s->gi);
    for (int i = 0; i < n; i++) {
        pair *q = &s->p[i];
        assert_int_equal(mf_pose_create(d, NULL, &q->gpu, NULL), MF_OK);
        assert_int_equal(mf_pose_create(d, NULL, &q->cpu, NULL), MF_OK);
        assert_int_equal(mf_pose_create(d, NULL, &q->twin, NULL), MF_OK);
        assert_int_equal(mf_tracks_create(d, NULL, NULL, &q->tg), MF_OK);
        assert_int_equal(mf_tracks_create(d, NULL, NULL, &q->tc), MF_OK);
        assert_int_equal(mf_draw_list_create(d, NULL, &q->dl), MF_OK);
        assert_int_equal(mf_gpu_batch_physics_acquire(s->b, s->rig, &q->state), MF_OK);
        pair_tracks(q, clip, 0.17 * i);
        float a = 0.3f * (float)i;
        float m[6] = {cosf(a), sinf(a), -sinf(a), cosf(a), 200.0f * (float)i, 30.0f * (float)i};
        memcpy(q->xf, m, sizeof m);
    }
}

static void bench_close(bench *s)
{
    for (int i = 0; i < s->n; i++) {
        pair *q = &s->p[i];
        mf_pose_destroy(q->gpu), mf_pose_destroy(q->cpu), mf_pose_destroy(q->twin);
        mf_tracks_destroy(q->tg), mf_tracks_destroy(q->tc);
        mf_draw_list_destroy(q->dl);
    }
    free(s->gv), free(s->gi);
    mf_draw_batch_destroy(s->cb);
    mf_gpu_batch_destroy(s->b);
    mf_gpu_rig_destroy(s->rig);
}

/* What a test does to both poses of an instance before a frame's world: the same on each. */
typedef void (*frame_hook)(mf_pose *p, int inst, int frame);

/* One frame: both poses sampled, hooked, given dt; the CPU's world updated, the GPU's added;
 * submitted, waited for; bones and vertices compared. */
static void bench_frame(bench *s, int frame, double dt, frame_hook hook, worst *w)
{
    assert_int_equal(mf_gpu_batch_begin(s->b), MF_OK);
    mf_draw_batch_begin(s->cb);
    for (int i = 0; i < s->n; i++) {
        pair *q = &s->p[i];
        mf_pose *both[2] = {q->gpu, q->cpu};
        mf_tracks *tr[2] = {q->tg, q->tc};
        for (int k = 0; k < 2; k++) {
            mf_pose_reset(both[k]);
            mf_tracks_update(tr[k], (float)dt);
            mf_tracks_apply(tr[k], both[k]);
            if (hook) hook(both[k], i, frame);
            mf_pose_physics_step(both[k], dt);
        }
        mf_pose_update_world(q->cpu);
        poison_world(q->gpu); /* the GPU computes it */
        assert_int_equal(mf_gpu_batch_add_physics(s->b, s->rig, q->gpu, q->state, q->xf), MF_OK);
        assert_int_equal(mf_draw_list_build(q->dl, q->cpu), MF_OK);
        assert_int_equal(mf_draw_batch_add(s->cb, q->dl, s->d, q->xf), MF_OK);
    }
    assert_int_equal(mf_gpu_batch_submit(s->b), MF_OK);
    if (g_no_wait) return;
    assert_int_equal(mf_gpu_batch_wait(s->b), MF_OK);
    for (int i = 0; i < s->n; i++) {
        assert_int_equal(mf_gpu_batch_read_world(s->b, i, s->p[i].twin), MF_OK);
        expect_world(s->p[i].twin, s->p[i].cpu, w, frame, i);
    }
    assert_int_equal(mf_gpu_batch_read(s->b, s->gv, s->gi), MF_OK);
    double vw = 0;
    gpu_expect_streams_by(s->cb, s->b->calls, s->b->call_count, s->gv, s->b->vertex_count, s->gi,
                          s->b->index_count, phys_close, &vw);
    if (vw > w->vert) w->vert = vw;
    w->vertices += s->b->vertex_count, w->frames++;
}

static void report(const char *label, const worst *w)
{
    fprintf(stderr, "%s: %ld frames, %ld bones, %ld vertices; largest GPU-CPU difference %.5f px in the bones, "
            "%.2e in their 2x2, %.5f px in the vertices\n",
            label, w->frames, w->bones, w->vertices, w->pos, w->m, w->vert);
}

/* How far a bone's world moved from where it would be without physics: the springs swung. */
static double swing(const mf_pose *p, const mf_skel_data *d)
{
    mf_pose *q = NULL;
    assert_int_equal(mf_pose_create(d, NULL, &q, NULL), MF_OK);
    memcpy(q->x, p->x, sizeof(float) * (size_t)p->bone_count);
    mf_pose_physics_set_mode(q, MF_PHYSICS_NONE);
    for (int32_t i = 0; i < p->bone_count; i++)
        q->y[i] = p->y[i], q->rot[i] = p->rot[i], q->sx[i] = p->sx[i], q->sy[i] = p->sy[i], q->shx[i] = p->shx[i],
        q->shy[i] = p->shy[i];
    mf_pose_update_world(q);
    double most = 0;
    for (int32_t i = 0; i < p->bone_count; i++) {
        double e = fabs((double)q->wx[i] - p->wx[i]) + fabs((double)q->wy[i] - p->wy[i]);
        if (e > most) most = e;
    }
    mf_pose_destroy(q);
    return most;
}

/* ---------------------------------------------------------------- the fixture */

/* Per instance: 0 plain, with a host reset at frame 70 and POSE mode for frames 100..109;
 * 1 at the pose-wide mix 0.5 with global gravity and wind, a teleport distance and a jump of
 * 500 px at frame 90, the bob's bone inactive for frames 20..49 (its constraint skipped, its
 * time and movement kept); 2 moving a little every frame, mode NONE for frames 40..59 then
 * UPDATE, mix 0 for frames 130..139. */
static void fixture_hook(mf_pose *p, int inst, int f)
{
    if (inst == 0) {
        if (f == 70) mf_pose_physics_reset(p);
        mf_pose_physics_set_mode(p, f >= 100 && f < 110 ? MF_PHYSICS_POSE : MF_PHYSICS_UPDATE);
    } else if (inst == 1) {
        mf_pose_physics_set_mix(p, 0.5f);
        mf_pose_physics_set_globals(p, 15.0f, -8.0f);
        mf_pose_physics_set_teleport(p, 200.0f);
        if (f == 90) mf_pose_physics_move(p, 500.0f, -40.0f);
        if (f % 10 == 0) mf_pose_physics_move(p, -4.0f, 2.0f);
        p->active[5] = f < 20 || f >= 50;
    } else {
        mf_pose_physics_move(p, 3.0f, -1.5f);
        mf_pose_physics_set_mode(p, f >= 40 && f < 60 ? MF_PHYSICS_NONE : MF_PHYSICS_UPDATE);
        mf_pose_physics_set_mix(p, f >= 130 && f < 140 ? 0.0f : 1.0f);
    }
}

/* frame f's time in the irregular run: between 0.3 and 2.3 sixtieths, some frames 0, one far
 * beyond the 4-step cap */
static double irregular_dt(int f)
{
    if (f % 37 == 5) return 0;
    if (f == 77) return 0.2;
    return (1.0 / 60.0) * (0.3 + (double)((f * 7) % 11) / 5.0);
}

static void test_fixture_agrees(void **state)
{
    (void)state;
    NEED_DEVICE();
    test_rig r;
    test_rig_build(&r, PHYS_RIG, PHYS_NAMES, PHYS_CLIPS, 1);
    assert_int_equal(r.data.physics_count, 5);
    bench s;
    bench_open(&s, &r.data, 3, 0);
    worst w = {0};
    double swung = 0;
    for (int f = 0; f < 150; f++) {
        bench_frame(&s, f, 1.0 / 60.0, fixture_hook, &w);
        double e = swing(s.p[0].cpu, &r.data);
        if (e > swung) swung = e;
    }
    report("fixture, dt 1/60", &w);
    assert_true(swung > 5.0); /* the springs did swing */
    worst w2 = {0};
    for (int f = 0; f < 150; f++) bench_frame(&s, f, irregular_dt(f), fixture_hook, &w2);
    report("fixture, irregular dt", &w2);
    bench_close(&s);
    test_rig_free(&r);
    assert_int_equal(mf_gpu_device_messages(g_dev, NULL), 0);
}

/* Two instances with the same inputs in two states pose the same; a reset of one parts them,
 * each still its CPU twin's. A state released and acquired again starts at rest: as a new pose
 * on the CPU. Frame times of 1/64 s (exact: the new pose's clock rounds as the old one's). */
static void test_states_apart(void **state)
{
    (void)state;
    NEED_DEVICE();
    test_rig r;
    test_rig_build(&r, PHYS_RIG, PHYS_NAMES, PHYS_CLIPS, 1);
    bench s;
    bench_open(&s, &r.data, 2, 0);
    /* both from the same clip time */
    mf_tracks_entry(s.p[1].tg, mf_tracks_current(s.p[1].tg, 0))->track_time = 0;
    mf_tracks_entry(s.p[1].tc, mf_tracks_current(s.p[1].tc, 0))->track_time = 0;
    memcpy(s.p[1].xf, s.p[0].xf, sizeof s.p[0].xf);
    assert_true(s.p[0].state != s.p[1].state);
    worst w = {0};
    const double dt = 1.0 / 64.0;
    for (int f = 0; f < 40; f++) {
        bench_frame(&s, f, dt, NULL, &w);
        for (int32_t i = 0; i < r.data.bone_count; i++) assert_true(s.p[0].twin->wx[i] == s.p[1].twin->wx[i]);
    }
    mf_pose_physics_reset(s.p[1].gpu), mf_pose_physics_reset(s.p[1].cpu);
    double apart = 0;
    for (int f = 40; f < 80; f++) {
        bench_frame(&s, f, dt, NULL, &w);
        for (int32_t i = 0; i < r.data.bone_count; i++)
            apart = fmax(apart, fabs((double)s.p[0].twin->wx[i] - s.p[1].twin->wx[i]));
    }
    assert_true(apart > 0.5);
    /* instance 1's state released and acquired again (the same units: first fit), its CPU twin
     * a new pose at the same clip time */
    int32_t old = s.p[1].state;
    assert_int_equal(mf_gpu_batch_physics_release(s.b, old), MF_OK);
    assert_int_equal(mf_gpu_batch_physics_acquire(s.b, s.rig, &s.p[1].state), MF_OK);
    assert_int_equal(s.p[1].state, old);
    double t = mf_tracks_entry(s.p[1].tc, mf_tracks_current(s.p[1].tc, 0))->track_time;
    mf_tracks_destroy(s.p[1].tc);
    mf_pose_destroy(s.p[1].cpu);
    assert_int_equal(mf_pose_create(&r.data, NULL, &s.p[1].cpu, NULL), MF_OK);
    assert_int_equal(mf_tracks_create(&r.data, NULL, NULL, &s.p[1].tc), MF_OK);
    mf_tracks_entry(s.p[1].tc, mf_tracks_set(s.p[1].tc, 0, 0, true))->track_time = t;
    for (int f = 80; f < 140; f++) bench_frame(&s, f, dt, NULL, &w);
    report("two states, released and acquired again", &w);
    bench_close(&s);
    test_rig_free(&r);
    assert_int_equal(mf_gpu_device_messages(g_dev, NULL), 0);
}

/* Three frames in flight, none waited for until the last: each frame's world pass reads the
 * springs the previous one wrote (the barrier at the frame's start), and the last frame agrees
 * with the CPU's after 90 frames. */
static void test_frames_in_flight(void **state)
{
    (void)state;
    NEED_DEVICE();
    test_rig r;
    test_rig_build(&r, PHYS_RIG, PHYS_NAMES, PHYS_CLIPS, 1);
    g_no_wait = true;
    bench s;
    bench_open(&s, &r.data, 3, 0);
    worst w = {0};
    for (int f = 0; f < 89; f++) bench_frame(&s, f, irregular_dt(f), fixture_hook, &w);
    g_no_wait = false;
    bench_frame(&s, 89, 1.0 / 60.0, fixture_hook, &w);
    report("three frames in flight, the last compared", &w);
    bench_close(&s);
    test_rig_free(&r);
    assert_int_equal(mf_gpu_device_messages(g_dev, NULL), 0);
}

/* ---------------------------------------------------------------- edges */

/* The branches PHYS_RIG leaves out: a physics constraint on the root (no parent), on a bone of
 * length 0 with rotate (no turn), x and y alone on an OnlyTranslation bone, on a bone turned
 * past 180 (its applied rotation outside atan2's range: the full applied update; kept at
 * 200-230, away from 180, where the transform constraint's wrapped difference to its target
 * would sit on +-180 and float and double rounding may pick either side, as mf_gpu.h says:
 * the H200 did at 170 + 12), on one of x
 * scale 0 and on one of x scale -1.2 (the full update makes it 1.2, turned 180); shearX alone under wind; scaleX under gravity on a y-sheared bone (the asy rule);
 * a skin-required bone and constraint only a skin activates; global wind keyed; a local
 * transform constraint after them re-posing six of those bones from the applied values the
 * physics left them. */
static const char *EDGE_RIG = RIG_HEAD
    "\"bones\":[{\"name\":\"root\",\"length\":10},"
    "{\"name\":\"spin0\",\"parent\":\"root\",\"x\":10,\"length\":0},"
    "{\"name\":\"ot\",\"parent\":\"root\",\"x\":-20,\"y\":5,\"rot\":30,\"length\":20,\"inherit\":\"OnlyTranslation\"},"
    "{\"name\":\"big\",\"parent\":\"root\",\"y\":-15,\"rot\":200,\"length\":30},"
    "{\"name\":\"flat\",\"parent\":\"root\",\"y\":15,\"sx\":0,\"length\":20},"
    "{\"name\":\"shr\",\"parent\":\"root\",\"x\":20,\"rot\":-45,\"length\":30},"
    "{\"name\":\"scl\",\"parent\":\"root\",\"x\":-10,\"y\":-25,\"rot\":120,\"shy\":15,\"sy\":1.3,\"length\":25},"
    "{\"name\":\"sk\",\"parent\":\"root\",\"x\":5,\"y\":30,\"rot\":80,\"length\":35,\"skinRequired\":true},"
    "{\"name\":\"neg\",\"parent\":\"root\",\"x\":-30,\"y\":-5,\"rot\":20,\"sx\":-1.2,\"length\":20}],"
    "\"slots\":[{\"name\":\"a\",\"bone\":\"spin0\",\"attachment\":\"r\"},{\"name\":\"b\",\"bone\":\"ot\",\"attachment\":\"r\"},"
    "{\"name\":\"c\",\"bone\":\"big\",\"attachment\":\"r\"},{\"name\":\"d\",\"bone\":\"flat\",\"attachment\":\"r\"},"
    "{\"name\":\"e\",\"bone\":\"shr\",\"attachment\":\"r\"},{\"name\":\"f\",\"bone\":\"scl\",\"attachment\":\"r\"},"
    "{\"name\":\"g\",\"bone\":\"sk\",\"attachment\":\"r\"},{\"name\":\"h\",\"bone\":\"neg\",\"attachment\":\"r\"}],"
    "\"physics\":[{\"name\":\"p_root\",\"order\":0,\"bone\":\"root\",\"x\":0.5,\"y\":0.5,\"rotate\":0.3,\"strength\":90,\"damping\":0.9},"
    "{\"name\":\"p_spin0\",\"order\":1,\"bone\":\"spin0\",\"x\":1,\"rotate\":1,\"gravity\":30,\"strength\":70},"
    "{\"name\":\"p_ot\",\"order\":2,\"bone\":\"ot\",\"x\":1,\"y\":1,\"strength\":60,\"damping\":0.9,\"gravity\":10},"
    "{\"name\":\"p_big\",\"order\":3,\"bone\":\"big\",\"x\":1,\"y\":0.5,\"strength\":80,\"inertia\":0.7},"
    "{\"name\":\"p_flat\",\"order\":4,\"bone\":\"flat\",\"x\":1,\"y\":1,\"strength\":50},"
    "{\"name\":\"p_shr\",\"order\":5,\"bone\":\"shr\",\"shearX\":1,\"wind\":20,\"strength\":90,\"windGlobal\":true},"
    "{\"name\":\"p_scl\",\"order\":6,\"bone\":\"scl\",\"scaleX\":1,\"gravity\":25,\"strength\":100,\"damping\":0.8},"
    "{\"name\":\"p_sk\",\"order\":7,\"bone\":\"sk\",\"x\":1,\"rotate\":1,\"strength\":60,\"gravity\":20,\"skinRequired\":true},"
    "{\"name\":\"p_neg\",\"order\":8,\"bone\":\"neg\",\"x\":1,\"y\":1,\"strength\":70,\"gravity\":15}],"
    "\"transform\":[{\"name\":\"tf\",\"order\":9,\"bones\":[\"big\",\"flat\",\"ot\",\"scl\",\"shr\",\"neg\"],\"target\":\"spin0\","
    "\"local\":true,\"mixRotate\":0.3,\"mixX\":0.2,\"mixY\":0.2,\"mixScaleX\":0.3,\"mixScaleY\":0.3,\"mixShearY\":0.2}],"
    "\"skins\":[{\"name\":\"default\",\"attachments\":["
    "{\"slot\":\"a\",\"name\":\"r\",\"type\":\"Region\",\"x\":5,\"width\":10,\"height\":10},"
    "{\"slot\":\"b\",\"name\":\"r\",\"type\":\"Region\",\"x\":10,\"width\":20,\"height\":6},"
    "{\"slot\":\"c\",\"name\":\"r\",\"type\":\"Region\",\"x\":15,\"width\":30,\"height\":6},"
    "{\"slot\":\"d\",\"name\":\"r\",\"type\":\"Region\",\"x\":10,\"width\":20,\"height\":6},"
    "{\"slot\":\"e\",\"name\":\"r\",\"type\":\"Region\",\"x\":15,\"width\":30,\"height\":6},"
    "{\"slot\":\"f\",\"name\":\"r\",\"type\":\"Region\",\"x\":12,\"width\":25,\"height\":6},"
    "{\"slot\":\"g\",\"name\":\"r\",\"type\":\"Region\",\"x\":17,\"width\":35,\"height\":6},"
    "{\"slot\":\"h\",\"name\":\"r\",\"type\":\"Region\",\"x\":10,\"width\":20,\"height\":6}]},"
    "{\"name\":\"extra\",\"bones\":[\"sk\"],\"constraints\":[\"p_sk\"],\"attachments\":[]}]}";

static const char *const EDGE_NAMES[] = {"move"};
static const char *const EDGE_CLIPS[] = {
    CLIP_HEAD "\"length\":1,\"bones\":{\"root\":{\"translate\":{\"t\":[0,0.3,0.6,1],\"v\":[[0,0],[70,-20],[-40,35],[0,0]]},"
    "\"rotate\":{\"t\":[0,0.5,1],\"v\":[0,-30,0]}},\"big\":{\"rotate\":{\"t\":[0,0.5,1],\"v\":[0,30,0]}},"
    "\"shr\":{\"rotate\":{\"t\":[0,0.5,1],\"v\":[0,50,0]}},\"sk\":{\"rotate\":{\"t\":[0,0.5,1],\"v\":[0,-70,0]}}},"
    "\"physics\":{\"\":{\"wind\":{\"t\":[0,1],\"v\":[-10,40]}}}}"};

static mf_skin_cache *g_edge_skins;

/* Per instance: 0 starts in NONE (its first adds rest nothing), is in NONE again for frames
 * 30..39 and asked to reset during each (the request waits for UPDATE), POSE for 60..64 with a
 * reset at 62; 1 wears the skin that activates
 * sk and p_sk for frames 30..59 only (the constraint's time and movement kept while off), a
 * reset asked at 70 while it is off, worn again from 90; 2 starts in POSE, moves 155 px at 20
 * past a teleport distance of 100 (on a frame of no time at 20) and a little every frame. */
static void edge_hook(mf_pose *p, int inst, int f)
{
    if (inst == 0) {
        bool none = f < 5 || (f >= 30 && f < 40);
        mf_pose_physics_set_mode(p, none ? MF_PHYSICS_NONE : f >= 60 && f < 65 ? MF_PHYSICS_POSE : MF_PHYSICS_UPDATE);
        if (f == 3 || f == 33 || f == 62) mf_pose_physics_reset(p);
    } else if (inst == 1) {
        int32_t extra = mf_skel_data_find_skin(p->data, "extra");
        if (f == 30 || f == 90) assert_int_equal(mf_pose_set_skins(p, g_edge_skins, &extra, 1, NULL), MF_OK);
        if (f == 60) assert_int_equal(mf_pose_set_skins(p, g_edge_skins, NULL, 0, NULL), MF_OK);
        if (f % 7 == 0) mf_pose_physics_move(p, 2.0f, -3.0f);
        if (f == 70) mf_pose_physics_reset(p);
    } else {
        mf_pose_physics_set_mode(p, f < 5 ? MF_PHYSICS_POSE : MF_PHYSICS_UPDATE);
        mf_pose_physics_set_teleport(p, 100.0f);
        mf_pose_physics_move(p, f == 20 ? 150.0f : 1.5f, f == 20 ? 40.0f : -0.5f);
    }
}

static double edge_dt(int f) { return f == 20 || f % 23 == 11 ? 0 : f == 95 ? 0.15 : irregular_dt(f); }

static void test_edges_agree(void **state)
{
    (void)state;
    NEED_DEVICE();
    test_rig r;
    test_rig_build(&r, EDGE_RIG, EDGE_NAMES, EDGE_CLIPS, 1);
    assert_int_equal(r.data.physics_count, 9);
    assert_int_equal(mf_skin_cache_create(&r.data, NULL, &g_edge_skins), MF_OK);
    bench s;
    bench_open(&s, &r.data, 3, 0);
    worst w = {0};
    double swung = 0;
    for (int f = 0; f < 160; f++) {
        bench_frame(&s, f, edge_dt(f), edge_hook, &w);
        for (int i = 0; i < 3; i++) swung = fmax(swung, swing(s.p[i].cpu, &r.data));
    }
    report("edges", &w);
    assert_true(swung > 5.0);
    bench_close(&s);
    mf_skin_cache_destroy(g_edge_skins);
    test_rig_free(&r);
    assert_int_equal(mf_gpu_device_messages(g_dev, NULL), 0);
}

/* A frame begun, added to and then dropped (never recorded nor submitted: a host that skips a
 * frame after its adds, its swapchain image out of date): the states it was to put at rest
 * never reached the GPU, so they rest at their next add, as a pose whose first world update is
 * that frame's; before, the host counted them at rest and the GPU read a state nothing had
 * written. A reset asked on a dropped frame is done at the next (frame 31 at rest as the CPU's,
 * whose update that frame rests; the time it keeps is the two frames' there, this frame's on
 * the GPU, so the frames after it are not compared). */
static void test_dropped_frame(void **state)
{
    (void)state;
    NEED_DEVICE();
    test_rig r;
    test_rig_build(&r, PHYS_RIG, PHYS_NAMES, PHYS_CLIPS, 1);
    bench s;
    bench_open(&s, &r.data, 1, 0);
    pair *q = &s.p[0];
    const double dt = 1.0 / 60.0;
    worst w = {0};
    for (int f = 0; f < 32; f++) {
        if (f == 0 || f == 30) { /* dropped: the GPU's pose added, the frame never recorded */
            if (f == 30) mf_pose_physics_reset(q->gpu), mf_pose_physics_reset(q->cpu);
            assert_int_equal(mf_gpu_batch_begin(s.b), MF_OK);
            mf_pose *both[2] = {q->gpu, q->cpu};
            mf_tracks *tr[2] = {q->tg, q->tc};
            for (int k = 0; k < 2; k++) {
                mf_pose_reset(both[k]);
                mf_tracks_update(tr[k], (float)dt);
                mf_tracks_apply(tr[k], both[k]);
                mf_pose_physics_step(both[k], dt);
            }
            /* the GPU's frame took its inputs; the CPU's twin is not updated that frame */
            assert_int_equal(mf_gpu_batch_add_physics(s.b, s.rig, q->gpu, q->state, q->xf), MF_OK);
            continue;
        }
        bench_frame(&s, f, dt, NULL, &w);
    }
    report("a dropped first frame and a dropped reset", &w);
    bench_close(&s);
    test_rig_free(&r);
    assert_int_equal(mf_gpu_device_messages(g_dev, NULL), 0);
}

/* States of two rigs (PHYS_RIG: 5 constraints, EDGE_RIG: 9) coming and going at random in a
 * batch with room for 24 constraints (acquires refused for room, first fit into the holes
 * others left), three frames in flight, released before or after their add, acquired where a
 * state added that frame was released (refused until the next frame, the pose's time then
 * waiting, as its CPU twin's, which skips that frame's world update too): every fifth frame
 * waited for and every instance posed that frame compared with its CPU twin. */
typedef struct rnd_inst {
    bool alive;
    int rig;
    int32_t state;
    mf_pose *gpu, *cpu, *twin;
    mf_tracks *tg, *tc;
    int32_t add; /* its index among the frame's adds, -1: not added */
} rnd_inst;

static uint32_t g_rnd = 12345;
static uint32_t rnd(uint32_t n)
{
    g_rnd = g_rnd * 1664525u + 1013904223u;
    return (g_rnd >> 8) % n;
}

static void rnd_kill(rnd_inst *x, mf_gpu_batch *b)
{
    assert_int_equal(mf_gpu_batch_physics_release(b, x->state), MF_OK);
    mf_pose_destroy(x->gpu), mf_pose_destroy(x->cpu), mf_pose_destroy(x->twin);
    mf_tracks_destroy(x->tg), mf_tracks_destroy(x->tc);
    x->alive = false;
}

static void test_states_random(void **state)
{
    (void)state;
    NEED_DEVICE();
    test_rig r[2];
    test_rig_build(&r[0], PHYS_RIG, PHYS_NAMES, PHYS_CLIPS, 1);
    test_rig_build(&r[1], EDGE_RIG, EDGE_NAMES, EDGE_CLIPS, 1);
    mf_gpu_rig *g[2];
    for (int k = 0; k < 2; k++) assert_int_equal(mf_gpu_rig_create(g_dev, &r[k].data, &g[k], NULL), MF_OK);
    mf_gpu_batch_desc gd = {.max_vertices = 1 << 14, .max_instances = 8, .max_words = 1 << 16, .max_physics = 24,
                            .readback_world = true, .frames_in_flight = 3};
    mf_gpu_batch *b = NULL;
    assert_int_equal(mf_gpu_batch_create(g_dev, &gd, &b, NULL), MF_OK);
    rnd_inst in[8] = {0};
    worst w = {0};
    int refused_room = 0, refused_wait = 0, compared = 0;
    for (int f = 0; f < 400; f++) {
        assert_int_equal(mf_gpu_batch_begin(b), MF_OK);
        int32_t adds = 0;
        for (int i = 0; i < 8; i++) {
            rnd_inst *x = &in[i];
            x->add = -1;
            if (!x->alive && rnd(4) == 0) { /* a new instance */
                int k = (int)rnd(2);
                mf_result res = mf_gpu_batch_physics_acquire(b, g[k], &x->state);
                if (res == MF_ERR_NOMEM) {
                    refused_room++;
                    continue;
                }
                assert_int_equal(res, MF_OK);
                x->alive = true, x->rig = k;
                const mf_skel_data *d = &r[k].data;
                assert_int_equal(mf_pose_create(d, NULL, &x->gpu, NULL), MF_OK);
                assert_int_equal(mf_pose_create(d, NULL, &x->cpu, NULL), MF_OK);
                assert_int_equal(mf_pose_create(d, NULL, &x->twin, NULL), MF_OK);
                assert_int_equal(mf_tracks_create(d, NULL, NULL, &x->tg), MF_OK);
                assert_int_equal(mf_tracks_create(d, NULL, NULL, &x->tc), MF_OK);
                double t = 0.01 * rnd(100);
                mf_tracks_entry(x->tg, mf_tracks_set(x->tg, 0, 0, true))->track_time = t;
                mf_tracks_entry(x->tc, mf_tracks_set(x->tc, 0, 0, true))->track_time = t;
            }
            if (!x->alive) continue;
            if (rnd(20) == 0) { /* gone before its add */
                rnd_kill(x, b);
                continue;
            }
            double dt = irregular_dt(f + 3 * i);
            mf_pose *both[2] = {x->gpu, x->cpu};
            mf_tracks *tr[2] = {x->tg, x->tc};
            bool reset = rnd(40) == 0;
            for (int k = 0; k < 2; k++) {
                mf_pose_reset(both[k]);
                mf_tracks_update(tr[k], (float)dt);
                mf_tracks_apply(tr[k], both[k]);
                if (reset) mf_pose_physics_reset(both[k]);
                mf_pose_physics_step(both[k], dt);
            }
            mf_result res = mf_gpu_batch_add_physics(b, g[x->rig], x->gpu, x->state, NULL);
            if (res == MF_ERR_ARGUMENT) { /* on units a state added this frame was released from */
                refused_wait++;
                continue; /* the time waits in both poses */
            }
            assert_int_equal(res, MF_OK);
            mf_pose_update_world(x->cpu);
            x->add = adds++;
            if (rnd(20) == 0) rnd_kill(x, b); /* gone after its add */
        }
        assert_int_equal(mf_gpu_batch_submit(b), MF_OK);
        if (f % 5 != 4) continue;
        assert_int_equal(mf_gpu_batch_wait(b), MF_OK);
        for (int i = 0; i < 8; i++) {
            rnd_inst *x = &in[i];
            if (!x->alive || x->add < 0) continue;
            assert_int_equal(mf_gpu_batch_read_world(b, x->add, x->twin), MF_OK);
            expect_world(x->twin, x->cpu, &w, f, i);
            compared++;
        }
    }
    fprintf(stderr, "random states: %d instance frames compared (%ld bones), %d acquires refused for room, %d adds "
            "waiting a frame; largest GPU-CPU difference %.5f px in the bones, %.2e in their 2x2\n",
            compared, w.bones, refused_room, refused_wait, w.pos, w.m);
    assert_true(compared > 100 && refused_room > 0 && refused_wait > 0);
    assert_int_equal(mf_gpu_batch_wait(b), MF_OK);
    for (int i = 0; i < 8; i++)
        if (in[i].alive) rnd_kill(&in[i], b);
    mf_gpu_batch_destroy(b);
    for (int k = 0; k < 2; k++) mf_gpu_rig_destroy(g[k]), test_rig_free(&r[k]);
    assert_int_equal(mf_gpu_device_messages(g_dev, NULL), 0);
}

/* ---------------------------------------------------------------- contracts */

static void test_bad_use(void **state)
{
    (void)state;
    NEED_DEVICE();
    test_rig r, plain;
    test_rig_build(&r, PHYS_RIG, PHYS_NAMES, PHYS_CLIPS, 1);
    test_rig_build(&plain, WORLD_RIG, WORLD_NAMES, WORLD_CLIPS, 2);
    mf_gpu_rig *rig = NULL, *rig2 = NULL, *prig = NULL;
    assert_int_equal(mf_gpu_rig_create(g_dev, &r.data, &rig, NULL), MF_OK);
    assert_int_equal(mf_gpu_rig_create(g_dev, &r.data, &rig2, NULL), MF_OK); /* another rig, same data */
    assert_int_equal(mf_gpu_rig_create(g_dev, &plain.data, &prig, NULL), MF_OK);
    /* room for two states of 5 constraints and a bit */
    mf_gpu_batch_desc gd = {.max_instances = 8, .max_physics = 12};
    mf_gpu_batch *b = NULL, *other = NULL;
    assert_int_equal(mf_gpu_batch_create(g_dev, &gd, &b, NULL), MF_OK);
    assert_int_equal(mf_gpu_batch_create(g_dev, &gd, &other, NULL), MF_OK);
    mf_gpu_batch_desc bad = {.max_physics = -1};
    mf_gpu_batch *nb = NULL;
    assert_int_equal(mf_gpu_batch_create(g_dev, &bad, &nb, NULL), MF_ERR_ARGUMENT);
    mf_pose *p = NULL, *pp = NULL;
    assert_int_equal(mf_pose_create(&r.data, NULL, &p, NULL), MF_OK);
    assert_int_equal(mf_pose_create(&plain.data, NULL, &pp, NULL), MF_OK);
    int32_t a = -1, c = -1, d = -1, x = -1;
    assert_int_equal(mf_gpu_batch_physics_acquire(NULL, rig, &a), MF_ERR_ARGUMENT);
    assert_int_equal(mf_gpu_batch_physics_acquire(b, NULL, &a), MF_ERR_ARGUMENT);
    assert_int_equal(mf_gpu_batch_physics_acquire(b, rig, NULL), MF_ERR_ARGUMENT);
    assert_int_equal(mf_gpu_batch_physics_acquire(b, prig, &a), MF_ERR_ARGUMENT); /* no physics */
    assert_int_equal(a, -1);
    assert_int_equal(mf_gpu_batch_physics_acquire(b, rig, &a), MF_OK);
    assert_int_equal(mf_gpu_batch_physics_acquire(b, rig2, &c), MF_OK);
    assert_int_equal(mf_gpu_batch_physics_acquire(b, rig, &d), MF_ERR_NOMEM); /* 10 of 12 taken */
    assert_int_equal(d, -1);
    assert_int_equal(mf_gpu_batch_physics_acquire(other, rig, &x), MF_OK); /* another batch's */
    /* before begin */
    assert_int_equal(mf_gpu_batch_add_physics(b, rig, p, a, NULL), MF_ERR_ARGUMENT);
    assert_int_equal(mf_gpu_batch_begin(b), MF_OK);
    mf_pose_physics_step(p, 0.5);
    const mf_pose_scratch *ps = p->scratch;
    assert_int_equal(mf_gpu_batch_add_physics(b, rig, p, c, NULL), MF_ERR_ARGUMENT);  /* rig2's state */
    assert_int_equal(mf_gpu_batch_add_physics(b, rig2, p, a, NULL), MF_ERR_ARGUMENT); /* rig's state */
    assert_int_equal(mf_gpu_batch_add_physics(b, rig, p, -1, NULL), MF_ERR_ARGUMENT);
    assert_int_equal(mf_gpu_batch_add_physics(b, rig, p, 12, NULL), MF_ERR_ARGUMENT);
    assert_int_equal(mf_gpu_batch_add_physics(b, rig, p, 1, NULL), MF_ERR_ARGUMENT); /* inside a state */
    assert_int_equal(mf_gpu_batch_add_physics(b, rig, p, 11, NULL), MF_ERR_ARGUMENT); /* free units */
    assert_int_equal(mf_gpu_batch_add_physics(b, prig, pp, a, NULL), MF_ERR_ARGUMENT); /* no physics */
    assert_int_equal(mf_gpu_batch_add_physics(b, rig, pp, a, NULL), MF_ERR_ARGUMENT);  /* another data */
    assert_int_equal(mf_gpu_batch_add_physics(b, rig, NULL, a, NULL), MF_ERR_ARGUMENT);
    assert_int_equal(mf_gpu_batch_add_physics(NULL, rig, p, a, NULL), MF_ERR_ARGUMENT);
    assert_int_equal(mf_gpu_batch_add_local(b, rig, p, NULL), MF_ERR_ARGUMENT); /* physics needs a state */
    assert_int_equal(b->skeletons, 0);
    assert_true(ps->phys_dt == 0.5); /* nothing taken by the refusals */
    assert_int_equal(mf_gpu_batch_add_physics(b, rig, p, a, NULL), MF_OK);
    assert_true(ps->phys_dt == 0); /* taken, as mf_pose_update_world takes it */
    assert_int_equal(mf_gpu_batch_add_physics(b, rig, p, a, NULL), MF_ERR_ARGUMENT); /* twice a frame */
    assert_int_equal(mf_gpu_batch_add_physics(b, rig2, p, c, NULL), MF_OK);
    assert_int_equal(b->skeletons, 2);
    /* released: refused, and again; acquired in its place: not before the next frame */
    assert_int_equal(mf_gpu_batch_physics_release(b, a), MF_OK);
    assert_int_equal(mf_gpu_batch_physics_release(b, a), MF_ERR_ARGUMENT);
    assert_int_equal(mf_gpu_batch_physics_release(b, -1), MF_ERR_ARGUMENT);
    assert_int_equal(mf_gpu_batch_physics_release(b, 12), MF_ERR_ARGUMENT);
    assert_int_equal(mf_gpu_batch_physics_release(NULL, a), MF_ERR_ARGUMENT);
    assert_int_equal(mf_gpu_batch_add_physics(b, rig, p, a, NULL), MF_ERR_ARGUMENT);
    assert_int_equal(mf_gpu_batch_physics_acquire(b, rig, &d), MF_OK);
    assert_int_equal(d, a); /* first fit: the room it left */
    assert_int_equal(mf_gpu_batch_add_physics(b, rig, p, d, NULL), MF_ERR_ARGUMENT);
    assert_int_equal(mf_gpu_batch_submit(b), MF_OK);
    assert_int_equal(mf_gpu_batch_begin(b), MF_OK);
    assert_int_equal(mf_gpu_batch_add_physics(b, rig, p, d, NULL), MF_OK);
    assert_int_equal(mf_gpu_batch_submit(b), MF_OK);
    assert_int_equal(mf_gpu_batch_wait(b), MF_OK);
    mf_gpu_batch_destroy(b), mf_gpu_batch_destroy(other);
    mf_pose_destroy(p), mf_pose_destroy(pp);
    mf_gpu_rig_destroy(rig), mf_gpu_rig_destroy(rig2), mf_gpu_rig_destroy(prig);
    test_rig_free(&r), test_rig_free(&plain);
    assert_int_equal(mf_gpu_device_messages(g_dev, NULL), 0);
}

/* A state released after its add this frame: only one acquired in its place waits for the next
 * frame (mf_gpu.h); one acquired elsewhere, in room freed by a state not added this frame, is
 * added at once (before, every state acquired after such a release waited). */
static void test_release_in_frame(void **state)
{
    (void)state;
    NEED_DEVICE();
    test_rig r;
    test_rig_build(&r, PHYS_RIG, PHYS_NAMES, PHYS_CLIPS, 1);
    mf_gpu_rig *rig = NULL;
    assert_int_equal(mf_gpu_rig_create(g_dev, &r.data, &rig, NULL), MF_OK);
    mf_gpu_batch_desc gd = {.max_instances = 8, .max_physics = 10}; /* two states of 5 */
    mf_gpu_batch *b = NULL;
    assert_int_equal(mf_gpu_batch_create(g_dev, &gd, &b, NULL), MF_OK);
    mf_pose *p = NULL;
    assert_int_equal(mf_pose_create(&r.data, NULL, &p, NULL), MF_OK);
    int32_t a = -1, bb = -1, c = -1, d = -1;
    assert_int_equal(mf_gpu_batch_physics_acquire(b, rig, &a), MF_OK);
    assert_int_equal(mf_gpu_batch_physics_acquire(b, rig, &bb), MF_OK);
    assert_int_equal(a, 0);
    assert_int_equal(bb, 5);
    assert_int_equal(mf_gpu_batch_begin(b), MF_OK);
    assert_int_equal(mf_gpu_batch_add_physics(b, rig, p, a, NULL), MF_OK);
    assert_int_equal(mf_gpu_batch_add_physics(b, rig, p, bb, NULL), MF_OK);
    assert_int_equal(mf_gpu_batch_submit(b), MF_OK);
    assert_int_equal(mf_gpu_batch_begin(b), MF_OK);
    assert_int_equal(mf_gpu_batch_physics_release(b, a), MF_OK); /* not added this frame */
    assert_int_equal(mf_gpu_batch_add_physics(b, rig, p, bb, NULL), MF_OK);
    assert_int_equal(mf_gpu_batch_physics_release(b, bb), MF_OK); /* added this frame */
    assert_int_equal(mf_gpu_batch_physics_acquire(b, rig, &c), MF_OK);
    assert_int_equal(c, 0);                                                /* a's room */
    assert_int_equal(mf_gpu_batch_add_physics(b, rig, p, c, NULL), MF_OK); /* not bb's: at once */
    assert_int_equal(mf_gpu_batch_physics_acquire(b, rig, &d), MF_OK);
    assert_int_equal(d, 5);                                                          /* bb's room */
    assert_int_equal(mf_gpu_batch_add_physics(b, rig, p, d, NULL), MF_ERR_ARGUMENT); /* next frame */
    assert_int_equal(mf_gpu_batch_submit(b), MF_OK);
    assert_int_equal(mf_gpu_batch_begin(b), MF_OK);
    assert_int_equal(mf_gpu_batch_add_physics(b, rig, p, c, NULL), MF_OK);
    assert_int_equal(mf_gpu_batch_add_physics(b, rig, p, d, NULL), MF_OK);
    /* d released after its add, and a state of the same rig acquired in its place at once */
    assert_int_equal(mf_gpu_batch_physics_release(b, d), MF_OK);
    assert_int_equal(mf_gpu_batch_physics_acquire(b, rig, &d), MF_OK);
    assert_int_equal(d, 5);
    assert_int_equal(mf_gpu_batch_add_physics(b, rig, p, d, NULL), MF_ERR_ARGUMENT);
    assert_int_equal(mf_gpu_batch_submit(b), MF_OK);
    assert_int_equal(mf_gpu_batch_wait(b), MF_OK);
    mf_gpu_batch_destroy(b);
    mf_pose_destroy(p);
    mf_gpu_rig_destroy(rig);
    test_rig_free(&r);
    assert_int_equal(mf_gpu_device_messages(g_dev, NULL), 0);
}

/* A frame of instances with physics allocates nothing, on the CPU (the device's and the poses'
 * allocators counted) or the GPU. */
static void test_no_allocation_per_frame(void **state)
{
    (void)state;
    NEED_DEVICE();
    test_rig r;
    test_rig_build(&r, PHYS_RIG, PHYS_NAMES, PHYS_CLIPS, 1);
    mf_gpu_rig *rig = NULL;
    assert_int_equal(mf_gpu_rig_create(g_dev, &r.data, &rig, NULL), MF_OK);
    mf_gpu_batch *b = NULL;
    mf_gpu_batch_desc gd = {.max_instances = 4};
    assert_int_equal(mf_gpu_batch_create(g_dev, &gd, &b, NULL), MF_OK);
    mf_pose *p[3];
    mf_tracks *t[3];
    int32_t st[3];
    for (int i = 0; i < 3; i++) {
        assert_int_equal(mf_pose_create(&r.data, &COUNTED, &p[i], NULL), MF_OK);
        assert_int_equal(mf_tracks_create(&r.data, NULL, &COUNTED, &t[i]), MF_OK);
        mf_tracks_set(t[i], 0, 0, true);
        assert_int_equal(mf_gpu_batch_physics_acquire(b, rig, &st[i]), MF_OK);
    }
    long before = g_allocs;
    for (int f = 0; f < 30; f++) {
        assert_int_equal(mf_gpu_batch_begin(b), MF_OK);
        for (int i = 0; i < 3; i++) {
            mf_pose_reset(p[i]);
            mf_tracks_update(t[i], 1.0f / 60.0f);
            mf_tracks_apply(t[i], p[i]);
            mf_pose_physics_step(p[i], 1.0 / 60.0);
            if (f == 10) mf_pose_physics_reset(p[i]);
            assert_int_equal(mf_gpu_batch_add_physics(b, rig, p[i], st[i], NULL), MF_OK);
        }
        assert_int_equal(mf_gpu_batch_submit(b), MF_OK);
    }
    assert_int_equal(mf_gpu_batch_wait(b), MF_OK);
    assert_int_equal(g_allocs, before);
    for (int i = 0; i < 3; i++) mf_pose_destroy(p[i]), mf_tracks_destroy(t[i]);
    mf_gpu_batch_destroy(b);
    mf_gpu_rig_destroy(rig);
    test_rig_free(&r);
}

/* ---------------------------------------------------------------- the corpus */

static bool corpus_load(const char *name, const char *json, char **blob, mf_skel_data *d)
{
    const char *shared = tu_shared();
    char dir[1200], path[1400], atlas[1400], out[1400], mskel[1600], blob_path[1600];
    snprintf(dir, sizeof dir, "%s/spine-corpus/%s", shared ? shared : "", name);
    struct stat sb;
    if (!shared || stat(dir, &sb) != 0) {
        fprintf(stderr, "SKIPPED: %s: no ../shared/spine-corpus (set MF_SHARED)\n", name);
        return false;
    }
    snprintf(path, sizeof path, "%s/%s", dir, json);
    snprintf(atlas, sizeof atlas, "%s/%s.atlas", dir, name);
    snprintf(out, sizeof out, "%s", tu_tmp(name));
    mf_spine_options opt = {atlas};
    mf_spine_summary sum;
    mf_diag diag;
    if (mf_spine_import(path, out, &opt, &sum, &diag) != MF_OK) fail_msg("%s: %s: %s", diag.file, diag.where, diag.message);
    snprintf(mskel, sizeof mskel, "%s/%s.mskel", out, sum.name);
    snprintf(blob_path, sizeof blob_path, "%s/%s.mskb", out, sum.name);
    mf_build_options bo = {.no_cache = true};
    if (mf_build_file_opt(mskel, blob_path, &bo, NULL, &diag) != MF_OK)
        fail_msg("%s: %s: %s", diag.file, diag.where, diag.message);
    size_t size = 0;
    *blob = tu_read(blob_path, &size);
    assert_int_equal(mf_skel_data_load(*blob, size, d, &diag), MF_OK);
    return true;
}

static void corpus_physics(const char *name, const char *json, const char *clip, int frames)
{
    char *blob = NULL;
    mf_skel_data d;
    if (!corpus_load(name, json, &blob, &d)) return;
    assert_true(d.physics_count > 0);
    int32_t c = mf_skel_data_find_clip(&d, clip);
    assert_true(c >= 0);
    bench s;
    bench_open(&s, &d, 2, c);
    worst w = {0};
    g_tol = 5e-2f;
    for (int f = 0; f < frames; f++) bench_frame(&s, f, 1.0 / 60.0, NULL, &w);
    g_tol = 1e-2f;
    char label[200];
    snprintf(label, sizeof label, "%s %s", name, clip);
    report(label, &w);
    bench_close(&s);
    free(blob);
    assert_int_equal(mf_gpu_device_messages(g_dev, NULL), 0);
}

static void test_corpus_agrees(void **state)
{
    (void)state;
    NEED_DEVICE();
    corpus_physics("celestial-circus", "celestial-circus-pro.json", "swing", 120);
    corpus_physics("sack", "sack-pro.json", "cape-follow-example", 120);
}

int main(void)
{
    gpu_test_keep_driver_mapped();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bad_use),
        cmocka_unit_test(test_release_in_frame),
        cmocka_unit_test(test_fixture_agrees),
        cmocka_unit_test(test_edges_agree),
        cmocka_unit_test(test_states_apart),
        cmocka_unit_test(test_frames_in_flight),
        cmocka_unit_test(test_dropped_frame),
        cmocka_unit_test(test_states_random),
        cmocka_unit_test(test_no_allocation_per_frame),
        cmocka_unit_test(test_corpus_agrees),
    };
    return cmocka_run_group_tests(tests, setup_device, teardown_device);
}
