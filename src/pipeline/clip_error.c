/* clip_error.c - the error a built clip makes against its source curves.
 *
 * The built clip is sampled by the runtime itself (ossa_clip_sample_joint, at
 * float times, as a game plays it) and compared with the source curves in
 * double precision, one frame interval at a time, at its ends, at SUBSTEPS
 * points inside and at every source key inside:
 * - translation and scale: between two consecutive such points the runtime is
 *   linear in time and the source a polynomial of degree <= 3 (constant or
 *   linear for STEP and LINEAR), so the error can exceed the larger of its two
 *   end values by at most h^2 / 8 * max|p''| (h the spacing, p'' the source's
 *   second derivative). That term is added: the result bounds the error
 *   everywhere, up to float rounding.
 * - rotation: the angle is also measured where nlerp strays furthest from
 *   slerp (0.5 -+ sqrt(3) / 6 of a frame), and wherever the error rises to a
 *   peak between two points, the peak is found by successive parabolic
 *   interpolation, measuring at each vertex. A held (STEP) rotation's error
 *   is piecewise constant: its measured points are its maxima. */
#include "clip_error.h"

#include <math.h>

#include "ossa/sampling_job.h"
#include "raw_curve.h"

#define RAD_TO_DEG 57.29577951308232
/* Evenly spaced measuring steps inside each frame interval. */
#define SUBSTEPS 8
/* Where the angle between nlerp and slerp peaks, as a fraction of a frame
 * (exactly so for small angles): 0.5 -+ sqrt(3) / 6. */
#define NLERP_PEAK 0.21132486540518713
/* Parabolic steps towards a rotation error peak. */
#define PEAK_STEPS 4
/* Measuring points of one frame interval kept for the peak search. */
#define MAX_POINTS 128

/* One joint being measured, and its largest errors in the current interval. */
typedef struct probe {
    const ossa_clip *clip;
    int joint;
    const ossa_raw_joint_track *track;
    double t, r, s;
    double magnitude; /* largest |source translation| seen, for worst_joint */
} probe;

/* The source as the error is measured against it: exactly, except that a
 * STEP key within an instant of t has been reached (the sampler's key snap
 * may switch a held key a few ulps early). */
static ossai_dvec3 source3(const ossa_raw_track3 *tr, double t)
{
    return tr->interpolation == OSSA_INTERP_STEP ? ossai_curve3_bake(tr, t) : ossai_curve3_eval(tr, t);
}

static ossai_dquat source_quat(const ossa_raw_track_quat *tr, double t)
{
    return tr->interpolation == OSSA_INTERP_STEP ? ossai_curve_quat_bake(tr, t)
                                                 : ossai_curve_quat_eval(tr, t);
}

/* Measures the runtime against the source at time t (rounded to float, as a
 * playhead is), folds the errors into the probe, returns the rotation's. */
static double probe_at(probe *p, double time)
{
    const float t = (float)time;
    const ossa_raw_joint_track *tk = p->track;
    const ossa_transform got = ossa_clip_sample_joint(p->clip, p->joint, t, OSSA_ROTATION_NLERP);
    double er = 0.0;
    if (tk->translation.key_count > 0) {
        const ossai_dvec3 v = source3(&tk->translation, t);
        const double dx = got.translation.x - v.x, dy = got.translation.y - v.y,
                     dz = got.translation.z - v.z;
        p->t = fmax(p->t, sqrt(dx * dx + dy * dy + dz * dz));
        p->magnitude = fmax(p->magnitude, sqrt(v.x * v.x + v.y * v.y + v.z * v.z));
    }
    if (tk->scale.key_count > 0) {
        const ossai_dvec3 v = source3(&tk->scale, t);
        p->s = fmax(p->s, fmax(fabs(got.scale.x - v.x),
                               fmax(fabs(got.scale.y - v.y), fabs(got.scale.z - v.z))));
    }
    if (tk->rotation.key_count > 0) {
        const ossai_dquat q = source_quat(&tk->rotation, t);
        const ossa_quat g = got.rotation;
        /* conj(g) * q: its vector part has length sin(angle / 2). */
        const double x = g.w * q.x - g.x * q.w - g.y * q.z + g.z * q.y;
        const double y = g.w * q.y + g.x * q.z - g.y * q.w - g.z * q.x;
        const double z = g.w * q.z - g.x * q.y + g.y * q.x - g.z * q.w;
        const double w = g.w * q.w + g.x * q.x + g.y * q.y + g.z * q.z;
        er = 2.0 * atan2(sqrt(x * x + y * y + z * z), fabs(w)) * RAD_TO_DEG;
        p->r = fmax(p->r, er);
    }
    return er;
}

