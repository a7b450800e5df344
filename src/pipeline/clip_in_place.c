/* clip_in_place.c - a raw clip's frames read back as curves: the reference
 * a clip whose root motion was extracted is compressed against (the source
 * curves still carry the motion the clip no longer plays). */
#include "clip_in_place.h"

#include <string.h>

#include "blob/format.h"

ossa_result ossai_in_place_reference_make(const ossa_clip *raw, const ossa_allocator *allocator,
                                          ossai_in_place_reference *out, ossa_error *error)
{
    memset(out, 0, sizeof *out);
    const size_t joints = raw->joint_count, frames = raw->frame_count;
    const size_t tracks_bytes = joints * sizeof *out->tracks;
    const size_t by_joint_bytes = joints * sizeof *out->by_joint;
    const size_t times_bytes = frames * sizeof(float);
    /* per joint: translation, rotation and scale values at every frame */
    const size_t values_bytes = joints * frames * (2 * sizeof(ossa_float3) + sizeof(ossa_quat));
    const size_t total = tracks_bytes + by_joint_bytes + times_bytes + values_bytes;
    char *m = ossa_alloc(allocator, total, 16);
    if (!m)
        return ossa_error_set(error, OSSA_ERR_OUT_OF_MEMORY, -1, -1,
                              "clip '%s': out of memory for its in-place keys",
                              ossa_clip_name(raw));
    out->memory = m;
    out->tracks = (ossa_raw_joint_track *)(void *)m;
    out->by_joint = (const ossa_raw_joint_track **)(void *)(m + tracks_bytes);
    float *times = (float *)(void *)(m + tracks_bytes + by_joint_bytes);
    ossa_float3 *t_values = (ossa_float3 *)(void *)(times + frames);
    ossa_quat *r_values = (ossa_quat *)(void *)(t_values + joints * frames);
    ossa_float3 *s_values = (ossa_float3 *)(void *)(r_values + joints * frames);

    /* The frames' times, as the builder placed them (the last at the end). */
    const double dt = raw->frame_count > 1 ? (double)raw->duration / (raw->frame_count - 1) : 0.0;
    for (size_t f = 0; f < frames; ++f)
        times[f] = f + 1 == frames ? raw->duration : (float)((double)(uint32_t)f * dt);

    const float *keys = ossai_clip_frames(raw);
    const size_t stride = raw->joint_stride, frame_floats = ossai_clip_frame_floats(raw);
    const uint8_t *steps = (raw->flags & OSSAI_CLIP_HAS_STEP) ? ossai_clip_steps(raw) : NULL;
    for (size_t j = 0; j < joints; ++j) {
        ossa_float3 *tv = t_values + j * frames, *sv = s_values + j * frames;
        ossa_quat *rv = r_values + j * frames;
        for (size_t f = 0; f < frames; ++f) {
            const float *row = keys + f * frame_floats + j;
#define AT(c) row[(size_t)(c) * stride]
            tv[f] = (ossa_float3){AT(OSSAI_TX), AT(OSSAI_TY), AT(OSSAI_TZ)};
            rv[f] = (ossa_quat){AT(OSSAI_QX), AT(OSSAI_QY), AT(OSSAI_QZ), AT(OSSAI_QW)};
            sv[f] = (ossa_float3){AT(OSSAI_SX), AT(OSSAI_SY), AT(OSSAI_SZ)};
#undef AT
        }
        const uint8_t step = steps ? steps[j] : 0;
        ossa_raw_joint_track *tr = &out->tracks[j];
        memset(tr, 0, sizeof *tr);
        tr->translation = (ossa_raw_track3){times, tv, NULL, NULL, (int)frames,
                                            (step & OSSAI_STEP_T) ? OSSA_INTERP_STEP
                                                                  : OSSA_INTERP_LINEAR};
        tr->rotation = (ossa_raw_track_quat){times, rv, NULL, NULL, (int)frames,
                                             (step & OSSAI_STEP_R) ? OSSA_INTERP_STEP
                                                                   : OSSA_INTERP_LINEAR};
        tr->scale = (ossa_raw_track3){times, sv, NULL, NULL, (int)frames,
                                      (step & OSSAI_STEP_S) ? OSSA_INTERP_STEP
                                                            : OSSA_INTERP_LINEAR};
        out->by_joint[j] = tr;
    }
    return OSSA_OK;
}

void ossai_in_place_reference_free(ossai_in_place_reference *ref, const ossa_allocator *allocator)
{
    ossa_free(allocator, ref->memory);
    memset(ref, 0, sizeof *ref);
}
