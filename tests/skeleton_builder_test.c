/* skeleton_builder_test.c - raw joint trees -> runtime skeletons: the
 * numbering against an independent recursive walk, every error naming its
 * joint, and allocation failure at every step. */
#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ossa/ossa.h"
#include "ossa/pipeline.h"
#include "test_support.h"
#include "utest.h"

/* OSSA_TEST_NEEDS_PIPELINE */

/* Model transforms through random hierarchies (at most ~60 deep) with scales
 * in [0.8, 1.25]: each level adds about five float roundings (2^-24) relative
 * to the magnitude of the result: 60 * 5 * 6e-8 = 1.8e-5 of (1 + |value|). */
#define HIERARCHY_REL_TOL 2e-5
/* A rest rotation renormalised by the builder: a few roundings of 2^-24. */
#define KEY_ANGLE_TOL 1e-6
/* One float rounding of a component <= 1. */
#define FLOAT_TOL 1e-7

typedef struct raw_tree {
    int n;
    int *parents;
    char (*names)[24];
    ossa_raw_joint *joints;
} raw_tree;

static raw_tree tree_make(ts_rng *r, int n, int roots, ts_scale scale)
{
    raw_tree t;
    t.n = n;
    t.parents = malloc(sizeof *t.parents * (size_t)n);
    t.names = malloc(sizeof *t.names * (size_t)n);
    t.joints = malloc(sizeof *t.joints * (size_t)n);
    ts_raw_parents(r, n, roots, t.parents);
    for (int i = 0; i < n; ++i) {
        snprintf(t.names[i], sizeof t.names[i], "joint_%d", i);
        t.joints[i].name = t.names[i];
        t.joints[i].parent = t.parents[i];
        t.joints[i].rest = ts_transform_range(r, scale, 0.8, 1.25);
    }
    return t;
}

static void tree_free(raw_tree *t)
{
    free(t->parents);
    free(t->names);
    free(t->joints);
}

/* The numbering the header promises, computed independently: depth-first
 * pre-order from each root in raw order, children in raw order. */
static void dfs_number(const int *parents, int n, int joint, int *next, int *number)
{
    number[joint] = (*next)++;
    for (int c = 0; c < n; ++c)
        if (parents[c] == joint)
            dfs_number(parents, n, c, next, number);
}

/* Breadth-first: all roots, then their children level by level, raw order. */
static void bfs_number(const int *parents, int n, int *number)
{
    int *queue = malloc(sizeof *queue * (size_t)n);
    int tail = 0;
    for (int i = 0; i < n; ++i)
        if (parents[i] < 0)
            queue[tail++] = i;
    for (int head = 0; head < tail; ++head)
        for (int c = 0; c < n; ++c)
            if (parents[c] == queue[head])
                queue[tail++] = c;
    for (int k = 0; k < tail; ++k)
        number[queue[k]] = k;
    free(queue);
}

static int depth_of(const int *parents, int i)
{
    int d = 0;
    while (parents[i] >= 0)
        i = parents[i], ++d;
    return d;
}

