/* vec_portable.h - the lane kernels' vector type without intrinsics:
 * four floats, lane-shaped like the SIMD paths; what OSSA_NO_SIMD builds and
 * what non-x86 targets run. */
#ifndef OSSA_CORE_VEC_PORTABLE_H
#define OSSA_CORE_VEC_PORTABLE_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "ossa/math.h"

#define LANE_V 4

#if defined(__GNUC__) || defined(__clang__)
/* GCC and clang's generic vectors: still plain C to read, but the compiler
 * maps them to the target's vector unit (SSE2, NEON...) instead of leaving
 * four scalar operations. */
typedef float vf __attribute__((vector_size(16)));
typedef int32_t vm __attribute__((vector_size(16)));

static inline vf v_load(const float *p)
{
    vf r;
    memcpy(&r, p, sizeof r);
    return r;
}
static inline void v_store(float *p, vf v)
{
    memcpy(p, &v, sizeof v);
}
/* No non-temporal stores in plain C: ordinary ones. */
static inline void v_stream(float *p, vf v) { v_store(p, v); }
static inline void v_fence(void) {}
static inline vf v_set1(float x) { return (vf){x, x, x, x}; }
static inline vf v_zero(void) { return v_set1(0.0f); }
static inline vf v_add(vf a, vf b) { return a + b; }
static inline vf v_sub(vf a, vf b) { return a - b; }
static inline vf v_mul(vf a, vf b) { return a * b; }
static inline vf v_div(vf a, vf b) { return a / b; }
static inline vf v_sqrt(vf a)
{
    vf r;
    for (int i = 0; i < LANE_V; ++i)
        r[i] = sqrtf(a[i]);
    return r;
}
static inline vf v_floor(vf a)
{
    vf r;
    for (int i = 0; i < LANE_V; ++i)
        r[i] = floorf(a[i]);
    return r;
}
/* a * b + c, rounded twice (no FMA on the portable path). */
static inline vf v_fmadd(vf a, vf b, vf c) { return a * b + c; }
static inline vm v_lt(vf a, vf b) { return a < b; }
static inline vm v_gt(vf a, vf b) { return a > b; }
static inline vm v_eq(vf a, vf b) { return a == b; }
static inline vm v_and_m(vm a, vm b) { return a & b; }
/* m ? a : b per lane (m lanes are all ones or all zeros). */
static inline vf v_select(vm m, vf a, vf b) { return (vf)(((vm)a & m) | ((vm)b & ~m)); }
/* SSE's maxps: b where a is NaN. */
static inline vf v_max(vf a, vf b) { return v_select(a > b, a, b); }
/* -x where m, x elsewhere. */
static inline vf v_negate_where(vf x, vm m) { return (vf)((vm)x ^ (m & (vm)v_set1(-0.0f))); }
/* 1 / sqrt(a): the quotient itself (no estimate instruction in plain C). */
static inline vf v_rsqrt(vf a) { return v_set1(1.0f) / v_sqrt(a); }
/* Whether any lane of m is set (to skip work no lane needs). */
static inline int v_any(vm m) { return (m[0] | m[1] | m[2] | m[3]) != 0; }

#else
/* Any other C11 compiler: four floats, element by element. */
typedef struct vf {
    float f[LANE_V];
} vf;
typedef struct vm {
    int m[LANE_V];
} vm;

#define V_EACH(expr)                                                                           \
    vf r_;                                                                                     \
    for (int i_ = 0; i_ < LANE_V; ++i_)                                                        \
        r_.f[i_] = (expr);                                                                     \
    return r_
#define M_EACH(expr)                                                                           \
    vm r_;                                                                                     \
    for (int i_ = 0; i_ < LANE_V; ++i_)                                                        \
        r_.m[i_] = (expr);                                                                     \
    return r_

static inline vf v_load(const float *p)
{
    vf r;
    memcpy(r.f, p, sizeof r.f);
    return r;
}
static inline void v_store(float *p, vf v)
{
    memcpy(p, v.f, sizeof v.f);
}
static inline void v_stream(float *p, vf v) { v_store(p, v); }
static inline void v_fence(void) {}
static inline vf v_set1(float x) { V_EACH(x); }
static inline vf v_zero(void) { V_EACH(0.0f); }
static inline vf v_add(vf a, vf b) { V_EACH(a.f[i_] + b.f[i_]); }
static inline vf v_sub(vf a, vf b) { V_EACH(a.f[i_] - b.f[i_]); }
static inline vf v_mul(vf a, vf b) { V_EACH(a.f[i_] * b.f[i_]); }
static inline vf v_div(vf a, vf b) { V_EACH(a.f[i_] / b.f[i_]); }
static inline vf v_sqrt(vf a) { V_EACH(sqrtf(a.f[i_])); }
static inline vf v_floor(vf a) { V_EACH(floorf(a.f[i_])); }
static inline vf v_max(vf a, vf b) { V_EACH(a.f[i_] > b.f[i_] ? a.f[i_] : b.f[i_]); }
static inline vf v_fmadd(vf a, vf b, vf c) { V_EACH(a.f[i_] * b.f[i_] + c.f[i_]); }
static inline vm v_lt(vf a, vf b) { M_EACH(a.f[i_] < b.f[i_]); }
static inline vm v_gt(vf a, vf b) { M_EACH(a.f[i_] > b.f[i_]); }
static inline vm v_eq(vf a, vf b) { M_EACH(a.f[i_] == b.f[i_]); }
static inline vm v_and_m(vm a, vm b) { M_EACH(a.m[i_] && b.m[i_]); }
static inline vf v_select(vm m, vf a, vf b) { V_EACH(m.m[i_] ? a.f[i_] : b.f[i_]); }
static inline vf v_negate_where(vf x, vm m) { V_EACH(m.m[i_] ? -x.f[i_] : x.f[i_]); }
static inline vf v_rsqrt(vf a) { V_EACH(1.0f / sqrtf(a.f[i_])); }
static inline int v_any(vm m) { return (m.m[0] | m.m[1] | m.m[2] | m.m[3]) != 0; }
#endif

/* r[i][j] <-> r[j][i]. */
static inline void v_transpose(vf r[LANE_V])
{
    float t[LANE_V][LANE_V];
    for (int i = 0; i < LANE_V; ++i)
        v_store(t[i], r[i]);
    for (int i = 0; i < LANE_V; ++i) {
        float c[LANE_V];
        for (int j = 0; j < LANE_V; ++j)
            c[j] = t[j][i];
        r[i] = v_load(c);
    }
}

#endif /* OSSA_CORE_VEC_PORTABLE_H */
