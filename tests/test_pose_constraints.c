/* Constraints on small rigs built in the test, each value worked out by hand: IK with one and
 * two bones (bend, softness, compress, stretch, uniform, mix), transform constraints (world and
 * local, absolute and relative, offsets, mixes) and path constraints (position, spacing and
 * rotate modes, mixes) along a straight path where arc length is exact. */
#include <math.h>
#include <stdio.h>

#include "testutil.h"
#include "pose_rig.h"
#include "mf/mf_pose.h"

#define NEAR(a, b) assert_true(fabs((double)(a) - (double)(b)) < 2e-3)
#define DEG (3.14159265358979323846 / 180.0)

typedef struct posed {
    test_rig rig;
    mf_pose *p;
} posed;

static void pose_rig(posed *o, const char *mskel)
{
    test_rig_build(&o->rig, mskel, NULL, NULL, 0);
    assert_int_equal(mf_pose_create(&o->rig.data, NULL, &o->p, NULL), MF_OK);
    mf_pose_update_world(o->p);
}

static void posed_free(posed *o)
{
    mf_pose_destroy(o->p);
    test_rig_free(&o->rig);
}

static double wrot(const posed *o, int32_t b) { return atan2(o->p->c[b], o->p->a[b]) / DEG; }
static double wsx(const posed *o, int32_t b) { return hypot(o->p->a[b], o->p->c[b]); }
/* world position of a bone's tip (its length along its x axis) */
static void tip(const posed *o, int32_t b, double len, double *x, double *y)
{
    *x = o->p->wx[b] + o->p->a[b] * len;
    *y = o->p->wy[b] + o->p->c[b] * len;
}

/* ---------------------------------------------------------------- IK */

#define IK1_RIG(ik) RIG_HEAD "\"bones\":[{\"name\":\"root\"}," \
    "{\"name\":\"arm\",\"parent\":\"root\",\"length\":10}," \
    "{\"name\":\"t\",\"parent\":\"root\",\"x\":0,\"y\":20}]," \
    "\"ik\":[{\"name\":\"k\",\"bones\":[\"arm\"],\"target\":\"t\"" ik "}]}"

static void test_ik_one_bone(void **state)
{
    (void)state;
    posed o;
    pose_rig(&o, IK1_RIG(""));
    /* the target is straight below (Y down): the arm turns to 90° */
    NEAR(wrot(&o, 1), 90);
    NEAR(wsx(&o, 1), 1);
    posed_free(&o);

    pose_rig(&o, IK1_RIG(",\"mix\":0.5"));
    NEAR(wrot(&o, 1), 45); /* half way */
    posed_free(&o);

    pose_rig(&o, IK1_RIG(",\"stretch\":true"));
    NEAR(wrot(&o, 1), 90);
    NEAR(wsx(&o, 1), 2);                            /* length 10 reaches 20 */
    NEAR(hypot(o.p->b[1], o.p->d[1]), 1);           /* y keeps its scale */
    posed_free(&o);

    pose_rig(&o, IK1_RIG(",\"stretch\":true,\"uniform\":true"));
    NEAR(wsx(&o, 1), 2);
    NEAR(hypot(o.p->b[1], o.p->d[1]), 2);
    posed_free(&o);

    pose_rig(&o, IK1_RIG(",\"compress\":true")); /* target beyond the bone: compress does nothing */
    NEAR(wsx(&o, 1), 1);
    posed_free(&o);
}

static void test_ik_one_bone_compress(void **state)
{
    (void)state;
    posed o;
    pose_rig(&o, RIG_HEAD "\"bones\":[{\"name\":\"root\"},{\"name\":\"arm\",\"parent\":\"root\",\"length\":10},"
                 "{\"name\":\"t\",\"parent\":\"root\",\"x\":4}],"
                 "\"ik\":[{\"name\":\"k\",\"bones\":[\"arm\"],\"target\":\"t\",\"compress\":true}]}");
    NEAR(wsx(&o, 1), 0.4);
    NEAR(wrot(&o, 1), 0);
    posed_free(&o);
}

#define IK2_RIG(tx, ty, ik) RIG_HEAD "\"bones\":[{\"name\":\"root\"}," \
    "{\"name\":\"upper\",\"parent\":\"root\",\"length\":10}," \
    "{\"name\":\"lower\",\"parent\":\"upper\",\"x\":10,\"length\":10}," \
    "{\"name\":\"t\",\"parent\":\"root\",\"x\":" tx ",\"y\":" ty "}]," \
    "\"ik\":[{\"name\":\"k\",\"bones\":[\"upper\",\"lower\"],\"target\":\"t\"" ik "}]}"

