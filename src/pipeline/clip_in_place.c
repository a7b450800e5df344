/* clip_in_place.c - the reference a clip with root motion is compressed
 * against: the source with the motion the runtime plays taken out of the
 * moving joint, keyed at every time the clip metric reads (the source
 * curves still carry the motion the clip no longer plays). */
#include "clip_in_place.h"

#include <math.h>
#include <string.h>

#include "blob/format.h"
#include "clip_metric.h"
#include "clip_tracks.h"
#include "ossa/root_motion.h"
#include "raw_curve.h"

typedef struct in_place {
    const ossa_clip *clip;
    const ossa_raw_joint_track *const *source;
    const ossa_transform *rest;
    const uint16_t *parents;
    int joints, joint;
    ossai_dxf *local, *model; /* scratch, joints each */
} in_place;

/* M(t)^-1 as the runtime plays M (ossa/root_motion.h), in double. */
static ossai_dxf motion_inverse(const ossa_clip *clip, double t)
{
    const ossa_root_motion m = ossa_clip_root_motion_at(clip, (float)t);
    const double c = cos((double)m.yaw_rad), s = sin((double)m.yaw_rad);
    const double x = m.x, z = m.z;
    const ossai_dxf r = {{{c, 0, -s, -(c * x - s * z)}, {0, 1, 0, 0}, {s, 0, c, -(s * x + c * z)}}};
    return r;
}

/* The source pose at t into p->local and p->model, and the moving joint's
 * local translation and rotation in place (exact, double). */
static void pose_at(const in_place *p, double t, double tr[3], double q[4])
{
    ossai_source_local(p->source, p->rest, p->joints, t, p->local);
    ossai_dxf_to_model(p->parents, p->joints, p->local, p->model);
    const int j = p->joint;
    const ossa_raw_joint_track *tk = p->source[j];
    double s[3] = {p->rest[j].scale.x, p->rest[j].scale.y, p->rest[j].scale.z};
    if (tk && tk->scale.key_count > 0) { /* as ossai_source_local reads it */
        const ossai_dvec3 v = tk->scale.interpolation == OSSA_INTERP_STEP
                                  ? ossai_curve3_bake(&tk->scale, t)
                                  : ossai_curve3_eval(&tk->scale, t);
        s[0] = v.x, s[1] = v.y, s[2] = v.z;
    }
    const ossa_root_motion m = ossa_clip_root_motion_at(p->clip, (float)t);
    static const ossai_dxf identity = {{{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}}};
    const ossai_dxf *parent =
        p->parents[j] == OSSA_NO_PARENT ? &identity : &p->model[p->parents[j]];
    ossai_in_place_local(parent->m, p->model[j].m, m.x, m.z, m.yaw_rad, s, tr, q);
}

/* q or -q, whichever is nearer prev (so that keys interpolate the short way). */
static ossa_quat near(const double q[4], ossa_quat prev, int has_prev)
{
    const double d = q[0] * prev.x + q[1] * prev.y + q[2] * prev.z + q[3] * prev.w;
    const double k = has_prev && d < 0.0 ? -1.0 : 1.0;
    return (ossa_quat){(float)(k * q[0]), (float)(k * q[1]), (float)(k * q[2]), (float)(k * q[3])};
}

/* The moving joint's rows of every frame: the in-place keys at the frames'
 * times (computed as the metric's, so equal to its keys there). */
static void rewrite_frames(ossa_clip *clip, const in_place *p, double duration)
{
    const uint32_t frames = clip->frame_count, st = clip->joint_stride, j = (uint32_t)p->joint;
    const double dt = frames > 1 ? duration / (frames - 1) : 0.0;
    float *keys = (float *)(void *)((char *)clip + clip->frames_offset);
    const size_t frame_floats = ossai_clip_frame_floats(clip);
    ossa_quat prev = {0.0f, 0.0f, 0.0f, 1.0f};
    for (uint32_t f = 0; f < frames; ++f) {
        const double t = (float)(f + 1 == frames ? duration : f * dt);
        double tr[3], q[4];
        pose_at(p, t, tr, q);
        const ossa_quat r = near(q, prev, f > 0);
        float *row = keys + (size_t)f * frame_floats;
        row[OSSAI_TX * st + j] = (float)tr[0];
        row[OSSAI_TY * st + j] = (float)tr[1];
        row[OSSAI_TZ * st + j] = (float)tr[2];
        row[OSSAI_QX * st + j] = r.x;
        row[OSSAI_QY * st + j] = r.y;
        row[OSSAI_QZ * st + j] = r.z;
        row[OSSAI_QW * st + j] = r.w;
        prev = r;
    }
}

