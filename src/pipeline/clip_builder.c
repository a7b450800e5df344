/* clip_builder.c - raw curves (STEP / LINEAR / CUBICSPLINE, arbitrary key
 * times) -> uniform-rate runtime clip, with the error the resampling makes.
 *
 * Curves are evaluated in double precision with glTF 2.0 semantics
 * (raw_curve.c). The rate is chosen so that source keys fall on frames when
 * they can; the error the runtime sampler then makes against the source
 * curves is measured by clip_error.c. */
#include "ossa/clip_builder.h"

#include <math.h>
#include <string.h>

#include "clip_error.h"
#include "clip_tracks.h"
#include "blob/format.h"
#include "core/math_internal.h"
#include "raw_curve.h"

#define MIN_AUTO_RATE 24.0
#define MAX_ALIGN_RATE 240

/* ---- validation of the raw curves ---- */

static int finite3(ossa_float3 v)
{
    return isfinite(v.x) && isfinite(v.y) && isfinite(v.z);
}

static int finite4(ossa_quat q)
{
    return isfinite(q.x) && isfinite(q.y) && isfinite(q.z) && isfinite(q.w);
}

static ossa_result check_times(const float *times, int n, const char *joint, const char *what,
                               ossa_error *error)
{
    for (int k = 0; k < n; ++k) {
        if (!isfinite(times[k]))
            return ossa_error_set(error, OSSA_ERR_CLIP_BAD_KEYS, k, -1,
                                  "clip: joint '%s' %s key %d has a non-finite time", joint,
                                  what, k);
        if (k > 0 && times[k] < times[k - 1])
            return ossa_error_set(error, OSSA_ERR_CLIP_BAD_KEYS, k, -1,
                                  "clip: joint '%s' %s key %d is at %g s, before key %d at %g s",
                                  joint, what, k, (double)times[k], k - 1,
                                  (double)times[k - 1]);
    }
    return OSSA_OK;
}

static ossa_result check_track3(const ossa_raw_track3 *tr, const char *joint, const char *what,
                                ossa_error *error)
{
    if (tr->key_count < 0)
        return ossa_error_set(error, OSSA_ERR_CLIP_BAD_KEYS, -1, -1,
                              "clip: joint '%s' %s has a negative key count", joint, what);
    if (tr->key_count == 0)
        return OSSA_OK;
    if (!tr->times_s || !tr->values)
        return ossa_error_set(error, OSSA_ERR_MISSING_INPUT, -1, -1,
                              "clip: joint '%s' %s has keys but no times or values", joint, what);
    if ((unsigned)tr->interpolation >= OSSA_INTERP_COUNT)
        return ossa_error_set(error, OSSA_ERR_BAD_ARGUMENT, -1, -1,
                              "clip: joint '%s' %s has unknown interpolation %d", joint, what,
                              (int)tr->interpolation);
    int cubic = tr->interpolation == OSSA_INTERP_CUBICSPLINE;
    if (cubic && (!tr->in_tangents || !tr->out_tangents))
        return ossa_error_set(error, OSSA_ERR_MISSING_INPUT, -1, -1,
                              "clip: joint '%s' %s is CUBICSPLINE without tangents", joint, what);
    ossa_result r = check_times(tr->times_s, tr->key_count, joint, what, error);
    if (r)
        return r;
    for (int k = 0; k < tr->key_count; ++k)
        if (!finite3(tr->values[k]) ||
            (cubic && (!finite3(tr->in_tangents[k]) || !finite3(tr->out_tangents[k]))))
            return ossa_error_set(error, OSSA_ERR_CLIP_BAD_KEYS, k, -1,
                                  "clip: joint '%s' %s key %d is not finite", joint, what, k);
    return OSSA_OK;
}

static ossa_result check_track_quat(const ossa_raw_track_quat *tr, const char *joint,
                                    ossa_error *error)
{
    const char *what = "rotation";
    if (tr->key_count < 0)
        return ossa_error_set(error, OSSA_ERR_CLIP_BAD_KEYS, -1, -1,
                              "clip: joint '%s' %s has a negative key count", joint, what);
    if (tr->key_count == 0)
        return OSSA_OK;
    if (!tr->times_s || !tr->values)
        return ossa_error_set(error, OSSA_ERR_MISSING_INPUT, -1, -1,
                              "clip: joint '%s' %s has keys but no times or values", joint, what);
    if ((unsigned)tr->interpolation >= OSSA_INTERP_COUNT)
        return ossa_error_set(error, OSSA_ERR_BAD_ARGUMENT, -1, -1,
                              "clip: joint '%s' %s has unknown interpolation %d", joint, what,
                              (int)tr->interpolation);
    int cubic = tr->interpolation == OSSA_INTERP_CUBICSPLINE;
    if (cubic && (!tr->in_tangents || !tr->out_tangents))
        return ossa_error_set(error, OSSA_ERR_MISSING_INPUT, -1, -1,
                              "clip: joint '%s' %s is CUBICSPLINE without tangents", joint, what);
    ossa_result r = check_times(tr->times_s, tr->key_count, joint, what, error);
    if (r)
        return r;
    for (int k = 0; k < tr->key_count; ++k) {
        const ossa_quat q = tr->values[k];
        if (!finite4(q) || !(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w > 1e-12f) ||
            (cubic && (!finite4(tr->in_tangents[k]) || !finite4(tr->out_tangents[k]))))
            return ossa_error_set(error, OSSA_ERR_CLIP_BAD_KEYS, k, -1,
                                  "clip: joint '%s' rotation key %d is not finite or is zero",
                                  joint, k);
    }
    return OSSA_OK;
}

