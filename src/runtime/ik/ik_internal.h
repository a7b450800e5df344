/* ik_internal.h - what the IK jobs share: the field checks of the reference
 * jobs and their lane mirrors, and the scalar rotation helpers the reference
 * jobs are written with (ik_kernels.c writes the same formulas over lanes). */
#ifndef OSSA_IK_INTERNAL_H
#define OSSA_IK_INTERNAL_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/job_internal.h"
#include "core/math_internal.h"
#include "ossa/ik.h"
#include "ossa/skeleton.h"

/* Relative size below which a length counts as zero (bones, poles, axes). */
#define OSSAI_IK_EPS 1e-6f
/* Distance of the middle joint from the start -> target line, relative to
 * the first bone, below which the limb counts as straight and the hinge
 * axis, not the middle joint, says which way the limb faces. */
#define OSSAI_IK_STRAIGHT 1e-4f

/* ---- field checks ---- */

/* `ancestor` is `joint` or one of its ancestors. Walks up from joint and
 * stops at a parent that does not come before its child (a broken parents
 * array cannot make it loop). */
static inline bool ossai_ik_is_ancestor(const uint16_t *parents, int ancestor, int joint)
{
    while (joint > ancestor) {
        const int p = parents[joint];
        if (p == OSSA_NO_PARENT || p >= joint)
            return false;
        joint = p;
    }
    return joint == ancestor;
}

/* The limb's joints exist and each is a strict ancestor of the next. */
static inline ossa_result ossai_ik_check_limb(const uint16_t *parents, int joint_count,
                                              int start, int mid, int end)
{
    if (start < 0 || mid < 0 || end < 0 || start >= joint_count || mid >= joint_count ||
        end >= joint_count)
        return OSSA_ERR_BAD_INDEX;
    if (start >= mid || mid >= end || !ossai_ik_is_ancestor(parents, start, mid) ||
        !ossai_ik_is_ancestor(parents, mid, end))
        return OSSA_ERR_BAD_INDEX;
    return OSSA_OK;
}

/* An aim chain: 1..OSSA_IK_MAX_CHAIN joints, each a strict ancestor of the
 * next, with weights (when given) in [0, 1]. */
static inline ossa_result ossai_ik_check_chain(const uint16_t *parents, int joint_count,
                                               const uint16_t *chain, int chain_count,
                                               const float *chain_weights)
{
    if (!chain)
        return OSSA_ERR_MISSING_INPUT;
    if (chain_count < 1)
        return OSSA_ERR_INPUT_TOO_SMALL;
    if (chain_count > OSSA_IK_MAX_CHAIN)
        return OSSA_ERR_BAD_ARGUMENT;
    for (int k = 0; k < chain_count; ++k)
        if (chain[k] >= joint_count)
            return OSSA_ERR_BAD_INDEX;
    for (int k = 1; k < chain_count; ++k)
        if (chain[k - 1] >= chain[k] || !ossai_ik_is_ancestor(parents, chain[k - 1], chain[k]))
            return OSSA_ERR_BAD_INDEX;
    if (chain_weights)
        for (int k = 0; k < chain_count; ++k)
            if (!(chain_weights[k] >= 0.0f && chain_weights[k] <= 1.0f))
                return OSSA_ERR_BAD_VALUE;
    return OSSA_OK;
}

/* The per-character inputs both jobs take: a target and a pole (an array,
 * or one finite value for all) and optional weights. */
static inline ossa_result ossai_ik_check_targets(int character_count, const ossa_float3 *targets,
                                                 int target_count, ossa_float3 target,
                                                 const ossa_float3 *poles, int pole_count,
                                                 ossa_float3 pole, const float *weights,
                                                 int weight_count)
{
    if (targets ? target_count < character_count : false)
        return OSSA_ERR_INPUT_TOO_SMALL;
    if (!targets && !ossai_isfinite3(target))
        return OSSA_ERR_BAD_VALUE;
    if (poles ? pole_count < character_count : false)
        return OSSA_ERR_INPUT_TOO_SMALL;
    if (!poles && !ossai_isfinite3(pole))
        return OSSA_ERR_BAD_VALUE;
    if (weights && weight_count < character_count)
        return OSSA_ERR_INPUT_TOO_SMALL;
    return OSSA_OK;
}

