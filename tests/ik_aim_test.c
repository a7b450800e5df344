/* ik_aim_test.c - the reference aim job against what it promises, checked
 * in double precision on the model transforms of its output pose: the ray
 * through the target, up toward the pole, the chain's shares of a turn,
 * weights as slerps, degenerate input, ranges, validity. */
#include <stdlib.h>
#include <string.h>

#include "ik_test_support.h"
#include "utest.h"

/* The promise of ik.h for a reached aim: 1e-5 rad. */
#define AIM_TOL 1e-5
#define ANGLE_TOL 2e-6
#define TRIALS 300

static const uint16_t chain3[3] = {C_SPINE, C_NECK, C_HEAD};
static const uint16_t chain1[1] = {C_HEAD};

typedef struct chain_state {
    ossa_transform pose[CHAIN_JOINTS];
    ossa_mat34 model[CHAIN_JOINTS];
    ts_dmat before[CHAIN_JOINTS];
} chain_state;

static void chain_prepare(chain_state *st)
{
    ik_model_float(chain_parents, CHAIN_JOINTS, 1, st->pose, st->model);
    ik_model_double(chain_parents, CHAIN_JOINTS, 0, st->pose, st->before);
}

static void chain_random(ts_rng *r, bool scaled, chain_state *st)
{
    chain_random_pose(r, scaled, st->pose);
    chain_prepare(st);
}

static ossa_ik_aim_job aim_job(const uint16_t *chain, int chain_count)
{
    ossa_ik_aim_job job;
    memset(&job, 0, sizeof job);
    job.parents = chain_parents;
    job.joint_count = CHAIN_JOINTS;
    job.chain = chain;
    job.chain_count = chain_count;
    job.model_count = CHAIN_JOINTS;
    job.local_count = CHAIN_JOINTS;
    job.character_count = 1;
    return job;
}

typedef struct chain_result {
    ossa_transform pose[CHAIN_JOINTS];
    ts_dmat after[CHAIN_JOINTS];
    ossa_quat corrections[OSSA_IK_MAX_CHAIN];
    uint8_t flags;
    ossa_result code;
} chain_result;

static chain_result aim_solve(const chain_state *st, ossa_ik_aim_job job)
{
    chain_result out;
    memcpy(out.pose, st->pose, sizeof out.pose);
    job.model = st->model;
    job.local = out.pose;
    job.corrections = out.corrections;
    job.correction_count = job.chain_count;
    job.flags = &out.flags;
    job.flag_count = 1;
    out.code = ossa_ik_aim_job_run(&job);
    ik_model_double(chain_parents, CHAIN_JOINTS, 0, out.pose, out.after);
    return out;
}

/* Angle between the head's ray after the job and the direction from the
 * ray's origin to the target. */
static double aim_error(const chain_result *res, dv3 offset, dv3 forward, dv3 target)
{
    const ts_dmat *head = &res->after[C_HEAD];
    const dv3 eye = dmat_point(head, offset);
    return dv_angle(dmat_apply(head, forward), dv_sub(target, eye));
}

/* A random ray on the head and a target it can reach from every chain
 * joint: a target farther from a joint than the ray's origin can be (the
 * bones up to the head, <= 0.9, and the offset, <= 0.3, times the scale)
 * is one the joint can turn the ray through. `near`: a target just
 * farther from the head than the ray's origin (for the head alone). */
typedef struct aim_setup {
    dv3 forward, offset, up, target, pole;
} aim_setup;

static aim_setup random_setup_at(ts_rng *r, const chain_state *st, bool near)
{
    aim_setup a;
    a.forward = dv_random_unit(r);
    a.offset = dv_scale(dv_random_unit(r), ts_uniform(r, 0.0, 0.3));
    a.up = dv_random_unit_away(r, a.forward, 0.3);
    const dv3 head = dmat_pos(&st->before[C_HEAD]);
    const double scale = dv_len(dmat_apply(&st->before[C_HEAD], dv(1, 0, 0)));
    const dv3 dir = dv_random_unit(r);
    const double lo = near ? 1.2 * dv_len(a.offset) + 0.02 : 2.5;
    a.target = dv_add(head, dv_scale(dir, scale * ts_uniform(r, lo, 4.0)));
    a.pole = dv_random_unit_away(r, dir, 0.3);
    return a;
}

