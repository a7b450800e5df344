/* clip_compress_models.h - one shared model file's clips built as ossa
 * build makes them (rigid meshes measured at their reach), with or without
 * root motion, each checked within its tolerance of the source curves by
 * the tests' own metric (clip_compress_check.h); for
 * clip_compress_models_test and clip_compress_root_motion_test. Needs the
 * importer. */
#ifndef OSSA_TEST_CLIP_COMPRESS_MODELS_H
#define OSSA_TEST_CLIP_COMPRESS_MODELS_H

#include <stdio.h>
#include <stdlib.h>

#include "clip_compress_check.h"
#include "ossa/ossa.h"
#include "ossa/pipeline.h"
#include "test_support.h"
#include "utest.h"

/* One file's clips on a skeleton, as ossa build makes them (rigid meshes
 * measured at their reach); with root_motion, extracted and the runtime's
 * pose placed by the runtime's motion (worst_placed_error). Adds the raw
 * and stored bytes to the totals and counts the clips that move. */
static void check_file(const char *skeleton_file, const char *clip_file, bool all_nodes,
                       bool root_motion, size_t *raw_total, size_t *packed_total,
                       int *moving)
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
    bo.root_motion = root_motion ? OSSA_ROOT_MOTION_EXTRACT : OSSA_ROOT_MOTION_KEEP;
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
        for (int j = 0; j < joints; ++j) /* not fmax: aarch64 gcc 12 fails vectorising it */
            if (reach[j] > distance)
                distance = reach[j];
        const double worst =
            root_motion
                ? worst_placed_error(sk, tracks, clip, distance, 200, 900 + (uint64_t)c, &at)
                : worst_error(sk, tracks, clip, distance, 200, 700 + (uint64_t)c, &at);
        const size_t raw = (size_t)40 * (size_t)joints * (size_t)report.frame_count;
        fprintf(stderr,
                "  %-24s %-22s %5d frames %6.1f Hz %8zu -> %7zu bytes (%5.1f:1), error "
                "%.3g reported, %.3g measured at %.3f s, tolerance %.3g%s%s\n",
                clip_file, im.clips[c].name, report.frame_count, (double)report.rate, raw,
                report.bytes, (double)raw / (double)report.bytes, (double)report.error, worst,
                at, (double)report.tolerance,
                report.root_motion_joint >= 0 ? ", placed by the root motion of " : "",
                report.root_motion_joint >= 0
                    ? ossa_skeleton_joint_name(sk, report.root_motion_joint)
                    : "");
        *moving += report.root_motion_joint >= 0;
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

#endif /* OSSA_TEST_CLIP_COMPRESS_MODELS_H */
