/* lanes_packed_test.c - the lane sampling job on compressed clips against
 * the reference sampling job, bit for bit: every path this machine runs,
 * every batch width, batches of 1, W - 1, W and more characters on different
 * clips and at unrelated times (segment boundaries, the last frame, the loop
 * wrap among them), STEP tracks, rotations far from the rest (that store
 * their w), and batches mixing raw and compressed clips. */
#include <stdlib.h>
#include <string.h>

#include "blob_layout.h"
#include "lanes_test_support.h"
#include "ossa/ossa.h"
#include "ossa/pipeline.h"
#include "test_support.h"
#include "utest.h"
#include "simd_paths.h"

/* OSSA_TEST_NEEDS_PIPELINE */

#define CLIPS 4
#define MAX_KEYS 5

typedef struct character {
    ossa_skeleton *skeleton;
    ossa_clip *clips[CLIPS]; /* 0, 2, 3 compressed; 1 raw */
    int joints;
} character;

typedef struct joint_keys {
    float times[3][MAX_KEYS];
    ossa_float3 t[MAX_KEYS], s[MAX_KEYS];
    ossa_quat r[MAX_KEYS];
} joint_keys;

static void character_free(character *c)
{
    for (int k = 0; k < CLIPS; ++k)
        ossa_clip_free(c->clips[k], NULL);
    ossa_skeleton_free(c->skeleton, NULL);
}

/* A random skeleton of `joints` joints and four clips: every joint's tracks
 * random (some absent: the rest pose; some one key: constant; STEP when
 * asked), rotations turning smoothly enough to compress. */
static int character_make(ts_rng *rng, int joints, int steps, character *out)
{
    memset(out, 0, sizeof *out);
    out->joints = joints;
    ossa_raw_joint *raw = calloc((size_t)joints, sizeof *raw);
    uint16_t *parents = calloc((size_t)joints, sizeof *parents);
    char(*names)[16] = calloc((size_t)joints, sizeof *names);
    joint_keys *keys = calloc((size_t)joints, sizeof *keys);
    ossa_raw_joint_track *tracks = calloc((size_t)joints, sizeof *tracks);
    int ok = raw && parents && names && keys && tracks;
    if (ok) {
        ts_parents(rng, joints, 1, parents);
        for (int j = 0; j < joints; ++j) {
            snprintf(names[j], sizeof names[j], "j%d", j);
            raw[j].name = names[j];
            raw[j].parent = parents[j] == OSSA_NO_PARENT ? -1 : parents[j];
            raw[j].rest = ts_transform(rng, TS_SCALE_UNIFORM);
        }
        ossa_raw_skeleton rs = {raw, joints};
        ok = ossa_skeleton_build(&rs, NULL, &out->skeleton, NULL, NULL) == OSSA_OK;
    }
    const ossa_transform *rest = ok ? ossa_skeleton_rest_pose(out->skeleton) : NULL;
    for (int k = 0; ok && k < CLIPS; ++k) {
        const float duration = (float)ts_uniform(rng, 0.6, 1.6);
        for (int j = 0; j < joints; ++j) {
            joint_keys *jk = &keys[j];
            ossa_raw_joint_track *t = &tracks[j];
            memset(t, 0, sizeof *t);
            t->joint_name = names[j];
            for (int c = 0; c < 3; ++c) {
                const int what = ts_int(rng, 5); /* 0: none, 1: one key, else 2..5 keys */
                const int n = what == 0 ? 0 : what == 1 ? 1 : 2 + ts_int(rng, MAX_KEYS - 1);
                for (int i = 0; i < n; ++i)
                    jk->times[c][i] = n > 1 ? duration * (float)i / (float)(n - 1) : 0.0f;
                const ossa_interpolation interp =
                    steps && ts_int(rng, 4) == 0 ? OSSA_INTERP_STEP : OSSA_INTERP_LINEAR;
                if (c == 0)
                    t->translation = (ossa_raw_track3){jk->times[0], jk->t, NULL, NULL, n, interp};
                else if (c == 1)
                    t->rotation = (ossa_raw_track_quat){jk->times[1], jk->r, NULL, NULL, n, interp};
                else
                    t->scale = (ossa_raw_track3){jk->times[2], jk->s, NULL, NULL, n, interp};
            }
            for (int i = 0; i < MAX_KEYS; ++i) {
                const ossa_transform x = ts_transform(rng, TS_SCALE_UNIFORM);
                jk->t[i] = (ossa_float3){rest[j].translation.x + 0.3f * x.translation.x,
                                         rest[j].translation.y + 0.3f * x.translation.y,
                                         rest[j].translation.z + 0.3f * x.translation.z};
                const ossa_float3 axis = x.translation;
                /* every fifth joint turns up to 170 degrees from its rest
                 * (a rotation that stores its w) */
                const double turn = j % 5 == 0 ? 2.97 : 1.0;
                jk->r[i] = ossa_quat_normalize(ossa_quat_mul(
                    rest[j].rotation, ossa_quat_from_axis_angle(axis, (float)ts_uniform(rng, -turn, turn))));
                jk->s[i] = (ossa_float3){x.scale.x, x.scale.y, x.scale.z};
            }
        }
        ossa_raw_clip rc = {"random", duration, tracks, joints};
        ossa_clip_build_options o = {0};
        o.rate = 24.0f;
        o.raw = k == 1;
        ok = ossa_clip_build(&rc, out->skeleton, &o, &out->clips[k], NULL, NULL) == OSSA_OK;
    }
    free(raw);
    free(parents);
    free(names);
    free(keys);
    free(tracks);
    return ok;
}

