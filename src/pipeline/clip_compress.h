/* clip_compress.h - a raw clip (float keys at a uniform rate) -> a
 * compressed clip (format.h: rest and constant tracks apart, the animated
 * components in a packed block), held to the clip metric against the source
 * curves. Pipeline-internal; docs/compression.md. */
#ifndef OSSA_CLIP_COMPRESS_H
#define OSSA_CLIP_COMPRESS_H

#include "ossa/clip_builder.h"

typedef struct ossai_compress_setup {
    const ossa_clip *raw;                       /* baked from the source at its rate */
    const ossa_skeleton *skeleton;
    const ossa_raw_joint_track *const *tracks;  /* source, per joint (NULL: rest) */
    double duration;
    const double *distance;                     /* per joint, model units */
    double tolerance;                           /* model units */
    double default_distance;                    /* recorded in the clip */
    double target;                              /* the search's bound, relative to the
                                                   tolerance; 0: the packer's default */
    int thorough;                               /* ossa_clip_build_options.compression_level */
} ossai_compress_setup;

typedef struct ossai_compress_report {
    int rest_tracks, constant_tracks, animated_tracks;
    int segment_frames, segment_count;
    double mean_width; /* bits per animated component and frame */
    double search_error; /* the search's own largest error, relative to the tolerance */
} ossai_compress_report;

/* *out is one allocation (ossa_clip_free). OSSA_ERR_OUT_OF_MEMORY,
 * OSSA_ERR_CLIP_TOO_LARGE (over 4 GiB) or OSSA_OK. */
ossa_result ossai_clip_compress(const ossai_compress_setup *setup, const ossa_allocator *allocator,
                                ossa_clip **out, ossai_compress_report *report, ossa_error *error);

#endif /* OSSA_CLIP_COMPRESS_H */
