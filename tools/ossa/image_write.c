/* image_write.c - see image_write.h. */
#define _POSIX_C_SOURCE 200809L
#include "image_write.h"

#include "image_quantise.h"

#include <errno.h>
#include <fcntl.h>
#include <gif_lib.h>
#include <stb_image_write.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

static bool has_extension(const char *path, const char *ext)
{
    const size_t n = strlen(path), e = strlen(ext);
    return n > e && strcasecmp(path + n - e, ext) == 0 && path[n - e - 1] != '/';
}

image_format image_format_of(const char *path)
{
    if (has_extension(path, ".png"))
        return IMAGE_FORMAT_PNG;
    if (has_extension(path, ".gif"))
        return IMAGE_FORMAT_GIF;
    return IMAGE_FORMAT_NONE;
}

bool image_path_writable(const char *path, char *err, size_t err_bytes)
{
    char dir[4096];
    const char *slash = strrchr(path, '/');
    if (!slash)
        snprintf(dir, sizeof dir, ".");
    else if (slash == path)
        snprintf(dir, sizeof dir, "/");
    else
        snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
    if (access(dir, W_OK | X_OK) != 0) {
        snprintf(err, err_bytes, "cannot write %s: %s: %s", path, dir, strerror(errno));
        return false;
    }
    return true;
}

typedef struct png_sink {
    FILE *file;
    bool failed;
} png_sink;

static void png_write(void *context, void *data, int size)
{
    png_sink *sink = context;
    if (!sink->failed && fwrite(data, 1, (size_t)size, sink->file) != (size_t)size)
        sink->failed = true;
}

bool image_write_png(const char *path, const uint8_t *rgba, int width, int height, char *err,
                     size_t err_bytes)
{
    png_sink sink = {fopen(path, "wb"), false};
    if (!sink.file) {
        snprintf(err, err_bytes, "cannot write %s: %s", path, strerror(errno));
        return false;
    }
    const int encoded = stbi_write_png_to_func(png_write, &sink, width, height, 4, rgba, width * 4);
    int saved = errno;
    if (fclose(sink.file) != 0 && !sink.failed) {
        sink.failed = true;
        saved = errno;
    }
    if (!encoded || sink.failed) {
        snprintf(err, err_bytes, "cannot write %s: %s", path,
                 encoded ? strerror(saved) : "the PNG encoder failed (out of memory?)");
        remove(path);
        return false;
    }
    return true;
}

static bool put_frames(GifFileType *gif, const GifByteType *indices, int frame_count, int width,
                       int height, int delay_cs)
{
    /* NETSCAPE2.0 application block: loop forever. */
    static const GifByteType loop[3] = {1, 0, 0};
    if (EGifPutExtensionLeader(gif, APPLICATION_EXT_FUNC_CODE) != GIF_OK ||
        EGifPutExtensionBlock(gif, 11, "NETSCAPE2.0") != GIF_OK ||
        EGifPutExtensionBlock(gif, 3, loop) != GIF_OK || EGifPutExtensionTrailer(gif) != GIF_OK)
        return false;
    GraphicsControlBlock gcb = {DISPOSE_DO_NOT, false, delay_cs, NO_TRANSPARENT_COLOR};
    GifByteType ext[4];
    const size_t ext_bytes = EGifGCBToExtension(&gcb, ext);
    for (int f = 0; f < frame_count; ++f) {
        if (EGifPutExtension(gif, GRAPHICS_EXT_FUNC_CODE, (int)ext_bytes, ext) != GIF_OK ||
            EGifPutImageDesc(gif, 0, 0, width, height, false, NULL) != GIF_OK)
            return false;
        for (int y = 0; y < height; ++y) {
            GifByteType *row = (GifByteType *)indices + ((size_t)f * (size_t)height + (size_t)y) *
                                                            (size_t)width;
            if (EGifPutLine(gif, row, width) != GIF_OK)
                return false;
        }
    }
    return true;
}

bool image_write_gif(const char *path, const uint8_t *rgba, int frame_count, int width,
                     int height, int delay_cs, char *err, size_t err_bytes)
{
    const size_t pixels = (size_t)width * (size_t)height * (size_t)frame_count;
    if (frame_count < 1 || pixels > (size_t)1 << 28 || (size_t)height * frame_count > 65535u * 256u) {
        snprintf(err, err_bytes, "cannot write %s: %d frames of %dx%d are too many for a GIF",
                 path, frame_count, width, height);
        return false;
    }
    GifByteType *indices = malloc(pixels);
    image_palette palette;
    if (!indices || !image_quantise(rgba, width, height, frame_count, &palette, indices)) {
        free(indices);
        snprintf(err, err_bytes, "cannot write %s: out of memory quantising %d frames", path,
                 frame_count);
        return false;
    }
    const int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) {
        snprintf(err, err_bytes, "cannot write %s: %s", path, strerror(errno));
        free(indices);
        return false;
    }
    int gif_error = 0;
    GifFileType *gif = EGifOpenFileHandle(fd, &gif_error);
    GifColorType colors[IMAGE_PALETTE_COLORS] = {{0, 0, 0}};
    for (int i = 0; i < palette.count; ++i)
        colors[i] = (GifColorType){palette.rgb[i][0], palette.rgb[i][1], palette.rgb[i][2]};
    ColorMapObject *map = GifMakeMapObject(IMAGE_PALETTE_COLORS, colors);
    bool ok = gif && map;
    if (ok) {
        EGifSetGifVersion(gif, true);
        ok = EGifPutScreenDesc(gif, width, height, 8, 0, map) == GIF_OK &&
             put_frames(gif, indices, frame_count, width, height, delay_cs);
    }
    if (!ok && gif)
        gif_error = gif->Error;
    if (!gif)
        close(fd);
    else if (EGifCloseFile(gif, &gif_error) != GIF_OK)
        ok = false;
    GifFreeMapObject(map);
    free(indices);
    if (!ok) {
        const char *why = GifErrorString(gif_error);
        snprintf(err, err_bytes, "cannot write %s: %s", path, why ? why : "giflib failed");
        remove(path);
    }
    return ok;
}
