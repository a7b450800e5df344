/* clip_compress_root_motion_test.c - the clips of the shared models that
 * move, built as ossa build makes them by default (root motion extracted,
 * compressed): the runtime's in-place pose, sampled by the reference
 * sampling job and placed by ossa_clip_root_motion_at, within the
 * tolerance of the source curves evaluated by the tests' own metric, at
 * every frame, midway and 200 random times (clip_compress_models.h).
 * Needs the importer. */
#include <stdio.h>

#include "clip_compress_models.h"
#include "test_support.h"
#include "utest.h"

/* OSSA_TEST_NEEDS_PIPELINE OSSA_TEST_NEEDS_IMPORTER */

/* The clips of the shared models that move (the others build as without
 * root motion: clip_compress_models_test), but for pab's crossarms and the
 * CMU takes, which would double the test's time (minutes under the
 * sanitizers) and bring no case the others do not: pab's locomotion (the
 * Hips) and two glTFs whose moving joint sits under other nodes
 * (cesium_man's first skin joint; rigged_figure's neck, under torso joints
 * that bend, so the joints above and beside it are compared in place). */
TEST(every_clip_with_root_motion_placed_by_its_motion_is_within_the_tolerance)
{
    if (!ts_models_dir())
        SKIP("../shared/models not found (set OSSA_MODELS)");
    size_t raw = 0, packed = 0;
    int moving = 0;
    static const char *pab_moving[] = {"pab/walk.fbx", "pab/jog.fbx", "pab/run.fbx"};
    static const char *gltf_moving[] = {"khronos/cesium_man.gltf", "khronos/rigged_figure.gltf"};
    for (size_t i = 0; i < 3; ++i)
        check_file("pab/skeleton.fbx", pab_moving[i], true, true, &raw, &packed, &moving);
    for (size_t i = 0; i < 2; ++i)
        check_file(gltf_moving[i], gltf_moving[i], false, true, &raw, &packed, &moving);
    fprintf(stderr, "  %d clips with root motion\n", moving);
    if (ts_model_path("pab/walk.fbx") && ts_model_path("khronos/cesium_man.gltf"))
        CHECK_INT(moving, 5);
}

UTEST_MAIN(every_clip_with_root_motion_placed_by_its_motion_is_within_the_tolerance)
