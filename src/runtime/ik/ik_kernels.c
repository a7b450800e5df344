/* ik_kernels.c - the IK lane kernels, LANE_V characters per vector: the
 * reference jobs' formulas (ik_two_bone_job.c, ik_aim_job.c) step by step,
 * every branch a select; trigonometry only in the weight's slerp, by
 * polynomials. Compiled once per instruction set. */
#include <math.h>
#include <stddef.h>

#include "core/vec.h"
#include "ik/ik_internal.h"
#include "ik/ik_lane_math.h"
#include "ik/ik_lanes.h"

/* ---- two-bone ---- */

typedef struct limb_out {
    vq start, mid;
    lv flags;
} limb_out;

/* The reference's solve() for LANE_V lanes; `finite` is the lanes whose
 * inputs are all finite (the others get identities and BAD_INPUT). */
OSSAI_IK_INLINE limb_out two_bone_lanes(const ossai_ik_two_bone_args *a, const vmat *ms, const vmat *mm,
                               const vmat *me, v3 target, v3 pole, lm finite)
{
    const lv zero = l_zero(), one = l_set1(1.0f), eps = l_set1(OSSAI_IK_EPS);
    const v3 s = mat_pos(ms), m = mat_pos(mm), e = mat_pos(me);
    const v3 u = v3_sub(s, m), v = v3_sub(e, m);
    const lv u2 = v3_len2(u), v2 = v3_len2(v);
    const lv l1 = l_sqrt(u2), l2 = l_sqrt(v2), length = l_add(l1, l2);
    const lm bones = l_and_m(l_gt(l1, l_mul(eps, length)), l_gt(l2, l_mul(eps, length)));
    const v3 g = v3_sub(target, s);

    /* the hinge axis, in model space and in the middle joint's frame */
    v3 ax, ax_local;
    if (a->has_axis) {
        ax_local = v3_splat(a->mid_axis);
        ax = v3_unit(mat_apply(mm, ax_local));
    } else {
        const lv tiny = l_set1(OSSAI_IK_EPS * OSSAI_IK_EPS);
        const v3 bend = v3_cross(v, u);
        const v3 toward_pole = v3_cross(pole, g);
        const v3 any = perpendicular(v3_unit(v3_sub(v, u)), v3_make(zero, zero, zero));
        const lm pole_ok = l_gt(v3_len2(toward_pole), l_mul(tiny, l_mul(v3_len2(g), v3_len2(pole))));
        const v3 fallback = v3_select(pole_ok, toward_pole, any);
        ax = v3_unit(v3_select(l_gt(v3_len2(bend), l_mul(tiny, l_mul(u2, v2))), bend, fallback));
        ax_local = v3_unit(mat_apply_t(mm, ax));
    }

    /* 1. the middle joint */
    const lv ua = v3_dot(u, ax), va = v3_dot(v, ax);
    const v3 up = v3_sub(u, v3_scale(ax, ua)), vp = v3_sub(v, v3_scale(ax, va));
    const lv pu = l_sqrt(v3_len2(up)), pv = l_sqrt(v3_len2(vp));
    const lv d = l_sqrt(v3_len2(g));
    const lm hinge = l_and_m(l_gt(pu, l_mul(eps, l1)), l_gt(pv, l_mul(eps, l2)));
    const lv inv = l_div(one, l_mul(pu, pv));
    const lv cos0 = l_mul(v3_dot(up, vp), inv);
    const lv sin0 = l_mul(v3_dot(ax, v3_cross(up, vp)), inv);
    const lv base = l_sub(l_mul(l_set1(0.5f), l_add(u2, v2)), l_mul(ua, va));
    const lv pupv = l_mul(pu, pv);
    const lv dmax = l_sqrt(l_max(l_mul(l_set1(2.0f), l_add(base, pupv)), zero));
    lv want = d;
    const lv da = l_mul(l_set1(1.0f - a->soften), dmax);
    if (a->soften > 0.0f && l_any(l_gt(d, da))) {
        const lv span = l_sub(dmax, da);
        const lv x = l_div(l_sub(d, da), span);
        const lv soft = l_add(da, l_mul(span, l_div(x, l_add(one, x))));
        want = l_select(l_gt(d, da), soft, d);
    }
    lv k = l_mul(l_sub(base, l_mul(l_mul(l_set1(0.5f), want), want)), inv);
    k = v_min(l_max(k, l_set1(-1.0f)), one);
    const lv cos1 = k, sin1 = l_sub(zero, l_sqrt(l_max(l_sub(one, l_mul(k, k)), zero)));
    const lv c = l_fmadd(sin1, sin0, l_mul(cos1, cos0));
    const lv sn = l_sub(l_mul(sin1, cos0), l_mul(cos1, sin0));
    const vq turn = axis_cs(ax, c, sn);
    limb_out out;
    out.mid = vq_select(hinge, axis_cs(ax_local, c, sn), vq_identity());
    const v3 e1 = v3_select(hinge, v3_add(m, vq_rotate(turn, v)), e);
    const lv reach =
        l_select(hinge, l_sqrt(l_max(l_mul(l_set1(2.0f), l_sub(base, l_mul(pupv, k))), zero)),
                 l_sqrt(v3_len2(v3_sub(e, s))));
    const lm reached =
        v_le(v_abs(l_sub(reach, d)), l_mul(l_set1(OSSA_IK_REACH_TOLERANCE), length));

    /* 2. the start joint's swing */
    const lm has_dir = l_gt(d, l_mul(eps, l_max(length, l_sqrt(v3_len2(s)))));
    const v3 n = v3_scale(g, l_div(one, d));
    const v3 f = v3_unit(v3_sub(e1, s));
    const vq swing = arc(f, n, ax);

    /* 3. the roll */
    const v3 m1 = vq_rotate(swing, v3_sub(m, s));
    v3 facing = v3_across(m1, n);
    const lv straight2 = l_mul(l_set1(OSSAI_IK_STRAIGHT * OSSAI_IK_STRAIGHT), u2);
    const lm bent = l_gt(v3_len2(facing), straight2);
    if (l_any(m_not(bent)))
        facing = v3_select(bent, facing, v3_cross(n, vq_rotate(swing, ax)));
    const lv pole2 = v3_len2(pole);
    const v3 pp = v3_across(pole, n);
    const lv pp2 = v3_len2(pp);
    const lv norm2 = l_mul(pp2, v3_len2(facing));
    const lm has_pole = l_gt(pole2, zero);
    const lm pole_ok = l_and_m(l_and_m(has_pole, l_gt(pp2, l_mul(l_mul(eps, eps), pole2))),
                               l_gt(norm2, zero));
    const lv inv2 = v_inv_sqrt(norm2);
    const lv pc = l_select(pole_ok, l_mul(v3_dot(facing, pp), inv2), one);
    const lv ps = l_select(pole_ok, l_mul(v3_dot(n, v3_cross(facing, pp)), inv2), zero);
    const lv tc = l_set1(a->twist_cos), ts = l_set1(a->twist_sin);
    const lv ct = l_sub(l_mul(pc, tc), l_mul(ps, ts));
    const lv st = l_fmadd(pc, ts, l_mul(ps, tc));
    const vq roll = axis_cs(n, ct, st);
    out.start = vq_select(has_dir, to_local(ms, vq_mul(roll, swing)), vq_identity());

    /* flags, as the reference sets them */
    lv flags = l_zero();
    flags = flag_if(m_not(hinge), flags, OSSA_IK_HINGE_PARALLEL);
    flags = flag_if(m_not(has_dir), flags, OSSA_IK_TARGET_ON_JOINT);
    flags = flag_if(reached, flags, OSSA_IK_REACHED);
    flags = flag_if(l_and_m(l_and_m(has_dir, has_pole), m_not(pole_ok)), flags,
                    OSSA_IK_POLE_PARALLEL);
    flags = l_select(bones, flags, l_set1(OSSA_IK_ZERO_BONE));
    /* bad input, or a solution that came out non-finite: nothing done */
    const lm solved = l_and_m(l_and_m(finite, bones), l_and_m(vq_finite(out.start), vq_finite(out.mid)));
    const lm bad = m_not(l_and_m(finite, m_or(m_not(bones), solved)));
    out.start = vq_select(solved, out.start, vq_identity());
    out.mid = vq_select(solved, out.mid, vq_identity());
    out.flags = l_select(bad, l_set1(OSSA_IK_BAD_INPUT), flags);
    return out;
}