static void test_ik_two_bones(void **state)
{
    (void)state;
    posed o;
    double x, y;
    /* target (10, 10): |t|² = 200 = l1² + l2², so the elbow is a right angle */
    pose_rig(&o, IK2_RIG("10", "10", ""));
    NEAR(wrot(&o, 1), 0);  /* bend 1: the elbow turns clockwise (positive, Y down) */
    NEAR(wrot(&o, 2), 90);
    tip(&o, 2, 10, &x, &y);
    NEAR(x, 10), NEAR(y, 10);
    posed_free(&o);

    pose_rig(&o, IK2_RIG("10", "10", ",\"bend\":-1"));
    NEAR(wrot(&o, 1), 90); /* the mirror solution */
    NEAR(wrot(&o, 2), 0);
    tip(&o, 2, 10, &x, &y);
    NEAR(x, 10), NEAR(y, 10);
    posed_free(&o);

    /* mix 0.5: each bone half way from its pose (0, 0) to the solution (0, 90 relative) */
    pose_rig(&o, IK2_RIG("10", "10", ",\"bend\":-1,\"mix\":0.5"));
    NEAR(wrot(&o, 1), 45);
    NEAR(o.p->arot[2], -45);
    posed_free(&o);

    /* out of reach: the chain points straight at the target */
    pose_rig(&o, IK2_RIG("0", "30", ""));
    NEAR(wrot(&o, 1), 90);
    NEAR(wrot(&o, 2), 90);
    NEAR(wsx(&o, 1), 1);
    posed_free(&o);

    /* stretch: the parent scales by 30 / 20 and the tip reaches the target */
    pose_rig(&o, IK2_RIG("0", "30", ",\"stretch\":true"));
    NEAR(wsx(&o, 1), 1.5);
    tip(&o, 2, 10, &x, &y);
    NEAR(x, 0), NEAR(y, 30);
    NEAR(hypot(o.p->b[1], o.p->d[1]), 1);
    posed_free(&o);

    pose_rig(&o, IK2_RIG("0", "30", ",\"stretch\":true,\"uniform\":true"));
    NEAR(hypot(o.p->b[1], o.p->d[1]), 1.5);
    posed_free(&o);
}

/* The two bones' worlds the solve writes are those their applied values give under their
 * parents (what mf_pose_update_bone computes again), bit for bit. */
static void same_world_again(mf_pose *p, int32_t b)
{
    float before[6], after[6];
    mf_pose_bone_world(p, b, before);
    mf_pose_update_bone(p, b);
    mf_pose_bone_world(p, b, after);
    assert_memory_equal(before, after, sizeof before);
}

static void test_ik_two_bones_worlds(void **state)
{
    (void)state;
    posed o;
    pose_rig(&o, IK2_RIG("7", "12", ",\"bend\":-1,\"mix\":0.7,\"softness\":2"));
    same_world_again(o.p, 1);
    same_world_again(o.p, 2);
    posed_free(&o);
}

static void test_ik_softness(void **state)
{
    (void)state;
    posed o;
    double x, y;
    /* softness 4, target at 20 = l1 + l2: sd = 20 - 20 + 4 = 4, q = min(1, 4/8) - 1 = -0.5, the
     * target is pulled in by sd - soft·(1 - q²) = 4 - 3 = 1: the tip stops at 19 */
    pose_rig(&o, IK2_RIG("20", "0", ",\"softness\":4"));
    tip(&o, 2, 10, &x, &y);
    NEAR(hypot(x, y), 19);
    /* the elbow: cos a2 = (19² - 200) / 200 */
    NEAR(fabs(o.p->arot[2]), acos((361.0 - 200.0) / 200.0) / DEG);
    posed_free(&o);
    /* far away (sd = 14 >= 2·soft): pulled in by sd - soft, exactly to full reach */
    pose_rig(&o, IK2_RIG("30", "0", ",\"softness\":4"));
    tip(&o, 2, 10, &x, &y);
    NEAR(x, 20), NEAR(y, 0);
    posed_free(&o);
    /* well inside the reach softness changes nothing */
    pose_rig(&o, IK2_RIG("10", "10", ",\"softness\":4"));
    tip(&o, 2, 10, &x, &y);
    NEAR(x, 10), NEAR(y, 10);
    posed_free(&o);
}

/* ---------------------------------------------------------------- transform */

#define TF_RIG(tc) RIG_HEAD "\"bones\":[{\"name\":\"root\"}," \
    "{\"name\":\"src\",\"parent\":\"root\",\"x\":50,\"y\":20,\"rot\":30,\"sx\":2,\"shy\":10}," \
    "{\"name\":\"dst\",\"parent\":\"root\",\"x\":5,\"rot\":10}]," \
    "\"transform\":[{\"name\":\"c\",\"bones\":[\"dst\"],\"target\":\"src\"" tc "}]}"

