/* hierarchy_kernels.c - the lane local->model kernel: the seed's walk
 * model[j] = model[parent[j]] * local[j] for LANE_V characters per step.
 * Compiled once per instruction set (core/simd.h). */
#include "core/lane_math.h"
#include "hierarchy/hierarchy_lanes.h"

void OSSAI_ISA_NAME(ossai_local_to_model_kernel)(const ossai_lane_l2m_args *a)
{
    const int width = a->width, joints = a->joint_count;
    for (int lc = 0; lc < width; lc += LANE_V) {
        for (int j = 0; j < joints; ++j) {
            vf t[3], q[4], s[3], m[12], r[12];
            load_pose(a->local + (size_t)j * OSSAI_POSE_C * width + lc, width, t, q, s);
            matrix_from_trs(m, t, q, s);
            const uint16_t p = a->parents[j];
            const float *parent = p != OSSA_NO_PARENT
                                      ? a->model + (size_t)p * OSSAI_MODEL_C * width + lc
                                      : (a->root ? a->root + lc : NULL);
            float *out = a->model + (size_t)j * OSSAI_MODEL_C * width + lc;
            if (parent) {
                matrix_mul(r, parent, width, m);
                for (int c = 0; c < OSSAI_MODEL_C; ++c)
                    v_store(out + c * width, r[c]);
            } else {
                for (int c = 0; c < OSSAI_MODEL_C; ++c)
                    v_store(out + c * width, m[c]);
            }
        }
    }
}
