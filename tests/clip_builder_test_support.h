/* clip_builder_test_support.h - shared by the clip builder's tests
 * (clip_builder_*_test.c): their named tolerances, a chain skeleton, random
 * raw tracks on or off a key grid, and a one-call clip build. */
#ifndef OSSA_CLIP_BUILDER_TEST_SUPPORT_H
#define OSSA_CLIP_BUILDER_TEST_SUPPORT_H

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "ossa/ossa.h"
#include "ossa/pipeline.h"
#include "test_support.h"

/* A rotation key survives the builder's renormalisation (double, then float,
 * then float again): a few roundings of 2^-24 per component. */
#define KEY_ANGLE_TOL 5e-7
/* Hermite values at mid-key frames: the spline evaluated in double, stored
 * as float (2^-24 relative) on values <= 4; rotations then renormalised. */
#define HERMITE_TOL 1e-6
#define HERMITE_ANGLE_TOL 1e-6
/* The report and these tests both measure the runtime at float times, but at
 * different times: the runtime's float frame position carries a few ulps of
 * rounding (t, t * rate, alpha), 4 * 2^-23 * 100 frames = 5e-5 of a frame,
 * times key steps of at most 2 units (or 2 rad). */
#define REPORT_SLACK 1e-4
/* Rates are floats, (frames - 1) / duration: 2^-24 relative of <= 240 Hz. */
#define RATE_TOL 1e-4
/* ossa_raw_track*_eval return floats of the double curve: one rounding of
 * values <= 4, plus the slerp of rotations in double vs the test's. */
#define EVAL_TOL 1e-6

/* ---- fixtures ---- */

static inline ossa_skeleton *chain(int n)
{
    uint16_t *parents = malloc(sizeof *parents * (size_t)n);
    ossa_transform *rest = malloc(sizeof *rest * (size_t)n);
    ts_rng r = ts_rng_make(900 + (uint64_t)n);
    for (int i = 0; i < n; ++i) {
        parents[i] = i == 0 ? OSSA_NO_PARENT : (uint16_t)(i - 1);
        rest[i] = ts_transform(&r, TS_SCALE_ANY);
    }
    ossa_skeleton *s = ts_skeleton_make(parents, rest, n);
    free(parents);
    free(rest);
    return s;
}

/* Storage for random raw tracks. */
typedef struct raw_store {
    int joints, keys;
    float *times;                              /* joints * 3 curves * keys */
    ossa_float3 *v3, *in3, *out3;              /* joints * 2 curves * keys */
    ossa_quat *vq, *inq, *outq;                /* joints * keys */
    char (*names)[16];
    ossa_raw_joint_track *tracks;
} raw_store;

static inline void store_free(raw_store *s)
{
    free(s->times);
    free(s->v3);
    free(s->in3);
    free(s->out3);
    free(s->vq);
    free(s->inq);
    free(s->outq);
    free(s->names);
    free(s->tracks);
}

/* Random key times in [0, span], strictly increasing, first at 0 or later. */
static inline void random_times(ts_rng *r, float *times, int n, double span, bool on_grid,
                                double rate)
{
    double t = ts_int(r, 3) == 0 ? ts_uniform(r, 0, span / (n + 1)) : 0.0;
    for (int k = 0; k < n; ++k) {
        times[k] = on_grid ? (float)(floor(t * rate + 0.5) / rate) : (float)t;
        if (k > 0 && times[k] <= times[k - 1])
            times[k] = on_grid ? (float)((floor(times[k - 1] * rate + 0.5) + 1) / rate)
                               : nextafterf(times[k - 1], INFINITY);
        t += ts_uniform(r, 0.2, 1.8) * span / n;
    }
}

/* Random tracks for every joint: each curve gets random key times (on a
 * grid of `rate` or anywhere), values and interpolation (`interp` or random
 * when < 0); rotations move by up to max_angle per key. */
