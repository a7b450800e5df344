/* skin_avx2.c - AVX2 + FMA skinning kernels (compiled with -mavx2 -mfma,
 * called only when the CPU has them). One vertex at a time: rows 0-1 of the
 * blended matrix in one ymm, row 2 in an xmm; two in-lane unpacks and four
 * cross-lane permutes give each column in both 128-bit lanes, so position and
 * normal are transformed together as one ymm [position | normal]; runs of
 * 1-influence vertices on one joint keep their columns. Streaming stores are
 * 16 bytes wide: a vertex with tangents is 48 bytes, so only every other one
 * starts on the 32-byte boundary a ymm streaming store needs. */
#include <immintrin.h>

#include "skin/skinning_internal.h"

/* Palette matrix j (see palette_stride in skinning_internal.h). */
#define AT(j) ((const float *)(const void *)((const char *)palette + (size_t)(j) * stride))

OSSAI_SKIN_INLINE void skin(const ossai_skin_batch *b, const int n, const bool tangents,
                            const bool stream)
{
    const size_t floats = tangents ? 12 : 8;
    const float *src = b->src;
    float *dst = b->dst;
    const uint16_t *joints = b->joints;
    const float *weights = b->weights;
    const ossa_mat34 *palette = b->palette;
    const size_t stride = b->palette_stride;
    /* B's upper lane is the implicit fourth row (0 0 0 1). */
    const __m256 e3 = _mm256_set_ps(1.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f);
    const __m256i pick_lo = _mm256_setr_epi32(0, 4, 1, 5, 0, 4, 1, 5);
    const __m256i pick_hi = _mm256_setr_epi32(2, 6, 3, 7, 2, 6, 3, 7);
    /* w of [position | normal]: 1 takes the translation, 0 does not. */
    const __m256 w_pn = _mm256_setr_ps(1.0f, 1.0f, 1.0f, 1.0f, 0.0f, 0.0f, 0.0f, 0.0f);
    /* 1-influence vertices are sorted by joint: within a run the columns of
     * the previous vertex are the columns of this one. */
    uint16_t current = 0xFFFF; /* no skin joint has this index */
    __m256 c0 = e3, c1 = e3, c2 = e3, c3 = e3;
    /* Locals, not b->: stores through dst could alias *b for the compiler. */
    for (const float *end = src + b->count * floats; src != end;) {
        if (n != 1 || joints[0] != current) {
            current = joints[0];
            const float *last = AT(joints[n - 1]);
            const __m256 l01 = _mm256_loadu_ps(last);
            const __m128 l2 = _mm_load_ps(last + 8);
            __m256 a01 = l01;
            __m128 a2 = l2;
            for (int k = 0; k + 1 < n; ++k) {
                const float *p = AT(joints[k]);
                a01 = _mm256_fmadd_ps(_mm256_set1_ps(weights[k]),
                                      _mm256_sub_ps(_mm256_loadu_ps(p), l01), a01);
                a2 = _mm_fmadd_ps(_mm_set1_ps(weights[k]), _mm_sub_ps(_mm_load_ps(p + 8), l2),
                                  a2);
            }
            /* a01 = [r0 | r1], b = [r2 | e3]; u = [m00 m20 m01 m21 | m10 0 m11 0],
             * v = [m02 m22 m03 m23 | m12 0 m13 1]. */
            const __m256 bb = _mm256_blend_ps(_mm256_castps128_ps256(a2), e3, 0xF0);
            const __m256 u = _mm256_unpacklo_ps(a01, bb), v = _mm256_unpackhi_ps(a01, bb);
            c0 = _mm256_permutevar8x32_ps(u, pick_lo);
            c1 = _mm256_permutevar8x32_ps(u, pick_hi);
            c2 = _mm256_permutevar8x32_ps(v, pick_lo);
            c3 = _mm256_permutevar8x32_ps(v, pick_hi);
        }
        const __m256 pn = _mm256_loadu_ps(src);
        __m256 o = _mm256_mul_ps(c3, w_pn);
        o = _mm256_fmadd_ps(c0, _mm256_permute_ps(pn, 0x00), o);
        o = _mm256_fmadd_ps(c1, _mm256_permute_ps(pn, 0x55), o);
        o = _mm256_fmadd_ps(c2, _mm256_permute_ps(pn, 0xAA), o);
        if (stream) {
            _mm_stream_ps(dst, _mm256_castps256_ps128(o));
            _mm_stream_ps(dst + 4, _mm256_extractf128_ps(o, 1));
        } else {
            _mm256_storeu_ps(dst, o);
        }
        if (tangents) {
            const __m128 t = _mm_load_ps(src + 8);
            __m128 ot = _mm_mul_ps(_mm256_castps256_ps128(c0), _mm_broadcast_ss(src + 8));
            ot = _mm_fmadd_ps(_mm256_castps256_ps128(c1), _mm_broadcast_ss(src + 9), ot);
            ot = _mm_fmadd_ps(_mm256_castps256_ps128(c2), _mm_broadcast_ss(src + 10), ot);
            ot = _mm_blend_ps(ot, t, 8); /* keep the handedness */
            if (stream)
                _mm_stream_ps(dst + 8, ot);
            else
                _mm_store_ps(dst + 8, ot);
        }
        src += floats;
        dst += floats;
        joints += n;
        weights += n - 1;
    }
    if (stream)
        _mm_sfence();
}

OSSAI_SKIN_DISPATCH_STREAM(ossai_skin_kernel_avx2, skin)
