/* ik_crowd_test.c - the crowd's IK stage: feet on a height field with the
 * pelvis lowered as far as the feet need, heads looking at a point, flat
 * ground a no-op, thread splits bit-identical; the ground's sampling; the
 * desc and setters' errors. Expectations come from the reference jobs' pose
 * of each character (ts_crowd_reference_pose) and double precision. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "crowd_support.h"
#include "ik_test_support.h"
#include "utest.h"

/* OSSA_TEST_NEEDS_PIPELINE */

/* World positions after two float hierarchy walks of characters within a
 * few units of the origin: 2e-5 relative (TS_CROWD_POSE_TOLERANCE) of ~5. */
#define POSITION_TOLERANCE 2e-4
/* The eyes' aim after local->model runs again on the corrected pose. */
#define AIM_TOLERANCE 2e-4
/* What crowd.h documents: legs stretch to 0.97 of their reach (or as far as
 * the animation stretched them) before the pelvis drops, at most a quarter
 * of the shorter leg. */
#define LEG_STRETCH 0.97
#define MAX_DROP 0.25

enum { N = 40, J = OSSA_DEFAULT_JOINT_COUNT };

typedef struct ik_crowd {
    ts_crowd f;
    ossa_entity e[N];
    float heights[64 * 64];
    ossa_crowd_ground ground;
} ik_crowd;

static double terrain(double x, double z)
{
    return 0.06 * sin(1.7 * x + 0.3) * cos(1.3 * z) + 0.03 * sin(0.9 * (x + z));
}

/* A crowd of the default character with IK joints, its characters on a
 * gentle terrain (or flat at y = 0): placed at the ground's height. */
static int make(ik_crowd *k, int width, bool flat, uint64_t seed)
{
    memset(k, 0, sizeof *k);
    ossa_error err;
    if (ossa_default_character_build(&k->f.dc, NULL, &err) != OSSA_OK)
        return 0;
    for (int i = 0; i < OSSA_DEFAULT_CLIP_COUNT; ++i)
        k->f.clips[i] = k->f.dc.clips[i];
    ossa_crowd_ik_desc ik = {0};
    ik.eye_offset = (ossa_float3){0.0f, 0.09f, 0.08f};
    ossa_crowd_desc d = {0};
    d.skeleton = k->f.dc.skeleton;
    d.clips = k->f.clips;
    d.clip_count = OSSA_DEFAULT_CLIP_COUNT;
    d.capacity = N;
    d.width = width;
    d.ik = &ik;
    const size_t bytes = ossa_crowd_size(&d);
    k->f.memory = ts_aligned(bytes ? bytes : 64);
    if (!bytes || ossa_crowd_init(&k->f.crowd, k->f.memory, bytes, &d) != OSSA_OK)
        return 0;
    k->f.scratch_bytes = ossa_crowd_scratch_size(k->f.crowd);
    k->f.scratch = ts_aligned(k->f.scratch_bytes);
    for (int r = 0; r < 64; ++r)
        for (int c = 0; c < 64; ++c)
            k->heights[r * 64 + c] = flat ? 0.0f : (float)terrain(-4.0 + 0.125 * c, -4.0 + 0.125 * r);
    k->ground = (ossa_crowd_ground){k->heights, 64, 64, -4.0f, -4.0f, 0.125f};
    ts_rng rng = ts_rng_make(seed);
    for (int i = 0; i < N; ++i) {
        ossa_character_desc c = ts_crowd_random_character(&rng, 0);
        c.update_interval = 1;
        c.inactive = false;
        c.position.x = (float)ts_uniform(&rng, -3, 3);
        c.position.z = (float)ts_uniform(&rng, -3, 3);
        c.position.y = ossa_crowd_ground_height(&k->ground, c.position.x, c.position.z);
        if (ossa_crowd_spawn(k->f.crowd, &c, &k->e[i]) != OSSA_OK)
            return 0;
    }
    return 1;
}

static dv3 pos(const ossa_mat34 *m)
{
    return dv(m->m[0][3], m->m[1][3], m->m[2][3]);
}

