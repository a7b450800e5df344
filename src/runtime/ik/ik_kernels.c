/* ik_kernels.c - the IK lane kernels, LANE_V characters per vector: the
 * reference jobs' formulas (ik_two_bone_job.c, ik_aim_job.c) step by step,
 * every branch a select; trigonometry only in the weight's slerp, by
 * polynomials. Compiled once per instruction set. */
#include <math.h>
#include <stddef.h>

#include "core/vec.h"
#include "ik/ik_internal.h"
#include "ik/ik_lanes.h"

/* ---- vectors of three and four ---- */

typedef struct v3 {
    vf x, y, z;
} v3;

typedef struct vq {
    vf x, y, z, w;
} vq;

static inline v3 v3_make(vf x, vf y, vf z)
{
    v3 r = {x, y, z};
    return r;
}
static inline v3 v3_splat(const float a[3]) { return v3_make(v_set1(a[0]), v_set1(a[1]), v_set1(a[2])); }
static inline v3 v3_add(v3 a, v3 b) { return v3_make(v_add(a.x, b.x), v_add(a.y, b.y), v_add(a.z, b.z)); }
static inline v3 v3_sub(v3 a, v3 b) { return v3_make(v_sub(a.x, b.x), v_sub(a.y, b.y), v_sub(a.z, b.z)); }
static inline v3 v3_scale(v3 a, vf s) { return v3_make(v_mul(a.x, s), v_mul(a.y, s), v_mul(a.z, s)); }
static inline vf v3_dot(v3 a, v3 b) { return v_fmadd(a.z, b.z, v_fmadd(a.y, b.y, v_mul(a.x, b.x))); }
static inline vf v3_len2(v3 a) { return v3_dot(a, a); }
static inline v3 v3_cross(v3 a, v3 b)
{
    return v3_make(v_sub(v_mul(a.y, b.z), v_mul(a.z, b.y)), v_sub(v_mul(a.z, b.x), v_mul(a.x, b.z)),
                   v_sub(v_mul(a.x, b.y), v_mul(a.y, b.x)));
}
/* a minus its component along the unit n. */
static inline v3 v3_across(v3 a, v3 n) { return v3_sub(a, v3_scale(n, v3_dot(a, n))); }
static inline v3 v3_select(vm m, v3 a, v3 b)
{
    return v3_make(v_select(m, a.x, b.x), v_select(m, a.y, b.y), v_select(m, a.z, b.z));
}
static inline vf v_min(vf a, vf b) { return v_select(v_lt(a, b), a, b); }
/* Mask logic from what every path has (compare, and, select). */
static inline vm m_not(vm m) { return v_eq(v_select(m, v_set1(1.0f), v_zero()), v_zero()); }
static inline vm m_or(vm a, vm b)
{
    return v_gt(v_add(v_select(a, v_set1(1.0f), v_zero()), v_select(b, v_set1(1.0f), v_zero())),
                v_zero());
}
/* a <= b (false when either is NaN, as in C). */
static inline vm v_le(vf a, vf b) { return m_or(v_lt(a, b), v_eq(a, b)); }
static inline vf v_abs(vf a) { return v_max(a, v_sub(v_zero(), a)); }
/* Sum of x - x over the values: 0 when every one is finite, else NaN. */
static inline vf nonfinite3(v3 a)
{
    return v_add(v_add(v_sub(a.x, a.x), v_sub(a.y, a.y)), v_sub(a.z, a.z));
}
static inline vf v_inv_sqrt(vf a) { return v_rsqrt(a); }
/* a scaled to unit length; zero stays zero. */
static inline v3 v3_unit(v3 a)
{
    const vf l2 = v3_len2(a);
    return v3_select(v_gt(l2, v_zero()), v3_scale(a, v_inv_sqrt(l2)), a);
}

