/* local_to_model_job_test.c - the hierarchy walk (3x4 and QVS) against a
 * double-precision walk on random hierarchies, root transforms, partial
 * updates, instance ranges, and the validity tables. */
#include <float.h>
#include <stdlib.h>
#include <string.h>

#include "ossa/local_to_model_job.h"
#include "ossa/skeleton.h"
#include "test_support.h"
#include "utest.h"

/* Random hierarchies are at most ~60 deep (ts_parents) with scales in
 * [0.8, 1.25]: about five float roundings (2^-24) per level relative to the
 * result's magnitude: 60 * 5 * 6e-8 = 1.8e-5 of (1 + |value|). */
#define HIERARCHY_REL_TOL 2e-5
/* The QVS walk also compounds the drift of its quaternions' norm (about two
 * more roundings per level) that the conversion to a matrix turns into scale:
 * 60 * 10 * 6e-8 = 3.6e-5. */
#define QVS_REL_TOL 4e-5
/* A 1000-deep chain of unit-scale joints: 1000 levels * 5 roundings * 6e-8. */
#define CHAIN_REL_TOL 3e-4

static double magnitude(const ts_dmat *m)
{
    double mag = 0;
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 4; ++j)
            mag = fmax(mag, fabs(m->m[i][j]));
    return mag;
}

static double rel_diff(const ossa_mat34 *a, const ts_dmat *b)
{
    return ts_mat_diff(a, b) / (1.0 + magnitude(b));
}

typedef struct scene {
    int joints, instances;
    uint16_t *parents;
    ossa_transform *local;
    ossa_mat34 *root;
    ossa_qvs *root_qvs;
} scene;

/* Random hierarchy and poses; scale mode for the local transforms. */
static scene scene_make(ts_rng *r, int joints, int instances, int roots, ts_scale scale)
{
    scene s;
    s.joints = joints;
    s.instances = instances;
    s.parents = malloc(sizeof *s.parents * (size_t)joints);
    s.local = malloc(sizeof *s.local * (size_t)joints * (size_t)instances);
    s.root = malloc(sizeof *s.root * (size_t)instances);
    s.root_qvs = malloc(sizeof *s.root_qvs * (size_t)instances);
    ts_parents(r, joints, roots, s.parents);
    for (int i = 0; i < joints * instances; ++i)
        s.local[i] = ts_transform_range(r, scale, 0.8, 1.25);
    for (int i = 0; i < instances; ++i) {
        ossa_transform t = ts_transform_range(r, TS_SCALE_UNIFORM, 0.5, 2.0);
        s.root[i] = ossa_mat34_from_transform(t);
        s.root_qvs[i] = (ossa_qvs){t.rotation, t.translation, t.scale.x};
    }
    return s;
}

static void scene_free(scene *s)
{
    free(s->parents);
    free(s->local);
    free(s->root);
    free(s->root_qvs);
}

static ossa_local_to_model_job matrix_job(const scene *s, ossa_mat34 *model)
{
    ossa_local_to_model_job job;
    memset(&job, 0, sizeof job);
    job.parents = s->parents;
    job.joint_count = s->joints;
    job.local = s->local;
    job.local_count = s->joints * s->instances;
    job.character_count = s->instances;
    job.model = model;
    job.model_count = s->joints * s->instances;
    return job;
}

static ossa_local_to_model_qvs_job qvs_job(const scene *s, ossa_qvs *model)
{
    ossa_local_to_model_qvs_job job;
    memset(&job, 0, sizeof job);
    job.parents = s->parents;
    job.joint_count = s->joints;
    job.local = s->local;
    job.local_count = s->joints * s->instances;
    job.character_count = s->instances;
    job.model = model;
    job.model_count = s->joints * s->instances;
    return job;
}

/* Worst relative difference of the job's model transforms against the
 * double-precision walk, over every instance. */
