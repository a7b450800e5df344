/* lane_sampling_job.c - clips at per-character playheads -> lane poses:
 * validation and per-batch set-up; the interpolation is in lane_kernels.inc. */
#include "ossa/lanes.h"

#include "format.h"
#include "lane_internal.h"
#include "sampling_internal.h"

ossa_result ossa_lane_sampling_job_validate(const ossa_lane_sampling_job *job)
{
    if (!job || !job->clips)
        return OSSA_ERR_MISSING_INPUT;
    if (job->clip_count < 1)
        return OSSA_ERR_INPUT_TOO_SMALL;
    for (int k = 0; k < job->clip_count; ++k)
        if (!job->clips[k])
            return OSSA_ERR_MISSING_INPUT;
    const uint32_t joints = job->clips[0]->joint_count;
    for (int k = 1; k < job->clip_count; ++k)
        if (job->clips[k]->joint_count != joints)
            return OSSA_ERR_COUNT_MISMATCH;
    if (!job->time_s)
        return OSSA_ERR_MISSING_INPUT;
    if (job->time_count < 1)
        return OSSA_ERR_INPUT_TOO_SMALL;
    const int n = job->time_count;
    if (job->clip_index && job->clip_index_count < n)
        return OSSA_ERR_INPUT_TOO_SMALL;
    const int width = ossai_lane_resolve_width(job->width);
    if (!width || (unsigned)job->wrap >= OSSA_WRAP_COUNT)
        return OSSA_ERR_BAD_ARGUMENT;
    int begin, end;
    ossa_result r = ossai_lane_range(job->batch_begin, job->batch_end,
                                     ossa_lane_batch_count(n, width), &begin, &end);
    if (r != OSSA_OK)
        return r;
    if (job->clip_index) {
        const int last = end * width < n ? end * width : n;
        for (int i = begin * width; i < last; ++i)
            if (job->clip_index[i] >= job->clip_count)
                return OSSA_ERR_BAD_INDEX;
    }
    if (!ossai_lane_select(job->path, width))
        return (unsigned)job->path >= OSSA_LANE_PATH_COUNT ? OSSA_ERR_BAD_ARGUMENT
                                                           : OSSA_ERR_UNSUPPORTED;
    if (!job->output)
        return OSSA_ERR_MISSING_OUTPUT;
    if (job->output_count < ossa_lane_pose_floats((int)joints, n, width))
        return OSSA_ERR_OUTPUT_TOO_SMALL;
    return OSSA_OK;
}

ossa_result ossa_lane_sampling_job_run(const ossa_lane_sampling_job *job)
{
    return ossai_lane_sampling_job_run_with(job, 0);
}

ossa_result ossai_lane_sampling_job_run_with(const ossa_lane_sampling_job *job, int gather)
{
    ossa_result r = ossa_lane_sampling_job_validate(job);
    if (r != OSSA_OK)
        return r;
    const int n = job->time_count, width = ossai_lane_resolve_width(job->width);
    const ossai_lane_kernels *kernels = ossai_lane_select(job->path, width);
    void (*kernel)(const ossai_lane_sample_args *) =
        gather && kernels->sample_gather ? kernels->sample_gather : kernels->sample;
    int begin, end;
    ossai_lane_range(job->batch_begin, job->batch_end, ossa_lane_batch_count(n, width), &begin,
                     &end);
    const int joints = (int)job->clips[0]->joint_count;
    const size_t batch_floats = (size_t)joints * OSSAI_POSE_C * (size_t)width;
    ossai_lane_sample_args args;
    args.stride = job->clips[0]->joint_stride;
    args.joint_count = joints;
    args.width = width;
    for (int b = begin; b < end; ++b) {
        for (int l = 0; l < width; ++l) {
            /* lanes past the last character repeat the batch's first one */
            const int c = b * width + l < n ? b * width + l : b * width;
            const ossa_clip *clip = job->clips[job->clip_index ? job->clip_index[c] : 0];
            uint32_t f0;
            ossai_clip_locate(clip, ossa_clip_time(job->wrap, clip->duration, job->time_s[c]),
                              &f0, &args.alpha[l]);
            const uint32_t frame_floats = ossai_clip_frame_floats(clip);
            args.frame_a[l] = ossai_clip_frames(clip) + (size_t)f0 * frame_floats;
            args.frame_b[l] = clip->frame_count > 1 ? args.frame_a[l] + frame_floats
                                                    : args.frame_a[l];
            args.steps[l] = (clip->flags & OSSAI_CLIP_HAS_STEP) ? ossai_clip_steps(clip) : NULL;
        }
        args.output = job->output + (size_t)b * batch_floats;
        kernel(&args);
    }
    return OSSA_OK;
}
