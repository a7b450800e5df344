/* ik_two_bone_test.c - the reference two-bone IK job against the geometry
 * it promises, checked in double precision on the model transforms of its
 * output pose: end on the target, middle joint in the pole's half-plane,
 * bones unchanged, straight or folded toward unreachable targets, the
 * softened reach, weights as slerps, degenerate input, ranges, validity. */
#include <stdlib.h>
#include <string.h>

#include "ik_test_support.h"
#include "utest.h"

/* Reached targets: the promise of ik.h (1e-5 of the limb's length). */
#define REACH_TOL 1e-5
/* Planes, lines and lengths: a few float roundings of the limb's size. */
#define GEOMETRY_TOL 1e-5
/* Angles between rotations that went through a few float operations. */
#define ANGLE_TOL 2e-6
#define TRIALS 300

typedef struct limb_state {
    ossa_transform pose[LIMB_JOINTS];
    ossa_mat34 model[LIMB_JOINTS];
    ts_dmat before[LIMB_JOINTS];
    ossa_float3 hinge;
    dv3 s, m, e;
    double length; /* |m - s| + |e - m| in model space */
} limb_state;

static void limb_prepare(limb_state *st)
{
    ik_model_float(limb_parents, LIMB_JOINTS, 1, st->pose, st->model);
    ik_model_double(limb_parents, LIMB_JOINTS, 0, st->pose, st->before);
    st->s = dmat_pos(&st->before[L_START]);
    st->m = dmat_pos(&st->before[L_MID]);
    st->e = dmat_pos(&st->before[L_END]);
    st->length = dv_len(dv_sub(st->m, st->s)) + dv_len(dv_sub(st->e, st->m));
}

static void limb_make(ts_rng *r, limb_kind kind, bool scaled, limb_state *st)
{
    limb_random(r, kind, scaled, st->pose, &st->hinge);
    limb_prepare(st);
}

/* The end joint's model position when the middle joint is turned by
 * `angle` about its hinge (double precision): a distance the limb reaches. */
static dv3 end_at_hinge_angle(const limb_state *st, double angle)
{
    ossa_transform pose[LIMB_JOINTS];
    memcpy(pose, st->pose, sizeof pose);
    ts_dquat q = ts_dquat_mul(ts_dquat_from(pose[L_MID].rotation),
                              dq_axis_angle(dv_f(st->hinge), angle));
    pose[L_MID].rotation = dq_to_f(q);
    ts_dmat model[LIMB_JOINTS];
    ik_model_double(limb_parents, LIMB_JOINTS, 0, pose, model);
    return dmat_pos(&model[L_END]);
}

/* Longest and shortest reach of the limb, by sampling the hinge angle and
 * refining around the best samples (independent of the job's formula). */
static void reach_range(const limb_state *st, double *dmin, double *dmax)
{
    double best_max = -1, best_min = 1e300, at_max = 0, at_min = 0;
    const int samples = 720;
    for (int i = 0; i < samples; ++i) {
        const double a = 2 * IK_PI * i / samples;
        const double d = dv_len(dv_sub(end_at_hinge_angle(st, a), st->s));
        if (d > best_max)
            best_max = d, at_max = a;
        if (d < best_min)
            best_min = d, at_min = a;
    }
    double step = 2 * IK_PI / samples;
    for (int it = 0; it < 40; ++it, step *= 0.5) {
        for (int sgn = -1; sgn <= 1; sgn += 2) {
            double d = dv_len(dv_sub(end_at_hinge_angle(st, at_max + sgn * step), st->s));
            if (d > best_max)
                best_max = d, at_max += sgn * step;
            d = dv_len(dv_sub(end_at_hinge_angle(st, at_min + sgn * step), st->s));
            if (d < best_min)
                best_min = d, at_min += sgn * step;
        }
    }
    *dmin = best_min;
    *dmax = best_max;
}

typedef struct limb_result {
    ossa_transform pose[LIMB_JOINTS];
    ts_dmat after[LIMB_JOINTS];
    dv3 s, m, e;
    ossa_quat start_correction, mid_correction;
    uint8_t flags;
    ossa_result code;
} limb_result;