static double worst_against_reference(const scene *s, const ossa_mat34 *model, bool with_root)
{
    ts_dmat *expected = malloc(sizeof *expected * (size_t)s->joints);
    double worst = 0;
    for (int i = 0; i < s->instances; ++i) {
        ts_dmat root = ts_dmat_from_mat34(&s->root[i]);
        ts_model_flat(s->parents, s->local + (size_t)i * (size_t)s->joints, s->joints,
                      with_root ? &root : NULL, expected);
        for (int j = 0; j < s->joints; ++j)
            worst = fmax(worst, rel_diff(&model[(size_t)i * (size_t)s->joints + (size_t)j],
                                         &expected[j]));
    }
    free(expected);
    return worst;
}

TEST(local_to_model_matches_double_walk_on_random_hierarchies)
{
    ts_rng r = ts_rng_make(41);
    const int sizes[] = {1, 2, 96, 1000, 3000};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; ++k) {
        scene s = scene_make(&r, sizes[k], 3, 1 + (int)k, TS_SCALE_ANY);
        ossa_mat34 *model = malloc(sizeof *model * (size_t)sizes[k] * 3);
        ossa_local_to_model_job job = matrix_job(&s, model);
        CHECK_RESULT(ossa_local_to_model_job_run(&job), OSSA_OK);
        CHECK_NEAR(worst_against_reference(&s, model, false), 0, HIERARCHY_REL_TOL);
        job.root = s.root;
        job.root_count = s.instances;
        CHECK_RESULT(ossa_local_to_model_job_run(&job), OSSA_OK);
        CHECK_NEAR(worst_against_reference(&s, model, true), 0, HIERARCHY_REL_TOL);
        free(model);
        scene_free(&s);
    }
}

TEST(local_to_model_stays_accurate_down_a_1000_deep_chain)
{
    ts_rng r = ts_rng_make(42);
    scene s = scene_make(&r, 1000, 1, 1, TS_SCALE_ONE);
    for (int i = 0; i < s.joints; ++i) {
        s.parents[i] = i == 0 ? OSSA_NO_PARENT : (uint16_t)(i - 1);
        /* Small bends, as along a rope, so the chain spreads out. */
        ossa_float3 axis = ts_transform(&r, TS_SCALE_ONE).translation;
        s.local[i].rotation = ossa_quat_from_axis_angle(axis, (float)ts_uniform(&r, -0.2, 0.2));
        s.local[i].translation = (ossa_float3){0, 0.1f, 0};
    }
    ossa_mat34 *model = malloc(sizeof *model * 1000);
    ossa_local_to_model_job job = matrix_job(&s, model);
    CHECK_RESULT(ossa_local_to_model_job_run(&job), OSSA_OK);
    CHECK_NEAR(worst_against_reference(&s, model, false), 0, CHAIN_REL_TOL);
    free(model);
    scene_free(&s);
}

/* QVS output as matrices, for comparison. */
static double worst_qvs_vs_matrix(const ossa_qvs *q, const ossa_mat34 *m, int count)
{
    double worst = 0;
    for (int i = 0; i < count; ++i) {
        ossa_mat34 from = ossa_mat34_from_qvs(q[i]);
        ts_dmat ref = ts_dmat_from_mat34(&m[i]);
        worst = fmax(worst, rel_diff(&from, &ref));
    }
    return worst;
}

static void check_qvs_agrees(ts_scale scale)
{
    ts_rng r = ts_rng_make(scale == TS_SCALE_ONE ? 43 : 44);
    const int sizes[] = {1, 96, 3000};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; ++k) {
        scene s = scene_make(&r, sizes[k], 2, 2, scale);
        const size_t count = (size_t)sizes[k] * 2;
        ossa_mat34 *model = malloc(sizeof *model * count);
        ossa_qvs *qvs = malloc(sizeof *qvs * count);
        ossa_local_to_model_job mj = matrix_job(&s, model);
        ossa_local_to_model_qvs_job qj = qvs_job(&s, qvs);
        mj.root = s.root;
        mj.root_count = s.instances;
        qj.root = s.root_qvs;
        qj.root_count = s.instances;
        CHECK_RESULT(ossa_local_to_model_job_run(&mj), OSSA_OK);
        CHECK_RESULT(ossa_local_to_model_qvs_job_run(&qj), OSSA_OK);
        /* Both against the reference, and against each other. */
        CHECK_NEAR(worst_qvs_vs_matrix(qvs, model, (int)count), 0, QVS_REL_TOL);
        ossa_mat34 *as_matrix = malloc(sizeof *as_matrix * count);
        for (size_t i = 0; i < count; ++i)
            as_matrix[i] = ossa_mat34_from_qvs(qvs[i]);
        CHECK_NEAR(worst_against_reference(&s, as_matrix, true), 0, QVS_REL_TOL);
        free(as_matrix);
        free(model);
        free(qvs);
        scene_free(&s);
    }
}

