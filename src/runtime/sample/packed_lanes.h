/* packed_lanes.h - the per-instruction-set pieces of the compressed-clip lane
 * kernels (packed_kernels.c, packed_group_kernels.c): lane masks from bit
 * masks, spreading packed values onto the lanes whose bit is set, and
 * decoding a lane's next values of one frame into a vector (their bits
 * fetched by permutes from one load on AVX2 and AVX-512, one value at a
 * time on the others), with packed_math.h's arithmetic so that every path
 * gives the reference decoder's bits. */
#ifndef OSSA_PACKED_LANES_H
#define OSSA_PACKED_LANES_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "core/vec.h"
#include "sample/packed_clip.h"
#include "sample/packed_math.h"

#if defined(OSSAI_ISA_AVX512) || defined(OSSAI_ISA_AVX2)
#include <immintrin.h>
#endif
#if defined(OSSAI_ISA_AVX2)
#include "sample/packed_compress_table.h"
#endif

static inline int pk_popcount(uint32_t x)
{
#if defined(OSSAI_ISA_AVX512) || defined(OSSAI_ISA_AVX2) || defined(OSSAI_ISA_SSE)
    return __builtin_popcount(x); /* these sets are compiled with -mpopcnt */
#else
    int n = 0;
    for (; x; x &= x - 1)
        ++n;
    return n;
#endif
}

/* Lane i is set where bit i of bits is. */
static inline vm pk_mask(uint32_t bits)
{
#if defined(OSSAI_ISA_AVX512)
    return (vm)bits;
#elif defined(OSSAI_ISA_AVX2)
    const __m256i lane = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
    const __m256i m = _mm256_and_si256(_mm256_set1_epi32((int)bits), lane);
    return _mm256_castsi256_ps(_mm256_cmpeq_epi32(m, lane));
#else
    LANE_ALIGN float f[LANE_V];
    for (int i = 0; i < LANE_V; ++i)
        f[i] = (bits >> i & 1u) ? 1.0f : 0.0f;
    return v_gt(v_load(f), v_zero());
#endif
}

/* How to spread packed values onto the lanes whose bit is set (see
 * pk_spread_load), worked out once for every row that shares the bits. */
typedef struct pk_spread {
#if defined(OSSAI_ISA_AVX512)
    __mmask16 bits, first;
#elif defined(OSSAI_ISA_AVX2)
    __m256i index, first;
    __m256 lanes; /* the lanes whose bit is set */
#else
    uint32_t bits;
#endif
} pk_spread;

