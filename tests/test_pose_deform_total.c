/* mf_pose_create sizes the pose's deform floats as the sum over slots of the largest deform on
 * each: data the loader accepts can make that sum pass 2^31 (attachments may share one range of
 * vertex floats or influences, so a small build can declare many large meshes on many slots).
 * The sum must not wrap into a small buffer that deform keys then write past: the pose is
 * refused with a clear error. The data here is a built rig's view with its slot and attachment
 * tables replaced (mf_pose_create reads nothing else of them). */
#include <stdio.h>

#include "testutil.h"
#include "pose_rig.h"
#include "mf/mf_pose.h"

static const char *RIG = RIG_HEAD
    "\"bones\":[{\"name\":\"root\"}],"
    "\"slots\":[{\"name\":\"s\",\"bone\":\"root\"}],"
    "\"skins\":[{\"name\":\"default\",\"attachments\":[{\"slot\":\"s\",\"name\":\"m\",\"type\":\"Mesh\","
    "\"uvs\":[0,0,1,0,1,1,0,1],\"vertices\":[0,0,10,0,10,10,0,10],\"triangles\":[0,1,2,0,2,3],\"hull\":4}]}]}";

enum { SLOTS = 2048, MESH_VERTICES = 1 << 20 }; /* 2048 slots × 2^21 deform floats = 2^32 */

static void test_deform_total_past_int32(void **state)
{
    (void)state;
    test_rig r;
    test_rig_build(&r, RIG, NULL, NULL, 0);
    assert_int_equal(r.data.attachment_count, 1);
    mf_sd_slot *slots = calloc(SLOTS, sizeof *slots);
    mf_sd_attachment *atts = calloc(SLOTS, sizeof *atts);
    int32_t *first = calloc(SLOTS + 1, sizeof *first); /* unweighted: no skinning groups */
    assert_non_null(slots), assert_non_null(atts), assert_non_null(first);
    for (int32_t i = 0; i < SLOTS; i++) {
        slots[i] = r.data.slots[0];
        slots[i].attachment = -1;
        atts[i] = r.data.attachments[0];
        atts[i].slot = i, atts[i].deform_source = i;
        atts[i].vertex_count = MESH_VERTICES, atts[i].deform_count = 2 * MESH_VERTICES;
    }
    mf_skel_data d = r.data;
    d.slots = slots, d.slot_count = SLOTS;
    d.attachments = atts, d.attachment_count = SLOTS;
    d.skin_group_first = first, d.skin_group_first_count = SLOTS + 1;
    mf_pose *p = NULL;
    mf_diag diag;
    mf_diag_clear(&diag);
    mf_result res = mf_pose_create(&d, NULL, &p, &diag);
    if (res == MF_OK) {
        fprintf(stderr, "created with %d slots of %d deform floats: deform_first[%d] = %d\n", SLOTS,
                2 * MESH_VERTICES, SLOTS - 1, p->deform_first[SLOTS - 1]);
        mf_pose_destroy(p);
    }
    assert_int_equal(res, MF_ERR_UNSUPPORTED);
    assert_null(p);
    assert_non_null(strstr(diag.message, "deform"));
    free(first), free(atts), free(slots);
    test_rig_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_deform_total_past_int32),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
