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
#include "clip_metric_check.h"
#include "ossa/ossa.h"
#include "ossa/pipeline.h"
#include "test_support.h"
#include "utest.h"

/* OSSA_TEST_NEEDS_PIPELINE */

#define PI 3.14159265358979323846

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
    ossa_clip_build_options raw_keys;
    memset(&raw_keys, 0, sizeof raw_keys);
    raw_keys.raw = true;
    CHECK_RESULT(ossa_clip_build(&raw, sk, &raw_keys, &clip, &report, &e), OSSA_OK);
    REQUIRE(clip);
    /* The automatic rate is a multiple of the key rate, at least 24 Hz. */
    const double multiple = report.rate / rate;
    CHECK_NEAR(multiple, floor(multiple + 0.5), RATE_TOL);
    CHECK(report.rate >= 24.0f);
    int wrong_t = 0, wrong_s = 0, wrong_r = 0;
    for (int j = 0; j < s.joints; ++j) {
        const ossa_raw_joint_track *t = &s.tracks[j];
        for (int k = 0; k < t->translation.key_count; ++k) {
            ossa_transform x = ossa_clip_sample_joint(clip, NULL, j, t->translation.times_s[k], OSSA_ROTATION_NLERP);
            wrong_t += memcmp(&x.translation, &t->translation.values[k], sizeof x.translation) != 0;
        }
        for (int k = 0; k < t->scale.key_count; ++k) {
            ossa_transform x = ossa_clip_sample_joint(clip, NULL, j, t->scale.times_s[k], OSSA_ROTATION_NLERP);
            wrong_s += memcmp(&x.scale, &t->scale.values[k], sizeof x.scale) != 0;
        }
        for (int k = 0; k < t->rotation.key_count; ++k) {
            ossa_transform x = ossa_clip_sample_joint(clip, NULL, j, t->rotation.times_s[k], OSSA_ROTATION_NLERP);
            const double a = ts_quat_angle(x.rotation, ts_dquat_from(t->rotation.values[k]));
            if (a > KEY_ANGLE_TOL && wrong_r++ < 3)
                fprintf(stderr, "joint %d rotation key %d: %g rad off\n", j, k, a);
        }
    }
    CHECK_INT(wrong_t, 0);
    CHECK_INT(wrong_s, 0);
    CHECK_INT(wrong_r, 0);
    /* Keys reproduced, LINEAR or STEP between them: within the tolerance. */
    CHECK(report.within_tolerance);
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
    options.raw = true;
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
                ossa_transform x = ossa_clip_sample_joint(clip, NULL, j, (float)(t0 + dt / 2), OSSA_ROTATION_NLERP);
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
            ossa_transform x = ossa_clip_sample_joint(clip, NULL, j, (float)(t0 + dt / 2), OSSA_ROTATION_NLERP);
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

/* The metric over the documented points (every frame; the middle and 0.5
 * -+ sqrt(3) / 6 of every frame interval; every key inside the clip) and
 * over 16 points inside every frame interval. */
static void measure_metric(const ossa_skeleton *sk, const raw_store *s, const ossa_clip *clip,
                           double d, double *at_points, double *dense)
{
    const double duration = ossa_clip_duration(clip);
    const int frames = ossa_clip_frame_count(clip);
    *at_points = *dense = 0;
    for (int f = 0; f < frames; ++f) {
        const double t0 = frames > 1 ? duration * f / (frames - 1) : 0.0;
        *at_points = fmax(*at_points, cm_metric_at(sk, s->tracks, clip, (float)t0, d));
        if (f + 1 == frames)
            break;
        const double t1 = duration * (f + 1) / (frames - 1);
        const double inside[3] = {0.5 - sqrt(3) / 6, 0.5, 0.5 + sqrt(3) / 6};
        for (int k = 0; k < 3; ++k)
            *at_points = fmax(*at_points, cm_metric_at(sk, s->tracks, clip, (float)(t0 + (t1 - t0) * inside[k]), d));
        for (int k = 1; k < 16; ++k)
            *dense = fmax(*dense, cm_metric_at(sk, s->tracks, clip, (float)(t0 + (t1 - t0) * k / 16), d));
    }
    for (int j = 0; j < s->joints; ++j) {
        const ossa_raw_joint_track *t = &s->tracks[j];
        const ossa_raw_track3 *c3[2] = {&t->translation, &t->scale};
        for (int c = 0; c < 3; ++c) {
            const float *times = c < 2 ? c3[c]->times_s : t->rotation.times_s;
            const int n = c < 2 ? c3[c]->key_count : t->rotation.key_count;
            for (int k = 0; k < n; ++k)
                if (times[k] >= 0 && times[k] <= duration)
                    *at_points = fmax(*at_points, cm_metric_at(sk, s->tracks, clip, times[k], d));
        }
    }
    *dense = fmax(*dense, *at_points);
}

