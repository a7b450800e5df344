/* frame_setup.c - see frame_setup.h. */
#include "frame_setup.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "ossa/pipeline.h"
#include "skinning_crowd.h"
#include "synthetic_character.h"

/* ---- the character ---- */

/* A synthetic skeleton and clips wearing an arnaud-shaped mesh built from
 * the default character's body. */
static int load_synthetic(frame_character *c, int joints)
{
    ossa_default_character def;
    synthetic_character synth;
    ossa_error e;
    if (ossa_default_character_build(&def, NULL, &e) != OSSA_OK) {
        cli_error("bench frame", "default character: %s", e.message);
        return 0;
    }
    if (synthetic_character_build(joints, &synth, &e) != OSSA_OK) {
        cli_error("bench frame", "%s", e.message);
        ossa_default_character_free(&def, NULL);
        return 0;
    }
    ossa_mesh *mesh = skin_synthetic_arnaud(def.mesh, def.skeleton, synth.skeleton);
    int ok = 0;
    if (!mesh) {
        cli_error("bench frame", "cannot build the arnaud-shaped mesh");
    } else {
        char name[64];
        snprintf(name, sizeof name, "synthetic %d-joint character", joints);
        const ossa_clip *clips[SYNTHETIC_CLIP_COUNT];
        for (int k = 0; k < SYNTHETIC_CLIP_COUNT; ++k)
            clips[k] = synth.clips[k];
        ok = scene_character_from_parts(c, synth.skeleton, clips, SYNTHETIC_CLIP_COUNT, mesh, name,
                                        "bench frame");
    }
    ossa_mesh_free(mesh, NULL);
    synthetic_character_free(&synth);
    ossa_default_character_free(&def, NULL);
    return ok;
}

int frame_character_load(frame_character *c, const char *model, int synthetic_joints)
{
    if (model)
        return scene_character_load_file(c, model, "bench frame");
    if (synthetic_joints > 0)
        return load_synthetic(c, synthetic_joints);
    return scene_character_load_default(c, "bench frame");
}

void frame_character_free(frame_character *c)
{
    scene_character_free(c);
}

/* ---- the scene ---- */

static void describe_character(const frame_scene *s, int i, ossa_character_desc *d)
{
    memset(d, 0, sizeof *d);
    d->clip_a = s->clip_a[i];
    d->clip_b = s->clip_b[i];
    d->weight_b = s->weight_b[i];
    d->time_s = s->time_a[i];
    d->speed = 0.8f + 0.45f * cli_unit((uint32_t)i * 8u + 5u);
    const int side = (int)ceil(sqrt((double)s->characters));
    d->position = (ossa_float3){2.0f * (float)(i % side), 0.0f, 2.0f * (float)(i / side)};
    d->yaw_rad = 6.2831853f * cli_unit((uint32_t)i * 8u + 6u);
    d->skinned = i < s->skinned;
}

void frame_scene_sort_by_clip(frame_scene *s)
{
    const int n = s->characters, clips = s->character->clip_count;
    const size_t scratch_bytes = ossa_lane_clip_order_scratch_size(n, clips);
    void *scratch = cli_alloc(scratch_bytes);
    int *order = cli_alloc(sizeof *order * (size_t)n);
    if (ossa_lane_clip_order(s->clip_a, n, clips, s->width, order, scratch, scratch_bytes) !=
        OSSA_OK) {
        /* the bench's own clip indices and width: cannot be refused */
        cli_error("bench frame", "ossa_lane_clip_order refused the scene");
        exit(1);
    }
    uint16_t *u = cli_alloc(sizeof *u * (size_t)n);
    float *f = cli_alloc(sizeof *f * (size_t)n);
    uint16_t *const clip_columns[2] = {s->clip_a, s->clip_b};
    float *const float_columns[4] = {s->time_a, s->time_b, s->weight_a, s->weight_b};
    for (int c = 0; c < 2; ++c) {
        for (int p = 0; p < n; ++p)
            u[p] = clip_columns[c][order[p]];
        memcpy(clip_columns[c], u, sizeof *u * (size_t)n);
    }
    for (int c = 0; c < 4; ++c) {
        for (int p = 0; p < n; ++p)
            f[p] = float_columns[c][order[p]];
        memcpy(float_columns[c], f, sizeof *f * (size_t)n);
    }
    cli_free(f);
    cli_free(u);
    cli_free(order);
    cli_free(scratch);
}

