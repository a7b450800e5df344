/* import_node_kinds_test.c - which nodes become joints when a file is odd:
 * assimp's bone-display mesh (given to files without meshes) is left out
 * and binds nothing; animated cameras and FBX nulls are not joints unless
 * all_nodes asks; Collada clips take the file's clip name, else the file's,
 * never their first channel's. Collada inputs are written here; the BVH and
 * FBX cases use the shared models (skipped when absent). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import_gltf_writer.h"
#include "ossa/pipeline.h"
#include "test_support.h"
#include "utest.h"

/* OSSA_TEST_NEEDS_PIPELINE OSSA_TEST_NEEDS_IMPORTER */

/* An animation-only Collada walk: a camera node and a two-joint leg, each
 * with a translation channel, the camera's first; `clips` goes after the
 * animations (a <library_animation_clips>, or ""). */
static const char *walk_dae(const char *name, const char *clips)
{
    static char path[1024];
    snprintf(path, sizeof path, "%s/%s", ts_temp_dir(), name);
    static const char channel[] =
        "<animation id=\"%s_translate\" name=\"%s_translate\">"
        "<source id=\"%s-in\"><float_array id=\"%s-in-a\" count=\"2\">0 1</float_array>"
        "<technique_common><accessor source=\"#%s-in-a\" count=\"2\" stride=\"1\">"
        "<param name=\"TIME\" type=\"float\"/></accessor></technique_common></source>"
        "<source id=\"%s-out\"><float_array id=\"%s-out-a\" count=\"6\">0 1 0 0 2 0</float_array>"
        "<technique_common><accessor source=\"#%s-out-a\" count=\"2\" stride=\"3\">"
        "<param name=\"X\" type=\"float\"/><param name=\"Y\" type=\"float\"/>"
        "<param name=\"Z\" type=\"float\"/></accessor></technique_common></source>"
        "<sampler id=\"%s-s\"><input semantic=\"INPUT\" source=\"#%s-in\"/>"
        "<input semantic=\"OUTPUT\" source=\"#%s-out\"/></sampler>"
        "<channel source=\"#%s-s\" target=\"%s/translate\"/></animation>";
    char animations[2][2048];
    const char *targets[2] = {"Camera01", "Hip"};
    for (int i = 0; i < 2; ++i) {
        const char *t = targets[i];
        snprintf(animations[i], sizeof animations[i], channel, t, t, t, t, t, t, t, t, t, t, t,
                 t, t);
    }
    char *text = malloc(16384);
    snprintf(text, 16384,
             "<?xml version=\"1.0\"?>\n<COLLADA xmlns=\"http://www.collada.org/2005/11/"
             "COLLADASchema\" version=\"1.4.1\"><asset><unit meter=\"1\"/><up_axis>Y_UP"
             "</up_axis></asset><library_cameras><camera id=\"cam\" name=\"cam\"><optics>"
             "<technique_common><perspective><yfov>45</yfov><aspect_ratio>1</aspect_ratio>"
             "<znear>0.1</znear><zfar>100</zfar></perspective></technique_common></optics>"
             "</camera></library_cameras><library_animations>%s%s</library_animations>%s"
             "<library_visual_scenes><visual_scene id=\"Scene\" name=\"Scene\">"
             "<node id=\"Camera01\" name=\"Camera01\" type=\"NODE\"><translate sid=\"translate\">"
             "0 0 5</translate><instance_camera url=\"#cam\"/></node>"
             "<node id=\"Hip\" name=\"Hip\" sid=\"Hip\" type=\"JOINT\"><translate "
             "sid=\"translate\">0 1 0</translate><node id=\"Knee\" name=\"Knee\" sid=\"Knee\" "
             "type=\"JOINT\"><translate sid=\"translate\">0 -0.5 0</translate></node></node>"
             "</visual_scene></library_visual_scenes><scene><instance_visual_scene "
             "url=\"#Scene\"/></scene></COLLADA>\n",
             animations[0], animations[1], clips);
    const int r = tg_write_text(path, text);
    free(text);
    return r == 0 ? path : NULL;
}

