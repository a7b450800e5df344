/* sampling_job.c - clip keys at a time -> local pose. */
#include "ossa/sampling_job.h"

#include <float.h>
#include <stdbool.h>

#include "blob/format.h"
#include "core/job_internal.h"
#include "core/math_internal.h"
#include "sample/packed_clip.h"
#include "sample/sampling_internal.h"

/* a (1 - t) + b t: exactly a at t = 0 and exactly b at t = 1, so sampling at
 * a key's time returns the key. */
static inline float lerp_exact(float a, float b, float t)
{
    return a * (1.0f - t) + b * t;
}

static inline ossa_transform sample_joint(const ossa_clip *clip, const float *a, const float *b,
                                          uint32_t j, float alpha, ossa_rotation_interp interp,
                                          bool has_step)
{
    const uint32_t s = clip->joint_stride;
    float at = alpha, ar = alpha, as = alpha;
    if (has_step) {
        const uint8_t step = ossai_clip_steps(clip)[j];
        const float held = ossai_step_alpha(alpha);
        at = (step & OSSAI_STEP_T) ? held : alpha;
        ar = (step & OSSAI_STEP_R) ? held : alpha;
        as = (step & OSSAI_STEP_S) ? held : alpha;
    }
    ossa_transform out;
    out.translation.x = lerp_exact(a[OSSAI_TX * s + j], b[OSSAI_TX * s + j], at);
    out.translation.y = lerp_exact(a[OSSAI_TY * s + j], b[OSSAI_TY * s + j], at);
    out.translation.z = lerp_exact(a[OSSAI_TZ * s + j], b[OSSAI_TZ * s + j], at);
    out.scale.x = lerp_exact(a[OSSAI_SX * s + j], b[OSSAI_SX * s + j], as);
    out.scale.y = lerp_exact(a[OSSAI_SY * s + j], b[OSSAI_SY * s + j], as);
    out.scale.z = lerp_exact(a[OSSAI_SZ * s + j], b[OSSAI_SZ * s + j], as);
    ossa_quat qa = ossai_quat(a[OSSAI_QX * s + j], a[OSSAI_QY * s + j], a[OSSAI_QZ * s + j],
                              a[OSSAI_QW * s + j]);
    ossa_quat qb = ossai_quat(b[OSSAI_QX * s + j], b[OSSAI_QY * s + j], b[OSSAI_QZ * s + j],
                              b[OSSAI_QW * s + j]);
    if (ar == 0.0f)
        out.rotation = qa; /* stored keys are unit: the key itself, exactly */
    else if (ar == 1.0f)
        out.rotation = qb;
    else if (interp == OSSA_ROTATION_SLERP)
        out.rotation = ossai_quat_slerp(qa, qb, ar);
    else
        out.rotation = ossai_quat_nlerp(qa, qb, ar);
    return out;
}

ossa_transform ossa_clip_sample_joint(const ossa_clip *clip, const ossa_transform *rest_pose,
                                      int joint, float t_s, ossa_rotation_interp rotation_interp)
{
    if (clip->flags & OSSAI_CLIP_PACKED) {
        ossa_transform x;
        ossai_packed_sample(clip, rest_pose, t_s, rotation_interp, joint, 1, &x);
        return x;
    }
    const float *a, *b;
    float alpha;
    ossai_clip_frames_at(clip, t_s, &a, &b, &alpha);
    return sample_joint(clip, a, b, (uint32_t)joint, alpha, rotation_interp,
                        (clip->flags & OSSAI_CLIP_HAS_STEP) != 0);
}

ossa_result ossa_sampling_job_validate(const ossa_sampling_job *job)
{
    if (!job)
        return OSSA_ERR_MISSING_INPUT;
    ossa_result r = ossai_check_sampling_inputs(job->clips, job->clip_count, job->time_s,
                                                job->character_count, job->clip_index,
                                                job->clip_index_count);
    if (r != OSSA_OK)
        return r;
    const int n = job->character_count;
    int begin, end;
    if ((r = ossai_job_range(job->character_begin, job->character_end, n, &begin, &end)) ||
        (r = ossai_check_played_clips(job->clips, job->clip_count, job->clip_index, begin, end,
                                      job->rest_pose, job->rest_pose_count)))
        return r;
    if ((unsigned)job->wrap >= OSSA_WRAP_COUNT ||
        (unsigned)job->rotation_interp >= OSSA_ROTATION_COUNT)
        return OSSA_ERR_BAD_ARGUMENT;
    if (!job->output)
        return OSSA_ERR_MISSING_OUTPUT;
    if ((int64_t)job->output_count < (int64_t)n * job->clips[0]->joint_count)
        return OSSA_ERR_OUTPUT_TOO_SMALL;
    return OSSA_OK;
}

ossa_result ossa_sampling_job_run(const ossa_sampling_job *job)
{
    ossa_result r = ossa_sampling_job_validate(job);
    if (r != OSSA_OK)
        return r;
    int begin = job->character_begin, end = job->character_end;
    if (begin == 0 && end == 0)
        end = job->character_count;
    const uint32_t joints = job->clips[0]->joint_count;
    for (int i = begin; i < end; ++i) {
        const ossa_clip *clip = job->clips[job->clip_index ? job->clip_index[i] : 0];
        ossa_transform *out = job->output + (size_t)i * joints;
        if (clip->flags & OSSAI_CLIP_PACKED) {
            ossai_packed_sample(clip, job->rest_pose,
                                ossa_clip_time(job->wrap, clip->duration, job->time_s[i]),
                                job->rotation_interp, 0, (int)joints, out);
            continue;
        }
        const float *a, *b;
        float alpha;
        ossai_clip_frames_at(clip, ossa_clip_time(job->wrap, clip->duration, job->time_s[i]), &a,
                             &b, &alpha);
        /* Two copies of the loop, so that clips without STEP tracks (most)
         * pay nothing for them. */
        if (clip->flags & OSSAI_CLIP_HAS_STEP)
            for (uint32_t j = 0; j < joints; ++j)
                out[j] = sample_joint(clip, a, b, j, alpha, job->rotation_interp, true);
        else
            for (uint32_t j = 0; j < joints; ++j)
                out[j] = sample_joint(clip, a, b, j, alpha, job->rotation_interp, false);
    }
    return OSSA_OK;
}
