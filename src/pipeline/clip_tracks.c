/* clip_tracks.c - a built clip's tracks block: the root motion extracted
 * (root_motion_extract.c) and the float tracks baked at the clip's frames, laid out
 * behind one header and appended to the clip (docs/blob-format.md). */
#include "clip_tracks.h"

#include <math.h>
#include <string.h>

#include "blob/format.h"
#include "raw_curve.h"

static ossa_result check_float_track(const ossa_raw_float_track *t, int index,
                                     const ossa_clip_build_options *options,
                                     const char *clip_name,
                                     ossa_error *error)
{
    if (!t->name || !t->name[0])
        return ossa_error_set(error, OSSA_ERR_BAD_ARGUMENT, index, -1,
                              "clip '%s': float track %d has no name", clip_name, index);
    for (int k = 0; k < index; ++k)
        if (strcmp(options->float_tracks[k].name, t->name) == 0)
            return ossa_error_set(error, OSSA_ERR_BAD_ARGUMENT, index, -1,
                                  "clip '%s': two float tracks are named '%s'", clip_name,
                                  t->name);
    if (t->key_count < 1 || !t->times_s || !t->values)
        return ossa_error_set(error, OSSA_ERR_CLIP_BAD_KEYS, index, -1,
                              "clip '%s': float track '%s' has no keys", clip_name, t->name);
    if ((unsigned)t->interpolation >= OSSA_INTERP_COUNT)
        return ossa_error_set(error, OSSA_ERR_BAD_ARGUMENT, index, -1,
                              "clip '%s': float track '%s' has unknown interpolation %d",
                              clip_name, t->name, (int)t->interpolation);
    const int cubic = t->interpolation == OSSA_INTERP_CUBICSPLINE;
    if (cubic && (!t->in_tangents || !t->out_tangents))
        return ossa_error_set(error, OSSA_ERR_MISSING_INPUT, index, -1,
                              "clip '%s': float track '%s' is CUBICSPLINE without tangents",
                              clip_name, t->name);
    for (int k = 0; k < t->key_count; ++k) {
        if (!isfinite(t->times_s[k]) || (k > 0 && t->times_s[k] < t->times_s[k - 1]))
            return ossa_error_set(error, OSSA_ERR_CLIP_BAD_KEYS, k, -1,
                                  "clip '%s': float track '%s' key %d is at %g s, not finite or "
                                  "before the key before it",
                                  clip_name, t->name, k, (double)t->times_s[k]);
        if (!isfinite(t->values[k]) ||
            (cubic && (!isfinite(t->in_tangents[k]) || !isfinite(t->out_tangents[k]))))
            return ossa_error_set(error, OSSA_ERR_CLIP_BAD_KEYS, k, -1,
                                  "clip '%s': float track '%s' key %d is not finite", clip_name,
                                  t->name, k);
    }
    return OSSA_OK;
}

/* The value the runtime samples from baked frames at clip time t. */
static double sample_baked(const float *v, const ossa_clip *c, double t)
{
    if (c->frame_count < 2)
        return v[0];
    double u = t * c->rate;
    const double last = c->frame_count - 2;
    double f = floor(u);
    f = f < 0 ? 0 : (f > last ? last : f);
    const double a = fmin(fmax(u - f, 0.0), 1.0);
    return v[(size_t)f] * (1.0 - a) + v[(size_t)f + 1] * a;
}

/* Bakes float track k at every frame time (as the builder places frames)
 * and measures the sampling error at its keys and between frames. */
static ossa_result bake(const ossa_raw_float_track *t, const ossa_clip *c, float *out,
                        double *max_error, const char *clip_name, ossa_error *error)
{
    const double duration = c->duration;
    const double dt = c->frame_count > 1 ? duration / (c->frame_count - 1) : 0.0;
    for (uint32_t f = 0; f < c->frame_count; ++f) {
        const double time = f + 1 == c->frame_count ? duration : f * dt;
        out[f] = (float)ossai_curve1_bake(t, time);
        if (!isfinite(out[f]))
            return ossa_error_set(error, OSSA_ERR_CLIP_BAD_KEYS, (int)f, -1,
                                  "clip '%s': float track '%s' leaves the float range at %g s",
                                  clip_name, t->name, time);
    }
    for (int k = 0; k < t->key_count; ++k)
        if (t->times_s[k] <= duration)
            *max_error = fmax(*max_error, fabs(sample_baked(out, c, t->times_s[k]) -
                                               ossai_curve1_bake(t, t->times_s[k])));
    for (uint32_t f = 0; f + 1 < c->frame_count; ++f) {
        const double mid = (f + 0.5) * dt;
        *max_error = fmax(*max_error, fabs(sample_baked(out, c, mid) - ossai_curve1_eval(t, mid)));
    }
    return OSSA_OK;
}

