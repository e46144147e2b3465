/* Physics constraints on small rigs built in the test: a bone hanging from the root (pointing
 * down, Y-down coordinates) under one physics constraint. Checks the fixed step and its
 * 4-step cap, reset keys and the reset call, teleports, instance movement, the three modes,
 * per-constraint, global and animated mixes, the direction of gravity and wind, global
 * timelines and that stepping allocates nothing. Values are worked out from the spring law:
 * per step v += (100·force − strength·offset) / mass · h; offset += v · h; v *= damping. */
#include <math.h>
#include <stdio.h>

#include "testutil.h"
#include "pose_rig.h"
#include "mf/mf_batch.h"
#include "mf/mf_physics.h"
#include "mf/mf_pose.h"

#define NEAR(a, b) assert_true(fabs((double)(a) - (double)(b)) < 1e-3)
/* a step of 1/64 s, exact in binary, so that the summed frame times never round a step into
 * the next frame and each test knows how many steps ran */
#define H (1.0f / 64.0f)

/* root, "hang" (below the root, pointing down, 50 long) and its constraint with extra keys */
#define PH_RIG(ph) RIG_HEAD "\"bones\":[{\"name\":\"root\"}," \
    "{\"name\":\"hang\",\"parent\":\"root\",\"rot\":90,\"length\":50}]," \
    "\"physics\":[{\"name\":\"ph\",\"bone\":\"hang\",\"step\":0.015625,\"strength\":100,\"mass\":1" ph "}]}"
/* inertia 1 and damping 1 unless a test gives its own */
#define PH(ph) PH_RIG(",\"inertia\":1,\"damping\":1" ph)
#define CLIP(body) CLIP_HEAD "\"length\":1," body "}"

typedef struct sim {
    test_rig rig;
    mf_pose *p;
} sim;

static void sim_open(sim *s, const char *mskel, const char *clip)
{
    const char *names[] = {"c"}, *clips[] = {clip};
    test_rig_build(&s->rig, mskel, names, clips, clip ? 1 : 0);
    assert_int_equal(mf_pose_create(&s->rig.data, NULL, &s->p, NULL), MF_OK);
    mf_pose_update_world(s->p); /* the first update puts every spring at rest */
}

static void sim_close(sim *s)
{
    mf_pose_destroy(s->p);
    test_rig_free(&s->rig);
}

/* One frame: setup pose, the root moved to (rx, 0), physics stepped by dt. */
static void frame(sim *s, float rx, float dt)
{
    mf_pose_reset(s->p);
    s->p->x[0] = rx;
    mf_pose_physics_step(s->p, dt);
    mf_pose_update_world(s->p);
}

static float hx(const sim *s) { return s->p->wx[1]; }
static float hy(const sim *s) { return s->p->wy[1]; }

/* the offset after n steps of H from rest under a constant acceleration a (strength 100,
 * mass 1, damping d: the fraction of velocity kept per 1/60 s): the law above, in double */
static double fall(int n, double a, double d)
{
    double o = 0, v = 0, h = 1.0 / 64.0;
    for (int i = 0; i < n; i++) {
        v += (a - 100 * o) * h;
        o += v * h;
        v *= pow(d, 60.0 * h);
    }
    return o;
}

static void test_fixed_step(void **state)
{
    (void)state;
    sim s;
    sim_open(&s, PH(",\"y\":1,\"gravity\":10"), NULL);
    frame(&s, 0, H / 2); /* half a step: nothing yet */
    NEAR(hy(&s), 0);
    frame(&s, 0, H / 2); /* the other half completes one step */
    NEAR(hy(&s), fall(1, 1000, 1));
    frame(&s, 0, 2 * H);
    NEAR(hy(&s), fall(3, 1000, 1));
    NEAR(hx(&s), 0); /* x is not enabled */
    sim_close(&s);
}

