/* cmd_render.c - `ossa render`: skinned characters drawn headless (EGL, no
 * display) into a PNG, an animated GIF or a numbered PNG sequence; with
 * --compare, the same frame skinned on the CPU and on the GPU, timings side
 * by side and the pixels that differ. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "image_write.h"
#include "render_common.h"
#include "render_scene.h"

static void help(FILE *to)
{
    fprintf(to,
            "usage: ossa render [FILE.ossa] -o OUT [options]\n"
            "\n"
            "Draws skinned characters with OpenGL 3.3 core, headless (Mesa's surfaceless\n"
            "EGL: no display needed), and writes a PNG, an animated GIF or a numbered\n"
            "PNG sequence. Without FILE, the embedded default character.\n"
            "  -o, --output PATH    OUT.png; OUT.gif for an animation; several frames and a\n"
            "                       .png name give OUT-0000.png, OUT-0001.png, ...\n"
            "  --clip NAME          every character plays NAME (default: each character\n"
            "                       plays one of the clips in turn)\n"
            "  --bind-pose          the bind pose, no animation\n"
            "  --time T             seconds into the animation (default 0); the first\n"
            "                       character is exactly at T, the others out of step\n"
            "  --frames K           frames to draw, 1/F s apart (default 1)\n"
            "  --fps F              frames per second (default 25; GIFs count in 1/100 s)\n"
            "  --loop               as many frames as one loop of --clip lasts\n"
            "%s"
            "  --compare            draw the first frame both ways, %d times each, and\n"
            "                       print the medians side by side and how many pixels differ\n"
            "  -h, --help           this text\n",
            RENDER_OPTIONS_HELP, COMPARE_ROUNDS);
}

typedef struct render_options {
    render_common common;
    const char *output;
    float time_s, fps;
    int frames;
    bool loop, compare, bind_pose;
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
        } else if (cli_is(argv[i], "--bind-pose", NULL)) {
            o->bind_pose = true;
        } else {
            cli_error("render", "unexpected argument '%s'", argv[i]);
            help(stderr);
            return 2;
        }
    }
    if (!o->output) {
        cli_error("render", "no output: give -o OUT.png (or OUT.gif)");
        help(stderr);
        return 2;
    }
    if (o->loop && !o->common.clip) {
        cli_error("render", "--loop needs --clip NAME (the clip whose loop to draw)");
        return 2;
    }
    return -1;
}

/* OUT.png -> OUT-0007.png */
static void sequence_path(char *to, size_t bytes, const char *path, int frame)
{
    const size_t n = strlen(path);
    const size_t stem = image_has_extension(path, ".png") ? n - 4 : n;
    snprintf(to, bytes, "%.*s-%04d.png", (int)stem, path, frame);
}

/* One frame: pose, skin (CPU path) and draw; the image read into rgba. */
static bool draw_frame(render_context *rc, float time_s, bool bind_pose,
                       ossa_render_skinning skinning, uint8_t *rgba, render_sample *sample)
{
    if (!render_context_frame(rc, time_s, bind_pose, skinning, sample))
        return false;
    const ossa_result r = ossa_render_headless_read(rc->headless, rgba, rc->image_bytes);
    if (r != OSSA_OK) {
        snprintf(rc->err, sizeof rc->err, "reading the image back: %s", ossa_result_str(r));
        return false;
    }
    return true;
}

static int compare(render_context *rc, const render_options *o)
{
    render_sample samples[2][COMPARE_ROUNDS];
    uint8_t *images[2] = {cli_alloc(rc->image_bytes), cli_alloc(rc->image_bytes)};
    bool ok = true;
    for (int round = 0; ok && round < COMPARE_ROUNDS; ++round)
        for (int way = 0; ok && way < 2; ++way) /* interleaved: drift hits both */
            ok = draw_frame(rc, o->time_s, o->bind_pose, (ossa_render_skinning)way, images[way],
                            &samples[way][round]);
    if (ok) {
        long differ = 0;
        const long pixels = (long)(rc->image_bytes / 4);
        for (long p = 0; p < pixels; ++p)
            differ += memcmp(images[0] + 4 * p, images[1] + 4 * p, 3) != 0;
        render_print_comparison(stdout, rc, samples[0], samples[1], COMPARE_ROUNDS);
        printf("pixels that differ: %ld of %ld (%.3f%%)\n", differ, pixels,
               100.0 * (double)differ / (double)pixels);
    }
    cli_free(images[0]);
    cli_free(images[1]);
    if (!ok)
        cli_error("render", "%s", rc->err);
    return ok ? 0 : 1;
}

static int render_frames(render_context *rc, const render_options *o, int frames)
{
    const bool gif = image_has_extension(o->output, ".gif");
    uint8_t *rgba = cli_alloc(rc->image_bytes * (gif ? (size_t)frames : 1));
    render_sample *samples = cli_alloc(sizeof *samples * (size_t)frames);
    char path[4096], err[512] = "";
    bool ok = true;
    for (int f = 0; ok && f < frames; ++f) {
        uint8_t *image = rgba + (gif ? (size_t)f * rc->image_bytes : 0);
        ok = draw_frame(rc, o->time_s + (float)f / o->fps, o->bind_pose, rc->options->skinning,
                        image, &samples[f]);
        if (!ok)
            snprintf(err, sizeof err, "%s", rc->err);
        else if (!gif) {
            if (frames == 1)
                snprintf(path, sizeof path, "%s", o->output);
            else
                sequence_path(path, sizeof path, o->output, f);
            ok = image_write_png(path, image, rc->width, rc->height, err, sizeof err);
        }
    }
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

int cmd_render(int argc, char **argv)
{
    render_options o;
    const int parsed = parse(argc, argv, &o);
    if (parsed >= 0)
        return parsed;
    render_quiet_driver_logs();
    char err[512];
    if (!image_path_writable(o.output, err, sizeof err)) {
        cli_error("render", "%s", err);
        return 1;
    }
    render_context rc;
    if (!render_context_open(&rc, &o.common, true, err, sizeof err)) {
        cli_error("render", "%s", err);
        return 1;
    }
    int frames = o.frames;
    if (o.loop) {
        const float duration = ossa_clip_duration(rc.scene.clips[rc.scene.clip]);
        frames = duration > 0 ? (int)lroundf(duration * o.fps) : 1;
        frames = frames < 1 ? 1 : frames;
    }
    /* A GIF keeps every frame until it is quantised and written. */
    if (!o.compare && image_has_extension(o.output, ".gif") &&
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
