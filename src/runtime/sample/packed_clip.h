/* packed_clip.h - the reference decoder of compressed clips: a pose (or
 * part of one) at a clip time, decoding only the two frames around it, one
 * value at a time. The lane kernels are tested against it bit for bit. */
#ifndef OSSA_PACKED_CLIP_H
#define OSSA_PACKED_CLIP_H

#include "ossa/sampling_job.h"

/* Joints [first, first + count) of the clip at clip time t_s (in [0,
 * duration]) into out[0, count). rest is the skeleton's rest pose
 * (joint_count entries; may be NULL when the clip has no rest track, else
 * the identity stands in). */
void ossai_packed_sample(const ossa_clip *clip, const ossa_transform *rest, float t_s,
                         ossa_rotation_interp interp, int first, int count, ossa_transform *out);

#endif /* OSSA_PACKED_CLIP_H */
