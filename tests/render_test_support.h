/* render_test_support.h - shared by the renderer's tests (render_test.c,
 * render_validation_test.c): a headless context with the default character
 * and a renderer (skipping only when no EGL display opens), and the
 * palettes and skinned streams of posed characters from the runtime's jobs. */
#ifndef OSSA_RENDER_TEST_SUPPORT_H
#define OSSA_RENDER_TEST_SUPPORT_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ossa/ossa.h"
#include "ossa/pipeline.h"
#include "ossa/render.h"
#include "render_support.h"
#include "test_support.h"
#include "utest.h"

/* The pictures' size. */
#define W 320
#define H 240

/* ---- a headless context, the default character and a renderer ---- */

typedef struct fixture {
    ossa_render_headless *headless;
    ossa_renderer *renderer;
    ossa_default_character character;
    bool has_character;
} fixture;

static inline void close_fixture(fixture *f)
{
    ossa_renderer_destroy(f->renderer);
    ossa_render_headless_destroy(f->headless);
    if (f->has_character)
        ossa_default_character_free(&f->character, NULL);
    memset(f, 0, sizeof *f);
}

/* True when ready. False with *skip set when no EGL display exists at all,
 * false with *skip NULL (and the reason printed) on any other failure. The
 * renderer draws float4 vertices. */
static inline bool open_fixture(fixture *f, int max_characters, const char **skip)
{
    memset(f, 0, sizeof *f);
    *skip = ts_no_egl_display();
    if (*skip)
        return false;
    ossa_error e;
    const ossa_render_headless_desc hd = {W, H, 0};
    if (ossa_render_headless_create(&hd, &f->headless, &e) != OSSA_OK) {
        fprintf(stderr, "headless context: %s\n", e.message);
        return false;
    }
    if (ossa_default_character_build(&f->character, NULL, &e) != OSSA_OK) {
        fprintf(stderr, "default character: %s\n", e.message);
        close_fixture(f);
        return false;
    }
    f->has_character = true;
    const ossa_renderer_desc rd = {f->character.mesh, max_characters, OSSA_SKIN_FORMAT_FLOAT4};
    if (ossa_renderer_create(&rd, &f->renderer, &e) != OSSA_OK) {
        fprintf(stderr, "renderer: %s\n", e.message);
        close_fixture(f);
        return false;
    }
    return true;
}

#define OPEN_FIXTURE(f, max)                                                                   \
    do {                                                                                       \
        const char *skip_ = NULL;                                                              \
        if (!open_fixture(&(f), (max), &skip_)) {                                              \
            if (skip_)                                                                         \
                SKIP(skip_);                                                                   \
            REQUIRE(false && "the headless renderer opens");                                   \
        }                                                                                      \
    } while (0)

/* ---- poses: palettes from the runtime's jobs ---- */

/* count characters, character i playing clip (by name; NULL: bind pose) at
 * time_s + i * 0.13 s. */
static inline ossa_mat34 *palettes(const ossa_default_character *c, const char *clip,
                                   float time_s, int count)
{
    const ossa_mesh *mesh = c->mesh;
    const int joints = ossa_skeleton_joint_count(c->skeleton);
    const int skins = ossa_mesh_skin_joint_count(mesh);
    ossa_mat34 *out = ts_aligned(sizeof(ossa_mat34) * (size_t)skins * (size_t)count);
    if (!clip) {
        for (int k = 0; k < skins * count; ++k)
            out[k] = ossa_mat34_identity();
        return out;
    }
    const ossa_clip *chosen = NULL;
    for (int i = 0; i < OSSA_DEFAULT_CLIP_COUNT; ++i)
        if (strcmp(ossa_clip_name(c->clips[i]), clip) == 0)
            chosen = c->clips[i];
    if (!chosen)
        abort();
    float *times = ts_aligned(sizeof(float) * (size_t)count);
    ossa_transform *local = ts_aligned(sizeof(ossa_transform) * (size_t)joints * (size_t)count);
    ossa_mat34 *model = ts_aligned(sizeof(ossa_mat34) * (size_t)joints * (size_t)count);
    for (int i = 0; i < count; ++i)
        times[i] = time_s + 0.13f * (float)i;
    ossa_sampling_job s = {0};
    s.clips = &chosen;
    s.clip_count = 1;
    s.time_s = times;
    s.character_count = count;
    s.output = local;
    s.output_count = joints * count;
    ossa_local_to_model_job l = {0};
    l.parents = ossa_skeleton_parents(c->skeleton);
    l.joint_count = joints;
    l.local = local;
    l.local_count = joints * count;
    l.character_count = count;
    l.model = model;
    l.model_count = joints * count;
    ossa_palette_job p = {0};
    p.model = model;
    p.model_count = joints * count;
    p.joint_count = joints;
    p.skin_joint = ossa_mesh_skin_joints(mesh);
    p.inverse_bind = ossa_mesh_inverse_binds(mesh);
    p.skin_joint_count = skins;
    p.character_count = count;
    p.palette = out;
    p.palette_count = skins * count;
    if (ossa_sampling_job_run(&s) || ossa_local_to_model_job_run(&l) || ossa_palette_job_run(&p))
        abort();
    free(times);
    free(local);
    free(model);
    return out;
}

/* The streams the CPU path draws: ossa_skinning_job's output in `format`,
 * characters one after the other. */
static inline void *skin_streams_as(const ossa_mesh *mesh, const ossa_mat34 *pal, int count,
                                    ossa_skin_format format)
{
    const size_t bytes = ossa_skin_output_bytes(mesh, format);
    const int skins = ossa_mesh_skin_joint_count(mesh);
    void *out = ts_aligned(bytes * (size_t)count);
    for (int i = 0; i < count; ++i) {
        ossa_skinning_job job = {0};
        job.mesh = mesh;
        job.palette = pal + (size_t)i * (size_t)skins;
        job.palette_count = skins;
        job.output = (char *)out + (size_t)i * bytes;
        job.output_bytes = bytes;
        job.format = format;
        if (ossa_skinning_job_run(&job) != OSSA_OK)
            abort();
    }
    return out;
}

static inline float *skin_streams(const ossa_mesh *mesh, const ossa_mat34 *pal, int count)
{
    return skin_streams_as(mesh, pal, count, OSSA_SKIN_FORMAT_FLOAT4);
}

#endif /* OSSA_RENDER_TEST_SUPPORT_H */
