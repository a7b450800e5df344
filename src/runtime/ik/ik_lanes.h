/* ik_lanes.h - what the IK lane jobs (lane_ik_*_job.c) hand their kernels
 * (ik_kernels.c): one batch, its per-character inputs already laid out
 * [component][lane] and its outputs the same way. */
#ifndef OSSA_IK_LANES_H
#define OSSA_IK_LANES_H

#include <stdbool.h>

#include "core/lane_internal.h"
#include "ossa/ik.h"

/* One batch as a kernel sees it: its lane model and pose, its
 * per-character inputs laid out [component][lane] (x of every lane, then y,
 * then z), and its outputs the same way. */
typedef struct ossai_ik_lane_batch {
    const float *model; /* this batch's lane model */
    float *local;       /* this batch's lane pose, corrected in place */
    const float *target; /* 3 x width */
    const float *pole;   /* 3 x width */
    const float *weight; /* width */
    float *corrections;  /* two-bone: start then mid, 4 x width each; aim:
                          * chain_count x 4 x width; NULL: not wanted */
    float *flags;        /* width: the ossa_ik_flags bits as floats */
} ossai_ik_lane_batch;

/* A kernel call does two batches (batch[1] may repeat batch[0]): the kernel
 * works two vectors side by side, and a batch of one vector pairs with the
 * next. */
typedef struct ossai_ik_two_bone_args {
    ossai_ik_lane_batch batch[2];
    int start, mid, end;
    int width;
    bool unit_weight; /* the job has no weights: every lane's is 1 */
    bool has_axis;    /* mid_axis is set (unit), else from the bend */
    float mid_axis[3];
    float soften, twist_cos, twist_sin;
} ossai_ik_two_bone_args;

typedef struct ossai_ik_aim_args {
    ossai_ik_lane_batch batch[2];
    int width;
    const uint16_t *chain;
    int chain_count;
    float chain_weight[OSSA_IK_MAX_CHAIN]; /* after the equal-shares default */
    bool unit_weight;
    float forward[3], offset[3], up[3]; /* forward after its +z default */
    float twist_cos, twist_sin;
} ossai_ik_aim_args;

/* The lane buffers for the characters at this width fit in an int
 * (OSSA_ERR_BAD_ARGUMENT if not) and the lane model holds them. */
static inline ossa_result ossai_ik_check_lane_model(int joint_count, int characters, int width,
                                                    int model_count)
{
    const int pose = ossa_lane_pose_floats(joint_count, characters, width);
    const int model = ossa_lane_model_floats(joint_count, characters, width);
    if (!pose || !model)
        return OSSA_ERR_BAD_ARGUMENT; /* more floats than an int counts */
    return model_count < model ? OSSA_ERR_INPUT_TOO_SMALL : OSSA_OK;
}

OSSAI_SIMD_DECLARE(void, ossai_ik_two_bone_kernel, (const ossai_ik_two_bone_args *args));
OSSAI_SIMD_DECLARE(void, ossai_ik_aim_kernel, (const ossai_ik_aim_args *args));

/* The per-character inputs both lane jobs take, and where their lanes go:
 * target and pole (3 x width each: x of every lane, then y, then z) and
 * weight (width). */
typedef struct ossai_ik_lane_inputs {
    const ossa_float3 *targets; /* NULL: target for all */
    ossa_float3 target;
    const ossa_float3 *poles; /* NULL: pole for all */
    ossa_float3 pole;
    const float *weights; /* NULL: 1 for all */
    float *lane_target, *lane_pole, *lane_weight;
} ossai_ik_lane_inputs;

/* Fills the lanes of the inputs that are the same for every character
 * (once per run). */
void ossai_ik_fill_shared(const ossai_ik_lane_inputs *in, int width);
/* Fills the lanes of the per-character inputs for characters [first, first
 * + count); lanes past count repeat the batch's first character. */
void ossai_ik_gather(const ossai_ik_lane_inputs *in, int first, int count, int width);

/* The per-lane arrays of the two batches of a kernel call. */
typedef struct ossai_ik_lane_slots {
    _Alignas(64) float target[2][3 * OSSAI_LANES];
    _Alignas(64) float pole[2][3 * OSSAI_LANES];
    _Alignas(64) float weight[2][OSSAI_LANES];
    _Alignas(64) float corrections[2][OSSA_IK_MAX_CHAIN * 4 * OSSAI_LANES];
    _Alignas(64) float flags[2][OSSAI_LANES];
} ossai_ik_lane_slots;

/* Sets *out to batch `batch` of the lane buffers, in slot k, its
 * per-character inputs gathered (ossai_ik_gather). */
void ossai_ik_slot_batch(ossai_ik_lane_slots *slots, int k, int batch, int characters, int width,
                         int joint_count, const float *model, float *local, bool corrections,
                         const ossai_ik_lane_inputs *in, ossai_ik_lane_batch *out);

/* Lane l's quaternion in a [4][width] array. */
static inline ossa_quat ossai_ik_lane_quat(const float *q, int width, int l)
{
    const ossa_quat r = {q[l], q[width + l], q[2 * width + l], q[3 * width + l]};
    return r;
}

#endif /* OSSA_IK_LANES_H */