static void test_transform_world(void **state)
{
    (void)state;
    posed o;
    /* absolute, all mixes 1: the target's world transform */
    pose_rig(&o, TF_RIG(""));
    NEAR(o.p->wx[2], 50), NEAR(o.p->wy[2], 20);
    NEAR(wrot(&o, 2), 30);
    NEAR(wsx(&o, 2), 2);
    NEAR(o.p->b[2], o.p->b[1]), NEAR(o.p->d[2], o.p->d[1]);
    posed_free(&o);
    /* offsets: x 10 in the target's space (scale 2, 30°), rotation +15 */
    pose_rig(&o, TF_RIG(",\"x\":10,\"rot\":15"));
    NEAR(o.p->wx[2], 50 + 20 * cos(30 * DEG));
    NEAR(o.p->wy[2], 20 + 20 * sin(30 * DEG));
    NEAR(wrot(&o, 2), 45);
    posed_free(&o);
    /* partial mixes: rotation 10 → 30 half way, x 5 → 50 a quarter, y 0 → 20 not at all */
    pose_rig(&o, TF_RIG(",\"mixRotate\":0.5,\"mixX\":0.25,\"mixY\":0,\"mixScaleX\":0,\"mixScaleY\":0,\"mixShearY\":0"));
    NEAR(wrot(&o, 2), 20);
    NEAR(o.p->wx[2], 5 + 45 * 0.25);
    NEAR(o.p->wy[2], 0);
    NEAR(wsx(&o, 2), 1);
    posed_free(&o);
    /* relative: rotation and position are added, scale multiplied */
    pose_rig(&o, TF_RIG(",\"relative\":true,\"mixShearY\":0"));
    NEAR(wrot(&o, 2), 40);
    NEAR(o.p->wx[2], 55), NEAR(o.p->wy[2], 20);
    NEAR(wsx(&o, 2), 2);
    NEAR(hypot(o.p->b[2], o.p->d[2]), 1);
    posed_free(&o);
}

static void test_transform_local(void **state)
{
    (void)state;
    posed o;
    /* absolute: local values towards the target's, offsets added */
    pose_rig(&o, TF_RIG(",\"local\":true,\"rot\":5,\"sx\":0.5,\"mixX\":0.5"));
    NEAR(o.p->arot[2], 35);
    NEAR(o.p->ax[2], 5 + (50 - 5) * 0.5);
    NEAR(o.p->ay[2], 20);
    NEAR(o.p->asx[2], 2.5);
    NEAR(o.p->ashy[2], 10);
    posed_free(&o);
    /* relative: added (scale: multiplied by target + offset) */
    pose_rig(&o, TF_RIG(",\"local\":true,\"relative\":true,\"x\":1,\"mixRotate\":0.5,\"mixScaleY\":0"));
    NEAR(o.p->arot[2], 10 + 30 * 0.5);
    NEAR(o.p->ax[2], 5 + 51);
    NEAR(o.p->ay[2], 20);
    NEAR(o.p->asx[2], 2);
    NEAR(o.p->asy[2], 1);
    NEAR(o.p->ashy[2], 10);
    /* and the world transform follows the new local values */
    NEAR(wrot(&o, 2), 25);
    NEAR(o.p->wx[2], 56);
    posed_free(&o);
}

/* ---------------------------------------------------------------- path */

/* A straight path from (0, 0) to (100, 0) on bone "pb" (handles a third of the way: constant
 * speed, so distances along it are exact), three bones of length 10 under root. */
#define PATH_RIG(pbrot, pc) RIG_HEAD "\"bones\":[{\"name\":\"root\"}," \
    "{\"name\":\"pb\",\"parent\":\"root\",\"rot\":" pbrot "}," \
    "{\"name\":\"b0\",\"parent\":\"root\",\"length\":10,\"y\":7}," \
    "{\"name\":\"b1\",\"parent\":\"root\",\"length\":10,\"y\":7}," \
    "{\"name\":\"b2\",\"parent\":\"root\",\"length\":10,\"y\":7}]," \
    "\"slots\":[{\"name\":\"path\",\"bone\":\"pb\",\"attachment\":\"path\"}]," \
    "\"path\":[{\"name\":\"c\",\"bones\":[\"b0\",\"b1\",\"b2\"],\"target\":\"path\"" pc "}]," \
    "\"skins\":[{\"name\":\"default\",\"attachments\":[{\"slot\":\"path\",\"name\":\"path\",\"type\":\"Path\"," \
    "\"vertices\":[-10,0,0,0,33.333333,0,66.666667,0,100,0,110,0],\"lengths\":[100,100]}]}]}"

