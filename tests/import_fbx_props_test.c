/* import_fbx_props_test.c - FBX animated properties as float tracks.
 * Synthetic files, binary (fbx_binary_writer.h) and ASCII, hold a node with a
 * translation curve, animated user properties (a stepped "footstep", a
 * vector "Tint"), a built-in one ("Visibility") and a hidden user one: the
 * expected tracks are the written keys. The real walk.fbx's camera "Roll"
 * curves are checked against tests/data/fbx_curve_keys.py, a reader of its
 * own (python3, struct and zlib). Malformed curves get errors naming the
 * file, the curve and the fault. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fbx_binary_writer.h"
#include "ossa/ossa.h"
#include "ossa/pipeline.h"
#include "test_support.h"
#include "tool_run.h"
#include "utest.h"

/* OSSA_TEST_NEEDS_PIPELINE OSSA_TEST_NEEDS_IMPORTER OSSA_TEST_NEEDS_ZLIB */

#define TICKS 46186158000.0
/* Requires an import (or a build) to succeed, printing the error if not. */
#define REQUIRE_OK(expr, error)                                                                \
    do {                                                                                       \
        const ossa_result result_ = (expr);                                                    \
        if (result_ != OSSA_OK)                                                                \
            fprintf(stderr, "  %s\n", (error).message);                                        \
        REQUIRE(result_ == OSSA_OK);                                                           \
    } while (0)
#define START (TICKS / 2) /* the stack's LocalStart: 0.5 s */

enum fault { FINE, NO_LOCAL_START, COUNT_MISMATCH, NOT_INCREASING, NAN_VALUE, BAD_DEFLATE };

/* footstep: stepped 0/1 every 0.25 s from the clip's start, deflated. */
static const double footstep_s[5] = {0.0, 0.25, 0.5, 0.75, 1.0};
static const double footstep_v[5] = {0.0, 1.0, 0.0, 1.0, 0.0};
/* Tint: linear from (0.1, 0.2, 0.3) at 0 s to (0.9, 0.8, 0.7) at 1 s. */
static const double tint_from[3] = {0.1, 0.2, 0.3}, tint_to[3] = {0.9, 0.8, 0.7};

static void property(fbw *w, const char *name, const char *type, const char *flags, int values)
{
    fbw_open(w, "P");
    fbw_S(w, name);
    fbw_S(w, type);
    fbw_S(w, "");
    fbw_S(w, flags);
    for (int k = 0; k < values; ++k)
        fbw_D(w, 0.0);
    fbw_close(w);
}

static void object(fbw *w, const char *record, int64_t id, const char *name, const char *cls,
                   const char *sub)
{
    fbw_open(w, record);
    fbw_L(w, id);
    fbw_name(w, name, cls);
    fbw_S(w, sub);
}

/* A curve of n keys at seconds from the clip's start; flags: one key
 * attribute run for all keys (0: no KeyAttr arrays). */
static void curve(fbw *w, int64_t id, const double *seconds, const double *values, int n,
                  int value_count, int flags, bool deflate)
{
    double ticks[16];
    for (int k = 0; k < n; ++k)
        ticks[k] = round(START + seconds[k] * TICKS);
    object(w, "AnimationCurve", id, "", "AnimCurve", "");
    fbw_open(w, "Default");
    fbw_D(w, 0.0);
    fbw_close(w);
    fbw_open(w, "KeyTime");
    fbw_array(w, 'l', ticks, n, deflate);
    fbw_close(w);
    fbw_open(w, "KeyValueFloat");
    fbw_array(w, 'f', values, value_count, deflate);
    fbw_close(w);
    if (flags) {
        const double f[1] = {flags}, runs[1] = {n};
        fbw_open(w, "KeyAttrFlags");
        fbw_array(w, 'i', f, 1, false);
        fbw_close(w);
        fbw_open(w, "KeyAttrRefCount");
        fbw_array(w, 'i', runs, 1, false);
        fbw_close(w);
    }
    fbw_close(w);
}

