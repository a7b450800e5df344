/* skin_sse.c - SSE4.1 skinning kernels (compiled with -msse4.1, called
 * only when the CPU has SSE4.2). One vertex at a time: the blended matrix's
 * three rows in three registers, transposed to columns, then each attribute
 * is column0 * x + column1 * y + column2 * z (+ column3 for positions).
 * Packed output computes the same float4 attributes, then packs each
 * direction in its register (skin_pack.h) and writes ordinarily. */
#include <smmintrin.h>

#include "skin/skin_pack.h"
#include "skin/skinning_internal.h"

/* Rows r[0..2] = P[j_n-1] + sum_{k < n-1} w_k (P[j_k] - P[j_n-1]). */
OSSAI_SKIN_INLINE void blend(__m128 r[3], const ossa_mat34 *palette, const uint16_t *joints,
                             const float *weights, int n)
{
    const float *last = palette[joints[n - 1]].m[0];
    const __m128 l0 = _mm_load_ps(last), l1 = _mm_load_ps(last + 4), l2 = _mm_load_ps(last + 8);
    __m128 a0 = l0, a1 = l1, a2 = l2;
    for (int k = 0; k + 1 < n; ++k) {
        const float *p = palette[joints[k]].m[0];
        const __m128 w = _mm_set1_ps(weights[k]);
        a0 = _mm_add_ps(a0, _mm_mul_ps(w, _mm_sub_ps(_mm_load_ps(p), l0)));
        a1 = _mm_add_ps(a1, _mm_mul_ps(w, _mm_sub_ps(_mm_load_ps(p + 4), l1)));
        a2 = _mm_add_ps(a2, _mm_mul_ps(w, _mm_sub_ps(_mm_load_ps(p + 8), l2)));
    }
    r[0] = a0;
    r[1] = a1;
    r[2] = a2;
}

/* Columns of [r0; r1; r2; (0 0 0 1)]: c[0..2] have w = 0, c[3] has w = 1. */
OSSAI_SKIN_INLINE void columns(__m128 c[4], const __m128 r[3])
{
    const __m128 e3 = _mm_set_ps(1.0f, 0.0f, 0.0f, 0.0f);
    const __m128 t0 = _mm_unpacklo_ps(r[0], r[1]), t1 = _mm_unpacklo_ps(r[2], e3);
    const __m128 t2 = _mm_unpackhi_ps(r[0], r[1]), t3 = _mm_unpackhi_ps(r[2], e3);
    c[0] = _mm_movelh_ps(t0, t1);
    c[1] = _mm_movehl_ps(t1, t0);
    c[2] = _mm_movelh_ps(t2, t3);
    c[3] = _mm_movehl_ps(t3, t2);
}

/* c0 * v.x + c1 * v.y + c2 * v.z: w is 0. */
OSSAI_SKIN_INLINE __m128 linear(const __m128 c[4], __m128 v)
{
    __m128 x = _mm_mul_ps(c[0], _mm_shuffle_ps(v, v, _MM_SHUFFLE(0, 0, 0, 0)));
    x = _mm_add_ps(x, _mm_mul_ps(c[1], _mm_shuffle_ps(v, v, _MM_SHUFFLE(1, 1, 1, 1))));
    return _mm_add_ps(x, _mm_mul_ps(c[2], _mm_shuffle_ps(v, v, _MM_SHUFFLE(2, 2, 2, 2))));
}

/* An aligned store, non-temporal with `stream`: every attribute is 16-aligned. */
OSSAI_SKIN_INLINE void store(float *dst, __m128 v, const bool stream)
{
    if (stream)
        _mm_stream_ps(dst, v);
    else
        _mm_store_ps(dst, v);
}

OSSAI_SKIN_INLINE void skin(const ossai_skin_batch *b, const int n, const bool tangents,
                            const bool stream)
{
    const size_t floats = tangents ? 12 : 8;
    const float *src = b->src;
    float *dst = b->dst;
    const uint16_t *joints = b->joints;
    const float *weights = b->weights;
    const ossa_mat34 *palette = b->palette;
    /* Locals, not b->: stores through dst could alias *b for the compiler. */
    for (const float *end = src + b->count * floats; src != end;) {
        __m128 r[3], c[4];
        blend(r, palette, joints, weights, n);
        columns(c, r);
        /* position: w = 1 picks up the translation column (whose w is 1) */
        store(dst, _mm_add_ps(linear(c, _mm_load_ps(src)), c[3]), stream);
        store(dst + 4, linear(c, _mm_load_ps(src + 4)), stream);
        if (tangents) {
            const __m128 t = _mm_load_ps(src + 8);
            store(dst + 8, _mm_blend_ps(linear(c, t), t, 8), stream); /* keep the handedness */
        }
        src += floats;
        dst += floats;
        joints += n;
        weights += n - 1;
    }
    if (stream)
        _mm_sfence();
}

OSSAI_SKIN_DISPATCH_STREAM(ossai_skin_kernel_sse, skin)

/* The word of a direction d (w ignored), without handedness: the fields
 * u_x, u_y << 10, u_z << 20 summed across the register (they do not
 * overlap), bit 9s flipped. */
OSSAI_SKIN_INLINE uint32_t pack_direction(__m128 d)
{
    d = _mm_min_ps(_mm_max_ps(d, _mm_set1_ps(-1.0f)), _mm_set1_ps(1.0f)); /* NaN -> -1 */
    const __m128 v = _mm_add_ps(_mm_mul_ps(d, _mm_set1_ps(OSSAI_PACK_SCALE)),
                                _mm_set1_ps(OSSAI_PACK_BIAS));
    __m128i u = _mm_mullo_epi32(_mm_cvtps_epi32(v), _mm_setr_epi32(1, 1 << 10, 1 << 20, 0));
    u = _mm_add_epi32(u, _mm_shuffle_epi32(u, _MM_SHUFFLE(1, 0, 3, 2)));
    u = _mm_add_epi32(u, _mm_shuffle_epi32(u, _MM_SHUFFLE(2, 3, 0, 1)));
    return (uint32_t)_mm_cvtsi128_si32(u) ^ OSSAI_PACK_FLIP;
}

OSSAI_SKIN_INLINE void skin_packed(const ossai_skin_batch *b, const int n, const bool tangents)
{
    const size_t floats = tangents ? 12 : 8, bytes = OSSAI_PACKED_BYTES(tangents);
    const float *src = b->src;
    unsigned char *dst = b->dst;
    const uint16_t *joints = b->joints;
    const float *weights = b->weights;
    const ossa_mat34 *palette = b->palette;
    for (const float *end = src + b->count * floats; src != end;) {
        __m128 r[3], c[4];
        blend(r, palette, joints, weights, n);
        columns(c, r);
        /* the position as the float4 kernel computes it; its 16-byte store
         * leaves w in the normal's place, which the next store overwrites */
        _mm_storeu_ps((float *)(void *)dst, _mm_add_ps(linear(c, _mm_load_ps(src)), c[3]));
        uint32_t words[2];
        words[0] = pack_direction(linear(c, _mm_load_ps(src + 4)));
        if (tangents)
            words[1] = pack_direction(linear(c, _mm_load_ps(src + 8))) ^ ossai_pack_hand(src[11]);
        memcpy(dst + 12, words, tangents ? 8 : 4);
        src += floats;
        dst += bytes;
        joints += n;
        weights += n - 1;
    }
}

OSSAI_SKIN_DISPATCH(ossai_skin_packed_kernel_sse, skin_packed)
