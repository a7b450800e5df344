/* packed_kernels.c - the lane sampling kernel for batches holding a
 * compressed clip: each lane's two frames decoded straight from the packed
 * bits, 16 joints (one mask chunk) at a time, interpolated as the reference
 * decoder does (sample/packed_math.h, operation for operation, so the two
 * agree to the bit), then transposed into the lane layout. Raw lanes in the
 * batch take the raw kernel's path (sample/sample_lane.h). Compiled once per
 * instruction set (core/simd.h); the bit unpacking gathers on AVX2 and
 * AVX-512 and reads one value at a time on the others. */
#include <string.h>

#include "sample/packed_math.h"
#include "sample/sample_lane.h"

#if defined(OSSAI_ISA_AVX512) || defined(OSSAI_ISA_AVX2)
#include <immintrin.h>
#endif

#define CHUNK ((int)OSSAI_CHUNK)
/* The most components a chunk animates: 16 joints x (3 tracks x 3 + a w). */
#define CHUNK_VALUES (CHUNK * 10)

static inline int popcount16(uint32_t x)
{
    int n = 0;
    for (; x; x &= x - 1)
        ++n;
    return n;
}

/* ---- lane masks, byte loads and expansion, per instruction set ---- */

/* Lane i is set where bit i of bits is. */
static inline vm mask_of(uint32_t bits)
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

/* The LANE_V bytes at p as floats (all LANE_V readable). */
static inline vf from_u8(const uint8_t *p)
{
#if defined(OSSAI_ISA_AVX512)
    return _mm512_cvtepi32_ps(_mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)(const void *)p)));
#elif defined(OSSAI_ISA_AVX2)
    return _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(const void *)p)));
#else
    LANE_ALIGN float f[LANE_V];
    for (int i = 0; i < LANE_V; ++i)
        f[i] = (float)p[i];
    return v_load(f);
#endif
}

/* 2^-w for the LANE_V widths at p, exactly (ossai_pack_pow2_neg). */
static inline vf pow2_neg(const uint8_t *p)
{
#if defined(OSSAI_ISA_AVX512)
    const __m512i w = _mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)(const void *)p));
    return _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_sub_epi32(_mm512_set1_epi32(127), w), 23));
#elif defined(OSSAI_ISA_AVX2)
    const __m256i w = _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(const void *)p));
    return _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_sub_epi32(_mm256_set1_epi32(127), w), 23));
#else
    LANE_ALIGN float f[LANE_V];
    for (int i = 0; i < LANE_V; ++i)
        f[i] = ossai_pack_pow2_neg(p[i]);
    return v_load(f);
#endif
}

/* Lane i: the next value of src where bit i of bits is set, 0 elsewhere;
 * reads popcount(bits) floats. */
static inline vf expand(const float *src, uint32_t bits)
{
#if defined(OSSAI_ISA_AVX512)
    return _mm512_maskz_expandloadu_ps((__mmask16)bits, src);
#else
    LANE_ALIGN float f[LANE_V];
    for (int i = 0; i < LANE_V; ++i)
        f[i] = (bits >> i & 1u) ? *src++ : 0.0f;
    return v_load(f);
#endif
}

/* ---- the packed bits of one frame ---- */

/* The values q of `count` consecutive components of one frame, whose first
 * is at bit `bit` and whose widths are w[0 .. count), as floats (exact:
 * q < 2^23); returns the bit after the last. Reads whole 32-bit words at
 * byte offsets inside the block's bits (their padding covers the last). */
