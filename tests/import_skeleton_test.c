/* import_skeleton_test.c - which nodes become joints and what their rest
 * transforms are, on the shared real models, checked against the files' own
 * data (glTF nodes read by the test's reader; FBX skin bind matrices). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "import_gltf_reference.h"
#include "ossa/pipeline.h"
#include "test_support.h"
#include "utest.h"

/* OSSA_TEST_NEEDS_PIPELINE OSSA_TEST_NEEDS_IMPORTER OSSA_TEST_NEEDS_CJSON */

/* Model-space rest matrices of a raw skeleton (parents come first). */
static ts_dmat *rest_model(const ossa_raw_skeleton *s)
{
    ts_dmat *m = malloc(sizeof *m * (size_t)s->joint_count);
    for (int j = 0; j < s->joint_count; ++j) {
        ts_dmat local = ts_dmat_from_transform(s->joints[j].rest);
        m[j] = s->joints[j].parent < 0 ? local : ts_dmat_mul(&m[s->joints[j].parent], &local);
    }
    return m;
}

TEST(import_folds_fbx_pivot_helpers_into_joints)
{
    const char *files[] = {"pab/arnaud.fbx", "pab/walk.fbx", "pab/skeleton.fbx"};
    for (int f = 0; f < 3; ++f) {
        ossa_import im;
        if (!ts_model_path(files[f]))
            SKIP("pab models not found");
        REQUIRE(ts_import_model(files[f], NULL, &im));
        CHECK(im.folded_helpers > 0); /* assimp made $AssimpFbx$ helpers... */
        for (int j = 0; j < im.skeleton.joint_count; ++j)
            CHECK(strstr(im.skeleton.joints[j].name, "$AssimpFbx$") == NULL); /* ...none left */
        CHECK(ossa_raw_skeleton_find(&im.skeleton, "Hips") >= 0);
        ossa_import_free(&im);
    }
}

/* arnaud.fbx's nodes hold its bind pose: the skin's bind matrices (from the
 * FBX skin clusters, not the node chain) must invert the folded rest pose. */
TEST(import_fbx_folded_rest_pose_is_the_skin_bind_pose)
{
    ossa_import im;
    TS_IMPORT_OR_SKIP("pab/arnaud.fbx", NULL, &im);
    REQUIRE(im.mesh_count == 1);
    ts_dmat *model = rest_model(&im.skeleton);
    const ossa_raw_mesh *mesh = &im.meshes[0];
    double worst = 0.0;
    for (int k = 0; k < mesh->skin_joint_count; ++k) {
        int j = ossa_raw_skeleton_find(&im.skeleton, mesh->skin_joints[k].name);
        REQUIRE(j >= 0);
        ts_dmat ib = ts_dmat_from_mat34(&mesh->skin_joints[k].inverse_bind);
        ts_dmat p = ts_dmat_mul(&model[j], &ib);
        for (int r = 0; r < 3; ++r)
            for (int c = 0; c < 4; ++c)
                worst = fmax(worst, fabs(p.m[r][c] - (r == c ? 1.0 : 0.0)));
    }
    CHECK_NEAR(worst, 0.0, 5e-3); /* centimetres: 0.05 mm, the file's float precision */
    free(model);
    ossa_import_free(&im);
}

TEST(import_fbx_joints_are_bones_and_their_ancestors)
{
    ossa_import im;
    TS_IMPORT_OR_SKIP("pab/arnaud.fbx", NULL, &im);
    const ossa_raw_mesh *mesh = &im.meshes[0];
    CHECK_INT(mesh->skin_joint_count, 53); /* the README's count */
    bool *needed = calloc((size_t)im.skeleton.joint_count, sizeof *needed);
    for (int k = 0; k < mesh->skin_joint_count; ++k) {
        int j = ossa_raw_skeleton_find(&im.skeleton, mesh->skin_joints[k].name);
        REQUIRE(j >= 0);
        for (; j >= 0; j = im.skeleton.joints[j].parent)
            needed[j] = true;
    }
    for (int j = 0; j < im.skeleton.joint_count; ++j)
        CHECK(needed[j]); /* nothing else became a joint (no mesh node, no RootNode) */
    free(needed);
    ossa_import_free(&im);
}

