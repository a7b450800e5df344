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
 * palette serves every frame, so colours hold still from frame to frame. */
bool image_write_gif(const char *path, const uint8_t *rgba, int frame_count, int width,
                     int height, int delay_cs, char *err, size_t err_bytes);

/* True when path ends with ext (".gif"), ignoring case. */
bool image_has_extension(const char *path, const char *ext);

#endif /* OSSA_IMAGE_WRITE_H */
