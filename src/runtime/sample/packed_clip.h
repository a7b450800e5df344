/* packed_clip.h - the reference decoder of compressed clips: a pose (or
 * part of one) at a clip time, decoding only the two frames around it, one
 * value at a time. The lane kernels are tested against it bit for bit. */
#ifndef OSSA_PACKED_CLIP_H
#define OSSA_PACKED_CLIP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "blob/format.h"
#include "ossa/sampling_job.h"

/* Where frame f's values are in a compressed clip's packed block: its
 * segment's widths and ranges (smin, sext NULL without per-segment ranges)
 * and the bit of its first value, which runs on as values are read. The
 * reference decoder and every lane kernel locate frames with it. */
typedef struct ossai_packed_frame {
    const uint8_t *width, *smin, *sext;
    uint64_t bit;
} ossai_packed_frame;

static inline ossai_packed_frame ossai_packed_frame_at(const ossa_clip *clip,
                                                       const ossai_packed_block *b, uint32_t f)
{
    const uint32_t n = b->component_count;
    const uint32_t s = f >> b->segment_shift, i = f - (s << b->segment_shift);
    const int ranges = (b->flags & OSSAI_PACK_SEGMENT_RANGES) != 0;
    const uint8_t *data = (const uint8_t *)clip + b->seg_data_offset +
                          (size_t)s * n * (ranges ? 3u : 1u);
    const ossai_packed_segment *seg =
        (const ossai_packed_segment *)(const void *)((const char *)clip + b->segments_offset) + s;
    ossai_packed_frame at;
    at.width = data;
    at.smin = ranges ? data + n : NULL;
    at.sext = ranges ? data + 2 * (size_t)n : NULL;
    at.bit = (uint64_t)seg->byte_offset * 8u + (uint64_t)i * seg->frame_bits;
    return at;
}

/* Joints [first, first + count) of the clip at clip time t_s (in [0,
 * duration]) into out[0, count). rest is the skeleton's rest pose
 * (joint_count entries; may be NULL when the clip has no rest track, else
 * the identity stands in). */
void ossai_packed_sample(const ossa_clip *clip, const ossa_transform *rest, float t_s,
                         ossa_rotation_interp interp, int first, int count, ossa_transform *out);

/* Asks for the lines sampling frame f0 of the clip (and the next) reads -
 * the segment's widths and the two frames' bits, and with `whole` the
 * clip's masks, constants and ranges too - without waiting for them: a
 * batch's lanes play clips anywhere in memory, and the lane job (with
 * prefetch_ahead) asks for the next batch's while it samples this one. */
void ossai_packed_prefetch(const ossa_clip *clip, uint32_t f0, bool whole);

#endif /* OSSA_PACKED_CLIP_H */