static limb_result limb_solve(const limb_state *st, ossa_ik_two_bone_job job)
{
    limb_result out;
    memcpy(out.pose, st->pose, sizeof out.pose);
    job.local = out.pose;
    job.model = st->model;
    job.start_corrections = &out.start_correction;
    job.mid_corrections = &out.mid_correction;
    job.correction_count = 1;
    job.flags = &out.flags;
    job.flag_count = 1;
    out.code = ossa_ik_two_bone_job_run(&job);
    ik_model_double(limb_parents, LIMB_JOINTS, 0, out.pose, out.after);
    out.s = dmat_pos(&out.after[L_START]);
    out.m = dmat_pos(&out.after[L_MID]);
    out.e = dmat_pos(&out.after[L_END]);
    return out;
}

static ossa_ik_two_bone_job one_job(const limb_state *st)
{
    ossa_ik_two_bone_job job = limb_job(NULL, NULL, 1);
    job.mid_axis = st->hinge;
    return job;
}

/* Only the start and middle joints' rotations may change. */
static bool only_limb_rotations_changed(const limb_state *st, const limb_result *res)
{
    for (int j = 0; j < LIMB_JOINTS; ++j) {
        ossa_transform a = st->pose[j], b = res->pose[j];
        if (j == L_START || j == L_MID)
            a.rotation = b.rotation;
        if (memcmp(&a, &b, sizeof a) != 0)
            return false;
    }
    return true;
}

static void check_reached(const limb_state *st, const limb_result *res, dv3 target, dv3 pole,
                          double twist)
{
    const double L = st->length;
    CHECK(res->code == OSSA_OK);
    CHECK(res->flags & OSSA_IK_REACHED);
    CHECK_NEAR(dv_len(dv_sub(res->e, target)), 0.0, REACH_TOL * L);
    /* bone lengths unchanged */
    CHECK_NEAR(dv_len(dv_sub(res->m, res->s)), dv_len(dv_sub(st->m, st->s)), GEOMETRY_TOL * L);
    CHECK_NEAR(dv_len(dv_sub(res->e, res->m)), dv_len(dv_sub(st->e, st->m)), GEOMETRY_TOL * L);
    /* the start joint did not move */
    CHECK_NEAR(dv_len(dv_sub(res->s, st->s)), 0.0, GEOMETRY_TOL * L);
    /* middle joint in the plane of start, target and pole, on the pole's
     * side (rolled by the twist) */
    const dv3 n = dv_unit(dv_sub(target, st->s));
    const dv3 mid = dv_sub(res->m, res->s);
    if (twist == 0.0) {
        const dv3 normal = dv_unit(dv_cross(n, pole));
        CHECK_NEAR(dv_dot(mid, normal), 0.0, GEOMETRY_TOL * L);
    }
    if (dv_len(dv_across(mid, n)) > 1e-3 * L)
        CHECK_NEAR(dv_signed_angle(pole, mid, n), twist,
                   GEOMETRY_TOL * L / dv_len(dv_across(mid, n)));
    CHECK(only_limb_rotations_changed(st, res));
}

static void reachable_trials(limb_kind kind, bool scaled, uint64_t seed)
{
    ts_rng r = ts_rng_make(seed);
    for (int t = 0; t < TRIALS; ++t) {
        limb_state st;
        limb_make(&r, kind, scaled, &st);
        /* a distance the limb reaches: where some hinge angle puts the end */
        const double d = dv_len(dv_sub(end_at_hinge_angle(&st, ts_uniform(&r, 0, 2 * IK_PI)), st.s));
        const dv3 dir = dv_random_unit(&r);
        const dv3 target = dv_add(st.s, dv_scale(dir, d));
        const dv3 pole = dv_random_unit_away(&r, dir, 0.2);
        ossa_ik_two_bone_job job = one_job(&st);
        job.target = dv_to_f(target);
        job.pole = dv_to_f(pole);
        const limb_result res = limb_solve(&st, job);
        check_reached(&st, &res, target, pole, 0.0);
        /* folded the hinge's way: the end bone is where a positive turn
         * about the hinge takes it from straight, so the angle from the
         * start bone (mid -> start) to it about the hinge is below zero */
        const dv3 hinge = dv_unit(dmat_apply(&res.after[L_MID], dv_f(st.hinge)));
        CHECK(dv_dot(hinge, dv_cross(dv_sub(res.s, res.m), dv_sub(res.e, res.m))) <=
              1e-6 * st.length * st.length);
        /* the middle joint turns about its hinge axis only */
        const dv3 axis = dv(res.mid_correction.x, res.mid_correction.y, res.mid_correction.z);
        CHECK_NEAR(dv_len(dv_cross(axis, dv_f(st.hinge))), 0.0, ANGLE_TOL);
    }
}

