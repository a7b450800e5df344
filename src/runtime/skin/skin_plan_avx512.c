/* skin_plan_avx512.c - AVX-512 packed skinning from a skin plan (compiled
 * with -mavx512f -mavx512vl -mavx512bw -mavx512dq, called only when the CPU
 * has them). Sixteen vertices at a time, one per lane (structure of arrays):
 *
 * 1. The blended matrices' twelve elements, one register each. A table block
 *    (at most 8 distinct joints) loads those joints' matrices, transposes
 *    them 4 x 4 inside 128-bit lanes into per-column tables, and fetches
 *    every lane's element with one two-table permute per influence; a
 *    general block blends each lane's matrices as the float4 kernel does and
 *    transposes the 16 results (4 x 4 across lanes, then inside them).
 *    Either way element (r, c) of lane L is computed exactly as the float4
 *    kernels compute it: P[j_n] - w_k (P[j_n] - P[j_k]) with the same fused
 *    operations, so positions come out bit for bit the same.
 * 2. The transform, 27 vertical FMAs in the float4 kernels' order.
 * 3. Packing (skin_pack.h): clamp, 511 c + 512 rounded to an integer, three
 *    fields shifted into one word.
 * 4. Whole vertices in order: a 4 x 4 transpose inside 128-bit lanes turns
 *    (x, y, z, normal) into 16-byte records (the lane order of the plan is
 *    chosen for this), then two permutes per output register insert the
 *    tangent words between them. 16 vertices are 320 bytes, five lines.
 * Blocks start on cache lines when the output does (skin_plan.c), so with
 * stream_output every full block is written with whole-line non-temporal
 * stores; parts of blocks (range ends, short blocks) use masked stores. */
#include <immintrin.h>

#include "skin/skin_pack.h"
#include "skin/skin_plan.h"
#include "skin/skinning_internal.h"

#define ROWS 0x0FFF /* the 12 floats of a 3x4 matrix */
#define LANES OSSAI_PLAN_LANES

static inline __m512 unpacklo_pd(__m512 a, __m512 b)
{
    return _mm512_castpd_ps(_mm512_unpacklo_pd(_mm512_castps_pd(a), _mm512_castps_pd(b)));
}

static inline __m512 unpackhi_pd(__m512 a, __m512 b)
{
    return _mm512_castpd_ps(_mm512_unpackhi_pd(_mm512_castps_pd(a), _mm512_castps_pd(b)));
}

/* 4 x 4 transpose inside each 128-bit lane: o[c] lane l = (a, b, c, d)[l][c]. */
OSSAI_SKIN_INLINE void transpose4(__m512 a, __m512 b, __m512 c, __m512 d, __m512 o[4])
{
    const __m512 t0 = _mm512_unpacklo_ps(a, b), t1 = _mm512_unpackhi_ps(a, b);
    const __m512 t2 = _mm512_unpacklo_ps(c, d), t3 = _mm512_unpackhi_ps(c, d);
    o[0] = unpacklo_pd(t0, t2);
    o[1] = unpackhi_pd(t0, t2);
    o[2] = unpacklo_pd(t1, t3);
    o[3] = unpackhi_pd(t1, t3);
}

/* Rows of four [r0 | r1 | r2 | 0] matrices: r[i] = [a.ri | b.ri | c.ri | d.ri]. */
OSSAI_SKIN_INLINE void quad_rows(__m512 a, __m512 b, __m512 c, __m512 d, __m512 r[3])
{
    const __m512 s0 = _mm512_shuffle_f32x4(a, b, 0x44), s1 = _mm512_shuffle_f32x4(c, d, 0x44);
    r[0] = _mm512_shuffle_f32x4(s0, s1, 0x88);
    r[1] = _mm512_shuffle_f32x4(s0, s1, 0xDD);
    const __m512 s2 = _mm512_shuffle_f32x4(a, b, 0xAA), s3 = _mm512_shuffle_f32x4(c, d, 0xAA);
    r[2] = _mm512_shuffle_f32x4(s2, s3, 0x88);
}

