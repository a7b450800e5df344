/* root_motion.c - a clip's motion track read (M(t), the loop's motion) and
 * the arithmetic of moves on the ground: compose, invert, apply. */
#include "ossa/root_motion.h"

#include <math.h>

#include "motion/motion_internal.h"

bool ossa_clip_has_root_motion(const ossa_clip *clip)
{
    return ossai_clip_motion(clip) != NULL;
}

int ossa_clip_root_motion_joint(const ossa_clip *clip)
{
    return ossai_clip_motion(clip) ? (int)ossai_clip_tracks_of(clip)->motion_joint : -1;
}

size_t ossa_clip_root_motion_bytes(const ossa_clip *clip, bool *packed)
{
    const ossai_clip_tracks *t = ossai_clip_motion(clip);
    const bool is_packed = t && (t->flags & OSSAI_TRACKS_PACKED_MOTION);
    if (packed)
        *packed = is_packed;
    if (!t)
        return 0;
    if (!is_packed)
        return (size_t)t->frame_count * OSSAI_MOTION_C * sizeof(float);
    const ossai_packed_motion *p =
        (const ossai_packed_motion *)(const void *)ossai_tracks_motion(t);
    return sizeof *p + p->bits_bytes;
}

static inline float lerp_exact(float a, float b, float t)
{
    return a * (1.0f - t) + b * t;
}

ossa_root_motion ossa_clip_root_motion_at(const ossa_clip *clip, float t_s)
{
    const ossai_clip_tracks *m = ossai_clip_motion(clip);
    ossa_root_motion out = {0.0f, 0.0f, 0.0f};
    if (!m || !(t_s == t_s))
        return out;
    const float t = t_s < 0.0f ? 0.0f : (t_s > clip->duration ? clip->duration : t_s);
    float alpha, a[3], b[3];
    const uint32_t f = ossai_motion_locate(t, clip->rate, clip->frame_count, &alpha);
    ossai_tracks_motion_frame(m, f, a);
    ossai_tracks_motion_frame(m, f + 1, b);
    out.x = lerp_exact(a[0], b[0], alpha);
    out.z = lerp_exact(a[1], b[1], alpha);
    out.yaw_rad = lerp_exact(a[2], b[2], alpha);
    return out;
}

ossa_root_motion ossa_clip_loop_motion(const ossa_clip *clip)
{
    const ossai_clip_tracks *m = ossai_clip_motion(clip);
    ossa_root_motion out = {0.0f, 0.0f, 0.0f};
    if (m) {
        float last[3];
        ossai_tracks_motion_frame(m, clip->frame_count - 1, last);
        out.x = last[0];
        out.z = last[1];
        out.yaw_rad = last[2];
    }
    return out;
}

/* v turned by angle a about +y (x, z) -> (x c + z s, -x s + z c). */
static inline void turn(float a, float x, float z, float *ox, float *oz)
{
    const float c = cosf(a), s = sinf(a);
    *ox = x * c + z * s;
    *oz = z * c - x * s;
}

ossa_root_motion ossa_root_motion_compose(ossa_root_motion a, ossa_root_motion b)
{
    float x, z;
    turn(a.yaw_rad, b.x, b.z, &x, &z);
    return (ossa_root_motion){a.x + x, a.z + z, a.yaw_rad + b.yaw_rad};
}

ossa_root_motion ossa_root_motion_inverse(ossa_root_motion m)
{
    float x, z;
    turn(-m.yaw_rad, m.x, m.z, &x, &z);
    return (ossa_root_motion){-x, -z, -m.yaw_rad};
}

ossa_root_motion ossa_root_motion_scale(ossa_root_motion m, float w)
{
    return (ossa_root_motion){m.x * w, m.z * w, m.yaw_rad * w};
}

void ossa_root_motion_apply(ossa_root_motion m, ossa_float3 *position, float *yaw_rad)
{
    float x, z;
    turn(*yaw_rad, m.x, m.z, &x, &z);
    position->x += x;
    position->z += z;
    *yaw_rad += m.yaw_rad;
}

ossa_mat34 ossa_root_motion_matrix(ossa_root_motion m)
{
    const float c = cosf(m.yaw_rad), s = sinf(m.yaw_rad);
    const ossa_mat34 r = {{{c, 0.0f, s, m.x}, {0.0f, 1.0f, 0.0f, 0.0f}, {-s, 0.0f, c, m.z}}};
    return r;
}
