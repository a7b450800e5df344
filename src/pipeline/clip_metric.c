/* clip_metric.c - the clip error metric (see clip_metric.h): affine
 * transforms in double, the six-point displacement, the source pose from raw
 * curves and the times the metric is evaluated at. */
#include "clip_metric.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ossa/mesh_builder.h"
#include "raw_curve.h"

ossai_dxf ossai_dxf_from_trs(const double t[3], const double q[4], const double s[3])
{
    double len = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    double x = 0.0, y = 0.0, z = 0.0, w = 1.0;
    if (len > 0.0 && isfinite(len))
        x = q[0] / len, y = q[1] / len, z = q[2] / len, w = q[3] / len;
    const double xx = x * x, yy = y * y, zz = z * z, xy = x * y, xz = x * z, yz = y * z;
    const double wx = w * x, wy = w * y, wz = w * z;
    ossai_dxf r;
    r.m[0][0] = (1 - 2 * (yy + zz)) * s[0];
    r.m[0][1] = 2 * (xy - wz) * s[1];
    r.m[0][2] = 2 * (xz + wy) * s[2];
    r.m[1][0] = 2 * (xy + wz) * s[0];
    r.m[1][1] = (1 - 2 * (xx + zz)) * s[1];
    r.m[1][2] = 2 * (yz - wx) * s[2];
    r.m[2][0] = 2 * (xz - wy) * s[0];
    r.m[2][1] = 2 * (yz + wx) * s[1];
    r.m[2][2] = (1 - 2 * (xx + yy)) * s[2];
    r.m[0][3] = t[0];
    r.m[1][3] = t[1];
    r.m[2][3] = t[2];
    return r;
}

ossai_dxf ossai_dxf_from_transform(const ossa_transform *x)
{
    const double t[3] = {x->translation.x, x->translation.y, x->translation.z};
    const double q[4] = {x->rotation.x, x->rotation.y, x->rotation.z, x->rotation.w};
    const double s[3] = {x->scale.x, x->scale.y, x->scale.z};
    return ossai_dxf_from_trs(t, q, s);
}

double ossai_point_error(const ossai_dxf *a, const ossai_dxf *b, double distance)
{
    return sqrt(ossai_point_error2(a, b, distance));
}

void ossai_dxf_to_model(const uint16_t *parents, int count, const ossai_dxf *local,
                        ossai_dxf *model)
{
    for (int j = 0; j < count; ++j)
        model[j] = parents[j] == OSSA_NO_PARENT ? local[j]
                                                : ossai_dxf_mul(&model[parents[j]], &local[j]);
}

ossai_metric_units ossai_metric_units_make(double tolerance_m, double distance_m,
                                           float metres_per_unit)
{
    ossai_metric_units u;
    u.assumed_metres = !(metres_per_unit > 0.0f);
    const double unit = u.assumed_metres ? 1.0 : (double)metres_per_unit;
    u.tolerance = tolerance_m / unit;
    u.distance = distance_m / unit;
    return u;
}

/* The source curve as the metric measures against it (clip_metric.h). */
static ossai_dvec3 source3(const ossa_raw_track3 *tr, double t)
{
    return tr->interpolation == OSSA_INTERP_STEP ? ossai_curve3_bake(tr, t)
                                                 : ossai_curve3_eval(tr, t);
}

static ossai_dquat source_quat(const ossa_raw_track_quat *tr, double t)
{
    return tr->interpolation == OSSA_INTERP_STEP ? ossai_curve_quat_bake(tr, t)
                                                 : ossai_curve_quat_eval(tr, t);
}