static void test_step_cap(void **state)
{
    (void)state;
    sim s;
    sim_open(&s, PH(",\"y\":1,\"gravity\":10"), NULL);
    frame(&s, 0, 1.0f); /* 64 steps worth: 4 run, the rest is dropped */
    NEAR(hy(&s), fall(4, 1000, 1));
    frame(&s, 0, 0);
    NEAR(hy(&s), fall(4, 1000, 1)); /* nothing was carried over */
    frame(&s, 0, H);
    NEAR(hy(&s), fall(5, 1000, 1));
    sim_close(&s);
}

static void test_damping(void **state)
{
    (void)state;
    sim s;
    sim_open(&s, PH_RIG(",\"inertia\":1,\"y\":1,\"gravity\":10,\"damping\":0.5"), NULL);
    for (int i = 0; i < 6; i++) frame(&s, 0, H);
    NEAR(hy(&s), fall(6, 1000, 0.5));
    sim_close(&s);
}

static void test_gravity_and_wind_direction(void **state)
{
    (void)state;
    sim s;
    sim_open(&s, PH(",\"x\":1,\"y\":1,\"gravity\":10,\"wind\":5"), NULL);
    for (int i = 0; i < 3; i++) frame(&s, 0, H);
    assert_true(hy(&s) > 0.5f); /* positive gravity pulls down (+y) */
    assert_true(hx(&s) > 0.25f); /* positive wind blows right (+x) */
    NEAR(hy(&s), fall(3, 1000, 1));
    NEAR(hx(&s), fall(3, 500, 1));
    sim_close(&s);
    /* skeleton-wide gravity and wind add to the constraint's own */
    sim_open(&s, PH(",\"x\":1,\"y\":1"), NULL);
    mf_pose_physics_set_globals(s.p, -10, -5);
    for (int i = 0; i < 3; i++) frame(&s, 0, H);
    NEAR(hy(&s), -fall(3, 1000, 1)); /* negative: up */
    NEAR(hx(&s), -fall(3, 500, 1));
    sim_close(&s);
}

static void test_inertia_and_move(void **state)
{
    (void)state;
    sim s;
    sim_open(&s, PH_RIG(",\"damping\":1,\"x\":1,\"y\":1,\"inertia\":0.5"), NULL);
    frame(&s, 10, 0); /* the bone moved 10 right: half of it is left behind */
    NEAR(hx(&s), 5);
    sim_close(&s);
    /* the instance moving in the world drags the same way (inertia 1: stays put) */
    sim_open(&s, PH(",\"x\":1,\"y\":1"), NULL);
    mf_pose_physics_move(s.p, 0, 8);
    frame(&s, 0, 0);
    NEAR(hx(&s), 0);
    NEAR(hy(&s), -8);
    frame(&s, 0, H); /* the spring pulls it back */
    assert_true(hy(&s) > -8 && hy(&s) < 0);
    sim_close(&s);
}

static void test_speed_limit(void **state)
{
    (void)state;
    /* the translation channel's lag (movement × inertia) is capped at limit × step: 60 px/s
     * over 1/64 s is 0.94 px, then one spring step */
    sim s;
    sim_open(&s, PH(",\"x\":1,\"limit\":60"), NULL);
    frame(&s, 10, H);
    double o = -60.0 / 64.0, v = -100 * o / 64.0;
    o += v / 64.0;
    NEAR(hx(&s), 10 + o);
    sim_close(&s);
    /* a rotate constraint feels the movement capped per axis at limit × step: 60 px/s over
     * 1/64 s is 0.94 px, so a 10 px jerk turns it as little as a 0.94 px one does */
    float tip[3];
    const float jerk[3] = {10, 60.0f / 64.0f, 10};
    for (int i = 0; i < 3; i++) {
        sim_open(&s, i < 2 ? PH(",\"rotate\":1,\"limit\":60") : PH(",\"rotate\":1,\"limit\":100000"), NULL);
        frame(&s, jerk[i], H);
        tip[i] = s.p->a[1] * 50 + hx(&s) - jerk[i]; /* the tip's swing relative to the origin */
        sim_close(&s);
    }
    NEAR(tip[0], tip[1]);
    assert_true(fabs((double)tip[2]) > fabs((double)tip[0]) + 1);
}

