/* root_motion_pab_test.c - pab's run (the shared FBX, imported): the
 * clip builder's root motion over one loop equals the source Hips'
 * displacement on the ground, from its raw curves evaluated in double,
 * within 0.1 mm per metre travelled (issue 12's goal), and its turn. */
#include <math.h>
#include <stdio.h>

#include "ossa/crowd.h"
#include "ossa/ossa.h"
#include "ossa/pipeline.h"
#include "root_motion_support.h"
#include "test_support.h"
#include "utest.h"

/* OSSA_TEST_NEEDS_PIPELINE OSSA_TEST_NEEDS_IMPORTER */

TEST(pab_run_loop_motion_equals_the_source_displacement)
{
    ossa_import im;
    TS_IMPORT_OR_SKIP("pab/run.fbx", NULL, &im);
    ossa_skeleton *sk = ts_import_skeleton(&im);
    REQUIRE(sk != NULL);
    REQUIRE(im.clip_count >= 1);
    const ossa_raw_clip *raw = &im.clips[0];
    ossa_clip_build_options o = {0};
    o.root_motion = OSSA_ROOT_MOTION_EXTRACT;
    ossa_clip *clip = NULL;
    ossa_clip_build_report report;
    ossa_error e;
    REQUIRE(ossa_clip_build(raw, sk, &o, &clip, &report, &e) == OSSA_OK);
    /* the crowd's foot height track over it: about 120 samples a second,
     * whatever this clip's rate (set by the error bound) */
    const int samples = ossa_crowd_height_samples(clip);
    const double spacing = (double)ossa_clip_duration(clip) / (double)(samples - 1);
    printf("pab run: %d frames over %.3f s; %d height samples\n", ossa_clip_frame_count(clip),
           (double)ossa_clip_duration(clip), samples);
    CHECK(spacing > 1.0 / 125.0 && spacing < 1.0 / 115.0);
    CHECK_INT(ossa_crowd_height_samples(NULL), 0);
    const int hips = ossa_skeleton_find_joint(sk, "Hips");
    CHECK(hips >= 0);
    CHECK_INT(report.root_motion_joint, hips);
    /* the source root's model transform at 0 and at the end, from its raw
     * curves (the chain of its ancestors, each evaluated as glTF defines) */
    const double duration = ossa_clip_duration(clip);
    ts_dmat at[2];
    for (int k = 0; k < 2; ++k) {
        at[k] = ts_dmat_identity();
        const uint16_t *par = ossa_skeleton_parents(sk);
        int chain[64], n = 0;
        for (int j = hips; j != OSSA_NO_PARENT && n < 64; j = par[j] == OSSA_NO_PARENT ? OSSA_NO_PARENT : par[j])
            chain[n++] = j;
        for (int c = n - 1; c >= 0; --c) {
            const ossa_raw_joint_track *t =
                ossa_raw_clip_find_track(raw, ossa_skeleton_joint_name(sk, chain[c]));
            ossa_transform l = ossa_skeleton_rest_pose(sk)[chain[c]];
            const float time = k ? (float)duration : 0.0f;
            if (t && t->translation.key_count)
                l.translation = ossa_raw_track3_eval(&t->translation, time);
            if (t && t->rotation.key_count)
                l.rotation = ossa_raw_track_quat_eval(&t->rotation, time);
            if (t && t->scale.key_count)
                l.scale = ossa_raw_track3_eval(&t->scale, time);
            const ts_dmat m = ts_dmat_from_transform(l);
            at[k] = ts_dmat_mul(&at[k], &m);
        }
    }
    const double yaw = twist_between(&at[1], &at[0]), c = cos(yaw), sn = sin(yaw);
    const double x0 = at[0].m[0][3], z0 = at[0].m[2][3];
    const struct {
        double yaw, x, z;
    } expected = {yaw, at[1].m[0][3] - (x0 * c + z0 * sn), at[1].m[2][3] - (z0 * c - x0 * sn)};
    const ossa_root_motion l = ossa_clip_loop_motion(clip);
    const double travelled = hypot(expected.x, expected.z);
    const double metres = travelled * (im.metres_per_unit > 0 ? im.metres_per_unit : 1.0);
    const double error_m = hypot(l.x - expected.x, l.z - expected.z) * metres / travelled;
    fprintf(stderr, "pab run: one loop %.3f m, yaw %.3g rad; error %.3g m (%.3g mm per m)\n",
            metres, expected.yaw, error_m, 1e3 * error_m / metres);
    CHECK(metres > 2.0); /* it does run */
    CHECK(error_m <= 1e-4 * metres);
    CHECK(fabs(l.yaw_rad - expected.yaw) < 1e-5);
    ossa_clip_free(clip, NULL);
    ossa_skeleton_free(sk, NULL);
    ossa_import_free(&im);
}

UTEST_MAIN(pab_run_loop_motion_equals_the_source_displacement)
