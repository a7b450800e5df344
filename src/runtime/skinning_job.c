/* skinning_job.c - validates a skinning job, picks the kernel the CPU can
 * run, and cuts the vertex range into its influence-count groups. */
#include "ossa/skinning_job.h"

#include "cpu.h"
#include "format.h"
#include "job_internal.h"
#include "skinning_internal.h"

typedef void (*kernel_fn)(const ossai_skin_batch *batch);

#ifdef OSSAI_SKINNING_X86
static unsigned features_for(ossa_skinning_path path)
{
    switch (path) {
    case OSSA_SKINNING_SSE: return OSSAI_CPU_SSE42;
    case OSSA_SKINNING_AVX2: return OSSAI_CPU_AVX2 | OSSAI_CPU_SSE42;
    case OSSA_SKINNING_AVX512: return OSSAI_CPU_AVX512 | OSSAI_CPU_AVX2 | OSSAI_CPU_SSE42;
    default: return 0;
    }
}
#endif

bool ossa_skinning_path_supported(ossa_skinning_path path)
{
    if (path == OSSA_SKINNING_AUTO || path == OSSA_SKINNING_SCALAR)
        return true;
#ifdef OSSAI_SKINNING_X86
    if (path > OSSA_SKINNING_SCALAR && path < OSSA_SKINNING_PATH_COUNT) {
        const unsigned need = features_for(path);
        return (ossai_cpu_features() & need) == need;
    }
#endif
    return false;
}

ossa_skinning_path ossa_skinning_best_path(void)
{
    for (int p = OSSA_SKINNING_PATH_COUNT - 1; p > OSSA_SKINNING_SCALAR; --p)
        if (ossa_skinning_path_supported((ossa_skinning_path)p))
            return (ossa_skinning_path)p;
    return OSSA_SKINNING_SCALAR;
}

const char *ossa_skinning_path_name(ossa_skinning_path path)
{
    switch (path) {
    case OSSA_SKINNING_AUTO: return "auto";
    case OSSA_SKINNING_SCALAR: return "scalar";
    case OSSA_SKINNING_SSE: return "sse";
    case OSSA_SKINNING_AVX2: return "avx2";
    case OSSA_SKINNING_AVX512: return "avx512";
    default: return "unknown";
    }
}

static kernel_fn kernel_for(ossa_skinning_path path)
{
    switch (path) {
#ifdef OSSAI_SKINNING_X86
    case OSSA_SKINNING_SSE: return ossai_skin_sse;
    case OSSA_SKINNING_AVX2: return ossai_skin_avx2;
    case OSSA_SKINNING_AVX512: return ossai_skin_avx512;
#endif
    default: return ossai_skin_scalar;
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
    if (!job->output)
        return OSSA_ERR_MISSING_OUTPUT;
    if ((uintptr_t)job->output % 16 != 0)
        return OSSA_ERR_MISALIGNED;
    if (job->output_bytes < (size_t)vertices * mesh->stride)
        return OSSA_ERR_OUTPUT_TOO_SMALL;
    if (job->path < OSSA_SKINNING_AUTO || job->path >= OSSA_SKINNING_PATH_COUNT)
        return OSSA_ERR_BAD_ARGUMENT;
    if (!ossa_skinning_path_supported(job->path))
        return OSSA_ERR_UNSUPPORTED;
    return OSSA_OK;
}

ossa_result ossa_skinning_job_run(const ossa_skinning_job *job)
{
    ossa_result r = ossa_skinning_job_validate(job);
    if (r != OSSA_OK)
        return r;
    const ossa_mesh *mesh = job->mesh;
    const kernel_fn kernel =
        kernel_for(job->path == OSSA_SKINNING_AUTO ? ossa_skinning_best_path() : job->path);
    size_t begin = (size_t)job->vertex_begin, end = (size_t)job->vertex_end;
    if (begin == 0 && end == 0)
        end = mesh->vertex_count;
    const size_t floats = mesh->stride / 4u;
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
            batch.dst = (float *)job->output + lo * floats;
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
