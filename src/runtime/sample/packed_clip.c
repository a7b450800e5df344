/* packed_clip.c - the reference decoder of compressed clips (format.h): the
 * two frames around a clip time, chunk by chunk in record order, each value
 * with packed_math.h's arithmetic, then interpolated as the lanes do. */
#include "sample/packed_clip.h"

#include <string.h>

#include "blob/format.h"
#include "core/math_internal.h"
#include "sample/packed_math.h"
#include "sample/sampling_internal.h"

/* Asks for the lines of [p, p + bytes) without waiting for them. */
static void prefetch(const void *p, size_t bytes)
{
    const uintptr_t end = (uintptr_t)p + bytes;
    for (uintptr_t c = (uintptr_t)p & ~(uintptr_t)63; c < end; c += 64)
        __builtin_prefetch((const void *)c);
}

void ossai_packed_prefetch(const ossa_clip *clip, uint32_t f0, bool whole)
{
    const ossai_clip_packed *p = ossai_clip_packed_header(clip);
    const ossai_packed_block *b = &p->block;
    const uint32_t n = b->component_count;
    const char *base = (const char *)clip;
    if (whole) {
        prefetch(base + p->masks_offset, sizeof(uint16_t) * ossai_mask_rows(clip->flags) *
                                             (clip->joint_stride / OSSAI_CHUNK));
        prefetch(base + p->constants_offset, sizeof(float) * p->constant_count);
        if (n)
            prefetch(base + b->ranges_offset, 2 * sizeof(float) * n);
    }
    if (!n)
        return;
    const uint32_t f1 = clip->frame_count > 1 ? f0 + 1 : f0;
    const size_t seg_bytes = (b->flags & OSSAI_PACK_SEGMENT_RANGES) ? 3u * n : n;
    const ossai_packed_segment *segments =
        (const ossai_packed_segment *)(const void *)(base + b->segments_offset);
    const uint8_t *bits = (const uint8_t *)base + b->bits_offset;
    const uint32_t s0 = f0 >> b->segment_shift, s1 = f1 >> b->segment_shift;
    const ossai_packed_frame at = ossai_packed_frame_at(clip, b, f0);
    prefetch(at.width, seg_bytes);
    /* in one segment the two frames' bits lie end to end */
    const uint32_t frames = s1 == s0 ? f1 - f0 + 1u : 1u;
    prefetch(bits + at.bit / 8u, frames * segments[s0].frame_bits / 8u + 8u);
    if (s1 != s0) {
        const ossai_packed_frame next = ossai_packed_frame_at(clip, b, f1);
        prefetch(next.width, seg_bytes);
        prefetch(bits + next.bit / 8u, segments[s1].frame_bits / 8u + 8u);
    }
}

/* Component k's value at the cursor's frame; the cursor moves past it. */
static float next_value(const ossa_clip *clip, const ossai_packed_block *b, ossai_packed_frame *c,
                        uint32_t k)
{
    const float *ranges = (const float *)(const void *)((const char *)clip + b->ranges_offset);
    const uint32_t w = c->width[k];
    float lo, step;
    ossai_pack_range(ranges[k], ranges[b->component_count + k], c->smin ? c->smin[k] : 0u,
                     c->sext ? c->sext[k] : 255u, w, &lo, &step);
    const uint8_t *bits = (const uint8_t *)clip + b->bits_offset;
    const uint32_t q = ossai_pack_read(bits, c->bit, w);
    c->bit += w;
    return ossai_pack_value(lo, step, q);
}

static void skip_value(ossai_packed_frame *c, uint32_t k)
{
    c->bit += c->width[k];
}

