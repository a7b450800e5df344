/* lanes_blending_test.c - the lane blending job against the reference
 * blending job: weighted layers, per-joint masks, the threshold and additive
 * layers, on every path this machine runs, every width and partial batches. */
#include <stdlib.h>
#include <string.h>

#include "lanes_test_support.h"
#include "ossa/ossa.h"
#include "test_support.h"
#include "utest.h"
#include "simd_paths.h"

static void check_blending(ts_rng *rng, ossa_simd_path path, int width, int characters,
                           int joints)
{
    enum { LAYERS = 3, ADDITIVE = 1 };
    const size_t n = (size_t)characters * (size_t)joints;
    ossa_transform *poses[LAYERS + ADDITIVE];
    float *lane_poses[LAYERS + ADDITIVE];
    float *weights[LAYERS + ADDITIVE];
    float *masks[LAYERS + ADDITIVE];
    const int floats = ossa_lane_pose_floats(joints, characters, width);
    ossa_transform *rest = malloc(sizeof(ossa_transform) * (size_t)joints);
    ossa_transform *reference = malloc(sizeof(ossa_transform) * (size_t)joints);
    for (int j = 0; j < joints; ++j) {
        rest[j] = ts_transform(rng, TS_SCALE_ANY);
        reference[j] = ts_transform(rng, TS_SCALE_ANY);
    }
    ossa_blend_layer rl[LAYERS + ADDITIVE];
    ossa_lane_blend_layer ll[LAYERS + ADDITIVE];
    memset(rl, 0, sizeof rl);
    memset(ll, 0, sizeof ll);
    for (int l = 0; l < LAYERS + ADDITIVE; ++l) {
        poses[l] = malloc(sizeof(ossa_transform) * n);
        for (size_t i = 0; i < n; ++i)
            poses[l][i] = ts_transform(rng, TS_SCALE_ANY);
        lane_poses[l] = lane_alloc(floats);
        pack_poses(poses[l], characters, joints, width, lane_poses[l]);
        weights[l] = malloc(sizeof(float) * (size_t)characters);
        for (int c = 0; c < characters; ++c) /* some <= 0, some summing below the threshold */
            weights[l][c] = ts_int(rng, 5) == 0 ? (float)ts_uniform(rng, -0.5, 0.0)
                                                : (float)ts_uniform(rng, 0.0, 1.0);
        masks[l] = malloc(sizeof(float) * (size_t)joints);
        for (int j = 0; j < joints; ++j)
            masks[l][j] = ts_int(rng, 4) == 0 ? 0.0f : (float)ts_uniform(rng, 0.0, 1.0);
        rl[l].pose = poses[l];
        rl[l].pose_count = (int)n;
        ll[l].pose = lane_poses[l];
        ll[l].pose_count = floats;
        if (l != 1) { /* layer 1: one weight for all, no mask */
            rl[l].weights = ll[l].weights = weights[l];
            rl[l].weight_count = ll[l].weight_count = characters;
            rl[l].joint_mask = ll[l].joint_mask = masks[l];
            rl[l].joint_mask_count = ll[l].joint_mask_count = joints;
        } else {
            rl[l].weight = ll[l].weight = 0.05f;
        }
        if (l >= LAYERS) {
            rl[l].reference = ll[l].reference = reference;
            rl[l].reference_count = ll[l].reference_count = joints;
        }
    }
    ossa_transform *ref_out = malloc(sizeof(ossa_transform) * n);
    ossa_blending_job rj = {0};
    rj.layers = rl;
    rj.layer_count = LAYERS;
    rj.additive = rl + LAYERS;
    rj.additive_count = ADDITIVE;
    rj.rest_pose = rest;
    rj.joint_count = joints;
    rj.character_count = characters;
    rj.threshold = 0.3f;
    rj.output = ref_out;
    rj.output_count = (int)n;
    CHECK_RESULT(ossa_blending_job_run(&rj), OSSA_OK);
    float *out = lane_alloc(floats);
    ossa_lane_blending_job lj = {0};
    lj.layers = ll;
    lj.layer_count = LAYERS;
    lj.additive = ll + LAYERS;
    lj.additive_count = ADDITIVE;
    lj.rest_pose = rest;
    lj.joint_count = joints;
    lj.character_count = characters;
    lj.width = width;
    lj.threshold = 0.3f;
    lj.path = path;
    lj.output = out;
    lj.output_count = floats;
    CHECK_RESULT(ossa_lane_blending_job_run(&lj), OSSA_OK);
    double worst = 0;
    for (int c = 0; c < characters; ++c)
        for (int j = 0; j < joints; ++j) {
            double d = transform_diff(lane_transform(out, joints, width, c, j),
                                      ref_out[(size_t)c * joints + j]);
            if (!(d <= worst))
                worst = d;
        }
    if (!(worst <= BLEND_TOLERANCE))
        fprintf(stderr, "blending %s w%d n%d: worst %.3g\n", ossa_simd_path_name(path), width,
                characters, worst);
    CHECK(worst <= BLEND_TOLERANCE);
    for (int l = 0; l < LAYERS + ADDITIVE; ++l) {
        free(poses[l]);
        free(lane_poses[l]);
        free(weights[l]);
        free(masks[l]);
    }
    free(rest);
    free(reference);
    free(ref_out);
    free(out);
}

TEST(lane_blending_matches_reference_with_masks_threshold_and_additive)
{
    ts_rng rng = ts_rng_make(21);
    for (int p = OSSA_SIMD_PORTABLE; p < OSSA_SIMD_PATH_COUNT; ++p)
        if (ts_path_runs((ossa_simd_path)p))
            for (size_t w = 0; w < sizeof widths / sizeof widths[0]; ++w) {
                const int width = widths[w];
                check_blending(&rng, (ossa_simd_path)p, width, 1, 13);
                check_blending(&rng, (ossa_simd_path)p, width, width - 1, 7);
                check_blending(&rng, (ossa_simd_path)p, width, width, 19);
                check_blending(&rng, (ossa_simd_path)p, width, 2 * width + 5, 5);
            }
}

UTEST_MAIN(lane_blending_matches_reference_with_masks_threshold_and_additive)
