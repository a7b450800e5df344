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
#include "skin/skin_pack.h"
#include "skin/skinning_internal.h"

#if defined(OSSAI_ISA_AVX512) || defined(OSSAI_ISA_AVX2)

#define BLOCK 8

/* Palette matrix j (see palette_stride in skinning_internal.h). */
#define AT(j) ((const float *)(const void *)((const char *)palette + (size_t)(j) * stride))

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

/* A vertex's blended matrix: rows 0-1 and row 2. */
OSSAI_SKIN_INLINE void blend(const ossa_mat34 *palette, size_t stride, const uint16_t *joints,
                             const float *weights, int n, __m256 *r01, __m128 *r2)
{
    const float *last = AT(joints[n - 1]);
    const __m256 l01 = _mm256_loadu_ps(last);
    const __m128 l2 = _mm_load_ps(last + 8);
    __m256 a01 = l01;
    __m128 a2 = l2;
    for (int k = 0; k + 1 < n; ++k) {
        const float *p = AT(joints[k]);
        const __m256 w = _mm256_set1_ps(weights[k]);
        a01 = _mm256_fmadd_ps(w, _mm256_sub_ps(_mm256_loadu_ps(p), l01), a01);
        a2 = _mm_fmadd_ps(_mm256_castps256_ps128(w), _mm_sub_ps(_mm_load_ps(p + 8), l2), a2);
    }
    *r01 = a01;
    *r2 = a2;
}

/* The block's matrices: m[4 r + c] = element (r, c) of every lane's. */
OSSAI_SKIN_INLINE void matrices(const ossa_mat34 *palette, size_t stride, const uint16_t *joints,
                                const float *weights, int n, __m256 m[12])
{
    __m256 rows[4][3]; /* pair p's rows: [vertex 2p | vertex 2p + 1] */
    for (int p = 0; p < 4; ++p) {
        __m256 a01, b01;
        __m128 a2, b2;
        blend(palette, stride, joints + (2 * p) * n, weights + (2 * p) * (n - 1), n, &a01, &a2);
        blend(palette, stride, joints + (2 * p + 1) * n, weights + (2 * p + 1) * (n - 1), n, &b01,
              &b2);
        rows[p][0] = _mm256_permute2f128_ps(a01, b01, 0x20);
        rows[p][1] = _mm256_permute2f128_ps(a01, b01, 0x31);
        rows[p][2] = _mm256_insertf128_ps(_mm256_castps128_ps256(a2), b2, 1);
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
    __m256 q[4];
    transpose4(P[0], P[1], P[2], P[3], q);
    /* o = translation, then + column 0 * x, + column 1 * y, + column 2 * z */
    const __m256 px = _mm256_fmadd_ps(m[2], q[2], _mm256_fmadd_ps(m[1], q[1], _mm256_fmadd_ps(m[0], q[0], m[3])));
    const __m256 py = _mm256_fmadd_ps(m[6], q[2], _mm256_fmadd_ps(m[5], q[1], _mm256_fmadd_ps(m[4], q[0], m[7])));
    const __m256 pz = _mm256_fmadd_ps(m[10], q[2], _mm256_fmadd_ps(m[9], q[1], _mm256_fmadd_ps(m[8], q[0], m[11])));
    transpose4(N[0], N[1], N[2], N[3], q);
    const __m256 nx = _mm256_fmadd_ps(m[2], q[2], _mm256_fmadd_ps(m[1], q[1], _mm256_mul_ps(m[0], q[0])));
    const __m256 ny = _mm256_fmadd_ps(m[6], q[2], _mm256_fmadd_ps(m[5], q[1], _mm256_mul_ps(m[4], q[0])));
    const __m256 nz = _mm256_fmadd_ps(m[10], q[2], _mm256_fmadd_ps(m[9], q[1], _mm256_mul_ps(m[8], q[0])));
    const __m256i flip = _mm256_set1_epi32((int)OSSAI_PACK_FLIP);
    const __m256i normal = _mm256_xor_si256(pack_fields(nx, ny, nz), flip);
    __m256 records[4]; /* records[c] = block vertices 2c, 2c + 1 as (x, y, z, normal) */
    transpose4(px, py, pz, _mm256_castsi256_ps(normal), records);
    __m256i out[5];
    int registers = 4;
    if (tangents) {
        transpose4(T[0], T[1], T[2], T[3], q);
        const __m256 tx = _mm256_fmadd_ps(m[2], q[2], _mm256_fmadd_ps(m[1], q[1], _mm256_mul_ps(m[0], q[0])));
        const __m256 ty = _mm256_fmadd_ps(m[6], q[2], _mm256_fmadd_ps(m[5], q[1], _mm256_mul_ps(m[4], q[0])));
        const __m256 tz = _mm256_fmadd_ps(m[10], q[2], _mm256_fmadd_ps(m[9], q[1], _mm256_mul_ps(m[8], q[0])));
        /* handedness: the sign of w (+-1) picks the bits */
        const __m256i hand = _mm256_castps_si256(
            _mm256_blendv_ps(_mm256_castsi256_ps(_mm256_set1_epi32((int)OSSAI_PACK_HAND_PLUS)),
                             _mm256_castsi256_ps(_mm256_set1_epi32((int)OSSAI_PACK_HAND_MINUS)),
                             q[3]));
        const __m256i tangent = xor3(pack_fields(tx, ty, tz), flip, hand);
        out[0] = with_tangents(records, tangent, 0);
        out[1] = with_tangents(records, tangent, 1);
        out[2] = with_tangents(records, tangent, 2);
        out[3] = with_tangents(records, tangent, 3);
        out[4] = with_tangents(records, tangent, 4);
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
