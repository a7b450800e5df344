/* clip_in_place.h - the reference a clip with root motion is compressed
 * against: its raw frames after the motion was taken out (clip_tracks.c),
 * read back as curves through every frame. Pipeline-internal;
 * docs/compression.md. */
#ifndef OSSA_CLIP_IN_PLACE_H
#define OSSA_CLIP_IN_PLACE_H

#include "ossa/clip_builder.h"

/* Per joint, a track whose keys are the raw clip's frames (LINEAR, or STEP
 * where the clip holds), at the times the builder placed them. */
typedef struct ossai_in_place_reference {
    ossa_raw_joint_track *tracks;        /* joint_count */
    const ossa_raw_joint_track **by_joint; /* joint_count, pointing into tracks */
    void *memory;                        /* one allocation behind it all */
} ossai_in_place_reference;

/* raw: a raw clip (not compressed). OSSA_ERR_OUT_OF_MEMORY or OSSA_OK. */
ossa_result ossai_in_place_reference_make(const ossa_clip *raw, const ossa_allocator *allocator,
                                          ossai_in_place_reference *out, ossa_error *error);
void ossai_in_place_reference_free(ossai_in_place_reference *ref,
                                   const ossa_allocator *allocator);

#endif /* OSSA_CLIP_IN_PLACE_H */
