/* cmd_render.c - `ossa render`: skinned characters drawn headless (EGL, no
 * display) into a PNG, an animated GIF or a numbered PNG sequence, framed
 * whole over everything they show; with --compare, the same frame skinned on
 * the CPU and on the GPU, timings side by side, the pixels that differ, and
 * both pictures side by side. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "image_write.h"
#include "render_common.h"
#include "render_scene.h"

/* Renders longer than this show progress. */
#define PROGRESS_AFTER_NS 1000000000ull

static void help(FILE *to)
{
    fprintf(to,
            "usage: ossa render [FILE.ossa] -o OUT.png|OUT.gif [options]\n"
            "\n"
            "Draws skinned characters with OpenGL 3.3 core, headless (Mesa's surfaceless\n"
            "EGL: no display needed), and writes a PNG, an animated GIF or a numbered\n"
            "PNG sequence. Without FILE, the embedded default character. The camera\n"
            "frames what the characters show: their clips sampled over a whole loop,\n"
            "or the still pose.\n"
            "  -o, --output PATH    the format follows the extension: OUT.png for a frame\n"
            "                       (several frames give OUT-0000.png, OUT-0001.png, ...),\n"
            "                       OUT.gif for an animation; anything else is refused\n"
            "  --clip NAME          every character plays NAME (default: each character\n"
            "                       plays one of the clips in turn)\n"
            "  --time T             seconds into the animation (default 0); the first\n"
            "                       character is exactly at T, the others out of step\n"
            "  --frames K           frames to draw, 1/F s apart (default 1)\n"
            "  --fps F              frames per second (default 25; GIFs count in 1/100 s)\n"
            "  --loop               as many frames as one loop of the clip lasts (--clip,\n"
            "                       or the file's only clip)\n"
            "%s"
            "  --compare            draw the first frame both ways, %d times each, and\n"
            "                       print the medians side by side and how many pixels\n"
            "                       differ; with -o, writes CPU (left) and GPU (right)\n"
            "  -h, --help           this text\n",
            RENDER_OPTIONS_HELP, COMPARE_ROUNDS);
}

typedef struct render_options {
    render_common common;
    const char *output;
    image_format format;
    float time_s, fps;
    int frames;
    bool loop, compare;
} render_options;

static int parse(int argc, char **argv, render_options *o)
{
    memset(o, 0, sizeof *o);
    render_common_defaults(&o->common);
    o->fps = 25.0f;
    o->frames = 1;
    for (int i = 1; i < argc; ++i) {
        const int common = render_common_parse(argc, argv, &i, &o->common, "render");
        if (common < 0)
            return 2;
        if (common > 0)
            continue;
        if (cli_is(argv[i], "--help", "-h")) {
            help(stdout);
            return 0;
        } else if (cli_is(argv[i], "--output", "-o")) {
            if (!cli_string_arg(argc, argv, &i, &o->output))
                return 2;
        } else if (cli_is(argv[i], "--time", "-t")) {
            if (!cli_float_arg(argc, argv, &i, -1e6f, 1e6f, &o->time_s))
                return 2;
        } else if (cli_is(argv[i], "--frames", NULL)) {
            if (!cli_int_arg(argc, argv, &i, 1, 100000, &o->frames))
                return 2;
        } else if (cli_is(argv[i], "--fps", NULL)) {
            if (!cli_float_arg(argc, argv, &i, 0.01f, 1000.0f, &o->fps))
                return 2;
        } else if (cli_is(argv[i], "--loop", NULL)) {
            o->loop = true;
        } else if (cli_is(argv[i], "--compare", NULL)) {
            o->compare = true;
        } else {
            cli_error("render", "unexpected argument '%s'", argv[i]);
            help(stderr);
            return 2;
        }
    }
    if (!o->output && !o->compare) {
        cli_error("render", "no output: give -o OUT.png (or OUT.gif)");
        help(stderr);
        return 2;
    }
    if (o->output && (o->format = image_format_of(o->output)) == IMAGE_FORMAT_NONE) {
        cli_error("render", "-o %s: the format follows the extension: .png (a frame, or a "
                            "numbered sequence) or .gif (an animation)",
                  o->output);
        return 2;
    }
    if (o->loop && o->common.pose != RENDER_POSE_ANIMATED) {
        cli_error("render", "--loop plays a clip; --rest-pose and --bind-pose are still");
        return 2;
    }
    return -1;
}

