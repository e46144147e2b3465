/* GPU skinning (mf_gpu.h) against the CPU: the same instances, posed the same way, through
 * mf_draw_list_build + mf_draw_batch_add and through mf_draw_list_build_items +
 * mf_gpu_batch_add on a Vulkan device (lavapipe in CI, with the validation layer when it is
 * installed). The streams must agree: the same calls, the same indices, the same uvs and
 * colours, positions within float rounding. Rigs: weighted and unweighted meshes with deform,
 * regions, a clipping range, two blends and a dark colour (in memory), the mannequin, and the
 * Spine corpus (clipping, deform, sequences) when ../shared is present.
 *
 * Without a Vulkan device the tests say they skipped, unless MF_REQUIRE_GPU is set (the test
 * script sets it: CI has lavapipe), which makes a missing device a failure. */
#define _GNU_SOURCE
#include "testutil.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "mf/mf_gpu.h"
#include "mf/mf_spine.h"
#include "mf/mf_tracks.h"
#include "gpu_rig.h"
#include "pose_rig.h"

enum { SKELS = 3, FRAMES = 12 };

static mf_gpu_device *g_dev;
static char g_why[1400];

static int setup_device(void **state)
{
    (void)state;
    return gpu_test_open("test_gpu_batch", (mf_allocator){0}, &g_dev, g_why, sizeof g_why);
}

static int teardown_device(void **state)
{
    (void)state;
    mf_gpu_device_destroy(g_dev);
    return 0;
}

#define NEED_DEVICE() GPU_NEED_DEVICE(g_dev)

/* ---------------------------------------------------------------- instances of a rig */

typedef struct scene {
    const mf_skel_data *d;
    mf_gpu_rig *rig;
    mf_pose *pose[SKELS];
    mf_tracks *tracks[SKELS];
    mf_draw_list *cpu[SKELS], *gpu[SKELS];
    float xf[SKELS][6];
    mf_skin_cache *skins;
    mf_pose *twin[SKELS]; /* what mf_gpu_batch_read_world gives back of pose[i] */
    bool local[SKELS];    /* pose[i] went with add_local this frame */
} scene;

/* Skins the next scene's instances wear, in turn (NULL: none, the default skin alone). */
static const char *const *g_scene_skins;

static void scene_make(scene *s, const mf_skel_data *d)
{
    memset(s, 0, sizeof *s);
    s->d = d;
    mf_diag diag;
    assert_int_equal(mf_gpu_rig_create(g_dev, d, &s->rig, &diag), MF_OK);
    assert_true(mf_gpu_rig_bytes(s->rig) > 0);
    for (int i = 0; i < SKELS; i++) {
        assert_int_equal(mf_pose_create(d, NULL, &s->pose[i], &diag), MF_OK);
        assert_int_equal(mf_pose_create(d, NULL, &s->twin[i], &diag), MF_OK);
        assert_int_equal(mf_tracks_create(d, NULL, NULL, &s->tracks[i]), MF_OK);
        assert_int_equal(mf_draw_list_create(d, NULL, &s->cpu[i]), MF_OK);
        assert_int_equal(mf_draw_list_create(d, NULL, &s->gpu[i]), MF_OK);
        /* the second instance without one of its IK constraints, as a skin that lacks it leaves
         * it (mf_pose_set_skins): both paths must skip it */
        if (i == 1 && d->ik_count > 1) s->pose[i]->ik_active[1] = 0;
        if (i == 2 && d->transform_count > 1) s->pose[i]->tf_active[1] = 0; /* the same for a transform one */
        if (i == 3 && d->path_count > 1) s->pose[i]->path_active[1] = 0;    /* and a path one */
        if (g_scene_skins) {
            if (!s->skins) assert_int_equal(mf_skin_cache_create(d, NULL, &s->skins), MF_OK);
            int32_t n = 0;
            while (g_scene_skins[n]) n++;
            int32_t skin = mf_skel_data_find_skin(d, g_scene_skins[i % n]);
            assert_true(skin >= 0);
            assert_int_equal(mf_pose_set_skins(s->pose[i], s->skins, &skin, 1, &diag), MF_OK);
        }
        float a = 0.4f * (float)i, k = 1.0f + 0.5f * (float)i;
        float m[6] = {k * cosf(a), k * sinf(a), -k * sinf(a) + 0.2f, k * cosf(a), 150.0f * (float)i, -20.0f * (float)i};
        memcpy(s->xf[i], m, sizeof m);
    }
}

static void scene_free(scene *s)
{
    for (int i = 0; i < SKELS; i++) {
        mf_draw_list_destroy(s->cpu[i]);
        mf_draw_list_destroy(s->gpu[i]);
        mf_tracks_destroy(s->tracks[i]);
        mf_pose_destroy(s->pose[i]);
        mf_pose_destroy(s->twin[i]);
    }
    mf_skin_cache_destroy(s->skins);
    mf_gpu_rig_destroy(s->rig);
}

/* Every instance plays clip (looping) from its own start time. */
static void scene_play(scene *s, int32_t clip)
{
    for (int i = 0; i < SKELS; i++) {
        mf_entry_handle h = mf_tracks_set(s->tracks[i], 0, clip, true);
        mf_tracks_entry(s->tracks[i], h)->track_time = 0.13 * (i + 1);
    }
}

static void scene_step(scene *s, float dt)
{
    for (int i = 0; i < SKELS; i++) {
        mf_pose_reset(s->pose[i]);
        mf_tracks_update(s->tracks[i], dt);
        mf_tracks_apply(s->tracks[i], s->pose[i]);
        mf_pose_update_world(s->pose[i]);
    }
}

typedef struct totals {
    long vertices, items, gpu_items, clipped_items, deformed, listless, local;
    double world_error, ik_world_error; /* the largest position differences with the world on the GPU */
    double bone_error, bone_m_error;    /* read back (mf_gpu_batch_read_world): positions, 2×2 */
    long bones_read;
    /* positions by gpu_close though the rig has IK (its chains kept off full reach) */
    bool tight;
} totals;

/* The frame with the world on the GPU (mf_gpu_batch_add_local) for every pose that shows no
 * clip, its world NaN while it is added and made again by the CPU after; a pose that shows one
 * is refused that way and goes with its list. */
static void add_world_frame(scene *s, mf_gpu_batch *gw, totals *t)
{
    assert_int_equal(mf_gpu_batch_begin(gw), MF_OK);
    for (int i = 0; i < SKELS; i++) {
        mf_pose *p = s->pose[i];
        s->local[i] = false;
        if (mf_gpu_pose_needs_list(s->rig, p)) {
            int32_t v = gw->vertex_count, sk = gw->skeletons;
            assert_int_equal(mf_gpu_batch_add_local(gw, s->rig, p, s->xf[i]), MF_ERR_ARGUMENT);
            assert_true(gw->vertex_count == v && gw->skeletons == sk);
            assert_int_equal(mf_draw_list_build_items(s->gpu[i], p), MF_OK);
            assert_int_equal(mf_gpu_batch_add(gw, s->rig, p, s->gpu[i], s->xf[i]), MF_OK);
            continue;
        }
        poison_world(p);
        assert_int_equal(mf_gpu_batch_add_local(gw, s->rig, p, s->xf[i]), MF_OK);
        mf_pose_update_world(p);
        s->local[i] = true;
        t->local++;
    }
    assert_int_equal(mf_gpu_batch_submit(gw), MF_OK);
}


