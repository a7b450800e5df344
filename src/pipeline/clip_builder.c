/* clip_builder.c - raw curves (STEP / LINEAR / CUBICSPLINE, arbitrary key
 * times) -> uniform-rate runtime clip, with the error the resampling makes.
 *
 * Curves are evaluated in double precision with glTF 2.0 semantics
 * (raw_curve.c) and baked by clip_bake.c. The rate starts where the source's
 * keys fall on frames and rises until the runtime's sampling is within the
 * tolerance of the source curves in the clip metric (clip_error.c). */
#include "ossa/clip_builder.h"

#include <math.h>
#include <string.h>

#include "clip_bake.h"
#include "clip_compress.h"
#include "clip_error.h"
#include "clip_fit.h"
#include "clip_in_place.h"
#include "motion_pack.h"
#include "clip_tracks.h"
#include "blob/format.h"
#include "core/math_internal.h"
#include "raw_curve.h"

/* Multiples of the key rate the automatic choice tries, in order. */
static const int rate_multiples[] = {1, 2, 3, 4, 5, 6, 8, 10, 12, 16, 20, 24, 32, 40, 48, 64};
/* Raising the rate stops when the best error has not fallen by this factor
 * over the last STALLED rates: a STEP key off the grid or a jump is not cured
 * by more frames (the error of a piecewise-linear source, whose bends fall
 * anywhere between frames, falls unevenly, so one rate is not enough to
 * tell). */
#define CONVERGING 0.9
#define STALLED 3
/* Compressing, the keys' resampling may spend this share of the tolerance;
 * the quantisation is held to the whole tolerance against the source, so it
 * gets what the resampling leaves at every time - most of it almost
 * everywhere. On pab jog, run and walk, a share of 1 gives the smallest
 * clips: a higher rate costs frames for every component, while the few
 * times where resampling took most of the bound cost a few bits to a few
 * components. */
#define RESAMPLE_SHARE 1.0
/* With root motion extracted, the joints are compressed against the source
 * with the motion the runtime plays taken out (clip_in_place.h): placed by
 * that motion, which is rigid, the clip is as far from the source as from
 * that reference, so the motion track's rounding costs no share of the
 * tolerance at any clip time - it makes the in-place joint wobble by as
 * much, which its keys carry. What it does cost is the motion between two
 * playheads (what a game adds to a character's placement), which nothing
 * corrects: the track is packed in steps that move no virtual point by more
 * than this share of the tolerance, as before the reference existed.
 * Coarser steps make the clips a little smaller (the in-place joint's keys
 * grow by less than the track shrinks). */
#define MOTION_STEP_SHARE 0.02
/* Compressions tried until the runtime's decoding is within the tolerance. */
#define RETARGETS 3

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

/* Bakes the clip at `rate` and measures it; *clip is NULL on failure. */
static ossa_result bake_and_measure(const ossa_raw_joint_track *const *tracks,
                                    const ossa_skeleton *skeleton, const char *name,
                                    double duration, double rate, const double *distance,
                                    const ossa_clip_build_options *options, ossa_clip **clip,
                                    ossai_clip_error *err, ossa_error *error)
{
    const int max_frames = options->max_frames > 0 ? options->max_frames : 1000000;
    const double frames = ossai_clip_frames_needed(duration, rate);
    if (!(frames <= (double)max_frames))
        return ossa_error_set(error, OSSA_ERR_CLIP_TOO_LARGE, -1, -1,
                              "clip '%s': %g s at %g Hz needs %.0f frames, more than %d", name,
                              duration, rate, frames, max_frames);
    ossa_result r = ossai_clip_bake(tracks, skeleton, name, duration, (uint32_t)frames,
                                    &options->allocator, clip, error);
    if (r)
        return r;
    if (ossai_clip_fit(*clip, tracks, duration, &options->allocator)) {
        ossa_free(&options->allocator, *clip);
        *clip = NULL;
        return ossa_error_set(error, OSSA_ERR_OUT_OF_MEMORY, -1, -1, "clip '%s': out of memory", name);
    }
    if ((r = ossai_clip_error_measure(*clip, skeleton, tracks, duration, distance,
                                      &options->allocator, err)) != OSSA_OK) {
        ossa_free(&options->allocator, *clip);
        *clip = NULL;
        return ossa_error_set(error, r, -1, -1, "clip '%s': measuring its error: %s", name,
                              ossa_result_str(r));
    }
    return OSSA_OK;
}