/* Keys of one curve inside the open interval (a, b), from a cursor that only
 * moves forward as the frames do. */
typedef struct key_cursor {
    const float *times;
    int count, next;
} key_cursor;

static int cursor_next_inside(key_cursor *k, double a, double b, double *t)
{
    while (k->next < k->count && k->times[k->next] <= a)
        ++k->next;
    if (k->next < k->count && k->times[k->next] < b) {
        *t = k->times[k->next++];
        return 1;
    }
    return 0;
}

/* Whether the rotation curve has a key strictly inside (lo, hi). */
static int has_key_between(const ossa_raw_track_quat *tr, double lo, double hi)
{
    int first = 0, last = tr->key_count; /* first key > lo, by bisection */
    while (first < last) {
        const int mid = (first + last) / 2;
        if (tr->times_s[mid] > lo)
            last = mid;
        else
            first = mid + 1;
    }
    return first < tr->key_count && tr->times_s[first] < hi;
}

/* The parabola through three points (x increasing), in Newton form. */
typedef struct parabola {
    double x0, x1, y0, d01, d012;
} parabola;

static parabola parabola_through(const double *x, const double *y)
{
    const double d01 = (y[1] - y[0]) / (x[1] - x[0]), d12 = (y[2] - y[1]) / (x[2] - x[1]);
    parabola q = {x[0], x[1], y[0], d01, (d12 - d01) / (x[2] - x[0])};
    return q;
}

static double parabola_at(const parabola *q, double x)
{
    return q->y0 + q->d01 * (x - q->x0) + q->d012 * (x - q->x0) * (x - q->x1);
}

/* The parabola's peak when it has one inside (lo, hi). */
static int parabola_peak(const parabola *q, double lo, double hi, double *x)
{
    if (!(q->d012 < 0.0))
        return 0;
    *x = 0.5 * (q->x0 + q->x1) - q->d01 / (2.0 * q->d012);
    return *x > lo && *x < hi;
}

/* The height of the rotation error's peak inside (lo, hi), a piece with no
 * rotation key, starting from three measured points of the smooth stretch
 * around it: each step measures at the parabola's vertex and keeps the
 * highest point with its neighbours. Returns the last parabola's height. */
static double rotation_peak(probe *p, double x[3], double y[3], double lo, double hi)
{
    parabola q = parabola_through(x, y);
    double v, height = 0.0;
    for (int step = 0; step < PEAK_STEPS && parabola_peak(&q, lo, hi, &v); ++step) {
        height = parabola_at(&q, v);
        v = (float)v; /* where the probe measures */
        if (v <= x[0] || v >= x[2] || v == x[1])
            break;
        const double yv = probe_at(p, v);
        const int before = v < x[1]; /* the new point goes second or third */
        const double xs[4] = {x[0], before ? v : x[1], before ? x[1] : v, x[2]};
        const double ys[4] = {y[0], before ? yv : y[1], before ? y[1] : yv, y[2]};
        const int top = ys[1] >= ys[2] ? 1 : 2; /* the highest middle point */
        for (int k = 0; k < 3; ++k) {
            x[k] = xs[top - 1 + k];
            y[k] = ys[top - 1 + k];
        }
        q = parabola_through(x, y);
        height = fmax(yv, parabola_peak(&q, lo, hi, &v) ? parabola_at(&q, v) : yv);
    }
    return height;
}

/* Points of one frame interval in time order, with their rotation errors. */
typedef struct points {
    int count;
    double time[MAX_POINTS], rotation[MAX_POINTS];
} points;

static void points_insert(points *p, double time, double rotation)
{
    for (int k = 0; k < p->count; ++k)
        if (p->time[k] == time)
            return; /* a key on a measuring point: one point */
    if (p->count == MAX_POINTS)
        return; /* measured all the same; only the peak search skips it */
    int i = p->count++;
    while (i > 0 && p->time[i - 1] > time) {
        p->time[i] = p->time[i - 1];
        p->rotation[i] = p->rotation[i - 1];
        --i;
    }
    p->time[i] = time;
    p->rotation[i] = rotation;
}