static uint32_t align(uint64_t v, uint32_t a)
{
    return (uint32_t)((v + a - 1) & ~(uint64_t)(a - 1));
}

ossai_tracks_layout ossai_tracks_layout_make(uint64_t motion_bytes, uint32_t track_count,
                                             uint32_t frame_count, uint64_t strings_bytes)
{
    ossai_tracks_layout l;
    l.motion_at = (uint32_t)sizeof(ossai_clip_tracks);
    l.values_at = align(l.motion_at + motion_bytes, 16);
    l.names_at = l.values_at + (uint64_t)track_count * frame_count * sizeof(float);
    l.strings_at = l.names_at + 4ull * track_count;
    l.block = align(l.strings_at + strings_bytes, 64);
    return l;
}

/* A copy of c with room for a tracks block of `block` bytes after it
 * (64-aligned, zeroed; tracks_offset and bytes set) in *out. */
static ossa_result with_block(const ossa_clip *c, uint64_t block, const ossa_allocator *allocator,
                              ossa_clip **out, ossa_error *error)
{
    const char *clip_name = (const char *)c + c->name_offset;
    const uint64_t at = align(c->bytes, 64), total = at + block;
    if (total > UINT32_MAX)
        return ossa_error_set(error, OSSA_ERR_CLIP_TOO_LARGE, -1, -1,
                              "clip '%s': its tracks take it past 4 GiB", clip_name);
    ossa_clip *copy = ossa_alloc(allocator, (size_t)total, 64);
    if (!copy)
        return ossa_error_set(error, OSSA_ERR_OUT_OF_MEMORY, -1, -1,
                              "clip '%s': out of memory for its tracks", clip_name);
    memcpy(copy, c, c->bytes);
    memset((char *)copy + c->bytes, 0, (size_t)(total - c->bytes));
    copy->tracks_offset = (uint32_t)at;
    copy->bytes = (uint32_t)total;
    *out = copy;
    return OSSA_OK;
}