TEST(import_animated_cameras_are_not_joints)
{
    ossa_import im;
    TS_IMPORT_OR_SKIP("pab/walk.fbx", NULL, &im);
    const char *cameras[] = {"Camera01", "Camera02", "Camera03"};
    for (int c = 0; c < 3; ++c) {
        CHECK(ossa_raw_skeleton_find(&im.skeleton, cameras[c]) < 0);
        /* Their curves stay in the clip, under their names, for the report. */
        CHECK(ossa_raw_clip_find_track(&im.clips[0], cameras[c]) != NULL);
    }
    CHECK(ossa_raw_skeleton_find(&im.skeleton, "LeftFoot") >= 0);
    ossa_import_free(&im);
}

static double *ref_node_matrix(const cJSON *node, double m[16])
{
    /* Column-major 4x4 from "matrix", or T * R * S. */
    const cJSON *matrix = cJSON_GetObjectItem(node, "matrix");
    if (matrix) {
        for (int i = 0; i < 16; ++i)
            m[i] = cJSON_GetArrayItem(matrix, i)->valuedouble;
        return m;
    }
    double t[3] = {0, 0, 0}, q[4] = {0, 0, 0, 1}, s[3] = {1, 1, 1};
    const cJSON *v;
    if ((v = cJSON_GetObjectItem(node, "translation")))
        for (int i = 0; i < 3; ++i)
            t[i] = cJSON_GetArrayItem(v, i)->valuedouble;
    if ((v = cJSON_GetObjectItem(node, "rotation")))
        for (int i = 0; i < 4; ++i)
            q[i] = cJSON_GetArrayItem(v, i)->valuedouble;
    if ((v = cJSON_GetObjectItem(node, "scale")))
        for (int i = 0; i < 3; ++i)
            s[i] = cJSON_GetArrayItem(v, i)->valuedouble;
    const double x = q[0], y = q[1], z = q[2], w = q[3];
    const double r[9] = {1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y),
                         2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x),
                         2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)};
    memset(m, 0, 16 * sizeof(double));
    for (int row = 0; row < 3; ++row) {
        for (int col = 0; col < 3; ++col)
            m[col * 4 + row] = r[row * 3 + col] * s[col];
        m[12 + row] = t[row];
    }
    m[15] = 1;
    return m;
}

/* Every glTF node that became a joint keeps its own transform (cesium_man
 * mixes "matrix" and TRS nodes), and the skin uses a subset of the joints. */
TEST(import_gltf_rest_pose_is_the_nodes_transform)
{
    const char *path = ts_model_path("khronos/cesium_man.gltf");
    if (!path)
        SKIP("khronos/cesium_man.gltf not found");
    ref_gltf g;
    REQUIRE(ref_open(&g, path) == 0);
    ossa_import im;
    REQUIRE(ts_import_model("khronos/cesium_man.gltf", NULL, &im));
    const int nodes = cJSON_GetArraySize(cJSON_GetObjectItem(g.json, "nodes"));
    int checked = 0;
    for (int n = 0; n < nodes; ++n) {
        char name[32];
        snprintf(name, sizeof name, "nodes[%d]", n); /* cesium_man's nodes have no names */
        const int j = ossa_raw_skeleton_find(&im.skeleton, name);
        if (j < 0)
            continue;
        double m[16];
        ref_node_matrix(ref_item(&g, "nodes", n), m);
        ts_dmat got = ts_dmat_from_transform(im.skeleton.joints[j].rest);
        for (int r = 0; r < 3; ++r)
            for (int c = 0; c < 4; ++c)
                CHECK_NEAR(got.m[r][c], m[c * 4 + r], 1e-5);
        ++checked;
    }
    CHECK_INT(checked, im.skeleton.joint_count);
    /* The skin names 19 joints; the skeleton adds their two ancestors. */
    const cJSON *skin_joints = cJSON_GetObjectItem(ref_item(&g, "skins", 0), "joints");
    REQUIRE(im.mesh_count == 1);
    CHECK_INT(im.meshes[0].skin_joint_count, cJSON_GetArraySize(skin_joints));
    CHECK_INT(im.skeleton.joint_count, cJSON_GetArraySize(skin_joints) + 2);
    ossa_import_free(&im);
    ref_close(&g);
}

