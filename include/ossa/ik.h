/* ossa/ik.h - inverse kinematics: two-bone IK (hip-knee-ankle, shoulder-
 * elbow-wrist) and aim chains (spine-neck-head looking at a point).
 *
 * Both jobs run after local -> model: they read the model transforms of the
 * joints they move and write rotation corrections into the local pose, so
 * the rest of the frame (local -> model again, palettes, skinning) runs
 * unchanged. A correction c of a joint is a rotation in the joint's own
 * frame: the joint's local rotation r becomes r * c. Targets and poles are
 * points and directions in the space of the model transforms (model space,
 * or world space when local -> model was given a root).
 *
 * docs/ik.md has the maths, the conventions (axes, pole, soften, twist,
 * chain weights) and the costs. In short:
 * - weight w in [0, 1] per character: each correction is slerp(identity,
 *   full correction, w); 0 leaves the pose untouched (not even rewritten);
 * - the flags describe the full-weight solution (ossa_ik_flags);
 * - exact for chains whose joints have uniform scale; a non-uniform scale on
 *   a moved joint (or above it) makes the result approximate, still finite;
 * - bad input in a character (a non-finite target, pole, weight or
 *   transform) leaves that character's pose unchanged and sets
 *   OSSA_IK_BAD_INPUT; no input makes a job write NaN.
 * The reference jobs (ossa_ik_*_job) take one character at a time in plain C
 * and are the definition; the lane jobs (ossa_lane_ik_*_job) compute the same
 * on W characters per SIMD vector, on the lane layout of ossa/lanes.h.
 * Jobs hold no state and allocate nothing. */
#ifndef OSSA_IK_H
#define OSSA_IK_H

#include <stdint.h>

#include "math.h"
#include "result.h"
#include "simd.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Per-character result bits (uint8_t), for the full-weight solution. */
typedef enum ossa_ik_flags {
    OSSA_IK_NONE = 0,
    /* The end joint lands on the target (two-bone), or the aimed ray passes
     * through it (aim), within OSSA_IK_REACH_TOLERANCE. */
    OSSA_IK_REACHED = 1,
    /* A target, pole, weight or joint transform is not finite: the
     * character's pose is left as it was. */
    OSSA_IK_BAD_INPUT = 2,
    /* Two-bone: a bone is shorter than 1e-6 of the limb (or the limb has no
     * length): the pose is left as it was. */
    OSSA_IK_ZERO_BONE = 4,
    /* The target sits on the start joint (two-bone) or on the aimed joint
     * (aim), so it gives no direction. Two-bone: the limb folds as far as it
     * goes and keeps its direction; aim: that joint is left as it was. */
    OSSA_IK_TARGET_ON_JOINT = 8,
    /* The pole is parallel to the start -> target axis (two-bone), or the pole
     * or the up axis is parallel to the joint -> target axis (aim): no roll
     * toward the pole (the twist still applies). */
    OSSA_IK_POLE_PARALLEL = 16,
    /* Two-bone: a bone lies along the hinge axis, so the middle joint cannot
     * change the limb's length; only the start joint turns. */
    OSSA_IK_HINGE_PARALLEL = 32
} ossa_ik_flags;

/* How close counts as reached, relative to the limb's length (two-bone) or
 * in radians (aim). */
#define OSSA_IK_REACH_TOLERANCE 1e-5f
/* Most joints in an aim chain. */
#define OSSA_IK_MAX_CHAIN 8

/* ---- two-bone IK ---- */

/* Turns the start and middle joints of a limb so that its end joint lands on
 * the target, the middle joint (knee, elbow) toward the pole.
 *
 * The middle joint turns about its hinge axis (`mid_axis`) until the
 * start -> end distance equals the start -> target distance (clamped to what
 * the limb reaches; softened near full extension by `soften`); the start
 * joint then turns the end onto the start -> target line and rolls the limb
 * about that line so that the middle joint lies in the half-plane of the
 * pole, then by `twist_rad` more. A target beyond reach leaves the limb
 * straight toward it; one too close, folded as far as it goes toward it. */
