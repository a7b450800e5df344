/* motion_decode.h - the motion frames of LANE_V lanes at once, for the lane
 * root motion kernel (motion_kernels.c): each lane's track, raw or packed
 * (format.h, ossai_packed_motion), read as bit fields - packed, a
 * component's width[c] bits at f frame_bits + (the widths before c); raw,
 * a frame's 128 bits, a component's 32 - fetched by gathers on AVX2 and
 * AVX-512 when a lane is packed, else one lane at a time, and decoded with
 * ossai_tracks_motion_frame's arithmetic, operation for operation. */
#ifndef OSSA_MOTION_DECODE_H
#define OSSA_MOTION_DECODE_H

#include <stdint.h>

#include "blob/format.h"
#include "core/vec.h"

#if defined(OSSAI_ISA_AVX512) || defined(OSSAI_ISA_AVX2)
#include <immintrin.h>
#endif

/* What a lane without motion reads: a raw track of two zero frames. */
static const float ossai_motion_none[2 * OSSAI_MOTION_C] = {0};

/* LANE_V lanes' tracks, as the decoder reads them: the tracks, and for the
 * gathers (AVX2, AVX-512, when a lane is packed) each lane's bit fields. */
typedef struct motion_lanes {
    const ossai_clip_tracks *track[LANE_V]; /* NULL: no motion */
    uint32_t packed;                        /* bit l: lane l's track is packed */
    const unsigned char *base[LANE_V];      /* the packed bits, the raw frames, or zeros */
    int32_t frame_bits[LANE_V];             /* packed: frame_bits; raw: 128 */
    int32_t last[LANE_V];                   /* packed: frame_count - 1; raw: -1 */
    int32_t before[3][LANE_V];              /* bits before component c in a frame */
    int32_t ones[3][LANE_V];                /* (1 << width) - 1; raw: all ones */
    int32_t qmin[3][LANE_V];
    LANE_ALIGN float slope[3][LANE_V], step[3][LANE_V], loop[3][LANE_V];
} motion_lanes;

/* The lanes read tracks t[0 .. LANE_V) (NULL: no motion). The bit fields
 * are worked out only where the gathers will read them. */
static inline void motion_lanes_make(motion_lanes *m, const ossai_clip_tracks *const *t)
{
    m->packed = 0;
    for (int l = 0; l < LANE_V; ++l) {
        m->track[l] = t[l];
        m->packed |= (uint32_t)(t[l] && (t[l]->flags & OSSAI_TRACKS_PACKED_MOTION)) << l;
        m->base[l] = t[l] ? (const unsigned char *)ossai_tracks_motion(t[l])
                          : (const unsigned char *)ossai_motion_none;
    }
#if defined(OSSAI_ISA_AVX512) || defined(OSSAI_ISA_AVX2)
    if (!m->packed)
        return;
    for (int l = 0; l < LANE_V; ++l) {
        const ossai_packed_motion *p =
            (m->packed >> l & 1u) ? (const ossai_packed_motion *)(const void *)m->base[l] : NULL;
        if (p)
            m->base[l] = (const unsigned char *)(p + 1);
        m->frame_bits[l] = p ? (int32_t)p->frame_bits : 32 * (int32_t)OSSAI_MOTION_C;
        m->last[l] = p ? (int32_t)t[l]->frame_count - 1 : -1;
        for (int c = 0, before = 0; c < 3; ++c) {
            const uint32_t w = p ? p->width[c] : 32u;
            m->before[c][l] = before;
            m->ones[c][l] = (int32_t)(w >= 32u ? 0xFFFFFFFFu : (1u << w) - 1u);
            m->qmin[c][l] = p ? p->qmin[c] : 0;
            m->slope[c][l] = p ? p->slope[c] : 0.0f;
            m->step[c][l] = p ? p->step[c] : 0.0f;
            m->loop[c][l] = p ? p->loop[c] : 0.0f;
            before += (int)w;
        }
    }
#endif
}

/* motion_frames one lane at a time: the SSE and portable paths', and every
 * path's when no lane is packed (a raw frame is three loads, cheaper than
 * gathers). A packed lane goes through the reference decoder
 * (ossai_tracks_motion_frame); a raw one is read here, which measured
 * faster (0.029 against 0.049 ms for 2000 raw lanes). */