ossa_result ossai_clip_add_tracks(ossa_clip **clip, const ossa_skeleton *skeleton,
                                  const ossa_clip_build_options *options,
                                  ossa_clip_build_report *report, ossa_error *error)
{
    ossa_clip *c = *clip;
    const ossa_allocator *allocator = &options->allocator;
    const char *clip_name = (const char *)c + c->name_offset;
    const int tracks = options->float_track_count > 0 ? options->float_track_count : 0;
    report->root_motion_joint = -1;
    if ((unsigned)options->root_motion >= OSSA_ROOT_MOTION_MODE_COUNT)
        return ossa_error_set(error, OSSA_ERR_BAD_ARGUMENT, -1, -1,
                              "clip '%s': unknown root motion mode %d", clip_name,
                              (int)options->root_motion);
    if (tracks && !options->float_tracks)
        return ossa_error_set(error, OSSA_ERR_MISSING_INPUT, -1, -1,
                              "clip '%s': %d float tracks but no array", clip_name, tracks);
    if ((uint32_t)tracks > OSSAI_MAX_FLOAT_TRACKS)
        return ossa_error_set(error, OSSA_ERR_BAD_ARGUMENT, -1, -1,
                              "clip '%s': %d float tracks, more than %u", clip_name, tracks,
                              OSSAI_MAX_FLOAT_TRACKS);
    uint64_t strings = 0;
    for (int k = 0; k < tracks; ++k) {
        ossa_result r = check_float_track(&options->float_tracks[k], k, options, clip_name, error);
        if (r != OSSA_OK)
            return r;
        strings += strlen(options->float_tracks[k].name) + 1;
    }
    const uint32_t frames = c->frame_count;
    /* the block: header, motion, values, name offsets, strings */
    const uint64_t motion_bytes = (uint64_t)frames * OSSAI_MOTION_C * sizeof(float);
    float *motion = ossa_alloc(allocator, (size_t)motion_bytes, 16);
    if (!motion)
        return ossa_error_set(error, OSSA_ERR_OUT_OF_MEMORY, -1, -1,
                              "clip '%s': out of memory for its tracks", clip_name);
    ossai_motion_extract extract = {-1, motion, 0.0};
    ossa_result r = OSSA_OK;
    if (options->root_motion == OSSA_ROOT_MOTION_EXTRACT)
        r = ossai_root_motion_extract(c, skeleton, options->root_motion_joint, allocator,
                                      &extract, error);
    const int has_motion = r == OSSA_OK && extract.joint >= 0;
    if (r != OSSA_OK || (!has_motion && tracks == 0)) {
        ossa_free(allocator, motion);
        return r;
    }
    const ossai_tracks_layout l =
        ossai_tracks_layout_make(has_motion ? motion_bytes : 0, (uint32_t)tracks, frames, strings);
    const uint32_t motion_at = l.motion_at, values_at = l.values_at;
    const uint64_t names_at = l.names_at, strings_at = l.strings_at, block = l.block;
    ossa_clip *out = NULL;
    if ((r = with_block(c, block, allocator, &out, error))) {
        ossa_free(allocator, motion);
        return r;
    }
    ossai_clip_tracks *t = (ossai_clip_tracks *)(void *)((char *)out + out->tracks_offset);
    t->tag = OSSAI_TAG_TRACKS;
    t->bytes = (uint32_t)block;
    t->frame_count = frames;
    t->motion_joint = OSSAI_NO_JOINT;
    if (has_motion) {
        t->flags |= OSSAI_TRACKS_HAS_MOTION;
        t->motion_joint = (uint32_t)extract.joint;
        t->motion_offset = motion_at;
        memcpy((char *)t + motion_at, motion, (size_t)motion_bytes);
        const float *last = motion + (size_t)(frames - 1) * OSSAI_MOTION_C;
        report->root_motion_joint = extract.joint;
        report->loop_x = last[0];
        report->loop_z = last[1];
        report->loop_yaw_rad = last[2];
        report->root_travel = (float)extract.travel;
    }
    ossa_free(allocator, motion);
    if (tracks) {
        t->track_count = (uint32_t)tracks;
        t->values_offset = values_at;
        t->names_offset = (uint32_t)names_at;
        t->strings_offset = (uint32_t)strings_at;
        t->strings_bytes = (uint32_t)strings;
        double max_error = 0.0;
        uint32_t name_at = 0;
        for (int k = 0; k < tracks; ++k) {
            const ossa_raw_float_track *ft = &options->float_tracks[k];
            float *values = (float *)(void *)((char *)t + values_at) + (size_t)k * frames;
            if ((r = bake(ft, out, values, &max_error, clip_name, error))) {
                ossa_free(allocator, out);
                return r;
            }
            memcpy((char *)t + names_at + 4u * (uint32_t)k, &name_at, sizeof name_at);
            const size_t len = strlen(ft->name) + 1;
            memcpy((char *)t + strings_at + name_at, ft->name, len);
            name_at += (uint32_t)len;
        }
        report->float_tracks = tracks;
        report->max_float_track_error = (float)max_error;
    }
    ossa_free(allocator, c);
    *clip = out;
    return OSSA_OK;
}

ossa_result ossai_clip_copy_tracks(ossa_clip **clip, const ossa_clip *from,
                                   const ossa_allocator *allocator, ossa_error *error)
{
    ossa_clip *c = *clip;
    if (from->tracks_offset == 0)
        return OSSA_OK;
    const ossai_clip_tracks *block =
        (const ossai_clip_tracks *)(const void *)((const char *)from + from->tracks_offset);
    if (block->frame_count != c->frame_count)
        return ossa_error_set(error, OSSA_ERR_COUNT_MISMATCH, -1, -1,
                              "clip '%s': tracks of %u frames for a clip of %u",
                              (const char *)c + c->name_offset, block->frame_count,
                              c->frame_count);
    ossa_clip *out = NULL;
    ossa_result r = with_block(c, block->bytes, allocator, &out, error);
    if (r != OSSA_OK)
        return r;
    memcpy((char *)out + out->tracks_offset, block, block->bytes);
    ossa_free(allocator, c);
    *clip = out;
    return OSSA_OK;
}
