/* crowd_tracks.c - the float tracks a crowd watches for events: each foot's
 * height track per clip (its model-space height 120 times a second,
 * computed from the clip when the crowd is made), and each
 * trigger's named track per clip. */
#include "crowd_internal.h"

#include <math.h>
#include <string.h>

#include "ossa/sampling_job.h"

/* A clip without the track: one frame, which never crosses anything. */
static const float never = 0.0f;

/* Samples of a foot's height track over a clip: HEIGHT_RATE_HZ a second
 * (to the nearest whole number of intervals), evenly spaced, both ends
 * included - four per frame interval of a 30 Hz clip. The line between
 * them follows the pose's height (which bends between frames) closely, and
 * a frame's step of a crowd at 60 Hz spans two of them whatever the clip's
 * rate: the lane event job's short step (tracks_internal.h), where four
 * samples per frame interval of a 120 Hz clip made every step a long one. */
#define HEIGHT_RATE_HZ 120.0

int ossa_crowd_height_samples(const ossa_clip *clip)
{
    if (!clip)
        return 0;
    if (ossa_clip_frame_count(clip) < 2)
        return 1;
    const double intervals = floor(HEIGHT_RATE_HZ * (double)ossa_clip_duration(clip) + 0.5);
    return 1 + (intervals < 1.0 ? 1 : intervals > 4194304.0 ? 4194304 : (int)intervals);
}

size_t ossai_crowd_height_floats(const ossa_crowd_desc *desc, int foot_count)
{
    size_t n = 0;
    for (int k = 0; k < desc->clip_count; ++k)
        n += (size_t)ossa_crowd_height_samples(desc->clips[k]);
    return n * (size_t)(foot_count > 0 ? foot_count : 0);
}

ossa_result ossai_crowd_check_triggers(const ossa_crowd_desc *d)
{
    if (d->trigger_count < 0 || d->trigger_count > OSSA_CROWD_MAX_TRIGGERS ||
        (d->trigger_count && !d->triggers))
        return d->trigger_count && !d->triggers ? OSSA_ERR_MISSING_INPUT : OSSA_ERR_BAD_ARGUMENT;
    for (int t = 0; t < d->trigger_count; ++t) {
        const ossa_crowd_trigger *g = &d->triggers[t];
        if (!g->track)
            return OSSA_ERR_MISSING_INPUT;
        if (!isfinite(g->threshold))
            return OSSA_ERR_BAD_VALUE;
        if ((unsigned)g->edges >= OSSA_EDGE_COUNT)
            return OSSA_ERR_BAD_ARGUMENT;
        bool found = false;
        for (int k = 0; k < d->clip_count && !found; ++k)
            found = ossa_clip_find_float_track(d->clips[k], g->track) >= 0;
        if (!found)
            return OSSA_ERR_NOT_FOUND;
    }
    return OSSA_OK;
}

/* The model-space height of `joint` at clip time t: its chain of ancestors
 * sampled and multiplied (keys exactly, at frame times). */
static float height_at(const ossa_clip *clip, const ossa_transform *rest, const uint16_t *parents,
                       int joint, float t)
{
    ossa_mat34 m = ossa_mat34_from_transform(
        ossa_clip_sample_joint(clip, rest, joint, t, OSSA_ROTATION_NLERP));
    for (uint16_t p = parents[joint]; p != OSSA_NO_PARENT; p = parents[p]) {
        const ossa_mat34 parent =
            ossa_mat34_from_transform(ossa_clip_sample_joint(clip, rest, p, t, OSSA_ROTATION_NLERP));
        m = ossa_mat34_mul(&parent, &m);
    }
    return m.m[1][3];
}

void ossai_crowd_tracks_init(ossa_crowd *c, const ossa_crowd_desc *desc)
{
    const uint16_t *parents = ossa_skeleton_parents(desc->skeleton);
    const ossa_transform *rest = ossa_skeleton_rest_pose(desc->skeleton);
    float *height = c->foot_height;
    for (int f = 0; f < c->foot_count; ++f)
        for (int k = 0; k < c->clip_count; ++k) {
            const ossa_clip *clip = c->clips[k];
            const int frames = ossa_crowd_height_samples(clip);
            const float duration = ossa_clip_duration(clip);
            for (int i = 0; i < frames; ++i) {
                const float t = i + 1 == frames ? duration
                                                : duration * (float)i / (float)(frames - 1);
                height[i] =
                    height_at(clip, rest, parents, c->foot_joint[f], frames > 1 ? t : 0.0f);
            }
            c->foot_track[f * c->clip_count + k] = (ossa_float_track){height, frames, duration};
            height += frames;
        }
    c->trigger_count = desc->trigger_count;
    for (int t = 0; t < desc->trigger_count; ++t) {
        c->trigger_threshold[t] = desc->triggers[t].threshold;
        c->trigger_edges[t] = desc->triggers[t].edges;
        for (int k = 0; k < c->clip_count; ++k) {
            const int index = ossa_clip_find_float_track(c->clips[k], desc->triggers[t].track);
            c->trigger_track[t * c->clip_count + k] =
                index >= 0 ? ossa_clip_float_track(c->clips[k], index)
                           : (ossa_float_track){&never, 1, 0.0f};
        }
    }
}
