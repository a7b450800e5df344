/* ik_two_bone_job.c - two-bone IK, one character at a time: the readable
 * definition the lane job (lane_ik_two_bone_job.c) is tested against. */
#include <string.h>

#include "ik/ik_internal.h"

ossa_result ossa_ik_two_bone_job_validate(const ossa_ik_two_bone_job *job)
{
    if (!job || !job->parents)
        return OSSA_ERR_MISSING_INPUT;
    ossa_result r = ossai_check_joint_count(job->joint_count);
    if (r != OSSA_OK)
        return r;
    if ((r = ossai_ik_check_limb(job->parents, job->joint_count, job->start_joint,
                                 job->mid_joint, job->end_joint)))
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
    if (!ossai_isfinite3(job->mid_axis) || !isfinite(job->twist_rad) ||
        !(job->soften >= 0.0f && job->soften < 1.0f))
        return OSSA_ERR_BAD_VALUE;
    if (!job->local)
        return OSSA_ERR_MISSING_OUTPUT;
    if (job->local_count < elements)
        return OSSA_ERR_OUTPUT_TOO_SMALL;
    if ((job->start_corrections || job->mid_corrections) &&
        job->correction_count < job->character_count)
        return OSSA_ERR_OUTPUT_TOO_SMALL;
    if (job->flags && job->flag_count < job->character_count)
        return OSSA_ERR_OUTPUT_TOO_SMALL;
    return OSSA_OK;
}

/* One limb's problem: everything in model space but mid_axis. */
typedef struct limb {
    const ossa_mat34 *start, *mid, *end;
    ossa_float3 target, pole, mid_axis;
    float soften, twist_cos, twist_sin;
} limb;

typedef struct limb_solution {
    ossa_quat start, mid; /* full-weight corrections, in the joints' frames */
    unsigned flags;
} limb_solution;

/* The hinge axis in model space (unit) and in the middle joint's frame. */
static void hinge_axis(const limb *p, ossa_float3 u, ossa_float3 v, ossa_float3 *model_axis,
                       ossa_float3 *local_axis)
{
    if (ossai_f3_len2(p->mid_axis) > 0.0f) {
        *local_axis = ossai_f3_unit(p->mid_axis);
        *model_axis = ossai_f3_unit(ossai_ik_apply(p->mid, *local_axis));
        return;
    }
    /* From the current bend, oriented so that a positive turn folds it
     * further. A straight limb folds toward the pole (a positive turn about
     * pole x (target - start) puts the middle joint on the pole's side), or
     * about any axis across it without one. */
    const float tiny = OSSAI_IK_EPS * OSSAI_IK_EPS;
    ossa_float3 a = ossai_f3_cross(v, u);
    if (ossai_f3_len2(a) <= tiny * ossai_f3_len2(u) * ossai_f3_len2(v)) {
        const ossa_float3 limb_dir = ossai_f3_unit(ossai_f3_sub(v, u));
        const ossa_float3 g = ossai_f3_sub(p->target, ossai_ik_position(p->start));
        a = ossai_f3_cross(p->pole, g);
        if (ossai_f3_len2(a) <= tiny * ossai_f3_len2(g) * ossai_f3_len2(p->pole))
            a = ossai_ik_perpendicular(limb_dir, ossai_f3(0, 0, 0));
    }
    *model_axis = ossai_f3_unit(a);
    *local_axis = ossai_f3_unit(ossai_ik_apply_t(p->mid, *model_axis));
}

/* The reach of the limb after softening: d itself up to (1 - soften) of
 * the longest reach, then da + (max - da) x / (1 + x) with x the distance
 * past da over (max - da): continuous, with a continuous slope, increasing,
 * and never quite at full extension. */
static float softened(float d, float dmax, float soften)
{
    const float da = (1.0f - soften) * dmax;
    if (!(soften > 0.0f) || d <= da)
        return d;
    const float span = dmax - da;
    const float x = (d - da) / span;
    return da + span * (x / (1.0f + x));
}