/* One frame both ways; the streams compared. */
static void compare_frame(scene *s, mf_draw_batch *cb, mf_gpu_batch *gb, mf_gpu_batch *gp, mf_gpu_batch *gw,
                          mf_batch_vertex *gv, uint32_t *gi, totals *t)
{
    if (gw) add_world_frame(s, gw, t);
    mf_draw_batch_begin(cb);
    assert_int_equal(mf_gpu_batch_begin(gb), MF_OK);
    /* without a list wherever the pose shows no clip: the pose's items, the same records */
    long listless = 0;
    assert_int_equal(mf_gpu_batch_begin(gp), MF_OK);
    for (int i = 0; i < SKELS; i++) {
        bool needs = mf_gpu_pose_needs_list(s->rig, s->pose[i]);
        assert_true(!needs || mf_gpu_rig_needs_list(s->rig));
        if (needs) { /* refused without one, nothing added */
            int32_t v = gp->vertex_count;
            assert_int_equal(mf_gpu_batch_add(gp, s->rig, s->pose[i], NULL, s->xf[i]), MF_ERR_ARGUMENT);
            assert_int_equal(gp->vertex_count, v);
            assert_int_equal(mf_draw_list_build_items(s->gpu[i], s->pose[i]), MF_OK);
        }
        assert_int_equal(mf_gpu_batch_add(gp, s->rig, s->pose[i], needs ? s->gpu[i] : NULL, s->xf[i]), MF_OK);
        listless += needs ? 0 : 1;
    }
    assert_int_equal(mf_gpu_batch_submit(gp), MF_OK);
    for (int i = 0; i < SKELS; i++) {
        assert_int_equal(mf_draw_list_build(s->cpu[i], s->pose[i]), MF_OK);
        assert_int_equal(mf_draw_list_build_items(s->gpu[i], s->pose[i]), MF_OK);
        assert_int_equal(mf_draw_batch_add(cb, s->cpu[i], s->d, s->xf[i]), MF_OK);
        mf_result r = mf_gpu_batch_add(gb, s->rig, s->pose[i], s->gpu[i], s->xf[i]);
        if (r != MF_OK) fail_msg("mf_gpu_batch_add: %s (skeleton %d)", mf_result_name(r), i);
        for (int32_t k = 0; k < s->gpu[i]->item_count; k++) {
            const mf_draw_item *it = &s->gpu[i]->items[k];
            t->clipped_items += it->clipped && it->index_count > 0;
            t->deformed += !it->clipped && s->pose[i]->deform_attachment[it->slot] == it->attachment &&
                           s->d->attachments[it->attachment].deform_count > 0 &&
                           s->d->attachments[it->attachment].type != MF_SD_ATT_REGION;
        }
    }
    assert_int_equal(mf_gpu_batch_submit(gb), MF_OK);
    assert_int_equal(mf_gpu_batch_wait(gb), MF_OK);
    assert_int_equal(gb->skeletons, cb->skeletons);
    assert_int_equal(gb->items, cb->items);
    assert_int_equal(gb->overflow, 0);
    assert_int_equal(mf_gpu_batch_read(gb, gv, gi), MF_OK);
    gpu_expect_streams(cb, gb->calls, gb->call_count, gv, gb->vertex_count, gi, gb->index_count);
    { /* the same records, so the very same bits */
        assert_int_equal(mf_gpu_batch_wait(gp), MF_OK);
        assert_int_equal(gp->vertex_count, gb->vertex_count);
        assert_int_equal(gp->index_count, gb->index_count);
        assert_int_equal(gp->call_count, gb->call_count);
        assert_int_equal(gp->items, gb->items);
        mf_batch_vertex *pv = malloc(sizeof *pv * (size_t)(gp->vertex_count + 1));
        uint32_t *pi = malloc(sizeof *pi * (size_t)(gp->index_count + 1));
        assert_int_equal(mf_gpu_batch_read(gp, pv, pi), MF_OK);
        assert_memory_equal(pv, gv, sizeof *pv * (size_t)gp->vertex_count);
        assert_memory_equal(pi, gi, sizeof *pi * (size_t)gp->index_count);
        free(pv), free(pi);
        t->listless += listless;
    }
    if (gw) { /* the GPU's world: the CPU's streams within float rounding */
        assert_int_equal(mf_gpu_batch_wait(gw), MF_OK);
        assert_int_equal(gw->overflow, 0);
        assert_int_equal(mf_gpu_batch_read(gw, gv, gi), MF_OK);
        /* IK solved in floats on the GPU: a looser bound (gpu_rig.h); transform constraints keep
         * float rounding's */
        bool ik = s->d->ik_count > 0 && !t->tight;
        gpu_expect_streams_by(cb, gw->calls, gw->call_count, gv, gw->vertex_count, gi, gw->index_count,
                              ik ? gpu_close_ik : gpu_close, ik ? &t->ik_world_error : &t->world_error);
        /* each instance's bones read back: the CPU's world (skeleton space, no placement) */
        for (int i = 0; i < SKELS; i++) {
            mf_pose *tw = s->twin[i];
            poison_world(tw);
            mf_result r = mf_gpu_batch_read_world(gw, i, tw);
            if (!s->local[i]) { /* its palette was the CPU's: refused, the pose left as it was */
                assert_int_equal(r, MF_ERR_UNSUPPORTED);
                assert_true(tw->bone_count == 0 || isnan(tw->a[0]));
                continue;
            }
            assert_int_equal(r, MF_OK);
            gpu_expect_world(tw, s->pose[i], ik, &t->bone_error, &t->bone_m_error);
            t->bones_read += tw->bone_count;
        }
        assert_int_equal(mf_gpu_batch_read_world(gw, SKELS, s->twin[0]), MF_ERR_ARGUMENT);
        assert_int_equal(mf_gpu_batch_read_world(gw, -1, s->twin[0]), MF_ERR_ARGUMENT);
    }
    t->vertices += cb->vertex_count, t->items += gb->items, t->gpu_items += gb->gpu_items;
}

static void compare_clips(const mf_skel_data *d, const char *label, int32_t max_clips, totals *t)
{
    scene s;
    scene_make(&s, d);
    mf_draw_batch *cb = NULL;
    mf_draw_batch_desc cd = {.max_vertices = 1 << 18};
    assert_int_equal(mf_draw_batch_create(&cd, &cb), MF_OK);
    mf_gpu_batch *gb = NULL;
    mf_gpu_batch_desc gd = {.max_vertices = 1 << 18, .max_instances = SKELS, .max_items = 512 * SKELS,
                            .max_words = 1 << 20, .readback = true};
    assert_int_equal(mf_gpu_batch_create(g_dev, &gd, &gb, NULL), MF_OK);
    mf_gpu_batch *gp = NULL, *gw = NULL;
    assert_int_equal(mf_gpu_batch_create(g_dev, &gd, &gp, NULL), MF_OK);
    mf_gpu_batch_desc wd = gd;
    wd.readback_world = true;
    if (mf_gpu_rig_world_ok(s.rig)) assert_int_equal(mf_gpu_batch_create(g_dev, &wd, &gw, NULL), MF_OK);
    mf_batch_vertex *gv = malloc(sizeof(mf_batch_vertex) << 18);
    uint32_t *gi = malloc(sizeof(uint32_t) * 3 << 18);
    assert_true(gv && gi);
    int32_t clips = d->clip_count < max_clips ? d->clip_count : max_clips;
    /* this rig's largest differences, then the running ones */
    double world_before = t->world_error, ik_before = t->ik_world_error;
    double bone_before = t->bone_error, bone_m_before = t->bone_m_error;
    long read_before = t->bones_read;
    t->world_error = t->ik_world_error = t->bone_error = t->bone_m_error = 0;
    if (clips == 0) { /* the setup pose */
        scene_step(&s, 0);
        compare_frame(&s, cb, gb, gp, gw, gv, gi, t);
    }
    for (int32_t c = 0; c < clips; c++) {
        scene_play(&s, c);
        for (int f = 0; f < FRAMES; f++) {
            scene_step(&s, 1.0f / 24.0f + 0.011f * (float)f);
            compare_frame(&s, cb, gb, gp, gw, gv, gi, t);
        }
    }
    fprintf(stderr, "%s: %d clips, %ld vertices, %ld items (%ld on the GPU, %ld clipped, %ld deformed; %ld skeleton-frames also without a list, %ld with the world on the GPU%s; largest difference there %.4f px%s) agree\n",
            label, clips, t->vertices, t->items, t->gpu_items, t->clipped_items, t->deformed, t->listless, t->local,
            gw ? "" : ": the rig has physics constraints", t->world_error > t->ik_world_error ? t->world_error : t->ik_world_error,
            !gw ? "" : d->ik_count > 0 && !t->tight ? ", IK's bound" : ", float rounding's bound");
    if (gw)
        fprintf(stderr, "%s: %ld bone worlds read back; largest difference %.5f px, %.2e in the 2x2\n", label,
                t->bones_read - read_before, t->bone_error, t->bone_m_error);
    if (bone_before > t->bone_error) t->bone_error = bone_before;
    if (bone_m_before > t->bone_m_error) t->bone_m_error = bone_m_before;
    if (world_before > t->world_error) t->world_error = world_before;
    if (ik_before > t->ik_world_error) t->ik_world_error = ik_before;
    free(gv), free(gi);
    mf_gpu_batch_destroy(gw);
    mf_gpu_batch_destroy(gp);
    mf_gpu_batch_destroy(gb);
    mf_draw_batch_destroy(cb);
    scene_free(&s);
}

/* ---------------------------------------------------------------- in-memory rigs */

static void test_scene_rig_agrees(void **state)
{
    (void)state;
    NEED_DEVICE();
    test_rig r;
    test_rig_build(&r, SCENE_RIG, SCENE_NAMES, SCENE_CLIPS, 2);
    totals t = {0};
    compare_clips(&r.data, "scene rig", 2, &t);
    assert_true(t.gpu_items > 0 && t.clipped_items > 0 && t.deformed > 0); /* every path ran */
    assert_true(t.gpu_items < t.items);
    assert_int_equal(t.listless, 0); /* its clip shows on every frame: a list each time */
    test_rig_free(&r);
    int32_t n = mf_gpu_device_messages(g_dev, NULL);
    assert_int_equal(n, 0);
}

static void test_world_rig_agrees(void **state)
{
    (void)state;
    NEED_DEVICE();
    test_rig r;
    test_rig_build(&r, WORLD_RIG, WORLD_NAMES, WORLD_CLIPS, 2);
    totals t = {0};
    compare_clips(&r.data, "world rig", 2, &t);
    assert_int_equal(t.local, 2 * FRAMES * SKELS); /* every skeleton-frame: no clipping */
    assert_true(t.deformed > 0);
    test_rig_free(&r);
    assert_int_equal(mf_gpu_device_messages(g_dev, NULL), 0);
}

static void test_ik_rig_agrees(void **state)
{
    (void)state;
    NEED_DEVICE();
    test_rig r;
    test_rig_build(&r, IK_RIG, IK_NAMES, IK_CLIPS, 2);
    totals t = {0};
    compare_clips(&r.data, "IK rig", 2, &t);
    assert_int_equal(t.local, 2 * FRAMES * SKELS); /* IK alone: the world on the GPU every frame */
    test_rig_free(&r);
    assert_int_equal(mf_gpu_device_messages(g_dev, NULL), 0);
}

static void test_ik_edges_agree(void **state)
{
    (void)state;
    NEED_DEVICE();
    test_rig r;
    test_rig_build(&r, IK_EDGE_RIG, IK_EDGE_NAMES, IK_EDGE_CLIPS, 1);
    assert_int_equal(r.data.ik_count, 6);
    /* "self" made one bone twice (parent == child): the data as a hand-made file may hold it */
    const mf_sd_ik *self = &r.data.ik[1];
    int32_t *lists = (int32_t *)(uintptr_t)r.data.bone_lists;
    assert_int_equal(self->bone_count, 2);
    lists[self->bone_first + 1] = lists[self->bone_first];
    totals t = {0};
    compare_clips(&r.data, "IK edge rig", 1, &t);
    assert_int_equal(t.local, FRAMES * SKELS);
    test_rig_free(&r);
    assert_int_equal(mf_gpu_device_messages(g_dev, NULL), 0);
}

/* Transform constraints with IK on the GPU: every mode, channel and offset, keyed mixes, a
 * reflected target, inherit modes, one inactive by skin and one by the host (scene_make). */
static void test_transform_rig_agrees(void **state)
{
    (void)state;
    NEED_DEVICE();
    test_rig r;
    test_rig_build(&r, TF_RIG, TF_NAMES, TF_CLIPS, 2);
    assert_int_equal(r.data.transform_count, 10);
    assert_int_equal(r.data.ik_count, 1);
    totals t = {.tight = true}; /* its chain never near full reach: float rounding's bound */
    compare_clips(&r.data, "transform rig", 2, &t);
    assert_int_equal(t.local, 2 * FRAMES * SKELS); /* IK and transform constraints: the world on the GPU */
    test_rig_free(&r);
    assert_int_equal(mf_gpu_device_messages(g_dev, NULL), 0);
}