/* A playhead of clip k: often somewhere, sometimes on a frame, on a segment
 * boundary (frames 16 k), on the last frame, past the end or negative (the
 * loop wraps). */
static float pick_time(ts_rng *rng, const ossa_clip *clip)
{
    const float d = ossa_clip_duration(clip), rate = ossa_clip_rate(clip);
    const int frames = ossa_clip_frame_count(clip);
    switch (ts_int(rng, 7)) {
    case 0: return (float)ts_int(rng, frames) / rate;
    case 1: return (float)(16 * ts_int(rng, frames / 16 + 1)) / rate;
    case 2: return d;
    case 3: return nextafterf(d, 0.0f);
    case 4: return (float)ts_uniform(rng, -3.0 * d, 0.0);
    case 5: return (float)ts_uniform(rng, d, 4.0 * d);
    default: return (float)ts_uniform(rng, 0.0, d);
    }
}

/* Lanes against the reference over `characters` characters: clip_index[c]
 * and times[c] chosen here (clip_set: the clips they may play, of clips[0,
 * clip_count); clip 1 is raw). */
static void check_clips(const character *ch, const ossa_clip *const *clips, int clip_count,
                        ts_rng *rng, ossa_simd_path path, int width, int characters,
                        const int *clip_set, int set_size, ossa_wrap wrap)
{
    const int joints = ch->joints;
    uint16_t *clip_index = malloc(sizeof(uint16_t) * (size_t)characters);
    float *times = malloc(sizeof(float) * (size_t)characters);
    for (int c = 0; c < characters; ++c) {
        clip_index[c] = (uint16_t)clip_set[ts_int(rng, set_size)];
        times[c] = pick_time(rng, clips[clip_index[c]]);
    }
    const ossa_transform *rest = ossa_skeleton_rest_pose(ch->skeleton);
    ossa_transform *ref = malloc(sizeof(ossa_transform) * (size_t)characters * (size_t)joints);
    ossa_sampling_job rj = {0};
    rj.clips = clips;
    rj.clip_count = clip_count;
    rj.clip_index = clip_index;
    rj.clip_index_count = characters;
    rj.time_s = times;
    rj.character_count = characters;
    rj.wrap = wrap;
    rj.rest_pose = rest;
    rj.rest_pose_count = joints;
    rj.output = ref;
    rj.output_count = characters * joints;
    CHECK_RESULT(ossa_sampling_job_run(&rj), OSSA_OK);
    const int floats = ossa_lane_pose_floats(joints, characters, width);
    float *lanes = lane_alloc((size_t)floats), *raw_lanes = lane_alloc((size_t)floats);
    ossa_lane_sampling_job lj = {0};
    lj.clips = clips;
    lj.clip_count = clip_count;
    lj.clip_index = clip_index;
    lj.clip_index_count = characters;
    lj.time_s = times;
    lj.character_count = characters;
    lj.wrap = wrap;
    lj.rest_pose = rest;
    lj.rest_pose_count = joints;
    lj.width = width;
    lj.path = path;
    lj.output = lanes;
    lj.output_count = floats;
    /* a prefetch validates as the run does, and samples and writes nothing */
    CHECK_RESULT(ossa_lane_sampling_job_prefetch(&lj), OSSA_OK);
    int written = 0;
    for (int i = 0; i < floats; ++i)
        written += !isnan(lanes[i]);
    CHECK_INT(written, 0);
    ossa_lane_sampling_job bad = lj;
    bad.output_count = floats - 1;
    CHECK_RESULT(ossa_lane_sampling_job_prefetch(&bad), OSSA_ERR_OUTPUT_TOO_SMALL);
    /* the rest pose is needed where a character plays a clip that needs it */
    bool needs_rest = false;
    for (int c = 0; c < characters; ++c)
        needs_rest |= ossa_clip_needs_rest_pose(clips[clip_index[c]]);
    bad = lj;
    bad.rest_pose = NULL;
    CHECK_RESULT(ossa_lane_sampling_job_prefetch(&bad),
                 needs_rest ? OSSA_ERR_MISSING_INPUT : OSSA_OK);
    CHECK_RESULT(ossa_lane_sampling_job_run(&lj), OSSA_OK);
    /* the raw clip's characters again in batches of that clip alone (the
     * raw kernel): a raw lane beside compressed ones gets the same bits */
    uint16_t *only_raw = malloc(sizeof(uint16_t) * (size_t)characters);
    for (int c = 0; c < characters; ++c)
        only_raw[c] = 1;
    ossa_lane_sampling_job oj = lj;
    oj.clip_index = only_raw;
    oj.output = raw_lanes;
    CHECK_RESULT(ossa_lane_sampling_job_run(&oj), OSSA_OK);
    /* streamed stores (aligned output) and the plain ones they fall back
     * to (an output 64-byte aligned for no batch): the same bits */
    float *streamed = lane_alloc((size_t)floats + 16);
    for (int aligned = 1; aligned >= 0; --aligned) {
        ossa_lane_sampling_job sj = lj;
        sj.stream_output = true;
        sj.output = streamed + (aligned ? 0 : 4);
        CHECK_RESULT(ossa_lane_sampling_job_run(&sj), OSSA_OK);
        CHECK(memcmp(sj.output, lanes, sizeof(float) * (size_t)floats) == 0);
        sj.clip_index = only_raw;
        CHECK_RESULT(ossa_lane_sampling_job_run(&sj), OSSA_OK);
        CHECK(memcmp(sj.output, raw_lanes, sizeof(float) * (size_t)floats) == 0);
    }
    /* each batch's next one prefetched while it is sampled: the same bits */
    ossa_lane_sampling_job pj = lj;
    pj.prefetch_ahead = true;
    pj.output = streamed;
    memset(streamed, 0xff, sizeof(float) * (size_t)floats);
    CHECK_RESULT(ossa_lane_sampling_job_run(&pj), OSSA_OK);
    CHECK(memcmp(pj.output, lanes, sizeof(float) * (size_t)floats) == 0);
    free(streamed);
    int differ = 0, raw_differ = 0;
    double raw_worst = 0.0;
    for (int c = 0; c < characters; ++c)
        for (int j = 0; j < joints; ++j) {
            const ossa_transform a = lane_transform(lanes, joints, width, c, j);
            const ossa_transform b = ref[(size_t)c * (size_t)joints + (size_t)j];
            if (clip_index[c] == 1) {
                const ossa_transform r = lane_transform(raw_lanes, joints, width, c, j);
                raw_differ += memcmp(&a, &r, sizeof a) != 0;
                const double d = transform_diff(a, b);
                raw_worst = d > raw_worst ? d : raw_worst;
            } else if (memcmp(&a, &b, sizeof a) != 0 && differ++ < 3) {
                fprintf(stderr,
                        "%s w%d n%d: character %d (clip %d at %g s) joint %d: lane %.9g %.9g "
                        "%.9g %.9g, reference %.9g %.9g %.9g %.9g\n",
                        ossa_simd_path_name(path), width, characters, c, clip_index[c],
                        (double)times[c], j, (double)a.rotation.x, (double)a.rotation.y,
                        (double)a.rotation.z, (double)a.rotation.w, (double)b.rotation.x,
                        (double)b.rotation.y, (double)b.rotation.z, (double)b.rotation.w);
            }
        }
    CHECK_INT(differ, 0);
    CHECK_INT(raw_differ, 0);
    CHECK(raw_worst <= SAMPLE_TOLERANCE);
    free(clip_index);
    free(only_raw);
    free(times);
    free(ref);
    free(lanes);
    free(raw_lanes);
}

