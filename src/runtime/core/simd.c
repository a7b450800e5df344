/* simd.c - the paths this machine runs and the choice of one for a job. */
#include "core/simd.h"

#include "core/cpu.h"

#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>
#endif

static const char *const path_names[OSSA_SIMD_PATH_COUNT] = {"auto", "portable", "sse", "avx2",
                                                             "avx512"};

/* Whether a CPU with features f (OSSAI_CPU_*) runs path. */
static inline bool supported(unsigned f, ossa_simd_path path)
{
    switch (path) {
    case OSSA_SIMD_AUTO:
    case OSSA_SIMD_PORTABLE: return true;
#ifdef OSSAI_SIMD_X86
    case OSSA_SIMD_SSE: return (f & OSSAI_CPU_SSE42) != 0;
    case OSSA_SIMD_AVX2: return (f & OSSAI_CPU_AVX2) != 0;
    case OSSA_SIMD_AVX512: return (f & OSSAI_CPU_AVX512) != 0;
#endif
    default: (void)f; return false;
    }
}

static inline ossa_simd_path best(unsigned f)
{
    for (int p = OSSA_SIMD_AVX512; p > OSSA_SIMD_PORTABLE; --p)
        if (supported(f, (ossa_simd_path)p))
            return (ossa_simd_path)p;
    return OSSA_SIMD_PORTABLE;
}

bool ossa_simd_path_supported(ossa_simd_path path)
{
    return supported(ossai_cpu_features(), path);
}

ossa_simd_path ossa_simd_best_path(void)
{
    return best(ossai_cpu_features());
}

const char *ossa_simd_path_name(ossa_simd_path path)
{
    return (unsigned)path < OSSA_SIMD_PATH_COUNT ? path_names[path] : "unknown";
}

int ossai_simd_vector_width(ossa_simd_path path)
{
    switch (path) {
    case OSSA_SIMD_AVX512: return 16;
    case OSSA_SIMD_AVX2: return 8;
    default: return 4;
    }
}

/* Every job calls this (validating, then planning its batches): one read
 * of the cached CPU features, not one per path tried. */
ossa_simd_path ossai_simd_select(ossa_simd_path path, int width)
{
    const unsigned f = ossai_cpu_features();
    if ((unsigned)path >= OSSA_SIMD_PATH_COUNT || !supported(f, path))
        return OSSA_SIMD_AUTO;
    int p = path == OSSA_SIMD_AUTO ? (int)best(f) : (int)path;
    for (; p > OSSA_SIMD_PORTABLE; --p)
        if (ossai_simd_vector_width((ossa_simd_path)p) <= width && supported(f, (ossa_simd_path)p))
            return (ossa_simd_path)p;
    return OSSA_SIMD_PORTABLE;
}

ossa_result ossai_simd_check(ossa_simd_path path, int width)
{
    if (ossai_simd_select(path, width) != OSSA_SIMD_AUTO)
        return OSSA_OK;
    return (unsigned)path >= OSSA_SIMD_PATH_COUNT ? OSSA_ERR_BAD_ARGUMENT : OSSA_ERR_UNSUPPORTED;
}

void ossai_stream_fence(void)
{
#if defined(__x86_64__) || defined(__i386__)
    _mm_sfence(); /* SSE: every x86-64 has it */
#endif
}
