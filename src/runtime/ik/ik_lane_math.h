/* ik_lane_math.h - the vector maths of the IK lane kernels (ik_kernels.c,
 * its only includer, compiled once per instruction set): two vectors side
 * by side on AVX-512, vectors of three and four, the rotation helpers of
 * ik_internal.h over lanes, the weight's slerp by polynomials, and the lane
 * buffers' loads and stores. */
#ifndef OSSA_IK_LANE_MATH_H
#define OSSA_IK_LANE_MATH_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>

#include "core/vec.h"
#include "ik/ik_internal.h"
#include "ossa/lanes.h"

/* The solve functions are large and called once: inlined into their
 * kernel, their vectors stay in registers instead of passing through
 * memory as arguments and results. */
#if defined(__GNUC__) || defined(__clang__)
#define OSSAI_IK_INLINE static inline __attribute__((always_inline))
#else
#define OSSAI_IK_INLINE static inline
#endif

/* ---- two vectors side by side (AVX-512) ----
 * With 32 vector registers, every operation below works on two vectors of
 * lanes at once, back to back: two independent dependency chains,
 * interleaved instruction by instruction, so the core has the other one's
 * work to do while one waits on a square root or a long chain of products.
 * A pair is two halves of a batch or two one-vector batches. With 16
 * registers (SSE, AVX2) the pair's values spill to memory and cost more
 * than they save (measured: the aim chain 20% slower on AVX2), so there
 * the operations are the vector's own, one vector at a time. */
#if defined(OSSAI_ISA_AVX512)
#define OSSAI_IK_PAIRS 1
typedef struct lv {
    vf a, b;
} lv;
typedef struct lm {
    vm a, b;
} lm;

static inline lv lv_make(vf a, vf b)
{
    lv r = {a, b};
    return r;
}
static inline lm lm_make(vm a, vm b)
{
    lm r = {a, b};
    return r;
}
static inline lv l_set1(float x) { return lv_make(v_set1(x), v_set1(x)); }
static inline lv l_zero(void) { return lv_make(v_zero(), v_zero()); }
#define OSSAI_IK_PAIR2(name)                                                                   \
    static inline lv l_##name(lv x, lv y) { return lv_make(v_##name(x.a, y.a), v_##name(x.b, y.b)); }
OSSAI_IK_PAIR2(add)
OSSAI_IK_PAIR2(sub)
OSSAI_IK_PAIR2(mul)
OSSAI_IK_PAIR2(div)
OSSAI_IK_PAIR2(max)
#undef OSSAI_IK_PAIR2
static inline lv l_sqrt(lv x) { return lv_make(v_sqrt(x.a), v_sqrt(x.b)); }
static inline lv l_rsqrt(lv x) { return lv_make(v_rsqrt(x.a), v_rsqrt(x.b)); }
static inline lv l_fmadd(lv x, lv y, lv z)
{
    return lv_make(v_fmadd(x.a, y.a, z.a), v_fmadd(x.b, y.b, z.b));
}
static inline lm l_lt(lv x, lv y) { return lm_make(v_lt(x.a, y.a), v_lt(x.b, y.b)); }
static inline lm l_gt(lv x, lv y) { return lm_make(v_gt(x.a, y.a), v_gt(x.b, y.b)); }
static inline lm l_eq(lv x, lv y) { return lm_make(v_eq(x.a, y.a), v_eq(x.b, y.b)); }
static inline lm l_and_m(lm x, lm y) { return lm_make(v_and_m(x.a, y.a), v_and_m(x.b, y.b)); }
static inline lv l_select(lm m, lv x, lv y)
{
    return lv_make(v_select(m.a, x.a, y.a), v_select(m.b, x.b, y.b));
}
static inline lv l_negate_where(lv x, lm m)
{
    return lv_make(v_negate_where(x.a, m.a), v_negate_where(x.b, m.b));
}
static inline int l_any(lm m) { return v_any(m.a) | v_any(m.b); }

#else
#define OSSAI_IK_PAIRS 0
typedef vf lv;
typedef vm lm;
#define l_set1 v_set1
#define l_zero v_zero
#define l_add v_add
#define l_sub v_sub
#define l_mul v_mul
#define l_div v_div
#define l_max v_max
#define l_sqrt v_sqrt
#define l_rsqrt v_rsqrt
#define l_fmadd v_fmadd
#define l_lt v_lt
#define l_gt v_gt
#define l_eq v_eq
#define l_and_m v_and_m
#define l_select v_select
#define l_negate_where v_negate_where
#define l_any v_any
#endif

