/* track_kernels.c - the lane float track kernels: tracks sampled at looping
 * playheads, and threshold crossings on the segments of each lane's line
 * (tracks_internal.h's formulas), LANE_V characters per vector. Compiled
 * once per instruction set (core/simd.h). */
#include "core/lane_math.h"
#include "tracks/tracks_lanes.h"

static inline vf clamp(vf v, vf lo, vf hi)
{
    return v_select(v_lt(v, lo), lo, v_select(v_gt(v, hi), hi, v));
}

void OSSAI_ISA_NAME(ossai_track_sample_kernel)(ossai_lane_track_sample_args *a)
{
    for (int lc = 0; lc < a->width; lc += LANE_V) {
        const vf u = v_load(a->time + lc), duration = v_load(a->duration + lc);
        /* the playhead looped into [0, duration), then its frame pair */
        vf t = v_sub(u, v_mul(v_floor(v_div(u, duration)), duration));
        t = v_select(v_lt(t, v_zero()), v_zero(), t);
        t = v_select(v_lt(t, duration), t, v_zero());
        const vf pos = v_mul(t, v_load(a->rate + lc)), last = v_load(a->last_pair + lc);
        vf f = v_floor(pos);
        f = v_select(v_gt(f, last), last, f);
        const vf alpha = clamp(v_sub(pos, f), v_zero(), v_set1(1.0f));
        LANE_ALIGN float index[LANE_V], k0[LANE_V], k1[LANE_V];
        v_store(index, f);
        for (int l = 0; l < LANE_V; ++l) {
            const float *v = a->values[lc + l] + (size_t)index[l];
            k0[l] = v[0];
            k1[l] = v[1];
        }
        const vf b0 = v_load(k0), b1 = v_load(k1);
        v_store(a->out + lc, v_add(v_mul(b0, v_sub(v_set1(1.0f), alpha)), v_mul(b1, alpha)));
    }
}

void OSSAI_ISA_NAME(ossai_track_cross_kernel)(ossai_lane_track_cross_args *a)
{
    const vf threshold = v_set1(a->threshold), one = v_set1(1.0f), zero = v_zero();
    const vf want_rising = v_set1(a->want_rising), want_falling = v_set1(a->want_falling);
    for (int lc = 0; lc < a->width; lc += LANE_V) {
        const vf points = v_load(a->points + lc);
        vf prev = v_load(a->v[0] + lc);
        for (int k = 0; k + 1 < OSSAI_TRACK_POINTS; ++k) {
            const vf next = v_load(a->v[k + 1] + lc);
            /* segment k exists where the lane has k + 2 points */
            const vm exists = v_gt(points, v_set1((float)k + 1.5f));
            /* a change of (value >= threshold): exactly one of the two is below */
            const vf below_prev = v_select(v_lt(prev, threshold), one, zero);
            const vf below_next = v_select(v_lt(next, threshold), one, zero);
            const vf changed = v_mul(v_sub(below_prev, below_next), v_sub(below_prev, below_next));
            const vf rising = v_sub(one, below_next);
            const vf wanted = v_select(v_gt(rising, v_set1(0.5f)), want_rising, want_falling);
            const vf cross = v_select(exists, v_mul(changed, wanted), zero);
            const vf frac = clamp(v_div(v_sub(threshold, prev), v_sub(next, prev)), zero, one);
            v_store(a->cross[k] + lc, cross);
            v_store(a->rising[k] + lc, rising);
            v_store(a->frac[k] + lc, v_select(v_gt(cross, v_set1(0.5f)), frac, zero));
            prev = next;
        }
    }
}
