/* validate_packed.c - the compressed clip's part of the clip validator: the
 * packed header, the joint masks, the constants and the packed block (every
 * width, offset, segment and range), so that sampling any time of a clip
 * that passes reads only inside it and decodes finite numbers. */
#include <math.h>
#include <stddef.h>

#include "blob/format.h"
#include "blob/validate_internal.h"

/* Stored and decoded values stay below this in magnitude, so that no range
 * sum (lo + q * step <= |clip_min| + clip_extent) overflows. */
#define VALUE_LIMIT OSSAI_PACK_VALUE_LIMIT
/* A rotation component of a valid clip lies in [-1, 1]; its range may reach
 * further (rounded outwards, and stretched by up to 2 where one bit's top
 * value must reach the largest), never this far. */
#define ROTATION_LIMIT 4.0f

#define FIELD(name) ((int64_t)clip->frames_offset + (int64_t)offsetof(ossai_clip_packed, name))
#define BLOCK(name)                                                                             \
    ((int64_t)clip->frames_offset + (int64_t)offsetof(ossai_clip_packed, block) +               \
     (int64_t)offsetof(ossai_packed_block, name))

static ossa_result check_masks(const ossa_clip *clip, const ossai_clip_packed *p,
                               uint32_t *components, uint32_t *constants, int *uses_rest,
                               const char *where, ossa_error *error)
{
    const uint32_t chunks = clip->joint_stride / OSSAI_CHUNK;
    const uint16_t *m = (const uint16_t *)(const void *)((const char *)clip + p->masks_offset);
    const int has_step = (clip->flags & OSSAI_CLIP_HAS_STEP) != 0;
    const int has_full = (clip->flags & OSSAI_CLIP_FULL_ROTATIONS) != 0;
    const uint32_t full_row = ossai_mask_full_row(clip->flags);
    int any_step = 0, any_full = 0;
    *components = *constants = 0;
    *uses_rest = 0;
    for (uint32_t k = 0; k < chunks; ++k) {
        const uint32_t j0 = k * OSSAI_CHUNK;
        const uint32_t live = clip->joint_count - j0 >= OSSAI_CHUNK
                                  ? 0xFFFFu
                                  : (1u << (clip->joint_count - j0)) - 1u;
        const uint32_t full = has_full ? m[full_row * chunks + k] : 0u;
        if (full & ~m[(OSSAI_MASK_ANIM + OSSAI_KIND_R) * chunks + k])
            return ossa_error_set(error, OSSA_ERR_BLOB_INVARIANT, (int)j0,
                                  p->masks_offset + 2 * (int64_t)(full_row * chunks + k),
                                  "%s: chunk %u stores w for a rotation that is not animated",
                                  where, k);
        any_full |= full != 0;
        *components += (uint32_t)ossai_mask_count(full);
        for (int kind = 0; kind < OSSAI_KINDS; ++kind) {
            const uint32_t anim = m[(OSSAI_MASK_ANIM + kind) * chunks + k];
            const uint32_t still = m[(OSSAI_MASK_CONST + kind) * chunks + k];
            const uint32_t step = has_step ? m[(OSSAI_MASK_STEP + kind) * chunks + k] : 0u;
            const int64_t at = p->masks_offset + 2 * (int64_t)((OSSAI_MASK_ANIM + kind) * chunks + k);
            if ((anim | still | step) & ~live)
                return ossa_error_set(error, OSSA_ERR_BLOB_INVARIANT, (int)j0, at,
                                      "%s: joint masks of chunk %u name joints past the last",
                                      where, k);
            if (anim & still)
                return ossa_error_set(error, OSSA_ERR_BLOB_INVARIANT, (int)j0, at,
                                      "%s: chunk %u has tracks both animated and constant", where,
                                      k);
            if (step & ~anim)
                return ossa_error_set(error, OSSA_ERR_BLOB_INVARIANT, (int)j0, at,
                                      "%s: chunk %u holds (STEP) a track that is not animated",
                                      where, k);
            any_step |= step != 0;
            *components += 3u * (uint32_t)ossai_mask_count(anim);
            *constants += (kind == OSSAI_KIND_R ? 4u : 3u) * (uint32_t)ossai_mask_count(still);
            *uses_rest |= (live & ~(anim | still)) != 0 || (kind == OSSAI_KIND_R && anim != 0);
        }
    }
    if (has_step && !any_step)
        return ossa_error_set(error, OSSA_ERR_BLOB_INVARIANT, -1, 20,
                              "%s: the step flag is set but no track holds", where);
    if (has_full && !any_full)
        return ossa_error_set(error, OSSA_ERR_BLOB_INVARIANT, -1, 20,
                              "%s: the full-rotation flag is set but no rotation stores w", where);
    return OSSA_OK;
}