static inline vq vq_make(vf x, vf y, vf z, vf w)
{
    vq r = {x, y, z, w};
    return r;
}
static inline vq vq_identity(void) { return vq_make(v_zero(), v_zero(), v_zero(), v_set1(1.0f)); }
static inline vq vq_select(vm m, vq a, vq b)
{
    return vq_make(v_select(m, a.x, b.x), v_select(m, a.y, b.y), v_select(m, a.z, b.z),
                   v_select(m, a.w, b.w));
}
static inline vq vq_mul(vq a, vq b)
{
    return vq_make(
        v_sub(v_fmadd(a.y, b.z, v_fmadd(a.x, b.w, v_mul(a.w, b.x))), v_mul(a.z, b.y)),
        v_fmadd(a.z, b.x, v_fmadd(a.y, b.w, v_sub(v_mul(a.w, b.y), v_mul(a.x, b.z)))),
        v_fmadd(a.z, b.w, v_sub(v_fmadd(a.x, b.y, v_mul(a.w, b.z)), v_mul(a.y, b.x))),
        v_sub(v_sub(v_sub(v_mul(a.w, b.w), v_mul(a.x, b.x)), v_mul(a.y, b.y)), v_mul(a.z, b.z)));
}
/* q / |q|, the identity where |q|^2 is zero or not finite. */
static inline vq vq_normalize(vq q)
{
    const vf l2 = v_fmadd(q.w, q.w, v_fmadd(q.z, q.z, v_fmadd(q.y, q.y, v_mul(q.x, q.x))));
    const vm ok = v_and_m(v_gt(l2, v_zero()), v_lt(l2, v_set1(INFINITY)));
    const vf inv = v_inv_sqrt(l2);
    return vq_select(ok, vq_make(v_mul(q.x, inv), v_mul(q.y, inv), v_mul(q.z, inv), v_mul(q.w, inv)),
                     vq_identity());
}
/* v rotated by the unit q: v + 2w (u x v) + 2 u x (u x v). */
static inline v3 vq_rotate(vq q, v3 v)
{
    const v3 u = v3_make(q.x, q.y, q.z);
    const v3 t = v3_scale(v3_cross(u, v), v_set1(2.0f));
    return v3_add(v3_add(v, v3_scale(t, q.w)), v3_cross(u, t));
}
/* All four components finite: x - x is 0 for a finite x, NaN otherwise. */
static inline vm vq_finite(vq q)
{
    const vf z = v_add(v_add(v_sub(q.x, q.x), v_sub(q.y, q.y)),
                       v_add(v_sub(q.z, q.z), v_sub(q.w, q.w)));
    return v_eq(z, v_zero());
}

/* ossai_ik_axis_cs: about the unit axis a by the angle of cosine c, sine s. */
static inline vq axis_cs(v3 a, vf c, vf s)
{
    const vm neg = v_lt(c, v_zero());
    const vf x = v_select(neg, v_sub(v_set1(1.0f), c), s);
    const vf y = v_select(neg, s, v_add(v_set1(1.0f), c));
    const vf inv = v_inv_sqrt(v_fmadd(y, y, v_mul(x, x)));
    const vf k = v_mul(x, inv);
    return vq_make(v_mul(a.x, k), v_mul(a.y, k), v_mul(a.z, k), v_mul(y, inv));
}

/* ossai_ik_perpendicular. */
static inline v3 perpendicular(v3 f, v3 hint)
{
    const v3 p = v3_across(hint, f);
    const vm x_small = v_lt(v_max(f.x, v_sub(v_zero(), f.x)), v_set1(0.5f));
    /* f x (1, 0, 0) = (0, fz, -fy); f x (0, 1, 0) = (-fz, 0, fx) */
    const v3 alt = v3_make(v_select(x_small, v_zero(), v_sub(v_zero(), f.z)),
                           v_select(x_small, f.z, v_zero()),
                           v_select(x_small, v_sub(v_zero(), f.y), f.x));
    return v3_unit(v3_select(v_gt(v3_len2(p), v_mul(v_set1(0.25f), v3_len2(hint))), p, alt));
}

/* ossai_ik_arc: the shortest turn from unit f to unit g. */
static inline vq arc(v3 f, v3 g, v3 hint)
{
    const vf one = v_set1(1.0f);
    const vf c = v3_dot(f, g);
    const v3 x = v3_cross(f, g);
    const vf x2 = v3_len2(x);
    const vm obtuse = v_lt(c, v_zero());
    const vf k = v_select(obtuse, v_sub(one, c), one);
    vq q = vq_make(v_mul(x.x, k), v_mul(x.y, k), v_mul(x.z, k),
                   v_select(obtuse, x2, v_add(one, c)));
    const vm opposite = v_and_m(obtuse, m_not(v_gt(x2, v_set1(1e-12f))));
    if (v_any(opposite)) { /* rare */
        const v3 p = perpendicular(f, hint);
        q = vq_select(opposite, vq_make(p.x, p.y, p.z, v_zero()), q);
    }
    return vq_normalize(q);
}

