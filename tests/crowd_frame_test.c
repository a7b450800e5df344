/* crowd_frame_test.c - the crowd's frame: poses and palettes against the
 * reference jobs, footfalls against heights the reference jobs give, dust,
 * bit-identical results for 1, 2 and 3 threads, and the stage hook. */
#include <stdlib.h>
#include <string.h>

#include "../src/crowd/crowd_internal.h"
#include "crowd_support.h"
#include "utest.h"

/* OSSA_TEST_NEEDS_PIPELINE */

/* ---- poses and palettes against the reference jobs ---- */

/* Palettes: the lane product of two matrices against ossa_palette_job on the
 * reference pose; the pose tolerance, since the skin joint's world matrix
 * carries it. */
#define PALETTE_TOLERANCE (2 * TS_CROWD_POSE_TOLERANCE)

TEST(crowd_poses_and_palettes_match_the_reference_jobs_for_every_character)
{
    enum { N = 50, FRAMES = 4 };
    const int widths[3] = {4, 8, 16};
    /* rounds 3-5: every character plays one clip alone (a or b), so no batch
     * samples a second layer */
    for (int round = 0; round < 6; ++round) {
        const int w = round % 3;
        const bool alone = round >= 3;
        ts_crowd f;
        REQUIRE(ts_crowd_make(&f, N, widths[w], 0));
        const int skins = ossa_crowd_skin_joint_count(f.crowd);
        REQUIRE(skins == ossa_mesh_skin_joint_count(f.dc.mesh));
        ts_rng r = ts_rng_make(7 + (uint64_t)round);
        ossa_entity e[N];
        for (int i = 0; i < N; ++i) {
            ossa_character_desc d = ts_crowd_random_character(&r, 1);
            d.update_interval = d.skinned ? d.update_interval : 1;
            d.inactive = 0;
            if (alone)
                d.weight_b = ts_int(&r, 2) ? 1.0f : 0.0f;
            REQUIRE(ossa_crowd_spawn(f.crowd, &d, &e[i]) == OSSA_OK);
        }
        double worst_pose = 0, worst_palette = 0;
        int palettes = 0;
        ossa_mat34 *expect = malloc(sizeof(ossa_mat34) * OSSA_DEFAULT_JOINT_COUNT);
        ossa_mat34 *expect_palette = malloc(sizeof(ossa_mat34) * (size_t)skins);
        for (int frame = 0; frame < FRAMES; ++frame) {
            REQUIRE(ts_crowd_frame(&f, 1.0f / 30.0f, 1) == OSSA_OK);
            for (int i = 0; i < N; ++i) {
                ossa_character_state st;
                REQUIRE(ossa_crowd_character(f.crowd, e[i], &st) == OSSA_OK);
                CHECK_INT(st.updates, frame + 1); /* interval 1, or skinned */
                ts_crowd_reference_pose(&f, &st, expect);
                const ossa_mat34 *got = ossa_crowd_pose(f.crowd, e[i]);
                REQUIRE(got != NULL);
                double d = ts_crowd_diff(got, expect, OSSA_DEFAULT_JOINT_COUNT);
                worst_pose = d <= worst_pose ? worst_pose : d;
                const ossa_mat34 *palette = ossa_crowd_palette(f.crowd, e[i]);
                CHECK((palette != NULL) == st.skinned);
                if (!palette)
                    continue;
                CHECK((uintptr_t)palette % 16 == 0);
                ts_crowd_reference_palette(&f, expect, expect_palette);
                d = ts_crowd_diff(palette, expect_palette, skins);
                worst_palette = d <= worst_palette ? worst_palette : d;
                ++palettes;
            }
        }
        if (!(worst_pose <= TS_CROWD_POSE_TOLERANCE && worst_palette <= PALETTE_TOLERANCE))
            fprintf(stderr, "width %d%s: worst pose %.3g, palette %.3g\n", widths[w],
                    alone ? " (clips alone)" : "", worst_pose, worst_palette);
        CHECK(worst_pose <= TS_CROWD_POSE_TOLERANCE);
        CHECK(worst_palette <= PALETTE_TOLERANCE);
        CHECK(palettes > 0);
        CHECK_INT(ossa_crowd_get_stats(f.crowd).skinned * FRAMES, palettes);
        free(expect);
        free(expect_palette);
        ts_crowd_free(&f);
    }
}

