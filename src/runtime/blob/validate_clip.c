/* validate_clip.c - the clip section's validator: every count, offset and
 * key checked before anything samples the clip. */
#include <math.h>
#include <stddef.h>

#include "blob/format.h"
#include "blob/validate_internal.h"

ossa_result ossa_clip_validate(const void *data, size_t bytes, const ossa_clip **out,
                               ossa_error *error)
{
    const char *where = "clip";
    ossa_result r;
    if (out)
        *out = NULL;
    if ((r = ossai_check_section_start(data, bytes, sizeof(ossa_clip), OSSAI_TAG_CLIP, where,
                                       error)))
        return r;
    const ossa_clip *c = (const ossa_clip *)data;
    if (c->joint_count == 0 || c->joint_count > OSSA_MAX_JOINTS)
        return ossa_error_set(error, OSSA_ERR_BLOB_INVARIANT, -1, 8,
                              "%s: joint_count = %u, must be 1..%d", where, c->joint_count,
                              OSSA_MAX_JOINTS);
    if (c->joint_stride != ossai_align_up(c->joint_count, OSSAI_CLIP_JOINT_ALIGN))
        return ossa_error_set(error, OSSA_ERR_BLOB_INVARIANT, -1, 12,
                              "%s: joint_stride = %u, expected %u for %u joints", where,
                              c->joint_stride,
                              ossai_align_up(c->joint_count, OSSAI_CLIP_JOINT_ALIGN),
                              c->joint_count);
    if (c->frame_count == 0)
        return ossa_error_set(error, OSSA_ERR_BLOB_INVARIANT, -1, 16,
                              "%s: frame_count is 0", where);
    const uint32_t known = (c->flags & OSSAI_CLIP_PACKED) ? OSSAI_CLIP_FLAGS : OSSAI_CLIP_HAS_STEP;
    if (c->flags & ~known)
        return ossa_error_set(error, OSSA_ERR_BLOB_INVARIANT, -1, 20,
                              "%s: unknown flags 0x%x", where, c->flags);
    if (!isfinite(c->duration) || c->duration < 0.0f || !isfinite(c->rate) || c->rate < 0.0f)
        return ossa_error_set(error, OSSA_ERR_BLOB_INVARIANT, -1, 24,
                              "%s: duration %g s / rate %g Hz is not finite and >= 0", where,
                              (double)c->duration, (double)c->rate);
    if (c->frame_count == 1 ? c->rate != 0.0f
                            : !(c->duration > 0.0f) ||
                                  fabs((double)c->rate * c->duration - (c->frame_count - 1.0)) >
                                      1e-3 * c->frame_count)
        return ossa_error_set(error, OSSA_ERR_BLOB_INVARIANT, -1, 28,
                              "%s: %u frames do not span %g s at %g Hz", where, c->frame_count,
                              (double)c->duration, (double)c->rate);
    /* One frame is one instant, as the builder writes it (a pose held for a
     * while is two or more equal frames). */
    if (c->frame_count == 1 && c->duration != 0.0f)
        return ossa_error_set(error, OSSA_ERR_BLOB_INVARIANT, -1, 24,
                              "%s: one frame lasts no time, but the duration is %g s", where,
                              (double)c->duration);
    if ((r = ossai_check_array(c->bytes, c->name_offset, c->name_bytes, 1, 1, where, "name",
                               error)))
        return r;
    if (c->name_bytes == 0 || ((const char *)c)[c->name_offset + c->name_bytes - 1] != '\0')
        return ossa_error_set(error, OSSA_ERR_BLOB_INVARIANT, -1, c->name_offset,
                              "%s: the name does not end with a NUL", where);
    if (c->flags & OSSAI_CLIP_PACKED) {
        if ((r = ossai_clip_validate_packed(c, where, error)) ||
            (r = ossai_clip_tracks_validate(c, where, error)))
            return r;
        if (out)
            *out = c;
        return OSSA_OK;
    }
    uint64_t frame_floats = (uint64_t)OSSAI_COMPONENTS * c->joint_stride;
    if ((r = ossai_check_array(c->bytes, c->frames_offset, (uint64_t)c->frame_count * frame_floats,
                               4, 64, where, "frames", error)))
        return r;
    if ((r = ossai_check_array(c->bytes, c->step_offset, c->joint_count, 1, 1, where,
                               "step flags", error)))
        return r;

    const uint8_t *steps = ossai_clip_steps(c);
    int any_step = 0;
    for (uint32_t j = 0; j < c->joint_count; ++j) {
        if (steps[j] & ~(OSSAI_STEP_T | OSSAI_STEP_R | OSSAI_STEP_S))
            return ossa_error_set(error, OSSA_ERR_BLOB_INVARIANT, (int)j,
                                  c->step_offset + (int64_t)j,
                                  "%s: joint %u has unknown step bits 0x%x", where, j, steps[j]);
        any_step |= steps[j] != 0;
    }
    if (any_step != ((c->flags & OSSAI_CLIP_HAS_STEP) != 0))
        return ossa_error_set(error, OSSA_ERR_BLOB_INVARIANT, -1, 20,
                              "%s: the step flag disagrees with the step table", where);

    const float *frames = ossai_clip_frames(c);
    const uint32_t stride = c->joint_stride;
    for (uint32_t f = 0; f < c->frame_count; ++f) {
        const float *row = frames + (uint64_t)f * frame_floats;
        for (uint64_t k = 0; k < frame_floats; ++k)
            if (!isfinite(row[k]))
                return ossa_error_set(error, OSSA_ERR_BLOB_INVARIANT,
                                      (int)(k % stride),
                                      c->frames_offset + 4 * (int64_t)(f * frame_floats + k),
                                      "%s: frame %u, joint %u has a non-finite key", where, f,
                                      (unsigned)(k % stride));
        for (uint32_t j = 0; j < c->joint_count; ++j) {
            float x = row[OSSAI_QX * stride + j], y = row[OSSAI_QY * stride + j];
            float z = row[OSSAI_QZ * stride + j], w = row[OSSAI_QW * stride + j];
            float len = sqrtf(x * x + y * y + z * z + w * w);
            if (!(fabsf(len - 1.0f) <= OSSAI_UNIT_TOLERANCE))
                return ossa_error_set(error, OSSA_ERR_BLOB_INVARIANT, (int)j,
                                      c->frames_offset +
                                          4 * (int64_t)(f * frame_floats + OSSAI_QX * stride + j),
                                      "%s: frame %u, joint %u's rotation has length %g, not 1",
                                      where, f, j, (double)len);
        }
    }
    if ((r = ossai_clip_tracks_validate(c, where, error)))
        return r;
    if (out)
        *out = c;
    return OSSA_OK;
}
