/* mf_batch_update's off-screen modes with a physics rig: Full poses exactly as an item never
 * culled; an item back from TimeOnly differs only by its springs, which rested while culled
 * (mf_batch.h), and settles back to the never-culled item's pose. */
#include "testutil.h"

#include <math.h>
#include <stdio.h>

#include "mf/mf_batch.h"
#include "mf/mf_physics.h"
#include "pose_rig.h"

static const char *RIG = RIG_HEAD "\"bones\":[{\"name\":\"root\"},{\"name\":\"hip\",\"parent\":\"root\",\"y\":-40},"
    "{\"name\":\"tail\",\"parent\":\"hip\",\"rot\":90,\"length\":40}],"
    "\"physics\":[{\"name\":\"p\",\"bone\":\"tail\",\"x\":1,\"y\":1,\"rotate\":1,\"inertia\":1,\"strength\":60,"
    "\"damping\":0.8,\"mass\":1}]}";
/* the root walks 200 px a second */
static const char *WALK = CLIP_HEAD "\"length\":1,\"bones\":{\"root\":{\"translate\":{\"t\":[0,1],\"v\":[[0,0],[200,0]]}}}}";

#define FAR 1e6f

static double tail_angle(const mf_pose *p) { return atan2(p->c[2], p->a[2]) * 57.29577951308232; }

static void run_mode(mf_offscreen_mode mode, double *worst_return, double *worst_after, double *last)
{
    test_rig r;
    const char *names[] = {"walk"}, *clips[] = {WALK};
    test_rig_build(&r, RIG, names, clips, 1);
    mf_pose *p[2];
    mf_tracks *t[2];
    for (int i = 0; i < 2; i++) {
        assert_int_equal(mf_pose_create(&r.data, NULL, &p[i], NULL), MF_OK);
        assert_int_equal(mf_tracks_create(&r.data, NULL, NULL, &t[i]), MF_OK);
        mf_tracks_set(t[i], 0, 0, true);
    }
    mf_batch_state st = {0};
    float view[4] = {-1e5f, -1e5f, 1e5f, 1e5f};
    mf_batch_item items[2] = {{.tracks = t[0], .pose = p[0]},
                              {.tracks = t[1], .pose = p[1], .offscreen = mode, .view = view, .state = &st}};
    *worst_return = *worst_after = 0;
    for (int frame = 0; frame < 300; frame++) {
        bool culled = frame >= 60 && frame < 120;
        view[0] = view[1] = culled ? FAR : -1e5f;
        view[2] = view[3] = culled ? FAR + 1 : 1e5f;
        mf_batch_update(items, 2, 1.0 / 60, NULL, NULL);
        assert_int_equal(st.culled, culled);
        if (mode == MF_OFFSCREEN_FULL || frame < 60) {
            assert_memory_equal(p[0]->a, p[1]->a, sizeof(float) * 3);
            assert_memory_equal(p[0]->wx, p[1]->wx, sizeof(float) * 3);
        }
        if (culled || mode == MF_OFFSCREEN_PAUSE) continue; /* Pause comes back at another time */
        double diff = fabs(tail_angle(p[0]) - tail_angle(p[1]));
        if (frame == 120) *worst_return = diff;
        else if (frame > 120 && diff > *worst_after) *worst_after = diff;
        *last = diff;
    }
    for (int i = 0; i < 2; i++) mf_tracks_destroy(t[i]), mf_pose_destroy(p[i]);
    test_rig_free(&r);
}

static void test_physics_offscreen(void **state)
{
    (void)state;
    double ret, after, last;
    run_mode(MF_OFFSCREEN_FULL, &ret, &after, &last);
    assert_true(ret == 0 && after == 0);
    run_mode(MF_OFFSCREEN_PAUSE, &ret, &after, &last);
    run_mode(MF_OFFSCREEN_TIME_ONLY, &ret, &after, &last);
    printf("TimeOnly with physics: spring bone %.3f deg off the never-culled item on the frame it returns, "
           "up to %.3f deg after, %.5f deg three seconds later\n", ret, after, last);
    assert_true(after < 10.0);  /* the speed limit caps the catch-up */
    assert_true(last < 0.01);   /* and the springs settle to the same pose */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_physics_offscreen),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
