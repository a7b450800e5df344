/* vec_avx2.h - the lane kernels' vector type on AVX2 + FMA: 8 lanes. */
#ifndef OSSA_CORE_VEC_AVX2_H
#define OSSA_CORE_VEC_AVX2_H

#include <immintrin.h>
#include <stdint.h>

#define LANE_V 8

typedef __m256 vf;
typedef __m256 vm;

static inline vf v_load(const float *p) { return _mm256_loadu_ps(p); }
static inline void v_store(float *p, vf v) { _mm256_storeu_ps(p, v); }
/* Non-temporal store (p 32-byte aligned) and the fence that ends a run of them. */
static inline void v_stream(float *p, vf v) { _mm256_stream_ps(p, v); }
static inline void v_fence(void) { _mm_sfence(); }
static inline vf v_set1(float x) { return _mm256_set1_ps(x); }
static inline vf v_zero(void) { return _mm256_setzero_ps(); }
static inline vf v_add(vf a, vf b) { return _mm256_add_ps(a, b); }
static inline vf v_sub(vf a, vf b) { return _mm256_sub_ps(a, b); }
static inline vf v_mul(vf a, vf b) { return _mm256_mul_ps(a, b); }
static inline vf v_div(vf a, vf b) { return _mm256_div_ps(a, b); }
static inline vf v_sqrt(vf a) { return _mm256_sqrt_ps(a); }
static inline vf v_floor(vf a) { return _mm256_floor_ps(a); }
static inline vf v_max(vf a, vf b) { return _mm256_max_ps(a, b); }
static inline vf v_fmadd(vf a, vf b, vf c) { return _mm256_fmadd_ps(a, b, c); }
static inline vm v_lt(vf a, vf b) { return _mm256_cmp_ps(a, b, _CMP_LT_OQ); }
static inline vm v_gt(vf a, vf b) { return _mm256_cmp_ps(a, b, _CMP_GT_OQ); }
static inline vm v_eq(vf a, vf b) { return _mm256_cmp_ps(a, b, _CMP_EQ_OQ); }
static inline vm v_and_m(vm a, vm b) { return _mm256_and_ps(a, b); }
static inline vf v_select(vm m, vf a, vf b) { return _mm256_blendv_ps(b, a, m); }
static inline vf v_negate_where(vf x, vm m)
{
    return _mm256_xor_ps(x, _mm256_and_ps(m, _mm256_set1_ps(-0.0f)));
}
/* 1 / sqrt(a) within 3e-7 relative: the estimate and one Newton step. */
static inline vf v_rsqrt(vf a)
{
    const vf y = _mm256_rsqrt_ps(a);
    const vf h = v_mul(v_mul(v_set1(0.5f), a), y);
    return v_mul(y, v_sub(v_set1(1.5f), v_mul(h, y)));
}
/* Whether any lane of m is set (to skip work no lane needs). */
static inline int v_any(vm m) { return _mm256_movemask_ps(m) != 0; }

/* 8x8 transpose: unpack pairs, shuffle quads, swap 128-bit halves. */
static inline void v_transpose(vf r[8])
{
    __m256 t[8], s[8];
    for (int i = 0; i < 8; i += 2) {
        t[i] = _mm256_unpacklo_ps(r[i], r[i + 1]);
        t[i + 1] = _mm256_unpackhi_ps(r[i], r[i + 1]);
    }
    for (int i = 0; i < 8; i += 4) {
        s[i + 0] = _mm256_shuffle_ps(t[i + 0], t[i + 2], 0x44);
        s[i + 1] = _mm256_shuffle_ps(t[i + 0], t[i + 2], 0xEE);
        s[i + 2] = _mm256_shuffle_ps(t[i + 1], t[i + 3], 0x44);
        s[i + 3] = _mm256_shuffle_ps(t[i + 1], t[i + 3], 0xEE);
    }
    for (int i = 0; i < 4; ++i) {
        r[i] = _mm256_permute2f128_ps(s[i], s[i + 4], 0x20);
        r[i + 4] = _mm256_permute2f128_ps(s[i], s[i + 4], 0x31);
    }
}

#endif /* OSSA_CORE_VEC_AVX2_H */
