/* root_motion_extract.c - root motion extraction at build time: a joint's
 * travel on the ground and its turn about +y, measured in model space in
 * double from the clip's baked frames, become the motion track M(t); its local
 * keys are rewritten so that the clip plays in place (its model transform
 * becomes M(t)^-1 times the source's). */
#include <math.h>
#include <string.h>

#include "blob/format.h"
#include "clip_tracks.h"

#define PI 3.14159265358979323846

typedef struct dmat {
    double m[3][4];
} dmat;

typedef struct dquat {
    double x, y, z, w;
} dquat;

static dmat mul(const dmat *a, const dmat *b)
{
    dmat r;
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 4; ++j)
            r.m[i][j] = a->m[i][0] * b->m[0][j] + a->m[i][1] * b->m[1][j] +
                        a->m[i][2] * b->m[2][j];
        r.m[i][3] += a->m[i][3];
    }
    return r;
}

static dmat from_trs(const double t[3], dquat q, const double s[3])
{
    const double xx = q.x * q.x, yy = q.y * q.y, zz = q.z * q.z;
    const double xy = q.x * q.y, xz = q.x * q.z, yz = q.y * q.z;
    const double wx = q.w * q.x, wy = q.w * q.y, wz = q.w * q.z;
    const dmat r = {{{(1 - 2 * (yy + zz)) * s[0], 2 * (xy - wz) * s[1], 2 * (xz + wy) * s[2], t[0]},
                     {2 * (xy + wz) * s[0], (1 - 2 * (xx + zz)) * s[1], 2 * (yz - wx) * s[2], t[1]},
                     {2 * (xz - wy) * s[0], 2 * (yz + wx) * s[1], (1 - 2 * (xx + yy)) * s[2], t[2]}}};
    return r;
}

/* Inverse of an affine matrix (general 3x3 part). */
static dmat inverse(const dmat *a)
{
    const double(*m)[4] = a->m;
    const double c00 = m[1][1] * m[2][2] - m[1][2] * m[2][1];
    const double c01 = m[1][2] * m[2][0] - m[1][0] * m[2][2];
    const double c02 = m[1][0] * m[2][1] - m[1][1] * m[2][0];
    const double det = m[0][0] * c00 + m[0][1] * c01 + m[0][2] * c02;
    const double d = det != 0.0 ? 1.0 / det : 0.0;
    dmat r;
    r.m[0][0] = c00 * d;
    r.m[0][1] = (m[0][2] * m[2][1] - m[0][1] * m[2][2]) * d;
    r.m[0][2] = (m[0][1] * m[1][2] - m[0][2] * m[1][1]) * d;
    r.m[1][0] = c01 * d;
    r.m[1][1] = (m[0][0] * m[2][2] - m[0][2] * m[2][0]) * d;
    r.m[1][2] = (m[0][2] * m[1][0] - m[0][0] * m[1][2]) * d;
    r.m[2][0] = c02 * d;
    r.m[2][1] = (m[0][1] * m[2][0] - m[0][0] * m[2][1]) * d;
    r.m[2][2] = (m[0][0] * m[1][1] - m[0][1] * m[1][0]) * d;
    for (int i = 0; i < 3; ++i)
        r.m[i][3] = -(r.m[i][0] * m[0][3] + r.m[i][1] * m[1][3] + r.m[i][2] * m[2][3]);
    return r;
}

/* The rotation of a matrix whose columns are scaled by s (Shepperd's
 * method on the columns divided by s), unit length. */
