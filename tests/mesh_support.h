/* mesh_support.h - random raw skinned meshes for the mesh, mesh builder and
 * skinning tests, and the double-precision reference skinning they are
 * compared with. Needs the pipeline (skeleton and mesh builders). */
#ifndef OSSA_MESH_SUPPORT_H
#define OSSA_MESH_SUPPORT_H

#include <stdbool.h>

#include "ossa/mesh_builder.h"
#include "test_support.h"

typedef struct ts_mesh {
    ossa_raw_mesh raw;         /* points into the arrays below */
    ossa_skeleton *skeleton;   /* the skin joints are a shuffled subset of its joints */
    ossa_float3 *positions, *normals;
    ossa_float4 *tangents;
    float *uvs;
    uint32_t *colors, *indices;
    int *offsets;
    ossa_raw_influence *influences;
    ossa_raw_skin_joint *skin_joints;
    char (*names)[24];
} ts_mesh;

typedef struct ts_mesh_options {
    int vertices, triangles, skin_joints;
    int max_influences; /* 1..8: each vertex gets 1..max distinct joints */
    bool tangents, colors;
    int zero_weights;   /* extra zero-weight influences sprinkled in */
} ts_mesh_options;

/* A random mesh: positions and normals in [-1, 1], tangents of random
 * handedness, uvs, random triangles and weights (not normalised). */
void ts_mesh_random(ts_mesh *m, ts_rng *r, const ts_mesh_options *o);
void ts_mesh_free(ts_mesh *m);
/* Builds m's raw mesh; fails the calling test (returns NULL) on error. */
ossa_mesh *ts_mesh_build(const ts_mesh *m, const ossa_mesh_build_options *options,
                         ossa_mesh_build_report *report);

/* A random palette of count affine matrices (any rotation, non-uniform scale
 * in [0.5, 2], translation in [-1, 1]). */
void ts_random_palette(ts_rng *r, ossa_mat34 *palette, int count);

/* Source vertex v skinned in double precision from the raw data: zero weights
 * dropped, duplicates merged, the 4 heaviest kept, normalised; out holds
 * position (w = 1), normal (w = 0) and tangent (w = handedness +-1). */
void ts_mesh_reference_skin(const ts_mesh *m, int v, const ossa_mat34 *palette, double out[12]);

/* Runtime vertex v of a mesh's bind-pose stream. */
const float *ts_mesh_stream_vertex(const ossa_mesh *mesh, int v);
/* Whether x (a stream vertex: position, normal, then the tangent when
 * `tangents`) is source vertex s of m exactly: position w 1, normal w 0, the
 * tangent with its handedness. */
bool ts_mesh_vertex_is_source(const ts_mesh *m, int s, const float *x, bool tangents);

/* Largest |a - b| / (1 + |b|) over n values. */
double ts_relative_error(const float *a, const double *b, int n);

#endif /* OSSA_MESH_SUPPORT_H */
