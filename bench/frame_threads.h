/* frame_threads.h - what the frame benchmark's stage files share: OpenMP
 * regions over the scene's threads, each thread's share of a range, the
 * first failure per thread, and two stage pieces both files run. */
#ifndef OSSA_BENCH_FRAME_THREADS_H
#define OSSA_BENCH_FRAME_THREADS_H

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

/* Skins characters [begin, end) from their palettes into their streams. */
void frame_skin_range(frame_scene *s, int begin, int end, const ossa_mat34 *palettes,
                      unsigned char *streams, ossa_skinning_path path);
/* The lane palettes of the skinned characters among `count` characters from
 * first_character whose lane model is `model` (its batches [batch_begin,
 * batch_end)), into s->lane_palette. */
ossa_result frame_lane_palettes(frame_scene *s, const float *model, size_t model_count,
                                int first_character, int count, int batch_begin, int batch_end);

#endif /* OSSA_BENCH_FRAME_THREADS_H */