/* Where a pair's lanes are: the first vector's and the second's. */
typedef struct lp {
    const float *a, *b;
} lp;
typedef struct lpw {
    float *a, *b;
} lpw;
static inline lp lp_at(lp p, size_t offset)
{
    lp r = {p.a + offset, p.b + offset};
    return r;
}
static inline lpw lpw_at(lpw p, size_t offset)
{
    lpw r = {p.a + offset, p.b + offset};
    return r;
}
static inline lp lp_const(lpw p)
{
    lp r = {p.a, p.b};
    return r;
}
#if OSSAI_IK_PAIRS
static inline lv l_load(lp p) { return lv_make(v_load(p.a), v_load(p.b)); }
static inline void l_store(lpw p, lv v)
{
    v_store(p.a, v.a);
    v_store(p.b, v.b);
}
#else
static inline lv l_load(lp p) { return v_load(p.a); }
static inline void l_store(lpw p, lv v) { v_store(p.a, v); }
#endif

/* ---- vectors of three and four ---- */

typedef struct v3 {
    lv x, y, z;
} v3;

typedef struct vq {
    lv x, y, z, w;
} vq;

static inline v3 v3_make(lv x, lv y, lv z)
{
    v3 r = {x, y, z};
    return r;
}
static inline v3 v3_splat(const float a[3]) { return v3_make(l_set1(a[0]), l_set1(a[1]), l_set1(a[2])); }
static inline v3 v3_add(v3 a, v3 b) { return v3_make(l_add(a.x, b.x), l_add(a.y, b.y), l_add(a.z, b.z)); }
static inline v3 v3_sub(v3 a, v3 b) { return v3_make(l_sub(a.x, b.x), l_sub(a.y, b.y), l_sub(a.z, b.z)); }
static inline v3 v3_scale(v3 a, lv s) { return v3_make(l_mul(a.x, s), l_mul(a.y, s), l_mul(a.z, s)); }
static inline lv v3_dot(v3 a, v3 b) { return l_fmadd(a.z, b.z, l_fmadd(a.y, b.y, l_mul(a.x, b.x))); }
static inline lv v3_len2(v3 a) { return v3_dot(a, a); }
static inline v3 v3_cross(v3 a, v3 b)
{
    return v3_make(l_sub(l_mul(a.y, b.z), l_mul(a.z, b.y)), l_sub(l_mul(a.z, b.x), l_mul(a.x, b.z)),
                   l_sub(l_mul(a.x, b.y), l_mul(a.y, b.x)));
}
/* a minus its component along the unit n. */
static inline v3 v3_across(v3 a, v3 n) { return v3_sub(a, v3_scale(n, v3_dot(a, n))); }
static inline v3 v3_select(lm m, v3 a, v3 b)
{
    return v3_make(l_select(m, a.x, b.x), l_select(m, a.y, b.y), l_select(m, a.z, b.z));
}
static inline lv v_min(lv a, lv b) { return l_select(l_lt(a, b), a, b); }
/* Mask logic from what every path has (compare, and, select). */
static inline lm m_not(lm m) { return l_eq(l_select(m, l_set1(1.0f), l_zero()), l_zero()); }
static inline lm m_or(lm a, lm b)
{
    return l_gt(l_add(l_select(a, l_set1(1.0f), l_zero()), l_select(b, l_set1(1.0f), l_zero())),
                l_zero());
}
/* a <= b (false when either is NaN, as in C). */
static inline lm v_le(lv a, lv b) { return m_or(l_lt(a, b), l_eq(a, b)); }
static inline lv v_abs(lv a) { return l_max(a, l_sub(l_zero(), a)); }
/* Sum of x - x over the values: 0 when every one is finite, else NaN. */
static inline lv nonfinite3(v3 a)
{
    return l_add(l_add(l_sub(a.x, a.x), l_sub(a.y, a.y)), l_sub(a.z, a.z));
}
static inline lv v_inv_sqrt(lv a) { return l_rsqrt(a); }
/* a scaled to unit length; zero stays zero. */
static inline v3 v3_unit(v3 a)
{
    const lv l2 = v3_len2(a);
    return v3_select(l_gt(l2, l_zero()), v3_scale(a, v_inv_sqrt(l2)), a);
}

