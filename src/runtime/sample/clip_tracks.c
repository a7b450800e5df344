/* clip_tracks.c - ossa_clip_get_tracks: how a clip stores its tracks (which
 * are animated, constant or at the rest pose, and the bits a frame takes),
 * read from the compressed clip's joint masks and segment table. */
#include <string.h>

#include "blob/format.h"
#include "ossa/clip.h"

_Static_assert((int)OSSA_TRACK_TRANSLATION == (int)OSSAI_KIND_T &&
                   (int)OSSA_TRACK_ROTATION == (int)OSSAI_KIND_R &&
                   (int)OSSA_TRACK_SCALE == (int)OSSAI_KIND_S &&
                   (int)OSSA_TRACK_KINDS == (int)OSSAI_KINDS,
               "the public track kinds are the format's");

/* Fills the counts of a compressed clip from its joint masks. */
static void packed_tracks(const ossa_clip *clip, ossa_clip_tracks *t)
{
    const ossai_clip_packed *p = ossai_clip_packed_header(clip);
    const ossai_packed_block *b = &p->block;
    const uint16_t *masks = (const uint16_t *)(const void *)((const char *)clip + p->masks_offset);
    const uint32_t chunks = clip->joint_stride / OSSAI_CHUNK;
    const int steps = (clip->flags & OSSAI_CLIP_HAS_STEP) != 0;
    for (uint32_t k = 0; k < chunks; ++k) {
        for (int kind = 0; kind < OSSAI_KINDS; ++kind) {
            t->animated[kind] += ossai_mask_count(masks[(OSSAI_MASK_ANIM + kind) * chunks + k]);
            t->constant[kind] += ossai_mask_count(masks[(OSSAI_MASK_CONST + kind) * chunks + k]);
            if (steps)
                t->stepped[kind] += ossai_mask_count(masks[(OSSAI_MASK_STEP + kind) * chunks + k]);
        }
        if (clip->flags & OSSAI_CLIP_FULL_ROTATIONS)
            t->full_rotations +=
                ossai_mask_count(masks[ossai_mask_full_row(clip->flags) * chunks + k]);
    }
    for (int kind = 0; kind < OSSAI_KINDS; ++kind)
        t->rest[kind] = (int)clip->joint_count - t->animated[kind] - t->constant[kind];
    t->values = (int)b->component_count;
    if (!b->component_count)
        return; /* nothing animated: no segments, no bits */
    t->segments = (int)b->segment_count;
    const uint32_t span = 1u << b->segment_shift;
    t->segment_frames = (int)(span < clip->frame_count ? span : clip->frame_count);
    /* every frame of segment s takes its frame_bits; the last segment may be short */
    const ossai_packed_segment *seg =
        (const ossai_packed_segment *)(const void *)((const char *)clip + b->segments_offset);
    double bits = 0.0;
    for (uint32_t s = 0; s < b->segment_count; ++s) {
        const uint32_t first = s << b->segment_shift;
        const uint32_t left = clip->frame_count - first;
        bits += (double)seg[s].frame_bits * (double)(left < span ? left : span);
    }
    t->bits_per_frame = bits / (double)clip->frame_count;
}

bool ossa_clip_get_tracks(const ossa_clip *clip, ossa_clip_tracks *tracks)
{
    if (!clip || !tracks)
        return false;
    ossa_clip_tracks t;
    memset(&t, 0, sizeof t);
    if (clip->flags & OSSAI_CLIP_PACKED) {
        packed_tracks(clip, &t);
    } else {
        const uint8_t *step =
            (clip->flags & OSSAI_CLIP_HAS_STEP) ? (const uint8_t *)clip + clip->step_offset : NULL;
        static const uint8_t bit[OSSAI_KINDS] = {OSSAI_STEP_T, OSSAI_STEP_R, OSSAI_STEP_S};
        for (int kind = 0; kind < OSSAI_KINDS; ++kind) {
            t.animated[kind] = (int)clip->joint_count;
            for (uint32_t j = 0; step && j < clip->joint_count; ++j)
                t.stepped[kind] += (step[j] & bit[kind]) != 0;
        }
        t.values = 10 * (int)clip->joint_count;
        t.bits_per_frame = 32.0 * t.values;
        t.segments = 1;
        t.segment_frames = (int)clip->frame_count;
    }
    *tracks = t;
    return true;
}
