/* tracks_lanes.h - what the lane float track jobs hand their kernels: a
 * batch's playheads and tracks (sampling), or the first points of each
 * lane's line along its playheads (events). */
#ifndef OSSA_TRACKS_LANES_H
#define OSSA_TRACKS_LANES_H

#include "core/lane_internal.h"
#include "tracks/tracks_internal.h"

typedef struct ossai_lane_track_sample_args {
    /* Per lane: playhead; the track's duration, rate and last frame pair
     * index; its values (at least two). */
    float time[OSSAI_LANES], duration[OSSAI_LANES], rate[OSSAI_LANES], last_pair[OSSAI_LANES];
    const float *values[OSSAI_LANES];
    int width;
    float out[OSSAI_LANES];
} ossai_lane_track_sample_args;

typedef struct ossai_lane_track_cross_args {
    /* Per lane: the playheads; the track's duration, rate, last frame pair
     * index and values (a one-frame track: two equal values, duration 1,
     * rate 0; `usable` 0 with from == to too: no segment). */
    float from[OSSAI_LANES], to[OSSAI_LANES];
    float duration[OSSAI_LANES], rate[OSSAI_LANES], last_pair[OSSAI_LANES];
    float usable[OSSAI_LANES];
    const float *values[OSSAI_LANES];
    float threshold, want_rising, want_falling;
    int width;
    /* Per lane: points of its short step (ossai_track_short_step), 0 for no
     * segment, -1 for a step that is not short (left to the job). Per
     * segment k (points k, k + 1) and lane: 1 where it crosses in a reported
     * direction, whether rising, and where (fraction of the way). */
    float points[OSSAI_LANES];
    float found[OSSAI_LANES]; /* crossings reported: sum of cross over k */
    float cross[OSSAI_TRACK_POINTS - 1][OSSAI_LANES];
    float rising[OSSAI_TRACK_POINTS - 1][OSSAI_LANES];
    float frac[OSSAI_TRACK_POINTS - 1][OSSAI_LANES];
} ossai_lane_track_cross_args;

OSSAI_SIMD_DECLARE(void, ossai_track_sample_kernel, (ossai_lane_track_sample_args *args));
OSSAI_SIMD_DECLARE(void, ossai_track_cross_kernel, (ossai_lane_track_cross_args *args));

#endif /* OSSA_TRACKS_LANES_H */
