/* demo_world.c - see demo_world.h. */
#include "demo_world.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "demo_motion.h"

/* Height of the rest pose: the spread of the joints' model-space y. */
static float rest_height(const ossa_skeleton *skeleton)
{
    const int joints = ossa_skeleton_joint_count(skeleton);
    ossa_mat34 *model = cli_alloc(sizeof(ossa_mat34) * (size_t)joints);
    float lo = 0.0f, hi = 0.0f;
    if (scene_rest_models(skeleton, model))
        for (int j = 0; j < joints; ++j) {
            lo = fminf(lo, model[j].m[1][3]);
            hi = fmaxf(hi, model[j].m[1][3]);
        }
    cli_free(model);
    return hi - lo > 1e-6f && isfinite(hi - lo) ? hi - lo : 1.0f;
}

float demo_camera_yaw(const demo_camera *c, float time_s)
{
    return c->pan_rad * sinf(6.2831853f * time_s / c->period_s);
}

/* The view direction in the ground plane and the cosine of half the field
 * of view, once per frame. */
typedef struct view {
    float x, z, cos_half_fov;
} view;

static view view_at(const demo_camera *c, float yaw_rad)
{
    return (view){sinf(yaw_rad), cosf(yaw_rad), cosf(c->half_fov_rad)};
}

static bool sees(const demo_camera *c, view v, ossa_float3 p)
{
    const float dx = p.x - c->eye.x, dz = p.z - c->eye.z;
    const float along = dx * v.x + dz * v.z;
    return along > 0.0f && along * along >= v.cos_half_fov * v.cos_half_fov * (dx * dx + dz * dz);
}

static float distance_xz(ossa_float3 a, ossa_float3 b)
{
    return sqrtf((a.x - b.x) * (a.x - b.x) + (a.z - b.z) * (a.z - b.z));
}

typedef struct by_distance {
    float distance;
    int index;
} by_distance;

static int closer(const void *a, const void *b)
{
    const by_distance *x = a, *y = b;
    return x->distance < y->distance ? -1 : x->distance > y->distance ? 1 : x->index - y->index;
}

/* The grid, the camera and the update interval of each place. */
static void lay_out(demo_world *w)
{
    const int n = w->options.characters, side = (int)ceil(sqrt((double)n));
    for (int i = 0; i < n; ++i)
        w->position[i] = (ossa_float3){((float)(i % side) - 0.5f * (float)(side - 1)) * w->spacing,
                                       0.0f, (float)(i / side) * w->spacing};
    ground_relief_make(&w->relief, w->position[0].x, 0.0f, -w->position[0].x,
                       (float)((n - 1) / side) * w->spacing, w->height);
    for (int i = 0; i < n; ++i)
        w->position[i].y = ground_relief_height(&w->relief, w->position[i].x, w->position[i].z);
    w->camera.eye = (ossa_float3){0.0f, 0.0f, -(0.25f * (float)side + 2.0f) * w->spacing};
    w->camera.pan_rad = 0.45f;
    w->camera.period_s = 10.0f;
    w->camera.half_fov_rad = 0.6f;
    by_distance *order = cli_alloc(sizeof *order * (size_t)n);
    for (int i = 0; i < n; ++i)
        order[i] = (by_distance){distance_xz(w->position[i], w->camera.eye), i};
    qsort(order, (size_t)n, sizeof *order, closer);
    for (int i = 0; i < n; ++i)
        w->nearest[i] = order[i].index;
    cli_free(order);
    const float far = distance_xz(w->position[w->nearest[n - 1]], w->camera.eye);
    w->far = far;
    for (int i = 0; i < n; ++i) {
        const float d = distance_xz(w->position[i], w->camera.eye) / far;
        w->interval[i] = d < 0.5f ? 1 : d < 0.75f ? 2 : 4;
    }
}

/* The eyes in the head's frame: between "eye_l" and "eye_r" in the rest
 * pose when the skeleton has them, else the head itself. */
static ossa_float3 eye_offset(const ossa_skeleton *s)
{
    const int head = ossa_skeleton_find_joint(s, "head");
    const int eyes[2] = {ossa_skeleton_find_joint(s, "eye_l"), ossa_skeleton_find_joint(s, "eye_r")};
    const uint16_t *parents = ossa_skeleton_parents(s);
    const ossa_transform *rest = ossa_skeleton_rest_pose(s);
    if (head < 0 || eyes[0] < 0 || eyes[1] < 0 || parents[eyes[0]] != head ||
        parents[eyes[1]] != head)
        return (ossa_float3){0.0f, 0.0f, 0.0f};
    const ossa_float3 a = rest[eyes[0]].translation, b = rest[eyes[1]].translation;
    return (ossa_float3){0.5f * (a.x + b.x), 0.5f * (a.y + b.y), 0.5f * (a.z + b.z)};
}

