/* lane_simd_x86.h - pieces every x86 lane path shares (SSE is always there). */
#ifndef OSSA_LANE_SIMD_X86_H
#define OSSA_LANE_SIMD_X86_H

#include <immintrin.h>

#include "ossa/math.h"

/* tile holds 12 rows of `width` lanes (one joint of a lane model); writes
 * lane l's matrix to out[l][k] for every lane with out[l] != NULL: each
 * 4 lanes x 4 components block is one 4x4 transpose into a matrix row. */
static inline void x86_write_rows(const float *tile, int width, ossa_mat34 *const *out, size_t k)
{
    for (int g = 0; g < width; g += 4) {
        for (int r = 0; r < 3; ++r) {
            __m128 c0 = _mm_loadu_ps(tile + (4 * r + 0) * width + g);
            __m128 c1 = _mm_loadu_ps(tile + (4 * r + 1) * width + g);
            __m128 c2 = _mm_loadu_ps(tile + (4 * r + 2) * width + g);
            __m128 c3 = _mm_loadu_ps(tile + (4 * r + 3) * width + g);
            _MM_TRANSPOSE4_PS(c0, c1, c2, c3);
            if (out[g + 0])
                _mm_storeu_ps(out[g + 0][k].m[r], c0);
            if (out[g + 1])
                _mm_storeu_ps(out[g + 1][k].m[r], c1);
            if (out[g + 2])
                _mm_storeu_ps(out[g + 2][k].m[r], c2);
            if (out[g + 3])
                _mm_storeu_ps(out[g + 3][k].m[r], c3);
        }
    }
}

#endif /* OSSA_LANE_SIMD_X86_H */
