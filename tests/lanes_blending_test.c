/* lanes_blending_test.c - the lane blending job against the reference
 * blending job: weighted layers, per-joint masks, the threshold and additive
 * layers, on every path this machine runs, every width and partial batches;
 * and a layer at weight 0 changing no bit (the crowd samples a clip a
 * character does not weigh not at all). */
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

/* Blends with the lane job: `layers` layers of poses (lane packed) at
 * per-character weights; the rest pose fills in below the default
 * threshold. */
static void lane_blend(ossa_simd_path path, int width, int characters, int joints,
                       const ossa_transform *rest, float *const *poses, float *const *weights,
                       int layers, float *out)
{
    ossa_lane_blend_layer ll[2];
    memset(ll, 0, sizeof ll);
    const int floats = ossa_lane_pose_floats(joints, characters, width);
    for (int l = 0; l < layers; ++l) {
        ll[l].pose = poses[l];
        ll[l].pose_count = floats;
        ll[l].weights = weights[l];
        ll[l].weight_count = characters;
    }
    ossa_lane_blending_job lj = {0};
    lj.layers = ll;
    lj.layer_count = layers;
    lj.rest_pose = rest;
    lj.joint_count = joints;
    lj.character_count = characters;
    lj.width = width;
    lj.path = path;
    lj.output = out;
    lj.output_count = floats;
    CHECK_RESULT(ossa_lane_blending_job_run(&lj), OSSA_OK);
}

/* Characters blending a at 1 - w with b at w, where w is 0, 1 or between:
 * the same bits as blending, per character, the layer it weighs (a, or b
 * where w is 1) at 1 - w (1 where w is 1) with b at w (0 where w is 1) -
 * and, when no w is between, as that first layer alone. Poses hold -0
 * components, where adding a layer's 0 could change a sign. */
static void check_unweighed_layers(ts_rng *rng, ossa_simd_path path, int width, int characters,
                                   bool some_blend)
{
    enum { JOINTS = 9 };
    const size_t n = (size_t)characters * JOINTS;
    const int floats = ossa_lane_pose_floats(JOINTS, characters, width);
    ossa_transform rest[JOINTS];
    for (int j = 0; j < JOINTS; ++j)
        rest[j] = ts_transform(rng, TS_SCALE_ANY);
    ossa_transform *a = malloc(sizeof *a * n), *b = malloc(sizeof *b * n),
                   *first = malloc(sizeof *first * n);
    float *w = malloc(sizeof *w * (size_t)characters), *wa = malloc(sizeof *wa * (size_t)characters);
    float *w0 = malloc(sizeof *w0 * (size_t)characters), *w1 = malloc(sizeof *w1 * (size_t)characters);
    for (size_t i = 0; i < n; ++i) {
        a[i] = ts_transform(rng, TS_SCALE_ANY);
        b[i] = ts_transform(rng, TS_SCALE_ANY);
        if (ts_int(rng, 3) == 0)
            a[i].translation.y = b[i].translation.x = a[i].rotation.z = b[i].scale.z = -0.0f;
    }
    bool blends = false;
    for (int c = 0; c < characters; ++c) {
        const int kind = some_blend && c == 0 ? 2 : ts_int(rng, some_blend ? 3 : 2);
        w[c] = kind == 0 ? 0.0f : kind == 1 ? 1.0f : (float)ts_uniform(rng, 0.01, 0.99);
        blends |= kind == 2;
        wa[c] = 1.0f - w[c];
        w0[c] = w[c] >= 1.0f ? 1.0f : 1.0f - w[c];
        w1[c] = w[c] >= 1.0f ? 0.0f : w[c];
        for (int j = 0; j < JOINTS; ++j)
            first[(size_t)c * JOINTS + j] = (w[c] >= 1.0f ? b : a)[(size_t)c * JOINTS + j];
    }
    float *la = lane_alloc(floats), *lb = lane_alloc(floats), *lf = lane_alloc(floats);
    float *both = lane_alloc(floats), *planned = lane_alloc(floats);
    pack_poses(a, characters, JOINTS, width, la);
    pack_poses(b, characters, JOINTS, width, lb);
    pack_poses(first, characters, JOINTS, width, lf);
    float *const two[2] = {la, lb}, *const two_weights[2] = {wa, w};
    float *const plan[2] = {lf, lb}, *const plan_weights[2] = {w0, w1};
    lane_blend(path, width, characters, JOINTS, rest, two, two_weights, 2, both);
    lane_blend(path, width, characters, JOINTS, rest, plan, plan_weights, blends ? 2 : 1, planned);
    int differ = 0;
    for (int c = 0; c < characters; ++c)
        for (int j = 0; j < JOINTS; ++j) {
            const ossa_transform x = lane_transform(both, JOINTS, width, c, j);
            const ossa_transform y = lane_transform(planned, JOINTS, width, c, j);
            differ += memcmp(&x, &y, sizeof x) != 0;
        }
    if (differ)
        fprintf(stderr, "unweighed layers %s w%d n%d%s: %d joints differ\n",
                ossa_simd_path_name(path), width, characters, blends ? " (blending)" : "", differ);
    CHECK(differ == 0);
    CHECK(blends == some_blend);
    void *blocks[] = {a, b, first, w, wa, w0, w1, la, lb, lf, both, planned};
    for (size_t i = 0; i < sizeof blocks / sizeof blocks[0]; ++i)
        free(blocks[i]);
}

TEST(lane_blending_a_layer_at_weight_0_changes_no_bit)
{
    ts_rng rng = ts_rng_make(22);
    for (int p = OSSA_SIMD_PORTABLE; p < OSSA_SIMD_PATH_COUNT; ++p)
        if (ts_path_runs((ossa_simd_path)p))
            for (size_t w = 0; w < sizeof widths / sizeof widths[0]; ++w)
                for (int round = 0; round < 8; ++round) {
                    check_unweighed_layers(&rng, (ossa_simd_path)p, widths[w], widths[w] + 3,
                                           false);
                    check_unweighed_layers(&rng, (ossa_simd_path)p, widths[w], widths[w] + 3,
                                           true);
                }
}

UTEST_MAIN(lane_blending_matches_reference_with_masks_threshold_and_additive,
           lane_blending_a_layer_at_weight_0_changes_no_bit)
