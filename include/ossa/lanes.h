/* ossa/lanes.h - the crowd path: characters in SIMD lanes (DESIGN.md section 3).
 *
 * Characters that share a skeleton are processed W at a time, one character
 * per SIMD lane (W = 4 for SSE, 8 for AVX2, 16 for AVX-512). Their data is
 * laid out [batch][joint][component][lane]: batch b holds characters
 * [b W, b W + W), and the value of component c of joint j of character
 * b W + l is at
 *     data[((b * joint_count + j) * components + c) * W + l]
 * so every stage is vertical SIMD over characters: no shuffles, no per-joint
 * transposes. Two lane layouts exist:
 * - a lane pose (OSSA_LANE_POSE_COMPONENTS = 10 floats per joint and lane):
 *   translation x y z, rotation x y z w, scale x y z - a local pose;
 * - a lane model (OSSA_LANE_MODEL_COMPONENTS = 12): the affine 3x4 matrix
 *   row-major, m[0][0..3], m[1][0..3], m[2][0..3].
 * The last batch may be partly filled: its unused lanes repeat the batch's
 * first character, so they hold valid numbers, and nothing is ever written
 * for a character that does not exist.
 *
 * The lane jobs mirror the reference jobs they are tested against
 * (ossa_sampling_job, ossa_blending_job, ossa_local_to_model_job,
 * ossa_palette_job): same meaning, same defaults, and the same results up
 * to float rounding (the lane code may use FMA and sums in a different
 * order; tests/lanes_test_support.h states the tolerances). Lanes end in the
 * palette job (skinning palettes, which skinning reads per character) and
 * the pose-out job (each character's joint transforms, for the rest of a
 * game): both write ordinary per-character matrices.
 *
 * Paths (ossa/simd.h): portable C (still lane-shaped), SSE, AVX2 and AVX-512,
 * chosen at run time (OSSA_SIMD_AUTO: the widest this CPU runs whose vectors
 * fit in W); building with OSSA_NO_SIMD, or the environment variable
 * OSSA_SIMD, limits the choice. Any W works on any path: a path narrower
 * than W processes the batch in several vectors.
 *
 * Memory: the caller owns every buffer; the jobs allocate nothing, hold no
 * state and may run on disjoint batch ranges of one output from different
 * threads. Buffers are read and written unaligned; 64-byte alignment is
 * fastest. */
#ifndef OSSA_LANES_H
#define OSSA_LANES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "clip.h"
#include "math.h"
#include "result.h"
#include "simd.h"

