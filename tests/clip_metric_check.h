/* clip_metric_check.h - the clip error metric computed by the tests on
 * their own, as the independent expectation for the builder and the
 * compressor: raw curves evaluated with glTF 2.0 semantics in double (this
 * file's own evaluation, from the spec), poses taken to model space in double,
 * and the largest distance between where the source and a clip put the six
 * points at +-d on each joint's axes. */
#ifndef OSSA_CLIP_METRIC_CHECK_H
#define OSSA_CLIP_METRIC_CHECK_H

#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

#include "ossa/ossa.h"
#include "ossa/pipeline.h"
#include "test_support.h"

/* ---- an independent glTF 2.0 evaluation (spec 3.11 "animations") ---- */

/* The builder's documented tolerance (clip_builder.h): times within 10 us
 * plus eight float ulps are one instant, so when measuring the built clip a
 * STEP key that close has been reached ("tolerant"); ossa_raw_track*_eval
 * follow glTF exactly. */
static inline double instant(double t)
{
    return 1e-5 + 8 * FLT_EPSILON * fabs(t);
}

/* Segment of t: the last key with time <= t (+ slack); -1 before the first. */
static inline int segment_of(const float *times, int n, double t, double slack)
{
    int k = -1;
    while (k + 1 < n && times[k + 1] <= t + slack)
        ++k;
    return k;
}

static inline double hermite(double p0, double m0, double p1, double m1, double s, double dt)
{
    const double s2 = s * s, s3 = s2 * s;
    return (2 * s3 - 3 * s2 + 1) * p0 + (s3 - 2 * s2 + s) * dt * m0 + (-2 * s3 + 3 * s2) * p1 +
           (s3 - s2) * dt * m1;
}

static inline void gltf_eval3(const ossa_raw_track3 *tr, double t, bool tolerant, double out[3])
{
    const int n = tr->key_count;
    const bool step = tr->interpolation == OSSA_INTERP_STEP;
    int k = segment_of(tr->times_s, n, t, step && tolerant ? instant(t) : 0.0);
    const ossa_float3 *v = tr->values;
    if (k < 0 || k == n - 1 || tr->interpolation == OSSA_INTERP_STEP) {
        const ossa_float3 x = v[k < 0 ? 0 : k];
        out[0] = x.x, out[1] = x.y, out[2] = x.z;
        return;
    }
    const double t0 = tr->times_s[k], dt = tr->times_s[k + 1] - t0, s = (t - t0) / dt;
    const float a[3] = {v[k].x, v[k].y, v[k].z}, b[3] = {v[k + 1].x, v[k + 1].y, v[k + 1].z};
    if (tr->interpolation == OSSA_INTERP_CUBICSPLINE) {
        const ossa_float3 mo = tr->out_tangents[k], mi = tr->in_tangents[k + 1];
        const float m0[3] = {mo.x, mo.y, mo.z}, m1[3] = {mi.x, mi.y, mi.z};
        for (int c = 0; c < 3; ++c)
            out[c] = hermite(a[c], m0[c], b[c], m1[c], s, dt);
        return;
    }
    for (int c = 0; c < 3; ++c)
        out[c] = a[c] + (b[c] - a[c]) * s;
}

static inline ts_dquat gltf_eval_quat(const ossa_raw_track_quat *tr, double t, bool tolerant)
{
    const int n = tr->key_count;
    const bool step = tr->interpolation == OSSA_INTERP_STEP;
    int k = segment_of(tr->times_s, n, t, step && tolerant ? instant(t) : 0.0);
    const ossa_quat *v = tr->values;
    if (k < 0 || k == n - 1 || tr->interpolation == OSSA_INTERP_STEP)
        return ts_dquat_normalize(ts_dquat_from(v[k < 0 ? 0 : k]));
    const double t0 = tr->times_s[k], dt = tr->times_s[k + 1] - t0, s = (t - t0) / dt;
    if (tr->interpolation == OSSA_INTERP_CUBICSPLINE) {
        const ossa_quat a = v[k], b = v[k + 1], m0 = tr->out_tangents[k],
                        m1 = tr->in_tangents[k + 1];
        ts_dquat r = {hermite(a.x, m0.x, b.x, m1.x, s, dt), hermite(a.y, m0.y, b.y, m1.y, s, dt),
                      hermite(a.z, m0.z, b.z, m1.z, s, dt), hermite(a.w, m0.w, b.w, m1.w, s, dt)};
        return ts_dquat_normalize(r);
    }
    return ts_dquat_slerp(ts_dquat_from(v[k]), ts_dquat_from(v[k + 1]), s);
}

/* The local transform of a joint from its raw track at time t (the rest
 * pose where a curve is missing), in double; the track may be NULL. */
