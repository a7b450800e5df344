/* ossa/skinning_job.h - palette + bind-pose stream -> skinned vertices (stage 5).
 *
 * For each vertex in the range, the weighted sum of its influences' palette
 * matrices transforms the position (w = 1), the normal (w = 0) and the
 * tangent (w carried through). One specialised loop per influence count, no
 * per-vertex branch. Normals are transformed by the blended matrix itself
 * (exact for rotations and uniform scale) and are not renormalised.
 * Two output formats (ossa_skin_format): float4, the mesh's own layout, and
 * packed, what a GPU reads (float3 position, normal and tangent in 32 bits
 * each), with bit-identical positions.
 * Paths (ossa/simd.h): portable C, SSE, AVX2 and AVX-512, chosen at run time
 * from what the CPU supports (OSSA_SIMD_AUTO); building with OSSA_NO_SIMD, or
 * setting the environment variable OSSA_SIMD, limits the choice. Every path
 * is tested against a double-precision reference.
 * The job holds no state and allocates nothing; disjoint vertex ranges of one
 * output may run on different threads. */
#ifndef OSSA_SKINNING_JOB_H
#define OSSA_SKINNING_JOB_H

#include <stdbool.h>
#include <stddef.h>

#include "math.h"
#include "mesh.h"
#include "result.h"
#include "simd.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- output formats ---- */

/* The vertex layout a skinning job writes: vertex v at output + v * bytes,
 * bytes = ossa_skin_vertex_bytes(mesh, format). */
typedef enum ossa_skin_format {
    /* Default: the mesh's skinned-stream layout. float4 position (w = 1),
     * float4 normal (w = 0) and, when the mesh has tangents, float4 tangent
     * (w = handedness, +-1): 32 or 48 bytes; the output 16-byte aligned. */
    OSSA_SKIN_FORMAT_FLOAT4 = 0,
    /* GPU-ready: float3 position (bit for bit the float4 format's x, y, z),
     * then the normal and, with tangents, the tangent, each in one 32-bit
     * word as signed normalised 10:10:10:2 (OpenGL GL_INT_2_10_10_10_REV
     * with normalised = true, Vulkan VK_FORMAT_A2B10G10R10_SNORM_PACK32):
     * bits 0-9 x, 10-19 y, 20-29 z, each round(511 c) in two's complement for
     * the component c clamped to [-1, 1] (not renormalised, as in float4);
     * bits 30-31 are 0 for the normal and the handedness for the tangent,
     * 01 for +1 and 10 for -1 (both OpenGL conversion rules, before and
     * since 4.2, decode these to exactly +1 and -1). 16 or 20 bytes per
     * vertex, the output 4-byte aligned. */
    OSSA_SKIN_FORMAT_PACKED,
    OSSA_SKIN_FORMAT_COUNT
} ossa_skin_format;

/* Bytes per vertex of a format for a mesh: 32 / 48 (float4), 16 / 20
 * (packed; without / with tangents); 0 for a NULL mesh or a bad format. */
size_t ossa_skin_vertex_bytes(const ossa_mesh *mesh, ossa_skin_format format);
/* Bytes a job's output needs for the whole mesh: vertex count x vertex bytes
 * (0 as above). */
size_t ossa_skin_output_bytes(const ossa_mesh *mesh, ossa_skin_format format);
/* Alignment the output must have: 16 (float4), 4 (packed); 0 for a bad
 * format. */
size_t ossa_skin_output_alignment(ossa_skin_format format);

/* ---- skin plans (optional, packed output) ---- */

/* A mesh laid out once for packed skinning: its vertices in blocks of 16,
 * each with its bind stream transposed (structure of arrays), its
 * influences in lane order and the few distinct joints most blocks use.
 * Built from the mesh alone (no palette), in caller memory, and read-only
 * afterwards: any number of jobs and threads may share one. The AVX-512 and
 * AVX2 paths skin packed output from it without transposing the bind stream
 * and, for most blocks, without transposing any blended matrix; the
 * portable and SSE paths ignore it. Results are the same with or without. */
typedef struct ossa_skin_plan ossa_skin_plan;

/* Bytes ossa_skin_plan_init needs for this mesh (64-byte aligned memory);
 * 0 for a NULL mesh. About 60 bytes per vertex. */
size_t ossa_skin_plan_size(const ossa_mesh *mesh);
/* Builds the plan in memory[0, bytes); *out points into memory. The plan
 * refers to the mesh, which must outlive it; do not modify the memory.
 * OSSA_ERR_MISSING_INPUT / _MISSING_OUTPUT, OSSA_ERR_MISALIGNED (memory not
 * 64-byte aligned), OSSA_ERR_OUTPUT_TOO_SMALL. */
ossa_result ossa_skin_plan_init(const ossa_skin_plan **out, void *memory, size_t bytes,
                                const ossa_mesh *mesh);

/* ---- the job ---- */

typedef struct ossa_skinning_job {
    const ossa_mesh *mesh; /* required */
    /* One matrix per skin joint of the mesh (ossa_palette_job's output for
     * this character), 16-byte aligned. */
    const ossa_mat34 *palette;
    int palette_count;
    /* Runtime vertices to skin: [vertex_begin, vertex_end); 0, 0 means all. */
    int vertex_begin;
    int vertex_end;
    /* Skinned vertices in `format`: vertex v at output + v * vertex bytes
     * (ossa_skin_vertex_bytes). Aligned as ossa_skin_output_alignment says;
     * output_bytes >= ossa_skin_output_bytes(mesh, format). Only the range
     * is written. */
    void *output;
    size_t output_bytes;
    ossa_skin_format format; /* default OSSA_SKIN_FORMAT_FLOAT4 */
    /* Packed output only, optional: the mesh's plan (ossa_skin_plan_init
     * for this mesh; OSSA_ERR_BAD_ARGUMENT for another mesh's). NULL: the
     * packed kernels lay each block out as they go, with the same results.
     * Ignored for float4 output. */
    const ossa_skin_plan *plan;
    ossa_simd_path path;     /* default OSSA_SIMD_AUTO */
    /* Write the output with non-temporal (streaming) stores, which go to
     * memory without first reading each cache line in and do not push other
     * data out of the cache. Faster when the output is large and this core
     * does not read it back soon (a crowd's vertices on their way to the
     * GPU, a mapped GPU buffer); slower when it is read right after and would
     * have stayed in cache. The results are identical either way. A hint: the
     * portable path ignores it; the SIMD paths stream the whole cache lines
     * (or 32 / 16-byte pieces) an output's alignment lets them reach, and
     * write the rest ordinarily. Default false. */
    bool stream_output;
} ossa_skinning_job;

/* OSSA_OK, or the first broken field: OSSA_ERR_MISSING_INPUT (mesh,
 * palette), OSSA_ERR_MISALIGNED (palette, output), OSSA_ERR_INPUT_TOO_SMALL
 * (palette_count), OSSA_ERR_BAD_RANGE, OSSA_ERR_BAD_ARGUMENT (format, plan,
 * path), OSSA_ERR_MISSING_OUTPUT, OSSA_ERR_OUTPUT_TOO_SMALL,
 * OSSA_ERR_UNSUPPORTED (a path this machine cannot run). */
ossa_result ossa_skinning_job_validate(const ossa_skinning_job *job);
ossa_result ossa_skinning_job_run(const ossa_skinning_job *job);

#ifdef __cplusplus
}
#endif

#endif /* OSSA_SKINNING_JOB_H */
