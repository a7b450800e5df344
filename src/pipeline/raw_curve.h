/* raw_curve.h - raw animation curves evaluated in double precision with glTF
 * 2.0 semantics: what the clip builder bakes into frames and measures its
 * error against. Pipeline-internal. */
#ifndef OSSA_RAW_CURVE_H
#define OSSA_RAW_CURVE_H

#include "ossa/clip_builder.h"

typedef struct ossai_dvec3 {
    double x, y, z;
} ossai_dvec3;

typedef struct ossai_dquat {
    double x, y, z, w;
} ossai_dquat;

/* The curve at time t (key_count >= 1), exactly as glTF defines it: values
 * held before the first and after the last key; STEP holds, LINEAR lerps
 * (slerps rotations), CUBICSPLINE is the Hermite spline with tangents scaled
 * by the key interval. Rotations come back unit length. */
ossai_dvec3 ossai_curve3_eval(const ossa_raw_track3 *track, double t);
ossai_dquat ossai_curve_quat_eval(const ossa_raw_track_quat *track, double t);

/* Two times closer than ossai_instant_eps(t) are one instant: OSSAI_TIME_EPS,
 * plus eight float ulps of t, because float key times far into a long clip
 * are coarser than OSSAI_TIME_EPS (one ulp is 2.4e-4 s at 3000 s). The
 * builder calls key times on a frame grid only within a third of it, so that
 * a frame time (in double) and the float key it stands for are always one
 * instant. */
#define OSSAI_TIME_EPS 1e-5
double ossai_instant_eps(double t);

/* The value a frame at time t takes: the key itself when a key is at t (one
 * instant), so frames on keys reproduce them exactly; else the curve. */
ossai_dvec3 ossai_curve3_bake(const ossa_raw_track3 *track, double t);
ossai_dquat ossai_curve_quat_bake(const ossa_raw_track_quat *track, double t);

/* The same for a scalar curve (a float track). */
double ossai_curve1_eval(const ossa_raw_float_track *track, double t);
double ossai_curve1_bake(const ossa_raw_float_track *track, double t);

/* An upper bound of |p''(t)| (Euclidean) over [t0, t1]: 0 unless the curve is
 * a CUBICSPLINE, whose second derivative is linear on each key segment. */
double ossai_curve3_max_second_derivative(const ossa_raw_track3 *track, double t0, double t1);

#endif /* OSSA_RAW_CURVE_H */
