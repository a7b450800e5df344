/* math_test.c - the public maths (ossa/math.h) against double precision. */
#include <float.h>

#include "ossa/math.h"
#include "test_support.h"
#include "utest.h"

#define PI 3.14159265358979323846
#define RANDOM_CASES 2000

/* Products of unit quaternions and matrices of transforms with translation in
 * [-1, 1] and scale <= 2: a handful of float roundings (2^-24 relative each)
 * on values of magnitude <= 4. */
#define MATH_TOL 2e-6
/* An inverse divides by the determinant (>= 1/8 for scales >= 0.5): its
 * rounding errors grow with 1/det, and the product back with the scale. */
#define INVERSE_TOL 2e-5
/* Angles between random rotations, from a float quaternion product and
 * atan2: a few roundings of components <= 1, i.e. ~1e-6 rad, with margin. */
#define ANGLE_TOL 1e-5
/* atan2 of the vector and scalar parts keeps small angles to their own
 * relative rounding: 1e-4 rad * a few 2^-24. */
#define SMALL_ANGLE_TOL 1e-9

static double quat_diff(ossa_quat a, ts_dquat b)
{
    double d = fabs(a.x - b.x);
    d = fmax(d, fabs(a.y - b.y));
    d = fmax(d, fabs(a.z - b.z));
    return fmax(d, fabs(a.w - b.w));
}

static double vec_diff(ossa_float3 a, double x, double y, double z)
{
    return fmax(fabs(a.x - x), fmax(fabs(a.y - y), fabs(a.z - z)));
}

TEST(identities_are_identities)
{
    ossa_transform t = ossa_transform_identity();
    CHECK(t.translation.x == 0 && t.translation.y == 0 && t.translation.z == 0);
    CHECK(t.rotation.x == 0 && t.rotation.y == 0 && t.rotation.z == 0 && t.rotation.w == 1);
    CHECK(t.scale.x == 1 && t.scale.y == 1 && t.scale.z == 1);
    ts_dmat id = ts_dmat_identity();
    ossa_mat34 m = ossa_mat34_identity();
    CHECK(ts_mat_diff(&m, &id) == 0.0);
    ossa_mat34 from_t = ossa_mat34_from_transform(t);
    CHECK(ts_mat_diff(&from_t, &id) == 0.0);
    ossa_qvs q = ossa_qvs_identity();
    ossa_mat34 from_q = ossa_mat34_from_qvs(q);
    CHECK(ts_mat_diff(&from_q, &id) == 0.0);
    CHECK(sizeof(ossa_transform) == 40);
    CHECK(sizeof(ossa_mat34) == 48);
    CHECK(sizeof(ossa_qvs) == 32);
}

TEST(quat_mul_matches_double_hamilton_product)
{
    ts_rng r = ts_rng_make(1);
    double worst = 0;
    for (int i = 0; i < RANDOM_CASES; ++i) {
        ossa_quat a = ts_quat(&r), b = ts_quat(&r);
        ts_dquat e = ts_dquat_mul(ts_dquat_from(a), ts_dquat_from(b));
        worst = fmax(worst, quat_diff(ossa_quat_mul(a, b), e));
    }
    CHECK_NEAR(worst, 0, MATH_TOL);
    /* i * j = k: apply j first, then i. */
    ossa_quat i = {1, 0, 0, 0}, j = {0, 1, 0, 0};
    ossa_quat k = ossa_quat_mul(i, j);
    CHECK(k.x == 0 && k.y == 0 && k.z == 1 && k.w == 0);
}

TEST(quat_rotate_matches_the_rotation_matrix)
{
    ts_rng r = ts_rng_make(2);
    double worst = 0;
    for (int i = 0; i < RANDOM_CASES; ++i) {
        ossa_transform t = ts_transform(&r, TS_SCALE_ONE);
        ossa_float3 v = ts_transform(&r, TS_SCALE_ONE).translation;
        t.translation = (ossa_float3){0, 0, 0};
        ts_dmat m = ts_dmat_from_transform(t);
        ossa_float3 got = ossa_quat_rotate(t.rotation, v);
        double x = m.m[0][0] * v.x + m.m[0][1] * v.y + m.m[0][2] * v.z;
        double y = m.m[1][0] * v.x + m.m[1][1] * v.y + m.m[1][2] * v.z;
        double z = m.m[2][0] * v.x + m.m[2][1] * v.y + m.m[2][2] * v.z;
        worst = fmax(worst, vec_diff(got, x, y, z));
    }
    CHECK_NEAR(worst, 0, MATH_TOL);
}