static int make_crowd(demo_world *w)
{
    const scene_character *c = w->character;
    ossa_crowd_desc d = scene_crowd_desc(c, w->options.characters, w->options.skinned);
    if (c->feet[0]) {
        d.foot_names = c->feet;
        d.foot_count = 2;
    }
    /* IK with the default joint names (the default character's); a skeleton
     * without them runs without IK */
    ossa_crowd_ik_desc ik = {0};
    ik.eye_offset = eye_offset(c->skeleton);
    d.ik = &ik;
    w->ik = ossa_crowd_size(&d) > 0;
    if (!w->ik)
        d.ik = NULL;
    w->look_joints = w->ik ? 3 : 0;
    const size_t bytes = ossa_crowd_size(&d);
    if (!bytes) {
        cli_error("demo", "%s: cannot make a crowd of it", c->description);
        return 0;
    }
    w->crowd_memory = cli_alloc(bytes);
    ossa_result r = ossa_crowd_init(&w->crowd, w->crowd_memory, bytes, &d);
    for (int i = 0; r == OSSA_OK && i < w->options.characters; ++i) {
        const uint32_t k = (uint32_t)i * 8u;
        ossa_character_desc ch = {0};
        ch.clip_a = (int)(cli_hash(k) % (uint32_t)c->clip_count);
        ch.clip_b = ch.clip_a;
        if (i % 4 == 0) { /* a quarter blend two clips */
            ch.clip_b = (ch.clip_a + 1) % c->clip_count;
            ch.weight_b = 0.25f + 0.5f * cli_unit(k + 1);
        }
        ch.time_s = 10.0f * cli_unit(k + 2);
        ch.speed = 0.8f + 0.45f * cli_unit(k + 3);
        ch.position = w->position[i]; /* on the hills: lay_out put it there */
        ch.yaw_rad = 6.2831853f * cli_unit(k + 4);
        ch.update_interval = w->interval[i];
        ch.inactive = true; /* the first step decides */
        r = ossa_crowd_spawn(w->crowd, &ch, &w->entity[i]);
    }
    if (r == OSSA_OK && w->ik)
        r = ossa_crowd_set_ground(w->crowd, &w->relief.ground);
    if (r != OSSA_OK) {
        cli_error("demo", "crowd: %s", ossa_result_str(r));
        return 0;
    }
    return 1;
}

static int make_dust(demo_world *w)
{
    ossa_particles_desc d = {0};
    d.capacity = 16 * w->options.characters;
    d.lifetime_s = 0.8f;
    d.gravity = (ossa_float3){0.0f, -0.3f * w->height, 0.0f};
    d.drag = 2.0f;
    const size_t bytes = ossa_particles_size(&d);
    w->dust_memory = cli_alloc(bytes);
    return ossa_particles_init(&w->dust, w->dust_memory, bytes, &d) == OSSA_OK;
}

int demo_world_init(demo_world *w, const scene_character *character, const demo_options *o)
{
    memset(w, 0, sizeof *w);
    w->character = character;
    w->options = *o;
    w->options.dt_s = o->dt_s > 0.0f ? o->dt_s : 1.0f / 30.0f;
    if (!character->mesh)
        w->options.skinned = 0;
    w->options.skinned = w->options.skinned < o->characters ? w->options.skinned : o->characters;
    w->height = rest_height(character->skeleton);
    w->spacing = 1.2f * w->height;
    const size_t n = (size_t)o->characters;
    w->entity = cli_alloc(sizeof *w->entity * n);
    w->position = cli_alloc(sizeof *w->position * n);
    w->nearest = cli_alloc(sizeof *w->nearest * n);
    w->interval = cli_alloc(sizeof *w->interval * n);
    w->seen = cli_alloc(n);
    w->worn = cli_alloc(n);
    memset(w->seen, 0, n);
    memset(w->worn, 0, n);
    w->placement = cli_alloc(sizeof *w->placement * (size_t)(w->options.skinned + 1));
    lay_out(w);
    if (!make_crowd(w) || !make_dust(w) ||
        !crowd_runner_init(&w->runner, w->crowd, w->options.skinned ? character->mesh : NULL,
                           w->options.skinned, o->skin_format, o->threads)) {
        demo_world_fini(w);
        return 0;
    }
    w->runner.timed = 1;
    return 1;
}

void demo_world_fini(demo_world *w)
{
    crowd_runner_fini(&w->runner);
    ground_relief_free(&w->relief);
    void *blocks[] = {w->crowd_memory, w->dust_memory, w->entity,   w->position,
                      w->nearest,      w->interval,    w->placement, w->seen, w->worn};
    for (size_t i = 0; i < sizeof blocks / sizeof blocks[0]; ++i)
        cli_free(blocks[i]);
    memset(w, 0, sizeof *w);
}

