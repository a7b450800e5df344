/* tracks_lanes.h - what the lane float track jobs hand their kernels: a
 * batch's playheads and tracks (sampling), or the first points of each
 * lane's line along its playheads (events). */
#ifndef OSSA_TRACKS_LANES_H
#define OSSA_TRACKS_LANES_H

#include "core/lane_internal.h"

/* Points of a lane's line the event kernel takes; a longer step is handled
 * alone (the reference's way). A frame-sized step with a loop's end in it
 * has five: its ends, a knot, and the jump's two. */
#define OSSAI_TRACK_POINTS 6

typedef struct ossai_lane_track_sample_args {
    /* Per lane: playhead; the track's duration, rate and last frame pair
     * index; its values (at least two). */
    float time[OSSAI_LANES], duration[OSSAI_LANES], rate[OSSAI_LANES], last_pair[OSSAI_LANES];
    const float *values[OSSAI_LANES];
    int width;
    float out[OSSAI_LANES];
} ossai_lane_track_sample_args;

typedef struct ossai_lane_track_cross_args {
    float v[OSSAI_TRACK_POINTS][OSSAI_LANES]; /* the points' values, in the order of play */
    float points[OSSAI_LANES];                /* points per lane; fewer than 2: no segment */
    float threshold, want_rising, want_falling;
    int width;
    /* Per segment k (points k, k + 1) and lane: 1 where it crosses in a
     * reported direction, whether rising, and where (fraction of the way). */
    float cross[OSSAI_TRACK_POINTS - 1][OSSAI_LANES];
    float rising[OSSAI_TRACK_POINTS - 1][OSSAI_LANES];
    float frac[OSSAI_TRACK_POINTS - 1][OSSAI_LANES];
} ossai_lane_track_cross_args;

OSSAI_SIMD_DECLARE(void, ossai_track_sample_kernel, (ossai_lane_track_sample_args *args));
OSSAI_SIMD_DECLARE(void, ossai_track_cross_kernel, (ossai_lane_track_cross_args *args));

#endif /* OSSA_TRACKS_LANES_H */