/* atan2(y, x) for y, x >= 0, not both 0: the ratio below 1, halved twice
 * in angle (tan(a / 2) = t / (1 + sqrt(1 + t^2))) to below tan(pi / 8), then
 * the series to t^15 (error below 2e-8). */
static inline vf atan2_positive(vf y, vf x)
{
    const vm steep = v_gt(y, x);
    const vf t = v_div(v_min(x, y), v_max(x, y));
    const vf one = v_set1(1.0f);
    const vf h = v_div(t, v_add(one, v_sqrt(v_fmadd(t, t, one))));
    const vf h2 = v_mul(h, h);
    vf p = v_set1(-1.0f / 15.0f);
    p = v_fmadd(p, h2, v_set1(1.0f / 13.0f));
    p = v_fmadd(p, h2, v_set1(-1.0f / 11.0f));
    p = v_fmadd(p, h2, v_set1(1.0f / 9.0f));
    p = v_fmadd(p, h2, v_set1(-1.0f / 7.0f));
    p = v_fmadd(p, h2, v_set1(1.0f / 5.0f));
    p = v_fmadd(p, h2, v_set1(-1.0f / 3.0f));
    p = v_fmadd(p, h2, one);
    const vf a = v_mul(v_set1(2.0f), v_mul(p, h));
    return v_select(steep, v_sub(v_set1(1.57079632679f), a), a);
}

/* sin and cos of a in [0, pi / 2]: Taylor series to a^13 and a^14 (errors
 * below 1e-9 there). */
static inline void sincos_quarter(vf a, vf *s, vf *c)
{
    const vf a2 = v_mul(a, a);
    vf ps = v_set1(1.0f / 6227020800.0f);
    ps = v_fmadd(ps, a2, v_set1(-1.0f / 39916800.0f));
    ps = v_fmadd(ps, a2, v_set1(1.0f / 362880.0f));
    ps = v_fmadd(ps, a2, v_set1(-1.0f / 5040.0f));
    ps = v_fmadd(ps, a2, v_set1(1.0f / 120.0f));
    ps = v_fmadd(ps, a2, v_set1(-1.0f / 6.0f));
    ps = v_fmadd(ps, a2, v_set1(1.0f));
    *s = v_mul(ps, a);
    vf pc = v_set1(-1.0f / 87178291200.0f);
    pc = v_fmadd(pc, a2, v_set1(1.0f / 479001600.0f));
    pc = v_fmadd(pc, a2, v_set1(-1.0f / 3628800.0f));
    pc = v_fmadd(pc, a2, v_set1(1.0f / 40320.0f));
    pc = v_fmadd(pc, a2, v_set1(-1.0f / 720.0f));
    pc = v_fmadd(pc, a2, v_set1(1.0f / 24.0f));
    pc = v_fmadd(pc, a2, v_set1(-0.5f));
    *c = v_fmadd(pc, a2, v_set1(1.0f));
}

/* A unit quaternion on the w >= 0 side, with its vector part's length and
 * half its angle: what ossai_ik_weighted works from, computed once for the
 * several weights a correction may be taken at. */
typedef struct turn_angle {
    vq q;
    vf vlen, half;
    vm some; /* vlen > 0 */
} turn_angle;

/* q or -q, whichever has w >= 0. */
static inline vq vq_positive(vq q)
{
    const vm flip = v_lt(q.w, v_zero());
    return vq_make(v_negate_where(q.x, flip), v_negate_where(q.y, flip),
                   v_negate_where(q.z, flip), v_negate_where(q.w, flip));
}

static inline turn_angle turn_angle_of(vq q)
{
    turn_angle t;
    t.q = vq_positive(q);
    t.vlen = v_sqrt(v_fmadd(t.q.z, t.q.z, v_fmadd(t.q.y, t.q.y, v_mul(t.q.x, t.q.x))));
    t.some = v_gt(t.vlen, v_zero());
    /* vlen = 0 would be atan2(0, 1): angle 0 */
    t.half = v_select(t.some, atan2_positive(t.vlen, t.q.w), v_zero());
    return t;
}

/* ossai_ik_weighted: slerp(identity, q, w), w in [0, 1]; exactly q at 1
 * and the identity at 0. */
