/* render_scene.c - see render_scene.h. */
#include "render_scene.h"

#include "render_motion.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

bool render_scene_open(render_scene *s, const char *path, char *err, size_t err_bytes)
{
    memset(s, 0, sizeof *s);
    ossa_error error;
    if (!path) {
        if (ossa_default_character_build(&s->character, NULL, &error) != OSSA_OK) {
            snprintf(err, err_bytes, "default character: %s", error.message);
            return false;
        }
        s->has_character = true;
        s->skeleton = s->character.skeleton;
        s->mesh = s->character.mesh;
        s->clip_count = OSSA_DEFAULT_CLIP_COUNT;
        s->clips = cli_alloc(sizeof *s->clips * OSSA_DEFAULT_CLIP_COUNT);
        for (int i = 0; i < OSSA_DEFAULT_CLIP_COUNT; ++i)
            s->clips[i] = s->character.clips[i];
    } else {
        ossa_blob blob;
        if (ossa_blob_load_file(path, NULL, &blob, &s->blob_data, &error) != OSSA_OK) {
            snprintf(err, err_bytes, "%s", error.message);
            return false;
        }
        s->skeleton = blob.skeleton;
        s->mesh = blob.mesh_count > 0 ? ossa_blob_mesh(&blob, 0) : NULL;
        if (!s->skeleton || !s->mesh) {
            snprintf(err, err_bytes, "%s holds no %s: nothing to draw", path,
                     !s->skeleton ? "skeleton" : "mesh");
            render_scene_close(s);
            return false;
        }
        s->clip_count = blob.clip_count;
        s->clips = cli_alloc(sizeof *s->clips * (size_t)(blob.clip_count + 1));
        for (int i = 0; i < blob.clip_count; ++i)
            s->clips[i] = ossa_blob_clip(&blob, i);
    }
    s->joints = ossa_skeleton_joint_count(s->skeleton);
    s->skin_joints = ossa_mesh_skin_joint_count(s->mesh);
    s->vertices = ossa_mesh_vertex_count(s->mesh);
    render_scene_set_format(s, OSSA_SKIN_FORMAT_FLOAT4);
    const size_t plan_bytes = ossa_skin_plan_size(s->mesh);
    s->plan_memory = cli_alloc(plan_bytes);
    if (ossa_skin_plan_init(&s->plan, s->plan_memory, plan_bytes, s->mesh) != OSSA_OK)
        s->plan = NULL; /* not reached (the memory fits); packed streams then go planless */
    for (int i = 0; i < s->clip_count; ++i)
        if (ossa_clip_joint_count(s->clips[i]) != s->joints) {
            snprintf(err, err_bytes, "%s: clip '%s' animates %d joints, the skeleton has %d",
                     path ? path : "default character", ossa_clip_name(s->clips[i]),
                     ossa_clip_joint_count(s->clips[i]), s->joints);
            render_scene_close(s);
            return false;
        }
    return true;
}

static void free_crowd(render_scene *s)
{
    cli_free(s->grid);
    s->grid = NULL;
    void *blocks[] = {s->clip_index, s->phase_s,     s->time_s,    s->local,  s->model,
                      s->palettes,   s->placements, s->streams};
    for (size_t i = 0; i < sizeof blocks / sizeof blocks[0]; ++i)
        cli_free(blocks[i]);
    s->clip_index = NULL;
    s->phase_s = s->time_s = NULL;
    s->local = NULL;
    s->model = s->palettes = s->placements = NULL;
    s->streams = NULL;
    s->characters = 0;
    scene_ik_fini(&s->ik);
}

void render_scene_set_format(render_scene *s, ossa_skin_format format)
{
    s->format = format;
    s->stream_bytes = ossa_skin_output_bytes(s->mesh, format);
}

void render_scene_close(render_scene *s)
{
    free_crowd(s);
    cli_free(s->plan_memory);
    cli_free((void *)s->clips);
    if (s->has_character)
        ossa_default_character_free(&s->character, NULL);
    ossa_free(NULL, s->blob_data);
    memset(s, 0, sizeof *s);
}

int render_scene_find_clip(const render_scene *s, const char *name)
{
    for (int i = 0; i < s->clip_count; ++i)
        if (strcmp(ossa_clip_name(s->clips[i]), name) == 0)
            return i;
    return -1;
}

const char *render_scene_clip_name(const render_scene *s, int clip)
{
    if (clip >= 0 && clip < s->clip_count)
        return ossa_clip_name(s->clips[clip]);
    if (s->clip_count == 1)
        return ossa_clip_name(s->clips[0]); /* mixed from one clip: that clip */
    return s->clip_count ? "mixed" : "rest pose"; /* no clips: the rest pose */
}

