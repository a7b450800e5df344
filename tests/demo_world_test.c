/* demo_world_test.c - the world `ossa demo` animates: culling, update rates
 * and skinning follow the rules stated in demo_world.h (checked against the
 * rules computed here in double precision), the skinned vertices are the
 * bind pose skinned with each character's palette in world space, and
 * everything is bit-identical on 1, 2 and 3 threads. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "demo_world.h"
#include "ossa/pipeline.h"
#include "test_support.h"
#include "utest.h"

/* OSSA_TEST_NEEDS_TOOLS */

/* A character this close to a rule's boundary (radians, or a fraction of
 * the farthest distance) may fall either side in float. */
#define BOUNDARY 1e-4
/* Skinned vertices against double precision, relative to 1 + |coordinate|
 * (world coordinates up to ~40 units). */
#define VERTEX_TOLERANCE 2e-5

enum { CHARACTERS = 300, SKINNED = 30 };

static int make(demo_world *w, scene_character *c, int threads)
{
    if (!scene_character_load_default(c, "test"))
        return 0;
    demo_options o = {CHARACTERS, SKINNED, threads, 0.0f, OSSA_SKIN_FORMAT_PACKED};
    return demo_world_init(w, c, &o);
}

static double distance(ossa_float3 p, ossa_float3 eye)
{
    return sqrt(((double)p.x - eye.x) * ((double)p.x - eye.x) +
                ((double)p.z - eye.z) * ((double)p.z - eye.z));
}

TEST(demo_culls_what_the_camera_cannot_see_and_skins_the_nearest_visible)
{
    demo_world w;
    scene_character c;
    REQUIRE(make(&w, &c, 1));
    const demo_camera cam = w.camera;
    double far = 0;
    for (int i = 0; i < CHARACTERS; ++i)
        far = fmax(far, distance(w.position[i], cam.eye));
    int culled_seen = 0, checked = 0;
    for (int frame = 0; frame < 150; ++frame) {
        const double t = frame / 30.0;
        REQUIRE(demo_world_step(&w) == OSSA_OK);
        if (frame % 10 != 0)
            continue;
        const double yaw = cam.pan_rad * sin(2 * 3.14159265358979 * t / cam.period_s);
        CHECK_NEAR(w.yaw_rad, yaw, 1e-5);
        double skinned_far = 0, unskinned_near = 1e30;
        int skinned = 0, visible = 0;
        for (int i = 0; i < CHARACTERS; ++i) {
            const ossa_float3 p = w.position[i];
            const double d = distance(p, cam.eye);
            const double along = ((p.x - cam.eye.x) * sin(yaw) + (p.z - cam.eye.z) * cos(yaw)) / d;
            const double angle = acos(fmax(-1.0, fmin(1.0, along)));
            ossa_character_state st;
            REQUIRE(ossa_crowd_character(w.crowd, w.entity[i], &st) == OSSA_OK);
            /* update rate by distance */
            const double f = d / far;
            if (fabs(f - 0.5) > BOUNDARY && fabs(f - 0.75) > BOUNDARY)
                CHECK_INT(st.update_interval, f < 0.5 ? 1 : f < 0.75 ? 2 : 4);
            if (fabs(angle - cam.half_fov_rad) < BOUNDARY)
                continue;
            const bool sees = angle < cam.half_fov_rad;
            CHECK(st.active == sees);
            CHECK(!st.skinned || sees);
            visible += sees;
            culled_seen += !sees;
            skinned += st.skinned;
            if (st.skinned)
                skinned_far = fmax(skinned_far, d);
            else if (sees)
                unskinned_near = fmin(unskinned_near, d);
            ++checked;
        }
        /* the nearest visible ones, as many as asked for */
        CHECK_INT(skinned, visible < SKINNED ? visible : SKINNED);
        CHECK_INT(ossa_crowd_skinned_count(w.crowd), skinned);
        CHECK(skinned_far <= unskinned_near + 1e-4);
    }
    CHECK(culled_seen > 0);
    CHECK(checked > 0);
    demo_world_fini(&w);
    scene_character_free(&c);
}