TEST(import_animated_nodes_without_skin_are_several_roots)
{
    const char *path = ts_model_path("khronos/interpolation_test.gltf");
    if (!path)
        SKIP("khronos/interpolation_test.gltf not found");
    ref_gltf g;
    REQUIRE(ref_open(&g, path) == 0);
    ossa_import im;
    REQUIRE(ts_import_model("khronos/interpolation_test.gltf", NULL, &im));
    /* The joints are exactly the animated nodes; the scene holds them side
     * by side, so each is a root (assimp's "ROOT" container is not a joint). */
    int animated = 0;
    const cJSON *anims = cJSON_GetObjectItem(g.json, "animations");
    for (int a = 0; a < cJSON_GetArraySize(anims); ++a) {
        const cJSON *ch = cJSON_GetArrayItem(cJSON_GetObjectItem(cJSON_GetArrayItem(anims, a),
                                                                 "channels"), 0);
        const int node = ref_int(cJSON_GetObjectItem(ch, "target"), "node", -1);
        const char *name = cJSON_GetStringValue(cJSON_GetObjectItem(ref_item(&g, "nodes", node),
                                                                    "name"));
        const int j = ossa_raw_skeleton_find(&im.skeleton, name);
        CHECK(j >= 0);
        if (j >= 0)
            CHECK_INT(im.skeleton.joints[j].parent, -1);
        ++animated;
    }
    CHECK_INT(im.skeleton.joint_count, animated);
    CHECK(ossa_raw_skeleton_find(&im.skeleton, "ROOT") < 0);
    CHECK(ossa_raw_skeleton_find(&im.skeleton, "Camera") < 0);
    ossa_import_free(&im);
    ref_close(&g);
}

TEST(import_reports_fbx_centimetres_and_gltf_metres)
{
    ossa_import fbx, gltf;
    TS_IMPORT_OR_SKIP("pab/arnaud.fbx", NULL, &fbx);
    TS_IMPORT_OR_SKIP("khronos/rigged_simple.gltf", NULL, &gltf);
    CHECK_INT(fbx.format, OSSA_SOURCE_FBX);
    CHECK_NEAR(fbx.source_metres_per_unit, 0.01, 1e-9); /* UnitScaleFactor 1: centimetres */
    CHECK_NEAR(fbx.metres_per_unit, 0.01, 1e-9);
    CHECK_INT(gltf.format, OSSA_SOURCE_GLTF);
    CHECK_NEAR(gltf.source_metres_per_unit, 1.0, 0.0);
    ossa_import_free(&fbx);
    ossa_import_free(&gltf);
}

TEST(import_scale_multiplies_every_length)
{
    ossa_import plain, scaled;
    ossa_import_options options = {0};
    options.scale = 0.01f;
    TS_IMPORT_OR_SKIP("pab/arnaud.fbx", NULL, &plain);
    TS_IMPORT_OR_SKIP("pab/arnaud.fbx", &options, &scaled);
    CHECK_NEAR(scaled.metres_per_unit, 1.0, 1e-6); /* centimetres x 0.01 = metres */
    CHECK_NEAR(scaled.source_metres_per_unit, 0.01, 1e-9);
    REQUIRE(plain.skeleton.joint_count == scaled.skeleton.joint_count);
    for (int j = 0; j < plain.skeleton.joint_count; ++j) {
        const ossa_transform a = plain.skeleton.joints[j].rest, b = scaled.skeleton.joints[j].rest;
        CHECK_NEAR(b.translation.y, a.translation.y * 0.01, 1e-6);
        CHECK_NEAR(b.rotation.w, a.rotation.w, 0.0);
        CHECK_NEAR(b.scale.x, a.scale.x, 0.0);
    }
    const ossa_raw_mesh *a = &plain.meshes[0], *b = &scaled.meshes[0];
    REQUIRE(a->vertex_count == b->vertex_count);
    for (int v = 0; v < a->vertex_count; v += 97)
        CHECK_NEAR(b->positions[v].y, a->positions[v].y * 0.01, 1e-5);
    for (int k = 0; k < a->skin_joint_count; ++k) {
        CHECK_NEAR(b->skin_joints[k].inverse_bind.m[1][3],
                   a->skin_joints[k].inverse_bind.m[1][3] * 0.01, 1e-5);
        CHECK_NEAR(b->skin_joints[k].inverse_bind.m[0][1], a->skin_joints[k].inverse_bind.m[0][1],
                   0.0);
    }
    ossa_import_free(&plain);
    ossa_import_free(&scaled);
}

