/* skin_plan_avx2.c - AVX2 packed skinning from a skin plan (compiled with
 * -mavx2 -mfma, called only when the CPU has them). A plan block of 16
 * vertices is two halves of 8 lanes, each skinned as pack8_kernels.c skins
 * a block (pack8.h: the same blend, transform and packing, so the bytes are
 * the AVX2 and AVX-512 kernels' bytes), but without transposing the bind
 * stream - the plan holds it transposed - and without turning joints into
 * matrix addresses: the plan holds each lane's byte offsets. The plan's lane
 * order suits 8 lanes too: half h, lane 4 e + p is pair p's member e, the
 * vertices 4 p + 2 h + e, so the two halves' records interleave into whole
 * vertices in order. A table block (at most 8 distinct joints) loads those
 * joints' matrices once, transposes them so that lane d of register (r, c)
 * is element (r, c) of joint d, and fetches every lane's element with one
 * vpermps per influence; a general block blends lane by lane. */
#include <immintrin.h>
#include <string.h>

#include "skin/pack8.h"
#include "skin/skin_plan.h"

#define LANES OSSAI_PLAN_LANES

/* Half h's matrices: m[4 r + c] = element (r, c) of its 8 lanes'. */
OSSAI_SKIN_INLINE void half_matrices(const char *palette, const unsigned char *block, int n, int h,
                                     __m256 m[12])
{
    const uint32_t *offsets = (const uint32_t *)(const void *)(block + ossai_plan_offsets());
    const float *w = (const float *)(const void *)(block + ossai_plan_weights(n));
    __m256 rows[4][3];
    for (int p = 0; p < 4; ++p) {
        __m256 r01[2];
        __m128 r2[2];
        for (int e = 0; e < 2; ++e) {
            const int lane = 8 * h + 4 * e + p;
            const float *at[OSSA_MAX_INFLUENCES];
            for (int k = 0; k < n; ++k)
                at[k] = (const float *)(const void *)(palette + offsets[LANES * k + lane]);
            pack8_blend(at, w + lane, LANES, n, &r01[e], &r2[e]);
        }
        pack8_pair(r01[0], r2[0], r01[1], r2[1], rows[p]);
    }
    for (int r = 0; r < 3; ++r)
        transpose4(rows[0][r], rows[1][r], rows[2][r], rows[3][r], m + 4 * r);
}

/* A table block's 8 joints: tables[4 r + c] lane d = element (r, c) of joint
 * d. Pair p is joints p and p + 4, so the transposes put joint d in lane d. */
OSSAI_SKIN_INLINE void joint_tables(const char *palette, const ossai_plan_header *h,
                                    float tables[12][8])
{
    __m256 rows[4][3], t[4];
    for (int p = 0; p < 4; ++p) {
        const float *a = (const float *)(const void *)(palette + h->table[p]);
        const float *b = (const float *)(const void *)(palette + h->table[p + 4]);
        pack8_pair(_mm256_loadu_ps(a), _mm_load_ps(a + 8), _mm256_loadu_ps(b), _mm_load_ps(b + 8),
                   rows[p]);
    }
    for (int r = 0; r < 3; ++r) {
        transpose4(rows[0][r], rows[1][r], rows[2][r], rows[3][r], t);
        for (int c = 0; c < 4; ++c)
            _mm256_store_ps(tables[4 * r + c], t[c]);
    }
}

/* Half h of a table block from the tables, row by row: each row's four
 * elements blended (the float4 kernels' P[j_n] + w_k (P[j_k] - P[j_n])
 * fused, one lane per vertex) and used at once for that component of the
 * position, normal and tangent, so that few registers stay live (AVX2 has
 * 16). */
OSSAI_SKIN_INLINE void half_from_tables(const float tables[12][8], const unsigned char *block,
                                        int n, const pack8_in *in, const bool tangents, int h,
                                        __m256 records[4], __m256i *tangent)
{
    const unsigned char *local = block + ossai_plan_local() + 8 * h;
    const float *w = (const float *)(const void *)(block + ossai_plan_weights(n)) + 8 * h;
    __m256i joint[OSSA_MAX_INFLUENCES];
    for (int k = 0; k < n; ++k) { /* the plan's (d & 3) + 16 (d >> 2), back to d */
        long long bytes;
        memcpy(&bytes, local + LANES * k, sizeof bytes);
        const __m256i raw = _mm256_cvtepu8_epi32(_mm_cvtsi64_si128(bytes));
        joint[k] = _mm256_or_si256(_mm256_and_si256(raw, _mm256_set1_epi32(3)),
                                   _mm256_and_si256(_mm256_srli_epi32(raw, 2), _mm256_set1_epi32(4)));
    }
    __m256 position[3], normal[3], tangent_xyz[3];
    for (int r = 0; r < 3; ++r) {
        __m256 row[4];
        for (int c = 0; c < 4; ++c) {
            const __m256 table = _mm256_load_ps(tables[4 * r + c]);
            const __m256 last = _mm256_permutevar8x32_ps(table, joint[n - 1]);
            __m256 x = last;
            for (int k = 0; k + 1 < n; ++k)
                x = _mm256_fmadd_ps(_mm256_load_ps(w + LANES * k),
                                    _mm256_sub_ps(_mm256_permutevar8x32_ps(table, joint[k]), last),
                                    x);
            row[c] = x;
        }
        pack8_row(row, in, tangents, &position[r], &normal[r], &tangent_xyz[r]);
    }
    pack8_finish(position, normal, tangent_xyz, in->hand, tangents, records, tangent);
}

