/* crowd_locomotion_test.c - root motion, phase sync and transitions in the
 * crowd: characters move by the weighted motion of their layers (the
 * reference root motion job over the test's own playheads); synced layers
 * stay at one phase for random durations and rates; a fade's weight and
 * pose at its start, middle and end equal a plain reference; trigger events
 * are the reference event job's; sockets are the joint's world transform
 * times their offset; bad input is refused. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crowd_support.h"
#include "ossa/crowd.h"
#include "ossa/ossa.h"
#include "ossa/pipeline.h"
#include "test_support.h"
#include "utest.h"

/* OSSA_TEST_NEEDS_PIPELINE */

#define CHARACTERS 40
#define DT (1.0f / 30.0f)

/* The reference motion of one layer between two unwrapped playheads. */
static ossa_root_motion reference_motion(const ts_crowd *f, int clip, double from, double to)
{
    const uint16_t index = (uint16_t)clip;
    const float a = (float)from, b = (float)to;
    ossa_root_motion out;
    ossa_root_motion_job job = {0};
    job.clips = f->clips;
    job.clip_count = OSSA_DEFAULT_CLIP_COUNT;
    job.clip_index = &index;
    job.clip_index_count = 1;
    job.from_s = &a;
    job.to_s = &b;
    job.character_count = 1;
    job.output = &out;
    job.output_count = 1;
    if (ossa_root_motion_job_run(&job) != OSSA_OK)
        abort();
    return out;
}

typedef struct tracked {
    double x, z, yaw;  /* placement */
    double ua, ub;     /* unwrapped playheads */
    double ua0, ub0;   /* ... at the last update */
    uint32_t updates;
} tracked;

TEST(crowd_characters_move_by_the_weighted_motion_of_their_layers)
{
    ts_crowd f;
    REQUIRE(ts_crowd_make(&f, CHARACTERS, 0, -1));
    REQUIRE(ossa_clip_has_root_motion(f.clips[1]) && ossa_clip_has_root_motion(f.clips[2]));
    ts_rng r = ts_rng_make(31);
    ossa_entity e[CHARACTERS];
    tracked x[CHARACTERS];
    for (int i = 0; i < CHARACTERS; ++i) {
        ossa_character_desc d = ts_crowd_random_character(&r, 0);
        d.inactive = false;
        REQUIRE(ossa_crowd_spawn(f.crowd, &d, &e[i]) == OSSA_OK);
        x[i] = (tracked){d.position.x, d.position.z, d.yaw_rad, d.time_s, d.time_s, d.time_s,
                          d.time_s, 0};
    }
    double worst = 0.0, travelled = 0.0;
    int moves = 0;
    for (int frame = 0; frame < 120; ++frame) {
        REQUIRE(ts_crowd_frame(&f, DT, 1) == OSSA_OK);
        for (int i = 0; i < CHARACTERS; ++i) {
            ossa_character_state st;
            REQUIRE(ossa_crowd_character(f.crowd, e[i], &st) == OSSA_OK);
            tracked *p = &x[i];
            p->ua += (double)DT * st.speed;
            p->ub += (double)DT * st.speed;
            if (st.updates != p->updates) { /* updated this frame: it moved */
                p->updates = st.updates;
                const ossa_root_motion a = reference_motion(&f, st.clip_a, p->ua0, p->ua);
                const ossa_root_motion b = reference_motion(&f, st.clip_b, p->ub0, p->ub);
                const double w = st.weight_b;
                const double mx = a.x + (b.x - a.x) * w, mz = a.z + (b.z - a.z) * w;
                const double c = cos(p->yaw), s = sin(p->yaw);
                p->x += mx * c + mz * s;
                p->z += mz * c - mx * s;
                p->yaw += a.yaw_rad + (b.yaw_rad - a.yaw_rad) * w;
                p->ua0 = p->ua;
                p->ub0 = p->ub;
                travelled += hypot(mx, mz);
                moves += hypot(mx, mz) > 0.0;
            }
            const double dyaw = remainder(st.yaw_rad - p->yaw, 2 * 3.14159265358979);
            worst = fmax(worst, fmax(fabs(st.position.x - p->x), fabs(st.position.z - p->z)));
            worst = fmax(worst, fabs(dyaw));
        }
    }
    /* positions within ~20 units, float rounding over 120 frames */
    CHECK(worst < 2e-4);
    CHECK(moves > CHARACTERS);
    CHECK(travelled > 10.0);
    fprintf(stderr, "%d moves, %.1f units travelled, largest difference %.3g\n", moves, travelled,
            worst);
    ts_crowd_free(&f);
}

