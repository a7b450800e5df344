/* headless.c - an OpenGL 3.3 core context with no display: Mesa's
 * surfaceless EGL platform (else EGL's default display), rendering into an
 * offscreen framebuffer that is read back as RGBA8. */
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <epoxy/egl.h>
#include <epoxy/gl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render_internal.h"

#define MAX_SIZE 16384

struct ossa_render_headless {
    EGLDisplay display;
    EGLContext context;
    EGLSurface surface; /* EGL_NO_SURFACE unless the display needs a pbuffer */
    int width, height, samples;
    GLuint framebuffer, color, depth; /* the target, multisampled when samples > 1 */
    GLuint resolve_framebuffer, resolve_color;
};

static const char *egl_error_name(EGLint code)
{
    switch (code) {
    case EGL_SUCCESS: return "EGL_SUCCESS";
    case EGL_NOT_INITIALIZED: return "EGL_NOT_INITIALIZED";
    case EGL_BAD_ACCESS: return "EGL_BAD_ACCESS";
    case EGL_BAD_ALLOC: return "EGL_BAD_ALLOC";
    case EGL_BAD_ATTRIBUTE: return "EGL_BAD_ATTRIBUTE";
    case EGL_BAD_CONFIG: return "EGL_BAD_CONFIG";
    case EGL_BAD_CONTEXT: return "EGL_BAD_CONTEXT";
    case EGL_BAD_CURRENT_SURFACE: return "EGL_BAD_CURRENT_SURFACE";
    case EGL_BAD_DISPLAY: return "EGL_BAD_DISPLAY";
    case EGL_BAD_MATCH: return "EGL_BAD_MATCH";
    case EGL_BAD_NATIVE_PIXMAP: return "EGL_BAD_NATIVE_PIXMAP";
    case EGL_BAD_NATIVE_WINDOW: return "EGL_BAD_NATIVE_WINDOW";
    case EGL_BAD_PARAMETER: return "EGL_BAD_PARAMETER";
    case EGL_BAD_SURFACE: return "EGL_BAD_SURFACE";
    case EGL_CONTEXT_LOST: return "EGL_CONTEXT_LOST";
    default: return "unknown EGL error";
    }
}

static ossa_result fail(ossa_render_headless *h, ossa_error *error, ossa_result code,
                        const char *what)
{
    ossa_error_set(error, code, -1, -1, "%s", what);
    ossa_render_headless_destroy(h);
    return code;
}

/* libepoxy aborts the process when libEGL cannot be loaded or lacks an entry
 * point, so both are checked before the first EGL call. */
static bool egl_library_present(void)
{
    void *lib = dlopen("libEGL.so.1", RTLD_LAZY | RTLD_GLOBAL);
    return lib != NULL; /* kept open: libepoxy uses it next */
}

static EGLDisplay open_display(bool *surfaceless)
{
    *surfaceless = false;
    if (epoxy_has_egl_extension(EGL_NO_DISPLAY, "EGL_EXT_platform_base") &&
        epoxy_has_egl_extension(EGL_NO_DISPLAY, "EGL_MESA_platform_surfaceless")) {
        EGLDisplay d = eglGetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY,
                                                NULL);
        if (d != EGL_NO_DISPLAY) {
            *surfaceless = true;
            return d;
        }
    }
    return eglGetDisplay(EGL_DEFAULT_DISPLAY);
}

/* A context (and, when the display cannot make one current without a
 * surface, a 1x1 pbuffer) for OpenGL 3.3 core. */
