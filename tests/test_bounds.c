/* Clip bounds in the build (mf_sd_bounds, mf_skel_data_clip_bounds): they hold every pose of
 * their clip sampled far more densely than the build samples it, under every skin, for the
 * mannequin, the generated benchmark rig, deform and weighted meshes, skins and a root moving
 * far; they are not much larger than those poses; the loader refuses bad boxes, located. */
#include <float.h>
#include "testutil.h"

#include <math.h>
#include <stdio.h>

#include "batch/bench.h"
#include "mf/mf_geometry.h"
#include "mf/mf_physics.h"
#include "mf/mf_rig.h"
#include "pose_rig.h"

/* ---------------------------------------------------------------- helpers */

static void grow(float u[4], const float r[4], bool *any)
{
    if (!*any) {
        for (int k = 0; k < 4; k++) u[k] = r[k];
        *any = true;
        return;
    }
    u[0] = fminf(u[0], r[0]), u[1] = fminf(u[1], r[1]), u[2] = fmaxf(u[2], r[2]), u[3] = fmaxf(u[3], r[3]);
}

static bool inside(const float in[4], const float out[4])
{
    return in[0] >= out[0] && in[1] >= out[1] && in[2] <= out[2] && in[3] <= out[3];
}

/* Poses clip (-1: setup) at 240 Hz under no skin and each skin: every pose's box lies inside
 * the build's box, and the build's box lies inside the union of those poses grown by a little
 * more than the build's margin (conservative, not loose). Returns the poses checked. */
static int check_clip(const mf_skel_data *d, int32_t clip)
{
    float b[4];
    assert_true(mf_skel_data_clip_bounds(d, clip, b));
    mf_skin_cache *cache;
    mf_pose *p;
    assert_int_equal(mf_skin_cache_create(d, NULL, &cache), MF_OK);
    assert_int_equal(mf_pose_create(d, NULL, &p, NULL), MF_OK);
    mf_pose_physics_set_mode(p, MF_PHYSICS_POSE);
    float u[4] = {0};
    bool any = false;
    int poses = 0;
    float len = clip >= 0 ? d->clips[clip].length : 0;
    for (int32_t cfg = -1; cfg < d->skin_count; cfg++) {
        assert_int_equal(mf_pose_set_skins(p, cache, cfg < 0 ? NULL : &cfg, cfg < 0 ? 0 : 1, NULL), MF_OK);
        for (int k = 0;; k++) {
            double t = fmin(k / 240.0, (double)len);
            mf_pose_reset(p);
            mf_pose_physics_reset(p);
            if (clip >= 0)
                mf_pose_sample(p, &(mf_clip_sample){.clip = clip, .time = t, .prev_time = t, .weight = 1});
            mf_pose_update_world(p);
            float r[4];
            if (mf_pose_bounds(p, r)) {
                if (!inside(r, b))
                    fail_msg("clip %d skin %d t %.4f: pose box %g %g %g %g outside the build's %g %g %g %g", clip, cfg, t,
                             (double)r[0], (double)r[1], (double)r[2], (double)r[3], (double)b[0], (double)b[1],
                             (double)b[2], (double)b[3]);
                grow(u, r, &any);
                poses++;
            }
            if (t >= len) break;
        }
    }
    assert_true(any);
    float m = (MF_SD_BOUNDS_MARGIN + 0.01f) * fmaxf(u[2] - u[0], u[3] - u[1]);
    const float loose[4] = {u[0] - m, u[1] - m, u[2] + m, u[3] + m};
    if (!inside(b, loose))
        fail_msg("clip %d: the build's box %g %g %g %g is looser than the poses' %g %g %g %g", clip, (double)b[0],
                 (double)b[1], (double)b[2], (double)b[3], (double)u[0], (double)u[1], (double)u[2], (double)u[3]);
    mf_pose_destroy(p);
    mf_skin_cache_destroy(cache);
    return poses;
}

