/* motion_pack.h - a compressed clip's root motion track packed within a
 * share of the tolerance (docs/blob-format.md, "The tracks block"; the
 * error argument is docs/compression.md's). Pipeline-internal. */
#ifndef OSSA_MOTION_PACK_H
#define OSSA_MOTION_PACK_H

#include "ossa/clip_builder.h"

/* How far from the model's vertical axis the virtual points of the clip's
 * joints go: per joint, its horizontal distance from the model origin plus
 * its metric distance, the largest at every frame and midway between, as
 * the runtime samples the raw clip `raw`. A turn of the placement by e
 * radians moves no point further than e times this. */
ossa_result ossai_motion_reach(const ossa_clip *raw, const ossa_skeleton *skeleton,
                               const double *distance, const ossa_allocator *allocator,
                               double *reach, ossa_error *error);

/* Packs the raw motion track of *clip's tracks block so that no point
 * within `reach` of the vertical axis moves by more than `tolerance` (model
 * units) at any frame: *clip is replaced by a copy holding the packed track
 * (the old one freed). *moved receives the largest such move measured
 * after packing (translation error plus yaw error times reach). A track
 * the format cannot pack that finely stays raw (*moved 0). A clip without
 * root motion is left as it is. */
ossa_result ossai_clip_pack_motion(ossa_clip **clip, double tolerance, double reach,
                                   const ossa_allocator *allocator, double *moved,
                                   ossa_error *error);

#endif /* OSSA_MOTION_PACK_H */
