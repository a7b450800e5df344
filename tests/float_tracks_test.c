/* float_tracks_test.c - float tracks through the clip builder: baked at the
 * clip's frames as the source curves define them (LINEAR, STEP,
 * CUBICSPLINE, keys off the frame grid), read back by name, the reported
 * error equal to the largest difference found here at the source's keys
 * and between frames; bad tracks refused with a message naming them. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ossa/ossa.h"
#include "ossa/pipeline.h"
#include "test_support.h"
#include "utest.h"

/* OSSA_TEST_NEEDS_PIPELINE */

typedef struct fixture {
    ossa_skeleton *skeleton;
    ossa_raw_joint_track joint;
    ossa_raw_clip raw;
    float times[3];
    ossa_float3 t[3];
} fixture;

static int fixture_make(fixture *f)
{
    memset(f, 0, sizeof *f);
    const uint16_t parents[1] = {OSSA_NO_PARENT};
    const ossa_transform rest[1] = {ossa_transform_identity()};
    f->skeleton = ts_skeleton_make(parents, rest, 1);
    f->times[0] = 0.0f, f->times[1] = 0.5f, f->times[2] = 1.0f;
    f->joint.joint_name = "j0";
    f->joint.translation = (ossa_raw_track3){f->times, f->t, NULL, NULL, 3, OSSA_INTERP_LINEAR};
    f->raw = (ossa_raw_clip){"clip", 1.0f, &f->joint, 1};
    return f->skeleton != NULL;
}

TEST(float_tracks_bake_to_the_source_curves_at_the_frames)
{
    fixture f;
    REQUIRE(fixture_make(&f));
    const float lt[4] = {0.0f, 0.13f, 0.61f, 0.9f}, lv[4] = {0.0f, 2.0f, -1.0f, 0.5f};
    const float st[3] = {0.0f, 0.37f, 0.7f}, sv[3] = {1.0f, 3.0f, 2.0f};
    const float ct[3] = {0.1f, 0.45f, 1.0f}, cv[3] = {0.0f, 1.0f, 0.0f};
    const float cin[3] = {0.0f, -1.0f, 2.0f}, cout[3] = {3.0f, 1.0f, 0.0f};
    const ossa_raw_float_track tracks[3] = {
        {"weights[0]", lt, lv, NULL, NULL, 4, OSSA_INTERP_LINEAR},
        {"Bip01 Footsteps.ty", st, sv, NULL, NULL, 3, OSSA_INTERP_STEP},
        {"curve", ct, cv, cin, cout, 3, OSSA_INTERP_CUBICSPLINE}};
    ossa_clip_build_options o = {0};
    o.rate = 20.0f;
    o.float_tracks = tracks;
    o.float_track_count = 3;
    ossa_clip *clip = NULL;
    ossa_clip_build_report report;
    ossa_error e;
    REQUIRE(ossa_clip_build(&f.raw, f.skeleton, &o, &clip, &report, &e) == OSSA_OK);
    CHECK_INT(report.float_tracks, 3);
    CHECK_INT(ossa_clip_float_track_count(clip), 3);
    CHECK_INT(ossa_clip_find_float_track(clip, "Bip01 Footsteps.ty"), 1);
    CHECK_INT(ossa_clip_find_float_track(clip, "nope"), -1);
    CHECK(strcmp(ossa_clip_float_track_name(clip, 2), "curve") == 0);
    CHECK(ossa_clip_float_track_name(clip, 3) == NULL);
    double worst = 0.0, at_frames = 0.0;
    for (int k = 0; k < 3; ++k) {
        const ossa_float_track v = ossa_clip_float_track(clip, k);
        CHECK_INT(v.frame_count, ossa_clip_frame_count(clip));
        /* at every frame: the source's value there (a key's own value on a key) */
        for (int i = 0; i < v.frame_count; ++i) {
            const float t = (float)i / 20.0f;
            at_frames = fmax(at_frames, fabs(v.values[i] - ossa_raw_float_track_eval(&tracks[k], t)));
        }
        /* the error the builder reports: at keys and midway between frames */
        for (int i = 0; i < tracks[k].key_count; ++i)
            worst = fmax(worst, fabs(ossa_float_track_sample(&v, tracks[k].times_s[i]) -
                                     tracks[k].values[i]));
        for (int i = 0; i + 1 < v.frame_count; ++i) {
            const float t = ((float)i + 0.5f) / 20.0f;
            worst = fmax(worst, fabs(ossa_float_track_sample(&v, t) -
                                     ossa_raw_float_track_eval(&tracks[k], t)));
        }
    }
    CHECK(at_frames < 1e-6);
    CHECK_NEAR(report.max_float_track_error, worst, 1e-5);
    CHECK(worst > 0.01); /* the STEP at 0.37 s is off the grid: its error shows */
    ossa_clip_free(clip, NULL);
    ossa_skeleton_free(f.skeleton, NULL);
}