static void connect(fbw *w, const char *type, int64_t child, int64_t parent, const char *prop)
{
    fbw_open(w, "C");
    fbw_S(w, type);
    fbw_L(w, child);
    fbw_L(w, parent);
    if (prop)
        fbw_S(w, prop);
    fbw_close(w);
}

/* assimp reads an object only when it has a scope (children): curve
 * nodes and layers get their Properties70. */
static void curve_node(fbw *w, int64_t id, const char *name)
{
    object(w, "AnimationCurveNode", id, name, "AnimCurveNode", "");
    fbw_open(w, "Properties70");
    property(w, "d|X", "Number", "A", 1);
    fbw_close(w);
    fbw_close(w);
}

/* The test scene, with one fault in the footstep curve (id 611). */
static const char *write_scene(const char *file, enum fault fault)
{
    static char path[1024];
    snprintf(path, sizeof path, "%s/%s", ts_temp_dir(), file);
    fbw w;
    fbw_begin(&w);
    fbw_open(&w, "FBXHeaderExtension");
    fbw_open(&w, "FBXHeaderVersion");
    fbw_I(&w, 1003);
    fbw_close(&w);
    fbw_open(&w, "FBXVersion");
    fbw_I(&w, 7400);
    fbw_close(&w);
    fbw_close(&w);

    fbw_open(&w, "Objects");
    object(&w, "Model", 100, "Root", "Model", "Null");
    fbw_open(&w, "Version");
    fbw_I(&w, 232);
    fbw_close(&w);
    fbw_open(&w, "Properties70");
    property(&w, "Lcl Translation", "Lcl Translation", "A", 3);
    property(&w, "footstep", "Number", "A+U", 1);
    property(&w, "Tint", "Vector3D", "A+U", 3);
    property(&w, "Visibility", "Visibility", "A", 1);
    property(&w, "secret", "Number", "A+UH", 1);
    fbw_close(&w);
    fbw_close(&w);

    object(&w, "AnimationStack", 300, "walk", "AnimStack", "");
    fbw_open(&w, "Properties70");
    if (fault != NO_LOCAL_START) {
        fbw_open(&w, "P");
        fbw_S(&w, "LocalStart");
        fbw_S(&w, "KTime");
        fbw_S(&w, "Time");
        fbw_S(&w, "");
        fbw_L(&w, (int64_t)START);
        fbw_close(&w);
        fbw_open(&w, "P");
        fbw_S(&w, "LocalStop");
        fbw_S(&w, "KTime");
        fbw_S(&w, "Time");
        fbw_S(&w, "");
        fbw_L(&w, (int64_t)(START + TICKS));
        fbw_close(&w);
    }
    fbw_close(&w);
    fbw_close(&w);
    object(&w, "AnimationLayer", 400, "BaseLayer", "AnimLayer", "");
    fbw_open(&w, "Properties70");
    fbw_close(&w);
    fbw_close(&w);
    curve_node(&w, 500, "T");
    curve_node(&w, 510, "footstep");
    curve_node(&w, 520, "Tint");
    curve_node(&w, 530, "Visibility");
    curve_node(&w, 540, "secret");

    /* Without a LocalStart the clip starts at its earliest key: the
     * translation's, a quarter second before the others. */
    const double move_s[2] = {fault == NO_LOCAL_START ? -0.25 : 0.0, 1.0}, move_v[2] = {0, 10};
    curve(&w, 601, move_s, move_v, 2, 2, 0, false);
    double seconds[5], values[5];
    memcpy(seconds, footstep_s, sizeof seconds);
    memcpy(values, footstep_v, sizeof values);
    if (fault == NOT_INCREASING) {
        seconds[2] = 0.75;
        seconds[3] = 0.5;
    }
    if (fault == NAN_VALUE)
        values[1] = NAN;
    if (fault == BAD_DEFLATE) {
        double ticks[6];
        for (int k = 0; k < 6; ++k)
            ticks[k] = round(START + (k < 5 ? seconds[k] : 2.0) * TICKS);
        object(&w, "AnimationCurve", 611, "", "AnimCurve", "");
        fbw_open(&w, "KeyTime");
        fbw_array_ex(&w, 'l', ticks, 6, true, 5);
        fbw_close(&w);
        fbw_open(&w, "KeyValueFloat");
        fbw_array(&w, 'f', values, 5, true);
        fbw_close(&w);
        fbw_close(&w);
    } else {
        curve(&w, 611, seconds, values, 5, fault == COUNT_MISMATCH ? 4 : 5, 0x2, true);
    }
    const double line_s[2] = {0.0, 1.0};
    for (int c = 0; c < 3; ++c) {
        const double v[2] = {tint_from[c], tint_to[c]};
        curve(&w, 621 + c, line_s, v, 2, 2, 0x4, false);
    }
    const double visible[2] = {1, 0}, hidden[2] = {5, 6};
    curve(&w, 631, line_s, visible, 2, 2, 0, false);
    curve(&w, 641, line_s, hidden, 2, 2, 0, false);
    fbw_close(&w); /* Objects */

    fbw_open(&w, "Connections");
    connect(&w, "OO", 100, 0, NULL);
    connect(&w, "OO", 400, 300, NULL);
    const char *props[5] = {"Lcl Translation", "footstep", "Tint", "Visibility", "secret"};
    for (int k = 0; k < 5; ++k) {
        connect(&w, "OO", 500 + 10 * k, 400, NULL);
        connect(&w, "OP", 500 + 10 * k, 100, props[k]);
    }
    connect(&w, "OP", 601, 500, "d|X");
    connect(&w, "OP", 611, 510, "d|footstep");
    connect(&w, "OP", 621, 520, "d|X");
    connect(&w, "OP", 622, 520, "d|Y");
    connect(&w, "OP", 623, 520, "d|Z");
    connect(&w, "OP", 631, 530, "d|Visibility");
    connect(&w, "OP", 641, 540, "d|secret");
    fbw_close(&w);
    if (!fbw_save(&w, path))
        abort();
    return path;
}

