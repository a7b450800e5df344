/* render_test.c - libossa_render, headless: the default character drawn in
 * its bind pose and walking covers exactly where its skinned vertices project
 * (skinned and projected here in double precision, independently of the
 * renderer); CPU- and GPU-skinned images of one frame agree, and so do
 * float4 and packed vertices (within a stated tolerance); placements and
 * tints land where they should; an empty frame shows ground and sky. Bad
 * input: render_validation_test.c. Skipped only when no EGL display can be
 * opened at all. */
#define _POSIX_C_SOURCE 200809L
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ossa/ossa.h"
#include "ossa/pipeline.h"
#include "ossa/render.h"
#include "render_support.h"
#include "render_test_support.h"
#include "test_support.h"
#include "utest.h"

/* OSSA_TEST_NEEDS_PIPELINE OSSA_TEST_NEEDS_RENDER */

/* The bounds: silhouette vs projected vertices, and how many pixels
 * CPU- and GPU-skinned images of one frame may differ in. */
#define SILHOUETTE_TOLERANCE_PX 2.0
#define MAX_DIFFERENT_PIXELS_RATIO 0.005

/* ---- the independent expectation: skinning and projection in double ---- */

/* Vertex v of the mesh skinned by one palette: sum of w_k (P_k p). */
static void reference_vertex(const ossa_mesh *mesh, const ossa_mat34 *pal, int v, double out[3])
{
    const int floats = ossa_mesh_skinned_stride(mesh) / 4;
    const float *p = ossa_mesh_bind_stream(mesh) + (size_t)v * (size_t)floats;
    uint16_t joints[4];
    float weights[4];
    const int n = ossa_mesh_vertex_influences(mesh, v, joints, weights);
    out[0] = out[1] = out[2] = 0;
    for (int k = 0; k < n; ++k)
        for (int r = 0; r < 3; ++r) {
            const float *row = pal[joints[k]].m[r];
            out[r] += (double)weights[k] * ((double)row[0] * p[0] + (double)row[1] * p[1] +
                                            (double)row[2] * p[2] + (double)row[3]);
        }
}

typedef struct box2 {
    double x0, y0, x1, y1;
} box2;

static box2 projected_box(const ossa_mesh *mesh, const ossa_mat34 *pal,
                          const ossa_render_camera *c)
{
    box2 b = {DBL_MAX, DBL_MAX, -DBL_MAX, -DBL_MAX};
    for (int v = 0; v < ossa_mesh_vertex_count(mesh); ++v) {
        double p[3], x, y;
        reference_vertex(mesh, pal, v, p);
        ts_project(c, W, H, p, &x, &y);
        b.x0 = fmin(b.x0, x), b.y0 = fmin(b.y0, y), b.x1 = fmax(b.x1, x), b.y1 = fmax(b.y1, y);
    }
    return b;
}

/* The reference vertices' 3D box, for framing. */
static void reference_bounds(const ossa_mesh *mesh, const ossa_mat34 *pal, ossa_float3 *lo,
                             ossa_float3 *hi)
{
    *lo = (ossa_float3){FLT_MAX, FLT_MAX, FLT_MAX};
    *hi = (ossa_float3){-FLT_MAX, -FLT_MAX, -FLT_MAX};
    for (int v = 0; v < ossa_mesh_vertex_count(mesh); ++v) {
        double p[3];
        reference_vertex(mesh, pal, v, p);
        lo->x = fminf(lo->x, (float)p[0]), lo->y = fminf(lo->y, (float)p[1]);
        lo->z = fminf(lo->z, (float)p[2]);
        hi->x = fmaxf(hi->x, (float)p[0]), hi->y = fmaxf(hi->y, (float)p[1]);
        hi->z = fmaxf(hi->z, (float)p[2]);
    }
}

/* ---- images ---- */

typedef struct image {
    uint8_t rgba[W * H * 4];
} image;

static bool draw(fixture *f, const ossa_render_frame *frame, image *out)
{
    ossa_error e;
    if (ossa_renderer_draw(f->renderer, frame, NULL, &e) != OSSA_OK) {
        fprintf(stderr, "draw: %s\n", e.message);
        return false;
    }
    return ossa_render_headless_read(f->headless, out->rgba, sizeof out->rgba) == OSSA_OK;
}

static bool same_pixel(const image *a, const image *b, int p)
{
    return memcmp(a->rgba + 4 * p, b->rgba + 4 * p, 3) == 0;
}