/* With a translation channel, the turn feels the origin's movement as shown (the animated
 * movement plus the translation offset's change), capped per axis as a whole: limit 640 px/s
 * over 1/64 s is 10 px; a 30 px jerk lags 10 px (inertia 1), so the origin shows 20 px of
 * movement, capped to 10: last frame's tip (0, 50) is seen from (10, 0). Capping the animated
 * movement alone (10 - 10) would leave the bone unturned. */
static void test_speed_limit_shown_origin(void **state)
{
    (void)state;
    sim s;
    sim_open(&s, PH(",\"x\":1,\"rotate\":1,\"limit\":640"), NULL);
    frame(&s, 30, H / 2); /* time passed (the cap applies), no step yet */
    NEAR(hx(&s), 20);
    NEAR(atan2(s.p->c[1], s.p->a[1]), atan2(50.0, -10.0));
    sim_close(&s);
}

/* After turning a bone, its applied y scale is the y axis' part across the x axis (det /
 * scaleX), not the axis' length, as the reference runtime keeps it: under a squashed parent
 * the turned bone is sheared, and re-posing it from its applied values shortens its y axis
 * by cos(shearY). */
static void test_applied_scale_after_turn(void **state)
{
    (void)state;
    sim s;
    sim_open(&s, PH(",\"rotate\":1"), NULL);
    mf_pose_reset(s.p);
    s.p->sy[0] = 0.5f, s.p->x[0] = 20;
    mf_pose_physics_step(s.p, H);
    mf_pose_update_world(s.p);
    const mf_pose *p = s.p;
    double pdet = (double)p->a[0] * p->d[0] - (double)p->b[0] * p->c[0];
    double det = ((double)p->a[1] * p->d[1] - (double)p->b[1] * p->c[1]) / pdet;
    assert_true(fabs((double)p->ashy[1]) > 1); /* turned under the squash: sheared */
    NEAR(p->asy[1], det / p->asx[1]);
    double ylen = hypot(p->b[1], p->d[1]), shy = p->ashy[1] * 3.14159265358979 / 180;
    mf_pose_update_bone(s.p, 1);
    NEAR(hypot(p->b[1], p->d[1]), ylen * cos(shy));
    sim_close(&s);
}

static void test_teleport(void **state)
{
    (void)state;
    sim s;
    sim_open(&s, PH(",\"x\":1,\"y\":1"), NULL);
    /* the default never resets: a 1500 px jump lags only the default limit, 5000 px/s × step */
    frame(&s, 1500, H);
    double o = -5000.0 / 64.0, v = -100 * o / 64.0;
    o += v / 64.0;
    NEAR(hx(&s), 1500 + o);
    sim_close(&s);
    sim_open(&s, PH(",\"x\":1,\"y\":1"), NULL);
    mf_pose_physics_set_teleport(s.p, 1000);
    frame(&s, 900, 0); /* under 1000 px: a lag */
    NEAR(hx(&s), 0);
    frame(&s, 900 + 1500, 0); /* a jump of 1500: reset where the bone is now */
    NEAR(hx(&s), 2400);
    NEAR(hy(&s), 0);
    mf_pose_physics_set_teleport(s.p, 100);
    frame(&s, 2400 + 150, 0);
    NEAR(hx(&s), 2550);
    mf_pose_physics_set_teleport(s.p, 0); /* never */
    frame(&s, 2550 + 5000, 0);
    NEAR(hx(&s), 2550);
    sim_close(&s);
}

static void test_reset_call(void **state)
{
    (void)state;
    sim s;
    sim_open(&s, PH(",\"y\":1,\"gravity\":10"), NULL);
    for (int i = 0; i < 5; i++) frame(&s, 0, H);
    assert_true(hy(&s) > 1);
    mf_pose_physics_reset(s.p);
    frame(&s, 0, 0);
    NEAR(hy(&s), 0);
    frame(&s, 0, H); /* and starts from rest: velocity was cleared too */
    NEAR(hy(&s), fall(1, 1000, 1));
    sim_close(&s);
}

