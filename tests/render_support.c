/* render_support.c - see render_support.h. */
#include "render_support.h"

#include <dlfcn.h>
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
