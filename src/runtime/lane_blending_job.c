/* lane_blending_job.c - weighted and additive layers of lane poses -> one
 * lane pose: validation and per-batch set-up; the maths is in
 * lane_kernels.inc. */
#include "ossa/blending_job.h"
#include "ossa/lanes.h"

#include <math.h>

#include "lane_internal.h"

static ossa_result check_layer(const ossa_lane_blend_layer *layer, size_t pose_floats,
                               const ossa_lane_blending_job *job, int additive)
{
    if (!layer->pose)
        return OSSA_ERR_MISSING_INPUT;
    if (layer->pose_count < pose_floats)
        return OSSA_ERR_INPUT_TOO_SMALL;
    if (layer->weights && layer->weight_count < job->character_count)
        return OSSA_ERR_INPUT_TOO_SMALL;
    if (layer->joint_mask && layer->joint_mask_count < job->joint_count)
        return OSSA_ERR_INPUT_TOO_SMALL;
    if (additive && layer->reference && layer->reference_count < job->joint_count)
        return OSSA_ERR_INPUT_TOO_SMALL;
    if (!layer->weights && !isfinite(layer->weight))
        return OSSA_ERR_BAD_VALUE;
    return OSSA_OK;
}

ossa_result ossa_lane_blending_job_validate(const ossa_lane_blending_job *job)
{
    ossa_result r;
    if (!job)
        return OSSA_ERR_MISSING_INPUT;
    if (job->layer_count < 0 || job->additive_count < 0)
        return OSSA_ERR_BAD_ARGUMENT;
    if ((job->layer_count > 0 && !job->layers) || (job->additive_count > 0 && !job->additive))
        return OSSA_ERR_MISSING_INPUT;
    if (!job->rest_pose)
        return OSSA_ERR_MISSING_INPUT;
    if (job->joint_count < 1 || job->character_count < 1)
        return OSSA_ERR_INPUT_TOO_SMALL;
    const int width = ossai_lane_resolve_width(job->width);
    if (!width)
        return OSSA_ERR_BAD_ARGUMENT;
    const size_t floats = ossa_lane_pose_floats(job->joint_count, job->character_count, width);
    for (int l = 0; l < job->layer_count; ++l)
        if ((r = check_layer(&job->layers[l], floats, job, 0)))
            return r;
    for (int l = 0; l < job->additive_count; ++l)
        if ((r = check_layer(&job->additive[l], floats, job, 1)))
            return r;
    int begin, end;
    if ((r = ossai_lane_range(job->batch_begin, job->batch_end,
                              ossa_lane_batch_count(job->character_count, width), &begin, &end)))
        return r;
    if (!(job->threshold >= 0.0f) || !isfinite(job->threshold))
        return OSSA_ERR_BAD_VALUE;
    if (!ossai_lane_select(job->path, width))
        return (unsigned)job->path >= OSSA_LANE_PATH_COUNT ? OSSA_ERR_BAD_ARGUMENT
                                                           : OSSA_ERR_UNSUPPORTED;
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
    const int n = job->character_count, width = ossai_lane_resolve_width(job->width);
    const ossai_lane_kernels *kernels = ossai_lane_select(job->path, width);
    int begin, end;
    ossai_lane_range(job->batch_begin, job->batch_end, ossa_lane_batch_count(n, width), &begin,
                     &end);
    const size_t batch_floats = (size_t)job->joint_count * OSSAI_POSE_C * (size_t)width;
    ossai_lane_blend_args args;
    args.layers = job->layers;
    args.layer_count = job->layer_count;
    args.additive = job->additive;
    args.additive_count = job->additive_count;
    args.rest = job->rest_pose;
    args.joint_count = job->joint_count;
    args.width = width;
    args.threshold = job->threshold > 0.0f ? job->threshold : OSSA_BLEND_DEFAULT_THRESHOLD;
    for (int b = begin; b < end; ++b) {
        args.batch_offset = (size_t)b * batch_floats;
        args.first_character = b * width;
        args.full = (b + 1) * width <= n;
        for (int l = 0; l < width; ++l)
            args.character[l] = b * width + l < n ? b * width + l : b * width;
        args.output = job->output + args.batch_offset;
        kernels->blend(&args);
    }
    return OSSA_OK;
}
