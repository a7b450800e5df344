/* palette_lanes.h - what the lane palette and pose-out jobs hand their
 * kernel: one batch of a lane model, and where each lane's matrices go. */
#ifndef OSSA_PALETTE_LANES_H
#define OSSA_PALETTE_LANES_H

#include <stdbool.h>

#include "core/lane_internal.h"

typedef struct ossai_lane_palette_args {
    const float *model; /* this batch's lane model */
    int joint_count;
    int width;
    const uint16_t *skin_joint;     /* NULL: joint k */
    const ossa_mat34 *inverse_bind; /* NULL: identity (with skin_joint NULL too: pose out) */
    int skin_joint_count;
    ossa_mat34 *output[OSSAI_LANES]; /* per lane: its first matrix; NULL = unused lane */
    bool stream;                     /* non-temporal stores where aligned */
} ossai_lane_palette_args;

OSSAI_SIMD_DECLARE(void, ossai_palette_kernel, (const ossai_lane_palette_args *args));

/* The input checks the palette and pose-out jobs share: the lane model is
 * there and large enough for the width (resolved into *width). */
ossa_result ossai_lane_model_input(const float *model, int model_count, int joint_count,
                                   int character_count, int width_field, int *width);
/* Runs the palette kernel over the plan's batches of `model` with the
 * skin fields of *args: each character's args->skin_joint_count matrices
 * go to outputs[c] (when set) or contiguous + c * that count. */
void ossai_lane_matrices_out(ossai_lane_palette_args *args, const ossai_lane_plan *plan,
                             const float *model, int characters, ossa_mat34 *const *outputs,
                             ossa_mat34 *contiguous);
/* Every processed character of batches [begin, end) has an output. */
ossa_result ossai_lane_check_outputs(ossa_mat34 *const *outputs, int begin, int end, int width,
                                     int character_count);

#endif /* OSSA_PALETTE_LANES_H */
