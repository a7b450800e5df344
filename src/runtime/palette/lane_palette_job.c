/* lane_palette_job.c - lane models -> per-character skinning palettes:
 * validation and set-up; the transposes are in palette_kernels.c. */
#include "ossa/lanes.h"

#include "core/job_internal.h"
#include "palette/palette_lanes.h"

static int skin_count(const ossa_lane_palette_job *job)
{
    return job->skin_joint_count == 0 && !job->skin_joint ? job->joint_count
                                                          : job->skin_joint_count;
}

ossa_result ossai_lane_model_input(const float *model, int model_count, int joint_count,
                                   int character_count, int width_field, int *width)
{
    if (!model)
        return OSSA_ERR_MISSING_INPUT;
    if (joint_count < 1 || character_count < 1)
        return OSSA_ERR_INPUT_TOO_SMALL;
    *width = ossai_lane_resolve_width(width_field);
    if (!*width)
        return OSSA_ERR_BAD_ARGUMENT;
    const int floats = ossa_lane_model_floats(joint_count, character_count, *width);
    if (!floats)
        return OSSA_ERR_BAD_ARGUMENT;
    return model_count < floats ? OSSA_ERR_INPUT_TOO_SMALL : OSSA_OK;
}

/* Every processed character of batches [begin, end) has an output. */
ossa_result ossai_lane_check_outputs(ossa_mat34 *const *outputs, int begin, int end, int width,
                                     int character_count)
{
    for (int c = begin * width; c < end * width && c < character_count; ++c)
        if (!outputs[c])
            return OSSA_ERR_MISSING_OUTPUT;
    return OSSA_OK;
}

ossa_result ossa_lane_palette_job_validate(const ossa_lane_palette_job *job)
{
    if (!job)
        return OSSA_ERR_MISSING_INPUT;
    int width;
    ossa_result r = ossai_lane_model_input(job->model, job->model_count, job->joint_count,
                                           job->character_count, job->width, &width);
    if (r != OSSA_OK)
        return r;
    const int skins = skin_count(job);
    if (skins < 1)
        return OSSA_ERR_INPUT_TOO_SMALL;
    if (job->skin_joint) {
        if ((r = ossai_check_skin_joints(job->skin_joint, skins, job->joint_count)))
            return r;
    } else if (skins > job->joint_count) {
        return OSSA_ERR_BAD_INDEX;
    }
    int begin, end;
    if ((r = ossai_job_range(job->batch_begin, job->batch_end,
                             ossa_lane_batch_count(job->character_count, width), &begin, &end)) ||
        (r = ossai_simd_check(job->path, width)))
        return r;
    if (job->outputs)
        return ossai_lane_check_outputs(job->outputs, begin, end, width, job->character_count);
    if (!job->palette)
        return OSSA_ERR_MISSING_OUTPUT;
    if (job->palette_count < (int64_t)job->character_count * skins)
        return OSSA_ERR_OUTPUT_TOO_SMALL;
    return OSSA_OK;
}

void ossai_lane_matrices_out(ossai_lane_palette_args *args, const ossai_lane_plan *plan,
                             const float *model, int characters, ossa_mat34 *const *outputs,
                             ossa_mat34 *contiguous)
{
    static void (*const kernels[])(const ossai_lane_palette_args *) =
        OSSAI_SIMD_TABLE(ossai_palette_kernel);
    const int width = plan->width;
    const size_t per_character = (size_t)args->skin_joint_count;
    for (int b = plan->begin; b < plan->end; ++b) {
        for (int l = 0; l < width; ++l) {
            const int c = b * width + l;
            args->output[l] = c >= characters ? NULL
                              : outputs      ? outputs[c]
                                             : contiguous + (size_t)c * per_character;
        }
        args->model = model + (size_t)b * (size_t)args->joint_count * OSSAI_MODEL_C *
                                  (size_t)width;
        kernels[plan->path](args);
    }
}

ossa_result ossa_lane_palette_job_run(const ossa_lane_palette_job *job)
{
    ossa_result r = ossa_lane_palette_job_validate(job);
    if (r != OSSA_OK)
        return r;
    const ossai_lane_plan plan = ossai_lane_plan_make(job->path, job->width, job->character_count,
                                                      job->batch_begin, job->batch_end);
    ossai_lane_palette_args args;
    args.joint_count = job->joint_count;
    args.width = plan.width;
    args.skin_joint = job->skin_joint;
    args.inverse_bind = job->inverse_bind;
    args.skin_joint_count = skin_count(job);
    args.stream = false; /* skinning reads the palettes next: keep them in cache */
    ossai_lane_matrices_out(&args, &plan, job->model, job->character_count, job->outputs,
                            job->palette);
    return OSSA_OK;
}
