/* crowd_picture.h - one call that draws a crowd's poses headless into a PNG:
 * `ossa demo`'s picture (and whatever crowd follows it). Needs no display;
 * fails with a one-line message when there is no EGL or OpenGL 3.3. */
#ifndef OSSA_CROWD_PICTURE_H
#define OSSA_CROWD_PICTURE_H

#include <stdbool.h>
#include <stddef.h>

#include "ossa/ossa.h"

typedef struct crowd_picture {
    const ossa_mesh *mesh; /* required */
    int characters;        /* >= 1 */
    /* Character i's palette (ossa_palette_job output) at palettes + i * the
     * mesh's skin joint count. Required unless skinned is given. */
    const ossa_mat34 *palettes;
    /* Optional: streams already skinned by ossa_skinning_job in `format`,
     * character i at skinned + i * skinned_stride bytes (0: the format's
     * bytes for the mesh, ossa_skin_output_bytes). */
    const void *skinned;
    size_t skinned_stride;
    ossa_skin_format format; /* of skinned, and of the picture's own skinning */
    /* Model -> world per character. NULL lays the characters out on a grid
     * (poses in model space); pass identities for poses already in world
     * space (ossa_crowd_pose). */
    const ossa_mat34 *placements;
    /* Optional relief: the ground as a height field (ossa/crowd.h layout);
     * NULL: the plane y = 0. */
    const float *ground_heights;
    int ground_columns, ground_rows;
    float ground_origin_x, ground_origin_z, ground_cell;
    int width, height;     /* 0, 0 means 960 x 540 */
    const char *path;      /* the PNG to write; required */
} crowd_picture;

/* Draws the crowd (CPU-skinned: the runtime's job, from the palettes when no
 * streams are given), framed by the skinned vertices' bounds, and writes the
 * PNG. False with a message naming what failed in err. */
bool crowd_picture_write(const crowd_picture *picture, char *err, size_t err_bytes);

#endif /* OSSA_CROWD_PICTURE_H */