float render_scene_layout(ossa_float3 lo, ossa_float3 hi, int count, ossa_mat34 *placements,
                          ossa_float3 *min, ossa_float3 *max)
{
    /* A character standing well into the ground (a model centred on its
     * origin, as rigged_simple's cylinder) is lifted onto it; feet that dip
     * a little below it in a clip stay where the clip puts them. */
    const float wide = fmaxf(hi.x - lo.x, hi.z - lo.z), tall = hi.y - lo.y;
    const float lift = lo.y < -0.05f * tall ? -lo.y : 0.0f;
    /* A margin around what was measured: motion between the sampled times,
     * and room between neighbours on the grid. */
    const float pad = 0.05f * fmaxf(wide, tall);
    lo.x -= pad, lo.y -= pad, lo.z -= pad;
    hi.x += pad, hi.y += pad, hi.z += pad;
    const float spacing = fmaxf(hi.x - lo.x, hi.z - lo.z);
    ossa_render_grid(count, spacing, placements);
    for (int i = 0; i < count; ++i)
        placements[i].m[1][3] = lift;
    ossa_render_placed_bounds(lo, hi, placements, count, min, max);
    min->y = fminf(min->y, 0.0f); /* the ground they stand on stays in view */
    return spacing;
}

ossa_result render_scene_pose_one(const render_scene *s, const ossa_clip *clip, float time_s,
                                  render_pose pose, ossa_mat34 *palette)
{
    if (pose == RENDER_POSE_BIND) {
        for (int k = 0; k < s->skin_joints; ++k)
            palette[k] = ossa_mat34_identity();
        return OSSA_OK;
    }
    const int n = s->joints;
    ossa_transform *local = cli_alloc(sizeof *local * (size_t)n);
    ossa_mat34 *model = cli_alloc(sizeof *model * (size_t)n);
    ossa_result r = OSSA_OK;
    if (clip && pose == RENDER_POSE_ANIMATED) {
        ossa_sampling_job sample = {0};
        sample.clips = &clip;
        sample.clip_count = 1;
        sample.time_s = &time_s;
        sample.character_count = 1;
        sample.rest_pose = ossa_skeleton_rest_pose(s->skeleton);
        sample.rest_pose_count = n;
        sample.output = local;
        sample.output_count = n;
        r = ossa_sampling_job_run(&sample);
    } else {
        memcpy(local, ossa_skeleton_rest_pose(s->skeleton), sizeof *local * (size_t)n);
    }
    ossa_local_to_model_job l2m = {0};
    l2m.parents = ossa_skeleton_parents(s->skeleton);
    l2m.joint_count = n;
    l2m.local = local;
    l2m.local_count = n;
    l2m.character_count = 1;
    l2m.model = model;
    l2m.model_count = n;
    ossa_palette_job pj = {0};
    pj.model = model;
    pj.model_count = n;
    pj.joint_count = n;
    pj.skin_joint = ossa_mesh_skin_joints(s->mesh);
    pj.inverse_bind = ossa_mesh_inverse_binds(s->mesh);
    pj.skin_joint_count = s->skin_joints;
    pj.character_count = 1;
    pj.palette = palette;
    pj.palette_count = s->skin_joints;
    if (r == OSSA_OK && (r = ossa_local_to_model_job_run(&l2m)) == OSSA_OK)
        r = ossa_palette_job_run(&pj);
    cli_free(local);
    cli_free(model);
    return r;
}

/* Skins one character by palette into stream and grows [lo, hi] by its
 * vertices. */
static ossa_result extend_bounds(const render_scene *s, const ossa_mat34 *palette, float *stream,
                                 ossa_float3 *lo, ossa_float3 *hi)
{
    ossa_skinning_job job = {0};
    job.mesh = s->mesh;
    job.palette = palette;
    job.palette_count = s->skin_joints;
    job.output = stream;
    job.output_bytes = ossa_skin_output_bytes(s->mesh, OSSA_SKIN_FORMAT_FLOAT4);
    const ossa_result r = ossa_skinning_job_run(&job);
    if (r != OSSA_OK)
        return r;
    const size_t floats = (size_t)ossa_mesh_skinned_stride(s->mesh) / sizeof(float);
    for (int v = 0; v < s->vertices; ++v) {
        const float *p = stream + (size_t)v * floats;
        lo->x = fminf(lo->x, p[0]), lo->y = fminf(lo->y, p[1]), lo->z = fminf(lo->z, p[2]);
        hi->x = fmaxf(hi->x, p[0]), hi->y = fmaxf(hi->y, p[1]), hi->z = fmaxf(hi->z, p[2]);
    }
    return OSSA_OK;
}

/* One character's extent over what the crowd shows: every clip in use at
 * RENDER_SCENE_BOUNDS_SAMPLES times over its loop, or the still pose. */
