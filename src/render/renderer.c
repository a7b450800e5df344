/* renderer.c - creating and releasing a renderer: the shaders, the mesh's
 * static stream, indices, bind stream and influences (uploaded once), the
 * dynamic stream and palette buffers drawing fills. See ossa/render.h. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "render_internal.h"

/* Influences for GPU skinning: four joints and four weights per vertex
 * (unused ones have weight 0), 24 bytes. */
typedef struct gpu_influence {
    uint16_t joints[4];
    float weights[4];
} gpu_influence;

static ossai_program make_program(ossai_program_kind kind, ossa_error *error)
{
    ossai_program p;
    memset(&p, 0, sizeof p);
    p.id = ossai_render_program(kind, error);
    if (!p.id)
        return p;
    p.view_proj = glGetUniformLocation(p.id, "u_view_proj");
    p.model = glGetUniformLocation(p.id, "u_model");
    p.tint = glGetUniformLocation(p.id, "u_tint");
    p.eye = glGetUniformLocation(p.id, "u_eye");
    p.palette = glGetUniformLocation(p.id, "u_palette");
    p.palette_base = glGetUniformLocation(p.id, "u_palette_base");
    p.ground = glGetUniformLocation(p.id, "u_ground");
    p.background = glGetUniformLocation(p.id, "u_background");
    p.relief = glGetUniformLocation(p.id, "u_relief");
    p.relief_size = glGetUniformLocation(p.id, "u_relief_size");
    p.heights = glGetUniformLocation(p.id, "u_heights");
    return p;
}

/* The static stream: uvs then colours, each only when the mesh has them;
 * absent ones read as constants (uv 0, colour white). */
static void setup_static_attributes(ossa_renderer *r, const ossa_mesh *mesh)
{
    const float *uvs = ossa_mesh_uvs(mesh);
    const uint32_t *colors = ossa_mesh_colors(mesh);
    const size_t n = (size_t)r->vertex_count;
    const size_t uv_bytes = uvs ? n * 2 * sizeof(float) : 0;
    const size_t color_bytes = colors ? n * sizeof(uint32_t) : 0;
    glBindBuffer(GL_ARRAY_BUFFER, r->static_stream);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(uv_bytes + color_bytes + 16), NULL, GL_STATIC_DRAW);
    if (uvs)
        glBufferSubData(GL_ARRAY_BUFFER, 0, (GLsizeiptr)uv_bytes, uvs);
    if (colors)
        glBufferSubData(GL_ARRAY_BUFFER, (GLintptr)uv_bytes, (GLsizeiptr)color_bytes, colors);
    const GLuint vaos[2] = {r->vao_cpu, r->vao_gpu};
    for (int i = 0; i < 2; ++i) {
        glBindVertexArray(vaos[i]);
        glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, r->indices);
        if (uvs) {
            glEnableVertexAttribArray(OSSAI_ATTR_UV);
            glVertexAttribPointer(OSSAI_ATTR_UV, 2, GL_FLOAT, GL_FALSE, 0, (const void *)0);
        } else {
            glDisableVertexAttribArray(OSSAI_ATTR_UV);
            glVertexAttrib2f(OSSAI_ATTR_UV, 0.0f, 0.0f);
        }
        if (colors) {
            glEnableVertexAttribArray(OSSAI_ATTR_COLOR);
            glVertexAttribPointer(OSSAI_ATTR_COLOR, 4, GL_UNSIGNED_BYTE, GL_TRUE, 0,
                                  (const void *)(uintptr_t)uv_bytes);
        } else {
            glDisableVertexAttribArray(OSSAI_ATTR_COLOR);
            glVertexAttrib4f(OSSAI_ATTR_COLOR, 1.0f, 1.0f, 1.0f, 1.0f);
        }
    }
}

/* Indices as 16-bit when every vertex fits: half the index bandwidth. */
static bool upload_indices(ossa_renderer *r, const ossa_mesh *mesh)
{
    const uint32_t *idx = ossa_mesh_indices(mesh);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, r->indices);
    if (r->vertex_count > 65536) {
        r->index_type = GL_UNSIGNED_INT;
        glBufferData(GL_ELEMENT_ARRAY_BUFFER, (GLsizeiptr)((size_t)r->index_count * 4), idx,
                     GL_STATIC_DRAW);
        return true;
    }
    uint16_t *small = malloc(sizeof(uint16_t) * (size_t)r->index_count);
    if (!small)
        return false;
    for (int i = 0; i < r->index_count; ++i)
        small[i] = (uint16_t)idx[i];
    r->index_type = GL_UNSIGNED_SHORT;
    glBufferData(GL_ELEMENT_ARRAY_BUFFER, (GLsizeiptr)((size_t)r->index_count * 2), small,
                 GL_STATIC_DRAW);
    free(small);
    return true;
}

/* GPU skinning's inputs, uploaded once: the bind stream and every vertex's
 * influences widened to four (ossa_mesh_vertex_influences restores the
 * weight the mesh does not store). */