TEST(reachable_targets_are_hit_with_the_knee_in_the_pole_plane)
{
    reachable_trials(LIMB_KNEE, false, 1);
}

TEST(reachable_targets_are_hit_with_any_hinge_and_scaled_roots)
{
    reachable_trials(LIMB_GENERAL, true, 2);
}

TEST(twist_rolls_the_limb_past_the_pole)
{
    ts_rng r = ts_rng_make(3);
    for (int t = 0; t < TRIALS; ++t) {
        limb_state st;
        limb_make(&r, LIMB_KNEE, t % 2 == 1, &st);
        const double d = dv_len(dv_sub(end_at_hinge_angle(&st, ts_uniform(&r, 0.3, 2.5)), st.s));
        const dv3 dir = dv_random_unit(&r);
        const dv3 target = dv_add(st.s, dv_scale(dir, d));
        const dv3 pole = dv_random_unit_away(&r, dir, 0.2);
        const double twist = ts_uniform(&r, -3.0, 3.0);
        ossa_ik_two_bone_job job = one_job(&st);
        job.target = dv_to_f(target);
        job.pole = dv_to_f(pole);
        job.twist_rad = (float)twist;
        const limb_result res = limb_solve(&st, job);
        check_reached(&st, &res, target, pole, twist);
    }
}

/* Beyond reach: the limb points at the target, at full extension; closer
 * than it folds: it points at the target, folded as far as it goes. */
static void unreachable_trials(limb_kind kind, uint64_t seed)
{
    ts_rng r = ts_rng_make(seed);
    for (int t = 0; t < TRIALS / 3; ++t) {
        limb_state st;
        limb_make(&r, kind, t % 2 == 0, &st);
        double dmin, dmax;
        reach_range(&st, &dmin, &dmax);
        const double L = st.length;
        for (int far = 0; far < 2; ++far) {
            double d = far ? dmax * ts_uniform(&r, 1.01, 3.0) : dmin * ts_uniform(&r, 0.05, 0.99);
            if (!far && dmin < 0.02 * L)
                continue; /* bones of nearly equal length fold onto the start */
            const dv3 dir = dv_random_unit(&r);
            const dv3 target = dv_add(st.s, dv_scale(dir, d));
            ossa_ik_two_bone_job job = one_job(&st);
            job.target = dv_to_f(target);
            job.pole = dv_to_f(dv_random_unit_away(&r, dir, 0.2));
            const limb_result res = limb_solve(&st, job);
            CHECK(res.code == OSSA_OK);
            CHECK(!(res.flags & OSSA_IK_REACHED));
            CHECK(pose_is_finite(res.pose, LIMB_JOINTS));
            const dv3 reach = dv_sub(res.e, res.s);
            /* on the start -> target ray */
            CHECK_NEAR(dv_len(dv_cross(reach, dir)), 0.0, GEOMETRY_TOL * L);
            CHECK(dv_dot(reach, dir) > 0);
            CHECK_NEAR(dv_len(reach), far ? dmax : dmin, GEOMETRY_TOL * L);
        }
    }
}

TEST(unreachable_targets_leave_a_knee_straight_or_folded_toward_them)
{
    unreachable_trials(LIMB_KNEE, 4);
}

TEST(unreachable_targets_leave_any_limb_at_its_longest_or_shortest_toward_them)
{
    unreachable_trials(LIMB_GENERAL, 5);
}

/* The documented softened reach, in double. */
static double soft_reach(double d, double dmax, double soften)
{
    const double da = (1 - soften) * dmax;
    if (d <= da)
        return d;
    const double x = (d - da) / (dmax - da);
    return da + (dmax - da) * x / (1 + x);
}

