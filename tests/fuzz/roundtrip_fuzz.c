/* roundtrip_fuzz.c - fuzz target for the whole offline path: bytes -> raw
 * skeleton and clip -> build -> write -> open. Anything the builders accept
 * must write to a blob that opens, whose sections are the built bytes and
 * whose clip samples exactly as the built one; anything they refuse must be
 * refused with a message and nothing allocated. A violation aborts.
 *
 * Input bytes, read in order (missing bytes read as 0):
 *   flags: bit 0 breadth-first, bits 1-2 rate (auto, 10, 24, 30 Hz)
 *   joints: n = 1 + byte % 16, then per joint: parent (byte % (n + 1), n
 *     meaning root), name (j<byte % (n + 2)>: duplicates possible), rest
 *     translation, rotation, scale (values below)
 *   duration (byte / 16 s, 0 = last key), tracks: byte % 8, then per track:
 *     joint name (as above, may match nothing) and three curves
 *     (translation, rotation, scale), each: header byte (keys = (h & 7) % 7,
 *     interpolation = (h >> 3) % 4, 3 being invalid), per key a time step
 *     (byte / 64 s after the previous key), the value, and for CUBICSPLINE
 *     the in and out tangents.
 *   A value is a signed byte / 32, except that -128 is followed by four
 *   bytes of raw float (NaN, infinity, huge: the edges the builders see). */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ossa/ossa.h"
#include "ossa/pipeline.h"

/* OSSA_TEST_NEEDS_PIPELINE */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_JOINTS 16
#define MAX_TRACKS 8
#define MAX_KEYS 6
/* Bounds each input's work: longer clips are refused as too large. */
#define MAX_FRAMES 512

typedef struct reader {
    const uint8_t *data;
    size_t size, at;
} reader;

static uint8_t next(reader *r)
{
    return r->at < r->size ? r->data[r->at++] : 0;
}

static float value(reader *r)
{
    const int8_t b = (int8_t)next(r);
    if (b != -128)
        return (float)b / 32.0f;
    uint32_t bits = (uint32_t)next(r) | (uint32_t)next(r) << 8 | (uint32_t)next(r) << 16 |
                    (uint32_t)next(r) << 24;
    float f;
    memcpy(&f, &bits, 4);
    return f;
}

static ossa_float3 value3(reader *r)
{
    ossa_float3 v;
    v.x = value(r);
    v.y = value(r);
    v.z = value(r);
    return v;
}

static ossa_quat value4(reader *r)
{
    ossa_quat q;
    q.x = value(r);
    q.y = value(r);
    q.z = value(r);
    q.w = value(r);
    return q;
}

typedef struct curve_keys {
    float times[MAX_KEYS];
    ossa_float3 v3[3][MAX_KEYS]; /* values, in, out */
    ossa_quat v4[3][MAX_KEYS];
} curve_keys;

typedef struct raw_input {
    char joint_names[MAX_JOINTS][8];
    ossa_raw_joint joints[MAX_JOINTS];
    char track_names[MAX_TRACKS][8];
    ossa_raw_joint_track tracks[MAX_TRACKS];
    curve_keys keys[MAX_TRACKS][3];
} raw_input;

static void read_curve(reader *r, curve_keys *k, bool rotation, const float **times,
                       int *count, ossa_interpolation *interp)
{
    const uint8_t h = next(r);
    *count = (h & 7) % (MAX_KEYS + 1);
    *interp = (ossa_interpolation)((h >> 3) % 4);
    *times = k->times;
    float t = 0.0f;
    for (int i = 0; i < *count; ++i) {
        const uint8_t step = next(r);
        if (step == 0x80) {
            t = value(r); /* any time at all, sorted or not */
        } else {
            t += (float)step / 64.0f;
        }
        k->times[i] = t;
        for (int v = 0; v < (*interp == OSSA_INTERP_CUBICSPLINE ? 3 : 1); ++v) {
            if (rotation)
                k->v4[v][i] = value4(r);
            else
                k->v3[v][i] = value3(r);
        }
    }
}

static int name_index(reader *r, int n)
{
    return next(r) % (n + 2);
}

/* Aborts with a message: a property of the round trip does not hold. */
static void fail(const char *what, const ossa_error *e)
{
    fprintf(stderr, "roundtrip_fuzz: %s%s%s\n", what, e ? ": " : "", e ? e->message : "");
    abort();
}

static void check_refusal(ossa_result r, const void *out, const ossa_error *e)
{
    if (r == OSSA_OK)
        return;
    if (out != NULL)
        fail("a refused build returned an object", e);
    if (e->code != r || e->message[0] == '\0')
        fail("a refusal without its code or message", e);
}

/* The lanes sample the clip read back on every path and width, to finite
 * numbers, and a compressed clip to the reference's bits. */
