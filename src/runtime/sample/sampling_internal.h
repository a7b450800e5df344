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

/* The clips (at least one, the first present: its joint count is the
 * job's), the playheads (at least one) and, when given, a clip index per
 * playhead. The clips the characters play are checked with their range
 * (ossai_check_played_clips): a job reads no other. */
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
    if (!clips[0] || !time_s)
        return OSSA_ERR_MISSING_INPUT;
    if (character_count < 1)
        return OSSA_ERR_INPUT_TOO_SMALL;
    if (clip_index && clip_index_count < character_count)
        return OSSA_ERR_INPUT_TOO_SMALL;
    return OSSA_OK;
}

/* The clips characters [first, last) play (clip_index NULL: clips[0]): an
 * index below clip_count, a clip present, with clips[0]'s joint count; and
 * the rest pose, present and as long as the joint count, where one of them
 * needs it (a compressed clip's rest tracks and animated rotations). A
 * pass over the range, not over the clips: a job over a few characters of
 * a clip library checks what it reads, not the library. */
static inline ossa_result ossai_check_played_clips(const ossa_clip *const *clips, int clip_count,
                                                   const uint16_t *clip_index, int first,
                                                   int last, const ossa_transform *rest_pose,
                                                   int rest_pose_count)
{
    const uint32_t joints = clips[0]->joint_count;
    uint32_t uses_rest = clip_index ? 0u : clips[0]->flags & OSSAI_CLIP_USES_REST;
    if (clip_index)
        for (int i = first, checked = -1; i < last; ++i) {
            const int k = clip_index[i];
            if (k == checked) /* characters in runs check their clip once */
                continue;
            if (k >= clip_count)
                return OSSA_ERR_BAD_INDEX;
            const ossa_clip *clip = clips[k];
            if (!clip)
                return OSSA_ERR_MISSING_INPUT;
            if (clip->joint_count != joints)
                return OSSA_ERR_COUNT_MISMATCH;
            uses_rest |= clip->flags & OSSAI_CLIP_USES_REST;
            checked = k;
        }
    if (uses_rest) {
        if (!rest_pose)
            return OSSA_ERR_MISSING_INPUT;
        if (rest_pose_count < (int)joints)
            return OSSA_ERR_INPUT_TOO_SMALL;
    }
    return OSSA_OK;
}

#endif /* OSSA_SAMPLING_INTERNAL_H */
