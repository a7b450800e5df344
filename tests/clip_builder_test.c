/* clip_builder_test.c - raw curves -> runtime clips, checked against an
 * independent glTF 2.0 evaluation in double precision: keys reproduced at key
 * times, CUBICSPLINE Hermite values between keys, the reported error bounding
 * the error measured here, the rate choice, every error naming its joint, and
 * allocation failure at every step. */
#include <float.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ossa/ossa.h"
#include "ossa/pipeline.h"
#include "test_support.h"
#include "utest.h"

/* OSSA_TEST_NEEDS_PIPELINE */

#define PI 3.14159265358979323846

/* A rotation key survives the builder's renormalisation (double, then float,
 * then float again): a few roundings of 2^-24 per component. */
#define KEY_ANGLE_TOL 5e-7
/* Hermite values at mid-key frames: the spline evaluated in double, stored
 * as float (2^-24 relative) on values <= 4; rotations then renormalised. */
#define HERMITE_TOL 1e-6
#define HERMITE_ANGLE_TOL 1e-6
/* The report and this test both measure the runtime at float times, but at
 * different times: the runtime's float frame position carries a few ulps of
 * rounding (t, t * rate, alpha), 4 * 2^-23 * 100 frames = 5e-5 of a frame,
 * times key steps of at most 2 units (or 2 rad). */
#define REPORT_SLACK 1e-4
/* Rates are floats, (frames - 1) / duration: 2^-24 relative of <= 240 Hz. */
#define RATE_TOL 1e-4
/* ossa_raw_track*_eval return floats of the double curve: one rounding of
 * values <= 4, plus the slerp of rotations in double vs the test's. */
#define EVAL_TOL 1e-6

/* ---- an independent glTF 2.0 evaluation (spec 3.11 "animations") ---- */

/* The builder's documented tolerance (clip_builder.h): times within 10 us
 * plus eight float ulps are one instant, so when measuring the built clip a
 * STEP key that close has been reached ("tolerant"); ossa_raw_track*_eval
 * follow glTF exactly. */
static double instant(double t)
{
    return 1e-5 + 8 * FLT_EPSILON * fabs(t);
}

/* Segment of t: the last key with time <= t (+ slack); -1 before the first. */
static int segment_of(const float *times, int n, double t, double slack)
{
    int k = -1;
    while (k + 1 < n && times[k + 1] <= t + slack)
        ++k;
    return k;
}

static double hermite(double p0, double m0, double p1, double m1, double s, double dt)
{
    const double s2 = s * s, s3 = s2 * s;
    return (2 * s3 - 3 * s2 + 1) * p0 + (s3 - 2 * s2 + s) * dt * m0 + (-2 * s3 + 3 * s2) * p1 +
           (s3 - s2) * dt * m1;
}

static void gltf_eval3(const ossa_raw_track3 *tr, double t, bool tolerant, double out[3])
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

static ts_dquat gltf_eval_quat(const ossa_raw_track_quat *tr, double t, bool tolerant)
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

/* ---- fixtures ---- */

static ossa_skeleton *chain(int n)
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