static ossa_result setup_gpu_skinning(ossa_renderer *r, const ossa_mesh *mesh,
                                      ossa_error *error)
{
    glBindVertexArray(r->vao_gpu);
    glBindBuffer(GL_ARRAY_BUFFER, r->bind_stream);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)((size_t)r->vertex_count * (size_t)r->bind_stride),
                 ossa_mesh_bind_stream(mesh), GL_STATIC_DRAW);
    glEnableVertexAttribArray(OSSAI_ATTR_POSITION);
    glVertexAttribPointer(OSSAI_ATTR_POSITION, 4, GL_FLOAT, GL_FALSE, r->bind_stride,
                          (const void *)0);
    glEnableVertexAttribArray(OSSAI_ATTR_NORMAL);
    glVertexAttribPointer(OSSAI_ATTR_NORMAL, 4, GL_FLOAT, GL_FALSE, r->bind_stride,
                          (const void *)16);
    gpu_influence *inf = calloc((size_t)r->vertex_count, sizeof *inf);
    if (!inf)
        return ossa_error_set(error, OSSA_ERR_OUT_OF_MEMORY, -1, -1, "renderer: out of memory");
    for (int v = 0; v < r->vertex_count; ++v)
        ossa_mesh_vertex_influences(mesh, v, inf[v].joints, inf[v].weights);
    glBindBuffer(GL_ARRAY_BUFFER, r->influences);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(sizeof *inf * (size_t)r->vertex_count), inf,
                 GL_STATIC_DRAW);
    free(inf);
    glEnableVertexAttribArray(OSSAI_ATTR_JOINTS);
    glVertexAttribIPointer(OSSAI_ATTR_JOINTS, 4, GL_UNSIGNED_SHORT, sizeof(gpu_influence),
                           (const void *)0);
    glEnableVertexAttribArray(OSSAI_ATTR_WEIGHTS);
    glVertexAttribPointer(OSSAI_ATTR_WEIGHTS, 4, GL_FLOAT, GL_FALSE, sizeof(gpu_influence),
                          (const void *)offsetof(gpu_influence, weights));
    /* The palettes: a texture buffer of RGBA32F texels, three per joint (the
     * rows of ossa_mat34), as many characters as the driver's limit allows
     * per upload. */
    GLint max_texels = 0;
    glGetIntegerv(GL_MAX_TEXTURE_BUFFER_SIZE, &max_texels);
    const long per_character = 3L * r->skin_joints;
    r->palette_batch = (int)(max_texels / per_character);
    if (r->palette_batch > r->max_characters)
        r->palette_batch = r->max_characters;
    if (r->palette_batch < 1)
        return ossa_error_set(error, OSSA_ERR_UNSUPPORTED, -1, -1,
                              "renderer: the skin's %d joints need %ld texels, the driver's "
                              "texture buffers hold %d",
                              r->skin_joints, per_character, max_texels);
    glBindBuffer(GL_TEXTURE_BUFFER, r->palette_buffer);
    glBufferData(GL_TEXTURE_BUFFER,
                 (GLsizeiptr)((size_t)r->palette_batch * (size_t)r->skin_joints *
                              sizeof(ossa_mat34)),
                 NULL, GL_STREAM_DRAW);
    glBindTexture(GL_TEXTURE_BUFFER, r->palette_texture);
    glTexBuffer(GL_TEXTURE_BUFFER, GL_RGBA32F, r->palette_buffer);
    return OSSA_OK;
}

static void setup_cpu_skinning(ossa_renderer *r)
{
    glBindVertexArray(r->vao_cpu);
    glBindBuffer(GL_ARRAY_BUFFER, r->dynamic_stream);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(r->stream_stride * (size_t)r->max_characters), NULL,
                 GL_STREAM_DRAW);
    glEnableVertexAttribArray(OSSAI_ATTR_POSITION);
    glEnableVertexAttribArray(OSSAI_ATTR_NORMAL);
    if (r->tangents)
        glEnableVertexAttribArray(OSSAI_ATTR_TANGENT);
}

static ossa_result create_fail(ossa_renderer *r, ossa_error *error, ossa_result code,
                               const char *what)
{
    if (what)
        ossa_error_set(error, code, -1, -1, "renderer: %s", what);
    ossa_renderer_destroy(r);
    return code;
}

