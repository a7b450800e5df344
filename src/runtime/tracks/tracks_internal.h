/* tracks_internal.h - what the float track code shares: where a time falls
 * between a track's frames, and the checks of a track view. */
#ifndef OSSA_TRACKS_INTERNAL_H
#define OSSA_TRACKS_INTERNAL_H

#include <math.h>

#include "ossa/tracks.h"

/* Frames per second of a track of >= 2 frames. */
static inline float ossai_track_rate(const ossa_float_track *t)
{
    return (float)(t->frame_count - 1) / t->duration_s;
}

/* Frame pair (f, f + 1) and factor of time t clamped to [0, duration], for a
 * track of >= 2 frames. */
static inline int ossai_track_locate(const ossa_float_track *t, float time, float *alpha)
{
    const float clamped = time < 0.0f ? 0.0f : (time > t->duration_s ? t->duration_s : time);
    const float u = clamped * ossai_track_rate(t), last = (float)(t->frame_count - 2);
    float f = floorf(u);
    f = f > last ? last : f;
    const float a = u - f;
    *alpha = a < 0.0f ? 0.0f : (a > 1.0f ? 1.0f : a);
    return (int)f;
}

/* A view the jobs can read: values, >= 1 frame, a finite duration (> 0
 * with two frames or more). */
static inline bool ossai_track_ok(const ossa_float_track *t)
{
    return t->values && t->frame_count >= 1 && isfinite(t->duration_s) &&
           (t->frame_count == 1 ? t->duration_s >= 0.0f : t->duration_s > 0.0f);
}

#endif /* OSSA_TRACKS_INTERNAL_H */
