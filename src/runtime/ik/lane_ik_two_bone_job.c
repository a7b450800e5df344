/* lane_ik_two_bone_job.c - two-bone IK for W characters at once: validation,
 * the per-batch gathering of targets, poles and weights into lanes, and the
 * scattering of corrections and flags back to characters; the maths is in
 * ik_kernels.c. */
#include "ik/ik_internal.h"
#include "ik/ik_lanes.h"

ossa_result ossa_lane_ik_two_bone_job_validate(const ossa_lane_ik_two_bone_job *job)
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
    if (!ossai_isfinite3(job->mid_axis) || !isfinite(job->twist_rad) ||
        !(job->soften >= 0.0f && job->soften < 1.0f))
        return OSSA_ERR_BAD_VALUE;
    if (!job->local)
        return OSSA_ERR_MISSING_OUTPUT;
    if (job->local_count < ossa_lane_pose_floats(job->joint_count, job->character_count, width))
        return OSSA_ERR_OUTPUT_TOO_SMALL;
    if ((job->start_corrections || job->mid_corrections) &&
        job->correction_count < job->character_count)
        return OSSA_ERR_OUTPUT_TOO_SMALL;
    if (job->flags && job->flag_count < job->character_count)
        return OSSA_ERR_OUTPUT_TOO_SMALL;
    return OSSA_OK;
}

void ossai_ik_fill_shared(const ossai_ik_lane_inputs *in, int width)
{
    for (int l = 0; l < width; ++l) {
        if (!in->targets) {
            in->lane_target[l] = in->target.x;
            in->lane_target[width + l] = in->target.y;
            in->lane_target[2 * width + l] = in->target.z;
        }
        if (!in->poles) {
            in->lane_pole[l] = in->pole.x;
            in->lane_pole[width + l] = in->pole.y;
            in->lane_pole[2 * width + l] = in->pole.z;
        }
        if (!in->weights)
            in->lane_weight[l] = 1.0f;
    }
}

void ossai_ik_gather(const ossai_ik_lane_inputs *in, int first, int count, int width)
{
    if (in->targets)
        for (int l = 0; l < width; ++l) {
            const ossa_float3 t = in->targets[first + (l < count ? l : 0)];
            in->lane_target[l] = t.x;
            in->lane_target[width + l] = t.y;
            in->lane_target[2 * width + l] = t.z;
        }
    if (in->poles)
        for (int l = 0; l < width; ++l) {
            const ossa_float3 p = in->poles[first + (l < count ? l : 0)];
            in->lane_pole[l] = p.x;
            in->lane_pole[width + l] = p.y;
            in->lane_pole[2 * width + l] = p.z;
        }
    if (in->weights)
        for (int l = 0; l < width; ++l)
            in->lane_weight[l] = in->weights[first + (l < count ? l : 0)];
}

void ossai_ik_slot_batch(ossai_ik_lane_slots *slots, int k, int batch, int characters, int width,
                         int joint_count, const float *model, float *local, bool corrections,
                         const ossai_ik_lane_inputs *in, ossai_ik_lane_batch *out)
{
    const int first = batch * width;
    ossai_ik_gather(in, first, characters - first < width ? characters - first : width, width);
    const size_t joints = (size_t)joint_count;
    out->model = model + (size_t)batch * joints * OSSAI_MODEL_C * (size_t)width;
    out->local = local + (size_t)batch * joints * OSSAI_POSE_C * (size_t)width;
    out->target = slots->target[k];
    out->pole = slots->pole[k];
    out->weight = slots->weight[k];
    out->corrections = corrections ? slots->corrections[k] : NULL;
    out->flags = slots->flags[k];
}

ossa_result ossa_lane_ik_two_bone_job_run(const ossa_lane_ik_two_bone_job *job)
{
    ossa_result r = ossa_lane_ik_two_bone_job_validate(job);
    if (r != OSSA_OK)
        return r;
    const int n = job->character_count;
    const ossai_lane_plan plan =
        ossai_lane_plan_make(job->path, job->width, n, job->batch_begin, job->batch_end);
    const int width = plan.width;
    static void (*const kernels[])(const ossai_ik_two_bone_args *) =
        OSSAI_SIMD_TABLE(ossai_ik_two_bone_kernel);
    ossai_ik_lane_slots slots;
    ossai_ik_two_bone_args args;
    args.start = job->start_joint;
    args.mid = job->mid_joint;
    args.end = job->end_joint;
    args.width = width;
    args.unit_weight = job->weights == NULL;
    args.has_axis = ossai_f3_len2(job->mid_axis) > 0.0f;
    const ossa_float3 axis = ossai_f3_unit(job->mid_axis);
    args.mid_axis[0] = axis.x;
    args.mid_axis[1] = axis.y;
    args.mid_axis[2] = axis.z;
    args.soften = job->soften;
    args.twist_cos = cosf(job->twist_rad);
    args.twist_sin = sinf(job->twist_rad);
    const bool corrections = job->start_corrections || job->mid_corrections;
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
                                job->local, corrections, &in, &args.batch[k]);
        }
        if (pair == 1)
            args.batch[1] = args.batch[0];
        kernels[plan.path](&args);
        for (int k = 0; k < pair; ++k) {
            const int first = (b + k) * width, count = n - first < width ? n - first : width;
            const float *c = slots.corrections[k], *f = slots.flags[k];
            for (int l = 0; l < count; ++l) {
                if (job->start_corrections)
                    job->start_corrections[first + l] = ossai_ik_lane_quat(c, width, l);
                if (job->mid_corrections)
                    job->mid_corrections[first + l] = ossai_ik_lane_quat(c + 4 * width, width, l);
                if (job->flags)
                    job->flags[first + l] = (uint8_t)f[l];
            }
        }
    }
    return OSSA_OK;
}
