/* palette_job_test.c - skinning matrices against double precision, from
 * matrices and from QVS, the bind pose giving identities, instance ranges,
 * and the validity table. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "ossa/palette_job.h"
#include "test_support.h"
#include "utest.h"

/* One product of two matrices with entries <= 2 (and the QVS -> matrix
 * conversion): a few float roundings on values of magnitude <= 8. */
#define PALETTE_TOL 4e-6
/* model * inverse(model): the inverse carries rounding scaled by 1/det
 * (scales >= 0.5, so <= 8). */
#define BIND_TOL 2e-5

typedef struct palette_setup {
    int joints, skins, instances;
    ossa_mat34 *model, *inverse_bind, *palette;
    ossa_qvs *model_qvs;
    uint16_t *skin_joint;
} palette_setup;

static palette_setup setup_make(ts_rng *r, int joints, int skins, int instances)
{
    palette_setup p;
    p.joints = joints;
    p.skins = skins;
    p.instances = instances;
    const size_t models = (size_t)joints * (size_t)instances;
    p.model = malloc(sizeof *p.model * models);
    p.model_qvs = malloc(sizeof *p.model_qvs * models);
    p.inverse_bind = malloc(sizeof *p.inverse_bind * (size_t)skins);
    p.palette = malloc(sizeof *p.palette * (size_t)skins * (size_t)instances);
    p.skin_joint = malloc(sizeof *p.skin_joint * (size_t)skins);
    for (size_t i = 0; i < models; ++i) {
        ossa_transform t = ts_transform(r, TS_SCALE_UNIFORM);
        p.model[i] = ossa_mat34_from_transform(ts_transform(r, TS_SCALE_ANY));
        p.model_qvs[i] = (ossa_qvs){t.rotation, t.translation, t.scale.x};
    }
    for (int k = 0; k < skins; ++k) {
        p.inverse_bind[k] = ossa_mat34_from_transform(ts_transform(r, TS_SCALE_ANY));
        /* A subset of the skeleton in its own order, repeats allowed. */
        p.skin_joint[k] = (uint16_t)ts_int(r, joints);
    }
    return p;
}

static void setup_free(palette_setup *p)
{
    free(p->model);
    free(p->model_qvs);
    free(p->inverse_bind);
    free(p->palette);
    free(p->skin_joint);
}

static ossa_palette_job job_of(const palette_setup *p, bool qvs)
{
    ossa_palette_job job;
    memset(&job, 0, sizeof job);
    if (qvs)
        job.model_qvs = p->model_qvs;
    else
        job.model = p->model;
    job.model_count = p->joints * p->instances;
    job.joint_count = p->joints;
    job.skin_joint = p->skin_joint;
    job.inverse_bind = p->inverse_bind;
    job.skin_joint_count = p->skins;
    job.character_count = p->instances;
    job.palette = p->palette;
    job.palette_count = p->skins * p->instances;
    return job;
}

static ts_dmat dmat_of_qvs(ossa_qvs q)
{
    ossa_transform t = {q.translation, q.rotation, {q.scale, q.scale, q.scale}};
    return ts_dmat_from_transform(t);
}

static double worst_against_reference(const palette_setup *p, bool qvs)
{
    double worst = 0;
    for (int i = 0; i < p->instances; ++i)
        for (int k = 0; k < p->skins; ++k) {
            const size_t m = (size_t)i * (size_t)p->joints + p->skin_joint[k];
            ts_dmat model = qvs ? dmat_of_qvs(p->model_qvs[m]) : ts_dmat_from_mat34(&p->model[m]);
            ts_dmat inv = ts_dmat_from_mat34(&p->inverse_bind[k]);
            ts_dmat e = ts_dmat_mul(&model, &inv);
            worst = fmax(worst, ts_mat_diff(&p->palette[i * p->skins + k], &e));
        }
    return worst;
}

TEST(palette_from_matrices_matches_double_products)
{
    ts_rng r = ts_rng_make(61);
    palette_setup p = setup_make(&r, 96, 53, 7);
    ossa_palette_job job = job_of(&p, false);
    CHECK_RESULT(ossa_palette_job_run(&job), OSSA_OK);
    CHECK_NEAR(worst_against_reference(&p, false), 0, PALETTE_TOL);
    setup_free(&p);
}

TEST(palette_from_qvs_matches_double_products)
{
    ts_rng r = ts_rng_make(62);
    palette_setup p = setup_make(&r, 300, 300, 3);
    ossa_palette_job job = job_of(&p, true);
    CHECK_RESULT(ossa_palette_job_run(&job), OSSA_OK);
    CHECK_NEAR(worst_against_reference(&p, true), 0, PALETTE_TOL);
    setup_free(&p);
}