static uint64_t unpack(const uint8_t *bits, uint64_t bit, const uint8_t *w, int count, float *q)
{
#if defined(OSSAI_ISA_AVX512)
    for (int i = 0; i < count; i += 16) {
        const int n = count - i < 16 ? count - i : 16;
        uint8_t wb[16] = {0};
        memcpy(wb, w + i, (size_t)n);
        const __m512i width = _mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)(const void *)wb));
        /* inclusive prefix sums of the widths, then each value's bit */
        __m512i sum = width;
        const __m512i zero = _mm512_setzero_si512();
        sum = _mm512_add_epi32(sum, _mm512_alignr_epi32(sum, zero, 15));
        sum = _mm512_add_epi32(sum, _mm512_alignr_epi32(sum, zero, 14));
        sum = _mm512_add_epi32(sum, _mm512_alignr_epi32(sum, zero, 12));
        sum = _mm512_add_epi32(sum, _mm512_alignr_epi32(sum, zero, 8));
        const __m512i at = _mm512_add_epi32(_mm512_set1_epi32((int)(uint32_t)bit),
                                            _mm512_sub_epi32(sum, width));
        const __mmask16 live = (__mmask16)((1u << n) - 1u);
        const __m512i word = _mm512_mask_i32gather_epi32(zero, live, _mm512_srli_epi32(at, 3),
                                                         bits, 1);
        const __m512i v = _mm512_srlv_epi32(word, _mm512_and_si512(at, _mm512_set1_epi32(7)));
        const __m512i mask =
            _mm512_sub_epi32(_mm512_sllv_epi32(_mm512_set1_epi32(1), width), _mm512_set1_epi32(1));
        _mm512_storeu_ps(q + i, _mm512_cvtepi32_ps(_mm512_and_si512(v, mask)));
        LANE_ALIGN uint32_t sums[16];
        _mm512_store_si512((void *)sums, sum);
        bit += sums[n - 1];
    }
    return bit;
#elif defined(OSSAI_ISA_AVX2)
    for (int i = 0; i < count; i += 8) {
        const int n = count - i < 8 ? count - i : 8;
        uint8_t wb[16] = {0};
        memcpy(wb, w + i, (size_t)n);
        const __m256i width = _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(const void *)wb));
        /* prefix sums: lanes shifted up by 1, 2, 4 (zeros below) */
        __m256i sum = width;
        for (int k = 1; k < 8; k <<= 1) {
            const __m256i idx = _mm256_sub_epi32(_mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7),
                                                 _mm256_set1_epi32(k));
            const __m256i shifted = _mm256_permutevar8x32_epi32(sum, idx);
            const __m256i keep = _mm256_cmpgt_epi32(idx, _mm256_set1_epi32(-1));
            sum = _mm256_add_epi32(sum, _mm256_and_si256(shifted, keep));
        }
        const __m256i at = _mm256_add_epi32(_mm256_set1_epi32((int)(uint32_t)bit),
                                            _mm256_sub_epi32(sum, width));
        const __m256i live = _mm256_cmpgt_epi32(_mm256_set1_epi32(n),
                                                _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
        const __m256i word = _mm256_mask_i32gather_epi32(
            _mm256_setzero_si256(), (const int *)(const void *)bits, _mm256_srli_epi32(at, 3), live, 1);
        const __m256i v = _mm256_srlv_epi32(word, _mm256_and_si256(at, _mm256_set1_epi32(7)));
        const __m256i mask =
            _mm256_sub_epi32(_mm256_sllv_epi32(_mm256_set1_epi32(1), width), _mm256_set1_epi32(1));
        _mm256_storeu_ps(q + i, _mm256_cvtepi32_ps(_mm256_and_si256(v, mask)));
        LANE_ALIGN uint32_t sums[8];
        _mm256_store_si256((__m256i *)(void *)sums, sum);
        bit += sums[n - 1];
    }
    return bit;
#else
    for (int i = 0; i < count; ++i) {
        q[i] = (float)ossai_pack_read(bits, bit, w[i]);
        bit += w[i];
    }
    return bit;
#endif
}

/* ---- one lane of a compressed clip ---- */

/* Where one frame's values are, and how far through them the chunks are. */
typedef struct frame_state {
    const uint8_t *width, *smin, *sext; /* the segment's, at component 0 */
    uint64_t bit;                       /* the next value's */
} frame_state;

typedef struct lane_state {
    const ossa_clip *clip;
    const ossai_clip_packed *p;
    const uint16_t *masks;
    const float *constants, *mins, *exts;
    const uint8_t *bits;
    uint32_t chunks, k, ci; /* components and constants read so far */
    int steps, same;        /* STEP rows present; both frames in one segment */
    int full_row;           /* the full rotations' mask row, or -1 */
    frame_state a, b;
} lane_state;

