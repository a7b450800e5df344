/* import_mesh_test.c - raw meshes against the files' own data: glTF
 * accessors read by the test's reader (positions, normals, uvs, indices,
 * skin weights, inverse bind matrices), FBX corners welded, tangents from
 * assimp's step when a file has uvs but none, rigid meshes bound to their
 * joint. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "import_gltf_reference.h"
#include "ossa/pipeline.h"
#include "test_support.h"
#include "utest.h"

/* OSSA_TEST_NEEDS_PIPELINE OSSA_TEST_NEEDS_IMPORTER OSSA_TEST_NEEDS_CJSON */

static void check_gltf_mesh(const char *name)
{
    ref_gltf g;
    REQUIRE(ref_open(&g, ts_model_path(name)) == 0);
    ossa_import im;
    REQUIRE(ts_import_model(name, NULL, &im));
    REQUIRE(im.mesh_count == 1); /* both files: one mesh, one primitive, one skin */
    const ossa_raw_mesh *m = &im.meshes[0];
    const cJSON *prim = cJSON_GetArrayItem(cJSON_GetObjectItem(ref_item(&g, "meshes", 0),
                                                               "primitives"), 0);
    const cJSON *attr = cJSON_GetObjectItem(prim, "attributes");
    int n, c;
    double *pos = ref_accessor(&g, ref_int(attr, "POSITION", -1), &n, &c);
    REQUIRE(n == m->vertex_count); /* source order, nothing merged */
    double *nrm = ref_accessor(&g, ref_int(attr, "NORMAL", -1), &n, &c);
    double worst_p = 0, worst_n = 0;
    for (int v = 0; v < m->vertex_count; ++v) {
        worst_p = fmax(worst_p, fabs(m->positions[v].x - pos[3 * v]) +
                                    fabs(m->positions[v].y - pos[3 * v + 1]) +
                                    fabs(m->positions[v].z - pos[3 * v + 2]));
        worst_n = fmax(worst_n, fabs(m->normals[v].x - nrm[3 * v]) +
                                    fabs(m->normals[v].y - nrm[3 * v + 1]) +
                                    fabs(m->normals[v].z - nrm[3 * v + 2]));
    }
    CHECK_NEAR(worst_p, 0.0, 0.0);
    CHECK_NEAR(worst_n, 0.0, 0.0);
    if (ref_int(attr, "TEXCOORD_0", -1) >= 0) {
        double *uv = ref_accessor(&g, ref_int(attr, "TEXCOORD_0", -1), &n, &c);
        REQUIRE(m->uvs);
        double worst = 0;
        for (int v = 0; v < m->vertex_count; ++v)
            worst = fmax(worst, fabs(m->uvs[2 * v] - uv[2 * v]) +
                                    fabs(m->uvs[2 * v + 1] - uv[2 * v + 1]));
        CHECK_NEAR(worst, 0.0, 1e-6); /* the file's own v, not assimp's flipped one */
        free(uv);
    } else {
        CHECK(m->uvs == NULL);
    }
    double *idx = ref_accessor(&g, ref_int(prim, "indices", -1), &n, &c);
    REQUIRE(n == m->index_count);
    int bad = 0;
    for (int i = 0; i < n; ++i)
        bad += m->indices[i] != (uint32_t)idx[i];
    CHECK_INT(bad, 0);

    /* Skin: joint k of the file's skin is node skin.joints[k], named
     * "nodes[i]" or by its name; its inverse bind matrix is column-major. */
    const cJSON *skin = ref_item(&g, "skins", 0);
    const cJSON *joints = cJSON_GetObjectItem(skin, "joints");
    const int joint_count = cJSON_GetArraySize(joints);
    CHECK_INT(m->skin_joint_count, joint_count);
    double *ibm = ref_accessor(&g, ref_int(skin, "inverseBindMatrices", -1), &n, &c);
    char (*names)[64] = calloc((size_t)joint_count, sizeof *names);
    for (int k = 0; k < joint_count; ++k) {
        const int node = cJSON_GetArrayItem(joints, k)->valueint;
        const char *nm = cJSON_GetStringValue(cJSON_GetObjectItem(ref_item(&g, "nodes", node),
                                                                  "name"));
        if (nm)
            snprintf(names[k], sizeof names[k], "%s", nm);
        else
            snprintf(names[k], sizeof names[k], "nodes[%d]", node);
    }
    int *file_to_raw = malloc(sizeof(int) * (size_t)joint_count);
    for (int k = 0; k < joint_count; ++k) {
        file_to_raw[k] = -1;
        for (int r = 0; r < m->skin_joint_count; ++r)
            if (strcmp(m->skin_joints[r].name, names[k]) == 0)
                file_to_raw[k] = r;
        REQUIRE(file_to_raw[k] >= 0);
        CHECK(ossa_raw_skeleton_find(&im.skeleton, names[k]) >= 0);
        const ossa_mat34 *got = &m->skin_joints[file_to_raw[k]].inverse_bind;
        for (int row = 0; row < 3; ++row)
            for (int col = 0; col < 4; ++col)
                CHECK_NEAR(got->m[row][col], ibm[16 * k + col * 4 + row], 1e-6);
    }
    double *wj = ref_accessor(&g, ref_int(attr, "JOINTS_0", -1), &n, &c);
    double *ww = ref_accessor(&g, ref_int(attr, "WEIGHTS_0", -1), &n, &c);
    int mismatched = 0;
    for (int v = 0; v < m->vertex_count; ++v) {
        /* Every positive file weight is a raw influence on the same joint. */
        int file_count = 0;
        for (int i = 0; i < 4; ++i) {
            if (!(ww[4 * v + i] > 0.0))
                continue;
            ++file_count;
            const int raw_joint = file_to_raw[(int)wj[4 * v + i]];
            bool found = false;
            for (int k = m->influence_offsets[v]; k < m->influence_offsets[v + 1]; ++k)
                found |= m->influences[k].joint == raw_joint &&
                         fabs(m->influences[k].weight - ww[4 * v + i]) < 1e-6;
            mismatched += !found;
        }
        int raw_count = 0;
        for (int k = m->influence_offsets[v]; k < m->influence_offsets[v + 1]; ++k)
            raw_count += m->influences[k].weight > 0.0f;
        mismatched += raw_count != file_count;
    }
    CHECK_INT(mismatched, 0);
    free(pos), free(nrm), free(idx), free(ibm), free(wj), free(ww), free(names), free(file_to_raw);
    ossa_import_free(&im);
    ref_close(&g);
}