/* One pair of lane vectors: lanes at `o` of batches x and y (x == y: two
 * halves of one batch, at o and o + LANE_V). */
static void two_bone_pair(const ossai_ik_two_bone_args *a, const ossai_ik_lane_batch *x,
                          const ossai_ik_lane_batch *y, size_t ox, size_t oy)
{
    const int w = a->width;
    const lp model = {x->model + ox, y->model + oy};
    const lpw local = {x->local + ox, y->local + oy};
    const vmat ms = load_mat(model, a->start, w), mm = load_mat(model, a->mid, w),
               me = load_mat(model, a->end, w);
    const lp tp = {x->target + ox, y->target + oy}, pp = {x->pole + ox, y->pole + oy};
    const lp wp = {x->weight + ox, y->weight + oy};
    const v3 target = load3(tp, w), pole = load3(pp, w);
    lm weight_finite;
    lv weight = clamp_weight(l_load(wp), &weight_finite);
    const lv bad = l_add(l_add(mat_nonfinite(&ms), mat_nonfinite(&mm)),
                         l_add(mat_nonfinite(&me), l_add(nonfinite3(target), nonfinite3(pole))));
    const lm finite = l_and_m(weight_finite, l_eq(bad, l_zero()));
    const limb_out sol = two_bone_lanes(a, &ms, &mm, &me, target, pole, finite);
    weight = l_select(l_eq(sol.flags, l_set1(OSSA_IK_BAD_INPUT)), l_zero(), weight);
    vq cs, cm;
    if (a->unit_weight) { /* every weight 1: the corrections themselves */
        cs = vq_select(l_gt(weight, l_zero()), vq_positive(sol.start), vq_identity());
        cm = vq_select(l_gt(weight, l_zero()), vq_positive(sol.mid), vq_identity());
    } else {
        const turn_angle ts = turn_angle_of(sol.start), tm = turn_angle_of(sol.mid);
        cs = weighted(&ts, weight);
        cm = weighted(&tm, weight);
    }
    apply_correction(local, a->start, w, cs, weight);
    apply_correction(local, a->mid, w, cm, weight);
    if (x->corrections) {
        const lpw c = {x->corrections + ox, y->corrections + oy};
        store_quat(c, w, cs);
        store_quat(lpw_at(c, 4 * (size_t)w), w, cm);
    }
    const lpw f = {x->flags + ox, y->flags + oy};
    l_store(f, sol.flags);
}