static void sample(sim *s, double prev, double t, float dt)
{
    mf_pose_reset(s->p);
    mf_pose_sample(s->p, &(mf_clip_sample){.clip = 0, .time = t, .prev_time = prev, .weight = 1, .loop = true});
    mf_pose_physics_step(s->p, dt);
    mf_pose_update_world(s->p);
}

static void test_reset_key(void **state)
{
    (void)state;
    sim s;
    sim_open(&s, PH(",\"y\":1,\"gravity\":10"), CLIP("\"physics\":{\"ph\":{\"reset\":{\"t\":[0.5]}}}"));
    sample(&s, -1, 0, 0);
    for (int i = 1; i <= 5; i++) sample(&s, 0.1 * (i - 1), 0.1 * i - 0.01, H);
    assert_true(hy(&s) > 1); /* the key at 0.5 not reached: (0.39, 0.49] */
    sample(&s, 0.49, 0.51, H); /* crossed: at rest on this frame, nothing stepped */
    NEAR(hy(&s), 0);
    sample(&s, 0.51, 0.51, 0); /* the crossing frame's time steps now */
    NEAR(hy(&s), fall(1, 1000, 1));
    for (int i = 0; i < 3; i++) sample(&s, 0.51, 0.52, H);
    double before = hy(&s);
    assert_true(before > 0.5);
    sample(&s, 0.95, 1.05, 0); /* a loop wrap that does not cross 0.5 */
    NEAR(hy(&s), before);
    sample(&s, 1.45, 1.55, 0); /* the second loop crosses it again */
    NEAR(hy(&s), 0);
    sim_close(&s);
    /* a global reset key ("" target) reaches every constraint */
    sim_open(&s, PH(",\"y\":1,\"gravity\":10"), CLIP("\"physics\":{\"\":{\"reset\":{\"t\":[0.2]}}}"));
    for (int i = 0; i < 3; i++) sample(&s, 0, 0.1, H);
    assert_true(hy(&s) > 0.5);
    sample(&s, 0.1, 0.25, 0);
    NEAR(hy(&s), 0);
    sim_close(&s);
}

/* A key's time is the stored float, compared with the double track time as it is: 1/60 s
 * summed 36 times (0.6000000000000002) stays below a key at 0.6 (0.6f = 0.60000002), so the
 * key fires on the next frame, as in the reference runtime. */
static void test_reset_key_float_time(void **state)
{
    (void)state;
    sim s;
    sim_open(&s, PH(",\"y\":1,\"gravity\":10"), CLIP("\"physics\":{\"ph\":{\"reset\":{\"t\":[0.6]}}}"));
    double t = 0;
    for (int i = 1; i <= 36; i++) t += 1.0 / 60.0;
    assert_true(t > 0.6 && t < (double)0.6f);
    for (int i = 0; i < 4; i++) sample(&s, 0.5, 0.55, H);
    double before = hy(&s);
    assert_true(before > 0.5);
    sample(&s, t - 1.0 / 60.0, t, 0); /* past the decimal 0.6, not past the key */
    NEAR(hy(&s), before);
    sample(&s, t, t + 1.0 / 60.0, 0);
    NEAR(hy(&s), 0);
    sim_close(&s);
}

