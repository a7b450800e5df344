/* validate_tracks.c - the validator of a clip's tracks block (root motion
 * and float tracks, docs/blob-format.md): every offset, count and value
 * checked, each error naming the field, before anything samples them. */
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "blob/format.h"
#include "blob/validate_internal.h"

#define FIELD(name) (int64_t)(base + offsetof(ossai_clip_tracks, name))

static ossa_result check_header(const ossa_clip *c, const ossai_clip_tracks *t, uint64_t base,
                                const char *where, ossa_error *error)
{
    if (t->tag != OSSAI_TAG_TRACKS)
        return ossa_error_set(error, OSSA_ERR_BLOB_INVARIANT, -1, FIELD(tag),
                              "%s: tracks block tag is 0x%08x, expected 'TRKS'", where, t->tag);
    if (t->bytes < sizeof *t || t->bytes > c->bytes - base)
        return ossa_error_set(error, OSSA_ERR_BLOB_TRUNCATED, -1, FIELD(bytes),
                              "%s: tracks block bytes = %u, must be %zu..%llu (to the clip's end)",
                              where, t->bytes, sizeof *t,
                              (unsigned long long)(c->bytes - base));
    if (t->frame_count != c->frame_count)
        return ossa_error_set(error, OSSA_ERR_BLOB_INVARIANT, -1, FIELD(frame_count),
                              "%s: tracks block frame_count = %u, the clip has %u frames", where,
                              t->frame_count, c->frame_count);
    if (t->flags & ~(OSSAI_TRACKS_HAS_MOTION | OSSAI_TRACKS_PACKED_MOTION))
        return ossa_error_set(error, OSSA_ERR_BLOB_INVARIANT, -1, FIELD(flags),
                              "%s: tracks block has unknown flags 0x%x", where, t->flags);
    if ((t->flags & OSSAI_TRACKS_PACKED_MOTION) && !(t->flags & OSSAI_TRACKS_HAS_MOTION))
        return ossa_error_set(error, OSSA_ERR_BLOB_INVARIANT, -1, FIELD(flags),
                              "%s: tracks block flags 0x%x: packed motion without motion",
                              where, t->flags);
    for (int k = 0; k < 5; ++k)
        if (t->reserved[k] != 0)
            return ossa_error_set(error, OSSA_ERR_BLOB_INVARIANT, -1, FIELD(reserved) + 4 * k,
                                  "%s: tracks block reserved word %d is 0x%x, not 0", where, k,
                                  t->reserved[k]);
    return OSSA_OK;
}

#define PFIELD(name) (int64_t)(at + offsetof(ossai_packed_motion, name))

/* A packed motion track: its header's fields, its bits inside the block,
 * and every frame it decodes to finite. */
