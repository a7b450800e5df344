/* frame_threads.h - what the frame benchmark's stage files share: OpenMP
 * regions over the scene's threads, each thread's share of a range, the
 * first failure per thread, and the stage pieces both files run. */
#ifndef OSSA_BENCH_FRAME_THREADS_H
#define OSSA_BENCH_FRAME_THREADS_H

#include <string.h>

#include "frame_setup.h"

#ifdef _OPENMP
#include <omp.h>
#define PARALLEL(s) _Pragma("omp parallel num_threads((s)->threads)")
static inline int thread_id(void)
{
    return omp_get_thread_num();
}
static inline int thread_count(void)
{
    return omp_get_num_threads();
}
#else
#define PARALLEL(s)
static inline int thread_id(void)
{
    return 0;
}
static inline int thread_count(void)
{
    return 1;
}
#endif

/* This thread's share [*begin, *end) of total items; false when empty (a
 * 0, 0 range would mean "all" to a job). */
static inline int share(int total, int *begin, int *end)
{
    const int t = thread_id(), n = thread_count();
    *begin = (int)((int64_t)total * t / n);
    *end = (int)((int64_t)total * (t + 1) / n);
    return *begin < *end;
}

static inline void note(frame_scene *s, ossa_result r)
{
    if (r != OSSA_OK && s->result[thread_id()] == OSSA_OK)
        s->result[thread_id()] = r;
}

/* ---- the lane jobs of a frame, as the staged stages and the fused path
 * both run them: over characters [first, first + count) of the scene (their
 * inputs start there) and every batch of the lane buffers given; the staged
 * stages then narrow each to a thread's batches, the fused path runs one
 * batch of W characters. ---- */

/* Samples clip a (second: clip b) of each character into a lane pose. */
static inline ossa_lane_sampling_job frame_lane_sampling_job(const frame_scene *s, int second,
                                                             int first, int count, float *pose,
                                                             int pose_floats)
{
    ossa_lane_sampling_job j = {0};
    j.clips = s->character->clips;
    j.clip_count = s->character->clip_count;
    j.clip_index = (second ? s->clip_b : s->clip_a) + first;
    j.clip_index_count = count;
    j.time_s = (second ? s->time_b : s->time_a) + first;
    j.character_count = count;
    j.rest_pose = ossa_skeleton_rest_pose(s->character->skeleton);
    j.rest_pose_count = s->joints;
    j.width = s->width;
    j.path = s->path;
    j.output = pose;
    j.output_count = pose_floats;
    return j;
}

/* Blends the lane poses a and b with the characters' weights; `layers`
 * (two) must live as long as the job. */
static inline ossa_lane_blending_job frame_lane_blending_job(const frame_scene *s,
                                                             ossa_lane_blend_layer layers[2],
                                                             const float *a, const float *b,
                                                             int first, int count, float *pose,
                                                             int pose_floats)
{
    memset(layers, 0, 2 * sizeof *layers);
    layers[0].pose = a;
    layers[0].pose_count = pose_floats;
    layers[0].weights = s->weight_a + first;
    layers[0].weight_count = count;
    layers[1] = layers[0];
    layers[1].pose = b;
    layers[1].weights = s->weight_b + first;
    ossa_lane_blending_job j = {0};
    j.layers = layers;
    j.layer_count = 2;
    j.rest_pose = ossa_skeleton_rest_pose(s->character->skeleton);
    j.joint_count = s->joints;
    j.character_count = count;
    j.width = s->width;
    j.path = s->path;
    j.output = pose;
    j.output_count = pose_floats;
    return j;
}

static inline ossa_lane_local_to_model_job
frame_lane_local_to_model_job(const frame_scene *s, const float *pose, int pose_floats,
                              int count, float *model, int model_floats)
{
    ossa_lane_local_to_model_job j = {0};
    j.parents = ossa_skeleton_parents(s->character->skeleton);
    j.joint_count = s->joints;
    j.local = pose;
    j.local_count = pose_floats;
    j.character_count = count;
    j.width = s->width;
    j.path = s->path;
    j.model = model;
    j.model_count = model_floats;
    return j;
}

/* The lane model out to the characters' matrices in s->pose_out. */
static inline ossa_lane_pose_out_job frame_lane_pose_out_job(const frame_scene *s,
                                                             const float *model,
                                                             int model_floats, int first,
                                                             int count)
{
    ossa_lane_pose_out_job j = {0};
    j.model = model;
    j.model_count = model_floats;
    j.joint_count = s->joints;
    j.character_count = count;
    j.width = s->width;
    j.path = s->path;
    j.poses = s->pose_out + (size_t)first * (size_t)s->joints;
    j.pose_count = count * s->joints;
    return j;
}

/* Skins characters [begin, end) from their palettes into their streams, in
 * format (streams of the scene's stream_bytes, or ref_stream_bytes for
 * float4 when that is not the scene's format). */
void frame_skin_range(frame_scene *s, int begin, int end, const ossa_mat34 *palettes,
                      unsigned char *streams, ossa_simd_path path, ossa_skin_format format);
/* The lane palettes of the skinned characters among `count` characters from
 * first_character whose lane model is `model` (its batches [batch_begin,
 * batch_end)), into s->lane_palette. */
ossa_result frame_lane_palettes(frame_scene *s, const float *model, int model_count,
                                int first_character, int count, int batch_begin, int batch_end);

#endif /* OSSA_BENCH_FRAME_THREADS_H */
