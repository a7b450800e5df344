/* render_common.c - see render_common.h. */
#define _POSIX_C_SOURCE 200809L
#include "render_common.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "render_motion.h"

#define DEG (3.14159265358979323846f / 180.0f)

void render_common_defaults(render_common *o)
{
    memset(o, 0, sizeof *o);
    o->characters = 1;
    o->width = 640;
    o->height = 480;
    o->samples = 4;
    o->skinning = OSSA_RENDER_SKINNING_CPU;
    o->skin_format = OSSA_SKIN_FORMAT_PACKED;
    o->yaw_deg = 30.0f;
    o->pitch_deg = 25.0f;
}

void render_quiet_driver_logs(void)
{
    setenv("EGL_LOG_LEVEL", "fatal", 0);
}

static bool parse_size(const char *text, int *w, int *h)
{
    char *end;
    const long x = strtol(text, &end, 10);
    if (end == text || (*end != 'x' && *end != 'X'))
        return false;
    const char *second = end + 1;
    const long y = strtol(second, &end, 10);
    if (end == second || *end || x < 1 || y < 1 || x > 16384 || y > 16384)
        return false;
    *w = (int)x;
    *h = (int)y;
    return true;
}

int render_common_parse(int argc, char **argv, int *i, render_common *o, const char *command)
{
    const char *arg = argv[*i], *value = NULL;
    if (arg[0] != '-' || arg[1] == '\0') {
        if (o->file) {
            cli_error(command, "one FILE.ossa at most ('%s' and '%s')", o->file, arg);
            return -1;
        }
        o->file = arg;
        return 1;
    }
    if (cli_is(arg, "--characters", "-n"))
        return cli_int_arg(argc, argv, i, 1, 4096, &o->characters) ? 1 : -1;
    if (cli_is(arg, "--samples", NULL))
        return cli_int_arg(argc, argv, i, 0, 16, &o->samples) ? 1 : -1;
    if (cli_is(arg, "--yaw", NULL))
        return cli_float_arg(argc, argv, i, -3600.0f, 3600.0f, &o->yaw_deg) ? 1 : -1;
    if (cli_is(arg, "--pitch", NULL))
        return cli_float_arg(argc, argv, i, -89.0f, 89.0f, &o->pitch_deg) ? 1 : -1;
    if (cli_is(arg, "--rest-pose", NULL) || cli_is(arg, "--bind-pose", NULL)) {
        const render_pose pose = arg[2] == 'r' ? RENDER_POSE_REST : RENDER_POSE_BIND;
        if (o->pose != RENDER_POSE_ANIMATED && o->pose != pose) {
            cli_error(command, "--rest-pose and --bind-pose: one pose at a time");
            return -1;
        }
        o->pose = pose;
        return 1;
    }
    if (cli_is(arg, "--in-place", NULL)) {
        o->in_place = true;
        return 1;
    }
    if (cli_is(arg, "--prop", NULL))
        return cli_string_arg(argc, argv, i, &o->prop) ? 1 : -1;
    if (cli_is(arg, "--clip", "-c"))
        return cli_string_arg(argc, argv, i, &o->clip) ? 1 : -1;
    if (cli_is(arg, "--size", "-s")) {
        if (!cli_string_arg(argc, argv, i, &value))
            return -1;
        if (!parse_size(value, &o->width, &o->height)) {
            cli_error(command, "--size %s: expected WxH, 1..16384 pixels a side", value);
            return -1;
        }
        return 1;
    }
    if (cli_is(arg, "--skin-format", NULL))
        return cli_skin_format_arg(argc, argv, i, command, &o->skin_format) ? 1 : -1;
    if (cli_is(arg, "--skinning", NULL)) {
        if (!cli_string_arg(argc, argv, i, &value))
            return -1;
        if (strcmp(value, "cpu") == 0)
            o->skinning = OSSA_RENDER_SKINNING_CPU;
        else if (strcmp(value, "gpu") == 0)
            o->skinning = OSSA_RENDER_SKINNING_GPU;
        else {
            cli_error(command, "--skinning %s: expected cpu or gpu", value);
            return -1;
        }
        return 1;
    }
    return 0;
}

static void describe(render_context *rc)
{
    char gl[160];
    ossa_render_describe_gl(gl, sizeof gl);
    const render_scene *s = &rc->scene;
    const char *shown = s->pose == RENDER_POSE_REST   ? "rest pose"
                        : s->pose == RENDER_POSE_BIND ? "bind pose"
                                                      : render_scene_clip_name(s, s->clip);
    snprintf(rc->description, sizeof rc->description, "%d x '%s', %s, %s vertices; %s",
             s->characters, ossa_mesh_name(s->mesh), shown, cli_skin_format_name(s->format), gl);
}

