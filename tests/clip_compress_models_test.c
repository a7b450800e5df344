/* clip_compress_models_test.c - every clip of the shared models, built as
 * ossa build makes it without root motion (rigid meshes measured at their
 * reach), compressed within the error bound of its source curves by the
 * tests' own metric (clip_compress_models.h); with root motion it is
 * clip_compress_root_motion_test. Needs the importer. */
#include <stdio.h>

#include "clip_compress_models.h"
#include "test_support.h"
#include "utest.h"

/* OSSA_TEST_NEEDS_PIPELINE OSSA_TEST_NEEDS_IMPORTER */

static const char *pab[] = {"pab/walk.fbx", "pab/jog.fbx", "pab/run.fbx", "pab/crossarms.fbx",
                            "pab/skeleton.fbx"};
static const char *khronos[] = {"khronos/interpolation_test.gltf", "khronos/cesium_man.gltf",
                                "khronos/rigged_simple.gltf", "khronos/rigged_figure.gltf",
                                "khronos/simple_skin.gltf", "khronos/animated_triangle.gltf"};

TEST(every_clip_of_the_shared_models_is_within_the_tolerance_compressed)
{
    if (!ts_models_dir())
        SKIP("../shared/models not found (set OSSA_MODELS)");
    size_t raw = 0, packed = 0;
    int moving = 0;
    for (size_t i = 0; i < sizeof pab / sizeof pab[0]; ++i)
        check_file("pab/skeleton.fbx", pab[i], true, false, &raw, &packed, &moving);
    for (size_t i = 0; i < sizeof khronos / sizeof khronos[0]; ++i)
        check_file(khronos[i], khronos[i], false, false, &raw, &packed, &moving);
    check_file("cmu/scaled_131_01.bvh", "cmu/scaled_131_01.bvh", false, false, &raw, &packed,
               &moving);
    check_file("cmu/scaled_131_02.bvh", "cmu/scaled_131_02.bvh", false, false, &raw, &packed,
               &moving);
    if (packed)
        fprintf(stderr, "  all: %zu -> %zu bytes (%.1f:1)\n", raw, packed,
                (double)raw / (double)packed);
}

UTEST_MAIN(every_clip_of_the_shared_models_is_within_the_tolerance_compressed)
