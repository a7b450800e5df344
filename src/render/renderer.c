/* renderer.c - N skinned characters of one mesh, skinned on the CPU (their
 * streams uploaded whole each frame) or on the GPU (palettes uploaded each
 * frame), on a ground plane. See ossa/render.h. */
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "render_internal.h"

/* Display-space clear colour, also the ground's fog. */
static const float background[3] = {0.74f, 0.78f, 0.83f};

/* The renderer's tints when the frame brings none (display-space RGB). */
static const float default_tints[][3] = {
    {0.80f, 0.42f, 0.30f}, {0.25f, 0.60f, 0.62f}, {0.86f, 0.72f, 0.34f},
    {0.42f, 0.50f, 0.78f}, {0.55f, 0.70f, 0.45f}, {0.68f, 0.44f, 0.66f}};
enum { DEFAULT_TINT_COUNT = sizeof default_tints / sizeof default_tints[0] };

typedef struct program {
    GLuint id;
    GLint view_proj, model, tint, eye, palette, palette_base, ground, background;
} program;

/* Influences for GPU skinning: four joints and four weights per vertex
 * (unused ones have weight 0), 24 bytes. */
typedef struct gpu_influence {
    uint16_t joints[4];
    float weights[4];
} gpu_influence;

struct ossa_renderer {
    int vertex_count, index_count, skin_joints, max_characters;
    int stride;          /* bytes per skinned vertex: 32 or 48 */
    size_t stream_bytes; /* one character's skinned stream */
    GLenum index_type;
    program programs[OSSAI_PROGRAM_COUNT];
    GLuint vao_cpu, vao_gpu, vao_ground;
    GLuint indices, static_stream, bind_stream, influences;
    GLuint dynamic_stream; /* CPU skinning: max_characters skinned streams */
    GLuint palette_buffer, palette_texture;
    int palette_batch; /* characters whose palettes fit the texture buffer at once */
    float ground_cell; /* ground tile size in model units */
    float mesh_radius;
    ossa_float3 mesh_min, mesh_max;
    GLuint queries[2][2]; /* per frame in flight: GL_TIMESTAMP at start and end */
    bool query_pending[2];
    int query_next;
    double gpu_ms;
};

static program make_program(ossai_program_kind kind, ossa_error *error)
{
    program p;
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
static bool setup_gpu_skinning(ossa_renderer *r, const ossa_mesh *mesh)
{
    glBindVertexArray(r->vao_gpu);
    glBindBuffer(GL_ARRAY_BUFFER, r->bind_stream);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)r->stream_bytes, ossa_mesh_bind_stream(mesh),
                 GL_STATIC_DRAW);
    glEnableVertexAttribArray(OSSAI_ATTR_POSITION);
    glVertexAttribPointer(OSSAI_ATTR_POSITION, 4, GL_FLOAT, GL_FALSE, r->stride, (const void *)0);
    glEnableVertexAttribArray(OSSAI_ATTR_NORMAL);
    glVertexAttribPointer(OSSAI_ATTR_NORMAL, 4, GL_FLOAT, GL_FALSE, r->stride, (const void *)16);
    gpu_influence *inf = calloc((size_t)r->vertex_count, sizeof *inf);
    if (!inf)
        return false;
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
        return false;
    glBindBuffer(GL_TEXTURE_BUFFER, r->palette_buffer);
    glBufferData(GL_TEXTURE_BUFFER,
                 (GLsizeiptr)((size_t)r->palette_batch * (size_t)r->skin_joints *
                              sizeof(ossa_mat34)),
                 NULL, GL_STREAM_DRAW);
    glBindTexture(GL_TEXTURE_BUFFER, r->palette_texture);
    glTexBuffer(GL_TEXTURE_BUFFER, GL_RGBA32F, r->palette_buffer);
    return true;
}