/* ASCII keys: "*n { a: t0,t1... }" of ticks from the clip's start in
 * seconds, or of values. */
static void ascii_keys(FILE *f, const char *key, const double *x, int n, bool ticks)
{
    fprintf(f, "\t\t%s: *%d {\n\t\t\ta: ", key, n);
    for (int k = 0; k < n; ++k)
        fprintf(f, ticks ? "%s%.0f" : "%s%.9g", k ? "," : "", ticks ? round(START + x[k] * TICKS) : x[k]);
    fprintf(f, "\n\t\t}\n");
}

static void ascii_curve(FILE *f, int id, const double *seconds, const double *values, int n,
                        int value_count, int flags)
{
    fprintf(f, "\tAnimationCurve: %d, \"AnimCurve::\", \"\" {\n\t\tDefault: 0\n\t\tKeyVer: 4009\n",
            id);
    ascii_keys(f, "KeyTime", seconds, n, true);
    ascii_keys(f, "KeyValueFloat", values, value_count, false);
    if (flags) {
        const double f1[1] = {flags}, runs[1] = {n};
        ascii_keys(f, "KeyAttrFlags", f1, 1, false);
        ascii_keys(f, "KeyAttrRefCount", runs, 1, false);
    }
    fprintf(f, "\t}\n");
}