/* Pixels where img differs from the empty scene, and their bounding box. */
static int silhouette(const image *img, const image *empty, box2 *b)
{
    int count = 0;
    *b = (box2){DBL_MAX, DBL_MAX, -DBL_MAX, -DBL_MAX};
    for (int y = 0; y < H; ++y)
        for (int x = 0; x < W; ++x) {
            if (same_pixel(img, empty, y * W + x))
                continue;
            ++count;
            b->x0 = fmin(b->x0, x), b->y0 = fmin(b->y0, y);
            b->x1 = fmax(b->x1, x + 1), b->y1 = fmax(b->y1, y + 1);
        }
    return count;
}

static int different_pixels(const image *a, const image *b)
{
    int n = 0;
    for (int p = 0; p < W * H; ++p)
        n += !same_pixel(a, b, p);
    return n;
}

static ossa_render_frame one_character_frame(const ossa_render_camera *camera,
                                             ossa_render_skinning skinning, const float *stream,
                                             const ossa_mat34 *pal)
{
    ossa_render_frame frame;
    memset(&frame, 0, sizeof frame);
    frame.skinning = skinning;
    frame.character_count = 1;
    frame.skinned_streams = stream;
    frame.palettes = pal;
    frame.camera = *camera;
    frame.width = W;
    frame.height = H;
    frame.no_ground = true;
    return frame;
}

/* The silhouette of one character, skinned either way, against the
 * projection of its reference-skinned vertices. */
static void check_silhouette(const char *clip, float time_s)
{
    fixture f;
    OPEN_FIXTURE(f, 1);
    const ossa_mesh *mesh = f.character.mesh;
    ossa_mat34 *pal = palettes(&f.character, clip, time_s, 1);
    float *stream = skin_streams(mesh, pal, 1);
    ossa_float3 lo, hi;
    reference_bounds(mesh, pal, &lo, &hi);
    const ossa_render_camera camera =
        ossa_render_camera_frame(lo, hi, (float)W / H, 0.6f, 0.25f, 0.0f);
    const box2 want = projected_box(mesh, pal, &camera);
    image *empty = malloc(sizeof *empty), *img = malloc(sizeof *img);
    ossa_render_frame frame = one_character_frame(&camera, OSSA_RENDER_SKINNING_CPU, stream, pal);
    frame.character_count = 0;
    REQUIRE(draw(&f, &frame, empty));
    for (int way = 0; way < OSSA_RENDER_SKINNING_COUNT; ++way) {
        frame = one_character_frame(&camera, (ossa_render_skinning)way, stream, pal);
        REQUIRE(draw(&f, &frame, img));
        box2 got;
        const int covered = silhouette(img, empty, &got);
        /* Not blank: a framed body covers a good part of the picture. */
        CHECK(covered > W * H / 50);
        fprintf(stderr, "  %s, %s skinning: silhouette x [%g, %g] y [%g, %g], projected "
                        "x [%.2f, %.2f] y [%.2f, %.2f]\n",
                clip ? clip : "bind pose", way == OSSA_RENDER_SKINNING_CPU ? "CPU" : "GPU",
                got.x0, got.x1, got.y0, got.y1, want.x0, want.x1, want.y0, want.y1);
        CHECK_NEAR(got.x0, want.x0, SILHOUETTE_TOLERANCE_PX);
        CHECK_NEAR(got.x1, want.x1, SILHOUETTE_TOLERANCE_PX);
        CHECK_NEAR(got.y0, want.y0, SILHOUETTE_TOLERANCE_PX);
        CHECK_NEAR(got.y1, want.y1, SILHOUETTE_TOLERANCE_PX);
    }
    free(empty);
    free(img);
    free(stream);
    free(pal);
    close_fixture(&f);
}

TEST(bind_pose_silhouette_matches_projected_vertices)
{
    check_silhouette(NULL, 0.0f);
}

TEST(walk_silhouette_matches_projected_vertices)
{
    check_silhouette("walk", 0.37f);
}

