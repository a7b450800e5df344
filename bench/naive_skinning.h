/* naive_skinning.h - the "before" versions of seed 002's skinning ladder,
 * written as a competent 2013 engine would have them: an SSE maths library
 * with 4x4 matrices (column-major, M * v = c0 x + c1 y + c2 z + c3 w), and
 * each step changing only what the seed changed:
 *   (a) naive:  one array of vertex structs (float3 position, float3 normal,
 *               float2 uv), always 4 influences (unused ones weigh 0), the
 *               weighted 4x4 matrix of all 4, the uv copied every frame;
 *   (b) split:  the skinned part (float3 position, float3 normal) in its own
 *               stream; the uvs are left alone;
 *   (c) float4: position and normal as 16-byte aligned float4, aligned SIMD
 *               loads and stores;
 *   (d) sorted: vertices grouped by influence count, one loop per count, n
 *               joints and n weights per vertex, no weight for a single
 *               influence (the seed's listing).
 * They are benchmarks, never part of the library; each is tested against a
 * double-precision reference like the library's paths. */
#ifndef OSSA_NAIVE_SKINNING_H
#define OSSA_NAIVE_SKINNING_H

#include <stdbool.h>
#include <stdint.h>

#include "ossa/mesh.h"

/* A 4x4 matrix, column-major: m[4 * column + row]. 16-byte aligned arrays. */
typedef struct naive_mat4 {
    float m[16];
} naive_mat4;

typedef struct naive_vertex { /* (a): 32 bytes */
    float position[3];
    float normal[3];
    float uv[2];
} naive_vertex;

typedef struct naive_skinned { /* (b): 24 bytes */
    float position[3];
    float normal[3];
} naive_skinned;

typedef struct naive_mesh {
    int vertex_count;
    /* (a)-(c) are in the source order (ossa_mesh_source_vertices), with
     * exactly 4 influences per vertex. */
    naive_vertex *vertices;
    uint16_t *joints4;
    float *weights4;
    naive_skinned *skinned; /* (b) */
    float *uvs;             /* (b): the static stream, never touched per frame */
    float *stream4;         /* (c): position, normal as float4s: 8 floats per vertex */
    /* (d) is in the runtime order: influence-count groups. */
    int group_counts[4];
    float *sorted_stream4;
    uint16_t *sorted_joints; /* n per vertex of an n-influence group */
    float *sorted_weights;   /* n per vertex of an n-influence group, n >= 2 */
} naive_mesh;

/* The naive meshes of a runtime mesh (its tangents are ignored). */
bool naive_mesh_init(naive_mesh *nm, const ossa_mesh *mesh);
void naive_mesh_fini(naive_mesh *nm);

/* 3x4 palette -> 4x4 palette (what the engine of 2013 kept per joint). */
void naive_palette(const ossa_mat34 *palette, int count, naive_mat4 *out);

/* One character's vertices: out has vertex_count elements (a, b) or
 * vertex_count * 8 floats, 16-byte aligned (c, d). */
void naive_skin_aos(const naive_mesh *m, const naive_mat4 *palette, naive_vertex *out);
void naive_skin_split(const naive_mesh *m, const naive_mat4 *palette, naive_skinned *out);
void naive_skin_float4(const naive_mesh *m, const naive_mat4 *palette, float *out);
void naive_skin_sorted(const naive_mesh *m, const naive_mat4 *palette, float *out);

#endif /* OSSA_NAIVE_SKINNING_H */
