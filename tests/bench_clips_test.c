/* bench_clips_test.c - `ossa bench frame --clips N`'s clip library: N clips
 * of each kind, every one different bytes in its own memory; clip i of a
 * later round is the character's clip i mod k played from the documented
 * phase (checked against sampling that clip at the shifted time), its raw
 * and compressed kinds agree; the bytes a frame reads; the command runs. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bench.h"
#include "frame_library.h"
#include "ossa/ossa.h"
#include "utest.h"

/* OSSA_TEST_NEEDS_BENCH */

enum { COUNT = 7 };

static double phase_of(int round, float duration)
{
    double p = 0.6180339887498949 * round;
    return (p - floor(p)) * duration;
}

TEST(bench_clips_library_is_n_different_clips_played_from_their_phase)
{
    frame_character c;
    REQUIRE(frame_character_load(&c, NULL, 30));
    const int k = c.clip_count;
    REQUIRE(k == 3);
    frame_library lib;
    REQUIRE(frame_library_build(&lib, &c, COUNT));
    CHECK_INT(lib.count, COUNT);
    CHECK_INT(lib.base_count, k);
    const ossa_transform *rest = ossa_skeleton_rest_pose(c.skeleton);
    for (int kind = 0; kind < LIB_KINDS; ++kind) {
        REQUIRE(lib.view[kind].clip_count == COUNT);
        size_t bytes = 0;
        for (int i = 0; i < COUNT; ++i) {
            const ossa_clip *a = lib.view[kind].clips[i];
            CHECK(ossa_clip_is_compressed(a) == (kind == LIB_PACKED));
            CHECK(((uintptr_t)a & 63) == 0);
            bytes += ossa_clip_bytes(a);
            for (int j = 0; j < i; ++j) {
                const ossa_clip *b = lib.view[kind].clips[j];
                CHECK(a != b);
                CHECK(ossa_clip_bytes(a) != ossa_clip_bytes(b) ||
                      memcmp(a, b, ossa_clip_bytes(a)) != 0);
            }
        }
        CHECK(bytes == lib.bytes[kind]);
    }
    /* raw clip i at its frames == the raw base clip at frame time + phase
     * (the builder's keys are those samples); compressed clip i near raw
     * clip i (both built from the same keys) */
    double worst_t = 0.0, worst_dot = 1.0;
    int compared = 0;
    for (int i = k; i < COUNT; ++i) {
        const ossa_clip *v = lib.view[LIB_RAW].clips[i], *p = lib.view[LIB_PACKED].clips[i];
        const ossa_clip *base = lib.base[LIB_RAW][i % k];
        const float d = ossa_clip_duration(base);
        CHECK_INT(ossa_clip_frame_count(v), ossa_clip_frame_count(base));
        CHECK_NEAR(ossa_clip_duration(v), d, 1e-6);
        const int frames = ossa_clip_frame_count(v);
        for (int f = 0; f < frames; f += 3) {
            const float t = d * (float)f / (float)(frames - 1);
            const float shifted = ossa_clip_time(OSSA_WRAP_LOOP, d, t + (float)phase_of(i / k, d));
            for (int j = 0; j < c.joints; ++j) {
                const ossa_transform want =
                    ossa_clip_sample_joint(base, rest, j, shifted, OSSA_ROTATION_NLERP);
                const ossa_transform got =
                    ossa_clip_sample_joint(v, rest, j, t, OSSA_ROTATION_NLERP);
                const ossa_transform packed =
                    ossa_clip_sample_joint(p, rest, j, t, OSSA_ROTATION_NLERP);
                const float *w = &want.translation.x, *g = &got.translation.x,
                            *q = &packed.translation.x;
                for (int a = 0; a < 3; ++a) {
                    CHECK_NEAR(g[a], w[a], 1e-4 * (1.0 + fabs(w[a])));
                    const double e = fabs(q[a] - g[a]) / (1.0 + fabs(g[a]));
                    worst_t = e > worst_t ? e : worst_t;
                }
                const double dot = fabs(got.rotation.x * want.rotation.x +
                                        got.rotation.y * want.rotation.y +
                                        got.rotation.z * want.rotation.z +
                                        got.rotation.w * want.rotation.w);
                CHECK(dot > 1.0 - 1e-6);
                const double pdot = fabs(got.rotation.x * packed.rotation.x +
                                         got.rotation.y * packed.rotation.y +
                                         got.rotation.z * packed.rotation.z +
                                         got.rotation.w * packed.rotation.w);
                worst_dot = pdot < worst_dot ? pdot : worst_dot;
                ++compared;
            }
        }
    }
    CHECK(compared > 0);
    /* the compressed clip's bound is 0.1 mm at 3 cm in the model: a local
     * rotation within 2e-2 rad and a translation within 1e-3 are far looser */
    CHECK(worst_dot > cos(1e-2));
    CHECK(worst_t < 1e-3);

    /* what a frame reads: at most the clips' lines, at least a sample's
     * worth; a compressed sample reads less than a raw one */
    double per[LIB_KINDS];
    for (int kind = 0; kind < LIB_KINDS; ++kind) {
        frame_scene s;
        REQUIRE(frame_scene_init(&s, &lib.view[kind], 50, 0, 1, 8, OSSA_SIMD_AUTO,
                                 OSSA_SKIN_FORMAT_PACKED, FRAME_STAGED));
        const double touched = frame_library_touched(&s, &per[kind]);
        CHECK(per[kind] > 0.0);
        CHECK(touched >= per[kind]);
        CHECK(touched <= (double)lib.bytes[kind] + 64.0 * COUNT);
        frame_scene_fini(&s);
    }
    CHECK(per[LIB_PACKED] < per[LIB_RAW]);
    frame_library_free(&lib);
    frame_character_free(&c);
}

TEST(bench_clips_command_runs_and_prints_its_goals)
{
    /* --clips 3 has issue 10's sampling goals, --clips 5 none (a line says so) */
    char *argv[] = {"frame", "--synthetic", "30", "--clips", "3", "--characters", "40",
                    "--skinned", "4", "--frames", "2", "--warmup", "0", "--json"};
    CHECK_INT(bench_frame_main((int)(sizeof argv / sizeof argv[0]), argv), 0);
    char *five[] = {"frame", "--synthetic", "30", "--clips", "5", "--characters", "40",
                    "--skinned", "4", "--frames", "2", "--warmup", "0"};
    CHECK_INT(bench_frame_main((int)(sizeof five / sizeof five[0]), five), 0);
    char *list[] = {"frame", "--clips", "5", "--list-variants"};
    CHECK_INT(bench_frame_main(4, list), 0);
    char *bad[] = {"frame", "--clips", "0"};
    CHECK_INT(bench_frame_main(3, bad), 2);
}

UTEST_MAIN(bench_clips_library_is_n_different_clips_played_from_their_phase,
           bench_clips_command_runs_and_prints_its_goals)