/* The same frame skinned on the CPU and on the GPU: one image. */
static void check_cpu_gpu_agree(const char *clip, float time_s, int count, bool ground)
{
    fixture f;
    OPEN_FIXTURE(f, count);
    const ossa_mesh *mesh = f.character.mesh;
    ossa_mat34 *pal = palettes(&f.character, clip, time_s, count);
    float *streams = skin_streams(mesh, pal, count);
    ossa_mat34 *placements = ts_aligned(sizeof(ossa_mat34) * (size_t)count);
    ossa_render_grid(count, 1.0f, placements);
    ossa_float3 lo, hi;
    ossa_render_mesh_bounds(mesh, &lo, &hi);
    ossa_render_placed_bounds(lo, hi, placements, count, &lo, &hi);
    ossa_render_frame frame;
    memset(&frame, 0, sizeof frame);
    frame.character_count = count;
    frame.skinned_streams = streams;
    frame.palettes = pal;
    frame.placements = placements;
    frame.camera = ossa_render_camera_frame(lo, hi, (float)W / H, -0.4f, 0.35f, 0.0f);
    frame.width = W;
    frame.height = H;
    frame.no_ground = !ground;
    image *cpu = malloc(sizeof *cpu), *gpu = malloc(sizeof *gpu), *empty = malloc(sizeof *empty);
    frame.skinning = OSSA_RENDER_SKINNING_CPU;
    REQUIRE(draw(&f, &frame, cpu));
    frame.skinning = OSSA_RENDER_SKINNING_GPU;
    REQUIRE(draw(&f, &frame, gpu));
    frame.character_count = 0;
    REQUIRE(draw(&f, &frame, empty));
    box2 unused;
    const int covered = silhouette(cpu, empty, &unused);
    CHECK(covered > W * H / 50);
    const int differ = different_pixels(cpu, gpu);
    fprintf(stderr, "  %s, %d characters: %d of %d pixels differ\n", clip ? clip : "bind pose",
            count, differ, W * H);
    CHECK(differ <= (int)(MAX_DIFFERENT_PIXELS_RATIO * W * H));
    free(cpu);
    free(gpu);
    free(empty);
    free(placements);
    free(streams);
    free(pal);
    close_fixture(&f);
}

TEST(gpu_skinning_draws_the_cpu_skinned_image)
{
    check_cpu_gpu_agree(NULL, 0.0f, 1, false);
    check_cpu_gpu_agree("walk", 0.37f, 1, false);
    check_cpu_gpu_agree("run", 0.2f, 9, true);
}

/* Skinning straight into the renderer's mapped buffer (with streaming
 * stores) draws exactly the image the copied streams draw. */
TEST(mapped_streams_draw_the_copied_streams_image)
{
    enum { COUNT = 5 };
    fixture f;
    OPEN_FIXTURE(f, COUNT);
    const ossa_mesh *mesh = f.character.mesh;
    ossa_mat34 *pal = palettes(&f.character, "walk", 0.61f, COUNT);
    float *streams = skin_streams(mesh, pal, COUNT);
    ossa_mat34 *placements = ts_aligned(sizeof(ossa_mat34) * COUNT);
    ossa_render_grid(COUNT, 1.0f, placements);
    ossa_float3 lo, hi;
    ossa_render_mesh_bounds(mesh, &lo, &hi);
    ossa_render_placed_bounds(lo, hi, placements, COUNT, &lo, &hi);
    ossa_render_frame frame;
    memset(&frame, 0, sizeof frame);
    frame.character_count = COUNT;
    frame.skinned_streams = streams;
    frame.placements = placements;
    frame.camera = ossa_render_camera_frame(lo, hi, (float)W / H, 0.5f, 0.3f, 0.0f);
    frame.width = W;
    frame.height = H;
    image *copied = malloc(sizeof *copied), *mapped = malloc(sizeof *mapped);
    REQUIRE(draw(&f, &frame, copied));
    const size_t stream_bytes = ossa_renderer_stream_bytes(f.renderer);
    CHECK_INT(stream_bytes,
              ((size_t)ossa_mesh_vertex_count(mesh) * (size_t)ossa_mesh_skinned_stride(mesh) +
               63) / 64 * 64);
    ossa_error e;
    unsigned char *to = ossa_renderer_map_streams(f.renderer, COUNT, &e);
    if (!to)
        fprintf(stderr, "%s\n", e.message);
    REQUIRE(to != NULL);
    CHECK((uintptr_t)to % 16 == 0);
    const int skins = ossa_mesh_skin_joint_count(mesh);
    for (int i = 0; i < COUNT; ++i) {
        ossa_skinning_job job = {0};
        job.mesh = mesh;
        job.palette = pal + (size_t)i * (size_t)skins;
        job.palette_count = skins;
        job.output = to + (size_t)i * stream_bytes;
        job.output_bytes = stream_bytes;
        job.stream_output = true;
        CHECK_RESULT(ossa_skinning_job_run(&job), OSSA_OK);
    }
    frame.skinned_streams = NULL;
    frame.streams_mapped = true;
    REQUIRE(draw(&f, &frame, mapped));
    const int differ = different_pixels(copied, mapped);
    if (differ)
        fprintf(stderr, "  %d pixels differ\n", differ);
    CHECK_INT(differ, 0);
    free(copied);
    free(mapped);
    free(placements);
    free(streams);
    free(pal);
    close_fixture(&f);
}