static void store_free(raw_store *s)
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
static void random_times(ts_rng *r, float *times, int n, double span, bool on_grid, double rate)
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
static raw_store store_make(ts_rng *r, const ossa_skeleton *sk, int keys, bool on_grid,
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

static double vec_error(const ossa_float3 *a, const double b[3])
{
    const double dx = a->x - b[0], dy = a->y - b[1], dz = a->z - b[2];
    return sqrt(dx * dx + dy * dy + dz * dz);
}

static double scale_error(const ossa_float3 *a, const double b[3])
{
    return fmax(fabs(a->x - b[0]), fmax(fabs(a->y - b[1]), fabs(a->z - b[2])));
}

/* ---- keys, Hermite and the report ---- */

static void check_keys_reproduced(ossa_interpolation interp, double rate, uint64_t seed)
{
    ts_rng r = ts_rng_make(seed);
    ossa_skeleton *sk = chain(12);
    REQUIRE(sk);
    raw_store s = store_make(&r, sk, 9, true, rate, interp, 1.0);
    ossa_raw_clip raw = {"keys", 0.0f, s.tracks, s.joints};
    ossa_clip *clip = NULL;
    ossa_clip_build_report report;
    ossa_error e;
    CHECK_RESULT(ossa_clip_build(&raw, sk, NULL, &clip, &report, &e), OSSA_OK);
    REQUIRE(clip);
    /* The automatic rate is a multiple of the key rate, at least 24 Hz. */
    const double multiple = report.rate / rate;
    CHECK_NEAR(multiple, floor(multiple + 0.5), RATE_TOL);
    CHECK(report.rate >= 24.0f);
    int wrong_t = 0, wrong_s = 0, wrong_r = 0;
    for (int j = 0; j < s.joints; ++j) {
        const ossa_raw_joint_track *t = &s.tracks[j];
        for (int k = 0; k < t->translation.key_count; ++k) {
            ossa_transform x = ossa_clip_sample_joint(clip, j, t->translation.times_s[k], OSSA_ROTATION_NLERP);
            wrong_t += memcmp(&x.translation, &t->translation.values[k], sizeof x.translation) != 0;
        }
        for (int k = 0; k < t->scale.key_count; ++k) {
            ossa_transform x = ossa_clip_sample_joint(clip, j, t->scale.times_s[k], OSSA_ROTATION_NLERP);
            wrong_s += memcmp(&x.scale, &t->scale.values[k], sizeof x.scale) != 0;
        }
        for (int k = 0; k < t->rotation.key_count; ++k) {
            ossa_transform x = ossa_clip_sample_joint(clip, j, t->rotation.times_s[k], OSSA_ROTATION_NLERP);
            const double a = ts_quat_angle(x.rotation, ts_dquat_from(t->rotation.values[k]));
            if (a > KEY_ANGLE_TOL && wrong_r++ < 3)
                fprintf(stderr, "joint %d rotation key %d: %g rad off\n", j, k, a);
        }
    }
    CHECK_INT(wrong_t, 0);
    CHECK_INT(wrong_s, 0);
    CHECK_INT(wrong_r, 0);
    /* Keys reproduced, LINEAR or STEP between them: the runtime adds only
     * float rounding for translation and scale (rotation: nlerp vs slerp). */
    CHECK(report.max_translation_error <= REPORT_SLACK);
    CHECK(report.max_scale_error <= REPORT_SLACK);
    ossa_clip_free(clip, NULL);
    store_free(&s);
    ossa_skeleton_free(sk, NULL);
}

TEST(linear_keys_are_reproduced_exactly_at_key_times)
{
    check_keys_reproduced(OSSA_INTERP_LINEAR, 30.0, 101);
    check_keys_reproduced(OSSA_INTERP_LINEAR, 24.0, 102);
}

TEST(step_keys_are_reproduced_exactly_at_key_times)
{
    check_keys_reproduced(OSSA_INTERP_STEP, 30.0, 103);
    check_keys_reproduced(OSSA_INTERP_STEP, 10.0, 104);
}

TEST(cubicspline_matches_the_gltf_hermite_formula_between_keys)
{
    ts_rng r = ts_rng_make(105);
    ossa_skeleton *sk = chain(6);
    REQUIRE(sk);
    /* Keys every 1/10 s; frames at 20 Hz land on every key and mid-key time. */
    raw_store s = store_make(&r, sk, 8, true, 10.0, OSSA_INTERP_CUBICSPLINE, 0.8);
    ossa_raw_clip raw = {"cubic", 0.0f, s.tracks, s.joints};
    ossa_clip_build_options options;
    memset(&options, 0, sizeof options);
    options.rate = 20.0f;
    ossa_clip *clip = NULL;
    CHECK_RESULT(ossa_clip_build(&raw, sk, &options, &clip, NULL, NULL), OSSA_OK);
    REQUIRE(clip);
    double worst = 0, worst_angle = 0;
    int points = 0;
    for (int j = 0; j < s.joints; ++j) {
        const ossa_raw_joint_track *t = &s.tracks[j];
        const ossa_raw_track3 *curves[2] = {&t->translation, &t->scale};
        for (int c = 0; c < 2; ++c)
            for (int k = 0; k + 1 < curves[c]->key_count; ++k) {
                const ossa_raw_track3 *tr = curves[c];
                const double t0 = tr->times_s[k], dt = tr->times_s[k + 1] - t0;
                const ossa_float3 a = tr->values[k], b = tr->values[k + 1];
                const ossa_float3 m0 = tr->out_tangents[k], m1 = tr->in_tangents[k + 1];
                const double e[3] = {hermite(a.x, m0.x, b.x, m1.x, 0.5, dt),
                                     hermite(a.y, m0.y, b.y, m1.y, 0.5, dt),
                                     hermite(a.z, m0.z, b.z, m1.z, 0.5, dt)};
                ossa_transform x = ossa_clip_sample_joint(clip, j, (float)(t0 + dt / 2), OSSA_ROTATION_NLERP);
                worst = fmax(worst, scale_error(c ? &x.scale : &x.translation, e));
                ++points;
            }
        const ossa_raw_track_quat *q = &t->rotation;
        for (int k = 0; k + 1 < q->key_count; ++k) {
            const double t0 = q->times_s[k], dt = q->times_s[k + 1] - t0;
            const ossa_quat a = q->values[k], b = q->values[k + 1];
            const ossa_quat m0 = q->out_tangents[k], m1 = q->in_tangents[k + 1];
            ts_dquat e = {hermite(a.x, m0.x, b.x, m1.x, 0.5, dt), hermite(a.y, m0.y, b.y, m1.y, 0.5, dt),
                          hermite(a.z, m0.z, b.z, m1.z, 0.5, dt), hermite(a.w, m0.w, b.w, m1.w, 0.5, dt)};
            ossa_transform x = ossa_clip_sample_joint(clip, j, (float)(t0 + dt / 2), OSSA_ROTATION_NLERP);
            worst_angle = fmax(worst_angle, ts_quat_angle(x.rotation, e));
            ++points;
        }
    }
    CHECK(points > 20);
    CHECK_NEAR(worst, 0, HERMITE_TOL);
    CHECK_NEAR(worst_angle, 0, HERMITE_ANGLE_TOL);
    ossa_clip_free(clip, NULL);
    store_free(&s);
    ossa_skeleton_free(sk, NULL);
}

/* Largest error of the runtime clip against the source curves, measured at
 * every key time and at 64 points inside every frame. */
static void measure_errors(const ossa_clip *clip, const raw_store *s, double *et, double *er,
                           double *es)
{
    *et = *er = *es = 0;
    const double d = ossa_clip_duration(clip);
    const int frames = ossa_clip_frame_count(clip);
    const int steps = frames > 1 ? (frames - 1) * 64 : 0;
    for (int j = 0; j < s->joints; ++j) {
        const ossa_raw_joint_track *t = &s->tracks[j];
        const int keys = t->translation.key_count + t->rotation.key_count + t->scale.key_count;
        for (int k = 0; k <= steps + keys; ++k) {
            double time;
            if (k <= steps) {
                time = steps ? d * k / steps : 0.0;
            } else {
                int x = k - steps - 1;
                const float *times = t->translation.times_s;
                if (x >= t->translation.key_count) {
                    x -= t->translation.key_count;
                    times = t->rotation.times_s;
                    if (x >= t->rotation.key_count) {
                        x -= t->rotation.key_count;
                        times = t->scale.times_s;
                    }
                }
                time = times[x];
                if (time > d)
                    continue;
            }
            const float ft = (float)time;
            ossa_transform got = ossa_clip_sample_joint(clip, j, ft, OSSA_ROTATION_NLERP);
            double v[3];
            gltf_eval3(&t->translation, ft, true, v);
            *et = fmax(*et, vec_error(&got.translation, v));
            gltf_eval3(&t->scale, ft, true, v);
            *es = fmax(*es, scale_error(&got.scale, v));
            *er = fmax(*er, ts_quat_angle(got.rotation, gltf_eval_quat(&t->rotation, ft, true)) * 180 / PI);
        }
    }
}

TEST(reported_error_bounds_the_measured_error)
{
    ts_rng r = ts_rng_make(106);
    ossa_skeleton *sk = chain(10);
    REQUIRE(sk);
    const struct {
        bool on_grid;
        float rate;
        int interp;
        double max_angle;
    } cases[] = {
        {false, 0.0f, OSSA_INTERP_LINEAR, 2.0},   {false, 0.0f, OSSA_INTERP_CUBICSPLINE, 1.0},
        {false, 8.0f, -1, 1.5},                  {true, 0.0f, OSSA_INTERP_LINEAR, 2.5},
        {true, 5.0f, OSSA_INTERP_CUBICSPLINE, 0.5}, {false, 0.0f, OSSA_INTERP_STEP, 1.0},
        {false, 12.0f, -1, 3.0},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
        raw_store s = store_make(&r, sk, 7, cases[c].on_grid, 10.0, cases[c].interp, cases[c].max_angle);
        ossa_raw_clip raw = {"report", 0.0f, s.tracks, s.joints};
        ossa_clip_build_options options;
        memset(&options, 0, sizeof options);
        options.rate = cases[c].rate;
        ossa_clip *clip = NULL;
        ossa_clip_build_report report;
        CHECK_RESULT(ossa_clip_build(&raw, sk, &options, &clip, &report, NULL), OSSA_OK);
        if (!clip) {
            store_free(&s);
            continue;
        }
        double et, er, es;
        measure_errors(clip, &s, &et, &er, &es);
        float ct, cr, cs;
        ossa_clip_build_error(clip, &ct, &cr, &cs);
        CHECK(ct == report.max_translation_error && cr == report.max_rotation_error_deg &&
              cs == report.max_scale_error);
        const bool ok = et <= report.max_translation_error + REPORT_SLACK &&
                        er <= report.max_rotation_error_deg + REPORT_SLACK * 180 / PI &&
                        es <= report.max_scale_error + REPORT_SLACK;
        if (!ok)
            fprintf(stderr,
                    "case %zu (%d frames at %g Hz): measured t %.6g r %.6g deg s %.6g, reported "
                    "t %.6g r %.6g deg s %.6g\n",
                    c, report.frame_count, (double)report.rate, et, er, es,
                    (double)report.max_translation_error, (double)report.max_rotation_error_deg,
                    (double)report.max_scale_error);
        CHECK(ok);
        /* And the report is not vacuous: the error it states is there. */
        CHECK(et >= 0.5 * report.max_translation_error - REPORT_SLACK);
        CHECK(er >= 0.5 * report.max_rotation_error_deg - REPORT_SLACK * 180 / PI);
        ossa_clip_free(clip, NULL);
        store_free(&s);
    }
    ossa_skeleton_free(sk, NULL);
}

TEST(raw_track_eval_follows_gltf)
{
    ts_rng r = ts_rng_make(107);
    ossa_skeleton *sk = chain(8);
    REQUIRE(sk);
    raw_store s = store_make(&r, sk, 6, false, 10.0, -1, 2.0);
    double worst = 0, worst_angle = 0;
    for (int j = 0; j < s.joints; ++j)
        for (int k = 0; k < 500; ++k) {
            const float t = (float)ts_uniform(&r, -0.5, 2.5);
            double v[3];
            gltf_eval3(&s.tracks[j].translation, t, false, v);
            ossa_float3 got = ossa_raw_track3_eval(&s.tracks[j].translation, t);
            worst = fmax(worst, vec_error(&got, v));
            ossa_quat q = ossa_raw_track_quat_eval(&s.tracks[j].rotation, t);
            worst_angle = fmax(worst_angle, ts_quat_angle(q, gltf_eval_quat(&s.tracks[j].rotation, t, false)));
        }
    CHECK_NEAR(worst, 0, EVAL_TOL);
    CHECK_NEAR(worst_angle, 0, EVAL_TOL);
    ossa_float3 none = ossa_raw_track3_eval(NULL, 0.0f);
    CHECK(none.x == 0 && none.y == 0 && none.z == 0);
    ossa_quat id = ossa_raw_track_quat_eval(NULL, 0.0f);
    CHECK(id.w == 1);
    store_free(&s);
    ossa_skeleton_free(sk, NULL);
}

/* ---- rate, duration, rest fill, matching ---- */

static ossa_clip *build_one(const ossa_skeleton *sk, const ossa_raw_joint_track *tracks, int n,
                            float duration, float rate, ossa_clip_build_report *report,
                            ossa_error *e)
{
    ossa_raw_clip raw = {"one", duration, tracks, n};
    ossa_clip_build_options options;
    memset(&options, 0, sizeof options);
    options.rate = rate;
    ossa_clip *clip = NULL;
    ossa_clip_build(&raw, sk, &options, &clip, report, e);
    return clip;
}

TEST(automatic_rate_follows_the_key_grid)
{
    ossa_skeleton *sk = chain(2);
    REQUIRE(sk);
    /* Keys every `step` s; the expected rate, or 0 for "none aligns": 30 Hz,
     * raised so that whole frames span the duration. */
    const struct {
        float step;
        float rate;
    } cases[] = {{1.0f / 30, 30}, {1.0f / 24, 24}, {0.1f, 30},     {0.5f, 24},
                 {1.0f / 60, 60}, {1.0f / 25, 25}, {1.0f / 7, 28}, {0.0137f, 0}};
    enum { KEYS = 41 };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
        float times[KEYS];
        ossa_float3 v[KEYS];
        for (int k = 0; k < KEYS; ++k) {
            times[k] = (float)k * cases[c].step;
            v[k] = (ossa_float3){(float)(k % 3), 0, 0};
        }
        ossa_raw_joint_track t = {"j1", {times, v, NULL, NULL, KEYS, OSSA_INTERP_LINEAR}, {0}, {0}};
        ossa_clip_build_report report;
        ossa_clip *clip = build_one(sk, &t, 1, 0.0f, 0.0f, &report, NULL);
        REQUIRE(clip);
        const double duration = times[KEYS - 1];
        const double expect = cases[c].rate > 0 ? cases[c].rate : ceil(duration * 30) / duration;
        CHECK_NEAR(report.rate, expect, RATE_TOL);
        CHECK_NEAR(report.duration_s, duration, HERMITE_TOL);
        CHECK_INT(report.frame_count, ossa_clip_frame_count(clip));
        CHECK_NEAR(ossa_clip_rate(clip) * ossa_clip_duration(clip), report.frame_count - 1, RATE_TOL);
        /* On a grid the keys land on frames: no error beyond float rounding. */
        if (cases[c].rate > 0)
            CHECK(report.max_translation_error <= REPORT_SLACK);
        ossa_clip_free(clip, NULL);
    }
    ossa_skeleton_free(sk, NULL);
}

