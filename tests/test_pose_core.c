/* The runtime pose: setup pose, inherit modes, sampling, events, skins, allocation-free
 * updates — on small rigs built in the test. */
#include <math.h>
#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif
#include <stdio.h>

#include "testutil.h"
#include "pose_rig.h"
#include "mf/mf_geometry.h"
#include "mf/mf_pose.h"
#include "../src/runtime/pose/pose_events.h"

#define NEAR(a, b) assert_true(fabs((double)(a) - (double)(b)) < 1e-3)

static const char *INHERIT_RIG = RIG_HEAD
    "\"bones\":["
    "{\"name\":\"root\"},"
    "{\"name\":\"parent\",\"parent\":\"root\",\"rot\":30,\"sx\":2,\"sy\":1},"
    "{\"name\":\"normal\",\"parent\":\"parent\",\"x\":10,\"rot\":20},"
    "{\"name\":\"only\",\"parent\":\"parent\",\"x\":10,\"rot\":20,\"inherit\":\"OnlyTranslation\"},"
    "{\"name\":\"norot\",\"parent\":\"parent\",\"x\":10,\"rot\":20,\"inherit\":\"NoRotationOrReflection\"},"
    "{\"name\":\"noscale\",\"parent\":\"parent\",\"x\":10,\"rot\":20,\"inherit\":\"NoScale\"},"
    "{\"name\":\"noscalerefl\",\"parent\":\"parent\",\"x\":10,\"rot\":20,\"inherit\":\"NoScaleOrReflection\"}"
    "]}";

static double mf_wrap_test_deg(double r) { return r - ceil(r / 360 - 0.5) * 360; }

static double angle(const mf_pose *p, int32_t b) { return atan2(p->c[b], p->a[b]) * 180 / M_PI; }
static double col_len(float x, float y) { return sqrt((double)x * x + (double)y * y); }

static void test_setup_and_inherit(void **state)
{
    (void)state;
    test_rig r;
    test_rig_build(&r, INHERIT_RIG, NULL, NULL, 0);
    mf_pose *p = NULL;
    assert_int_equal(mf_pose_create(&r.data, NULL, &p, NULL), MF_OK);
    mf_pose_update_world(p);
    /* parent: R(30)·diag(2, 1) */
    NEAR(p->a[1], 2 * cos(30 * M_PI / 180));
    NEAR(p->c[1], 2 * sin(30 * M_PI / 180));
    /* every child sits at the parent's image of (10, 0) */
    for (int b = 2; b <= 6; b++) {
        NEAR(p->wx[b], p->a[1] * 10);
        NEAR(p->wy[b], p->c[1] * 10);
    }
    /* normal: the product */
    double la = cos(20 * M_PI / 180), lc = sin(20 * M_PI / 180);
    NEAR(p->a[2], p->a[1] * la + p->b[1] * lc);
    /* only translation: the local rotation alone */
    NEAR(angle(p, 3), 20);
    NEAR(col_len(p->a[3], p->c[3]), 1);
    /* no scale: unit axes, direction through the parent */
    NEAR(col_len(p->a[5], p->c[5]), 1);
    NEAR(col_len(p->b[5], p->d[5]), 1);
    double dirx = p->a[1] * la + p->b[1] * lc, diry = p->c[1] * la + p->d[1] * lc;
    NEAR(angle(p, 5), atan2(diry, dirx) * 180 / M_PI);
    NEAR(p->a[6], p->a[5]);
    /* no rotation: the child keeps its own rotation (the parent's scale stays) */
    NEAR(p->wx[4], p->wx[2]);
    assert_true(fabs(angle(p, 4) - angle(p, 2)) > 1);
    /* the world → applied inverse gives the local values back */
    for (int b = 1; b <= 6; b++) {
        float rot = p->arot[b], sx = p->asx[b], sy = p->asy[b];
        mf_pose_update_applied(p, b);
        NEAR(mf_wrap_test_deg(p->arot[b] - rot), 0);
        NEAR(p->asx[b], sx);
        NEAR(p->asy[b], sy);
        NEAR(p->ax[b], 10 * (b > 1));
    }
    mf_pose_destroy(p);
    test_rig_free(&r);
}

