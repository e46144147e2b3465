/* World transforms on small rigs: each inherit mode against matrices worked out in the test
 * (a parent rotated 30°, scaled 2 × 1, then reflected), and the skipping of unchanged bones:
 * identical results, and the skipped bones really skipped. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "testutil.h"
#include "pose_rig.h"
#include "mf/mf_pose.h"

#define NEAR(a, b) assert_true(fabs((double)(a) - (double)(b)) < 1e-4)
#define DEG (3.14159265358979323846 / 180.0)

/* parent: R(30)·diag(psx, 1); children at x 10, rotation 20, scale (1.5, 0.5) */
#define INHERIT_RIG(psx) RIG_HEAD "\"bones\":[{\"name\":\"root\"}," \
    "{\"name\":\"parent\",\"parent\":\"root\",\"rot\":30,\"sx\":" psx "}," \
    "{\"name\":\"normal\",\"parent\":\"parent\",\"x\":10,\"rot\":20,\"sx\":1.5,\"sy\":0.5}," \
    "{\"name\":\"only\",\"parent\":\"parent\",\"x\":10,\"rot\":20,\"sx\":1.5,\"sy\":0.5,\"inherit\":\"OnlyTranslation\"}," \
    "{\"name\":\"norot\",\"parent\":\"parent\",\"x\":10,\"rot\":20,\"sx\":1.5,\"sy\":0.5,\"inherit\":\"NoRotationOrReflection\"}," \
    "{\"name\":\"noscale\",\"parent\":\"parent\",\"x\":10,\"rot\":20,\"sx\":1.5,\"sy\":0.5,\"inherit\":\"NoScale\"}," \
    "{\"name\":\"noscalerefl\",\"parent\":\"parent\",\"x\":10,\"rot\":20,\"sx\":1.5,\"sy\":0.5,\"inherit\":\"NoScaleOrReflection\"}]}"

typedef struct m2 {
    double a, b, c, d;
} m2;

static m2 mul(m2 x, m2 y)
{
    return (m2){x.a * y.a + x.b * y.c, x.a * y.b + x.b * y.d, x.c * y.a + x.d * y.c, x.c * y.b + x.d * y.d};
}
static m2 rotm(double deg) { return (m2){cos(deg * DEG), -sin(deg * DEG), sin(deg * DEG), cos(deg * DEG)}; }
static m2 scalem(double sx, double sy) { return (m2){sx, 0, 0, sy}; }

static void expect(const mf_pose *p, int32_t b, m2 m)
{
    NEAR(p->a[b], m.a), NEAR(p->b[b], m.b), NEAR(p->c[b], m.c), NEAR(p->d[b], m.d);
}

static void check_inherit(double psx, const char *rig)
{
    test_rig r;
    test_rig_build(&r, rig, NULL, NULL, 0);
    mf_pose *p = NULL;
    assert_int_equal(mf_pose_create(&r.data, NULL, &p, NULL), MF_OK);
    mf_pose_update_world(p);
    m2 P = mul(rotm(30), scalem(psx, 1)), L = mul(rotm(20), scalem(1.5, 0.5));
    expect(p, 1, P);
    for (int b = 2; b <= 6; b++) { /* every mode inherits translation */
        NEAR(p->wx[b], P.a * 10);
        NEAR(p->wy[b], P.c * 10);
    }
    expect(p, 2, mul(P, L));   /* normal: the product */
    expect(p, 3, L);           /* only translation: the local transform alone */
    /* no rotation or reflection: the parent's scale in the parent's frame without its rotation
     * and reflection (|col 0|, det / |col 0| along R(30)), the local rotation in world space */
    double n = hypot(P.a, P.c), det = fabs(P.a * P.d - P.b * P.c);
    m2 Q = mul(rotm(30), scalem(n, det / n));
    expect(p, 4, mul(mul(Q, rotm(-30)), L));
    /* no scale: the direction of the local rotation through the parent, unit length, a right
     * angle y axis (flipped when the parent reflects), then the local scale */
    double zx = P.a * cos(20 * DEG) + P.b * sin(20 * DEG), zy = P.c * cos(20 * DEG) + P.d * sin(20 * DEG);
    double zl = hypot(zx, zy);
    zx /= zl, zy /= zl;
    double refl = P.a * P.d - P.b * P.c < 0 ? -1 : 1;
    expect(p, 5, mul((m2){zx, -zy * refl, zy, zx * refl}, scalem(1.5, 0.5)));
    expect(p, 6, mul((m2){zx, -zy, zy, zx}, scalem(1.5, 0.5))); /* reflection dropped */
    mf_pose_destroy(p);
    test_rig_free(&r);
}

static void test_inherit_modes(void **state)
{
    (void)state;
    check_inherit(2, INHERIT_RIG("2"));
}

static void test_inherit_modes_reflected(void **state)
{
    (void)state;
    check_inherit(-2, INHERIT_RIG("-2"));
}

/* ---------------------------------------------------------------- skipping unchanged bones */

