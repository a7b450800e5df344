/* import_pivot_test.c - FBX pivots: a hand-written FBX (tests/data/
 * pivot_arm.fbx) whose joint "Arm" has a rotation pivot, a pre-rotation and
 * a rotation curve. assimp animates the helper node
 * "Arm_$AssimpFbx$_Rotation"; the importer folds the chain into the joint.
 * Expected values come from the FBX transform formula, evaluated here:
 * local = T * Rp * Rpre * R(t) * Rp^-1 (no offsets, post-rotation or scale). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ossa/ossa.h"
#include "ossa/pipeline.h"
#include "test_support.h"
#include "utest.h"

/* OSSA_TEST_NEEDS_PIPELINE OSSA_TEST_NEEDS_IMPORTER */

#define PI 3.14159265358979323846

static ts_dmat translation(double x, double y, double z)
{
    ts_dmat m = ts_dmat_identity();
    m.m[0][3] = x, m.m[1][3] = y, m.m[2][3] = z;
    return m;
}

static ts_dmat rotation_z(double degrees)
{
    const double a = degrees * PI / 180.0;
    ts_dmat m = ts_dmat_identity();
    m.m[0][0] = cos(a), m.m[0][1] = -sin(a), m.m[1][0] = sin(a), m.m[1][1] = cos(a);
    return m;
}

/* The file's Arm: Lcl Translation (0, 10, 0), RotationPivot (5, 0, 0),
 * PreRotation 30 degrees about z, Lcl Rotation z from 0 to 90 over 1 s. */
static ts_dmat arm_local(double t)
{
    ts_dmat m = translation(0, 10, 0), p = translation(5, 0, 0), pre = rotation_z(30);
    ts_dmat r = rotation_z(90.0 * t), pinv = translation(-5, 0, 0);
    m = ts_dmat_mul(&m, &p);
    m = ts_dmat_mul(&m, &pre);
    m = ts_dmat_mul(&m, &r);
    return ts_dmat_mul(&m, &pinv);
}

static double diff(const ossa_transform *x, const ts_dmat *expected)
{
    ossa_mat34 got = ossa_mat34_from_transform(*x);
    return ts_mat_diff(&got, expected);
}

TEST(import_folds_pivot_helpers_into_the_joints_rest_pose)
{
    ossa_import im;
    ossa_error e;
    REQUIRE(ossa_import_file(OSSA_TEST_DATA_DIR "/pivot_arm.fbx", NULL, &im, &e) == OSSA_OK);
    CHECK_INT(im.skeleton.joint_count, 2); /* Root and Arm; five helpers folded */
    CHECK_INT(im.folded_helpers, 5);
    const int arm = ossa_raw_skeleton_find(&im.skeleton, "Arm");
    const int root = ossa_raw_skeleton_find(&im.skeleton, "Root");
    REQUIRE(arm >= 0 && root >= 0);
    CHECK_INT(im.skeleton.joints[arm].parent, root);
    const ts_dmat rest = arm_local(0.0);
    CHECK_NEAR(diff(&im.skeleton.joints[arm].rest, &rest), 0.0, 1e-5);
    ossa_import_free(&im);
}

TEST(import_folds_pivot_helper_curves_along_the_arc)
{
    ossa_import im;
    ossa_error e;
    REQUIRE(ossa_import_file(OSSA_TEST_DATA_DIR "/pivot_arm.fbx", NULL, &im, &e) == OSSA_OK);
    REQUIRE(im.clip_count == 1);
    const ossa_raw_joint_track *t = ossa_raw_clip_find_track(&im.clips[0], "Arm");
    REQUIRE(t);
    CHECK(ossa_raw_clip_find_track(&im.clips[0], "Arm_$AssimpFbx$_Rotation") == NULL);
    ossa_skeleton *s;
    ossa_clip *clip;
    REQUIRE(ossa_skeleton_build(&im.skeleton, NULL, &s, NULL, &e) == OSSA_OK);
    ossa_clip_build_options options = {0};
    options.rate = 60.0f;
    options.raw = true;
    ossa_clip_build_report report;
    REQUIRE(ossa_clip_build(&im.clips[0], s, &options, &clip, &report, &e) == OSSA_OK);
    const int arm = ossa_skeleton_find_joint(s, "Arm");
    double worst_raw = 0.0, worst_clip = 0.0;
    for (int i = 0; i <= 20; ++i) {
        const double time = i / 20.0;
        const ts_dmat expected = arm_local(time);
        /* The raw folded curve... */
        ossa_transform raw = {ossa_raw_track3_eval(&t->translation, (float)time),
                              ossa_raw_track_quat_eval(&t->rotation, (float)time),
                              ossa_raw_track3_eval(&t->scale, (float)time)};
        worst_raw = fmax(worst_raw, diff(&raw, &expected));
        /* ...and the built clip, sampled as the runtime does. */
        ossa_transform x = ossa_clip_sample_joint(clip, NULL, arm, (float)time, OSSA_ROTATION_SLERP);
        worst_clip = fmax(worst_clip, diff(&x, &expected));
    }
    fprintf(stderr, "  folded curve off the FBX formula by %.2g (raw), %.2g (clip at 60 Hz)\n",
            worst_raw, worst_clip);
    /* The pivot swings the translation along a 5-unit arc: straight keys
     * would be 1.46 units off at the middle. */
    CHECK_NEAR(worst_raw, 0.0, 2e-3);
    CHECK_NEAR(worst_clip, 0.0, 2e-3);
    CHECK(report.error < 2e-3f);
    ossa_clip_free(clip, NULL);
    ossa_skeleton_free(s, NULL);
    ossa_import_free(&im);
}

UTEST_MAIN(import_folds_pivot_helpers_into_the_joints_rest_pose,
           import_folds_pivot_helper_curves_along_the_arc)