TEST(long_clips_keep_their_key_rate)
{
    ossa_skeleton *sk = chain(2);
    REQUIRE(sk);
    /* 55 minutes of keys at 30 Hz: far into the clip a float key time is
     * coarser (2.4e-4 s) than any fixed tolerance. */
    enum { KEYS = 100001 };
    float *times = malloc(sizeof *times * KEYS);
    ossa_float3 *v = malloc(sizeof *v * KEYS);
    for (int k = 0; k < KEYS; ++k) {
        times[k] = (float)k / 30.0f;
        v[k] = (ossa_float3){(float)(k % 7), 0, 0};
    }
    ossa_raw_joint_track t = {"j1", {times, v, NULL, NULL, KEYS, OSSA_INTERP_STEP}, {0}, {0}};
    ossa_clip_build_report report;
    ossa_clip *clip = build_one(sk, &t, 1, 0.0f, 0.0f, &report, NULL);
    REQUIRE(clip);
    CHECK_INT(report.frame_count, KEYS);
    CHECK_NEAR(report.rate, 30.0, RATE_TOL);
    /* Every key is a frame, bit for bit. */
    int wrong = 0;
    for (int k = 0; k < KEYS; k += 97) {
        ossa_transform x = ossa_clip_sample_joint(clip, 1, times[k], OSSA_ROTATION_NLERP);
        wrong += x.translation.x != v[k].x;
    }
    CHECK_INT(wrong, 0);
    CHECK(report.max_translation_error == 0.0f);
    ossa_clip_free(clip, NULL);
    free(times);
    free(v);
    ossa_skeleton_free(sk, NULL);
}