static void check_rig_file(const char *path, int min_poses)
{
    mf_rig rig;
    mf_diag diag;
    assert_int_equal(mf_rig_load(path, &rig, &diag), MF_OK);
    void *blob;
    size_t size;
    assert_int_equal(mf_build_skeleton(rig.sk, (const mf_clip *const *)rig.clips, rig.clip_count, &blob, &size, &diag),
                     MF_OK);
    mf_skel_data d;
    assert_int_equal(mf_skel_data_load(blob, size, &d, &diag), MF_OK);
    assert_int_equal(d.bounds_count, d.clip_count + 1);
    int poses = check_clip(&d, -1);
    for (int32_t c = 0; c < d.clip_count; c++) poses += check_clip(&d, c);
    assert_true(poses >= min_poses);
    free(blob);
    mf_rig_free(&rig);
}

/* ---------------------------------------------------------------- rigs */

static void test_mannequin(void **state)
{
    (void)state;
    check_rig_file(tu_src("examples/mannequin/mannequin.mskel"), 400); /* idle 2 s + walk, 240 Hz */
}

static void test_generated_rig(void **state)
{
    (void)state;
    char path[1200];
    mf_diag diag;
    /* the benchmark's rig: chains of bones, weighted meshes, a run clip keying every bone */
    assert_int_equal(mf_bench_write_synthetic(tu_tmpdir(), 40, 30, 800, path, sizeof path, &diag), MF_OK);
    check_rig_file(path, 100);
}

/* A root walking 1000 px, an arm swinging a long region through 180 degrees with keys only at
 * the ends (samples at -60, 30 and 120 degrees miss the arc's reach at 0 and 90: the margin's
 * case), a mesh deformed far, a weighted mesh,
 * and a skin with a larger attachment than the default's. */
static const char *RIG = RIG_HEAD "\"bones\":[{\"name\":\"root\"},"
    "{\"name\":\"arm\",\"parent\":\"root\",\"y\":-50},{\"name\":\"b2\",\"parent\":\"root\",\"x\":30}],"
    "\"slots\":[{\"name\":\"body\",\"bone\":\"root\",\"attachment\":\"body\"},"
    "{\"name\":\"arm\",\"bone\":\"arm\",\"attachment\":\"arm\"},"
    "{\"name\":\"m\",\"bone\":\"root\",\"attachment\":\"mesh\"},"
    "{\"name\":\"w\",\"bone\":\"root\",\"attachment\":\"wm\"}],"
    "\"skins\":[{\"name\":\"default\",\"attachments\":["
    "{\"slot\":\"body\",\"name\":\"body\",\"type\":\"Region\",\"width\":40,\"height\":100,\"y\":-50},"
    "{\"slot\":\"arm\",\"name\":\"arm\",\"type\":\"Region\",\"width\":60,\"height\":8,\"x\":30},"
    "{\"slot\":\"m\",\"name\":\"mesh\",\"type\":\"Mesh\",\"vertices\":[0,0,10,0,0,10],\"uvs\":[0,0,1,0,0,1],"
    "\"triangles\":[0,1,2],\"hull\":3,\"width\":10,\"height\":10},"
    "{\"slot\":\"w\",\"name\":\"wm\",\"type\":\"Mesh\",\"weights\":{\"bones\":[\"root\",\"b2\"],"
    "\"v\":[[0,0.5,0,0,1,0.5,0,0],[1,1,0,5],[0,1,0,5]]},\"uvs\":[0,0,1,0,0,1],\"triangles\":[0,1,2],\"hull\":3,"
    "\"width\":10,\"height\":10}]},"
    "{\"name\":\"giant\",\"attachments\":["
    "{\"slot\":\"body\",\"name\":\"body\",\"type\":\"Region\",\"width\":40,\"height\":400,\"y\":-200}]}]}";

enum { WALK, SWING, DEFORM, CLIP_N };
static const char *const NAMES[] = {"walk", "swing", "deform"};
static const char *const CLIPS[] = {
    CLIP_HEAD "\"length\":2,\"bones\":{\"root\":{\"translate\":{\"t\":[0,2],\"v\":[[0,0],[1000,0]]}}}}",
    CLIP_HEAD "\"length\":1,\"bones\":{\"arm\":{\"rotate\":{\"t\":[0,1],\"v\":[-60,120]}}}}",
    /* mesh vertex 1 pulled 300 px right; the weighted mesh's vertex 0 influences 200 px down */
    CLIP_HEAD "\"length\":1,\"deform\":{\"default\":{"
              "\"m\":{\"mesh\":{\"t\":[0,1],\"offset\":[0,0],\"v\":[[0,0,0,0],[0,0,300,0]]}},"
              "\"w\":{\"wm\":{\"t\":[0,1],\"offset\":[0,0],\"v\":[[0,0,0,0],[0,200,0,200]]}}}}}",
};