static void test_modes(void **state)
{
    (void)state;
    sim s;
    sim_open(&s, PH(",\"y\":1,\"gravity\":10"), NULL);
    assert_int_equal(mf_pose_physics_mode(s.p), MF_PHYSICS_UPDATE);
    for (int i = 0; i < 3; i++) frame(&s, 0, H);
    double held = hy(&s);
    mf_pose_physics_set_mode(s.p, MF_PHYSICS_POSE); /* applied, not stepped */
    for (int i = 0; i < 3; i++) frame(&s, 0, H);
    NEAR(hy(&s), held);
    mf_pose_physics_set_mode(s.p, MF_PHYSICS_NONE); /* the bone as posed */
    frame(&s, 0, H);
    NEAR(hy(&s), 0);
    frame(&s, 40, H); /* moving while off is no lag when it comes back */
    mf_pose_physics_set_mode(s.p, MF_PHYSICS_UPDATE);
    frame(&s, 40, 0);
    NEAR(hx(&s), 40);
    NEAR(hy(&s), held); /* the state was kept */
    frame(&s, 40, H);
    NEAR(hy(&s), fall(4, 1000, 1));
    mf_pose_physics_set_mode(s.p, (mf_physics_mode)7); /* ignored */
    assert_int_equal(mf_pose_physics_mode(s.p), MF_PHYSICS_UPDATE);
    sim_close(&s);
}

static void test_mixes(void **state)
{
    (void)state;
    sim s;
    sim_open(&s, PH(",\"y\":1,\"mix\":0.5"), NULL);
    mf_pose_physics_move(s.p, 0, 8);
    frame(&s, 0, 0);
    NEAR(hy(&s), -4); /* the constraint's mix */
    mf_pose_physics_set_mix(s.p, 0.5f);
    frame(&s, 0, 0);
    NEAR(hy(&s), -2); /* times the skeleton-wide mix */
    mf_pose_physics_set_mix(s.p, 0);
    frame(&s, 0, 0);
    NEAR(hy(&s), 0);
    sim_close(&s);
    /* an animated mix: keyed 0 then 1 over the clip */
    sim_open(&s, PH(",\"y\":1"), CLIP("\"physics\":{\"ph\":{\"mix\":{\"t\":[0,1],\"v\":[0,1]}}}"));
    mf_pose_physics_move(s.p, 0, 8);
    sample(&s, -1, 0, 0);
    NEAR(hy(&s), 0);
    NEAR(mf_pose_physics_values(s.p, 0)[MF_PHYS_V_MIX], 0);
    sample(&s, 0, 0.25, 0);
    NEAR(hy(&s), -2);
    assert_null(mf_pose_physics_values(s.p, 1));
    sim_close(&s);
}

static void test_global_timelines(void **state)
{
    (void)state;
    /* a "" wind key reaches a constraint only when its windGlobal is set */
    const char *clip = CLIP("\"physics\":{\"\":{\"wind\":{\"t\":[0],\"v\":[10]}}}");
    sim s;
    sim_open(&s, PH(",\"x\":1,\"windGlobal\":true"), clip);
    for (int i = 0; i < 3; i++) sample(&s, 0, 0.1, H);
    NEAR(hx(&s), fall(3, 1000, 1));
    sim_close(&s);
    sim_open(&s, PH(",\"x\":1"), clip);
    for (int i = 0; i < 3; i++) sample(&s, 0, 0.1, H);
    NEAR(hx(&s), 0);
    NEAR(mf_pose_physics_values(s.p, 0)[MF_PHYS_V_WIND], 0);
    sim_close(&s);
}

static void test_rotation_follows(void **state)
{
    (void)state;
    /* rotate only: a sideways jerk turns the bone, the root translation itself stays */
    sim s;
    sim_open(&s, PH_RIG(",\"damping\":0.85,\"rotate\":1,\"inertia\":0.5"), NULL);
    frame(&s, 20, 0);
    NEAR(hx(&s), 20);
    double r = atan2(s.p->c[1], s.p->a[1]) * 180 / 3.14159265358979;
    assert_true(r > 90.5); /* moving right leaves the tip behind (left): the bone turns clockwise */
    for (int i = 0; i < 600; i++) frame(&s, 20, H);
    r = atan2(s.p->c[1], s.p->a[1]) * 180 / 3.14159265358979;
    assert_true(fabs(r - 90) < 0.01); /* settles back */
    sim_close(&s);
}

static int allocs;
static void *count_alloc(void *user, size_t n)
{
    (void)user;
    allocs++;
    return malloc(n);
}
static void count_free(void *user, void *p)
{
    (void)user;
    free(p);
}

