/* clip_builder_rate_test.c - the clip builder's frame grid: the automatic rate
 * follows the keys' grid, long clips keep their key rate, curves hold outside
 * their keys and the rest pose fills joints without tracks. */
#include <stdlib.h>
#include <string.h>

#include "clip_builder_test_support.h"
#include "ossa/ossa.h"
#include "ossa/pipeline.h"
#include "test_support.h"
#include "utest.h"

/* OSSA_TEST_NEEDS_PIPELINE */

TEST(automatic_rate_follows_the_key_grid)
{
    ossa_skeleton *sk = chain(2);
    REQUIRE(sk);
    /* Keys every `step` s, the expected rate (the step, raised to >= 24 Hz
     * by a whole multiple); jittered keys: 0, none aligns. */
    const struct {
        float step;
        float rate;
    } cases[] = {{1.0f / 30, 30}, {1.0f / 24, 24}, {0.1f, 30},     {0.5f, 24},
                 {1.0f / 60, 60}, {1.0f / 25, 25}, {1.0f / 7, 28}, {0.0137f, 1 / 0.0137f},
                 {0.05f, 0}};
    enum { KEYS = 41 };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
        float times[KEYS];
        ossa_float3 v[KEYS];
        for (int k = 0; k < KEYS; ++k) {
            times[k] = (float)k * cases[c].step;
            if (cases[c].rate == 0 && k % 3 == 1)
                times[k] += 0.0123f; /* off any grid */
            v[k] = (ossa_float3){(float)(k % 3), 0, 0};
        }
        ossa_raw_joint_track t = {"j1", {times, v, NULL, NULL, KEYS, OSSA_INTERP_LINEAR}, {0}, {0}};
        ossa_clip_build_report report;
        ossa_clip *clip = build_one(sk, &t, 1, 0.0f, 0.0f, &report, NULL);
        REQUIRE(clip);
        const double duration = times[KEYS - 1];
        CHECK(report.keys_on_grid == (cases[c].rate > 0));
        CHECK_NEAR(report.key_rate, cases[c].rate > 0 ? cases[c].rate : 30.0f, RATE_TOL);
        /* On the grid the keys land on frames and nothing is lost; off it,
         * the rate rises from 30 Hz until the error is within the bound. */
        if (cases[c].rate > 0) {
            CHECK_NEAR(report.rate, cases[c].rate, RATE_TOL);
            CHECK_INT(report.rates_tried, 1);
        } else {
            const double multiple = report.rate / 30.0;
            CHECK(report.rate > 30.0f);
            CHECK(report.within_tolerance || report.rates_tried > 1);
            CHECK_NEAR(ceil(duration * 30 * floor(multiple + 0.5)) / duration, report.rate, RATE_TOL);
        }
        CHECK_NEAR(report.duration_s, duration, HERMITE_TOL);
        CHECK_INT(report.frame_count, ossa_clip_frame_count(clip));
        CHECK_NEAR(ossa_clip_rate(clip) * ossa_clip_duration(clip), report.frame_count - 1, RATE_TOL);
        if (cases[c].rate > 0)
            CHECK(report.within_tolerance);
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
        ossa_transform x = ossa_clip_sample_joint(clip, NULL, 1, times[k], OSSA_ROTATION_NLERP);
        wrong += x.translation.x != v[k].x;
    }
    CHECK_INT(wrong, 0);
    CHECK(report.error <= 1e-6f);
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
        ossa_transform x = ossa_clip_sample_joint(clip, NULL, 1, probes[p], OSSA_ROTATION_NLERP);
        CHECK(x.translation.x == expect_x[p]);
        /* The joint's other curves and the other joints hold the rest pose. */
        CHECK(memcmp(&x.scale, &rest[1].scale, sizeof x.scale) == 0);
        CHECK(ts_quat_angle(x.rotation, ts_dquat_from(rest[1].rotation)) < KEY_ANGLE_TOL);
        ossa_transform y = ossa_clip_sample_joint(clip, NULL, 2, probes[p], OSSA_ROTATION_NLERP);
        CHECK(memcmp(&y.translation, &rest[2].translation, sizeof y.translation) == 0);
    }
    ossa_transform mid = ossa_clip_sample_joint(clip, NULL, 1, 0.75f, OSSA_ROTATION_NLERP);
    CHECK_NEAR(mid.translation.y, 3.5, HERMITE_TOL);
    ossa_clip_free(clip, NULL);
    ossa_skeleton_free(sk, NULL);
}

/* A spline between keys 0.1 s apart, far from straight: the automatic rate
 * rises until uniform keys are within the tolerance, and half of it is not
 * enough (the rate is not wasted). */