ossa_result ossa_renderer_create(const ossa_renderer_desc *desc, ossa_renderer **out,
                                 ossa_error *error)
{
    ossa_error_clear(error);
    if (!out)
        return ossa_error_set(error, OSSA_ERR_MISSING_OUTPUT, -1, -1, "renderer: out is NULL");
    *out = NULL;
    if (!desc || !desc->mesh)
        return ossa_error_set(error, OSSA_ERR_MISSING_INPUT, -1, -1, "renderer: no mesh");
    if (desc->max_characters < 0)
        return ossa_error_set(error, OSSA_ERR_BAD_ARGUMENT, -1, -1,
                              "renderer: max_characters %d is negative", desc->max_characters);
    if (!epoxy_is_desktop_gl() || epoxy_gl_version() < 33)
        return ossa_error_set(error, OSSA_ERR_UNSUPPORTED, -1, -1,
                              "renderer: the current context is not OpenGL 3.3 core or later");
    const ossa_mesh *mesh = desc->mesh;
    ossa_renderer *r = calloc(1, sizeof *r);
    if (!r)
        return ossa_error_set(error, OSSA_ERR_OUT_OF_MEMORY, -1, -1, "renderer: out of memory");
    r->vertex_count = ossa_mesh_vertex_count(mesh);
    r->index_count = 3 * ossa_mesh_triangle_count(mesh);
    r->skin_joints = ossa_mesh_skin_joint_count(mesh);
    r->bind_stride = ossa_mesh_skinned_stride(mesh);
    r->tangents = ossa_mesh_has_tangents(mesh);
    r->format = desc->skinned_format;
    r->vertex_bytes = (int)ossa_skin_vertex_bytes(mesh, desc->skinned_format);
    r->stream_bytes = (size_t)r->vertex_count * (size_t)r->vertex_bytes;
    r->stream_stride = (r->stream_bytes + 63) / 64 * 64;
    r->max_characters = desc->max_characters > 0 ? desc->max_characters : 1;
    r->gpu_ms = -1.0;
    if (r->vertex_bytes == 0)
        return create_fail(r, error, OSSA_ERR_BAD_ARGUMENT, "unknown skinned_format");
    if (r->stream_bytes == 0 || r->index_count == 0 || r->skin_joints < 1)
        return create_fail(r, error, OSSA_ERR_BAD_ARGUMENT, "the mesh has no vertices, "
                                                            "triangles or skin joints");
    if ((size_t)r->max_characters > (size_t)INT32_MAX / r->stream_stride / 2)
        return create_fail(r, error, OSSA_ERR_BAD_ARGUMENT,
                           "max_characters skinned streams would pass 1 GiB of vertex buffer");
    for (int k = 0; k < OSSAI_PROGRAM_COUNT; ++k) {
        r->programs[k] = make_program((ossai_program_kind)k, error);
        if (!r->programs[k].id)
            return create_fail(r, error, OSSA_ERR_UNSUPPORTED, NULL);
    }
    glGenVertexArrays(1, &r->vao_cpu);
    glGenVertexArrays(1, &r->vao_gpu);
    glGenVertexArrays(1, &r->vao_ground);
    GLuint *buffers[] = {&r->indices,        &r->static_stream,  &r->bind_stream,
                         &r->influences,     &r->dynamic_stream, &r->palette_buffer};
    for (size_t i = 0; i < sizeof buffers / sizeof buffers[0]; ++i)
        glGenBuffers(1, buffers[i]);
    glGenTextures(1, &r->palette_texture);
    glGenTextures(1, &r->relief_texture);
    glGenQueries(4, &r->queries[0][0]);
    if (!upload_indices(r, mesh))
        return create_fail(r, error, OSSA_ERR_OUT_OF_MEMORY, "out of memory");
    setup_static_attributes(r, mesh);
    setup_cpu_skinning(r);
    const ossa_result gpu = setup_gpu_skinning(r, mesh, error);
    if (gpu != OSSA_OK)
        return create_fail(r, error, gpu, NULL);
    glBindVertexArray(0);
    const GLenum e = glGetError();
    if (e != GL_NO_ERROR) {
        const ossa_result code = e == GL_OUT_OF_MEMORY ? OSSA_ERR_OUT_OF_MEMORY
                                                       : OSSA_ERR_UNSUPPORTED;
        ossa_error_set(error, code, -1, -1, "renderer: %s while uploading the mesh",
                       ossai_gl_error_name(e));
        return create_fail(r, error, code, NULL);
    }
    ossa_render_mesh_bounds(mesh, &r->mesh_min, &r->mesh_max);
    const float ex = r->mesh_max.x - r->mesh_min.x, ey = r->mesh_max.y - r->mesh_min.y,
                ez = r->mesh_max.z - r->mesh_min.z;
    r->mesh_radius = 0.5f * sqrtf(ex * ex + ey * ey + ez * ez);
    r->ground_cell = fmaxf(fmaxf(ex, ey), ez) * 0.5f;
    if (!(r->ground_cell > 0))
        r->ground_cell = 1.0f;
    *out = r;
    return OSSA_OK;
}

void ossa_renderer_destroy(ossa_renderer *r)
{
    if (!r)
        return;
    ossai_render_unmap_streams(r);
    for (int k = 0; k < OSSAI_PROGRAM_COUNT; ++k)
        glDeleteProgram(r->programs[k].id);
    const GLuint vaos[3] = {r->vao_cpu, r->vao_gpu, r->vao_ground};
    glDeleteVertexArrays(3, vaos);
    const GLuint buffers[6] = {r->indices,    r->static_stream,  r->bind_stream,
                               r->influences, r->dynamic_stream, r->palette_buffer};
    glDeleteBuffers(6, buffers);
    glDeleteTextures(1, &r->palette_texture);
    glDeleteTextures(1, &r->relief_texture);
    glDeleteQueries(4, &r->queries[0][0]);
    free(r);
}
