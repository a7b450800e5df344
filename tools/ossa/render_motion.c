/* render_motion.c - see render_motion.h. */
#include "render_motion.h"

#include <string.h>

#include "cli.h"

void render_motion_init(render_scene *s)
{
    cli_free(s->grid);
    s->grid = NULL;
    s->follow = (ossa_float3){0.0f, 0.0f, 0.0f};
    bool moves = false;
    for (int c = 0; c < s->clip_count; ++c)
        moves |= ossa_clip_has_root_motion(s->clips[c]);
    if (s->in_place || !moves || s->pose != RENDER_POSE_ANIMATED)
        return;
    s->grid = cli_alloc(sizeof *s->grid * (size_t)s->characters);
    memcpy(s->grid, s->placements, sizeof *s->grid * (size_t)s->characters);
}

void render_motion_place(render_scene *s)
{
    if (!s->grid)
        return;
    const int n = s->characters;
    ossa_root_motion *motion = cli_alloc(sizeof *motion * (size_t)n);
    ossa_root_motion_job job = {0};
    job.clips = s->clips;
    job.clip_count = s->clip_count;
    job.clip_index = s->clip_index;
    job.clip_index_count = n;
    job.from_s = s->phase_s;
    job.to_s = s->time_s;
    job.character_count = n;
    job.output = motion;
    job.output_count = n;
    if (ossa_root_motion_job_run(&job) == OSSA_OK)
        for (int i = 0; i < n; ++i) {
            const ossa_mat34 m = ossa_root_motion_matrix(motion[i]);
            s->placements[i] = ossa_mat34_mul(&s->grid[i], &m);
        }
    /* the crowd's mean travel: one character's own, when there is one */
    double x = 0.0, z = 0.0;
    for (int i = 0; i < n; ++i) {
        x += s->placements[i].m[0][3] - s->grid[i].m[0][3];
        z += s->placements[i].m[2][3] - s->grid[i].m[2][3];
    }
    s->follow = (ossa_float3){(float)(x / n), 0.0f, (float)(z / n)};
    cli_free(motion);
}

ossa_render_camera render_motion_follow(const render_scene *s, ossa_render_camera camera)
{
    camera.eye.x += s->follow.x;
    camera.eye.z += s->follow.z;
    camera.target.x += s->follow.x;
    camera.target.z += s->follow.z;
    return camera;
}
