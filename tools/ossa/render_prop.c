/* render_prop.c - see render_prop.h. The stick is a box from the joint
 * outwards, built as a one-joint skinned mesh (vertices in the socket's
 * space, inverse bind identity), so its palette is the socket's transform. */
#include "render_prop.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "ossa/pipeline.h"
#include "scene_character.h"

/* A box x in [0, length], y and z in [-half, half]: 6 faces of 4 vertices. */
static ossa_result build_stick(const ossa_skeleton *skeleton, const char *joint, float length,
                               float half, ossa_mesh **out, ossa_error *error)
{
    ossa_float3 positions[24], normals[24];
    uint32_t indices[36];
    int offsets[25];
    ossa_raw_influence influences[24];
    for (int f = 0; f < 6; ++f) {
        const int axis = f / 2;
        const float sign = f % 2 ? 1.0f : -1.0f;
        for (int k = 0; k < 4; ++k) {
            float c[3];
            const int u = (axis + 1) % 3, v = (axis + 2) % 3;
            c[axis] = sign;
            c[u] = (k == 1 || k == 2) ? 1.0f : -1.0f;
            c[v] = k >= 2 ? 1.0f : -1.0f;
            const int i = 4 * f + k;
            positions[i] = (ossa_float3){(c[0] + 1.0f) * 0.5f * length, c[1] * half, c[2] * half};
            normals[i] = (ossa_float3){axis == 0 ? sign : 0.0f, axis == 1 ? sign : 0.0f,
                                       axis == 2 ? sign : 0.0f};
            influences[i] = (ossa_raw_influence){0, 1.0f};
            offsets[i] = i;
        }
        const uint32_t b = (uint32_t)(4 * f);
        const uint32_t tri[6] = {b, b + 1, b + 2, b, b + 2, b + 3};
        memcpy(indices + 6 * f, tri, sizeof tri);
    }
    offsets[24] = 24;
    const ossa_raw_skin_joint skin = {joint, ossa_mat34_identity()};
    const ossa_raw_mesh raw = {"prop", 24, positions, normals, NULL, NULL, NULL, indices, 36,
                               offsets, influences, &skin, 1};
    return ossa_mesh_build(&raw, skeleton, NULL, out, NULL, error);
}

bool render_prop_open(render_prop *p, const render_scene *s, const char *joint, char *err,
                      size_t err_bytes)
{
    memset(p, 0, sizeof *p);
    const int j = ossa_skeleton_find_joint(s->skeleton, joint);
    if (j < 0) {
        int at = snprintf(err, err_bytes, "--prop %s: no such joint; hands here:", joint);
        for (int k = 0; k < s->joints && at < (int)err_bytes - 40; ++k) {
            char lower[64];
            snprintf(lower, sizeof lower, "%s", ossa_skeleton_joint_name(s->skeleton, k));
            for (char *c = lower; *c; ++c)
                *c = (char)(*c >= 'A' && *c <= 'Z' ? *c - 'A' + 'a' : *c);
            if (strstr(lower, "hand") && !strstr(lower, "thumb") && !strstr(lower, "index") &&
                !strstr(lower, "middle") && !strstr(lower, "ring") && !strstr(lower, "pinky"))
                at += snprintf(err + at, err_bytes - (size_t)at, " %s",
                               ossa_skeleton_joint_name(s->skeleton, k));
        }
        return false;
    }
    p->rest = cli_alloc(sizeof *p->rest * (size_t)s->joints);
    if (!scene_rest_models(s->skeleton, p->rest)) {
        snprintf(err, err_bytes, "--prop: the rest pose cannot be walked");
        render_prop_close(p);
        return false;
    }
    /* along the bone into the joint (from its parent), in the joint's space */
    const int parent = ossa_skeleton_parents(s->skeleton)[j];
    const ossa_mat34 *m = &p->rest[j];
    ossa_float3 d = {0.0f, 1.0f, 0.0f};
    float bone = 0.1f;
    if (parent != OSSA_NO_PARENT) {
        const ossa_mat34 *q = &p->rest[parent];
        d = (ossa_float3){m->m[0][3] - q->m[0][3], m->m[1][3] - q->m[1][3],
                          m->m[2][3] - q->m[2][3]};
        bone = sqrtf(d.x * d.x + d.y * d.y + d.z * d.z);
    }
    const ossa_mat34 inv = ossa_mat34_inverse(m);
    ossa_float3 x = ossa_mat34_transform_vector(&inv, d);
    const float lx = sqrtf(x.x * x.x + x.y * x.y + x.z * x.z);
    x = lx > 0.0f ? (ossa_float3){x.x / lx, x.y / lx, x.z / lx} : (ossa_float3){1, 0, 0};
    /* any two axes across it */
    ossa_float3 y = fabsf(x.y) < 0.9f ? (ossa_float3){0, 1, 0} : (ossa_float3){1, 0, 0};
    ossa_float3 z = {x.y * y.z - x.z * y.y, x.z * y.x - x.x * y.z, x.x * y.y - x.y * y.x};
    const float lz = sqrtf(z.x * z.x + z.y * z.y + z.z * z.z);
    z = (ossa_float3){z.x / lz, z.y / lz, z.z / lz};
    y = (ossa_float3){z.y * x.z - z.z * x.y, z.z * x.x - z.x * x.z, z.x * x.y - z.y * x.x};
    p->socket.joint = j;
    p->socket.offset = (ossa_mat34){{{x.x, y.x, z.x, 0.0f}, {x.y, y.y, z.y, 0.0f},
                                     {x.z, y.z, z.z, 0.0f}}};
    const float length = 2.5f * (bone > 0.0f ? bone : 0.1f);
    ossa_error error;
    if (build_stick(s->skeleton, joint, length, 0.05f * length, &p->mesh, &error) != OSSA_OK) {
        snprintf(err, err_bytes, "--prop: %s", error.message);
        render_prop_close(p);
        return false;
    }
    return true;
}