/* The pairs of a kernel call: the halves of each batch when a batch is two
 * or four vectors wide, else the two batches (the second may be the first
 * again: then the same values are computed and stored twice). */
#if OSSAI_IK_PAIRS
#define OSSAI_IK_FOR_PAIRS(args, pair)                                                          \
    do {                                                                                       \
        const size_t v_ = LANE_V;                                                              \
        if ((size_t)(args)->width >= 2 * v_) {                                                 \
            const int batches_ = (args)->batch[1].model == (args)->batch[0].model ? 1 : 2;     \
            for (int b_ = 0; b_ < batches_; ++b_)                                              \
                for (size_t o_ = 0; o_ < (size_t)(args)->width; o_ += 2 * v_)                  \
                    pair((args), &(args)->batch[b_], &(args)->batch[b_], o_, o_ + v_);         \
        } else {                                                                               \
            pair((args), &(args)->batch[0], &(args)->batch[1], 0, 0);                          \
        }                                                                                      \
    } while (0)
#else /* every vector of both batches, one at a time */
#define OSSAI_IK_FOR_PAIRS(args, pair)                                                          \
    do {                                                                                       \
        const int batches_ = (args)->batch[1].model == (args)->batch[0].model ? 1 : 2;         \
        for (int b_ = 0; b_ < batches_; ++b_)                                                  \
            for (size_t o_ = 0; o_ < (size_t)(args)->width; o_ += LANE_V)                      \
                pair((args), &(args)->batch[b_], &(args)->batch[b_], o_, o_);                  \
    } while (0)
