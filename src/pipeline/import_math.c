/* import_math.c - double-precision affine transforms for the importer:
 * composing node chains (FBX helpers) and splitting them back into
 * translation, rotation and scale. */
#include <assimp/scene.h>
#include <math.h>

#include "import_internal.h"

ossai_dmat ossai_dmat_identity(void)
{
    ossai_dmat r = {{{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}}};
    return r;
}

ossai_dmat ossai_dmat_mul(const ossai_dmat *a, const ossai_dmat *b)
{
    ossai_dmat r;
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 4; ++j)
            r.m[i][j] = a->m[i][0] * b->m[0][j] + a->m[i][1] * b->m[1][j] +
                        a->m[i][2] * b->m[2][j];
        r.m[i][3] += a->m[i][3];
    }
    return r;
}

ossai_dmat ossai_dmat_from_trs(ossa_float3 t, ossa_quat q, ossa_float3 s)
{
    double x = q.x, y = q.y, z = q.z, w = q.w;
    const double len = sqrt(x * x + y * y + z * z + w * w);
    if (len > 0.0 && isfinite(len)) {
        x /= len, y /= len, z /= len, w /= len;
    } else {
        x = y = z = 0.0, w = 1.0;
    }
    const double sx = s.x, sy = s.y, sz = s.z;
    ossai_dmat m;
    m.m[0][0] = (1 - 2 * (y * y + z * z)) * sx;
    m.m[0][1] = 2 * (x * y - w * z) * sy;
    m.m[0][2] = 2 * (x * z + w * y) * sz;
    m.m[0][3] = t.x;
    m.m[1][0] = 2 * (x * y + w * z) * sx;
    m.m[1][1] = (1 - 2 * (x * x + z * z)) * sy;
    m.m[1][2] = 2 * (y * z - w * x) * sz;
    m.m[1][3] = t.y;
    m.m[2][0] = 2 * (x * z - w * y) * sx;
    m.m[2][1] = 2 * (y * z + w * x) * sy;
    m.m[2][2] = (1 - 2 * (x * x + y * y)) * sz;
    m.m[2][3] = t.z;
    return m;
}

bool ossai_dmat_is_identity(const ossai_dmat *m, double tolerance)
{
    const ossai_dmat id = ossai_dmat_identity();
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 4; ++j)
            if (!(fabs(m->m[i][j] - id.m[i][j]) <= tolerance))
                return false;
    return true;
}

bool ossai_dmat_is_finite(const ossai_dmat *m)
{
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 4; ++j)
            if (!isfinite(m->m[i][j]))
                return false;
    return true;
}

