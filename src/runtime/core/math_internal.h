/* math_internal.h - inline scalar maths shared by the runtime's .c files.
 * The readable reference: fast paths are tested against what these compute. */
#ifndef OSSA_MATH_INTERNAL_H
#define OSSA_MATH_INTERNAL_H

#include <math.h>

#include "ossa/math.h"

/* Forces inlining where a constant argument must specialise the callee
 * (one loop per call site). */
#if defined(__GNUC__) || defined(__clang__)
#define OSSAI_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define OSSAI_ALWAYS_INLINE inline
#endif

#ifndef OSSA_ASSERT
#include <assert.h>
#define OSSA_ASSERT(x) assert(x)
#endif

static inline ossa_float3 ossai_f3(float x, float y, float z)
{
    ossa_float3 r = {x, y, z};
    return r;
}

static inline ossa_float3 ossai_f3_add(ossa_float3 a, ossa_float3 b)
{
    return ossai_f3(a.x + b.x, a.y + b.y, a.z + b.z);
}

static inline ossa_float3 ossai_f3_sub(ossa_float3 a, ossa_float3 b)
{
    return ossai_f3(a.x - b.x, a.y - b.y, a.z - b.z);
}

static inline ossa_float3 ossai_f3_scale(ossa_float3 a, float s)
{
    return ossai_f3(a.x * s, a.y * s, a.z * s);
}

static inline ossa_float3 ossai_f3_mul(ossa_float3 a, ossa_float3 b)
{
    return ossai_f3(a.x * b.x, a.y * b.y, a.z * b.z);
}

static inline ossa_float3 ossai_f3_lerp(ossa_float3 a, ossa_float3 b, float t)
{
    return ossai_f3(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t, a.z + (b.z - a.z) * t);
}

static inline ossa_float3 ossai_f3_cross(ossa_float3 a, ossa_float3 b)
{
    return ossai_f3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}

static inline float ossai_f3_dot(ossa_float3 a, ossa_float3 b)
{
    return a.x * b.x + a.y * b.y + a.z * b.z;
}

static inline ossa_quat ossai_quat(float x, float y, float z, float w)
{
    ossa_quat q = {x, y, z, w};
    return q;
}

static inline float ossai_quat_dot(ossa_quat a, ossa_quat b)
{
    return a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
}

static inline ossa_quat ossai_quat_neg(ossa_quat q)
{
    return ossai_quat(-q.x, -q.y, -q.z, -q.w);
}

static inline ossa_quat ossai_quat_conj(ossa_quat q)
{
    return ossai_quat(-q.x, -q.y, -q.z, q.w);
}

static inline ossa_quat ossai_quat_mul(ossa_quat a, ossa_quat b)
{
    return ossai_quat(a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
                      a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
                      a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w,
                      a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z);
}

static inline ossa_quat ossai_quat_normalize(ossa_quat q)
{
    float len2 = ossai_quat_dot(q, q);
    if (!(len2 > 0.0f) || !isfinite(len2))
        return ossai_quat(0.0f, 0.0f, 0.0f, 1.0f);
    float inv = 1.0f / sqrtf(len2);
    return ossai_quat(q.x * inv, q.y * inv, q.z * inv, q.w * inv);
}

/* Normalised lerp along the shortest arc. */
static inline ossa_quat ossai_quat_nlerp(ossa_quat a, ossa_quat b, float t)
{
    if (ossai_quat_dot(a, b) < 0.0f)
        b = ossai_quat_neg(b);
    ossa_quat r = ossai_quat(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t,
                             a.z + (b.z - a.z) * t, a.w + (b.w - a.w) * t);
    return ossai_quat_normalize(r);
}

/* Spherical lerp along the shortest arc; falls back to nlerp when the
 * rotations are nearly equal (where slerp's sin(theta) vanishes). */
static inline ossa_quat ossai_quat_slerp(ossa_quat a, ossa_quat b, float t)
{
    float d = ossai_quat_dot(a, b);
    if (d < 0.0f) {
        b = ossai_quat_neg(b);
        d = -d;
    }
    if (d > 0.9995f)
        return ossai_quat_nlerp(a, b, t);
    float theta = acosf(d);
    float s = sinf(theta);
    float wa = sinf((1.0f - t) * theta) / s;
    float wb = sinf(t * theta) / s;
    return ossai_quat_normalize(ossai_quat(a.x * wa + b.x * wb, a.y * wa + b.y * wb,
                                           a.z * wa + b.z * wb, a.w * wa + b.w * wb));
}

/* v rotated by the unit quaternion q: v + 2w (u x v) + 2 u x (u x v). */
static inline ossa_float3 ossai_quat_rotate(ossa_quat q, ossa_float3 v)
{
    ossa_float3 u = ossai_f3(q.x, q.y, q.z);
    ossa_float3 t = ossai_f3_scale(ossai_f3_cross(u, v), 2.0f);
    return ossai_f3_add(ossai_f3_add(v, ossai_f3_scale(t, q.w)), ossai_f3_cross(u, t));
}

static inline ossa_mat34 ossai_mat34_from_trs(ossa_float3 t, ossa_quat q, ossa_float3 s)
{
    float xx = q.x * q.x, yy = q.y * q.y, zz = q.z * q.z;
    float xy = q.x * q.y, xz = q.x * q.z, yz = q.y * q.z;
    float wx = q.w * q.x, wy = q.w * q.y, wz = q.w * q.z;
    ossa_mat34 m;
    m.m[0][0] = (1.0f - 2.0f * (yy + zz)) * s.x;
    m.m[0][1] = 2.0f * (xy - wz) * s.y;
    m.m[0][2] = 2.0f * (xz + wy) * s.z;
    m.m[0][3] = t.x;
    m.m[1][0] = 2.0f * (xy + wz) * s.x;
    m.m[1][1] = (1.0f - 2.0f * (xx + zz)) * s.y;
    m.m[1][2] = 2.0f * (yz - wx) * s.z;
    m.m[1][3] = t.y;
    m.m[2][0] = 2.0f * (xz - wy) * s.x;
    m.m[2][1] = 2.0f * (yz + wx) * s.y;
    m.m[2][2] = (1.0f - 2.0f * (xx + yy)) * s.z;
    m.m[2][3] = t.z;
    return m;
}

/* r = a * b for affine 3x4 matrices (r may not alias a or b). */
static inline void ossai_mat34_mul(ossa_mat34 *restrict r, const ossa_mat34 *restrict a,
                                   const ossa_mat34 *restrict b)
{
    for (int i = 0; i < 3; ++i) {
        const float a0 = a->m[i][0], a1 = a->m[i][1], a2 = a->m[i][2];
        for (int j = 0; j < 4; ++j)
            r->m[i][j] = a0 * b->m[0][j] + a1 * b->m[1][j] + a2 * b->m[2][j];
        r->m[i][3] += a->m[i][3];
    }
}

/* Composition of QVS transforms: (a * b)(p) = a(b(p)). */
static inline ossa_qvs ossai_qvs_mul(ossa_qvs a, ossa_qvs b)
{
    ossa_qvs r;
    r.rotation = ossai_quat_mul(a.rotation, b.rotation);
    r.translation = ossai_f3_add(a.translation,
                                 ossai_f3_scale(ossai_quat_rotate(a.rotation, b.translation),
                                                a.scale));
    r.scale = a.scale * b.scale;
    return r;
}

static inline int ossai_isfinite3(ossa_float3 v)
{
    return isfinite(v.x) && isfinite(v.y) && isfinite(v.z);
}

#endif /* OSSA_MATH_INTERNAL_H */
