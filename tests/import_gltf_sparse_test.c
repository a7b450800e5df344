/* import_gltf_sparse_test.c - glTF sparse accessors (glTF 2.0 section
 * 3.6.2.3) on files the test writes: animation inputs and outputs (floats,
 * normalised shorts, CUBICSPLINE triplets, with and without a base view)
 * give the dense values the test computed; a dense and a sparse file give
 * the same clip; sparse mesh attributes and indices (applied by assimp
 * 5.2.5) give the dense mesh; every malformed sparse part is refused with
 * a message naming the file, the accessor and the field. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "import_gltf_sparse.h"
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

static void expect_float3(ossa_float3 got, const float *want, double tolerance)
{
    CHECK_NEAR(got.x, want[0], tolerance);
    CHECK_NEAR(got.y, want[1], tolerance);
    CHECK_NEAR(got.z, want[2], tolerance);
}

TEST(sparse_animation_accessors_read_as_their_dense_values)
{
    tg_doc d;
    sp_anim_doc(&d, true);
    const char *file = temp_path("sparse_anim.gltf");
    REQUIRE(tg_write_doc(file, &d, sp_anim_members) == 0);
    ossa_import im;
    ossa_error e;
    REQUIRE(ossa_import_file(file, NULL, &im, &e) == OSSA_OK);
    REQUIRE(im.clip_count == 1);
    const ossa_raw_joint_track *t = ossa_raw_clip_find_track(&im.clips[0], "N");
    REQUIRE(t && t->translation.key_count == SP_KEYS && t->rotation.key_count == SP_KEYS &&
            t->scale.key_count == SP_KEYS);
    CHECK_INT(t->scale.interpolation, OSSA_INTERP_CUBICSPLINE);
    for (int k = 0; k < SP_KEYS; ++k) {
        CHECK_NEAR(t->translation.times_s[k], sp_key_times[k], 0.0);
        expect_float3(t->translation.values[k], sp_translations[k], 0.0);
        const float q[4] = {t->rotation.values[k].x, t->rotation.values[k].y,
                            t->rotation.values[k].z, t->rotation.values[k].w};
        for (int c = 0; c < 4; ++c)
            CHECK_NEAR(q[c], sp_rotations[k][c] / 32767.0, 1e-7);
        expect_float3(t->scale.in_tangents[k], sp_scales[k][0], 0.0);
        expect_float3(t->scale.values[k], sp_scales[k][1], 0.0);
        expect_float3(t->scale.out_tangents[k], sp_scales[k][2], 0.0);
    }
    /* Built and sampled at the keys: the dense values (rotation normalised). */
    ossa_skeleton *s;
    ossa_clip *clip;
    REQUIRE(ossa_skeleton_build(&im.skeleton, NULL, &s, NULL, &e) == OSSA_OK);
    REQUIRE((clip = ts_clip_build(&im.clips[0], s, 0.0f)) != NULL);
    const int n = ossa_skeleton_find_joint(s, "N");
    REQUIRE(n >= 0);
    for (int k = 0; k < SP_KEYS; ++k) {
        const ossa_transform x =
            ossa_clip_sample_joint(clip, NULL, n, sp_key_times[k], OSSA_ROTATION_SLERP);
        expect_float3(x.translation, sp_translations[k], 1e-6);
        expect_float3(x.scale, sp_scales[k][1], 1e-6);
        double norm = 0.0;
        for (int c = 0; c < 4; ++c)
            norm += (double)sp_rotations[k][c] * sp_rotations[k][c];
        norm = sqrt(norm);
        CHECK_NEAR(x.rotation.x, sp_rotations[k][0] / norm, 1e-6);
        CHECK_NEAR(x.rotation.y, sp_rotations[k][1] / norm, 1e-6);
        CHECK_NEAR(x.rotation.z, sp_rotations[k][2] / norm, 1e-6);
        CHECK_NEAR(x.rotation.w, sp_rotations[k][3] / norm, 1e-6);
    }
    ossa_clip_free(clip, NULL);
    ossa_skeleton_free(s, NULL);
    ossa_import_free(&im);
}

