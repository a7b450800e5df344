/* render_support.c - see render_support.h. */
#include "render_support.h"

#include <dlfcn.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef void *(*get_proc_fn)(const char *);
typedef void *(*get_platform_display_fn)(unsigned, void *, const intptr_t *);
typedef unsigned (*initialize_fn)(void *, int *, int *);
typedef unsigned (*terminate_fn)(void *);
#define EGL_PLATFORM_SURFACELESS_MESA_ 0x31DD

const char *ts_no_egl_display(void)
{
    void *lib = dlopen("libEGL.so.1", RTLD_LAZY | RTLD_LOCAL);
    if (!lib)
        return "no libEGL.so.1 on this machine";
    get_proc_fn get_proc = (get_proc_fn)dlsym(lib, "eglGetProcAddress");
    initialize_fn initialize = (initialize_fn)dlsym(lib, "eglInitialize");
    terminate_fn terminate = (terminate_fn)dlsym(lib, "eglTerminate");
    get_platform_display_fn get_display =
        get_proc ? (get_platform_display_fn)get_proc("eglGetPlatformDisplayEXT") : NULL;
    void *display = get_display ? get_display(EGL_PLATFORM_SURFACELESS_MESA_, NULL, NULL) : NULL;
    int major = 0, minor = 0;
    const bool ok = display && initialize && terminate && initialize(display, &major, &minor);
    if (ok)
        terminate(display);
    dlclose(lib);
    return ok ? NULL : "no EGL display can be opened (no Mesa EGL driver)";
}
