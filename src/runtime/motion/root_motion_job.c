/* root_motion_job.c - the motion of each character's clip between two
 * playheads: the readable reference the lane job is tested against. */
#include "ossa/root_motion.h"

#include <math.h>

#include "core/job_internal.h"
#include "motion/motion_internal.h"

ossa_result ossa_root_motion_job_validate(const ossa_root_motion_job *job)
{
    if (!job)
        return OSSA_ERR_MISSING_INPUT;
    ossa_result r = ossai_check_motion_inputs(job->clips, job->clip_count, job->clip_index,
                                              job->clip_index_count, job->from_s, job->to_s,
                                              job->character_count);
    if (r != OSSA_OK)
        return r;
    int begin, end;
    if ((r = ossai_job_range(job->character_begin, job->character_end, job->character_count,
                             &begin, &end)) ||
        (r = ossai_check_motion_range(job->clips, job->clip_index, job->clip_count,
                                      job->from_s, job->to_s, begin, end)))
        return r;
    if (!job->output)
        return OSSA_ERR_MISSING_OUTPUT;
    if (job->output_count < job->character_count)
        return OSSA_ERR_OUTPUT_TOO_SMALL;
    return OSSA_OK;
}

/* The motion from u0 to u1 of a clip with a motion track:
 * M(t0)^-1 L^n M(t1), n the loops between. L^n's translation is the sum of
 * the loop's translation turned by 0, yaw_L, ..., (n - 1) yaw_L: a geometric
 * series, sin(n a / 2) / sin(a / 2) times the translation turned by
 * (n - 1) a / 2 (n itself when the loop does not turn); it holds for n < 0. */
static ossa_root_motion between(const ossa_clip *clip, float u0, float u1)
{
    float t0, t1;
    const float n = ossai_motion_split(u1, clip->duration, &t1) -
                    ossai_motion_split(u0, clip->duration, &t0);
    const ossa_root_motion m0 = ossa_clip_root_motion_at(clip, t0);
    const ossa_root_motion m1 = ossa_clip_root_motion_at(clip, t1);
    const ossa_root_motion loop = ossa_clip_loop_motion(clip);
    const float half = 0.5f * loop.yaw_rad;
    const float ratio = fabsf(half) < 1e-6f ? n : sinf(n * half) / sinf(half);
    const float turn_n = (n - 1.0f) * half, yaw_n = n * loop.yaw_rad;
    float c = cosf(turn_n), s = sinf(turn_n);
    /* q = L^n's translation + M(t1)'s turned by n loops - M(t0)'s */
    float qx = ratio * (loop.x * c + loop.z * s), qz = ratio * (loop.z * c - loop.x * s);
    c = cosf(yaw_n);
    s = sinf(yaw_n);
    qx += m1.x * c + m1.z * s - m0.x;
    qz += m1.z * c - m1.x * s - m0.z;
    /* ... seen from the frame at u0 */
    c = cosf(m0.yaw_rad);
    s = sinf(m0.yaw_rad);
    ossa_root_motion out;
    out.x = qx * c - qz * s;
    out.z = qz * c + qx * s;
    out.yaw_rad = m1.yaw_rad - m0.yaw_rad + yaw_n;
    return out;
}

ossa_result ossa_root_motion_job_run(const ossa_root_motion_job *job)
{
    ossa_result r = ossa_root_motion_job_validate(job);
    if (r != OSSA_OK)
        return r;
    int begin = job->character_begin, end = job->character_end;
    if (begin == 0 && end == 0)
        end = job->character_count;
    for (int i = begin; i < end; ++i) {
        const ossa_clip *clip = job->clips[job->clip_index ? job->clip_index[i] : 0];
        job->output[i] = ossai_clip_motion(clip)
                             ? between(clip, job->from_s[i], job->to_s[i])
                             : (ossa_root_motion){0.0f, 0.0f, 0.0f};
    }
    return OSSA_OK;
}