static void test_small_rig(void **state)
{
    (void)state;
    test_rig r;
    test_rig_build(&r, RIG, NAMES, CLIPS, CLIP_N);
    const mf_skel_data *d = &r.data;
    for (int32_t c = -1; c < CLIP_N; c++) check_clip(d, c);
    float setup[4], walk[4], swing[4], def[4];
    assert_true(mf_skel_data_clip_bounds(d, -1, setup));
    assert_true(mf_skel_data_clip_bounds(d, WALK, walk));
    assert_true(mf_skel_data_clip_bounds(d, SWING, swing));
    assert_true(mf_skel_data_clip_bounds(d, DEFORM, def));
    /* the giant skin's body (400 px tall, up from the root) is in every box */
    assert_true(setup[1] <= -400.0f && walk[1] <= -400.0f);
    /* the walk's box covers the whole path: from the body's left edge at 0 to its right at 1000 */
    assert_true(walk[0] <= -20.0f && walk[2] >= 1020.0f);
    /* the swung arm (60 px from its bone at y -50) reaches x 60 at 0 degrees and y 10 + 4 at 90,
     * between the build's samples */
    assert_true(swing[2] >= 60.0f && swing[3] >= 14.0f);
    /* deform: the mesh's vertex reaches x 310, the weighted vertex y 200 */
    assert_true(def[2] >= 310.0f && def[3] >= 200.0f);
    /* out of range */
    float out[4] = {7, 7, 7, 7};
    assert_false(mf_skel_data_clip_bounds(d, CLIP_N, out));
    assert_false(mf_skel_data_clip_bounds(d, -2, out));
    assert_false(mf_skel_data_clip_bounds(NULL, 0, out));
    assert_true(out[0] == 7.0f);
    test_rig_free(&r);
}

/* A rig that draws nothing gets the box of its bone origins, not an empty or inverted one. */
static void test_nothing_drawn(void **state)
{
    (void)state;
    static const char *rig = RIG_HEAD "\"bones\":[{\"name\":\"root\"},{\"name\":\"b\",\"parent\":\"root\",\"x\":10}]}";
    static const char *const names[] = {"m"};
    static const char *const clips[] = {
        CLIP_HEAD "\"length\":1,\"bones\":{\"b\":{\"translate\":{\"t\":[0,1],\"v\":[[0,0],[100,0]]}}}}"};
    test_rig r;
    test_rig_build(&r, rig, names, clips, 1);
    float b[4];
    assert_true(mf_skel_data_clip_bounds(&r.data, 0, b));
    assert_true(b[0] <= 0.0f && b[2] >= 110.0f && b[1] <= 0.0f && b[3] >= 0.0f);
    test_rig_free(&r);
}

/* A clip moving a bone near the float range: the margin would overflow; the build still
 * succeeds and the box covers the whole plane (conservative and finite). */
static void test_near_float_range(void **state)
{
    (void)state;
    static const char *rig = RIG_HEAD "\"bones\":[{\"name\":\"root\"},{\"name\":\"b\",\"parent\":\"root\"}],"
        "\"slots\":[{\"name\":\"s\",\"bone\":\"b\",\"attachment\":\"r\"}],"
        "\"skins\":[{\"name\":\"default\",\"attachments\":["
        "{\"slot\":\"s\",\"name\":\"r\",\"type\":\"Region\",\"width\":10,\"height\":10}]}]}";
    static const char *const names[] = {"far"};
    static const char *const clips[] = {
        CLIP_HEAD "\"length\":1,\"bones\":{\"b\":{\"translate\":{\"t\":[0,1],\"v\":[[-2e38,0],[2e38,0]]}}}}"};
    test_rig r;
    test_rig_build(&r, rig, names, clips, 1);
    float b[4];
    assert_true(mf_skel_data_clip_bounds(&r.data, 0, b));
    assert_true(b[0] == -FLT_MAX && b[2] == FLT_MAX);
    assert_true(b[1] <= -5.0f && b[3] >= 5.0f);
    test_rig_free(&r);
}

