/* render_common.h - what `ossa render` and `ossa view` share: the options
 * that choose the scene and the picture, and a context that poses, skins and
 * draws it while timing every stage. */
#ifndef OSSA_RENDER_COMMON_H
#define OSSA_RENDER_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "render_prop.h"
#include "render_scene.h"

/* Interleaved rounds of `ossa render --compare`. */
#define COMPARE_ROUNDS 15

typedef struct render_common {
    const char *file; /* NULL: the default character */
    const char *clip; /* NULL: each character plays one of the clips in turn */
    int characters;
    int width, height;
    int samples;
    ossa_render_skinning skinning;
    ossa_skin_format skin_format; /* CPU skinning's vertices: packed by default */
    render_pose pose;
    float yaw_deg, pitch_deg;
    bool in_place;    /* no root motion: characters stay on their grid places */
    const char *prop; /* a joint that holds a stick (render_prop.h), or NULL */
} render_common;

#define RENDER_OPTIONS_HELP                                                                  \
    "  --characters N       crowd size on a grid, 1..4096 (default 1)\n"                    \
    "  --size WxH           picture size in pixels (default 640x480; view 1280x720)\n"                        \
    "  --skinning cpu|gpu   who skins: ossa_skinning_job on the CPU, streams uploaded\n"     \
    "                       whole each frame (default), or the vertex shader from\n"         \
    "                       palettes in a texture buffer\n"                                  \
    CLI_SKIN_FORMAT_HELP                                                                     \
    "  --samples S          multisampling, 0 (none) to 16 (default 4)\n"                     \
    "  --yaw DEG            camera heading about the up axis (default 30)\n"                 \
    "  --pitch DEG          camera elevation (default 25)\n"                               \
    "  --rest-pose          the skeleton's rest pose, still (upright as the file\n"       \
    "                       stands it)\n"                                                 \
    "  --bind-pose          the mesh as stored, unskinned (glTF may bind it lying\n"     \
    "                       down: Cesium Man does)\n"                                    \
    "  --in-place           characters stay on their places (default: clips with root\n" \
    "                       motion carry them, and the camera follows them)\n"          \
    "  --prop JOINT         every character holds a stick on joint JOINT's socket\n"    \
    "                       (e.g. hand_r, or RightHand for ozz's pab)\n"

void render_common_defaults(render_common *o);
/* Mesa's EGL prints its own warnings when a driver fails to load; the tool
 * says what is wrong in one line instead, unless EGL_LOG_LEVEL is set. */
void render_quiet_driver_logs(void);
/* Consumes argv[*i] when it is one of the options above or the FILE (any
 * argument not starting with '-', or "-" itself; a second one is an error):
 * 1 consumed, 0 not ours, -1 usage error (printed, prefixed with command). */
int render_common_parse(int argc, char **argv, int *i, render_common *o, const char *command);

/* One frame's stage times in ms. */
typedef struct render_sample {
    double pose_ms;   /* sample -> local->model -> palette, every character */
    double skin_ms;   /* ossa_skinning_job, every character (CPU skinning only) */
    double upload_ms; /* the renderer's upload (streams or palettes) */
    double submit_ms; /* the renderer's state and draw calls */
    double gpu_ms;    /* GPU timer query (negative when unknown) */
    double frame_ms;  /* pose to finished frame (headless), or between frames (window) */
    size_t upload_bytes;
    ossa_render_skinning skinning;
} render_sample;

typedef struct render_context {
    const render_common *options;
    render_scene scene;
    ossa_render_headless *headless; /* NULL when drawing into a window's context */
    ossa_renderer *renderer;
    int width, height;
    size_t image_bytes;
    ossa_render_camera camera;
    render_prop prop;      /* its renderer is NULL without --prop */
    char description[256]; /* "N x mesh 'body', clip walk, OpenGL ... on ..." */
    char err[512];         /* the last frame's failure */
} render_context;

/* Opens the scene and the renderer; with headless, first an offscreen
 * context of the options' size (else the caller's context must be current). */
bool render_context_open(render_context *rc, const render_common *options, bool headless,
                         char *err, size_t err_bytes);
void render_context_close(render_context *rc);
/* Recreates the renderer when the crowd outgrows it. */
bool render_context_resize_crowd(render_context *rc, int characters, int clip);
/* Poses (at time_s, or the scene's still pose), skins (CPU skinning), draws
 * and, headless, waits for the frame. */
bool render_context_frame(render_context *rc, float time_s, ossa_render_skinning skinning,
                          render_sample *sample);
/* Medians of n samples, one line per stage. */
void render_print_summary(FILE *to, const render_sample *samples, int n);
/* Medians of CPU- and GPU-skinned samples, side by side. */
void render_print_comparison(FILE *to, const render_context *rc, const render_sample *cpu,
                             const render_sample *gpu, int n);

#endif /* OSSA_RENDER_COMMON_H */