static aim_setup random_setup(ts_rng *r, const chain_state *st)
{
    return random_setup_at(r, st, false);
}

static ossa_ik_aim_job setup_job(const aim_setup *a, const uint16_t *chain, int count)
{
    ossa_ik_aim_job job = aim_job(chain, count);
    job.forward = dv_to_f(a->forward);
    job.offset = dv_to_f(a->offset);
    job.up = dv_to_f(a->up);
    job.target = dv_to_f(a->target);
    job.pole = dv_to_f(a->pole);
    return job;
}

/* Through the target, the up axis in the pole's half-plane about the axis
 * from the chain's root joint (`pivot`) to the target, rolled by the twist. */
static void check_aimed(const chain_result *res, const aim_setup *a, int pivot, double twist)
{
    CHECK(res->code == OSSA_OK);
    CHECK(res->flags & OSSA_IK_REACHED);
    CHECK_NEAR(aim_error(res, a->offset, a->forward, a->target), 0.0, AIM_TOL);
    const dv3 n = dv_unit(dv_sub(a->target, dmat_pos(&res->after[pivot])));
    const dv3 up = dmat_apply(&res->after[C_HEAD], a->up);
    if (dv_len(dv_across(dv_unit(up), n)) > 0.05)
        CHECK_NEAR(dv_signed_angle(a->pole, up, n), twist, 20 * AIM_TOL);
}

TEST(one_joint_aims_its_ray_through_the_target_with_up_toward_the_pole)
{
    ts_rng r = ts_rng_make(11);
    for (int t = 0; t < TRIALS; ++t) {
        chain_state st;
        chain_random(&r, t % 2 == 1, &st);
        const aim_setup a = random_setup_at(&r, &st, true);
        const double twist = t % 3 == 0 ? ts_uniform(&r, -3, 3) : 0.0;
        ossa_ik_aim_job job = setup_job(&a, chain1, 1);
        job.twist_rad = (float)twist;
        const chain_result res = aim_solve(&st, job);
        check_aimed(&res, &a, C_HEAD, twist);
        /* only the head's rotation changed */
        for (int j = 0; j < CHAIN_JOINTS; ++j) {
            ossa_transform x = st.pose[j], y = res.pose[j];
            if (j == C_HEAD)
                x.rotation = y.rotation;
            CHECK(memcmp(&x, &y, sizeof x) == 0);
        }
    }
}

TEST(a_chain_with_a_full_root_weight_aims_the_tip_ray_through_the_target)
{
    ts_rng r = ts_rng_make(12);
    for (int t = 0; t < TRIALS; ++t) {
        chain_state st;
        chain_random(&r, t % 2 == 0, &st);
        const aim_setup a = random_setup(&r, &st);
        const float weights[3] = {1.0f, (float)ts_uniform(&r, 0, 1), (float)ts_uniform(&r, 0, 1)};
        ossa_ik_aim_job job = setup_job(&a, chain3, 3);
        job.chain_weights = t % 4 == 0 ? NULL : weights;
        const chain_result res = aim_solve(&st, job);
        check_aimed(&res, &a, C_SPINE, 0.0);
        /* a root weight below 1 leaves part of the turn undone */
        const float short_weights[3] = {0.5f, weights[1], weights[2] * 0.5f};
        job.chain_weights = short_weights;
        const chain_result part = aim_solve(&st, job);
        CHECK(!(part.flags & OSSA_IK_REACHED));
        chain_result unchanged;
        memcpy(unchanged.after, st.before, sizeof st.before);
        if (aim_error(&unchanged, a.offset, a.forward, a.target) > 0.01)
            CHECK(aim_error(&part, a.offset, a.forward, a.target) > 10 * AIM_TOL);
    }
}