static inline vq vq_make(lv x, lv y, lv z, lv w)
{
    vq r = {x, y, z, w};
    return r;
}
static inline vq vq_identity(void) { return vq_make(l_zero(), l_zero(), l_zero(), l_set1(1.0f)); }
static inline vq vq_select(lm m, vq a, vq b)
{
    return vq_make(l_select(m, a.x, b.x), l_select(m, a.y, b.y), l_select(m, a.z, b.z),
                   l_select(m, a.w, b.w));
}
static inline vq vq_mul(vq a, vq b)
{
    return vq_make(
        l_sub(l_fmadd(a.y, b.z, l_fmadd(a.x, b.w, l_mul(a.w, b.x))), l_mul(a.z, b.y)),
        l_fmadd(a.z, b.x, l_fmadd(a.y, b.w, l_sub(l_mul(a.w, b.y), l_mul(a.x, b.z)))),
        l_fmadd(a.z, b.w, l_sub(l_fmadd(a.x, b.y, l_mul(a.w, b.z)), l_mul(a.y, b.x))),
        l_sub(l_sub(l_sub(l_mul(a.w, b.w), l_mul(a.x, b.x)), l_mul(a.y, b.y)), l_mul(a.z, b.z)));
}
/* q / |q|, the identity where |q|^2 is zero or not finite. */
static inline vq vq_normalize(vq q)
{
    const lv l2 = l_fmadd(q.w, q.w, l_fmadd(q.z, q.z, l_fmadd(q.y, q.y, l_mul(q.x, q.x))));
    const lm ok = l_and_m(l_gt(l2, l_zero()), l_lt(l2, l_set1(INFINITY)));
    const lv inv = v_inv_sqrt(l2);
    return vq_select(ok, vq_make(l_mul(q.x, inv), l_mul(q.y, inv), l_mul(q.z, inv), l_mul(q.w, inv)),
                     vq_identity());
}
/* v rotated by the unit q: v + 2w (u x v) + 2 u x (u x v). */
static inline v3 vq_rotate(vq q, v3 v)
{
    const v3 u = v3_make(q.x, q.y, q.z);
    const v3 t = v3_scale(v3_cross(u, v), l_set1(2.0f));
    return v3_add(v3_add(v, v3_scale(t, q.w)), v3_cross(u, t));
}
/* All four components finite: x - x is 0 for a finite x, NaN otherwise. */
static inline lm vq_finite(vq q)
{
    const lv z = l_add(l_add(l_sub(q.x, q.x), l_sub(q.y, q.y)),
                       l_add(l_sub(q.z, q.z), l_sub(q.w, q.w)));
    return l_eq(z, l_zero());
}

/* ossai_ik_axis_cs: about the unit axis a by the angle of cosine c, sine s. */
static inline vq axis_cs(v3 a, lv c, lv s)
{
    const lm neg = l_lt(c, l_zero());
    const lv x = l_select(neg, l_sub(l_set1(1.0f), c), s);
    const lv y = l_select(neg, s, l_add(l_set1(1.0f), c));
    const lv inv = v_inv_sqrt(l_fmadd(y, y, l_mul(x, x)));
    const lv k = l_mul(x, inv);
    return vq_make(l_mul(a.x, k), l_mul(a.y, k), l_mul(a.z, k), l_mul(y, inv));
}

/* ossai_ik_perpendicular. */
static inline v3 perpendicular(v3 f, v3 hint)
{
    const v3 p = v3_across(hint, f);
    const lm x_small = l_lt(l_max(f.x, l_sub(l_zero(), f.x)), l_set1(0.5f));
    /* f x (1, 0, 0) = (0, fz, -fy); f x (0, 1, 0) = (-fz, 0, fx) */
    const v3 alt = v3_make(l_select(x_small, l_zero(), l_sub(l_zero(), f.z)),
                           l_select(x_small, f.z, l_zero()),
                           l_select(x_small, l_sub(l_zero(), f.y), f.x));
    return v3_unit(v3_select(l_gt(v3_len2(p), l_mul(l_set1(0.25f), v3_len2(hint))), p, alt));
}

/* ossai_ik_arc: the shortest turn from unit f to unit g. */
static inline vq arc(v3 f, v3 g, v3 hint)
{
    const lv one = l_set1(1.0f);
    const lv c = v3_dot(f, g);
    const v3 x = v3_cross(f, g);
    const lv x2 = v3_len2(x);
    const lm obtuse = l_lt(c, l_zero());
    const lv k = l_select(obtuse, l_sub(one, c), one);
    vq q = vq_make(l_mul(x.x, k), l_mul(x.y, k), l_mul(x.z, k),
                   l_select(obtuse, x2, l_add(one, c)));
    const lm opposite = l_and_m(obtuse, m_not(l_gt(x2, l_set1(1e-12f))));
    if (l_any(opposite)) { /* rare */
        const v3 p = perpendicular(f, hint);
        q = vq_select(opposite, vq_make(p.x, p.y, p.z, l_zero()), q);
    }
    return vq_normalize(q);
}