/* ---- rate choice ---- */

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

/* The smallest integer rate <= MAX_ALIGN_RATE putting every key on a frame,
 * raised to a multiple of itself >= MIN_AUTO_RATE; 30 when no rate aligns. */
static double auto_rate(const ossa_raw_joint_track *const *tracks, int joint_count)
{
    for (int r = 1; r <= MAX_ALIGN_RATE; ++r) {
        int ok = 1;
        for (int j = 0; j < joint_count && ok; ++j) {
            const ossa_raw_joint_track *t = tracks[j];
            if (!t)
                continue;
            ok = on_grid(t->translation.times_s, t->translation.key_count, r) &&
                 on_grid(t->rotation.times_s, t->rotation.key_count, r) &&
                 on_grid(t->scale.times_s, t->scale.key_count, r);
        }
        if (ok)
            return r * ceil(MIN_AUTO_RATE / r);
    }
    return 30.0;
}

static ossa_result build(const ossa_raw_clip *raw, const ossa_skeleton *skeleton,
                         const ossa_clip_build_options *options, ossa_clip **out,
                         ossa_clip_build_report *report, ossa_error *error,
                         const ossa_raw_joint_track **tracks)
{
    const ossa_allocator *allocator = &options->allocator;
    const int joint_count = ossa_skeleton_joint_count(skeleton);
    const ossa_transform *rest = ossa_skeleton_rest_pose(skeleton);
    const char *clip_name = raw->name ? raw->name : "";

    /* Match tracks to joints by name. */
    report->matched_tracks = report->unmatched_tracks = 0;
    report->first_unmatched = NULL;
    for (int k = 0; k < raw->track_count; ++k) {
        const ossa_raw_joint_track *t = &raw->tracks[k];
        const char *name = t->joint_name ? t->joint_name : "";
        int j = ossa_skeleton_find_joint(skeleton, name);
        ossa_result r;
        if ((r = check_track3(&t->translation, name, "translation", error)) ||
            (r = check_track_quat(&t->rotation, name, error)) ||
            (r = check_track3(&t->scale, name, "scale", error)))
            return r;
        if (j < 0) {
            if (!report->unmatched_tracks++)
                report->first_unmatched = name;
            continue;
        }
        if (tracks[j])
            return ossa_error_set(error, OSSA_ERR_CLIP_BAD_KEYS, j, -1,
                                  "clip '%s': joint '%s' has two tracks", clip_name, name);
        tracks[j] = t;
        report->matched_tracks++;
    }

    /* Duration: given, or the last key over all matched tracks. */
    double last_key = 0.0;
    int any_keys = 0;
    for (int j = 0; j < joint_count; ++j) {
        const ossa_raw_joint_track *t = tracks[j];
        if (!t)
            continue;
        const int counts[3] = {t->translation.key_count, t->rotation.key_count,
                               t->scale.key_count};
        const float *times[3] = {t->translation.times_s, t->rotation.times_s, t->scale.times_s};
        for (int c = 0; c < 3; ++c)
            if (counts[c] > 0) {
                any_keys = 1;
                last_key = fmax(last_key, (double)times[c][counts[c] - 1]);
            }
    }
    if (!report->matched_tracks)
        return ossa_error_set(error, OSSA_ERR_CLIP_EMPTY, -1, -1,
                              "clip '%s': none of its %d tracks names a joint of the skeleton "
                              "(the first is '%s')",
                              clip_name, raw->track_count,
                              report->first_unmatched ? report->first_unmatched : "");
    if (!any_keys)
        return ossa_error_set(error, OSSA_ERR_CLIP_EMPTY, -1, -1,
                              "clip '%s': its tracks have no keys", clip_name);
    double duration = raw->duration_s > 0.0f ? (double)raw->duration_s : last_key;
    if (!isfinite(duration) || duration < 0.0)
        return ossa_error_set(error, OSSA_ERR_CLIP_BAD_KEYS, -1, -1,
                              "clip '%s': duration %g s is not valid", clip_name, duration);
    /* A duration within one instant of 0 is a single frame: spread over two
     * frames, 1e-43 s would need an infinite rate. */
    if (duration < ossai_instant_eps(0.0))
        duration = 0.0;

    /* Rate and frame count: a whole number of frames spans the duration. */
    double rate = options->rate > 0.0f ? (double)options->rate : auto_rate(tracks, joint_count);
    const int max_frames = options->max_frames > 0 ? options->max_frames : 1000000;
    /* A duration within a third of an instant of whole frames keeps the rate
     * (and the keys on frames); any other is covered by one more frame. */
    double frames_exact = duration * rate;
    double intervals = floor(frames_exact + 0.5);
    if (fabs(duration - intervals / rate) > ossai_instant_eps(duration) / 3.0)
        intervals = ceil(frames_exact);
    if (duration > 0.0 && intervals < 1.0)
        intervals = 1.0;
    if (intervals + 1.0 > (double)max_frames)
        return ossa_error_set(error, OSSA_ERR_CLIP_TOO_LARGE, -1, -1,
                              "clip '%s': %g s at %g Hz needs %.0f frames, more than %d",
                              clip_name, duration, rate, intervals + 1.0, max_frames);
    const uint32_t frame_count = duration > 0.0 ? (uint32_t)intervals + 1u : 1u;
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

    const ossai_clip_error err = ossai_clip_error_measure(c, tracks, duration);
    c->error_translation = (float)err.translation;
    c->error_rotation_deg = (float)err.rotation_deg;
    c->error_scale = (float)err.scale;
    report->rate = (float)frame_rate;
    report->frame_count = (int)frame_count;
    report->duration_s = (float)duration;
    report->max_translation_error = (float)err.translation;
    report->max_rotation_error_deg = (float)err.rotation_deg;
    report->max_scale_error = (float)err.scale;
    report->worst_joint = err.worst_joint;
    *out = c;
    return OSSA_OK;
}

