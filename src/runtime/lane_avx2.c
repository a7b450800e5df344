/* lane_avx2.c - the lane kernels for AVX2 + FMA, 8 lanes per vector.
 * Only called when ossai_lane_select finds the CPU runs them. */
#include "lane_simd_avx2.h"

#define LANE_NAME(x) ossai_lane_##x##_avx2
#define LANE_PATH OSSA_LANE_AVX2

#include "lane_kernels.inc"