static ossa_result measure_pose(render_scene *s)
{
    ossa_mat34 *palette = cli_alloc(sizeof *palette * (size_t)s->skin_joints);
    float *stream = cli_alloc(ossa_skin_output_bytes(s->mesh, OSSA_SKIN_FORMAT_FLOAT4));
    ossa_float3 lo = {FLT_MAX, FLT_MAX, FLT_MAX}, hi = {-FLT_MAX, -FLT_MAX, -FLT_MAX};
    ossa_result r = OSSA_OK;
    if (s->pose == RENDER_POSE_ANIMATED && s->clip_count > 0) {
        for (int c = 0; r == OSSA_OK && c < s->clip_count; ++c) {
            bool used = false;
            for (int i = 0; i < s->characters; ++i)
                used |= s->clip_index[i] == c;
            const float duration = ossa_clip_duration(s->clips[c]);
            for (int k = 0; used && r == OSSA_OK && k < RENDER_SCENE_BOUNDS_SAMPLES; ++k) {
                const float t = duration * (float)k / (float)RENDER_SCENE_BOUNDS_SAMPLES;
                r = render_scene_pose_one(s, s->clips[c], t, s->pose, palette);
                if (r == OSSA_OK)
                    r = extend_bounds(s, palette, stream, &lo, &hi);
            }
        }
    } else {
        r = render_scene_pose_one(s, NULL, 0.0f, s->pose, palette);
        if (r == OSSA_OK)
            r = extend_bounds(s, palette, stream, &lo, &hi);
    }
    cli_free(palette);
    cli_free(stream);
    if (r == OSSA_OK && !(lo.x <= hi.x && lo.y <= hi.y && lo.z <= hi.z))
        r = OSSA_ERR_BAD_VALUE; /* no finite vertex */
    s->pose_min = lo;
    s->pose_max = hi;
    return r;
}

bool render_scene_populate(render_scene *s, int characters, int clip, render_pose pose, char *err,
                           size_t err_bytes)
{
    if (characters < 1 || (clip != RENDER_SCENE_MIXED && (clip < 0 || clip >= s->clip_count)) ||
        (unsigned)pose >= RENDER_POSE_COUNT) {
        snprintf(err, err_bytes, "no such crowd: %d characters, clip %d", characters, clip);
        return false;
    }
    free_crowd(s);
    const size_t n = (size_t)characters, joints = (size_t)s->joints;
    s->characters = characters;
    s->clip = clip;
    s->pose = pose;
    s->clip_index = cli_alloc(sizeof(uint16_t) * n);
    s->phase_s = cli_alloc(sizeof(float) * n);
    s->time_s = cli_alloc(sizeof(float) * n);
    s->local = cli_alloc(sizeof(ossa_transform) * n * joints);
    s->model = cli_alloc(sizeof(ossa_mat34) * n * joints);
    s->palettes = cli_alloc(sizeof(ossa_mat34) * n * (size_t)s->skin_joints);
    s->placements = cli_alloc(sizeof(ossa_mat34) * n);
    s->streams = cli_alloc(s->stream_bytes * n);
    for (int i = 0; i < characters; ++i) {
        const int c = s->clip_count == 0 ? 0 : clip >= 0 ? clip : i % s->clip_count;
        s->clip_index[i] = (uint16_t)c;
        /* Spread by the golden ratio over the clip: no two characters in step. */
        const float duration = s->clip_count ? ossa_clip_duration(s->clips[c]) : 0.0f;
        s->phase_s[i] = (float)fmod(0.6180339887 * i, 1.0) * duration;
    }
    const ossa_result r = measure_pose(s);
    if (r != OSSA_OK) {
        snprintf(err, err_bytes, "measuring what the characters show: %s", ossa_result_str(r));
        free_crowd(s);
        return false;
    }
    s->spacing = render_scene_layout(s->pose_min, s->pose_max, characters, s->placements,
                                     &s->bounds_min, &s->bounds_max);
    const float height = s->pose_max.y - s->pose_min.y;
    scene_ik_init(&s->ik, s->skeleton, s->bounds_min, s->bounds_max, height);
    scene_ik_place(&s->ik, s->placements, characters);
    if (s->ik.on) /* the hills go about 0.1 x the height up and down */
        s->bounds_min.y -= 0.12f * height, s->bounds_max.y += 0.12f * height;
    render_motion_init(s); /* after the hills: the grid's places are on them */
    return true;
}

