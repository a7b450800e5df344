/* lane_internal.h - what every lane job shares: the lane layout's constants,
 * the width default, and the plan of a validated run (width, path, batches).
 * Each stage's kernel arguments live beside its job (<stage>/<stage>_lanes.h). */
#ifndef OSSA_CORE_LANE_INTERNAL_H
#define OSSA_CORE_LANE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "core/simd.h"
#include "ossa/lanes.h"

#define OSSAI_LANES OSSA_LANE_MAX_WIDTH
#define OSSAI_POSE_C OSSA_LANE_POSE_COMPONENTS
#define OSSAI_MODEL_C OSSA_LANE_MODEL_COMPONENTS

/* Width after the 0 default, or 0 when it is not 4, 8 or 16. */
int ossai_lane_resolve_width(int width);

/* What a validated lane job's run needs: the width after its default, the
 * path whose kernels run (index into the stage's OSSAI_SIMD_TABLE), and the
 * batches [begin, end) of `characters` to process. Out of line: inlined, the
 * range check changes the register allocation of the runs' per-lane set-up
 * loops (more instructions per character). */
typedef struct ossai_lane_plan {
    ossa_simd_path path;
    int width, begin, end;
} ossai_lane_plan;
ossai_lane_plan ossai_lane_plan_make(ossa_simd_path path, int width, int characters,
                                     int batch_begin, int batch_end);

#endif /* OSSA_CORE_LANE_INTERNAL_H */