OSSAI_SKIN_INLINE __m512 load_matrix(const char *palette, uint32_t offset)
{
    return _mm512_maskz_loadu_ps(ROWS, palette + offset);
}

/* Table block: m[4 r + c] = element (r, c) of every lane's blended matrix. */
OSSAI_SKIN_INLINE void table_matrices(const char *palette, const unsigned char *block, int n,
                                      __m512 m[12])
{
    const ossai_plan_header *h = (const ossai_plan_header *)(const void *)block;
    /* lo[c] lane r element d = element (r, c) of table joint d (d < 4); hi
     * the same for joints 4..7: the two tables of one permute. */
    __m512 lo[4], hi[4];
    transpose4(load_matrix(palette, h->table[0]), load_matrix(palette, h->table[1]),
               load_matrix(palette, h->table[2]), load_matrix(palette, h->table[3]), lo);
    transpose4(load_matrix(palette, h->table[4]), load_matrix(palette, h->table[5]),
               load_matrix(palette, h->table[6]), load_matrix(palette, h->table[7]), hi);
    const unsigned char *local = block + ossai_plan_local();
    const float *w = (const float *)(const void *)(block + ossai_plan_weights(n));
    __m512i index[OSSA_MAX_INFLUENCES];
    for (int k = 0; k < n; ++k)
        index[k] = _mm512_cvtepu8_epi32(_mm_load_si128((const __m128i *)(const void *)(local +
                                                                                     16 * k)));
    for (int r = 0; r < 3; ++r) {
        for (int c = 0; c < 4; ++c) {
            const __m512 last = _mm512_permutex2var_ps(lo[c], index[n - 1], hi[c]);
            __m512 x = last;
            for (int k = 0; k + 1 < n; ++k) {
                const __m512 p = _mm512_permutex2var_ps(lo[c], index[k], hi[c]);
                x = _mm512_fnmadd_ps(_mm512_load_ps(w + LANES * k), _mm512_sub_ps(last, p), x);
            }
            m[4 * r + c] = x;
        }
        if (r < 2) /* the next row: 4 further along each 128-bit lane */
            for (int k = 0; k < n; ++k)
                index[k] = _mm512_add_epi32(index[k], _mm512_set1_epi32(4));
    }
}

/* General block: lane L's blended matrix as [r0 | r1 | r2 | 0]. */
OSSAI_SKIN_INLINE __m512 lane_matrix(const char *palette, const uint32_t *offsets,
                                     const float *w, int lane, int n)
{
    const __m512 last = load_matrix(palette, offsets[LANES * (n - 1) + lane]);
    __m512 m = last;
    for (int k = 0; k + 1 < n; ++k) {
        const __m512 p = load_matrix(palette, offsets[LANES * k + lane]);
        m = _mm512_fnmadd_ps(_mm512_set1_ps(w[LANES * k + lane]),
                             _mm512_maskz_sub_ps(ROWS, last, p), m);
    }
    return m;
}

OSSAI_SKIN_INLINE void general_matrices(const char *palette, const unsigned char *block, int n,
                                        __m512 m[12])
{
    const uint32_t *offsets = (const uint32_t *)(const void *)(block + ossai_plan_offsets());
    const float *w = (const float *)(const void *)(block + ossai_plan_weights(n));
    /* Quad q = lanes q, 4 + q, 8 + q, 12 + q: after the two transposes lane
     * 4 e + q holds quad q's member e, which is lane 4 e + q's own matrix. */
    __m512 r[4][3];
    for (int q = 0; q < 4; ++q)
        quad_rows(lane_matrix(palette, offsets, w, q, n), lane_matrix(palette, offsets, w, 4 + q, n),
                  lane_matrix(palette, offsets, w, 8 + q, n),
                  lane_matrix(palette, offsets, w, 12 + q, n), r[q]);
    for (int i = 0; i < 3; ++i)
        transpose4(r[0][i], r[1][i], r[2][i], r[3][i], m + 4 * i);
}

