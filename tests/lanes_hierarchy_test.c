/* lanes_hierarchy_test.c - the lane local->model and palette jobs against
 * double precision and the reference jobs, on every path this machine runs,
 * every width and partial batches; palettes with and without a skin map. */
#include <stdlib.h>
#include <string.h>

#include "lanes_test_support.h"
#include "ossa/ossa.h"
#include "test_support.h"
#include "utest.h"
#include "simd_paths.h"

static void check_hierarchy(ts_rng *rng, ossa_simd_path path, int width, int characters,
                            int joints, int with_root)
{
    const size_t n = (size_t)characters * (size_t)joints;
    uint16_t *parents = malloc(sizeof(uint16_t) * (size_t)joints);
    ts_parents(rng, joints, 1 + ts_int(rng, 3), parents);
    ossa_transform *local = malloc(sizeof(ossa_transform) * n);
    for (size_t i = 0; i < n; ++i)
        local[i] = ts_transform(rng, TS_SCALE_ANY);
    ossa_mat34 *root = malloc(sizeof(ossa_mat34) * (size_t)characters);
    for (int c = 0; c < characters; ++c)
        root[c] = ossa_mat34_from_transform(ts_transform(rng, TS_SCALE_UNIFORM));
    ossa_mat34 *ref = malloc(sizeof(ossa_mat34) * n);
    ossa_local_to_model_job rj = {0};
    rj.parents = parents;
    rj.joint_count = joints;
    rj.local = local;
    rj.local_count = (int)n;
    rj.character_count = characters;
    rj.root = with_root ? root : NULL;
    rj.root_count = characters;
    rj.model = ref;
    rj.model_count = (int)n;
    CHECK_RESULT(ossa_local_to_model_job_run(&rj), OSSA_OK);

    const int pose_floats = ossa_lane_pose_floats(joints, characters, width);
    const int model_floats = ossa_lane_model_floats(joints, characters, width);
    float *lane_local = lane_alloc(pose_floats), *lane_model = lane_alloc(model_floats);
    pack_poses(local, characters, joints, width, lane_local);
    ossa_lane_local_to_model_job lj = {0};
    lj.parents = parents;
    lj.joint_count = joints;
    lj.local = lane_local;
    lj.local_count = pose_floats;
    lj.character_count = characters;
    lj.root = with_root ? root : NULL;
    lj.root_count = characters;
    lj.width = width;
    lj.path = path;
    lj.model = lane_model;
    lj.model_count = model_floats;
    CHECK_RESULT(ossa_lane_local_to_model_job_run(&lj), OSSA_OK);
    /* Both against double precision: the lane walk may round differently
     * from the reference (FMA), but no worse than it does, give or take. */
    double worst = 0, ref_worst = 0;
    ts_dmat *exact = malloc(sizeof(ts_dmat) * (size_t)joints);
    for (int c = 0; c < characters; ++c)
        for (int j = 0; j < joints; ++j) {
            const ts_dmat l = ts_dmat_from_transform(local[(size_t)c * joints + j]);
            const ts_dmat r = ts_dmat_from_mat34(&root[c]);
            const ts_dmat *parent = parents[j] != 0xFFFFu ? &exact[parents[j]]
                                                          : (with_root ? &r : NULL);
            exact[j] = parent ? ts_dmat_mul(parent, &l) : l;
            ossa_mat34 m = lane_matrix(lane_model, joints, width, c, j);
            double d = mat_rel_diff_d(&m, &exact[j]);
            double e = mat_rel_diff_d(&ref[(size_t)c * joints + j], &exact[j]);
            if (!(d <= worst))
                worst = d;
            if (!(e <= ref_worst))
                ref_worst = e;
        }
    if (!(worst <= 2.0 * ref_worst + MODEL_TOLERANCE))
        fprintf(stderr, "local->model %s w%d n%d: worst %.3g, reference's %.3g\n",
                ossa_simd_path_name(path), width, characters, worst, ref_worst);
    CHECK(worst <= 2.0 * ref_worst + MODEL_TOLERANCE);
    free(exact);

    /* palette: a subset of joints in a shuffled order, with inverse binds */
    const int skins = 1 + ts_int(rng, joints);
    uint16_t *skin = malloc(sizeof(uint16_t) * (size_t)skins);
    ossa_mat34 *ib = malloc(sizeof(ossa_mat34) * (size_t)skins);
    for (int k = 0; k < skins; ++k) {
        skin[k] = (uint16_t)ts_int(rng, joints);
        ib[k] = ossa_mat34_from_transform(ts_transform(rng, TS_SCALE_ANY));
    }
    /* reference palette from the lane model's own matrices, so this compares
     * the palette stage alone */
    ossa_mat34 *model_aos = malloc(sizeof(ossa_mat34) * n);
    for (int c = 0; c < characters; ++c)
        for (int j = 0; j < joints; ++j)
            model_aos[(size_t)c * joints + j] = lane_matrix(lane_model, joints, width, c, j);
    ossa_mat34 *ref_pal = malloc(sizeof(ossa_mat34) * (size_t)characters * (size_t)skins);
    ossa_palette_job rp = {0};
    rp.model = model_aos;
    rp.model_count = (int)n;
    rp.joint_count = joints;
    rp.skin_joint = skin;
    rp.inverse_bind = ib;
    rp.skin_joint_count = skins;
    rp.character_count = characters;
    rp.palette = ref_pal;
    rp.palette_count = characters * skins;
    CHECK_RESULT(ossa_palette_job_run(&rp), OSSA_OK);
    /* one guard matrix past the end: never written */
    ossa_mat34 *pal = malloc(sizeof(ossa_mat34) * ((size_t)characters * (size_t)skins + 1));
    memset(pal, 0x7f, sizeof(ossa_mat34) * ((size_t)characters * (size_t)skins + 1));
    ossa_lane_palette_job lp = {0};
    lp.model = lane_model;
    lp.model_count = model_floats;
    lp.joint_count = joints;
    lp.character_count = characters;
    lp.skin_joint = skin;
    lp.inverse_bind = ib;
    lp.skin_joint_count = skins;
    lp.width = width;
    lp.path = path;
    lp.palette = pal;
    lp.palette_count = characters * skins;
    CHECK_RESULT(ossa_lane_palette_job_run(&lp), OSSA_OK);
    worst = ref_worst = 0;
    for (int c = 0; c < characters; ++c)
        for (int k = 0; k < skins; ++k) {
            const ts_dmat m = ts_dmat_from_mat34(&model_aos[(size_t)c * joints + skin[k]]);
            const ts_dmat b = ts_dmat_from_mat34(&ib[k]);
            const ts_dmat x = ts_dmat_mul(&m, &b);
            double d = mat_rel_diff_d(&pal[(size_t)c * skins + k], &x);
            double e = mat_rel_diff_d(&ref_pal[(size_t)c * skins + k], &x);
            if (!(d <= worst))
                worst = d;
            if (!(e <= ref_worst))
                ref_worst = e;
        }
    CHECK(worst <= 2.0 * ref_worst + MODEL_TOLERANCE);
    ossa_mat34 guard;
    memset(&guard, 0x7f, sizeof guard);
    CHECK(memcmp(&pal[characters * skins], &guard, sizeof guard) == 0);

    /* no skin map and no inverse binds: the model transforms, bit for bit */
    lp.skin_joint = NULL;
    lp.inverse_bind = NULL;
    lp.skin_joint_count = 0;
    ossa_mat34 *models = malloc(sizeof(ossa_mat34) * n);
    lp.palette = models;
    lp.palette_count = (int)n;
    CHECK_RESULT(ossa_lane_palette_job_run(&lp), OSSA_OK);
    CHECK(memcmp(models, model_aos, sizeof(ossa_mat34) * n) == 0);

    /* per-character outputs, in reverse order: the same bytes */
    ossa_mat34 **outputs = malloc(sizeof(ossa_mat34 *) * (size_t)characters);
    ossa_mat34 *scattered = malloc(sizeof(ossa_mat34) * n);
    for (int c = 0; c < characters; ++c)
        outputs[c] = scattered + (size_t)(characters - 1 - c) * (size_t)joints;
    lp.palette = NULL;
    lp.palette_count = 0;
    lp.outputs = outputs;
    CHECK_RESULT(ossa_lane_palette_job_run(&lp), OSSA_OK);
    for (int c = 0; c < characters; ++c)
        CHECK(memcmp(outputs[c], model_aos + (size_t)c * (size_t)joints,
                     sizeof(ossa_mat34) * (size_t)joints) == 0);

    /* the pose-out job: the model transforms, contiguous and per character */
    ossa_lane_pose_out_job po = {0};
    po.model = lane_model;
    po.model_count = model_floats;
    po.joint_count = joints;
    po.character_count = characters;
    po.width = width;
    po.path = path;
    memset(models, 0, sizeof(ossa_mat34) * n);
    po.poses = models;
    po.pose_count = (int)n;
    CHECK_RESULT(ossa_lane_pose_out_job_run(&po), OSSA_OK);
    CHECK(memcmp(models, model_aos, sizeof(ossa_mat34) * n) == 0);
    memset(scattered, 0, sizeof(ossa_mat34) * n);
    po.poses = NULL;
    po.pose_count = 0;
    po.outputs = outputs;
    po.stream_output = true;
    CHECK_RESULT(ossa_lane_pose_out_job_run(&po), OSSA_OK);
    for (int c = 0; c < characters; ++c)
        CHECK(memcmp(outputs[c], model_aos + (size_t)c * (size_t)joints,
                     sizeof(ossa_mat34) * (size_t)joints) == 0);
    free(outputs);
    free(scattered);

    free(parents);
    free(local);
    free(root);
    free(ref);
    free(lane_local);
    free(lane_model);
    free(skin);
    free(ib);
    free(model_aos);
    free(ref_pal);
    free(pal);
    free(models);
}

TEST(lane_local_to_model_and_palette_match_reference)
{
    ts_rng rng = ts_rng_make(31);
    for (int p = OSSA_SIMD_PORTABLE; p < OSSA_SIMD_PATH_COUNT; ++p)
        if (ts_path_runs((ossa_simd_path)p))
            for (size_t w = 0; w < sizeof widths / sizeof widths[0]; ++w) {
                const int width = widths[w];
                check_hierarchy(&rng, (ossa_simd_path)p, width, 1, 40, 0);
                check_hierarchy(&rng, (ossa_simd_path)p, width, width - 1, 23, 1);
                check_hierarchy(&rng, (ossa_simd_path)p, width, width, 96, 1);
                check_hierarchy(&rng, (ossa_simd_path)p, width, 3 * width + 1, 9, 0);
            }
}

UTEST_MAIN(lane_local_to_model_and_palette_match_reference)
