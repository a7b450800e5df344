/* ik_lanes_test.c - the IK lane jobs against the reference jobs on every
 * path this machine runs, at widths 4, 8 and 16, for batches of 1, W - 1, W
 * and 3W + 1 characters: the same model transforms in, the same corrected
 * poses, corrections and flags out, degenerate characters included. */
#include <stdlib.h>
#include <string.h>

#include "ik_test_support.h"
#include "lanes_test_support.h"
#include "utest.h"
#include "simd_paths.h"

/* The lane kernels evaluate the reference's formulas in the same order but
 * fuse multiply-adds and take the weight's slerp from polynomials (error
 * below 2e-8 rad): the corrected rotations differ by a few float roundings
 * of unit quaternions (median 3e-7 here), times the problem's condition - a
 * hinge at a shallow angle to the bones turns the middle joint through
 * several times the angle a change of reach needs (worst seen 4e-6). */
#define IK_LANE_TOL 1e-5
/* Near a singular configuration - a limb at the end of its reach with a
 * hinge it does not cross squarely, a pole nearly along a chain joint's aim
 * axis, a target on a joint - the solution moves by up to sqrt(eps) = 3.5e-4
 * per rounding of its input; the characters the tests place there on
 * purpose are held to this, and to equal flags. */
#define IK_LANE_SINGULAR_TOL 1e-3

/* Lane model of AoS matrices (characters x joints); unused lanes of the
 * last batch repeat its first character, as lane jobs leave them. */
static void pack_models(const ossa_mat34 *aos, int characters, int joints, int width,
                        float *lanes)
{
    const int batches = ossa_lane_batch_count(characters, width);
    for (int c = 0; c < batches * width; ++c) {
        const int src = c < characters ? c : c / width * width;
        for (int j = 0; j < joints; ++j)
            for (int k = 0; k < 12; ++k)
                lanes[lane_index(joints, 12, width, c, j, k)] =
                    aos[(size_t)src * (size_t)joints + (size_t)j].m[k / 4][k % 4];
    }
}

static double quat_diff(ossa_quat a, ossa_quat b)
{
    /* sign-insensitive: q and -q are one rotation */
    const double d1 = fabs((double)a.x - b.x) + fabs((double)a.y - b.y) +
                      fabs((double)a.z - b.z) + fabs((double)a.w - b.w);
    const double d2 = fabs((double)a.x + b.x) + fabs((double)a.y + b.y) +
                      fabs((double)a.z + b.z) + fabs((double)a.w + b.w);
    return d1 < d2 ? d1 : d2;
}

/* The lane pose against the reference's AoS pose: every joint of every
 * character (rotations within the tolerance, the rest bit for bit), and the
 * unused lanes of the last batch equal to its first character. */
static void compare_poses(const float *lanes, const ossa_transform *ref, const bool *singular,
                          int characters, int joints, int width, const char *what,
                          ossa_simd_path path)
{
    double worst = 0;
    int exact_fail = 0;
    for (int c = 0; c < characters; ++c)
        for (int j = 0; j < joints; ++j) {
            const ossa_transform a = lane_transform(lanes, joints, width, c, j);
            const ossa_transform b = ref[(size_t)c * (size_t)joints + (size_t)j];
            const double d = quat_diff(a.rotation, b.rotation);
            if (singular[c])
                CHECK(d <= IK_LANE_SINGULAR_TOL);
            else if (!(d <= worst))
                worst = d;
            if (memcmp(&a.translation, &b.translation, sizeof a.translation) != 0 ||
                memcmp(&a.scale, &b.scale, sizeof a.scale) != 0)
                ++exact_fail;
        }
    const int batches = ossa_lane_batch_count(characters, width);
    for (int c = characters; c < batches * width; ++c)
        for (int j = 0; j < joints; ++j) {
            const ossa_transform a = lane_transform(lanes, joints, width, c, j);
            const ossa_transform b = lane_transform(lanes, joints, width, c / width * width, j);
            if (memcmp(&a, &b, sizeof a) != 0)
                ++exact_fail;
        }
    if (!(worst <= IK_LANE_TOL) || exact_fail)
        fprintf(stderr, "%s path %s width %d characters %d: worst rotation diff %.3g (well "
                        "conditioned characters), %d exact mismatches\n",
                what, ossa_simd_path_name(path), width, characters, worst, exact_fail);
    CHECK(worst <= IK_LANE_TOL);
    CHECK_INT(exact_fail, 0);
}

