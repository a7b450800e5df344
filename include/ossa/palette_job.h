/* ossa/palette_job.h - model transforms x inverse bind matrices -> skinning
 * palette (stage 4).
 *
 * palette[i][k] = model[i][skin_joint[k]] * inverse_bind[k] for each skin joint
 * k: a skin (mesh) may use a subset of the skeleton, in its own order. The
 * model transforms come either as matrices or in QVS form (exactly one of the
 * two). The job holds no state and allocates nothing. */
#ifndef OSSA_PALETTE_JOB_H
#define OSSA_PALETTE_JOB_H

#include <stdint.h>

#include "math.h"
#include "result.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ossa_palette_job {
    /* Model transforms, character_count * joint_count: set exactly one. */
    const ossa_mat34 *model;
    const ossa_qvs *model_qvs;
    int model_count;
    int joint_count;
    /* Skin joint k binds skeleton joint skin_joint[k] (< joint_count). */
    const uint16_t *skin_joint;
    const ossa_mat34 *inverse_bind; /* skin_joint_count matrices */
    int skin_joint_count;
    /* Characters in model and palette. Required, >= 1. */
    int character_count;
    /* Characters to process: [character_begin, character_end). 0, 0 means all. */
    int character_begin;
    int character_end;
    /* character_count * skin_joint_count matrices. */
    ossa_mat34 *palette;
    int palette_count;
} ossa_palette_job;

ossa_result ossa_palette_job_validate(const ossa_palette_job *job);
ossa_result ossa_palette_job_run(const ossa_palette_job *job);

#ifdef __cplusplus
}
#endif

#endif /* OSSA_PALETTE_JOB_H */
