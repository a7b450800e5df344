/* ossa/crowd.h - a crowd of characters sharing one skeleton, stored the way
 * seeds 003/004 say and animated W characters at a time in SIMD lanes.
 *
 * Storage (libossa_crowd; caller memory, no allocation):
 * - an entity is an id, index + generation; a despawned entity's id is stale
 *   and every call detects it (OSSA_ERR_STALE_ID), even after its index is
 *   reused; an index whose generation would wrap is retired, never reused;
 * - each component lives in a packed array indexed by slot, not behind a
 *   per-entity pointer: spawn appends, despawn swap-removes, arrays stay dense;
 *   the world poses (large) stay put, indexed by the entity's index;
 * - animated characters sit at the front - skinned ones first, then by
 *   update interval and phase; inactive ones (culled, sleeping) behind them.
 *   Activation, interval and skinning changes move a character by swaps, so
 *   an update walks contiguous ranges with no per-character `if (active)`;
 * - hot per-frame state (clips, playheads, speed, blend weight, placement) is
 *   apart from cold state (name, spawn time, statistics).
 *
 * Frame: ossa_crowd_begin_frame (one thread) advances the playheads of the
 * active characters (phase sync, fades) and plans this frame's batches;
 * ossa_crowd_update runs any range of them - sample two clips, blend, move
 * the placement by root motion, local->model with the placement as root,
 * IK when it is on, write the world-space pose (and the skinned characters'
 * palettes) - and can be called from several threads on disjoint ranges,
 * each with its own scratch;
 * ossa_crowd_end_frame (one thread) gathers the frame's footfalls in batch
 * order. Results are bit-identical for any split of the batches.
 *
 * Update-rate LOD (seed 001): a character updated every 2 or 4 frames is
 * given the phase with the fewest characters, so every frame updates about
 * the same number; its playhead still advances every frame, its pose holds
 * between updates.
 *
 * Skinning (optional): given a skin (a mesh's skin joints and inverse binds),
 * characters marked skinned - the ones near the camera - update every frame
 * and also get a palette, computed in the same pass from the batch's lane
 * model while it is in cache: palette[k] = world pose[skin_joints[k]] *
 * inverse_binds[k], what ossa_skinning_job reads (so skinned vertices come
 * out in world space). Active skinned characters are slots
 * [0, ossa_crowd_skinned_count); with a mesh, the update then skins each of
 * them straight from its palette into the skin output (slot s at
 * vertices + s * character_stride), while the palette is in cache, as float4
 * or packed vertices (ossa_skin_format; for packed output the crowd keeps
 * the mesh's skin plan in its memory). */
#ifndef OSSA_CROWD_H
#define OSSA_CROWD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "clip.h"
#include "ik.h"
#include "lanes.h"
#include "math.h"
#include "mesh.h"
#include "particles.h"
#include "result.h"
#include "skeleton.h"
#include "skinning_job.h"
#include "socket.h"
#include "tracks.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A character's id. The zeroed entity is never valid. */
typedef struct ossa_entity {
    uint32_t index;
    uint32_t generation; /* >= 1 for a spawned entity */
} ossa_entity;

/* IK (optional, ossa/ik.h): each leg's foot planted on the ground (a height
 * field, ossa_crowd_set_ground) by two-bone IK, the pelvis lowered so both
 * feet reach, and a look-at chain turning the head toward a point
 * (ossa_crowd_set_look_target). The joints, by name. */