TEST(sparse_and_dense_files_give_the_same_clip)
{
    tg_doc dense, sparse;
    sp_anim_doc(&dense, false);
    sp_anim_doc(&sparse, true);
    const char *dense_file = temp_path("dense_anim.gltf"), *sparse_file = temp_path("sparse2.gltf");
    REQUIRE(tg_write_doc(dense_file, &dense, sp_anim_members) == 0);
    REQUIRE(tg_write_doc(sparse_file, &sparse, sp_anim_members) == 0);
    ossa_import a, b;
    ossa_error e;
    REQUIRE(ossa_import_file(dense_file, NULL, &a, &e) == OSSA_OK);
    REQUIRE(ossa_import_file(sparse_file, NULL, &b, &e) == OSSA_OK);
    const ossa_raw_joint_track *ta = ossa_raw_clip_find_track(&a.clips[0], "N");
    const ossa_raw_joint_track *tb = ossa_raw_clip_find_track(&b.clips[0], "N");
    REQUIRE(ta && tb && ta->scale.key_count == SP_KEYS && tb->scale.key_count == SP_KEYS);
    CHECK(memcmp(ta->translation.times_s, tb->translation.times_s, sizeof sp_key_times) == 0);
    CHECK(memcmp(ta->translation.values, tb->translation.values, SP_KEYS * sizeof(ossa_float3)) ==
          0);
    CHECK(memcmp(ta->rotation.values, tb->rotation.values, SP_KEYS * sizeof(ossa_quat)) == 0);
    CHECK(memcmp(ta->scale.in_tangents, tb->scale.in_tangents, SP_KEYS * sizeof(ossa_float3)) == 0);
    CHECK(memcmp(ta->scale.values, tb->scale.values, SP_KEYS * sizeof(ossa_float3)) == 0);
    CHECK(memcmp(ta->scale.out_tangents, tb->scale.out_tangents, SP_KEYS * sizeof(ossa_float3)) ==
          0);
    CHECK_NEAR(a.clips[0].duration_s, b.clips[0].duration_s, 0.0);
    /* The built clips agree everywhere, between keys too. */
    ossa_skeleton *s;
    ossa_clip *ca, *cb;
    REQUIRE(ossa_skeleton_build(&a.skeleton, NULL, &s, NULL, &e) == OSSA_OK);
    REQUIRE((ca = ts_clip_build(&a.clips[0], s, 0.0f)) != NULL);
    REQUIRE((cb = ts_clip_build(&b.clips[0], s, 0.0f)) != NULL);
    for (int i = 0; i <= 30; ++i) {
        const float t_s = 0.05f * (float)i;
        const ossa_transform x = ossa_clip_sample_joint(ca, NULL, 0, t_s, OSSA_ROTATION_SLERP);
        const ossa_transform y = ossa_clip_sample_joint(cb, NULL, 0, t_s, OSSA_ROTATION_SLERP);
        CHECK(memcmp(&x, &y, sizeof x) == 0);
    }
    ossa_clip_free(ca, NULL);
    ossa_clip_free(cb, NULL);
    ossa_skeleton_free(s, NULL);
    ossa_import_free(&a);
    ossa_import_free(&b);
}

/* ---- meshes: assimp 5.2.5 applies sparse accessors itself ---- */