/* ---- two-bone ---- */

static void check_two_bone(ts_rng *r, ossa_simd_path path, int width, int characters)
{
    ossa_transform base[LIMB_JOINTS];
    ossa_float3 hinge;
    const limb_kind kind_of_limb = ts_int(r, 2) ? LIMB_KNEE : LIMB_GENERAL;
    limb_random(r, kind_of_limb, false, base, &hinge);
    const size_t n = (size_t)characters * LIMB_JOINTS;
    ossa_transform *pose = malloc(n * sizeof *pose), *ref = malloc(n * sizeof *ref);
    ossa_mat34 *model = malloc(n * sizeof *model);
    ossa_float3 *targets = malloc((size_t)characters * sizeof *targets);
    ossa_float3 *poles = malloc((size_t)characters * sizeof *poles);
    float *weights = malloc((size_t)characters * sizeof *weights);
    for (int c = 0; c < characters; ++c) {
        ossa_transform *p = &pose[(size_t)c * LIMB_JOINTS];
        memcpy(p, base, sizeof base);
        p[L_ROOT] = ts_transform_range(r, TS_SCALE_UNIFORM, 0.5, 2.0);
        p[L_START].rotation = ts_quat(r);
        const ts_dquat bend = dq_axis_angle(dv_f(hinge), ts_uniform(r, -3, 3));
        p[L_MID].rotation = dq_to_f(ts_dquat_mul(ts_dquat_from(p[L_MID].rotation), bend));
    }
    ik_model_float(limb_parents, LIMB_JOINTS, characters, pose, model);
    const bool knee = kind_of_limb == LIMB_KNEE, use_axis = ts_int(r, 4) != 0;
    bool *singular = malloc((size_t)characters * sizeof *singular);
    for (int c = 0; c < characters; ++c) {
        const ossa_mat34 *m = &model[(size_t)c * LIMB_JOINTS];
        const dv3 s = dv(m[L_START].m[0][3], m[L_START].m[1][3], m[L_START].m[2][3]);
        const dv3 mid = dv(m[L_MID].m[0][3], m[L_MID].m[1][3], m[L_MID].m[2][3]);
        const dv3 e = dv(m[L_END].m[0][3], m[L_END].m[1][3], m[L_END].m[2][3]);
        /* the reach [dmin, dmax]: the hinge turns the end bone's part
         * across the axis (docs/ik.md) */
        const dv3 u = dv_sub(s, mid), v = dv_sub(e, mid);
        const ts_dmat mm = ts_dmat_from_mat34(&m[L_MID]);
        const dv3 a = use_axis ? dv_unit(dmat_apply(&mm, dv_f(hinge))) : dv_unit(dv_cross(v, u));
        const double ua = dv_dot(u, a), va = dv_dot(v, a);
        const double pu = dv_len(dv_across(u, a)), pv = dv_len(dv_across(v, a));
        const double sum2 = dv_dot(u, u) + dv_dot(v, v) - 2 * ua * va;
        const double dmin = sqrt(fmax(sum2 - 2 * pu * pv, 0)), dmax = sqrt(sum2 + 2 * pu * pv);
        const double span = dmax - dmin;
        const dv3 dir = dv_random_unit(r);
        const int kind = (c + ts_int(r, 2)) % 7;
        double d = dmin + span * ts_uniform(r, 0.1, 0.9);
        if (kind == 1)
            d = dmax * ts_uniform(r, 1.1, 2);
        if (kind == 2 && dmin > 0.05 * dmax)
            d = dmin * ts_uniform(r, 0.3, 0.9);
        /* fully extended, a limb not square to its hinge faces n x a with
         * n nearly along a: the roll is ill-conditioned there */
        singular[c] = kind == 1 && !knee && use_axis;
        targets[c] = dv_to_f(dv_add(s, dv_scale(dir, d)));
        poles[c] = dv_to_f(dv_random_unit_away(r, dir, 0.2));
        if (kind == 3)
            targets[c].y = NAN;
        if (kind == 4)
            targets[c] = dv_to_f(s);
        if (kind == 5)
            poles[c] = (ossa_float3){0, 0, 0};
        if (kind == 6)
            poles[c] = dv_to_f(dir);
        const int wk = ts_int(r, 4);
        weights[c] = wk == 0 ? 0.0f : wk == 1 ? (float)ts_uniform(r, 0.05, 0.95) : 1.0f;
    }
    memcpy(ref, pose, n * sizeof *ref);

    ossa_quat *rs = malloc((size_t)characters * sizeof *rs), *rm = malloc((size_t)characters * sizeof *rm);
    ossa_quat *ls = malloc((size_t)characters * sizeof *ls), *lm = malloc((size_t)characters * sizeof *lm);
    uint8_t *rf = malloc((size_t)characters), *lf = malloc((size_t)characters);
    ossa_ik_two_bone_job job = limb_job(ref, model, characters);
    job.mid_axis = use_axis ? hinge : (ossa_float3){0, 0, 0};
    job.soften = ts_int(r, 2) ? 0.0f : 0.1f;
    job.twist_rad = (float)ts_uniform(r, -1, 1);
    job.targets = targets;
    job.target_count = characters;
    job.poles = poles;
    job.pole_count = characters;
    job.weights = weights;
    job.weight_count = characters;
    job.start_corrections = rs;
    job.mid_corrections = rm;
    job.correction_count = characters;
    job.flags = rf;
    job.flag_count = characters;
    REQUIRE(ossa_ik_two_bone_job_run(&job) == OSSA_OK);

    const int pose_floats = ossa_lane_pose_floats(LIMB_JOINTS, characters, width);
    const int model_floats = ossa_lane_model_floats(LIMB_JOINTS, characters, width);
    float *lane_pose = lane_alloc((size_t)pose_floats), *lane_model = lane_alloc((size_t)model_floats);
    pack_poses(pose, characters, LIMB_JOINTS, width, lane_pose);
    pack_models(model, characters, LIMB_JOINTS, width, lane_model);
    ossa_lane_ik_two_bone_job lj;
    memset(&lj, 0, sizeof lj);
    lj.parents = limb_parents;
    lj.joint_count = LIMB_JOINTS;
    lj.start_joint = L_START;
    lj.mid_joint = L_MID;
    lj.end_joint = L_END;
    lj.model = lane_model;
    lj.model_count = model_floats;
    lj.local = lane_pose;
    lj.local_count = pose_floats;
    lj.character_count = characters;
    lj.width = width;
    lj.path = path;
    lj.targets = targets;
    lj.target_count = characters;
    lj.poles = poles;
    lj.pole_count = characters;
    lj.weights = weights;
    lj.weight_count = characters;
    lj.mid_axis = job.mid_axis;
    lj.soften = job.soften;
    lj.twist_rad = job.twist_rad;
    lj.start_corrections = ls;
    lj.mid_corrections = lm;
    lj.correction_count = characters;
    lj.flags = lf;
    lj.flag_count = characters;
    CHECK_RESULT(ossa_lane_ik_two_bone_job_run(&lj), OSSA_OK);

    compare_poses(lane_pose, ref, singular, characters, LIMB_JOINTS, width, "two-bone", path);
    int flag_mismatch = 0;
    double worst = 0;
    for (int c = 0; c < characters; ++c) {
        flag_mismatch += lf[c] != rf[c];
        const double d = fmax(quat_diff(ls[c], rs[c]), quat_diff(lm[c], rm[c]));
        if (singular[c])
            CHECK(d <= IK_LANE_SINGULAR_TOL);
        else if (!(d <= worst))
            worst = d;
    }
    CHECK_INT(flag_mismatch, 0);
    CHECK(worst <= IK_LANE_TOL);
    free(pose), free(ref), free(model), free(targets), free(poles), free(weights);
    free(rs), free(rm), free(ls), free(lm), free(rf), free(lf), free(lane_pose), free(lane_model);
    free(singular);
}

