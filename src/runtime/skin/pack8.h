/* pack8.h - the 8-lane packed skinning pieces the AVX2 and AVX-512 kernels
 * share (pack8_kernels.c without a plan, skin_plan_avx2.c with one): 4 x 4
 * transposes inside 128-bit halves, a vertex's blend (the AVX2 float4
 * kernel's arithmetic), pairs of vertices into the halves, the transform and
 * packing of eight vertices in structure of arrays, and their interleaving
 * into packed vertices. Include after immintrin.h in a file compiled with
 * AVX2 + FMA (or the AVX-512 flags: then the VL forms are used). */
#ifndef OSSA_SKIN_PACK8_H
#define OSSA_SKIN_PACK8_H

#include <immintrin.h>

#include "ossa/mesh.h"
#include "skin/skin_pack.h"
#include "skin/skinning_internal.h"

static inline __m256 unpacklo_pd(__m256 a, __m256 b)
{
    return _mm256_castpd_ps(_mm256_unpacklo_pd(_mm256_castps_pd(a), _mm256_castps_pd(b)));
}

static inline __m256 unpackhi_pd(__m256 a, __m256 b)
{
    return _mm256_castpd_ps(_mm256_unpackhi_pd(_mm256_castps_pd(a), _mm256_castps_pd(b)));
}

/* 4 x 4 transpose inside each 128-bit half: o[c] half h = (a, b, c, d)[h][c]. */
OSSAI_SKIN_INLINE void transpose4(__m256 a, __m256 b, __m256 c, __m256 d, __m256 o[4])
{
    const __m256 t0 = _mm256_unpacklo_ps(a, b), t1 = _mm256_unpackhi_ps(a, b);
    const __m256 t2 = _mm256_unpacklo_ps(c, d), t3 = _mm256_unpackhi_ps(c, d);
    o[0] = unpacklo_pd(t0, t2);
    o[1] = unpackhi_pd(t0, t2);
    o[2] = unpacklo_pd(t1, t3);
    o[3] = unpackhi_pd(t1, t3);
}

/* a | b | c */
static inline __m256i or3(__m256i a, __m256i b, __m256i c)
{
#ifdef OSSAI_ISA_AVX512
    return _mm256_ternarylogic_epi32(a, b, c, 0xFE);
#else
    return _mm256_or_si256(a, _mm256_or_si256(b, c));
#endif
}

/* a ^ b ^ c */
static inline __m256i xor3(__m256i a, __m256i b, __m256i c)
{
#ifdef OSSAI_ISA_AVX512
    return _mm256_ternarylogic_epi32(a, b, c, 0x96);
#else
    return _mm256_xor_si256(a, _mm256_xor_si256(b, c));
#endif
}

/* A vertex's blended matrix, rows 0-1 and row 2, from its influences'
 * matrices m[0..n-1] and stored weights w[k * weight_stride]: the AVX2
 * float4 kernel's arithmetic, P[j_n] + w_k (P[j_k] - P[j_n]) fused. */
OSSAI_SKIN_INLINE void pack8_blend(const float *const m[OSSA_MAX_INFLUENCES], const float *w,
                                   size_t weight_stride, int n, __m256 *r01, __m128 *r2)
{
    const float *last = m[n - 1];
    const __m256 l01 = _mm256_loadu_ps(last);
    const __m128 l2 = _mm_load_ps(last + 8);
    __m256 a01 = l01;
    __m128 a2 = l2;
    for (int k = 0; k + 1 < n; ++k) {
        const __m256 wk = _mm256_set1_ps(w[(size_t)k * weight_stride]);
        a01 = _mm256_fmadd_ps(wk, _mm256_sub_ps(_mm256_loadu_ps(m[k]), l01), a01);
        a2 = _mm_fmadd_ps(_mm256_castps256_ps128(wk), _mm_sub_ps(_mm_load_ps(m[k] + 8), l2), a2);
    }
    *r01 = a01;
    *r2 = a2;
}

/* Two blended vertices a, b as rows[r] = [a's row r | b's row r]. */
OSSAI_SKIN_INLINE void pack8_pair(__m256 a01, __m128 a2, __m256 b01, __m128 b2, __m256 rows[3])
{
    rows[0] = _mm256_permute2f128_ps(a01, b01, 0x20);
    rows[1] = _mm256_permute2f128_ps(a01, b01, 0x31);
    rows[2] = _mm256_insertf128_ps(_mm256_castps128_ps256(a2), b2, 1);
}