TEST(crowd_without_root_motion_keeps_placements)
{
    ts_crowd f;
    REQUIRE(ts_crowd_make(&f, 4, 0, -1));
    /* the same crowd, made again with no_root_motion */
    ossa_crowd_desc d = {0};
    d.skeleton = f.dc.skeleton;
    d.clips = f.clips;
    d.clip_count = OSSA_DEFAULT_CLIP_COUNT;
    d.capacity = 4;
    d.no_root_motion = true;
    const size_t bytes = ossa_crowd_size(&d);
    void *memory = ts_aligned(bytes);
    ossa_crowd *still;
    REQUIRE(ossa_crowd_init(&still, memory, bytes, &d) == OSSA_OK);
    ossa_character_desc c = {0};
    c.clip_a = c.clip_b = 2; /* run */
    c.position = (ossa_float3){1.0f, 0.0f, 2.0f};
    ossa_entity e;
    REQUIRE(ossa_crowd_spawn(still, &c, &e) == OSSA_OK);
    for (int frame = 0; frame < 30; ++frame) {
        int batches;
        REQUIRE(ossa_crowd_begin_frame(still, DT, &batches) == OSSA_OK);
        REQUIRE(ossa_crowd_update(still, 0, batches, f.scratch, f.scratch_bytes) == OSSA_OK);
        REQUIRE(ossa_crowd_end_frame(still) == OSSA_OK);
    }
    ossa_character_state st;
    REQUIRE(ossa_crowd_character(still, e, &st) == OSSA_OK);
    CHECK(st.position.x == 1.0f && st.position.z == 2.0f && st.yaw_rad == 0.0f);
    free(memory);
    ts_crowd_free(&f);
}

/* ---- phase sync on clips of random durations ---- */