TEST(demo_skinned_vertices_are_the_bind_pose_skinned_in_world_space)
{
    demo_world w;
    scene_character c;
    REQUIRE(make(&w, &c, 2));
    for (int frame = 0; frame < 20; ++frame)
        REQUIRE(demo_world_step(&w) == OSSA_OK);
    const demo_frame_view v = demo_world_view(&w);
    REQUIRE(v.skinned == SKINNED);
    REQUIRE(v.mesh == c.mesh);
    const int floats = ossa_mesh_skinned_stride(v.mesh) / 4;
    const float *bind = ossa_mesh_bind_stream(v.mesh);
    double worst = 0, farthest = 0;
    for (int s = 0; s < v.skinned; ++s) {
        const ossa_mat34 *palette = ossa_crowd_palette(w.crowd, ossa_crowd_entity_at(w.crowd, s));
        REQUIRE(palette != NULL);
        /* the position leads a vertex in either format (the demo's: packed) */
        const unsigned char *vertices = v.streams + (size_t)s * v.stream_stride;
        const size_t vertex_bytes = ossa_skin_vertex_bytes(v.mesh, v.format);
        for (int x = 0; x < ossa_mesh_vertex_count(v.mesh); x += 7) {
            float position[3];
            memcpy(position, vertices + (size_t)x * vertex_bytes, sizeof position);
            uint16_t joints[4];
            float weights[4];
            const int n = ossa_mesh_vertex_influences(v.mesh, x, joints, weights);
            const float *in = bind + (size_t)x * (size_t)floats;
            for (int r = 0; r < 3; ++r) {
                double p = 0;
                for (int k = 0; k < n; ++k) {
                    const ossa_mat34 *m = &palette[joints[k]];
                    p += weights[k] * ((double)m->m[r][0] * in[0] + (double)m->m[r][1] * in[1] +
                                       (double)m->m[r][2] * in[2] + m->m[r][3]);
                }
                const double got = position[r];
                worst = fmax(worst, fabs(got - p) / (1.0 + fabs(p)));
            }
            /* world space: next to the character's placement */
            const double dx = position[0] - v.placement[s].m[0][3];
            const double dz = position[2] - v.placement[s].m[2][3];
            farthest = fmax(farthest, sqrt(dx * dx + dz * dz));
        }
    }
    CHECK(worst <= VERTEX_TOLERANCE);
    CHECK(farthest < v.character_height);
    demo_world_fini(&w);
    scene_character_free(&c);
}

TEST(demo_world_is_bit_identical_for_1_2_and_3_threads)
{
    enum { FRAMES = 12 };
    demo_world w[3];
    scene_character c[3];
    for (int t = 0; t < 3; ++t) {
        REQUIRE(make(&w[t], &c[t], t + 1));
        for (int frame = 0; frame < FRAMES; ++frame)
            REQUIRE(demo_world_step(&w[t]) == OSSA_OK);
    }
    const size_t pose = sizeof(ossa_mat34) * (size_t)c[0].joints;
    for (int t = 1; t < 3; ++t) {
        const demo_frame_view a = demo_world_view(&w[0]), b = demo_world_view(&w[t]);
        REQUIRE(a.skinned == b.skinned && a.stream_stride == b.stream_stride);
        CHECK(memcmp(a.streams, b.streams, (size_t)a.skinned * a.stream_stride) == 0);
        CHECK(memcmp(a.placement, b.placement, sizeof(ossa_mat34) * (size_t)a.skinned) == 0);
        REQUIRE(a.dust.count == b.dust.count);
        CHECK(a.dust.count > 0);
        const size_t dust = sizeof(float) * (size_t)a.dust.count;
        CHECK(memcmp(a.dust.x, b.dust.x, dust) == 0 && memcmp(a.dust.y, b.dust.y, dust) == 0 &&
              memcmp(a.dust.z, b.dust.z, dust) == 0 && memcmp(a.dust.vy, b.dust.vy, dust) == 0);
        for (int i = 0; i < CHARACTERS; ++i) {
            const ossa_mat34 *pa = ossa_crowd_pose(w[0].crowd, w[0].entity[i]);
            const ossa_mat34 *pb = ossa_crowd_pose(w[t].crowd, w[t].entity[i]);
            CHECK((pa == NULL) == (pb == NULL));
            if (pa && pb)
                CHECK(memcmp(pa, pb, pose) == 0);
        }
    }
    for (int t = 0; t < 3; ++t) {
        demo_world_fini(&w[t]);
        scene_character_free(&c[t]);
    }
}