static inline pk_spread pk_spread_make(uint32_t bits)
{
    pk_spread s;
#if defined(OSSAI_ISA_AVX512)
    s.bits = (__mmask16)bits;
    s.first = (__mmask16)((1u << pk_popcount(bits)) - 1u);
#elif defined(OSSAI_ISA_AVX2)
    /* lane i takes element popcount(bits below i): the bits below each lane,
     * counted a nibble at a time by table */
    const __m256i below = _mm256_and_si256(_mm256_set1_epi32((int)bits),
                                           _mm256_setr_epi32(0, 1, 3, 7, 15, 31, 63, 127));
    const __m256i table = _mm256_setr_epi8(0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4, 0, 1, 1,
                                           2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4);
    const __m256i low = _mm256_shuffle_epi8(table, _mm256_and_si256(below, _mm256_set1_epi32(15)));
    const __m256i high = _mm256_shuffle_epi8(table, _mm256_srli_epi32(below, 4));
    s.index = _mm256_add_epi32(low, high);
    s.first = _mm256_cmpgt_epi32(_mm256_set1_epi32(pk_popcount(bits)),
                                 _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
    s.lanes = pk_mask(bits);
#else
    s.bits = bits;
#endif
    return s;
}

/* Lane i: the next of the popcount(bits) floats at src where bit i of bits
 * is set; the other lanes are unspecified (callers select them away). Reads
 * nothing past those floats. */
static inline vf pk_spread_load(const float *src, const pk_spread *s)
{
#if defined(OSSAI_ISA_AVX512)
    return _mm512_maskz_expand_ps(s->bits, _mm512_maskz_loadu_ps(s->first, src));
#elif defined(OSSAI_ISA_AVX2)
    return _mm256_permutevar8x32_ps(_mm256_maskload_ps(src, s->first), s->index);
#else
    LANE_ALIGN float f[LANE_V];
    for (int i = 0; i < LANE_V; ++i)
        f[i] = (s->bits >> i & 1u) ? *src++ : 0.0f;
    return v_load(f);
#endif
}

/* pk_spread_load where the bits are set, over's lanes where they are not. */
static inline vf pk_spread_over(vf over, const float *src, const pk_spread *s)
{
#if defined(OSSAI_ISA_AVX512)
    return _mm512_mask_expand_ps(over, s->bits, _mm512_maskz_loadu_ps(s->first, src));
#elif defined(OSSAI_ISA_AVX2)
    return _mm256_blendv_ps(over, pk_spread_load(src, s), s->lanes);
#else
    LANE_ALIGN float f[LANE_V];
    v_store(f, over);
    for (int i = 0; i < LANE_V; ++i)
        if (s->bits >> i & 1u)
            f[i] = *src++;
    return v_load(f);
#endif
}

/* rows[c][j] = src[j * 10 + c] for c < 10 and j < n (n <= 16), fill[c]
 * for j >= n: 16 records of 10 floats (ossa_transform) as rows of their
 * components. Reads no record past n (src may be NULL when n is 0). */
static inline void pk_rows_of_records(const float *src, int n, const float fill[10],
                                      float rows[10][16])
{
#if defined(OSSAI_ISA_AVX512)
    const __m512i at = _mm512_setr_epi32(0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120,
                                         130, 140, 150);
    const __mmask16 live = (__mmask16)(n >= 16 ? 0xFFFFu : (1u << n) - 1u);
    for (int c = 0; c < 10; ++c)
        _mm512_storeu_ps(rows[c], n ? _mm512_mask_i32gather_ps(_mm512_set1_ps(fill[c]), live, at,
                                                                src + c, 4)
                                    : _mm512_set1_ps(fill[c]));
#elif defined(OSSAI_ISA_AVX2)
    const __m256i at = _mm256_setr_epi32(0, 10, 20, 30, 40, 50, 60, 70);
    const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    for (int h = 0; h < 2; ++h) {
        const int left = n - 8 * h;
        const __m256 live = _mm256_castsi256_ps(_mm256_cmpgt_epi32(_mm256_set1_epi32(left), lane));
        for (int c = 0; c < 10; ++c)
            _mm256_storeu_ps(rows[c] + 8 * h,
                             left > 0 ? _mm256_mask_i32gather_ps(_mm256_set1_ps(fill[c]),
                                                                 src + 80 * h + c, at, live, 4)
                                      : _mm256_set1_ps(fill[c]));
    }
#else
    for (int j = 0; j < 16; ++j)
        for (int c = 0; c < 10; ++c)
            rows[c][j] = j < n ? src[j * 10 + c] : fill[c];
#endif
}

/* The floats of src[16] at the set bits of mask (16 bits), packed at dst;
 * may write up to 16 floats. */
static inline void pk_compress16(float *dst, const float *src, uint32_t mask)
{
#if defined(OSSAI_ISA_AVX512)
    _mm512_storeu_ps(dst, _mm512_maskz_compress_ps((__mmask16)mask, _mm512_loadu_ps(src)));
#elif defined(OSSAI_ISA_AVX2)
    const uint32_t low = mask & 0xFFu, high = mask >> 8 & 0xFFu;
    const __m256i il = _mm256_cvtepu8_epi32(
        _mm_loadl_epi64((const __m128i *)(const void *)ossai_compress8[low]));
    const __m256i ih = _mm256_cvtepu8_epi32(
        _mm_loadl_epi64((const __m128i *)(const void *)ossai_compress8[high]));
    _mm256_storeu_ps(dst, _mm256_permutevar8x32_ps(_mm256_loadu_ps(src), il));
    _mm256_storeu_ps(dst + pk_popcount(low), _mm256_permutevar8x32_ps(_mm256_loadu_ps(src + 8), ih));
#else
    for (; mask; mask &= mask - 1)
        *dst++ = src[__builtin_ctz(mask)];
#endif
}

/* Bytes p[0, n) (1 <= n <= 8) as a little-endian word, zeros above; reads
 * no byte past them. */
static inline uint64_t pk_bytes(const uint8_t *p, int n)
{
    uint64_t v = 0;
    if (n == 8) {
        memcpy(&v, p, sizeof v);
        return v;
    }
    for (int k = 0; k < n; ++k)
        v |= (uint64_t)p[k] << (8 * k);
    return v;
}

/* A lane's place in one frame of a compressed clip: at its next value,
 * the segment's widths (and ranges: smin, sext NULL without), the clip's
 * ranges and the value's bit (docs/blob-format.md, "Compressed clips"). */
typedef struct pk_cursor {
    const uint8_t *width, *smin, *sext;
    const float *mins, *exts;
    uint64_t bit;
} pk_cursor;

/* What decoding the next n (1 <= n <= LANE_V) values at a cursor needs
 * besides their bits - each value's bit from the first, its mask, its
 * range's low end and step (ossai_pack_range) - and the bits the n take.
 * Cursors at the same values of one segment share it. */
typedef struct pk_setup {
#if defined(OSSAI_ISA_AVX512)
    __m512i before, ones;
    __m512 lo, step;
#elif defined(OSSAI_ISA_AVX2)
    __m256i before, ones;
    __m256 lo, step;
#else
    pk_cursor at;
    int n;
#endif
    uint32_t run;
} pk_setup;

static inline __attribute__((always_inline)) void pk_setup_make(pk_setup *s, const pk_cursor *c,
                                                                int n)
{
#if defined(OSSAI_ISA_AVX512)
    const __mmask16 live = (__mmask16)(n >= 16 ? 0xFFFFu : (1u << n) - 1u);
    const __m512i zero = _mm512_setzero_si512();
    const __m512i width = _mm512_cvtepu8_epi32(_mm_maskz_loadu_epi8(live, c->width));
    /* inclusive prefix sums of the widths: each value's bit follows */
    __m512i sum = width;
    sum = _mm512_add_epi32(sum, _mm512_alignr_epi32(sum, zero, 15));
    sum = _mm512_add_epi32(sum, _mm512_alignr_epi32(sum, zero, 14));
    sum = _mm512_add_epi32(sum, _mm512_alignr_epi32(sum, zero, 12));
    sum = _mm512_add_epi32(sum, _mm512_alignr_epi32(sum, zero, 8));
    s->before = _mm512_sub_epi32(sum, width);
    s->ones = _mm512_sub_epi32(_mm512_sllv_epi32(_mm512_set1_epi32(1), width),
                               _mm512_set1_epi32(1));
    const __m512 inv255 = _mm512_set1_ps(OSSAI_PACK_INV255);
    const __m512 cmin = _mm512_maskz_loadu_ps(live, c->mins);
    const __m512 cext = _mm512_maskz_loadu_ps(live, c->exts);
    const __m512 smin = c->smin ? _mm512_cvtepi32_ps(_mm512_cvtepu8_epi32(
                                      _mm_maskz_loadu_epi8(live, c->smin)))
                                : _mm512_setzero_ps();
    const __m512 sext = c->sext ? _mm512_cvtepi32_ps(_mm512_cvtepu8_epi32(
                                      _mm_maskz_loadu_epi8(live, c->sext)))
                                : _mm512_set1_ps(255.0f);
    const __m512 p2 = _mm512_castsi512_ps(
        _mm512_slli_epi32(_mm512_sub_epi32(_mm512_set1_epi32(127), width), 23));
    s->lo = _mm512_add_ps(cmin, _mm512_mul_ps(cext, _mm512_mul_ps(smin, inv255)));
    s->step = _mm512_mul_ps(_mm512_mul_ps(cext, _mm512_mul_ps(sext, inv255)), p2);
    s->run = (uint32_t)_mm_extract_epi32(_mm512_extracti32x4_epi32(sum, 3), 3);
#elif defined(OSSAI_ISA_AVX2)
    const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    const __m256i live = _mm256_cmpgt_epi32(_mm256_set1_epi32(n), lane);
    /* the widths as bytes of one word (x86 is little-endian); times
     * 0x0101..01, byte i holds the sum of widths 0..i (at most 8 x 23, no
     * carry between bytes); less the widths, the sum of those before i */
    const uint64_t wb = pk_bytes(c->width, n);
    const uint64_t incl = wb * 0x0101010101010101ull, excl = incl - wb;
    const __m256i width = _mm256_cvtepu8_epi32(_mm_cvtsi64_si128((long long)wb));
    s->before = _mm256_cvtepu8_epi32(_mm_cvtsi64_si128((long long)excl));
    s->ones = _mm256_sub_epi32(_mm256_sllv_epi32(_mm256_set1_epi32(1), width),
                               _mm256_set1_epi32(1));
    const __m256 inv255 = _mm256_set1_ps(OSSAI_PACK_INV255);
    const __m256 cmin = _mm256_maskload_ps(c->mins, live);
    const __m256 cext = _mm256_maskload_ps(c->exts, live);
    const __m256 smin = c->smin ? _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(
                                      _mm_cvtsi64_si128((long long)pk_bytes(c->smin, n))))
                                : _mm256_setzero_ps();
    const __m256 sext = c->sext ? _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(
                                      _mm_cvtsi64_si128((long long)pk_bytes(c->sext, n))))
                                : _mm256_set1_ps(255.0f);
    const __m256 p2 = _mm256_castsi256_ps(
        _mm256_slli_epi32(_mm256_sub_epi32(_mm256_set1_epi32(127), width), 23));
    s->lo = _mm256_add_ps(cmin, _mm256_mul_ps(cext, _mm256_mul_ps(smin, inv255)));
    s->step = _mm256_mul_ps(_mm256_mul_ps(cext, _mm256_mul_ps(sext, inv255)), p2);
    s->run = (uint32_t)(incl >> 56);
