/* motion_lanes.h - what the lane root motion job hands its kernel: one
 * batch of W lanes, each lane's playheads and its clip's constants, already
 * gathered by the job. */
#ifndef OSSA_MOTION_LANES_H
#define OSSA_MOTION_LANES_H

#include "blob/format.h"
#include "core/lane_internal.h"

typedef struct ossai_lane_motion_args {
    /* Per lane: the two playheads; the clip's duration, rate and last frame
     * pair index (frame_count - 2); the tracks block holding its motion
     * track, raw or packed (NULL for a clip without motion, read as two
     * zero frames of a 1 s clip). */
    float from[OSSAI_LANES], to[OSSAI_LANES];
    float duration[OSSAI_LANES], rate[OSSAI_LANES], last_pair[OSSAI_LANES];
    const ossai_clip_tracks *motion[OSSAI_LANES];
    int width;
    /* Per lane: the motion's x, z and yaw. */
    float out[3][OSSAI_LANES];
} ossai_lane_motion_args;

OSSAI_SIMD_DECLARE(void, ossai_motion_kernel, (ossai_lane_motion_args *args));

#endif /* OSSA_MOTION_LANES_H */
