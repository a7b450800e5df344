/* raw_curve.c - raw curves (STEP / LINEAR / CUBICSPLINE at arbitrary key
 * times) evaluated in double precision with glTF 2.0 semantics, and the public
 * evaluators ossa_raw_track3_eval / ossa_raw_track_quat_eval. */
#include "raw_curve.h"

#include <float.h>
#include <math.h>

#include "core/math_internal.h"

typedef ossai_dquat dquat;
typedef ossai_dvec3 dvec3;

static dvec3 dv(ossa_float3 v)
{
    dvec3 r = {v.x, v.y, v.z};
    return r;
}

static dquat dq(ossa_quat q)
{
    dquat r = {q.x, q.y, q.z, q.w};
    return r;
}

static dquat dq_normalize(dquat q)
{
    double len = sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
    if (!(len > 0.0) || !isfinite(len)) {
        dquat id = {0, 0, 0, 1};
        return id;
    }
    dquat r = {q.x / len, q.y / len, q.z / len, q.w / len};
    return r;
}

static dquat dq_slerp(dquat a, dquat b, double t)
{
    double d = a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
    if (d < 0.0) {
        d = -d;
        b.x = -b.x, b.y = -b.y, b.z = -b.z, b.w = -b.w;
    }
    double wa, wb;
    if (d > 1.0 - 1e-12) {
        wa = 1.0 - t;
        wb = t;
    } else {
        double theta = acos(d), s = sin(theta);
        wa = sin((1.0 - t) * theta) / s;
        wb = sin(t * theta) / s;
    }
    dquat r = {a.x * wa + b.x * wb, a.y * wa + b.y * wb, a.z * wa + b.z * wb,
               a.w * wa + b.w * wb};
    return dq_normalize(r);
}

double ossai_instant_eps(double t)
{
    return OSSAI_TIME_EPS + 8.0 * FLT_EPSILON * fabs(t);
}

/* Index of the segment [i, i + 1] holding t: the last key with time <= t
 * (ties resolve to the later key, so a repeated time is a jump). Returns -1
 * before the first key. */
