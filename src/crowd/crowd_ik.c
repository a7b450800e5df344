/* crowd_ik.c - the crowd's IK stage for one batch: feet planted on the
 * ground's height field by two-bone IK with the pelvis lowered so both
 * reach, heads turned toward a point by an aim chain, then local->model
 * again; and the IK joints resolved from the crowd's desc. */
#include "crowd_internal.h"

#include <math.h>
#include <string.h>

/* How far into its reach a leg may stretch before the pelvis drops (or as
 * far as the animation stretched it, if further: on flat ground IK changes
 * nothing). */
#define IK_LEG_STRETCH 0.97f
/* The pelvis drops at most this fraction of the shorter leg's length. */
#define IK_MAX_DROP 0.25f
/* Look weight against the cosine of the angle between a character's facing
 * and the direction to the target (ground plane): none past 110 degrees,
 * full within 78. */
#define IK_LOOK_COS_NONE -0.342f
#define IK_LOOK_COS_FULL 0.2f

float ossa_crowd_ground_height(const ossa_crowd_ground *g, float x, float z)
{
    if (!g || !g->heights || g->columns < 1 || g->rows < 1 || !(g->cell_size > 0.0f))
        return 0.0f;
    float u = (x - g->origin_x) / g->cell_size, v = (z - g->origin_z) / g->cell_size;
    const float umax = (float)(g->columns - 1), vmax = (float)(g->rows - 1);
    u = u > 0.0f ? (u < umax ? u : umax) : 0.0f; /* NaN: 0 */
    v = v > 0.0f ? (v < vmax ? v : vmax) : 0.0f;
    const int c0 = (int)u, r0 = (int)v;
    const int c1 = c0 + 1 < g->columns ? c0 + 1 : c0, r1 = r0 + 1 < g->rows ? r0 + 1 : r0;
    const float fu = u - (float)c0, fv = v - (float)r0;
    const float *h = g->heights;
    const size_t cols = (size_t)g->columns;
    const float a = h[(size_t)r0 * cols + (size_t)c0], b = h[(size_t)r0 * cols + (size_t)c1];
    const float c = h[(size_t)r1 * cols + (size_t)c0], d = h[(size_t)r1 * cols + (size_t)c1];
    const float top = a + (b - a) * fu, bottom = c + (d - c) * fu;
    return top + (bottom - top) * fv;
}

/* ---- the joints, from the desc ---- */

static bool is_ancestor(const uint16_t *parents, int ancestor, int joint)
{
    while (joint > ancestor && parents[joint] != OSSA_NO_PARENT)
        joint = parents[joint];
    return joint == ancestor;
}

static bool finite3(ossa_float3 v)
{
    return isfinite(v.x) && isfinite(v.y) && isfinite(v.z);
}