typedef struct ossa_crowd_ik_desc {
    /* Thigh, calf and foot of the left leg, then of the right (6 names).
     * NULL: "thigh_l", "calf_l", "foot_l", "thigh_r", "calf_r", "foot_r". */
    const char *const *leg_names;
    /* The joint lowered so both feet reach (every leg below it). NULL: "hips". */
    const char *pelvis_name;
    /* The knees' hinge in the calf's frame, oriented so a positive turn
     * folds the leg (ossa_ik_two_bone_job.mid_axis). Zero: +x. */
    ossa_float3 knee_axis;
    /* The look-at chain, root first (ossa_ik_aim_job.chain). NULL: "spine_03",
     * "neck_01", "head". */
    const char *const *look_names;
    int look_count; /* <= OSSA_IK_MAX_CHAIN (8) */
    /* Its chain weights; NULL: 1 for the root, 0.5 for the others. */
    const float *look_weights;
    /* In the chain's last joint's frame: the eyes, where they look and the
     * axis rolled up (ossa_ik_aim_job.offset, forward, up). Zero forward:
     * +z; zero up: +y. */
    ossa_float3 eye_offset, eye_forward, eye_up;
} ossa_crowd_ik_desc;

/* The ground as a height field: heights[r * columns + c] is the height (y)
 * at x = origin_x + c * cell_size, z = origin_z + r * cell_size, bilinear
 * in between, the nearest edge's outside. The heights are not copied: they
 * must outlive their use. */
typedef struct ossa_crowd_ground {
    const float *heights;
    int columns, rows; /* >= 1 each */
    float origin_x, origin_z;
    float cell_size;   /* > 0 */
} ossa_crowd_ground;

/* The ground's height at (x, z); 0 for a NULL or empty ground. */
float ossa_crowd_ground_height(const ossa_crowd_ground *ground, float x, float z);

/* Feet watched for footfalls, at most. */
#define OSSA_CROWD_MAX_FEET 4
/* Triggers on float tracks, at most; events of one trigger kept per
 * character and update, at most. */
#define OSSA_CROWD_MAX_TRIGGERS 8
#define OSSA_CROWD_EVENTS_PER_UPDATE 2
/* Bytes of a character's name kept (with the NUL). */
#define OSSA_CROWD_NAME_BYTES 32

typedef struct ossa_crowd ossa_crowd;

/* An event source: the crossings of a threshold by a named float track of
 * the clips (ossa/tracks.h), reported per frame by ossa_crowd_events. */
typedef struct ossa_crowd_trigger {
    const char *track;  /* float track name; at least one clip must have it */
    float threshold;    /* finite */
    ossa_edge edges;    /* default OSSA_EDGE_BOTH */
} ossa_crowd_trigger;

