/* vec.h - the lane vector type (vf, vm, LANE_V lanes) of the instruction set
 * this file is compiled for (OSSAI_ISA_*, see core/simd.h): what a stage's
 * *_kernels.c is written over, once, for every path. */
#ifndef OSSA_CORE_VEC_H
#define OSSA_CORE_VEC_H

#if defined(OSSAI_ISA_AVX512)
#include "core/vec_avx512.h"
#elif defined(OSSAI_ISA_AVX2)
#include "core/vec_avx2.h"
#elif defined(OSSAI_ISA_SSE)
#include "core/vec_sse.h"
#else
#include "core/vec_portable.h"
#endif

#define LANE_ALIGN _Alignas(64)

#endif /* OSSA_CORE_VEC_H */