static inline vq weighted(const turn_angle *t, vf w)
{
    const vm full = m_not(v_lt(w, v_set1(1.0f)));
    const vm some = v_gt(w, v_zero());
    if (!v_any(v_and_m(some, m_not(full)))) /* every weight 0 or 1 */
        return vq_select(full, t->q, vq_identity());
    vf s, c;
    sincos_quarter(v_mul(t->half, w), &s, &c);
    const vf k = v_select(t->some, v_div(s, t->vlen), w);
    const vq r = vq_make(v_mul(t->q.x, k), v_mul(t->q.y, k), v_mul(t->q.z, k), c);
    return vq_select(full, t->q, vq_select(some, r, vq_identity()));
}

/* ---- lane buffers ---- */

/* One joint's model matrix, rows of four, for LANE_V lanes. */
typedef struct vmat {
    vf m[3][4];
} vmat;

static inline vmat load_mat(const float *model, int joint, int width)
{
    const float *p = model + (size_t)joint * OSSA_LANE_MODEL_COMPONENTS * (size_t)width;
    vmat r;
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 4; ++j)
            r.m[i][j] = v_load(p + (size_t)(i * 4 + j) * (size_t)width);
    return r;
}
static inline v3 mat_pos(const vmat *m) { return v3_make(m->m[0][3], m->m[1][3], m->m[2][3]); }
static inline v3 mat_apply(const vmat *m, v3 v)
{
    return v3_make(v_fmadd(m->m[0][2], v.z, v_fmadd(m->m[0][1], v.y, v_mul(m->m[0][0], v.x))),
                   v_fmadd(m->m[1][2], v.z, v_fmadd(m->m[1][1], v.y, v_mul(m->m[1][0], v.x))),
                   v_fmadd(m->m[2][2], v.z, v_fmadd(m->m[2][1], v.y, v_mul(m->m[2][0], v.x))));
}
static inline v3 mat_apply_t(const vmat *m, v3 v)
{
    return v3_make(v_fmadd(m->m[2][0], v.z, v_fmadd(m->m[1][0], v.y, v_mul(m->m[0][0], v.x))),
                   v_fmadd(m->m[2][1], v.z, v_fmadd(m->m[1][1], v.y, v_mul(m->m[0][1], v.x))),
                   v_fmadd(m->m[2][2], v.z, v_fmadd(m->m[1][2], v.y, v_mul(m->m[0][2], v.x))));
}
static inline vf mat_scale2(const vmat *m)
{
    return v_fmadd(m->m[2][0], m->m[2][0],
                   v_fmadd(m->m[1][0], m->m[1][0], v_mul(m->m[0][0], m->m[0][0])));
}
/* Sum of x - x over the matrix: 0 when every entry is finite. */
static inline vf mat_nonfinite(const vmat *m)
{
    vf z = v_zero();
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 4; ++j)
            z = v_add(z, v_sub(m->m[i][j], m->m[i][j]));
    return z;
}
/* ossai_ik_to_local: a model-space turn as a correction in m's frame. */
static inline vq to_local(const vmat *m, vq d)
{
    const v3 v = v3_scale(mat_apply_t(m, v3_make(d.x, d.y, d.z)), v_inv_sqrt(mat_scale2(m)));
    return vq_make(v.x, v.y, v.z, d.w);
}

static inline v3 load3(const float *p, int width)
{
    return v3_make(v_load(p), v_load(p + width), v_load(p + 2 * width));
}
static inline vq load_rotation(const float *local, int joint, int width)
{
    const float *p = local + ((size_t)joint * OSSA_LANE_POSE_COMPONENTS + 3) * (size_t)width;
    return vq_make(v_load(p), v_load(p + width), v_load(p + 2 * width), v_load(p + 3 * width));
}
static inline void store_quat(float *p, int width, vq q)
{
    v_store(p, q.x);
    v_store(p + width, q.y);
    v_store(p + 2 * width, q.z);
    v_store(p + 3 * width, q.w);
}
/* rotation = normalize(rotation * c) where w > 0; untouched elsewhere. */
static inline void apply_correction(float *local, int joint, int width, vq c, vf w)
{
    const vq r = load_rotation(local, joint, width);
    const vq out = vq_select(v_gt(w, v_zero()), vq_normalize(vq_mul(r, c)), r);
    store_quat(local + ((size_t)joint * OSSA_LANE_POSE_COMPONENTS + 3) * (size_t)width, width,
               out);
}
/* flags + bit where m. */
static inline vf flag_if(vm m, vf flags, float bit)
{
    return v_select(m, v_add(flags, v_set1(bit)), flags);
}
/* The lane's weight clamped to [0, 1] and whether it was finite. */
static inline vf clamp_weight(vf w, vm *finite)
{
    *finite = v_eq(v_sub(w, w), v_zero());
    return v_min(v_max(w, v_zero()), v_set1(1.0f));
}