static dquat rotation_of(const dmat *a, const double s[3])
{
    double r[3][3];
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
            r[i][j] = a->m[i][j] / s[j];
    const double tr = r[0][0] + r[1][1] + r[2][2];
    dquat q;
    if (tr > 0.0) {
        const double k = 2.0 * sqrt(1.0 + tr);
        q = (dquat){(r[2][1] - r[1][2]) / k, (r[0][2] - r[2][0]) / k, (r[1][0] - r[0][1]) / k,
                    0.25 * k};
    } else if (r[0][0] > r[1][1] && r[0][0] > r[2][2]) {
        const double k = 2.0 * sqrt(1.0 + r[0][0] - r[1][1] - r[2][2]);
        q = (dquat){0.25 * k, (r[0][1] + r[1][0]) / k, (r[0][2] + r[2][0]) / k,
                    (r[2][1] - r[1][2]) / k};
    } else if (r[1][1] > r[2][2]) {
        const double k = 2.0 * sqrt(1.0 + r[1][1] - r[0][0] - r[2][2]);
        q = (dquat){(r[0][1] + r[1][0]) / k, 0.25 * k, (r[1][2] + r[2][1]) / k,
                    (r[0][2] - r[2][0]) / k};
    } else {
        const double k = 2.0 * sqrt(1.0 + r[2][2] - r[0][0] - r[1][1]);
        q = (dquat){(r[0][2] + r[2][0]) / k, (r[1][2] + r[2][1]) / k, 0.25 * k,
                    (r[1][0] - r[0][1]) / k};
    }
    const double n = sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
    return n > 0.0 ? (dquat){q.x / n, q.y / n, q.z / n, q.w / n} : (dquat){0, 0, 0, 1};
}

/* The twist about +y of a rotation relative to a reference one (r * ref^-1),
 * in (-pi, pi]. */
static double yaw_between(dquat r, dquat ref)
{
    /* r * conj(ref): only y and w are needed */
    const double y = ref.w * r.y - r.w * ref.y + r.x * ref.z - r.z * ref.x;
    const double w = r.w * ref.w + r.x * ref.x + r.y * ref.y + r.z * ref.z;
    double a = 2.0 * atan2(y, w);
    if (a > PI)
        a -= 2.0 * PI;
    if (a <= -PI)
        a += 2.0 * PI;
    return a;
}

void ossai_in_place_local(const double parent[3][4], const double model[3][4], double x,
                          double z, double yaw, const double s[3], double t[3], double q[4])
{
    /* local' = parent^-1 M^-1 model; M^-1 turns by -yaw about +y after
     * taking the translation back */
    const double c_ = cos(yaw), s_ = sin(yaw);
    const dmat motion_inv = {{{c_, 0, -s_, -(c_ * x - s_ * z)},
                              {0, 1, 0, 0},
                              {s_, 0, c_, -(s_ * x + c_ * z)}}};
    dmat p, m;
    memcpy(p.m, parent, sizeof p.m);
    memcpy(m.m, model, sizeof m.m);
    const dmat parent_inv = inverse(&p);
    const dmat in_place = mul(&motion_inv, &m);
    const dmat local = mul(&parent_inv, &in_place);
    const dquat r = rotation_of(&local, s);
    t[0] = local.m[0][3], t[1] = local.m[1][3], t[2] = local.m[2][3];
    q[0] = r.x, q[1] = r.y, q[2] = r.z, q[3] = r.w;
}

/* One joint's local transform at frame f, from the clip's rows. */
static void local_at(const ossa_clip *c, uint32_t f, uint32_t j, double t[3], dquat *q,
                     double s[3])
{
    const uint32_t st = c->joint_stride;
    const float *row = ossai_clip_frames(c) + (size_t)f * ossai_clip_frame_floats(c);
    t[0] = row[OSSAI_TX * st + j], t[1] = row[OSSAI_TY * st + j], t[2] = row[OSSAI_TZ * st + j];
    *q = (dquat){row[OSSAI_QX * st + j], row[OSSAI_QY * st + j], row[OSSAI_QZ * st + j],
                 row[OSSAI_QW * st + j]};
    s[0] = row[OSSAI_SX * st + j], s[1] = row[OSSAI_SY * st + j], s[2] = row[OSSAI_SZ * st + j];
}

static dmat local_matrix(const ossa_clip *c, uint32_t f, uint32_t j)
{
    double t[3], s[3];
    dquat q;
    local_at(c, f, j, t, &q, s);
    return from_trs(t, q, s);
}

/* Model transforms of every joint at frame f (parents before children). */
static void pose_at(const ossa_clip *c, const uint16_t *parents, uint32_t f, dmat *model)
{
    for (uint32_t j = 0; j < c->joint_count; ++j) {
        const dmat l = local_matrix(c, f, j);
        model[j] = parents[j] == OSSA_NO_PARENT ? l : mul(&model[parents[j]], &l);
    }
}

