/* ground_relief.h - the tools' uneven ground: a height field of gentle hills
 * under a box, for `ossa demo`, `render` and `view`, where IK plants the
 * characters' feet on it. Deterministic: a sum of sines scaled to the
 * character. */
#ifndef OSSA_GROUND_RELIEF_H
#define OSSA_GROUND_RELIEF_H

#include <stdbool.h>

#include "ossa/crowd.h"

typedef struct ground_relief {
    float *heights;           /* owned */
    ossa_crowd_ground ground; /* what the crowd and the renderer read */
} ground_relief;

/* Hills up to about 0.1 x `scale` high (the character's height), a few
 * character heights apart, over [min_x, max_x] x [min_z, max_z] and a margin
 * of 2 x scale; at most 512 x 512 samples. False (and an empty relief) for
 * a box or scale that is not finite. */
bool ground_relief_make(ground_relief *g, float min_x, float min_z, float max_x, float max_z,
                        float scale);
void ground_relief_free(ground_relief *g);
/* The height at (x, z) (bilinear, as the crowd samples it). */
float ground_relief_height(const ground_relief *g, float x, float z);

#endif /* OSSA_GROUND_RELIEF_H */
