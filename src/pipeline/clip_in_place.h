/* clip_in_place.h - the reference a clip with root motion is compressed
 * against: the source curves with the motion the runtime plays taken out of
 * the moving joint, exact at every time the clip metric is evaluated at.
 * Pipeline-internal; docs/compression.md ("With root motion"). */
#ifndef OSSA_CLIP_IN_PLACE_H
#define OSSA_CLIP_IN_PLACE_H

#include "ossa/clip_builder.h"

/* Per joint, the track the compression is measured against: the source's
 * own, except the moving joint's, whose translation and rotation are keyed
 * (LINEAR) at every time ossai_metric_times gives for the source (clip
 * metric times: frames, three points inside each interval, source keys),
 * each key the source's pose at that time, in double, with M(t)^-1 applied
 * to the joint's model transform - M(t) as the runtime plays it
 * (ossa_clip_root_motion_at) - rounded to float. The metric's times over
 * these tracks are the same times, so the metric only ever reads keys. */
typedef struct ossai_in_place_reference {
    const ossa_raw_joint_track **by_joint; /* joint_count */
    /* The largest distance, in the clip metric at those times, between the
     * pose these tracks give and the exact one (the source's, with M(t)^-1
     * applied to the moving joint and its descendants): the keys' float
     * rounding. Model units. */
    double error;
    void *memory; /* one allocation behind it all */
} ossai_in_place_reference;

/* clip: a raw clip at its chosen rate whose root motion was extracted
 * (ossai_clip_add_tracks), its motion track as the runtime will play it
 * (packed or not); source, duration and distance as the builder has them.
 * Also rewrites the moving joint's translation and rotation at every frame
 * of the clip to the reference's keys at those times (its in-place frames
 * then agree with the motion played). A clip without a motion track gets
 * the source's tracks. OSSA_ERR_OUT_OF_MEMORY or OSSA_OK. */
ossa_result ossai_in_place_reference_make(ossa_clip *clip, const ossa_skeleton *skeleton,
                                          const ossa_raw_joint_track *const *source,
                                          double duration, const double *distance,
                                          const ossa_allocator *allocator,
                                          ossai_in_place_reference *out, ossa_error *error);
void ossai_in_place_reference_free(ossai_in_place_reference *ref,
                                   const ossa_allocator *allocator);

#endif /* OSSA_CLIP_IN_PLACE_H */