typedef struct ossa_crowd_desc {
    const ossa_skeleton *skeleton;   /* required */
    /* Clips the characters play (all with the skeleton's joint count);
     * required, >= 1. The pointers are copied; the clips must outlive the crowd. */
    const ossa_clip *const *clips;
    int clip_count;
    int capacity;                    /* most characters alive at once, >= 1 */
    int width;                       /* lanes per batch; 0 means ossa_lane_width() */
    ossa_simd_path path;             /* default OSSA_SIMD_AUTO */
    /* Joints whose footfalls are reported, by name. NULL means "foot_l" and
     * "foot_r" when the skeleton has them (the default character does), else
     * none. A name the skeleton lacks is an error. */
    const char *const *foot_names;
    int foot_count;                  /* <= OSSA_CROWD_MAX_FEET */
    /* A footfall is a foot going below this height above its character's
     * root: a falling crossing of the foot's height track - its model-space
     * height in the clip's pose 120 times a second (ossa_crowd_height_samples
     * evenly spaced samples: four per frame interval of a 30 Hz clip),
     * computed by ossa_crowd_init - by the
     * character's dominant layer (the clip weighing more) between its
     * playheads at its last update and now (ossa_track_event_job's
     * definition: loop-aware, backwards too). 0 means 1.25 x the foot's
     * height in the rest pose. */
    float foot_contact_height;
    /* Events on the clips' float tracks (copied; names are not kept), each
     * watched on the dominant layer like the feet. A name no clip has is
     * OSSA_ERR_NOT_FOUND; a clip without the track never fires it. */
    const ossa_crowd_trigger *triggers;
    int trigger_count;                 /* <= OSSA_CROWD_MAX_TRIGGERS */
    /* Skinning, optional. The mesh the skinned characters wear: with it,
     * ossa_crowd_update also skins them into the buffer given by
     * ossa_crowd_set_skin_output. It must outlive the crowd. Its skin joints
     * and inverse binds are the skin unless skin_joints is set. */
    const ossa_mesh *mesh;
    /* The skin without (or instead of) a mesh - palettes only (0: the
     * mesh's, or none): skin joint k binds skeleton joint skin_joints[k]
     * with inverse bind matrix inverse_binds[k]. Both are copied; with a
     * mesh, skin_joint_count must be the mesh's. */
    const uint16_t *skin_joints;
    const ossa_mat34 *inverse_binds;
    int skin_joint_count;
    /* Most characters marked skinned at once (memory: this many palettes).
     * 0 means capacity when there is a skin. */
    int skinned_capacity;
    /* Root motion (ossa/root_motion.h): each update moves a character's
     * placement by the weighted motion of its two layers between their
     * playheads at its last update and now, so clips with a motion track
     * carry their characters through the world. true: placements stay
     * where the game puts them. */
    bool no_root_motion;
    /* Clip order: ossa_crowd_begin_frame keeps the characters that are not
     * skinned in order of the clips they sample (the one each weighs -
     * clip_b at weight_b 1, else clip_a - then clip_b where it blends),
     * within the slots of their update interval and phase, so that a
     * batch's lanes share few clips and the sampling job takes a compressed
     * clip's lanes together (docs/crowd.md, "Clip order"). Their slots
     * change when those clips do (a fade: when it starts and when it ends);
     * entities, poses (by entity) and the skinned characters'
     * slots (and so their vertices' place) do not. true: slots move only on
     * spawn, despawn and the set_* calls that change a character's bucket. */
    bool no_clip_order;
    /* IK's joints; NULL: no IK. A name the skeleton lacks is an error. */
    const ossa_crowd_ik_desc *ik;
    /* Look-ahead prefetch: before each batch, ask for the lines the next
     * batch's sampling jobs will read from compressed clips
     * (ossa_lane_sampling_job_prefetch). Worth it where the clips come from
     * L3 or memory and the core's prefetches are cheap; it cost more than it
     * saved on one machine and saved more than it cost on others - measure
     * it (`ossa bench frame --clips N` times the frame both ways,
     * docs/compression.md, "Prefetching"). Same results either way. */
    bool prefetch_clips;
} ossa_crowd_desc;

/* The samples of the foot height track a crowd makes over `clip` (see
 * contact_height), evenly spaced over its duration, both ends included: to
 * give ossa_track_event_job the crowd's own tracks. 0 for NULL. */
int ossa_crowd_height_samples(const ossa_clip *clip);
/* Bytes ossa_crowd_init needs for desc (64-byte aligned memory); 0 when desc
 * is invalid. */
size_t ossa_crowd_size(const ossa_crowd_desc *desc);
/* Builds an empty crowd in memory[0, bytes). *out points into memory. */
ossa_result ossa_crowd_init(ossa_crowd **out, void *memory, size_t bytes,
                            const ossa_crowd_desc *desc);

/* ---- characters ---- */

typedef struct ossa_character_desc {
    const char *name;     /* may be NULL; longer names are cut to 31 bytes */
    int clip_a;           /* index into the crowd's clips */
    int clip_b;           /* second layer; blended with weight_b */
    float weight_b;       /* in [0, 1]: 0 plays clip_a alone, 1 clip_b (one clip sampled) */
    float time_s;         /* initial playhead of both layers */
    float speed;          /* playback rate, >= 0; 0 means 1 */
    ossa_float3 position; /* root placement: position and heading about +y */
    float yaw_rad;
    int update_interval;  /* 1, 2 or 4 frames; 0 means 1 (a skinned character
                           * updates every frame; its interval applies when it
                           * is no longer skinned) */
    bool inactive;        /* spawn culled / sleeping */
    bool skinned;         /* gets a palette every frame (needs the crowd's skin) */
    /* Phase sync: the two layers play in normalised time, both at the same
     * phase of their clips, advancing at the rate of the blended duration
     * (1 - w) duration_a + w duration_b (ossa_crowd_set_sync). */
    bool sync;
} ossa_character_desc;

