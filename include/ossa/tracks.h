/* ossa/tracks.h - float tracks: a clip's animated scalar channels (morph
 * target weights, custom properties, channels of nodes that are not
 * joints), stored at the clip's frames and interpolated linearly between
 * them; and events, the crossings of a threshold between two playheads.
 *
 * A float track is read through a view, ossa_float_track: its values at
 * frame_count uniformly spaced times 0 .. duration_s (a clip's track, or
 * any array a program fills the same way, such as the crowd's foot heights).
 * The jobs take views, so one job can sample or watch the same named track
 * across many clips. Thread safety: read-only data; the jobs hold no state. */
#ifndef OSSA_TRACKS_H
#define OSSA_TRACKS_H

#include <stdbool.h>
#include <stdint.h>

#include "clip.h"
#include "result.h"
#include "simd.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- a clip's float tracks ---- */

/* Number of float tracks the clip carries (0 for most clips). */
int ossa_clip_float_track_count(const ossa_clip *clip);
/* Track k's name (UTF-8, unique within the clip), or NULL out of range. */
const char *ossa_clip_float_track_name(const ossa_clip *clip, int track);
/* Index of the track with this name, or -1. */
int ossa_clip_find_float_track(const ossa_clip *clip, const char *name);

/* A float track: values[f] is the value at time f * duration_s /
 * (frame_count - 1); between two frames the value is interpolated
 * linearly; a one-frame track is constant. */
typedef struct ossa_float_track {
    const float *values;  /* frame_count finite values */
    int frame_count;      /* >= 1 */
    float duration_s;     /* > 0 when frame_count >= 2; 0 for one frame */
} ossa_float_track;

/* Track k of a clip as a view (zeroed out of range). */
ossa_float_track ossa_clip_float_track(const ossa_clip *clip, int track);
/* The value at time t_s, clamped to [0, duration]: the readable definition
 * the jobs are tested against. */
float ossa_float_track_sample(const ossa_float_track *track, float t_s);

/* ---- sampling: each character's track at its playhead ---- */

/* For every character in [character_begin, character_end): its track at
 * its playhead, looping (time_s wrapped into [0, duration)). */
typedef struct ossa_track_sampling_job {
    /* Track views, >= 1; each a character plays valid (values, frame_count
     * >= 1, duration as above). Views no character in the job's range plays
     * are not read, nor checked. */
    const ossa_float_track *tracks;
    int track_count;
    /* Per character: index into tracks. NULL means tracks[0] for everyone. */
    const uint16_t *track_index;
    int track_index_count;
    /* Per character: the playhead, finite (OSSA_ERR_BAD_VALUE otherwise). */
    const float *time_s;
    int character_count;
    int character_begin; /* 0, 0 means all */
    int character_end;
    float *output;       /* per character: character_count floats */
    int output_count;
} ossa_track_sampling_job;

ossa_result ossa_track_sampling_job_validate(const ossa_track_sampling_job *job);
ossa_result ossa_track_sampling_job_run(const ossa_track_sampling_job *job);

/* The same, W characters per SIMD vector (ossa/lanes.h's batches). */
typedef struct ossa_lane_track_sampling_job {
    const ossa_float_track *tracks; /* required, >= 1 */
    int track_count;
    const uint16_t *track_index;    /* per character; NULL: tracks[0] */
    int track_index_count;
    const float *time_s;            /* per character, finite */
    int character_count;            /* required, >= 1 */
    int width;                      /* 4, 8, 16; 0 means ossa_lane_width() */
    int batch_begin;                /* 0, 0 means all batches */
    int batch_end;
    ossa_simd_path path;            /* default OSSA_SIMD_AUTO */
    float *output;                  /* per character */
    int output_count;
} ossa_lane_track_sampling_job;

ossa_result ossa_lane_track_sampling_job_validate(const ossa_lane_track_sampling_job *job);
ossa_result ossa_lane_track_sampling_job_run(const ossa_lane_track_sampling_job *job);