ossa_result ossa_clip_build(const ossa_raw_clip *raw, const ossa_skeleton *skeleton,
                            const ossa_clip_build_options *options, ossa_clip **out,
                            ossa_clip_build_report *report, ossa_error *error)
{
    static const ossa_clip_build_options defaults;
    ossa_clip_build_report scratch_report;
    if (!options)
        options = &defaults;
    if (!report)
        report = &scratch_report;
    memset(report, 0, sizeof *report);
    report->worst_joint = -1;
    ossa_error_clear(error);
    if (!out)
        return ossa_error_set(error, OSSA_ERR_MISSING_OUTPUT, -1, -1, "clip: no output");
    *out = NULL;
    if (!raw || !skeleton || (raw->track_count > 0 && !raw->tracks))
        return ossa_error_set(error, OSSA_ERR_MISSING_INPUT, -1, -1,
                              "clip: no raw clip or no skeleton");
    if (raw->track_count <= 0)
        return ossa_error_set(error, OSSA_ERR_CLIP_EMPTY, -1, -1, "clip '%s': it has no tracks",
                              raw->name ? raw->name : "");
    if (!isfinite(raw->duration_s) || raw->duration_s < 0.0f || !isfinite(options->rate) ||
        options->rate < 0.0f)
        return ossa_error_set(error, OSSA_ERR_BAD_VALUE, -1, -1,
                              "clip '%s': duration %g s or rate %g Hz is invalid",
                              raw->name ? raw->name : "", (double)raw->duration_s,
                              (double)options->rate);
    const int joint_count = ossa_skeleton_joint_count(skeleton);
    /* tracks[j]: the raw track of skeleton joint j, or NULL (rest pose). */
    const ossa_raw_joint_track **tracks =
        ossa_alloc(&options->allocator, sizeof *tracks * (size_t)joint_count, 16);
    if (!tracks)
        return ossa_error_set(error, OSSA_ERR_OUT_OF_MEMORY, -1, -1, "clip: out of memory");
    memset(tracks, 0, sizeof *tracks * (size_t)joint_count);
    ossa_result r = build(raw, skeleton, options, out, report, error, tracks);
    ossa_free(&options->allocator, (void *)tracks);
    if (r == OSSA_OK && (r = ossai_clip_add_tracks(out, skeleton, options, report, error))) {
        ossa_clip_free(*out, &options->allocator);
        *out = NULL;
    }
    return r;
}

void ossa_clip_free(ossa_clip *clip, const ossa_allocator *allocator)
{
    ossa_free(allocator, clip);
}