void render_prop_close(render_prop *p)
{
    ossa_renderer_destroy(p->renderer);
    ossa_mesh_free(p->mesh, NULL);
    cli_free(p->palettes);
    cli_free(p->rest);
    memset(p, 0, sizeof *p);
}

bool render_prop_draw(render_prop *p, const render_scene *s, const ossa_render_camera *camera,
                      int width, int height, char *err, size_t err_bytes)
{
    const int n = s->characters;
    ossa_error error;
    if (n > p->capacity) {
        ossa_renderer_destroy(p->renderer);
        p->renderer = NULL;
        cli_free(p->palettes);
        p->palettes = cli_alloc(sizeof *p->palettes * (size_t)n);
        /* GPU-skinned: no CPU streams, so their format does not matter */
        const ossa_renderer_desc desc = {p->mesh, n, OSSA_SKIN_FORMAT_FLOAT4};
        if (ossa_renderer_create(&desc, &p->renderer, &error) != OSSA_OK) {
            snprintf(err, err_bytes, "--prop: %s", error.message);
            return false;
        }
        p->capacity = n;
    }
    const bool animated = s->pose == RENDER_POSE_ANIMATED && s->clip_count > 0;
    for (int i = 0; i < n; ++i) {
        const ossa_mat34 *pose = animated ? s->model + (size_t)i * (size_t)s->joints : p->rest;
        ossa_socket_transform(pose, s->joints, &p->socket, &p->palettes[i]);
    }
    float *tints = cli_alloc(sizeof(float) * 3 * (size_t)n);
    for (int i = 0; i < 3 * n; ++i)
        tints[i] = 0.55f; /* steel grey */
    ossa_render_frame f;
    memset(&f, 0, sizeof f);
    f.skinning = OSSA_RENDER_SKINNING_GPU;
    f.character_count = n;
    f.palettes = p->palettes;
    f.placements = s->placements;
    f.tints = tints;
    f.camera = *camera;
    f.width = width;
    f.height = height;
    f.no_ground = true;
    f.no_clear = true;
    const ossa_result r = ossa_renderer_draw(p->renderer, &f, NULL, &error);
    cli_free(tints);
    if (r != OSSA_OK)
        snprintf(err, err_bytes, "--prop: %s", error.message);
    return r == OSSA_OK;
}
