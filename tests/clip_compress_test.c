/* clip_compress_test.c - compressed clips held to the error bound against
 * their source curves, checked by this file's own evaluation of the metric
 * (clip_metric_check.h: glTF curves in double, hierarchy in double, six
 * points per joint), at random times, segment boundaries, the last frame and
 * through the loop's wrap: random synthetic clips (every interpolation, on
 * and off the key grid) and every clip of the shared models. */
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

/* Random clips on a chain: each of every interpolation mode, on and off the
 * key grid, compressed at default settings, within the bound everywhere. */
TEST(random_compressed_clips_are_within_the_tolerance_of_their_curves)
{
    ts_rng r = ts_rng_make(501);
    ossa_skeleton *sk = chain(7);
    REQUIRE(sk);
    const struct {
        bool on_grid;
        int interp;
        double angle;
    } cases[] = {
        {true, OSSA_INTERP_LINEAR, 0.6},  {false, OSSA_INTERP_LINEAR, 0.4},
        {true, OSSA_INTERP_STEP, 0.8},    {true, OSSA_INTERP_CUBICSPLINE, 0.3},
        {false, -1, 0.3},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
        raw_store s = store_make(&r, sk, 6, cases[c].on_grid, 10.0, cases[c].interp,
                                 cases[c].angle);
        ossa_raw_clip raw = {"random", 0.0f, s.tracks, s.joints};
        ossa_clip *clip = NULL;
        ossa_clip_build_report report;
        ossa_error e;
        CHECK_RESULT(ossa_clip_build(&raw, sk, NULL, &clip, &report, &e), OSSA_OK);
        if (!clip) {
            store_free(&s);
            continue;
        }
        CHECK(ossa_clip_is_compressed(clip));
        CHECK(report.compressed);
        double at;
        const double worst = worst_error(sk, s.tracks, clip, report.distance, 300, 600 + c, &at);
        fprintf(stderr,
                "  case %zu: %d frames at %.0f Hz, %zu bytes, reported %.3g, measured %.3g at "
                "%.4f s (tolerance %.3g)\n",
                c, report.frame_count, (double)report.rate, report.bytes, (double)report.error,
                worst, at, (double)report.tolerance);
        if (report.within_tolerance)
            CHECK(worst <= report.tolerance);
        else /* the rate could not bring the source within it: said so */
            CHECK(report.resample_error > report.tolerance);
        ossa_clip_free(clip, NULL);
        store_free(&s);
    }
    ossa_skeleton_free(sk, NULL);
}

/* One file's clips on a skeleton, as ossa build makes them (rigid meshes
 * measured at their reach). */
static void check_file(const char *skeleton_file, const char *clip_file, bool all_nodes,
                       size_t *raw_total, size_t *packed_total)
{
    ossa_import base, im;
    ossa_import_options options = {0};
    options.all_nodes = all_nodes;
    if (!ts_model_path(skeleton_file) || !ts_model_path(clip_file)) {
        fprintf(stderr, "  %s: not found, skipped\n", clip_file);
        return;
    }
    REQUIRE(ts_import_model(skeleton_file, &options, &base));
    REQUIRE(ts_import_model(clip_file, &options, &im));
    ossa_skeleton_build_options so = {0};
    so.metres_per_unit = base.metres_per_unit;
    ossa_skeleton *sk = NULL;
    REQUIRE(ossa_skeleton_build(&base.skeleton, &so, &sk, NULL, NULL) == OSSA_OK);
    const int joints = ossa_skeleton_joint_count(sk);
    float *reach = calloc((size_t)joints, sizeof *reach);
    ossa_clip_rigid_mesh_reach(sk, base.meshes, base.mesh_count, reach);
    ossa_clip_build_options bo = {0};
    bo.joint_distances = reach;
    bo.joint_distance_count = joints;
    for (int c = 0; c < im.clip_count; ++c) {
        ossa_clip *clip = NULL;
        ossa_clip_build_report report;
        ossa_error e;
        const ossa_result r = ossa_clip_build(&im.clips[c], sk, &bo, &clip, &report, &e);
        if (r == OSSA_ERR_CLIP_EMPTY) { /* no track names a joint: nothing to hold */
            fprintf(stderr, "  %s '%s': %s\n", clip_file, im.clips[c].name, e.message);
            continue;
        }
        CHECK_RESULT(r, OSSA_OK);
        if (!clip)
            continue;
        ossa_raw_joint_track *tracks = cm_tracks_by_joint(sk, &im.clips[c]);
        double at;
        /* the largest distance measured (rigid meshes at their reach) */
        double distance = report.distance;
        for (int j = 0; j < joints; ++j)
            distance = fmax(distance, reach[j]);
        const double worst =
            worst_error(sk, tracks, clip, distance, 200, 700 + (uint64_t)c, &at);
        const size_t raw = (size_t)40 * (size_t)joints * (size_t)report.frame_count;
        fprintf(stderr,
                "  %-24s %-22s %5d frames %6.1f Hz %8zu -> %7zu bytes (%5.1f:1), error "
                "%.3g reported, %.3g measured at %.3f s, tolerance %.3g\n",
                clip_file, im.clips[c].name, report.frame_count, (double)report.rate, raw,
                report.bytes, (double)raw / (double)report.bytes, (double)report.error, worst,
                at, (double)report.tolerance);
        CHECK(report.within_tolerance);
        CHECK(worst <= report.tolerance);
        *raw_total += raw;
        *packed_total += report.bytes;
        free(tracks);
        ossa_clip_free(clip, NULL);
    }
    free(reach);
    ossa_skeleton_free(sk, NULL);
    ossa_import_free(&im);
    ossa_import_free(&base);
}

TEST(every_clip_of_the_shared_models_is_within_the_tolerance_compressed)
{
    if (!ts_models_dir())
        SKIP("../shared/models not found (set OSSA_MODELS)");
    size_t raw = 0, packed = 0;
    static const char *pab[] = {"pab/walk.fbx", "pab/jog.fbx", "pab/run.fbx", "pab/crossarms.fbx",
                                "pab/skeleton.fbx"};
    for (size_t i = 0; i < sizeof pab / sizeof pab[0]; ++i)
        check_file("pab/skeleton.fbx", pab[i], true, &raw, &packed);
    static const char *khronos[] = {"khronos/interpolation_test.gltf", "khronos/cesium_man.gltf",
                                    "khronos/rigged_simple.gltf", "khronos/rigged_figure.gltf",
                                    "khronos/simple_skin.gltf", "khronos/animated_triangle.gltf"};
    for (size_t i = 0; i < sizeof khronos / sizeof khronos[0]; ++i)
        check_file(khronos[i], khronos[i], false, &raw, &packed);
    check_file("cmu/scaled_131_01.bvh", "cmu/scaled_131_01.bvh", false, &raw, &packed);
    check_file("cmu/scaled_131_02.bvh", "cmu/scaled_131_02.bvh", false, &raw, &packed);
    if (packed)
        fprintf(stderr, "  all: %zu -> %zu bytes (%.1f:1)\n", raw, packed,
                (double)raw / (double)packed);
}

UTEST_MAIN(random_compressed_clips_are_within_the_tolerance_of_their_curves,
           every_clip_of_the_shared_models_is_within_the_tolerance_compressed)
