/* clip_fit.h - a baked clip's frames refitted to the source curves by least
 * squares (see clip_fit.c). Pipeline-internal. */
#ifndef OSSA_CLIP_FIT_H
#define OSSA_CLIP_FIT_H

#include "ossa/clip_builder.h"

/* Refits in place the frames of every LINEAR track of a raw clip
 * (tracks[j]: joint j's source, NULL for none) that has a key between
 * frames. Other tracks (keys on frames, STEP, CUBICSPLINE) and clips of
 * fewer than 3 frames keep their sampled frames. */
ossa_result ossai_clip_fit(ossa_clip *clip, const ossa_raw_joint_track *const *tracks,
                           double duration, const ossa_allocator *allocator);

#endif /* OSSA_CLIP_FIT_H */
