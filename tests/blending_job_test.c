/* blending_job_test.c - weighted and additive blending against a
 * double-precision reference of the header's formulas, properties with
 * closed-form answers, instance ranges, and the validity table. */
#include <float.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "ossa/blending_job.h"
#include "test_support.h"
#include "utest.h"

/* A blend of at most five float poses (values <= 2) and three additive
 * layers: a few dozen float roundings (2^-24) on values of magnitude <= 8. */
#define BLEND_TOL 1e-5
/* Rotations: the same roundings, as an angle in radians. */
#define BLEND_ANGLE_TOL 1e-5

typedef struct dtransform {
    double t[3];
    ts_dquat r;
    double s[3];
} dtransform;

static dtransform dt_from(const ossa_transform *x)
{
    dtransform d = {{x->translation.x, x->translation.y, x->translation.z},
                    ts_dquat_from(x->rotation),
                    {x->scale.x, x->scale.y, x->scale.z}};
    return d;
}

static double weight_of(const ossa_blend_layer *l, int instance, int joint)
{
    double w = l->weights ? l->weights[instance] : l->weight;
    if (l->joint_mask)
        w *= l->joint_mask[joint];
    return w;
}

/* The header's definition, in double precision. */
static dtransform reference_blend(const ossa_blending_job *job, int i, int j)
{
    const double threshold = job->threshold > 0 ? job->threshold : OSSA_BLEND_DEFAULT_THRESHOLD;
    double st[3] = {0, 0, 0}, ss[3] = {0, 0, 0}, total = 0;
    ts_dquat sr = {0, 0, 0, 0};
    for (int l = 0; l < job->layer_count; ++l) {
        const ossa_transform *x =
            &job->layers[l].pose[(size_t)i * (size_t)job->joint_count + (size_t)j];
        const double w = weight_of(&job->layers[l], i, j);
        if (!(w > 0))
            continue;
        dtransform d = dt_from(x);
        double dot = sr.x * d.r.x + sr.y * d.r.y + sr.z * d.r.z + sr.w * d.r.w;
        double rw = dot < 0 ? -w : w;
        for (int k = 0; k < 3; ++k)
            st[k] += w * d.t[k], ss[k] += w * d.s[k];
        sr.x += rw * d.r.x, sr.y += rw * d.r.y, sr.z += rw * d.r.z, sr.w += rw * d.r.w;
        total += w;
    }
    if (total < threshold) {
        dtransform d = dt_from(&job->rest_pose[j]);
        double w = threshold - total;
        double dot = sr.x * d.r.x + sr.y * d.r.y + sr.z * d.r.z + sr.w * d.r.w;
        double rw = dot < 0 ? -w : w;
        for (int k = 0; k < 3; ++k)
            st[k] += w * d.t[k], ss[k] += w * d.s[k];
        sr.x += rw * d.r.x, sr.y += rw * d.r.y, sr.z += rw * d.r.z, sr.w += rw * d.r.w;
        total = threshold;
    }
    dtransform out;
    for (int k = 0; k < 3; ++k)
        out.t[k] = st[k] / total, out.s[k] = ss[k] / total;
    out.r = ts_dquat_normalize(sr);
    for (int l = 0; l < job->additive_count; ++l) {
        const ossa_blend_layer *a = &job->additive[l];
        double w = weight_of(a, i, j);
        if (!(w > 0))
            continue;
        dtransform x = dt_from(&a->pose[(size_t)i * (size_t)job->joint_count + (size_t)j]);
        dtransform ref = dt_from(a->reference ? &a->reference[j] : &job->rest_pose[j]);
        ts_dquat inv = {-ref.r.x, -ref.r.y, -ref.r.z, ref.r.w};
        ts_dquat delta = ts_dquat_mul(inv, x.r);
        ts_dquat id = {0, 0, 0, 1};
        out.r = ts_dquat_normalize(ts_dquat_mul(out.r, ts_dquat_nlerp(id, delta, w)));
        for (int k = 0; k < 3; ++k) {
            out.t[k] += w * (x.t[k] - ref.t[k]);
            double ratio = ref.s[k] != 0 ? x.s[k] / ref.s[k] : 1.0;
            out.s[k] *= 1 + (ratio - 1) * w;
        }
    }
    return out;
}

