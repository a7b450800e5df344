/* clip_oracle.h - the clip metric as the packer's error function
 * (clip_pack.h) for joint clips: windows of decoded frames are sampled as
 * the runtime will (packed_math.h) at the metric's times, carried through
 * the hierarchy and compared with the source curves, incrementally: a
 * change to one joint's track recomputes its subtree only. Pipeline-internal. */
#ifndef OSSA_CLIP_ORACLE_H
#define OSSA_CLIP_ORACLE_H

#include "clip_metric.h"
#include "clip_pack.h"

/* How a joint's track (kind T, R or S of format.h) is stored. */
enum { OSSAI_TRACK_REST, OSSAI_TRACK_CONST, OSSAI_TRACK_ANIM };

typedef struct ossai_joint_layout {
    int joint_count;
    int component_count;       /* animated components, record order */
    int track_count;           /* animated tracks */
    uint8_t *state;            /* [j * 3 + kind]: OSSAI_TRACK_* */
    uint8_t *step;             /* [j * 3 + kind]: the track holds (STEP) */
    uint8_t *full;             /* [j * 3 + kind]: an animated rotation that stores its w */
    float *constant;           /* [(j * 3 + kind) * 4 + c]: a constant track's x y z (w) */
    int *component;            /* [(j * 3 + kind) * 4 + c]: an animated track's components
                                  (c = 3: the w of a full rotation) */
    int *track;                /* [j * 3 + kind]: its track number, or -1 */
    int *track_joint;          /* per track */
    int *track_kind;
} ossai_joint_layout;

typedef struct ossai_joint_oracle ossai_joint_oracle;

typedef struct ossai_oracle_setup {
    const ossai_joint_layout *layout;
    const ossa_skeleton *skeleton;
    const ossa_raw_joint_track *const *tracks; /* source, per joint (NULL: rest) */
    double duration;
    int frame_count;
    float rate;            /* as the clip stores it */
    const double *distance; /* per joint, model units */
    double tolerance;      /* model units */
} ossai_oracle_setup;

/* NULL when out of memory. */
ossai_joint_oracle *ossai_joint_oracle_make(const ossai_oracle_setup *setup,
                                            const ossa_allocator *allocator);
void ossai_joint_oracle_free(ossai_joint_oracle *oracle);
/* The packer's view of it. */
ossai_pack_oracle ossai_joint_oracle_view(ossai_joint_oracle *oracle);

/* The frame pair and factor the runtime uses at time t (ossai_clip_locate
 * of sampling_internal.h, for a clip not yet built). */
void ossai_oracle_locate(int frame_count, float rate, float t, int *f0, float *alpha);

#endif /* OSSA_CLIP_ORACLE_H */
