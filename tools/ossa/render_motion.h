/* render_motion.h - root motion in `ossa render` and `ossa view`: each
 * character is placed where its clip's root motion (ossa_root_motion_job)
 * has carried it from its place on the grid since its phase, and the camera
 * follows the crowd's mean travel (a single character's own). */
#ifndef OSSA_RENDER_MOTION_H
#define OSSA_RENDER_MOTION_H

#include "render_scene.h"

/* After the layout: keeps the grid places (unless the scene is in place or
 * no clip moves). */
void render_motion_init(render_scene *s);
/* After posing at the scene's time_s: the placements, and how far the
 * characters have come on average (s->follow). */
void render_motion_place(render_scene *s);
/* The camera moved along with them. */
ossa_render_camera render_motion_follow(const render_scene *s, ossa_render_camera camera);

#endif /* OSSA_RENDER_MOTION_H */