static ossa_result make_context(ossa_render_headless *h, bool surfaceless, char *why,
                                size_t why_bytes)
{
    if (!eglBindAPI(EGL_OPENGL_API)) {
        snprintf(why, why_bytes, "the EGL driver has no desktop OpenGL (eglBindAPI: %s)",
                 egl_error_name(eglGetError()));
        return OSSA_ERR_UNSUPPORTED;
    }
    const bool no_surface =
        surfaceless || epoxy_has_egl_extension(h->display, "EGL_KHR_surfaceless_context");
    const bool no_config = epoxy_has_egl_extension(h->display, "EGL_KHR_no_config_context");
    EGLConfig config = EGL_NO_CONFIG_KHR;
    if (!no_config || !no_surface) {
        const EGLint wanted[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE,
                                 EGL_OPENGL_BIT, EGL_NONE};
        EGLint found = 0;
        if (!eglChooseConfig(h->display, wanted, &config, 1, &found) || found < 1) {
            snprintf(why, why_bytes, "the EGL display offers no OpenGL configuration (%s)",
                     egl_error_name(eglGetError()));
            return OSSA_ERR_UNSUPPORTED;
        }
    }
    const EGLint attributes[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 3,
                                 EGL_CONTEXT_OPENGL_PROFILE_MASK,
                                 EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
    h->context = eglCreateContext(h->display, config, EGL_NO_CONTEXT, attributes);
    if (h->context == EGL_NO_CONTEXT) {
        snprintf(why, why_bytes, "the driver gives no OpenGL 3.3 core context (%s)",
                 egl_error_name(eglGetError()));
        return OSSA_ERR_UNSUPPORTED;
    }
    if (!no_surface) {
        const EGLint size[] = {EGL_WIDTH, 1, EGL_HEIGHT, 1, EGL_NONE};
        h->surface = eglCreatePbufferSurface(h->display, config, size);
        if (h->surface == EGL_NO_SURFACE) {
            snprintf(why, why_bytes, "no pbuffer surface (%s)", egl_error_name(eglGetError()));
            return OSSA_ERR_UNSUPPORTED;
        }
    }
    if (!eglMakeCurrent(h->display, h->surface, h->surface, h->context)) {
        snprintf(why, why_bytes, "the OpenGL context cannot be made current (%s)",
                 egl_error_name(eglGetError()));
        return OSSA_ERR_UNSUPPORTED;
    }
    return OSSA_OK;
}

static GLuint renderbuffer(int samples, GLenum format, int width, int height)
{
    GLuint rb = 0;
    glGenRenderbuffers(1, &rb);
    glBindRenderbuffer(GL_RENDERBUFFER, rb);
    if (samples > 1)
        glRenderbufferStorageMultisample(GL_RENDERBUFFER, samples, format, width, height);
    else
        glRenderbufferStorage(GL_RENDERBUFFER, format, width, height);
    return rb;
}

static bool make_target(ossa_render_headless *h)
{
    GLint max_samples = 0, max_size = 0;
    glGetIntegerv(GL_MAX_SAMPLES, &max_samples);
    glGetIntegerv(GL_MAX_RENDERBUFFER_SIZE, &max_size);
    if (h->width > max_size || h->height > max_size)
        return false;
    if (h->samples > max_samples)
        h->samples = max_samples;
    h->color = renderbuffer(h->samples, GL_RGBA8, h->width, h->height);
    h->depth = renderbuffer(h->samples, GL_DEPTH_COMPONENT24, h->width, h->height);
    glGenFramebuffers(1, &h->framebuffer);
    glBindFramebuffer(GL_FRAMEBUFFER, h->framebuffer);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, h->color);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, h->depth);
    bool ok = glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
    if (ok && h->samples > 1) {
        h->resolve_color = renderbuffer(0, GL_RGBA8, h->width, h->height);
        glGenFramebuffers(1, &h->resolve_framebuffer);
        glBindFramebuffer(GL_FRAMEBUFFER, h->resolve_framebuffer);
        glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER,
                                  h->resolve_color);
        ok = glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
    }
    glBindFramebuffer(GL_FRAMEBUFFER, h->framebuffer);
    glViewport(0, 0, h->width, h->height);
    return ok && glGetError() == GL_NO_ERROR;
}

ossa_result ossa_render_headless_create(const ossa_render_headless_desc *desc,
                                        ossa_render_headless **out, ossa_error *error)
{
    ossa_error_clear(error);
    if (!out)
        return ossa_error_set(error, OSSA_ERR_MISSING_OUTPUT, -1, -1, "headless: out is NULL");
    *out = NULL;
    if (!desc || desc->width < 1 || desc->height < 1 || desc->width > MAX_SIZE ||
        desc->height > MAX_SIZE || desc->samples < 0 || desc->samples > 16)
        return ossa_error_set(error, OSSA_ERR_BAD_ARGUMENT, -1, -1,
                              "headless: the size must be 1..%d pixels a side and samples "
                              "0..16",
                              MAX_SIZE);
    if (!egl_library_present())
        return ossa_error_set(error, OSSA_ERR_UNSUPPORTED, -1, -1,
                              "no EGL library (libEGL.so.1): install libegl1 and "
                              "libegl-mesa0 for headless OpenGL");
    ossa_render_headless *h = calloc(1, sizeof *h);
    if (!h)
        return ossa_error_set(error, OSSA_ERR_OUT_OF_MEMORY, -1, -1, "headless: out of memory");
    h->width = desc->width;
    h->height = desc->height;
    h->samples = desc->samples > 1 ? desc->samples : 0;
    h->display = EGL_NO_DISPLAY;
    h->context = EGL_NO_CONTEXT;
    h->surface = EGL_NO_SURFACE;
    /* libglvnd's libEGL answers an empty list when no vendor library (no
     * driver) loads. */
    const char *client = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
    if (!client || !*client)
        return fail(h, error, OSSA_ERR_UNSUPPORTED,
                    "no EGL driver: libEGL found no vendor library (install libegl-mesa0 and "
                    "libgl1-mesa-dri)");
    bool surfaceless = false;
    h->display = open_display(&surfaceless);
    if (h->display == EGL_NO_DISPLAY)
        return fail(h, error, OSSA_ERR_UNSUPPORTED,
                    "no EGL display: neither Mesa's surfaceless platform nor a default "
                    "display is available (install libegl-mesa0 and libgl1-mesa-dri)");
    EGLint major = 0, minor = 0;
    if (!eglInitialize(h->display, &major, &minor)) {
        char why[200];
        snprintf(why, sizeof why,
                 "EGL cannot initialise its %s display (%s): no usable GL driver (install "
                 "libgl1-mesa-dri)",
                 surfaceless ? "surfaceless" : "default", egl_error_name(eglGetError()));
        eglTerminate(h->display); /* a failed initialise may still hold resources */
        h->display = EGL_NO_DISPLAY;
        return fail(h, error, OSSA_ERR_UNSUPPORTED, why);
    }
    char why[200];
    ossa_result r = make_context(h, surfaceless, why, sizeof why);
    if (r != OSSA_OK)
        return fail(h, error, r, why);
    if (!epoxy_is_desktop_gl() || epoxy_gl_version() < 33)
        return fail(h, error, OSSA_ERR_UNSUPPORTED, "the context is not OpenGL 3.3 core or later");
    if (!make_target(h))
        return fail(h, error, OSSA_ERR_UNSUPPORTED,
                    "the driver cannot make an offscreen target of this size and sampling");
    *out = h;
    return OSSA_OK;
}

