/* lanes_validation_test.c - the lane jobs' validity tables (each missing or
 * short field gives its code) and their independence from the split of
 * batches into ranges. */
#include <stdlib.h>
#include <string.h>

#include "lanes_test_support.h"
#include "ossa/ossa.h"
#include "ossa/pipeline.h"
#include "test_support.h"
#include "utest.h"

/* OSSA_TEST_NEEDS_PIPELINE */

TEST(lane_jobs_reject_each_missing_or_short_field)
{
    ossa_default_character dc;
    ossa_error e;
    REQUIRE(ossa_default_character_build(&dc, NULL, &e) == OSSA_OK);
    const ossa_clip *clips[2] = {dc.clips[0], dc.clips[1]};
    const int joints = 96, n = 5, width = 8;
    const int pose = ossa_lane_pose_floats(joints, n, width);
    const int model = ossa_lane_model_floats(joints, n, width);
    CHECK(pose == joints * 10 * 8);
    CHECK(ossa_lane_pose_floats(joints, n, 3) == 0);
    CHECK_INT(ossa_lane_batch_count(17, 8), 3);
    float times[5] = {0, 1, 2, 3, 4};
    uint16_t index[5] = {0, 1, 0, 1, 2};
    float *out = lane_alloc(model), *out2 = lane_alloc(model);

    ossa_lane_sampling_job s = {0};
    CHECK_RESULT(ossa_lane_sampling_job_run(&s), OSSA_ERR_MISSING_INPUT);
    s.clips = clips;
    CHECK_RESULT(ossa_lane_sampling_job_validate(&s), OSSA_ERR_INPUT_TOO_SMALL);
    s.clip_count = 2;
    CHECK_RESULT(ossa_lane_sampling_job_validate(&s), OSSA_ERR_MISSING_INPUT);
    s.time_s = times;
    s.character_count = n;
    s.width = 3;
    CHECK_RESULT(ossa_lane_sampling_job_validate(&s), OSSA_ERR_BAD_ARGUMENT);
    s.width = width;
    s.batch_end = 2;
    CHECK_RESULT(ossa_lane_sampling_job_validate(&s), OSSA_ERR_BAD_RANGE);
    s.batch_end = 0;
    s.clip_index = index;
    s.clip_index_count = n;
    CHECK_RESULT(ossa_lane_sampling_job_validate(&s), OSSA_ERR_BAD_INDEX); /* index 2 of 2 */
    index[4] = 1;
    s.path = OSSA_SIMD_PATH_COUNT;
    CHECK_RESULT(ossa_lane_sampling_job_validate(&s), OSSA_ERR_BAD_ARGUMENT);
    s.path = OSSA_SIMD_AUTO;
    CHECK_RESULT(ossa_lane_sampling_job_validate(&s), OSSA_ERR_MISSING_OUTPUT);
    s.output = out;
    s.output_count = pose - 1;
    CHECK_RESULT(ossa_lane_sampling_job_validate(&s), OSSA_ERR_OUTPUT_TOO_SMALL);
    s.output_count = pose;
    CHECK_RESULT(ossa_lane_sampling_job_run(&s), OSSA_OK);

    ossa_lane_blend_layer layer = {0};
    ossa_lane_blending_job b = {0};
    CHECK_RESULT(ossa_lane_blending_job_run(&b), OSSA_ERR_MISSING_INPUT);
    b.layers = &layer;
    b.layer_count = 1;
    b.rest_pose = ossa_skeleton_rest_pose(dc.skeleton);
    CHECK_RESULT(ossa_lane_blending_job_validate(&b), OSSA_ERR_INPUT_TOO_SMALL);
    b.joint_count = joints;
    b.character_count = n;
    b.width = width;
    CHECK_RESULT(ossa_lane_blending_job_validate(&b), OSSA_ERR_MISSING_INPUT);
    layer.pose = out;
    layer.pose_count = pose - 1;
    CHECK_RESULT(ossa_lane_blending_job_validate(&b), OSSA_ERR_INPUT_TOO_SMALL);
    layer.pose_count = pose;
    layer.weight = NAN;
    CHECK_RESULT(ossa_lane_blending_job_validate(&b), OSSA_ERR_BAD_VALUE);
    layer.weight = 1.0f;
    b.threshold = -1.0f;
    CHECK_RESULT(ossa_lane_blending_job_validate(&b), OSSA_ERR_BAD_VALUE);
    b.threshold = 0.0f;
    CHECK_RESULT(ossa_lane_blending_job_validate(&b), OSSA_ERR_MISSING_OUTPUT);
    b.output = out2;
    b.output_count = pose - 1;
    CHECK_RESULT(ossa_lane_blending_job_validate(&b), OSSA_ERR_OUTPUT_TOO_SMALL);
    b.output_count = pose;
    CHECK_RESULT(ossa_lane_blending_job_run(&b), OSSA_OK);

    uint16_t bad_parents[3] = {0xFFFFu, 0, 2};
    ossa_lane_local_to_model_job l = {0};
    CHECK_RESULT(ossa_lane_local_to_model_job_run(&l), OSSA_ERR_MISSING_INPUT);
    l.parents = ossa_skeleton_parents(dc.skeleton);
    CHECK_RESULT(ossa_lane_local_to_model_job_validate(&l), OSSA_ERR_INPUT_TOO_SMALL);
    l.joint_count = joints;
    CHECK_RESULT(ossa_lane_local_to_model_job_validate(&l), OSSA_ERR_MISSING_INPUT);
    l.local = out2;
    l.local_count = pose;
    CHECK_RESULT(ossa_lane_local_to_model_job_validate(&l), OSSA_ERR_INPUT_TOO_SMALL);
    l.character_count = n;
    l.width = width;
    l.batch_begin = 1;
    l.batch_end = 2;
    CHECK_RESULT(ossa_lane_local_to_model_job_validate(&l), OSSA_ERR_BAD_RANGE);
    l.batch_begin = l.batch_end = 0;
    CHECK_RESULT(ossa_lane_local_to_model_job_validate(&l), OSSA_ERR_MISSING_OUTPUT);
    l.model = out;
    l.model_count = model - 1;
    CHECK_RESULT(ossa_lane_local_to_model_job_validate(&l), OSSA_ERR_OUTPUT_TOO_SMALL);
    l.model_count = model;
    l.parents = bad_parents;
    l.joint_count = 3;
    CHECK_RESULT(ossa_lane_local_to_model_job_validate(&l), OSSA_ERR_BAD_INDEX);
    l.parents = ossa_skeleton_parents(dc.skeleton);
    l.joint_count = OSSA_MAX_JOINTS + 1; /* more than a skeleton can have */
    CHECK_RESULT(ossa_lane_local_to_model_job_validate(&l), OSSA_ERR_BAD_ARGUMENT);
    l.joint_count = joints;
    CHECK_RESULT(ossa_lane_local_to_model_job_run(&l), OSSA_OK);

    ossa_mat34 palette[5 * 96];
    uint16_t skin[2] = {3, 96};
    ossa_lane_palette_job p = {0};
    CHECK_RESULT(ossa_lane_palette_job_run(&p), OSSA_ERR_MISSING_INPUT);
    p.model = out;
    p.model_count = model;
    p.joint_count = joints;
    p.character_count = n;
    p.width = width;
    p.skin_joint = skin;
    CHECK_RESULT(ossa_lane_palette_job_validate(&p), OSSA_ERR_INPUT_TOO_SMALL);
    p.skin_joint_count = 2;
    CHECK_RESULT(ossa_lane_palette_job_validate(&p), OSSA_ERR_BAD_INDEX);
    skin[1] = 95;
    CHECK_RESULT(ossa_lane_palette_job_validate(&p), OSSA_ERR_MISSING_OUTPUT);
    p.palette = palette;
    p.palette_count = 2 * n - 1;
    CHECK_RESULT(ossa_lane_palette_job_validate(&p), OSSA_ERR_OUTPUT_TOO_SMALL);
    p.palette_count = 2 * n;
    CHECK_RESULT(ossa_lane_palette_job_run(&p), OSSA_OK);
    ossa_mat34 *outputs[5] = {palette, palette + 2, palette + 4, NULL, palette + 8};
    p.outputs = outputs; /* replaces palette; every processed character needs one */
    CHECK_RESULT(ossa_lane_palette_job_validate(&p), OSSA_ERR_MISSING_OUTPUT);
    outputs[3] = palette + 6;
    CHECK_RESULT(ossa_lane_palette_job_run(&p), OSSA_OK);
    free(out);
    free(out2);
    ossa_default_character_free(&dc, NULL);
}

