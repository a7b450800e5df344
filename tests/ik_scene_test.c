/* ik_scene_test.c - `ossa render` and `ossa view`'s scene (render_scene.c,
 * scene_ik.c) on its hills: every character placed on the ground, each foot
 * planted at its animated height above the ground below it - checked
 * against the animation posed here by the reference jobs, without IK. No GL
 * needed: the scene's poses only. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "render_scene.h"
#include "test_support.h"
#include "utest.h"

/* OSSA_TEST_NEEDS_PIPELINE OSSA_TEST_NEEDS_RENDER */

/* Model-space positions after two float hierarchy walks, a few units from
 * the origin. */
#define POSITION_TOLERANCE 2e-4

TEST(scene_characters_stand_on_the_hills_with_their_feet_planted)
{
    render_scene s;
    char err[256];
    REQUIRE(render_scene_open(&s, NULL, err, sizeof err));
    enum { N = 16 };
    REQUIRE(render_scene_populate(&s, N, RENDER_SCENE_MIXED, RENDER_POSE_ANIMATED, err, sizeof err));
    REQUIRE(s.ik.on);
    const float time_s = 0.73f;
    REQUIRE(render_scene_pose(&s, time_s) == OSSA_OK);
    /* the animation without IK, through the reference jobs */
    const int joints = s.joints;
    ossa_transform *local = malloc(sizeof *local * (size_t)N * (size_t)joints);
    ossa_mat34 *model = malloc(sizeof *model * (size_t)N * (size_t)joints);
    ossa_sampling_job sample = {0};
    sample.clips = s.clips;
    sample.clip_count = s.clip_count;
    sample.clip_index = s.clip_index;
    sample.clip_index_count = N;
    sample.time_s = s.time_s;
    sample.character_count = N;
    sample.output = local;
    sample.output_count = N * joints;
    REQUIRE(ossa_sampling_job_run(&sample) == OSSA_OK);
    ossa_local_to_model_job l2m = {0};
    l2m.parents = ossa_skeleton_parents(s.skeleton);
    l2m.joint_count = joints;
    l2m.local = local;
    l2m.local_count = N * joints;
    l2m.character_count = N;
    l2m.model = model;
    l2m.model_count = N * joints;
    REQUIRE(ossa_local_to_model_job_run(&l2m) == OSSA_OK);
    const int feet[2] = {ossa_skeleton_find_joint(s.skeleton, "foot_l"),
                         ossa_skeleton_find_joint(s.skeleton, "foot_r")};
    double worst = 0, relief = 0;
    for (int i = 0; i < N; ++i) {
        const ossa_mat34 *p = &s.placements[i];
        CHECK_NEAR(p->m[1][3], ground_relief_height(&s.ik.relief, p->m[0][3], p->m[2][3]), 0.0);
        relief = fmax(relief, fabs(p->m[1][3]));
        for (int f = 0; f < 2; ++f) {
            const ossa_mat34 *got = &s.model[(size_t)i * (size_t)joints + (size_t)feet[f]];
            const ossa_mat34 *anim = &model[(size_t)i * (size_t)joints + (size_t)feet[f]];
            /* the placement turns about +y (root motion's) and translates */
            double x = p->m[0][3], z = p->m[2][3], gx = x, gz = z;
            for (int k = 0; k < 3; ++k) {
                x += (double)p->m[0][k] * anim->m[k][3];
                z += (double)p->m[2][k] * anim->m[k][3];
                gx += (double)p->m[0][k] * got->m[k][3];
                gz += (double)p->m[2][k] * got->m[k][3];
            }
            const double want_y =
                ground_relief_height(&s.ik.relief, (float)x, (float)z) + anim->m[1][3];
            const double dx = gx - x, dz = gz - z;
            const double dy = p->m[1][3] + got->m[1][3] - want_y;
            worst = fmax(worst, sqrt(dx * dx + dy * dy + dz * dz));
        }
    }
    CHECK(worst <= POSITION_TOLERANCE);
    CHECK(relief > 0.01); /* there are hills */
    free(local);
    free(model);
    render_scene_close(&s);
}

UTEST_MAIN(scene_characters_stand_on_the_hills_with_their_feet_planted)
