/* skinning_crowd.c - see skinning_crowd.h. */
#include "skinning_crowd.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ossa/pipeline.h"
#include "scene_character.h"

static void *zalloc(size_t bytes)
{
    const size_t rounded = (bytes + 63) / 64 * 64;
    void *p = aligned_alloc(64, rounded ? rounded : 64);
    if (p)
        memset(p, 0, rounded ? rounded : 64);
    return p;
}

/* ---- raw meshes from runtime meshes ---- */

typedef struct raw_copy {
    ossa_raw_mesh raw;
    ossa_float3 *positions, *normals;
    ossa_float4 *tangents;
    int *offsets;
    ossa_raw_influence *influences;
    ossa_raw_skin_joint *skins;
} raw_copy;

static void raw_copy_fini(raw_copy *rc)
{
    void *blocks[] = {rc->positions, rc->normals, rc->tangents, rc->offsets, rc->influences,
                      rc->skins};
    for (size_t i = 0; i < sizeof blocks / sizeof blocks[0]; ++i)
        free(blocks[i]);
    memset(rc, 0, sizeof *rc);
}

/* The runtime mesh as a raw mesh in its runtime order, so that rebuilding it
 * gives the same vertices, groups and order. */
static bool raw_from_mesh(raw_copy *rc, const ossa_mesh *mesh, const ossa_skeleton *skeleton)
{
    memset(rc, 0, sizeof *rc);
    const int n = ossa_mesh_vertex_count(mesh), skins = ossa_mesh_skin_joint_count(mesh);
    const size_t floats = (size_t)ossa_mesh_skinned_stride(mesh) / 4;
    rc->positions = zalloc(sizeof(ossa_float3) * (size_t)n);
    rc->normals = zalloc(sizeof(ossa_float3) * (size_t)n);
    rc->tangents = ossa_mesh_has_tangents(mesh) ? zalloc(sizeof(ossa_float4) * (size_t)n) : NULL;
    rc->offsets = zalloc(sizeof(int) * ((size_t)n + 1));
    rc->influences = zalloc(sizeof(ossa_raw_influence) * 4 * (size_t)n);
    rc->skins = zalloc(sizeof(ossa_raw_skin_joint) * (size_t)skins);
    if (!rc->positions || !rc->normals || (ossa_mesh_has_tangents(mesh) && !rc->tangents) ||
        !rc->offsets || !rc->influences || !rc->skins) {
        raw_copy_fini(rc);
        return false;
    }
    const float *stream = ossa_mesh_bind_stream(mesh);
    int cursor = 0;
    for (int v = 0; v < n; ++v) {
        const float *x = stream + (size_t)v * floats;
        rc->positions[v] = (ossa_float3){x[0], x[1], x[2]};
        rc->normals[v] = (ossa_float3){x[4], x[5], x[6]};
        if (rc->tangents)
            rc->tangents[v] = (ossa_float4){x[8], x[9], x[10], x[11]};
        uint16_t j[4];
        float w[4];
        const int count = ossa_mesh_vertex_influences(mesh, v, j, w);
        rc->offsets[v] = cursor;
        for (int k = 0; k < count; ++k)
            rc->influences[cursor++] = (ossa_raw_influence){j[k], w[k]};
    }
    rc->offsets[n] = cursor;
    for (int k = 0; k < skins; ++k) {
        rc->skins[k].name = ossa_skeleton_joint_name(skeleton, ossa_mesh_skin_joints(mesh)[k]);
        rc->skins[k].inverse_bind = ossa_mesh_inverse_binds(mesh)[k];
    }
    ossa_raw_mesh *raw = &rc->raw;
    raw->name = ossa_mesh_name(mesh);
    raw->vertex_count = n;
    raw->positions = rc->positions;
    raw->normals = rc->normals;
    raw->tangents = rc->tangents;
    raw->uvs = ossa_mesh_uvs(mesh);
    raw->colors = ossa_mesh_colors(mesh);
    raw->indices = ossa_mesh_indices(mesh);
    raw->index_count = 3 * ossa_mesh_triangle_count(mesh);
    raw->influence_offsets = rc->offsets;
    raw->influences = rc->influences;
    raw->skin_joints = rc->skins;
    raw->skin_joint_count = skins;
    return true;
}