static const char *ANIM_RIG = RIG_HEAD
    "\"bones\":[{\"name\":\"root\"},{\"name\":\"arm\",\"parent\":\"root\",\"rot\":10,\"length\":50}],"
    "\"slots\":[{\"name\":\"s\",\"bone\":\"arm\",\"attachment\":\"a\"}],"
    "\"events\":[{\"name\":\"step\",\"int\":3}],"
    "\"skins\":[{\"name\":\"default\",\"attachments\":["
    "{\"slot\":\"s\",\"name\":\"a\",\"type\":\"Region\",\"width\":10,\"height\":10},"
    "{\"slot\":\"s\",\"name\":\"b\",\"type\":\"Region\",\"width\":20,\"height\":20}]}]}";
static const char *SWING = CLIP_HEAD "\"length\":1,"
    "\"bones\":{\"arm\":{\"rotate\":{\"t\":[0,1],\"v\":[0,90]},\"scale\":{\"t\":[0],\"v\":[[2,3]]}}},"
    "\"slots\":{\"s\":{\"attachment\":{\"t\":[0.5],\"v\":[\"b\"]},\"rgba\":{\"t\":[0,1],\"v\":[\"#ffffffff\",\"#00000000\"]}}},"
    "\"events\":{\"t\":[0,0.5],\"v\":[{\"name\":\"step\"},{\"name\":\"step\",\"int\":7}]}}";

static void test_sampling(void **state)
{
    (void)state;
    test_rig r;
    const char *names[] = {"swing"}, *clips[] = {SWING};
    test_rig_build(&r, ANIM_RIG, names, clips, 1);
    mf_pose *p = NULL;
    assert_int_equal(mf_pose_create(&r.data, NULL, &p, NULL), MF_OK);
    int32_t clip = mf_skel_data_find_clip(&r.data, "swing");
    assert_true(clip >= 0);
    mf_clip_sample s = {.clip = clip, .time = 0.25, .prev_time = -1, .weight = 1, .loop = true};
    mf_pose_reset(p);
    assert_int_equal(mf_pose_sample(p, &s), MF_OK);
    NEAR(p->rot[1], 10 + 22.5); /* relative to setup */
    NEAR(p->sx[1], 2);          /* scale multiplies the setup scale (1) */
    NEAR(p->color[3], 0.75);
    assert_int_equal(p->attachment[0], mf_skel_data_skin_attachment(&r.data, 0, 0, r.data.attachments[0].name));
    /* forward then a seek back: the cursor must not change the answer */
    s.time = 0.75;
    mf_pose_reset(p);
    mf_pose_sample(p, &s);
    NEAR(p->rot[1], 10 + 67.5);
    const char *an = mf_skel_data_string(&r.data, r.data.attachments[p->attachment[0]].name);
    assert_string_equal(an, "b"); /* the discrete key at 0.5 */
    s.time = 0.25;
    mf_pose_reset(p);
    mf_pose_sample(p, &s);
    NEAR(p->rot[1], 10 + 22.5);
    /* loop wrap */
    s.time = 1.25;
    mf_pose_reset(p);
    mf_pose_sample(p, &s);
    NEAR(p->rot[1], 10 + 22.5);
    /* Replace by half weight lerps from the setup pose; Additive adds the change */
    mf_pose_reset(p);
    s.weight = 0.5;
    s.time = 0.5;
    mf_pose_sample(p, &s);
    NEAR(p->rot[1], 10 + 22.5);
    assert_string_equal(mf_skel_data_string(&r.data, r.data.attachments[p->attachment[0]].name), "b");
    mf_pose_reset(p);
    s.blend = MF_CLIP_ADDITIVE;
    p->rot[1] = 100;
    mf_pose_sample(p, &s);
    NEAR(p->rot[1], 100 + 22.5);
    /* a weight below the discrete threshold leaves the attachment */
    mf_pose_reset(p);
    s.blend = MF_CLIP_REPLACE;
    s.weight = 0.4;
    mf_pose_sample(p, &s);
    assert_string_equal(mf_skel_data_string(&r.data, r.data.attachments[p->attachment[0]].name), "a");
    /* a bone mask keeps the bone out */
    uint8_t mask[2] = {1, 0};
    mf_pose_reset(p);
    s.weight = 1;
    s.bone_mask = mask;
    mf_pose_sample(p, &s);
    NEAR(p->rot[1], 10);
    /* bad input */
    s.clip = 99;
    assert_int_equal(mf_pose_sample(p, &s), MF_ERR_ARGUMENT);
    mf_pose_destroy(p);
    test_rig_free(&r);
}