/* Rotation angle of a correction, about a unit axis (signed). */
static double turn_about(ossa_quat q, dv3 axis)
{
    const dv3 v = dv(q.x, q.y, q.z);
    return 2 * atan2(dv_dot(v, axis), q.w);
}

TEST(chain_weights_share_a_turn_about_one_axis_as_documented)
{
    /* every chain joint at the same place, all turned about y only, the
     * target in the horizontal plane: each joint's turn is its share */
    ts_rng r = ts_rng_make(13);
    for (int t = 0; t < 50; ++t) {
        chain_state st;
        for (int j = 0; j < CHAIN_JOINTS; ++j) {
            st.pose[j] = ossa_transform_identity();
            st.pose[j].rotation = dq_to_f(dq_axis_angle(dv(0, 1, 0), ts_uniform(&r, -0.5, 0.5)));
        }
        st.pose[C_SPINE].translation = (ossa_float3){0.2f, 1.0f, -0.3f};
        chain_prepare(&st);
        const dv3 head = dmat_pos(&st.before[C_HEAD]);
        const dv3 facing = dmat_apply(&st.before[C_HEAD], dv(0, 0, 1));
        const double theta = ts_uniform(&r, -2.5, 2.5);
        const dv3 target = dv_add(head, dv_scale(dq_rotate(dq_axis_angle(dv(0, 1, 0), theta),
                                                           facing), 3.0));
        const float w_root = 1.0f, w_neck = (float)ts_uniform(&r, 0, 1),
                    w_head = (float)ts_uniform(&r, 0, 1);
        const float weights[3] = {w_root, w_neck, w_head};
        const double share_head = w_head, share_neck = w_neck * (1 - w_head),
                     share_root = (1 - w_head) * (1 - w_neck);
        for (int equal = 0; equal < 2; ++equal) {
            ossa_ik_aim_job job = aim_job(chain3, 3);
            job.target = dv_to_f(target);
            job.chain_weights = equal ? NULL : weights;
            const double c_weight = t % 2 ? 1.0 : 0.5;
            float w = (float)c_weight;
            job.weights = &w;
            job.weight_count = 1;
            const chain_result res = aim_solve(&st, job);
            const double head_share = equal ? 1.0 / 3 : share_head;
            const double neck_share = equal ? 1.0 / 3 : share_neck;
            const double root_share = equal ? 1.0 / 3 : share_root;
            CHECK_NEAR(turn_about(res.corrections[2], dv(0, 1, 0)), c_weight * head_share * theta,
                       ANGLE_TOL);
            CHECK_NEAR(turn_about(res.corrections[1], dv(0, 1, 0)), c_weight * neck_share * theta,
                       ANGLE_TOL);
            CHECK_NEAR(turn_about(res.corrections[0], dv(0, 1, 0)), c_weight * root_share * theta,
                       ANGLE_TOL);
            if (c_weight == 1.0)
                CHECK_NEAR(aim_error(&res, dv(0, 0, 0), dv(0, 0, 1), target), 0.0, AIM_TOL);
        }
    }
}

TEST(aim_weight_zero_leaves_the_pose_one_is_full_and_between_is_the_slerp)
{
    ts_rng r = ts_rng_make(14);
    for (int t = 0; t < TRIALS; ++t) {
        chain_state st;
        chain_random(&r, t % 2 == 0, &st);
        const aim_setup a = random_setup(&r, &st);
        ossa_ik_aim_job job = setup_job(&a, chain3, 3);
        const float chain_weights[3] = {1.0f, 0.6f, 0.3f};
        job.chain_weights = chain_weights;
        const chain_result full = aim_solve(&st, job);
        float w = 0.0f;
        job.weights = &w;
        job.weight_count = 1;
        const chain_result none = aim_solve(&st, job);
        CHECK(memcmp(none.pose, st.pose, sizeof st.pose) == 0);
        CHECK(none.flags == full.flags);
        w = 1.0f;
        const chain_result one = aim_solve(&st, job);
        CHECK(memcmp(one.pose, full.pose, sizeof full.pose) == 0);
        w = (float)ts_uniform(&r, 0.01, 0.99);
        const chain_result part = aim_solve(&st, job);
        for (int k = 0; k < 3; ++k) {
            const int j = chain3[k];
            const ts_dquat expect = ts_dquat_slerp(ts_dquat_from(st.pose[j].rotation),
                                                   ts_dquat_from(full.pose[j].rotation), w);
            CHECK_NEAR(ts_quat_angle(part.pose[j].rotation, expect), 0.0, ANGLE_TOL);
        }
    }
}