TEST(synced_layers_stay_at_one_phase_for_random_durations_and_rates)
{
    ts_rng r = ts_rng_make(5);
    const uint16_t parents[2] = {OSSA_NO_PARENT, 0};
    ossa_transform rest[2] = {ossa_transform_identity(), ossa_transform_identity()};
    ossa_skeleton *sk = ts_skeleton_make(parents, rest, 2);
    REQUIRE(sk != NULL);
    enum { CLIPS = 5 };
    ossa_clip *clips[CLIPS];
    const ossa_clip *view[CLIPS];
    for (int k = 0; k < CLIPS; ++k) {
        const int frames = 2 + ts_int(&r, 40);
        const float rate = (float)ts_uniform(&r, 10.0, 60.0);
        ossa_transform *keys = malloc(sizeof *keys * 2 * (size_t)frames);
        for (int i = 0; i < 2 * frames; ++i)
            keys[i] = ts_transform(&r, TS_SCALE_ONE);
        clips[k] = ts_clip_make(sk, keys, frames, rate, NULL, "random");
        free(keys);
        REQUIRE(clips[k] != NULL);
        view[k] = clips[k];
    }
    ossa_crowd_desc d = {0};
    d.skeleton = sk;
    d.clips = view;
    d.clip_count = CLIPS;
    d.capacity = 64;
    const size_t bytes = ossa_crowd_size(&d);
    void *memory = ts_aligned(bytes);
    ossa_crowd *crowd;
    REQUIRE(ossa_crowd_init(&crowd, memory, bytes, &d) == OSSA_OK);
    void *scratch = ts_aligned(ossa_crowd_scratch_size(crowd));
    ossa_entity e[64];
    double phase[64];
    for (int i = 0; i < 64; ++i) {
        ossa_character_desc c = {0};
        c.clip_a = ts_int(&r, CLIPS);
        c.clip_b = ts_int(&r, CLIPS);
        c.weight_b = (float)ts_uniform(&r, 0.0, 1.0);
        c.time_s = (float)ts_uniform(&r, 0.0, 0.5);
        c.speed = (float)ts_uniform(&r, 0.1, 3.0);
        c.update_interval = 1 << ts_int(&r, 3);
        c.sync = true;
        REQUIRE(ossa_crowd_spawn(crowd, &c, &e[i]) == OSSA_OK);
        phase[i] = fmod(c.time_s, ossa_clip_duration(view[c.clip_a])) /
                   ossa_clip_duration(view[c.clip_a]);
    }
    double worst_phase = 0.0, worst_rate = 0.0;
    for (int frame = 0; frame < 200; ++frame) {
        const float dt = (float)ts_uniform(&r, 0.005, 0.05);
        int batches;
        REQUIRE(ossa_crowd_begin_frame(crowd, dt, &batches) == OSSA_OK);
        REQUIRE(ossa_crowd_update(crowd, 0, batches, scratch, ossa_crowd_scratch_size(crowd)) ==
                OSSA_OK);
        REQUIRE(ossa_crowd_end_frame(crowd) == OSSA_OK);
        for (int i = 0; i < 64; ++i) {
            ossa_character_state st;
            REQUIRE(ossa_crowd_character(crowd, e[i], &st) == OSSA_OK);
            const double da = ossa_clip_duration(view[st.clip_a]);
            const double db = ossa_clip_duration(view[st.clip_b]);
            const double pa = st.time_a_s / da, pb = st.time_b_s / db;
            worst_phase = fmax(worst_phase, fabs(pa - pb));
            /* the phase moves at speed / blended duration */
            const double blended = (1.0 - st.weight_b) * da + st.weight_b * db;
            phase[i] = fmod(phase[i] + (double)dt * st.speed / blended, 1.0);
            double miss = fabs(pa - phase[i]);
            worst_rate = fmax(worst_rate, fmin(miss, 1.0 - miss));
            phase[i] = pa; /* follow the crowd's own rounding */
        }
    }
    CHECK(worst_phase < 2e-6);
    CHECK(worst_rate < 5e-6);
    fprintf(stderr, "phase a vs b: %.3g; phase advance vs blended rate: %.3g\n", worst_phase,
            worst_rate);
    free(scratch);
    free(memory);
    for (int k = 0; k < CLIPS; ++k)
        ossa_clip_free(clips[k], NULL);
    ossa_skeleton_free(sk, NULL);
}

/* ---- transitions ---- */

static void check_pose(const ts_crowd *f, ossa_entity e, float expected_weight, double *worst)
{
    ossa_character_state st;
    REQUIRE(ossa_crowd_character(f->crowd, e, &st) == OSSA_OK);
    ossa_character_state ref = st;
    ref.weight_b = expected_weight;
    ossa_mat34 pose[OSSA_DEFAULT_JOINT_COUNT];
    ts_crowd_reference_pose(f, &ref, pose);
    const ossa_mat34 *got = ossa_crowd_pose(f->crowd, e);
    REQUIRE(got != NULL);
    *worst = fmax(*worst, ts_crowd_diff(got, pose, OSSA_DEFAULT_JOINT_COUNT));
}

