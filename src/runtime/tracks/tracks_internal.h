/* tracks_internal.h - what the float track code shares: where a time falls
 * between a track's frames, and the checks of a track view. */
#ifndef OSSA_TRACKS_INTERNAL_H
#define OSSA_TRACKS_INTERNAL_H

#include <math.h>
#include <stdbool.h>

#include "ossa/tracks.h"

/* Frames per second of a track of >= 2 frames. */
static inline float ossai_track_rate(const ossa_float_track *t)
{
    return (float)(t->frame_count - 1) / t->duration_s;
}

/* Frame pair (f, f + 1) and factor of time t clamped to [0, duration], for a
 * track of >= 2 frames. */
static inline int ossai_track_locate(const ossa_float_track *t, float time, float *alpha)
{
    const float clamped = time < 0.0f ? 0.0f : (time > t->duration_s ? t->duration_s : time);
    const float u = clamped * ossai_track_rate(t), last = (float)(t->frame_count - 2);
    float f = floorf(u);
    f = f > last ? last : f;
    const float a = u - f;
    *alpha = a < 0.0f ? 0.0f : (a > 1.0f ? 1.0f : a);
    return (int)f;
}

/* A view the jobs can read: values, >= 1 frame, a finite duration (> 0
 * with two frames or more). */
static inline bool ossai_track_ok(const ossa_float_track *t)
{
    return t->values && t->frame_count >= 1 && isfinite(t->duration_s) &&
           (t->frame_count == 1 ? t->duration_s >= 0.0f : t->duration_s > 0.0f);
}

/* ---- the line a looped track draws along a playhead (track_walk.c) ----
 *
 * Both event jobs walk it in the direction of play. Playing backwards is
 * playing forwards along s = -playhead through the track reversed in time,
 * so the walk only goes forwards: knot f of loop m is at s = m D + f dt,
 * with value v[f] (v[F - 1 - f] reversed); the last knot of a loop and the
 * first of the next share their s (the jump where a loop ends). */

typedef struct ossai_track_point {
    double s;   /* position along the direction of play */
    double tau; /* its time in its loop (of the walked, maybe reversed, track) */
    float v;
} ossai_track_point;

typedef struct ossai_track_walk {
    const float *values;
    int frames;
    bool reversed;
    double duration, dt;
    double m;   /* the next knot: loop m, frame f */
    int f;
    double m1;  /* the end: loop m1, frame position pos1 (tau1 / dt) */
    double pos1;
    ossai_track_point start, end;
    int stage;  /* 0 start, 1 knots, 2 end, 3 done */
} ossai_track_walk;

/* Walk of track t (>= 2 frames) from s0 to s1 (s0 < s1; s = playhead, or
 * minus it when reversed). */
void ossai_track_walk_begin(ossai_track_walk *w, const ossa_float_track *t, double s0, double s1,
                            bool reversed);
/* The next point, false when the walk is over. */
bool ossai_track_walk_next(ossai_track_walk *w, ossai_track_point *p);

/* Points of a line the short-step path takes (the lane kernel's width); a
 * frame-sized step of a track sampled a few times per clip frame fits. */
#define OSSAI_TRACK_POINTS 8

/* The common case, a short step inside one loop (no loop end crossed or
 * reached): the line's points in the order of play - the value at from,
 * every frame strictly between, the value at to - as their values and clip
 * times; loop_start is the playhead where their loop starts. False when the
 * step needs the general walk (a loop end, or more points). Float
 * arithmetic, operation for operation what the lane kernel
 * (track_kernels.c) evaluates, so both jobs find the same points. */
