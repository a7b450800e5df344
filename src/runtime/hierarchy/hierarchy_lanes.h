/* hierarchy_lanes.h - what the lane local->model job hands its kernel: one
 * batch. */
#ifndef OSSA_HIERARCHY_LANES_H
#define OSSA_HIERARCHY_LANES_H

#include "core/lane_internal.h"

typedef struct ossai_lane_l2m_args {
    const uint16_t *parents;
    int joint_count;
    int width;
    const float *local; /* this batch's lane pose */
    const float *root;  /* OSSAI_MODEL_C * width floats in lane layout, or NULL */
    float *model;       /* this batch's lane model */
} ossai_lane_l2m_args;

OSSAI_SIMD_DECLARE(void, ossai_local_to_model_kernel, (const ossai_lane_l2m_args *args));

#endif /* OSSA_HIERARCHY_LANES_H */
