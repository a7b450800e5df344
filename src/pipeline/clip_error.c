/* clip_error.c - the error a built clip makes against its source curves:
 * what the runtime sampler returns, compared with the curves evaluated in
 * double precision at every source key and at points inside every frame. */
#include "clip_error.h"

#include <math.h>

#include "format.h"
#include "math_internal.h"
#include "raw_curve.h"

#define RAD_TO_DEG 57.29577951308232

/* The runtime's lerp between two stored floats. */
static double runtime_lerp(float a, float b, double s)
{
    float fs = (float)s;
    return (double)(a * (1.0f - fs) + b * fs);
}

ossai_clip_error ossai_clip_error_measure(const ossa_clip *c,
                                          const ossa_raw_joint_track *const *tracks,
                                          double duration)
{
    const int joint_count = (int)c->joint_count;
    const uint32_t frame_count = c->frame_count;
    const uint32_t stride = c->joint_stride;
    const uint64_t frame_floats = ossai_clip_frame_floats(c);
    const float *frames = ossai_clip_frames(c);
    const uint8_t *steps = ossai_clip_steps(c);
    const double frame_rate = frame_count > 1 ? (frame_count - 1) / duration : 0.0;
    const double frame_dt = frame_count > 1 ? duration / (frame_count - 1) : 0.0;

    /* Error: runtime interpolation against the source curve, at every source
     * key and at a quarter, half and three quarters of every frame. */
    double err_t = 0.0, err_r = 0.0, err_s = 0.0, worst = 0.0;
    int worst_joint = -1;
    for (int j = 0; j < joint_count; ++j) {
        const ossa_raw_joint_track *tk = tracks[j];
        if (!tk)
            continue;
        const uint8_t bits = steps[j];
        /* Times to test: frame interiors, then the key times of all three curves. */
        const float *key_times[3] = {tk->translation.times_s, tk->rotation.times_s,
                                     tk->scale.times_s};
        const int key_counts[3] = {tk->translation.key_count, tk->rotation.key_count,
                                   tk->scale.key_count};
        const uint64_t interior = frame_count > 1 ? (uint64_t)(frame_count - 1) * 3 : 0;
        uint64_t tests = interior;
        for (int c3 = 0; c3 < 3; ++c3)
            tests += (uint64_t)key_counts[c3];
        for (uint64_t k = 0; k < tests; ++k) {
            double t;
            if (k < interior) {
                t = (double)(k / 3) * frame_dt + frame_dt * (double)(k % 3 + 1) * 0.25;
            } else {
                uint64_t r = k - interior;
                int c3 = 0;
                while (r >= (uint64_t)key_counts[c3])
                    r -= (uint64_t)key_counts[c3++];
                t = key_times[c3][r];
            }
            if (t < 0.0 || t > duration)
                continue;
            /* What the runtime sampler computes at t. */
            uint32_t f0 = 0;
            double s = 0.0;
            if (frame_count > 1) {
                double u = t * frame_rate;
                if (u >= (double)(frame_count - 1)) {
                    f0 = frame_count - 2;
                    s = 1.0;
                } else {
                    f0 = (uint32_t)u;
                    s = u - f0;
                }
            }
            const float *a = frames + f0 * frame_floats;
            const float *b = frame_count > 1 ? a + frame_floats : a;
            const double held = s >= 1.0 ? 1.0 : 0.0; /* STEP: earlier key, last at the end */
            if (tk->translation.key_count > 0) {
                double st = (bits & OSSAI_STEP_T) ? held : s;
                ossai_dvec3 src = ossai_curve3_eval(&tk->translation, t);
                double dx = runtime_lerp(a[OSSAI_TX * stride + j], b[OSSAI_TX * stride + j], st) - src.x;
                double dy = runtime_lerp(a[OSSAI_TY * stride + j], b[OSSAI_TY * stride + j], st) - src.y;
                double dz = runtime_lerp(a[OSSAI_TZ * stride + j], b[OSSAI_TZ * stride + j], st) - src.z;
                double e = sqrt(dx * dx + dy * dy + dz * dz);
                if (e > err_t)
                    err_t = e;
                double rel = e / (1.0 + sqrt(src.x * src.x + src.y * src.y + src.z * src.z));
                if (rel > worst)
                    worst = rel, worst_joint = j;
            }
            if (tk->scale.key_count > 0) {
                double ss = (bits & OSSAI_STEP_S) ? held : s;
                ossai_dvec3 src = ossai_curve3_eval(&tk->scale, t);
                double e = fmax(fabs(runtime_lerp(a[OSSAI_SX * stride + j], b[OSSAI_SX * stride + j], ss) - src.x),
                           fmax(fabs(runtime_lerp(a[OSSAI_SY * stride + j], b[OSSAI_SY * stride + j], ss) - src.y),
                                fabs(runtime_lerp(a[OSSAI_SZ * stride + j], b[OSSAI_SZ * stride + j], ss) - src.z)));
                if (e > err_s)
                    err_s = e;
                if (e > worst)
                    worst = e, worst_joint = j;
            }
            if (tk->rotation.key_count > 0) {
                double sr = (bits & OSSAI_STEP_R) ? held : s;
                ossa_quat qa = ossai_quat(a[OSSAI_QX * stride + j], a[OSSAI_QY * stride + j],
                                          a[OSSAI_QZ * stride + j], a[OSSAI_QW * stride + j]);
                ossa_quat qb = ossai_quat(b[OSSAI_QX * stride + j], b[OSSAI_QY * stride + j],
                                          b[OSSAI_QZ * stride + j], b[OSSAI_QW * stride + j]);
                ossa_quat q = sr == 0.0 ? qa : (sr == 1.0 ? qb : ossai_quat_nlerp(qa, qb, (float)sr));
                ossai_dquat src = ossai_curve_quat_eval(&tk->rotation, t);
                double d = fabs(q.x * src.x + q.y * src.y + q.z * src.z + q.w * src.w);
                double e = 2.0 * acos(d > 1.0 ? 1.0 : d) * RAD_TO_DEG;
                if (e > err_r)
                    err_r = e;
                if (e / 180.0 > worst)
                    worst = e / 180.0, worst_joint = j;
            }
        }
    }
    ossai_clip_error result = {err_t, err_r, err_s, worst_joint};
    return result;
}
