/* render_support.h - for the renderer's tests: whether this machine can open
 * an EGL display at all (the one reason they may skip), probed through
 * libEGL directly, without libossa_render. */
#ifndef OSSA_RENDER_SUPPORT_H
#define OSSA_RENDER_SUPPORT_H

/* NULL when Mesa's surfaceless EGL display opens, else why not. */
const char *ts_no_egl_display(void);

#endif /* OSSA_RENDER_SUPPORT_H */
