/* ik_aim_job.c - aim (look-at) chains, one character at a time: the
 * readable definition the lane job (lane_ik_aim_job.c) is tested against. */
#include <string.h>

#include "ik/ik_internal.h"

ossa_result ossa_ik_aim_job_validate(const ossa_ik_aim_job *job)
{
    if (!job || !job->parents)
        return OSSA_ERR_MISSING_INPUT;
    ossa_result r = ossai_check_joint_count(job->joint_count);
    if (r != OSSA_OK)
        return r;
    if ((r = ossai_ik_check_chain(job->parents, job->joint_count, job->chain, job->chain_count,
                                  job->chain_weights)))
        return r;
    if (!job->model)
        return OSSA_ERR_MISSING_INPUT;
    if (job->character_count < 1)
        return OSSA_ERR_INPUT_TOO_SMALL;
    const int64_t elements = (int64_t)job->character_count * job->joint_count;
    if (job->model_count < elements)
        return OSSA_ERR_INPUT_TOO_SMALL;
    int begin = 0, end = 0;
    if ((r = ossai_job_range(job->character_begin, job->character_end, job->character_count,
                             &begin, &end)))
        return r;
    if ((r = ossai_ik_check_targets(job->character_count, job->targets, job->target_count,
                                    job->target, job->poles, job->pole_count, job->pole,
                                    job->weights, job->weight_count)))
        return r;
    if (!ossai_isfinite3(job->forward) || !ossai_isfinite3(job->offset) ||
        !ossai_isfinite3(job->up) || !isfinite(job->twist_rad))
        return OSSA_ERR_BAD_VALUE;
    if (!job->local)
        return OSSA_ERR_MISSING_OUTPUT;
    if (job->local_count < elements)
        return OSSA_ERR_OUTPUT_TOO_SMALL;
    if (job->corrections &&
        job->correction_count < (int64_t)job->character_count * job->chain_count)
        return OSSA_ERR_OUTPUT_TOO_SMALL;
    if (job->flags && job->flag_count < job->character_count)
        return OSSA_ERR_OUTPUT_TOO_SMALL;
    return OSSA_OK;
}

/* The aimed ray and the rolled axis, in one joint's local frame. */
typedef struct ray {
    ossa_float3 offset, forward, up;
} ray;

typedef struct aim_result {
    ossa_quat turn; /* full-weight correction in the joint's frame */
    unsigned flags;
    bool reachable;
} aim_result;

/* One joint: the smallest turn that puts the ray through the target, then
 * the roll about the joint -> target axis that brings `up` toward the pole,
 * plus the twist. Worked in the joint's frame (uniform scale s): the target
 * is T = R^T (target - o) / s. */
static aim_result aim_joint(const ossa_mat34 *m, ray r, ossa_float3 target, ossa_float3 pole,
                           float twist_cos, float twist_sin)
{
    aim_result out = {{0, 0, 0, 1}, 0, false};
    const float s2 = ossai_ik_scale2(m);
    const ossa_float3 o = ossai_ik_position(m), to_target = ossai_f3_sub(target, o);
    const ossa_float3 t = ossai_f3_scale(ossai_ik_apply_t(m, to_target), 1.0f / s2);
    const float t2 = ossai_f3_len2(t), d2 = ossai_f3_len2(r.offset);
    /* On the joint: closer than 1e-6 of the ray's offset or of the joint's
     * distance from the origin (what rounding leaves of target - joint). */
    const float g2 = ossai_f3_len2(to_target);
    if (!(g2 > OSSAI_IK_EPS * OSSAI_IK_EPS * (ossai_f3_len2(o) + d2 * s2)) || !(g2 > 1e-30f)) {
        out.flags = OSSA_IK_TARGET_ON_JOINT;
        return out;
    }
    /* The point of the ray (offset + l forward, l >= 0) as far from the
     * joint as the target: |offset + l f|^2 = |t|^2. Without one (the
     * target is closer to the joint than the ray passes, or behind where
     * it starts), the nearest the ray can come: it then misses. */
    const ossa_float3 f = ossai_f3_unit(r.forward);
    const float b = ossai_f3_dot(r.offset, f);
    const float disc = b * b - d2 + t2;
    const float l = -b + sqrtf(fmaxf(disc, 0.0f));
    out.reachable = disc >= 0.0f && l >= 0.0f;
    const ossa_float3 v = ossai_f3_add(r.offset, ossai_f3_scale(f, fmaxf(l, 0.0f)));
    const float tlen = sqrtf(t2);
    const ossa_float3 n = ossai_f3_scale(t, 1.0f / tlen);
    const ossa_quat swing = ossai_ik_arc(ossai_f3_unit(v), n, r.up);

    float c = 1.0f, sn = 0.0f;
    const float up2 = ossai_f3_len2(r.up), pole2 = ossai_f3_len2(pole);
    if (up2 > 0.0f && pole2 > 0.0f) {
        const ossa_float3 u1 = ossai_quat_rotate(swing, r.up);
        const ossa_float3 uq = ossai_f3_sub(u1, ossai_f3_scale(n, ossai_f3_dot(u1, n)));
        const ossa_float3 pl = ossai_ik_apply_t(m, pole);
        const ossa_float3 pq = ossai_f3_sub(pl, ossai_f3_scale(n, ossai_f3_dot(pl, n)));
        const float uq2 = ossai_f3_len2(uq), pq2 = ossai_f3_len2(pq);
        if (uq2 > OSSAI_IK_EPS * OSSAI_IK_EPS * up2 &&
            pq2 > OSSAI_IK_EPS * OSSAI_IK_EPS * ossai_f3_len2(pl)) {
            const float inv = 1.0f / sqrtf(uq2 * pq2);
            c = ossai_f3_dot(uq, pq) * inv;
            sn = ossai_f3_dot(n, ossai_f3_cross(uq, pq)) * inv;
        } else {
            out.flags |= OSSA_IK_POLE_PARALLEL;
        }
    }
    const float ct = c * twist_cos - sn * twist_sin;
    const float st = sn * twist_cos + c * twist_sin;
    out.turn = ossai_quat_mul(ossai_ik_axis_cs(n, ct, st), swing);
    return out;
}