TEST(curves_hold_before_the_first_and_after_the_last_key_and_rest_fills_the_rest)
{
    ossa_skeleton *sk = chain(3);
    REQUIRE(sk);
    const ossa_transform *rest = ossa_skeleton_rest_pose(sk);
    float times[2] = {0.5f, 1.0f};
    ossa_float3 v[2] = {{1, 2, 3}, {4, 5, 6}};
    ossa_raw_joint_track tracks[2] = {
        {"j1", {times, v, NULL, NULL, 2, OSSA_INTERP_LINEAR}, {0}, {0}},
        {"elsewhere", {times, v, NULL, NULL, 2, OSSA_INTERP_LINEAR}, {0}, {0}},
    };
    ossa_clip_build_report report;
    ossa_clip *clip = build_one(sk, tracks, 2, 2.0f, 10.0f, &report, NULL);
    REQUIRE(clip);
    CHECK_INT(report.matched_tracks, 1);
    CHECK_INT(report.unmatched_tracks, 1);
    CHECK(report.first_unmatched && strcmp(report.first_unmatched, "elsewhere") == 0);
    CHECK_INT(report.frame_count, 21);
    const float probes[] = {0.0f, 0.2f, 0.5f, 1.0f, 1.5f, 2.0f};
    const float expect_x[] = {1, 1, 1, 4, 4, 4};
    for (size_t p = 0; p < sizeof probes / sizeof probes[0]; ++p) {
        ossa_transform x = ossa_clip_sample_joint(clip, 1, probes[p], OSSA_ROTATION_NLERP);
        CHECK(x.translation.x == expect_x[p]);
        /* The joint's other curves and the other joints hold the rest pose. */
        CHECK(memcmp(&x.scale, &rest[1].scale, sizeof x.scale) == 0);
        CHECK(ts_quat_angle(x.rotation, ts_dquat_from(rest[1].rotation)) < KEY_ANGLE_TOL);
        ossa_transform y = ossa_clip_sample_joint(clip, 2, probes[p], OSSA_ROTATION_NLERP);
        CHECK(memcmp(&y.translation, &rest[2].translation, sizeof y.translation) == 0);
    }
    ossa_transform mid = ossa_clip_sample_joint(clip, 1, 0.75f, OSSA_ROTATION_NLERP);
    CHECK_NEAR(mid.translation.y, 3.5, HERMITE_TOL);
    ossa_clip_free(clip, NULL);
    ossa_skeleton_free(sk, NULL);
}