TEST(lane_two_bone_matches_the_reference_on_every_path)
{
    int runs = 0;
    for (int p = OSSA_SIMD_PORTABLE; p < OSSA_SIMD_PATH_COUNT; ++p) {
        if (!ts_path_runs((ossa_simd_path)p))
            continue;
        for (size_t w = 0; w < sizeof widths / sizeof widths[0]; ++w) {
            const int width = widths[w];
            const int counts[] = {1, width - 1, width, 3 * width + 1};
            for (int i = 0; i < 4; ++i)
                for (int rep = 0; rep < 8; ++rep, ++runs) {
                    /* the same problems on every path, whichever run here */
                    ts_rng r = ts_rng_make(2100 + (uint64_t)(width * 100 + i * 10 + rep));
                    check_two_bone(&r, (ossa_simd_path)p, width, counts[i]);
                }
        }
    }
    CHECK(runs > 0);
}

/* ---- aim ---- */

static void check_aim(ts_rng *r, ossa_simd_path path, int width, int characters)
{
    static const uint16_t chain[3] = {C_SPINE, C_NECK, C_HEAD};
    const size_t n = (size_t)characters * CHAIN_JOINTS;
    ossa_transform *pose = malloc(n * sizeof *pose), *ref = malloc(n * sizeof *ref);
    ossa_mat34 *model = malloc(n * sizeof *model);
    ossa_float3 *targets = malloc((size_t)characters * sizeof *targets);
    ossa_float3 *poles = malloc((size_t)characters * sizeof *poles);
    float *weights = malloc((size_t)characters * sizeof *weights);
    bool *singular = malloc((size_t)characters * sizeof *singular);
    for (int c = 0; c < characters; ++c)
        chain_random_pose(r, ts_int(r, 2), &pose[(size_t)c * CHAIN_JOINTS]);
    ik_model_float(chain_parents, CHAIN_JOINTS, characters, pose, model);
    for (int c = 0; c < characters; ++c) {
        const ossa_mat34 *h = &model[(size_t)c * CHAIN_JOINTS + C_HEAD];
        const dv3 head = dv(h->m[0][3], h->m[1][3], h->m[2][3]);
        const dv3 dir = dv_random_unit(r);
        const int kind = (c + ts_int(r, 2)) % 6;
        /* far enough that every chain joint turns the ray through it */
        targets[c] = dv_to_f(dv_add(head, dv_scale(dir, ts_uniform(r, 2.5, 4.0))));
        poles[c] = dv_to_f(dv_random_unit_away(r, dir, 0.3));
        /* on the head, or a pole along the head's aim axis: singular for
         * the head, nearly so for the joints below it */
        singular[c] = kind == 4 || kind == 5;
        if (kind == 3)
            targets[c].z = INFINITY;
        if (kind == 4)
            targets[c] = dv_to_f(head);
        if (kind == 5)
            poles[c] = dv_to_f(dir);
        const int wk = ts_int(r, 4);
        weights[c] = wk == 0 ? 0.0f : wk == 1 ? (float)ts_uniform(r, 0.05, 0.95) : 1.0f;
    }
    memcpy(ref, pose, n * sizeof *ref);
    const float chain_weights[3] = {1.0f, (float)ts_uniform(r, 0, 1), (float)ts_uniform(r, 0, 1)};
    ossa_quat *rc = malloc(n * sizeof *rc), *lc = malloc(n * sizeof *lc);
    uint8_t *rf = malloc((size_t)characters), *lf = malloc((size_t)characters);
    ossa_ik_aim_job job;
    memset(&job, 0, sizeof job);
    job.parents = chain_parents;
    job.joint_count = CHAIN_JOINTS;
    job.chain = chain;
    job.chain_count = 3;
    job.chain_weights = ts_int(r, 3) ? chain_weights : NULL;
    job.model = model;
    job.model_count = (int)n;
    job.local = ref;
    job.local_count = (int)n;
    job.character_count = characters;
    job.targets = targets;
    job.target_count = characters;
    job.poles = poles;
    job.pole_count = characters;
    job.weights = weights;
    job.weight_count = characters;
    job.forward = dv_to_f(dv_random_unit(r));
    job.offset = dv_to_f(dv_scale(dv_random_unit(r), ts_uniform(r, 0, 0.2)));
    job.up = ts_int(r, 4) ? dv_to_f(dv_random_unit(r)) : (ossa_float3){0, 0, 0};
    job.twist_rad = (float)ts_uniform(r, -1, 1);
    job.corrections = rc;
    job.correction_count = (int)characters * 3;
    job.flags = rf;
    job.flag_count = characters;
    REQUIRE(ossa_ik_aim_job_run(&job) == OSSA_OK);

    const int pose_floats = ossa_lane_pose_floats(CHAIN_JOINTS, characters, width);
    const int model_floats = ossa_lane_model_floats(CHAIN_JOINTS, characters, width);
    float *lane_pose = lane_alloc((size_t)pose_floats), *lane_model = lane_alloc((size_t)model_floats);
    pack_poses(pose, characters, CHAIN_JOINTS, width, lane_pose);
    pack_models(model, characters, CHAIN_JOINTS, width, lane_model);
    ossa_lane_ik_aim_job lj;
    memset(&lj, 0, sizeof lj);
    lj.parents = chain_parents;
    lj.joint_count = CHAIN_JOINTS;
    lj.chain = chain;
    lj.chain_count = 3;
    lj.chain_weights = job.chain_weights;
    lj.model = lane_model;
    lj.model_count = model_floats;
    lj.local = lane_pose;
    lj.local_count = pose_floats;
    lj.character_count = characters;
    lj.width = width;
    lj.path = path;
    lj.targets = targets;
    lj.target_count = characters;
    lj.poles = poles;
    lj.pole_count = characters;
    lj.weights = weights;
    lj.weight_count = characters;
    lj.forward = job.forward;
    lj.offset = job.offset;
    lj.up = job.up;
    lj.twist_rad = job.twist_rad;
    lj.corrections = lc;
    lj.correction_count = characters * 3;
    lj.flags = lf;
    lj.flag_count = characters;
    CHECK_RESULT(ossa_lane_ik_aim_job_run(&lj), OSSA_OK);

    compare_poses(lane_pose, ref, singular, characters, CHAIN_JOINTS, width, "aim", path);
    int flag_mismatch = 0;
    double worst = 0;
    for (int c = 0; c < characters; ++c) {
        flag_mismatch += lf[c] != rf[c];
        for (int k = 0; k < 3; ++k) {
            const double d = quat_diff(lc[c * 3 + k], rc[c * 3 + k]);
            if (singular[c])
                CHECK(d <= IK_LANE_SINGULAR_TOL);
            else if (!(d <= worst))
                worst = d;
        }
    }
    CHECK_INT(flag_mismatch, 0);
    CHECK(worst <= IK_LANE_TOL);
    free(pose), free(ref), free(model), free(targets), free(poles), free(weights);
    free(rc), free(lc), free(rf), free(lf), free(lane_pose), free(lane_model), free(singular);
}

