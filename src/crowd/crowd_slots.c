/* crowd_slots.c - the crowd's active region cut into buckets (skinned,
 * then update interval x phase, then inactive), and the moves between them:
 * one swap of every column per bucket boundary crossed. */
#include "crowd_internal.h"

#include <stdint.h>
#include <string.h>

static const int bucket_interval[BUCKET_COUNT] = {1, 4, 2, 1, 2, 4, 4, 4, 0};
static const int bucket_phase[BUCKET_COUNT] = {0, 0, 0, 0, 1, 1, 2, 3, 0};

int ossai_crowd_bucket(int interval, int phase)
{
    for (int b = BUCKET_SKINNED + 1; b < BUCKET_INACTIVE; ++b)
        if (bucket_interval[b] == interval && bucket_phase[b] == phase)
            return b;
    return BUCKET_INACTIVE;
}

int ossai_crowd_bucket_interval(int bucket)
{
    return bucket_interval[bucket];
}

int ossai_crowd_bucket_phase(int bucket)
{
    return bucket_phase[bucket];
}

static int bucket_size(const ossa_crowd *c, int b)
{
    return c->bucket_end[b] - (b == 0 ? 0 : c->bucket_end[b - 1]);
}

int ossai_crowd_bucket_of(const ossa_crowd *c, int slot)
{
    int b = 0;
    while (slot >= c->bucket_end[b])
        ++b;
    return b;
}

/* The phase of an interval with the fewest characters (lowest on a tie). */
static int emptiest_phase(const ossa_crowd *c, int interval)
{
    int best = 0, best_size = INT32_MAX;
    for (int p = 0; p < interval; ++p) {
        const int size = bucket_size(c, ossai_crowd_bucket(interval, p));
        if (size < best_size) {
            best = p;
            best_size = size;
        }
    }
    return best;
}

int ossai_crowd_home_bucket(const ossa_crowd *c, int slot)
{
    if (c->skinned[slot])
        return BUCKET_SKINNED;
    const int interval = c->interval[slot];
    return ossai_crowd_bucket(interval, emptiest_phase(c, interval));
}

/* Swaps bytes [0, bytes) of a and b: by 8-byte words where bytes is a
 * multiple of 8 (a name, a palette), else through a buffer. */
static void swap_bytes(unsigned char *a, unsigned char *b, size_t bytes)
{
    if (bytes % 8 == 0) {
        for (size_t w = 0; w < bytes; w += 8) {
            uint64_t x, y;
            memcpy(&x, a + w, 8);
            memcpy(&y, b + w, 8);
            memcpy(a + w, &y, 8);
            memcpy(b + w, &x, 8);
        }
        return;
    }
    unsigned char tmp[256];
    while (bytes) {
        const size_t n = bytes < sizeof tmp ? bytes : sizeof tmp;
        memcpy(tmp, a, n);
        memcpy(a, b, n);
        memcpy(b, tmp, n);
        a += n;
        b += n;
        bytes -= n;
    }
}

/* Swaps entries a and b of each of the n columns of `type` at of[]. */
#define SWAP_ENTRIES(type, of, count)                                                          \
    for (int k = 0, n = (count); k < n; ++k) {                                                 \
        type *p = (type *)(of)[k], x, y;                                                       \
        memcpy(&x, p + a, sizeof x);                                                           \
        memcpy(&y, p + b, sizeof y);                                                           \
        memcpy(p + a, &y, sizeof y);                                                           \
        memcpy(p + b, &x, sizeof x);                                                           \
    }

void ossai_crowd_swap_slots(ossa_crowd *c, int a, int b)
{
    if (a == b)
        return;
    /* every column's entries whole, by size (the clip order swaps hundreds
     * of slots a frame where characters change clips) */
    const crowd_columns *cs = &c->columns;
    SWAP_ENTRIES(uint8_t, cs->of[0], cs->count[0]);
    SWAP_ENTRIES(uint16_t, cs->of[1], cs->count[1]);
    SWAP_ENTRIES(uint32_t, cs->of[2], cs->count[2]);
    SWAP_ENTRIES(uint64_t, cs->of[3], cs->count[3]);
    for (int k = 0; k < cs->wide_count; ++k) {
        unsigned char *data = (unsigned char *)cs->wide[k];
        const size_t bytes = cs->wide_bytes[k];
        swap_bytes(data + (size_t)a * bytes, data + (size_t)b * bytes, bytes);
    }
#undef SWAP_ENTRIES
    /* Palettes are read in BUCKET_SKINNED only (a character entering it
     * gets a new one), so a swap of two slots outside it moves none; and
     * they exist for the first skinned_capacity slots only, where every
     * skinned character is, so a swap with a slot beyond moves nothing
     * anyone reads either. */
    const int skinned_end = c->bucket_end[BUCKET_SKINNED];
    if ((a < skinned_end || b < skinned_end) && a < c->skinned_capacity &&
        b < c->skinned_capacity) {
        const size_t bytes = sizeof(ossa_mat34) * (size_t)c->skin_joint_count;
        swap_bytes((unsigned char *)(c->palette) + (size_t)a * bytes,
                   (unsigned char *)(c->palette) + (size_t)b * bytes, bytes);
    }
    c->slot_of[c->entity[a]] = a;
    c->slot_of[c->entity[b]] = b;
}

int ossai_crowd_move(ossa_crowd *c, int slot, int to)
{
    const int from = ossai_crowd_bucket_of(c, slot);
    for (int k = from; k < to; ++k) { /* rightwards: become the first of k + 1 */
        const int last = c->bucket_end[k] - 1;
        ossai_crowd_swap_slots(c, slot, last);
        slot = last;
        c->bucket_end[k]--;
    }
    for (int k = from - 1; k >= to; --k) { /* leftwards: become the last of k */
        const int first = c->bucket_end[k];
        ossai_crowd_swap_slots(c, slot, first);
        slot = first;
        c->bucket_end[k]++;
    }
    /* a palette belongs to the stay in BUCKET_SKINNED it was computed in */
    if (from != to && (from == BUCKET_SKINNED || to == BUCKET_SKINNED))
        c->palette_ready[slot] = 0;
    return slot;
}

void ossai_crowd_rebalance(ossa_crowd *c, int interval)
{
    if (interval <= 1)
        return;
    int small = ossai_crowd_bucket(interval, 0), big = small;
    for (int p = 1; p < interval; ++p) {
        const int b = ossai_crowd_bucket(interval, p);
        if (bucket_size(c, b) < bucket_size(c, small))
            small = b;
        if (bucket_size(c, b) > bucket_size(c, big))
            big = b;
    }
    if (bucket_size(c, big) - bucket_size(c, small) > 1)
        ossai_crowd_move(c, c->bucket_end[big] - 1, small);
}