static ossa_mesh *build(const ossa_raw_mesh *raw, const ossa_skeleton *skeleton, bool tangents)
{
    ossa_mesh_build_options options = {0};
    options.no_tangents = !tangents;
    ossa_mesh *out = NULL;
    ossa_error e;
    if (ossa_mesh_build(raw, skeleton, &options, &out, NULL, &e) != OSSA_OK) {
        fprintf(stderr, "ossa bench: rebuilding the mesh: %s\n", e.message);
        return NULL;
    }
    return out;
}

ossa_mesh *skin_mesh_without_tangents(const ossa_mesh *mesh, const ossa_skeleton *skeleton)
{
    raw_copy rc;
    if (!raw_from_mesh(&rc, mesh, skeleton))
        return NULL;
    ossa_mesh *out = build(&rc.raw, skeleton, false);
    raw_copy_fini(&rc);
    return out;
}

static uint32_t next_random(uint32_t *state)
{
    *state = *state * 1664525u + 1013904223u;
    return *state >> 8;
}

/* The skeleton's first `count` joints as skin joints, bound in the rest pose. */
static bool rest_skin(const ossa_skeleton *skeleton, int count, ossa_raw_skin_joint *skins)
{
    const int joints = ossa_skeleton_joint_count(skeleton);
    ossa_mat34 *model = zalloc(sizeof(ossa_mat34) * (size_t)joints);
    const bool ok = model && scene_rest_models(skeleton, model);
    for (int k = 0; ok && k < count; ++k) {
        skins[k].name = ossa_skeleton_joint_name(skeleton, k);
        skins[k].inverse_bind = ossa_mat34_inverse(&model[k]);
    }
    free(model);
    return ok;
}