void ossa_render_headless_destroy(ossa_render_headless *h)
{
    if (!h)
        return;
    if (h->context != EGL_NO_CONTEXT && eglGetCurrentContext() == h->context) {
        glDeleteFramebuffers(1, &h->resolve_framebuffer);
        glDeleteFramebuffers(1, &h->framebuffer);
        glDeleteRenderbuffers(1, &h->resolve_color);
        glDeleteRenderbuffers(1, &h->color);
        glDeleteRenderbuffers(1, &h->depth);
    }
    if (h->display != EGL_NO_DISPLAY) {
        eglMakeCurrent(h->display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
        if (h->surface != EGL_NO_SURFACE)
            eglDestroySurface(h->display, h->surface);
        if (h->context != EGL_NO_CONTEXT)
            eglDestroyContext(h->display, h->context);
        /* The display stays initialised: terminating it unloads the driver
         * (and LLVM), which the next context would load again, and leaves
         * the driver's own leaks without a module to name them by. */
        eglReleaseThread();
    }
    free(h);
}

void ossa_render_headless_bind(const ossa_render_headless *h)
{
    glBindFramebuffer(GL_FRAMEBUFFER, h->framebuffer);
    glViewport(0, 0, h->width, h->height);
}

ossa_result ossa_render_headless_read(const ossa_render_headless *h, uint8_t *rgba, size_t bytes)
{
    const size_t row = (size_t)h->width * 4, need = row * (size_t)h->height;
    if (!rgba)
        return OSSA_ERR_MISSING_OUTPUT;
    if (bytes < need)
        return OSSA_ERR_OUTPUT_TOO_SMALL;
    GLuint from = h->framebuffer;
    if (h->samples > 1) {
        glBindFramebuffer(GL_READ_FRAMEBUFFER, h->framebuffer);
        glBindFramebuffer(GL_DRAW_FRAMEBUFFER, h->resolve_framebuffer);
        glBlitFramebuffer(0, 0, h->width, h->height, 0, 0, h->width, h->height,
                          GL_COLOR_BUFFER_BIT, GL_NEAREST);
        from = h->resolve_framebuffer;
    }
    glBindFramebuffer(GL_READ_FRAMEBUFFER, from);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, h->width, h->height, GL_RGBA, GL_UNSIGNED_BYTE, rgba);
    ossa_render_headless_bind(h);
    const GLenum e = glGetError();
    if (e != GL_NO_ERROR)
        return OSSA_ERR_UNSUPPORTED;
    /* GL's rows go bottom to top; images go top to bottom. */
    uint8_t tmp[4096];
    for (int y = 0; y < h->height / 2; ++y) {
        uint8_t *a = rgba + (size_t)y * row, *b = rgba + (size_t)(h->height - 1 - y) * row;
        for (size_t x = 0; x < row; x += sizeof tmp) {
            const size_t n = row - x < sizeof tmp ? row - x : sizeof tmp;
            memcpy(tmp, a + x, n);
            memcpy(a + x, b + x, n);
            memcpy(b + x, tmp, n);
        }
    }
    return OSSA_OK;
}

void ossa_render_describe_gl(char *text, size_t bytes)
{
    if (!text || bytes == 0)
        return;
    const char *version = (const char *)glGetString(GL_VERSION);
    const char *renderer = (const char *)glGetString(GL_RENDERER);
    snprintf(text, bytes, "OpenGL %s on %s", version ? version : "?",
             renderer ? renderer : "?");
}