TEST(import_gltf_meshes_match_the_files_accessors)
{
    if (!ts_model_path("khronos/cesium_man.gltf") || !ts_model_path("khronos/rigged_simple.gltf"))
        SKIP("khronos models not found");
    check_gltf_mesh("khronos/cesium_man.gltf");
    check_gltf_mesh("khronos/rigged_simple.gltf");
}

static bool same_vertex(const ossa_raw_mesh *m, int a, int b)
{
    const int na = m->influence_offsets[a + 1] - m->influence_offsets[a];
    const int nb = m->influence_offsets[b + 1] - m->influence_offsets[b];
    return memcmp(&m->positions[a], &m->positions[b], sizeof(ossa_float3)) == 0 &&
           memcmp(&m->normals[a], &m->normals[b], sizeof(ossa_float3)) == 0 &&
           (!m->uvs || memcmp(&m->uvs[2 * a], &m->uvs[2 * b], 2 * sizeof(float)) == 0) &&
           (!m->colors || m->colors[a] == m->colors[b]) &&
           (!m->tangents || memcmp(&m->tangents[a], &m->tangents[b], sizeof(ossa_float4)) == 0) &&
           na == nb &&
           memcmp(&m->influences[m->influence_offsets[a]], &m->influences[m->influence_offsets[b]],
                  sizeof(ossa_raw_influence) * (size_t)na) == 0;
}

/* assimp gives one vertex per face corner for FBX: corners that are the
 * same vertex in every attribute are merged, and only those. */
TEST(import_fbx_face_corners_are_welded)
{
    ossa_import im;
    TS_IMPORT_OR_SKIP("pab/arnaud.fbx", NULL, &im);
    REQUIRE(im.mesh_count == 1);
    const ossa_raw_mesh *m = &im.meshes[0];
    CHECK_INT(m->index_count / 3, 6670); /* the README's triangle count */
    CHECK(m->vertex_count < m->index_count / 2);
    CHECK(m->uvs != NULL && m->colors != NULL);
    bool *used = calloc((size_t)m->vertex_count, sizeof *used);
    for (int i = 0; i < m->index_count; ++i) {
        REQUIRE(m->indices[i] < (uint32_t)m->vertex_count);
        used[m->indices[i]] = true;
    }
    int unused = 0, duplicates = 0;
    for (int v = 0; v < m->vertex_count; ++v) {
        unused += !used[v];
        for (int w = v + 1; w < m->vertex_count; ++w)
            duplicates += same_vertex(m, v, w);
    }
    CHECK_INT(unused, 0);
    CHECK_INT(duplicates, 0);
    /* First appearance order: the first triangle uses vertices 0, 1, 2. */
    CHECK(m->indices[0] == 0 && m->indices[1] <= 1 && m->indices[2] <= 2);
    free(used);
    ossa_import_free(&im);
}