TEST(zero_forward_means_plus_z)
{
    ts_rng r = ts_rng_make(15);
    chain_state st;
    chain_random(&r, false, &st);
    aim_setup a = random_setup(&r, &st);
    a.forward = dv(0, 0, 1);
    ossa_ik_aim_job job = setup_job(&a, chain3, 3);
    const chain_result z = aim_solve(&st, job);
    job.forward = (ossa_float3){0, 0, 0};
    const chain_result zero = aim_solve(&st, job);
    CHECK(memcmp(z.pose, zero.pose, sizeof z.pose) == 0);
    CHECK(z.flags & OSSA_IK_REACHED);
}

TEST(degenerate_aims_give_finite_poses_and_their_flags)
{
    ts_rng r = ts_rng_make(16);
    chain_state st;
    chain_random(&r, false, &st);
    const dv3 head = dmat_pos(&st.before[C_HEAD]);
    /* target on the aimed joint (no offset): that joint stays */
    {
        ossa_ik_aim_job job = aim_job(chain1, 1);
        job.target = dv_to_f(head);
        const chain_result res = aim_solve(&st, job);
        CHECK(res.flags & OSSA_IK_TARGET_ON_JOINT);
        CHECK(!(res.flags & OSSA_IK_REACHED));
        CHECK(memcmp(res.pose, st.pose, sizeof st.pose) == 0);
    }
    /* a target nearer than the ray passes: missed, finite */
    {
        ossa_ik_aim_job job = aim_job(chain1, 1);
        job.offset = (ossa_float3){0.5f, 0, 0};
        job.forward = (ossa_float3){0, 0, 1};
        job.target = dv_to_f(dv_add(head, dv(0.05, 0.1, 0)));
        const chain_result res = aim_solve(&st, job);
        CHECK(res.code == OSSA_OK);
        CHECK(!(res.flags & OSSA_IK_REACHED));
        CHECK(pose_is_finite(res.pose, CHAIN_JOINTS));
    }
    /* pole along the head -> target axis, and up along the ray: no roll */
    {
        aim_setup a = random_setup(&r, &st);
        a.offset = dv(0, 0, 0);
        ossa_ik_aim_job job = setup_job(&a, chain1, 1);
        job.pole = dv_to_f(dv_sub(a.target, head));
        chain_result res = aim_solve(&st, job);
        CHECK(res.flags & OSSA_IK_POLE_PARALLEL);
        CHECK(res.flags & OSSA_IK_REACHED);
        CHECK_NEAR(aim_error(&res, a.offset, a.forward, a.target), 0.0, AIM_TOL);
        job.pole = dv_to_f(a.pole);
        job.up = job.forward;
        res = aim_solve(&st, job);
        CHECK(res.flags & OSSA_IK_POLE_PARALLEL);
        CHECK(pose_is_finite(res.pose, CHAIN_JOINTS));
    }
    /* chain joints on top of each other and the target on them */
    {
        chain_state z = st;
        z.pose[C_CHEST].translation = z.pose[C_NECK].translation =
            z.pose[C_HEAD].translation = (ossa_float3){0, 0, 0};
        chain_prepare(&z);
        ossa_ik_aim_job job = aim_job(chain3, 3);
        job.target = dv_to_f(dmat_pos(&z.before[C_HEAD]));
        job.up = (ossa_float3){0, 1, 0};
        job.pole = (ossa_float3){0, 1, 0};
        const chain_result res = aim_solve(&z, job);
        CHECK(res.flags & OSSA_IK_TARGET_ON_JOINT);
        CHECK(pose_is_finite(res.pose, CHAIN_JOINTS));
    }
}