TEST(ik_crowd_ground_is_sampled_bilinearly_and_clamped_at_its_edges)
{
    const float h[6] = {0, 1, 2, 10, 11, 12}; /* 3 columns, 2 rows */
    const ossa_crowd_ground g = {h, 3, 2, 1.0f, -1.0f, 0.5f};
    CHECK_NEAR(ossa_crowd_ground_height(&g, 1.0f, -1.0f), 0.0, 0.0);
    CHECK_NEAR(ossa_crowd_ground_height(&g, 2.0f, -0.5f), 12.0, 0.0);
    CHECK_NEAR(ossa_crowd_ground_height(&g, 1.25f, -1.0f), 0.5, 1e-6);
    CHECK_NEAR(ossa_crowd_ground_height(&g, 1.25f, -0.75f), 5.5, 1e-6);
    CHECK_NEAR(ossa_crowd_ground_height(&g, -5.0f, -9.0f), 0.0, 0.0);  /* corner */
    CHECK_NEAR(ossa_crowd_ground_height(&g, 9.0f, -0.75f), 7.0, 1e-6); /* right edge */
    CHECK_NEAR(ossa_crowd_ground_height(&g, NAN, NAN), 0.0, 0.0);
    CHECK_NEAR(ossa_crowd_ground_height(NULL, 0.0f, 0.0f), 0.0, 0.0);
}

typedef struct legs_joints {
    int leg[2][3], hips;
} legs_joints;

static legs_joints find_legs(const ossa_skeleton *s)
{
    static const char *const names[6] = {"thigh_l", "calf_l", "foot_l", "thigh_r", "calf_r", "foot_r"};
    legs_joints j;
    for (int i = 0; i < 6; ++i)
        j.leg[i / 3][i % 3] = ossa_skeleton_find_joint(s, names[i]);
    j.hips = ossa_skeleton_find_joint(s, "hips");
    return j;
}

static double dist(dv3 a, dv3 b)
{
    return dv_len(dv_sub(a, b));
}

TEST(ik_crowd_plants_feet_on_the_ground_and_lowers_the_pelvis_as_far_as_they_need)
{
    const int widths[3] = {4, 8, 16};
    for (int wi = 0; wi < 3; ++wi) {
        ik_crowd k;
        REQUIRE(make(&k, widths[wi], false, 31 + (uint64_t)wi));
        REQUIRE(ossa_crowd_set_ground(k.f.crowd, &k.ground) == OSSA_OK);
        const legs_joints lj = find_legs(k.f.dc.skeleton);
        int dropped = 0;
        double worst_foot = 0, worst_hips = 0;
        ossa_mat34 ref[J];
        for (int frame = 0; frame < 3; ++frame) {
            REQUIRE(ts_crowd_frame(&k.f, 1.0f / 30.0f, 1) == OSSA_OK);
            for (int i = 0; i < N; ++i) {
                ossa_character_state st;
                REQUIRE(ossa_crowd_character(k.f.crowd, k.e[i], &st) == OSSA_OK);
                ts_crowd_reference_pose(&k.f, &st, ref); /* the animated pose, no IK */
                const ossa_mat34 *got = ossa_crowd_pose(k.f.crowd, k.e[i]);
                REQUIRE(got != NULL);
                /* the drop, in double, from the animated pose */
                dv3 target[2];
                double drop = 0, shortest = 1e300;
                for (int leg = 0; leg < 2; ++leg) {
                    const dv3 hip = pos(&ref[lj.leg[leg][0]]), knee = pos(&ref[lj.leg[leg][1]]);
                    const dv3 foot = pos(&ref[lj.leg[leg][2]]);
                    /* the animated height above the root, over the ground
                     * below the foot (the crowd's own sampler, tested above) */
                    const double ground =
                        ossa_crowd_ground_height(&k.ground, (float)foot.x, (float)foot.z);
                    target[leg] = dv(foot.x, ground + foot.y - st.position.y, foot.z);
                    const double reach = dist(hip, knee) + dist(knee, foot);
                    const double r = fmax(LEG_STRETCH * reach, dist(hip, foot));
                    const double dx = target[leg].x - hip.x, dz = target[leg].z - hip.z;
                    const double need =
                        hip.y - target[leg].y - sqrt(fmax(r * r - dx * dx - dz * dz, 0));
                    drop = fmax(drop, need);
                    shortest = fmin(shortest, reach);
                }
                REQUIRE(drop < MAX_DROP * shortest); /* the terrain is gentle */
                dropped += drop > 1e-3;
                const double hips = fabs(got[lj.hips].m[1][3] - (ref[lj.hips].m[1][3] - drop));
                worst_hips = fmax(worst_hips, hips);
                for (int leg = 0; leg < 2; ++leg)
                    worst_foot = fmax(worst_foot, dist(pos(&got[lj.leg[leg][2]]), target[leg]));
            }
        }
        CHECK(worst_foot <= POSITION_TOLERANCE);
        CHECK(worst_hips <= POSITION_TOLERANCE);
        CHECK(dropped > 0); /* the terrain made some pelvises drop */
        if (!(worst_foot <= POSITION_TOLERANCE && worst_hips <= POSITION_TOLERANCE))
            fprintf(stderr, "width %d: feet off by %.3g, pelvis by %.3g\n", widths[wi],
                    worst_foot, worst_hips);
        ts_crowd_free(&k.f);
    }
}