#endif

void OSSAI_ISA_NAME(ossai_ik_two_bone_kernel)(const ossai_ik_two_bone_args *a)
{
    OSSAI_IK_FOR_PAIRS(a, two_bone_pair);
}

/* ---- aim ---- */

typedef struct vray {
    v3 offset, forward, up;
} vray;

typedef struct aim_out {
    vq turn;
    lm reachable, on_joint, pole_parallel;
} aim_out;

/* The reference's aim_joint() for LANE_V lanes. */
OSSAI_IK_INLINE aim_out aim_lanes(const vmat *m, vray r, v3 target, v3 pole, lv twist_cos, lv twist_sin,
                         bool has_up)
{
    const lv zero = l_zero(), one = l_set1(1.0f);
    const lv eps2 = l_set1(OSSAI_IK_EPS * OSSAI_IK_EPS);
    aim_out out;
    const lv s2 = mat_scale2(m);
    const v3 o = mat_pos(m), to_target = v3_sub(target, o);
    const v3 t = v3_scale(mat_apply_t(m, to_target), l_div(one, s2));
    const lv t2 = v3_len2(t), d2 = v3_len2(r.offset);
    const lv g2 = v3_len2(to_target);
    out.on_joint = m_not(l_and_m(l_gt(g2, l_mul(eps2, l_fmadd(d2, s2, v3_len2(o)))),
                                 l_gt(g2, l_set1(1e-30f))));
    const v3 f = v3_unit(r.forward);
    const lv b = v3_dot(r.offset, f);
    const lv disc = l_add(l_sub(l_mul(b, b), d2), t2);
    const lv l = l_sub(l_sqrt(l_max(disc, zero)), b);
    out.reachable = l_and_m(m_not(l_lt(disc, zero)), m_not(l_lt(l, zero)));
    const v3 v = v3_add(r.offset, v3_scale(f, l_max(l, zero)));
    const v3 n = v3_scale(t, v_inv_sqrt(t2));
    const vq swing = arc(v3_unit(v), n, r.up);

    lv c = one, sn = zero;
    out.pole_parallel = l_lt(one, zero); /* none */
    if (has_up) {
        const lv up2 = v3_len2(r.up), pole2 = v3_len2(pole);
        const lm roll = l_and_m(l_gt(up2, zero), l_gt(pole2, zero));
        const v3 u1 = vq_rotate(swing, r.up);
        const v3 uq = v3_across(u1, n);
        const v3 pl = mat_apply_t(m, pole);
        const v3 pq = v3_across(pl, n);
        const lv uq2 = v3_len2(uq), pq2 = v3_len2(pq);
        const lm ok = l_and_m(l_gt(uq2, l_mul(eps2, up2)), l_gt(pq2, l_mul(eps2, v3_len2(pl))));
        const lv inv = v_inv_sqrt(l_mul(uq2, pq2));
        const lm use = l_and_m(roll, ok);
        c = l_select(use, l_mul(v3_dot(uq, pq), inv), one);
        sn = l_select(use, l_mul(v3_dot(n, v3_cross(uq, pq)), inv), zero);
        out.pole_parallel = l_and_m(l_and_m(roll, m_not(ok)), m_not(out.on_joint));
    }
    const lv ct = l_sub(l_mul(c, twist_cos), l_mul(sn, twist_sin));
    const lv st = l_fmadd(c, twist_sin, l_mul(sn, twist_cos));
    out.turn = vq_select(out.on_joint, vq_identity(), vq_mul(axis_cs(n, ct, st), swing));
    out.reachable = l_and_m(out.reachable, m_not(out.on_joint));
    return out;
}

/* The reference's ray_to_parent(). */
OSSAI_IK_INLINE vray ray_to_parent(const vmat *m, const vmat *p, vq q, vray r)
{
    const v3 eye = v3_add(mat_apply(m, vq_rotate(q, r.offset)), mat_pos(m));
    vray out;
    out.offset = v3_scale(mat_apply_t(p, v3_sub(eye, mat_pos(p))), l_div(l_set1(1.0f), mat_scale2(p)));
    out.forward = mat_apply_t(p, mat_apply(m, vq_rotate(q, r.forward)));
    out.up = mat_apply_t(p, mat_apply(m, vq_rotate(q, r.up)));
    return out;
}

