/* mf_math3d.h — small 3D vector, quaternion and matrix helpers (runtime module).
 *
 * Conventions: right-handed, glTF axes (Y up, +Z forward for characters). Quaternions are
 * (x, y, z, w), unit length for rotations. Matrices are column-major 4×4 like glTF: m[col*4+row];
 * a point p maps to M·p. TRS composes as T · R · S (scale first).
 */
#ifndef MF_MATH3D_H
#define MF_MATH3D_H

#ifdef __cplusplus
extern "C" {
#endif

typedef struct mf_vec3 { float x, y, z; } mf_vec3;
typedef struct mf_quat { float x, y, z, w; } mf_quat;
typedef struct mf_mat4 { float m[16]; } mf_mat4;

mf_vec3 mf_v3(float x, float y, float z);
mf_vec3 mf_v3_add(mf_vec3 a, mf_vec3 b);
mf_vec3 mf_v3_sub(mf_vec3 a, mf_vec3 b);
mf_vec3 mf_v3_scale(mf_vec3 a, float s);
float mf_v3_dot(mf_vec3 a, mf_vec3 b);
mf_vec3 mf_v3_cross(mf_vec3 a, mf_vec3 b);
float mf_v3_length(mf_vec3 a);
/* a / |a|; the zero vector stays zero. */
mf_vec3 mf_v3_normalize(mf_vec3 a);

mf_quat mf_quat_identity(void);
/* Rotation of angle radians about a unit axis (right-hand rule). */
mf_quat mf_quat_axis_angle(mf_vec3 axis, float radians);
/* a · b: applies b first, then a. */
mf_quat mf_quat_mul(mf_quat a, mf_quat b);
mf_quat mf_quat_conjugate(mf_quat q);
mf_quat mf_quat_normalize(mf_quat q);
mf_vec3 mf_quat_rotate(mf_quat q, mf_vec3 v);
/* The shortest rotation taking unit vector from onto unit vector to. */
mf_quat mf_quat_from_to(mf_vec3 from, mf_vec3 to);
/* The rotation whose columns (images of X, Y, Z) are the given orthonormal basis. */
mf_quat mf_quat_from_basis(mf_vec3 x, mf_vec3 y, mf_vec3 z);
/* Angle in radians between two rotations (0..pi), sign of q ignored. */
float mf_quat_angle_between(mf_quat a, mf_quat b);
mf_quat mf_quat_slerp(mf_quat a, mf_quat b, float t);

mf_mat4 mf_mat4_identity(void);
mf_mat4 mf_mat4_mul(const mf_mat4 *a, const mf_mat4 *b); /* a · b */
mf_mat4 mf_mat4_from_trs(mf_vec3 t, mf_quat r, mf_vec3 s);
/* Splits an affine matrix without shear into T, R, S (negative determinant: S.x negated). */
void mf_mat4_to_trs(const mf_mat4 *m, mf_vec3 *t, mf_quat *r, mf_vec3 *s);
/* Inverse of an affine matrix; returns 0 when singular (out = identity). */
int mf_mat4_invert_affine(const mf_mat4 *m, mf_mat4 *out);
mf_vec3 mf_mat4_point(const mf_mat4 *m, mf_vec3 p);
mf_vec3 mf_mat4_direction(const mf_mat4 *m, mf_vec3 d);

#ifdef __cplusplus
}
#endif
#endif
