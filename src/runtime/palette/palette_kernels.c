/* palette_kernels.c - lane model -> per-character matrices (skinning
 * palettes, or the model transforms themselves): transposes back out of the
 * lane layout. Compiled once per instruction set (core/simd.h). */
#include <string.h>

#include "core/lane_math.h"
#include "palette/palette_lanes.h"

/* Four matrices of W lanes are 48 rows of a lane model; transposed in
 * LANE_V x LANE_V blocks they become, for each lane, its four matrices as
 * 48 consecutive floats - which is where they go in its palette. */
#define PALETTE_GROUP 4
#define PALETTE_ROWS (PALETTE_GROUP * OSSAI_MODEL_C)

/* Block b of a group's rows [0, floats) (stride floats apart), transposed:
 * r[l] is lane l's floats b * LANE_V .. + LANE_V (zeros past floats). */
static inline __attribute__((always_inline)) void
group_block(const float *rows, size_t stride, int floats, int b, vf r[LANE_V])
{
    for (int i = 0; i < LANE_V; ++i) {
        const int row = b * LANE_V + i;
        r[i] = row < floats ? v_load(rows + (size_t)row * stride) : v_zero();
    }
    v_transpose(r);
}

/* Transposes rows [0, floats) of a group and writes lane l's floats at
 * dst[l] + k0 * 12 (lanes whose dst is NULL skipped); `stream`: every dst
 * takes non-temporal stores; `all`: no dst is NULL and floats is a whole
 * group's (all three known when compiled). */
static inline __attribute__((always_inline)) void
group_out(const float *rows, size_t stride, int floats, float *const dst[LANE_V], int k0,
          const bool stream, const bool all)
{
    const size_t at = (size_t)k0 * OSSAI_MODEL_C;
    if (stream && all && LANE_V < 16) {
        /* a lane's 48 floats are 3 whole lines (its matrices start on a
         * line in the crowd): streamed one lane after the other, so that
         * each line is written whole before the next begins. Block by block
         * (every lane's first vector, then every lane's second, ...) left
         * 2 x LANE_V lines half written at once, more than the write-
         * combining buffers of some cores hold: a buffer evicted half full
         * writes its line in parts (docs/measurements.md, twentieth
         * sitting). The blocks go through a tile: fewer instructions than
         * keeping a line's blocks in registers. */
        LANE_ALIGN float t[PALETTE_ROWS / LANE_V][LANE_V][LANE_V];
        for (int b = 0; b < PALETTE_ROWS / LANE_V; ++b) {
            vf r[LANE_V];
            group_block(rows, stride, PALETTE_ROWS, b, r);
            for (int l = 0; l < LANE_V; ++l)
                v_store(t[b][l], r[l]);
        }
        for (int l = 0; l < LANE_V; ++l)
            for (int b = 0; b < PALETTE_ROWS / LANE_V; ++b)
                v_stream(dst[l] + at + (size_t)b * LANE_V, v_load(t[b][l]));
        return;
    }
    for (int b = 0; b * LANE_V < floats; ++b) {
        vf r[LANE_V];
        group_block(rows, stride, floats, b, r);
        const int valid = floats - b * LANE_V < LANE_V ? floats - b * LANE_V : LANE_V;
        const size_t off = at + (size_t)b * LANE_V;
        if (valid == LANE_V) {
            for (int l = 0; l < LANE_V; ++l)
                if (all || dst[l]) {
                    if (stream)
                        v_stream(dst[l] + off, r[l]);
                    else
                        v_store(dst[l] + off, r[l]);
                }
        } else
            for (int l = 0; l < LANE_V; ++l)
                if (dst[l]) {
                    LANE_ALIGN float part[LANE_V];
                    v_store(part, r[l]);
                    memcpy(dst[l] + off, part, sizeof(float) * (size_t)valid);
                }
    }
}

void OSSAI_ISA_NAME(ossai_palette_kernel)(const ossai_lane_palette_args *a)
{
    const int width = a->width, skins = a->skin_joint_count;
    const int direct = !a->inverse_bind && !a->skin_joint; /* rows straight from the model */
    LANE_ALIGN float tile[PALETTE_ROWS * LANE_V];
    for (int lc = 0; lc < width; lc += LANE_V) {
        /* each lane's first float, once: a group's offset (k0 matrices of
         * 48 bytes, k0 a multiple of 4) and a block's (LANE_V floats) keep
         * a vector's alignment, so a lane whose matrices start aligned
         * streams every store */
        float *dst[LANE_V];
        bool stream = a->stream, all = true;
        for (int l = 0; l < LANE_V; ++l) {
            dst[l] = a->output[lc + l] ? &a->output[lc + l][0].m[0][0] : NULL;
            stream &= !dst[l] || (uintptr_t)dst[l] % sizeof(vf) == 0;
            all &= dst[l] != NULL;
        }
        for (int k0 = 0; k0 < skins; k0 += PALETTE_GROUP) {
            const int kn = skins - k0 < PALETTE_GROUP ? skins - k0 : PALETTE_GROUP;
            const float *rows = a->model + (size_t)k0 * OSSAI_MODEL_C * width + lc;
            size_t stride = (size_t)width;
            if (!direct) {
                for (int g = 0; g < kn; ++g) {
                    const int k = k0 + g, j = a->skin_joint ? a->skin_joint[k] : k;
                    const float *model = a->model + (size_t)j * OSSAI_MODEL_C * width + lc;
                    vf r[12];
                    if (a->inverse_bind) {
                        const ossa_mat34 *ib = &a->inverse_bind[k];
                        vf m[12];
                        for (int c = 0; c < 12; ++c)
                            m[c] = v_set1(ib->m[c / 4][c % 4]);
                        matrix_mul(r, model, width, m);
                    } else {
                        for (int c = 0; c < 12; ++c)
                            r[c] = v_load(model + c * width);
                    }
                    for (int c = 0; c < 12; ++c)
                        v_store(tile + (g * OSSAI_MODEL_C + c) * LANE_V, r[c]);
                }
                rows = tile;
                stride = LANE_V;
            }
            /* a whole group with every lane written is compiled apart: its
             * loads and stores need no test (the crowd's batches but their
             * last) */
            if (kn == PALETTE_GROUP && all && stream)
                group_out(rows, stride, PALETTE_ROWS, dst, k0, true, true);
            else if (kn == PALETTE_GROUP && all)
                group_out(rows, stride, PALETTE_ROWS, dst, k0, false, true);
            else
                group_out(rows, stride, kn * OSSAI_MODEL_C, dst, k0, stream, false);
        }
    }
    if (a->stream)
        v_fence();
}