static void test_path_modes(void **state)
{
    (void)state;
    posed o;
    /* fixed position 10, length spacing 5: bone length + 5 apart, tangent rotation */
    pose_rig(&o, PATH_RIG("0", ",\"positionMode\":\"fixed\",\"spacingMode\":\"length\",\"position\":10,\"spacing\":5"));
    for (int i = 0; i < 3; i++) {
        NEAR(o.p->wx[2 + i], 10 + 15 * i);
        NEAR(o.p->wy[2 + i], 0);
        NEAR(wrot(&o, 2 + i), 0);
    }
    posed_free(&o);
    /* the path's bone turned 90°: the path runs down */
    pose_rig(&o, PATH_RIG("90", ",\"positionMode\":\"fixed\",\"spacingMode\":\"fixed\",\"position\":10,\"spacing\":20"));
    for (int i = 0; i < 3; i++) {
        NEAR(o.p->wx[2 + i], 0);
        NEAR(o.p->wy[2 + i], 10 + 20 * i);
        NEAR(wrot(&o, 2 + i), 90);
    }
    posed_free(&o);
    /* percent position and spacing: fractions of the length 100 */
    pose_rig(&o, PATH_RIG("0", ",\"spacingMode\":\"percent\",\"position\":0.5,\"spacing\":0.2"));
    for (int i = 0; i < 3; i++) NEAR(o.p->wx[2 + i], 50 + 20 * i);
    posed_free(&o);
    /* proportional, chain scale: the chain spans the path, equal bones equal parts (each
     * scaled to reach the next point) */
    pose_rig(&o, PATH_RIG("0", ",\"spacingMode\":\"proportional\",\"rotateMode\":\"chainScale\",\"position\":0,\"spacing\":1"));
    for (int i = 0; i < 3; i++) {
        NEAR(o.p->wx[2 + i], 100.0 * i / 3);
        NEAR(wsx(&o, 2 + i), 10.0 / 3);
    }
    posed_free(&o);
    /* chain: each bone points at the next path point and the next bone starts at its tip
     * (lengths kept), so 15 apart on the path gives bones 10 apart */
    pose_rig(&o, PATH_RIG("0", ",\"positionMode\":\"fixed\",\"rotateMode\":\"chain\",\"spacing\":5"));
    for (int i = 0; i < 3; i++) {
        NEAR(o.p->wx[2 + i], 10 * i);
        NEAR(wsx(&o, 2 + i), 1);
        NEAR(wrot(&o, 2 + i), 0);
    }
    posed_free(&o);
    /* chain scale: each bone scaled to reach the next point, 15 apart for length 10 */
    pose_rig(&o, PATH_RIG("0", ",\"positionMode\":\"fixed\",\"rotateMode\":\"chainScale\",\"spacing\":5"));
    for (int i = 0; i < 3; i++) {
        NEAR(o.p->wx[2 + i], 15 * i);
        NEAR(wsx(&o, 2 + i), 1.5);
        NEAR(wrot(&o, 2 + i), 0);
    }
    posed_free(&o);
    /* past the end the path extends straight */
    pose_rig(&o, PATH_RIG("0", ",\"positionMode\":\"fixed\",\"spacingMode\":\"fixed\",\"position\":90,\"spacing\":10"));
    NEAR(o.p->wx[4], 110);
    NEAR(o.p->wy[4], 0);
    posed_free(&o);
}

static void test_path_mixes(void **state)
{
    (void)state;
    posed o;
    /* the bones sit at y 7, rotation 0: path at 90° pulls them to x 0 and down */
    pose_rig(&o, PATH_RIG("90", ",\"positionMode\":\"fixed\",\"spacingMode\":\"fixed\",\"position\":10,"
                                "\"spacing\":20,\"mixX\":0.5,\"mixY\":0.25,\"mixRotate\":0.5"));
    NEAR(o.p->wx[2], 0);                /* x was 0 already */
    NEAR(o.p->wy[2], 7 + (10 - 7) * 0.25);
    NEAR(wrot(&o, 2), 45);
    posed_free(&o);
    pose_rig(&o, PATH_RIG("0", ",\"positionMode\":\"fixed\",\"position\":10,\"mixX\":0,\"mixY\":0,\"mixRotate\":0"));
    NEAR(o.p->wx[2], 0), NEAR(o.p->wy[2], 7);
    posed_free(&o);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ik_one_bone),        cmocka_unit_test(test_ik_one_bone_compress),
        cmocka_unit_test(test_ik_two_bones),       cmocka_unit_test(test_ik_softness),
        cmocka_unit_test(test_ik_two_bones_worlds),
        cmocka_unit_test(test_transform_world),    cmocka_unit_test(test_transform_local),
        cmocka_unit_test(test_path_modes),         cmocka_unit_test(test_path_mixes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