static double transform_diff(const ossa_transform *a, const dtransform *b, double *angle)
{
    double d = 0;
    const float ta[3] = {a->translation.x, a->translation.y, a->translation.z};
    const float sa[3] = {a->scale.x, a->scale.y, a->scale.z};
    for (int k = 0; k < 3; ++k)
        d = fmax(d, fmax(fabs(ta[k] - b->t[k]), fabs(sa[k] - b->s[k])));
    *angle = ts_quat_angle(a->rotation, b->r);
    return d;
}

typedef struct blend_setup {
    int joints, instances, layers, additive;
    ossa_transform *rest, *poses, *refs, *output;
    float *weights, *masks;
    ossa_blend_layer layer[8];
    ossa_blending_job job;
} blend_setup;

static void setup_make(ts_rng *r, blend_setup *b, int joints, int instances, int layers,
                       int additive)
{
    memset(b, 0, sizeof *b);
    b->joints = joints;
    b->instances = instances;
    b->layers = layers;
    b->additive = additive;
    const size_t pose = (size_t)joints * (size_t)instances, all = layers + additive;
    b->rest = malloc(sizeof *b->rest * (size_t)joints);
    b->poses = malloc(sizeof *b->poses * pose * all);
    b->refs = malloc(sizeof *b->refs * (size_t)joints * all);
    b->output = malloc(sizeof *b->output * pose);
    b->weights = malloc(sizeof *b->weights * (size_t)instances * all);
    b->masks = malloc(sizeof *b->masks * (size_t)joints * all);
    for (int j = 0; j < joints; ++j)
        b->rest[j] = ts_transform(r, TS_SCALE_ANY);
    for (size_t k = 0; k < pose * all; ++k)
        b->poses[k] = ts_transform(r, TS_SCALE_ANY);
    for (size_t k = 0; k < (size_t)joints * all; ++k) {
        b->refs[k] = ts_transform(r, TS_SCALE_ANY);
        /* Masks: some joints off, some partial, most on. */
        int pick = ts_int(r, 4);
        b->masks[k] = pick == 0 ? 0.0f : (pick == 1 ? (float)ts_uniform(r, 0, 1) : 1.0f);
    }
    for (size_t k = 0; k < (size_t)instances * all; ++k) {
        int pick = ts_int(r, 5);
        /* Zero, tiny (below the threshold), or ordinary weights. */
        b->weights[k] = pick == 0 ? 0.0f : (pick == 1 ? (float)ts_uniform(r, 0, 0.05)
                                                      : (float)ts_uniform(r, 0, 1));
    }
    for (size_t l = 0; l < all; ++l) {
        ossa_blend_layer *x = &b->layer[l];
        x->pose = b->poses + pose * l;
        x->pose_count = (int)pose;
        /* Alternate the optional fields: per-instance weights or one weight,
         * a mask or none, a reference or the rest pose. */
        if (l % 2 == 0) {
            x->weights = b->weights + (size_t)instances * l;
            x->weight_count = instances;
        } else {
            x->weight = (float)ts_uniform(r, 0, 1);
        }
        if (l % 3 != 2) {
            x->joint_mask = b->masks + (size_t)joints * l;
            x->joint_mask_count = joints;
        }
        if (l >= (size_t)layers && l % 2 == 1) {
            x->reference = b->refs + (size_t)joints * l;
            x->reference_count = joints;
        }
    }
    ossa_blending_job *job = &b->job;
    job->layers = b->layer;
    job->layer_count = layers;
    job->additive = b->layer + layers;
    job->additive_count = additive;
    job->rest_pose = b->rest;
    job->joint_count = joints;
    job->character_count = instances;
    job->output = b->output;
    job->output_count = (int)pose;
}

static void setup_free(blend_setup *b)
{
    free(b->rest);
    free(b->poses);
    free(b->refs);
    free(b->output);
    free(b->weights);
    free(b->masks);
}

