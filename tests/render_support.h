/* render_support.h - for the renderer's tests: whether this machine can open
 * an EGL display at all (the one reason they may skip, probed through libEGL
 * directly, without libossa_render), and a reference projection. */
#ifndef OSSA_RENDER_SUPPORT_H
#define OSSA_RENDER_SUPPORT_H

#include "ossa/render.h"

/* NULL when Mesa's surfaceless EGL display opens, else why not. */
const char *ts_no_egl_display(void);

/* The independent expectation for pictures: where a world point lands in a
 * width x height image (x right, y down, pixel edges at integers) for a
 * camera as render.h defines it (up +y, vertical field of view, aspect
 * width / height), computed in double precision from the definition. */
void ts_project(const ossa_render_camera *camera, int width, int height, const double p[3],
                double *x, double *y);

#endif /* OSSA_RENDER_SUPPORT_H */