#else
    s->at = *c;
    s->n = n;
    uint32_t run = 0;
    for (int i = 0; i < n; ++i)
        run += c->width[i];
    s->run = run;
#endif
}

#if defined(OSSAI_ISA_AVX512)
/* Lane i: the low 32 bits of (hi:lo) >> (shift & 31) - one AVX-512 VBMI2
 * funnel shift (vpshrdvd), written as assembly so that the kernels need no
 * VBMI2 when compiled; run only where the CPU has it (OSSAI_CPU_VBMI2). */
static inline __m512i pk_funnel_right(__m512i lo, __m512i hi, __m512i shift)
{
    __asm__("vpshrdvd %2, %1, %0" : "+v"(lo) : "v"(hi), "v"(shift));
    return lo;
}
#endif

/* The n values of setup s in the frame whose first one is at bit `bit` of
 * bits (bits_end: the end of the block's bits, padding included): lane i
 * holds value i as ossai_pack_value computes it; lanes past n hold values
 * of no meaning. Reads no byte past bits_end. `funnel`: each value's bits
 * are taken by one funnel shift (only where the CPU has AVX-512 VBMI2:
 * ossai_lane_sample_args.funnel); the same values. */
static inline __attribute__((always_inline)) vf pk_frame(const pk_setup *s, const uint8_t *bits,
                                                         const uint8_t *bits_end, uint64_t bit,
                                                         bool funnel)
{
#if defined(OSSAI_ISA_AVX512)
    /* the (at most 16 x 23 + 7 bits of) values in one register, read from
     * their first byte; each value from the two 32-bit words it spans */
    const uint8_t *p = bits + (bit >> 3);
    const __m512i block =
        bits_end - p >= 64 ? _mm512_loadu_si512(p)
                           : _mm512_maskz_loadu_epi8(((__mmask64)1 << (bits_end - p)) - 1u, p);
    const __m512i at = _mm512_add_epi32(s->before, _mm512_set1_epi32((int)(bit & 7u)));
    const __m512i word = _mm512_srli_epi32(at, 5);
    const __m512i lo_word = _mm512_permutexvar_epi32(word, block);
    const __m512i hi_word =
        _mm512_permutexvar_epi32(_mm512_add_epi32(word, _mm512_set1_epi32(1)), block);
    __m512i v;
    if (funnel)
        v = pk_funnel_right(lo_word, hi_word, at); /* shifts by at & 31 */
    else {
        const __m512i shift = _mm512_and_si512(at, _mm512_set1_epi32(31));
        v = _mm512_or_si512(
            _mm512_srlv_epi32(lo_word, shift),
            _mm512_sllv_epi32(hi_word, _mm512_sub_epi32(_mm512_set1_epi32(32), shift)));
    }
    const __m512i q = _mm512_and_si512(v, s->ones);
    return _mm512_add_ps(s->lo, _mm512_mul_ps(_mm512_cvtepi32_ps(q), s->step));
#elif defined(OSSAI_ISA_AVX2)
    (void)funnel;
    /* the (at most 8 x 23 + 7 bits of) values in one register, read from
     * their first byte by whole 32-bit words inside the bits (their padding
     * holds every word a value touches); each value from the two words it
     * spans */
    const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    const uint8_t *p = bits + (bit >> 3);
    const __m256i inside =
        _mm256_cmpgt_epi32(_mm256_set1_epi32((int)((size_t)(bits_end - p) / 4u)), lane);
    const __m256i block = _mm256_maskload_epi32((const int *)(const void *)p, inside);
    const __m256i at = _mm256_add_epi32(s->before, _mm256_set1_epi32((int)(bit & 7u)));
    const __m256i word = _mm256_srli_epi32(at, 5);
    const __m256i shift = _mm256_and_si256(at, _mm256_set1_epi32(31));
    const __m256i lo_word = _mm256_permutevar8x32_epi32(block, word);
    const __m256i hi_word =
        _mm256_permutevar8x32_epi32(block, _mm256_add_epi32(word, _mm256_set1_epi32(1)));
    const __m256i v =
        _mm256_or_si256(_mm256_srlv_epi32(lo_word, shift),
                        _mm256_sllv_epi32(hi_word, _mm256_sub_epi32(_mm256_set1_epi32(32), shift)));
    const __m256i q = _mm256_and_si256(v, s->ones);
    return _mm256_add_ps(s->lo, _mm256_mul_ps(_mm256_cvtepi32_ps(q), s->step));
#else
    (void)bits_end;
    (void)funnel;
    LANE_ALIGN float x[LANE_V] = {0};
    const pk_cursor *c = &s->at;
    for (int i = 0; i < s->n; ++i) {
        const uint32_t w = c->width[i];
        float lo, step;
        ossai_pack_range(c->mins[i], c->exts[i], c->smin ? c->smin[i] : 0u,
                         c->sext ? c->sext[i] : 255u, w, &lo, &step);
        x[i] = ossai_pack_value(lo, step, ossai_pack_read(bits, bit, w));
        bit += w;
    }
    return v_load(x);
#endif
}