static void compare_lanes(const ossa_clip *clip, int joints, const ossa_transform *rest)
{
    const float d = ossa_clip_duration(clip);
    enum { CHARACTERS = 19 };
    float times[CHARACTERS];
    for (int i = 0; i < CHARACTERS; ++i)
        times[i] = d * (float)i / 7.0f - 0.3f * d;
    ossa_transform want[CHARACTERS * MAX_JOINTS];
    ossa_sampling_job ref;
    memset(&ref, 0, sizeof ref);
    ref.clips = &clip;
    ref.clip_count = 1;
    ref.time_s = times;
    ref.character_count = CHARACTERS;
    ref.rest_pose = rest;
    ref.rest_pose_count = joints;
    ref.output = want;
    ref.output_count = CHARACTERS * joints;
    if (ossa_sampling_job_run(&ref) != OSSA_OK)
        fail("reference sampling for the lanes failed", NULL);
    static float pose[CHARACTERS + 16][MAX_JOINTS * OSSA_LANE_POSE_COMPONENTS];
    for (int p = OSSA_SIMD_PORTABLE; p < OSSA_SIMD_PATH_COUNT; ++p) {
        if (!ossa_simd_path_supported((ossa_simd_path)p))
            continue;
        for (int width = 4; width <= 16; width *= 2) {
            ossa_lane_sampling_job job;
            memset(&job, 0, sizeof job);
            job.clips = &clip;
            job.clip_count = 1;
            job.time_s = times;
            job.character_count = CHARACTERS;
            job.rest_pose = rest;
            job.rest_pose_count = joints;
            job.width = width;
            job.path = (ossa_simd_path)p;
            job.output = &pose[0][0];
            job.output_count = ossa_lane_pose_floats(joints, CHARACTERS, width);
            if (ossa_lane_sampling_job_run(&job) != OSSA_OK)
                fail("lane sampling failed", NULL);
            const float *out = &pose[0][0];
            for (int c = 0; c < CHARACTERS; ++c)
                for (int j = 0; j < joints; ++j) {
                    const ossa_transform *x = &want[c * joints + j];
                    const float *v = &x->translation.x;
                    for (int k = 0; k < OSSA_LANE_POSE_COMPONENTS; ++k) {
                        const float got = out[(((size_t)(c / width) * (size_t)joints + (size_t)j) *
                                                   OSSA_LANE_POSE_COMPONENTS +
                                               (size_t)k) *
                                                  (size_t)width +
                                              (size_t)(c % width)];
                        if (!isfinite(got))
                            fail("lane sampling made a number that is not finite", NULL);
                        if (ossa_clip_is_compressed(clip) && memcmp(&got, &v[k], sizeof got) != 0)
                            fail("lane sampling of a compressed clip differs from the reference",
                                 NULL);
                    }
                }
        }
    }
}

