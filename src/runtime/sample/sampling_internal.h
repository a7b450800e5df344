/* sampling_internal.h - what the reference sampler (sampling_job.c) and the
 * lane sampler share: their input checks, and where a clip time falls
 * between stored frames. */
#ifndef OSSA_SAMPLING_INTERNAL_H
#define OSSA_SAMPLING_INTERNAL_H

#include <math.h>

#include "blob/format.h"
#include "ossa/result.h"

/* A frame position within this many ulps (relative) of a whole frame is on it:
 * a key time computed in float (k / rate, or k * duration / (frames - 1)) and
 * multiplied back by the float rate carries up to four roundings. */
#define OSSAI_KEY_SNAP (4.0f * 1.1920929e-7f)

/* Frame pair (f0, f0 + 1) and interpolation factor for a clip time in
 * [0, duration]; a one-frame clip gives frame 0 with factor 0. */
static inline void ossai_clip_locate(const ossa_clip *clip, float t, uint32_t *f0, float *alpha)
{
    if (clip->frame_count < 2) {
        *f0 = 0;
        *alpha = 0.0f;
        return;
    }
    float u = t * clip->rate;
    float last = (float)(clip->frame_count - 1);
    if (!(u > 0.0f))
        u = 0.0f;
    /* Positions next to a whole frame snap to it, so that sampling at a key's
     * time returns the key exactly: a key at 10/24 s is stored as 0.41666666f
     * and lands at u = 9.9999998, which must sample as frame 10 (a STEP track
     * would otherwise hold frame 9). The snap, OSSAI_KEY_SNAP relative, covers
     * the roundings of a key time computed in float and multiplied back by
     * the float rate, and stays below the float playhead's own resolution. */
    const float whole = floorf(u + 0.5f);
    if (fabsf(u - whole) <= whole * OSSAI_KEY_SNAP)
        u = whole;
    if (u >= last) {
        *f0 = clip->frame_count - 2;
        *alpha = 1.0f;
        return;
    }
    uint32_t f = (uint32_t)u;
    *f0 = f;
    *alpha = u - (float)f;
}

/* The frames before (*a) and after (*b) clip time t in [0, duration], and the
 * factor between them; a one-frame clip's two frames are the same. */
static inline void ossai_clip_frames_at(const ossa_clip *clip, float t, const float **a,
                                        const float **b, float *alpha)
{
    uint32_t f0;
    ossai_clip_locate(clip, t, &f0, alpha);
    const uint32_t n = ossai_clip_frame_floats(clip);
    *a = ossai_clip_frames(clip) + (size_t)f0 * n;
    *b = clip->frame_count > 1 ? *a + n : *a;
}

/* The interpolation factor of a STEP track: it holds frame f0, except at the
 * clip's end (alpha 1 on the last pair), where the last frame is the key. */
static inline float ossai_step_alpha(float alpha)
{
    return alpha >= 1.0f ? 1.0f : 0.0f;
}

/* The clips (at least one, all with the first one's joint count), the
 * playheads (at least one) and, when given, a clip index per playhead. */
static inline ossa_result ossai_check_sampling_inputs(const ossa_clip *const *clips,
                                                      int clip_count, const float *time_s,
                                                      int character_count,
                                                      const uint16_t *clip_index,
                                                      int clip_index_count)
{
    if (!clips)
        return OSSA_ERR_MISSING_INPUT;
    if (clip_count < 1)
        return OSSA_ERR_INPUT_TOO_SMALL;
    for (int k = 0; k < clip_count; ++k)
        if (!clips[k])
            return OSSA_ERR_MISSING_INPUT;
    for (int k = 1; k < clip_count; ++k)
        if (clips[k]->joint_count != clips[0]->joint_count)
            return OSSA_ERR_COUNT_MISMATCH;
    if (!time_s)
        return OSSA_ERR_MISSING_INPUT;
    if (character_count < 1)
        return OSSA_ERR_INPUT_TOO_SMALL;
    if (clip_index && clip_index_count < character_count)
        return OSSA_ERR_INPUT_TOO_SMALL;
    return OSSA_OK;
}

/* The rest pose, when a clip needs it (a compressed clip's rest tracks and
 * animated rotations): present and as long as the joint count. */
static inline ossa_result ossai_check_rest_pose(const ossa_clip *const *clips, int clip_count,
                                                const ossa_transform *rest_pose,
                                                int rest_pose_count)
{
    for (int k = 0; k < clip_count; ++k)
        if (clips[k]->flags & OSSAI_CLIP_USES_REST) {
            if (!rest_pose)
                return OSSA_ERR_MISSING_INPUT;
            if (rest_pose_count < (int)clips[0]->joint_count)
                return OSSA_ERR_INPUT_TOO_SMALL;
            break;
        }
    return OSSA_OK;
}

/* clip_index[first, last) name existing clips (NULL: every one plays clip 0). */
static inline ossa_result ossai_check_clip_indices(const uint16_t *clip_index, int first,
                                                   int last, int clip_count)
{
    if (clip_index)
        for (int i = first; i < last; ++i)
            if (clip_index[i] >= clip_count)
                return OSSA_ERR_BAD_INDEX;
    return OSSA_OK;
}

#endif /* OSSA_SAMPLING_INTERNAL_H */