ossa_result ossai_crowd_ik_resolve(const ossa_crowd_desc *d, crowd_ik *out)
{
    crowd_ik ik;
    memset(&ik, 0, sizeof ik);
    const ossa_crowd_ik_desc *x = d->ik;
    if (!x) {
        if (out)
            *out = ik;
        return OSSA_OK;
    }
    static const char *const leg_defaults[6] = {"thigh_l", "calf_l", "foot_l",
                                                "thigh_r", "calf_r", "foot_r"};
    static const char *const look_defaults[3] = {"spine_03", "neck_01", "head"};
    const ossa_skeleton *sk = d->skeleton;
    const uint16_t *parents = ossa_skeleton_parents(sk);
    const char *const *legs = x->leg_names ? x->leg_names : leg_defaults;
    for (int i = 0; i < 6; ++i)
        if (!legs[i] || (ik.leg[i / 3][i % 3] = ossa_skeleton_find_joint(sk, legs[i])) < 0)
            return OSSA_ERR_NOT_FOUND;
    ik.pelvis = ossa_skeleton_find_joint(sk, x->pelvis_name ? x->pelvis_name : "hips");
    if (ik.pelvis < 0)
        return OSSA_ERR_NOT_FOUND;
    ik.pelvis_parent = parents[ik.pelvis] == OSSA_NO_PARENT ? -1 : parents[ik.pelvis];
    for (int leg = 0; leg < 2; ++leg)
        if (!is_ancestor(parents, ik.pelvis, ik.leg[leg][0]) ||
            ik.leg[leg][0] >= ik.leg[leg][1] || ik.leg[leg][1] >= ik.leg[leg][2] ||
            !is_ancestor(parents, ik.leg[leg][0], ik.leg[leg][1]) ||
            !is_ancestor(parents, ik.leg[leg][1], ik.leg[leg][2]))
            return OSSA_ERR_BAD_INDEX;
    const char *const *look = x->look_names ? x->look_names : look_defaults;
    ik.look_count = x->look_names ? x->look_count : 3;
    if (ik.look_count < 1 || ik.look_count > OSSA_IK_MAX_CHAIN)
        return OSSA_ERR_BAD_ARGUMENT;
    for (int k = 0; k < ik.look_count; ++k) {
        const int j = look[k] ? ossa_skeleton_find_joint(sk, look[k]) : -1;
        if (j < 0)
            return OSSA_ERR_NOT_FOUND;
        ik.chain[k] = (uint16_t)j;
        if (k > 0 && (ik.chain[k - 1] >= j || !is_ancestor(parents, ik.chain[k - 1], j)))
            return OSSA_ERR_BAD_INDEX;
        const float w = x->look_weights ? x->look_weights[k] : (k == 0 ? 1.0f : 0.5f);
        if (!(w >= 0.0f && w <= 1.0f))
            return OSSA_ERR_BAD_VALUE;
        ik.chain_weight[k] = w;
        ik.chain_dropped[k] = is_ancestor(parents, ik.pelvis, j);
    }
    if (!finite3(x->knee_axis) || !finite3(x->eye_offset) || !finite3(x->eye_forward) ||
        !finite3(x->eye_up))
        return OSSA_ERR_BAD_VALUE;
    const bool axis = x->knee_axis.x != 0.0f || x->knee_axis.y != 0.0f || x->knee_axis.z != 0.0f;
    const bool up = x->eye_up.x != 0.0f || x->eye_up.y != 0.0f || x->eye_up.z != 0.0f;
    ik.knee_axis = axis ? x->knee_axis : (ossa_float3){1.0f, 0.0f, 0.0f};
    ik.eye_offset = x->eye_offset;
    ik.eye_forward = x->eye_forward; /* zero: the aim job's +z */
    ik.eye_up = up ? x->eye_up : (ossa_float3){0.0f, 1.0f, 0.0f};
    ik.legs = ik.look = true;
    if (out)
        *out = ik;
    return OSSA_OK;
}

ossa_result ossa_crowd_set_ground(ossa_crowd *c, const ossa_crowd_ground *ground)
{
    if (!c)
        return OSSA_ERR_MISSING_INPUT;
    if (!c->ik.legs)
        return OSSA_ERR_BAD_ARGUMENT;
    if (!ground) {
        memset(&c->ik.ground, 0, sizeof c->ik.ground);
        return OSSA_OK;
    }
    if (!ground->heights)
        return OSSA_ERR_MISSING_INPUT;
    if (ground->columns < 1 || ground->rows < 1)
        return OSSA_ERR_BAD_ARGUMENT;
    if (!(ground->cell_size > 0.0f) || !isfinite(ground->cell_size) ||
        !isfinite(ground->origin_x) || !isfinite(ground->origin_z))
        return OSSA_ERR_BAD_VALUE;
    c->ik.ground = *ground;
    return OSSA_OK;
}

ossa_result ossa_crowd_set_look_target(ossa_crowd *c, ossa_float3 target, float weight)
{
    if (!c)
        return OSSA_ERR_MISSING_INPUT;
    if (!c->ik.look)
        return OSSA_ERR_BAD_ARGUMENT;
    if (!finite3(target) || !(weight >= 0.0f && weight <= 1.0f))
        return OSSA_ERR_BAD_VALUE;
    c->ik.look_target = target;
    c->ik.look_weight = weight;
    return OSSA_OK;
}