static limb_solution solve(const limb *p)
{
    limb_solution out = {{0, 0, 0, 1}, {0, 0, 0, 1}, 0};
    const ossa_float3 s = ossai_ik_position(p->start), m = ossai_ik_position(p->mid),
                      e = ossai_ik_position(p->end);
    const ossa_float3 u = ossai_f3_sub(s, m), v = ossai_f3_sub(e, m);
    const float u2 = ossai_f3_len2(u), v2 = ossai_f3_len2(v);
    const float l1 = sqrtf(u2), l2 = sqrtf(v2), length = l1 + l2;
    if (!(l1 > OSSAI_IK_EPS * length) || !(l2 > OSSAI_IK_EPS * length)) {
        out.flags = OSSA_IK_ZERO_BONE;
        return out;
    }
    ossa_float3 a, a_local;
    hinge_axis(p, u, v, &a, &a_local);

    /* 1. The middle joint: turn v about a until |u - v| is the reach. With
     * u and v split along a and across it, u.v = ua va + |u_|| |v_||
     * cos(angle across), so the wanted angle's cosine is k below. */
    const float ua = ossai_f3_dot(u, a), va = ossai_f3_dot(v, a);
    const ossa_float3 up = ossai_f3_sub(u, ossai_f3_scale(a, ua));
    const ossa_float3 vp = ossai_f3_sub(v, ossai_f3_scale(a, va));
    const float pu = sqrtf(ossai_f3_len2(up)), pv = sqrtf(ossai_f3_len2(vp));
    const ossa_float3 g = ossai_f3_sub(p->target, s);
    const float d = sqrtf(ossai_f3_len2(g));
    float reach = d; /* the start -> end distance the solution has */
    ossa_float3 e1 = e;
    if (pu > OSSAI_IK_EPS * l1 && pv > OSSAI_IK_EPS * l2) {
        const float inv = 1.0f / (pu * pv);
        const float cos0 = ossai_f3_dot(up, vp) * inv;
        const float sin0 = ossai_f3_dot(a, ossai_f3_cross(up, vp)) * inv;
        const float base = 0.5f * (u2 + v2) - ua * va;
        const float dmax = sqrtf(fmaxf(2.0f * (base + pu * pv), 0.0f));
        const float want = softened(d, dmax, p->soften);
        float k = (base - 0.5f * want * want) * inv;
        k = fminf(fmaxf(k, -1.0f), 1.0f);
        /* The limb folds by a positive turn about a: the angle from the start
         * bone to the end bone about a has a negative sine. */
        const float cos1 = k, sin1 = -sqrtf(fmaxf(1.0f - k * k, 0.0f));
        const float c = cos1 * cos0 + sin1 * sin0, sn = sin1 * cos0 - cos1 * sin0;
        const ossa_quat turn = ossai_ik_axis_cs(a, c, sn);
        out.mid = ossai_ik_axis_cs(a_local, c, sn);
        e1 = ossai_f3_add(m, ossai_quat_rotate(turn, v));
        reach = sqrtf(fmaxf(2.0f * (base - pu * pv * k), 0.0f));
    } else {
        out.flags |= OSSA_IK_HINGE_PARALLEL;
        reach = sqrtf(ossai_f3_len2(ossai_f3_sub(e, s)));
    }

    /* 2. The start joint: swing the end onto the start -> target line. A
     * target within 1e-6 of the limb's length of the start (or of the
     * start's distance from the origin: what rounding leaves of it) gives
     * no line. */
    if (!(d > OSSAI_IK_EPS * fmaxf(length, sqrtf(ossai_f3_len2(s))))) {
        out.flags |= OSSA_IK_TARGET_ON_JOINT;
        if (fabsf(reach - d) <= OSSA_IK_REACH_TOLERANCE * length)
            out.flags |= OSSA_IK_REACHED;
        return out;
    }
    const ossa_float3 n = ossai_f3_scale(g, 1.0f / d);
    const ossa_float3 f = ossai_f3_unit(ossai_f3_sub(e1, s));
    const ossa_quat swing = ossai_ik_arc(f, n, a);
    if (fabsf(reach - d) <= OSSA_IK_REACH_TOLERANCE * length)
        out.flags |= OSSA_IK_REACHED;

    /* 3. Roll about that line: the middle joint into the pole's half-plane,
     * then by the twist. A (nearly) straight limb has no middle-joint
     * offset to roll: its facing is the side the hinge folds it to,
     * n x a (a positive turn about a moves the end joint toward a x n). */
    const ossa_float3 m1 = ossai_quat_rotate(swing, ossai_f3_sub(m, s));
    ossa_float3 facing = ossai_f3_sub(m1, ossai_f3_scale(n, ossai_f3_dot(m1, n)));
    if (ossai_f3_len2(facing) <= OSSAI_IK_STRAIGHT * OSSAI_IK_STRAIGHT * u2)
        facing = ossai_f3_cross(n, ossai_quat_rotate(swing, a));
    float c = 1.0f, sn = 0.0f;
    const float pole2 = ossai_f3_len2(p->pole);
    if (pole2 > 0.0f) {
        const ossa_float3 pp =
            ossai_f3_sub(p->pole, ossai_f3_scale(n, ossai_f3_dot(p->pole, n)));
        const float norm2 = ossai_f3_len2(pp) * ossai_f3_len2(facing);
        if (ossai_f3_len2(pp) > OSSAI_IK_EPS * OSSAI_IK_EPS * pole2 && norm2 > 0.0f) {
            const float inv = 1.0f / sqrtf(norm2);
            c = ossai_f3_dot(facing, pp) * inv;
            sn = ossai_f3_dot(n, ossai_f3_cross(facing, pp)) * inv;
        } else {
            out.flags |= OSSA_IK_POLE_PARALLEL;
        }
    }
    const float ct = c * p->twist_cos - sn * p->twist_sin;
    const float st = sn * p->twist_cos + c * p->twist_sin;
    const ossa_quat roll = ossai_ik_axis_cs(n, ct, st);
    out.start = ossai_ik_to_local(p->start, ossai_quat_mul(roll, swing));
    return out;
}