/* ---- events: threshold crossings between two playheads ---- */

/* Which crossings a job reports. */
typedef enum ossa_edge {
    OSSA_EDGE_BOTH = 0, /* default: rising and falling */
    OSSA_EDGE_RISING,   /* the value goes up to or past the threshold */
    OSSA_EDGE_FALLING,  /* the value goes below the threshold */
    OSSA_EDGE_COUNT
} ossa_edge;

/* One crossing. */
typedef struct ossa_track_event {
    float playhead_s; /* where on the playhead, between from_s and to_s */
    float time_s;     /* the clip time there: [0, duration) playing forwards,
                       * (0, duration] playing backwards */
    bool rising;      /* the value crosses upwards, in the direction of play */
} ossa_track_event;

/* For every character: the crossings of `threshold` by its track as its
 * playhead goes from from_s to to_s (any finite values; to_s < from_s plays
 * backwards), in the order they are passed.
 * The value along the playhead: the track looped, linear between frames;
 * where a loop ends it jumps from the last frame's value to the first's
 * (backwards: from the first's to the last's) at the loop's end. A crossing
 * is a change of (value >= threshold) between two points of that line, in
 * the direction of play: rising when the value ends at or above the
 * threshold. Intervals are half-open in the direction of play: a crossing
 * exactly at from_s belongs to the call before, one at to_s to this one, so
 * consecutive calls over a playhead's steps report every crossing once.
 * from_s == to_s reports nothing; a one-frame track never crosses. However
 * many loops the playheads span, the work is at most three loops' (whole
 * loops in between repeat the same crossings). */
typedef struct ossa_track_event_job {
    const ossa_float_track *tracks; /* required, >= 1; those played valid */
    int track_count;
    const uint16_t *track_index;    /* per character; NULL: tracks[0] */
    int track_index_count;
    const float *from_s;            /* per character, finite */
    const float *to_s;              /* per character, finite */
    int character_count;
    int character_begin;            /* 0, 0 means all */
    int character_end;
    float threshold;                /* finite */
    ossa_edge edges;                /* default OSSA_EDGE_BOTH */
    /* Output: character i's first events_per_character events, in the
     * order they are passed, at events + i * events_per_character; how many
     * it had at event_count[i] (more than events_per_character: the rest
     * were not stored). */
    ossa_track_event *events;       /* character_count * events_per_character */
    int events_per_character;       /* >= 1 */
    int *event_count;               /* character_count */
} ossa_track_event_job;

ossa_result ossa_track_event_job_validate(const ossa_track_event_job *job);
ossa_result ossa_track_event_job_run(const ossa_track_event_job *job);

/* The same for characters in SIMD lanes: the common short step (the
 * playheads a few frames apart) of W characters per vector; a character
 * whose step spans more is handled alone, the reference's way. Same events
 * as the reference job, playheads up to float rounding. */
typedef struct ossa_lane_track_event_job {
    const ossa_float_track *tracks; /* required, >= 1 */
    int track_count;
    const uint16_t *track_index;    /* per character; NULL: tracks[0] */
    int track_index_count;
    const float *from_s;            /* per character, finite */
    const float *to_s;
    int character_count;            /* required, >= 1 */
    int width;                      /* 4, 8, 16; 0 means ossa_lane_width() */
    int batch_begin;                /* 0, 0 means all batches */
    int batch_end;
    ossa_simd_path path;            /* default OSSA_SIMD_AUTO */
    float threshold;
    ossa_edge edges;
    ossa_track_event *events;       /* as ossa_track_event_job */
    int events_per_character;
    int *event_count;
} ossa_lane_track_event_job;

ossa_result ossa_lane_track_event_job_validate(const ossa_lane_track_event_job *job);
ossa_result ossa_lane_track_event_job_run(const ossa_lane_track_event_job *job);

#ifdef __cplusplus
}
#endif

#endif /* OSSA_TRACKS_H */
