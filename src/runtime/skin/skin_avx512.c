/* skin_avx512.c - AVX-512 skinning kernels (compiled with -mavx512f
 * -mavx512vl -mavx512bw -mavx512dq, called only when the CPU has them).
 *
 * A 3x4 palette matrix is 12 floats: one masked zmm load (the top 128-bit
 * lane reads as zeros). Blending n matrices is one load plus a subtract and
 * an FMA per further influence.
 *
 * The transform works on whole zmm registers of the skinned stream, each
 * 128-bit lane one attribute (position, normal or tangent) of some vertex:
 * four vertices with tangents are three registers [p0 n0 t0 p1 | n1 t1 p2 n2
 * | t2 p3 n3 t3], two without are one [p0 n0 p1 n1]. For each register,
 * two-source permutes gather column j of the right vertex's matrix into each
 * lane, in-lane permutes spread x, y and z, and
 *   out = column0 * x + column1 * y + column2 * z + translation
 * where the translation (column 3) is put only in position lanes, and every
 * w is copied from the input (exact: 1 for positions, 0 for normals, the
 * tangent's handedness), the columns' w being 0. Leftover vertices go one at
 * a time through the same arithmetic, so a vertex's result does not depend
 * on the range it was skinned in. Cross-lane permutes are the scarce
 * resource: batching shares each register's permutes among its lanes (3 per
 * vertex instead of 4) and leaves out the w spread; runs of 1-influence
 * vertices on one joint reuse its columns without any.
 * Streaming (non-temporal) stores need 64-byte alignment: one vertex at a
 * time goes first until the output reaches a cache-line boundary (at most
 * three vertices), so the whole-register stores fill whole lines; the one at
 * a time vertices use ordinary stores. Without tangents (32-byte vertices)
 * that needs the output 32-byte aligned; else it is written ordinarily. */
#include <immintrin.h>
#include <string.h>

#include "skin/skinning_internal.h"

#define ROWS 0x0FFFu /* the 12 floats of a 3x4 matrix */
#define W 0x8888u    /* the w of every lane */

/* Palette matrix j (see palette_stride in skinning_internal.h). */
#define AT(j) ((const float *)(const void *)((const char *)palette + (size_t)(j) * stride))

/* [r0 | r1 | r2 | 0] of a vertex's blended matrix. */
OSSAI_SKIN_INLINE __m512 blend(const ossa_mat34 *palette, size_t stride, const uint16_t *joints,
                               const float *weights, int n)
{
    const __m512 last = _mm512_maskz_loadu_ps(ROWS, AT(joints[n - 1]));
    __m512 m = last;
    for (int k = 0; k + 1 < n; ++k) {
        /* m -= w_k (last - P[j_k]); lane 3 stays 0. */
        const __m512 p = _mm512_maskz_loadu_ps(ROWS, AT(joints[k]));
        m = _mm512_fnmadd_ps(_mm512_set1_ps(weights[k]), _mm512_maskz_sub_ps(ROWS, last, p), m);
    }
    return m;
}

/* How one register's lanes map onto the matrices of two vertices a and b:
 * the permute indices of columns 0..3 and the position lanes (which take the
 * translation). */
typedef struct lanes {
    __m512i column[4];
    __mmask16 position;
} lanes;

/* Lanes 0..split-1 read vertex a's matrix, the others vertex b's. */
static lanes make_lanes(int split, __mmask16 position)
{
    lanes l;
    for (int j = 0; j < 4; ++j) {
        int idx[16];
        for (int e = 0; e < 16; ++e)
            idx[e] = (e / 4 < split ? 0 : 16) + 4 * (e % 4) + j;
        l.column[j] = _mm512_loadu_si512(idx);
    }
    l.position = position;
    return l;
}

/* One register of attributes v whose lanes belong to matrices a and b. */
OSSAI_SKIN_INLINE __m512 transform(__m512 a, __m512 b, __m512 v, const lanes *l)
{
    __m512 o = _mm512_maskz_permutex2var_ps(l->position, a, l->column[3], b);
    o = _mm512_mask_mov_ps(o, W, v);
    o = _mm512_fmadd_ps(_mm512_permutex2var_ps(a, l->column[0], b), _mm512_permute_ps(v, 0x00), o);
    o = _mm512_fmadd_ps(_mm512_permutex2var_ps(a, l->column[1], b), _mm512_permute_ps(v, 0x55), o);
    return _mm512_fmadd_ps(_mm512_permutex2var_ps(a, l->column[2], b), _mm512_permute_ps(v, 0xAA),
                           o);
}

/* The same as transform() when every lane belongs to one matrix whose
 * column broadcasts c[0..2] and translation t (position lanes only) are
 * already at hand: no permute across lanes at all. */
