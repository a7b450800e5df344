/* render_scene.h - what `ossa render`, `ossa view` and the demo's picture
 * draw: a crowd of one character (the embedded default, or a .ossa file's
 * skeleton, clips and first mesh) on a grid, each character playing a clip
 * from its own phase, on hills. Poses come from the runtime's jobs (sample ->
 * local->model -> IK (scene_ik.h) -> palette) and skinning from
 * ossa_skinning_job. */
#ifndef OSSA_RENDER_SCENE_H
#define OSSA_RENDER_SCENE_H

#include <stdbool.h>
#include <stddef.h>

#include "ossa/ossa.h"
#include "ossa/pipeline.h"
#include "ossa/render.h"
#include "scene_ik.h"

/* scene.clip when every character plays a clip of its own (i % clip_count). */
#define RENDER_SCENE_MIXED (-1)

/* What the characters show. */
typedef enum render_pose {
    RENDER_POSE_ANIMATED = 0, /* their clips (the rest pose without clips) */
    RENDER_POSE_REST,         /* the skeleton's rest pose, skinned */
    RENDER_POSE_BIND,         /* the mesh as stored: identity palettes, which
                                 may lie down (glTF need not bind upright) */
    RENDER_POSE_COUNT
} render_pose;

/* Times per clip at which the bounds of what is drawn are sampled. */
#define RENDER_SCENE_BOUNDS_SAMPLES 24

typedef struct render_scene {
    const ossa_skeleton *skeleton;
    const ossa_mesh *mesh;
    const ossa_clip **clips;
    int clip_count, joints, skin_joints, vertices;
    /* How CPU skinning writes the streams (render_scene_set_format; float4
     * after open) and one character's bytes in it. */
    ossa_skin_format format;
    size_t stream_bytes;
    const ossa_skin_plan *plan; /* the mesh's skin plan, for packed streams */
    void *plan_memory;
    /* The crowd: characters on the grid, all playing `clip`, or mixed, in
     * the pose chosen. */
    int characters, clip;
    render_pose pose;
    float spacing;
    uint16_t *clip_index;
    float *phase_s, *time_s;
    ossa_transform *local;
    ossa_mat34 *model, *palettes, *placements;
    void *streams;                      /* characters x stream_bytes, CPU-skinned */
    /* One character's extent in model space over everything it shows (its
     * clips at RENDER_SCENE_BOUNDS_SAMPLES times each, or its still pose),
     * and the crowd's, placed on the grid: what the camera frames. */
    ossa_float3 pose_min, pose_max;
    ossa_float3 bounds_min, bounds_max;
    /* Root motion (render_motion.c): each character's place on the grid
     * (NULL: in place), and how far the characters have come from their
     * places on average, which the camera follows. in_place: keep everyone
     * on their place. */
    ossa_mat34 *grid;
    ossa_float3 follow;
    bool in_place;
    scene_ik ik; /* hills, planted feet, heads that look */
    /* ownership */
    ossa_default_character character;
    bool has_character;
    void *blob_data;
} render_scene;

/* Places count characters whose model-space extent is [lo, hi] on the
 * ground grid the scenes use (a little apart; lifted onto the ground when
 * they reach well below it) and gives the box they fill, ground (y = 0)
 * included. Returns the spacing. */
float render_scene_layout(ossa_float3 lo, ossa_float3 hi, int count, ossa_mat34 *placements,
                          ossa_float3 *min, ossa_float3 *max);

/* Opens the default character (path NULL) or a .ossa file. */
bool render_scene_open(render_scene *s, const char *path, char *err, size_t err_bytes);
/* The layout CPU skinning writes (float4 until set); before
 * render_scene_populate, which sizes the streams. */
void render_scene_set_format(render_scene *s, ossa_skin_format format);
void render_scene_close(render_scene *s);
/* Index of the clip with this name, or -1. */
int render_scene_find_clip(const render_scene *s, const char *name);
/* The clip's name, or "mixed" for RENDER_SCENE_MIXED. */
const char *render_scene_clip_name(const render_scene *s, int clip);
/* (Re)lays out `characters` characters showing `pose`; clip is an index or
 * RENDER_SCENE_MIXED. Measures what they show (skinning each clip at
 * RENDER_SCENE_BOUNDS_SAMPLES times) so the camera frames it whole. */
bool render_scene_populate(render_scene *s, int characters, int clip, render_pose pose, char *err,
                           size_t err_bytes);
/* Every character's palette at world time t (character 0 at exactly t, the
 * others at t plus their phase), or the still pose the scene shows. */
ossa_result render_scene_pose(render_scene *s, float time_s);
/* One character's palettes (skin_joint_count) posed by clip at time_s, or
 * by the still pose (clip NULL, or pose not animated). */
ossa_result render_scene_pose_one(const render_scene *s, const ossa_clip *clip, float time_s,
                                  render_pose pose, ossa_mat34 *palette);
/* Skins every character's stream from its palette. */
ossa_result render_scene_skin(render_scene *s);
/* The same into streams + i * stride (stride >= the scene's stream_bytes),
 * with streaming stores when `stream`: how the tools skin straight into the
 * renderer's mapped buffer (ossa_renderer_map_streams). */
ossa_result render_scene_skin_into(render_scene *s, void *streams, size_t stride, bool stream);
/* A camera framing the whole crowd over everything it shows, for a
 * viewport of this aspect. */
ossa_render_camera render_scene_camera(const render_scene *s, float aspect, float yaw_rad,
                                       float pitch_rad);
/* A frame drawing the scene with its streams, palettes and placements. */
ossa_render_frame render_scene_frame(const render_scene *s, ossa_render_skinning skinning,
                                     const ossa_render_camera *camera, int width, int height);

#endif /* OSSA_RENDER_SCENE_H */