static inline void motion_frames_lanes(const motion_lanes *m, vf f, vf out[3])
{
    LANE_ALIGN float fl[LANE_V], x[3][LANE_V];
    v_store(fl, f);
    for (int l = 0; l < LANE_V; ++l) {
        if (m->packed >> l & 1u) {
            float p[3];
            ossai_tracks_motion_frame(m->track[l], (uint32_t)fl[l], p);
            for (int c = 0; c < 3; ++c)
                x[c][l] = p[c];
            continue;
        }
        const float *raw = (const float *)(const void *)m->base[l] + (size_t)fl[l] * OSSAI_MOTION_C;
        for (int c = 0; c < 3; ++c)
            x[c][l] = raw[c];
    }
    for (int c = 0; c < 3; ++c)
        out[c] = v_load(x[c]);
}

#if defined(OSSAI_ISA_AVX512)
/* Component c's 32-bit words of frames fi (one per lane) and where their
 * field starts in each. */
static inline __m512i motion_words(const motion_lanes *m, __m512i fi, int c, __m512i *shift)
{
    const __m512i fb = _mm512_loadu_si512(m->frame_bits);
    const __m512i before = _mm512_loadu_si512(m->before[c]);
    /* the low 3 bits of the bit index: exact in 32 bits */
    *shift = _mm512_and_si512(_mm512_add_epi32(_mm512_mullo_epi32(fi, fb), before),
                              _mm512_set1_epi32(7));
    __m256i half[2];
    for (int h = 0; h < 2; ++h) {
        /* (the extract's index must be a constant, also unoptimised) */
        const __m512i f64 = _mm512_cvtepu32_epi64(h ? _mm512_extracti64x4_epi64(fi, 1)
                                                    : _mm512_castsi512_si256(fi));
        const __m512i fb64 = _mm512_cvtepu32_epi64(h ? _mm512_extracti64x4_epi64(fb, 1)
                                                     : _mm512_castsi512_si256(fb));
        const __m512i b64 = _mm512_cvtepu32_epi64(h ? _mm512_extracti64x4_epi64(before, 1)
                                                    : _mm512_castsi512_si256(before));
        const __m512i bit = _mm512_add_epi64(_mm512_mul_epu32(f64, fb64), b64);
        const __m512i at = _mm512_add_epi64(_mm512_loadu_si512(m->base + 8 * h),
                                            _mm512_srli_epi64(bit, 3));
        half[h] = _mm512_i64gather_epi32(at, NULL, 1);
    }
    return _mm512_inserti64x4(_mm512_castsi256_si512(half[0]), half[1], 1);
}
#elif defined(OSSAI_ISA_AVX2)
static inline __m256i motion_words(const motion_lanes *m, __m256i fi, int c, __m256i *shift)
{
    const __m256i fb = _mm256_loadu_si256((const __m256i *)(const void *)m->frame_bits);
    const __m256i before = _mm256_loadu_si256((const __m256i *)(const void *)m->before[c]);
    *shift = _mm256_and_si256(_mm256_add_epi32(_mm256_mullo_epi32(fi, fb), before),
                              _mm256_set1_epi32(7));
    __m128i half[2];
    for (int h = 0; h < 2; ++h) {
        const __m256i f64 = _mm256_cvtepu32_epi64(h ? _mm256_extracti128_si256(fi, 1)
                                                    : _mm256_castsi256_si128(fi));
        const __m256i fb64 = _mm256_cvtepu32_epi64(h ? _mm256_extracti128_si256(fb, 1)
                                                     : _mm256_castsi256_si128(fb));
        const __m256i b64 = _mm256_cvtepu32_epi64(h ? _mm256_extracti128_si256(before, 1)
                                                    : _mm256_castsi256_si128(before));
        const __m256i bit = _mm256_add_epi64(_mm256_mul_epu32(f64, fb64), b64);
        const __m256i at =
            _mm256_add_epi64(_mm256_loadu_si256((const __m256i *)(const void *)(m->base + 4 * h)),
                             _mm256_srli_epi64(bit, 3));
        half[h] = _mm256_i64gather_epi32(NULL, at, 1);
    }
    return _mm256_inserti128_si256(_mm256_castsi128_si256(half[0]), half[1], 1);
}
#endif

