/* hierarchy_mat4.h - the 4x4 matrix of seed 001's two baselines (the naive
 * pointer tree and the flattened loop), shared so that the two differ only in
 * data layout and traversal, as in the seed.
 *
 * Same conventions as ossa/math.h: column vectors (M * p), stored row-major,
 * translation in the last column; a full 4x4, so the bottom row is stored and
 * multiplied too, as the seed's math::matrix4x4_t is. */
#ifndef OSSA_BENCH_HIERARCHY_MAT4_H
#define OSSA_BENCH_HIERARCHY_MAT4_H

#include "ossa/math.h"

typedef struct bench_mat4 {
    float m[4][4];
} bench_mat4;

static inline bench_mat4 bench_mat4_identity(void)
{
    bench_mat4 r = {{{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}}};
    return r;
}

/* The affine matrix with its implicit bottom row (0, 0, 0, 1) written out. */
static inline bench_mat4 bench_mat4_from_mat34(const ossa_mat34 *a)
{
    bench_mat4 r;
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 4; ++j)
            r.m[i][j] = a->m[i][j];
    r.m[3][0] = r.m[3][1] = r.m[3][2] = 0.0f;
    r.m[3][3] = 1.0f;
    return r;
}

/* a * b (apply b first, then a): each row of the result is a weighted sum of
 * b's rows, which compilers turn into four-wide SIMD (the seed's matrix
 * product was SIMD too). 64 multiplies and 48 adds. */
static inline bench_mat4 bench_mat4_mul(const bench_mat4 *a, const bench_mat4 *b)
{
    bench_mat4 r;
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j)
            r.m[i][j] = a->m[i][0] * b->m[0][j] + a->m[i][1] * b->m[1][j] +
                        a->m[i][2] * b->m[2][j] + a->m[i][3] * b->m[3][j];
    return r;
}

#endif /* OSSA_BENCH_HIERARCHY_MAT4_H */