/* The same scene as an ASCII FBX (FINE or COUNT_MISMATCH). */
static const char *write_ascii_scene(const char *file, enum fault fault)
{
    static char path[1024];
    snprintf(path, sizeof path, "%s/%s", ts_temp_dir(), file);
    FILE *f = fopen(path, "w");
    if (!f)
        abort();
    fprintf(f, "; FBX 7.4.0 project file\nFBXHeaderExtension:  {\n\tFBXHeaderVersion: 1003\n"
               "\tFBXVersion: 7400\n}\nObjects:  {\n"
               "\tModel: 100, \"Model::Root\", \"Null\" {\n\t\tVersion: 232\n"
               "\t\tProperties70:  {\n"
               "\t\t\tP: \"Lcl Translation\", \"Lcl Translation\", \"\", \"A\",0,0,0\n"
               "\t\t\tP: \"footstep\", \"Number\", \"\", \"A+U\",0\n"
               "\t\t\tP: \"Tint\", \"Vector3D\", \"Vector\", \"A+U\",0,0,0\n"
               "\t\t\tP: \"Visibility\", \"Visibility\", \"\", \"A\",1\n"
               "\t\t\tP: \"secret\", \"Number\", \"\", \"A+UH\",0\n\t\t}\n\t}\n");
    fprintf(f, "\tAnimationStack: 300, \"AnimStack::walk\", \"\" {\n\t\tProperties70:  {\n"
               "\t\t\tP: \"LocalStart\", \"KTime\", \"Time\", \"\",%.0f\n"
               "\t\t\tP: \"LocalStop\", \"KTime\", \"Time\", \"\",%.0f\n\t\t}\n\t}\n",
            START, START + TICKS);
    fprintf(f, "\tAnimationLayer: 400, \"AnimLayer::BaseLayer\", \"\" {\n\t}\n");
    const char *nodes[5] = {"T", "footstep", "Tint", "Visibility", "secret"};
    for (int k = 0; k < 5; ++k)
        fprintf(f, "\tAnimationCurveNode: %d, \"AnimCurveNode::%s\", \"\" {\n"
                   "\t\tProperties70:  {\n\t\t\tP: \"d|X\", \"Number\", \"\", \"A\",0\n\t\t}\n\t}\n",
                500 + 10 * k, nodes[k]);
    const double move_s[2] = {0.0, 1.0}, move_v[2] = {0, 10}, line_s[2] = {0.0, 1.0};
    ascii_curve(f, 601, move_s, move_v, 2, 2, 0);
    ascii_curve(f, 611, footstep_s, footstep_v, 5, fault == COUNT_MISMATCH ? 4 : 5, 0x2);
    for (int c = 0; c < 3; ++c) {
        const double v[2] = {tint_from[c], tint_to[c]};
        ascii_curve(f, 621 + c, line_s, v, 2, 2, 0x4);
    }
    const double visible[2] = {1, 0}, hidden[2] = {5, 6};
    ascii_curve(f, 631, line_s, visible, 2, 2, 0);
    ascii_curve(f, 641, line_s, hidden, 2, 2, 0);
    fprintf(f, "}\nConnections:  {\n\tC: \"OO\",100,0\n\tC: \"OO\",400,300\n");
    const char *props[5] = {"Lcl Translation", "footstep", "Tint", "Visibility", "secret"};
    for (int k = 0; k < 5; ++k)
        fprintf(f, "\tC: \"OO\",%d,400\n\tC: \"OP\",%d,100, \"%s\"\n", 500 + 10 * k,
                500 + 10 * k, props[k]);
    fprintf(f, "\tC: \"OP\",601,500, \"d|X\"\n\tC: \"OP\",611,510, \"d|footstep\"\n"
               "\tC: \"OP\",621,520, \"d|X\"\n\tC: \"OP\",622,520, \"d|Y\"\n"
               "\tC: \"OP\",623,520, \"d|Z\"\n\tC: \"OP\",631,530, \"d|Visibility\"\n"
               "\tC: \"OP\",641,540, \"d|secret\"\n}\n");
    if (fclose(f) != 0)
        abort();
    return path;
}

static const ossa_raw_float_track *find_track(const ossa_import *im, const char *name)
{
    for (int t = 0; im->clip_float_tracks && t < im->clip_float_tracks[0].count; ++t)
        if (strcmp(im->clip_float_tracks[0].tracks[t].name, name) == 0)
            return &im->clip_float_tracks[0].tracks[t];
    return NULL;
}

/* The track has the keys given (times from the clip's start + shift). */
static void expect_keys(const ossa_raw_float_track *t, const double *seconds,
                        const double *values, int n, double shift, ossa_interpolation mode)
{
    REQUIRE(t != NULL);
    CHECK_INT(t->key_count, n);
    CHECK_INT((int)t->interpolation, (int)mode);
    for (int k = 0; k < n && k < t->key_count; ++k) {
        CHECK_NEAR(t->times_s[k], seconds[k] + shift, 1e-6);
        CHECK(t->values[k] == (float)values[k]);
    }
}