/* Spawns a character: OSSA_ERR_FULL at capacity (or when it is skinned and
 * skinned_capacity characters already are), OSSA_ERR_BAD_INDEX for a
 * clip out of range, OSSA_ERR_BAD_VALUE for a weight, speed, time or
 * placement that is not finite or out of range, OSSA_ERR_BAD_ARGUMENT for an
 * update interval other than 1, 2, 4. */
ossa_result ossa_crowd_spawn(ossa_crowd *crowd, const ossa_character_desc *desc,
                             ossa_entity *out);
/* Removes a character; its id (and every copy of it) becomes stale. */
ossa_result ossa_crowd_despawn(ossa_crowd *crowd, ossa_entity entity);
/* True when the entity is alive (not stale, not zeroed). */
bool ossa_crowd_alive(const ossa_crowd *crowd, ossa_entity entity);

/* Setters: OSSA_ERR_STALE_ID for a stale entity, else as ossa_crowd_spawn. */
ossa_result ossa_crowd_set_active(ossa_crowd *crowd, ossa_entity entity, bool active);
ossa_result ossa_crowd_set_update_interval(ossa_crowd *crowd, ossa_entity entity, int interval);
ossa_result ossa_crowd_set_clips(ossa_crowd *crowd, ossa_entity entity, int clip_a, int clip_b,
                                 float weight_b);
ossa_result ossa_crowd_set_speed(ossa_crowd *crowd, ossa_entity entity, float speed);
ossa_result ossa_crowd_set_placement(ossa_crowd *crowd, ossa_entity entity, ossa_float3 position,
                                     float yaw_rad);
/* Phase sync on or off (see ossa_character_desc.sync). Turning it on puts
 * layer b at layer a's phase. */
ossa_result ossa_crowd_set_sync(ossa_crowd *crowd, ossa_entity entity, bool sync);
/* Cross-fades the character to `clip` over duration_s seconds (0: at once):
 * the clip goes into the layer the character is fading away from (or, with
 * no fade under way, the fainter one), starting at time 0 - or, with
 * match_phase, at the phase of the layer it fades from - and the blend
 * weight moves linearly to that layer over the fade. A fade is data (its
 * start and length), applied by every frame the same way. Asking for the
 * clip the character already fades to (or plays) changes nothing. A fade
 * begun during another one replaces the layer that was fading out, so
 * whatever weight that layer still had is lost (the pose jumps by it).
 * OSSA_ERR_BAD_INDEX for a clip out of range, OSSA_ERR_BAD_VALUE for a
 * duration that is negative or not finite. */
ossa_result ossa_crowd_transition(ossa_crowd *crowd, ossa_entity entity, int clip,
                                  float duration_s, bool match_phase);
/* Marks a character skinned or not: OSSA_ERR_FULL when skinned_capacity
 * characters already are (always, for a crowd without a skin). A skinned
 * character gets its palette from its next update on. */
ossa_result ossa_crowd_set_skinned(ossa_crowd *crowd, ossa_entity entity, bool skinned);

/* A character's state, hot and cold, as a copy. */
typedef struct ossa_character_state {
    char name[OSSA_CROWD_NAME_BYTES];
    int clip_a, clip_b;
    float weight_b;
    float time_a_s, time_b_s; /* playheads, kept in [0, clip duration) */
    float speed;
    ossa_float3 position;
    float yaw_rad;
    int update_interval;
    int phase;                /* frames with (frame % interval) == phase update it */
    bool active;
    bool skinned;             /* marked skinned (updated every frame while active) */
    uint64_t spawn_frame;     /* cold: the crowd's frame number at spawn */
    uint32_t updates;         /* cold: poses computed */
    uint32_t footfalls;       /* cold: footfalls detected */
    bool sync;                /* phase sync (layers in normalised time) */
    float fade_to;            /* the weight_b the current fade ends at (weight_b when none) */
    float fade_left_s;        /* seconds left of the current fade (0 when none) */
} ossa_character_state;

