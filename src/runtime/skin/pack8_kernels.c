/* pack8_kernels.c - packed skinning kernels for AVX2 and AVX-512 without a
 * plan (compiled once with -mavx2 -mfma and once with the AVX-512 flags:
 * OSSAI_ISA_NAME gives _avx2 / _avx512). Eight vertices at a time, one per
 * lane of a 256-bit register (structure of arrays):
 *
 * 1. Each vertex's matrices are blended as the AVX2 float4 kernel blends
 *    them (rows 0-1 in a ymm, row 2 in an xmm, P[j_n] + w_k (P[j_k] -
 *    P[j_n]) fused), so positions come out bit for bit the same; pairs of
 *    vertices go into the two 128-bit halves (one cross-lane permute per
 *    row) and 4 x 4 transposes inside the halves give one register per
 *    matrix element. 1-influence blocks whose vertices use at most two
 *    joints (runs: the group is sorted by joint) broadcast the two matrices
 *    instead.
 * 2. The bind stream: each pair's position, normal and tangent from three
 *    loads and a blend or permute, then the same 4 x 4 transposes.
 * 3. The transform (27 vertical FMAs, the float4 kernels' order), packing
 *    (skin_pack.h) and a 4 x 4 transpose back into (x, y, z, normal)
 *    records; with tangents, permutes and blends slot the tangent words in.
 * Lane L holds block vertex 2 (L % 4) + L / 4: then the last transpose
 * yields records in vertex order. A block is 160 bytes (20-byte vertices) or
 * 128 (16-byte), whole 32-byte pieces, so streaming stores go 32 bytes at a
 * time once a few vertices (written ordinarily) reach a 32-byte boundary.
 * Partial blocks go through a local copy. */
#include <immintrin.h>
#include <string.h>

#include "ossa/mesh.h"
#include "skin/pack8.h"
#include "skin/skin_pack.h"
#include "skin/skinning_internal.h"

#if defined(OSSAI_ISA_AVX512) || defined(OSSAI_ISA_AVX2)

#define BLOCK 8

/* Palette matrix j (see palette_stride in skinning_internal.h). */
#define AT(j) ((const float *)(const void *)((const char *)palette + (size_t)(j) * stride))

/* The block's matrices: m[4 r + c] = element (r, c) of every lane's. */
OSSAI_SKIN_INLINE void matrices(const ossa_mat34 *palette, size_t stride, const uint16_t *joints,
                                const float *weights, int n, __m256 m[12])
{
    __m256 rows[4][3]; /* pair p's rows: [vertex 2p | vertex 2p + 1] */
    for (int p = 0; p < 4; ++p) {
        __m256 r01[2];
        __m128 r2[2];
        for (int h = 0; h < 2; ++h) {
            const uint16_t *j = joints + (2 * p + h) * n;
            const float *at[OSSA_MAX_INFLUENCES];
            for (int k = 0; k < n; ++k)
                at[k] = AT(j[k]);
            pack8_blend(at, weights + (2 * p + h) * (n - 1), 1, n, &r01[h], &r2[h]);
        }
        pack8_pair(r01[0], r2[0], r01[1], r2[1], rows[p]);
    }
    for (int r = 0; r < 3; ++r)
        transpose4(rows[0][r], rows[1][r], rows[2][r], rows[3][r], m + 4 * r);
}

/* Lane L's block vertex, as a permute index: 2 (L % 4) + L / 4. */
#define LANE_VERTICES _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7)

/* 1 influence: when the block's vertices use at most two joints (the first's
 * and the last's), their matrices broadcast to the lanes; false otherwise. */
OSSAI_SKIN_INLINE bool run_matrices(const ossa_mat34 *palette, size_t stride,
                                    const uint16_t *joints, __m256 m[12])
{
    const __m256i j = _mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)(const void *)joints));
    const __m256i a = _mm256_set1_epi32(joints[0]), b = _mm256_set1_epi32(joints[BLOCK - 1]);
    const __m256i either = _mm256_or_si256(_mm256_cmpeq_epi32(j, a), _mm256_cmpeq_epi32(j, b));
    if (_mm256_movemask_ps(_mm256_castsi256_ps(either)) != 0xFF)
        return false;
    const __m256 is_b = _mm256_castsi256_ps(
        _mm256_cmpeq_epi32(_mm256_permutevar8x32_epi32(j, LANE_VERTICES), b));
    const float *pa = AT(joints[0]), *pb = AT(joints[BLOCK - 1]);
    for (int e = 0; e < 12; ++e)
        m[e] = _mm256_blendv_ps(_mm256_set1_ps(pa[e]), _mm256_set1_ps(pb[e]), is_b);
    return true;
}

