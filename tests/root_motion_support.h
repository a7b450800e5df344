/* root_motion_support.h - what the root motion tests share: the turn about
 * +y between two model transforms, in double. */
#ifndef OSSA_ROOT_MOTION_SUPPORT_H
#define OSSA_ROOT_MOTION_SUPPORT_H

#include <math.h>

#include "test_support.h"

/* The twist about +y of the rotation part of b relative to a's. */
static inline double twist_between(const ts_dmat *b, const ts_dmat *a)
{
    /* relative rotation R_b R_a^T (columns normalised) */
    double ra[3][3], rb[3][3];
    for (int j = 0; j < 3; ++j) {
        double na = 0, nb = 0;
        for (int i = 0; i < 3; ++i)
            na += a->m[i][j] * a->m[i][j], nb += b->m[i][j] * b->m[i][j];
        for (int i = 0; i < 3; ++i)
            ra[i][j] = a->m[i][j] / sqrt(na), rb[i][j] = b->m[i][j] / sqrt(nb);
    }
    double r[3][3];
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
            r[i][j] = rb[i][0] * ra[j][0] + rb[i][1] * ra[j][1] + rb[i][2] * ra[j][2];
    /* quaternion y and w of r: 4 w y = r02 - r20, 4 w^2 = 1 + trace */
    const double w2 = 0.25 * (1.0 + r[0][0] + r[1][1] + r[2][2]);
    const double w = sqrt(fmax(w2, 0.0));
    const double y = w > 1e-6 ? (r[0][2] - r[2][0]) / (4.0 * w)
                              : 0.5 * sqrt(fmax(0.0, 1.0 + r[1][1] - r[0][0] - r[2][2]));
    return 2.0 * atan2(y, w);
}

#endif /* OSSA_ROOT_MOTION_SUPPORT_H */
