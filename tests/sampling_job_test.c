/* sampling_job_test.c - clips sampled at any playhead against a
 * double-precision interpolation of their keys: exactness at key times, STEP
 * holds, wrap modes at their boundaries, negative playheads, several clips
 * per job, instance ranges, and the validity table. */
#include <float.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "blob_layout.h"
#include "ossa/ossa.h"
#include "ossa/pipeline.h"
#include "test_support.h"
#include "utest.h"

/* OSSA_TEST_NEEDS_PIPELINE */

#define RATE 30.0f
/* Interpolated values against double precision. The float playhead (< 10 s)
 * carries up to 1e-6 s of rounding, and the frame position t * rate up to
 * 2 ulps of 300 frames (7e-5 frame) in the runtime: 1e-4 of a frame, times key
 * steps of at most 2 units, plus the lerp's own rounding. */
#define SAMPLE_TOL 2e-4
/* The same for rotations, as an angle in radians (keys at most pi apart). */
#define SAMPLE_ANGLE_TOL 4e-4
/* One float rounding of a value <= 4 (a duration, a rate). */
#define FLOAT_TOL 1e-6
/* A stored rotation key is the source key renormalised (double, then float,
 * then float again): a few roundings of 2^-24 per component. */
#define KEY_ANGLE_TOL 1e-6

typedef struct clip_fixture {
    int joints, frames;
    ossa_skeleton *skeleton;
    ossa_transform *keys; /* frames * joints, the source keys */
    ossa_clip *clip;
} clip_fixture;

/* Random keys: smooth enough to look like motion or wild (any rotation). */
static clip_fixture fixture_make(ts_rng *r, int joints, int frames, const uint8_t *step,
                                 const char *name)
{
    clip_fixture f;
    f.joints = joints;
    f.frames = frames;
    uint16_t *parents = malloc(sizeof *parents * (size_t)joints);
    ts_parents(r, joints, 1, parents);
    f.skeleton = ts_skeleton_make(parents, NULL, joints);
    free(parents);
    f.keys = malloc(sizeof *f.keys * (size_t)joints * (size_t)frames);
    for (int k = 0; k < joints * frames; ++k)
        f.keys[k] = ts_transform(r, TS_SCALE_ANY);
    f.clip = f.skeleton ? ts_clip_make(f.skeleton, f.keys, frames, RATE, step, name) : NULL;
    return f;
}

static void fixture_free(clip_fixture *f)
{
    ossa_clip_free(f->clip, NULL);
    ossa_skeleton_free(f->skeleton, NULL);
    free(f->keys);
}

static const ossa_transform *key(const clip_fixture *f, int frame, int joint)
{
    return &f->keys[(size_t)frame * (size_t)f->joints + (size_t)joint];
}

/* The stored frame value of a joint, straight from the clip's bytes. */
static ossa_transform stored(const ossa_clip *clip, int frame, int joint)
{
    const tl_clip *h = (const tl_clip *)(const void *)clip; /* the documented header */
    const float *row = TL_CAT(float, clip, h->frames_offset) + (size_t)frame * TL_COMPONENTS * h->joint_stride;
    const uint32_t s = h->joint_stride;
    ossa_transform t = {{row[TL_TX * s + joint], row[TL_TY * s + joint], row[TL_TZ * s + joint]},
                        {row[TL_QX * s + joint], row[TL_QY * s + joint],
                         row[TL_QZ * s + joint], row[TL_QW * s + joint]},
                        {row[TL_SX * s + joint], row[TL_SY * s + joint], row[TL_SZ * s + joint]}};
    return t;
}

static bool same_bits(const ossa_transform *a, const ossa_transform *b)
{
    return memcmp(a, b, sizeof *a) == 0;
}

/* Expected pose of a joint at clip time t (double, already wrapped): keys
 * interpolated in double precision, translation and scale linearly, rotation
 * by nlerp or slerp, STEP bits holding the earlier key. */
