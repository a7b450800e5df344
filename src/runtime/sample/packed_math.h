/* packed_math.h - the arithmetic of compressed clips, operation by
 * operation: a quantised value's range and value, a rotation's rebuilt w,
 * and the interpolation between two decoded frames. The reference decoder,
 * every lane kernel (the same operations on vectors, in the same order, no
 * fused multiply-add) and the compressor (which measures what the runtime
 * will make) share it, so that they agree to the bit. The byte layout is in
 * format.h. */
#ifndef OSSA_PACKED_MATH_H
#define OSSA_PACKED_MATH_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "ossa/math.h"

#define OSSAI_PACK_INV255 (1.0f / 255.0f)

/* 2^-w exactly, for w in [0, 23]: built from its exponent bits. */
static inline float ossai_pack_pow2_neg(uint32_t w)
{
    const uint32_t bits = (127u - w) << 23;
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

/* The lowest value of a component in a segment and the size of one step
 * of its w-bit values (see ossai_packed_block). */
static inline void ossai_pack_range(float clip_min, float clip_extent, uint32_t smin,
                                    uint32_t sext, uint32_t w, float *lo, float *step)
{
    const float a = (float)smin * OSSAI_PACK_INV255;
    const float b = clip_extent * a;
    *lo = clip_min + b;
    const float e = (float)sext * OSSAI_PACK_INV255;
    const float extent = clip_extent * e;
    *step = extent * ossai_pack_pow2_neg(w);
}

static inline float ossai_pack_value(float lo, float step, uint32_t q)
{
    const float x = (float)q * step;
    return lo + x;
}

/* The w bits at bit position `bit` of data (least significant first);
 * reads 8 bytes at bit / 8 (the block's padding keeps them inside). */
static inline uint32_t ossai_pack_read(const uint8_t *data, uint64_t bit, uint32_t w)
{
    uint64_t word;
    memcpy(&word, data + (bit >> 3), sizeof word);
    return (uint32_t)(word >> (bit & 7u)) & ((1u << w) - 1u);
}

/* A rotation's w >= 0 from its stored x, y, z. */
static inline float ossai_pack_rotation_w(float x, float y, float z)
{
    float t = x * x;
    t = t + y * y;
    t = t + z * z;
    const float r = 1.0f - t;
    return sqrtf(r > 0.0f ? r : 0.0f);
}

/* a (1 - t) + b t: a at t = 0, b at t = 1. */
static inline float ossai_pack_lerp(float a, float b, float t)
{
    const float u = 1.0f - t;
    const float x = a * u;
    const float y = b * t;
    return x + y;
}

/* r = a b (b applied first), term by term in this order. */
static inline ossa_quat ossai_pack_quat_mul(ossa_quat a, ossa_quat b)
{
    ossa_quat r;
    r.x = a.w * b.x + a.x * b.w;
    r.x = r.x + a.y * b.z;
    r.x = r.x - a.z * b.y;
    r.y = a.w * b.y - a.x * b.z;
    r.y = r.y + a.y * b.w;
    r.y = r.y + a.z * b.x;
    r.z = a.w * b.z + a.x * b.y;
    r.z = r.z - a.y * b.x;
    r.z = r.z + a.z * b.w;
    r.w = a.w * b.w - a.x * b.x;
    r.w = r.w - a.y * b.y;
    r.w = r.w - a.z * b.z;
    return r;
}

/* q / |q|, or the identity where |q|^2 is 0 or not finite (which decoded
 * values of a valid clip never give). */
static inline ossa_quat ossai_pack_normalize(ossa_quat q)
{
    float len2 = q.x * q.x;
    len2 = len2 + q.y * q.y;
    len2 = len2 + q.z * q.z;
    len2 = len2 + q.w * q.w;
    if (!(len2 > 0.0f) || !(len2 < INFINITY)) {
        const ossa_quat identity = {0.0f, 0.0f, 0.0f, 1.0f};
        return identity;
    }
    const float inv = 1.0f / sqrtf(len2);
    q.x = q.x * inv;
    q.y = q.y * inv;
    q.z = q.z * inv;
    q.w = q.w * inv;
    return q;
}

/* An animated rotation between two decoded frames: a and b are rotations
 * relative to the rest rotation (stored as x, y, z with w >= 0, so that w is
 * near 1 and rebuilt precisely); their shortest-arc lerp, applied after the
 * rest rotation, normalised: normalize(rest (a (1 - t) + b' t)), b' = +-b. */
static inline ossa_quat ossai_pack_rotation(ossa_quat rest, ossa_quat a, ossa_quat b, float t)
{
    float d = a.x * b.x;
    d = d + a.y * b.y;
    d = d + a.z * b.z;
    d = d + a.w * b.w;
    if (d < 0.0f) {
        b.x = -b.x;
        b.y = -b.y;
        b.z = -b.z;
        b.w = -b.w;
    }
    ossa_quat q;
    q.x = a.x + (b.x - a.x) * t;
    q.y = a.y + (b.y - a.y) * t;
    q.z = a.z + (b.z - a.z) * t;
    q.w = a.w + (b.w - a.w) * t;
    return ossai_pack_normalize(ossai_pack_quat_mul(rest, q));
}

#endif /* OSSA_PACKED_MATH_H */
