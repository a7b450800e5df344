/* track_jobs_internal.h - the input checks the float track jobs share
 * (reference and lanes, sampling and events). */
#ifndef OSSA_TRACK_JOBS_INTERNAL_H
#define OSSA_TRACK_JOBS_INTERNAL_H

#include "tracks/tracks_internal.h"

/* The views (>= 1), the playheads and, when given, an index per character;
 * the views the characters play are checked with their range
 * (ossai_check_track_range). */
static inline ossa_result ossai_check_track_inputs(const ossa_float_track *tracks, int track_count,
                                                   const uint16_t *track_index,
                                                   int track_index_count, const float *a,
                                                   const float *b, int character_count)
{
    if (!tracks)
        return OSSA_ERR_MISSING_INPUT;
    if (track_count < 1)
        return OSSA_ERR_INPUT_TOO_SMALL;
    if (!a || !b)
        return OSSA_ERR_MISSING_INPUT;
    if (character_count < 1)
        return OSSA_ERR_INPUT_TOO_SMALL;
    if (track_index && track_index_count < character_count)
        return OSSA_ERR_INPUT_TOO_SMALL;
    return OSSA_OK;
}

/* Characters [first, last): indices in range, the views they play whole
 * (a job reads no other), playheads finite. */
static inline ossa_result ossai_check_track_range(const ossa_float_track *tracks,
                                                  const uint16_t *track_index, int track_count,
                                                  const float *a, const float *b, int first,
                                                  int last)
{
    int checked = -1; /* the view checked last: characters in runs check it once */
    for (int i = first; i < last; ++i) {
        const int k = track_index ? track_index[i] : 0;
        if (k != checked) {
            if (k >= track_count)
                return OSSA_ERR_BAD_INDEX;
            if (!ossai_track_ok(&tracks[k]))
                return tracks[k].values ? OSSA_ERR_BAD_VALUE : OSSA_ERR_MISSING_INPUT;
            checked = k;
        }
        if (!isfinite(a[i]) || !isfinite(b[i]))
            return OSSA_ERR_BAD_VALUE;
    }
    return OSSA_OK;
}

/* An event job's own fields: threshold, edges, outputs. */
static inline ossa_result ossai_check_event_outputs(float threshold, ossa_edge edges,
                                                   const ossa_track_event *events,
                                                   int events_per_character,
                                                   const int *event_count)
{
    if (!isfinite(threshold))
        return OSSA_ERR_BAD_VALUE;
    if ((unsigned)edges >= OSSA_EDGE_COUNT)
        return OSSA_ERR_BAD_ARGUMENT;
    if (!events || !event_count)
        return OSSA_ERR_MISSING_OUTPUT;
    if (events_per_character < 1)
        return OSSA_ERR_OUTPUT_TOO_SMALL;
    return OSSA_OK;
}

#endif /* OSSA_TRACK_JOBS_INTERNAL_H */
