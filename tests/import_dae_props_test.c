/* import_dae_props_test.c - Collada animated custom values as float
 * tracks. A generated file animates a node's translation, a number inside
 * the node's <extra> (a "footstep", stepped) and a camera's field of view:
 * the footstep becomes a track by itself, the field of view when named;
 * the expected keys are the ones written. Malformed channels get errors
 * naming the file, the channel and the fault. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import_gltf_writer.h"
#include "ossa/pipeline.h"
#include "test_support.h"
#include "utest.h"

/* OSSA_TEST_NEEDS_PIPELINE OSSA_TEST_NEEDS_IMPORTER */

enum variant { FINE, CLIPS, COUNT_MISMATCH, NOT_INCREASING };

static const double step_t[5] = {0.0, 0.25, 0.5, 0.75, 1.0};
static const double step_v[5] = {0.0, 1.0, 0.0, 1.0, 0.0};
static const double fov_t[2] = {0.0, 1.0}, fov_v[2] = {45.0, 30.0};

/* A source of n numbers (stride values per key). */
static void source(char *out, size_t size, const char *id, const double *v, int n, int stride)
{
    char numbers[512] = "";
    for (int k = 0; k < n; ++k)
        snprintf(numbers + strlen(numbers), sizeof numbers - strlen(numbers), "%s%.9g",
                 k ? " " : "", v[k]);
    snprintf(out, size,
             "<source id=\"%s\"><float_array id=\"%s-a\" count=\"%d\">%s</float_array>"
             "<technique_common><accessor source=\"#%s-a\" count=\"%d\" stride=\"%d\">"
             "<param name=\"V\" type=\"float\"/></accessor></technique_common></source>",
             id, id, n, numbers, id, n / stride, stride);
}

/* One sampler and channel: times, values (stride per key), target. */
static void channel(char *out, size_t size, const char *id, const double *t, int keys,
                    const double *v, int values, int stride, const char *target, bool step)
{
    char in[1024], vals[1024], modes[512] = "";
    source(in, sizeof in, "x-in", t, keys, 1);
    source(vals, sizeof vals, "x-out", v, values, stride);
    /* ids made unique per channel */
    char *p;
    while ((p = strstr(in, "x-in")))
        p[0] = id[0];
    while ((p = strstr(vals, "x-out")))
        p[0] = id[0];
    if (step) {
        char words[128] = "";
        for (int k = 0; k < keys; ++k)
            strcat(words, k ? " STEP" : "STEP");
        snprintf(modes, sizeof modes,
                 "<source id=\"%c-mode\"><Name_array id=\"%c-mode-a\" count=\"%d\">%s"
                 "</Name_array><technique_common><accessor source=\"#%c-mode-a\" count=\"%d\">"
                 "<param name=\"INTERPOLATION\" type=\"name\"/></accessor></technique_common>"
                 "</source>",
                 id[0], id[0], keys, words, id[0], keys);
    }
    char mode_input[64] = "";
    if (step)
        snprintf(mode_input, sizeof mode_input,
                 "<input semantic=\"INTERPOLATION\" source=\"#%c-mode\"/>", id[0]);
    snprintf(out, size,
             "%s%s%s<sampler id=\"%s\"><input semantic=\"INPUT\" source=\"#%c-in\"/>"
             "<input semantic=\"OUTPUT\" source=\"#%c-out\"/>%s</sampler>"
             "<channel source=\"#%s\" target=\"%s\"/>",
             in, vals, modes, id, id[0], id[0], mode_input, id, target);
}

static const char *write_dae(const char *file, enum variant variant)
{
    static char path[1024];
    snprintf(path, sizeof path, "%s/%s", ts_temp_dir(), file);
    const double move_t[2] = {0, 1}, move_v[6] = {0, 0, 0, 10, 0, 0};
    double t[5], v[5];
    memcpy(t, step_t, sizeof t);
    memcpy(v, step_v, sizeof v);
    if (variant == NOT_INCREASING)
        t[3] = 0.25;
    static char move[4096], step[4096], fov[4096];
    channel(move, sizeof move, "move-s", move_t, 2, move_v, 6, 3, "root/location", false);
    channel(step, sizeof step, "step-s", t, 5, v, variant == COUNT_MISMATCH ? 4 : 5, 1,
            "root/footstep", true);
    channel(fov, sizeof fov, "fov-s", fov_t, 2, fov_v, 2, 1, "cam/xfov", false);
    char *text = malloc(65536);
    snprintf(text, 65536,
             "<?xml version=\"1.0\"?>\n<COLLADA xmlns=\"http://www.collada.org/2005/11/"
             "COLLADASchema\" version=\"1.4.1\"><asset><unit meter=\"1\"/><up_axis>Y_UP"
             "</up_axis></asset><library_cameras><camera id=\"cam\" name=\"Cam\"><optics>"
             "<technique_common><perspective><xfov sid=\"xfov\">45</xfov><aspect_ratio>1"
             "</aspect_ratio><znear>0.1</znear><zfar>100</zfar></perspective></technique_common>"
             "</optics></camera></library_cameras><library_animations><animation id=\"take\">"
             "%s%s%s</animation></library_animations>%s"
             "<library_visual_scenes><visual_scene id=\"Scene\" name=\"Scene\">"
             "<node id=\"root\" name=\"Root\" type=\"NODE\"><translate sid=\"location\">0 0 0"
             "</translate><extra><technique profile=\"test\"><footstep sid=\"footstep\" "
             "type=\"float\">0</footstep></technique></extra>"
             "<node id=\"camnode\" name=\"CamNode\"><instance_camera url=\"#cam\"/></node>"
             "</node></visual_scene></library_visual_scenes><scene><instance_visual_scene "
             "url=\"#Scene\"/></scene></COLLADA>\n",
             move, step, fov,
             variant == CLIPS ? "<library_animation_clips><animation_clip id=\"walk\" "
                                "start=\"0\" end=\"1\"><instance_animation url=\"#take\"/>"
                                "</animation_clip></library_animation_clips>"
                              : "");
    const int r = tg_write_text(path, text);
    free(text);
    return r == 0 ? path : NULL;
}