OSSAI_SKIN_INLINE __m512 transform_shared(const __m512 c[3], __m512 t, __m512 v)
{
    __m512 o = _mm512_mask_mov_ps(t, W, v);
    o = _mm512_fmadd_ps(c[0], _mm512_permute_ps(v, 0x00), o);
    o = _mm512_fmadd_ps(c[1], _mm512_permute_ps(v, 0x55), o);
    return _mm512_fmadd_ps(c[2], _mm512_permute_ps(v, 0xAA), o);
}

/* Does a block of `count` (2 or 4) 1-influence vertices all use `joint`? */
OSSAI_SKIN_INLINE bool all_joint(const uint16_t *joints, int count, uint16_t joint)
{
    if (count == 4) {
        uint64_t four;
        memcpy(&four, joints, 8);
        return four == joint * 0x0001000100010001ull;
    }
    uint32_t two;
    memcpy(&two, joints, 4);
    return two == joint * 0x00010001u;
}

/* One vertex (its `rows` floats: 0x0FFF with tangents, 0x00FF without)
 * through the one-at-a-time arithmetic, with ordinary stores. */
OSSAI_SKIN_INLINE void one_vertex(const ossa_mat34 *palette, size_t stride, const uint16_t *joints,
                                  const float *weights, int n, const float *src, float *dst,
                                  __mmask16 rows, const lanes *single)
{
    const __m512 m = blend(palette, stride, joints, weights, n);
    _mm512_mask_storeu_ps(dst, rows, transform(m, m, _mm512_maskz_loadu_ps(rows, src), single));
}

/* A whole-register store; streaming ones are aligned (see above). */
OSSAI_SKIN_INLINE void store(float *dst, __m512 v, const bool stream)
{
    if (stream)
        _mm512_stream_ps(dst, v);
    else
        _mm512_storeu_ps(dst, v);
}

/* How many vertices of `floats` floats, at most `count`, go one at a time
 * before dst is 64-byte aligned (dst is 16-byte aligned). */
OSSAI_SKIN_INLINE size_t lead_in(const float *dst, size_t floats, size_t count)
{
    size_t k = 0;
    for (uintptr_t at = (uintptr_t)dst; at % 64 != 0 && k < count; at += floats * 4)
        ++k;
    return k;
}

OSSAI_SKIN_INLINE void skin(const ossai_skin_batch *b, const int n, const bool tangents,
                            const bool stream)
{
    const __m512 zero = _mm512_setzero_ps();
    const float *src = b->src;
    float *dst = b->dst;
    const uint16_t *joints = b->joints;
    const float *weights = b->weights;
    const ossa_mat34 *palette = b->palette;
    const size_t stride = b->palette_stride;
    size_t left = b->count;
    if (tangents) {
        /* [p0 n0 t0 p1 | n1 t1 p2 n2 | t2 p3 n3 t3] */
        const lanes l0 = make_lanes(3, 0xF00F), l1 = make_lanes(2, 0x0F00);
        const lanes l2 = make_lanes(1, 0x00F0), single = make_lanes(4, 0x000F);
        /* 1-influence vertices are sorted by joint: while blocks of four share
         * one, its column broadcasts (c) and per-register translations (t)
         * carry over from block to block. */
        uint16_t current = 0xFFFF; /* no skin joint has this index */
        __m512 c[3] = {zero, zero, zero}, t[3] = {zero, zero, zero};
        for (size_t k = stream ? lead_in(dst, 12, left) : 0; k > 0; --k, --left) {
            one_vertex(palette, stride, joints, weights, n, src, dst, ROWS, &single);
            src += 12;
            dst += 12;
            joints += n;
            weights += n - 1;
        }
        for (; left >= 4; left -= 4) {
            if (n == 1 && all_joint(joints, 4, joints[0])) {
                if (joints[0] != current) {
                    current = joints[0];
                    const __m512 m = blend(palette, stride, joints, weights, 1);
                    for (int j = 0; j < 3; ++j)
                        c[j] = _mm512_permutexvar_ps(single.column[j], m);
                    const __m512 c3 = _mm512_permutexvar_ps(single.column[3], m);
                    t[0] = _mm512_maskz_mov_ps(l0.position, c3);
                    t[1] = _mm512_maskz_mov_ps(l1.position, c3);
                    t[2] = _mm512_maskz_mov_ps(l2.position, c3);
                }
                store(dst, transform_shared(c, t[0], _mm512_loadu_ps(src)), stream);
                store(dst + 16, transform_shared(c, t[1], _mm512_loadu_ps(src + 16)), stream);
                store(dst + 32, transform_shared(c, t[2], _mm512_loadu_ps(src + 32)), stream);
            } else {
                const __m512 m0 = blend(palette, stride, joints, weights, n);
                const __m512 m1 = blend(palette, stride, joints + n, weights + (n - 1), n);
                const __m512 m2 = blend(palette, stride, joints + 2 * n, weights + 2 * (n - 1), n);
                const __m512 m3 = blend(palette, stride, joints + 3 * n, weights + 3 * (n - 1), n);
                store(dst, transform(m0, m1, _mm512_loadu_ps(src), &l0), stream);
                store(dst + 16, transform(m1, m2, _mm512_loadu_ps(src + 16), &l1), stream);
                store(dst + 32, transform(m2, m3, _mm512_loadu_ps(src + 32), &l2), stream);
            }
            src += 48;
            dst += 48;
            joints += 4 * n;
            weights += 4 * (n - 1);
        }
        for (; left > 0; --left) {
            one_vertex(palette, stride, joints, weights, n, src, dst, ROWS, &single);
            src += 12;
            dst += 12;
            joints += n;
            weights += n - 1;
        }
    } else {
        /* [p0 n0 p1 n1] */
        const lanes pair = make_lanes(2, 0x0F0F), single = make_lanes(4, 0x000F);
        uint16_t current = 0xFFFF;
        __m512 c[3] = {zero, zero, zero}, t = zero;
        if (stream && left > 0 && (uintptr_t)dst % 64 != 0) { /* dst % 64 == 32 */
            one_vertex(palette, stride, joints, weights, n, src, dst, 0x00FF, &single);
            src += 8;
            dst += 8;
            joints += n;
            weights += n - 1;
            --left;
        }
        for (; left >= 2; left -= 2) {
            if (n == 1 && all_joint(joints, 2, joints[0])) {
                if (joints[0] != current) {
                    current = joints[0];
                    const __m512 m = blend(palette, stride, joints, weights, 1);
                    for (int j = 0; j < 3; ++j)
                        c[j] = _mm512_permutexvar_ps(single.column[j], m);
                    t = _mm512_maskz_permutexvar_ps(pair.position, single.column[3], m);
                }
                store(dst, transform_shared(c, t, _mm512_loadu_ps(src)), stream);
            } else {
                const __m512 m0 = blend(palette, stride, joints, weights, n);
                const __m512 m1 = blend(palette, stride, joints + n, weights + (n - 1), n);
                store(dst, transform(m0, m1, _mm512_loadu_ps(src), &pair), stream);
            }
            src += 16;
            dst += 16;
            joints += 2 * n;
            weights += 2 * (n - 1);
        }
        if (left > 0)
            one_vertex(palette, stride, joints, weights, n, src, dst, 0x00FF, &single);
    }
}

