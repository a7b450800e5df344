/* cpu.c - run-time detection of SIMD support, cached once.
 *
 * The one piece of mutable global state in the runtime: an atomic cache of a
 * value that is the same whichever thread computes it first. */
#include "core/cpu.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#if (defined(__x86_64__) || defined(__i386__)) && !defined(OSSA_NO_SIMD)
#include <cpuid.h>

static unsigned long long xgetbv0(void)
{
    unsigned eax, edx;
    __asm__ volatile("xgetbv" : "=a"(eax), "=d"(edx) : "c"(0));
    return ((unsigned long long)edx << 32) | eax;
}

static unsigned detect(void)
{
    unsigned a, b, c, d, features = 0;
    if (!__get_cpuid(1, &a, &b, &c, &d))
        return 0;
    if ((c & bit_SSE4_2) && (c & bit_POPCNT)) /* the kernels count bits with popcnt */
        features |= OSSAI_CPU_SSE42;
    else
        return 0;
    int osxsave = (c & bit_OSXSAVE) != 0, fma = (c & bit_FMA) != 0, avx = (c & bit_AVX) != 0;
    if (!osxsave || !avx)
        return features;
    unsigned long long xcr0 = xgetbv0();
    if ((xcr0 & 0x6) != 0x6) /* XMM and YMM state */
        return features;
    if (__get_cpuid_max(0, NULL) < 7)
        return features;
    __cpuid_count(7, 0, a, b, c, d);
    if ((b & bit_AVX2) && fma)
        features |= OSSAI_CPU_AVX2;
    const unsigned avx512 = bit_AVX512F | bit_AVX512VL | bit_AVX512BW | bit_AVX512DQ;
    if ((features & OSSAI_CPU_AVX2) && (b & avx512) == avx512 && (xcr0 & 0xE6) == 0xE6)
        features |= OSSAI_CPU_AVX512;
    if ((features & OSSAI_CPU_AVX512) && (c & (1u << 6))) /* CPUID.7.0:ECX.AVX512_VBMI2 */
        features |= OSSAI_CPU_VBMI2;
    return features;
}
#else
static unsigned detect(void)
{
    return 0;
}
#endif

static unsigned limit_from_env(unsigned features)
{
    const char *v = getenv("OSSA_SIMD");
    if (!v)
        return features;
    if (strcmp(v, "none") == 0 || strcmp(v, "portable") == 0 || strcmp(v, "scalar") == 0)
        return 0;
    if (strcmp(v, "sse") == 0)
        return features & OSSAI_CPU_SSE42;
    if (strcmp(v, "avx2") == 0)
        return features & (OSSAI_CPU_SSE42 | OSSAI_CPU_AVX2);
    if (strcmp(v, "avx512-base") == 0)
        return features & (OSSAI_CPU_SSE42 | OSSAI_CPU_AVX2 | OSSAI_CPU_AVX512);
    return features;
}

static atomic_uint cached; /* 0 = not yet detected; bit 31 marks "detected" */

unsigned ossai_cpu_features(void)
{
    unsigned v = atomic_load_explicit(&cached, memory_order_relaxed);
    if (v == 0) {
        v = limit_from_env(detect()) | 0x80000000u;
        atomic_store_explicit(&cached, v, memory_order_relaxed);
    }
    return v & 0x7FFFFFFFu;
}