TEST(reported_error_is_the_metric_at_its_points)
{
    ts_rng r = ts_rng_make(106);
    ossa_skeleton *sk = chain(6);
    REQUIRE(sk);
    const struct {
        bool on_grid;
        float rate;
        int interp;
        double max_angle;
    } cases[] = {
        {false, 0.0f, OSSA_INTERP_LINEAR, 0.5},   {false, 0.0f, OSSA_INTERP_CUBICSPLINE, 0.3},
        {false, 8.0f, -1, 1.5},                  {true, 0.0f, OSSA_INTERP_LINEAR, 2.5},
        {true, 5.0f, OSSA_INTERP_CUBICSPLINE, 0.5}, {false, 0.0f, OSSA_INTERP_STEP, 1.0},
        {false, 12.0f, -1, 3.0},                 {true, 0.0f, OSSA_INTERP_CUBICSPLINE, 0.3},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
        raw_store s = store_make(&r, sk, 7, cases[c].on_grid, 10.0, cases[c].interp, cases[c].max_angle);
        ossa_raw_clip raw = {"report", 0.0f, s.tracks, s.joints};
        ossa_clip_build_options options;
        memset(&options, 0, sizeof options);
    options.raw = true;
        options.rate = cases[c].rate;
        ossa_clip *clip = NULL;
        ossa_clip_build_report report;
        CHECK_RESULT(ossa_clip_build(&raw, sk, &options, &clip, &report, NULL), OSSA_OK);
        if (!clip) {
            store_free(&s);
            continue;
        }
        /* The chain's units are unknown: metres, 0.1 mm at 3 cm. */
        CHECK(report.units_assumed_metres);
        CHECK_NEAR(report.tolerance, 1e-4, 1e-9);
        CHECK_NEAR(report.distance, 0.03, 1e-9);
        double at_points, dense;
        measure_metric(sk, &s, clip, report.distance, &at_points, &dense);
        int joint;
        float time;
        CHECK(ossa_clip_error(clip, &joint, &time) == report.error);
        CHECK(joint == report.error_joint && time == report.error_time_s);
        /* The report is the metric at its points, computed independently
         * here: up to the float rounding of the sampled pose (values up to 4
         * along a chain of 6) at times rounded separately here. */
        const double slack = 5e-6 + 1e-6 * report.error;
        if (!(fabs(at_points - report.error) <= slack))
            fprintf(stderr, "case %zu (%d frames at %g Hz): measured %.9g, reported %.9g\n", c,
                    report.frame_count, (double)report.rate, at_points, (double)report.error);
        CHECK(fabs(at_points - report.error) <= slack);
        CHECK(report.within_tolerance == (report.error <= report.tolerance));
        /* The automatic rate stops at the first that is within the
         * tolerance, or says that none was; between the points the error
         * rises little above them. */
        if (cases[c].rate == 0.0f)
            CHECK(report.within_tolerance || report.rates_tried > 1);
        else
            CHECK_INT(report.rates_tried, 1);
        if (!(dense <= 1.3 * at_points + 5e-6))
            fprintf(stderr, "case %zu: %.6g between the points, %.6g at them\n", c, dense,
                    at_points);
        CHECK(dense <= 1.3 * at_points + 5e-6);
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
           reported_error_is_the_metric_at_its_points, raw_track_eval_follows_gltf)
