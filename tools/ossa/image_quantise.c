/* image_quantise.c - see image_quantise.h. Colours are counted in cells of
 * 6 bits per channel; the cells are cut into boxes, each time splitting the
 * box with the largest squared error at the weighted median of its widest
 * channel, and each box gives the mean of its pixels as a palette colour.
 * Distances weigh the channels (3, 4, 2), roughly as the eye does. */
#include "image_quantise.h"

#include <float.h>
#include <stdlib.h>
#include <string.h>

#define CELL_BITS 6
#define CELL_LEVELS (1 << CELL_BITS)
#define CELLS (CELL_LEVELS * CELL_LEVELS * CELL_LEVELS)

static const float weight[3] = {3.0f, 4.0f, 2.0f};

/* A colour cell that occurs: how often, and its pixels' mean. */
typedef struct cell {
    uint32_t count;
    float mean[3];
} cell;

typedef struct box {
    int begin, end; /* cells [begin, end) */
    double error;   /* weighted squared error of its pixels about their mean */
    int axis;       /* the channel with the largest error: where it splits */
} box;

static int cell_of(const uint8_t *rgb)
{
    const int s = 8 - CELL_BITS;
    return (rgb[0] >> s) << (2 * CELL_BITS) | (rgb[1] >> s) << CELL_BITS | rgb[2] >> s;
}

/* The colour cells that occur in the frames, with their means. */
static cell *count_cells(const uint8_t *rgba, size_t pixels, int *count)
{
    uint32_t *n = calloc(CELLS, sizeof *n);
    uint64_t(*sum)[3] = calloc(CELLS, sizeof *sum);
    cell *cells = NULL;
    if (n && sum) {
        for (size_t i = 0; i < pixels; ++i) {
            const uint8_t *p = rgba + 4 * i;
            const int c = cell_of(p);
            ++n[c];
            sum[c][0] += p[0], sum[c][1] += p[1], sum[c][2] += p[2];
        }
        int used = 0;
        for (int c = 0; c < CELLS; ++c)
            used += n[c] > 0;
        cells = malloc(sizeof *cells * (size_t)(used > 0 ? used : 1));
        *count = 0;
        for (int c = 0; cells && c < CELLS; ++c)
            if (n[c]) {
                cell *e = &cells[(*count)++];
                e->count = n[c];
                for (int k = 0; k < 3; ++k)
                    e->mean[k] = (float)((double)sum[c][k] / n[c]);
            }
    }
    free(n);
    free(sum);
    return cells;
}

static void measure(const cell *cells, box *b)
{
    double n = 0, s[3] = {0, 0, 0}, q[3] = {0, 0, 0};
    for (int i = b->begin; i < b->end; ++i) {
        const double c = cells[i].count;
        n += c;
        for (int k = 0; k < 3; ++k) {
            s[k] += c * cells[i].mean[k];
            q[k] += c * (double)cells[i].mean[k] * cells[i].mean[k];
        }
    }
    b->error = 0;
    b->axis = 0;
    double widest = -1;
    for (int k = 0; k < 3; ++k) {
        const double e = n > 0 ? weight[k] * (q[k] - s[k] * s[k] / n) : 0;
        b->error += e > 0 ? e : 0;
        if (e > widest)
            widest = e, b->axis = k;
    }
    if (b->end - b->begin < 2)
        b->error = 0; /* one cell: nothing to split */
}

static int by_red(const void *a, const void *b)
{
    const float x = ((const cell *)a)->mean[0], y = ((const cell *)b)->mean[0];
    return (x > y) - (x < y);
}
static int by_green(const void *a, const void *b)
{
    const float x = ((const cell *)a)->mean[1], y = ((const cell *)b)->mean[1];
    return (x > y) - (x < y);
}
static int by_blue(const void *a, const void *b)
{
    const float x = ((const cell *)a)->mean[2], y = ((const cell *)b)->mean[2];
    return (x > y) - (x < y);
}

/* Splits b at the weighted median of its axis into b and *next. */
static void split(cell *cells, box *b, box *next)
{
    int (*const order[3])(const void *, const void *) = {by_red, by_green, by_blue};
    qsort(cells + b->begin, (size_t)(b->end - b->begin), sizeof *cells, order[b->axis]);
    uint64_t total = 0, below = 0;
    for (int i = b->begin; i < b->end; ++i)
        total += cells[i].count;
    int at = b->begin + 1;
    for (int i = b->begin; i < b->end - 1; ++i) {
        below += cells[i].count;
        at = i + 1;
        if (2 * below >= total)
            break;
    }
    next->begin = at;
    next->end = b->end;
    b->end = at;
    measure(cells, b);
    measure(cells, next);
}