/* The constants: finite, each constant rotation of length 1. */
static ossa_result check_constants(const ossa_clip *clip, const ossai_clip_packed *p,
                                   const char *where, ossa_error *error)
{
    const uint32_t chunks = clip->joint_stride / OSSAI_CHUNK;
    const uint16_t *m = (const uint16_t *)(const void *)((const char *)clip + p->masks_offset);
    const float *c = (const float *)(const void *)((const char *)clip + p->constants_offset);
    uint32_t at = 0;
    for (uint32_t k = 0; k < chunks; ++k)
        for (int kind = 0; kind < OSSAI_KINDS; ++kind) {
            const uint32_t still = m[(OSSAI_MASK_CONST + kind) * chunks + k];
            const int comps = kind == OSSAI_KIND_R ? 4 : 3;
            const uint32_t first = at;
            for (int i = 0; i < comps * ossai_mask_count(still); ++i, ++at)
                if (!isfinite(c[at]) || fabsf(c[at]) > VALUE_LIMIT)
                    return ossa_error_set(error, OSSA_ERR_BLOB_INVARIANT, -1,
                                          p->constants_offset + 4 * (int64_t)at,
                                          "%s: constant %u is not finite or too large", where,
                                          at);
            if (kind != OSSAI_KIND_R)
                continue;
            /* a rotation's components are rows x, y, z, w of the chunk's
             * constant rotations */
            const int count = ossai_mask_count(still);
            for (int r = 0; r < count; ++r) {
                float len2 = 0.0f;
                for (int comp = 0; comp < 4; ++comp) {
                    const float v = c[first + (uint32_t)(comp * count + r)];
                    len2 += v * v;
                }
                if (!(fabsf(sqrtf(len2) - 1.0f) <= OSSAI_UNIT_TOLERANCE))
                    return ossa_error_set(error, OSSA_ERR_BLOB_INVARIANT, -1,
                                          p->constants_offset + 4 * (int64_t)(first + (uint32_t)r),
                                          "%s: constant rotation %d of chunk %u has length %g, "
                                          "not 1",
                                          where, r, k, (double)sqrtf(len2));
            }
        }
    return OSSA_OK;
}

/* The block: arrays in bounds, widths, frame bits, each segment's frames
 * inside the bits, ranges finite and bounded. */
