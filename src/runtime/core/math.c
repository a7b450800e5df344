/* math.c - the public maths functions (ossa/math.h), over math_internal.h. */
#include <float.h>

#include "core/math_internal.h"

ossa_transform ossa_transform_identity(void)
{
    ossa_transform t = {{0.0f, 0.0f, 0.0f}, {0.0f, 0.0f, 0.0f, 1.0f}, {1.0f, 1.0f, 1.0f}};
    return t;
}

ossa_mat34 ossa_mat34_identity(void)
{
    ossa_mat34 m = {{{1.0f, 0.0f, 0.0f, 0.0f}, {0.0f, 1.0f, 0.0f, 0.0f}, {0.0f, 0.0f, 1.0f, 0.0f}}};
    return m;
}

ossa_qvs ossa_qvs_identity(void)
{
    ossa_qvs q = {{0.0f, 0.0f, 0.0f, 1.0f}, {0.0f, 0.0f, 0.0f}, 1.0f};
    return q;
}

ossa_quat ossa_quat_mul(ossa_quat a, ossa_quat b)
{
    return ossai_quat_mul(a, b);
}

ossa_quat ossa_quat_normalize(ossa_quat q)
{
    /* In float, |q|^2 overflows for |q| above ~1.8e19 and goes subnormal (then
     * 0) below ~1e-19: there q is first divided by its largest component.
     * Between, the plain division the jobs use, to the bit. */
    const float len2 = ossai_quat_dot(q, q);
    if (len2 >= FLT_MIN && len2 <= FLT_MAX)
        return ossai_quat_normalize(q);
    const ossa_quat identity = {0.0f, 0.0f, 0.0f, 1.0f};
    if (!isfinite(q.x) || !isfinite(q.y) || !isfinite(q.z) || !isfinite(q.w))
        return identity;
    const float largest = fmaxf(fmaxf(fabsf(q.x), fabsf(q.y)), fmaxf(fabsf(q.z), fabsf(q.w)));
    if (largest == 0.0f)
        return identity;
    return ossai_quat_normalize(
        ossai_quat(q.x / largest, q.y / largest, q.z / largest, q.w / largest));
}

ossa_quat ossa_quat_from_axis_angle(ossa_float3 axis, float angle_rad)
{
    float len = sqrtf(ossai_f3_dot(axis, axis));
    if (!(len > 0.0f))
        return ossai_quat(0.0f, 0.0f, 0.0f, 1.0f);
    float s = sinf(0.5f * angle_rad) / len;
    return ossai_quat(axis.x * s, axis.y * s, axis.z * s, cosf(0.5f * angle_rad));
}

ossa_float3 ossa_quat_rotate(ossa_quat q, ossa_float3 v)
{
    return ossai_quat_rotate(q, v);
}

float ossa_quat_angle(ossa_quat a, ossa_quat b)
{
    /* Angle of the relative rotation: 2 acos |dot|, computed with atan2 of the
     * vector and scalar parts of conj(a) * b, which stays accurate near 0. */
    ossa_quat d = ossai_quat_mul(ossai_quat_conj(a), b);
    float v = sqrtf(d.x * d.x + d.y * d.y + d.z * d.z);
    return 2.0f * atan2f(v, fabsf(d.w));
}

ossa_mat34 ossa_mat34_from_transform(ossa_transform t)
{
    return ossai_mat34_from_trs(t.translation, t.rotation, t.scale);
}

ossa_mat34 ossa_mat34_from_qvs(ossa_qvs t)
{
    return ossai_mat34_from_trs(t.translation, t.rotation, ossai_f3(t.scale, t.scale, t.scale));
}

ossa_mat34 ossa_mat34_mul(const ossa_mat34 *a, const ossa_mat34 *b)
{
    ossa_mat34 r;
    ossai_mat34_mul(&r, a, b);
    return r;
}

ossa_mat34 ossa_mat34_inverse(const ossa_mat34 *m)
{
    const float(*a)[4] = m->m;
    float c00 = a[1][1] * a[2][2] - a[1][2] * a[2][1];
    float c01 = a[1][2] * a[2][0] - a[1][0] * a[2][2];
    float c02 = a[1][0] * a[2][1] - a[1][1] * a[2][0];
    float det = a[0][0] * c00 + a[0][1] * c01 + a[0][2] * c02;
    if (!(fabsf(det) > 1e-30f) || !isfinite(det))
        return ossa_mat34_identity();
    float inv = 1.0f / det;
    ossa_mat34 r;
    r.m[0][0] = c00 * inv;
    r.m[0][1] = (a[0][2] * a[2][1] - a[0][1] * a[2][2]) * inv;
    r.m[0][2] = (a[0][1] * a[1][2] - a[0][2] * a[1][1]) * inv;
    r.m[1][0] = c01 * inv;
    r.m[1][1] = (a[0][0] * a[2][2] - a[0][2] * a[2][0]) * inv;
    r.m[1][2] = (a[0][2] * a[1][0] - a[0][0] * a[1][2]) * inv;
    r.m[2][0] = c02 * inv;
    r.m[2][1] = (a[0][1] * a[2][0] - a[0][0] * a[2][1]) * inv;
    r.m[2][2] = (a[0][0] * a[1][1] - a[0][1] * a[1][0]) * inv;
    for (int i = 0; i < 3; ++i)
        r.m[i][3] = -(r.m[i][0] * a[0][3] + r.m[i][1] * a[1][3] + r.m[i][2] * a[2][3]);
    return r;
}

ossa_float3 ossa_mat34_transform_point(const ossa_mat34 *m, ossa_float3 p)
{
    const float(*a)[4] = m->m;
    return ossai_f3(a[0][0] * p.x + a[0][1] * p.y + a[0][2] * p.z + a[0][3],
                    a[1][0] * p.x + a[1][1] * p.y + a[1][2] * p.z + a[1][3],
                    a[2][0] * p.x + a[2][1] * p.y + a[2][2] * p.z + a[2][3]);
}

ossa_float3 ossa_mat34_transform_vector(const ossa_mat34 *m, ossa_float3 v)
{
    const float(*a)[4] = m->m;
    return ossai_f3(a[0][0] * v.x + a[0][1] * v.y + a[0][2] * v.z,
                    a[1][0] * v.x + a[1][1] * v.y + a[1][2] * v.z,
                    a[2][0] * v.x + a[2][1] * v.y + a[2][2] * v.z);
}