/* Eight vertices' attributes, one per lane: position, normal, tangent x y
 * z, and the handedness bits XOR OSSAI_PACK_FLIP (tangents only). */
typedef struct pack8_in {
    __m256 p[3], n[3], t[3];
    __m256i hand;
} pack8_in;

/* u_x | u_y << 10 | u_z << 20 (skin_pack.h; bit 9s not yet flipped). */
OSSAI_SKIN_INLINE __m256i pack_fields(__m256 x, __m256 y, __m256 z)
{
    const __m256 lo = _mm256_set1_ps(-1.0f), hi = _mm256_set1_ps(1.0f);
    const __m256 scale = _mm256_set1_ps(OSSAI_PACK_SCALE), bias = _mm256_set1_ps(OSSAI_PACK_BIAS);
    /* max first: a NaN becomes -1, as ossai_pack_field does */
    x = _mm256_min_ps(_mm256_max_ps(x, lo), hi);
    y = _mm256_min_ps(_mm256_max_ps(y, lo), hi);
    z = _mm256_min_ps(_mm256_max_ps(z, lo), hi);
    const __m256i ux = _mm256_cvtps_epi32(_mm256_fmadd_ps(x, scale, bias));
    const __m256i uy = _mm256_cvtps_epi32(_mm256_fmadd_ps(y, scale, bias));
    const __m256i uz = _mm256_cvtps_epi32(_mm256_fmadd_ps(z, scale, bias));
    return or3(ux, _mm256_slli_epi32(uy, 10), _mm256_slli_epi32(uz, 20));
}

/* Register k of the 5 that hold 8 20-byte vertices: record dwords from
 * records[k's two] and tangent words from `tangent`. */
OSSAI_SKIN_INLINE __m256i with_tangents(const __m256 records[4], __m256i tangent, const int k)
{
#ifdef OSSAI_ISA_AVX512
    /* indices 0-7 the first record register, 8-15 the second; the tangent
     * word of vertex v sits at lane 4 (v % 2) + v / 2 */
    static const int32_t pick[5][8] = {{0, 1, 2, 3, 0, 4, 5, 6}, {7, 0, 8, 9, 10, 11, 0, 12},
                                       {5, 6, 7, 0, 8, 9, 10, 11}, {0, 4, 5, 6, 7, 0, 8, 9},
                                       {2, 3, 0, 4, 5, 6, 7, 0}};
    static const int32_t tpick[5][8] = {{0, 0, 0, 0, 0, 0, 0, 0}, {0, 4, 0, 0, 0, 0, 1, 0},
                                        {0, 0, 0, 5, 0, 0, 0, 0}, {2, 0, 0, 0, 0, 6, 0, 0},
                                        {0, 0, 3, 0, 0, 0, 0, 7}};
    static const __mmask8 tmask[5] = {0x10, 0x42, 0x08, 0x21, 0x84};
    static const int first[5] = {0, 0, 1, 2, 3}, second[5] = {0, 1, 2, 3, 3};
    const __m256i r = _mm256_permutex2var_epi32(
        _mm256_castps_si256(records[first[k]]),
        _mm256_loadu_si256((const __m256i *)(const void *)pick[k]),
        _mm256_castps_si256(records[second[k]]));
    return _mm256_mask_permutexvar_epi32(
        r, tmask[k], _mm256_loadu_si256((const __m256i *)(const void *)tpick[k]), tangent);
#else
    static const int32_t pick_a[5][8] = {{0, 1, 2, 3, 0, 4, 5, 6}, {7, 0, 0, 0, 0, 0, 0, 0},
                                         {5, 6, 7, 0, 0, 0, 0, 0}, {0, 4, 5, 6, 7, 0, 0, 0},
                                         {2, 3, 0, 4, 5, 6, 7, 0}};
    static const int32_t pick_b[5][8] = {{0, 0, 0, 0, 0, 0, 0, 0}, {0, 0, 0, 1, 2, 3, 0, 4},
                                         {0, 0, 0, 0, 0, 1, 2, 3}, {0, 0, 0, 0, 0, 0, 0, 1},
                                         {0, 0, 0, 0, 0, 0, 0, 0}};
    static const int32_t tpick[5][8] = {{0, 0, 0, 0, 0, 0, 0, 0}, {0, 4, 0, 0, 0, 0, 1, 0},
                                        {0, 0, 0, 5, 0, 0, 0, 0}, {2, 0, 0, 0, 0, 6, 0, 0},
                                        {0, 0, 3, 0, 0, 0, 0, 7}};
    static const int first[5] = {0, 0, 1, 2, 3}, second[5] = {0, 1, 2, 3, 3};
#define IDX(t) _mm256_loadu_si256((const __m256i *)(const void *)(t)[k])
    __m256i r = _mm256_permutevar8x32_epi32(_mm256_castps_si256(records[first[k]]), IDX(pick_a));
    const __m256i t = _mm256_permutevar8x32_epi32(tangent, IDX(tpick));
    if (first[k] != second[k]) {
        const __m256i b =
            _mm256_permutevar8x32_epi32(_mm256_castps_si256(records[second[k]]), IDX(pick_b));
        switch (k) { /* the dwords from the second register (an immediate each) */
        case 1: r = _mm256_blend_epi32(r, b, 0xBC); break;
        case 2: r = _mm256_blend_epi32(r, b, 0xF0); break;
        default: r = _mm256_blend_epi32(r, b, 0xC0); break;
        }
    }
#undef IDX
    switch (k) { /* the tangent words */
    case 0: return _mm256_blend_epi32(r, t, 0x10);
    case 1: return _mm256_blend_epi32(r, t, 0x42);
    case 2: return _mm256_blend_epi32(r, t, 0x08);
    case 3: return _mm256_blend_epi32(r, t, 0x21);
    default: return _mm256_blend_epi32(r, t, 0x84);
    }
#endif
}

