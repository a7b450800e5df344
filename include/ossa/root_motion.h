/* ossa/root_motion.h - root motion: how far a clip carries its character
 * over the ground, and the jobs that give each character the motion between
 * two playheads (the plain reference job and the lane job it is tested
 * against).
 *
 * The clip builder can extract a joint's horizontal travel and its turn
 * about the up axis (+y in model space) into a motion track, leaving the
 * clip in place (ossa/clip_builder.h). The track holds M(t), the motion from
 * clip time 0 to clip time t: M(0) is no motion, M(duration) is one loop's
 * motion L. A playhead that has gone round the loop n times and is at clip
 * time t has moved its character by L^n M(t); the motion between two
 * playheads u0 and u1 (any finite values, u1 < u0 playing backwards) is
 *     M(u0)^-1 L^(n1 - n0) M(u1),
 * expressed in the character's frame at u0: a game adds it to the root
 * transform it keeps, frame after frame, and the character moves by its own
 * stride however fast, backwards or across how many loop ends it plays.
 *
 * A motion is a rigid move on the ground: a translation (x, z) in model
 * units, then nothing else, and a turn yaw_rad about +y, the rotation
 * (x, z) -> (x cos a + z sin a, -x sin a + z cos a) (ossa_crowd's placement
 * yaw). Thread safety: read-only clips; the jobs hold no state. */
#ifndef OSSA_ROOT_MOTION_H
#define OSSA_ROOT_MOTION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "clip.h"
#include "math.h"
#include "result.h"
#include "simd.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A move on the ground plane: translate by (x, 0, z) in the frame of the
 * start, turn by yaw_rad about +y. The zeroed value is no motion. */
typedef struct ossa_root_motion {
    float x, z;
    float yaw_rad;
} ossa_root_motion;

/* ---- a clip's motion track ---- */

/* Whether the clip carries a motion track (clips built without root motion
 * extraction, and one-frame clips, do not: they do not move). */
bool ossa_clip_has_root_motion(const ossa_clip *clip);
/* The joint the motion was extracted from, -1 without a motion track. */
int ossa_clip_root_motion_joint(const ossa_clip *clip);
/* Bytes its motion track takes in the clip (0 without one); *packed (when
 * not NULL) tells whether it is packed - a compressed clip's - or raw
 * floats. */
size_t ossa_clip_root_motion_bytes(const ossa_clip *clip, bool *packed);
/* M(t): the motion from clip time 0 to clip time t_s, clamped to
 * [0, duration]; the track's two frames around t_s interpolated linearly
 * (yaw included: the stored yaw is continuous, it never wraps). No motion
 * for a clip without a track. */
ossa_root_motion ossa_clip_root_motion_at(const ossa_clip *clip, float t_s);
/* L = M(duration): one loop's motion. */
ossa_root_motion ossa_clip_loop_motion(const ossa_clip *clip);

/* ---- motion arithmetic ---- */

/* a, then b expressed in the frame a ends in. */
ossa_root_motion ossa_root_motion_compose(ossa_root_motion a, ossa_root_motion b);
/* The motion that undoes m. */
ossa_root_motion ossa_root_motion_inverse(ossa_root_motion m);
/* m weighted: each component times w (blending layers adds weighted
 * motions). */
ossa_root_motion ossa_root_motion_scale(ossa_root_motion m, float w);
/* A placement (position on the ground, heading about +y) moved by m: the
 * translation turned by the heading, then the turn. y is kept. */
void ossa_root_motion_apply(ossa_root_motion m, ossa_float3 *position, float *yaw_rad);
/* The affine matrix of m (a rotation about +y, then the translation). */
ossa_mat34 ossa_root_motion_matrix(ossa_root_motion m);

/* ---- the jobs ---- */

/* For every character in [character_begin, character_end): the motion of
 * its clip between its two playheads from_s[i] and to_s[i] (seconds, any
 * finite values; looping), M(from)^-1 L^n M(to) as above. Clips without a
 * motion track give no motion. */
typedef struct ossa_root_motion_job {
    /* Clips the characters play. Required, >= 1; those a character in the
     * job's range plays present (no other is read or checked). */
    const ossa_clip *const *clips;
    int clip_count;
    /* Per character: index into clips. NULL means every character plays clips[0]. */
    const uint16_t *clip_index;
    int clip_index_count;
    /* Per character: the playheads the motion runs between, finite
     * (OSSA_ERR_BAD_VALUE otherwise). character_count entries each. */
    const float *from_s;
    const float *to_s;
    int character_count;
    /* Characters to process: [character_begin, character_end). 0, 0 means all. */
    int character_begin;
    int character_end;
    /* Output: character i's motion at output[i]; character_count entries. */
    ossa_root_motion *output;
    int output_count;
} ossa_root_motion_job;

/* OSSA_OK, or the code of the first field that is wrong. */
ossa_result ossa_root_motion_job_validate(const ossa_root_motion_job *job);
/* Validates, then runs. Writes nothing unless the job is valid. */
ossa_result ossa_root_motion_job_run(const ossa_root_motion_job *job);

/* The same for characters in SIMD lanes (ossa/lanes.h): batches of `width`
 * characters, the interpolation and trigonometry of W characters per
 * vector. Results equal the reference job's up to float rounding (the lane
 * code evaluates sine and cosine by polynomial). */
typedef struct ossa_lane_root_motion_job {
    const ossa_clip *const *clips; /* required, >= 1 */
    int clip_count;
    const uint16_t *clip_index;    /* per character; NULL: every one plays clips[0] */
    int clip_index_count;
    const float *from_s;           /* per character, finite */
    const float *to_s;             /* per character, finite */
    int character_count;           /* required, >= 1 */
    int width;                     /* lanes per batch: 4, 8, 16; 0 means ossa_lane_width() */
    int batch_begin;               /* batches [batch_begin, batch_end); 0, 0 means all */
    int batch_end;
    ossa_simd_path path;           /* default OSSA_SIMD_AUTO */
    ossa_root_motion *output;      /* per character: character_count entries */
    int output_count;
} ossa_lane_root_motion_job;

ossa_result ossa_lane_root_motion_job_validate(const ossa_lane_root_motion_job *job);
ossa_result ossa_lane_root_motion_job_run(const ossa_lane_root_motion_job *job);

#ifdef __cplusplus
}
#endif

#endif /* OSSA_ROOT_MOTION_H */