static void expected_at(const clip_fixture *f, int joint, double t, ossa_rotation_interp interp,
                        uint8_t step, double tr[3], ts_dquat *q, double sc[3])
{
    double u = t * RATE;
    int f0 = (int)floor(u);
    if (f0 >= f->frames - 1)
        f0 = f->frames - 2;
    if (f0 < 0)
        f0 = 0;
    double a = u - f0;
    if (a > 1)
        a = 1;
    const ossa_transform *ka = key(f, f0, joint), *kb = key(f, f0 + 1, joint);
    double at = step & 1 ? (a >= 1 ? 1 : 0) : a, ar = step & 2 ? (a >= 1 ? 1 : 0) : a;
    double as = step & 4 ? (a >= 1 ? 1 : 0) : a;
    const float ta[3] = {ka->translation.x, ka->translation.y, ka->translation.z};
    const float tb[3] = {kb->translation.x, kb->translation.y, kb->translation.z};
    const float sa[3] = {ka->scale.x, ka->scale.y, ka->scale.z};
    const float sb[3] = {kb->scale.x, kb->scale.y, kb->scale.z};
    for (int k = 0; k < 3; ++k) {
        tr[k] = ta[k] + (tb[k] - ta[k]) * at;
        sc[k] = sa[k] + (sb[k] - sa[k]) * as;
    }
    ts_dquat qa = ts_dquat_from(ka->rotation), qb = ts_dquat_from(kb->rotation);
    *q = interp == OSSA_ROTATION_SLERP ? ts_dquat_slerp(qa, qb, ar) : ts_dquat_nlerp(qa, qb, ar);
}

static double pose_error(const ossa_transform *got, const double tr[3], ts_dquat q,
                         const double sc[3], double *angle)
{
    const float gt[3] = {got->translation.x, got->translation.y, got->translation.z};
    const float gs[3] = {got->scale.x, got->scale.y, got->scale.z};
    double d = 0;
    for (int k = 0; k < 3; ++k)
        d = fmax(d, fmax(fabs(gt[k] - tr[k]), fabs(gs[k] - sc[k])));
    *angle = ts_quat_angle(got->rotation, q);
    return d;
}

/* The wrap modes in double precision, from the header's definitions. */
static double wrap_reference(ossa_wrap wrap, double d, double p)
{
    switch (wrap) {
    case OSSA_WRAP_CLAMP:
        return p < 0 ? 0 : (p > d ? d : p);
    case OSSA_WRAP_PING_PONG: {
        double u = fmod(p, 2 * d);
        if (u < 0)
            u += 2 * d;
        return u <= d ? u : 2 * d - u;
    }
    default: {
        double u = fmod(p, d);
        if (u < 0)
            u += d;
        return u >= d ? 0 : u;
    }
    }
}

static ossa_sampling_job job_of(const ossa_clip *const *clip, const float *times, int count,
                                ossa_transform *out, int joints)
{
    ossa_sampling_job job;
    memset(&job, 0, sizeof job);
    job.clips = clip;
    job.clip_count = 1;
    job.time_s = times;
    job.character_count = count;
    job.output = out;
    job.output_count = count * joints;
    return job;
}

static void check_against_reference(ossa_wrap wrap, ossa_rotation_interp interp, uint64_t seed)
{
    ts_rng r = ts_rng_make(seed);
    clip_fixture f = fixture_make(&r, 37, 91, NULL, "random");
    REQUIRE(f.clip);
    enum { N = 400 };
    float times[N];
    const double d = ossa_clip_duration(f.clip);
    CHECK_NEAR(d, 90 / RATE, FLOAT_TOL);
    for (int i = 0; i < N; ++i)
        times[i] = (float)ts_uniform(&r, -3 * d, 3 * d);
    ossa_transform *out = malloc(sizeof *out * N * 37);
    ossa_sampling_job job = job_of((const ossa_clip *const *)&f.clip, times, N, out, 37);
    job.wrap = wrap;
    job.rotation_interp = interp;
    CHECK_RESULT(ossa_sampling_job_run(&job), OSSA_OK);
    double worst = 0, worst_angle = 0;
    for (int i = 0; i < N; ++i) {
        const double t = wrap_reference(wrap, d, times[i]);
        for (int j = 0; j < 37; ++j) {
            double tr[3], sc[3], angle;
            ts_dquat q;
            expected_at(&f, j, t, interp, 0, tr, &q, sc);
            worst = fmax(worst, pose_error(&out[i * 37 + j], tr, q, sc, &angle));
            worst_angle = fmax(worst_angle, angle);
        }
    }
    CHECK_NEAR(worst, 0, SAMPLE_TOL);
    CHECK_NEAR(worst_angle, 0, SAMPLE_ANGLE_TOL);
    free(out);
    fixture_free(&f);
}