TEST(lane_jobs_give_the_same_bits_for_any_split_of_batches)
{
    ossa_default_character dc;
    ossa_error e;
    REQUIRE(ossa_default_character_build(&dc, NULL, &e) == OSSA_OK);
    const ossa_clip *clips[3] = {dc.clips[0], dc.clips[1], dc.clips[2]};
    enum { N = 45, J = 96 };
    float times[N];
    uint16_t index[N];
    for (int c = 0; c < N; ++c) {
        times[c] = 0.137f * (float)c;
        index[c] = (uint16_t)(c % 3);
    }
    const int width = ossa_lane_width(), batches = ossa_lane_batch_count(N, width);
    const int pose = ossa_lane_pose_floats(J, N, width);
    const int model = ossa_lane_model_floats(J, N, width);
    float *whole[2], *split[2];
    for (int k = 0; k < 2; ++k) {
        whole[k] = lane_alloc(model);
        split[k] = lane_alloc(model);
    }
    ossa_lane_sampling_job s = {0};
    s.clips = clips;
    s.clip_count = 3;
    s.clip_index = index;
    s.clip_index_count = N;
    s.time_s = times;
    s.character_count = N;
    s.output_count = pose;
    ossa_lane_local_to_model_job l = {0};
    l.parents = ossa_skeleton_parents(dc.skeleton);
    l.joint_count = J;
    l.local_count = pose;
    l.character_count = N;
    l.model_count = model;
    for (int k = 0; k < 2; ++k) {
        float **x = k ? split : whole;
        s.output = x[0];
        l.local = x[0];
        l.model = x[1];
        if (!k) {
            CHECK_RESULT(ossa_lane_sampling_job_run(&s), OSSA_OK);
            CHECK_RESULT(ossa_lane_local_to_model_job_run(&l), OSSA_OK);
            continue;
        }
        for (int b = batches - 1; b >= 0; --b) { /* one batch at a time, backwards */
            s.batch_begin = l.batch_begin = b;
            s.batch_end = l.batch_end = b + 1;
            CHECK_RESULT(ossa_lane_sampling_job_run(&s), OSSA_OK);
            CHECK_RESULT(ossa_lane_local_to_model_job_run(&l), OSSA_OK);
        }
    }
    CHECK(memcmp(whole[0], split[0], pose * sizeof(float)) == 0);
    CHECK(memcmp(whole[1], split[1], model * sizeof(float)) == 0);
    for (int k = 0; k < 2; ++k) {
        free(whole[k]);
        free(split[k]);
    }
    ossa_default_character_free(&dc, NULL);
}

UTEST_MAIN(lane_jobs_reject_each_missing_or_short_field,
           lane_jobs_give_the_same_bits_for_any_split_of_batches)