TEST(crowd_palette_follows_its_character_and_waits_for_an_update)
{
    ts_crowd f;
    REQUIRE(ts_crowd_make(&f, 40, 0, 8));
    const int skins = ossa_crowd_skin_joint_count(f.crowd);
    const size_t bytes = sizeof(ossa_mat34) * (size_t)skins;
    ts_rng r = ts_rng_make(21);
    ossa_entity e[40];
    for (int i = 0; i < 40; ++i) {
        ossa_character_desc d = ts_crowd_random_character(&r, 0);
        d.inactive = 0;
        d.skinned = i % 5 == 0; /* 8 of them */
        REQUIRE(ossa_crowd_spawn(f.crowd, &d, &e[i]) == OSSA_OK);
    }
    REQUIRE(ts_crowd_frame(&f, 1.0f / 30.0f, 1) == OSSA_OK);
    CHECK_INT(ossa_crowd_skinned_count(f.crowd), 8);
    unsigned char *copy = malloc(bytes * 40);
    for (int i = 0; i < 40; i += 5) {
        REQUIRE(ossa_crowd_palette(f.crowd, e[i]) != NULL);
        memcpy(copy + bytes * (size_t)i, ossa_crowd_palette(f.crowd, e[i]), bytes);
    }
    /* others leave the skinned slots: every remaining palette moves along */
    REQUIRE(ossa_crowd_set_skinned(f.crowd, e[0], false) == OSSA_OK);
    REQUIRE(ossa_crowd_set_active(f.crowd, e[10], false) == OSSA_OK);
    REQUIRE(ossa_crowd_despawn(f.crowd, e[20]) == OSSA_OK);
    CHECK_INT(ossa_crowd_skinned_count(f.crowd), 5);
    CHECK(ossa_crowd_palette(f.crowd, e[0]) == NULL);
    CHECK(ossa_crowd_palette(f.crowd, e[10]) == NULL);
    for (int i = 5; i < 40; i += 5)
        if (i != 10 && i != 20) {
            const ossa_mat34 *p = ossa_crowd_palette(f.crowd, e[i]);
            REQUIRE(p != NULL);
            CHECK(memcmp(p, copy + bytes * (size_t)i, bytes) == 0);
        }
    /* newcomers have none until they are updated */
    REQUIRE(ossa_crowd_set_skinned(f.crowd, e[1], true) == OSSA_OK);
    REQUIRE(ossa_crowd_set_active(f.crowd, e[10], true) == OSSA_OK);
    CHECK(ossa_crowd_palette(f.crowd, e[1]) == NULL);
    CHECK(ossa_crowd_palette(f.crowd, e[10]) == NULL);
    REQUIRE(ts_crowd_frame(&f, 1.0f / 30.0f, 1) == OSSA_OK);
    CHECK(ossa_crowd_palette(f.crowd, e[1]) != NULL);
    CHECK(ossa_crowd_palette(f.crowd, e[10]) != NULL);
    free(copy);
    ts_crowd_free(&f);
}

/* ---- footfalls and dust ---- */

