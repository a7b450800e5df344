/* float_track.c - a clip's float tracks read from its tracks block, and the
 * readable definition of sampling one. */
#include "ossa/tracks.h"

#include <string.h>

#include "blob/format.h"
#include "tracks/tracks_internal.h"

int ossa_clip_float_track_count(const ossa_clip *clip)
{
    const ossai_clip_tracks *t = ossai_clip_tracks_of(clip);
    return t ? (int)t->track_count : 0;
}

const char *ossa_clip_float_track_name(const ossa_clip *clip, int track)
{
    const ossai_clip_tracks *t = ossai_clip_tracks_of(clip);
    if (!t || track < 0 || (uint32_t)track >= t->track_count)
        return NULL;
    return ossai_tracks_name(t, (uint32_t)track);
}

int ossa_clip_find_float_track(const ossa_clip *clip, const char *name)
{
    const ossai_clip_tracks *t = ossai_clip_tracks_of(clip);
    if (!t || !name)
        return -1;
    for (uint32_t k = 0; k < t->track_count; ++k)
        if (strcmp(ossai_tracks_name(t, k), name) == 0)
            return (int)k;
    return -1;
}

ossa_float_track ossa_clip_float_track(const ossa_clip *clip, int track)
{
    const ossai_clip_tracks *t = ossai_clip_tracks_of(clip);
    ossa_float_track v = {NULL, 0, 0.0f};
    if (!t || track < 0 || (uint32_t)track >= t->track_count)
        return v;
    v.values = ossai_tracks_values(t, (uint32_t)track);
    v.frame_count = (int)t->frame_count;
    v.duration_s = clip->duration;
    return v;
}

float ossa_float_track_sample(const ossa_float_track *track, float t_s)
{
    if (!track || !track->values || track->frame_count < 1)
        return 0.0f;
    if (track->frame_count < 2 || !(track->duration_s > 0.0f))
        return track->values[0];
    float alpha;
    const int f = ossai_track_locate(track, t_s, &alpha);
    return track->values[f] * (1.0f - alpha) + track->values[f + 1] * alpha;
}