TEST(ik_crowd_heads_look_at_the_point_unless_it_is_behind_them)
{
    ik_crowd k;
    REQUIRE(make(&k, 0, true, 41));
    const ossa_float3 point = {1.0f, 2.2f, 4.0f};
    REQUIRE(ossa_crowd_set_look_target(k.f.crowd, point, 1.0f) == OSSA_OK);
    const int head = ossa_skeleton_find_joint(k.f.dc.skeleton, "head");
    REQUIRE(ts_crowd_frame(&k.f, 1.0f / 30.0f, 1) == OSSA_OK);
    int looked = 0, turned_away = 0;
    double worst = 0;
    ossa_mat34 ref[J];
    for (int i = 0; i < N; ++i) {
        ossa_character_state st;
        REQUIRE(ossa_crowd_character(k.f.crowd, k.e[i], &st) == OSSA_OK);
        ts_crowd_reference_pose(&k.f, &st, ref);
        const ossa_mat34 *got = ossa_crowd_pose(k.f.crowd, k.e[i]);
        /* the facing against the direction to the point, from the animated head */
        const dv3 h = pos(&ref[head]);
        const dv3 to = dv(point.x - h.x, 0, point.z - h.z);
        const double cosine = dv_dot(dv_unit(to), dv(sin(st.yaw_rad), 0, cos(st.yaw_rad)));
        if (cosine >= 0.2) { /* full weight: the eyes' ray through the point */
            const ts_dmat m = ts_dmat_from_mat34(&got[head]);
            const dv3 eye = dmat_point(&m, dv(0, 0.09, 0.08));
            worst = fmax(worst, dv_angle(dmat_apply(&m, dv(0, 0, 1)), dv_sub(dv_f(point), eye)));
            ++looked;
        } else if (cosine <= -0.342) { /* behind: not at all */
            CHECK(ts_crowd_diff(got, ref, J) <= TS_CROWD_POSE_TOLERANCE);
            ++turned_away;
        }
    }
    CHECK(worst <= AIM_TOLERANCE);
    CHECK(looked > 0 && turned_away > 0);
    ts_crowd_free(&k.f);
}

TEST(ik_crowd_on_flat_ground_leaves_the_animation_as_it_is)
{
    ik_crowd k;
    REQUIRE(make(&k, 0, true, 51));
    REQUIRE(ossa_crowd_set_ground(k.f.crowd, &k.ground) == OSSA_OK);
    REQUIRE(ts_crowd_frame(&k.f, 1.0f / 30.0f, 1) == OSSA_OK);
    ossa_mat34 ref[J];
    double worst = 0;
    for (int i = 0; i < N; ++i) {
        ossa_character_state st;
        REQUIRE(ossa_crowd_character(k.f.crowd, k.e[i], &st) == OSSA_OK);
        ts_crowd_reference_pose(&k.f, &st, ref);
        const double d = ts_crowd_diff(ossa_crowd_pose(k.f.crowd, k.e[i]), ref, J);
        worst = fmax(worst, d);
    }
    /* feet already on the ground and legs in reach (or the pelvis would
     * drop): IK moves nothing beyond rounding */
    CHECK(worst <= 2 * TS_CROWD_POSE_TOLERANCE);
    ts_crowd_free(&k.f);
}

TEST(ik_crowd_results_do_not_depend_on_the_thread_count)
{
    ossa_mat34 *poses[2];
    for (int t = 0; t < 2; ++t) {
        ik_crowd k;
        REQUIRE(make(&k, 4, false, 61));
        REQUIRE(ossa_crowd_set_ground(k.f.crowd, &k.ground) == OSSA_OK);
        REQUIRE(ossa_crowd_set_look_target(k.f.crowd, (ossa_float3){0, 1.5f, 3}, 0.8f) == OSSA_OK);
        for (int frame = 0; frame < 3; ++frame)
            REQUIRE(ts_crowd_frame(&k.f, 1.0f / 30.0f, t == 0 ? 1 : 3) == OSSA_OK);
        poses[t] = malloc(sizeof(ossa_mat34) * N * J);
        for (int i = 0; i < N; ++i)
            memcpy(poses[t] + (size_t)i * J, ossa_crowd_pose(k.f.crowd, k.e[i]),
                   sizeof(ossa_mat34) * J);
        ts_crowd_free(&k.f);
    }
    CHECK(memcmp(poses[0], poses[1], sizeof(ossa_mat34) * N * J) == 0);
    free(poses[0]);
    free(poses[1]);
}

