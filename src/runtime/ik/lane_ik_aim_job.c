/* lane_ik_aim_job.c - aim chains for W characters at once: validation and
 * per-batch set-up (ossai_ik_gather); the maths is in ik_kernels.c. */
#include "ik/ik_internal.h"
#include "ik/ik_lanes.h"

ossa_result ossa_lane_ik_aim_job_validate(const ossa_lane_ik_aim_job *job)
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
    const int width = ossai_lane_resolve_width(job->width);
    if (!width)
        return OSSA_ERR_BAD_ARGUMENT;
    if ((r = ossai_ik_check_lane_model(job->joint_count, job->character_count, width,
                                       job->model_count)))
        return r;
    int begin, end;
    if ((r = ossai_job_range(job->batch_begin, job->batch_end,
                             ossa_lane_batch_count(job->character_count, width), &begin, &end)) ||
        (r = ossai_simd_check(job->path, width)))
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
    if (job->local_count < ossa_lane_pose_floats(job->joint_count, job->character_count, width))
        return OSSA_ERR_OUTPUT_TOO_SMALL;
    if (job->corrections &&
        job->correction_count < (int64_t)job->character_count * job->chain_count)
        return OSSA_ERR_OUTPUT_TOO_SMALL;
    if (job->flags && job->flag_count < job->character_count)
        return OSSA_ERR_OUTPUT_TOO_SMALL;
    return OSSA_OK;
}

ossa_result ossa_lane_ik_aim_job_run(const ossa_lane_ik_aim_job *job)
{
    ossa_result r = ossa_lane_ik_aim_job_validate(job);
    if (r != OSSA_OK)
        return r;
    const int n = job->character_count, links = job->chain_count;
    const ossai_lane_plan plan =
        ossai_lane_plan_make(job->path, job->width, n, job->batch_begin, job->batch_end);
    const int width = plan.width;
    static void (*const kernels[])(const ossai_ik_aim_args *) =
        OSSAI_SIMD_TABLE(ossai_ik_aim_kernel);
    ossai_ik_lane_slots slots;
    ossai_ik_aim_args args;
    args.width = width;
    args.chain = job->chain;
    args.chain_count = links;
    for (int k = 0; k < links; ++k)
        args.chain_weight[k] = ossai_ik_chain_weight(job->chain_weights, k);
    args.unit_weight = job->weights == NULL;
    const ossa_float3 forward =
        ossai_f3_len2(job->forward) > 0.0f ? job->forward : ossai_f3(0, 0, 1);
    const float f[3] = {forward.x, forward.y, forward.z};
    const float o[3] = {job->offset.x, job->offset.y, job->offset.z};
    const float u[3] = {job->up.x, job->up.y, job->up.z};
    for (int i = 0; i < 3; ++i) {
        args.forward[i] = f[i];
        args.offset[i] = o[i];
        args.up[i] = u[i];
    }
    args.twist_cos = cosf(job->twist_rad);
    args.twist_sin = sinf(job->twist_rad);
    for (int k = 0; k < 2; ++k) {
        const ossai_ik_lane_inputs in = {job->targets, job->target, job->poles, job->pole,
                                         job->weights, slots.target[k], slots.pole[k],
                                         slots.weight[k]};
        ossai_ik_fill_shared(&in, width);
    }
    for (int b = plan.begin; b < plan.end; b += 2) {
        const int pair = b + 1 < plan.end ? 2 : 1;
        for (int k = 0; k < pair; ++k) {
            const ossai_ik_lane_inputs in = {job->targets, job->target, job->poles, job->pole,
                                             job->weights, slots.target[k], slots.pole[k],
                                             slots.weight[k]};
            ossai_ik_slot_batch(&slots, k, b + k, n, width, job->joint_count, job->model,
                                job->local, job->corrections != NULL, &in, &args.batch[k]);
        }
        if (pair == 1)
            args.batch[1] = args.batch[0];
        kernels[plan.path](&args);
        if (!job->corrections && !job->flags)
            continue;
        for (int k = 0; k < pair; ++k) {
            const int first = (b + k) * width, count = n - first < width ? n - first : width;
            for (int l = 0; l < count; ++l) {
                if (job->corrections)
                    for (int c = 0; c < links; ++c)
                        job->corrections[(size_t)(first + l) * (size_t)links + (size_t)c] =
                            ossai_ik_lane_quat(slots.corrections[k] + (size_t)c * 4 * (size_t)width,
                                               width, l);
                if (job->flags)
                    job->flags[first + l] = (uint8_t)slots.flags[k][l];
            }
        }
    }
    return OSSA_OK;
}
