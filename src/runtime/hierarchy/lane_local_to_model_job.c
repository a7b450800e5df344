/* lane_local_to_model_job.c - the hierarchy walk for W characters at once:
 * validation and per-batch set-up; the maths is in hierarchy_kernels.c. */
#include "ossa/lanes.h"
#include "ossa/skeleton.h"

#include "core/job_internal.h"
#include "hierarchy/hierarchy_lanes.h"

ossa_result ossa_lane_local_to_model_job_validate(const ossa_lane_local_to_model_job *job)
{
    if (!job || !job->parents)
        return OSSA_ERR_MISSING_INPUT;
    ossa_result r = ossai_check_joint_count(job->joint_count);
    if (r != OSSA_OK)
        return r;
    if (!job->local)
        return OSSA_ERR_MISSING_INPUT;
    if (job->character_count < 1)
        return OSSA_ERR_INPUT_TOO_SMALL;
    const int width = ossai_lane_resolve_width(job->width);
    if (!width)
        return OSSA_ERR_BAD_ARGUMENT;
    const int floats = ossa_lane_pose_floats(job->joint_count, job->character_count, width);
    if (!floats || !ossa_lane_model_floats(job->joint_count, job->character_count, width))
        return OSSA_ERR_BAD_ARGUMENT; /* more floats than an int counts */
    if (job->local_count < floats)
        return OSSA_ERR_INPUT_TOO_SMALL;
    if (job->root && job->root_count < job->character_count)
        return OSSA_ERR_INPUT_TOO_SMALL;
    int begin, end;
    if ((r = ossai_job_range(job->batch_begin, job->batch_end,
                             ossa_lane_batch_count(job->character_count, width), &begin, &end)) ||
        (r = ossai_check_parents(job->parents, job->joint_count)) ||
        (r = ossai_simd_check(job->path, width)))
        return r;
    if (!job->model)
        return OSSA_ERR_MISSING_OUTPUT;
    if (job->model_count < ossa_lane_model_floats(job->joint_count, job->character_count, width))
        return OSSA_ERR_OUTPUT_TOO_SMALL;
    return OSSA_OK;
}

ossa_result ossa_lane_local_to_model_job_run(const ossa_lane_local_to_model_job *job)
{
    ossa_result r = ossa_lane_local_to_model_job_validate(job);
    if (r != OSSA_OK)
        return r;
    const int n = job->character_count;
    const ossai_lane_plan plan =
        ossai_lane_plan_make(job->path, job->width, n, job->batch_begin, job->batch_end);
    const int width = plan.width;
    const size_t joints = (size_t)job->joint_count;
    _Alignas(64) float root[OSSAI_MODEL_C * OSSAI_LANES];
    static void (*const kernels[])(const ossai_lane_l2m_args *) =
        OSSAI_SIMD_TABLE(ossai_local_to_model_kernel);
    ossai_lane_l2m_args args;
    args.parents = job->parents;
    args.joint_count = job->joint_count;
    args.width = width;
    args.root = job->root ? root : NULL;
    for (int b = plan.begin; b < plan.end; ++b) {
        if (job->root)
            for (int l = 0; l < width; ++l) {
                const int c = b * width + l < n ? b * width + l : b * width;
                for (int k = 0; k < OSSAI_MODEL_C; ++k)
                    root[k * width + l] = job->root[c].m[k / 4][k % 4];
            }
        args.local = job->local + (size_t)b * joints * OSSAI_POSE_C * (size_t)width;
        args.model = job->model + (size_t)b * joints * OSSAI_MODEL_C * (size_t)width;
        kernels[plan.path](&args);
    }
    return OSSA_OK;
}