/* Packs eight transformed vertices - position, normal, tangent x y z -
 * into records[c] = the vertices of lanes c and 4 + c as (x, y, z, normal)
 * 16-byte records, and *tangent the packed tangent words (hand: the
 * handedness bits XOR OSSAI_PACK_FLIP). */
OSSAI_SKIN_INLINE void pack8_finish(const __m256 position[3], const __m256 normal[3],
                                    const __m256 tangent_xyz[3], __m256i hand, const bool tangents,
                                    __m256 records[4], __m256i *tangent)
{
    const __m256i normal_word = _mm256_xor_si256(
        pack_fields(normal[0], normal[1], normal[2]), _mm256_set1_epi32((int)OSSAI_PACK_FLIP));
    transpose4(position[0], position[1], position[2], _mm256_castsi256_ps(normal_word), records);
    if (tangents)
        *tangent = _mm256_xor_si256(pack_fields(tangent_xyz[0], tangent_xyz[1], tangent_xyz[2]),
                                    hand);
}

/* Row r of the transform for eight vertices: component r of the position
 * (m_r . (x y z 1)), the normal and the tangent, with row (m[4r + 0..3]).
 * o = translation, then + column 0 * x, + column 1 * y, + column 2 * z: the
 * float4 kernels' order (x, y, z of each attribute in in[0..2]). */
OSSAI_SKIN_INLINE void pack8_row(const __m256 row[4], const pack8_in *in, const bool tangents,
                                 __m256 *position, __m256 *normal, __m256 *tangent_r)
{
    *position = _mm256_fmadd_ps(row[2], in->p[2],
                                _mm256_fmadd_ps(row[1], in->p[1], _mm256_fmadd_ps(row[0], in->p[0], row[3])));
    *normal = _mm256_fmadd_ps(row[2], in->n[2],
                              _mm256_fmadd_ps(row[1], in->n[1], _mm256_mul_ps(row[0], in->n[0])));
    if (tangents)
        *tangent_r = _mm256_fmadd_ps(row[2], in->t[2],
                                     _mm256_fmadd_ps(row[1], in->t[1], _mm256_mul_ps(row[0], in->t[0])));
}

/* Transforms and packs eight vertices (matrix element (r, c) of every lane
 * in m[4 r + c]); see pack8_finish. */
OSSAI_SKIN_INLINE void pack8_transform(const __m256 m[12], const pack8_in *in, const bool tangents,
                                       __m256 records[4], __m256i *tangent)
{
    __m256 position[3], normal[3], tangent_xyz[3];
    for (int r = 0; r < 3; ++r)
        pack8_row(m + 4 * r, in, tangents, &position[r], &normal[r], &tangent_xyz[r]);
    pack8_finish(position, normal, tangent_xyz, in->hand, tangents, records, tangent);
}

#endif /* OSSA_SKIN_PACK8_H */
