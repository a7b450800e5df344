/* crowd_support.h - a crowd of the default character for the crowd tests
 * (optionally wearing the default mesh's skin), random characters, one
 * frame on one thread or several, and the reference path - the plain jobs -
 * that the crowd's poses and palettes are compared with. Needs the pipeline
 * (the default character). */
#ifndef OSSA_CROWD_SUPPORT_H
#define OSSA_CROWD_SUPPORT_H

#include "ossa/crowd.h"
#include "ossa/ossa.h"
#include "ossa/pipeline.h"
#include "test_support.h"

/* World poses of characters placed up to ~20 units away, relative to
 * 1 + |value|: a few float roundings over the hierarchy (the lane path may
 * fuse multiply-adds where the reference does not). */
#define TS_CROWD_POSE_TOLERANCE 2e-5

typedef struct ts_crowd {
    ossa_default_character dc;
    const ossa_clip *clips[OSSA_DEFAULT_CLIP_COUNT];
    ossa_crowd *crowd;
    void *memory;
    void *scratch;
    size_t scratch_bytes;
} ts_crowd;

/* A crowd of `capacity` (width 0: this CPU's). skinned_capacity < 0: no
 * skin; else the default mesh's skin with that skinned_capacity (0 meaning
 * capacity). Returns 0 on failure. */
int ts_crowd_make(ts_crowd *f, int capacity, int width, int skinned_capacity);
/* The same crowd with the default mesh as its `mesh` (so ossa_crowd_update
 * also skins, once given a skin output). */
int ts_crowd_make_wearing_mesh(ts_crowd *f, int capacity, int width, int skinned_capacity);
void ts_crowd_free(ts_crowd *f);
/* The parts of ts_crowd_make, for a crowd of another description: the
 * default character into f (clips[] its clips), and a crowd of d (whose
 * pointers must outlive it) with its scratch. Return 0 on failure;
 * ts_crowd_free frees what they made. */
int ts_crowd_load(ts_crowd *f);
int ts_crowd_start(ts_crowd *f, const ossa_crowd_desc *d);
/* The default character's skin (joints and inverse binds, no mesh) into d:
 * a crowd that computes palettes. */
void ts_crowd_skin(const ts_crowd *f, ossa_crowd_desc *d);

/* Random clips, weight, time, speed, placement, interval; one in five
 * inactive; one in four skinned when `skinned`. */
ossa_character_desc ts_crowd_random_character(ts_rng *r, int skinned);

/* begin, update every batch (on `threads` pthreads, each its share of the
 * batches and its own scratch; threads < 0: one batch per call), end. */
ossa_result ts_crowd_frame(ts_crowd *f, float dt, int threads);

/* The character's world pose from its state through the reference jobs. */
void ts_crowd_reference_pose(const ts_crowd *f, const ossa_character_state *st, ossa_mat34 *out);
/* ... and its palette through ossa_palette_job. */
void ts_crowd_reference_palette(const ts_crowd *f, const ossa_mat34 *pose, ossa_mat34 *palette);
/* The samples of the crowd's foot height tracks over a clip, as
 * ossa_crowd_desc.contact_height documents them: 120 a second over its
 * duration (the intervals rounded, at least one), both ends included. */
int ts_crowd_height_samples(const ossa_clip *clip);
/* Joint `joint`'s model-space height over clip `clip`, from the reference
 * jobs (sampling, local->model), at ts_crowd_height_samples evenly spaced
 * times: malloc'ed floats. */
float *ts_crowd_foot_heights(const ts_crowd *f, int clip, int joint);
/* Largest |a - b| / (1 + |b|) over count matrices. */
double ts_crowd_diff(const ossa_mat34 *a, const ossa_mat34 *b, int count);

#endif /* OSSA_CROWD_SUPPORT_H */