TEST(blending_matches_double_reference_on_random_layers)
{
    ts_rng r = ts_rng_make(51);
    const int shapes[][2] = {{1, 0}, {2, 0}, {3, 1}, {4, 3}, {0, 2}, {5, 0}};
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; ++s) {
        blend_setup b;
        setup_make(&r, &b, 67, 6, shapes[s][0], shapes[s][1]);
        b.job.threshold = s % 2 ? 0.0f : 0.3f;
        CHECK_RESULT(ossa_blending_job_run(&b.job), OSSA_OK);
        double worst = 0, worst_angle = 0;
        for (int i = 0; i < b.instances; ++i)
            for (int j = 0; j < b.joints; ++j) {
                dtransform e = reference_blend(&b.job, i, j);
                double angle;
                worst = fmax(worst, transform_diff(&b.output[i * b.joints + j], &e, &angle));
                worst_angle = fmax(worst_angle, angle);
            }
        CHECK_NEAR(worst, 0, BLEND_TOL);
        CHECK_NEAR(worst_angle, 0, BLEND_ANGLE_TOL);
        setup_free(&b);
    }
}

static ossa_transform blend_one_joint(const ossa_blend_layer *layers, int count,
                                      const ossa_blend_layer *additive, int additive_count,
                                      ossa_transform rest, float threshold)
{
    ossa_transform out;
    ossa_blending_job job;
    memset(&job, 0, sizeof job);
    job.layers = layers;
    job.layer_count = count;
    job.additive = additive;
    job.additive_count = additive_count;
    job.rest_pose = &rest;
    job.joint_count = 1;
    job.character_count = 1;
    job.threshold = threshold;
    job.output = &out;
    job.output_count = 1;
    ossa_result r = ossa_blending_job_run(&job);
    if (r != OSSA_OK)
        memset(&out, 0xFF, sizeof out);
    return out;
}

TEST(one_full_weight_layer_passes_its_pose_through)
{
    ts_rng r = ts_rng_make(52);
    for (int k = 0; k < 200; ++k) {
        ossa_transform pose = ts_transform(&r, TS_SCALE_ANY);
        ossa_blend_layer layer = {&pose, 1, NULL, 0, 1.0f, NULL, 0, NULL, 0};
        ossa_transform out = blend_one_joint(&layer, 1, NULL, 0, ts_transform(&r, TS_SCALE_ANY), 0);
        CHECK(memcmp(&out.translation, &pose.translation, sizeof out.translation) == 0);
        CHECK(memcmp(&out.scale, &pose.scale, sizeof out.scale) == 0);
        CHECK_NEAR(ts_quat_angle(out.rotation, ts_dquat_from(pose.rotation)), 0, BLEND_ANGLE_TOL);
    }
}

TEST(weights_average_translation_and_scale)
{
    ossa_transform a = {{1, 0, 0}, {0, 0, 0, 1}, {1, 1, 1}};
    ossa_transform b = {{0, 2, 0}, {0, 0, 0, 1}, {3, 3, 3}};
    ossa_blend_layer layers[2] = {{&a, 1, NULL, 0, 0.25f, NULL, 0, NULL, 0},
                                  {&b, 1, NULL, 0, 0.75f, NULL, 0, NULL, 0}};
    ossa_transform out = blend_one_joint(layers, 2, NULL, 0, ossa_transform_identity(), 0);
    CHECK_NEAR(out.translation.x, 0.25, BLEND_TOL);
    CHECK_NEAR(out.translation.y, 1.5, BLEND_TOL);
    CHECK_NEAR(out.scale.z, 2.5, BLEND_TOL);
    /* Weights need not sum to one: they are normalised. */
    layers[0].weight = 1.0f;
    layers[1].weight = 3.0f;
    out = blend_one_joint(layers, 2, NULL, 0, ossa_transform_identity(), 0);
    CHECK_NEAR(out.translation.x, 0.25, BLEND_TOL);
    CHECK_NEAR(out.translation.y, 1.5, BLEND_TOL);
}

