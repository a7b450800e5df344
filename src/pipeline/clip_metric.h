/* clip_metric.h - the one error metric of clips (ACL's and ozz's): how far
 * virtual points at distance d from each joint, on its axes, move in model
 * space when a pose is approximated; evaluated in double through the
 * hierarchy. The resampler (clip_builder.c) chooses rates with it and the
 * compressor (clip_compress*.c) chooses bit widths with it. Pipeline-internal. */
#ifndef OSSA_CLIP_METRIC_H
#define OSSA_CLIP_METRIC_H

#include <math.h>
#include <stdint.h>

#include "ossa/clip_builder.h"

/* An affine transform in double: rows of [3x3 linear | translation]. */
typedef struct ossai_dxf {
    double m[3][4];
} ossai_dxf;

/* The affine matrix of a float TRS (rotation normalised in double first). */
ossai_dxf ossai_dxf_from_transform(const ossa_transform *x);
/* The affine matrix of a double TRS (q need not be unit; it is normalised). */
ossai_dxf ossai_dxf_from_trs(const double t[3], const double q[4], const double s[3]);
/* a * b (b applied first). Inline, as ossai_point_error2: the compressor's
 * search runs them for every point of every track it tries. */
static inline ossai_dxf ossai_dxf_mul(const ossai_dxf *a, const ossai_dxf *b)
{
    ossai_dxf r;
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 4; ++j)
            r.m[i][j] = a->m[i][0] * b->m[0][j] + a->m[i][1] * b->m[1][j] + a->m[i][2] * b->m[2][j];
        r.m[i][3] += a->m[i][3];
    }
    return r;
}

/* The largest distance between the images, under a and b, of the six points
 * at +-d on the joint's x, y and z axes. Every point of their octahedron
 * (so every point within d / sqrt(3) of the joint) moves at most that much,
 * because the displacement is affine in the point. */
double ossai_point_error(const ossai_dxf *a, const ossai_dxf *b, double distance);
/* Its square (no square root: for taking maxima). */
static inline double ossai_point_error2(const ossai_dxf *a, const ossai_dxf *b, double distance)
{
    /* The image of point p is M p + t: the displacement of +-d e_k is
     * dt +- d dM e_k, whose larger length over the sign is
     * sqrt(|dt|^2 + d^2 |dM e_k|^2 + 2 d |dt . dM e_k|). */
    const double dt[3] = {a->m[0][3] - b->m[0][3], a->m[1][3] - b->m[1][3],
                          a->m[2][3] - b->m[2][3]};
    const double t2 = dt[0] * dt[0] + dt[1] * dt[1] + dt[2] * dt[2];
    double worst = t2;
    for (int k = 0; k < 3; ++k) {
        const double c[3] = {distance * (a->m[0][k] - b->m[0][k]),
                             distance * (a->m[1][k] - b->m[1][k]),
                             distance * (a->m[2][k] - b->m[2][k])};
        const double c2 = c[0] * c[0] + c[1] * c[1] + c[2] * c[2];
        const double dot = fabs(c[0] * dt[0] + c[1] * dt[1] + c[2] * dt[2]);
        const double e = t2 + c2 + 2.0 * dot;
        worst = e > worst ? e : worst;
    }
    return worst;
}

/* model[j] = model[parents[j]] * local[j] (or local[j] for a root), for
 * joints [0, count) in order; model may alias local. */
void ossai_dxf_to_model(const uint16_t *parents, int count, const ossai_dxf *local,
                        ossai_dxf *model);

/* Tolerance and distance in model units from metres, with the skeleton's
 * recorded units; unknown units (0) are taken as metres (*assumed set). */
typedef struct ossai_metric_units {
    double tolerance, distance; /* model units */
    int assumed_metres;         /* the skeleton's units are unknown */
} ossai_metric_units;
ossai_metric_units ossai_metric_units_make(double tolerance_m, double distance_m,
                                           float metres_per_unit);

/* The source pose at time t (seconds, double): every joint's local transform
 * from its raw track (tracks[j], NULL for the rest pose), curves evaluated
 * exactly with glTF semantics, except that a STEP key within an instant of t
 * has been reached (the runtime's key snap may switch a held key a few ulps
 * early). */
void ossai_source_local(const ossa_raw_joint_track *const *tracks, const ossa_transform *rest,
                        int count, double t, ossai_dxf *local);

/* The times the metric is evaluated at over [0, duration]: every frame of a
 * uniform grid of frame_count frames; inside every interval between two
 * frames its middle (where a curved source is furthest from straight keys)
 * and the two points 0.5 -+ sqrt(3) / 6 of it (where nlerp is furthest from
 * slerp, with which it agrees in the middle); and every key time of the
 * tracks inside the clip; sorted, each once, every one
 * rounded to float (as a playhead is). Returns the count, or -1 when out of
 * memory; *times is allocated with the allocator (NULL when the count is 0). */
int ossai_metric_times(const ossa_raw_joint_track *const *tracks, int count, double duration,
                       int frame_count, const ossa_allocator *allocator, double **times);

#endif /* OSSA_CLIP_METRIC_H */
