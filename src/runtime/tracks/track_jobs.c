/* track_jobs.c - the reference float track jobs: each character's track
 * sampled at its playhead, and the threshold crossings between two
 * playheads (track_walk.c). The lane jobs are tested against these. */
#include "ossa/tracks.h"

#include "core/job_internal.h"
#include "tracks/track_jobs_internal.h"

ossa_result ossa_track_sampling_job_validate(const ossa_track_sampling_job *job)
{
    if (!job)
        return OSSA_ERR_MISSING_INPUT;
    ossa_result r = ossai_check_track_inputs(job->tracks, job->track_count, job->track_index,
                                             job->track_index_count, job->time_s, job->time_s,
                                             job->character_count);
    int begin, end;
    if (r || (r = ossai_job_range(job->character_begin, job->character_end,
                                  job->character_count, &begin, &end)) ||
        (r = ossai_check_track_range(job->tracks, job->track_index, job->track_count,
                                     job->time_s, job->time_s, begin, end)))
        return r;
    if (!job->output)
        return OSSA_ERR_MISSING_OUTPUT;
    return job->output_count < job->character_count ? OSSA_ERR_OUTPUT_TOO_SMALL : OSSA_OK;
}

/* A looping playhead's time in [0, duration). */
static float wrap(float u, float duration)
{
    const float t = u - floorf(u / duration) * duration;
    return t < 0.0f || t >= duration ? 0.0f : t;
}

ossa_result ossa_track_sampling_job_run(const ossa_track_sampling_job *job)
{
    ossa_result r = ossa_track_sampling_job_validate(job);
    if (r != OSSA_OK)
        return r;
    int begin = job->character_begin, end = job->character_end;
    if (begin == 0 && end == 0)
        end = job->character_count;
    for (int i = begin; i < end; ++i) {
        const ossa_float_track *t = &job->tracks[job->track_index ? job->track_index[i] : 0];
        job->output[i] = t->frame_count < 2
                             ? t->values[0]
                             : ossa_float_track_sample(t, wrap(job->time_s[i], t->duration_s));
    }
    return OSSA_OK;
}

ossa_result ossa_track_event_job_validate(const ossa_track_event_job *job)
{
    if (!job)
        return OSSA_ERR_MISSING_INPUT;
    ossa_result r = ossai_check_track_inputs(job->tracks, job->track_count, job->track_index,
                                             job->track_index_count, job->from_s, job->to_s,
                                             job->character_count);
    int begin, end;
    if (r || (r = ossai_job_range(job->character_begin, job->character_end,
                                  job->character_count, &begin, &end)) ||
        (r = ossai_check_track_range(job->tracks, job->track_index, job->track_count,
                                     job->from_s, job->to_s, begin, end)))
        return r;
    return ossai_check_event_outputs(job->threshold, job->edges, job->events,
                                     job->events_per_character, job->event_count);
}

ossa_result ossa_track_event_job_run(const ossa_track_event_job *job)
{
    ossa_result r = ossa_track_event_job_validate(job);
    if (r != OSSA_OK)
        return r;
    int begin = job->character_begin, end = job->character_end;
    if (begin == 0 && end == 0)
        end = job->character_count;
    const int per = job->events_per_character;
    for (int i = begin; i < end; ++i) {
        const ossa_float_track *t = &job->tracks[job->track_index ? job->track_index[i] : 0];
        job->event_count[i] =
            ossai_track_events(t, job->from_s[i], job->to_s[i], job->threshold, job->edges,
                               job->events + (size_t)i * (size_t)per, per);
    }
    return OSSA_OK;
}
