/* ossa/mesh.h - the runtime skinned mesh: a read-only view of blob memory,
 * laid out as seed 002 ends up.
 *
 * - The skinned stream (what skinning reads in bind pose and writes each
 *   frame) holds, per vertex, float4 position (w = 1), float4 normal (w = 0)
 *   and, when the mesh has tangents, float4 tangent (xyz, w = handedness +-1):
 *   a stride of 32 or 48 bytes, 16-byte aligned, so SIMD loads and stores are
 *   aligned and nothing is scattered as float3.
 * - The static stream (uv, colour) is apart and never touched per frame.
 * - Vertices are ordered by influence count: all 1-influence vertices, then
 *   2, 3 and 4; the index buffer is remapped to match. A 1-influence vertex
 *   stores no weight; an n-influence vertex stores n - 1 weights (the last is
 *   1 - their sum). The 1-influence vertices are sorted by joint (runs that
 *   share one matrix); the other groups keep the source order.
 * - Influence joints index the mesh's skin joints (its palette); each skin
 *   joint names a skeleton joint and carries its inverse bind matrix.
 * - A cold map from every runtime vertex to its source vertex lets tools
 *   answer in the source's order.
 * Thread safety: read-only, any number of threads. */
#ifndef OSSA_MESH_H
#define OSSA_MESH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "math.h"
#include "result.h"
#include "skeleton.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ossa_mesh ossa_mesh;

/* Most influences per vertex the runtime format stores. */
#define OSSA_MAX_INFLUENCES 4

/* The mesh's name (UTF-8, NUL-terminated, possibly empty). */
const char *ossa_mesh_name(const ossa_mesh *mesh);
int ossa_mesh_vertex_count(const ossa_mesh *mesh);
int ossa_mesh_triangle_count(const ossa_mesh *mesh);
/* 3 * triangle_count indices into the runtime (reordered) vertices. */
const uint32_t *ossa_mesh_indices(const ossa_mesh *mesh);
/* counts[k] = vertices with k + 1 influences, k = 0..3. Vertex ranges:
 * [0, c0), [c0, c0 + c1), ... in runtime order. */
void ossa_mesh_influence_counts(const ossa_mesh *mesh, int counts[OSSA_MAX_INFLUENCES]);
bool ossa_mesh_has_tangents(const ossa_mesh *mesh);
/* Bytes per vertex of the skinned stream: 32, or 48 with tangents. */
int ossa_mesh_skinned_stride(const ossa_mesh *mesh);
/* The bind-pose skinned stream skinning reads: vertex_count * stride bytes,
 * 16-byte aligned, as float4s. */
const float *ossa_mesh_bind_stream(const ossa_mesh *mesh);
/* Static stream: 2 floats per vertex, or NULL when the mesh has no uvs. */
const float *ossa_mesh_uvs(const ossa_mesh *mesh);
/* Static stream: RGBA8 per vertex, or NULL when the mesh has no colours. */
const uint32_t *ossa_mesh_colors(const ossa_mesh *mesh);
/* Skin joints: the palette the influences index. */
int ossa_mesh_skin_joint_count(const ossa_mesh *mesh);
/* Skeleton joint of each skin joint (skin_joint_count elements). */
const uint16_t *ossa_mesh_skin_joints(const ossa_mesh *mesh);
/* Inverse bind matrix of each skin joint (skin_joint_count, 16-aligned). */
const ossa_mat34 *ossa_mesh_inverse_binds(const ossa_mesh *mesh);
/* Influence joints (skin joint indices) of all vertices, grouped by influence
 * count: counts[0] vertices with 1 each, then counts[1] vertices with 2 each,
 * then 3, then 4. */
const uint16_t *ossa_mesh_joints(const ossa_mesh *mesh);
/* Stored weights, grouped the same way with n - 1 per n-influence vertex
 * (none for 1-influence vertices); the last weight is 1 - their sum. */
const float *ossa_mesh_weights(const ossa_mesh *mesh);
/* One runtime vertex's influences with all n weights (the last one computed
 * as 1 - the others): returns n in 1..4, or 0 when vertex is out of range. */
int ossa_mesh_vertex_influences(const ossa_mesh *mesh, int vertex,
                                uint16_t joints[OSSA_MAX_INFLUENCES],
                                float weights[OSSA_MAX_INFLUENCES]);
/* Runtime vertex -> source vertex (vertex_count elements), cold data. */
const uint32_t *ossa_mesh_source_vertices(const ossa_mesh *mesh);
/* Size in bytes of the mesh's data (as stored in a blob). */
size_t ossa_mesh_bytes(const ossa_mesh *mesh);

/* Validates one mesh section's bytes on their own (ossa_blob_open does this
 * for every mesh, with the blob's skeleton). skeleton may be NULL; when given,
 * every skin joint must exist in it. data must be 16-byte aligned. */
ossa_result ossa_mesh_validate(const void *data, size_t bytes, const ossa_skeleton *skeleton,
                               const ossa_mesh **out, ossa_error *error);

#ifdef __cplusplus
}
#endif

#endif /* OSSA_MESH_H */