/* The game's side of the frame: who is seen, who is skinned; the crowd is
 * told about changes only. Characters are unmarked and culled before others
 * are marked, so the skinned count never passes the crowd's capacity. */
static ossa_result cull_and_choose(demo_world *w)
{
    const int n = w->options.characters;
    w->yaw_rad = demo_camera_yaw(&w->camera, w->time_s);
    const view v = view_at(&w->camera, w->yaw_rad);
    ossa_result r = OSSA_OK;
    w->visible = 0;
    int skinned = 0;
    for (int k = 0; k < n && r == OSSA_OK; ++k) { /* leave, nearest first */
        const int i = w->nearest[k];
        const uint8_t seen = sees(&w->camera, v, w->position[i]);
        const uint8_t worn = seen && skinned < w->options.skinned;
        skinned += worn;
        w->visible += seen;
        if (w->worn[i] && !worn)
            r = ossa_crowd_set_skinned(w->crowd, w->entity[i], false);
        if (w->seen[i] && !seen && r == OSSA_OK)
            r = ossa_crowd_set_active(w->crowd, w->entity[i], false);
        /* bit 1: seen now, bit 0: the crowd knows it as active */
        w->seen[i] = (uint8_t)(seen << 1 | (w->seen[i] & seen));
        w->worn[i] = (uint8_t)(worn << 1 | (w->worn[i] & worn));
    }
    for (int k = 0; k < n && r == OSSA_OK; ++k) { /* join */
        const int i = w->nearest[k];
        if (w->seen[i] == 2)
            r = ossa_crowd_set_active(w->crowd, w->entity[i], true);
        if (w->worn[i] == 2 && r == OSSA_OK)
            r = ossa_crowd_set_skinned(w->crowd, w->entity[i], true);
        w->seen[i] >>= 1;
        w->worn[i] >>= 1;
    }
    w->culled = n - w->visible;
    return r;
}

ossa_result demo_world_step(demo_world *w)
{
    const float dt = w->options.dt_s;
    uint64_t t0 = cli_now_ns();
    ossa_result r = demo_motion_wrap(w);
    if (r == OSSA_OK)
        r = cull_and_choose(w);
    if (r == OSSA_OK && w->ik) {
        /* the point the heads follow: circling over the middle of the grid
         * at about head height, once every 12 seconds */
        const float a = 6.2831853f * w->time_s / 12.0f, radius = 3.0f * w->spacing;
        const float mid_z = 0.5f * w->position[w->options.characters - 1].z;
        w->look_target = (ossa_float3){radius * cosf(a), 1.1f * w->height, mid_z + radius * sinf(a)};
        w->look_target.y += ground_relief_height(&w->relief, w->look_target.x, w->look_target.z);
        r = ossa_crowd_set_look_target(w->crowd, w->look_target, 1.0f);
    }
    w->logic_ns = (double)(cli_now_ns() - t0);
    if (r == OSSA_OK)
        r = crowd_runner_frame(&w->runner, dt);
    if (r != OSSA_OK)
        return r;
    t0 = cli_now_ns();
    ossa_crowd_emit_dust(w->crowd, w->dust, 4, 0.4f * w->height);
    r = ossa_particles_update(w->dust, dt);
    w->particles_ns = (double)(cli_now_ns() - t0);
    w->stats = ossa_crowd_get_stats(w->crowd);
    w->skinned = w->runner.skinned;
    for (int s = 0; s < w->skinned; ++s) {
        ossa_character_state st;
        ossa_crowd_character(w->crowd, ossa_crowd_entity_at(w->crowd, s), &st);
        const float co = cosf(st.yaw_rad), si = sinf(st.yaw_rad);
        const ossa_mat34 m = {{{co, 0.0f, si, st.position.x},
                               {0.0f, 1.0f, 0.0f, st.position.y},
                               {-si, 0.0f, co, st.position.z}}};
        w->placement[s] = m;
    }
    w->time_s += dt;
    w->frame++;
    return r;
}

demo_frame_view demo_world_view(const demo_world *w)
{
    demo_frame_view v;
    memset(&v, 0, sizeof v);
    v.mesh = w->options.skinned ? w->character->mesh : NULL;
    v.skinned = w->skinned;
    v.streams = w->runner.streams;
    v.stream_stride = w->runner.stream_bytes;
    v.format = w->runner.format;
    v.placement = w->placement;
    v.dust = ossa_particles_view(w->dust);
    v.ground = w->relief.heights ? &w->relief.ground : NULL;
    v.look = w->ik;
    v.look_target = w->look_target;
    v.camera = w->camera;
    v.camera_yaw_rad = w->yaw_rad;
    v.character_height = w->height;
    return v;
}