TEST(opposite_signed_quaternions_blend_as_one_rotation)
{
    ossa_quat q = ossa_quat_from_axis_angle((ossa_float3){0, 1, 0}, 1.0f);
    ossa_transform a = {{0, 0, 0}, q, {1, 1, 1}};
    ossa_transform b = {{0, 0, 0}, {-q.x, -q.y, -q.z, -q.w}, {1, 1, 1}};
    ossa_blend_layer layers[2] = {{&a, 1, NULL, 0, 0.5f, NULL, 0, NULL, 0},
                                  {&b, 1, NULL, 0, 0.5f, NULL, 0, NULL, 0}};
    ossa_transform out = blend_one_joint(layers, 2, NULL, 0, ossa_transform_identity(), 0);
    CHECK_NEAR(ts_quat_angle(out.rotation, ts_dquat_from(q)), 0, BLEND_ANGLE_TOL);
    /* Two rotations about one axis, equal weights: the halfway rotation. */
    ossa_transform c = {{0, 0, 0}, ossa_quat_from_axis_angle((ossa_float3){0, 1, 0}, 0.2f), {1, 1, 1}};
    ossa_transform d = {{0, 0, 0}, ossa_quat_from_axis_angle((ossa_float3){0, 1, 0}, 1.0f), {1, 1, 1}};
    layers[0].pose = &c;
    layers[1].pose = &d;
    out = blend_one_joint(layers, 2, NULL, 0, ossa_transform_identity(), 0);
    ossa_quat half = ossa_quat_from_axis_angle((ossa_float3){0, 1, 0}, 0.6f);
    CHECK_NEAR(ts_quat_angle(out.rotation, ts_dquat_from(half)), 0, BLEND_ANGLE_TOL);
}

/* How far a blended transform is from an expected float transform. */
static double distance(const ossa_transform *a, const ossa_transform *b)
{
    dtransform d = dt_from(b);
    double angle;
    return fmax(transform_diff(a, &d, &angle), angle);
}

TEST(joints_no_layer_drives_relax_to_rest)
{
    ossa_transform pose = {{1, 1, 1}, {0, 0, 0, 1}, {2, 2, 2}};
    ossa_transform rest = {{0, 0.3f, -0.7f}, {0, 0.6f, 0, 0.8f}, {1, 1.1f, 0.9f}};
    ossa_blend_layer layer = {&pose, 1, NULL, 0, 0.0f, NULL, 0, NULL, 0};
    /* Zero weight: the rest pose exactly. */
    ossa_transform out = blend_one_joint(&layer, 1, NULL, 0, rest, 0);
    CHECK_NEAR(distance(&out, &rest), 0, BLEND_TOL);
    /* No layers at all: the rest pose. */
    out = blend_one_joint(NULL, 0, NULL, 0, rest, 0);
    CHECK_NEAR(distance(&out, &rest), 0, BLEND_TOL);
    /* A masked-out joint: the rest pose. */
    const float mask = 0.0f;
    layer.weight = 1.0f;
    layer.joint_mask = &mask;
    layer.joint_mask_count = 1;
    out = blend_one_joint(&layer, 1, NULL, 0, rest, 0);
    CHECK_NEAR(distance(&out, &rest), 0, BLEND_TOL);
    /* Weight 0.04 below the 0.1 default threshold: rest fills in with 0.06. */
    layer.joint_mask = NULL;
    layer.weight = 0.04f;
    out = blend_one_joint(&layer, 1, NULL, 0, rest, 0);
    CHECK_NEAR(out.translation.x, 0.4, BLEND_TOL);
    CHECK_NEAR(out.translation.y, 0.4 * 1 + 0.6 * 0.3, BLEND_TOL);
    CHECK_NEAR(out.scale.y, 0.4 * 2 + 0.6 * 1.1, BLEND_TOL);
    /* The same with a threshold of 0.5: rest weighs 0.46. */
    out = blend_one_joint(&layer, 1, NULL, 0, rest, 0.5f);
    CHECK_NEAR(out.translation.x, 0.08, BLEND_TOL);
    CHECK_NEAR(out.translation.z, 0.08 * 1 + 0.92 * -0.7, BLEND_TOL);
    /* Negative and NaN weights count as zero. */
    float bad[2] = {-1.0f, NAN};
    layer.weights = bad;
    layer.weight_count = 1;
    out = blend_one_joint(&layer, 1, NULL, 0, rest, 0);
    CHECK_NEAR(distance(&out, &rest), 0, BLEND_TOL);
    layer.weights = bad + 1;
    out = blend_one_joint(&layer, 1, NULL, 0, rest, 0);
    CHECK_NEAR(distance(&out, &rest), 0, BLEND_TOL);
}