void ossai_source_local(const ossa_raw_joint_track *const *tracks, const ossa_transform *rest,
                        int count, double t, ossai_dxf *local)
{
    for (int j = 0; j < count; ++j) {
        const ossa_raw_joint_track *tk = tracks[j];
        const ossa_transform *r = &rest[j];
        double tr[3] = {r->translation.x, r->translation.y, r->translation.z};
        double q[4] = {r->rotation.x, r->rotation.y, r->rotation.z, r->rotation.w};
        double s[3] = {r->scale.x, r->scale.y, r->scale.z};
        if (tk && tk->translation.key_count > 0) {
            const ossai_dvec3 v = source3(&tk->translation, t);
            tr[0] = v.x, tr[1] = v.y, tr[2] = v.z;
        }
        if (tk && tk->rotation.key_count > 0) {
            const ossai_dquat v = source_quat(&tk->rotation, t);
            q[0] = v.x, q[1] = v.y, q[2] = v.z, q[3] = v.w;
        }
        if (tk && tk->scale.key_count > 0) {
            const ossai_dvec3 v = source3(&tk->scale, t);
            s[0] = v.x, s[1] = v.y, s[2] = v.z;
        }
        local[j] = ossai_dxf_from_trs(tr, q, s);
    }
}

/* Inside every frame interval: the middle, where a curved source strays
 * furthest from the straight keys, and 0.5 -+ sqrt(3) / 6, where the
 * runtime's nlerp strays furthest from a slerp (it agrees with it in the
 * middle, so the middle alone would not see it). */
static const double inside[3] = {0.21132486540518713, 0.5, 0.78867513459481287};

static int compare_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int ossai_metric_times(const ossa_raw_joint_track *const *tracks, int count, double duration,
                       int frame_count, const ossa_allocator *allocator, double **times)
{
    *times = NULL;
    size_t n = frame_count > 1 ? 4 * (size_t)frame_count - 3 : 1;
    for (int j = 0; j < count; ++j)
        if (tracks[j])
            n += (size_t)tracks[j]->translation.key_count +
                 (size_t)tracks[j]->rotation.key_count + (size_t)tracks[j]->scale.key_count;
    double *t = ossa_alloc(allocator, n * sizeof *t, 16);
    if (!t)
        return -1;
    size_t used = 0;
    if (frame_count > 1) {
        const double dt = duration / (frame_count - 1);
        for (int f = 0; f < frame_count; ++f) {
            t[used++] = (float)(f + 1 == frame_count ? duration : f * dt);
            for (int k = 0; k < 3 && f + 1 < frame_count; ++k)
                t[used++] = (float)((f + inside[k]) * dt);
        }
    } else {
        t[used++] = 0.0;
    }
    for (int j = 0; j < count; ++j) {
        const ossa_raw_joint_track *tk = tracks[j];
        if (!tk)
            continue;
        const float *curve_times[3] = {tk->translation.times_s, tk->rotation.times_s,
                                       tk->scale.times_s};
        const int keys[3] = {tk->translation.key_count, tk->rotation.key_count,
                             tk->scale.key_count};
        for (int c = 0; c < 3; ++c)
            for (int k = 0; k < keys[c]; ++k)
                if (curve_times[c][k] >= 0.0f && curve_times[c][k] <= duration)
                    t[used++] = curve_times[c][k];
    }
    qsort(t, used, sizeof *t, compare_double);
    size_t unique = 0;
    for (size_t i = 0; i < used; ++i)
        if (unique == 0 || t[i] != t[unique - 1])
            t[unique++] = t[i];
    *times = t;
    return (int)unique;
}

int ossa_clip_rigid_mesh_reach(const ossa_skeleton *skeleton, const struct ossa_raw_mesh *meshes,
                               int mesh_count, float *reach)
{
    int raised = 0;
    for (int m = 0; m < mesh_count; ++m) {
        const ossa_raw_mesh *mesh = &meshes[m];
        if (mesh->skin_joint_count != 1 || !mesh->skin_joints || !mesh->positions)
            continue;
        const int j = ossa_skeleton_find_joint(skeleton, mesh->skin_joints[0].name);
        if (j < 0)
            continue;
        const ossa_mat34 *ib = &mesh->skin_joints[0].inverse_bind;
        raised += reach[j] == 0.0f && mesh->vertex_count > 0;
        for (int v = 0; v < mesh->vertex_count; ++v) {
            const ossa_float3 p = mesh->positions[v];
            double l1 = 0.0;
            for (int r = 0; r < 3; ++r)
                l1 += fabs((double)ib->m[r][0] * p.x + (double)ib->m[r][1] * p.y +
                           (double)ib->m[r][2] * p.z + ib->m[r][3]);
            if (l1 > reach[j] && isfinite(l1))
                reach[j] = (float)l1;
        }
    }
    return raised;
}