void ossai_packed_sample(const ossa_clip *clip, const ossa_transform *rest, float t_s,
                         ossa_rotation_interp interp, int first, int count, ossa_transform *out)
{
    const ossai_clip_packed *p = ossai_clip_packed_header(clip);
    const ossai_packed_block *b = &p->block;
    const uint32_t joints = clip->joint_count, chunks = clip->joint_stride / OSSAI_CHUNK;
    const int has_step = (clip->flags & OSSAI_CLIP_HAS_STEP) != 0;
    const int has_full = (clip->flags & OSSAI_CLIP_FULL_ROTATIONS) != 0;
    const uint32_t full_row = ossai_mask_full_row(clip->flags);
    const uint16_t *masks = (const uint16_t *)(const void *)((const char *)clip + p->masks_offset);
    const float *constants = (const float *)(const void *)((const char *)clip + p->constants_offset);
    uint32_t f0;
    float alpha;
    ossai_clip_locate(clip, t_s, &f0, &alpha);
    const int two = b->component_count > 0;
    ossai_packed_frame ca, cb;
    memset(&ca, 0, sizeof ca);
    memset(&cb, 0, sizeof cb);
    if (two) {
        ca = ossai_packed_frame_at(clip, b, f0);
        cb = ossai_packed_frame_at(clip, b, clip->frame_count > 1 ? f0 + 1 : f0);
    }
    const float held = ossai_step_alpha(alpha);
    uint32_t k = 0, ci = 0;
    for (uint32_t chunk = 0; chunk < chunks; ++chunk) {
        const uint32_t j0 = chunk * OSSAI_CHUNK;
        const int wanted = (int)j0 < first + count && (int)(j0 + OSSAI_CHUNK) > first;
        /* the chunk's values: [joint][kind][component] of frames a and b */
        float va[OSSAI_CHUNK][3][4], vb[OSSAI_CHUNK][3][4];
        const uint32_t full = has_full ? masks[full_row * chunks + chunk] : 0u;
        for (int kind = 0; kind < OSSAI_KINDS; ++kind) {
            const uint32_t anim = masks[(OSSAI_MASK_ANIM + kind) * chunks + chunk];
            const uint32_t still = masks[(OSSAI_MASK_CONST + kind) * chunks + chunk];
            for (int c = 0; c < (kind == OSSAI_KIND_R ? 4 : 3); ++c)
                for (uint32_t j = 0; j < OSSAI_CHUNK; ++j) {
                    /* x y z of animated tracks; w of full rotations */
                    const uint32_t stored = c < 3 ? anim : full;
                    if (stored >> j & 1u) {
                        if (wanted) {
                            va[j][kind][c] = next_value(clip, b, &ca, k);
                            vb[j][kind][c] = next_value(clip, b, &cb, k);
                        } else {
                            skip_value(&ca, k);
                            skip_value(&cb, k);
                        }
                        ++k;
                    } else if (still >> j & 1u) {
                        va[j][kind][c] = vb[j][kind][c] = constants[ci++];
                    }
                }
        }
        if (!wanted)
            continue;
        for (uint32_t j = 0; j < OSSAI_CHUNK; ++j) {
            const int joint = (int)(j0 + j);
            if (joint < first || joint >= first + count || joint >= (int)joints)
                continue;
            static const ossa_transform identity = {{0, 0, 0}, {0, 0, 0, 1}, {1, 1, 1}};
            const ossa_transform *r = rest ? &rest[joint] : &identity;
            ossa_transform x;
            float *dst[3] = {&x.translation.x, &x.rotation.x, &x.scale.x};
            for (int kind = 0; kind < OSSAI_KINDS; ++kind) {
                const uint32_t anim = masks[(OSSAI_MASK_ANIM + kind) * chunks + chunk] >> j & 1u;
                const uint32_t still = masks[(OSSAI_MASK_CONST + kind) * chunks + chunk] >> j & 1u;
                const uint32_t step =
                    has_step ? masks[(OSSAI_MASK_STEP + kind) * chunks + chunk] >> j & 1u : 0u;
                const float a = step ? held : alpha;
                if (!anim && !still) {
                    if (kind == OSSAI_KIND_T)
                        x.translation = r->translation;
                    else if (kind == OSSAI_KIND_R)
                        x.rotation = r->rotation;
                    else
                        x.scale = r->scale;
                } else if (kind == OSSAI_KIND_R && !anim) {
                    const ossa_quat q = {va[j][1][0], va[j][1][1], va[j][1][2], va[j][1][3]};
                    x.rotation = q;
                } else if (kind == OSSAI_KIND_R) {
                    ossa_quat qa = {va[j][1][0], va[j][1][1], va[j][1][2], 0.0f};
                    ossa_quat qb = {vb[j][1][0], vb[j][1][1], vb[j][1][2], 0.0f};
                    if (full >> j & 1u) {
                        qa.w = va[j][1][3];
                        qb.w = vb[j][1][3];
                    } else {
                        qa.w = ossai_pack_rotation_w(qa.x, qa.y, qa.z);
                        qb.w = ossai_pack_rotation_w(qb.x, qb.y, qb.z);
                    }
                    if (interp == OSSA_ROTATION_SLERP)
                        x.rotation = ossai_pack_normalize(
                            ossai_pack_quat_mul(r->rotation, ossai_quat_slerp(qa, qb, a)));
                    else
                        x.rotation = ossai_pack_rotation(r->rotation, qa, qb, a);
                } else {
                    for (int c = 0; c < 3; ++c)
                        dst[kind][c] = anim ? ossai_pack_lerp(va[j][kind][c], vb[j][kind][c], a)
                                            : va[j][kind][c];
                }
            }
            out[joint - first] = x;
        }
    }
}
