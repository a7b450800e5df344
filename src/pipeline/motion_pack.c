/* motion_pack.c - a root motion track packed: each component stored as its
 * residual from the loop's straight line (frame f x loop / last), quantised
 * on a grid through zero in as many bits as its range needs, the steps
 * chosen so that the move it causes stays within a share of the clip's
 * tolerance; the block rewritten around it. */
#include "motion_pack.h"

#include <math.h>
#include <string.h>

#include "blob/format.h"
#include "clip_tracks.h"
#include "ossa/local_to_model_job.h"
#include "ossa/sampling_job.h"

ossa_result ossai_motion_reach(const ossa_clip *raw, const ossa_skeleton *skeleton,
                               const double *distance, const ossa_allocator *allocator,
                               double *reach, ossa_error *error)
{
    const int joints = ossa_skeleton_joint_count(skeleton);
    ossa_transform *local = ossa_alloc(allocator, sizeof *local * (size_t)joints, 16);
    ossa_mat34 *model = ossa_alloc(allocator, sizeof *model * (size_t)joints, 16);
    ossa_result r = OSSA_OK;
    if (!local || !model)
        r = ossa_error_set(error, OSSA_ERR_OUT_OF_MEMORY, -1, -1,
                           "clip '%s': out of memory measuring its reach", ossa_clip_name(raw));
    const uint32_t frames = raw->frame_count;
    const uint32_t samples = frames > 1 ? 2 * (frames - 1) + 1 : 1;
    double far = 0.0;
    for (uint32_t i = 0; r == OSSA_OK && i < samples; ++i) {
        /* frame i / 2, and midway between frames for odd i */
        const float t = samples > 1 ? (float)((double)raw->duration * i / (samples - 1)) : 0.0f;
        ossa_sampling_job s = {0};
        const ossa_clip *clips[1] = {raw};
        s.clips = clips;
        s.clip_count = 1;
        s.time_s = &t;
        s.character_count = 1;
        s.wrap = OSSA_WRAP_CLAMP;
        s.rest_pose = ossa_skeleton_rest_pose(skeleton);
        s.rest_pose_count = joints;
        s.output = local;
        s.output_count = joints;
        ossa_local_to_model_job l = {0};
        l.parents = ossa_skeleton_parents(skeleton);
        l.joint_count = joints;
        l.local = local;
        l.local_count = joints;
        l.character_count = 1;
        l.model = model;
        l.model_count = joints;
        if ((r = ossa_sampling_job_run(&s)) || (r = ossa_local_to_model_job_run(&l))) {
            r = ossa_error_set(error, r, -1, -1, "clip '%s': sampling it for its reach failed",
                               ossa_clip_name(raw));
            break;
        }
        for (int j = 0; j < joints; ++j) {
            const double x = model[j].m[0][3], z = model[j].m[2][3];
            far = fmax(far, sqrt(x * x + z * z) + distance[j]);
        }
    }
    ossa_free(allocator, local);
    ossa_free(allocator, model);
    *reach = far;
    return r;
}

/* Bits to count 0..span. */
static uint32_t bits_for(int64_t span)
{
    uint32_t w = 0;
    while (w < 63 && ((int64_t)1 << w) <= span)
        ++w;
    return w;
}

/* Frame f's component c off the loop's line, in steps (rounded). */
static double steps_off(const ossai_packed_motion *p, const float *m, uint32_t f, int c)
{
    const float r = m[(size_t)f * 4 + (size_t)c] - (float)f * p->slope[c];
    return nearbyint((double)r / (double)p->step[c]);
}

/* The header of the packed track for raw frames m (frame_count x 4), with
 * the residuals' range; false when a component needs too many bits. */
static bool plan(const float *m, uint32_t frames, const float step[3], ossai_packed_motion *p)
{
    memset(p, 0, sizeof *p);
    const uint32_t last = frames - 1;
    uint32_t bits = 0;
    for (int c = 0; c < 3; ++c) {
        p->loop[c] = m[(size_t)last * 4 + (size_t)c];
        p->slope[c] = p->loop[c] / (float)last;
        p->step[c] = step[c];
        int64_t lo = 0, hi = 0;
        for (uint32_t f = 1; f < last; ++f) {
            const double q = steps_off(p, m, f, c);
            if (!(fabs(q) < (double)(1 << 24)))
                return false;
            lo = f == 1 || (int64_t)q < lo ? (int64_t)q : lo;
            hi = f == 1 || (int64_t)q > hi ? (int64_t)q : hi;
        }
        p->qmin[c] = (int32_t)lo;
        p->width[c] = (uint8_t)bits_for(hi - lo);
        if (p->width[c] > OSSAI_MOTION_MAX_WIDTH)
            return false;
        bits += p->width[c];
    }
    p->frame_bits = bits;
    p->bits_bytes = (uint32_t)(((uint64_t)frames * bits + 7) / 8 + 8);
    return bits <= OSSAI_MOTION_MAX_FRAME_BITS;
}

