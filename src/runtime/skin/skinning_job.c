/* skinning_job.c - validates a skinning job, picks the kernel for its format
 * and path (core/simd.h), and cuts the vertex range into its influence-count
 * groups (or hands a packed job with a plan to the plan kernel). */
#include "ossa/skinning_job.h"

#include "blob/format.h"
#include "core/job_internal.h"
#include "skin/skin_pack.h"
#include "skin/skin_plan.h"
#include "skin/skinning_internal.h"

/* Skinning works on vertices, not lanes: any path may run, the widest first. */
#define SKIN_VECTOR_LIMIT 16

size_t ossa_skin_vertex_bytes(const ossa_mesh *mesh, ossa_skin_format format)
{
    if (!mesh)
        return 0;
    const bool tangents = (mesh->flags & OSSAI_MESH_HAS_TANGENTS) != 0;
    switch (format) {
    case OSSA_SKIN_FORMAT_FLOAT4: return mesh->stride;
    case OSSA_SKIN_FORMAT_PACKED: return OSSAI_PACKED_BYTES(tangents);
    default: return 0;
    }
}

size_t ossa_skin_output_bytes(const ossa_mesh *mesh, ossa_skin_format format)
{
    return mesh ? (size_t)mesh->vertex_count * ossa_skin_vertex_bytes(mesh, format) : 0;
}

size_t ossa_skin_output_alignment(ossa_skin_format format)
{
    switch (format) {
    case OSSA_SKIN_FORMAT_FLOAT4: return 16;
    case OSSA_SKIN_FORMAT_PACKED: return 4;
    default: return 0;
    }
}

ossa_result ossa_skinning_job_validate(const ossa_skinning_job *job)
{
    if (!job || !job->mesh || !job->palette)
        return OSSA_ERR_MISSING_INPUT;
    const ossa_mesh *mesh = job->mesh;
    if ((uintptr_t)job->palette % 16 != 0)
        return OSSA_ERR_MISALIGNED;
    if (job->palette_count < (int)mesh->skin_joint_count)
        return OSSA_ERR_INPUT_TOO_SMALL;
    const int vertices = (int)mesh->vertex_count;
    int begin, end;
    if (ossai_job_range(job->vertex_begin, job->vertex_end, vertices, &begin, &end))
        return OSSA_ERR_BAD_RANGE;
    const size_t alignment = ossa_skin_output_alignment(job->format);
    if (alignment == 0)
        return OSSA_ERR_BAD_ARGUMENT;
    if (job->format == OSSA_SKIN_FORMAT_PACKED && job->plan && !ossai_skin_plan_fits(job->plan, mesh))
        return OSSA_ERR_BAD_ARGUMENT;
    if (!job->output)
        return OSSA_ERR_MISSING_OUTPUT;
    if ((uintptr_t)job->output % alignment != 0)
        return OSSA_ERR_MISALIGNED;
    if (job->output_bytes < ossa_skin_output_bytes(mesh, job->format))
        return OSSA_ERR_OUTPUT_TOO_SMALL;
    return ossai_simd_check(job->path, SKIN_VECTOR_LIMIT);
}

ossa_result ossa_skinning_job_run(const ossa_skinning_job *job)
{
    ossa_result r = ossa_skinning_job_validate(job);
    if (r != OSSA_OK)
        return r;
    const ossa_mesh *mesh = job->mesh;
    const ossa_simd_path path = ossai_simd_select(job->path, SKIN_VECTOR_LIMIT);
    size_t begin = (size_t)job->vertex_begin, end = (size_t)job->vertex_end;
    if (begin == 0 && end == 0)
        end = mesh->vertex_count;
    const bool packed = job->format == OSSA_SKIN_FORMAT_PACKED;
#ifdef OSSAI_SIMD_X86
    if (packed && job->plan && (path == OSSA_SIMD_AVX512 || path == OSSA_SIMD_AVX2)) {
        (path == OSSA_SIMD_AVX512 ? ossai_skin_plan_run_avx512 : ossai_skin_plan_run_avx2)(
            job->plan, job->palette, job->output, begin, end, job->stream_output);
        return OSSA_OK;
    }
#endif
    static void (*const float4_kernels[])(const ossai_skin_batch *) =
        OSSAI_SIMD_TABLE(ossai_skin_kernel);
    static void (*const packed_kernels[])(const ossai_skin_batch *) =
        OSSAI_SIMD_TABLE(ossai_skin_packed_kernel);
    void (*const kernel)(const ossai_skin_batch *) =
        packed ? packed_kernels[path] : float4_kernels[path];
    const size_t floats = mesh->stride / 4u;
    const size_t vertex_bytes = ossa_skin_vertex_bytes(mesh, job->format);
    const float *stream = (const float *)(const void *)((const char *)mesh + mesh->stream_offset);
    const uint16_t *joints = (const uint16_t *)(const void *)((const char *)mesh +
                                                             mesh->joints_offset);
    const float *weights = (const float *)(const void *)((const char *)mesh +
                                                        mesh->weights_offset);
    size_t first = 0; /* the group's first vertex */
    for (int g = 1; g <= OSSA_MAX_INFLUENCES; ++g) {
        const size_t count = mesh->group_counts[g - 1];
        const size_t lo = begin > first ? begin : first;
        const size_t hi = end < first + count ? end : first + count;
        if (lo < hi) {
            const size_t i = lo - first; /* index inside the group */
            ossai_skin_batch batch;
            batch.src = stream + lo * floats;
            batch.dst = (unsigned char *)job->output + lo * vertex_bytes;
            batch.joints = joints + ossai_mesh_joints_before(mesh->group_counts, g) + i * (size_t)g;
            batch.weights = weights + ossai_mesh_weights_before(mesh->group_counts, g) +
                            i * (size_t)(g - 1);
            batch.palette = job->palette;
            batch.palette_stride = sizeof(ossa_mat34);
            batch.count = hi - lo;
            batch.influences = g;
            batch.tangents = (mesh->flags & OSSAI_MESH_HAS_TANGENTS) != 0;
            batch.stream = job->stream_output;
            kernel(&batch);
        }
        first += count;
    }
    return OSSA_OK;
}
