/* frame_setup.c - see frame_setup.h. */
#include "frame_setup.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* ---- the character ---- */

/* Points c at a validated blob's skeleton and clips. */
static int use_blob(frame_character *c, const char *what)
{
    ossa_blob blob;
    ossa_error e;
    if (ossa_blob_open(&blob, c->blob_data, c->blob_bytes, OSSA_BLOB_DEFAULT, &e) != OSSA_OK) {
        cli_error("bench frame", "%s", e.message);
        return 0;
    }
    if (!blob.skeleton || blob.clip_count < 1) {
        cli_error("bench frame", "%s: needs a skeleton and at least one clip (it has %s and %d "
                  "clips)", what, blob.skeleton ? "a skeleton" : "no skeleton", blob.clip_count);
        return 0;
    }
    c->skeleton = blob.skeleton;
    c->clip_count = blob.clip_count;
    c->clips = malloc(sizeof *c->clips * (size_t)blob.clip_count);
    for (int k = 0; k < blob.clip_count; ++k)
        c->clips[k] = ossa_blob_clip(&blob, k);
    return 1;
}

int frame_character_load(frame_character *c, const char *model, int synthetic_joints)
{
    memset(c, 0, sizeof *c);
    ossa_error e;
    int ok = 0;
    if (model) {
        ossa_blob blob;
        if (ossa_blob_load_file(model, NULL, &blob, &c->blob_data, &e) != OSSA_OK) {
            cli_error("bench frame", "%s", e.message);
            return 0;
        }
        c->blob_bytes = blob.bytes;
        ok = use_blob(c, model);
        snprintf(c->description, sizeof c->description, "%s", model);
    } else {
        /* built in memory, then stored in a blob and used from there, as a game
         * loads a character: skeleton and clips in one block */
        ossa_default_character def;
        synthetic_character synth;
        const ossa_skeleton *skeleton;
        const ossa_clip *clips[OSSA_DEFAULT_CLIP_COUNT > SYNTHETIC_CLIP_COUNT
                                   ? OSSA_DEFAULT_CLIP_COUNT
                                   : SYNTHETIC_CLIP_COUNT];
        int count;
        if (synthetic_joints > 0) {
            if (synthetic_character_build(synthetic_joints, &synth, &e) != OSSA_OK) {
                cli_error("bench frame", "%s", e.message);
                return 0;
            }
            skeleton = synth.skeleton;
            count = SYNTHETIC_CLIP_COUNT;
            for (int k = 0; k < count; ++k)
                clips[k] = synth.clips[k];
            snprintf(c->description, sizeof c->description, "synthetic %d-joint character",
                     synthetic_joints);
        } else {
            if (ossa_default_character_build(&def, NULL, &e) != OSSA_OK) {
                cli_error("bench frame", "default character: %s", e.message);
                return 0;
            }
            skeleton = def.skeleton;
            count = OSSA_DEFAULT_CLIP_COUNT;
            for (int k = 0; k < count; ++k)
                clips[k] = def.clips[k];
            snprintf(c->description, sizeof c->description, "default character");
        }
        ossa_blob_contents contents = {skeleton, clips, count, NULL, 0};
        ok = ossa_blob_write_memory(&contents, NULL, &c->blob_data, &c->blob_bytes, &e) ==
             OSSA_OK;
        if (!ok)
            cli_error("bench frame", "%s", e.message);
        if (synthetic_joints > 0)
            synthetic_character_free(&synth);
        else
            ossa_default_character_free(&def, NULL);
        ok = ok && use_blob(c, c->description);
    }
    if (!ok) {
        frame_character_free(c);
        return 0;
    }
    c->joints = ossa_skeleton_joint_count(c->skeleton);
    size_t bytes = 0;
    for (int k = 0; k < c->clip_count; ++k)
        bytes += ossa_clip_bytes(c->clips[k]);
    const size_t used = strlen(c->description);
    snprintf(c->description + used, sizeof c->description - used,
             " (%d joints, %d clips, %.0f KiB of keys)", c->joints, c->clip_count,
             (double)bytes / 1024.0);
    return 1;
}

void frame_character_free(frame_character *c)
{
    free((void *)c->clips);
    ossa_free(NULL, c->blob_data);
    memset(c, 0, sizeof *c);
}

/* ---- the scene ---- */

static uint32_t hash(uint32_t x)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    return x ^ (x >> 16);
}

static float unit(uint32_t seed)
{
    return (float)(hash(seed) >> 8) / 16777216.0f;
}