TEST(lane_aim_matches_the_reference_on_every_path)
{
    int runs = 0;
    for (int p = OSSA_SIMD_PORTABLE; p < OSSA_SIMD_PATH_COUNT; ++p) {
        if (!ts_path_runs((ossa_simd_path)p))
            continue;
        for (size_t w = 0; w < sizeof widths / sizeof widths[0]; ++w) {
            const int width = widths[w];
            const int counts[] = {1, width - 1, width, 3 * width + 1};
            for (int i = 0; i < 4; ++i)
                for (int rep = 0; rep < 8; ++rep, ++runs) {
                    ts_rng r = ts_rng_make(2200 + (uint64_t)(width * 100 + i * 10 + rep));
                    check_aim(&r, (ossa_simd_path)p, width, counts[i]);
                }
        }
    }
    CHECK(runs > 0);
}

/* A batch range writes its batches' characters and nothing else. */
TEST(lane_ik_jobs_write_only_their_batch_range)
{
    enum { W = 4, C = 4 * W - 1 };
    ts_rng r = ts_rng_make(23);
    ossa_transform base[LIMB_JOINTS], pose[C * LIMB_JOINTS];
    ossa_float3 hinge;
    limb_random(&r, LIMB_KNEE, false, base, &hinge);
    for (int c = 0; c < C; ++c)
        memcpy(&pose[c * LIMB_JOINTS], base, sizeof base);
    ossa_mat34 model[C * LIMB_JOINTS];
    ik_model_float(limb_parents, LIMB_JOINTS, C, pose, model);
    const int pf = ossa_lane_pose_floats(LIMB_JOINTS, C, W);
    const int mf = ossa_lane_model_floats(LIMB_JOINTS, C, W);
    float *lane_pose = lane_alloc((size_t)pf), *lane_model = lane_alloc((size_t)mf);
    float *before = lane_alloc((size_t)pf);
    pack_poses(pose, C, LIMB_JOINTS, W, lane_pose);
    pack_models(model, C, LIMB_JOINTS, W, lane_model);
    memcpy(before, lane_pose, sizeof(float) * (size_t)pf);
    const ossa_mat34 *s = &model[L_START];
    uint8_t flags[C];
    memset(flags, 0xEE, sizeof flags);
    ossa_lane_ik_two_bone_job j = {0};
    j.parents = limb_parents;
    j.joint_count = LIMB_JOINTS;
    j.start_joint = L_START;
    j.mid_joint = L_MID;
    j.end_joint = L_END;
    j.model = lane_model;
    j.model_count = mf;
    j.local = lane_pose;
    j.local_count = pf;
    j.character_count = C;
    j.width = W;
    j.mid_axis = hinge;
    j.target = (ossa_float3){s->m[0][3] + 0.3f, s->m[1][3] - 0.4f, s->m[2][3]};
    j.flags = flags;
    j.flag_count = C;
    j.batch_begin = 1;
    j.batch_end = 3;
    CHECK_RESULT(ossa_lane_ik_two_bone_job_run(&j), OSSA_OK);
    const size_t per_batch = (size_t)pf / 4;
    for (int b = 0; b < 4; ++b) {
        const bool inside = b >= 1 && b < 3;
        const bool same = memcmp(lane_pose + b * per_batch, before + b * per_batch,
                                 sizeof(float) * per_batch) == 0;
        CHECK(inside ? !same : same);
        for (int l = 0; l < W && b * W + l < C; ++l)
            CHECK(inside ? flags[b * W + l] != 0xEE : flags[b * W + l] == 0xEE);
    }
    free(lane_pose), free(lane_model), free(before);
}