TEST(crowd_footfalls_are_where_reference_foot_heights_cross_the_contact_height)
{
    ts_crowd f;
    REQUIRE(ts_crowd_make(&f, 16, 0, -1));
    ossa_entity e[16];
    ts_rng r = ts_rng_make(3);
    double playhead[16];
    for (int i = 0; i < 16; ++i) {
        ossa_character_desc d = {0};
        d.clip_a = d.clip_b = 1 + i % 2; /* walk, run */
        d.time_s = (float)ts_uniform(&r, 0, 1);
        d.position = (ossa_float3){(float)i, 0.5f * (float)(i % 3), 0};
        d.yaw_rad = 0.3f * (float)i;
        REQUIRE(ossa_crowd_spawn(f.crowd, &d, &e[i]) == OSSA_OK);
        playhead[i] = d.time_s;
    }
    const int feet[2] = {ossa_skeleton_find_joint(f.dc.skeleton, "foot_l"),
                         ossa_skeleton_find_joint(f.dc.skeleton, "foot_r")};
    REQUIRE(feet[0] >= 0 && feet[1] >= 0);
    const float contact = f.crowd->foot_contact[0];
    CHECK(contact > 0.0f);
    /* each foot's height at every frame of walk and run, from reference
     * poses: the tracks footfalls are falling crossings of */
    float *heights[2][3];
    ossa_float_track tracks[2][3];
    for (int k = 0; k < 2; ++k)
        for (int c = 1; c < 3; ++c) {
            heights[k][c] = ts_crowd_foot_heights(&f, c, feet[k]);
            tracks[k][c] = (ossa_float_track){
                heights[k][c], ts_crowd_height_samples(f.clips[c]),
                ossa_clip_duration(f.clips[c])};
        }
    int expected = 0, total = 0, per_character[16] = {0};
    for (int frame = 0; frame < 90; ++frame) {
        REQUIRE(ts_crowd_frame(&f, 1.0f / 30.0f, 1) == OSSA_OK);
        int count;
        const ossa_footfall *ff = ossa_crowd_footfalls(f.crowd, &count);
        total += count;
        for (int i = 0; i < 16; ++i) {
            const double before = playhead[i];
            playhead[i] += 1.0 / 30.0;
            ossa_character_state st;
            REQUIRE(ossa_crowd_character(f.crowd, e[i], &st) == OSSA_OK);
            const ossa_mat34 *pose = ossa_crowd_pose(f.crowd, e[i]);
            REQUIRE(pose != NULL);
            for (int k = 0; k < 2; ++k) {
                const float from = (float)before, to = (float)playhead[i];
                ossa_track_event ev[4];
                int hits = 0;
                ossa_track_event_job job = {&tracks[k][st.clip_a], 1, NULL, 0, &from, &to, 1, 0, 0,
                                            contact, OSSA_EDGE_FALLING, ev, 4, &hits};
                REQUIRE(ossa_track_event_job_run(&job) == OSSA_OK);
                if (!hits)
                    continue;
                /* the crowd reports this one, at the foot */
                int found = 0;
                for (int x = 0; x < count; ++x)
                    if (ff[x].entity.index == e[i].index && ff[x].foot == k &&
                        fabsf(ff[x].position.x - pose[feet[k]].m[0][3]) < 1e-4f &&
                        fabsf(ff[x].position.z - pose[feet[k]].m[2][3]) < 1e-4f)
                        found = 1;
                CHECK(found);
                ++expected;
                per_character[i] += hits;
            }
            CHECK_INT(st.footfalls, per_character[i]);
        }
    }
    CHECK_INT(total, expected);
    /* walking and running for 3 s: every character steps with both feet */
    for (int i = 0; i < 16; ++i)
        CHECK(per_character[i] >= 4);
    for (int k = 0; k < 2; ++k)
        for (int c = 1; c < 3; ++c)
            free(heights[k][c]);

    ossa_particles_desc pd = {0};
    pd.capacity = 1000;
    void *pm = ts_aligned(ossa_particles_size(&pd));
    ossa_particles *dust;
    REQUIRE(ossa_particles_init(&dust, pm, ossa_particles_size(&pd), &pd) == OSSA_OK);
    int count = 0;
    for (int frame = 0; count == 0 && frame < 60; ++frame) {
        REQUIRE(ts_crowd_frame(&f, 1.0f / 30.0f, 1) == OSSA_OK);
        ossa_crowd_footfalls(f.crowd, &count);
    }
    REQUIRE(count > 0);
    const ossa_footfall *ff = ossa_crowd_footfalls(f.crowd, &count);
    CHECK_INT(ossa_crowd_emit_dust(f.crowd, dust, 3, 0.5f), 3 * count);
    ossa_particle_view v = ossa_particles_view(dust);
    CHECK_INT(v.count, 3 * count);
    for (int i = 0; i < v.count; ++i)
        CHECK(v.x[i] == ff[i / 3].position.x && v.y[i] == ff[i / 3].position.y &&
              v.z[i] == ff[i / 3].position.z && v.vy[i] >= 0.0f);
    free(pm);
    ts_crowd_free(&f);
}

/* ---- threads ---- */

TEST(crowd_poses_palettes_and_footfalls_are_bit_identical_for_1_2_and_3_threads)
{
    enum { N = 300, FRAMES = 12, SPLITS = 4 };
    /* one call for all batches; 2 and 3 threads on uneven ranges; one
     * batch per call (the locomotion jobs then run per batch) */
    static const int threads[SPLITS] = {1, 2, 3, -1};
    ts_crowd f[SPLITS];
    for (int t = 0; t < SPLITS; ++t) {
        REQUIRE(ts_crowd_make(&f[t], N, 0, 0));
        ts_rng r = ts_rng_make(99); /* the same crowd in each */
        for (int i = 0; i < N; ++i) {
            ossa_character_desc d = ts_crowd_random_character(&r, 1);
            ossa_entity e;
            REQUIRE(ossa_crowd_spawn(f[t].crowd, &d, &e) == OSSA_OK);
        }
        for (int frame = 0; frame < FRAMES; ++frame)
            REQUIRE(ts_crowd_frame(&f[t], 1.0f / 30.0f, threads[t]) == OSSA_OK);
    }
    const size_t pose = sizeof(ossa_mat34) * OSSA_DEFAULT_JOINT_COUNT;
    const size_t palette = sizeof(ossa_mat34) * (size_t)ossa_crowd_skin_joint_count(f[0].crowd);
    CHECK(ossa_crowd_skinned_count(f[0].crowd) > 10);
    for (int t = 1; t < SPLITS; ++t) {
        CHECK_INT(ossa_crowd_count(f[t].crowd), N);
        int palettes = 0;
        for (int s = 0; s < N; ++s) {
            ossa_entity a = ossa_crowd_entity_at(f[0].crowd, s);
            ossa_entity b = ossa_crowd_entity_at(f[t].crowd, s);
            CHECK(a.index == b.index && a.generation == b.generation);
            const ossa_mat34 *pa = ossa_crowd_pose(f[0].crowd, a);
            const ossa_mat34 *pb = ossa_crowd_pose(f[t].crowd, b);
            CHECK((pa == NULL) == (pb == NULL));
            if (pa && pb)
                CHECK(memcmp(pa, pb, pose) == 0);
            pa = ossa_crowd_palette(f[0].crowd, a);
            pb = ossa_crowd_palette(f[t].crowd, b);
            CHECK((pa == NULL) == (pb == NULL));
            if (pa && pb)
                CHECK(memcmp(pa, pb, palette) == 0);
            palettes += pa != NULL;
        }
        CHECK_INT(palettes, ossa_crowd_skinned_count(f[0].crowd));
        int na, nb;
        const ossa_footfall *fa = ossa_crowd_footfalls(f[0].crowd, &na);
        const ossa_footfall *fb = ossa_crowd_footfalls(f[t].crowd, &nb);
        CHECK_INT(na, nb);
        CHECK(memcmp(fa, fb, sizeof *fa * (size_t)na) == 0);
    }
    for (int t = 0; t < SPLITS; ++t)
        ts_crowd_free(&f[t]);
}