static frame_state frame_at(const ossa_clip *clip, const ossai_packed_block *b, uint32_t f)
{
    const uint32_t n = b->component_count;
    const uint32_t s = f >> b->segment_shift, i = f - (s << b->segment_shift);
    const int ranges = (b->flags & OSSAI_PACK_SEGMENT_RANGES) != 0;
    const uint8_t *data = (const uint8_t *)clip + b->seg_data_offset +
                          (size_t)s * n * (ranges ? 3u : 1u);
    const ossai_packed_segment *seg =
        (const ossai_packed_segment *)(const void *)((const char *)clip + b->segments_offset) + s;
    frame_state st;
    st.width = data;
    st.smin = ranges ? data + n : NULL;
    st.sext = ranges ? data + 2 * (size_t)n : NULL;
    st.bit = (uint64_t)seg->byte_offset * 8u + (uint64_t)i * seg->frame_bits;
    return st;
}

static void lane_begin(lane_state *l, const ossa_clip *clip, uint32_t f0)
{
    const ossai_clip_packed *p = ossai_clip_packed_header(clip);
    const ossai_packed_block *b = &p->block;
    l->clip = clip;
    l->p = p;
    l->masks = (const uint16_t *)(const void *)((const char *)clip + p->masks_offset);
    l->constants = (const float *)(const void *)((const char *)clip + p->constants_offset);
    l->mins = (const float *)(const void *)((const char *)clip + b->ranges_offset);
    l->exts = l->mins + b->component_count;
    l->bits = (const uint8_t *)clip + b->bits_offset;
    l->chunks = clip->joint_stride / OSSAI_CHUNK;
    l->k = l->ci = 0;
    l->steps = (clip->flags & OSSAI_CLIP_HAS_STEP) != 0;
    l->full_row = (clip->flags & OSSAI_CLIP_FULL_ROTATIONS) ? (int)ossai_mask_full_row(clip->flags) : -1;
    if (b->component_count) {
        const uint32_t f1 = clip->frame_count > 1 ? f0 + 1 : f0;
        l->a = frame_at(clip, b, f0);
        l->b = frame_at(clip, b, f1);
        l->same = (f0 >> b->segment_shift) == (f1 >> b->segment_shift);
    }
}

/* LANE_V values of a range (the last vector may be partial: its rest is
 * read from a zeroed copy, so nothing past the arrays is read). */
static inline vf load_part(const float *p, int n)
{
    if (n >= LANE_V)
        return v_load(p);
    LANE_ALIGN float f[LANE_V] = {0};
    memcpy(f, p, sizeof(float) * (size_t)n);
    return v_load(f);
}

static inline const uint8_t *bytes_part(const uint8_t *p, int n, uint8_t tmp[LANE_V])
{
    if (n >= LANE_V)
        return p;
    memset(tmp, 0, LANE_V);
    memcpy(tmp, p, (size_t)n);
    return tmp;
}

/* lo + q * step for `count` components from k of one frame (its segment's
 * widths and ranges), in place over q. */
static void decode(const lane_state *l, const frame_state *f, uint32_t k, int count, float *q)
{
    const vf inv255 = v_set1(OSSAI_PACK_INV255);
    for (int i = 0; i < count; i += LANE_V) {
        const int n = count - i;
        uint8_t t0[LANE_V], t1[LANE_V], t2[LANE_V];
        const vf cmin = load_part(l->mins + k + i, n), cext = load_part(l->exts + k + i, n);
        const vf smin = f->smin ? from_u8(bytes_part(f->smin + k + i, n, t0)) : v_zero();
        const vf sext = f->sext ? from_u8(bytes_part(f->sext + k + i, n, t1)) : v_set1(255.0f);
        const vf p2 = pow2_neg(bytes_part(f->width + k + i, n, t2));
        const vf lo = v_add(cmin, v_mul(cext, v_mul(smin, inv255)));
        const vf step = v_mul(v_mul(cext, v_mul(sext, inv255)), p2);
        v_store(q + i, v_add(lo, v_mul(v_load(q + i), step)));
    }
}

/* The rest pose of joints j0 .. j0 + 16, as rows of the pose components. */
static void rest_rows(const ossa_transform *rest, int j0, int joints,
                     float rows[OSSAI_POSE_C][CHUNK])
{
    static const ossa_transform identity = {{0, 0, 0}, {0, 0, 0, 1}, {1, 1, 1}};
    for (int j = 0; j < CHUNK; ++j) {
        const ossa_transform *x = rest && j0 + j < joints ? &rest[j0 + j] : &identity;
        const float *v = &x->translation.x;
        for (int c = 0; c < OSSAI_POSE_C; ++c)
            rows[c][j] = v[c];
    }
}

