/* clip_bake.h - source curves -> a raw (float keys) runtime clip at a given
 * rate, and the choice of that rate. Pipeline-internal. */
#ifndef OSSA_CLIP_BAKE_H
#define OSSA_CLIP_BAKE_H

#include "ossa/clip_builder.h"

/* The frame count that spans `duration` at about `rate` Hz: a duration
 * within a third of an instant of whole frames keeps the rate (so keys on
 * its grid stay on frames), any other takes one more frame. 1 when the
 * duration is 0. A double: it may be huge. */
double ossai_clip_frames_needed(double duration, double rate);

/* A raw clip of frame_count frames spanning duration (1 frame: duration 0):
 * every joint's source curves (tracks[j], NULL for the rest pose) sampled at
 * each frame time in double, keys within an instant of a frame reproduced
 * exactly, rotations kept on one hemisphere from frame to frame. Allocated
 * with the allocator as one block. OSSA_ERR_CLIP_BAD_KEYS when a spline
 * leaves the float range, OSSA_ERR_CLIP_TOO_LARGE, out of memory. */
ossa_result ossai_clip_bake(const ossa_raw_joint_track *const *tracks,
                            const ossa_skeleton *skeleton, const char *name, double duration,
                            uint32_t frame_count, const ossa_allocator *allocator,
                            ossa_clip **out, ossa_error *error);

/* Records the builder's measured error in the clip (ossa_clip_error). */
void ossai_clip_set_error(ossa_clip *clip, double error, int joint, double time_s);

/* The rate the keys ask for: the smallest integer rate <= 240 Hz putting
 * every key on a frame, or the reciprocal of a common key step (mocap at
 * 120 Hz stored as multiples of 0.0083333 s), raised to a multiple of itself
 * >= 24 Hz; 30 Hz when no grid fits. *on_grid tells which. */
double ossai_clip_key_rate(const ossa_raw_joint_track *const *tracks, int joint_count,
                           int *on_grid);

#endif /* OSSA_CLIP_BAKE_H */