/* ---- one batch ---- */

/* Lane l's value of component k of joint j in a lane buffer of C components. */
#define LANE(buffer, C, j, k, l) ((buffer)[((size_t)(j) * (C) + (size_t)(k)) * (size_t)w + (size_t)(l)])

static ossa_float3 lane_position(const float *model, int w, int joint, int l)
{
    enum { C = OSSA_LANE_MODEL_COMPONENTS };
    return (ossa_float3){LANE(model, C, joint, 3, l), LANE(model, C, joint, 7, l),
                         LANE(model, C, joint, 11, l)};
}

static float distance(ossa_float3 a, ossa_float3 b)
{
    const float x = a.x - b.x, y = a.y - b.y, z = a.z - b.z;
    return sqrtf(x * x + y * y + z * z);
}

/* How far the hip must come down for a target to be within `r` of it: the
 * hip moves along -y only. */
static float drop_for(ossa_float3 hip, ossa_float3 target, float r)
{
    const float dx = target.x - hip.x, dz = target.z - hip.z, below = hip.y - target.y;
    const float across = r * r - dx * dx - dz * dz;
    const float need = below - sqrtf(across > 0.0f ? across : 0.0f);
    return need > 0.0f ? need : 0.0f;
}

/* Feet targets over the ground and the pelvis dropped (in the
 * lane model of every moved joint and in the pelvis's local translation). */
static void plant_feet(const ossa_crowd *c, int first, int n, float *pose, float *model,
                       const ossa_mat34 *root, ossa_float3 targets[2][OSSA_LANE_MAX_WIDTH])
{
    enum { M = OSSA_LANE_MODEL_COMPONENTS, P = OSSA_LANE_POSE_COMPONENTS };
    const crowd_ik *ik = &c->ik;
    const int w = c->width;
    for (int l = 0; l < n; ++l) {
        const int s = first + l;
        float drop = 0.0f, shortest = INFINITY;
        for (int leg = 0; leg < 2; ++leg) {
            const ossa_float3 hip = lane_position(model, w, ik->leg[leg][0], l);
            const ossa_float3 knee = lane_position(model, w, ik->leg[leg][1], l);
            const ossa_float3 foot = lane_position(model, w, ik->leg[leg][2], l);
            const float ground = ossa_crowd_ground_height(&ik->ground, foot.x, foot.z);
            targets[leg][l] = (ossa_float3){foot.x, ground + (foot.y - c->pos_y[s]), foot.z};
            const float reach = distance(hip, knee) + distance(knee, foot);
            const float stretch = IK_LEG_STRETCH * reach, animated = distance(hip, foot);
            const float need =
                drop_for(hip, targets[leg][l], animated > stretch ? animated : stretch);
            drop = need > drop ? need : drop;
            shortest = reach < shortest ? reach : shortest;
        }
        drop = drop < IK_MAX_DROP * shortest ? drop : IK_MAX_DROP * shortest;
        /* everything below the pelvis comes down by `drop`: the joints IK
         * reads, in the lane model; the pelvis, in its parent's frame */
        for (int leg = 0; leg < 2; ++leg)
            for (int k = 0; k < 3; ++k)
                LANE(model, M, ik->leg[leg][k], 7, l) -= drop;
        for (int k = 0; k < ik->look_count; ++k)
            if (ik->chain_dropped[k])
                LANE(model, M, ik->chain[k], 7, l) -= drop;
        float m[3][3];
        for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j)
                m[i][j] = ik->pelvis_parent < 0 ? root[l].m[i][j]
                                                : LANE(model, M, ik->pelvis_parent, 4 * i + j, l);
        const float s2 = m[0][0] * m[0][0] + m[1][0] * m[1][0] + m[2][0] * m[2][0];
        for (int k = 0; k < 3; ++k) /* M^T (0, -drop, 0) / s^2: the drop in the parent's frame */
            LANE(pose, P, ik->pelvis, k, l) -= m[1][k] * drop / s2;
    }
}

/* How much character l looks: the game's weight, faded with the angle
 * between its facing and the target (ground plane). */