/* Half h of a block: records[c] = block vertices 4c + 2h, 4c + 2h + 1;
 * *tangent the tangent words of its lanes. */
OSSAI_SKIN_INLINE void half(const char *palette, const unsigned char *block, int n,
                            const bool tangents, const float tables[12][8], int h,
                            __m256 records[4], __m256i *tangent)
{
    const float *s = (const float *)(const void *)(block + ossai_plan_stream(n)) + 8 * h;
    pack8_in in;
    for (int c = 0; c < 3; ++c) {
        in.p[c] = _mm256_load_ps(s + LANES * c);
        in.n[c] = _mm256_load_ps(s + LANES * (3 + c));
        if (tangents)
            in.t[c] = _mm256_load_ps(s + LANES * (6 + c));
    }
    in.hand = tangents ? _mm256_load_si256((const __m256i *)(const void *)(s + LANES * 9))
                       : _mm256_setzero_si256();
    if (tables) {
        half_from_tables(tables, block, n, &in, tangents, h, records, tangent);
        return;
    }
    __m256 m[12];
    half_matrices(palette, block, n, h, m);
    pack8_transform(m, &in, tangents, records, tangent);
}

/* A block's output registers: 10 with tangents (320 bytes), 8 without. */
OSSAI_SKIN_INLINE int block_output(const char *palette, const unsigned char *block, int n,
                                   const bool tangents, __m256i out[10])
{
    __m256 records[2][4];
    __m256i tangent[2] = {_mm256_setzero_si256(), _mm256_setzero_si256()};
    const ossai_plan_header *h = (const ossai_plan_header *)(const void *)block;
    if (h->kind == OSSAI_PLAN_TABLE_BLOCK) {
        _Alignas(32) float tables[12][8];
        joint_tables(palette, h, tables);
        half(palette, block, n, tangents, tables, 0, records[0], &tangent[0]);
        half(palette, block, n, tangents, tables, 1, records[1], &tangent[1]);
    } else {
        half(palette, block, n, tangents, NULL, 0, records[0], &tangent[0]);
        half(palette, block, n, tangents, NULL, 1, records[1], &tangent[1]);
    }
    if (!tangents) { /* vertex pairs in order: (0 1) (2 3) ... = halves alternating */
        for (int c = 0; c < 4; ++c) {
            out[2 * c] = _mm256_castps_si256(records[0][c]);
            out[2 * c + 1] = _mm256_castps_si256(records[1][c]);
        }
        return 8;
    }
    /* vertices 8g..8g+7: four record registers, and their tangent words in
     * the lane order with_tangents() reads (vertex 8g + u at 4 (u % 2) +
     * u / 2), gathered from the two halves */
    static const int32_t from_first[2][8] = {{0, 0, 1, 0, 4, 0, 5, 0}, {2, 0, 3, 0, 6, 0, 7, 0}};
    static const int32_t from_second[2][8] = {{0, 0, 0, 1, 0, 4, 0, 5}, {0, 2, 0, 3, 0, 6, 0, 7}};
    for (int g = 0; g < 2; ++g) {
        const __m256 group[4] = {records[0][2 * g], records[1][2 * g], records[0][2 * g + 1],
                                 records[1][2 * g + 1]};
        const __m256i words = _mm256_blend_epi32(
            _mm256_permutevar8x32_epi32(
                tangent[0], _mm256_loadu_si256((const __m256i *)(const void *)from_first[g])),
            _mm256_permutevar8x32_epi32(
                tangent[1], _mm256_loadu_si256((const __m256i *)(const void *)from_second[g])),
            0xAA);
        for (int k = 0; k < 5; ++k)
            out[5 * g + k] = with_tangents(group, words, k);
    }
    return 10;
}

OSSAI_SKIN_INLINE void plan_group(const unsigned char *blocks, uint32_t block_count,
                                  size_t block_bytes, const char *palette, unsigned char *output,
                                  size_t begin, size_t end, bool stream, const int n,
                                  const bool tangents)
{
    const size_t bytes = OSSAI_PACKED_BYTES(tangents);
    for (uint32_t i = 0; i < block_count; ++i) {
        const unsigned char *block = blocks + (size_t)i * block_bytes;
        const ossai_plan_header *h = (const ossai_plan_header *)(const void *)block;
        const size_t first = h->first, last = first + h->count;
        if (last <= begin || first >= end)
            continue;
        __m256i out[10];
        const int registers = block_output(palette, block, n, tangents, out);
        unsigned char *dst = output + first * bytes;
        if (h->count == LANES && first >= begin && last <= end) {
            for (int k = 0; k < registers; ++k) {
                if (stream) /* a full block at a line boundary: whole lines */
                    _mm256_stream_si256((__m256i *)(void *)(dst + 32 * k), out[k]);
                else
                    _mm256_storeu_si256((__m256i *)(void *)(dst + 32 * k), out[k]);
            }
        } else { /* part of a block: its records through a local copy */
            _Alignas(32) unsigned char local[320];
            for (int k = 0; k < registers; ++k)
                _mm256_store_si256((__m256i *)(void *)(local + 32 * k), out[k]);
            const size_t a = begin > first ? begin - first : 0;
            const size_t b = (end < last ? end : last) - first;
            memcpy(dst + a * bytes, local + a * bytes, (b - a) * bytes);
        }
    }
}

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

void ossai_skin_plan_run_avx2(const ossa_skin_plan *plan, const ossa_mat34 *palette,
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