TEST(bind_pose_gives_identity_palette)
{
    ts_rng r = ts_rng_make(63);
    palette_setup p = setup_make(&r, 40, 40, 1);
    for (int k = 0; k < p.skins; ++k) {
        p.skin_joint[k] = (uint16_t)(p.joints - 1 - k);
        p.inverse_bind[k] = ossa_mat34_inverse(&p.model[p.skin_joint[k]]);
    }
    ossa_palette_job job = job_of(&p, false);
    CHECK_RESULT(ossa_palette_job_run(&job), OSSA_OK);
    ts_dmat id = ts_dmat_identity();
    double worst = 0;
    for (int k = 0; k < p.skins; ++k)
        worst = fmax(worst, ts_mat_diff(&p.palette[k], &id));
    CHECK_NEAR(worst, 0, BIND_TOL);
    setup_free(&p);
}

TEST(palette_writes_only_its_instance_range)
{
    ts_rng r = ts_rng_make(64);
    palette_setup p = setup_make(&r, 10, 6, 4);
    memset(p.palette, 0xFF, sizeof *p.palette * 24);
    ossa_palette_job job = job_of(&p, false);
    job.character_begin = 1;
    job.character_end = 2;
    CHECK_RESULT(ossa_palette_job_run(&job), OSSA_OK);
    int wrong = 0;
    for (int i = 0; i < 24; ++i)
        wrong += (i >= 6 && i < 12) == (isnan(p.palette[i].m[2][3]) != 0);
    CHECK_INT(wrong, 0);
    setup_free(&p);
}

TEST(palette_validity_table)
{
    ossa_mat34 model[4], inverse_bind[3], palette[6];
    ossa_qvs model_qvs[4];
    for (int i = 0; i < 4; ++i) {
        model[i] = ossa_mat34_identity();
        model_qvs[i] = ossa_qvs_identity();
    }
    for (int i = 0; i < 3; ++i)
        inverse_bind[i] = ossa_mat34_identity();
    uint16_t skin_joint[3] = {1, 0, 1};
    ossa_palette_job job;
    memset(&job, 0, sizeof job);
    CHECK_RESULT(ossa_palette_job_validate(&job), OSSA_ERR_MISSING_INPUT);
    CHECK_RESULT(ossa_palette_job_validate(NULL), OSSA_ERR_MISSING_INPUT);
    job.model = model;
    job.model_qvs = model_qvs;
    CHECK_RESULT(ossa_palette_job_validate(&job), OSSA_ERR_BAD_ARGUMENT); /* both */
    job.model_qvs = NULL;
    CHECK_RESULT(ossa_palette_job_validate(&job), OSSA_ERR_INPUT_TOO_SMALL); /* joints */
    job.joint_count = 2;
    CHECK_RESULT(ossa_palette_job_validate(&job), OSSA_ERR_INPUT_TOO_SMALL); /* instances */
    job.character_count = 2;
    job.model_count = 3;
    CHECK_RESULT(ossa_palette_job_validate(&job), OSSA_ERR_INPUT_TOO_SMALL); /* short model */
    job.model_count = 4;
    CHECK_RESULT(ossa_palette_job_validate(&job), OSSA_ERR_MISSING_INPUT); /* skin_joint */
    job.skin_joint = skin_joint;
    CHECK_RESULT(ossa_palette_job_validate(&job), OSSA_ERR_MISSING_INPUT); /* inverse_bind */
    job.inverse_bind = inverse_bind;
    CHECK_RESULT(ossa_palette_job_validate(&job), OSSA_ERR_INPUT_TOO_SMALL); /* skins */
    job.skin_joint_count = 3;
    CHECK_RESULT(ossa_palette_job_validate(&job), OSSA_ERR_MISSING_OUTPUT);
    job.palette = palette;
    job.palette_count = 5;
    CHECK_RESULT(ossa_palette_job_validate(&job), OSSA_ERR_OUTPUT_TOO_SMALL);
    job.palette_count = 6;
    CHECK_RESULT(ossa_palette_job_validate(&job), OSSA_OK);
    skin_joint[2] = 2;
    CHECK_RESULT(ossa_palette_job_validate(&job), OSSA_ERR_BAD_INDEX);
    skin_joint[2] = 1;
    job.character_begin = -1;
    CHECK_RESULT(ossa_palette_job_validate(&job), OSSA_ERR_BAD_RANGE);
    job.character_begin = 0;
    job.character_end = 3;
    CHECK_RESULT(ossa_palette_job_validate(&job), OSSA_ERR_BAD_RANGE);
    job.character_begin = 2;
    job.character_end = 1;
    CHECK_RESULT(ossa_palette_job_validate(&job), OSSA_ERR_BAD_RANGE);
    job.character_begin = job.character_end = 0;
    job.model = NULL;
    job.model_qvs = model_qvs;
    CHECK_RESULT(ossa_palette_job_validate(&job), OSSA_OK);
    memset(palette, 0x5A, sizeof palette);
    job.palette_count = 5;
    CHECK_RESULT(ossa_palette_job_run(&job), OSSA_ERR_OUTPUT_TOO_SMALL);
    unsigned char expect[sizeof palette];
    memset(expect, 0x5A, sizeof expect);
    CHECK(memcmp(palette, expect, sizeof palette) == 0);
}

UTEST_MAIN(palette_from_matrices_matches_double_products, palette_from_qvs_matches_double_products,
           bind_pose_gives_identity_palette, palette_writes_only_its_instance_range,
           palette_validity_table)