static void test_events(void **state)
{
    (void)state;
    test_rig r;
    const char *names[] = {"swing"}, *clips[] = {SWING};
    test_rig_build(&r, ANIM_RIG, names, clips, 1);
    mf_pose *p = NULL;
    assert_int_equal(mf_pose_create(&r.data, NULL, &p, NULL), MF_OK);
    mf_fired_event ev[4];
    int32_t n = 0, dropped = 0;
    assert_int_equal(mf_pose_events(p, 0, -1, 0, true, ev, 4, &n, &dropped), MF_OK);
    assert_int_equal(n, 1); /* a key at 0 fires on the first frame */
    assert_int_equal(ev[0].int_value, 3);
    mf_pose_events(p, 0, 0, 0.5, true, ev, 4, &n, NULL);
    assert_int_equal(n, 1);
    assert_int_equal(ev[0].int_value, 7);
    NEAR(ev[0].time, 0.5);
    mf_pose_events(p, 0, 0.5, 0.9, true, ev, 4, &n, NULL);
    assert_int_equal(n, 0); /* (prev, time]: 0.5 is not fired again */
    mf_pose_events(p, 0, 0.9, 1.6, true, ev, 4, &n, NULL);
    assert_int_equal(n, 2); /* the wrap fires 0 and 0.5 of the next lap */
    mf_pose_events(p, 0, 0.9, 3.6, true, ev, 1, &n, &dropped);
    assert_int_equal(n, 1);
    assert_true(dropped >= 4);
    mf_pose_events(p, 0, 0.9, 1.6, false, ev, 4, &n, NULL);
    assert_int_equal(n, 0); /* not looping: nothing after the end */
    mf_pose_destroy(p);
    test_rig_free(&r);
}

/* The tracks' quick question (mf_pose_events_any) answers as the firing does: some key fires in
 * (prev, time] exactly when mf_pose_events_of without loop fires one, for windows at, between
 * and a float step around the keys, from before the first to past the last. */