/* Frame f's residuals into the bits (zeroed). */
static void put(const ossai_packed_motion *p, const float *m, uint32_t f, unsigned char *bits)
{
    uint64_t at = (uint64_t)f * p->frame_bits;
    for (int c = 0; c < 3; ++c) {
        const uint64_t u = (uint64_t)((int64_t)steps_off(p, m, f, c) - p->qmin[c]);
        for (uint32_t b = 0; b < p->width[c]; ++b, ++at)
            if ((u >> b) & 1u)
                bits[at >> 3] |= (unsigned char)(1u << (at & 7u));
    }
}

ossa_result ossai_clip_pack_motion(ossa_clip **clip, double tolerance, double reach,
                                   const ossa_allocator *allocator, double *moved,
                                   ossa_error *error)
{
    const ossa_clip *c = *clip;
    *moved = 0.0;
    const ossai_clip_tracks *t = ossai_clip_tracks_of(c);
    if (!t || !(t->flags & OSSAI_TRACKS_HAS_MOTION) || (t->flags & OSSAI_TRACKS_PACKED_MOTION) ||
        c->frame_count < 2 || !(tolerance > 0.0))
        return OSSA_OK;
    const uint32_t frames = t->frame_count;
    const float *m = ossai_tracks_motion(t);
    /* translation: each of x, z off by at most half a step, so the point by
     * step / sqrt 2 (half the tolerance); a turn off by half a step moves a
     * point at the reach by reach step / 2 (the other half) */
    const float step[3] = {(float)(tolerance / sqrt(2.0)), (float)(tolerance / sqrt(2.0)),
                           (float)(tolerance / fmax(reach, tolerance))};
    ossai_packed_motion p;
    if (!(step[0] > 0.0f && step[2] > 0.0f) || !plan(m, frames, step, &p))
        return OSSA_OK; /* stays raw */
    /* the block: header, packed motion and its bits, then the float tracks
     * as they were */
    const ossai_tracks_layout l = ossai_tracks_layout_make(sizeof p + p.bits_bytes, t->track_count,
                                                           frames, t->strings_bytes);
    const uint32_t motion_at = l.motion_at, values_at = l.values_at;
    const uint64_t values_bytes = (uint64_t)t->track_count * frames * sizeof(float);
    const uint64_t names_at = l.names_at, strings_at = l.strings_at, block = l.block;
    const uint64_t total = (uint64_t)c->tracks_offset + block;
    if (total > UINT32_MAX)
        return ossa_error_set(error, OSSA_ERR_CLIP_TOO_LARGE, -1, -1,
                              "clip '%s': its tracks take it past 4 GiB", ossa_clip_name(c));
    ossa_clip *out = ossa_alloc(allocator, (size_t)total, 64);
    if (!out)
        return ossa_error_set(error, OSSA_ERR_OUT_OF_MEMORY, -1, -1,
                              "clip '%s': out of memory packing its root motion",
                              ossa_clip_name(c));
    memcpy(out, c, c->tracks_offset);
    memset((char *)out + c->tracks_offset, 0, (size_t)block);
    out->bytes = (uint32_t)total;
    ossai_clip_tracks *nt = (ossai_clip_tracks *)(void *)((char *)out + out->tracks_offset);
    *nt = *t;
    nt->bytes = (uint32_t)block;
    nt->flags |= OSSAI_TRACKS_PACKED_MOTION;
    nt->motion_offset = motion_at;
    memcpy((char *)nt + motion_at, &p, sizeof p);
    unsigned char *bits = (unsigned char *)nt + motion_at + sizeof p;
    for (uint32_t f = 1; f + 1 < frames; ++f)
        put(&p, m, f, bits);
    if (t->track_count) {
        nt->values_offset = values_at;
        nt->names_offset = (uint32_t)names_at;
        nt->strings_offset = (uint32_t)strings_at;
        memcpy((char *)nt + values_at, (const char *)t + t->values_offset, (size_t)values_bytes);
        memcpy((char *)nt + names_at, (const char *)t + t->names_offset, 4u * t->track_count);
        memcpy((char *)nt + strings_at, (const char *)t + t->strings_offset, t->strings_bytes);
    }
    /* the move it causes, as the runtime decodes it */
    double worst = 0.0;
    for (uint32_t f = 0; f < frames; ++f) {
        float v[3];
        ossai_tracks_motion_frame(nt, f, v);
        const double dx = (double)v[0] - m[(size_t)f * 4], dz = (double)v[1] - m[(size_t)f * 4 + 1];
        const double dyaw = (double)v[2] - m[(size_t)f * 4 + 2];
        worst = fmax(worst, sqrt(dx * dx + dz * dz) + fabs(dyaw) * reach);
    }
    ossa_free(allocator, *clip);
    *clip = out;
    *moved = worst;
    return OSSA_OK;
}