static bool make_renderer(render_context *rc, char *err, size_t err_bytes)
{
    ossa_renderer_destroy(rc->renderer);
    rc->renderer = NULL;
    ossa_renderer_desc desc = {rc->scene.mesh, rc->scene.characters, rc->scene.format};
    ossa_error error;
    if (ossa_renderer_create(&desc, &rc->renderer, &error) != OSSA_OK) {
        snprintf(err, err_bytes, "%s", error.message);
        return false;
    }
    return true;
}

bool render_context_open(render_context *rc, const render_common *o, bool headless, char *err,
                         size_t err_bytes)
{
    memset(rc, 0, sizeof *rc);
    rc->options = o;
    rc->width = o->width;
    rc->height = o->height;
    rc->image_bytes = (size_t)o->width * (size_t)o->height * 4;
    if (!render_scene_open(&rc->scene, o->file, err, err_bytes))
        return false;
    render_scene_set_format(&rc->scene, o->skin_format);
    int clip = RENDER_SCENE_MIXED;
    if (o->clip && (clip = render_scene_find_clip(&rc->scene, o->clip)) < 0) {
        int at = snprintf(err, err_bytes, "no clip named '%s'; the clips are:", o->clip);
        for (int i = 0; i < rc->scene.clip_count && at > 0 && (size_t)at < err_bytes; ++i)
            at += snprintf(err + at, err_bytes - (size_t)at, " %s",
                           ossa_clip_name(rc->scene.clips[i]));
        render_scene_close(&rc->scene);
        return false;
    }
    rc->scene.in_place = o->in_place;
    if (!render_scene_populate(&rc->scene, o->characters, clip, o->pose, err, err_bytes)) {
        render_scene_close(&rc->scene);
        return false;
    }
    ossa_error error;
    if (headless) {
        ossa_render_headless_desc desc = {o->width, o->height, o->samples};
        if (ossa_render_headless_create(&desc, &rc->headless, &error) != OSSA_OK) {
            snprintf(err, err_bytes, "%s", error.message);
            render_scene_close(&rc->scene);
            return false;
        }
    }
    if (!make_renderer(rc, err, err_bytes) ||
        (o->prop && !render_prop_open(&rc->prop, &rc->scene, o->prop, err, err_bytes))) {
        render_context_close(rc);
        return false;
    }
    rc->camera = render_scene_camera(&rc->scene, (float)o->width / (float)o->height,
                                     o->yaw_deg * DEG, o->pitch_deg * DEG);
    describe(rc);
    return true;
}

void render_context_close(render_context *rc)
{
    render_prop_close(&rc->prop);
    ossa_renderer_destroy(rc->renderer);
    ossa_render_headless_destroy(rc->headless);
    render_scene_close(&rc->scene);
    memset(rc, 0, sizeof *rc);
}

bool render_context_resize_crowd(render_context *rc, int characters, int clip)
{
    const int had = rc->scene.characters;
    if (!render_scene_populate(&rc->scene, characters, clip, rc->scene.pose, rc->err,
                               sizeof rc->err))
        return false;
    if (characters > had && !make_renderer(rc, rc->err, sizeof rc->err))
        return false;
    describe(rc);
    return true;
}