TEST(qvs_and_matrix_walks_agree_without_scale)
{
    check_qvs_agrees(TS_SCALE_ONE);
}

TEST(qvs_and_matrix_walks_agree_with_uniform_scale)
{
    check_qvs_agrees(TS_SCALE_UNIFORM);
}

TEST(partial_update_rewrites_exactly_the_subtree)
{
    ts_rng r = ts_rng_make(45);
    scene s = scene_make(&r, 500, 2, 2, TS_SCALE_ANY);
    const size_t count = (size_t)s.joints * 2;
    ossa_mat34 *full = malloc(sizeof *full * count);
    ossa_mat34 *part = malloc(sizeof *part * count);
    ossa_qvs *qfull = malloc(sizeof *qfull * count);
    ossa_qvs *qpart = malloc(sizeof *qpart * count);
    ossa_local_to_model_job job = matrix_job(&s, full);
    REQUIRE(ossa_local_to_model_job_run(&job) == OSSA_OK);
    ossa_local_to_model_qvs_job qjob = qvs_job(&s, qfull);
    REQUIRE(ossa_local_to_model_qvs_job_run(&qjob) == OSSA_OK);
    const int froms[] = {0, 1, 37, 250, 499};
    for (size_t f = 0; f < sizeof froms / sizeof froms[0]; ++f) {
        const int from = froms[f];
        /* In the subtree: from itself, or a joint whose parent is. */
        bool *in = calloc((size_t)s.joints, sizeof *in);
        for (int i = from; i < s.joints; ++i)
            in[i] = i == from || (s.parents[i] != OSSA_NO_PARENT && in[s.parents[i]]);
        /* Change the subtree's local pose; the rest of model holds the old pose. */
        ossa_transform *saved = malloc(sizeof *saved * count);
        memcpy(saved, s.local, sizeof *saved * count);
        for (int inst = 0; inst < 2; ++inst)
            for (int i = 0; i < s.joints; ++i)
                if (in[i])
                    s.local[inst * s.joints + i] = ts_transform_range(&r, TS_SCALE_UNIFORM, 0.8, 1.25);
        memcpy(part, full, sizeof *part * count);
        memcpy(qpart, qfull, sizeof *qpart * count);
        const ossa_mat34 sentinel = {{{NAN, NAN, NAN, NAN}, {NAN, NAN, NAN, NAN}, {NAN, NAN, NAN, NAN}}};
        /* Joints outside the subtree must not even be rewritten. */
        for (int inst = 0; inst < 2; ++inst)
            for (int i = from + 1; i < s.joints; ++i)
                if (!in[i])
                    part[inst * s.joints + i] = sentinel;
        ossa_local_to_model_job pj = matrix_job(&s, part);
        pj.partial = true;
        pj.from_joint = from;
        CHECK_RESULT(ossa_local_to_model_job_run(&pj), OSSA_OK);
        ossa_local_to_model_qvs_job pq = qvs_job(&s, qpart);
        pq.partial = true;
        pq.from_joint = from;
        CHECK_RESULT(ossa_local_to_model_qvs_job_run(&pq), OSSA_OK);
        /* The reference: a full walk of the new pose. */
        ossa_mat34 *fresh = malloc(sizeof *fresh * count);
        ossa_qvs *qfresh = malloc(sizeof *qfresh * count);
        ossa_local_to_model_job fj = matrix_job(&s, fresh);
        ossa_local_to_model_qvs_job fq = qvs_job(&s, qfresh);
        REQUIRE(ossa_local_to_model_job_run(&fj) == OSSA_OK);
        REQUIRE(ossa_local_to_model_qvs_job_run(&fq) == OSSA_OK);
        int wrong = 0, touched = 0;
        for (size_t i = 0; i < count; ++i) {
            const int joint = (int)(i % (size_t)s.joints);
            if (in[joint] || joint <= from) {
                wrong += memcmp(&part[i], &fresh[i], sizeof part[i]) != 0;
                wrong += memcmp(&qpart[i], &qfresh[i], sizeof qpart[i]) != 0;
            } else {
                touched += !isnan(part[i].m[0][0]);
                touched += memcmp(&qpart[i], &qfull[i], sizeof qpart[i]) != 0;
            }
        }
        CHECK_INT(wrong, 0);
        CHECK_INT(touched, 0);
        memcpy(s.local, saved, sizeof *saved * count);
        free(saved);
        free(fresh);
        free(qfresh);
        free(in);
    }
    free(full);
    free(part);
    free(qfull);
    free(qpart);
    scene_free(&s);
}

