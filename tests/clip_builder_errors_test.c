/* clip_builder_errors_test.c - bad raw curves: every error names its joint
 * and key (unsorted, non-finite, unmatched, too many frames, a spline leaving
 * float range), repeated and near-equal key times, and allocation failure at
 * every step. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clip_builder_test_support.h"
#include "ossa/ossa.h"
#include "ossa/pipeline.h"
#include "test_support.h"
#include "utest.h"

/* OSSA_TEST_NEEDS_PIPELINE */

static void expect_error(const ossa_skeleton *sk, const ossa_raw_joint_track *tracks, int n,
                         float duration, int max_frames, ossa_result code, int index,
                         const char *named)
{
    ossa_raw_clip raw = {"bad", duration, tracks, n};
    ossa_clip_build_options options;
    memset(&options, 0, sizeof options);
    options.raw = true;
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
            ossa_clip_sample_joint(clip, NULL, 1, (float)f / 10.0f, OSSA_ROTATION_NLERP);
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
    options.raw = true;
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
    CHECK(report.error >= 0.0f && isfinite(report.error));
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
    options.raw = true;
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

UTEST_MAIN(clip_rejects_unsorted_keys_naming_joint_and_key,
           a_repeated_key_time_is_a_jump_to_the_later_key,
           clip_rejects_non_finite_keys_naming_joint_and_key,
           clip_rejects_tracks_that_match_no_joint, clip_rejects_too_many_frames,
           clip_rejects_a_spline_that_leaves_float_range,
           keys_within_one_instant_make_a_one_frame_clip,
           clip_build_fails_cleanly_at_every_allocation)
