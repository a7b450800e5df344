/* ossa/clip_builder.h - raw animation curves -> runtime clip (pipeline).
 *
 * Raw tracks are per joint (matched by name to the skeleton), with keys at
 * arbitrary non-decreasing times and STEP, LINEAR or CUBICSPLINE interpolation
 * (glTF 2.0 semantics: LINEAR rotations are slerped; CUBICSPLINE is a Hermite
 * spline with tangents scaled by the key interval). The builder evaluates
 * every curve at a uniform rate, holds values before the first and after the
 * last key, fills joints without a track from the rest pose, and reports the
 * largest error the runtime sampler makes against the source curves.
 * Times within 10 us (plus 8 float ulps of the time, for long clips) are one
 * instant: a frame that close to a key takes the key's value, and a STEP key
 * that close counts as reached. */
#ifndef OSSA_CLIP_BUILDER_H
#define OSSA_CLIP_BUILDER_H

#include "allocator.h"
#include "clip.h"
#include "math.h"
#include "result.h"
#include "skeleton.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum ossa_interpolation {
    OSSA_INTERP_LINEAR = 0, /* default */
    OSSA_INTERP_STEP,
    OSSA_INTERP_CUBICSPLINE,
    OSSA_INTERP_COUNT
} ossa_interpolation;

/* A curve of 3-vectors (translation or scale). key_count 0 means no curve. */
typedef struct ossa_raw_track3 {
    /* key_count, finite, non-decreasing: two keys at one time are a jump (the
     * curve runs into the first and, from that time on, out of the second). */
    const float *times_s;
    const ossa_float3 *values;        /* key_count */
    const ossa_float3 *in_tangents;   /* CUBICSPLINE only: key_count */
    const ossa_float3 *out_tangents;  /* CUBICSPLINE only: key_count */
    int key_count;
    ossa_interpolation interpolation;
} ossa_raw_track3;

/* A rotation curve of unit quaternions (normalised by the builder). */
typedef struct ossa_raw_track_quat {
    const float *times_s;
    const ossa_quat *values;
    const ossa_quat *in_tangents;     /* CUBICSPLINE only */
    const ossa_quat *out_tangents;    /* CUBICSPLINE only */
    int key_count;
    ossa_interpolation interpolation;
} ossa_raw_track_quat;

typedef struct ossa_raw_joint_track {
    const char *joint_name; /* matched against the skeleton's joint names */
    ossa_raw_track3 translation;
    ossa_raw_track_quat rotation;
    ossa_raw_track3 scale;
} ossa_raw_joint_track;

/* A curve of scalars - an animated property: a morph target's weight, a
 * custom property, one channel of a node - that becomes a float track of
 * the clip (ossa/tracks.h), baked at the clip's frames like the joints'
 * curves. */
typedef struct ossa_raw_float_track {
    const char *name;             /* required, non-empty, unique within the clip */
    const float *times_s;         /* key_count, finite, non-decreasing */
    const float *values;          /* key_count, finite */
    const float *in_tangents;     /* CUBICSPLINE only: key_count */
    const float *out_tangents;    /* CUBICSPLINE only: key_count */
    int key_count;                /* >= 1 */
    ossa_interpolation interpolation;
} ossa_raw_float_track;

/* A clip's float tracks (the importer's per-clip list). */
typedef struct ossa_raw_float_tracks {
    const ossa_raw_float_track *tracks;
    int count;
} ossa_raw_float_tracks;

typedef struct ossa_raw_clip {
    const char *name;        /* may be NULL (empty name) */
    float duration_s;        /* 0 means the last key time over all tracks */
    const ossa_raw_joint_track *tracks;
    int track_count;
} ossa_raw_clip;

/* What the builder does with the travel of the character (ossa/root_motion.h). */
typedef enum ossa_root_motion_mode {
    OSSA_ROOT_MOTION_KEEP = 0, /* default: the clip moves as its source does; no motion track */
    OSSA_ROOT_MOTION_EXTRACT,  /* the joint's travel on the ground and its turn about +y
                                * go into a motion track; the clip plays in place */
    OSSA_ROOT_MOTION_MODE_COUNT
} ossa_root_motion_mode;