static void check_tangents(const ossa_raw_mesh *m)
{
    double worst_dot = 0, worst_len = 0;
    int bad_w = 0;
    for (int v = 0; v < m->vertex_count; ++v) {
        const ossa_float4 t = m->tangents[v];
        const ossa_float3 n = m->normals[v];
        worst_dot = fmax(worst_dot, fabs(t.x * n.x + t.y * n.y + t.z * n.z));
        worst_len = fmax(worst_len, fabs(sqrt(t.x * t.x + t.y * t.y + t.z * t.z) - 1.0));
        bad_w += t.w != 1.0f && t.w != -1.0f;
    }
    CHECK_NEAR(worst_dot, 0.0, 1e-3);
    CHECK_NEAR(worst_len, 0.0, 1e-3);
    CHECK_INT(bad_w, 0);
}

TEST(import_computes_tangents_when_the_file_has_uvs_but_none)
{
    const char *path = ts_model_path("khronos/cesium_man.gltf");
    if (!path)
        SKIP("khronos/cesium_man.gltf not found");
    ref_gltf g;
    REQUIRE(ref_open(&g, path) == 0);
    const cJSON *attr = cJSON_GetObjectItem(
        cJSON_GetArrayItem(cJSON_GetObjectItem(ref_item(&g, "meshes", 0), "primitives"), 0),
        "attributes");
    REQUIRE(cJSON_GetObjectItem(attr, "TANGENT") == NULL);
    REQUIRE(cJSON_GetObjectItem(attr, "TEXCOORD_0") != NULL);
    ref_close(&g);
    ossa_import im, plain, none;
    REQUIRE(ts_import_model("khronos/cesium_man.gltf", NULL, &im));
    REQUIRE(im.meshes[0].tangents != NULL);
    CHECK_INT(im.computed_tangents, 1);
    check_tangents(&im.meshes[0]);
    /* No uvs, no tangents: the tangent step needs a texture direction. */
    TS_IMPORT_OR_SKIP("khronos/rigged_simple.gltf", NULL, &plain);
    CHECK(plain.meshes[0].tangents == NULL);
    ossa_import_options options = {0};
    options.no_tangents = true;
    REQUIRE(ts_import_model("khronos/cesium_man.gltf", &options, &none));
    CHECK(none.meshes[0].tangents == NULL);
    CHECK_INT(none.computed_tangents, 0);
    ossa_import_free(&im);
    ossa_import_free(&plain);
    ossa_import_free(&none);
}

/* interpolation_test's cubes have no skin: each is bound whole (weight 1,
 * identity) to its own node, which is a joint because it is animated. The
 * plane that nothing moves is left out with a warning. */
TEST(import_rigid_meshes_bind_to_the_joint_that_carries_them)
{
    ossa_import im;
    TS_IMPORT_OR_SKIP("khronos/interpolation_test.gltf", NULL, &im);
    CHECK_INT(im.mesh_count, im.skeleton.joint_count);
    for (int i = 0; i < im.mesh_count; ++i) {
        const ossa_raw_mesh *m = &im.meshes[i];
        REQUIRE(m->skin_joint_count == 1);
        CHECK(ossa_raw_skeleton_find(&im.skeleton, m->skin_joints[0].name) >= 0);
        CHECK(strncmp(m->skin_joints[0].name, "Cube", 4) == 0);
        for (int r = 0; r < 3; ++r)
            for (int c = 0; c < 4; ++c)
                CHECK_NEAR(m->skin_joints[0].inverse_bind.m[r][c], r == c ? 1.0 : 0.0, 0.0);
        for (int v = 0; v < m->vertex_count; ++v) {
            CHECK_INT(m->influence_offsets[v + 1] - m->influence_offsets[v], 1);
            CHECK_NEAR(m->influences[m->influence_offsets[v]].weight, 1.0, 0.0);
        }
    }
    bool warned = false;
    for (int w = 0; w < im.warning_count; ++w)
        warned |= strstr(im.warnings[w], "Plane") != NULL;
    CHECK(warned);
    ossa_import_free(&im);
}

UTEST_MAIN(import_gltf_meshes_match_the_files_accessors, import_fbx_face_corners_are_welded,
           import_computes_tangents_when_the_file_has_uvs_but_none,
           import_rigid_meshes_bind_to_the_joint_that_carries_them)
