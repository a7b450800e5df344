/* lane_avx512.c - the lane kernels for AVX-512 F/VL/BW/DQ, 16 lanes per vector.
 * Only called when ossai_lane_select finds the CPU runs them. */
#include "lane_simd_avx512.h"

#define LANE_NAME(x) ossai_lane_##x##_avx512
#define LANE_PATH OSSA_LANE_AVX512

#include "lane_kernels.inc"