static float look_weight(const ossa_crowd *c, int s, ossa_float3 head)
{
    const crowd_ik *ik = &c->ik;
    const float dx = ik->look_target.x - head.x, dz = ik->look_target.z - head.z;
    const float len = sqrtf(dx * dx + dz * dz);
    const float cosine = len > 0.0f ? (dx * c->sin_yaw[s] + dz * c->cos_yaw[s]) / len : 1.0f;
    float t = (cosine - IK_LOOK_COS_NONE) / (IK_LOOK_COS_FULL - IK_LOOK_COS_NONE);
    t = t > 0.0f ? (t < 1.0f ? t : 1.0f) : 0.0f;
    return ik->look_weight * t * t * (3.0f - 2.0f * t);
}

ossa_result ossai_crowd_ik(const ossa_crowd *c, int first, int n, float *pose, int pose_floats,
                           float *model, int model_floats, const ossa_mat34 *root)
{
    const crowd_ik *ik = &c->ik;
    const bool feet = ik->legs && ik->ground.heights;
    const bool look = ik->look && ik->look_weight > 0.0f;
    if (!feet && !look)
        return OSSA_OK;
    ossai_crowd_stage(c, OSSA_CROWD_STAGE_IK);
    const int w = c->width;
    ossa_result r = OSSA_OK;
    if (feet) {
        ossa_float3 targets[2][OSSA_LANE_MAX_WIDTH];
        plant_feet(c, first, n, pose, model, root, targets);
        ossa_lane_ik_two_bone_job leg = {0};
        leg.parents = c->parents;
        leg.joint_count = c->joint_count;
        leg.model = model;
        leg.model_count = model_floats;
        leg.local = pose;
        leg.local_count = pose_floats;
        leg.character_count = n;
        leg.width = w;
        leg.path = c->path;
        leg.target_count = n;
        /* no pole: each leg keeps the plane the animation bent it in (the
         * knee where the animation points it), turned as little as the
         * target needs */
        leg.mid_axis = ik->knee_axis;
        for (int k = 0; k < 2 && r == OSSA_OK; ++k) {
            leg.start_joint = ik->leg[k][0];
            leg.mid_joint = ik->leg[k][1];
            leg.end_joint = ik->leg[k][2];
            leg.targets = targets[k];
            r = ossa_lane_ik_two_bone_job_run(&leg);
        }
    }
    if (look && r == OSSA_OK) {
        float weights[OSSA_LANE_MAX_WIDTH];
        const int tip = ik->chain[ik->look_count - 1];
        for (int l = 0; l < n; ++l)
            weights[l] = look_weight(c, first + l, lane_position(model, w, tip, l));
        ossa_lane_ik_aim_job aim = {0};
        aim.parents = c->parents;
        aim.joint_count = c->joint_count;
        aim.chain = ik->chain;
        aim.chain_count = ik->look_count;
        aim.chain_weights = ik->chain_weight;
        aim.model = model;
        aim.model_count = model_floats;
        aim.local = pose;
        aim.local_count = pose_floats;
        aim.character_count = n;
        aim.width = w;
        aim.path = c->path;
        aim.target = ik->look_target;
        aim.pole = (ossa_float3){0.0f, 1.0f, 0.0f};
        aim.weights = weights;
        aim.weight_count = n;
        aim.forward = ik->eye_forward;
        aim.offset = ik->eye_offset;
        aim.up = ik->eye_up;
        r = ossa_lane_ik_aim_job_run(&aim);
    }
    if (r != OSSA_OK)
        return r;
    ossa_lane_local_to_model_job l2m = {0};
    l2m.parents = c->parents;
    l2m.joint_count = c->joint_count;
    l2m.local = pose;
    l2m.local_count = pose_floats;
    l2m.character_count = n;
    l2m.root = root;
    l2m.root_count = n;
    l2m.width = w;
    l2m.path = c->path;
    l2m.model = model;
    l2m.model_count = model_floats;
    return ossa_lane_local_to_model_job_run(&l2m);
}
