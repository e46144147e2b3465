/* Bone overrides from game code (local and world space, mix, channels, bad input) and the world
 * geometry queries that are not in the draw list: bounding boxes and point attachments. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "testutil.h"
#include "pose_rig.h"
#include "mf/mf_geometry.h"
#include "mf/mf_pose.h"

#define NEAR(a, b) assert_true(fabs((double)(a) - (double)(b)) < 1e-4)

/* root → arm (x 10) → hand (x 20); a bounding box on arm, a point on hand */
static const char *RIG =
    RIG_HEAD "\"bones\":[{\"name\":\"root\"},{\"name\":\"arm\",\"parent\":\"root\",\"x\":10},"
    "{\"name\":\"hand\",\"parent\":\"arm\",\"x\":20}],"
    "\"slots\":[{\"name\":\"box\",\"bone\":\"arm\",\"attachment\":\"box\"},"
    "{\"name\":\"tip\",\"bone\":\"hand\",\"attachment\":\"tip\"}],"
    "\"skins\":[{\"name\":\"default\",\"attachments\":["
    "{\"slot\":\"box\",\"name\":\"box\",\"type\":\"BoundingBox\",\"vertices\":[0,0,10,0,10,10,0,10]},"
    "{\"slot\":\"tip\",\"name\":\"tip\",\"type\":\"Point\",\"x\":5,\"rot\":90}]}]}";

static int32_t attachment(const mf_skel_data *d, int32_t slot, const char *name)
{
    int32_t a = mf_skel_data_skin_attachment(d, mf_skel_data_find_skin(d, "default"), slot,
                                             mf_skel_data_find_string(d, name));
    assert_true(a >= 0);
    return a;
}

static void local_override_rotates_the_bone_and_its_children(void **state)
{
    (void)state;
    test_rig r;
    test_rig_build(&r, RIG, NULL, NULL, 0);
    mf_pose *p = NULL;
    assert_int_equal(mf_pose_create(&r.data, NULL, &p, NULL), MF_OK);
    int32_t arm = mf_skel_data_find_bone(&r.data, "arm"), hand = mf_skel_data_find_bone(&r.data, "hand");

    mf_pose_reset(p);
    mf_bone_override ov = {.channels = MF_OVERRIDE_ROTATE, .mix = 1, .rot = 90};
    assert_int_equal(mf_pose_override(p, arm, &ov), MF_OK);
    mf_pose_update_world(p);
    NEAR(mf_pose_bone_world_rotation(p, arm), 90);
    NEAR(p->wx[hand], 10); /* rot 90 is clockwise on screen (Y down): +x turns into +y */
    NEAR(p->wy[hand], 20);

    mf_pose_reset(p);
    ov.mix = 0.5f;
    assert_int_equal(mf_pose_override(p, arm, &ov), MF_OK);
    mf_pose_update_world(p);
    NEAR(mf_pose_bone_world_rotation(p, arm), 45);

    /* a channel left out is left alone: translating does not rotate */
    mf_pose_reset(p);
    ov = (mf_bone_override){.channels = MF_OVERRIDE_TRANSLATE, .mix = 1, .x = 3, .y = 4, .rot = 90};
    assert_int_equal(mf_pose_override(p, arm, &ov), MF_OK);
    mf_pose_update_world(p);
    NEAR(p->wx[arm], 3);
    NEAR(p->wy[arm], 4);
    NEAR(mf_pose_bone_world_rotation(p, arm), 0);

    assert_int_equal(mf_pose_override(p, 99, &ov), MF_ERR_ARGUMENT);
    assert_int_equal(mf_pose_override(p, -1, &ov), MF_ERR_ARGUMENT);
    mf_pose_destroy(p);
    test_rig_free(&r);
}

static void world_override_places_the_bone_in_skeleton_space(void **state)
{
    (void)state;
    test_rig r;
    test_rig_build(&r, RIG, NULL, NULL, 0);
    mf_pose *p = NULL;
    assert_int_equal(mf_pose_create(&r.data, NULL, &p, NULL), MF_OK);
    int32_t arm = mf_skel_data_find_bone(&r.data, "arm"), hand = mf_skel_data_find_bone(&r.data, "hand");
    mf_pose_reset(p);
    mf_pose_update_world(p);
    /* turn the arm, then pin the hand at a world point: its local offset follows the turn */
    mf_bone_override turn = {.channels = MF_OVERRIDE_ROTATE, .mix = 1, .rot = 90};
    assert_int_equal(mf_pose_override(p, arm, &turn), MF_OK);
    mf_pose_update_world(p);
    mf_bone_override pin = {.channels = MF_OVERRIDE_TRANSLATE, .world = true, .mix = 1, .x = 50, .y = 30};
    assert_int_equal(mf_pose_override(p, hand, &pin), MF_OK);
    mf_pose_update_world(p);
    NEAR(p->wx[hand], 50);
    NEAR(p->wy[hand], 30);
    float m[6];
    assert_int_equal(mf_pose_bone_world(p, hand, m), MF_OK);
    NEAR(m[4], 50);
    NEAR(m[5], 30);
    assert_int_equal(mf_pose_bone_world(p, 42, m), MF_ERR_ARGUMENT);
    mf_pose_destroy(p);
    test_rig_free(&r);
}

static void bounding_boxes_and_points_follow_their_bones(void **state)
{
    (void)state;
    test_rig r;
    test_rig_build(&r, RIG, NULL, NULL, 0);
    mf_pose *p = NULL;
    assert_int_equal(mf_pose_create(&r.data, NULL, &p, NULL), MF_OK);
    int32_t box_slot = mf_skel_data_find_slot(&r.data, "box"), tip_slot = mf_skel_data_find_slot(&r.data, "tip");
    int32_t box = attachment(&r.data, box_slot, "box"), tip = attachment(&r.data, tip_slot, "tip");
    mf_pose_reset(p);
    mf_bone_override ov = {.channels = MF_OVERRIDE_ROTATE, .mix = 1, .rot = 90};
    assert_int_equal(mf_pose_override(p, mf_skel_data_find_bone(&r.data, "arm"), &ov), MF_OK);
    mf_pose_update_world(p);

    float v[8];
    assert_int_equal(mf_pose_world_vertices(p, box_slot, box, v, 4), 4);
    const float want[8] = {10, 0, 10, 10, 0, 10, 0, 0}; /* the square turned 90° about (10, 0) */
    for (int i = 0; i < 8; i++) NEAR(v[i], want[i]);
    assert_int_equal(mf_pose_world_vertices(p, box_slot, box, v, 3), 0); /* too small: nothing */

    float x, y, rot;
    assert_int_equal(mf_pose_point_world(p, tip_slot, tip, &x, &y, &rot), MF_OK);
    NEAR(x, 10); /* hand at (10, 20), the point 5 further along the turned axis */
    NEAR(y, 25);
    NEAR(rot, 180);
    assert_int_equal(mf_pose_point_world(p, box_slot, box, &x, &y, &rot), MF_ERR_ARGUMENT);
    mf_pose_destroy(p);
    test_rig_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(local_override_rotates_the_bone_and_its_children),
        cmocka_unit_test(world_override_places_the_bone_in_skeleton_space),
        cmocka_unit_test(bounding_boxes_and_points_follow_their_bones),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