static void expect_scene_tracks(const ossa_import *im, double shift)
{
    expect_keys(find_track(im, "Root.footstep"), footstep_s, footstep_v, 5, shift,
                OSSA_INTERP_STEP);
    const double line_s[2] = {0.0, 1.0};
    const char *tint[3] = {"Root.Tint.x", "Root.Tint.y", "Root.Tint.z"};
    for (int c = 0; c < 3; ++c) {
        const double v[2] = {tint_from[c], tint_to[c]};
        expect_keys(find_track(im, tint[c]), line_s, v, 2, shift, OSSA_INTERP_LINEAR);
    }
}

TEST(fbx_user_properties_become_float_tracks_of_their_clip)
{
    ossa_import im;
    ossa_error e;
    REQUIRE_OK(ossa_import_file(write_scene("props.fbx", FINE), NULL, &im, &e), e);
    REQUIRE(im.clip_count == 1);
    CHECK(strcmp(im.clips[0].name, "walk") == 0);
    /* footstep and Tint's three channels; not the built-in Visibility nor
     * the hidden user property. */
    CHECK_INT(im.clip_float_tracks[0].count, 4);
    expect_scene_tracks(&im, 0.0);
    CHECK(find_track(&im, "Root.Visibility") == NULL);
    CHECK(find_track(&im, "Root.secret") == NULL);
    ossa_import_free(&im);
}

TEST(fbx_named_properties_are_imported_too)
{
    const char *names[3] = {"Root.Visibility", "Root.secret", "Root.Tint.y"};
    ossa_import_options options;
    memset(&options, 0, sizeof options);
    options.track_nodes = names;
    options.track_node_count = 3;
    ossa_import im;
    ossa_error e;
    REQUIRE_OK(ossa_import_file(write_scene("named.fbx", FINE), &options, &im, &e), e);
    CHECK_INT(im.clip_float_tracks[0].count, 6);
    expect_scene_tracks(&im, 0.0);
    const double line_s[2] = {0.0, 1.0}, visible[2] = {1, 0}, hidden[2] = {5, 6};
    expect_keys(find_track(&im, "Root.Visibility"), line_s, visible, 2, 0.0, OSSA_INTERP_LINEAR);
    expect_keys(find_track(&im, "Root.secret"), line_s, hidden, 2, 0.0, OSSA_INTERP_LINEAR);
    ossa_import_free(&im);
}

TEST(fbx_clip_without_local_start_starts_at_its_earliest_key)
{
    ossa_import im;
    ossa_error e;
    REQUIRE_OK(ossa_import_file(write_scene("no_start.fbx", NO_LOCAL_START), NULL, &im, &e), e);
    REQUIRE(im.clip_count == 1);
    expect_scene_tracks(&im, 0.25);
    /* the joint's curve agrees: its first key is the clip's start */
    const ossa_raw_joint_track *root = ossa_raw_clip_find_track(&im.clips[0], "Root");
    REQUIRE(root != NULL);
    REQUIRE(root->translation.key_count >= 1);
    CHECK_NEAR(root->translation.times_s[0], 0.0, 1e-6);
    ossa_import_free(&im);
}

TEST(fbx_ascii_files_give_the_same_tracks)
{
    const char *names[1] = {"Root.Visibility"};
    ossa_import_options options;
    memset(&options, 0, sizeof options);
    options.track_nodes = names;
    options.track_node_count = 1;
    ossa_import im;
    ossa_error e;
    REQUIRE_OK(ossa_import_file(write_ascii_scene("ascii.fbx", FINE), &options, &im, &e), e);
    REQUIRE(im.clip_count == 1);
    CHECK_INT(im.clip_float_tracks[0].count, 5);
    expect_scene_tracks(&im, 0.0);
    const double line_s[2] = {0.0, 1.0}, visible[2] = {1, 0};
    expect_keys(find_track(&im, "Root.Visibility"), line_s, visible, 2, 0.0, OSSA_INTERP_LINEAR);
    CHECK(find_track(&im, "Root.secret") == NULL);
    ossa_import_free(&im);
    const char *bad = write_ascii_scene("ascii_counts.fbx", COUNT_MISMATCH);
    CHECK(ossa_import_file(bad, NULL, &im, &e) != OSSA_OK);
    CHECK(strstr(e.message, "ascii_counts.fbx") && strstr(e.message, "AnimationCurve 611") &&
          strstr(e.message, "5 key times but 4 values"));
}

