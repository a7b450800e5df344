/* ossa/mesh_builder.h - a raw skinned mesh -> runtime mesh (pipeline).
 *
 * Raw vertices carry any number of (skin joint, weight) influences. The
 * builder drops zero weights, keeps the 4 largest of longer lists,
 * renormalises, reorders vertices into influence-count groups 1..4 (index
 * buffer remapped), splits the skinned stream (float4 position, normal,
 * tangent) from the static one (uv, colour), and maps skin joints to skeleton
 * joints by name. What it changed is counted in the report.
 * Every raw vertex is kept (the runtime order is a permutation of the source
 * order, 1-influence vertices sorted by joint; ossa_mesh_source_vertices maps
 * back). Positions, normals and
 * tangents are stored as given, not renormalised; a tangent's w is stored as
 * -1 when negative, else +1. Inside a vertex, influences are stored heaviest
 * first. */
#ifndef OSSA_MESH_BUILDER_H
#define OSSA_MESH_BUILDER_H

#include <stdbool.h>
#include <stdint.h>

#include "allocator.h"
#include "math.h"
#include "mesh.h"
#include "result.h"
#include "skeleton.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ossa_raw_influence {
    int joint;    /* index into ossa_raw_mesh.skin_joints */
    float weight; /* >= 0; zero weights are dropped */
} ossa_raw_influence;

typedef struct ossa_raw_skin_joint {
    const char *name;         /* a joint of the skeleton */
    ossa_mat34 inverse_bind;  /* model space -> the joint's space at bind time */
} ossa_raw_skin_joint;

typedef struct ossa_raw_mesh {
    const char *name; /* may be NULL */
    int vertex_count;
    const ossa_float3 *positions; /* required */
    const ossa_float3 *normals;   /* required */
    const ossa_float4 *tangents;  /* optional: xyz, w = handedness (+-1) */
    const float *uvs;             /* optional: 2 floats per vertex */
    const uint32_t *colors;       /* optional: RGBA8 per vertex */
    const uint32_t *indices;      /* triangle list */
    int index_count;              /* multiple of 3 */
    /* Vertex v's influences are influences[influence_offsets[v] ..
     * influence_offsets[v + 1]); influence_offsets has vertex_count + 1 entries. */
    const int *influence_offsets;
    const ossa_raw_influence *influences;
    const ossa_raw_skin_joint *skin_joints;
    int skin_joint_count;
} ossa_raw_mesh;

typedef struct ossa_mesh_build_options {
    bool no_tangents;         /* leave tangents out even when the raw mesh has them */
    ossa_allocator allocator; /* default aligned_alloc/free */
} ossa_mesh_build_options;

typedef struct ossa_mesh_build_report {
    int vertex_count;
    int triangle_count;
    int influence_histogram[OSSA_MAX_INFLUENCES]; /* vertices with 1..4 influences */
    int reduced_vertices;         /* vertices that had more than 4 influences */
    float largest_dropped_weight; /* largest normalised weight removed by the reduction */
    int dropped_zero_weights;     /* zero-weight influences removed */
    int renormalized_vertices;    /* vertices whose weights did not sum to 1 (+-1e-3) */
    int skin_joint_count;
    int merged_influences;        /* influences naming a joint the vertex already lists
                                     (their weights were added) */
} ossa_mesh_build_report;

/* Builds *out (one allocation, freed with ossa_mesh_free). Errors name the
 * vertex, triangle or joint: no vertices or triangles, an index out of range,
 * a vertex with no positive weight or a non-finite value, an influence naming
 * a skin joint that does not exist, a skin joint not in the skeleton, more
 * than 65535 skin joints. options and report may be NULL. */
ossa_result ossa_mesh_build(const ossa_raw_mesh *raw, const ossa_skeleton *skeleton,
                            const ossa_mesh_build_options *options, ossa_mesh **out,
                            ossa_mesh_build_report *report, ossa_error *error);

void ossa_mesh_free(ossa_mesh *mesh, const ossa_allocator *allocator);

#ifdef __cplusplus
}
#endif

#endif /* OSSA_MESH_BUILDER_H */
