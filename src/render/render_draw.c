/* render_draw.c - one frame: the crowd skinned on the CPU (its streams
 * orphaned, mapped and written whole into the dynamic buffer) or on the GPU
 * (palettes written whole into the texture buffer), over the ground. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "render_internal.h"

/* Display-space clear colour, also the ground's fog. */
static const float background[3] = {0.74f, 0.78f, 0.83f};

/* The renderer's tints when the frame brings none (display-space RGB). */
static const float default_tints[][3] = {
    {0.80f, 0.42f, 0.30f}, {0.25f, 0.60f, 0.62f}, {0.86f, 0.72f, 0.34f},
    {0.42f, 0.50f, 0.78f}, {0.55f, 0.70f, 0.45f}, {0.68f, 0.44f, 0.66f}};
enum { DEFAULT_TINT_COUNT = sizeof default_tints / sizeof default_tints[0] };

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
    if (f->ground_heights &&
        (f->ground_columns < 2 || f->ground_rows < 2 || f->ground_columns > 16384 ||
         f->ground_rows > 16384))
        return ossa_error_set(error, OSSA_ERR_BAD_ARGUMENT, -1, -1,
                              "render frame: a relief of %d x %d samples (2..16384 each)",
                              f->ground_columns, f->ground_rows);
    if (f->ground_heights && (!(f->ground_cell > 0) || !isfinite(f->ground_cell) ||
                              !isfinite(f->ground_origin_x) || !isfinite(f->ground_origin_z)))
        return ossa_error_set(error, OSSA_ERR_BAD_VALUE, -1, -1,
                              "render frame: the relief needs a finite origin and a cell size "
                              "> 0");
    if (f->character_count == 0)
        return OSSA_OK;
    if (f->skinning == OSSA_RENDER_SKINNING_CPU && f->streams_mapped) {
        if (f->character_count > r->mapped_count)
            return ossa_error_set(error, OSSA_ERR_BAD_ARGUMENT, -1, -1,
                                  "render frame: %d characters' streams_mapped, but %d mapped "
                                  "(ossa_renderer_map_streams)",
                                  f->character_count, r->mapped_count);
    } else if (f->skinning == OSSA_RENDER_SKINNING_CPU) {
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

/* Drawn cells per side of a height field at most: a denser one is drawn
 * every step-th sample. */
#define RELIEF_MAX_CELLS 256

static void draw_ground(const ossa_renderer *r, const ossa_render_frame *f, const float *vp)
{
    ossa_float3 lo = f->ground_min, hi = f->ground_max;
    if (lo.x == hi.x && lo.z == hi.z)
        ossa_render_placed_bounds(r->mesh_min, r->mesh_max, f->placements, f->character_count,
                                  &lo, &hi);
    const float cx = 0.5f * (lo.x + hi.x), cz = 0.5f * (lo.z + hi.z);
    const float half = fmaxf(hi.x - lo.x, hi.z - lo.z) * 0.5f;
    const ossai_program *p = &r->programs[OSSAI_PROGRAM_GROUND];
    glUseProgram(p->id);
    glUniformMatrix4fv(p->view_proj, 1, GL_FALSE, vp);
    glUniform4f(p->ground, cx, cz, 2.5f * half + 3.0f * r->mesh_radius, r->ground_cell);
    glUniform3fv(p->background, 1, background);
    glBindVertexArray(r->vao_ground);
    /* Pushed back a little: soles resting on the ground stay in front. */
    glEnable(GL_POLYGON_OFFSET_FILL);
    glPolygonOffset(1.0f, 1.0f);
    if (f->ground_heights) {
        const int cols = f->ground_columns, rows = f->ground_rows;
        const int big = cols > rows ? cols : rows;
        const int step = (big - 1 + RELIEF_MAX_CELLS - 1) / RELIEF_MAX_CELLS;
        const int drawn_cols = (cols - 1 + step - 1) / step + 1;
        const int drawn_rows = (rows - 1 + step - 1) / step + 1;
        glActiveTexture(GL_TEXTURE1);
        glBindTexture(GL_TEXTURE_2D, r->relief_texture);
        glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
        glTexImage2D(GL_TEXTURE_2D, 0, GL_R32F, cols, rows, 0, GL_RED, GL_FLOAT,
                     f->ground_heights);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
        glUniform1i(p->heights, 1);
        glUniform4f(p->relief, f->ground_origin_x, f->ground_origin_z, f->ground_cell,
                    (float)step);
        glUniform2i(p->relief_size, drawn_cols, drawn_rows);
        glDrawArrays(GL_TRIANGLES, 0, 6 * (drawn_cols - 1) * (drawn_rows - 1));
        glActiveTexture(GL_TEXTURE0);
    } else {
        glUniform4f(p->relief, 0.0f, 0.0f, 0.0f, 0.0f);
        glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
    }
    glDisable(GL_POLYGON_OFFSET_FILL);
}

static void set_character_uniforms(const ossai_program *p, const ossa_render_frame *f, int i)
{
    static const ossa_mat34 identity = {{{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}}};
    const ossa_mat34 *m = f->placements ? &f->placements[i] : &identity;
    glUniform4fv(p->model, 3, &m->m[0][0]);
    glUniform3fv(p->tint, 1, f->tints ? f->tints + 3 * (size_t)i
                                      : default_tints[(unsigned)i % DEFAULT_TINT_COUNT]);
}

static void begin_characters(const ossai_program *p, const ossa_render_frame *f, const float *vp)
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

void *ossa_renderer_map_streams(ossa_renderer *r, int character_count, ossa_error *error)
{
    ossa_error_clear(error);
    if (!r || character_count < 1 || character_count > r->max_characters) {
        ossa_error_set(error, OSSA_ERR_BAD_ARGUMENT, -1, -1,
                       "map streams: %d characters, the renderer holds 1..%d", character_count,
                       r ? r->max_characters : 0);
        return NULL;
    }
    ossai_render_unmap_streams(r);
    glBindBuffer(GL_ARRAY_BUFFER, r->dynamic_stream);
    void *to = map_whole(GL_ARRAY_BUFFER, r->stream_stride * (size_t)r->max_characters,
                         r->stream_stride * (size_t)character_count);
    if (to && (uintptr_t)to % 16 != 0) {
        glUnmapBuffer(GL_ARRAY_BUFFER);
        ossa_error_set(error, OSSA_ERR_MISALIGNED, -1, -1,
                       "map streams: the driver mapped the buffer at %p, not 16-byte aligned",
                       to);
        return NULL;
    }
    if (!to) {
        ossa_error_set(error, OSSA_ERR_UNSUPPORTED, -1, -1,
                       "map streams: the driver could not map the buffer (%s)",
                       ossai_gl_error_name(glGetError()));
        return NULL;
    }
    r->mapped_count = character_count;
    return to;
}

size_t ossa_renderer_stream_bytes(const ossa_renderer *r)
{
    return r ? r->stream_stride : 0;
}

ossa_skin_format ossa_renderer_skinned_format(const ossa_renderer *r)
{
    return r ? r->format : OSSA_SKIN_FORMAT_FLOAT4;
}

/* Points the CPU-skinned attributes at character i's vertices in the dynamic
 * buffer: float4 as four floats each; packed as three floats and
 * 10:10:10:2 signed normalised words (skinning_job.h). */
static void point_attributes(const ossa_renderer *r, int i)
{
    const uintptr_t base = (uintptr_t)i * r->stream_stride;
    const GLsizei stride = r->vertex_bytes;
    if (r->format == OSSA_SKIN_FORMAT_PACKED) {
        glVertexAttribPointer(OSSAI_ATTR_POSITION, 3, GL_FLOAT, GL_FALSE, stride,
                              (const void *)base);
        glVertexAttribPointer(OSSAI_ATTR_NORMAL, 4, GL_INT_2_10_10_10_REV, GL_TRUE, stride,
                              (const void *)(base + 12));
        if (r->tangents)
            glVertexAttribPointer(OSSAI_ATTR_TANGENT, 4, GL_INT_2_10_10_10_REV, GL_TRUE, stride,
                                  (const void *)(base + 16));
        return;
    }
    glVertexAttribPointer(OSSAI_ATTR_POSITION, 4, GL_FLOAT, GL_FALSE, stride, (const void *)base);
    glVertexAttribPointer(OSSAI_ATTR_NORMAL, 4, GL_FLOAT, GL_FALSE, stride,
                          (const void *)(base + 16));
    if (r->tangents)
        glVertexAttribPointer(OSSAI_ATTR_TANGENT, 4, GL_FLOAT, GL_FALSE, stride,
                              (const void *)(base + 32));
}

/* Releases a mapping a frame does not use (nothing is drawn from it). */
void ossai_render_unmap_streams(ossa_renderer *r)
{
    if (!r->mapped_count)
        return;
    glBindBuffer(GL_ARRAY_BUFFER, r->dynamic_stream);
    glUnmapBuffer(GL_ARRAY_BUFFER);
    r->mapped_count = 0;
}

static bool draw_cpu_skinned(ossa_renderer *r, const ossa_render_frame *f, const float *vp,
                             ossa_render_timings *t)
{
    const int n = f->character_count;
    const size_t from_stride = f->skinned_stream_stride ? f->skinned_stream_stride : r->stream_bytes;
    const double t0 = ossai_render_now_ms();
    glBindVertexArray(r->vao_cpu);
    glBindBuffer(GL_ARRAY_BUFFER, r->dynamic_stream);
    const size_t bytes = r->stream_stride * (size_t)n;
    if (!f->streams_mapped) {
        uint8_t *to =
            map_whole(GL_ARRAY_BUFFER, r->stream_stride * (size_t)r->max_characters, bytes);
        if (!to)
            return false;
        const uint8_t *from = f->skinned_streams;
        for (int i = 0; i < n; ++i) { /* whole strides, front to back */
            memcpy(to + (size_t)i * r->stream_stride, from + (size_t)i * from_stride,
                   r->stream_bytes);
            memset(to + (size_t)i * r->stream_stride + r->stream_bytes, 0,
                   r->stream_stride - r->stream_bytes);
        }
    }
    r->mapped_count = 0;
    const bool ok = glUnmapBuffer(GL_ARRAY_BUFFER) == GL_TRUE;
    const double t1 = ossai_render_now_ms();
    const ossai_program *p = &r->programs[OSSAI_PROGRAM_CPU_SKINNED];
    begin_characters(p, f, vp);
    for (int i = 0; i < n; ++i) {
        point_attributes(r, i);
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
    const ossai_program *p = &r->programs[OSSAI_PROGRAM_GPU_SKINNED];
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
    if (!f->no_clear)
        glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    float vp[16];
    ossa_render_camera_matrix(&f->camera, (float)f->width / (float)f->height, vp);
    if (!f->no_ground)
        draw_ground(r, f, vp);
    t.submit_ms = ossai_render_now_ms() - t0;
    bool mapped = true;
    const bool cpu = f->character_count > 0 && f->skinning == OSSA_RENDER_SKINNING_CPU;
    if (!cpu || !f->streams_mapped)
        ossai_render_unmap_streams(r); /* a mapping this frame does not draw from */
    if (f->character_count > 0)
        mapped = cpu ? draw_cpu_skinned(r, f, vp, &t) : draw_gpu_skinned(r, f, vp, &t);
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