static void check_batch(const character *ch, ts_rng *rng, ossa_simd_path path, int width,
                        int characters, const int *clip_set, int set_size, ossa_wrap wrap)
{
    const ossa_clip *clips[CLIPS];
    for (int k = 0; k < CLIPS; ++k)
        clips[k] = ch->clips[k];
    check_clips(ch, clips, CLIPS, rng, path, width, characters, clip_set, set_size, wrap);
}

TEST(lane_sampling_of_compressed_clips_equals_the_reference_bit_for_bit)
{
    ts_rng rng = ts_rng_make(41);
    character ch;
    REQUIRE(character_make(&rng, 37, 0, &ch)); /* three chunks of 16 joints, the last partly */
    int full = 0;
    for (int k = 0; k < CLIPS; ++k) {
        CHECK(ossa_clip_is_compressed(ch.clips[k]) == (k != 1));
        full += (TL_CAT(tl_clip, ch.clips[k], 0)->flags & TL_CLIP_FULL_ROTATIONS) != 0;
    }
    CHECK(full > 0); /* some rotation stores its w */
    /* a batch of few clips is decoded in windows of at most 160 values a
     * frame (sample/packed_group_kernels.c): some clip stores more */
    int most = 0;
    for (int k = 0; k < CLIPS; ++k) {
        ossa_clip_tracks tr;
        REQUIRE(ossa_clip_get_tracks(ch.clips[k], &tr));
        most = ossa_clip_is_compressed(ch.clips[k]) && tr.values > most ? tr.values : most;
    }
    CHECK(most > 160);
    const int packed_only[3] = {0, 2, 3}, mixed[4] = {0, 1, 2, 3};
    int paths = 0;
    for (int p = OSSA_SIMD_PORTABLE; p < OSSA_SIMD_PATH_COUNT; ++p) {
        if (!ts_path_runs((ossa_simd_path)p))
            continue;
        ++paths;
        for (size_t w = 0; w < sizeof widths / sizeof widths[0]; ++w) {
            const int width = widths[w];
            const int fills[] = {1, width - 1, width, 3 * width + 2};
            for (int f = 0; f < 4; ++f) {
                const ossa_wrap wrap = (ossa_wrap)(f % OSSA_WRAP_COUNT);
                check_batch(&ch, &rng, (ossa_simd_path)p, width, fills[f] ? fills[f] : 1,
                            packed_only, 3, wrap);
                check_batch(&ch, &rng, (ossa_simd_path)p, width, fills[f] ? fills[f] : 1, mixed,
                            4, wrap);
            }
        }
    }
    CHECK(paths >= 1);
    character_free(&ch);
}