TEST(transition_weight_and_pose_follow_the_reference_fade)
{
    ts_crowd f;
    REQUIRE(ts_crowd_make(&f, 4, 0, -1));
    ossa_character_desc d = {0};
    d.clip_a = d.clip_b = 1; /* walk */
    d.time_s = 0.3f;
    ossa_entity e;
    REQUIRE(ossa_crowd_spawn(f.crowd, &d, &e) == OSSA_OK);
    REQUIRE(ts_crowd_frame(&f, DT, 1) == OSSA_OK);
    const float fade = 0.5f;
    REQUIRE(ossa_crowd_transition(f.crowd, e, 2, fade, false) == OSSA_OK);
    ossa_character_state st;
    REQUIRE(ossa_crowd_character(f.crowd, e, &st) == OSSA_OK);
    /* the start: all walk, run in layer b at 0, fading to 1 */
    CHECK_INT(st.clip_a, 1);
    CHECK_INT(st.clip_b, 2);
    CHECK(st.weight_b == 0.0f && st.time_b_s == 0.0f && st.fade_to == 1.0f);
    CHECK_NEAR(st.fade_left_s, fade, 1e-6);
    /* asking again for run changes nothing */
    REQUIRE(ossa_crowd_transition(f.crowd, e, 2, 0.1f, true) == OSSA_OK);
    ossa_character_state again;
    REQUIRE(ossa_crowd_character(f.crowd, e, &again) == OSSA_OK);
    CHECK(again.clip_a == st.clip_a && again.clip_b == st.clip_b &&
          again.weight_b == st.weight_b && again.time_a_s == st.time_a_s &&
          again.time_b_s == st.time_b_s && again.fade_to == st.fade_to &&
          again.fade_left_s == st.fade_left_s);
    double worst_weight = 0.0, worst_pose = 0.0;
    int checked[3] = {0, 0, 0};
    for (int frame = 1; frame <= 30; ++frame) {
        REQUIRE(ts_crowd_frame(&f, DT, 1) == OSSA_OK);
        const double t = frame * (double)DT;
        const float want = (float)fmin(t / fade, 1.0);
        REQUIRE(ossa_crowd_character(f.crowd, e, &st) == OSSA_OK);
        worst_weight = fmax(worst_weight, fabs(st.weight_b - want));
        check_pose(&f, e, want, &worst_pose);
        checked[want < 0.5f ? 0 : want < 1.0f ? 1 : 2]++;
        /* run's playhead started at 0 when the fade did */
        CHECK_NEAR(st.time_b_s, fmod(t, ossa_clip_duration(f.clips[2])), 1e-5);
    }
    CHECK(worst_weight < 1e-6);
    CHECK(worst_pose < TS_CROWD_POSE_TOLERANCE);
    CHECK(checked[0] > 0 && checked[1] > 0 && checked[2] > 0);
    REQUIRE(ossa_crowd_character(f.crowd, e, &st) == OSSA_OK);
    CHECK(st.weight_b == 1.0f && st.fade_left_s == 0.0f);
    /* back to crouch, matching the phase: crouch goes into layer a at run's phase */
    const double run_phase = st.time_b_s / ossa_clip_duration(f.clips[2]);
    REQUIRE(ossa_crowd_transition(f.crowd, e, 0, 0.25f, true) == OSSA_OK);
    REQUIRE(ossa_crowd_character(f.crowd, e, &st) == OSSA_OK);
    CHECK_INT(st.clip_a, 0);
    CHECK(st.fade_to == 0.0f && st.weight_b == 1.0f);
    CHECK_NEAR(st.time_a_s / ossa_clip_duration(f.clips[0]), run_phase, 1e-5);
    for (int frame = 1; frame <= 9; ++frame) {
        REQUIRE(ts_crowd_frame(&f, DT, 1) == OSSA_OK);
        const float want = (float)fmax(1.0 - frame * (double)DT / 0.25, 0.0);
        REQUIRE(ossa_crowd_character(f.crowd, e, &st) == OSSA_OK);
        CHECK_NEAR(st.weight_b, want, 1e-6);
        check_pose(&f, e, want, &worst_pose);
    }
    CHECK(worst_pose < TS_CROWD_POSE_TOLERANCE);
    /* at once */
    REQUIRE(ossa_crowd_transition(f.crowd, e, 1, 0.0f, false) == OSSA_OK);
    REQUIRE(ossa_crowd_character(f.crowd, e, &st) == OSSA_OK);
    CHECK(st.clip_b == 1 && st.weight_b == 1.0f);
    /* bad input */
    CHECK_RESULT(ossa_crowd_transition(f.crowd, e, 3, 0.5f, false), OSSA_ERR_BAD_INDEX);
    CHECK_RESULT(ossa_crowd_transition(f.crowd, e, -1, 0.5f, false), OSSA_ERR_BAD_INDEX);
    CHECK_RESULT(ossa_crowd_transition(f.crowd, e, 0, NAN, false), OSSA_ERR_BAD_VALUE);
    CHECK_RESULT(ossa_crowd_transition(f.crowd, e, 0, -1.0f, false), OSSA_ERR_BAD_VALUE);
    CHECK_RESULT(ossa_crowd_transition(f.crowd, e, 0, INFINITY, false), OSSA_ERR_BAD_VALUE);
    CHECK_RESULT(ossa_crowd_transition(NULL, e, 0, 0.5f, false), OSSA_ERR_MISSING_INPUT);
    REQUIRE(ossa_crowd_despawn(f.crowd, e) == OSSA_OK);
    CHECK_RESULT(ossa_crowd_transition(f.crowd, e, 0, 0.5f, false), OSSA_ERR_STALE_ID);
    CHECK_RESULT(ossa_crowd_set_sync(f.crowd, e, true), OSSA_ERR_STALE_ID);
    ts_crowd_free(&f);
}

