/* motion_kernels.c - the lane root motion kernel: playheads split into
 * loops and clip time, the motion track decoded for every lane at once
 * (motion_decode.h) and interpolated, and M(t0)^-1 L^n M(t1)
 * (root_motion_job.c) for LANE_V characters per vector, sine and cosine by
 * polynomial. Compiled once per instruction set (core/simd.h). */
#include <math.h>

#include "core/lane_math.h"
#include "motion/motion_decode.h"
#include "motion/motion_internal.h"
#include "motion/motion_lanes.h"

/* sin and cos of x: x - k pi/2 in three parts (Cody and Waite) into
 * [-pi/4, pi/4], minimax polynomials there (Cephes' sinf / cosf
 * coefficients), then the quadrant k mod 4 picks and signs them. Within a
 * few ulps for |x| up to thousands of radians. */
static inline void sincos_v(vf x, vf *s, vf *c)
{
    const vf k = v_floor(v_fmadd(x, v_set1(0.636619772f), v_set1(0.5f)));
    vf r = v_sub(x, v_mul(k, v_set1(1.5703125f)));
    r = v_sub(r, v_mul(k, v_set1(4.837512969970703125e-4f)));
    r = v_sub(r, v_mul(k, v_set1(7.54978995489188216e-8f)));
    const vf r2 = v_mul(r, r);
    vf ps = v_fmadd(v_fmadd(v_set1(-1.9515295891e-4f), r2, v_set1(8.3321608736e-3f)), r2,
                    v_set1(-1.6666654611e-1f));
    ps = v_fmadd(v_mul(ps, r2), r, r);
    vf pc = v_fmadd(v_fmadd(v_fmadd(v_set1(2.443315711809948e-5f), r2,
                                    v_set1(-1.388731625493765e-3f)),
                            r2, v_set1(4.166664568298827e-2f)),
                    r2, v_set1(-0.5f));
    pc = v_fmadd(pc, r2, v_set1(1.0f));
    /* quadrant q in {0, 1, 2, 3}: sin is s, c, -s, -c and cos c, -s, -c, s */
    const vf q = v_sub(k, v_mul(v_set1(4.0f), v_floor(v_mul(k, v_set1(0.25f)))));
    const vf odd = v_sub(q, v_mul(v_set1(2.0f), v_floor(v_mul(q, v_set1(0.5f)))));
    const vm swap = v_eq(odd, v_set1(1.0f));
    const vm neg_s = v_gt(q, v_set1(1.5f));
    const vm neg_c = v_lt(v_mul(v_sub(q, v_set1(0.5f)), v_sub(q, v_set1(2.5f))), v_zero());
    *s = v_negate_where(v_select(swap, pc, ps), neg_s);
    *c = v_negate_where(v_select(swap, ps, pc), neg_c);
}

static inline vf clamp(vf v, vf lo, vf hi)
{
    return v_select(v_lt(v, lo), lo, v_select(v_gt(v, hi), hi, v));
}

/* Clip time and loops of playheads u (motion_internal.h's split), and the
 * frame pair index and factor of that time. */
static inline vf split_locate(vf u, vf duration, vf rate, vf last, vf *pair, vf *alpha)
{
    const vf loops = v_floor(v_div(u, duration));
    const vf t = clamp(v_sub(u, v_mul(loops, duration)), v_zero(), duration);
    const vf pos = v_mul(t, rate);
    vf f = v_floor(pos);
    f = v_select(v_gt(f, last), last, f);
    *pair = f;
    *alpha = clamp(v_sub(pos, f), v_zero(), v_set1(1.0f));
    return loops;
}

/* M at the frame pairs of each lane: x, z, yaw interpolated. */
static inline void motion_at(const motion_lanes *m, vf pair, vf alpha, vf out[3])
{
    vf k0[3], k1[3];
    motion_frames(m, pair, k0);
    motion_frames(m, v_add(pair, v_set1(1.0f)), k1);
    for (int c = 0; c < 3; ++c)
        out[c] = lerp_exact(k0[c], k1[c], alpha);
}

void OSSAI_ISA_NAME(ossai_motion_kernel)(ossai_lane_motion_args *a)
{
    for (int lc = 0; lc < a->width; lc += LANE_V) {
        const vf duration = v_load(a->duration + lc), rate = v_load(a->rate + lc);
        const vf last = v_load(a->last_pair + lc);
        vf pair0, alpha0, pair1, alpha1, m0[3], m1[3];
        const vf n = v_sub(split_locate(v_load(a->to + lc), duration, rate, last, &pair1, &alpha1),
                           split_locate(v_load(a->from + lc), duration, rate, last, &pair0,
                                        &alpha0));
        motion_lanes lanes;
        motion_lanes_make(&lanes, a->motion + lc);
        LANE_ALIGN float last_frame[LANE_V];
        for (int l = 0; l < LANE_V; ++l) /* without motion: its zero track's second */
            last_frame[l] = a->motion[lc + l] ? (float)(a->motion[lc + l]->frame_count - 1) : 1.0f;
        motion_at(&lanes, pair0, alpha0, m0);
        motion_at(&lanes, pair1, alpha1, m1);
        /* the loop's motion: the last frame */
        vf loop[3];
        motion_frames(&lanes, v_load(last_frame), loop);
        const vf half = v_mul(v_set1(0.5f), loop[2]);
        vf sh, ch, sa, ca, s0, c0;
        sincos_v(half, &sh, &ch);
        sincos_v(v_mul(n, half), &sa, &ca);
        sincos_v(m0[2], &s0, &c0);
        const vm small = v_lt(v_max(half, v_sub(v_zero(), half)), v_set1(1e-6f));
        const vf ratio = v_select(small, n, v_div(sa, sh));
        /* turned by (n - 1) half = n half - half, and by n yaw_L = 2 n half */
        const vf ct = v_fmadd(sa, sh, v_mul(ca, ch)), st = v_sub(v_mul(sa, ch), v_mul(ca, sh));
        const vf cy = v_sub(v_mul(ca, ca), v_mul(sa, sa));
        const vf sy = v_mul(v_set1(2.0f), v_mul(sa, ca));
        const vf qx = v_sub(v_fmadd(ratio, v_fmadd(loop[1], st, v_mul(loop[0], ct)),
                                    v_fmadd(m1[1], sy, v_mul(m1[0], cy))),
                            m0[0]);
        const vf qz = v_sub(v_fmadd(ratio, v_sub(v_mul(loop[1], ct), v_mul(loop[0], st)),
                                    v_sub(v_mul(m1[1], cy), v_mul(m1[0], sy))),
                            m0[1]);
        v_store(a->out[0] + lc, v_sub(v_mul(qx, c0), v_mul(qz, s0)));
        v_store(a->out[1] + lc, v_fmadd(qx, s0, v_mul(qz, c0)));
        v_store(a->out[2] + lc, v_fmadd(n, loop[2], v_sub(m1[2], m0[2])));
    }
}