static void setup_cpu_skinning(ossa_renderer *r)
{
    glBindVertexArray(r->vao_cpu);
    glBindBuffer(GL_ARRAY_BUFFER, r->dynamic_stream);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(r->stream_bytes * (size_t)r->max_characters), NULL,
                 GL_STREAM_DRAW);
    glEnableVertexAttribArray(OSSAI_ATTR_POSITION);
    glEnableVertexAttribArray(OSSAI_ATTR_NORMAL);
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
    r->stride = ossa_mesh_skinned_stride(mesh);
    r->stream_bytes = (size_t)r->vertex_count * (size_t)r->stride;
    r->max_characters = desc->max_characters > 0 ? desc->max_characters : 1;
    r->gpu_ms = -1.0;
    if ((size_t)r->max_characters > (size_t)INT32_MAX / r->stream_bytes / 2)
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
    glGenQueries(4, &r->queries[0][0]);
    if (!upload_indices(r, mesh))
        return create_fail(r, error, OSSA_ERR_OUT_OF_MEMORY, "out of memory");
    setup_static_attributes(r, mesh);
    setup_cpu_skinning(r);
    if (!setup_gpu_skinning(r, mesh))
        return create_fail(r, error, OSSA_ERR_UNSUPPORTED,
                           "out of memory, or the skin has more joints than a texture buffer "
                           "holds");
    glBindVertexArray(0);
    const GLenum e = glGetError();
    if (e != GL_NO_ERROR) {
        ossa_error_set(error, e == GL_OUT_OF_MEMORY ? OSSA_ERR_OUT_OF_MEMORY : OSSA_ERR_UNSUPPORTED,
                       -1, -1, "renderer: %s while uploading the mesh", ossai_gl_error_name(e));
        return create_fail(r, error, error ? error->code : OSSA_ERR_UNSUPPORTED, NULL);
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
    for (int k = 0; k < OSSAI_PROGRAM_COUNT; ++k)
        glDeleteProgram(r->programs[k].id);
    const GLuint vaos[3] = {r->vao_cpu, r->vao_gpu, r->vao_ground};
    glDeleteVertexArrays(3, vaos);
    const GLuint buffers[6] = {r->indices,    r->static_stream,  r->bind_stream,
                               r->influences, r->dynamic_stream, r->palette_buffer};
    glDeleteBuffers(6, buffers);
    glDeleteTextures(1, &r->palette_texture);
    glDeleteQueries(4, &r->queries[0][0]);
    free(r);
}

/* ---- drawing ---- */

static bool finite3(ossa_float3 v)
{
    return isfinite(v.x) && isfinite(v.y) && isfinite(v.z);
}

static ossa_result check_frame(const ossa_renderer *r, const ossa_render_frame *f,
                               ossa_error *error)
{
    if (f->width < 1 || f->height < 1)
        return ossa_error_set(error, OSSA_ERR_BAD_ARGUMENT, -1, -1,
                              "render frame: viewport %dx%d is empty", f->width, f->height);
    if (f->character_count < 0 || f->character_count > r->max_characters)
        return ossa_error_set(error, OSSA_ERR_BAD_ARGUMENT, -1, -1,
                              "render frame: %d characters, the renderer holds 0..%d",
                              f->character_count, r->max_characters);
    if ((unsigned)f->skinning >= OSSA_RENDER_SKINNING_COUNT)
        return ossa_error_set(error, OSSA_ERR_BAD_ARGUMENT, -1, -1,
                              "render frame: unknown skinning %d", (int)f->skinning);
    const ossa_render_camera *c = &f->camera;
    const float dx = c->target.x - c->eye.x, dy = c->target.y - c->eye.y,
                dz = c->target.z - c->eye.z;
    if (!finite3(c->eye) || !finite3(c->target) || !(dx * dx + dy * dy + dz * dz > 0) ||
        !(c->fov_y_rad > 0 && c->fov_y_rad < 3.14159f) || !(c->z_near > 0) ||
        !(c->z_far > c->z_near) || !isfinite(c->z_far))
        return ossa_error_set(error, OSSA_ERR_BAD_VALUE, -1, -1,
                              "render frame: camera needs eye != target, fov in (0, pi) and "
                              "0 < z_near < z_far, all finite");
    if (f->character_count == 0)
        return OSSA_OK;
    if (f->skinning == OSSA_RENDER_SKINNING_CPU) {
        if (!f->skinned_streams)
            return ossa_error_set(error, OSSA_ERR_MISSING_INPUT, -1, -1,
                                  "render frame: CPU skinning without skinned_streams");
        if (f->skinned_stream_stride && f->skinned_stream_stride < r->stream_bytes)
            return ossa_error_set(error, OSSA_ERR_BAD_ARGUMENT, -1, -1,
                                  "render frame: skinned_stream_stride %zu is shorter than a "
                                  "stream (%zu bytes)",
                                  f->skinned_stream_stride, r->stream_bytes);
    } else if (!f->palettes) {
        return ossa_error_set(error, OSSA_ERR_MISSING_INPUT, -1, -1,
                              "render frame: GPU skinning without palettes");
    }
    return OSSA_OK;
}

/* The queries run two frames deep: a frame's GPU time is read when its
 * query objects come round again, or earlier when already available. Two
 * GL_TIMESTAMP counters, not GL_TIME_ELAPSED: llvmpipe reports an elapsed
 * query begun before its first draw from time zero. */