/* Path constraints with IK and transform ones on the GPU (PATH_RIG): every mode, open and closed,
 * constant speed or not, weighted or not, deformed, keyed, a slot switching path, one inactive
 * by skin and one by the host (scene_make). */
static void test_path_rig_agrees(void **state)
{
    (void)state;
    NEED_DEVICE();
    test_rig r;
    test_rig_build(&r, PATH_RIG, PATH_NAMES, PATH_CLIPS, 2);
    assert_int_equal(r.data.path_count, 7);
    totals t = {.tight = true}; /* its chain never near full reach: float rounding's bound */
    compare_clips(&r.data, "path rig", 2, &t);
    assert_int_equal(t.local, 2 * FRAMES * SKELS); /* IK, transform and path constraints: the world on the GPU */
    test_rig_free(&r);
    assert_int_equal(mf_gpu_device_messages(g_dev, NULL), 0);
}

/* Path edge cases the path rig leaves out: bones 0.00001 long (the CPU compares their length,
 * a float, with 0.00001 in doubles: the float 0.00001 is below it, so such a bone counts as one
 * of length 0, both in the spaces and in chain scale) under scaled parents, with length and
 * proportional spacing; two constraints on one slot whose deformed path they share; that path
 * from the skin: skin a's open and unweighted, skin b's closed and weighted, each deformed; paths
 * of length 0 at constant speed, closed (percent spacing, chain scale: positions NaN on both
 * sides, then the curve's start) and open (proportional spacing, the position past its end). */
static const char *PATH_EDGE_RIG = RIG_HEAD
    "\"bones\":[{\"name\":\"root\"},{\"name\":\"pa\",\"parent\":\"root\",\"x\":-40,\"y\":10,\"rot\":8},"
    "{\"name\":\"e1\",\"parent\":\"root\",\"length\":0.00001,\"sx\":2.5},"
    "{\"name\":\"e2\",\"parent\":\"root\",\"length\":12,\"x\":3,\"sx\":1.5},"
    "{\"name\":\"e3\",\"parent\":\"root\",\"length\":0.00001,\"x\":6,\"sx\":3},"
    "{\"name\":\"f1\",\"parent\":\"root\",\"length\":0.00001,\"sx\":2},"
    "{\"name\":\"f2\",\"parent\":\"root\",\"length\":9,\"x\":3},"
    "{\"name\":\"g1\",\"parent\":\"root\",\"length\":7,\"y\":-30},{\"name\":\"g2\",\"parent\":\"root\",\"length\":7,\"y\":-25},"
    "{\"name\":\"h1\",\"parent\":\"root\",\"length\":6,\"y\":30},{\"name\":\"h2\",\"parent\":\"root\",\"length\":6,\"y\":35}],"
    "\"path\":[{\"name\":\"q_len\",\"order\":0,\"bones\":[\"e1\",\"e2\",\"e3\"],\"target\":\"sa\","
    "\"positionMode\":\"fixed\",\"spacingMode\":\"length\",\"rotateMode\":\"chainScale\",\"position\":8,\"spacing\":6},"
    "{\"name\":\"q_prop\",\"order\":1,\"bones\":[\"f1\",\"f2\"],\"target\":\"sa\",\"positionMode\":\"fixed\","
    "\"spacingMode\":\"proportional\",\"rotateMode\":\"chain\",\"position\":20,\"spacing\":5},"
    "{\"name\":\"q_dot\",\"order\":2,\"bones\":[\"g1\",\"g2\"],\"target\":\"sz\",\"positionMode\":\"fixed\","
    "\"spacingMode\":\"percent\",\"rotateMode\":\"chainScale\",\"position\":12,\"spacing\":0.3,\"rot\":20},"
    "{\"name\":\"q_line\",\"order\":3,\"bones\":[\"h1\",\"h2\"],\"target\":\"sy\",\"positionMode\":\"fixed\","
    "\"spacingMode\":\"proportional\",\"rotateMode\":\"tangent\",\"position\":10,\"spacing\":2}],"
    "\"slots\":[{\"name\":\"sa\",\"bone\":\"pa\",\"attachment\":\"open\"},"
    "{\"name\":\"sz\",\"bone\":\"pa\",\"attachment\":\"dot\"},{\"name\":\"sy\",\"bone\":\"root\",\"attachment\":\"line\"},"
    "{\"name\":\"g1\",\"bone\":\"g1\",\"attachment\":\"r\"},{\"name\":\"g2\",\"bone\":\"g2\",\"attachment\":\"r\"},"
    "{\"name\":\"h1\",\"bone\":\"h1\",\"attachment\":\"r\"},{\"name\":\"h2\",\"bone\":\"h2\",\"attachment\":\"r\"},"
    "{\"name\":\"e1\",\"bone\":\"e1\",\"attachment\":\"r\"},{\"name\":\"e2\",\"bone\":\"e2\",\"attachment\":\"r\"},"
    "{\"name\":\"e3\",\"bone\":\"e3\",\"attachment\":\"r\"},{\"name\":\"f1\",\"bone\":\"f1\",\"attachment\":\"r\"},"
    "{\"name\":\"f2\",\"bone\":\"f2\",\"attachment\":\"r\"}],"
    "\"skins\":[{\"name\":\"default\",\"attachments\":["
    "{\"slot\":\"e1\",\"name\":\"r\",\"type\":\"Region\",\"x\":6,\"y\":1,\"width\":12,\"height\":5},"
    "{\"slot\":\"e2\",\"name\":\"r\",\"type\":\"Region\",\"x\":6,\"y\":1,\"width\":12,\"height\":5},"
    "{\"slot\":\"e3\",\"name\":\"r\",\"type\":\"Region\",\"x\":6,\"y\":1,\"width\":12,\"height\":5},"
    "{\"slot\":\"f1\",\"name\":\"r\",\"type\":\"Region\",\"x\":6,\"y\":1,\"width\":12,\"height\":5},"
    "{\"slot\":\"f2\",\"name\":\"r\",\"type\":\"Region\",\"x\":6,\"y\":1,\"width\":12,\"height\":5},"
    "{\"slot\":\"g1\",\"name\":\"r\",\"type\":\"Region\",\"x\":6,\"y\":1,\"width\":12,\"height\":5},"
    "{\"slot\":\"g2\",\"name\":\"r\",\"type\":\"Region\",\"x\":6,\"y\":1,\"width\":12,\"height\":5},"
    "{\"slot\":\"h1\",\"name\":\"r\",\"type\":\"Region\",\"x\":6,\"y\":1,\"width\":12,\"height\":5},"
    "{\"slot\":\"h2\",\"name\":\"r\",\"type\":\"Region\",\"x\":6,\"y\":1,\"width\":12,\"height\":5},"
    "{\"slot\":\"sz\",\"name\":\"dot\",\"type\":\"Path\",\"closed\":true,\"vertices\":[5,5,5,5,5,5,5,5,5,5,5,5],\"lengths\":[0,0]},"
    "{\"slot\":\"sy\",\"name\":\"line\",\"type\":\"Path\",\"vertices\":[-3,4,-3,4,-3,4,-3,4,-3,4,-3,4,-3,4,-3,4,-3,4],\"lengths\":[0,0,0]}]},"
    "{\"name\":\"a\",\"attachments\":[{\"slot\":\"sa\",\"name\":\"open\",\"type\":\"Path\",\"constantSpeed\":false,\"vertices\":[-12,0"
    ",0,0,12,5,28,25,40,20,52,15,68,-5,80,-10,92,-15,108,10,120,15,132,20],\"lengths\":[45,90,134,150]}]},"
    "{\"name\":\"b\",\"attachments\":[{\"slot\":\"sa\",\"name\":\"open\",\"type\":\"Path\",\"closed\":true,"
    "\"weights\":{\"bones\":[\"pa\",\"root\"],\"v\":[[0,1,-10,-5],[0,0.6,0,0,1,0.4,-40,10],[1,1,-30,15],[0,1,30,20],"
    "[0,0.6,40,30,1,0.4,0,40],[1,1,10,50],[0,1,45,-20],[0,0.6,30,-25,1,0.4,-10,-15],[1,1,-25,-20]]},"
    "\"lengths\":[50,100,150]}]}]}";
static const char *const PATH_EDGE_NAMES[] = {"move"};
static const char *const PATH_EDGE_CLIPS[] = {
    CLIP_HEAD "\"length\":1,\"bones\":{\"pa\":{\"rotate\":{\"t\":[0,1],\"v\":[0,40]}},"
    "\"e1\":{\"scale\":{\"t\":[0,1],\"v\":[[1,1],[0.6,1]]}}},"
    "\"deform\":{\"a\":{\"sa\":{\"open\":{\"t\":[0,1],\"offset\":[2,6],\"v\":[[4,-3,2,5],[-6,8,0,3,1,-2,5,5]]}}},"
    "\"b\":{\"sa\":{\"open\":{\"t\":[0,1],\"v\":[[0,0],[2,1,3,-2,1,1,-4,2]]}}}}}"};
static const char *const PATH_EDGE_SKINS[] = {"a", "b", NULL};

/* Path edge cases (PATH_EDGE_RIG) on the GPU: bones of length 0.00001, a deformed path shared,
 * the path each instance's skin shows (of another size, weighted, closed, its own deform). */
static void test_path_edges_agree(void **state)
{
    (void)state;
    NEED_DEVICE();
    test_rig r;
    test_rig_build(&r, PATH_EDGE_RIG, PATH_EDGE_NAMES, PATH_EDGE_CLIPS, 1);
    assert_int_equal(r.data.path_count, 4);
    assert_true(r.data.bones[2].length == 0.00001f && (double)r.data.bones[2].length < 0.00001);
    totals t = {.tight = true};
    g_scene_skins = PATH_EDGE_SKINS; /* the path the skin shows: open and unweighted, or closed and weighted */
    compare_clips(&r.data, "path edge rig", 1, &t);
    g_scene_skins = NULL;
    assert_int_equal(t.local, FRAMES * SKELS);
    test_rig_free(&r);
    assert_int_equal(mf_gpu_device_messages(g_dev, NULL), 0);
}