ossa_result ossai_in_place_reference_make(ossa_clip *clip, const ossa_skeleton *skeleton,
                                          const ossa_raw_joint_track *const *source,
                                          double duration, const double *distance,
                                          const ossa_allocator *allocator,
                                          ossai_in_place_reference *out, ossa_error *error)
{
    memset(out, 0, sizeof *out);
    const int n = ossa_skeleton_joint_count(skeleton);
    const int joint = ossa_clip_root_motion_joint(clip);
    double *times = NULL;
    const int count = joint >= 0 ? ossai_metric_times(source, n, duration,
                                                      (int)clip->frame_count, allocator, &times)
                                 : 0;
    const size_t by_joint_bytes = ((size_t)n * sizeof *out->by_joint + 15) / 16 * 16;
    const size_t keys = count > 0 ? (size_t)count : 0;
    const size_t total = by_joint_bytes + sizeof(ossa_raw_joint_track) +
                         keys * (sizeof(float) + sizeof(ossa_float3) + sizeof(ossa_quat));
    char *m = count >= 0 ? ossa_alloc(allocator, total, 16) : NULL;
    /* scratch: source local and model, reference local and model */
    ossai_dxf *scratch = ossa_alloc(allocator, sizeof *scratch * 4 * (size_t)n, 16);
    uint8_t *below = ossa_alloc(allocator, (size_t)n, 16); /* the joint or a descendant */
    if (!m || !scratch || !below) {
        ossa_free(allocator, times);
        ossa_free(allocator, m);
        ossa_free(allocator, scratch);
        ossa_free(allocator, below);
        return ossa_error_set(error, OSSA_ERR_OUT_OF_MEMORY, -1, -1,
                              "clip '%s': out of memory for its in-place reference",
                              ossa_clip_name(clip));
    }
    out->memory = m;
    out->by_joint = (const ossa_raw_joint_track **)(void *)m;
    for (int j = 0; j < n; ++j)
        out->by_joint[j] = source[j];
    if (joint >= 0) {
        ossa_raw_joint_track *track = (ossa_raw_joint_track *)(void *)(m + by_joint_bytes);
        float *key_times = (float *)(void *)(track + 1);
        ossa_float3 *tv = (ossa_float3 *)(void *)(key_times + keys);
        ossa_quat *rv = (ossa_quat *)(void *)(tv + keys);
        const uint16_t *parents = ossa_skeleton_parents(skeleton);
        const in_place p = {clip, source, ossa_skeleton_rest_pose(skeleton), parents, n, joint,
                            scratch, scratch + n};
        for (int i = 0; i < count; ++i) {
            double tr[3], q[4];
            key_times[i] = (float)times[i]; /* a float already */
            pose_at(&p, times[i], tr, q);
            tv[i] = (ossa_float3){(float)tr[0], (float)tr[1], (float)tr[2]};
            rv[i] = near(q, i > 0 ? rv[i - 1] : (ossa_quat){0.0f, 0.0f, 0.0f, 1.0f}, i > 0);
        }
        memset(track, 0, sizeof *track);
        track->joint_name = ossa_skeleton_joint_name(skeleton, joint);
        track->translation = (ossa_raw_track3){key_times, tv, NULL, NULL, count,
                                               OSSA_INTERP_LINEAR};
        track->rotation = (ossa_raw_track_quat){key_times, rv, NULL, NULL, count,
                                                OSSA_INTERP_LINEAR};
        if (source[joint])
            track->scale = source[joint]->scale;
        out->by_joint[joint] = track;
        /* the keys' rounding, measured: the reference's pose against the
         * exact one, M^-1 on the joint and below, at every time */
        for (int j = 0; j < n; ++j) {
            int a = j;
            while (a != (int)OSSA_NO_PARENT && a != joint)
                a = parents[a];
            below[j] = a == joint;
        }
        ossai_dxf *ref_local = scratch + 2 * n, *ref_model = scratch + 3 * n;
        for (int i = 0; i < count; ++i) {
            double tr[3], q[4];
            pose_at(&p, times[i], tr, q);
            const ossai_dxf undo = motion_inverse(clip, times[i]);
            ossai_source_local(out->by_joint, p.rest, n, times[i], ref_local);
            ossai_dxf_to_model(parents, n, ref_local, ref_model);
            for (int j = 0; j < n; ++j) {
                const ossai_dxf exact = below[j] ? ossai_dxf_mul(&undo, &p.model[j]) : p.model[j];
                const double e = ossai_point_error(&exact, &ref_model[j], distance[j]);
                out->error = e > out->error || !(e == e) ? (e == e ? e : INFINITY) : out->error;
            }
        }
        rewrite_frames(clip, &p, duration);
    }
    ossa_free(allocator, times);
    ossa_free(allocator, scratch);
    ossa_free(allocator, below);
    return OSSA_OK;
}

void ossai_in_place_reference_free(ossai_in_place_reference *ref, const ossa_allocator *allocator)
{
    ossa_free(allocator, ref->memory);
    memset(ref, 0, sizeof *ref);
}