static void check_numbering(bool breadth_first)
{
    ts_rng r = ts_rng_make(breadth_first ? 11 : 12);
    const int sizes[] = {1, 2, 17, 96, 700, 3000};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; ++s) {
        const int n = sizes[s];
        raw_tree t = tree_make(&r, n, n > 10 ? 3 : 1, TS_SCALE_ANY);
        ossa_skeleton_build_options options;
        memset(&options, 0, sizeof options);
        options.breadth_first = breadth_first;
        ossa_skeleton *sk = NULL;
        int *raw_to_joint = malloc(sizeof(int) * (size_t)n);
        int *expected = malloc(sizeof(int) * (size_t)n);
        ossa_raw_skeleton raw = {t.joints, n};
        ossa_error e;
        CHECK_RESULT(ossa_skeleton_build(&raw, &options, &sk, raw_to_joint, &e), OSSA_OK);
        if (sk) {
            if (breadth_first) {
                bfs_number(t.parents, n, expected);
            } else {
                int next = 0;
                for (int i = 0; i < n; ++i)
                    if (t.parents[i] < 0)
                        dfs_number(t.parents, n, i, &next, expected);
            }
            CHECK_INT(ossa_skeleton_joint_count(sk), n);
            CHECK(ossa_skeleton_is_breadth_first(sk) == breadth_first);
            const uint16_t *parents = ossa_skeleton_parents(sk);
            const ossa_transform *rest = ossa_skeleton_rest_pose(sk);
            CHECK(((uintptr_t)rest & 15) == 0);
            int bad_number = 0, bad_parent = 0, bad_name = 0, bad_rest = 0, max_depth = 0;
            for (int i = 0; i < n; ++i) {
                const int k = raw_to_joint[i];
                bad_number += k != expected[i];
                if (k < 0 || k >= n)
                    continue;
                const int p = t.parents[i];
                bad_parent += p < 0 ? parents[k] != OSSA_NO_PARENT
                                    : parents[k] != raw_to_joint[p] || parents[k] >= k;
                bad_name += strcmp(ossa_skeleton_joint_name(sk, k), t.names[i]) != 0;
                bad_rest += memcmp(&rest[k].translation, &t.joints[i].rest.translation,
                                   sizeof(ossa_float3)) != 0 ||
                            memcmp(&rest[k].scale, &t.joints[i].rest.scale, sizeof(ossa_float3)) != 0 ||
                            ts_quat_angle(rest[k].rotation, ts_dquat_from(t.joints[i].rest.rotation)) > KEY_ANGLE_TOL;
                int d = depth_of(t.parents, i);
                max_depth = d > max_depth ? d : max_depth;
            }
            CHECK_INT(bad_number, 0);
            CHECK_INT(bad_parent, 0);
            CHECK_INT(bad_name, 0);
            CHECK_INT(bad_rest, 0);
            CHECK_INT(ossa_skeleton_max_depth(sk), max_depth);
            const ossa_skeleton *valid = NULL;
            CHECK_RESULT(ossa_skeleton_validate(sk, ossa_skeleton_bytes(sk), &valid, &e), OSSA_OK);
            CHECK(valid == sk);
        }
        ossa_skeleton_free(sk, NULL);
        free(raw_to_joint);
        free(expected);
        tree_free(&t);
    }
}

TEST(skeleton_numbers_joints_depth_first_children_in_raw_order)
{
    check_numbering(false);
}

TEST(skeleton_numbers_joints_breadth_first_when_asked)
{
    check_numbering(true);
}

static double rel_diff(const ossa_mat34 *a, const ts_dmat *b)
{
    double mag = 0;
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 4; ++j)
            mag = fmax(mag, fabs(b->m[i][j]));
    return ts_mat_diff(a, b) / (1.0 + mag);
}

static void check_model_matches_recursion(bool breadth_first)
{
    ts_rng r = ts_rng_make(breadth_first ? 21 : 22);
    const int sizes[] = {5, 96, 1000, 3000};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; ++s) {
        const int n = sizes[s];
        raw_tree t = tree_make(&r, n, 2, TS_SCALE_ANY);
        ossa_skeleton_build_options options;
        memset(&options, 0, sizeof options);
        options.breadth_first = breadth_first;
        ossa_skeleton *sk = NULL;
        int *raw_to_joint = malloc(sizeof(int) * (size_t)n);
        ossa_raw_skeleton raw = {t.joints, n};
        REQUIRE(ossa_skeleton_build(&raw, &options, &sk, raw_to_joint, NULL) == OSSA_OK);
        ts_dmat *expected = malloc(sizeof *expected * (size_t)n);
        /* The reference walks the raw tree with the raw rest transforms. */
        ossa_transform *raw_rest = malloc(sizeof *raw_rest * (size_t)n);
        for (int i = 0; i < n; ++i)
            raw_rest[i] = t.joints[i].rest;
        ts_model_by_recursion(t.parents, raw_rest, n, expected);
        ossa_mat34 *model = malloc(sizeof *model * (size_t)n);
        ossa_local_to_model_job job;
        memset(&job, 0, sizeof job);
        job.parents = ossa_skeleton_parents(sk);
        job.joint_count = n;
        job.local = ossa_skeleton_rest_pose(sk);
        job.local_count = n;
        job.character_count = 1;
        job.model = model;
        job.model_count = n;
        CHECK_RESULT(ossa_local_to_model_job_run(&job), OSSA_OK);
        double worst = 0;
        for (int i = 0; i < n; ++i)
            worst = fmax(worst, rel_diff(&model[raw_to_joint[i]], &expected[i]));
        CHECK_NEAR(worst, 0, HIERARCHY_REL_TOL);
        free(model);
        free(raw_rest);
        free(expected);
        free(raw_to_joint);
        ossa_skeleton_free(sk, NULL);
        tree_free(&t);
    }
}

