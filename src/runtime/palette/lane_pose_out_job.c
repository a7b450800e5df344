/* lane_pose_out_job.c - lane models -> each character's joint transforms
 * (the lanes' result handed back to a game): validation and set-up; the
 * transposes are palette_kernels.c's, with no skin map. */
#include "ossa/lanes.h"

#include "core/job_internal.h"
#include "palette/palette_lanes.h"

ossa_result ossa_lane_pose_out_job_validate(const ossa_lane_pose_out_job *job)
{
    if (!job)
        return OSSA_ERR_MISSING_INPUT;
    int width, begin, end;
    ossa_result r = ossai_lane_model_input(job->model, job->model_count, job->joint_count,
                                           job->character_count, job->width, &width);
    if (r != OSSA_OK ||
        (r = ossai_job_range(job->batch_begin, job->batch_end,
                             ossa_lane_batch_count(job->character_count, width), &begin, &end)) ||
        (r = ossai_simd_check(job->path, width)))
        return r;
    if (job->outputs)
        return ossai_lane_check_outputs(job->outputs, begin, end, width, job->character_count);
    if (!job->poses)
        return OSSA_ERR_MISSING_OUTPUT;
    if (job->pose_count < (int64_t)job->character_count * job->joint_count)
        return OSSA_ERR_OUTPUT_TOO_SMALL;
    return OSSA_OK;
}

ossa_result ossa_lane_pose_out_job_run(const ossa_lane_pose_out_job *job)
{
    ossa_result r = ossa_lane_pose_out_job_validate(job);
    if (r != OSSA_OK)
        return r;
    const ossai_lane_plan plan = ossai_lane_plan_make(job->path, job->width, job->character_count,
                                                      job->batch_begin, job->batch_end);
    ossai_lane_palette_args args;
    args.joint_count = job->joint_count;
    args.width = plan.width;
    args.skin_joint = NULL; /* no skin map, no inverse binds: the model rows themselves */
    args.inverse_bind = NULL;
    args.skin_joint_count = job->joint_count;
    args.stream = job->stream_output;
    ossai_lane_matrices_out(&args, &plan, job->model, job->character_count, job->outputs,
                            job->poses);
    return OSSA_OK;
}
