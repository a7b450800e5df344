/* lanes_motion_test.c - the lane root motion job against the reference job
 * on every path this machine runs, batch widths 4, 8 and 16, partly filled
 * batches, clips with packed, raw and no motion, playheads forwards, backwards and
 * far across loop ends; and its validity table. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lanes_test_support.h"
#include "ossa/ossa.h"
#include "ossa/pipeline.h"
#include "simd_paths.h"
#include "test_support.h"
#include "utest.h"

/* OSSA_TEST_NEEDS_PIPELINE */

/* The lane code evaluates sine and cosine by polynomial and may fuse
 * multiply-adds: a few float roundings of motions of up to ~60 units and
 * angles of up to ~40 radians, relative to 1 + |value| (3e-7 seen). */
#define MOTION_TOLERANCE 2e-6

#define KEYS 25
#define CLIPS 4

typedef struct motion_set {
    ossa_skeleton *skeleton;
    ossa_clip *clips[CLIPS];
} motion_set;

/* A two-joint skeleton and clips whose root wanders and turns at random:
 * clips 0 and 1 compressed (a packed motion track), clip 2 raw (raw motion
 * floats), clip 3 kept as it is (no motion track). */
static int motion_set_make(ts_rng *rng, motion_set *m)
{
    memset(m, 0, sizeof *m);
    ossa_raw_joint joints[2] = {{"root", -1, ossa_transform_identity()},
                                {"child", 0, ossa_transform_identity()}};
    joints[1].rest.translation = (ossa_float3){0.0f, 1.0f, 0.2f};
    ossa_raw_skeleton rs = {joints, 2};
    ossa_error e;
    if (ossa_skeleton_build(&rs, NULL, &m->skeleton, NULL, &e) != OSSA_OK)
        return 0;
    float times[KEYS];
    ossa_float3 t[KEYS];
    ossa_quat r[KEYS];
    for (int c = 0; c < CLIPS; ++c) {
        const float duration = (float)ts_uniform(rng, 0.4, 1.5);
        const double turn = ts_uniform(rng, -2.0, 2.0), speed = ts_uniform(rng, 0.5, 4.0);
        for (int k = 0; k < KEYS; ++k) {
            const double u = (double)k / (KEYS - 1);
            times[k] = duration * (float)u;
            t[k] = (ossa_float3){(float)(speed * u + 0.1 * ts_uniform(rng, -1, 1)),
                                 (float)(1.0 + 0.05 * ts_uniform(rng, -1, 1)),
                                 (float)(0.5 * speed * u * u)};
            r[k] = ossa_quat_from_axis_angle((ossa_float3){0, 1, 0},
                                             (float)(turn * u + 0.05 * ts_uniform(rng, -1, 1)));
        }
        ossa_raw_joint_track track = {0};
        track.joint_name = "root";
        track.translation = (ossa_raw_track3){times, t, NULL, NULL, KEYS, OSSA_INTERP_LINEAR};
        track.rotation = (ossa_raw_track_quat){times, r, NULL, NULL, KEYS, OSSA_INTERP_LINEAR};
        ossa_raw_clip raw = {"wander", duration, &track, 1};
        ossa_clip_build_options o = {0};
        o.root_motion = c == CLIPS - 1 ? OSSA_ROOT_MOTION_KEEP : OSSA_ROOT_MOTION_EXTRACT;
        o.raw = c == 2; /* its motion stays raw floats; the others' is packed */
        if (ossa_clip_build(&raw, m->skeleton, &o, &m->clips[c], NULL, &e) != OSSA_OK) {
            fprintf(stderr, "clip: %s\n", e.message);
            return 0;
        }
    }
    bool packed[3];
    for (int c = 0; c < 3; ++c)
        ossa_clip_root_motion_bytes(m->clips[c], &packed[c]);
    return ossa_clip_has_root_motion(m->clips[0]) && !ossa_clip_has_root_motion(m->clips[3]) &&
           packed[0] && packed[1] && !packed[2];
}

