/* scene_ik.c - see scene_ik.h. */
#include "scene_ik.h"

#include <math.h>
#include <string.h>

#include "cli.h"

/* The crowd's rules (crowd_ik.c): legs stretch to 0.97 of their reach (or
 * as far as the animation has them) before the pelvis drops, at most a
 * quarter of the shorter leg; heads look less as the point goes behind. */
#define LEG_STRETCH 0.97f
#define MAX_DROP 0.25f

void scene_ik_init(scene_ik *k, const ossa_skeleton *s, ossa_float3 min, ossa_float3 max,
                   float height)
{
    memset(k, 0, sizeof *k);
    static const char *const names[9] = {"thigh_l", "calf_l", "foot_l",   "thigh_r", "calf_r",
                                         "foot_r",  "spine_03", "neck_01", "head"};
    int at[9];
    for (int i = 0; i < 9; ++i)
        if ((at[i] = ossa_skeleton_find_joint(s, names[i])) < 0)
            return;
    const int hips = ossa_skeleton_find_joint(s, "hips");
    if (hips < 0)
        return;
    for (int i = 0; i < 6; ++i)
        k->leg[i / 3][i % 3] = at[i];
    for (int i = 0; i < 3; ++i)
        k->chain[i] = (uint16_t)at[6 + i];
    const uint16_t *parents = ossa_skeleton_parents(s);
    k->pelvis = hips;
    k->pelvis_parent = parents[hips] == OSSA_NO_PARENT ? -1 : parents[hips];
    const int eye_l = ossa_skeleton_find_joint(s, "eye_l"), eye_r = ossa_skeleton_find_joint(s, "eye_r");
    if (eye_l >= 0 && eye_r >= 0 && parents[eye_l] == at[8] && parents[eye_r] == at[8]) {
        const ossa_transform *rest = ossa_skeleton_rest_pose(s);
        const ossa_float3 a = rest[eye_l].translation, b = rest[eye_r].translation;
        k->eye_offset = (ossa_float3){0.5f * (a.x + b.x), 0.5f * (a.y + b.y), 0.5f * (a.z + b.z)};
    }
    k->height = height;
    if (!ground_relief_make(&k->relief, min.x, min.z, max.x, max.z, height))
        return;
    k->min = min;
    k->max = max;
    k->centre = (ossa_float3){0.5f * (min.x + max.x), 0.0f, 0.5f * (min.z + max.z)};
    k->centre.y = ground_relief_height(&k->relief, k->centre.x, k->centre.z);
    k->on = true;
}

void scene_ik_fini(scene_ik *k)
{
    ground_relief_free(&k->relief);
    memset(k, 0, sizeof *k);
}

void scene_ik_follow(scene_ik *k, ossa_float3 offset)
{
    if (!k->on)
        return;
    const float dx = offset.x - k->shift.x, dz = offset.z - k->shift.z;
    const float quarter = 0.25f * 2.0f * k->height; /* ground_relief's margin is 2 x height */
    if (fabsf(dx) < quarter && fabsf(dz) < quarter)
        return;
    /* moved by whole cells, so the samples fall where the old ones did */
    const float cell = k->relief.ground.cell_size;
    const ossa_float3 shift = {cell * roundf(offset.x / cell), 0.0f, cell * roundf(offset.z / cell)};
    ground_relief moved;
    if (!ground_relief_make(&moved, k->min.x + shift.x, k->min.z + shift.z, k->max.x + shift.x,
                            k->max.z + shift.z, k->height))
        return; /* keeps the hills it has */
    ground_relief_free(&k->relief);
    k->relief = moved;
    k->centre.x += shift.x - k->shift.x;
    k->centre.z += shift.z - k->shift.z;
    k->centre.y = ground_relief_height(&k->relief, k->centre.x, k->centre.z);
    k->shift = shift;
}

void scene_ik_place(const scene_ik *k, ossa_mat34 *placements, int count)
{
    if (!k->on)
        return;
    for (int i = 0; i < count; ++i)
        placements[i].m[1][3] =
            ground_relief_height(&k->relief, placements[i].m[0][3], placements[i].m[2][3]);
}

static ossa_float3 position(const ossa_mat34 *m)
{
    return (ossa_float3){m->m[0][3], m->m[1][3], m->m[2][3]};
}

static float distance(ossa_float3 a, ossa_float3 b)
{
    const float x = a.x - b.x, y = a.y - b.y, z = a.z - b.z;
    return sqrtf(x * x + y * y + z * z);
}

