/* render_internal.h - shared inside libossa_render: the renderer, its
 * programs and GL helpers. */
#ifndef OSSA_RENDER_INTERNAL_H
#define OSSA_RENDER_INTERNAL_H

#include <epoxy/gl.h>

#include "ossa/render.h"

/* The shader programs the renderer draws with. */
typedef enum ossai_program_kind {
    OSSAI_PROGRAM_CPU_SKINNED, /* skinned stream + static stream */
    OSSAI_PROGRAM_GPU_SKINNED, /* bind stream + influences + palette texture buffer */
    OSSAI_PROGRAM_GROUND,
    OSSAI_PROGRAM_COUNT
} ossai_program_kind;

/* Vertex attribute locations shared by the character programs. The tangent
 * (CPU skinning of a mesh with tangents) is bound for shaders that use it;
 * the renderer's own shading does not. */
enum {
    OSSAI_ATTR_POSITION = 0,
    OSSAI_ATTR_NORMAL = 1,
    OSSAI_ATTR_UV = 2,
    OSSAI_ATTR_COLOR = 3,
    OSSAI_ATTR_JOINTS = 4,
    OSSAI_ATTR_WEIGHTS = 5,
    OSSAI_ATTR_TANGENT = 6
};

/* A program and its uniforms (-1 for those it lacks). */
typedef struct ossai_program {
    GLuint id;
    GLint view_proj, model, tint, eye, palette, palette_base, ground, background;
    GLint relief, relief_size, heights; /* the ground program's height field */
} ossai_program;

/* The renderer (renderer.c creates it, render_draw.c draws with it). */
struct ossa_renderer {
    int vertex_count, index_count, skin_joints, max_characters;
    int bind_stride;     /* bytes per vertex of the mesh's bind stream: 32 or 48 */
    bool tangents;       /* the mesh has them */
    ossa_skin_format format; /* CPU skinning's vertex layout */
    int vertex_bytes;    /* bytes per skinned vertex in it: 32 / 48, 16 / 20 */
    size_t stream_bytes; /* one character's skinned vertices */
    size_t stream_stride; /* from one character's to the next in the dynamic
                           * buffer: stream_bytes up to a whole cache line */
    GLenum index_type;
    ossai_program programs[OSSAI_PROGRAM_COUNT];
    GLuint vao_cpu, vao_gpu, vao_ground;
    GLuint indices, static_stream, bind_stream, influences;
    GLuint dynamic_stream; /* CPU skinning: max_characters skinned streams */
    /* ossa_renderer_map_streams: the dynamic stream mapped for this many
     * characters (0: not mapped) */
    int mapped_count;
    GLuint palette_buffer, palette_texture;
    GLuint relief_texture; /* the ground's heights (GL_R32F), when a frame has them */
    int palette_batch; /* characters whose palettes fit the texture buffer at once */
    float ground_cell; /* ground tile size in model units */
    float mesh_radius;
    ossa_float3 mesh_min, mesh_max;
    GLuint queries[2][2]; /* per frame in flight: GL_TIMESTAMP at start and end */
    bool query_pending[2];
    int query_next;
    double gpu_ms;
};

/* Compiles and links one program; 0 with a message in *error on failure
 * (the driver's log, first line). */
GLuint ossai_render_program(ossai_program_kind kind, ossa_error *error);

/* "GL_INVALID_OPERATION", ... for a glGetError code. */
const char *ossai_gl_error_name(GLenum code);

/* Unmaps the dynamic stream if ossa_renderer_map_streams left it mapped. */
void ossai_render_unmap_streams(ossa_renderer *r);

/* Monotonic time in ms. */
double ossai_render_now_ms(void);

#endif /* OSSA_RENDER_INTERNAL_H */
