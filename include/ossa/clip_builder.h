/* ossa/clip_builder.h - raw animation curves -> runtime clip (pipeline).
 *
 * Raw tracks are per joint (matched by name to the skeleton), with keys at
 * arbitrary non-decreasing times and STEP, LINEAR or CUBICSPLINE interpolation
 * (glTF 2.0 semantics: LINEAR rotations are slerped; CUBICSPLINE is a Hermite
 * spline with tangents scaled by the key interval). The builder evaluates
 * every curve at a uniform rate chosen so that the runtime's sampling stays
 * within an error bound of the source curves (below), holds values before the
 * first and after the last key, fills joints without a track from the rest
 * pose, and reports the largest error the runtime sampler makes against the
 * source curves.
 * Times within 10 us (plus 8 float ulps of the time, for long clips) are one
 * instant: a frame that close to a key takes the key's value, and a STEP key
 * that close counts as reached. */
#ifndef OSSA_CLIP_BUILDER_H
#define OSSA_CLIP_BUILDER_H

#include <stdbool.h>

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

/* The error bound of clips, in the one metric every build decision uses (the
 * one ACL and ozz-animation use): how far, in model space, virtual points at
 * `distance` from each joint on its axes (+-x, +-y, +-z) move when the clip
 * is sampled instead of the source curves, through the whole hierarchy. It
 * is evaluated in double at every frame, midway between frames and at every
 * source key time. Lengths are in metres and converted with the skeleton's
 * units (ossa_skeleton_metres_per_unit), so a centimetre FBX and a metre glTF
 * get the same physical bound; a skeleton whose units are unknown is taken
 * to be in metres (the report says so). */
#define OSSA_CLIP_DEFAULT_TOLERANCE_M 0.0001f /* 0.1 mm */
#define OSSA_CLIP_DEFAULT_DISTANCE_M 0.03f    /* 3 cm */
/* The highest rate the automatic choice takes (Hz). */
#define OSSA_CLIP_MAX_AUTO_RATE 1000.0f
/* What the builder does with the travel of the character (ossa/root_motion.h). */
typedef enum ossa_root_motion_mode {
    OSSA_ROOT_MOTION_KEEP = 0, /* default: the clip moves as its source does; no motion track */
    OSSA_ROOT_MOTION_EXTRACT,  /* the joint's travel on the ground and its turn about +y
                                * go into a motion track; the clip plays in place */
    OSSA_ROOT_MOTION_MODE_COUNT
} ossa_root_motion_mode;

typedef struct ossa_clip_build_options {
    /* Frames per second of the runtime keys. 0 (default) chooses it per clip:
     * starting from the source's own key rate (the smallest whole rate <= 240
     * Hz, or the reciprocal of a common key step, that puts every key on a
     * frame; else 30), raised to a multiple of itself >= 24 Hz, then to
     * higher multiples until uniform keys are within the tolerance (up to
     * OSSA_CLIP_MAX_AUTO_RATE; if none is, the one with the smallest error,
     * and the report says the tolerance is not met). A rate given here is
     * used as it is and its error is reported. Either way the rate is then
     * adjusted so that a whole number of frames spans the duration. */
    float rate;
    /* The error bound in metres, measured at distance_m from each joint (see
     * above). 0 means OSSA_CLIP_DEFAULT_TOLERANCE_M / _DISTANCE_M. */
    float tolerance_m;
    float distance_m;
    /* Per skeleton joint (joint_distance_count entries, model units), a
     * distance at which that joint's points are measured instead when it is
     * larger: the reach of a rigid mesh the joint carries (ossa build gives
     * each joint that carries one the largest |x| + |y| + |z| of its
     * vertices in the joint's space, so the six points' octahedron holds
     * the whole mesh). NULL: distance_m for every joint. */
    const float *joint_distances;
    int joint_distance_count;
    /* More frames than this is an error (OSSA_ERR_CLIP_TOO_LARGE). 0 means
     * 1,000,000. */
    int max_frames;
    /* Store raw float keys (ten per joint and frame) instead of compressing
     * (the default: docs/compression.md). Raw clips are larger and sample
     * the resampled keys exactly; both kinds sample through the same jobs.
     * Root motion and float tracks are kept with either kind (a compressed
     * clip packs its motion track; float tracks stay f32). */
    bool raw;
    /* The compressor's effort: 0 (default) raises the bits of the component
     * whose error weighs most on the worst joint; 1 measures every
     * candidate first (about 1 % smaller, two to three times slower). */
    int compression_level;
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
    float key_rate;              /* the rate the source's keys asked for (see options.rate) */
    bool keys_on_grid;           /* every source key time is on a frame of key_rate */
    int rates_tried;             /* rates measured by the automatic choice (1 when given) */
    /* The metric (model units): the bound asked for, the distance of the
     * points, and the largest error measured, at which joint and time. */
    float tolerance;
    float distance;
    bool units_assumed_metres;   /* the skeleton's units are unknown */
    float error;
    int error_joint;             /* skeleton joint, -1 if no joint moves */
    float error_time_s;
    bool within_tolerance;       /* error <= tolerance */
    /* Compression (all 0 for a raw clip): the resampled keys' own error, the
     * tracks stored nowhere (the rest pose), once (constant) and at every
     * frame, the segment length and the mean bits per animated component
     * and frame; and the clip's bytes (either kind). */
    bool compressed;
    float resample_error;
    int rest_tracks, constant_tracks, animated_tracks;
    int segment_frames;
    float mean_bits;
    size_t bytes;
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

struct ossa_raw_mesh;
/* The reach of rigid meshes, for ossa_clip_build_options.joint_distances:
 * for every mesh with one skin joint (it moves with that joint; a skinned
 * mesh is left to the default distance), raises reach[joint] to the largest
 * |x| + |y| + |z| of its vertices in the joint's bind space. reach has the
 * skeleton's joint count of entries (start them at 0). Returns the number of
 * joints whose reach rose from 0. */
int ossa_clip_rigid_mesh_reach(const ossa_skeleton *skeleton, const struct ossa_raw_mesh *meshes,
                               int mesh_count, float *reach);

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
