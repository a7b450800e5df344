/* cmd_view.c - `ossa view`: the crowd in a window (GLFW, OpenGL 3.3 core):
 * orbit and zoom, play, pause and step, speed, clip, crowd size, CPU or GPU
 * skinning, and the stages' timings in the window title. */
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "render_common.h"

#define DEG (3.14159265358979323846f / 180.0f)
#define HISTORY 64 /* frames the title's medians cover */
#define MAX_CHARACTERS 4096

static void help(FILE *to)
{
    fprintf(to,
            "usage: ossa view [FILE.ossa] [options]\n"
            "\n"
            "Opens a window (GLFW, OpenGL 3.3 core; needs a display, e.g. X or Xvfb) and\n"
            "plays the crowd. Without FILE, the embedded default character.\n"
            "  --clip NAME          every character plays NAME (default: the clips in turn)\n"
            "%s"
            "  --frames K           quit after K frames\n"
            "  --quit-after S       quit after S seconds\n"
            "  -h, --help           this text\n"
            "\n"
            "keys: space play/pause, left/right step 1/30 s, +/- speed x2 / x0.5,\n"
            "      up/down crowd size x2 / x0.5, c next clip, g CPU/GPU skinning,\n"
            "      r reset the camera, h this help, q or escape quit;\n"
            "mouse: drag to orbit, scroll to zoom. The title shows each stage's median\n"
            "over the last %d frames; the totals are printed on exit.\n",
            RENDER_OPTIONS_HELP, HISTORY);
}

typedef struct view {
    render_common options;
    render_context rc;
    float yaw_deg, pitch_deg, zoom;
    bool playing, dragging;
    float speed;
    double time_s, step_s;
    double drag_x, drag_y;
    int characters, clip;
    bool crowd_changed;
    ossa_render_skinning skinning;
    char glfw_error[256];
} view;

static view *the_view; /* for GLFW's error callback, which has no user pointer */

static void on_error(int code, const char *description)
{
    (void)code;
    if (the_view)
        snprintf(the_view->glfw_error, sizeof the_view->glfw_error, "%s", description);
}

static void reset_camera(view *v)
{
    v->yaw_deg = v->options.yaw_deg;
    v->pitch_deg = v->options.pitch_deg;
    v->zoom = 1.0f;
}

static void on_key(GLFWwindow *window, int key, int scancode, int action, int mods)
{
    (void)scancode;
    (void)mods;
    view *v = glfwGetWindowUserPointer(window);
    if (action == GLFW_RELEASE)
        return;
    switch (key) {
    case GLFW_KEY_ESCAPE:
    case GLFW_KEY_Q: glfwSetWindowShouldClose(window, GLFW_TRUE); break;
    case GLFW_KEY_SPACE: v->playing = !v->playing; break;
    case GLFW_KEY_RIGHT: v->step_s += 1.0 / 30.0, v->playing = false; break;
    case GLFW_KEY_LEFT: v->step_s -= 1.0 / 30.0, v->playing = false; break;
    case GLFW_KEY_EQUAL:
    case GLFW_KEY_KP_ADD: v->speed = fminf(v->speed * 2.0f, 16.0f); break;
    case GLFW_KEY_MINUS:
    case GLFW_KEY_KP_SUBTRACT: v->speed = fmaxf(v->speed * 0.5f, 1.0f / 16.0f); break;
    case GLFW_KEY_UP:
        v->characters = v->characters * 2 > MAX_CHARACTERS ? MAX_CHARACTERS : v->characters * 2;
        v->crowd_changed = true;
        break;
    case GLFW_KEY_DOWN:
        v->characters = v->characters > 1 ? v->characters / 2 : 1;
        v->crowd_changed = true;
        break;
    case GLFW_KEY_C:
        if (v->rc.scene.clip_count > 0) {
            v->clip = v->clip + 1 < v->rc.scene.clip_count ? v->clip + 1 : RENDER_SCENE_MIXED;
            v->crowd_changed = true;
        }
        break;
    case GLFW_KEY_G:
        v->skinning = v->skinning == OSSA_RENDER_SKINNING_CPU ? OSSA_RENDER_SKINNING_GPU
                                                             : OSSA_RENDER_SKINNING_CPU;
        break;
    case GLFW_KEY_R: reset_camera(v); break;
    case GLFW_KEY_H: help(stdout); break;
    default: break;
    }
}