static void collect_query(ossa_renderer *r, int k, bool wait)
{
    if (!r->query_pending[k])
        return;
    GLuint available = GL_TRUE;
    if (!wait)
        glGetQueryObjectuiv(r->queries[k][1], GL_QUERY_RESULT_AVAILABLE, &available);
    if (!available)
        return;
    GLuint64 begin = 0, end = 0;
    glGetQueryObjectui64v(r->queries[k][0], GL_QUERY_RESULT, &begin);
    glGetQueryObjectui64v(r->queries[k][1], GL_QUERY_RESULT, &end);
    r->gpu_ms = end >= begin ? (double)(end - begin) * 1e-6 : -1.0;
    r->query_pending[k] = false;
}

static void draw_ground(const ossa_renderer *r, const ossa_render_frame *f, const float *vp)
{
    ossa_float3 lo, hi;
    ossa_render_placed_bounds(r->mesh_min, r->mesh_max, f->placements, f->character_count, &lo,
                              &hi);
    const float cx = 0.5f * (lo.x + hi.x), cz = 0.5f * (lo.z + hi.z);
    const float half = fmaxf(hi.x - lo.x, hi.z - lo.z) * 0.5f;
    const program *p = &r->programs[OSSAI_PROGRAM_GROUND];
    glUseProgram(p->id);
    glUniformMatrix4fv(p->view_proj, 1, GL_FALSE, vp);
    glUniform4f(p->ground, cx, cz, 2.5f * half + 3.0f * r->mesh_radius, r->ground_cell);
    glUniform3fv(p->background, 1, background);
    glBindVertexArray(r->vao_ground);
    /* Pushed back a little: soles resting at y = 0 stay in front. */
    glEnable(GL_POLYGON_OFFSET_FILL);
    glPolygonOffset(1.0f, 1.0f);
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
    glDisable(GL_POLYGON_OFFSET_FILL);
}

static void set_character_uniforms(const program *p, const ossa_render_frame *f, int i)
{
    static const ossa_mat34 identity = {{{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}}};
    const ossa_mat34 *m = f->placements ? &f->placements[i] : &identity;
    glUniform4fv(p->model, 3, &m->m[0][0]);
    glUniform3fv(p->tint, 1, f->tints ? f->tints + 3 * (size_t)i
                                      : default_tints[(unsigned)i % DEFAULT_TINT_COUNT]);
}

static void begin_characters(const program *p, const ossa_render_frame *f, const float *vp)
{
    glUseProgram(p->id);
    glUniformMatrix4fv(p->view_proj, 1, GL_FALSE, vp);
    glUniform3f(p->eye, f->camera.eye.x, f->camera.eye.y, f->camera.eye.z);
}

/* Orphans the buffer bound to target, maps its first `bytes` and returns
 * them to be written whole, front to back. */
static void *map_whole(GLenum target, size_t capacity, size_t bytes)
{
    glBufferData(target, (GLsizeiptr)capacity, NULL, GL_STREAM_DRAW);
    return glMapBufferRange(target, 0, (GLsizeiptr)bytes,
                            GL_MAP_WRITE_BIT | GL_MAP_INVALIDATE_BUFFER_BIT);
}

static bool draw_cpu_skinned(ossa_renderer *r, const ossa_render_frame *f, const float *vp,
                             ossa_render_timings *t)
{
    const int n = f->character_count;
    const size_t from_stride = f->skinned_stream_stride ? f->skinned_stream_stride : r->stream_bytes;
    const double t0 = ossai_render_now_ms();
    glBindVertexArray(r->vao_cpu);
    glBindBuffer(GL_ARRAY_BUFFER, r->dynamic_stream);
    const size_t bytes = r->stream_bytes * (size_t)n;
    uint8_t *to = map_whole(GL_ARRAY_BUFFER, r->stream_bytes * (size_t)r->max_characters, bytes);
    if (!to)
        return false;
    const uint8_t *from = f->skinned_streams;
    for (int i = 0; i < n; ++i)
        memcpy(to + (size_t)i * r->stream_bytes, from + (size_t)i * from_stride, r->stream_bytes);
    const bool ok = glUnmapBuffer(GL_ARRAY_BUFFER) == GL_TRUE;
    const double t1 = ossai_render_now_ms();
    const program *p = &r->programs[OSSAI_PROGRAM_CPU_SKINNED];
    begin_characters(p, f, vp);
    for (int i = 0; i < n; ++i) {
        const size_t base = (size_t)i * r->stream_bytes;
        glVertexAttribPointer(OSSAI_ATTR_POSITION, 4, GL_FLOAT, GL_FALSE, r->stride,
                              (const void *)(uintptr_t)base);
        glVertexAttribPointer(OSSAI_ATTR_NORMAL, 4, GL_FLOAT, GL_FALSE, r->stride,
                              (const void *)(uintptr_t)(base + 16));
        set_character_uniforms(p, f, i);
        glDrawElements(GL_TRIANGLES, r->index_count, r->index_type, NULL);
    }
    t->upload_ms += t1 - t0;
    t->submit_ms += ossai_render_now_ms() - t1;
    t->upload_bytes += bytes;
    return ok;
}

