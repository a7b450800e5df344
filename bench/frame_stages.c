/* frame_stages.c - the frame benchmark's stages (see frame_setup.h): each
 * runs one stage for all characters, split over the scene's threads. */
#include <stdlib.h>
#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "cli.h"
#include "frame_threads.h"

/* ---- reference stages: the readable jobs, instances split over threads ---- */

static void ref_sample(frame_scene *s, int second)
{
    PARALLEL(s)
    {
        int begin, end;
        if (share(s->characters, &begin, &end)) {
            ossa_sampling_job j = {0};
            j.clips = s->character->clips;
            j.clip_count = s->character->clip_count;
            j.clip_index = second ? s->clip_b : s->clip_a;
            j.clip_index_count = s->characters;
            j.time_s = second ? s->time_b : s->time_a;
            j.character_count = s->characters;
            j.rest_pose = ossa_skeleton_rest_pose(s->character->skeleton);
            j.rest_pose_count = s->joints;
            j.character_begin = begin;
            j.character_end = end;
            j.output = second ? s->ref_b : s->ref_a;
            j.output_count = s->characters * s->joints;
            note(s, ossa_sampling_job_run(&j));
        }
    }
}

void frame_ref_sample(void *scene)
{
    ref_sample(scene, 0);
}

void frame_ref_sample_b(void *scene)
{
    ref_sample(scene, 1);
}

void frame_ref_blend(void *scene)
{
    frame_scene *s = scene;
    PARALLEL(s)
    {
        int begin, end;
        if (share(s->characters, &begin, &end)) {
            ossa_blend_layer layers[2] = {{0}, {0}};
            layers[0].pose = s->ref_a;
            layers[0].pose_count = s->characters * s->joints;
            layers[0].weights = s->weight_a;
            layers[0].weight_count = s->characters;
            layers[1] = layers[0];
            layers[1].pose = s->ref_b;
            layers[1].weights = s->weight_b;
            ossa_blending_job j = {0};
            j.layers = layers;
            j.layer_count = 2;
            j.rest_pose = ossa_skeleton_rest_pose(s->character->skeleton);
            j.joint_count = s->joints;
            j.character_count = s->characters;
            j.character_begin = begin;
            j.character_end = end;
            j.output = s->ref_pose;
            j.output_count = s->characters * s->joints;
            note(s, ossa_blending_job_run(&j));
        }
    }
}

void frame_ref_local_to_model(void *scene)
{
    frame_scene *s = scene;
    PARALLEL(s)
    {
        int begin, end;
        if (share(s->characters, &begin, &end)) {
            ossa_local_to_model_job j = {0};
            j.parents = ossa_skeleton_parents(s->character->skeleton);
            j.joint_count = s->joints;
            j.local = s->ref_pose;
            j.local_count = s->characters * s->joints;
            j.character_count = s->characters;
            j.character_begin = begin;
            j.character_end = end;
            j.model = s->ref_model;
            j.model_count = s->characters * s->joints;
            note(s, ossa_local_to_model_job_run(&j));
        }
    }
}

void frame_ref_palette(void *scene)
{
    frame_scene *s = scene;
    PARALLEL(s)
    {
        int begin, end;
        if (share(s->skinned, &begin, &end)) {
            ossa_palette_job j = {0};
            j.model = s->ref_model;
            j.model_count = s->characters * s->joints;
            j.joint_count = s->joints;
            j.skin_joint = ossa_mesh_skin_joints(s->mesh);
            j.inverse_bind = ossa_mesh_inverse_binds(s->mesh);
            j.skin_joint_count = s->skins;
            j.character_count = s->skinned;
            j.character_begin = begin;
            j.character_end = end;
            j.palette = s->ref_palette;
            j.palette_count = s->skinned * s->skins;
            note(s, ossa_palette_job_run(&j));
        }
    }
}

/* Characters [begin, end) skinned from palettes into streams. */
void frame_skin_range(frame_scene *s, int begin, int end, const ossa_mat34 *palettes,
                      unsigned char *streams, ossa_simd_path path, ossa_skin_format format)
{
    const size_t stride = format == s->skin_format ? s->stream_bytes : s->ref_stream_bytes;
    for (int i = begin; i < end; ++i) {
        ossa_skinning_job j = {0};
        j.mesh = s->mesh;
        j.palette = palettes + (size_t)i * (size_t)s->skins;
        j.palette_count = s->skins;
        j.output = streams + (size_t)i * stride;
        j.output_bytes = stride;
        j.format = format;
        j.plan = format == OSSA_SKIN_FORMAT_PACKED ? s->plan : NULL;
        j.path = path;
        j.stream_output = true; /* as the library's frame (crowd_runner.h) */
        note(s, ossa_skinning_job_run(&j));
    }
}

void frame_ref_skin(void *scene)
{
    frame_scene *s = scene;
    PARALLEL(s)
    {
        int begin, end;
        if (share(s->skinned, &begin, &end))
            frame_skin_range(s, begin, end, s->ref_palette, s->ref_streams, OSSA_SIMD_PORTABLE,
                             OSSA_SKIN_FORMAT_FLOAT4);
    }
}

/* ---- lane stages: batches split over threads ---- */

