/* lanes_test_support.h - shared by the lane jobs' tests (lanes_*_test.c):
 * their named tolerances, the batch widths they run, and the lane layout
 * as lanes.h documents it, read and written here independently of the jobs. */
#ifndef OSSA_LANES_TEST_SUPPORT_H
#define OSSA_LANES_TEST_SUPPORT_H

#include <math.h>
#include <stdlib.h>

#include "ossa/ossa.h"
#include "test_support.h"

/* Named tolerances: the lane code evaluates the reference formulas in the
 * same order but may fuse multiply-adds, so results differ by a few float
 * roundings of values of magnitude <= 2 (poses) or of the model's size. */
#define SAMPLE_TOLERANCE 2e-6
#define BLEND_TOLERANCE 4e-6
#define MODEL_TOLERANCE 2e-6 /* relative to 1 + |value| */

static const int widths[] = {4, 8, 16};

/* ---- lane layout helpers (the layout as lanes.h documents it) ---- */

static inline size_t lane_index(int joints, int components, int width, int c, int j, int k)
{
    const int b = c / width, l = c % width;
    return (((size_t)b * (size_t)joints + (size_t)j) * (size_t)components + (size_t)k) *
               (size_t)width + (size_t)l;
}

static inline ossa_transform lane_transform(const float *lanes, int joints, int width, int c, int j)
{
    float v[10];
    for (int k = 0; k < 10; ++k)
        v[k] = lanes[lane_index(joints, 10, width, c, j, k)];
    ossa_transform t = {{v[0], v[1], v[2]}, {v[3], v[4], v[5], v[6]}, {v[7], v[8], v[9]}};
    return t;
}

static inline ossa_mat34 lane_matrix(const float *lanes, int joints, int width, int c, int j)
{
    ossa_mat34 m;
    for (int k = 0; k < 12; ++k)
        m.m[k / 4][k % 4] = lanes[lane_index(joints, 12, width, c, j, k)];
    return m;
}

/* Writes AoS poses (characters x joints) in lane layout; unused lanes of
 * the last batch repeat its first character, as the jobs do. */
static inline void pack_poses(const ossa_transform *aos, int characters, int joints, int width,
                              float *lanes)
{
    const int batches = ossa_lane_batch_count(characters, width);
    for (int c = 0; c < batches * width; ++c) {
        const int src = c < characters ? c : c / width * width;
        for (int j = 0; j < joints; ++j) {
            const ossa_transform *t = &aos[(size_t)src * (size_t)joints + (size_t)j];
            const float v[10] = {t->translation.x, t->translation.y, t->translation.z,
                                 t->rotation.x,    t->rotation.y,    t->rotation.z,
                                 t->rotation.w,    t->scale.x,       t->scale.y,
                                 t->scale.z};
            for (int k = 0; k < 10; ++k)
                lanes[lane_index(joints, 10, width, c, j, k)] = v[k];
        }
    }
}

static inline double transform_diff(ossa_transform a, ossa_transform b)
{
    const float x[10] = {a.translation.x, a.translation.y, a.translation.z, a.rotation.x,
                         a.rotation.y,    a.rotation.z,    a.rotation.w,    a.scale.x,
                         a.scale.y,       a.scale.z};
    const float y[10] = {b.translation.x, b.translation.y, b.translation.z, b.rotation.x,
                         b.rotation.y,    b.rotation.z,    b.rotation.w,    b.scale.x,
                         b.scale.y,       b.scale.z};
    double d = 0;
    for (int k = 0; k < 10; ++k) {
        double e = fabs((double)x[k] - (double)y[k]);
        if (!(e <= d))
            d = e;
    }
    return d;
}

static inline double mat_rel_diff_d(const ossa_mat34 *a, const ts_dmat *b)
{
    double d = 0;
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 4; ++j) {
            double e = fabs((double)a->m[i][j] - b->m[i][j]) / (1.0 + fabs(b->m[i][j]));
            if (!(e <= d))
                d = e;
        }
    return d;
}

static inline float *lane_alloc(size_t floats)
{
    float *p = aligned_alloc(64, (floats * sizeof(float) + 63) / 64 * 64 + 64);
    for (size_t i = 0; p && i < floats; ++i)
        p[i] = NAN; /* anything the job fails to write shows up */
    return p;
}

#endif /* OSSA_LANES_TEST_SUPPORT_H */
