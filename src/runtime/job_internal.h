/* job_internal.h - the field checks the reference jobs (sampling_job.c,
 * blending_job.c, local_to_model_job.c, palette_job.c) share with their lane
 * mirrors (lane_*_job.c). Each job calls them in its own order, so its
 * result codes stay the ones its validity table lists. */
#ifndef OSSA_JOB_INTERNAL_H
#define OSSA_JOB_INTERNAL_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include "format.h"
#include "ossa/result.h"
#include "ossa/skeleton.h"

/* Resolves a range [begin, end) of `count` items (instances, batches), 0, 0
 * meaning all of them, into *out_begin, *out_end; OSSA_ERR_BAD_RANGE (and
 * the outputs untouched) when it lies outside. */
static inline ossa_result ossai_job_range(int begin, int end, int count, int *out_begin,
                                          int *out_end)
{
    if (begin == 0 && end == 0)
        end = count;
    if (begin < 0 || end > count || begin > end)
        return OSSA_ERR_BAD_RANGE;
    *out_begin = begin;
    *out_end = end;
    return OSSA_OK;
}

/* ---- sampling ---- */

/* The clips (at least one, all with the first one's joint count), the
 * playheads (at least one) and, when given, a clip index per playhead. */
static inline ossa_result ossai_check_sampling_inputs(const ossa_clip *const *clips,
                                                      int clip_count, const float *time_s,
                                                      int time_count,
                                                      const uint16_t *clip_index,
                                                      int clip_index_count)
{
    if (!clips)
        return OSSA_ERR_MISSING_INPUT;
    if (clip_count < 1)
        return OSSA_ERR_INPUT_TOO_SMALL;
    for (int k = 0; k < clip_count; ++k)
        if (!clips[k])
            return OSSA_ERR_MISSING_INPUT;
    for (int k = 1; k < clip_count; ++k)
        if (clips[k]->joint_count != clips[0]->joint_count)
            return OSSA_ERR_COUNT_MISMATCH;
    if (!time_s)
        return OSSA_ERR_MISSING_INPUT;
    if (time_count < 1)
        return OSSA_ERR_INPUT_TOO_SMALL;
    if (clip_index && clip_index_count < time_count)
        return OSSA_ERR_INPUT_TOO_SMALL;
    return OSSA_OK;
}

/* clip_index[first, last) name existing clips (NULL: every one plays clip 0). */
static inline ossa_result ossai_check_clip_indices(const uint16_t *clip_index, int first,
                                                   int last, int clip_count)
{
    if (clip_index)
        for (int i = first; i < last; ++i)
            if (clip_index[i] >= clip_count)
                return OSSA_ERR_BAD_INDEX;
    return OSSA_OK;
}

/* ---- blending ---- */

/* The layer lists (counts >= 0, pointers where a count is positive), the
 * rest pose and the joint and instance counts (>= 1). */
static inline ossa_result ossai_check_blend_inputs(int layer_count, const void *layers,
                                                   int additive_count, const void *additive,
                                                   const void *rest_pose, int joint_count,
                                                   int instance_count)
{
    if (layer_count < 0 || additive_count < 0)
        return OSSA_ERR_BAD_ARGUMENT;
    if ((layer_count > 0 && !layers) || (additive_count > 0 && !additive))
        return OSSA_ERR_MISSING_INPUT;
    if (!rest_pose)
        return OSSA_ERR_MISSING_INPUT;
    if (joint_count < 1 || instance_count < 1)
        return OSSA_ERR_INPUT_TOO_SMALL;
    return OSSA_OK;
}

/* Defines `static ossa_result name(const layer_type *layer, bool pose_short,
 * int instance_count, int joint_count, bool additive)`, the checks of one
 * layer: ossa_blend_layer and ossa_lane_blend_layer have the same fields but
 * for the pose's type, whose size the caller compares (pose_short). */
#define OSSAI_DEFINE_BLEND_LAYER_CHECK(name, layer_type)                                       \
    static ossa_result name(const layer_type *layer, bool pose_short, int instance_count,    \
                            int joint_count, bool additive)                                  \
    {                                                                                        \
        if (!layer->pose)                                                                    \
            return OSSA_ERR_MISSING_INPUT;                                                   \
        if (pose_short)                                                                      \
            return OSSA_ERR_INPUT_TOO_SMALL;                                                 \
        if (layer->weights && layer->weight_count < instance_count)                          \
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

/* ---- hierarchy and palette ---- */

/* A joint count the walk can hold: 1..OSSA_MAX_JOINTS. */
static inline ossa_result ossai_check_joint_count(int joint_count)
{
    if (joint_count < 1)
        return OSSA_ERR_INPUT_TOO_SMALL;
    return joint_count > OSSA_MAX_JOINTS ? OSSA_ERR_BAD_ARGUMENT : OSSA_OK;
}

/* Every parent comes before its child (or is OSSA_NO_PARENT). */
static inline ossa_result ossai_check_parents(const uint16_t *parents, int joint_count)
{
    for (int i = 0; i < joint_count; ++i)
        if (parents[i] != OSSA_NO_PARENT && parents[i] >= i)
            return OSSA_ERR_BAD_INDEX;
    return OSSA_OK;
}

/* Every skin joint names a joint of the skeleton. */
static inline ossa_result ossai_check_skin_joints(const uint16_t *skin_joint, int count,
                                                  int joint_count)
{
    for (int k = 0; k < count; ++k)
        if (skin_joint[k] >= joint_count)
            return OSSA_ERR_BAD_INDEX;
    return OSSA_OK;
}

#endif /* OSSA_JOB_INTERNAL_H */