static ossa_result check_block(const ossa_clip *clip, const ossai_clip_packed *p,
                               uint32_t components, const char *where, ossa_error *error)
{
    const ossai_packed_block *b = &p->block;
    const uint32_t n = b->component_count;
    ossa_result r;
    if (n != components)
        return ossa_error_set(error, OSSA_ERR_BLOB_INVARIANT, -1, BLOCK(component_count),
                              "%s: component_count = %u, the masks animate %u", where, n,
                              components);
    for (int i = 0; i < 3; ++i)
        if (b->reserved[i])
            return ossa_error_set(error, OSSA_ERR_BLOB_INVARIANT, -1, BLOCK(reserved),
                                  "%s: the packed block's reserved words are not 0", where);
    if (n == 0) {
        if (b->segment_shift || b->segment_count || b->flags || b->ranges_offset ||
            b->segments_offset || b->seg_data_offset || b->bits_offset || b->bits_bytes)
            return ossa_error_set(error, OSSA_ERR_BLOB_INVARIANT, -1, BLOCK(segment_shift),
                                  "%s: a block of no component has segments or data", where);
        return OSSA_OK;
    }
    if (b->segment_shift > OSSAI_PACK_MAX_SHIFT)
        return ossa_error_set(error, OSSA_ERR_BLOB_INVARIANT, -1, BLOCK(segment_shift),
                              "%s: segment_shift = %u, at most %u", where, b->segment_shift,
                              OSSAI_PACK_MAX_SHIFT);
    const uint64_t per = (uint64_t)1 << b->segment_shift;
    const uint64_t segments = (clip->frame_count + per - 1) / per;
    if (b->segment_count != segments)
        return ossa_error_set(error, OSSA_ERR_BLOB_INVARIANT, -1, BLOCK(segment_count),
                              "%s: segment_count = %u, %u frames in segments of %llu make %llu",
                              where, b->segment_count, clip->frame_count,
                              (unsigned long long)per, (unsigned long long)segments);
    if (b->flags & ~OSSAI_PACK_SEGMENT_RANGES)
        return ossa_error_set(error, OSSA_ERR_BLOB_INVARIANT, -1, BLOCK(flags),
                              "%s: unknown packed block flags 0x%x", where, b->flags);
    const uint64_t stride = (uint64_t)n * ((b->flags & OSSAI_PACK_SEGMENT_RANGES) ? 3u : 1u);
    if ((r = ossai_check_array(clip->bytes, b->ranges_offset, 2 * (uint64_t)n, 4, 4, where,
                               "component ranges", error)) ||
        (r = ossai_check_array(clip->bytes, b->segments_offset, segments,
                               sizeof(ossai_packed_segment), 4, where, "segment table", error)) ||
        (r = ossai_check_array(clip->bytes, b->seg_data_offset, segments * stride, 1, 1, where,
                               "segment widths and ranges", error)) ||
        (r = ossai_check_array(clip->bytes, b->bits_offset, b->bits_bytes, 1, 1, where, "bits",
                               error)))
        return r;
    if (b->bits_bytes < OSSAI_PACK_PADDING || b->bits_bytes > (UINT32_MAX >> 3))
        return ossa_error_set(error, OSSA_ERR_BLOB_INVARIANT, -1, BLOCK(bits_bytes),
                              "%s: bits_bytes = %u, must be %u..%u (padding included)", where,
                              b->bits_bytes, OSSAI_PACK_PADDING, UINT32_MAX >> 3);
    /* ranges: finite, extents >= 0, values bounded; a rotation component
     * (record order: per chunk T, R (with the w of full rotations), S)
     * within ROTATION_LIMIT */
    const float *mins = (const float *)(const void *)((const char *)clip + b->ranges_offset);
    const float *exts = mins + n;
    const uint32_t chunks = clip->joint_stride / OSSAI_CHUNK;
    const uint16_t *m = (const uint16_t *)(const void *)((const char *)clip + p->masks_offset);
    uint32_t k = 0;
    const uint32_t full_row = ossai_mask_full_row(clip->flags);
    for (uint32_t ch = 0; ch < chunks; ++ch)
        for (int kind = 0; kind < OSSAI_KINDS; ++kind) {
            uint32_t count =
                3u * (uint32_t)ossai_mask_count(m[(OSSAI_MASK_ANIM + kind) * chunks + ch]);
            if (kind == OSSAI_KIND_R && (clip->flags & OSSAI_CLIP_FULL_ROTATIONS))
                count += (uint32_t)ossai_mask_count(m[full_row * chunks + ch]);
            const float limit = kind == OSSAI_KIND_R ? ROTATION_LIMIT : VALUE_LIMIT;
            for (uint32_t i = 0; i < count; ++i, ++k) {
                const float lo = mins[k], e = exts[k];
                if (!isfinite(lo) || !isfinite(e) || !(e >= 0.0f) || lo < -limit ||
                    lo + e > limit)
                    return ossa_error_set(error, OSSA_ERR_BLOB_INVARIANT, -1,
                                          b->ranges_offset + 4 * (int64_t)k,
                                          "%s: component %u's range [%g, %g + %g] is not finite "
                                          "or leaves [-%g, %g]",
                                          where, k, (double)lo, (double)lo, (double)e,
                                          (double)limit, (double)limit);
            }
        }
    const ossai_packed_segment *seg =
        (const ossai_packed_segment *)(const void *)((const char *)clip + b->segments_offset);
    const uint8_t *data = (const uint8_t *)clip + b->seg_data_offset;
    const uint64_t usable_bits = (uint64_t)(b->bits_bytes - OSSAI_PACK_PADDING) * 8u;
    for (uint64_t s = 0; s < segments; ++s) {
        const uint8_t *w = data + s * stride;
        uint64_t sum = 0;
        for (uint32_t c = 0; c < n; ++c) {
            if (w[c] > OSSAI_PACK_MAX_BITS)
                return ossa_error_set(error, OSSA_ERR_BLOB_INVARIANT, (int)s,
                                      b->seg_data_offset + (int64_t)(s * stride + c),
                                      "%s: segment %llu, component %u is %u bits wide, at most "
                                      "%u",
                                      where, (unsigned long long)s, c, w[c],
                                      OSSAI_PACK_MAX_BITS);
            sum += w[c];
        }
        const int64_t at = b->segments_offset + (int64_t)(s * sizeof(ossai_packed_segment));
        if (seg[s].frame_bits != sum)
            return ossa_error_set(error, OSSA_ERR_BLOB_INVARIANT, (int)s, at + 4,
                                  "%s: segment %llu has frame_bits = %u, its widths sum to %llu",
                                  where, (unsigned long long)s, seg[s].frame_bits,
                                  (unsigned long long)sum);
        const uint64_t frames = s + 1 < segments ? per : clip->frame_count - s * per;
        if ((uint64_t)seg[s].byte_offset * 8u + frames * sum > usable_bits)
            return ossa_error_set(error, OSSA_ERR_BLOB_INVARIANT, (int)s, at,
                                  "%s: segment %llu's %llu frames of %llu bits at byte %u run "
                                  "past the %u bytes of bits",
                                  where, (unsigned long long)s, (unsigned long long)frames,
                                  (unsigned long long)sum, seg[s].byte_offset, b->bits_bytes);
    }
    return OSSA_OK;
}

