/* image_quantise.h - RGBA frames to 256 colours for GIF: one palette for all
 * frames (so colours hold still from frame to frame), chosen by a variance
 * median cut, and every pixel mapped to its nearest palette colour after an
 * ordered (Bayer) dither, so gradients such as the horizon show no bands and
 * shaded skin no stray colours. */
#ifndef OSSA_IMAGE_QUANTISE_H
#define OSSA_IMAGE_QUANTISE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define IMAGE_PALETTE_COLORS 256

/* The amplitude of the ordered dither, in 8-bit levels peak to peak. */
#define IMAGE_DITHER_LEVELS 8

typedef struct image_palette {
    uint8_t rgb[IMAGE_PALETTE_COLORS][3];
    int count; /* colours used, 1..256 */
} image_palette;

/* frame_count images of width x height RGBA8 pixels, one after the other in
 * rgba: the palette of them all, and each pixel's palette index into indices
 * (width * height * frame_count bytes, same order). Alpha is ignored. False
 * when out of memory. */
bool image_quantise(const uint8_t *rgba, int width, int height, int frame_count,
                    image_palette *palette, uint8_t *indices);

#endif /* OSSA_IMAGE_QUANTISE_H */
