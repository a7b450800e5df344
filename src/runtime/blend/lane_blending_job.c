/* lane_blending_job.c - weighted and additive layers of lane poses -> one
 * lane pose: validation and per-batch set-up; the maths is in
 * blend_kernels.c. */
#include "ossa/blending_job.h"
#include "ossa/lanes.h"

#include "blend/blend_internal.h"
#include "blend/blend_lanes.h"
#include "core/job_internal.h"

OSSAI_DEFINE_BLEND_LAYER_CHECK(check_layer, ossa_lane_blend_layer)

ossa_result ossa_lane_blending_job_validate(const ossa_lane_blending_job *job)
{
    if (!job)
        return OSSA_ERR_MISSING_INPUT;
    ossa_result r = ossai_check_blend_inputs(job->layer_count, job->layers, job->additive_count,
                                             job->additive, job->rest_pose, job->joint_count,
                                             job->character_count);
    if (r != OSSA_OK)
        return r;
    const int width = ossai_lane_resolve_width(job->width);
    if (!width)
        return OSSA_ERR_BAD_ARGUMENT;
    const int floats = ossa_lane_pose_floats(job->joint_count, job->character_count, width);
    if (!floats)
        return OSSA_ERR_BAD_ARGUMENT; /* more floats than an int counts */
    for (int l = 0; l < job->layer_count; ++l)
        if ((r = check_layer(&job->layers[l], job->layers[l].pose_count < floats,
                             job->character_count, job->joint_count, false)))
            return r;
    for (int l = 0; l < job->additive_count; ++l)
        if ((r = check_layer(&job->additive[l], job->additive[l].pose_count < floats,
                             job->character_count, job->joint_count, true)))
            return r;
    int begin, end;
    if ((r = ossai_job_range(job->batch_begin, job->batch_end,
                             ossa_lane_batch_count(job->character_count, width), &begin, &end)) ||
        (r = ossai_check_blend_threshold(job->threshold)) ||
        (r = ossai_simd_check(job->path, width)))
        return r;
    if (!job->output)
        return OSSA_ERR_MISSING_OUTPUT;
    if (job->output_count < floats)
        return OSSA_ERR_OUTPUT_TOO_SMALL;
    return OSSA_OK;
}

ossa_result ossa_lane_blending_job_run(const ossa_lane_blending_job *job)
{
    ossa_result r = ossa_lane_blending_job_validate(job);
    if (r != OSSA_OK)
        return r;
    const int n = job->character_count;
    const ossai_lane_plan plan =
        ossai_lane_plan_make(job->path, job->width, n, job->batch_begin, job->batch_end);
    const int width = plan.width;
    const size_t batch_floats = (size_t)job->joint_count * OSSAI_POSE_C * (size_t)width;
    static void (*const kernels[])(const ossai_lane_blend_args *) =
        OSSAI_SIMD_TABLE(ossai_blend_kernel);
    ossai_lane_blend_args args;
    args.layers = job->layers;
    args.layer_count = job->layer_count;
    args.additive = job->additive;
    args.additive_count = job->additive_count;
    args.rest = job->rest_pose;
    args.joint_count = job->joint_count;
    args.width = width;
    args.threshold = job->threshold > 0.0f ? job->threshold : OSSA_BLEND_DEFAULT_THRESHOLD;
    for (int b = plan.begin; b < plan.end; ++b) {
        args.batch_offset = (size_t)b * batch_floats;
        args.first_character = b * width;
        args.full = (b + 1) * width <= n;
        for (int l = 0; l < width; ++l)
            args.character[l] = b * width + l < n ? b * width + l : b * width;
        args.output = job->output + args.batch_offset;
        kernels[plan.path](&args);
    }
    return OSSA_OK;
}