ossa_result ossa_ik_two_bone_job_run(const ossa_ik_two_bone_job *job)
{
    ossa_result r = ossa_ik_two_bone_job_validate(job);
    if (r != OSSA_OK)
        return r;
    int begin = 0, end = 0;
    ossai_job_range(job->character_begin, job->character_end, job->character_count, &begin,
                    &end);
    const size_t n = (size_t)job->joint_count;
    limb p;
    p.mid_axis = job->mid_axis;
    p.soften = job->soften;
    p.twist_cos = cosf(job->twist_rad);
    p.twist_sin = sinf(job->twist_rad);
    const ossa_quat identity = {0, 0, 0, 1};
    for (int c = begin; c < end; ++c) {
        const ossa_mat34 *model = job->model + (size_t)c * n;
        ossa_transform *local = job->local + (size_t)c * n;
        p.start = &model[job->start_joint];
        p.mid = &model[job->mid_joint];
        p.end = &model[job->end_joint];
        p.target = job->targets ? job->targets[c] : job->target;
        p.pole = job->poles ? job->poles[c] : job->pole;
        float w;
        const bool finite = ossai_ik_weight(job->weights, c, &w) && ossai_isfinite3(p.target) &&
                            ossai_isfinite3(p.pole) && ossai_ik_mat_finite(p.start) &&
                            ossai_ik_mat_finite(p.mid) && ossai_ik_mat_finite(p.end);
        limb_solution sol = {identity, identity, OSSA_IK_BAD_INPUT};
        if (finite) {
            sol = solve(&p);
            if (!ossai_ik_quat_finite(sol.start) || !ossai_ik_quat_finite(sol.mid))
                sol = (limb_solution){identity, identity, OSSA_IK_BAD_INPUT};
        } else {
            w = 0.0f;
        }
        const ossa_quat cs = ossai_ik_weighted(sol.start, w);
        const ossa_quat cm = ossai_ik_weighted(sol.mid, w);
        if (w > 0.0f) {
            ossa_quat *rs = &local[job->start_joint].rotation;
            ossa_quat *rm = &local[job->mid_joint].rotation;
            *rs = ossai_quat_normalize(ossai_quat_mul(*rs, cs));
            *rm = ossai_quat_normalize(ossai_quat_mul(*rm, cm));
        }
        if (job->start_corrections)
            job->start_corrections[c] = cs;
        if (job->mid_corrections)
            job->mid_corrections[c] = cm;
        if (job->flags)
            job->flags[c] = (uint8_t)sol.flags;
    }
    return OSSA_OK;
}
