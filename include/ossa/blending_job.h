/* ossa/blending_job.h - N weighted local poses -> one local pose (stage 2).
 *
 * For each character and joint, with w_l = layer weight * joint mask:
 * - normal layers are averaged: translation and scale by weight, rotations
 *   summed (each on the running sum's hemisphere) and renormalised;
 * - when the summed weight of a joint is below `threshold`, the rest pose
 *   fills in with weight (threshold - sum), so a joint no layer drives relaxes
 *   to rest instead of collapsing;
 * - additive layers then apply their difference to a reference pose,
 *   scaled by their weight, in the joint's local frame:
 *   T += w (T_a - T_ref),  R = R * nlerp(1, R_ref^-1 * R_a, w),
 *   S *= lerp(1, S_a / S_ref, w)  (a zero S_ref component counts as ratio 1).
 * Weights <= 0 (after the mask) contribute nothing.
 * The job holds no state and allocates nothing. */
#ifndef OSSA_BLENDING_JOB_H
#define OSSA_BLENDING_JOB_H

#include "math.h"
#include "result.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ossa_blend_layer {
    /* Character i's pose is pose[i * joint_count + j]; pose_count elements. */
    const ossa_transform *pose;
    int pose_count;
    /* Per-character weight in [0, 1]; NULL means every character uses `weight`. */
    const float *weights;
    int weight_count;
    float weight;
    /* Optional per-joint mask in [0, 1] multiplying the weight (joint_count
     * elements, shared by all characters); NULL means 1 for every joint. */
    const float *joint_mask;
    int joint_mask_count;
    /* Additive layers only: the pose the additive pose is a difference from
     * (joint_count elements, shared by all characters). NULL means the rest pose. */
    const ossa_transform *reference;
    int reference_count;
} ossa_blend_layer;

typedef struct ossa_blending_job {
    const ossa_blend_layer *layers; /* normal layers, may be 0 */
    int layer_count;
    const ossa_blend_layer *additive; /* additive layers, may be 0 */
    int additive_count;
    /* The skeleton's rest pose: joint_count elements. Required. */
    const ossa_transform *rest_pose;
    int joint_count;
    /* Characters in the layers' poses and the output. Required, >= 1. */
    int character_count;
    /* Characters to process: [character_begin, character_end). 0, 0 means all. */
    int character_begin;
    int character_end;
    /* Summed weight below which the rest pose fills in. 0 means 0.1. */
    float threshold;
    /* character_count * joint_count elements. */
    ossa_transform *output;
    int output_count;
} ossa_blending_job;

#define OSSA_BLEND_DEFAULT_THRESHOLD 0.1f

ossa_result ossa_blending_job_validate(const ossa_blending_job *job);
ossa_result ossa_blending_job_run(const ossa_blending_job *job);

#ifdef __cplusplus
}
#endif

#endif /* OSSA_BLENDING_JOB_H */