typedef struct ossa_clip_build_options {
    /* Frames per second of the runtime keys. 0 picks the source's own key
     * rate when every key time is a multiple of a common step of 1/240 s or
     * coarser (so keys are reproduced exactly), else 30. The rate is then
     * adjusted so that a whole number of frames spans the duration. */
    float rate;
    /* More frames than this is an error (OSSA_ERR_CLIP_TOO_LARGE). 0 means
     * 1,000,000. */
    int max_frames;
    ossa_allocator allocator;
    /* Root motion (ossa/root_motion.h). With OSSA_ROOT_MOTION_EXTRACT, the
     * joint's model-space travel on the ground plane (x, z; +y is up) and
     * its turn about +y (the twist about +y of its rotation relative to
     * frame 0), measured from frame 0, become the clip's motion track M(t),
     * and the joint's local keys are rewritten so that its model transform
     * is M(t)^-1 times the source's: the clip plays in place, and the clip
     * plus the motion is the source. */
    ossa_root_motion_mode root_motion;
    /* The joint whose travel is extracted, by name (OSSA_ERR_NOT_FOUND when
     * the skeleton has no such joint). NULL: the skeleton's first root when
     * it moves or turns in this clip, else the shallowest joint (parents
     * first) that moves on the ground - the hips under a still root; no
     * motion track when nothing moves. */
    const char *root_motion_joint;
    /* Float tracks to bake into the clip (NULL, 0: none), over its frames:
     * its animated scalar channels, as the importer gives them per clip
     * (ossa_import.clip_float_tracks). */
    const ossa_raw_float_track *float_tracks;
    int float_track_count;
} ossa_clip_build_options;

typedef struct ossa_clip_build_report {
    float rate;                  /* frames per second chosen */
    int frame_count;
    float duration_s;
    /* Largest errors of the runtime sampler (nlerp) against the source.
     * Translation (model units) and scale bound the error at every time, up
     * to float rounding; rotation (degrees) is measured at keys, densely
     * inside every frame, and at each error peak located between. */
    float max_translation_error;
    float max_rotation_error_deg;
    float max_scale_error;
    int worst_joint;             /* skeleton joint of the largest error, -1 if none */
    int matched_tracks;          /* tracks whose joint exists in the skeleton */
    int unmatched_tracks;        /* tracks naming no joint (ignored) */
    const char *first_unmatched; /* one of them (points into raw), or NULL */
    /* Root motion: the joint extracted (-1: none), one loop's motion (model
     * units, radians) and how far the joint travelled on the ground over
     * the clip, summed frame to frame. */
    int root_motion_joint;
    float loop_x, loop_z, loop_yaw_rad;
    float root_travel;
    /* Float tracks stored, and their largest error against the source
     * curves (at source keys and midway between frames). */
    int float_tracks;
    float max_float_track_error;
} ossa_clip_build_report;

/* Builds *out (one allocation, freed with ossa_clip_free). report and options
 * may be NULL. Errors: OSSA_ERR_CLIP_EMPTY (no track matches a joint, or no
 * keys), OSSA_ERR_CLIP_BAD_KEYS (naming the joint and key),
 * OSSA_ERR_CLIP_TOO_LARGE. */
ossa_result ossa_clip_build(const ossa_raw_clip *raw, const ossa_skeleton *skeleton,
                            const ossa_clip_build_options *options, ossa_clip **out,
                            ossa_clip_build_report *report, ossa_error *error);

void ossa_clip_free(ossa_clip *clip, const ossa_allocator *allocator);

/* Evaluates a raw track at time t_s exactly as glTF defines it (holding before
 * the first and after the last key): the curve the builder bakes and measures
 * its error against. Tools and tests use these as the source's definition. */
ossa_float3 ossa_raw_track3_eval(const ossa_raw_track3 *track, float t_s);
ossa_quat ossa_raw_track_quat_eval(const ossa_raw_track_quat *track, float t_s);
float ossa_raw_float_track_eval(const ossa_raw_float_track *track, float t_s);

#ifdef __cplusplus
}
#endif

#endif /* OSSA_CLIP_BUILDER_H */