static int find_key(const float *times, int count, double t)
{
    if (t < (double)times[0])
        return -1;
    int lo = 0, hi = count - 1;
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        if ((double)times[mid] <= t)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

/* The last key within an instant of t (ossai_instant_eps), or -1. */
static int key_at(const float *times, int count, double t)
{
    const double eps = ossai_instant_eps(t);
    const int k = find_key(times, count, t + eps);
    return k >= 0 && (double)times[k] >= t - eps ? k : -1;
}

/* Position in [0, 1] of t in the segment [t0, t0 + dt]. */
static double segment_position(double t, double t0, double dt)
{
    if (!(dt > 0.0))
        return 1.0;
    const double s = (t - t0) / dt;
    return s < 0.0 ? 0.0 : (s > 1.0 ? 1.0 : s);
}

/* Hermite basis of glTF's cubic spline at s in [0, 1]. */
static void hermite(double s, double *h00, double *h10, double *h01, double *h11)
{
    double s2 = s * s, s3 = s2 * s;
    *h00 = 2 * s3 - 3 * s2 + 1;
    *h10 = s3 - 2 * s2 + s;
    *h01 = -2 * s3 + 3 * s2;
    *h11 = s3 - s2;
}

ossai_dvec3 ossai_curve3_eval(const ossa_raw_track3 *tr, double t)
{
    const int n = tr->key_count;
    int i = find_key(tr->times_s, n, t);
    if (i < 0)
        return dv(tr->values[0]);
    if (i >= n - 1 || tr->interpolation == OSSA_INTERP_STEP)
        return dv(tr->values[i]);
    const double t0 = tr->times_s[i], t1 = tr->times_s[i + 1], dt = t1 - t0;
    const double s = segment_position(t, t0, dt);
    const dvec3 a = dv(tr->values[i]), b = dv(tr->values[i + 1]);
    dvec3 r;
    if (tr->interpolation == OSSA_INTERP_CUBICSPLINE) {
        double h00, h10, h01, h11;
        hermite(s, &h00, &h10, &h01, &h11);
        const dvec3 m0 = dv(tr->out_tangents[i]), m1 = dv(tr->in_tangents[i + 1]);
        r.x = h00 * a.x + h10 * dt * m0.x + h01 * b.x + h11 * dt * m1.x;
        r.y = h00 * a.y + h10 * dt * m0.y + h01 * b.y + h11 * dt * m1.y;
        r.z = h00 * a.z + h10 * dt * m0.z + h01 * b.z + h11 * dt * m1.z;
        return r;
    }
    r.x = a.x + (b.x - a.x) * s;
    r.y = a.y + (b.y - a.y) * s;
    r.z = a.z + (b.z - a.z) * s;
    return r;
}

ossai_dquat ossai_curve_quat_eval(const ossa_raw_track_quat *tr, double t)
{
    const int n = tr->key_count;
    int i = find_key(tr->times_s, n, t);
    if (i < 0)
        return dq_normalize(dq(tr->values[0]));
    if (i >= n - 1 || tr->interpolation == OSSA_INTERP_STEP)
        return dq_normalize(dq(tr->values[i]));
    const double t0 = tr->times_s[i], t1 = tr->times_s[i + 1], dt = t1 - t0;
    const double s = segment_position(t, t0, dt);
    const dquat a = dq(tr->values[i]), b = dq(tr->values[i + 1]);
    if (tr->interpolation == OSSA_INTERP_CUBICSPLINE) {
        double h00, h10, h01, h11;
        hermite(s, &h00, &h10, &h01, &h11);
        const dquat m0 = dq(tr->out_tangents[i]), m1 = dq(tr->in_tangents[i + 1]);
        dquat r = {h00 * a.x + h10 * dt * m0.x + h01 * b.x + h11 * dt * m1.x,
                   h00 * a.y + h10 * dt * m0.y + h01 * b.y + h11 * dt * m1.y,
                   h00 * a.z + h10 * dt * m0.z + h01 * b.z + h11 * dt * m1.z,
                   h00 * a.w + h10 * dt * m0.w + h01 * b.w + h11 * dt * m1.w};
        return dq_normalize(r);
    }
    return dq_slerp(dq_normalize(a), dq_normalize(b), s); /* glTF: LINEAR rotation is slerp */
}

ossai_dvec3 ossai_curve3_bake(const ossa_raw_track3 *tr, double t)
{
    const int k = key_at(tr->times_s, tr->key_count, t);
    return k >= 0 ? dv(tr->values[k]) : ossai_curve3_eval(tr, t);
}

ossai_dquat ossai_curve_quat_bake(const ossa_raw_track_quat *tr, double t)
{
    const int k = key_at(tr->times_s, tr->key_count, t);
    return k >= 0 ? dq_normalize(dq(tr->values[k])) : ossai_curve_quat_eval(tr, t);
}

double ossai_curve3_max_second_derivative(const ossa_raw_track3 *tr, double t0, double t1)
{
    const int n = tr->key_count;
    if (tr->interpolation != OSSA_INTERP_CUBICSPLINE || n < 2)
        return 0.0;
    /* Every segment touching [t0, t1]. */
    int first = find_key(tr->times_s, n, t0), last = find_key(tr->times_s, n, t1);
    first = first < 0 ? 0 : first;
    last = last > n - 2 ? n - 2 : last;
    double m = 0.0;
    for (int i = first; i <= last; ++i) {
        const double dt = (double)tr->times_s[i + 1] - tr->times_s[i];
        if (!(dt > 0.0))
            continue;
        const dvec3 a = dv(tr->values[i]), b = dv(tr->values[i + 1]);
        const dvec3 m0 = dv(tr->out_tangents[i]), m1 = dv(tr->in_tangents[i + 1]);
        /* d2p/ds2 of the Hermite basis at s = 0 and s = 1, over dt^2. */
        const double d[3] = {b.x - a.x, b.y - a.y, b.z - a.z};
        const double t0_[3] = {m0.x * dt, m0.y * dt, m0.z * dt};
        const double t1_[3] = {m1.x * dt, m1.y * dt, m1.z * dt};
        double start = 0.0, end = 0.0;
        for (int c = 0; c < 3; ++c) {
            const double p0 = 6.0 * d[c] - 4.0 * t0_[c] - 2.0 * t1_[c];
            const double p1 = -6.0 * d[c] + 2.0 * t0_[c] + 4.0 * t1_[c];
            start += p0 * p0;
            end += p1 * p1;
        }
        m = fmax(m, sqrt(fmax(start, end)) / (dt * dt));
    }
    return m;
}

double ossai_curve1_eval(const ossa_raw_float_track *tr, double t)
{
    const int n = tr->key_count;
    int i = find_key(tr->times_s, n, t);
    if (i < 0)
        return tr->values[0];
    if (i >= n - 1 || tr->interpolation == OSSA_INTERP_STEP)
        return tr->values[i];
    const double t0 = tr->times_s[i], t1 = tr->times_s[i + 1], dt = t1 - t0;
    const double s = segment_position(t, t0, dt);
    const double a = tr->values[i], b = tr->values[i + 1];
    if (tr->interpolation == OSSA_INTERP_CUBICSPLINE) {
        double h00, h10, h01, h11;
        hermite(s, &h00, &h10, &h01, &h11);
        return h00 * a + h10 * dt * tr->out_tangents[i] + h01 * b +
               h11 * dt * tr->in_tangents[i + 1];
    }
    return a + (b - a) * s;
}

double ossai_curve1_bake(const ossa_raw_float_track *tr, double t)
{
    const int k = key_at(tr->times_s, tr->key_count, t);
    return k >= 0 ? tr->values[k] : ossai_curve1_eval(tr, t);
}

float ossa_raw_float_track_eval(const ossa_raw_float_track *track, float t_s)
{
    if (!track || track->key_count <= 0 || !track->times_s || !track->values)
        return 0.0f;
    return (float)ossai_curve1_eval(track, t_s);
}

ossa_float3 ossa_raw_track3_eval(const ossa_raw_track3 *track, float t_s)
{
    ossa_float3 zero = {0.0f, 0.0f, 0.0f};
    if (!track || track->key_count <= 0 || !track->times_s || !track->values)
        return zero;
    dvec3 v = ossai_curve3_eval(track, t_s);
    return ossai_f3((float)v.x, (float)v.y, (float)v.z);
}

ossa_quat ossa_raw_track_quat_eval(const ossa_raw_track_quat *track, float t_s)
{
    if (!track || track->key_count <= 0 || !track->times_s || !track->values)
        return ossai_quat(0.0f, 0.0f, 0.0f, 1.0f);
    dquat q = ossai_curve_quat_eval(track, t_s);
    return ossai_quat((float)q.x, (float)q.y, (float)q.z, (float)q.w);
}
