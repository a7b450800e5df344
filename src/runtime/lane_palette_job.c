/* lane_palette_job.c - lane models -> per-character matrices (skinning
 * palettes, or the model transforms themselves): validation and set-up. */
#include "ossa/lanes.h"

#include "job_internal.h"
#include "lane_internal.h"

static int skin_count(const ossa_lane_palette_job *job)
{
    return job->skin_joint_count == 0 && !job->skin_joint ? job->joint_count
                                                          : job->skin_joint_count;
}

ossa_result ossa_lane_palette_job_validate(const ossa_lane_palette_job *job)
{
    if (!job || !job->model)
        return OSSA_ERR_MISSING_INPUT;
    if (job->joint_count < 1 || job->character_count < 1)
        return OSSA_ERR_INPUT_TOO_SMALL;
    const int width = ossai_lane_resolve_width(job->width);
    if (!width)
        return OSSA_ERR_BAD_ARGUMENT;
    if (job->model_count < ossa_lane_model_floats(job->joint_count, job->character_count, width))
        return OSSA_ERR_INPUT_TOO_SMALL;
    const int skins = skin_count(job);
    if (skins < 1)
        return OSSA_ERR_INPUT_TOO_SMALL;
    ossa_result r;
    if (job->skin_joint) {
        if ((r = ossai_check_skin_joints(job->skin_joint, skins, job->joint_count)))
            return r;
    } else if (skins > job->joint_count) {
        return OSSA_ERR_BAD_INDEX;
    }
    int begin, end;
    if ((r = ossai_job_range(job->batch_begin, job->batch_end,
                             ossa_lane_batch_count(job->character_count, width), &begin, &end)) ||
        (r = ossai_lane_check_path(job->path, width)))
        return r;
    if (job->outputs) {
        for (int c = begin * width; c < end * width && c < job->character_count; ++c)
            if (!job->outputs[c])
                return OSSA_ERR_MISSING_OUTPUT;
        return OSSA_OK;
    }
    if (!job->palette)
        return OSSA_ERR_MISSING_OUTPUT;
    if (job->palette_count < (int64_t)job->character_count * skins)
        return OSSA_ERR_OUTPUT_TOO_SMALL;
    return OSSA_OK;
}

ossa_result ossa_lane_palette_job_run(const ossa_lane_palette_job *job)
{
    ossa_result r = ossa_lane_palette_job_validate(job);
    if (r != OSSA_OK)
        return r;
    const int n = job->character_count;
    const ossai_lane_plan plan =
        ossai_lane_plan_make(job->path, job->width, n, job->batch_begin, job->batch_end);
    const int width = plan.width;
    const int skins = skin_count(job);
    ossai_lane_palette_args args;
    args.joint_count = job->joint_count;
    args.width = width;
    args.skin_joint = job->skin_joint;
    args.inverse_bind = job->inverse_bind;
    args.skin_joint_count = skins;
    args.stream = job->stream_output;
    for (int b = plan.begin; b < plan.end; ++b) {
        for (int l = 0; l < width; ++l) {
            const int c = b * width + l;
            args.output[l] = c >= n          ? NULL
                             : job->outputs ? job->outputs[c]
                                            : job->palette + (size_t)c * (size_t)skins;
        }
        args.model = job->model + (size_t)b * (size_t)job->joint_count * OSSAI_MODEL_C *
                                      (size_t)width;
        plan.kernels->palette(&args);
    }
    return OSSA_OK;
}
