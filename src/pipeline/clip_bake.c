/* clip_bake.c - source curves -> a raw runtime clip (float keys at a uniform
 * rate): the frame grid, the layout, every joint's value at every frame; and
 * the rate the source's key times ask for. Curves are evaluated in double
 * with glTF 2.0 semantics (raw_curve.c). */
#include "clip_bake.h"

#include <math.h>
#include <string.h>

#include "blob/format.h"
#include "core/math_internal.h"
#include "raw_curve.h"

#define MIN_AUTO_RATE 24.0
#define MAX_ALIGN_RATE 240
/* A common key step is looked for up to this rate (mocap runs at 120 Hz,
 * some at 240 or 480). */
#define MAX_STEP_RATE 1000.0

/* Whether every key time of a track is a multiple of 1 / rate, to within a
 * third of an instant (raw_curve.h). */
static int on_grid(const float *times, int n, double rate)
{
    for (int k = 0; k < n; ++k) {
        const double t = times[k];
        if (fabs(t - floor(t * rate + 0.5) / rate) > ossai_instant_eps(t) / 3.0)
            return 0;
    }
    return 1;
}

static int all_on_grid(const ossa_raw_joint_track *const *tracks, int joint_count, double rate)
{
    for (int j = 0; j < joint_count; ++j) {
        const ossa_raw_joint_track *t = tracks[j];
        if (t && !(on_grid(t->translation.times_s, t->translation.key_count, rate) &&
                   on_grid(t->rotation.times_s, t->rotation.key_count, rate) &&
                   on_grid(t->scale.times_s, t->scale.key_count, rate)))
            return 0;
    }
    return 1;
}

/* The step of the curve with the most keys, when they are evenly spaced
 * from 0: (last - first) / (keys - 1) with the first key a whole number of
 * steps from 0; else 0. */
static double common_step(const ossa_raw_joint_track *const *tracks, int joint_count)
{
    const float *times = NULL;
    int most = 0;
    for (int j = 0; j < joint_count; ++j) {
        const ossa_raw_joint_track *t = tracks[j];
        if (!t)
            continue;
        const ossa_raw_track3 *c3[2] = {&t->translation, &t->scale};
        for (int c = 0; c < 2; ++c)
            if (c3[c]->key_count > most)
                most = c3[c]->key_count, times = c3[c]->times_s;
        if (t->rotation.key_count > most)
            most = t->rotation.key_count, times = t->rotation.times_s;
    }
    if (most < 3)
        return 0.0;
    const double step = ((double)times[most - 1] - times[0]) / (most - 1);
    return step > 0.0 ? step : 0.0;
}

double ossai_clip_key_rate(const ossa_raw_joint_track *const *tracks, int joint_count,
                           int *grid)
{
    *grid = 1;
    for (int r = 1; r <= MAX_ALIGN_RATE; ++r)
        if (all_on_grid(tracks, joint_count, r))
            return r * ceil(MIN_AUTO_RATE / r);
    const double step = common_step(tracks, joint_count);
    if (step > 0.0 && 1.0 / step <= MAX_STEP_RATE && all_on_grid(tracks, joint_count, 1.0 / step))
        return ceil(MIN_AUTO_RATE * step) / step;
    *grid = 0;
    return 30.0;
}


double ossai_clip_frames_needed(double duration, double rate)
{
    if (!(duration > 0.0))
        return 1.0;
    /* A duration within a third of an instant of whole frames keeps the rate
     * (and the keys on frames); any other is covered by one more frame. */
    const double frames_exact = duration * rate;
    double intervals = floor(frames_exact + 0.5);
    if (fabs(duration - intervals / rate) > ossai_instant_eps(duration) / 3.0)
        intervals = ceil(frames_exact);
    return (intervals < 1.0 ? 1.0 : intervals) + 1.0;
}

