/* default_mesh_test.c - the default character's body: seed 002's size and
 * influence mix, sound geometry (outward normals, unit frames, uvs in the
 * atlas), and skinning in the rest pose reproduces it. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ossa/ossa.h"
#include "ossa/pipeline.h"
#include "test_support.h"
#include "utest.h"

/* OSSA_TEST_NEEDS_PIPELINE */

static const float *vertex(const ossa_mesh *m, int v)
{
    return ossa_mesh_bind_stream(m) + (size_t)v * 12;
}

TEST(default_mesh_has_the_seed_character_size_and_influence_mix)
{
    ossa_default_character c;
    ossa_error e;
    REQUIRE(ossa_default_character_build(&c, NULL, &e) == OSSA_OK);
    const ossa_mesh *m = c.mesh;
    REQUIRE(m != NULL);
    const int n = ossa_mesh_vertex_count(m);
    CHECK(ossa_mesh_triangle_count(m) >= 4500 && ossa_mesh_triangle_count(m) <= 5500);
    int counts[4];
    ossa_mesh_influence_counts(m, counts);
    /* seed 002: 25% one, 20% two, 25% three, 30% four influences */
    const double seed[4] = {25, 20, 25, 30};
    for (int k = 0; k < 4; ++k) {
        const double percent = 100.0 * counts[k] / n;
        CHECK_NEAR(percent, seed[k], 3.0);
    }
    CHECK(ossa_mesh_has_tangents(m));
    CHECK(ossa_mesh_uvs(m) != NULL);
    /* Skin joints: a subset of the skeleton (no IK targets or sockets). */
    const int skins = ossa_mesh_skin_joint_count(m);
    CHECK(skins > 40 && skins < OSSA_DEFAULT_JOINT_COUNT);
    for (int k = 0; k < skins; ++k) {
        const char *name = ossa_skeleton_joint_name(c.skeleton, ossa_mesh_skin_joints(m)[k]);
        CHECK(strncmp(name, "ik_", 3) != 0 && strncmp(name, "weapon", 6) != 0);
    }
    ossa_default_character_free(&c, NULL);
}

TEST(default_mesh_geometry_is_sound)
{
    ossa_default_character c;
    ossa_error e;
    REQUIRE(ossa_default_character_build(&c, NULL, &e) == OSSA_OK);
    const ossa_mesh *m = c.mesh;
    const int n = ossa_mesh_vertex_count(m), t = ossa_mesh_triangle_count(m);
    int bad_frames = 0;
    float lo[3] = {1e9f, 1e9f, 1e9f}, hi[3] = {-1e9f, -1e9f, -1e9f};
    for (int v = 0; v < n; ++v) {
        const float *x = vertex(m, v);
        const double nl = sqrt(x[4] * x[4] + x[5] * x[5] + x[6] * x[6]);
        const double tl = sqrt(x[8] * x[8] + x[9] * x[9] + x[10] * x[10]);
        const double nt = x[4] * x[8] + x[5] * x[9] + x[6] * x[10];
        bad_frames += fabs(nl - 1) > 1e-5 || fabs(tl - 1) > 1e-5 || fabs(nt) > 1e-4;
        for (int k = 0; k < 3; ++k) {
            lo[k] = x[k] < lo[k] ? x[k] : lo[k];
            hi[k] = x[k] > hi[k] ? x[k] : hi[k];
        }
        const float *uv = ossa_mesh_uvs(m) + 2 * v;
        CHECK(uv[0] >= 0.0f && uv[0] <= 1.0f && uv[1] >= 0.0f && uv[1] <= 1.0f);
    }
    CHECK_INT(bad_frames, 0);
    /* 1.8 units tall, standing on y = 0, arms out in a T. */
    CHECK_NEAR(hi[1] - lo[1], 1.8, 0.1);
    CHECK_NEAR(lo[1], 0.0, 0.03);
    CHECK(hi[0] - lo[0] > 1.5);
    /* Counter-clockwise triangles seen from outside: the face normal agrees
     * with the vertex normals (caps' pole fans may be slightly off). */
    const uint32_t *ix = ossa_mesh_indices(m);
    int inward = 0;
    for (int i = 0; i < t; ++i) {
        const float *a = vertex(m, (int)ix[3 * i]), *b = vertex(m, (int)ix[3 * i + 1]);
        const float *d = vertex(m, (int)ix[3 * i + 2]);
        const double e1[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
        const double e2[3] = {d[0] - a[0], d[1] - a[1], d[2] - a[2]};
        const double f[3] = {e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2],
                             e1[0] * e2[1] - e1[1] * e2[0]};
        const double s = f[0] * (a[4] + b[4] + d[4]) + f[1] * (a[5] + b[5] + d[5]) +
                         f[2] * (a[6] + b[6] + d[6]);
        inward += !(s > 0.0);
    }
    CHECK_INT(inward, 0);
    ossa_default_character_free(&c, NULL);
}