TEST(collada_animation_file_has_no_display_mesh_and_no_camera_joint)
{
    const char *path = walk_dae("walk.dae", "");
    REQUIRE(path);
    ossa_import im;
    ossa_error e;
    REQUIRE(ossa_import_file(path, NULL, &im, &e) == OSSA_OK);
    /* The leg only: not the scene root (which assimp's display mesh bound),
     * not the camera its channel moves. */
    CHECK_INT(im.skeleton.joint_count, 2);
    CHECK(ossa_raw_skeleton_find(&im.skeleton, "Hip") == 0);
    CHECK(ossa_raw_skeleton_find(&im.skeleton, "Knee") == 1);
    CHECK(ossa_raw_skeleton_find(&im.skeleton, "Camera01") < 0);
    CHECK(ossa_raw_skeleton_find(&im.skeleton, "Scene") < 0);
    CHECK_INT(im.mesh_count, 0);
    /* Named after the file, not after the camera's channel. */
    REQUIRE(im.clip_count == 1);
    CHECK(strcmp(im.clips[0].name, "walk") == 0);
    ossa_import_free(&im);
    /* As a later input (no_meshes), nothing to skip either. */
    ossa_import_options options = {0};
    options.no_meshes = true;
    REQUIRE(ossa_import_file(path, &options, &im, &e) == OSSA_OK);
    CHECK_INT(im.skipped_meshes, 0);
    ossa_import_free(&im);
    /* all_nodes: the animated camera is a joint. */
    options.no_meshes = false;
    options.all_nodes = true;
    REQUIRE(ossa_import_file(path, &options, &im, &e) == OSSA_OK);
    CHECK(ossa_raw_skeleton_find(&im.skeleton, "Camera01") >= 0);
    ossa_import_free(&im);
}

TEST(collada_clip_takes_the_files_animation_clip_name)
{
    const char *path =
        walk_dae("walk_clip.dae",
                 "<library_animation_clips><animation_clip id=\"clip-walk\" name=\"Walk\" "
                 "start=\"0\" end=\"1\"><instance_animation url=\"#Hip_translate\"/>"
                 "<instance_animation url=\"#Camera01_translate\"/></animation_clip>"
                 "</library_animation_clips>");
    REQUIRE(path);
    ossa_import im;
    ossa_error e;
    REQUIRE(ossa_import_file(path, NULL, &im, &e) == OSSA_OK);
    REQUIRE(im.clip_count == 1);
    CHECK(strcmp(im.clips[0].name, "Walk") == 0);
    ossa_import_free(&im);
}

TEST(bvh_skeleton_keeps_every_node_and_no_display_mesh)
{
    ossa_import im;
    TS_IMPORT_OR_SKIP("cmu/scaled_131_01.bvh", NULL, &im);
    /* 31 animated joints and 7 end sites (a BVH is all skeleton); assimp's
     * bone-display mesh is not written. */
    CHECK_INT(im.skeleton.joint_count, 38);
    CHECK(ossa_raw_skeleton_find(&im.skeleton, "EndSite_Head") >= 0);
    CHECK_INT(im.mesh_count, 0);
    ossa_import_free(&im);
}

TEST(fbx_animated_null_is_a_joint_only_with_all_nodes)
{
    ossa_import im;
    TS_IMPORT_OR_SKIP("pab/walk.fbx", NULL, &im);
    /* 3ds Max's footstep dummy: an FBX null a curve moves. */
    CHECK(ossa_raw_skeleton_find(&im.skeleton, "Bip01 Footsteps") < 0);
    CHECK(ossa_raw_skeleton_find(&im.skeleton, "Camera01") < 0);
    CHECK(ossa_raw_skeleton_find(&im.skeleton, "Hips") >= 0);
    const int joints = im.skeleton.joint_count;
    ossa_import_free(&im);
    ossa_import_options options = {0};
    options.all_nodes = true;
    TS_IMPORT_OR_SKIP("pab/walk.fbx", &options, &im);
    CHECK(ossa_raw_skeleton_find(&im.skeleton, "Bip01 Footsteps") >= 0);
    CHECK(im.skeleton.joint_count > joints);
    ossa_import_free(&im);
}

UTEST_MAIN(collada_animation_file_has_no_display_mesh_and_no_camera_joint,
           collada_clip_takes_the_files_animation_clip_name,
           bvh_skeleton_keeps_every_node_and_no_display_mesh,
           fbx_animated_null_is_a_joint_only_with_all_nodes)