ossa_result render_scene_pose(render_scene *s, float time_s)
{
    const int n = s->characters;
    if (s->pose != RENDER_POSE_ANIMATED || s->clip_count == 0) {
        /* One still pose, the same for everyone. */
        const ossa_result r = render_scene_pose_one(s, NULL, 0.0f, s->pose, s->palettes);
        for (int i = 1; r == OSSA_OK && i < n; ++i)
            memcpy(s->palettes + (size_t)i * (size_t)s->skin_joints, s->palettes,
                   sizeof *s->palettes * (size_t)s->skin_joints);
        return r;
    }
    for (int i = 0; i < n; ++i)
        s->time_s[i] = time_s + s->phase_s[i];
    ossa_sampling_job sample = {0};
    sample.clips = s->clips;
    sample.clip_count = s->clip_count;
    sample.clip_index = s->clip_index;
    sample.clip_index_count = n;
    sample.time_s = s->time_s;
    sample.character_count = n;
    sample.rest_pose = ossa_skeleton_rest_pose(s->skeleton);
    sample.rest_pose_count = s->joints;
    sample.output = s->local;
    sample.output_count = n * s->joints;
    ossa_local_to_model_job l2m = {0};
    l2m.parents = ossa_skeleton_parents(s->skeleton);
    l2m.joint_count = s->joints;
    l2m.local = s->local;
    l2m.local_count = n * s->joints;
    l2m.character_count = n;
    l2m.model = s->model;
    l2m.model_count = n * s->joints;
    ossa_palette_job palette = {0};
    palette.model = s->model;
    palette.model_count = n * s->joints;
    palette.joint_count = s->joints;
    palette.skin_joint = ossa_mesh_skin_joints(s->mesh);
    palette.inverse_bind = ossa_mesh_inverse_binds(s->mesh);
    palette.skin_joint_count = s->skin_joints;
    palette.character_count = n;
    palette.palette = s->palettes;
    palette.palette_count = n * s->skin_joints;
    ossa_result r;
    if ((r = ossa_sampling_job_run(&sample)) || (r = ossa_local_to_model_job_run(&l2m)))
        return r;
    /* root motion carries the characters over the hills, which go with them */
    render_motion_place(s);
    if (s->grid) {
        scene_ik_follow(&s->ik, s->follow);
        scene_ik_place(&s->ik, s->placements, n);
    }
    if ((r = scene_ik_apply(&s->ik, s->skeleton, s->local, s->model, s->placements, n,
                            time_s)) ||
        (r = ossa_palette_job_run(&palette)))
        return r;
    return OSSA_OK;
}

ossa_result render_scene_skin(render_scene *s)
{
    return render_scene_skin_into(s, s->streams, s->stream_bytes, false);
}

ossa_result render_scene_skin_into(render_scene *s, void *streams, size_t stride, bool stream)
{
    for (int i = 0; i < s->characters; ++i) {
        ossa_skinning_job job = {0};
        job.mesh = s->mesh;
        job.palette = s->palettes + (size_t)i * (size_t)s->skin_joints;
        job.palette_count = s->skin_joints;
        job.output = (char *)streams + (size_t)i * stride;
        job.output_bytes = s->stream_bytes;
        job.format = s->format;
        job.plan = s->format == OSSA_SKIN_FORMAT_PACKED ? s->plan : NULL;
        job.stream_output = stream;
        const ossa_result r = ossa_skinning_job_run(&job);
        if (r != OSSA_OK)
            return r;
    }
    return OSSA_OK;
}

ossa_render_camera render_scene_camera(const render_scene *s, float aspect, float yaw_rad,
                                       float pitch_rad)
{
    return ossa_render_camera_frame(s->bounds_min, s->bounds_max, aspect, yaw_rad, pitch_rad, 0);
}

ossa_render_frame render_scene_frame(const render_scene *s, ossa_render_skinning skinning,
                                     const ossa_render_camera *camera, int width, int height)
{
    ossa_render_frame f;
    memset(&f, 0, sizeof f);
    f.skinning = skinning;
    f.character_count = s->characters;
    f.skinned_streams = s->streams;
    f.skinned_stream_stride = s->stream_bytes;
    f.palettes = s->palettes;
    f.placements = s->placements;
    if (s->ik.on) {
        const ossa_crowd_ground *g = &s->ik.relief.ground;
        f.ground_heights = g->heights;
        f.ground_columns = g->columns;
        f.ground_rows = g->rows;
        f.ground_origin_x = g->origin_x;
        f.ground_origin_z = g->origin_z;
        f.ground_cell = g->cell_size;
    }
    f.camera = *camera;
    /* the ground under what is framed, which root motion carries along */
    f.ground_min = (ossa_float3){s->bounds_min.x + s->follow.x, s->bounds_min.y,
                                 s->bounds_min.z + s->follow.z};
    f.ground_max = (ossa_float3){s->bounds_max.x + s->follow.x, s->bounds_max.y,
                                 s->bounds_max.z + s->follow.z};
    f.width = width;
    f.height = height;
    return f;
}
