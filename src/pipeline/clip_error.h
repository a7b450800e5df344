/* clip_error.h - the largest error a built clip's runtime sampling makes
 * against the source curves it was built from, in the clip metric
 * (clip_metric.h). Pipeline-internal. */
#ifndef OSSA_CLIP_ERROR_H
#define OSSA_CLIP_ERROR_H

#include "clip_metric.h"
#include "ossa/clip_builder.h"

typedef struct ossai_clip_error {
    double error;  /* model units; 0 when no joint moves */
    int joint;     /* joint of the largest error, -1 if none */
    double time_s; /* where it is */
} ossai_clip_error;

/* Samples the clip with the runtime (ossa_sampling_job, nlerp, at float
 * times, a whole pose at a time) at every time of ossai_metric_times and compares with the source
 * pose through the skeleton's hierarchy, joint j's points at distance[j]
 * model units.
 * tracks[j] is the source track of joint j or NULL (rest pose); duration_s is
 * the duration the clip was built for. OSSA_ERR_OUT_OF_MEMORY, the sampling
 * job's error (a clip that does not fit the skeleton), or OSSA_OK. */
ossa_result ossai_clip_error_measure(const ossa_clip *clip, const ossa_skeleton *skeleton,
                                     const ossa_raw_joint_track *const *tracks,
                                     double duration_s, const double *distance,
                                     const ossa_allocator *allocator, ossai_clip_error *out);

#endif /* OSSA_CLIP_ERROR_H */