/* Baked into a clip, the tracks play the source's keys. */
TEST(fbx_property_tracks_bake_into_the_clip)
{
    ossa_import im;
    ossa_error e;
    REQUIRE_OK(ossa_import_file(write_scene("bake.fbx", FINE), NULL, &im, &e), e);
    ossa_skeleton *skeleton = ts_import_skeleton(&im);
    REQUIRE(skeleton != NULL);
    ossa_clip_build_options options;
    memset(&options, 0, sizeof options);
    options.raw = true;
    options.rate = 30.0f;
    options.float_tracks = im.clip_float_tracks[0].tracks;
    options.float_track_count = im.clip_float_tracks[0].count;
    ossa_clip *clip = NULL;
    REQUIRE_OK(ossa_clip_build(&im.clips[0], skeleton, &options, &clip, NULL, &e), e);
    const int step = ossa_clip_find_float_track(clip, "Root.footstep");
    const int tint = ossa_clip_find_float_track(clip, "Root.Tint.z");
    REQUIRE(step >= 0 && tint >= 0);
    const ossa_float_track footstep = ossa_clip_float_track(clip, step);
    const ossa_float_track z = ossa_clip_float_track(clip, tint);
    for (int i = 0; i < 40; ++i) {
        const double t = (i + 0.5) / 40.0;
        /* stepped: the value of the last key at or before t (keys every
         * 0.25 s; these times stay a frame away from them) */
        const double held = footstep_v[(int)floor(t / 0.25)];
        if (fabs(t / 0.25 - round(t / 0.25)) * 0.25 > 1.0 / 30.0)
            CHECK_NEAR(ossa_float_track_sample(&footstep, (float)t), held, 1e-6);
        CHECK_NEAR(ossa_float_track_sample(&z, (float)t), tint_from[2] + (tint_to[2] - tint_from[2]) * t,
                   1e-5);
    }
    ossa_clip_free(clip, NULL);
    ossa_skeleton_free(skeleton, NULL);
    ossa_import_free(&im);
}

static void expect_error(enum fault fault, const char *file, const char *what)
{
    ossa_import im;
    ossa_error e;
    const char *path = write_scene(file, fault);
    CHECK(ossa_import_file(path, NULL, &im, &e) != OSSA_OK);
    const bool named = strstr(e.message, file) && strstr(e.message, "AnimationCurve 611") &&
                       strstr(e.message, "'Root.footstep'") && strstr(e.message, what);
    CHECK(named);
    if (!named)
        fprintf(stderr, "  %s: expected '%s', got: %s\n", file, what, e.message);
}

TEST(fbx_malformed_property_curves_are_refused_naming_file_curve_and_fault)
{
    expect_error(COUNT_MISMATCH, "counts.fbx", "5 key times but 4 values");
    expect_error(NOT_INCREASING, "order.fbx", "key 3's time");
    expect_error(NAN_VALUE, "nan.fbx", "key 1's value is nan");
    /* the deflated KeyTime holds 6 values where 5 are announced */
    ossa_import im;
    ossa_error e;
    CHECK(ossa_import_file(write_scene("deflate.fbx", BAD_DEFLATE), NULL, &im, &e) != OSSA_OK);
    CHECK(strstr(e.message, "deflate.fbx") && strstr(e.message, "KeyTime") &&
          strstr(e.message, "hold more than 5 values"));
    if (!strstr(e.message, "hold more than 5 values"))
        fprintf(stderr, "  deflate.fbx: got: %s\n", e.message);
}

/* From the command line: ossa info lists the tracks; --track names a
 * built-in property, and a name nothing animates is refused. */