TEST(non_finite_aim_input_leaves_that_character_alone_and_flags_it)
{
    enum { N = 5 };
    ts_rng r = ts_rng_make(17);
    chain_state st;
    chain_random(&r, false, &st);
    const aim_setup a = random_setup(&r, &st);
    ossa_transform pose[N * CHAIN_JOINTS], orig[N * CHAIN_JOINTS];
    ossa_mat34 model[N * CHAIN_JOINTS];
    for (int c = 0; c < N; ++c)
        memcpy(&pose[c * CHAIN_JOINTS], st.pose, sizeof st.pose);
    ik_model_float(chain_parents, CHAIN_JOINTS, N, pose, model);
    memcpy(orig, pose, sizeof pose);
    ossa_float3 targets[N], poles[N];
    float weights[N];
    for (int c = 0; c < N; ++c) {
        targets[c] = dv_to_f(a.target);
        poles[c] = dv_to_f(a.pole);
        weights[c] = 1.0f;
    }
    targets[0].z = NAN;
    poles[1].x = -INFINITY;
    weights[2] = NAN;
    model[3 * CHAIN_JOINTS + C_NECK].m[0][0] = INFINITY;
    ossa_quat corr[N * 3];
    uint8_t flags[N];
    ossa_ik_aim_job job = setup_job(&a, chain3, 3);
    job.model = model;
    job.model_count = N * CHAIN_JOINTS;
    job.local = pose;
    job.local_count = N * CHAIN_JOINTS;
    job.character_count = N;
    job.targets = targets;
    job.target_count = N;
    job.poles = poles;
    job.pole_count = N;
    job.weights = weights;
    job.weight_count = N;
    job.corrections = corr;
    job.correction_count = N * 3;
    job.flags = flags;
    job.flag_count = N;
    CHECK_RESULT(ossa_ik_aim_job_run(&job), OSSA_OK);
    for (int c = 0; c < 4; ++c) {
        CHECK_INT(flags[c], OSSA_IK_BAD_INPUT);
        CHECK(memcmp(&pose[c * CHAIN_JOINTS], &orig[c * CHAIN_JOINTS], sizeof st.pose) == 0);
        for (int k = 0; k < 3; ++k)
            CHECK(corr[c * 3 + k].w == 1.0f && corr[c * 3 + k].x == 0.0f);
    }
    CHECK(flags[4] & OSSA_IK_REACHED);
    chain_result res;
    memcpy(res.pose, &pose[4 * CHAIN_JOINTS], sizeof res.pose);
    ik_model_double(chain_parents, CHAIN_JOINTS, 0, res.pose, res.after);
    CHECK_NEAR(aim_error(&res, a.offset, a.forward, a.target), 0.0, AIM_TOL);
}

TEST(aim_writes_only_its_character_range)
{
    enum { N = 5 };
    ts_rng r = ts_rng_make(18);
    chain_state st;
    chain_random(&r, false, &st);
    const aim_setup a = random_setup(&r, &st);
    ossa_transform pose[N * CHAIN_JOINTS], orig[N * CHAIN_JOINTS];
    ossa_mat34 model[N * CHAIN_JOINTS];
    for (int c = 0; c < N; ++c)
        memcpy(&pose[c * CHAIN_JOINTS], st.pose, sizeof st.pose);
    ik_model_float(chain_parents, CHAIN_JOINTS, N, pose, model);
    memcpy(orig, pose, sizeof pose);
    uint8_t flags[N];
    memset(flags, 0xEE, sizeof flags);
    ossa_ik_aim_job job = setup_job(&a, chain3, 3);
    job.model = model;
    job.model_count = N * CHAIN_JOINTS;
    job.local = pose;
    job.local_count = N * CHAIN_JOINTS;
    job.character_count = N;
    job.character_begin = 1;
    job.character_end = 3;
    job.flags = flags;
    job.flag_count = N;
    CHECK_RESULT(ossa_ik_aim_job_run(&job), OSSA_OK);
    for (int c = 0; c < N; ++c) {
        const bool inside = c >= 1 && c < 3;
        const bool same =
            memcmp(&pose[c * CHAIN_JOINTS], &orig[c * CHAIN_JOINTS], sizeof st.pose) == 0;
        CHECK(inside ? !same : same);
        CHECK(inside ? (flags[c] & OSSA_IK_REACHED) != 0 : flags[c] == 0xEE);
    }
}