static void motion_set_free(motion_set *m)
{
    for (int c = 0; c < CLIPS; ++c)
        ossa_clip_free(m->clips[c], NULL);
    ossa_skeleton_free(m->skeleton, NULL);
}

static double motion_diff(ossa_root_motion a, ossa_root_motion b)
{
    const double d[3] = {fabs((double)a.x - b.x) / (1.0 + fabs(b.x)),
                         fabs((double)a.z - b.z) / (1.0 + fabs(b.z)),
                         fabs((double)a.yaw_rad - b.yaw_rad) / (1.0 + fabs(b.yaw_rad))};
    return fmax(d[0], fmax(d[1], d[2]));
}

TEST(lane_root_motion_equals_the_reference_on_every_path_and_width)
{
    ts_rng rng = ts_rng_make(7);
    motion_set m;
    REQUIRE(motion_set_make(&rng, &m));
    const ossa_clip *clips[CLIPS];
    for (int c = 0; c < CLIPS; ++c)
        clips[c] = m.clips[c];
    static const int counts[] = {1, 3, 4, 15, 16, 17, 53};
    double worst = 0.0;
    int compared = 0;
    for (size_t ci = 0; ci < sizeof counts / sizeof counts[0]; ++ci) {
        const int n = counts[ci];
        uint16_t *index = malloc(sizeof *index * (size_t)n);
        float *from = malloc(sizeof *from * (size_t)n), *to = malloc(sizeof *to * (size_t)n);
        ossa_root_motion *ref = malloc(sizeof *ref * (size_t)n);
        ossa_root_motion *lane = malloc(sizeof *lane * (size_t)n);
        for (int i = 0; i < n; ++i) {
            index[i] = (uint16_t)ts_int(&rng, CLIPS);
            from[i] = (float)ts_uniform(&rng, -20.0, 20.0);
            /* short steps mostly, some across many loop ends, some backwards */
            const double span = ts_int(&rng, 4) == 0 ? ts_uniform(&rng, -8.0, 8.0)
                                                     : ts_uniform(&rng, -0.1, 0.2);
            to[i] = (float)(from[i] + span);
            if (i % 7 == 3)
                to[i] = from[i]; /* no time, no motion */
        }
        ossa_root_motion_job job = {0};
        job.clips = clips;
        job.clip_count = CLIPS;
        job.clip_index = index;
        job.clip_index_count = n;
        job.from_s = from;
        job.to_s = to;
        job.character_count = n;
        job.output = ref;
        job.output_count = n;
        REQUIRE(ossa_root_motion_job_run(&job) == OSSA_OK);
        for (int i = 0; i < n; ++i) {
            if (index[i] == CLIPS - 1 || from[i] == to[i])
                CHECK(ref[i].x == 0.0f && ref[i].z == 0.0f && ref[i].yaw_rad == 0.0f);
        }
        for (int p = OSSA_SIMD_PORTABLE; p < OSSA_SIMD_PATH_COUNT; ++p) {
            if (!ts_path_runs((ossa_simd_path)p))
                continue;
            for (size_t w = 0; w < sizeof widths / sizeof widths[0]; ++w) {
                for (int i = 0; i < n; ++i)
                    lane[i] = (ossa_root_motion){NAN, NAN, NAN};
                ossa_lane_root_motion_job lj = {0};
                lj.clips = clips;
                lj.clip_count = CLIPS;
                lj.clip_index = index;
                lj.clip_index_count = n;
                lj.from_s = from;
                lj.to_s = to;
                lj.character_count = n;
                lj.width = widths[w];
                lj.path = (ossa_simd_path)p;
                lj.output = lane;
                lj.output_count = n;
                REQUIRE(ossa_lane_root_motion_job_run(&lj) == OSSA_OK);
                for (int i = 0; i < n; ++i) {
                    const double d = motion_diff(lane[i], ref[i]);
                    if (!(d <= MOTION_TOLERANCE))
                        fprintf(stderr, "path %s width %d character %d: %g %g %g vs %g %g %g\n",
                                ossa_simd_path_name((ossa_simd_path)p), widths[w], i,
                                (double)lane[i].x, (double)lane[i].z, (double)lane[i].yaw_rad,
                                (double)ref[i].x, (double)ref[i].z, (double)ref[i].yaw_rad);
                    worst = d > worst || d != d ? d : worst;
                    ++compared;
                }
            }
        }
        free(index);
        free(from);
        free(to);
        free(ref);
        free(lane);
    }
    fprintf(stderr, "%d motions compared, largest relative difference %.3g\n", compared, worst);
    CHECK(worst <= MOTION_TOLERANCE);
    CHECK(compared > 0);
    motion_set_free(&m);
}

