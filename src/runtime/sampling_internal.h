/* sampling_internal.h - where a clip time falls between stored frames, shared
 * by the reference sampler (sampling_job.c) and the lane sampler. */
#ifndef OSSA_SAMPLING_INTERNAL_H
#define OSSA_SAMPLING_INTERNAL_H

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
    if (u >= last) {
        *f0 = clip->frame_count - 2;
        *alpha = 1.0f;
        return;
    }
    uint32_t f = (uint32_t)u;
    *f0 = f;
    *alpha = u - (float)f;
}

#endif /* OSSA_SAMPLING_INTERNAL_H */