/* The ray of joint m, turned by its correction q, in the frame of the
 * joint p above it: out of m's frame into model space, then into p's. */
static ray ray_to_parent(const ossa_mat34 *m, const ossa_mat34 *p, ossa_quat q, ray r)
{
    const ossa_float3 eye = ossai_ik_point(m, ossai_quat_rotate(q, r.offset));
    const float inv_s2 = 1.0f / ossai_ik_scale2(p);
    ray out;
    out.offset = ossai_f3_scale(ossai_ik_apply_t(p, ossai_f3_sub(eye, ossai_ik_position(p))),
                                inv_s2);
    out.forward = ossai_ik_apply_t(p, ossai_ik_apply(m, ossai_quat_rotate(q, r.forward)));
    out.up = ossai_ik_apply_t(p, ossai_ik_apply(m, ossai_quat_rotate(q, r.up)));
    return out;
}

ossa_result ossa_ik_aim_job_run(const ossa_ik_aim_job *job)
{
    ossa_result r = ossa_ik_aim_job_validate(job);
    if (r != OSSA_OK)
        return r;
    int begin = 0, end = 0;
    ossai_job_range(job->character_begin, job->character_end, job->character_count, &begin,
                    &end);
    const size_t n = (size_t)job->joint_count;
    const int links = job->chain_count;
    const float twist_cos = cosf(job->twist_rad), twist_sin = sinf(job->twist_rad);
    ray tip;
    tip.forward = ossai_f3_len2(job->forward) > 0.0f ? job->forward : ossai_f3(0, 0, 1);
    tip.offset = job->offset;
    tip.up = job->up;
    const ossa_quat identity = {0, 0, 0, 1};

    for (int c = begin; c < end; ++c) {
        const ossa_mat34 *model = job->model + (size_t)c * n;
        ossa_transform *local = job->local + (size_t)c * n;
        const ossa_float3 target = job->targets ? job->targets[c] : job->target;
        const ossa_float3 pole = job->poles ? job->poles[c] : job->pole;
        float w;
        bool finite = ossai_ik_weight(job->weights, c, &w) && ossai_isfinite3(target) &&
                      ossai_isfinite3(pole);
        for (int k = 0; k < links && finite; ++k)
            finite = ossai_ik_mat_finite(&model[job->chain[k]]);

        /* Solve from the tip down; keep the weighted corrections until every
         * one is known to be finite. */
        ossa_quat out[OSSA_IK_MAX_CHAIN];
        unsigned flags = finite ? 0u : (unsigned)OSSA_IK_BAD_INPUT;
        bool reached = false;
        ray at = tip;
        for (int k = links - 1; k >= 0 && finite; --k) {
            const ossa_mat34 *m = &model[job->chain[k]];
            const aim_result a = aim_joint(m, at, target, pole, twist_cos, twist_sin);
            const float share = ossai_ik_chain_weight(job->chain_weights, k);
            const ossa_quat turn = ossai_ik_weighted(a.turn, share);
            out[k] = ossai_ik_weighted(a.turn, share * w);
            flags |= a.flags;
            reached = a.reachable && share >= 1.0f && !(a.flags & OSSA_IK_TARGET_ON_JOINT);
            if (k > 0)
                at = ray_to_parent(m, &model[job->chain[k - 1]], turn, at);
            finite = ossai_ik_quat_finite(out[k]) && ossai_ik_quat_finite(turn);
        }
        if (!finite) {
            flags = OSSA_IK_BAD_INPUT;
            reached = false;
            w = 0.0f;
            for (int k = 0; k < links; ++k)
                out[k] = identity;
        }
        if (reached)
            flags |= OSSA_IK_REACHED;
        for (int k = 0; k < links; ++k) {
            if (w > 0.0f) {
                ossa_quat *rot = &local[job->chain[k]].rotation;
                *rot = ossai_quat_normalize(ossai_quat_mul(*rot, out[k]));
            }
            if (job->corrections)
                job->corrections[(size_t)c * (size_t)links + (size_t)k] = out[k];
        }
        if (job->flags)
            job->flags[c] = (uint8_t)flags;
    }
    return OSSA_OK;
}
