#include "testutil.h"

#include <math.h>

#include "mf/mf_math3d.h"

static void near(float a, float b) { assert_true(fabsf(a - b) < 1e-5f); }

static void quaternion_rotation_follows_right_hand_rule(void **s)
{
    (void)s;
    mf_quat q = mf_quat_axis_angle(mf_v3(0, 1, 0), 3.14159265f / 2);
    mf_vec3 v = mf_quat_rotate(q, mf_v3(0, 0, 1)); /* +Z about +Y by 90° → +X */
    near(v.x, 1), near(v.y, 0), near(v.z, 0);
    mf_quat ab = mf_quat_mul(mf_quat_axis_angle(mf_v3(1, 0, 0), 0.3f), q);
    mf_vec3 w = mf_quat_rotate(ab, mf_v3(0, 0, 1));
    mf_vec3 w2 = mf_quat_rotate(mf_quat_axis_angle(mf_v3(1, 0, 0), 0.3f), v);
    near(w.x, w2.x), near(w.y, w2.y), near(w.z, w2.z);
}

static void from_to_and_basis_round_trip(void **s)
{
    (void)s;
    mf_vec3 a = mf_v3_normalize(mf_v3(1, 2, 3)), b = mf_v3_normalize(mf_v3(-2, 0.5f, 1));
    mf_vec3 r = mf_quat_rotate(mf_quat_from_to(a, b), a);
    near(r.x, b.x), near(r.y, b.y), near(r.z, b.z);
    mf_vec3 opp = mf_quat_rotate(mf_quat_from_to(a, mf_v3_scale(a, -1)), a);
    near(opp.x, -a.x), near(opp.y, -a.y), near(opp.z, -a.z);
    mf_quat q = mf_quat_normalize((mf_quat){0.2f, -0.5f, 0.1f, 0.8f});
    mf_quat q2 = mf_quat_from_basis(mf_quat_rotate(q, mf_v3(1, 0, 0)), mf_quat_rotate(q, mf_v3(0, 1, 0)),
                                    mf_quat_rotate(q, mf_v3(0, 0, 1)));
    assert_true(mf_quat_angle_between(q, q2) < 1e-3f);
}

static void matrices_compose_split_and_invert(void **s)
{
    (void)s;
    mf_quat q = mf_quat_normalize((mf_quat){0.3f, 0.1f, -0.2f, 0.9f});
    mf_mat4 m = mf_mat4_from_trs(mf_v3(1, 2, 3), q, mf_v3(2, 2, 2));
    mf_vec3 t, sc;
    mf_quat r;
    mf_mat4_to_trs(&m, &t, &r, &sc);
    near(t.x, 1), near(t.z, 3), near(sc.y, 2);
    assert_true(mf_quat_angle_between(r, q) < 1e-3f);
    mf_mat4 inv;
    assert_int_equal(mf_mat4_invert_affine(&m, &inv), 1);
    mf_mat4 id = mf_mat4_mul(&m, &inv);
    for (int i = 0; i < 16; i++) near(id.m[i], (i % 5 == 0) ? 1.0f : 0.0f);
    mf_mat4 zero = {{0}};
    assert_int_equal(mf_mat4_invert_affine(&zero, &inv), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(quaternion_rotation_follows_right_hand_rule),
        cmocka_unit_test(from_to_and_basis_round_trip),
        cmocka_unit_test(matrices_compose_split_and_invert),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
