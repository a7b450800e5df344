/* crowd_plan.c - the start of a crowd frame: playheads advanced
 * (crowd_locomotion.c), the plan of the batches this frame updates
 * (update-rate LOD), the frame's counts. */
#include "crowd_internal.h"

#include <math.h>

static void plan(ossa_crowd *c)
{
    enum { CHOSEN = 4 };
    const int f = (int)(c->frame % 4);
    int chosen[CHOSEN] = {BUCKET_SKINNED, ossai_crowd_bucket(1, 0), ossai_crowd_bucket(2, f % 2),
                          ossai_crowd_bucket(4, f)};
    for (int i = 1; i < CHOSEN; ++i) /* in slot order, so touching ranges merge */
        for (int k = i; k > 0 && chosen[k] < chosen[k - 1]; --k) {
            int t = chosen[k];
            chosen[k] = chosen[k - 1];
            chosen[k - 1] = t;
        }
    c->batch_count = 0;
    c->stats.updated = 0;
    for (int i = 0; i < CHOSEN;) {
        const int b = chosen[i];
        const int first = b == 0 ? 0 : c->bucket_end[b - 1];
        int last = c->bucket_end[b];
        for (++i; i < CHOSEN && chosen[i] == chosen[i - 1] + 1; ++i)
            last = c->bucket_end[chosen[i]];
        c->stats.updated += last - first;
        /* batches end on multiples of the width, which the clip order
         * packs its runs against (crowd_order.c) */
        for (int s = first, e; s < last; s = e) {
            e = (s / c->width + 1) * c->width;
            e = e < last ? e : last;
            c->batch_first[c->batch_count] = s;
            c->batch_size[c->batch_count] = e - s;
            c->batch_events[c->batch_count] = 0;
            c->batch_trigger_count[c->batch_count] = 0;
            c->batch_count++;
        }
    }
}

ossa_result ossa_crowd_begin_frame(ossa_crowd *c, float dt_s, int *batch_count)
{
    if (!c)
        return OSSA_ERR_MISSING_INPUT;
    if (!(dt_s >= 0.0f) || !isfinite(dt_s))
        return OSSA_ERR_BAD_VALUE;
    const int active = ossa_crowd_active_count(c);
    ossai_crowd_advance(c, dt_s, active);
    c->stats.reordered = ossai_crowd_order_by_clip(c);
    plan(c);
    c->footfall_count = 0;
    c->event_count = 0;
    ossa_crowd_stats *st = &c->stats;
    st->frame = ++c->frame;
    st->characters = c->count;
    st->active = active;
    st->skinned = c->bucket_end[BUCKET_SKINNED];
    for (int k = 0; k < 3; ++k) {
        st->interval_count[k] = k == 0 ? st->skinned : 0;
        for (int p = 0; p < (1 << k); ++p) {
            const int b = ossai_crowd_bucket(1 << k, p);
            st->interval_count[k] += c->bucket_end[b] - (b == 0 ? 0 : c->bucket_end[b - 1]);
        }
    }
    st->updates_per_frame = (float)st->interval_count[0] + (float)st->interval_count[1] / 2.0f +
                            (float)st->interval_count[2] / 4.0f;
    st->batches = c->batch_count;
    st->lanes = c->batch_count * c->width;
    if (batch_count)
        *batch_count = c->batch_count;
    return OSSA_OK;
}