/* ---- errors ---- */

static void expect_error(const ossa_skeleton *sk, const ossa_raw_joint_track *tracks, int n,
                         float duration, int max_frames, ossa_result code, int index,
                         const char *named)
{
    ossa_raw_clip raw = {"bad", duration, tracks, n};
    ossa_clip_build_options options;
    memset(&options, 0, sizeof options);
    options.max_frames = max_frames;
    ossa_clip *clip = (ossa_clip *)&raw;
    ossa_error e;
    CHECK_RESULT(ossa_clip_build(&raw, sk, &options, &clip, NULL, &e), code);
    CHECK(clip == NULL);
    if (index != -2)
        CHECK_INT(e.index, index);
    if (named && !strstr(e.message, named)) {
        fprintf(stderr, "message \"%s\" does not name %s\n", e.message, named);
        CHECK(strstr(e.message, named) != NULL);
    }
}

TEST(clip_rejects_unsorted_keys_naming_joint_and_key)
{
    ossa_skeleton *sk = chain(3);
    REQUIRE(sk);
    float times[4] = {0.0f, 0.5f, 0.4f, 1.0f};
    ossa_float3 v[4] = {{0, 0, 0}, {1, 0, 0}, {2, 0, 0}, {3, 0, 0}};
    ossa_quat q[4] = {{0, 0, 0, 1}, {0, 0, 0, 1}, {0, 0, 0, 1}, {0, 0, 0, 1}};
    ossa_raw_joint_track t = {"j2", {times, v, NULL, NULL, 4, OSSA_INTERP_LINEAR}, {0}, {0}};
    expect_error(sk, &t, 1, 0, 0, OSSA_ERR_CLIP_BAD_KEYS, 2, "'j2' translation key 2");
    t.translation.key_count = 0;
    t.rotation = (ossa_raw_track_quat){times, q, NULL, NULL, 4, OSSA_INTERP_STEP};
    expect_error(sk, &t, 1, 0, 0, OSSA_ERR_CLIP_BAD_KEYS, 2, "'j2' rotation key 2");
    t.rotation.key_count = 0;
    t.scale = (ossa_raw_track3){times, v, NULL, NULL, 4, OSSA_INTERP_LINEAR};
    expect_error(sk, &t, 1, 0, 0, OSSA_ERR_CLIP_BAD_KEYS, 2, "'j2' scale key 2");
    /* A track naming no joint is still checked, and named. */
    t.joint_name = "ghost";
    expect_error(sk, &t, 1, 0, 0, OSSA_ERR_CLIP_BAD_KEYS, 2, "'ghost'");
    ossa_skeleton_free(sk, NULL);
}