TEST(depth_first_skeleton_gives_the_model_pose_of_a_recursive_walk)
{
    check_model_matches_recursion(false);
}

TEST(breadth_first_skeleton_gives_the_model_pose_of_a_recursive_walk)
{
    check_model_matches_recursion(true);
}

TEST(skeleton_normalises_rest_rotations)
{
    ossa_raw_joint joints[2] = {{"a", -1, {{0, 0, 0}, {0, 0, 0, 3}, {1, 1, 1}}},
                                {"b", 0, {{0, 1, 0}, {0, 2, 0, 2}, {1, 1, 1}}}};
    ossa_raw_skeleton raw = {joints, 2};
    ossa_skeleton *sk = NULL;
    REQUIRE(ossa_skeleton_build(&raw, NULL, &sk, NULL, NULL) == OSSA_OK);
    const ossa_transform *rest = ossa_skeleton_rest_pose(sk);
    CHECK(rest[0].rotation.w == 1.0f);
    CHECK_NEAR(rest[1].rotation.y, sqrt(0.5), FLOAT_TOL);
    CHECK_NEAR(rest[1].rotation.w, sqrt(0.5), FLOAT_TOL);
    CHECK_INT(ossa_skeleton_find_joint(sk, "b"), 1);
    CHECK_INT(ossa_skeleton_find_joint(sk, "c"), -1);
    CHECK_INT(ossa_skeleton_find_joint(sk, NULL), -1);
    CHECK(ossa_skeleton_joint_name(sk, 2) == NULL);
    CHECK(ossa_skeleton_joint_name(sk, -1) == NULL);
    CHECK(ossa_skeleton_bytes(sk) % 64 == 0);
    ossa_skeleton_free(sk, NULL);
}

/* Builds raw and expects `code` with the joint named in the message. */
static void expect_error(const ossa_raw_joint *joints, int n, ossa_result code, int index,
                         const char *named)
{
    ossa_raw_skeleton raw = {joints, n};
    ossa_skeleton *sk = (ossa_skeleton *)&raw; /* must be reset to NULL */
    ossa_error e;
    CHECK_RESULT(ossa_skeleton_build(&raw, NULL, &sk, NULL, &e), code);
    CHECK(sk == NULL);
    CHECK_INT(e.code, code);
    if (index != -2)
        CHECK_INT(e.index, index);
    if (named && !strstr(e.message, named)) {
        fprintf(stderr, "message \"%s\" does not name '%s'\n", e.message, named);
        CHECK(strstr(e.message, named) != NULL);
    }
}

#define REST {{0, 0, 0}, {0, 0, 0, 1}, {1, 1, 1}}

TEST(skeleton_rejects_no_joints)
{
    expect_error(NULL, 0, OSSA_ERR_SKELETON_EMPTY, -1, NULL);
    ossa_raw_joint one[1] = {{"a", -1, REST}};
    expect_error(one, 0, OSSA_ERR_SKELETON_EMPTY, -1, NULL);
    expect_error(NULL, 3, OSSA_ERR_MISSING_INPUT, -1, NULL);
    ossa_skeleton *sk = NULL;
    CHECK_RESULT(ossa_skeleton_build(NULL, NULL, &sk, NULL, NULL), OSSA_ERR_MISSING_INPUT);
    ossa_raw_skeleton raw = {one, 1};
    CHECK_RESULT(ossa_skeleton_build(&raw, NULL, NULL, NULL, NULL), OSSA_ERR_MISSING_OUTPUT);
}