TEST(sampling_loop_nlerp_matches_double_interpolation)
{
    check_against_reference(OSSA_WRAP_LOOP, OSSA_ROTATION_NLERP, 71);
}

TEST(sampling_clamp_slerp_matches_double_interpolation)
{
    check_against_reference(OSSA_WRAP_CLAMP, OSSA_ROTATION_SLERP, 72);
}

TEST(sampling_ping_pong_matches_double_interpolation)
{
    check_against_reference(OSSA_WRAP_PING_PONG, OSSA_ROTATION_NLERP, 73);
}

TEST(sampling_is_exact_at_key_times)
{
    ts_rng r = ts_rng_make(74);
    clip_fixture f = fixture_make(&r, 5, 301, NULL, "keys");
    REQUIRE(f.clip);
    const float duration = ossa_clip_duration(f.clip);
    const float dt = duration / 300.0f;
    int wrong_stored = 0, wrong_joint = 0, wrong_job = 0;
    for (int k = 0; k <= 300; ++k) {
        /* Two ways a caller computes a key's time. */
        const float times[2] = {(float)k / RATE, (float)k * dt};
        ossa_transform out[2 * 5];
        ossa_sampling_job job = job_of((const ossa_clip *const *)&f.clip, times, 2, out, 5);
        job.wrap = OSSA_WRAP_CLAMP;
        REQUIRE(ossa_sampling_job_run(&job) == OSSA_OK);
        for (int j = 0; j < 5; ++j) {
            const ossa_transform s = stored(f.clip, k, j);
            /* The stored key is the source key (rotation normalised). */
            wrong_stored += memcmp(&s.translation, &key(&f, k, j)->translation, 12) != 0 ||
                            memcmp(&s.scale, &key(&f, k, j)->scale, 12) != 0 ||
                            ts_quat_angle(s.rotation, ts_dquat_from(key(&f, k, j)->rotation)) > KEY_ANGLE_TOL;
            for (int w = 0; w < 2; ++w) {
                ossa_transform one = ossa_clip_sample_joint(f.clip, NULL, j, times[w], OSSA_ROTATION_NLERP);
                if (!same_bits(&one, &s) && wrong_joint++ < 3)
                    fprintf(stderr, "key %d at t = %.9g (%s): not the key\n", k, (double)times[w],
                            w ? "k * dt" : "k / rate");
                wrong_job += !same_bits(&out[w * 5 + j], &s);
            }
        }
    }
    CHECK_INT(wrong_stored, 0);
    CHECK_INT(wrong_joint, 0);
    CHECK_INT(wrong_job, 0);
    fixture_free(&f);
}

TEST(step_tracks_hold_the_earlier_key_and_hit_every_key)
{
    ts_rng r = ts_rng_make(75);
    const uint8_t step[4] = {1, 2, 4, 7};
    clip_fixture f = fixture_make(&r, 4, 11, step, "step");
    REQUIRE(f.clip);
    const float duration = ossa_clip_duration(f.clip);
    int wrong = 0;
    for (int k = 0; k <= 40; ++k) {
        const float t = duration * (float)k / 40.0f; /* on and between keys, the end included */
        for (int j = 0; j < 4; ++j) {
            ossa_transform got = ossa_clip_sample_joint(f.clip, NULL, j, t, OSSA_ROTATION_NLERP);
            double tr[3], sc[3], angle;
            ts_dquat q;
            expected_at(&f, j, t, OSSA_ROTATION_NLERP, step[j], tr, &q, sc);
            if (pose_error(&got, tr, q, sc, &angle) > SAMPLE_TOL || angle > SAMPLE_ANGLE_TOL) {
                if (wrong++ < 3)
                    fprintf(stderr, "joint %d (step bits %d) at t = %g s (%g frames)\n", j, step[j],
                            (double)t, (double)t * RATE);
            }
        }
    }
    CHECK_INT(wrong, 0);
    /* Held tracks are exactly the earlier key, not nearly. */
    ossa_transform held = ossa_clip_sample_joint(f.clip, NULL, 3, 2.5f / RATE, OSSA_ROTATION_NLERP);
    ossa_transform k2 = stored(f.clip, 2, 3);
    CHECK(same_bits(&held, &k2));
    /* And the last key at the clip's end. */
    ossa_transform end = ossa_clip_sample_joint(f.clip, NULL, 3, duration, OSSA_ROTATION_NLERP);
    ossa_transform k10 = stored(f.clip, 10, 3);
    CHECK(same_bits(&end, &k10));
    fixture_free(&f);
}

