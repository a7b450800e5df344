/* ossa/tracks.h - float tracks: a clip's animated scalar channels (morph
 * target weights, custom properties, channels of nodes that are not
 * joints), stored at the clip's frames and interpolated linearly between
 * them; and events, the crossings of a threshold between two playheads.
 *
 * A float track is read through a view, ossa_float_track: its values at
 * frame_count uniformly spaced times 0 .. duration_s (a clip's track, or
 * any array a program fills the same way, such as the crowd's foot heights).
 * The jobs take views, so one job can sample or watch the same named track
 * across many clips. Thread safety: read-only data; the jobs hold no state. */
#ifndef OSSA_TRACKS_H
#define OSSA_TRACKS_H

#include <stdbool.h>
#include <stdint.h>

#include "clip.h"
#include "result.h"
#include "simd.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- a clip's float tracks ---- */

/* Number of float tracks the clip carries (0 for most clips). */
int ossa_clip_float_track_count(const ossa_clip *clip);
/* Track k's name (UTF-8, unique within the clip), or NULL out of range. */
const char *ossa_clip_float_track_name(const ossa_clip *clip, int track);
/* Index of the track with this name, or -1. */
int ossa_clip_find_float_track(const ossa_clip *clip, const char *name);

/* A float track: values[f] is the value at time f * duration_s /
 * (frame_count - 1); between two frames the value is interpolated
 * linearly; a one-frame track is constant. */
typedef struct ossa_float_track {
    const float *values;  /* frame_count finite values */
    int frame_count;      /* >= 1 */
    float duration_s;     /* > 0 when frame_count >= 2; 0 for one frame */
} ossa_float_track;

/* Track k of a clip as a view (zeroed out of range). */
ossa_float_track ossa_clip_float_track(const ossa_clip *clip, int track);
/* The value at time t_s, clamped to [0, duration]: the readable definition
 * the jobs are tested against. */
float ossa_float_track_sample(const ossa_float_track *track, float t_s);

#ifdef __cplusplus
}
#endif

#endif /* OSSA_TRACKS_H */
