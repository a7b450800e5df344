/* demo_motion.h - the demo's characters walk and run through the world by
 * their clips' root motion: a character leaving the field (the grid, a
 * spacing beyond its edges) comes back in on the other side, like a torus,
 * on hills its height follows the ground under it (root motion is level),
 * and the world's positions follow the crowd's, with the nearest-first order
 * and the update rates by distance that culling and skinning use. */
#ifndef OSSA_DEMO_MOTION_H
#define OSSA_DEMO_MOTION_H

#include "demo_world.h"

/* After a crowd frame. */
ossa_result demo_motion_wrap(demo_world *w);

#endif /* OSSA_DEMO_MOTION_H */