TEST(default_mesh_in_the_rest_pose_skins_to_itself)
{
    ossa_default_character c;
    ossa_error e;
    REQUIRE(ossa_default_character_build(&c, NULL, &e) == OSSA_OK);
    const ossa_mesh *m = c.mesh;
    const int joints = ossa_skeleton_joint_count(c.skeleton), skins = ossa_mesh_skin_joint_count(m);
    ossa_mat34 *model = ts_aligned(sizeof(ossa_mat34) * (size_t)joints);
    ossa_mat34 *palette = ts_aligned(sizeof(ossa_mat34) * (size_t)skins);
    ossa_local_to_model_job l2m = {0};
    l2m.parents = ossa_skeleton_parents(c.skeleton);
    l2m.joint_count = joints;
    l2m.local = ossa_skeleton_rest_pose(c.skeleton);
    l2m.local_count = joints;
    l2m.character_count = 1;
    l2m.model = model;
    l2m.model_count = joints;
    REQUIRE(ossa_local_to_model_job_run(&l2m) == OSSA_OK);
    ossa_palette_job pal = {0};
    pal.model = model;
    pal.model_count = joints;
    pal.joint_count = joints;
    pal.skin_joint = ossa_mesh_skin_joints(m);
    pal.inverse_bind = ossa_mesh_inverse_binds(m);
    pal.skin_joint_count = skins;
    pal.character_count = 1;
    pal.palette = palette;
    pal.palette_count = skins;
    REQUIRE(ossa_palette_job_run(&pal) == OSSA_OK);
    const int n = ossa_mesh_vertex_count(m);
    float *out = ts_aligned((size_t)n * 48);
    ossa_skinning_job job = {0};
    job.mesh = m;
    job.palette = palette;
    job.palette_count = skins;
    job.output = out;
    job.output_bytes = (size_t)n * 48;
    REQUIRE(ossa_skinning_job_run(&job) == OSSA_OK);
    double worst = 0;
    for (int i = 0; i < n * 12; ++i) {
        const double d = fabs((double)out[i] - ossa_mesh_bind_stream(m)[i]);
        worst = d > worst ? d : worst;
    }
    CHECK(worst < 1e-5);
    free(out);
    free(palette);
    free(model);
    ossa_default_character_free(&c, NULL);
}

TEST(default_character_fails_cleanly_when_memory_runs_out)
{
    int failures = 0;
    for (int n = 0;; ++n) {
        ts_failing_allocator a;
        ts_failing_allocator_init(&a, n);
        ossa_default_character c;
        ossa_error e;
        const ossa_result r = ossa_default_character_build(&c, &a.allocator, &e);
        if (r == OSSA_OK) {
            CHECK(c.mesh != NULL);
            ossa_default_character_free(&c, &a.allocator);
            CHECK_INT(a.live, 0);
            break;
        }
        CHECK_RESULT(r, OSSA_ERR_OUT_OF_MEMORY);
        CHECK(c.mesh == NULL && c.skeleton == NULL);
        CHECK_INT(a.live, 0);
        ++failures;
        REQUIRE(n < 1000);
    }
    CHECK(failures > 10);
}

UTEST_MAIN(default_mesh_has_the_seed_character_size_and_influence_mix,
           default_mesh_geometry_is_sound, default_mesh_in_the_rest_pose_skins_to_itself,
           default_character_fails_cleanly_when_memory_runs_out)