static ossa_result check_packed_motion(const ossai_clip_tracks *t, uint64_t base,
                                       const char *where, ossa_error *error)
{
    ossa_result r = ossai_check_array(t->bytes, t->motion_offset, 1, sizeof(ossai_packed_motion),
                                      16, where, "packed root motion", error);
    if (r)
        return r;
    const ossai_packed_motion *p =
        (const ossai_packed_motion *)(const void *)ossai_tracks_motion(t);
    const uint64_t at = base + t->motion_offset;
    uint32_t bits = 0;
    for (int c = 0; c < 4; ++c) {
        const int last = c == 3; /* the fourth of each is 0 */
        if (!isfinite(p->loop[c]) || !isfinite(p->slope[c]) || !isfinite(p->step[c]) ||
            (last && (p->loop[c] != 0.0f || p->slope[c] != 0.0f || p->step[c] != 0.0f)))
            return ossa_error_set(error, OSSA_ERR_BLOB_INVARIANT, c, PFIELD(loop) + 4 * c,
                                  "%s: packed root motion component %d: loop %g, slope %g, "
                                  "step %g (finite, and 0 for the fourth)",
                                  where, c, (double)p->loop[c], (double)p->slope[c],
                                  (double)p->step[c]);
        if (p->width[c] > (last ? 0u : OSSAI_MOTION_MAX_WIDTH) ||
            (last && p->qmin[c] != 0) || p->qmin[c] < -(1 << 24) ||
            (int64_t)p->qmin[c] + ((int64_t)1 << p->width[c]) - 1 > ((int64_t)1 << 24))
            return ossa_error_set(error, OSSA_ERR_BLOB_INVARIANT, c, PFIELD(width) + c,
                                  "%s: packed root motion component %d: %u bits from %d steps "
                                  "(at most %u bits, residuals within 2^24 steps)",
                                  where, c, p->width[c], (int)p->qmin[c], OSSAI_MOTION_MAX_WIDTH);
        bits += p->width[c];
    }
    if (p->frame_bits != bits || bits > OSSAI_MOTION_MAX_FRAME_BITS)
        return ossa_error_set(error, OSSA_ERR_BLOB_INVARIANT, -1, PFIELD(frame_bits),
                              "%s: packed root motion frame_bits = %u, its widths add up to %u "
                              "(at most %u)",
                              where, p->frame_bits, bits, OSSAI_MOTION_MAX_FRAME_BITS);
    const uint64_t need = ((uint64_t)t->frame_count * bits + 7) / 8 + 8;
    if (p->bits_bytes != need)
        return ossa_error_set(error, OSSA_ERR_BLOB_INVARIANT, -1, PFIELD(bits_bytes),
                              "%s: packed root motion bits_bytes = %u, %u frames of %u bits "
                              "need %llu",
                              where, p->bits_bytes, t->frame_count, bits,
                              (unsigned long long)need);
    for (int k = 0; k < 5; ++k)
        if (p->reserved[k] != 0)
            return ossa_error_set(error, OSSA_ERR_BLOB_INVARIANT, -1, PFIELD(reserved) + 4 * k,
                                  "%s: packed root motion reserved word %d is 0x%x, not 0",
                                  where, k, p->reserved[k]);
    if ((r = ossai_check_array(t->bytes, t->motion_offset + (uint64_t)sizeof *p, p->bits_bytes,
                               1, 1, where, "packed root motion bits", error)))
        return r;
    for (uint32_t f = 0; f < t->frame_count; ++f) {
        float v[3];
        ossai_tracks_motion_frame(t, f, v);
        if (!isfinite(v[0]) || !isfinite(v[1]) || !isfinite(v[2]))
            return ossa_error_set(error, OSSA_ERR_BLOB_INVARIANT, (int)f, (int64_t)at,
                                  "%s: packed root motion frame %u is not finite", where, f);
    }
    return OSSA_OK;
}

static ossa_result check_motion(const ossa_clip *c, const ossai_clip_tracks *t, uint64_t base,
                                const char *where, ossa_error *error)
{
    const int has = (t->flags & OSSAI_TRACKS_HAS_MOTION) != 0;
    if (!has)
        return t->motion_offset || t->motion_joint != OSSAI_NO_JOINT
                   ? ossa_error_set(error, OSSA_ERR_BLOB_INVARIANT, -1, FIELD(motion_offset),
                                    "%s: tracks block without root motion has motion_offset %u "
                                    "and motion_joint 0x%x (expected 0 and 0xffffffff)",
                                    where, t->motion_offset, t->motion_joint)
                   : OSSA_OK;
    if (t->motion_joint >= c->joint_count)
        return ossa_error_set(error, OSSA_ERR_BLOB_INVARIANT, -1, FIELD(motion_joint),
                              "%s: root motion joint %u, the clip has %u joints", where,
                              t->motion_joint, c->joint_count);
    if (t->motion_offset < sizeof *t)
        return ossa_error_set(error, OSSA_ERR_BLOB_INVARIANT, -1, FIELD(motion_offset),
                              "%s: root motion at offset %u overlaps the tracks header", where,
                              t->motion_offset);
    if (t->flags & OSSAI_TRACKS_PACKED_MOTION)
        return check_packed_motion(t, base, where, error);
    ossa_result r = ossai_check_array(t->bytes, t->motion_offset,
                                      (uint64_t)t->frame_count * OSSAI_MOTION_C, 4, 16, where,
                                      "root motion", error);
    if (r)
        return r;
    const float *m = ossai_tracks_motion(t);
    const int64_t at = (int64_t)(base + t->motion_offset);
    for (uint32_t f = 0; f < t->frame_count; ++f) {
        const float *v = m + (size_t)f * OSSAI_MOTION_C;
        if (!isfinite(v[0]) || !isfinite(v[1]) || !isfinite(v[2]))
            return ossa_error_set(error, OSSA_ERR_BLOB_INVARIANT, (int)f, at + 16 * (int64_t)f,
                                  "%s: root motion frame %u is not finite", where, f);
        if (v[3] != 0.0f)
            return ossa_error_set(error, OSSA_ERR_BLOB_INVARIANT, (int)f,
                                  at + 16 * (int64_t)f + 12,
                                  "%s: root motion frame %u's fourth float is %g, not 0", where,
                                  f, (double)v[3]);
    }
    if (m[0] != 0.0f || m[1] != 0.0f || m[2] != 0.0f)
        return ossa_error_set(error, OSSA_ERR_BLOB_INVARIANT, 0, at,
                              "%s: root motion frame 0 is (%g, %g, %g), not (0, 0, 0)", where,
                              (double)m[0], (double)m[1], (double)m[2]);
    return OSSA_OK;
}

