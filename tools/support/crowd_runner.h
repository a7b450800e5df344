/* crowd_runner.h - the tools' job system for a crowd frame: OpenMP threads
 * pulling the frame's batches one at a time (batches with skinned
 * characters cost more, so a dynamic schedule balances them), each with its
 * own scratch, running the library's whole frame (ossa_crowd_update:
 * update, palettes, skinning into the runner's vertex buffer). Each stage is
 * timed per thread through the crowd's stage hook when asked. The output
 * does not depend on the thread count. Used by `ossa demo`, `render`, `view`. */
#ifndef OSSA_CROWD_RUNNER_H
#define OSSA_CROWD_RUNNER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ossa/crowd.h"

#define RUNNER_MAX_THREADS 64

/* Stages timed: the crowd's own (ossa_crowd_stage). */
enum {
    RUN_SAMPLE_A = OSSA_CROWD_STAGE_SAMPLE_A,
    RUN_SAMPLE_B = OSSA_CROWD_STAGE_SAMPLE_B,
    RUN_BLEND = OSSA_CROWD_STAGE_BLEND,
    RUN_LOCAL_TO_MODEL = OSSA_CROWD_STAGE_LOCAL_TO_MODEL,
    RUN_POSE_OUT = OSSA_CROWD_STAGE_POSE_OUT,
    RUN_PALETTE = OSSA_CROWD_STAGE_PALETTE,
    RUN_SKIN = OSSA_CROWD_STAGE_SKIN,
    RUN_IK = OSSA_CROWD_STAGE_IK,
    RUN_STAGES = OSSA_CROWD_STAGE_DONE
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
    const ossa_mesh *mesh; /* the crowd's mesh, NULL: nothing is skinned */
    int threads;
    int timed;             /* time stages through the hook (a few clock reads per batch) */
    ossa_simd_path skin_path;
    /* Skin with streaming stores: on by default, as a crowd's skinned
     * vertices (19 MB for 100 arnauds) outgrow the caches and are read next
     * by the upload to the GPU. */
    bool stream_output;
    void *scratch[RUNNER_MAX_THREADS];
    size_t scratch_bytes;
    /* skinned slot s's vertices (in `format`), s < skinned capacity, each
     * character on a cache line, stream_bytes apart. The buffer has room
     * for either format: `format` may change between frames. */
    ossa_skin_format format;
    const ossa_mesh *skin_mesh;
    unsigned char *streams;
    size_t stream_bytes, stream_capacity; /* per character: now, at most */
    int stream_count;
    runner_thread thread[RUNNER_MAX_THREADS];
    /* the last frame */
    int batches, skinned;
    double frame_ns;       /* wall time of crowd_runner_frame */
} crowd_runner;

/* mesh: the crowd's (NULL when it skins nothing); skinned_capacity: the
 * crowd's; format: the skinned vertices'. threads in [1,
 * RUNNER_MAX_THREADS]. Returns 0 on failure. */
int crowd_runner_init(crowd_runner *r, ossa_crowd *crowd, const ossa_mesh *mesh,
                      int skinned_capacity, ossa_skin_format format, int threads);
void crowd_runner_fini(crowd_runner *r);
/* One frame: begin (dt_s), update and skin every batch, end. */
ossa_result crowd_runner_frame(crowd_runner *r, float dt_s);
/* Skinned slot s's skinned vertices as of the last frame (s < skinned). */
const void *crowd_runner_stream(const crowd_runner *r, int slot);
/* The time all threads spent in a stage during the last frame (timed
 * runners): CPU time, so with N threads about N x the stage's wall time. */
double crowd_runner_stage_ns(const crowd_runner *r, int stage);

#endif /* OSSA_CROWD_RUNNER_H */
