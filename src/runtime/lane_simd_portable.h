/* lane_simd_portable.h - the lane kernels' vector type in plain C: four
 * floats, element by element. Lane-shaped like the SIMD paths (and what
 * OSSA_NO_SIMD builds), so compilers may still vectorise it. */
#ifndef OSSA_LANE_SIMD_PORTABLE_H
#define OSSA_LANE_SIMD_PORTABLE_H

#include <math.h>
#include <string.h>

#include "ossa/math.h"

#define LANE_V 4

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
static inline vf v_set1(float x) { V_EACH(x); }
static inline vf v_zero(void) { V_EACH(0.0f); }
static inline vf v_add(vf a, vf b) { V_EACH(a.f[i_] + b.f[i_]); }
static inline vf v_sub(vf a, vf b) { V_EACH(a.f[i_] - b.f[i_]); }
static inline vf v_mul(vf a, vf b) { V_EACH(a.f[i_] * b.f[i_]); }
static inline vf v_div(vf a, vf b) { V_EACH(a.f[i_] / b.f[i_]); }
static inline vf v_sqrt(vf a) { V_EACH(sqrtf(a.f[i_])); }
/* a > 0 style maximum: b when a is NaN, like SSE's maxps. */
static inline vf v_max(vf a, vf b) { V_EACH(a.f[i_] > b.f[i_] ? a.f[i_] : b.f[i_]); }
/* a * b + c, rounded twice (no FMA on the portable path). */
static inline vf v_fmadd(vf a, vf b, vf c) { V_EACH(a.f[i_] * b.f[i_] + c.f[i_]); }
static inline vm v_lt(vf a, vf b) { M_EACH(a.f[i_] < b.f[i_]); }
static inline vm v_gt(vf a, vf b) { M_EACH(a.f[i_] > b.f[i_]); }
static inline vm v_eq(vf a, vf b) { M_EACH(a.f[i_] == b.f[i_]); }
static inline vm v_and_m(vm a, vm b) { M_EACH(a.m[i_] && b.m[i_]); }
/* m ? a : b per lane. */
static inline vf v_select(vm m, vf a, vf b) { V_EACH(m.m[i_] ? a.f[i_] : b.f[i_]); }
/* -x where m, x elsewhere. */
static inline vf v_negate_where(vf x, vm m) { V_EACH(m.m[i_] ? -x.f[i_] : x.f[i_]); }

/* r[i][j] <-> r[j][i]. */
static inline void v_transpose(vf r[LANE_V])
{
    for (int i = 0; i < LANE_V; ++i)
        for (int j = i + 1; j < LANE_V; ++j) {
            float t = r[i].f[j];
            r[i].f[j] = r[j].f[i];
            r[j].f[i] = t;
        }
}


#endif /* OSSA_LANE_SIMD_PORTABLE_H */
