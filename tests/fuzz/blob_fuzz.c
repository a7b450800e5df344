/* blob_fuzz.c - fuzz target for the blob loader: any bytes either fail to
 * open with an error, or open and are then safe to use in full (every joint
 * name read, every clip sampled, its tracks counted and its root motion
 * accumulated, the hierarchy walked, every mesh skinned). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ossa/ossa.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The lane path too, on every path and width this machine runs. */
static void sample_lanes(const ossa_clip *clip, const float times[5], const ossa_transform *rest,
                         int joints)
{
    for (int p = OSSA_SIMD_PORTABLE; p < OSSA_SIMD_PATH_COUNT; ++p) {
        if (!ossa_simd_path_supported((ossa_simd_path)p))
            continue;
        /* width 4 twice: 5 characters make two batches there, and the
         * second run has the job prefetch the second batch's clip lines
         * while it samples the first (prefetch_ahead) */
        for (int run = 0; run < 4; ++run) {
            const int width = run == 0 ? 4 : 4 << (run - 1);
            const int floats = ossa_lane_pose_floats(joints, 5, width);
            float *out = floats ? malloc(sizeof(float) * (size_t)floats) : NULL;
            if (!out)
                continue;
            ossa_lane_sampling_job job;
            memset(&job, 0, sizeof job);
            job.clips = &clip;
            job.clip_count = 1;
            job.time_s = times;
            job.character_count = 5;
            job.rest_pose = rest;
            job.rest_pose_count = rest ? joints : 0;
            job.width = width;
            job.path = (ossa_simd_path)p;
            job.output = out;
            job.output_count = floats;
            job.prefetch_ahead = run == 1;
            (void)ossa_lane_sampling_job_prefetch(&job);
            (void)ossa_lane_sampling_job_run(&job);
            free(out);
        }
    }
}

/* The clip's track counts: whatever bytes opened, they add up (a violation
 * aborts). */
static void count_tracks(const ossa_clip *clip)
{
    ossa_clip_tracks t;
    if (!ossa_clip_get_tracks(clip, &t))
        abort();
    const int n = ossa_clip_joint_count(clip);
    int values = t.full_rotations;
    for (int k = 0; k < OSSA_TRACK_KINDS; ++k) {
        if (t.animated[k] < 0 || t.constant[k] < 0 || t.rest[k] < 0 ||
            t.animated[k] + t.constant[k] + t.rest[k] != n || t.stepped[k] < 0 ||
            t.stepped[k] > t.animated[k])
            abort();
        values += 3 * t.animated[k];
    }
    if (t.full_rotations < 0 || t.full_rotations > t.animated[OSSA_TRACK_ROTATION] ||
        (ossa_clip_is_compressed(clip) ? t.values != values : t.values != 10 * n) ||
        !(t.bits_per_frame >= 0.0 && t.bits_per_frame <= 32.0 * t.values))
        abort();
}

/* The clip's root motion between pairs of playheads, reference and lanes. */
static void use_tracks(const ossa_clip *clip, const float *times, int count)
{
    ossa_root_motion out[8];
    ossa_root_motion_job job;
    memset(&job, 0, sizeof job);
    job.clips = &clip;
    job.clip_count = 1;
    job.from_s = times;
    job.to_s = times + 1;
    job.character_count = count - 1;
    job.output = out;
    job.output_count = 8;
    (void)ossa_root_motion_job_run(&job);
    ossa_lane_root_motion_job lanes;
    memset(&lanes, 0, sizeof lanes);
    lanes.clips = &clip;
    lanes.clip_count = 1;
    lanes.from_s = times + 1;
    lanes.to_s = times;
    lanes.character_count = count - 1;
    lanes.output = out;
    lanes.output_count = 8;
    (void)ossa_lane_root_motion_job_run(&lanes);
}

