/* packed_clip_support.h - a compressed clip written byte by byte from
 * docs/blob-format.md (blob_layout.h), for the tests that decode it and
 * corrupt it: 20 joints whose translations are animated (60 components),
 * 65 frames in 9 segments of 8 (the last short), segment ranges, every
 * width from 0 to 23 bits in every position, random ranges and bits; the
 * rotations and scales are the rest pose. And the documented decoder. */
#ifndef OSSA_PACKED_CLIP_SUPPORT_H
#define OSSA_PACKED_CLIP_SUPPORT_H

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "blob_layout.h"
#include "ossa/ossa.h"
#include "test_support.h"

#define PC_JOINTS 20
#define PC_CHUNKS 2
#define PC_N (3 * PC_JOINTS) /* every joint's translation animated */
#define PC_SHIFT 3        /* segments of 8 frames */
#define PC_SEGMENTS 9
#define PC_FRAMES (8 * PC_SEGMENTS - 3) /* the last segment is short */
#define PC_RATE 24.0f

/* The documented decode of component k at frame f: the segment's range and
 * width, then lo + q * step, each operation in the documented order. */
static inline float pc_decode(const unsigned char *clip, const tl_clip_packed *p, int k, int f)
{
    const tl_packed_block *b = &p->block;
    const int s = f >> PC_SHIFT, i = f - (s << PC_SHIFT);
    const unsigned char *data = clip + b->seg_data_offset + (size_t)s * 3 * PC_N;
    const tl_packed_segment *seg = TL_CAT(tl_packed_segment, clip, b->segments_offset) + s;
    uint64_t bit = (uint64_t)seg->byte_offset * 8 + (uint64_t)i * seg->frame_bits;
    for (int c = 0; c < k; ++c)
        bit += data[c];
    const uint32_t w = data[k];
    uint32_t q = 0;
    for (uint32_t x = 0; x < w; ++x, ++bit)
        q |= (uint32_t)(clip[b->bits_offset + bit / 8] >> (bit % 8) & 1u) << x;
    const float *ranges = TL_CAT(float, clip, b->ranges_offset);
    const float inv255 = 1.0f / 255.0f;
    const float a = (float)data[PC_N + k] * inv255;
    const float lo = ranges[k] + ranges[PC_N + k] * a;
    const float e = (float)data[2 * PC_N + k] * inv255;
    const float extent = ranges[PC_N + k] * e;
    const float step = extent * ldexpf(1.0f, -(int)w);
    return lo + (float)q * step;
}

/* The clip: joint j's translation x, y, z are components of chunk j / 16, in
 * record order (kind T, then x, y, z, then the chunk's joints). */
static inline int pc_component_of(int j, int axis)
{
    const int chunk = j / 16, first = chunk * 16;
    const int in_chunk = PC_JOINTS - first < 16 ? PC_JOINTS - first : 16;
    return 3 * first + axis * in_chunk + (j - first);
}

