/* ossa/local_to_model_job.h - local pose -> model-space transforms (stage 3).
 *
 * The seed's loop: model[i] = model[parent[i]] * local[i], in joint order, which
 * works because parent[i] < i. Two forms of the same walk:
 * - ossa_local_to_model_job: affine 3x4 matrices (any scale) - the reference;
 * - ossa_local_to_model_qvs_job: quaternion, vector and uniform scale; exact
 *   when every local scale is uniform (it uses scale.x).
 * A root transform places each character; a partial update recomputes one
 * joint and its descendants only. The job holds no state, allocates nothing. */
#ifndef OSSA_LOCAL_TO_MODEL_JOB_H
#define OSSA_LOCAL_TO_MODEL_JOB_H

#include <stdbool.h>
#include <stdint.h>

#include "math.h"
#include "result.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ossa_local_to_model_job {
    /* The skeleton's parents (ossa_skeleton_parents): parents[i] < i or
     * OSSA_NO_PARENT. Required. */
    const uint16_t *parents;
    /* 1..OSSA_MAX_JOINTS: fewer is OSSA_ERR_INPUT_TOO_SMALL, more
     * OSSA_ERR_BAD_ARGUMENT. */
    int joint_count;
    /* character_count * joint_count local transforms. */
    const ossa_transform *local;
    int local_count;
    /* Characters in local and model. Required, >= 1. */
    int character_count;
    /* Characters to process: [character_begin, character_end). 0, 0 means all. */
    int character_begin;
    int character_end;
    /* Optional per-character root transform applied to the roots (model
     * space -> world); NULL means identity. */
    const ossa_mat34 *root;
    int root_count;
    /* Partial update: when `partial` is true only joint `from_joint` and its
     * descendants are written; the other joints of model must already hold
     * this pose's values. false (default) updates every joint. */
    bool partial;
    int from_joint;
    /* character_count * joint_count matrices. */
    ossa_mat34 *model;
    int model_count;
} ossa_local_to_model_job;

ossa_result ossa_local_to_model_job_validate(const ossa_local_to_model_job *job);
ossa_result ossa_local_to_model_job_run(const ossa_local_to_model_job *job);

/* The same walk in quaternion-vector-scale form. Same fields and defaults,
 * with a QVS root and QVS output. */
typedef struct ossa_local_to_model_qvs_job {
    const uint16_t *parents;
    int joint_count;
    const ossa_transform *local;
    int local_count;
    int character_count;
    int character_begin;
    int character_end;
    const ossa_qvs *root;
    int root_count;
    bool partial;
    int from_joint;
    ossa_qvs *model;
    int model_count;
} ossa_local_to_model_qvs_job;

ossa_result ossa_local_to_model_qvs_job_validate(const ossa_local_to_model_qvs_job *job);
ossa_result ossa_local_to_model_qvs_job_run(const ossa_local_to_model_qvs_job *job);

#ifdef __cplusplus
}
#endif

#endif /* OSSA_LOCAL_TO_MODEL_JOB_H */