#ifdef __cplusplus
extern "C" {
#endif

#define OSSA_LANE_POSE_COMPONENTS 10
#define OSSA_LANE_MODEL_COMPONENTS 12
/* The widest batch: W is 4, 8 or 16. */
#define OSSA_LANE_MAX_WIDTH 16

/* ---- sizes ---- */

/* The batch width W this machine runs best: 16 with AVX-512, 8 with AVX2,
 * else 4. Size lane buffers with it (jobs take it as `width`, 0 meaning this). */
int ossa_lane_width(void);
/* Batches for character_count characters: ceil(character_count / width);
 * 0 for a width that is not 4, 8 or 16 (after 0 -> ossa_lane_width()). */
int ossa_lane_batch_count(int character_count, int width);
/* Floats in a lane pose / lane model buffer for that many characters
 * (batch_count * joint_count * components * width); 0 on a bad argument or
 * when the count would not fit in an int (every count is an int). */
int ossa_lane_pose_floats(int joint_count, int character_count, int width);
int ossa_lane_model_floats(int joint_count, int character_count, int width);

/* ---- stage 1: sample clips into a lane pose ---- */

/* ossa_sampling_job for lanes: each character plays its own clip at its own
 * playhead. Rotations are nlerped (shortest arc); at a key's time the result
 * is the key; STEP tracks hold. A run uses up to about 42 KiB of the calling
 * thread's stack for a batch's scratch (AVX-512; about 20 KiB on AVX2, 11
 * on the narrower paths): mind it in a job system with small stacks.
 * Compressed clips sample fastest when a batch's characters play few
 * clips - best one: order characters by clip before batching them, their
 * runs packed against the batches, as ossa_lane_clip_order does
 * (ossa/lane_order.h) and the crowd does (docs/compression.md,
 * "Sampling"); the results are the same in any order. */
typedef struct ossa_lane_sampling_job {
    /* Clips the characters may play: clips[0] present; the clips the
     * characters of the job's batches play present and with clips[0]'s
     * joint count (checked per character, so that a job over a few
     * batches of a large clip library does not check the library; clips no
     * character plays are not read and may be NULL). */
    const ossa_clip *const *clips;
    int clip_count;
    /* Per character: index into clips. NULL means every character plays clips[0]. */
    const uint16_t *clip_index;
    int clip_index_count;
    /* Characters to sample, >= 1. */
    int character_count;
    /* Per character (character_count): playhead in seconds, any finite value,
     * wrapped by `wrap`. */
    const float *time_s;
    ossa_wrap wrap;        /* default OSSA_WRAP_LOOP */
    /* The skeleton's rest pose (joint_count elements): required when a clip
     * a character plays needs it (ossa_clip_needs_rest_pose: compressed
     * clips), else may be NULL. */
    const ossa_transform *rest_pose;
    int rest_pose_count;
    int width;             /* lanes per batch: 4, 8 or 16; 0 means ossa_lane_width() */
    /* Batches to process: [batch_begin, batch_end). 0, 0 means all. */
    int batch_begin;
    int batch_end;
    ossa_simd_path path;   /* default OSSA_SIMD_AUTO */
    /* Lane pose: ossa_lane_pose_floats(joints, character_count, width) floats. */
    float *output;
    int output_count;
    /* Write the pose with non-temporal (streaming) stores when output is
     * 64-byte aligned and each batch's rows fill whole cache lines in turn
     * - the path's vector is a line (AVX-512), or the batch is one vector
     * wide (AVX2 at width 8) - else plain stores: for a pose larger than
     * this core's L2 that is read later, or by another core - the stores
     * then skip reading each line first. Leave it false when the next stage
     * reads the pose at once from cache (the crowd's batches). Same results
     * either way. Default false. */
    bool stream_output;
    /* While a batch is sampled, ask for the next batch's compressed clip
     * lines (ossa_lane_sampling_job_prefetch's, software prefetches). Worth
     * it where the clips come from L3 or memory and the core's prefetches
     * are cheap - measure it (`ossa bench frame --clips N` times both):
     * docs/compression.md, "Prefetching". Same results either way. Default
     * false. */
    bool prefetch_ahead;
} ossa_lane_sampling_job;

ossa_result ossa_lane_sampling_job_validate(const ossa_lane_sampling_job *job);
ossa_result ossa_lane_sampling_job_run(const ossa_lane_sampling_job *job);
/* Asks for the memory the job's run will read from its compressed clips
 * (each character's two frames and its clip's masks, ranges and constants)
 * without waiting for it (software prefetches), and returns. Samples
 * nothing, writes nothing; validates as _run does and returns its result.
 * For a caller that looks a job ahead, as the crowd does with
 * ossa_crowd_desc.prefetch_clips. Measure before relying on it: asking one
 * batch ahead cost more than it saved on the Intel guest of
 * docs/measurements.md's ninth sitting and saved more than it cost on the
 * AMD guests of the earlier and the fourteenth sittings (clips far from
 * L2: docs/compression.md, "Prefetching"). */
ossa_result ossa_lane_sampling_job_prefetch(const ossa_lane_sampling_job *job);

/* ---- stage 2: blend lane poses ---- */

/* One layer of ossa_lane_blending_job; the fields mean what they mean in
 * ossa_blend_layer, with the pose in lane layout. */
typedef struct ossa_lane_blend_layer {
    const float *pose;       /* lane pose, same size as the job's output */
    int pose_count;
    const float *weights;    /* per character, NULL means `weight` for all */
    int weight_count;
    float weight;
    const float *joint_mask; /* per joint in [0, 1], NULL means 1 */
    int joint_mask_count;
    const ossa_transform *reference; /* additive layers: joint_count; NULL = rest pose */
    int reference_count;
} ossa_lane_blend_layer;

/* ossa_blending_job for lanes: the same weighted average, rest-pose fill
 * below `threshold`, and additive layers. */
typedef struct ossa_lane_blending_job {
    const ossa_lane_blend_layer *layers;   /* normal layers, may be 0 */
    int layer_count;
    const ossa_lane_blend_layer *additive; /* additive layers, may be 0 */
    int additive_count;
    const ossa_transform *rest_pose;       /* joint_count elements. Required. */
    int joint_count;
    int character_count;                   /* required, >= 1 */
    int width;                             /* 0 means ossa_lane_width() */
    int batch_begin;                       /* 0, 0 means all batches */
    int batch_end;
    float threshold;                       /* 0 means OSSA_BLEND_DEFAULT_THRESHOLD */
    ossa_simd_path path;
    float *output;                         /* lane pose; may not alias a layer */
    int output_count;
} ossa_lane_blending_job;

ossa_result ossa_lane_blending_job_validate(const ossa_lane_blending_job *job);
ossa_result ossa_lane_blending_job_run(const ossa_lane_blending_job *job);

/* ---- stage 3: local -> model, W characters per step of the walk ---- */

/* model[j] = model[parent[j]] * local[j] for every lane at once (affine 3x4
 * matrices, any scale), as ossa_local_to_model_job. */
typedef struct ossa_lane_local_to_model_job {
    const uint16_t *parents; /* parents[i] < i or OSSA_NO_PARENT. Required. */
    int joint_count;         /* 1..OSSA_MAX_JOINTS */
    const float *local;      /* lane pose */
    int local_count;
    int character_count;     /* required, >= 1 */
    /* Optional per-character root transform applied to the roots (model ->
     * world); NULL means identity. */
    const ossa_mat34 *root;
    int root_count;
    int width;               /* 0 means ossa_lane_width() */
    int batch_begin;         /* 0, 0 means all batches */
    int batch_end;
    ossa_simd_path path;
    float *model;            /* lane model: ossa_lane_model_floats(...) floats */
    int model_count;
} ossa_lane_local_to_model_job;

ossa_result ossa_lane_local_to_model_job_validate(const ossa_lane_local_to_model_job *job);
ossa_result ossa_lane_local_to_model_job_run(const ossa_lane_local_to_model_job *job);

/* ---- stage 4: lane model -> per-character matrices ---- */

/* palette[c][k] = model[c][skin_joint[k]] * inverse_bind[k], as
 * ossa_palette_job, written per character (where lanes end and skinning,
 * which reads one character's palette, begins): character c's palette is
 * palette[c * skin_joint_count ... + skin_joint_count), or outputs[c][0 ..
 * skin_joint_count) when `outputs` is set. */
typedef struct ossa_lane_palette_job {
    const float *model;            /* lane model */
    int model_count;
    int joint_count;
    int character_count;           /* required, >= 1 */
    /* Skin joint k binds skeleton joint skin_joint[k] (< joint_count); NULL
     * means joint k. */
    const uint16_t *skin_joint;
    /* skin_joint_count matrices; NULL means identity. */
    const ossa_mat34 *inverse_bind;
    /* 0 means joint_count (only when skin_joint is NULL). */
    int skin_joint_count;
    int width;                     /* 0 means ossa_lane_width() */
    int batch_begin;               /* 0, 0 means all batches */
    int batch_end;
    ossa_simd_path path;
    ossa_mat34 *palette;           /* character_count * skin_joint_count */
    int palette_count;
    /* Instead of palette: where each character's skin_joint_count matrices
     * go (character_count pointers; only the processed batches' are read),
     * for outputs that are not next to each other. NULL: use palette. */
    ossa_mat34 *const *outputs;
} ossa_lane_palette_job;

ossa_result ossa_lane_palette_job_validate(const ossa_lane_palette_job *job);
ossa_result ossa_lane_palette_job_run(const ossa_lane_palette_job *job);

/* ---- pose out: lane model -> each character's joint transforms ---- */

/* Hands the lanes' result back as ordinary per-character matrices: character
 * c's joint j model transform goes to poses[c * joint_count + j], or to
 * outputs[c][j] when `outputs` is set - what a game reads for sockets,
 * attachments or physics. */
typedef struct ossa_lane_pose_out_job {
    const float *model;            /* lane model */
    int model_count;
    int joint_count;
    int character_count;           /* required, >= 1 */
    int width;                     /* 0 means ossa_lane_width() */
    int batch_begin;               /* 0, 0 means all batches */
    int batch_end;
    ossa_simd_path path;
    ossa_mat34 *poses;             /* character_count * joint_count */
    int pose_count;
    /* Instead of poses: where each character's joint_count matrices go
     * (character_count pointers; only the processed batches' are read). */
    ossa_mat34 *const *outputs;
    /* Write with non-temporal (streaming) stores wherever a store is aligned
     * to the vector width - all of them when each character's first matrix
     * is 64-byte aligned: for poses this core does not read again soon. Same
     * results either way. Default false. */
    bool stream_output;
} ossa_lane_pose_out_job;

ossa_result ossa_lane_pose_out_job_validate(const ossa_lane_pose_out_job *job);
ossa_result ossa_lane_pose_out_job_run(const ossa_lane_pose_out_job *job);

#ifdef __cplusplus
}
#endif

#endif /* OSSA_LANES_H */