TEST(sampling_wraps_playheads_at_the_boundaries)
{
    ts_rng r = ts_rng_make(76);
    clip_fixture f = fixture_make(&r, 3, 31, NULL, "wrap");
    REQUIRE(f.clip);
    const float d = ossa_clip_duration(f.clip); /* 1 s */
    const ossa_transform first = stored(f.clip, 0, 1), last = stored(f.clip, 30, 1);
    const ossa_transform tenth = stored(f.clip, 3, 1), ninetieth = stored(f.clip, 27, 1);
    struct {
        ossa_wrap wrap;
        float playhead;
        const ossa_transform *expect;
    } cases[] = {
        {OSSA_WRAP_LOOP, 0.0f, &first},        {OSSA_WRAP_LOOP, d, &first},
        {OSSA_WRAP_LOOP, -d, &first},          {OSSA_WRAP_LOOP, 5 * d, &first},
        {OSSA_WRAP_LOOP, -0.9f * d, &tenth},   {OSSA_WRAP_LOOP, 2.1f * d, &tenth},
        {OSSA_WRAP_LOOP, -0.1f * d, &ninetieth},
        {OSSA_WRAP_CLAMP, -7.0f, &first},      {OSSA_WRAP_CLAMP, 0.0f, &first},
        {OSSA_WRAP_CLAMP, d, &last},           {OSSA_WRAP_CLAMP, 100.0f, &last},
        {OSSA_WRAP_PING_PONG, d, &last},       {OSSA_WRAP_PING_PONG, 2 * d, &first},
        {OSSA_WRAP_PING_PONG, 3 * d, &last},   {OSSA_WRAP_PING_PONG, -d, &last},
        {OSSA_WRAP_PING_PONG, 1.9f * d, &tenth}, {OSSA_WRAP_PING_PONG, -0.1f * d, &tenth},
        {OSSA_WRAP_PING_PONG, 1.1f * d, &ninetieth},
        {OSSA_WRAP_LOOP, NAN, &first},         {OSSA_WRAP_CLAMP, INFINITY, &first},
        {OSSA_WRAP_PING_PONG, -INFINITY, &first},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
        ossa_transform out[3];
        ossa_sampling_job job = job_of((const ossa_clip *const *)&f.clip, &cases[c].playhead, 1,
                                       out, 3);
        job.wrap = cases[c].wrap;
        CHECK_RESULT(ossa_sampling_job_run(&job), OSSA_OK);
        /* Within the playhead's rounding (1 ulp of 5 s = 5e-7 s, 1.5e-5 frame). */
        double tr[3] = {cases[c].expect->translation.x, cases[c].expect->translation.y,
                        cases[c].expect->translation.z};
        double sc[3] = {cases[c].expect->scale.x, cases[c].expect->scale.y, cases[c].expect->scale.z};
        double angle;
        double e = pose_error(&out[1], tr, ts_dquat_from(cases[c].expect->rotation), sc, &angle);
        if (!(e <= SAMPLE_TOL && angle <= SAMPLE_ANGLE_TOL))
            fprintf(stderr, "case %zu: wrap %d playhead %g: error %g, angle %g\n", c,
                    (int)cases[c].wrap, (double)cases[c].playhead, e, angle);
        CHECK(e <= SAMPLE_TOL && angle <= SAMPLE_ANGLE_TOL);
    }
    fixture_free(&f);
}

