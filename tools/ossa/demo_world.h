/* demo_world.h - the world `ossa demo` animates: a crowd on a grid over
 * gentle hills, seen by a camera that pans from side to side. With a
 * skeleton that has the IK joints (the default character does), the crowd
 * plants every foot on the hills and turns the heads toward a point that
 * circles over the crowd. Every frame the game side (serial)
 * culls the characters outside the camera's view (inactive: they sit at the
 * back of the crowd and cost nothing), gives the others an update rate by
 * distance (every frame near, every 2nd and 4th frame further away,
 * staggered by the crowd), marks the nearest visible ones skinned; then the
 * crowd runner animates, palettes and skins them on N threads; then dust
 * puffs rise at footfalls and the particles move. Deterministic: the same
 * options give the same bytes on any number of threads. */
#ifndef OSSA_DEMO_WORLD_H
#define OSSA_DEMO_WORLD_H

#include "crowd_runner.h"
#include "ground_relief.h"
#include "ossa/crowd.h"
#include "ossa/particles.h"
#include "scene_character.h"

typedef struct demo_options {
    int characters; /* on the grid, >= 1 */
    int skinned;    /* nearest visible characters skinned each frame (0 with no mesh) */
    int threads;    /* >= 1 */
    float dt_s;     /* frame step; 0 means 1/30 s */
    ossa_skin_format skin_format; /* the skinned vertices' (ossa demo: packed) */
} demo_options;

/* The camera: at `eye` on the ground plane's near side, looking along +z
 * turned by yaw(t) = pan_rad * sin(2 pi t / period_s) about +y; a character
 * is visible when the direction to it lies within half_fov_rad of the view
 * direction (measured in the ground plane). */
typedef struct demo_camera {
    ossa_float3 eye;
    float pan_rad, period_s, half_fov_rad;
} demo_camera;

/* The last frame, as plain arrays, for whoever draws it: the skinned
 * characters' vertices are already in world space (their palettes include
 * the placement), so they are drawn as they are; `placement` (model ->
 * world) is there for tints, labels and framing. */
typedef struct demo_frame_view {
    const ossa_mesh *mesh;          /* indices, uvs and colours (static stream), stride */
    int skinned;                    /* characters skinned in the last frame */
    const unsigned char *streams;   /* character i's vertices at streams + i * stream_stride */
    size_t stream_stride;           /* bytes; >= ossa_skin_output_bytes(mesh, format) */
    ossa_skin_format format;        /* of the streams */
    const ossa_mat34 *placement;    /* skinned matrices */
    ossa_particle_view dust;        /* live dust particles, world space */
    const ossa_crowd_ground *ground; /* the hills */
    bool look;                      /* heads turn toward look_target */
    ossa_float3 look_target;
    demo_camera camera;
    float camera_yaw_rad;           /* at the last frame */
    float character_height;         /* of the rest pose, model units */
} demo_frame_view;

typedef struct demo_world {
    const scene_character *character;
    demo_options options;
    demo_camera camera;
    float spacing, height; /* grid spacing, character height (model units) */
    void *crowd_memory;
    ossa_crowd *crowd;
    crowd_runner runner;
    void *dust_memory;
    ossa_particles *dust;
    ossa_entity *entity;   /* grid order */
    ossa_float3 *position; /* grid order */
    int *nearest;          /* grid indices by distance from the eye */
    uint8_t *interval;     /* grid order: update interval by distance */
    float far;             /* distance of the farthest grid place from the eye */
    uint8_t *seen, *worn;  /* grid order: active, skinned (as last told to the crowd) */
    ossa_mat34 *placement; /* skinned slot order, last frame */
    ground_relief relief;  /* the hills, under the grid */
    bool ik;               /* the skeleton has the IK joints: feet and heads */
    int look_joints;       /* the look-at chain's */
    ossa_float3 look_target;
    int frame;
    float time_s, yaw_rad;
    /* the last frame */
    int visible, culled, skinned;
    ossa_crowd_stats stats;
    double logic_ns, particles_ns;
} demo_world;

/* Builds the world for a character (which must outlive it). Returns 0 after
 * saying why on stderr. */
int demo_world_init(demo_world *w, const scene_character *character, const demo_options *o);
void demo_world_fini(demo_world *w);
/* One frame: camera -> culling, update rates and skinning; the crowd frame;
 * dust and particles. */
ossa_result demo_world_step(demo_world *w);
/* The camera's yaw at time t. */
float demo_camera_yaw(const demo_camera *c, float time_s);
/* The last frame, as plain arrays (valid until the next step). */
demo_frame_view demo_world_view(const demo_world *w);

#endif /* OSSA_DEMO_WORLD_H */
