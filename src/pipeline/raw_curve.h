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

/* Key times within this many seconds of a time count as at it. */
#define OSSAI_TIME_EPS 1e-5

/* The curve at time t (key_count >= 1): values held before the first and
 * after the last key; STEP holds, LINEAR lerps (slerps rotations),
 * CUBICSPLINE is the Hermite spline with tangents scaled by the key interval.
 * Rotations come back unit length. */
ossai_dvec3 ossai_curve3_eval(const ossa_raw_track3 *track, double t);
ossai_dquat ossai_curve_quat_eval(const ossa_raw_track_quat *track, double t);

#endif /* OSSA_RAW_CURVE_H */
