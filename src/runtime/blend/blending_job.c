/* blending_job.c - weighted layers and additive layers -> one local pose. */
#include "ossa/blending_job.h"

#include "blend/blend_internal.h"
#include "core/job_internal.h"
#include "core/math_internal.h"

OSSAI_DEFINE_BLEND_LAYER_CHECK(check_layer, ossa_blend_layer)

ossa_result ossa_blending_job_validate(const ossa_blending_job *job)
{
    if (!job)
        return OSSA_ERR_MISSING_INPUT;
    ossa_result r = ossai_check_blend_inputs(job->layer_count, job->layers, job->additive_count,
                                             job->additive, job->rest_pose, job->joint_count,
                                             job->character_count);
    if (r != OSSA_OK)
        return r;
    const int64_t elements = (int64_t)job->character_count * job->joint_count;
    for (int l = 0; l < job->layer_count; ++l)
        if ((r = check_layer(&job->layers[l], job->layers[l].pose_count < elements,
                             job->character_count, job->joint_count, false)))
            return r;
    for (int l = 0; l < job->additive_count; ++l)
        if ((r = check_layer(&job->additive[l], job->additive[l].pose_count < elements,
                             job->character_count, job->joint_count, true)))
            return r;
    int begin, end;
    if ((r = ossai_job_range(job->character_begin, job->character_end, job->character_count, &begin,
                             &end)) ||
        (r = ossai_check_blend_threshold(job->threshold)))
        return r;
    if (!job->output)
        return OSSA_ERR_MISSING_OUTPUT;
    if (job->output_count < elements)
        return OSSA_ERR_OUTPUT_TOO_SMALL;
    return OSSA_OK;
}

static inline float layer_weight(const ossa_blend_layer *layer, int instance, int joint)
{
    float w = layer->weights ? layer->weights[instance] : layer->weight;
    if (layer->joint_mask)
        w *= layer->joint_mask[joint];
    return w;
}

/* Accumulates w * t into the running sums, the rotation flipped onto the
 * running sum's hemisphere so that q and -q add up instead of cancelling. */
static inline void accumulate(ossa_float3 *sum_t, ossa_quat *sum_r, ossa_float3 *sum_s,
                              const ossa_transform *t, float w)
{
    *sum_t = ossai_f3_add(*sum_t, ossai_f3_scale(t->translation, w));
    *sum_s = ossai_f3_add(*sum_s, ossai_f3_scale(t->scale, w));
    float rw = ossai_quat_dot(*sum_r, t->rotation) < 0.0f ? -w : w;
    sum_r->x += t->rotation.x * rw;
    sum_r->y += t->rotation.y * rw;
    sum_r->z += t->rotation.z * rw;
    sum_r->w += t->rotation.w * rw;
}

static inline float safe_ratio(float a, float b)
{
    return b != 0.0f ? a / b : 1.0f;
}

ossa_result ossa_blending_job_run(const ossa_blending_job *job)
{
    ossa_result r = ossa_blending_job_validate(job);
    if (r != OSSA_OK)
        return r;
    const int joints = job->joint_count;
    const float threshold = job->threshold > 0.0f ? job->threshold : OSSA_BLEND_DEFAULT_THRESHOLD;
    int begin = job->character_begin, end = job->character_end;
    if (begin == 0 && end == 0)
        end = job->character_count;
    const ossa_quat identity = {0.0f, 0.0f, 0.0f, 1.0f};

    for (int i = begin; i < end; ++i) {
        const size_t base = (size_t)i * (size_t)joints;
        for (int j = 0; j < joints; ++j) {
            ossa_float3 sum_t = {0.0f, 0.0f, 0.0f}, sum_s = {0.0f, 0.0f, 0.0f};
            ossa_quat sum_r = {0.0f, 0.0f, 0.0f, 0.0f};
            float total = 0.0f;
            for (int l = 0; l < job->layer_count; ++l) {
                const ossa_blend_layer *layer = &job->layers[l];
                float w = layer_weight(layer, i, j);
                if (!(w > 0.0f))
                    continue;
                accumulate(&sum_t, &sum_r, &sum_s, &layer->pose[base + (size_t)j], w);
                total += w;
            }
            if (total < threshold) {
                accumulate(&sum_t, &sum_r, &sum_s, &job->rest_pose[j], threshold - total);
                total = threshold;
            }
            const float inv = 1.0f / total;
            ossa_transform out;
            out.translation = ossai_f3_scale(sum_t, inv);
            out.scale = ossai_f3_scale(sum_s, inv);
            out.rotation = ossai_quat_normalize(sum_r);

            for (int l = 0; l < job->additive_count; ++l) {
                const ossa_blend_layer *layer = &job->additive[l];
                float w = layer_weight(layer, i, j);
                if (!(w > 0.0f))
                    continue;
                const ossa_transform *a = &layer->pose[base + (size_t)j];
                const ossa_transform *ref =
                    layer->reference ? &layer->reference[j] : &job->rest_pose[j];
                out.translation = ossai_f3_add(
                    out.translation,
                    ossai_f3_scale(ossai_f3_sub(a->translation, ref->translation), w));
                ossa_quat delta = ossai_quat_mul(ossai_quat_conj(ref->rotation), a->rotation);
                out.rotation =
                    ossai_quat_normalize(ossai_quat_mul(out.rotation,
                                                        ossai_quat_nlerp(identity, delta, w)));
                ossa_float3 ratio = ossai_f3(safe_ratio(a->scale.x, ref->scale.x),
                                             safe_ratio(a->scale.y, ref->scale.y),
                                             safe_ratio(a->scale.z, ref->scale.z));
                out.scale = ossai_f3_mul(out.scale, ossai_f3_lerp(ossai_f3(1.0f, 1.0f, 1.0f),
                                                                  ratio, w));
            }
            job->output[base + (size_t)j] = out;
        }
    }
    return OSSA_OK;
}
