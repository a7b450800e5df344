/* cpu.h - which SIMD instruction sets this CPU (and OS) can run. */
#ifndef OSSA_CPU_H
#define OSSA_CPU_H

enum {
    OSSAI_CPU_SSE42 = 1u << 0,
    OSSAI_CPU_AVX2 = 1u << 1,   /* AVX2 + FMA + OS-enabled YMM state */
    OSSAI_CPU_AVX512 = 1u << 2, /* AVX-512 F/VL/BW/DQ + OS-enabled ZMM state */
    OSSAI_CPU_VBMI2 = 1u << 3,  /* and AVX-512 VBMI2 (funnel shifts) */
};

/* OSSAI_CPU_* bits, detected once and cached. With OSSA_NO_SIMD defined at
 * build time, or the environment variable
 * OSSA_SIMD=none|portable|sse|avx2|avx512-base|avx512 set before the first
 * call, the bits are limited accordingly (avx512-base: AVX-512 without
 * VBMI2). */
unsigned ossai_cpu_features(void);

#endif /* OSSA_CPU_H */
