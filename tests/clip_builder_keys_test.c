/* clip_builder_keys_test.c - raw curves -> runtime clips, checked against an
 * independent glTF 2.0 evaluation in double precision: keys reproduced at key
 * times, CUBICSPLINE Hermite values between keys, the reported error bounding
 * the error measured here, and the raw tracks' own evaluation. */
#include <float.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clip_builder_test_support.h"
#include "ossa/ossa.h"
#include "ossa/pipeline.h"
#include "test_support.h"
#include "utest.h"

/* OSSA_TEST_NEEDS_PIPELINE */

#define PI 3.14159265358979323846

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

UTEST_MAIN(linear_keys_are_reproduced_exactly_at_key_times,
           step_keys_are_reproduced_exactly_at_key_times,
           cubicspline_matches_the_gltf_hermite_formula_between_keys,
           reported_error_bounds_the_measured_error, raw_track_eval_follows_gltf)