/* ---- trigger events on float tracks ---- */

TEST(crowd_trigger_events_are_the_dominant_layers_crossings)
{
    ts_rng r = ts_rng_make(44);
    const uint16_t parents[2] = {OSSA_NO_PARENT, 0};
    ossa_transform rest[2] = {ossa_transform_identity(), ossa_transform_identity()};
    ossa_skeleton *sk = ts_skeleton_make(parents, rest, 2);
    REQUIRE(sk != NULL);
    /* three clips: two with a "beat" track of their own shape, one without */
    enum { CLIPS = 3 };
    ossa_clip *clips[CLIPS];
    const ossa_clip *view[CLIPS];
    for (int k = 0; k < CLIPS; ++k) {
        const int frames = 5 + 4 * k;
        ossa_transform keys[2 * 13];
        for (int i = 0; i < 2 * frames; ++i)
            keys[i] = ts_transform(&r, TS_SCALE_ONE);
        float times[13], beat[13];
        for (int i = 0; i < frames; ++i) {
            times[i] = (float)i / 10.0f;
            beat[i] = (float)ts_uniform(&r, 0.0, 1.0);
        }
        ossa_raw_joint_track tr[2] = {{0}, {0}};
        ossa_float3 t0[13];
        ossa_quat q0[13];
        for (int j = 0; j < 2; ++j) {
            tr[j].joint_name = ossa_skeleton_joint_name(sk, j);
            for (int i = 0; i < frames; ++i)
                t0[i] = keys[2 * i].translation, q0[i] = keys[2 * i].rotation;
            tr[j].translation = (ossa_raw_track3){times, t0, NULL, NULL, frames,
                                                  OSSA_INTERP_LINEAR};
            tr[j].rotation = (ossa_raw_track_quat){times, q0, NULL, NULL, frames,
                                                   OSSA_INTERP_LINEAR};
        }
        const ossa_raw_float_track ft = {"beat", times, beat, NULL, NULL, frames,
                                         OSSA_INTERP_LINEAR};
        ossa_raw_clip raw = {"clip", 0.0f, tr, 2};
        ossa_clip_build_options o = {0};
        o.rate = 10.0f;
        o.float_tracks = &ft;
        o.float_track_count = k < 2 ? 1 : 0;
        ossa_error err;
        REQUIRE(ossa_clip_build(&raw, sk, &o, &clips[k], NULL, &err) == OSSA_OK);
        view[k] = clips[k];
    }
    const ossa_crowd_trigger triggers[2] = {{"beat", 0.5f, OSSA_EDGE_BOTH},
                                            {"beat", 0.3f, OSSA_EDGE_RISING}};
    ossa_crowd_desc d = {0};
    d.skeleton = sk;
    d.clips = view;
    d.clip_count = CLIPS;
    d.capacity = 48;
    d.triggers = triggers;
    d.trigger_count = 2;
    const size_t bytes = ossa_crowd_size(&d);
    REQUIRE(bytes > 0);
    void *memory = ts_aligned(bytes);
    ossa_crowd *crowd;
    REQUIRE(ossa_crowd_init(&crowd, memory, bytes, &d) == OSSA_OK);
    void *scratch = ts_aligned(ossa_crowd_scratch_size(crowd));
    ossa_entity e[48];
    double u[48][2], u0[48][2];
    uint32_t updates[48];
    for (int i = 0; i < 48; ++i) {
        ossa_character_desc c = {0};
        c.clip_a = ts_int(&r, CLIPS);
        c.clip_b = ts_int(&r, CLIPS);
        c.weight_b = (float)ts_uniform(&r, 0.0, 1.0);
        c.time_s = (float)ts_uniform(&r, 0.0, 2.0);
        c.speed = (float)ts_uniform(&r, 0.3, 3.0);
        c.update_interval = 1 << ts_int(&r, 3);
        REQUIRE(ossa_crowd_spawn(crowd, &c, &e[i]) == OSSA_OK);
        u[i][0] = u[i][1] = u0[i][0] = u0[i][1] = c.time_s;
        updates[i] = 0;
    }
    int checked = 0;
    for (int frame = 0; frame < 100; ++frame) {
        int batches;
        REQUIRE(ossa_crowd_begin_frame(crowd, DT, &batches) == OSSA_OK);
        REQUIRE(ossa_crowd_update(crowd, 0, batches, scratch, ossa_crowd_scratch_size(crowd)) ==
                OSSA_OK);
        REQUIRE(ossa_crowd_end_frame(crowd) == OSSA_OK);
        int count;
        const ossa_crowd_event *ev = ossa_crowd_events(crowd, &count);
        int accounted = 0;
        for (int i = 0; i < 48; ++i) {
            ossa_character_state st;
            REQUIRE(ossa_crowd_character(crowd, e[i], &st) == OSSA_OK);
            u[i][0] += (double)DT * st.speed;
            u[i][1] += (double)DT * st.speed;
            if (st.updates == updates[i])
                continue;
            updates[i] = st.updates;
            const int layer = st.weight_b >= 0.5f ? 1 : 0;
            const int clip = layer ? st.clip_b : st.clip_a;
            /* the reference job on the dominant clip's track, test's playheads */
            const int track = ossa_clip_find_float_track(view[clip], "beat");
            const float from = (float)u0[i][layer], to = (float)u[i][layer];
            u0[i][0] = u[i][0];
            u0[i][1] = u[i][1];
            for (int t = 0; t < 2; ++t) {
                ossa_track_event want[8];
                int n = 0;
                if (track >= 0) {
                    const ossa_float_track v = ossa_clip_float_track(view[clip], track);
                    ossa_track_event_job job = {&v, 1, NULL, 0, &from, &to, 1, 0, 0,
                                                triggers[t].threshold, triggers[t].edges, want, 8,
                                                &n};
                    REQUIRE(ossa_track_event_job_run(&job) == OSSA_OK);
                }
                int got = 0;
                for (int x = 0; x < count; ++x) {
                    if (ev[x].entity.index != e[i].index || ev[x].trigger != t)
                        continue;
                    REQUIRE(got < n);
                    CHECK_INT(ev[x].clip, clip);
                    CHECK(ev[x].rising == want[got].rising);
                    CHECK_NEAR(ev[x].time_s, want[got].time_s, 1e-4);
                    ++got;
                    ++checked;
                }
                CHECK_INT(got, n < OSSA_CROWD_EVENTS_PER_UPDATE ? n : OSSA_CROWD_EVENTS_PER_UPDATE);
                accounted += got;
            }
        }
        CHECK_INT(accounted, count);
    }
    CHECK(checked > 100);
    fprintf(stderr, "%d trigger events checked\n", checked);
    /* a name no clip has */
    const ossa_crowd_trigger missing = {"Bip01 Footsteps", 0.5f, OSSA_EDGE_BOTH};
    d.triggers = &missing;
    d.trigger_count = 1;
    CHECK(ossa_crowd_size(&d) == 0);
    ossa_crowd *none;
    CHECK_RESULT(ossa_crowd_init(&none, memory, bytes, &d), OSSA_ERR_NOT_FOUND);
    const ossa_crowd_trigger nan_threshold = {"beat", NAN, OSSA_EDGE_BOTH};
    d.triggers = &nan_threshold;
    CHECK_RESULT(ossa_crowd_init(&none, memory, bytes, &d), OSSA_ERR_BAD_VALUE);
    free(scratch);
    free(memory);
    for (int k = 0; k < CLIPS; ++k)
        ossa_clip_free(clips[k], NULL);
    ossa_skeleton_free(sk, NULL);
}

