/* import_gltf_test.c - the importer's own glTF animation reader on files
 * the test writes: GLB, tracks with their own key times, normalised and
 * strided accessors, external buffers, and malformed accessors. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "import_gltf_writer.h"
#include "ossa/ossa.h"
#include "ossa/pipeline.h"
#include "test_support.h"
#include "utest.h"

/* OSSA_TEST_NEEDS_PIPELINE OSSA_TEST_NEEDS_IMPORTER */

static const char *temp_path(const char *name)
{
    static char path[4][1024];
    static int next;
    char *p = path[next++ % 4];
    snprintf(p, 1024, "%s/%s", ts_temp_dir(), name);
    return p;
}

/* Node "B" of the triangle: translation keys at {0, 0.5}, rotation keys at
 * {0, 1}: one track, two key grids. */
static const char two_grids[] =
    "[{\"name\":\"move\",\"channels\":["
    "{\"sampler\":0,\"target\":{\"node\":2,\"path\":\"rotation\"}},"
    "{\"sampler\":1,\"target\":{\"node\":2,\"path\":\"translation\"}}],"
    "\"samplers\":[{\"input\":6,\"output\":7},{\"input\":9,\"output\":8,\"interpolation\":\"STEP\"}]}]";

TEST(import_keeps_each_curves_own_key_times)
{
    const char *file = temp_path("grids.gltf");
    REQUIRE(tg_write_skinned(file, "A", "B", two_grids) == 0);
    ossa_import im;
    ossa_error e;
    REQUIRE(ossa_import_file(file, NULL, &im, &e) == OSSA_OK);
    REQUIRE(im.clip_count == 1);
    const ossa_raw_joint_track *t = ossa_raw_clip_find_track(&im.clips[0], "B");
    REQUIRE(t);
    CHECK_INT(t->translation.key_count, 2);
    CHECK_NEAR(t->translation.times_s[1], 0.5, 0.0);
    CHECK_INT(t->translation.interpolation, OSSA_INTERP_STEP);
    CHECK_INT(t->rotation.key_count, 2);
    CHECK_NEAR(t->rotation.times_s[1], 1.0, 0.0);
    CHECK_INT(t->scale.key_count, 0);
    CHECK_NEAR(im.clips[0].duration_s, 1.0, 0.0);
    /* Built: at 0.75 s the translation holds its last key, the rotation is
     * three quarters of the way to 90 degrees. */
    ossa_skeleton *s;
    ossa_clip *clip;
    REQUIRE(ossa_skeleton_build(&im.skeleton, NULL, &s, NULL, &e) == OSSA_OK);
    ossa_clip_build_options options = {0};
    options.rate = 40.0f;
    options.raw = true;
    REQUIRE(ossa_clip_build(&im.clips[0], s, &options, &clip, NULL, &e) == OSSA_OK);
    const int b = ossa_skeleton_find_joint(s, "B");
    ossa_transform x = ossa_clip_sample_joint(clip, NULL, b, 0.75f, OSSA_ROTATION_SLERP);
    CHECK_NEAR(x.translation.y, 2.0, 1e-6);
    CHECK_NEAR(x.rotation.z, sin(0.75 * 3.14159265358979 / 4), 1e-5);
    CHECK_NEAR(x.rotation.w, cos(0.75 * 3.14159265358979 / 4), 1e-5);
    x = ossa_clip_sample_joint(clip, NULL, b, 0.25f, OSSA_ROTATION_SLERP);
    CHECK_NEAR(x.translation.y, 1.0, 1e-6); /* STEP: the first key until 0.5 s */
    ossa_clip_free(clip, NULL);
    ossa_skeleton_free(s, NULL);
    ossa_import_free(&im);
}