TEST(sparse_mesh_accessors_give_the_dense_mesh)
{
    tg_doc dense, sparse;
    sp_quad_doc(&dense, false, 0);
    sp_quad_doc(&sparse, true, 0);
    const char *dense_file = temp_path("dense_quad.gltf");
    const char *sparse_file = temp_path("sparse_quad.gltf");
    REQUIRE(tg_write_doc(dense_file, &dense, sp_quad_members) == 0);
    REQUIRE(tg_write_doc(sparse_file, &sparse, sp_quad_members) == 0);
    ossa_import a, b;
    ossa_error e;
    ossa_import_options options = {0};
    options.no_tangents = true;
    REQUIRE(ossa_import_file(dense_file, &options, &a, &e) == OSSA_OK);
    const ossa_result r = ossa_import_file(sparse_file, &options, &b, &e);
    if (r)
        fprintf(stderr, "  %s\n", e.message);
    REQUIRE(r == OSSA_OK);
    REQUIRE(a.mesh_count == 1 && b.mesh_count == 1);
    const ossa_raw_mesh *ma = &a.meshes[0], *mb = &b.meshes[0];
    REQUIRE(mb->vertex_count == 4 && mb->index_count == 6);
    for (int v = 0; v < 4; ++v) {
        expect_float3(mb->positions[v], sp_quad_positions[v], 0.0);
        /* One influence each, on the joint the dense file names. */
        REQUIRE(mb->influence_offsets[v + 1] - mb->influence_offsets[v] == 1);
        const ossa_raw_influence *in = &mb->influences[mb->influence_offsets[v]];
        REQUIRE(in->joint >= 0 && in->joint < mb->skin_joint_count);
        CHECK(strcmp(mb->skin_joints[in->joint].name, sp_quad_joints[v][0] ? "B" : "A") == 0);
    }
    for (int i = 0; i < 6; ++i)
        CHECK_INT((int)mb->indices[i], sp_quad_indices[i]);
    /* And the whole raw mesh equals the dense file's. */
    CHECK(ma->vertex_count == mb->vertex_count && ma->index_count == mb->index_count);
    CHECK(memcmp(ma->positions, mb->positions, 4 * sizeof(ossa_float3)) == 0);
    CHECK(memcmp(ma->normals, mb->normals, 4 * sizeof(ossa_float3)) == 0);
    CHECK(memcmp(ma->indices, mb->indices, 6 * sizeof(uint32_t)) == 0);
    CHECK(memcmp(ma->influence_offsets, mb->influence_offsets, 5 * sizeof(int)) == 0);
    CHECK(memcmp(ma->influences, mb->influences, 4 * sizeof(ossa_raw_influence)) == 0);
    ossa_import_free(&a);
    ossa_import_free(&b);
}

/* assimp 5.2.5 copies a sparse accessor's base as if packed and reads it
 * with the view's stride: a wrong mesh. Refused before assimp reads it. */
TEST(sparse_accessor_over_a_strided_view_is_refused)
{
    tg_doc d;
    sp_quad_doc(&d, true, 16);
    const char *file = temp_path("sparse_strided.gltf");
    REQUIRE(tg_write_doc(file, &d, sp_quad_members) == 0);
    ossa_import im;
    ossa_error e;
    CHECK_RESULT(ossa_import_file(file, NULL, &im, &e), OSSA_ERR_UNSUPPORTED);
    CHECK(strstr(e.message, "sparse_strided.gltf: accessor 0 is sparse") != NULL);
    CHECK(strstr(e.message, "byteStride 16") != NULL);
    CHECK(im.blocks_ == NULL);
    /* The same with packed positions imports. */
    sp_quad_doc(&d, true, 0);
    REQUIRE(tg_write_doc(file, &d, sp_quad_members) == 0);
    CHECK_RESULT(ossa_import_file(file, NULL, &im, &e), OSSA_OK);
    ossa_import_free(&im);
}

/* Without a buffer view the base is zeros the file does not hold: past
 * 256 MiB of them (assimp 5.2 would allocate them all) it is refused. */
TEST(sparse_accessor_without_a_view_is_capped)
{
    tg_doc d;
    sp_anim_doc(&d, true);
    /* The times (accessor 0, no view): 100 million elements, 4 substituted. */
    char *count = strstr(d.accessors, "\"count\":4,");
    REQUIRE(count && count < strstr(d.accessors, "\"sparse\""));
    const char *rest = count + strlen("\"count\":4,");
    char accessors[sizeof d.accessors];
    snprintf(accessors, sizeof accessors, "%.*s\"count\":100000000,%s",
             (int)(count - d.accessors), d.accessors, rest);
    snprintf(d.accessors, sizeof d.accessors, "%s", accessors);
    const char *file = temp_path("sparse_zeros.gltf");
    REQUIRE(tg_write_doc(file, &d, sp_anim_members) == 0);
    ossa_import im;
    ossa_error e;
    CHECK_RESULT(ossa_import_file(file, NULL, &im, &e), OSSA_ERR_UNSUPPORTED);
    CHECK(strstr(e.message, "sparse_zeros.gltf: accessor 0 has no bufferView and 100000000 "
                            "elements of 4 bytes") != NULL);
    CHECK(im.blocks_ == NULL);
}

/* ---- malformed sparse parts ---- */

/* One translation channel of node N whose output (accessor 1: 4 keys, a
 * base view 0) has the given "sparse" member; view 1 holds the unsigned
 * shorts {1, 2, 2, 1, 9}, view 2 two VEC3s, view 3 the same with a
 * byteStride. */
