/* track_events_test.c - the event jobs (threshold crossings of a float track
 * between two playheads) against a brute-force search: the track sampled at
 * a fine step and at every frame along the playhead, in the direction of
 * play, with the jumps where loops end, for random tracks, thresholds and
 * playhead pairs (forwards, backwards, across 0 to 100 loop ends, zero
 * length); consecutive steps report every crossing once; the lane job gives
 * the reference's events on every path and width; bad input is refused. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lanes_test_support.h"
#include "ossa/ossa.h"
#include "simd_paths.h"
#include "test_support.h"
#include "utest.h"

#define MAX_FRAMES 24
#define MAX_EVENTS 4096

typedef struct track_data {
    float values[MAX_FRAMES];
    ossa_float_track view;
} track_data;

static void random_track(ts_rng *r, track_data *t)
{
    const int frames = 2 + ts_int(r, MAX_FRAMES - 1);
    for (int f = 0; f < frames; ++f)
        t->values[f] = (float)ts_uniform(r, -1.0, 1.0);
    t->view.values = t->values;
    t->view.frame_count = frames;
    t->view.duration_s = (float)ts_uniform(r, 0.2, 2.0);
}

/* ---- brute force, in double: samples in the order of play ---- */

typedef struct sample {
    double u, v;
} sample;

/* The looped track at unwrapped time u, not on a loop's end. */
static double value(const ossa_float_track *t, double u)
{
    const double d = t->duration_s, dt = d / (t->frame_count - 1);
    double tau = u - floor(u / d) * d;
    double pos = tau / dt;
    int f = (int)floor(pos);
    if (f > t->frame_count - 2)
        f = t->frame_count - 2;
    if (f < 0)
        f = 0;
    const double a = pos - f;
    return t->values[f] * (1.0 - a) + t->values[f + 1] * a;
}