int frame_scene_reset_crowd(frame_scene *s)
{
    ossa_crowd_desc d = scene_crowd_desc(s->character, s->characters, s->skinned);
    d.width = s->width;
    d.path = s->path;
    d.no_clip_order = s->no_clip_order;
    d.prefetch_clips = s->prefetch_clips;
    const size_t bytes = ossa_crowd_size(&d);
    if (!bytes) {
        cli_error("bench frame", "this character cannot make a crowd");
        return 0;
    }
    if (!s->crowd_memory)
        s->crowd_memory = cli_alloc(bytes);
    ossa_result r = ossa_crowd_init(&s->crowd, s->crowd_memory, bytes, &d);
    for (int i = 0; r == OSSA_OK && i < s->characters; ++i) {
        ossa_character_desc cd;
        describe_character(s, i, &cd);
        ossa_entity e;
        r = ossa_crowd_spawn(s->crowd, &cd, &e);
    }
    if (r != OSSA_OK) {
        cli_error("bench frame", "crowd: %s", ossa_result_str(r));
        return 0;
    }
    crowd_runner_fini(&s->runner);
    return crowd_runner_init(&s->runner, s->crowd, s->skinned ? s->mesh : NULL, s->skinned,
                             s->skin_format,
                             s->threads);
}

static void *zeroed(size_t bytes)
{
    void *p = cli_alloc(bytes);
    memset(p, 0, bytes);
    return p;
}

