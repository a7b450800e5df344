/* crowd_runner.h - one whole frame of an ossa_crowd on N threads (OpenMP, in
 * the tools; the library has no threads): begin the frame, split its batches
 * over the threads (each with its own scratch), then - after a barrier -
 * split the skinned characters over them and skin each from its palette,
 * then end the frame. Each stage is timed per thread through the crowd's
 * stage hook when asked. A character is always skinned whole, by one thread,
 * with the same code: the output does not depend on the thread count.
 * Used by `ossa demo` and `ossa bench frame`. */
#ifndef OSSA_CROWD_RUNNER_H
#define OSSA_CROWD_RUNNER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ossa/crowd.h"
#include "ossa/skinning_job.h"

#define RUNNER_MAX_THREADS 64

/* Stages timed: the crowd's (ossa_crowd_stage, up to the palette), then skin. */
enum {
    RUN_SAMPLE_A = OSSA_CROWD_STAGE_SAMPLE_A,
    RUN_SAMPLE_B = OSSA_CROWD_STAGE_SAMPLE_B,
    RUN_BLEND = OSSA_CROWD_STAGE_BLEND,
    RUN_LOCAL_TO_MODEL = OSSA_CROWD_STAGE_LOCAL_TO_MODEL,
    RUN_POSE_OUT = OSSA_CROWD_STAGE_POSE_OUT,
    RUN_PALETTE = OSSA_CROWD_STAGE_PALETTE,
    RUN_SKIN,
    RUN_STAGES
};

/* One thread's stage times, on its own cache lines. */
typedef struct runner_thread {
    _Alignas(64) double ns[RUN_STAGES];
    uint64_t last_ns;
    int current; /* stage being timed, or RUN_STAGES */
    ossa_result result;
} runner_thread;

typedef struct crowd_runner {
    ossa_crowd *crowd;
    const ossa_mesh *mesh; /* NULL: nothing is skinned */
    int threads;
    int timed;             /* time stages through the hook (a few clock reads per batch) */
    ossa_skinning_path skin_path;
    /* Skin with streaming stores (ossa_skinning_job.stream_output): on by
     * default, as a crowd's skinned vertices (19 MB for 100 arnauds) outgrow
     * the caches and are read next by the upload to the GPU. */
    bool stream_output;
    void *scratch[RUNNER_MAX_THREADS];
    size_t scratch_bytes;
    /* skinned slot s's vertices (ossa_mesh layout), s < skinned capacity */
    unsigned char *streams;
    size_t stream_bytes;
    int stream_count;
    runner_thread thread[RUNNER_MAX_THREADS];
    /* the last frame */
    int batches, skinned;
    double frame_ns;       /* wall time of crowd_runner_frame */
} crowd_runner;

/* mesh: the crowd's skin (NULL when it has none); skinned_capacity: the
 * crowd's. threads in [1, RUNNER_MAX_THREADS]. Returns 0 (after saying why on
 * stderr) on failure. */
int crowd_runner_init(crowd_runner *r, ossa_crowd *crowd, const ossa_mesh *mesh,
                      int skinned_capacity, int threads);
void crowd_runner_fini(crowd_runner *r);
/* One frame: begin (dt_s), update, skin, end. */
ossa_result crowd_runner_frame(crowd_runner *r, float dt_s);
/* Skinned slot s's skinned vertices as of the last frame (s < skinned). */
const void *crowd_runner_stream(const crowd_runner *r, int slot);
/* The time all threads spent in a stage during the last frame (timed
 * runners): CPU time, so with N threads about N x the stage's wall time. */
double crowd_runner_stage_ns(const crowd_runner *r, int stage);

#endif /* OSSA_CROWD_RUNNER_H */