static void use(const ossa_blob *blob)
{
    const ossa_skeleton *s = blob->skeleton;
    int joints = s ? ossa_skeleton_joint_count(s) : 0;
    size_t total = 0;
    for (int j = 0; j < joints; ++j)
        total += strlen(ossa_skeleton_joint_name(s, j));
    (void)total;
    for (int c = 0; c < blob->clip_count; ++c) {
        const ossa_clip *clip = ossa_blob_clip(blob, c);
        int n = ossa_clip_joint_count(clip);
        float d = ossa_clip_duration(clip);
        const float times[] = {-1.0f, 0.0f, 0.37f * d, d, 2.5f * d + 0.1f};
        ossa_transform *out = malloc(sizeof(ossa_transform) * (size_t)n * 5);
        ossa_sampling_job job;
        memset(&job, 0, sizeof job);
        job.clips = &clip;
        job.clip_count = 1;
        job.time_s = times;
        job.character_count = 5;
        /* a compressed clip takes the rest pose of the skeleton it fits */
        if (s && n == joints) {
            job.rest_pose = ossa_skeleton_rest_pose(s);
            job.rest_pose_count = n;
        }
        job.wrap = (ossa_wrap)(c % OSSA_WRAP_COUNT);
        job.output = out;
        job.output_count = n * 5;
        (void)ossa_sampling_job_run(&job);
        sample_lanes(clip, times, job.rest_pose, n);
        use_tracks(clip, times, 5);
        count_tracks(clip);
        if (s && n == joints) {
            ossa_mat34 *model = malloc(sizeof(ossa_mat34) * (size_t)n * 5);
            ossa_local_to_model_job l2m;
            memset(&l2m, 0, sizeof l2m);
            l2m.parents = ossa_skeleton_parents(s);
            l2m.joint_count = n;
            l2m.local = out;
            l2m.local_count = n * 5;
            l2m.character_count = 5;
            l2m.model = model;
            l2m.model_count = n * 5;
            (void)ossa_local_to_model_job_run(&l2m);
            free(model);
        }
        free(out);
    }
    /* Every mesh that validated is skinned on every path this machine has,
     * with a palette that is not the identity. */
    for (int m = 0; m < blob->mesh_count; ++m) {
        const ossa_mesh *mesh = ossa_blob_mesh(blob, m);
        const int skins = ossa_mesh_skin_joint_count(mesh);
        const size_t bytes = (size_t)ossa_mesh_vertex_count(mesh) * ossa_mesh_skinned_stride(mesh);
        ossa_mat34 *palette = aligned_alloc(64, ((sizeof(ossa_mat34) * (size_t)skins + 63) / 64) * 64);
        void *out = aligned_alloc(64, (bytes + 63) / 64 * 64);
        for (int k = 0; k < skins; ++k) {
            palette[k] = ossa_mat34_identity();
            palette[k].m[0][3] = (float)k;
            palette[k].m[1][1] = 1.0f + 0.5f * (float)(k % 3);
        }
        for (int p = OSSA_SIMD_AUTO; p < OSSA_SIMD_PATH_COUNT; ++p) {
            ossa_skinning_job job;
            memset(&job, 0, sizeof job);
            job.mesh = mesh;
            job.palette = palette;
            job.palette_count = skins;
            job.output = out;
            job.output_bytes = bytes;
            job.path = (ossa_simd_path)p;
            (void)ossa_skinning_job_run(&job);
        }
        free(palette);
        free(out);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* The loader wants aligned memory, as a real load provides. */
    void *copy = aligned_alloc(64, (size + 63) / 64 * 64 + 64);
    if (!copy)
        return 0;
    if (size)
        memcpy(copy, data, size);
    ossa_blob blob;
    ossa_error error;
    /* Structure first without the checksum, so the fuzzer reaches past it. */
    if (ossa_blob_open(&blob, copy, size, OSSA_BLOB_SKIP_CHECKSUM, &error) == OSSA_OK)
        use(&blob);
    (void)ossa_blob_open(&blob, copy, size, OSSA_BLOB_DEFAULT, &error);
    free(copy);
    return 0;
}