static void test_mannequin_agrees(void **state)
{
    (void)state;
    NEED_DEVICE();
    mkdir(tu_tmp("man"), 0755);
    char out[700];
    snprintf(out, sizeof out, "%s", tu_tmp("man/mannequin.mskb"));
    mf_build_options opt = {.no_cache = true};
    mf_diag diag;
    assert_int_equal(mf_build_file_opt(tu_src("examples/mannequin/mannequin.mskel"), out, &opt, NULL, &diag), MF_OK);
    size_t size = 0;
    char *blob = tu_read(out, &size);
    mf_skel_data d;
    assert_int_equal(mf_skel_data_load(blob, size, &d, &diag), MF_OK);
    totals t = {0};
    compare_clips(&d, "mannequin", 8, &t);
    assert_true(t.gpu_items > 0);
    assert_true(t.listless > 0); /* no clipping: every skeleton-frame also went without a list */
    free(blob);
    assert_int_equal(mf_gpu_device_messages(g_dev, NULL), 0);
}

/* A corpus rig imported from its Spine JSON and built, every clip played. */
static void corpus_rig(const char *name, const char *json, int32_t max_clips, totals *t)
{
    const char *shared = tu_shared();
    char dir[1200], path[1400], atlas[1400], out[1400], mskel[1600], blob_path[1600];
    snprintf(dir, sizeof dir, "%s/spine-corpus/%s", shared ? shared : "", name);
    struct stat st;
    if (!shared || stat(dir, &st) != 0) {
        fprintf(stderr, "SKIPPED: %s: no ../shared/spine-corpus (set MF_SHARED)\n", name);
        return;
    }
    snprintf(path, sizeof path, "%s/%s", dir, json);
    snprintf(atlas, sizeof atlas, "%s/%s.atlas", dir, name);
    snprintf(out, sizeof out, "%s", tu_tmp(name));
    mf_spine_options opt = {atlas};
    mf_spine_summary sum;
    mf_diag diag;
    mf_result r = mf_spine_import(path, out, &opt, &sum, &diag);
    if (r != MF_OK) fail_msg("%s: %s: %s", diag.file, diag.where, diag.message);
    snprintf(mskel, sizeof mskel, "%s/%s.mskel", out, sum.name);
    snprintf(blob_path, sizeof blob_path, "%s/%s.mskb", out, sum.name);
    mf_build_options bo = {.no_cache = true};
    r = mf_build_file_opt(mskel, blob_path, &bo, NULL, &diag);
    if (r != MF_OK) fail_msg("%s: %s: %s", diag.file, diag.where, diag.message);
    size_t size = 0;
    char *blob = tu_read(blob_path, &size);
    mf_skel_data d;
    assert_int_equal(mf_skel_data_load(blob, size, &d, &diag), MF_OK);
    compare_clips(&d, name, max_clips, t);
    free(blob);
    assert_int_equal(mf_gpu_device_messages(g_dev, NULL), 0);
}

static void test_corpus_agrees(void **state)
{
    (void)state;
    NEED_DEVICE();
    totals t = {0};
    /* IK and transform constraints: the world on the GPU too, for a pose that shows no clip */
    corpus_rig("spineboy", "spineboy-pro.json", 12, &t); /* clipping (portal), deform */
    long local = t.local;
    if (tu_shared()) assert_true(local > 0);
    corpus_rig("coin", "coin-pro.json", 4, &t);     /* clipping */
    corpus_rig("dragon", "dragon-ess.json", 4, &t); /* sequences, five pages */
    local = t.local;
    corpus_rig("alien", "alien-pro.json", 6, &t); /* deform; transform constraints alone */
    if (tu_shared()) assert_true(t.local == local + 4 * FRAMES * SKELS); /* its 4 clips, every frame */
    corpus_rig("owl", "owl-pro.json", 6, &t);     /* deform, weighted */
    /* no constraints: the world on the GPU too */
    corpus_rig("probe-inherit", "probe-inherit.json", 6, &t); /* the inherit modes, keyed */
    corpus_rig("speedy", "speedy-ess.json", 2, &t);
    corpus_rig("powerup", "powerup-pro.json", 2, &t);
    corpus_rig("probe-ik", "probe-ik.json", 6, &t); /* IK alone: one and two bones, every option */
    corpus_rig("raptor", "raptor-pro.json", 2, &t);  /* IK alone */
    /* path constraints (with IK and transform ones): the world on the GPU too */
    local = t.local;
    corpus_rig("vine", "vine-pro.json", 2, &t);               /* a weighted path, keyed deform */
    corpus_rig("probe-path", "probe-path.json", 8, &t);       /* every mode */
    corpus_rig("stretchyman", "stretchyman-pro.json", 2, &t); /* paths with IK and transform */
    static const char *const outfits[] = {"full-skins/girl", "full-skins/boy", "full-skins/girl-spring-dress", NULL};
    g_scene_skins = outfits; /* its paths are the skins' (skin required) */
    corpus_rig("mix-and-match", "mix-and-match-pro.json", 6, &t);
    g_scene_skins = NULL;
    if (tu_shared()) assert_true(t.local > local);
    if (!tu_shared()) return;
    assert_true(t.gpu_items > 0 && t.clipped_items > 0 && t.deformed > 0);
    assert_true(t.local > 0);
    assert_true(t.listless > 0); /* spineboy shows its clip only in portal: other clips go without */
}

/* ---------------------------------------------------------------- contracts */

static void test_rejections_leave_the_frame(void **state)
{
    (void)state;
    NEED_DEVICE();
    test_rig r, other;
    test_rig_build(&r, SCENE_RIG, SCENE_NAMES, SCENE_CLIPS, 2);
    test_rig_build(&other, RIG_WEIGHTED_MESH, NULL, NULL, 0);
    scene s;
    scene_make(&s, &r.data);
    scene_step(&s, 0);
    mf_gpu_rig *orig = NULL;
    assert_int_equal(mf_gpu_rig_create(g_dev, &other.data, &orig, NULL), MF_OK);
    /* room for one skeleton's vertices and a bit */
    mf_draw_list_build_items(s.gpu[0], s.pose[0]);
    int32_t nv = 0;
    for (int32_t k = 0; k < s.gpu[0]->item_count; k++) nv += s.gpu[0]->items[k].vertex_count;
    /* an odd call capacity: what the batch lays out after the calls must stay aligned (UBSan) */
    mf_gpu_batch_desc gd = {.max_vertices = nv + 3, .max_instances = 4, .max_calls = 33, .readback = true};
    mf_gpu_batch *gb = NULL;
    assert_int_equal(mf_gpu_batch_create(g_dev, &gd, &gb, NULL), MF_OK);
    assert_int_equal(mf_gpu_batch_add(gb, s.rig, s.pose[0], s.gpu[0], NULL), MF_ERR_ARGUMENT); /* before begin */
    assert_int_equal(mf_gpu_batch_begin(gb), MF_OK);
    assert_int_equal(mf_gpu_batch_add(gb, orig, s.pose[0], s.gpu[0], NULL), MF_ERR_ARGUMENT); /* another rig */
    assert_int_equal(mf_gpu_batch_add(gb, s.rig, s.pose[0], s.gpu[0], NULL), MF_OK);
    int32_t v1 = gb->vertex_count, i1 = gb->index_count, c1 = gb->call_count, up = gb->upload_bytes;
    assert_int_equal(v1, nv);
    /* the second does not fit: nothing of it stays */
    mf_draw_list_build_items(s.gpu[1], s.pose[1]);
    assert_int_equal(mf_gpu_batch_add(gb, s.rig, s.pose[1], s.gpu[1], NULL), MF_ERR_NOMEM);
    assert_int_equal(gb->overflow, 1);
    assert_int_equal(gb->vertex_count, v1);
    assert_int_equal(gb->index_count, i1);
    assert_int_equal(gb->call_count, c1);
    assert_int_equal(gb->upload_bytes, up);
    /* a list that lies: an unclipped item that claims another vertex count */
    mf_draw_list *dl = s.gpu[2];
    mf_draw_list_build_items(dl, s.pose[2]);
    int32_t k = 0;
    while (k < dl->item_count && dl->items[k].clipped) k++;
    assert_true(k < dl->item_count);
    dl->items[k].vertex_count--;
    assert_int_equal(mf_gpu_batch_add(gb, s.rig, s.pose[2], dl, NULL), MF_ERR_ARGUMENT);
    assert_int_equal(gb->overflow, 1);
    assert_int_equal(gb->vertex_count, v1);
    /* what went in draws as the CPU's would */
    assert_int_equal(mf_gpu_batch_submit(gb), MF_OK);
    assert_int_equal(mf_gpu_batch_submit(gb), MF_ERR_ARGUMENT); /* once a frame */
    assert_int_equal(mf_gpu_batch_wait(gb), MF_OK);
    mf_batch_vertex *gv = malloc(sizeof *gv * (size_t)v1);
    uint32_t *gi = malloc(sizeof *gi * (size_t)i1);
    assert_int_equal(mf_gpu_batch_read(gb, gv, gi), MF_OK);
    mf_draw_batch *cb = NULL;
    assert_int_equal(mf_draw_batch_create(NULL, &cb), MF_OK);
    mf_draw_batch_begin(cb);
    mf_draw_list_build(s.cpu[0], s.pose[0]);
    assert_int_equal(mf_draw_batch_add(cb, s.cpu[0], s.d, NULL), MF_OK);
    assert_memory_equal(gi, cb->indices, (size_t)i1 * sizeof *gi);
    for (int32_t v = 0; v < v1; v++) assert_true(gpu_close(gv[v].x, cb->vertices[v].x) && gpu_close(gv[v].y, cb->vertices[v].y));
    free(gv), free(gi);
    mf_draw_batch_destroy(cb);
    /* an empty frame submits and reads nothing */
    assert_int_equal(mf_gpu_batch_begin(gb), MF_OK);
    assert_int_equal(gb->vertex_count, 0);
    assert_int_equal(mf_gpu_batch_submit(gb), MF_OK);
    assert_int_equal(mf_gpu_batch_wait(gb), MF_OK);
    assert_int_equal(mf_gpu_batch_read(gb, NULL, NULL), MF_OK);
    mf_gpu_batch_destroy(gb);
    mf_gpu_rig_destroy(orig);
    scene_free(&s);
    test_rig_free(&r), test_rig_free(&other);
    assert_int_equal(mf_gpu_device_messages(g_dev, NULL), 0);
}