ossa_mesh *skin_synthetic_arnaud(const ossa_mesh *like, const ossa_skeleton *like_skeleton,
                                 const ossa_skeleton *skeleton)
{
    enum { VERTICES = 3934, TRIANGLES = 6670, ARNAUD_SKINS = 53 };
    /* arnaud.fbx through assimp: 36.5 / 39.6 / 18.0 / 5.0 % with 1..4
     * influences and 0.9 % with 5, which the builder reduces to 4. */
    static const int mix[4] = {1436, 1558, 708, 232};
    const bool own = !skeleton || skeleton == like_skeleton;
    const int joints = ossa_skeleton_joint_count(own ? like_skeleton : skeleton);
    const int skins = own || joints >= ARNAUD_SKINS ? ARNAUD_SKINS : joints;
    raw_copy rc;
    if ((own && ossa_mesh_skin_joint_count(like) < skins) || skins < 4 ||
        !raw_from_mesh(&rc, like, like_skeleton))
        return NULL;
    ossa_raw_skin_joint rest[ARNAUD_SKINS];
    if (!own && !rest_skin(skeleton, skins, rest)) {
        raw_copy_fini(&rc);
        return NULL;
    }
    ossa_raw_mesh raw = rc.raw;
    if (!own)
        raw.skin_joints = rest;
    ossa_float3 *positions = zalloc(sizeof(ossa_float3) * VERTICES);
    ossa_float3 *normals = zalloc(sizeof(ossa_float3) * VERTICES);
    ossa_float4 *tangents = zalloc(sizeof(ossa_float4) * VERTICES);
    int *offsets = zalloc(sizeof(int) * (VERTICES + 1));
    ossa_raw_influence *influences = zalloc(sizeof(ossa_raw_influence) * 4 * VERTICES);
    uint32_t *indices = zalloc(sizeof(uint32_t) * 3 * TRIANGLES);
    ossa_mesh *out = NULL;
    if (positions && normals && tangents && offsets && influences && indices) {
        uint32_t state = 12345u;
        int cursor = 0, group = 0, left = mix[0];
        for (int v = 0; v < VERTICES; ++v) {
            const int from = (int)(next_random(&state) % (uint32_t)rc.raw.vertex_count);
            positions[v] = rc.positions[from];
            normals[v] = rc.normals[from];
            tangents[v] = rc.tangents ? rc.tangents[from] : (ossa_float4){1, 0, 0, 1};
            while (left == 0)
                left = mix[++group];
            --left;
            /* Neighbouring joints, as skins have: base, base + 1, ... */
            const int count = group + 1, base = (int)(next_random(&state) % (skins - 3));
            offsets[v] = cursor;
            for (int k = 0; k < count; ++k)
                influences[cursor++] = (ossa_raw_influence){
                    base + k, 0.2f + (float)(next_random(&state) % 1000) / 1000.0f};
        }
        offsets[VERTICES] = cursor;
        for (int i = 0; i < 3 * TRIANGLES; ++i)
            indices[i] = next_random(&state) % VERTICES;
        raw.name = "synthetic-arnaud";
        raw.vertex_count = VERTICES;
        raw.positions = positions;
        raw.normals = normals;
        raw.tangents = tangents;
        raw.uvs = NULL;
        raw.colors = NULL;
        raw.indices = indices;
        raw.index_count = 3 * TRIANGLES;
        raw.influence_offsets = offsets;
        raw.influences = influences;
        raw.skin_joint_count = skins;
        out = build(&raw, own ? like_skeleton : skeleton, true);
    }
    free(positions);
    free(normals);
    free(tangents);
    free(offsets);
    free(influences);
    free(indices);
    raw_copy_fini(&rc);
    return out;
}

/* ---- the crowd ---- */

static bool palettes(skin_crowd *c, const ossa_skeleton *skeleton, const ossa_clip *const *clips,
                     int clip_count)
{
    const int n = c->characters, joints = ossa_skeleton_joint_count(skeleton);
    uint16_t *clip_index = zalloc(sizeof(uint16_t) * (size_t)n);
    float *time = zalloc(sizeof(float) * (size_t)n);
    ossa_transform *local = zalloc(sizeof(ossa_transform) * (size_t)n * (size_t)joints);
    ossa_mat34 *model = zalloc(sizeof(ossa_mat34) * (size_t)n * (size_t)joints);
    bool ok = clip_index && time && local && model;
    for (int i = 0; ok && i < n; ++i) {
        clip_index[i] = (uint16_t)(i % clip_count);
        /* Spread over each clip by the golden ratio: no two characters alike. */
        const double phase = fmod(0.6180339887 * i, 1.0);
        time[i] = (float)(phase * ossa_clip_duration(clips[i % clip_count]));
    }
    if (ok) {
        ossa_sampling_job s = {0};
        s.clips = clips;
        s.clip_count = clip_count;
        s.clip_index = clip_index;
        s.clip_index_count = n;
        s.time_s = time;
        s.character_count = n;
        s.rest_pose = ossa_skeleton_rest_pose(skeleton);
        s.rest_pose_count = joints;
        s.output = local;
        s.output_count = n * joints;
        ossa_local_to_model_job l = {0};
        l.parents = ossa_skeleton_parents(skeleton);
        l.joint_count = joints;
        l.local = local;
        l.local_count = n * joints;
        l.character_count = n;
        l.model = model;
        l.model_count = n * joints;
        ossa_palette_job p = {0};
        p.model = model;
        p.model_count = n * joints;
        p.joint_count = joints;
        p.skin_joint = ossa_mesh_skin_joints(c->mesh);
        p.inverse_bind = ossa_mesh_inverse_binds(c->mesh);
        p.skin_joint_count = c->skin_joints;
        p.character_count = n;
        p.palette = c->palettes;
        p.palette_count = n * c->skin_joints;
        ok = ossa_sampling_job_run(&s) == OSSA_OK && ossa_local_to_model_job_run(&l) == OSSA_OK &&
             ossa_palette_job_run(&p) == OSSA_OK;
    }
    free(clip_index);
    free(time);
    free(local);
    free(model);
    if (ok)
        naive_palette(c->palettes, n * c->skin_joints, c->palettes4);
    return ok;
}