/* ---- the stage hook ---- */

typedef struct hook_log {
    int calls;
    ossa_crowd_stage stages[4096];
} hook_log;

static void log_stage(void *user, ossa_crowd_stage stage)
{
    hook_log *log = user;
    if (log->calls < 4096)
        log->stages[log->calls] = stage;
    log->calls++;
}

TEST(crowd_stage_hook_sees_every_stage_of_every_batch_in_order)
{
    ts_crowd f;
    REQUIRE(ts_crowd_make(&f, 100, 4, 0));
    ts_rng r = ts_rng_make(4);
    for (int i = 0; i < 100; ++i) {
        ossa_character_desc d = ts_crowd_random_character(&r, 0);
        d.skinned = i < 10;
        d.inactive = d.inactive && !d.skinned;
        ossa_entity e;
        REQUIRE(ossa_crowd_spawn(f.crowd, &d, &e) == OSSA_OK);
    }
    static hook_log log;
    for (int frame = 0; frame < 4; ++frame) {
        log.calls = 0;
        ossa_crowd_set_stage_hook(f.crowd, log_stage, &log);
        REQUIRE(ts_crowd_frame(&f, 1.0f / 30.0f, 1) == OSSA_OK);
        const ossa_crowd_stats st = ossa_crowd_get_stats(f.crowd);
        REQUIRE(log.calls <= 4096);
        /* per batch: sample a, sample b, blend, l2m, pose out, [palette], done;
         * a palette for the batches holding the 10 skinned characters (3 of 4) */
        const int skinned_batches = (ossa_crowd_skinned_count(f.crowd) + 3) / 4;
        CHECK_INT(ossa_crowd_skinned_count(f.crowd), 10);
        CHECK_INT(log.calls, st.batches * 6 + skinned_batches);
        int at = 0, palettes = 0;
        for (int b = 0; b < st.batches && at < log.calls; ++b) {
            for (int k = OSSA_CROWD_STAGE_SAMPLE_A; k <= OSSA_CROWD_STAGE_POSE_OUT; ++k)
                CHECK_INT(log.stages[at++], k);
            if (log.stages[at] == OSSA_CROWD_STAGE_PALETTE) {
                CHECK(b < skinned_batches); /* skinned characters come first */
                ++palettes;
                ++at;
            }
            CHECK_INT(log.stages[at++], OSSA_CROWD_STAGE_DONE);
        }
        CHECK_INT(palettes, skinned_batches);
        ossa_crowd_set_stage_hook(f.crowd, NULL, NULL);
        const int before = log.calls;
        REQUIRE(ts_crowd_frame(&f, 1.0f / 30.0f, 1) == OSSA_OK);
        CHECK_INT(log.calls, before);
    }
    ts_crowd_free(&f);
}

UTEST_MAIN(crowd_poses_and_palettes_match_the_reference_jobs_for_every_character,
           crowd_palette_follows_its_character_and_waits_for_an_update,
           crowd_footfalls_are_where_reference_foot_heights_cross_the_contact_height,
           crowd_poses_palettes_and_footfalls_are_bit_identical_for_1_2_and_3_threads,
           crowd_stage_hook_sees_every_stage_of_every_batch_in_order)