TEST(bad_float_tracks_are_refused_naming_them)
{
    fixture f;
    REQUIRE(fixture_make(&f));
    const float t[2] = {0.0f, 1.0f}, v[2] = {0.0f, 1.0f}, nan_v[2] = {0.0f, NAN};
    const float back[2] = {1.0f, 0.5f};
    struct {
        ossa_raw_float_track tracks[2];
        int count;
        ossa_result expect;
        const char *mention;
    } cases[] = {
        {{{NULL, t, v, NULL, NULL, 2, OSSA_INTERP_LINEAR}}, 1, OSSA_ERR_BAD_ARGUMENT, "no name"},
        {{{"", t, v, NULL, NULL, 2, OSSA_INTERP_LINEAR}}, 1, OSSA_ERR_BAD_ARGUMENT, "no name"},
        {{{"w", t, v, NULL, NULL, 2, OSSA_INTERP_LINEAR}, {"w", t, v, NULL, NULL, 2, OSSA_INTERP_LINEAR}},
         2, OSSA_ERR_BAD_ARGUMENT, "two float tracks are named 'w'"},
        {{{"w", t, nan_v, NULL, NULL, 2, OSSA_INTERP_LINEAR}}, 1, OSSA_ERR_CLIP_BAD_KEYS, "'w' key 1"},
        {{{"w", back, v, NULL, NULL, 2, OSSA_INTERP_LINEAR}}, 1, OSSA_ERR_CLIP_BAD_KEYS, "'w' key 1"},
        {{{"w", t, v, NULL, NULL, 0, OSSA_INTERP_LINEAR}}, 1, OSSA_ERR_CLIP_BAD_KEYS, "no keys"},
        {{{"w", t, v, NULL, NULL, 2, OSSA_INTERP_CUBICSPLINE}}, 1, OSSA_ERR_MISSING_INPUT, "tangents"},
        {{{"w", t, v, NULL, NULL, 2, (ossa_interpolation)9}}, 1, OSSA_ERR_BAD_ARGUMENT, "interpolation"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        ossa_clip_build_options o = {0};
        o.float_tracks = cases[i].tracks;
        o.float_track_count = cases[i].count;
        ossa_clip *clip = NULL;
        ossa_error e;
        const ossa_result r = ossa_clip_build(&f.raw, f.skeleton, &o, &clip, NULL, &e);
        if (r != cases[i].expect || !strstr(e.message, cases[i].mention))
            fprintf(stderr, "case %zu: %s: %s\n", i, ossa_result_name(r), e.message);
        CHECK(r == cases[i].expect && strstr(e.message, cases[i].mention) && clip == NULL);
    }
    ossa_clip_build_options o = {0};
    o.float_track_count = 1;
    ossa_clip *clip = NULL;
    ossa_error e;
    CHECK_RESULT(ossa_clip_build(&f.raw, f.skeleton, &o, &clip, NULL, &e), OSSA_ERR_MISSING_INPUT);
    ossa_skeleton_free(f.skeleton, NULL);
}

UTEST_MAIN(float_tracks_bake_to_the_source_curves_at_the_frames,
           bad_float_tracks_are_refused_naming_them)