static void on_button(GLFWwindow *window, int button, int action, int mods)
{
    (void)mods;
    view *v = glfwGetWindowUserPointer(window);
    if (button != GLFW_MOUSE_BUTTON_LEFT)
        return;
    v->dragging = action == GLFW_PRESS;
    glfwGetCursorPos(window, &v->drag_x, &v->drag_y);
}

static void on_cursor(GLFWwindow *window, double x, double y)
{
    view *v = glfwGetWindowUserPointer(window);
    if (!v->dragging)
        return;
    v->yaw_deg -= (float)(x - v->drag_x) * 0.3f;
    v->pitch_deg = fminf(fmaxf(v->pitch_deg + (float)(y - v->drag_y) * 0.3f, -10.0f), 85.0f);
    v->drag_x = x;
    v->drag_y = y;
}

static void on_scroll(GLFWwindow *window, double dx, double dy)
{
    (void)dx;
    view *v = glfwGetWindowUserPointer(window);
    v->zoom = fminf(fmaxf(v->zoom * powf(0.9f, (float)dy), 0.05f), 20.0f);
}

/* The crowd framed from the view's heading and elevation, then moved along
 * the line of sight by the zoom. */
static ossa_render_camera camera_of(const view *v, int width, int height)
{
    ossa_render_camera c = render_scene_camera(&v->rc.scene, (float)width / (float)height,
                                               v->yaw_deg * DEG, v->pitch_deg * DEG);
    c.eye.x = c.target.x + (c.eye.x - c.target.x) * v->zoom;
    c.eye.y = c.target.y + (c.eye.y - c.target.y) * v->zoom;
    c.eye.z = c.target.z + (c.eye.z - c.target.z) * v->zoom;
    c.z_near *= v->zoom;
    c.z_far *= v->zoom > 1.0f ? v->zoom : 1.0f;
    return c;
}

static double median_ms(const render_sample *history, int n, size_t field)
{
    double values[HISTORY];
    for (int i = 0; i < n; ++i)
        memcpy(&values[i], (const char *)&history[i] + field, sizeof(double));
    return cli_median(values, (size_t)n);
}

static void update_title(GLFWwindow *window, const view *v, const render_sample *history, int n)
{
    char title[512];
    const double frame = median_ms(history, n, offsetof(render_sample, frame_ms));
    const double gpu = median_ms(history, n, offsetof(render_sample, gpu_ms));
    char gpu_text[32] = "n/a";
    if (gpu >= 0)
        snprintf(gpu_text, sizeof gpu_text, "%.2f ms", gpu);
    snprintf(title, sizeof title,
             "ossa view | %d x %s | %s | %s skinning | pose %.2f  skin %.2f  upload %.2f  "
             "submit %.2f ms  gpu %s | %.1f fps | %s x%g",
             v->rc.scene.characters, ossa_mesh_name(v->rc.scene.mesh),
             render_scene_clip_name(&v->rc.scene, v->rc.scene.clip),
             v->skinning == OSSA_RENDER_SKINNING_CPU ? "CPU" : "GPU",
             median_ms(history, n, offsetof(render_sample, pose_ms)),
             median_ms(history, n, offsetof(render_sample, skin_ms)),
             median_ms(history, n, offsetof(render_sample, upload_ms)),
             median_ms(history, n, offsetof(render_sample, submit_ms)), gpu_text,
             frame > 0 ? 1000.0 / frame : 0.0, v->playing ? "playing" : "paused",
             (double)v->speed);
    glfwSetWindowTitle(window, title);
}

static int parse(int argc, char **argv, view *v, int *frames, float *quit_after_s)
{
    render_common_defaults(&v->options);
    v->options.width = 1280;
    v->options.height = 720;
    for (int i = 1; i < argc; ++i) {
        const int common = render_common_parse(argc, argv, &i, &v->options, "view");
        if (common < 0)
            return 2;
        if (common > 0)
            continue;
        if (cli_is(argv[i], "--help", "-h")) {
            help(stdout);
            return 0;
        } else if (cli_is(argv[i], "--frames", NULL)) {
            if (!cli_int_arg(argc, argv, &i, 1, 100000000, frames))
                return 2;
        } else if (cli_is(argv[i], "--quit-after", NULL)) {
            if (!cli_float_arg(argc, argv, &i, 0.0f, 1e7f, quit_after_s))
                return 2;
        } else {
            cli_error("view", "unexpected argument '%s'", argv[i]);
            help(stderr);
            return 2;
        }
    }
    return -1;
}