/* How far each joint moves on the ground (largest distance from frame 0)
 * and how much the first root turns; the joint chosen when no name is given. */
static ossa_result choose_joint(const ossa_clip *c, const ossa_skeleton *skeleton,
                                const ossa_allocator *allocator, int *joint, ossa_error *error)
{
    const uint32_t n = c->joint_count;
    const uint16_t *parents = ossa_skeleton_parents(skeleton);
    dmat *model = ossa_alloc(allocator, sizeof(dmat) * 2 * n, 16);
    double *reach = ossa_alloc(allocator, sizeof(double) * n, 16);
    if (!model || !reach) {
        ossa_free(allocator, model);
        ossa_free(allocator, reach);
        return ossa_error_set(error, OSSA_ERR_OUT_OF_MEMORY, -1, -1,
                              "clip '%s': out of memory for root motion",
                              (const char *)c + c->name_offset);
    }
    dmat *first = model + n;
    pose_at(c, parents, 0, first);
    double size = 0.0;
    for (uint32_t j = 0; j < n; ++j) {
        reach[j] = 0.0;
        for (int k = 0; k < 3; ++k)
            size = fmax(size, fabs(first[j].m[k][3] - first[0].m[k][3]));
    }
    const double still = 1e-5 * (size > 0.0 ? size : 1.0);
    const double s1[3] = {1.0, 1.0, 1.0};
    const dquat root0 = rotation_of(&first[0], s1);
    double turn = 0.0;
    for (uint32_t f = 1; f < c->frame_count; ++f) {
        pose_at(c, parents, f, model);
        for (uint32_t j = 0; j < n; ++j) {
            const double dx = model[j].m[0][3] - first[j].m[0][3];
            const double dz = model[j].m[2][3] - first[j].m[2][3];
            reach[j] = fmax(reach[j], sqrt(dx * dx + dz * dz));
        }
        double sc[3];
        for (int k = 0; k < 3; ++k)
            sc[k] = sqrt(model[0].m[0][k] * model[0].m[0][k] + model[0].m[1][k] * model[0].m[1][k] +
                         model[0].m[2][k] * model[0].m[2][k]);
        const double s0[3] = {sc[0] > 0 ? sc[0] : 1, sc[1] > 0 ? sc[1] : 1, sc[2] > 0 ? sc[2] : 1};
        turn = fmax(turn, fabs(yaw_between(rotation_of(&model[0], s0), root0)));
    }
    *joint = -1;
    if (reach[0] > still || turn > 1e-4) {
        *joint = 0;
    } else {
        int best_depth = 1 << 30;
        for (uint32_t j = 0; j < n; ++j) {
            if (!(reach[j] > still))
                continue;
            int depth = 0;
            for (uint16_t a = parents[j]; a != OSSA_NO_PARENT; a = parents[a])
                ++depth;
            if (depth < best_depth) {
                best_depth = depth;
                *joint = (int)j;
            }
        }
    }
    ossa_free(allocator, model);
    ossa_free(allocator, reach);
    return OSSA_OK;
}

/* (x, z) turned by a about +y: (x c + z s, -x s + z c). */
static void turn_xz(double a, double x, double z, double *ox, double *oz)
{
    const double c = cos(a), s = sin(a);
    *ox = x * c + z * s;
    *oz = z * c - x * s;
}

/* Writes joint j's local keys at frame f, on the hemisphere of frame f - 1. */
static void write_local(ossa_clip *c, uint32_t f, uint32_t j, const double t[3], dquat q)
{
    const uint32_t st = c->joint_stride;
    float *frames = (float *)(void *)((char *)c + c->frames_offset);
    float *row = frames + (size_t)f * ossai_clip_frame_floats(c);
    if (f > 0) {
        const float *prev = row - ossai_clip_frame_floats(c);
        const double d = q.x * prev[OSSAI_QX * st + j] + q.y * prev[OSSAI_QY * st + j] +
                         q.z * prev[OSSAI_QZ * st + j] + q.w * prev[OSSAI_QW * st + j];
        if (d < 0.0)
            q = (dquat){-q.x, -q.y, -q.z, -q.w};
    }
    row[OSSAI_TX * st + j] = (float)t[0];
    row[OSSAI_TY * st + j] = (float)t[1];
    row[OSSAI_TZ * st + j] = (float)t[2];
    row[OSSAI_QX * st + j] = (float)q.x;
    row[OSSAI_QY * st + j] = (float)q.y;
    row[OSSAI_QZ * st + j] = (float)q.z;
    row[OSSAI_QW * st + j] = (float)q.w;
}

