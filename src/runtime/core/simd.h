/* simd.h - the one SIMD dispatch: which path a job runs, and how a stage
 * names and tables its per-instruction-set kernels.
 *
 * A kernel source (a stage's *_kernels.c, or a skinning file) is compiled
 * once per instruction set by the CMake object libraries ossa_isa_<isa>,
 * each defining OSSAI_ISA_<ISA>; OSSAI_ISA_NAME(x) gives the symbol of that
 * compilation, x_portable, x_sse, x_avx2 or x_avx512. A job declares its
 * kernels with OSSAI_SIMD_DECLARE, tables them with OSSAI_SIMD_TABLE (indexed
 * by ossa_simd_path) and runs table[ossai_simd_select(path, width)]. */
#ifndef OSSA_CORE_SIMD_H
#define OSSA_CORE_SIMD_H

#include "ossa/result.h"
#include "ossa/simd.h"

#if defined(OSSAI_ISA_AVX512)
#define OSSAI_ISA_NAME(x) x##_avx512
#elif defined(OSSAI_ISA_AVX2)
#define OSSAI_ISA_NAME(x) x##_avx2
#elif defined(OSSAI_ISA_SSE)
#define OSSAI_ISA_NAME(x) x##_sse
#else
#define OSSAI_ISA_NAME(x) x##_portable
#endif

/* OSSAI_SIMD_X86 is defined (by CMake) when the x86 kernels are built. */
#ifdef OSSAI_SIMD_X86
#define OSSAI_SIMD_DECLARE(ret, name, params)                                                   \
    ret name##_portable params;                                                                 \
    ret name##_sse params;                                                                      \
    ret name##_avx2 params;                                                                     \
    ret name##_avx512 params
#define OSSAI_SIMD_TABLE(name)                                                                  \
    {                                                                                           \
        [OSSA_SIMD_PORTABLE] = name##_portable, [OSSA_SIMD_SSE] = name##_sse,                   \
        [OSSA_SIMD_AVX2] = name##_avx2, [OSSA_SIMD_AVX512] = name##_avx512                      \
    }
#else
#define OSSAI_SIMD_DECLARE(ret, name, params) ret name##_portable params
#define OSSAI_SIMD_TABLE(name)                                                                  \
    {                                                                                           \
        [OSSA_SIMD_PORTABLE] = name##_portable                                                  \
    }
#endif

/* Floats per vector of a path: 4 (portable, SSE), 8 (AVX2), 16 (AVX-512). */
int ossai_simd_vector_width(ossa_simd_path path);

/* The path a job with this `path` field runs for batches of `width` lanes:
 * AUTO picks the widest supported path whose vectors fit in width; a named
 * path whose vectors are wider than width falls back to the next narrower
 * supported one (portable last). OSSA_SIMD_AUTO (0) when `path` is not a
 * path or this machine cannot run it. Skinning passes width 16. */
ossa_simd_path ossai_simd_select(ossa_simd_path path, int width);

/* OSSA_OK when ossai_simd_select finds a path; else OSSA_ERR_BAD_ARGUMENT for
 * a path that does not exist and OSSA_ERR_UNSUPPORTED for one this machine
 * (or build) cannot run. */
ossa_result ossai_simd_check(ossa_simd_path path, int width);

/* Orders the non-temporal stores made so far before the stores that follow
 * (sfence on x86; nothing elsewhere, where kernels stream with ordinary
 * stores). A job that streams its output calls it once when it is done;
 * its kernels do not fence per batch (docs/measurements.md, eleventh
 * sitting: no time difference measured either way). */
void ossai_stream_fence(void);

#endif /* OSSA_CORE_SIMD_H */