static void aim_pair(const ossai_ik_aim_args *a, const ossai_ik_lane_batch *x,
                     const ossai_ik_lane_batch *y, size_t ox, size_t oy)
{
    const int w = a->width, links = a->chain_count;
    const lv twist_cos = l_set1(a->twist_cos), twist_sin = l_set1(a->twist_sin);
    const bool has_up = a->up[0] != 0.0f || a->up[1] != 0.0f || a->up[2] != 0.0f;
    const lp model = {x->model + ox, y->model + oy};
    const lpw local = {x->local + ox, y->local + oy};
    const lp tp = {x->target + ox, y->target + oy}, pp = {x->pole + ox, y->pole + oy};
    const lp wp = {x->weight + ox, y->weight + oy};
    const v3 target = load3(tp, w), pole = load3(pp, w);
    lm weight_finite;
    lv weight = clamp_weight(l_load(wp), &weight_finite);
    lv bad = l_add(nonfinite3(target), nonfinite3(pole));
    vmat mats[OSSA_IK_MAX_CHAIN];
    for (int k = 0; k < links; ++k) {
        mats[k] = load_mat(model, a->chain[k], w);
        bad = l_add(bad, mat_nonfinite(&mats[k]));
    }
    lm good = l_and_m(weight_finite, l_eq(bad, l_zero()));
    vq out[OSSA_IK_MAX_CHAIN];
    const lm none = l_lt(l_set1(1.0f), l_zero());
    lm reached = none, on_joint = none, pole_parallel = none;
    vray at;
    at.forward = v3_splat(a->forward);
    at.offset = v3_splat(a->offset);
    at.up = v3_splat(a->up);
    for (int k = links - 1; k >= 0; --k) {
        const aim_out r = aim_lanes(&mats[k], at, target, pole, twist_cos, twist_sin, has_up);
        const float share = a->chain_weight[k];
        const turn_angle angle = turn_angle_of(r.turn);
        /* the share is the same in every lane: 1 and 0 need no angle */
        const vq turn = share >= 1.0f   ? angle.q
                        : share > 0.0f ? weighted(&angle, l_set1(share))
                                       : vq_identity();
        if (a->unit_weight)
            out[k] = vq_select(l_gt(weight, l_zero()), turn, vq_identity());
        else
            out[k] = weighted(&angle, l_mul(l_set1(share), weight));
        on_joint = m_or(on_joint, r.on_joint);
        pole_parallel = m_or(pole_parallel, r.pole_parallel);
        reached = share >= 1.0f ? r.reachable : none;
        if (k > 0)
            at = ray_to_parent(&mats[k], &mats[k - 1], turn, at);
        good = l_and_m(good, l_and_m(vq_finite(out[k]), vq_finite(turn)));
    }
    lv flags = flag_if(reached, l_zero(), OSSA_IK_REACHED);
    flags = flag_if(on_joint, flags, OSSA_IK_TARGET_ON_JOINT);
    flags = flag_if(pole_parallel, flags, OSSA_IK_POLE_PARALLEL);
    flags = l_select(good, flags, l_set1(OSSA_IK_BAD_INPUT));
    weight = l_select(good, weight, l_zero());
    for (int k = 0; k < links; ++k) {
        const vq c = vq_select(good, out[k], vq_identity());
        apply_correction(local, a->chain[k], w, c, weight);
        if (x->corrections) {
            const lpw cp = {x->corrections + ox, y->corrections + oy};
            store_quat(lpw_at(cp, (size_t)k * 4 * (size_t)w), w, c);
        }
    }
    const lpw f = {x->flags + ox, y->flags + oy};
    l_store(f, flags);
}

void OSSAI_ISA_NAME(ossai_ik_aim_kernel)(const ossai_ik_aim_args *a)
{
    OSSAI_IK_FOR_PAIRS(a, aim_pair);
}