/* Batches whose lanes play many different clips (each a copy of one of
 * the character's, in memory of its own): as many clips in a batch as it
 * has lanes, or a few of them, every path and width, against the
 * reference bit for bit. The kernel takes such batches lane by lane (more
 * than half the lanes' worth of clips) or clip by clip. */
TEST(lane_sampling_of_many_clips_in_a_batch_equals_the_reference)
{
    ts_rng rng = ts_rng_make(45);
    character ch;
    REQUIRE(character_make(&rng, 21, 1, &ch));
    enum { COPIES = 20 };
    const ossa_clip *clips[COPIES];
    void *memory[COPIES];
    for (int k = 0; k < COPIES; ++k) {
        /* clip 1 stays the raw one (check_clips compares it with the raw kernel) */
        const ossa_clip *from = ch.clips[k == 1 ? 1 : k < CLIPS ? k : (k % 2 ? 2 : 3)];
        memory[k] = ts_aligned(ossa_clip_bytes(from));
        memcpy(memory[k], from, ossa_clip_bytes(from));
        clips[k] = memory[k];
    }
    int all[COPIES], packed[COPIES - 1], few[5] = {0, 2, 5, 6, 9};
    for (int k = 0; k < COPIES; ++k)
        all[k] = k;
    for (int k = 0, n = 0; k < COPIES; ++k)
        if (k != 1)
            packed[n++] = k;
    for (int p = OSSA_SIMD_PORTABLE; p < OSSA_SIMD_PATH_COUNT; ++p) {
        if (!ts_path_runs((ossa_simd_path)p))
            continue;
        for (size_t w = 0; w < sizeof widths / sizeof widths[0]; ++w) {
            const int width = widths[w];
            check_clips(&ch, clips, COPIES, &rng, (ossa_simd_path)p, width, 4 * width + 3, all,
                        COPIES, OSSA_WRAP_LOOP);
            check_clips(&ch, clips, COPIES, &rng, (ossa_simd_path)p, width, 4 * width, packed,
                        COPIES - 1, OSSA_WRAP_CLAMP);
            check_clips(&ch, clips, COPIES, &rng, (ossa_simd_path)p, width, 3 * width - 1, few,
                        5, OSSA_WRAP_LOOP);
        }
    }
    for (int k = 0; k < COPIES; ++k)
        free(memory[k]);
    character_free(&ch);
}

