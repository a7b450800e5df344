/* test_support.h - shared by the tests: a deterministic random generator,
 * random hierarchies and transforms, double-precision reference maths (the
 * independent expectation fast paths are compared with), the model folder,
 * and an allocator that fails on request. */
#ifndef OSSA_TEST_SUPPORT_H
#define OSSA_TEST_SUPPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ossa/allocator.h"
#include "ossa/math.h"

/* ---- random numbers (PCG32), deterministic for a seed ---- */
typedef struct ts_rng {
    uint64_t state;
} ts_rng;

ts_rng ts_rng_make(uint64_t seed);
uint32_t ts_u32(ts_rng *r);
/* Uniform in [0, n). */
int ts_int(ts_rng *r, int n);
/* Uniform in [lo, hi). */
double ts_uniform(ts_rng *r, double lo, double hi);
/* Uniformly distributed unit quaternion. */
ossa_quat ts_quat(ts_rng *r);
typedef enum ts_scale { TS_SCALE_ONE, TS_SCALE_UNIFORM, TS_SCALE_ANY } ts_scale;
/* Random transform: translation in [-1, 1]^3, random rotation, scale per mode
 * in [0.5, 2]. */
ossa_transform ts_transform(ts_rng *r, ts_scale scale);
/* The same with the scale drawn from [scale_min, scale_max): deep chains need
 * scales near 1, or their products leave float range. */
ossa_transform ts_transform_range(ts_rng *r, ts_scale scale, double scale_min, double scale_max);
/* Random parents for n joints with parents[i] < i (several roots when
 * roots > 1; joint 0 is always a root). */
void ts_parents(ts_rng *r, int n, int roots, uint16_t *parents);
/* A random raw tree as a pipeline receives it: the joints of ts_parents in a
 * random order, parents[i] the raw index of i's parent or -1. */
void ts_raw_parents(ts_rng *r, int n, int roots, int *parents);

/* ---- double precision reference ---- */
typedef struct ts_dmat {
    double m[3][4];
} ts_dmat;
typedef struct ts_dquat {
    double x, y, z, w;
} ts_dquat;

ts_dmat ts_dmat_identity(void);
ts_dmat ts_dmat_from_transform(ossa_transform t);
ts_dmat ts_dmat_from_mat34(const ossa_mat34 *m);
ts_dmat ts_dmat_mul(const ts_dmat *a, const ts_dmat *b);
ts_dmat ts_dmat_inverse(const ts_dmat *m);
/* Largest absolute difference between a float matrix and a reference. */
double ts_mat_diff(const ossa_mat34 *a, const ts_dmat *b);
ts_dquat ts_dquat_from(ossa_quat q);
ts_dquat ts_dquat_mul(ts_dquat a, ts_dquat b);
ts_dquat ts_dquat_normalize(ts_dquat q);
/* Angle in radians between two rotations (sign-insensitive). */
double ts_quat_angle(ossa_quat a, ts_dquat b);
double ts_dquat_angle(ts_dquat a, ts_dquat b);
/* Normalised lerp and spherical lerp, both along the shortest arc. */
ts_dquat ts_dquat_nlerp(ts_dquat a, ts_dquat b, double t);
ts_dquat ts_dquat_slerp(ts_dquat a, ts_dquat b, double t);
/* Model transforms of a raw tree (parents in any order, -1 for roots) by a
 * recursive walk from each root: model[i] = model[parent[i]] * local[i]. */
void ts_model_by_recursion(const int *parents, const ossa_transform *local, int n,
                           ts_dmat *model);
/* The same for a flattened skeleton (parents[i] < i or 0xFFFF). */
void ts_model_flat(const uint16_t *parents, const ossa_transform *local, int n,
                   const ts_dmat *root, ts_dmat *model);

/* ---- memory ---- */
/* A copy of bytes in memory of exactly that size (so that ASan reports a read
 * one byte past it), aligned to 16 as ossa_blob_open requires. Free with free(). */
void *ts_exact_copy(const void *data, size_t bytes);
/* bytes of memory aligned to 64 (SIMD, blobs, lane buffers), exactly that
 * size for the same reason; exits when out of memory. Free with free(). */
void *ts_aligned(size_t bytes);

/* ---- files ---- */
/* The folder with the shared real models ($OSSA_MODELS, else the build's
 * default ../shared/models), or NULL when it does not exist. */
const char *ts_models_dir(void);
/* path = dir/name in a static buffer; NULL if the file does not exist. */
const char *ts_model_path(const char *name);
/* A fresh temporary directory for this process (created once). */
const char *ts_temp_dir(void);

/* ---- allocation failure injection ---- */
typedef struct ts_failing_allocator {
    ossa_allocator allocator; /* pass &x.allocator */
    int fail_at;              /* the n-th allocation (0-based) fails; -1 never */
    int count;                /* allocations attempted */
    int live;                 /* allocations not yet freed */
} ts_failing_allocator;

void ts_failing_allocator_init(ts_failing_allocator *a, int fail_at);

/* ---- pipeline helpers (tests that link the pipeline) ---- */
struct ossa_skeleton;
struct ossa_clip;
struct ossa_raw_clip;
struct ossa_import;
struct ossa_import_options;
/* A skeleton of n joints named "j0", "j1"... with parents[i] < i (or 0xFFFF)
 * and the given rest pose, numbered as given (the builder keeps a
 * depth-first order; ts_parents makes one). NULL on failure. */
struct ossa_skeleton *ts_skeleton_make(const uint16_t *parents, const ossa_transform *rest,
                                       int n);
/* A clip of `frames` frames at `rate` Hz whose frame f is keys[f * n + j] for
 * joint j, built through the clip builder from keys on its frame grid;
 * step[j] (may be NULL) holds STEP bits 1 translation, 2 rotation, 4 scale.
 * NULL on failure. Free with ossa_clip_free(clip, NULL). */
struct ossa_clip *ts_clip_make(const struct ossa_skeleton *skeleton, const ossa_transform *keys,
                               int frames, float rate, const uint8_t *step, const char *name);

/* Imports the models folder's file `name` (e.g. "pab/walk.fbx"); false when
 * it is missing or fails to import (saying why on stderr). */
bool ts_import_model(const char *name, const struct ossa_import_options *options,
                     struct ossa_import *out);
/* In a test: skips it when the model is missing, fails it when the model
 * does not import. */
#define TS_IMPORT_OR_SKIP(name, options, out)                                                  \
    do {                                                                                       \
        if (!ts_model_path(name))                                                              \
            SKIP("model " name " not found (set OSSA_MODELS or add ../shared/models)");         \
        REQUIRE(ts_import_model(name, options, out));                                          \
    } while (0)
/* The imported skeleton, built with the import's units; NULL (saying why) on
 * failure. */
struct ossa_skeleton *ts_import_skeleton(const struct ossa_import *im);
/* A raw clip built on a skeleton at `rate` Hz (0: the builder's choice);
 * NULL (saying why) on failure. */
struct ossa_clip *ts_clip_build(const struct ossa_raw_clip *raw,
                                const struct ossa_skeleton *skeleton, float rate);

#endif /* OSSA_TEST_SUPPORT_H */