TEST(local_to_model_writes_only_its_instance_range)
{
    ts_rng r = ts_rng_make(46);
    scene s = scene_make(&r, 40, 5, 1, TS_SCALE_ANY);
    const size_t count = 40 * 5;
    ossa_mat34 *model = malloc(sizeof *model * count);
    ossa_qvs *qvs = malloc(sizeof *qvs * count);
    ossa_mat34 *full = malloc(sizeof *full * count);
    memset(model, 0xFF, sizeof *model * count); /* NaN everywhere */
    memset(qvs, 0xFF, sizeof *qvs * count);
    ossa_local_to_model_job job = matrix_job(&s, model);
    job.character_begin = 1;
    job.character_end = 3;
    CHECK_RESULT(ossa_local_to_model_job_run(&job), OSSA_OK);
    ossa_local_to_model_qvs_job qjob = qvs_job(&s, qvs);
    qjob.character_begin = 1;
    qjob.character_end = 3;
    CHECK_RESULT(ossa_local_to_model_qvs_job_run(&qjob), OSSA_OK);
    ossa_local_to_model_job fj = matrix_job(&s, full);
    REQUIRE(ossa_local_to_model_job_run(&fj) == OSSA_OK);
    int wrong = 0;
    for (size_t i = 0; i < count; ++i) {
        const bool inside = i >= 40 && i < 120;
        wrong += inside ? memcmp(&model[i], &full[i], sizeof model[i]) != 0
                        : !isnan(model[i].m[0][0]);
        wrong += inside == (isnan(qvs[i].scale) != 0);
    }
    CHECK_INT(wrong, 0);
    free(model);
    free(qvs);
    free(full);
    scene_free(&s);
}