static ossa_result import_with_sparse(const char *name, const char *sparse, ossa_error *e)
{
    tg_doc d;
    memset(&d, 0, sizeof d);
    const float base[4][3] = {{0}}, values[2][3] = {{1, 1, 1}, {2, 2, 2}};
    const unsigned short indices[5] = {1, 2, 2, 1, 9};
    const int bv = tg_view(&d, base, sizeof base, "");
    tg_view(&d, indices, sizeof indices, "");
    tg_view(&d, values, sizeof values, "");
    tg_view(&d, values, sizeof values, ",\"byteStride\":12");
    char acc[512];
    snprintf(acc, sizeof acc,
             "{\"bufferView\":%d,\"componentType\":5126,\"count\":4,\"type\":\"SCALAR\","
             "\"min\":[0],\"max\":[1.5]}",
             tg_view(&d, sp_key_times, sizeof sp_key_times, ""));
    tg_accessor(&d, acc);
    snprintf(acc, sizeof acc,
             "{\"bufferView\":%d,\"componentType\":5126,\"count\":4,\"type\":\"VEC3\","
             "\"sparse\":%s}",
             bv, sparse);
    tg_accessor(&d, acc);
    const char *file = temp_path(name);
    if (tg_write_doc(file, &d,
                     "\"asset\":{\"version\":\"2.0\"},\"scene\":0,\"scenes\":[{\"nodes\":[0]}],"
                     "\"nodes\":[{\"name\":\"N\"}],\"animations\":[{\"channels\":[{"
                     "\"sampler\":0,\"target\":{\"node\":0,\"path\":\"translation\"}}],"
                     "\"samplers\":[{\"input\":0,\"output\":1}]}]") != 0)
        return OSSA_ERR_IO;
    ossa_import im;
    const ossa_result r = ossa_import_file(file, NULL, &im, e);
    CHECK(im.blocks_ == NULL || r == OSSA_OK);
    if (r == OSSA_OK)
        ossa_import_free(&im);
    return r;
}

#define IDX(count, offset, type)                                                               \
    "{\"count\":" #count ",\"indices\":{\"bufferView\":1,\"byteOffset\":" #offset               \
    ",\"componentType\":" #type "},\"values\":{\"bufferView\":2}}"