/* The chain weight of chain joint k: the given one, or equal shares. */
static inline float ossai_ik_chain_weight(const float *chain_weights, int k)
{
    return chain_weights ? chain_weights[k] : 1.0f / (float)(k + 1);
}

/* ---- scalar rotation helpers (the reference jobs) ---- */

static inline float ossai_f3_len2(ossa_float3 a)
{
    return ossai_f3_dot(a, a);
}

/* a scaled to unit length; zero stays zero. */
static inline ossa_float3 ossai_f3_unit(ossa_float3 a)
{
    const float l2 = ossai_f3_len2(a);
    return l2 > 0.0f ? ossai_f3_scale(a, 1.0f / sqrtf(l2)) : a;
}

/* The rotation about the unit axis a by the angle whose cosine and sine are
 * c and s. Built from (sin, 1 + cos) when cos >= 0 and from (1 - cos, sin)
 * otherwise - the half angle's sine and cosine up to a common factor - so
 * neither a tiny nor a near-half-turn angle loses precision and no
 * trigonometric function is called. */
static inline ossa_quat ossai_ik_axis_cs(ossa_float3 a, float c, float s)
{
    const float x = c >= 0.0f ? s : 1.0f - c;
    const float y = c >= 0.0f ? 1.0f + c : s;
    const float inv = 1.0f / sqrtf(x * x + y * y);
    return ossai_quat(a.x * x * inv, a.y * x * inv, a.z * x * inv, y * inv);
}

/* A unit vector perpendicular to the unit vector f: `hint` made
 * perpendicular when it is far enough from f, else f x (x or y axis). */
static inline ossa_float3 ossai_ik_perpendicular(ossa_float3 f, ossa_float3 hint)
{
    const ossa_float3 p = ossai_f3_sub(hint, ossai_f3_scale(f, ossai_f3_dot(hint, f)));
    if (ossai_f3_len2(p) > 0.25f * ossai_f3_len2(hint))
        return ossai_f3_unit(p);
    const ossa_float3 e = fabsf(f.x) < 0.5f ? ossai_f3(1, 0, 0) : ossai_f3(0, 1, 0);
    return ossai_f3_unit(ossai_f3_cross(f, e));
}

/* The shortest rotation turning direction f onto direction g (unit
 * vectors): (f x g, 1 + f.g) normalised. Past a quarter turn that loses its
 * angle to rounding as f and g become opposite (1 + f.g cancels), so there
 * it is the same quaternion times (1 - f.g), whose scalar part
 * (1 + f.g)(1 - f.g) = |f x g|^2 comes from the cross product and keeps its
 * precision. Opposite within 1e-6 rad (no axis left): a half turn about an
 * axis across f (from `hint`, see above). */
static inline ossa_quat ossai_ik_arc(ossa_float3 f, ossa_float3 g, ossa_float3 hint)
{
    const float c = ossai_f3_dot(f, g);
    const ossa_float3 x = ossai_f3_cross(f, g);
    if (c >= 0.0f)
        return ossai_quat_normalize(ossai_quat(x.x, x.y, x.z, 1.0f + c));
    const float x2 = ossai_f3_len2(x);
    if (!(x2 > 1e-12f)) {
        const ossa_float3 p = ossai_ik_perpendicular(f, hint);
        return ossai_quat(p.x, p.y, p.z, 0.0f);
    }
    const float k = 1.0f - c;
    return ossai_quat_normalize(ossai_quat(x.x * k, x.y * k, x.z * k, x2));
}