/* The validity table, for either job: the same fields, the same codes. */
#define VALIDITY_TABLE(job_type, validate, run, model_type, model_array, root_array)          \
    do {                                                                                      \
        uint16_t parents[3] = {OSSA_NO_PARENT, 0, 1};                                         \
        ossa_transform local[6];                                                              \
        for (int i = 0; i < 6; ++i)                                                           \
            local[i] = ossa_transform_identity();                                             \
        model_type model_array[6];                                                            \
        model_type root_array[2];                                                             \
        job_type job;                                                                         \
        memset(&job, 0, sizeof job);                                                          \
        CHECK_RESULT(validate(&job), OSSA_ERR_MISSING_INPUT);                                 \
        CHECK_RESULT(validate(NULL), OSSA_ERR_MISSING_INPUT);                                 \
        job.parents = parents;                                                                \
        CHECK_RESULT(validate(&job), OSSA_ERR_INPUT_TOO_SMALL); /* joint_count 0 */           \
        job.joint_count = 3;                                                                  \
        CHECK_RESULT(validate(&job), OSSA_ERR_MISSING_INPUT); /* local */                     \
        job.local = local;                                                                    \
        CHECK_RESULT(validate(&job), OSSA_ERR_INPUT_TOO_SMALL); /* character_count 0 */        \
        job.character_count = 2;                                                               \
        job.local_count = 5;                                                                  \
        CHECK_RESULT(validate(&job), OSSA_ERR_INPUT_TOO_SMALL); /* short local */             \
        job.local_count = 6;                                                                  \
        CHECK_RESULT(validate(&job), OSSA_ERR_MISSING_OUTPUT);                                \
        job.model = model_array;                                                              \
        job.model_count = 5;                                                                  \
        CHECK_RESULT(validate(&job), OSSA_ERR_OUTPUT_TOO_SMALL);                              \
        job.model_count = 6;                                                                  \
        CHECK_RESULT(validate(&job), OSSA_OK);                                                \
        job.character_begin = -1;                                                              \
        CHECK_RESULT(validate(&job), OSSA_ERR_BAD_RANGE);                                     \
        job.character_begin = 1;                                                               \
        job.character_end = 3;                                                                 \
        CHECK_RESULT(validate(&job), OSSA_ERR_BAD_RANGE);                                     \
        job.character_begin = 2;                                                               \
        job.character_end = 1;                                                                 \
        CHECK_RESULT(validate(&job), OSSA_ERR_BAD_RANGE);                                     \
        job.character_begin = 1;                                                               \
        job.character_end = 1; /* empty range: valid, writes nothing */                        \
        CHECK_RESULT(validate(&job), OSSA_OK);                                                \
        job.character_begin = job.character_end = 0;                                            \
        job.root = root_array;                                                                \
        job.root_count = 1;                                                                   \
        CHECK_RESULT(validate(&job), OSSA_ERR_INPUT_TOO_SMALL); /* short root */              \
        job.root_count = 2;                                                                   \
        job.partial = true;                                                                   \
        job.from_joint = 3;                                                                   \
        CHECK_RESULT(validate(&job), OSSA_ERR_BAD_INDEX);                                     \
        job.from_joint = -1;                                                                  \
        CHECK_RESULT(validate(&job), OSSA_ERR_BAD_INDEX);                                     \
        job.from_joint = 2;                                                                   \
        parents[1] = 1; /* not before its child */                                            \
        CHECK_RESULT(validate(&job), OSSA_ERR_BAD_INDEX);                                     \
        parents[1] = 2;                                                                       \
        CHECK_RESULT(validate(&job), OSSA_ERR_BAD_INDEX);                                     \
        parents[1] = 0;                                                                       \
        job.joint_count = OSSA_MAX_JOINTS + 1;                                                \
        CHECK_RESULT(validate(&job), OSSA_ERR_BAD_ARGUMENT);                                  \
        job.joint_count = 3;                                                                  \
        CHECK_RESULT(validate(&job), OSSA_OK);                                                \
        /* run validates first and writes nothing when invalid */                            \
        memset(model_array, 0x5A, sizeof model_array);                                        \
        job.model_count = 5;                                                                  \
        CHECK_RESULT(run(&job), OSSA_ERR_OUTPUT_TOO_SMALL);                                   \
        unsigned char expect[sizeof model_array];                                             \
        memset(expect, 0x5A, sizeof expect);                                                  \
        CHECK(memcmp(model_array, expect, sizeof expect) == 0);                               \
    } while (0)

TEST(local_to_model_validity_table)
{
    VALIDITY_TABLE(ossa_local_to_model_job, ossa_local_to_model_job_validate,
                   ossa_local_to_model_job_run, ossa_mat34, model, root);
}

TEST(local_to_model_qvs_validity_table)
{
    VALIDITY_TABLE(ossa_local_to_model_qvs_job, ossa_local_to_model_qvs_job_validate,
                   ossa_local_to_model_qvs_job_run, ossa_qvs, model, root);
}

UTEST_MAIN(local_to_model_matches_double_walk_on_random_hierarchies,
           local_to_model_stays_accurate_down_a_1000_deep_chain,
           qvs_and_matrix_walks_agree_without_scale, qvs_and_matrix_walks_agree_with_uniform_scale,
           partial_update_rewrites_exactly_the_subtree,
           local_to_model_writes_only_its_instance_range, local_to_model_validity_table,
           local_to_model_qvs_validity_table)
