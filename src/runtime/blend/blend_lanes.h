/* blend_lanes.h - what the lane blending job hands its kernel: one batch. */
#ifndef OSSA_BLEND_LANES_H
#define OSSA_BLEND_LANES_H

#include "core/lane_internal.h"

typedef struct ossai_lane_blend_args {
    const ossa_lane_blend_layer *layers;
    int layer_count;
    const ossa_lane_blend_layer *additive;
    int additive_count;
    const ossa_transform *rest;
    int joint_count;
    int width;
    float threshold;
    size_t batch_offset;         /* floats from a layer pose's start to this batch */
    int first_character;         /* character of lane 0 */
    int full;                    /* every lane is a distinct character */
    int character[OSSAI_LANES];  /* per lane: whose weights it uses */
    float *output;               /* this batch's lane pose */
} ossai_lane_blend_args;

OSSAI_SIMD_DECLARE(void, ossai_blend_kernel, (const ossai_lane_blend_args *args));

#endif /* OSSA_BLEND_LANES_H */