TEST(axis_angle_turns_x_into_y_about_z)
{
    ossa_quat q = ossa_quat_from_axis_angle((ossa_float3){0, 0, 2}, (float)(PI / 2));
    ossa_float3 v = ossa_quat_rotate(q, (ossa_float3){1, 0, 0});
    CHECK_NEAR(vec_diff(v, 0, 1, 0), 0, MATH_TOL);
    CHECK_NEAR(sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w), 1, MATH_TOL);
    /* A zero axis has no rotation. */
    ossa_quat none = ossa_quat_from_axis_angle((ossa_float3){0, 0, 0}, 1.0f);
    CHECK(none.x == 0 && none.y == 0 && none.z == 0 && none.w == 1);
}

TEST(quat_normalize_gives_unit_length_or_identity)
{
    ossa_quat q = ossa_quat_normalize((ossa_quat){3, 0, 4, 0});
    CHECK_NEAR(q.x, 0.6, MATH_TOL);
    CHECK_NEAR(q.z, 0.8, MATH_TOL);
    const ossa_quat bad[] = {{0, 0, 0, 0}, {NAN, 0, 0, 1}, {INFINITY, 0, 0, 1}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        ossa_quat n = ossa_quat_normalize(bad[i]);
        CHECK(n.x == 0 && n.y == 0 && n.z == 0 && n.w == 1);
    }
}

TEST(quat_normalize_handles_components_whose_squares_leave_float_range)
{
    /* |q|^2 overflows float above ~1.8e19 and goes subnormal below ~1e-19;
     * the expectation is q / |q| in double, where neither happens. */
    const ossa_quat cases[] = {{3e20f, 0, 4e20f, 0},
                               {FLT_MAX, -FLT_MAX, FLT_MAX, FLT_MAX},
                               {1e30f, 2e29f, -3e30f, 5e29f},
                               {3e-25f, 0, -4e-25f, 0},
                               {0, 1e-40f, 0, 0}, /* subnormal */
                               {2e-30f, -1e-30f, 4e-31f, 3e-30f},
                               {1e-20f, 0, 0, 1e-21f}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        const ossa_quat q = cases[i];
        const double len = sqrt((double)q.x * q.x + (double)q.y * q.y + (double)q.z * q.z +
                                (double)q.w * q.w);
        const ts_dquat want = {q.x / len, q.y / len, q.z / len, q.w / len};
        CHECK_NEAR(quat_diff(ossa_quat_normalize(q), want), 0, MATH_TOL);
    }
}

TEST(quat_angle_matches_double_and_ignores_sign)
{
    ts_rng r = ts_rng_make(3);
    double worst = 0;
    for (int i = 0; i < RANDOM_CASES; ++i) {
        ossa_quat a = ts_quat(&r), b = ts_quat(&r);
        double e = ts_dquat_angle(ts_dquat_from(a), ts_dquat_from(b));
        worst = fmax(worst, fabs(ossa_quat_angle(a, b) - e));
        ossa_quat nb = {-b.x, -b.y, -b.z, -b.w};
        worst = fmax(worst, fabs(ossa_quat_angle(a, nb) - e));
    }
    CHECK_NEAR(worst, 0, ANGLE_TOL);
    /* Small angles stay accurate (2 acos(w) would round 1e-4 rad to 0 or 3e-4). */
    ossa_quat id = {0, 0, 0, 1};
    ossa_quat tiny = ossa_quat_from_axis_angle((ossa_float3){0, 1, 0}, 1e-4f);
    CHECK_NEAR(ossa_quat_angle(id, tiny), 1e-4, SMALL_ANGLE_TOL);
    CHECK_NEAR(ossa_quat_angle(id, ossa_quat_from_axis_angle((ossa_float3){1, 0, 0}, 3.0f)), 3.0,
               ANGLE_TOL);
}

TEST(mat34_from_transform_matches_double)
{
    ts_rng r = ts_rng_make(4);
    double worst = 0;
    for (int i = 0; i < RANDOM_CASES; ++i) {
        ossa_transform t = ts_transform(&r, TS_SCALE_ANY);
        ossa_mat34 m = ossa_mat34_from_transform(t);
        ts_dmat e = ts_dmat_from_transform(t);
        worst = fmax(worst, ts_mat_diff(&m, &e));
    }
    CHECK_NEAR(worst, 0, MATH_TOL);
}

TEST(mat34_from_qvs_is_the_uniformly_scaled_transform)
{
    ts_rng r = ts_rng_make(5);
    double worst = 0;
    for (int i = 0; i < RANDOM_CASES; ++i) {
        ossa_transform t = ts_transform(&r, TS_SCALE_UNIFORM);
        ossa_qvs q = {t.rotation, t.translation, t.scale.x};
        ossa_mat34 m = ossa_mat34_from_qvs(q);
        ts_dmat e = ts_dmat_from_transform(t);
        worst = fmax(worst, ts_mat_diff(&m, &e));
    }
    CHECK_NEAR(worst, 0, MATH_TOL);
}