static bool draw_gpu_skinned(ossa_renderer *r, const ossa_render_frame *f, const float *vp,
                             ossa_render_timings *t)
{
    const program *p = &r->programs[OSSAI_PROGRAM_GPU_SKINNED];
    const size_t palette_bytes = (size_t)r->skin_joints * sizeof(ossa_mat34);
    bool ok = true;
    glBindVertexArray(r->vao_gpu);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_BUFFER, r->palette_texture);
    glBindBuffer(GL_TEXTURE_BUFFER, r->palette_buffer);
    for (int first = 0; first < f->character_count; first += r->palette_batch) {
        const int count = f->character_count - first < r->palette_batch
                              ? f->character_count - first
                              : r->palette_batch;
        const double t0 = ossai_render_now_ms();
        const size_t bytes = palette_bytes * (size_t)count;
        void *to = map_whole(GL_TEXTURE_BUFFER, palette_bytes * (size_t)r->palette_batch, bytes);
        if (!to)
            return false;
        memcpy(to, f->palettes + (size_t)first * (size_t)r->skin_joints, bytes);
        ok = glUnmapBuffer(GL_TEXTURE_BUFFER) == GL_TRUE && ok;
        const double t1 = ossai_render_now_ms();
        begin_characters(p, f, vp);
        glUniform1i(p->palette, 0);
        for (int i = 0; i < count; ++i) {
            glUniform1i(p->palette_base, 3 * r->skin_joints * i);
            set_character_uniforms(p, f, first + i);
            glDrawElements(GL_TRIANGLES, r->index_count, r->index_type, NULL);
        }
        t->upload_ms += t1 - t0;
        t->submit_ms += ossai_render_now_ms() - t1;
        t->upload_bytes += bytes;
    }
    return ok;
}

ossa_result ossa_renderer_draw(ossa_renderer *r, const ossa_render_frame *f,
                               ossa_render_timings *timings, ossa_error *error)
{
    ossa_error_clear(error);
    if (!r || !f)
        return ossa_error_set(error, OSSA_ERR_MISSING_INPUT, -1, -1,
                              "render frame: renderer or frame is NULL");
    const ossa_result valid = check_frame(r, f, error);
    if (valid != OSSA_OK)
        return valid;
    ossa_render_timings t = {0, 0, -1.0, 0};
    const double t0 = ossai_render_now_ms();
    const int k = r->query_next;
    collect_query(r, k, true);
    collect_query(r, 1 - k, false);
    glQueryCounter(r->queries[k][0], GL_TIMESTAMP);
    glViewport(0, 0, f->width, f->height);
    glClearColor(background[0], background[1], background[2], 1.0f);
    glClearDepth(1.0);
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LESS);
    glDepthMask(GL_TRUE);
    glDisable(GL_BLEND);
    glDisable(GL_CULL_FACE);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    float vp[16];
    ossa_render_camera_matrix(&f->camera, (float)f->width / (float)f->height, vp);
    if (!f->no_ground)
        draw_ground(r, f, vp);
    t.submit_ms = ossai_render_now_ms() - t0;
    bool mapped = true;
    if (f->character_count > 0)
        mapped = f->skinning == OSSA_RENDER_SKINNING_CPU ? draw_cpu_skinned(r, f, vp, &t)
                                                         : draw_gpu_skinned(r, f, vp, &t);
    glBindVertexArray(0);
    glQueryCounter(r->queries[k][1], GL_TIMESTAMP);
    r->query_pending[k] = true;
    r->query_next = 1 - k;
    t.gpu_ms = r->gpu_ms;
    if (timings)
        *timings = t;
    const GLenum e = glGetError();
    if (e != GL_NO_ERROR || !mapped)
        return ossa_error_set(error, e == GL_OUT_OF_MEMORY ? OSSA_ERR_OUT_OF_MEMORY
                                                           : OSSA_ERR_UNSUPPORTED,
                              -1, -1, "render frame: %s",
                              e != GL_NO_ERROR ? ossai_gl_error_name(e)
                                               : "the driver could not map a buffer");
    return OSSA_OK;
}

double ossa_renderer_finish(ossa_renderer *r)
{
    glFinish();
    const int last = 1 - r->query_next;
    collect_query(r, last, true);
    return r->gpu_ms;
}