static void make_palette(cell *cells, int cell_count, image_palette *palette)
{
    box boxes[IMAGE_PALETTE_COLORS];
    int count = 1;
    boxes[0] = (box){0, cell_count, 0, 0};
    measure(cells, &boxes[0]);
    while (count < IMAGE_PALETTE_COLORS) {
        int worst = 0;
        for (int i = 1; i < count; ++i)
            if (boxes[i].error > boxes[worst].error)
                worst = i;
        if (!(boxes[worst].error > 0))
            break;
        split(cells, &boxes[worst], &boxes[count++]);
    }
    for (int i = 0; i < count; ++i) {
        double n = 0, s[3] = {0, 0, 0};
        for (int c = boxes[i].begin; c < boxes[i].end; ++c)
            for (int k = 0; k < 3; ++k)
                s[k] += (double)cells[c].count * cells[c].mean[k];
        for (int c = boxes[i].begin; c < boxes[i].end; ++c)
            n += cells[c].count;
        for (int k = 0; k < 3; ++k) {
            const double v = n > 0 ? s[k] / n + 0.5 : 0;
            palette->rgb[i][k] = (uint8_t)(v > 255 ? 255 : v);
        }
    }
    palette->count = count;
}

static int nearest(const image_palette *palette, const float rgb[3])
{
    int best = 0;
    float best_d = FLT_MAX;
    for (int i = 0; i < palette->count; ++i) {
        float d = 0;
        for (int k = 0; k < 3; ++k) {
            const float x = rgb[k] - palette->rgb[i][k];
            d += weight[k] * x * x;
        }
        if (d < best_d)
            best_d = d, best = i;
    }
    return best;
}

/* 8x8 Bayer matrix: thresholds 0..63 spread evenly over every block. */
static const uint8_t bayer[8][8] = {
    {0, 32, 8, 40, 2, 34, 10, 42},  {48, 16, 56, 24, 50, 18, 58, 26},
    {12, 44, 4, 36, 14, 46, 6, 38}, {60, 28, 52, 20, 62, 30, 54, 22},
    {3, 35, 11, 43, 1, 33, 9, 41},  {51, 19, 59, 27, 49, 17, 57, 25},
    {15, 47, 7, 39, 13, 45, 5, 37}, {63, 31, 55, 23, 61, 29, 53, 21}};

bool image_quantise(const uint8_t *rgba, int width, int height, int frame_count,
                    image_palette *palette, uint8_t *indices)
{
    const size_t pixels = (size_t)width * (size_t)height * (size_t)frame_count;
    int cell_count = 0;
    cell *cells = count_cells(rgba, pixels, &cell_count);
    /* Nearest palette colour of each dithered cell, found when first met. */
    int16_t *map = malloc(sizeof *map * CELLS);
    if (!cells || !map) {
        free(cells);
        free(map);
        return false;
    }
    make_palette(cells, cell_count, palette);
    free(cells);
    memset(map, 0xFF, sizeof *map * CELLS); /* -1: not looked up yet */
    const int half = 1 << (7 - CELL_BITS);
    for (size_t row = 0; row < (size_t)height * (size_t)frame_count; ++row) {
        const int y = (int)(row % (size_t)height);
        for (int x = 0; x < width; ++x) {
            const size_t i = row * (size_t)width + (size_t)x;
            /* The same offset on every channel: lightness is dithered, hue
             * kept. */
            const float offset =
                ((float)bayer[y & 7][x & 7] + 0.5f) / 64.0f * IMAGE_DITHER_LEVELS -
                0.5f * IMAGE_DITHER_LEVELS;
            uint8_t dithered[3];
            for (int k = 0; k < 3; ++k) {
                const float v = (float)rgba[4 * i + (size_t)k] + offset + 0.5f;
                dithered[k] = (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
            }
            const int c = cell_of(dithered);
            if (map[c] < 0) {
                const int s = 8 - CELL_BITS;
                const float centre[3] = {(float)(((c >> (2 * CELL_BITS)) << s) + half),
                                         (float)((((c >> CELL_BITS) & (CELL_LEVELS - 1)) << s) +
                                                 half),
                                         (float)(((c & (CELL_LEVELS - 1)) << s) + half)};
                map[c] = (int16_t)nearest(palette, centre);
            }
            indices[i] = (uint8_t)map[c];
        }
    }
    free(map);
    return true;
}
