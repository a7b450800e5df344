/* render_support.c - see render_support.h. */
#include "render_support.h"

#include <dlfcn.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef void *(*get_proc_fn)(const char *);
typedef void *(*get_platform_display_fn)(unsigned, void *, const intptr_t *);
typedef unsigned (*initialize_fn)(void *, int *, int *);
#define EGL_PLATFORM_SURFACELESS_MESA_ 0x31DD

/* Probed once; the library and the display stay loaded and initialised, as
 * the renderer keeps them, so that the driver is never unloaded under the
 * leak checker (its leaks then carry the driver's name). */
static const char *probe(void)
{
    void *lib = dlopen("libEGL.so.1", RTLD_LAZY | RTLD_LOCAL);
    if (!lib)
        return "no libEGL.so.1 on this machine";
    get_proc_fn get_proc = (get_proc_fn)dlsym(lib, "eglGetProcAddress");
    initialize_fn initialize = (initialize_fn)dlsym(lib, "eglInitialize");
    get_platform_display_fn get_display =
        get_proc ? (get_platform_display_fn)get_proc("eglGetPlatformDisplayEXT") : NULL;
    void *display = get_display ? get_display(EGL_PLATFORM_SURFACELESS_MESA_, NULL, NULL) : NULL;
    int major = 0, minor = 0;
    if (!display || !initialize || !initialize(display, &major, &minor))
        return "no EGL display can be opened (no Mesa EGL driver)";
    return NULL;
}

const char *ts_no_egl_display(void)
{
    static bool probed;
    static const char *why;
    if (!probed) {
        why = probe();
        probed = true;
    }
    return why;
}

/* A world point to image coordinates (x right, y down, pixel edges at
 * integers) for a camera as render.h defines it. */
void ts_project(const ossa_render_camera *c, int width, int height, const double p[3], double *x,
                double *y)
{
    const double e[3] = {c->eye.x, c->eye.y, c->eye.z};
    double f[3] = {c->target.x - e[0], c->target.y - e[1], c->target.z - e[2]};
    const double fl = sqrt(f[0] * f[0] + f[1] * f[1] + f[2] * f[2]);
    for (int i = 0; i < 3; ++i)
        f[i] /= fl;
    double s[3] = {-f[2], 0.0, f[0]}; /* f x (0, 1, 0) */
    const double sl = sqrt(s[0] * s[0] + s[2] * s[2]);
    s[0] /= sl, s[2] /= sl;
    const double u[3] = {s[1] * f[2] - s[2] * f[1], s[2] * f[0] - s[0] * f[2],
                         s[0] * f[1] - s[1] * f[0]};
    const double q[3] = {p[0] - e[0], p[1] - e[1], p[2] - e[2]};
    const double xe = q[0] * s[0] + q[1] * s[1] + q[2] * s[2];
    const double ye = q[0] * u[0] + q[1] * u[1] + q[2] * u[2];
    const double depth = q[0] * f[0] + q[1] * f[1] + q[2] * f[2];
    const double t = 1.0 / tan(0.5 * (double)c->fov_y_rad);
    const double ndc_x = t / ((double)width / height) * xe / depth, ndc_y = t * ye / depth;
    *x = (ndc_x + 1.0) * 0.5 * width;
    *y = (1.0 - ndc_y) * 0.5 * height;
}