TEST(soften_approaches_full_extension_continuously_and_monotonically)
{
    ts_rng r = ts_rng_make(6);
    for (int t = 0; t < 6; ++t) {
        limb_state st;
        limb_make(&r, LIMB_KNEE, t % 2 == 1, &st);
        const double L = st.length, soften = t < 3 ? 0.2 : 0.05;
        const dv3 dir = dv_random_unit(&r);
        const dv3 pole = dv_random_unit_away(&r, dir, 0.2);
        double previous = 0, previous_d = 0;
        const int steps = 1500;
        for (int i = 0; i <= steps; ++i) {
            const double d = L * (0.5 + 1.0 * i / steps);
            ossa_ik_two_bone_job job = one_job(&st);
            job.target = dv_to_f(dv_add(st.s, dv_scale(dir, d)));
            job.pole = dv_to_f(pole);
            job.soften = (float)soften;
            const limb_result res = limb_solve(&st, job);
            const double reach = dv_len(dv_sub(res.e, res.s));
            CHECK_NEAR(reach, soft_reach(d, L, soften), GEOMETRY_TOL * L);
            CHECK(reach < L);
            if (i > 0) {
                CHECK(reach >= previous - 1e-6 * L);                        /* monotonic */
                CHECK(reach - previous <= (d - previous_d) + 1e-6 * L); /* continuous */
            }
            /* reached while the softened reach is within the tolerance
             * (away from the tolerance's edge, where rounding decides) */
            const double miss = d - soft_reach(d, L, soften);
            if (miss < 0.5 * REACH_TOL * L)
                CHECK(res.flags & OSSA_IK_REACHED);
            else if (miss > 2 * REACH_TOL * L)
                CHECK(!(res.flags & OSSA_IK_REACHED));
            previous = reach;
            previous_d = d;
        }
    }
}

TEST(weight_zero_leaves_the_pose_one_is_full_and_between_is_the_slerp)
{
    ts_rng r = ts_rng_make(7);
    for (int t = 0; t < TRIALS; ++t) {
        limb_state st;
        limb_make(&r, t % 2 ? LIMB_KNEE : LIMB_GENERAL, t % 3 == 0, &st);
        const dv3 dir = dv_random_unit(&r);
        const double d = st.length * ts_uniform(&r, 0.1, 1.2);
        ossa_ik_two_bone_job job = one_job(&st);
        job.target = dv_to_f(dv_add(st.s, dv_scale(dir, d)));
        job.pole = dv_to_f(dv_random_unit_away(&r, dir, 0.2));
        job.twist_rad = (float)ts_uniform(&r, -1, 1);
        const limb_result full = limb_solve(&st, job);
        float w[1] = {0.0f};
        job.weights = w;
        job.weight_count = 1;
        const limb_result none = limb_solve(&st, job);
        CHECK(memcmp(none.pose, st.pose, sizeof st.pose) == 0);
        CHECK(none.start_correction.w == 1.0f && none.mid_correction.w == 1.0f);
        CHECK(none.flags == full.flags); /* the flags describe the full solution */
        w[0] = 1.0f;
        const limb_result one = limb_solve(&st, job);
        CHECK(memcmp(one.pose, full.pose, sizeof full.pose) == 0);
        w[0] = (float)ts_uniform(&r, 0.01, 0.99);
        const limb_result part = limb_solve(&st, job);
        for (int j = L_START; j <= L_MID; ++j) {
            const ts_dquat expect = ts_dquat_slerp(ts_dquat_from(st.pose[j].rotation),
                                                   ts_dquat_from(full.pose[j].rotation), w[0]);
            CHECK_NEAR(ts_quat_angle(part.pose[j].rotation, expect), 0.0, ANGLE_TOL);
        }
        w[0] = 1.7f; /* clamped */
        const limb_result over = limb_solve(&st, job);
        CHECK(memcmp(over.pose, full.pose, sizeof full.pose) == 0);
    }
}

/* A leg as ossa's default character has it: straight down, knee hinge +x,
 * facing +z. */
static void straight_leg(limb_state *st)
{
    for (int j = 0; j < LIMB_JOINTS; ++j)
        st->pose[j] = ossa_transform_identity();
    st->pose[L_START].translation = (ossa_float3){0.1f, 0.9f, 0.0f};
    st->pose[L_MID].translation = (ossa_float3){0.0f, -0.42f, 0.0f};
    st->pose[L_END].translation = (ossa_float3){0.0f, -0.40f, 0.0f};
    st->pose[L_TOE].translation = (ossa_float3){0.0f, -0.05f, 0.13f};
    st->hinge = (ossa_float3){1.0f, 0.0f, 0.0f};
    limb_prepare(st);
}

