/* frame_setup.h - the frame benchmark's scene: a character (the default one,
 * a synthetic one of any joint count, or any blob with a skeleton and clips),
 * N characters' inputs, the buffers of the staged lane path and of the
 * reference path, a crowd for the fused path, and one function per stage
 * that runs it for all characters on the scene's threads (OpenMP).
 *
 * Phase 2 (skinning) plugs in here: a mesh in frame_character, a "skinned"
 * count of characters in frame_scene with their palettes, and two stage
 * functions (palette, skin) beside the others; frame_bench.c lists stages in
 * one table, so adding them there adds their rows, floors and JSON. */
#ifndef OSSA_BENCH_FRAME_SETUP_H
#define OSSA_BENCH_FRAME_SETUP_H

#include <stddef.h>

#include "ossa/crowd.h"
#include "ossa/ossa.h"
#include "ossa/pipeline.h"
#include "synthetic_character.h"

#define FRAME_MAX_THREADS 64

/* Stages of a staged frame, timed one by one inside it. */
enum {
    FRAME_SAMPLE_A,
    FRAME_SAMPLE_B,
    FRAME_BLEND,
    FRAME_LOCAL_TO_MODEL,
    FRAME_POSE_OUT, /* lanes only: the reference writes matrices per character already */
    FRAME_STAGES
};

/* Per-call stage times of a staged frame: call c's stage k took ns[k][c]. */
typedef struct frame_timing {
    double *ns[FRAME_STAGES];
    int calls, capacity;
} frame_timing;

typedef struct frame_character {
    const ossa_skeleton *skeleton;
    const ossa_clip **clips;
    int clip_count;
    int joints;
    char description[200];
    void *blob_data; /* everything above points into this blob */
    size_t blob_bytes;
} frame_character;

/* From a blob file (model != NULL), else a synthetic character of that many
 * joints (synthetic_joints > 0), else the default character - the last two
 * built, written to a blob in memory and used from it, as a game would load
 * them. Says what is wrong on stderr and returns 0 on failure. */
int frame_character_load(frame_character *c, const char *model, int synthetic_joints);
void frame_character_free(frame_character *c);

enum {
    FRAME_STAGED = 1u,    /* lane buffers for the per-stage variants */
    FRAME_REFERENCE = 2u, /* buffers of the reference jobs */
    FRAME_CROWD = 4u      /* a crowd for the fused frame */
};

typedef struct frame_scene {
    const frame_character *character;
    int characters, joints, threads, width, batches;
    ossa_lane_path path;
    float dt;
    /* per character: two clips at their playheads, blended */
    uint16_t *clip_a, *clip_b;
    float *time_a, *time_b, *weight_a, *weight_b;
    /* staged lane path */
    size_t pose_floats, model_floats;
    float *lane_a, *lane_b, *lane_pose, *lane_model;
    ossa_mat34 *pose_out; /* characters x joints */
    /* reference path */
    ossa_transform *ref_a, *ref_b, *ref_pose;
    ossa_mat34 *ref_model;
    /* fused path */
    void *crowd_memory;
    ossa_crowd *crowd;
    void *scratch[FRAME_MAX_THREADS];
    size_t scratch_bytes;
    /* stage times of the staged frames and of the fused one (thread 0's) */
    frame_timing lanes_timing, reference_timing, fused_timing;
    float *fused_scratch[FRAME_MAX_THREADS]; /* one batch: 3 poses + a model */
    /* first failure of any stage, per thread */
    ossa_result result[FRAME_MAX_THREADS];
} frame_scene;

/* parts: FRAME_* bits. threads <= FRAME_MAX_THREADS. Returns 0 (after
 * saying why) on failure. */
int frame_scene_init(frame_scene *s, const frame_character *c, int characters, int threads,
                     int width, ossa_lane_path path, unsigned parts);
void frame_scene_fini(frame_scene *s);
/* The first failure any stage reported since init, or OSSA_OK. */
ossa_result frame_scene_result(const frame_scene *s);
/* Restarts the crowd from its initial state (same characters, frame 0). */
int frame_scene_reset_crowd(frame_scene *s);

/* Whole frames, each stage timed into the scene's frame_timing (void * =
 * frame_scene *): sample, sample, blend, local->model (, pose out). */
void frame_reference_staged(void *scene);
void frame_lanes_staged(void *scene);
/* The lane jobs fused per batch (as ossa_crowd_update runs them), each
 * stage's time summed over the batches. */
void frame_lanes_fused(void *scene);
/* Median ns of a stage over the last `calls` calls (0 when none). */
double frame_timing_median(const frame_timing *t, int stage, int calls);

/* Stages, each one frame for all characters. */
void frame_ref_sample(void *scene);      /* reference: one clip */
void frame_ref_sample_b(void *scene);
void frame_ref_blend(void *scene);       /* reference: two layers */
void frame_ref_local_to_model(void *scene);
void frame_lane_sample(void *scene);     /* lanes: clip a */
void frame_lane_sample_b(void *scene);   /* lanes: clip b */
void frame_lane_sample_gather(void *scene); /* lanes: clip a with gathers */
void frame_lane_blend(void *scene);
void frame_lane_local_to_model(void *scene);
void frame_lane_pose_out(void *scene);   /* lane model -> per-character matrices */
void frame_crowd(void *scene);           /* the fused frame: ossa_crowd begin/update/end */

/* Largest |lane - reference| / (1 + |reference|) over the model transforms,
 * after running both paths once. */
double frame_scene_check(frame_scene *s);
/* A hash of every character's pose in the crowd (bit-identity across runs). */
uint64_t frame_crowd_checksum(const frame_scene *s);

#endif /* OSSA_BENCH_FRAME_SETUP_H */
