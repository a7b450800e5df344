/* clip.c - accessors for the runtime clip and playhead wrapping (the clip
 * is validated by blob/validate_clip.c before anything samples it). */
#include <math.h>
#include <stddef.h>

#include "blob/format.h"
#include "ossa/blob.h"

const char *ossa_clip_name(const ossa_clip *clip)
{
    return (const char *)clip + clip->name_offset;
}

float ossa_clip_duration(const ossa_clip *clip)
{
    return clip->duration;
}

float ossa_clip_rate(const ossa_clip *clip)
{
    return clip->rate;
}

int ossa_clip_frame_count(const ossa_clip *clip)
{
    return (int)clip->frame_count;
}

int ossa_clip_joint_count(const ossa_clip *clip)
{
    return (int)clip->joint_count;
}

size_t ossa_clip_bytes(const ossa_clip *clip)
{
    return clip->bytes;
}

bool ossa_clip_is_compressed(const ossa_clip *clip)
{
    return (clip->flags & OSSAI_CLIP_PACKED) != 0;
}

bool ossa_clip_needs_rest_pose(const ossa_clip *clip)
{
    return (clip->flags & OSSAI_CLIP_USES_REST) != 0;
}

bool ossa_clip_fits_skeleton(const ossa_clip *clip, const ossa_skeleton *skeleton)
{
    const int n = ossa_skeleton_joint_count(skeleton);
    if ((int)clip->joint_count != n)
        return false;
    if (!(clip->flags & OSSAI_CLIP_PACKED))
        return true;
    return ossai_clip_packed_header(clip)->rest_crc ==
           ossa_crc32c(0, ossa_skeleton_rest_pose(skeleton), sizeof(ossa_transform) * (size_t)n);
}

float ossa_clip_error(const ossa_clip *clip, int *joint, float *time_s)
{
    if (joint)
        *joint = clip->error_joint == OSSAI_NO_ERROR_JOINT ? -1 : (int)clip->error_joint;
    if (time_s)
        *time_s = clip->error_time_s;
    return clip->error;
}

float ossa_clip_time(ossa_wrap wrap, float duration_s, float playhead_s)
{
    if (!(duration_s > 0.0f) || !isfinite(duration_s) || !isfinite(playhead_s))
        return 0.0f;
    switch (wrap) {
    case OSSA_WRAP_CLAMP:
        return playhead_s < 0.0f ? 0.0f : (playhead_s > duration_s ? duration_s : playhead_s);
    case OSSA_WRAP_PING_PONG: {
        float period = 2.0f * duration_s;
        float u = fmodf(playhead_s, period);
        if (u < 0.0f)
            u += period;
        float t = u <= duration_s ? u : period - u;
        return t < 0.0f ? 0.0f : (t > duration_s ? duration_s : t);
    }
    case OSSA_WRAP_LOOP:
    default: {
        float t = fmodf(playhead_s, duration_s);
        if (t < 0.0f)
            t += duration_s;
        /* -tiny + duration rounds to duration: that instant is the start. */
        return t >= duration_s ? 0.0f : t;
    }
    }
}