TEST(lane_sampling_holds_compressed_step_tracks_like_the_reference)
{
    ts_rng rng = ts_rng_make(42);
    character ch;
    REQUIRE(character_make(&rng, 19, 1, &ch));
    const int mixed[4] = {0, 1, 2, 3};
    for (int p = OSSA_SIMD_PORTABLE; p < OSSA_SIMD_PATH_COUNT; ++p)
        if (ts_path_runs((ossa_simd_path)p))
            for (size_t w = 0; w < sizeof widths / sizeof widths[0]; ++w)
                check_batch(&ch, &rng, (ossa_simd_path)p, widths[w], 2 * widths[w] - 1, mixed, 4,
                            OSSA_WRAP_LOOP);
    character_free(&ch);
}

/* A compressed clip needs the rest pose; the jobs say so rather than guess. */
TEST(sampling_jobs_refuse_a_compressed_clip_without_the_rest_pose)
{
    ts_rng rng = ts_rng_make(43);
    character ch;
    REQUIRE(character_make(&rng, 5, 0, &ch));
    REQUIRE(ossa_clip_needs_rest_pose(ch.clips[0]));
    CHECK(ossa_clip_fits_skeleton(ch.clips[0], ch.skeleton));
    const ossa_clip *clip = ch.clips[0];
    float t = 0.25f;
    ossa_transform out[5];
    ossa_sampling_job rj = {0};
    rj.clips = &clip;
    rj.clip_count = 1;
    rj.time_s = &t;
    rj.character_count = 1;
    rj.output = out;
    rj.output_count = 5;
    CHECK_RESULT(ossa_sampling_job_run(&rj), OSSA_ERR_MISSING_INPUT);
    rj.rest_pose = ossa_skeleton_rest_pose(ch.skeleton);
    rj.rest_pose_count = 4;
    CHECK_RESULT(ossa_sampling_job_run(&rj), OSSA_ERR_INPUT_TOO_SMALL);
    rj.rest_pose_count = 5;
    CHECK_RESULT(ossa_sampling_job_run(&rj), OSSA_OK);
    float *lanes = lane_alloc((size_t)ossa_lane_pose_floats(5, 1, 0));
    ossa_lane_sampling_job lj = {0};
    lj.clips = &clip;
    lj.clip_count = 1;
    lj.time_s = &t;
    lj.character_count = 1;
    lj.output = lanes;
    lj.output_count = ossa_lane_pose_floats(5, 1, 0);
    CHECK_RESULT(ossa_lane_sampling_job_run(&lj), OSSA_ERR_MISSING_INPUT);
    lj.rest_pose = rj.rest_pose;
    lj.rest_pose_count = 5;
    CHECK_RESULT(ossa_lane_sampling_job_run(&lj), OSSA_OK);
    /* a raw clip needs none */
    const ossa_clip *raw = ch.clips[1];
    CHECK(!ossa_clip_needs_rest_pose(raw));
    lj.clips = &raw;
    lj.rest_pose = NULL;
    lj.rest_pose_count = 0;
    CHECK_RESULT(ossa_lane_sampling_job_run(&lj), OSSA_OK);
    /* a job checks the clips its characters play, not every clip it is
     * given: a compressed or missing clip no character plays needs nothing */
    const ossa_clip *library[3] = {raw, NULL, clip};
    uint16_t plays = 0;
    lj.clips = library;
    lj.clip_count = 3;
    lj.clip_index = &plays;
    lj.clip_index_count = 1;
    CHECK_RESULT(ossa_lane_sampling_job_run(&lj), OSSA_OK);
    plays = 1;
    CHECK_RESULT(ossa_lane_sampling_job_run(&lj), OSSA_ERR_MISSING_INPUT);
    plays = 2;
    CHECK_RESULT(ossa_lane_sampling_job_run(&lj), OSSA_ERR_MISSING_INPUT); /* the rest pose */
    lj.rest_pose = rj.rest_pose;
    lj.rest_pose_count = 5;
    CHECK_RESULT(ossa_lane_sampling_job_run(&lj), OSSA_OK);
    plays = 3;
    CHECK_RESULT(ossa_lane_sampling_job_run(&lj), OSSA_ERR_BAD_INDEX);
    free(lanes);
    character_free(&ch);
}