/* ---------------------------------------------------------------- loader */

/* The BOUNDS entry of a blob's section table (its offset in the blob). */
static size_t bounds_entry(const unsigned char *blob)
{
    uint32_t count;
    memcpy(&count, blob + 20, 4);
    for (uint32_t i = 0; i < count; i++) {
        mf_sd_section s;
        memcpy(&s, blob + 64 + 16 * (size_t)i, sizeof s);
        if (s.id == MF_SD_SEC_BOUNDS) return 64 + 16 * (size_t)i;
    }
    fail_msg("no bounds section");
    return 0;
}

static void expect_bad(unsigned char *blob, size_t size, const char *where, const char *msg)
{
    test_blob_reseal(blob, size);
    mf_skel_data d;
    mf_diag diag;
    assert_int_equal(mf_skel_data_load(blob, size, &d, &diag), MF_ERR_CORRUPT);
    assert_string_equal(diag.where, where);
    assert_contains(diag.message, msg);
}

static void test_loader_checks(void **state)
{
    (void)state;
    test_rig r;
    test_rig_build(&r, RIG, NAMES, CLIPS, CLIP_N);
    unsigned char *blob = r.blob;
    size_t at = bounds_entry(blob);
    mf_sd_section s;
    memcpy(&s, blob + at, sizeof s);
    assert_int_equal(s.count, CLIP_N + 1);
    assert_int_equal(s.elem_size, sizeof(mf_sd_bounds));
    mf_sd_bounds keep;
    unsigned char *rec = blob + s.offset + sizeof(mf_sd_bounds) * 2; /* bounds[2]: swing */
    memcpy(&keep, rec, sizeof keep);

    mf_sd_bounds bad = keep;
    bad.min_x = bad.max_x + 1;
    memcpy(rec, &bad, sizeof bad);
    expect_bad(blob, r.size, "bounds[2].minX", "above max x");
    bad = keep, bad.max_y = bad.min_y - 1;
    memcpy(rec, &bad, sizeof bad);
    expect_bad(blob, r.size, "bounds[2].minY", "above max y");
    bad = keep, bad.max_y = NAN;
    memcpy(rec, &bad, sizeof bad);
    expect_bad(blob, r.size, "bounds[2].maxY", "not a finite number");
    bad = keep, bad.min_x = -INFINITY;
    memcpy(rec, &bad, sizeof bad);
    expect_bad(blob, r.size, "bounds[2].minX", "not a finite number");
    memcpy(rec, &keep, sizeof keep);

    /* one box short: the count no longer matches the clips */
    uint32_t one_less = s.count - 1;
    memcpy(blob + at + 8, &one_less, 4);
    expect_bad(blob, r.size, "section bounds", "expected 4");
    memcpy(blob + at + 8, &s.count, 4);
    test_blob_reseal(blob, r.size);
    mf_skel_data d;
    assert_int_equal(mf_skel_data_load(blob, r.size, &d, NULL), MF_OK);
    test_rig_free(&r);
}

/* Builds are deterministic with the bounds too. */
static void test_deterministic(void **state)
{
    (void)state;
    test_rig a, b;
    test_rig_build(&a, RIG, NAMES, CLIPS, CLIP_N);
    test_rig_build(&b, RIG, NAMES, CLIPS, CLIP_N);
    assert_int_equal(a.size, b.size);
    assert_memory_equal(a.blob, b.blob, a.size);
    uint32_t version;
    memcpy(&version, (unsigned char *)a.blob + 8, 4);
    assert_int_equal(version, 7); /* 5: weighted skinning streams; 6: skin groups chained; 7: run groups */
    test_rig_free(&a);
    test_rig_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mannequin),     cmocka_unit_test(test_generated_rig),
        cmocka_unit_test(test_small_rig),     cmocka_unit_test(test_nothing_drawn),
        cmocka_unit_test(test_loader_checks), cmocka_unit_test(test_deterministic),
        cmocka_unit_test(test_near_float_range),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