/* The rate: the one given, or the lowest multiple of the key rate whose
 * error is within `budget` (see ossa_clip_build_options.rate), trying the
 * multiples from rate_multiples[first] on; *chosen gets the index of the
 * one taken. No multiple left to try: *out NULL, OSSA_OK. */
static ossa_result choose_rate(const ossa_raw_joint_track *const *tracks,
                               const ossa_skeleton *skeleton, const char *name, double duration,
                               const double *distance, double budget,
                               const ossa_clip_build_options *options, int first, int *chosen,
                               ossa_clip **out, ossa_clip_build_report *report,
                               ossa_error *error)
{
    *out = NULL;
    const ossa_allocator *allocator = &options->allocator;
    const int joint_count = ossa_skeleton_joint_count(skeleton);
    int grid = 0;
    const double key_rate = ossai_clip_key_rate(tracks, joint_count, &grid);
    report->key_rate = (float)key_rate;
    report->keys_on_grid = grid != 0;
    /* The rates to try: the one given, or the multiples of the key rate up
     * to the highest automatic rate. */
    enum { MULTIPLES = sizeof rate_multiples / sizeof rate_multiples[0] };
    double rates[MULTIPLES];
    int count = 0;
    if (options->rate > 0.0f)
        rates[count++] = options->rate;
    else
        for (int i = 0; i < MULTIPLES && (i == 0 || (duration > 0.0 &&
                                                     key_rate * rate_multiples[i] <=
                                                         OSSA_CLIP_MAX_AUTO_RATE));
             ++i)
            rates[count++] = key_rate * rate_multiples[i];
    ossa_clip *best = NULL;
    ossai_clip_error best_err = {0.0, -1, 0.0};
    double stalled_error = INFINITY;
    int stalled = 0;
    if (first >= count)
        return OSSA_OK;
    for (int i = first; i < count; ++i) {
        ossa_clip *clip = NULL;
        ossai_clip_error err;
        ossa_result r = bake_and_measure(tracks, skeleton, name, duration, rates[i], distance,
                                         options, &clip, &err, error);
        if (r) {
            if (best && r == OSSA_ERR_CLIP_TOO_LARGE)
                break; /* keep the best rate that fits */
            ossa_free(allocator, best);
            return r;
        }
        report->rates_tried++;
        if (!best || err.error < best_err.error) {
            ossa_free(allocator, best);
            best = clip;
            best_err = err;
            *chosen = i;
        } else {
            ossa_free(allocator, clip);
        }
        if (best_err.error <= budget)
            break;
        if (best_err.error < CONVERGING * stalled_error) {
            stalled_error = best_err.error;
            stalled = 0;
        } else if (++stalled == STALLED) {
            break;
        }
        /* The error falls at most as the cube of the frame step (nlerp
         * against slerp between keys on frames; a curved source falls as
         * its square, a bend between frames as the step itself): the
         * multiples the first error says are too few are not tried. */
        if (i == first) {
            const double needed = cbrt(err.error / budget);
            while (i + 2 < count && rate_multiples[i + 1] < needed)
                ++i;
        }
    }
    ossai_clip_set_error(best, best_err.error, best_err.joint, best_err.time_s);
    report->rate = ossa_clip_rate(best);
    report->frame_count = ossa_clip_frame_count(best);
    report->duration_s = ossa_clip_duration(best);
    report->error = (float)best_err.error;
    report->error_joint = best_err.joint;
    report->error_time_s = (float)best_err.time_s;
    *out = best;
    return OSSA_OK;
}

