/* scene_ik.h - IK in `ossa render` and `ossa view`: the scene's characters
 * stand on a ground relief with their feet planted on it (the pelvis lowered
 * when a foot needs it) and turn their heads toward a point circling over
 * them - the rules of the crowd's IK stage (src/crowd/crowd_ik.c), here on
 * the readable path: the reference jobs, one character at a time, in model
 * space under placements that turn about +y and translate (root motion's). */
#ifndef OSSA_SCENE_IK_H
#define OSSA_SCENE_IK_H

#include <stdbool.h>

#include "ground_relief.h"
#include "ossa/ossa.h"

typedef struct scene_ik {
    bool on; /* the skeleton has the joints (the default character's names) */
    int leg[2][3], pelvis, pelvis_parent;
    uint16_t chain[3];
    ossa_float3 eye_offset;
    float height;           /* the character's */
    ossa_float3 centre;     /* of the crowd, on the ground */
    ground_relief relief;
    /* the box the hills were laid under and how far they have followed
     * the crowd since (scene_ik_follow) */
    ossa_float3 min, max, shift;
} scene_ik;

/* Finds the joints and lays hills under the box (world space) the crowd
 * fills; `height` is the character's. Without the joints, k->on is false and
 * the scene stays flat. */
void scene_ik_init(scene_ik *k, const ossa_skeleton *skeleton, ossa_float3 min, ossa_float3 max,
                   float height);
void scene_ik_fini(scene_ik *k);
/* The crowd has moved by `offset` (x, z) from where the hills were laid:
 * once it is a quarter of their margin away from them, they are laid again
 * under the box moved by it, on the same sample lattice (the same heights
 * where they overlap), and the point the heads follow moves along. */
void scene_ik_follow(scene_ik *k, ossa_float3 offset);
/* Puts each placement on the ground. */
void scene_ik_place(const scene_ik *k, ossa_mat34 *placements, int count);
/* After local->model: plants the feet, turns the heads toward the point of
 * time t, then runs local->model again. model and local are count x joints. */
ossa_result scene_ik_apply(const scene_ik *k, const ossa_skeleton *skeleton, ossa_transform *local,
                           ossa_mat34 *model, const ossa_mat34 *placements, int count,
                           float time_s);

#endif /* OSSA_SCENE_IK_H */