TEST(import_reads_glb_as_it_reads_gltf)
{
    const char *gltf = temp_path("tri.gltf"), *glb = temp_path("tri.glb");
    REQUIRE(tg_write_skinned(gltf, "A", "B", two_grids) == 0);
    REQUIRE(tg_write_skinned_glb(glb, "A", "B", two_grids) == 0);
    ossa_import a, b;
    ossa_error e;
    REQUIRE(ossa_import_file(gltf, NULL, &a, &e) == OSSA_OK);
    REQUIRE(ossa_import_file(glb, NULL, &b, &e) == OSSA_OK);
    CHECK_INT(b.format, OSSA_SOURCE_GLTF);
    CHECK_INT(a.skeleton.joint_count, b.skeleton.joint_count);
    REQUIRE(a.clip_count == 1 && b.clip_count == 1 && a.mesh_count == 1 && b.mesh_count == 1);
    const ossa_raw_joint_track *ta = ossa_raw_clip_find_track(&a.clips[0], "B");
    const ossa_raw_joint_track *tb = ossa_raw_clip_find_track(&b.clips[0], "B");
    REQUIRE(ta && tb);
    CHECK(memcmp(ta->rotation.values, tb->rotation.values, 2 * sizeof(ossa_quat)) == 0);
    CHECK(memcmp(ta->translation.values, tb->translation.values, 2 * sizeof(ossa_float3)) == 0);
    CHECK(memcmp(a.meshes[0].positions, b.meshes[0].positions, 3 * sizeof(ossa_float3)) == 0);
    ossa_import_free(&a);
    ossa_import_free(&b);
}

TEST(import_reads_normalised_rotations_and_strided_translations)
{
    unsigned char bytes[64] = {0};
    const float times[2] = {0, 1};
    const short rot[8] = {0, 0, 0, 32767, 0, 0, 23170, 23170};
    const float t0[3] = {1, 2, 3}, t1[3] = {4, 5, 6};
    memcpy(bytes, times, 8);
    memcpy(bytes + 8, rot, 16);
    memcpy(bytes + 24, t0, 12); /* stride 16: 4 bytes of padding between keys */
    memcpy(bytes + 40, t1, 12); /* the view is 32 bytes: assimp 5.2 wants count * stride */
    const char *accessors =
        "[{\"bufferView\":0,\"componentType\":5126,\"count\":2,\"type\":\"SCALAR\",\"min\":[0],"
        "\"max\":[1]},"
        "{\"bufferView\":0,\"byteOffset\":8,\"componentType\":5122,\"normalized\":true,"
        "\"count\":2,\"type\":\"VEC4\"},"
        "{\"bufferView\":1,\"componentType\":5126,\"count\":2,\"type\":\"VEC3\"}]";
    const char *views = "[{\"buffer\":0,\"byteLength\":24},"
                        "{\"buffer\":0,\"byteOffset\":24,\"byteLength\":32,\"byteStride\":16}]";
    const char *file = temp_path("normalised.gltf");
    REQUIRE(tg_write_anim(file, accessors, views,
                       "[{\"input\":0,\"output\":1},{\"input\":0,\"output\":2}]",
                       "[{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"rotation\"}},"
                       "{\"sampler\":1,\"target\":{\"node\":0,\"path\":\"translation\"}}]",
                       bytes, sizeof bytes, NULL, NULL) == 0);
    ossa_import im;
    ossa_error e;
    REQUIRE(ossa_import_file(file, NULL, &im, &e) == OSSA_OK);
    const ossa_raw_joint_track *t = ossa_raw_clip_find_track(&im.clips[0], "N");
    REQUIRE(t && t->rotation.key_count == 2 && t->translation.key_count == 2);
    CHECK_NEAR(t->rotation.values[0].w, 1.0, 0.0);
    CHECK_NEAR(t->rotation.values[1].z, 23170.0 / 32767.0, 1e-7);
    CHECK_NEAR(t->translation.values[1].x, 4.0, 0.0);
    CHECK_NEAR(t->translation.values[1].z, 6.0, 0.0);
    ossa_import_free(&im);
}

TEST(import_reads_external_buffer_files)
{
    unsigned char bytes[32];
    const float keys[8] = {0, 1, 0, 0, 0, 0, 2, 0};
    memcpy(bytes, keys, 32);
    const char *file = temp_path("external.gltf");
    REQUIRE(tg_write_anim(file,
                       "[{\"bufferView\":0,\"componentType\":5126,\"count\":2,\"type\":\"SCALAR\","
                       "\"min\":[0],\"max\":[1]},{\"bufferView\":0,\"byteOffset\":8,"
                       "\"componentType\":5126,\"count\":2,\"type\":\"VEC3\"}]",
                       NULL, "[{\"input\":0,\"output\":1}]",
                       "[{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"translation\"}}]", bytes,
                       sizeof bytes, "key_data.bin", temp_path("key_data.bin")) == 0);
    ossa_import im;
    ossa_error e;
    REQUIRE(ossa_import_file(file, NULL, &im, &e) == OSSA_OK);
    const ossa_raw_joint_track *t = ossa_raw_clip_find_track(&im.clips[0], "N");
    REQUIRE(t && t->translation.key_count == 2);
    CHECK_NEAR(t->translation.values[1].y, 2.0, 0.0);
    ossa_import_free(&im);
}