/* One lane's chunk of 16 joints: out[c][j], pose component c of joint j0 + j. */
static void packed_chunk(lane_state *l, uint32_t chunk, float alpha,
                         const float rest[OSSAI_POSE_C][CHUNK], float out[OSSAI_POSE_C][CHUNK])
{
    const uint32_t chunks = l->chunks;
    uint32_t anim[3], still[3], step[3];
    const uint32_t full = l->full_row >= 0 ? l->masks[(uint32_t)l->full_row * chunks + chunk] : 0u;
    uint32_t count = (uint32_t)popcount16(full);
    for (int kind = 0; kind < OSSAI_KINDS; ++kind) {
        anim[kind] = l->masks[(OSSAI_MASK_ANIM + kind) * chunks + chunk];
        still[kind] = l->masks[(OSSAI_MASK_CONST + kind) * chunks + chunk];
        step[kind] = l->steps ? l->masks[(OSSAI_MASK_STEP + kind) * chunks + chunk] : 0u;
        count += 3u * (uint32_t)popcount16(anim[kind]);
    }
    /* the chunk's values of both frames, in record order (padded so that a
     * full vector may be read past them) */
    LANE_ALIGN float va[CHUNK_VALUES + LANE_V], vb[CHUNK_VALUES + LANE_V];
    if (count) {
        l->a.bit = unpack(l->bits, l->a.bit, l->a.width + l->k, (int)count, va);
        decode(l, &l->a, l->k, (int)count, va);
        l->b.bit = unpack(l->bits, l->b.bit, l->b.width + l->k, (int)count, vb);
        decode(l, l->same ? &l->a : &l->b, l->k, (int)count, vb);
        l->k += count;
    }
    const vf one = v_set1(1.0f), held = v_set1(alpha >= 1.0f ? 1.0f : 0.0f);
    const vf t_all = v_set1(alpha);
    const float *pa = va, *pb = vb;
    for (int kind = 0; kind < OSSAI_KINDS; ++kind) {
        const int rows = kind == OSSAI_KIND_R ? 4 : 3;
        const int base = kind == OSSAI_KIND_T ? OSSAI_TX : kind == OSSAI_KIND_R ? OSSAI_QX : OSSAI_SX;
        const int na = popcount16(anim[kind]), nc = popcount16(still[kind]);
        const int nf = kind == OSSAI_KIND_R ? popcount16(full) : 0;
        if (!anim[kind] && !still[kind]) {
            for (int c = 0; c < rows; ++c)
                memcpy(out[base + c], rest[base + c], sizeof(float) * CHUNK);
            continue;
        }
        /* constants: rows x y z (w) of the chunk's constant tracks */
        const float *cp = l->constants + l->ci;
        l->ci += (uint32_t)(rows * nc);
        for (int v0 = 0; v0 < CHUNK; v0 += LANE_V) {
            const uint32_t part = (uint32_t)(LANE_V == 16 ? 0xFFFFu : (1u << LANE_V) - 1u);
            const uint32_t am = anim[kind] >> v0 & part, cm = still[kind] >> v0 & part;
            const uint32_t sm = step[kind] >> v0 & part;
            const int before_a = popcount16(anim[kind] & ((1u << v0) - 1u));
            const uint32_t fm = kind == OSSAI_KIND_R ? full >> v0 & part : 0u;
            const int before_f = popcount16(full & ((1u << v0) - 1u));
            const int before_c = popcount16(still[kind] & ((1u << v0) - 1u));
            const vm is_anim = mask_of(am), is_const = mask_of(cm);
            const vf t = sm ? v_select(mask_of(sm), held, t_all) : t_all;
            vf r[4], k[4];
            for (int c = 0; c < rows; ++c) {
                r[c] = v_load(rest[base + c] + v0);
                k[c] = cm ? expand(cp + c * nc + before_c, cm) : v_zero();
            }
            if (kind != OSSAI_KIND_R) {
                for (int c = 0; c < 3; ++c) {
                    vf v = v_select(is_const, k[c], r[c]);
                    if (am) {
                        const vf a = expand(pa + c * na + before_a, am);
                        const vf b = expand(pb + c * na + before_a, am);
                        /* ossai_pack_lerp */
                        const vf x = v_add(v_mul(a, v_sub(one, t)), v_mul(b, t));
                        v = v_select(is_anim, x, v);
                    }
                    v_store(out[base + c] + v0, v);
                }
                continue;
            }
            vf q[4];
            for (int c = 0; c < 4; ++c)
                q[c] = v_select(is_const, k[c], r[c]);
            if (am) {
                vf a[4], b[4];
                for (int c = 0; c < 3; ++c) {
                    a[c] = expand(pa + c * na + before_a, am);
                    b[c] = expand(pb + c * na + before_a, am);
                }
                /* ossai_pack_rotation_w, or the stored w of a full rotation */
                for (int s = 0; s < 2; ++s) {
                    vf *x = s ? b : a;
                    vf d = v_mul(x[0], x[0]);
                    d = v_add(d, v_mul(x[1], x[1]));
                    d = v_add(d, v_mul(x[2], x[2]));
                    x[3] = v_sqrt(v_max(v_sub(one, d), v_zero()));
                    if (fm)
                        x[3] = v_select(mask_of(fm), expand((s ? pb : pa) + 3 * na + before_f, fm),
                                        x[3]);
                }
                /* ossai_pack_rotation: shortest-arc lerp, after the rest
                 * rotation, normalised */
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
                for (int c = 0; c < 4; ++c) {
                    const vf unit = v_select(ok, v_mul(rq[c], inv), c == 3 ? one : v_zero());
                    q[c] = v_select(is_anim, unit, q[c]);
                }
            }
            for (int c = 0; c < 4; ++c)
                v_store(out[base + c] + v0, q[c]);
        }
        pa += 3 * na + nf;
        pb += 3 * na + nf;
    }
}