/* Cursor c's widths and ranges moved n values on (its bit stays). */
static inline pk_cursor pk_cursor_moved(const pk_cursor *c, uint32_t n)
{
    pk_cursor r = *c;
    r.width += n;
    if (r.smin)
        r.smin += n, r.sext += n;
    r.mins += n;
    r.exts += n;
    return r;
}

/* Moves cursor c past the n values of setup s. */
static inline void pk_cursor_skip(pk_cursor *c, const pk_setup *s, int n)
{
    *c = pk_cursor_moved(c, (uint32_t)n);
    c->bit += s->run;
}


/* Where the parts of a compressed clip are, as the lane kernels read them:
 * its mask rows (`chunks` u16 per row; the full rotations' row, or -1),
 * its constants and its packed bits. */
typedef struct pk_clip {
    const uint16_t *masks;
    const float *constants;
    const uint8_t *bits, *bits_end;
    uint32_t chunks;
    int steps, full_row; /* STEP rows present; the full rotations' mask row */
} pk_clip;

static inline pk_clip pk_clip_of(const ossa_clip *clip)
{
    const ossai_clip_packed *p = ossai_clip_packed_header(clip);
    pk_clip c;
    c.masks = (const uint16_t *)(const void *)((const char *)clip + p->masks_offset);
    c.constants = (const float *)(const void *)((const char *)clip + p->constants_offset);
    c.bits = (const uint8_t *)clip + p->block.bits_offset;
    c.bits_end = c.bits + p->block.bits_bytes;
    c.chunks = clip->joint_stride / OSSAI_CHUNK;
    c.steps = (clip->flags & OSSAI_CLIP_HAS_STEP) != 0;
    c.full_row =
        (clip->flags & OSSAI_CLIP_FULL_ROTATIONS) ? (int)ossai_mask_full_row(clip->flags) : -1;
    return c;
}