/* Malformed animation data ends in an error naming the file, whichever of
 * assimp or the importer's reader sees it first. */
TEST(import_rejects_malformed_animation_accessors)
{
    unsigned char bytes[32] = {0};
    const char *cases[][2] = {
        /* output runs past its buffer view */
        {"[{\"bufferView\":0,\"componentType\":5126,\"count\":2,\"type\":\"SCALAR\",\"min\":[0],"
         "\"max\":[1]},{\"bufferView\":0,\"byteOffset\":8,\"componentType\":5126,\"count\":9,"
         "\"type\":\"VEC3\"}]",
         "bad_count.gltf"},
        /* rotation keys as plain (not normalised) integers */
        {"[{\"bufferView\":0,\"componentType\":5126,\"count\":2,\"type\":\"SCALAR\",\"min\":[0],"
         "\"max\":[1]},{\"bufferView\":0,\"byteOffset\":8,\"componentType\":5121,\"count\":2,"
         "\"type\":\"VEC3\"}]",
         "bad_type.gltf"},
        /* the sampler's output accessor does not exist */
        {"[{\"bufferView\":0,\"componentType\":5126,\"count\":2,\"type\":\"SCALAR\",\"min\":[0],"
         "\"max\":[1]}]",
         "no_output.gltf"},
    };
    for (int c = 0; c < 3; ++c) {
        const char *file = temp_path(cases[c][1]);
        REQUIRE(tg_write_anim(file, cases[c][0], NULL, "[{\"input\":0,\"output\":1}]",
                           "[{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"translation\"}}]",
                           bytes, sizeof bytes, NULL, NULL) == 0);
        ossa_import im;
        ossa_error e;
        const ossa_result r = ossa_import_file(file, NULL, &im, &e);
        CHECK(r == OSSA_ERR_IMPORT);
        CHECK(strstr(e.message, cases[c][1]) != NULL);
        CHECK(im.blocks_ == NULL);
        if (r == OSSA_OK)
            ossa_import_free(&im);
    }
}

/* A channel without a target node is ignored (glTF 2.0: extensions use
 * it), but assimp 5.2 crashes on one when it has loaded no node at all
 * (none in the scene, none targeted): refused before assimp reads it. */
TEST(import_ignores_nodeless_channels_and_refuses_the_one_assimp_crashes_on)
{
    char json[1024];
    const char *file = temp_path("nodeless.gltf");
    snprintf(json, sizeof json, tg_nodeless_json, "{}");
    REQUIRE(tg_write_text(file, json) == 0);
    ossa_import im;
    ossa_error e;
    CHECK_RESULT(ossa_import_file(file, NULL, &im, &e), OSSA_ERR_UNSUPPORTED);
    CHECK(strstr(e.message, "nodeless.gltf: animation 0 has a channel without a target node") !=
          NULL);
    CHECK(im.blocks_ == NULL);
    /* With node N in the scene assimp has a node to (mis)read it as; ossa
     * ignores the channel. */
    snprintf(json, sizeof json, tg_nodeless_json, "{\"nodes\":[0]}");
    REQUIRE(tg_write_text(file, json) == 0);
    REQUIRE(ossa_import_file(file, NULL, &im, &e) == OSSA_OK);
    CHECK_INT(im.clip_count, 1);
    CHECK_INT(im.clips[0].track_count, 0);
    CHECK_INT(im.skeleton.joint_count, 0);
    ossa_import_free(&im);
}

UTEST_MAIN(import_keeps_each_curves_own_key_times, import_reads_glb_as_it_reads_gltf,
           import_reads_normalised_rotations_and_strided_translations,
           import_reads_external_buffer_files,
           import_rejects_malformed_animation_accessors,
           import_ignores_nodeless_channels_and_refuses_the_one_assimp_crashes_on)