/* Packs *raw's root motion track (motion_pack.h) in steps that move no
 * virtual point by more than `tolerance`. */
static ossa_result pack_motion(ossa_clip **raw, const ossa_skeleton *skeleton,
                               const double *distance, double tolerance,
                               const ossa_allocator *allocator, ossa_error *error)
{
    double reach = 0.0, moved = 0.0;
    ossa_result r = ossai_motion_reach(*raw, skeleton, distance, allocator, &reach, error);
    if (r == OSSA_OK)
        r = ossai_clip_pack_motion(raw, tolerance, reach, allocator, &moved, error);
    return r;
}

/* The rate, then (unless options->raw) the compressed clip, and its error
 * measured by the runtime's own decoder. */
static ossa_result rate_and_compress(const ossa_raw_joint_track *const *tracks,
                                     const ossa_skeleton *skeleton, const char *name,
                                     double duration, const ossa_clip_build_options *options,
                                     int in_place, ossa_clip **out,
                                     ossa_clip_build_report *report, ossa_error *error)
{
    const ossa_allocator *allocator = &options->allocator;
    const int joint_count = ossa_skeleton_joint_count(skeleton);
    const ossai_metric_units units = ossai_metric_units_make(
        options->tolerance_m > 0.0f ? options->tolerance_m : OSSA_CLIP_DEFAULT_TOLERANCE_M,
        options->distance_m > 0.0f ? options->distance_m : OSSA_CLIP_DEFAULT_DISTANCE_M,
        ossa_skeleton_metres_per_unit(skeleton));
    report->tolerance = (float)units.tolerance;
    report->distance = (float)units.distance;
    report->units_assumed_metres = units.assumed_metres != 0;
    /* Each joint's distance: the default, or the reach of what it carries. */
    double *distance = ossa_alloc(allocator, sizeof *distance * (size_t)joint_count, 16);
    if (!distance)
        return ossa_error_set(error, OSSA_ERR_OUT_OF_MEMORY, -1, -1, "clip '%s': out of memory",
                              name);
    for (int j = 0; j < joint_count; ++j) {
        distance[j] = units.distance;
        if (options->joint_distances && j < options->joint_distance_count &&
            options->joint_distances[j] > units.distance)
            distance[j] = options->joint_distances[j];
    }
    const double budget = units.tolerance * (options->raw ? 1.0 : RESAMPLE_SHARE);
    ossa_clip *raw = NULL;
    ossai_in_place_reference ref = {0};
    /* the rate before (with root motion): taken back if the next one's
     * in-place frames miss by more - the smallest error is kept */
    ossa_clip *before = NULL;
    ossai_in_place_reference before_ref = {0};
    ossa_clip_build_report before_report = *report;
    ossa_result r = OSSA_OK;
    double in_place_before = INFINITY;
    for (int first = 0, chosen = 0;; first = chosen + 1) {
        ossa_clip *next = NULL;
        ossa_clip_build_report tried = *report;
        r = choose_rate(tracks, skeleton, name, duration, distance, budget, options, first,
                        &chosen, &next, &tried, error);
        if (raw && (r == OSSA_ERR_CLIP_TOO_LARGE || (r == OSSA_OK && !next))) {
            ossa_error_clear(error); /* no higher rate: the last one stays */
            r = OSSA_OK;
            break;
        }
        ossa_free(allocator, before);
        ossai_in_place_reference_free(&before_ref, allocator);
        before = raw;
        before_ref = ref;
        before_report = *report;
        memset(&ref, 0, sizeof ref);
        raw = next;
        if (r)
            break;
        *report = tried;
        report->resample_error = report->error;
        /* With root motion: extracted from the raw frames (and the float
         * tracks baked) first, its track packed as the runtime will play
         * it; then the reference the joints are compressed against, the
         * source with that motion taken out. Between frames, the runtime
         * interpolates the in-place frames and the motion apart, which the
         * source's curves do not: a rate whose in-place frames miss the
         * reference by more than the budget gives way to the next one (an
         * automatic rate only, while the error falls; when the next one
         * misses by more, the one before is kept). */
        if (!in_place ||
            (r = ossai_clip_add_tracks(&raw, skeleton, options, report, error)) != OSSA_OK ||
            report->root_motion_joint < 0 ||
            (r = pack_motion(&raw, skeleton, distance, units.tolerance * MOTION_STEP_SHARE,
                             allocator, error)) != OSSA_OK ||
            (r = ossai_in_place_reference_make(raw, skeleton, tracks, duration, distance,
                                               allocator, &ref, error)) != OSSA_OK)
            break;
        ossai_clip_error in_place_err;
        if ((r = ossai_clip_error_measure(raw, skeleton, ref.by_joint, duration, distance,
                                          allocator, &in_place_err)) != OSSA_OK) {
            r = ossa_error_set(error, r, -1, -1, "clip '%s': measuring its error: %s", name,
                               ossa_result_str(r));
            break;
        }
        const double in_place_error = in_place_err.error + ref.error;
        report->resample_error = (float)in_place_error;
        if (in_place_error <= budget || options->rate > 0.0f)
            break;
        if (!(in_place_error < CONVERGING * in_place_before)) {
            if (before && !(in_place_error < in_place_before)) { /* worse: the one before */
                ossa_free(allocator, raw);
                ossai_in_place_reference_free(&ref, allocator);
                raw = before;
                ref = before_ref;
                *report = before_report;
                before = NULL;
                memset(&before_ref, 0, sizeof before_ref);
            }
            break;
        }
        in_place_before = in_place_error;
    }
    ossa_free(allocator, before);
    ossai_in_place_reference_free(&before_ref, allocator);
    /* the joints are held to the tolerance (less the reference's own
     * rounding) against the reference */
    double tolerance = units.tolerance;
    if (ref.memory) {
        tracks = ref.by_joint;
        tolerance = units.tolerance - ref.error;
    }
    if (r || options->raw) {
        ossa_free(allocator, distance);
        ossai_in_place_reference_free(&ref, allocator);
        if (r) {
            ossa_free(allocator, raw);
            raw = NULL;
        }
        report->within_tolerance = r == OSSA_OK && report->error <= units.tolerance;
        report->bytes = raw ? ossa_clip_bytes(raw) : 0;
        *out = raw;
        return r;
    }
    ossai_compress_setup setup = {raw,       skeleton, tracks,         duration,
                                  distance,  tolerance, units.distance, 0.0,
                                  options->compression_level > 0};
    ossai_compress_report cr;
    ossa_clip *packed = NULL;
    ossai_clip_error err = {0.0, -1, 0.0};
    /* The runtime's decoder has the last word: should the clip it decodes
     * exceed the tolerance where the search did not look as closely, the
     * search runs again with a lower bound. */
    for (int attempt = 0; attempt < RETARGETS; ++attempt) {
        ossa_free(allocator, packed);
        packed = NULL;
        if ((r = ossai_clip_compress(&setup, allocator, &packed, &cr, error)))
            break;
        if ((r = ossai_clip_error_measure(packed, skeleton, tracks, duration, distance,
                                          allocator, &err)) != OSSA_OK) {
            r = ossa_error_set(error, r, -1, -1, "clip '%s': measuring its error: %s", name,
                               ossa_result_str(r));
            break;
        }
        if (err.error <= tolerance || report->resample_error > units.tolerance)
            break;
        const double base = setup.target > 0.0 ? setup.target : 0.97;
        setup.target = base * fmin(0.97, tolerance / err.error);
    }
    /* With root motion: against the source, the runtime's clip placed by
     * its motion is at most the compression's error against the reference
     * plus the reference's rounding away (the placement is rigid); the
     * packed motion track goes with the clip. */
    if (r == OSSA_OK && in_place) {
        err.error += ref.error;
        r = ossai_clip_copy_tracks(&packed, raw, allocator, error);
    }
    ossa_free(allocator, distance);
    ossai_in_place_reference_free(&ref, allocator);
    ossa_free(allocator, raw);
    if (r) {
        ossa_free(allocator, packed);
        return r;
    }
    ossai_clip_set_error(packed, err.error, err.joint, err.time_s);
    report->compressed = true;
    report->error = (float)err.error;
    report->error_joint = err.joint;
    report->error_time_s = (float)err.time_s;
    report->within_tolerance = err.error <= units.tolerance;
    report->rest_tracks = cr.rest_tracks;
    report->constant_tracks = cr.constant_tracks;
    report->animated_tracks = cr.animated_tracks;
    report->segment_frames = cr.segment_frames;
    report->mean_bits = (float)cr.mean_width;
    report->bytes = ossa_clip_bytes(packed);
    *out = packed;
    return OSSA_OK;
}