static void lane_sample(frame_scene *s, int second, bool stream, bool ahead)
{
    PARALLEL(s)
    {
        int begin, end;
        if (share(s->batches, &begin, &end)) {
            ossa_lane_sampling_job j = frame_lane_sampling_job(
                s, second, 0, s->characters, second ? s->lane_b : s->lane_a, s->pose_floats);
            j.batch_begin = begin;
            j.batch_end = end;
            j.stream_output = stream;
            j.prefetch_ahead = ahead;
            note(s, ossa_lane_sampling_job_run(&j));
        }
    }
}

void frame_lane_sample(void *scene)
{
    lane_sample(scene, 0, false, false);
}

void frame_lane_sample_b(void *scene)
{
    lane_sample(scene, 1, false, false);
}

void frame_lane_sample_streamed(void *scene)
{
    lane_sample(scene, 0, true, false);
}

void frame_lane_sample_streamed_ahead(void *scene)
{
    lane_sample(scene, 0, true, true);
}

/* The sampling job's stores alone: its batches of the lane pose written
 * in the same order, 16 bytes at a time, with nothing computed - the floor
 * under the job in this memory state. */
static void lane_stores(frame_scene *s, bool stream)
{
    PARALLEL(s)
    {
        int begin, end;
        if (share(s->batches, &begin, &end)) {
            const size_t per = (size_t)s->pose_floats / (size_t)s->batches;
            float *p = s->lane_a + (size_t)begin * per, *e = s->lane_a + (size_t)end * per;
#if defined(__SSE2__)
            const __m128 x = _mm_set1_ps(0.5f);
            if (stream) {
                for (; p < e; p += 4)
                    _mm_stream_ps(p, x);
                _mm_sfence();
            } else {
                for (; p < e; p += 4)
                    _mm_store_ps(p, x);
            }
#else
            (void)stream;
            for (; p < e; ++p)
                *(volatile float *)p = 0.5f;
#endif
        }
    }
}

void frame_lane_stores(void *scene)
{
    lane_stores(scene, false);
}

void frame_lane_stores_streamed(void *scene)
{
    lane_stores(scene, true);
}

void frame_lane_blend(void *scene)
{
    frame_scene *s = scene;
    PARALLEL(s)
    {
        int begin, end;
        if (share(s->batches, &begin, &end)) {
            ossa_lane_blend_layer layers[2];
            ossa_lane_blending_job j =
                frame_lane_blending_job(s, layers, s->lane_a, s->lane_b, 0, s->characters,
                                    s->lane_pose, s->pose_floats);
            j.batch_begin = begin;
            j.batch_end = end;
            note(s, ossa_lane_blending_job_run(&j));
        }
    }
}

void frame_lane_local_to_model(void *scene)
{
    frame_scene *s = scene;
    PARALLEL(s)
    {
        int begin, end;
        if (share(s->batches, &begin, &end)) {
            ossa_lane_local_to_model_job j = frame_lane_local_to_model_job(
                s, s->lane_pose, s->pose_floats, s->characters, s->lane_model, s->model_floats);
            j.batch_begin = begin;
            j.batch_end = end;
            note(s, ossa_lane_local_to_model_job_run(&j));
        }
    }
}

void frame_lane_pose_out(void *scene)
{
    frame_scene *s = scene;
    PARALLEL(s)
    {
        int begin, end;
        if (share(s->batches, &begin, &end)) {
            ossa_lane_pose_out_job j =
                frame_lane_pose_out_job(s, s->lane_model, s->model_floats, 0, s->characters);
            j.batch_begin = begin;
            j.batch_end = end;
            note(s, ossa_lane_pose_out_job_run(&j));
        }
    }
}

/* The palettes of the skinned characters among `count` characters from
 * first_character whose lane model is `model` (batches [batch_begin,
 * batch_end) of it): the skinned ones are the first characters, so the
 * first batches, the last one perhaps in part. */
ossa_result frame_lane_palettes(frame_scene *s, const float *model, int model_count,
                                int first_character, int count, int batch_begin, int batch_end)
{
    const int skinned = s->skinned - first_character < count ? s->skinned - first_character
                                                             : count;
    if (skinned <= 0 || batch_begin >= batch_end)
        return OSSA_OK;
    ossa_lane_palette_job j = {0};
    j.model = model;
    j.model_count = model_count;
    j.joint_count = s->joints;
    j.character_count = skinned;
    j.skin_joint = ossa_mesh_skin_joints(s->mesh);
    j.inverse_bind = ossa_mesh_inverse_binds(s->mesh);
    j.skin_joint_count = s->skins;
    j.width = s->width;
    j.batch_begin = batch_begin;
    j.batch_end = batch_end;
    j.path = s->path;
    j.palette = s->lane_palette + (size_t)first_character * (size_t)s->skins;
    j.palette_count = skinned * s->skins;
    return ossa_lane_palette_job_run(&j);
}

void frame_lane_palette(void *scene)
{
    frame_scene *s = scene;
    PARALLEL(s)
    {
        int begin, end;
        if (share(ossa_lane_batch_count(s->skinned, s->width), &begin, &end))
            note(s, frame_lane_palettes(s, s->lane_model, s->model_floats, 0, s->skinned, begin, end));
    }
}

void frame_lane_skin(void *scene)
{
    frame_scene *s = scene;
    PARALLEL(s)
    {
        int begin, end;
        if (share(s->skinned, &begin, &end))
            frame_skin_range(s, begin, end, s->lane_palette, s->lane_streams, OSSA_SIMD_AUTO,
                             s->skin_format);
    }
}