TEST(additive_layer_applies_its_difference_from_the_reference)
{
    ts_rng r = ts_rng_make(53);
    for (int k = 0; k < 100; ++k) {
        ossa_transform base = ts_transform(&r, TS_SCALE_ANY);
        ossa_transform ref = ts_transform(&r, TS_SCALE_ANY);
        ossa_quat turn = ossa_quat_from_axis_angle(ts_transform(&r, TS_SCALE_ONE).translation,
                                                   (float)ts_uniform(&r, -2, 2));
        ossa_transform add = ref;
        add.translation.x += 0.5f;
        add.rotation = ossa_quat_mul(ref.rotation, turn);
        add.scale.y *= 2.0f;
        ossa_blend_layer layer = {&base, 1, NULL, 0, 1.0f, NULL, 0, NULL, 0};
        ossa_blend_layer additive = {&add, 1, NULL, 0, 1.0f, NULL, 0, &ref, 1};
        ossa_transform out = blend_one_joint(&layer, 1, &additive, 1, ossa_transform_identity(), 0);
        CHECK_NEAR(out.translation.x, base.translation.x + 0.5, BLEND_TOL);
        CHECK_NEAR(out.translation.y, base.translation.y, BLEND_TOL);
        CHECK_NEAR(out.scale.y, base.scale.y * 2.0, BLEND_TOL * 4);
        CHECK_NEAR(out.scale.x, base.scale.x, BLEND_TOL);
        /* R = R_base * (R_ref^-1 * R_add) = R_base * turn */
        ts_dquat expect = ts_dquat_mul(ts_dquat_from(base.rotation), ts_dquat_from(turn));
        CHECK_NEAR(ts_quat_angle(out.rotation, expect), 0, BLEND_ANGLE_TOL);
        /* An additive pose equal to its reference changes nothing. */
        additive.pose = &ref;
        out = blend_one_joint(&layer, 1, &additive, 1, ossa_transform_identity(), 0);
        CHECK_NEAR(out.translation.z, base.translation.z, BLEND_TOL);
        CHECK_NEAR(out.scale.z, base.scale.z, BLEND_TOL);
        CHECK_NEAR(ts_quat_angle(out.rotation, ts_dquat_from(base.rotation)), 0, BLEND_ANGLE_TOL);
    }
}

TEST(blending_writes_only_its_instance_range)
{
    ts_rng r = ts_rng_make(54);
    blend_setup b;
    setup_make(&r, &b, 20, 5, 2, 1);
    memset(b.output, 0xFF, sizeof *b.output * 100);
    b.job.character_begin = 2;
    b.job.character_end = 4;
    CHECK_RESULT(ossa_blending_job_run(&b.job), OSSA_OK);
    int wrong = 0;
    for (int i = 0; i < 5; ++i)
        for (int j = 0; j < 20; ++j) {
            const bool inside = i >= 2 && i < 4;
            wrong += inside == (isnan(b.output[i * 20 + j].translation.x) != 0);
        }
    CHECK_INT(wrong, 0);
    setup_free(&b);
}