bool render_context_frame(render_context *rc, float time_s, ossa_render_skinning skinning,
                          render_sample *sample)
{
    memset(sample, 0, sizeof *sample);
    const uint64_t t0 = cli_now_ns();
    ossa_result r = render_scene_pose(&rc->scene, time_s);
    const uint64_t t1 = cli_now_ns();
    if (rc->headless)
        ossa_render_headless_bind(rc->headless);
    const ossa_render_camera camera = render_motion_follow(&rc->scene, rc->camera);
    ossa_render_frame frame =
        render_scene_frame(&rc->scene, skinning, &camera, rc->width, rc->height);
    ossa_error error;
    if (r == OSSA_OK && skinning == OSSA_RENDER_SKINNING_CPU && rc->scene.characters > 0) {
        /* Skinned straight into the renderer's buffer, with streaming stores:
         * no copy, and nothing read back from what may be write-combined
         * memory. */
        void *to = ossa_renderer_map_streams(rc->renderer, rc->scene.characters, &error);
        if (!to) {
            snprintf(rc->err, sizeof rc->err, "%s", error.message);
            return false;
        }
        r = render_scene_skin_into(&rc->scene, to, ossa_renderer_stream_bytes(rc->renderer),
                                   true);
        frame.streams_mapped = true;
    }
    const uint64_t t2 = cli_now_ns();
    if (r != OSSA_OK) {
        snprintf(rc->err, sizeof rc->err, "posing the crowd: %s", ossa_result_str(r));
        return false;
    }
    ossa_render_timings t;
    if (ossa_renderer_draw(rc->renderer, &frame, &t, &error) != OSSA_OK) {
        snprintf(rc->err, sizeof rc->err, "%s", error.message);
        return false;
    }
    if (rc->prop.mesh && !render_prop_draw(&rc->prop, &rc->scene, &camera, rc->width,
                                           rc->height, rc->err, sizeof rc->err))
        return false;
    sample->gpu_ms = rc->headless ? ossa_renderer_finish(rc->renderer) : t.gpu_ms;
    sample->pose_ms = (double)(t1 - t0) * 1e-6;
    sample->skin_ms = (double)(t2 - t1) * 1e-6;
    sample->upload_ms = t.upload_ms;
    sample->submit_ms = t.submit_ms;
    sample->upload_bytes = t.upload_bytes;
    sample->skinning = skinning;
    sample->frame_ms = (double)(cli_now_ns() - t0) * 1e-6;
    return true;
}

enum { ROW_POSE, ROW_SKIN, ROW_UPLOAD, ROW_SUBMIT, ROW_GPU, ROW_FRAME, ROW_COUNT };
static const char *const row_names[ROW_COUNT] = {
    "pose (sample, l2m, palette)", "skin (ossa_skinning_job)", "upload",
    "submit (state, draws)",       "GPU (timer query)",        "frame"};

static double median_of(const render_sample *s, int n, int row)
{
    double *v = cli_alloc(sizeof(double) * (size_t)(n > 0 ? n : 1));
    for (int i = 0; i < n; ++i) {
        const double x[ROW_COUNT] = {s[i].pose_ms,   s[i].skin_ms, s[i].upload_ms,
                                     s[i].submit_ms, s[i].gpu_ms,  s[i].frame_ms};
        v[i] = x[row];
    }
    const double m = cli_median(v, (size_t)n);
    cli_free(v);
    return m;
}

static void print_cell(FILE *to, double ms)
{
    if (ms < 0)
        fprintf(to, " %14s", "n/a");
    else
        fprintf(to, " %11.3f ms", ms);
}

void render_print_summary(FILE *to, const render_sample *samples, int n)
{
    bool cpu = false, gpu = false;
    for (int i = 0; i < n; ++i)
        cpu |= samples[i].skinning == OSSA_RENDER_SKINNING_CPU,
            gpu |= samples[i].skinning == OSSA_RENDER_SKINNING_GPU;
    fprintf(to, "%s skinning, medians of %d frame%s:\n",
            cpu && gpu ? "CPU and GPU" : cpu ? "CPU" : "GPU", n, n == 1 ? "" : "s");
    for (int row = 0; row < ROW_COUNT; ++row) {
        if (row == ROW_SKIN && !cpu)
            continue;
        fprintf(to, "  %-30s", row_names[row]);
        print_cell(to, median_of(samples, n, row));
        fputc('\n', to);
    }
    fprintf(to, "  %-30s %11.2f MB\n", "uploaded per frame",
            n ? (double)samples[n - 1].upload_bytes / 1e6 : 0.0);
}

void render_print_comparison(FILE *to, const render_context *rc, const render_sample *cpu,
                             const render_sample *gpu, int n)
{
    fprintf(to, "%s\nmedians of %d frames each, drawn in turn:\n", rc->description, n);
    fprintf(to, "  %-30s %14s %14s\n", "", "CPU skinning", "GPU skinning");
    for (int row = 0; row < ROW_COUNT; ++row) {
        fprintf(to, "  %-30s", row_names[row]);
        print_cell(to, median_of(cpu, n, row));
        if (row == ROW_SKIN)
            fprintf(to, " %14s", "(in GPU)");
        else
            print_cell(to, median_of(gpu, n, row));
        fputc('\n', to);
    }
    fprintf(to, "  %-30s %11.2f MB %11.2f MB\n", "uploaded per frame",
            (double)cpu[0].upload_bytes / 1e6, (double)gpu[0].upload_bytes / 1e6);
}
