/* skin_portable.c - the portable skinning kernels: plain C, one loop per
 * influence count, the readable definition the SIMD kernels follow; float4
 * and packed output (each packed vertex is the float4 one, then packed). */
#include "skin/skin_pack.h"
#include "skin/skinning_internal.h"

/* m = P[j_n-1] + sum_{k < n-1} w_k (P[j_k] - P[j_n-1]) for n = influences. */
OSSAI_SKIN_INLINE void blend(float m[12], const ossa_mat34 *palette, const uint16_t *joints,
                         const float *weights, int n)
{
    const float *last = &palette[joints[n - 1]].m[0][0];
    for (int e = 0; e < 12; ++e)
        m[e] = last[e];
    for (int k = 0; k + 1 < n; ++k) {
        const float *p = &palette[joints[k]].m[0][0];
        const float w = weights[k];
        for (int e = 0; e < 12; ++e)
            m[e] += w * (p[e] - last[e]);
    }
}

/* out.xyz = m * (v.xyz, t) where t = 1 for points and 0 for directions. */
OSSAI_SKIN_INLINE void transform(const float m[12], const float *v, float *out, float t, float w)
{
    const float x = v[0], y = v[1], z = v[2];
    out[0] = m[0] * x + m[1] * y + m[2] * z + m[3] * t;
    out[1] = m[4] * x + m[5] * y + m[6] * z + m[7] * t;
    out[2] = m[8] * x + m[9] * y + m[10] * z + m[11] * t;
    out[3] = w;
}

/* Inlined with constant n and tangents, so each call site is its own loop. */
OSSAI_SKIN_INLINE void skin(const ossai_skin_batch *b, const int n, const bool tangents)
{
    const size_t floats = tangents ? 12 : 8;
    const float *src = b->src;
    float *dst = b->dst;
    const uint16_t *joints = b->joints;
    const float *weights = b->weights;
    const ossa_mat34 *palette = b->palette;
    /* Locals, not b->: stores through dst could alias *b for the compiler. */
    for (const float *end = src + b->count * floats; src != end;) {
        float m[12];
        blend(m, palette, joints, weights, n);
        transform(m, src, dst, 1.0f, 1.0f);
        transform(m, src + 4, dst + 4, 0.0f, 0.0f);
        if (tangents)
            transform(m, src + 8, dst + 8, 0.0f, src[11]);
        src += floats;
        dst += floats;
        joints += n;
        weights += n - 1;
    }
}

OSSAI_SKIN_DISPATCH(ossai_skin_kernel_portable, skin)

/* Packed output: the float4 vertex above, computed by the same code into a
 * local, then packed (skin_pack.h). */
OSSAI_SKIN_INLINE void skin_packed(const ossai_skin_batch *b, const int n, const bool tangents)
{
    const size_t floats = tangents ? 12 : 8, bytes = OSSAI_PACKED_BYTES(tangents);
    const float *src = b->src;
    unsigned char *dst = b->dst;
    const uint16_t *joints = b->joints;
    const float *weights = b->weights;
    const ossa_mat34 *palette = b->palette;
    for (const float *end = src + b->count * floats; src != end;) {
        float m[12], v[12];
        blend(m, palette, joints, weights, n);
        transform(m, src, v, 1.0f, 1.0f);
        transform(m, src + 4, v + 4, 0.0f, 0.0f);
        if (tangents)
            transform(m, src + 8, v + 8, 0.0f, src[11]);
        ossai_pack_vertex(dst, v, v + 4, v + 8, tangents);
        src += floats;
        dst += bytes;
        joints += n;
        weights += n - 1;
    }
}

OSSAI_SKIN_DISPATCH(ossai_skin_packed_kernel_portable, skin_packed)