TEST(a_straight_leg_folds_its_knee_forward_and_faces_the_pole_when_straight)
{
    limb_state st;
    straight_leg(&st);
    const dv3 forward = dv(0, 0, 1);
    /* reachable, below: the knee bends forward (the hinge's fold) */
    ossa_ik_two_bone_job job = one_job(&st);
    job.target = dv_to_f(dv_add(st.s, dv(0, -0.7, 0.1)));
    job.pole = dv_to_f(forward);
    limb_result res = limb_solve(&st, job);
    CHECK(res.flags & OSSA_IK_REACHED);
    CHECK(dv_dot(dv_across(dv_sub(res.m, res.s), dv_unit(dv(0, -0.7, 0.1))), forward) > 0.05);
    /* the same without a pole: the hinge alone folds it forward */
    job.pole = (ossa_float3){0, 0, 0};
    res = limb_solve(&st, job);
    CHECK(res.flags & OSSA_IK_REACHED);
    CHECK(dv_dot(dv_across(dv_sub(res.m, res.s), dv_unit(dv(0, -0.7, 0.1))), forward) > 0.05);
    /* and with the hinge taken from the pose (zero mid_axis): a straight
     * limb folds toward the pole */
    job.mid_axis = (ossa_float3){0, 0, 0};
    job.pole = (ossa_float3){1, 0, 0};
    res = limb_solve(&st, job);
    CHECK(res.flags & OSSA_IK_REACHED);
    CHECK(dv_dot(dv_across(dv_sub(res.m, res.s), dv_unit(dv(0, -0.7, 0.1))), dv(1, 0, 0)) > 0.05);
    /* out of reach to the side and a pole to the left: the straight leg
     * turns so that its knee would fold toward the pole */
    job = one_job(&st);
    const dv3 dir = dv_unit(dv(0.3, -1, 0.2));
    job.target = dv_to_f(dv_add(st.s, dv_scale(dir, 2.0)));
    job.pole = (ossa_float3){1, 0, 0};
    res = limb_solve(&st, job);
    CHECK(!(res.flags & OSSA_IK_REACHED));
    const dv3 hinge = dmat_apply(&res.after[L_MID], dv(1, 0, 0));
    const dv3 facing = dv_cross(dir, hinge); /* where the knee goes as it folds */
    CHECK(dv_angle(facing, dv_across(dv(1, 0, 0), dir)) < 1e-4);
}

TEST(degenerate_limbs_give_finite_poses_and_their_flags)
{
    limb_state st;
    straight_leg(&st);
    const ossa_float3 below = dv_to_f(dv_add(st.s, dv(0, -0.6, 0.2)));
    /* a zero-length bone: nothing to bend */
    for (int bone = 0; bone < 2; ++bone) {
        limb_state z = st;
        z.pose[bone ? L_END : L_MID].translation = (ossa_float3){0, 0, 0};
        limb_prepare(&z);
        ossa_ik_two_bone_job job = one_job(&z);
        job.target = below;
        job.pole = (ossa_float3){0, 0, 1};
        const limb_result res = limb_solve(&z, job);
        CHECK(res.code == OSSA_OK);
        CHECK_INT(res.flags, OSSA_IK_ZERO_BONE);
        CHECK(memcmp(res.pose, z.pose, sizeof z.pose) == 0);
    }
    /* target on the start joint: folded as far as it goes, direction kept */
    {
        ossa_ik_two_bone_job job = one_job(&st);
        job.target = dv_to_f(st.s);
        job.pole = (ossa_float3){0, 0, 1};
        const limb_result res = limb_solve(&st, job);
        CHECK(res.flags & OSSA_IK_TARGET_ON_JOINT);
        CHECK(!(res.flags & OSSA_IK_REACHED));
        CHECK(pose_is_finite(res.pose, LIMB_JOINTS));
        CHECK_NEAR(dv_len(dv_sub(res.e, res.s)), 0.02, GEOMETRY_TOL);
    }
    /* pole along the start -> target line: no roll, still on target */
    {
        ossa_ik_two_bone_job job = one_job(&st);
        job.target = below;
        job.pole = dv_to_f(dv_sub(dv_f(below), st.s));
        const limb_result res = limb_solve(&st, job);
        CHECK(res.flags & OSSA_IK_POLE_PARALLEL);
        CHECK(res.flags & OSSA_IK_REACHED);
        CHECK_NEAR(dv_len(dv_sub(res.e, dv_f(below))), 0.0, REACH_TOL * st.length);
    }
    /* a bone along the hinge: the knee cannot bend, the start still aims */
    {
        limb_state h = st;
        h.pose[L_END].translation = (ossa_float3){0.4f, 0, 0};
        limb_prepare(&h);
        ossa_ik_two_bone_job job = one_job(&h);
        job.target = below;
        job.pole = (ossa_float3){0, 0, 1};
        const limb_result res = limb_solve(&h, job);
        CHECK(res.flags & OSSA_IK_HINGE_PARALLEL);
        CHECK(pose_is_finite(res.pose, LIMB_JOINTS));
        CHECK_NEAR(dv_len(dv_cross(dv_unit(dv_sub(res.e, res.s)),
                                   dv_unit(dv_sub(dv_f(below), res.s)))),
                   0.0, GEOMETRY_TOL);
        CHECK_NEAR(res.mid_correction.w, 1.0, 0.0);
    }
}

