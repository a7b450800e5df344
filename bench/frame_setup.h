/* frame_setup.h - the frame benchmark's scene: a character (the default one,
 * a synthetic one of any joint count with an arnaud-shaped mesh, or any blob
 * with a skeleton, clips and optionally a mesh), N characters' inputs of
 * which the first S are skinned, the buffers of the staged lane path and of
 * the reference path, a crowd (with its runner) for the library's frame, and
 * one function per stage that runs it for all characters on the scene's
 * threads (OpenMP). */
#ifndef OSSA_BENCH_FRAME_SETUP_H
#define OSSA_BENCH_FRAME_SETUP_H

#include <stddef.h>

#include "crowd_runner.h"
#include "ossa/crowd.h"
#include "ossa/ossa.h"
#include "scene_character.h"

#define FRAME_MAX_THREADS RUNNER_MAX_THREADS

/* Stages of a frame, timed one by one inside it (the crowd runner's order). */
enum {
    FRAME_SAMPLE_A = RUN_SAMPLE_A,
    FRAME_SAMPLE_B = RUN_SAMPLE_B,
    FRAME_BLEND = RUN_BLEND,
    FRAME_LOCAL_TO_MODEL = RUN_LOCAL_TO_MODEL,
    FRAME_POSE_OUT = RUN_POSE_OUT, /* lanes only: the reference writes matrices already */
    FRAME_PALETTE = RUN_PALETTE,   /* the skinned characters' palettes */
    FRAME_SKIN = RUN_SKIN,         /* their vertices */
    FRAME_IK = RUN_IK,             /* the crowd's IK, timed apart (listed last) */
    FRAME_STAGES = RUN_STAGES
};

/* Per-call stage times of a frame variant: call c's stage k took ns[k][c]. */
typedef struct frame_timing {
    double *ns[FRAME_STAGES];
    int calls, capacity;
} frame_timing;

typedef scene_character frame_character;

/* From a blob file (model != NULL), else a synthetic character of that many
 * joints wearing an arnaud-shaped mesh (synthetic_joints > 0), else the
 * default character - the last two built, written to a blob in memory and
 * used from it, as a game would load them. Says what is wrong on stderr and
 * returns 0 on failure. */
int frame_character_load(frame_character *c, const char *model, int synthetic_joints);
void frame_character_free(frame_character *c);

enum {
    FRAME_STAGED = 1u,    /* lane buffers for the per-stage variants */
    FRAME_REFERENCE = 2u, /* buffers of the reference jobs */
    FRAME_CROWD = 4u      /* a crowd and its runner for the library's frame */
};

typedef struct frame_scene {
    const frame_character *character;
    int characters, joints, threads, width, batches;
    ossa_simd_path path;
    float dt;
    /* per character: two clips at their playheads, blended */
    uint16_t *clip_a, *clip_b;
    float *time_a, *time_b, *weight_a, *weight_b;
    /* skinning: the first `skinned` characters wear the mesh (0: no mesh) */
    const ossa_mesh *mesh;
    int skinned, skins, vertices;
    /* the lanes' and the crowd's vertices (the reference's are float4) */
    ossa_skin_format skin_format;
    size_t stream_bytes;     /* one character's skinned vertices, 64-byte multiple */
    size_t ref_stream_bytes; /* the same in float4 */
    const ossa_skin_plan *plan; /* the mesh's, for packed vertices */
    void *plan_memory;
    /* staged lane path (the fused variant writes the same outputs) */
    int pose_floats, model_floats;
    float *lane_a, *lane_b, *lane_pose, *lane_model;
    ossa_mat34 *pose_out;             /* characters x joints */
    ossa_mat34 *lane_palette;         /* skinned x skins */
    unsigned char *lane_streams;      /* skinned x stream_bytes */
    float *fused_scratch[FRAME_MAX_THREADS]; /* one batch: 3 poses + a model */
    /* reference path */
    ossa_transform *ref_a, *ref_b, *ref_pose;
    ossa_mat34 *ref_model, *ref_palette;
    unsigned char *ref_streams;
    /* the library's frame */
    void *crowd_memory;
    ossa_crowd *crowd;
    bool no_clip_order; /* the crowd's (set, then frame_scene_reset_crowd) */
    bool prefetch_clips; /* the crowd's, likewise */
    crowd_runner runner;
    /* stage times of the frame variants; fused and crowd: summed over threads */
    frame_timing lanes_timing, reference_timing, fused_timing, crowd_timing;
    double fused_ns[FRAME_MAX_THREADS][FRAME_STAGES];
    /* first failure of any stage, per thread */
    ossa_result result[FRAME_MAX_THREADS];
} frame_scene;