TEST(a_repeated_key_time_is_a_jump_to_the_later_key)
{
    ossa_skeleton *sk = chain(2);
    REQUIRE(sk);
    /* x rises 0 -> 1 over [0, 0.5), jumps to 3 at 0.5, rises to 4 at 1. */
    float times[4] = {0.0f, 0.5f, 0.5f, 1.0f};
    ossa_float3 v[4] = {{0, 0, 0}, {1, 0, 0}, {3, 0, 0}, {4, 0, 0}};
    ossa_raw_joint_track t = {"j1", {times, v, NULL, NULL, 4, OSSA_INTERP_LINEAR}, {0}, {0}};
    CHECK_NEAR(ossa_raw_track3_eval(&t.translation, 0.25f).x, 0.5, EVAL_TOL);
    CHECK_NEAR(ossa_raw_track3_eval(&t.translation, 0.5f).x, 3.0, EVAL_TOL);
    CHECK_NEAR(ossa_raw_track3_eval(&t.translation, 0.75f).x, 3.5, EVAL_TOL);
    ossa_error e;
    ossa_clip *clip = build_one(sk, &t, 1, 0.0f, 10.0f, NULL, &e);
    REQUIRE(clip);
    REQUIRE(ossa_clip_frame_count(clip) == 11);
    for (int f = 0; f <= 10; ++f) {
        const double at = f / 10.0, want = at < 0.5 ? 2.0 * at : 3.0 + 2.0 * (at - 0.5);
        const ossa_transform x =
            ossa_clip_sample_joint(clip, 1, (float)f / 10.0f, OSSA_ROTATION_NLERP);
        CHECK_NEAR(x.translation.x, want, EVAL_TOL);
    }
    ossa_clip_free(clip, NULL);
    ossa_skeleton_free(sk, NULL);
}

TEST(clip_rejects_non_finite_keys_naming_joint_and_key)
{
    ossa_skeleton *sk = chain(2);
    REQUIRE(sk);
    float times[3] = {0.0f, 0.5f, 1.0f};
    ossa_float3 v[3] = {{0, 0, 0}, {1, 0, 0}, {2, 0, 0}};
    ossa_quat q[3] = {{0, 0, 0, 1}, {0, 0, 0, 1}, {0, 0, 0, 1}};
    ossa_raw_joint_track t = {"j1", {times, v, v, v, 3, OSSA_INTERP_CUBICSPLINE},
                              {times, q, q, q, 3, OSSA_INTERP_CUBICSPLINE}, {0}};
    times[1] = NAN;
    expect_error(sk, &t, 1, 0, 0, OSSA_ERR_CLIP_BAD_KEYS, 1, "'j1' translation key 1");
    times[1] = INFINITY;
    expect_error(sk, &t, 1, 0, 0, OSSA_ERR_CLIP_BAD_KEYS, 1, "'j1'");
    times[1] = 0.5f;
    v[2].y = NAN; /* a value, and the tangents sharing it */
    expect_error(sk, &t, 1, 0, 0, OSSA_ERR_CLIP_BAD_KEYS, 2, "'j1' translation key 2");
    v[2].y = 0;
    t.translation.in_tangents = NULL;
    expect_error(sk, &t, 1, 0, 0, OSSA_ERR_MISSING_INPUT, -2, "'j1'");
    t.translation.in_tangents = v;
    ossa_quat tangents[3] = {{0, 0, 0, 0}, {0, INFINITY, 0, 0}, {0, 0, 0, 0}};
    t.rotation.out_tangents = tangents;
    expect_error(sk, &t, 1, 0, 0, OSSA_ERR_CLIP_BAD_KEYS, 1, "'j1' rotation key 1");
    t.rotation.out_tangents = q;
    q[0] = (ossa_quat){0, 0, 0, 0};
    expect_error(sk, &t, 1, 0, 0, OSSA_ERR_CLIP_BAD_KEYS, 0, "'j1' rotation key 0");
    q[0] = (ossa_quat){0, 0, 0, 1};
    t.rotation.interpolation = OSSA_INTERP_COUNT;
    expect_error(sk, &t, 1, 0, 0, OSSA_ERR_BAD_ARGUMENT, -2, "'j1'");
    t.rotation.interpolation = OSSA_INTERP_LINEAR;
    t.rotation.key_count = -1;
    expect_error(sk, &t, 1, 0, 0, OSSA_ERR_CLIP_BAD_KEYS, -2, "'j1'");
    t.rotation.key_count = 3;
    t.rotation.times_s = NULL;
    expect_error(sk, &t, 1, 0, 0, OSSA_ERR_MISSING_INPUT, -2, "'j1'");
    ossa_skeleton_free(sk, NULL);
}