static int by_u(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Crossings found by sampling [u0, u1] at a fine step and at every frame
 * time; a loop end inside (u0, u1] gives the values on both sides of its
 * jump, and an end of the interval on a loop end takes the value past the
 * jump in the direction of play. */
static int brute_force(const ossa_float_track *t, double u0, double u1, float threshold,
                       ossa_edge edges, ossa_track_event *out)
{
    if (u0 == u1)
        return 0;
    const double d = t->duration_s, dt = d / (t->frame_count - 1);
    const double lo = fmin(u0, u1), hi = fmax(u0, u1);
    const int fine = 23;
    const size_t capacity = (size_t)((hi - lo) / dt * (fine + 2)) + 64;
    double *times = malloc(sizeof *times * capacity);
    size_t n = 0;
    for (double k = ceil(lo / dt * fine); k * dt / fine < hi && n < capacity; k += 1.0)
        times[n++] = k * dt / fine;
    for (double k = ceil(lo / dt); k * dt < hi && n < capacity; k += 1.0)
        times[n++] = k * dt;
    times[n++] = lo;
    times[n++] = hi;
    qsort(times, n, sizeof *times, by_u);
    const bool back = u1 < u0;
    sample *s = malloc(sizeof *s * (2 * n + 2));
    size_t m = 0;
    for (size_t i = 0; i < n; ++i) {
        const size_t k = back ? n - 1 - i : i;
        const double u = times[k];
        if (m > 0 && fabs(u - s[m - 1].u) < 1e-9 * d) /* one instant */
            continue;
        const double loops = u / d;
        const bool loop_end = fabs(loops - floor(loops + 0.5)) * d < 1e-9;
        const float first = t->values[0], last = t->values[t->frame_count - 1];
        if (!loop_end) {
            s[m++] = (sample){u, value(t, u)};
        } else if (u == u0) { /* arrived: the value past the jump */
            s[m++] = (sample){u, back ? last : first};
        } else { /* the jump, in the order of play */
            s[m++] = (sample){u, back ? first : last};
            s[m++] = (sample){u, back ? last : first};
        }
    }
    int found = 0;
    for (size_t i = 1; i < m; ++i) {
        const bool a = s[i - 1].v >= threshold, b = s[i].v >= threshold;
        if (a == b || (edges == OSSA_EDGE_RISING && !b) || (edges == OSSA_EDGE_FALLING && b))
            continue;
        const double f = s[i].v == s[i - 1].v ? 0.0
                                                : (threshold - s[i - 1].v) / (s[i].v - s[i - 1].v);
        const double u = s[i - 1].u + fmin(fmax(f, 0.0), 1.0) * (s[i].u - s[i - 1].u);
        if (found < MAX_EVENTS) {
            out[found].playhead_s = (float)u;
            out[found].rising = b;
            double tau = u - floor(u / d) * d;
            if (back && tau == 0.0)
                tau = d;
            out[found].time_s = (float)tau;
        }
        ++found;
    }
    free(times);
    free(s);
    return found;
}

static ossa_result run_reference(const ossa_float_track *t, float from, float to, float threshold,
                                 ossa_edge edges, ossa_track_event *events, int *count)
{
    ossa_track_event_job job = {0};
    job.tracks = t;
    job.track_count = 1;
    job.from_s = &from;
    job.to_s = &to;
    job.character_count = 1;
    job.threshold = threshold;
    job.edges = edges;
    job.events = events;
    job.events_per_character = MAX_EVENTS;
    job.event_count = count;
    return ossa_track_event_job_run(&job);
}

TEST(events_equal_a_brute_force_search)
{
    ts_rng r = ts_rng_make(77);
    ossa_track_event *got = malloc(sizeof *got * MAX_EVENTS);
    ossa_track_event *want = malloc(sizeof *want * MAX_EVENTS);
    int trials[4] = {0}, total = 0, rising = 0, falling = 0;
    double worst = 0.0, worst_time = 0.0;
    for (int trial = 0; trial < 3000; ++trial) {
        track_data td;
        random_track(&r, &td);
        const ossa_float_track *t = &td.view;
        const double d = t->duration_s;
        const float threshold = (float)ts_uniform(&r, -0.8, 0.8);
        const ossa_edge edges = (ossa_edge)ts_int(&r, OSSA_EDGE_COUNT);
        float from = (float)ts_uniform(&r, -5.0, 5.0), to;
        const int kind = trial % 4; /* short step, several loops, many loops, zero */
        if (kind == 0)
            to = from + (float)ts_uniform(&r, -0.1, 0.1);
        else if (kind == 1)
            to = from + (float)(ts_uniform(&r, -5.5, 5.5) * d);
        else if (kind == 2)
            to = from + (float)((ts_int(&r, 2) ? 1 : -1) * ts_uniform(&r, 20, 100) * d);
        else
            to = from;
        if (trial % 7 == 3 && kind != 3) /* ends on frames and loop ends */
            from = (float)(floor(from / d) * d), to = (float)(ts_int(&r, 6) * d);
        trials[kind]++;
        int count = -1;
        REQUIRE(run_reference(t, from, to, threshold, edges, got, &count) == OSSA_OK);
        const int expected = brute_force(t, from, to, threshold, edges, want);
        if (count != expected) {
            fprintf(stderr, "trial %d: %d events, brute force %d (from %.9g to %.9g, D %.9g)\n",
                    trial, count, expected, (double)from, (double)to, d);
            CHECK_INT(count, expected);
            for (int e = 0; e < count && e < expected; ++e)
                if (fabsf(got[e].playhead_s - want[e].playhead_s) > 1e-4f) {
                    fprintf(stderr, "  first difference, event %d: %.9g vs %.9g\n", e,
                            (double)got[e].playhead_s, (double)want[e].playhead_s);
                    break;
                }
            continue;
        }
        for (int e = 0; e < count && e < MAX_EVENTS; ++e) {
            CHECK(got[e].rising == want[e].rising);
            worst = fmax(worst, fabs((double)got[e].playhead_s - want[e].playhead_s) /
                                    (1.0 + fabs((double)want[e].playhead_s)));
            double dtime = fabs((double)got[e].time_s - want[e].time_s);
            dtime = fmin(dtime, fabs(dtime - d)); /* 0 and D are one instant */
            worst_time = fmax(worst_time, dtime);
            rising += got[e].rising;
            falling += !got[e].rising;
        }
        total += count;
        if (kind == 3)
            CHECK_INT(count, 0);
    }
    fprintf(stderr, "%d events; playheads within %.3g (relative), clip times within %.3g s\n",
            total, worst, worst_time);
    CHECK(worst < 1e-5 && worst_time < 1e-4);
    CHECK(rising > 100 && falling > 100);
    free(got);
    free(want);
}

/* A playhead stepped through a span reports, step by step, the events of
 * the whole span once each, steps ending on frames and loop ends included. */
TEST(consecutive_steps_report_every_crossing_once)
{
    const float values[5] = {0.0f, 1.0f, 1.0f, 0.2f, 0.8f};
    const ossa_float_track t = {values, 5, 1.0f};
    ossa_track_event events[64];
    for (int direction = 0; direction < 2; ++direction)
        for (int steps = 1; steps <= 40; ++steps) {
            const float from = 0.0f, to = direction ? -3.0f : 3.0f;
            int whole = 0, summed = 0, count;
            REQUIRE(run_reference(&t, from, to, 0.5f, OSSA_EDGE_BOTH, events, &whole) == OSSA_OK);
            float at = from;
            for (int k = 1; k <= steps; ++k) {
                /* steps of a quarter frame land on frames and loop ends */
                const float next = from + (to - from) * (float)k / (float)steps;
                REQUIRE(run_reference(&t, at, next, 0.5f, OSSA_EDGE_BOTH, events, &count) ==
                        OSSA_OK);
                summed += count;
                at = next;
            }
            CHECK_INT(summed, whole);
            /* per loop: up 0.25, down at 3 (jump or slope), up 3.5, down at the loop's end */
            CHECK_INT(whole, 12);
        }
}

TEST(lane_events_equal_the_reference_on_every_path_and_width)
{
    ts_rng r = ts_rng_make(91);
    enum { TRACKS = 6, N = 53, PER = 3 };
    track_data td[TRACKS];
    ossa_float_track views[TRACKS];
    for (int k = 0; k < TRACKS; ++k) {
        random_track(&r, &td[k]);
        views[k] = td[k].view;
    }
    uint16_t index[N];
    float from[N], to[N];
    ossa_track_event ref[N * PER], lane[N * PER];
    int ref_count[N], lane_count[N];
    int compared = 0, long_steps = 0;
    for (int round = 0; round < 20; ++round) {
        for (int i = 0; i < N; ++i) {
            index[i] = (uint16_t)ts_int(&r, TRACKS);
            from[i] = (float)ts_uniform(&r, -4.0, 4.0);
            const double d = views[index[i]].duration_s;
            to[i] = from[i] + (float)(ts_int(&r, 5) == 0 ? ts_uniform(&r, -3, 3) * d
                                                         : ts_uniform(&r, -0.08, 0.08));
            long_steps += fabsf(to[i] - from[i]) > 0.5f;
        }
        const float threshold = (float)ts_uniform(&r, -0.5, 0.5);
        const ossa_edge edges = (ossa_edge)(round % OSSA_EDGE_COUNT);
        ossa_track_event_job job = {views, TRACKS, index, N, from, to, N, 0, 0,
                                    threshold, edges, ref, PER, ref_count};
        REQUIRE(ossa_track_event_job_run(&job) == OSSA_OK);
        for (int p = OSSA_SIMD_PORTABLE; p < OSSA_SIMD_PATH_COUNT; ++p) {
            if (!ts_path_runs((ossa_simd_path)p))
                continue;
            for (size_t w = 0; w < sizeof widths / sizeof widths[0]; ++w) {
                memset(lane, 0xAB, sizeof lane);
                memset(lane_count, 0xAB, sizeof lane_count);
                ossa_lane_track_event_job lj = {0};
                lj.tracks = views;
                lj.track_count = TRACKS;
                lj.track_index = index;
                lj.track_index_count = N;
                lj.from_s = from;
                lj.to_s = to;
                lj.character_count = N;
                lj.width = widths[w];
                lj.path = (ossa_simd_path)p;
                lj.threshold = threshold;
                lj.edges = edges;
                lj.events = lane;
                lj.events_per_character = PER;
                lj.event_count = lane_count;
                REQUIRE(ossa_lane_track_event_job_run(&lj) == OSSA_OK);
                for (int i = 0; i < N; ++i) {
                    CHECK_INT(lane_count[i], ref_count[i]);
                    for (int e = 0; e < ref_count[i] && e < PER; ++e) {
                        const ossa_track_event *a = &lane[i * PER + e], *b = &ref[i * PER + e];
                        CHECK(a->rising == b->rising &&
                              fabsf(a->playhead_s - b->playhead_s) <= 1e-6f * (1 + fabsf(b->playhead_s)) &&
                              fabsf(a->time_s - b->time_s) <= 1e-6f);
                        ++compared;
                    }
                }
            }
        }
    }
    CHECK(compared > 200);
    CHECK(long_steps > 0);
}

TEST(track_sampling_lanes_equal_the_reference_and_the_definition)
{
    ts_rng r = ts_rng_make(5);
    enum { TRACKS = 5, N = 37 };
    track_data td[TRACKS];
    ossa_float_track views[TRACKS];
    for (int k = 0; k < TRACKS; ++k) {
        random_track(&r, &td[k]);
        views[k] = td[k].view;
    }
    const float constant = 0.75f;
    views[TRACKS - 1] = (ossa_float_track){&constant, 1, 0.0f}; /* one frame */
    uint16_t index[N];
    float time[N], ref[N], lane[N];
    for (int i = 0; i < N; ++i) {
        index[i] = (uint16_t)ts_int(&r, TRACKS);
        time[i] = (float)ts_uniform(&r, -10.0, 10.0);
    }
    ossa_track_sampling_job job = {views, TRACKS, index, N, time, N, 0, 0, ref, N};
    REQUIRE(ossa_track_sampling_job_run(&job) == OSSA_OK);
    for (int i = 0; i < N; ++i) {
        const ossa_float_track *t = &views[index[i]];
        const double expect = t->frame_count < 2 ? constant : value(t, time[i]);
        /* the float playhead wrapped in float: a few ulps of |time| in
         * time, times the track's steepest slope */
        double slope = 0.0; /* written as a branch: aarch64 gcc 12 crashed vectorising fmax */
        for (int f = 0; f + 1 < t->frame_count; ++f) {
            const double s = fabs(t->values[f + 1] - t->values[f]) * (t->frame_count - 1) /
                             t->duration_s;
            if (s > slope)
                slope = s;
        }
        CHECK_NEAR(ref[i], expect, 1e-6 + 4 * 1.2e-7 * (fabs(time[i]) + 2.0) * slope);
    }
    for (int p = OSSA_SIMD_PORTABLE; p < OSSA_SIMD_PATH_COUNT; ++p) {
        if (!ts_path_runs((ossa_simd_path)p))
            continue;
        for (size_t w = 0; w < sizeof widths / sizeof widths[0]; ++w) {
            ossa_lane_track_sampling_job lj = {views, TRACKS, index, N, time, N, widths[w],
                                               0, 0, (ossa_simd_path)p, lane, N};
            REQUIRE(ossa_lane_track_sampling_job_run(&lj) == OSSA_OK);
            for (int i = 0; i < N; ++i)
                CHECK_NEAR(lane[i], ref[i], 1e-6);
        }
    }
}

TEST(track_jobs_validity)
{
    const float values[3] = {0, 1, 0};
    ossa_float_track views[2] = {{values, 3, 1.0f}, {values, 3, 1.0f}};
    float from[2] = {0.0f, 0.5f}, to[2] = {1.0f, 2.0f}, out[2];
    uint16_t index[2] = {0, 1};
    ossa_track_event events[4];
    int counts[2];
    const ossa_track_event_job valid = {views, 2, index, 2, from, to, 2, 0, 0,
                                        0.5f, OSSA_EDGE_BOTH, events, 2, counts};
    ossa_track_event_job j;
    CHECK_RESULT(ossa_track_event_job_run(NULL), OSSA_ERR_MISSING_INPUT);
    j = (ossa_track_event_job){0};
    CHECK_RESULT(ossa_track_event_job_run(&j), OSSA_ERR_MISSING_INPUT);
    j = valid, j.track_count = 0;
    CHECK_RESULT(ossa_track_event_job_run(&j), OSSA_ERR_INPUT_TOO_SMALL);
    j = valid, j.from_s = NULL;
    CHECK_RESULT(ossa_track_event_job_run(&j), OSSA_ERR_MISSING_INPUT);
    j = valid, j.track_index_count = 1;
    CHECK_RESULT(ossa_track_event_job_run(&j), OSSA_ERR_INPUT_TOO_SMALL);
    j = valid, j.character_end = 3;
    CHECK_RESULT(ossa_track_event_job_run(&j), OSSA_ERR_BAD_RANGE);
    j = valid, j.threshold = NAN;
    CHECK_RESULT(ossa_track_event_job_run(&j), OSSA_ERR_BAD_VALUE);
    j = valid, j.edges = OSSA_EDGE_COUNT;
    CHECK_RESULT(ossa_track_event_job_run(&j), OSSA_ERR_BAD_ARGUMENT);
    j = valid, j.events = NULL;
    CHECK_RESULT(ossa_track_event_job_run(&j), OSSA_ERR_MISSING_OUTPUT);
    j = valid, j.event_count = NULL;
    CHECK_RESULT(ossa_track_event_job_run(&j), OSSA_ERR_MISSING_OUTPUT);
    j = valid, j.events_per_character = 0;
    CHECK_RESULT(ossa_track_event_job_run(&j), OSSA_ERR_OUTPUT_TOO_SMALL);
    views[1].duration_s = 0.0f; /* two frames need a duration */
    CHECK_RESULT(ossa_track_event_job_run(&valid), OSSA_ERR_BAD_VALUE);
    views[1].duration_s = 1.0f;
    views[1].values = NULL;
    CHECK_RESULT(ossa_track_event_job_run(&valid), OSSA_ERR_MISSING_INPUT);
    /* the views a character plays are checked, not the others */
    index[1] = 0;
    CHECK_RESULT(ossa_track_event_job_run(&valid), OSSA_OK);
    j = valid, j.character_end = 1; /* character 0 plays view 0 */
    index[1] = 1;
    CHECK_RESULT(ossa_track_event_job_run(&j), OSSA_OK);
    views[1].values = values;
    index[1] = 2;
    CHECK_RESULT(ossa_track_event_job_run(&valid), OSSA_ERR_BAD_INDEX);
    index[1] = 1;
    to[1] = NAN;
    CHECK_RESULT(ossa_track_event_job_run(&valid), OSSA_ERR_BAD_VALUE);
    ossa_lane_track_event_job lj = {views, 2, index, 2, from, to, 2, 4, 0, 0, OSSA_SIMD_AUTO,
                                    0.5f, OSSA_EDGE_BOTH, events, 2, counts};
    CHECK_RESULT(ossa_lane_track_event_job_run(&lj), OSSA_ERR_BAD_VALUE);
    ossa_track_sampling_job sj = {views, 2, index, 2, to, 2, 0, 0, out, 2};
    CHECK_RESULT(ossa_track_sampling_job_run(&sj), OSSA_ERR_BAD_VALUE);
    ossa_lane_track_sampling_job lsj = {views, 2, index, 2, to, 2, 4, 0, 0, OSSA_SIMD_AUTO, out, 2};
    CHECK_RESULT(ossa_lane_track_sampling_job_run(&lsj), OSSA_ERR_BAD_VALUE);
    to[1] = 2.0f;
    CHECK_RESULT(ossa_track_event_job_run(&valid), OSSA_OK);
    CHECK_RESULT(ossa_lane_track_event_job_run(&lj), OSSA_OK);
    CHECK_RESULT(ossa_track_sampling_job_run(&sj), OSSA_OK);
    CHECK_RESULT(ossa_lane_track_sampling_job_run(&lsj), OSSA_OK);
    lsj.width = 3;
    CHECK_RESULT(ossa_lane_track_sampling_job_run(&lsj), OSSA_ERR_BAD_ARGUMENT);
    lsj.width = 4, lsj.output_count = 1;
    CHECK_RESULT(ossa_lane_track_sampling_job_run(&lsj), OSSA_ERR_OUTPUT_TOO_SMALL);
    /* a full output is counted past its capacity */
    const float up_down[3] = {0.0f, 1.0f, 0.0f};
    const ossa_float_track t = {up_down, 3, 1.0f};
    int count;
    ossa_track_event few[2];
    ossa_track_event_job many = {&t, 1, NULL, 0, from, to, 1, 0, 0,
                                 0.5f, OSSA_EDGE_BOTH, few, 2, &count};
    from[0] = 0.0f, to[0] = 1000.0f;
    CHECK_RESULT(ossa_track_event_job_run(&many), OSSA_OK);
    CHECK_INT(count, 2000);
}

UTEST_MAIN(events_equal_a_brute_force_search, consecutive_steps_report_every_crossing_once,
           lane_events_equal_the_reference_on_every_path_and_width,
           track_sampling_lanes_equal_the_reference_and_the_definition, track_jobs_validity)