/* Character i's feet targets (model space) and its pelvis dropped. */
static void plant(const scene_ik *k, ossa_transform *local, ossa_mat34 *model,
                  const ossa_mat34 *place, ossa_float3 target[2])
{
    float drop = 0.0f, shortest = INFINITY;
    for (int leg = 0; leg < 2; ++leg) {
        const ossa_float3 hip = position(&model[k->leg[leg][0]]);
        const ossa_float3 knee = position(&model[k->leg[leg][1]]);
        const ossa_float3 foot = position(&model[k->leg[leg][2]]);
        const ossa_float3 at = ossa_mat34_transform_point(place, foot);
        const float ground = ground_relief_height(&k->relief, at.x, at.z);
        target[leg] = (ossa_float3){foot.x, ground - place->m[1][3] + foot.y, foot.z};
        const float reach = distance(hip, knee) + distance(knee, foot);
        const float r = fmaxf(LEG_STRETCH * reach, distance(hip, foot));
        const float dx = target[leg].x - hip.x, dz = target[leg].z - hip.z;
        const float need = hip.y - target[leg].y - sqrtf(fmaxf(r * r - dx * dx - dz * dz, 0.0f));
        drop = fmaxf(drop, need);
        shortest = fminf(shortest, reach);
    }
    drop = fminf(drop, MAX_DROP * shortest);
    for (int leg = 0; leg < 2; ++leg)
        for (int j = 0; j < 3; ++j)
            model[k->leg[leg][j]].m[1][3] -= drop;
    for (int j = 0; j < 3; ++j)
        model[k->chain[j]].m[1][3] -= drop;
    const ossa_mat34 *p = k->pelvis_parent >= 0 ? &model[k->pelvis_parent] : NULL;
    const float s2 = p ? p->m[0][0] * p->m[0][0] + p->m[1][0] * p->m[1][0] + p->m[2][0] * p->m[2][0]
                       : 1.0f;
    ossa_float3 *t = &local[k->pelvis].translation;
    t->x -= (p ? p->m[1][0] : 0.0f) * drop / s2;
    t->y -= (p ? p->m[1][1] : 1.0f) * drop / s2;
    t->z -= (p ? p->m[1][2] : 0.0f) * drop / s2;
}

ossa_result scene_ik_apply(const scene_ik *k, const ossa_skeleton *s, ossa_transform *local,
                           ossa_mat34 *model, const ossa_mat34 *placements, int count,
                           float time_s)
{
    if (!k->on)
        return OSSA_OK;
    const int joints = ossa_skeleton_joint_count(s);
    const size_t n = (size_t)count;
    ossa_float3 *targets = cli_alloc(sizeof(ossa_float3) * 3 * n);
    float *weights = cli_alloc(sizeof(float) * n);
    /* the point the heads follow: circling the crowd's middle at about head
     * height, once every 12 seconds */
    const float a = 6.2831853f * time_s / 12.0f, radius = 2.0f * k->height;
    const ossa_float3 point = {k->centre.x + radius * cosf(a), k->centre.y + 1.1f * k->height,
                               k->centre.z + radius * sinf(a)};
    for (int i = 0; i < count; ++i) {
        ossa_float3 t[2];
        const ossa_mat34 *m = model + (size_t)i * (size_t)joints;
        plant(k, local + (size_t)i * (size_t)joints, model + (size_t)i * (size_t)joints,
              &placements[i], t);
        targets[i] = t[0];
        targets[n + (size_t)i] = t[1];
        /* model space: the placement turns about +y and translates */
        const ossa_mat34 *p = &placements[i];
        const float wx = point.x - p->m[0][3], wz = point.z - p->m[2][3];
        const ossa_float3 look = {p->m[0][0] * wx + p->m[2][0] * wz, point.y - p->m[1][3],
                                  p->m[0][2] * wx + p->m[2][2] * wz};
        targets[2 * n + (size_t)i] = look;
        const ossa_float3 head = position(&m[k->chain[2]]);
        const float dx = look.x - head.x, dz = look.z - head.z, len = sqrtf(dx * dx + dz * dz);
        float u = ((len > 0.0f ? dz / len : 1.0f) + 0.342f) / (0.2f + 0.342f); /* facing +z */
        u = fminf(fmaxf(u, 0.0f), 1.0f);
        weights[i] = u * u * (3.0f - 2.0f * u);
    }
    ossa_ik_two_bone_job leg = {0};
    leg.parents = ossa_skeleton_parents(s);
    leg.joint_count = joints;
    leg.model = model;
    leg.model_count = count * joints;
    leg.local = local;
    leg.local_count = count * joints;
    leg.character_count = count;
    leg.target_count = count;
    leg.mid_axis = (ossa_float3){1.0f, 0.0f, 0.0f};
    ossa_result r = OSSA_OK;
    for (int side = 0; side < 2 && r == OSSA_OK; ++side) {
        leg.start_joint = k->leg[side][0];
        leg.mid_joint = k->leg[side][1];
        leg.end_joint = k->leg[side][2];
        leg.targets = targets + (size_t)side * n;
        r = ossa_ik_two_bone_job_run(&leg);
    }
    static const float chain_weights[3] = {1.0f, 0.5f, 0.5f};
    ossa_ik_aim_job aim = {0};
    aim.parents = leg.parents;
    aim.joint_count = joints;
    aim.chain = k->chain;
    aim.chain_count = 3;
    aim.chain_weights = chain_weights;
    aim.model = model;
    aim.model_count = count * joints;
    aim.local = local;
    aim.local_count = count * joints;
    aim.character_count = count;
    aim.targets = targets + 2 * n;
    aim.target_count = count;
    aim.pole = (ossa_float3){0.0f, 1.0f, 0.0f};
    aim.weights = weights;
    aim.weight_count = count;
    aim.offset = k->eye_offset;
    aim.up = (ossa_float3){0.0f, 1.0f, 0.0f};
    if (r == OSSA_OK)
        r = ossa_ik_aim_job_run(&aim);
    ossa_local_to_model_job l2m = {0};
    l2m.parents = leg.parents;
    l2m.joint_count = joints;
    l2m.local = local;
    l2m.local_count = count * joints;
    l2m.character_count = count;
    l2m.model = model;
    l2m.model_count = count * joints;
    if (r == OSSA_OK)
        r = ossa_local_to_model_job_run(&l2m);
    cli_free(targets);
    cli_free(weights);
    return r;
}