/* The built clip and the one read back sample identically, bit for bit. */
static void compare_sampling(const ossa_clip *built, const ossa_clip *loaded, int joints,
                             const ossa_transform *rest)
{
    const float d = ossa_clip_duration(built);
    const float times[6] = {0.0f, d / 3.0f, d * 0.5f, d, -0.7f * d - 0.1f, 2.5f * d + 0.01f};
    ossa_transform a[6 * MAX_JOINTS], b[6 * MAX_JOINTS];
    for (int w = 0; w < OSSA_WRAP_COUNT; ++w)
        for (int interp = 0; interp < OSSA_ROTATION_COUNT; ++interp) {
            ossa_sampling_job job;
            memset(&job, 0, sizeof job);
            job.clips = &built;
            job.clip_count = 1;
            job.time_s = times;
            job.character_count = 6;
            job.rest_pose = rest;
            job.rest_pose_count = joints;
            job.wrap = (ossa_wrap)w;
            job.rotation_interp = (ossa_rotation_interp)interp;
            job.output = a;
            job.output_count = 6 * joints;
            if (ossa_sampling_job_run(&job) != OSSA_OK)
                fail("sampling the built clip failed", NULL);
            job.clips = &loaded;
            job.output = b;
            if (ossa_sampling_job_run(&job) != OSSA_OK)
                fail("sampling the loaded clip failed", NULL);
            if (memcmp(a, b, sizeof a[0] * 6 * (size_t)joints) != 0)
                fail("the loaded clip samples differently", NULL);
            for (int i = 0; i < 6 * joints; ++i) {
                const ossa_transform *t = &a[i];
                if (!isfinite(t->translation.x) || !isfinite(t->rotation.w) || !isfinite(t->scale.z))
                    fail("a sampled pose is not finite", NULL);
            }
        }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    reader r = {data, size, 0};
    raw_input *in = calloc(1, sizeof *in);
    if (!in)
        return 0;
    const uint8_t flags = next(&r);
    const int n = 1 + next(&r) % MAX_JOINTS;
    for (int j = 0; j < n; ++j) {
        const int parent = next(&r) % (n + 1);
        snprintf(in->joint_names[j], sizeof in->joint_names[j], "j%d", name_index(&r, n));
        in->joints[j].name = in->joint_names[j];
        in->joints[j].parent = parent == n ? -1 : parent;
        in->joints[j].rest.translation = value3(&r);
        in->joints[j].rest.rotation = value4(&r);
        in->joints[j].rest.scale = value3(&r);
    }
    const float duration = (float)next(&r) / 16.0f;
    const int track_count = next(&r) % (MAX_TRACKS + 1);
    for (int t = 0; t < track_count; ++t) {
        ossa_raw_joint_track *tr = &in->tracks[t];
        snprintf(in->track_names[t], sizeof in->track_names[t], "j%d", name_index(&r, n));
        tr->joint_name = in->track_names[t];
        curve_keys *k = in->keys[t];
        read_curve(&r, &k[0], false, &tr->translation.times_s, &tr->translation.key_count,
                   &tr->translation.interpolation);
        tr->translation.values = k[0].v3[0];
        tr->translation.in_tangents = k[0].v3[1];
        tr->translation.out_tangents = k[0].v3[2];
        read_curve(&r, &k[1], true, &tr->rotation.times_s, &tr->rotation.key_count,
                   &tr->rotation.interpolation);
        tr->rotation.values = k[1].v4[0];
        tr->rotation.in_tangents = k[1].v4[1];
        tr->rotation.out_tangents = k[1].v4[2];
        read_curve(&r, &k[2], false, &tr->scale.times_s, &tr->scale.key_count,
                   &tr->scale.interpolation);
        tr->scale.values = k[2].v3[0];
        tr->scale.in_tangents = k[2].v3[1];
        tr->scale.out_tangents = k[2].v3[2];
    }

    ossa_error e;
    ossa_skeleton_build_options sk_options;
    memset(&sk_options, 0, sizeof sk_options);
    sk_options.breadth_first = flags & 1;
    ossa_raw_skeleton raw_skeleton = {in->joints, n};
    ossa_skeleton *skeleton = NULL;
    ossa_result res = ossa_skeleton_build(&raw_skeleton, &sk_options, &skeleton, NULL, &e);
    check_refusal(res, skeleton, &e);
    if (res != OSSA_OK) {
        free(in);
        return 0;
    }
    static const float rates[4] = {0.0f, 10.0f, 24.0f, 30.0f};
    ossa_clip_build_options options;
    memset(&options, 0, sizeof options);
    options.rate = rates[(flags >> 1) & 3];
    options.raw = (flags >> 3) & 1;
    options.max_frames = MAX_FRAMES;
    options.root_motion = (flags >> 3) & 1 ? OSSA_ROOT_MOTION_EXTRACT : OSSA_ROOT_MOTION_KEEP;
    ossa_raw_clip raw_clip = {"fuzz", duration, in->tracks, track_count};
    ossa_clip *clip = NULL;
    ossa_clip_build_report report;
    res = ossa_clip_build(&raw_clip, skeleton, &options, &clip, &report, &e);
    check_refusal(res, clip, &e);
    if (res == OSSA_OK) {
        /* What the builder made validates, and its report is meaningful. */
        if (ossa_clip_validate(clip, ossa_clip_bytes(clip), NULL, &e) != OSSA_OK)
            fail("the built clip does not validate", &e);
        if (!(report.error >= 0.0f) || report.error != ossa_clip_error(clip, NULL, NULL))
            fail("the build report's error is not a number >= 0 recorded in the clip", NULL);
        const ossa_clip *clips[1] = {clip};
        ossa_blob_contents contents = {skeleton, clips, 1, NULL, 0};
        void *blob_data = NULL;
        size_t blob_bytes = 0;
        if (ossa_blob_write_memory(&contents, NULL, &blob_data, &blob_bytes, &e) != OSSA_OK)
            fail("writing a built skeleton and clip failed", &e);
        ossa_blob blob;
        if (ossa_blob_open(&blob, blob_data, blob_bytes, OSSA_BLOB_DEFAULT, &e) != OSSA_OK)
            fail("a written blob does not open", &e);
        const ossa_clip *loaded = ossa_blob_clip(&blob, 0);
        if (!blob.skeleton || !loaded || blob.clip_count != 1 ||
            memcmp(blob.skeleton, skeleton, ossa_skeleton_bytes(skeleton)) != 0 ||
            memcmp(loaded, clip, ossa_clip_bytes(clip)) != 0)
            fail("the blob's sections differ from the built ones", NULL);
        compare_sampling(clip, loaded, n, ossa_skeleton_rest_pose(blob.skeleton));
        compare_lanes(loaded, n, ossa_skeleton_rest_pose(blob.skeleton));
        ossa_free(NULL, blob_data);
    }
    ossa_clip_free(clip, NULL);
    ossa_skeleton_free(skeleton, NULL);
    free(in);
    return 0;
}