/* slerp(identity, q, w) for a unit q and w in [0, 1]: the same axis, w
 * times the angle (taken the short way round); exactly q at w = 1 and the
 * identity at w = 0. */
static inline ossa_quat ossai_ik_weighted(ossa_quat q, float w)
{
    if (q.w < 0.0f)
        q = ossai_quat_neg(q);
    if (w >= 1.0f)
        return q;
    if (!(w > 0.0f))
        return ossai_quat(0.0f, 0.0f, 0.0f, 1.0f);
    const float vlen = sqrtf(q.x * q.x + q.y * q.y + q.z * q.z);
    const float half = atan2f(vlen, q.w) * w;
    const float k = vlen > 0.0f ? sinf(half) / vlen : w;
    return ossai_quat(q.x * k, q.y * k, q.z * k, cosf(half));
}

/* Every component finite (the last line of defence: no NaN leaves a job). */
static inline bool ossai_ik_quat_finite(ossa_quat q)
{
    return isfinite(q.x) && isfinite(q.y) && isfinite(q.z) && isfinite(q.w);
}

static inline bool ossai_ik_mat_finite(const ossa_mat34 *m)
{
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 4; ++j)
            if (!isfinite(m->m[i][j]))
                return false;
    return true;
}

static inline ossa_float3 ossai_ik_position(const ossa_mat34 *m)
{
    return ossai_f3(m->m[0][3], m->m[1][3], m->m[2][3]);
}

/* M's linear part times v. */
static inline ossa_float3 ossai_ik_apply(const ossa_mat34 *m, ossa_float3 v)
{
    return ossai_f3(m->m[0][0] * v.x + m->m[0][1] * v.y + m->m[0][2] * v.z,
                    m->m[1][0] * v.x + m->m[1][1] * v.y + m->m[1][2] * v.z,
                    m->m[2][0] * v.x + m->m[2][1] * v.y + m->m[2][2] * v.z);
}

/* M p for a point p. */
static inline ossa_float3 ossai_ik_point(const ossa_mat34 *m, ossa_float3 p)
{
    return ossai_f3_add(ossai_ik_apply(m, p), ossai_ik_position(m));
}

/* M's linear part transposed times v: R^T v times the (uniform) scale. */
static inline ossa_float3 ossai_ik_apply_t(const ossa_mat34 *m, ossa_float3 v)
{
    return ossai_f3(m->m[0][0] * v.x + m->m[1][0] * v.y + m->m[2][0] * v.z,
                    m->m[0][1] * v.x + m->m[1][1] * v.y + m->m[2][1] * v.z,
                    m->m[0][2] * v.x + m->m[1][2] * v.y + m->m[2][2] * v.z);
}

/* Squared scale of M (its first column's squared length). */
static inline float ossai_ik_scale2(const ossa_mat34 *m)
{
    return m->m[0][0] * m->m[0][0] + m->m[1][0] * m->m[1][0] + m->m[2][0] * m->m[2][0];
}

/* A model-space rotation d about a joint, as a correction in the joint's own
 * frame: R^-1 d R, whose vector part is R^T times d's. */
static inline ossa_quat ossai_ik_to_local(const ossa_mat34 *m, ossa_quat d)
{
    const ossa_float3 v = ossai_ik_apply_t(m, ossai_f3(d.x, d.y, d.z));
    const float inv_s = 1.0f / sqrtf(ossai_ik_scale2(m));
    return ossai_quat(v.x * inv_s, v.y * inv_s, v.z * inv_s, d.w);
}

/* The weight of character c: weights[c] clamped to [0, 1], 1 without
 * weights; false (and 0) when it is not finite. */
static inline bool ossai_ik_weight(const float *weights, int c, float *w)
{
    if (!weights) {
        *w = 1.0f;
        return true;
    }
    const float x = weights[c];
    *w = x > 1.0f ? 1.0f : (x > 0.0f ? x : 0.0f);
    return isfinite(x);
}

#endif /* OSSA_IK_INTERNAL_H */