TEST(negative_speed_plays_the_clip_backwards)
{
    ts_rng r = ts_rng_make(77);
    clip_fixture f = fixture_make(&r, 2, 16, NULL, "back");
    REQUIRE(f.clip);
    const float d = ossa_clip_duration(f.clip);
    /* A playhead advanced at speed -1 from 0: t, -t give mirrored clip times. */
    int wrong = 0;
    for (int k = 1; k < 50; ++k) {
        const float playhead = -0.037f * (float)k;
        float times[2] = {playhead, playhead};
        ossa_transform out[4];
        const ossa_wrap modes[2] = {OSSA_WRAP_LOOP, OSSA_WRAP_PING_PONG};
        for (int m = 0; m < 2; ++m) {
            ossa_sampling_job job = job_of((const ossa_clip *const *)&f.clip, times, 2, out, 2);
            job.wrap = modes[m];
            REQUIRE(ossa_sampling_job_run(&job) == OSSA_OK);
            /* loop: d - |p| mod d; ping-pong: |p| reflected. */
            double t = modes[m] == OSSA_WRAP_LOOP ? wrap_reference(OSSA_WRAP_LOOP, d, playhead)
                                                  : wrap_reference(OSSA_WRAP_PING_PONG, d, -playhead);
            double tr[3], sc[3], angle;
            ts_dquat q;
            expected_at(&f, 1, t, OSSA_ROTATION_NLERP, 0, tr, &q, sc);
            double e = pose_error(&out[1], tr, q, sc, &angle);
            wrong += !(e <= SAMPLE_TOL && angle <= SAMPLE_ANGLE_TOL);
        }
    }
    CHECK_INT(wrong, 0);
    fixture_free(&f);
}

TEST(clip_time_matches_the_wrap_definitions)
{
    ts_rng r = ts_rng_make(78);
    const ossa_wrap modes[3] = {OSSA_WRAP_LOOP, OSSA_WRAP_CLAMP, OSSA_WRAP_PING_PONG};
    int outside = 0, wrong = 0;
    for (int i = 0; i < 30000; ++i) {
        const float d = (float)ts_uniform(&r, 0.01, 10);
        const float p = (float)ts_uniform(&r, -50, 50);
        for (int m = 0; m < 3; ++m) {
            const float t = ossa_clip_time(modes[m], d, p);
            outside += !(t >= 0 && t <= d);
            /* fmod is exact; the float result may differ from double by the
             * rounding of u + d or 2d - u: one ulp of 2d. A loop's end and
             * start are one instant. */
            double e = fabs(t - wrap_reference(modes[m], d, p));
            if (modes[m] == OSSA_WRAP_LOOP)
                e = fmin(e, fabs(e - d));
            wrong += !(e <= FLT_EPSILON * 2 * d);
        }
    }
    CHECK_INT(outside, 0);
    CHECK_INT(wrong, 0);
    CHECK(ossa_clip_time(OSSA_WRAP_LOOP, 0.0f, 3.0f) == 0.0f);
    CHECK(ossa_clip_time(OSSA_WRAP_LOOP, -1.0f, 3.0f) == 0.0f);
    CHECK(ossa_clip_time(OSSA_WRAP_LOOP, NAN, 3.0f) == 0.0f);
    CHECK(ossa_clip_time(OSSA_WRAP_LOOP, 2.0f, NAN) == 0.0f);
    CHECK(ossa_clip_time(OSSA_WRAP_LOOP, 2.0f, 2.0f) == 0.0f);
    CHECK(ossa_clip_time(OSSA_WRAP_LOOP, 2.0f, -2.0f) == 0.0f);
    CHECK(ossa_clip_time(OSSA_WRAP_LOOP, 2.0f, -0.5f) == 1.5f);
    CHECK(ossa_clip_time(OSSA_WRAP_LOOP, 2.0f, -1e-9f) < 2.0f);
    CHECK(ossa_clip_time(OSSA_WRAP_CLAMP, 2.0f, 2.5f) == 2.0f);
    CHECK(ossa_clip_time(OSSA_WRAP_PING_PONG, 2.0f, 2.5f) == 1.5f);
    CHECK(ossa_clip_time(OSSA_WRAP_PING_PONG, 2.0f, -2.5f) == 1.5f);
    CHECK(ossa_clip_time(OSSA_WRAP_PING_PONG, 2.0f, 4.0f) == 0.0f);
}