ossa_result ossa_crowd_character(const ossa_crowd *crowd, ossa_entity entity,
                                 ossa_character_state *out);
/* The character's world-space joint transforms (joint_count matrices) as of
 * its last update, or NULL for a stale entity or one never updated. The
 * pointer stays valid while the entity lives (poses do not move when
 * characters change buckets); its contents change at the entity's updates. */
const ossa_mat34 *ossa_crowd_pose(const ossa_crowd *crowd, ossa_entity entity);
/* Where a socket of the character is in the world (ossa/socket.h): its
 * joint's world transform as of the character's last update, times the
 * socket's offset - the transform of a prop it holds. OSSA_ERR_STALE_ID,
 * OSSA_ERR_BAD_INDEX for a joint out of range, OSSA_ERR_NOT_FOUND before
 * its first update (it has no pose yet). */
ossa_result ossa_crowd_socket(const ossa_crowd *crowd, ossa_entity entity,
                              const ossa_socket *socket, ossa_mat34 *out);
/* A skinned, active character's palette (the crowd's skin_joint_count
 * matrices, world space, 16-byte aligned) as of its last update, or NULL when
 * it is stale, not skinned, inactive or not updated since it became skinned
 * or active. Valid until the crowd next spawns, despawns, changes an
 * activation, interval or skinning, or updates. */
const ossa_mat34 *ossa_crowd_palette(const ossa_crowd *crowd, ossa_entity entity);
int ossa_crowd_skin_joint_count(const ossa_crowd *crowd);

/* ---- dense iteration (slots) ---- */

/* Characters alive; slots [0, count) are dense. */
int ossa_crowd_count(const ossa_crowd *crowd);
/* Active characters: slots [0, active) are active, [active, count) inactive. */
int ossa_crowd_active_count(const ossa_crowd *crowd);
/* Active skinned characters: slots [0, skinned) (a prefix of the active ones). */
int ossa_crowd_skinned_count(const ossa_crowd *crowd);
/* The entity in a slot (zeroed when slot is out of range). */
ossa_entity ossa_crowd_entity_at(const ossa_crowd *crowd, int slot);
/* The slot of an entity, or -1 when it is stale. */
int ossa_crowd_slot(const ossa_crowd *crowd, ossa_entity entity);
int ossa_crowd_joint_count(const ossa_crowd *crowd);
int ossa_crowd_width(const ossa_crowd *crowd);

/* ---- frame ---- */

/* Advances active characters' playheads by dt_s x speed and plans this
 * frame's batches (the characters whose interval and phase say they update
 * now); *batch_count receives their number. Not thread-safe. */
ossa_result ossa_crowd_begin_frame(ossa_crowd *crowd, float dt_s, int *batch_count);
/* Batches per ossa_crowd_update call that let it run root motion and the
 * event jobs once for all of them: hand threads ranges of this many. */
int ossa_crowd_task_batches(const ossa_crowd *crowd);
/* Scratch bytes one ossa_crowd_update call needs (64-byte aligned memory). */
size_t ossa_crowd_scratch_size(const ossa_crowd *crowd);
/* Updates batches [batch_begin, batch_end) of this frame's plan (0, 0 means
 * all). Calls on disjoint ranges may run on different threads at once, each
 * with its own scratch. The results do not depend on how the batches are
 * split, but the cost does: root motion and the event jobs run once per run
 * of contiguous batches inside a range, up to ossa_crowd_task_batches of
 * them, so ranges of that many batches cost least (one batch per call pays
 * those jobs' setup for every batch). */
ossa_result ossa_crowd_update(ossa_crowd *crowd, int batch_begin, int batch_end, void *scratch,
                              size_t scratch_bytes);