/* ---- sockets ---- */

TEST(crowd_sockets_are_the_joints_world_transform_times_the_offset)
{
    ts_crowd f;
    REQUIRE(ts_crowd_make(&f, 24, 0, -1));
    ts_rng r = ts_rng_make(8);
    ossa_entity e[24];
    for (int i = 0; i < 24; ++i) {
        ossa_character_desc d = ts_crowd_random_character(&r, 0);
        d.inactive = false;
        REQUIRE(ossa_crowd_spawn(f.crowd, &d, &e[i]) == OSSA_OK);
    }
    const int hand = ossa_skeleton_find_joint(f.dc.skeleton, "hand_r");
    REQUIRE(hand >= 0);
    ossa_socket socket = {hand, ossa_mat34_from_transform(ts_transform(&r, TS_SCALE_ONE))};
    ossa_mat34 out;
    /* no pose before the first update */
    CHECK_RESULT(ossa_crowd_socket(f.crowd, e[0], &socket, &out), OSSA_ERR_NOT_FOUND);
    double worst = 0.0;
    for (int frame = 0; frame < 12; ++frame) {
        REQUIRE(ts_crowd_frame(&f, DT, 1) == OSSA_OK);
        for (int i = 0; i < 24; ++i) {
            ossa_character_state st;
            REQUIRE(ossa_crowd_character(f.crowd, e[i], &st) == OSSA_OK);
            if (st.updates == 0)
                continue;
            REQUIRE(ossa_crowd_socket(f.crowd, e[i], &socket, &out) == OSSA_OK);
            /* in double: the joint's world transform (the crowd's pose), times the offset */
            const ossa_mat34 *pose = ossa_crowd_pose(f.crowd, e[i]);
            const ts_dmat joint = ts_dmat_from_mat34(&pose[hand]);
            const ts_dmat offset = ts_dmat_from_mat34(&socket.offset);
            const ts_dmat want = ts_dmat_mul(&joint, &offset);
            worst = fmax(worst, ts_mat_diff(&out, &want));
        }
    }
    CHECK(worst < 1e-4);
    /* a zeroed offset is the joint itself */
    ossa_socket bare = {hand, {{{0}}}};
    REQUIRE(ossa_crowd_socket(f.crowd, e[3], &bare, &out) == OSSA_OK);
    CHECK(memcmp(&out, &ossa_crowd_pose(f.crowd, e[3])[hand], sizeof out) == 0);
    /* bad input */
    ossa_socket far = {OSSA_DEFAULT_JOINT_COUNT, socket.offset};
    CHECK_RESULT(ossa_crowd_socket(f.crowd, e[3], &far, &out), OSSA_ERR_BAD_INDEX);
    CHECK_RESULT(ossa_crowd_socket(f.crowd, e[3], NULL, &out), OSSA_ERR_MISSING_INPUT);
    CHECK_RESULT(ossa_crowd_socket(f.crowd, e[3], &socket, NULL), OSSA_ERR_MISSING_OUTPUT);
    REQUIRE(ossa_crowd_despawn(f.crowd, e[3]) == OSSA_OK);
    CHECK_RESULT(ossa_crowd_socket(f.crowd, e[3], &socket, &out), OSSA_ERR_STALE_ID);
    CHECK_RESULT(ossa_socket_transform(NULL, 3, &socket, &out), OSSA_ERR_MISSING_INPUT);
    ts_crowd_free(&f);
}

UTEST_MAIN(crowd_characters_move_by_the_weighted_motion_of_their_layers,
           crowd_without_root_motion_keeps_placements,
           synced_layers_stay_at_one_phase_for_random_durations_and_rates,
           transition_weight_and_pose_follow_the_reference_fade,
           crowd_trigger_events_are_the_dominant_layers_crossings,
           crowd_sockets_are_the_joints_world_transform_times_the_offset)