TEST(each_instance_plays_its_own_clip)
{
    ts_rng r = ts_rng_make(79);
    clip_fixture a = fixture_make(&r, 6, 10, NULL, "a");
    REQUIRE(a.clip);
    /* A second clip for the same skeleton, with other keys and length. */
    ossa_transform *keys = malloc(sizeof *keys * 6 * 25);
    for (int k = 0; k < 6 * 25; ++k)
        keys[k] = ts_transform(&r, TS_SCALE_ANY);
    ossa_clip *b = ts_clip_make(a.skeleton, keys, 25, RATE, NULL, "b");
    REQUIRE(b);
    const ossa_clip *clips[2] = {a.clip, b};
    const uint16_t index[4] = {1, 0, 0, 1};
    const float times[4] = {0.5f, 0.1f, 0.2f, 0.7f};
    ossa_transform out[24];
    ossa_sampling_job job = job_of(clips, times, 4, out, 6);
    job.clip_count = 2;
    job.clip_index = index;
    job.clip_index_count = 4;
    CHECK_RESULT(ossa_sampling_job_run(&job), OSSA_OK);
    int wrong = 0;
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 6; ++j) {
            const ossa_clip *c = clips[index[i]];
            float t = ossa_clip_time(OSSA_WRAP_LOOP, ossa_clip_duration(c), times[i]);
            ossa_transform one = ossa_clip_sample_joint(c, NULL, j, t, OSSA_ROTATION_NLERP);
            wrong += !same_bits(&one, &out[i * 6 + j]);
        }
    CHECK_INT(wrong, 0);
    ossa_clip_free(b, NULL);
    free(keys);
    fixture_free(&a);
}

TEST(sampling_writes_only_its_instance_range)
{
    ts_rng r = ts_rng_make(80);
    clip_fixture f = fixture_make(&r, 3, 5, NULL, "range");
    REQUIRE(f.clip);
    const float times[5] = {0.01f, 0.02f, 0.03f, 0.04f, 0.05f};
    ossa_transform out[15];
    memset(out, 0xFF, sizeof out);
    ossa_sampling_job job = job_of((const ossa_clip *const *)&f.clip, times, 5, out, 3);
    job.character_begin = 3;
    job.character_end = 5;
    CHECK_RESULT(ossa_sampling_job_run(&job), OSSA_OK);
    int wrong = 0;
    for (int i = 0; i < 15; ++i)
        wrong += (i >= 9) == (isnan(out[i].scale.z) != 0);
    CHECK_INT(wrong, 0);
    fixture_free(&f);
}

TEST(one_frame_clip_holds_its_pose)
{
    ts_rng r = ts_rng_make(81);
    clip_fixture f = fixture_make(&r, 4, 1, NULL, "still");
    REQUIRE(f.clip);
    CHECK_INT(ossa_clip_frame_count(f.clip), 1);
    CHECK(ossa_clip_duration(f.clip) == 0.0f);
    CHECK(ossa_clip_rate(f.clip) == 0.0f);
    const float times[3] = {-1.0f, 0.0f, 12.5f};
    ossa_transform out[12];
    for (int m = 0; m < OSSA_WRAP_COUNT; ++m) {
        ossa_sampling_job job = job_of((const ossa_clip *const *)&f.clip, times, 3, out, 4);
        job.wrap = (ossa_wrap)m;
        CHECK_RESULT(ossa_sampling_job_run(&job), OSSA_OK);
        int wrong = 0;
        for (int i = 0; i < 12; ++i) {
            ossa_transform s = stored(f.clip, 0, i % 4);
            wrong += !same_bits(&out[i], &s);
        }
        CHECK_INT(wrong, 0);
    }
    fixture_free(&f);
}

