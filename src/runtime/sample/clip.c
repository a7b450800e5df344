/* clip.c - accessors for the runtime clip, playhead wrapping and the bytes a
 * sample reads (the clip is validated by blob/validate_clip.c before
 * anything samples it). */
#include <math.h>
#include <stddef.h>

#include "blob/format.h"
#include "ossa/blob.h"
#include "sample/sampling_internal.h"

const char *ossa_clip_name(const ossa_clip *clip)
{
    return (const char *)clip + clip->name_offset;
}

float ossa_clip_duration(const ossa_clip *clip)
{
    return clip->duration;
}

float ossa_clip_rate(const ossa_clip *clip)
{
    return clip->rate;
}

int ossa_clip_frame_count(const ossa_clip *clip)
{
    return (int)clip->frame_count;
}

int ossa_clip_joint_count(const ossa_clip *clip)
{
    return (int)clip->joint_count;
}

size_t ossa_clip_bytes(const ossa_clip *clip)
{
    return clip->bytes;
}

bool ossa_clip_is_compressed(const ossa_clip *clip)
{
    return (clip->flags & OSSAI_CLIP_PACKED) != 0;
}

bool ossa_clip_needs_rest_pose(const ossa_clip *clip)
{
    return (clip->flags & OSSAI_CLIP_USES_REST) != 0;
}

bool ossa_clip_fits_skeleton(const ossa_clip *clip, const ossa_skeleton *skeleton)
{
    const int n = ossa_skeleton_joint_count(skeleton);
    if ((int)clip->joint_count != n)
        return false;
    if (!(clip->flags & OSSAI_CLIP_PACKED))
        return true;
    return ossai_clip_packed_header(clip)->rest_crc ==
           ossa_crc32c(0, ossa_skeleton_rest_pose(skeleton), sizeof(ossa_transform) * (size_t)n);
}

float ossa_clip_error(const ossa_clip *clip, int *joint, float *time_s)
{
    if (joint)
        *joint = clip->error_joint == OSSAI_NO_ERROR_JOINT ? -1 : (int)clip->error_joint;
    if (time_s)
        *time_s = clip->error_time_s;
    return clip->error;
}

float ossa_clip_time(ossa_wrap wrap, float duration_s, float playhead_s)
{
    if (!(duration_s > 0.0f) || !isfinite(duration_s) || !isfinite(playhead_s))
        return 0.0f;
    switch (wrap) {
    case OSSA_WRAP_CLAMP:
        return playhead_s < 0.0f ? 0.0f : (playhead_s > duration_s ? duration_s : playhead_s);
    case OSSA_WRAP_PING_PONG: {
        float period = 2.0f * duration_s;
        float u = fmodf(playhead_s, period);
        if (u < 0.0f)
            u += period;
        float t = u <= duration_s ? u : period - u;
        return t < 0.0f ? 0.0f : (t > duration_s ? duration_s : t);
    }
    case OSSA_WRAP_LOOP:
    default: {
        if (playhead_s >= 0.0f && playhead_s < duration_s)
            return playhead_s; /* fmodf's own answer, without the call (a crowd's playheads) */
        float t = fmodf(playhead_s, duration_s);
        if (t < 0.0f)
            t += duration_s;
        /* -tiny + duration rounds to duration: that instant is the start. */
        return t >= duration_s ? 0.0f : t;
    }
    }
}

/* ---- what a sample reads (ossa_clip_sample_ranges) ---- */

typedef struct byte_ranges {
    size_t begin[OSSA_CLIP_SAMPLE_RANGES], end[OSSA_CLIP_SAMPLE_RANGES];
    int count;
} byte_ranges;

static void add_range(byte_ranges *r, size_t begin, size_t bytes)
{
    if (bytes == 0 || r->count == OSSA_CLIP_SAMPLE_RANGES)
        return;
    r->begin[r->count] = begin;
    r->end[r->count] = begin + bytes;
    r->count++;
}

/* The bytes of frame f of a compressed clip: its segment's entry, widths
 * and ranges, and its values' bits. */
static void add_packed_frame(byte_ranges *r, const ossa_clip *clip, uint32_t f)
{
    const ossai_packed_block *b = &ossai_clip_packed_header(clip)->block;
    const uint32_t s = f >> b->segment_shift, i = f - (s << b->segment_shift);
    const size_t per = (size_t)b->component_count *
                       ((b->flags & OSSAI_PACK_SEGMENT_RANGES) ? 3u : 1u);
    const ossai_packed_segment *seg =
        (const ossai_packed_segment *)(const void *)((const char *)clip + b->segments_offset) + s;
    add_range(r, b->segments_offset + (size_t)s * sizeof *seg, sizeof *seg);
    add_range(r, b->seg_data_offset + (size_t)s * per, per);
    const uint64_t bit = (uint64_t)seg->byte_offset * 8u + (uint64_t)i * seg->frame_bits;
    add_range(r, b->bits_offset + (size_t)(bit >> 3),
              (size_t)((bit + seg->frame_bits + 7u) >> 3) - (size_t)(bit >> 3));
}

int ossa_clip_sample_ranges(const ossa_clip *clip, float t_s, size_t *begin, size_t *end,
                            int capacity)
{
    byte_ranges r;
    r.count = 0;
    add_range(&r, 0, sizeof *clip);
    uint32_t f0;
    float alpha;
    ossai_clip_locate(clip, t_s, &f0, &alpha);
    const uint32_t f1 = clip->frame_count > 1 ? f0 + 1 : f0;
    if (clip->flags & OSSAI_CLIP_PACKED) {
        const ossai_clip_packed *p = ossai_clip_packed_header(clip);
        const ossai_packed_block *b = &p->block;
        add_range(&r, clip->frames_offset, sizeof *p);
        add_range(&r, p->masks_offset,
                  sizeof(uint16_t) * ossai_mask_rows(clip->flags) * (clip->joint_stride / OSSAI_CHUNK));
        add_range(&r, p->constants_offset, sizeof(float) * (size_t)p->constant_count);
        if (b->component_count) {
            add_range(&r, b->ranges_offset, 2 * sizeof(float) * (size_t)b->component_count);
            add_packed_frame(&r, clip, f0);
            add_packed_frame(&r, clip, f1);
        }
    } else {
        const size_t frame = sizeof(float) * ossai_clip_frame_floats(clip);
        add_range(&r, clip->frames_offset + (size_t)f0 * frame, frame);
        add_range(&r, clip->frames_offset + (size_t)f1 * frame, frame);
        if (clip->flags & OSSAI_CLIP_HAS_STEP)
            add_range(&r, clip->step_offset, clip->joint_count);
    }
    /* in order of their start, then touching or overlapping ones merged */
    for (int i = 1; i < r.count; ++i)
        for (int j = i; j > 0 && r.begin[j] < r.begin[j - 1]; --j) {
            const size_t b0 = r.begin[j], e0 = r.end[j];
            r.begin[j] = r.begin[j - 1], r.end[j] = r.end[j - 1];
            r.begin[j - 1] = b0, r.end[j - 1] = e0;
        }
    int n = 0;
    for (int i = 0; i < r.count; ++i) {
        if (n > 0 && r.begin[i] <= r.end[n - 1]) {
            if (r.end[i] > r.end[n - 1])
                r.end[n - 1] = r.end[i];
            continue;
        }
        r.begin[n] = r.begin[i], r.end[n] = r.end[i];
        n++;
    }
    for (int i = 0; i < n && i < capacity; ++i) {
        begin[i] = r.begin[i];
        end[i] = r.end[i];
    }
    return n;
}