/* OUT.png -> OUT-0007.png */
static void sequence_path(char *to, size_t bytes, const char *path, int frame)
{
    const size_t n = strlen(path);
    const size_t stem = image_format_of(path) == IMAGE_FORMAT_PNG ? n - 4 : n;
    snprintf(to, bytes, "%.*s-%04d.png", (int)stem, path, frame);
}

/* One frame: pose, skin (CPU path) and draw; the image read into rgba. */
static bool draw_frame(render_context *rc, float time_s, ossa_render_skinning skinning,
                       uint8_t *rgba, render_sample *sample)
{
    if (!render_context_frame(rc, time_s, skinning, sample))
        return false;
    const ossa_result r = ossa_render_headless_read(rc->headless, rgba, rc->image_bytes);
    if (r != OSSA_OK) {
        snprintf(rc->err, sizeof rc->err, "reading the image back: %s", ossa_result_str(r));
        return false;
    }
    return true;
}

/* The CPU image on the left, the GPU image on the right, written as asked. */
static bool write_side_by_side(const render_context *rc, const render_options *o,
                               uint8_t *const images[2], char *err, size_t err_bytes)
{
    const int w = rc->width, h = rc->height;
    const size_t row = (size_t)w * 4;
    uint8_t *both = cli_alloc(2 * rc->image_bytes);
    for (int y = 0; y < h; ++y)
        for (int way = 0; way < 2; ++way)
            memcpy(both + (size_t)y * 2 * row + (size_t)way * row, images[way] + (size_t)y * row,
                   row);
    const bool ok = o->format == IMAGE_FORMAT_GIF
                        ? image_write_gif(o->output, both, 1, 2 * w, h, 0, err, err_bytes)
                        : image_write_png(o->output, both, 2 * w, h, err, err_bytes);
    cli_free(both);
    return ok;
}

static int compare(render_context *rc, const render_options *o)
{
    render_sample samples[2][COMPARE_ROUNDS];
    uint8_t *images[2] = {cli_alloc(rc->image_bytes), cli_alloc(rc->image_bytes)};
    bool ok = true;
    for (int round = 0; ok && round < COMPARE_ROUNDS; ++round)
        for (int way = 0; ok && way < 2; ++way) /* interleaved: drift hits both */
            ok = draw_frame(rc, o->time_s, (ossa_render_skinning)way, images[way],
                            &samples[way][round]);
    char err[512] = "";
    if (!ok)
        snprintf(err, sizeof err, "%s", rc->err);
    if (ok && o->output)
        ok = write_side_by_side(rc, o, images, err, sizeof err);
    if (ok) {
        long differ = 0;
        const long pixels = (long)(rc->image_bytes / 4);
        for (long p = 0; p < pixels; ++p)
            differ += memcmp(images[0] + 4 * p, images[1] + 4 * p, 3) != 0;
        render_print_comparison(stdout, rc, samples[0], samples[1], COMPARE_ROUNDS);
        printf("pixels that differ: %ld of %ld (%.3f%%)\n", differ, pixels,
               100.0 * (double)differ / (double)pixels);
        if (o->output)
            printf("wrote %s (%dx%d: CPU skinning left, GPU skinning right)\n", o->output,
                   2 * rc->width, rc->height);
    }
    cli_free(images[0]);
    cli_free(images[1]);
    if (!ok)
        cli_error("render", "%s", err);
    return ok ? 0 : 1;
}