static void test_events_any(void **state)
{
    (void)state;
    test_rig r;
    const char *names[] = {"swing"}, *clips[] = {SWING};
    test_rig_build(&r, ANIM_RIG, names, clips, 1);
    const mf_sd_clip *c = &r.data.clips[0];
    int32_t tls[8], ntl = 0;
    for (int32_t j = 0; j < c->timeline_count && ntl < 8; j++)
        if (r.data.timelines[c->timeline_first + j].kind == MF_SD_TL_EVENT) tls[ntl++] = c->timeline_first + j;
    assert_true(ntl > 0);
    double at[64];
    int na = 0;
    at[na++] = -1, at[na++] = -0.5, at[na++] = 2.5;
    for (int32_t j = 0; j < ntl; j++) {
        const mf_sd_timeline *tl = &r.data.timelines[tls[j]];
        for (int32_t k = 0; k < tl->key_count && na + 4 <= 64; k++) {
            float kt = r.data.times[tl->key_first + k];
            at[na++] = kt, at[na++] = nextafterf(kt, -INFINITY), at[na++] = nextafterf(kt, INFINITY);
            at[na++] = kt + 0.125;
        }
    }
    mf_fired_event ev[16];
    int fired = 0;
    for (int a = 0; a < na; a++) {
        for (int b = 0; b < na; b++) {
            int32_t n = 0;
            assert_int_equal(mf_pose_events_of(&r.data, 0, tls, ntl, at[a], at[b], false, ev, 16, &n, NULL), MF_OK);
            assert_int_equal(mf_pose_events_any(&r.data, tls, ntl, at[a], at[b]), n > 0);
            /* the tracks' cursor: the same answer from any window start in [lo, next) */
            double lo = at[a] < 0 ? -1.0 : at[a], nx = mf_pose_events_next(&r.data, tls, ntl, lo);
            for (int a2 = 0; a2 < na; a2++) {
                double lo2 = at[a2] < 0 ? -1.0 : at[a2];
                if (lo2 >= lo && lo2 < nx)
                    assert_int_equal(nx <= at[b], mf_pose_events_any(&r.data, tls, ntl, lo2, at[b]));
            }
            fired += n > 0;
        }
    }
    assert_true(fired > 0 && fired < na * na);
    test_rig_free(&r);
}

/* Counts allocations so a test can prove the per-frame path allocates nothing. */
static int alloc_count;
static void *count_alloc(void *user, size_t size)
{
    (void)user;
    alloc_count++;
    return malloc(size);
}
static void count_free(void *user, void *ptr)
{
    (void)user;
    free(ptr);
}

static void test_no_allocation_per_frame(void **state)
{
    (void)state;
    test_rig r;
    const char *names[] = {"swing"}, *clips[] = {SWING};
    test_rig_build(&r, ANIM_RIG, names, clips, 1);
    mf_allocator al = {.alloc = count_alloc, .free = count_free};
    mf_pose *p = NULL;
    mf_skin_cache *cache = NULL;
    mf_draw_list *dl = NULL;
    assert_int_equal(mf_pose_create(&r.data, &al, &p, NULL), MF_OK);
    assert_int_equal(mf_skin_cache_create(&r.data, &al, &cache), MF_OK);
    assert_int_equal(mf_draw_list_create(&r.data, &al, &dl), MF_OK);
    int32_t skins[] = {0};
    assert_int_equal(mf_pose_set_skins(p, cache, skins, 1, NULL), MF_OK);
    int before = alloc_count;
    assert_true(before > 0);
    mf_fired_event ev[8];
    for (int f = 0; f < 1000; f++) {
        double t = f / 60.0;
        mf_pose_reset(p);
        mf_pose_sample(p, &(mf_clip_sample){.clip = 0, .time = t, .prev_time = t - 1 / 60.0, .weight = 1, .loop = true});
        int32_t n;
        mf_pose_events(p, 0, t - 1 / 60.0, t, true, ev, 8, &n, NULL);
        mf_pose_update_world(p);
        mf_draw_list_build(dl, p);
        float b[4];
        assert_true(mf_pose_bounds(p, b));
        /* the same skin list again: cached, no allocation */
        mf_pose_set_skins(p, cache, skins, 1, NULL);
    }
    assert_int_equal(alloc_count, before);
    assert_int_equal(dl->item_count, 1);
    assert_int_equal(dl->items[0].vertex_count, 4);
    mf_draw_list_destroy(dl);
    mf_skin_cache_destroy(cache);
    mf_pose_destroy(p);
    test_rig_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_setup_and_inherit),
        cmocka_unit_test(test_sampling),
        cmocka_unit_test(test_events),
        cmocka_unit_test(test_events_any),
        cmocka_unit_test(test_no_allocation_per_frame),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