/* ---- two-bone ---- */

typedef struct limb_out {
    vq start, mid;
    vf flags;
} limb_out;

/* The reference's solve() for LANE_V lanes; `finite` is the lanes whose
 * inputs are all finite (the others get identities and BAD_INPUT). */
static limb_out two_bone_lanes(const ossai_ik_two_bone_args *a, const vmat *ms, const vmat *mm,
                               const vmat *me, v3 target, v3 pole, vm finite)
{
    const vf zero = v_zero(), one = v_set1(1.0f), eps = v_set1(OSSAI_IK_EPS);
    const v3 s = mat_pos(ms), m = mat_pos(mm), e = mat_pos(me);
    const v3 u = v3_sub(s, m), v = v3_sub(e, m);
    const vf u2 = v3_len2(u), v2 = v3_len2(v);
    const vf l1 = v_sqrt(u2), l2 = v_sqrt(v2), length = v_add(l1, l2);
    const vm bones = v_and_m(v_gt(l1, v_mul(eps, length)), v_gt(l2, v_mul(eps, length)));
    const v3 g = v3_sub(target, s);

    /* the hinge axis, in model space and in the middle joint's frame */
    v3 ax, ax_local;
    if (a->has_axis) {
        ax_local = v3_splat(a->mid_axis);
        ax = v3_unit(mat_apply(mm, ax_local));
    } else {
        const vf tiny = v_set1(OSSAI_IK_EPS * OSSAI_IK_EPS);
        const v3 bend = v3_cross(v, u);
        const v3 toward_pole = v3_cross(pole, g);
        const v3 any = perpendicular(v3_unit(v3_sub(v, u)), v3_make(zero, zero, zero));
        const vm pole_ok = v_gt(v3_len2(toward_pole), v_mul(tiny, v_mul(v3_len2(g), v3_len2(pole))));
        const v3 fallback = v3_select(pole_ok, toward_pole, any);
        ax = v3_unit(v3_select(v_gt(v3_len2(bend), v_mul(tiny, v_mul(u2, v2))), bend, fallback));
        ax_local = v3_unit(mat_apply_t(mm, ax));
    }

    /* 1. the middle joint */
    const vf ua = v3_dot(u, ax), va = v3_dot(v, ax);
    const v3 up = v3_sub(u, v3_scale(ax, ua)), vp = v3_sub(v, v3_scale(ax, va));
    const vf pu = v_sqrt(v3_len2(up)), pv = v_sqrt(v3_len2(vp));
    const vf d = v_sqrt(v3_len2(g));
    const vm hinge = v_and_m(v_gt(pu, v_mul(eps, l1)), v_gt(pv, v_mul(eps, l2)));
    const vf inv = v_div(one, v_mul(pu, pv));
    const vf cos0 = v_mul(v3_dot(up, vp), inv);
    const vf sin0 = v_mul(v3_dot(ax, v3_cross(up, vp)), inv);
    const vf base = v_sub(v_mul(v_set1(0.5f), v_add(u2, v2)), v_mul(ua, va));
    const vf pupv = v_mul(pu, pv);
    const vf dmax = v_sqrt(v_max(v_mul(v_set1(2.0f), v_add(base, pupv)), zero));
    vf want = d;
    const vf da = v_mul(v_set1(1.0f - a->soften), dmax);
    if (a->soften > 0.0f && v_any(v_gt(d, da))) {
        const vf span = v_sub(dmax, da);
        const vf x = v_div(v_sub(d, da), span);
        const vf soft = v_add(da, v_mul(span, v_div(x, v_add(one, x))));
        want = v_select(v_gt(d, da), soft, d);
    }
    vf k = v_mul(v_sub(base, v_mul(v_mul(v_set1(0.5f), want), want)), inv);
    k = v_min(v_max(k, v_set1(-1.0f)), one);
    const vf cos1 = k, sin1 = v_sub(zero, v_sqrt(v_max(v_sub(one, v_mul(k, k)), zero)));
    const vf c = v_fmadd(sin1, sin0, v_mul(cos1, cos0));
    const vf sn = v_sub(v_mul(sin1, cos0), v_mul(cos1, sin0));
    const vq turn = axis_cs(ax, c, sn);
    limb_out out;
    out.mid = vq_select(hinge, axis_cs(ax_local, c, sn), vq_identity());
    const v3 e1 = v3_select(hinge, v3_add(m, vq_rotate(turn, v)), e);
    const vf reach =
        v_select(hinge, v_sqrt(v_max(v_mul(v_set1(2.0f), v_sub(base, v_mul(pupv, k))), zero)),
                 v_sqrt(v3_len2(v3_sub(e, s))));
    const vm reached =
        v_le(v_abs(v_sub(reach, d)), v_mul(v_set1(OSSA_IK_REACH_TOLERANCE), length));

    /* 2. the start joint's swing */
    const vm has_dir = v_gt(d, v_mul(eps, v_max(length, v_sqrt(v3_len2(s)))));
    const v3 n = v3_scale(g, v_div(one, d));
    const v3 f = v3_unit(v3_sub(e1, s));
    const vq swing = arc(f, n, ax);

    /* 3. the roll */
    const v3 m1 = vq_rotate(swing, v3_sub(m, s));
    v3 facing = v3_across(m1, n);
    const vf straight2 = v_mul(v_set1(OSSAI_IK_STRAIGHT * OSSAI_IK_STRAIGHT), u2);
    const vm bent = v_gt(v3_len2(facing), straight2);
    if (v_any(m_not(bent)))
        facing = v3_select(bent, facing, v3_cross(n, vq_rotate(swing, ax)));
    const vf pole2 = v3_len2(pole);
    const v3 pp = v3_across(pole, n);
    const vf pp2 = v3_len2(pp);
    const vf norm2 = v_mul(pp2, v3_len2(facing));
    const vm has_pole = v_gt(pole2, zero);
    const vm pole_ok = v_and_m(v_and_m(has_pole, v_gt(pp2, v_mul(v_mul(eps, eps), pole2))),
                               v_gt(norm2, zero));
    const vf inv2 = v_inv_sqrt(norm2);
    const vf pc = v_select(pole_ok, v_mul(v3_dot(facing, pp), inv2), one);
    const vf ps = v_select(pole_ok, v_mul(v3_dot(n, v3_cross(facing, pp)), inv2), zero);
    const vf tc = v_set1(a->twist_cos), ts = v_set1(a->twist_sin);
    const vf ct = v_sub(v_mul(pc, tc), v_mul(ps, ts));
    const vf st = v_fmadd(pc, ts, v_mul(ps, tc));
    const vq roll = axis_cs(n, ct, st);
    out.start = vq_select(has_dir, to_local(ms, vq_mul(roll, swing)), vq_identity());

    /* flags, as the reference sets them */
    vf flags = v_zero();
    flags = flag_if(m_not(hinge), flags, OSSA_IK_HINGE_PARALLEL);
    flags = flag_if(m_not(has_dir), flags, OSSA_IK_TARGET_ON_JOINT);
    flags = flag_if(reached, flags, OSSA_IK_REACHED);
    flags = flag_if(v_and_m(v_and_m(has_dir, has_pole), m_not(pole_ok)), flags,
                    OSSA_IK_POLE_PARALLEL);
    flags = v_select(bones, flags, v_set1(OSSA_IK_ZERO_BONE));
    /* bad input, or a solution that came out non-finite: nothing done */
    const vm solved = v_and_m(v_and_m(finite, bones), v_and_m(vq_finite(out.start), vq_finite(out.mid)));
    const vm bad = m_not(v_and_m(finite, m_or(m_not(bones), solved)));
    out.start = vq_select(solved, out.start, vq_identity());
    out.mid = vq_select(solved, out.mid, vq_identity());
    out.flags = v_select(bad, v_set1(OSSA_IK_BAD_INPUT), flags);
    return out;
}