TEST(non_finite_input_leaves_that_character_alone_and_flags_it)
{
    /* five characters: NaN target, infinite pole, NaN weight, NaN model,
     * and a good one that must still be solved */
    enum { N = 5 };
    limb_state st;
    straight_leg(&st);
    ossa_transform pose[N * LIMB_JOINTS], orig[N * LIMB_JOINTS];
    ossa_mat34 model[N * LIMB_JOINTS];
    for (int c = 0; c < N; ++c)
        memcpy(&pose[c * LIMB_JOINTS], st.pose, sizeof st.pose);
    ik_model_float(limb_parents, LIMB_JOINTS, N, pose, model);
    memcpy(orig, pose, sizeof pose);
    const ossa_float3 good = dv_to_f(dv_add(st.s, dv(0, -0.6, 0.2)));
    ossa_float3 targets[N] = {good, good, good, good, good};
    ossa_float3 poles[N] = {{0, 0, 1}, {0, 0, 1}, {0, 0, 1}, {0, 0, 1}, {0, 0, 1}};
    float weights[N] = {1, 1, 1, 1, 1};
    targets[0].y = NAN;
    poles[1].z = INFINITY;
    weights[2] = NAN;
    model[3 * LIMB_JOINTS + L_MID].m[1][3] = NAN;
    ossa_quat sc[N], mc[N];
    uint8_t flags[N];
    ossa_ik_two_bone_job job = limb_job(pose, model, N);
    job.mid_axis = st.hinge;
    job.targets = targets;
    job.target_count = N;
    job.poles = poles;
    job.pole_count = N;
    job.weights = weights;
    job.weight_count = N;
    job.start_corrections = sc;
    job.mid_corrections = mc;
    job.correction_count = N;
    job.flags = flags;
    job.flag_count = N;
    CHECK_RESULT(ossa_ik_two_bone_job_run(&job), OSSA_OK);
    for (int c = 0; c < 4; ++c) {
        CHECK_INT(flags[c], OSSA_IK_BAD_INPUT);
        CHECK(memcmp(&pose[c * LIMB_JOINTS], &orig[c * LIMB_JOINTS], sizeof st.pose) == 0);
        CHECK(sc[c].w == 1.0f && sc[c].x == 0.0f && mc[c].w == 1.0f && mc[c].x == 0.0f);
    }
    CHECK(flags[4] & OSSA_IK_REACHED);
    CHECK(pose_is_finite(pose, N * LIMB_JOINTS));
    ts_dmat after[LIMB_JOINTS];
    ik_model_double(limb_parents, LIMB_JOINTS, 4, pose, after);
    CHECK_NEAR(dv_len(dv_sub(dmat_pos(&after[L_END]), dv_f(good))), 0.0, REACH_TOL * st.length);
}

