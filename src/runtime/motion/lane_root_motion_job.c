/* lane_root_motion_job.c - root motion between two playheads for characters
 * in SIMD lanes: validation and per-batch gathering; the arithmetic is in
 * motion_kernels.c. */
#include "ossa/root_motion.h"

#include "core/job_internal.h"
#include "motion/motion_internal.h"
#include "motion/motion_lanes.h"

ossa_result ossa_lane_root_motion_job_validate(const ossa_lane_root_motion_job *job)
{
    if (!job)
        return OSSA_ERR_MISSING_INPUT;
    ossa_result r = ossai_check_motion_inputs(job->clips, job->clip_count, job->clip_index,
                                              job->clip_index_count, job->from_s, job->to_s,
                                              job->character_count);
    if (r != OSSA_OK)
        return r;
    const int n = job->character_count;
    const int width = ossai_lane_resolve_width(job->width);
    if (!width)
        return OSSA_ERR_BAD_ARGUMENT;
    int begin, end;
    if ((r = ossai_job_range(job->batch_begin, job->batch_end, ossa_lane_batch_count(n, width),
                             &begin, &end)) ||
        (r = ossai_check_motion_range(job->clips, job->clip_index, job->clip_count,
                                      job->from_s, job->to_s,
                                      begin * width, end * width < n ? end * width : n)) ||
        (r = ossai_simd_check(job->path, width)))
        return r;
    if (!job->output)
        return OSSA_ERR_MISSING_OUTPUT;
    if (job->output_count < n)
        return OSSA_ERR_OUTPUT_TOO_SMALL;
    return OSSA_OK;
}

ossa_result ossa_lane_root_motion_job_run(const ossa_lane_root_motion_job *job)
{
    ossa_result r = ossa_lane_root_motion_job_validate(job);
    if (r != OSSA_OK)
        return r;
    const int n = job->character_count;
    const ossai_lane_plan plan =
        ossai_lane_plan_make(job->path, job->width, n, job->batch_begin, job->batch_end);
    static void (*const kernels[])(ossai_lane_motion_args *) =
        OSSAI_SIMD_TABLE(ossai_motion_kernel);
    ossai_lane_motion_args args;
    args.width = plan.width;
    for (int b = plan.begin; b < plan.end; ++b) {
        const int first = b * plan.width, count = n - first < plan.width ? n - first : plan.width;
        for (int l = 0; l < plan.width; ++l) {
            /* lanes past the last character repeat the batch's first one */
            const int c = l < count ? first + l : first;
            const ossa_clip *clip = job->clips[job->clip_index ? job->clip_index[c] : 0];
            /* a clip without motion: two zero frames of a 1 s clip */
            const ossai_clip_tracks *m = ossai_clip_motion(clip);
            args.from[l] = job->from_s[c];
            args.to[l] = job->to_s[c];
            args.motion[l] = m;
            args.duration[l] = m ? clip->duration : 1.0f;
            args.rate[l] = m ? clip->rate : 1.0f;
            args.last_pair[l] = m ? (float)(clip->frame_count - 2) : 0.0f;
        }
        kernels[plan.path](&args);
        for (int l = 0; l < count; ++l)
            job->output[first + l] =
                (ossa_root_motion){args.out[0][l], args.out[1][l], args.out[2][l]};
    }
    return OSSA_OK;
}