TEST(malformed_sparse_accessors_are_refused_naming_the_field)
{
    static const struct {
        const char *sparse, *says;
    } cases[] = {
        /* indices {2, 2}: not strictly increasing */
        {IDX(2, 2, 5123), "accessor 1 has sparse.indices[1] = 2 after 2: sparse indices must "
                          "strictly increase"},
        /* indices {2, 1} */
        {IDX(2, 4, 5123), "accessor 1 has sparse.indices[1] = 1 after 2"},
        /* indices {1, 9}: 9 is past the 4 keys */
        {IDX(2, 6, 5123), "accessor 1 has sparse.indices[1] = 9, past its 4 elements"},
        {IDX(0, 0, 5123), "accessor 1 has sparse.count 0; it must be from 1 to the accessor's "
                          "count 4"},
        {IDX(5, 0, 5123), "accessor 1 has sparse.count 5; it must be from 1"},
        {IDX(2, 0, 5126), "accessor 1 has sparse.indices.componentType 5126; it must be 5121, "
                          "5123 or 5125"},
        {IDX(2, 0, 5122), "sparse.indices.componentType 5122"},
        /* 2 shorts from byte 8 of a 10-byte view */
        {IDX(2, 8, 5123), "accessor 1 sparse.indices (2 elements, stride 2, byteOffset 8) runs "
                          "past bufferView 1"},
        {"{\"count\":2,\"indices\":{\"bufferView\":7,\"componentType\":5123},"
         "\"values\":{\"bufferView\":2}}",
         "accessor 1 sparse.indices uses bufferView 7, which does not exist"},
        {"{\"count\":2,\"indices\":{\"bufferView\":1,\"componentType\":5123},"
         "\"values\":{\"bufferView\":9}}",
         "accessor 1 sparse.values uses bufferView 9, which does not exist"},
        {"{\"count\":2,\"indices\":{\"bufferView\":1,\"componentType\":5123},"
         "\"values\":{\"bufferView\":2,\"byteOffset\":4}}",
         "accessor 1 sparse.values (2 elements, stride 12, byteOffset 4) runs past bufferView 2"},
        {"{\"count\":2,\"indices\":{\"bufferView\":1,\"componentType\":5123},"
         "\"values\":{\"bufferView\":3}}",
         "accessor 1 sparse.values uses bufferView 3, which has a byteStride"},
        {"{\"count\":2,\"indices\":{\"bufferView\":1,\"byteOffset\":-2,\"componentType\":5123},"
         "\"values\":{\"bufferView\":2}}",
         "accessor 1 sparse.indices: 'byteOffset' must be a non-negative integer"},
        {"{\"count\":2,\"values\":{\"bufferView\":2}}", "accessor 1 has no sparse.indices object"},
        {"{\"count\":2,\"indices\":{\"bufferView\":1,\"componentType\":5123}}",
         "accessor 1 has no sparse.values object"},
        {"{\"indices\":{\"bufferView\":1,\"componentType\":5123},\"values\":{\"bufferView\":2}}",
         "accessor 1 has no sparse.count"},
        {"{\"count\":2,\"indices\":{\"componentType\":5123},\"values\":{\"bufferView\":2}}",
         "accessor 1 has no sparse.indices.bufferView"},
        {"{\"count\":2,\"indices\":{\"bufferView\":1},\"values\":{\"bufferView\":2}}",
         "accessor 1 has no sparse.indices.componentType"},
        {"{\"count\":2,\"indices\":{\"bufferView\":1,\"componentType\":5123},\"values\":{}}",
         "accessor 1 has no sparse.values.bufferView"},
        {"[1, 2]", "accessor 1 has a 'sparse' that is not an object"},
    };
    const int count = (int)(sizeof cases / sizeof cases[0]);
    for (int c = 0; c < count; ++c) {
        char name[32];
        snprintf(name, sizeof name, "bad_sparse_%d.gltf", c);
        ossa_error e;
        const ossa_result r = import_with_sparse(name, cases[c].sparse, &e);
        CHECK_RESULT(r, OSSA_ERR_IMPORT);
        const bool named = strstr(e.message, name) != NULL;
        const bool said = strstr(e.message, cases[c].says) != NULL;
        CHECK(named);
        CHECK(said);
        if (!named || !said)
            fprintf(stderr, "  case %d: %s\n  expected: %s\n", c, e.message, cases[c].says);
    }
    /* The well-formed neighbour of these cases imports: keys 1 and 2. */
    ossa_error e;
    CHECK_RESULT(import_with_sparse("good_sparse.gltf", IDX(2, 0, 5123), &e), OSSA_OK);
}

/* A sparse JOINTS_0 value naming a joint past the skin is caught like a
 * dense one (assimp would index past its bone list). */
TEST(sparse_joint_indices_are_checked_against_the_skin)
{
    tg_doc d;
    sp_quad_doc(&d, true, 0);
    const unsigned char bad[2][4] = {{1, 0, 0, 0}, {7, 0, 0, 0}};
    /* Point the JOINTS_0 substitutes at a view naming joint 7 for vertex 3. */
    const int view = tg_view(&d, bad, sizeof bad, "");
    char needle[64], replacement[64];
    snprintf(needle, sizeof needle, "\"values\":{\"bufferView\":%d}", 7);
    snprintf(replacement, sizeof replacement, "\"values\":{\"bufferView\":%d}", view);
    char *at = strstr(d.accessors, needle);
    REQUIRE(at && strlen(needle) == strlen(replacement));
    memcpy(at, replacement, strlen(replacement));
    const char *file = temp_path("sparse_joint.gltf");
    REQUIRE(tg_write_doc(file, &d, sp_quad_members) == 0);
    ossa_import im;
    ossa_error e;
    CHECK_RESULT(ossa_import_file(file, NULL, &im, &e), OSSA_ERR_IMPORT);
    CHECK(strstr(e.message, "sparse_joint.gltf: mesh 0 primitive 0: vertex 3 names joint 7 of "
                            "a 2-joint skin") != NULL);
}

UTEST_MAIN(sparse_animation_accessors_read_as_their_dense_values,
           sparse_and_dense_files_give_the_same_clip, sparse_mesh_accessors_give_the_dense_mesh,
           sparse_accessor_over_a_strided_view_is_refused, sparse_accessor_without_a_view_is_capped,
           malformed_sparse_accessors_are_refused_naming_the_field,
           sparse_joint_indices_are_checked_against_the_skin)
