/* lane_track_jobs.c - the float track jobs for characters in SIMD lanes:
 * validation and per-batch gathering; sampling and the crossing test run in
 * track_kernels.c, W characters per vector. An event step that is not short
 * (inside one loop, a few frames) is handled alone, the reference's way
 * (track_walk.c). */
#include "ossa/tracks.h"

#include "core/job_internal.h"
#include "tracks/track_jobs_internal.h"
#include "tracks/tracks_lanes.h"

/* Width and batch range of a lane job, and the characters of the batches
 * checked: the checks both lane jobs share after their inputs'. */
static ossa_result check_lanes(const ossa_float_track *tracks, const uint16_t *track_index,
                               int track_count, const float *a, const float *b, int n,
                               int width_field, int batch_begin, int batch_end,
                               ossa_simd_path path)
{
    const int width = ossai_lane_resolve_width(width_field);
    if (!width)
        return OSSA_ERR_BAD_ARGUMENT;
    int begin, end;
    ossa_result r;
    if ((r = ossai_job_range(batch_begin, batch_end, ossa_lane_batch_count(n, width), &begin,
                             &end)) ||
        (r = ossai_check_track_range(tracks, track_index, track_count, a, b, begin * width,
                                     end * width < n ? end * width : n)))
        return r;
    return ossai_simd_check(path, width);
}

/* One lane's view of a track for the kernels: its frames, duration, rate
 * and last frame pair; a one-frame track as two equal frames in held. */
static inline void lane_track(const ossa_float_track *t, float held[2], const float **values,
                              float *duration, float *rate, float *last_pair)
{
    if (t->frame_count < 2) {
        held[0] = held[1] = t->values[0];
        *values = held;
        *duration = 1.0f;
        *rate = *last_pair = 0.0f;
    } else {
        *values = t->values;
        *duration = t->duration_s;
        *rate = ossai_track_rate(t);
        *last_pair = (float)(t->frame_count - 2);
    }
}

ossa_result ossa_lane_track_sampling_job_validate(const ossa_lane_track_sampling_job *job)
{
    if (!job)
        return OSSA_ERR_MISSING_INPUT;
    ossa_result r = ossai_check_track_inputs(job->tracks, job->track_count, job->track_index,
                                             job->track_index_count, job->time_s, job->time_s,
                                             job->character_count);
    if (r || (r = check_lanes(job->tracks, job->track_index, job->track_count, job->time_s,
                              job->time_s, job->character_count, job->width, job->batch_begin,
                              job->batch_end, job->path)))
        return r;
    if (!job->output)
        return OSSA_ERR_MISSING_OUTPUT;
    return job->output_count < job->character_count ? OSSA_ERR_OUTPUT_TOO_SMALL : OSSA_OK;
}

ossa_result ossa_lane_track_sampling_job_run(const ossa_lane_track_sampling_job *job)
{
    ossa_result r = ossa_lane_track_sampling_job_validate(job);
    if (r != OSSA_OK)
        return r;
    const int n = job->character_count;
    const ossai_lane_plan plan =
        ossai_lane_plan_make(job->path, job->width, n, job->batch_begin, job->batch_end);
    static void (*const kernels[])(ossai_lane_track_sample_args *) =
        OSSAI_SIMD_TABLE(ossai_track_sample_kernel);
    ossai_lane_track_sample_args args;
    float held[OSSAI_LANES][2]; /* a one-frame track, as two equal frames */
    args.width = plan.width;
    for (int b = plan.begin; b < plan.end; ++b) {
        const int first = b * plan.width, count = n - first < plan.width ? n - first : plan.width;
        for (int l = 0; l < plan.width; ++l) {
            const int c = l < count ? first + l : first;
            const ossa_float_track *t = &job->tracks[job->track_index ? job->track_index[c] : 0];
            args.time[l] = job->time_s[c];
            lane_track(t, held[l], &args.values[l], &args.duration[l], &args.rate[l],
                       &args.last_pair[l]);
        }
        kernels[plan.path](&args);
        for (int l = 0; l < count; ++l)
            job->output[first + l] = args.out[l];
    }
    return OSSA_OK;
}

