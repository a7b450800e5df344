/* lane_internal.h - what the lane jobs (lane_*_job.c) hand to the lane
 * kernels (lane_kernels.inc, compiled once per instruction set). A kernel
 * processes one batch: W lanes, already resolved to pointers by the job. */
#ifndef OSSA_LANE_INTERNAL_H
#define OSSA_LANE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "ossa/lanes.h"

#define OSSAI_LANES OSSA_LANE_MAX_WIDTH
#define OSSAI_POSE_C OSSA_LANE_POSE_COMPONENTS
#define OSSAI_MODEL_C OSSA_LANE_MODEL_COMPONENTS

typedef struct ossai_lane_sample_args {
    /* Per lane: the clip's frame before the playhead and the one after (each
     * OSSAI_COMPONENTS rows of `stride` floats), the interpolation factor and
     * the clip's step table (NULL when it has no STEP track). */
    const float *frame_a[OSSAI_LANES];
    const float *frame_b[OSSAI_LANES];
    const uint8_t *steps[OSSAI_LANES];
    float alpha[OSSAI_LANES];
    size_t stride;
    int joint_count;
    int width;
    float *output; /* this batch's lane pose */
} ossai_lane_sample_args;

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

typedef struct ossai_lane_l2m_args {
    const uint16_t *parents;
    int joint_count;
    int width;
    const float *local; /* this batch's lane pose */
    const float *root;  /* OSSAI_MODEL_C * width floats in lane layout, or NULL */
    float *model;       /* this batch's lane model */
} ossai_lane_l2m_args;

typedef struct ossai_lane_palette_args {
    const float *model; /* this batch's lane model */
    int joint_count;
    int width;
    const uint16_t *skin_joint;     /* NULL: joint k */
    const ossa_mat34 *inverse_bind; /* NULL: identity */
    int skin_joint_count;
    ossa_mat34 *output[OSSAI_LANES]; /* per lane: its first matrix; NULL = unused lane */
    bool stream;                     /* non-temporal stores where aligned */
} ossai_lane_palette_args;

typedef struct ossai_lane_kernels {
    ossa_lane_path path;
    int vector_width; /* lanes per vector: 4, 8 or 16 */
    void (*sample)(const ossai_lane_sample_args *args);
    void (*blend)(const ossai_lane_blend_args *args);
    void (*local_to_model)(const ossai_lane_l2m_args *args);
    void (*palette)(const ossai_lane_palette_args *args);
    /* sampling with gathers instead of transposes (AVX2, AVX-512; else NULL):
     * kept to measure the two against each other (ossa bench frame) */
    void (*sample_gather)(const ossai_lane_sample_args *args);
} ossai_lane_kernels;

extern const ossai_lane_kernels ossai_lane_kernels_portable;
#ifdef OSSA_LANES_X86
extern const ossai_lane_kernels ossai_lane_kernels_sse;
extern const ossai_lane_kernels ossai_lane_kernels_avx2;
extern const ossai_lane_kernels ossai_lane_kernels_avx512;
#endif

/* The kernels for a path and width (AUTO: the widest supported; a named path
 * that this machine cannot run: NULL). A path whose vectors are wider than
 * the width falls back to the next narrower one. */
const ossai_lane_kernels *ossai_lane_select(ossa_lane_path path, int width);

/* Width after the 0 default, or 0 when it is not 4, 8 or 16. */
int ossai_lane_resolve_width(int width);

/* ossa_lane_sampling_job_run with the gathering kernel when `gather` is set
 * and the path has one (the benchmark's comparison; results are the same). */
ossa_result ossai_lane_sampling_job_run_with(const ossa_lane_sampling_job *job, int gather);

/* What a validated lane job's run needs: the width after its default, the
 * kernels for the path, and the batches [begin, end) of `characters` to
 * process. Out of line: inlined, the range check changes the register
 * allocation of the runs' per-lane set-up loops (more instructions per
 * character). */
typedef struct ossai_lane_plan {
    const ossai_lane_kernels *kernels;
    int width, begin, end;
} ossai_lane_plan;
ossai_lane_plan ossai_lane_plan_make(ossa_lane_path path, int width, int characters,
                                     int batch_begin, int batch_end);

/* OSSA_OK when ossai_lane_select has kernels for the path and width; else
 * OSSA_ERR_BAD_ARGUMENT for a path that does not exist and
 * OSSA_ERR_UNSUPPORTED for one this machine (or build) cannot run. */
static inline ossa_result ossai_lane_check_path(ossa_lane_path path, int width)
{
    if (ossai_lane_select(path, width))
        return OSSA_OK;
    return (unsigned)path >= OSSA_LANE_PATH_COUNT ? OSSA_ERR_BAD_ARGUMENT : OSSA_ERR_UNSUPPORTED;
}

#endif /* OSSA_LANE_INTERNAL_H */
