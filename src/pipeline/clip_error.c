/* clip_error.c - the error a built clip makes against its source curves, in
 * the clip metric: the runtime's own sampler against the curves evaluated in
 * double, through the hierarchy, at every frame, at three points inside
 * every interval between frames and at every source key (where a
 * piecewise-linear source bends). */
#include "clip_error.h"

#include <math.h>

#include "ossa/sampling_job.h"

ossa_result ossai_clip_error_measure(const ossa_clip *clip, const ossa_skeleton *skeleton,
                                     const ossa_raw_joint_track *const *tracks,
                                     double duration, const double *distance,
                                     const ossa_allocator *allocator, ossai_clip_error *out)
{
    out->error = 0.0;
    out->joint = -1;
    out->time_s = 0.0;
    const int n = ossa_skeleton_joint_count(skeleton);
    double *times = NULL;
    const int count =
        ossai_metric_times(tracks, n, duration, ossa_clip_frame_count(clip), allocator, &times);
    ossai_dxf *pose = ossa_alloc(allocator, sizeof *pose * 2 * (size_t)n, 16);
    ossa_transform *local = ossa_alloc(allocator, sizeof *local * (size_t)n, 16);
    if (count < 0 || !pose || !local) {
        ossa_free(allocator, times);
        ossa_free(allocator, pose);
        ossa_free(allocator, local);
        return OSSA_ERR_OUT_OF_MEMORY;
    }
    ossai_dxf *source = pose, *sampled = pose + n;
    const uint16_t *parents = ossa_skeleton_parents(skeleton);
    const ossa_transform *rest = ossa_skeleton_rest_pose(skeleton);
    /* the whole pose at once (a compressed clip's frames decoded once, not
     * once per joint); the times lie in [0, duration], which clamping keeps
     * as they are */
    ossa_sampling_job job = {0};
    job.clips = &clip;
    job.clip_count = 1;
    job.character_count = 1;
    job.wrap = OSSA_WRAP_CLAMP;
    job.rotation_interp = OSSA_ROTATION_NLERP;
    job.rest_pose = rest;
    job.rest_pose_count = rest ? n : 0;
    job.output = local;
    job.output_count = n;
    ossa_result r = OSSA_OK;
    for (int i = 0; i < count && r == OSSA_OK; ++i) {
        const double t = times[i]; /* a float already, as a playhead */
        const float playhead = (float)t;
        job.time_s = &playhead;
        if ((r = ossa_sampling_job_run(&job)) != OSSA_OK)
            break;
        ossai_source_local(tracks, rest, n, t, source);
        for (int j = 0; j < n; ++j)
            sampled[j] = ossai_dxf_from_transform(&local[j]);
        ossai_dxf_to_model(parents, n, source, source);
        ossai_dxf_to_model(parents, n, sampled, sampled);
        for (int j = 0; j < n; ++j) {
            const double e = ossai_point_error(&source[j], &sampled[j], distance[j]);
            if (e > out->error || !(e == e)) {
                out->error = e == e ? e : INFINITY;
                out->joint = j;
                out->time_s = t;
            }
        }
    }
    ossa_free(allocator, times);
    ossa_free(allocator, pose);
    ossa_free(allocator, local);
    return r;
}
