/* lane_math.h - the vertical maths the lane kernels share, written over the
 * lane vector type (core/vec.h): one vector holds one value of LANE_V
 * characters. Each formula follows math_internal.h's scalar reference term
 * by term. Included by the stages' *_kernels.c only. */
#ifndef OSSA_CORE_LANE_MATH_H
#define OSSA_CORE_LANE_MATH_H

#include <math.h>

#include "core/lane_internal.h"
#include "core/vec.h"
#include "blob/format.h"

/* a (1 - t) + b t: exactly a at t = 0 and b at t = 1, like the reference. */
static inline vf lerp_exact(vf a, vf b, vf t)
{
    return v_fmadd(b, t, v_mul(a, v_sub(v_set1(1.0f), t)));
}

static inline vf dot4(const vf a[4], const vf b[4])
{
    return v_fmadd(a[3], b[3], v_fmadd(a[2], b[2], v_fmadd(a[1], b[1], v_mul(a[0], b[0]))));
}

/* q / |q|, or the identity where |q|^2 is zero or not finite. */
static inline void quat_normalize(vf q[4])
{
    const vf len2 = dot4(q, q);
    const vm ok = v_and_m(v_gt(len2, v_zero()), v_lt(len2, v_set1(INFINITY)));
    const vf inv = v_div(v_set1(1.0f), v_sqrt(len2));
    q[0] = v_select(ok, v_mul(q[0], inv), v_zero());
    q[1] = v_select(ok, v_mul(q[1], inv), v_zero());
    q[2] = v_select(ok, v_mul(q[2], inv), v_zero());
    q[3] = v_select(ok, v_mul(q[3], inv), v_set1(1.0f));
}

/* q = a * b (apply b first), the Hamilton product of ossai_quat_mul. */
static inline void quat_mul(vf r[4], const vf a[4], const vf b[4])
{
    r[0] = v_sub(v_fmadd(a[1], b[2], v_fmadd(a[0], b[3], v_mul(a[3], b[0]))), v_mul(a[2], b[1]));
    r[1] = v_fmadd(a[2], b[0], v_fmadd(a[1], b[3], v_sub(v_mul(a[3], b[1]), v_mul(a[0], b[2]))));
    r[2] = v_fmadd(a[2], b[3], v_sub(v_fmadd(a[0], b[1], v_mul(a[3], b[2])), v_mul(a[1], b[0])));
    r[3] = v_sub(v_sub(v_sub(v_mul(a[3], b[3]), v_mul(a[0], b[0])), v_mul(a[1], b[1])),
                 v_mul(a[2], b[2]));
}

/* The affine matrix of T, R, S (ossai_mat34_from_trs), row-major. */
static inline void matrix_from_trs(vf m[12], const vf t[3], const vf q[4], const vf s[3])
{
    const vf two = v_set1(2.0f), one = v_set1(1.0f);
    const vf xx = v_mul(q[0], q[0]), yy = v_mul(q[1], q[1]), zz = v_mul(q[2], q[2]);
    const vf xy = v_mul(q[0], q[1]), xz = v_mul(q[0], q[2]), yz = v_mul(q[1], q[2]);
    const vf wx = v_mul(q[3], q[0]), wy = v_mul(q[3], q[1]), wz = v_mul(q[3], q[2]);
    m[0] = v_mul(v_sub(one, v_mul(two, v_add(yy, zz))), s[0]);
    m[1] = v_mul(v_mul(two, v_sub(xy, wz)), s[1]);
    m[2] = v_mul(v_mul(two, v_add(xz, wy)), s[2]);
    m[3] = t[0];
    m[4] = v_mul(v_mul(two, v_add(xy, wz)), s[0]);
    m[5] = v_mul(v_sub(one, v_mul(two, v_add(xx, zz))), s[1]);
    m[6] = v_mul(v_mul(two, v_sub(yz, wx)), s[2]);
    m[7] = t[1];
    m[8] = v_mul(v_mul(two, v_sub(xz, wy)), s[0]);
    m[9] = v_mul(v_mul(two, v_add(yz, wx)), s[1]);
    m[10] = v_mul(v_sub(one, v_mul(two, v_add(xx, yy))), s[2]);
    m[11] = t[2];
}

/* r = p * m for affine 3x4 matrices, p read from a lane model row set. */
static inline void matrix_mul(vf r[12], const float *p, int width, const vf m[12])
{
    for (int i = 0; i < 3; ++i) {
        const vf p0 = v_load(p + (4 * i + 0) * width), p1 = v_load(p + (4 * i + 1) * width);
        const vf p2 = v_load(p + (4 * i + 2) * width), p3 = v_load(p + (4 * i + 3) * width);
        for (int j = 0; j < 4; ++j)
            r[4 * i + j] = v_fmadd(p2, m[8 + j], v_fmadd(p1, m[4 + j], v_mul(p0, m[j])));
        r[4 * i + 3] = v_add(r[4 * i + 3], p3);
    }
}

static inline void load_pose(const float *p, int width, vf t[3], vf r[4], vf s[3])
{
    for (int i = 0; i < 3; ++i) {
        t[i] = v_load(p + (OSSAI_TX + i) * width);
        s[i] = v_load(p + (OSSAI_SX + i) * width);
    }
    for (int i = 0; i < 4; ++i)
        r[i] = v_load(p + (OSSAI_QX + i) * width);
}

#endif /* OSSA_CORE_LANE_MATH_H */
