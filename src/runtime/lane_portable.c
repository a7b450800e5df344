/* lane_portable.c - the lane kernels over 4-float vectors without
 * intrinsics: the OSSA_NO_SIMD build, other architectures, the fallback. */
#include "lane_simd_portable.h"

#define LANE_NAME(x) ossai_lane_##x##_portable
#define LANE_PATH OSSA_LANE_PORTABLE

#include "lane_kernels.inc"