/* Where the skinned characters' vertices go (the crowd needs a mesh): each
 * update writes skinned slot s (0 <= s < ossa_crowd_skinned_count) at
 * vertices + s * character_stride, in `format` (ossa_skin_vertex_bytes per
 * vertex, in the mesh's runtime vertex order, which ossa_mesh_indices refers
 * to) - a buffer of the caller's, or a mapped GPU buffer. The output stays
 * set across frames until changed; a zeroed one (vertices NULL) turns
 * skinning off. Example, packed vertices for a GPU:
 *
 *     ossa_crowd_skin_output out = {0};
 *     out.format = OSSA_SKIN_FORMAT_PACKED;
 *     out.character_stride = (ossa_skin_output_bytes(mesh, out.format) + 63) / 64 * 64;
 *     out.vertices = buffer;                       (64-byte aligned)
 *     out.vertices_bytes = skinned * out.character_stride;
 *     out.stream_output = true;
 *     ossa_crowd_set_skin_output(crowd, &out);
 */
typedef struct ossa_crowd_skin_output {
    /* Aligned as the format needs (ossa_skin_output_alignment: 16 for
     * float4, 4 for packed); 64 lets every character start on a cache line. */
    void *vertices;
    size_t vertices_bytes;   /* >= skinned characters x character_stride */
    /* Bytes from one skinned character's vertices to the next: at least
     * ossa_skin_output_bytes(mesh, format), a multiple of the format's
     * alignment (of 64 for whole cache lines). */
    size_t character_stride;
    ossa_skin_format format; /* default OSSA_SKIN_FORMAT_FLOAT4: the mesh's layout */
    ossa_simd_path path;     /* skinning path, default OSSA_SIMD_AUTO */
    /* Non-temporal stores (ossa_skinning_job.stream_output): right for
     * vertices on their way to the GPU, which this core does not read. */
    bool stream_output;
} ossa_crowd_skin_output;

/* Sets the skin output: OSSA_ERR_BAD_ARGUMENT without a mesh or for a bad
 * format, OSSA_ERR_MISALIGNED, OSSA_ERR_OUTPUT_TOO_SMALL for a stride below
 * the mesh's bytes in the format, OSSA_ERR_UNSUPPORTED for a path this
 * machine cannot run. An update whose skinned characters do not fit in vertices_bytes
 * fails with OSSA_ERR_OUTPUT_TOO_SMALL before it changes anything. Not
 * thread-safe (call it between frames, or between begin_frame and update). */
ossa_result ossa_crowd_set_skin_output(ossa_crowd *crowd, const ossa_crowd_skin_output *output);

/* IK (a crowd made with desc.ik). The ground the feet are planted on, copied
 * (its heights are not: they must outlive the crowd's updates); NULL turns
 * the feet's IK off (the default). Each foot's target is its animated
 * height above its character's root (ossa_character_desc.position.y: put
 * characters on the ground) over the ground below it; a character's pelvis
 * drops as far as a foot needs for its leg to reach it within 0.97 of its
 * length (or as stretched as the animation has it, if more: on flat ground
 * nothing changes), up to a quarter of the leg. Not
 * thread-safe. OSSA_ERR_BAD_ARGUMENT without IK joints or for an empty
 * ground, OSSA_ERR_BAD_VALUE for a cell size or origin that is not finite
 * and positive. */
ossa_result ossa_crowd_set_ground(ossa_crowd *crowd, const ossa_crowd_ground *ground);
/* Where the heads look (world space), with what weight in [0, 1]: 0 (the
 * default) turns the look-at chain off. Characters look less the further the
 * point is behind them (not at all beyond 110 degrees from their facing).
 * Not thread-safe. */
ossa_result ossa_crowd_set_look_target(ossa_crowd *crowd, ossa_float3 target, float weight);

/* Gathers the frame's footfalls in batch order. Not thread-safe. */
ossa_result ossa_crowd_end_frame(ossa_crowd *crowd);