/* Packed vertices (float3 positions bit for bit the float4 ones, normals in
 * 10 bits a component) draw the float4 picture: the same silhouettes, the
 * shading a quantisation step apart. Copied and mapped packed streams (the
 * latter skinned with a plan and streaming stores) give one image. */
#define PACKED_MAX_DIFFERENT_PIXELS_RATIO 0.02 /* pixels that differ at all */
#define PACKED_MAX_CHANNEL_DIFFERENCE 2        /* of 255, in any pixel */

TEST(packed_streams_draw_the_float4_image)
{
    enum { COUNT = 9 };
    fixture f;
    OPEN_FIXTURE(f, COUNT);
    const ossa_mesh *mesh = f.character.mesh;
    /* a second renderer in the same context, drawing packed vertices */
    ossa_renderer *packed_renderer = NULL;
    ossa_error e;
    const ossa_renderer_desc pd = {mesh, COUNT, OSSA_SKIN_FORMAT_PACKED};
    REQUIRE(ossa_renderer_create(&pd, &packed_renderer, &e) == OSSA_OK);
    ossa_mat34 *pal = palettes(&f.character, "run", 0.2f, COUNT);
    float *streams = skin_streams(mesh, pal, COUNT);
    void *packed = skin_streams_as(mesh, pal, COUNT, OSSA_SKIN_FORMAT_PACKED);
    ossa_mat34 *placements = ts_aligned(sizeof(ossa_mat34) * COUNT);
    ossa_render_grid(COUNT, 1.0f, placements);
    ossa_float3 lo, hi;
    ossa_render_mesh_bounds(mesh, &lo, &hi);
    ossa_render_placed_bounds(lo, hi, placements, COUNT, &lo, &hi);
    ossa_render_frame frame;
    memset(&frame, 0, sizeof frame);
    frame.character_count = COUNT;
    frame.skinned_streams = streams;
    frame.placements = placements;
    frame.camera = ossa_render_camera_frame(lo, hi, (float)W / H, -0.4f, 0.35f, 0.0f);
    frame.width = W;
    frame.height = H;
    image *a = malloc(sizeof *a), *b = malloc(sizeof *b), *c = malloc(sizeof *c);
    image *empty = malloc(sizeof *empty);
    REQUIRE(draw(&f, &frame, a));
    frame.character_count = 0;
    REQUIRE(draw(&f, &frame, empty));
    frame.character_count = COUNT;
    frame.skinned_streams = packed;
    ossa_renderer *float4_renderer = f.renderer;
    f.renderer = packed_renderer; /* draw() draws with the fixture's renderer */
    REQUIRE(draw(&f, &frame, b));
    box2 unused;
    CHECK(silhouette(a, empty, &unused) > W * H / 50);
    int differ = 0, worst = 0;
    for (int p = 0; p < W * H; ++p) {
        differ += !same_pixel(a, b, p);
        for (int k = 0; k < 3; ++k) {
            const int d = abs((int)a->rgba[4 * p + k] - (int)b->rgba[4 * p + k]);
            worst = d > worst ? d : worst;
        }
    }
    fprintf(stderr, "  packed vs float4: %d of %d pixels differ, by at most %d of 255\n", differ,
            W * H, worst);
    CHECK(differ <= (int)(PACKED_MAX_DIFFERENT_PIXELS_RATIO * W * H));
    CHECK(worst <= PACKED_MAX_CHANNEL_DIFFERENCE);
    /* mapped: skinned straight into the packed renderer's buffer */
    const size_t stride = ossa_renderer_stream_bytes(packed_renderer);
    CHECK(stride % 64 == 0);
    CHECK(stride >= ossa_skin_output_bytes(mesh, OSSA_SKIN_FORMAT_PACKED));
    const size_t plan_bytes = ossa_skin_plan_size(mesh);
    void *plan_memory = ts_aligned(plan_bytes);
    const ossa_skin_plan *plan = NULL;
    REQUIRE(ossa_skin_plan_init(&plan, plan_memory, plan_bytes, mesh) == OSSA_OK);
    unsigned char *to = ossa_renderer_map_streams(packed_renderer, COUNT, &e);
    REQUIRE(to != NULL);
    const int skins = ossa_mesh_skin_joint_count(mesh);
    for (int i = 0; i < COUNT; ++i) {
        ossa_skinning_job job = {0};
        job.mesh = mesh;
        job.palette = pal + (size_t)i * (size_t)skins;
        job.palette_count = skins;
        job.output = to + (size_t)i * stride;
        job.output_bytes = stride;
        job.format = OSSA_SKIN_FORMAT_PACKED;
        job.plan = plan;
        job.stream_output = true;
        CHECK_RESULT(ossa_skinning_job_run(&job), OSSA_OK);
    }
    frame.skinned_streams = NULL;
    frame.streams_mapped = true;
    REQUIRE(draw(&f, &frame, c));
    CHECK_INT(different_pixels(b, c), 0);
    f.renderer = float4_renderer;
    ossa_renderer_destroy(packed_renderer);
    free(plan_memory);
    free(a);
    free(b);
    free(c);
    free(empty);
    free(placements);
    free(packed);
    free(streams);
    free(pal);
    close_fixture(&f);
}