TEST(skeleton_rejects_more_than_65535_joints_naming_the_first_that_does_not_fit)
{
    const int n = OSSA_MAX_JOINTS + 1;
    ossa_raw_joint *joints = malloc(sizeof *joints * (size_t)n);
    char (*names)[24] = malloc(sizeof *names * (size_t)n);
    for (int i = 0; i < n; ++i) {
        snprintf(names[i], sizeof names[i], "bone%d", i);
        joints[i] = (ossa_raw_joint){names[i], i - 1, REST};
    }
    expect_error(joints, n, OSSA_ERR_SKELETON_TOO_MANY_JOINTS, OSSA_MAX_JOINTS, "'bone65535'");
    /* One fewer fits: a 65535-deep chain. */
    ossa_raw_skeleton raw = {joints, n - 1};
    ossa_skeleton *sk = NULL;
    CHECK_RESULT(ossa_skeleton_build(&raw, NULL, &sk, NULL, NULL), OSSA_OK);
    if (sk) {
        CHECK_INT(ossa_skeleton_joint_count(sk), OSSA_MAX_JOINTS);
        CHECK_INT(ossa_skeleton_max_depth(sk), OSSA_MAX_JOINTS - 1);
        CHECK_INT(ossa_skeleton_parents(sk)[OSSA_MAX_JOINTS - 1], OSSA_MAX_JOINTS - 2);
    }
    ossa_skeleton_free(sk, NULL);
    free(joints);
    free(names);
}

TEST(skeleton_rejects_an_unknown_parent_naming_the_joint)
{
    ossa_raw_joint joints[3] = {{"hips", -1, REST}, {"knee", 0, REST}, {"toe", 3, REST}};
    expect_error(joints, 3, OSSA_ERR_SKELETON_UNKNOWN_PARENT, 2, "'toe'");
    joints[2].parent = -2;
    expect_error(joints, 3, OSSA_ERR_SKELETON_UNKNOWN_PARENT, 2, "'toe'");
}

TEST(skeleton_rejects_a_cycle_naming_its_joints)
{
    /* No root at all. */
    ossa_raw_joint ring[3] = {{"a", 2, REST}, {"b", 0, REST}, {"c", 1, REST}};
    expect_error(ring, 3, OSSA_ERR_SKELETON_CYCLE, -2, "'a'");
    expect_error(ring, 3, OSSA_ERR_SKELETON_CYCLE, -2, "'b'");
    /* A valid tree beside a cycle hanging off nothing. */
    ossa_raw_joint side[5] = {{"root", -1, REST}, {"arm", 0, REST}, {"x", 4, REST},
                              {"tail", 2, REST}, {"y", 2, REST}};
    ossa_raw_skeleton raw = {side, 5};
    ossa_error e;
    ossa_skeleton *sk = NULL;
    CHECK_RESULT(ossa_skeleton_build(&raw, NULL, &sk, NULL, &e), OSSA_ERR_SKELETON_CYCLE);
    CHECK(e.index == 2 || e.index == 4);
    CHECK(strstr(e.message, "'x'") && strstr(e.message, "'y'"));
    CHECK(!strstr(e.message, "'root'"));
    /* A joint that is its own parent. */
    ossa_raw_joint self[2] = {{"root", -1, REST}, {"loop", 1, REST}};
    expect_error(self, 2, OSSA_ERR_SKELETON_CYCLE, 1, "'loop'");
}