ossa_result ossai_root_motion_extract(ossa_clip *c, const ossa_skeleton *skeleton,
                                      const char *joint_name, const ossa_allocator *allocator,
                                      ossai_motion_extract *out, ossa_error *error)
{
    const char *clip_name = (const char *)c + c->name_offset;
    out->joint = -1;
    out->travel = 0.0;
    int j = -1;
    if (joint_name) {
        j = ossa_skeleton_find_joint(skeleton, joint_name);
        if (j < 0)
            return ossa_error_set(error, OSSA_ERR_NOT_FOUND, -1, -1,
                                  "clip '%s': root motion joint '%s' is not a joint of the "
                                  "skeleton",
                                  clip_name, joint_name);
    } else {
        ossa_result r = choose_joint(c, skeleton, allocator, &j, error);
        if (r != OSSA_OK)
            return r;
    }
    if (j < 0 || c->frame_count < 2)
        return OSSA_OK;
    const uint16_t *parents = ossa_skeleton_parents(skeleton);
    const uint32_t joint = (uint32_t)j;
    dmat *pose = ossa_alloc(allocator, sizeof(dmat) * c->joint_count, 16);
    if (!pose)
        return ossa_error_set(error, OSSA_ERR_OUT_OF_MEMORY, -1, -1,
                              "clip '%s': out of memory for root motion", clip_name);
    const dmat identity = {{{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}}};
    double h0[2] = {0, 0}, prev_yaw = 0.0, prev_x = 0.0, prev_z = 0.0;
    dquat r0 = {0, 0, 0, 1};
    for (uint32_t f = 0; f < c->frame_count; ++f) {
        pose_at(c, parents, f, pose);
        const dmat parent = parents[joint] == OSSA_NO_PARENT ? identity : pose[parents[joint]];
        double t[3], s[3];
        dquat q;
        local_at(c, f, joint, t, &q, s);
        const dmat local = from_trs(t, q, s);
        const dmat model = mul(&parent, &local);
        double scale[3];
        for (int k = 0; k < 3; ++k) {
            scale[k] = sqrt(model.m[0][k] * model.m[0][k] + model.m[1][k] * model.m[1][k] +
                            model.m[2][k] * model.m[2][k]);
            if (!(scale[k] > 0.0))
                scale[k] = 1.0;
        }
        const dquat r = rotation_of(&model, scale);
        double yaw = 0.0, mx = 0.0, mz = 0.0;
        if (f == 0) {
            h0[0] = model.m[0][3];
            h0[1] = model.m[2][3];
            r0 = r;
        } else {
            /* continuous: the turn from the last frame, added */
            const double step = yaw_between(r, r0) - prev_yaw;
            yaw = prev_yaw + (step - 2.0 * PI * floor(step / (2.0 * PI) + 0.5));
            double tx, tz;
            turn_xz(yaw, h0[0], h0[1], &tx, &tz);
            mx = model.m[0][3] - tx;
            mz = model.m[2][3] - tz;
        }
        float *m = out->frames + (size_t)f * OSSAI_MOTION_C;
        m[0] = (float)mx, m[1] = (float)mz, m[2] = (float)yaw, m[3] = 0.0f;
        out->travel += sqrt((mx - prev_x) * (mx - prev_x) + (mz - prev_z) * (mz - prev_z));
        prev_yaw = yaw, prev_x = mx, prev_z = mz;
        double t2[3], q2[4];
        ossai_in_place_local(parent.m, model.m, mx, mz, yaw, s, t2, q2);
        write_local(c, f, joint, t2, (dquat){q2[0], q2[1], q2[2], q2[3]});
    }
    ossa_free(allocator, pose);
    out->joint = j;
    return OSSA_OK;
}