/* Two characters placed left and right, tinted red and blue: each colour
 * shows on its own side. */
TEST(placements_and_tints_land_on_their_characters)
{
    fixture f;
    OPEN_FIXTURE(f, 2);
    const ossa_mesh *mesh = f.character.mesh;
    ossa_mat34 *pal = palettes(&f.character, NULL, 0.0f, 2);
    float *streams = skin_streams(mesh, pal, 2);
    ossa_mat34 placements[2] = {ossa_mat34_identity(), ossa_mat34_identity()};
    placements[0].m[0][3] = -1.0f;
    placements[1].m[0][3] = 1.0f;
    const float tints[6] = {0.9f, 0.1f, 0.1f, 0.1f, 0.1f, 0.9f};
    ossa_float3 lo, hi;
    ossa_render_mesh_bounds(mesh, &lo, &hi);
    ossa_render_placed_bounds(lo, hi, placements, 2, &lo, &hi);
    ossa_render_frame frame;
    memset(&frame, 0, sizeof frame);
    frame.character_count = 2;
    frame.skinned_streams = streams;
    frame.placements = placements;
    frame.tints = tints;
    frame.camera = ossa_render_camera_frame(lo, hi, (float)W / H, 0.0f, 0.0f, 0.0f);
    frame.width = W;
    frame.height = H;
    frame.no_ground = true;
    image *img = malloc(sizeof *img), *empty = malloc(sizeof *empty);
    REQUIRE(draw(&f, &frame, img));
    frame.character_count = 0;
    REQUIRE(draw(&f, &frame, empty));
    int red_left = 0, blue_left = 0, red_right = 0, blue_right = 0;
    for (int p = 0; p < W * H; ++p) {
        if (same_pixel(img, empty, p))
            continue;
        const uint8_t *c = img->rgba + 4 * p;
        const bool left = p % W < W / 2, red = c[0] > c[2] + 20, blue = c[2] > c[0] + 20;
        red_left += left && red, blue_left += left && blue;
        red_right += !left && red, blue_right += !left && blue;
    }
    CHECK(red_left > 500);
    CHECK(blue_right > 500);
    CHECK_INT(blue_left, 0);
    CHECK_INT(red_right, 0);
    free(img);
    free(empty);
    free(streams);
    free(pal);
    close_fixture(&f);
}

TEST(empty_frame_shows_ground_below_the_horizon_and_sky_above)
{
    fixture f;
    OPEN_FIXTURE(f, 1);
    ossa_render_frame frame;
    memset(&frame, 0, sizeof frame);
    frame.camera = ossa_render_camera_frame((ossa_float3){-1, 0, -1}, (ossa_float3){1, 2, 1},
                                            (float)W / H, 0.0f, 0.3f, 0.0f);
    frame.width = W;
    frame.height = H;
    image *with = malloc(sizeof *with), *without = malloc(sizeof *without);
    REQUIRE(draw(&f, &frame, with));
    frame.no_ground = true;
    REQUIRE(draw(&f, &frame, without));
    int bottom_changed = 0, top_changed = 0, uniform = 1;
    for (int x = 0; x < W; ++x) {
        bottom_changed += !same_pixel(with, without, (H - 1) * W + x);
        top_changed += !same_pixel(with, without, x);
    }
    for (int p = 1; p < W * H; ++p)
        uniform &= memcmp(without->rgba, without->rgba + 4 * p, 3) == 0;
    CHECK_INT(bottom_changed, W);
    CHECK_INT(top_changed, 0);
    CHECK(uniform);
    free(with);
    free(without);
    close_fixture(&f);
}
UTEST_MAIN(bind_pose_silhouette_matches_projected_vertices,
           walk_silhouette_matches_projected_vertices, gpu_skinning_draws_the_cpu_skinned_image,
           placements_and_tints_land_on_their_characters,
           mapped_streams_draw_the_copied_streams_image, packed_streams_draw_the_float4_image,
           empty_frame_shows_ground_below_the_horizon_and_sky_above)
