/* ground_relief.c - see ground_relief.h. */
#include "ground_relief.h"

#include <math.h>
#include <string.h>

#include "cli.h"

#define MAX_SAMPLES 512

/* Gentle hills: two crossed waves and a slower diagonal one. */
static float hills(float x, float z, float scale)
{
    const float u = x / scale, v = z / scale;
    return scale * (0.055f * sinf(1.9f * u + 0.4f) * cosf(1.4f * v) +
                    0.035f * sinf(0.8f * (u + v) + 1.0f) + 0.015f * sinf(3.1f * u - 2.3f * v));
}

bool ground_relief_make(ground_relief *g, float min_x, float min_z, float max_x, float max_z,
                        float scale)
{
    memset(g, 0, sizeof *g);
    if (!isfinite(min_x) || !isfinite(min_z) || !isfinite(max_x) || !isfinite(max_z) ||
        !(scale > 0.0f) || !isfinite(scale) || max_x < min_x || max_z < min_z)
        return false;
    const float margin = 2.0f * scale;
    min_x -= margin;
    min_z -= margin;
    max_x += margin;
    max_z += margin;
    float cell = 0.125f * scale;
    const float span = fmaxf(max_x - min_x, max_z - min_z);
    if (span / cell > (float)(MAX_SAMPLES - 1))
        cell = span / (float)(MAX_SAMPLES - 1);
    const int columns = (int)ceilf((max_x - min_x) / cell) + 1;
    const int rows = (int)ceilf((max_z - min_z) / cell) + 1;
    g->heights = cli_alloc(sizeof(float) * (size_t)columns * (size_t)rows);
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < columns; ++c)
            g->heights[(size_t)r * (size_t)columns + (size_t)c] =
                hills(min_x + (float)c * cell, min_z + (float)r * cell, scale);
    g->ground = (ossa_crowd_ground){g->heights, columns, rows, min_x, min_z, cell};
    return true;
}

void ground_relief_free(ground_relief *g)
{
    cli_free(g->heights);
    memset(g, 0, sizeof *g);
}

float ground_relief_height(const ground_relief *g, float x, float z)
{
    return ossa_crowd_ground_height(&g->ground, x, z);
}
