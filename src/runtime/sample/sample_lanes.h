/* sample_lanes.h - what the lane sampling job hands its kernel: one batch of
 * W lanes, already resolved to frame pointers by the job. */
#ifndef OSSA_SAMPLE_LANES_H
#define OSSA_SAMPLE_LANES_H

#include <stdbool.h>

#include "core/lane_internal.h"

typedef struct ossai_lane_sample_args {
    /* Per lane: the clip's frame before the playhead and the one after (each
     * OSSAI_COMPONENTS rows of `stride` floats), the interpolation factor and
     * the clip's step table (NULL when it has no STEP track). */
    const float *frame_a[OSSAI_LANES];
    const float *frame_b[OSSAI_LANES];
    const uint8_t *steps[OSSAI_LANES];
    float alpha[OSSAI_LANES];
    /* Per lane: its compressed clip and the first frame of the pair, or NULL
     * for a raw clip (frame_a and frame_b are used). */
    const ossa_clip *packed[OSSAI_LANES];
    uint32_t frame[OSSAI_LANES];
    const ossa_transform *rest; /* the rest pose, for compressed clips needing it */
    size_t stride;
    int joint_count;
    int width;
    float *output; /* this batch's lane pose */
    bool stream;   /* output's rows with non-temporal stores (aligned to them) */
    bool funnel;   /* the CPU has AVX-512 VBMI2: the AVX-512 decoder may take
                    * its funnel shifts (pk_frame); other kernels ignore it */
} ossai_lane_sample_args;

/* The kernels stream rows (args.stream) without a fence: the job fences
 * once, after its last batch (ossai_stream_fence). */
OSSAI_SIMD_DECLARE(void, ossai_sample_kernel, (const ossai_lane_sample_args *args));
/* A batch with at least one compressed clip (sample/packed_kernels.c). */
OSSAI_SIMD_DECLARE(void, ossai_packed_kernel, (const ossai_lane_sample_args *args));
/* Its lanes [lc, lc + LANE_V) clip by clip (sample/packed_group_kernels.c);
 * stream: the rows with non-temporal stores, not fenced. */
OSSAI_SIMD_DECLARE(void, ossai_packed_group_lanes,
                   (const ossai_lane_sample_args *args, int lc, bool stream));

#endif /* OSSA_SAMPLE_LANES_H */