/* u_x | u_y << 10 | u_z << 20 (skin_pack.h; the caller flips bit 9s). */
OSSAI_SKIN_INLINE __m512i pack_fields(__m512 x, __m512 y, __m512 z)
{
    const __m512 lo = _mm512_set1_ps(-1.0f), hi = _mm512_set1_ps(1.0f);
    const __m512 scale = _mm512_set1_ps(OSSAI_PACK_SCALE), bias = _mm512_set1_ps(OSSAI_PACK_BIAS);
    /* max first: a NaN becomes -1, as ossai_pack_field does */
    x = _mm512_min_ps(_mm512_max_ps(x, lo), hi);
    y = _mm512_min_ps(_mm512_max_ps(y, lo), hi);
    z = _mm512_min_ps(_mm512_max_ps(z, lo), hi);
    const __m512i ux = _mm512_cvtps_epi32(_mm512_fmadd_ps(x, scale, bias));
    const __m512i uy = _mm512_cvtps_epi32(_mm512_fmadd_ps(y, scale, bias));
    const __m512i uz = _mm512_cvtps_epi32(_mm512_fmadd_ps(z, scale, bias));
    return _mm512_ternarylogic_epi32(ux, _mm512_slli_epi32(uy, 10), _mm512_slli_epi32(uz, 20),
                                     0xFE); /* a | b | c */
}

/* Where each dword of five output registers comes from (tangents): record
 * dwords (x y z normal) from two of the four 16-byte-record registers (0-15
 * the first, 16-31 the second), tangent words from the tangent register at
 * the lane of their vertex. Vertex v = dword / 5 of the block. */
static const int32_t record_pick[5][16] = {
    {0, 1, 2, 3, 0, 4, 5, 6, 7, 0, 8, 9, 10, 11, 0, 12},
    {13, 14, 15, 0, 16, 17, 18, 19, 0, 20, 21, 22, 23, 0, 24, 25},
    {10, 11, 0, 12, 13, 14, 15, 0, 16, 17, 18, 19, 0, 20, 21, 22},
    {7, 0, 8, 9, 10, 11, 0, 12, 13, 14, 15, 0, 16, 17, 18, 19},
    {0, 4, 5, 6, 7, 0, 8, 9, 10, 11, 0, 12, 13, 14, 15, 0}};
static const int32_t tangent_pick[5][16] = {
    {0, 0, 0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 0, 0, 8, 0},
    {0, 0, 0, 12, 0, 0, 0, 0, 1, 0, 0, 0, 0, 5, 0, 0},
    {0, 0, 9, 0, 0, 0, 0, 13, 0, 0, 0, 0, 2, 0, 0, 0},
    {0, 6, 0, 0, 0, 0, 10, 0, 0, 0, 0, 14, 0, 0, 0, 0},
    {3, 0, 0, 0, 0, 7, 0, 0, 0, 0, 11, 0, 0, 0, 0, 15}};
static const __mmask16 tangent_dwords[5] = {0x4210, 0x2108, 0x1084, 0x0842, 0x8421};

#define PICK(table, k) _mm512_loadu_si512((const void *)(table)[k])

/* One block's output registers (5 with tangents, 4 without): the transform,
 * packing and interleaving of steps 2-4 above. */