static const ossa_raw_float_track *find_track(const ossa_import *im, const char *name)
{
    for (int t = 0; im->clip_float_tracks && t < im->clip_float_tracks[0].count; ++t)
        if (strcmp(im->clip_float_tracks[0].tracks[t].name, name) == 0)
            return &im->clip_float_tracks[0].tracks[t];
    return NULL;
}

static void expect_keys(const ossa_raw_float_track *t, const double *times, const double *values,
                        int n, ossa_interpolation mode)
{
    REQUIRE(t != NULL);
    CHECK_INT(t->key_count, n);
    CHECK_INT((int)t->interpolation, (int)mode);
    for (int k = 0; k < n && k < t->key_count; ++k) {
        CHECK(t->times_s[k] == (float)times[k]);
        CHECK(t->values[k] == (float)values[k]);
    }
}

static void import_ok(const char *path, const ossa_import_options *options, ossa_import *im)
{
    ossa_error e;
    const ossa_result r = ossa_import_file(path, options, im, &e);
    if (r != OSSA_OK)
        fprintf(stderr, "  %s\n", e.message);
    REQUIRE(r == OSSA_OK);
}

TEST(collada_extra_values_become_float_tracks)
{
    ossa_import im;
    import_ok(write_dae("custom.dae", FINE), NULL, &im);
    REQUIRE(im.clip_count == 1);
    CHECK_INT(im.clip_float_tracks[0].count, 1);
    expect_keys(find_track(&im, "Root.footstep"), step_t, step_v, 5, OSSA_INTERP_STEP);
    CHECK(find_track(&im, "Cam.xfov") == NULL); /* not in an <extra>: only when named */
    ossa_import_free(&im);
}

TEST(collada_named_values_are_imported_too)
{
    const char *names[1] = {"Cam.xfov"};
    ossa_import_options options;
    memset(&options, 0, sizeof options);
    options.track_nodes = names;
    options.track_node_count = 1;
    ossa_import im;
    import_ok(write_dae("named.dae", FINE), &options, &im);
    CHECK_INT(im.clip_float_tracks[0].count, 2);
    expect_keys(find_track(&im, "Root.footstep"), step_t, step_v, 5, OSSA_INTERP_STEP);
    expect_keys(find_track(&im, "Cam.xfov"), fov_t, fov_v, 2, OSSA_INTERP_LINEAR);
    ossa_import_free(&im);
}

TEST(collada_tracks_land_in_their_animation_clip)
{
    ossa_import im;
    import_ok(write_dae("clips.dae", CLIPS), NULL, &im);
    REQUIRE(im.clip_count == 1);
    CHECK(strcmp(im.clips[0].name, "walk") == 0);
    expect_keys(find_track(&im, "Root.footstep"), step_t, step_v, 5, OSSA_INTERP_STEP);
    ossa_import_free(&im);
}

static void expect_error(enum variant variant, const char *file, const char *what)
{
    ossa_import im;
    ossa_error e;
    CHECK(ossa_import_file(write_dae(file, variant), NULL, &im, &e) != OSSA_OK);
    const bool named = strstr(e.message, file) &&
                       strstr(e.message, "<channel target=\"root/footstep\">") &&
                       strstr(e.message, what);
    CHECK(named);
    if (!named)
        fprintf(stderr, "  %s: expected '%s', got: %s\n", file, what, e.message);
}

TEST(collada_malformed_channels_are_refused_naming_file_channel_and_fault)
{
    expect_error(COUNT_MISMATCH, "counts.dae", "5 key times but 4 values");
    expect_error(NOT_INCREASING, "order.dae", "key 3's time (0.25 s) is not after key 2's");
}

UTEST_MAIN(collada_extra_values_become_float_tracks, collada_named_values_are_imported_too,
           collada_tracks_land_in_their_animation_clip,
           collada_malformed_channels_are_refused_naming_file_channel_and_fault)