TEST(lane_ik_validity_table)
{
    enum { C = 5, W = 4 };
    const int pose_floats = ossa_lane_pose_floats(LIMB_JOINTS, C, W);
    const int model_floats = ossa_lane_model_floats(LIMB_JOINTS, C, W);
    float *lane_pose = lane_alloc((size_t)pose_floats), *lane_model = lane_alloc((size_t)model_floats);
    for (int i = 0; i < pose_floats; ++i)
        lane_pose[i] = 0.0f;
    for (int i = 0; i < model_floats; ++i)
        lane_model[i] = 0.0f;
    uint8_t flags[C];
    ossa_lane_ik_two_bone_job j;
    memset(&j, 0, sizeof j);
    CHECK_RESULT(ossa_lane_ik_two_bone_job_validate(NULL), OSSA_ERR_MISSING_INPUT);
    CHECK_RESULT(ossa_lane_ik_two_bone_job_validate(&j), OSSA_ERR_MISSING_INPUT);
    j.parents = limb_parents;
    j.joint_count = LIMB_JOINTS;
    j.start_joint = L_START;
    j.mid_joint = L_MID;
    j.end_joint = L_END;
    j.model = lane_model;
    j.model_count = model_floats;
    j.local = lane_pose;
    j.local_count = pose_floats;
    j.character_count = C;
    j.width = W;
    CHECK_RESULT(ossa_lane_ik_two_bone_job_validate(&j), OSSA_OK);
    j.width = 5;
    CHECK_RESULT(ossa_lane_ik_two_bone_job_validate(&j), OSSA_ERR_BAD_ARGUMENT);
    j.width = W;
    j.path = OSSA_SIMD_PATH_COUNT;
    CHECK_RESULT(ossa_lane_ik_two_bone_job_validate(&j), OSSA_ERR_BAD_ARGUMENT);
    j.path = OSSA_SIMD_AUTO;
    j.model_count = model_floats - 1;
    CHECK_RESULT(ossa_lane_ik_two_bone_job_validate(&j), OSSA_ERR_INPUT_TOO_SMALL);
    j.model_count = model_floats;
    j.local_count = pose_floats - 1;
    CHECK_RESULT(ossa_lane_ik_two_bone_job_validate(&j), OSSA_ERR_OUTPUT_TOO_SMALL);
    j.local_count = pose_floats;
    j.batch_end = 3;
    CHECK_RESULT(ossa_lane_ik_two_bone_job_validate(&j), OSSA_ERR_BAD_RANGE);
    j.batch_end = 0;
    j.mid_joint = L_TOE;
    CHECK_RESULT(ossa_lane_ik_two_bone_job_validate(&j), OSSA_ERR_BAD_INDEX);
    j.mid_joint = L_MID;
    j.soften = 1.0f;
    CHECK_RESULT(ossa_lane_ik_two_bone_job_validate(&j), OSSA_ERR_BAD_VALUE);
    j.soften = 0.0f;
    j.flags = flags;
    j.flag_count = C - 1;
    CHECK_RESULT(ossa_lane_ik_two_bone_job_validate(&j), OSSA_ERR_OUTPUT_TOO_SMALL);
    j.flag_count = C;
    CHECK_RESULT(ossa_lane_ik_two_bone_job_validate(&j), OSSA_OK);

    static const uint16_t chain[2] = {C_NECK, C_HEAD};
    const int cp = ossa_lane_pose_floats(CHAIN_JOINTS, C, W);
    const int cm = ossa_lane_model_floats(CHAIN_JOINTS, C, W);
    float *chain_pose = lane_alloc((size_t)cp), *chain_model = lane_alloc((size_t)cm);
    ossa_lane_ik_aim_job a;
    memset(&a, 0, sizeof a);
    CHECK_RESULT(ossa_lane_ik_aim_job_validate(NULL), OSSA_ERR_MISSING_INPUT);
    CHECK_RESULT(ossa_lane_ik_aim_job_validate(&a), OSSA_ERR_MISSING_INPUT);
    a.parents = chain_parents;
    a.joint_count = CHAIN_JOINTS;
    a.chain = chain;
    a.chain_count = 2;
    a.model = chain_model;
    a.model_count = cm;
    a.local = chain_pose;
    a.local_count = cp;
    a.character_count = C;
    a.width = W;
    CHECK_RESULT(ossa_lane_ik_aim_job_validate(&a), OSSA_OK);
    a.chain_count = 0;
    CHECK_RESULT(ossa_lane_ik_aim_job_validate(&a), OSSA_ERR_INPUT_TOO_SMALL);
    a.chain_count = 2;
    a.width = 12;
    CHECK_RESULT(ossa_lane_ik_aim_job_validate(&a), OSSA_ERR_BAD_ARGUMENT);
    a.width = W;
    a.model_count = cm - 1;
    CHECK_RESULT(ossa_lane_ik_aim_job_validate(&a), OSSA_ERR_INPUT_TOO_SMALL);
    a.model_count = cm;
    a.local = NULL;
    CHECK_RESULT(ossa_lane_ik_aim_job_validate(&a), OSSA_ERR_MISSING_OUTPUT);
    a.local = chain_pose;
    a.up.x = NAN;
    CHECK_RESULT(ossa_lane_ik_aim_job_validate(&a), OSSA_ERR_BAD_VALUE);
    a.up.x = 0;
    CHECK_RESULT(ossa_lane_ik_aim_job_validate(&a), OSSA_OK);
    free(lane_pose), free(lane_model), free(chain_pose), free(chain_model);
}

UTEST_MAIN(lane_two_bone_matches_the_reference_on_every_path,
           lane_aim_matches_the_reference_on_every_path,
           lane_ik_jobs_write_only_their_batch_range, lane_ik_validity_table)
