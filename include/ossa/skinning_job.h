/* ossa/skinning_job.h - palette + bind-pose stream -> skinned stream (stage 5).
 *
 * For each vertex in the range, the weighted sum of its influences' palette
 * matrices transforms the position (w = 1), the normal (w = 0) and the
 * tangent (w carried through). One specialised loop per influence count, no
 * per-vertex branch. Normals are transformed by the blended matrix itself
 * (exact for rotations and uniform scale) and are not renormalised.
 * Paths (ossa/simd.h): portable C, SSE, AVX2 and AVX-512, chosen at run time
 * from what the CPU supports (OSSA_SIMD_AUTO); building with OSSA_NO_SIMD, or
 * setting the environment variable OSSA_SIMD, limits the choice. Every path
 * is tested against a double-precision reference.
 * The job holds no state and allocates nothing; disjoint vertex ranges of one
 * output may run on different threads. */
#ifndef OSSA_SKINNING_JOB_H
#define OSSA_SKINNING_JOB_H

#include <stddef.h>

#include "math.h"
#include "mesh.h"
#include "result.h"
#include "simd.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ossa_skinning_job {
    const ossa_mesh *mesh; /* required */
    /* One matrix per skin joint of the mesh (ossa_palette_job's output for
     * this character), 16-byte aligned. */
    const ossa_mat34 *palette;
    int palette_count;
    /* Runtime vertices to skin: [vertex_begin, vertex_end); 0, 0 means all. */
    int vertex_begin;
    int vertex_end;
    /* Skinned stream, same layout as the mesh's bind stream: vertex v at
     * output + v * stride. 16-byte aligned; output_bytes >= vertex_count *
     * stride. Only the range is written. */
    void *output;
    size_t output_bytes;
    ossa_simd_path path;     /* default OSSA_SIMD_AUTO */
    /* Write the output with non-temporal (streaming) stores, which go to
     * memory without first reading each cache line in and do not push other
     * data out of the cache. Faster when the output is large and this core
     * does not read it back soon (a crowd's vertices on their way to the
     * GPU, a mapped GPU buffer); slower when it is read right after and would
     * have stayed in cache. The results are identical either way. A hint: the
     * portable path ignores it, and the AVX-512 path uses it for a mesh
     * without tangents only when the output is 32-byte aligned (64 is best:
     * whole cache lines). Default false. */
    bool stream_output;
} ossa_skinning_job;

ossa_result ossa_skinning_job_validate(const ossa_skinning_job *job);
ossa_result ossa_skinning_job_run(const ossa_skinning_job *job);

#ifdef __cplusplus
}
#endif

#endif /* OSSA_SKINNING_JOB_H */