/* atan2(y, x) for y, x >= 0, not both 0: the ratio below 1, halved twice
 * in angle (tan(a / 2) = t / (1 + sqrt(1 + t^2))) to below tan(pi / 8), then
 * the series to t^15 (error below 2e-8). */
static inline lv atan2_positive(lv y, lv x)
{
    const lm steep = l_gt(y, x);
    const lv t = l_div(v_min(x, y), l_max(x, y));
    const lv one = l_set1(1.0f);
    const lv h = l_div(t, l_add(one, l_sqrt(l_fmadd(t, t, one))));
    const lv h2 = l_mul(h, h);
    lv p = l_set1(-1.0f / 15.0f);
    p = l_fmadd(p, h2, l_set1(1.0f / 13.0f));
    p = l_fmadd(p, h2, l_set1(-1.0f / 11.0f));
    p = l_fmadd(p, h2, l_set1(1.0f / 9.0f));
    p = l_fmadd(p, h2, l_set1(-1.0f / 7.0f));
    p = l_fmadd(p, h2, l_set1(1.0f / 5.0f));
    p = l_fmadd(p, h2, l_set1(-1.0f / 3.0f));
    p = l_fmadd(p, h2, one);
    const lv a = l_mul(l_set1(2.0f), l_mul(p, h));
    return l_select(steep, l_sub(l_set1(1.57079632679f), a), a);
}

/* sin and cos of a in [0, pi / 2]: Taylor series to a^13 and a^14 (errors
 * below 1e-9 there). */
static inline void sincos_quarter(lv a, lv *s, lv *c)
{
    const lv a2 = l_mul(a, a);
    lv ps = l_set1(1.0f / 6227020800.0f);
    ps = l_fmadd(ps, a2, l_set1(-1.0f / 39916800.0f));
    ps = l_fmadd(ps, a2, l_set1(1.0f / 362880.0f));
    ps = l_fmadd(ps, a2, l_set1(-1.0f / 5040.0f));
    ps = l_fmadd(ps, a2, l_set1(1.0f / 120.0f));
    ps = l_fmadd(ps, a2, l_set1(-1.0f / 6.0f));
    ps = l_fmadd(ps, a2, l_set1(1.0f));
    *s = l_mul(ps, a);
    lv pc = l_set1(-1.0f / 87178291200.0f);
    pc = l_fmadd(pc, a2, l_set1(1.0f / 479001600.0f));
    pc = l_fmadd(pc, a2, l_set1(-1.0f / 3628800.0f));
    pc = l_fmadd(pc, a2, l_set1(1.0f / 40320.0f));
    pc = l_fmadd(pc, a2, l_set1(-1.0f / 720.0f));
    pc = l_fmadd(pc, a2, l_set1(1.0f / 24.0f));
    pc = l_fmadd(pc, a2, l_set1(-0.5f));
    *c = l_fmadd(pc, a2, l_set1(1.0f));
}

/* A unit quaternion on the w >= 0 side, with its vector part's length and
 * half its angle: what ossai_ik_weighted works from, computed once for the
 * several weights a correction may be taken at. */
typedef struct turn_angle {
    vq q;
    lv vlen, half;
    lm some; /* vlen > 0 */
} turn_angle;

/* q or -q, whichever has w >= 0. */
static inline vq vq_positive(vq q)
{
    const lm flip = l_lt(q.w, l_zero());
    return vq_make(l_negate_where(q.x, flip), l_negate_where(q.y, flip),
                   l_negate_where(q.z, flip), l_negate_where(q.w, flip));
}

static inline turn_angle turn_angle_of(vq q)
{
    turn_angle t;
    t.q = vq_positive(q);
    t.vlen = l_sqrt(l_fmadd(t.q.z, t.q.z, l_fmadd(t.q.y, t.q.y, l_mul(t.q.x, t.q.x))));
    t.some = l_gt(t.vlen, l_zero());
    /* vlen = 0 would be atan2(0, 1): angle 0 */
    t.half = l_select(t.some, atan2_positive(t.vlen, t.q.w), l_zero());
    return t;
}

/* ossai_ik_weighted: slerp(identity, q, w), w in [0, 1]; exactly q at 1
 * and the identity at 0. */
static inline vq weighted(const turn_angle *t, lv w)
{
    const lm full = m_not(l_lt(w, l_set1(1.0f)));
    const lm some = l_gt(w, l_zero());
    if (!l_any(l_and_m(some, m_not(full)))) /* every weight 0 or 1 */
        return vq_select(full, t->q, vq_identity());
    lv s, c;
    sincos_quarter(l_mul(t->half, w), &s, &c);
    const lv k = l_select(t->some, l_div(s, t->vlen), w);
    const vq r = vq_make(l_mul(t->q.x, k), l_mul(t->q.y, k), l_mul(t->q.z, k), c);
    return vq_select(full, t->q, vq_select(some, r, vq_identity()));
}

