/* clip_tracks_test.c - ossa_clip_get_tracks against clips whose tracks the
 * test designs itself: which joints move, hold one value off the rest pose,
 * stay at it, step, or turn more than half a turn from it (so that a
 * compressed clip must store w); the counts must be the design's, for the
 * compressed clip and for the raw one built from the same curves. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "clip_builder_test_support.h"
#include "ossa/ossa.h"
#include "ossa/pipeline.h"
#include "test_support.h"
#include "utest.h"

/* OSSA_TEST_NEEDS_PIPELINE */

#define JOINTS 20 /* two chunks of 16: the counts cross a chunk */

/* What the test gives each joint's tracks. */
enum { REST, CONSTANT, MOVING, STEPPED, HALF_TURN };

typedef struct design {
    int kind[JOINTS][3]; /* per joint and track (translation, rotation, scale) */
} design;

static design design_make(void)
{
    design d;
    for (int j = 0; j < JOINTS; ++j) {
        d.kind[j][OSSA_TRACK_TRANSLATION] = j == 0 ? MOVING : j < 5 ? CONSTANT : REST;
        d.kind[j][OSSA_TRACK_ROTATION] = j == 3 ? STEPPED : j == 17 ? HALF_TURN
                                         : j % 3 == 0 ? MOVING
                                         : j % 3 == 1 ? CONSTANT
                                                      : REST;
        d.kind[j][OSSA_TRACK_SCALE] = j == 18 ? MOVING : j == 19 ? CONSTANT : REST;
    }
    return d;
}

/* Two keys per curve, one second apart: the design's values, off the rest
 * pose by far more than the compressor's tolerance. */
typedef struct curves {
    float times[2];
    ossa_float3 v3[JOINTS][2][2]; /* translation, scale */
    ossa_quat q[JOINTS][2];
    ossa_raw_joint_track tracks[JOINTS];
} curves;

static void curves_make(curves *c, const design *d, const ossa_skeleton *sk)
{
    const ossa_transform *rest = ossa_skeleton_rest_pose(sk);
    c->times[0] = 0.0f;
    c->times[1] = 1.0f;
    const ossa_float3 axis = {0.48f, 0.6f, 0.64f};
    for (int j = 0; j < JOINTS; ++j) {
        ossa_raw_joint_track *t = &c->tracks[j];
        t->joint_name = ossa_skeleton_joint_name(sk, j);
        for (int s = 0; s < 2; ++s) {
            const int k = s ? OSSA_TRACK_SCALE : OSSA_TRACK_TRANSLATION;
            const ossa_float3 base = s ? rest[j].scale : rest[j].translation;
            for (int key = 0; key < 2; ++key) {
                const float off = d->kind[j][k] == MOVING ? 0.5f * (float)key : 0.5f;
                c->v3[j][s][key] = (ossa_float3){base.x + off, base.y - off, base.z + 0.5f * off};
            }
            const ossa_raw_track3 tr = {c->times, c->v3[j][s], NULL, NULL,
                                        d->kind[j][k] == REST       ? 0
                                        : d->kind[j][k] == CONSTANT ? 1
                                                                    : 2,
                                        OSSA_INTERP_LINEAR};
            if (s)
                t->scale = tr;
            else
                t->translation = tr;
        }
        const int kr = d->kind[j][OSSA_TRACK_ROTATION];
        for (int key = 0; key < 2; ++key) {
            /* relative to the rest rotation: 1 rad still, up to 1 rad
             * moving, 2.8 rad (160 degrees, w of the delta 0.17) half a turn */
            const float angle = kr == CONSTANT ? 1.0f : kr == HALF_TURN ? 2.8f * (float)key
                                                                        : 1.0f * (float)key;
            c->q[j][key] = ossa_quat_normalize(
                ossa_quat_mul(rest[j].rotation, ossa_quat_from_axis_angle(axis, angle)));
        }
        t->rotation = (ossa_raw_track_quat){c->times, c->q[j], NULL, NULL,
                                            kr == REST ? 0 : kr == CONSTANT ? 1 : 2,
                                            kr == STEPPED ? OSSA_INTERP_STEP : OSSA_INTERP_LINEAR};
    }
}

static int count(const design *d, int track, int kind)
{
    int n = 0;
    for (int j = 0; j < JOINTS; ++j)
        n += d->kind[j][track] == kind;
    return n;
}

/* A shallow tree of unit-scale joints (each joint i > 0 under (i - 1) / 4):
 * short levers, so that a track the test holds still is still to the
 * compressor too (a deep chain of scaled joints magnifies float rounding
 * into motion past the tolerance). */
