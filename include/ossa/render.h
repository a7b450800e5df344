/* ossa/render.h - skinned characters drawn with OpenGL 3.3 core, to look at
 * what the runtime computes (libossa_render, built with OSSA_BUILD_RENDER;
 * not part of the runtime, which stays free of all of it).
 *
 * A renderer draws N characters of one skinned mesh in two ways that give
 * the same image:
 * - CPU skinning: the caller skins with ossa_skinning_job; each frame the
 *   skinned streams (position, normal[, tangent]) go into one dynamic vertex
 *   buffer, orphaned and written whole, never in part (seed 002: GPU memory
 *   is write-combined); the static stream (uv, colour) went up once. The
 *   streams are float4 or packed (ossa_skin_format, chosen per renderer):
 *   packed vertices are drawn as they are, float3 positions and 10:10:10:2
 *   signed normalised normals (GL_INT_2_10_10_10_REV), 20 bytes instead of
 *   48.
 * - GPU skinning: the bind stream and the influences went up once; each
 *   frame only the palettes do (a texture buffer, three RGBA32F texels per
 *   skin joint, so any joint count fits), and the vertex shader blends them.
 * Shading is simple: a key light, sky and ground ambient, a tint per
 * character, a ground plane at y = 0 or a height field.
 *
 * The renderer draws into whatever framebuffer is bound in the OpenGL 3.3
 * core context current on the calling thread: a window's, or a headless
 * context's (below). GL functions are loaded through libepoxy. Every call
 * must come from the thread where the context is current. */
#ifndef OSSA_RENDER_H
#define OSSA_RENDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "math.h"
#include "mesh.h"
#include "result.h"
#include "skinning_job.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- headless context: no display server needed ---- */

typedef struct ossa_render_headless ossa_render_headless;

typedef struct ossa_render_headless_desc {
    int width, height; /* the offscreen target in pixels, 1..16384; required */
    int samples;       /* multisampling: 0 (default) or 1 none, else 2..16 */
} ossa_render_headless_desc;

/* Opens Mesa's surfaceless EGL platform (else EGL's default display, with a
 * pbuffer when it cannot go surfaceless), creates an OpenGL 3.3 core
 * context, makes it current on this thread and binds an offscreen RGBA8 +
 * depth target. Failures are OSSA_ERR_UNSUPPORTED (no libEGL, no driver, no
 * OpenGL 3.3 core), OSSA_ERR_BAD_ARGUMENT or OSSA_ERR_OUT_OF_MEMORY, with a
 * one-line message in *error saying what is missing. */
ossa_result ossa_render_headless_create(const ossa_render_headless_desc *desc,
                                        ossa_render_headless **out, ossa_error *error);
/* Releases the target and the context. NULL is fine. */
void ossa_render_headless_destroy(ossa_render_headless *headless);
/* Binds the offscreen target again (after another framebuffer was bound). */
void ossa_render_headless_bind(const ossa_render_headless *headless);
/* Waits for rendering to finish, resolves multisampling and copies the
 * target as RGBA8, rows from top to bottom; bytes >= width * height * 4. */
ossa_result ossa_render_headless_read(const ossa_render_headless *headless, uint8_t *rgba,
                                      size_t bytes);

/* "OpenGL 4.5 (Core Profile) Mesa 22.3.6 on llvmpipe (...)" for the current
 * context, into text (always NUL-terminated). */
void ossa_render_describe_gl(char *text, size_t bytes);

/* ---- renderer ---- */

typedef struct ossa_renderer ossa_renderer;

typedef enum ossa_render_skinning {
    OSSA_RENDER_SKINNING_CPU = 0, /* default: streams the caller skinned */
    OSSA_RENDER_SKINNING_GPU,     /* palettes, blended in the vertex shader */
    OSSA_RENDER_SKINNING_COUNT
} ossa_render_skinning;

typedef struct ossa_renderer_desc {
    const ossa_mesh *mesh; /* required; read during create only */
    int max_characters;    /* most characters one frame draws; 0 means 1 */
    /* CPU skinning: the layout of the skinned vertices frames bring (or
     * skin into the mapped buffer). Default OSSA_SKIN_FORMAT_FLOAT4. The
     * vertex arrays read position and normal from it (float4, or float3 and
     * GL_INT_2_10_10_10_REV normalised), and with tangents the tangent at
     * attribute location 6 for shaders that want it. */
    ossa_skin_format skinned_format;
} ossa_renderer_desc;

/* Uploads the mesh's static stream, indices, bind stream and influences and
 * builds the shaders, in the current context. */
ossa_result ossa_renderer_create(const ossa_renderer_desc *desc, ossa_renderer **out,
                                 ossa_error *error);
/* Releases the renderer's GL objects (its context must be current). NULL is
 * fine. */
void ossa_renderer_destroy(ossa_renderer *renderer);

typedef struct ossa_render_camera {
    ossa_float3 eye, target; /* up is +y */
    float fov_y_rad;         /* vertical field of view in (0, pi) */
    float z_near, z_far;     /* clip distances, 0 < z_near < z_far */
} ossa_render_camera;

