/* crowd_picture.c - see crowd_picture.h. */
#include "crowd_picture.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "image_write.h"
#include "ossa/render.h"
#include "render_scene.h"

/* The box around every skinned vertex of every character, placed (NULL
 * placements: in model space). */
static void skinned_bounds(const ossa_mesh *mesh, ossa_skin_format format,
                           const unsigned char *streams, size_t stride,
                           const ossa_mat34 *placements, int characters, ossa_float3 *min,
                           ossa_float3 *max)
{
    const int vertices = ossa_mesh_vertex_count(mesh);
    const size_t vertex_bytes = ossa_skin_vertex_bytes(mesh, format);
    ossa_float3 lo = {FLT_MAX, FLT_MAX, FLT_MAX}, hi = {-FLT_MAX, -FLT_MAX, -FLT_MAX};
    for (int i = 0; i < characters; ++i)
        for (int v = 0; v < vertices; ++v) {
            float p[3]; /* x, y, z lead a vertex in both formats */
            memcpy(p, streams + (size_t)i * stride + (size_t)v * vertex_bytes, sizeof p);
            const ossa_float3 m = {p[0], p[1], p[2]};
            const ossa_float3 w = placements ? ossa_mat34_transform_point(&placements[i], m) : m;
            lo.x = fminf(lo.x, w.x), lo.y = fminf(lo.y, w.y), lo.z = fminf(lo.z, w.z);
            hi.x = fmaxf(hi.x, w.x), hi.y = fmaxf(hi.y, w.y), hi.z = fmaxf(hi.z, w.z);
        }
    lo.y = fminf(lo.y, 0.0f); /* the ground (around y = 0) stays in the picture */
    *min = lo;
    *max = hi;
}

static bool skin_all(const crowd_picture *p, unsigned char *streams, size_t stride, char *err,
                     size_t err_bytes)
{
    const int joints = ossa_mesh_skin_joint_count(p->mesh);
    for (int i = 0; i < p->characters; ++i) {
        ossa_skinning_job job = {0};
        job.mesh = p->mesh;
        job.palette = p->palettes + (size_t)i * (size_t)joints;
        job.palette_count = joints;
        job.output = streams + (size_t)i * stride;
        job.output_bytes = stride;
        job.format = p->format;
        const ossa_result r = ossa_skinning_job_run(&job);
        if (r != OSSA_OK) {
            snprintf(err, err_bytes, "skinning character %d: %s", i, ossa_result_str(r));
            return false;
        }
    }
    return true;
}

static bool draw_and_write(const crowd_picture *p, const void *streams, size_t stride,
                           const ossa_mat34 *placements, int width, int height, char *err,
                           size_t err_bytes)
{
    ossa_render_headless *headless = NULL;
    ossa_renderer *renderer = NULL;
    ossa_error error;
    const ossa_render_headless_desc hd = {width, height, 4};
    const ossa_renderer_desc rd = {p->mesh, p->characters, p->format};
    if (ossa_render_headless_create(&hd, &headless, &error) != OSSA_OK ||
        ossa_renderer_create(&rd, &renderer, &error) != OSSA_OK) {
        snprintf(err, err_bytes, "%s", error.message);
        ossa_render_headless_destroy(headless);
        return false;
    }
    ossa_float3 lo, hi;
    skinned_bounds(p->mesh, p->format, streams, stride, placements, p->characters, &lo, &hi);
    ossa_render_frame frame;
    memset(&frame, 0, sizeof frame);
    frame.character_count = p->characters;
    frame.skinned_streams = streams;
    frame.skinned_stream_stride = stride;
    frame.placements = placements;
    frame.ground_min = lo;
    frame.ground_max = hi;
    frame.ground_heights = p->ground_heights;
    frame.ground_columns = p->ground_columns;
    frame.ground_rows = p->ground_rows;
    frame.ground_origin_x = p->ground_origin_x;
    frame.ground_origin_z = p->ground_origin_z;
    frame.ground_cell = p->ground_cell;
    frame.camera = ossa_render_camera_frame(lo, hi, (float)width / (float)height, 0.52f, 0.44f, 0);
    frame.width = width;
    frame.height = height;
    const size_t bytes = (size_t)width * (size_t)height * 4;
    uint8_t *rgba = cli_alloc(bytes);
    bool ok = ossa_renderer_draw(renderer, &frame, NULL, &error) == OSSA_OK;
    if (!ok)
        snprintf(err, err_bytes, "%s", error.message);
    else if (ossa_render_headless_read(headless, rgba, bytes) != OSSA_OK) {
        snprintf(err, err_bytes, "reading the picture back from OpenGL failed");
        ok = false;
    }
    ossa_renderer_destroy(renderer);
    ossa_render_headless_destroy(headless);
    ok = ok && image_write_png(p->path, rgba, width, height, err, err_bytes);
    cli_free(rgba);
    return ok;
}

bool crowd_picture_write(const crowd_picture *p, char *err, size_t err_bytes)
{
    if (!p->mesh || p->characters < 1 || !p->path || (!p->palettes && !p->skinned)) {
        snprintf(err, err_bytes, "picture: needs a mesh, characters, a path and palettes");
        return false;
    }
    if (!image_path_writable(p->path, err, err_bytes))
        return false;
    const int width = p->width > 0 ? p->width : 960, height = p->height > 0 ? p->height : 540;
    const size_t bytes = ossa_skin_output_bytes(p->mesh, p->format);
    if (bytes == 0) {
        snprintf(err, err_bytes, "picture: unknown vertex format");
        return false;
    }
    size_t stride = p->skinned ? (p->skinned_stride ? p->skinned_stride : bytes) : bytes;
    unsigned char *own = NULL;
    const void *streams = p->skinned;
    if (!streams) {
        own = cli_alloc(bytes * (size_t)p->characters);
        streams = own;
    }
    ossa_mat34 *grid = NULL;
    const ossa_mat34 *placements = p->placements;
    bool ok = !own || skin_all(p, own, stride, err, err_bytes);
    if (ok && !placements) {
        /* On the scenes' grid, spaced by the poses' own extent. */
        grid = cli_alloc(sizeof *grid * (size_t)p->characters);
        ossa_float3 lo, hi, placed_lo, placed_hi;
        skinned_bounds(p->mesh, p->format, streams, stride, NULL, p->characters, &lo, &hi);
        render_scene_layout(lo, hi, p->characters, grid, &placed_lo, &placed_hi);
        placements = grid;
    }
    ok = ok && draw_and_write(p, streams, stride, placements, width, height, err, err_bytes);
    cli_free(grid);
    cli_free(own);
    return ok;
}
