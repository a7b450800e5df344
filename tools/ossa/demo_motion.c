/* demo_motion.c - see demo_motion.h. */
#include "demo_motion.h"

#include <math.h>
#include <stdlib.h>

typedef struct by_distance {
    float distance;
    int index;
} by_distance;

static int closer(const void *a, const void *b)
{
    const by_distance *x = a, *y = b;
    return x->distance < y->distance ? -1 : x->distance > y->distance ? 1 : x->index - y->index;
}

ossa_result demo_motion_wrap(demo_world *w)
{
    const int n = w->options.characters, side = (int)ceil(sqrt((double)n));
    const float half = 0.5f * (float)side * w->spacing;
    /* the grid's x is centred on 0, its z runs from 0 */
    const float lo_x = -half, hi_x = half, lo_z = -0.5f * w->spacing;
    const float hi_z = lo_z + (float)side * w->spacing;
    by_distance *order = malloc(sizeof *order * (size_t)n);
    if (!order)
        return OSSA_ERR_OUT_OF_MEMORY;
    ossa_result r = OSSA_OK;
    for (int i = 0; i < n && r == OSSA_OK; ++i) {
        ossa_character_state st;
        if ((r = ossa_crowd_character(w->crowd, w->entity[i], &st)) != OSSA_OK)
            break;
        ossa_float3 p = st.position;
        const ossa_float3 was = p;
        if (p.x < lo_x)
            p.x += hi_x - lo_x;
        else if (p.x > hi_x)
            p.x -= hi_x - lo_x;
        if (p.z < lo_z)
            p.z += hi_z - lo_z;
        else if (p.z > hi_z)
            p.z -= hi_z - lo_z;
        if (w->relief.heights) /* root motion is level: the hills lift and lower it */
            p.y = ground_relief_height(&w->relief, p.x, p.z);
        if (p.x != was.x || p.y != was.y || p.z != was.z)
            r = ossa_crowd_set_placement(w->crowd, w->entity[i], p, st.yaw_rad);
        w->position[i] = p;
        /* the update rate by distance, as demo_world lays it out */
        const float dx = p.x - w->camera.eye.x, dz = p.z - w->camera.eye.z;
        const float d = sqrtf(dx * dx + dz * dz);
        order[i] = (by_distance){d, i};
        const float f = d / w->far;
        const uint8_t interval = f < 0.5f ? 1 : f < 0.75f ? 2 : 4;
        if (r == OSSA_OK && interval != w->interval[i]) {
            w->interval[i] = interval;
            r = ossa_crowd_set_update_interval(w->crowd, w->entity[i], interval);
        }
    }
    qsort(order, (size_t)n, sizeof *order, closer);
    for (int i = 0; i < n; ++i)
        w->nearest[i] = order[i].index;
    free(order);
    return r;
}