TEST(blending_validity_table)
{
    ossa_transform rest[2], pose[4], out[4];
    for (int i = 0; i < 4; ++i)
        pose[i] = out[i] = rest[i % 2] = ossa_transform_identity();
    float weights[2] = {1, 1}, mask[2] = {1, 1};
    ossa_blend_layer layer = {pose, 4, weights, 2, 0.0f, mask, 2, NULL, 0};
    ossa_blend_layer additive = {pose, 4, NULL, 0, 1.0f, NULL, 0, rest, 2};
    ossa_blending_job job;
    memset(&job, 0, sizeof job);
    CHECK_RESULT(ossa_blending_job_validate(&job), OSSA_ERR_MISSING_INPUT); /* rest_pose */
    CHECK_RESULT(ossa_blending_job_validate(NULL), OSSA_ERR_MISSING_INPUT);
    job.rest_pose = rest;
    CHECK_RESULT(ossa_blending_job_validate(&job), OSSA_ERR_INPUT_TOO_SMALL); /* joints */
    job.joint_count = 2;
    CHECK_RESULT(ossa_blending_job_validate(&job), OSSA_ERR_INPUT_TOO_SMALL); /* instances */
    job.character_count = 2;
    CHECK_RESULT(ossa_blending_job_validate(&job), OSSA_ERR_MISSING_OUTPUT);
    job.output = out;
    job.output_count = 3;
    CHECK_RESULT(ossa_blending_job_validate(&job), OSSA_ERR_OUTPUT_TOO_SMALL);
    job.output_count = 4;
    CHECK_RESULT(ossa_blending_job_validate(&job), OSSA_OK); /* no layers: rest pose */
    job.layer_count = 1;
    CHECK_RESULT(ossa_blending_job_validate(&job), OSSA_ERR_MISSING_INPUT); /* layers */
    job.layer_count = -1;
    CHECK_RESULT(ossa_blending_job_validate(&job), OSSA_ERR_BAD_ARGUMENT);
    job.layer_count = 1;
    job.layers = &layer;
    CHECK_RESULT(ossa_blending_job_validate(&job), OSSA_OK);
    layer.pose = NULL;
    CHECK_RESULT(ossa_blending_job_validate(&job), OSSA_ERR_MISSING_INPUT);
    layer.pose = pose;
    layer.pose_count = 3;
    CHECK_RESULT(ossa_blending_job_validate(&job), OSSA_ERR_INPUT_TOO_SMALL);
    layer.pose_count = 4;
    layer.weight_count = 1;
    CHECK_RESULT(ossa_blending_job_validate(&job), OSSA_ERR_INPUT_TOO_SMALL);
    layer.weight_count = 2;
    layer.joint_mask_count = 1;
    CHECK_RESULT(ossa_blending_job_validate(&job), OSSA_ERR_INPUT_TOO_SMALL);
    layer.joint_mask_count = 2;
    layer.weights = NULL;
    layer.weight = NAN;
    CHECK_RESULT(ossa_blending_job_validate(&job), OSSA_ERR_BAD_VALUE);
    layer.weight = INFINITY;
    CHECK_RESULT(ossa_blending_job_validate(&job), OSSA_ERR_BAD_VALUE);
    layer.weight = 0.5f;
    job.additive_count = 1;
    CHECK_RESULT(ossa_blending_job_validate(&job), OSSA_ERR_MISSING_INPUT); /* additive */
    job.additive_count = -1;
    CHECK_RESULT(ossa_blending_job_validate(&job), OSSA_ERR_BAD_ARGUMENT);
    job.additive_count = 1;
    job.additive = &additive;
    CHECK_RESULT(ossa_blending_job_validate(&job), OSSA_OK);
    additive.reference_count = 1;
    CHECK_RESULT(ossa_blending_job_validate(&job), OSSA_ERR_INPUT_TOO_SMALL);
    additive.reference_count = 2;
    additive.pose_count = 1;
    CHECK_RESULT(ossa_blending_job_validate(&job), OSSA_ERR_INPUT_TOO_SMALL);
    additive.pose_count = 4;
    job.character_begin = -1;
    CHECK_RESULT(ossa_blending_job_validate(&job), OSSA_ERR_BAD_RANGE);
    job.character_begin = 0;
    job.character_end = 3;
    CHECK_RESULT(ossa_blending_job_validate(&job), OSSA_ERR_BAD_RANGE);
    job.character_begin = 2;
    job.character_end = 1;
    CHECK_RESULT(ossa_blending_job_validate(&job), OSSA_ERR_BAD_RANGE);
    job.character_begin = job.character_end = 0;
    job.threshold = -0.1f;
    CHECK_RESULT(ossa_blending_job_validate(&job), OSSA_ERR_BAD_VALUE);
    job.threshold = NAN;
    CHECK_RESULT(ossa_blending_job_validate(&job), OSSA_ERR_BAD_VALUE);
    job.threshold = 0.2f;
    CHECK_RESULT(ossa_blending_job_validate(&job), OSSA_OK);
    /* run writes nothing when invalid */
    memset(out, 0x5A, sizeof out);
    job.output_count = 3;
    CHECK_RESULT(ossa_blending_job_run(&job), OSSA_ERR_OUTPUT_TOO_SMALL);
    unsigned char expect[sizeof out];
    memset(expect, 0x5A, sizeof expect);
    CHECK(memcmp(out, expect, sizeof out) == 0);
    job.output_count = 4;
    CHECK_RESULT(ossa_blending_job_run(&job), OSSA_OK);
}

UTEST_MAIN(blending_matches_double_reference_on_random_layers,
           one_full_weight_layer_passes_its_pose_through, weights_average_translation_and_scale,
           opposite_signed_quaternions_blend_as_one_rotation, joints_no_layer_drives_relax_to_rest,
           additive_layer_applies_its_difference_from_the_reference,
           blending_writes_only_its_instance_range, blending_validity_table)