static inline ts_dmat cm_source_local(const ossa_raw_joint_track *tk, const ossa_transform *rest,
                                      double t)
{
    double tr[3] = {rest->translation.x, rest->translation.y, rest->translation.z};
    double sc[3] = {rest->scale.x, rest->scale.y, rest->scale.z};
    ts_dquat q = ts_dquat_normalize(ts_dquat_from(rest->rotation));
    if (tk && tk->translation.key_count > 0)
        gltf_eval3(&tk->translation, t, true, tr);
    if (tk && tk->scale.key_count > 0)
        gltf_eval3(&tk->scale, t, true, sc);
    if (tk && tk->rotation.key_count > 0)
        q = gltf_eval_quat(&tk->rotation, t, true);
    const double R[3][3] = {
        {1 - 2 * (q.y * q.y + q.z * q.z), 2 * (q.x * q.y - q.w * q.z), 2 * (q.x * q.z + q.w * q.y)},
        {2 * (q.x * q.y + q.w * q.z), 1 - 2 * (q.x * q.x + q.z * q.z), 2 * (q.y * q.z - q.w * q.x)},
        {2 * (q.x * q.z - q.w * q.y), 2 * (q.y * q.z + q.w * q.x), 1 - 2 * (q.x * q.x + q.y * q.y)}};
    ts_dmat m;
    for (int r = 0; r < 3; ++r) {
        for (int c = 0; c < 3; ++c)
            m.m[r][c] = R[r][c] * sc[c];
        m.m[r][3] = tr[r];
    }
    return m;
}

/* Model-space pose at time t: from the source (tracks[j] per joint, NULL
 * for the rest pose) when clip is NULL, else sampled from the clip by the
 * runtime's reference sampler at the float time. */
static inline void cm_model(const ossa_skeleton *sk, const ossa_raw_joint_track *tracks,
                            const ossa_clip *clip, double t, ts_dmat *model)
{
    const uint16_t *parents = ossa_skeleton_parents(sk);
    const ossa_transform *rest = ossa_skeleton_rest_pose(sk);
    for (int j = 0; j < ossa_skeleton_joint_count(sk); ++j) {
        ts_dmat local;
        if (clip) {
            local = ts_dmat_from_transform(
                ossa_clip_sample_joint(clip, rest, j, (float)t, OSSA_ROTATION_NLERP));
        } else {
            const ossa_raw_joint_track *tk = tracks && tracks[j].joint_name ? &tracks[j] : NULL;
            local = cm_source_local(tk, &rest[j], t);
        }
        model[j] = parents[j] == OSSA_NO_PARENT ? local : ts_dmat_mul(&model[parents[j]], &local);
    }
}

/* The six points +-d on a joint's axes under a and b: the largest distance. */
static inline double cm_points(const ts_dmat *a, const ts_dmat *b, double d)
{
    double worst = 0;
    for (int p = 0; p < 6; ++p) {
        double local[3] = {0, 0, 0};
        local[p / 2] = p % 2 ? -d : d;
        double dist2 = 0;
        for (int r = 0; r < 3; ++r) {
            double pa = a->m[r][3], pb = b->m[r][3];
            for (int c = 0; c < 3; ++c) {
                pa += a->m[r][c] * local[c];
                pb += b->m[r][c] * local[c];
            }
            dist2 += (pa - pb) * (pa - pb);
        }
        worst = fmax(worst, sqrt(dist2));
    }
    return worst;
}

/* The metric at time t (seconds; rounded to float for the clip): tracks
 * holds one raw track per skeleton joint, in joint order (a track with a
 * NULL joint_name stands for none). *joint (may be NULL) gets the worst. */
static inline double cm_metric_at_joint(const ossa_skeleton *sk, const ossa_raw_joint_track *tracks,
                                        const ossa_clip *clip, double t, double d, int *joint)
{
    const int n = ossa_skeleton_joint_count(sk);
    ts_dmat *a = malloc(sizeof *a * (size_t)n), *b = malloc(sizeof *b * (size_t)n);
    cm_model(sk, tracks, NULL, (float)t, a);
    cm_model(sk, tracks, clip, (float)t, b);
    double worst = 0;
    for (int j = 0; j < n; ++j) {
        const double e = cm_points(&a[j], &b[j], d);
        if (e > worst) {
            worst = e;
            if (joint)
                *joint = j;
        }
    }
    free(a);
    free(b);
    return worst;
}

static inline double cm_metric_at(const ossa_skeleton *sk, const ossa_raw_joint_track *tracks,
                                  const ossa_clip *clip, double t, double d)
{
    return cm_metric_at_joint(sk, tracks, clip, t, d, NULL);
}

/* A raw clip's tracks in skeleton joint order (matched by name; joints
 * without one get a zeroed track), malloc'ed. */
static inline ossa_raw_joint_track *cm_tracks_by_joint(const ossa_skeleton *sk,
                                                       const ossa_raw_clip *raw)
{
    const int n = ossa_skeleton_joint_count(sk);
    ossa_raw_joint_track *out = calloc((size_t)n, sizeof *out);
    for (int t = 0; t < raw->track_count; ++t) {
        const int j = ossa_skeleton_find_joint(sk, raw->tracks[t].joint_name);
        if (j >= 0)
            out[j] = raw->tracks[t];
    }
    return out;
}

#endif /* OSSA_CLIP_METRIC_CHECK_H */