OSSAI_SKIN_INLINE void block_output(const __m512 m[12], const unsigned char *block, int n,
                                    const bool tangents, __m512i out[5])
{
    const float *s = (const float *)(const void *)(block + ossai_plan_stream(n));
#define IN(i) _mm512_load_ps(s + LANES * (i))
    /* o = translation, then + column 0 * x, + column 1 * y, + column 2 * z */
    const __m512 px = _mm512_fmadd_ps(m[2], IN(2), _mm512_fmadd_ps(m[1], IN(1), _mm512_fmadd_ps(m[0], IN(0), m[3])));
    const __m512 py = _mm512_fmadd_ps(m[6], IN(2), _mm512_fmadd_ps(m[5], IN(1), _mm512_fmadd_ps(m[4], IN(0), m[7])));
    const __m512 pz = _mm512_fmadd_ps(m[10], IN(2), _mm512_fmadd_ps(m[9], IN(1), _mm512_fmadd_ps(m[8], IN(0), m[11])));
    const __m512 nx = _mm512_fmadd_ps(m[2], IN(5), _mm512_fmadd_ps(m[1], IN(4), _mm512_mul_ps(m[0], IN(3))));
    const __m512 ny = _mm512_fmadd_ps(m[6], IN(5), _mm512_fmadd_ps(m[5], IN(4), _mm512_mul_ps(m[4], IN(3))));
    const __m512 nz = _mm512_fmadd_ps(m[10], IN(5), _mm512_fmadd_ps(m[9], IN(4), _mm512_mul_ps(m[8], IN(3))));
    const __m512i flip = _mm512_set1_epi32((int)OSSAI_PACK_FLIP);
    const __m512i normal = _mm512_xor_si512(pack_fields(nx, ny, nz), flip);
    __m512 records[4]; /* records[q] = block vertices 4q..4q+3 as (x, y, z, normal) */
    transpose4(px, py, pz, _mm512_castsi512_ps(normal), records);
    if (!tangents) {
        for (int q = 0; q < 4; ++q)
            out[q] = _mm512_castps_si512(records[q]);
        return;
    }
    const __m512 tx = _mm512_fmadd_ps(m[2], IN(8), _mm512_fmadd_ps(m[1], IN(7), _mm512_mul_ps(m[0], IN(6))));
    const __m512 ty = _mm512_fmadd_ps(m[6], IN(8), _mm512_fmadd_ps(m[5], IN(7), _mm512_mul_ps(m[4], IN(6))));
    const __m512 tz = _mm512_fmadd_ps(m[10], IN(8), _mm512_fmadd_ps(m[9], IN(7), _mm512_mul_ps(m[8], IN(6))));
#undef IN
    /* the hand row holds the handedness bits XOR the flip already */
    const __m512i tangent = _mm512_xor_si512(pack_fields(tx, ty, tz),
                                             _mm512_load_si512(s + LANES * 9));
    const __m512i r0 = _mm512_castps_si512(records[0]), r1 = _mm512_castps_si512(records[1]);
    const __m512i r2 = _mm512_castps_si512(records[2]), r3 = _mm512_castps_si512(records[3]);
    out[0] = _mm512_permutexvar_epi32(PICK(record_pick, 0), r0);
    out[1] = _mm512_permutex2var_epi32(r0, PICK(record_pick, 1), r1);
    out[2] = _mm512_permutex2var_epi32(r1, PICK(record_pick, 2), r2);
    out[3] = _mm512_permutex2var_epi32(r2, PICK(record_pick, 3), r3);
    out[4] = _mm512_permutexvar_epi32(PICK(record_pick, 4), r3);
    for (int k = 0; k < 5; ++k)
        out[k] = _mm512_mask_permutexvar_epi32(out[k], tangent_dwords[k], PICK(tangent_pick, k),
                                               tangent);
}

/* Writes records [a, b) of a block whose record 0 goes to dst. */
OSSAI_SKIN_INLINE void write_part(unsigned char *dst, const __m512i out[5], int registers,
                                  int record_dwords, uint32_t a, uint32_t b)
{
    const uint32_t from = a * (uint32_t)record_dwords, to = b * (uint32_t)record_dwords;
    for (int k = 0; k < registers; ++k) {
        const uint32_t lo = 16u * (uint32_t)k, hi = lo + 16u;
        if (to <= lo || from >= hi)
            continue;
        const uint32_t s = from > lo ? from - lo : 0, e = to < hi ? to - lo : 16;
        const __mmask16 mask = (__mmask16)(((1u << e) - 1u) & ~((1u << s) - 1u));
        _mm512_mask_storeu_epi32(dst + 64 * k, mask, out[k]);
    }
}