TEST(clip_rejects_tracks_that_match_no_joint)
{
    ossa_skeleton *sk = chain(2);
    REQUIRE(sk);
    float times[2] = {0.0f, 1.0f};
    ossa_float3 v[2] = {{0, 0, 0}, {1, 0, 0}};
    ossa_raw_joint_track t[2] = {{"hand", {times, v, NULL, NULL, 2, OSSA_INTERP_LINEAR}, {0}, {0}},
                                 {"foot", {times, v, NULL, NULL, 2, OSSA_INTERP_LINEAR}, {0}, {0}}};
    expect_error(sk, t, 2, 0, 0, OSSA_ERR_CLIP_EMPTY, -1, "'hand'");
    t[0].joint_name = NULL; /* no name matches nothing */
    expect_error(sk, t, 1, 0, 0, OSSA_ERR_CLIP_EMPTY, -1, NULL);
    expect_error(sk, t, 0, 0, 0, OSSA_ERR_CLIP_EMPTY, -1, NULL);
    /* Matching tracks without keys: empty too. */
    ossa_raw_joint_track keyless = {"j1", {0}, {0}, {0}};
    expect_error(sk, &keyless, 1, 0, 0, OSSA_ERR_CLIP_EMPTY, -1, NULL);
    /* Two tracks for one joint. */
    t[0].joint_name = "j1";
    t[1].joint_name = "j1";
    expect_error(sk, t, 2, 0, 0, OSSA_ERR_CLIP_BAD_KEYS, 1, "'j1' has two tracks");
    ossa_skeleton_free(sk, NULL);
}

TEST(clip_rejects_too_many_frames)
{
    ossa_skeleton *sk = chain(2);
    REQUIRE(sk);
    float times[2] = {0.0f, 10.0f};
    ossa_float3 v[2] = {{0, 0, 0}, {1, 0, 0}};
    ossa_raw_joint_track t = {"j0", {times, v, NULL, NULL, 2, OSSA_INTERP_LINEAR}, {0}, {0}};
    /* 10 s at 24 Hz: 241 frames. */
    expect_error(sk, &t, 1, 0, 240, OSSA_ERR_CLIP_TOO_LARGE, -1, "241 frames");
    ossa_clip_build_report report;
    ossa_clip *clip = build_one(sk, &t, 1, 0, 0, &report, NULL);
    CHECK(clip && report.frame_count == 241);
    ossa_clip_free(clip, NULL);
    /* A huge duration fails without trying to allocate it. */
    expect_error(sk, &t, 1, 1e30f, 0, OSSA_ERR_CLIP_TOO_LARGE, -1, NULL);
    expect_error(sk, &t, 1, -1.0f, 0, OSSA_ERR_BAD_VALUE, -1, NULL);
    expect_error(sk, &t, 1, NAN, 0, OSSA_ERR_BAD_VALUE, -1, NULL);
    ossa_raw_clip raw = {"x", 0, &t, 1};
    ossa_clip_build_options options;
    memset(&options, 0, sizeof options);
    options.rate = -30.0f;
    CHECK_RESULT(ossa_clip_build(&raw, sk, &options, &clip, NULL, NULL), OSSA_ERR_BAD_VALUE);
    CHECK_RESULT(ossa_clip_build(&raw, NULL, NULL, &clip, NULL, NULL), OSSA_ERR_MISSING_INPUT);
    CHECK_RESULT(ossa_clip_build(NULL, sk, NULL, &clip, NULL, NULL), OSSA_ERR_MISSING_INPUT);
    CHECK_RESULT(ossa_clip_build(&raw, sk, NULL, NULL, NULL, NULL), OSSA_ERR_MISSING_OUTPUT);
    ossa_skeleton_free(sk, NULL);
}