static int render_frames(render_context *rc, const render_options *o, int frames)
{
    const bool gif = o->format == IMAGE_FORMAT_GIF;
    uint8_t *rgba = cli_alloc(rc->image_bytes * (gif ? (size_t)frames : 1));
    render_sample *samples = cli_alloc(sizeof *samples * (size_t)frames);
    char path[4096], err[512] = "";
    bool ok = true, showing = false;
    cli_progress progress;
    const uint64_t start = cli_now_ns();
    for (int f = 0; ok && f < frames; ++f) {
        uint8_t *image = rgba + (gif ? (size_t)f * rc->image_bytes : 0);
        ok = draw_frame(rc, o->time_s + (float)f / o->fps, rc->options->skinning, image,
                        &samples[f]);
        if (!ok)
            snprintf(err, sizeof err, "%s", rc->err);
        else if (!gif) {
            if (frames == 1)
                snprintf(path, sizeof path, "%s", o->output);
            else
                sequence_path(path, sizeof path, o->output, f);
            ok = image_write_png(path, image, rc->width, rc->height, err, sizeof err);
        }
        /* Progress once the render has taken a second, on stderr. */
        if (!showing && f + 1 < frames && cli_now_ns() - start > PROGRESS_AFTER_NS) {
            cli_progress_begin(&progress, "render: frames", frames);
            showing = true;
        }
        if (showing)
            cli_progress_step(&progress, f + 1);
    }
    if (showing)
        cli_progress_end(&progress);
    if (ok && gif)
        ok = image_write_gif(o->output, rgba, frames, rc->width, rc->height,
                             (int)lround(100.0 / o->fps), err, sizeof err);
    if (ok) {
        if (frames == 1 || gif) {
            printf("wrote %s", o->output);
        } else {
            char first[4096];
            sequence_path(first, sizeof first, o->output, 0);
            printf("wrote %s .. %s", first, path);
        }
        printf(" (%dx%d, %d frame%s; %s)\n", rc->width, rc->height, frames, frames > 1 ? "s" : "",
               rc->description);
        render_print_summary(stdout, samples, frames);
    } else {
        cli_error("render", "%s", err);
    }
    cli_free(samples);
    cli_free(rgba);
    return ok ? 0 : 1;
}

/* --loop: frames for one loop of the clip every character plays (--clip, or
 * the only one); 0 with a message when there is no such single clip. */
static int loop_frames(const render_context *rc, const render_options *o)
{
    const render_scene *s = &rc->scene;
    int clip = s->clip;
    if (clip == RENDER_SCENE_MIXED && s->clip_count == 1)
        clip = 0;
    if (clip == RENDER_SCENE_MIXED) {
        if (s->clip_count == 0) {
            cli_error("render", "--loop: %s has no clips to play",
                      o->common.file ? o->common.file : "the default character");
            return 0;
        }
        char names[256] = "";
        for (int i = 0, at = 0; i < s->clip_count && at >= 0 && (size_t)at < sizeof names; ++i)
            at += snprintf(names + at, sizeof names - (size_t)at, " %s",
                           ossa_clip_name(s->clips[i]));
        cli_error("render", "--loop: which clip? %s has %d:%s; choose one with --clip NAME",
                  o->common.file ? o->common.file : "the default character", s->clip_count,
                  names);
        return 0;
    }
    const float duration = ossa_clip_duration(s->clips[clip]);
    const int frames = duration > 0 ? (int)lroundf(duration * o->fps) : 1;
    return frames < 1 ? 1 : frames;
}

int cmd_render(int argc, char **argv)
{
    render_options o;
    const int parsed = parse(argc, argv, &o);
    if (parsed >= 0)
        return parsed;
    render_quiet_driver_logs();
    char err[512];
    if (o.output && !image_path_writable(o.output, err, sizeof err)) {
        cli_error("render", "%s", err);
        return 1;
    }
    render_context rc;
    if (!render_context_open(&rc, &o.common, true, err, sizeof err)) {
        cli_error("render", "%s", err);
        return 1;
    }
    int frames = o.frames;
    if (o.loop && !o.compare && (frames = loop_frames(&rc, &o)) == 0) {
        render_context_close(&rc);
        return 2;
    }
    /* A GIF keeps every frame until it is quantised and written. */
    if (!o.compare && o.format == IMAGE_FORMAT_GIF &&
        (double)frames * (double)rc.image_bytes > (double)((size_t)1 << 30)) {
        cli_error("render", "%d frames of %dx%d are more than a GIF here holds (1 GiB of "
                            "frames); write a PNG sequence instead",
                  frames, rc.width, rc.height);
        render_context_close(&rc);
        return 2;
    }
    const int code = o.compare ? compare(&rc, &o) : render_frames(&rc, &o, frames);
    render_context_close(&rc);
    return code;
}