TEST(sampling_validity_table)
{
    ts_rng r = ts_rng_make(82);
    clip_fixture f = fixture_make(&r, 3, 4, NULL, "table");
    clip_fixture g = fixture_make(&r, 4, 4, NULL, "other");
    REQUIRE(f.clip && g.clip);
    const ossa_clip *clips[2] = {f.clip, f.clip};
    const float times[2] = {0.0f, 0.1f};
    uint16_t index[2] = {1, 0};
    ossa_transform out[6];
    ossa_sampling_job job;
    memset(&job, 0, sizeof job);
    CHECK_RESULT(ossa_sampling_job_validate(&job), OSSA_ERR_MISSING_INPUT);
    CHECK_RESULT(ossa_sampling_job_validate(NULL), OSSA_ERR_MISSING_INPUT);
    job.clips = clips;
    CHECK_RESULT(ossa_sampling_job_validate(&job), OSSA_ERR_INPUT_TOO_SMALL); /* clip_count */
    job.clip_count = 2;
    clips[0] = NULL;
    CHECK_RESULT(ossa_sampling_job_validate(&job), OSSA_ERR_MISSING_INPUT);
    clips[0] = f.clip;
    CHECK_RESULT(ossa_sampling_job_validate(&job), OSSA_ERR_MISSING_INPUT); /* time_s */
    job.time_s = times;
    CHECK_RESULT(ossa_sampling_job_validate(&job), OSSA_ERR_INPUT_TOO_SMALL); /* character_count */
    job.character_count = 2;
    CHECK_RESULT(ossa_sampling_job_validate(&job), OSSA_ERR_MISSING_OUTPUT);
    job.output = out;
    job.output_count = 5;
    CHECK_RESULT(ossa_sampling_job_validate(&job), OSSA_ERR_OUTPUT_TOO_SMALL);
    job.output_count = 6;
    CHECK_RESULT(ossa_sampling_job_validate(&job), OSSA_OK);
    job.clip_index = index;
    job.clip_index_count = 1;
    CHECK_RESULT(ossa_sampling_job_validate(&job), OSSA_ERR_INPUT_TOO_SMALL);
    job.clip_index_count = 2;
    index[0] = 2;
    CHECK_RESULT(ossa_sampling_job_validate(&job), OSSA_ERR_BAD_INDEX);
    index[0] = 1;
    /* the clips a character plays are checked; those none plays are not read */
    clips[1] = NULL;
    CHECK_RESULT(ossa_sampling_job_validate(&job), OSSA_ERR_MISSING_INPUT);
    clips[1] = g.clip;
    CHECK_RESULT(ossa_sampling_job_validate(&job), OSSA_ERR_COUNT_MISMATCH);
    job.character_begin = 1; /* character 1 plays clip 0 */
    job.character_end = 2;
    CHECK_RESULT(ossa_sampling_job_validate(&job), OSSA_OK);
    index[0] = 0;
    job.character_begin = job.character_end = 0;
    CHECK_RESULT(ossa_sampling_job_validate(&job), OSSA_OK);
    clips[1] = NULL;
    CHECK_RESULT(ossa_sampling_job_validate(&job), OSSA_OK);
    clips[1] = f.clip;
    index[0] = 1;
    job.character_begin = -1;
    CHECK_RESULT(ossa_sampling_job_validate(&job), OSSA_ERR_BAD_RANGE);
    job.character_begin = 0;
    job.character_end = 3;
    CHECK_RESULT(ossa_sampling_job_validate(&job), OSSA_ERR_BAD_RANGE);
    job.character_begin = 2;
    job.character_end = 1;
    CHECK_RESULT(ossa_sampling_job_validate(&job), OSSA_ERR_BAD_RANGE);
    job.character_begin = job.character_end = 0;
    job.wrap = OSSA_WRAP_COUNT;
    CHECK_RESULT(ossa_sampling_job_validate(&job), OSSA_ERR_BAD_ARGUMENT);
    job.wrap = OSSA_WRAP_PING_PONG;
    job.rotation_interp = OSSA_ROTATION_COUNT;
    CHECK_RESULT(ossa_sampling_job_validate(&job), OSSA_ERR_BAD_ARGUMENT);
    job.rotation_interp = OSSA_ROTATION_SLERP;
    CHECK_RESULT(ossa_sampling_job_validate(&job), OSSA_OK);
    memset(out, 0x5A, sizeof out);
    job.output_count = 5;
    CHECK_RESULT(ossa_sampling_job_run(&job), OSSA_ERR_OUTPUT_TOO_SMALL);
    unsigned char expect[sizeof out];
    memset(expect, 0x5A, sizeof expect);
    CHECK(memcmp(out, expect, sizeof out) == 0);
    fixture_free(&f);
    fixture_free(&g);
}

UTEST_MAIN(sampling_loop_nlerp_matches_double_interpolation,
           sampling_clamp_slerp_matches_double_interpolation,
           sampling_ping_pong_matches_double_interpolation, sampling_is_exact_at_key_times,
           step_tracks_hold_the_earlier_key_and_hit_every_key,
           sampling_wraps_playheads_at_the_boundaries, negative_speed_plays_the_clip_backwards,
           clip_time_matches_the_wrap_definitions, each_instance_plays_its_own_clip,
           sampling_writes_only_its_instance_range, one_frame_clip_holds_its_pose,
           sampling_validity_table)
