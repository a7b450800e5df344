/* crowd_order.c - the characters of each interval bucket kept side by side
 * by the clips they sample (the clip a character weighs, then clip b where
 * it blends two), so that a batch's lanes share few clips: the lane
 * sampling job then takes a compressed clip's lanes together (clip by clip,
 * sample/packed_group_kernels.c) and decodes its set-up once for them,
 * instead of lane by lane. Runs in ossa_crowd_begin_frame; a frame whose
 * buckets are already in order costs one pass over their clip columns. */
#include "crowd_internal.h"

#include <stdint.h>

#include "ossa/lane_order.h"

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

/* The clips a slot's character samples (crowd_update.c), in the top 32
 * bits: the one it weighs (clip b where weight_b is 1, else a), then clip
 * b where it blends, 0xFFFF where it plays one clip alone. */
static inline uint64_t clip_key(const ossa_crowd *c, int slot)
{
    const float w = c->weight_b[slot];
    const uint64_t weighed = w >= 1.0f ? c->clip_b[slot] : c->clip_a[slot];
    const uint64_t blended = w > 0.0f && w < 1.0f ? c->clip_b[slot] : 0xFFFFu;
    return weighed << 48 | blended << 32;
}

/* A hash of the keys of slots [first, end) in slot order and of where
 * the range starts against the batches (first mod width): the same
 * multiset of keys is put in the same order (below), so a range whose hash
 * is the one it had when last put in order is in order still - one pass
 * over its clip columns. Never 0 (a range never put in order). */
static uint64_t range_hash(const ossa_crowd *c, int first, int end)
{
    uint64_t h = 0x9E3779B97F4A7C15ull ^ (uint64_t)(first % c->width);
    for (int s = first; s < end; ++s) {
        h ^= clip_key(c, s) >> 32;
        h *= 0xFF51AFD7ED558CCDull;
        h ^= h >> 29;
    }
    return h | 1u;
}

/* Orders slots [first, end) of bucket b by clip pair (clip_key): each
 * pair's characters side by side, the pairs' runs packed against the
 * batches (ossa_lane_pack_runs), moving only the characters that are out of place;
 * returns the swaps made. A character inside its pair's run stays where it
 * is (characters on the same clips keep no particular order), and each
 * swap puts one character into its run for good - so a frame in which k
 * characters changed clips moves about k times the runs between their old
 * and new places (or, where the packing changes, the runs after), not every
 * character in between. */
static int order_range(ossa_crowd *c, int b, int first, int end)
{
    const int n = end - first;
    const uint64_t hash = range_hash(c, first, end);
    if (hash == c->order_hash[b])
        return 0;
    uint64_t *keys = c->order_key, *run = c->order_run;
    for (int i = 0; i < n; ++i)
        keys[i] = clip_key(c, first + i) | (uint32_t)i;
    sort_by_clips(keys, c->order_tmp, n);
    /* size[r]: the characters that weigh the r-th clip (in keys' order):
     * its pairs' runs are packed together (ossa_lane_pack_runs), so that
     * the first sampling's lanes share few clips too; place[r]: where */
    uint32_t *size = (uint32_t *)(void *)c->order_tmp, *place = size + n;
    int run_count = 0;
    for (int s = 0, e; s < n; s = e) {
        for (e = s + 1; e < n && keys[e] >> 48 == keys[s] >> 48; ++e)
            ;
        size[run_count++] = (uint32_t)(e - s);
    }
    ossa_lane_pack_runs(size, run_count, first, c->width, place, (uint32_t *)(void *)run);
    /* run[i]: the slots [start, end) of the pair of slot i's character
     * (from first), start in the high half; it moves with the character.
     * A weighed clip's pairs keep their order inside its run. */
    for (int r = 0, s0 = 0; r < run_count; s0 += (int)size[r++]) {
        const int e0 = s0 + (int)size[r], at = (int)place[r] - s0;
        for (int s = s0, e; s < e0; s = e) {
            for (e = s + 1; e < e0 && keys[e] >> 32 == keys[s] >> 32; ++e)
                ;
            for (int p = s; p < e; ++p)
                run[(uint32_t)keys[p]] = (uint64_t)(uint32_t)(at + s) << 32 | (uint32_t)(at + e);
        }
    }
    /* keys[s], for the start s of each run: the next slot of the run that
     * may not hold one of its characters yet */
    for (int i = 0; i < n; ++i)
        keys[i] = (uint64_t)i;
    int swaps = 0;
    for (int i = 0; i < n; ++i)
        for (;;) {
            const int s = (int)(run[i] >> 32), e = (int)(uint32_t)run[i];
            if (s <= i && i < e)
                break;
            int j = (int)keys[s];
            while ((int)(run[j] >> 32) == s) /* already its run's */
                ++j;
            /* j < e: the character at i belongs to this run, so not all of
             * its slots hold its characters yet; and j > i, as every slot
             * before i holds a character of its own run */
            ossai_crowd_swap_slots(c, first + i, first + j);
            const uint64_t t = run[i];
            run[i] = run[j];
            run[j] = t;
            keys[s] = (uint64_t)(j + 1);
            ++swaps;
        }
    c->order_hash[b] = swaps ? range_hash(c, first, end) : hash;
    return swaps;
}

int ossai_crowd_order_by_clip(ossa_crowd *c)
{
    if (!c->clip_order)
        return 0;
    int swaps = 0;
    for (int b = BUCKET_SKINNED + 1; b < BUCKET_INACTIVE; ++b)
        swaps += order_range(c, b, c->bucket_end[b - 1], c->bucket_end[b]);
    return swaps;
}