/* The world on the GPU (mf_gpu_batch_add_local): what it takes of the words (7 a bone and one
 * for every 4 uploaded, 3 an IK constraint and 7 a transform constraint, 6 a bone the GPU
 * writes), given back when the skeleton is refused or draws nothing; refused for a rig with a
 * physics constraint (it needs a state: mf_gpu_batch_add_physics, test_gpu_physics.c), whose
 * world the GPU computes too, accepted with a path one. */
static void test_local_words(void **state)
{
    (void)state;
    NEED_DEVICE();
    test_rig r, phys, path;
    test_rig_build(&r, WORLD_RIG, WORLD_NAMES, WORLD_CLIPS, 2);
    /* a physics constraint, and a path one */
    test_rig_build(&phys, RIG_HEAD "\"bones\":[{\"name\":\"root\"},{\"name\":\"a\",\"parent\":\"root\",\"length\":10},"
                        "{\"name\":\"t\",\"parent\":\"root\",\"x\":20}],"
                        "\"physics\":[{\"name\":\"p\",\"bone\":\"a\",\"x\":1,\"rotate\":1}]}",
                   NULL, NULL, 0);
    test_rig_build(&path, RIG_HEAD "\"bones\":[{\"name\":\"root\"},{\"name\":\"a\",\"parent\":\"root\",\"x\":3}],"
                          "\"slots\":[{\"name\":\"r\",\"bone\":\"root\",\"attachment\":\"rail\"}],"
                          "\"path\":[{\"name\":\"ride\",\"bones\":[\"a\"],\"target\":\"r\",\"position\":0.25}],"
                          "\"skins\":[{\"name\":\"default\",\"attachments\":[{\"slot\":\"r\",\"name\":\"rail\","
                          "\"type\":\"Path\",\"vertices\":[0,0,10,10,20,0,30,-10,40,0,50,10],\"lengths\":[25,30]}]}]}",
                   NULL, NULL, 0);
    mf_gpu_rig *rig = NULL, *phys_rig = NULL, *path_rig = NULL;
    assert_int_equal(mf_gpu_rig_create(g_dev, &r.data, &rig, NULL), MF_OK);
    assert_int_equal(mf_gpu_rig_create(g_dev, &phys.data, &phys_rig, NULL), MF_OK);
    assert_int_equal(mf_gpu_rig_create(g_dev, &path.data, &path_rig, NULL), MF_OK);
    assert_true(mf_gpu_rig_world_ok(rig));
    assert_true(mf_gpu_rig_world_ok(phys_rig)); /* with a physics state */
    assert_true(mf_gpu_rig_world_ok(path_rig)); /* path constraints run on the GPU too */
    assert_false(mf_gpu_rig_world_ok(NULL));
    /* physics: 2 words an instance and 14 a constraint besides the bones' */
    const int32_t pn = phys.data.bone_count;
    assert_int_equal(mf_gpu_rig_local_words(phys_rig), 7 * pn + (pn + 3) / 4 + 2 + 14 + 6 * pn);
    assert_int_equal(mf_gpu_rig_local_words(NULL), 0);
    mf_pose *p[3], *pk = NULL;
    for (int i = 0; i < 3; i++) assert_int_equal(mf_pose_create(&r.data, NULL, &p[i], NULL), MF_OK);
    assert_int_equal(mf_pose_create(&phys.data, NULL, &pk, NULL), MF_OK);
    const int32_t n = r.data.bone_count, slots = r.data.slot_count, need = 7 * n + (n + 3) / 4 + 6 * n;
    for (int32_t k = 0; k < slots / 2; k++) p[1]->attachment[p[1]->draw_order[k]] = -1; /* half the items */
    p[0]->inherit[4] = 9; /* a byte no mode has (a host's write): Normal, as the CPU takes it */
    for (int32_t k = 0; k < slots; k++) p[2]->attachment[k] = -1;                       /* none */
    /* room for the words of two skeletons and the items of one and a half */
    mf_gpu_batch_desc gd = {.max_words = 2 * need, .max_items = slots + slots / 2 + 1, .max_instances = 8,
                            .readback = true};
    mf_gpu_batch *b = NULL;
    assert_int_equal(mf_gpu_batch_create(g_dev, &gd, &b, NULL), MF_OK);
    assert_int_equal(mf_gpu_batch_add_local(b, rig, p[0], NULL), MF_ERR_ARGUMENT); /* before begin */
    assert_int_equal(mf_gpu_batch_begin(b), MF_OK);
    assert_int_equal(mf_gpu_batch_add_local(NULL, rig, p[0], NULL), MF_ERR_ARGUMENT);
    assert_int_equal(mf_gpu_batch_add_local(b, NULL, p[0], NULL), MF_ERR_ARGUMENT);
    assert_int_equal(mf_gpu_batch_add_local(b, rig, NULL, NULL), MF_ERR_ARGUMENT);
    assert_int_equal(mf_gpu_batch_add_local(b, rig, pk, NULL), MF_ERR_ARGUMENT);    /* another data */
    assert_int_equal(mf_gpu_batch_add_local(b, phys_rig, pk, NULL), MF_ERR_ARGUMENT); /* physics: no state */
    assert_int_equal(b->skeletons, 0);
    /* nothing drawn: its words go back at once */
    assert_int_equal(mf_gpu_batch_add_local(b, rig, p[2], NULL), MF_OK);
    assert_int_equal(b->skeletons, 1);
    assert_int_equal(b->items, 0);
    assert_int_equal(b->upload_bytes, 32); /* its instance record alone */
    assert_int_equal(mf_gpu_batch_add_local(b, rig, p[0], NULL), MF_OK);
    /* a second whole one: its items do not fit, its words are given back */
    int32_t up = b->upload_bytes;
    assert_int_equal(mf_gpu_batch_add_local(b, rig, p[0], NULL), MF_ERR_NOMEM);
    assert_int_equal(b->overflow, 1);
    assert_int_equal(b->upload_bytes, up);
    assert_int_equal(mf_gpu_batch_add_local(b, rig, p[1], NULL), MF_OK); /* the last words */
    /* its instance record, local pose and item records */
    assert_int_equal(b->upload_bytes, up + 32 + 4 * (7 * n + (n + 3) / 4) + 32 * (slots - slots / 2));
    /* no words left: refused, even with nothing to draw (the words are taken while it is added) */
    assert_int_equal(mf_gpu_batch_add_local(b, rig, p[2], NULL), MF_ERR_NOMEM);
    assert_int_equal(mf_gpu_batch_add(b, rig, p[2], NULL, NULL), MF_ERR_NOMEM);
    assert_int_equal(b->skeletons, 3);
    assert_int_equal(mf_gpu_batch_submit(b), MF_OK);
    assert_int_equal(mf_gpu_batch_wait(b), MF_OK);
    /* what went in draws as the CPU's would */
    mf_batch_vertex *gv = malloc(sizeof *gv * (size_t)(b->vertex_count + 1));
    uint32_t *gi = malloc(sizeof *gi * (size_t)(b->index_count + 1));
    assert_int_equal(mf_gpu_batch_read(b, gv, gi), MF_OK);
    mf_draw_batch *cb = NULL;
    assert_int_equal(mf_draw_batch_create(NULL, &cb), MF_OK);
    mf_draw_batch_begin(cb);
    mf_draw_list *dl = NULL;
    assert_int_equal(mf_draw_list_create(&r.data, NULL, &dl), MF_OK);
    for (int i = 0; i < 2; i++) {
        mf_pose_update_world(p[i]);
        assert_int_equal(mf_draw_list_build(dl, p[i]), MF_OK);
        assert_int_equal(mf_draw_batch_add(cb, dl, &r.data, NULL), MF_OK);
    }
    gpu_expect_streams(cb, b->calls, b->call_count, gv, b->vertex_count, gi, b->index_count);
    free(gv), free(gi);
    mf_draw_list_destroy(dl);
    mf_draw_batch_destroy(cb);
    mf_gpu_batch_destroy(b);
    for (int i = 0; i < 3; i++) mf_pose_destroy(p[i]);
    mf_pose_destroy(pk);
    mf_gpu_rig_destroy(rig), mf_gpu_rig_destroy(phys_rig), mf_gpu_rig_destroy(path_rig);
    test_rig_free(&r), test_rig_free(&phys), test_rig_free(&path);
    assert_int_equal(mf_gpu_device_messages(g_dev, NULL), 0);
}

/* One skeleton's words exactly: up uploaded (the local pose with its constraints' words and
 * deforms), gpu written by the GPU (palette, path scratch); not a word more. */