static ossa_result check_float_tracks(const ossai_clip_tracks *t, uint64_t base,
                                      const char *where, ossa_error *error)
{
    if (t->track_count == 0)
        return t->values_offset || t->names_offset || t->strings_offset || t->strings_bytes
                   ? ossa_error_set(error, OSSA_ERR_BLOB_INVARIANT, -1, FIELD(values_offset),
                                    "%s: tracks block without float tracks has non-zero "
                                    "values, names or strings fields",
                                    where)
                   : OSSA_OK;
    if (t->track_count > OSSAI_MAX_FLOAT_TRACKS)
        return ossa_error_set(error, OSSA_ERR_BLOB_INVARIANT, -1, FIELD(track_count),
                              "%s: track_count = %u, more than %u", where, t->track_count,
                              OSSAI_MAX_FLOAT_TRACKS);
    ossa_result r;
    if ((r = ossai_check_array(t->bytes, t->values_offset,
                               (uint64_t)t->track_count * t->frame_count, 4, 16, where,
                               "float track values", error)) ||
        (r = ossai_check_array(t->bytes, t->names_offset, t->track_count, 4, 4, where,
                               "float track names", error)) ||
        (r = ossai_check_array(t->bytes, t->strings_offset, t->strings_bytes, 1, 1, where,
                               "float track strings", error)))
        return r;
    const uint64_t header_end = sizeof *t;
    if (t->values_offset < header_end || t->names_offset < header_end ||
        t->strings_offset < header_end)
        return ossa_error_set(error, OSSA_ERR_BLOB_INVARIANT, -1, FIELD(values_offset),
                              "%s: float track arrays overlap the tracks header", where);
    const char *strings = (const char *)t + t->strings_offset;
    for (uint32_t k = 0; k < t->track_count; ++k) {
        uint32_t at;
        memcpy(&at, (const char *)t + t->names_offset + 4u * k, sizeof at);
        const int64_t field = (int64_t)(base + t->names_offset + 4u * k);
        if (at >= t->strings_bytes || !memchr(strings + at, '\0', t->strings_bytes - at))
            return ossa_error_set(error, OSSA_ERR_BLOB_INVARIANT, (int)k, field,
                                  "%s: float track %u's name at %u does not end inside the "
                                  "strings (%u bytes)",
                                  where, k, at, t->strings_bytes);
        if (strings[at] == '\0')
            return ossa_error_set(error, OSSA_ERR_BLOB_INVARIANT, (int)k, field,
                                  "%s: float track %u has an empty name", where, k);
        for (uint32_t i = 0; i < k; ++i)
            if (strcmp(ossai_tracks_name(t, i), strings + at) == 0)
                return ossa_error_set(error, OSSA_ERR_BLOB_INVARIANT, (int)k, field,
                                      "%s: float tracks %u and %u are both named '%s'", where,
                                      i, k, strings + at);
        const float *v = ossai_tracks_values(t, k);
        for (uint32_t f = 0; f < t->frame_count; ++f)
            if (!isfinite(v[f]))
                return ossa_error_set(error, OSSA_ERR_BLOB_INVARIANT, (int)k,
                                      (int64_t)(base + t->values_offset) +
                                          4 * ((int64_t)k * t->frame_count + f),
                                      "%s: float track '%s' frame %u is not finite", where,
                                      strings + at, f);
    }
    return OSSA_OK;
}

ossa_result ossai_clip_tracks_validate(const ossa_clip *c, const char *where, ossa_error *error)
{
    if (c->tracks_offset == 0)
        return OSSA_OK;
    if (c->tracks_offset < sizeof *c)
        return ossa_error_set(error, OSSA_ERR_BLOB_INVARIANT, -1,
                              (int64_t)offsetof(ossa_clip, tracks_offset),
                              "%s: tracks_offset %u overlaps the clip header", where,
                              c->tracks_offset);
    ossa_result r = ossai_check_array(c->bytes, c->tracks_offset, 1, sizeof(ossai_clip_tracks),
                                      64, where, "tracks block", error);
    if (r)
        return r;
    const ossai_clip_tracks *t = ossai_clip_tracks_of(c);
    const uint64_t base = c->tracks_offset;
    if ((r = check_header(c, t, base, where, error)) ||
        (r = check_motion(c, t, base, where, error)))
        return r;
    return check_float_tracks(t, base, where, error);
}
