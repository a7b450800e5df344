/* skin_pack.h - the packed vertex format (OSSA_SKIN_FORMAT_PACKED) as every
 * kernel writes it: float3 position, then the normal and the tangent as
 * signed normalised 10:10:10:2 words.
 *
 * A component c becomes u = round(511 clamp(c, -1, 1) + 512), in [1, 1023]:
 * the field of round(511 c) in two's complement is u with bit 9 flipped
 * (u - 512 = q gives u = q + 512 = q ^ 0x200 in ten bits). So a word is
 *   u_x | u_y << 10 | u_z << 20, XOR bit 9 of each field (OSSAI_PACK_FLIP),
 * and the three fields never carry into each other: no masking needed.
 * Rounding is to nearest, ties to even, as the SIMD conversions do. The
 * tangent's bits 30-31 hold its handedness: 01 for +1, 10 for -1 (-2 as a
 * two-bit snorm, which OpenGL 4.2+, Vulkan and D3D clamp to -1, and which
 * the older OpenGL rule (2c + 1) / 3 also maps to -1). */
#ifndef OSSA_SKIN_PACK_H
#define OSSA_SKIN_PACK_H

#include <stdint.h>
#include <string.h>

#define OSSAI_PACK_SCALE 511.0f
#define OSSAI_PACK_BIAS 512.0f
#define OSSAI_PACK_FLIP 0x20080200u         /* bit 9 of each of the three fields */
#define OSSAI_PACK_HAND_PLUS 0x40000000u    /* bits 30-31 = 01: handedness +1 */
#define OSSAI_PACK_HAND_MINUS 0x80000000u   /* bits 30-31 = 10: handedness -1 */

/* Bytes of a packed vertex: float3 position + one word per direction. */
#define OSSAI_PACKED_BYTES(tangents) ((tangents) ? 20u : 16u)

/* u for one component (a NaN clamps to -1, as the SIMD max does). */
static inline uint32_t ossai_pack_field(float c)
{
    float x = c > -1.0f ? c : -1.0f;
    x = x < 1.0f ? x : 1.0f;
    const float v = x * OSSAI_PACK_SCALE + OSSAI_PACK_BIAS; /* in [1, 1023] */
    /* Adding and taking off 2^23 rounds a value in [0, 2^23) to an integer,
     * to nearest even, in the default rounding mode (no fast-math here). */
    const float r = (v + 8388608.0f) - 8388608.0f;
    return (uint32_t)r;
}

/* The word of a direction (x, y, z) with handedness bits `hand` (0 for a
 * normal). */
static inline uint32_t ossai_pack_direction(const float *xyz, uint32_t hand)
{
    return (ossai_pack_field(xyz[0]) | ossai_pack_field(xyz[1]) << 10 |
            ossai_pack_field(xyz[2]) << 20) ^ OSSAI_PACK_FLIP ^ hand;
}

/* Handedness bits from the tangent's w (+-1 in a valid mesh: its sign). */
static inline uint32_t ossai_pack_hand(float w)
{
    return w < 0.0f ? OSSAI_PACK_HAND_MINUS : OSSAI_PACK_HAND_PLUS;
}

/* Writes one packed vertex from its float4 attributes (position, normal,
 * tangent when `tangents`) at dst, which is 4-byte aligned. */
static inline void ossai_pack_vertex(unsigned char *dst, const float *position,
                                     const float *normal, const float *tangent, int tangents)
{
    uint32_t words[2];
    memcpy(dst, position, 12);
    words[0] = ossai_pack_direction(normal, 0);
    if (tangents)
        words[1] = ossai_pack_direction(tangent, ossai_pack_hand(tangent[3]));
    memcpy(dst + 12, words, tangents ? 8 : 4);
}

#endif /* OSSA_SKIN_PACK_H */