TEST(mat34_mul_applies_b_then_a)
{
    ts_rng r = ts_rng_make(6);
    double worst = 0;
    for (int i = 0; i < RANDOM_CASES; ++i) {
        ossa_transform ta = ts_transform(&r, TS_SCALE_ANY), tb = ts_transform(&r, TS_SCALE_ANY);
        ossa_mat34 a = ossa_mat34_from_transform(ta), b = ossa_mat34_from_transform(tb);
        ossa_mat34 ab = ossa_mat34_mul(&a, &b);
        ts_dmat da = ts_dmat_from_mat34(&a), db = ts_dmat_from_mat34(&b);
        ts_dmat e = ts_dmat_mul(&da, &db);
        worst = fmax(worst, ts_mat_diff(&ab, &e));
        /* (a b) p = a (b p) */
        ossa_float3 p = ts_transform(&r, TS_SCALE_ONE).translation;
        ossa_float3 bp = ossa_mat34_transform_point(&b, p);
        ossa_float3 abp = ossa_mat34_transform_point(&a, bp);
        ossa_float3 ab_p = ossa_mat34_transform_point(&ab, p);
        worst = fmax(worst, vec_diff(abp, ab_p.x, ab_p.y, ab_p.z) / 4);
    }
    CHECK_NEAR(worst, 0, 4 * MATH_TOL);
}

TEST(mat34_inverse_undoes_the_matrix)
{
    ts_rng r = ts_rng_make(7);
    double worst = 0, worst_ref = 0;
    for (int i = 0; i < RANDOM_CASES; ++i) {
        ossa_transform t = ts_transform(&r, TS_SCALE_ANY);
        ossa_mat34 m = ossa_mat34_from_transform(t);
        ossa_mat34 inv = ossa_mat34_inverse(&m);
        ossa_mat34 prod = ossa_mat34_mul(&m, &inv);
        ts_dmat id = ts_dmat_identity();
        worst = fmax(worst, ts_mat_diff(&prod, &id));
        ts_dmat dm = ts_dmat_from_mat34(&m);
        ts_dmat e = ts_dmat_inverse(&dm);
        worst_ref = fmax(worst_ref, ts_mat_diff(&inv, &e));
    }
    CHECK_NEAR(worst, 0, INVERSE_TOL);
    CHECK_NEAR(worst_ref, 0, INVERSE_TOL);
}

TEST(mat34_inverse_of_a_singular_matrix_is_identity)
{
    ossa_mat34 flat = ossa_mat34_from_transform(
        (ossa_transform){{1, 2, 3}, {0, 0, 0, 1}, {1, 0, 1}});
    ossa_mat34 inv = ossa_mat34_inverse(&flat);
    ts_dmat id = ts_dmat_identity();
    CHECK(ts_mat_diff(&inv, &id) == 0.0);
    ossa_mat34 nan = ossa_mat34_identity();
    nan.m[1][1] = NAN;
    inv = ossa_mat34_inverse(&nan);
    CHECK(ts_mat_diff(&inv, &id) == 0.0);
}

TEST(transform_point_translates_and_vector_does_not)
{
    ossa_transform t = {{1, 2, 3}, {0, 0, 0, 1}, {2, 3, 4}};
    ossa_mat34 m = ossa_mat34_from_transform(t);
    ossa_float3 p = ossa_mat34_transform_point(&m, (ossa_float3){1, 1, 1});
    ossa_float3 v = ossa_mat34_transform_vector(&m, (ossa_float3){1, 1, 1});
    CHECK(p.x == 3 && p.y == 5 && p.z == 7);
    CHECK(v.x == 2 && v.y == 3 && v.z == 4);
}

UTEST_MAIN(identities_are_identities, quat_mul_matches_double_hamilton_product,
           quat_rotate_matches_the_rotation_matrix, axis_angle_turns_x_into_y_about_z,
           quat_normalize_gives_unit_length_or_identity,
           quat_normalize_handles_components_whose_squares_leave_float_range,
           quat_angle_matches_double_and_ignores_sign, mat34_from_transform_matches_double,
           mat34_from_qvs_is_the_uniformly_scaled_transform, mat34_mul_applies_b_then_a,
           mat34_inverse_undoes_the_matrix, mat34_inverse_of_a_singular_matrix_is_identity,
           transform_point_translates_and_vector_does_not)