ossa_result ossai_clip_bake(const ossa_raw_joint_track *const *tracks,
                            const ossa_skeleton *skeleton, const char *clip_name, double duration,
                            uint32_t frame_count, const ossa_allocator *allocator,
                            ossa_clip **out, ossa_error *error)
{
    *out = NULL;
    const int joint_count = ossa_skeleton_joint_count(skeleton);
    const ossa_transform *rest = ossa_skeleton_rest_pose(skeleton);
    if (frame_count == 1)
        duration = 0.0;
    const double frame_rate = frame_count > 1 ? (frame_count - 1) / duration : 0.0;
    const double frame_dt = frame_count > 1 ? duration / (frame_count - 1) : 0.0;

    /* Layout. */
    const uint32_t stride = ossai_align_up((uint32_t)joint_count, OSSAI_CLIP_JOINT_ALIGN);
    const uint64_t frame_floats = (uint64_t)OSSAI_COMPONENTS * stride;
    const uint64_t frames_offset = sizeof(ossa_clip);
    const uint64_t steps_offset = frames_offset + frame_count * frame_floats * 4;
    const uint64_t name_offset = steps_offset + (uint64_t)joint_count;
    const uint64_t name_bytes = strlen(clip_name) + 1;
    const uint64_t total = (name_offset + name_bytes + 63) & ~(uint64_t)63;
    if (total > UINT32_MAX)
        return ossa_error_set(error, OSSA_ERR_CLIP_TOO_LARGE, -1, -1,
                              "clip '%s': %u frames x %d joints exceed 4 GiB", clip_name,
                              frame_count, joint_count);
    ossa_clip *c = ossa_alloc(allocator, (size_t)total, 64);
    if (!c)
        return ossa_error_set(error, OSSA_ERR_OUT_OF_MEMORY, -1, -1,
                              "clip '%s': out of memory for %llu bytes", clip_name,
                              (unsigned long long)total);
    memset(c, 0, (size_t)total);
    c->tag = OSSAI_TAG_CLIP;
    c->bytes = (uint32_t)total;
    c->joint_count = (uint32_t)joint_count;
    c->joint_stride = stride;
    c->frame_count = frame_count;
    c->duration = (float)duration;
    c->rate = (float)frame_rate;
    c->frames_offset = (uint32_t)frames_offset;
    c->step_offset = (uint32_t)steps_offset;
    c->name_offset = (uint32_t)name_offset;
    c->name_bytes = (uint32_t)name_bytes;
    memcpy((char *)c + name_offset, clip_name, (size_t)name_bytes);

    uint8_t *steps = (uint8_t *)c + steps_offset;
    for (int j = 0; j < joint_count; ++j) {
        const ossa_raw_joint_track *t = tracks[j];
        if (!t)
            continue;
        uint8_t bits = 0;
        if (t->translation.key_count > 1 && t->translation.interpolation == OSSA_INTERP_STEP)
            bits |= OSSAI_STEP_T;
        if (t->rotation.key_count > 1 && t->rotation.interpolation == OSSA_INTERP_STEP)
            bits |= OSSAI_STEP_R;
        if (t->scale.key_count > 1 && t->scale.interpolation == OSSA_INTERP_STEP)
            bits |= OSSAI_STEP_S;
        steps[j] = bits;
        if (bits)
            c->flags |= OSSAI_CLIP_HAS_STEP;
    }

    /* Frames: every joint's value at every frame time. */
    float *frames = (float *)(void *)((char *)c + frames_offset);
    for (uint32_t f = 0; f < frame_count; ++f) {
        const double t = f + 1 == frame_count ? duration : f * frame_dt;
        float *row = frames + f * frame_floats;
        const float *prev = f > 0 ? row - frame_floats : NULL;
        for (uint32_t j = 0; j < stride; ++j) {
            ossa_float3 tr = {0.0f, 0.0f, 0.0f}, sc = {1.0f, 1.0f, 1.0f};
            ossa_quat q = {0.0f, 0.0f, 0.0f, 1.0f};
            if (j < (uint32_t)joint_count) {
                const ossa_raw_joint_track *tk = tracks[j];
                tr = rest[j].translation;
                q = rest[j].rotation;
                sc = rest[j].scale;
                if (tk && tk->translation.key_count > 0) {
                    ossai_dvec3 v = ossai_curve3_bake(&tk->translation, t);
                    tr = ossai_f3((float)v.x, (float)v.y, (float)v.z);
                }
                if (tk && tk->rotation.key_count > 0) {
                    ossai_dquat v = ossai_curve_quat_bake(&tk->rotation, t);
                    q = ossai_quat((float)v.x, (float)v.y, (float)v.z, (float)v.w);
                }
                if (tk && tk->scale.key_count > 0) {
                    ossai_dvec3 v = ossai_curve3_bake(&tk->scale, t);
                    sc = ossai_f3((float)v.x, (float)v.y, (float)v.z);
                }
                /* Finite keys can still make a spline overshoot float range. */
                if (!ossai_isfinite3(tr) || !ossai_isfinite3(sc)) {
                    const char *what = ossai_isfinite3(tr) ? "scale" : "translation";
                    ossa_free(allocator, c);
                    return ossa_error_set(error, OSSA_ERR_CLIP_BAD_KEYS, (int)j, -1,
                                          "clip '%s': joint '%s' %s leaves the float range "
                                          "at %g s",
                                          clip_name, ossa_skeleton_joint_name(skeleton, (int)j),
                                          what, t);
                }
                q = ossa_quat_normalize(q);
                /* Keep consecutive frames on one hemisphere: the runtime's
                 * lerp then never has to cross it. */
                if (prev && q.x * prev[OSSAI_QX * stride + j] + q.y * prev[OSSAI_QY * stride + j] +
                                    q.z * prev[OSSAI_QZ * stride + j] +
                                    q.w * prev[OSSAI_QW * stride + j] <
                                0.0f)
                    q = ossai_quat_neg(q);
            }
            row[OSSAI_TX * stride + j] = tr.x;
            row[OSSAI_TY * stride + j] = tr.y;
            row[OSSAI_TZ * stride + j] = tr.z;
            row[OSSAI_QX * stride + j] = q.x;
            row[OSSAI_QY * stride + j] = q.y;
            row[OSSAI_QZ * stride + j] = q.z;
            row[OSSAI_QW * stride + j] = q.w;
            row[OSSAI_SX * stride + j] = sc.x;
            row[OSSAI_SY * stride + j] = sc.y;
            row[OSSAI_SZ * stride + j] = sc.z;
        }
    }

    *out = c;
    return OSSA_OK;
}

void ossai_clip_set_error(ossa_clip *clip, double error, int joint, double time_s)
{
    clip->error = (float)error;
    clip->error_joint = joint < 0 ? OSSAI_NO_ERROR_JOINT : (uint32_t)joint;
    clip->error_time_s = (float)time_s;
}