/* Bounds of the errors over one frame interval [a, b], left in the probe. */
static void measure_interval(probe *p, double a, double b, key_cursor keys[3])
{
    const ossa_raw_joint_track *tk = p->track;
    points pts;
    pts.count = 0;
    p->t = p->r = p->s = 0.0;
    for (int k = 0; k <= SUBSTEPS; ++k) {
        const double t = (float)(k == SUBSTEPS ? b : a + (b - a) * k / SUBSTEPS);
        points_insert(&pts, t, probe_at(p, t));
    }
    for (int k = 0; k < 2; ++k) {
        const double t = (float)(a + (b - a) * (k ? 1.0 - NLERP_PEAK : NLERP_PEAK));
        points_insert(&pts, t, probe_at(p, t));
    }
    const double h = (b - a) / SUBSTEPS;
    for (int c = 0; c < 3; ++c) {
        double t;
        while (cursor_next_inside(&keys[c], a, b, &t)) {
            points_insert(&pts, t, probe_at(p, t));
            /* A rotation key kinks the error, which may peak right beside
             * it: look closer on both sides, down to h / 64. */
            for (int k = 0; c == 1 && k < 12; ++k) {
                const double near = (float)(t + (k % 2 ? h : -h) / (double)(2 << (k / 2)));
                if (near > a && near < b)
                    points_insert(&pts, near, probe_at(p, near));
            }
        }
    }
    /* Between measured points (at most h apart, no key between) the error
     * bends at most as much as the source curve does. */
    const double bend = h * h / 8.0;
    if (tk->translation.key_count > 0)
        p->t += bend * ossai_curve3_max_second_derivative(&tk->translation, a, b);
    if (tk->scale.key_count > 0)
        p->s += bend * ossai_curve3_max_second_derivative(&tk->scale, a, b);
    if (tk->rotation.key_count < 2 || tk->rotation.interpolation == OSSA_INTERP_STEP)
        return;
    /* Each piece between two points, with its neighbour on either side (when
     * no key lies between): one of them may reach across a dip. */
    double peak = 0.0;
    for (int i = 0; i + 1 < pts.count; ++i)
        for (int first = i - 1; first <= i; ++first) {
            if (first < 0 || first + 2 >= pts.count ||
                has_key_between(&tk->rotation, pts.time[first], pts.time[first + 2]))
                continue;
            double x[3] = {pts.time[first], pts.time[first + 1], pts.time[first + 2]};
            double y[3] = {pts.rotation[first], pts.rotation[first + 1], pts.rotation[first + 2]};
            peak = fmax(peak, rotation_peak(p, x, y, pts.time[i], pts.time[i + 1]));
        }
    p->r = fmax(p->r, peak);
}

ossai_clip_error ossai_clip_error_measure(const ossa_clip *clip,
                                          const ossa_raw_joint_track *const *tracks,
                                          double duration)
{
    const int joint_count = ossa_clip_joint_count(clip);
    const int frame_count = ossa_clip_frame_count(clip);
    ossai_clip_error result = {0.0, 0.0, 0.0, -1};
    double worst = 0.0;
    for (int j = 0; j < joint_count; ++j) {
        if (!tracks[j])
            continue;
        probe p = {clip, j, tracks[j], 0.0, 0.0, 0.0, 0.0};
        const ossa_raw_joint_track *tk = tracks[j];
        key_cursor keys[3] = {{tk->translation.times_s, tk->translation.key_count, 0},
                              {tk->rotation.times_s, tk->rotation.key_count, 0},
                              {tk->scale.times_s, tk->scale.key_count, 0}};
        double et = 0.0, er = 0.0, es = 0.0;
        if (frame_count < 2) {
            /* One frame holds; the source may still move at its keys. */
            for (int c = 0; c < 3; ++c)
                for (int k = 0; k < keys[c].count; ++k)
                    if (keys[c].times[k] >= 0.0f && keys[c].times[k] <= duration)
                        probe_at(&p, keys[c].times[k]);
            et = p.t, er = p.r, es = p.s;
        }
        for (int f = 0; f + 1 < frame_count; ++f) {
            const double a = duration * f / (frame_count - 1);
            const double b = f + 2 == frame_count ? duration : duration * (f + 1) / (frame_count - 1);
            measure_interval(&p, a, b, keys);
            et = fmax(et, p.t);
            er = fmax(er, p.r);
            es = fmax(es, p.s);
        }
        result.translation = fmax(result.translation, et);
        result.rotation_deg = fmax(result.rotation_deg, er);
        result.scale = fmax(result.scale, es);
        const double relative = fmax(et / (1.0 + p.magnitude), fmax(es, er / 180.0));
        if (relative > worst) {
            worst = relative;
            result.worst_joint = j;
        }
    }
    return result;
}