static ossa_result build(const ossa_raw_clip *raw, const ossa_skeleton *skeleton,
                         const ossa_clip_build_options *options, int in_place, ossa_clip **out,
                         ossa_clip_build_report *report, ossa_error *error,
                         const ossa_raw_joint_track **tracks)
{
    const int joint_count = ossa_skeleton_joint_count(skeleton);
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

    return rate_and_compress(tracks, skeleton, clip_name, duration, options, in_place, out, report,
                             error);
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
    report->error_joint = -1;
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
    if (options->compression_level < 0 || options->compression_level > 1)
        return ossa_error_set(error, OSSA_ERR_BAD_ARGUMENT, -1, -1,
                              "clip '%s': compression_level %d is not 0 or 1",
                              raw->name ? raw->name : "", options->compression_level);
    if (!isfinite(options->tolerance_m) || options->tolerance_m < 0.0f ||
        !isfinite(options->distance_m) || options->distance_m < 0.0f)
        return ossa_error_set(error, OSSA_ERR_BAD_VALUE, -1, -1,
                              "clip '%s': tolerance %g m or distance %g m is not finite and >= 0",
                              raw->name ? raw->name : "", (double)options->tolerance_m,
                              (double)options->distance_m);
    for (int j = 0; options->joint_distances && j < options->joint_distance_count; ++j)
        if (!isfinite(options->joint_distances[j]) || options->joint_distances[j] < 0.0f)
            return ossa_error_set(error, OSSA_ERR_BAD_VALUE, j, -1,
                                  "clip '%s': joint_distances[%d] = %g is not finite and >= 0",
                                  raw->name ? raw->name : "", j,
                                  (double)options->joint_distances[j]);
    const int joint_count = ossa_skeleton_joint_count(skeleton);
    /* tracks[j]: the raw track of skeleton joint j, or NULL (rest pose). */
    const ossa_raw_joint_track **tracks =
        ossa_alloc(&options->allocator, sizeof *tracks * (size_t)joint_count, 16);
    if (!tracks)
        return ossa_error_set(error, OSSA_ERR_OUT_OF_MEMORY, -1, -1, "clip: out of memory");
    memset(tracks, 0, sizeof *tracks * (size_t)joint_count);
    /* Root motion is extracted from the raw frames (clip_tracks.c rewrites
     * the joint's keys in place); a compressed clip is then compressed from
     * those frames (rate_and_compress), which adds its tracks itself. */
    const int in_place = !options->raw && options->root_motion == OSSA_ROOT_MOTION_EXTRACT;
    ossa_result r = build(raw, skeleton, options, in_place, out, report, error, tracks);
    ossa_free(&options->allocator, (void *)tracks);
    if (r == OSSA_OK && !in_place &&
        (r = ossai_clip_add_tracks(out, skeleton, options, report, error))) {
        ossa_clip_free(*out, &options->allocator);
        *out = NULL;
    }
    return r;
}

void ossa_clip_free(ossa_clip *clip, const ossa_allocator *allocator)
{
    ossa_free(allocator, clip);
}