static void test_no_allocation_per_frame(void **state)
{
    (void)state;
    test_rig rig;
    const char *names[] = {"c"}, *clips[] = {CLIP("\"physics\":{\"\":{\"reset\":{\"t\":[0.5]}}}")};
    test_rig_build(&rig, PH(",\"x\":1,\"y\":1,\"rotate\":1,\"scaleX\":1,\"shearX\":1,\"gravity\":3"), names, clips, 1);
    mf_allocator al = {.alloc = count_alloc, .free = count_free};
    mf_pose *p = NULL;
    assert_int_equal(mf_pose_create(&rig.data, &al, &p, NULL), MF_OK);
    int after_create = allocs;
    for (int i = 0; i < 200; i++) {
        mf_pose_reset(p);
        mf_pose_sample(p, &(mf_clip_sample){.clip = 0, .time = i * H, .prev_time = (i - 1) * H, .weight = 1, .loop = true});
        mf_pose_physics_move(p, 1, 0);
        mf_pose_physics_step(p, H);
        mf_pose_update_world(p);
    }
    mf_pose_physics_reset(p);
    assert_int_equal(allocs, after_create);
    mf_pose_destroy(p);
    test_rig_free(&rig);
}

static void test_bad_arguments(void **state)
{
    (void)state;
    mf_pose_physics_step(NULL, 1);
    mf_pose_physics_reset(NULL);
    mf_pose_physics_move(NULL, 1, 1);
    mf_pose_physics_set_mode(NULL, MF_PHYSICS_NONE);
    assert_null(mf_pose_physics_values(NULL, 0));
    sim s;
    sim_open(&s, PH(",\"y\":1,\"gravity\":10"), NULL);
    mf_pose_physics_step(s.p, NAN);
    mf_pose_physics_step(s.p, -1);
    mf_pose_physics_reset_one(s.p, 5);
    frame(&s, 0, 0);
    NEAR(hy(&s), 0);
    sim_close(&s);
}

#define PI_2 1.5707963267948966
/* the shown angle of "hang" in radians (pi/2 at rest: pointing down) */
static double hang_angle(const sim *s) { return atan2((double)s->p->c[1], (double)s->p->a[1]); }

static void test_rotation_lag(void **state)
{
    (void)state;
    /* the root jumps 80 px: the bone keeps half (inertia 0.5) of the turn towards where its
     * tip was, atan(80 / 50), not a tip offset of 40 px (atan(40 / 50)) */
    sim s;
    sim_open(&s, PH_RIG(",\"inertia\":0.5,\"damping\":1,\"rotate\":1"), NULL);
    frame(&s, 80, 0); /* no time: the lag alone */
    NEAR(hang_angle(&s), PI_2 + 0.5 * atan2(80.0, 50.0));
    /* a translation channel lags the origin too (x 0.5 of a 40 px lag: shown at 60), and the
     * bone turns towards the old tip from the origin as shown */
    sim t;
    sim_open(&t, PH_RIG(",\"inertia\":0.5,\"damping\":1,\"rotate\":1,\"x\":0.5"), NULL);
    frame(&t, 80, 0);
    NEAR(t.p->wx[1], 60);
    NEAR(hang_angle(&t), PI_2 + 0.5 * atan2(60.0, 50.0));
    sim_close(&t);
    sim_close(&s);
}

static void test_wind_torque(void **state)
{
    (void)state;
    /* wind 40 across a 50 px bone is a torque of 40 · 50 / 100 = 20 rad/s² against a spring of
     * 100 rad/s² per radian: it rests where 100·r = 20·cos(r), turned towards +x (angle down) */
    sim s;
    sim_open(&s, PH_RIG(",\"inertia\":0.5,\"damping\":0.5,\"rotate\":1,\"wind\":40"), NULL);
    for (int i = 0; i < 400; i++) frame(&s, 0, H);
    double r = 0;
    for (int i = 0; i < 50; i++) r = 0.2 * cos(r);
    NEAR(hang_angle(&s), PI_2 - r);
    sim_close(&s);
}

