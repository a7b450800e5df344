/* import_units_test.c - the unit a file declares, on Collada files the test
 * writes: a skinned triangle in centimetres (<unit meter="0.01"/>) with a
 * translation clip. Lengths stay the file's numbers and the unit is
 * recorded, as for FBX (import_skeleton_test checks FBX and glTF on the
 * shared models); --scale converts; the up axis stays a rotation. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ossa/ossa.h"
#include "ossa/pipeline.h"
#include "test_support.h"
#include "utest.h"

/* OSSA_TEST_NEEDS_PIPELINE OSSA_TEST_NEEDS_IMPORTER */

/* Joint A at the origin, B 100 units up A's y axis; vertices (0,0,0) on A,
 * (100,0,0) on B, (0,100,0) half on each; B's inverse bind matrix moves it
 * 100 down; clip "move" takes B from y = 100 to y = 250 in 1 s. */
static const char dae_head[] =
    "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
    "<COLLADA xmlns=\"http://www.collada.org/2005/11/COLLADASchema\" version=\"1.4.1\">\n";
static const char dae_body[] =
    "<library_geometries><geometry id=\"tri-mesh\" name=\"tri\"><mesh>\n"
    "<source id=\"pos\"><float_array id=\"pos-a\" count=\"9\">0 0 0 100 0 0 0 100 0</float_array>"
    "<technique_common><accessor source=\"#pos-a\" count=\"3\" stride=\"3\"><param name=\"X\" "
    "type=\"float\"/><param name=\"Y\" type=\"float\"/><param name=\"Z\" type=\"float\"/>"
    "</accessor></technique_common></source>\n"
    "<source id=\"nrm\"><float_array id=\"nrm-a\" count=\"3\">0 0 1</float_array>"
    "<technique_common><accessor source=\"#nrm-a\" count=\"1\" stride=\"3\"><param name=\"X\" "
    "type=\"float\"/><param name=\"Y\" type=\"float\"/><param name=\"Z\" type=\"float\"/>"
    "</accessor></technique_common></source>\n"
    "<vertices id=\"vtx\"><input semantic=\"POSITION\" source=\"#pos\"/></vertices>\n"
    "<triangles count=\"1\"><input semantic=\"VERTEX\" source=\"#vtx\" offset=\"0\"/>"
    "<input semantic=\"NORMAL\" source=\"#nrm\" offset=\"1\"/><p>0 0 1 0 2 0</p></triangles>\n"
    "</mesh></geometry></library_geometries>\n"
    "<library_controllers><controller id=\"skin\"><skin source=\"#tri-mesh\">\n"
    "<bind_shape_matrix>1 0 0 0 0 1 0 0 0 0 1 0 0 0 0 1</bind_shape_matrix>\n"
    "<source id=\"j\"><Name_array id=\"j-a\" count=\"2\">A B</Name_array><technique_common>"
    "<accessor source=\"#j-a\" count=\"2\" stride=\"1\"><param name=\"JOINT\" type=\"name\"/>"
    "</accessor></technique_common></source>\n"
    "<source id=\"m\"><float_array id=\"m-a\" count=\"32\">1 0 0 0 0 1 0 0 0 0 1 0 0 0 0 1 "
    "1 0 0 0 0 1 0 -100 0 0 1 0 0 0 0 1</float_array><technique_common><accessor "
    "source=\"#m-a\" count=\"2\" stride=\"16\"><param name=\"TRANSFORM\" type=\"float4x4\"/>"
    "</accessor></technique_common></source>\n"
    "<source id=\"w\"><float_array id=\"w-a\" count=\"2\">1 0.5</float_array><technique_common>"
    "<accessor source=\"#w-a\" count=\"2\" stride=\"1\"><param name=\"WEIGHT\" type=\"float\"/>"
    "</accessor></technique_common></source>\n"
    "<joints><input semantic=\"JOINT\" source=\"#j\"/><input semantic=\"INV_BIND_MATRIX\" "
    "source=\"#m\"/></joints>\n"
    "<vertex_weights count=\"3\"><input semantic=\"JOINT\" source=\"#j\" offset=\"0\"/>"
    "<input semantic=\"WEIGHT\" source=\"#w\" offset=\"1\"/><vcount>1 1 2</vcount>"
    "<v>0 0 1 0 0 1 1 1</v></vertex_weights>\n"
    "</skin></controller></library_controllers>\n"
    "<library_animations><animation id=\"move\" name=\"move\">\n"
    "<source id=\"in\"><float_array id=\"in-a\" count=\"2\">0 1</float_array><technique_common>"
    "<accessor source=\"#in-a\" count=\"2\" stride=\"1\"><param name=\"TIME\" type=\"float\"/>"
    "</accessor></technique_common></source>\n"
    "<source id=\"out\"><float_array id=\"out-a\" count=\"6\">0 100 0 0 250 0</float_array>"
    "<technique_common><accessor source=\"#out-a\" count=\"2\" stride=\"3\"><param name=\"X\" "
    "type=\"float\"/><param name=\"Y\" type=\"float\"/><param name=\"Z\" type=\"float\"/>"
    "</accessor></technique_common></source>\n"
    "<sampler id=\"s\"><input semantic=\"INPUT\" source=\"#in\"/><input semantic=\"OUTPUT\" "
    "source=\"#out\"/></sampler><channel source=\"#s\" target=\"B/location\"/>\n"
    "</animation></library_animations>\n"
    "<library_visual_scenes><visual_scene id=\"Scene\" name=\"Scene\">\n"
    "<node id=\"A\" sid=\"A\" name=\"A\" type=\"JOINT\"><translate sid=\"location\">0 0 0"
    "</translate><node id=\"B\" sid=\"B\" name=\"B\" type=\"JOINT\"><translate "
    "sid=\"location\">0 100 0</translate></node></node>\n"
    "<node id=\"mesh\" name=\"mesh\" type=\"NODE\"><instance_controller url=\"#skin\">"
    "<skeleton>#A</skeleton></instance_controller></node>\n"
    "</visual_scene></library_visual_scenes>\n"
    "<scene><instance_visual_scene url=\"#Scene\"/></scene>\n"
    "</COLLADA>\n";