static void local_words_exact(const char *rig_json, const char *const *names, const char *const *clips, int32_t up,
                              int32_t gpu, bool most_is_this)
{
    test_rig r;
    test_rig_build(&r, rig_json, names, clips, 2);
    mf_gpu_rig *rig = NULL;
    assert_int_equal(mf_gpu_rig_create(g_dev, &r.data, &rig, NULL), MF_OK);
    assert_true(mf_gpu_rig_world_ok(rig));
    /* the rig's most words for an instance: these, or more where a slot may show a larger path */
    if (most_is_this) assert_int_equal(mf_gpu_rig_local_words(rig), up + gpu);
    else assert_true(mf_gpu_rig_local_words(rig) >= (uint32_t)(up + gpu));
    mf_pose *p = NULL;
    assert_int_equal(mf_pose_create(&r.data, NULL, &p, NULL), MF_OK);
    assert_int_equal(mf_pose_sample(p, &(mf_clip_sample){.clip = 0, .time = 0.3f, .prev_time = -1, .weight = 1}), MF_OK);
    /* room for the words of one skeleton exactly */
    mf_gpu_batch_desc gd = {.max_words = up + gpu, .max_instances = 4, .readback = true};
    mf_gpu_batch *b = NULL;
    assert_int_equal(mf_gpu_batch_create(g_dev, &gd, &b, NULL), MF_OK);
    assert_int_equal(mf_gpu_batch_begin(b), MF_OK);
    poison_world(p);
    assert_int_equal(mf_gpu_batch_add_local(b, rig, p, NULL), MF_OK);
    assert_true(b->items > 0);
    assert_int_equal(b->upload_bytes, 32 + 4 * up + 32 * b->items); /* instance record, local pose, items */
    assert_int_equal(mf_gpu_batch_add_local(b, rig, p, NULL), MF_ERR_NOMEM); /* not a word more */
    assert_int_equal(mf_gpu_batch_submit(b), MF_OK);
    assert_int_equal(mf_gpu_batch_wait(b), MF_OK);
    mf_batch_vertex *gv = malloc(sizeof *gv * (size_t)(b->vertex_count + 1));
    uint32_t *gi = malloc(sizeof *gi * (size_t)(b->index_count + 1));
    assert_int_equal(mf_gpu_batch_read(b, gv, gi), MF_OK);
    mf_draw_batch *cb = NULL;
    assert_int_equal(mf_draw_batch_create(NULL, &cb), MF_OK);
    mf_draw_batch_begin(cb);
    mf_draw_list *dl = NULL;
    assert_int_equal(mf_draw_list_create(&r.data, NULL, &dl), MF_OK);
    mf_pose_update_world(p);
    assert_int_equal(mf_draw_list_build(dl, p), MF_OK);
    assert_int_equal(mf_draw_batch_add(cb, dl, &r.data, NULL), MF_OK);
    gpu_expect_streams(cb, b->calls, b->call_count, gv, b->vertex_count, gi, b->index_count);
    free(gv), free(gi);
    mf_draw_list_destroy(dl);
    mf_draw_batch_destroy(cb);
    mf_gpu_batch_destroy(b);
    mf_pose_destroy(p);
    mf_gpu_rig_destroy(rig);
    test_rig_free(&r);
    assert_int_equal(mf_gpu_device_messages(g_dev, NULL), 0);
}

/* The words of a rig with IK and transform constraints (3 an IK constraint and 7 a transform
 * one besides the bones') and of one with path constraints too, exactly; what went in draws as
 * the CPU's would. */
static void test_local_words_constraints(void **state)
{
    (void)state;
    NEED_DEVICE();
    test_rig r;
    test_rig_build(&r, TF_RIG, TF_NAMES, TF_CLIPS, 2);
    int32_t n = r.data.bone_count, ni = r.data.ik_count, nt = r.data.transform_count;
    test_rig_free(&r);
    local_words_exact(TF_RIG, TF_NAMES, TF_CLIPS, 7 * n + (n + 3) / 4 + 3 * ni + 7 * nt, 6 * n, true);
    /* path constraints: 8 words each, and the deform of the path each one's slot shows at 0.3 s
     * (p_prop and p_chainoff on sd: wave's 13 influences, 26 floats each; p_len, p_skin and
     * p_zero on sa: open's 12 vertices, 24 floats each); the GPU's scratch: 5 × (3 bones + 1)
     * and 4 curves (open and ring have 12 vertices) */
    test_rig_build(&r, PATH_RIG, PATH_NAMES, PATH_CLIPS, 2);
    n = r.data.bone_count, ni = r.data.ik_count, nt = r.data.transform_count;
    int32_t np = r.data.path_count;
    assert_int_equal(np, 7);
    test_rig_free(&r);
    local_words_exact(PATH_RIG, PATH_NAMES, PATH_CLIPS, 7 * n + (n + 3) / 4 + 3 * ni + 7 * nt + 8 * np + 2 * 26 + 3 * 24,
                      6 * n + 5 * 4 + 4, false);
}

/* Two rigs interleaved in one frame, most of their instances posed on the GPU: a run of
 * instances a rig change, so several world dispatches (and skinning ones) in one frame, and an
 * instance that draws nothing, or one whose palette came from the CPU, inside a run. */
static void test_world_runs_interleaved(void **state)
{
    (void)state;
    NEED_DEVICE();
    test_rig w, m;
    test_rig_build(&w, WORLD_RIG, WORLD_NAMES, WORLD_CLIPS, 2);
    test_rig_build(&m, RIG_WEIGHTED_MESH, NULL, NULL, 0);
    mf_gpu_rig *rw = NULL, *rm = NULL;
    assert_int_equal(mf_gpu_rig_create(g_dev, &w.data, &rw, NULL), MF_OK);
    assert_int_equal(mf_gpu_rig_create(g_dev, &m.data, &rm, NULL), MF_OK);
    assert_true(mf_gpu_rig_world_ok(rw) && mf_gpu_rig_world_ok(rm));
    enum { N = 9 };
    /* rig (0 world, 1 mesh) and how each is added: 0 local, 1 add() after the world update,
     * 2 local with nothing shown */
    static const int RIG[N] = {0, 1, 0, 0, 0, 1, 1, 0, 1}, HOW[N] = {0, 0, 0, 2, 1, 0, 2, 0, 1};
    mf_pose *p[N];
    float xf[N][6];
    for (int i = 0; i < N; i++) {
        const mf_skel_data *d = RIG[i] ? &m.data : &w.data;
        assert_int_equal(mf_pose_create(d, NULL, &p[i], NULL), MF_OK);
        if (!RIG[i]) {
            assert_int_equal(mf_pose_sample(p[i], &(mf_clip_sample){.clip = i % 2, .time = 0.1f * (float)i,
                                                                     .prev_time = -1, .weight = 1}),
                             MF_OK);
        } else {
            p[i]->rot[1] += 10.0f * (float)i, p[i]->sx[2] = 1.5f, p[i]->x[3] += (float)i;
        }
        if (HOW[i] == 2)
            for (int32_t k = 0; k < p[i]->slot_count; k++) p[i]->attachment[k] = -1;
        float m6[6] = {1, 0, 0, 1, 50.0f * (float)i, -20.0f * (float)i};
        memcpy(xf[i], m6, sizeof m6);
    }
    mf_gpu_batch_desc gd = {.max_instances = N, .readback = true};
    mf_gpu_batch *b = NULL;
    assert_int_equal(mf_gpu_batch_create(g_dev, &gd, &b, NULL), MF_OK);
    assert_int_equal(mf_gpu_batch_begin(b), MF_OK);
    for (int i = 0; i < N; i++) {
        mf_gpu_rig *r = RIG[i] ? rm : rw;
        if (HOW[i] == 1) {
            mf_pose_update_world(p[i]);
            assert_int_equal(mf_gpu_batch_add(b, r, p[i], NULL, xf[i]), MF_OK);
        } else {
            poison_world(p[i]);
            assert_int_equal(mf_gpu_batch_add_local(b, r, p[i], xf[i]), MF_OK);
        }
    }
    assert_int_equal(b->skeletons, N);
    assert_int_equal(mf_gpu_batch_submit(b), MF_OK);
    assert_int_equal(mf_gpu_batch_wait(b), MF_OK);
    mf_batch_vertex *gv = malloc(sizeof *gv * (size_t)(b->vertex_count + 1));
    uint32_t *gi = malloc(sizeof *gi * (size_t)(b->index_count + 1));
    assert_true(gv && gi);
    assert_int_equal(mf_gpu_batch_read(b, gv, gi), MF_OK);
    mf_draw_batch *cb = NULL;
    assert_int_equal(mf_draw_batch_create(NULL, &cb), MF_OK);
    mf_draw_batch_begin(cb);
    mf_draw_list *dl[2] = {NULL, NULL};
    assert_int_equal(mf_draw_list_create(&w.data, NULL, &dl[0]), MF_OK);
    assert_int_equal(mf_draw_list_create(&m.data, NULL, &dl[1]), MF_OK);
    for (int i = 0; i < N; i++) {
        mf_pose_update_world(p[i]);
        assert_int_equal(mf_draw_list_build(dl[RIG[i]], p[i]), MF_OK);
        assert_int_equal(mf_draw_batch_add(cb, dl[RIG[i]], RIG[i] ? &m.data : &w.data, xf[i]), MF_OK);
    }
    gpu_expect_streams(cb, b->calls, b->call_count, gv, b->vertex_count, gi, b->index_count);
    free(gv), free(gi);
    mf_draw_list_destroy(dl[0]), mf_draw_list_destroy(dl[1]);
    mf_draw_batch_destroy(cb);
    mf_gpu_batch_destroy(b);
    for (int i = 0; i < N; i++) mf_pose_destroy(p[i]);
    mf_gpu_rig_destroy(rw), mf_gpu_rig_destroy(rm);
    test_rig_free(&w), test_rig_free(&m);
    assert_int_equal(mf_gpu_device_messages(g_dev, NULL), 0);
}

/* Bones read back (mf_gpu_batch_read_world) into the very pose that was added, frame after
 * frame with three slots in flight, adds and add_locals interleaved: the last submitted frame's
 * skeleton-th instance, the CPU's world within rounding; refusals; and a CPU update after it
 * computes every bone and gives the CPU's world bit for bit. */