ossa_result ossai_clip_validate_packed(const ossa_clip *clip, const char *where,
                                       ossa_error *error)
{
    ossa_result r;
    if (clip->step_offset != 0)
        return ossa_error_set(error, OSSA_ERR_BLOB_INVARIANT, -1, 36,
                              "%s: a compressed clip has step_offset %u, not 0", where,
                              clip->step_offset);
    if ((r = ossai_check_array(clip->bytes, clip->frames_offset, 1, sizeof(ossai_clip_packed), 16,
                               where, "compressed header", error)))
        return r;
    const ossai_clip_packed *p = ossai_clip_packed_header(clip);
    if (p->extension_offset || p->reserved)
        return ossa_error_set(error, OSSA_ERR_BLOB_INVARIANT, -1, FIELD(extension_offset),
                              "%s: extension_offset / reserved are not 0", where);
    if (!isfinite(p->tolerance) || p->tolerance < 0.0f || !isfinite(p->distance) ||
        p->distance < 0.0f)
        return ossa_error_set(error, OSSA_ERR_BLOB_INVARIANT, -1, FIELD(tolerance),
                              "%s: tolerance %g / distance %g is not finite and >= 0", where,
                              (double)p->tolerance, (double)p->distance);
    const uint32_t rows = ossai_mask_rows(clip->flags);
    const uint32_t chunks = clip->joint_stride / OSSAI_CHUNK;
    if ((r = ossai_check_array(clip->bytes, p->masks_offset, (uint64_t)rows * chunks, 2, 2,
                               where, "joint masks", error)))
        return r;
    uint32_t components, constants;
    int uses_rest;
    if ((r = check_masks(clip, p, &components, &constants, &uses_rest, where, error)))
        return r;
    if (uses_rest != ((clip->flags & OSSAI_CLIP_USES_REST) != 0))
        return ossa_error_set(error, OSSA_ERR_BLOB_INVARIANT, -1, 20,
                              "%s: the rest-pose flag disagrees with the joint masks", where);
    if (p->constant_count != constants)
        return ossa_error_set(error, OSSA_ERR_BLOB_INVARIANT, -1, FIELD(constant_count),
                              "%s: constant_count = %u, the masks hold %u", where,
                              p->constant_count, constants);
    if ((r = ossai_check_array(clip->bytes, p->constants_offset, constants, 4, 4, where,
                               "constants", error)) ||
        (r = check_constants(clip, p, where, error)))
        return r;
    return check_block(clip, p, components, where, error);
}
