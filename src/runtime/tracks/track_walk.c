/* track_walk.c - the line a looped float track draws along a playhead, knot
 * by knot in the direction of play (tracks_internal.h), and the reference
 * search for its threshold crossings: a short step inside one loop the
 * quick way (the lane job's too), any other along the walk, at most three
 * loops' work however many loops the playheads span. */
#include <math.h>

#include "tracks/tracks_internal.h"

static float value_at_knot(const ossai_track_walk *w, int f)
{
    return w->values[w->reversed ? w->frames - 1 - f : f];
}

/* The value at time tau of a loop (linear between knots). */
static float value_at(const ossai_track_walk *w, double tau)
{
    const double u = tau / w->dt, last = w->frames - 2;
    double f = floor(u);
    f = f < 0.0 ? 0.0 : (f > last ? last : f);
    const float a = (float)fmin(fmax(u - f, 0.0), 1.0);
    return value_at_knot(w, (int)f) * (1.0f - a) + value_at_knot(w, (int)f + 1) * a;
}

/* Loop and time of s, right-continuous: tau in [0, D). A time within a
 * trillionth of the loop of its end is the end (the next loop's start):
 * s = k D computed in double can land a rounding short of it, which would
 * move the jump across the boundary. */
static double split(double s, double duration, double *tau)
{
    const double m = floor(s / duration);
    const double t = s - m * duration;
    const bool next = t >= duration * (1.0 - 1e-12);
    *tau = t < 0.0 || next ? 0.0 : t;
    return next ? m + 1.0 : m;
}

void ossai_track_walk_begin(ossai_track_walk *w, const ossa_float_track *t, double s0, double s1,
                            bool reversed)
{
    w->values = t->values;
    w->frames = t->frame_count;
    w->reversed = reversed;
    w->duration = t->duration_s;
    w->dt = w->duration / (w->frames - 1);
    double tau0, tau1;
    const double m0 = split(s0, w->duration, &tau0);
    w->m1 = split(s1, w->duration, &tau1);
    w->pos1 = tau1 / w->dt;
    w->start = (ossai_track_point){s0, tau0, value_at(w, tau0)};
    w->end = (ossai_track_point){s1, tau1, value_at(w, tau1)};
    w->m = m0;
    int f = (int)floor(tau0 / w->dt) + 1;
    w->f = f > w->frames - 1 ? w->frames - 1 : f;
    w->stage = 0;
}

bool ossai_track_walk_next(ossai_track_walk *w, ossai_track_point *p)
{
    switch (w->stage) {
    case 0:
        *p = w->start;
        w->stage = 1;
        return true;
    case 1: {
        const int last = w->frames - 1;
        /* the loop's last knot is its end, where the next one starts: it
         * belongs to the walk when that end is not past the walk's */
        const bool inside = w->f == last ? w->m + 1.0 <= w->m1
                                         : w->m < w->m1 || (w->m == w->m1 && w->f < w->pos1);
        if (inside) {
            const double s = w->f == last ? (w->m + 1.0) * w->duration
                                          : w->m * w->duration + w->f * w->dt;
            *p = (ossai_track_point){s, w->f * w->dt, value_at_knot(w, w->f)};
            if (w->f == last) {
                w->m += 1.0;
                w->f = 0;
            } else {
                w->f += 1;
            }
            return true;
        }
        w->stage = 2;
    } /* fall through */
    case 2:
        *p = w->end;
        w->stage = 3;
        return true;
    default:
        return false;
    }
}

/* Events of the walk s0 -> s1, appended at events[count...]; returns the
 * new count. */
static int walk_events(const ossa_float_track *t, double s0, double s1, bool reversed,
                       float threshold, ossa_edge edges, ossa_track_event *events, int capacity,
                       int count)
{
    ossai_track_walk w;
    ossai_track_walk_begin(&w, t, s0, s1, reversed);
    ossai_track_point p, q;
    ossai_track_walk_next(&w, &p);
    while (ossai_track_walk_next(&w, &q)) {
        float frac;
        bool rising;
        if (ossai_track_crosses(p.v, q.v, threshold, edges, &frac, &rising)) {
            if (count < capacity)
                events[count] = ossai_track_event_at(&p, &q, frac, rising, reversed, w.duration);
            ++count;
        }
        p = q;
    }
    return count;
}

int ossai_track_events(const ossa_float_track *t, float from_s, float to_s, float threshold,
                       ossa_edge edges, ossa_track_event *events, int capacity)
{
    if (t->frame_count < 2 || from_s == to_s)
        return 0;
    float values[OSSAI_TRACK_POINTS], times[OSSAI_TRACK_POINTS], loop_start;
    int points;
    if (ossai_track_short_step(t, from_s, to_s, values, times, &points, &loop_start)) {
        int count = 0;
        for (int k = 0; k + 1 < points; ++k) {
            float frac;
            bool rising;
            if (!ossai_track_crosses(values[k], values[k + 1], threshold, edges, &frac, &rising))
                continue;
            if (count < capacity)
                events[count] = ossai_track_short_event(times, k, frac, rising, loop_start);
            ++count;
        }
        return count;
    }
    const bool reversed = to_s < from_s;
    const double s0 = reversed ? -(double)from_s : from_s, s1 = reversed ? -(double)to_s : to_s;
    const double d = t->duration_s;
    double tau;
    const double m0 = split(s0, d, &tau), m1 = split(s1, d, &tau);
    if (m1 - m0 < 3.0)
        return walk_events(t, s0, s1, reversed, threshold, edges, events, capacity, 0);
    /* to the end of the first loop; one whole loop, repeated for every
     * whole loop up to m1; then the last, partial one */
    int count = walk_events(t, s0, (m0 + 1.0) * d, reversed, threshold, edges, events, capacity,
                            0);
    const int first = count;
    count = walk_events(t, (m0 + 1.0) * d, (m0 + 2.0) * d, reversed, threshold, edges, events,
                        capacity, count);
    const int per_loop = count - first;
    const double loops = m1 - m0 - 1.0;
    for (double k = 1.0; k < loops && per_loop > 0; k += 1.0) {
        if (count >= capacity) { /* the rest only counted */
            const double more = (loops - k) * per_loop;
            count = more + count > 2147483647.0 ? 2147483647 : count + (int)more;
            break;
        }
        for (int e = 0; e < per_loop; ++e, ++count) {
            if (count >= capacity)
                continue;
            ossa_track_event ev = events[first + e];
            const double shift = k * d;
            ev.playhead_s = (float)(ev.playhead_s + (reversed ? -shift : shift));
            events[count] = ev;
        }
    }
    if (count >= 2147483647)
        return count;
    return walk_events(t, m1 * d, s1, reversed, threshold, edges, events, capacity, count);
}