typedef struct ossa_ik_two_bone_job {
    /* The skeleton's parents (parents[i] < i or OSSA_NO_PARENT). Required. */
    const uint16_t *parents;
    int joint_count;
    /* The limb: start_joint must be an ancestor of mid_joint, mid_joint of
     * end_joint (directly or not). */
    int start_joint;
    int mid_joint;
    int end_joint;
    /* Model transforms (ossa_local_to_model_job's output for this pose):
     * character_count * joint_count. Read: the limb's three joints. */
    const ossa_mat34 *model;
    int model_count;
    /* The local pose, character_count * joint_count; the start and middle
     * joints' rotations are corrected in place. */
    ossa_transform *local;
    int local_count;
    /* Characters in model and local. Required, >= 1. */
    int character_count;
    /* Characters to process: [character_begin, character_end). 0, 0: all. */
    int character_begin;
    int character_end;
    /* Per-character target points (character_count); NULL: `target` for all. */
    const ossa_float3 *targets;
    int target_count;
    ossa_float3 target;
    /* Per-character pole directions (character_count); NULL: `pole` for all.
     * A zero pole keeps the limb's current plane (no roll). */
    const ossa_float3 *poles;
    int pole_count;
    ossa_float3 pole;
    /* Per-character weights in [0, 1] (outside: clamped); NULL: 1 for all. */
    const float *weights;
    int weight_count;
    /* The middle joint's hinge axis in its own local frame (the knee's or
     * elbow's rotation axis), pointing so that a positive turn about it
     * (right-hand rule) folds the limb: the limb always folds that way
     * (for ossa's default character, facing +z, a knee's is +x). Zero: the
     * axis of the current bend, (end - mid) x (start - mid) in model space;
     * for a straight limb, the one that folds it toward the pole. */
    ossa_float3 mid_axis;
    /* Fraction of the limb's reach over which the approach to full
     * extension is softened, in [0, 1): 0 (default) is none. */
    float soften;
    /* Roll of the limb about the start -> target axis, past the pole, in
     * radians (right-hand rule). */
    float twist_rad;
    /* Optional outputs (NULL: not written), character_count each: the
     * weighted corrections of the start and middle joints, and the flags. */
    ossa_quat *start_corrections;
    ossa_quat *mid_corrections;
    int correction_count;
    uint8_t *flags;
    int flag_count;
} ossa_ik_two_bone_job;

ossa_result ossa_ik_two_bone_job_validate(const ossa_ik_two_bone_job *job);
ossa_result ossa_ik_two_bone_job_run(const ossa_ik_two_bone_job *job);

/* ---- aim (look-at) chains ---- */

/* Turns a chain of joints so that a ray fixed to its tip joint - from
 * `offset` along `forward`, e.g. the eyes of a head - passes through the
 * target, with the tip's `up` axis rolled toward the pole: into the
 * half-plane of the pole about the axis from the chain's root joint to the
 * target (the last joint solved).
 *
 * The chain is listed from its root to its tip (spine, neck, head). It is
 * solved from the tip down: each joint turns the ray, as the joints after it
 * left it, by its chain weight's share of the turn that would aim it fully
 * (slerp from identity); the next joint toward the root takes on what
 * remains. So with weights w_tip, ..., w_root the tip does w_tip of the
 * turn, the next w * (1 - w_tip) of the rest, and a root weight of 1 makes
 * the chain reach the target. */
typedef struct ossa_ik_aim_job {
    /* The skeleton's parents. Required. */
    const uint16_t *parents;
    int joint_count;
    /* The chain, root first: each joint an ancestor of the next.
     * 1..OSSA_IK_MAX_CHAIN joints. */
    const uint16_t *chain;
    int chain_count;
    /* Per chain joint (chain_count, same order), in [0, 1]. NULL: equal
     * shares - chain joint k does 1 / (k + 1) of what the joints after it
     * left, so each does 1 / chain_count of a turn about one axis. */
    const float *chain_weights;
    /* Model transforms, character_count * joint_count. */
    const ossa_mat34 *model;
    int model_count;
    /* The local pose, character_count * joint_count, corrected in place. */
    ossa_transform *local;
    int local_count;
    int character_count;
    int character_begin; /* 0, 0: all characters */
    int character_end;
    /* Per-character targets; NULL: `target` for all. */
    const ossa_float3 *targets;
    int target_count;
    ossa_float3 target;
    /* Per-character pole directions; NULL: `pole` for all. A zero pole (or
     * a zero `up`) means no roll alignment. */
    const ossa_float3 *poles;
    int pole_count;
    ossa_float3 pole;
    /* Per-character weights in [0, 1]; NULL: 1 for all. */
    const float *weights;
    int weight_count;
    /* In the tip joint's local frame: the direction that should point at
     * the target (zero: +z, the way ossa's characters face), the point the
     * ray starts from (zero: the joint), and the axis rolled toward the
     * pole (zero: none). */
    ossa_float3 forward;
    ossa_float3 offset;
    ossa_float3 up;
    /* Roll about the joint -> target axis, past the pole, in radians. */
    float twist_rad;
    /* Optional outputs (NULL: not written): the weighted corrections,
     * character_count * chain_count (character c's are at c * chain_count,
     * in chain order), and per-character flags (ORed over the chain;
     * REACHED when the whole chain aims the ray at the target). */
    ossa_quat *corrections;
    int correction_count;
    uint8_t *flags;
    int flag_count;
} ossa_ik_aim_job;