static double dot3(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static void cross3(const double a[3], const double b[3], double r[3])
{
    r[0] = a[1] * b[2] - a[2] * b[1];
    r[1] = a[2] * b[0] - a[0] * b[2];
    r[2] = a[0] * b[1] - a[1] * b[0];
}

/* Quaternion (x, y, z, w) of a rotation matrix whose columns are
 * axis[0..2] (Shepperd: divide by the largest of four candidate magnitudes). */
static void quat_from_axes(double axis[3][3], double out[4])
{
    /* r[i][j] = row i, column j = axis[j][i]. */
    const double r00 = axis[0][0], r11 = axis[1][1], r22 = axis[2][2];
    const double r01 = axis[1][0], r10 = axis[0][1], r02 = axis[2][0], r20 = axis[0][2];
    const double r12 = axis[2][1], r21 = axis[1][2];
    const double trace = r00 + r11 + r22;
    double x, y, z, w;
    if (trace > 0.0) {
        double s = sqrt(trace + 1.0) * 2.0;
        w = 0.25 * s, x = (r21 - r12) / s, y = (r02 - r20) / s, z = (r10 - r01) / s;
    } else if (r00 > r11 && r00 > r22) {
        double s = sqrt(1.0 + r00 - r11 - r22) * 2.0;
        w = (r21 - r12) / s, x = 0.25 * s, y = (r01 + r10) / s, z = (r02 + r20) / s;
    } else if (r11 > r22) {
        double s = sqrt(1.0 + r11 - r00 - r22) * 2.0;
        w = (r02 - r20) / s, x = (r01 + r10) / s, y = 0.25 * s, z = (r12 + r21) / s;
    } else {
        double s = sqrt(1.0 + r22 - r00 - r11) * 2.0;
        w = (r10 - r01) / s, x = (r02 + r20) / s, y = (r12 + r21) / s, z = 0.25 * s;
    }
    const double len = sqrt(x * x + y * y + z * z + w * w);
    if (!(len > 0.0) || !isfinite(len)) {
        out[0] = out[1] = out[2] = 0.0;
        out[3] = 1.0;
        return;
    }
    out[0] = x / len, out[1] = y / len, out[2] = z / len, out[3] = w / len;
}

double ossai_dmat_decompose_d(const ossai_dmat *m, double translation[3], double rotation[4],
                              double scale_out[3])
{
    double axis[3][3], scale[3];
    for (int c = 0; c < 3; ++c) {
        for (int r = 0; r < 3; ++r)
            axis[c][r] = m->m[r][c];
        scale[c] = sqrt(dot3(axis[c], axis[c]));
    }
    double c01[3];
    cross3(axis[0], axis[1], c01);
    if (dot3(c01, axis[2]) < 0.0)
        scale[0] = -scale[0];
    /* A zero axis (a joint scaled to nothing) takes its direction from the
     * other two, so the rotation stays defined. */
    int zero = 0;
    for (int c = 0; c < 3; ++c)
        zero += !(fabs(scale[c]) > 1e-12);
    double shear = 0.0;
    if (zero == 0) {
        for (int c = 0; c < 3; ++c)
            for (int r = 0; r < 3; ++r)
                axis[c][r] /= scale[c];
        shear = fmax(fabs(dot3(axis[0], axis[1])),
                     fmax(fabs(dot3(axis[0], axis[2])), fabs(dot3(axis[1], axis[2]))));
    } else if (zero == 1) {
        int z = !(fabs(scale[0]) > 1e-12) ? 0 : (!(fabs(scale[1]) > 1e-12) ? 1 : 2);
        int a = (z + 1) % 3, b = (z + 2) % 3;
        for (int r = 0; r < 3; ++r) {
            axis[a][r] /= scale[a];
            axis[b][r] /= scale[b];
        }
        cross3(axis[a], axis[b], axis[z]);
        shear = fabs(dot3(axis[a], axis[b]));
    } else {
        for (int c = 0; c < 3; ++c)
            for (int r = 0; r < 3; ++r)
                axis[c][r] = c == r ? 1.0 : 0.0;
    }
    for (int r = 0; r < 3; ++r) {
        translation[r] = m->m[r][3];
        scale_out[r] = scale[r];
    }
    quat_from_axes(axis, rotation);
    return shear;
}

double ossai_dmat_decompose(const ossai_dmat *m, ossa_transform *out)
{
    double t[3], q[4], s[3];
    const double shear = ossai_dmat_decompose_d(m, t, q, s);
    out->translation = (ossa_float3){(float)t[0], (float)t[1], (float)t[2]};
    out->rotation = (ossa_quat){(float)q[0], (float)q[1], (float)q[2], (float)q[3]};
    out->scale = (ossa_float3){(float)s[0], (float)s[1], (float)s[2]};
    return shear;
}

ossai_dmat ossai_dmat_from_ai(const void *ai_matrix4x4)
{
    const struct aiMatrix4x4 *a = ai_matrix4x4;
    ossai_dmat m = {{{a->a1, a->a2, a->a3, a->a4},
                     {a->b1, a->b2, a->b3, a->b4},
                     {a->c1, a->c2, a->c3, a->c4}}};
    return m;
}

ossa_mat34 ossai_dmat_to_mat34(const ossai_dmat *m)
{
    ossa_mat34 r;
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 4; ++j)
            r.m[i][j] = (float)m->m[i][j];
    return r;
}
