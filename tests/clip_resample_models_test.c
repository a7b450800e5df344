/* clip_resample_models_test.c - the error-bounded resampling on real clips:
 * dense 120 Hz mocap (CMU, whose fingers a 30 Hz grid loses) and FBX curves
 * with unevenly spaced keys (pab) come within the default bound of their
 * source curves, checked at random times by this file's own evaluation of
 * the metric (clip_metric_check.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clip_metric_check.h"
#include "ossa/ossa.h"
#include "ossa/pipeline.h"
#include "test_support.h"
#include "utest.h"

/* OSSA_TEST_NEEDS_PIPELINE OSSA_TEST_NEEDS_IMPORTER */

/* Random times and every frame time: the worst of the metric, checked by
 * this file's own evaluation. */
static double worst_at_random_times(const ossa_skeleton *sk, const ossa_raw_clip *raw,
                                    const ossa_clip *clip, double distance, int count,
                                    uint64_t seed, double *at, int *joint)
{
    ossa_raw_joint_track *tracks = cm_tracks_by_joint(sk, raw);
    ts_rng r = ts_rng_make(seed);
    double worst = 0.0;
    for (int i = 0; i < count; ++i) {
        const double t = ts_uniform(&r, 0.0, ossa_clip_duration(clip));
        int j = -1;
        const double e = cm_metric_at_joint(sk, tracks, clip, t, distance, &j);
        if (e > worst) {
            worst = e;
            *at = t;
            *joint = j;
        }
    }
    free(tracks);
    return worst;
}

/* The skeleton of skeleton_file (all its nodes, in its units) into *sk and
 * the clips of clip_file into *im; *sk stays NULL when the models are
 * missing (skipped) or fail. */
static void load_model(const char *skeleton_file, const char *clip_file, ossa_import *base,
                       ossa_import *im, ossa_skeleton **sk)
{
    *sk = NULL;
    ossa_import_options options = {0};
    options.all_nodes = true;
    if (!ts_model_path(skeleton_file) || !ts_model_path(clip_file))
        SKIP("models not found (set OSSA_MODELS or add ../shared/models)");
    REQUIRE(ts_import_model(skeleton_file, &options, base));
    REQUIRE(ts_import_model(clip_file, &options, im));
    ossa_skeleton_build_options so = {0};
    so.metres_per_unit = base->metres_per_unit;
    REQUIRE(ossa_skeleton_build(&base->skeleton, &so, sk, NULL, NULL) == OSSA_OK);
}

static void check_model(const char *skeleton_file, const char *clip_file, double min_rate)
{
    ossa_import base, im;
    ossa_skeleton *sk;
    load_model(skeleton_file, clip_file, &base, &im, &sk);
    if (!sk)
        return;
    for (int c = 0; c < im.clip_count; ++c) {
        ossa_clip *clip = NULL;
        ossa_clip_build_report report;
        ossa_clip_build_options raw_keys;
        memset(&raw_keys, 0, sizeof raw_keys);
        raw_keys.raw = true;
        REQUIRE(ossa_clip_build(&im.clips[c], sk, &raw_keys, &clip, &report, NULL) == OSSA_OK);
        double at = 0.0;
        int joint = -1;
        const double worst =
            worst_at_random_times(sk, &im.clips[c], clip, report.distance, 400, 77, &at, &joint);
        fprintf(stderr,
                "  %s '%s': %.1f Hz (keys at %.1f Hz%s), %d rates tried, reported %.3g, at "
                "random times %.3g (tolerance %.3g, model units) at '%s' %.3f s\n",
                clip_file, im.clips[c].name, (double)report.rate, (double)report.key_rate,
                report.keys_on_grid ? ", on grid" : ", uneven", report.rates_tried,
                (double)report.error, worst, (double)report.tolerance,
                joint >= 0 ? ossa_skeleton_joint_name(sk, joint) : "-", at);
        CHECK(report.within_tolerance);
        CHECK(report.rate >= min_rate - 1e-3);
        CHECK(worst <= report.tolerance);
        ossa_clip_free(clip, NULL);
    }
    ossa_skeleton_free(sk, NULL);
    ossa_import_free(&im);
    ossa_import_free(&base);
}

/* CMU mocap: keys every 1/120 s (stored as multiples of 0.0083333 s), which
 * the rate follows; the file's units are unknown (taken as metres, which
 * they are). At 30 Hz the fingers were off by tens of centimetres. */