void OSSAI_ISA_NAME(ossai_ik_two_bone_kernel)(const ossai_ik_two_bone_args *a)
{
    const int w = a->width;
    for (int o = 0; o < w; o += LANE_V) {
        const float *model = a->model + o;
        float *local = a->local + o;
        const vmat ms = load_mat(model, a->start, w), mm = load_mat(model, a->mid, w),
                   me = load_mat(model, a->end, w);
        const v3 target = load3(a->target + o, w), pole = load3(a->pole + o, w);
        vm weight_finite;
        vf weight = clamp_weight(v_load(a->weight + o), &weight_finite);
        const vf bad = v_add(v_add(mat_nonfinite(&ms), mat_nonfinite(&mm)),
                             v_add(mat_nonfinite(&me), v_add(nonfinite3(target), nonfinite3(pole))));
        const vm finite = v_and_m(weight_finite, v_eq(bad, v_zero()));
        const limb_out sol = two_bone_lanes(a, &ms, &mm, &me, target, pole, finite);
        weight = v_select(v_eq(sol.flags, v_set1(OSSA_IK_BAD_INPUT)), v_zero(), weight);
        vq cs, cm;
        if (a->unit_weight) { /* every weight 1: the corrections themselves */
            cs = vq_positive(sol.start);
            cm = vq_positive(sol.mid);
            cs = vq_select(v_gt(weight, v_zero()), cs, vq_identity());
            cm = vq_select(v_gt(weight, v_zero()), cm, vq_identity());
        } else {
            const turn_angle ts = turn_angle_of(sol.start), tm = turn_angle_of(sol.mid);
            cs = weighted(&ts, weight);
            cm = weighted(&tm, weight);
        }
        apply_correction(local, a->start, w, cs, weight);
        apply_correction(local, a->mid, w, cm, weight);
        if (a->start_correction)
            store_quat(a->start_correction + o, w, cs);
        if (a->mid_correction)
            store_quat(a->mid_correction + o, w, cm);
        v_store(a->flags + o, sol.flags);
    }
}

