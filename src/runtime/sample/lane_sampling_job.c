/* lane_sampling_job.c - clips at per-character playheads -> lane poses:
 * validation and per-batch set-up; the interpolation is in sample_kernels.c. */
#include "ossa/lanes.h"

#include <stdint.h>

#include "blob/format.h"
#include "core/cpu.h"
#include "core/job_internal.h"
#include "core/simd.h"
#include "sample/packed_clip.h"
#include "sample/sample_lanes.h"
#include "sample/sampling_internal.h"

ossa_result ossa_lane_sampling_job_validate(const ossa_lane_sampling_job *job)
{
    if (!job)
        return OSSA_ERR_MISSING_INPUT;
    ossa_result r = ossai_check_sampling_inputs(job->clips, job->clip_count, job->time_s,
                                                job->character_count, job->clip_index,
                                                job->clip_index_count);
    if (r != OSSA_OK)
        return r;
    const int n = job->character_count;
    const int width = ossai_lane_resolve_width(job->width);
    if (!width || (unsigned)job->wrap >= OSSA_WRAP_COUNT)
        return OSSA_ERR_BAD_ARGUMENT;
    int begin, end;
    if ((r = ossai_job_range(job->batch_begin, job->batch_end, ossa_lane_batch_count(n, width),
                             &begin, &end)) ||
        (r = ossai_check_played_clips(job->clips, job->clip_count, job->clip_index,
                                      begin * width, end * width < n ? end * width : n,
                                      job->rest_pose, job->rest_pose_count)) ||
        (r = ossai_simd_check(job->path, width)))
        return r;
    if (!job->output)
        return OSSA_ERR_MISSING_OUTPUT;
    const int floats = ossa_lane_pose_floats((int)job->clips[0]->joint_count, n, width);
    if (!floats)
        return OSSA_ERR_BAD_ARGUMENT; /* more floats than an int counts */
    if (job->output_count < floats)
        return OSSA_ERR_OUTPUT_TOO_SMALL;
    return OSSA_OK;
}

/* Batch b's lanes resolved into a: each lane's clip and frame pair, and
 * with prefetch its compressed clip's lines asked for (ossai_packed_prefetch).
 * Returns whether a lane plays a compressed clip (the batch then takes the
 * packed kernel). */
static int batch_resolve(const ossa_lane_sampling_job *job, int b, int width,
                         ossai_lane_sample_args *a, bool prefetch)
{
    const int n = job->character_count;
    int packed = 0;
    const ossa_clip *last = NULL; /* the clip whose whole lines were asked for last */
    for (int l = 0; l < width; ++l) {
        /* lanes past the last character repeat the batch's first one */
        const int c = b * width + l < n ? b * width + l : b * width;
        const ossa_clip *clip = job->clips[job->clip_index ? job->clip_index[c] : 0];
        const float t = ossa_clip_time(job->wrap, clip->duration, job->time_s[c]);
        if (clip->flags & OSSAI_CLIP_PACKED) {
            ossai_clip_locate(clip, t, &a->frame[l], &a->alpha[l]);
            if (prefetch) /* a clip's masks, constants and ranges once for a run of its lanes */
                ossai_packed_prefetch(clip, a->frame[l], clip != last);
            last = clip;
            a->packed[l] = clip;
            packed = 1;
            continue;
        }
        a->packed[l] = NULL;
        ossai_clip_frames_at(clip, t, &a->frame_a[l], &a->frame_b[l], &a->alpha[l]);
        a->steps[l] = (clip->flags & OSSAI_CLIP_HAS_STEP) ? ossai_clip_steps(clip) : NULL;
    }
    return packed;
}

ossa_result ossa_lane_sampling_job_prefetch(const ossa_lane_sampling_job *job)
{
    ossa_result r = ossa_lane_sampling_job_validate(job);
    if (r != OSSA_OK)
        return r;
    const ossai_lane_plan plan = ossai_lane_plan_make(job->path, job->width, job->character_count,
                                                      job->batch_begin, job->batch_end);
    ossai_lane_sample_args scratch;
    for (int b = plan.begin; b < plan.end; ++b)
        (void)batch_resolve(job, b, plan.width, &scratch, true);
    return OSSA_OK;
}

ossa_result ossa_lane_sampling_job_run(const ossa_lane_sampling_job *job)
{
    ossa_result r = ossa_lane_sampling_job_validate(job);
    if (r != OSSA_OK)
        return r;
    const int n = job->character_count;
    const ossai_lane_plan plan =
        ossai_lane_plan_make(job->path, job->width, n, job->batch_begin, job->batch_end);
    const int width = plan.width;
    static void (*const kernels[])(const ossai_lane_sample_args *) =
        OSSAI_SIMD_TABLE(ossai_sample_kernel);
    static void (*const packed_kernels[])(const ossai_lane_sample_args *) =
        OSSAI_SIMD_TABLE(ossai_packed_kernel);
    const int joints = (int)job->clips[0]->joint_count;
    const size_t batch_floats = (size_t)joints * OSSAI_POSE_C * (size_t)width;
    ossai_lane_sample_args args[2];
    args[0].stride = job->clips[0]->joint_stride;
    args[0].joint_count = joints;
    args[0].width = width;
    args[0].rest = job->rest_pose;
    args[0].funnel = (ossai_cpu_features() & OSSAI_CPU_VBMI2) != 0;
    /* kernels stream only where a batch's rows fill whole lines in turn
     * (streams_rows: a row is one 64-byte vector, or a joint's ten rows
     * are five lines): a batch is then a whole number of lines, so with the
     * output 64-byte aligned every line of every batch is */
    args[0].stream = job->stream_output && ((uintptr_t)job->output & 63u) == 0;
    args[1] = args[0];
    /* with prefetch_ahead, batch b + 1 is resolved (and its lines asked
     * for) before batch b is sampled; the first batch's lines are read at
     * once, so asking for them buys nothing */
    const bool ahead = job->prefetch_ahead;
    int packed[2] = {0, 0};
    if (plan.begin < plan.end)
        packed[0] = batch_resolve(job, plan.begin, width, &args[0], false);
    for (int b = plan.begin, at = 0; b < plan.end; ++b) {
        if (ahead) {
            if (b + 1 < plan.end)
                packed[at ^ 1] = batch_resolve(job, b + 1, width, &args[at ^ 1], true);
        } else if (b > plan.begin)
            packed[at] = batch_resolve(job, b, width, &args[at], false);
        args[at].output = job->output + (size_t)b * batch_floats;
        (packed[at] ? packed_kernels : kernels)[plan.path](&args[at]);
        at ^= ahead;
    }
    if (args[0].stream)
        ossai_stream_fence(); /* once: the streamed rows are visible before the job returns */
    return OSSA_OK;
}