/* Writes the triangle with `unit` (a <unit> element, or "" for none) and
 * the up axis; returns the path. */
static const char *write_dae(const char *name, const char *unit, const char *up_axis)
{
    static char path[4][1024];
    static int next;
    char *p = path[next++ % 4];
    snprintf(p, 1024, "%s/%s", ts_temp_dir(), name);
    FILE *f = fopen(p, "wb");
    if (!f)
        return p;
    fputs(dae_head, f);
    fprintf(f, "<asset>%s<up_axis>%s</up_axis></asset>\n", unit, up_axis);
    fputs(dae_body, f);
    fclose(f);
    return p;
}

static const char centimetres[] = "<unit name=\"centimeter\" meter=\"0.01\"/>";

static void expect_float3(ossa_float3 got, double x, double y, double z, double tolerance)
{
    CHECK_NEAR(got.x, x, tolerance);
    CHECK_NEAR(got.y, y, tolerance);
    CHECK_NEAR(got.z, z, tolerance);
}

/* Every length of the triangle times s, as the file's numbers say. */
static void expect_triangle(const ossa_import *im, double s)
{
    REQUIRE(im->skeleton.joint_count == 2); /* no joint for the scene root */
    const int a = ossa_raw_skeleton_find(&im->skeleton, "A");
    const int b = ossa_raw_skeleton_find(&im->skeleton, "B");
    REQUIRE(a == 0 && b == 1);
    const ossa_transform rest = im->skeleton.joints[b].rest;
    expect_float3(rest.translation, 0, 100 * s, 0, 1e-6 * s);
    expect_float3(rest.scale, 1, 1, 1, 0.0);
    CHECK_NEAR(rest.rotation.w, 1.0, 1e-7);
    REQUIRE(im->mesh_count == 1 && im->meshes[0].vertex_count == 3);
    const ossa_raw_mesh *m = &im->meshes[0];
    expect_float3(m->positions[1], 100 * s, 0, 0, 1e-6 * s);
    expect_float3(m->positions[2], 0, 100 * s, 0, 1e-6 * s);
    REQUIRE(m->skin_joint_count == 2);
    const int kb = strcmp(m->skin_joints[1].name, "B") == 0 ? 1 : 0;
    CHECK_NEAR(m->skin_joints[kb].inverse_bind.m[1][3], -100 * s, 1e-6 * s);
    CHECK_NEAR(m->skin_joints[kb].inverse_bind.m[1][1], 1.0, 0.0);
    REQUIRE(im->clip_count == 1);
    const ossa_raw_joint_track *t = ossa_raw_clip_find_track(&im->clips[0], "B");
    REQUIRE(t && t->translation.key_count == 2);
    expect_float3(t->translation.values[0], 0, 100 * s, 0, 1e-6 * s);
    expect_float3(t->translation.values[1], 0, 250 * s, 0, 1e-6 * s);
}

TEST(collada_keeps_its_lengths_and_records_its_unit)
{
    ossa_import im;
    ossa_error e;
    REQUIRE(ossa_import_file(write_dae("cm.dae", centimetres, "Y_UP"), NULL, &im, &e) ==
            OSSA_OK);
    CHECK_INT(im.format, OSSA_SOURCE_COLLADA);
    CHECK_NEAR(im.source_metres_per_unit, 0.01, 1e-9);
    CHECK_NEAR(im.metres_per_unit, 0.01, 1e-9);
    CHECK_NEAR(im.scale, 1.0, 0.0);
    expect_triangle(&im, 1.0);
    /* The skeleton blob records it. */
    ossa_skeleton_build_options options = {0};
    options.metres_per_unit = im.metres_per_unit;
    ossa_skeleton *s;
    REQUIRE(ossa_skeleton_build(&im.skeleton, &options, &s, NULL, &e) == OSSA_OK);
    CHECK_NEAR(ossa_skeleton_metres_per_unit(s), 0.01, 1e-9);
    ossa_skeleton_free(s, NULL);
    ossa_import_free(&im);
}