int frame_scene_init(frame_scene *s, const frame_character *c, int characters, int skinned,
                     int threads, int width, ossa_simd_path path, ossa_skin_format skin_format,
                     unsigned parts)
{
    memset(s, 0, sizeof *s);
    s->character = c;
    s->characters = characters;
    s->joints = c->joints;
    s->threads = threads < 1 ? 1 : (threads > FRAME_MAX_THREADS ? FRAME_MAX_THREADS : threads);
    s->width = width ? width : ossa_lane_width();
    s->batches = ossa_lane_batch_count(characters, s->width);
    s->path = path;
    s->dt = 1.0f / 30.0f;
    s->mesh = c->mesh;
    s->skinned = c->mesh ? (skinned < characters ? skinned : characters) : 0;
    s->skin_format = skin_format;
    if (s->skinned) {
        s->skins = ossa_mesh_skin_joint_count(c->mesh);
        s->vertices = ossa_mesh_vertex_count(c->mesh);
        s->stream_bytes = (ossa_skin_output_bytes(c->mesh, skin_format) + 63) / 64 * 64;
        s->ref_stream_bytes =
            (ossa_skin_output_bytes(c->mesh, OSSA_SKIN_FORMAT_FLOAT4) + 63) / 64 * 64;
        const size_t plan_bytes = ossa_skin_plan_size(c->mesh);
        s->plan_memory = cli_alloc(plan_bytes);
        if (ossa_skin_plan_init(&s->plan, s->plan_memory, plan_bytes, c->mesh) != OSSA_OK)
            s->plan = NULL; /* not reached: the memory fits */
    }
    const size_t n = (size_t)characters, nj = n * (size_t)c->joints;
    const size_t palette = (size_t)s->skinned * (size_t)s->skins;
    const size_t streams = (size_t)s->skinned * s->stream_bytes;
    s->clip_a = cli_alloc(sizeof *s->clip_a * n);
    s->clip_b = cli_alloc(sizeof *s->clip_b * n);
    s->time_a = cli_alloc(sizeof *s->time_a * n);
    s->time_b = cli_alloc(sizeof *s->time_b * n);
    s->weight_a = cli_alloc(sizeof *s->weight_a * n);
    s->weight_b = cli_alloc(sizeof *s->weight_b * n);
    for (int i = 0; i < characters; ++i) { /* variety, deterministic */
        const uint32_t k = (uint32_t)i * 8u;
        s->clip_a[i] = (uint16_t)(cli_hash(k) % (uint32_t)c->clip_count);
        s->clip_b[i] = (uint16_t)((s->clip_a[i] + 1) % c->clip_count);
        s->time_a[i] = s->time_b[i] = 3.0f * cli_unit(k + 1);
        s->weight_b[i] = cli_unit(k + 2);
        s->weight_a[i] = 1.0f - s->weight_b[i];
    }
    if (parts & FRAME_STAGED) {
        s->pose_floats = ossa_lane_pose_floats(c->joints, characters, s->width);
        s->model_floats = ossa_lane_model_floats(c->joints, characters, s->width);
        s->lane_a = cli_alloc(sizeof(float) * s->pose_floats);
        s->lane_b = cli_alloc(sizeof(float) * s->pose_floats);
        s->lane_pose = cli_alloc(sizeof(float) * s->pose_floats);
        s->lane_model = cli_alloc(sizeof(float) * s->model_floats);
        s->pose_out = cli_alloc(sizeof(ossa_mat34) * nj);
        s->lane_palette = cli_alloc(sizeof(ossa_mat34) * palette);
        s->lane_streams = zeroed(streams);
        const size_t batch = 3 * ossa_lane_pose_floats(c->joints, s->width, s->width) +
                             ossa_lane_model_floats(c->joints, s->width, s->width);
        for (int t = 0; t < s->threads; ++t)
            s->fused_scratch[t] = cli_alloc(sizeof(float) * batch);
    }
    if (parts & FRAME_REFERENCE) {
        s->ref_a = cli_alloc(sizeof(ossa_transform) * nj);
        s->ref_b = cli_alloc(sizeof(ossa_transform) * nj);
        s->ref_pose = cli_alloc(sizeof(ossa_transform) * nj);
        s->ref_model = cli_alloc(sizeof(ossa_mat34) * nj);
        s->ref_palette = cli_alloc(sizeof(ossa_mat34) * palette);
        s->ref_streams = zeroed((size_t)s->skinned * s->ref_stream_bytes);
    }
    if ((parts & FRAME_CROWD) && !frame_scene_reset_crowd(s)) {
        frame_scene_fini(s);
        return 0;
    }
    return 1;
}

void frame_scene_fini(frame_scene *s)
{
    crowd_runner_fini(&s->runner);
    void *blocks[] = {s->clip_a,       s->clip_b,      s->time_a,       s->time_b,
                      s->weight_a,     s->weight_b,    s->lane_a,       s->lane_b,
                      s->lane_pose,    s->lane_model,  s->pose_out,     s->lane_palette,
                      s->lane_streams, s->ref_a,       s->ref_b,        s->ref_pose,
                      s->ref_model,    s->ref_palette, s->ref_streams,  s->crowd_memory,
                      s->plan_memory};
    for (size_t i = 0; i < sizeof blocks / sizeof blocks[0]; ++i)
        cli_free(blocks[i]);
    for (int t = 0; t < FRAME_MAX_THREADS; ++t)
        cli_free(s->fused_scratch[t]);
    frame_timing *timings[] = {&s->lanes_timing, &s->reference_timing, &s->fused_timing,
                               &s->crowd_timing};
    for (size_t i = 0; i < sizeof timings / sizeof timings[0]; ++i)
        for (int k = 0; k < FRAME_STAGES; ++k)
            free(timings[i]->ns[k]);
    memset(s, 0, sizeof *s);
}

ossa_result frame_scene_result(const frame_scene *s)
{
    for (int t = 0; t < FRAME_MAX_THREADS; ++t)
        if (s->result[t] != OSSA_OK)
            return s->result[t];
    return OSSA_OK;
}