/* One character's pose from `clip` at t: by the reference job, and by the
 * lane job on `path` (lanes: one batch of `width`). */
static void sample_one(const ossa_clip *clip, const ossa_transform *rest, int joints, float t,
                       ossa_simd_path path, int width, ossa_transform *ref, float *lanes)
{
    ossa_sampling_job rj = {0};
    rj.clips = &clip;
    rj.clip_count = 1;
    rj.time_s = &t;
    rj.character_count = 1;
    rj.rest_pose = rest;
    rj.rest_pose_count = joints;
    rj.output = ref;
    rj.output_count = joints;
    CHECK_RESULT(ossa_sampling_job_run(&rj), OSSA_OK);
    ossa_lane_sampling_job lj = {0};
    lj.clips = &clip;
    lj.clip_count = 1;
    lj.time_s = &t;
    lj.character_count = 1;
    lj.rest_pose = rest;
    lj.rest_pose_count = joints;
    lj.width = width;
    lj.path = path;
    lj.output = lanes;
    lj.output_count = ossa_lane_pose_floats(joints, 1, width);
    CHECK_RESULT(ossa_lane_sampling_job_run(&lj), OSSA_OK);
}

/* ossa_clip_sample_ranges says what a sample reads: with every other byte
 * of the clip flipped, both jobs on every path still sample the same bits
 * (so nothing outside the ranges is read, or what is read does not count);
 * the ranges are in order, apart, inside the clip and start at its header. */