/* ---- aim ---- */

typedef struct vray {
    v3 offset, forward, up;
} vray;

typedef struct aim_out {
    vq turn;
    vm reachable, on_joint, pole_parallel;
} aim_out;

/* The reference's aim_joint() for LANE_V lanes. */
static aim_out aim_lanes(const vmat *m, vray r, v3 target, v3 pole, vf twist_cos, vf twist_sin,
                         bool has_up)
{
    const vf zero = v_zero(), one = v_set1(1.0f);
    const vf eps2 = v_set1(OSSAI_IK_EPS * OSSAI_IK_EPS);
    aim_out out;
    const vf s2 = mat_scale2(m);
    const v3 o = mat_pos(m), to_target = v3_sub(target, o);
    const v3 t = v3_scale(mat_apply_t(m, to_target), v_div(one, s2));
    const vf t2 = v3_len2(t), d2 = v3_len2(r.offset);
    const vf g2 = v3_len2(to_target);
    out.on_joint = m_not(v_and_m(v_gt(g2, v_mul(eps2, v_fmadd(d2, s2, v3_len2(o)))),
                                 v_gt(g2, v_set1(1e-30f))));
    const v3 f = v3_unit(r.forward);
    const vf b = v3_dot(r.offset, f);
    const vf disc = v_add(v_sub(v_mul(b, b), d2), t2);
    const vf l = v_sub(v_sqrt(v_max(disc, zero)), b);
    out.reachable = v_and_m(m_not(v_lt(disc, zero)), m_not(v_lt(l, zero)));
    const v3 v = v3_add(r.offset, v3_scale(f, v_max(l, zero)));
    const v3 n = v3_scale(t, v_inv_sqrt(t2));
    const vq swing = arc(v3_unit(v), n, r.up);

    vf c = one, sn = zero;
    out.pole_parallel = v_lt(one, zero); /* none */
    if (has_up) {
        const vf up2 = v3_len2(r.up), pole2 = v3_len2(pole);
        const vm roll = v_and_m(v_gt(up2, zero), v_gt(pole2, zero));
        const v3 u1 = vq_rotate(swing, r.up);
        const v3 uq = v3_across(u1, n);
        const v3 pl = mat_apply_t(m, pole);
        const v3 pq = v3_across(pl, n);
        const vf uq2 = v3_len2(uq), pq2 = v3_len2(pq);
        const vm ok = v_and_m(v_gt(uq2, v_mul(eps2, up2)), v_gt(pq2, v_mul(eps2, v3_len2(pl))));
        const vf inv = v_inv_sqrt(v_mul(uq2, pq2));
        const vm use = v_and_m(roll, ok);
        c = v_select(use, v_mul(v3_dot(uq, pq), inv), one);
        sn = v_select(use, v_mul(v3_dot(n, v3_cross(uq, pq)), inv), zero);
        out.pole_parallel = v_and_m(v_and_m(roll, m_not(ok)), m_not(out.on_joint));
    }
    const vf ct = v_sub(v_mul(c, twist_cos), v_mul(sn, twist_sin));
    const vf st = v_fmadd(c, twist_sin, v_mul(sn, twist_cos));
    out.turn = vq_select(out.on_joint, vq_identity(), vq_mul(axis_cs(n, ct, st), swing));
    out.reachable = v_and_m(out.reachable, m_not(out.on_joint));
    return out;
}

