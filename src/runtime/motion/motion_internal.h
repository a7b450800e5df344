/* motion_internal.h - what the root motion reference job (root_motion_job.c)
 * and the lane job share: their input checks, the split of a playhead into
 * whole loops and clip time, and where a clip time falls in the motion
 * track. The lane kernel (motion_kernels.c) evaluates the same formulas. */
#ifndef OSSA_MOTION_INTERNAL_H
#define OSSA_MOTION_INTERNAL_H

#include <math.h>

#include "blob/format.h"
#include "ossa/result.h"
#include "ossa/root_motion.h"

/* The tracks block holding a clip's motion, or NULL when it has none (a
 * clip without a motion track, or of one frame, does not move); its frames
 * through ossai_tracks_motion_frame (raw or packed). */
static inline const ossai_clip_tracks *ossai_clip_motion(const ossa_clip *clip)
{
    const ossai_clip_tracks *t = ossai_clip_tracks_of(clip);
    return t && (t->flags & OSSAI_TRACKS_HAS_MOTION) && clip->frame_count > 1 ? t : NULL;
}

/* An unwrapped playhead u = loops * duration + t, t in [0, duration]: the
 * rounding of u - loops * duration may land just outside, which is clamped
 * (M is continuous across a loop's end, so that costs nothing). */
static inline float ossai_motion_split(float u, float duration, float *t)
{
    const float loops = floorf(u / duration);
    const float r = u - loops * duration;
    *t = r < 0.0f ? 0.0f : (r > duration ? duration : r);
    return loops;
}

/* Frame pair (f, f + 1) and factor of clip time t in [0, duration] for a
 * clip of frame_count >= 2 frames. */
static inline uint32_t ossai_motion_locate(float t, float rate, uint32_t frame_count, float *alpha)
{
    const float u = t * rate, last = (float)(frame_count - 2);
    float f = floorf(u);
    f = f > last ? last : f;
    const float a = u - f;
    *alpha = a < 0.0f ? 0.0f : (a > 1.0f ? 1.0f : a);
    return (uint32_t)f;
}

/* The clips (at least one), the playheads and the clip indices, shared by
 * both jobs' validation; the clips the characters play are checked with
 * their range (ossai_check_motion_range): a job reads no other. */
static inline ossa_result ossai_check_motion_inputs(const ossa_clip *const *clips, int clip_count,
                                                    const uint16_t *clip_index,
                                                    int clip_index_count, const float *from_s,
                                                    const float *to_s, int character_count)
{
    if (!clips)
        return OSSA_ERR_MISSING_INPUT;
    if (clip_count < 1)
        return OSSA_ERR_INPUT_TOO_SMALL;
    if (!from_s || !to_s)
        return OSSA_ERR_MISSING_INPUT;
    if (character_count < 1)
        return OSSA_ERR_INPUT_TOO_SMALL;
    if (clip_index && clip_index_count < character_count)
        return OSSA_ERR_INPUT_TOO_SMALL;
    return OSSA_OK;
}

/* Characters [first, last): clip indices in range, the clips they play
 * present, playheads finite. */
static inline ossa_result ossai_check_motion_range(const ossa_clip *const *clips,
                                                   const uint16_t *clip_index, int clip_count,
                                                   const float *from_s, const float *to_s,
                                                   int first, int last)
{
    int checked = -1; /* the clip checked last: characters in runs check it once */
    for (int i = first; i < last; ++i) {
        const int k = clip_index ? clip_index[i] : 0;
        if (k != checked) {
            if (k >= clip_count)
                return OSSA_ERR_BAD_INDEX;
            if (!clips[k])
                return OSSA_ERR_MISSING_INPUT;
            checked = k;
        }
        if (!isfinite(from_s[i]) || !isfinite(to_s[i]))
            return OSSA_ERR_BAD_VALUE;
    }
    return OSSA_OK;
}

#endif /* OSSA_MOTION_INTERNAL_H */