TEST(a_sample_reads_only_the_ranges_the_clip_reports)
{
    ts_rng rng = ts_rng_make(44);
    character ch;
    REQUIRE(character_make(&rng, 37, 1, &ch));
    const int joints = ch.joints;
    const ossa_transform *rest = ossa_skeleton_rest_pose(ch.skeleton);
    ossa_transform *want = malloc(sizeof *want * (size_t)joints);
    ossa_transform *got = malloc(sizeof *got * (size_t)joints);
    float *lanes_want = lane_alloc((size_t)ossa_lane_pose_floats(joints, 1, 16));
    float *lanes_got = lane_alloc((size_t)ossa_lane_pose_floats(joints, 1, 16));
    int bad_ranges = 0, differ = 0, samples = 0;
    size_t touched_packed = 0, bytes_packed = 0;
    for (int k = 0; k < CLIPS; ++k) {
        const ossa_clip *clip = ch.clips[k];
        const size_t bytes = ossa_clip_bytes(clip);
        unsigned char *copy = ts_aligned(bytes);
        for (int i = 0; i < 12; ++i) {
            const float t = ossa_clip_time(OSSA_WRAP_LOOP, ossa_clip_duration(clip),
                                           pick_time(&rng, clip));
            size_t begin[OSSA_CLIP_SAMPLE_RANGES], end[OSSA_CLIP_SAMPLE_RANGES];
            const int n = ossa_clip_sample_ranges(clip, t, begin, end, OSSA_CLIP_SAMPLE_RANGES);
            bad_ranges += n < 1 || n > OSSA_CLIP_SAMPLE_RANGES || begin[0] != 0;
            size_t inside = 0;
            for (int r = 0; r < n; ++r) {
                bad_ranges += !(begin[r] < end[r] && end[r] <= bytes) ||
                              (r > 0 && !(end[r - 1] < begin[r]));
                inside += end[r] - begin[r];
            }
            if (ossa_clip_is_compressed(clip)) {
                touched_packed += inside;
                bytes_packed += bytes;
            }
            memcpy(copy, clip, bytes);
            for (size_t b = 0, r = 0; b < bytes; ++b) {
                while ((int)r < n && end[r] <= b)
                    ++r;
                if ((int)r == n || b < begin[r])
                    copy[b] ^= 0xFF;
            }
            for (int p = OSSA_SIMD_PORTABLE; p < OSSA_SIMD_PATH_COUNT; ++p) {
                if (!ts_path_runs((ossa_simd_path)p))
                    continue;
                sample_one(clip, rest, joints, t, (ossa_simd_path)p, 16, want, lanes_want);
                sample_one((const ossa_clip *)copy, rest, joints, t, (ossa_simd_path)p, 16, got,
                           lanes_got);
                differ += memcmp(want, got, sizeof *want * (size_t)joints) != 0;
                differ += memcmp(lanes_want, lanes_got,
                                 sizeof(float) * (size_t)ossa_lane_pose_floats(joints, 1, 16)) != 0;
                ++samples;
            }
        }
        free(copy);
    }
    CHECK_INT(bad_ranges, 0);
    CHECK_INT(differ, 0);
    CHECK(samples >= 4 * 12);
    /* a compressed sample reads a part of its clip */
    CHECK(touched_packed < bytes_packed / 2);
    printf("  %d samples; a compressed sample reads %.0f%% of its clip\n", samples,
           100.0 * (double)touched_packed / (double)bytes_packed);
    free(want);
    free(got);
    free(lanes_want);
    free(lanes_got);
    character_free(&ch);
}

UTEST_MAIN(lane_sampling_of_compressed_clips_equals_the_reference_bit_for_bit,
           lane_sampling_of_many_clips_in_a_batch_equals_the_reference,
           lane_sampling_holds_compressed_step_tracks_like_the_reference,
           sampling_jobs_refuse_a_compressed_clip_without_the_rest_pose,
           a_sample_reads_only_the_ranges_the_clip_reports)
