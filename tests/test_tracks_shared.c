/* Shared clip tables (mf_tracks_shared): tracks that use them pose, fire callbacks and report
 * exactly as tracks with their own tables, through crossfades, layers, attachment keys and
 * events; tables built for other data are refused. */
#include "testutil.h"

#include <stdio.h>
#include <string.h>

#include "mf/mf_pose.h"
#include "mf/mf_tracks.h"
#include "pose_rig.h"

static const char *RIG = RIG_HEAD
    "\"bones\":[{\"name\":\"root\"},{\"name\":\"arm\",\"parent\":\"root\",\"length\":50},"
    "{\"name\":\"hand\",\"parent\":\"arm\",\"x\":50}],"
    "\"slots\":[{\"name\":\"s\",\"bone\":\"arm\",\"attachment\":\"a\"}],"
    "\"events\":[{\"name\":\"step\"}],"
    "\"skins\":[{\"name\":\"default\",\"attachments\":["
    "{\"slot\":\"s\",\"name\":\"a\",\"type\":\"Region\",\"width\":10,\"height\":10},"
    "{\"slot\":\"s\",\"name\":\"b\",\"type\":\"Region\",\"width\":10,\"height\":10}]}]}";

static const char *const NAMES[] = {"a", "b", "c"};
static const char *const CLIPS[] = {
    CLIP_HEAD "\"length\":1,\"bones\":{\"arm\":{\"rotate\":{\"t\":[0,1],\"v\":[0,170]}},"
              "\"hand\":{\"translate\":{\"t\":[0],\"v\":[[10,0]]}}},"
              "\"events\":{\"t\":[0.5],\"v\":[{\"name\":\"step\"}]}}",
    CLIP_HEAD "\"length\":0.8,\"bones\":{\"arm\":{\"rotate\":{\"t\":[0,0.8],\"v\":[-90,30]}}},"
              "\"slots\":{\"s\":{\"attachment\":{\"t\":[0.3],\"v\":[\"b\"]}}}}",
    CLIP_HEAD "\"length\":0.5,\"bones\":{\"hand\":{\"rotate\":{\"t\":[0,0.5],\"v\":[0,45]}}},"
              "\"events\":{\"t\":[0.1],\"v\":[{\"name\":\"step\"}]}}",
};

typedef struct run {
    mf_pose *pose;
    mf_tracks *t;
    int32_t calls[8];
} run;

static void listen(mf_tracks *t, mf_track_event_type type, mf_entry_handle h, const mf_track_entry *e,
                   const mf_fired_event *ev, void *user)
{
    (void)t, (void)h, (void)e, (void)ev;
    ((run *)user)->calls[type]++;
}

static void same_pose(const mf_pose *a, const mf_pose *b)
{
    size_t n = (size_t)a->bone_count * sizeof(float);
    const float *fa[] = {a->x, a->y, a->rot, a->a, a->b, a->c, a->d, a->wx, a->wy};
    const float *fb[] = {b->x, b->y, b->rot, b->a, b->b, b->c, b->d, b->wx, b->wy};
    for (size_t k = 0; k < sizeof fa / sizeof fa[0]; k++) assert_memory_equal(fa[k], fb[k], n);
    assert_memory_equal(a->attachment, b->attachment, (size_t)a->slot_count * sizeof(int32_t));
}

static void shared_tables_play_the_same(void **state)
{
    (void)state;
    test_rig rig;
    test_rig_build(&rig, RIG, NAMES, CLIPS, 3);
    mf_tracks_shared *sh = NULL;
    assert_int_equal(mf_tracks_shared_create(&rig.data, NULL, &sh), MF_OK);
    run r[2];
    memset(r, 0, sizeof r);
    for (int32_t k = 0; k < 2; k++) {
        mf_tracks_config cfg = {.default_mix = 0.25, .shared = k ? sh : NULL};
        assert_int_equal(mf_pose_create(&rig.data, NULL, &r[k].pose, NULL), MF_OK);
        assert_int_equal(mf_tracks_create(&rig.data, &cfg, NULL, &r[k].t), MF_OK);
        mf_tracks_set_listener(r[k].t, listen, &r[k]);
        mf_tracks_set(r[k].t, 0, 0, true);
        mf_tracks_add(r[k].t, 0, 1, true, 0.7);
        mf_tracks_set(r[k].t, 1, 2, true);
    }
    for (int32_t f = 0; f < 150; f++) {
        for (int32_t k = 0; k < 2; k++) {
            if (f == 90) mf_tracks_set(r[k].t, 0, 0, false);
            mf_pose_reset(r[k].pose);
            mf_tracks_update(r[k].t, 1.0 / 30);
            mf_tracks_apply(r[k].t, r[k].pose);
            mf_pose_update_world(r[k].pose);
        }
        same_pose(r[0].pose, r[1].pose);
    }
    assert_memory_equal(r[0].calls, r[1].calls, sizeof r[0].calls);
    assert_true(r[0].calls[MF_TRACK_EVENT] > 4); /* both clips' events fired */
    assert_true(r[0].pose->attachment[0] >= 0);
    for (int32_t k = 0; k < 2; k++) mf_tracks_destroy(r[k].t), mf_pose_destroy(r[k].pose);
    mf_tracks_shared_destroy(sh);
    test_rig_free(&rig);
}

static void tables_of_other_data_are_refused(void **state)
{
    (void)state;
    test_rig a, b;
    test_rig_build(&a, RIG, NAMES, CLIPS, 3);
    test_rig_build(&b, RIG, NAMES, CLIPS, 2);
    mf_tracks_shared *sh = NULL;
    assert_int_equal(mf_tracks_shared_create(NULL, NULL, &sh), MF_ERR_ARGUMENT);
    assert_int_equal(mf_tracks_shared_create(&a.data, NULL, NULL), MF_ERR_ARGUMENT);
    assert_int_equal(mf_tracks_shared_create(&a.data, NULL, &sh), MF_OK);
    mf_tracks_config cfg = {.shared = sh};
    mf_tracks *t = (mf_tracks *)&cfg;
    assert_int_equal(mf_tracks_create(&b.data, &cfg, NULL, &t), MF_ERR_ARGUMENT);
    assert_null(t);
    /* a copy of the view is the same build: accepted, as a draw list accepts it */
    mf_skel_data copy = a.data;
    assert_int_equal(mf_tracks_create(&copy, &cfg, NULL, &t), MF_OK);
    mf_tracks_destroy(t);
    mf_tracks_shared_destroy(sh);
    /* tables built from a temporary view keep their own copy of it */
    mf_skel_data temp = a.data;
    assert_int_equal(mf_tracks_shared_create(&temp, NULL, &sh), MF_OK);
    memset(&temp, 0xab, sizeof temp);
    cfg.shared = sh;
    assert_int_equal(mf_tracks_create(&a.data, &cfg, NULL, &t), MF_OK);
    mf_tracks_destroy(t);
    assert_int_equal(mf_tracks_create(&b.data, &cfg, NULL, &t), MF_ERR_ARGUMENT);
    mf_tracks_shared_destroy(sh);
    mf_tracks_shared_destroy(NULL);
    test_rig_free(&a);
    test_rig_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(shared_tables_play_the_same),
        cmocka_unit_test(tables_of_other_data_are_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
