/* lane_sse.c - the lane kernels for SSE4.2, 4 lanes per vector.
 * Only called when ossai_lane_select finds the CPU runs them. */
#include "lane_simd_sse.h"

#define LANE_NAME(x) ossai_lane_##x##_sse
#define LANE_PATH OSSA_LANE_SSE

#include "lane_kernels.inc"