static GLFWwindow *open_window(view *v)
{
    glfwSetErrorCallback(on_error);
    if (!glfwInit()) {
        cli_error("view", "cannot open a window: %s (ossa render draws without a display)",
                  v->glfw_error[0] ? v->glfw_error : "GLFW failed to start");
        return NULL;
    }
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    glfwWindowHint(GLFW_SAMPLES, v->options.samples);
    GLFWwindow *window =
        glfwCreateWindow(v->options.width, v->options.height, "ossa view", NULL, NULL);
    if (!window) {
        cli_error("view", "cannot open a window with OpenGL 3.3 core: %s",
                  v->glfw_error[0] ? v->glfw_error : "unknown GLFW error");
        glfwTerminate();
        return NULL;
    }
    glfwMakeContextCurrent(window);
    glfwSwapInterval(1);
    glfwSetWindowUserPointer(window, v);
    glfwSetKeyCallback(window, on_key);
    glfwSetMouseButtonCallback(window, on_button);
    glfwSetCursorPosCallback(window, on_cursor);
    glfwSetScrollCallback(window, on_scroll);
    return window;
}

/* Runs until the window closes or a limit is reached; returns frames drawn,
 * or -1 after a failure (printed). */
static int run(view *v, GLFWwindow *window, int max_frames, double quit_after_s,
               render_sample *all, int all_capacity)
{
    render_sample history[HISTORY];
    int frames = 0;
    const double start = glfwGetTime();
    double last = start, last_title = start;
    while (!glfwWindowShouldClose(window)) {
        if (v->crowd_changed) {
            v->crowd_changed = false;
            if (!render_context_resize_crowd(&v->rc, v->characters, v->clip)) {
                cli_error("view", "%s", v->rc.err);
                return -1;
            }
        }
        const double now = glfwGetTime();
        if (v->playing)
            v->time_s += (now - last) * v->speed;
        v->time_s += v->step_s;
        v->step_s = 0;
        int width, height;
        glfwGetFramebufferSize(window, &width, &height);
        if (width > 0 && height > 0) {
            v->rc.width = width;
            v->rc.height = height;
            v->rc.camera = camera_of(v, width, height);
            render_sample s;
            if (!render_context_frame(&v->rc, (float)v->time_s, v->skinning, &s)) {
                cli_error("view", "%s", v->rc.err);
                return -1;
            }
            s.frame_ms = frames > 0 ? (now - last) * 1e3 : s.frame_ms;
            history[frames % HISTORY] = s;
            if (frames < all_capacity)
                all[frames] = s;
            ++frames;
            glfwSwapBuffers(window);
        }
        last = now;
        if (now - last_title > 0.5) {
            update_title(window, v, history, frames < HISTORY ? frames : HISTORY);
            last_title = now;
        }
        glfwPollEvents();
        if ((max_frames > 0 && frames >= max_frames) ||
            (quit_after_s > 0 && glfwGetTime() - start >= quit_after_s))
            break;
    }
    return frames;
}

int cmd_view(int argc, char **argv)
{
    view v;
    memset(&v, 0, sizeof v);
    int max_frames = 0;
    float quit_after_s = 0;
    const int parsed = parse(argc, argv, &v, &max_frames, &quit_after_s);
    if (parsed >= 0)
        return parsed;
    render_quiet_driver_logs();
    the_view = &v;
    GLFWwindow *window = open_window(&v);
    if (!window) {
        the_view = NULL;
        return 1;
    }
    char err[512];
    int code = 0;
    if (!render_context_open(&v.rc, &v.options, false, err, sizeof err)) {
        cli_error("view", "%s", err);
        code = 1;
    } else {
        reset_camera(&v);
        v.playing = true;
        v.speed = 1.0f;
        v.characters = v.rc.scene.characters;
        v.clip = v.rc.scene.clip;
        v.skinning = v.options.skinning;
        const int capacity = max_frames > 0 && max_frames < 100000 ? max_frames : 100000;
        render_sample *all = cli_alloc(sizeof *all * (size_t)capacity);
        const double start = glfwGetTime();
        const int frames = run(&v, window, max_frames, quit_after_s, all, capacity);
        const double seconds = glfwGetTime() - start;
        if (frames < 0) {
            code = 1;
        } else {
            printf("ossa view: rendered %d frames in %.2f s (%.1f fps); %s\n", frames, seconds,
                   seconds > 0 ? frames / seconds : 0.0, v.rc.description);
            if (frames > 0)
                render_print_summary(stdout, all, frames < capacity ? frames : capacity);
        }
        cli_free(all);
        render_context_close(&v.rc);
    }
    glfwDestroyWindow(window);
    glfwTerminate();
    the_view = NULL;
    return code;
}
