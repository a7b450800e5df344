/* ossa/sampling_job.h - clip keys at a time -> local pose (stage 1 of the frame).
 *
 * For every character in [character_begin, character_end), maps its playhead
 * through the wrap mode and interpolates the clip's two surrounding frames:
 * translation and scale are lerped, rotation is shortest-arc nlerp (or slerp).
 * At a key's time the result equals the key; STEP tracks hold the earlier key.
 * Raw and compressed clips (ossa_clip_is_compressed) sample through the same
 * job: a compressed clip decodes only the two frames it interpolates, and
 * takes the tracks it does not store (those equal to the rest pose) from the
 * skeleton's rest pose.
 * The job holds no state and allocates nothing: characters with disjoint
 * outputs may run on different threads. */
#ifndef OSSA_SAMPLING_JOB_H
#define OSSA_SAMPLING_JOB_H

#include "clip.h"
#include "math.h"
#include "result.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum ossa_rotation_interp {
    OSSA_ROTATION_NLERP = 0, /* default: normalised lerp along the shortest arc */
    OSSA_ROTATION_SLERP,     /* spherical lerp along the shortest arc */
    OSSA_ROTATION_COUNT
} ossa_rotation_interp;

typedef struct ossa_sampling_job {
    /* Clips the characters may play: clips[0] present; the clips the
     * characters in [character_begin, character_end) play present and with
     * clips[0]'s joint count (clips no character plays are not read and
     * may be NULL). */
    const ossa_clip *const *clips;
    int clip_count;
    /* Per character: index into clips. NULL means every character plays clips[0]. */
    const uint16_t *clip_index;
    int clip_index_count;
    /* Per character: playhead in seconds, any finite value; wrapped by `wrap`.
     * character_count entries. */
    const float *time_s;
    int character_count;
    /* Characters to process: [character_begin, character_end). 0, 0 means all. */
    int character_begin;
    int character_end;
    ossa_wrap wrap;                       /* default OSSA_WRAP_LOOP */
    ossa_rotation_interp rotation_interp; /* default OSSA_ROTATION_NLERP */
    /* The skeleton's rest pose (joint_count elements): required when a
     * clip a character plays needs it (ossa_clip_needs_rest_pose), else
     * may be NULL. */
    const ossa_transform *rest_pose;
    int rest_pose_count;
    /* Output: character i's pose is output[i * joint_count + j]. Needs
     * character_count * joint_count elements. */
    ossa_transform *output;
    int output_count;
} ossa_sampling_job;

/* OSSA_OK, or the code of the first field that is wrong. */
ossa_result ossa_sampling_job_validate(const ossa_sampling_job *job);
/* Validates, then samples. Writes nothing unless the job is valid. */
ossa_result ossa_sampling_job_run(const ossa_sampling_job *job);

/* One joint of one clip at clip time t (in [0, duration], not wrapped):
 * the readable definition the job is tested against. rest_pose is the
 * skeleton's (NULL is fine unless ossa_clip_needs_rest_pose; the identity
 * then stands in). */
ossa_transform ossa_clip_sample_joint(const ossa_clip *clip, const ossa_transform *rest_pose,
                                      int joint, float t_s, ossa_rotation_interp rotation_interp);

#ifdef __cplusplus
}
#endif

#endif /* OSSA_SAMPLING_JOB_H */