static void test_read_world(void **state)
{
    (void)state;
    NEED_DEVICE();
    test_rig w, k;
    test_rig_build(&w, PATH_RIG, PATH_NAMES, PATH_CLIPS, 2);
    test_rig_build(&k, IK_RIG, IK_NAMES, IK_CLIPS, 2);
    mf_gpu_rig *rw = NULL;
    assert_int_equal(mf_gpu_rig_create(g_dev, &w.data, &rw, NULL), MF_OK);
    enum { N = 5, F = 4 };
    static const int HOW[N] = {0, 1, 0, 0, 1}; /* 0 add_local, 1 add() after the CPU's world update */
    mf_pose *p[N], *cpu[N], *other = NULL;
    for (int i = 0; i < N; i++) {
        assert_int_equal(mf_pose_create(&w.data, NULL, &p[i], NULL), MF_OK);
        assert_int_equal(mf_pose_create(&w.data, NULL, &cpu[i], NULL), MF_OK);
    }
    assert_int_equal(mf_pose_create(&k.data, NULL, &other, NULL), MF_OK);
    mf_gpu_batch_desc gd = {.max_instances = N, .frames_in_flight = 3, .readback_world = true};
    mf_gpu_batch *b = NULL, *off = NULL;
    assert_int_equal(mf_gpu_batch_create(g_dev, &gd, &b, NULL), MF_OK);
    mf_gpu_batch_desc od = {.max_instances = N};
    assert_int_equal(mf_gpu_batch_create(g_dev, &od, &off, NULL), MF_OK);
    /* nothing submitted yet: refused, even with a frame begun and filled */
    assert_int_equal(mf_gpu_batch_read_world(b, 0, p[0]), MF_ERR_ARGUMENT);
    assert_int_equal(mf_gpu_batch_begin(b), MF_OK);
    assert_int_equal(mf_gpu_batch_add_local(b, rw, p[0], NULL), MF_OK);
    assert_int_equal(mf_gpu_batch_read_world(b, 0, p[0]), MF_ERR_ARGUMENT);
    /* readback_world off: refused after a waited submit */
    assert_int_equal(mf_gpu_batch_begin(off), MF_OK);
    assert_int_equal(mf_gpu_batch_add_local(off, rw, p[0], NULL), MF_OK);
    assert_int_equal(mf_gpu_batch_submit(off), MF_OK);
    assert_int_equal(mf_gpu_batch_wait(off), MF_OK);
    assert_int_equal(mf_gpu_batch_read_world(off, 0, p[0]), MF_ERR_ARGUMENT);
    for (int f = 0; f < F; f++) {
        /* (a frame begun and never submitted, above and at the end of a turn, is dropped) */
        assert_int_equal(mf_gpu_batch_begin(b), MF_OK);
        for (int i = 0; i < N; i++) {
            mf_pose_reset(p[i]);
            assert_int_equal(mf_pose_sample(p[i], &(mf_clip_sample){.clip = (i + f) % 2,
                                                                     .time = 0.07f * (float)(i + 1) + 0.19f * (float)f,
                                                                     .prev_time = -1, .weight = 1}),
                             MF_OK);
            float xf[6] = {0.8f, 0.6f, -0.6f, 0.8f, 300.0f + 40.0f * (float)i, -25.0f * (float)f}; /* not in the world */
            if (HOW[i]) {
                mf_pose_update_world(p[i]);
                assert_int_equal(mf_gpu_batch_add(b, rw, p[i], NULL, xf), MF_OK);
            } else {
                poison_world(p[i]);
                assert_int_equal(mf_gpu_batch_add_local(b, rw, p[i], xf), MF_OK);
            }
        }
        assert_int_equal(mf_gpu_batch_submit(b), MF_OK);
        if (f % 2 == 0) continue; /* two frames in flight before a wait: the last one is read */
        assert_int_equal(mf_gpu_batch_read_world(b, 0, p[0]), MF_ERR_ARGUMENT); /* not waited for */
        assert_int_equal(mf_gpu_batch_wait(b), MF_OK);
        /* the next frame begun and filled with other poses: the last submitted one is still read */
        assert_int_equal(mf_gpu_batch_begin(b), MF_OK);
        mf_pose *q = cpu[0];
        mf_pose_reset(q);
        q->rot[1] += 33.0f;
        for (int i = 0; i < 3; i++) assert_int_equal(mf_gpu_batch_add_local(b, rw, q, NULL), MF_OK);
        for (int i = 0; i < N; i++) {
            /* the CPU's world of the same local pose, on a twin */
            mf_pose_reset(cpu[i]);
            assert_int_equal(mf_pose_sample(cpu[i], &(mf_clip_sample){.clip = (i + f) % 2,
                                                                       .time = 0.07f * (float)(i + 1) + 0.19f * (float)f,
                                                                       .prev_time = -1, .weight = 1}),
                             MF_OK);
            mf_pose_update_world(cpu[i]);
            if (HOW[i]) { /* its palette was the CPU's: refused, the pose's world left as it was */
                float a0 = p[i]->a[0];
                assert_int_equal(mf_gpu_batch_read_world(b, i, p[i]), MF_ERR_UNSUPPORTED);
                assert_true(a0 == p[i]->a[0]);
                continue;
            }
            assert_true(isnan(p[i]->wx[0]));
            assert_int_equal(mf_gpu_batch_read_world(b, i, p[i]), MF_OK);
            gpu_expect_world(p[i], cpu[i], w.data.ik_count > 0, NULL, NULL);
        }
        /* bad arguments */
        assert_int_equal(mf_gpu_batch_read_world(b, N, p[0]), MF_ERR_ARGUMENT);
        assert_int_equal(mf_gpu_batch_read_world(b, -1, p[0]), MF_ERR_ARGUMENT);
        assert_int_equal(mf_gpu_batch_read_world(NULL, 0, p[0]), MF_ERR_ARGUMENT);
        assert_int_equal(mf_gpu_batch_read_world(b, 0, NULL), MF_ERR_ARGUMENT);
        assert_int_equal(mf_gpu_batch_read_world(b, 0, other), MF_ERR_ARGUMENT); /* another data */
    }
    /* A CPU update after read_world: every bone computed, the CPU's world bit for bit, where the
     * twin, updated twice from the same local pose, keeps bones (the dirty sub-tree skip). */
    assert_int_equal(mf_gpu_batch_begin(b), MF_OK);
    mf_pose_reset(p[0]), mf_pose_reset(cpu[0]);
    mf_pose_update_world(p[0]), mf_pose_update_world(cpu[0]);
    assert_int_equal(mf_gpu_batch_add_local(b, rw, p[0], NULL), MF_OK);
    assert_int_equal(mf_gpu_batch_submit(b), MF_OK);
    assert_int_equal(mf_gpu_batch_wait(b), MF_OK);
    assert_int_equal(mf_gpu_batch_read_world(b, 0, p[0]), MF_OK);
    gpu_expect_world(p[0], cpu[0], w.data.ik_count > 0, NULL, NULL);
    mf_pose_update_world(p[0]), mf_pose_update_world(cpu[0]);
    assert_true(cpu[0]->bones_kept > 0);
    assert_int_equal(p[0]->bones_kept, 0);
    const float *gw6[6] = {p[0]->a, p[0]->b, p[0]->c, p[0]->d, p[0]->wx, p[0]->wy};
    const float *cw6[6] = {cpu[0]->a, cpu[0]->b, cpu[0]->c, cpu[0]->d, cpu[0]->wx, cpu[0]->wy};
    for (int j = 0; j < 6; j++) assert_memory_equal(gw6[j], cw6[j], sizeof(float) * (size_t)p[0]->bone_count);
    mf_gpu_batch_destroy(off);
    mf_gpu_batch_destroy(b);
    for (int i = 0; i < N; i++) mf_pose_destroy(p[i]), mf_pose_destroy(cpu[i]);
    mf_pose_destroy(other);
    mf_gpu_rig_destroy(rw);
    test_rig_free(&w), test_rig_free(&k);
    assert_int_equal(mf_gpu_device_messages(g_dev, NULL), 0);
}

/* Without a list (a rig without clipping): a skeleton that does not fit leaves the frame as it
 * was, by vertices, by items or by calls. */
static void test_listless_rejections(void **state)
{
    (void)state;
    NEED_DEVICE();
    test_rig r;
    test_rig_build(&r, RIG_WEIGHTED_MESH, NULL, NULL, 0);
    mf_gpu_rig *rig = NULL;
    assert_int_equal(mf_gpu_rig_create(g_dev, &r.data, &rig, NULL), MF_OK);
    assert_false(mf_gpu_rig_needs_list(rig));
    mf_pose *p = NULL;
    assert_int_equal(mf_pose_create(&r.data, NULL, &p, NULL), MF_OK);
    mf_pose_update_world(p);
    const mf_gpu_batch_desc descs[3] = {{.max_vertices = 4, .max_instances = 4},
                                        {.max_vertices = 64, .max_items = 1, .max_instances = 4},
                                        {.max_vertices = 64, .max_calls = 1, .max_instances = 4}};
    for (int k = 0; k < 3; k++) {
        mf_gpu_batch *b = NULL;
        assert_int_equal(mf_gpu_batch_create(g_dev, &descs[k], &b, NULL), MF_OK);
        assert_int_equal(mf_gpu_batch_begin(b), MF_OK);
        assert_int_equal(mf_gpu_batch_add(b, rig, p, NULL, NULL), MF_OK);
        int32_t v = b->vertex_count, i = b->index_count, c = b->call_count, up = b->upload_bytes;
        assert_int_equal(v, 3);
        /* a second skeleton: calls merge (same texture and blend), so only vertices and items bind */
        mf_result res = mf_gpu_batch_add(b, rig, p, NULL, NULL);
        if (k == 2) {
            assert_int_equal(res, MF_OK);
            assert_int_equal(b->call_count, 1);
        } else {
            assert_int_equal(res, MF_ERR_NOMEM);
            assert_int_equal(b->overflow, 1);
            assert_int_equal(b->vertex_count, v);
            assert_int_equal(b->index_count, i);
            assert_int_equal(b->call_count, c);
            assert_int_equal(b->upload_bytes, up);
            assert_int_equal(b->skeletons, 1);
        }
        assert_int_equal(mf_gpu_batch_submit(b), MF_OK);
        assert_int_equal(mf_gpu_batch_wait(b), MF_OK);
        mf_gpu_batch_destroy(b);
    }
    mf_pose_destroy(p);
    mf_gpu_rig_destroy(rig);
    test_rig_free(&r);
    assert_int_equal(mf_gpu_device_messages(g_dev, NULL), 0);
}

/* A skeleton refused part way (some of its items in, the next one past the vertices) leaves
 * the frame exactly as it was: a skeleton added after it gives the same counts, calls, upload
 * and streams as a frame that never saw the refused one. Its first item joins the previous
 * skeleton's last call, it has deformed meshes (words) and, with a list, clipped items (copied
 * geometry) before the item that does not fit. Both ways: a list, and the pose without one. */
