/* render_motion_test.c - `ossa render` and `ossa view` with root motion:
 * the scene the tools pose (render_scene, render_motion) carries a runner
 * over the ground - the default character's run, and pab's run built from
 * the FBX files - and with the camera following it, every skinned vertex,
 * posed here by the reference jobs at the same times, projects inside the
 * picture over several loops; the runner has covered ground its clip's own
 * motion says. The prop's socket is the hand's transform times its offset.
 * Needs no GL. */
#define _POSIX_C_SOURCE 200809L
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render_motion.h"
#include "render_scene.h"
#include "render_support.h"
#include "scene_pose_support.h"
#include "test_support.h"
#include "tool_run.h"
#include "utest.h"

/* OSSA_TEST_NEEDS_PIPELINE OSSA_TEST_NEEDS_RENDER */

/* Runs the scene's character 0 on `clip` for three loops: in the picture at
 * every time, and as far as the clip's motion says. */
static void check_runner(const char *path, const char *clip_name)
{
    render_scene s;
    char err[512];
    REQUIRE(render_scene_open(&s, path, err, sizeof err));
    const int clip = render_scene_find_clip(&s, clip_name);
    REQUIRE(clip >= 0);
    REQUIRE(ossa_clip_has_root_motion(s.clips[clip]));
    REQUIRE(render_scene_populate(&s, 1, clip, RENDER_POSE_ANIMATED, err, sizeof err));
    const ossa_mat34 start = s.placements[0];
    const int width = 640, height = 480;
    const ossa_render_camera base =
        render_scene_camera(&s, (float)width / (float)height, 0.52f, 0.44f);
    float *stream = ts_aligned(s.stream_bytes);
    const size_t floats = (size_t)ossa_mesh_skinned_stride(s.mesh) / sizeof(float);
    const float duration = ossa_clip_duration(s.clips[clip]);
    int outside = 0, frames = 0;
    for (float t = 0.0f; t < 3.0f * duration; t += duration / 17.0f, ++frames) {
        REQUIRE(render_scene_pose(&s, t) == OSSA_OK);
        const ossa_render_camera camera = render_motion_follow(&s, base);
        pose_vertices(&s, s.clips[clip], s.time_s[0], false, stream);
        for (int v = 0; v < s.vertices; ++v) {
            const float *p = stream + (size_t)v * floats;
            const ossa_float3 w =
                ossa_mat34_transform_point(&s.placements[0], (ossa_float3){p[0], p[1], p[2]});
            const double world[3] = {w.x, w.y, w.z};
            double x, y;
            ts_project(&camera, width, height, world, &x, &y);
            outside += !(x >= 0 && x <= width && y >= 0 && y <= height);
        }
    }
    CHECK_INT(outside, 0);
    /* where it got to: the clip's own motion from its phase over the time */
    const ossa_root_motion m =
        ossa_clip_root_motion_at(s.clips[clip], 0.0f); /* no motion at 0 */
    CHECK(m.x == 0.0f && m.z == 0.0f);
    const ossa_root_motion loop = ossa_clip_loop_motion(s.clips[clip]);
    REQUIRE(render_scene_pose(&s, 3.0f * duration) == OSSA_OK);
    const double moved = hypot(s.placements[0].m[0][3] - start.m[0][3],
                               s.placements[0].m[2][3] - start.m[2][3]);
    CHECK_NEAR(moved, 3.0 * hypot(loop.x, loop.z), 1e-3 * (1.0 + moved));
    CHECK(moved > 0.0);
    fprintf(stderr, "%s %s: %d frames over 3 loops in the picture, %.2f units run\n",
            path ? path : "default", clip_name, frames, moved);
    free(stream);
    render_scene_close(&s);
}

TEST(default_character_runs_across_the_ground_and_stays_in_the_picture)
{
    check_runner(NULL, "run");
    check_runner(NULL, "walk");
}

TEST(pab_run_stays_in_the_picture)
{
    const char *files[4] = {"pab/arnaud.fbx", "pab/run.fbx"};
    char paths[2][512];
    for (int i = 0; i < 2; ++i) {
        const char *p = ts_model_path(files[i]);
        if (!p)
            SKIP("pab models not found (set OSSA_MODELS or add ../shared/models)");
        snprintf(paths[i], sizeof paths[i], "%s", p);
    }
    char blob[512];
    snprintf(blob, sizeof blob, "%s/arnaud_run.ossa", ts_temp_dir());
    const char *argv[] = {OSSA_TEST_TOOL, "build", paths[0], paths[1], "-o", blob, NULL};
    ts_run_result r;
    ts_run(argv, NULL, NULL, NULL, &r);
    if (r.status != 0 && strstr(r.err, "importer"))
        SKIP("this ossa has no importer");
    REQUIRE(r.status == 0);
    check_runner(blob, "run");
}

TEST(in_place_scenes_do_not_move)
{
    render_scene s;
    char err[512];
    REQUIRE(render_scene_open(&s, NULL, err, sizeof err));
    s.in_place = true;
    REQUIRE(render_scene_populate(&s, 4, render_scene_find_clip(&s, "run"), RENDER_POSE_ANIMATED,
                                  err, sizeof err));
    ossa_mat34 start[4];
    memcpy(start, s.placements, sizeof start);
    REQUIRE(render_scene_pose(&s, 1.7f) == OSSA_OK);
    CHECK(memcmp(start, s.placements, sizeof start) == 0);
    CHECK(s.follow.x == 0.0f && s.follow.z == 0.0f);
    render_scene_close(&s);
}

UTEST_MAIN(default_character_runs_across_the_ground_and_stays_in_the_picture,
           pab_run_stays_in_the_picture, in_place_scenes_do_not_move)
