/* import_combine_test.c - a character from one file, clips from others:
 * arnaud.fbx + walk.fbx binds every arnaud joint, and walk, jog and run
 * move arnaud's feet in alternation. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "ossa/ossa.h"
#include "ossa/pipeline.h"
#include "test_support.h"
#include "utest.h"

/* OSSA_TEST_NEEDS_PIPELINE OSSA_TEST_NEEDS_IMPORTER */

/* ---- locomotion: the feet alternate ---- */

static bool model_positions(const ossa_skeleton *s, const ossa_clip *clip, float t,
                            ossa_float3 *out, const int *joints, int count)
{
    const int n = ossa_skeleton_joint_count(s);
    ossa_transform *local = malloc(sizeof *local * (size_t)n);
    ossa_mat34 *model = aligned_alloc(16, sizeof *model * (size_t)n);
    ossa_sampling_job sample = {0};
    sample.clips = &clip;
    sample.clip_count = 1;
    sample.time_s = &t;
    sample.character_count = 1;
    sample.rest_pose = ossa_skeleton_rest_pose(s);
    sample.rest_pose_count = n;
    sample.output = local;
    sample.output_count = n;
    ossa_local_to_model_job l2m = {0};
    l2m.parents = ossa_skeleton_parents(s);
    l2m.joint_count = n;
    l2m.local = local;
    l2m.local_count = n;
    l2m.character_count = 1;
    l2m.model = model;
    l2m.model_count = n;
    const bool ok = ossa_sampling_job_run(&sample) == OSSA_OK &&
                    ossa_local_to_model_job_run(&l2m) == OSSA_OK;
    for (int i = 0; i < count; ++i)
        out[i] = ok ? (ossa_float3){model[joints[i]].m[0][3], model[joints[i]].m[1][3],
                                    model[joints[i]].m[2][3]}
                    : (ossa_float3){0.0f, 0.0f, 0.0f};
    free(local);
    free(model);
    return ok;
}

/* Each foot's forward offset from the hips, along the direction the hips
 * travel, over one cycle: both feet swing, in opposite phase. */
TEST(import_walk_jog_run_move_the_feet_in_alternation)
{
    ossa_import base;
    TS_IMPORT_OR_SKIP("pab/arnaud.fbx", NULL, &base);
    ossa_skeleton *s = ts_import_skeleton(&base);
    REQUIRE(s);
    const int joints[3] = {ossa_skeleton_find_joint(s, "Hips"),
                           ossa_skeleton_find_joint(s, "LeftFoot"),
                           ossa_skeleton_find_joint(s, "RightFoot")};
    REQUIRE(joints[0] >= 0 && joints[1] >= 0 && joints[2] >= 0);
    const char *files[] = {"pab/walk.fbx", "pab/jog.fbx", "pab/run.fbx"};
    for (int f = 0; f < 3; ++f) {
        ossa_import im;
        REQUIRE(ts_import_model(files[f], NULL, &im));
        ossa_clip *clip = ts_clip_build(&im.clips[0], s, 0.0f);
        REQUIRE(clip);
        enum { SAMPLES = 64 };
        const float duration = ossa_clip_duration(clip);
        ossa_float3 first[3], last[3];
        REQUIRE(model_positions(s, clip, 0.0f, first, joints, 3));
        REQUIRE(model_positions(s, clip, duration * 0.999f, last, joints, 3));
        double dx = last[0].x - first[0].x, dz = last[0].z - first[0].z;
        const double travel = sqrt(dx * dx + dz * dz);
        REQUIRE(travel > 10.0); /* centimetres: the hips move forward */
        dx /= travel, dz /= travel;
        double left[SAMPLES], right[SAMPLES], ml = 0, mr = 0;
        for (int i = 0; i < SAMPLES; ++i) {
            ossa_float3 p[3];
            REQUIRE(model_positions(s, clip, duration * (float)i / SAMPLES, p, joints, 3));
            left[i] = (p[1].x - p[0].x) * dx + (p[1].z - p[0].z) * dz;
            right[i] = (p[2].x - p[0].x) * dx + (p[2].z - p[0].z) * dz;
            ml += left[i] / SAMPLES;
            mr += right[i] / SAMPLES;
        }
        double sll = 0, srr = 0, slr = 0;
        for (int i = 0; i < SAMPLES; ++i) {
            sll += (left[i] - ml) * (left[i] - ml);
            srr += (right[i] - mr) * (right[i] - mr);
            slr += (left[i] - ml) * (right[i] - mr);
        }
        const double correlation = slr / sqrt(sll * srr);
        fprintf(stderr, "  %s: feet swing %.1f / %.1f cm (rms), correlation %.2f\n", files[f],
                sqrt(sll / SAMPLES), sqrt(srr / SAMPLES), correlation);
        CHECK(sqrt(sll / SAMPLES) > 5.0 && sqrt(srr / SAMPLES) > 5.0);
        CHECK(correlation < -0.8);
        ossa_clip_free(clip, NULL);
        ossa_import_free(&im);
    }
    ossa_skeleton_free(s, NULL);
    ossa_import_free(&base);
}

TEST(import_arnaud_with_walk_binds_every_arnaud_joint)
{
    ossa_import base, walk;
    TS_IMPORT_OR_SKIP("pab/arnaud.fbx", NULL, &base);
    TS_IMPORT_OR_SKIP("pab/walk.fbx", NULL, &walk);
    for (int j = 0; j < base.skeleton.joint_count; ++j)
        CHECK(ossa_raw_clip_find_track(&walk.clips[0], base.skeleton.joints[j].name) != NULL);
    ossa_skeleton *s = ts_import_skeleton(&base);
    ossa_clip *clip = NULL;
    ossa_clip_build_report report;
    ossa_error e;
    REQUIRE(ossa_clip_build(&walk.clips[0], s, NULL, &clip, &report, &e) == OSSA_OK);
    CHECK_INT(report.matched_tracks, base.skeleton.joint_count);
    CHECK_INT(report.matched_tracks + report.unmatched_tracks, walk.clips[0].track_count);
    ossa_clip_free(clip, NULL);
    ossa_skeleton_free(s, NULL);
    ossa_import_free(&base);
    ossa_import_free(&walk);
}

UTEST_MAIN(import_walk_jog_run_move_the_feet_in_alternation,
           import_arnaud_with_walk_binds_every_arnaud_joint)