static inline raw_store store_make(ts_rng *r, const ossa_skeleton *sk, int keys, bool on_grid,
                                   double rate, int interp, double max_angle)
{
    raw_store s;
    const int n = ossa_skeleton_joint_count(sk);
    s.joints = n;
    s.keys = keys;
    const size_t k3 = (size_t)n * 2 * (size_t)keys, kq = (size_t)n * (size_t)keys;
    s.times = malloc(sizeof *s.times * (size_t)n * 3 * (size_t)keys);
    s.v3 = malloc(sizeof *s.v3 * k3);
    s.in3 = malloc(sizeof *s.in3 * k3);
    s.out3 = malloc(sizeof *s.out3 * k3);
    s.vq = malloc(sizeof *s.vq * kq);
    s.inq = malloc(sizeof *s.inq * kq);
    s.outq = malloc(sizeof *s.outq * kq);
    s.names = malloc(sizeof *s.names * (size_t)n);
    s.tracks = calloc((size_t)n, sizeof *s.tracks);
    for (int j = 0; j < n; ++j) {
        ossa_raw_joint_track *t = &s.tracks[j];
        t->joint_name = ossa_skeleton_joint_name(sk, j);
        for (int c = 0; c < 3; ++c) {
            float *times = s.times + ((size_t)j * 3 + (size_t)c) * (size_t)keys;
            const int count = 1 + ts_int(r, keys);
            random_times(r, times, count, 2.0, on_grid, rate);
            const ossa_interpolation mode =
                interp >= 0 ? (ossa_interpolation)interp : (ossa_interpolation)ts_int(r, OSSA_INTERP_COUNT);
            if (c == 1) {
                ossa_quat *v = s.vq + (size_t)j * (size_t)keys;
                ossa_quat *in = s.inq + (size_t)j * (size_t)keys;
                ossa_quat *out = s.outq + (size_t)j * (size_t)keys;
                ossa_quat q = ts_quat(r);
                for (int k = 0; k < count; ++k) {
                    ossa_float3 axis = ts_transform(r, TS_SCALE_ONE).translation;
                    ossa_quat turn = ossa_quat_from_axis_angle(axis, (float)ts_uniform(r, -max_angle, max_angle));
                    q = ossa_quat_normalize(ossa_quat_mul(turn, q));
                    v[k] = q;
                    for (int x = 0; x < 2; ++x) {
                        ossa_quat m = {(float)ts_uniform(r, -1, 1), (float)ts_uniform(r, -1, 1),
                                       (float)ts_uniform(r, -1, 1), (float)ts_uniform(r, -1, 1)};
                        (x ? in : out)[k] = m;
                    }
                }
                t->rotation = (ossa_raw_track_quat){times, v, in, out, count, mode};
                continue;
            }
            const size_t at = ((size_t)j * 2 + (c == 2)) * (size_t)keys;
            ossa_float3 *v = s.v3 + at, *in = s.in3 + at, *out = s.out3 + at;
            for (int k = 0; k < count; ++k) {
                const double lo = c == 2 ? 0.5 : -1.0, hi = c == 2 ? 2.0 : 1.0;
                v[k] = (ossa_float3){(float)ts_uniform(r, lo, hi), (float)ts_uniform(r, lo, hi),
                                     (float)ts_uniform(r, lo, hi)};
                in[k] = (ossa_float3){(float)ts_uniform(r, -3, 3), (float)ts_uniform(r, -3, 3),
                                      (float)ts_uniform(r, -3, 3)};
                out[k] = (ossa_float3){(float)ts_uniform(r, -3, 3), (float)ts_uniform(r, -3, 3),
                                       (float)ts_uniform(r, -3, 3)};
            }
            ossa_raw_track3 tr = {times, v, in, out, count, mode};
            if (c == 0)
                t->translation = tr;
            else
                t->scale = tr;
        }
    }
    return s;
}

static inline ossa_clip *build_one(const ossa_skeleton *sk, const ossa_raw_joint_track *tracks,
                                   int n, float duration, float rate,
                                   ossa_clip_build_report *report, ossa_error *e)
{
    ossa_raw_clip raw = {"one", duration, tracks, n};
    ossa_clip_build_options options;
    memset(&options, 0, sizeof options);
    options.rate = rate;
    options.raw = true;
    ossa_clip *clip = NULL;
    ossa_clip_build(&raw, sk, &options, &clip, report, e);
    return clip;
}

#endif /* OSSA_CLIP_BUILDER_TEST_SUPPORT_H */