bool skin_crowd_init(skin_crowd *c, const ossa_skeleton *skeleton, const ossa_clip *const *clips,
                     int clip_count, const ossa_mesh *mesh, int characters, char *err,
                     size_t err_bytes)
{
    memset(c, 0, sizeof *c);
    c->characters = characters;
    c->mesh = mesh;
    c->vertices = ossa_mesh_vertex_count(mesh);
    c->skin_joints = ossa_mesh_skin_joint_count(mesh);
    for (int i = 0; i < clip_count; ++i)
        if (ossa_clip_joint_count(clips[i]) != ossa_skeleton_joint_count(skeleton)) {
            snprintf(err, err_bytes, "clip '%s' does not animate the mesh's skeleton",
                     ossa_clip_name(clips[i]));
            return false;
        }
    for (int k = 0; k < c->skin_joints; ++k)
        if (ossa_mesh_skin_joints(mesh)[k] >= ossa_skeleton_joint_count(skeleton)) {
            snprintf(err, err_bytes, "mesh '%s' binds joints the skeleton does not have",
                     ossa_mesh_name(mesh));
            return false;
        }
    const size_t palette_count = (size_t)characters * (size_t)c->skin_joints;
    c->palettes = zalloc(sizeof(ossa_mat34) * palette_count);
    c->palettes4 = zalloc(sizeof(naive_mat4) * palette_count);
    size_t biggest = 0;
    c->mesh_pn = skin_mesh_without_tangents(mesh, skeleton);
    for (int s = 0; s < SKIN_STEP_COUNT; ++s) {
        const size_t b = skin_crowd_output_bytes(c, (skin_step)s);
        biggest = b > biggest ? b : biggest;
    }
    c->output_stride = (biggest + 63) / 64 * 64;
    c->outputs = zalloc(c->output_stride * (size_t)characters);
    c->stream_outputs = zalloc(c->output_stride * (size_t)characters);
    c->packed_stride = (skin_crowd_output_bytes(c, SKIN_PACKED) + 63) / 64 * 64;
    c->packed_outputs = zalloc(c->packed_stride * (size_t)characters);
    c->packed_stream_outputs = zalloc(c->packed_stride * (size_t)characters);
    const size_t plan_bytes = ossa_skin_plan_size(mesh);
    c->plan_memory = zalloc(plan_bytes);
    c->last = c->outputs;
    c->last_stride = c->output_stride;
    if (!c->palettes || !c->palettes4 || !c->mesh_pn || !c->outputs || !c->stream_outputs ||
        !c->packed_outputs || !c->packed_stream_outputs || !c->plan_memory ||
        ossa_skin_plan_init(&c->plan, c->plan_memory, plan_bytes, mesh) != OSSA_OK ||
        !naive_mesh_init(&c->naive, mesh)) {
        snprintf(err, err_bytes, "out of memory for %d characters of %d vertices", characters,
                 c->vertices);
        skin_crowd_fini(c);
        return false;
    }
    if (!palettes(c, skeleton, clips, clip_count)) {
        snprintf(err, err_bytes, "the runtime stages failed on this skeleton and clips");
        skin_crowd_fini(c);
        return false;
    }
    return true;
}

