/* ossa/math.h - the value types every job reads and writes.
 *
 * Conventions, everywhere in ossa:
 * - right-handed, column vectors: a point p is transformed as M * p;
 * - quaternions are (x, y, z, w) with w the scalar part, unit length;
 * - a transform T, R, S applies scale, then rotation, then translation:
 *   M * p = T + R * (S * p);
 * - ossa_mat34 is an affine 3x4 matrix stored row-major: m[row][col], the
 *   last column is the translation, the implicit fourth row is (0, 0, 0, 1).
 *   It is the layout a GPU reads as three vec4 rows per joint. */
#ifndef OSSA_MATH_H
#define OSSA_MATH_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ossa_float3 {
    float x, y, z;
} ossa_float3;

typedef struct ossa_float4 {
    float x, y, z, w;
} ossa_float4;

typedef struct ossa_quat {
    float x, y, z, w; /* w is the scalar part */
} ossa_quat;

/* A joint's local transform: 40 bytes, no padding. */
typedef struct ossa_transform {
    ossa_float3 translation;
    ossa_quat rotation; /* unit quaternion */
    ossa_float3 scale;
} ossa_transform;

/* Affine 3x4 matrix, row-major, 48 bytes. Arrays of them that SIMD code reads
 * should be 16-byte aligned (jobs state when they require it). */
typedef struct ossa_mat34 {
    float m[3][4];
} ossa_mat34;

/* Quaternion-vector-scale: a rigid transform with a uniform scale, 32 bytes.
 * M * p = translation + scale * (rotation * p). */
typedef struct ossa_qvs {
    ossa_quat rotation;
    ossa_float3 translation;
    float scale;
} ossa_qvs;

/* The identity of each type. */
ossa_transform ossa_transform_identity(void);
ossa_mat34 ossa_mat34_identity(void);
ossa_qvs ossa_qvs_identity(void);

/* Quaternion product a * b (apply b first, then a). */
ossa_quat ossa_quat_mul(ossa_quat a, ossa_quat b);
/* q scaled to unit length, for any finite q however large or small its
 * components; the identity when q is zero or has a component that is not
 * finite. */
ossa_quat ossa_quat_normalize(ossa_quat q);
/* Rotation of angle_rad about a unit axis. */
ossa_quat ossa_quat_from_axis_angle(ossa_float3 axis, float angle_rad);
/* Rotates v by the unit quaternion q. */
ossa_float3 ossa_quat_rotate(ossa_quat q, ossa_float3 v);
/* Angle in radians between the rotations of two unit quaternions, in [0, pi]. */
float ossa_quat_angle(ossa_quat a, ossa_quat b);

/* Matrix of a transform (scale, then rotation, then translation). */
ossa_mat34 ossa_mat34_from_transform(ossa_transform t);
/* Matrix of a quaternion-vector-scale transform. */
ossa_mat34 ossa_mat34_from_qvs(ossa_qvs t);
/* Product a * b of two affine matrices (apply b first, then a). */
ossa_mat34 ossa_mat34_mul(const ossa_mat34 *a, const ossa_mat34 *b);
/* Inverse of an affine matrix; the identity when it is singular. */
ossa_mat34 ossa_mat34_inverse(const ossa_mat34 *m);
/* M * p with p a point (w = 1), or M * v with v a direction (w = 0). */
ossa_float3 ossa_mat34_transform_point(const ossa_mat34 *m, ossa_float3 p);
ossa_float3 ossa_mat34_transform_vector(const ossa_mat34 *m, ossa_float3 v);

#ifdef __cplusplus
}
#endif

#endif /* OSSA_MATH_H */