TEST(collada_in_metres_gives_the_same_numbers)
{
    static const char *const units[] = {"<unit name=\"meter\" meter=\"1\"/>",
                                        "", /* COLLADA's default: metres */
                                        "<unit name=\"inch\" meter=\"0.0254\"/>"};
    static const double metres[] = {1.0, 1.0, 0.0254};
    for (int u = 0; u < 3; ++u) {
        ossa_import im;
        ossa_error e;
        REQUIRE(ossa_import_file(write_dae("other.dae", units[u], "Y_UP"), NULL, &im, &e) ==
                OSSA_OK);
        CHECK_NEAR(im.source_metres_per_unit, metres[u], 1e-9);
        expect_triangle(&im, 1.0);
        ossa_import_free(&im);
    }
}

TEST(collada_scale_converts_centimetres_to_metres)
{
    ossa_import im;
    ossa_error e;
    ossa_import_options options = {0};
    options.scale = 0.01f;
    REQUIRE(ossa_import_file(write_dae("cm.dae", centimetres, "Y_UP"), &options, &im, &e) ==
            OSSA_OK);
    CHECK_NEAR(im.source_metres_per_unit, 0.01, 1e-9);
    CHECK_NEAR(im.metres_per_unit, 1.0, 1e-6);
    expect_triangle(&im, 0.01);
    ossa_import_free(&im);
}

/* Z_UP: assimp turns the scene to y up with the same root node that held
 * the unit; the rotation stays (a root joint, z becomes y), the unit goes. */
TEST(collada_z_up_keeps_the_axis_rotation_without_the_unit)
{
    ossa_import im;
    ossa_error e;
    REQUIRE(ossa_import_file(write_dae("cm_z.dae", centimetres, "Z_UP"), NULL, &im, &e) ==
            OSSA_OK);
    CHECK_NEAR(im.source_metres_per_unit, 0.01, 1e-9);
    REQUIRE(im.skeleton.joint_count == 3);
    const ossa_raw_joint *root = &im.skeleton.joints[0];
    CHECK_INT(root->parent, -1);
    CHECK_INT(im.skeleton.joints[ossa_raw_skeleton_find(&im.skeleton, "A")].parent, 0);
    expect_float3(root->rest.scale, 1, 1, 1, 1e-6);
    expect_float3(root->rest.translation, 0, 0, 0, 0.0);
    /* -90 degrees about x: (x, y, z) -> (x, z, -y). */
    const double h = sqrt(0.5), sign = root->rest.rotation.w < 0 ? -1.0 : 1.0;
    CHECK_NEAR(sign * root->rest.rotation.x, -h, 1e-6);
    CHECK_NEAR(root->rest.rotation.y, 0.0, 1e-6);
    CHECK_NEAR(root->rest.rotation.z, 0.0, 1e-6);
    CHECK_NEAR(sign * root->rest.rotation.w, h, 1e-6);
    const int b = ossa_raw_skeleton_find(&im.skeleton, "B");
    REQUIRE(b >= 0);
    expect_float3(im.skeleton.joints[b].rest.translation, 0, 100, 0, 1e-6);
    ossa_import_free(&im);
}

TEST(collada_unit_that_is_not_a_length_is_refused)
{
    static const char *const units[] = {"<unit meter=\"0\"/>", "<unit meter=\"-1\"/>",
                                        "<unit meter=\"1e-40\"/>"};
    for (int u = 0; u < 3; ++u) {
        char name[32];
        snprintf(name, sizeof name, "bad_unit_%d.dae", u);
        ossa_import im;
        ossa_error e;
        const ossa_result r = ossa_import_file(write_dae(name, units[u], "Y_UP"), NULL, &im, &e);
        CHECK_RESULT(r, OSSA_ERR_BAD_VALUE);
        if (r == OSSA_OK) {
            ossa_import_free(&im);
            continue;
        }
        CHECK(strstr(e.message, name) != NULL);
        CHECK(strstr(e.message, "<unit meter>") != NULL);
        CHECK(im.blocks_ == NULL);
    }
}

UTEST_MAIN(collada_keeps_its_lengths_and_records_its_unit, collada_in_metres_gives_the_same_numbers,
           collada_scale_converts_centimetres_to_metres,
           collada_z_up_keeps_the_axis_rotation_without_the_unit,
           collada_unit_that_is_not_a_length_is_refused)