/* Cursors at the first value of frames f0 and f0 + 1 (f0 again for a
 * one-frame clip) of a compressed clip with values; returns whether both
 * are in one segment (b then shares a's widths and ranges). */
static inline int pk_cursors_at(const ossa_clip *clip, uint32_t f0, pk_cursor *a, pk_cursor *b)
{
    const ossai_packed_block *blk = &ossai_clip_packed_header(clip)->block;
    const uint32_t f1 = clip->frame_count > 1 ? f0 + 1 : f0;
    const ossai_packed_frame fr[2] = {ossai_packed_frame_at(clip, blk, f0),
                                      ossai_packed_frame_at(clip, blk, f1)};
    const float *mins = (const float *)(const void *)((const char *)clip + blk->ranges_offset);
    pk_cursor *cur[2] = {a, b};
    for (int f = 0; f < 2; ++f) {
        cur[f]->width = fr[f].width;
        cur[f]->smin = fr[f].smin;
        cur[f]->sext = fr[f].sext;
        cur[f]->mins = mins;
        cur[f]->exts = mins + blk->component_count;
        cur[f]->bit = fr[f].bit;
    }
    return (f0 >> blk->segment_shift) == (f1 >> blk->segment_shift);
}


/* ossai_pack_rotation_w and ossai_pack_rotation on vectors: rotations a and
 * b relative to the rest rotation r (w rebuilt from x y z, except in the
 * lanes of `full`, which stored it: a[3], b[3] are read there and rewritten
 * everywhere), their shortest-arc lerp at t after r, normalised, into q -
 * operation for operation, so every lane gets the reference decoder's bits. */