static void describe_character(const frame_scene *s, int i, ossa_character_desc *d)
{
    memset(d, 0, sizeof *d);
    d->clip_a = s->clip_a[i];
    d->clip_b = s->clip_b[i];
    d->weight_b = s->weight_b[i];
    d->time_s = s->time_a[i];
    d->speed = 0.8f + 0.45f * unit((uint32_t)i * 8u + 5u);
    const int side = (int)ceil(sqrt((double)s->characters));
    d->position = (ossa_float3){2.0f * (float)(i % side), 0.0f, 2.0f * (float)(i / side)};
    d->yaw_rad = 6.2831853f * unit((uint32_t)i * 8u + 6u);
}

static int spawn_crowd(frame_scene *s)
{
    for (int i = 0; i < s->characters; ++i) {
        ossa_character_desc d;
        describe_character(s, i, &d);
        ossa_entity e;
        ossa_result r = ossa_crowd_spawn(s->crowd, &d, &e);
        if (r != OSSA_OK) {
            cli_error("bench frame", "spawning character %d: %s", i, ossa_result_str(r));
            return 0;
        }
    }
    return 1;
}

int frame_scene_reset_crowd(frame_scene *s)
{
    ossa_crowd_desc d = {0};
    d.skeleton = s->character->skeleton;
    d.clips = s->character->clips;
    d.clip_count = s->character->clip_count;
    d.capacity = s->characters;
    d.width = s->width;
    d.path = s->path;
    const size_t bytes = ossa_crowd_size(&d);
    ossa_result r = ossa_crowd_init(&s->crowd, s->crowd_memory, bytes, &d);
    if (r != OSSA_OK) {
        cli_error("bench frame", "crowd: %s", ossa_result_str(r));
        return 0;
    }
    return spawn_crowd(s);
}

int frame_scene_init(frame_scene *s, const frame_character *c, int characters, int threads,
                     int width, ossa_lane_path path, unsigned parts)
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
    const size_t n = (size_t)characters, nj = n * (size_t)c->joints;
    s->clip_a = cli_alloc(sizeof *s->clip_a * n);
    s->clip_b = cli_alloc(sizeof *s->clip_b * n);
    s->time_a = cli_alloc(sizeof *s->time_a * n);
    s->time_b = cli_alloc(sizeof *s->time_b * n);
    s->weight_a = cli_alloc(sizeof *s->weight_a * n);
    s->weight_b = cli_alloc(sizeof *s->weight_b * n);
    for (int i = 0; i < characters; ++i) { /* variety, deterministic */
        const uint32_t k = (uint32_t)i * 8u;
        s->clip_a[i] = (uint16_t)(hash(k) % (uint32_t)c->clip_count);
        s->clip_b[i] = (uint16_t)((s->clip_a[i] + 1) % c->clip_count);
        s->time_a[i] = s->time_b[i] = 3.0f * unit(k + 1);
        s->weight_b[i] = unit(k + 2);
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
    }
    if (parts & FRAME_CROWD) {
        ossa_crowd_desc d = {0};
        d.skeleton = c->skeleton;
        d.clips = c->clips;
        d.clip_count = c->clip_count;
        d.capacity = characters;
        d.width = s->width;
        d.path = path;
        const size_t bytes = ossa_crowd_size(&d);
        if (!bytes) {
            cli_error("bench frame", "this character cannot make a crowd");
            frame_scene_fini(s);
            return 0;
        }
        s->crowd_memory = cli_alloc(bytes);
        if (!frame_scene_reset_crowd(s)) {
            frame_scene_fini(s);
            return 0;
        }
        s->scratch_bytes = ossa_crowd_scratch_size(s->crowd);
        for (int t = 0; t < s->threads; ++t)
            s->scratch[t] = cli_alloc(s->scratch_bytes);
    }
    return 1;
}

void frame_scene_fini(frame_scene *s)
{
    void *blocks[] = {s->clip_a,    s->clip_b,     s->time_a,    s->time_b,   s->weight_a,
                      s->weight_b,  s->lane_a,     s->lane_b,    s->lane_pose, s->lane_model,
                      s->pose_out,  s->ref_a,      s->ref_b,     s->ref_pose, s->ref_model,
                      s->crowd_memory};
    for (size_t i = 0; i < sizeof blocks / sizeof blocks[0]; ++i)
        cli_free(blocks[i]);
    for (int t = 0; t < FRAME_MAX_THREADS; ++t) {
        cli_free(s->scratch[t]);
        cli_free(s->fused_scratch[t]);
    }
    for (int k = 0; k < FRAME_STAGES; ++k) {
        free(s->lanes_timing.ns[k]);
        free(s->reference_timing.ns[k]);
        free(s->fused_timing.ns[k]);
    }
    memset(s, 0, sizeof *s);
}

ossa_result frame_scene_result(const frame_scene *s)
{
    for (int t = 0; t < FRAME_MAX_THREADS; ++t)
        if (s->result[t] != OSSA_OK)
            return s->result[t];
    return OSSA_OK;
}

