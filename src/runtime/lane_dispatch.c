/* lane_dispatch.c - batch widths, sizes and the choice of lane kernels. */
#include "cpu.h"
#include "job_internal.h"
#include "lane_internal.h"

static const char *const path_names[OSSA_LANE_PATH_COUNT] = {"auto", "portable", "sse", "avx2",
                                                             "avx512"};

static const ossai_lane_kernels *kernels_of(ossa_lane_path path)
{
    switch (path) {
#ifdef OSSA_LANES_X86
    case OSSA_LANE_SSE: return &ossai_lane_kernels_sse;
    case OSSA_LANE_AVX2: return &ossai_lane_kernels_avx2;
    case OSSA_LANE_AVX512: return &ossai_lane_kernels_avx512;
#endif
    case OSSA_LANE_PORTABLE: return &ossai_lane_kernels_portable;
    default: return NULL;
    }
}

bool ossa_lane_path_supported(ossa_lane_path path)
{
    const unsigned f = ossai_cpu_features();
    switch (path) {
    case OSSA_LANE_AUTO:
    case OSSA_LANE_PORTABLE: return true;
    case OSSA_LANE_SSE: return kernels_of(path) && (f & OSSAI_CPU_SSE42);
    case OSSA_LANE_AVX2: return kernels_of(path) && (f & OSSAI_CPU_AVX2);
    case OSSA_LANE_AVX512: return kernels_of(path) && (f & OSSAI_CPU_AVX512);
    default: return false;
    }
}

ossa_lane_path ossa_lane_best_path(void)
{
    for (int p = OSSA_LANE_AVX512; p > OSSA_LANE_PORTABLE; --p)
        if (ossa_lane_path_supported((ossa_lane_path)p))
            return (ossa_lane_path)p;
    return OSSA_LANE_PORTABLE;
}

const char *ossa_lane_path_name(ossa_lane_path path)
{
    return (unsigned)path < OSSA_LANE_PATH_COUNT ? path_names[path] : "unknown";
}

int ossa_lane_width(void)
{
    switch (ossa_lane_best_path()) {
    case OSSA_LANE_AVX512: return 16;
    case OSSA_LANE_AVX2: return 8;
    default: return 4;
    }
}

int ossai_lane_resolve_width(int width)
{
    if (width == 0)
        return ossa_lane_width();
    return width == 4 || width == 8 || width == 16 ? width : 0;
}

const ossai_lane_kernels *ossai_lane_select(ossa_lane_path path, int width)
{
    if ((unsigned)path >= OSSA_LANE_PATH_COUNT || !ossa_lane_path_supported(path))
        return NULL;
    int p = path == OSSA_LANE_AUTO ? (int)ossa_lane_best_path() : (int)path;
    for (; p > OSSA_LANE_PORTABLE; --p) {
        const ossai_lane_kernels *k = kernels_of((ossa_lane_path)p);
        if (k && k->vector_width <= width && ossa_lane_path_supported((ossa_lane_path)p))
            return k;
    }
    return &ossai_lane_kernels_portable;
}

int ossa_lane_batch_count(int character_count, int width)
{
    width = ossai_lane_resolve_width(width);
    if (!width || character_count < 0)
        return 0;
    return (int)(((int64_t)character_count + width - 1) / width);
}

static size_t lane_floats(int joint_count, int character_count, int width, int components)
{
    width = ossai_lane_resolve_width(width);
    if (!width || joint_count < 1 || character_count < 0)
        return 0;
    return (size_t)ossa_lane_batch_count(character_count, width) * (size_t)joint_count *
           (size_t)components * (size_t)width;
}

size_t ossa_lane_pose_floats(int joint_count, int character_count, int width)
{
    return lane_floats(joint_count, character_count, width, OSSA_LANE_POSE_COMPONENTS);
}

size_t ossa_lane_model_floats(int joint_count, int character_count, int width)
{
    return lane_floats(joint_count, character_count, width, OSSA_LANE_MODEL_COMPONENTS);
}

ossai_lane_plan ossai_lane_plan_make(ossa_lane_path path, int width, int characters,
                                     int batch_begin, int batch_end)
{
    ossai_lane_plan p;
    p.width = ossai_lane_resolve_width(width);
    p.kernels = ossai_lane_select(path, p.width);
    ossai_job_range(batch_begin, batch_end, ossa_lane_batch_count(characters, p.width), &p.begin,
                    &p.end);
    return p;
}