TEST(aim_validity_table)
{
    ossa_transform pose[2 * CHAIN_JOINTS];
    ossa_mat34 model[2 * CHAIN_JOINTS];
    for (int i = 0; i < 2 * CHAIN_JOINTS; ++i)
        pose[i] = ossa_transform_identity();
    ik_model_float(chain_parents, CHAIN_JOINTS, 2, pose, model);
    uint16_t chain[OSSA_IK_MAX_CHAIN + 1] = {C_SPINE, C_NECK, C_HEAD};
    float chain_weights[3] = {1, 0.5f, 0.5f};
    ossa_float3 targets[2] = {{0, 0, 1}, {0, 0, 1}};
    float weights[2] = {1, 1};
    ossa_quat corr[6];
    uint8_t flags[2];

    ossa_ik_aim_job job;
    memset(&job, 0, sizeof job);
    CHECK_RESULT(ossa_ik_aim_job_validate(NULL), OSSA_ERR_MISSING_INPUT);
    CHECK_RESULT(ossa_ik_aim_job_validate(&job), OSSA_ERR_MISSING_INPUT);
    job = aim_job(chain, 3);
    job.model = model;
    job.local = pose;
    job.character_count = 2;
    job.model_count = job.local_count = 2 * CHAIN_JOINTS;
    CHECK_RESULT(ossa_ik_aim_job_validate(&job), OSSA_OK);
    job.joint_count = OSSA_MAX_JOINTS + 1;
    CHECK_RESULT(ossa_ik_aim_job_validate(&job), OSSA_ERR_BAD_ARGUMENT);
    job.joint_count = CHAIN_JOINTS;
    job.chain = NULL;
    CHECK_RESULT(ossa_ik_aim_job_validate(&job), OSSA_ERR_MISSING_INPUT);
    job.chain = chain;
    job.chain_count = 0;
    CHECK_RESULT(ossa_ik_aim_job_validate(&job), OSSA_ERR_INPUT_TOO_SMALL);
    job.chain_count = OSSA_IK_MAX_CHAIN + 1;
    CHECK_RESULT(ossa_ik_aim_job_validate(&job), OSSA_ERR_BAD_ARGUMENT);
    job.chain_count = 3;
    chain[2] = CHAIN_JOINTS;
    CHECK_RESULT(ossa_ik_aim_job_validate(&job), OSSA_ERR_BAD_INDEX);
    chain[2] = C_SPINE; /* not below the neck */
    CHECK_RESULT(ossa_ik_aim_job_validate(&job), OSSA_ERR_BAD_INDEX);
    chain[2] = C_HEAD;
    chain[0] = C_NECK; /* twice */
    CHECK_RESULT(ossa_ik_aim_job_validate(&job), OSSA_ERR_BAD_INDEX);
    chain[0] = C_SPINE;
    job.chain_weights = chain_weights;
    chain_weights[1] = 1.5f;
    CHECK_RESULT(ossa_ik_aim_job_validate(&job), OSSA_ERR_BAD_VALUE);
    chain_weights[1] = NAN;
    CHECK_RESULT(ossa_ik_aim_job_validate(&job), OSSA_ERR_BAD_VALUE);
    chain_weights[1] = 0.5f;
    CHECK_RESULT(ossa_ik_aim_job_validate(&job), OSSA_OK);
    job.model = NULL;
    CHECK_RESULT(ossa_ik_aim_job_validate(&job), OSSA_ERR_MISSING_INPUT);
    job.model = model;
    job.model_count = 2 * CHAIN_JOINTS - 1;
    CHECK_RESULT(ossa_ik_aim_job_validate(&job), OSSA_ERR_INPUT_TOO_SMALL);
    job.model_count = 2 * CHAIN_JOINTS;
    job.character_end = 3;
    CHECK_RESULT(ossa_ik_aim_job_validate(&job), OSSA_ERR_BAD_RANGE);
    job.character_end = 0;
    job.targets = targets;
    job.target_count = 1;
    CHECK_RESULT(ossa_ik_aim_job_validate(&job), OSSA_ERR_INPUT_TOO_SMALL);
    job.target_count = 2;
    job.weights = weights;
    job.weight_count = 1;
    CHECK_RESULT(ossa_ik_aim_job_validate(&job), OSSA_ERR_INPUT_TOO_SMALL);
    job.weight_count = 2;
    job.poles = NULL;
    job.pole.x = NAN;
    CHECK_RESULT(ossa_ik_aim_job_validate(&job), OSSA_ERR_BAD_VALUE);
    job.pole.x = 0;
    job.forward.y = INFINITY;
    CHECK_RESULT(ossa_ik_aim_job_validate(&job), OSSA_ERR_BAD_VALUE);
    job.forward.y = 0;
    job.offset.z = NAN;
    CHECK_RESULT(ossa_ik_aim_job_validate(&job), OSSA_ERR_BAD_VALUE);
    job.offset.z = 0;
    job.up.x = NAN;
    CHECK_RESULT(ossa_ik_aim_job_validate(&job), OSSA_ERR_BAD_VALUE);
    job.up.x = 0;
    job.twist_rad = NAN;
    CHECK_RESULT(ossa_ik_aim_job_validate(&job), OSSA_ERR_BAD_VALUE);
    job.twist_rad = 0;
    job.local = NULL;
    CHECK_RESULT(ossa_ik_aim_job_validate(&job), OSSA_ERR_MISSING_OUTPUT);
    job.local = pose;
    job.local_count = 2 * CHAIN_JOINTS - 1;
    CHECK_RESULT(ossa_ik_aim_job_validate(&job), OSSA_ERR_OUTPUT_TOO_SMALL);
    job.local_count = 2 * CHAIN_JOINTS;
    job.corrections = corr;
    job.correction_count = 5; /* characters x chain joints = 6 */
    CHECK_RESULT(ossa_ik_aim_job_validate(&job), OSSA_ERR_OUTPUT_TOO_SMALL);
    job.correction_count = 6;
    job.flags = flags;
    job.flag_count = 1;
    CHECK_RESULT(ossa_ik_aim_job_validate(&job), OSSA_ERR_OUTPUT_TOO_SMALL);
    job.flag_count = 2;
    CHECK_RESULT(ossa_ik_aim_job_validate(&job), OSSA_OK);
    ossa_transform before[2 * CHAIN_JOINTS];
    memcpy(before, pose, sizeof pose);
    job.flag_count = 1;
    CHECK_RESULT(ossa_ik_aim_job_run(&job), OSSA_ERR_OUTPUT_TOO_SMALL);
    CHECK(memcmp(before, pose, sizeof pose) == 0);
}

UTEST_MAIN(one_joint_aims_its_ray_through_the_target_with_up_toward_the_pole,
           a_chain_with_a_full_root_weight_aims_the_tip_ray_through_the_target,
           chain_weights_share_a_turn_about_one_axis_as_documented,
           aim_weight_zero_leaves_the_pose_one_is_full_and_between_is_the_slerp,
           zero_forward_means_plus_z, degenerate_aims_give_finite_poses_and_their_flags,
           non_finite_aim_input_leaves_that_character_alone_and_flags_it,
           aim_writes_only_its_character_range, aim_validity_table)