typedef struct ossa_render_frame {
    ossa_render_skinning skinning; /* default OSSA_RENDER_SKINNING_CPU */
    int character_count;           /* 0..max_characters */
    /* CPU skinning: character i's skinned vertices (in the renderer's
     * skinned_format, as ossa_skinning_job writes them:
     * ossa_skin_output_bytes) start at skinned_streams + i *
     * skinned_stream_stride bytes. A stride of 0 means those bytes exactly. */
    const void *skinned_streams;
    size_t skinned_stream_stride;
    /* CPU skinning, true: the streams were written straight into the
     * renderer's buffer (ossa_renderer_map_streams) and skinned_streams is
     * not read. */
    bool streams_mapped;
    /* GPU skinning: character i's palette (the mesh's skin_joint_count
     * matrices, ossa_palette_job's output) at palettes + i * skin_joint_count. */
    const ossa_mat34 *palettes;
    /* Model -> world placement of each character; NULL means identity. */
    const ossa_mat34 *placements;
    /* Colour of each character, 3 floats (RGB in [0, 1] as displayed); NULL
     * means the renderer's own set of tints. */
    const float *tints;
    ossa_render_camera camera; /* required */
    int width, height;         /* viewport in pixels; required */
    bool no_ground;            /* true: no ground plane, the characters alone */
    /* true: draw over what the framebuffer holds instead of clearing it -
     * a second renderer's mesh (a prop each character holds) into the same
     * picture. */
    bool no_clear;
    /* The ground spreads under this box (world space; only x and z count).
     * Zero (min == max) means the box of the mesh at every placement - pass
     * the skinned vertices' bounds when the streams are already in world
     * space and the placements are identities. */
    ossa_float3 ground_min, ground_max;
    /* Relief, optional: the ground as a height field - heights[r * columns
     * + c] is the height at x = origin_x + c * cell, z = origin_z + r *
     * cell (the layout of ossa_crowd_ground) - drawn shaded over the box
     * it covers; NULL: the plane y = 0. At least 2 x 2 samples. */
    const float *ground_heights;
    int ground_columns, ground_rows;
    float ground_origin_x, ground_origin_z, ground_cell;
} ossa_render_frame;

/* Where a frame's time went, measured by the renderer. */
typedef struct ossa_render_timings {
    double upload_ms;    /* CPU: orphaning, mapping and writing the frame's buffer */
    double submit_ms;    /* CPU: state changes and draw calls */
    double gpu_ms;       /* GPU: the whole frame (GL_TIME_ELAPSED) of the newest frame
                            whose query is done; negative until one is */
    size_t upload_bytes; /* bytes the frame uploaded */
} ossa_render_timings;

/* Clears the viewport and draws the frame. OSSA_ERR_MISSING_INPUT when the
 * frame lacks the streams or palettes its skinning needs,
 * OSSA_ERR_BAD_ARGUMENT / OSSA_ERR_BAD_VALUE for a count, size or camera out
 * of range; a GL error comes back as OSSA_ERR_UNSUPPORTED with its name.
 * timings and error may be NULL. */
ossa_result ossa_renderer_draw(ossa_renderer *renderer, const ossa_render_frame *frame,
                               ossa_render_timings *timings, ossa_error *error);
/* CPU skinning without a copy (seed 002's end state): orphans the renderer's
 * dynamic vertex buffer, maps room for character_count skinned streams
 * (1..max_characters) and returns where they go: character i's at the
 * returned pointer + i * ossa_renderer_stream_bytes(renderer) (16-byte
 * aligned; drivers map whole pages, so usually on a cache line), in the
 * renderer's skinned_format. Skin into it (ossa_skinning_job, best with
 * stream_output: drivers may map write-combined memory, which wants whole
 * lines written in order and never read), write every character's vertices
 * (the padding up to the next character's line may stay unwritten), then
 * draw a frame of at most that many characters with streams_mapped. Drawing
 * (or mapping again, or destroying) releases the mapping. NULL, with a
 * message in *error (may be NULL), for a bad count or a mapping the driver
 * refuses or misaligns. */
void *ossa_renderer_map_streams(ossa_renderer *renderer, int character_count,
                                ossa_error *error);
/* Bytes from one character's vertices to the next in the mapped buffer:
 * ossa_skin_output_bytes(mesh, skinned_format) rounded up to a multiple of
 * 64 (every character starts on a cache line). */
size_t ossa_renderer_stream_bytes(const ossa_renderer *renderer);
/* The renderer's skinned_format (float4 for NULL). */
ossa_skin_format ossa_renderer_skinned_format(const ossa_renderer *renderer);
/* Waits for the last drawn frame and returns its GPU time in ms (negative
 * when the driver has no timer queries). */
double ossa_renderer_finish(ossa_renderer *renderer);

/* ---- camera and layout helpers (no GL needed) ---- */

/* A camera that frames the box [min, max] whole: it looks at the box from
 * heading yaw_rad (about +y; 0 looks from +z toward -z) and elevation
 * pitch_rad (> 0 from above), for a viewport of aspect = width / height.
 * fov_y_rad 0 means 35 degrees. */
ossa_render_camera ossa_render_camera_frame(ossa_float3 min, ossa_float3 max, float aspect,
                                            float yaw_rad, float pitch_rad, float fov_y_rad);
/* The clip-space matrix the renderer draws with: projection * view,
 * column-major (OpenGL's order), for a viewport of aspect = width / height. */
void ossa_render_camera_matrix(const ossa_render_camera *camera, float aspect, float out[16]);
/* The box around the mesh's bind-pose positions. */
void ossa_render_mesh_bounds(const ossa_mesh *mesh, ossa_float3 *min, ossa_float3 *max);
/* The box around a box [box_min, box_max] moved by each of count placements
 * (NULL placements: the box itself). */
void ossa_render_placed_bounds(ossa_float3 box_min, ossa_float3 box_max,
                               const ossa_mat34 *placements, int count, ossa_float3 *min,
                               ossa_float3 *max);
/* Placements of count characters on a square grid on the ground (y = 0),
 * centred on the origin, spacing apart, all facing +z, rows filled from the
 * back. */
void ossa_render_grid(int count, float spacing, ossa_mat34 *placements);

#ifdef __cplusplus
}
#endif

#endif /* OSSA_RENDER_H */