/* Frames f (whole numbers, one per lane, within each lane's track) of
 * every lane's track: x, z, yaw into out. */
static inline void motion_frames(const motion_lanes *m, vf f, vf out[3])
{
#if defined(OSSAI_ISA_AVX512) || defined(OSSAI_ISA_AVX2)
    if (!m->packed) {
        motion_frames_lanes(m, f, out);
        return;
    }
#endif
#if defined(OSSAI_ISA_AVX512)
    const __m512i fi = _mm512_cvttps_epi32(f);
    const __mmask16 packed = (__mmask16)m->packed;
    const __mmask16 first = _mm512_mask_cmpeq_epi32_mask(packed, fi, _mm512_setzero_si512());
    const __mmask16 last =
        _mm512_mask_cmpge_epi32_mask(packed, fi, _mm512_loadu_si512(m->last));
    for (int c = 0; c < 3; ++c) {
        __m512i shift;
        const __m512i word = motion_words(m, fi, c, &shift);
        const __m512i u = _mm512_and_si512(_mm512_srlv_epi32(word, shift),
                                           _mm512_loadu_si512(m->ones[c]));
        const __m512 q = _mm512_cvtepi32_ps(_mm512_add_epi32(_mm512_loadu_si512(m->qmin[c]), u));
        const __m512 value = _mm512_add_ps(_mm512_mul_ps(f, _mm512_load_ps(m->slope[c])),
                                           _mm512_mul_ps(q, _mm512_load_ps(m->step[c])));
        const __m512 loop = _mm512_load_ps(m->loop[c]);
        __m512 x = _mm512_mask_blend_ps(packed, _mm512_castsi512_ps(word), value);
        x = _mm512_mask_blend_ps(last, x, _mm512_mul_ps(loop, _mm512_set1_ps(1.0f)));
        out[c] = _mm512_mask_blend_ps(first, x, _mm512_mul_ps(loop, _mm512_setzero_ps()));
    }
#elif defined(OSSAI_ISA_AVX2)
    const __m256i fi = _mm256_cvttps_epi32(f);
    const __m256i lane = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
    const __m256i packed_i = _mm256_cmpeq_epi32(
        _mm256_and_si256(_mm256_set1_epi32((int)m->packed), lane), lane);
    const __m256 packed = _mm256_castsi256_ps(packed_i);
    const __m256 first = _mm256_castsi256_ps(
        _mm256_and_si256(packed_i, _mm256_cmpeq_epi32(fi, _mm256_setzero_si256())));
    const __m256i at_last = _mm256_cmpgt_epi32(
        fi, _mm256_sub_epi32(_mm256_loadu_si256((const __m256i *)(const void *)m->last),
                             _mm256_set1_epi32(1)));
    const __m256 last = _mm256_castsi256_ps(_mm256_and_si256(packed_i, at_last));
    for (int c = 0; c < 3; ++c) {
        __m256i shift;
        const __m256i word = motion_words(m, fi, c, &shift);
        const __m256i u =
            _mm256_and_si256(_mm256_srlv_epi32(word, shift),
                             _mm256_loadu_si256((const __m256i *)(const void *)m->ones[c]));
        const __m256 q = _mm256_cvtepi32_ps(_mm256_add_epi32(
            _mm256_loadu_si256((const __m256i *)(const void *)m->qmin[c]), u));
        const __m256 value = _mm256_add_ps(_mm256_mul_ps(f, _mm256_load_ps(m->slope[c])),
                                           _mm256_mul_ps(q, _mm256_load_ps(m->step[c])));
        const __m256 loop = _mm256_load_ps(m->loop[c]);
        __m256 x = _mm256_blendv_ps(_mm256_castsi256_ps(word), value, packed);
        x = _mm256_blendv_ps(x, _mm256_mul_ps(loop, _mm256_set1_ps(1.0f)), last);
        out[c] = _mm256_blendv_ps(x, _mm256_mul_ps(loop, _mm256_setzero_ps()), first);
    }
#else
    motion_frames_lanes(m, f, out);
#endif
}

#endif /* OSSA_MOTION_DECODE_H */