ossa_result ossa_ik_aim_job_validate(const ossa_ik_aim_job *job);
ossa_result ossa_ik_aim_job_run(const ossa_ik_aim_job *job);

/* ---- the same in lanes (ossa/lanes.h: W characters per batch) ---- */

/* ossa_ik_two_bone_job on a lane model and a lane pose: the same fields
 * and defaults, with the lane buffers, width, batch range and path of the
 * other lane jobs. The per-character inputs and outputs (targets, poles,
 * weights, corrections, flags) are ordinary arrays indexed by character.
 * Results equal the reference job's up to float rounding (FMA, polynomial
 * sine and arctangent in the weight's slerp: see tests/ik_lanes_test.c). */
typedef struct ossa_lane_ik_two_bone_job {
    const uint16_t *parents;
    int joint_count;
    int start_joint;
    int mid_joint;
    int end_joint;
    const float *model; /* lane model: ossa_lane_model_floats(...) floats */
    int model_count;
    float *local; /* lane pose, corrected in place */
    int local_count;
    int character_count; /* required, >= 1 */
    int width;           /* 0 means ossa_lane_width() */
    int batch_begin;     /* 0, 0 means all batches */
    int batch_end;
    ossa_simd_path path;
    const ossa_float3 *targets;
    int target_count;
    ossa_float3 target;
    const ossa_float3 *poles;
    int pole_count;
    ossa_float3 pole;
    const float *weights;
    int weight_count;
    ossa_float3 mid_axis;
    float soften;
    float twist_rad;
    ossa_quat *start_corrections;
    ossa_quat *mid_corrections;
    int correction_count;
    uint8_t *flags;
    int flag_count;
} ossa_lane_ik_two_bone_job;

ossa_result ossa_lane_ik_two_bone_job_validate(const ossa_lane_ik_two_bone_job *job);
ossa_result ossa_lane_ik_two_bone_job_run(const ossa_lane_ik_two_bone_job *job);

/* ossa_ik_aim_job on a lane model and a lane pose, as above. */
typedef struct ossa_lane_ik_aim_job {
    const uint16_t *parents;
    int joint_count;
    const uint16_t *chain;
    int chain_count;
    const float *chain_weights;
    const float *model; /* lane model */
    int model_count;
    float *local; /* lane pose, corrected in place */
    int local_count;
    int character_count;
    int width;
    int batch_begin;
    int batch_end;
    ossa_simd_path path;
    const ossa_float3 *targets;
    int target_count;
    ossa_float3 target;
    const ossa_float3 *poles;
    int pole_count;
    ossa_float3 pole;
    const float *weights;
    int weight_count;
    ossa_float3 forward;
    ossa_float3 offset;
    ossa_float3 up;
    float twist_rad;
    ossa_quat *corrections; /* character_count * chain_count */
    int correction_count;
    uint8_t *flags;
    int flag_count;
} ossa_lane_ik_aim_job;

ossa_result ossa_lane_ik_aim_job_validate(const ossa_lane_ik_aim_job *job);
ossa_result ossa_lane_ik_aim_job_run(const ossa_lane_ik_aim_job *job);

#ifdef __cplusplus
}
#endif

#endif /* OSSA_IK_H */
