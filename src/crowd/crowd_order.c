/* crowd_order.c - the characters of each interval bucket kept side by side
 * by the clips they play, so that a batch's lanes share few clips: the lane
 * sampling job then takes a compressed clip's lanes together (clip by clip,
 * sample/packed_group_kernels.c) and decodes its set-up once for them,
 * instead of lane by lane. Runs in ossa_crowd_begin_frame; a frame whose
 * buckets are already in order costs one pass over their clip columns. */
#include "crowd_internal.h"

#include <stdint.h>

/* Sorts keys[0, n) by their top 32 bits (the clip pair), stably: four
 * passes of 8 bits, through tmp. */
static void sort_by_clips(uint64_t *keys, uint64_t *tmp, int n)
{
    for (int shift = 32; shift < 64; shift += 8) {
        int count[257] = {0};
        for (int i = 0; i < n; ++i)
            count[(keys[i] >> shift & 0xFFu) + 1]++;
        for (int d = 0; d < 256; ++d)
            count[d + 1] += count[d];
        for (int i = 0; i < n; ++i)
            tmp[count[keys[i] >> shift & 0xFFu]++] = keys[i];
        uint64_t *t = keys;
        keys = tmp;
        tmp = t;
    }
    /* four passes: the sorted keys are back in the caller's array */
}

static inline uint64_t clip_key(const ossa_crowd *c, int slot)
{
    return (uint64_t)c->clip_a[slot] << 48 | (uint64_t)c->clip_b[slot] << 32;
}

/* Orders slots [first, end) by (clip_a, clip_b), keeping the order of those
 * with equal clips; returns the swaps made. */
static int order_range(ossa_crowd *c, int first, int end)
{
    const int n = end - first;
    int sorted = 1;
    for (int s = first + 1; s < end && sorted; ++s)
        sorted = clip_key(c, s - 1) <= clip_key(c, s);
    if (sorted)
        return 0;
    uint64_t *keys = c->order_key, *tmp = c->order_tmp;
    for (int i = 0; i < n; ++i)
        keys[i] = clip_key(c, first + i) | (uint32_t)i;
    sort_by_clips(keys, tmp, n);
    /* keys[i]'s low half: the slot (from first) whose character goes to i.
     * Each cycle of that permutation is walked with swaps: i takes its
     * character, and the one it held moves on to where it is wanted. */
    int swaps = 0;
    for (int i = 0; i < n; ++i) {
        int x = i;
        for (;;) {
            const int from = (int)(uint32_t)keys[x];
            keys[x] = (uint64_t)(uint32_t)x; /* placed */
            if (from == i)
                break;
            ossai_crowd_swap_slots(c, first + x, first + from);
            ++swaps;
            x = from;
        }
    }
    return swaps;
}

int ossai_crowd_order_by_clip(ossa_crowd *c)
{
    if (!c->clip_order)
        return 0;
    int swaps = 0;
    for (int b = BUCKET_SKINNED + 1; b < BUCKET_INACTIVE; ++b)
        swaps += order_range(c, c->bucket_end[b - 1], c->bucket_end[b]);
    return swaps;
}
