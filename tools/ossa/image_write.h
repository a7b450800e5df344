/* image_write.h - the ossa tool's image files: PNG (stb_image_write) and
 * looping animated GIF (giflib) from RGBA8 images, rows top to bottom. Each
 * returns false with a one-line message naming the file in err. */
#ifndef OSSA_IMAGE_WRITE_H
#define OSSA_IMAGE_WRITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Whether path can be created: its directory exists and is writable (so a
 * long render fails before it starts, not after). */
bool image_path_writable(const char *path, char *err, size_t err_bytes);

bool image_write_png(const char *path, const uint8_t *rgba, int width, int height, char *err,
                     size_t err_bytes);

/* frame_count frames of width x height, one after the other in rgba, shown
 * delay_cs hundredths of a second each, looping forever. One 256-colour
 * palette serves every frame, so colours hold still from frame to frame;
 * pixels are dithered to it (image_quantise.h). */
bool image_write_gif(const char *path, const uint8_t *rgba, int frame_count, int width,
                     int height, int delay_cs, char *err, size_t err_bytes);

typedef enum image_format {
    IMAGE_FORMAT_NONE = 0, /* an extension the tool does not write */
    IMAGE_FORMAT_PNG,
    IMAGE_FORMAT_GIF
} image_format;

/* The format path's extension names (.png or .gif, any case; a name that is
 * only an extension, ".png", is none). */
image_format image_format_of(const char *path);

#endif /* OSSA_IMAGE_WRITE_H */
