/* blend_kernels.c - the lane blending kernel: weighted layers, rest-pose
 * fill and additive layers, vertically over the lanes. Compiled once per
 * instruction set (core/simd.h). */
#include "blend/blend_lanes.h"
#include "core/lane_math.h"

/* The lane weights of a layer for one lane chunk (the same for every joint). */
static inline vf layer_weight(const ossa_lane_blend_layer *layer, const ossai_lane_blend_args *a,
                              int lc)
{
    if (!layer->weights)
        return v_set1(layer->weight);
    if (a->full)
        return v_load(layer->weights + a->first_character + lc);
    LANE_ALIGN float w[LANE_V];
    for (int l = 0; l < LANE_V; ++l)
        w[l] = layer->weights[a->character[lc + l]];
    return v_load(w);
}

/* Layers' lane weights, computed once per lane chunk for the first
 * BLEND_CACHED layers of each kind (others: per joint). */
#define BLEND_CACHED 8

typedef struct blend_weights {
    vf normal[BLEND_CACHED], additive[BLEND_CACHED];
} blend_weights;

/* A layer's weight at joint j after its mask; <= 0 or NaN gives 0. */
static inline vf masked_weight(const ossa_lane_blend_layer *layer, const ossai_lane_blend_args *a,
                               const vf *cached, int l, int lc, int j)
{
    vf w = l < BLEND_CACHED ? cached[l] : layer_weight(layer, a, lc);
    if (layer->joint_mask)
        w = v_mul(w, v_set1(layer->joint_mask[j]));
    return v_max(w, v_zero());
}

/* out (+)= additive layer l: T += w (T_a - T_ref), R = R * nlerp(1,
 * conj(R_ref) R_a, w), S *= lerp(1, S_a / S_ref, w) (a zero S_ref counts as
 * ratio 1); the reference pose is the layer's or the rest pose. */
static void apply_additive(const ossai_lane_blend_args *a, const blend_weights *bw, int l, int lc,
                           int j, size_t at, vf t[3], vf r[4], vf s[3])
{
    const int width = a->width;
    const ossa_lane_blend_layer *layer = &a->additive[l];
    const ossa_transform *ref = layer->reference ? &layer->reference[j] : &a->rest[j];
    const float *pose = layer->pose + at;
    const vf w = masked_weight(layer, a, bw->additive, l, lc, j), one = v_set1(1.0f);
    const float rt[3] = {ref->translation.x, ref->translation.y, ref->translation.z};
    const float rs[3] = {ref->scale.x, ref->scale.y, ref->scale.z};
    for (int i = 0; i < 3; ++i) {
        t[i] = v_fmadd(v_sub(v_load(pose + (OSSAI_TX + i) * width), v_set1(rt[i])), w, t[i]);
        const vf x = v_load(pose + (OSSAI_SX + i) * width);
        const vf ratio = rs[i] != 0.0f ? v_div(x, v_set1(rs[i])) : one;
        s[i] = v_mul(s[i], v_fmadd(v_sub(ratio, one), w, one));
    }
    const vf conj[4] = {v_set1(-ref->rotation.x), v_set1(-ref->rotation.y),
                        v_set1(-ref->rotation.z), v_set1(ref->rotation.w)};
    vf q[4], delta[4], step[4], out[4];
    for (int i = 0; i < 4; ++i)
        q[i] = v_load(pose + (OSSAI_QX + i) * width);
    quat_mul(delta, conj, q);
    const vm flip = v_lt(delta[3], v_zero()); /* dot(identity, delta) < 0 */
    for (int i = 0; i < 3; ++i)
        step[i] = v_mul(v_negate_where(delta[i], flip), w);
    step[3] = v_fmadd(v_sub(v_negate_where(delta[3], flip), one), w, one);
    quat_normalize(step);
    quat_mul(out, r, step);
    quat_normalize(out);
    for (int i = 0; i < 4; ++i)
        r[i] = out[i];
}

/* The reference's blend, vertically: the weighted sums of translation,
 * scale and rotation (each rotation flipped onto the running sum's
 * hemisphere), the rest pose filling in below the threshold, then the
 * additive layers. */
void OSSAI_ISA_NAME(ossai_blend_kernel)(const ossai_lane_blend_args *a)
{
    const int width = a->width, joints = a->joint_count;
    const vf threshold = v_set1(a->threshold), one = v_set1(1.0f);
    for (int lc = 0; lc < width; lc += LANE_V) {
        blend_weights bw;
        for (int l = 0; l < a->layer_count && l < BLEND_CACHED; ++l)
            bw.normal[l] = layer_weight(&a->layers[l], a, lc);
        for (int l = 0; l < a->additive_count && l < BLEND_CACHED; ++l)
            bw.additive[l] = layer_weight(&a->additive[l], a, lc);
        for (int j = 0; j < joints; ++j) {
            const size_t at = a->batch_offset + (size_t)j * OSSAI_POSE_C * width + lc;
            const ossa_transform *rest = &a->rest[j];
            vf t[3], s[3], r[4], q[4], weight = v_zero();
            for (int i = 0; i < 3; ++i)
                t[i] = s[i] = v_zero();
            for (int i = 0; i < 4; ++i)
                r[i] = v_zero();
            for (int l = 0; l < a->layer_count; ++l) {
                const float *pose = a->layers[l].pose + at;
                const vf w = masked_weight(&a->layers[l], a, bw.normal, l, lc, j);
                for (int i = 0; i < 3; ++i) {
                    t[i] = v_fmadd(v_load(pose + (OSSAI_TX + i) * width), w, t[i]);
                    s[i] = v_fmadd(v_load(pose + (OSSAI_SX + i) * width), w, s[i]);
                }
                for (int i = 0; i < 4; ++i)
                    q[i] = v_load(pose + (OSSAI_QX + i) * width);
                const vf rw = v_negate_where(w, v_lt(dot4(r, q), v_zero()));
                for (int i = 0; i < 4; ++i)
                    r[i] = v_fmadd(q[i], rw, r[i]);
                weight = v_add(weight, w);
            }
            /* below the threshold the rest pose fills in, up to it */
            const vf fill = v_max(v_sub(threshold, weight), v_zero());
            const vf inv = v_div(one, v_max(weight, threshold));
            const float rt[3] = {rest->translation.x, rest->translation.y, rest->translation.z};
            const float rs[3] = {rest->scale.x, rest->scale.y, rest->scale.z};
            for (int i = 0; i < 3; ++i) {
                t[i] = v_mul(v_fmadd(v_set1(rt[i]), fill, t[i]), inv);
                s[i] = v_mul(v_fmadd(v_set1(rs[i]), fill, s[i]), inv);
            }
            q[0] = v_set1(rest->rotation.x);
            q[1] = v_set1(rest->rotation.y);
            q[2] = v_set1(rest->rotation.z);
            q[3] = v_set1(rest->rotation.w);
            const vf rw = v_negate_where(fill, v_lt(dot4(r, q), v_zero()));
            for (int i = 0; i < 4; ++i)
                r[i] = v_fmadd(q[i], rw, r[i]);
            quat_normalize(r);
            for (int l = 0; l < a->additive_count; ++l)
                apply_additive(a, &bw, l, lc, j, at, t, r, s);
            float *out = a->output + (size_t)j * OSSAI_POSE_C * width + lc;
            for (int i = 0; i < 3; ++i) {
                v_store(out + (OSSAI_TX + i) * width, t[i]);
                v_store(out + (OSSAI_SX + i) * width, s[i]);
            }
            for (int i = 0; i < 4; ++i)
                v_store(out + (OSSAI_QX + i) * width, r[i]);
        }
    }
}
