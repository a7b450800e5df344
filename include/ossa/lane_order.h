/* ossa/lane_order.h - an order of characters that keeps the lane sampling
 * job's batches on few clips (docs/compression.md, "Sampling"): each clip's
 * characters side by side, and the clips' runs packed against the batches,
 * so that a run is cut by a batch boundary only where none fits. A batch
 * over compressed clips costs more the more clips its lanes play; over 256
 * clips with about four characters each, sorting by clip leaves 2.76
 * clips a batch of 8 and this order 2.06 (tests/lane_order_test.c). The
 * crowd orders its characters so (docs/crowd.md, "Clip order"). The results of every job are the same
 * in any order; only the cost changes. */
#ifndef OSSA_LANE_ORDER_H
#define OSSA_LANE_ORDER_H

#include <stddef.h>
#include <stdint.h>

#include "result.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Places runs of characters against batches of `width` lanes (4, 8 or 16;
 * 0 means ossa_lane_width()) whose first position is `first` (>= 0;
 * batches end on multiples of width, counted from position 0): run r holds
 * size[r] >= 1 characters (run_count >= 0 runs, in the caller's order), and
 * place[r] gets its first position, counted from first; the runs fill
 * [first, first + the sum of the sizes) without gaps. Where a batch has room
 * for k more, the next run placed is one of exactly k characters, else the
 * largest that fits, else one of width or more, else the largest left; runs
 * of one size in the caller's order. link: run_count uint32_t of scratch.
 * OSSA_ERR_MISSING_INPUT / _OUTPUT for NULL arrays (with run_count > 0),
 * OSSA_ERR_BAD_ARGUMENT for a bad width or a negative count or first,
 * OSSA_ERR_BAD_VALUE for a size of 0 or sizes whose sum passes INT32_MAX. */
ossa_result ossa_lane_pack_runs(const uint32_t *size, int run_count, int first, int width,
                                uint32_t *place, uint32_t *link);

/* Scratch bytes ossa_lane_clip_order needs for character_count characters
 * and clip_count clips; 0 for counts < 1 or too large. */
size_t ossa_lane_clip_order_scratch_size(int character_count, int clip_count);

/* order[p] (p < character_count) = the character to put at position p of
 * the lane jobs' input: the characters of each clip contiguous, in their
 * index order, the clips' runs packed against batches of `width` lanes
 * starting at position 0 (ossa_lane_pack_runs). clip_index[i] < clip_count
 * is character i's clip. scratch: ossa_lane_clip_order_scratch_size bytes,
 * any alignment of 4. Errors as ossa_lane_pack_runs, plus
 * OSSA_ERR_BAD_INDEX for a clip index out of range and
 * OSSA_ERR_INPUT_TOO_SMALL for too little scratch. */
ossa_result ossa_lane_clip_order(const uint16_t *clip_index, int character_count, int clip_count,
                                 int width, int *order, void *scratch, size_t scratch_bytes);

#ifdef __cplusplus
}
#endif

#endif /* OSSA_LANE_ORDER_H */