void OSSAI_ISA_NAME(ossai_packed_kernel)(const ossai_lane_sample_args *a)
{
    const int width = a->width, joints = a->joint_count;
    LANE_ALIGN float rest[OSSAI_POSE_C][CHUNK];
    LANE_ALIGN float rows[LANE_V][OSSAI_POSE_C][CHUNK];
    LANE_ALIGN float tile[OSSAI_POSE_C][LANE_V][LANE_V];
    lane_state lanes[LANE_V];
    for (int lc = 0; lc < width; lc += LANE_V) {
        for (int l = 0; l < LANE_V; ++l)
            if (a->packed[lc + l])
                lane_begin(&lanes[l], a->packed[lc + l], a->frame[lc + l]);
        for (int j0 = 0; j0 < joints; j0 += CHUNK) {
            rest_rows(a->rest, j0, joints, rest);
            const uint32_t chunk = (uint32_t)j0 / OSSAI_CHUNK;
            for (int l = 0; l < LANE_V; ++l)
                if (a->packed[lc + l])
                    packed_chunk(&lanes[l], chunk, a->alpha[lc + l], (const float(*)[CHUNK])rest,
                                 rows[l]);
            for (int v0 = 0; v0 < CHUNK && j0 + v0 < joints; v0 += LANE_V) {
                for (int l = 0; l < LANE_V; ++l) {
                    if (a->packed[lc + l]) {
                        for (int c = 0; c < OSSAI_POSE_C; ++c)
                            v_store(tile[c][l], v_load(rows[l][c] + v0));
                    } else {
                        sample_lane(a, lc + l, j0 + v0, tile, l);
                    }
                }
                const int jn = joints - (j0 + v0) < LANE_V ? joints - (j0 + v0) : LANE_V;
                for (int c = 0; c < OSSAI_POSE_C; ++c) {
                    vf r[LANE_V];
                    for (int l = 0; l < LANE_V; ++l)
                        r[l] = v_load(tile[c][l]);
                    v_transpose(r);
                    float *out = a->output + ((size_t)(j0 + v0) * OSSAI_POSE_C + c) * width + lc;
                    for (int j = 0; j < jn; ++j)
                        v_store(out + (size_t)j * OSSAI_POSE_C * width, r[j]);
                }
            }
        }
    }
}
