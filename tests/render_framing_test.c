/* render_framing_test.c - `ossa render` and `ossa view` frame what the
 * characters show: for every shared model (khronos cesium_man,
 * rigged_simple, rigged_figure, simple_skin; pab arnaud with walk, jog and
 * run, built from the FBX files) and every clip, the camera the tools make
 * (render_scene_camera, over the scene's layout) has every skinned vertex,
 * posed here at times other than the ones the tool measured, project inside
 * the picture, from several headings and for wide and tall pictures; so do a
 * mixed crowd of four, the rest pose and the bind pose. The humanoids stand
 * upright in their clips and their rest pose. Needs no GL. */
#define _POSIX_C_SOURCE 200809L
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render_scene.h"
#include "render_support.h"
#include "scene_pose_support.h"
#include "test_support.h"
#include "tool_run.h"
#include "utest.h"

/* OSSA_TEST_NEEDS_PIPELINE OSSA_TEST_NEEDS_RENDER OSSA_TEST_NEEDS_IMPORTER */

/* Times per clip posed here: not the tool's RENDER_SCENE_BOUNDS_SAMPLES
 * grid (they fall between its samples). */
#define TIMES 41
/* The picture must hold the character over at least this share of its
 * width or height: framed, not lost in the distance. */
#define MIN_FILL 0.5
/* Upright: the posed character is at least this tall for its largest
 * horizontal extent (a T-pose is about 1, lying down well under 0.5). */
#define MIN_UPRIGHT 0.75

typedef struct shared_model {
    const char *name;
    const char *files[4];
    bool humanoid; /* stands upright in its clips and rest pose */
} shared_model;

static const shared_model models[] = {
    {"cesium_man", {"khronos/cesium_man.gltf"}, true},
    {"rigged_simple", {"khronos/rigged_simple.gltf"}, false},
    {"rigged_figure", {"khronos/rigged_figure.gltf"}, true},
    {"simple_skin", {"khronos/simple_skin.gltf"}, false},
    {"arnaud", {"pab/arnaud.fbx", "pab/walk.fbx", "pab/jog.fbx", "pab/run.fbx"}, true},
};

static const struct view {
    int width, height;
    float yaw_deg, pitch_deg;
} views[] = {{640, 480, 30, 25}, {480, 640, -70, 10}, {960, 400, 160, 45}, {300, 300, 95, -5}};

/* `ossa build FILES -o temp/NAME.ossa`; the blob's path, or NULL. */
static const char *build_model(const shared_model *m)
{
    static char blob[512];
    snprintf(blob, sizeof blob, "%s/%s.ossa", ts_temp_dir(), m->name);
    const char *argv[10] = {OSSA_TEST_TOOL, "build"};
    int n = 2;
    static char paths[4][512];
    for (int i = 0; i < 4 && m->files[i]; ++i) {
        const char *p = ts_model_path(m->files[i]);
        if (!p)
            return NULL;
        snprintf(paths[i], sizeof paths[i], "%s", p);
        argv[n++] = paths[i];
    }
    argv[n++] = "-o";
    argv[n++] = blob;
    ts_run_result r;
    ts_run(argv, NULL, NULL, NULL, &r);
    if (r.status != 0) {
        fprintf(stderr, "  ossa build %s failed: %s\n", m->name, r.err);
        return NULL;
    }
    return blob;
}

/* Where one posed character falls in the picture: its projected extent
 * (grown into *lo / *hi) and how many of its vertices fall outside. */
static int project(const render_scene *s, const float *stream, const ossa_mat34 *placement,
                   const ossa_render_camera *camera, const struct view *v, double lo[2],
                   double hi[2], double *tallest_ratio)
{
    const size_t floats = (size_t)ossa_mesh_skinned_stride(s->mesh) / sizeof(float);
    int outside = 0;
    double mlo[3] = {DBL_MAX, DBL_MAX, DBL_MAX}, mhi[3] = {-DBL_MAX, -DBL_MAX, -DBL_MAX};
    for (int i = 0; i < s->vertices; ++i) {
        const float *p = stream + (size_t)i * floats;
        const ossa_float3 w = ossa_mat34_transform_point(placement, (ossa_float3){p[0], p[1], p[2]});
        const double world[3] = {w.x, w.y, w.z};
        double x, y;
        ts_project(camera, v->width, v->height, world, &x, &y);
        outside += !(x >= 0 && x <= v->width && y >= 0 && y <= v->height);
        lo[0] = fmin(lo[0], x), lo[1] = fmin(lo[1], y), hi[0] = fmax(hi[0], x),
        hi[1] = fmax(hi[1], y);
        for (int k = 0; k < 3; ++k)
            mlo[k] = fmin(mlo[k], world[k]), mhi[k] = fmax(mhi[k], world[k]);
    }
    /* Height over the larger horizontal extent, in the world. */
    *tallest_ratio = (mhi[1] - mlo[1]) / fmax(mhi[0] - mlo[0], mhi[2] - mlo[2]);
    return outside;
}

/* Every character of the scene, posed at TIMES times over its clip (or
 * still), inside every view's picture and filling enough of it. */