TEST(skeleton_rejects_a_duplicate_name_naming_it)
{
    ossa_raw_joint joints[4] = {{"root", -1, REST}, {"hand", 0, REST}, {"arm", 0, REST},
                                {"hand", 2, REST}};
    expect_error(joints, 4, OSSA_ERR_SKELETON_DUPLICATE_NAME, 3, "'hand'");
    ossa_raw_joint empty[2] = {{"", -1, REST}, {"", 0, REST}};
    expect_error(empty, 2, OSSA_ERR_SKELETON_DUPLICATE_NAME, 1, "''");
}

TEST(skeleton_rejects_a_missing_name)
{
    ossa_raw_joint joints[2] = {{"root", -1, REST}, {NULL, 0, REST}};
    expect_error(joints, 2, OSSA_ERR_MISSING_INPUT, 1, "joint 1");
}

TEST(skeleton_rejects_a_non_finite_rest_naming_the_joint)
{
    const ossa_transform bad[] = {
        {{NAN, 0, 0}, {0, 0, 0, 1}, {1, 1, 1}},      {{0, INFINITY, 0}, {0, 0, 0, 1}, {1, 1, 1}},
        {{0, 0, 0}, {0, NAN, 0, 1}, {1, 1, 1}},      {{0, 0, 0}, {0, 0, 0, INFINITY}, {1, 1, 1}},
        {{0, 0, 0}, {0, 0, 0, 1}, {1, -INFINITY, 1}}, {{0, 0, 0}, {0, 0, 0, 0}, {1, 1, 1}},
        {{0, 0, 0}, {0, 0, 0, 1}, {1, 1, NAN}},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        ossa_raw_joint joints[3] = {{"root", -1, REST}, {"spine", 0, REST}, {"neck", 1, REST}};
        joints[1].rest = bad[i];
        expect_error(joints, 3, OSSA_ERR_BAD_VALUE, 1, "'spine'");
    }
}

TEST(skeleton_build_fails_cleanly_at_every_allocation)
{
    ts_rng r = ts_rng_make(31);
    raw_tree t = tree_make(&r, 50, 2, TS_SCALE_ONE);
    ossa_raw_skeleton raw = {t.joints, t.n};
    ts_failing_allocator counter;
    ts_failing_allocator_init(&counter, -1);
    ossa_skeleton_build_options options;
    memset(&options, 0, sizeof options);
    options.allocator = counter.allocator;
    ossa_skeleton *sk = NULL;
    REQUIRE(ossa_skeleton_build(&raw, &options, &sk, NULL, NULL) == OSSA_OK);
    ossa_skeleton_free(sk, &options.allocator);
    CHECK_INT(counter.live, 0);
    const int allocations = counter.count;
    CHECK(allocations > 1);
    for (int n = 0; n < allocations; ++n) {
        ts_failing_allocator a;
        ts_failing_allocator_init(&a, n);
        options.allocator = a.allocator;
        ossa_error e;
        sk = (ossa_skeleton *)&raw;
        CHECK_RESULT(ossa_skeleton_build(&raw, &options, &sk, NULL, &e), OSSA_ERR_OUT_OF_MEMORY);
        CHECK(sk == NULL);
        CHECK_INT(a.live, 0);
        CHECK(strstr(e.message, "out of memory") != NULL);
    }
    tree_free(&t);
}

UTEST_MAIN(skeleton_numbers_joints_depth_first_children_in_raw_order,
           skeleton_numbers_joints_breadth_first_when_asked,
           depth_first_skeleton_gives_the_model_pose_of_a_recursive_walk,
           breadth_first_skeleton_gives_the_model_pose_of_a_recursive_walk,
           skeleton_normalises_rest_rotations, skeleton_rejects_no_joints,
           skeleton_rejects_more_than_65535_joints_naming_the_first_that_does_not_fit,
           skeleton_rejects_an_unknown_parent_naming_the_joint,
           skeleton_rejects_a_cycle_naming_its_joints, skeleton_rejects_a_duplicate_name_naming_it,
           skeleton_rejects_a_missing_name, skeleton_rejects_a_non_finite_rest_naming_the_joint,
           skeleton_build_fails_cleanly_at_every_allocation)