TEST(lane_root_motion_job_validity)
{
    ts_rng rng = ts_rng_make(8);
    motion_set m;
    REQUIRE(motion_set_make(&rng, &m));
    const ossa_clip *clips[1] = {m.clips[0]};
    float from[5] = {0, 1, 2, 3, 4}, to[5] = {1, 2, 3, 4, 5};
    ossa_root_motion out[5];
    ossa_lane_root_motion_job valid = {0};
    valid.clips = clips;
    valid.clip_count = 1;
    valid.from_s = from;
    valid.to_s = to;
    valid.character_count = 5;
    valid.width = 4;
    valid.output = out;
    valid.output_count = 5;
    ossa_lane_root_motion_job j;
    CHECK_RESULT(ossa_lane_root_motion_job_run(NULL), OSSA_ERR_MISSING_INPUT);
    j = (ossa_lane_root_motion_job){0};
    CHECK_RESULT(ossa_lane_root_motion_job_run(&j), OSSA_ERR_MISSING_INPUT);
    j = valid, j.clips = NULL;
    CHECK_RESULT(ossa_lane_root_motion_job_run(&j), OSSA_ERR_MISSING_INPUT);
    j = valid, j.from_s = NULL;
    CHECK_RESULT(ossa_lane_root_motion_job_run(&j), OSSA_ERR_MISSING_INPUT);
    j = valid, j.character_count = 0;
    CHECK_RESULT(ossa_lane_root_motion_job_run(&j), OSSA_ERR_INPUT_TOO_SMALL);
    j = valid, j.width = 5;
    CHECK_RESULT(ossa_lane_root_motion_job_run(&j), OSSA_ERR_BAD_ARGUMENT);
    j = valid, j.batch_end = 3;
    CHECK_RESULT(ossa_lane_root_motion_job_run(&j), OSSA_ERR_BAD_RANGE);
    j = valid, j.path = OSSA_SIMD_PATH_COUNT;
    CHECK_RESULT(ossa_lane_root_motion_job_run(&j), OSSA_ERR_BAD_ARGUMENT);
    j = valid, j.output = NULL;
    CHECK_RESULT(ossa_lane_root_motion_job_run(&j), OSSA_ERR_MISSING_OUTPUT);
    j = valid, j.output_count = 4;
    CHECK_RESULT(ossa_lane_root_motion_job_run(&j), OSSA_ERR_OUTPUT_TOO_SMALL);
    from[4] = NAN;
    CHECK_RESULT(ossa_lane_root_motion_job_run(&valid), OSSA_ERR_BAD_VALUE);
    /* batch 0 alone does not read character 4 */
    j = valid, j.batch_begin = 0, j.batch_end = 1;
    CHECK_RESULT(ossa_lane_root_motion_job_run(&j), OSSA_OK);
    from[4] = 4;
    CHECK_RESULT(ossa_lane_root_motion_job_run(&valid), OSSA_OK);
    motion_set_free(&m);
}

UTEST_MAIN(lane_root_motion_equals_the_reference_on_every_path_and_width,
           lane_root_motion_job_validity)