TEST(two_bone_writes_only_its_character_range)
{
    enum { N = 6 };
    ts_rng r = ts_rng_make(8);
    limb_state st;
    limb_make(&r, LIMB_KNEE, false, &st);
    ossa_transform pose[N * LIMB_JOINTS], orig[N * LIMB_JOINTS];
    ossa_mat34 model[N * LIMB_JOINTS];
    for (int c = 0; c < N; ++c)
        memcpy(&pose[c * LIMB_JOINTS], st.pose, sizeof st.pose);
    ik_model_float(limb_parents, LIMB_JOINTS, N, pose, model);
    memcpy(orig, pose, sizeof pose);
    uint8_t flags[N];
    memset(flags, 0xEE, sizeof flags);
    ossa_ik_two_bone_job job = limb_job(pose, model, N);
    job.mid_axis = st.hinge;
    job.target = dv_to_f(dv_add(st.s, dv_scale(dv_unit(dv(1, 1, 0)), st.length * 0.7)));
    job.pole = (ossa_float3){0, 0, 1};
    job.flags = flags;
    job.flag_count = N;
    job.character_begin = 2;
    job.character_end = 4;
    CHECK_RESULT(ossa_ik_two_bone_job_run(&job), OSSA_OK);
    for (int c = 0; c < N; ++c) {
        const bool inside = c >= 2 && c < 4;
        const bool same =
            memcmp(&pose[c * LIMB_JOINTS], &orig[c * LIMB_JOINTS], sizeof st.pose) == 0;
        CHECK(inside ? !same : same);
        CHECK(inside ? flags[c] == OSSA_IK_REACHED : flags[c] == 0xEE);
    }
}

