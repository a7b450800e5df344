/* crowd_motion.c - root motion in the crowd: each layer's motion between
 * its playhead at the character's last update and now (the lane root motion
 * job, once per chunk of contiguous batches), weighted by the blend, moves
 * the placement before the hierarchy walk uses it as root. The event jobs
 * clear the advance after (crowd_events.c). */
#include "crowd_internal.h"

#include <math.h>

#include "ossa/root_motion.h"

/* One layer's motion for the chunk's characters. */
static void layer_motion(const ossa_crowd *c, int first, int n, const uint16_t *clip,
                         const float *time, const float *pending, ossa_root_motion *out)
{
    float from[CROWD_CHUNK];
    for (int l = 0; l < n; ++l)
        from[l] = time[l] - pending[l];
    ossa_lane_root_motion_job job = {0};
    job.clips = c->clips;
    job.clip_count = c->clip_count;
    job.clip_index = clip + first;
    job.clip_index_count = n;
    job.from_s = from;
    job.to_s = time;
    job.character_count = n;
    job.width = c->width;
    job.path = c->path;
    job.output = out;
    job.output_count = n;
    if (ossa_lane_root_motion_job_run(&job) != OSSA_OK)
        for (int l = 0; l < n; ++l) /* playheads are finite by construction */
            out[l] = (ossa_root_motion){0.0f, 0.0f, 0.0f};
}

void ossai_crowd_motion(ossa_crowd *c, int first, int n)
{
    if (!c->root_motion)
        return;
    ossa_root_motion ma[CROWD_CHUNK], mb[CROWD_CHUNK];
    /* a layer no character of the chunk weighs is not evaluated */
    bool any_a = false, any_b = false;
    for (int l = 0; l < n; ++l) {
        any_a |= c->weight_b[first + l] < 1.0f;
        any_b |= c->weight_b[first + l] > 0.0f;
    }
    const ossa_root_motion none = {0.0f, 0.0f, 0.0f};
    if (any_a)
        layer_motion(c, first, n, c->clip_a, c->time_a + first, c->pending_a + first, ma);
    if (any_b)
        layer_motion(c, first, n, c->clip_b, c->time_b + first, c->pending_b + first, mb);
    for (int l = 0; l < n; ++l) {
        const int s = first + l;
        const float w = c->weight_b[s];
        const ossa_root_motion a = any_a ? ma[l] : none, b = any_b ? mb[l] : none;
        const float x = a.x + (b.x - a.x) * w, z = a.z + (b.z - a.z) * w;
        const float yaw = a.yaw_rad + (b.yaw_rad - a.yaw_rad) * w;
        /* the translation turned by the heading, then the turn */
        const float co = c->cos_yaw[s], si = c->sin_yaw[s];
        c->pos_x[s] += x * co + z * si;
        c->pos_z[s] += z * co - x * si;
        if (yaw != 0.0f) {
            const float cy = cosf(yaw), sy = sinf(yaw);
            const float nc = co * cy - si * sy, ns = si * cy + co * sy;
            const float inv = 1.0f / sqrtf(nc * nc + ns * ns);
            c->cos_yaw[s] = nc * inv;
            c->sin_yaw[s] = ns * inv;
        }
    }
}