TEST(fbx_property_tracks_from_the_command_line)
{
#ifndef OSSA_TEST_TOOL
    SKIP("the ossa tool is not built");
#else
    const char *fbx = write_scene("cli.fbx", FINE);
    char blob[1024];
    snprintf(blob, sizeof blob, "%s/cli.ossa", ts_temp_dir());
    static ts_run_result r;
    const char *build[] = {OSSA_TEST_TOOL, "build", "-q", fbx, "--track", "Root.Visibility",
                           "-o", blob, NULL};
    ts_run(build, NULL, NULL, NULL, &r);
    CHECK_INT(r.status, 0);
    if (r.status)
        fprintf(stderr, "%s", r.err);
    const char *info[] = {OSSA_TEST_TOOL, "info", blob, NULL};
    ts_run(info, NULL, NULL, NULL, &r);
    CHECK_INT(r.status, 0);
    CHECK(strstr(r.out, "5 float tracks: 'Root.footstep', 'Root.Tint.x', 'Root.Tint.y', "
                        "'Root.Tint.z', 'Root.Visibility'") != NULL);
    const char *unknown[] = {OSSA_TEST_TOOL, "build", "-q", fbx, "--track", "Root.Nope",
                             "-o", blob, NULL};
    ts_run(unknown, NULL, NULL, NULL, &r);
    CHECK(r.status != 0);
    CHECK(strstr(r.err, "--track 'Root.Nope': no input animates a node or property of that "
                        "name") != NULL);
#endif
}

/* walk.fbx: two cameras' "Roll" (a built-in property, on their camera
 * attributes) come only when named; their keys equal what an independent
 * reader finds in the file. */
TEST(fbx_real_camera_roll_matches_an_independent_reader)
{
    const char *path = ts_model_path("pab/walk.fbx");
    if (!path)
        SKIP("model pab/walk.fbx not found (set OSSA_MODELS or add ../shared/models)");
    char file[1024];
    snprintf(file, sizeof file, "%s", path);
    ossa_import im;
    TS_IMPORT_OR_SKIP("pab/walk.fbx", NULL, &im);
    CHECK_INT(im.clip_float_tracks[0].count, 0); /* no user property is animated */
    ossa_import_free(&im);

    const char *names[2] = {"Camera01.Roll", "Camera02.Roll"};
    ossa_import_options options;
    memset(&options, 0, sizeof options);
    options.track_nodes = names;
    options.track_node_count = 2;
    TS_IMPORT_OR_SKIP("pab/walk.fbx", &options, &im);
    CHECK_INT(im.clip_float_tracks[0].count, 2);
    for (int n = 0; n < 2; ++n) {
        const ossa_raw_float_track *t = find_track(&im, names[n]);
        REQUIRE(t != NULL);
        char command[2048];
        snprintf(command, sizeof command, "python3 %s/fbx_curve_keys.py '%s' Camera0%d Roll",
                 OSSA_TEST_DATA_DIR, file, n + 1);
        FILE *p = popen(command, "r");
        REQUIRE(p != NULL);
        char channel[64];
        long long ticks;
        unsigned bits;
        int keys = 0;
        while (fscanf(p, "%63s %lld %x", channel, &ticks, &bits) == 3) {
            float value;
            memcpy(&value, &bits, 4);
            if (keys < t->key_count) {
                CHECK_NEAR(t->times_s[keys], (double)ticks / TICKS, 1e-6);
                CHECK(memcmp(&t->values[keys], &value, 4) == 0); /* -0.0 stays -0.0 */
            }
            ++keys;
        }
        const int status = pclose(p);
        if (status != 0 && keys == 0)
            SKIP("python3 could not run tests/data/fbx_curve_keys.py");
        CHECK_INT(status, 0);
        CHECK_INT(keys, t->key_count);
        CHECK(keys >= 40);
    }
    ossa_import_free(&im);
}

UTEST_MAIN(fbx_user_properties_become_float_tracks_of_their_clip,
           fbx_named_properties_are_imported_too,
           fbx_clip_without_local_start_starts_at_its_earliest_key,
           fbx_ascii_files_give_the_same_tracks,
           fbx_property_tracks_bake_into_the_clip,
           fbx_malformed_property_curves_are_refused_naming_file_curve_and_fault,
           fbx_property_tracks_from_the_command_line,
           fbx_real_camera_roll_matches_an_independent_reader)
