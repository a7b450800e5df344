/* lane_portable.c - the lane kernels for plain C over 4-float vectors (also the OSSA_NO_SIMD build).
 * Only called when ossai_lane_select finds the CPU runs them. */
#include "lane_simd_portable.h"

#define LANE_NAME(x) ossai_lane_##x##_portable
#define LANE_PATH OSSA_LANE_PORTABLE

#include "lane_kernels.inc"