static ossa_skeleton *tree(void)
{
    uint16_t parents[JOINTS];
    ossa_transform rest[JOINTS];
    ts_rng r = ts_rng_make(77);
    for (int i = 0; i < JOINTS; ++i) {
        parents[i] = i == 0 ? OSSA_NO_PARENT : (uint16_t)((i - 1) / 4);
        rest[i] = ts_transform(&r, TS_SCALE_ONE);
    }
    return ts_skeleton_make(parents, rest, JOINTS);
}

/* The designed clip, built raw or compressed, with what it was built from. */
typedef struct fixture {
    ossa_skeleton *sk;
    design d;
    curves *c;
    ossa_clip *clip;
} fixture;

static void fixture_free(fixture *f)
{
    ossa_clip_free(f->clip, NULL);
    free(f->c);
    ossa_skeleton_free(f->sk, NULL);
}

/* Builds the designed clip into f->clip; false (and all freed) when any step fails. */
static bool fixture_make(fixture *f, bool raw)
{
    memset(f, 0, sizeof *f);
    f->sk = tree();
    f->d = design_make();
    f->c = malloc(sizeof *f->c);
    if (f->sk && f->c) {
        curves_make(f->c, &f->d, f->sk);
        ossa_raw_clip clip = {"designed", 0.0f, f->c->tracks, JOINTS};
        ossa_clip_build_options o = {0};
        o.raw = raw;
        ossa_error e;
        if (ossa_clip_build(&clip, f->sk, &o, &f->clip, NULL, &e) != OSSA_OK)
            fprintf(stderr, "  build: %s\n", e.message);
    }
    if (!f->clip)
        fixture_free(f);
    return f->clip != NULL;
}

TEST(compressed_clip_tracks_are_the_ones_the_test_designed)
{
    fixture f;
    REQUIRE(fixture_make(&f, false));
    REQUIRE(ossa_clip_is_compressed(f.clip));
    const design *d = &f.d;
    ossa_clip_tracks t;
    CHECK(ossa_clip_get_tracks(f.clip, &t));
    int values = 0;
    for (int k = 0; k < OSSA_TRACK_KINDS; ++k) {
        const int moving = count(d, k, MOVING) + count(d, k, STEPPED) + count(d, k, HALF_TURN);
        CHECK_INT(t.animated[k], moving);
        CHECK_INT(t.constant[k], count(d, k, CONSTANT));
        CHECK_INT(t.rest[k], count(d, k, REST));
        CHECK_INT(t.stepped[k], count(d, k, STEPPED));
        values += 3 * moving;
    }
    CHECK_INT(t.full_rotations, count(d, OSSA_TRACK_ROTATION, HALF_TURN));
    values += t.full_rotations;
    CHECK_INT(t.values, values);
    /* every value takes 0..23 bits; the segments cover the frames */
    CHECK(t.bits_per_frame >= 0.0 && t.bits_per_frame <= 23.0 * values);
    const int frames = ossa_clip_frame_count(f.clip);
    CHECK(t.segment_frames >= 1 && t.segment_frames <= frames);
    CHECK_INT(t.segments, (frames + t.segment_frames - 1) / t.segment_frames);
    fixture_free(&f);
}

TEST(raw_clips_count_every_track_animated_at_32_bits_a_value)
{
    fixture f;
    REQUIRE(fixture_make(&f, true));
    REQUIRE(!ossa_clip_is_compressed(f.clip));
    ossa_clip_tracks t;
    CHECK(ossa_clip_get_tracks(f.clip, &t));
    for (int k = 0; k < OSSA_TRACK_KINDS; ++k) {
        CHECK_INT(t.animated[k], JOINTS);
        CHECK_INT(t.constant[k], 0);
        CHECK_INT(t.rest[k], 0);
        CHECK_INT(t.stepped[k], count(&f.d, k, STEPPED));
    }
    CHECK_INT(t.full_rotations, 0);
    CHECK_INT(t.values, 10 * JOINTS);
    CHECK(t.bits_per_frame == 320.0 * JOINTS);
    CHECK_INT(t.segments, 1);
    CHECK_INT(t.segment_frames, ossa_clip_frame_count(f.clip));
    fixture_free(&f);
}

TEST(no_clip_or_no_output_is_refused)
{
    ossa_clip_tracks t;
    memset(&t, 0, sizeof t);
    t.animated[0] = 7;
    CHECK(!ossa_clip_get_tracks(NULL, &t));
    CHECK_INT(t.animated[0], 7); /* left alone */
    fixture f;
    REQUIRE(fixture_make(&f, false));
    CHECK(!ossa_clip_get_tracks(f.clip, NULL));
    fixture_free(&f);
}

UTEST_MAIN(compressed_clip_tracks_are_the_ones_the_test_designed,
           raw_clips_count_every_track_animated_at_32_bits_a_value,
           no_clip_or_no_output_is_refused)
