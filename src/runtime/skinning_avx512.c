/* skinning_avx512.c - AVX-512 skinning kernels (compiled with -mavx512f
 * -mavx512vl -mavx512bw -mavx512dq, called only when the CPU has them).
 *
 * A 3x4 palette matrix is 12 floats: one masked zmm load, with the implicit
 * fourth row (0 0 0 1) merged into the top 128-bit lane. Blending n matrices
 * is one load plus a subtract and an FMA per further influence. Four
 * cross-lane permutes broadcast the blended matrix's columns to every lane,
 * four in-lane permutes spread x, y, z, w of [position | normal | tangent],
 * and one multiply and three FMAs transform all three attributes at once.
 * The w components come out exact: 1 for positions, 0 for normals, the
 * tangent's handedness unchanged (its lane of column 3 is (0 0 0 1)). */
#include <immintrin.h>

#include "skinning_internal.h"

#define ROWS 0x0FFFu /* the 12 floats of a 3x4 matrix */

/* [r0 | r1 | r2 | (0 0 0 1)] of the vertex's blended matrix. */
OSSAI_SKIN_INLINE __m512 blend(const ossa_mat34 *palette, const uint16_t *joints,
                               const float *weights, int n, __m512 e3)
{
    const __m512 last = _mm512_mask_loadu_ps(e3, ROWS, palette[joints[n - 1]].m[0]);
    __m512 m = last;
    for (int k = 0; k + 1 < n; ++k) {
        /* m -= w_k (last - P[j_k]); lane 3 stays (0 0 0 1). */
        const __m512 p = _mm512_maskz_loadu_ps(ROWS, palette[joints[k]].m[0]);
        m = _mm512_fnmadd_ps(_mm512_set1_ps(weights[k]), _mm512_maskz_sub_ps(ROWS, last, p), m);
    }
    return m;
}

/* Column j of m in every lane; column 3's tangent lane is (0 0 0 1). */
typedef struct columns {
    __m512i c0, c1, c2, c3;
} columns;

OSSAI_SKIN_INLINE __m512 transform(__m512 m, __m512 v, const columns *idx)
{
    __m512 o = _mm512_mul_ps(_mm512_permutexvar_ps(idx->c0, m), _mm512_permute_ps(v, 0x00));
    o = _mm512_fmadd_ps(_mm512_permutexvar_ps(idx->c1, m), _mm512_permute_ps(v, 0x55), o);
    o = _mm512_fmadd_ps(_mm512_permutexvar_ps(idx->c2, m), _mm512_permute_ps(v, 0xAA), o);
    return _mm512_fmadd_ps(_mm512_permutexvar_ps(idx->c3, m), _mm512_permute_ps(v, 0xFF), o);
}

OSSAI_SKIN_INLINE void skin(const ossai_skin_batch *b, const int n, const bool tangents)
{
    const __mmask16 lanes = tangents ? 0x0FFF : 0x00FF;
    const size_t floats = tangents ? 12 : 8;
    const __m512 e3 = _mm512_setr_ps(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1);
    const columns idx = {
        _mm512_setr_epi32(0, 4, 8, 12, 0, 4, 8, 12, 0, 4, 8, 12, 0, 4, 8, 12),
        _mm512_setr_epi32(1, 5, 9, 13, 1, 5, 9, 13, 1, 5, 9, 13, 1, 5, 9, 13),
        _mm512_setr_epi32(2, 6, 10, 14, 2, 6, 10, 14, 2, 6, 10, 14, 2, 6, 10, 14),
        _mm512_setr_epi32(3, 7, 11, 15, 3, 7, 11, 15, 12, 13, 14, 15, 12, 13, 14, 15),
    };
    const float *src = b->src;
    float *dst = b->dst;
    const uint16_t *joints = b->joints;
    const float *weights = b->weights;
    const ossa_mat34 *palette = b->palette;
    /* Locals, not b->: stores through dst could alias *b for the compiler. */
    for (const float *end = src + b->count * floats; src != end;) {
        const __m512 m = blend(palette, joints, weights, n, e3);
        const __m512 v = _mm512_maskz_loadu_ps(lanes, src);
        _mm512_mask_storeu_ps(dst, lanes, transform(m, v, &idx));
        src += floats;
        dst += floats;
        joints += n;
        weights += n - 1;
    }
}

void ossai_skin_avx512(const ossai_skin_batch *b)
{
    switch (b->influences * 2 + (b->tangents ? 1 : 0)) {
    case 2: skin(b, 1, false); break;
    case 3: skin(b, 1, true); break;
    case 4: skin(b, 2, false); break;
    case 5: skin(b, 2, true); break;
    case 6: skin(b, 3, false); break;
    case 7: skin(b, 3, true); break;
    case 8: skin(b, 4, false); break;
    case 9: skin(b, 4, true); break;
    default: break;
    }
}