TEST(two_bone_validity_table)
{
    ossa_transform pose[2 * LIMB_JOINTS];
    ossa_mat34 model[2 * LIMB_JOINTS];
    for (int i = 0; i < 2 * LIMB_JOINTS; ++i)
        pose[i] = ossa_transform_identity();
    ik_model_float(limb_parents, LIMB_JOINTS, 2, pose, model);
    uint16_t parents[LIMB_JOINTS];
    memcpy(parents, limb_parents, sizeof parents);
    ossa_float3 targets[2] = {{0, 0, 0}, {0, 0, 0}};
    float weights[2] = {1, 1};
    ossa_quat corr[2];
    uint8_t flags[2];

    ossa_ik_two_bone_job job;
    memset(&job, 0, sizeof job);
    CHECK_RESULT(ossa_ik_two_bone_job_validate(NULL), OSSA_ERR_MISSING_INPUT);
    CHECK_RESULT(ossa_ik_two_bone_job_validate(&job), OSSA_ERR_MISSING_INPUT);
    job = limb_job(pose, model, 2);
    job.parents = parents;
    CHECK_RESULT(ossa_ik_two_bone_job_validate(&job), OSSA_OK);
    job.parents = NULL;
    CHECK_RESULT(ossa_ik_two_bone_job_validate(&job), OSSA_ERR_MISSING_INPUT);
    job.parents = parents;
    job.joint_count = 0;
    CHECK_RESULT(ossa_ik_two_bone_job_validate(&job), OSSA_ERR_INPUT_TOO_SMALL);
    job.joint_count = LIMB_JOINTS;
    job.end_joint = LIMB_JOINTS;
    CHECK_RESULT(ossa_ik_two_bone_job_validate(&job), OSSA_ERR_BAD_INDEX);
    job.end_joint = -1;
    CHECK_RESULT(ossa_ik_two_bone_job_validate(&job), OSSA_ERR_BAD_INDEX);
    job.end_joint = L_MID; /* not below the middle joint */
    CHECK_RESULT(ossa_ik_two_bone_job_validate(&job), OSSA_ERR_BAD_INDEX);
    job.end_joint = L_TOE; /* below it, not directly: fine */
    CHECK_RESULT(ossa_ik_two_bone_job_validate(&job), OSSA_OK);
    job.end_joint = L_END;
    parents[L_MID] = L_ROOT; /* start is no longer above mid */
    CHECK_RESULT(ossa_ik_two_bone_job_validate(&job), OSSA_ERR_BAD_INDEX);
    parents[L_MID] = L_START;
    job.model = NULL;
    CHECK_RESULT(ossa_ik_two_bone_job_validate(&job), OSSA_ERR_MISSING_INPUT);
    job.model = model;
    job.character_count = 0;
    CHECK_RESULT(ossa_ik_two_bone_job_validate(&job), OSSA_ERR_INPUT_TOO_SMALL);
    job.character_count = 2;
    job.model_count = 2 * LIMB_JOINTS - 1;
    CHECK_RESULT(ossa_ik_two_bone_job_validate(&job), OSSA_ERR_INPUT_TOO_SMALL);
    job.model_count = 2 * LIMB_JOINTS;
    job.character_begin = 1;
    job.character_end = 3;
    CHECK_RESULT(ossa_ik_two_bone_job_validate(&job), OSSA_ERR_BAD_RANGE);
    job.character_begin = job.character_end = 0;
    job.targets = targets;
    job.target_count = 1;
    CHECK_RESULT(ossa_ik_two_bone_job_validate(&job), OSSA_ERR_INPUT_TOO_SMALL);
    job.target_count = 2;
    job.poles = targets;
    job.pole_count = 1;
    CHECK_RESULT(ossa_ik_two_bone_job_validate(&job), OSSA_ERR_INPUT_TOO_SMALL);
    job.pole_count = 2;
    job.weights = weights;
    job.weight_count = 1;
    CHECK_RESULT(ossa_ik_two_bone_job_validate(&job), OSSA_ERR_INPUT_TOO_SMALL);
    job.weight_count = 2;
    CHECK_RESULT(ossa_ik_two_bone_job_validate(&job), OSSA_OK);
    job.targets = NULL;
    job.target.x = NAN;
    CHECK_RESULT(ossa_ik_two_bone_job_validate(&job), OSSA_ERR_BAD_VALUE);
    job.target.x = 0;
    job.poles = NULL;
    job.pole.y = INFINITY;
    CHECK_RESULT(ossa_ik_two_bone_job_validate(&job), OSSA_ERR_BAD_VALUE);
    job.pole.y = 0;
    job.mid_axis.z = NAN;
    CHECK_RESULT(ossa_ik_two_bone_job_validate(&job), OSSA_ERR_BAD_VALUE);
    job.mid_axis.z = 0;
    job.soften = 1.0f;
    CHECK_RESULT(ossa_ik_two_bone_job_validate(&job), OSSA_ERR_BAD_VALUE);
    job.soften = -0.1f;
    CHECK_RESULT(ossa_ik_two_bone_job_validate(&job), OSSA_ERR_BAD_VALUE);
    job.soften = 0.5f;
    job.twist_rad = INFINITY;
    CHECK_RESULT(ossa_ik_two_bone_job_validate(&job), OSSA_ERR_BAD_VALUE);
    job.twist_rad = 0;
    job.local = NULL;
    CHECK_RESULT(ossa_ik_two_bone_job_validate(&job), OSSA_ERR_MISSING_OUTPUT);
    job.local = pose;
    job.local_count = 2 * LIMB_JOINTS - 1;
    CHECK_RESULT(ossa_ik_two_bone_job_validate(&job), OSSA_ERR_OUTPUT_TOO_SMALL);
    job.local_count = 2 * LIMB_JOINTS;
    job.mid_corrections = corr;
    job.correction_count = 1;
    CHECK_RESULT(ossa_ik_two_bone_job_validate(&job), OSSA_ERR_OUTPUT_TOO_SMALL);
    job.correction_count = 2;
    job.flags = flags;
    job.flag_count = 1;
    CHECK_RESULT(ossa_ik_two_bone_job_validate(&job), OSSA_ERR_OUTPUT_TOO_SMALL);
    job.flag_count = 2;
    CHECK_RESULT(ossa_ik_two_bone_job_validate(&job), OSSA_OK);
    /* run validates first and writes nothing when invalid */
    ossa_transform before[2 * LIMB_JOINTS];
    memcpy(before, pose, sizeof pose);
    job.target = (ossa_float3){0.5f, 0.5f, 0.0f};
    job.local_count = 1;
    CHECK_RESULT(ossa_ik_two_bone_job_run(&job), OSSA_ERR_OUTPUT_TOO_SMALL);
    CHECK(memcmp(before, pose, sizeof pose) == 0);
}

UTEST_MAIN(reachable_targets_are_hit_with_the_knee_in_the_pole_plane,
           reachable_targets_are_hit_with_any_hinge_and_scaled_roots,
           twist_rolls_the_limb_past_the_pole,
           unreachable_targets_leave_a_knee_straight_or_folded_toward_them,
           unreachable_targets_leave_any_limb_at_its_longest_or_shortest_toward_them,
           soften_approaches_full_extension_continuously_and_monotonically,
           weight_zero_leaves_the_pose_one_is_full_and_between_is_the_slerp,
           a_straight_leg_folds_its_knee_forward_and_faces_the_pole_when_straight,
           degenerate_limbs_give_finite_poses_and_their_flags,
           non_finite_input_leaves_that_character_alone_and_flags_it,
           two_bone_writes_only_its_character_range, two_bone_validity_table)