static void test_partial_rejection_rolls_back(void **state)
{
    (void)state;
    NEED_DEVICE();
    test_rig r;
    test_rig_build(&r, SCENE_RIG, SCENE_NAMES, SCENE_CLIPS, 2);
    scene s;
    scene_make(&s, &r.data);
    scene_play(&s, 1); /* bend: deform keys on m0 and w */
    scene_step(&s, 0.3f);
    const mf_skel_data *d = s.d;
    int32_t m0 = mf_skel_data_find_slot(d, "m0"), m1 = mf_skel_data_find_slot(d, "m1");
    int32_t clip = mf_skel_data_find_slot(d, "clip");
    assert_true(m0 >= 0 && m1 >= 0 && clip >= 0);
    /* S0 shows r0 alone: its call (r0's image, Normal) is the one S1's r0 joins */
    for (int32_t k = 0; k < d->slot_count; k++)
        if (k != mf_skel_data_find_slot(d, "r0")) s.pose[0]->attachment[k] = -1;
    /* S2: fewer vertices than S1, and a call of its own (a joined call's counts would be
     * written over) */
    s.pose[2]->attachment[mf_skel_data_find_slot(d, "r0")] = -1;
    s.pose[2]->attachment[m0] = s.pose[2]->attachment[m1] = -1;
    for (int listless = 0; listless < 2; listless++) {
        if (listless)
            for (int i = 0; i < SKELS; i++) s.pose[i]->attachment[clip] = -1;
        mf_draw_list *dl[SKELS];
        for (int i = 0; i < SKELS; i++) {
            assert_int_equal(mf_gpu_pose_needs_list(s.rig, s.pose[i]), !listless && i > 0);
            assert_int_equal(mf_draw_list_build_items(s.gpu[i], s.pose[i]), MF_OK);
            dl[i] = listless ? NULL : s.gpu[i];
        }
        /* each skeleton's vertices alone */
        mf_gpu_batch_desc big = {.max_vertices = 4096, .max_instances = 4, .readback = true};
        mf_gpu_batch *probe = NULL;
        assert_int_equal(mf_gpu_batch_create(g_dev, &big, &probe, NULL), MF_OK);
        int32_t nv[SKELS], ni1 = 0, nc1 = 0;
        for (int i = 0; i < SKELS; i++) {
            assert_int_equal(mf_gpu_batch_begin(probe), MF_OK);
            assert_int_equal(mf_gpu_batch_add(probe, s.rig, s.pose[i], dl[i], s.xf[i]), MF_OK);
            nv[i] = probe->vertex_count;
            if (i == 1) ni1 = probe->items, nc1 = probe->call_count;
        }
        /* S1's first item joins S0's last call */
        assert_int_equal(mf_gpu_batch_begin(probe), MF_OK);
        assert_int_equal(mf_gpu_batch_add(probe, s.rig, s.pose[0], dl[0], s.xf[0]), MF_OK);
        assert_int_equal(probe->call_count, 1);
        assert_int_equal(mf_gpu_batch_add(probe, s.rig, s.pose[1], dl[1], s.xf[1]), MF_OK);
        assert_int_equal(probe->call_count, nc1);
        mf_gpu_batch_destroy(probe);
        assert_true(ni1 >= 3 && nv[2] < nv[1] - 1);
        /* S1 fits all but its last vertex: refused at its last item */
        mf_gpu_batch_desc gd = {.max_vertices = nv[0] + nv[1] - 1, .max_instances = 4, .readback = true};
        mf_gpu_batch *a = NULL, *e = NULL;
        assert_int_equal(mf_gpu_batch_create(g_dev, &gd, &a, NULL), MF_OK);
        assert_int_equal(mf_gpu_batch_create(g_dev, &gd, &e, NULL), MF_OK);
        assert_int_equal(mf_gpu_batch_begin(a), MF_OK);
        assert_int_equal(mf_gpu_batch_begin(e), MF_OK);
        assert_int_equal(mf_gpu_batch_add(a, s.rig, s.pose[0], dl[0], s.xf[0]), MF_OK);
        assert_int_equal(mf_gpu_batch_add(a, s.rig, s.pose[1], dl[1], s.xf[1]), MF_ERR_NOMEM);
        assert_int_equal(mf_gpu_batch_add(a, s.rig, s.pose[2], dl[2], s.xf[2]), MF_OK);
        assert_int_equal(mf_gpu_batch_add(e, s.rig, s.pose[0], dl[0], s.xf[0]), MF_OK);
        assert_int_equal(mf_gpu_batch_add(e, s.rig, s.pose[2], dl[2], s.xf[2]), MF_OK);
        assert_int_equal(a->overflow, 1);
        assert_int_equal(e->overflow, 0);
        assert_int_equal(a->vertex_count, e->vertex_count);
        assert_int_equal(a->index_count, e->index_count);
        assert_int_equal(a->call_count, e->call_count);
        assert_true(e->call_count > 1 && e->calls[1].vertex_first == nv[0]); /* S2 did not join S0's */
        assert_int_equal(a->skeletons, e->skeletons);
        assert_int_equal(a->items, e->items);
        assert_int_equal(a->gpu_items, e->gpu_items);
        assert_int_equal(a->upload_bytes, e->upload_bytes);
        for (int32_t c = 0; c < e->call_count; c++) {
            assert_int_equal(a->calls[c].vertex_first, e->calls[c].vertex_first);
            assert_int_equal(a->calls[c].vertex_count, e->calls[c].vertex_count);
            assert_int_equal(a->calls[c].index_first, e->calls[c].index_first);
            assert_int_equal(a->calls[c].index_count, e->calls[c].index_count);
            assert_int_equal(a->calls[c].blend, e->calls[c].blend);
        }
        assert_int_equal(mf_gpu_batch_submit(a), MF_OK);
        assert_int_equal(mf_gpu_batch_submit(e), MF_OK);
        assert_int_equal(mf_gpu_batch_wait(a), MF_OK);
        assert_int_equal(mf_gpu_batch_wait(e), MF_OK);
        int32_t n = e->vertex_count, k = e->index_count;
        mf_batch_vertex *av = calloc((size_t)n, sizeof *av), *ev = calloc((size_t)n, sizeof *ev);
        uint32_t *ai = calloc((size_t)k, sizeof *ai), *ei = calloc((size_t)k, sizeof *ei);
        assert_true(av && ev && ai && ei);
        assert_int_equal(mf_gpu_batch_read(a, av, ai), MF_OK);
        assert_int_equal(mf_gpu_batch_read(e, ev, ei), MF_OK);
        assert_memory_equal(av, ev, (size_t)n * sizeof *av);
        assert_memory_equal(ai, ei, (size_t)k * sizeof *ai);
        free(av), free(ev), free(ai), free(ei);
        mf_gpu_batch_destroy(a);
        mf_gpu_batch_destroy(e);
    }
    scene_free(&s);
    test_rig_free(&r);
    assert_int_equal(mf_gpu_device_messages(g_dev, NULL), 0);
}

static void test_bad_arguments(void **state)
{
    (void)state;
    mf_gpu_device *g = NULL;
    mf_diag diag;
    mf_diag_clear(&diag);
    /* some host handles but not all: refused before any Vulkan call */
    mf_gpu_device_desc half = {.instance = (VkInstance)(uintptr_t)1};
    assert_int_equal(mf_gpu_device_create(&half, &g, &diag), MF_ERR_ARGUMENT);
    assert_null(g);
    assert_non_null(strstr(diag.where, "mf_gpu_device_desc"));
    assert_int_equal(mf_gpu_device_create(NULL, NULL, NULL), MF_ERR_ARGUMENT);
    assert_int_equal(mf_gpu_batch_begin(NULL), MF_ERR_ARGUMENT);
    assert_int_equal(mf_gpu_batch_add(NULL, NULL, NULL, NULL, NULL), MF_ERR_ARGUMENT);
    assert_int_equal(mf_gpu_batch_read(NULL, NULL, NULL), MF_ERR_ARGUMENT);
    mf_gpu_device_destroy(NULL), mf_gpu_rig_destroy(NULL), mf_gpu_batch_destroy(NULL);
    NEED_DEVICE();
    mf_gpu_batch *b = NULL;
    mf_gpu_batch_desc neg = {.max_vertices = -1};
    assert_int_equal(mf_gpu_batch_create(g_dev, &neg, &b, &diag), MF_ERR_ARGUMENT);
    mf_gpu_batch_desc slots = {.frames_in_flight = 9};
    assert_int_equal(mf_gpu_batch_create(g_dev, &slots, &b, &diag), MF_ERR_ARGUMENT);
    assert_null(b);
    mf_gpu_batch_desc plain = {.max_vertices = 64};
    assert_int_equal(mf_gpu_batch_create(g_dev, &plain, &b, &diag), MF_OK);
    assert_int_equal(mf_gpu_batch_read(b, NULL, NULL), MF_ERR_ARGUMENT); /* no readback asked */
    mf_gpu_batch_destroy(b);
    mf_gpu_device_desc bad_index = {.physical_index = 1000};
    assert_int_equal(mf_gpu_device_create(&bad_index, &g, &diag), MF_ERR_UNSUPPORTED);
    assert_non_null(strstr(diag.message, "physical device"));
}

int main(void)
{
    gpu_test_keep_driver_mapped();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bad_arguments),
        cmocka_unit_test(test_scene_rig_agrees),
        cmocka_unit_test(test_world_rig_agrees),
        cmocka_unit_test(test_ik_rig_agrees),
        cmocka_unit_test(test_ik_edges_agree),
        cmocka_unit_test(test_transform_rig_agrees),
        cmocka_unit_test(test_mannequin_agrees),
        cmocka_unit_test(test_rejections_leave_the_frame),
        cmocka_unit_test(test_listless_rejections),
        cmocka_unit_test(test_local_words),
        cmocka_unit_test(test_path_rig_agrees),
        cmocka_unit_test(test_path_edges_agree),
        cmocka_unit_test(test_local_words_constraints),
        cmocka_unit_test(test_world_runs_interleaved),
        cmocka_unit_test(test_read_world),
        cmocka_unit_test(test_partial_rejection_rolls_back),
        cmocka_unit_test(test_corpus_agrees),
    };
    return cmocka_run_group_tests(tests, setup_device, teardown_device);
}
