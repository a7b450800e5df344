/* bench_hierarchy_test.c - the baselines of `ossa bench hierarchy` (the naive
 * pointer tree and the flattened 4x4 loop) against a double-precision walk of
 * the same random hierarchies. */
#include <math.h>
#include <stdlib.h>

#include "flat_hierarchy.h"
#include "naive_hierarchy.h"
#include "ossa/skeleton.h"
#include "test_support.h"
#include "utest.h"

/* OSSA_TEST_NEEDS_BENCH */

/* Largest difference from the double-precision walk, relative to the size of
 * the reference matrix (its largest entry, at least 1). The random scales in
 * [0.5, 2] compound along chains dozens of joints deep; float rounding there
 * stays near 1e-6 relative, while a wrong product order is off by O(1). */
#define RELATIVE_TOLERANCE 2e-5

enum { JOINTS = 120, ROOTS = 3 };

typedef struct hierarchy {
    uint16_t parents[JOINTS];
    bench_mat4 local[JOINTS];
    ts_dmat model[JOINTS]; /* the double-precision expectation */
} hierarchy;

/* A random forest with random T, R, non-uniform S per joint. The float 4x4
 * local matrices are the walks' input; the reference walks the same rounded
 * values in double. */
static void make_hierarchy(hierarchy *h, uint64_t seed)
{
    ts_rng rng = ts_rng_make(seed);
    ts_parents(&rng, JOINTS, ROOTS, h->parents);
    for (int i = 0; i < JOINTS; ++i) {
        const ossa_mat34 m = ossa_mat34_from_transform(ts_transform(&rng, TS_SCALE_ANY));
        h->local[i] = bench_mat4_from_mat34(&m);
        const ts_dmat local = ts_dmat_from_mat34(&m);
        const uint16_t p = h->parents[i];
        h->model[i] = p == OSSA_NO_PARENT ? local : ts_dmat_mul(&h->model[p], &local);
    }
}

/* Largest difference relative to the reference's size; the bottom row must
 * be exactly 0 0 0 1. */
static double relative_error(const bench_mat4 *got, const ts_dmat *want)
{
    double size = 1.0, diff = 0.0;
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 4; ++c) {
            size = fmax(size, fabs(want->m[r][c]));
            const double d = fabs((double)got->m[r][c] - want->m[r][c]);
            diff = d <= diff ? diff : d; /* NaN counts as larger */
        }
    for (int c = 0; c < 4; ++c)
        if (got->m[3][c] != (c == 3 ? 1.0f : 0.0f))
            return INFINITY;
    return diff / size;
}

static naive_skeleton naive_from(const hierarchy *h)
{
    naive_skeleton s;
    naive_skeleton_init(&s);
    for (int i = 0; i < JOINTS; ++i) {
        const int parent = h->parents[i] == OSSA_NO_PARENT ? -1 : h->parents[i];
        naive_joint *joint = naive_skeleton_add_joint(&s, parent);
        if (joint)
            joint->local_pose = h->local[i];
    }
    return s;
}

static int count_roots(const hierarchy *h)
{
    int roots = 0;
    for (int i = 0; i < JOINTS; ++i)
        roots += h->parents[i] == OSSA_NO_PARENT;
    return roots;
}

TEST(naive_tree_walk_matches_double_reference)
{
    for (uint64_t seed = 1; seed <= 20; ++seed) {
        hierarchy h;
        make_hierarchy(&h, seed);
        naive_skeleton s = naive_from(&h);
        REQUIRE(s.joints.count == JOINTS);
        CHECK_INT(s.roots.count, count_roots(&h));
        naive_skeleton_local_to_global(&s);
        double worst = 0.0;
        for (int i = 0; i < JOINTS; ++i)
            worst = fmax(worst, relative_error(&s.joints.items[i]->global_pose, &h.model[i]));
        CHECK_NEAR(worst, 0.0, RELATIVE_TOLERANCE);
        naive_skeleton_free(&s);
    }
}

TEST(flat_walk_matches_double_reference)
{
    for (uint64_t seed = 1; seed <= 20; ++seed) {
        hierarchy h;
        make_hierarchy(&h, seed);
        bench_mat4 global[JOINTS];
        flat_local_to_global(h.parents, JOINTS, h.local, global);
        double worst = 0.0;
        for (int i = 0; i < JOINTS; ++i)
            worst = fmax(worst, relative_error(&global[i], &h.model[i]));
        CHECK_NEAR(worst, 0.0, RELATIVE_TOLERANCE);
    }
}

/* As the bench grows its army: one joint of each skeleton in turn, so the
 * joints and the growing child arrays of all of them interleave in the heap. */
TEST(naive_trees_grown_interleaved_stay_independent)
{
    enum { SKELETONS = 4 };
    static hierarchy h[SKELETONS];
    naive_skeleton s[SKELETONS];
    for (int k = 0; k < SKELETONS; ++k) {
        make_hierarchy(&h[k], 100 + (uint64_t)k);
        naive_skeleton_init(&s[k]);
    }
    for (int i = 0; i < JOINTS; ++i)
        for (int k = 0; k < SKELETONS; ++k) {
            const int parent = h[k].parents[i] == OSSA_NO_PARENT ? -1 : h[k].parents[i];
            naive_joint *joint = naive_skeleton_add_joint(&s[k], parent);
            REQUIRE(joint != NULL);
            joint->local_pose = h[k].local[i];
        }
    for (int k = 0; k < SKELETONS; ++k) {
        naive_skeleton_local_to_global(&s[k]);
        double worst = 0.0;
        for (int i = 0; i < JOINTS; ++i)
            worst = fmax(worst, relative_error(&s[k].joints.items[i]->global_pose, &h[k].model[i]));
        CHECK_NEAR(worst, 0.0, RELATIVE_TOLERANCE);
        CHECK_INT(s[k].roots.count, count_roots(&h[k]));
        naive_skeleton_free(&s[k]);
    }
}

TEST(naive_add_joint_rejects_a_parent_that_does_not_exist)
{
    naive_skeleton s;
    naive_skeleton_init(&s);
    CHECK(naive_skeleton_add_joint(&s, 0) == NULL); /* no joint 0 yet */
    REQUIRE(naive_skeleton_add_joint(&s, -1) != NULL);
    CHECK(naive_skeleton_add_joint(&s, 1) == NULL); /* a joint cannot parent itself */
    CHECK(naive_skeleton_add_joint(&s, 0) != NULL);
    CHECK_INT(s.joints.count, 2);
    CHECK_INT(s.roots.count, 1);
    CHECK_INT(s.joints.items[0]->children.count, 1);
    naive_skeleton_free(&s);
    CHECK_INT(s.joints.count, 0);
}

UTEST_MAIN(naive_tree_walk_matches_double_reference, flat_walk_matches_double_reference,
           naive_trees_grown_interleaved_stay_independent,
           naive_add_joint_rejects_a_parent_that_does_not_exist)
