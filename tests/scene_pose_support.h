/* scene_pose_support.h - one character of a tools' render scene posed and
 * skinned by the runtime's reference jobs (sample, local->model, palette,
 * skin): the expectation the render tests check the tools' frames against.
 * Include after utest.h's users (it uses CHECK_RESULT). */
#ifndef OSSA_SCENE_POSE_SUPPORT_H
#define OSSA_SCENE_POSE_SUPPORT_H

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "render_scene.h"
#include "test_support.h"
#include "utest.h"

/* One character's skinned positions (xyz at stride floats) by the
 * runtime's reference jobs: clip at time_s, the rest pose (clip NULL), or
 * the bind pose (bind). */
static inline void pose_vertices(const render_scene *s, const ossa_clip *clip, float time_s, bool bind,
                          float *stream)
{
    const int n = s->joints, skins = s->skin_joints;
    ossa_transform *local = malloc(sizeof *local * (size_t)n);
    ossa_mat34 *model = malloc(sizeof *model * (size_t)n);
    ossa_mat34 *palette = ts_aligned(sizeof *palette * (size_t)skins);
    if (clip) {
        ossa_sampling_job job = {0};
        job.clips = &clip;
        job.clip_count = 1;
        job.time_s = &time_s;
        job.character_count = 1;
        job.rest_pose = ossa_skeleton_rest_pose(s->skeleton);
        job.rest_pose_count = n;
        job.output = local;
        job.output_count = n;
        CHECK_RESULT(ossa_sampling_job_run(&job), OSSA_OK);
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
    CHECK_RESULT(ossa_local_to_model_job_run(&l2m), OSSA_OK);
    ossa_palette_job pj = {0};
    pj.model = model;
    pj.model_count = n;
    pj.joint_count = n;
    pj.skin_joint = ossa_mesh_skin_joints(s->mesh);
    pj.inverse_bind = ossa_mesh_inverse_binds(s->mesh);
    pj.skin_joint_count = skins;
    pj.character_count = 1;
    pj.palette = palette;
    pj.palette_count = skins;
    CHECK_RESULT(ossa_palette_job_run(&pj), OSSA_OK);
    for (int k = 0; bind && k < skins; ++k)
        palette[k] = ossa_mat34_identity();
    ossa_skinning_job sj = {0};
    sj.mesh = s->mesh;
    sj.palette = palette;
    sj.palette_count = skins;
    sj.output = stream;
    sj.output_bytes = s->stream_bytes;
    CHECK_RESULT(ossa_skinning_job_run(&sj), OSSA_OK);
    free(local);
    free(model);
    free(palette);
}

#endif /* OSSA_SCENE_POSE_SUPPORT_H */