static inline void pk_rotation(vf a[4], vf b[4], const vf r[4], vm full, vf t, vf q[4])
{
    const vf one = v_set1(1.0f);
    for (int f = 0; f < 2; ++f) {
        vf *x = f ? b : a;
        vf d = v_mul(x[0], x[0]);
        d = v_add(d, v_mul(x[1], x[1]));
        d = v_add(d, v_mul(x[2], x[2]));
        x[3] = v_select(full, x[3], v_sqrt(v_max(v_sub(one, d), v_zero())));
    }
    vf d = v_mul(a[0], b[0]);
    for (int c = 1; c < 4; ++c)
        d = v_add(d, v_mul(a[c], b[c]));
    const vm flip = v_lt(d, v_zero());
    vf m[4], rq[4];
    for (int c = 0; c < 4; ++c)
        m[c] = v_add(a[c], v_mul(v_sub(v_negate_where(b[c], flip), a[c]), t));
    rq[0] = v_add(v_mul(r[3], m[0]), v_mul(r[0], m[3]));
    rq[0] = v_add(rq[0], v_mul(r[1], m[2]));
    rq[0] = v_sub(rq[0], v_mul(r[2], m[1]));
    rq[1] = v_sub(v_mul(r[3], m[1]), v_mul(r[0], m[2]));
    rq[1] = v_add(rq[1], v_mul(r[1], m[3]));
    rq[1] = v_add(rq[1], v_mul(r[2], m[0]));
    rq[2] = v_add(v_mul(r[3], m[2]), v_mul(r[0], m[1]));
    rq[2] = v_sub(rq[2], v_mul(r[1], m[0]));
    rq[2] = v_add(rq[2], v_mul(r[2], m[3]));
    rq[3] = v_sub(v_mul(r[3], m[3]), v_mul(r[0], m[0]));
    rq[3] = v_sub(rq[3], v_mul(r[1], m[1]));
    rq[3] = v_sub(rq[3], v_mul(r[2], m[2]));
    vf len2 = v_mul(rq[0], rq[0]);
    for (int c = 1; c < 4; ++c)
        len2 = v_add(len2, v_mul(rq[c], rq[c]));
    const vm ok = v_and_m(v_gt(len2, v_zero()), v_lt(len2, v_set1(INFINITY)));
    const vf inv = v_div(one, v_sqrt(len2));
    for (int c = 0; c < 4; ++c)
        q[c] = v_select(ok, v_mul(rq[c], inv), c == 3 ? one : v_zero());
}

#endif /* OSSA_PACKED_LANES_H */