TEST(cmu_mocap_keeps_its_120_hz_keys_within_the_tolerance)
{
    check_model("cmu/scaled_131_01.bvh", "cmu/scaled_131_01.bvh", 119.9);
    check_model("cmu/scaled_131_02.bvh", "cmu/scaled_131_02.bvh", 119.9);
    ossa_import im;
    TS_IMPORT_OR_SKIP("cmu/scaled_131_01.bvh", NULL, &im);
    ossa_skeleton *sk = ts_import_skeleton(&im);
    REQUIRE(sk);
    ossa_clip_build_options options;
    memset(&options, 0, sizeof options);
    options.raw = true;
    options.rate = 30.0f;
    ossa_clip *clip = NULL;
    ossa_clip_build_report report;
    REQUIRE(ossa_clip_build(&im.clips[0], sk, &options, &clip, &report, NULL) == OSSA_OK);
    CHECK(report.units_assumed_metres);
    CHECK(!report.within_tolerance);
    CHECK(report.error > 0.01f); /* a centimetre and more: the fast fingers */
    ossa_clip_free(clip, NULL);
    ossa_skeleton_free(sk, NULL);
    ossa_import_free(&im);
}

/* pab: walk's keys are all on a 30 Hz grid; jog's and run's legs have
 * keys anywhere between (assimp's FBX curves are linear between them), so
 * uniform keys need a higher rate to follow their bends. */
TEST(pab_fbx_curves_with_uneven_keys_come_within_the_tolerance)
{
    check_model("pab/skeleton.fbx", "pab/walk.fbx", 30.0);
    check_model("pab/skeleton.fbx", "pab/jog.fbx", 60.0);
    check_model("pab/skeleton.fbx", "pab/run.fbx", 60.0);
}

/* pab jog at 0.01 mm with its root motion extracted, compressed. Between
 * frames the runtime interpolates the in-place keys and the motion apart,
 * which the source does not, and no rate up to OSSA_CLIP_MAX_AUTO_RATE
 * brings that within 0.01 mm: the automatic choice climbs the multiples of
 * jog's 30 Hz key rate through 720 Hz and 960 Hz (the last below 1000 Hz)
 * and, as ossa_clip_build_options.rate says, keeps the one with the
 * smaller error. The two rates' errors come from builds at each. */
static double jog_error(const ossa_raw_clip *jog, const ossa_skeleton *sk, float rate,
                        float *chosen)
{
    ossa_clip_build_options o;
    memset(&o, 0, sizeof o);
    o.tolerance_m = 0.00001f;
    o.root_motion = OSSA_ROOT_MOTION_EXTRACT;
    o.rate = rate;
    ossa_clip *clip = NULL;
    ossa_clip_build_report report;
    if (ossa_clip_build(jog, sk, &o, &clip, &report, NULL) != OSSA_OK)
        return -1.0;
    ossa_clip_free(clip, NULL);
    *chosen = report.rate;
    CHECK(!report.within_tolerance);
    return report.error;
}

TEST(with_root_motion_the_rate_of_the_smallest_error_is_kept)
{
    ossa_import base, im;
    ossa_skeleton *sk;
    load_model("pab/skeleton.fbx", "pab/jog.fbx", &base, &im, &sk);
    if (!sk)
        return;
    float r720 = 0.0f, r960 = 0.0f, chosen = 0.0f;
    const double e720 = jog_error(&im.clips[0], sk, 720.0f, &r720);
    const double e960 = jog_error(&im.clips[0], sk, 960.0f, &r960);
    const double e = jog_error(&im.clips[0], sk, 0.0f, &chosen);
    fprintf(stderr, "  jog at 0.01 mm: 720 Hz %.4g, 960 Hz %.4g; chosen %.1f Hz %.4g (model units)\n",
            e720, e960, (double)chosen, e);
    REQUIRE(e720 > 0.0 && e960 > 0.0 && e > 0.0);
    CHECK(e <= e720 && e <= e960);
    CHECK(chosen == (e720 <= e960 ? r720 : r960));
    ossa_skeleton_free(sk, NULL);
    ossa_import_free(&im);
    ossa_import_free(&base);
}

UTEST_MAIN(cmu_mocap_keeps_its_120_hz_keys_within_the_tolerance,
           pab_fbx_curves_with_uneven_keys_come_within_the_tolerance,
           with_root_motion_the_rate_of_the_smallest_error_is_kept)
