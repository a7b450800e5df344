/* sample_lane.h - one lane of raw-key sampling: a lane's two frames
 * interpolated down LANE_V joints into a tile row, written over the lane
 * vector type. Shared by the raw kernel (sample_kernels.c) and the
 * compressed one (packed_kernels.c), whose batches may mix both kinds, so
 * that a raw clip samples to the same bits in either. */
#ifndef OSSA_SAMPLE_LANE_H
#define OSSA_SAMPLE_LANE_H

#include <math.h>

#include "core/lane_math.h"
#include "sample/sample_lanes.h"
#include "sample/sampling_internal.h"

/* Whether this kernel streams its rows (ossai_lane_sample_args.stream):
 * where a row is a whole cache line (AVX-512), or where a batch is one
 * vector wide (AVX2 at width 8: a joint's ten rows are then five whole
 * lines in a row, which the kernels write in turn). Rows of a wider batch
 * would leave lines half-written between stores, which streams far slower
 * than plain stores (measured: about twice the time on AVX2 at width 16). */
static inline bool streams_rows(const ossai_lane_sample_args *a)
{
    return a->stream && (LANE_V * sizeof(float) == 64 ||
                         (a->width == LANE_V && LANE_V * sizeof(float) * OSSAI_POSE_C % 64 == 0));
}

/* Whether joints' rows go out joint by joint (each joint's ten rows in
 * turn) rather than component by component: when they stream and a row is
 * shorter than a line, so that every line is whole before the next. */
static inline bool rows_by_joint(bool stream)
{
    return stream && LANE_V * sizeof(float) < 64;
}

/* Each component's tile, [lane][joint], transposed in place into
 * [joint][lane]: one register transpose per component. */
static inline void tiles_transpose(float tile[OSSAI_POSE_C][LANE_V][LANE_V])
{
    for (int c = 0; c < OSSAI_POSE_C; ++c) {
        vf r[LANE_V];
        for (int l = 0; l < LANE_V; ++l)
            r[l] = v_load(tile[c][l]);
        v_transpose(r);
        for (int j = 0; j < LANE_V; ++j)
            v_store(tile[c][j], r[j]);
    }
}

/* Joints [0, n) of rows[component][joint] streamed joint by joint
 * (rows_by_joint): joint j's ten rows from out + j * 10 * width, `width`
 * floats apart. */
static inline void stream_by_joint(float *out, size_t width,
                                   const float rows[OSSAI_POSE_C][LANE_V][LANE_V], int n)
{
    for (int j = 0; j < n; ++j)
        for (int c = 0; c < OSSAI_POSE_C; ++c)
            v_stream(out + ((size_t)j * OSSAI_POSE_C + (size_t)c) * width, v_load(rows[c][j]));
}

/* Rows r[0, n) of the output to out, out + stride, ...: with non-temporal
 * stores (stream, from streams_rows) or plain ones. */
static inline void store_rows(float *out, size_t stride, const vf *r, int n, bool stream)
{
    if (stream)
        for (int j = 0; j < n; ++j)
            v_stream(out + (size_t)j * stride, r[j]);
    else
        for (int j = 0; j < n; ++j)
            v_store(out + (size_t)j * stride, r[j]);
}

/* Per-joint interpolation factors of one lane for joints j0 .. j0 + LANE_V:
 * a held (STEP) track gets ossai_step_alpha instead of alpha. */
static inline void step_alphas(const uint8_t *steps, int j0, int joint_count, float alpha, vf *at,
                        vf *ar, vf *as)
{
    LANE_ALIGN float t[LANE_V], r[LANE_V], s[LANE_V];
    for (int i = 0; i < LANE_V; ++i) {
        const unsigned bits = j0 + i < joint_count ? steps[j0 + i] : 0u;
        t[i] = (bits & OSSAI_STEP_T) ? ossai_step_alpha(alpha) : alpha;
        r[i] = (bits & OSSAI_STEP_R) ? ossai_step_alpha(alpha) : alpha;
        s[i] = (bits & OSSAI_STEP_S) ? ossai_step_alpha(alpha) : alpha;
    }
    *at = v_load(t);
    *ar = v_load(r);
    *as = v_load(s);
}

/* Interpolates one vector of keys: a[c], b[c] are component c of the frames
 * before and after; at, ar, as the factors of translation, rotation, scale.
 * The reference's formulas: lerp, shortest-arc nlerp, the keys themselves at
 * factors 0 and 1. */
static inline void interpolate(const vf a[OSSAI_POSE_C], const vf b[OSSAI_POSE_C], vf at, vf ar,
                               vf as, vf out[OSSAI_POSE_C])
{
    for (int c = OSSAI_TX; c <= OSSAI_TZ; ++c)
        out[c] = lerp_exact(a[c], b[c], at);
    for (int c = OSSAI_SX; c <= OSSAI_SZ; ++c)
        out[c] = lerp_exact(a[c], b[c], as);
    const vf *qa = a + OSSAI_QX, *qb = b + OSSAI_QX;
    vf q[4];
    const vm flip = v_lt(dot4(qa, qb), v_zero());
    for (int i = 0; i < 4; ++i)
        q[i] = v_fmadd(v_sub(v_negate_where(qb[i], flip), qa[i]), ar, qa[i]);
    quat_normalize(q);
    const vm at0 = v_eq(ar, v_zero()), at1 = v_eq(ar, v_set1(1.0f));
    for (int i = 0; i < 4; ++i)
        out[OSSAI_QX + i] = v_select(at0, qa[i], v_select(at1, qb[i], q[i]));
}

/* One lane, LANE_V joints from j0: vectors run down the joints of one
 * frame row; tile[c][l] receives component c. */
static inline void sample_lane(const ossai_lane_sample_args *a, int lane, int j0,
                               float tile[OSSAI_POSE_C][LANE_V][LANE_V], int l)
{
    const size_t s = a->stride;
    const float *fa = a->frame_a[lane] + j0, *fb = a->frame_b[lane] + j0;
    vf at = v_set1(a->alpha[lane]), ar = at, as = at;
    if (a->steps[lane])
        step_alphas(a->steps[lane], j0, a->joint_count, a->alpha[lane], &at, &ar, &as);
    vf ka[OSSAI_POSE_C], kb[OSSAI_POSE_C], out[OSSAI_POSE_C];
    for (int c = 0; c < OSSAI_POSE_C; ++c) {
        ka[c] = v_load(fa + c * s);
        kb[c] = v_load(fb + c * s);
    }
    interpolate(ka, kb, at, ar, as, out);
    for (int c = 0; c < OSSAI_POSE_C; ++c)
        v_store(tile[c][l], out[c]);
}

#endif /* OSSA_SAMPLE_LANE_H */