TEST(ik_crowd_desc_and_setters_refuse_bad_input)
{
    ossa_default_character dc;
    ossa_error err;
    REQUIRE(ossa_default_character_build(&dc, NULL, &err) == OSSA_OK);
    const ossa_clip *clips[OSSA_DEFAULT_CLIP_COUNT];
    for (int i = 0; i < OSSA_DEFAULT_CLIP_COUNT; ++i)
        clips[i] = dc.clips[i];
    ossa_crowd_ik_desc ik = {0};
    ossa_crowd_desc d = {0};
    d.skeleton = dc.skeleton;
    d.clips = clips;
    d.clip_count = OSSA_DEFAULT_CLIP_COUNT;
    d.capacity = 4;
    d.ik = &ik;
    CHECK(ossa_crowd_size(&d) > 0);
    const char *legs[6] = {"thigh_l", "calf_l", "foot_l", "thigh_r", "calf_r", "toe_nope"};
    ik.leg_names = legs;
    CHECK(ossa_crowd_size(&d) == 0);
    legs[5] = "thigh_l"; /* not below the calf */
    void *mem = ts_aligned(1 << 20);
    ossa_crowd *c = NULL;
    CHECK_RESULT(ossa_crowd_init(&c, mem, 1 << 20, &d), OSSA_ERR_BAD_INDEX);
    legs[5] = "foot_r";
    ik.pelvis_name = "nope";
    CHECK_RESULT(ossa_crowd_init(&c, mem, 1 << 20, &d), OSSA_ERR_NOT_FOUND);
    ik.pelvis_name = NULL;
    const char *look[2] = {"head", "neck_01"}; /* tip first: wrong order */
    ik.look_names = look;
    ik.look_count = 2;
    CHECK_RESULT(ossa_crowd_init(&c, mem, 1 << 20, &d), OSSA_ERR_BAD_INDEX);
    ik.look_names = NULL;
    ik.knee_axis.x = NAN;
    CHECK_RESULT(ossa_crowd_init(&c, mem, 1 << 20, &d), OSSA_ERR_BAD_VALUE);
    ik.knee_axis.x = 0;
    CHECK_RESULT(ossa_crowd_init(&c, mem, 1 << 20, &d), OSSA_OK);
    const float h[4] = {0, 0, 0, 0};
    ossa_crowd_ground g = {h, 2, 2, 0, 0, 1};
    CHECK_RESULT(ossa_crowd_set_ground(c, &g), OSSA_OK);
    g.cell_size = 0;
    CHECK_RESULT(ossa_crowd_set_ground(c, &g), OSSA_ERR_BAD_VALUE);
    g.cell_size = 1;
    g.rows = 0;
    CHECK_RESULT(ossa_crowd_set_ground(c, &g), OSSA_ERR_BAD_ARGUMENT);
    g.rows = 2;
    g.heights = NULL;
    CHECK_RESULT(ossa_crowd_set_ground(c, &g), OSSA_ERR_MISSING_INPUT);
    CHECK_RESULT(ossa_crowd_set_ground(c, NULL), OSSA_OK);
    CHECK_RESULT(ossa_crowd_set_look_target(c, (ossa_float3){0, 0, 0}, 1.5f), OSSA_ERR_BAD_VALUE);
    CHECK_RESULT(ossa_crowd_set_look_target(c, (ossa_float3){0, NAN, 0}, 1.0f), OSSA_ERR_BAD_VALUE);
    CHECK_RESULT(ossa_crowd_set_look_target(c, (ossa_float3){0, 1, 0}, 1.0f), OSSA_OK);
    /* without IK joints: no ground, no look */
    d.ik = NULL;
    CHECK_RESULT(ossa_crowd_init(&c, mem, 1 << 20, &d), OSSA_OK);
    g.heights = h;
    CHECK_RESULT(ossa_crowd_set_ground(c, &g), OSSA_ERR_BAD_ARGUMENT);
    CHECK_RESULT(ossa_crowd_set_look_target(c, (ossa_float3){0, 1, 0}, 1.0f), OSSA_ERR_BAD_ARGUMENT);
    free(mem);
    ossa_default_character_free(&dc, NULL);
}

UTEST_MAIN(ik_crowd_ground_is_sampled_bilinearly_and_clamped_at_its_edges,
           ik_crowd_plants_feet_on_the_ground_and_lowers_the_pelvis_as_far_as_they_need,
           ik_crowd_heads_look_at_the_point_unless_it_is_behind_them,
           ik_crowd_on_flat_ground_leaves_the_animation_as_it_is,
           ik_crowd_results_do_not_depend_on_the_thread_count,
           ik_crowd_desc_and_setters_refuse_bad_input)
