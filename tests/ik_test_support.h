/* ik_test_support.h - shared by the IK tests (ik_*_test.c): double-precision
 * vectors, random limbs and chains, and their model transforms computed in
 * double from a local pose (the independent expectation) or in float by
 * ossa_local_to_model_job (the input the IK jobs read). */
#ifndef OSSA_IK_TEST_SUPPORT_H
#define OSSA_IK_TEST_SUPPORT_H

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ossa/ossa.h"
#include "test_support.h"

#define IK_PI 3.14159265358979323846

/* ---- double vectors ---- */
typedef struct dv3 {
    double x, y, z;
} dv3;

static inline dv3 dv(double x, double y, double z)
{
    dv3 r = {x, y, z};
    return r;
}
static inline dv3 dv_f(ossa_float3 a) { return dv(a.x, a.y, a.z); }
static inline ossa_float3 dv_to_f(dv3 a)
{
    ossa_float3 r = {(float)a.x, (float)a.y, (float)a.z};
    return r;
}
static inline dv3 dv_add(dv3 a, dv3 b) { return dv(a.x + b.x, a.y + b.y, a.z + b.z); }
static inline dv3 dv_sub(dv3 a, dv3 b) { return dv(a.x - b.x, a.y - b.y, a.z - b.z); }
static inline dv3 dv_scale(dv3 a, double s) { return dv(a.x * s, a.y * s, a.z * s); }
static inline double dv_dot(dv3 a, dv3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static inline double dv_len(dv3 a) { return sqrt(dv_dot(a, a)); }
static inline dv3 dv_unit(dv3 a) { return dv_scale(a, 1.0 / dv_len(a)); }
static inline dv3 dv_cross(dv3 a, dv3 b)
{
    return dv(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
/* a without its component along the unit n. */
static inline dv3 dv_across(dv3 a, dv3 n) { return dv_sub(a, dv_scale(n, dv_dot(a, n))); }
/* Angle between two vectors, in [0, pi]. */
static inline double dv_angle(dv3 a, dv3 b)
{
    return atan2(dv_len(dv_cross(a, b)), dv_dot(a, b));
}
/* Signed angle from a to b about the unit axis n (both taken across n). */
static inline double dv_signed_angle(dv3 a, dv3 b, dv3 n)
{
    a = dv_across(a, n);
    b = dv_across(b, n);
    return atan2(dv_dot(n, dv_cross(a, b)), dv_dot(a, b));
}
static inline dv3 dv_random_unit(ts_rng *r)
{
    for (;;) {
        dv3 v = dv(ts_uniform(r, -1, 1), ts_uniform(r, -1, 1), ts_uniform(r, -1, 1));
        const double l = dv_len(v);
        if (l > 0.1 && l <= 1.0)
            return dv_scale(v, 1.0 / l);
    }
}
/* A random unit vector at least `min_angle` away from the direction of a
 * (and of -a). */
static inline dv3 dv_random_unit_away(ts_rng *r, dv3 a, double min_angle)
{
    for (;;) {
        dv3 v = dv_random_unit(r);
        const double angle = dv_angle(v, a);
        if (angle > min_angle && angle < IK_PI - min_angle)
            return v;
    }
}

static inline dv3 dmat_pos(const ts_dmat *m) { return dv(m->m[0][3], m->m[1][3], m->m[2][3]); }
/* m's linear part times v. */
static inline dv3 dmat_apply(const ts_dmat *m, dv3 v)
{
    return dv(m->m[0][0] * v.x + m->m[0][1] * v.y + m->m[0][2] * v.z,
              m->m[1][0] * v.x + m->m[1][1] * v.y + m->m[1][2] * v.z,
              m->m[2][0] * v.x + m->m[2][1] * v.y + m->m[2][2] * v.z);
}
static inline dv3 dmat_point(const ts_dmat *m, dv3 p) { return dv_add(dmat_apply(m, p), dmat_pos(m)); }

static inline dv3 dq_rotate(ts_dquat q, dv3 v)
{
    const dv3 u = dv(q.x, q.y, q.z);
    const dv3 t = dv_scale(dv_cross(u, v), 2.0);
    return dv_add(dv_add(v, dv_scale(t, q.w)), dv_cross(u, t));
}
static inline ts_dquat dq_axis_angle(dv3 axis, double angle)
{
    const dv3 a = dv_unit(axis);
    const double s = sin(angle / 2);
    ts_dquat q = {a.x * s, a.y * s, a.z * s, cos(angle / 2)};
    return q;
}
static inline ossa_quat dq_to_f(ts_dquat q)
{
    ossa_quat r = {(float)q.x, (float)q.y, (float)q.z, (float)q.w};
    return r;
}

static inline bool quat_is_finite(ossa_quat q)
{
    return isfinite(q.x) && isfinite(q.y) && isfinite(q.z) && isfinite(q.w);
}

static inline bool pose_is_finite(const ossa_transform *t, int count)
{
    for (int i = 0; i < count; ++i)
        if (!quat_is_finite(t[i].rotation) || !isfinite(t[i].translation.x) ||
            !isfinite(t[i].translation.y) || !isfinite(t[i].translation.z))
            return false;
    return true;
}

/* ---- poses and their model transforms ---- */

/* Float model transforms of `characters` poses, by the library's walk. */
static inline void ik_model_float(const uint16_t *parents, int joints, int characters,
                                  const ossa_transform *local, ossa_mat34 *model)
{
    ossa_local_to_model_job job;
    memset(&job, 0, sizeof job);
    job.parents = parents;
    job.joint_count = joints;
    job.local = local;
    job.local_count = joints * characters;
    job.character_count = characters;
    job.model = model;
    job.model_count = joints * characters;
    if (ossa_local_to_model_job_run(&job) != OSSA_OK)
        abort();
}

/* Double model transforms of character c's pose (joints <= 64). */
static inline void ik_model_double(const uint16_t *parents, int joints, int c,
                                   const ossa_transform *local, ts_dmat *model)
{
    ts_model_flat(parents, local + (size_t)c * (size_t)joints, joints, NULL, model);
}

/* ---- limbs: root, start, mid, end, toe ---- */

#define LIMB_JOINTS 5
enum { L_ROOT, L_START, L_MID, L_END, L_TOE };
static const uint16_t limb_parents[LIMB_JOINTS] = {0xFFFF, 0, 1, 2, 3};

typedef enum limb_kind {
    LIMB_KNEE,   /* both bones across the hinge axis, like a knee */
    LIMB_GENERAL /* bones at any angle to the hinge axis */
} limb_kind;

/* A random limb pose: random root (uniform scale in [0.5, 2] when scaled),
 * start and mid rotations, bones of length [0.3, 1], and the hinge axis in
 * the mid joint's frame. */
static inline void limb_random(ts_rng *r, limb_kind kind, bool scaled, ossa_transform *pose,
                               ossa_float3 *hinge)
{
    for (int j = 0; j < LIMB_JOINTS; ++j)
        pose[j] = ts_transform(r, TS_SCALE_ONE);
    if (scaled)
        pose[L_ROOT] = ts_transform_range(r, TS_SCALE_UNIFORM, 0.5, 2.0);
    const dv3 b1 = dv_random_unit(r); /* the start bone, in start's frame */
    const double l1 = ts_uniform(r, 0.3, 1.0), l2 = ts_uniform(r, 0.3, 1.0);
    pose[L_MID].translation = dv_to_f(dv_scale(b1, l1));
    const ts_dquat rm = ts_dquat_from(pose[L_MID].rotation);
    /* the start bone seen from the mid joint, in its frame */
    const ts_dquat rm_inv = {-rm.x, -rm.y, -rm.z, rm.w};
    const dv3 back = dq_rotate(rm_inv, dv_scale(b1, -1.0));
    dv3 h, b2;
    if (kind == LIMB_KNEE) {
        h = dv_unit(dv_cross(back, dv_random_unit_away(r, back, 0.3)));
        b2 = dv_unit(dv_cross(h, dv_random_unit_away(r, h, 0.3)));
    } else {
        h = dv_random_unit(r);
        b2 = dv_random_unit_away(r, h, 0.3);
    }
    *hinge = dv_to_f(h);
    pose[L_END].translation = dv_to_f(dv_scale(b2, l2));
}

/* The job over `characters` poses, limb joints, everything else default. */
static inline ossa_ik_two_bone_job limb_job(ossa_transform *local, const ossa_mat34 *model,
                                            int characters)
{
    ossa_ik_two_bone_job job;
    memset(&job, 0, sizeof job);
    job.parents = limb_parents;
    job.joint_count = LIMB_JOINTS;
    job.start_joint = L_START;
    job.mid_joint = L_MID;
    job.end_joint = L_END;
    job.model = model;
    job.model_count = LIMB_JOINTS * characters;
    job.local = local;
    job.local_count = LIMB_JOINTS * characters;
    job.character_count = characters;
    return job;
}

/* ---- aim chains: root, spine, chest, neck, head, eye ---- */

/* The chain the tests aim is spine, neck, head: not all direct parents. */
#define CHAIN_JOINTS 6
enum { C_ROOT, C_SPINE, C_CHEST, C_NECK, C_HEAD, C_EYE };
static const uint16_t chain_parents[CHAIN_JOINTS] = {0xFFFF, 0, 1, 2, 3, 4};

/* Random rotations, bones of length [0.05, 0.3], the root with a uniform
 * scale in [0.5, 2] when scaled. */
static inline void chain_random_pose(ts_rng *r, bool scaled, ossa_transform *pose)
{
    for (int j = 0; j < CHAIN_JOINTS; ++j) {
        pose[j] = ts_transform(r, TS_SCALE_ONE);
        pose[j].translation = dv_to_f(dv_scale(dv_random_unit(r), ts_uniform(r, 0.05, 0.3)));
    }
    if (scaled)
        pose[C_ROOT] = ts_transform_range(r, TS_SCALE_UNIFORM, 0.5, 2.0);
}

#endif /* OSSA_IK_TEST_SUPPORT_H */