/* One full block: src 8 bind vertices, dst 8 packed ones. */
OSSAI_SKIN_INLINE void block(const ossa_mat34 *palette, size_t stride, const float *src,
                             unsigned char *dst, const uint16_t *joints, const float *weights,
                             const int n, const bool tangents, bool stream)
{
    __m256 m[12];
    if (n != 1 || !run_matrices(palette, stride, joints, m))
        matrices(palette, stride, joints, weights, n, m);
    const size_t floats = tangents ? 12 : 8;
    __m256 P[4], N[4], T[4];
    for (int p = 0; p < 4; ++p) {
        const float *v = src + 2 * floats * (size_t)p;
        if (tangents) { /* [v.p v.n] [v.t w.p] [w.n w.t] */
            const __m256 a = _mm256_loadu_ps(v), b = _mm256_loadu_ps(v + 8),
                         c = _mm256_loadu_ps(v + 16);
            P[p] = _mm256_blend_ps(a, b, 0xF0);
            N[p] = _mm256_permute2f128_ps(a, c, 0x21);
            T[p] = _mm256_blend_ps(b, c, 0xF0);
        } else { /* [v.p v.n] [w.p w.n] */
            const __m256 a = _mm256_loadu_ps(v), b = _mm256_loadu_ps(v + 8);
            P[p] = _mm256_permute2f128_ps(a, b, 0x20);
            N[p] = _mm256_permute2f128_ps(a, b, 0x31);
        }
    }
    pack8_in in;
    __m256 q[4];
    transpose4(P[0], P[1], P[2], P[3], q);
    in.p[0] = q[0], in.p[1] = q[1], in.p[2] = q[2];
    transpose4(N[0], N[1], N[2], N[3], q);
    in.n[0] = q[0], in.n[1] = q[1], in.n[2] = q[2];
    if (tangents) {
        transpose4(T[0], T[1], T[2], T[3], q);
        in.t[0] = q[0], in.t[1] = q[1], in.t[2] = q[2];
        /* handedness: the sign of w (+-1) picks the bits */
        in.hand = _mm256_castps_si256(_mm256_blendv_ps(
            _mm256_castsi256_ps(_mm256_set1_epi32((int)(OSSAI_PACK_HAND_PLUS ^ OSSAI_PACK_FLIP))),
            _mm256_castsi256_ps(_mm256_set1_epi32((int)(OSSAI_PACK_HAND_MINUS ^ OSSAI_PACK_FLIP))),
            q[3]));
    }
    __m256 records[4]; /* records[c] = block vertices 2c, 2c + 1 as (x, y, z, normal) */
    __m256i tangent = _mm256_setzero_si256(), out[5];
    pack8_transform(m, &in, tangents, records, &tangent);
    int registers = 4;
    if (tangents) {
        for (int k = 0; k < 5; ++k)
            out[k] = with_tangents(records, tangent, k);
        registers = 5;
    } else {
        for (int c = 0; c < 4; ++c)
            out[c] = _mm256_castps_si256(records[c]);
    }
    for (int k = 0; k < registers; ++k) {
        if (stream)
            _mm256_stream_si256((__m256i *)(void *)(dst + 32 * k), out[k]);
        else
            _mm256_storeu_si256((__m256i *)(void *)(dst + 32 * k), out[k]);
    }
}

/* count < 8 vertices through a local copy padded with the last vertex. */
OSSAI_SKIN_INLINE void partial(const ossa_mat34 *palette, size_t stride, const float *src,
                               unsigned char *dst, const uint16_t *joints, const float *weights,
                               size_t count, const int n, const bool tangents)
{
    const size_t floats = tangents ? 12 : 8, bytes = OSSAI_PACKED_BYTES(tangents);
    _Alignas(32) float in[BLOCK * 12];
    _Alignas(32) unsigned char out[BLOCK * 20];
    uint16_t j[BLOCK * OSSA_MAX_INFLUENCES];
    float w[BLOCK * (OSSA_MAX_INFLUENCES - 1) + 1];
    for (size_t v = 0; v < BLOCK; ++v) {
        const size_t from = v < count ? v : count - 1;
        memcpy(in + v * floats, src + from * floats, floats * sizeof(float));
        memcpy(j + v * (size_t)n, joints + from * (size_t)n, (size_t)n * sizeof(uint16_t));
        memcpy(w + v * (size_t)(n - 1), weights + from * (size_t)(n - 1),
               (size_t)(n - 1) * sizeof(float));
    }
    block(palette, stride, in, out, j, w, n, tangents, false);
    memcpy(dst, out, count * bytes);
}

OSSAI_SKIN_INLINE void skin_packed(const ossai_skin_batch *b, const int n, const bool tangents)
{
    const bool stream = b->stream;
    const size_t floats = tangents ? 12 : 8, bytes = OSSAI_PACKED_BYTES(tangents);
    const float *src = b->src;
    unsigned char *dst = b->dst;
    const uint16_t *joints = b->joints;
    const float *weights = b->weights;
    const ossa_mat34 *palette = b->palette;
    const size_t stride = b->palette_stride;
    size_t left = b->count;
    /* Streaming stores are 32 bytes: first reach a 32-byte boundary (20-byte
     * vertices always can, within 7; 16-byte ones only from a 16-byte one). */
    bool lines = stream;
    if (stream) {
        size_t lead = 0;
        while (lead < left && lead < BLOCK && ((uintptr_t)dst + lead * bytes) % 32 != 0)
            ++lead;
        if (((uintptr_t)dst + lead * bytes) % 32 != 0) {
            lines = false;
        } else if (lead > 0) {
            partial(palette, stride, src, dst, joints, weights, lead, n, tangents);
            src += lead * floats;
            dst += lead * bytes;
            joints += lead * (size_t)n;
            weights += lead * (size_t)(n - 1);
            left -= lead;
        }
    }
    for (; left >= BLOCK; left -= BLOCK) {
        block(palette, stride, src, dst, joints, weights, n, tangents, lines);
        src += BLOCK * floats;
        dst += BLOCK * bytes;
        joints += BLOCK * (size_t)n;
        weights += BLOCK * (size_t)(n - 1);
    }
    if (left > 0)
        partial(palette, stride, src, dst, joints, weights, left, n, tangents);
    if (lines)
        _mm_sfence();
}

OSSAI_SKIN_DISPATCH(OSSAI_ISA_NAME(ossai_skin_packed_kernel), skin_packed)

#endif /* OSSAI_ISA_AVX512 || OSSAI_ISA_AVX2 */