/* The feet footfalls come from, found by name: the default character's
 * foot_l / foot_r; on another rig a joint named like a foot with a side,
 * never an IK target, an end ("Nub") or a footstep helper. */
TEST(demo_finds_the_feet_by_name)
{
    scene_character c;
    REQUIRE(scene_character_load_default(&c, "test"));
    CHECK(c.feet[0] && strcmp(c.feet[0], "foot_l") == 0);
    CHECK(c.feet[1] && strcmp(c.feet[1], "foot_r") == 0);
    scene_character_free(&c);

    static const char *const names[] = {"Bip01",          "ik_foot_l",  "Bip01 Footsteps",
                                        "LeftUpLeg",      "LeftFootNub", "LeftFoot",
                                        "Bip01 R Thigh", "Bip01 R Foot", "RightToe"};
    ossa_raw_joint joints[9];
    for (int j = 0; j < 9; ++j) {
        joints[j].name = names[j];
        joints[j].parent = j == 0 ? -1 : 0;
        joints[j].rest = ossa_transform_identity();
    }
    ossa_raw_skeleton raw = {joints, 9};
    ossa_skeleton *skeleton = NULL;
    ossa_error e;
    REQUIRE(ossa_skeleton_build(&raw, NULL, &skeleton, NULL, &e) == OSSA_OK);
    float times[2] = {0.0f, 1.0f};
    ossa_quat q[2] = {{0, 0, 0, 1}, {0, 0, 0, 1}};
    ossa_raw_joint_track track = {"Bip01", {0}, {times, q, NULL, NULL, 2, OSSA_INTERP_LINEAR}, {0}};
    ossa_raw_clip raw_clip = {"still", 0.0f, &track, 1};
    ossa_clip *clip = NULL;
    REQUIRE(ossa_clip_build(&raw_clip, skeleton, NULL, &clip, NULL, &e) == OSSA_OK);
    const ossa_clip *clips[1] = {clip};
    REQUIRE(scene_character_from_parts(&c, skeleton, clips, 1, NULL, "rig", "test"));
    CHECK(c.feet[0] && strcmp(c.feet[0], "LeftFoot") == 0);
    CHECK(c.feet[1] && strcmp(c.feet[1], "Bip01 R Foot") == 0);
    CHECK(scene_character_set_feet(&c, "LeftUpLeg", "RightToe", "test"));
    CHECK(strcmp(c.feet[0], "LeftUpLeg") == 0 && strcmp(c.feet[1], "RightToe") == 0);
    CHECK(!scene_character_set_feet(&c, "LeftUpLeg", "no such joint", "test"));
    scene_character_free(&c);
    ossa_clip_free(clip, NULL);
    ossa_skeleton_free(skeleton, NULL);
}

UTEST_MAIN(demo_culls_what_the_camera_cannot_see_and_skins_the_nearest_visible,
           demo_finds_the_feet_by_name,
           demo_skinned_vertices_are_the_bind_pose_skinned_in_world_space,
           demo_world_is_bit_identical_for_1_2_and_3_threads)
