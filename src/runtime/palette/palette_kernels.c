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

void OSSAI_ISA_NAME(ossai_palette_kernel)(const ossai_lane_palette_args *a)
{
    const int width = a->width, skins = a->skin_joint_count;
    const int direct = !a->inverse_bind && !a->skin_joint; /* rows straight from the model */
    LANE_ALIGN float tile[PALETTE_ROWS * LANE_V];
    for (int lc = 0; lc < width; lc += LANE_V) {
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
            const int floats = kn * OSSAI_MODEL_C;
            for (int b = 0; b * LANE_V < floats; ++b) {
                vf r[LANE_V];
                for (int i = 0; i < LANE_V; ++i) {
                    const int row = b * LANE_V + i;
                    r[i] = row < floats ? v_load(rows + (size_t)row * stride) : v_zero();
                }
                v_transpose(r);
                const int valid = floats - b * LANE_V < LANE_V ? floats - b * LANE_V : LANE_V;
                for (int l = 0; l < LANE_V; ++l) {
                    if (!a->output[lc + l])
                        continue;
                    float *dst = &a->output[lc + l][k0].m[0][0] + b * LANE_V;
                    if (valid == LANE_V) {
                        if (a->stream && (uintptr_t)dst % sizeof(vf) == 0)
                            v_stream(dst, r[l]);
                        else
                            v_store(dst, r[l]);
                    } else {
                        LANE_ALIGN float part[LANE_V];
                        v_store(part, r[l]);
                        memcpy(dst, part, sizeof(float) * (size_t)valid);
                    }
                }
            }
        }
    }
    if (a->stream)
        v_fence();
}