static const char *CHAIN = RIG_HEAD "\"bones\":[{\"name\":\"root\"},"
    "{\"name\":\"a\",\"parent\":\"root\",\"x\":5,\"rot\":10},"
    "{\"name\":\"b\",\"parent\":\"a\",\"x\":7,\"rot\":20,\"sx\":1.5},"
    "{\"name\":\"c\",\"parent\":\"b\",\"x\":3,\"shy\":4},"
    "{\"name\":\"d\",\"parent\":\"a\",\"y\":2,\"rot\":-40}],"
    "\"transform\":[{\"name\":\"t\",\"bones\":[\"d\"],\"target\":\"c\",\"mixRotate\":0.5,\"mixX\":0,\"mixY\":0,"
    "\"mixScaleX\":0,\"mixScaleY\":0,\"mixShearY\":0}]}";

static void same_world(const mf_pose *x, const mf_pose *y)
{
    size_t n = (size_t)x->bone_count * sizeof(float);
    assert_memory_equal(x->a, y->a, n), assert_memory_equal(x->b, y->b, n);
    assert_memory_equal(x->c, y->c, n), assert_memory_equal(x->d, y->d, n);
    assert_memory_equal(x->wx, y->wx, n), assert_memory_equal(x->wy, y->wy, n);
}

/* The dirty sub-tree skip: unchanged bones under unchanged parents keep their world, bones a
 * constraint writes never do, and the world always equals a fresh pose's. CHAIN: root → a →
 * b → c, and d under a, which a transform constraint writes. */
static void fresh_world_equals(const test_rig *r, const mf_pose *p)
{
    mf_pose *fresh = NULL;
    assert_int_equal(mf_pose_create(&r->data, NULL, &fresh, NULL), MF_OK);
    size_t n = (size_t)p->bone_count * sizeof(float);
    memcpy(fresh->x, p->x, n), memcpy(fresh->y, p->y, n), memcpy(fresh->rot, p->rot, n);
    memcpy(fresh->sx, p->sx, n), memcpy(fresh->sy, p->sy, n), memcpy(fresh->shx, p->shx, n);
    memcpy(fresh->shy, p->shy, n);
    mf_pose_update_world(fresh); /* nothing cached: everything computed */
    assert_int_equal(fresh->bones_kept, 0);
    same_world(p, fresh);
    mf_pose_destroy(fresh);
}

static void test_skip_unchanged(void **state)
{
    (void)state;
    test_rig r;
    test_rig_build(&r, CHAIN, NULL, NULL, 0);
    mf_pose *p = NULL;
    assert_int_equal(mf_pose_create(&r.data, NULL, &p, NULL), MF_OK);
    mf_pose_update_world(p);
    assert_int_equal(p->bones_computed, 5);
    assert_int_equal(p->bones_kept, 0);
    assert_true(p->trig_computed >= p->bone_count); /* nothing cached yet */
    /* nothing changed: root, a, b, c kept; d is the constraint's and computes */
    mf_pose_reset(p);
    mf_pose_update_world(p);
    assert_int_equal(p->bones_kept, 4);
    assert_int_equal(p->bones_computed, 1);
    assert_int_equal(p->trig_computed, 0);
    fresh_world_equals(&r, p);
    /* b turns: b and c compute (and d); root and a are kept. Its group of (at most four)
     * bones computes its trigonometry again */
    for (int k = 0; k < 3; k++) {
        mf_pose_reset(p);
        p->rot[2] = 20.0f + 15.0f * (float)(k + 1);
        mf_pose_update_world(p);
        assert_int_equal(p->bones_kept, 2);
        assert_int_equal(p->bones_computed, 3);
        assert_true(p->trig_computed >= 1 && p->trig_computed <= 4);
        fresh_world_equals(&r, p);
    }
    /* the root moves and b keeps its angle: everything computes, no trigonometry */
    p->x[0] = 1;
    mf_pose_update_world(p);
    assert_int_equal(p->bones_computed, 5);
    assert_int_equal(p->trig_computed, 0);
    fresh_world_equals(&r, p);
    /* a host updates a on its own: the next update computes a's sub-tree again */
    mf_pose_update_world(p);
    assert_int_equal(p->bones_kept, 4);
    p->ax[1] += 3;
    mf_pose_update_bone(p, 1);
    mf_pose_update_world(p);
    assert_int_equal(p->bones_kept, 1); /* root only */
    fresh_world_equals(&r, p);
    /* a host writes world transforms and says so: nothing is kept from before */
    for (int32_t i = 0; i < p->bone_count; i++) p->wx[i] += 5;
    mf_pose_world_changed(p);
    mf_pose_update_world(p);
    assert_int_equal(p->bones_kept, 0);
    fresh_world_equals(&r, p);
    mf_pose_destroy(p);
    test_rig_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_inherit_modes),
        cmocka_unit_test(test_inherit_modes_reflected),
        cmocka_unit_test(test_skip_unchanged),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
