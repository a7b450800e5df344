/* image_quantise_test.c - the tool's GIF colours (tools/ossa/image_quantise.c)
 * on a picture like the renders: a sky fading into a grey horizon (a smooth
 * gradient over many rows) and a shaded, skin-coloured ball. Against the
 * picture itself: no pixel far off (no stray speckles), 8x8 block averages
 * close (no bands: the dither averages out), and both better than giflib's
 * own quantiser (GifQuantizeBuffer, what the tool used before) on the same
 * picture. */
#include <gif_lib.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "image_quantise.h"
#include "utest.h"

/* OSSA_TEST_NEEDS_RENDER */

#define W 256
#define H 192
#define FRAMES 2

/* No pixel further than this from its source in any channel: the dither's
 * half amplitude plus the gap to a neighbouring palette colour. */
#define MAX_PIXEL_ERROR (IMAGE_DITHER_LEVELS / 2 + 12)
/* 8x8 block means within this of the source's: what an eye sees of bands. */
#define MAX_BLOCK_ERROR 3.0

/* Frame f: sky to horizon, then a shaded ball moving by f pixels. */
static void picture(uint8_t *rgba)
{
    for (int f = 0; f < FRAMES; ++f)
        for (int y = 0; y < H; ++y)
            for (int x = 0; x < W; ++x) {
                uint8_t *p = rgba + 4 * (((size_t)f * H + (size_t)y) * W + (size_t)x);
                const double t = (double)y / (H - 1);
                double rgb[3] = {188 + (160 - 188) * t, 198 + (165 - 198) * t,
                                 212 + (158 - 212) * t};
                const double dx = (x - 100.0 - 3.0 * f) / 60.0, dy = (y - 110.0) / 60.0;
                if (dx * dx + dy * dy < 1) {
                    const double nz = sqrt(1 - dx * dx - dy * dy);
                    const double light = 0.25 + 0.75 * fmax(0, 0.5 * nz - 0.6 * dy + 0.3 * dx);
                    const double skin[3] = {226, 112, 82};
                    for (int k = 0; k < 3; ++k)
                        rgb[k] = skin[k] * light;
                }
                for (int k = 0; k < 3; ++k)
                    p[k] = (uint8_t)lround(rgb[k]);
                p[3] = 255;
            }
}

typedef struct errors {
    int pixel;    /* largest channel error of one pixel */
    double block; /* largest channel error of an 8x8 block's mean */
} errors;

static errors measure(const uint8_t *rgba, const uint8_t *indices, const uint8_t (*palette)[3])
{
    errors e = {0, 0};
    for (int f = 0; f < FRAMES; ++f)
        for (int by = 0; by < H; by += 8)
            for (int bx = 0; bx < W; bx += 8) {
                double sum[3] = {0, 0, 0};
                for (int y = by; y < by + 8; ++y)
                    for (int x = bx; x < bx + 8; ++x) {
                        const size_t i = ((size_t)f * H + (size_t)y) * W + (size_t)x;
                        for (int k = 0; k < 3; ++k) {
                            const int d = (int)palette[indices[i]][k] - (int)rgba[4 * i + k];
                            sum[k] += d;
                            e.pixel = abs(d) > e.pixel ? abs(d) : e.pixel;
                        }
                    }
                for (int k = 0; k < 3; ++k)
                    e.block = fmax(e.block, fabs(sum[k] / 64.0));
            }
    return e;
}

TEST(gif_colours_have_no_speckles_and_no_bands)
{
    const size_t pixels = (size_t)W * H * FRAMES;
    uint8_t *rgba = malloc(4 * pixels), *indices = malloc(pixels), *theirs = malloc(pixels);
    REQUIRE(rgba && indices && theirs);
    picture(rgba);
    image_palette palette;
    REQUIRE(image_quantise(rgba, W, H, FRAMES, &palette, indices));
    CHECK(palette.count > 16 && palette.count <= IMAGE_PALETTE_COLORS);
    for (size_t i = 0; i < pixels; ++i)
        CHECK(indices[i] < palette.count);
    const errors ours = measure(rgba, indices, (const uint8_t(*)[3])palette.rgb);

    /* giflib's median cut on the same frames, as one tall image. */
    GifByteType *planes = malloc(3 * pixels);
    REQUIRE(planes != NULL);
    for (size_t i = 0; i < pixels; ++i)
        for (int k = 0; k < 3; ++k)
            planes[(size_t)k * pixels + i] = rgba[4 * i + k];
    GifColorType colors[256];
    int count = 256;
    REQUIRE(GifQuantizeBuffer(W, H * FRAMES, &count, planes, planes + pixels, planes + 2 * pixels,
                              theirs, colors) == GIF_OK);
    uint8_t their_palette[256][3];
    for (int i = 0; i < 256; ++i)
        their_palette[i][0] = colors[i].Red, their_palette[i][1] = colors[i].Green,
        their_palette[i][2] = colors[i].Blue;
    const errors giflib = measure(rgba, theirs, (const uint8_t(*)[3])their_palette);
    printf("  largest pixel error %d (giflib %d), largest 8x8 block error %.2f (giflib %.2f)\n",
           ours.pixel, giflib.pixel, ours.block, giflib.block);
    CHECK(ours.pixel <= MAX_PIXEL_ERROR);
    CHECK(ours.block <= MAX_BLOCK_ERROR);
    CHECK(ours.block < giflib.block);
    free(planes);
    free(rgba);
    free(indices);
    free(theirs);
}

TEST(one_colour_gives_one_palette_entry_and_no_dither_noise)
{
    uint8_t rgba[4 * 16 * 16];
    for (int i = 0; i < 16 * 16; ++i)
        rgba[4 * i] = 40, rgba[4 * i + 1] = 90, rgba[4 * i + 2] = 200, rgba[4 * i + 3] = 255;
    image_palette palette;
    uint8_t indices[16 * 16];
    REQUIRE(image_quantise(rgba, 16, 16, 1, &palette, indices));
    CHECK_INT(palette.count, 1);
    CHECK(palette.rgb[0][0] == 40 && palette.rgb[0][1] == 90 && palette.rgb[0][2] == 200);
    for (int i = 0; i < 16 * 16; ++i)
        CHECK_INT(indices[i], 0);
}

UTEST_MAIN(gif_colours_have_no_speckles_and_no_bands,
           one_colour_gives_one_palette_entry_and_no_dither_noise)