/* The reference's ray_to_parent(). */
static vray ray_to_parent(const vmat *m, const vmat *p, vq q, vray r)
{
    const v3 eye = v3_add(mat_apply(m, vq_rotate(q, r.offset)), mat_pos(m));
    vray out;
    out.offset = v3_scale(mat_apply_t(p, v3_sub(eye, mat_pos(p))), v_div(v_set1(1.0f), mat_scale2(p)));
    out.forward = mat_apply_t(p, mat_apply(m, vq_rotate(q, r.forward)));
    out.up = mat_apply_t(p, mat_apply(m, vq_rotate(q, r.up)));
    return out;
}

void OSSAI_ISA_NAME(ossai_ik_aim_kernel)(const ossai_ik_aim_args *a)
{
    const int w = a->width, links = a->chain_count;
    const vf twist_cos = v_set1(a->twist_cos), twist_sin = v_set1(a->twist_sin);
    const bool has_up = a->up[0] != 0.0f || a->up[1] != 0.0f || a->up[2] != 0.0f;
    for (int o = 0; o < w; o += LANE_V) {
        const float *model = a->model + o;
        float *local = a->local + o;
        const v3 target = load3(a->target + o, w), pole = load3(a->pole + o, w);
        vm weight_finite;
        vf weight = clamp_weight(v_load(a->weight + o), &weight_finite);
        vf bad = v_add(nonfinite3(target), nonfinite3(pole));
        vmat mats[OSSA_IK_MAX_CHAIN];
        for (int k = 0; k < links; ++k) {
            mats[k] = load_mat(model, a->chain[k], w);
            bad = v_add(bad, mat_nonfinite(&mats[k]));
        }
        vm good = v_and_m(weight_finite, v_eq(bad, v_zero()));
        vq out[OSSA_IK_MAX_CHAIN];
        const vm none = v_lt(v_set1(1.0f), v_zero());
        vm reached = none, on_joint = none, pole_parallel = none;
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
                            : share > 0.0f ? weighted(&angle, v_set1(share))
                                           : vq_identity();
            if (a->unit_weight)
                out[k] = vq_select(v_gt(weight, v_zero()), turn, vq_identity());
            else
                out[k] = weighted(&angle, v_mul(v_set1(share), weight));
            on_joint = m_or(on_joint, r.on_joint);
            pole_parallel = m_or(pole_parallel, r.pole_parallel);
            reached = share >= 1.0f ? r.reachable : none;
            if (k > 0)
                at = ray_to_parent(&mats[k], &mats[k - 1], turn, at);
            good = v_and_m(good, v_and_m(vq_finite(out[k]), vq_finite(turn)));
        }
        vf flags = flag_if(reached, v_zero(), OSSA_IK_REACHED);
        flags = flag_if(on_joint, flags, OSSA_IK_TARGET_ON_JOINT);
        flags = flag_if(pole_parallel, flags, OSSA_IK_POLE_PARALLEL);
        flags = v_select(good, flags, v_set1(OSSA_IK_BAD_INPUT));
        weight = v_select(good, weight, v_zero());
        for (int k = 0; k < links; ++k) {
            const vq c = vq_select(good, out[k], vq_identity());
            apply_correction(local, a->chain[k], w, c, weight);
            if (a->corrections)
                store_quat(a->corrections + (size_t)k * 4 * (size_t)w + o, w, c);
        }
        v_store(a->flags + o, flags);
    }
}