/* ---- lane buffers ---- */

/* One joint's model matrix, rows of four, for a pair of lane vectors. */
typedef struct vmat {
    lv m[3][4];
} vmat;

static inline vmat load_mat(lp model, int joint, int width)
{
    const lp p = lp_at(model, (size_t)joint * OSSA_LANE_MODEL_COMPONENTS * (size_t)width);
    vmat r;
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 4; ++j)
            r.m[i][j] = l_load(lp_at(p, (size_t)(i * 4 + j) * (size_t)width));
    return r;
}
static inline v3 mat_pos(const vmat *m) { return v3_make(m->m[0][3], m->m[1][3], m->m[2][3]); }
static inline v3 mat_apply(const vmat *m, v3 v)
{
    return v3_make(l_fmadd(m->m[0][2], v.z, l_fmadd(m->m[0][1], v.y, l_mul(m->m[0][0], v.x))),
                   l_fmadd(m->m[1][2], v.z, l_fmadd(m->m[1][1], v.y, l_mul(m->m[1][0], v.x))),
                   l_fmadd(m->m[2][2], v.z, l_fmadd(m->m[2][1], v.y, l_mul(m->m[2][0], v.x))));
}
static inline v3 mat_apply_t(const vmat *m, v3 v)
{
    return v3_make(l_fmadd(m->m[2][0], v.z, l_fmadd(m->m[1][0], v.y, l_mul(m->m[0][0], v.x))),
                   l_fmadd(m->m[2][1], v.z, l_fmadd(m->m[1][1], v.y, l_mul(m->m[0][1], v.x))),
                   l_fmadd(m->m[2][2], v.z, l_fmadd(m->m[1][2], v.y, l_mul(m->m[0][2], v.x))));
}
static inline lv mat_scale2(const vmat *m)
{
    return l_fmadd(m->m[2][0], m->m[2][0],
                   l_fmadd(m->m[1][0], m->m[1][0], l_mul(m->m[0][0], m->m[0][0])));
}
/* Sum of x - x over the matrix: 0 when every entry is finite. */
static inline lv mat_nonfinite(const vmat *m)
{
    lv z = l_zero();
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 4; ++j)
            z = l_add(z, l_sub(m->m[i][j], m->m[i][j]));
    return z;
}
/* ossai_ik_to_local: a model-space turn as a correction in m's frame. */
static inline vq to_local(const vmat *m, vq d)
{
    const v3 v = v3_scale(mat_apply_t(m, v3_make(d.x, d.y, d.z)), v_inv_sqrt(mat_scale2(m)));
    return vq_make(v.x, v.y, v.z, d.w);
}

static inline v3 load3(lp p, int width)
{
    const size_t w = (size_t)width;
    return v3_make(l_load(p), l_load(lp_at(p, w)), l_load(lp_at(p, 2 * w)));
}
static inline void store_quat(lpw p, int width, vq q)
{
    const size_t w = (size_t)width;
    l_store(p, q.x);
    l_store(lpw_at(p, w), q.y);
    l_store(lpw_at(p, 2 * w), q.z);
    l_store(lpw_at(p, 3 * w), q.w);
}
/* rotation = normalize(rotation * c) where w > 0; untouched elsewhere. */
static inline void apply_correction(lpw local, int joint, int width, vq c, lv w)
{
    const size_t s = (size_t)width;
    const lpw p = lpw_at(local, ((size_t)joint * OSSA_LANE_POSE_COMPONENTS + 3) * s);
    const lp r_at = lp_const(p);
    const vq r = vq_make(l_load(r_at), l_load(lp_at(r_at, s)), l_load(lp_at(r_at, 2 * s)),
                         l_load(lp_at(r_at, 3 * s)));
    store_quat(p, width, vq_select(l_gt(w, l_zero()), vq_normalize(vq_mul(r, c)), r));
}
/* flags + bit where m. */
static inline lv flag_if(lm m, lv flags, float bit)
{
    return l_select(m, l_add(flags, l_set1(bit)), flags);
}
/* The lane's weight clamped to [0, 1] and whether it was finite. */
static inline lv clamp_weight(lv w, lm *finite)
{
    *finite = l_eq(l_sub(w, w), l_zero());
    return v_min(l_max(w, l_zero()), l_set1(1.0f));
}

#endif /* OSSA_IK_LANE_MATH_H */