/* The stages of one batch of ossa_crowd_update, in order. */
typedef enum ossa_crowd_stage {
    OSSA_CROWD_STAGE_SAMPLE_A = 0,   /* sample the clip each character weighs (a; b at weight 1) */
    OSSA_CROWD_STAGE_SAMPLE_B,       /* sample clip b, when a character of the batch blends */
    OSSA_CROWD_STAGE_BLEND,          /* blend the two */
    OSSA_CROWD_STAGE_LOCAL_TO_MODEL, /* root motion moves the placement and the
                                      * event jobs run (both once for a run of
                                      * up to 64 contiguous characters, in its
                                      * first batch); walk the hierarchy,
                                      * placement as root */
    OSSA_CROWD_STAGE_POSE_OUT,       /* write the world poses; footfalls and events */
    OSSA_CROWD_STAGE_PALETTE,        /* palettes (batches with skinned characters) */
    OSSA_CROWD_STAGE_SKIN,           /* skinning them (with a mesh and a skin output) */
    /* IK, with a ground or a look target: between local->model and pose out
     * (listed last, so the stages before it keep their numbers): targets,
     * pelvis, legs, look-at, local->model again */
    OSSA_CROWD_STAGE_IK,
    OSSA_CROWD_STAGE_DONE,           /* the batch is finished */
    OSSA_CROWD_STAGE_COUNT
} ossa_crowd_stage;

/* Instrumentation: called by ossa_crowd_update on its own thread as each
 * stage of a batch begins and with OSSA_CROWD_STAGE_DONE when the batch ends
 * (the tools time stages with it). Called from every updating thread at once:
 * it must be thread-safe. */
typedef void (*ossa_crowd_stage_hook)(void *user, ossa_crowd_stage stage);
/* Sets the hook (NULL: none, the default). Not thread-safe. */
void ossa_crowd_set_stage_hook(ossa_crowd *crowd, ossa_crowd_stage_hook hook, void *user);

/* A foot touching the ground this frame. */
typedef struct ossa_footfall {
    ossa_entity entity;
    int foot;             /* index into the crowd's feet */
    ossa_float3 position; /* world space */
} ossa_footfall;

/* The footfalls of the last ended frame (valid until the next begin_frame).
 * A character updated every few frames reports the footfalls of all of them
 * at its update (one per foot is listed; its footfalls count has them all). */
const ossa_footfall *ossa_crowd_footfalls(const ossa_crowd *crowd, int *count);

/* A trigger's crossing this frame. */
typedef struct ossa_crowd_event {
    ossa_entity entity;
    int trigger;   /* index into the crowd's triggers */
    int clip;      /* the clip whose track crossed */
    float time_s;  /* its clip time at the crossing */
    bool rising;   /* upwards, in the direction of play */
} ossa_crowd_event;

/* The events of the last ended frame, in batch order and, per character, in
 * the order they were passed (at most OSSA_CROWD_EVENTS_PER_UPDATE per
 * trigger and update); valid until the next begin_frame. */
const ossa_crowd_event *ossa_crowd_events(const ossa_crowd *crowd, int *count);

/* Counts of the last begun frame. */
typedef struct ossa_crowd_stats {
    uint64_t frame;          /* frames begun so far */
    int characters;          /* alive */
    int active;              /* animated (not culled or sleeping) */
    int interval_count[3];   /* active characters updated every 1 (skinned
                              * included), 2, 4 frames */
    int skinned;             /* active and skinned */
    int updated;             /* characters this frame updates */
    float updates_per_frame; /* long-run average: sum of active / interval */
    int batches;             /* batches this frame */
    int lanes;               /* batches x width: updated / lanes is the lane fill */
    int reordered;           /* slot swaps this frame made for clip order */
} ossa_crowd_stats;

ossa_crowd_stats ossa_crowd_get_stats(const ossa_crowd *crowd);

/* ---- dust ---- */

/* Spawns `puffs` particles at each footfall of the last ended frame, moving
 * outwards at `speed` (model units per second) in a direction hashed from
 * the entity, foot and frame, and slightly up; deterministic. Returns the
 * particles spawned (fewer when the system is full). */
int ossa_crowd_emit_dust(const ossa_crowd *crowd, ossa_particles *particles, int puffs,
                         float speed);

#ifdef __cplusplus
}
#endif

#endif /* OSSA_CROWD_H */