/* parts: FRAME_* bits; skinned: characters skinned (clamped to the count; 0
 * when the character has no mesh), their vertices in skin_format (the
 * reference jobs' in float4). threads <= FRAME_MAX_THREADS. Returns 0 (after
 * saying why) on failure. */
int frame_scene_init(frame_scene *s, const frame_character *c, int characters, int skinned,
                     int threads, int width, ossa_simd_path path, ossa_skin_format skin_format,
                     unsigned parts);
void frame_scene_fini(frame_scene *s);
/* The first failure any stage reported since init, or OSSA_OK. */
ossa_result frame_scene_result(const frame_scene *s);
/* Puts the scene's characters in the order ossa_lane_clip_order gives
 * for their clip a (each clip's characters side by side in their order,
 * the runs packed against the batches; their clips, times and weights
 * moved together): the same work, batches that share clips - the order
 * the crowd keeps (docs/crowd.md, "Clip order"). Before the first frame,
 * on a scene without a crowd. */
void frame_scene_sort_by_clip(frame_scene *s);
/* Restarts the crowd from its initial state (same characters, frame 0), its
 * runner on s->threads threads. */
int frame_scene_reset_crowd(frame_scene *s);

/* Whole frames, each stage timed into the scene's frame_timing (void * =
 * frame_scene *): sample, sample, blend, local->model (, pose out), palette,
 * skin. */
void frame_reference_staged(void *scene);
void frame_lanes_staged(void *scene);
/* The lane jobs fused per batch up to the palette (as ossa_crowd_update runs
 * them), then skinning split over the threads; each stage's time summed. */
void frame_lanes_fused(void *scene);
/* The library's frame: the crowd runner (ossa_crowd begin / update / end,
 * then skinning), untimed and timed by stage. */
void frame_crowd(void *scene);
void frame_crowd_timed(void *scene);
/* frame_crowd with the runner's skinning on ordinary stores (not streaming). */
void frame_crowd_plain(void *scene);
/* frame_crowd skinning the other format: float4 when the scene's is packed,
 * packed when it is float4 (the two side by side in one run). */
void frame_crowd_other_format(void *scene);
/* Median ns of a stage over the last `calls` calls (0 when none). */
double frame_timing_median(const frame_timing *t, int stage, int calls);

/* Stages, each one frame for all characters. */
void frame_ref_sample(void *scene);      /* reference: one clip */
void frame_ref_sample_b(void *scene);
void frame_ref_blend(void *scene);       /* reference: two layers */
void frame_ref_local_to_model(void *scene);
void frame_ref_palette(void *scene);     /* ossa_palette_job, skinned characters */
void frame_ref_skin(void *scene);        /* ossa_skinning_job, portable path, float4 */
void frame_lane_sample(void *scene);     /* lanes: clip a */
void frame_lane_sample_b(void *scene);   /* lanes: clip b */
void frame_lane_sample_streamed(void *scene); /* clip a, non-temporal stores */
/* the same, each batch's next one prefetched (prefetch_ahead) */
void frame_lane_sample_streamed_ahead(void *scene);
void frame_lane_stores(void *scene);          /* its stores alone: the floor */
void frame_lane_stores_streamed(void *scene); /* the same, non-temporal */
void frame_lane_blend(void *scene);
void frame_lane_local_to_model(void *scene);
void frame_lane_pose_out(void *scene);   /* lane model -> per-character matrices */
void frame_lane_palette(void *scene);    /* lane model -> skinned characters' palettes */
void frame_lane_skin(void *scene);       /* ossa_skinning_job, best path, skin_format */

/* Runs every path once and compares the lanes with the reference: the
 * largest |lane - reference| / (1 + |reference|) over the model transforms
 * (*poses), the palettes and the skinned vertices (*vertices, relative to
 * 1 + the largest coordinate of the vertex; packed normals and tangents by
 * how far they lie beyond half a step of 1/511 from the reference's). */
void frame_scene_check(frame_scene *s, double *poses, double *palettes, double *vertices);
/* A hash of every pose, palette and skinned vertex of the crowd (bit identity
 * across runs and thread counts). */
uint64_t frame_crowd_checksum(const frame_scene *s);
/* The same over the lane path's outputs (pose out, palettes, vertices). */
uint64_t frame_lanes_checksum(const frame_scene *s);

#endif /* OSSA_BENCH_FRAME_SETUP_H */