static void check_scene(const shared_model *m, const render_scene *s, const char *what)
{
    float *stream = ts_aligned(s->stream_bytes);
    for (size_t vi = 0; vi < sizeof views / sizeof views[0]; ++vi) {
        const struct view *v = &views[vi];
        const ossa_render_camera camera =
            render_scene_camera(s, (float)v->width / (float)v->height,
                                v->yaw_deg * 0.017453293f, v->pitch_deg * 0.017453293f);
        double lo[2] = {DBL_MAX, DBL_MAX}, hi[2] = {-DBL_MAX, -DBL_MAX}, lowest_ratio = DBL_MAX;
        int outside = 0;
        const bool still = s->pose != RENDER_POSE_ANIMATED || s->clip_count == 0;
        for (int c = 0; c < s->characters; ++c)
            for (int k = 0; k < (still ? 1 : TIMES); ++k) {
                const ossa_clip *clip = still ? NULL : s->clips[s->clip_index[c]];
                const float t = still ? 0.0f
                                      : s->phase_s[c] + ossa_clip_duration(clip) *
                                                            ((float)k + 0.37f) / (float)TIMES;
                pose_vertices(s, clip, t, s->pose == RENDER_POSE_BIND, stream);
                double ratio;
                outside += project(s, stream, &s->placements[c], &camera, v, lo, hi, &ratio);
                lowest_ratio = fmin(lowest_ratio, ratio);
            }
        const double fill = fmax((hi[0] - lo[0]) / v->width, (hi[1] - lo[1]) / v->height);
        CHECK_INT(outside, 0);
        CHECK(fill >= MIN_FILL);
        if (m->humanoid && s->pose != RENDER_POSE_BIND)
            CHECK(lowest_ratio > MIN_UPRIGHT);
        if (outside || fill < MIN_FILL)
            fprintf(stderr, "  %s, %s, %dx%d yaw %g pitch %g: %d vertices outside, fills %.2f\n",
                    m->name, what, v->width, v->height, (double)v->yaw_deg,
                    (double)v->pitch_deg, outside, fill);
        if (m->humanoid && s->pose != RENDER_POSE_BIND && !(lowest_ratio > MIN_UPRIGHT))
            fprintf(stderr, "  %s, %s: not upright (height / width %.2f)\n", m->name, what,
                    lowest_ratio);
    }
    free(stream);
}

TEST(every_shared_model_and_clip_is_framed_whole)
{
    int checked = 0;
    for (size_t i = 0; i < sizeof models / sizeof models[0]; ++i) {
        const shared_model *m = &models[i];
        const char *blob = build_model(m);
        if (!blob) {
            printf("  skipped %s: %s not found or not built (models in %s)\n", m->name,
                   m->files[0], ts_models_dir() ? ts_models_dir() : "(no models folder)");
            continue;
        }
        render_scene s;
        char err[512];
        REQUIRE(render_scene_open(&s, blob, err, sizeof err));
        REQUIRE(s.clip_count > 0);
        char what[128];
        for (int c = 0; c < s.clip_count; ++c) {
            REQUIRE(render_scene_populate(&s, 1, c, RENDER_POSE_ANIMATED, err, sizeof err));
            snprintf(what, sizeof what, "clip %s", ossa_clip_name(s.clips[c]));
            check_scene(m, &s, what);
        }
        REQUIRE(render_scene_populate(&s, 4, RENDER_SCENE_MIXED, RENDER_POSE_ANIMATED, err,
                                      sizeof err));
        check_scene(m, &s, "4 characters, clips in turn");
        REQUIRE(render_scene_populate(&s, 1, RENDER_SCENE_MIXED, RENDER_POSE_REST, err,
                                      sizeof err));
        check_scene(m, &s, "rest pose");
        REQUIRE(render_scene_populate(&s, 2, RENDER_SCENE_MIXED, RENDER_POSE_BIND, err,
                                      sizeof err));
        check_scene(m, &s, "bind pose");
        printf("  %s: %d clip%s framed\n", m->name, s.clip_count, s.clip_count == 1 ? "" : "s");
        render_scene_close(&s);
        ++checked;
    }
    if (checked == 0)
        SKIP("no shared models (../shared/models or $OSSA_MODELS)");
}

TEST(the_default_character_is_framed_whole)
{
    render_scene s;
    char err[512];
    REQUIRE(render_scene_open(&s, NULL, err, sizeof err));
    const shared_model m = {"default character", {NULL}, true};
    REQUIRE(render_scene_populate(&s, 9, RENDER_SCENE_MIXED, RENDER_POSE_ANIMATED, err,
                                  sizeof err));
    check_scene(&m, &s, "9 characters, clips in turn");
    REQUIRE(render_scene_populate(&s, 1, RENDER_SCENE_MIXED, RENDER_POSE_REST, err, sizeof err));
    check_scene(&m, &s, "rest pose");
    render_scene_close(&s);
}

UTEST_MAIN(every_shared_model_and_clip_is_framed_whole, the_default_character_is_framed_whole)