static inline bool ossai_track_short_step(const ossa_float_track *t, float from, float to,
                                          float *values, float *times, int *count,
                                          float *loop_start)
{
    const float d = t->duration_s;
    const float loop = floorf(from / d);
    if (floorf(to / d) != loop)
        return false;
    /* rounding may leave a time a hair outside its loop: clamped */
    float t0 = from - loop * d, t1 = to - loop * d;
    t0 = t0 < 0.0f ? 0.0f : (t0 > d ? d : t0);
    t1 = t1 < 0.0f ? 0.0f : (t1 > d ? d : t1);
    const bool back = to < from;
    /* backwards, a step ending on its loop's start reaches the jump there */
    if (back && !(t1 > 0.0f))
        return false;
    const float rate = ossai_track_rate(t), last = (float)(t->frame_count - 2);
    const float p0 = t0 * rate, p1 = t1 * rate;
    /* frames strictly between, in the order of play */
    const float lo = floorf(back ? p1 : p0) + 1.0f, hi = ceilf(back ? p0 : p1) - 1.0f;
    const int between = hi >= lo ? (int)(hi - lo) + 1 : 0;
    if (between > OSSAI_TRACK_POINTS - 2)
        return false;
    const float g0 = floorf(p0), g1 = floorf(p1);
    const float f0 = g0 > last ? last : g0, f1 = g1 > last ? last : g1;
    const float a0 = p0 - f0, a1 = p1 - f1;
    const float *v = t->values;
    values[0] = v[(int)f0] * (1.0f - a0) + v[(int)f0 + 1] * a0;
    times[0] = t0;
    for (int k = 0; k < between; ++k) {
        const int f = back ? (int)hi - k : (int)lo + k;
        values[k + 1] = v[f];
        times[k + 1] = (float)f / rate;
    }
    values[between + 1] = v[(int)f1] * (1.0f - a1) + v[(int)f1 + 1] * a1;
    times[between + 1] = t1;
    *count = between + 2;
    *loop_start = loop * d;
    return true;
}

/* Events between two playheads of one character, the reference's way:
 * stores the first `capacity` in events, returns how many there are. */
int ossai_track_events(const ossa_float_track *t, float from_s, float to_s, float threshold,
                       ossa_edge edges, ossa_track_event *events, int capacity);

/* The event of a crossing on segment p -> q at fraction frac of it. */
static inline ossa_track_event ossai_track_event_at(const ossai_track_point *p,
                                                    const ossai_track_point *q, float frac,
                                                    bool rising, bool reversed, double duration)
{
    const double s = p->s + (double)frac * (q->s - p->s);
    /* a jump (q->s == p->s) lands in the next loop: its time is q's */
    const double tau = q->s == p->s ? q->tau : p->tau + (double)frac * (q->tau - p->tau);
    ossa_track_event e;
    e.playhead_s = (float)(reversed ? -s : s);
    e.time_s = (float)(reversed ? duration - tau : tau);
    e.rising = rising;
    return e;
}

/* Whether a segment from value a to b crosses the threshold in a reported
 * direction, and where (the fraction of the way): the formulas the lane
 * kernel evaluates too. */
static inline bool ossai_track_crosses(float a, float b, float threshold, ossa_edge edges,
                                       float *frac, bool *rising)
{
    const bool above_a = a >= threshold, above_b = b >= threshold;
    *rising = above_b;
    if (above_a == above_b || (edges == OSSA_EDGE_RISING && !above_b) ||
        (edges == OSSA_EDGE_FALLING && above_b))
        return false;
    const float f = (threshold - a) / (b - a);
    *frac = f < 0.0f ? 0.0f : (f > 1.0f ? 1.0f : f);
    return true;
}

/* The event of a crossing at fraction frac of the short-step segment from
 * point k to k + 1. */
static inline ossa_track_event ossai_track_short_event(const float *times, int k, float frac,
                                                       bool rising, float loop_start)
{
    const float t = times[k] + frac * (times[k + 1] - times[k]);
    ossa_track_event e;
    e.playhead_s = loop_start + t;
    e.time_s = t;
    e.rising = rising;
    return e;
}

#endif /* OSSA_TRACKS_INTERNAL_H */