OSSAI_SKIN_INLINE void plan_group(const unsigned char *blocks, uint32_t block_count,
                                  size_t block_bytes, const char *palette, unsigned char *output,
                                  size_t begin, size_t end, bool stream, const int n,
                                  const bool tangents)
{
    const int registers = tangents ? 5 : 4, record_dwords = tangents ? 5 : 4;
    const size_t bytes = OSSAI_PACKED_BYTES(tangents);
    for (uint32_t i = 0; i < block_count; ++i) {
        const unsigned char *block = blocks + (size_t)i * block_bytes;
        const ossai_plan_header *h = (const ossai_plan_header *)(const void *)block;
        const size_t first = h->first, last = first + h->count;
        if (last <= begin || first >= end)
            continue;
        __m512 m[12];
        if (h->kind == OSSAI_PLAN_TABLE_BLOCK)
            table_matrices(palette, block, n, m);
        else
            general_matrices(palette, block, n, m);
        __m512i out[5];
        block_output(m, block, n, tangents, out);
        unsigned char *dst = output + first * bytes;
        if (h->count == LANES && first >= begin && last <= end) {
            if (stream) /* a full block at a line boundary: whole lines */
                for (int k = 0; k < registers; ++k)
                    _mm512_stream_si512((void *)(dst + 64 * k), out[k]);
            else
                for (int k = 0; k < registers; ++k)
                    _mm512_storeu_si512(dst + 64 * k, out[k]);
        } else {
            const uint32_t a = begin > first ? (uint32_t)(begin - first) : 0;
            const uint32_t b = (uint32_t)((end < last ? end : last) - first);
            write_part(dst, out, registers, record_dwords, a, b);
        }
    }
}

/* One function per influence count and layout, kept apart (noinline) so the
 * disassembly shows each loop on its own (scripts/kernel_loops.sh). */
typedef void (*plan_fn)(const unsigned char *, uint32_t, size_t, const char *, unsigned char *,
                        size_t, size_t, bool);
#define PLAN_KERNEL(name, n, tangents)                                                         \
    __attribute__((noinline)) static void name(const unsigned char *blocks, uint32_t count,    \
                                               size_t block_bytes, const char *palette,        \
                                               unsigned char *output, size_t begin,            \
                                               size_t end, bool stream)                        \
    {                                                                                          \
        plan_group(blocks, count, block_bytes, palette, output, begin, end, stream, n,        \
                   tangents);                                                                  \
    }
PLAN_KERNEL(plan1_pn, 1, false)
PLAN_KERNEL(plan1_pnt, 1, true)
PLAN_KERNEL(plan2_pn, 2, false)
PLAN_KERNEL(plan2_pnt, 2, true)
PLAN_KERNEL(plan3_pn, 3, false)
PLAN_KERNEL(plan3_pnt, 3, true)
PLAN_KERNEL(plan4_pn, 4, false)
PLAN_KERNEL(plan4_pnt, 4, true)

void ossai_skin_plan_run_avx512(const ossa_skin_plan *plan, const ossa_mat34 *palette,
                                void *output, size_t begin, size_t end, bool stream)
{
    static const plan_fn kernels[OSSA_MAX_INFLUENCES][2] = {
        {plan1_pn, plan1_pnt}, {plan2_pn, plan2_pnt}, {plan3_pn, plan3_pnt}, {plan4_pn, plan4_pnt}};
    /* Blocks fall on lines only when the output starts on one. */
    const bool lines = stream && (uintptr_t)output % 64 == 0;
    for (int g = 0; g < OSSA_MAX_INFLUENCES; ++g)
        kernels[g][plan->tangents ? 1 : 0]((const unsigned char *)plan + plan->block_offset[g],
                                           plan->block_count[g], plan->block_bytes[g],
                                           (const char *)palette, output, begin, end, lines);
    if (lines)
        _mm_sfence(); /* the streamed lines are visible before the job returns */
}
