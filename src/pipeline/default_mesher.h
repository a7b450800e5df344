/* default_mesher.h - the state the default character's body is generated in
 * (pipeline-internal), shared by default_mesh.c (the build),
 * default_mesh_shape.c (the parts' surfaces) and default_mesh_weights.c
 * (bones and skin weights). */
#ifndef OSSA_DEFAULT_MESHER_H
#define OSSA_DEFAULT_MESHER_H

#include <math.h>
#include <stdio.h>

#include "ossa/default_character.h"
#include "ossa/mesh_builder.h"

#define JOINTS OSSA_DEFAULT_JOINT_COUNT
#define MAX_VERTICES 4096
#define MAX_TRIANGLES 8192
#define MAX_CANDIDATES 16

/* ---- double-precision 3-vectors ---- */

typedef struct v3 {
    double x, y, z;
} v3;

static inline v3 v(double x, double y, double z)
{
    return (v3){x, y, z};
}
static inline v3 add(v3 a, v3 b)
{
    return v(a.x + b.x, a.y + b.y, a.z + b.z);
}
static inline v3 sub(v3 a, v3 b)
{
    return v(a.x - b.x, a.y - b.y, a.z - b.z);
}
static inline v3 scale(v3 a, double s)
{
    return v(a.x * s, a.y * s, a.z * s);
}
static inline double dot(v3 a, v3 b)
{
    return a.x * b.x + a.y * b.y + a.z * b.z;
}
static inline v3 cross(v3 a, v3 b)
{
    return v(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
static inline v3 unit(v3 a)
{
    const double l = sqrt(dot(a, a));
    return l > 0.0 ? scale(a, 1.0 / l) : a;
}

/* ---- the mesher ---- */

/* The bones a part's vertices may be weighted to. */
typedef struct part {
    int candidates[MAX_CANDIDATES];
    int candidate_count;
    double blend; /* width of the blend zones between bones */
} part;

typedef struct mesher {
    const ossa_skeleton *skeleton;
    v3 joint[JOINTS];  /* rest model-space positions */
    v3 bone_end[JOINTS]; /* each joint's bone: joint[j] -> bone_end[j] */
    ossa_float3 *positions, *normals;
    ossa_float4 *tangents;
    float *uvs;
    uint32_t *indices;
    int *offsets;
    ossa_raw_influence *influences; /* joint = skeleton joint until remapped */
    int vertices, index_count, tile;
    int overflow;
} mesher;

/* The joint `name` + `side` ("_l", "_r"; NULL for none), or -1. */
static inline int joint_of(const mesher *m, const char *name, const char *side)
{
    char full[40];
    snprintf(full, sizeof full, "%s%s", name, side ? side : "");
    return ossa_skeleton_find_joint(m->skeleton, full);
}

/* default_mesh_weights.c: fills m->joint and m->bone_end from the
 * skeleton's rest pose, writing its model transforms to model (JOINTS of
 * them); 0 when the rest pose is invalid. */
int ossai_mesher_bones(mesher *m, ossa_mat34 *model);
/* default_mesh_weights.c: a part weighted to the named joints (with the side
 * suffix, except names with a leading '='), with blend zones `blend` wide. */
void ossai_mesher_part(const mesher *m, part *pt, double blend, const char *side,
                       const char *const *names);
/* default_mesh_weights.c: the influences of vertex m->vertices, measured at
 * p, appended after those of the vertices before it. */
void ossai_mesher_weigh(mesher *m, const part *pt, v3 p);
/* default_mesh_shape.c: every part of the body, appended to the mesher
 * (m->overflow set when they do not fit). */
void ossai_mesher_body(mesher *m);

#endif /* OSSA_DEFAULT_MESHER_H */
