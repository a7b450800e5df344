/* lane_order.c - see ossa/lane_order.h. */
#include "ossa/lane_order.h"

#include "ossa/lanes.h"

ossa_result ossa_lane_pack_runs(const uint32_t *size, int run_count, int first, int width,
                                uint32_t *place, uint32_t *link)
{
    enum { MAX_WIDTH = OSSA_LANE_MAX_WIDTH };
    if (width == 0)
        width = ossa_lane_width();
    if ((width != 4 && width != 8 && width != 16) || run_count < 0 || first < 0)
        return OSSA_ERR_BAD_ARGUMENT;
    if (run_count == 0)
        return OSSA_OK;
    if (!size || !link)
        return OSSA_ERR_MISSING_INPUT;
    if (!place)
        return OSSA_ERR_MISSING_OUTPUT;
    uint64_t total = 0;
    for (int r = 0; r < run_count; ++r) {
        if (size[r] == 0)
            return OSSA_ERR_BAD_VALUE;
        total += size[r];
    }
    if (total > (uint64_t)INT32_MAX)
        return OSSA_ERR_BAD_VALUE;
    /* head[k]: the first run not yet placed of size k (1 <= k < width), or
     * of width or more (k = 0); run_count when none; link[r] chains a run
     * to the next of its size */
    uint32_t head[MAX_WIDTH];
    const uint32_t none = (uint32_t)run_count, w = (uint32_t)width;
    for (uint32_t k = 0; k < w; ++k)
        head[k] = none;
    for (int r = run_count - 1; r >= 0; --r) {
        const uint32_t k = size[r] >= w ? 0u : size[r];
        link[r] = head[k];
        head[k] = (uint32_t)r;
    }
    uint32_t at = 0;
    for (int placed = 0; placed < run_count; ++placed) {
        const uint32_t room = w - ((uint32_t)first % w + at % w) % w;
        uint32_t k = w; /* none chosen */
        if (head[room % w] != none)
            k = room % w; /* fills the batch: exactly room, or width or more at its start */
        for (uint32_t s = room - 1; k == w && s > 0; --s)
            if (head[s] != none)
                k = s;
        if (k == w && head[0] != none)
            k = 0;
        for (uint32_t s = w - 1; k == w && s > room; --s)
            if (head[s] != none)
                k = s;
        const uint32_t r = head[k];
        head[k] = link[r];
        place[r] = at;
        at += size[r];
    }
    return OSSA_OK;
}

size_t ossa_lane_clip_order_scratch_size(int character_count, int clip_count)
{
    if (character_count < 1 || clip_count < 1 || clip_count > 65536)
        return 0;
    /* per clip: its characters (then its run's next position), its run's
     * size, place and link */
    return sizeof(uint32_t) * 4 * (size_t)clip_count;
}

ossa_result ossa_lane_clip_order(const uint16_t *clip_index, int character_count, int clip_count,
                                 int width, int *order, void *scratch, size_t scratch_bytes)
{
    if (character_count < 1 || clip_count < 1 || clip_count > 65536)
        return OSSA_ERR_BAD_ARGUMENT;
    if (!clip_index || !scratch)
        return OSSA_ERR_MISSING_INPUT;
    if (!order)
        return OSSA_ERR_MISSING_OUTPUT;
    if (scratch_bytes < ossa_lane_clip_order_scratch_size(character_count, clip_count))
        return OSSA_ERR_INPUT_TOO_SMALL;
    if ((uintptr_t)scratch % sizeof(uint32_t))
        return OSSA_ERR_MISALIGNED;
    const size_t clips = (size_t)clip_count;
    uint32_t *count = (uint32_t *)scratch;
    uint32_t *size = count + clips, *place = size + clips, *link = place + clips;
    for (size_t k = 0; k < clips; ++k)
        count[k] = 0;
    for (int i = 0; i < character_count; ++i) {
        if (clip_index[i] >= clip_count)
            return OSSA_ERR_BAD_INDEX;
        ++count[clip_index[i]];
    }
    /* the runs: the clips that have characters, in clip order */
    int runs = 0;
    for (size_t k = 0; k < clips; ++k)
        if (count[k])
            size[runs++] = count[k];
    const ossa_result r = ossa_lane_pack_runs(size, runs, 0, width, place, link);
    if (r != OSSA_OK)
        return r;
    /* count[k]: the next position of clip k's run */
    for (size_t k = 0, run = 0; k < clips; ++k)
        if (count[k])
            count[k] = place[run++];
    for (int i = 0; i < character_count; ++i)
        order[count[clip_index[i]]++] = i;
    return OSSA_OK;
}