/* One function per influence count and stride, kept apart (noinline) so the
 * disassembly shows each loop on its own: scripts/kernel_loops.sh counts
 * their instructions, which valgrind cannot (it does not run AVX-512). */
#define KERNEL(name, n, tangents, stream)                                                      \
    __attribute__((noinline)) static void name(const ossai_skin_batch *b)                     \
    {                                                                                          \
        skin(b, n, tangents, stream);                                                          \
    }
KERNEL(skin1_pn, 1, false, false)
KERNEL(skin1_pnt, 1, true, false)
KERNEL(skin2_pn, 2, false, false)
KERNEL(skin2_pnt, 2, true, false)
KERNEL(skin3_pn, 3, false, false)
KERNEL(skin3_pnt, 3, true, false)
KERNEL(skin4_pn, 4, false, false)
KERNEL(skin4_pnt, 4, true, false)
KERNEL(skin1_pn_stream, 1, false, true)
KERNEL(skin1_pnt_stream, 1, true, true)
KERNEL(skin2_pn_stream, 2, false, true)
KERNEL(skin2_pnt_stream, 2, true, true)
KERNEL(skin3_pn_stream, 3, false, true)
KERNEL(skin3_pnt_stream, 3, true, true)
KERNEL(skin4_pn_stream, 4, false, true)
KERNEL(skin4_pnt_stream, 4, true, true)

void ossai_skin_kernel_avx512(const ossai_skin_batch *b)
{
    static void (*const kernels[2][8])(const ossai_skin_batch *) = {
        {skin1_pn, skin1_pnt, skin2_pn, skin2_pnt, skin3_pn, skin3_pnt, skin4_pn, skin4_pnt},
        {skin1_pn_stream, skin1_pnt_stream, skin2_pn_stream, skin2_pnt_stream, skin3_pn_stream,
         skin3_pnt_stream, skin4_pn_stream, skin4_pnt_stream}};
    if (b->influences < 1 || b->influences > 4)
        return;
    /* 32-byte vertices stay 16 bytes off a line when the output is 16 bytes
     * off a 32-byte boundary: those are written ordinarily. */
    const bool stream = b->stream && (b->tangents || (uintptr_t)b->dst % 32 == 0);
    kernels[stream ? 1 : 0][2 * (b->influences - 1) + (b->tangents ? 1 : 0)](b);
    if (stream)
        _mm_sfence(); /* the streamed lines are visible before the job returns */
}
