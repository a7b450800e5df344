/* clip_compress_check.h - the worst metric error of a compressed clip
 * against its source curves over every frame, the frames around every
 * segment boundary, random times and wrapped playheads (through the
 * reference sampling job), for clip_compress_test and
 * clip_compress_models_test; and of a clip with root motion, its pose
 * placed by the motion the runtime plays. */
#ifndef OSSA_TEST_CLIP_COMPRESS_CHECK_H
#define OSSA_TEST_CLIP_COMPRESS_CHECK_H

#include <math.h>
#include <stdlib.h>

#include "clip_metric_check.h"
#include "ossa/ossa.h"
#include "test_support.h"
#include "utest.h"

/* The metric's worst over: every frame, the frames around every segment
 * boundary, `count` random times, and playheads past the end and before the
 * start (wrapped by the sampling job as it loops), all through the
 * reference job. Returns it in model units; *where gets its clip time. */
static double worst_error(const ossa_skeleton *sk, const ossa_raw_joint_track *tracks,
                          const ossa_clip *clip, double distance, int count, uint64_t seed,
                          double *where)
{
    ts_rng r = ts_rng_make(seed);
    const double d = ossa_clip_duration(clip);
    const int frames = ossa_clip_frame_count(clip);
    const float rate = ossa_clip_rate(clip);
    double worst = 0.0;
    *where = 0.0;
    for (int i = 0; i < frames + count + 8; ++i) {
        double t;
        if (i < frames)
            t = (float)i / (frames > 1 ? rate : 1.0f); /* every frame */
        else if (i < frames + count)
            t = ts_uniform(&r, 0.0, d);
        else
            t = (float)(16 * ts_int(&r, frames / 16 + 1)) / (frames > 1 ? rate : 1.0f) +
                ts_uniform(&r, -0.5, 0.5) / (frames > 1 ? rate : 1.0f);
        if (t < 0.0)
            t = 0.0;
        if (t > d)
            t = d;
        const double e = cm_metric_at(sk, tracks, clip, t, distance);
        if (e > worst) {
            worst = e;
            *where = t;
        }
    }
    /* The loop: a playhead k durations on samples as its wrapped time. */
    const int n = ossa_skeleton_joint_count(sk);
    const float t0 = (float)(0.37 * d);
    float playheads[3] = {t0, t0 + 3.0f * (float)d, t0 - 2.0f * (float)d};
    ossa_transform *out = malloc(sizeof *out * 3 * (size_t)n);
    ossa_sampling_job job = {0};
    job.clips = &clip;
    job.clip_count = 1;
    job.time_s = playheads;
    job.character_count = 3;
    job.rest_pose = ossa_skeleton_rest_pose(sk);
    job.rest_pose_count = n;
    job.output = out;
    job.output_count = 3 * n;
    CHECK_RESULT(ossa_sampling_job_run(&job), OSSA_OK);
    for (int c = 1; c < 3 && d > 0.0; ++c)
        for (int j = 0; j < n; ++j) {
            const ossa_transform a = out[j], b = out[(size_t)c * (size_t)n + (size_t)j];
            const double diff = fabs((double)a.translation.x - b.translation.x) +
                                fabs((double)a.rotation.w - b.rotation.w);
            CHECK(diff <= 1e-4); /* the wrapped time is t0 up to float rounding */
        }
    free(out);
    return worst;
}

/* With root motion: the metric between the source at t and what the
 * runtime plays - the clip sampled by the reference job, its pose placed
 * by M(t) (ossa_clip_root_motion_at, ossa_root_motion_matrix). The moving
 * joint and its descendants are placed; joints above or beside it are
 * compared where they are (extraction leaves them as the source has them:
 * they do not travel with the character). *joint (may be NULL) gets the
 * worst. */
static inline double placed_metric_at(const ossa_skeleton *sk, const ossa_raw_joint_track *tracks,
                               const ossa_clip *clip, double t, double d, int *joint)
{
    const int n = ossa_skeleton_joint_count(sk);
    const float ft = (float)t;
    ossa_transform *local = malloc(sizeof *local * (size_t)n);
    ts_dmat *src = malloc(sizeof *src * (size_t)n), *got = malloc(sizeof *got * (size_t)n);
    ossa_sampling_job job = {0};
    job.clips = &clip;
    job.clip_count = 1;
    job.time_s = &ft;
    job.character_count = 1;
    job.wrap = OSSA_WRAP_CLAMP; /* the end is the end, not 0 */
    job.rest_pose = ossa_skeleton_rest_pose(sk);
    job.rest_pose_count = n;
    job.output = local;
    job.output_count = n;
    CHECK_RESULT(ossa_sampling_job_run(&job), OSSA_OK);
    cm_model(sk, tracks, NULL, ft, src);
    const ossa_mat34 m = ossa_root_motion_matrix(ossa_clip_root_motion_at(clip, ft));
    const ts_dmat place = ts_dmat_from_mat34(&m);
    const uint16_t *parents = ossa_skeleton_parents(sk);
    const int moving = ossa_clip_root_motion_joint(clip);
    double worst = 0.0;
    for (int j = 0; j < n; ++j) {
        const ts_dmat l = ts_dmat_from_transform(local[j]);
        got[j] = parents[j] == OSSA_NO_PARENT ? l : ts_dmat_mul(&got[parents[j]], &l);
        int a = j;
        while (a != OSSA_NO_PARENT && a != moving)
            a = parents[a];
        const ts_dmat placed = a == moving ? ts_dmat_mul(&place, &got[j]) : got[j];
        const double e = cm_points(&src[j], &placed, d);
        if (e > worst) {
            worst = e;
            if (joint)
                *joint = j;
        }
    }
    free(local);
    free(src);
    free(got);
    return worst;
}

/* placed_metric_at's worst over every frame, the midpoint of every
 * interval, the frames around every segment boundary and `count` random
 * times. *where gets its clip time. */
static inline double worst_placed_error(const ossa_skeleton *sk, const ossa_raw_joint_track *tracks,
                                 const ossa_clip *clip, double distance, int count,
                                 uint64_t seed, double *where)
{
    ts_rng r = ts_rng_make(seed);
    const double d = ossa_clip_duration(clip);
    const int frames = ossa_clip_frame_count(clip);
    const double step = frames > 1 ? 1.0 / ossa_clip_rate(clip) : 0.0;
    double worst = 0.0;
    *where = 0.0;
    for (int i = 0; i < 2 * frames + count + 8; ++i) {
        double t;
        if (i < 2 * frames)
            t = (i / 2 + 0.5 * (i % 2)) * step; /* every frame and midway */
        else if (i < 2 * frames + count)
            t = ts_uniform(&r, 0.0, d);
        else
            t = (16 * ts_int(&r, frames / 16 + 1) + ts_uniform(&r, -0.5, 0.5)) * step;
        t = t < 0.0 ? 0.0 : t > d ? d : t;
        const double e = placed_metric_at(sk, tracks, clip, t, distance, NULL);
        if (e > worst) {
            worst = e;
            *where = t;
        }
    }
    return worst;
}

#endif /* OSSA_TEST_CLIP_COMPRESS_CHECK_H */