static inline unsigned char *pc_make_clip(ts_rng *rng, const ossa_skeleton *sk, size_t *bytes_out)
{
    const size_t packed_at = 64, masks_at = packed_at + 80, ranges_at = masks_at + 6 * PC_CHUNKS * 2;
    const size_t segments_at = ranges_at + 8 * PC_N, seg_data_at = segments_at + 8 * PC_SEGMENTS;
    const size_t bits_at = seg_data_at + (size_t)PC_SEGMENTS * 3 * PC_N;
    uint8_t bit_widths[PC_SEGMENTS][PC_N];
    size_t bits_bytes = 0;
    for (int s = 0; s < PC_SEGMENTS; ++s) {
        uint32_t frame_bits = 0;
        for (int k = 0; k < PC_N; ++k) {
            bit_widths[s][k] = (uint8_t)((k + 7 * s) % 24); /* every width, in every position */
            frame_bits += bit_widths[s][k];
        }
        const int frames = s + 1 < PC_SEGMENTS ? 8 : PC_FRAMES - 8 * s;
        bits_bytes += ((size_t)frame_bits * (size_t)frames + 7) / 8;
    }
    bits_bytes += 8; /* the padding */
    const size_t name_at = bits_at + bits_bytes;
    const size_t total = (name_at + 8 + 15) / 16 * 16;
    unsigned char *c = aligned_alloc(64, (total + 63) / 64 * 64);
    memset(c, 0, total);
    tl_clip *h = TL_AT(tl_clip, c, 0);
    h->tag = TL_TAG('C', 'L', 'I', 'P');
    h->bytes = (uint32_t)total;
    h->joint_count = PC_JOINTS;
    h->joint_stride = 16 * PC_CHUNKS;
    h->frame_count = PC_FRAMES;
    h->flags = TL_CLIP_COMPRESSED | TL_CLIP_USES_REST;
    h->duration = (float)(PC_FRAMES - 1) / PC_RATE;
    h->rate = PC_RATE;
    h->frames_offset = (uint32_t)packed_at;
    h->name_offset = (uint32_t)name_at;
    h->name_bytes = 6;
    h->error_joint = 0xFFFFFFFFu;
    memcpy(c + name_at, "bits!", 6);
    tl_clip_packed *p = TL_AT(tl_clip_packed, c, packed_at);
    p->masks_offset = (uint32_t)masks_at;
    p->constants_offset = (uint32_t)ranges_at; /* no constants */
    p->rest_crc = ossa_crc32c(0, ossa_skeleton_rest_pose(sk), sizeof(ossa_transform) * PC_JOINTS);
    uint16_t *masks = TL_AT(uint16_t, c, masks_at);
    masks[0 * PC_CHUNKS + 0] = 0xFFFF; /* anim T, chunk 0 */
    masks[0 * PC_CHUNKS + 1] = 0x000F; /* anim T, chunk 1: joints 16..19 */
    tl_packed_block *b = &p->block;
    b->component_count = PC_N;
    b->segment_shift = PC_SHIFT;
    b->segment_count = PC_SEGMENTS;
    b->flags = 1; /* segment ranges */
    b->ranges_offset = (uint32_t)ranges_at;
    b->segments_offset = (uint32_t)segments_at;
    b->seg_data_offset = (uint32_t)seg_data_at;
    b->bits_offset = (uint32_t)bits_at;
    b->bits_bytes = (uint32_t)bits_bytes;
    float *ranges = TL_AT(float, c, ranges_at);
    for (int k = 0; k < PC_N; ++k) {
        ranges[k] = (float)ts_uniform(rng, -2.0, 2.0);
        ranges[PC_N + k] = (float)ts_uniform(rng, 0.0, 3.0);
    }
    tl_packed_segment *seg = TL_AT(tl_packed_segment, c, segments_at);
    size_t at = 0;
    for (int s = 0; s < PC_SEGMENTS; ++s) {
        unsigned char *data = c + seg_data_at + (size_t)s * 3 * PC_N;
        uint32_t frame_bits = 0;
        for (int k = 0; k < PC_N; ++k) {
            data[k] = bit_widths[s][k];
            data[PC_N + k] = (unsigned char)ts_int(rng, 200);
            data[2 * PC_N + k] = (unsigned char)ts_int(rng, 256);
            frame_bits += bit_widths[s][k];
        }
        seg[s].byte_offset = (uint32_t)at;
        seg[s].frame_bits = frame_bits;
        const int frames = s + 1 < PC_SEGMENTS ? 8 : PC_FRAMES - 8 * s;
        at += ((size_t)frame_bits * (size_t)frames + 7) / 8;
    }
    for (size_t i = 0; i + 8 < bits_bytes; ++i)
        c[bits_at + i] = (unsigned char)ts_u32(rng);
    *bytes_out = total;
    return c;
}

#endif /* OSSA_PACKED_CLIP_SUPPORT_H */
