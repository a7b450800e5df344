/* blend_internal.h - the input checks the reference blending job and its
 * lane mirror share. */
#ifndef OSSA_BLEND_INTERNAL_H
#define OSSA_BLEND_INTERNAL_H

#include <math.h>
#include <stdbool.h>

#include "ossa/result.h"

/* The layer lists (counts >= 0, pointers where a count is positive), the
 * rest pose and the joint and instance counts (>= 1). */
static inline ossa_result ossai_check_blend_inputs(int layer_count, const void *layers,
                                                   int additive_count, const void *additive,
                                                   const void *rest_pose, int joint_count,
                                                   int character_count)
{
    if (layer_count < 0 || additive_count < 0)
        return OSSA_ERR_BAD_ARGUMENT;
    if ((layer_count > 0 && !layers) || (additive_count > 0 && !additive))
        return OSSA_ERR_MISSING_INPUT;
    if (!rest_pose)
        return OSSA_ERR_MISSING_INPUT;
    if (joint_count < 1 || character_count < 1)
        return OSSA_ERR_INPUT_TOO_SMALL;
    return OSSA_OK;
}

/* Defines `static ossa_result name(const layer_type *layer, bool pose_short,
 * int character_count, int joint_count, bool additive)`, the checks of one
 * layer: ossa_blend_layer and ossa_lane_blend_layer have the same fields but
 * for the pose's type, whose size the caller compares (pose_short). */
#define OSSAI_DEFINE_BLEND_LAYER_CHECK(name, layer_type)                                       \
    static ossa_result name(const layer_type *layer, bool pose_short, int character_count,    \
                            int joint_count, bool additive)                                  \
    {                                                                                        \
        if (!layer->pose)                                                                    \
            return OSSA_ERR_MISSING_INPUT;                                                   \
        if (pose_short)                                                                      \
            return OSSA_ERR_INPUT_TOO_SMALL;                                                 \
        if (layer->weights && layer->weight_count < character_count)                          \
            return OSSA_ERR_INPUT_TOO_SMALL;                                                 \
        if (layer->joint_mask && layer->joint_mask_count < joint_count)                      \
            return OSSA_ERR_INPUT_TOO_SMALL;                                                 \
        if (additive && layer->reference && layer->reference_count < joint_count)            \
            return OSSA_ERR_INPUT_TOO_SMALL;                                                 \
        if (!layer->weights && !isfinite(layer->weight))                                     \
            return OSSA_ERR_BAD_VALUE;                                                       \
        return OSSA_OK;                                                                      \
    }

/* The rest-pose threshold: finite and >= 0 (0 picks the default). */
static inline ossa_result ossai_check_blend_threshold(float threshold)
{
    return !(threshold >= 0.0f) || !isfinite(threshold) ? OSSA_ERR_BAD_VALUE : OSSA_OK;
}

#endif /* OSSA_BLEND_INTERNAL_H */
