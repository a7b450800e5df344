/* track_kernels.c - the lane float track kernels: tracks sampled at looping
 * playheads; the short steps of each lane's line (tracks_internal.h's
 * formulas) and their threshold crossings, LANE_V characters per vector.
 * Compiled once per instruction set (core/simd.h). */
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

/* The short step of LANE_V lanes from lane lc: ossai_track_short_step's
 * arithmetic, operation for operation (no fused multiply-add), then each
 * lane's frames gathered into its points. */
static inline void short_steps(ossai_lane_track_cross_args *a, int lc,
                               float pts[OSSAI_TRACK_POINTS][LANE_V], float *count)
{
    const vf u0 = v_load(a->from + lc), u1 = v_load(a->to + lc), d = v_load(a->duration + lc);
    const vf rate = v_load(a->rate + lc), last = v_load(a->last_pair + lc);
    const vf one = v_set1(1.0f), zero = v_zero();
    const vf loop = v_floor(v_div(u0, d));
    /* rounding may leave a time a hair outside its loop: clamped */
    const vf t0 = clamp(v_sub(u0, v_mul(loop, d)), zero, d);
    const vf t1 = clamp(v_sub(u1, v_mul(loop, d)), zero, d);
    const vm back = v_lt(u1, u0);
    const vf p0 = v_mul(t0, rate), p1 = v_mul(t1, rate);
    const vf lo = v_add(v_floor(v_select(back, p1, p0)), one);
    const vf hi_arg = v_select(back, p0, p1);
    const vf hi = v_sub(v_sub(zero, v_floor(v_sub(zero, hi_arg))), one); /* ceil - 1 */
    const vf between = v_select(v_lt(hi, lo), zero, v_add(v_sub(hi, lo), one));
    /* short: one loop; backwards, not ending on the loop's start; few frames */
    const vm same = v_eq(v_floor(v_div(u1, d)), loop);
    const vm ends_inside = v_gt(v_select(back, t1, one), zero);
    const vm few = v_lt(between, v_set1((float)OSSAI_TRACK_POINTS - 1.5f));
    const vm ok = v_and_m(v_and_m(same, ends_inside), v_and_m(few, v_gt(v_load(a->usable + lc),
                                                                         v_set1(0.5f))));
    const vf g0 = v_floor(p0), g1 = v_floor(p1);
    const vf f0 = v_select(v_gt(g0, last), last, g0), f1 = v_select(v_gt(g1, last), last, g1);
    const vf a0 = v_sub(p0, f0), a1 = v_sub(p1, f1);
    LANE_ALIGN float if0[LANE_V], if1[LANE_V], ilo[LANE_V], ihi[LANE_V], n[LANE_V], bk[LANE_V];
    LANE_ALIGN float b0[LANE_V], b1[LANE_V], e0[LANE_V], e1[LANE_V], okf[LANE_V];
    v_store(if0, f0), v_store(if1, f1), v_store(ilo, lo), v_store(ihi, hi), v_store(n, between);
    v_store(bk, v_select(back, one, zero));
    v_store(okf, v_select(ok, one, zero));
    for (int l = 0; l < LANE_V; ++l) {
        if (!(okf[l] > 0.5f)) { /* a long step's frames may lie outside the track */
            b0[l] = b1[l] = e0[l] = e1[l] = 0.0f;
            continue;
        }
        const float *v = a->values[lc + l];
        const int k0 = (int)if0[l], k1 = (int)if1[l];
        b0[l] = v[k0], b1[l] = v[k0 + 1], e0[l] = v[k1], e1[l] = v[k1 + 1];
    }
    const vf v0 = v_add(v_mul(v_load(b0), v_sub(one, a0)), v_mul(v_load(b1), a0));
    const vf v1 = v_add(v_mul(v_load(e0), v_sub(one, a1)), v_mul(v_load(e1), a1));
    LANE_ALIGN float first[LANE_V], end[LANE_V];
    v_store(first, v0);
    v_store(end, v1);
    for (int l = 0; l < LANE_V; ++l) {
        if (!(okf[l] > 0.5f)) {
            count[l] = a->usable[lc + l] > 0.5f ? -1.0f : 0.0f;
            continue;
        }
        const float *v = a->values[lc + l];
        const int m = (int)n[l];
        pts[0][l] = first[l];
        for (int k = 0; k < m; ++k)
            pts[k + 1][l] = v[bk[l] > 0.5f ? (int)ihi[l] - k : (int)ilo[l] + k];
        pts[m + 1][l] = end[l];
        count[l] = (float)(m + 2);
    }
}

void OSSAI_ISA_NAME(ossai_track_cross_kernel)(ossai_lane_track_cross_args *a)
{
    const vf threshold = v_set1(a->threshold), one = v_set1(1.0f), zero = v_zero();
    const vf want_rising = v_set1(a->want_rising), want_falling = v_set1(a->want_falling);
    for (int lc = 0; lc < a->width; lc += LANE_V) {
        LANE_ALIGN float pts[OSSAI_TRACK_POINTS][LANE_V] = {{0}};
        short_steps(a, lc, pts, a->points + lc);
        const vf points = v_load(a->points + lc);
        vf prev = v_load(pts[0]), found = zero;
        for (int k = 0; k + 1 < OSSAI_TRACK_POINTS; ++k) {
            const vf next = v_load(pts[k + 1]);
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
            found = v_add(found, cross);
            prev = next;
        }
        v_store(a->found + lc, found);
    }
}
