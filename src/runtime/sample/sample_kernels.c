/* sample_kernels.c - the lane sampling kernel: each lane's two frames
 * interpolated down the joints, then transposed into the lane layout.
 * Compiled once per instruction set (core/simd.h). */
#include <math.h>

#include "sample/sample_lane.h"

void OSSAI_ISA_NAME(ossai_sample_kernel)(const ossai_lane_sample_args *a)
{
    const int width = a->width, joints = a->joint_count;
    const bool stream = streams_rows(a);
    LANE_ALIGN float tile[OSSAI_POSE_C][LANE_V][LANE_V];
    for (int lc = 0; lc < width; lc += LANE_V) {
        for (int j0 = 0; j0 < joints; j0 += LANE_V) {
            for (int l = 0; l < LANE_V; ++l)
                sample_lane(a, lc + l, j0, tile, l);
            /* [lane][joint] -> [joint][lane]: one register transpose per
             * component, then rows go to their joints (joint by joint when
             * short rows stream: rows_by_joint) */
            const int jn = joints - j0 < LANE_V ? joints - j0 : LANE_V;
            if (rows_by_joint(stream)) {
                tiles_transpose(tile);
                stream_by_joint(a->output + (size_t)j0 * OSSAI_POSE_C * width + lc,
                                (size_t)width, (const float(*)[LANE_V][LANE_V])tile, jn);
                continue;
            }
            for (int c = 0; c < OSSAI_POSE_C; ++c) {
                vf r[LANE_V];
                for (int l = 0; l < LANE_V; ++l)
                    r[l] = v_load(tile[c][l]);
                v_transpose(r);
                float *out = a->output + ((size_t)j0 * OSSAI_POSE_C + c) * width + lc;
                store_rows(out, (size_t)OSSAI_POSE_C * width, r, jn, stream);
            }
        }
    }
}