static void test_scale_lag(void **state)
{
    (void)state;
    /* the root moves 20 px up, against the bone (which points down): its tip is left behind
     * and the bone stretches by the fraction inertia of the movement over its length */
    sim s;
    sim_open(&s, PH_RIG(",\"inertia\":0.5,\"damping\":1,\"scaleX\":1"), NULL);
    mf_pose_reset(s.p);
    s.p->y[0] = -20; /* no time passes: the lag alone */
    mf_pose_update_world(s.p);
    NEAR(hypot((double)s.p->a[1], (double)s.p->c[1]), 1 + 0.5 * 20 / 50.0);
    sim_close(&s);
}

/* mf_batch_update gives each item the frame's time for its springs, as a hand-written frame
 * does: the same lag, frame by frame, while the root swings. */
static void test_batch_steps_springs(void **state)
{
    (void)state;
    sim a, b;
    sim_open(&a, PH(",\"x\":1,\"y\":1"), NULL);
    sim_open(&b, PH(",\"x\":1,\"y\":1"), NULL);
    mf_batch_item item = {.pose = b.p};
    bool lagged = false;
    for (int f = 0; f < 20; f++) {
        float rx = 30.0f * sinf(0.4f * (float)f);
        frame(&a, rx, H);
        mf_pose_reset(b.p);
        b.p->x[0] = rx;
        mf_batch_update(&item, 1, H, NULL, NULL);
        assert_true(hx(&a) == hx(&b) && hy(&a) == hy(&b));
        lagged |= fabsf(hx(&b) - rx) > 0.5f; /* the spring really moved */
    }
    assert_true(lagged);
    sim_close(&a);
    sim_close(&b);
}

static void test_reset_keeps_time(void **state)
{
    (void)state;
    /* the frame that resets rests without stepping: its own time steps on the next update,
     * time left over from earlier frames is dropped (the reference's steps then fall on other
     * frames after a reset) */
    sim s;
    sim_open(&s, PH(",\"y\":1,\"gravity\":10"), NULL);
    for (int i = 0; i < 3; i++) frame(&s, 0, H);
    frame(&s, 0, H / 2); /* half a step left over */
    assert_true(hy(&s) > 1);
    mf_pose_physics_reset(s.p);
    frame(&s, 0, H);
    NEAR(hy(&s), 0);
    frame(&s, 0, 0); /* the reset frame's step */
    NEAR(hy(&s), fall(1, 1000, 1));
    frame(&s, 0, H / 2); /* had the half step been kept, this would complete a second */
    NEAR(hy(&s), fall(1, 1000, 1));
    frame(&s, 0, H / 2);
    NEAR(hy(&s), fall(2, 1000, 1));
    sim_close(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fixed_step),          cmocka_unit_test(test_step_cap),
        cmocka_unit_test(test_damping),             cmocka_unit_test(test_gravity_and_wind_direction),
        cmocka_unit_test(test_inertia_and_move),    cmocka_unit_test(test_speed_limit),
        cmocka_unit_test(test_speed_limit_shown_origin), cmocka_unit_test(test_applied_scale_after_turn),
        cmocka_unit_test(test_teleport),
        cmocka_unit_test(test_reset_call),          cmocka_unit_test(test_reset_key),
        cmocka_unit_test(test_reset_key_float_time),
        cmocka_unit_test(test_modes),               cmocka_unit_test(test_mixes),
        cmocka_unit_test(test_global_timelines),    cmocka_unit_test(test_rotation_follows),
        cmocka_unit_test(test_no_allocation_per_frame), cmocka_unit_test(test_bad_arguments),
        cmocka_unit_test(test_rotation_lag),        cmocka_unit_test(test_wind_torque),
        cmocka_unit_test(test_scale_lag),           cmocka_unit_test(test_reset_keeps_time),
        cmocka_unit_test(test_batch_steps_springs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
