/* clip_error.h - the largest error a built clip's runtime sampling makes
 * against the source curves it was built from. Pipeline-internal. */
#ifndef OSSA_CLIP_ERROR_H
#define OSSA_CLIP_ERROR_H

#include "ossa/clip_builder.h"

typedef struct ossai_clip_error {
    double translation;  /* model units */
    double rotation_deg; /* degrees */
    double scale;        /* absolute, per component */
    int worst_joint;     /* joint of the largest relative error, -1 if none */
} ossai_clip_error;

/* tracks[j] is the source track of the clip's joint j, or NULL when the joint
 * holds its rest pose (no error). duration_s is the duration the clip was
 * built for (its frames span it uniformly). */
ossai_clip_error ossai_clip_error_measure(const ossa_clip *clip,
                                          const ossa_raw_joint_track *const *tracks,
                                          double duration_s);

#endif /* OSSA_CLIP_ERROR_H */
