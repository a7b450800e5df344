/* vec_avx512.h - the lane kernels' vector type on AVX-512: 16 lanes,
 * comparisons in mask registers. */
#ifndef OSSA_CORE_VEC_AVX512_H
#define OSSA_CORE_VEC_AVX512_H

#include <immintrin.h>
#include <stdint.h>

#define LANE_V 16

typedef __m512 vf;
typedef __mmask16 vm;

static inline vf v_load(const float *p) { return _mm512_loadu_ps(p); }
static inline void v_store(float *p, vf v) { _mm512_storeu_ps(p, v); }
/* Non-temporal store (p 64-byte aligned: a whole cache line) and the fence
 * that ends a run of them. */
static inline void v_stream(float *p, vf v) { _mm512_stream_ps(p, v); }
static inline void v_fence(void) { _mm_sfence(); }
static inline vf v_set1(float x) { return _mm512_set1_ps(x); }
static inline vf v_zero(void) { return _mm512_setzero_ps(); }
static inline vf v_add(vf a, vf b) { return _mm512_add_ps(a, b); }
static inline vf v_sub(vf a, vf b) { return _mm512_sub_ps(a, b); }
static inline vf v_mul(vf a, vf b) { return _mm512_mul_ps(a, b); }
static inline vf v_div(vf a, vf b) { return _mm512_div_ps(a, b); }
static inline vf v_sqrt(vf a) { return _mm512_sqrt_ps(a); }
static inline vf v_floor(vf a)
{
    return _mm512_roundscale_ps(a, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
}
static inline vf v_max(vf a, vf b) { return _mm512_max_ps(a, b); }
static inline vf v_fmadd(vf a, vf b, vf c) { return _mm512_fmadd_ps(a, b, c); }
static inline vm v_lt(vf a, vf b) { return _mm512_cmp_ps_mask(a, b, _CMP_LT_OQ); }
static inline vm v_gt(vf a, vf b) { return _mm512_cmp_ps_mask(a, b, _CMP_GT_OQ); }
static inline vm v_eq(vf a, vf b) { return _mm512_cmp_ps_mask(a, b, _CMP_EQ_OQ); }
static inline vm v_and_m(vm a, vm b) { return (vm)(a & b); }
static inline vf v_select(vm m, vf a, vf b) { return _mm512_mask_blend_ps(m, b, a); }
static inline vf v_negate_where(vf x, vm m)
{
    return _mm512_mask_xor_ps(x, m, x, _mm512_set1_ps(-0.0f));
}
/* 1 / sqrt(a) within 3e-7 relative: the estimate and one Newton step. */
static inline vf v_rsqrt(vf a)
{
    const vf y = _mm512_rsqrt14_ps(a);
    const vf h = v_mul(v_mul(v_set1(0.5f), a), y);
    return v_mul(y, v_sub(v_set1(1.5f), v_mul(h, y)));
}
/* Whether any lane of m is set (to skip work no lane needs). */
static inline int v_any(vm m) { return m != 0; }

static inline __m512 unpacklo_pd(__m512 a, __m512 b)
{
    return _mm512_castpd_ps(_mm512_unpacklo_pd(_mm512_castps_pd(a), _mm512_castps_pd(b)));
}

static inline __m512 unpackhi_pd(__m512 a, __m512 b)
{
    return _mm512_castpd_ps(_mm512_unpackhi_pd(_mm512_castps_pd(a), _mm512_castps_pd(b)));
}

/* 16x16 transpose in four rounds of 16 shuffles: 4x4 transposes inside each
 * 128-bit block (unpack ps, unpack pd), then a 4x4 transpose of the blocks
 * (two rounds of shuffle_f32x4). */
static inline void v_transpose(vf r[16])
{
    __m512 t[16], u[16];
    for (int i = 0; i < 16; i += 2) {
        t[i] = _mm512_unpacklo_ps(r[i], r[i + 1]);
        t[i + 1] = _mm512_unpackhi_ps(r[i], r[i + 1]);
    }
    /* u[4k + m], block q: element 4q + m of rows 4k .. 4k + 3 */
    for (int k = 0; k < 16; k += 4) {
        u[k + 0] = unpacklo_pd(t[k + 0], t[k + 2]);
        u[k + 1] = unpackhi_pd(t[k + 0], t[k + 2]);
        u[k + 2] = unpacklo_pd(t[k + 1], t[k + 3]);
        u[k + 3] = unpackhi_pd(t[k + 1], t[k + 3]);
    }
    for (int m = 0; m < 4; ++m) {
        __m512 v0 = _mm512_shuffle_f32x4(u[m], u[4 + m], 0x44);
        __m512 v1 = _mm512_shuffle_f32x4(u[m], u[4 + m], 0xEE);
        __m512 v2 = _mm512_shuffle_f32x4(u[8 + m], u[12 + m], 0x44);
        __m512 v3 = _mm512_shuffle_f32x4(u[8 + m], u[12 + m], 0xEE);
        r[m] = _mm512_shuffle_f32x4(v0, v2, 0x88);
        r[4 + m] = _mm512_shuffle_f32x4(v0, v2, 0xDD);
        r[8 + m] = _mm512_shuffle_f32x4(v1, v3, 0x88);
        r[12 + m] = _mm512_shuffle_f32x4(v1, v3, 0xDD);
    }
}

#endif /* OSSA_CORE_VEC_AVX512_H */