TEST(automatic_rate_rises_until_the_error_is_within_the_tolerance)
{
    ossa_skeleton *sk = chain(2);
    REQUIRE(sk);
    enum { KEYS = 6 };
    float times[KEYS];
    ossa_float3 v[KEYS], in[KEYS], out[KEYS];
    for (int k = 0; k < KEYS; ++k) {
        times[k] = 0.1f * (float)k;
        v[k] = (ossa_float3){(float)(k % 2), 0, 0};
        in[k] = (ossa_float3){0, 4.0f, 0};
        out[k] = (ossa_float3){0, -4.0f, 0};
    }
    ossa_raw_joint_track t = {"j1", {times, v, in, out, KEYS, OSSA_INTERP_CUBICSPLINE}, {0}, {0}};
    ossa_clip_build_report report;
    ossa_clip *clip = build_one(sk, &t, 1, 0.0f, 0.0f, &report, NULL);
    REQUIRE(clip);
    CHECK_NEAR(report.key_rate, 30.0, RATE_TOL);
    CHECK(report.keys_on_grid);
    CHECK(report.within_tolerance);
    CHECK(report.rate > 60.0f);
    CHECK(report.rates_tried >= 2);
    ossa_clip_free(clip, NULL);
    ossa_clip_build_report half;
    clip = build_one(sk, &t, 1, 0.0f, report.rate / 2, &half, NULL);
    REQUIRE(clip);
    CHECK(!half.within_tolerance);
    CHECK_INT(half.rates_tried, 1);
    CHECK(half.error > report.error);
    ossa_clip_free(clip, NULL);
    ossa_skeleton_free(sk, NULL);
}

/* Mocap stores its keys as multiples of a step that is no whole rate
 * (1 / 120 s in float): that step is the key rate, and keys stay on frames. */
TEST(a_common_key_step_is_the_key_rate)
{
    ossa_skeleton *sk = chain(2);
    REQUIRE(sk);
    enum { KEYS = 1000 };
    float *times = malloc(sizeof *times * KEYS);
    ossa_float3 *v = malloc(sizeof *v * KEYS);
    const float step = 0.008333f;
    for (int k = 0; k < KEYS; ++k) {
        times[k] = (float)k * step;
        v[k] = (ossa_float3){(float)sin(k * 0.05), 0, 0};
    }
    ossa_raw_joint_track t = {"j1", {times, v, NULL, NULL, KEYS, OSSA_INTERP_LINEAR}, {0}, {0}};
    ossa_clip_build_report report;
    ossa_clip *clip = build_one(sk, &t, 1, 0.0f, 0.0f, &report, NULL);
    REQUIRE(clip);
    CHECK(report.keys_on_grid);
    CHECK_NEAR(report.key_rate, 1.0 / step, 1e-3);
    CHECK_INT(report.frame_count, KEYS);
    CHECK(report.within_tolerance);
    ossa_clip_free(clip, NULL);
    free(times);
    free(v);
    ossa_skeleton_free(sk, NULL);
}

/* The tolerance and distance are metres, converted with the skeleton's
 * units: a centimetre skeleton measures 0.01 units at 3 units. */
TEST(tolerance_follows_the_skeleton_units)
{
    ossa_transform rest[2];
    for (int i = 0; i < 2; ++i)
        rest[i] = (ossa_transform){{0, (float)i, 0}, {0, 0, 0, 1}, {1, 1, 1}};
    ossa_raw_skeleton raw = {NULL, 2};
    ossa_raw_joint joints[2] = {{"j0", -1, rest[0]}, {"j1", 0, rest[1]}};
    raw.joints = joints;
    ossa_skeleton_build_options so = {0};
    so.metres_per_unit = 0.01f;
    ossa_skeleton *sk = NULL;
    REQUIRE(ossa_skeleton_build(&raw, &so, &sk, NULL, NULL) == OSSA_OK);
    float times[2] = {0, 1};
    ossa_float3 v[2] = {{0, 1, 0}, {5, 1, 0}};
    ossa_raw_joint_track t = {"j1", {times, v, NULL, NULL, 2, OSSA_INTERP_LINEAR}, {0}, {0}};
    ossa_clip_build_options options;
    memset(&options, 0, sizeof options);
    options.raw = true;
    options.tolerance_m = 0.002f;
    options.distance_m = 0.1f;
    ossa_raw_clip rc = {"units", 0.0f, &t, 1};
    ossa_clip *clip = NULL;
    ossa_clip_build_report report;
    REQUIRE(ossa_clip_build(&rc, sk, &options, &clip, &report, NULL) == OSSA_OK);
    CHECK(!report.units_assumed_metres);
    CHECK_NEAR(report.tolerance, 0.2, 1e-6);
    CHECK_NEAR(report.distance, 10.0, 1e-5);
    ossa_clip_free(clip, NULL);
    ossa_skeleton_free(sk, NULL);
}

UTEST_MAIN(automatic_rate_follows_the_key_grid, long_clips_keep_their_key_rate,
           automatic_rate_rises_until_the_error_is_within_the_tolerance,
           a_common_key_step_is_the_key_rate, tolerance_follows_the_skeleton_units,
           curves_hold_before_the_first_and_after_the_last_key_and_rest_fills_the_rest)