ossa_result ossa_lane_track_event_job_validate(const ossa_lane_track_event_job *job)
{
    if (!job)
        return OSSA_ERR_MISSING_INPUT;
    ossa_result r = ossai_check_track_inputs(job->tracks, job->track_count, job->track_index,
                                             job->track_index_count, job->from_s, job->to_s,
                                             job->character_count);
    if (r || (r = check_lanes(job->tracks, job->track_index, job->track_count, job->from_s,
                              job->to_s, job->character_count, job->width, job->batch_begin,
                              job->batch_end, job->path)))
        return r;
    return ossai_check_event_outputs(job->threshold, job->edges, job->events,
                                     job->events_per_character, job->event_count);
}

ossa_result ossa_lane_track_event_job_run(const ossa_lane_track_event_job *job)
{
    ossa_result r = ossa_lane_track_event_job_validate(job);
    if (r != OSSA_OK)
        return r;
    const int n = job->character_count, per = job->events_per_character;
    const ossai_lane_plan plan =
        ossai_lane_plan_make(job->path, job->width, n, job->batch_begin, job->batch_end);
    static void (*const kernels[])(ossai_lane_track_cross_args *) =
        OSSAI_SIMD_TABLE(ossai_track_cross_kernel);
    ossai_lane_track_cross_args args;
    float held[OSSAI_LANES][2]; /* a one-frame track, as two equal frames */
    args.width = plan.width;
    args.threshold = job->threshold;
    args.want_rising = job->edges != OSSA_EDGE_FALLING ? 1.0f : 0.0f;
    args.want_falling = job->edges != OSSA_EDGE_RISING ? 1.0f : 0.0f;
    for (int b = plan.begin; b < plan.end; ++b) {
        const int first = b * plan.width, count = n - first < plan.width ? n - first : plan.width;
        for (int l = 0; l < plan.width; ++l) {
            const int c = l < count ? first + l : first;
            const ossa_float_track *t = &job->tracks[job->track_index ? job->track_index[c] : 0];
            args.from[l] = job->from_s[c];
            args.to[l] = job->to_s[c];
            args.usable[l] = t->frame_count >= 2 && args.from[l] != args.to[l] ? 1.0f : 0.0f;
            lane_track(t, held[l], &args.values[l], &args.duration[l], &args.rate[l],
                       &args.last_pair[l]);
        }
        kernels[plan.path](&args);
        for (int l = 0; l < count; ++l) {
            const int c = first + l;
            const int points = (int)args.points[l];
            if (points >= 0 && !(args.found[l] > 0.5f)) { /* the common case: no crossing */
                job->event_count[c] = 0;
                continue;
            }
            const ossa_float_track *t = &job->tracks[job->track_index ? job->track_index[c] : 0];
            ossa_track_event *out = job->events + (size_t)c * (size_t)per;
            if (points < 0) { /* not a short step: alone */
                job->event_count[c] = ossai_track_events(t, job->from_s[c], job->to_s[c],
                                                         job->threshold, job->edges, out, per);
                continue;
            }
            int found = 0;
            float times[OSSAI_TRACK_POINTS], values[OSSAI_TRACK_POINTS], loop_start = 0.0f;
            for (int k = 0; k + 1 < points; ++k) {
                if (!(args.cross[k][l] > 0.5f))
                    continue;
                if (found == 0) { /* the points' times, for the events */
                    int again;
                    ossai_track_short_step(t, job->from_s[c], job->to_s[c], values, times,
                                           &again, &loop_start);
                }
                if (found < per)
                    out[found] = ossai_track_short_event(times, k, args.frac[k][l],
                                                         args.rising[k][l] > 0.5f, loop_start);
                ++found;
            }
            job->event_count[c] = found;
        }
    }
    return OSSA_OK;
}
