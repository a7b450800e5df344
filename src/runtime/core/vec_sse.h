/* vec_sse.h - the lane kernels' vector type on SSE4.2: 4 lanes. */
#ifndef OSSA_CORE_VEC_SSE_H
#define OSSA_CORE_VEC_SSE_H

#include <immintrin.h>
#include <stdint.h>

#define LANE_V 4

typedef __m128 vf;
typedef __m128 vm;

static inline vf v_load(const float *p) { return _mm_loadu_ps(p); }
static inline void v_store(float *p, vf v) { _mm_storeu_ps(p, v); }
/* Non-temporal store (p 16-byte aligned) and the fence that ends a run of them. */
static inline void v_stream(float *p, vf v) { _mm_stream_ps(p, v); }
static inline void v_fence(void) { _mm_sfence(); }
static inline vf v_set1(float x) { return _mm_set1_ps(x); }
static inline vf v_zero(void) { return _mm_setzero_ps(); }
static inline vf v_add(vf a, vf b) { return _mm_add_ps(a, b); }
static inline vf v_sub(vf a, vf b) { return _mm_sub_ps(a, b); }
static inline vf v_mul(vf a, vf b) { return _mm_mul_ps(a, b); }
static inline vf v_div(vf a, vf b) { return _mm_div_ps(a, b); }
static inline vf v_sqrt(vf a) { return _mm_sqrt_ps(a); }
static inline vf v_floor(vf a) { return _mm_floor_ps(a); }
static inline vf v_max(vf a, vf b) { return _mm_max_ps(a, b); }
static inline vf v_fmadd(vf a, vf b, vf c) { return _mm_add_ps(_mm_mul_ps(a, b), c); }
static inline vm v_lt(vf a, vf b) { return _mm_cmplt_ps(a, b); }
static inline vm v_gt(vf a, vf b) { return _mm_cmpgt_ps(a, b); }
static inline vm v_eq(vf a, vf b) { return _mm_cmpeq_ps(a, b); }
static inline vm v_and_m(vm a, vm b) { return _mm_and_ps(a, b); }
static inline vf v_select(vm m, vf a, vf b) { return _mm_blendv_ps(b, a, m); }
static inline vf v_negate_where(vf x, vm m)
{
    return _mm_xor_ps(x, _mm_and_ps(m, _mm_set1_ps(-0.0f)));
}
/* 1 / sqrt(a) within 3e-7 relative: the estimate and one Newton step. */
static inline vf v_rsqrt(vf a)
{
    const vf y = _mm_rsqrt_ps(a);
    const vf h = v_mul(v_mul(v_set1(0.5f), a), y);
    return v_mul(y, v_sub(v_set1(1.5f), v_mul(h, y)));
}
/* Whether any lane of m is set (to skip work no lane needs). */
static inline int v_any(vm m) { return _mm_movemask_ps(m) != 0; }

static inline void v_transpose(vf r[4])
{
    _MM_TRANSPOSE4_PS(r[0], r[1], r[2], r[3]);
}

#endif /* OSSA_CORE_VEC_SSE_H */
