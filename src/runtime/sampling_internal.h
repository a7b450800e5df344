/* sampling_internal.h - where a clip time falls between stored frames, shared
 * by the reference sampler (sampling_job.c) and the lane sampler. */
#ifndef OSSA_SAMPLING_INTERNAL_H
#define OSSA_SAMPLING_INTERNAL_H

#include <math.h>

#include "format.h"

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
    /* Snap to a frame time within OSSAI_FRAME_SNAP of it: a key at 10/24 s
     * is stored as 0.41666666f and lands at u = 9.9999998, which must still
     * sample as frame 10 (a STEP track would otherwise hold frame 9). */
    float nearest = floorf(u + 0.5f);
    if (fabsf(u - nearest) <= OSSAI_FRAME_SNAP)
        u = nearest;
    if (u >= last) {
        *f0 = clip->frame_count - 2;
        *alpha = 1.0f;
        return;
    }
    uint32_t f = (uint32_t)u;
    *f0 = f;
    *alpha = u - (float)f;
}

/* The interpolation factor of a STEP track: it holds frame f0, except at the
 * clip's end (alpha 1 on the last pair), where the last frame is the key. */
static inline float ossai_step_alpha(float alpha)
{
    return alpha >= 1.0f ? 1.0f : 0.0f;
}

#endif /* OSSA_SAMPLING_INTERNAL_H */