void skin_crowd_fini(skin_crowd *c)
{
    free(c->palettes);
    free(c->palettes4);
    free(c->outputs);
    free(c->stream_outputs);
    free(c->packed_outputs);
    free(c->packed_stream_outputs);
    free(c->plan_memory);
    ossa_mesh_free(c->mesh_pn, NULL);
    naive_mesh_fini(&c->naive);
    memset(c, 0, sizeof *c);
}

size_t skin_crowd_output_bytes(const skin_crowd *c, skin_step step)
{
    const size_t n = (size_t)c->vertices;
    switch (step) {
    case SKIN_NAIVE: return n * sizeof(naive_vertex);
    case SKIN_SPLIT: return n * sizeof(naive_skinned);
    case SKIN_LIBRARY_FULL:
    case SKIN_LIBRARY_STREAM: return n * (size_t)ossa_mesh_skinned_stride(c->mesh);
    case SKIN_PACKED:
    case SKIN_PACKED_PLAN:
    case SKIN_PACKED_STREAM: return ossa_skin_output_bytes(c->mesh, OSSA_SKIN_FORMAT_PACKED);
    default: return n * 32;
    }
}

unsigned char *skin_crowd_buffer(const skin_crowd *c, skin_step step)
{
    if (skin_step_packed(step))
        return skin_step_streams(step) ? c->packed_stream_outputs : c->packed_outputs;
    return skin_step_streams(step) ? c->stream_outputs : c->outputs;
}

size_t skin_crowd_stride(const skin_crowd *c, skin_step step)
{
    return skin_step_packed(step) ? c->packed_stride : c->output_stride;
}

const void *skin_crowd_output(const skin_crowd *c, int character)
{
    return c->last + (size_t)character * c->last_stride;
}

static void run_one(skin_crowd *c, skin_step step, ossa_simd_path path, int i)
{
    const size_t stride = skin_crowd_stride(c, step);
    void *out = skin_crowd_buffer(c, step) + (size_t)i * stride;
    const naive_mat4 *p4 = c->palettes4 + (size_t)i * (size_t)c->skin_joints;
    switch (step) {
    case SKIN_NAIVE: naive_skin_aos(&c->naive, p4, out); break;
    case SKIN_SPLIT: naive_skin_split(&c->naive, p4, out); break;
    case SKIN_FLOAT4: naive_skin_float4(&c->naive, p4, out); break;
    case SKIN_SORTED: naive_skin_sorted(&c->naive, p4, out); break;
    case SKIN_LIBRARY:
    case SKIN_LIBRARY_FULL:
    case SKIN_LIBRARY_STREAM:
    default: {
        ossa_skinning_job job = {0};
        job.mesh = step == SKIN_LIBRARY ? c->mesh_pn : c->mesh;
        job.palette = c->palettes + (size_t)i * (size_t)c->skin_joints;
        job.palette_count = c->skin_joints;
        job.output = out;
        job.output_bytes = stride;
        job.format = skin_step_packed(step) ? OSSA_SKIN_FORMAT_PACKED : OSSA_SKIN_FORMAT_FLOAT4;
        job.plan = step == SKIN_PACKED_PLAN || step == SKIN_PACKED_STREAM ? c->plan : NULL;
        job.path = path;
        job.stream_output = skin_step_streams(step);
        (void)ossa_skinning_job_run(&job); /* the bench checks the path is supported */
        break;
    }
    }
}

void skin_crowd_run(skin_crowd *c, skin_step step, ossa_simd_path path, int threads)
{
    c->last = skin_crowd_buffer(c, step);
    c->last_stride = skin_crowd_stride(c, step);
    const int n = c->characters;
#ifdef _OPENMP
    if (threads > 1) {
#pragma omp parallel for schedule(static) num_threads(threads)
        for (int i = 0; i < n; ++i)
            run_one(c, step, path, i);
        return;
    }
#else
    (void)threads;
#endif
    for (int i = 0; i < n; ++i)
        run_one(c, step, path, i);
}