TEST(clip_rejects_a_spline_that_leaves_float_range)
{
    ossa_skeleton *sk = chain(3);
    REQUIRE(sk);
    /* Finite keys and tangents whose Hermite spline peaks above FLT_MAX. */
    float times[2] = {0.0f, 1.0f};
    ossa_float3 v[2] = {{3e38f, 0, 0}, {3e38f, 0, 0}};
    ossa_float3 in[2] = {{-3e38f, 0, 0}, {-3e38f, 0, 0}};
    ossa_float3 out[2] = {{3e38f, 0, 0}, {3e38f, 0, 0}};
    ossa_raw_joint_track t = {"j2", {0}, {0}, {times, v, in, out, 2, OSSA_INTERP_CUBICSPLINE}};
    expect_error(sk, &t, 1, 0, 0, OSSA_ERR_CLIP_BAD_KEYS, 2, "'j2' scale leaves the float range");
    /* Near the limit but inside it, the clip builds and validates. */
    v[0].x = v[1].x = 1e38f;
    ossa_clip_build_report report;
    ossa_clip *clip = build_one(sk, &t, 1, 0, 10.0f, &report, NULL);
    REQUIRE(clip);
    CHECK_RESULT(ossa_clip_validate(clip, ossa_clip_bytes(clip), NULL, NULL), OSSA_OK);
    CHECK(report.max_scale_error >= 0.0f && isfinite(report.max_scale_error));
    ossa_clip_free(clip, NULL);
    ossa_skeleton_free(sk, NULL);
}

TEST(keys_within_one_instant_make_a_one_frame_clip)
{
    ossa_skeleton *sk = chain(2);
    REQUIRE(sk);
    /* Found by roundtrip_fuzz: a denormal span gave two frames at rate inf. */
    float times[2] = {0.0f, 7.2e-43f};
    ossa_float3 v[2] = {{0, 0, 0}, {1, 0, 0}};
    ossa_raw_joint_track t = {"j1", {times, v, NULL, NULL, 2, OSSA_INTERP_LINEAR}, {0}, {0}};
    const float durations[3] = {0.0f, 1e-30f, 2e-6f}; /* from the keys, and explicit */
    for (int d = 0; d < 3; ++d) {
        ossa_clip_build_report report;
        ossa_clip *clip = build_one(sk, &t, 1, durations[d], 0.0f, &report, NULL);
        REQUIRE(clip);
        CHECK_INT(ossa_clip_frame_count(clip), 1);
        CHECK(ossa_clip_rate(clip) == 0.0f && ossa_clip_duration(clip) == 0.0f);
        CHECK_RESULT(ossa_clip_validate(clip, ossa_clip_bytes(clip), NULL, NULL), OSSA_OK);
        ossa_clip_free(clip, NULL);
    }
    ossa_skeleton_free(sk, NULL);
}

TEST(clip_build_fails_cleanly_at_every_allocation)
{
    ts_rng r = ts_rng_make(108);
    ossa_skeleton *sk = chain(7);
    REQUIRE(sk);
    raw_store s = store_make(&r, sk, 5, false, 10.0, -1, 1.0);
    ossa_raw_clip raw = {"alloc", 0.0f, s.tracks, s.joints};
    ts_failing_allocator counter;
    ts_failing_allocator_init(&counter, -1);
    ossa_clip_build_options options;
    memset(&options, 0, sizeof options);
    options.allocator = counter.allocator;
    ossa_clip *clip = NULL;
    REQUIRE(ossa_clip_build(&raw, sk, &options, &clip, NULL, NULL) == OSSA_OK);
    ossa_clip_free(clip, &options.allocator);
    CHECK_INT(counter.live, 0);
    const int allocations = counter.count;
    CHECK(allocations >= 2);
    for (int n = 0; n < allocations; ++n) {
        ts_failing_allocator a;
        ts_failing_allocator_init(&a, n);
        options.allocator = a.allocator;
        ossa_error e;
        clip = (ossa_clip *)&raw;
        CHECK_RESULT(ossa_clip_build(&raw, sk, &options, &clip, NULL, &e), OSSA_ERR_OUT_OF_MEMORY);
        CHECK(clip == NULL);
        CHECK_INT(a.live, 0);
        CHECK(strstr(e.message, "out of memory") != NULL);
    }
    store_free(&s);
    ossa_skeleton_free(sk, NULL);
}

UTEST_MAIN(linear_keys_are_reproduced_exactly_at_key_times,
           step_keys_are_reproduced_exactly_at_key_times,
           cubicspline_matches_the_gltf_hermite_formula_between_keys,
           reported_error_bounds_the_measured_error, raw_track_eval_follows_gltf,
           automatic_rate_follows_the_key_grid, long_clips_keep_their_key_rate,
           curves_hold_before_the_first_and_after_the_last_key_and_rest_fills_the_rest,
           clip_rejects_unsorted_keys_naming_joint_and_key,
           a_repeated_key_time_is_a_jump_to_the_later_key,
           clip_rejects_non_finite_keys_naming_joint_and_key,
           clip_rejects_tracks_that_match_no_joint, clip_rejects_too_many_frames,
           clip_rejects_a_spline_that_leaves_float_range,
           keys_within_one_instant_make_a_one_frame_clip,
           clip_build_fails_cleanly_at_every_allocation)
