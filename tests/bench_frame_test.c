/* bench_frame_test.c - `ossa bench frame`'s scene: the lane path (staged and
 * fused) and the library's crowd frame give the same bytes on 1, 2 and 3
 * threads, the lanes agree with the reference jobs, and a blob with three
 * clips and a 3934-vertex tangent mesh (pab arnaud's shape) runs through
 * --model. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "frame_setup.h"
#include "ossa/ossa.h"
#include "test_support.h"
#include "utest.h"

/* OSSA_TEST_NEEDS_BENCH */

/* Lanes against the reference jobs (float, another summation order, FMA):
 * poses of characters a few units away and their palettes, relative to
 * 1 + |value|; skinned vertices relative to 1 + their largest coordinate. */
#define POSE_TOLERANCE 2e-5
#define VERTEX_TOLERANCE 2e-5

enum { CHARACTERS = 70, SKINNED = 21, FRAMES = 3 };

TEST(bench_frame_outputs_are_bit_identical_for_1_2_and_3_threads)
{
    frame_character c;
    REQUIRE(frame_character_load(&c, NULL, 30));
    REQUIRE(c.mesh != NULL);
    for (int f4 = 0; f4 < 2; ++f4) { /* packed vertices, then float4 */
        const ossa_skin_format format = f4 ? OSSA_SKIN_FORMAT_FLOAT4 : OSSA_SKIN_FORMAT_PACKED;
        uint64_t staged[3], fused[3], crowd[3];
        for (int t = 0; t < 3; ++t) {
            frame_scene s;
            REQUIRE(frame_scene_init(&s, &c, CHARACTERS, SKINNED, t + 1, 16, OSSA_SIMD_AUTO,
                                     format, FRAME_STAGED | FRAME_CROWD));
            CHECK_INT(s.skinned, SKINNED);
            frame_lanes_staged(&s);
            staged[t] = frame_lanes_checksum(&s);
            memset(s.pose_out, 0, sizeof(ossa_mat34) * CHARACTERS * (size_t)s.joints);
            memset(s.lane_streams, 0, SKINNED * s.stream_bytes);
            frame_lanes_fused(&s);
            fused[t] = frame_lanes_checksum(&s);
            for (int f = 0; f < FRAMES; ++f)
                frame_crowd(&s);
            CHECK_INT(s.runner.skinned, SKINNED);
            crowd[t] = frame_crowd_checksum(&s);
            CHECK_RESULT(frame_scene_result(&s), OSSA_OK);
            frame_scene_fini(&s);
        }
        for (int t = 1; t < 3; ++t) {
            CHECK(staged[t] == staged[0]);
            CHECK(fused[t] == fused[0]);
            CHECK(crowd[t] == crowd[0]);
        }
        /* fusing the stages per batch changes no bit */
        CHECK(fused[0] == staged[0]);
    }
    frame_character_free(&c);
}

/* The lanes (float4 or packed vertices) against the reference jobs (float4):
 * packed normals and tangents within the packing's half step. */
TEST(bench_frame_lanes_match_the_reference_jobs)
{
    frame_character c;
    REQUIRE(frame_character_load(&c, NULL, 0)); /* the default character and its mesh */
    for (int f4 = 0; f4 < 2; ++f4) {
        const ossa_skin_format format = f4 ? OSSA_SKIN_FORMAT_FLOAT4 : OSSA_SKIN_FORMAT_PACKED;
        frame_scene s;
        REQUIRE(frame_scene_init(&s, &c, CHARACTERS, SKINNED, 2, 0, OSSA_SIMD_AUTO, format,
                                 FRAME_STAGED | FRAME_REFERENCE | FRAME_CROWD));
        double poses, palettes, vertices;
        frame_scene_check(&s, &poses, &palettes, &vertices);
        CHECK_RESULT(frame_scene_result(&s), OSSA_OK);
        CHECK(poses <= POSE_TOLERANCE);
        CHECK(palettes <= POSE_TOLERANCE);
        CHECK(vertices <= VERTEX_TOLERANCE);
        /* and the skinned vertices are not trivially equal: they moved */
        const float *bind = ossa_mesh_bind_stream(s.mesh);
        const size_t bytes = ossa_skin_vertex_bytes(s.mesh, format);
        double moved = 0;
        for (int v = 0; v < s.vertices; ++v) {
            float x;
            memcpy(&x, s.lane_streams + (size_t)v * bytes, sizeof x);
            /* not fmax(): gcc 12 for aarch64 crashes vectorising that reduction */
            const double d = fabs((double)x - bind[(size_t)v * 12]);
            if (d > moved)
                moved = d;
        }
        CHECK(moved > 1e-3);
        frame_scene_fini(&s);
    }
    frame_character_free(&c);
}

TEST(bench_frame_runs_a_blob_with_three_clips_and_a_tangent_mesh)
{
    frame_character made;
    REQUIRE(frame_character_load(&made, NULL, 67)); /* pab arnaud's shape */
    char path[512];
    snprintf(path, sizeof path, "%s/bench_frame_test_arnaud.ossa", ts_temp_dir());
    FILE *f = fopen(path, "wb");
    REQUIRE(f != NULL);
    CHECK(fwrite(made.blob_data, 1, made.blob_bytes, f) == made.blob_bytes);
    fclose(f);
    frame_character_free(&made);

    frame_character c;
    REQUIRE(frame_character_load(&c, path, 0));
    CHECK_INT(c.joints, 67);
    CHECK_INT(c.clip_count, 3);
    REQUIRE(c.mesh != NULL);
    CHECK_INT(ossa_mesh_vertex_count(c.mesh), 3934);
    CHECK_INT(ossa_mesh_skin_joint_count(c.mesh), 53);
    CHECK(ossa_mesh_has_tangents(c.mesh));
    frame_character_free(&c);

    char *argv[] = {"frame",   "--model",   path,     "--characters", "40",   "--skinned",
                    "12",      "--frames",  "2",      "--warmup",     "0",    "--threads",
                    "2",       "--sweep",   "--sweep-max", "100",     "--json"};
    CHECK_INT(bench_frame_main((int)(sizeof argv / sizeof argv[0]), argv), 0);
    remove(path);
}

TEST(bench_frame_rejects_a_blob_it_cannot_use)
{
    char path[512];
    snprintf(path, sizeof path, "%s/bench_frame_test_garbage.ossa", ts_temp_dir());
    FILE *f = fopen(path, "wb");
    REQUIRE(f != NULL);
    fputs("not a blob", f);
    fclose(f);
    char *argv[] = {"frame", "--model", path, "--frames", "1"};
    CHECK_INT(bench_frame_main(5, argv), 1);
    char *missing[] = {"frame", "--model", "/nonexistent/x.ossa"};
    CHECK_INT(bench_frame_main(3, missing), 1);
    remove(path);
}

UTEST_MAIN(bench_frame_outputs_are_bit_identical_for_1_2_and_3_threads,
           bench_frame_lanes_match_the_reference_jobs,
           bench_frame_runs_a_blob_with_three_clips_and_a_tangent_mesh,
           bench_frame_rejects_a_blob_it_cannot_use)