TEST(import_skeleton_builds_and_keeps_units)
{
    ossa_import im;
    TS_IMPORT_OR_SKIP("pab/arnaud.fbx", NULL, &im);
    ossa_skeleton_build_options options = {0};
    options.metres_per_unit = im.metres_per_unit;
    options.breadth_first = true;
    ossa_skeleton *s;
    ossa_error e;
    REQUIRE(ossa_skeleton_build(&im.skeleton, &options, &s, NULL, &e) == OSSA_OK);
    CHECK_INT(ossa_skeleton_joint_count(s), im.skeleton.joint_count);
    CHECK_NEAR(ossa_skeleton_metres_per_unit(s), 0.01, 1e-9);
    CHECK(ossa_skeleton_is_breadth_first(s));
    ossa_skeleton_free(s, NULL);
    ossa_import_free(&im);
}

/* --all-nodes: the end-of-chain "Nub" nodes of the pab biped join the
 * skeleton, every other joint stays as it was, and the tree under Hips has
 * the 67 joints ozz-animation builds from this file (issue 5's anchor). */
TEST(import_all_nodes_adds_the_end_of_chain_nodes)
{
    ossa_import plain, all;
    ossa_import_options options = {0};
    options.all_nodes = true;
    TS_IMPORT_OR_SKIP("pab/skeleton.fbx", NULL, &plain);
    TS_IMPORT_OR_SKIP("pab/skeleton.fbx", &options, &all);
    const ossa_raw_skeleton *a = &all.skeleton, *p = &plain.skeleton;
    for (int j = 0; j < p->joint_count; ++j) {
        const int k = ossa_raw_skeleton_find(a, p->joints[j].name);
        REQUIRE(k >= 0);
        const int pp = p->joints[j].parent, ap = a->joints[k].parent;
        CHECK((pp < 0) == (ap < 0));
        if (pp >= 0 && ap >= 0)
            CHECK(strcmp(p->joints[pp].name, a->joints[ap].name) == 0);
        CHECK_NEAR(p->joints[j].rest.translation.x, a->joints[k].rest.translation.x, 1e-6);
        CHECK_NEAR(p->joints[j].rest.translation.y, a->joints[k].rest.translation.y, 1e-6);
        CHECK_NEAR(p->joints[j].rest.translation.z, a->joints[k].rest.translation.z, 1e-6);
    }
    int added = 0, under_hips = 0;
    for (int k = 0; k < a->joint_count; ++k) {
        if (ossa_raw_skeleton_find(p, a->joints[k].name) < 0) {
            ++added;
            CHECK(strstr(a->joints[k].name, "Nub") != NULL);
            REQUIRE(a->joints[k].parent >= 0);
        }
        int r = k;
        while (a->joints[r].parent >= 0)
            r = a->joints[r].parent;
        under_hips += strcmp(a->joints[r].name, "Hips") == 0;
    }
    CHECK_INT(added, 13); /* head, 2 x 5 fingers, 2 toes */
    CHECK_INT(under_hips, 67);
    ossa_import_free(&plain);
    ossa_import_free(&all);
}

UTEST_MAIN(import_folds_fbx_pivot_helpers_into_joints,
           import_all_nodes_adds_the_end_of_chain_nodes,
           import_fbx_folded_rest_pose_is_the_skin_bind_pose,
           import_fbx_joints_are_bones_and_their_ancestors,
           import_animated_cameras_are_not_joints, import_gltf_rest_pose_is_the_nodes_transform,
           import_animated_nodes_without_skin_are_several_roots,
           import_reports_fbx_centimetres_and_gltf_metres, import_scale_multiplies_every_length,
           import_skeleton_builds_and_keeps_units)
