/* ossa/clip.h - the runtime animation clip: a read-only view of blob memory.
 *
 * A clip holds a translation, rotation and scale key for every joint at
 * frame_count uniformly spaced times 0, 1/rate, ..., duration, in one of two
 * kinds (docs/blob-format.md): raw, ten float32 per joint and frame (the keys
 * of one frame lie together, so sampling one pose reads two contiguous
 * blocks), or compressed (docs/compression.md: tracks at the rest pose stored
 * nowhere, constant ones once, the others quantised per segment of frames;
 * sampling decodes the two frames it needs). Tracks whose source was STEP are
 * flagged and held, not interpolated.
 * Thread safety: read-only, any number of threads. */
#ifndef OSSA_CLIP_H
#define OSSA_CLIP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ossa_clip ossa_clip;
struct ossa_skeleton;

/* How a playhead outside [0, duration] maps into the clip. */
typedef enum ossa_wrap {
    OSSA_WRAP_LOOP = 0,  /* default: wraps around, t mod duration */
    OSSA_WRAP_CLAMP,     /* holds the first / last frame */
    OSSA_WRAP_PING_PONG, /* plays forward, then backward, then forward... */
    OSSA_WRAP_COUNT
} ossa_wrap;

/* The clip's name (UTF-8, NUL-terminated, possibly empty). */
const char *ossa_clip_name(const ossa_clip *clip);
/* Length in seconds, >= 0. A one-frame clip has duration 0. */
float ossa_clip_duration(const ossa_clip *clip);
/* Frames per second of the stored keys (frame_count - 1) / duration; 0 for a
 * one-frame clip. */
float ossa_clip_rate(const ossa_clip *clip);
/* Number of stored frames, >= 1. */
int ossa_clip_frame_count(const ossa_clip *clip);
/* Number of joints the clip animates; equals its skeleton's joint count. */
int ossa_clip_joint_count(const ossa_clip *clip);
/* Size in bytes of the clip's data (as stored in a blob). */
size_t ossa_clip_bytes(const ossa_clip *clip);
/* Whether the clip is compressed (else it holds raw float keys). Both kinds
 * sample through the same jobs. */
bool ossa_clip_is_compressed(const ossa_clip *clip);
/* Whether sampling needs the skeleton's rest pose: a compressed clip stores
 * no track that equals it, and its rotations relative to it. */
bool ossa_clip_needs_rest_pose(const ossa_clip *clip);
/* Whether the clip can play on this skeleton: the same joint count and, for
 * a compressed clip, the rest pose it was built against (by checksum;
 * ossa_blob_open checks it for the blob's skeleton). */
bool ossa_clip_fits_skeleton(const ossa_clip *clip, const struct ossa_skeleton *skeleton);
/* The largest error the builder measured against the source curves, in the
 * clip metric (ossa/clip_builder.h): model units, and the joint (-1 when no
 * joint moves) and clip time where it is. Informational: not validated. */
float ossa_clip_error(const ossa_clip *clip, int *joint, float *time_s);

/* How a clip stores its joints' tracks (each joint has three: translation,
 * rotation, scale; index OSSA_TRACK_*), for reports - why one clip
 * compresses 25:1 and another 10:1 (docs/compression.md). */
enum { OSSA_TRACK_TRANSLATION, OSSA_TRACK_ROTATION, OSSA_TRACK_SCALE, OSSA_TRACK_KINDS };
typedef struct ossa_clip_tracks {
    int animated[OSSA_TRACK_KINDS]; /* keys at every frame */
    int constant[OSSA_TRACK_KINDS]; /* one value for the whole clip (compressed only) */
    int rest[OSSA_TRACK_KINDS];     /* the skeleton's rest pose, stored nowhere (compressed only) */
    int stepped[OSSA_TRACK_KINDS];  /* of the animated ones, held from key to key (STEP) */
    int full_rotations;   /* animated rotations that store w too (compressed only) */
    int values;           /* numbers stored per frame: 3 per animated track, plus the
                             full rotations' w (raw: 10 per joint) */
    double bits_per_frame; /* their bits, the mean over the clip's frames (raw: 32 each) */
    int segments;         /* segments the frames are cut into (raw: 1) */
    int segment_frames;   /* frames per segment (at most the clip's), the last may hold
                             fewer (raw: all) */
} ossa_clip_tracks;

/* Fills *tracks for the clip, which must be valid (from a blob or the
 * builder). Every track of a raw clip is animated. Returns false, and
 * leaves *tracks alone, when clip or tracks is NULL. */
bool ossa_clip_get_tracks(const ossa_clip *clip, ossa_clip_tracks *tracks);

/* What sampling the clip at clip time t_s (in [0, duration]) reads of its
 * bytes, for measuring the memory a workload touches: up to `capacity`
 * ranges [begin[i], end[i]) of byte offsets from the clip's start, in
 * increasing order, touching ranges merged. Returns how many there are (at
 * most OSSA_CLIP_SAMPLE_RANGES; with a smaller capacity only the first
 * ones are written). */
#define OSSA_CLIP_SAMPLE_RANGES 16
int ossa_clip_sample_ranges(const ossa_clip *clip, float t_s, size_t *begin, size_t *end,
                            int capacity);

/* Maps a playhead time (any finite value, negative included) to a time in
 * [0, duration] according to the wrap mode. Playheads that are not finite map
 * to 0. */
float ossa_clip_time(ossa_wrap wrap, float duration_s, float playhead_s);

#ifdef __cplusplus
}
#endif

#endif /* OSSA_CLIP_H */
